//! OOPtimal Tactics: two players claim fields on a grid. Each round both get chips
//! (ceil(fields / 3)), place them on their fields (Placement Phase), then move chips to
//! adjacent fields, diagonals included, to claim empty or enemy fields (Movement Phase).
//! The game ends when a player has no field left or after the last round; most fields wins.
//!
//! This module holds the rules and the map; `classic` is the original text program.

pub mod classic;
pub mod hosted;
pub mod kit;
mod refused;

pub use hosted::TacticsGame;

use super::classic_input::{text, trim};

/// Who holds a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Nobody.
    Empty,
    /// Water: nobody can ever hold it.
    Water,
    /// Player 0 (A) or 1 (B), with its chips.
    Claimed(usize, u32),
}

/// The first bytes of every config file (the handout's magic number `OOP\n`).
pub const MAGIC: &[u8] = b"OOP\n";

/// The two players' letters.
pub const IDS: [char; 2] = ['A', 'B'];

/// A game board and the players' saved chips.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Width (columns).
    pub width: usize,
    /// Height (rows).
    pub height: usize,
    /// Fields row by row.
    pub fields: Vec<Field>,
    /// Unplaced chips per player.
    pub chips: [u32; 2],
}

/// Why a config file is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadConfig;

impl Board {
    /// Parses a config file: exactly `OOP\n` (the magic number; `OOP\r\n` is not it), then
    /// `<WIDTH>_<HEIGHT>`, then the rows (`a`, `b`, `0`, `-`), byte by byte as the handout's C++
    /// program reads them. Past a correct magic number the file is taken as well formed (as the
    /// handout says), but nothing in it can make this panic.
    pub fn parse(bytes: &[u8]) -> Result<Board, BadConfig> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(BadConfig)?;
        let mut lines = rest.split_inclusive(|&b| b == b'\n').map(|l| {
            let l = l.strip_suffix(b"\n").unwrap_or(l);
            let end = l.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
            &l[..end]
        });
        let size = lines.next().ok_or(BadConfig)?;
        let size = text(trim(size));
        let (w, h) = size.split_once('_').ok_or(BadConfig)?;
        let (width, height): (usize, usize) = (w.parse().map_err(|_| BadConfig)?, h.parse().map_err(|_| BadConfig)?);
        if width == 0 || height == 0 || width > 9 || height > 9 {
            return Err(BadConfig);
        }
        let mut fields = Vec::with_capacity(width * height);
        for _ in 0..height {
            let row = lines.next().ok_or(BadConfig)?;
            for x in 0..width {
                fields.push(match row.get(x) {
                    Some(b'a') => Field::Claimed(0, 1),
                    Some(b'b') => Field::Claimed(1, 1),
                    Some(b'-') => Field::Water,
                    _ => Field::Empty,
                });
            }
        }
        Ok(Board { width, height, fields, chips: [0, 0] })
    }

    /// Checks a config strictly, for hosted matches (the classic program is lenient past the
    /// magic number): on failure, the 1-based line and what is wrong there.
    pub fn check(text: &str) -> Result<Board, (usize, String)> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        if text.starts_with("OOP\r\n") {
            return Err((1, "the magic number is `OOP` and a line feed, but this file has CRLF (Windows) line endings: convert them to LF".to_string()));
        }
        if !text.as_bytes().starts_with(MAGIC) {
            return Err((1, "expected the magic number `OOP` alone on the first line".to_string()));
        }
        let size = lines.get(1).and_then(|l| l.trim().split_once('_'));
        let size = size.and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)));
        let Some((width, height)) = size.filter(|&(w, h)| (1..=9).contains(&w) && (1..=9).contains(&h)) else {
            return Err((2, "expected the size `WIDTH_HEIGHT`, each 1 to 9".to_string()));
        };
        for y in 0..height {
            let Some(row) = lines.get(2 + y) else {
                return Err((3 + y, format!("missing row {} of {height}", y + 1)));
            };
            if row.chars().count() != width {
                return Err((3 + y, format!("row has {} fields, expected {width}", row.chars().count())));
            }
            if let Some((x, c)) = row.chars().enumerate().find(|(_, c)| !matches!(c, 'a' | 'b' | '0' | '-')) {
                return Err((3 + y, format!("column {}: `{c}` is not a, b, 0 or -", x + 1)));
            }
        }
        if let Some((i, _)) = lines.iter().enumerate().skip(2 + height).find(|(_, l)| !l.trim().is_empty()) {
            return Err((i + 1, format!("extra text after the {height} rows")));
        }
        let board = Board::parse(text.as_bytes()).map_err(|_| (1, "not a config file".to_string()))?;
        for (p, id) in IDS.iter().enumerate() {
            if board.claimed(p) == 0 {
                return Err((3, format!("player {id} has no field (`{}`)", id.to_ascii_lowercase())));
            }
        }
        Ok(board)
    }

    /// The field at 1-based (column, row), if on the board.
    pub fn get(&self, col: i64, row: i64) -> Option<Field> {
        if col < 1 || row < 1 || col as usize > self.width || row as usize > self.height {
            return None;
        }
        Some(self.fields[(row as usize - 1) * self.width + col as usize - 1])
    }

    fn set(&mut self, col: i64, row: i64, field: Field) {
        let i = (row as usize - 1) * self.width + col as usize - 1;
        self.fields[i] = field;
    }

    /// Fields claimed by `player`.
    pub fn claimed(&self, player: usize) -> usize {
        self.fields.iter().filter(|f| matches!(f, Field::Claimed(p, _) if *p == player)).count()
    }

    /// Gives each player ceil(fields / 3) chips (the start of a round).
    pub fn hand_out_chips(&mut self) {
        for p in 0..2 {
            self.chips[p] += self.claimed(p).div_ceil(3) as u32;
        }
    }

    /// The map as the program prints it, followed by an empty line.
    pub fn render(&self) -> String {
        let mut out = String::from("  ");
        for c in 1..=self.width {
            out.push_str(&format!("| {c} "));
        }
        out.push('\n');
        for r in 0..self.height {
            out.push_str(&format!("{} ", r + 1));
            for c in 0..self.width {
                out.push('|');
                out.push_str(&match self.fields[r * self.width + c] {
                    Field::Empty => "   ".to_string(),
                    Field::Water => " ~ ".to_string(),
                    Field::Claimed(p, n) => format!("{} {n}", IDS[p]),
                });
            }
            out.push('\n');
        }
        out.push('\n');
        out
    }
}

/// A command's error, in the handout's order of precedence (highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CommandError {
    /// `[ERROR] Entered command not found!`
    NotFound,
    /// `[ERROR] Wrong number of parameters for this command!`
    Parameters,
    /// `[ERROR] Entered command is not valid in this phase!`
    Phase,
    /// `[ERROR] Invalid amount! Must be a number > 0!`
    AmountPositive,
    /// `[ERROR] Invalid amount! Must be a number <= chips in player inventory!`
    AmountInventory,
    /// `[ERROR] Invalid field!`
    Field,
    /// `[ERROR] Invalid origin!`
    Origin,
    /// `[ERROR] Invalid amount! Must be a number <= chips on origin field!`
    AmountOrigin,
    /// `[ERROR] Invalid destination!`
    Destination,
}

impl CommandError {
    /// The message the program prints.
    pub fn message(self) -> &'static str {
        match self {
            CommandError::NotFound => "[ERROR] Entered command not found!",
            CommandError::Parameters => "[ERROR] Wrong number of parameters for this command!",
            CommandError::Phase => "[ERROR] Entered command is not valid in this phase!",
            CommandError::AmountPositive => "[ERROR] Invalid amount! Must be a number > 0!",
            CommandError::AmountInventory => "[ERROR] Invalid amount! Must be a number <= chips in player inventory!",
            CommandError::Field => "[ERROR] Invalid field!",
            CommandError::Origin => "[ERROR] Invalid origin!",
            CommandError::AmountOrigin => "[ERROR] Invalid amount! Must be a number <= chips on origin field!",
            CommandError::Destination => "[ERROR] Invalid destination!",
        }
    }
}

/// A positive amount, or the error for a bad one.
fn amount(word: &str) -> Result<u32, CommandError> {
    match word.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n.min(u32::MAX as i64) as u32),
        _ => Err(CommandError::AmountPositive),
    }
}

fn coordinate(word: &str) -> i64 {
    word.parse::<i64>().unwrap_or(0)
}

/// A command's lowercase `words` as [`Board::command`] reads them, written back: the amount and
/// coordinates of a `place` or `move` as numbers (`place 2 1 3` for `place 002 +1 3`; a word
/// that is no coordinate is 0), anything else as it is. Read again, it is the same command.
pub fn canonical_command(words: &[&str]) -> String {
    let Some((&command, args)) = words.split_first() else { return String::new() };
    if !matches!(command, "place" | "move") {
        return words.join(" ");
    }
    let mut out = command.to_string();
    for (i, word) in args.iter().enumerate() {
        out.push(' ');
        match (i, amount(word)) {
            (0, Ok(n)) => out.push_str(&n.to_string()),
            (0, Err(_)) => out.push_str(word),
            _ => out.push_str(&coordinate(word).to_string()),
        }
    }
    out
}

/// The two phases of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Players put their new chips on their fields.
    Placement,
    /// Players move chips to neighbouring fields.
    Movement,
}

impl Phase {
    /// Who starts this phase in `round`: A places first in odd rounds and B in even ones; the
    /// other player moves first.
    pub fn starter(self, round: u32) -> usize {
        let first = if round % 2 == 1 { 0 } else { 1 };
        if self == Phase::Placement {
            first
        } else {
            1 - first
        }
    }
}

impl Board {
    /// Whether `player` (who has `passed` or not) has nothing more to do in `phase`.
    pub fn done(&self, phase: Phase, player: usize, passed: bool) -> bool {
        passed || (phase == Phase::Placement && self.chips[player] == 0)
    }

    /// Whether a player holds no field, which ends the game.
    pub fn has_loser(&self) -> bool {
        self.claimed(0) == 0 || self.claimed(1) == 0
    }

    /// A `place` or `move` command (lowercase `command`, then its words) by `player` in `phase`,
    /// with the handout's error precedence; anything else is "command not found".
    pub fn command(&mut self, player: usize, phase: Phase, command: &str, args: &[&str]) -> Result<(), CommandError> {
        match command {
            "place" if args.len() != 3 => Err(CommandError::Parameters),
            "move" if args.len() != 5 => Err(CommandError::Parameters),
            "place" if phase != Phase::Placement => Err(CommandError::Phase),
            "move" if phase != Phase::Movement => Err(CommandError::Phase),
            "place" => self.place(player, args),
            "move" => self.move_chips(player, args),
            _ => Err(CommandError::NotFound),
        }
    }

    /// `place <AMOUNT> <COLUMN> <ROW>` by `player` (words after the command).
    pub fn place(&mut self, player: usize, args: &[&str]) -> Result<(), CommandError> {
        let [n, col, row] = args else { return Err(CommandError::Parameters) };
        let n = amount(n)?;
        if n > self.chips[player] {
            return Err(CommandError::AmountInventory);
        }
        let (col, row) = (coordinate(col), coordinate(row));
        let Some(Field::Claimed(owner, have)) = self.get(col, row) else { return Err(CommandError::Field) };
        if owner != player {
            return Err(CommandError::Field);
        }
        self.set(col, row, Field::Claimed(player, have + n));
        self.chips[player] -= n;
        Ok(())
    }

    /// `move <AMOUNT> <FROM_COL> <FROM_ROW> <TO_COL> <TO_ROW>` by `player`.
    pub fn move_chips(&mut self, player: usize, args: &[&str]) -> Result<(), CommandError> {
        let [n, fc, fr, tc, tr] = args else { return Err(CommandError::Parameters) };
        let n = amount(n)?;
        let (fc, fr, tc, tr) = (coordinate(fc), coordinate(fr), coordinate(tc), coordinate(tr));
        let Some(Field::Claimed(owner, have)) = self.get(fc, fr) else { return Err(CommandError::Origin) };
        if owner != player {
            return Err(CommandError::Origin);
        }
        if n > have {
            return Err(CommandError::AmountOrigin);
        }
        let adjacent = (fc - tc).abs().max((fr - tr).abs()) == 1;
        let to = self.get(tc, tr).filter(|_| adjacent).ok_or(CommandError::Destination)?;
        let after = match to {
            Field::Water => return Err(CommandError::Destination),
            Field::Empty => Field::Claimed(player, n),
            Field::Claimed(p, m) if p == player => Field::Claimed(player, m + n),
            Field::Claimed(p, m) => {
                let left = i64::from(m) + 1 - i64::from(n);
                match left.cmp(&0) {
                    std::cmp::Ordering::Equal => Field::Empty,
                    std::cmp::Ordering::Less => Field::Claimed(player, (-left) as u32),
                    std::cmp::Ordering::Greater => Field::Claimed(p, left as u32),
                }
            }
        };
        self.set(fc, fr, if have == n { Field::Empty } else { Field::Claimed(player, have - n) });
        self.set(tc, tr, after);
        Ok(())
    }
}
