//! A player's answer to one tick, `WAIT` or `MOVE x y`, and how answer lines parse.

use std::fmt;

use thiserror::Error;

use crate::grid::Pos;

/// What a player does in one tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Stay in place.
    Wait,
    /// Move to this cell (one step, or two in a straight line with Jump).
    Move(Pos),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Wait => f.write_str("WAIT"),
            Action::Move(p) => write!(f, "MOVE {} {}", p.x, p.y),
        }
    }
}

/// Why an answer line is malformed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MalformedAnswer {
    /// Nothing but whitespace.
    #[error("empty line, expected `WAIT` or `MOVE x y`")]
    Empty,
    /// An unknown keyword, extra tokens or a missing coordinate.
    #[error("expected `WAIT` or `MOVE x y`, found `{0}`")]
    Shape(String),
    /// A coordinate that is not an integer.
    #[error("coordinate `{0}` is not an integer")]
    NotInteger(String),
    /// The older `PLAYER <t> …` form named another tick.
    #[error("`PLAYER {found}` names the wrong tick: this is tick {expected}")]
    WrongTick {
        /// The current tick.
        expected: u32,
        /// The tick the line named.
        found: String,
    },
}

fn coordinate(token: &str) -> Result<i32, MalformedAnswer> {
    let v: i64 = token.parse().map_err(|_| MalformedAnswer::NotInteger(token.to_string()))?;
    // Far-off coordinates are still integers: they are an invalid move, not a malformed line.
    Ok(v.clamp(-1_000_000, 1_000_000) as i32)
}

impl Action {
    /// Parses `WAIT` or `MOVE x y` from already split tokens.
    pub fn parse_tokens(tokens: &[&str]) -> Result<Action, MalformedAnswer> {
        match tokens {
            [] => Err(MalformedAnswer::Empty),
            ["WAIT"] => Ok(Action::Wait),
            ["MOVE", x, y] => Ok(Action::Move(Pos::new(coordinate(x)?, coordinate(y)?))),
            _ => Err(MalformedAnswer::Shape(tokens.join(" "))),
        }
    }

    /// Parses a bot's answer to `TICK tick`: `WAIT`, `MOVE x y`, or the older
    /// `PLAYER <tick> WAIT` / `PLAYER <tick> MOVE x y`. Surrounding whitespace and a trailing
    /// `\r` are tolerated; keywords are upper case.
    pub fn parse_answer(line: &str, tick: u32) -> Result<Action, MalformedAnswer> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.as_slice() {
            ["PLAYER", t, rest @ ..] => {
                if t.parse::<u32>().ok() != Some(tick) {
                    return Err(MalformedAnswer::WrongTick { expected: tick, found: t.to_string() });
                }
                Action::parse_tokens(rest)
            }
            _ => Action::parse_tokens(&tokens),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_or_are_malformed() {
        let m = |x, y| Ok(Action::Move(Pos::new(x, y)));
        let table: Vec<(&str, Result<Action, MalformedAnswer>)> = vec![
            ("WAIT", Ok(Action::Wait)),
            ("  WAIT \r", Ok(Action::Wait)),
            ("MOVE 1 2", m(1, 2)),
            ("\tMOVE   1   2\r", m(1, 2)),
            ("MOVE -1 2", m(-1, 2)),
            ("MOVE 99999999999 2", m(1_000_000, 2)),
            ("PLAYER 3 WAIT", Ok(Action::Wait)),
            ("PLAYER 3 MOVE 0 1", m(0, 1)),
            ("", Err(MalformedAnswer::Empty)),
            ("   ", Err(MalformedAnswer::Empty)),
            ("wait", Err(MalformedAnswer::Shape("wait".into()))),
            ("Move 1 2", Err(MalformedAnswer::Shape("Move 1 2".into()))),
            ("WAIT now", Err(MalformedAnswer::Shape("WAIT now".into()))),
            ("MOVE 1", Err(MalformedAnswer::Shape("MOVE 1".into()))),
            ("MOVE 1 2 3", Err(MalformedAnswer::Shape("MOVE 1 2 3".into()))),
            ("MOVE 1 b", Err(MalformedAnswer::NotInteger("b".into()))),
            ("MOVE 1.0 2", Err(MalformedAnswer::NotInteger("1.0".into()))),
            ("PLAYER 2 WAIT", Err(MalformedAnswer::WrongTick { expected: 3, found: "2".into() })),
            ("PLAYER x WAIT", Err(MalformedAnswer::WrongTick { expected: 3, found: "x".into() })),
            ("PLAYER 3", Err(MalformedAnswer::Empty)),
        ];
        for (line, want) in table {
            assert_eq!(Action::parse_answer(line, 3), want, "answer {line:?}");
        }
    }
}
