//! The best score a bot can reach on a single-player test, against the file's scripted
//! opponent: proved by exact search where it finishes, otherwise bracketed between the best
//! plan found and a certified upper bound.
//!
//! 1. Quick plans: beam searches of growing width over the real rules
//!    ([`sample_bots::plan_search`]), plus any plan the caller already has (the reference
//!    bot's game).
//! 2. Exact search with that incumbent, pruning every state whose admissible bound cannot
//!    beat it; finishing within its state budget proves the optimum.
//! 3. Otherwise the Lagrangian relaxation ([`super::relaxation`]) is tightened by subgradient
//!    steps; each step gives a certified bound and, replayed, a plan. Its cost-to-go then
//!    prunes a second exact search, which may still prove the optimum.
//!
//! Every effort is counted (states, iterations), so the answer does not depend on the machine;
//! a CPU-time limit only stops the subgradient steps early.

use std::time::Duration;

use crate::cputime::thread_cpu;

use bot_sdk::rules::Action;
use bot_sdk::path::Distances;
use bot_sdk::{Cell, MapSpec, Pos};
use sample_bots::plan_search::{search, CostToGo, Limits, Model, Outcome, Plan, Problem};

use super::relaxation::{replay, Relaxation};
use tracing::trace;

/// What the solver found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solution {
    /// The best achievable score, proved (with a plan that scores it).
    Exact(i64),
    /// The best plan found scores `best`; no bot can score more than `bound`.
    Bounded {
        /// Score of the best plan found.
        best: i64,
        /// Certified upper bound.
        bound: i64,
    },
    /// No bot can reach the final in time.
    Impossible,
}

impl Solution {
    /// The certified gap, `bound / best - 1` (0 when exact).
    pub fn gap(&self) -> f64 {
        match *self {
            Solution::Bounded { best, bound } => bound as f64 / (best.max(1)) as f64 - 1.0,
            _ => 0.0,
        }
    }
}

/// What the solver did and found.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The answer.
    pub solution: Solution,
    /// A plan scoring the optimum (or the best found), one answer per tick.
    pub plan: Option<Plan>,
}

/// How much the solver may search.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Widths of the beam searches for quick plans.
    pub beams: Vec<usize>,
    /// States the first exact search may create (before the relaxation).
    pub quick_states: usize,
    /// States the exact search pruned by the relaxation may create.
    pub exact_states: usize,
    /// Subgradient steps of the relaxation.
    pub iterations: usize,
    /// Width of the beam searches guided by the relaxation.
    pub guided_beam: usize,
    /// Stop improving once the bound is within this fraction of the best plan.
    pub target_gap: f64,
    /// CPU time after which the relaxation stops improving.
    pub time_limit: Duration,
}

impl Default for Budget {
    /// The budget `arena solve` and `tests-bench` use: within a minute on one core for maps of
    /// the course's size.
    fn default() -> Budget {
        Budget {
            beams: vec![64, 1024],
            quick_states: 300_000,
            exact_states: 2_000_000,
            iterations: 3000,
            guided_beam: 256,
            target_gap: 0.0,
            time_limit: Duration::from_secs(40),
        }
    }
}

impl Budget {
    /// A small budget for tests.
    pub fn small() -> Budget {
        Budget {
            beams: vec![64],
            quick_states: 200_000,
            exact_states: 200_000,
            iterations: 20,
            guided_beam: 16,
            target_gap: 0.0,
            time_limit: Duration::from_secs(20),
        }
    }
}

/// The single-player problem of a test file: player 1 from its start, the scripted opponent's
/// moves as the cells it clears.
pub fn problem(spec: &MapSpec) -> Problem {
    let cleared = spec
        .script
        .iter()
        .filter_map(|s| match s.action {
            Action::Move(p) => Some((p, s.tick)),
            Action::Wait => None,
        })
        .collect();
    Problem {
        grid: spec.grid.clone(),
        start: spec.starts[0],
        final_pos: spec.final_pos,
        jump: false,
        multiplier: 1,
        ticks: spec.rounds,
        cleared,
    }
}

/// Solves `spec` within `budget`; `known` is a plan the caller already has (checked here).
pub fn solve(spec: &MapSpec, budget: &Budget, known: Option<&[Action]>) -> Solved {
    let started = thread_cpu();
    let elapsed = || thread_cpu().saturating_sub(started);
    let model = Model::new(problem(spec));
    let mut best: Option<Plan> = known.and_then(|moves| replay(&model, moves));
    let offer = |best: &mut Option<Plan>, plan: Plan| {
        if best.as_ref().is_none_or(|b| plan.score > b.score) {
            *best = Some(plan);
        }
    };
    for &width in &budget.beams {
        match search(&model, Limits { beam: Some(width), max_states: usize::MAX, incumbent: None }, None) {
            Outcome::Found(plan) => offer(&mut best, plan),
            Outcome::Impossible => return Solved { solution: Solution::Impossible, plan: None },
            _ => {}
        }
    }
    let exact = |best: &mut Option<Plan>, states: usize, extra: Option<&Relaxation>| {
        let limits = Limits { beam: None, max_states: states, incumbent: best.as_ref().map(|b| b.score) };
        match search(&model, limits, extra.map(|r| r as &dyn CostToGo)) {
            Outcome::Optimal(plan) => {
                *best = Some(plan);
                true
            }
            Outcome::NoneBetter => true,
            _ => false,
        }
    };
    let proved = |best: Option<Plan>| match best {
        Some(plan) => Solved { solution: Solution::Exact(plan.score), plan: Some(plan) },
        None => Solved { solution: Solution::Impossible, plan: None },
    };
    trace!("[{:?}] beams: {:?}", elapsed(), best.as_ref().map(|b| b.score));
    if exact(&mut best, budget.quick_states, None) {
        return proved(best);
    }
    let Some(mut relaxation) = Relaxation::new(&model) else {
        let bound = upper_bound(spec);
        return match (best, bound) {
            (Some(plan), Some(bound)) => {
                Solved { solution: Solution::Bounded { best: plan.score, bound: bound.max(plan.score) }, plan: Some(plan) }
            }
            _ => Solved { solution: Solution::Impossible, plan: None },
        };
    };
    let mut bound = f64::INFINITY;
    let mut best_prices = relaxation.prices.clone();
    let mut step = 2.0;
    let mut stalled = 0;
    let guided = |best: &mut Option<Plan>, relaxation: &Relaxation, width: usize| {
        let limits = Limits { beam: Some(width), max_states: usize::MAX, incumbent: None };
        if let Outcome::Found(plan) = search(&model, limits, Some(relaxation as &dyn CostToGo)) {
            offer(best, plan);
        }
    };
    for round in 0..budget.iterations {
        let relaxed = relaxation.solve();
        if round % 50 == 49 {
            guided(&mut best, &relaxation, budget.guided_beam);
        }
        if relaxed.bound == f64::NEG_INFINITY {
            return Solved { solution: Solution::Impossible, plan: None };
        }
        if let Some(plan) = relaxed.walk.as_deref().and_then(|w| replay(&model, w)) {
            offer(&mut best, plan);
        }
        trace!("[{:?}] relaxed {:.1} best {:?} step {step}", elapsed(), relaxed.bound, best.as_ref().map(|b| b.score));
        if relaxed.bound < bound - 1e-9 {
            bound = relaxed.bound;
            best_prices = relaxation.prices.clone();
            stalled = 0;
        } else {
            stalled += 1;
            if stalled >= 15 {
                step /= 2.0;
                stalled = 0;
            }
        }
        let lower = best.as_ref().map_or(0, |b| b.score) as f64;
        if bound.floor() <= lower * (1.0 + budget.target_gap) || elapsed() > budget.time_limit {
            break;
        }
        // Subgradient of the bound in the prices: 1 - takes (only resources carry a price).
        let grad: Vec<f64> = model
            .items()
            .iter()
            .enumerate()
            .map(|(i, (_, item))| match item {
                sample_bots::plan_search::Item::Resource(_) => 1.0 - f64::from(relaxed.takes[i]),
                _ => 0.0,
            })
            .collect();
        let norm: f64 = grad
            .iter()
            .zip(&relaxation.prices)
            .map(|(g, p)| if *g > 0.0 && *p <= 0.0 { 0.0 } else { g * g })
            .sum();
        if norm == 0.0 || step < 1e-4 {
            break;
        }
        let t = step * (relaxed.bound - lower) / norm;
        for (p, g) in relaxation.prices.iter_mut().zip(&grad) {
            *p = (*p - t * g).max(0.0);
        }
    }
    relaxation.prices = best_prices;
    let _ = relaxation.solve();
    for width in [budget.guided_beam, budget.guided_beam * 8] {
        guided(&mut best, &relaxation, width);
    }
    let lower = best.as_ref().map_or(0, |b| b.score);
    let bound = (bound + 1e-7 * bound.abs().max(1.0)).floor() as i64;
    if bound <= lower {
        return proved(best);
    }
    trace!("[{:?}] exact with relaxation from {lower} to {bound}", elapsed());
    if exact(&mut best, budget.exact_states, Some(&relaxation)) {
        return proved(best);
    }
    match best {
        Some(plan) => Solved { solution: Solution::Bounded { best: plan.score, bound }, plan: Some(plan) },
        None => Solved { solution: Solution::Impossible, plan: None },
    }
}

/// A valid upper bound: every resource the bot could visit on some way to the final in time,
/// each worth its value times the product of every reachable `D` and `T` (`None`: the final
/// cannot be reached in time).
pub fn upper_bound(spec: &MapSpec) -> Option<i64> {
    let grid = &spec.grid;
    let can_jump = grid.positions().any(|p| grid.get(p) == Some(Cell::Jump));
    let from_start = Distances::from(grid, spec.starts[0], can_jump);
    let to_final = Distances::from(grid, spec.final_pos, can_jump);
    let reachable = |p: Pos| matches!((from_start.get(p), to_final.get(p)), (Some(a), Some(b)) if a + b <= spec.rounds);
    let mut multiplier = 1i64;
    let mut sum = 0i64;
    for p in grid.positions().filter(|p| reachable(*p)) {
        match grid.get(p) {
            Some(Cell::Resource(v)) => sum = sum.saturating_add(i64::from(v)),
            Some(Cell::Double) => multiplier = multiplier.saturating_mul(2),
            Some(Cell::Triple) => multiplier = multiplier.saturating_mul(3),
            _ => {}
        }
    }
    if from_start.get(spec.final_pos).is_none_or(|d| d > spec.rounds) {
        return None;
    }
    Some(sum.saturating_mul(multiplier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Reply, State, Turn};
    use crate::games::resource_rush::ResourceRush;

    /// The best finishing score over every possible sequence of answers, played through the
    /// real game: the reference the solver is checked against.
    fn brute_force(state: &ResourceRush) -> Option<i64> {
        if state.turn() != Turn::Sequential(0) {
            let out = &state.outcome().players[0];
            return out.finished.then_some(out.score);
        }
        let me = state.player(0);
        let mut answers = vec!["WAIT".to_string()];
        answers.extend(legal_moves(state.grid(), me.pos, me.jump).iter().map(|p| format!("MOVE {} {}", p.x, p.y)));
        answers
            .into_iter()
            .filter_map(|a| {
                let mut next = state.clone();
                next.apply(&[(0, Reply::Line(a))]);
                brute_force(&next)
            })
            .max()
    }

    /// A small deterministic generator for random tiny maps.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random_map(rng: &mut Rng) -> String {
        let (rows, cols) = (1 + rng.next(3) as i32, 2 + rng.next(3) as i32);
        let rounds = 2 + rng.next(5);
        let tokens = ["0", "0", "3", "5", "9", "W", "E", "F", "J", "D", "T"];
        let mut cells: Vec<Vec<&str>> =
            (0..rows).map(|_| (0..cols).map(|_| tokens[rng.next(tokens.len() as u64) as usize]).collect()).collect();
        let pick = |rng: &mut Rng| (rng.next(rows as u64) as i32, rng.next(cols as u64) as i32);
        let (start, opp, fin) = (pick(rng), pick(rng), pick(rng));
        for (x, y) in [start, opp, fin] {
            if !["0", "3", "5", "9", "J", "D", "T"].contains(&cells[x as usize][y as usize]) {
                cells[x as usize][y as usize] = "0";
            }
        }
        let mut text = format!(
            "ARENA {rows} {cols} {rounds}\n{} {}\n{} {}\n{} {}\nMAP\n",
            start.0, start.1, opp.0, opp.1, fin.0, fin.1
        );
        for row in &cells {
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        // The scripted opponent wanders onto random cells next to it (unchecked, like files).
        let mut at = opp;
        for t in 1..=rounds {
            if rng.next(2) == 0 {
                text.push_str(&format!("TICK {t} WAIT\n"));
            } else {
                at = (
                    (at.0 + rng.next(3) as i32 - 1).clamp(0, rows - 1),
                    (at.1 + rng.next(3) as i32 - 1).clamp(0, cols - 1),
                );
                text.push_str(&format!("TICK {t} MOVE {} {}\n", at.0, at.1));
            }
        }
        text
    }

    #[test]
    fn the_solver_matches_brute_force_on_tiny_random_maps() {
        let mut rng = Rng(7);
        let mut exact = 0;
        for _ in 0..400 {
            let text = random_map(&mut rng);
            let spec = MapSpec::parse(&text).unwrap();
            let truth = brute_force(&ResourceRush::test(spec.clone(), false));
            match solve(&spec, DEFAULT_STATE_LIMIT) {
                Solution::Exact(score) => {
                    assert_eq!(Some(score), truth, "{text}");
                    exact += 1;
                }
                Solution::Impossible => assert_eq!(truth, None, "{text}"),
                Solution::AtMost(_) => panic!("tiny maps are solved exactly"),
            }
        }
        assert!(exact > 100, "enough maps can be finished to mean something ({exact})");
    }

    #[test]
    fn the_bound_is_never_below_the_optimum() {
        let mut rng = Rng(11);
        for _ in 0..200 {
            let spec = MapSpec::parse(&random_map(&mut rng)).unwrap();
            if let (Solution::Exact(best), Solution::AtMost(bound)) =
                (solve(&spec, DEFAULT_STATE_LIMIT), upper_bound(&spec))
            {
                assert!(bound >= best, "bound {bound} < optimum {best}");
            }
        }
    }

    #[test]
    fn a_state_limit_falls_back_to_the_bound() {
        let text = "ARENA 3 3 6\n0 0\n0 0\n2 2\nMAP\n0 5 5\n5 5 5\n5 5 0\nEND_MAP\nSTREAM\n";
        let spec = MapSpec::parse(text).unwrap();
        assert_eq!(solve(&spec, DEFAULT_STATE_LIMIT), Solution::Exact(25), "six steps take five 5s");
        assert_eq!(solve(&spec, 1), upper_bound(&spec));
        assert_eq!(upper_bound(&spec), Solution::AtMost(35));
    }
}
