//! `arena tournament`, `arena build`, `arena merge` and `arena leaderboard`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use arena::tournament::config::{ForfeitRule, TournamentConfig};
use arena::tournament::schedule::Shard;
use arena::tournament::{self as tour, RunOptions, TournamentRecord};

use super::{BuildArgs, LeaderboardArgs, MergeArgs, TournamentArgs};

/// The configuration this command line asks for, the folder it runs in, and how.
fn resolve(args: &TournamentArgs) -> anyhow::Result<(TournamentConfig, PathBuf, RunOptions)> {
    let here = std::env::current_dir().context("the current folder")?;
    let mut options = RunOptions { rerun: args.rerun.clone(), ..RunOptions::default() };
    if let Some(shard) = &args.shard {
        options.shard = Some(if shard == "auto" {
            Shard::from_env(|k| std::env::var(k).ok()).map_err(anyhow::Error::msg)?
        } else {
            Shard::parse(shard).map_err(|e| anyhow::anyhow!("--shard: {e}"))?
        });
        let changes = args.config.is_some()
            || !args.bots.is_empty()
            || !args.maps.is_empty()
            || !args.exclude.is_empty()
            || args.games.is_some()
            || args.seed.is_some()
            || args.game.is_some();
        if changes {
            bail!("a shard plays the league as `arena build` prepared it: change the league with `arena build` (or --resume without --shard), then start the shards");
        }
    }
    let (mut config, out, resume) = if let Some(dir) = &args.resume {
        if args.out.is_some() && options.shard.is_none() {
            bail!("--out with --resume is for a shard writing to its own folder (--shard K/N); a league is resumed in its folder");
        }
        let record = TournamentRecord::load(dir)?;
        let config = match &args.config {
            Some(path) => TournamentConfig::load(path)?,
            None => record.config,
        };
        if options.shard.is_some() && args.out.as_ref().is_some_and(|o| o != dir) {
            options.league = Some(dir.clone());
        }
        (config, args.out.clone().unwrap_or_else(|| dir.clone()), true)
    } else {
        let mut config = match &args.config {
            Some(path) => TournamentConfig::load(path)?,
            None if !args.bots.is_empty() && args.game.as_deref().is_some_and(|g| g != "resource-rush") => {
                TournamentConfig::from_toml("", Path::new("<command line>"))?
            }
            None if !args.bots.is_empty() => {
                TournamentConfig::from_toml("maps = [\"maps/duel.txt\"]", Path::new("<command line>"))?
            }
            None => TournamentConfig::embedded()?,
        };
        if args.config.is_none() {
            config.resolve_paths(&here);
        }
        let out = match args.out.clone().or(config.out.clone()) {
            Some(out) => out,
            None => super::fresh_output(&format!("tournament-{}", super::unix_secs()), ""),
        };
        (config, out, false)
    };
    options.resume = resume;
    for bot in &args.bots {
        let mut bot = bot.clone();
        bot.resolve_paths(&here);
        config.put_bot(bot);
    }
    for name in &args.exclude {
        let before = config.bots.len();
        config.bots.retain(|b| &b.name != name);
        if config.bots.len() == before {
            bail!("--exclude {name}: no bot of that name in the league");
        }
    }
    if !args.maps.is_empty() {
        config.maps = args.maps.iter().map(|m| here.join(m)).collect();
    }
    config.games = args.games.unwrap_or(config.games);
    config.game = args.game.clone().unwrap_or(config.game);
    config.seats = args.seats.or(config.seats);
    config.size = args.size.clone().or(config.size);
    config.rounds = args.rounds.or(config.rounds);
    config.seed = args.seed.unwrap_or(config.seed);
    config.jobs = args.jobs.or(config.jobs);
    config.build_timeout_s = args.build_timeout_s.or(config.build_timeout_s);
    if let Some(rule) = &args.forfeits {
        config.forfeits = match rule.as_str() {
            "loss" => ForfeitRule::Loss,
            "score" => ForfeitRule::Score,
            other => bail!("--forfeits: expected loss or score, found `{other}`"),
        };
    }
    config.limits.startup_ms = args.startup_ms.or(config.limits.startup_ms);
    config.limits.move_ms = args.move_ms.or(config.limits.move_ms);
    config.limits.total_ms = args.total_ms.or(config.limits.total_ms);
    args.sandbox.apply(&mut config.limits);
    args.clock.apply(&mut config.limits);
    config.sandbox = args.sandbox.mode().unwrap_or(config.sandbox);
    config.out = Some(out.clone());
    Ok((config, out, options))
}

/// Runs `arena tournament`.
pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let (config, out, options) = resolve(&args)?;
    let cancel = super::cancel_on_ctrl_c("interrupted: starting no new matches, ending running bots")?;
    let summary = tour::run(config, &out, &options, cancel)?;
    if let Some(shard) = summary.shard {
        say!(
            "shard {shard}: {} matches played now, {} kept{}. Folder: {}",
            summary.played,
            summary.kept,
            if summary.waiting > 0 { format!(", {} waiting for a good build", summary.waiting) } else { String::new() },
            summary.out.display()
        );
    } else if args.json {
        say!("{}", arena::safe_text::json(&summary.leaderboard, true)?);
    } else {
        say!("{}", summary.leaderboard.table());
        say!(
            "{} of {} matches played ({} now, {} kept, {} superseded kept as history{}). Folder: {}",
            summary.leaderboard.matches,
            summary.leaderboard.scheduled,
            summary.played,
            summary.kept,
            summary.dropped,
            if summary.waiting > 0 { format!(", {} waiting for a good build", summary.waiting) } else { String::new() },
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

/// Runs `arena build`: builds and fingerprints the bots and writes the league's record, so
/// that shards can play it.
pub fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let mut targs = args.tournament;
    if let Some(file) = args.config_file {
        targs.config = Some(file);
    }
    let Some(config_file) = targs.config.clone() else { bail!("arena build: give the league's CONFIG") };
    // An existing league takes the config as its new roster and settings.
    let out = match targs.out.clone() {
        Some(o) => o,
        None => TournamentConfig::load(&config_file)?
            .out
            .ok_or_else(|| anyhow::anyhow!("{}: no `out`: give --out DIR", config_file.display()))?,
    };
    if out.join(tour::TOURNAMENT_FILE).exists() {
        targs.resume = Some(out.clone());
        targs.out = None;
    } else {
        targs.out = Some(out.clone());
    }
    let (config, out, mut options) = resolve(&targs)?;
    options.prepare_only = true;
    let summary = tour::run(config, &out, &options, tokio_util::sync::CancellationToken::new())?;
    let record = TournamentRecord::load(&out)?;
    for bot in &record.bots {
        let state = if bot.runnable { "ready" } else { "waiting (its newest version failed)" };
        say!("{} {} {}", bot.entry.name, bot.fingerprint, state);
    }
    for (name, why) in &record.failures {
        say!("{name} cannot play: {why}");
    }
    say!(
        "{} matches scheduled, {} to play, {} kept. Folder: {}",
        record.schedule.len(),
        record.schedule.len() - summary.kept - summary.waiting,
        summary.kept,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena merge`.
pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let merged = tour::merge::merge(&args.out, &args.dirs)?;
    if args.json {
        say!("{}", arena::safe_text::json(&merged.leaderboard, true)?);
    } else {
        say!("{}", merged.leaderboard.table());
        say!("{} Folder: {}", merged.leaderboard.played_text(), args.out.display());
    }
    if !merged.missing.is_empty() {
        eprintln!(
            "the league is not complete: {} of {} matches are missing:",
            merged.missing.len(),
            merged.leaderboard.scheduled
        );
        for key in merged.missing.iter().take(20) {
            eprintln!("  {key}");
        }
        if merged.missing.len() > 20 {
            eprintln!("  … and {} more", merged.missing.len() - 20);
        }
        eprintln!("re-run the shards that did not finish (each resumes), then merge again");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena leaderboard`.
pub fn leaderboard(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let as_of =
        args.as_of.as_deref().map(arena::tournament::versions::parse_time).transpose().map_err(anyhow::Error::msg)?;
    let board = tour::recompute(&args.dir, as_of)?;
    if args.json {
        say!("{}", arena::safe_text::json(&board, true)?);
    } else if args.csv {
        let text = board.csv()?;
        say!("{}", text.trim_end());
    } else {
        say!("{}", board.table());
        say!("{}", board.played_text());
    }
    Ok(ExitCode::SUCCESS)
}
