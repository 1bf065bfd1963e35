//! The referee: runs one match of any [`State`] between bot processes, asking the players
//! each turn names (concurrently when simultaneous) under time limits, and records the replay.
//! It knows no game's rules.

pub mod clock;
pub mod cpus;
pub mod log;
mod monitor;
pub use monitor::{judge_by, overload_seen, warn_overloaded};
mod process;
pub mod start;

use std::time::Duration;

use futures::future::join_all;
use thiserror::Error;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use crate::engine::{Answer, ClockKind, Limits};
pub use process::{seat_seed, BotCommand, BotProcess, BotStderr};

/// The `tracing` target of a notice to the user (an overloaded machine): a sentence of its own,
/// which the binary shows plainly on stderr, not as a log line with its module.
pub const NOTICE: &str = "notice";

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
    #[error("bot `{name}`: cannot start `{command}`: {source}{hint}")]
    Spawn {
        /// The bot.
        name: String,
        /// Its command line.
        command: String,
        /// The system's reason.
        source: std::io::Error,
        /// What to do about it, when the sandbox knows (empty, or "; …": after the system's reason,
        /// so that the message does not nest the hint's own brackets in another pair).
        hint: String,
    },
    /// The machine could not start the bot's process (see [`crate::sandbox::StartFault`]):
    /// no fault of the bot's, whose program never ran.
    #[error("bot `{name}`: the machine could not start it, no fault of the bot's: {source}")]
    Machine {
        /// The bot.
        name: String,
        /// What failed.
        source: crate::sandbox::StartFault,
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

impl RefereeError {
    /// The bot whose command or files failed the match's start, if the error is of that bot's
    /// own (its opponents are not at fault); a box the machine could not prepare for it (its
    /// cgroup, a box uid, a limit) is no bot's fault, nor is a sandbox required and missing, nor
    /// a process the machine could not start for it ([`RefereeError::Machine`]).
    pub fn bot(&self) -> Option<&str> {
        match self {
            RefereeError::BadCommand { name, .. } | RefereeError::Spawn { name, .. } => Some(name),
            RefereeError::Sandbox { name, source } if source.is_the_bots() => Some(name),
            _ => None,
        }
    }
}

/// A finished match: its replay and each bot's stderr.
#[derive(Debug)]
pub struct PlayedMatch {
    /// The full record, result included.
    pub replay: Replay,
    /// What each bot wrote to stderr, in player order: the text kept up to the cap, how many
    /// bytes were dropped past it (the log writes its note as the arena's, not the bot's), and
    /// how long the bot waited on its full pipe (what a flood cost it, however loaded the
    /// machine: [`crate::explain::ForfeitFact::flood`]).
    pub stderr: Vec<BotStderr>,
    /// The game's verdict, for a single-player test ([`State::verdict`]).
    pub verdict: Option<Verdict>,
    /// The game's warnings about players ([`State::remarks`]).
    pub remarks: Vec<Remark>,
}

impl PlayedMatch {
    /// How many bytes of `player`'s stderr were dropped past the cap (0 for none, or no such player).
    pub fn dropped(&self, player: PlayerId) -> usize {
        self.stderr.get(player).map_or(0, |e| e.dropped)
    }

    /// How long `player` waited on its full stderr pipe (zero for none, or no such player).
    pub fn blocked(&self, player: PlayerId) -> Duration {
        self.stderr.get(player).map_or(Duration::ZERO, |e| e.blocked)
    }

    /// What `player` wrote to stderr (capped), then the arena's note of what it dropped
    /// ([`log::dropped_note`]); empty for a bot that wrote nothing, or no such player.
    pub fn stderr_text(&self, player: PlayerId) -> String {
        self.stderr.get(player).map_or_else(String::new, |e| e.text.clone() + &log::dropped_note(e.dropped))
    }

    /// The bots' stderr as one log, a section per player, each under a header of the arena's;
    /// every line of a bot's is quoted after `  | ` (see [`log`]).
    pub fn stderr_log(&self) -> String {
        log::match_log(self, log::Guard::Full)
    }

    /// Writes the replay to `replay` and, when a bot wrote to stderr, the log to `log`; each
    /// atomically. The replay file's bytes, as written.
    pub fn save(&self, replay: &std::path::Path, log: &std::path::Path) -> Result<Vec<u8>, ReplayError> {
        let bytes = self.replay.save_bytes(replay)?;
        if self.stderr.iter().all(BotStderr::is_empty) {
            return Ok(bytes);
        }
        write_atomic(log, self.stderr_log().as_bytes())
            .map_err(|source| ReplayError::Io { path: log.to_path_buf(), source })?;
        Ok(bytes)
    }
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
    endings: Vec<(PlayerId, JoinHandle<process::BotStderr>)>,
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

    /// Once every bot is ending: what each player wrote to stderr ([`process::BotStderr`]).
    async fn stderr(self) -> Vec<process::BotStderr> {
        let mut stderr = vec![process::BotStderr::default(); self.procs.len()];
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

    /// A start's error names the bot at fault only where the bot is (its files); a box the
    /// machine could not prepare is no bot's (a review found a cgroup's failure blamed on one).
    /// The control: the bot's own files' error names it.
    #[test]
    fn a_box_the_machine_could_not_prepare_is_no_bot_s_fault() {
        use crate::sandbox::SandboxError;
        let error = |source| RefereeError::Sandbox { name: "ann".into(), source };
        let setup = SandboxError::Setup { what: "a box uid".into(), source: std::io::Error::other("all in use") };
        assert_eq!(error(setup).bot(), None);
        assert_eq!(error(SandboxError::Limit("open files".into())).bot(), None);
        let fault = crate::sandbox::StartFault::of(&std::io::Error::from_raw_os_error(libc::EAGAIN));
        let machine = RefereeError::Machine { name: "ann".into(), source: fault.expect("the machine's") };
        assert_eq!(machine.bot(), None, "{machine}");
        assert_eq!(error(SandboxError::Files("its folder is missing".into())).bot(), Some("ann"), "the control");
        let source = std::io::Error::from_raw_os_error(libc::ENOENT);
        let spawn = RefereeError::Spawn { name: "ann".into(), command: "./bot".into(), source, hint: String::new() };
        assert_eq!(spawn.bot(), Some("ann"), "the control: its program is missing");
    }

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
}
