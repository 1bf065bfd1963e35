//! Why the rules refused a bot's `PLACE x y`, told from the board it answered (a replay's
//! frame): the cell off the board or another player's, with the likely slip (x and y swapped,
//! counted from 1). Shown under a forfeit (`arena duel`'s Fix:, `arena check-bot`), never
//! recorded.

use serde_json::Value;

use super::COLOURS;
use crate::games::board::Seen;

/// A board as a frame shows it: `..` empty, else the owner's letter and atoms (`R2`).
struct Board(Seen);

impl std::ops::Deref for Board {
    type Target = Seen;
    fn deref(&self) -> &Seen {
        &self.0
    }
}

impl Board {
    fn of(frame: &Value, player: usize) -> Option<Board> {
        Seen::of(frame, COLOURS.get(player)?.chars().next()?).map(Board)
    }

    fn legal(&self, x: i64, y: i64) -> bool {
        self.at(x, y).is_some_and(|c| c == ".." || c.starts_with(self.me))
    }

    fn own(&self, x: i64, y: i64) -> bool {
        self.at(x, y).is_some_and(|c| c.starts_with(self.me))
    }

    /// The likely slip behind (x, y) when a cell it may stand for was legal: x and y swapped,
    /// or both counted from 1. Behind a cell on the board (another player's) only the player's
    /// own cell is evidence of a slip: an empty one is what any cell of another player's has
    /// near it, and its advice misled a bot that aimed at that cell.
    fn slip(&self, x: i64, y: i64) -> Option<String> {
        let on_board = self.at(x, y).is_some();
        let fits = |x: i64, y: i64| if on_board { self.own(x, y) } else { self.legal(x, y) };
        let was = if on_board { "is yours" } else { "was legal" };
        if x != y && fits(y, x) {
            Some(format!("`PLACE {y} {x}` {was}: did you swap them? x, the column, comes first"))
        } else if fits(x - 1, y - 1) {
            Some(format!("`PLACE {} {}` {was}: columns and rows count from 0, not 1", x - 1, y - 1))
        } else {
            None
        }
    }

    fn off_board(&self, x: impl std::fmt::Display, y: impl std::fmt::Display) -> String {
        format!(
            "({x}, {y}) is off the {}x{} board: x is the column, 0 to {}, and y the row, 0 to {}",
            self.width,
            self.height,
            self.width - 1,
            self.height - 1
        )
    }
}

/// How to fix `line`, a `PLACE x y` of `player` the rules refused, from the `frame` it answered.
pub(crate) fn invalid_move_fix(frame: &Value, player: usize, line: &str) -> Option<String> {
    let seen = Board::of(frame, player)?;
    let words: Vec<&str> = bot_sdk::action::words(line).collect();
    let [_, x, y] = words.as_slice() else { return None };
    // (Within `i32`, so that no `x - 1` overflows: larger integers, however long, are just off
    // the board, with no slip.)
    let (x, y) = match (x.parse::<i32>(), y.parse::<i32>()) {
        (Ok(x), Ok(y)) => (i64::from(x), i64::from(y)),
        _ if super::hosted::integer(x) && super::hosted::integer(y) => return Some(seen.off_board(x, y)),
        _ => return None,
    };
    let why = match seen.at(x, y) {
        None => seen.off_board(x, y),
        Some(cell) if !seen.legal(x, y) => {
            let owner = COLOURS.iter().position(|c| cell.starts_with(&c[..1]));
            let whose = owner.map_or("another player's".to_string(), |p| format!("{}'s (player {})", COLOURS[p], p + 1));
            format!(
                "({x}, {y}) holds another player's atoms, {whose}: `{cell}`; place on an empty cell (`..`) or one of \
                 yours (`{}…`)",
                seen.me
            )
        }
        Some(_) => return None,
    };
    let slip = seen.slip(x, y).map_or(String::new(), |s| format!("; {s}"));
    Some(format!("{why}{slip}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A 3x2 board: Red (player 0) holds (0, 0), Green (1, 0) and (2, 1).
    fn frame() -> Value {
        json!({"board": ["R1 G2 ..", ".. .. G1"]})
    }

    /// Each refusal names the cell and why, with the slip that likely caused it; a legal cell
    /// gets no fix (the control: the same cell is refused for another player).
    #[test]
    fn refused_placements_name_the_cell_and_why() {
        let fix = |line: &str| invalid_move_fix(&frame(), 0, line).unwrap_or_default();
        let off = fix("PLACE 1 3");
        assert!(off.starts_with("(1, 3) is off the 3x2 board: x is the column, 0 to 2, and y the row, 0 to 1"), "{off}");
        let one_based = fix("PLACE 3 1");
        assert!(one_based.contains("`PLACE 2 0` was legal: columns and rows count from 0, not 1"), "{one_based}");
        assert!(fix("PLACE 0 0").is_empty() && fix("PLACE 2 0").is_empty(), "legal cells are no refusal");
        let red = invalid_move_fix(&frame(), 1, "PLACE 0 0").unwrap();
        assert!(red.starts_with("(0, 0) holds another player's atoms, Red's (player 1): `R1`"), "{red}");
    }

    /// A placement on another player's cell is told as that, whose; an empty cell at the
    /// swapped place is no sign of a slip (every cell has some near it: a bot that aimed at the
    /// other player's cell was told it swapped x and y). The control: when the swapped cell is
    /// the player's own, the slip is named.
    #[test]
    fn another_players_cell_is_told_as_such() {
        let fix = |line: &str| invalid_move_fix(&frame(), 0, line).unwrap_or_default();
        let theirs = fix("PLACE 1 0");
        assert_eq!(
            theirs,
            "(1, 0) holds another player's atoms, Green's (player 2): `G2`; place on an empty cell (`..`) or one of \
             yours (`R…`)",
            "(0, 1) is empty, no slip"
        );
        // Red also holds (0, 1): `PLACE 1 0` reads as its swap.
        let frame = json!({"board": ["R1 G2 ..", "R1 .. G1"]});
        let swapped = invalid_move_fix(&frame, 0, "PLACE 1 0").unwrap_or_default();
        assert!(swapped.ends_with("; `PLACE 0 1` is yours: did you swap them? x, the column, comes first"), "{swapped}");
        // Red holds (0, 0): `PLACE 1 1`, Green's, reads as it counted from 1.
        let frame = json!({"board": ["R1 ..", ".. G1"]});
        let from_one = invalid_move_fix(&frame, 0, "PLACE 1 1").unwrap_or_default();
        assert!(from_one.contains("Green's (player 2): `G1`"), "{from_one}");
        assert!(from_one.ends_with("; `PLACE 0 0` is yours: columns and rows count from 0, not 1"), "{from_one}");
    }

    /// Numbers past `i32` in a bot's line, however long, are off the board, with no slip and
    /// never an overflow (`x - 1` panicked in a debug build). The control: the smallest number
    /// kept gets the same advice; a word that is no number gets none.
    #[test]
    fn numbers_past_i32_are_off_the_board_with_no_overflow() {
        for (line, at) in [
            ("PLACE -9223372036854775808 0", "(-9223372036854775808, 0)"),
            ("PLACE 0 -9223372036854775808", "(0, -9223372036854775808)"),
            ("PLACE 99999999999999999999 0", "(99999999999999999999, 0)"),
        ] {
            let fix = invalid_move_fix(&frame(), 0, line).unwrap_or_default();
            assert_eq!(fix, format!("{at} is off the 3x2 board: x is the column, 0 to 2, and y the row, 0 to 1"));
        }
        let small = invalid_move_fix(&frame(), 0, "PLACE -2147483648 0").unwrap_or_default();
        assert!(small.starts_with("(-2147483648, 0) is off the 3x2 board"), "{small}");
        assert_eq!(invalid_move_fix(&frame(), 0, "PLACE x 99999999999999999999"), None);
    }
}
