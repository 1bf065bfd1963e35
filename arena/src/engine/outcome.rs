//! How a match ends, as a game reports it: per-player outcomes with their forfeit reasons, the
//! winner, a verdict for games that judge a lone bot, and remarks worth a warning.

use serde::{Deserialize, Serialize};

use super::PlayerId;

/// Why a player's game ended early (score 0). Recorded in replays and results as the same
/// snake_case strings as ever (`timeout`, `invalid_move`, …), so every replay stays readable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ForfeitReason {
    /// `timeout`: no answer within the time limit.
    Timeout,
    /// `crash`: the bot exited or closed its stdout.
    Crash,
    /// `extra_output`: a line arrived that no prompt asked for.
    ExtraOutput,
    /// `malformed`: the line is not in the game's answer format (or too long, or not UTF-8).
    Malformed,
    /// `cpu`: the bot used up its CPU-time limit.
    Cpu,
    /// `memory`: the bot ran out of memory under its limit.
    Memory,
    /// `invalid_move`: a well-formed answer the game's rules refuse.
    InvalidMove,
    /// A reason of the game's own, by its recorded name.
    Rule(String),
}

impl ForfeitReason {
    /// The recorded name.
    pub fn as_str(&self) -> &str {
        match self {
            ForfeitReason::Timeout => "timeout",
            ForfeitReason::Crash => "crash",
            ForfeitReason::ExtraOutput => "extra_output",
            ForfeitReason::Malformed => "malformed",
            ForfeitReason::Cpu => "cpu",
            ForfeitReason::Memory => "memory",
            ForfeitReason::InvalidMove => "invalid_move",
            ForfeitReason::Rule(name) => name,
        }
    }
}

impl From<&str> for ForfeitReason {
    fn from(name: &str) -> Self {
        match name {
            "timeout" => ForfeitReason::Timeout,
            "crash" => ForfeitReason::Crash,
            "extra_output" => ForfeitReason::ExtraOutput,
            "malformed" => ForfeitReason::Malformed,
            "cpu" => ForfeitReason::Cpu,
            "memory" => ForfeitReason::Memory,
            "invalid_move" => ForfeitReason::InvalidMove,
            other => ForfeitReason::Rule(other.to_string()),
        }
    }
}

impl From<String> for ForfeitReason {
    fn from(name: String) -> Self {
        ForfeitReason::from(name.as_str())
    }
}

impl From<ForfeitReason> for String {
    fn from(reason: ForfeitReason) -> Self {
        reason.as_str().to_string()
    }
}

impl std::fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one player's game ended (or stands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerOutcome {
    /// The player's score.
    pub score: i64,
    /// Reached the game's goal: the success its rules define (a final cell reached, the game
    /// won). Each game's module says which; a forfeited player never has.
    pub finished: bool,
    /// Why the player forfeited, or `None`.
    pub forfeit: Option<ForfeitReason>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forfeit_reasons_are_recorded_by_their_old_names() {
        for name in ["timeout", "crash", "extra_output", "malformed", "cpu", "memory", "invalid_move", "stalemate"] {
            let reason = ForfeitReason::from(name);
            assert_eq!(reason.as_str(), name);
            assert_eq!(serde_json::to_value(&reason).unwrap(), serde_json::json!(name));
            assert_eq!(serde_json::from_value::<ForfeitReason>(serde_json::json!(name)).unwrap(), reason);
        }
        assert_eq!(
            ForfeitReason::from("stalemate"),
            ForfeitReason::Rule("stalemate".to_string()),
            "a game's own reason"
        );
        assert_eq!(ForfeitReason::from("timeout"), ForfeitReason::Timeout);
    }

    #[test]
    fn unreadable_lines_are_told_apart_and_old_replays_still_read() {
        use super::super::Failure;
        for (name, failure) in
            [("too_long", Failure::TooLong), ("not_utf8", Failure::NotUtf8), ("malformed", Failure::Malformed)]
        {
            assert_eq!(serde_json::from_value::<Failure>(serde_json::json!(name)).unwrap(), failure);
            assert_eq!(serde_json::to_value(failure).unwrap(), serde_json::json!(name));
            assert_eq!(failure.reason(), ForfeitReason::Malformed, "all three forfeit as `malformed`");
        }
        assert_ne!(Failure::TooLong.describe("TICK"), Failure::NotUtf8.describe("TICK"));
    }
}
