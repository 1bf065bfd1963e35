//! `arena tournament` and `arena leaderboard`.

use std::path::PathBuf;
use std::process::ExitCode;

use arena::tournament::config::TournamentConfig;
use arena::tournament::{self as tour, TournamentRecord};

use super::{LeaderboardArgs, TournamentArgs};

/// The configuration this command line asks for, and the folder it runs in.
fn resolve(args: &TournamentArgs) -> anyhow::Result<(TournamentConfig, PathBuf, bool)> {
    let (mut config, out, resume) = if let Some(dir) = &args.resume {
        (TournamentRecord::load(dir)?.config, dir.clone(), true)
    } else {
        let config = match &args.config {
            Some(path) => TournamentConfig::load(path)?,
            None if !args.bots.is_empty() && args.game.as_deref().is_some_and(|g| g != "resource-rush") => {
                TournamentConfig::from_toml("", std::path::Path::new("<command line>"))?
            }
            None if !args.bots.is_empty() => {
                TournamentConfig::from_toml("maps = [\"maps/duel.txt\"]", std::path::Path::new("<command line>"))?
            }
            None => TournamentConfig::embedded()?,
        };
        let out = match args.out.clone().or(config.out.clone()) {
            Some(out) => out,
            None => super::fresh_output(&format!("tournament-{}", super::unix_secs()), ""),
        };
        (config, out, false)
    };
    for bot in &args.bots {
        config.put_bot(bot.clone());
    }
    if !args.maps.is_empty() {
        config.maps = args.maps.clone();
    }
    config.games = args.games.unwrap_or(config.games);
    config.game = args.game.clone().unwrap_or(config.game);
    config.seats = args.seats.or(config.seats);
    config.size = args.size.clone().or(config.size);
    config.rounds = args.rounds.or(config.rounds);
    config.seed = args.seed.unwrap_or(config.seed);
    config.jobs = args.jobs.or(config.jobs);
    config.limits.startup_ms = args.startup_ms.or(config.limits.startup_ms);
    config.limits.move_ms = args.move_ms.or(config.limits.move_ms);
    config.limits.total_ms = args.total_ms.or(config.limits.total_ms);
    args.sandbox.apply(&mut config.limits);
    args.clock.apply(&mut config.limits);
    config.sandbox = args.sandbox.mode().unwrap_or(config.sandbox);
    config.out = Some(out.clone());
    Ok((config, out, resume))
}

/// Runs `arena tournament`.
pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let (config, out, resume) = resolve(&args)?;
    let cancel = super::cancel_on_ctrl_c("interrupted: starting no new matches, ending running bots")?;
    let summary = tour::run(config, &out, resume, cancel)?;
    if args.json {
        say!("{}", arena::safe_text::json(&summary.leaderboard, true)?);
    } else {
        say!("{}", summary.leaderboard.table());
        say!(
            "{} of {} matches played ({} now, {} kept, {} superseded dropped). Folder: {}",
            summary.leaderboard.matches,
            summary.leaderboard.scheduled,
            summary.played,
            summary.kept,
            summary.dropped,
            summary.out.display()
        );
    }
    if summary.interrupted {
        tell!("interrupted: resume with `arena tournament --resume {}`", summary.out.display());
        return Ok(ExitCode::from(130));
    }
    if !summary.failed.is_empty() {
        eprintln!("{} matches could not be played", summary.failed.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena leaderboard`.
pub fn leaderboard(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let board = tour::recompute(&args.dir)?;
    if args.json {
        say!("{}", arena::safe_text::json(&board, true)?);
    } else {
        say!("{}", board.table());
        say!("{} of {} matches played.", board.matches, board.scheduled);
    }
    Ok(ExitCode::SUCCESS)
}
