//! Legal moves and shortest paths (breadth-first search), with or without Jump.
//!
//! [`Distances`] and [`first_step`] use the Jump a player holds now. [`Distances::planning_jumps`]
//! and [`DistancesTo`] search over (cell, holds Jump) instead, so a `J` picked up on the way
//! counts: from then on the path may jump. That is what a bot needs on a map where some cells
//! (the final, say) can only be reached by jumping.

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

/// Index of the search state (cell `p`, holds Jump `jump`) on a grid `cols` wide.
fn state_index(cols: usize, p: Pos, jump: bool) -> usize {
    (p.x as usize * cols + p.y as usize) * 2 + usize::from(jump)
}

/// The states one move away from (`from`, `jump`) over safe moves: where it lands, and
/// whether it holds Jump there (a `J` landed on grants it).
fn successors(grid: &Grid, from: Pos, jump: bool) -> impl Iterator<Item = (Pos, bool)> + '_ {
    safe_moves(grid, from, jump).into_iter().map(move |q| (q, jump || grid.get(q) == Some(Cell::Jump)))
}

impl Distances {
    /// Shortest distances from `source` for a player holding Jump when `has_jump`, planning
    /// through `J` pickups (a path may take a `J` and jump after it); no path goes on through
    /// `stop`. A cell's distance is the best over arriving with or without Jump.
    pub fn planning_jumps(grid: &Grid, source: Pos, has_jump: bool, stop: Option<Pos>) -> Distances {
        let cols = grid.cols();
        let mut seen = vec![false; grid.rows() * cols * 2];
        let mut dist = vec![None; grid.rows() * cols];
        if grid.in_bounds(source) {
            seen[state_index(cols, source, has_jump)] = true;
            dist[source.x as usize * cols + source.y as usize] = Some(0);
            let mut queue = VecDeque::from([(source, has_jump, 0)]);
            while let Some((p, jump, d)) = queue.pop_front() {
                if Some(p) == stop && p != source {
                    continue;
                }
                for (q, j) in successors(grid, p, jump) {
                    let k = state_index(cols, q, j);
                    if !seen[k] {
                        seen[k] = true;
                        let cell = &mut dist[q.x as usize * cols + q.y as usize];
                        *cell = Some(cell.map_or(d + 1, |c: u32| c.min(d + 1)));
                        queue.push_back((q, j, d + 1));
                    }
                }
            }
        }
        Distances { cols, dist }
    }
}

/// Unreachable, in [`DistancesTo`].
const FAR: u16 = u16::MAX;

/// Shortest distances *to* one target from every cell, with or without Jump, planning through
/// `J` pickups, over safe moves, never going on through a `stop` cell (the final: stepping on
/// it ends the game). Walls, voids and fire never change, so this stays valid until a `J`
/// disappears from the grid.
#[derive(Debug, Clone)]
pub struct DistancesTo {
    target: Pos,
    cols: usize,
    /// Ticks to the target per state ([`state_index`]); [`FAR`] when it cannot be reached.
    dist: Vec<u16>,
}

impl DistancesTo {
    /// Breadth-first search backwards from `target` over (cell, holds Jump) states.
    pub fn new(grid: &Grid, target: Pos, stop: Option<Pos>) -> DistancesTo {
        let cols = grid.cols();
        let stop = stop.filter(|s| *s != target);
        let mut dist = vec![FAR; grid.rows() * cols * 2];
        let walkable = |p: Pos| grid.get(p).is_some_and(Cell::is_walkable);
        if walkable(target) {
            let mut queue = VecDeque::new();
            for jump in [false, true] {
                dist[state_index(cols, target, jump)] = 0;
                queue.push_back((target, jump));
            }
            while let Some((q, jq)) = queue.pop_front() {
                let d = dist[state_index(cols, q, jq)];
                // Whether a player held Jump before moving to q: as after, unless q holds a J
                // (then it holds Jump after, either way).
                let before: &[bool] = match (grid.get(q) == Some(Cell::Jump), jq) {
                    (true, true) => &[false, true],
                    (true, false) => &[],
                    (false, true) => &[true],
                    (false, false) => &[false],
                };
                for &jp in before {
                    let reach: &[i32] = if jp { &[1, 2] } else { &[1] };
                    for &k in reach {
                        for (dx, dy) in OFFSETS {
                            let p = Pos::new(q.x - dx * k, q.y - dy * k);
                            if !walkable(p) || Some(p) == stop || check_move(grid, p, q, jp).is_err() {
                                continue;
                            }
                            let slot = &mut dist[state_index(cols, p, jp)];
                            if *slot == FAR {
                                *slot = d + 1;
                                queue.push_back((p, jp));
                            }
                        }
                    }
                }
            }
        }
        DistancesTo { target, cols, dist }
    }

    /// The cell these distances lead to.
    pub fn target(&self) -> Pos {
        self.target
    }

    /// Ticks from `from` (holding Jump when `has_jump`) to the target, or `None` when it
    /// cannot be reached (or `from` is off the map).
    pub fn get(&self, from: Pos, has_jump: bool) -> Option<u32> {
        if from.x < 0 || from.y < 0 || from.y as usize >= self.cols {
            return None;
        }
        let d = *self.dist.get(state_index(self.cols, from, has_jump))?;
        (d != FAR).then_some(u32::from(d))
    }

    /// The first move of a shortest path from `from` to the target (`None` when there is none,
    /// or `from` is the target). `grid` must be the one these distances were computed on.
    pub fn next_step(&self, grid: &Grid, from: Pos, has_jump: bool) -> Option<Pos> {
        let d = self.get(from, has_jump)?;
        if d == 0 {
            return None;
        }
        successors(grid, from, has_jump).find(|&(q, j)| self.get(q, j) == Some(d - 1)).map(|(q, _)| q)
    }

    /// Every move of a shortest path from `from` to the target, the target last (empty when
    /// `from` is the target; `None` when it cannot be reached).
    pub fn path(&self, grid: &Grid, from: Pos, has_jump: bool) -> Option<Vec<Pos>> {
        let d = self.get(from, has_jump)?;
        let mut path = Vec::with_capacity(d as usize);
        let (mut at, mut jump) = (from, has_jump);
        while at != self.target {
            let q = self.next_step(grid, at, jump)?;
            jump = jump || grid.get(q) == Some(Cell::Jump);
            at = q;
            path.push(q);
        }
        Some(path)
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

    #[test]
    fn on_the_course_duel_map_only_a_jump_reaches_the_final() {
        let spec = MapSpec::parse(include_str!("../../maps/duel.txt")).unwrap();
        let fin = spec.final_pos;
        let to_final = DistancesTo::new(&spec.grid, fin, Some(fin));
        for start in spec.starts {
            assert_eq!(Distances::avoiding(&spec.grid, start, false, Some(fin)).get(fin), None, "walking from {start}");
            let d = to_final.get(start, false).expect("reachable through a J");
            assert!(d <= spec.rounds);
            assert_eq!(Distances::planning_jumps(&spec.grid, start, false, Some(fin)).get(fin), Some(d));
            let path = to_final.path(&spec.grid, start, false).unwrap();
            assert_eq!(path.len() as u32, d);
            assert!(path.iter().any(|p| spec.grid.get(*p) == Some(Cell::Jump)), "the way takes a J: {path:?}");
        }
    }

    /// Forward breadth-first search over (cell, holds Jump) from one state: the ticks to `to`.
    fn brute_force(grid: &Grid, from: Pos, jump: bool, to: Pos, stop: Option<Pos>) -> Option<u32> {
        let mut seen = std::collections::HashSet::from([(from, jump)]);
        let mut queue = VecDeque::from([(from, jump, 0)]);
        while let Some((p, j, d)) = queue.pop_front() {
            if p == to {
                return Some(d);
            }
            if Some(p) == stop && p != from {
                continue;
            }
            for q in safe_moves(grid, p, j) {
                let jq = j || grid.get(q) == Some(Cell::Jump);
                if seen.insert((q, jq)) {
                    queue.push_back((q, jq, d + 1));
                }
            }
        }
        None
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn distances_to_agree_with_a_forward_search(
            cells in proptest::collection::vec(0usize..8, 16..=30),
            cols in 3usize..=6,
            target in 0usize..30,
            stop in 0usize..30,
        ) {
            let tokens = ["0", "0", "5", "W", "E", "F", "J", "J"];
            let rows = cells.len() / cols;
            let grid = Grid::from_rows(
                (0..rows).map(|x| (0..cols).map(|y| Cell::parse(tokens[cells[x * cols + y]]).unwrap()).collect()).collect(),
            );
            let at = |k: usize| Pos::new((k % (rows * cols) / cols) as i32, (k % cols) as i32);
            let (target, stop) = (at(target), Some(at(stop)));
            let to = DistancesTo::new(&grid, target, stop);
            for from in grid.positions().filter(|p| grid.get(*p).is_some_and(Cell::is_walkable)) {
                for jump in [false, true] {
                    let expected = brute_force(&grid, from, jump, target, stop.filter(|s| *s != target))
                        .filter(|_| grid.get(target).is_some_and(Cell::is_walkable) && Some(from) != stop.filter(|s| *s != target));
                    proptest::prop_assert_eq!(to.get(from, jump), expected, "from {} jump {}", from, jump);
                    let forward = Distances::planning_jumps(&grid, from, jump, stop).get(target);
                    if Some(from) != stop && grid.get(target).is_some_and(Cell::is_walkable) {
                        proptest::prop_assert_eq!(forward, expected, "forward from {} jump {}", from, jump);
                    }
                    if let Some(path) = to.path(&grid, from, jump) {
                        proptest::prop_assert_eq!(Some(path.len() as u32), expected);
                        let (mut p, mut j) = (from, jump);
                        for &q in &path {
                            proptest::prop_assert!(safe_moves(&grid, p, j).contains(&q), "{} to {}", p, q);
                            proptest::prop_assert!(Some(q) != stop || q == target, "through the stop cell");
                            j = j || grid.get(q) == Some(Cell::Jump);
                            p = q;
                        }
                        proptest::prop_assert_eq!(p, target);
                    }
                }
            }
        }
    }
}
