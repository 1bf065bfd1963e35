//! The engine: the trait every hosted game implements, shaped after OpenSpiel's `State`, with
//! what a game says about itself ([`GameInfo`], OpenSpiel's `GameType`), the registry of games,
//! the limits bots play under and the outcome types. The bottom layer: it uses no other module
//! of the arena (see ARCHITECTURE.md).
//!
//! A [`State`] says whose move it is ([`Turn`]: several players at once, one player, chance,
//! or nobody because the game is over), writes each player's observation as protocol lines,
//! takes the players' replies, and reports frames and the outcome. The referee, replays and
//! tournaments use only this trait; they know no game's rules.

mod checkup;
mod ending;
mod game;
mod info;
mod limits;
mod outcome;
mod seated;
mod wrapper;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use checkup::{Checkup, Finding, Played, Situation};
pub use ending::Ending;
pub use game::{closest_name, Game, MatchOptions, Registry, SetupError, DEBUG_LINE_FIX};
pub use info::{
    BotKit, ClassicError, ClassicProgram, ClassicSession, Columns, GameInfo, KitCommand, KitMap, KitReadme, KitSample,
    ParamError, ParamKind, ParamSpec, ParamValue, Params, PlaysOn, Ranking, Speaks, Wording,
};
pub use limits::{ClockKind, LimitChoices, Limits, UnknownClock};
pub use outcome::{ForfeitReason, Outcome, PlayerOutcome, Remark, Verdict};
pub use seated::{MatchSteps, Others, Seated};
pub use wrapper::Wrapper;

/// An error with its causes, boxed: what a game reports through the engine's error types.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

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
/// Serialized as its name alone (`"crash"`): a replay records a crash's [`Ending`] beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the time limit.
    Timeout,
    /// The bot exited or closed its stdout; how its process ended, when the referee saw it
    /// (`None` in replays recorded before it was, and where nobody looked).
    Crash(Option<Ending>),
    /// A line arrived that no prompt asked for.
    ExtraOutput,
    /// The line was longer than the limit on an answer's length.
    TooLong,
    /// The line was not valid UTF-8.
    NotUtf8,
    /// The line was too long or not UTF-8: what replays recorded before the two were told
    /// apart (still read, never recorded now).
    Malformed,
    /// The bot hit its CPU-time limit.
    Cpu,
    /// The bot ran out of memory under its limit.
    Memory,
}

impl Failure {
    /// The forfeit this failure is.
    pub fn reason(self) -> ForfeitReason {
        match self {
            Failure::Timeout => ForfeitReason::Timeout,
            Failure::Crash(_) => ForfeitReason::Crash,
            Failure::ExtraOutput => ForfeitReason::ExtraOutput,
            Failure::TooLong | Failure::NotUtf8 | Failure::Malformed => ForfeitReason::Malformed,
            Failure::Cpu => ForfeitReason::Cpu,
            Failure::Memory => ForfeitReason::Memory,
        }
    }

    /// How the bot's process ended, for a crash where the referee saw it.
    pub fn ending(self) -> Option<Ending> {
        match self {
            Failure::Crash(ended) => ended,
            _ => None,
        }
    }

    /// A sentence saying what happened; `prompt` is what the game calls its prompt (a line
    /// that arrives unasked came before one).
    pub fn describe(self, prompt: &str) -> String {
        match self {
            Failure::Timeout => "no answer within the time limit".to_string(),
            Failure::Crash(None) => "the bot exited or closed its stdout".to_string(),
            Failure::Crash(Some(ending)) => format!("the bot {}", ending.clause()),
            Failure::ExtraOutput => format!("printed a line that no {prompt} asked for"),
            Failure::TooLong => "the line was longer than the limit on an answer's length".to_string(),
            Failure::NotUtf8 => "the line was not valid UTF-8 text (a stray byte, or binary output?)".to_string(),
            Failure::Malformed => "the line was longer than the limit or not valid UTF-8".to_string(),
            Failure::Cpu => "used up its CPU-time limit".to_string(),
            Failure::Memory => "ran out of memory under its limit".to_string(),
        }
    }
}

/// Each [`Failure`] by the name replays record (a crash without its [`Ending`]: that goes beside it).
const FAILURE_NAMES: [(&str, Failure); 8] = [
    ("timeout", Failure::Timeout),
    ("crash", Failure::Crash(None)),
    ("extra_output", Failure::ExtraOutput),
    ("too_long", Failure::TooLong),
    ("not_utf8", Failure::NotUtf8),
    ("malformed", Failure::Malformed),
    ("cpu", Failure::Cpu),
    ("memory", Failure::Memory),
];

impl Serialize for Failure {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = std::mem::discriminant(self);
        let name = FAILURE_NAMES.iter().find(|(_, f)| std::mem::discriminant(f) == kind).map_or("crash", |(n, _)| n);
        serializer.serialize_str(name)
    }
}

impl<'de> Deserialize<'de> for Failure {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Failure, D::Error> {
        let name = String::deserialize(deserializer)?;
        FAILURE_NAMES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).ok_or_else(|| {
            let known: Vec<&str> = FAILURE_NAMES.iter().map(|(n, _)| *n).collect();
            serde::de::Error::custom(format!("unknown failure `{name}`, expected one of {}", known.join(", ")))
        })
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

/// One answer: the reply and what it cost (what a replay records of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The line, or why there was none.
    pub reply: Reply,
    /// Wall time from the prompt to the answer.
    pub wall: Duration,
    /// CPU time the bot's box used since its CPU time was last read (at its previous answer);
    /// `None` when that was only a moment ago (the time goes to a later answer).
    pub cpu: Option<Duration>,
    /// The line's length as sent, when the line is shorter (white space trimmed around it, made
    /// one space between its words, or padding taken out of its numbers).
    pub raw_len: Option<usize>,
    /// The line the bot printed that no prompt asked for, found waiting when it was asked
    /// (an `extra_output` failure), as text: what check-bot quotes. `None` for any other
    /// reply, or a line that was not text or too long.
    pub unasked: Option<String>,
}

impl Answer {
    /// An answer that took no time (replays built by hand, failures found before asking).
    pub fn untimed(reply: Reply) -> Answer {
        Answer { reply, wall: Duration::ZERO, cpu: None, raw_len: None, unasked: None }
    }

    /// A failure found before asking.
    pub fn failed(f: Failure) -> Answer {
        Answer::untimed(Reply::Failed(f))
    }

    /// The CPU time counted for an answer whose CPU time was read as `cpu`: none when it was not
    /// read (a moment after the last reading: the next reading counts it). The one rule of the
    /// referee's charge, a replay's times (`verify`) and what the arena says of them.
    pub fn counted_cpu(cpu: Option<Duration>) -> Duration {
        cpu.unwrap_or(Duration::ZERO)
    }

    /// The answer with its line as [`words`], and the length as sent where that differs: what
    /// a game that reads nothing but words takes of it (the default of
    /// [`State::canonical_answer`]).
    pub fn in_words(self) -> Answer {
        let Reply::Line(line) = &self.reply else { return self };
        let words = words(line);
        self.written_as(words)
    }

    /// The answer with its line written as `text` (what the game understood of it, see
    /// [`State::canonical_answer`]), and the length as sent where that differs: how a replay
    /// records an answer the game took, so that padding (white space, zeros in a number)
    /// cannot bloat the replay. A failure stays as it is.
    pub fn written_as(self, text: String) -> Answer {
        let Reply::Line(line) = &self.reply else { return self };
        let sent = self.raw_len.unwrap_or(line.len());
        let raw_len = (text.len() != sent).then_some(sent);
        Answer { reply: Reply::Line(text), raw_len, ..self }
    }
}

/// `line`'s words, split on ASCII white space ([`bot_sdk::action::words`]) as every game splits
/// an answer, joined by one space: stored so, a taken answer still parses the same.
pub fn words(line: &str) -> String {
    bot_sdk::action::words(line).collect::<Vec<_>>().join(" ")
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

    /// Whether the intro is all the input a player gets (its whole file, sent at once): its
    /// stdin is then closed after it, as a program reading to the end of its input (`./bot <
    /// file`) expects.
    fn input_is_intro(&self) -> bool {
        false
    }

    /// Applies the replies of the players [`State::turn`] named, all at once. A game reads an
    /// answer word by word, and one it does not take ends its player's game: the replay keeps
    /// the answers of players still [`State::is_active`] after it in their canonical form
    /// ([`State::canonical_answer`]), which must re-simulate the same.
    fn apply(&mut self, replies: &[(PlayerId, Reply)]);

    /// The answer `line` of `player`, read by this state before it is applied, written back
    /// as the game understood it (`MOVE 3 4` for `MOVE 0003 +4`): what the replay records
    /// of an answer the game took (with the length as sent), so that padding cannot bloat
    /// it. Applied instead of `line`, it must do exactly the same, and be its own canonical
    /// form; for a line the game would refuse it may be anything. Default: its [`words`].
    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        words(line)
    }

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

    /// A simple legal answer for `player` now, whose turn it is: what a scripted opponent
    /// plays where `arena check-bot` plays a bot against the game itself. None: the game
    /// scripts no opponent.
    fn scripted_answer(&self, _player: PlayerId) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(line: &str, raw: usize) -> Answer {
        let trimmed = bot_sdk::action::trim(line).to_string();
        let raw_len = (trimmed.len() != raw).then_some(raw);
        Answer { reply: Reply::Line(trimmed), raw_len, ..Answer::untimed(Reply::Failed(Failure::Crash(None))) }
    }

    /// Each failure is recorded by its name, and read back from it (a crash's ending aside);
    /// a name no failure has is refused, naming them.
    #[test]
    fn failures_are_recorded_by_name() {
        for (name, failure) in FAILURE_NAMES {
            assert_eq!(serde_json::to_value(failure).unwrap(), serde_json::json!(name));
            assert_eq!(serde_json::from_value::<Failure>(serde_json::json!(name)).unwrap(), failure);
        }
        let crashed = Failure::Crash(Some(Ending::Signal(libc::SIGSEGV)));
        assert_eq!(serde_json::to_value(crashed).unwrap(), serde_json::json!("crash"));
        let err = serde_json::from_value::<Failure>(serde_json::json!("exploded")).unwrap_err().to_string();
        assert!(err.contains("unknown failure `exploded`") && err.contains("timeout, crash"), "{err}");
    }

    #[test]
    fn an_answer_taken_is_recorded_as_its_words() {
        let words_of = |line: &str| {
            let answer = sent(line, line.len()).in_words();
            (answer.reply, answer.raw_len)
        };
        let line = |text: &str| Reply::Line(text.to_string());
        // The control: as the referee reads it (trimmed only), a padded answer keeps its 4 KiB.
        let padded = format!("MOVE{0}1{0}2", " ".repeat(2040));
        assert_eq!(sent(&padded, padded.len()).reply, line(&padded));
        assert_eq!(words_of(&padded), (line("MOVE 1 2"), Some(4086)));
        // Tabs, vertical tabs, form feeds: white space to the games (`bot_sdk::action::words`)
        // and here alike; NEL, the ideographic space and a zero-width space are not, and stay.
        assert_eq!(words_of("\tMOVE\u{c}\u{c}1\u{b}2 \r"), (line("MOVE 1 2"), Some(12)));
        assert_eq!(words_of("\tMOVE\u{85}\u{85}1\u{3000}\u{b}2 \r"), (line("MOVE\u{85}\u{85}1\u{3000} 2"), Some(17)));
        assert_eq!(words_of("  WAIT  "), (line("WAIT"), Some(8)));
        assert_eq!(words_of("WAIT"), (line("WAIT"), None));
        assert_eq!(words_of("MOVE\u{200b}1 2"), (line("MOVE\u{200b}1 2"), None));
        let failed = Answer::failed(Failure::Timeout);
        assert_eq!(failed.clone().in_words(), failed);
    }
}
