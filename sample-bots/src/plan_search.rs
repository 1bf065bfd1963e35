//! Plans for the single-player problem (the bot alone on the map, against a known list of
//! cells a scripted opponent clears and when), searched tick by tick over the real rules.
//!
//! A state is (cell, Jump, multiplier, items no longer available); states that cannot reach
//! the final in time are dropped, equal states keep the best score, and a state seen at an
//! earlier tick with at least the same score dominates a later one. Two modes share the code:
//! - **beam**: only the most promising states of each tick are kept; a quick plan, no proof;
//! - **exact**: every state is kept unless an admissible bound shows it cannot beat the
//!   incumbent, so a search that finishes within its state budget proves its answer optimal.
//!
//! Waiting is never expanded: dropping the waits from a plan collects the same items sooner,
//! which the opponent can only make better. Effort is counted in states, not seconds, so a
//! search gives the same answer on every machine.

use rustc_hash::FxHashMap as HashMap;

use crate::work::{charge, Work};
use bot_sdk::path::safe_moves;
use bot_sdk::{Action, Cell, Grid, MapSpec, Pos};

/// The problem: where the bot stands, what it holds, how many ticks it has, and when the
/// scripted opponent clears which cell (ticks counted from 1 = the bot's next answer).
#[derive(Debug, Clone)]
pub struct Problem {
    /// The map as it is now.
    pub grid: Grid,
    /// Where the bot stands (nothing is collected here until it steps off and back).
    pub start: Pos,
    /// The final cell.
    pub final_pos: Pos,
    /// Whether the bot holds Jump.
    pub jump: bool,
    /// The bot's multiplier.
    pub multiplier: i64,
    /// Ticks left to reach the final.
    pub ticks: u32,
    /// `(cell, t)`: the opponent moves onto `cell` at tick `t`, before the bot's move.
    pub cleared: Vec<(Pos, u32)>,
}

impl Problem {
    /// The single-player problem of a test file: player 1 from its start, the scripted
    /// opponent's moves as the cells it clears.
    pub fn of_test(spec: &MapSpec) -> Problem {
        let cleared = spec
            .script
            .iter()
            .filter_map(|s| match s.action {
                Action::Move(p) => Some((p, s.tick)),
                Action::Wait => None,
            })
            .collect();
        Problem {
            grid: spec.grid.clone(),
            start: spec.starts[0],
            final_pos: spec.final_pos,
            jump: false,
            multiplier: 1,
            ticks: spec.rounds,
            cleared,
        }
    }

    /// The problem left after the bot played `moves` from this one (the opponent clearing
    /// first at each tick, as in tests): `None` when a move breaks the rules, enters fire or
    /// reaches the final, or the moves outlast the ticks.
    pub fn after(&self, moves: &[Action]) -> Option<Problem> {
        let played = u32::try_from(moves.len()).ok().filter(|&n| n < self.ticks)?;
        let mut rest = self.clone();
        for (t, &action) in (1..).zip(moves) {
            if rest.play(t, action)?.1 {
                return None;
            }
        }
        rest.cleared = self.cleared.iter().filter(|&&(_, t)| t > played).map(|&(q, t)| (q, t - played)).collect();
        rest.ticks -= played;
        Some(rest)
    }

    /// Plays tick `t` (counted from this problem's first) from the state this problem holds: the
    /// opponent's clearing, then `action`. Returns the points it scored and whether the bot now
    /// stands on the final; `None` when the move breaks the rules or enters fire. (`start`,
    /// `jump`, `multiplier` and the map follow; `ticks` and `cleared` do not.)
    pub fn play(&mut self, t: u32, action: Action) -> Option<(i64, bool)> {
        for &(q, _) in self.cleared.iter().filter(|&&(_, when)| when == t) {
            if self.grid.get(q).is_some_and(Cell::is_collectable) {
                self.grid.set(q, Cell::Floor);
            }
        }
        let Action::Move(to) = action else {
            return Some((0, self.start == self.final_pos));
        };
        bot_sdk::rules::check_move(&self.grid, self.start, to, self.jump).ok()?;
        let mut points = 0;
        match self.grid.get(to)? {
            Cell::Resource(v) => points = i64::from(v).saturating_mul(self.multiplier),
            Cell::Jump => self.jump = true,
            Cell::Double => self.multiplier = self.multiplier.saturating_mul(2),
            Cell::Triple => self.multiplier = self.multiplier.saturating_mul(3),
            Cell::Fire => return None,
            _ => {}
        }
        if self.grid.get(to).is_some_and(Cell::is_collectable) {
            self.grid.set(to, Cell::Floor);
        }
        self.start = to;
        Some((points, to == self.final_pos))
    }
}

/// A plan: one move per tick until the final, and what it scores from the problem's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Points the plan collects.
    pub score: i64,
    /// The bot's answer for each tick; the last one reaches the final.
    pub moves: Vec<Action>,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Exact search: this plan is optimal (or, with an incumbent, the best plan that beats it).
    Optimal(Plan),
    /// Exact search: no plan scores more than the incumbent.
    NoneBetter,
    /// Beam search: the best plan kept (no proof).
    Found(Plan),
    /// The state budget ran out before the search finished.
    OverBudget,
    /// No plan reaches the final in time.
    Impossible,
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A resource worth this much (times the multiplier).
    Resource(i64),
    /// Jump.
    Jump,
    /// Multiplies the multiplier by 2 or 3.
    Multiplier(i64),
}

/// Unreachable.
pub const FAR: u16 = u16::MAX;

/// The problem prepared for search: move lists, the items that matter, distances.
#[derive(Debug)]
pub struct Model {
    cols: usize,
    problem: Problem,
    /// Safe moves from each cell, without and with Jump (fire is never worth entering).
    moves: [Vec<Vec<u32>>; 2],
    /// Cells of the items that some plan could still collect, with what they are.
    items: Vec<(u32, Item)>,
    item_at: Vec<Option<u32>>,
    /// `deadline[i]`: item `i` can be collected only at ticks before this one.
    deadline: Vec<u32>,
    /// Ticks from each cell to the final, without and with Jump.
    to_final: [Vec<u16>; 2],
    /// Whether Jump is (or may become) part of the problem: the distances below assume it.
    may_jump: bool,
    /// Ticks from each cell to each item (with Jump when `may_jump`), never through the final.
    item_dist: Vec<Vec<u16>>,
    /// Resource items and their values, largest first (for the bound).
    by_value: Vec<(u32, i64)>,
    /// Multiplier items and their factors (for the bound).
    multipliers: Vec<(u32, i64)>,
    from_start: Vec<u16>,
    /// The rows' span and `reach[(cell * span + left) * words ..]`: see [`Model::reach`].
    reach: std::sync::OnceLock<(usize, Vec<u64>)>,
    /// `dead[tick * words ..]`: items the opponent clears by tick + 1.
    dead: Vec<u64>,
    /// Indexes of the `J` items.
    jumps: Vec<usize>,
    /// Ticks from each cell to each item without Jump (filled for the `J` items only).
    jump_walk: Vec<Vec<u16>>,
    words: usize,
}

fn has(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// Safe moves (fire excluded: entering it is never worth it) from each cell, as row-major
/// indexes, without and with Jump.
pub fn move_lists(grid: &Grid) -> [Vec<Vec<u32>>; 2] {
    let cols = grid.cols();
    let index = |p: Pos| p.x as usize * cols + p.y as usize;
    let mut moves: [Vec<Vec<u32>>; 2] = [vec![Vec::new(); grid.rows() * cols], vec![Vec::new(); grid.rows() * cols]];
    for p in grid.positions() {
        for (j, jump) in [false, true].into_iter().enumerate() {
            moves[j][index(p)] = safe_moves(grid, p, jump).into_iter().map(|q| index(q) as u32).collect();
        }
    }
    moves
}

/// Breadth-first distances (in ticks, `u16::MAX`: unreachable) from `from` over the move lists
/// `adj`; no path goes on through `stop` (pass the final: stepping on it ends the game).
pub fn bfs(adj: &[Vec<u32>], from: usize, stop: usize) -> Vec<u16> {
    bfs_through(adj, from, &|c| c != stop)
}

/// [`bfs`] where paths go on only through the cells `through` accepts (and `from`): the others
/// are reached, never left.
pub fn bfs_through(adj: &[Vec<u32>], from: usize, through: &dyn Fn(usize) -> bool) -> Vec<u16> {
    let mut dist = vec![FAR; adj.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[from] = 0;
    while let Some(c) = queue.pop_front() {
        if c != from && !through(c) {
            continue;
        }
        for &n in &adj[c] {
            if dist[n as usize] == FAR {
                dist[n as usize] = dist[c] + 1;
                queue.push_back(n as usize);
            }
        }
    }
    dist
}

impl Model {
    /// Prepares `problem`.
    pub fn new(problem: Problem) -> Model {
        let grid = &problem.grid;
        let cols = grid.cols();
        let cells = grid.rows() * cols;
        let index = |p: Pos| p.x as usize * cols + p.y as usize;
        let moves = move_lists(grid);
        let fin = index(problem.final_pos);
        let to_final = [bfs(&moves[0], fin, fin), bfs(&moves[1], fin, fin)];
        let may_jump = problem.jump || grid.positions().any(|p| grid.get(p) == Some(Cell::Jump));
        let j = usize::from(may_jump);
        let start = index(problem.start);
        let from_start = bfs(&moves[j], start, fin);
        let mut first_clear = vec![u32::MAX; cells];
        for &(p, t) in &problem.cleared {
            if grid.in_bounds(p) {
                let c = &mut first_clear[index(p)];
                *c = (*c).min(t);
            }
        }
        let mut items = Vec::new();
        let mut deadline = Vec::new();
        let mut item_at = vec![None; cells];
        for p in grid.positions() {
            let c = index(p);
            let item = match grid.get(p) {
                Some(Cell::Resource(v)) => Item::Resource(i64::from(v)),
                Some(Cell::Jump) if !problem.jump => Item::Jump,
                Some(Cell::Double) => Item::Multiplier(2),
                Some(Cell::Triple) => Item::Multiplier(3),
                _ => continue,
            };
            // Reached at the earliest at tick `from_start` (or 2, for the cell under the bot).
            let earliest = if c == start { 2 } else { u32::from(from_start[c]) };
            let back = if c == fin { 0 } else { u32::from(to_final[j][c]) };
            if from_start[c] == FAR || to_final[j][c] == FAR || earliest + back > problem.ticks {
                continue;
            }
            if earliest >= first_clear[c] {
                continue;
            }
            item_at[c] = Some(items.len() as u32);
            items.push((c as u32, item));
            deadline.push(first_clear[c]);
        }
        let item_dist = items.iter().map(|&(c, _)| bfs(&moves[j], c as usize, fin)).collect();
        let mut by_value: Vec<(u32, i64)> = (0..items.len() as u32)
            .filter_map(|i| if let Item::Resource(v) = items[i as usize].1 { Some((i, v)) } else { None })
            .collect();
        by_value.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let multipliers = (0..items.len() as u32)
            .filter_map(|i| if let Item::Multiplier(k) = items[i as usize].1 { Some((i, k)) } else { None })
            .collect();
        let words = items.len().div_ceil(64).max(1);
        let jumps: Vec<usize> = (0..items.len()).filter(|&i| items[i].1 == Item::Jump).collect();
        let jump_walk = (0..items.len())
            .map(|i| if jumps.contains(&i) { bfs(&moves[0], items[i].0 as usize, fin) } else { Vec::new() })
            .collect();
        let mut dead = vec![0u64; (problem.ticks as usize + 1) * words];
        for t in 0..=problem.ticks {
            for (i, &d) in deadline.iter().enumerate() {
                if t + 1 >= d {
                    dead[t as usize * words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        Model {
            cols,
            problem,
            moves,
            items,
            item_at,
            deadline,
            to_final,
            may_jump,
            item_dist,
            by_value,
            multipliers,
            from_start,
            reach: std::sync::OnceLock::new(),
            dead,
            jumps,
            jump_walk,
            words,
        }
    }

    /// The problem this model was built from.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The items some plan could collect: cell index (row-major) and what it is.
    pub fn items(&self) -> &[(u32, Item)] {
        &self.items
    }

    /// The item index at a cell index, if any.
    pub fn item_at(&self, cell: usize) -> Option<usize> {
        self.item_at[cell].map(|i| i as usize)
    }

    /// Cell index of a position.
    pub fn cell(&self, p: Pos) -> usize {
        p.x as usize * self.cols + p.y as usize
    }

    /// Number of cells (row-major indexes).
    pub fn cells(&self) -> usize {
        self.item_at.len()
    }

    /// Safe moves from `cell`, with or without Jump.
    pub fn moves(&self, cell: usize, jump: bool) -> &[u32] {
        &self.moves[usize::from(jump)][cell]
    }

    /// Ticks from `cell` to the final (never through it), with or without Jump; `None` when
    /// unreachable.
    pub fn to_final(&self, cell: usize, jump: bool) -> Option<u32> {
        let d = self.to_final[usize::from(jump)][cell];
        (d != FAR).then_some(u32::from(d))
    }

    /// Ticks from item `i`'s cell to `cell` (with Jump when some `J` may be taken); `None` when
    /// unreachable.
    pub fn item_distance(&self, i: usize, cell: usize) -> Option<u32> {
        let d = self.item_dist[i][cell];
        (d != FAR).then_some(u32::from(d))
    }

    /// Ticks from the start to `cell` (with Jump when some `J` may be taken), never through
    /// the final; `None` when unreachable.
    pub fn from_start(&self, cell: usize) -> Option<u32> {
        let d = self.from_start[cell];
        (d != FAR).then_some(u32::from(d))
    }

    /// Item `i` can be collected only at ticks before this one.
    pub fn deadline(&self, i: usize) -> u32 {
        self.deadline[i]
    }

    /// Whether distances assume Jump (the bot holds it or a `J` may be taken).
    pub fn may_jump(&self) -> bool {
        self.may_jump
    }

    /// The cell at a row-major index.
    pub fn pos(&self, cell: usize) -> Pos {
        Pos::new((cell / self.cols) as i32, (cell % self.cols) as i32)
    }

    /// Ticks from `cell` to the final for a bot in this state (optimistic about an untaken `J`).
    /// Whether a bot at `cell` can still reach the final within `left` ticks: directly, or by
    /// way of a `J` it has not taken yet.
    fn can_finish(&self, cell: usize, jump: bool, taken: &[u64], left: u32) -> bool {
        let fits = |d: u16| d != FAR && u32::from(d) <= left;
        if fits(self.to_final[usize::from(jump)][cell]) {
            return true;
        }
        !jump && self.jumps.iter().any(|&i| !has(taken, i) && self.by_jump(i, cell).is_some_and(|n| n <= left))
    }

    /// Ticks from `cell` to the final by way of the `J` that is item `i` (walking to it without
    /// Jump, then jumping).
    fn by_jump(&self, i: usize, cell: usize) -> Option<u32> {
        let (d, back) = (self.jump_walk[i][cell], self.to_final[1][self.items[i].0 as usize]);
        (d != FAR && back != FAR).then(|| u32::from(d) + u32::from(back))
    }

    /// The fewest ticks from `cell` to the final, holding Jump or not (then directly or by way
    /// of any `J`, taken or not): no bot there finishes with fewer left (`Model::can_finish`).
    pub fn finish_ticks(&self, cell: usize, jump: bool) -> Option<u32> {
        let direct = self.to_final[usize::from(jump)][cell];
        let direct = (direct != FAR).then_some(u32::from(direct));
        let by_jump = if jump { None } else { self.jumps.iter().filter_map(|&i| self.by_jump(i, cell)).min() };
        direct.into_iter().chain(by_jump).min()
    }

    /// Marks as taken every item the bot at `cell` with `left` ticks can no longer collect on a
    /// way to the final, so that states differing only in such items merge.
    /// With `exact` false only the items the opponent has cleared are marked (the reach
    /// table is large on large maps, and a beam needs no merging to be right).
    fn canonical(&self, taken: &mut [u64], cell: usize, tick: u32, left: u32, exact: bool) {
        let dead = &self.dead[(tick as usize).min(self.problem.ticks as usize) * self.words..][..self.words];
        for w in 0..self.words {
            taken[w] |= dead[w];
        }
        if exact {
            let reach = self.reach(cell, left);
            for w in 0..self.words {
                taken[w] |= !reach[w];
            }
        }
    }

    /// Ticks a bot at `from` needs to take item `i` and then reach the final (ignoring the
    /// opponent; `None`: it cannot). `Model::canonical` marks the item once fewer are left.
    pub fn need(&self, i: usize, from: usize) -> Option<u32> {
        let c = self.items[i].0 as usize;
        let j = usize::from(self.may_jump);
        let back = if c == self.cell(self.problem.final_pos) { 0 } else { self.to_final[j][c] };
        let d = self.item_dist[i][from];
        // An item under the bot is taken by stepping off and back: two ticks.
        (d != FAR && back != FAR).then(|| if d == 0 { 2 } else { u32::from(d) } + u32::from(back))
    }

    /// Whether item `i` can no longer be taken after tick `t` (the opponent clears it first):
    /// `Model::canonical` marks it from then on.
    pub fn dead_after(&self, i: usize, t: u32) -> bool {
        has(&self.dead[(t as usize).min(self.problem.ticks as usize) * self.words..][..self.words], i)
    }

    /// Items collectable from `cell` on a way to the final within `left` ticks (ignoring the
    /// opponent), as bits; built on first use, row by row of cells. Rows stop at the largest
    /// [`Model::need`] (more ticks reach nothing more), so that a map of 10,000 rounds costs no
    /// more than its distances: a row per tick took minutes to build on a 50x50 map.
    fn reach(&self, cell: usize, left: u32) -> &[u64] {
        let (span, rows) = self.reach.get_or_init(|| {
            let needs: Vec<(usize, usize, usize)> = (0..self.items.len())
                .flat_map(|i| (0..self.item_at.len()).filter_map(move |from| Some((i, from, self.need(i, from)?))))
                .filter(|&(.., need)| need <= self.problem.ticks)
                .map(|(i, from, need)| (i, from, need as usize))
                .collect();
            let span = needs.iter().map(|&(.., need)| need).max().unwrap_or(0) + 1;
            let mut table = vec![0u64; self.item_at.len() * span * self.words];
            for &(i, from, need) in &needs {
                table[(from * span + need) * self.words + i / 64] |= 1 << (i % 64);
            }
            // Each row holds what the rows of fewer ticks hold.
            for from in 0..self.item_at.len() {
                for l in 1..span {
                    for w in 0..self.words {
                        let before = table[(from * span + l - 1) * self.words + w];
                        table[(from * span + l) * self.words + w] |= before;
                    }
                }
            }
            (span, table)
        });
        let left = (left as usize).min(span - 1);
        &rows[(cell * span + left) * self.words..][..self.words]
    }

    /// An upper bound on what a bot with `mult` can still add from a state whose unavailable
    /// items are `taken`, with `left` ticks: one item per tick at most, each worth its value
    /// times every multiplier still available.
    fn bound(&self, taken: &[u64], mult: i64, left: u32) -> i64 {
        let mut m = mult;
        for &(i, k) in &self.multipliers {
            if !has(taken, i as usize) {
                m = m.saturating_mul(k);
            }
        }
        let mut sum = 0i64;
        let mut count = 0;
        for &(i, v) in &self.by_value {
            if count >= left {
                break;
            }
            if !has(taken, i as usize) {
                sum += v;
                count += 1;
            }
        }
        sum.saturating_mul(m)
    }
}

/// A bound on what a state can still add, tighter than the model's own (for instance from a
/// relaxation computed once for the whole map). Must never be below the truth.
pub trait CostToGo {
    /// Most points a bot at `cell` at `tick` (ticks done so far), with Jump `jump`,
    /// multiplier `mult` and unavailable items `taken` (bit per [`Model::items`] index), can
    /// still collect on a way to the final; `None` when it cannot reach the final.
    fn bound(&self, cell: usize, tick: u32, jump: bool, mult: i64, taken: &[u64]) -> Option<i64>;
}

/// How much to search.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Keep only this many states per tick (beam search), or all (exact search).
    pub beam: Option<usize>,
    /// Most states created over the whole search before giving up.
    pub max_states: usize,
    /// Only plans scoring more than this are of interest (exact search prunes with it).
    pub incumbent: Option<i64>,
}

/// A search state; `N` words of item bits, so that keys are plain values (no allocation).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key<const N: usize> {
    cell: u32,
    jump: bool,
    mult: i64,
    taken: [u64; N],
}

struct Entry<const N: usize> {
    key: Key<N>,
    score: i64,
    /// Score plus the bound on what is still to come (a beam keeps the highest).
    reach: i64,
    /// Index in this tick's trail.
    node: u32,
}

/// Searches `model` within `limits` (see the module docs).
pub fn search(model: &Model, limits: Limits, extra: Option<&dyn CostToGo>) -> Outcome {
    search_until(model, limits, extra, &|| false)
}

/// [`search`], giving up as [`Outcome::OverBudget`] once `stop` says so: it is asked every
/// [`STOP_EVERY`] states created, so that a caller's clock can end a long exact search.
pub fn search_until(model: &Model, limits: Limits, extra: Option<&dyn CostToGo>, stop: &dyn Fn() -> bool) -> Outcome {
    let mut done = Done::default();
    let outcome = match model.words {
        1 => search_n::<1>(model, limits, extra, stop, &mut done),
        2 => search_n::<2>(model, limits, extra, stop, &mut done),
        3 | 4 => search_n::<4>(model, limits, extra, stop, &mut done),
        5..=8 => search_n::<8>(model, limits, extra, stop, &mut done),
        9..=16 => search_n::<16>(model, limits, extra, stop, &mut done),
        _ => search_n::<40>(model, limits, extra, stop, &mut done),
    };
    done.charge(model.words);
    outcome
}

/// What a search has done: states created, and moves looked at, of which the work clock has
/// been told `charged`; and how many states it remembers (an exact search's table).
#[derive(Default)]
struct Done {
    created: usize,
    moves: usize,
    charged: usize,
    table: usize,
}

impl Done {
    /// Tells the work clock of the moves looked at since it was last told.
    fn charge(&mut self, words: usize) {
        charge(Work::Moves { moves: self.moves - self.charged, words, table: self.table });
        self.charged = self.moves;
    }
}

/// How many states a search creates between two questions to its `stop` (see [`search_until`]).
pub const STOP_EVERY: usize = 1 << 16;

fn search_n<const N: usize>(
    model: &Model,
    limits: Limits,
    extra: Option<&dyn CostToGo>,
    stop: &dyn Fn() -> bool,
    done: &mut Done,
) -> Outcome {
    let p = &model.problem;
    let start = model.cell(p.start);
    let fin = model.cell(p.final_pos);
    // (A 50x50 map has at most 2,500 items: 40 words.)
    let mut taken = [0u64; N];
    if !model.can_finish(start, p.jump, &taken, p.ticks) {
        return Outcome::Impossible;
    }
    // A bot whose start is the final may stop at once with nothing.
    let mut best: Option<(i64, u32, u32)> = (start == fin).then_some((0, 0, u32::MAX));
    if start == fin && limits.incumbent.is_some_and(|inc| inc >= 0) {
        best = None;
    }
    let floor = limits.incumbent.unwrap_or(i64::MIN);
    model.canonical(&mut taken, start, 0, p.ticks, limits.beam.is_none());
    // Trail: per tick, each kept state's (parent index, cell), to rebuild the plan.
    let mut trail: Vec<Vec<(u32, u32)>> = vec![vec![(u32::MAX, start as u32)]];
    let mut states = vec![Entry {
        key: Key { cell: start as u32, jump: p.jump, mult: p.multiplier, taken },
        score: 0,
        reach: 0,
        node: 0,
    }];
    let mut seen: HashMap<Key<N>, i64> = HashMap::default();
    // This tick's states by key (kept across ticks for its allocation).
    let mut index: HashMap<Key<N>, usize> = HashMap::default();
    // Expected points per tick of a fresh walk, to rank states in a beam by their future too.
    let walkable = p.grid.positions().filter(|q| p.grid.get(*q).is_some_and(Cell::is_walkable)).count().max(1);
    let total: i64 = model.items.iter().map(|(_, it)| if let Item::Resource(v) = it { *v } else { 0 }).sum();
    let rate = total as f64 / walkable as f64;
    for t in 1..=p.ticks {
        let left = p.ticks - t;
        let mut next: Vec<Entry<N>> = Vec::new();
        index.clear();
        let mut nodes: Vec<(u32, u32)> = Vec::new();
        for (si, s) in states.iter().enumerate() {
            let cell = s.key.cell as usize;
            for &dest in &model.moves[usize::from(s.key.jump)][cell] {
                done.moves += 1;
                let d = dest as usize;
                let mut key = Key { cell: dest, jump: s.key.jump, mult: s.key.mult, taken: s.key.taken };
                let mut score = s.score;
                if let Some(i) = model.item_at[d] {
                    let i = i as usize;
                    if !has(&key.taken, i) && t < model.deadline[i] {
                        set(&mut key.taken, i);
                        match model.items[i].1 {
                            Item::Resource(v) => score = score.saturating_add(v.saturating_mul(key.mult)),
                            Item::Jump => key.jump = true,
                            Item::Multiplier(k) => key.mult = key.mult.saturating_mul(k),
                        }
                    }
                }
                if d == fin {
                    if score > floor && best.is_none_or(|(b, _, _)| score > b) {
                        best = Some((score, t, si as u32));
                    }
                    continue;
                }
                if !model.can_finish(d, key.jump, &key.taken, left) {
                    continue;
                }
                model.canonical(&mut key.taken, d, t, left, limits.beam.is_none());
                if seen.get(&key).is_some_and(|&old| old >= score) {
                    continue;
                }
                let mut ub = model.bound(&key.taken, key.mult, left);
                if let Some(x) = extra {
                    match x.bound(d, t, key.jump, key.mult, &key.taken) {
                        Some(b) => ub = ub.min(b),
                        None => continue,
                    }
                }
                let reach = score.saturating_add(ub);
                if reach <= floor || best.is_some_and(|(b, _, _)| reach <= b) {
                    continue;
                }
                done.created += 1;
                if done.created.is_multiple_of(STOP_EVERY) {
                    done.table = seen.len();
                    done.charge(model.words);
                    if stop() {
                        return Outcome::OverBudget;
                    }
                }
                if done.created > limits.max_states {
                    return Outcome::OverBudget;
                }
                match index.entry(key) {
                    std::collections::hash_map::Entry::Occupied(o) => {
                        let at = *o.get();
                        if score > next[at].score {
                            next[at].score = score;
                            next[at].reach = reach;
                            nodes[next[at].node as usize] = (si as u32, dest);
                        }
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(next.len());
                        next.push(Entry { key, score, reach, node: nodes.len() as u32 });
                        nodes.push((si as u32, dest));
                    }
                }
            }
        }
        if let Some(width) = limits.beam {
            if next.len() > width {
                // Guided by the caller's bound when there is one, else by a rough estimate of
                // what the multiplier will earn.
                let rank = |e: &Entry<N>| match extra {
                    Some(_) => e.reach as f64,
                    None => e.score as f64 + e.key.mult as f64 * rate * f64::from(left),
                };
                next.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
                next.truncate(width);
            }
        }
        // Kept states, re-indexed so that the trail points at their positions.
        let mut kept_nodes = Vec::with_capacity(next.len());
        for (k, e) in next.iter_mut().enumerate() {
            kept_nodes.push(nodes[e.node as usize]);
            e.node = k as u32;
            if limits.beam.is_none() {
                seen.insert(e.key, e.score);
            }
        }
        trail.push(kept_nodes);
        states = next;
        if states.is_empty() {
            break;
        }
    }
    let Some((score, tick, parent)) = best else {
        return if limits.incumbent.is_some() && limits.beam.is_none() {
            Outcome::NoneBetter
        } else {
            Outcome::Impossible
        };
    };
    let mut moves = vec![Action::Wait; tick as usize];
    if tick > 0 {
        moves[tick as usize - 1] = Action::Move(p.final_pos);
        let mut at = parent;
        for t in (1..tick).rev() {
            let (up, cell) = trail[t as usize][at as usize];
            moves[t as usize - 1] = Action::Move(model.pos(cell as usize));
            at = up;
        }
    } else {
        moves = vec![Action::Wait];
    }
    let plan = Plan { score, moves };
    if limits.beam.is_some() {
        Outcome::Found(plan)
    } else {
        Outcome::Optimal(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reach rows stop at the largest need, and say for every number of ticks left, up to
    /// the map's 10,000 rounds, what the definition says: each item whose need fits.
    #[test]
    fn the_reach_table_is_as_short_as_the_needs_and_right_at_any_ticks_left() {
        let text = "ARENA 3 4 10000\n0 0\n2 0\n2 3\nMAP\n0 5 W 7\n3 W 0 9\n0 2 J 0\nEND_MAP\nSTREAM\n";
        let model = Model::new(Problem::of_test(&MapSpec::parse(text).expect("a valid map")));
        let mut largest = 0;
        for cell in 0..model.cells() {
            for left in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 40, 9_999, 10_000] {
                let bits = model.reach(cell, left);
                for i in 0..model.items().len() {
                    let fits = model.need(i, cell).is_some_and(|n| n <= left);
                    assert_eq!(has(bits, i), fits, "item {i} from cell {cell} with {left} ticks left");
                    largest = largest.max(model.need(i, cell).unwrap_or(0));
                }
            }
        }
        let (span, rows) = model.reach.get().expect("built");
        assert_eq!(*span, largest as usize + 1);
        assert_eq!(rows.len(), model.cells() * span * model.words);
    }
}
