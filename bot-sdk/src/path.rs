//! Legal moves and shortest paths (breadth-first search), with or without Jump.

use std::collections::VecDeque;

use crate::map::{Cell, Grid, Pos};
use crate::rules::check_move;

const OFFSETS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// Every valid destination from `from` (fire included: valid, but fatal).
pub fn legal_moves(grid: &Grid, from: Pos, has_jump: bool) -> Vec<Pos> {
    let reach: &[i32] = if has_jump { &[1, 2] } else { &[1] };
    let mut out = Vec::new();
    for &k in reach {
        for (dx, dy) in OFFSETS {
            let to = Pos::new(from.x + dx * k, from.y + dy * k);
            if check_move(grid, from, to, has_jump).is_ok() {
                out.push(to);
            }
        }
    }
    out
}

/// Valid destinations from `from` that do not enter fire.
pub fn safe_moves(grid: &Grid, from: Pos, has_jump: bool) -> Vec<Pos> {
    let mut moves = legal_moves(grid, from, has_jump);
    moves.retain(|p| grid.get(*p) != Some(Cell::Fire));
    moves
}

/// Shortest distances (in ticks) from one cell to every other, over safe moves.
/// Moves are symmetric, so this is also the distance *to* the source.
#[derive(Debug, Clone)]
pub struct Distances {
    cols: usize,
    dist: Vec<Option<u32>>,
}

impl Distances {
    /// Breadth-first search from `source` on `grid`, using jumps when `has_jump`.
    pub fn from(grid: &Grid, source: Pos, has_jump: bool) -> Distances {
        Distances::avoiding(grid, source, has_jump, None)
    }

    /// Like [`Distances::from`], but no path goes on through `stop` (it can only be a path's
    /// end). Pass the final cell: stepping on it ends your game.
    pub fn avoiding(grid: &Grid, source: Pos, has_jump: bool, stop: Option<Pos>) -> Distances {
        let cols = grid.cols();
        let mut dist = vec![None; grid.rows() * cols];
        let index = |p: Pos| p.x as usize * cols + p.y as usize;
        if grid.in_bounds(source) {
            dist[index(source)] = Some(0);
            let mut queue = VecDeque::from([source]);
            while let Some(p) = queue.pop_front() {
                if Some(p) == stop && p != source {
                    continue;
                }
                let d = dist[index(p)].unwrap_or(0);
                for q in safe_moves(grid, p, has_jump) {
                    if dist[index(q)].is_none() {
                        dist[index(q)] = Some(d + 1);
                        queue.push_back(q);
                    }
                }
            }
        }
        Distances { cols, dist }
    }

    /// Ticks from the source to `p`, or `None` when unreachable (or off the map).
    pub fn get(&self, p: Pos) -> Option<u32> {
        if p.x < 0 || p.y < 0 || p.y as usize >= self.cols {
            return None;
        }
        self.dist.get(p.x as usize * self.cols + p.y as usize).copied().flatten()
    }
}

/// The first move of a shortest safe path from `from` to `to`, or `None` when `to` is
/// unreachable or `from == to`.
pub fn first_step(grid: &Grid, from: Pos, to: Pos, has_jump: bool) -> Option<Pos> {
    first_step_avoiding(grid, from, to, has_jump, None)
}

/// Like [`first_step`], on a path that does not pass through `stop` on its way to `to`
/// (pass the final cell: stepping on it ends your game).
pub fn first_step_avoiding(grid: &Grid, from: Pos, to: Pos, has_jump: bool, stop: Option<Pos>) -> Option<Pos> {
    let stop = stop.filter(|s| *s != to);
    let back = Distances::avoiding(grid, to, has_jump, stop);
    let d = back.get(from)?;
    if d == 0 {
        return None;
    }
    safe_moves(grid, from, has_jump).into_iter().find(|q| back.get(*q) == Some(d - 1) && Some(*q) != stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSpec;

    #[test]
    fn paths_can_be_kept_off_the_final() {
        let text = "ARENA 2 3 9\n0 0\n0 0\n0 1\nMAP\n0 0 9\n0 0 0\nEND_MAP\nSTREAM\n";
        let spec = MapSpec::parse(text).unwrap();
        let (start, fin, item) = (Pos::new(0, 0), Pos::new(0, 1), Pos::new(0, 2));
        assert_eq!(first_step(&spec.grid, start, item, false), Some(fin), "the plain shortest path crosses the final");
        assert_eq!(first_step_avoiding(&spec.grid, start, item, false, Some(fin)), Some(Pos::new(1, 0)));
        assert_eq!(Distances::avoiding(&spec.grid, item, false, Some(fin)).get(start), Some(4));
        assert_eq!(first_step_avoiding(&spec.grid, start, fin, false, Some(fin)), Some(fin), "unless going there");
    }
}
