//! The `reference` strategy: the optimal plan where it can be proved within a small budget,
//! otherwise a whole route found by local search, replanned every tick.
//!
//! **The opponent**: an opponent that moves, and whose moves so far fit "it walks to the
//! nearest item", is expected to keep doing so: each item gets the tick the opponent is
//! expected to take it. In a duel it is read as the greedy samples play (a [`Racer`]): only
//! items from which it still reaches the final in time, no `J` once it holds Jump, the
//! worthiest of the nearest. A test's opponent is a recording that cannot see this bot, so there it
//! is followed on the map as it sees it (only its own moves clear cells), from its first move.
//! In a duel whose final the bot reaches only by jumping, the `J`s are expected to go when such
//! a racer would take them from the first tick on, before its moves can be trusted (until they
//! stop fitting): a route counting on a `J` the opponent gets first misses the final, so the
//! bot races for it (see [`Reference::jump_races`]).
//! In a test, an opponent that moves, fits no such model and sometimes waits (the tests'
//! wanderer) is expected to take nothing, but the route is hedged against it: 256 random walks
//! from where it stands, at the rate it has moved, value the route found and two others
//! searched as if each item went once half or a quarter of the walks had stepped on it, and one
//! of those replaces the route where it collects clearly more over the same walks (see
//! [`hedge`]).
//!
//! **Planning** ([`crate::planner`], the search `arena solve` uses, on a budget of some tens
//! of milliseconds), in single-player tests, on maps small enough for its tables: the bot
//! searches the best plan from where it stands, with the items the opponent is expected to
//! take gone at those ticks (or none, before the opponent is predicted). A plan proved
//! optimal, or certified within 1 % of the relaxation's bound, is followed move by move; when
//! the opponent takes an item the plan counts on, or its prediction begins or ends, the bot
//! plans again. An attempt that does not finish is tried again once the ticks left have halved
//! (the problem shrinks; sooner against an opponent that has never moved), or at once when the
//! opponent has just become predictable; a game makes at most 8 attempts (16 against an
//! opponent that has never moved). The
//! best plan such an attempt found, as a route of the items it steps on, is where the route
//! search starts when it is worth more than the route the search has.
//!
//! **Route search** otherwise: walls, voids and fire never change during a game (collecting
//! only turns cells into `0`), so shortest distances from every item and from the final are
//! computed once, with and without Jump, over precomputed move lists. A route is a sequence of
//! items to collect before heading for the final; it is valued by walking it (each item's value
//! times the multiplier held when it is reached, Jump shortening everything after a `J`, nothing
//! for an item reached no earlier than the opponent is expected to take it) and is feasible
//! when the final is still reached in time. The first route is the best greedy one that
//! fetches some of the nearest power-ups first, in any order; once the opponent's takes are
//! expected (in tests: when it first becomes predictable), greedy routes that race it for what
//! it is about to take are tried too, and replace the route if better. On the first tick of a
//! test whose map is small enough for the exact search, the first route is also planned as
//! [`Reference::clean`] walks, and the variant whose route is worth more plays the game (of
//! two worth the same, the one whose route, walked as the bot walks it, collects more). An
//! iterated local search
//! (insert, swap, remove, relocate, reverse any stretch, then perturb and search again)
//! improves it. In tests, a route lists what its legs from item to item must walk through: an
//! item on every shortest path of a leg (where the layers of those paths narrow to one cell;
//! per pair and Jump, computed when first needed) is taken there, at the multiplier then held,
//! so it becomes a stop of that leg and leaves its later place; moves that would walk through
//! a later stop are valued as walked.
//! In a duel, whose opponent reacts to the bot, the first route is the plain greedy one and
//! reversals stay within ten stops.
//! Each move is a splice of the route, valued from one walk of it: in constant time while the
//! rest of the route keeps its Jump and which items it wins, by walking the rest otherwise.
//! Effort is counted in route stops walked, not seconds, so the bot plays the same game on any
//! machine.
//!
//! Every tick the bot steps along a shortest path to the route's next item: the one worth most
//! on the way, counting what it picks up at today's multiplier and, in tests, what it loses by
//! stepping on a resource the route takes later at a higher one (a route values each stop once
//! and knows nothing of the cells its legs walk through). In a test it never takes a route that
//! misses the final: a feasible route stays feasible as the game goes on, so the bot always
//! finishes in time. In a duel reaching the final is worth nothing and ends the bot's
//! collecting (a duel's player keeps what it collected): a route may end anywhere, valued as
//! before where it can still finish and otherwise by what it collects within the rounds, so
//! the bot spends ticks it used to keep for the walk home collecting; once its route is done it
//! waits, stepping onto the final only for a resource there (its legs never walk through the
//! final). Only where a jump alone reaches the final and the bot holds none do routes still
//! have to finish (taking a `J` first, which also keeps it from the greedy opponents); where
//! that `J` is lost, the route collects what it can.

use std::time::Duration;

use bot_sdk::{Action, Bot, Cell, GameState, Grid, Mode, OpponentStatus, Pos};

use crate::cputime::thread_cpu;
use crate::plan_search::{bfs, bfs_through, move_lists, Model, Problem, FAR};
use crate::planner::{best_plan, Budget};
use crate::work::{charge, Work};

/// Local-search effort, in route stops walked by evaluations: on the first tick, then per tick
/// when something changed (an item the route counted on is gone, the opponent is expected to
/// do otherwise), and per tick otherwise (the route is a local optimum already: only
/// perturbations), then for all the ticks after the first together (each may take at most
/// four times its share of what is left). In tests (`[FIRST, TICK, QUIET, GAME]`) the budgets
/// keep a whole game under a second of thinking; duels give a second per answer and 5 s per
/// game, and keep the first answer near a tenth of a second and a game near half a second.
const TEST_BUDGETS: [usize; 4] = [5_000_000, 400_000, 20_000, 20_000_000];
const DUEL_BUDGETS: [usize; 4] = [6_000_000, 300_000, 30_000, 30_000_000];

/// Planning effort per attempt (a few tens of milliseconds each): exact search states,
/// relaxation work (see `Relaxation::work`), guided beam width; and how many attempts a game
/// may make (against an opponent that has never moved, `STILL_ATTEMPTS`).
const EXACT_STATES: usize = 60_000;
const RELAX_WORK: usize = 6_000_000;
const GUIDED_BEAM: usize = 32;
const EXACT_ATTEMPTS: u32 = 8;
/// After an attempt that proved nothing, the next may start once the ticks left have fallen to
/// this fraction of what they were then (numerator, denominator). Against an opponent that has
/// never moved, nothing but the ticks left changes the problem and its games think little:
/// attempts come sooner there, and twice as many (random maps 1-250: 799,377 -> 799,627, six
/// maps up, none down; at 5/8 and 3/4 with 8 attempts, +182 and +112, none down either).
const AGAIN_BELOW: (u32, u32) = (1, 2);
const STILL_AGAIN_BELOW: (u32, u32) = (7, 8);
const STILL_ATTEMPTS: u32 = 16;
/// The attempt's last exact search starts only while the relaxation's bound is within this
/// (a fraction) of the best plan: from further off it changed no game (random maps 1-250, the
/// 20 tests; from 0.5, course_map(87) plays worse) and took up to a fifth of the first answer.
const HOPELESS_GAP: f64 = 1.0;
/// Maps whose distance tables for the exact search would be larger than this (items x cells x
/// ticks) are not tried at all.
const EXACT_TABLES: usize = 4_000_000;

/// Thinking caps: in CPU time for single-player tests, to keep within the course's limits on
/// any machine (see [`Reference::capped`]); the solver caps the games it plays by its work
/// clock, with the time left (see [`Reference::capped_by`]). An answer stops searching once it has
/// thought for `answer`, or once the game's thinking reaches `game`; it then plays the best
/// route found so far. The budgets above are counted in work, not time, so that a game plays
/// the same everywhere: on the machine they were set on, the 20 tests' slowest answer takes
/// 160 ms and their slowest game 708 ms, below these caps, which cut nothing short there; on
/// the same kind of machine on a slower day (245 ms and 1,131 ms) they keep every answer
/// under 200 ms and every game under a second. (Duels give 1 s per answer and 5 s per game,
/// far above the duel budgets: no caps there.)
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Thinking per answer.
    pub answer: Duration,
    /// Thinking per game.
    pub game: Duration,
    /// The clock they count (the thread's CPU time; the solver's work clock; tests' own).
    pub clock: fn() -> Duration,
    /// The thread's CPU time after which every search stops, whatever `clock` says (the
    /// solver's backstop, when its clock counts work).
    pub backstop: Option<Duration>,
}

impl Caps {
    /// The caps of the course's targets for single-player tests (200 ms per answer and 1 s per
    /// game, measured by `tests-bench`), less a margin for what follows a search (the route's
    /// next step, the walk comparing two routes).
    pub const COURSE: Caps = Caps {
        answer: Duration::from_millis(175),
        game: Duration::from_millis(900),
        clock: thread_cpu,
        backstop: None,
    };
}

/// When this answer stops searching, by the caps' clock (set per answer from [`Caps`]).
#[derive(Debug, Clone, Copy)]
struct Deadline {
    at: Duration,
    clock: fn() -> Duration,
    backstop: Option<Duration>,
}

impl Deadline {
    fn passed(&self) -> bool {
        (self.clock)() > self.at || self.backstop.is_some_and(|cpu| thread_cpu() > cpu)
    }
}

/// A plan being followed (proved optimal, or within 1 % of a certified bound): the moves left,
/// and the cells whose items it counts on.
#[derive(Debug, Clone)]
struct ExactPlan {
    moves: std::collections::VecDeque<Action>,
    needs: Vec<Pos>,
    /// Whether it was planned with the opponent predicted (see [`Reference::expected_takes`]).
    predicted: bool,
}

/// The reference strategy (see the module docs).
#[derive(Debug, Default, Clone)]
pub struct Reference {
    /// See [`Reference::clean`].
    clean: bool,
    exact: Option<ExactPlan>,
    /// Exact attempts made, and the ticks left at the last one that did not finish.
    attempts: u32,
    gave_up_at: Option<u32>,
    /// Whether an attempt has been made with a prediction of the opponent's takes, and the
    /// tick of the last one.
    foreseen: bool,
    attempted_at: Option<u32>,
    planner: Option<Planner>,
    route: Vec<usize>,
    seed: u64,
    /// See [`Reference::salted`].
    salt: u64,
    /// Where the opponent was last tick, and how many ticks ago it last moved (`None`: never).
    rival: Option<(Pos, Option<u32>)>,
    /// In tests: the map as the recorded opponent sees it, and whether it holds Jump there.
    rival_world: Option<(Grid, bool)>,
    /// How well "it walks to the nearest item" has predicted the opponent: the item it was
    /// expected to head for and its distance then, and the moves that fit or did not.
    model: OpponentModel,
    /// The same for "it goes for the item worth most per tick" (see [`Racer::rate`]), in duels.
    rate_model: OpponentModel,
    /// The opponent's expected takes the route was planned with, and whether the search
    /// ended on a local optimum (then an unchanged situation needs no new search).
    planned_with: Vec<u32>,
    settled: bool,
    /// In tests, the resources the route takes and the multiplier it takes each at (not those
    /// the opponent is expected to take first): stepping on one earlier loses the difference.
    saved: std::collections::HashMap<Pos, i64>,
    /// The last answer, for how many ticks in a row both bots have shared a cell, and
    /// whether this bot is the one that gives way (see `act`).
    last: Option<Action>,
    in_step: u32,
    yields: bool,
    /// Route-search effort left for the rest of the game (see [`TEST_BUDGETS`]).
    pool: Option<usize>,
    /// See [`Reference::knowing`]: per cell, the ticks at which the scripted opponent steps
    /// onto it.
    script: Option<std::collections::HashMap<Pos, Vec<u32>>>,
    /// See [`Reference::thorough`] (0 counts as 1).
    effort: usize,
    /// What the route last planned is worth (see [`Search::value`]).
    value: Option<Value>,
    /// See [`Reference::alone`].
    alone: bool,
    /// See [`Reference::unbridged`].
    unbridged: bool,
    /// This tick's step when it begins a way longer than the shortest to the next stop (see
    /// [`Reference::plan`]).
    detour: Option<Pos>,
    /// The items a plan that proved nothing steps on, in order (see [`Reference::plan`]).
    hint: Option<Vec<Pos>>,
    /// See [`Reference::seeded`].
    seeded: Option<Vec<Action>>,
    /// See [`Reference::capped`]; the game's thinking so far, and when this answer stops
    /// searching.
    caps: Option<Caps>,
    thinking: Duration,
    deadline: Option<Deadline>,
    /// Answers that ended past their cap (see [`Reference::answers_at_cap`]).
    at_cap: u32,
    /// For tests' controls: duels without [`Reference::jump_races`], and without stranded
    /// routes (see [`Search::stranded`]), as the bot played before them.
    unraced: bool,
    unstranded: bool,
    /// For tests' controls: duels whose routes must reach the final (see [`Search::open`]), as
    /// the bot played before.
    finishing: bool,
    /// For tests' controls: duels whose opponent is only ever read as walking to the nearest
    /// item (see [`Reference::rates`]), as the bot played before.
    unrated: bool,
    /// Ticks the opponent was seen, and how many of them it moved on (the rate of a wanderer).
    seen: u32,
    moves_seen: u32,
}

/// Checks the nearest-item model of the opponent against its actual moves.
#[derive(Debug, Default, Clone)]
struct OpponentModel {
    heading: Option<(usize, u16)>,
    fits: u32,
    misses: u32,
}

impl OpponentModel {
    /// Trusted once it has fit several moves and missed few.
    fn trusted(&self) -> bool {
        self.fits >= 2 && self.misses * 4 <= self.fits
    }

    /// Scores the opponent's latest position against the last expectation, then expects anew.
    fn observe(&mut self, planner: &Planner, grid: &Grid, at: Pos, jump: bool, moved: bool, racer: Option<Racer>) {
        let cell = planner.cell(at);
        if let (true, Some((k, before))) = (moved, self.heading) {
            if planner.dist[k][jump as usize][cell] < before {
                self.fits += 1;
            } else {
                self.misses += 1;
            }
        }
        self.heading = planner.heading(grid, 0..planner.items.len(), cell, jump, racer);
    }
}

/// How a duel's opponent picks the nearest item, as the greedy samples do (`greedy`'s safety
/// rule, `cpp-greedy`'s choice): only an item from which it still reaches the final in time
/// (from a `J`, jumping), no `J` once it holds Jump, and of the nearest, the one worth most.
/// (On `maps/duel.txt` only Jump reaches the final: such an opponent heads for a `J` first, and
/// read as walking to the nearest item it looked unpredictable after a few moves, so the bot
/// raced it for nothing: it lost the `T` there by five ticks, 1,501 to 2,305.)
#[derive(Debug, Clone, Copy)]
struct Racer {
    /// Ticks left.
    left: u32,
    /// The opponent's multiplier.
    mult: i64,
    /// Of the items it may take, it goes for the one worth most per tick of distance (`greedy`,
    /// the first of equals in reading order), not the worthiest of the nearest (`cpp-greedy`).
    rate: bool,
    /// Whether such a racer waits this tick: on this bot's cell, `greedy` waits every other
    /// tick (each player on its own parity) so that the two split up.
    waits: bool,
}

/// Distance tables over a fixed grid.
#[derive(Debug, Clone)]
struct Planner {
    cols: usize,
    /// Item cells, as found on the first tick.
    items: Vec<Pos>,
    /// `dist[node][jump][cell]`: ticks between `node` (an item, or the final at index
    /// `items.len()`) and `cell`; moves are symmetric, so either way round.
    dist: Vec<[Vec<u16>; 2]>,
    /// For [`Reference::clean`] (else empty): the same over paths that walk through no
    /// resource.
    clean: Vec<[Vec<u16>; 2]>,
    /// `pairs[jump][a * nodes + b]`: `dist` between nodes `a` and `b` (items and the final),
    /// in one dense table: the route search reads nothing else, and rows stay in cache.
    pairs: [Vec<u16>; 2],
    /// The same for `clean` (else empty).
    clean_pairs: [Vec<u16>; 2],
    /// Move lists (without and with Jump), and per cell the item on it (`u32::MAX`: none).
    moves: [Vec<Vec<u32>>; 2],
    item_at: Vec<u32>,
    /// [`Planner::crossed`], computed when first asked for.
    crossed: std::cell::RefCell<rustc_hash::FxHashMap<(u32, u32, bool), Crossed>>,
    final_pos: Pos,
    /// Whether a bot can step off the cell (elsewhere than onto the final) and come back.
    leave: Vec<bool>,
    /// Per item, its resource's worth (0 for a power-up: `D`, `T` or `J`), and whether it is a
    /// power-up.
    worth: Vec<i64>,
    power_up: Vec<bool>,
    /// [`Planner::richest`], computed per item when first asked for.
    richest: Vec<[std::cell::OnceCell<Box<[u32]>>; 2]>,
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
    /// The tables for `grid`; `clean` adds [`Planner::clean`].
    fn new(grid: &Grid, final_pos: Pos, clean: bool) -> Planner {
        let cols = grid.cols();
        let index = |p: Pos| p.x as usize * cols + p.y as usize;
        let adjacency = move_lists(grid);
        let cells = adjacency[0].len();
        // An item on the final is taken on arrival, as the route ends: it is no stop of its own.
        let items: Vec<Pos> =
            grid.positions().filter(|p| *p != final_pos && grid.get(*p).is_some_and(Cell::is_collectable)).collect();
        // Walking onto the final ends the game, so no path goes on through it.
        let end = index(final_pos);
        let bfs = |from: usize, adj: &Vec<Vec<u32>>| bfs(adj, from, end);
        let dist = items
            .iter()
            .chain(std::iter::once(&final_pos))
            .map(|&p| [bfs(index(p), &adjacency[0]), bfs(index(p), &adjacency[1])])
            .collect();
        let leave = (0..cells).map(|c| adjacency[0][c].iter().any(|&n| n as usize != end)).collect();
        // Paths that walk through no resource (one is reached, never left) nor the final.
        let mut resource = vec![false; cells];
        for p in grid.positions() {
            resource[index(p)] = matches!(grid.get(p), Some(Cell::Resource(_)));
        }
        let through = |c: usize| c != end && !resource[c];
        let clean = match clean {
            false => Vec::new(),
            true => items
                .iter()
                .chain(std::iter::once(&final_pos))
                .map(|&p| adjacency.each_ref().map(|adj| bfs_through(adj, index(p), &through)))
                .collect(),
        };
        let nodes: Vec<usize> = items.iter().chain(std::iter::once(&final_pos)).map(|&p| index(p)).collect();
        let pairs = |tables: &Vec<[Vec<u16>; 2]>| {
            [0, 1].map(|j| nodes.iter().flat_map(|&cell| tables.iter().map(move |t| t[j][cell])).collect())
        };
        let (pairs, clean_pairs) = (pairs(&dist), pairs(&clean));
        let power_up: Vec<bool> =
            items.iter().map(|&p| matches!(grid.get(p), Some(Cell::Double | Cell::Triple | Cell::Jump))).collect();
        let worth = items
            .iter()
            .map(|&p| match grid.get(p) {
                Some(Cell::Resource(v)) => i64::from(v),
                _ => 0,
            })
            .collect();
        let richest = (0..items.len()).map(|_| Default::default()).collect();
        let mut item_at = vec![u32::MAX; cells];
        for (k, &p) in items.iter().enumerate() {
            item_at[index(p)] = k as u32;
        }
        Planner {
            cols,
            items,
            dist,
            clean,
            pairs,
            clean_pairs,
            moves: adjacency,
            item_at,
            crossed: Default::default(),
            final_pos,
            leave,
            worth,
            power_up,
            richest,
        }
    }

    /// The resources worth something and within reach of item `a` (holding Jump or not), the
    /// most worth per tick from `a` first, as [`Search::construct`] counts ticks (see
    /// [`greedy_distance`]; by index among equals): a greedy pick looks at the first ones only.
    fn richest(&self, a: usize, jump: bool) -> &[u32] {
        self.richest[a][usize::from(jump)].get_or_init(|| {
            let n = self.items.len();
            let row = &self.pairs[usize::from(jump)][a * (n + 1)..a * (n + 1) + n];
            let ticks = |k: u32| u128::from(greedy_distance(row[k as usize]));
            let worth = |k: u32| self.worth[k as usize].max(0) as u128;
            let mut order: Vec<u32> =
                (0..n as u32).filter(|&k| worth(k) > 0 && greedy_distance(row[k as usize]) != FAR).collect();
            // (Worth per tick compared exactly, as fractions.)
            order.sort_unstable_by(|&x, &y| (worth(y) * ticks(x)).cmp(&(worth(x) * ticks(y))).then(x.cmp(&y)));
            order.into()
        })
    }

    /// The items on every shortest path from item `a` to node `b` (an item or the final),
    /// holding Jump or not, nearest `a` first: the cells where the layers of those paths narrow
    /// to one. Walking the leg takes them.
    fn crossed(&self, a: usize, b: usize, jump: bool) -> Crossed {
        let key = (a as u32, b as u32, jump);
        if let Some(items) = self.crossed.borrow().get(&key) {
            return items.clone();
        }
        let j = usize::from(jump);
        let (from, to) = (&self.dist[a][j], &self.dist[b][j]);
        let end = self.cell(self.final_pos);
        let length = self.between(false, jump, a, b);
        let mut items = Vec::new();
        let mut layer = vec![self.cell(self.items[a])];
        let layers = if length == FAR { 1 } else { length };
        for t in 1..layers {
            let mut next: Vec<usize> = layer
                .iter()
                .flat_map(|&c| self.moves[j][c].iter().map(|&n| n as usize))
                .filter(|&n| n != end && from[n] == t && to[n] == length - t)
                .collect();
            next.sort_unstable();
            next.dedup();
            if let [only] = next[..] {
                if self.item_at[only] != u32::MAX {
                    items.push(self.item_at[only]);
                }
            }
            layer = next;
        }
        let items: Crossed = items.into();
        self.crossed.borrow_mut().insert(key, items.clone());
        items
    }

    fn cell(&self, p: Pos) -> usize {
        p.x as usize * self.cols + p.y as usize
    }

    fn final_node(&self) -> usize {
        self.items.len()
    }

    /// Ticks between nodes `a` and `b` (items, or the final), walking clean or not.
    fn between(&self, clean: bool, jump: bool, a: usize, b: usize) -> u16 {
        let table = if clean { &self.clean_pairs } else { &self.pairs };
        table[usize::from(jump)][a * (self.items.len() + 1) + b]
    }

    /// When (in ticks from now) the opponent is expected to take each item, if it keeps
    /// walking to the nearest one (`u32::MAX`: never). Used only for an opponent that moves.
    fn predict_takes(&self, grid: &Grid, from: Pos, jump: bool, horizon: u32, racer: Option<Racer>) -> Vec<u32> {
        let mut takes = vec![u32::MAX; self.items.len()];
        let mut left: Vec<usize> =
            (0..self.items.len()).filter(|&k| grid.get(self.items[k]).is_some_and(Cell::is_collectable)).collect();
        let waits = racer.is_some_and(|r| r.waits);
        let (mut cell, mut jump, mut time, mut racer) = (self.cell(from), jump, u32::from(waits), racer);
        while let Some((k, d)) = self.heading(grid, left.iter().copied(), cell, jump, racer) {
            time += u32::from(d);
            if time > horizon {
                break;
            }
            left.retain(|&x| x != k);
            takes[k] = time;
            cell = self.cell(self.items[k]);
            let item = grid.get(self.items[k]);
            jump |= item == Some(Cell::Jump);
            if let Some(r) = &mut racer {
                r.left = r.left.saturating_sub(u32::from(d));
                r.mult = r.mult.saturating_mul(match item {
                    Some(Cell::Double) => 2,
                    Some(Cell::Triple) => 3,
                    _ => 1,
                });
            }
        }
        takes
    }

    /// The item of `items` (still on `grid`) nearest `cell` and its distance: of equals the
    /// first in reading order, or for a [`Racer`], the one worth most to it.
    fn heading(
        &self,
        grid: &Grid,
        items: impl Iterator<Item = usize>,
        cell: usize,
        jump: bool,
        racer: Option<Racer>,
    ) -> Option<(usize, u16)> {
        let back = &self.dist[self.final_node()];
        items
            .filter_map(|k| {
                let item = grid.get(self.items[k]).filter(|c| c.is_collectable())?;
                let d = self.dist[k][usize::from(jump)][cell];
                if d == 0 || d == FAR {
                    return None;
                }
                let Some(r) = racer else { return Some((k, d, 0)) };
                let home = back[usize::from(jump || item == Cell::Jump)][self.cell(self.items[k])];
                if home == FAR || u32::from(d) + u32::from(home) > r.left {
                    return None;
                }
                let worth = match item {
                    Cell::Resource(v) => i64::from(v).saturating_mul(r.mult),
                    Cell::Double => r.mult.saturating_mul(20),
                    Cell::Triple => r.mult.saturating_mul(40),
                    Cell::Jump if !jump => 15,
                    _ => return None,
                };
                Some((k, d, worth))
            })
            .min_by(|&(a, da, wa), &(b, db, wb)| {
                let place = |k: usize| (self.items[k].x, self.items[k].y);
                if racer.is_some_and(|r| r.rate) {
                    // More worth per tick first: wb / db against wa / da, exactly. (`greedy` also
                    // prefers an item this bot does not reach first; read so, with this bot where
                    // it stands, the prediction changed with each of its steps, and it walked
                    // back and forth between two plans: see [`Reference::rates`].)
                    let (wa, wb) = (i128::from(wa) * i128::from(db), i128::from(wb) * i128::from(da));
                    wb.cmp(&wa).then_with(|| place(a).cmp(&place(b)))
                } else {
                    (da, std::cmp::Reverse(wa), place(a)).cmp(&(db, std::cmp::Reverse(wb), place(b)))
                }
            })
            .map(|(k, d, _)| (k, d))
    }
}

/// The map the opponent is predicted on, and whether it holds Jump there: in tests its own
/// (`rival_world`), in duels the shared one.
fn rival_view<'a>(rival_world: &'a Option<(Grid, bool)>, s: &'a GameState) -> (&'a Grid, bool) {
    rival_world.as_ref().map_or((&s.grid, s.opponent.jump), |(w, j)| (w, *j))
}

/// A duel's opponent as a [`Racer`] (a test's recording is followed as it walks: `None`).
fn racer(s: &GameState, rate: bool, planner: &Planner) -> Option<Racer> {
    // `greedy`'s rule from its side: this bot is its opponent, and it leads when its start comes
    // first.
    let leads = s.spec.starts[1] <= s.spec.starts[0];
    let home = planner.dist[planner.final_node()][usize::from(s.opponent.jump)][planner.cell(s.opponent.pos)];
    let spare = home == FAR || u32::from(home) < s.ticks_left();
    let waits =
        rate && s.me.pos == s.opponent.pos && s.me.pos != s.final_pos() && spare && s.tick.is_multiple_of(2) == leads;
    (s.mode() == Mode::Duel).then(|| Racer { left: s.ticks_left(), mult: s.opponent.multiplier, rate, waits })
}

/// Every sequence of at most `most` distinct items of `set`, shortest first (the empty one
/// first of all).
fn orders(set: &[usize], most: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = vec![Vec::new()];
    let mut frontier = all.clone();
    for _ in 0..set.len().min(most) {
        frontier = frontier
            .iter()
            .flat_map(|f| set.iter().filter(|k| !f.contains(k)).map(|&k| [f.as_slice(), &[k]].concat()))
            .collect();
        all.extend(frontier.iter().cloned());
    }
    all
}

/// Walks sampled for a wandering opponent (see [`hedge`]), and the seed of their random source
/// (with the tick).
const WALKS: usize = 256;
const WALK_SEED: u64 = 0x5851_F42D_4C95_7F2D;
/// The shares of sampled walks by which an item counts as taken, for the routes [`hedge`] tries.
const QUANTILES: [f64; 2] = [0.5, 0.25];
/// How many standard errors a hedged route's mean gain over the walks must reach (see [`beats`]).
const HEDGE_Z: f64 = 2.0;

/// `n` random walks of an opponent that moves on a share `rate` of ticks to one of its safe
/// moves alike (as the tests' wanderer does): per walk and item, when the walk first steps onto
/// it, in the bot's ticks from now as [`Reference::expected_takes`] counts a test's opponent
/// (its m-th move takes what the bot reaches by its m-th), `u32::MAX` for never.
#[allow(clippy::too_many_arguments)]
fn walks(
    planner: &Planner,
    grid: &Grid,
    from: Pos,
    jump: bool,
    rate: f64,
    horizon: u32,
    n: usize,
    seed: &mut u64,
) -> Vec<Vec<u32>> {
    let threshold = (rate.clamp(0.0, 1.0) * f64::from(u32::MAX)) as u64;
    (0..n)
        .map(|_| {
            let mut takes = vec![u32::MAX; planner.items.len()];
            let (mut cell, mut jump) = (planner.cell(from), jump);
            for m in 1..=horizon {
                if next(seed) & 0xFFFF_FFFF > threshold {
                    continue;
                }
                let moves = &planner.moves[usize::from(jump)][cell];
                if moves.is_empty() {
                    continue;
                }
                cell = moves[(next(seed) >> 32) as usize % moves.len()] as usize;
                let k = planner.item_at[cell];
                if k != u32::MAX && takes[k as usize] == u32::MAX {
                    takes[k as usize] = m + 1;
                    jump |= grid.get(planner.items[k as usize]) == Some(Cell::Jump);
                }
            }
            takes
        })
        .collect()
}

/// Against a wanderer, whose takes no plan can know: the route the search found (planned as if
/// it took nothing) against two others, searched as if it took each item once half, or a
/// quarter, of the sampled `walks` have stepped on it (each from the better of the route and
/// the greedy first routes, within `budget`), all valued by what they collect against each
/// walk (a stop the walk took before the bot arrives is skipped: the bot sees it go). A route
/// replaces the one held only when its mean gain over the same walks is clear of their noise
/// (see [`beats`]). Returns the budget these searches spent.
fn hedge(search: &mut Search, walks: &[Vec<u32>], route: &mut Vec<usize>, budget: usize, seed: &mut u64) -> usize {
    let items = search.planner.items.len();
    let nominal = search.value(route).map_or(0, |v| v.0);
    let held = expected(search, walks, route);
    if mean(&held) >= nominal {
        return 0;
    }
    let (mut best, mut spent) = ((held, route.clone()), 0);
    for q in QUANTILES {
        search.takes = quantile(walks, items, q);
        search.budget = budget;
        let mut alt = best.1.clone();
        let fresh = search.first_route();
        if search.value(&fresh) > search.value(&alt) {
            alt = fresh;
        }
        search.improve(&mut alt, seed);
        spent += budget.saturating_sub(search.budget);
        search.takes = vec![u32::MAX; items];
        if search.value(&alt).is_none() {
            continue;
        }
        let worth = expected(search, walks, &alt);
        if beats(&worth, &best.0) {
            best = (worth, alt);
        }
    }
    *route = best.1;
    spent
}

/// Per item, the tick by which a share `q` of `walks` has taken it (`u32::MAX`: fewer do).
fn quantile(walks: &[Vec<u32>], items: usize, q: f64) -> Vec<u32> {
    let need = ((walks.len() as f64 * q).ceil() as usize).max(1);
    (0..items)
        .map(|k| {
            let mut ticks: Vec<u32> = walks.iter().map(|w| w[k]).collect();
            match ticks.len() >= need {
                true => *ticks.select_nth_unstable(need - 1).1,
                false => u32::MAX,
            }
        })
        .collect()
}

/// Whether values `b` beat values `a` over the same walks: their mean difference is positive
/// and [`HEDGE_Z`] standard errors clear of 0.
fn beats(b: &[i64], a: &[i64]) -> bool {
    let n = a.len().max(1) as f64;
    let d: Vec<f64> = b.iter().zip(a).map(|(x, y)| (x - y) as f64).collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    mean > 0.0 && mean * mean * n > HEDGE_Z * HEDGE_Z * var
}

fn mean(values: &[i64]) -> i64 {
    values.iter().sum::<i64>() / values.len().max(1) as i64
}

/// What `route` collects against each of `walks` (each taking what it steps on first): the bot
/// skips a stop the walk took before it would arrive there (it sees it go, and plans again),
/// and where that leaves the route short of the final (a `J` it needed taken), it collects the
/// longest start of it that still finishes.
fn expected(search: &mut Search, walks: &[Vec<u32>], route: &[usize]) -> Vec<i64> {
    // (The search's budget is for searching: these walks do not spend it.)
    let budget = search.budget;
    let mut arrivals = Vec::with_capacity(route.len());
    let mut at = search.origin();
    for &k in route {
        match search.step(at, k) {
            Some(next) => {
                arrivals.push(next.time);
                at = next;
            }
            None => arrivals.push(u32::MAX),
        }
    }
    let mut values = Vec::with_capacity(walks.len());
    for w in walks {
        search.takes.clone_from(w);
        let kept: Vec<usize> = route.iter().zip(&arrivals).filter(|&(&k, &a)| w[k] > a).map(|(&k, _)| k).collect();
        let mut worth = search.value(&kept).map(|v| v.0);
        if worth.is_none() {
            // (Found by halving: shorter starts mostly finish.)
            let (mut lo, mut hi) = (0, kept.len());
            worth = search.value(&[]).map(|v| v.0);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                match search.value(&kept[..mid]) {
                    Some(v) => {
                        lo = mid;
                        worth = Some(v.0);
                    }
                    None => hi = mid,
                }
            }
        }
        values.push(worth.unwrap_or(0));
    }
    search.takes = vec![u32::MAX; search.planner.items.len()];
    search.budget = budget;
    values
}

/// Ticks to an item as the greedy first routes count them: 0 (the item under the bot) as 2,
/// off and back on.
fn greedy_distance(d: u16) -> u16 {
    match d {
        0 => 2,
        d => d,
    }
}

/// A small deterministic random source (xorshift), so that plans do not depend on the machine.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// The items a leg must walk through (see [`Planner::crossed`]).
type Crossed = std::rc::Rc<[u32]>;

/// Route search state.
struct Search<'a> {
    planner: &'a Planner,
    grid: &'a Grid,
    start: Start,
    takes: Vec<u32>,
    candidates: Vec<usize>,
    budget: usize,
    /// Per item: what taking it adds at multiplier 1, what it multiplies by, whether it is a
    /// `J` (read from the grid once: walks ask for them millions of times).
    gains: Vec<(i64, i64, bool)>,
    /// In a duel the opponent reacts to the bot, so plans that win items by a tick or two are
    /// fragile: the search reverses stretches of ten stops at most there (measured on
    /// `maps/duel.txt` against `greedy`: any length lost 10 % of the score).
    duel: bool,
    /// For [`Reference::clean`]: the multiplier once every `D` and `T` left is taken; until
    /// then, legs walk through no resource ([`Planner::clean`]), or are not walked at all.
    full_mult: Option<i64>,
    /// `from_start[clean][jump][k]`: ticks from the start to node `k` ([`Planner::dist`]
    /// read once per search; `clean` only with `full_mult`).
    from_start: [[Vec<u16>; 2]; 2],
    /// In tests (not clean): routes list what their legs from item to item must walk through
    /// (see [`Search::cross`]).
    crossing: bool,
    /// Whether a first route walking clean may take a resource that opens its way to a power-up
    /// (see [`Search::bridge`]).
    bridging: bool,
    /// In a duel where no route reaches the final in time (its only `J` lost to the opponent,
    /// say): routes are valued by what they collect, ending anywhere, since a duel's player
    /// keeps what it collected without finishing (before, such a bot stood still and scored 0).
    stranded: bool,
    /// In a duel: a route that can still reach the final in time is valued as before (the
    /// final's resource included); one that cannot is no longer infeasible but worth what it
    /// collects, ending at its last stop. Reaching the final is worth nothing in a duel and ends
    /// the player's collecting, so routes that had to reach it walked there with ticks to
    /// spare. (Valuing every route by what it collects alone, finishing or not, changed which
    /// of equal routes wins, and lost 15 % on `maps/duel.txt` where nothing was left at the end.)
    open: bool,
    /// When the search stops (see [`Caps`]), and whether it has.
    deadline: Option<Deadline>,
    cut: bool,
    /// Route stops walked since the work clock was last told (see [`crate::work`]).
    walked: usize,
    /// For tests' controls: each greedy pick of [`Search::construct`] looks at every item
    /// left, as it did before [`Planner::richest`].
    every_pick: bool,
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        charge(Work::Stops(self.walked));
    }
}

/// The node of a [`Leg`] at the start (any other is an item's).
const ORIGIN: usize = usize::MAX;

type Value = (i64, std::cmp::Reverse<u32>);

/// Where a route stands before one of its stops: the state [`Planner::evaluate`] walks.
#[derive(Debug, Clone, Copy)]
struct Leg {
    /// The item just taken, or [`ORIGIN`].
    node: usize,
    jump: bool,
    mult: i64,
    time: u32,
    score: i64,
}

/// A feasible route walked once (see [`Search::walk`]).
struct Walked {
    /// The state before each stop, and after the last.
    before: Vec<Leg>,
    /// What the stops from `i` on and the final add, at multiplier 1.
    rest: Vec<i64>,
    /// Ticks from reaching stop `i` to the end (0 for `i` = the route's length: the final).
    to_end: Vec<u32>,
    /// How many ticks later the stops from `i` on may be reached before one of them is taken
    /// by the opponent first, and how many earlier before one it takes first would be not.
    later: Vec<u32>,
    earlier: Vec<u32>,
    /// How many of the stops before `i` are plain: no power-up, and taken (not expected to be
    /// taken by the opponent first).
    plain: Vec<usize>,
    /// See [`Search::home_leg`], and whether the route ends on the final.
    home_leg: Option<u32>,
    ends_home: bool,
}

impl Search<'_> {
    /// Walks `route`: its score and (reversed) the ticks it takes to finish, `None` when the
    /// final is not reached in time. An item reached no earlier than the opponent is expected
    /// to take it gives nothing.
    fn value(&mut self, route: &[usize]) -> Option<Value> {
        // Effort is counted in route stops walked, so long routes cost what they take.
        self.spend(route.len() + 1);
        let mut at = self.origin();
        for &k in route {
            at = self.step(at, k)?;
            if at.time > self.start.limit {
                return None;
            }
        }
        self.home(at)
    }

    /// From `at` onto the final (taking what lies there): the route's value, `None` when the
    /// final is not reached in time. [`Search::stranded`]: what it collected, ending at `at`.
    /// [`Search::open`]: that, or where the final is out of reach, what it collected.
    fn home(&self, at: Leg) -> Option<Value> {
        let here = (at.time <= self.start.limit).then_some((at.score, std::cmp::Reverse(at.time)));
        if self.stranded {
            return here;
        }
        let p = self.planner;
        let d = self.leg(at, p.final_node());
        let total = at.time + u32::from(d);
        let score = at.score.saturating_add(at.mult.saturating_mul(self.worth(p.final_pos)));
        let finished = (d != FAR && total <= self.start.limit).then_some((score, std::cmp::Reverse(total)));
        match self.open {
            true => finished.or(here),
            false => finished,
        }
    }

    /// With [`Search::open`]: the ticks from a route's last stop (at `at`) to the final (`None`:
    /// out of reach, or not open).
    fn home_leg(&self, at: Leg) -> Option<u32> {
        let p = self.planner;
        let d = self.leg(at, p.final_node());
        (self.open && d != FAR).then_some(u32::from(d))
    }

    /// Whether the opponent is expected to take any item.
    fn contested(&self) -> bool {
        self.takes.iter().any(|&t| t != u32::MAX)
    }

    /// Makes `route` list what its legs must walk through (with [`Search::crossing`]): an item
    /// on every shortest path of a leg is taken there, at the multiplier then held, whether or
    /// not the route meant to take it later, so it becomes a stop of that leg (which is no
    /// longer for it) and leaves its later place. [`Search::value`] then gives what walking the
    /// route scores, where before it counted such an item at its later multiplier.
    fn cross(&mut self, route: &mut Vec<usize>) {
        if !self.crossing {
            return;
        }
        let p = self.planner;
        self.spend(route.len() + 1);
        let mut open = vec![false; p.items.len()];
        for &k in &self.candidates {
            open[k] = true;
        }
        let mut at = self.origin();
        let mut i = 0;
        let mut moves = 0;
        loop {
            let k = route.get(i).copied().unwrap_or(p.final_node());
            // The crossed item nearest the leg's start that the bot would take there (the way
            // from the bot to its first stop is left to `route_step`, which walks round what it
            // can: judged from where the bot stands each tick, it made routes change every tick).
            let first = match at.node {
                ORIGIN => None,
                a => p
                    .crossed(a, k, at.jump)
                    .iter()
                    .map(|&x| x as usize)
                    .find(|&x| open[x] && self.reach(at, x).is_some_and(|d| at.time + d < self.takes[x])),
            };
            match first {
                Some(x) if moves < 2 * p.items.len() => {
                    moves += 1;
                    if let Some(j) = route[i..].iter().position(|&y| y == x) {
                        route.remove(i + j);
                    }
                    route.insert(i, x);
                }
                _ if i == route.len() => return,
                _ => {
                    let Some(next) = self.step(at, k) else { return };
                    open[k] = false;
                    at = next;
                    i += 1;
                }
            }
        }
    }

    /// Walks `route` once for [`Search::splice`]; `None` when the route is infeasible.
    fn walk(&mut self, route: &[usize]) -> Option<Walked> {
        self.spend(route.len() + 1);
        let mut before = Vec::with_capacity(route.len() + 1);
        let mut at = self.origin();
        for &k in route {
            before.push(at);
            at = self.step(at, k)?;
            if at.time > self.start.limit {
                return None;
            }
        }
        before.push(at);
        let std::cmp::Reverse(total) = self.home(at)?.1;
        // (An open route ends on the final only when that is worth more: see `home`.)
        let home_leg = self.home_leg(at);
        let ends_home = !self.stranded && (!self.open || total > at.time);
        // Per suffix: its worth at multiplier 1, and how much later (or earlier) its stops may
        // be reached before one the opponent is expected to take changes hands.
        let n = route.len();
        let mut rest = vec![0i64; n + 1];
        rest[n] = if ends_home { self.worth(self.planner.final_pos) } else { 0 };
        let (mut later, mut earlier) = (vec![u32::MAX; n + 1], vec![u32::MAX; n + 1]);
        for i in (0..n).rev() {
            let (arrival, take) = (before[i + 1].time, self.takes[route[i]]);
            let (gain, times, _) = if arrival < take { self.gains[route[i]] } else { (0, 1, false) };
            rest[i] = gain.saturating_add(times.saturating_mul(rest[i + 1]));
            later[i] = later[i + 1];
            earlier[i] = earlier[i + 1];
            if take != u32::MAX {
                if arrival < take {
                    later[i] = later[i].min(take - 1 - arrival);
                } else {
                    earlier[i] = earlier[i].min(arrival + 1 - take);
                }
            }
        }
        let to_end = (0..=n).map(|i| total - before.get(i + 1).map_or(total, |b| b.time)).collect();
        let plain = std::iter::once(0)
            .chain(route.iter().enumerate().scan(0, |count, (i, &k)| {
                let (_, times, jump) = self.gains[k];
                *count += usize::from(times == 1 && !jump && before[i + 1].time < self.takes[k]);
                Some(*count)
            }))
            .collect();
        Some(Walked { before, rest, to_end, later, earlier, plain, home_leg, ends_home })
    }

    /// The resources `route` takes and the multiplier it holds before each (not those the
    /// opponent is expected to take first): see [`Reference::saved`].
    fn saved(&mut self, route: &[usize]) -> std::collections::HashMap<Pos, i64> {
        let Some(walked) = self.walk(route) else { return Default::default() };
        route
            .iter()
            .zip(walked.before.windows(2))
            .filter(|&(&k, legs)| self.gains[k].1 == 1 && !self.gains[k].2 && legs[1].time < self.takes[k])
            .map(|(&k, legs)| (self.planner.items[k], legs[0].mult))
            .collect()
    }

    /// A resource's worth at multiplier 1 (0 for anything else).
    fn worth(&self, p: Pos) -> i64 {
        match self.grid.get(p) {
            Some(Cell::Resource(v)) => i64::from(v),
            _ => 0,
        }
    }

    /// [`Search::gains`] for `grid`.
    fn gains(planner: &Planner, grid: &Grid) -> Vec<(i64, i64, bool)> {
        planner
            .items
            .iter()
            .map(|&p| match grid.get(p) {
                Some(Cell::Resource(v)) => (i64::from(v), 1, false),
                Some(Cell::Double) => (0, 2, false),
                Some(Cell::Triple) => (0, 3, false),
                Some(Cell::Jump) => (0, 1, true),
                _ => (0, 1, false),
            })
            .collect()
    }

    /// Ticks from `at` to item (or final) `k`, `FAR` when it cannot be reached.
    fn leg(&self, at: Leg, k: usize) -> u16 {
        let clean = self.full_mult.is_some_and(|full| at.mult < full);
        self.distance(clean, at.jump, at.node, k)
    }

    /// Ticks from node `from` (an item, or [`ORIGIN`]) to item (or final) `k`, walking clean
    /// or not.
    fn distance(&self, clean: bool, jump: bool, from: usize, k: usize) -> u16 {
        match from {
            ORIGIN => self.from_start[usize::from(clean)][usize::from(jump)][k],
            a => self.planner.between(clean, jump, a, k),
        }
    }

    /// The tables of [`Search::from_start`] for `start`.
    fn from_start(planner: &Planner, start: Start, clean: bool) -> [[Vec<u16>; 2]; 2] {
        let row = |tables: &Vec<[Vec<u16>; 2]>, j: usize| tables.iter().map(|t| t[j][start.cell]).collect();
        let clean = if clean { [row(&planner.clean, 0), row(&planner.clean, 1)] } else { Default::default() };
        [[row(&planner.dist, 0), row(&planner.dist, 1)], clean]
    }

    /// Ticks from `at` to item `k`: two for the item under the bot (off and back on), `None`
    /// when it cannot be reached.
    fn reach(&self, at: Leg, k: usize) -> Option<u32> {
        let p = self.planner;
        match self.leg(at, k) {
            0 if p.leave[self.cell(at)] => Some(2),
            0 | FAR => None,
            d => Some(u32::from(d)),
        }
    }

    /// The cell `at` stands on.
    fn cell(&self, at: Leg) -> usize {
        match at.node {
            ORIGIN => self.start.cell,
            k => self.planner.cell(self.planner.items[k]),
        }
    }

    /// Where every route starts: the bot, now.
    fn origin(&self) -> Leg {
        Leg { node: ORIGIN, jump: self.start.jump, mult: self.start.multiplier, time: 0, score: 0 }
    }

    /// Goes on from `at` to item `k` and takes it (as [`Planner::evaluate`] does, without the
    /// opponent); `None` when it cannot be reached.
    fn step(&self, at: Leg, k: usize) -> Option<Leg> {
        let time = at.time + self.reach(at, k)?;
        // An item the opponent is expected to take first gives nothing.
        let (gain, times, jump) = if time < self.takes[k] { self.gains[k] } else { (0, 1, false) };
        Some(Leg {
            node: k,
            jump: at.jump || jump,
            mult: at.mult.saturating_mul(times),
            time,
            score: at.score.saturating_add(gain.saturating_mul(at.mult)),
        })
    }

    /// The value of `route` with stops `a..b` replaced by `ins` (`None`: infeasible), from a
    /// walk of `route`: in time proportional to `ins` while the rest of the route keeps whether
    /// the bot holds Jump and which of its items the opponent takes first, else by walking the
    /// rest too.
    fn splice(&mut self, walked: &Walked, route: &[usize], a: usize, b: usize, ins: &[usize]) -> Option<Value> {
        self.spend(ins.len() + 1);
        let mut at = walked.before[a];
        for &k in ins {
            at = self.step(at, k)?;
        }
        // (Walking clean, legs also depend on the multiplier.)
        let same = at.jump == walked.before[b].jump && (self.full_mult.is_none() || at.mult == walked.before[b].mult);
        if let (Some(&next), true) = (route.get(b), same) {
            // The rest is reached earlier or later than in the walk: while no expected take
            // changes hands, it is worth what it was.
            let (new, old) = (at.time + self.reach(at, next)?, walked.before[b + 1].time);
            if (new >= old && new - old <= walked.later[b]) || (new < old && old - new < walked.earlier[b]) {
                let total = new + walked.to_end[b];
                let score = at.score.saturating_add(at.mult.saturating_mul(walked.rest[b]));
                // An open route still ends where it did (on the final or at its last stop)
                // only while that is still the better end: else the rest is walked.
                let last = total - walked.home_leg.filter(|_| walked.ends_home).unwrap_or(0);
                let home = walked.home_leg.is_some_and(|d| last + d <= self.start.limit);
                if !self.open || home == walked.ends_home || last > self.start.limit {
                    return (total <= self.start.limit).then_some((score, std::cmp::Reverse(total)));
                }
            }
        }
        self.spend(route.len() - b);
        for &k in &route[b..] {
            at = self.step(at, k)?;
        }
        self.home(at)
    }

    /// Whether reversing a long stretch, stops `i..j`, of a feasible route is worth valuing.
    /// When they are all plain (see [`Walked::plain`]), the same items are taken at the same
    /// multiplier or lost, and nothing after them gains from being reached later: only a
    /// shorter route can be better, which two-opt's four distances tell (moves are symmetric).
    /// Otherwise (a power-up moves, an item may be won back) a longer one might be, but rarely:
    /// it is valued only when not longer, which keeps passes over long routes affordable.
    fn may_shorten(&mut self, walked: Option<&Walked>, route: &[usize], i: usize, j: usize) -> bool {
        self.spend(1);
        let Some(walked) = walked else { return true };
        if i == 0 {
            return true;
        }
        let plain = walked.plain[j] - walked.plain[i] == j - i;
        let p = self.planner;
        let jump = walked.before[i].jump;
        let (first, last) = (route[i], route[j - 1]);
        let next = route.get(j).map_or(p.final_node(), |&k| k);
        // (i > 0: the stop before is an item.)
        let before = route[i - 1];
        let d = |a: usize, b: usize| u32::from(p.between(false, jump, a, b));
        let old = d(before, first) + d(last, next);
        let new = d(before, last) + d(first, next);
        new < old || (new == old && !plain)
    }

    /// Tries `base` with stops `a..b` replaced by `ins`, keeping it in `improved` if it beats
    /// `bar` and what `improved` holds.
    #[allow(clippy::too_many_arguments)]
    fn consider(
        &mut self,
        base: &[usize],
        walked: Option<&Walked>,
        (a, b): (usize, usize),
        ins: &[usize],
        bar: Value,
        improved: &mut Option<(Value, Vec<usize>)>,
    ) {
        let build = || [&base[..a], ins, &base[b..]].concat();
        let (v, cand) = match walked {
            Some(w) => (self.splice(w, base, a, b, ins), None),
            None => {
                let cand = build();
                (self.value(&cand), Some(cand))
            }
        };
        let beats = |v: Value, improved: &Option<(Value, Vec<usize>)>| v > improved.as_ref().map_or(bar, |(b, _)| *b);
        if let Some(v) = v.filter(|&v| beats(v, improved)) {
            let mut cand = cand.unwrap_or_else(build);
            // (What the new legs must walk through may change it: see `cross`.)
            let v = if self.crossing {
                self.cross(&mut cand);
                self.value(&cand)
            } else {
                Some(v)
            };
            if let Some(v) = v.filter(|&v| beats(v, improved)) {
                *improved = Some((v, cand));
            }
        }
    }

    /// Applies the best improving move until none improves: insert an item off the route (or
    /// swap it for a neighbouring stop), remove a stop, move it, or reverse a stretch from it.
    /// Each move is a splice valued from one walk of the route.
    fn local_search(&mut self, route: &mut Vec<usize>) -> Option<Value> {
        self.cross(route);
        let mut best = self.value(route)?;
        let mut on_route: Vec<bool> = vec![false; self.planner.items.len()];
        loop {
            if self.budget == 0 || self.out_of_time() {
                return Some(best);
            }
            let mut improved: Option<(Value, Vec<usize>)> = None;
            let walked = self.walk(route);
            on_route.fill(false);
            for &k in route.iter() {
                on_route[k] = true;
            }
            for k in self.candidates.clone() {
                if on_route[k] {
                    continue;
                }
                for at in self.positions_near(route, k) {
                    self.consider(route, walked.as_ref(), (at, at), &[k], best, &mut improved);
                    // Or instead of a neighbouring stop.
                    if at > 0 {
                        self.consider(route, walked.as_ref(), (at - 1, at), &[k], best, &mut improved);
                    }
                    if at < route.len() {
                        self.consider(route, walked.as_ref(), (at, at + 1), &[k], best, &mut improved);
                    }
                }
            }
            for i in 0..route.len() {
                self.consider(route, walked.as_ref(), (i, i + 1), &[], best, &mut improved);
                let mut without = route.clone();
                let k = without.remove(i);
                let walked_without = self.walk(&without);
                for at in self.positions_near(&without, k) {
                    if at != i {
                        self.consider(&without, walked_without.as_ref(), (at, at), &[k], best, &mut improved);
                    }
                }
                for j in i + 2..=route.len() {
                    if j > i + 10 && (self.duel || !self.may_shorten(walked.as_ref(), route, i, j)) {
                        continue;
                    }
                    let reversed: Vec<usize> = route[i..j].iter().rev().copied().collect();
                    self.consider(route, walked.as_ref(), (i, j), &reversed, best, &mut improved);
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

    /// A first route: `prefix` (power-ups to fetch first), then from there keep going to the
    /// item with the best value per tick of travel from which the final is still reached in time.
    /// With an `urgency` `(window, boost)`, an item the opponent is expected to take within
    /// `window` ticks of the bot's arrival counts `boost` times: against a racing opponent,
    /// what it is about to take goes first, and what it never takes can wait.
    fn construct(&mut self, prefix: &[usize], urgency: (u32, f64)) -> Vec<usize> {
        let p = self.planner;
        let mut at = self.origin();
        let mut route = Vec::new();
        let mut left: Vec<usize> = self.candidates.iter().copied().filter(|k| !prefix.contains(k)).collect();
        for &k in prefix {
            let next = match self.step(at, k) {
                Some(next) => next,
                // Walking clean, a power-up may lie behind resources: take the one that opens
                // the shortest way to it (the least worth of the nearest) as a stop first.
                None => {
                    let Some((r, via)) = self.bridge(at, k, &left) else { return route };
                    left.retain(|&x| x != r);
                    route.push(r);
                    let Some(next) = self.step(via, k) else { return route };
                    next
                }
            };
            at = next;
            route.push(k);
        }
        // (Read once per route, by every pick.)
        let final_from: [Vec<u16>; 2] =
            [false, true].map(|j| (0..p.items.len()).map(|k| p.between(false, j, k, p.final_node())).collect());
        let homeless = self.stranded || self.open;
        // Each pick is the item worth most per tick, the latest in `left` among equals. From
        // an item it looks at every power-up left, and at every item the opponent may be about
        // to take (an urgent one counts more), then at the resources left, the most worth per
        // tick from there first (see `Planner::richest`), until the next one is worth less
        // than the best so far: the same picks as looking at every item (test19's first
        // routes took 56 % of its game that way).
        let mut place = vec![usize::MAX; p.items.len()];
        for (i, &k) in left.iter().enumerate() {
            place[k] = i;
        }
        let mut powers: Vec<usize> = left.iter().copied().filter(|&k| p.power_up[k]).collect();
        let urgent_ever = urgency.0 > 0 && urgency.1 > 1.0;
        let mut threatened: Vec<usize> = match urgent_ever {
            true => left.iter().copied().filter(|&k| self.takes[k] != u32::MAX).collect(),
            false => Vec::new(),
        };
        // (Each worth times the multiplier is exact below 2^53, so that worth per tick rounds
        // in the order of the exact fractions.)
        let most = p.worth.iter().copied().max().unwrap_or(0).max(1) as f64;
        loop {
            self.spend(left.len() / 4 + 1);
            let (time, jump, mult) = (at.time, at.jump, at.mult);
            let row: &[u16] = match at.node {
                ORIGIN => &self.from_start[0][usize::from(jump)],
                a => {
                    let n = p.items.len() + 1;
                    &p.pairs[usize::from(jump)][a * n..a * n + n]
                }
            };
            // What item `k` is worth per tick, `None` when it is no pick.
            let score = |k: usize| {
                let d = greedy_distance(row[k]);
                let (value, times, is_jump) = self.gains[k];
                let back = match homeless {
                    true => 0,
                    false => final_from[usize::from(jump || is_jump)][k],
                };
                if d == FAR || back == FAR || time + u32::from(d) + u32::from(back) > self.start.limit {
                    return None;
                }
                if time + u32::from(d) >= self.takes[k] {
                    return None;
                }
                let worth = match (value, times, is_jump) {
                    (_, 2, _) => 25.0 * mult as f64,
                    (_, 3, _) => 50.0 * mult as f64,
                    (_, _, true) if !jump => 20.0,
                    (v, _, _) => v as f64 * mult as f64,
                };
                let arrival = time + u32::from(d);
                let urgent = if self.takes[k] - arrival < urgency.0 { urgency.1 } else { 1.0 };
                (worth > 0.0).then_some(worth / f64::from(d) * urgent)
            };
            let consider = |pick: &mut Option<(f64, usize)>, k: usize, i: usize| {
                if let Some(s) = score(k) {
                    if pick.is_none_or(|(b, j)| s.total_cmp(&b).then(i.cmp(&j)).is_gt()) {
                        *pick = Some((s, i));
                    }
                }
            };
            let mut pick: Option<(f64, usize)> = None;
            match at.node {
                a if a != ORIGIN && !self.every_pick && most * (mult as f64) < 9e15 => {
                    for &k in &powers {
                        consider(&mut pick, k, place[k]);
                    }
                    // (What the opponent takes by now can be picked no more.)
                    threatened.retain(|&k| place[k] != usize::MAX && self.takes[k] > time);
                    for &k in &threatened {
                        consider(&mut pick, k, place[k]);
                    }
                    for &k in p.richest(a, jump) {
                        let k = k as usize;
                        let i = place[k];
                        if i == usize::MAX {
                            continue;
                        }
                        // Not urgent (those were looked at), so no resource after this one is
                        // worth more per tick than it would be.
                        let per_tick = self.gains[k].0 as f64 * mult as f64 / f64::from(greedy_distance(row[k]));
                        if pick.is_some_and(|(b, _)| per_tick < b) {
                            break;
                        }
                        consider(&mut pick, k, i);
                    }
                }
                _ => {
                    for (i, &k) in left.iter().enumerate() {
                        consider(&mut pick, k, i);
                    }
                }
            }
            let Some((_, i)) = pick else { break };
            let k = left.swap_remove(i);
            place[k] = usize::MAX;
            if let Some(&moved) = left.get(i) {
                place[moved] = i;
            }
            if p.power_up[k] {
                powers.retain(|&x| x != k);
            }
            let Some(next) = self.step(at, k) else { break };
            at = next;
            route.push(k);
        }
        route
    }

    /// Walking clean from `at`, the resource of `left` that opens the shortest way on to item
    /// `k` when `k` cannot be reached directly (the least worth among the nearest), and the
    /// state once it is taken.
    fn bridge(&mut self, at: Leg, k: usize, left: &[usize]) -> Option<(usize, Leg)> {
        if !self.bridging {
            return None;
        }
        self.spend(left.len() / 4 + 1);
        left.iter()
            .filter(|&&r| self.gains[r].0 > 0)
            .filter_map(|&r| {
                let via = self.step(at, r)?;
                let on = self.reach(via, k)?;
                Some(((via.time + on, self.gains[r].0), r, via))
            })
            .min_by_key(|&(key, r, _)| (key, r))
            .map(|(_, r, via)| (r, via))
    }

    /// The best of the greedy routes that first fetch some of the power-ups (`D`, `T`, `J`), in
    /// every order, up to three of the nearest four: a multiplier taken late loses most of its
    /// worth, and no single local-search move brings a far one to the front of a full route.
    /// Also of the nearest four counting only the nearest `J` (a second one adds nothing, and
    /// where `J`s abound the multipliers would be left out), and, when the opponent is expected
    /// to take items, of greedy routes that fetch what it is about to take first.
    fn first_route(&mut self) -> Vec<usize> {
        let p = self.planner;
        let distance = |k: usize| self.distance(false, self.start.jump, ORIGIN, k);
        let mut powerups: Vec<usize> = self
            .candidates
            .iter()
            .copied()
            .filter(|&k| matches!(self.grid.get(p.items[k]), Some(Cell::Double | Cell::Triple | Cell::Jump)))
            .filter(|&k| distance(k) != FAR)
            .collect();
        powerups.sort_by_key(|&k| (distance(k), k));
        let mut jump_seen = self.start.jump;
        let useful: Vec<usize> = powerups
            .iter()
            .copied()
            .filter(|&k| {
                let jump = self.grid.get(p.items[k]) == Some(Cell::Jump);
                let keep = !(jump && jump_seen);
                jump_seen |= jump;
                keep
            })
            .take(4)
            .collect();
        powerups.truncate(4);
        let plain = orders(&powerups, 3);
        let mut extra = orders(&useful, 3);
        extra.retain(|prefix| !plain.contains(prefix));
        let urgent: &[(u32, f64)] = if self.contested() { &[(5, 4.0), (10, 4.0)] } else { &[] };
        // The plain greedy routes of the nearest four last: equal values go to the later route.
        let prefixes = || extra.iter().chain(&plain);
        let tries: Vec<(&Vec<usize>, (u32, f64))> = prefixes()
            .flat_map(|prefix| urgent.iter().map(move |&u| (prefix, u)))
            .chain(prefixes().map(|prefix| (prefix, (0, 1.0))))
            .collect();
        let routes: Vec<Vec<usize>> =
            tries.into_iter().map(|(prefix, urgency)| self.construct(prefix, urgency)).collect();
        routes
            .into_iter()
            .filter_map(|route| self.value(&route).map(|v| (v, route)))
            .max_by_key(|(v, _)| *v)
            .map(|(_, route)| route)
            .unwrap_or_default()
    }

    /// Where inserting item `k` into `route` is worth trying: around the three stops nearest to
    /// it, and at both ends.
    fn positions_near(&mut self, route: &[usize], k: usize) -> Vec<usize> {
        self.spend(route.len() / 2 + 1);
        let nodes = self.planner.items.len() + 1;
        let table = &self.planner.pairs[0][k * nodes..(k + 1) * nodes];
        // The three nearest stops, in one pass (this runs for every candidate and route).
        let mut nearest = [(u16::MAX, usize::MAX); 3];
        for (i, &r) in route.iter().enumerate() {
            let mut x = (table[r], i);
            for slot in &mut nearest {
                if x < *slot {
                    std::mem::swap(slot, &mut x);
                }
            }
        }
        let mut at: Vec<usize> = vec![0, route.len()];
        for &(_, i) in nearest.iter().filter(|(_, i)| *i != usize::MAX) {
            at.extend([i, i + 1]);
        }
        at.sort_unstable();
        at.dedup();
        at
    }

    /// Counts `stops` walked against the budget (and, at the next look at the clock, as work).
    fn spend(&mut self, stops: usize) {
        self.budget = self.budget.saturating_sub(stops);
        self.walked = self.walked.saturating_add(stops);
    }

    /// Whether the search is past its deadline (then it stops, and the budget it did not
    /// spend is not charged to the game's pool).
    fn out_of_time(&mut self) -> bool {
        charge(Work::Stops(std::mem::take(&mut self.walked)));
        self.cut = self.cut || self.deadline.is_some_and(|d| d.passed());
        self.cut
    }

    /// Local search, then perturb (drop a random stretch) and search again while the budget
    /// lasts, keeping the best route found.
    /// Returns whether the first local search reached a local optimum within the budget.
    fn improve(&mut self, route: &mut Vec<usize>, seed: &mut u64) -> bool {
        let Some(mut best) = self.local_search(route) else { return false };
        let settled = self.budget > 0 && !self.cut;
        // Perturb until the budget runs out or many tries in a row bring nothing.
        let mut fruitless = 0;
        while self.budget > 0 && !route.is_empty() && fruitless < 300 && !self.out_of_time() {
            fruitless += 1;
            let mut trial = route.clone();
            let len = 1 + (next(seed) as usize % trial.len().min(6));
            let at = next(seed) as usize % (trial.len() - len + 1);
            trial.drain(at..at + len);
            if let Some(v) = self.local_search(&mut trial) {
                if v > best {
                    best = v;
                    *route = trial;
                    fruitless = 0;
                }
            }
        }
        settled
    }
}

impl Reference {
    /// A variant for the solver's first plans: in tests, until it holds every `D` and `T` left,
    /// it walks through no resource that is not a stop of its route (each one it takes is
    /// valued at the multiplier it then holds). It finds the plan where every short way to a
    /// multiplier crosses resources, which the default bot takes at x1, and loses on maps where
    /// walking clean costs too many ticks; the solver starts from the better game of both. Where
    /// every way to a power-up its first route fetches crosses a resource, the route takes the
    /// one that opens the shortest way (the least worth among those) as a stop first.
    pub fn clean() -> Reference {
        Reference { clean: true, ..Reference::default() }
    }

    /// Whether [`Reference::clean`] may play otherwise than the bot on `grid`: only with a `D`
    /// or `T` on it (without, it plays the bot's own game).
    pub fn clean_differs(grid: &Grid) -> bool {
        grid.positions().any(|p| grid.get(p).is_some_and(Cell::is_multiplier))
    }

    /// For the solver's first plans: in a test, the scripted opponent's moves (cell, tick) are
    /// known in advance, so each item is expected to go exactly when the script takes it,
    /// instead of predicting the opponent from its moves so far.
    pub fn knowing(mut self, script: &[(Pos, u32)]) -> Reference {
        let mut by_cell: std::collections::HashMap<Pos, Vec<u32>> = std::collections::HashMap::new();
        for &(p, tick) in script {
            by_cell.entry(p).or_default().push(tick);
        }
        for ticks in by_cell.values_mut() {
            ticks.sort_unstable();
        }
        self.script = Some(by_cell);
        self
    }

    /// Plans its own way of walking only, never also as [`Reference::clean`] (for comparisons:
    /// the bot before it planned both).
    pub fn alone(mut self) -> Reference {
        self.alone = true;
        self
    }

    /// A [`Reference::clean`] whose first routes stop at a power-up no clean way leads to,
    /// as before they took the resource that opens it (`Search::bridge`): another seed for
    /// the solver, which plays otherwise and is the optimum on some maps (course_map(14) and
    /// (30) are proved from it, not from the bridged game).
    pub fn unbridged(mut self) -> Reference {
        self.unbridged = true;
        self
    }

    /// For the solver: the route search's perturbations follow another sequence of random
    /// choices (0, the default, is the bot's own); a few salts find plans one misses.
    pub fn salted(mut self, salt: u64) -> Reference {
        self.salt = salt;
        self
    }

    /// For the solver's first plans: `times` the route-search effort of a test (a bot's answers
    /// would be that much slower).
    pub fn thorough(mut self, times: usize) -> Reference {
        self.effort = times;
        self
    }

    /// Keeps within the course's limits on a slow machine ([`Caps::COURSE`]): what the
    /// `reference` binary plays. Without caps (the default) a game plays the same on any
    /// machine, as the tests' generator and the solver need.
    pub fn capped(self) -> Reference {
        self.capped_by(Caps::COURSE)
    }

    /// [`Reference::capped`] with other caps (the solver's polish: the time left before its hard
    /// stop, so that a game searching ten times longer ends there).
    pub fn capped_by(mut self, caps: Caps) -> Reference {
        self.caps = Some(caps);
        self
    }

    /// How many answers so far ended past their cap ([`Reference::capped`]): a search still
    /// running there stopped, so the game may depend on the machine's speed (0 without caps).
    pub fn answers_at_cap(&self) -> u32 {
        self.at_cap
    }

    /// For the solver: the game's first route search starts from the items `moves` (a plan
    /// from the start) steps on, where it is worth more than its own first route.
    pub fn seeded(mut self, moves: &[Action]) -> Reference {
        self.seeded = Some(moves.to_vec());
        self
    }

    /// The route to follow from `s`, improved from the previous one.
    /// Follows the opponent: where it is, when it last moved, and in tests the map as it sees
    /// it (a recording cannot see this bot: only its own moves clear cells there).
    fn observe(&mut self, s: &GameState) {
        let planner = self.planner.get_or_insert_with(|| Planner::new(&s.grid, s.final_pos(), self.clean));
        let test = s.mode() == Mode::Test;
        if test && self.rival.is_none() {
            // A test's opponent starts where the map says: its first move is checked too.
            self.model.observe(planner, &s.spec.grid, s.spec.starts[1], false, false, None);
        }
        let last = match self.rival {
            None if test => Some(s.spec.starts[1]),
            None => None,
            Some((at, _)) => Some(at),
        };
        let moved = last.is_some_and(|at| at != s.opponent.pos);
        if last.is_some() {
            self.seen += 1;
            self.moves_seen += u32::from(moved);
        }
        self.rival = Some(match self.rival {
            Some((at, ago)) if at == s.opponent.pos => (at, ago.map(|a| a + 1)),
            _ if moved => (s.opponent.pos, Some(0)),
            _ => (s.opponent.pos, None),
        });
        if test {
            let (world, jump) = self.rival_world.get_or_insert_with(|| (s.spec.grid.clone(), false));
            if let Some(item) = world.get(s.opponent.pos).filter(|c| moved && c.is_collectable()) {
                *jump |= item == Cell::Jump;
                world.set(s.opponent.pos, Cell::Floor);
            }
        }
        let (world, jump) = rival_view(&self.rival_world, s);
        self.model.observe(planner, world, s.opponent.pos, jump, moved, racer(s, false, planner));
        if !test {
            self.rate_model.observe(planner, world, s.opponent.pos, jump, moved, racer(s, true, planner));
        }
    }

    /// Whether a duel's opponent is read as going for the item worth most per tick (`greedy`)
    /// rather than for the nearest (`cpp-greedy`): its moves have fit that better (fewer misses
    /// per fit). Over 30 random course maps, both seats against `greedy` and `cpp-greedy`, the
    /// bot's points rose 3.5 %, and 0.2 % on the 20 tests' maps as duels. Read with `greedy`'s
    /// preference for what this bot does not reach first too, 4.9 % and -0.8 %: the prediction
    /// changed with each step of the bot, which walked back and forth between two plans.
    fn rates(&self) -> bool {
        let (n, r) = (&self.model, &self.rate_model);
        !self.unrated
            && r.trusted()
            && u64::from(r.misses) * u64::from(n.fits.max(1)) < u64::from(n.misses) * u64::from(r.fits.max(1))
    }

    /// The model of the opponent that the bot goes by (see [`Reference::rates`]).
    fn opponent_model(&self) -> &OpponentModel {
        if self.rates() {
            &self.rate_model
        } else {
            &self.model
        }
    }

    /// Whether the opponent is predicted (see [`Reference::expected_takes`]).
    fn predicts(&self, s: &GameState) -> bool {
        let moved_lately = self.rival.is_some_and(|(_, ago)| ago.is_some_and(|a| a < 3));
        moved_lately && self.opponent_model().trusted() && s.opponent.pos != s.final_pos()
    }

    /// Whether the opponent has never moved.
    fn still(&self) -> bool {
        self.rival.is_some_and(|(_, ago)| ago.is_none())
    }

    /// Whether plans now count on the opponent's predicted takes (told the script, they know
    /// its takes from the start: nothing begins or ends).
    fn predicted(&self, s: &GameState) -> bool {
        self.script.is_none() && self.predicts(s)
    }

    /// When the opponent is expected to take each item, in ticks from now (`u32::MAX`:
    /// never): an opponent that moves, and whose moves so far fit "it walks to the nearest
    /// item", is expected to keep doing so; any other one is not predicted (it takes nothing).
    fn expected_takes(&self, s: &GameState, limit: u32) -> Vec<u32> {
        let Some(planner) = &self.planner else { return Vec::new() };
        if let (Some(script), Mode::Test) = (&self.script, s.mode()) {
            // Its move of tick T comes before this bot's: the bot's d-th move from now (at tick
            // s.tick + d - 1) wins the item while d <= T - s.tick.
            let next = |p: &Pos| script.get(p).and_then(|ticks| ticks.iter().find(|&&t| t > s.tick));
            return planner.items.iter().map(|p| next(p).map_or(u32::MAX, |&t| t - s.tick + 1)).collect();
        }
        if !self.predicts(s) {
            return self.jump_races(s, limit).unwrap_or_else(|| vec![u32::MAX; planner.items.len()]);
        }
        let (world, jump) = rival_view(&self.rival_world, s);
        let mut takes = planner.predict_takes(world, s.opponent.pos, jump, limit, racer(s, self.rates(), planner));
        if s.mode() == Mode::Test {
            // A test's opponent moves first within a tick, but its next move comes a tick after
            // this answer: the bot's d-th move from now still beats its d-th.
            for t in &mut takes {
                *t = t.saturating_add(1);
            }
        }
        takes
    }

    /// In a duel whose final the bot reaches only by jumping, before the opponent is predicted
    /// (it has not moved yet, or too little to be trusted): when it is expected to take each
    /// `J`, as a [`Racer`] (which, without Jump where only Jump reaches the final, heads for a
    /// `J` first), every other item untouched. A route counting on a `J` the opponent gets first
    /// then misses the final, so the bot races for it (on a 3x5 map whose only `J` opens the
    /// final, it took a `T` and a `D` first, lost the `J` by a tick and scored nothing; racing, it
    /// scores 132 there, and on `maps/duel.txt` 5,166 and 5,328 against `greedy` instead of
    /// 4,084 and 3,838). `None` otherwise, or once the opponent's moves have not fit a racer's,
    /// or it has stood still past the first ticks, finished or forfeited.
    fn jump_races(&self, s: &GameState, limit: u32) -> Option<Vec<u32>> {
        let planner = self.planner.as_ref()?;
        let needs_jump = !s.me.jump && planner.dist[planner.final_node()][0][planner.cell(s.me.pos)] == FAR;
        let lively = match self.rival {
            Some((_, Some(ago))) => ago < 3,
            Some((_, None)) => s.tick <= 3,
            None => false,
        };
        let model = self.opponent_model();
        let racer = racer(s, self.rates(), planner).filter(|_| {
            !self.unraced
                && needs_jump
                && lively
                && model.misses * 4 <= model.fits
                && s.opponent_status() == OpponentStatus::Playing
                && s.opponent.pos != s.final_pos()
        })?;
        let takes = planner.predict_takes(&s.grid, s.opponent.pos, s.opponent.jump, limit, Some(racer));
        let jumps =
            planner.items.iter().zip(takes).map(|(&p, t)| if s.grid.get(p) == Some(Cell::Jump) { t } else { u32::MAX });
        Some(jumps.collect())
    }

    fn plan(&mut self, s: &GameState) {
        let takes = self.expected_takes(s, s.ticks_left());
        let foreseen = self.script.is_some() || self.predicts(s) || self.still();
        let first = self.first_plan(s);
        let open = self.open(s);
        let planner = self.planner.get_or_insert_with(|| Planner::new(&s.grid, s.final_pos(), self.clean));
        let start =
            Start { cell: planner.cell(s.me.pos), jump: s.me.jump, multiplier: s.me.multiplier, limit: s.ticks_left() };
        let available = |k: usize| s.grid.get(planner.items[k]).is_some_and(Cell::is_collectable);
        let candidates: Vec<usize> = (0..planner.items.len()).filter(|&k| available(k)).collect();
        let mut route: Vec<usize> = self.route.iter().copied().filter(|&k| available(k)).collect();
        // Nothing new since the last plan (only the item just stepped on is gone, the opponent
        // is expected to do the same): the settled route stands.
        let just_taken = self.route.first().is_some_and(|&k| planner.items[k] == s.me.pos);
        // (Expected takes compared in absolute ticks: relative ones shift every tick.)
        let absolute: Vec<u32> = takes.iter().map(|&t| t.saturating_add(s.tick)).collect();
        let unchanged = route.len() + usize::from(just_taken) == self.route.len() && absolute == self.planned_with;
        let quiet = unchanged && self.settled && !first;
        let [first_budget, tick_budget, quiet_budget, game_budget] =
            if s.mode() == Mode::Test { TEST_BUDGETS.map(|b| b * self.effort.max(1)) } else { DUEL_BUDGETS };
        let gains = Search::gains(planner, &s.grid);
        let full_mult = (self.clean && s.mode() == Mode::Test)
            .then(|| candidates.iter().fold(s.me.multiplier, |m, &k| m.saturating_mul(gains[k].1)));
        let mut search = Search {
            crossing: s.mode() == Mode::Test && !self.clean,
            bridging: !self.unbridged,
            gains,
            full_mult,
            from_start: Search::from_start(planner, start, full_mult.is_some()),
            duel: s.mode() == Mode::Duel,
            stranded: false,
            open,
            planner,
            grid: &s.grid,
            start,
            takes,
            candidates,
            deadline: self.deadline,
            cut: false,
            walked: 0,
            every_pick: false,
            budget: if first {
                // (A failed exact attempt has taken much of this answer's time already.)
                if self.attempted_at == Some(s.tick) {
                    first_budget / 4
                } else {
                    first_budget
                }
            } else {
                let pool = self.pool.get_or_insert(game_budget);
                (if quiet { quiet_budget } else { tick_budget }).min(*pool * 4 / start.limit.max(1) as usize)
            },
        };
        if route.is_empty() {
            // (In a duel, fetching far power-ups first leaves the near items to the opponent.)
            route = if s.mode() == Mode::Test { search.first_route() } else { search.construct(&[], (0, 1.0)) };
        }
        // The opponent has just become predictable: the route was planned as if it took
        // nothing, and a greedy route that races it for what it is about to take may now be
        // better (in tests: a duel's opponent reacts to the bot).
        if s.mode() == Mode::Test && !first && search.contested() && self.planned_with.iter().all(|&t| t == u32::MAX) {
            let fresh = search.first_route();
            if search.value(&fresh) > search.value(&route) {
                route = fresh;
            }
        }
        if search.value(&route).is_none() {
            // Make the route feasible: the best single item (a `J`, when only jumping reaches
            // the final), else nothing. In a duel where nothing reaches the final in time any
            // more, a route that collects what it can instead (see `Search::stranded`).
            let single = std::iter::once(Vec::new())
                .chain(search.candidates.clone().into_iter().map(|k| vec![k]))
                .filter_map(|r| search.value(&r).map(|v| (v, r)))
                .max_by_key(|(v, _)| *v)
                .map(|(_, r)| r);
            route = match single {
                Some(single) => single,
                None if s.mode() == Mode::Duel && !self.unstranded => {
                    search.stranded = true;
                    search.construct(&[], (0, 1.0))
                }
                None => Vec::new(),
            };
        }
        // The plan of an exact attempt that proved nothing (or the solver's seed, on the first
        // plan), as a route: the search starts from it where it is worth more (random maps
        // 1-250: +0.22 %; test16 1,425 -> 1,466). The clean variant keeps its own first routes,
        // which are why it is planned (test12's optimum).
        if let Some(moves) = self.seeded.take().filter(|_| first) {
            self.hint = Some(stepped_on(&s.grid, &moves));
        }
        if let Some(hint) = self.hint.take().filter(|_| !self.clean) {
            let item = |p: &Pos| search.candidates.iter().copied().find(|&k| planner.items[k] == *p);
            let hinted: Vec<usize> = hint.iter().filter_map(item).collect();
            if search.value(&hinted) > search.value(&route) {
                route = hinted;
            }
        }
        let given = search.budget;
        self.settled = search.improve(&mut route, &mut self.seed);
        // Against an opponent that moves, fits no racer and sometimes waits (as the tests'
        // wanderer does): routes hedged against its random walks (see `hedge`).
        let mut hedged = 0;
        let wanders = s.mode() == Mode::Test
            && !self.clean
            && !foreseen
            && self.moves_seen > 0
            && self.moves_seen < self.seen
            && s.opponent_status() == OpponentStatus::Playing
            && !search.contested();
        if wanders && !search.out_of_time() {
            let (world, jump) = rival_view(&self.rival_world, s);
            let rate = f64::from(self.moves_seen) / f64::from(self.seen);
            let mut seed = WALK_SEED ^ u64::from(s.tick);
            let walks = walks(planner, world, s.opponent.pos, jump, rate, start.limit, WALKS, &mut seed);
            let budget = tick_budget.min(self.pool.map_or(tick_budget, |p| p * 4 / start.limit.max(1) as usize));
            let left = search.budget;
            hedged = hedge(&mut search, &walks, &mut route, budget, &mut self.seed);
            search.budget = left;
        }
        self.value = search.value(&route);
        // (In a duel the opponent would take what the bot leaves for later.)
        self.saved = if s.mode() == Mode::Test { search.saved(&route) } else { Default::default() };
        // A way to the next stop a little longer than the shortest may step round what the
        // route saves for later: one tick longer holding Jump, else two (without Jump every
        // step changes the distance by one). It is walked when what it saves beats what the
        // whole route loses by the delay (searched again, that much later, for the same first
        // stop). (Only where the opponent's takes are foreseen, or it has never moved: the
        // delay is judged by them, and against a wanderer it lost the races the route counted
        // on.)
        self.detour = None;
        let slack: u16 = if s.me.jump { 1 } else { 2 };
        if s.mode() == Mode::Test && !self.clean && start.limit > u32::from(slack) && foreseen {
            let way = Way::new(planner, s, &route, &self.saved);
            if let (Some((short, _)), Some((long, step))) = (way.best(0), way.best(slack)) {
                if long > short {
                    for take in search.takes.iter_mut().filter(|t| **t != u32::MAX) {
                        *take = take.saturating_sub(u32::from(slack));
                    }
                    search.start.limit -= u32::from(slack);
                    search.budget += given;
                    let mut later = route.clone();
                    search.improve(&mut later, &mut self.seed);
                    let delayed = search.value(&later);
                    let gained = |v: Option<Value>, walk: i64| v.map(|v| v.0.saturating_add(walk));
                    if later.first() == route.first() && gained(delayed, long) > gained(self.value, short) {
                        self.detour = Some(step);
                        self.value = delayed;
                        self.saved = search.saved(&later);
                        route = later;
                    }
                    search.budget = search.budget.saturating_sub(given);
                }
            }
        }
        if let (false, Some(pool)) = (first, &mut self.pool) {
            // (Near the end a tick may be given more than the pool holds: see `budget` above.)
            *pool = pool.saturating_sub(given.saturating_sub(search.budget)).saturating_sub(hedged);
        }
        self.planned_with = absolute;
        self.route = route;
    }
}

impl Reference {
    /// Whether the route about to be planned is the game's first.
    fn first_plan(&self, s: &GameState) -> bool {
        self.route.is_empty() && s.tick <= 1
    }

    /// On the first tick of a test whose map is small enough for the exact search (and whose
    /// attempt just failed), with a `D` or `T` on it: this bot as [`Reference::clean`], to plan
    /// the first route that way too; the bot plays the variant whose route is worth more for
    /// the rest of the game. (test12: the clean route is the optimum, 1174 against 1164.)
    fn clean_twin(&mut self, s: &GameState) -> Option<Reference> {
        let small = self.attempted_at == Some(s.tick) && self.exact.is_none();
        let wanted = s.mode() == Mode::Test && !self.clean && !self.alone && self.first_plan(s) && small;
        if !(wanted && Reference::clean_differs(&s.grid)) {
            return None;
        }
        // (The twin's tables also walk clean: this bot's are not copied.)
        let own = self.planner.take();
        let twin = Reference { clean: true, planner: Some(Planner::new(&s.grid, s.final_pos(), true)), ..self.clone() };
        self.planner = own;
        Some(twin)
    }

    /// The next move of a proved-optimal (or certified near-optimal) plan, planning one when
    /// the search may fit: on the first tick, when the opponent took an item the plan counted
    /// on or its prediction began or ended (course_map(36): a greedy racer, predicted from its
    /// second move, would take what the first tick's plan counts on later, and planned at once
    /// the bot scores the optimum, 337, instead of 310 when it took the first of them;
    /// course_map(164): a wanderer whose first moves fit a racer's is planned around only until
    /// they stop fitting), and again when the ticks left have fallen to [`AGAIN_BELOW`] (or
    /// [`STILL_AGAIN_BELOW`]) of what they were when an attempt proved nothing.
    fn exact_move(&mut self, s: &GameState) -> Option<Action> {
        let predicted = self.predicted(s);
        if let Some(plan) = &mut self.exact {
            let intact = plan.needs.iter().all(|&p| s.grid.get(p).is_some_and(Cell::is_collectable));
            if intact && plan.predicted == predicted {
                if let Some(action) = plan.moves.pop_front() {
                    if let Action::Move(p) = action {
                        plan.needs.retain(|&q| q != p);
                    }
                    return Some(action);
                }
            }
            // (Where no attempt follows, the route search plans around the new prediction:
            // keeping the plan instead lost course_map(84) 1,608 -> 1,452.)
            self.exact = None;
        }
        let left = s.ticks_left();
        // (Predicting the opponent is worth it only when an attempt may follow.)
        let ((num, den), most) =
            if self.still() { (STILL_AGAIN_BELOW, STILL_ATTEMPTS) } else { (AGAIN_BELOW, EXACT_ATTEMPTS) };
        let waiting = self.gave_up_at.is_some_and(|at| left * den > at * num);
        if self.attempts >= most || (waiting && (self.foreseen || !self.predicts(s))) {
            return None;
        }
        let cleared: Vec<(Pos, u32)> = match &self.planner {
            Some(planner) => self
                .expected_takes(s, left)
                .iter()
                .zip(&planner.items)
                .filter(|(&t, _)| t != u32::MAX)
                .map(|(&t, &p)| (p, t))
                .collect(),
            None => Vec::new(),
        };
        // A first prediction of the opponent makes a new problem, often a much smaller one.
        let foreseen = !cleared.is_empty() && !self.foreseen;
        if waiting && !foreseen {
            return None;
        }
        self.foreseen |= foreseen;
        let items = s.grid.positions().filter(|p| s.grid.get(*p).is_some_and(Cell::is_collectable)).count();
        self.attempts += 1;
        let problem = Problem {
            grid: s.grid.clone(),
            start: s.me.pos,
            final_pos: s.final_pos(),
            jump: s.me.jump,
            multiplier: s.me.multiplier,
            ticks: left,
            // The opponent's future moves are unknown: the plan assumes it takes what it is
            // expected to (see `expected_takes`), or nothing more.
            cleared,
        };
        // The exact search's tables grow with items x cells x ticks: on maps too large for them,
        // only the route search plays (the relaxation alone, on this budget, proves nothing
        // there and takes 100-200 ms of the first answer).
        let cells = s.grid.rows() * s.grid.cols();
        if items * cells * left as usize > EXACT_TABLES {
            self.gave_up_at = Some(0);
            return None;
        }
        let model = Model::new(problem);
        let budget = Budget {
            beams: vec![32],
            quick_states: EXACT_STATES / 4,
            steps: 400,
            relax_work: RELAX_WORK,
            bundle: false,
            memory: 0,
            memory_work: 0,
            lap_work: 0,
            guided_beams: vec![GUIDED_BEAM],
            exact_states: EXACT_STATES,
            first_certify_states: 0,
            first_certify_gap: 0.0,
            widen_states: 0,
            certify_gaps: vec![],
            hopeless_gap: HOPELESS_GAP,
        };
        self.attempted_at = Some(s.tick);
        let deadline = self.deadline;
        let late = move |_| deadline.is_some_and(|d| d.passed());
        let planned = best_plan(&model, &budget, None, &late, &|_, _| None);
        if !planned.proved {
            self.gave_up_at = Some(left);
        }
        let plan = planned.plan?;
        // A plan neither proved optimal nor certified within 1 % of the bound is left for the
        // local search's route, which goes on improving every tick.
        let close = planned.bound.is_some_and(|b| b as f64 <= plan.score as f64 * 1.01);
        // The items the plan steps on, in order: what it needs intact, or a route to start from.
        let needs = stepped_on(&s.grid, &plan.moves);
        if !planned.proved && !close {
            self.hint = Some(needs);
            return None;
        }
        self.exact = Some(ExactPlan { moves: plan.moves.into(), needs, predicted });
        self.exact_move(s)
    }
}

impl Bot for Reference {
    fn start(&mut self, state: &GameState) {
        self.seed = 0x9E37_79B9_7F4A_7C15 ^ (state.spec.rounds as u64) ^ self.salt.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let (me, them) = (state.me.pos, state.opponent.pos);
        self.yields = (me.x, me.y) > (them.x, them.y);
    }

    fn act(&mut self, s: &GameState) -> Action {
        let Some(caps) = self.caps.filter(|_| s.mode() == Mode::Test) else { return self.answer(s) };
        let began = (caps.clock)();
        let at = began + caps.answer.min(caps.game.saturating_sub(self.thinking));
        self.deadline = Some(Deadline { at, clock: caps.clock, backstop: caps.backstop });
        let action = self.answer(s);
        let ended = (caps.clock)();
        self.thinking += ended.saturating_sub(began);
        self.at_cap += u32::from(ended > at);
        action
    }
}

impl Reference {
    /// This tick's answer (see [`Reference::act`], which counts its time against the caps).
    fn answer(&mut self, s: &GameState) -> Action {
        self.observe(s);
        // Plans assume the opponent takes nothing more: right for a scripted test opponent,
        // not for a duel's, where the route search's handling of the opponent plays.
        if s.mode() == Mode::Test {
            if let Some(action) = self.exact_move(s) {
                return action;
            }
        }
        // Two bots on the same cell cancel each other's takes; an opponent that plays like this
        // one would stay in step for the whole game (on a symmetric map neither scored nor
        // finished, a cancelled `J` stranding both). The bot that started last in reading
        // order waits a tick to fall out of step after three ticks on a shared cell.
        let same_cell = s.mode() == Mode::Duel && s.tick > 1 && s.opponent.pos == s.me.pos;
        self.in_step = if same_cell { self.in_step + 1 } else { 0 };
        self.last = if self.in_step >= 3 && self.yields {
            self.in_step = 0;
            Some(Action::Wait)
        } else {
            match self.clean_twin(s) {
                Some(mut twin) => {
                    twin.plan(s);
                    self.plan(s);
                    // Routes worth the same: the one that walks to more. (The clean route's
                    // value is what walking it collects; the default's counts each stop once
                    // and nothing of what its legs walk through, so it may claim more than any
                    // walk: course_map(13), both 1,662, the default walking to 1,522.)
                    let (a, b) = (twin.value.map(|v| v.0), self.value.map(|v| v.0));
                    if a > b || (a == b && twin.walked(s) > self.walked(s)) {
                        *self = twin;
                    }
                }
                None => self.plan(s),
            }
            Some(self.route_step(s))
        };
        self.last.unwrap_or(Action::Wait)
    }
}

impl Reference {
    /// Whether routes end anywhere (see [`Search::open`]): in a duel, unless only a jump
    /// reaches the final from the bot, which holds no Jump. There a `J` is also what the greedy
    /// opponents need to collect anything (they head only for items they can finish from), and
    /// routes that must reach the final take it first, where open ones let the opponent have it
    /// (on a 3x5 map whose only `J` opens the final, 132 -> 0).
    fn open(&self, s: &GameState) -> bool {
        let gated =
            self.planner.as_ref().is_some_and(|p| !s.me.jump && p.dist[p.final_node()][0][p.cell(s.me.pos)] == FAR);
        s.mode() == Mode::Duel && !self.finishing && !gated
    }

    /// The next step along the local search's route.
    fn route_step(&mut self, s: &GameState) -> Action {
        let Some(planner) = &self.planner else { return Action::Wait };
        if let Some(step) = self.detour.take() {
            return Action::Move(step);
        }
        step_along(planner, s, &self.route, &self.saved, self.open(s))
    }

    /// What following the planned route from `s` scores, walked tick by tick as
    /// [`Reference::route_step`] walks it (no new search, no detour), with the opponent's
    /// expected takes clearing their items: the route's worth as the bot would collect it, where
    /// the route search's value knows nothing of what a leg walks through. `None`: it misses the
    /// final.
    fn walked(&self, s: &GameState) -> Option<i64> {
        let planner = self.planner.as_ref()?;
        let takes = self.expected_takes(s, s.ticks_left());
        let mut sim = s.clone();
        let mut route = self.route.clone();
        for d in 1..=s.ticks_left() {
            for (k, _) in takes.iter().enumerate().filter(|&(_, &t)| t <= d) {
                if sim.grid.get(planner.items[k]).is_some_and(Cell::is_collectable) {
                    sim.grid.set(planner.items[k], Cell::Floor);
                }
            }
            route.retain(|&k| sim.grid.get(planner.items[k]).is_some_and(Cell::is_collectable));
            sim.commit(step_along(planner, &sim, &route, &self.saved, self.open(s)));
            sim.tick += 1;
            if sim.me.pos == sim.final_pos() {
                return Some(sim.me.score - s.me.score);
            }
        }
        None
    }
}

/// The items `moves` steps on in `grid`, in order, each once.
fn stepped_on(grid: &Grid, moves: &[Action]) -> Vec<Pos> {
    let mut cells: Vec<Pos> = Vec::new();
    for action in moves {
        if let Action::Move(p) = action {
            if grid.get(*p).is_some_and(Cell::is_collectable) && !cells.contains(p) {
                cells.push(*p);
            }
        }
    }
    cells
}

/// The step along `route` (see [`Reference::route_step`]). An `open` route (see
/// [`Search::open`]) done goes on to the final only for a resource there: reaching it would
/// end the bot's game for nothing, and an item the opponent was expected to take may yet be
/// left.
fn step_along(
    planner: &Planner,
    s: &GameState,
    route: &[usize],
    saved: &std::collections::HashMap<Pos, i64>,
    open: bool,
) -> Action {
    let way = Way::new(planner, s, route, saved);
    let here = way.here();
    let pointless = open && route.is_empty() && !matches!(s.grid.get(s.final_pos()), Some(Cell::Resource(_)));
    if here == FAR || (here == 0 && route.is_empty()) || pointless {
        return Action::Wait;
    }
    if here == 0 {
        // The next item is under the bot: step off (onto the best neighbour), then back.
        return s
            .safe_moves()
            .into_iter()
            .filter(|&q| q != s.final_pos())
            .max_by_key(|&q| (way.gain(q), std::cmp::Reverse((q.x, q.y))))
            .map_or(Action::Wait, Action::Move);
    }
    way.best(0).map_or(Action::Wait, |(_, q)| Action::Move(q))
}

/// The bot's way to its route's next stop: a step one closer each tick (never onto the final
/// before the route is done), on the shortest path worth most (see [`Way::gain`]).
struct Way<'a> {
    planner: &'a Planner,
    s: &'a GameState,
    saved: &'a std::collections::HashMap<Pos, i64>,
    /// Ticks to the next stop from each cell.
    table: &'a [u16],
    target: Pos,
    /// The cells of the route's stops.
    ahead: Vec<bool>,
    /// The final, while the route has stops left.
    end: Option<usize>,
}

impl<'a> Way<'a> {
    fn new(
        planner: &'a Planner,
        s: &'a GameState,
        route: &[usize],
        saved: &'a std::collections::HashMap<Pos, i64>,
    ) -> Way<'a> {
        let target = route.first().copied().unwrap_or(planner.final_node());
        // With a `D` or `T` still ahead on the route (in tests), the clean planner's legs walk
        // through no resource where they can (see [`Reference::clean`]).
        let saving = s.mode() == Mode::Test
            && route.iter().any(|&k| s.grid.get(planner.items[k]).is_some_and(Cell::is_multiplier));
        let clean = planner.clean.get(target).map(|t| &t[s.me.jump as usize]);
        let table = match clean {
            Some(clean) if saving && clean[planner.cell(s.me.pos)] != FAR => clean,
            _ => &planner.dist[target][s.me.jump as usize],
        };
        let mut ahead = vec![false; table.len()];
        for &k in route {
            ahead[planner.cell(planner.items[k])] = true;
        }
        Way {
            planner,
            s,
            saved,
            table,
            target: planner.items.get(target).copied().unwrap_or(s.final_pos()),
            ahead,
            end: (!route.is_empty()).then(|| planner.cell(s.final_pos())),
        }
    }

    /// Ticks from the bot to the next stop.
    fn here(&self) -> u16 {
        self.table[self.planner.cell(self.s.me.pos)]
    }

    /// What stepping onto a cell on the way is worth: the route search values each stop at
    /// its own multiplier and knows nothing of the cells a leg walks through, so a resource
    /// the route takes later, after a `D` or `T`, loses what the multiplier would add (in
    /// tests, see `saved`); any other is taken at today's multiplier.
    fn gain(&self, p: Pos) -> i64 {
        let s = self.s;
        match s.grid.get(p) {
            _ if p == self.target => 0,
            Some(Cell::Resource(v)) => {
                i64::from(v).saturating_mul(s.me.multiplier - self.saved.get(&p).copied().unwrap_or(0))
            }
            // (A power-up the route takes later is left for then: the route's value counts on
            // the way it walks there.)
            Some(Cell::Double | Cell::Triple | Cell::Jump) if self.ahead[self.planner.cell(p)] => 0,
            Some(Cell::Double | Cell::Triple) => 1_000_000,
            Some(Cell::Jump) if !s.me.jump => 100_000,
            _ => 0,
        }
    }

    /// The first step of the way worth most that reaches the next stop `slack` ticks later than
    /// the shortest, and what the way is worth (see [`Way::gain`]). A step that comes no
    /// closer uses a tick of slack (only holding Jump can such a way land on the stop), a step
    /// away two.
    fn best(&self, slack: u16) -> Option<(i64, Pos)> {
        let (p, table) = (self.planner, self.table);
        let here = self.here();
        if here == 0 || here == FAR {
            return None;
        }
        // `rest[k][c]`: what the rest of the way is worth from cell `c` with `k` ticks of slack
        // left (a step that comes no closer uses one, a step away two), by ticks left (over the
        // planner's move lists: walls, voids and fire never change). The stop itself is only
        // reached at the end.
        let moves = &p.moves[usize::from(self.s.me.jump)];
        let pos = |c: usize| Pos::new((c / p.cols) as i32, (c % p.cols) as i32);
        let slack = usize::from(slack);
        let on = |from: usize, k: usize| {
            moves[from].iter().map(|&n| n as usize).filter(move |&n| Some(n) != self.end).filter_map(move |n| {
                // Slack left after the step: ticks left then, less the way from there.
                (usize::from(table[from]) + k).checked_sub(1 + usize::from(table[n])).map(|left| (n, left))
            })
        };
        let mut cells: Vec<(usize, usize)> = (0..table.len())
            .flat_map(|c| (0..=slack).map(move |k| (c, k)))
            .filter(|&(c, k)| usize::from(table[c]) + k < usize::from(here) + slack)
            .collect();
        cells.sort_by_key(|&(c, k)| usize::from(table[c]) + k);
        let mut rest = vec![vec![None; table.len()]; slack + 1];
        let worth = |rest: &[Vec<Option<i64>>], (q, k): (usize, usize)| {
            rest[k][q].map(|w: i64| w.saturating_add(self.gain(pos(q))))
        };
        for (c, k) in cells {
            rest[k][c] = match (table[c], k) {
                (0, 0) => Some(0),
                (0, _) => None,
                _ => on(c, k).filter(|&(_, left)| left <= k).filter_map(|nk| worth(&rest, nk)).max(),
            };
        }
        let bot = p.cell(self.s.me.pos);
        let firsts: Vec<(i64, usize)> = on(bot, slack)
            .filter(|&(_, left)| left <= slack)
            .filter_map(|(q, left)| worth(&rest, (q, left)).map(|w| (w, q)))
            .collect();
        firsts
            .into_iter()
            .map(|(w, q)| (w, std::cmp::Reverse((pos(q).x, pos(q).y)), q))
            .max()
            .map(|(w, _, q)| (w, pos(q)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot_sdk::MapSpec;

    /// The route's value walked straight from the grid, independently of `Search`: the
    /// oracle the searches' values are checked against.
    fn evaluate(p: &Planner, grid: &Grid, start: Start, takes: &[u32], route: &[usize]) -> Option<Value> {
        let (mut cell, mut jump, mut mult, mut score, mut time) =
            (start.cell, start.jump, start.multiplier, 0i64, 0u32);
        for &k in route {
            let mut d = p.dist[k][jump as usize][cell];
            if d == 0 {
                // An item under the bot is only taken by stepping off and back on.
                if !p.leave[cell] {
                    return None;
                }
                d = 2;
            }
            if d == FAR {
                return None;
            }
            time += u32::from(d);
            if time > start.limit {
                return None;
            }
            cell = p.cell(p.items[k]);
            if time >= takes[k] {
                continue;
            }
            match grid.get(p.items[k]) {
                Some(Cell::Resource(v)) => score = score.saturating_add(i64::from(v).saturating_mul(mult)),
                Some(Cell::Jump) => jump = true,
                Some(Cell::Double) => mult = mult.saturating_mul(2),
                Some(Cell::Triple) => mult = mult.saturating_mul(3),
                _ => {}
            }
        }
        let d = p.dist[p.final_node()][jump as usize][cell];
        if d == FAR || time + u32::from(d) > start.limit {
            return None;
        }
        if let Some(Cell::Resource(v)) = grid.get(p.final_pos) {
            score = score.saturating_add(i64::from(v).saturating_mul(mult));
        }
        Some((score, std::cmp::Reverse(time + u32::from(d))))
    }

    /// A map's spec, its planner (`clean` or not) and where its first player starts.
    fn set_up(text: &str, clean: bool) -> (MapSpec, Planner, Start) {
        let spec = MapSpec::parse(text).unwrap();
        let planner = Planner::new(&spec.grid, spec.final_pos, clean);
        let start = Start { cell: planner.cell(spec.starts[0]), jump: false, multiplier: 1, limit: spec.rounds };
        (spec, planner, start)
    }

    /// A test's first tick on the map `header` (its opponent waits), planned by the reference.
    fn first_tick(header: &str) -> (GameState, Reference) {
        let mut s = GameState::from_header(header, Mode::Test).unwrap();
        s.on_tick(1, Action::Wait);
        let mut bot = Reference::default();
        bot.start(&s);
        bot.observe(&s);
        bot.plan(&s);
        (s, bot)
    }

    /// The project's test `number` (`maps/tests`) at `tick`, its opponent's moves so far not
    /// applied (the tests that use it read only the map and the ticks left).
    fn project_test_at(number: usize, tick: u32) -> GameState {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../maps/tests/test{number}.txt"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut s = GameState::from_header(&text, Mode::Test).unwrap();
        s.on_tick(tick, Action::Wait);
        s
    }

    /// The index of the item at (`x`, `y`).
    fn item_at(planner: &Planner, x: i32, y: i32) -> usize {
        planner.items.iter().position(|&q| q == Pos::new(x, y)).unwrap()
    }

    /// A test-mode search over every item, with no budget limit.
    fn unbounded<'a>(p: &'a Planner, grid: &'a Grid, start: Start, takes: Vec<u32>, full: Option<i64>) -> Search<'a> {
        Search {
            crossing: false,
            bridging: true,
            gains: Search::gains(p, grid),
            full_mult: full,
            from_start: Search::from_start(p, start, full.is_some()),
            duel: false,
            stranded: false,
            open: false,
            planner: p,
            grid,
            start,
            takes,
            candidates: (0..p.items.len()).collect(),
            budget: usize::MAX,
            deadline: None,
            cut: false,
            walked: 0,
            every_pick: false,
        }
    }

    /// A duel's open routes (see `Search::open`): every splice valued from a walk is worth what
    /// the whole new route is, whether it (or the route walked) ends on the final or at its
    /// last stop; both happen (the first routes use every tick, shorter ones finish).
    #[test]
    fn open_splices_are_valued_as_whole_routes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let mut seed = 0x8765_4321_u64;
        let (mut finishing, mut stranded) = (0, 0);
        for k in [9, 12, 13, 15, 19] {
            let text = std::fs::read_to_string(dir.join(format!("test{k}.txt"))).unwrap();
            let (spec, planner, start) = set_up(&text, false);
            let opponent = planner.predict_takes(&spec.grid, spec.starts[1], false, spec.rounds, None);
            for takes in [vec![u32::MAX; planner.items.len()], opponent] {
                let mut search = unbounded(&planner, &spec.grid, start, takes, None);
                search.open = true;
                let mut ending = unbounded(&planner, &spec.grid, start, search.takes.clone(), None);
                ending.stranded = true;
                let route = search.construct(&[], (0, 1.0));
                let walked = search.walk(&route).expect("an open route is feasible");
                for _ in 0..4000 {
                    let Some((a, b, ins)) = random_splice(&mut seed, &route, planner.items.len()) else { continue };
                    let whole = [&route[..a], &ins, &route[b..]].concat();
                    let expected = search.value(&whole);
                    assert_eq!(search.splice(&walked, &route, a, b, &ins), expected, "test{k}: {a}..{b} <- {ins:?}");
                    // (Ending at the last stop, the route is worth what a stranded one is.)
                    match expected {
                        Some(v) if Some(v) == ending.value(&whole) => stranded += 1,
                        Some(_) => finishing += 1,
                        None => {}
                    }
                }
            }
        }
        assert!(finishing > 1_000 && stranded > 1_000, "both ends are checked ({finishing} finish, {stranded} not)");
    }

    /// A random splice of `route` (of `items` items): `route[a..b]` replaced by `ins` (that
    /// stretch reversed, nothing, or one item), or `None` where `ins` would repeat a stop.
    fn random_splice(seed: &mut u64, route: &[usize], items: usize) -> Option<(usize, usize, Vec<usize>)> {
        let a = next(seed) as usize % (route.len() + 1);
        let b = (a + next(seed) as usize % 4).min(route.len());
        let ins: Vec<usize> = match next(seed) % 3 {
            0 => route[a..b].iter().rev().copied().collect(),
            1 => vec![],
            _ => vec![next(seed) as usize % items],
        };
        (!ins.iter().any(|k| route.contains(k) && !route[a..b].contains(k))).then_some((a, b, ins))
    }

    /// Every splice valued from a walk (insert, swap, remove, reverse), and every route valued
    /// by `Search::value`, is worth exactly what walking the whole new route on the grid gives,
    /// with and without items the opponent takes first.
    #[test]
    fn splices_are_valued_as_whole_routes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let mut seed = 0x1234_5678_u64;
        let (mut fast, mut slow, mut clean) = (0, 0, 0);
        for k in [9, 12, 13, 15, 19] {
            let text = std::fs::read_to_string(dir.join(format!("test{k}.txt"))).unwrap();
            let (spec, planner, start) = set_up(&text, true);
            let opponent = planner.predict_takes(&spec.grid, spec.starts[1], false, spec.rounds, None);
            let gains = Search::gains(&planner, &spec.grid);
            let full: i64 = gains.iter().map(|g| g.1).product();
            // Both ways of walking: the default, and clean (whose routes the grid walk below does
            // not know: there, whole routes are the reference).
            for (takes, full_mult) in [vec![u32::MAX; planner.items.len()], opponent]
                .into_iter()
                .flat_map(|takes| [(takes.clone(), None), (takes, Some(full))])
            {
                let mut search = unbounded(&planner, &spec.grid, start, takes, full_mult);
                let route = search.first_route();
                let Some(walked) = search.walk(&route) else {
                    assert!(full_mult.is_some(), "test{k}: a first route is feasible");
                    continue;
                };
                for _ in 0..4000 {
                    let Some((a, b, ins)) = random_splice(&mut seed, &route, planner.items.len()) else { continue };
                    let whole = [&route[..a], &ins, &route[b..]].concat();
                    let expected = match full_mult {
                        None => evaluate(&planner, &spec.grid, start, &search.takes, &whole),
                        Some(_) => search.value(&whole),
                    };
                    assert_eq!(search.value(&whole), expected, "test{k}: {whole:?}");
                    let budget = search.budget;
                    assert_eq!(search.splice(&walked, &route, a, b, &ins), expected, "test{k}: {a}..{b} <- {ins:?}");
                    match budget - search.budget {
                        spent if spent <= ins.len() + 1 => fast += 1,
                        _ => slow += 1,
                    }
                    clean += usize::from(full_mult.is_some());
                }
            }
        }
        assert!(
            fast > 3 * slow && slow > 100,
            "both ways are checked, the walk-free one most ({fast} fast, {slow} not)"
        );
        assert!(clean > 5_000, "clean routes are checked too ({clean})");
    }

    /// A 3x5 duel map whose only `J` opens the way to the final (walled in on the right): from
    /// (0, 0) the bot wins the `J` by a tick if it goes there first; from (2, 3) it cannot.
    const J_GATED: &str = "ARENA 3 5 12\n0 0\n2 3\n1 4\nMAP\n0 0 0 22 W\n0 J 0 W 0\nT D 0 0 W\nEND_MAP\nSTREAM\n";

    /// Plays `map` as a duel between `bot` (in `seat`, 0 or 1) and the `greedy` sample, as the
    /// arena does (both moves of a tick at once; a player on the final stops): the bot's score
    /// and whether it finished.
    fn duel_with_greedy(map: &str, mut bot: Reference, seat: usize) -> (i64, bool) {
        let spec = MapSpec::parse(map).unwrap();
        let mut states = [0, 1].map(|me| GameState::from_header(&spec.header_for(me), Mode::Duel).unwrap());
        let mut greedy = crate::greedy::Greedy;
        bot.start(&states[seat]);
        greedy.start(&states[1 - seat]);
        let mut last = [Action::Wait; 2];
        for tick in 1..=spec.rounds + 1 {
            for me in 0..2 {
                states[me].on_tick(tick, last[1 - me]);
            }
            if tick > spec.rounds {
                break;
            }
            for me in 0..2 {
                let s = &states[me];
                last[me] = match (s.me.pos == s.final_pos(), me == seat) {
                    (true, _) => Action::Wait,
                    (false, true) => bot.act(s),
                    (false, false) => greedy.act(s),
                };
                states[me].commit(last[me]);
            }
        }
        let s = &states[seat];
        (s.me.score, s.me.pos == s.final_pos())
    }

    /// On [`J_GATED`] the opponent (`greedy`, from (2, 3)) heads for the `J` at once, three
    /// steps away. Counting on that from the first tick, the bot (from (0, 0)) takes the `J`
    /// first, two steps away, then the `D`, the `T` and the 22 at x6: 132 (not finishing, which
    /// would add nothing);
    /// the control, which predicts nothing before the opponent has moved twice, went for the
    /// `T` and the `D` first, lost the `J` by a tick and stood still: 0, not finished.
    #[test]
    fn in_a_duel_the_bot_races_for_the_only_jump_that_opens_the_final() {
        assert_eq!(duel_with_greedy(J_GATED, Reference::default(), 0), (132, false));
        let control = Reference { unraced: true, unstranded: true, finishing: true, ..Reference::default() };
        assert_eq!(duel_with_greedy(J_GATED, control, 0), (0, false));
    }

    /// [`J_GATED`] with its `J` gone: neither player can reach the final. A duel's player keeps
    /// what it collected, so the bot (from (0, 0)) still takes the `D`, the `T` and the 22 at
    /// x6, 132 points, while `greedy` waits; the control, which plans only routes that finish,
    /// found none and stood still all game: 0.
    #[test]
    fn in_a_duel_whose_final_is_out_of_reach_the_bot_still_collects() {
        let map = J_GATED.replace(" J ", " 0 ");
        assert_eq!(duel_with_greedy(&map, Reference::default(), 0), (132, false));
        let control = Reference { unstranded: true, finishing: true, ..Reference::default() };
        assert_eq!(duel_with_greedy(&map, control, 0), (0, false));
    }

    /// On `maps/jump.txt` the bot, as player 2, takes the `J` beside it and the 40 across the
    /// wall at tick 3, while `greedy` takes its own `J`. Read as `greedy` plays (the item worth
    /// most per tick that this bot does not reach first, see [`Reference::rates`]), the opponent
    /// is expected to jump for the other 40 next, by tick 7, so the bot jumps there first (tick
    /// 5) and takes the 9 and the 5 after: 94. The control read it as walking to the nearest
    /// item (the 9 on its own side), took the 5 and the 9 first, lost the 40 by a tick: 54.
    #[test]
    fn in_a_duel_the_bot_reads_greedy_as_going_for_the_most_per_tick() {
        let map = include_str!("../../maps/jump.txt");
        assert_eq!(duel_with_greedy(map, Reference::default(), 1).0, 94);
        let control = Reference { unrated: true, ..Reference::default() };
        assert_eq!(duel_with_greedy(map, control, 1).0, 54);
        // On `maps/multipliers.txt`, as player 2, the bot meets `greedy` beside the 30 at (1, 3)
        // at tick 9, both at x6: `greedy` waits there on every other tick ([`Racer::waits`]), so
        // the bot takes it (204). Read as taking it at once, the bot left it: 48.
        let map = include_str!("../../maps/multipliers.txt");
        assert_eq!(duel_with_greedy(map, Reference::default(), 1).0, 204);
    }

    /// A 3x6 duel map of 5 rounds: the bot at (0, 0), its final right below it, five 10s in a
    /// row to its right; `greedy` walled off at (2, 5), too far from the final to reach it.
    const LAST_TICKS: &str =
        "ARENA 3 6 5\n0 0\n2 5\n1 0\nMAP\n0 10 10 10 10 10\n0 W W W W W\n0 0 0 0 0 0\nEND_MAP\nSTREAM\n";

    /// On [`LAST_TICKS`] reaching the final is worth nothing in a duel: the bot spends all five
    /// ticks collecting, 50 points, and does not finish; the control (the old rule: routes must
    /// reach the final) took two 10s and walked back, 20. With a 45 on the final, ending there
    /// is worth more (two 10s and the 45, 65), and the bot finishes.
    #[test]
    fn in_a_duel_the_bot_spends_its_last_ticks_collecting_rather_than_finishing() {
        assert_eq!(duel_with_greedy(LAST_TICKS, Reference::default(), 0), (50, false));
        let control = Reference { finishing: true, ..Reference::default() };
        assert_eq!(duel_with_greedy(LAST_TICKS, control, 0), (20, true));
        let rich = LAST_TICKS.replace("\n0 W", "\n45 W");
        assert_eq!(duel_with_greedy(&rich, Reference::default(), 0), (65, true));
    }

    /// A duel's opponent on `maps/duel.txt`, whose final only Jump reaches: as a [`Racer`] it
    /// heads for the `J` six steps away (as `cpp-greedy` and `greedy` do), not the 22 four
    /// steps away that the plain nearest-item model (the control, as tests follow recordings)
    /// expects; and of the nearest items it takes the worthiest, not the first in reading order.
    #[test]
    fn a_duels_opponent_is_predicted_as_a_racer_that_keeps_its_way_to_the_final() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/duel.txt")).unwrap();
        let (spec, planner, _) = set_up(&text, false);
        let at = |p: &Planner, x, y| p.cell(Pos::new(x, y));
        let racer = Some(Racer { left: spec.rounds, mult: 1, rate: false, waits: false });
        let everything = || 0..planner.items.len();
        let from = at(&planner, 0, 11);
        let plain = planner.heading(&spec.grid, everything(), from, false, None);
        assert_eq!(plain, Some((item_at(&planner, 3, 10), 4)), "the control heads for the nearest item");
        let racing = planner.heading(&spec.grid, everything(), from, false, racer);
        assert_eq!(racing, Some((item_at(&planner, 4, 11), 6)), "the racer heads for the J");
        let takes = planner.predict_takes(&spec.grid, Pos::new(0, 11), false, spec.rounds, racer);
        assert_eq!(takes[item_at(&planner, 4, 11)], 6);
        assert!(takes[item_at(&planner, 3, 10)] > 6, "the 22 is a target only once it holds Jump");
        // Holding Jump at (5, 18): a 12, 17, 18, 17 and 19 one move away, the 12 first in
        // reading order.
        let next = planner.heading(&spec.grid, everything(), at(&planner, 5, 18), true, racer);
        assert_eq!(next, Some((item_at(&planner, 7, 18), 1)));
        let plain = planner.heading(&spec.grid, everything(), at(&planner, 5, 18), true, None);
        assert_eq!(plain, Some((item_at(&planner, 4, 18), 1)), "the control takes the first in reading order");
    }

    /// Racing an opponent: on a row, a 10 three steps left of the bot that the opponent takes
    /// at tick 4, and a 12 two steps right. By value per tick the 12 goes first, and the 10 is
    /// then lost (the control); counting what the opponent is about to take, the 10 goes first
    /// and both are taken, and the first route is that one.
    #[test]
    fn the_first_route_races_for_what_the_opponent_is_about_to_take() {
        let (spec, planner, start) =
            set_up("ARENA 1 7 20\n0 3\n0 2\n0 6\nMAP\n10 0 0 0 0 12 0\nEND_MAP\nSTREAM\n", false);
        let item = |y| item_at(&planner, 0, y);
        let mut takes = vec![u32::MAX; planner.items.len()];
        takes[item(0)] = 4;
        let mut search = unbounded(&planner, &spec.grid, start, takes, None);
        let by_value = search.construct(&[], (0, 1.0));
        assert_eq!(by_value, vec![item(5)], "the control loses the race for the 10");
        assert_eq!(search.value(&by_value).map(|v| v.0), Some(12));
        let racing = search.construct(&[], (5, 4.0));
        assert_eq!(racing, vec![item(0), item(5)]);
        assert_eq!(search.value(&racing).map(|v| v.0), Some(22));
        assert_eq!(search.first_route(), racing);
    }

    #[test]
    fn the_walk_to_a_multiplier_goes_round_what_the_route_takes_after_it() {
        // To the `D` both ways take 5 ticks; the first step right leads past the 9 the route
        // takes after the `D` (worth 18 then), the first step down does not.
        let (s, mut bot) =
            first_tick("ARENA 4 4 12\n0 0\n3 0\n3 3\nMAP\n0 0 0 0\n0 W W 9\n0 0 0 D\n0 0 0 0\nEND_MAP\nSTREAM\n");
        let planner = bot.planner.as_ref().unwrap();
        let at = |x, y| item_at(planner, x, y);
        assert_eq!(bot.route, vec![at(2, 3), at(1, 3)]);
        let to_double = &planner.dist[at(2, 3)][0];
        assert_eq!(to_double[planner.cell(Pos::new(0, 1))], to_double[planner.cell(Pos::new(1, 0))]);
        assert_eq!(bot.saved.get(&Pos::new(1, 3)), Some(&2));
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(1, 0)));
        // Control: not knowing what the route takes later, the tie goes to the step right.
        bot.saved.clear();
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 1)));
    }

    #[test]
    fn a_route_takes_what_its_legs_must_walk_through() {
        // A corridor: from the 1, the way to the `D` crosses the 5, which is taken then, at x1.
        let (spec, planner, start) =
            set_up("ARENA 1 7 20\n0 0\n0 6\n0 6\nMAP\n0 1 0 5 0 D 0\nEND_MAP\nSTREAM\n", false);
        let item = |y| item_at(&planner, 0, y);
        let (one, five, double) = (item(1), item(3), item(5));
        let mut search = unbounded(&planner, &spec.grid, start, vec![u32::MAX; planner.items.len()], None);
        // Control: as stops alone, the 5 after the `D` counts twice over.
        assert_eq!(search.value(&[one, double, five]).map(|v| v.0), Some(11));
        search.crossing = true;
        for route in [vec![one, double, five], vec![one, double]] {
            let mut crossed = route.clone();
            search.cross(&mut crossed);
            assert_eq!(crossed, vec![one, five, double], "from {route:?}");
            assert_eq!(search.value(&crossed).map(|v| v.0), Some(6));
        }
        // An item the opponent takes before the bot gets there is not crossed.
        search.takes[five] = 3;
        let mut crossed = vec![one, double];
        search.cross(&mut crossed);
        assert_eq!(crossed, vec![one, double]);
        // Where another way is as short, nothing is crossed.
        let (spec, planner, start) =
            set_up("ARENA 3 3 20\n2 0\n2 1\n2 2\nMAP\n1 5 0\n0 0 D\n0 0 0\nEND_MAP\nSTREAM\n", false);
        let at = |x, y| item_at(&planner, x, y);
        let mut search = unbounded(&planner, &spec.grid, start, vec![u32::MAX; planner.items.len()], None);
        search.crossing = true;
        let mut route = vec![at(0, 0), at(1, 2)];
        search.cross(&mut route);
        assert_eq!(route, vec![at(0, 0), at(1, 2)]);
    }

    #[test]
    fn walking_clean_a_first_route_opens_the_way_to_a_multiplier_with_its_least_resource() {
        // Both ways to the `T` take 4 ticks, one through the 7, the other through the 2.
        let (spec, planner, start) =
            set_up("ARENA 3 4 20\n0 0\n2 3\n0 3\nMAP\n0 7 0 0\n2 W 0 0\n0 0 T 0\nEND_MAP\nSTREAM\n", true);
        let at = |x, y| item_at(&planner, x, y);
        let (two, seven, triple) = (at(1, 0), at(0, 1), at(2, 2));
        let mut search = unbounded(&planner, &spec.grid, start, vec![u32::MAX; planner.items.len()], Some(3));
        // Control: walking clean, no way leads to the `T` (a prefix of it alone would stop there).
        assert!(search.step(search.origin(), triple).is_none());
        let route = search.construct(&[triple], (0, 1.0));
        assert_eq!(route, vec![two, triple, seven], "the 2 opens the way, the 7 waits for x3");
        assert_eq!(search.value(&route).map(|v| v.0), Some(23));
        // Unbridged (`Reference::unbridged`), the route stops before the `T`.
        search.bridging = false;
        assert_eq!(search.construct(&[triple], (0, 1.0)), Vec::<usize>::new());
    }

    #[test]
    fn holding_jump_the_walk_takes_a_tick_longer_round_what_the_route_saves_when_the_delay_costs_less() {
        // Holding Jump, the only 3-tick way to the `D` lands on both 9s, which the route takes
        // after it (18 each then); the 4-tick way (0,1), (0,3), (0,5) lands on none. With 12
        // rounds the delay costs the route nothing.
        let map = |rounds| {
            format!("ARENA 3 7 {rounds}\n0 0\n2 3\n2 0\nMAP\n0 0 9 0 9 0 D\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\nEND_MAP\nSTREAM\n")
        };
        // Planned on tick 1, or on tick 2 after the opponent's first move.
        let plan = |rounds, moves: bool| {
            let mut s = GameState::from_header(&map(rounds), Mode::Test).unwrap();
            s.me.jump = true;
            let mut bot = Reference::default();
            s.on_tick(1, Action::Wait);
            bot.start(&s);
            bot.observe(&s);
            if moves {
                s.on_tick(2, Action::Move(Pos::new(2, 2)));
                bot.observe(&s);
            }
            bot.plan(&s);
            (s, bot)
        };
        let (s, mut bot) = plan(12, false);
        let planner = bot.planner.clone().unwrap();
        let at = |x, y| item_at(&planner, x, y);
        assert_eq!(bot.route[..3], [at(0, 6), at(0, 4), at(0, 2)]);
        assert_eq!(bot.detour, Some(Pos::new(0, 1)));
        assert_eq!(bot.value.map(|v| v.0), Some(36));
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 1)));
        // Control: the shortest way's step lands on the first 9.
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 2)));
        // With 7 rounds the route has no tick to spare: the longer way is not walked.
        let (s, mut bot) = plan(7, false);
        assert_eq!(bot.detour, None);
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 2)));
        // Nor against an opponent that moves and is not (yet) predicted: a tick's delay is
        // judged by its expected takes.
        let (s, mut bot) = plan(12, true);
        assert_eq!(bot.route[..3], [at(0, 6), at(0, 4), at(0, 2)]);
        assert_eq!((bot.detour, bot.route_step(&s)), (None, Action::Move(Pos::new(0, 2))));
    }

    #[test]
    fn without_jump_the_walk_takes_two_ticks_longer_round_what_the_route_saves_when_the_delay_costs_less() {
        // Without Jump, the only 2-tick way to the `D` crosses the 9, which the route takes
        // after it (18 then); the way down and along row 1 takes 4 ticks and crosses nothing.
        let map =
            |rounds| format!("ARENA 3 4 {rounds}\n0 0\n2 3\n2 0\nMAP\n0 9 D 0\n0 0 0 0\n0 0 0 0\nEND_MAP\nSTREAM\n");
        let (s, mut bot) = first_tick(&map(12));
        let planner = bot.planner.clone().unwrap();
        let at = |x, y| item_at(&planner, x, y);
        assert_eq!(bot.route, [at(0, 2), at(0, 1)]);
        assert_eq!((bot.detour, bot.value.map(|v| v.0)), (Some(Pos::new(1, 0)), Some(18)));
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(1, 0)));
        // Control: the shortest way's step is onto the 9; and with 7 rounds no detour.
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 1)));
        let (s, mut bot) = first_tick(&map(7));
        assert_eq!((bot.detour, bot.route_step(&s)), (None, Action::Move(Pos::new(0, 1))));
    }

    #[test]
    fn a_power_up_the_route_takes_later_is_no_bonus_on_the_way() {
        // Both first steps are as near the `D`; the one down steps on the `T`.
        let (s, mut bot) = first_tick("ARENA 3 3 20\n0 0\n2 0\n0 2\nMAP\n0 0 0\nT 0 0\n0 0 D\nEND_MAP\nSTREAM\n");
        let planner = bot.planner.as_ref().unwrap();
        let at = |x, y| item_at(planner, x, y);
        let (double, triple) = (at(2, 2), at(1, 0));
        // (Routes set by hand: no detour was planned for them.)
        bot.saved.clear();
        bot.detour = None;
        bot.route = vec![double, triple];
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(0, 1)), "the `T` waits for its turn");
        // Control: a `T` the route does not take is worth a detour of nothing.
        bot.route = vec![double];
        assert_eq!(bot.route_step(&s), Action::Move(Pos::new(1, 0)));
    }

    /// After an attempt that proved nothing, against an opponent that has never moved (test12's
    /// waits), the next starts once the ticks left fall to 7/8 of what they were; control: the
    /// same opponent as one that moved (and is not predicted), no attempt until they halve.
    #[test]
    fn against_an_opponent_that_never_moved_attempts_come_sooner() {
        let s = project_test_at(12, 8);
        let left = s.ticks_left();
        let attempted = |moved: bool, gave_up_at: u32| {
            let mut bot = Reference::default();
            bot.start(&s);
            bot.observe(&s);
            if moved {
                bot.rival = Some((s.opponent.pos, Some(3)));
            }
            bot.attempts = 1;
            bot.gave_up_at = Some(gave_up_at);
            bot.exact_move(&s);
            bot.attempts > 1
        };
        // The least `at` of which `left` is 7/8 or less, and of which it is half or less.
        let (sooner, halved) = ((left * 8).div_ceil(7), left * 2);
        assert!(attempted(false, sooner), "{left} ticks left, the last attempt at {sooner}");
        assert!(!attempted(false, sooner - 1), "not before 7/8");
        assert!(!attempted(true, sooner), "control: an opponent that moved, {left} of {sooner} ticks left");
        assert!(!attempted(true, halved - 1), "control: not before they halve");
        assert!(attempted(true, halved), "control: once they halve");
    }

    /// A plan made before the opponent was predicted is dropped once it is, even where no
    /// attempt may follow (the game's attempts are used up): the route search then plans around
    /// the prediction. Control: the same plan, made with the prediction, is followed.
    #[test]
    fn a_plan_whose_prediction_changed_is_dropped_even_when_no_attempt_follows() {
        let s = project_test_at(12, 8);
        let step = Action::Move(s.legal_moves()[0]);
        let followed = |predicted: bool| {
            let mut bot = Reference::default();
            bot.start(&s);
            bot.observe(&s);
            // The opponent as a predicted one: it fits the model and has just moved.
            bot.model.fits = 2;
            bot.rival = Some((s.opponent.pos, Some(0)));
            assert!(bot.predicted(&s));
            bot.attempts = EXACT_ATTEMPTS;
            bot.exact = Some(ExactPlan { moves: vec![step, Action::Wait].into(), needs: vec![], predicted });
            (bot.exact_move(&s), bot.exact.is_some(), bot.attempts)
        };
        assert_eq!(followed(false), (None, false, EXACT_ATTEMPTS));
        assert_eq!(followed(true), (Some(step), true, EXACT_ATTEMPTS), "control");
    }

    /// Where an exact attempt proves nothing, its plan is where the route search starts when it
    /// is worth more than the search's own first route: on test16's first tick (the attempt
    /// fails) the route is then worth at least the plan; control: without it, the search from
    /// its own first route ends below the plan.
    #[test]
    fn the_route_search_starts_from_a_failed_exact_attempts_plan_when_it_is_worth_more() {
        let s = project_test_at(16, 1);
        let planned = |hinted: bool| {
            let mut bot = Reference::default();
            bot.start(&s);
            bot.observe(&s);
            assert_eq!(bot.exact_move(&s), None, "the attempt proves nothing");
            let hint = bot.hint.clone().unwrap();
            if !hinted {
                bot.hint = None;
            }
            bot.plan(&s);
            let planner = bot.planner.as_ref().unwrap();
            let start = Start { cell: planner.cell(s.me.pos), jump: false, multiplier: 1, limit: s.ticks_left() };
            let mut search = unbounded(planner, &s.grid, start, vec![u32::MAX; planner.items.len()], None);
            search.crossing = true;
            let route: Vec<usize> = hint.iter().map(|p| item_at(planner, p.x, p.y)).collect();
            (search.value(&route).unwrap().0, bot.value.unwrap().0)
        };
        let (plan, with) = planned(true);
        assert!(with >= plan, "the route is worth {with}, the attempt's plan {plan}");
        let (plan, without) = planned(false);
        assert!(without < plan, "control: the route search alone reaches {without}, the plan {plan}");
    }

    /// An opponent's move off the map, which the arena never sends but a student may pipe by
    /// hand, stops the bot with an error naming the line (the SDK refuses it), where the bot
    /// indexed its distances out of bounds and panicked; control: the same game with a move on
    /// the map is played to the end.
    #[test]
    fn an_opponents_move_off_the_map_is_an_error_not_a_panic() {
        let header = "ARENA 3 4 8\n0 0\n2 0\n2 3\nMAP\n0 4 0 7\n0 W 5 0\n0 3 0 0\nEND_MAP\nSTREAM\n";
        for mode in [Mode::Duel, Mode::Test] {
            for mv in ["MOVE 9 9", "MOVE -1 0", "MOVE 0 4"] {
                let input = format!("{header}TICK 1 {mv}\nTICK 2 WAIT\n");
                let run = bot_sdk::run_io(Reference::default(), input.as_bytes(), Vec::new(), mode);
                let Err(bot_sdk::RunError::Tick(e)) = run else { panic!("{mv} in {mode:?}: {run:?}") };
                assert!(e.why.contains("off the 3 x 4 map"), "{}", e.why);
            }
            let input = format!("{header}TICK 1 MOVE 2 1\nTICK 2 WAIT\n");
            let mut out = Vec::new();
            bot_sdk::run_io(Reference::default(), input.as_bytes(), &mut out, mode).unwrap();
            assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2, "control: both ticks answered");
        }
    }

    #[test]
    fn a_wanderers_walks_take_what_lies_beside_it_sooner_than_what_lies_far() {
        // One row: the wanderer at (0, 3), a 5 beside it, a 7 four steps off, the final at the end.
        let (spec, planner, _) =
            set_up("ARENA 1 9 20\n0 0\n0 3\n0 8\nMAP\n0 0 0 0 5 0 0 7 0\nEND_MAP\nSTREAM\n", false);
        let (near, far) = (item_at(&planner, 0, 4), item_at(&planner, 0, 7));
        let mut seed = WALK_SEED;
        let moving = walks(&planner, &spec.grid, Pos::new(0, 3), false, 0.7, 60, WALKS, &mut seed);
        let half = quantile(&moving, planner.items.len(), 0.5);
        // (Its first move comes before the bot's second: a take is 2 ticks from now at the soonest.)
        assert!(2 <= half[near] && half[near] < half[far] && half[far] != u32::MAX, "{half:?}");
        assert!(moving.iter().any(|w| w[near] == 2) && moving.iter().all(|w| w[far] >= 5));
        // Control: a walker that never moves takes nothing.
        let still = walks(&planner, &spec.grid, Pos::new(0, 3), false, 0.0, 60, WALKS, &mut seed);
        assert!(still.iter().all(|w| w.iter().all(|&t| t == u32::MAX)));
    }

    #[test]
    fn a_hedged_route_replaces_the_held_one_only_clear_of_the_walks_noise() {
        let held = vec![100; 50];
        let clear: Vec<i64> = (0..50).map(|i| 110 + i % 3).collect();
        assert!(beats(&clear, &held));
        // Better by a point and a half on average, but by +62 or -59 walk by walk: no.
        let noisy: Vec<i64> = (0..50).map(|i| if i % 2 == 0 { 162 } else { 41 }).collect();
        assert!(!beats(&noisy, &held));
        // Control: the means alone would have switched to it.
        assert!(mean(&noisy) > mean(&held));
        assert!(!beats(&held, &held));
    }

    /// The greedy first routes pick what a look at every item left picks (see
    /// [`Planner::richest`]), with the opponent taking nothing or what a wanderer's walks take
    /// (then racing it for what it is about to take, too), on test19's map (one `T`, two `D`,
    /// two `J`), from three places of the bot's game.
    #[test]
    fn the_greedy_first_routes_pick_what_a_look_at_every_item_picks() {
        let mut routes = 0;
        for tick in [1, 60, 120] {
            let s = project_test_at(19, tick);
            let planner = Planner::new(&s.grid, s.final_pos(), false);
            let start = Start {
                cell: planner.cell(s.me.pos),
                jump: s.me.jump,
                multiplier: s.me.multiplier,
                limit: s.ticks_left(),
            };
            let mut seed = WALK_SEED ^ u64::from(tick);
            let walked = walks(&planner, &s.grid, s.opponent.pos, false, 0.6, start.limit, WALKS, &mut seed);
            let items = planner.items.len();
            let takes = [vec![u32::MAX; items], quantile(&walked, items, 0.5), quantile(&walked, items, 0.25)];
            for (t, takes) in takes.into_iter().enumerate() {
                let mut search = unbounded(&planner, &s.grid, start, takes, None);
                let mut control = unbounded(&planner, &s.grid, start, search.takes.clone(), None);
                control.every_pick = true;
                let route = search.first_route();
                assert_eq!(route, control.first_route(), "tick {tick}, takes {t}");
                assert!(route.len() > 5, "a whole route: {route:?}");
                let powerups: Vec<usize> = (0..items).filter(|&k| planner.power_up[k]).collect();
                for prefix in orders(&powerups, 2) {
                    for urgency in [(0, 1.0), (5, 4.0), (10, 4.0)] {
                        assert_eq!(
                            search.construct(&prefix, urgency),
                            control.construct(&prefix, urgency),
                            "tick {tick}, takes {t}, prefix {prefix:?}, urgency {urgency:?}"
                        );
                        routes += 1;
                    }
                }
            }
        }
        assert!(routes > 100);
    }
}
