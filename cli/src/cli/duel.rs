//! `arena duel`: one match, a result table (or JSON), a replay and a stderr log.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use arena::doctor::SeeAgain;
use arena::engine::{Columns, Game, MatchOptions, Registry};
use arena::files::file_safe;
use arena::referee::{play_match, BotCommand};
use arena::replay::MatchResult;
use arena::safe_text;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};

use super::DuelArgs;

/// Refuses a replay `path` (or its `.log` beside it) that is one of the duel's inputs: its map,
/// or a file a bot's command names (`--replay m.txt` wrote the replay over the map).
fn overwrites_no_input(path: &Path, map: Option<&Path>, bots: &[String], cwd: Option<&Path>) -> anyhow::Result<()> {
    let folder = cwd.unwrap_or(Path::new("."));
    let named = bots.iter().flat_map(|command| shell_words::split(command).unwrap_or_default());
    let inputs = map.map(Path::to_path_buf).into_iter().chain(named.map(|word| folder.join(word)));
    for input in inputs {
        for output in [path.to_path_buf(), path.with_extension("log")] {
            if arena::files::same_file(&output, &input) {
                anyhow::bail!(
                    "--replay {}: the duel would write its {} over {}, one of its inputs: name the replay otherwise",
                    path.display(),
                    if output == path { "replay" } else { "bots' stderr (the replay's .log)" },
                    input.display()
                );
            }
        }
    }
    Ok(())
}

/// Display names: given ones first, then program names, made unique with `#2`, `#3`….
fn names(given: &[String], commands: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, command) in commands.iter().enumerate() {
        let base = given.get(i).cloned().unwrap_or_else(|| BotCommand::display_name(command));
        let mut name = base.clone();
        let mut k = 2;
        while out.contains(&name) {
            name = format!("{base}#{k}");
            k += 1;
        }
        out.push(name);
    }
    out
}

fn default_replay_path(names: &[String]) -> PathBuf {
    let secs = super::unix_secs();
    let vs: Vec<String> = names.iter().map(|n| file_safe(n)).collect();
    super::fresh_output(&format!("duel-{secs}-{}", vs.join("-vs-")), ".json")
}

/// Refuses bots given to a duel of a game no bots play (LCR), saying so as `arena new-bot` does:
/// the count of them ("lcr needs 0 bot command lines, got 1") did not say why.
pub(super) fn no_bots_to_give(args: &DuelArgs, game: &dyn Game) -> anyhow::Result<()> {
    let info = game.info();
    if info.bots || args.bots.is_empty() {
        return Ok(());
    }
    let given: Vec<String> = args.bots.iter().map(|b| format!("`{}`", arena::safe_text::terminal(b))).collect();
    anyhow::bail!(
        "{} has no bots: chance plays for every player, so a duel takes no bot command lines: leave out {} \
         (`arena duel --game {} --players N`)",
        info.title,
        given.join(" "),
        info.name
    )
}

/// Runs `arena duel`.
pub fn run(args: DuelArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let game = games.get(&args.game)?;
    no_bots_to_give(&args, game)?;
    game.info().check_map(args.map.as_deref())?;
    let players = args.players.or((!args.bots.is_empty()).then_some(args.bots.len()));
    let state =
        game.new_match(&MatchOptions { map: args.map.clone(), players, params: args.params.clone(), text: None })?;
    if state.num_players() != args.bots.len() {
        anyhow::bail!("{} needs {} bot command lines, got {}", game.name(), state.num_players(), args.bots.len());
    }
    if let Some(trouble) = args.cwd.as_deref().and_then(arena::files::folder_trouble) {
        // (Said of the bots' folder: "its folder … is missing: did you mean …?")
        anyhow::bail!("--cwd: {}", trouble.trim_start_matches("its "));
    }
    if args.names.len() > args.bots.len() {
        anyhow::bail!(
            "{} --name given for {} bots: one per bot, in their order (a name too many was ignored)",
            args.names.len(),
            args.bots.len()
        );
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let names = names(&args.names, &args.bots);
    let bots: Vec<BotCommand> = args
        .bots
        .iter()
        .zip(&names)
        .enumerate()
        .map(|(seat, (command, name))| {
            BotCommand::seated(name, command, args.cwd.clone(), &seed.to_le_bytes(), seed, seat)
        })
        .collect();
    let replay_path =
        if args.no_replay { None } else { Some(args.replay.clone().unwrap_or_else(|| default_replay_path(&names))) };
    // The bots' stderr goes beside the replay, as `<replay>.log`: a replay named so would be
    // overwritten by it.
    if let Some(path) = replay_path.as_deref().filter(|p| p.extension().is_some_and(|e| e == "log")) {
        anyhow::bail!(
            "--replay {}: the bots' stderr is written beside the replay under that very name (the replay's, ending \
             in .log): name the replay otherwise, e.g. `{}`",
            path.display(),
            path.with_extension("json").display()
        );
    }
    if let Some(path) = &replay_path {
        overwrites_no_input(path, args.map.as_deref(), &args.bots, args.cwd.as_deref())?;
    }
    if let Some(dir) = replay_path.as_deref().and_then(Path::parent) {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the replay folder {}", dir.display()))?;
        }
    }
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    let limits = args.limits.choices(&args.clock).limits();
    let claim = (limits.clock == arena::referee::ClockKind::Cpu).then(|| arena::referee::cpus::Claim::take(1));
    if let Some(claim) = &claim {
        arena::referee::cpus::pin_slot(claim.cpus(), 0);
    }
    let cancel = super::signals::cancel_on_signals("ending the bots")?;
    let sandbox = args.sandbox.sandbox()?;
    let played = runtime.block_on(play_match(game.name(), state, &bots, &limits, seed, &sandbox, &cancel))?;
    if let Some(path) = &replay_path {
        played.save(path, &path.with_extension("log"))?;
    }
    let result = &played.replay.result;
    for remark in &played.remarks {
        tell!("{}", super::warning_line(result, remark));
    }
    if args.json {
        let mut value = serde_json::to_value(result)?;
        value["replay"] = serde_json::json!(replay_path);
        say!("{}", safe_text::json(&value, true)?);
    } else {
        let place = args.map.as_ref().map_or(String::new(), |m| format!(" on {}", m.display()));
        say!("{}{place} (seed {seed}, {} steps)", game.name(), played.replay.steps.len());
        say!("{}", result_table(result, &game.info().columns));
        // The players whose "Why:" named their flood of stderr: warned of it there.
        let mut flooded = Vec::new();
        for fact in arena::explain::forfeit_facts(&played.replay) {
            let Some(p) = result.players.get(fact.player) else { continue };
            let stderr = &played.stderr_text(fact.player);
            // The log is written only with the replay, and only when a bot wrote to stderr.
            let note = match (&replay_path, stderr.trim().is_empty()) {
                (_, true) => Some("it wrote nothing to stderr"),
                (Some(_), false) => Some("its stderr is in the match log"),
                (None, false) => None,
            };
            // A timeout that its flood of stderr most likely made: that, not a flush or a loop.
            let flood = fact.flood_in(&played);
            let why = match &flood {
                Some(flood) => {
                    flooded.push(fact.player);
                    fact.flood_sentence(&game.info().wording, &p.name, flood)
                }
                None => fact.sentence_noting(&game.info().wording, &p.name, p.detail.as_deref(), note),
            };
            // The line it printed unasked, quoted (the bot's own text: escaped, cut, its quote
            // unambiguous).
            let why = match fact.unasked(&played.replay) {
                Some(line) => format!("{why} The line was {}.", safe_text::quoted(line)),
                None => why,
            };
            say!("Why: {}", safe_text::terminal_cut(&arena::view::capitalise(&why), 400));
            let flood_fix = flood.map(|_| arena::explain::STDERR_FIX.to_string());
            let fix = flood_fix.or_else(|| fact.fix(&played.replay, game)).or_else(|| {
                // A program that never ran as meant: the doctor's fix (a script without `#!`,
                // not found from here, or that did not compile).
                let command = args.bots.get(fact.player)?;
                (fact.reason == "crash")
                    .then(|| arena::doctor::program_fix(command, args.cwd.as_deref(), &sandbox.sight(), stderr))
                    .flatten()
            });
            // An error in its own code after good answers: the doctor's fix, naming the line and
            // the replay's tick that shows the state it was in.
            let fix = fix.or_else(|| {
                let replies = played.replay.steps.iter().flat_map(|s| &s.replies).filter(|r| r.player == fact.player);
                let good = replies.filter(|r| r.answer.is_some()).count();
                let shown = replay_path.as_ref().map(|path| {
                    format!("{} replay {}", super::arena_command(), super::shell_word(&path.to_string_lossy()))
                });
                let again = shown.as_deref().map_or(SeeAgain::WithReplay, SeeAgain::Replay);
                // (By hand as it ran: in its folder, with its environment.)
                let bot = bots.get(fact.player)?;
                let paste = game.info().wording.input;
                let hand = arena::doctor::ByHand::new(&bot.command, bot.cwd.as_deref(), &bot.env, None, paste);
                (fact.reason == "crash")
                    .then(|| arena::doctor::own_code_fix(game, &hand, stderr, good, fact.tick?, again))
                    .flatten()
            });
            if let Some(fix) = fix {
                say!("Fix: {}", safe_text::terminal_cut(&fix, 700));
            }
            // "Its stderr is in the match log": say which file, and how it ends.
            if let Some(last) = arena::explain::stderr_ends(stderr) {
                let log = match &replay_path {
                    // (What a stderr past the cap held beyond it was not kept, in the log either.)
                    Some(r) if played.dropped(fact.player) > 0 => {
                        format!(" (its first part in {})", r.with_extension("log").display())
                    }
                    Some(r) => format!(" (all of it in {})", r.with_extension("log").display()),
                    None => " (no log was kept: run without --no-replay to keep all of it)".to_string(),
                };
                say!(
                    "     {}'s stderr ends: {}{log}",
                    safe_text::terminal(&p.name),
                    safe_text::terminal(&safe_text::shorten(&last, 300)),
                );
            }
        }
        for (p, dropped) in
            played.stderr.iter().map(|e| e.dropped).enumerate().filter(|(p, d)| *d > 0 && !flooded.contains(p))
        {
            let Some(player) = result.players.get(p) else { continue };
            let cut = arena::explain::stderr_cut(dropped, &played.replay.limits);
            let cut = cut.strip_prefix("your bot ").unwrap_or(&cut);
            say!(
                "Warning: {} (player {}) {cut}. Fix: {}",
                safe_text::terminal(&player.name),
                p + 1,
                arena::explain::STDERR_FIX
            );
        }
        match result.winner.and_then(|w| result.players.get(w)) {
            Some(p) => say!("Winner: {} (player {})", safe_text::terminal(&p.name), result.winner.unwrap_or(0) + 1),
            None => say!("Draw"),
        }
        if let Some(path) = &replay_path {
            say!(
                "Replay: {}  (watch: {} replay {})",
                path.display(),
                super::arena_command(),
                super::shell_word(&path.to_string_lossy())
            );
            // Where a bot's debug output went (written only when a bot wrote to stderr).
            if played.stderr.iter().any(|s| !s.is_empty()) {
                say!("Stderr: {}  (what the bots wrote to stderr)", path.with_extension("log").display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The result as a table: player, score, finished, forfeit (names and details as safe text), the
/// score and finished columns headed as the game `columns` says (finished is `won` in most games).
pub fn result_table(result: &MatchResult, columns: &Columns) -> Table {
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED).set_header(vec!["#", "player", columns.score, columns.finished, "forfeit"]);
    for (i, p) in result.players.iter().enumerate() {
        let forfeit = match (&p.forfeit, &p.detail) {
            (Some(r), Some(d)) => safe_text::terminal(&format!("{r}: {d}")),
            (Some(r), None) => safe_text::terminal(r),
            _ => "-".to_string(),
        };
        table.add_row(vec![
            (i + 1).to_string(),
            safe_text::terminal(&p.name),
            p.score.to_string(),
            if p.finished { "yes" } else { "no" }.to_string(),
            forfeit,
        ]);
    }
    table
}
