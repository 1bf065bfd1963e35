//! Why the rules refused a bot's `place` or `move`, told from the state it answered (a
//! replay's frame): which field was wrong and why, in words a student acts on ("field 3 3 is
//! water"), with the likely slip (column and row swapped, counted from 0). Shown under a
//! forfeit (`arena duel`'s Fix:, `arena check-bot`), never recorded.

use serde_json::Value;

use super::IDS;
use crate::games::board::Seen;

/// A map as a frame shows it: `..` empty, `~~` water, else owner and chips (`A3`).
/// (No `Deref` to [`Seen`]: its `at` counts from 0, a Tactics field from 1, see [`Board::field`].)
struct Board(Seen);

impl Board {
    fn of(frame: &Value, player: usize) -> Option<Board> {
        Seen::of(frame, *IDS.get(player)?).map(Board)
    }

    /// The field at 1-based (col, row), if on the map.
    fn field(&self, col: i64, row: i64) -> Option<&str> {
        self.0.at(col.checked_sub(1)?, row.checked_sub(1)?)
    }

    fn mine(&self, col: i64, row: i64) -> bool {
        self.field(col, row).is_some_and(|f| f.starts_with(self.0.me))
    }

    /// What is wrong with (col, row) as a field of the player's (None: it is one), then the
    /// `rule` it broke ("chips go on your own fields only").
    fn not_mine(&self, col: i64, row: i64, rule: &str) -> Option<String> {
        let field = match self.field(col, row) {
            None => return Some(self.outside(col, row)),
            Some(f) => f,
        };
        let mine = format!("{rule} (shown as `{}…` in the prompt)", self.0.me);
        match field {
            ".." => Some(format!("field {col} {row} is empty: {mine}")),
            "~~" => Some(format!("field {col} {row} is water (`~~`): {mine}")),
            f if f.starts_with(self.0.me) => None,
            f => Some(format!("field {col} {row} is the other player's (`{f}`): {mine}")),
        }
    }

    fn outside(&self, col: i64, row: i64) -> String {
        let zero = if col == 0 || row == 0 { " (they count from 1, not 0)" } else { "" };
        format!(
            "field {col} {row} is outside the {}x{} map: the column is 1 to {} and the row 1 to {}{zero}",
            self.0.width, self.0.height, self.0.width, self.0.height
        )
    }

    /// The likely slip when (col, row) is not the player's but a field near it in meaning is:
    /// the row written before the column, or both counted from 0.
    fn slip(&self, col: i64, row: i64) -> Option<String> {
        if col != row && self.mine(row, col) {
            Some(format!(
                "field {row} {col} is yours: did you write the row before the column? The column comes first"
            ))
        } else if self.mine(col + 1, row + 1) {
            Some(format!("field {} {} is yours: columns and rows count from 1, not 0", col + 1, row + 1))
        } else {
            None
        }
    }

    /// Up to six of the player's fields, as `COL ROW`.
    fn my_fields(&self) -> String {
        let mut all = Vec::new();
        for row in 1..=self.0.height {
            for col in 1..=self.0.width {
                if self.mine(col, row) {
                    all.push(format!("{col} {row}"));
                }
            }
        }
        let more = if all.len() > 6 { ", …" } else { "" };
        all.truncate(6);
        format!("your fields (column row) were {}{more}", all.join(", "))
    }
}

/// A number of the bot's line, if one within `i32` (so that no sum or difference of them
/// overflows: a bot's `9223372036854775807` gets no advice, not a panic).
fn number(word: Option<&&str>) -> Option<i64> {
    word?.parse::<i32>().ok().map(i64::from)
}

/// Whether `word` is an integer as a bot writes one: an optional sign, then digits, however
/// many.
fn integer(word: &str) -> bool {
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// How to fix `line`, a command of `player` the rules refused, from the `frame` it answered.
pub(crate) fn invalid_move_fix(frame: &Value, player: usize, line: &str) -> Option<String> {
    let seen = Board::of(frame, player)?;
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = bot_sdk::action::words(&lower).collect();
    let (command, args) = words.split_first()?;
    let phase = frame.get("phase").and_then(Value::as_str).unwrap_or("");
    let chips = frame.get("chips").and_then(|c| c.get(player)).and_then(Value::as_i64).unwrap_or(0);
    match (*command, phase) {
        ("place", "movement") => {
            return Some(
                "the prompt said `PHASE MOVEMENT`: answer `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW` or `pass`; \
                 `place` is for the Placement Phase"
                    .to_string(),
            )
        }
        ("move", "placement") => {
            return Some(
                "the prompt said `PHASE PLACEMENT`: answer `place AMOUNT COL ROW` or `pass`; `move` is for the \
                 Movement Phase"
                    .to_string(),
            )
        }
        _ => {}
    }
    match (*command, args.len()) {
        ("place", 3) | ("move", 5) => {}
        ("place", n) => {
            return Some(format!(
                "`place` takes 3 numbers, not {n}: `place AMOUNT COL ROW` (how many chips, then the field's column \
                 and row)"
            ))
        }
        ("move", n) => {
            return Some(format!(
                "`move` takes 5 numbers, not {n}: `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW` (how many chips, the \
                 field they leave, the field they go to; Resource Rush's `MOVE x y` is no Tactics command)"
            ))
        }
        _ => return None,
    }
    if let Some(i) = args.iter().position(|w| !integer(w)) {
        let what = match i {
            0 => format!("the amount, the first word after `{command}`, is a whole number, 1 or more"),
            _ => "columns and rows are whole numbers, from 1".to_string(),
        };
        return Some(format!("`{}` is not a number: {what}", args[i]));
    }
    // (An amount past `i32` is more chips than anyone has, unless it is negative.)
    let amount = match number(args.first()) {
        Some(n) => Some(n).filter(|&n| n > 0),
        None => args.first().filter(|w| !w.starts_with('-')).map(|_| i64::MAX),
    };
    let Some(amount) = amount else {
        return Some(format!("the amount, the first number after `{command}`, must be 1 or more"));
    };
    let fix = match *command {
        "place" => {
            if amount > chips {
                return Some(format!(
                    "you had {chips} chip(s) left to place (the prompt's `CHIPS {chips}` line): place at most that many"
                ));
            }
            let (col, row) = (number(args.get(1))?, number(args.get(2))?);
            let why = seen.not_mine(col, row, "chips go on your own fields only")?;
            let slip = seen.slip(col, row).map_or(String::new(), |s| format!("; {s}"));
            format!("{why}{slip}; {}", seen.my_fields())
        }
        "move" => {
            let at = |i: usize| number(args.get(i));
            let (fc, fr, tc, tr) = (at(1)?, at(2)?, at(3)?, at(4)?);
            if let Some(why) = seen.not_mine(fc, fr, "a move starts on one of your own fields") {
                let slip = seen.slip(fc, fr).map_or(String::new(), |s| format!("; {s}"));
                return Some(format!("{why}{slip}; {}", seen.my_fields()));
            }
            let have = seen.field(fc, fr).and_then(|f| f.get(1..)).and_then(|n| n.parse::<i64>().ok()).unwrap_or(0);
            if amount > have {
                return Some(format!("field {fc} {fr} holds {have} chip(s): move at most that many"));
            }
            if (fc, fr) == (tc, tr) {
                format!(
                    "a move goes to another field: field {tc} {tr} is where the chips are; they move to one of the 8 \
                     fields around it (the column and the row each change by at most 1)"
                )
            } else if (fc - tc).abs().max((fr - tr).abs()) != 1 {
                format!(
                    "field {tc} {tr} is not next to field {fc} {fr}: chips move to one of the 8 fields around them \
                     (the column and the row each change by at most 1)"
                )
            } else if seen.field(tc, tr).is_none() {
                seen.outside(tc, tr)
            } else {
                format!("field {tc} {tr} is water (`~~`): chips cannot move onto water")
            }
        }
        _ => return None,
    };
    Some(fix)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A 4x3 map with A's fields at 1 1 and 2 3, B's at 4 1, water at 3 2.
    fn frame(phase: &str) -> Value {
        json!({"phase": phase, "chips": [2, 2], "board": ["A1 .. .. B1", ".. .. ~~ ..", ".. A3 .. .."]})
    }

    /// Each refusal names the field and why, with the slip that likely caused it; a command the
    /// rules take gets no fix (the control: the same field for the other player is refused).
    #[test]
    fn refused_commands_name_the_field_and_why() {
        let fix = |line: &str| invalid_move_fix(&frame("placement"), 0, line).unwrap_or_default();
        assert!(fix("place 1 3 2").starts_with("field 3 2 is water (`~~`)"), "{}", fix("place 1 3 2"));
        assert!(fix("place 1 4 1").starts_with("field 4 1 is the other player's (`B1`)"));
        assert!(fix("place 1 2 2").starts_with("field 2 2 is empty"));
        let outside = fix("place 1 5 1");
        assert!(outside.starts_with("field 5 1 is outside the 4x3 map: the column is 1 to 4 and the row 1 to 3"));
        assert!(fix("place 1 3 2").contains("your fields (column row) were 1 1, 2 3"));
        let swapped = fix("place 1 3 2");
        assert!(swapped.contains("field 2 3 is yours: did you write the row before the column?"), "{swapped}");
        let zero = fix("place 1 0 0");
        assert!(zero.contains("count from 1, not 0") && zero.contains("field 1 1 is yours"), "{zero}");
        assert!(fix("PLACE 3 1 1").contains("`CHIPS 2`"), "{}", fix("PLACE 3 1 1"));
        assert!(fix("place 1 1 1").is_empty(), "a field of the player's is no refusal");
        assert!(invalid_move_fix(&frame("placement"), 1, "place 1 1 1").unwrap().contains("other player's (`A1`)"));

        let fix = |line: &str| invalid_move_fix(&frame("movement"), 0, line).unwrap_or_default();
        assert!(fix("place 1 1 1").contains("`PHASE MOVEMENT`"));
        assert!(fix("move 1 1 1 3 1").starts_with("field 3 1 is not next to field 1 1"), "{}", fix("move 1 1 1 3 1"));
        assert!(fix("move 2 1 1 2 1").starts_with("field 1 1 holds 1 chip(s)"));
        assert!(fix("move 1 2 3 3 2").starts_with("field 3 2 is water"));
        assert!(fix("move 1 4 1 3 1").starts_with("field 4 1 is the other player's"));
        assert!(fix("move 1 1 1 0 1").starts_with("field 0 1 is outside the 4x3 map"), "{}", fix("move 1 1 1 0 1"));
        assert!(invalid_move_fix(&frame("placement"), 0, "move 1 1 1 2 1").unwrap().contains("`PHASE PLACEMENT`"));
        assert!(fix("MOVE 1 2").starts_with("`move` takes 5 numbers, not 2"), "{}", fix("MOVE 1 2"));
        assert!(fix("move 1 1 1 2 1 0").starts_with("`move` takes 5 numbers, not 6"));
        assert!(invalid_move_fix(&frame("placement"), 0, "place 1 1").unwrap().starts_with("`place` takes 3 numbers"));
    }

    /// A word that is no number is told as such (it was told the amount must be 1 or more);
    /// the control: an amount of 0 or less still is.
    #[test]
    fn a_word_that_is_no_number_is_named() {
        let fix = |line: &str| invalid_move_fix(&frame("placement"), 0, line).unwrap_or_default();
        let x = fix("place x 1 1");
        assert_eq!(x, "`x` is not a number: the amount, the first word after `place`, is a whole number, 1 or more");
        assert_eq!(fix("place 1 1 y"), "`y` is not a number: columns and rows are whole numbers, from 1");
        let moved = invalid_move_fix(&frame("movement"), 0, "move 1 1 1 2 1.5").unwrap_or_default();
        assert!(moved.starts_with("`1.5` is not a number: columns and rows"), "{moved}");
        for zero in ["place 0 1 1", "place -1 1 1", "place -99999999999999999999 1 1"] {
            assert_eq!(fix(zero), "the amount, the first number after `place`, must be 1 or more", "{zero}");
        }
        assert!(fix("place 99999999999999999999 1 1").contains("`CHIPS 2`"), "more chips than it has");
    }

    /// A move to the field it starts from is told that a move goes to another field (it was told
    /// the field is not next to itself); the control: a field two away still is "not next to".
    #[test]
    fn a_move_to_its_own_field_is_told_to_go_elsewhere() {
        let fix = |line: &str| invalid_move_fix(&frame("movement"), 0, line).unwrap_or_default();
        let same = fix("move 1 1 1 1 1");
        assert!(same.starts_with("a move goes to another field: field 1 1 is where the chips are"), "{same}");
        assert!(fix("move 1 1 1 3 1").starts_with("field 3 1 is not next to field 1 1"));
    }

    /// Numbers at the ends of `i64` in a bot's line get no advice, never an overflow (a panic in
    /// a debug build; 2147483647 and beyond were parsed whole).
    #[test]
    fn numbers_past_i32_get_no_advice_and_no_overflow() {
        for line in ["place 1 -9223372036854775808 1", "place 1 9223372036854775807 9223372036854775807"] {
            assert_eq!(invalid_move_fix(&frame("placement"), 0, line), None, "{line}");
        }
        let far = "move 1 1 1 -9223372036854775808 1";
        assert_eq!(invalid_move_fix(&frame("movement"), 0, far), None);
        // The control: the largest numbers kept still get their advice.
        let big = invalid_move_fix(&frame("placement"), 0, "place 1 2147483647 1").unwrap_or_default();
        assert!(big.starts_with("field 2147483647 1 is outside the 4x3 map"), "{big}");
    }
}
