//! The best score a bot can reach on a single-player test, against the file's scripted
//! opponent: exact by search over every reachable state, or an upper bound when the map is
//! too large for that.
//!
//! The exact search walks the ticks in order. A state is (cell, Jump, multiplier, items taken
//! so far); for each it keeps the best score. States that can no longer reach the final in
//! time are dropped (sound: such a bot cannot pass). The scripted opponent's move of each tick
//! is applied first and removes its item from every state, as in the checker.

use std::collections::HashMap;

use bot_sdk::path::{legal_moves, Distances};
use bot_sdk::{Cell, MapSpec, Pos};

/// What the solver found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solution {
    /// The best achievable score, proved by exhaustive search.
    Exact(i64),
    /// No bot can score more than this (the search was too large to finish).
    AtMost(i64),
    /// No bot can reach the final in time.
    Impossible,
}

/// Most states kept at one tick before the exact search gives up for the bound.
pub const DEFAULT_STATE_LIMIT: usize = 2_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    pos: Pos,
    jump: bool,
    multiplier: i64,
    taken: u64,
}

/// Solves `spec` exactly when it has at most 64 items and no tick holds more than `limit`
/// states; otherwise returns the upper bound.
pub fn solve(spec: &MapSpec, limit: usize) -> Solution {
    let grid = &spec.grid;
    let walk = Distances::from(grid, spec.final_pos, false);
    let fly = Distances::from(grid, spec.final_pos, true);
    // With no `J` on the map nobody ever jumps; with one, jumping all the way is optimistic.
    let can_jump = grid.positions().any(|p| grid.get(p) == Some(Cell::Jump));
    let from_start = Distances::from(grid, spec.starts[0], can_jump);
    let fly = if can_jump { fly } else { Distances::from(grid, spec.final_pos, false) };
    // Only items on some way to the final in time matter: stepping on any other one leaves the
    // bot unable to finish, and such states are dropped anyway.
    let items: Vec<Pos> = grid
        .positions()
        .filter(|p| grid.get(*p).is_some_and(Cell::is_collectable))
        .filter(|p| matches!((from_start.get(*p), fly.get(*p)), (Some(a), Some(b)) if a + b <= spec.rounds))
        .collect();
    if fly.get(spec.starts[0]).is_none_or(|d| d > spec.rounds) {
        return Solution::Impossible;
    }
    if items.len() > 64 {
        return upper_bound(spec);
    }
    let bit = |p: Pos| items.iter().position(|q| *q == p).map(|i| 1u64 << i);
    let jump_bits: u64 = items.iter().filter(|p| grid.get(**p) == Some(Cell::Jump)).filter_map(|p| bit(*p)).sum();
    let mut states: HashMap<Key, i64> = HashMap::new();
    states.insert(Key { pos: spec.starts[0], jump: false, multiplier: 1, taken: 0 }, 0);
    let mut opponent_taken = 0u64;
    let mut best: Option<i64> = None;
    for t in 1..=spec.rounds {
        if let Some(bot_sdk::rules::Action::Move(p)) = spec.script.get(t as usize - 1).map(|s| s.action) {
            opponent_taken |= bit(p).unwrap_or(0);
        }
        let left = spec.rounds - t;
        let mut next: HashMap<Key, i64> = HashMap::new();
        for (key, score) in states {
            let taken = key.taken | opponent_taken;
            let mut options = legal_moves(grid, key.pos, key.jump);
            options.retain(|q| grid.get(*q) != Some(Cell::Fire));
            options.push(key.pos);
            for dest in options {
                let mut k = Key { pos: dest, taken, ..key };
                let mut s = score;
                let moved = dest != key.pos;
                if let (true, Some(b)) = (moved, bit(dest)) {
                    if taken & b == 0 {
                        k.taken |= b;
                        match grid.get(dest) {
                            Some(Cell::Resource(v)) => s = s.saturating_add(i64::from(v).saturating_mul(k.multiplier)),
                            Some(Cell::Jump) => k.jump = true,
                            Some(Cell::Double) => k.multiplier = k.multiplier.saturating_mul(2),
                            Some(Cell::Triple) => k.multiplier = k.multiplier.saturating_mul(3),
                            _ => {}
                        }
                    }
                }
                if dest == spec.final_pos {
                    best = Some(best.map_or(s, |b| b.max(s)));
                    continue;
                }
                let can_fly = k.jump || (jump_bits & !k.taken) != 0;
                let to_final = if can_fly { fly.get(dest) } else { walk.get(dest) };
                if to_final.is_none_or(|d| d > left) {
                    continue;
                }
                let slot = next.entry(k).or_insert(s);
                *slot = (*slot).max(s);
            }
        }
        if next.len() > limit {
            return upper_bound(spec);
        }
        states = next;
    }
    best.map_or(Solution::Impossible, Solution::Exact)
}

/// A valid upper bound: every resource the bot could visit on some way to the final in time,
/// each worth its value times the product of every reachable `D` and `T`.
pub fn upper_bound(spec: &MapSpec) -> Solution {
    let grid = &spec.grid;
    let can_jump = grid.positions().any(|p| grid.get(p) == Some(Cell::Jump));
    let from_start = Distances::from(grid, spec.starts[0], can_jump);
    let to_final = Distances::from(grid, spec.final_pos, can_jump);
    let reachable = |p: Pos| matches!((from_start.get(p), to_final.get(p)), (Some(a), Some(b)) if a + b <= spec.rounds);
    let mut multiplier = 1i64;
    let mut sum = 0i64;
    for p in grid.positions().filter(|p| reachable(*p)) {
        match grid.get(p) {
            Some(Cell::Resource(v)) => sum = sum.saturating_add(i64::from(v)),
            Some(Cell::Double) => multiplier = multiplier.saturating_mul(2),
            Some(Cell::Triple) => multiplier = multiplier.saturating_mul(3),
            _ => {}
        }
    }
    if from_start.get(spec.final_pos).is_none_or(|d| d > spec.rounds) {
        return Solution::Impossible;
    }
    Solution::AtMost(sum.saturating_mul(multiplier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Reply, State, Turn};
    use crate::games::resource_rush::ResourceRush;

    /// The best finishing score over every possible sequence of answers, played through the
    /// real game: the reference the solver is checked against.
    fn brute_force(state: &ResourceRush) -> Option<i64> {
        if state.turn() != Turn::Sequential(0) {
            let out = &state.outcome().players[0];
            return out.finished.then_some(out.score);
        }
        let me = state.player(0);
        let mut answers = vec!["WAIT".to_string()];
        answers.extend(legal_moves(state.grid(), me.pos, me.jump).iter().map(|p| format!("MOVE {} {}", p.x, p.y)));
        answers
            .into_iter()
            .filter_map(|a| {
                let mut next = state.clone();
                next.apply(&[(0, Reply::Line(a))]);
                brute_force(&next)
            })
            .max()
    }

    /// A small deterministic generator for random tiny maps.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random_map(rng: &mut Rng) -> String {
        let (rows, cols) = (1 + rng.next(3) as i32, 2 + rng.next(3) as i32);
        let rounds = 2 + rng.next(5);
        let tokens = ["0", "0", "3", "5", "9", "W", "E", "F", "J", "D", "T"];
        let mut cells: Vec<Vec<&str>> =
            (0..rows).map(|_| (0..cols).map(|_| tokens[rng.next(tokens.len() as u64) as usize]).collect()).collect();
        let pick = |rng: &mut Rng| (rng.next(rows as u64) as i32, rng.next(cols as u64) as i32);
        let (start, opp, fin) = (pick(rng), pick(rng), pick(rng));
        for (x, y) in [start, opp, fin] {
            if !["0", "3", "5", "9", "J", "D", "T"].contains(&cells[x as usize][y as usize]) {
                cells[x as usize][y as usize] = "0";
            }
        }
        let mut text = format!(
            "ARENA {rows} {cols} {rounds}\n{} {}\n{} {}\n{} {}\nMAP\n",
            start.0, start.1, opp.0, opp.1, fin.0, fin.1
        );
        for row in &cells {
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        // The scripted opponent wanders onto random cells next to it (unchecked, like files).
        let mut at = opp;
        for t in 1..=rounds {
            if rng.next(2) == 0 {
                text.push_str(&format!("TICK {t} WAIT\n"));
            } else {
                at = (
                    (at.0 + rng.next(3) as i32 - 1).clamp(0, rows - 1),
                    (at.1 + rng.next(3) as i32 - 1).clamp(0, cols - 1),
                );
                text.push_str(&format!("TICK {t} MOVE {} {}\n", at.0, at.1));
            }
        }
        text
    }

    #[test]
    fn the_solver_matches_brute_force_on_tiny_random_maps() {
        let mut rng = Rng(7);
        let mut exact = 0;
        for _ in 0..400 {
            let text = random_map(&mut rng);
            let spec = MapSpec::parse(&text).unwrap();
            let truth = brute_force(&ResourceRush::test(spec.clone(), false));
            match solve(&spec, DEFAULT_STATE_LIMIT) {
                Solution::Exact(score) => {
                    assert_eq!(Some(score), truth, "{text}");
                    exact += 1;
                }
                Solution::Impossible => assert_eq!(truth, None, "{text}"),
                Solution::AtMost(_) => panic!("tiny maps are solved exactly"),
            }
        }
        assert!(exact > 100, "enough maps can be finished to mean something ({exact})");
    }

    #[test]
    fn the_bound_is_never_below_the_optimum() {
        let mut rng = Rng(11);
        for _ in 0..200 {
            let spec = MapSpec::parse(&random_map(&mut rng)).unwrap();
            if let (Solution::Exact(best), Solution::AtMost(bound)) =
                (solve(&spec, DEFAULT_STATE_LIMIT), upper_bound(&spec))
            {
                assert!(bound >= best, "bound {bound} < optimum {best}");
            }
        }
    }

    #[test]
    fn a_state_limit_falls_back_to_the_bound() {
        let text = "ARENA 3 3 6\n0 0\n0 0\n2 2\nMAP\n0 5 5\n5 5 5\n5 5 0\nEND_MAP\nSTREAM\n";
        let spec = MapSpec::parse(text).unwrap();
        assert_eq!(solve(&spec, DEFAULT_STATE_LIMIT), Solution::Exact(25), "six steps take five 5s");
        assert_eq!(solve(&spec, 1), upper_bound(&spec));
        assert_eq!(upper_bound(&spec), Solution::AtMost(35));
    }
}
