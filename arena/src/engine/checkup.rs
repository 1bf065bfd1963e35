//! A game's own short situations for `arena check-bot` (Resource Rush's small maps): what the
//! doctor plays a bot through, and what the game's rules say of how it went. The doctor runs
//! the process and explains what is the process's doing (silence, a crash, a line unasked
//! for); the game knows its maps, its scripts and its rules, and nothing of processes.

use serde_json::Value;

use super::{Limits, PlayerId, SetupError, State};

/// A game's situations and the words the doctor says of them, in a [`super::BotKit`].
#[derive(Debug, Clone, Copy)]
pub struct Checkup {
    /// The situations, in order: the first is where a bot that never answers is probed.
    pub situations: fn() -> Vec<Box<dyn Situation>>,
    /// A situation where the bot can only wait, for thousands of steps, in a state that takes
    /// its whole input at once: the probe that tells unflushed output from a bot reading to
    /// the end of its input.
    pub idle: fn() -> Box<dyn Situation>,
    /// What the bot is sent to answer, as in `TICK 1`: `TICK`.
    pub prompt: &'static str,
    /// What comes before the first prompt, as in "after the header and `TICK 1`": `the header and `.
    pub header: &'static str,
    /// The fix for a bot silent from the start, neither unflushed nor reading to the end of its input.
    pub never_answered: &'static str,
    /// The fix for a bot that answers only once its input ends; `{bot}` stands for its command.
    pub end_of_input: &'static str,
}

/// One situation a bot plays alone (the other seats are the game's script).
pub trait Situation: Send + Sync {
    /// Its name, as check-bot lists it (`seat 2`).
    fn name(&self) -> &str;

    /// The bot's seat, as its command is told.
    fn seat(&self) -> PlayerId;

    /// Whether every line the bot is sent ends in `\r\n` (the doctor writes them so).
    fn crlf(&self) -> bool;

    /// Environment variables the bot runs with here (`RR_MODE=test`).
    fn env(&self) -> Vec<(String, String)>;

    /// A new one-player state of it (the bot is player 0); `whole_input`: the bot is sent all
    /// of its input at once.
    fn state(&self, whole_input: bool) -> Result<Box<dyn State>, SetupError>;

    /// Where the bot is, appended to what the doctor says happened: ` (here it plays as player 2)`.
    fn context(&self) -> &'static str;

    /// What to change after a crash here, and whether that is this situation's own cause (a
    /// crash killed by a signal is then first put down to it).
    fn crash_fix(&self) -> (&'static str, bool);

    /// How it went, in a line: score, steps, finished.
    fn summary(&self, played: &Played<'_>) -> String;

    /// What the game's rules say of it: the forfeits the game judged (not a timeout, a crash or
    /// a line unasked for, which the doctor explains), or notes when the bot did not forfeit.
    fn findings(&self, played: &Played<'_>, limits: &Limits) -> Vec<Finding>;
}

/// What the doctor saw of one situation, for the game to judge.
#[derive(Debug, Clone)]
pub struct Played<'a> {
    /// The bot's score.
    pub score: i64,
    /// Whether it finished.
    pub finished: bool,
    /// Its forfeit's reason, if any.
    pub forfeit: Option<&'a str>,
    /// What caused the forfeit, as the game recorded it.
    pub detail: Option<&'a str>,
    /// How many steps were played.
    pub steps: usize,
    /// The bot's answer at each step it was asked (None: no line).
    pub answers: Vec<Option<&'a str>>,
    /// The frame before each step: the initial frame, then each step's.
    pub frames: Vec<&'a Value>,
}

impl Played<'_> {
    /// The frame before step `k` (1-based).
    pub fn frame_before(&self, k: usize) -> Option<&Value> {
        self.frames.get(k.saturating_sub(1)).copied()
    }
}

/// One problem, in words, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What went wrong, as the bot's author sees it.
    pub problem: String,
    /// What to change.
    pub fix: String,
    /// A forfeit (the bot would lose games) rather than a weakness.
    pub serious: bool,
}
