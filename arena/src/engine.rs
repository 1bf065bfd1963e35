//! The engine trait every hosted game implements, shaped after OpenSpiel's `State`.
//!
//! A [`State`] says whose move it is ([`Turn`]: several players at once, one player, chance,
//! or nobody because the game is over), writes each player's observation as protocol lines,
//! takes the players' replies, and reports frames and the outcome. The referee, replays and
//! tournaments use only this trait; they know no game's rules.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

/// Index of a player in match order (0-based).
pub type PlayerId = usize;

/// Who acts next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// These players answer at once; their replies are applied together.
    Simultaneous(Vec<PlayerId>),
    /// This one player answers.
    Sequential(PlayerId),
    /// A chance event (dice) is drawn from [`State::chance_outcomes`].
    Chance,
    /// The game is over.
    Terminal,
}

/// A failure the referee observed instead of an answer line. Games turn these into forfeits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// No answer within the time limit.
    Timeout,
    /// The bot exited or closed its stdout.
    Crash,
    /// A line arrived that no prompt asked for.
    ExtraOutput,
    /// The line was too long or not UTF-8.
    Malformed,
    /// The bot hit its CPU-time limit.
    Cpu,
    /// The bot ran out of memory under its limit.
    Memory,
}

impl Failure {
    /// The forfeit reason recorded for this failure.
    pub fn reason(self) -> &'static str {
        match self {
            Failure::Timeout => "timeout",
            Failure::Crash => "crash",
            Failure::ExtraOutput => "extra_output",
            Failure::Malformed => "malformed",
            Failure::Cpu => "cpu",
            Failure::Memory => "memory",
        }
    }

    /// A sentence saying what happened.
    pub fn describe(self) -> &'static str {
        match self {
            Failure::Timeout => "no answer within the time limit",
            Failure::Crash => "the bot exited or closed its stdout",
            Failure::ExtraOutput => "printed a line that no TICK asked for",
            Failure::Malformed => "the line was longer than the limit or not valid UTF-8",
            Failure::Cpu => "used up its CPU-time limit",
            Failure::Memory => "ran out of memory under its limit",
        }
    }
}

/// What the referee got from a player it asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// One answer line, without its line ending.
    Line(String),
    /// No usable line.
    Failed(Failure),
}

/// How one player's game ended (or stands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerOutcome {
    /// The player's score.
    pub score: i64,
    /// Reached the goal (for Resource Rush: the final cell).
    pub finished: bool,
    /// The forfeit reason (`fire`, `timeout`, …), or `None`.
    pub forfeit: Option<String>,
    /// What exactly caused the forfeit, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The result of a match as a game reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// One entry per player, in player order.
    pub players: Vec<PlayerOutcome>,
    /// The winning player, or `None` for a draw.
    pub winner: Option<PlayerId>,
}

/// How a lone bot did against a bar (a single-player test): passed, or why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Met every condition.
    pub passed: bool,
    /// Why it did not, naming the cause where the game can see it.
    pub reason: Option<String>,
}

/// Something about one player worth a warning once a match is over (a bot that never moved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remark {
    /// The player.
    pub player: PlayerId,
    /// What to tell, as a phrase after the player's name.
    pub text: String,
}

/// A game's setup could not be loaded (a bad replay or a bad map).
#[derive(Debug, Error)]
pub enum SetupError {
    /// The setup is not valid for this game.
    #[error("invalid {game} setup: {message}")]
    Invalid {
        /// The game's name.
        game: &'static str,
        /// What is wrong.
        message: String,
    },
    /// No game of this name is hosted.
    #[error("unknown game `{0}` (hosted: {1})")]
    UnknownGame(String, String),
    /// A map or option given for a new match is not usable; the message names where and what.
    #[error("{0}")]
    BadInput(String),
}

/// The largest map or configuration file read (a 50x50 map is a few KiB).
pub const MAX_MAP_BYTES: u64 = 1 << 20;

/// Reads a map or configuration file: a regular file of at most [`MAX_MAP_BYTES`], as text.
/// A FIFO, a device or a folder is refused at once rather than waited for or read forever.
pub fn read_map_file(path: &std::path::Path) -> Result<String, SetupError> {
    use std::io::Read;
    let bad = |what: String| SetupError::BadInput(format!("{}: {what}", path.display()));
    let unreadable = |e: std::io::Error| bad(format!("cannot read map: {e}"));
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(bad("not a regular file (a map or config must be a plain file)".to_string()));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_MAP_BYTES + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > MAX_MAP_BYTES {
        return Err(bad(format!("larger than {} KiB: not a map", MAX_MAP_BYTES >> 10)));
    }
    String::from_utf8(bytes)
        .map_err(|e| bad(format!("not text (invalid UTF-8 at byte {})", e.utf8_error().valid_up_to())))
}

/// What the command line chose for a new match; each game uses what applies to it.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// A map or configuration file.
    pub map: Option<std::path::PathBuf>,
    /// The map file's content, read once before a run (so that every match of a tournament
    /// plays the same map, whatever happens to the file); read from `map` when absent.
    pub text: Option<std::sync::Arc<str>>,
    /// Number of players, for games that allow several counts.
    pub players: Option<usize>,
    /// Board size (width, height), for games played on a plain board.
    pub size: Option<(usize, usize)>,
    /// Number of rounds, for games played in rounds (Tactics).
    pub rounds: Option<u32>,
}

impl MatchOptions {
    /// The map file and its content (the copy read before the run, else the file now), or
    /// `None` without a map.
    pub fn map_text(&self) -> Result<Option<(&std::path::Path, std::sync::Arc<str>)>, SetupError> {
        let Some(path) = self.map.as_deref() else { return Ok(None) };
        let text = match &self.text {
            Some(t) => t.clone(),
            None => read_map_file(path)?.into(),
        };
        Ok(Some((path, text)))
    }
}

/// The dice of a match: every chance outcome is drawn from the match seed, so a replay's
/// chance steps can be checked against its seed.
pub struct Chance(rand::rngs::StdRng);

impl Chance {
    /// The dice of a match with `seed`.
    pub fn new(seed: u64) -> Chance {
        Chance(rand::SeedableRng::seed_from_u64(seed))
    }

    /// Draws one of `outcomes` by its probability.
    pub fn draw(&mut self, outcomes: &[(u64, f64)]) -> u64 {
        let total: f64 = outcomes.iter().map(|(_, w)| w).sum();
        let mut x = rand::Rng::random::<f64>(&mut self.0) * total;
        for (o, w) in outcomes {
            if x < *w {
                return *o;
            }
            x -= w;
        }
        outcomes.last().map_or(0, |(o, _)| *o)
    }
}

/// A prompt made of a `head`, the board's `rows` one per line, and `END`: the shape of the
/// board games' prompts.
pub fn board_prompt(head: String, rows: &[String]) -> String {
    let mut text = head;
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    text.push_str("END\n");
    text
}

/// The state of one match of a game. See the module docs.
pub trait State: Send {
    /// Number of players in the match.
    fn num_players(&self) -> usize;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// Lines sent to `player` once, at the start (may be empty). Each line ends with `\n`.
    fn intro(&self, player: PlayerId) -> String;

    /// Lines sent to `player` when it must act now. Each line ends with `\n`.
    fn prompt(&self, player: PlayerId) -> String;

    /// Whether a bot's answers may arrive before it is prompted (it was sent its whole input
    /// at once); otherwise an unprompted line is a forfeit.
    fn answers_may_run_ahead(&self) -> bool {
        false
    }

    /// Applies the replies of the players [`State::turn`] named, all at once.
    fn apply(&mut self, replies: &[(PlayerId, Reply)]);

    /// At a chance node: the possible outcomes and their probabilities.
    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        Vec::new()
    }

    /// At a chance node: applies the drawn outcome.
    fn apply_chance(&mut self, _outcome: u64) {}

    /// Whether `player` still plays (is still prompted). The referee ends the process of a
    /// player that no longer does.
    fn is_active(&self, player: PlayerId) -> bool;

    /// Scores, per-player outcomes and the winner (final once the turn is `Terminal`).
    fn outcome(&self) -> Outcome;

    /// What re-creates the initial state through [`Game::load`] (recorded in replays).
    fn setup(&self) -> Value;

    /// The replay frame describing the state now and the last step's events.
    fn frame(&self) -> Value;

    /// A text picture of the state for terminals.
    fn render(&self) -> String;

    /// For a game that judges one bot against a bar (a single-player test), once it is over:
    /// whether the bot passed, and why not. `None` for games played between players.
    fn verdict(&self) -> Option<Verdict> {
        None
    }

    /// Once the game is over: warnings about players (a bot that never moved), for whoever
    /// runs the match.
    fn remarks(&self) -> Vec<Remark> {
        Vec::new()
    }

    /// What a match from this state is expected to cost to play, relative to other matches
    /// of the same game (tournaments balance shards by it). Default: all alike.
    fn expected_cost(&self) -> u64 {
        1
    }
}

/// A hosted game: its name and how to build an initial state from a recorded setup.
pub trait Game: Sync {
    /// The name used in replays and on the command line.
    fn name(&self) -> &'static str;

    /// A fresh initial state from a setup recorded by [`State::setup`].
    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError>;

    /// A new match from command-line options (a map file, a player count).
    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError>;

    /// Whether leaderboards rank this game by wins first (else by total score first).
    fn ranks_by_wins(&self) -> bool {
        false
    }
}
