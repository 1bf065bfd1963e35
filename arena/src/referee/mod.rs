//! The referee: runs one match of any [`State`] between bot processes, asking the players
//! each turn names (concurrently when simultaneous) under time limits, and records the replay.
//! It knows no game's rules.

pub mod clock;
pub mod cpus;
mod monitor;
mod process;

use std::time::Duration;

use futures::future::join_all;
use thiserror::Error;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use crate::engine::{Answer, ClockKind, Limits};
pub use process::{seat_seed, BotCommand, BotProcess};

use crate::engine::{Chance, Failure, PlayerId, Remark, Reply, SetupError, State, Turn, Verdict};
use crate::files::write_atomic;
use crate::replay::{MatchResult, PlayerInfo, RecordedReply, Replay, ReplayError, Step};
use crate::sandbox::Sandbox;

/// Why a bot's command line cannot be run.
#[derive(Debug, Error)]
pub enum CommandError {
    /// It does not split like a shell would (an unclosed quote).
    #[error(transparent)]
    Split(#[from] shell_words::ParseError),
    /// It is empty.
    #[error("the command is empty")]
    Empty,
}

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum RefereeError {
    /// The command line could not be split or is empty.
    #[error("bot `{name}`: bad command `{command}`: {source}")]
    BadCommand {
        /// The bot.
        name: String,
        /// Its command line.
        command: String,
        /// What is wrong.
        source: CommandError,
    },
    /// The process could not be started.
    #[error("bot `{name}`: cannot start `{command}`{hint}: {source}")]
    Spawn {
        /// The bot.
        name: String,
        /// Its command line.
        command: String,
        /// The system's reason.
        source: std::io::Error,
        /// What to do about it, when the sandbox knows (empty, or " (…)").
        hint: String,
    },
    /// The bot's box could not be made.
    #[error("bot `{name}`: {source}")]
    Sandbox {
        /// The bot.
        name: String,
        /// What the sandbox said.
        source: crate::sandbox::SandboxError,
    },
    /// The match's game could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The thread starting a bot ended without starting it (the arena is shutting down).
    #[error("a bot's start-up was abandoned")]
    StartAbandoned,
    /// The match was cancelled (Ctrl-C); its bots were ended.
    #[error("cancelled")]
    Cancelled,
    /// The number of bots does not match the game.
    #[error("this match needs {expected} bots, got {got}")]
    PlayerCount {
        /// Players the game has.
        expected: usize,
        /// Bots given.
        got: usize,
    },
}

/// A finished match: its replay and each bot's stderr.
#[derive(Debug)]
pub struct PlayedMatch {
    /// The full record, result included.
    pub replay: Replay,
    /// What each bot wrote to stderr (capped), in player order.
    pub stderr: Vec<String>,
    /// The game's verdict, for a single-player test ([`State::verdict`]).
    pub verdict: Option<Verdict>,
    /// The game's warnings about players ([`State::remarks`]).
    pub remarks: Vec<Remark>,
}

impl PlayedMatch {
    /// The bots' stderr as one log, a section per player, each under a header of the arena's:
    /// a line of a bot's stderr that starts like one is written after a backslash (see
    /// [`unforged`]).
    pub fn stderr_log(&self) -> String {
        self.log(true)
    }

    /// The log, with each bot's stderr [`unforged`] or (for a test's control) as it is.
    fn log(&self, unforge: bool) -> String {
        let sections = self.replay.players.iter().zip(&self.stderr).enumerate();
        sections
            .map(|(i, (p, err))| {
                let err = if unforge { unforged(err) } else { std::borrow::Cow::Borrowed(err.as_str()) };
                format!("{SECTION} player {} ({}): stderr {SECTION}\n{err}\n", i + 1, p.name)
            })
            .collect()
    }

    /// Writes the replay to `replay` and, when a bot wrote to stderr, the log to `log`; each
    /// atomically.
    pub fn save(&self, replay: &std::path::Path, log: &std::path::Path) -> Result<(), ReplayError> {
        self.replay.save(replay)?;
        if self.stderr.iter().all(String::is_empty) {
            return Ok(());
        }
        write_atomic(log, self.stderr_log().as_bytes())
            .map_err(|source| ReplayError::Io { path: log.to_path_buf(), source })
    }
}

/// How a section's header of a match log starts (and ends).
const SECTION: &str = "=====";

/// A bot's stderr for its section of the match log: raw, but that a line starting like a
/// section's header gets a backslash before it. A bot knows its seat (`ARENA_PLAYER`) and its
/// opponent's name is on the leaderboard: its stderr wrote `===== player 2 (bob): stderr =====`
/// and a line of its choice under it, which the log showed as Bob's, above Bob's own section (a
/// confession, a traceback, for the teacher to read). See [`forged`] for what starts like one.
fn unforged(stderr: &str) -> std::borrow::Cow<'_, str> {
    if !stderr.split('\n').any(forged) {
        return std::borrow::Cow::Borrowed(stderr);
    }
    let lines = stderr.split_inclusive('\n');
    std::borrow::Cow::Owned(
        lines
            .map(|l| {
                if !forged(l) {
                    return l.to_string();
                }
                // (Its controls shown as `\r`, `\e`: the backslash and what follows stay at the
                // line's start in every viewer.)
                let (body, end) = l.strip_suffix('\n').map_or((l, ""), |b| (b, "\n"));
                format!("\\{}{end}", crate::safe_text::terminal_message(body))
            })
            .collect(),
    )
}

/// Whether the line of a bot's stderr (without or with its `\n`) may show as a section's header:
/// it starts with [`SECTION`] once white space and invisible characters are skipped (a
/// zero-width space, a BOM), or it holds a `=` and a character that makes a viewer start a new
/// line or move a terminal's cursor (`\r`, `\b`, `\v`, `\f`, an escape sequence, NEL, U+2028,
/// U+2029): `x\r===== player 2 …` is two lines in a browser (a published log) and many editors,
/// and a header over `x` in a terminal, where escape sequences can draw one anywhere. A `\r` at
/// the line's end (a line ended `\r\n`) moves nothing.
fn forged(line: &str) -> bool {
    use crate::safe_text::is_unsafe;
    let hidden = |c: char| c.is_whitespace() || is_unsafe(c);
    let body = line.trim_end_matches(['\n', '\r']);
    let moves = |c: char| {
        matches!(c, '\r' | '\u{8}' | '\u{b}' | '\u{c}' | '\u{1b}' | '\u{85}' | '\u{9b}' | '\u{2028}' | '\u{2029}')
    };
    body.trim_start_matches(hidden).starts_with(SECTION) || (body.contains('=') && body.contains(moves))
}

/// Plays `state` to the end with `bots` (one per player, in order). `game` is the game's
/// registry name; `seed` drives chance nodes and is recorded.
pub async fn play_match(
    game: &str,
    mut state: Box<dyn State>,
    bots: &[BotCommand],
    limits: &Limits,
    seed: u64,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<PlayedMatch, RefereeError> {
    let n = state.num_players();
    if bots.len() != n {
        return Err(RefereeError::PlayerCount { expected: n, got: bots.len() });
    }
    let mut seats = Seats::start(bots, limits, sandbox).await?;
    let players = bots.iter().map(|b| PlayerInfo { name: b.name.clone(), command: b.command.clone() }).collect();
    let mut replay = Replay::new(game, seed, state.setup(), players, *limits, state.frame());
    let watches = seats.procs.iter().flatten().map(BotProcess::watch).collect();
    let monitor = AbortOnDrop(tokio::spawn(monitor::watch(watches, *limits)));
    let mut chance = Chance::new(seed);
    loop {
        let step = match state.turn() {
            Turn::Terminal => break,
            Turn::Chance => chance_step(&mut *state, &mut chance),
            Turn::Sequential(p) => seats.ask(&mut *state, &[p], limits, cancel).await?,
            Turn::Simultaneous(ps) => seats.ask(&mut *state, &ps, limits, cancel).await?,
        };
        replay.steps.push(step);
        // The game no longer prompts these players: their bots end.
        seats.release(limits.grace, |p| !state.is_active(p));
    }
    seats.release(limits.grace, |_| true);
    drop(monitor);
    let stderr = seats.stderr().await;
    replay.result = MatchResult::from_outcome(state.outcome(), &replay.players);
    replay.seat_seeds = bots.iter().filter_map(BotCommand::seat_seed).collect();
    Ok(PlayedMatch { replay, stderr, verdict: state.verdict(), remarks: state.remarks() })
}

/// Draws the outcome of a chance node from the match's dice and applies it.
fn chance_step(state: &mut dyn State, chance: &mut Chance) -> Step {
    let outcome = chance.draw(&state.chance_outcomes());
    state.apply_chance(outcome);
    Step { replies: Vec::new(), chance: Some(outcome), frame: state.frame() }
}

/// The bots of a match: their processes (`None` once ended), whether each got its intro, and
/// the endings under way (each yields the bot's stderr).
struct Seats {
    procs: Vec<Option<BotProcess>>,
    introduced: Vec<bool>,
    endings: Vec<(PlayerId, JoinHandle<String>)>,
}

impl Seats {
    /// Starts every bot at once (making a box waits on the kernel: forks, namespaces, cgroups,
    /// more than it computes). If one cannot start, the others are ended.
    async fn start(bots: &[BotCommand], limits: &Limits, sandbox: &Sandbox) -> Result<Seats, RefereeError> {
        let starting: Vec<_> = bots.iter().map(|bot| process::spawn_soon(bot, limits, sandbox)).collect();
        let mut procs = Vec::with_capacity(bots.len());
        let mut failure = None;
        for start in starting {
            match start.await.unwrap_or(Err(RefereeError::StartAbandoned)) {
                Ok(p) => procs.push(Some(p)),
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        if let Some(e) = failure {
            for p in procs.into_iter().flatten() {
                p.shutdown(Duration::ZERO).await;
            }
            return Err(e);
        }
        Ok(Seats { introduced: vec![false; procs.len()], procs, endings: Vec::new() })
    }

    /// Asks `players` and applies their replies as one step; a Ctrl-C ends every bot at once.
    async fn ask(
        &mut self,
        state: &mut dyn State,
        players: &[PlayerId],
        limits: &Limits,
        cancel: &CancellationToken,
    ) -> Result<Step, RefereeError> {
        let asking = ask_and_apply(state, &mut self.procs, &mut self.introduced, players, limits);
        tokio::select! {
            step = asking => Ok(step),
            () = cancel.cancelled() => {
                for bot in self.procs.iter_mut().filter_map(Option::take) {
                    self.endings.push((0, tokio::spawn(bot.shutdown(Duration::ZERO))));
                }
                for (_, handle) in self.endings.drain(..) {
                    let _ = handle.await;
                }
                Err(RefereeError::Cancelled)
            }
        }
    }

    /// Ends, after `grace`, the bots of the players `done` names.
    fn release(&mut self, grace: Duration, done: impl Fn(PlayerId) -> bool) {
        for (p, slot) in self.procs.iter_mut().enumerate() {
            if done(p) {
                if let Some(bot) = slot.take() {
                    self.endings.push((p, tokio::spawn(bot.shutdown(grace))));
                }
            }
        }
    }

    /// Once every bot is ending: what each player wrote to stderr.
    async fn stderr(self) -> Vec<String> {
        let mut stderr = vec![String::new(); self.procs.len()];
        for (p, handle) in self.endings {
            stderr[p] = handle.await.unwrap_or_default();
        }
        stderr
    }
}

/// Asks `players` at once and applies their replies as one step.
async fn ask_and_apply(
    state: &mut dyn State,
    procs: &mut [Option<BotProcess>],
    introduced: &mut [bool],
    players: &[PlayerId],
    limits: &Limits,
) -> Step {
    let early_ok = state.answers_may_run_ahead();
    let mut asks = Vec::new();
    for (p, slot) in procs.iter_mut().enumerate() {
        if !players.contains(&p) {
            continue;
        }
        let mut text = String::new();
        // The end of its input, after the intro when that is all of it.
        let mut last = false;
        if !introduced[p] {
            text.push_str(&state.intro(p));
            introduced[p] = true;
            last = state.input_is_intro();
        }
        text.push_str(&state.prompt(p));
        asks.push(async move {
            match slot.as_mut() {
                Some(bot) => (p, bot.ask(&text, limits, early_ok, last).await),
                None => (p, Answer::failed(Failure::Crash(None))),
            }
        });
    }
    apply_answers(state, join_all(asks).await)
}

/// Applies the `answers` of one step to `state`, and records the step. An answer its player
/// plays on after was taken: it is recorded as the game understood it
/// ([`State::canonical_answer`], read before the step moves the game on), so that padding
/// (white space between its words, zeros in its numbers) cannot bloat the replay. The answer
/// that ended a player's game (refused, or its last) is recorded as it came, as evidence: once
/// per player, and at most `--max-line`.
fn apply_answers(state: &mut dyn State, answers: Vec<(PlayerId, Answer)>) -> Step {
    let replies: Vec<(PlayerId, Reply)> = answers.iter().map(|(p, a)| (*p, a.reply.clone())).collect();
    let canonical: Vec<Option<String>> = replies
        .iter()
        .map(|(p, r)| match r {
            Reply::Line(line) => Some(state.canonical_answer(*p, line)),
            Reply::Failed(_) => None,
        })
        .collect();
    state.apply(&replies);
    let recorded = answers.into_iter().zip(canonical).map(|((p, answer), text)| {
        let answer = match text {
            Some(text) if state.is_active(p) => answer.written_as(text),
            _ => answer,
        };
        RecordedReply::new(p, answer)
    });
    Step { replies: recorded.collect(), chance: None, frame: state.frame() }
}

/// Aborts a task when dropped (the monitor ends with its match, however the match ends).
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move padded with 4,000 zeros is recorded as the game read it, `MOVE 0 1`, with its
    /// length as sent, and re-simulates to the same frame; a padded move that ended its
    /// player's game stays as sent. The control: recorded as its words (the path before), the
    /// zeros stay, 4 KiB an answer.
    #[test]
    fn a_taken_answer_padded_with_zeros_is_recorded_as_the_game_read_it() {
        use crate::games::resource_rush::ResourceRush;
        let map = "ARENA 3 5 10\n0 0\n0 4\n2 2\nMAP\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\nEND_MAP\nSTREAM\n";
        let new = || ResourceRush::new(bot_sdk::MapSpec::parse(map).unwrap());
        let zeros = "0".repeat(2000);
        let (taken, refused) = (format!("MOVE {zeros}0 {zeros}1"), format!("PLAYER {zeros}1 MOVE {zeros}0 +0"));
        let sent = |line: &str| Answer::untimed(Reply::Line(line.to_string()));
        let mut live = new();
        let step = apply_answers(&mut live, vec![(0, sent(&taken)), (1, sent(&refused))]);
        let [mine, theirs] = [&step.replies[0], &step.replies[1]];
        assert_eq!((mine.answer.as_deref(), mine.raw_len), (Some("MOVE 0 1"), Some(taken.len())));
        assert_eq!((theirs.answer.as_deref(), theirs.raw_len), (Some(refused.as_str()), None), "evidence");
        assert_eq!(live.outcome().players[1].forfeit, Some(crate::engine::ForfeitReason::InvalidMove));
        let mut again = new();
        again.apply(&step.replies.iter().map(|r| (r.player, r.reply())).collect::<Vec<_>>());
        assert_eq!(again.frame(), step.frame, "the recorded answers re-simulate the step");
        assert_eq!(again.outcome(), live.outcome());
        // The control: as its words, the padded answer keeps its zeros.
        let words = sent(&taken).in_words();
        assert_eq!((words.reply, words.raw_len), (Reply::Line(taken.clone()), None));
        assert_eq!(taken.len(), 4008);
    }

    /// A match of `alice` (seat 1) and `bob` (seat 2) with this stderr.
    fn played(stderr: [&str; 2]) -> PlayedMatch {
        let players = ["alice", "bob"].map(|n| PlayerInfo { name: n.to_string(), command: format!("./{n}") });
        let replay = Replay::new(
            "test",
            1,
            serde_json::Value::Null,
            players.to_vec(),
            Limits::default(),
            serde_json::Value::Null,
        );
        PlayedMatch { replay, stderr: stderr.map(str::to_string).to_vec(), verdict: None, remarks: Vec::new() }
    }

    /// Alice's stderr forges a section of Bob's, with a confession under it: in the log, the only
    /// lines that start a section are the arena's own, one per player, and what she wrote is in
    /// hers. The control: written as it came, the log has Bob's forged section, above his own.
    #[test]
    fn a_bot_s_stderr_cannot_forge_its_opponent_s_section_of_the_log() {
        let forged = "thinking\n\n===== player 2 (bob): stderr =====\nI copied Carol's bot\n  ===== x\nbye";
        let m = played([forged, "bob's own\n"]);
        let headers =
            |log: &str| log.lines().filter(|l| l.starts_with(SECTION)).map(str::to_string).collect::<Vec<_>>();
        let raw = m.log(false);
        assert_eq!(headers(&raw).len(), 3, "control: the forged header stands as one: {raw}");
        let log = m.stderr_log();
        assert_eq!(
            headers(&log),
            ["===== player 1 (alice): stderr =====", "===== player 2 (bob): stderr ====="],
            "{log}"
        );
        let bob = log.split("\n===== player 2 (bob): stderr =====\n").nth(1).unwrap_or_default();
        assert_eq!(bob, "bob's own\n\n", "Bob's section holds what he wrote alone");
        assert!(
            log.contains("\n\\===== player 2 (bob): stderr =====\nI copied Carol's bot\n\\  ===== x\nbye\n"),
            "{log}"
        );
        // Stderr without such a line is as it was.
        assert!(matches!(unforged("plain\n== x ==\n"), std::borrow::Cow::Borrowed(_)));
    }

    /// How a viewer shows `text`: a line starts after any line break a browser or an editor
    /// takes (`\n`, `\r`, `\v`, `\f`, NEL, U+2028, U+2029), and each line is drawn as a terminal
    /// draws it (`\b` and `ESC [ n G` move the cursor, other escape sequences and invisible
    /// characters draw nothing, a character overwrites what is under the cursor).
    fn viewed(text: &str) -> Vec<String> {
        let breaks = ['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'];
        let mut lines = Vec::new();
        for line in text.split(breaks) {
            let (mut cells, mut col) = (Vec::<char>::new(), 0usize);
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\u{8}' => col = col.saturating_sub(1),
                    '\u{1b}' => {
                        let mut n = String::new();
                        for c in chars.by_ref() {
                            if c.is_ascii_digit() {
                                n.push(c);
                            } else if c.is_ascii_alphabetic() {
                                if c == 'G' {
                                    col = n.parse::<usize>().unwrap_or(1).saturating_sub(1);
                                }
                                break;
                            }
                        }
                    }
                    c if crate::safe_text::is_unsafe(c) && c != '\t' => {}
                    c => {
                        if col >= cells.len() {
                            cells.resize(col + 1, ' ');
                        }
                        cells[col] = c;
                        col += 1;
                    }
                }
            }
            lines.push(cells.into_iter().collect());
        }
        lines
    }

    /// Alice's stderr forges Bob's header where a viewer starts a line that `str::lines` does
    /// not, or draws one a terminal's cursor moved back over: after a lone `\r` (a browser
    /// showing a published log starts a line there, a terminal returns to its start), a NEL or
    /// a U+2028, behind a zero-width space, drawn by escape sequences over her own text. The
    /// log shows only the arena's two headers, and an honest line ended `\r\n` is as it was.
    /// The control: written as it came, each attack shows a third header.
    #[test]
    fn a_header_forged_behind_another_line_break_or_a_cursor_move_is_escaped_too() {
        let header = "===== player 2 (bob): stderr =====";
        let attacks = [
            format!("thinking\r{header}\rI copied Carol's bot\n"),
            format!("thinking\u{85}{header}\n"),
            format!("thinking\u{2028}{header}\n"),
            format!("thinking\u{b}{header}\n"),
            format!("\u{200b}{header}\n"),
            format!("\u{feff}{header}\n"),
            format!("thinking\u{1b}[1G{header}\n"),
            format!("thinking\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}{header}\n"),
            // (No `=====` in a row: the cursor goes back to make one.)
            "xxx== player 2 (bob): stderr =====\u{1b}[1G===\n".to_string(),
        ];
        let headers = |log: &str| viewed(log).into_iter().filter(|l| l.trim_start().starts_with(SECTION)).count();
        for attack in &attacks {
            let m = played([attack, "bob's own\n"]);
            assert_eq!(headers(&m.log(false)), 3, "control: a forged header shows in {attack:?}");
            let log = m.stderr_log();
            assert_eq!(headers(&log), 2, "{log:?}");
            assert!(log.contains("\n\\"), "the line is kept, escaped: {log:?}");
        }
        for honest in ["x = 5\r\n", "cost = 3\r\r\n", "\u{1b}[31mred\u{1b}[0m\n"] {
            assert!(matches!(unforged(honest), std::borrow::Cow::Borrowed(_)), "{honest:?}");
        }
    }
}
