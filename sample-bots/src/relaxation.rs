//! A certified upper bound for the single-player problem: a Lagrangian relaxation solved by
//! dynamic programming over (tick, cell, power-ups taken, Jump, the cell just left).
//!
//! The relaxed bot walks the real map tick by tick, with the real travel times, Jump, the
//! multipliers in the order it takes them (power-ups are tracked exactly) and the opponent's
//! clearing times; what it forgets is which resources it already took, beyond the cell it just
//! left. Taking resource `i` again is allowed but costs a price `λ_i`, and the bound is the best
//! relaxed walk's priced score plus every `λ_i`: for any price, no real plan scores more (each
//! real plan is a relaxed walk that takes each resource once). Subgradient steps then lower the
//! prices of resources nobody takes and raise those taken twice, tightening the bound; every
//! relaxed walk, replayed through the rules, is also a real plan (a lower bound). With a
//! memory ([`Relaxation::remember`]) each cell also recalls which of its nearest resources the
//! walk took (an ng-route relaxation), which cuts off loops through nearby rich cells.
//!
//! Why this relaxation: at the best prices its bound is the linear programme over all relaxed
//! walks, at least as tight as the LP relaxation of the natural time-expanded integer model
//! (whose walks may also step straight back), yet each step is a plain DP over the grid with
//! travel time and multiplier order built in, in memory linear in the map; an LP or MILP
//! solver would need that model with millions of variables.

use crate::bundle::Bundle;
use crate::plan_search::{CostToGo, Item, Model, Plan};
use crate::work::{charge, Work};
use bot_sdk::{Action, Pos};

/// Arrival directions: four steps, four jumps.
const DIRS: [(i32, i32); 8] = [(-1, 0), (0, 1), (1, 0), (0, -1), (-2, 0), (0, 2), (2, 0), (0, -2)];
/// Work of one solve (see [`Relaxation::work`]) above which the step scale starts at
/// [`SMALL_SCALE`] instead of 2: the scale halves only after 15 steps without progress, and where
/// a step is this costly, few enough fit in the solver's time that a large scale never gets
/// small (test2, 4.8 x 10^7 per step: certified 57.9 % above the best plan after 30 s from 2,
/// 34.7 % from 0.5; test19, 1.1 x 10^7: 12.6 % and 11.7 %; the random maps of the course's
/// size stay below 5 x 10^6, and test20, at 4 x 10^6, ends higher from 0.5).
const COSTLY: usize = 8_000_000;
const SMALL_SCALE: f64 = 0.5;
/// The step scale a memory starts with ([`Relaxation::remember`]): the prices then come from
/// a settled plain relaxation, and from 2 the first steps overshoot them (test19: a memory of 3
/// grown by laps left the bound at 26,825 for 50 steps, 26,287 after 100; from 0.25, 26,649
/// after 20 and 26,050 after 100; test17 16,240 -> 16,187 after 100, test20 5,491 -> 5,516).
const MEMORY_SCALE: f64 = 0.25;
/// The bundle's proximity weight when a memory starts (see [`Bundle::clear`]): the memory's
/// first steps grow it by laps, and a bundle of the walks of a function that changes at each
/// step steps well only near its centre (test20, a memory of 4 grown by laps, 100 steps: 5,434
/// from 0.05, 5,442 from 0.01, 5,460 from 0.5, 5,433 from 10 but none better for the first 40;
/// test19, 80 steps: 25,778, 25,767, 25,802). A weight from the length of Polyak's step would
/// not depend on the prices' scale (0.05 on test20, 0.57 on test19), but was not measured on
/// the 20 tests and the random maps.
const MEMORY_PROXIMITY: f64 = 0.05;
/// A walk's laps: per resource taken again, the cells walked from one take to the next.
type Laps = Vec<(usize, Vec<usize>)>;

/// A proximal bundle's state (see [`Relaxation::use_bundle`]): its walks, the memory's width
/// when it last looked, and its centre (the resources' prices) with that centre's bound,
/// `stale` once the memory grew since that bound was found.
struct Prox {
    bundle: Bundle<Laps>,
    width: usize,
    centre: Vec<f64>,
    centre_value: f64,
    stale: bool,
}
/// The walks a bundle keeps ([`Relaxation::use_bundle`]; on test20, from 200 to 100 walks,
/// the same bound after 120 steps with a memory).
const BUNDLE_WALKS: usize = 200;
/// Nothing remembered (on leaving the start at tick 0, whose item is still there).
const NONE: usize = 8;
const PREV: usize = 9;
const NEG: f64 = f64::NEG_INFINITY;

/// The relaxation of one problem, with its current prices.
pub struct Relaxation<'a> {
    model: &'a Model,
    cells: usize,
    ticks: u32,
    /// Power-up items (`D`, `T`), as model item indexes; a mask over them is exact.
    powerups: Vec<usize>,
    /// Per model item: its bit in a mask, for a power-up.
    bit_of: Vec<Option<usize>>,
    /// Multiplier for each mask.
    mult: Vec<f64>,
    /// Price of each model item (0 for power-ups).
    prices: Vec<f64>,
    /// Per byte of a `taken` set (8 per word): the sum of the prices of each subset of its
    /// items (see [`Relaxation::reprice`]).
    price_bytes: Vec<[f64; 256]>,
    /// Per power-up (its bit in a mask): its item's word and bit in a `taken` set.
    powerup_bits: Vec<(usize, u64)>,
    /// Subgradient state: the best bound so far and its prices, the step scale, and how many
    /// steps in a row brought no better bound.
    best_bound: f64,
    best_prices: Vec<f64>,
    step: f64,
    stalled: u32,
    /// When set, the prices move by a proximal bundle method instead of subgradient steps (see
    /// [`Relaxation::use_bundle`]), over the prices of [`Relaxation::resources`].
    bundle: Option<Prox>,
    /// The resources (model item indexes): the items with a price.
    resources: Vec<usize>,
    /// Moves as (destination, arrival direction), without and with Jump.
    moves: [Vec<Vec<(u32, u8)>>; 2],
    /// After a solve: best relaxed value from (tick, cell, mask, jump), excluding prices (see
    /// [`CostToGo`]), for each memory when [`Relaxation::kept`] (nothing remembered first).
    values: Vec<f64>,
    /// Whether [`Relaxation::values`] holds every memory's values (after the settling solve,
    /// [`Relaxation::settle`], with a memory), else only those with nothing remembered.
    kept: bool,
    /// Whether a solve with a memory keeps every memory's values (for [`Recalled`]): only the
    /// settling one does, as writing them costs a step about 20 % more (test17, 103 to 124 ms
    /// against 87 to 90).
    keep_memories: bool,
    /// Whether the memories solved without keeping them all include those reached from nothing
    /// remembered at every live state, not only from the start (see [`Relaxation::reachable`]):
    /// always, but in a test's control.
    seed_every_state: bool,
    /// The memories the last solve with a memory solved, and those it found a walk can reach
    /// first (0: found before), when it did not keep them all (see [`Work::Reached`]).
    solved: (usize, usize),
    /// `[a1, a2]` per state and tick (see [`Relaxation::solve`]).
    choice: Vec<[u8; 2]>,
    /// `back[jump][cell][prev]`: the index of the move back onto the remembered cell.
    back: [Vec<[u8; PREV]>; 2],
    /// Per Jump and cell: its moves' destinations, padded to 4 without Jump and 8 with it (the
    /// most there are) with `cells`, a destination never arrived in, so that a solve's loops over
    /// them have no branch to mispredict.
    padded: [Vec<[u32; 8]>; 2],
    /// When set, solves remember more than the cell just left (see [`Memory`]).
    memory: Option<Memory>,
    /// A solve with a memory's values of the tick after and of this one, kept between solves
    /// so that their memory is not mapped afresh (and faulted in) at each.
    rows: [Vec<f64>; 2],
    /// Per tick, a bit per state (see [`Relaxation::state`]): whether it is solved (see
    /// [`Relaxation::live_states`]).
    live: Vec<u64>,
    /// Per cell: the tick before which its item may be taken (0: no item), and what taking it
    /// does (see [`Relaxation::arrive`]).
    deadline: Vec<u32>,
    effect: Vec<Effect>,
}

/// An ng-route memory: each cell remembers which of its resources (its own first, then the
/// nearest, then those of the laps it was found on: [`Relaxation::forbid_laps`]) the walk took,
/// and a remembered resource cannot be taken again. A real plan takes each resource once, so it
/// is still a walk of this relaxation (the bound stays valid), while the cheap loops through
/// nearby rich cells that the plain relaxation repeats are cut off.
struct Memory {
    /// How many nearest resources each cell remembered at first (the work of a solve is
    /// counted at least as for a memory of that many everywhere).
    k: usize,
    /// Per cell: the model item of each bit of its memory (at most 8).
    items: Vec<Vec<usize>>,
    /// Per cell: where its memories start in a block of states (a block: one mask and Jump);
    /// the last entry is a block's width.
    off: Vec<usize>,
    /// Per Jump, cell and move (`cell * 8 + move`): where its part of [`Memory::remap`] starts.
    at: [Vec<usize>; 2],
    /// Per Jump, cell, move and memory of the cell: the memory in the destination's bits of what
    /// the cell remembered (before the destination's own resource is added).
    remap: [Vec<u8>; 2],
    /// Per cell: the bit of its own resource in its memory (0: none).
    own: Vec<u8>,
    /// The move chosen per tick, state and memory (`u8::MAX`: none).
    choice: Vec<u8>,
    /// The most items a lap may add a cell's memory to (0: none, see
    /// [`Relaxation::forbid_laps`]), and the laps the last solve's walk went round: per
    /// resource taken again, the cells walked from one take to the next.
    lap_bits: usize,
    laps: Vec<(usize, Vec<usize>)>,
    /// The widest a block of states may grow by laps (see [`Memory::off`]).
    max_width: usize,
    /// Per tick, a bit per memory of every state (as in [`Memory::choice`]): whether a walk can
    /// be in it, from the start or from nothing remembered at any live state (see
    /// [`Relaxation::reachable`]); empty until the first solve with this memory needs it.
    reach: Vec<u64>,
    /// How many of those are memories of live states (solved by each step).
    reached: usize,
}

impl Memory {
    /// The memory of `items` per cell (each at most 8, its own resource among them) over `moves`.
    fn new(model: &Model, moves: &[Vec<Vec<(u32, u8)>>; 2], k: usize, items: Vec<Vec<usize>>) -> Memory {
        let cells = items.len();
        let mut off = Vec::with_capacity(cells + 1);
        let mut width = 0;
        for list in &items {
            off.push(width);
            width += 1usize << list.len();
        }
        off.push(width);
        let own = (0..cells)
            .map(|c| match model.item_at(c) {
                Some(i) => items[c].iter().position(|&x| x == i).map_or(0, |b| 1u8 << b),
                None => 0,
            })
            .collect();
        let mut at = [vec![0; cells * 8], vec![0; cells * 8]];
        let remap = [0, 1].map(|j| {
            let mut table = Vec::new();
            for (c, list) in items.iter().enumerate() {
                for (m, &(d, _)) in moves[j][c].iter().enumerate() {
                    at[j][c * 8 + m] = table.len();
                    let to: Vec<u8> = list
                        .iter()
                        .map(|i| items[d as usize].iter().position(|x| x == i).map_or(0, |b| 1u8 << b))
                        .collect();
                    table.extend((0..1usize << list.len()).map(|mem| {
                        to.iter().enumerate().filter(|&(b, _)| mem >> b & 1 == 1).fold(0, |acc, (_, &x)| acc | x)
                    }));
                }
            }
            table
        });
        Memory {
            k,
            items,
            off,
            at,
            remap,
            own,
            choice: Vec::new(),
            lap_bits: 0,
            laps: Vec::new(),
            max_width: 0,
            reach: Vec::new(),
            reached: 0,
        }
    }

    /// The memory after `to` of cell `c`'s memory `mem` by its move `m` with Jump `j`.
    fn remapped(&self, j: usize, c: usize, m: usize, mem: usize) -> u8 {
        self.remap[j][self.at[j][c * 8 + m] + mem]
    }

    /// Adds each lap's resource to the memories of the cells of its lap that have room, and
    /// builds the memory again if any changed: the walks that went round those laps are then
    /// no longer walks of the relaxation.
    fn forbid_laps(mut self, model: &Model, moves: &[Vec<Vec<(u32, u8)>>; 2]) -> Memory {
        let (k, bits, max_width) = (self.k, self.lap_bits, self.max_width);
        let (mut items, laps) = (std::mem::take(&mut self.items), std::mem::take(&mut self.laps));
        let mut width = self.off[items.len()];
        let mut changed = false;
        for (i, cells) in laps {
            for c in cells {
                let n = items[c].len();
                if n < bits && !items[c].contains(&i) && width + (1 << n) <= max_width {
                    items[c].push(i);
                    width += 1 << n;
                    changed = true;
                }
            }
        }
        // (The choices' buffer carries over: a solve writes the choices of every memory it
        // solves, and the walk follows only those.)
        let mut memory = if changed {
            Memory { choice: self.choice, ..Memory::new(model, moves, k, items) }
        } else {
            Memory { items, laps: Vec::new(), ..self }
        };
        (memory.lap_bits, memory.max_width) = (bits, max_width);
        memory
    }
}

/// Arriving at a cell in a solve, for the block of states being solved (see
/// [`Relaxation::solve`]).
#[derive(Debug, Clone, Copy)]
struct Arrive {
    /// The value of arriving there when the remembered cell is not (0), and is (1), the best
    /// move of the state arrived in.
    v: [f64; 2],
    /// Where that best move goes (`u32::MAX`: nowhere).
    to: u32,
}

/// The values of a state's `N` (4 or 8) padded moves (the rest nothing), and the best of them,
/// first (see [`Relaxation::solve`]).
#[inline(always)]
fn best_move<const N: usize>(arrive: &[Arrive], to: &[u32; 8], from: u32, remembering: bool) -> ([f64; 8], f64, u8) {
    let mut with = [NEG; 8];
    for k in 0..N {
        let a = &arrive[to[k] as usize];
        // (Remembered: the best move from there goes back where the bot comes from.)
        let remembered = remembering & (a.to == from);
        with[k] = a.v[usize::from(remembered)];
    }
    let (v1, a1) = first_best::<N>(&with);
    (with, v1, a1)
}

/// The largest of the first `N` (4 or 8) values and its first index, by pairs (a tree, not a
/// chain of dependent comparisons: the solve's inner loop).
#[inline(always)]
fn first_best<const N: usize>(w: &[f64; 8]) -> (f64, u8) {
    // (`a` holds the lower indexes: on a tie it stays.)
    let pick = |a: (f64, u8), b: (f64, u8)| if b.0 > a.0 { b } else { a };
    let low = pick(pick((w[0], 0), (w[1], 1)), pick((w[2], 2), (w[3], 3)));
    if N == 4 {
        return low;
    }
    pick(low, pick(pick((w[4], 4), (w[5], 5)), pick((w[6], 6), (w[7], 7))))
}

/// One state's best move for each of its memories with a memory (see
/// [`Relaxation::solve_remembering`]): over its `N` (4 or 8) moves, padded by moves worth
/// nothing, each as the values after it, its remap of the memories, and the gain and bit of the
/// resource it takes, the best value of each memory and its first move (`u8::MAX`: none), as
/// taking the moves in order and keeping a strictly better one would.
#[inline(always)]
fn best_remembered<const N: usize>(moves: &[(&[f64; 256], &[u8], f64, u8); 8], best: &mut [f64], arg: &mut [u8]) {
    for (mem, (b, a)) in best.iter_mut().zip(arg.iter_mut()).enumerate() {
        (*b, *a) = best_of::<N>(moves, mem);
    }
}

/// [`best_remembered`] for the memories whose bits are set in `reach` from bit `from` on (the
/// others are left as they were).
#[inline(always)]
fn best_reached<const N: usize>(
    moves: &[(&[f64; 256], &[u8], f64, u8); 8],
    reach: &[u64],
    from: usize,
    best: &mut [f64],
    arg: &mut [u8],
) {
    for mem in bits_in(reach, from, best.len()) {
        (best[mem], arg[mem]) = best_of::<N>(moves, mem);
    }
}

/// The best value of memory `mem` over `N` moves and its first move (see [`best_remembered`]).
#[inline(always)]
fn best_of<const N: usize>(moves: &[(&[f64; 256], &[u8], f64, u8); 8], mem: usize) -> (f64, u8) {
    let mut with = [NEG; 8];
    for k in 0..N {
        let (after, table, g, own) = moves[k];
        let to = table[mem];
        with[k] = if to & own == 0 { g } else { 0.0 } + after[usize::from(to | own)];
    }
    let (v, m) = first_best::<N>(&with);
    (v, if v > NEG { m } else { u8::MAX })
}

/// The set bits among `n` of `words` from bit `from` on, less `from`, in increasing order.
fn bits_in(words: &[u64], from: usize, n: usize) -> impl Iterator<Item = usize> + '_ {
    let end = from + n;
    (from / 64..end.div_ceil(64)).flat_map(move |w| {
        let low = if w == from / 64 { from % 64 } else { 0 };
        let high = if w == end / 64 { end % 64 } else { 64 };
        let span = if high - low == 64 { u64::MAX } else { ((1u64 << (high - low)) - 1) << low };
        let mut bits = words.get(w).copied().unwrap_or(0) & span;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                w * 64 + b - from
            })
        })
    })
}

/// What moving onto a cell does in a solve (see [`Relaxation::effects`]).
#[derive(Debug, Clone, Copy)]
enum Effect {
    Nothing,
    /// A resource: its model item and value.
    Resource(usize, i64),
    Jump,
    /// The power-up's bit in the mask.
    Multiplier(usize),
}

/// The live states of one tick (see [`Relaxation::live_at`]): the set bits of its words, a
/// 64th of the memory of a list.
struct Live<'a> {
    words: &'a [u64],
    w: usize,
    bits: u64,
}

impl Iterator for Live<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.w += 1;
            self.bits = *self.words.get(self.w)?;
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.w * 64 + b)
    }
}

/// What one relaxed solve gives.
struct Relaxed {
    /// The bound at these prices: best priced walk plus every price.
    bound: f64,
    /// How many times the best walk takes each item.
    takes: Vec<u32>,
    /// The best walk as moves (the last one onto the final), if any walk reaches the final.
    walk: Option<Vec<Action>>,
}

impl<'a> Relaxation<'a> {
    /// The relaxation of `model`, or `None` when it has too many power-ups for exact masks.
    pub fn new(model: &'a Model) -> Option<Relaxation<'a>> {
        let p = model.problem();
        let cells = model.cells();
        let powerups: Vec<usize> =
            (0..model.items().len()).filter(|&i| matches!(model.items()[i].1, Item::Multiplier(_))).collect();
        if powerups.len() > 6 {
            return None;
        }
        let mult = (0..1usize << powerups.len())
            .map(|mask| {
                let mut m = p.multiplier as f64;
                for (b, &i) in powerups.iter().enumerate() {
                    if let (true, Item::Multiplier(k)) = (mask >> b & 1 == 1, model.items()[i].1) {
                        m *= k as f64;
                    }
                }
                m
            })
            .collect();
        // Moves as (destination, arrival direction), and the index of the move back onto each
        // direction's cell.
        let moves: [Vec<Vec<(u32, u8)>>; 2] = [false, true].map(|jump| {
            (0..cells)
                .map(|c| {
                    let from = model.pos(c);
                    let arrival =
                        |to: Pos| DIRS.iter().position(|&(dx, dy)| from.x + dx == to.x && from.y + dy == to.y);
                    model
                        .moves(c, jump)
                        .iter()
                        .map(|&d| (d, arrival(model.pos(d as usize)).map_or(NONE as u8, |k| k as u8)))
                        .collect()
                })
                .collect()
        });
        let back: [Vec<[u8; PREV]>; 2] = [0, 1].map(|j: usize| {
            moves[j]
                .iter()
                .enumerate()
                .map(|(c, list)| {
                    let from = model.pos(c);
                    let mut row = [u8::MAX; PREV];
                    for (prev, &(dx, dy)) in DIRS.iter().enumerate() {
                        let q = Pos::new(from.x - dx, from.y - dy);
                        if let Some(k) = list.iter().position(|&(d, _)| model.pos(d as usize) == q) {
                            row[prev] = k as u8;
                        }
                    }
                    row
                })
                .collect()
        });
        let padded = [0, 1].map(|j: usize| {
            moves[j]
                .iter()
                .map(|list| {
                    let mut to = [cells as u32; 8];
                    for (k, &(d, _)) in list.iter().enumerate() {
                        to[k] = d;
                    }
                    to
                })
                .collect()
        });
        let bit_of = (0..model.items().len()).map(|i| powerups.iter().position(|&q| q == i)).collect();
        let mut relaxation = Relaxation {
            model,
            cells,
            ticks: p.ticks,
            powerups,
            bit_of,
            mult,
            prices: vec![0.0; model.items().len()],
            price_bytes: vec![[0.0; 256]; model.items().len().div_ceil(64) * 8],
            powerup_bits: Vec::new(),
            best_bound: f64::INFINITY,
            best_prices: vec![0.0; model.items().len()],
            step: 2.0,
            stalled: 0,
            bundle: None,
            resources: (0..model.items().len()).filter(|&i| matches!(model.items()[i].1, Item::Resource(_))).collect(),
            moves,
            values: Vec::new(),
            kept: false,
            keep_memories: false,
            seed_every_state: true,
            solved: (0, 0),
            choice: Vec::new(),
            back,
            padded,
            memory: None,
            rows: [Vec::new(), Vec::new()],
            live: Vec::new(),
            deadline: Vec::new(),
            effect: Vec::new(),
        };
        (relaxation.deadline, relaxation.effect) = relaxation.effects();
        relaxation.powerup_bits = relaxation.powerups.iter().map(|&i| (i / 64, 1u64 << (i % 64))).collect();
        relaxation.live = relaxation.live_states(true);
        if relaxation.work() > COSTLY {
            relaxation.step = SMALL_SCALE;
        }
        Some(relaxation)
    }

    /// Once a memory starts ([`Relaxation::remember`]), the prices move by a proximal bundle
    /// method ([`Bundle`]) instead of subgradient steps: each step's walk is kept, and the next
    /// prices are the best for the walks kept near the best prices found with the memory. Fewer
    /// steps reach the same bound (test20, a memory of 4 grown by laps: 5,434 after 100 steps,
    /// against 5,500 by subgradient steps; test19, of 3: 25,778 after 80), for a small
    /// quadratic programme per step. Without a memory, subgradient steps go on: the bundle's
    /// plain prices settle lower (test2 48,028 against 48,640 in the minute) but ranked the
    /// guided beams worse there (its best plan 40,478 against 41,540).
    pub fn use_bundle(&mut self) {
        let bundle = Bundle::new(self.resources.len(), BUNDLE_WALKS);
        self.bundle = Some(Prox { bundle, width: 0, centre: Vec::new(), centre_value: f64::INFINITY, stale: false });
    }

    /// One step: solves at the current prices, keeps the bound if it is the best so far, then
    /// moves the prices: by the bundle ([`Relaxation::use_bundle`]), else by a subgradient
    /// step (Polyak's step towards `lower`, the best known plan's score; the scale halves after
    /// 15 steps without progress). Returns the relaxed walk replayed as a real plan, and
    /// whether more steps may still help.
    pub fn tighten(&mut self, lower: i64) -> (Option<Plan>, bool) {
        let relaxed = self.solve_any();
        if relaxed.bound == NEG {
            return (None, false);
        }
        let plan = relaxed.walk.as_deref().and_then(|w| replay(self.model, w));
        if relaxed.bound < self.best_bound - 1e-9 {
            self.best_bound = relaxed.bound;
            self.best_prices.clone_from(&self.prices);
            self.stalled = 0;
        } else {
            self.stalled += 1;
            if self.stalled >= 15 {
                self.step /= 2.0;
                self.stalled = 0;
            }
        }
        let lower = lower.max(plan.as_ref().map_or(0, |p| p.score)) as f64;
        if self.bundle.is_some() && self.memory.is_some() {
            let more = self.bundle_step(&relaxed) && self.best_bound.floor() > lower;
            return (plan, more);
        }
        // Subgradient of the bound in the prices: 1 - takes (only resources carry a price).
        let grad: Vec<f64> = self
            .model
            .items()
            .iter()
            .zip(&relaxed.takes)
            .map(|((_, item), &n)| if matches!(item, Item::Resource(_)) { 1.0 - f64::from(n) } else { 0.0 })
            .collect();
        let norm: f64 =
            grad.iter().zip(&self.prices).map(|(g, p)| if *g > 0.0 && *p <= 0.0 { 0.0 } else { g * g }).sum();
        if norm == 0.0 || self.step < 1e-4 || self.best_bound.floor() <= lower {
            return (plan, false);
        }
        let t = self.step * (relaxed.bound - lower).max(0.0) / norm;
        for (p, g) in self.prices.iter_mut().zip(&grad) {
            *p = (*p - t * g).max(0.0);
        }
        self.reprice();
        (plan, true)
    }

    /// The bundle's step after a solve at the current prices: the walk is added, the prices
    /// become the bundle's centre if their bound is the centre's best, and the prices move to
    /// the model's proximal point from the centre. Returns whether more steps may help: where the
    /// model expects no better bound, the walks but the last are dropped and the model asked
    /// again, and then, if the memory grew since the centre's bound was found, the centre is
    /// solved again (a memory only lowers the bound, so its value there is stale).
    fn bundle_step(&mut self, relaxed: &Relaxed) -> bool {
        let Some(state) = &mut self.bundle else { return false };
        // A memory grown by laps since the last step: the walks that went round a lap it now
        // forbids (each of the lap's cells remembers its resource) are walks no longer.
        let (width, laps) = match &self.memory {
            Some(memory) => (memory.off[self.cells], memory.laps.clone()),
            None => (0, Vec::new()),
        };
        let grew = width != state.width;
        if grew {
            if let Some(memory) = &self.memory {
                let items = &memory.items;
                state.bundle.retain(|laps| !laps.iter().any(|(i, cells)| cells.iter().all(|&c| items[c].contains(i))));
            }
            state.width = width;
            state.stale = true;
        }
        let prices: Vec<f64> = self.resources.iter().map(|&i| self.prices[i]).collect();
        let takes: Vec<(usize, f64)> = self
            .resources
            .iter()
            .enumerate()
            .filter(|&(_, &i)| relaxed.takes[i] > 0)
            .map(|(k, &i)| (k, f64::from(relaxed.takes[i])))
            .collect();
        let value = relaxed.bound - prices.iter().sum::<f64>() + takes.iter().map(|&(k, n)| n * prices[k]).sum::<f64>();
        state.bundle.add(value, takes, laps);
        let better = relaxed.bound < state.centre_value - 1e-9;
        if better {
            (state.centre, state.centre_value) = (prices, relaxed.bound);
        }
        state.bundle.found_better(better);
        let expects = |model: f64| state.centre_value - model > 1e-7 * state.centre_value.abs().max(1.0);
        let mut next = None;
        for _ in 0..2 {
            let proposal = state.bundle.next(&state.centre);
            charge(Work::Bundle(proposal.as_ref().map_or(0, |p| p.work)));
            match proposal {
                Some(p) if expects(p.model) => {
                    next = Some(p.prices);
                    break;
                }
                _ if state.bundle.len() > 1 => state.bundle.keep_last(),
                _ => break,
            }
        }
        let next = match next {
            Some(next) => next,
            None if state.stale => {
                state.stale = false;
                state.centre_value = f64::INFINITY;
                state.centre.clone()
            }
            None => return false,
        };
        for (&i, p) in self.resources.iter().zip(next) {
            self.prices[i] = p;
        }
        self.reprice();
        true
    }

    /// The best certified bound so far (rounded down: scores are integers); `None` when no
    /// walk reaches the final.
    pub fn bound(&self) -> Option<i64> {
        let b = self.best_bound;
        (b.is_finite()).then(|| rounded(b))
    }

    /// A fingerprint of the subgradient's exact state (the best bound and the prices, bit for
    /// bit): equal after each step when a change of the solve changes none of its values.
    pub fn fingerprint(&self) -> u64 {
        let mix = |h: u64, x: f64| (h ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
        self.prices.iter().fold(mix(0xcbf2_9ce4_8422_2325, self.best_bound), |h, &p| mix(h, p))
    }

    /// The memories the last solve with a memory solved, and those it found first that a walk
    /// can reach (0: found by an earlier solve), when it did not keep every memory's values
    /// (a plain or kept solve leaves them as they were): what it charged ([`Work::Reached`]), for
    /// profiling.
    pub fn memories_solved(&self) -> (usize, usize) {
        self.solved
    }

    /// The resources the best relaxed walk at the current prices takes more than once (cell
    /// index, times), most repeated first: where the bound counts what a real plan takes once,
    /// the laps a memory ([`Relaxation::remember`]) would have to forbid. The prices stay; the
    /// cost-to-go is then theirs (after [`Relaxation::settle`], call `settle` again).
    pub fn repeated(&mut self) -> Vec<(u32, u32)> {
        let relaxed = self.solve_any();
        let mut repeated: Vec<(u32, u32)> = self
            .model
            .items()
            .iter()
            .zip(&relaxed.takes)
            .filter(|&(_, &n)| n > 1)
            .map(|(&(cell, _), &n)| (cell, n))
            .collect();
        repeated.sort_by_key(|&(cell, n)| (std::cmp::Reverse(n), cell));
        repeated
    }

    /// Goes back to the best prices found and solves with them, so that the cost-to-go
    /// ([`CostToGo`]) is the one of the best bound.
    pub fn settle(&mut self) {
        if self.best_bound.is_finite() {
            self.prices.clone_from(&self.best_prices);
            self.reprice();
            self.keep_memories = true;
            let _ = self.solve_any();
            self.keep_memories = false;
        }
    }

    /// Updates [`Relaxation::price_bytes`] after the prices changed.
    fn reprice(&mut self) {
        for (b, table) in self.price_bytes.iter_mut().enumerate() {
            for m in 1..256usize {
                let i = b * 8 + m.trailing_zeros() as usize;
                table[m] = table[m & (m - 1)] + self.prices.get(i).copied().unwrap_or(0.0);
            }
        }
    }

    /// `rounded(v + the prices of the items not in taken)`, as always summed in item order,
    /// but mostly from [`Relaxation::price_bytes`].
    ///
    /// Both sums add the same `n` prices (all >= 0) in different orders: each is within
    /// `n eps` times the sum of the exact one, far inside the slack below; `rounded` is
    /// monotonic, so when both ends of the interval round alike, so does the sum in item order.
    fn priced_bound(&self, v: f64, taken: &[u64]) -> i64 {
        let mut sum = 0.0;
        for (tables, &t) in self.price_bytes.chunks_exact(8).zip(taken) {
            let byte = |k: usize| tables[k][usize::from((!t >> (8 * k)) as u8)];
            sum += ((byte(0) + byte(1)) + (byte(2) + byte(3))) + ((byte(4) + byte(5)) + (byte(6) + byte(7)));
        }
        let x = v + sum;
        let slack = 1e-9 * (v.abs() + sum + 1.0);
        let (low, high) = (rounded(x - slack), rounded(x + slack));
        if x.is_finite() && low == high {
            return low;
        }
        let has = |i: usize| taken[i / 64] >> (i % 64) & 1 == 1;
        rounded(v + (0..self.prices.len()).filter(|&i| !has(i)).map(|i| self.prices[i]).sum::<f64>())
    }

    /// Rough work of one solve (states times moves), to size budgets.
    pub fn work(&self) -> usize {
        match &self.memory {
            None => self.work_with(0),
            Some(m) => self.work_per_memory() * m.off[self.cells].max(self.cells << m.k),
        }
    }

    /// Work of one solve per memory of a block of states (see [`Memory::off`]).
    fn work_per_memory(&self) -> usize {
        self.mult.len() * (1 + usize::from(self.model.may_jump())) * self.ticks as usize * 4
    }

    /// Rough work of one solve remembering `k` resources per cell.
    pub fn work_with(&self, k: usize) -> usize {
        (self.cells * self.work_per_memory()) << k
    }

    /// From now on, each cell remembers which of its `k` (1 to 8) nearest resources the walk
    /// took: a tighter bound at `2^k` times the work of a solve. The prices carry over, and the
    /// step scale starts again, at 0.25 (see `MEMORY_SCALE`).
    pub fn remember(&mut self, k: usize) {
        let k = k.clamp(1, 8);
        let model = self.model;
        // Each cell's remembered resources: its own, then the nearest.
        let near: Vec<Vec<usize>> = (0..self.cells)
            .map(|c| {
                let mut by: Vec<(u32, usize)> = self
                    .resources
                    .iter()
                    .filter_map(|&i| {
                        let d = if model.items()[i].0 as usize == c { Some(0) } else { model.item_distance(i, c) };
                        d.map(|d| (d, i))
                    })
                    .collect();
                by.sort_unstable();
                by.truncate(k);
                by.into_iter().map(|(_, i)| i).collect()
            })
            .collect();
        self.memory = Some(Memory::new(model, &self.moves, k, near));
        self.step = MEMORY_SCALE;
        self.stalled = 0;
        // The bundle starts again from the best prices, whose bound with the memory is the
        // first step's.
        if let Some(state) = &mut self.bundle {
            state.bundle.clear(MEMORY_PROXIMITY);
            state.centre_value = f64::INFINITY;
            state.stale = false;
            self.prices.clone_from(&self.best_prices);
            self.reprice();
        }
    }

    /// From the next solve on, the memory also grows by the laps the relaxed walks go round
    /// (decremental state-space relaxation): after each solve, every resource the walk takes
    /// again is added to the memory of each cell it walked through between the two takes that
    /// remembers fewer than `bits` (at most 8) items, so that lap is no longer a walk. A step
    /// then costs as much more as the cells remember more, only where the walks lap.
    /// One solve's work stays within `max_work` (see [`Relaxation::work`]): laps stop growing
    /// the memory there.
    pub fn forbid_laps(&mut self, bits: usize, max_work: usize) {
        let per_width = self.work_per_memory().max(1);
        if let Some(memory) = &mut self.memory {
            (memory.lap_bits, memory.max_width) = (bits.min(8), max_work / per_width);
        }
    }

    /// The average number of memories per cell (`2^k` for a memory of `k` everywhere).
    pub fn memories_per_cell(&self) -> f64 {
        self.memory.as_ref().map_or(1.0, |m| m.off[self.cells] as f64 / self.cells as f64)
    }

    /// Moving onto `d` at tick `t + 1` holding `mask` and `jump`: the mask and Jump after, and
    /// the priced gain of the resource there when one may still be taken.
    fn arrive(&self, d: usize, t: u32, mask: usize, jump: bool) -> (usize, bool, Option<f64>) {
        if t + 1 < self.deadline[d] {
            self.taking(d, mask, jump)
        } else {
            (mask, jump, None)
        }
    }

    /// [`Relaxation::arrive`] while `d`'s item is still there.
    fn taking(&self, d: usize, mask: usize, jump: bool) -> (usize, bool, Option<f64>) {
        match self.effect[d] {
            Effect::Resource(i, v) => (mask, jump, Some(self.priced(mask, i, v))),
            Effect::Jump => (mask, true, None),
            Effect::Multiplier(bit) => (mask | bit, jump, None),
            Effect::Nothing => (mask, jump, None),
        }
    }

    /// What taking resource `i`, worth `v`, holding `mask` adds to a relaxed walk at the current
    /// prices (never less than nothing: the walk may pass over it).
    fn priced(&self, mask: usize, i: usize, v: i64) -> f64 {
        (v as f64 * self.mult[mask] - self.prices[i]).max(0.0)
    }

    /// The answer when no walk is needed: standing on the final at the start with nothing
    /// better (stop at once), or no walk reaching the final.
    fn trivial(&self, best: f64, start: usize, fin: usize) -> Option<Relaxed> {
        let takes = vec![0u32; self.model.items().len()];
        if start == fin && best <= 0.0 {
            Some(Relaxed { bound: self.prices.iter().sum::<f64>(), takes, walk: Some(vec![Action::Wait]) })
        } else {
            (best == NEG).then_some(Relaxed { bound: NEG, takes, walk: None })
        }
    }

    /// Per cell: the tick before which its item may be taken (0: no item) and what taking it
    /// does (a multiplier as its bit in the mask).
    fn effects(&self) -> (Vec<u32>, Vec<Effect>) {
        (0..self.cells)
            .map(|c| match self.model.item_at(c) {
                None => (0, Effect::Nothing),
                Some(i) => (
                    self.model.deadline(i),
                    match self.model.items()[i].1 {
                        Item::Resource(v) => Effect::Resource(i, v),
                        Item::Jump => Effect::Jump,
                        Item::Multiplier(_) => Effect::Multiplier(self.bit_of[i].map_or(0, |b| 1 << b)),
                    },
                ),
            })
            .unzip()
    }

    /// Words of [`Relaxation::live`] per tick.
    fn words(&self) -> usize {
        (self.cells * 2 * self.mult.len()).div_ceil(64)
    }

    /// The live states at tick `t` (see [`Relaxation::live`]), in increasing order.
    fn live_at(&self, t: u32) -> Live<'_> {
        let words = &self.live[t as usize * self.words()..(t as usize + 1) * self.words()];
        Live { words, w: 0, bits: words.first().copied().unwrap_or(0) }
    }

    /// Whether state `s` is live at tick `t` (see [`Relaxation::live`]).
    fn is_live(&self, t: u32, s: usize) -> bool {
        self.live[t as usize * self.words() + s / 64] >> (s % 64) & 1 == 1
    }

    /// Per tick, a bit per memory of every state (see [`Memory::reach`]): the memories a walk
    /// can be in, from the start (nothing remembered) or from nothing remembered at any live
    /// state, going forwards over the moves of a solve with `memory` (`arrival` as there). Prices
    /// change nothing of it (a resource still there is remembered whether or not its gain is
    /// worth taking), so it holds as long as the memory.
    /// Also says how many memories of live states it holds (those a solve solves).
    fn reachable(&self, memory: &Memory, arrival: &[(usize, f64, u8, u32)], fin: usize) -> (Vec<u64>, usize) {
        let cells = self.cells;
        let width = memory.off[cells];
        let wide = 2 * self.mult.len() * width;
        let words = wide.div_ceil(64);
        let mut reach = vec![0u64; self.ticks as usize * words];
        let mut reached = 0;
        let set = |reach: &mut [u64], i: usize| reach[i / 64] |= 1 << (i % 64);
        for t in 0..self.ticks {
            let (done, later) = reach.split_at_mut((t as usize + 1) * words);
            let now = &mut done[t as usize * words..];
            for s in self.live_at(t).filter(|_| self.seed_every_state || t == 0) {
                set(now, s / cells * width + memory.off[s % cells]);
            }
            if t + 1 == self.ticks {
                reached += self
                    .live_at(t)
                    .map(|s| {
                        bits_in(
                            now,
                            s / cells * width + memory.off[s % cells],
                            memory.off[s % cells + 1] - memory.off[s % cells],
                        )
                        .count()
                    })
                    .sum::<usize>();
                break;
            }
            let after = &mut later[..words];
            for s in self.live_at(t) {
                let (block, c) = (s / cells, s % cells);
                let j = block % 2;
                let at = block * width + memory.off[c];
                let nm = memory.off[c + 1] - memory.off[c];
                // Per move: where the memories it leads to start, its remap of this cell's
                // memories, and the bit of the resource it takes; and the memories it leads to,
                // a bit each (at most 256 of them), set here before they are added to `after`.
                let list = &self.moves[j][c];
                let mut to = [(usize::MAX, &[0u8; 256][..nm], 0u8); 8];
                for (m, (slot, &(d, _))) in to.iter_mut().zip(list).enumerate() {
                    let d = d as usize;
                    if d != fin {
                        let (taken, _, own, before) = arrival[block * cells + d];
                        let table = &memory.remap[j][memory.at[j][c * 8 + m]..][..nm];
                        *slot = if t + 1 < before {
                            (taken, table, own)
                        } else {
                            (block * width + memory.off[d], table, 0)
                        };
                    }
                }
                let mut led = [[0u64; 4]; 8];
                for mem in bits_in(now, at, nm) {
                    reached += 1;
                    for (&(_, table, own), bits) in to.iter().zip(led.iter_mut()).take(list.len()) {
                        let i = table[mem] | own;
                        bits[usize::from(i >> 6)] |= 1 << (i & 63);
                    }
                }
                for (&(from, _, _), bits) in to.iter().zip(&led).take(list.len()) {
                    if from == usize::MAX {
                        continue;
                    }
                    for (w, &b) in bits.iter().enumerate().filter(|&(_, &b)| b != 0) {
                        let (word, shift) = ((from + 64 * w) / 64, (from + 64 * w) % 64);
                        after[word] |= b << shift;
                        // (Bits past the last memory are never set: no word past the last.)
                        if shift > 0 && b >> (64 - shift) != 0 {
                            after[word + 1] |= b >> (64 - shift);
                        }
                    }
                }
            }
        }
        (reach, reached)
    }

    /// The states a walk from the start can be in at each tick (forwards, over the same moves
    /// and power-ups as the solves: prices change nothing of it), with the power-ups a search
    /// marks as taken there without taking them ([`Model::canonical`]: cleared by the opponent,
    /// or out of reach), that can still reach the final as their Jump allows
    /// ([`Model::finish_ticks`]; the others' value is nothing anyway). Every state whose
    /// cost-to-go a search asks for is among them, with the value it had when every state whose
    /// cell could be reached by then and reach the final with Jump was solved; the others are
    /// skipped (power-ups and Jump not yet reachable: 27 to 59 % of those on the maps counted;
    /// finals out of reach without Jump). (Only the tests leave out the power-ups a search
    /// marks, with `canonical` false, as a control.)
    fn live_states(&self, canonical: bool) -> Vec<u64> {
        let model = self.model;
        let p = model.problem();
        let (start, fin) = (model.cell(p.start), model.cell(p.final_pos));
        let (size, words) = (self.cells * 2 * self.mult.len(), self.words());
        let mut live = vec![0u64; words * self.ticks as usize];
        let mut reach = vec![false; size];
        reach[self.state(0, p.jump, start)] = true;
        let bits = |marked: &dyn Fn(usize) -> bool| {
            self.powerups.iter().enumerate().filter(|&(_, &i)| marked(i)).fold(0, |m, (b, _)| m | 1 << b)
        };
        // Per cell (they do not change with the tick): the ticks to finish without and with
        // Jump, and to take each power-up and then finish (`u32::MAX`: never).
        let finish: [Vec<u32>; 2] =
            [false, true].map(|j| (0..self.cells).map(|c| model.finish_ticks(c, j).unwrap_or(u32::MAX)).collect());
        let need: Vec<Vec<u32>> = (0..self.cells)
            .map(|c| self.powerups.iter().map(|&i| model.need(i, c).unwrap_or(u32::MAX)).collect())
            .collect();
        for t in 0..self.ticks {
            let left = self.ticks - t;
            let dead = bits(&|i| model.dead_after(i, t));
            for s in 0..size {
                if canonical && reach[s] {
                    let (mask, jump, c) = self.unstate(s);
                    let gone = need[c].iter().enumerate().filter(|&(_, &n)| n > left).fold(0, |m, (b, _)| m | 1 << b);
                    reach[self.state(mask | dead, jump, c)] = true;
                    reach[self.state(mask | dead | gone, jump, c)] = true;
                }
            }
            let mut next = vec![false; size];
            for s in (0..size).filter(|&s| reach[s]) {
                let (mask, jump, c) = self.unstate(s);
                // (The final is reached only as the start, at tick 0.)
                if c == fin || finish[usize::from(jump)][c] <= left {
                    live[t as usize * words + s / 64] |= 1 << (s % 64);
                }
                for &(d, _) in &self.moves[usize::from(jump)][c] {
                    let d = d as usize;
                    let (m2, j2, _) = self.arrive(d, t, mask, jump);
                    if d != fin {
                        next[self.state(m2, j2, d)] = true;
                    }
                }
            }
            reach = next;
        }
        live
    }

    fn solve_any(&mut self) -> Relaxed {
        if self.memory.is_some() {
            // (A solve that does not keep every memory's values charges what it solves.)
            if self.keep_memories {
                charge(Work::Remembering(self.work()));
            }
            self.solve_remembering()
        } else {
            charge(Work::Relax(self.work()));
            self.solve()
        }
    }

    fn state(&self, mask: usize, jump: bool, cell: usize) -> usize {
        (mask * 2 + usize::from(jump)) * self.cells + cell
    }

    /// The mask, Jump and cell of state `s` (see [`Relaxation::state`]).
    fn unstate(&self, s: usize) -> (usize, bool, usize) {
        (s / self.cells / 2, (s / self.cells) % 2 == 1, s % self.cells)
    }

    /// Solves the relaxation at the current prices.
    ///
    /// Per state and tick only two values are kept: the best (`v1`, by move `a1`) and the best
    /// when the remembered cell is the one `a1` goes to (`v2`, by move `a2`; bit 7: back onto
    /// it, taking nothing). Moving onto the remembered cell can never beat taking what another
    /// move takes, since values only grow with what the bot holds.
    fn solve(&mut self) -> Relaxed {
        let model = self.model;
        let p = model.problem();
        let start = model.cell(p.start);
        let fin = model.cell(p.final_pos);
        let masks = self.mult.len();
        let size = self.cells * 2 * masks;
        let steps = self.ticks as usize + 1;
        let cells = self.cells;
        // (Taken out while they are written, so that the helpers may borrow `self`.)
        let (mut values, mut choices) = (std::mem::take(&mut self.values), std::mem::take(&mut self.choice));
        values.clear();
        values.resize(steps * size, NEG);
        choices.clear();
        choices.resize(steps * size, [u8::MAX; 2]);
        let mut v2_next = vec![NEG; size];
        let mut v2_cur = vec![NEG; size];
        // Per state of the tick after and of this one: where its best move goes (`u32::MAX`:
        // none), so that a move back there is recognised by its cell.
        let mut to_next = vec![u32::MAX; size];
        let mut to_cur = vec![u32::MAX; size];
        // Per block of states (mask, Jump) and destination cell: the state arrived in when the
        // cell's item is still there (in the tick's states), its priced gain, and the tick before
        // which that holds (the same for the whole solve).
        let arrival: Vec<(u32, f64, u32)> = (0..2 * masks)
            .flat_map(|block| (0..cells).map(move |d| (block, d)))
            .map(|(block, d)| {
                let (m2, j2, gain) = self.taking(d, block / 2, block % 2 == 1);
                (((m2 * 2 + usize::from(j2)) * cells + d) as u32, gain.unwrap_or(0.0), self.deadline[d])
            })
            .collect();
        // Per destination cell, for the block of states being solved and the tick: what arriving
        // there is worth (filled once per block and tick, read by every move onto it), and one
        // more entry, never arrived in, where the padded moves lead ([`Relaxation::padded`]).
        let mut arrive = vec![Arrive { v: [NEG; 2], to: u32::MAX }; cells + 1];
        for t in (0..self.ticks).rev() {
            let (done, rest) = values.split_at_mut((t as usize + 1) * size);
            let v1_cur = &mut done[t as usize * size..];
            let v1_next = &rest[..size];
            let choice = &mut choices[t as usize * size..(t as usize + 1) * size];
            v2_cur.fill(NEG);
            to_cur.fill(u32::MAX);
            // (Nothing is remembered on leaving the start at tick 0: its item is still there.)
            let remembering = t > 0;
            let (mut base, mut end, mut jump) = (0, 0, false);
            for s in self.live_at(t) {
                if s >= end {
                    let block = s / cells;
                    (base, end, jump) = (block * cells, (block + 1) * cells, block % 2 == 1);
                    let blk = &arrival[base..end];
                    for (d, &(to, gain, before)) in blk.iter().enumerate() {
                        let (s2, gain) = if t + 1 < before { (to as usize, gain) } else { (base + d, 0.0) };
                        arrive[d] = Arrive { v: [gain + v1_next[s2], gain + v2_next[s2]], to: to_next[s2] };
                    }
                    // Onto the final, the walk ends: what it takes there and nothing after.
                    let (_, gain, before) = blk[fin];
                    let gain = if t + 1 < before { gain } else { 0.0 };
                    arrive[fin] = Arrive { v: [gain + 0.0; 2], to: u32::MAX };
                }
                let c = (s - base) as u32;
                let to = &self.padded[usize::from(jump)][s - base];
                let (with, v1, a1) = if jump {
                    best_move::<8>(&arrive, to, c, remembering)
                } else {
                    best_move::<4>(&arrive, to, c, remembering)
                };
                if v1 == NEG {
                    continue;
                }
                // The best that does not take the remembered cell's item: stepping back
                // onto it by `a1` (taking nothing), or the best other move.
                let a = usize::from(a1);
                let d = to[a] as usize;
                let back = if d == fin {
                    0.0
                } else if remembering && to_next[base + d] == c {
                    v2_next[base + d]
                } else {
                    v1_next[base + d]
                };
                let mut others = with;
                others[a] = NEG;
                let other = if jump { first_best::<8>(&others) } else { first_best::<4>(&others) };
                let (v2, a2) = if other.0 > back { other } else { (back, a1 | 0x80) };
                v1_cur[s] = v1;
                v2_cur[s] = v2;
                to_cur[s] = d as u32;
                choice[s] = [a1, a2];
            }
            std::mem::swap(&mut v2_cur, &mut v2_next);
            std::mem::swap(&mut to_cur, &mut to_next);
        }
        (self.values, self.choice, self.kept) = (values, choices, false);
        let best = self.values[self.state(0, p.jump, start)];
        if let Some(relaxed) = self.trivial(best, start, fin) {
            return relaxed;
        }
        let mut takes = vec![0u32; model.items().len()];
        // Follow the choices forward.
        let mut walk = Vec::new();
        let (mut mask, mut jump, mut cell, mut prev) = (0usize, p.jump, start, NONE);
        for t in 0..self.ticks {
            let s = self.state(mask, jump, cell);
            let [a1, a2] = self.choice[t as usize * size + s];
            if a1 == u8::MAX {
                break;
            }
            let remembered = prev != NONE && self.back[usize::from(jump)][cell][prev] == a1;
            let k = if remembered { a2 } else { a1 };
            let (d, dir) = self.moves[usize::from(jump)][cell][usize::from(k & 0x7f)];
            let d = d as usize;
            walk.push(Action::Move(model.pos(d)));
            if k & 0x80 == 0 {
                let gain;
                (mask, jump, gain) = self.arrive(d, t, mask, jump);
                if let (Some(i), true) = (model.item_at(d), gain.is_some_and(|g| g > 0.0)) {
                    takes[i] += 1;
                }
            }
            if d == fin {
                break;
            }
            cell = d;
            prev = if t == 0 { NONE } else { usize::from(dir) };
        }
        Relaxed { bound: best + self.prices.iter().sum::<f64>(), takes, walk: Some(walk) }
    }
}

impl Relaxation<'_> {
    /// Solves the relaxation with a memory ([`Relaxation::remember`]) at the current prices:
    /// the value of each (tick, state, memory) is its best move's gain plus the value it leads to.
    fn solve_remembering(&mut self) -> Relaxed {
        let Some(mut memory) = self.memory.take() else { return self.solve() };
        if !memory.laps.is_empty() {
            memory = memory.forbid_laps(self.model, &self.moves);
        }
        let model = self.model;
        let p = model.problem();
        let start = model.cell(p.start);
        let fin = model.cell(p.final_pos);
        let masks = self.mult.len();
        let cells = self.cells;
        let size = cells * 2 * masks;
        let width = memory.off[cells];
        // Memories per tick (every state's).
        let wide = 2 * masks * width;
        let steps = self.ticks as usize + 1;
        // Every memory's values, or only those with nothing remembered (see
        // [`Relaxation::keep_memories`]).
        let kept = self.keep_memories;
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        values.resize(steps * if kept { wide } else { size }, NEG);
        // (Only the choices of the memories solved are read: see below.)
        memory.choice.resize(steps * wide, u8::MAX);
        // (Each padded with 256 entries never written, so that a memory's values are read as an
        // array of 256 wherever they start: a `u8` index into it needs no bounds check.)
        let [mut next, mut cur] = std::mem::take(&mut self.rows);
        for row in [&mut next, &mut cur] {
            row.clear();
            row.resize(wide + 256, NEG);
        }
        let (nothing, never, zeros) = ([0.0; 256], [NEG; 256], [0u8; 256]);
        // Per block of states (mask, Jump) and destination cell, when its item is still there:
        // where the memories of the state arrived in start, the priced gain of its resource (0:
        // none) and the resource's bit in the cell's memory, and the tick before which that
        // holds (see [`Relaxation::arrive`]).
        let arrival: Vec<(usize, f64, u8, u32)> = (0..2 * masks)
            .flat_map(|block| (0..cells).map(move |d| (block, d)))
            .map(|(block, d)| {
                let (m2, j2, gain) = self.taking(d, block / 2, block % 2 == 1);
                let to = (m2 * 2 + usize::from(j2)) * width + memory.off[d];
                let (gain, own) = gain.map_or((0.0, 0), |g| (g, memory.own[d]));
                (to, gain, own, self.deadline[d])
            })
            .collect();
        // Unless every memory's values are kept, only the memories a walk can be in are solved
        // (about a quarter on test20): from the start, or from nothing remembered at any live
        // state (whose values are kept), a walk only ever reaches such memories, so their values
        // are those of solving them all, and the others are never read. Nor are the choices of
        // the memories not solved: the walk followed below goes through solved ones only.
        if !kept {
            let found = memory.reach.is_empty();
            if found {
                (memory.reach, memory.reached) = self.reachable(&memory, &arrival, fin);
            }
            self.solved = (memory.reached, if found { memory.reached } else { 0 });
            charge(Work::Reached { solved: memory.reached, found: self.solved.1 });
        }
        let reach_words = wide.div_ceil(64);
        for t in (0..self.ticks).rev() {
            // The states not live at this tick are never solved, so their values must be
            // nothing: they are, but for those live two ticks later, when this row held theirs.
            // (Defensive: a successor of a live state that is not live itself cannot reach the
            // final in time, so no solved state reads it; a review found no case that does.)
            for s in (t + 2 < self.ticks).then(|| self.live_at(t + 2)).into_iter().flatten() {
                if !self.is_live(t, s) {
                    let (block, c) = (s / cells, s % cells);
                    let at = block * width + memory.off[c];
                    cur[at..at + memory.off[c + 1] - memory.off[c]].fill(NEG);
                }
            }
            let reach =
                &memory.reach[if kept { 0..0 } else { t as usize * reach_words..(t as usize + 1) * reach_words }];
            // (Each solved memory's choice is written: see above for the others.)
            let choice = &mut memory.choice[t as usize * wide..(t as usize + 1) * wide];
            let (mut base, mut end, mut jump) = (0, 0, false);
            for s in self.live_at(t) {
                if s >= end {
                    let block = s / cells;
                    (base, end, jump) = (block * cells, (block + 1) * cells, block % 2 == 1);
                }
                let (c, j) = (s - base, usize::from(jump));
                let at = base / cells * width + memory.off[c];
                let nm = memory.off[c + 1] - memory.off[c];
                // Per move: what the memories it remaps to are worth after it, its remap of this
                // cell's memories, and the gain and bit of the resource there.
                let mut moves = [(&never, &zeros[..nm], 0.0, 0u8); 8];
                let list = &self.moves[j][c];
                let at_move = &memory.at[j][c * 8..c * 8 + 8];
                for ((slot, &(d, _)), &from) in moves.iter_mut().zip(list).zip(at_move) {
                    let d = d as usize;
                    let table = &memory.remap[j][from..][..nm];
                    let (taken, gain, own, before) = arrival[base + d];
                    // (Onto the final, nothing comes after: the state there is never solved.)
                    let after: &[f64; 256] = if d == fin {
                        &nothing
                    } else {
                        let to = if t + 1 < before { taken } else { base / cells * width + memory.off[d] };
                        next[to..to + 256].try_into().unwrap_or(&never)
                    };
                    // A resource still there is taken unless the memory holds it, and then held
                    // (where none is, `own` is 0 and the gain 0: the value there is `0 + after`).
                    *slot = if t + 1 < before { (after, table, gain, own) } else { (after, table, 0.0, 0) };
                }
                let (best, arg) = (&mut cur[at..at + nm], &mut choice[at..at + nm]);
                match (kept, list.len() <= 4) {
                    (true, true) => best_remembered::<4>(&moves, best, arg),
                    (true, false) => best_remembered::<8>(&moves, best, arg),
                    (false, true) => best_reached::<4>(&moves, reach, at, best, arg),
                    (false, false) => best_reached::<8>(&moves, reach, at, best, arg),
                }
                if !kept {
                    values[t as usize * size + s] = cur[at];
                }
            }
            if kept {
                values[t as usize * wide..(t as usize + 1) * wide].copy_from_slice(&cur[..wide]);
            }
            std::mem::swap(&mut cur, &mut next);
        }
        self.rows = [next, cur];
        let best =
            values[if kept { (p.jump as usize) * width + memory.off[start] } else { self.state(0, p.jump, start) }];
        (self.values, self.kept) = (values, kept);
        let relaxed = self.trivial(best, start, fin).unwrap_or_else(|| {
            let mut takes = vec![0u32; model.items().len()];
            // Per item: the step of the walk where it was last taken (laps end there).
            let mut last: Vec<Option<usize>> = vec![None; model.items().len()];
            let mut cells_walked = vec![start];
            let mut walk = Vec::new();
            let (mut mask, mut jump, mut cell, mut mem) = (0usize, p.jump, start, 0u8);
            for t in 0..self.ticks {
                let block = mask * 2 + usize::from(jump);
                let m = memory.choice[t as usize * wide + block * width + memory.off[cell] + usize::from(mem)];
                if m == u8::MAX {
                    break;
                }
                let j = usize::from(jump);
                let d = self.moves[j][cell][usize::from(m)].0 as usize;
                walk.push(Action::Move(model.pos(d)));
                cells_walked.push(d);
                let (m2, j2, gain) = self.arrive(d, t, mask, jump);
                let mut to = memory.remapped(j, cell, usize::from(m), usize::from(mem));
                let own = memory.own[d];
                if let (Some(g), 0) = (gain, to & own) {
                    to |= own;
                    if g > 0.0 {
                        if let Some(i) = model.item_at(d) {
                            takes[i] += 1;
                            let here = cells_walked.len() - 1;
                            if let (Some(from), true) = (last[i], memory.lap_bits > 0) {
                                memory.laps.push((i, cells_walked[from..=here].to_vec()));
                            }
                            last[i] = Some(here);
                        }
                    }
                }
                if d == fin {
                    break;
                }
                (mask, jump, cell, mem) = (m2, j2, d, to);
            }
            Relaxed { bound: best + self.prices.iter().sum::<f64>(), takes, walk: Some(walk) }
        });
        self.memory = Some(memory);
        relaxed
    }
}

impl Relaxation<'_> {
    /// The cost-to-go of the last solve for a search at `cell`, `tick`, `jump` with items
    /// `taken`, read at the memory `remembered` gives from the items of the cell's memory (bit b
    /// for the b-th), when the solve kept every memory's values; else with nothing remembered.
    fn cost_to_go(
        &self,
        cell: usize,
        tick: u32,
        jump: bool,
        taken: &[u64],
        remembered: impl Fn(&[usize]) -> usize,
    ) -> Option<i64> {
        if self.values.is_empty() || tick > self.ticks {
            return Some(i64::MAX);
        }
        let mut mask = 0;
        for (b, &(w, bit)) in self.powerup_bits.iter().enumerate() {
            mask |= usize::from(taken[w] & bit != 0) << b;
        }
        let block = tick as usize * self.mult.len() * 2 + mask * 2 + usize::from(jump);
        let at = match &self.memory {
            Some(memory) if self.kept => {
                block * memory.off[self.cells] + memory.off[cell] + remembered(&memory.items[cell])
            }
            _ => block * self.cells + cell,
        };
        let v = self.values[at];
        if v == NEG {
            return None;
        }
        Some(self.priced_bound(v, taken))
    }

    /// This relaxation's cost-to-go as exact searches read it (see [`Recalled`]).
    pub fn recalled(&self) -> Recalled<'_, '_> {
        Recalled(self)
    }
}

/// The cost-to-go with nothing remembered (`v1` of a plain solve): what beams rank by.
impl CostToGo for Relaxation<'_> {
    fn bound(&self, cell: usize, tick: u32, jump: bool, _mult: i64, taken: &[u64]) -> Option<i64> {
        self.cost_to_go(cell, tick, jump, taken, |_| 0)
    }
}

/// A relaxation's cost-to-go for exact searches: after a solve with a memory, the value of a
/// state with what its cell remembers, the resources of the cell's memory that the search has
/// taken (or can no longer take). They are gone, so a real plan from there is a walk of that
/// memory, and the walks that take them again no longer count: course_map(11)'s search for
/// plans 2.9 % above 19,608 finished in 4.7 s of work instead of 21.5. Beams rank by the
/// relaxation itself: ranked by this, they keep states that left nearby resources for later,
/// whose bound is the looser (course_map(11): 18,991 instead of 19,552).
pub struct Recalled<'r, 'a>(&'r Relaxation<'a>);

impl CostToGo for Recalled<'_, '_> {
    fn bound(&self, cell: usize, tick: u32, jump: bool, _mult: i64, taken: &[u64]) -> Option<i64> {
        let has = |i: usize| usize::from(taken[i / 64] >> (i % 64) & 1 == 1);
        self.0
            .cost_to_go(cell, tick, jump, taken, |items| items.iter().enumerate().fold(0, |m, (b, &i)| m | has(i) << b))
    }
}

/// A bound's value rounded down, past the rounding errors of its sums (scores are integers).
fn rounded(x: f64) -> i64 {
    (x + 1e-7 * x.abs().max(1.0)).floor() as i64
}

/// Replays `moves` from the model's problem through the rules (each item once, the opponent's
/// clearing first): the plan a relaxed walk really is.
pub fn replay(model: &Model, moves: &[Action]) -> Option<Plan> {
    let p = model.problem();
    let mut state = p.clone();
    let mut score = 0i64;
    for (tick, (t, &action)) in (1..).zip(moves.iter().enumerate()) {
        let (points, done) = state.play(tick, action)?;
        score = score.saturating_add(points);
        if done {
            return (tick <= p.ticks).then(|| Plan { score, moves: moves[..=t].to_vec() });
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plan_search::{search, Limits, Outcome, Problem};
    use bot_sdk::MapSpec;

    /// Two relaxations' cost-to-go (the first one answers), counting the states asked for and
    /// those where they differ.
    struct Compare<'a, 'b> {
        tried: &'b Relaxation<'a>,
        reference: &'b Relaxation<'a>,
        counts: std::cell::Cell<(usize, usize)>,
    }

    impl CostToGo for Compare<'_, '_> {
        fn bound(&self, cell: usize, tick: u32, jump: bool, mult: i64, taken: &[u64]) -> Option<i64> {
            let tried = CostToGo::bound(self.tried, cell, tick, jump, mult, taken);
            let differs = tried != CostToGo::bound(self.reference, cell, tick, jump, mult, taken);
            let (asked, differ) = self.counts.get();
            self.counts.set((asked + 1, differ + usize::from(differs)));
            tried
        }
    }

    /// A random map with several power-ups, and an opponent that clears some of them (and
    /// other cells) at random ticks: what makes a search mark power-ups it never took.
    pub(crate) fn random_problem(seed: &mut u64) -> Problem {
        let mut next = |n: u64| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*seed >> 33) % n
        };
        let (rows, cols, ticks) = (3 + next(4), 3 + next(4), 6 + next(15));
        let tokens = ["0", "0", "3", "5", "9", "W", "J", "D", "T", "D"];
        let mut text = format!("ARENA {rows} {cols} {ticks}\n0 0\n{} 0\n{} {}\nMAP\n", rows - 1, rows - 1, cols - 1);
        for x in 0..rows {
            let row: Vec<&str> = (0..cols)
                .map(|y| {
                    if [(0, 0), (rows - 1, 0), (rows - 1, cols - 1)].contains(&(x, y)) {
                        "0"
                    } else {
                        tokens[next(10) as usize]
                    }
                })
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        let spec = MapSpec::parse(&text).expect("a valid map");
        let mut cleared = Vec::new();
        for p in spec.grid.positions() {
            if next(3) == 0 {
                cleared.push((p, 1 + next(ticks) as u32));
            }
        }
        Problem { cleared, ..Problem::of_test(&spec) }
    }

    /// On a ring of five resources round a wall, the plain relaxation's walk laps the ring,
    /// taking them again (the bound's slack `repeated` shows); a memory of all five forbids the
    /// laps, and the walk takes each once.
    #[test]
    fn repeated_shows_the_laps_a_memory_forbids() {
        let text = "ARENA 3 3 30\n0 0\n2 0\n2 2\nMAP\n0 5 5\n5 W 5\n0 5 0\nEND_MAP\nSTREAM\n";
        let model = Model::new(Problem::of_test(&MapSpec::parse(text).expect("a valid map")));
        let mut relaxation = Relaxation::new(&model).expect("no power-ups");
        let laps = relaxation.repeated();
        assert!(laps.len() >= 3 && laps[0].1 >= 3, "the plain walk laps the ring: {laps:?}");
        assert!(laps.windows(2).all(|w| w[0].1 >= w[1].1), "most repeated first: {laps:?}");
        relaxation.remember(5);
        assert_eq!(relaxation.repeated(), Vec::new());
    }

    /// With the bundle and a memory grown by laps: each step's walk, kept as a cut, is the best
    /// of the walks kept at the prices it was solved at (a cut of the wrong sign or value is
    /// not), and once the memory grows, no walk kept goes round a lap it forbids (every cell of
    /// the lap remembering the lap's resource). Control: on these maps the memory grows and
    /// walks are dropped, so the second check is not empty.
    #[test]
    fn the_bundle_keeps_each_steps_walk_and_only_the_walks_the_memory_allows() {
        let ring = "ARENA 3 3 30\n0 0\n2 0\n2 2\nMAP\n0 5 5\n5 W 5\n0 5 0\nEND_MAP\nSTREAM\n";
        let mut seed = 11;
        let mut problems = vec![Problem::of_test(&MapSpec::parse(ring).expect("a valid map"))];
        problems.extend((0..60).map(|_| random_problem(&mut seed)));
        let (mut cuts, mut dropped) = (0, 0);
        for problem in problems {
            let model = Model::new(problem);
            let Some(mut relaxation) = Relaxation::new(&model) else { continue };
            relaxation.use_bundle();
            for step in 0..40 {
                if step == 10 {
                    relaxation.remember(1);
                    relaxation.forbid_laps(8, usize::MAX);
                }
                let prices: Vec<f64> = relaxation.resources.iter().map(|&i| relaxation.prices[i]).collect();
                let (kept, width) = relaxation.bundle.as_ref().map_or((0, 0), |b| (b.bundle.len(), b.width));
                let more = relaxation.tighten(0).1;
                let (Some(state), Some(memory)) = (&relaxation.bundle, &relaxation.memory) else { continue };
                let values: Vec<(f64, &Laps)> = state.bundle.cuts_at(&prices).collect();
                if let Some((last, _)) = values.last() {
                    let best = values.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max);
                    assert!(
                        *last >= best - 1e-6 * best.abs().max(1.0),
                        "the step's walk is the best at its prices: {last} < {best}"
                    );
                    cuts += 1;
                }
                for (_, laps) in &values {
                    for (i, cells) in laps.iter() {
                        assert!(
                            !cells.iter().all(|&c| memory.items[c].contains(i)),
                            "a walk round a forbidden lap is kept"
                        );
                    }
                }
                dropped += usize::from(state.width != width && state.bundle.len() < (kept + 1).min(BUNDLE_WALKS));
                if !more {
                    break;
                }
            }
        }
        assert!(cuts > 100, "enough steps to mean something ({cuts})");
        assert!(dropped > 0, "the control: a memory grew and dropped walks");
    }

    /// Solving only the live states changes neither the bound nor any cost-to-go an exact or a
    /// beam search asks for, against a relaxation that solves every state whose cell can be
    /// reached by then and reach the final with Jump (as before the live states). Control: without the power-ups a search marks as taken (cleared, or out of
    /// reach), some states it asks for are not solved and their cost-to-go differs.
    #[test]
    fn solving_only_the_live_states_changes_no_cost_to_go_a_search_asks_for() {
        let mut seed = 5;
        let (mut asked, mut control_differs) = (0, 0);
        for _ in 0..150 {
            let model = Model::new(random_problem(&mut seed));
            let (Some(mut live), Some(mut every), Some(mut bare)) =
                (Relaxation::new(&model), Relaxation::new(&model), Relaxation::new(&model))
            else {
                continue;
            };
            let (start, fin) = (model.cell(model.problem().start), model.cell(model.problem().final_pos));
            let (words, ticks) = (every.words(), every.ticks);
            // Reached by then (with Jump's distances) and the final still in reach after; never
            // the final itself, which ends the game, except as the start.
            let open = |t: u32, c: usize| {
                let early = model.from_start(c).is_some_and(|e| e <= t) && (t > 0 || c == start);
                early
                    && (c == fin && t == 0
                        || c != fin && model.to_final(c, model.may_jump()).is_some_and(|h| h <= ticks - t))
            };
            for t in 0..ticks {
                for s in (0..every.cells * 2 * every.mult.len()).filter(|&s| open(t, s % every.cells)) {
                    every.live[t as usize * words + s / 64] |= 1 << (s % 64);
                }
            }
            bare.live = bare.live_states(false);
            for _ in 0..3 {
                let plans = [live.tighten(0), every.tighten(0), bare.tighten(0)].map(|(plan, _)| plan.map(|p| p.score));
                assert_eq!(plans, [plans[1]; 3], "{:?}", model.problem());
                assert_eq!(live.bound(), every.bound(), "{:?}", model.problem());
            }
            for beam in [None, Some(4)] {
                let limits = Limits { beam, max_states: 100_000, incumbent: None };
                let compare = |tried| Compare { tried, reference: &every, counts: std::cell::Cell::new((0, 0)) };
                let (same, control) = (compare(&live), compare(&bare));
                search(&model, limits, Some(&same));
                search(&model, limits, Some(&control));
                assert_eq!(same.counts.get().1, 0, "a cost-to-go differs: {:?}", model.problem());
                asked += same.counts.get().0;
                control_differs += usize::from(control.counts.get().1 > 0);
            }
        }
        assert!(asked >= 10_000, "the searches ask for enough states ({asked})");
        assert!(control_differs >= 5, "the control differs in some searches ({control_differs})");
    }

    /// Solving only the memories a walk can reach (see [`Relaxation::reachable`]) changes no
    /// step's bound or prices, bit for bit, nor any cost-to-go a search asks for, against solving
    /// every memory at each step, with a memory of the nearest resources and one grown by laps.
    /// Control: reached from the start only, some cost-to-go differs (nothing remembered at a
    /// state the walk from the start never reaches with nothing remembered).
    #[test]
    fn solving_only_the_reachable_memories_changes_no_value() {
        let mut seed = 17;
        let (mut asked, mut control_differs, mut pruned) = (0, 0, 0);
        for round in 0..120 {
            let model = Model::new(random_problem(&mut seed));
            let (Some(mut reached), Some(mut every), Some(mut control)) =
                (Relaxation::new(&model), Relaxation::new(&model), Relaxation::new(&model))
            else {
                continue;
            };
            control.seed_every_state = false;
            for r in [&mut reached, &mut every, &mut control] {
                r.remember(2);
                if round % 2 == 1 {
                    r.forbid_laps(8, usize::MAX);
                }
            }
            every.keep_memories = true;
            for _ in 0..4 {
                let plans = [reached.tighten(0), every.tighten(0)].map(|(plan, _)| plan.map(|p| p.score));
                assert_eq!(plans[0], plans[1], "{:?}", model.problem());
                assert_eq!(reached.fingerprint(), every.fingerprint(), "{:?}", model.problem());
                control.tighten(0);
            }
            let memory = reached.memory.as_ref().expect("a memory");
            let solved = memory.reach.iter().map(|w| w.count_ones() as usize).sum::<usize>();
            pruned += usize::from(solved < reached.ticks as usize * 2 * reached.mult.len() * memory.off[reached.cells]);
            for beam in [None, Some(4)] {
                let limits = Limits { beam, max_states: 100_000, incumbent: None };
                let compare = |tried| Compare { tried, reference: &every, counts: std::cell::Cell::new((0, 0)) };
                let (same, other) = (compare(&reached), compare(&control));
                search(&model, limits, Some(&same));
                search(&model, limits, Some(&other));
                assert_eq!(same.counts.get().1, 0, "a cost-to-go differs: {:?}", model.problem());
                asked += same.counts.get().0;
                control_differs += usize::from(other.counts.get().1 > 0);
            }
        }
        assert!(asked >= 10_000, "the searches ask for enough states ({asked})");
        assert!(pruned >= 50, "memories are left out on enough maps ({pruned})");
        assert!(control_differs >= 5, "the control differs in some searches ({control_differs})");
    }

    /// A cost-to-go that asks [`Recalled`] and, for comparison, the relaxation itself (nothing
    /// remembered), counting the states where the first is tighter; or, as a control, reads
    /// each state as if its cell remembered all of its resources, taken or not.
    struct Checked<'r, 'a> {
        relaxation: &'r Relaxation<'a>,
        all_remembered_control: bool,
        tighter: std::cell::Cell<usize>,
    }

    impl CostToGo for Checked<'_, '_> {
        fn bound(&self, cell: usize, tick: u32, jump: bool, mult: i64, taken: &[u64]) -> Option<i64> {
            let r = self.relaxation;
            let plain = CostToGo::bound(r, cell, tick, jump, mult, taken);
            if self.all_remembered_control {
                return r.cost_to_go(cell, tick, jump, taken, |items| (1 << items.len()) - 1);
            }
            let recalled = CostToGo::bound(&r.recalled(), cell, tick, jump, mult, taken);
            assert!(recalled <= plain, "recalled {recalled:?} above nothing remembered {plain:?}");
            self.tighter.set(self.tighter.get() + usize::from(recalled < plain));
            recalled
        }
    }

    /// An exact search pruned by the memory's cost-to-go read with what the search took
    /// ([`Relaxation::recalled`]) still finds the optimum (the search pruned by the model's own
    /// bound alone), and that reading is never looser than with nothing remembered, and tighter
    /// on some states. Control: read as if each cell remembered all of its resources, taken or
    /// not, the search misses the optimum on some maps.
    #[test]
    fn the_recalled_cost_to_go_prunes_more_and_never_below_the_optimum() {
        let mut seed = 11;
        let (mut solved, mut tighter, mut missed) = (0, 0, 0);
        for _ in 0..150 {
            let model = Model::new(random_problem(&mut seed));
            let Some(mut relaxation) = Relaxation::new(&model) else { continue };
            relaxation.remember(4);
            for _ in 0..10 {
                relaxation.tighten(0);
            }
            relaxation.settle();
            let limits = Limits { beam: None, max_states: 2_000_000, incumbent: None };
            let Outcome::Optimal(optimum) = search(&model, limits, None) else { continue };
            let checked = |all_remembered_control| Checked {
                relaxation: &relaxation,
                all_remembered_control,
                tighter: std::cell::Cell::new(0),
            };
            let (recalled, control) = (checked(false), checked(true));
            let found = |outcome| match outcome {
                Outcome::Optimal(plan) => Some(plan.score),
                _ => None,
            };
            assert_eq!(found(search(&model, limits, Some(&recalled))), Some(optimum.score), "{:?}", model.problem());
            missed += usize::from(found(search(&model, limits, Some(&control))) != Some(optimum.score));
            solved += 1;
            tighter += usize::from(recalled.tighter.get() > 0);
        }
        assert!(solved >= 100, "enough maps are solved ({solved})");
        assert!(tighter >= 50, "the recalled cost-to-go is tighter in some searches ({tighter} of {solved})");
        assert!(missed >= 20, "the control misses the optimum on some maps ({missed} of {solved})");
    }
}
