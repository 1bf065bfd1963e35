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
    /// Nothing but white space ([`is_space`]).
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

/// White space between and around an answer's words: space, `\t`, `\n`, `\v`, `\f` and `\r`,
/// what C's `isspace` and C++'s `>>` skip, so that an answer taken here is taken by the
/// course's C/C++ checker too. A no-break space (U+00A0), NEL (U+0085), U+3000 and the rest
/// of Unicode's white space are part of a word (`str::split_whitespace` would split there).
pub fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// The words of an answer line: runs of characters between [`is_space`] white space.
pub fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(is_space).filter(|w| !w.is_empty())
}

/// `line` without [`is_space`] white space at either end.
pub fn trim(line: &str) -> &str {
    line.trim_matches(is_space)
}

fn coordinate(token: &str) -> Result<i32, MalformedAnswer> {
    // Far-off coordinates are still integers: they are an invalid move, not a malformed line,
    // however many digits they have (as in Atoms: `18446744073709551616` was "not an integer").
    let v: i64 = token.parse().or_else(|_| {
        let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
        match digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
            true if token.starts_with('-') => Ok(i64::MIN),
            true => Ok(i64::MAX),
            false => Err(MalformedAnswer::NotInteger(token.to_string())),
        }
    })?;
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
    /// `PLAYER <tick> WAIT` / `PLAYER <tick> MOVE x y`. Words are separated by ASCII white
    /// space ([`is_space`]), which may also surround them (a trailing `\r` among it); keywords
    /// are upper case.
    pub fn parse_answer(line: &str, tick: u32) -> Result<Action, MalformedAnswer> {
        let tokens: Vec<&str> = words(line).collect();
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
            ("MOVE 18446744073709551616 2", m(1_000_000, 2)),
            ("MOVE 0 -99999999999999999999999", m(0, -1_000_000)),
            ("MOVE +7 2", m(7, 2)),
            ("MOVE 1 +", Err(MalformedAnswer::NotInteger("+".into()))),
            ("MOVE 1 -", Err(MalformedAnswer::NotInteger("-".into()))),
            ("MOVE 1 1e3", Err(MalformedAnswer::NotInteger("1e3".into()))),
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

    #[test]
    fn only_ascii_white_space_separates_an_answers_words() {
        // The six characters C's `isspace` (and so C++'s `>>`) skips, between and around words.
        for c in [' ', '\t', '\n', '\u{b}', '\u{c}', '\r'] {
            assert_eq!(Action::parse_answer(&format!("{c}MOVE{c}1{c}{c}2{c}"), 3), Ok(Action::Move(Pos::new(1, 2))));
            assert_eq!(Action::parse_answer(&format!("PLAYER{c}3{c}WAIT{c}"), 3), Ok(Action::Wait), "{c:?}");
        }
        // Unicode's other white space is part of a word there, so a malformed answer here.
        for c in ['\u{a0}', '\u{3000}', '\u{85}', '\u{2028}'] {
            let between = format!("MOVE{c}1 2");
            assert_eq!(Action::parse_answer(&between, 3), Err(MalformedAnswer::Shape(between.clone())), "{c:?}");
            let number = format!("MOVE 1{c}2");
            assert_eq!(Action::parse_answer(&number, 3), Err(MalformedAnswer::Shape(number.clone())), "{c:?}");
            let around = format!("{c}WAIT{c}");
            assert_eq!(Action::parse_answer(&around, 3), Err(MalformedAnswer::Shape(around.clone())), "{c:?}");
            assert_eq!(trim(&around), around, "{c:?}");
        }
        assert_eq!(words(" \u{b}a\u{c}b\tc\u{a0}d\r\n").collect::<Vec<_>>(), ["a", "b", "c\u{a0}d"]);
        assert_eq!(trim("\u{c} WAIT\r\u{b}"), "WAIT");
    }
}
