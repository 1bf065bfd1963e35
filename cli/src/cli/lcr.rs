//! `arena play lcr` (the original program) and `arena simulate lcr` (statistics).

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use arena::games::lcr::classic::{run, Dice};
use arena::games::lcr::sim::{fit, simulate as simulate_games};

use super::{PlayArgs, SimulateArgs};

fn check_game(game: &str) -> anyhow::Result<()> {
    if game != arena::games::lcr::NAME {
        bail!("unknown game `{game}` here: only `lcr` has this command");
    }
    Ok(())
}

/// Runs `arena play lcr`, `arena play atoms` or `arena play tactics`.
pub fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    if ![arena::games::lcr::NAME, arena::games::atoms::NAME, "tactics"].contains(&args.game.as_str()) {
        bail!("unknown game `{}`: `arena play` knows lcr, atoms and tactics", args.game);
    }
    if args.game != arena::games::lcr::NAME && (args.seed.is_some() || args.dice.is_some()) {
        bail!("--seed and --dice are for `arena play lcr` only");
    }
    if args.game != "tactics" {
        if let Some(extra) = args.params.first() {
            bail!("`arena play {}` takes no parameters (got `{}`)", args.game, extra.to_string_lossy());
        }
    }
    if args.game == "tactics" {
        let stdin = std::io::stdin();
        let code = arena::games::tactics::classic::run(&args.params, &mut stdin.lock(), &mut std::io::stdout().lock())?;
        return Ok(ExitCode::from(code as u8));
    }
    if args.game == arena::games::atoms::NAME {
        let stdin = std::io::stdin();
        let code = arena::games::atoms::classic::run(
            &mut stdin.lock(),
            &mut std::io::stdout().lock(),
            std::path::Path::new("."),
        )?;
        return Ok(ExitCode::from(code as u8));
    }
    let mut dice = match (&args.dice, args.seed) {
        (Some(list), _) => Dice::given(list).map_err(anyhow::Error::msg)?,
        (None, Some(seed)) => Dice::seeded(seed),
        (None, None) => {
            let seed = rand::random();
            eprintln!("seed {seed} (repeat this game with --seed {seed})");
            Dice::seeded(seed)
        }
    };
    let stdin = std::io::stdin();
    let code = run(&mut stdin.lock(), &mut std::io::stdout().lock(), &mut dice)?;
    Ok(ExitCode::from(code as u8))
}

/// Runs `arena simulate lcr`.
pub fn simulate(args: SimulateArgs) -> anyhow::Result<ExitCode> {
    check_game(&args.game)?;
    if args.players.iter().any(|&p| !(2..=arena::games::lcr::MAX_PLAYERS).contains(&p)) || args.games < 2 {
        bail!("--players must each be 2..={} and --games at least 2", arena::games::lcr::MAX_PLAYERS);
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
