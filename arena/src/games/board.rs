//! A board as a game's replay frame shows it, for the advice on a move the rules refused (see
//! [`crate::engine::Game::invalid_move_fix`]): its `board`, rows of cells apart by spaces, each
//! `..` (empty), a game's own mark (`~~`, water) or an owner's letter and a count (`A3`).

use serde_json::Value;

/// The board a frame shows, and the letter of the player it was shown to.
pub(crate) struct Seen {
    rows: Vec<Vec<String>>,
    /// How many cells a row holds (its first row's).
    pub width: i64,
    /// How many rows.
    pub height: i64,
    /// The letter that marks the player's own cells.
    pub me: char,
}

impl Seen {
    /// The board of `frame` for the player whose cells `me` marks (none where it shows none).
    pub fn of(frame: &Value, me: char) -> Option<Seen> {
        let rows: Vec<Vec<String>> = frame
            .get("board")?
            .as_array()?
            .iter()
            .map(|r| r.as_str().map(|r| r.split(' ').map(str::to_string).collect()))
            .collect::<Option<_>>()?;
        let width = rows.first().map_or(0, Vec::len) as i64;
        Some(Seen { height: rows.len() as i64, width, rows, me })
    }

    /// The cell at 0-based (x, y), if on the board.
    pub fn at(&self, x: i64, y: i64) -> Option<&str> {
        self.rows.get(usize::try_from(y).ok()?)?.get(usize::try_from(x).ok()?).map(String::as_str)
    }
}
