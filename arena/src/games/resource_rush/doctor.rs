//! Resource Rush's situations for `arena check-bot`: a few short scripted games on small maps
//! (both seats, CRLF input, a jump, power-ups, test mode), and what its rules say of how each
//! went (where the bot walked, why a move was invalid). The doctor runs the bot and explains
//! what its process did; this knows the maps and the rules, and nothing of processes.

use bot_sdk::rules::{check_move, Action, InvalidMove};
use bot_sdk::{MapSpec, Pos};
use serde_json::Value;

use super::{malformed_fix, ResourceRush, NAME};
use crate::engine::{Checkup, Finding, Limits, Others, Played, PlayerId, Seated, SetupError, State};

/// The base map: player 1 at (0, 0), player 2 at (3, 5), the final at (3, 0).
const BASE_MAP: &str =
    "ARENA 4 6 30\n0 0\n3 5\n3 0\nMAP\n0 5 0 0 7 W\n0 0 W 0 0 0\n9 0 0 0 0 0\n0 0 0 8 0 0\nEND_MAP\nSTREAM\n";
/// The final lies behind a wall: only a jump (after taking the J) gets there.
const JUMP_MAP: &str = "ARENA 3 5 20\n1 0\n2 0\n1 4\nMAP\n0 0 0 W 0\n0 J 0 W 0\n0 0 0 W 6\nEND_MAP\nSTREAM\n";
/// Every kind of cell; D and T on the way to the final.
const POWER_MAP: &str = "ARENA 3 6 20\n0 0\n2 0\n0 5\nMAP\n0 D 9 T 9 0\n0 F E W 0 0\n0 0 0 0 0 0\nEND_MAP\nSTREAM\n";
/// A single-player test: the scripted opponent walks along the bottom row.
const TEST_MAP: &str = "ARENA 3 5 20\n0 0\n2 4\n0 4\nMAP\n0 5 0 5 0\n0 W W W 0\n0 0 9 0 0\nEND_MAP\nSTREAM\n\
                        TICK 1 MOVE 2 3\nTICK 2 MOVE 2 2\nTICK 3 MOVE 2 1\nTICK 4 WAIT\n";
/// A bot boxed in by walls: it can only WAIT, for many ticks (the output-buffer probe).
const BOXED_MAP: &str = "ARENA 1 3 8000\n0 0\n0 0\n0 2\nMAP\n0 W 0\nEND_MAP\nSTREAM\n";

/// Resource Rush's check-up.
pub const CHECKUP: Checkup = Checkup {
    situations: || SITUATIONS.iter().map(|s| Box::new(*s) as Box<dyn crate::engine::Situation>).collect(),
    idle: || Box::new(Situation { name: "output buffer", map: BOXED_MAP, test: true, ..SITUATIONS[0] }),
    prompt: super::PROMPT,
    header: "the header and ",
    never_answered: "read the header up to `STREAM`, then answer each TICK line as soon as it arrives (a bot that \
                     waits for the end of its input never answers), and flush stdout after every answer",
    end_of_input: "in a duel each TICK comes only after your answer to the last, so read one line at a time and \
                   answer each TICK as soon as it arrives (and flush stdout). To play the tests with a bot that \
                   reads its whole input first (as `./bot < test1.txt` gives it), `arena test {bot} --piped` \
                   sends each test file whole, then ends its input",
};

/// One scripted situation.
#[derive(Debug, Clone, Copy)]
struct Situation {
    name: &'static str,
    map: &'static str,
    /// 0: the bot is player 1; 1: player 2.
    seat: usize,
    crlf: bool,
    /// A single-player test (`RR_MODE=test`) instead of a duel.
    test: bool,
    /// The scripted opponent's answers, tick by tick (`WAIT` after the last).
    opponent: &'static [&'static str],
    /// Why a bot might not finish here.
    finish_hint: &'static str,
}

const SITUATIONS: [Situation; 6] = [
    Situation {
        name: "seat 1",
        map: BASE_MAP,
        seat: 0,
        crlf: false,
        test: false,
        opponent: &["MOVE 3 4", "MOVE 3 3", "MOVE 2 3", "MOVE 1 3", "MOVE 1 4", "MOVE 0 4"],
        finish_hint: "",
    },
    Situation {
        name: "seat 2",
        map: BASE_MAP,
        seat: 1,
        crlf: false,
        test: false,
        opponent: &["MOVE 0 1", "MOVE 0 2", "MOVE 0 3", "MOVE 0 4", "MOVE 1 4"],
        finish_hint: "",
    },
    Situation {
        name: "CRLF input",
        map: BASE_MAP,
        seat: 0,
        crlf: true,
        test: false,
        opponent: &["MOVE 3 4", "MOVE 3 3", "MOVE 2 3"],
        finish_hint: "",
    },
    Situation {
        name: "a jump",
        map: JUMP_MAP,
        seat: 0,
        crlf: false,
        test: false,
        opponent: &[],
        finish_hint: " Here the final lies behind a wall: take the J at (1, 1), then jump from (1, 2) to (1, 4) \
                      with `MOVE 1 4` (a jump goes two cells in a straight line, over walls and voids).",
    },
    Situation { name: "power-ups", map: POWER_MAP, seat: 0, crlf: false, test: false, opponent: &[], finish_hint: "" },
    Situation {
        name: "test mode",
        map: TEST_MAP,
        seat: 0,
        crlf: false,
        test: true,
        opponent: &[],
        finish_hint: " In a test, `TICK t MOVE x y` is the scripted opponent's move of this very tick, \
                      already made when you answer.",
    },
];

impl crate::engine::Situation for Situation {
    fn name(&self) -> &str {
        self.name
    }

    fn seat(&self) -> PlayerId {
        self.seat
    }

    fn crlf(&self) -> bool {
        self.crlf
    }

    fn env(&self) -> Vec<(String, String)> {
        if self.test {
            vec![("RR_MODE".to_string(), "test".to_string())]
        } else {
            Vec::new()
        }
    }

    fn state(&self, whole_input: bool) -> Result<Box<dyn State>, SetupError> {
        let spec = MapSpec::parse(self.map).map_err(|e| SetupError::invalid(NAME, e))?;
        // In a duel the other seat plays the script, one answer a tick, then waits to the end.
        let rounds = spec.rounds as usize;
        let opponent = self.opponent.iter().map(|s| s.to_string()).chain(std::iter::repeat("WAIT".to_string()));
        let others = Others::Recorded(opponent.take(rounds).collect());
        let inner =
            if self.test { ResourceRush::against_script(spec, whole_input) } else { ResourceRush::new(spec) };
        Ok(Box::new(Seated::new(Box::new(inner), if self.test { 0 } else { self.seat }, others)))
    }

    fn context(&self) -> &'static str {
        if self.crlf {
            " (here every line it was sent ends in `\\r\\n`, as in the course's own test files)"
        } else if self.seat == 1 {
            " (here it plays as player 2)"
        } else if self.test {
            " (here in test mode, `RR_MODE=test`)"
        } else {
            ""
        }
    }

    fn crash_fix(&self) -> (&'static str, bool) {
        let fix = if self.crlf {
            "strip the trailing `\\r` from every line you read before you split or compare it (C/C++: drop a \
             final '\\r'; Python: `line.strip()`; split on any whitespace, not on ' ')"
        } else if self.map == POWER_MAP {
            "read every kind of cell: `0`, `1`..`99`, `E`, `W`, `F`, `J`, `D` and `T` (not only numbers)"
        } else if self.test {
            "in test mode the TICK lines carry the scripted opponent's moves: read `TICK t MOVE x y` as well \
             as `TICK t WAIT`, and keep answering until stdin ends"
        } else {
            "read the header up to `STREAM` (N map rows of M cells), then one `TICK t WAIT` or \
             `TICK t MOVE x y` line per tick, until stdin ends"
        };
        (fix, self.crlf || self.map == POWER_MAP || self.test)
    }

    fn summary(&self, played: &Played<'_>) -> String {
        let ticks = played.steps;
        match (played.forfeit, played.finished) {
            (Some(reason), _) => format!("forfeit ({reason}) at tick {ticks}"),
            (None, true) => format!("score {}, reached the final after {ticks} ticks", played.score),
            (None, false) => format!("score {}, did not reach the final in {ticks} ticks", played.score),
        }
    }

    fn findings(&self, played: &Played<'_>, limits: &Limits) -> Vec<Finding> {
        let Ok(spec) = MapSpec::parse(self.map) else { return Vec::new() };
        let seat = if self.test { 0 } else { self.seat };
        let ticks = played.steps;
        let t = ticks.max(1);
        let line = played.answers.last().copied().flatten();
        let serious = |problem: String, fix: String| Finding { problem, fix, serious: true };
        // What the bot wrote is quoted as safe text: visible control characters, cut when long.
        let shown = line.map(crate::safe_text::terminal).unwrap_or_default();
        let detail = crate::safe_text::terminal(played.detail.unwrap_or_default());
        let mut findings = Vec::new();
        match played.forfeit {
            Some("malformed") => match line {
                Some(line) => {
                    let fix = malformed_fix(line);
                    let said = match detail.strip_prefix("empty line, ") {
                        Some(rest) if line.trim().is_empty() => format!("an empty line to `TICK {t}`: {rest}"),
                        _ => format!("`{shown}` to `TICK {t}`: {detail}"),
                    };
                    findings.push(serious(format!("you answered {said}"), fix));
                }
                None => findings.push(serious(
                    format!("your answer to `TICK {t}` was not understood: {detail}"),
                    format!("answer `WAIT` or `MOVE x y` in plain ASCII, under {} bytes", limits.max_line),
                )),
            },
            Some("invalid_move") => {
                let before = played.frame_before(t);
                let at = before.and_then(|f| pos_of(f, seat));
                let jump = before.and_then(|f| f["players"][seat]["jump"].as_bool()).unwrap_or(false);
                let asked = line.and_then(|l| Action::parse_answer(l, t as u32).ok());
                let fix = match (asked, at) {
                    (Some(Action::Move(to)), Some(at)) => invalid_move_fix(&spec, self, at, to, jump),
                    _ => "check the move against the map before answering".to_string(),
                };
                let from = at.map_or(String::new(), |p| format!(" at {p}"));
                findings.push(serious(format!("you answered `{shown}`{from} to `TICK {t}`: {detail}"), fix));
            }
            Some("fire") => findings.push(serious(
                format!("your bot walked into the fire on `TICK {t}`: {detail}"),
                "an `F` cell ends your game with 0 points: leave fire out of the moves you consider (the kits' \
                 safe moves and paths do)"
                    .to_string(),
            )),
            Some(other) => findings.push(serious(format!("your bot forfeited ({other}): {detail}"), String::new())),
            None => {
                if ticks > 1 && played.answers.iter().all(|a| a.map(str::trim) == Some("WAIT")) {
                    findings.push(Finding {
                        problem: format!("your bot answered `WAIT` to all {ticks} TICKs: it never moved"),
                        fix: format!(
                            "move towards resources and the final with `MOVE x y`; a bot that stays put scores 0 \
                             and fails every test.{}",
                            self.finish_hint
                        ),
                        serious: false,
                    });
                } else if !played.finished {
                    findings.push(Finding {
                        problem: format!("your bot did not reach the final {} in {ticks} ticks", spec.final_pos),
                        fix: format!(
                            "keep enough ticks to get there: in a duel it keeps its points, but a test only passes \
                             when it finishes.{}",
                            self.finish_hint
                        ),
                        serious: false,
                    });
                }
            }
        }
        findings
    }
}

fn pos_of(frame: &Value, seat: usize) -> Option<Pos> {
    let p = &frame["players"][seat]["pos"];
    Some(Pos::new(p[0].as_i64()? as i32, p[1].as_i64()? as i32))
}

/// What to change after an invalid move from `at` to `to`.
fn invalid_move_fix(spec: &MapSpec, situation: &Situation, at: Pos, to: Pos, jump: bool) -> String {
    let own = spec.starts[situation.seat];
    let theirs = spec.starts[1 - situation.seat];
    // Coordinates counted from 1: the cell one row or column back was a legal move.
    let from_one = [(1, 0), (0, 1), (1, 1)]
        .into_iter()
        .map(|(dx, dy)| Pos::new(to.x - dx, to.y - dy))
        .find(|&p| check_move(&spec.grid, at, p, jump).is_ok())
        .map_or(String::new(), |p| {
            format!("; or, if you count rows and columns from 1: they count from 0, and `MOVE {} {}` was legal", p.x, p.y)
        });
    if own != theirs && at == own && check_move(&spec.grid, theirs, to, jump).is_ok() {
        return format!(
            "line 2 of the header is always your own start and line 3 the opponent's, whichever seat you play: \
             you are at {own}, yet you moved as if you stood at {theirs}{from_one}"
        );
    }
    if check_move(&spec.grid, at, Pos::new(to.y, to.x), jump).is_ok() {
        return format!("x is the row and y the column: did you mean `MOVE {} {}`?", to.y, to.x);
    }
    match check_move(&spec.grid, at, to, jump) {
        Err(InvalidMove::Stay(_)) => "to stay where you are, answer `WAIT`".to_string(),
        Err(InvalidMove::NoJump { .. }) => {
            "a two-cell move needs Jump, which you get by stepping on a `J`; until then move one cell at a time"
                .to_string()
        }
        Err(InvalidMove::Blocked { .. }) => {
            "walls (`W`) and voids (`E`) cannot be entered, only jumped over once you hold Jump".to_string()
        }
        Err(InvalidMove::OverFire(_)) => "a jump cannot pass over fire: go around it".to_string(),
        Err(InvalidMove::OutOfBounds(_)) => {
            "stay on the map: rows go from 0 to N-1 and columns from 0 to M-1 (`ARENA N M ROUNDS`)".to_string()
        }
        _ => format!(
            "move one cell up, down, left or right (or two in a straight line once you hold Jump); no \
             diagonals{from_one}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_maps_are_valid_and_the_scripts_legal() {
        for s in SITUATIONS {
            let spec = MapSpec::parse(s.map).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            let mut at = spec.starts[1 - s.seat];
            for (t, answer) in s.opponent.iter().enumerate() {
                let Ok(Action::Move(to)) = Action::parse_answer(answer, t as u32 + 1) else { panic!("{answer}") };
                assert!(check_move(&spec.grid, at, to, false).is_ok(), "{}: {answer} from {at}", s.name);
                at = to;
            }
        }
        assert_eq!(MapSpec::parse(BOXED_MAP).unwrap().rounds, 8000);
    }

    /// In a duel the other seat plays the situation's script, one move a tick, then waits.
    #[test]
    fn the_opponent_plays_its_script_then_waits() {
        for s in &SITUATIONS[..2] {
            let mut state = crate::engine::Situation::state(s, false).unwrap();
            for t in 0..s.opponent.len() + 3 {
                state.apply(&[(0, crate::engine::Reply::Line("WAIT".to_string()))]);
                let want = s.opponent.get(t).copied().unwrap_or("WAIT");
                assert_eq!(state.frame()["players"][1 - s.seat]["action"], want, "{}, tick {}", s.name, t + 1);
            }
        }
    }

    #[test]
    fn invalid_moves_get_a_fix_that_names_the_cause() {
        let spec = MapSpec::parse(BASE_MAP).unwrap();
        let seat2 = SITUATIONS[1];
        // As player 2 at (3, 5), moving as if from player 1's start (0, 0).
        let fix = invalid_move_fix(&spec, &seat2, Pos::new(3, 5), Pos::new(0, 1), false);
        assert!(fix.contains("line 2 of the header is always your own start"), "{fix}");
        assert!(!fix.contains("from 1"), "(0, 1) is one from (3, 5) by no count: {fix}");
        // Counted from 1 (a row too far): (1, 1) from (0, 0) is a diagonal, (0, 1) was legal;
        // the control, a diagonal no count from 1 explains, gets the diagonal's fix alone.
        let one = invalid_move_fix(&spec, &SITUATIONS[0], Pos::new(0, 0), Pos::new(1, 1), false);
        assert!(one.contains("no diagonals; or, if you count rows and columns from 1"), "{one}");
        assert!(one.contains("`MOVE 0 1` was legal"), "{one}");
        let diagonal = invalid_move_fix(&spec, &SITUATIONS[1], Pos::new(3, 5), Pos::new(2, 4), false);
        assert!(diagonal.ends_with("no diagonals"), "{diagonal}");
        let seat1 = SITUATIONS[0];
        let swapped = invalid_move_fix(&spec, &seat1, Pos::new(2, 0), Pos::new(0, 3), false);
        assert!(swapped.contains("did you mean `MOVE 3 0`"), "{swapped}");
        let stay = invalid_move_fix(&spec, &seat1, Pos::new(0, 0), Pos::new(0, 0), false);
        assert!(stay.contains("answer `WAIT`"), "{stay}");
        let jump = invalid_move_fix(&spec, &seat1, Pos::new(2, 0), Pos::new(2, 2), false);
        assert!(jump.contains("needs Jump"), "{jump}");
        let wall = invalid_move_fix(&spec, &seat1, Pos::new(1, 3), Pos::new(1, 2), false);
        assert!(wall.contains("walls"), "{wall}");
    }
}
