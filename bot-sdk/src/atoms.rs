//! Write an Atoms bot: the arena sends `ATOMS <players> <width> <height> <your letter>`,
//! then at each of your turns `TURN <n>`, the board (`<height>` lines of `<width>` cells:
//! `..` empty, or the owner's letter and the atom count like `R2`) and `END`; you answer
//! `PLACE x y`. Implement [`AtomsBot`] and call [`run_atoms`].

use std::io::{self, BufRead, Write};

use crate::bot::{next_line, read_board, RunError};

/// The explosion limit of (x, y) on a `width` x `height` board: 2 in a corner, 3 on an edge,
/// 4 inside. The arena's Atoms rules use this very function.
pub fn limit(width: usize, height: usize, x: usize, y: usize) -> u8 {
    4 - u8::from(x == 0 || x == width - 1) - u8::from(y == 0 || y == height - 1)
}

/// The neighbours of (x, y), clockwise from the one above (up, right, down, left): the order
/// in which an explosion hands out its atoms.
pub fn neighbours(width: usize, height: usize, x: usize, y: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(4);
    if y > 0 {
        out.push((x, y - 1));
    }
    if x + 1 < width {
        out.push((x + 1, y));
    }
    if y + 1 < height {
        out.push((x, y + 1));
    }
    if x > 0 {
        out.push((x - 1, y));
    }
    out
}

/// What your bot sees at its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomsView {
    /// Players in the game.
    pub players: usize,
    /// Board width (x ranges over it).
    pub width: usize,
    /// Board height (y ranges over it).
    pub height: usize,
    /// Your colour letter (`R`, `G`, `P`, `B`, `Y` or `W`).
    pub me: char,
    /// The move number being played (1 for the first move of the game).
    pub turn: usize,
    /// Cells row by row: owner letter and atoms, or `None` when empty.
    pub cells: Vec<Option<(char, u8)>>,
}

impl AtomsView {
    /// The cell at (x, y).
    pub fn cell(&self, x: usize, y: usize) -> Option<(char, u8)> {
        self.cells[y * self.width + x]
    }

    /// The explosion limit at (x, y): 2 in a corner, 3 on an edge, 4 inside.
    pub fn limit(&self, x: usize, y: usize) -> u8 {
        limit(self.width, self.height, x, y)
    }

    /// Cells you may place on: yours or empty.
    pub fn legal(&self) -> Vec<(usize, usize)> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.cell(x, y).is_none_or(|(o, _)| o == self.me))
            .collect()
    }

    /// The neighbours of (x, y), clockwise from the one above.
    pub fn neighbours(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        neighbours(self.width, self.height, x, y)
    }
}

/// An Atoms bot: choose where to place.
pub trait AtomsBot {
    /// The cell (x, y) for this turn.
    fn place(&mut self, view: &AtomsView) -> (usize, usize);
}

/// Runs `bot` on stdin/stdout until the arena closes stdin.
pub fn run_atoms<B: AtomsBot>(bot: B) -> Result<(), RunError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run_atoms_io(bot, stdin.lock(), stdout.lock())
}

/// [`run_atoms`] on any input and output.
pub fn run_atoms_io<B: AtomsBot, R: BufRead, W: Write>(
    mut bot: B,
    mut input: R,
    mut output: W,
) -> Result<(), RunError> {
    let mut line = String::new();
    if !next_line(&mut input, &mut line)? {
        return Ok(());
    }
    let head: Vec<&str> = line.split_whitespace().collect();
    let (players, width, height, me) = match head.as_slice() {
        ["ATOMS", k, w, h, me] => match (k.parse(), w.parse(), h.parse(), me.chars().next()) {
            (Ok(k), Ok(w), Ok(h), Some(me)) => (k, w, h, me),
            _ => return Err(RunError::bad_line(&line, "expected `ATOMS players width height letter`")),
        },
        _ => return Err(RunError::bad_line(&line, "expected `ATOMS players width height letter`")),
    };
    loop {
        if !next_line(&mut input, &mut line)? {
            return Ok(());
        }
        let turn = match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["TURN", n] => n.parse().map_err(|_| RunError::bad_line(&line, "bad turn number"))?,
            _ => return Err(RunError::bad_line(&line, "expected `TURN n`")),
        };
        let cells = read_board(
            &mut input,
            &mut line,
            (width, height),
            |token| {
                let mut chars = token.chars();
                match (chars.next(), chars.as_str().parse::<u8>()) {
                    (Some('.'), _) => Some(None),
                    (Some(owner), Ok(n)) => Some(Some((owner, n))),
                    _ => None,
                }
            },
            ("bad cell", "expected the board then `END`"),
        )?;
        let view = AtomsView { players, width, height, me, turn, cells };
        let (x, y) = bot.place(&view);
        writeln!(output, "PLACE {x} {y}")?;
        output.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct First;
    impl AtomsBot for First {
        fn place(&mut self, v: &AtomsView) -> (usize, usize) {
            v.legal()[0]
        }
    }

    #[test]
    fn the_loop_reads_boards_and_answers() {
        let input = "ATOMS 2 3 2 G\nTURN 2\nR1 .. ..\n.. .. ..\nEND\n";
        let mut out = Vec::new();
        run_atoms_io(First, input.as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "PLACE 1 0\n");
        let v = AtomsView { players: 2, width: 3, height: 2, me: 'G', turn: 2, cells: vec![None; 6] };
        assert_eq!((v.limit(0, 0), v.limit(1, 0)), (2, 3));
        assert_eq!(v.neighbours(1, 0), [(2, 0), (1, 1), (0, 0)]);
    }
}
