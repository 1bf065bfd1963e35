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
        let cols = grid.cols();
        let mut dist = vec![None; grid.rows() * cols];
        let index = |p: Pos| p.x as usize * cols + p.y as usize;
        if grid.in_bounds(source) {
            dist[index(source)] = Some(0);
            let mut queue = VecDeque::from([source]);
            while let Some(p) = queue.pop_front() {
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
    let back = Distances::from(grid, to, has_jump);
    let d = back.get(from)?;
    if d == 0 {
        return None;
    }
    safe_moves(grid, from, has_jump).into_iter().find(|q| back.get(*q) == Some(d - 1))
}
