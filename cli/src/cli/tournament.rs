//! `arena tournament`, `arena build`, `arena merge` and `arena leaderboard`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use arena::engine::Registry;
use arena::safe_text;
use arena::standings::ResultLine;
use arena::tournament::config::{ForfeitRule, TournamentConfig};
use arena::tournament::schedule::{ScheduledMatch, Shard};
use arena::tournament::{self as tour, Event, Plan, Reporter, RunOptions, TournamentError, TournamentRecord};
use arena::view;
use indicatif::{ProgressBar, ProgressStyle};

use super::{BuildArgs, LeaderboardArgs, MergeArgs, PublishArgs, ShownBar, TournamentArgs};

/// The configuration this command line asks for, the folder it runs in, and how.
fn resolve(args: &TournamentArgs) -> anyhow::Result<(TournamentConfig, PathBuf, RunOptions)> {
    let here = std::env::current_dir().context("the current folder")?;
    let mut options = RunOptions { rerun: args.rerun.clone(), ..RunOptions::default() };
    if let Some(shard) = &args.shard {
        options.shard_from_slurm = shard == "auto" && std::env::var_os("SLURM_ARRAY_TASK_ID").is_some();
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
            || args.game.is_some()
            || args.seats.is_some()
            || !args.params.is_empty();
        if changes {
            bail!("a shard plays the league as `arena build` prepared it: change the league with `arena build` (or --resume without --shard), then start the shards");
        }
        if !args.rerun.is_empty() {
            bail!("{}", arena::tournament::RERUN_WITH_SHARD);
        }
    }
    let mut league_config = None;
    let (mut config, out, resume) = if let Some(dir) = &args.resume {
        if args.out.is_some() && options.shard.is_none() {
            bail!("--out with --resume is for a shard writing to its own folder (--shard K/N); a league is resumed in its folder");
        }
        // (A new config replaces the record's: it is checked, and may mend what the record's got
        // wrong. A shard plays the record's own, checked.)
        let record = if args.config.is_some() && options.shard.is_none() {
            TournamentRecord::read(dir)?
        } else {
            TournamentRecord::load(dir, &arena::games::registry())?
        };
        if options.shard.is_some() {
            league_config = Some(record.config.clone());
        }
        let config = match &args.config {
            Some(path) => load_config(path)?,
            None => {
                changed_config_hint(&record.config, dir);
                record.config
            }
        };
        if options.shard.is_some() && args.out.as_ref().is_some_and(|o| o != dir) {
            options.league = Some(dir.clone());
        }
        (config, args.out.clone().unwrap_or_else(|| dir.clone()), true)
    } else {
        let mut config = match &args.config {
            Some(path) => load_config(path)?,
            None if !args.bots.is_empty() && args.game.as_deref().is_some_and(|g| g != super::DEFAULT_GAME) => {
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
    // (What the flags changed of what `validate` judges: its messages name them beside the file.)
    let flags: Vec<String> = args
        .bots
        .iter()
        .map(|b| format!("--bot {}", safe_text::terminal(&b.name)))
        .chain(args.exclude.iter().map(|name| format!("--exclude {}", safe_text::terminal(name))))
        .chain(args.games.map(|n| format!("--games {n}")))
        .chain(args.game.as_ref().map(|g| format!("--game {}", safe_text::terminal(g))))
        .chain(args.seats.map(|n| format!("--seats {n}")))
        .collect();
    if let (Some(origin), false) =
        (config.origin.as_ref().filter(|o| o.as_os_str() != "<command line>"), flags.is_empty())
    {
        config.origin = Some(PathBuf::from(format!("{} with {}", origin.display(), flags.join(" "))));
    }
    config.games = args.games.unwrap_or(config.games);
    config.game = args.game.clone().unwrap_or(config.game);
    config.seats = args.seats.or(config.seats);
    config.params.extend(args.params.clone());
    config.seed = args.seed.unwrap_or(config.seed);
    config.jobs = args.jobs.or(config.jobs);
    config.build_timeout_s = args.build_timeout_s.or(config.build_timeout_s);
    config.build_disk_mb = args.build_disk_mb.or(config.build_disk_mb);
    config.copies_mb = args.copies_mb.or(config.copies_mb);
    if let Some(rule) = &args.forfeits {
        config.forfeits = match rule.as_str() {
            "loss" => ForfeitRule::Loss,
            "score" => ForfeitRule::Score,
            other => bail!("--forfeits: expected loss or score, found `{other}`"),
        };
    }
    args.limits.apply(&mut config.limits);
    args.sandbox.apply(&mut config.limits);
    args.clock.apply(&mut config.limits);
    config.sandbox = args.sandbox.mode().unwrap_or(config.sandbox);
    if let Some(league) = &league_config {
        // Every shard plays under the limits `arena build` recorded (they are in the matches'
        // keys, and the boxes' limits decide results too): a flag that would change them is
        // refused rather than ignored. Only -j, how many matches at once, is the shard's own.
        // (Each named with the flags given that set it.)
        let named = |what: &str, flags: Vec<&str>| {
            if flags.is_empty() {
                what.to_string()
            } else {
                format!("{what} ({})", flags.join(", "))
            }
        };
        let differs: Vec<String> = [
            (
                named("the time limits", [args.limits.given(), args.clock.given()].concat()),
                config.limits.limits() != league.limits.limits(),
            ),
            (
                named("the boxes' limits", args.sandbox.given()),
                config.limits.sandbox_limits() != league.limits.sandbox_limits(),
            ),
            (
                format!(
                    "--sandbox ({}, where the league's is {})",
                    format!("{:?}", config.sandbox).to_lowercase(),
                    format!("{:?}", league.sandbox).to_lowercase()
                ),
                config.sandbox != league.sandbox,
            ),
            ("--forfeits".to_string(), config.forfeits != league.forfeits),
            ("--build-timeout-s".to_string(), config.build_timeout_s != league.build_timeout_s),
            ("--build-disk-mb".to_string(), config.build_disk_mb != league.build_disk_mb),
        ]
        .into_iter()
        .filter_map(|(what, changed)| changed.then_some(what))
        .collect();
        if !differs.is_empty() {
            bail!(
                "a shard plays the league as `arena build` prepared it, and these flags change {}: give them to \
                 `arena build` (then start the shards); only -j may differ from shard to shard",
                differs.join(", ")
            );
        }
    }
    config.out = Some(out.clone());
    Ok((config, out, options))
}

/// `folder` as the teacher can paste it where they are: relative to the current folder when it
/// lies inside it (a config's `out = "league"` is made absolute against the config's folder),
/// else as it is.
fn from_here(folder: &Path) -> PathBuf {
    let here = std::env::current_dir().ok();
    match here.as_deref().and_then(|here| folder.strip_prefix(here).ok()) {
        Some(inside) if inside.as_os_str().is_empty() => PathBuf::from("."),
        Some(inside) => inside.to_path_buf(),
        None => folder.to_path_buf(),
    }
}

/// Reads a league's config file, its `[params]` checked against its game here, so that a bad
/// value is said to be the file's rather than a flag's (`--size: expected ...`).
/// One line on stderr when the config file a league resumed without `--config` was made from
/// (`held.file`) now reads differently from what the league holds, with the command that uses
/// it: the edit is otherwise ignored without a word. Nothing when unchanged, gone or unreadable.
/// Its paths as the teacher can paste them where they are ([`from_here`], as `Folder:` is):
/// the league keeps the file's absolute path.
fn changed_config_hint(held: &TournamentConfig, dir: &Path) {
    let Some(file) = held.file.as_deref().filter(|f| f.is_file()) else { return };
    let Some(changes) = TournamentConfig::load(file).ok().and_then(|now| held.changes_in(&now)) else { return };
    let (file, dir) = (from_here(file), from_here(dir));
    tell!(
        "{} has changed since this league was made ({changes}); to use it: arena tournament --resume {} --config {}",
        safe_text::terminal(&file.display().to_string()),
        safe_text::path_word(&dir),
        safe_text::path_word(&file)
    );
}

fn load_config(path: &Path) -> anyhow::Result<TournamentConfig> {
    let config = TournamentConfig::load(path)?;
    if let Ok(game) = arena::games::registry().get(&config.game) {
        if let Err(e) = game.info().params(&config.params) {
            let what = match e {
                arena::engine::ParamError::Bad { name, value, expected } => {
                    format!("[params] {name} = `{}`: expected {expected}", arena::safe_text::terminal(&value))
                }
                other => format!("[params]: {other}"),
            };
            bail!("{}: {what}", path.display());
        }
    }
    Ok(config)
}

/// Runs `arena tournament`.
pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    // (Before any work: a signal during it is seen once the run starts, which then plays nothing.)
    let cancel = super::signals::cancel_on_signals("starting no new matches, ending running bots")?;
    let (config, out, options) = resolve(&args)?;
    let games = arena::games::registry();
    let console = Console::new(&out, &games);
    let summary = tour::run(config, &out, &options, &games, &console, cancel);
    console.done();
    if let Err(tour::TournamentError::Interrupted) = summary {
        tell!(
            "{} while the bots were built: no version recorded, no match played; run the same command again",
            super::signals::word()
        );
        return Ok(ExitCode::from(super::signals::status()));
    }
    if let Some(status) = stopped_waiting(&summary) {
        return Ok(status);
    }
    let summary = summary?;
    let changed = if summary.changed > 0 {
        format!(", {} left for the next run (a bot's files changed during the run)", summary.changed)
    } else {
        String::new()
    };
    if let Some(shard) = summary.shard {
        say!(
            "shard {shard}: {} played now, {} kept{}{changed}. Folder: {}",
            safe_text::count(summary.played, "match", "matches"),
            summary.kept,
            if summary.waiting > 0 { format!(", {} waiting for a good build", summary.waiting) } else { String::new() },
            from_here(&summary.out).display()
        );
    } else if args.json {
        say!("{}", arena::safe_text::json(&summary.leaderboard, true)?);
    } else {
        say!("{}", summary.leaderboard.table());
        say!(
            "{} of {} played ({} now, {} kept, {} no longer counted, kept as history{}{changed}). Folder: {}",
            summary.leaderboard.matches,
            safe_text::count(summary.leaderboard.scheduled, "match", "matches"),
            summary.played,
            summary.kept,
            summary.dropped,
            if summary.waiting > 0 { format!(", {} waiting for a good build", summary.waiting) } else { String::new() },
            from_here(&summary.out).display()
        );
    }
    if let Some(why) = summary.why_no_match.as_deref() {
        // One line, whatever a failure quotes (a file name in a student's folder).
        tell!("{}", safe_text::terminal_line(why));
    }
    if summary.interrupted {
        tell!(
            "{}: resume with `{} tournament --resume {}`",
            super::signals::word(),
            super::arena_command(),
            arena::safe_text::path_word(&from_here(&summary.out))
        );
        return Ok(ExitCode::from(super::signals::status()));
    }
    if !summary.failed.is_empty() {
        eprintln!("{} could not be played", safe_text::count(summary.failed.len(), "match", "matches"));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The status of a run ended by Ctrl-C, SIGTERM or SIGHUP while it waited for its folder
/// (128 + the signal's number), after saying so; `None` for any other outcome.
fn stopped_waiting<T>(outcome: &Result<T, TournamentError>) -> Option<ExitCode> {
    let Err(TournamentError::StoppedWaiting { dir }) = outcome else { return None };
    // (After the signal's own line, which a thread of its own writes: see `await_said`.)
    super::signals::await_said(std::time::Duration::from_secs(1));
    tell!(
        "{} while waiting for {} (held by another arena run): nothing was written; run the same command again",
        super::signals::word(),
        arena::safe_text::path_word(&from_here(dir))
    );
    Some(ExitCode::from(super::signals::status()))
}

/// The status of a merge or a publish ended by Ctrl-C, SIGTERM or SIGHUP before it finished
/// (128 + the signal's number), after saying where it stopped; `None` for any other outcome.
fn stopped<T>(outcome: &Result<T, TournamentError>) -> Option<ExitCode> {
    let Err(TournamentError::Stopped(what)) = outcome else { return None };
    super::signals::await_said(std::time::Duration::from_secs(1));
    tell!("{}: {what}", super::signals::word());
    Some(ExitCode::from(super::signals::status()))
}

/// Runs `arena build`: builds and fingerprints the bots and writes the league's record, so
/// that shards can play it.
pub fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    // (As a run's: the builds ended, nothing recorded.)
    let cancel = super::signals::cancel_on_signals("ending the builds")?;
    let mut targs = args.tournament;
    // Flags of a run, not of a build: said rather than silently ignored.
    let run_only = [
        // The flags that need --resume first, so that the one given is named.
        ("--shard", targs.shard.is_some()),
        ("--rerun", !targs.rerun.is_empty()),
        ("--resume", targs.resume.is_some()),
        ("--json", targs.json),
    ];
    if let Some((flag, _)) = run_only.iter().find(|(_, given)| *given) {
        bail!(
            "arena build: {flag} is for `arena tournament` (a build prepares the folder of --out or of \
             the config's `out`, a new league or an existing one)"
        );
    }
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
    let games = arena::games::registry();
    let console = Console::new(&out, &games);
    let summary = tour::run(config, &out, &options, &games, &console, cancel);
    console.done();
    if let Err(tour::TournamentError::Interrupted) = summary {
        tell!("{} while the bots were built: no version recorded; run the same command again", super::signals::word());
        return Ok(ExitCode::from(super::signals::status()));
    }
    if let Some(status) = stopped_waiting(&summary) {
        return Ok(status);
    }
    let summary = summary?;
    let record = TournamentRecord::load(&out, &arena::games::registry())?;
    // One line per bot, whatever its name or why it cannot play quotes (a file name in a
    // student's folder): its version as the leaderboard names it (`v2`, with its commit where
    // its folder is a git checkout), its fingerprint after it (what a shard checks).
    for bot in &record.bots {
        let state = if bot.runnable { "ready" } else { "waiting (its newest version failed)" };
        let name = safe_text::terminal(&bot.entry.name);
        match record.history.get(&bot.entry.name).and_then(|h| h.label_of(&bot.fingerprint)) {
            Some(label) => say!("{name} {} {state} (fingerprint {})", safe_text::terminal(label), bot.fingerprint),
            None => say!("{name} {} {state}", bot.fingerprint),
        }
    }
    for (name, why) in &record.failures {
        say!("{} cannot play: {}", safe_text::terminal(name), safe_text::terminal_line(why));
    }
    if let Some(why) = record.why_no_match() {
        tell!("{}", safe_text::terminal_line(&why));
    }
    say!(
        "{} scheduled, {} to play, {} kept. Folder: {}",
        safe_text::count(record.schedule.len(), "match", "matches"),
        record.schedule.len() - summary.kept - summary.waiting,
        summary.kept,
        from_here(&out).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// How many refusals of each folder `arena merge` prints (it counts the rest).
const REFUSALS_SHOWN: usize = 5;

/// Runs `arena merge`.
pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    // (Before any work: as a container's first process, a merge without a handler ignored
    // SIGTERM until SIGKILL came.)
    let cancel = super::signals::cancel_on_signals("stopping the merge where its folder is whole")?;
    let stop = || cancel.is_cancelled();
    let shards: Vec<tour::merge::ShardDir> = args
        .dirs
        .iter()
        .map(|dir| tour::merge::ShardDir::parse(dir.as_os_str()))
        .collect::<Result<_, _>>()
        .map_err(|why| anyhow::anyhow!("{}", arena::safe_text::terminal_line(&why)))?;
    let merged =
        tour::merge::merge_until(&args.out, args.league.as_deref(), &shards, &arena::games::registry(), &pages, &stop);
    if let Some(status) = stopped_waiting(&merged).or_else(|| stopped(&merged)) {
        return Ok(status);
    }
    let merged = merged?;
    if args.json {
        say!("{}", arena::safe_text::json(&merged.leaderboard, true)?);
    } else {
        say!("{}", merged.leaderboard.table());
        say!("{} Folder: {}", merged.leaderboard.played_text(), args.out.display());
    }
    if let Some(dir) = &merged.league_inferred {
        // (Its record was taken; its results were ranked as any folder's: a folder that looks
        // like the league's may be a shard's folder a student changed so.)
        let dir = arena::safe_text::terminal_line(&dir.display().to_string());
        eprintln!(
            "note: no --league: the record of {dir} (it names no shard's slice) was taken for the league's, and no \
             folder's results were ranked as the league's; name the league's folder: `arena merge OUT --league \
             {dir} K/N=SHARD_DIR…`"
        );
    }
    // (A shard's folder given alone is taken at its record's word: its `slice`, which whoever
    // wrote the folder wrote too, may claim another shard's.)
    let same = tour::same_folder;
    // (A folder given alone that is a folder bound too, by another path or a link, is held to
    // that slice by its real path: not taken on trust.)
    let held = |dir: &std::path::Path| shards.iter().any(|b| b.slice.is_some() && same(&b.dir, dir));
    let unbound: Vec<String> = shards
        .iter()
        .filter(|s| s.slice.is_none() && !same(&s.dir, &args.out) && !held(&s.dir))
        .filter(|s| args.league.as_deref().is_none_or(|league| !same(&s.dir, league)))
        // (Nor the folder taken for the league's without --league: its record names no slice,
        // and the note above names it.)
        .filter(|s| merged.league_inferred.as_deref().is_none_or(|league| !same(&s.dir, league)))
        .map(|s| arena::safe_text::terminal_line(&s.dir.display().to_string()))
        .collect();
    if !unbound.is_empty() {
        eprintln!(
            "note: {} given without {} slice: the slice each folder's own tournament.json names was taken on trust, \
             and whoever writes a shard's folder writes that record too (it could claim another shard's slice, and \
             have that shard's results refused); bind each folder to its slice: `arena merge OUT --league LEAGUE \
             1/N=SHARD_DIR 2/N=SHARD_DIR …`",
            unbound.join(", "),
            if unbound.len() == 1 { "its" } else { "their" }
        );
    }
    if !merged.refused.is_empty() {
        // Loudly, first: a shard's folder holds results that are not its matches' (changed
        // after it was played, or another league's); they are not in the leaderboard.
        eprintln!(
            "error: {} result{} refused, not merged (not the league's match, in another shard's folder, held differently by \
             two folders, or its replay does not re-simulate to it):",
            merged.refused.len(),
            if merged.refused.len() == 1 { "" } else { "s" }
        );
        // (Each once, and a few of each folder: a folder of 100,000 bad lines filled the terminal.)
        for why in merged.refusals_shown(REFUSALS_SHOWN) {
            eprintln!("  {}", arena::safe_text::terminal_line(&why));
        }
    }
    if !merged.missing.is_empty() {
        eprintln!(
            "the league is not complete: {} of {} {} missing:",
            merged.missing.len(),
            safe_text::count(merged.leaderboard.scheduled, "match", "matches"),
            if merged.missing.len() == 1 { "is" } else { "are" }
        );
        for key in merged.missing.iter().take(20) {
            // A shard's folder is data: its record's keys are shown safely, each on its line.
            eprintln!("  {}", arena::safe_text::terminal_line(key));
        }
        if merged.missing.len() > 20 {
            eprintln!("  … and {} more", merged.missing.len() - 20);
        }
        if !merged.missing_shards.is_empty() {
            let shards: Vec<String> = merged
                .missing_shards
                .iter()
                .map(|(shard, n)| format!("{shard} ({n} match{})", if *n == 1 { "" } else { "es" }))
                .collect();
            eprintln!("the shards that miss them: {}", shards.join(", "));
        }
        if merged.league_given {
            eprintln!("re-run the shards that did not finish (each resumes), then merge again");
        } else {
            // (A shard given --out plays only what its league's folder lacks: what that folder
            // holds is missing here, and no run of the shards plays it.)
            eprintln!(
                "the league's folder was not merged, and shards' folders (--out) hold only what it lacked: give the \
                 league's folder to the merge too: `arena merge OUT --league LEAGUE K/N=SHARD_DIR…`; then re-run the shards that \
                 did not finish (each resumes), and merge again"
            );
        }
    }
    if !merged.unchecked.is_empty() {
        // (Each of these results was checked otherwise, re-simulated too: only not that its
        // game began as its map says.)
        let n: usize = merged.unchecked.iter().map(|(_, n, _)| n).sum();
        eprintln!(
            "warning: the setups of {n} result{} could not be checked against their maps (the replays were re-simulated, \
             but not that each game began as its map says):",
            if n == 1 { "" } else { "s" }
        );
        for (map, n, why) in &merged.unchecked {
            let text = format!("{} ({n} result{}): {why}", map.display(), if *n == 1 { "" } else { "s" });
            eprintln!("  {}", arena::safe_text::terminal_line(&text));
        }
    }
    if merged.set_aside > 0 {
        let kept = args.out.join(tour::merge::SET_ASIDE_FILE);
        eprintln!(
            "{} line{} of {}'s results files not merged {} kept in {}, as {} written (the results files are replaced): \
             a line to merge after all goes back into results.jsonl",
            merged.set_aside,
            if merged.set_aside == 1 { "" } else { "s" },
            arena::safe_text::terminal_line(&args.out.display().to_string()),
            if merged.set_aside == 1 { "is" } else { "are" },
            arena::safe_text::terminal_line(&kept.display().to_string()),
            if merged.set_aside == 1 { "it was" } else { "they were" },
        );
    }
    if merged.set_aside_earlier > 0 {
        // (Those lines count for nobody until moved back: a later merge would not say so else.)
        let n = merged.set_aside_earlier;
        let kept = args.out.join(tour::merge::SET_ASIDE_FILE);
        eprintln!(
            "{} holds {n} line{} set aside by earlier merges, not merged: a line to merge after all goes back into \
             results.jsonl",
            arena::safe_text::terminal_line(&kept.display().to_string()),
            if n == 1 { "" } else { "s" },
        );
    }
    if !merged.refused.is_empty() {
        if merged.missing.is_empty() {
            eprintln!(
                "each refused line's match is merged from another folder (the league's result, or its own shard's): \
                 the refused lines are left out"
            );
        } else {
            eprintln!(
                "a missing match whose line was refused is played again by its shard run again (each resumes){}; a \
                 match folders hold differently stays out until the lines that are not its shard's own are removed",
                if merged.league_given {
                    ""
                } else {
                    ", unless the league's folder holds it: give that folder to the merge too (`arena merge OUT \
                     --league LEAGUE K/N=SHARD_DIR…`)"
                }
            );
        }
        return Ok(ExitCode::from(REFUSED_LINES_STATUS));
    }
    if !merged.missing.is_empty() {
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena publish`.
pub fn publish(args: PublishArgs) -> anyhow::Result<ExitCode> {
    let shown = tour::public::LogsShown { builds: args.build_logs, matches: args.match_logs };
    let cancel = super::signals::cancel_on_signals("stopping the publish, its copy removed")?;
    let stop = || cancel.is_cancelled();
    let done = tour::public::copy_public_until(&args.dir, &args.out, shown, &arena::games::registry(), &pages, &stop);
    if let Some(status) = stopped(&done) {
        return Ok(status);
    }
    let done = done?;
    let files = safe_text::count(done.files, "file", "files");
    say!("published {files} of {} into {}", args.dir.display(), args.out.display());
    if done.logs_withheld > 0 {
        let (n, s) = (done.logs_withheld, if done.logs_withheld == 1 { "" } else { "s" });
        say!(
            "{n} log{s} withheld (each replaced by a note; they quote students' code): --build-logs and --match-logs \
             publish them"
        );
    }
    if !done.left_out.is_empty() {
        // (Names of files in the league's folder: one line each, whatever they hold.)
        let names: Vec<String> = done.left_out.iter().map(|name| safe_text::terminal_line(name)).collect();
        say!("left out: {}", names.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena leaderboard`.
pub fn leaderboard(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let as_of =
        args.as_of.as_deref().map(arena::tournament::versions::parse_time).transpose().map_err(anyhow::Error::msg)?;
    // (Its files are each written whole in a moment: finished, then the command ends as the
    // signal asks, what it wrote whole and no temporary file left.)
    let _cancel = super::signals::cancel_on_signals("finishing the files under way, then stopping")?;
    let tour::Recomputed { board, unread_lines } =
        tour::recompute(&args.dir, as_of, &arena::games::registry(), &pages)?;
    if super::signals::received().is_some() {
        tell!("{}: the leaderboard's files were each written whole", super::signals::word());
        return Ok(ExitCode::from(super::signals::status()));
    }
    if args.json {
        say!("{}", arena::safe_text::json(&board, true)?);
    } else if args.csv {
        let text = board.csv()?;
        say!("{}", text.trim_end());
    } else {
        say!("{}", board.table());
        say!("{}", board.played_text());
    }
    if unread_lines > 0 && !board.complete {
        // (Printed all the same, as the standings of what is there; the status stops a script
        // that would publish them as the grades. Once a resume played those matches again the
        // lines are only warned of: the standings lack nothing.)
        let lines = safe_text::count(unread_lines, "line", "lines");
        tell!(
            "error: {}: these standings lack matches, and its results files hold {lines} that cannot be read as \
             results (named above): `arena tournament --resume {}` plays again every match without a result",
            args.dir.display(),
            args.dir.display()
        );
        return Ok(ExitCode::from(REFUSED_LINES_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// The exit status of a merge that refused lines of a shard's results, and of `arena leaderboard`
/// whose standings lack matches while lines of the results could not be read as results.
const REFUSED_LINES_STATUS: u8 = 3;

/// What a run's events become on the command line: the plan's line, the progress bar (plain
/// lines on stderr when it is not a terminal), and the pages (each match's replay page as its
/// replay is saved, the league's pages on its leaderboard).
struct Console<'a> {
    /// The tournament folder.
    out: &'a Path,
    games: &'a Registry,
    progress: Mutex<Option<Progress>>,
    /// The spinner of the build under way, on a terminal.
    building: Mutex<Option<ProgressBar>>,
    /// The bar drawn now (the spinner, the match bar), which lines are written through.
    shown: ShownBar,
}

impl<'a> Console<'a> {
    fn new(out: &'a Path, games: &'a Registry) -> Self {
        Console {
            out,
            games,
            progress: Mutex::new(None),
            building: Mutex::new(None),
            shown: ShownBar::global().clone(),
        }
    }

    /// A build starts (`None` when it ended): on a terminal a spinner names its bots until it
    /// ends, leaving nothing; otherwise (a CI log, `2> log`) a line at its start and one at its
    /// end say which bots and how long it took, as a build of the sample bots takes a minute.
    fn building(&self, bots: &[String], ended: Option<(Duration, tour::build::BuildEnd)>) {
        let names: Vec<String> = bots.iter().map(|b| safe_text::terminal(b)).collect();
        let names = names.join(", ");
        let mut spinner = match self.building.lock() {
            Ok(s) => s,
            Err(s) => s.into_inner(),
        };
        match ended {
            None if std::io::stderr().is_terminal() => {
                let bar = ProgressBar::new_spinner();
                bar.enable_steady_tick(Duration::from_millis(200));
                *spinner = Some(self.spin(bar, &names));
            }
            None => eprintln!("building {names}"),
            Some(_) if let Some(bar) = spinner.take() => bar.finish_and_clear(),
            Some((took, ended)) => {
                let secs = took.as_secs_f64();
                match ended {
                    tour::build::BuildEnd::Built => eprintln!("built {names} in {secs:.1} s"),
                    tour::build::BuildEnd::Failed => eprintln!("the build of {names} failed after {secs:.1} s"),
                    // (The line of the signal says why: no failure of the bot's.)
                    tour::build::BuildEnd::Stopped => {
                        eprintln!("the build of {names} was stopped after {secs:.1} s, as the run ends")
                    }
                    tour::build::BuildEnd::Machine => {
                        eprintln!("the build of {names} could not start after {secs:.1} s: the machine's fault")
                    }
                }
            }
        }
    }

    /// Shows `bar` as the build's spinner (drawn where it draws: stderr, or a test's terminal).
    fn spin(&self, bar: ProgressBar, names: &str) -> ProgressBar {
        bar.set_message(format!("building {names}"));
        self.shown.show(&bar);
        bar
    }

    fn progress(&self) -> Option<Progress> {
        match self.progress.lock() {
            Ok(p) => p.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Prints `text` as one line on stderr, above the bar if one is drawn: what it quotes of a
    /// bot (a path in its folder, an error) cannot start a line of its own.
    fn println(&self, text: &str) {
        let text = safe_text::terminal_line(text);
        self.shown.suspend(|| eprintln!("{text}"));
    }

    /// Clears the bar.
    fn done(&self) {
        if let Some(p) = self.progress() {
            p.done();
        }
    }
}

impl Reporter for Console<'_> {
    fn report(&self, event: Event<'_>) -> Result<(), TournamentError> {
        match event {
            Event::Changed(lines) => {
                for line in lines {
                    eprintln!("change: {}", safe_text::terminal_line(line));
                }
            }
            Event::Building(bots) => self.building(bots, None),
            Event::Built { bots, took, ended } => self.building(bots, Some((took, ended))),
            Event::Planned(plan) => match plan.shard {
                Some((shard, mine, league)) => {
                    let league = safe_text::count(league, "match", "matches");
                    eprintln!("shard {shard}: {mine} of the league's {league}; {}", plan_text(plan))
                }
                None => {
                    // Replay pages use the folder's shared viewer from the first match on.
                    view::write_assets(self.out)?;
                    eprintln!("{}", plan_text(plan));
                }
            },
            Event::Executing { matches, .. } => {
                let bar = std::io::stderr().is_terminal().then(|| ProgressBar::new(matches as u64));
                let progress = Progress::new(matches, bar, &self.shown);
                if let Some(bar) = &progress.bar {
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
                match self.progress.lock() {
                    Ok(mut p) => *p = Some(progress),
                    Err(p) => *p.into_inner() = Some(progress),
                }
            }
            Event::Started(m) => self.progress().into_iter().for_each(|p| p.started(m)),
            Event::Ended(m) => self.progress().into_iter().for_each(|p| p.ended(m)),
            Event::ReplaySaved { out, scheduled, map, replay, path, bytes } => {
                view::league::write_replay_page(out, path, replay, bytes, &scheduled.seats, map, self.games)?
            }
            Event::Recorded { scheduled, map, line } => {
                self.progress().into_iter().for_each(|p| p.finished(scheduled, map, line))
            }
            Event::Failed { scheduled, error } => {
                self.println(&format!("match {} could not be played: {error}", scheduled.key))
            }
            Event::Warning(text) => self.println(text),
            Event::LeaderboardWritten { .. } => pages(event)?,
        }
        Ok(())
    }
}

/// Writes the league's pages on its leaderboard (`arena leaderboard`, `arena merge` and runs),
/// and a merged match's page anew from its replay, as a run writes it (`arena merge`: a page
/// is never copied from a shard's folder).
fn pages(event: Event<'_>) -> Result<(), TournamentError> {
    match event {
        Event::LeaderboardWritten { out, title, leaderboard, results } => {
            view::league::publish(out, title, leaderboard, results)?
        }
        Event::ReplaySaved { out, scheduled, map, replay, path, bytes } => {
            view::league::write_replay_page(out, path, replay, bytes, &scheduled.seats, map, &arena::games::registry())?
        }
        _ => {}
    }
    Ok(())
}

/// What a run is about to do, in one line: matches to play by bot, kept, waiting.
fn plan_text(plan: &Plan<'_>) -> String {
    let mut by_bot: BTreeMap<&str, usize> = BTreeMap::new();
    for m in plan.todo {
        for s in &m.seats {
            *by_bot.entry(s.as_str()).or_default() += 1;
        }
    }
    let who: Vec<String> = by_bot.iter().map(|(b, n)| format!("{} {n}", safe_text::terminal(b))).collect();
    let mut text = format!("plan: {} to play", safe_text::count(plan.todo.len(), "match", "matches"));
    if !who.is_empty() {
        text.push_str(&format!(" ({})", who.join(", ")));
    }
    text.push_str(&format!(", {} kept", plan.kept));
    if plan.waiting > 0 {
        text.push_str(&format!(", {} waiting for a good build", plan.waiting));
    }
    text
}

/// `a vs b` with the names as safe terminal text (they come from config files).
fn shown_pairing(m: &ScheduledMatch) -> String {
    m.seats.iter().map(|s| safe_text::terminal(s)).collect::<Vec<_>>().join(" vs ")
}

/// A progress bar on a terminal, plain lines on stderr otherwise. Names and messages are
/// shown as safe text.
#[derive(Clone)]
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    running: Arc<Mutex<Vec<String>>>,
    count: Arc<AtomicUsize>,
}

impl Progress {
    /// The progress of `todo` matches on `bar` (of `todo` steps, on a terminal), shown as the
    /// bar drawn now (`shown`). (Without a terminal, the plan's line said what is to play: no
    /// line of its own.)
    fn new(todo: usize, bar: Option<ProgressBar>, shown: &ShownBar) -> Self {
        if let Some(bar) = &bar {
            let style = ProgressStyle::with_template("{bar:30} {pos}/{len} matches  eta {eta}  {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            shown.show(bar);
        }
        Progress { bar, total: todo, running: Default::default(), count: Default::default() }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        match self.running.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    fn started(&self, m: &ScheduledMatch) {
        let mut running = self.running();
        running.push(shown_pairing(m));
        self.show_running(&running);
    }

    fn ended(&self, m: &ScheduledMatch) {
        let name = shown_pairing(m);
        let mut running = self.running();
        if let Some(i) = running.iter().position(|r| *r == name) {
            running.remove(i);
        }
        self.show_running(&running);
    }

    fn show_running(&self, running: &[String]) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("running {}: {}", running.len(), running.join(", ")));
        }
    }

    /// A match ended: the bar moves on, or a line says it, its map by name (`map`).
    fn finished(&self, m: &ScheduledMatch, map: &str, line: &ResultLine) {
        let n = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        let scores: Vec<String> = line.result.players.iter().map(|p| p.score.to_string()).collect();
        match &self.bar {
            Some(bar) => bar.inc(1),
            None => {
                let map = safe_text::terminal(map);
                eprintln!("[{n}/{}] {} on {map}: {}", self.total, shown_pairing(m), scores.join("-"))
            }
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::ProgressDrawTarget;
    use tracing_subscriber::EnvFilter;

    /// The resume line's folder, relative to where the teacher is when inside it, one word
    /// never read as an option: `-lg` is `./-lg` (the line said `--resume -lg`, which the
    /// command line took for `-l`), `my league` quoted. The control: a plain name as it is.
    #[test]
    fn a_league_folder_named_like_an_option_is_shown_as_a_path() {
        let here = std::env::current_dir().unwrap();
        let word = |p: &Path| arena::safe_text::path_word(&from_here(p));
        assert_eq!(word(&here.join("-lg")), "./-lg");
        assert_eq!(word(Path::new("-lg")), "./-lg");
        assert_eq!(word(&here.join("my league")), "'my league'");
        assert_eq!(word(&here.join("lg")), "lg", "the control");
        assert_eq!(word(&here), ".");
        assert_eq!(word(Path::new("/elsewhere/-lg")), "/elsewhere/-lg");
    }

    /// A terminal in memory, of [`WIDTH`] columns, as a tty shows what indicatif draws and what is
    /// written to stderr: a line break goes to the next line's start, `\r` to this one's, and a
    /// character past the last column to the next line (the line is full: the cursor waits at
    /// its end, as xterm's does). (indicatif's own `InMemoryTerm` needs its `in_memory` feature,
    /// which brings the `vt100` crate: this is all these tests need of one.)
    #[derive(Clone, Debug)]
    struct Screen(Arc<Mutex<Cells>>);

    #[derive(Debug, Default)]
    struct Cells {
        rows: Vec<Vec<char>>,
        row: usize,
        col: usize,
    }

    const WIDTH: usize = 160;

    impl Screen {
        fn new() -> Self {
            Screen(Arc::new(Mutex::new(Cells::default())))
        }

        fn cells(&self) -> std::sync::MutexGuard<'_, Cells> {
            self.0.lock().unwrap()
        }

        /// The screen's lines, without their trailing blanks (nor the blank lines at its end).
        fn lines(&self) -> Vec<String> {
            let mut lines: Vec<String> =
                self.cells().rows.iter().map(|r| r.iter().collect::<String>().trim_end().to_string()).collect();
            while lines.last().is_some_and(String::is_empty) {
                lines.pop();
            }
            lines
        }

        /// A target for a bar drawn on this screen (every change drawn: no rate to wait for).
        fn target(&self) -> ProgressDrawTarget {
            ProgressDrawTarget::term_like(Box::new(self.clone()))
        }

        /// Writes warnings logged in `during` on this screen as the arena's log does, through
        /// the bar `shown`; returns the lines written, as written.
        fn log(&self, shown: &ShownBar, during: impl FnOnce()) -> Vec<String> {
            let written = Arc::new(Mutex::new(Vec::new()));
            let writer = {
                let (screen, written) = (self.clone(), written.clone());
                move || Tee(screen.clone(), written.clone())
            };
            let log = super::super::subscriber(EnvFilter::new("warn"), writer, false, shown.clone());
            tracing::subscriber::with_default(log, during);
            let text = String::from_utf8(written.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }
    }

    impl Cells {
        fn put(&mut self, c: char) {
            match c {
                '\n' => (self.row, self.col) = (self.row + 1, 0),
                '\r' => self.col = 0,
                c => {
                    if self.col == WIDTH {
                        (self.row, self.col) = (self.row + 1, 0);
                    }
                    while self.rows.len() <= self.row {
                        self.rows.push(Vec::new());
                    }
                    let row = &mut self.rows[self.row];
                    row.resize(row.len().max(self.col + 1), ' ');
                    row[self.col] = c;
                    self.col += 1;
                }
            }
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            WIDTH as u16
        }
        fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
            let mut cells = self.cells();
            cells.row = cells.row.saturating_sub(n);
            Ok(())
        }
        fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
            self.cells().row += n;
            Ok(())
        }
        fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
            let mut cells = self.cells();
            cells.col = (cells.col + n).min(WIDTH);
            Ok(())
        }
        fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
            let mut cells = self.cells();
            cells.col = cells.col.saturating_sub(n);
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            let mut cells = self.cells();
            s.chars().for_each(|c| cells.put(c));
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            let mut cells = self.cells();
            let row = cells.row;
            if let Some(r) = cells.rows.get_mut(row) {
                r.clear();
            }
            cells.col = 0;
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// stderr for the log: writes on the screen, and keeps what it wrote.
    struct Tee(Screen, Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Tee {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            indicatif::TermLike::write_str(&self.0, &String::from_utf8_lossy(buf))?;
            self.1.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A warning logged while the match bar is drawn is written whole on a line of its own, the
    /// bar drawn again below it; once the bar is done, a warning is written as it is, no bar
    /// drawn again. The control: written straight to the terminal (no bar shown to the log, as
    /// before), the line goes after the drawn bar, which the next drawing copies below it: a
    /// stale bar stays on the screen above every such line.
    #[test]
    fn a_warning_is_written_above_the_match_bar_not_across_it() {
        let running = ["greedy vs evil".to_string()];
        // The bar shown (`through`) or not to the log.
        let play = |through: bool| {
            let (screen, shown) = (Screen::new(), ShownBar::default());
            let progress = Progress::new(3, Some(ProgressBar::with_draw_target(Some(3), screen.target())), &shown);
            progress.show_running(&running);
            let log = if through { shown.clone() } else { ShownBar::default() };
            let logged = screen.log(&log, || tracing::warn!("the machine is overloaded"));
            // (What the bar's next tick does.)
            progress.show_running(&running);
            (screen, shown, progress, logged)
        };
        let (screen, shown, progress, logged) = play(true);
        let lines = screen.lines();
        assert_eq!(logged.len(), 1, "{logged:?}");
        assert!(logged[0].ends_with(" WARN arena::cli::tournament::tests: the machine is overloaded"), "{logged:?}");
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert_eq!(lines[0], logged[0], "the line whole, on its own");
        assert!(lines[1].contains("0/3 matches") && lines[1].ends_with("running 1: greedy vs evil"), "{lines:#?}");

        progress.done();
        let after = screen.log(&shown, || tracing::warn!("after the run"));
        assert_eq!(screen.lines(), [logged[0].clone(), after[0].clone()], "the bar cleared, not drawn again");

        // The control: the bar drawn, not shown to the log.
        let (screen, _, _progress, logged) = play(false);
        let lines = screen.lines();
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(lines[0].contains("0/3 matches"), "a stale bar above the line: {lines:#?}");
        assert_eq!(lines[1], logged[0]);
        assert_eq!(lines.iter().filter(|l| l.contains("0/3 matches")).count(), 2, "{lines:#?}");
    }

    /// The build's spinner is shown to the log as the match bar is: a warning is written above
    /// it, the spinner drawn again below; once the build ended, not again. The control: the
    /// spinner not shown to the log (as before), a stale copy stays above the line.
    #[test]
    fn a_warning_is_written_above_the_builds_spinner_not_across_it() {
        let games = arena::games::registry();
        let bots = ["greedy".to_string(), "evil".to_string()];
        let build = |through: bool| {
            let screen = Screen::new();
            let mut console = Console::new(Path::new("league"), &games);
            console.shown = ShownBar::default();
            let spinner =
                ProgressBar::with_draw_target(None, screen.target()).with_style(ProgressStyle::default_spinner());
            let spinner = console.spin(spinner, "greedy, evil");
            *console.building.lock().unwrap() = Some(spinner.clone());
            spinner.tick();
            let log = if through { console.shown.clone() } else { ShownBar::default() };
            let logged = screen.log(&log, || tracing::warn!("a build's warning"));
            spinner.tick();
            let lines = screen.lines();
            console.building(&bots, Some((Duration::from_secs(1), tour::build::BuildEnd::Built)));
            let after = screen.log(&log, || tracing::warn!("built"));
            (lines, logged, screen.lines(), after)
        };
        let (lines, logged, ended, after) = build(true);
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert_eq!(lines[0], logged[0], "the line whole, on its own");
        assert!(lines[1].ends_with(" building greedy, evil"), "{lines:#?}");
        assert_eq!(ended, [logged[0].clone(), after[0].clone()], "the spinner cleared, not drawn again");

        let (lines, logged, _, _) = build(false);
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(lines[0].ends_with(" building greedy, evil"), "a stale spinner above the line: {lines:#?}");
        assert_eq!(lines[1], logged[0]);
    }

    /// A line logged from inside a write through the bar (the bar cleared, its lock held) is
    /// written there, at once, whole: taking the bar's lock again would wait forever. The
    /// control: indicatif's own `suspend` inside another never returns (it is left waiting on a
    /// thread of its own).
    #[test]
    fn a_line_logged_while_writing_through_the_bar_is_written_not_waited_for() {
        let (screen, shown) = (Screen::new(), ShownBar::default());
        let bar = ProgressBar::with_draw_target(Some(3), screen.target());
        shown.show(&bar);
        bar.tick();
        let logged = screen.log(&shown, || {
            shown.suspend(|| tracing::warn!("from inside"));
            tracing::warn!("after");
        });
        assert_eq!(logged.len(), 2, "{logged:?}");
        let lines = screen.lines();
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert_eq!(lines[..2], logged[..], "both whole, in order, above the bar");
        assert!(lines[2].contains("0/3"), "{lines:#?}");

        // The control, with a bar of its own.
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let bar = ProgressBar::with_draw_target(Some(3), Screen::new().target());
            bar.suspend(|| bar.suspend(|| ()));
            let _ = done.send(());
        });
        let waited = finished.recv_timeout(Duration::from_secs(2));
        assert!(waited.is_err(), "a suspend inside a suspend returned: the guard is not needed");
    }
}
