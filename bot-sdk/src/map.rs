//! Map files: cells, coordinates and the `ARENA … STREAM` format shared by the arena and bots.
//!
//! The same parser reads a map file given to the arena and the header a bot receives on
//! stdin, so both sides agree on every detail (comments, blank lines, CRLF).

use thiserror::Error;

use crate::action::Action;
pub use crate::grid::{Cell, Grid, Pos};

/// Largest number of rows or columns a map may have.
pub const MAX_SIDE: usize = 50;
/// The largest ROUNDS a map may ask for (the course uses 200 at most; a huge one would only
/// make huge replays).
pub const MAX_ROUNDS: u32 = 10_000;

/// One `TICK t <action>` line after `STREAM` (single-player test files script the opponent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedTick {
    /// 1-based line number in the file.
    pub line: usize,
    /// The tick number written on the line.
    pub tick: u32,
    /// The opponent's action at that tick.
    pub action: Action,
}

/// A parsed map file (or a bot's header): everything up to `STREAM`, plus any TICK lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSpec {
    /// Maximum number of ticks.
    pub rounds: u32,
    /// Start cells: `[player 1, player 2]` (for a bot's header: `[itself, its opponent]`).
    pub starts: [Pos; 2],
    /// The final cell both players must reach.
    pub final_pos: Pos,
    /// The cells as the file gives them.
    pub grid: Grid,
    /// TICK lines after `STREAM`, if any.
    pub script: Vec<ScriptedTick>,
}

/// Why a map file (or header) was rejected: the 1-based line and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct MapError {
    /// 1-based line number (the line after the last one when the file ends too early).
    pub line: usize,
    /// What was wrong, and what was expected.
    pub message: String,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, MapError> {
    Err(MapError { line, message: message.into() })
}

/// Lines of a file with comments, trailing `\r` and surrounding space removed; blank ones skipped.
struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { inner: text.lines().enumerate(), last: 0 }
    }

    /// The next non-blank line as (line number, tokens), or an error naming `what` at end of file.
    fn expect(&mut self, what: &str) -> Result<(usize, Vec<&'a str>), MapError> {
        match self.next() {
            Some(item) => Ok(item),
            None => err(self.last + 1, format!("unexpected end of file, expected {what}")),
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, Vec<&'a str>);

    fn next(&mut self) -> Option<Self::Item> {
        for (i, raw) in self.inner.by_ref() {
            self.last = i + 1;
            let text = raw.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = text.split_whitespace().collect();
            if !tokens.is_empty() {
                return Some((i + 1, tokens));
            }
        }
        None
    }
}

/// `token` as an integer `what`; one that does not fit `T` (too large, or negative) is out of
/// `range` (what it must be, in words).
fn parse_int<T: std::str::FromStr>(line: usize, token: &str, what: &str, range: &str) -> Result<T, MapError> {
    token.parse::<T>().or_else(|_| {
        let digits = token.strip_prefix('-').unwrap_or(token);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            // An integer all the same, too large (or negative) for any map.
            return err(line, format!("{what} {token} is out of range: it must be {range}"));
        }
        err(line, format!("expected {what} as an integer, found `{token}`"))
    })
}

fn parse_pos(lines: &mut Lines<'_>, what: &str) -> Result<(usize, Pos), MapError> {
    let (line, tokens) = lines.expect(what)?;
    if tokens.len() != 2 {
        return err(line, format!("expected {what} as `X Y`, found `{}`", tokens.join(" ")));
    }
    let x = parse_int::<i32>(line, tokens[0], &format!("{what} X"), "a row of the map")?;
    let y = parse_int::<i32>(line, tokens[1], &format!("{what} Y"), "a column of the map")?;
    Ok((line, Pos::new(x, y)))
}

fn keyword(lines: &mut Lines<'_>, word: &str) -> Result<(), MapError> {
    let (line, tokens) = lines.expect(&format!("`{word}`"))?;
    if tokens != [word] {
        return err(line, format!("expected `{word}`, found `{}`", tokens.join(" ")));
    }
    Ok(())
}

impl MapSpec {
    /// Parses a map file or a bot's header. Errors name the line and what was expected.
    pub fn parse(text: &str) -> Result<MapSpec, MapError> {
        // (Read as one line, its CRs shown as spaces, it said only that the first was wrong.)
        if text.contains('\r') && !text.contains('\n') {
            return err(1, "its lines end in a carriage return alone (CR, as old Mac files do): save it with LF or CRLF line endings".to_string());
        }
        let mut lines = Lines::new(text);
        let (line, head) = lines.expect("`ARENA N M ROUNDS`")?;
        if head.len() != 4 || head[0] != "ARENA" {
            return err(line, format!("expected `ARENA N M ROUNDS`, found `{}`", head.join(" ")));
        }
        let sides = format!("1..={MAX_SIDE}");
        let rows = parse_int::<usize>(line, head[1], "N (rows)", &sides)?;
        let cols = parse_int::<usize>(line, head[2], "M (columns)", &sides)?;
        let rounds = parse_int::<u32>(line, head[3], "ROUNDS", &format!("1..={MAX_ROUNDS}"))?;
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return err(line, format!("map size {rows}x{cols} is out of range: N and M must be 1..={MAX_SIDE}"));
        }
        if !(1..=MAX_ROUNDS).contains(&rounds) {
            return err(line, format!("ROUNDS {rounds} is out of range: it must be 1..={MAX_ROUNDS}"));
        }
        let p1 = parse_pos(&mut lines, "player 1 start")?;
        let p2 = parse_pos(&mut lines, "player 2 start")?;
        let fin = parse_pos(&mut lines, "final cell")?;
        keyword(&mut lines, "MAP")?;
        let mut grid_rows = Vec::with_capacity(rows);
        for r in 0..rows {
            let (line, tokens) = lines.expect(&format!("map row {r} of {rows}"))?;
            if tokens == ["END_MAP"] {
                return err(line, format!("map has only {r} rows, expected {rows}"));
            }
            if tokens.len() != cols {
                return err(line, format!("map row {r} has {} cells, expected {cols}", tokens.len()));
            }
            let mut row = Vec::with_capacity(cols);
            for (c, token) in tokens.iter().enumerate() {
                match Cell::parse(token) {
                    Some(cell) => row.push(cell),
                    None => {
                        return err(
                            line,
                            format!("bad cell `{token}` at row {r}, column {c}: expected 0..99, E, W, F, J, D or T"),
                        )
                    }
                }
            }
            grid_rows.push(row);
        }
        let (line, tokens) = lines.expect("`END_MAP`")?;
        if tokens != ["END_MAP"] {
            return if tokens.len() == cols {
                err(line, format!("map has more than {rows} rows, expected `END_MAP`"))
            } else {
                err(line, format!("expected `END_MAP`, found `{}`", tokens.join(" ")))
            };
        }
        keyword(&mut lines, "STREAM")?;
        let grid = Grid::from_rows(grid_rows);
        for ((line, pos), what) in [(p1, "player 1 start"), (p2, "player 2 start"), (fin, "final cell")] {
            match grid.get(pos) {
                None => return err(line, format!("{what} {pos} is outside the {rows}x{cols} map")),
                Some(cell) if !cell.is_walkable() => {
                    return err(
                        line,
                        format!("{what} {pos} is on `{cell}`, expected a walkable cell (0, 1..99, J, D, T)"),
                    )
                }
                Some(_) => {}
            }
        }
        let mut script = Vec::new();
        for (line, tokens) in lines {
            let tick = parse_tick_line(line, &tokens)?;
            let expected = script.len() as u32 + 1;
            if tick.tick != expected {
                return err(line, format!("expected `TICK {expected}`, found `TICK {}`", tick.tick));
            }
            if let Action::Move(to) = tick.action {
                if grid.get(to).is_none() {
                    return err(
                        line,
                        format!("`TICK {}` moves the opponent to {to}, outside the {rows}x{cols} map", tick.tick),
                    );
                }
            }
            script.push(tick);
        }
        Ok(MapSpec { rounds, starts: [p1.1, p2.1], final_pos: fin.1, grid, script })
    }

    /// The header as player `me` (0 or 1) receives it: its own start on line 2, the opponent's on
    /// line 3, ending with `STREAM`. Each line ends with `\n`.
    pub fn header_for(&self, me: usize) -> String {
        let (own, opp) = if me == 0 { (self.starts[0], self.starts[1]) } else { (self.starts[1], self.starts[0]) };
        let mut out = format!(
            "ARENA {} {} {}\n{} {}\n{} {}\n{} {}\nMAP\n",
            self.grid.rows(),
            self.grid.cols(),
            self.rounds,
            own.x,
            own.y,
            opp.x,
            opp.y,
            self.final_pos.x,
            self.final_pos.y
        );
        for x in 0..self.grid.rows() {
            out.push_str(&self.grid.row_text(x));
            out.push('\n');
        }
        out.push_str("END_MAP\nSTREAM\n");
        out
    }
}

fn parse_tick_line(line: usize, tokens: &[&str]) -> Result<ScriptedTick, MapError> {
    if tokens.first() != Some(&"TICK") || tokens.len() < 3 {
        return err(line, format!("expected `TICK t WAIT` or `TICK t MOVE x y`, found `{}`", tokens.join(" ")));
    }
    let tick = parse_int::<u32>(line, tokens[1], "the tick number", "1 or more")?;
    let action = Action::parse_tokens(&tokens[2..])
        .map_err(|e| MapError { line, message: format!("bad action in `TICK {tick}`: {e}") })?;
    Ok(ScriptedTick { line, tick, action })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n";

    #[test]
    fn parses_header_and_cells_with_x_as_row() {
        let spec = MapSpec::parse(GOOD).unwrap();
        assert_eq!((spec.grid.rows(), spec.grid.cols(), spec.rounds), (2, 3, 10));
        assert_eq!(spec.starts, [Pos::new(0, 0), Pos::new(1, 2)]);
        assert_eq!(spec.final_pos, Pos::new(1, 0));
        assert_eq!(spec.grid.get(Pos::new(0, 1)), Some(Cell::Resource(5)));
        assert_eq!(spec.grid.get(Pos::new(0, 2)), Some(Cell::Wall));
        assert_eq!(spec.grid.get(Pos::new(1, 2)), Some(Cell::Triple));
        assert_eq!(spec.grid.get(Pos::new(2, 0)), None);
        assert!(spec.script.is_empty());
    }

    #[test]
    fn every_cell_token() {
        let table = [
            ("0", Some(Cell::Floor)),
            ("1", Some(Cell::Resource(1))),
            ("99", Some(Cell::Resource(99))),
            ("E", Some(Cell::Void)),
            ("W", Some(Cell::Wall)),
            ("F", Some(Cell::Fire)),
            ("J", Some(Cell::Jump)),
            ("D", Some(Cell::Double)),
            ("T", Some(Cell::Triple)),
            ("100", None),
            ("-1", None),
            ("w", None),
            ("X", None),
            ("1.5", None),
        ];
        for (token, want) in table {
            assert_eq!(Cell::parse(token), want, "token {token}");
        }
    }

    #[test]
    fn comments_blank_lines_crlf_and_extra_spaces_are_tolerated() {
        let text = "# a duel map\r\n\r\nARENA  2 3   10  # size\r\n 0 0 # start P1\r\n1 2\r\n\r\n1 0\r\nMAP\r\n0  5 W \r\nJ D T\r\nEND_MAP\r\nSTREAM\r\n\r\n";
        assert_eq!(MapSpec::parse(text).unwrap(), MapSpec::parse(GOOD).unwrap());
        // Lines ending in a CR alone are named so, not shown as one line with spaces.
        let old_mac = GOOD.replace('\n', "\r");
        let said = MapSpec::parse(&old_mac).unwrap_err().to_string();
        assert!(said.contains("end in a carriage return alone"), "{said}");
    }

    #[test]
    fn starts_may_coincide() {
        let text = GOOD.replace("1 2\n1 0", "0 0\n1 0");
        let spec = MapSpec::parse(&text).unwrap();
        assert_eq!(spec.starts, [Pos::new(0, 0), Pos::new(0, 0)]);
    }

    #[test]
    fn bad_files_name_the_line_and_the_problem() {
        let table: &[(&str, usize, &str)] = &[
            ("", 1, "unexpected end of file, expected `ARENA N M ROUNDS`"),
            ("ARENA 2 3\n", 1, "expected `ARENA N M ROUNDS`"),
            ("ARENA 0 3 10\n", 1, "out of range"),
            ("ARENA 51 3 10\n", 1, "out of range"),
            ("ARENA 2 51 10\n", 1, "out of range"),
            ("ARENA 2 3 0\n", 1, "ROUNDS 0 is out of range: it must be 1..=10000"),
            ("ARENA 2 3 4294967295\n", 1, "ROUNDS 4294967295 is out of range: it must be 1..=10000"),
            ("ARENA 2 3 99999999999\n", 1, "ROUNDS 99999999999 is out of range: it must be 1..=10000"),
            ("ARENA 2 3 -1\n", 1, "ROUNDS -1 is out of range: it must be 1..=10000"),
            ("ARENA 2 -3 10\n", 1, "M (columns) -3 is out of range: it must be 1..=50"),
            ("ARENA -2 3 10\n", 1, "N (rows) -2 is out of range: it must be 1..=50"),
            (
                "ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\nTICK -1 WAIT\n",
                10,
                "the tick number -1 is out of range: it must be 1 or more",
            ),
            ("ARENA 2 3 10\n0 99999999999\n", 2, "player 1 start Y 99999999999 is out of range: it must be a column"),
            ("ARENA 2 x 10\n", 1, "expected M (columns) as an integer, found `x`"),
            ("ARENA 2 3 10\n0\n", 2, "expected player 1 start as `X Y`"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5\n", 6, "map row 0 has 2 cells, expected 3"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 Q\n", 6, "bad cell `Q` at row 0, column 2"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nEND_MAP\n", 7, "map has only 1 rows, expected 2"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\n0 0 0\n", 8, "map has more than 2 rows"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\n", 9, "expected `STREAM`"),
            ("ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\n", 8, "expected `END_MAP`"),
            ("ARENA 2 3 10\n0 2\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n", 2, "player 1 start (0, 2) is on `W`"),
            (
                "ARENA 2 3 10\n0 0\n1 3\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n",
                3,
                "player 2 start (1, 3) is outside the 2x3 map",
            ),
            ("ARENA 2 3 10\n0 0\n1 2\n-1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n", 4, "final cell (-1, 0) is outside"),
            (
                "ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\nTICK 2 WAIT\n",
                10,
                "expected `TICK 1`, found `TICK 2`",
            ),
            (
                "ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\nTICK 1 JUMP\n",
                10,
                "bad action in `TICK 1`",
            ),
        ];
        for (text, line, needle) in table {
            match MapSpec::parse(text) {
                Ok(_) => panic!("accepted a bad file: {text:?}"),
                Err(e) => {
                    assert_eq!(e.line, *line, "line for {text:?}: {e}");
                    assert!(e.message.contains(needle), "message for {text:?}: {e}");
                }
            }
        }
    }

    #[test]
    fn final_on_fire_is_rejected() {
        let text = "ARENA 1 3 5\n0 0\n0 0\n0 2\nMAP\n0 0 F\nEND_MAP\nSTREAM\n";
        let e = MapSpec::parse(text).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("final cell (0, 2) is on `F`"), "{e}");
    }

    #[test]
    fn a_scripted_move_off_the_map_is_refused() {
        let text = format!("{GOOD}TICK 1 MOVE 5 0\n");
        let e = MapSpec::parse(&text).unwrap_err().to_string();
        assert!(e.contains("outside the"), "{e}");
        // The control: on the map, it reads.
        assert!(MapSpec::parse(&format!("{GOOD}TICK 1 MOVE 1 1\n")).is_ok());
    }

    #[test]
    fn tick_script_after_stream() {
        let text = format!("{GOOD}TICK 1 WAIT\n\n  TICK 2 MOVE 1 1  \r\n");
        let spec = MapSpec::parse(&text).unwrap();
        assert_eq!(spec.script.len(), 2);
        assert_eq!(spec.script[1].action, Action::Move(Pos::new(1, 1)));
        assert_eq!(spec.script[1].line, 12);
    }

    #[test]
    fn header_for_player_2_swaps_the_starts() {
        let spec = MapSpec::parse(GOOD).unwrap();
        let h1 = spec.header_for(0);
        let h2 = spec.header_for(1);
        assert_eq!(h1, GOOD);
        assert_eq!(h2, "ARENA 2 3 10\n1 2\n0 0\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n");
        let seen_by_2 = MapSpec::parse(&h2).unwrap();
        assert_eq!(seen_by_2.starts, [spec.starts[1], spec.starts[0]]);
    }
}
