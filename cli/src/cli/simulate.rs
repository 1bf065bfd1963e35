//! `arena simulate lcr`: Wild Left-Center-Right's statistics by simulation.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use arena::games::lcr::sim::{fit, simulate as simulate_games};

use super::SimulateArgs;

/// The most games per player count: 10^9 games of 3 players take about three minutes on one
/// core (5 million a second, README), and a typo of a few more digits would run for days.
const MAX_GAMES: u64 = 1_000_000_000;

/// The most threads: more than any machine's cores, fewer than a typo's.
const MAX_JOBS: usize = 1024;

/// Runs `arena simulate lcr`.
pub fn run(args: SimulateArgs) -> anyhow::Result<ExitCode> {
    if args.game != arena::games::lcr::NAME {
        bail!("unknown game `{}` here: only `lcr` has this command", args.game);
    }
    let most = arena::games::lcr::MAX_PLAYERS;
    if let Some(p) = args.players.iter().find(|&&p| !(2..=most).contains(&p)) {
        bail!("--players {p}: each player count must be 2..={most}");
    }
    if !(2..=MAX_GAMES).contains(&args.games) {
        bail!("--games {}: it must be 2..={MAX_GAMES} (a standard error needs two games)", args.games);
    }
    if let Some(jobs) = args.jobs.filter(|j| !(1..=MAX_JOBS).contains(j)) {
        bail!("-j {jobs}: the threads must be 1..={MAX_JOBS}");
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    say!("| players | games | mean turns | standard error | 95 % interval | SE / mean |");
    say!("| --- | --- | --- | --- | --- | --- |");
    let mut all = Vec::new();
    for &players in &args.players {
        let started = Instant::now();
        let s = simulate_games(players, args.games, args.seed, jobs);
        let took = started.elapsed().as_secs_f64();
        let (lo, hi) = s.interval();
        say!(
            "| {players} | {} | {:.3} | {:.4} | {lo:.3} – {hi:.3} | {:.3} % |",
            s.games,
            s.mean,
            s.se,
            s.se / s.mean * 100.0
        );
        eprintln!(
            "{players} players: {:.0} games/s on {jobs} thread(s), {:.0} games/s per thread",
            s.games as f64 / took,
            s.games as f64 / took / jobs as f64
        );
        all.push(s);
    }
    if all.len() >= 3 {
        let fits = fit(&all);
        say!();
        for (i, f) in fits.iter().enumerate() {
            say!(
                "{} {:<11} R² = {:.5} (adjusted {:.5})  {}",
                if i == 0 { "best" } else { "    " },
                f.model,
                f.r2,
                f.adjusted_r2,
                f.formula
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
