//! The `reference` strategy: plans a whole route and replans every tick.
//!
//! Walls, voids and fire never change during a game (collecting only turns cells into `0`),
//! so shortest distances from every item and from the final are computed once, with and
//! without Jump, over precomputed move lists. A route is a sequence of items to collect before
//! heading for the final; it is valued by walking it (each item's value times the multiplier
//! held when it is reached, Jump shortening everything after a `J`) and is feasible when the
//! final is still reached in time. An iterated local search (insert, remove, relocate, reverse,
//! then perturb and search again) improves the route; its effort is counted in evaluations,
//! not seconds, so the bot plays the same game on any machine.
//!
//! Every tick the bot steps along a shortest path to the route's next item, preferring steps
//! that pick something up on the way, and it never takes a route that misses the final: a
//! feasible route stays feasible as the game goes on, so the bot always finishes in time.
//! In a duel it leaves out items the opponent is strictly closer to.

use bot_sdk::path::{legal_moves, safe_moves};
use bot_sdk::{Action, Bot, Cell, GameState, Grid, Pos};

/// Unreachable.
const FAR: u16 = u16::MAX;

/// Local-search effort: route evaluations on the first tick, then per tick.
const FIRST_BUDGET: usize = 400_000;
const TICK_BUDGET: usize = 20_000;

/// The reference strategy (see the module docs).
#[derive(Debug, Default)]
pub struct Reference {
    planner: Option<Planner>,
    route: Vec<usize>,
    seed: u64,
    /// Where the opponent was last tick, and for how many ticks it has not moved.
    rival: Option<(Pos, u32)>,
}

/// Distance tables over a fixed grid.
#[derive(Debug)]
struct Planner {
    cols: usize,
    /// Item cells, as found on the first tick.
    items: Vec<Pos>,
    /// `dist[node][jump][cell]`: ticks between `node` (an item, or the final at index
    /// `items.len()`) and `cell`; moves are symmetric, so either way round.
    dist: Vec<[Vec<u16>; 2]>,
}

/// Where a route starts from.
#[derive(Debug, Clone, Copy)]
struct Start {
    cell: usize,
    jump: bool,
    multiplier: i64,
    limit: u32,
}

impl Planner {
    fn new(grid: &Grid, final_pos: Pos) -> Planner {
        let cols = grid.cols();
        let cells = grid.rows() * cols;
        let index = |p: Pos| p.x as usize * cols + p.y as usize;
        // Move lists (fire excluded: entering it is never worth it), without and with Jump.
        let mut adjacency: [Vec<Vec<u32>>; 2] = [vec![Vec::new(); cells], vec![Vec::new(); cells]];
        for p in grid.positions() {
            for (j, jump) in [false, true].into_iter().enumerate() {
                adjacency[j][index(p)] = safe_moves(grid, p, jump).into_iter().map(|q| index(q) as u32).collect();
            }
        }
        let items: Vec<Pos> = grid.positions().filter(|p| grid.get(*p).is_some_and(Cell::is_collectable)).collect();
        let bfs = |from: usize, adj: &Vec<Vec<u32>>| {
            let mut dist = vec![FAR; cells];
            let mut queue = std::collections::VecDeque::from([from]);
            dist[from] = 0;
            while let Some(c) = queue.pop_front() {
                for &n in &adj[c] {
                    if dist[n as usize] == FAR {
                        dist[n as usize] = dist[c] + 1;
                        queue.push_back(n as usize);
                    }
                }
            }
            dist
        };
        let dist = items
            .iter()
            .chain(std::iter::once(&final_pos))
            .map(|&p| [bfs(index(p), &adjacency[0]), bfs(index(p), &adjacency[1])])
            .collect();
        Planner { cols, items, dist }
    }

    fn cell(&self, p: Pos) -> usize {
        p.x as usize * self.cols + p.y as usize
    }

    fn final_node(&self) -> usize {
        self.items.len()
    }

    /// When (in ticks from now) the opponent is expected to take each item, if it keeps
    /// walking to the nearest one (`u32::MAX`: never). Used only for an opponent that moves.
    fn predict_takes(&self, grid: &Grid, from: Pos, jump: bool, horizon: u32) -> Vec<u32> {
        let mut takes = vec![u32::MAX; self.items.len()];
        let mut left: Vec<usize> =
            (0..self.items.len()).filter(|&k| grid.get(self.items[k]).is_some_and(Cell::is_collectable)).collect();
        let (mut cell, mut jump, mut time) = (self.cell(from), jump, 0u32);
        while let Some((i, d)) = left
            .iter()
            .enumerate()
            .map(|(i, &k)| (i, self.dist[k][jump as usize][cell]))
            .filter(|(_, d)| *d > 0 && *d != FAR)
            .min_by_key(|&(i, d)| (d, self.items[left[i]].x, self.items[left[i]].y))
        {
            time += u32::from(d);
            if time > horizon {
                break;
            }
            let k = left.swap_remove(i);
            takes[k] = time;
            cell = self.cell(self.items[k]);
            jump |= grid.get(self.items[k]) == Some(Cell::Jump);
        }
        takes
    }

    /// Walks `route` from `start` over `grid`: its score and the ticks it takes to finish, or
    /// `None` when the final is not reached in time. An item reached no earlier than the
    /// opponent is expected to take it (`takes`) gives nothing.
    fn evaluate(&self, grid: &Grid, start: Start, takes: &[u32], route: &[usize]) -> Option<(i64, u32)> {
        let (mut cell, mut jump, mut mult, mut score, mut time) =
            (start.cell, start.jump, start.multiplier, 0i64, 0u32);
        for &k in route {
            let mut d = self.dist[k][jump as usize][cell];
            if d == 0 {
                // An item under the bot is only taken by stepping off and back on.
                d = 2;
            }
            if d == FAR {
                return None;
            }
            time += u32::from(d);
            if time > start.limit {
                return None;
            }
            cell = self.cell(self.items[k]);
            if time >= takes[k] {
                continue;
            }
            match grid.get(self.items[k]) {
                Some(Cell::Resource(v)) => score = score.saturating_add(i64::from(v).saturating_mul(mult)),
                Some(Cell::Jump) => jump = true,
                Some(Cell::Double) => mult = mult.saturating_mul(2),
                Some(Cell::Triple) => mult = mult.saturating_mul(3),
                _ => {}
            }
        }
        let d = self.dist[self.final_node()][jump as usize][cell];
        if d == FAR || time + u32::from(d) > start.limit {
            return None;
        }
        Some((score, time + u32::from(d)))
    }
}

/// A small deterministic random source (xorshift), so that plans do not depend on the machine.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Route search state.
struct Search<'a> {
    planner: &'a Planner,
    grid: &'a Grid,
    start: Start,
    takes: Vec<u32>,
    candidates: Vec<usize>,
    budget: usize,
}

type Value = (i64, std::cmp::Reverse<u32>);

impl Search<'_> {
    fn value(&mut self, route: &[usize]) -> Option<Value> {
        self.budget = self.budget.saturating_sub(1);
        self.planner.evaluate(self.grid, self.start, &self.takes, route).map(|(s, t)| (s, std::cmp::Reverse(t)))
    }

    /// Applies the best improving insert, remove, relocate or reversal until none improves.
    fn local_search(&mut self, route: &mut Vec<usize>) -> Option<Value> {
        let mut best = self.value(route)?;
        loop {
            if self.budget == 0 {
                return Some(best);
            }
            let mut improved: Option<(Value, Vec<usize>)> = None;
            let consider = |s: &mut Self, cand: Vec<usize>, improved: &mut Option<(Value, Vec<usize>)>| {
                if let Some(v) = s.value(&cand) {
                    if v > improved.as_ref().map_or(best, |(b, _)| *b) {
                        *improved = Some((v, cand));
                    }
                }
            };
            // Insert an item not on the route.
            let on_route: std::collections::HashSet<usize> = route.iter().copied().collect();
            for &k in &self.candidates.clone() {
                if on_route.contains(&k) || self.budget == 0 {
                    continue;
                }
                for at in 0..=route.len() {
                    let mut cand = route.clone();
                    cand.insert(at, k);
                    consider(self, cand, &mut improved);
                }
            }
            // Remove, or move elsewhere, an item on the route.
            for i in 0..route.len() {
                let mut without = route.clone();
                let k = without.remove(i);
                consider(self, without.clone(), &mut improved);
                for at in 0..=without.len() {
                    if at != i {
                        let mut cand = without.clone();
                        cand.insert(at, k);
                        consider(self, cand, &mut improved);
                    }
                }
            }
            // Reverse a stretch.
            for i in 0..route.len() {
                for j in i + 2..=route.len() {
                    let mut cand = route.clone();
                    cand[i..j].reverse();
                    consider(self, cand, &mut improved);
                }
            }
            match improved {
                Some((v, cand)) => {
                    best = v;
                    *route = cand;
                }
                None => return Some(best),
            }
        }
    }

    /// Local search, then perturb (drop a random stretch) and search again while the budget
    /// lasts, keeping the best route found.
    fn improve(&mut self, route: &mut Vec<usize>, seed: &mut u64) {
        let Some(mut best) = self.local_search(route) else { return };
        while self.budget > 0 && !route.is_empty() {
            let mut trial = route.clone();
            let len = 1 + (next(seed) as usize % trial.len().min(6));
            let at = next(seed) as usize % (trial.len() - len + 1);
            trial.drain(at..at + len);
            if let Some(v) = self.local_search(&mut trial) {
                if v > best {
                    best = v;
                    *route = trial;
                }
            }
        }
    }
}

impl Reference {
    /// The route to follow from `s`, improved from the previous one.
    fn plan(&mut self, s: &GameState) {
        let planner = self.planner.get_or_insert_with(|| Planner::new(&s.grid, s.final_pos()));
        let available = |k: usize| s.grid.get(planner.items[k]).is_some_and(Cell::is_collectable);
        let start =
            Start { cell: planner.cell(s.me.pos), jump: s.me.jump, multiplier: s.me.multiplier, limit: s.ticks_left() };
        // A moving opponent is expected to keep taking the nearest item; one that has stood
        // still for a few ticks, or finished, takes nothing.
        self.rival = Some(match self.rival {
            Some((at, still)) if at == s.opponent.pos => (at, still + 1),
            _ => (s.opponent.pos, 0),
        });
        let rival_moves =
            s.tick > 1 && self.rival.is_some_and(|(_, still)| still < 3) && s.opponent.pos != s.final_pos();
        let takes = if rival_moves {
            planner.predict_takes(&s.grid, s.opponent.pos, s.opponent.jump, start.limit)
        } else {
            vec![u32::MAX; planner.items.len()]
        };
        let candidates: Vec<usize> = (0..planner.items.len()).filter(|&k| available(k)).collect();
        let first = self.route.is_empty() && s.tick <= 1;
        let mut route: Vec<usize> = self.route.iter().copied().filter(|&k| available(k)).collect();
        let mut search = Search {
            planner,
            grid: &s.grid,
            start,
            takes,
            candidates,
            budget: if first { FIRST_BUDGET } else { TICK_BUDGET },
        };
        if search.value(&route).is_none() {
            // Make the route feasible: the best single item (a `J`, when only jumping reaches
            // the final), else nothing.
            route = std::iter::once(Vec::new())
                .chain(search.candidates.clone().into_iter().map(|k| vec![k]))
                .filter_map(|r| search.value(&r).map(|v| (v, r)))
                .max_by_key(|(v, _)| *v)
                .map(|(_, r)| r)
                .unwrap_or_default();
        }
        search.improve(&mut route, &mut self.seed);
        self.route = route;
    }
}

impl Bot for Reference {
    fn start(&mut self, state: &GameState) {
        self.seed = 0x9E37_79B9_7F4A_7C15 ^ (state.spec.rounds as u64);
    }

    fn act(&mut self, s: &GameState) -> Action {
        self.plan(s);
        let Some(planner) = &self.planner else { return Action::Wait };
        let target = self.route.first().copied().unwrap_or(planner.final_node());
        let table = &planner.dist[target][s.me.jump as usize];
        let here = table[planner.cell(s.me.pos)];
        if here == FAR || (here == 0 && self.route.is_empty()) {
            return Action::Wait;
        }
        let gain = |p: Pos| match s.grid.get(p) {
            Some(Cell::Resource(v)) => i64::from(v) * s.me.multiplier,
            Some(Cell::Double | Cell::Triple) => 1_000_000,
            Some(Cell::Jump) if !s.me.jump => 1_000,
            _ => 0,
        };
        let safe: Vec<Pos> = legal_moves(&s.grid, s.me.pos, s.me.jump)
            .into_iter()
            .filter(|&q| s.grid.get(q) != Some(Cell::Fire))
            .collect();
        if here == 0 {
            // The next item is under the bot: step off (onto the best neighbour), then back.
            return safe
                .into_iter()
                .max_by_key(|&q| (gain(q), std::cmp::Reverse((q.x, q.y))))
                .map_or(Action::Wait, Action::Move);
        }
        // A step one closer to the target, preferring one that picks something up.
        safe.into_iter()
            .filter(|&q| table[planner.cell(q)] == here - 1)
            .max_by_key(|&q| (gain(q), std::cmp::Reverse((q.x, q.y))))
            .map_or(Action::Wait, Action::Move)
    }
}
