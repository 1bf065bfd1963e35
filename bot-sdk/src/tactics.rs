//! Write an OOPtimal Tactics bot: the arena sends `TACTICS <rounds> <width> <height> <A|B>`,
//! then at each of your turns `ROUND r/rounds`, `PHASE PLACEMENT|MOVEMENT`, `CHIPS n`, the map
//! (`<height>` lines of `<width>` cells: `..` empty, `~~` water, or owner and chips like `A3`)
//! and `END`. You answer one [`Command`]. Implement [`TacticsBot`] and call [`run_tactics`].
//! Coordinates are 1-based `(column, row)`, as in the classic program.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::bot::{next_line, read_board, RunError};

/// One field of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Nobody holds it.
    Empty,
    /// Water: nobody can ever hold it.
    Water,
    /// Held by the player with this letter, with this many chips.
    Held(char, u32),
}

/// What your bot answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Placement Phase: put `amount` unplaced chips on your field `(col, row)`.
    Place {
        /// Chips to put.
        amount: u32,
        /// The field's column, as the prompt numbers them (from 1).
        col: usize,
        /// The field's row, as the prompt numbers them (from 1).
        row: usize,
    },
    /// Movement Phase: move `amount` chips from your field to a neighbour (diagonals count).
    Move {
        /// Chips to move.
        amount: u32,
        /// Your field, as `(col, row)`.
        from: (usize, usize),
        /// The neighbour, as `(col, row)`.
        to: (usize, usize),
    },
    /// Done for this phase.
    Pass,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Place { amount, col, row } => write!(f, "place {amount} {col} {row}"),
            Command::Move { amount, from, to } => write!(f, "move {amount} {} {} {} {}", from.0, from.1, to.0, to.1),
            Command::Pass => write!(f, "pass"),
        }
    }
}

/// What your bot sees at its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacticsView {
    /// Rounds in the match.
    pub rounds: u32,
    /// The round being played (1-based).
    pub round: u32,
    /// Whether this is the Movement Phase (else the Placement Phase).
    pub movement: bool,
    /// Your unplaced chips.
    pub chips: u32,
    /// Your letter, `A` or `B`.
    pub me: char,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Fields row by row.
    pub fields: Vec<Field>,
}

impl TacticsView {
    /// The field at 1-based `(col, row)`, if on the map.
    pub fn get(&self, col: usize, row: usize) -> Option<Field> {
        (col >= 1 && row >= 1 && col <= self.width && row <= self.height)
            .then(|| self.fields[(row - 1) * self.width + col - 1])
    }

    /// Your fields as `(col, row, chips)`.
    pub fn mine(&self) -> Vec<(usize, usize, u32)> {
        let me = self.me;
        self.fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match *f {
                Field::Held(o, n) if o == me => Some((i % self.width + 1, i / self.width + 1, n)),
                _ => None,
            })
            .collect()
    }

    /// The fields next to `(col, row)`, diagonals included, that are not water.
    pub fn neighbours(&self, col: usize, row: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for dr in -1i64..=1 {
            for dc in -1i64..=1 {
                let (c, r) = (col as i64 + dc, row as i64 + dr);
                if (dc, dr) != (0, 0) && c >= 1 && r >= 1 {
                    let (c, r) = (c as usize, r as usize);
                    if self.get(c, r).is_some_and(|f| f != Field::Water) {
                        out.push((c, r));
                    }
                }
            }
        }
        out
    }

    /// Fields claimed by the player with `letter`.
    pub fn claimed(&self, letter: char) -> usize {
        self.fields.iter().filter(|f| matches!(f, Field::Held(o, _) if *o == letter)).count()
    }
}

/// A Tactics bot: choose a command.
pub trait TacticsBot {
    /// The command for this turn.
    fn act(&mut self, view: &TacticsView) -> Command;
}

/// Runs `bot` on stdin/stdout until the arena closes stdin.
pub fn run_tactics<B: TacticsBot>(bot: B) -> Result<(), RunError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run_tactics_io(bot, stdin.lock(), stdout.lock())
}

/// [`run_tactics`] on any input and output.
pub fn run_tactics_io<B: TacticsBot, R: BufRead, W: Write>(
    mut bot: B,
    mut input: R,
    mut output: W,
) -> Result<(), RunError> {
    let mut line = String::new();
    if !next_line(&mut input, &mut line)? {
        return Ok(());
    }
    let intro = "expected `TACTICS rounds width height letter`";
    let (rounds, width, height, me) = match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["TACTICS", r, w, h, me] => match (r.parse(), w.parse(), h.parse(), me.chars().next()) {
            (Ok(r), Ok(w), Ok(h), Some(me)) => (r, w, h, me),
            _ => return Err(RunError::bad_line(&line, intro)),
        },
        _ => return Err(RunError::bad_line(&line, intro)),
    };
    loop {
        if !next_line(&mut input, &mut line)? {
            return Ok(());
        }
        let round = match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["ROUND", r] => r
                .split('/')
                .next()
                .and_then(|r| r.parse().ok())
                .ok_or_else(|| RunError::bad_line(&line, "bad round"))?,
            _ => return Err(RunError::bad_line(&line, "expected `ROUND r/rounds`")),
        };
        next_line(&mut input, &mut line)?;
        let movement = match line.trim() {
            "PHASE PLACEMENT" => false,
            "PHASE MOVEMENT" => true,
            _ => return Err(RunError::bad_line(&line, "expected `PHASE PLACEMENT` or `PHASE MOVEMENT`")),
        };
        next_line(&mut input, &mut line)?;
        let chips = match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["CHIPS", n] => n.parse().map_err(|_| RunError::bad_line(&line, "bad chip count"))?,
            _ => return Err(RunError::bad_line(&line, "expected `CHIPS n`")),
        };
        let fields = read_board(
            &mut input,
            &mut line,
            (width, height),
            |token| {
                let mut chars = token.chars();
                match (chars.next(), chars.as_str()) {
                    (Some('.'), _) => Some(Field::Empty),
                    (Some('~'), _) => Some(Field::Water),
                    (Some(owner), n) => n.parse().ok().map(|n| Field::Held(owner, n)),
                    (None, _) => None,
                }
            },
            ("bad field", "expected the map then `END`"),
        )?;
        let view = TacticsView { rounds, round, movement, chips, me, width, height, fields };
        writeln!(output, "{}", bot.act(&view))?;
        output.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct FirstField;
    impl TacticsBot for FirstField {
        fn act(&mut self, v: &TacticsView) -> Command {
            let (col, row, _) = v.mine()[0];
            if v.movement {
                Command::Move { amount: 1, from: (col, row), to: v.neighbours(col, row)[0] }
            } else {
                Command::Place { amount: v.chips, col, row }
            }
        }
    }

    #[test]
    fn the_loop_reads_maps_and_answers() {
        let input = "TACTICS 2 3 2 B\nROUND 1/2\nPHASE PLACEMENT\nCHIPS 2\nA1 ~~ ..\n.. .. B12\nEND\n\
                     ROUND 1/2\nPHASE MOVEMENT\nCHIPS 0\nA1 ~~ ..\n.. .. B14\nEND\n";
        let mut out = Vec::new();
        run_tactics_io(FirstField, input.as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "place 2 3 2\nmove 1 3 2 3 1\n");
    }

    #[test]
    fn views_know_neighbours_and_owners() {
        use Field::*;
        let v = TacticsView {
            rounds: 1,
            round: 1,
            movement: true,
            chips: 0,
            me: 'A',
            width: 3,
            height: 2,
            fields: vec![Held('A', 1), Water, Empty, Empty, Empty, Held('B', 4)],
        };
        assert_eq!(v.neighbours(1, 1), [(1, 2), (2, 2)]);
        assert_eq!(v.mine(), [(1, 1, 1)]);
        assert_eq!((v.claimed('A'), v.claimed('B')), (1, 1));
        assert_eq!(v.get(3, 2), Some(Held('B', 4)));
        assert_eq!(v.get(4, 1), None);
        let bad = "TACTICS 1 3 2 A\nROUND x\n";
        let err = run_tactics_io(FirstField, bad.as_bytes(), Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "bad line `ROUND x`: bad round");
    }
}
