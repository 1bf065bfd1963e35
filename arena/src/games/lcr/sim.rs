//! Fast statistics: how many turns a game of LCR lasts, by number of players.
//!
//! Games run in this process with no allocation per game: the chips live in one buffer per
//! thread, and the dice come three bits at a time from a 64-bit generator (21 dice per
//! draw, exactly uniform over 0..=7). Games are cut into fixed chunks, each with its own
//! seed derived from the run's seed, the player count and the chunk number; the sums are
//! integers, so the results are the same whatever the number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Games per chunk (the unit of work and of seeding).
pub const CHUNK: u64 = 1 << 14;

/// Games played side by side by the table walk (see `Markov::play_many`).
const LANES: usize = 8;

/// wyrand: small, fast, good enough for dice.
struct Wy(u64);

impl Wy {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0).wrapping_mul(u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db));
        ((t >> 64) ^ t) as u64
    }
}

/// Dice from a 64-bit generator, 21 per draw.
struct Dice {
    rng: Wy,
    bits: u64,
    left: u32,
}

impl Dice {
    fn new(seed: u64) -> Self {
        Dice { rng: Wy(seed), bits: 0, left: 0 }
    }

    #[inline]
    fn roll(&mut self) -> u8 {
        if self.left == 0 {
            self.bits = self.rng.next();
            self.left = 21;
        }
        let d = (self.bits & 7) as u8;
        self.bits >>= 3;
        self.left -= 1;
        d
    }

    /// `k` dice at once as one number (first die in the low bits), as `k` calls of
    /// [`Dice::roll`] would give them.
    #[inline]
    fn roll_many(&mut self, k: u32) -> usize {
        if self.left >= k {
            let d = (self.bits & ((1 << (3 * k)) - 1)) as usize;
            self.bits >>= 3 * k;
            self.left -= k;
            d
        } else {
            (0..k).map(|i| usize::from(self.roll()) << (3 * i)).sum()
        }
    }
}

/// What a whole turn of `k` dice does, packed: chips to the left, to the right, to the
/// centre, whether play reverses (odd number of 6s), and the skips. Within a turn the order of
/// the dice does not matter: left and right are fixed neighbours and a player rolls no more
/// dice than it has chips.
#[derive(Clone, Copy, Default)]
struct TurnEffect {
    left: u32,
    right: u32,
    center: u32,
    reverse: bool,
    skips: u32,
}

/// `TABLE[k][dice]` for k = 1, 2, 3 dice (index 0 unused).
fn table() -> &'static [Vec<TurnEffect>; 4] {
    static TABLE: std::sync::OnceLock<[Vec<TurnEffect>; 4]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            (0..1usize << (3 * k))
                .map(|code| {
                    let mut e = TurnEffect::default();
                    for i in 0..k {
                        match (code >> (3 * i)) & 7 {
                            3 => e.left += 1,
                            4 => e.right += 1,
                            5 => e.center += 1,
                            6 => e.reverse = !e.reverse,
                            7 => e.skips += 1,
                            _ => {}
                        }
                    }
                    e
                })
                .collect()
        })
    })
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game in `chips` (one slot per player) and returns the turns it took. The rules
/// are those of [`super::Lcr`], which the tests check this against die for die; a whole turn
/// is applied at once from a table of what each combination of dice does.
#[inline(always)]
fn play(chips: &mut [u32], dice: &mut Dice, table: &[Vec<TurnEffect>; 4]) -> u32 {
    let n = chips.len();
    chips.fill(super::START_CHIPS);
    let mut holders = n;
    let (mut cur, mut cw, mut turns) = (0usize, true, 0u32);
    let next = |k: usize| if k + 1 == n { 0 } else { k + 1 };
    let prev = |k: usize| if k == 0 { n - 1 } else { k - 1 };
    while holders > 1 {
        turns += 1;
        let k = chips[cur].min(3);
        let e = table[k as usize][dice.roll_many(k)];
        let (l, r) = (next(cur), prev(cur));
        let had = [chips[l] > 0, chips[r] > 0];
        chips[cur] -= e.left + e.right + e.center;
        chips[l] += e.left;
        chips[r] += e.right;
        holders -= usize::from(chips[cur] == 0);
        holders += usize::from(!had[0] && chips[l] > 0);
        if r != l {
            holders += usize::from(!had[1] && chips[r] > 0);
        }
        cw ^= e.reverse;
        if holders <= 1 {
            break;
        }
        // Up to four players on, without a division: `%` costs more than the rest of a turn.
        let steps = 1 + e.skips as usize;
        if cw {
            cur += steps;
            while cur >= n {
                cur -= n;
            }
        } else {
            while cur < steps {
                cur += n;
            }
            cur -= steps;
        }
        while chips[cur] == 0 {
            cur = if cw { next(cur) } else { prev(cur) };
        }
    }
    turns
}

/// For two and three players the whole game state (chips in hand, who rolls, direction) has
/// few values, so every turn is precomputed: `next[state * 512 + dice]` is the next state, or
/// [`OVER`]. A game is then one table look-up per turn.
struct Markov {
    players: usize,
    /// Dense state ids, by [`Markov::key`].
    ids: std::collections::HashMap<u64, u16>,
    /// Dice per state (`min(3, chips of the roller)`).
    dice: Vec<u8>,
    next: Vec<u16>,
}

/// The game is over.
const OVER: u16 = u16::MAX;

impl Markov {
    fn key(chips: &[u32], cur: usize, cw: bool) -> u64 {
        chips.iter().fold(0u64, |k, &c| k * 16 + u64::from(c)) * 8 + (cur as u64) * 2 + u64::from(cw)
    }

    /// Builds the table for `players` (2 or 3) from the same turn rule as [`play`].
    fn build(players: usize) -> Markov {
        let table = table();
        let total = players as u32 * super::START_CHIPS;
        let mut states: Vec<(Vec<u32>, usize, bool)> = Vec::new();
        let mut chips = vec![0u32; players];
        'odometer: loop {
            if chips.iter().sum::<u32>() <= total && chips.iter().filter(|&&c| c > 0).count() >= 2 {
                for cur in (0..players).filter(|&c| chips[c] > 0) {
                    states.push((chips.clone(), cur, true));
                    states.push((chips.clone(), cur, false));
                }
            }
            for slot in chips.iter_mut() {
                *slot += 1;
                if *slot <= total {
                    continue 'odometer;
                }
                *slot = 0;
            }
            break;
        }
        let ids: std::collections::HashMap<u64, u16> =
            states.iter().enumerate().map(|(i, (c, cur, cw))| (Markov::key(c, *cur, *cw), i as u16)).collect();
        let mut next = vec![OVER; states.len() * 512];
        let mut dice = vec![0u8; states.len()];
        for (id, (c, cur, cw)) in states.iter().enumerate() {
            let k = c[*cur].min(3);
            dice[id] = k as u8;
            for code in 0..(1usize << (3 * k)) {
                let (mut chips, mut cur, mut cw) = (c.clone(), *cur, *cw);
                if !turn(&mut chips, &mut cur, &mut cw, table[k as usize][code]) {
                    next[id * 512 + code] = ids[&Markov::key(&chips, cur, cw)];
                }
            }
        }
        Markov { players, ids, dice, next }
    }

    /// Plays one game from the starting state; returns its turns (what each lane of
    /// [`Markov::play_many`] does, checked against it).
    #[cfg(test)]
    fn play(&self, start: u16, dice: &mut Dice) -> u32 {
        let mut state = start;
        let mut turns = 0;
        loop {
            turns += 1;
            let k = u32::from(self.dice[state as usize]);
            state = self.next[state as usize * 512 + dice.roll_many(k)];
            if state == OVER {
                return turns;
            }
        }
    }

    /// Plays `count` games with dice seeded from `seed`; returns the sum of their turns and
    /// of the squares. Each game is one chain of dependent table look-ups, so [`LANES`] games
    /// are played side by side, each with its own dice, for the memory loads to overlap.
    fn play_many(&self, seed: u64, count: u64) -> (u64, u128) {
        let start = self.start();
        let mut dice: [Dice; LANES] = std::array::from_fn(|lane| Dice::new(splitmix(seed ^ splitmix(lane as u64))));
        let mut state = [start; LANES];
        let mut turns = [0u64; LANES];
        let mut active = [false; LANES];
        let mut started = 0;
        for slot in active.iter_mut().take(count.min(LANES as u64) as usize) {
            *slot = true;
            started += 1;
        }
        let mut live = started;
        let (mut sum, mut squares) = (0u64, 0u128);
        while live > 0 {
            for lane in 0..LANES {
                if !active[lane] {
                    continue;
                }
                turns[lane] += 1;
                let here = state[lane] as usize;
                let k = u32::from(self.dice[here]);
                let next = self.next[here * 512 + dice[lane].roll_many(k)];
                if next != OVER {
                    state[lane] = next;
                    continue;
                }
                let t = turns[lane];
                sum += t;
                squares += u128::from(t * t);
                turns[lane] = 0;
                state[lane] = start;
                if started < count {
                    started += 1;
                } else {
                    active[lane] = false;
                    live -= 1;
                }
            }
        }
        (sum, squares)
    }

    fn start(&self) -> u16 {
        self.ids[&Markov::key(&vec![super::START_CHIPS; self.players], 0, true)]
    }
}

/// Applies one turn's effect; returns whether the game is over (the rule of [`play`]).
fn turn(chips: &mut [u32], cur: &mut usize, cw: &mut bool, e: TurnEffect) -> bool {
    let n = chips.len();
    let (l, r) = ((*cur + 1) % n, (*cur + n - 1) % n);
    chips[*cur] -= e.left + e.right + e.center;
    chips[l] += e.left;
    chips[r] += e.right;
    *cw ^= e.reverse;
    if chips.iter().filter(|&&c| c > 0).count() <= 1 {
        return true;
    }
    let step = |k: usize, cw: bool| if cw { (k + 1) % n } else { (k + n - 1) % n };
    for _ in 0..=e.skips {
        *cur = step(*cur, *cw);
    }
    while chips[*cur] == 0 {
        *cur = step(*cur, *cw);
    }
    false
}

fn markov(players: usize) -> Option<&'static Markov> {
    static TWO: std::sync::OnceLock<Markov> = std::sync::OnceLock::new();
    static THREE: std::sync::OnceLock<Markov> = std::sync::OnceLock::new();
    match players {
        2 => Some(TWO.get_or_init(|| Markov::build(2))),
        3 => Some(THREE.get_or_init(|| Markov::build(3))),
        _ => None,
    }
}

/// Turn statistics for one player count.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Players per game.
    pub players: usize,
    /// Games simulated.
    pub games: u64,
    /// Mean turns per game.
    pub mean: f64,
    /// Standard error of the mean.
    pub se: f64,
}

impl Stats {
    /// The 95 % confidence interval of the mean.
    pub fn interval(&self) -> (f64, f64) {
        (self.mean - 1.96 * self.se, self.mean + 1.96 * self.se)
    }
}

/// Simulates `games` games of `players` players on `jobs` threads.
pub fn simulate(players: usize, games: u64, seed: u64, jobs: usize) -> Stats {
    let chunks = games.div_ceil(CHUNK);
    let next_chunk = AtomicU64::new(0);
    let totals = Mutex::new((0u64, 0u128));
    let work = || {
                let table = table();
                let fast = markov(players);
                let mut chips = vec![0u32; players];
                let (mut sum, mut squares) = (0u64, 0u128);
                loop {
                    let c = next_chunk.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        break;
                    }
                    let chunk_seed = splitmix(seed ^ splitmix((players as u64) << 32 ^ c));
                    let count = CHUNK.min(games - c * CHUNK);
                    if let Some(m) = fast {
                        let (s, q) = m.play_many(chunk_seed, count);
                        sum += s;
                        squares += q;
                        continue;
                    }
                    let mut dice = Dice::new(chunk_seed);
                    for _ in 0..count {
                        let t = u64::from(play(&mut chips, &mut dice, table));
                        sum += t;
                        squares += u128::from(t * t);
                    }
                }
                let mut total = match totals.lock() {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                };
                total.0 += sum;
                total.1 += squares;
    };
    // (A thread the machine cannot start, out of processes or memory, leaves its chunks to the
    // others; with none started, this thread plays them all.)
    std::thread::scope(|scope| {
        let started = (0..jobs.max(1))
            .filter(|_| std::thread::Builder::new().spawn_scoped(scope, work).is_ok())
            .count();
        if started == 0 {
            work();
        }
    });
    let (sum, squares) = match totals.into_inner() {
        Ok(t) => t,
        Err(p) => p.into_inner(),
    };
    let n = games.max(1) as f64;
    let mean = sum as f64 / n;
    let variance = (squares as f64 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
    Stats { players, games, mean, se: (variance / n).sqrt() }
}

/// A fitted model of mean turns against players.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// `linear`, `quadratic`, `power` or `exponential`.
    pub model: &'static str,
    /// The fitted formula.
    pub formula: String,
    /// Coefficient of determination on the means.
    pub r2: f64,
    /// R² adjusted for the number of parameters (models are ranked by it).
    pub adjusted_r2: f64,
}

fn solve3(m: [[f64; 3]; 3], v: [f64; 3]) -> Option<[f64; 3]> {
    let det = |a: [[f64; 3]; 3]| {
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    };
    let d = det(m);
    if d.abs() < 1e-12 {
        return None;
    }
    let mut out = [0.0; 3];
    for (i, slot) in out.iter_mut().enumerate() {
        let mut mi = m;
        for r in 0..3 {
            mi[r][i] = v[r];
        }
        *slot = det(mi) / d;
    }
    Some(out)
}

/// Least-squares line through (x, y): (intercept, slope).
fn line(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let (sx, sy) = (x.iter().sum::<f64>(), y.iter().sum::<f64>());
    let sxx: f64 = x.iter().map(|v| v * v).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    ((sy - slope * sx) / n, slope)
}

/// Fits linear, quadratic, power and exponential models; best (by adjusted R²) first.
pub fn fit(stats: &[Stats]) -> Vec<Fit> {
    let x: Vec<f64> = stats.iter().map(|s| s.players as f64).collect();
    let y: Vec<f64> = stats.iter().map(|s| s.mean).collect();
    let n = x.len() as f64;
    let mean_y = y.iter().sum::<f64>() / n;
    let total: f64 = y.iter().map(|v| (v - mean_y).powi(2)).sum();
    let score = |model: &'static str, formula: String, predict: &dyn Fn(f64) -> f64, params: f64| {
        let residual: f64 = x.iter().zip(&y).map(|(a, b)| (b - predict(*a)).powi(2)).sum();
        let r2 = 1.0 - residual / total;
        let adjusted_r2 = 1.0 - (1.0 - r2) * (n - 1.0) / (n - params - 1.0).max(1.0);
        Fit { model, formula, r2, adjusted_r2 }
    };
    let mut fits = Vec::new();
    let (a, b) = line(&x, &y);
    fits.push(score("linear", format!("turns = {a:.3} + {b:.3} * players"), &|p| a + b * p, 1.0));
    let s = |k: i32| x.iter().map(|v| v.powi(k)).sum::<f64>();
    let t = |k: i32| x.iter().zip(&y).map(|(a, b)| a.powi(k) * b).sum::<f64>();
    if let Some([c0, c1, c2]) = solve3([[n, s(1), s(2)], [s(1), s(2), s(3)], [s(2), s(3), s(4)]], [t(0), t(1), t(2)]) {
        let formula = format!("turns = {c0:.3} + {c1:.3} * players + {c2:.4} * players^2");
        fits.push(score("quadratic", formula, &|p| c0 + c1 * p + c2 * p * p, 2.0));
    }
    if y.iter().all(|v| *v > 0.0) {
        let ly: Vec<f64> = y.iter().map(|v| v.ln()).collect();
        let lx: Vec<f64> = x.iter().map(|v| v.ln()).collect();
        let (la, pb) = line(&lx, &ly);
        let pa = la.exp();
        fits.push(score("power", format!("turns = {pa:.3} * players^{pb:.3}"), &|p| pa * p.powf(pb), 1.0));
        let (ea, eb) = line(&x, &ly);
        let ea = ea.exp();
        fits.push(score(
            "exponential",
            format!("turns = {ea:.3} * e^({eb:.4} * players)"),
            &|p| ea * (eb * p).exp(),
            1.0,
        ));
    }
    fits.sort_by(|a, b| b.adjusted_r2.total_cmp(&a.adjusted_r2));
    fits
}

#[cfg(test)]
mod tests {
    use super::super::Lcr;
    use super::*;

    #[test]
    fn the_fast_game_follows_the_rules_die_for_die() {
        for players in [2, 3, 4, 5, 7, 10, 20] {
            for seed in 0..300u64 {
                let mut chips = vec![0; players];
                let fast = play(&mut chips, &mut Dice::new(seed), table());
                let mut dice = Dice::new(seed);
                let mut game = Lcr::new(players);
                while !game.is_over() {
                    for _ in 0..game.start_turn() {
                        game.roll(dice.roll());
                    }
                }
                assert_eq!(fast, game.turns, "{players} players, seed {seed}");
                assert_eq!(chips, game.chips);
                if let Some(m) = markov(players) {
                    assert_eq!(
                        m.play(m.start(), &mut Dice::new(seed)),
                        game.turns,
                        "table, {players} players, seed {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn games_side_by_side_are_the_games_one_by_one() {
        let m = markov(3).unwrap();
        let lane_dice = |lane: usize| Dice::new(splitmix(77 ^ splitmix(lane as u64)));
        for count in 1..=LANES as u64 {
            let one_by_one: Vec<u64> =
                (0..count as usize).map(|lane| u64::from(m.play(m.start(), &mut lane_dice(lane)))).collect();
            let sum = one_by_one.iter().sum();
            let squares = one_by_one.iter().map(|&t| u128::from(t * t)).sum();
            assert_eq!(m.play_many(77, count), (sum, squares), "{count} games");
        }
        // Lanes start new games as theirs end: every game is counted once.
        let (sum, _) = m.play_many(5, 10_000);
        assert!((20.0..30.0).contains(&(sum as f64 / 10_000.0)), "3-player games last about 24.5 turns");
    }

    #[test]
    fn results_do_not_depend_on_the_number_of_threads() {
        let one = simulate(3, 50_000, 9, 1);
        assert_eq!(one, simulate(3, 50_000, 9, 4));
        assert_ne!(one, simulate(3, 50_000, 10, 1), "another seed, other games");
        assert_eq!(one.games, 50_000);
    }

    #[test]
    fn fits_recognise_their_own_shapes() {
        let make = |f: &dyn Fn(f64) -> f64| -> Vec<Stats> {
            [2usize, 3, 4, 5, 10, 20]
                .iter()
                .map(|&p| Stats { players: p, games: 1, mean: f(p as f64), se: 0.0 })
                .collect()
        };
        assert_eq!(fit(&make(&|p| 3.0 + 2.0 * p))[0].model, "linear");
        assert_eq!(fit(&make(&|p| 1.0 + 0.5 * p * p))[0].model, "quadratic");
        assert_eq!(fit(&make(&|p| 2.0 * (0.3 * p).exp()))[0].model, "exponential");
    }
}
