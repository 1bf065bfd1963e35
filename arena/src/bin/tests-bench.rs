//! `tests-bench`: how good is good. Plays the 20 single-player tests with the `reference` and
//! `greedy` strategies in-process and solves each test (exactly, or an upper bound), then
//! prints per test the scores, the optimum or bound, reference/optimum and decision time.
//!
//! Run `cargo build --release -p arena && target/release/tests-bench [DIR]` from the
//! repository root (DIR defaults to `maps/tests`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use arena::checker::discover;
use arena::games::resource_rush::load_map_file;
use arena::games::resource_rush::offline::play_test;
use arena::games::resource_rush::solver::{solve, Solution, DEFAULT_STATE_LIMIT};
use sample_bots::greedy::Greedy;
use sample_bots::reference::Reference;

fn main() -> anyhow::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "maps/tests".to_string()));
    let cases = discover(&dir).with_context(|| format!("reading {}", dir.display()))?;
    println!("| test | minimum | reference | greedy | optimum (or bound) | reference / optimum | reference decision time | solver time |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let (mut passed, mut worst_ratio, mut slowest) = (0, f64::INFINITY, Duration::ZERO);
    for case in &cases {
        let spec = load_map_file(&case.path)?;
        let r = play_test(&spec, Reference::default());
        let g = play_test(&spec, Greedy);
        let (rs, gs) = (&r.outcome.players[0], &g.outcome.players[0]);
        let started = Instant::now();
        let solution = solve(&spec, DEFAULT_STATE_LIMIT);
        let solver_time = started.elapsed();
        let ok = rs.finished && rs.forfeit.is_none() && case.minimum.is_none_or(|m| rs.score >= m);
        passed += usize::from(ok);
        slowest = slowest.max(r.thinking);
        let (optimum, ratio) = match solution {
            Solution::Exact(best) => {
                let ratio = if best == 0 { 1.0 } else { rs.score as f64 / best as f64 };
                worst_ratio = worst_ratio.min(ratio);
                (format!("{best} (exact)"), format!("{:.1} %", ratio * 100.0))
            }
            Solution::AtMost(bound) => {
                (format!("<= {bound}"), format!(">= {:.1} %", rs.score as f64 / bound.max(1) as f64 * 100.0))
            }
            Solution::Impossible => ("impossible".to_string(), "-".to_string()),
        };
        println!(
            "| test{} | {} | {}{} | {} | {optimum} | {ratio} | {:.0} ms | {:.0} ms |",
            case.number,
            case.minimum.map_or("-".to_string(), |m| m.to_string()),
            rs.score,
            if ok { "" } else { " (FAIL)" },
            if gs.finished { gs.score.to_string() } else { "did not finish".to_string() },
            r.thinking.as_secs_f64() * 1000.0,
            solver_time.as_secs_f64() * 1000.0,
        );
    }
    println!();
    println!(
        "reference: {passed}/{} passed; worst reference/optimum where the optimum is known: {:.1} % (target >= 98 %); slowest test's total decision time: {:.0} ms (target < 1000 ms)",
        cases.len(),
        worst_ratio * 100.0,
        slowest.as_secs_f64() * 1000.0
    );
    Ok(())
}
