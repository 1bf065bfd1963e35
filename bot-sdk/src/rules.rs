//! The rules of Resource Rush as pure functions: answers, move validation and the resolution
//! of one tick. The arena's referee enforces exactly this code, so a bot that simulates with
//! it sees what the referee will do.

use thiserror::Error;

pub use crate::action::{Action, MalformedAnswer};
use crate::grid::{Cell, Grid, Pos};

/// How a valid move travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// One cell up, down, left or right.
    Step,
    /// Two cells in a straight line (needs Jump); the middle cell is flown over.
    Jump,
}

/// Why a move is invalid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InvalidMove {
    /// The destination is off the map.
    #[error("{0} is off the map")]
    OutOfBounds(Pos),
    /// Moving to the cell one is on.
    #[error("{0} is where the player already is (answer WAIT to stay)")]
    Stay(Pos),
    /// Diagonal, bent, or further than two cells.
    #[error("{from} to {to} is not a step or a straight two-cell jump")]
    Shape {
        /// Where the player was.
        from: Pos,
        /// Where it asked to go.
        to: Pos,
    },
    /// A two-cell move without Jump.
    #[error("{from} to {to} is two cells away and the player has no Jump")]
    NoJump {
        /// Where the player was.
        from: Pos,
        /// Where it asked to go.
        to: Pos,
    },
    /// The destination is a wall or a void.
    #[error("{pos} is `{cell}`, which cannot be entered")]
    Blocked {
        /// The destination.
        pos: Pos,
        /// What it holds.
        cell: Cell,
    },
    /// A jump over fire.
    #[error("cannot jump over the fire at {0}")]
    OverFire(Pos),
}

/// Checks a move from `from` to `to` against `grid` (the state at the start of the tick).
/// Entering fire is valid (and fatal: see [`resolve`]).
pub fn check_move(grid: &Grid, from: Pos, to: Pos, has_jump: bool) -> Result<MoveKind, InvalidMove> {
    let Some(dest) = grid.get(to) else {
        return Err(InvalidMove::OutOfBounds(to));
    };
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let kind = match (dx.abs(), dy.abs()) {
        (0, 0) => return Err(InvalidMove::Stay(to)),
        (1, 0) | (0, 1) => MoveKind::Step,
        (2, 0) | (0, 2) if has_jump => MoveKind::Jump,
        (2, 0) | (0, 2) => return Err(InvalidMove::NoJump { from, to }),
        _ => return Err(InvalidMove::Shape { from, to }),
    };
    if matches!(dest, Cell::Wall | Cell::Void) {
        return Err(InvalidMove::Blocked { pos: to, cell: dest });
    }
    if kind == MoveKind::Jump {
        let middle = Pos::new(from.x + dx / 2, from.y + dy / 2);
        if grid.get(middle) == Some(Cell::Fire) {
            return Err(InvalidMove::OverFire(middle));
        }
    }
    Ok(kind)
}

/// One player's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Where the player stands.
    pub pos: Pos,
    /// Points collected so far.
    pub score: i64,
    /// Product of the D (x2) and T (x3) power-ups taken; saturates at `i64::MAX`.
    pub multiplier: i64,
    /// Holds Jump.
    pub jump: bool,
}

impl Player {
    /// A player at its start: no points, multiplier 1, no Jump.
    pub fn new(pos: Pos) -> Player {
        Player { pos, score: 0, multiplier: 1, jump: false }
    }

    /// Takes what `cell` holds and returns the points it earned.
    fn collect(&mut self, cell: Cell) -> i64 {
        match cell {
            Cell::Resource(v) => {
                let points = i64::from(v).saturating_mul(self.multiplier);
                self.score = self.score.saturating_add(points);
                points
            }
            Cell::Jump => {
                self.jump = true;
                0
            }
            Cell::Double => {
                self.multiplier = self.multiplier.saturating_mul(2);
                0
            }
            Cell::Triple => {
                self.multiplier = self.multiplier.saturating_mul(3);
                0
            }
            _ => 0,
        }
    }
}

/// What happened during a tick, in player order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `player` took `item` at `pos`, earning `points` (0 for power-ups).
    Collected {
        /// Index of the player.
        player: usize,
        /// The cell.
        pos: Pos,
        /// What it held.
        item: Cell,
        /// Points earned.
        points: i64,
    },
    /// Several players moved onto `pos` at once: nobody gets `item`, the cell becomes `0`.
    Cancelled {
        /// The cell.
        pos: Pos,
        /// What it held.
        item: Cell,
    },
    /// `player` entered fire at `pos`.
    Fire {
        /// Index of the player.
        player: usize,
        /// The cell.
        pos: Pos,
    },
}

/// Applies one tick of already validated moves at once. `moves[i]` is `Some(dest)` when player
/// `i` moved this tick, `None` when it did not (waited, finished, forfeited). Same-cell
/// cancellation applies among the players that moved.
pub fn resolve(grid: &mut Grid, players: &mut [Player], moves: &[Option<Pos>]) -> Vec<Event> {
    let mut events = Vec::new();
    for (i, dest) in moves.iter().enumerate() {
        let Some(dest) = *dest else { continue };
        players[i].pos = dest;
        let Some(cell) = grid.get(dest) else { continue };
        if cell == Cell::Fire {
            events.push(Event::Fire { player: i, pos: dest });
            continue;
        }
        if !cell.is_collectable() {
            continue;
        }
        let shared = moves.iter().enumerate().any(|(j, d)| j != i && *d == Some(dest));
        if shared {
            let first = moves.iter().position(|d| *d == Some(dest)) == Some(i);
            if first {
                events.push(Event::Cancelled { pos: dest, item: cell });
            }
            continue;
        }
        let points = players[i].collect(cell);
        events.push(Event::Collected { player: i, pos: dest, item: cell, points });
    }
    for event in &events {
        if let Event::Collected { pos, .. } | Event::Cancelled { pos, .. } = event {
            grid.set(*pos, Cell::Floor);
        }
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSpec;

    fn grid(rows: &[&str]) -> Grid {
        let mut text = format!("ARENA {} {} 10\n0 0\n0 0\n0 0\nMAP\n", rows.len(), rows[0].split_whitespace().count());
        for r in rows {
            text.push_str(r);
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        MapSpec::parse(&text).unwrap().grid
    }

    #[test]
    fn move_validation_table() {
        let g = grid(&["0 0 W 0 0", "0 E 0 F 0", "0 0 0 0 0", "F 0 0 0 0"]);
        let p = Pos::new;
        let table: Vec<(Pos, Pos, bool, Result<MoveKind, InvalidMove>)> = vec![
            (p(0, 0), p(0, 1), false, Ok(MoveKind::Step)),
            (p(0, 0), p(1, 0), false, Ok(MoveKind::Step)),
            (p(2, 2), p(1, 2), false, Ok(MoveKind::Step)),
            (p(0, 1), p(0, 2), false, Err(InvalidMove::Blocked { pos: p(0, 2), cell: Cell::Wall })),
            (p(0, 1), p(1, 1), false, Err(InvalidMove::Blocked { pos: p(1, 1), cell: Cell::Void })),
            (p(2, 3), p(1, 3), false, Ok(MoveKind::Step)), // entering fire is legal (and fatal)
            (p(0, 0), p(-1, 0), false, Err(InvalidMove::OutOfBounds(p(-1, 0)))),
            (p(0, 4), p(0, 5), false, Err(InvalidMove::OutOfBounds(p(0, 5)))),
            (p(0, 0), p(0, 0), false, Err(InvalidMove::Stay(p(0, 0)))),
            (p(0, 0), p(1, 1), true, Err(InvalidMove::Shape { from: p(0, 0), to: p(1, 1) })),
            (p(0, 0), p(0, 2), false, Err(InvalidMove::NoJump { from: p(0, 0), to: p(0, 2) })),
            (p(0, 0), p(0, 3), true, Err(InvalidMove::Shape { from: p(0, 0), to: p(0, 3) })),
            (p(2, 0), p(1, 2), true, Err(InvalidMove::Shape { from: p(2, 0), to: p(1, 2) })),
            (p(0, 1), p(0, 3), true, Ok(MoveKind::Jump)), // over a wall
            (p(0, 1), p(2, 1), true, Ok(MoveKind::Jump)), // over a void
            (p(2, 0), p(2, 2), true, Ok(MoveKind::Jump)), // over plain ground
            (p(1, 2), p(1, 4), true, Err(InvalidMove::OverFire(p(1, 3)))),
            (p(2, 3), p(0, 3), true, Err(InvalidMove::OverFire(p(1, 3)))),
            (p(0, 0), p(0, 2), true, Err(InvalidMove::Blocked { pos: p(0, 2), cell: Cell::Wall })),
            (p(2, 1), p(0, 1), true, Ok(MoveKind::Jump)), // upwards over a void
            (p(1, 0), p(3, 0), true, Ok(MoveKind::Jump)), // onto fire by jump: legal, fatal
        ];
        for (from, to, jump, want) in table {
            assert_eq!(check_move(&g, from, to, jump), want, "{from} -> {to} jump={jump}");
        }
    }

    fn players(a: Pos, b: Pos) -> [Player; 2] {
        [Player::new(a), Player::new(b)]
    }

    #[test]
    fn collecting_resources_and_power_ups() {
        let mut g = grid(&["0 5 D 7 T 2 J"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 0));
        let mut walk = |ps: &mut [Player; 2], y: i32| resolve(&mut g, ps, &[Some(Pos::new(0, y)), None]);
        assert_eq!(
            walk(&mut ps, 1),
            vec![Event::Collected { player: 0, pos: Pos::new(0, 1), item: Cell::Resource(5), points: 5 }]
        );
        walk(&mut ps, 2);
        assert_eq!(ps[0].multiplier, 2);
        assert_eq!(
            walk(&mut ps, 3)[0],
            Event::Collected { player: 0, pos: Pos::new(0, 3), item: Cell::Resource(7), points: 14 }
        );
        walk(&mut ps, 4);
        assert_eq!(ps[0].multiplier, 6, "D then T multiplies to 6");
        walk(&mut ps, 5);
        assert_eq!(ps[0].score, 5 + 14 + 12);
        assert!(!ps[0].jump);
        walk(&mut ps, 6);
        assert!(ps[0].jump);
        // Every collected cell became 0: walking back collects nothing, power-ups cannot be farmed.
        for y in (0..6).rev() {
            assert!(walk(&mut ps, y).is_empty());
        }
        assert_eq!((ps[0].score, ps[0].multiplier), (31, 6));
        assert_eq!(g.row_text(0), "0 0 0 0 0 0 0");
    }

    #[test]
    fn two_doubles_make_four() {
        let mut g = grid(&["0 D D 10"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 0));
        for y in 1..4 {
            resolve(&mut g, &mut ps, &[Some(Pos::new(0, y)), None]);
        }
        assert_eq!((ps[0].multiplier, ps[0].score), (4, 40));
    }

    #[test]
    fn same_cell_cancels_for_both_and_clears_the_cell() {
        for item in ["9", "J", "D", "T"] {
            let mut g = grid(&[&format!("0 {item} 0")]);
            let mut ps = players(Pos::new(0, 0), Pos::new(0, 2));
            let target = Pos::new(0, 1);
            let events = resolve(&mut g, &mut ps, &[Some(target), Some(target)]);
            assert_eq!(events, vec![Event::Cancelled { pos: target, item: Cell::parse(item).unwrap() }]);
            assert_eq!(g.get(target), Some(Cell::Floor));
            for p in &ps {
                assert_eq!((p.pos, p.score, p.multiplier, p.jump), (target, 0, 1, false));
            }
        }
    }

    #[test]
    fn moving_onto_the_cell_the_other_player_leaves_is_not_a_clash() {
        let mut g = grid(&["0 8 9"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 1));
        // Player 2 stands on the (already cleared) start cell; player 1 moves where it was.
        let events = resolve(&mut g, &mut ps, &[Some(Pos::new(0, 1)), Some(Pos::new(0, 2))]);
        assert_eq!(events.len(), 2);
        assert_eq!((ps[0].score, ps[1].score), (8, 9));
    }

    #[test]
    fn nothing_is_collected_by_waiting_or_at_the_start_cell() {
        let mut g = grid(&["5 0"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 1));
        assert!(resolve(&mut g, &mut ps, &[None, None]).is_empty());
        assert_eq!(g.get(Pos::new(0, 0)), Some(Cell::Resource(5)));
        assert_eq!(ps[0].score, 0);
    }

    #[test]
    fn a_jump_flies_over_the_middle_cell() {
        let mut g = grid(&["0 9 0"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 0));
        ps[0].jump = true;
        assert_eq!(check_move(&g, Pos::new(0, 0), Pos::new(0, 2), true), Ok(MoveKind::Jump));
        assert!(resolve(&mut g, &mut ps, &[Some(Pos::new(0, 2)), None]).is_empty());
        assert_eq!(g.get(Pos::new(0, 1)), Some(Cell::Resource(9)));
        assert_eq!(ps[0].score, 0);
    }

    #[test]
    fn entering_fire_is_reported() {
        let mut g = grid(&["0 F"]);
        let mut ps = players(Pos::new(0, 0), Pos::new(0, 0));
        let events = resolve(&mut g, &mut ps, &[Some(Pos::new(0, 1)), None]);
        assert_eq!(events, vec![Event::Fire { player: 0, pos: Pos::new(0, 1) }]);
        assert_eq!(ps[0].pos, Pos::new(0, 1));
    }

    #[test]
    fn multiplier_and_score_saturate_instead_of_overflowing() {
        let mut p = Player::new(Pos::new(0, 0));
        for _ in 0..100 {
            p.collect(Cell::Triple);
        }
        assert_eq!(p.multiplier, i64::MAX);
        p.collect(Cell::Resource(99));
        p.collect(Cell::Resource(99));
        assert_eq!(p.score, i64::MAX);
    }
}
