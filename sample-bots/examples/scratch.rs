use bot_sdk::{MapSpec, rules::Action};
use sample_bots::plan_search::*;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let width: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let states: usize = std::env::args().nth(3).unwrap().parse().unwrap();
    let spec = MapSpec::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cleared = spec.script.iter().filter_map(|s| match s.action { Action::Move(p) => Some((p, s.tick)), _ => None }).collect();
    let problem = Problem { grid: spec.grid.clone(), start: spec.starts[0], final_pos: spec.final_pos, jump: false, multiplier: 1, ticks: spec.rounds, cleared };
    let t = Instant::now();
    let model = Model::new(problem);
    println!("model {:?}", t.elapsed());
    let t = Instant::now();
    let beam = search(&model, Limits { beam: Some(width), max_states: usize::MAX, incumbent: None }, None);
    let inc = match &beam { Outcome::Found(p) => Some(p.score), _ => None };
    println!("beam {:?} {:?}", t.elapsed(), inc);
    let t = Instant::now();
    let inc = std::env::args().nth(4).map(|s| s.parse().unwrap()).or(inc);
    let ex = search(&model, Limits { beam: None, max_states: states, incumbent: inc }, None);
    println!("exact {:?} {:?}", t.elapsed(), match ex { Outcome::Optimal(p) => format!("opt {}", p.score), o => format!("{o:?}") });
}
