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

/// Reads a save file, or `None` when the bytes are not one: a header START would refuse, or a
/// move the game refuses (off the board, on another player's cell, after the game was won),
/// which no game could have saved.
pub fn parse_save(bytes: &[u8]) -> Option<SaveFile> {
    let (&[w, h, k], rest) = bytes.split_first_chunk::<3>()?;
    let (players, width, height) = (k as usize, w as usize, h as usize);
    if !(2..=6).contains(&players) || width < 2 || height < 2 || width * height < players || rest.len() % 4 != 0 {
        return None;
    }
    let moves: Vec<(u8, u8)> = rest.chunks(4).map(|m| (m[0], m[1])).collect();
    let mut game = Atoms::new(players, width, height);
    for &(x, y) in &moves {
        game.place(i64::from(x), i64::from(y)).ok()?;
    }
    Some(SaveFile { players, width, height, moves, end: game })
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
            assert_eq!(parse_save(&g.save_bytes()).map(|s| s.game(usize::MAX)), Some(g.clone()));
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
        assert_eq!(parse_save(&[4, 5]), None);
        assert_eq!(parse_save(&[4, 5, 9]), None);
    }

    /// A save holding a move the game refuses is no save: off the board, on another player's
    /// cell, after the game was won; so is a board with fewer cells than players. The control:
    /// the same files without that move (or with one player fewer) are read.
    #[test]
    fn saves_with_moves_no_game_makes_are_refused() {
        let save = |header: [u8; 3], moves: &[(u8, u8)]| {
            let mut bytes = header.to_vec();
            for &(x, y) in moves {
                bytes.extend([x, y, 0, 0]);
            }
            parse_save(&bytes)
        };
        assert_eq!(save([3, 3, 2], &[(9, 9)]), None, "off the board");
        assert_eq!(save([3, 3, 2], &[(0, 0), (0, 0)]), None, "Green on Red's cell");
        let won = [(0, 0), (1, 1), (1, 0), (1, 1)];
        assert_eq!(save([2, 2, 2], &[&won[..], &[(0, 1)]].concat()), None, "a move after the win");
        assert_eq!(save([2, 2, 5], &[]), None, "5 players on 4 cells");
        assert!(save([3, 3, 2], &[]).is_some() && save([3, 3, 2], &[(0, 0), (2, 2)]).is_some());
        assert_eq!(save([2, 2, 2], &won).map(|s| s.game(usize::MAX).winner), Some(Some(1)), "a won game is a save");
        assert!(save([2, 2, 4], &[]).is_some());
    }
}
