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

    /// The likely slip behind (x, y) when a cell it may stand for was legal: x and y swapped,
    /// or both counted from 1.
    fn slip(&self, x: i64, y: i64) -> Option<String> {
        if x != y && self.legal(y, x) {
            Some(format!("`PLACE {y} {x}` was legal: did you swap them? x, the column, comes first"))
        } else if self.legal(x - 1, y - 1) {
            Some(format!("`PLACE {} {}` was legal: columns and rows count from 0, not 1", x - 1, y - 1))
        } else {
            None
        }
    }
}

/// How to fix `line`, a `PLACE x y` of `player` the rules refused, from the `frame` it answered.
pub(crate) fn invalid_move_fix(frame: &Value, player: usize, line: &str) -> Option<String> {
    let seen = Board::of(frame, player)?;
    let words: Vec<&str> = bot_sdk::action::words(line).collect();
    let [_, x, y] = words.as_slice() else { return None };
    // (Within `i32`, so that no `x - 1` overflows: a bot's `-9223372036854775808` gets no advice.)
    let (x, y) = (i64::from(x.parse::<i32>().ok()?), i64::from(y.parse::<i32>().ok()?));
    let why = match seen.at(x, y) {
        None => format!(
            "({x}, {y}) is off the {}x{} board: x is the column, 0 to {}, and y the row, 0 to {}",
            seen.width,
            seen.height,
            seen.width - 1,
            seen.height - 1
        ),
        Some(cell) if !seen.legal(x, y) => {
            let owner = COLOURS.iter().find(|c| cell.starts_with(&c[..1])).copied().unwrap_or("another player");
            format!(
                "({x}, {y}) holds `{cell}`, {owner}'s: place on an empty cell (`..`) or one of yours (`{}…`)",
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
        let theirs = fix("PLACE 1 0");
        assert!(theirs.starts_with("(1, 0) holds `G2`, Green's: place on an empty cell"), "{theirs}");
        assert!(theirs.contains("`PLACE 0 1` was legal: did you swap them?"), "{theirs}");
        assert!(fix("PLACE 0 0").is_empty() && fix("PLACE 2 0").is_empty(), "legal cells are no refusal");
        assert!(invalid_move_fix(&frame(), 1, "PLACE 0 0").unwrap().starts_with("(0, 0) holds `R1`, Red's"));
    }

    /// Numbers at the ends of `i64` in a bot's line get no advice, never an overflow (`x - 1`
    /// panicked in a debug build). The control: the smallest number kept gets its advice.
    #[test]
    fn numbers_past_i32_get_no_advice_and_no_overflow() {
        assert_eq!(invalid_move_fix(&frame(), 0, "PLACE -9223372036854775808 0"), None);
        assert_eq!(invalid_move_fix(&frame(), 0, "PLACE 0 -9223372036854775808"), None);
        let small = invalid_move_fix(&frame(), 0, "PLACE -2147483648 0").unwrap_or_default();
        assert!(small.starts_with("(-2147483648, 0) is off the 3x2 board"), "{small}");
    }
}
