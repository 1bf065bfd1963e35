//! `arena replay` (watch in a terminal), `arena verify` (re-simulate and check), and `arena view`
//! and `arena export-save` (a page, a save file) of a replay that verifies.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use arena::engine::{Registry, Verdict};
use arena::files::write_atomic;
use arena::replay::{audit, resimulate, MatchResult, Replay};
use arena::safe_text;

use super::{ExportSaveArgs, ReplayArgs, VerifyArgs, ViewArgs};

/// Runs `arena replay`.
pub fn show(args: ReplayArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let replay = Replay::load(&args.path)?;
    let steps = replay.steps.len();
    if let Some(k) = args.tick {
        if k > steps {
            bail!("{}: --tick {k} is past the end: the replay has ticks 0 to {steps}", args.path.display());
        }
    }
    // (A game with no bot processes, such as LCR, names its players in its result alone.)
    let names: Vec<&str> = if replay.players.is_empty() {
        replay.result.players.iter().map(|p| p.name.as_str()).collect()
    } else {
        replay.players.iter().map(|p| p.name.as_str()).collect()
    };
    let players: Vec<String> =
        names.iter().enumerate().map(|(i, name)| format!("P{} {}", i + 1, safe_text::terminal(name))).collect();
    let title = format!("{}: {}", replay.game, players.join(" vs "));
    let animate = args.tick.is_none() && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    let mut ending = (None, Vec::new());
    let outcome = resimulate(&replay, games, |i, state| {
        if i == steps {
            ending = (state.verdict(), state.remarks());
        }
        if failed.is_some() || args.tick.is_some_and(|k| k != i) {
            return;
        }
        // The frame is safe text (a bot's answers and names show their control characters
        // visibly); only the animation's own clear-screen is a real escape sequence.
        let times = i.checked_sub(1).and_then(|s| replay.steps.get(s)).map(answer_times).unwrap_or_default();
        let frame = safe_text::terminal_lines(&state.render()).into_owned();
        let text = if animate {
            format!("\x1b[2J\x1b[H{title}\n{frame}{times}")
        } else {
            format!("{title}\n{frame}{times}\n")
        };
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            failed = Some(e);
        }
        if animate && i < steps {
            std::thread::sleep(Duration::from_millis(args.delay_ms));
        }
    });
    if let Some(e) = failed {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Err(divergence) = outcome {
        return Err(not_resimulating(&args.path, &divergence));
    }
    if args.tick.is_none() {
        let result = &replay.result;
        let scores = scores_line(result);
        let (verdict, mut remarks) = ending;
        if verdict.is_some() {
            remarks.clear(); // a test's verdict already names the causes
        }
        let verdict = match (verdict, result.winner.and_then(|w| result.players.get(w))) {
            (Some(Verdict { passed: true, .. }), _) => "PASS".to_string(),
            (Some(Verdict { passed: false, reason }), _) => {
                format!("FAIL: {}", safe_text::terminal(&reason.unwrap_or_default()))
            }
            (None, Some(p)) => format!("winner: {}", safe_text::terminal(&p.name)),
            (None, None) => "draw".to_string(),
        };
        let _ = writeln!(out, "result: {scores} ({verdict})");
        for remark in &remarks {
            let _ = writeln!(out, "{}", safe_text::terminal_lines(&super::warning_line(result, remark)));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How long each answer of a step took, wall and CPU time (a line, or nothing at a chance
/// step).
fn answer_times(step: &arena::replay::Step) -> String {
    let parts: Vec<String> = step
        .replies
        .iter()
        .map(|r| match r.cpu_ms {
            Some(cpu) => format!("P{} {} ms ({cpu} ms CPU)", r.player + 1, r.ms),
            None => format!("P{} {} ms", r.player + 1, r.ms),
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("answer times: {}\n", parts.join(", "))
    }
}

/// Players a result line names one by one; past them a line gives the first few, the winner and
/// how many more (a 1,000-player LCR game's line named all 1,000).
const LISTED: usize = 8;

/// `name score, name score` with the names as safe text: every player up to [`LISTED`], else the
/// first ones, the winner and `and N more`.
fn scores_line(result: &MatchResult) -> String {
    let score = |p: &arena::replay::PlayerResult| format!("{} {}", safe_text::terminal(&p.name), p.score);
    if result.players.len() <= LISTED {
        return result.players.iter().map(score).collect::<Vec<_>>().join(", ");
    }
    let first = LISTED - 2;
    let mut shown: Vec<String> = result.players.iter().take(first).map(score).collect();
    if let Some(winner) = result.winner.filter(|&w| w >= first).and_then(|w| result.players.get(w)) {
        shown.push(score(winner));
    }
    format!("{} and {} more", shown.join(", "), result.players.len() - shown.len())
}

/// Runs `arena verify`.
pub fn verify(args: VerifyArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let replay = Replay::load(&args.path)?;
    match audit(&replay, games) {
        Ok(()) => {
            say!(
                "OK {}: {} steps re-simulate to the recorded result ({})",
                args.path.display(),
                replay.steps.len(),
                scores_line(&replay.result)
            );
            // (The moves and result are what re-simulate: who the players were is the file's word.)
            tell!(
                "note: the players' names and commands are not verified (anyone can edit them in the file); a league's \
                 record says who played its matches"
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(divergence) => {
            // A diagnostic on one line: its JSON path names the keys of the file, which may hold
            // line breaks (a forged `OK` line after it); cut, as what it quotes is the file's.
            say!("MISMATCH {}: {}", args.path.display(), divergence_line(&divergence));
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The replay at `path`, once it passes what `arena verify` checks ([`audit`]): a page or a save
/// file made from a forged or broken replay would look genuine (a page headed with an edited
/// result, a game nobody hosts shown as a table), so they are made of verified replays alone;
/// unless `unverified` (`--unverified`), when one that fails comes with why (safe text, on one
/// line), after a warning on stderr.
fn load_verified(path: &Path, games: &Registry, unverified: bool) -> anyhow::Result<(Replay, Option<String>)> {
    let replay = Replay::load(path)?;
    match audit(&replay, games) {
        Ok(()) => Ok((replay, None)),
        Err(divergence) if unverified => {
            let why = divergence_line(&divergence);
            tell!(
                "warning: {}: the replay does not re-simulate: {why}; used anyway (--unverified): its moves and result \
                 may be forged or broken",
                path.display()
            );
            Ok((replay, Some(why)))
        }
        Err(divergence) => Err(not_resimulating(path, &divergence)),
    }
}

/// The error of a replay at `path` that does not re-simulate, as `arena replay`, `view` and
/// `export-save` say it: one line (a JSON path names the keys of the file, which may hold line
/// breaks).
fn not_resimulating(path: &Path, divergence: &impl std::fmt::Display) -> anyhow::Error {
    let divergence = divergence_line(divergence);
    anyhow::anyhow!("{}: the replay does not re-simulate: {divergence}", path.display())
}

/// The most characters of a divergence a message shows (its quoted values are cut shorter
/// still; a list of the players who replied is not).
const DIVERGENCE_CHARS: usize = 1000;

/// Why a replay does not re-simulate, as one line of safe text cut to [`DIVERGENCE_CHARS`]
/// (`… [N more characters]`): what it quotes is the file's word, a 5 MB name printed a 5 MB line.
fn divergence_line(divergence: &impl std::fmt::Display) -> String {
    safe_text::terminal_cut(&divergence.to_string(), DIVERGENCE_CHARS)
}

/// Runs `arena view`.
pub fn view(args: ViewArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let (replay, failed) = load_verified(&args.replay, games, args.unverified)?;
    let out = match &args.out {
        Some(out) => {
            if arena::files::same_file(out, &args.replay) {
                bail!("-o {}: this is the replay shown: name the page otherwise", out.display());
            }
            if arena::view::league_of_page(out).is_some() {
                bail!(
                    "{}: this is a league's replays folder, whose pages are the league's own (and `arena publish` \
                     publishes every page there): name a page outside it",
                    out.display()
                );
            }
            Some(out.clone())
        }
        None => beside_or_cached(&args.replay, &replay, games, failed.is_some())?,
    };
    // `None`: the league's own page of this replay, current, is shown as it is.
    let out = match out {
        Some(out) => {
            let page = match failed {
                None => arena::view::replay_page(&replay, games),
                Some(why) => arena::view::unverified_replay_page(&replay, games, &why),
            };
            if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                // (As `duel --replay` makes the replay's folder.)
                std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
            }
            write_atomic(&out, page.as_bytes()).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
            out
        }
        None => arena::replay::page_file(&args.replay),
    };
    say!("{}", out.display());
    if args.open {
        if let Err(why) = open_in_browser(&out) {
            let path = std::path::absolute(&out).unwrap_or_else(|_| out.clone());
            tell!(
                "No browser could be opened ({why}): the page is written; open it by hand: {} (file://{})",
                out.display(),
                path.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where `arena view` writes the page of `replay` when not told (`-o`): beside it (`x.html` for
/// `x.json.gz`), unless that is in a league's `replays/` folder, whose pages are the league's own
/// (with links back to its leaderboard and bots, and published by `arena publish`): then `None`
/// when the page there is the league's own of this very replay (and `unverified` is false:
/// that page has no banner), else a page in the user's cache folder (`$XDG_CACHE_HOME/arena/view`,
/// or `~/.cache/arena/view`), said on stderr. A standalone page once replaced the league's, and
/// nothing the league runs wrote it back. The league's own page is the one the arena writes of
/// this replay (`loaded`) for the league its folder's record holds, byte for byte, read as a
/// file of the folder's own (no link followed, no FIFO waited on): a student's folder with an
/// `index.html` and a page holding the replay's bytes beside a script of theirs was shown as
/// the league's. So must be every script and style the page loads from the folder's `assets/`
/// (`arena::view::league_assets_are_own`): a folder copied from a league with its viewer script
/// replaced by someone's was vouched for, and `--open` ran that script.
fn beside_or_cached(
    replay: &Path,
    loaded: &Replay,
    games: &Registry,
    unverified: bool,
) -> anyhow::Result<Option<std::path::PathBuf>> {
    let beside = arena::replay::page_file(replay);
    let Some(league) = arena::view::league_of_page(&beside) else {
        return Ok(Some(beside));
    };
    let current = league_page(&league, replay, loaded, games).is_some_and(|expected| {
        arena::files::read_own_regular(&beside, arena::replay::MAX_REPLAY_BYTES * 2)
            .is_ok_and(|page| page == expected.as_bytes())
    });
    let assets = current && arena::view::league_assets_are_own(&league, loaded, games);
    if assets && !unverified {
        tell!("{}: the league's own page of this match", beside.display());
        return Ok(None);
    }
    let cache = match std::env::var_os("XDG_CACHE_HOME").map(std::path::PathBuf::from).filter(|p| p.is_absolute()) {
        Some(cache) => cache,
        None => match std::env::var_os("HOME").map(std::path::PathBuf::from).filter(|p| p.is_absolute()) {
            Some(home) => home.join(".cache"),
            None => bail!(
                "{}: the replay is in a league's folder, whose pages are the league's own, and there is no cache \
                 folder ($HOME is not set) for a page of its own: name one with -o PAGE.html",
                replay.display()
            ),
        },
    };
    let dir = cache.join("arena").join("view");
    std::fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    let name = beside.file_name().map_or_else(|| "replay.html".into(), |n| n.to_os_string());
    let why = if !beside.exists() {
        "there is no page of it there yet"
    } else if !current {
        "its page there is not the one the league writes of this replay (another copy's, or a page of someone's)"
    } else if !assets {
        "a script or style its page there loads from the folder's assets/ is not the arena's own (missing, a link, \
         or replaced)"
    } else {
        "its page there has no banner for a replay that fails verification"
    };
    tell!(
        "{} is in a league's folder, whose pages are the league's own, and {why}: this page is written to the \
         cache folder instead (-o PAGE.html names another)",
        replay.display()
    );
    Ok(Some(dir.join(name)))
}

/// The page the league whose folder is `league` writes of its match's replay at `path`
/// (`replay`, as loaded): `None` where the folder's record does not load, or schedules no match
/// of the replay's name.
fn league_page(league: &Path, path: &Path, replay: &Replay, games: &Registry) -> Option<String> {
    let record = arena::tournament::TournamentRecord::load_to_show(league, games).ok()?;
    let name = path.file_name()?.to_str()?;
    let key = name.strip_suffix(".json.gz").or_else(|| name.strip_suffix(".json"))?;
    let scheduled = record.schedule.iter().find(|m| m.key == key)?;
    let map = record.map_names().name(&scheduled.map);
    let bytes = arena::files::read_own_regular(path, arena::replay::MAX_REPLAY_BYTES).ok()?;
    Some(arena::view::league::replay_page_text(replay, &bytes, &scheduled.seats, &map, games))
}

/// Opens `page` in the system's browser (`xdg-open`, or `open` on macOS), its output kept from
/// the terminal (`xdg-open` lists every browser it failed to find); why not, when it failed. An
/// opener still running after a few seconds (a browser it runs in the foreground) did open it.
fn open_in_browser(page: &std::path::Path) -> Result<(), String> {
    use std::process::{Command, Stdio};
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let mut child = Command::new(opener)
        .arg(page)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{opener}: {e}"))?;
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(format!("{opener} found none: {status}")),
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("{opener}: {e}")),
        }
    }
    Ok(())
}

/// Runs `arena export-save`.
pub fn export_save(args: ExportSaveArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let (replay, _) = load_verified(&args.replay, games, args.unverified)?;
    let bytes = arena::games::atoms::hosted::save_file(&replay)?;
    // (Never over a file already there, a save or not; written whole or not at all.)
    match arena::files::write_new(&args.out, &bytes) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            bail!("{}: refused: it exists (a save is never written over a file): name another", args.out.display())
        }
        Err(e) => bail!("{}: {e}", args.out.display()),
    }
    say!("{}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::replay::PlayerResult;

    fn result(scores: &[i64], winner: Option<usize>) -> MatchResult {
        let player = |(i, &score): (usize, &i64)| PlayerResult {
            name: format!("Player #{}", i + 1),
            score,
            finished: winner == Some(i),
            forfeit: None,
            detail: None,
        };
        MatchResult { players: scores.iter().enumerate().map(player).collect(), winner }
    }

    /// A result of many players is named by its first few, its winner and a count (`arena verify`
    /// of a 1,000-player LCR game printed all 1,000); the control: up to 8 are all named.
    #[test]
    fn a_result_line_of_many_players_names_the_first_the_winner_and_a_count() {
        let mut chips = vec![0; 1000];
        chips[733] = 9;
        assert_eq!(
            scores_line(&result(&chips, Some(733))),
            "Player #1 0, Player #2 0, Player #3 0, Player #4 0, Player #5 0, Player #6 0, Player #734 9 and 993 more"
        );
        chips.swap(733, 2);
        let line = scores_line(&result(&chips, Some(2)));
        assert!(
            line.starts_with("Player #1 0, Player #2 0, Player #3 9,") && line.ends_with("#6 0 and 994 more"),
            "{line}"
        );
        assert!(scores_line(&result(&[0; 9], None)).ends_with("Player #6 0 and 3 more"));
        let eight = scores_line(&result(&[1, 2, 3, 4, 5, 6, 7, 8], Some(7)));
        assert!(eight.ends_with("Player #7 7, Player #8 8"), "{eight}");
    }
}
