//! Atoms: 2 to 6 players place atoms on a grid; a cell that reaches its limit (corner 2,
//! edge 3, interior 4) explodes, sending one atom to each neighbour (clockwise from the cell
//! above: up, right, down, left), which become the exploding player's; explosions cascade.
//! Once every player has moved once, a player with no cells is out; the last one standing
//! wins, at once, even in the middle of a cascade.
//!
//! This module holds the rules; `classic` is the original text program.

pub mod classic;
pub mod hosted;
pub mod kit;
mod refused;

pub use hosted::AtomsGame;

/// The game's name on the command line.
pub const NAME: &str = "atoms";

/// Player colours in turn order.
pub const COLOURS: [&str; 6] = ["Red", "Green", "Purple", "Blue", "Yellow", "White"];

/// One cell: owner and atoms (owner is meaningless when there are none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    /// Owning player.
    pub owner: u8,
    /// Atoms in it.
    pub atoms: u8,
}

/// Why a placement was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceError {
    /// Off the board.
    OffBoard,
    /// Another player's cell.
    NotYours,
    /// The game is over.
    Over,
}

/// A game of Atoms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atoms {
    /// Board width (x ranges over it).
    pub width: usize,
    /// Board height (y ranges over it).
    pub height: usize,
    /// Cells, row by row (`y * width + x`). Changed only through [`Atoms::add`], which keeps
    /// `owned` in step.
    pub cells: Vec<Cell>,
    /// Cells each player owns (with atoms in), kept as cells change so that the check after
    /// every atom is O(players), not a count of the whole board.
    owned: Vec<usize>,
    /// Players still in the game.
    pub alive: Vec<bool>,
    /// Whose turn it is.
    pub turn: usize,
    /// Moves made so far.
    pub moves: Vec<(u8, u8)>,
    /// The winner, once only one player is left.
    pub winner: Option<usize>,
}

impl Atoms {
    /// A new game; `players` in 2..=6, sizes in 2..=255.
    pub fn new(players: usize, width: usize, height: usize) -> Atoms {
        Atoms {
            width,
            height,
            cells: vec![Cell::default(); width * height],
            owned: vec![0; players],
            alive: vec![true; players],
            turn: 0,
            moves: Vec::new(),
            winner: None,
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.alive.len()
    }

    /// The explosion limit of a cell: 2 in a corner, 3 on an edge, 4 inside.
    pub fn limit(&self, x: usize, y: usize) -> u8 {
        bot_sdk::atoms::limit(self.width, self.height, x, y)
    }

    /// Cells owned by `player`.
    pub fn grid_count(&self, player: usize) -> usize {
        self.owned.get(player).copied().unwrap_or(0)
    }

    /// The cell at (x, y).
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        self.cells[y * self.width + x]
    }

    /// Places an atom for the player whose turn it is, resolves explosions, removes players
    /// without cells (once everyone has moved once) and passes the turn on.
    pub fn place(&mut self, x: i64, y: i64) -> Result<(), PlaceError> {
        if self.winner.is_some() {
            return Err(PlaceError::Over);
        }
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return Err(PlaceError::OffBoard);
        }
        let (x, y) = (x as usize, y as usize);
        let me = self.turn;
        let c = self.cell(x, y);
        if c.atoms > 0 && c.owner as usize != me {
            return Err(PlaceError::NotYours);
        }
        self.moves.push((x as u8, y as u8));
        self.add(x, y, me);
        if self.winner.is_none() {
            self.pass_turn();
        }
        Ok(())
    }

    /// Adds one atom of `player` at (x, y) and resolves the cascade (depth first, neighbours
    /// clockwise from the one above). Stops as soon as the game is won.
    fn add(&mut self, x: usize, y: usize, player: usize) {
        // An explicit stack keeps deep cascades off the call stack: each entry is a cell to
        // receive an atom.
        let mut stack = vec![(x, y)];
        let mut guard = 0u64;
        while let Some((x, y)) = stack.pop() {
            let i = y * self.width + x;
            if self.cells[i].atoms > 0 {
                self.owned[self.cells[i].owner as usize] -= 1;
            }
            self.owned[player] += 1;
            self.cells[i].owner = player as u8;
            self.cells[i].atoms += 1;
            #[cfg(test)]
            tests::audit(self);
            // Each atom that lands may leave one player alone: the game ends right there.
            self.settle();
            guard += 1;
            if self.winner.is_some() || guard > 10_000_000 {
                return;
            }
            if self.cells[i].atoms < self.limit(x, y) {
                continue;
            }
            self.cells[i].atoms = 0;
            self.owned[player] -= 1;
            // Neighbours clockwise from above, pushed in reverse so that the first one is
            // handled (with its own cascade) first.
            let around = bot_sdk::atoms::neighbours(self.width, self.height, x, y);
            stack.extend(around.into_iter().rev());
        }
    }

    /// Removes players without cells, once every player has had a first move, and records a
    /// winner when one is left.
    fn settle(&mut self) {
        if self.moves.len() < self.players() {
            return;
        }
        for p in 0..self.players() {
            if self.alive[p] && self.grid_count(p) == 0 {
                self.alive[p] = false;
            }
        }
        let alive: Vec<usize> = (0..self.players()).filter(|&p| self.alive[p]).collect();
        if alive.len() == 1 {
            self.winner = Some(alive[0]);
        }
    }

    /// Takes `player` out of the game (a forfeit): its cells stay on the board but it plays no
    /// more; the last player left wins.
    pub fn resign(&mut self, player: usize) {
        if self.winner.is_some() || !self.alive[player] {
            return;
        }
        self.alive[player] = false;
        let alive: Vec<usize> = (0..self.players()).filter(|&p| self.alive[p]).collect();
        if alive.len() == 1 {
            self.winner = Some(alive[0]);
        } else if self.turn == player {
            self.pass_turn();
        }
    }

    fn pass_turn(&mut self) {
        let n = self.players();
        for step in 1..=n {
            let p = (self.turn + step) % n;
            if self.alive[p] {
                self.turn = p;
                return;
            }
        }
    }

    /// The game after replaying the first `moves` moves of `all` (for undo and PLAYFROM).
    pub fn replay(players: usize, width: usize, height: usize, all: &[(u8, u8)]) -> Atoms {
        let mut game = Atoms::new(players, width, height);
        for &(x, y) in all {
            if game.place(i64::from(x), i64::from(y)).is_err() {
                break;
            }
        }
        game
    }

    /// The board as DISPLAY draws it.
    pub fn display(&self) -> String {
        let mut out = format!("+{}+\n", "-".repeat(3 * self.width - 1));
        for y in 0..self.height {
            out.push('|');
            for x in 0..self.width {
                let c = self.cell(x, y);
                if c.atoms == 0 {
                    out.push_str("  ");
                } else {
                    out.push_str(&COLOURS[c.owner as usize][..1]);
                    out.push_str(&c.atoms.to_string());
                }
                out.push('|');
            }
            out.push('\n');
        }
        out.push_str(&format!("+{}+\n", "-".repeat(3 * self.width - 1)));
        out
    }

    /// The save file: width, height, players, then 4 bytes per move (x, y, 0, 0).
    pub fn save_bytes(&self) -> Vec<u8> {
        let mut out = vec![self.width as u8, self.height as u8, self.players() as u8];
        for &(x, y) in &self.moves {
            out.extend_from_slice(&[x, y, 0, 0]);
        }
        out
    }
}

/// What a save file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveFile {
    /// Players.
    pub players: usize,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The moves, in order.
    pub moves: Vec<(u8, u8)>,
    /// The game after all of them, built while checking them, so that PLAYFROM END does not
    /// replay them again.
    end: Atoms,
}

impl SaveFile {
    /// The game after the first `upto` moves.
    pub fn game(&self, upto: usize) -> Atoms {
        if upto >= self.moves.len() {
            return self.end.clone();
        }
        Atoms::replay(self.players, self.width, self.height, &self.moves[..upto.min(self.moves.len())])
    }
}

/// Why bytes are not a save file: each names where in the file and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// Fewer than the three header bytes.
    #[error("the file has {0} byte(s): a save starts with 3 (width, height, players)")]
    Short(usize),
    /// A player count START refuses.
    #[error("byte 3 says {0} players: Atoms has 2 to 6")]
    Players(u8),
    /// A side START refuses, or fewer cells than players.
    #[error("bytes 1 and 2 say a {width}x{height} board for {players} players: sides are 2 to 255, with at least as many cells as players")]
    Board {
        /// Byte 1.
        width: u8,
        /// Byte 2.
        height: u8,
        /// Byte 3.
        players: u8,
    },
    /// The moves are not whole 4-byte records.
    #[error("{0} byte(s) follow the 3-byte header: not a whole number of 4-byte moves")]
    Ragged(usize),
    /// A move's padding bytes (its third and fourth) are not both 0.
    #[error("move {number} (bytes {first} to {last}): its padding is {pad:02x} {next:02x}, a save has 00 00 there", first = 4 + 4 * (number - 1), last = 7 + 4 * (number - 1), pad = padding[0], next = padding[1])]
    Padding {
        /// 1-based move number.
        number: usize,
        /// Its two padding bytes.
        padding: [u8; 2],
    },
    /// A move the game refuses.
    #[error("move {number} (bytes {first} to {last}) is ({x}, {y}), which {why}", first = 4 + 4 * (number - 1), last = 7 + 4 * (number - 1))]
    Refused {
        /// 1-based move number.
        number: usize,
        /// Its x.
        x: u8,
        /// Its y.
        y: u8,
        /// Why the game refuses it, in words.
        why: &'static str,
    },
}

/// Reads a save file, or why the bytes are not one: a header START would refuse, moves that
/// are not whole 4-byte records with 0 padding, or a move the game refuses (off the board, on
/// another player's cell, after the game was won), which no game could have saved.
pub fn parse_save(bytes: &[u8]) -> Result<SaveFile, SaveError> {
    let (&[w, h, k], rest) = bytes.split_first_chunk::<3>().ok_or(SaveError::Short(bytes.len()))?;
    let (players, width, height) = (k as usize, w as usize, h as usize);
    if !(2..=6).contains(&players) {
        return Err(SaveError::Players(k));
    }
    if width < 2 || height < 2 || width * height < players {
        return Err(SaveError::Board { width: w, height: h, players: k });
    }
    if rest.len() % 4 != 0 {
        return Err(SaveError::Ragged(rest.len()));
    }
    let mut moves = Vec::with_capacity(rest.len() / 4);
    let mut game = Atoms::new(players, width, height);
    for (i, m) in rest.chunks_exact(4).enumerate() {
        let (x, y, number) = (m[0], m[1], i + 1);
        if m[2..] != [0, 0] {
            return Err(SaveError::Padding { number, padding: [m[2], m[3]] });
        }
        let why = match game.place(i64::from(x), i64::from(y)) {
            Ok(()) => {
                moves.push((x, y));
                continue;
            }
            Err(PlaceError::OffBoard) => "is off the board",
            Err(PlaceError::NotYours) => "belongs to another player",
            Err(PlaceError::Over) => "comes after the game was won",
        };
        return Err(SaveError::Refused { number, x, y, why });
    }
    Ok(SaveFile { players, width, height, moves, end: game })
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Atoms landed on this thread so far, each checked by [`audit`].
        static AUDITED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Called by [`Atoms::add`] after every atom lands (in test builds): the kept counts
    /// must equal a count of the whole board.
    pub(super) fn audit(game: &Atoms) {
        let recount: Vec<usize> = (0..game.players())
            .map(|p| game.cells.iter().filter(|c| c.atoms > 0 && c.owner as usize == p).count())
            .collect();
        assert_eq!(game.owned, recount, "kept cell counts drifted from the board");
        AUDITED.with(|a| a.set(a.get() + 1));
    }

    /// The cells kept per player equal a recount of the board after every atom of random
    /// games on small boards, full of chain reactions (more atoms land than moves are made),
    /// played to a win; and a save of each game loads to the same game. The control: a
    /// count set wrong is caught at the next atom.
    #[test]
    fn kept_cell_counts_match_a_recount_after_every_atom() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let before = AUDITED.with(|a| a.get());
        let (mut moves, mut won) = (0, 0);
        for round in 0..40 {
            let players = 2 + round % 5;
            let (w, h) = (2 + (next() % 5) as usize, 2 + (next() % 5) as usize);
            if w * h < players {
                continue;
            }
            let mut g = Atoms::new(players, w, h);
            for _ in 0..2_000 {
                if g.winner.is_some() {
                    break;
                }
                let (x, y) = ((next() % w as u64) as i64, (next() % h as u64) as i64);
                if g.place(x, y).is_ok() {
                    moves += 1;
                }
            }
            won += usize::from(g.winner.is_some());
            assert_eq!(parse_save(&g.save_bytes()).map(|s| s.game(usize::MAX)), Ok(g.clone()));
        }
        let atoms = AUDITED.with(|a| a.get()) - before;
        assert!(won > 30, "games end with a winner: {won}");
        assert!(atoms > 2 * moves, "chain reactions: {atoms} atoms for {moves} moves");

        let mut g = Atoms::new(2, 3, 3);
        g.place(0, 0).unwrap();
        g.owned[0] += 1;
        let wrong = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| g.place(1, 1)));
        assert!(wrong.is_err(), "a drifted count is caught");
    }

    #[test]
    fn limits_are_two_three_four() {
        let g = Atoms::new(2, 4, 3);
        assert_eq!((g.limit(0, 0), g.limit(3, 2), g.limit(1, 0), g.limit(0, 1), g.limit(1, 1)), (2, 2, 3, 3, 4));
    }

    #[test]
    fn a_corner_explodes_clockwise_from_above_and_takes_the_neighbours() {
        let mut g = Atoms::new(2, 3, 3);
        g.place(2, 1).unwrap(); // Red, right edge
        g.place(1, 1).unwrap(); // Green, centre
        g.place(0, 0).unwrap(); // Red
        g.place(1, 1).unwrap(); // Green (2 atoms)
        g.place(0, 0).unwrap(); // Red: corner explodes to (1,0) and (0,1)
        assert_eq!(g.cell(0, 0).atoms, 0);
        assert_eq!(g.cell(1, 0), Cell { owner: 0, atoms: 1 });
        assert_eq!(g.cell(0, 1), Cell { owner: 0, atoms: 1 });
        assert_eq!(g.turn, 1);
    }

    #[test]
    fn nobody_is_out_before_everyone_has_moved() {
        let mut g = Atoms::new(3, 2, 2);
        g.place(0, 0).unwrap(); // Red
        g.place(0, 0).unwrap_err(); // Green cannot place on Red's cell
        g.place(1, 1).unwrap(); // Green
        assert!(g.alive.iter().all(|a| *a));
        assert_eq!(g.turn, 2);
    }

    #[test]
    fn the_game_ends_mid_cascade() {
        // 2x2: every cell is a corner (limit 2). Green's explosion takes (1,0), which explodes
        // in turn; the atom it sends to (0,0) takes Red's last cell, and the game is over
        // before the atom bound for (0,1) lands.
        let mut g = Atoms::new(2, 2, 2);
        for (x, y) in [(0, 0), (1, 1), (1, 0), (1, 1)] {
            g.place(x, y).unwrap();
        }
        assert_eq!(g.winner, Some(1));
        assert_eq!(g.alive, [false, true]);
        assert_eq!(g.cell(0, 0), Cell { owner: 1, atoms: 2 }, "at its limit, but never exploded");
        assert_eq!(g.cell(0, 1).atoms, 0, "the last atom of the cascade never landed");
        assert_eq!(g.place(0, 1), Err(PlaceError::Over));
    }

    #[test]
    fn a_cascade_runs_round_the_board() {
        // 3 wide, 2 high: Green's explosion at (2,0) runs down the right side, then back along
        // the top through Red's (1,0) (limit 3) to Red's last cell at (0,0).
        let mut g = Atoms::new(2, 3, 2);
        for (x, y) in [(0, 0), (2, 1), (1, 0), (2, 1), (1, 0)] {
            g.place(x, y).unwrap();
        }
        assert_eq!(g.display(), "+--------+\n|R1|R2|G1|\n|  |G1|  |\n+--------+\n");
        g.place(2, 0).unwrap();
        assert_eq!(g.winner, Some(1));
        assert_eq!(g.display(), "+--------+\n|G2|  |G1|\n|  |G2|G1|\n+--------+\n");
    }

    #[test]
    fn save_files_round_trip() {
        let mut g = Atoms::new(3, 4, 5);
        for (x, y) in [(0, 0), (3, 4), (1, 1)] {
            g.place(x, y).unwrap();
        }
        let bytes = g.save_bytes();
        assert_eq!(bytes[..3], [4, 5, 3]);
        assert_eq!(bytes[3..], [0, 0, 0, 0, 3, 4, 0, 0, 1, 1, 0, 0]);
        let save = parse_save(&bytes).unwrap();
        assert_eq!(save.game(usize::MAX), g);
        let err = |bytes: &[u8]| parse_save(bytes).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(err(&[4, 5]), "the file has 2 byte(s): a save starts with 3 (width, height, players)");
        assert_eq!(err(&[4, 5, 9]), "byte 3 says 9 players: Atoms has 2 to 6");
        assert_eq!(err(&[4, 5, 2, 0, 0, 0]), "3 byte(s) follow the 3-byte header: not a whole number of 4-byte moves");
    }

    /// A save holding a move the game refuses is no save: off the board, on another player's
    /// cell, after the game was won; so is a board with fewer cells than players. Each is said
    /// with where it is. The control: the same files without that move (or with one player
    /// fewer) are read.
    #[test]
    fn saves_with_moves_no_game_makes_are_refused() {
        let save = |header: [u8; 3], moves: &[(u8, u8)]| {
            let mut bytes = header.to_vec();
            for &(x, y) in moves {
                bytes.extend([x, y, 0, 0]);
            }
            parse_save(&bytes).map_err(|e| e.to_string())
        };
        let refused = |header, moves: &[(u8, u8)]| save(header, moves).err().unwrap_or_default();
        assert_eq!(refused([3, 3, 2], &[(9, 9)]), "move 1 (bytes 4 to 7) is (9, 9), which is off the board");
        assert_eq!(
            refused([3, 3, 2], &[(0, 0), (0, 0)]),
            "move 2 (bytes 8 to 11) is (0, 0), which belongs to another player",
            "Green on Red's cell"
        );
        let won = [(0, 0), (1, 1), (1, 0), (1, 1)];
        assert_eq!(
            refused([2, 2, 2], &[&won[..], &[(0, 1)]].concat()),
            "move 5 (bytes 20 to 23) is (0, 1), which comes after the game was won"
        );
        assert_eq!(
            refused([2, 2, 5], &[]),
            "bytes 1 and 2 say a 2x2 board for 5 players: sides are 2 to 255, with at least as many cells as players"
        );
        assert!(save([3, 3, 2], &[]).is_ok() && save([3, 3, 2], &[(0, 0), (2, 2)]).is_ok());
        assert_eq!(save([2, 2, 2], &won).map(|s| s.game(usize::MAX).winner), Ok(Some(1)), "a won game is a save");
        assert!(save([2, 2, 4], &[]).is_ok());
    }

    /// A move's two padding bytes must be 0, as SAVE writes them: a file with anything else
    /// there is no save (bytes laid out another way, such as x and y in the last two bytes,
    /// would otherwise load as a different game), said with the move and its bytes. The
    /// control: the same moves with 0 padding load, and they are legal moves, so the padding
    /// alone is what is refused.
    #[test]
    fn a_save_whose_padding_is_not_zero_is_refused() {
        let good = [3, 3, 2, 0, 0, 0, 0, 2, 2, 0, 0];
        assert_eq!(parse_save(&good).map(|s| s.moves), Ok(vec![(0, 0), (2, 2)]));
        for (at, byte, number, shown) in [(5, 1, 1, "01 00"), (6, 0xff, 1, "00 ff"), (9, 7, 2, "07 00")] {
            let mut bad = good;
            bad[at] = byte;
            let err = parse_save(&bad).map(|s| s.moves).map_err(|e| e.to_string());
            let first = 4 + 4 * (number - 1);
            let expected =
                format!("move {number} (bytes {first} to {}): its padding is {shown}, a save has 00 00 there", first + 3);
            assert_eq!(err, Err(expected));
        }
        // x and y written in the last two bytes: Red's (2, 2) would load as Red's (0, 0), a
        // game nobody played.
        let swapped = [3, 3, 2, 0, 0, 2, 2];
        assert_eq!(parse_save(&swapped).err(), Some(SaveError::Padding { number: 1, padding: [2, 2] }));
    }
}
