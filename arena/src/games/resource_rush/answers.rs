//! What a bot whose answer line Resource Rush could not read most likely meant, and how to
//! fix it: shown to the bot's author by `arena duel` and `arena check-bot`, never recorded.

use crate::engine::DEBUG_LINE_FIX;

/// The answer a malformed line most likely meant, if it can tell: a wait, or a move (a line
/// with the word MOVE, or with nothing but two numbers).
pub(crate) fn meant(line: &str) -> Option<String> {
    let upper = line.trim().to_uppercase();
    if upper.starts_with("WAIT") || matches!(upper.as_str(), "STAY" | "PASS" | "NONE") {
        return Some("WAIT".to_string());
    }
    let numbers: Vec<i64> =
        line.split(|c: char| !(c.is_ascii_digit() || c == '-')).filter_map(|w| w.parse().ok()).collect();
    let movelike = upper.contains("MOVE") || !upper.chars().any(|c| c.is_ascii_alphabetic());
    (movelike && numbers.len() == 2).then(|| format!("MOVE {} {}", numbers[0], numbers[1]))
}

/// How to fix the malformed answer `line`: the line it meant, the form of a move its keyword
/// starts (`MOVE 1`: no debug line, an answer mis-written), or where debug output goes.
pub(crate) fn malformed_fix(line: &str) -> String {
    // (A line starting with WAIT means `WAIT`.) `MOVE`, or a word it starts followed by numbers
    // only (`MOVEMENT 1`, `move(1)`), is a move mis-written, as in OOPtimal Tactics.
    let lower = line.to_ascii_lowercase();
    let mut tokens = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|t| !t.is_empty());
    let first = line.split_ascii_whitespace().next().unwrap_or("");
    let moves = first.eq_ignore_ascii_case("MOVE")
        || tokens.next().is_some_and(|w| w.starts_with("move"))
            && tokens.all(|t| t.bytes().all(|b| b.is_ascii_digit()));
    match meant(line) {
        Some(good) => format!(
            "write `{good}`: the keyword in upper case, then (for a move) the row and the column, separated by \
             spaces, nothing else on the line"
        ),
        None if moves => "write a move as `MOVE x y`: the keyword in upper case, then the row and the column, two \
                          integers separated by spaces, nothing else on the line"
            .to_string(),
        None if line.chars().any(|c| c.is_ascii_alphabetic()) => format!(
            "{DEBUG_LINE_FIX}: stdout carries exactly one answer per TICK, `WAIT` or `MOVE x y` (x the row, y the \
             column)"
        ),
        None => "answer exactly `WAIT` or `MOVE x y` (x the row, y the column), one per line".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_answers_get_the_line_they_meant() {
        let table = [
            ("MOVE 3,4", Some("MOVE 3 4")),
            ("move 3 4", Some("MOVE 3 4")),
            ("MOVE (3, 4)", Some("MOVE 3 4")),
            ("3 4", Some("MOVE 3 4")),
            ("wait", Some("WAIT")),
            ("WAIT.", Some("WAIT")),
            ("STAY", Some("WAIT")),
            ("MOVE 1 2 3", None),
            ("hello", None),
            ("debug: now at 3 4", None),
        ];
        for (line, want) in table {
            assert_eq!(meant(line).as_deref(), want, "{line}");
        }
    }

    #[test]
    fn each_kind_of_malformed_line_gets_its_own_fix() {
        assert!(malformed_fix("move 3 4").starts_with("write `MOVE 3 4`: the keyword in upper case"));
        assert!(malformed_fix("debug: at 3 4").contains("write it to stderr"));
        assert!(malformed_fix("1 2 3").starts_with("answer exactly `WAIT` or `MOVE x y`"));
        // A move short of a coordinate, or with one too many, is an answer mis-written, not a
        // debug line (check-bot counts debug lines as one mistake by that fix): the control, a
        // line of words.
        for line in ["MOVE 1", "move 1 2 3", "MOVE x y", "MOVEMENT 1", "move(1)", "moveto 1 2 3"] {
            assert!(malformed_fix(line).starts_with("write a move as `MOVE x y`"), "{line}");
            assert!(!malformed_fix(line).starts_with(DEBUG_LINE_FIX), "{line}");
        }
        for line in ["going to final", "moved 2 steps to 3 4", "moved to the final cell"] {
            assert!(malformed_fix(line).starts_with(DEBUG_LINE_FIX), "{line}");
        }
    }
}
