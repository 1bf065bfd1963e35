//! The referee: runs one match of any [`State`] between bot processes, asking the players
//! each turn names (concurrently when simultaneous) under time limits, and records the replay.
//! It knows no game's rules.

pub mod clock;
mod monitor;
mod process;

use std::time::Duration;

use futures::future::join_all;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use clock::ClockKind;
pub use process::{seat_seed, Answer, BotCommand, BotProcess};

use crate::engine::{Chance, PlayerId, Remark, Reply, State, Turn, Verdict};
use crate::replay::{write_atomic, MatchResult, PlayerInfo, RecordedReply, Replay, ReplayError, Step};
use crate::sandbox::Sandbox;

/// Time and size limits for bots (defaults from the rulings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Time for a bot's first answer (includes start-up).
    #[serde(with = "millis")]
    pub startup: Duration,
    /// Time for each later answer.
    #[serde(with = "millis")]
    pub per_move: Duration,
    /// Total answer time for one bot over a whole game.
    #[serde(with = "millis")]
    pub total: Duration,
    /// How long a bot that is done may take to exit before it is ended.
    #[serde(with = "millis")]
    pub grace: Duration,
    /// Longest accepted answer line, in bytes.
    pub max_line: usize,
    /// How much of a bot's stderr is kept, in bytes.
    pub stderr_cap: usize,
    /// What the time limits count: the CPU time of the bot's box, or wall time.
    #[serde(default = "ClockKind::legacy")]
    pub clock: ClockKind,
    /// With the CPU clock, an answer also ends after this many times its limit in wall time
    /// (a bot that sleeps or blocks).
    #[serde(default = "default_backstop")]
    pub backstop_factor: u32,
}

fn default_backstop() -> u32 {
    5
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            startup: Duration::from_secs(2),
            per_move: Duration::from_secs(1),
            total: Duration::from_secs(5),
            grace: Duration::from_millis(200),
            max_line: 4096,
            stderr_cap: 64 * 1024,
            clock: ClockKind::Cpu,
            backstop_factor: default_backstop(),
        }
    }
}

mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_millis() as u64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum RefereeError {
    /// The command line could not be split or is empty.
    #[error("bot `{name}`: bad command `{command}`: {message}")]
    BadCommand {
        /// The bot.
        name: String,
        /// Its command line.
        command: String,
        /// What is wrong.
        message: String,
    },
    /// The process could not be started.
    #[error("bot `{name}`: cannot start `{command}`: {source}")]
    Spawn {
        /// The bot.
        name: String,
        /// Its command line.
        command: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The bot's box could not be made.
    #[error("bot `{name}`: {source}")]
    Sandbox {
        /// The bot.
        name: String,
        /// What the sandbox said.
        source: crate::sandbox::SandboxError,
    },
    /// The match could not be set up or its record not written.
    #[error("{0}")]
    Setup(String),
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
    /// The bots' stderr as one log, a section per player.
    pub fn stderr_log(&self) -> String {
        let sections = self.replay.players.iter().zip(&self.stderr).enumerate();
        sections.map(|(i, (p, err))| format!("===== player {} ({}): stderr =====\n{err}\n", i + 1, p.name)).collect()
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
    // The bots' boxes are made at once: making a box waits on the kernel (forks, namespaces,
    // cgroups) more than it computes.
    let starting: Vec<_> = bots.iter().map(|bot| process::spawn_soon(bot, limits, sandbox)).collect();
    let mut spawned = Vec::with_capacity(n);
    for start in starting {
        spawned.push(start.await.unwrap_or_else(|_| Err(RefereeError::Setup("a bot's start-up failed".to_string()))));
    }
    let mut procs: Vec<Option<BotProcess>> = Vec::with_capacity(n);
    let mut failure = None;
    for result in spawned {
        match result {
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
    let mut replay = Replay::new(
        game,
        seed,
        state.setup(),
        bots.iter().map(|b| PlayerInfo { name: b.name.clone(), command: b.command.clone() }).collect(),
        *limits,
        state.frame(),
    );
    let watches = procs.iter().flatten().map(BotProcess::watch).collect();
    let monitor = AbortOnDrop(tokio::spawn(monitor::watch(watches, *limits)));
    let mut chance = Chance::new(seed);
    let mut introduced = vec![false; n];
    let mut endings: Vec<(PlayerId, JoinHandle<String>)> = Vec::new();
    loop {
        let mut step = None;
        let players = match state.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let outcome = chance.draw(&state.chance_outcomes());
                state.apply_chance(outcome);
                step = Some(Step { replies: Vec::new(), chance: Some(outcome), frame: state.frame() });
                Vec::new()
            }
            Turn::Sequential(p) => vec![p],
            Turn::Simultaneous(ps) => ps,
        };
        let step = match step {
            Some(step) => step,
            None => {
                let asking = ask_and_apply(&mut *state, &mut procs, &mut introduced, &players, limits);
                tokio::select! {
                    step = asking => step,
                    () = cancel.cancelled() => {
                        for bot in procs.iter_mut().filter_map(Option::take) {
                            endings.push((0, tokio::spawn(bot.shutdown(Duration::ZERO))));
                        }
                        for (_, handle) in endings {
                            let _ = handle.await;
                        }
                        return Err(RefereeError::Cancelled);
                    }
                }
            }
        };
        replay.steps.push(step);
        for (p, slot) in procs.iter_mut().enumerate() {
            if !state.is_active(p) {
                if let Some(bot) = slot.take() {
                    endings.push((p, tokio::spawn(bot.shutdown(limits.grace))));
                }
            }
        }
    }
    for (p, slot) in procs.iter_mut().enumerate() {
        if let Some(bot) = slot.take() {
            endings.push((p, tokio::spawn(bot.shutdown(limits.grace))));
        }
    }
    drop(monitor);
    let mut stderr = vec![String::new(); n];
    for (p, handle) in endings {
        stderr[p] = handle.await.unwrap_or_default();
    }
    replay.result = MatchResult::from_outcome(state.outcome(), &replay.players);
    replay.seat_seeds = bots.iter().filter_map(BotCommand::seat_seed).collect();
    Ok(PlayedMatch { replay, stderr, verdict: state.verdict(), remarks: state.remarks() })
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
        if !introduced[p] {
            text.push_str(&state.intro(p));
            introduced[p] = true;
        }
        text.push_str(&state.prompt(p));
        asks.push(async move {
            match slot.as_mut() {
                Some(bot) => (p, bot.ask(&text, limits, early_ok).await),
                None => (p, Answer::untimed(Reply::Failed(crate::engine::Failure::Crash))),
            }
        });
    }
    let answers = join_all(asks).await;
    let replies: Vec<(PlayerId, Reply)> = answers.iter().map(|(p, a)| (*p, a.reply.clone())).collect();
    state.apply(&replies);
    Step {
        replies: answers.into_iter().map(|(p, a)| RecordedReply::new(p, a)).collect(),
        chance: None,
        frame: state.frame(),
    }
}

/// Aborts a task when dropped (the monitor ends with its match, however the match ends).
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
