//! A proximal bundle method for the relaxation's prices: each walk the relaxation solves for is
//! a cut, a piece of a piecewise-linear model of the bound as a function of the prices, and the
//! next prices are the model's minimum near the best prices so far (a small quadratic programme,
//! solved by the Clarabel interior-point solver).
//!
//! Why: the bound is the maximum over walks of a linear function of the prices. Subgradient
//! steps use only the last walk and zigzag; the bundle remembers the walks it has seen, so that
//! with a memory test20's bound reaches 5,434 in 100 steps, where subgradient steps reach
//! 5,500 (see `docs/reference-bot.md`, stop 74). Clarabel, a pure-Rust interior-point solver
//! that is kept up, solves its programme (a few hundred prices and up to 200 walks) in
//! milliseconds.

use std::collections::VecDeque;

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT};

/// The proximity weight's first value and bounds (prices are scores per item, up to a few
/// hundred; the first steps move each by a few points).
const FIRST_T: f64 = 10.0;
const MIN_T: f64 = 0.001;
const MAX_T: f64 = 10_000.0;
/// After a step that found a better bound, the weight grows (longer steps); after one that did
/// not, it shrinks.
const LONGER: f64 = 1.2;
const SHORTER: f64 = 0.9;

/// One walk: its value without prices, and how many times it takes each priced item (by its
/// index among the priced items), so that at prices `λ` it scores `value - takes · λ`; with
/// what the caller needs to tell whether it is still a walk ([`Bundle::retain`]).
struct Cut<T> {
    value: f64,
    takes: Vec<(usize, f64)>,
    walk: T,
}

impl<T> Cut<T> {
    /// The walk's priced value at `prices` (its value less the prices of what it takes).
    fn walk_at(&self, prices: &[f64]) -> f64 {
        self.value - self.takes.iter().map(|&(k, times)| times * prices[k]).sum::<f64>()
    }
}

/// The cuts kept, and the proximity weight `t` (the model's minimum is penalised by
/// `|λ - centre|² / 2t`).
pub struct Bundle<T> {
    priced: usize,
    cuts: VecDeque<Cut<T>>,
    max_cuts: usize,
    t: f64,
}

/// The next prices, with the model's value there (at most the bound at the centre: what the
/// step expects to gain is the difference), and what the solve cost (see [`Bundle::next`]).
pub struct Proposal {
    /// The prices, per priced item.
    pub prices: Vec<f64>,
    /// The model's value at them.
    pub model: f64,
    /// The solver's iterations times the programme's size.
    pub work: usize,
}

impl<T> Bundle<T> {
    /// A bundle over `priced` prices keeping at most `max_cuts` walks (the oldest go first).
    pub fn new(priced: usize, max_cuts: usize) -> Bundle<T> {
        Bundle { priced, cuts: VecDeque::new(), max_cuts: max_cuts.max(1), t: FIRST_T }
    }

    /// Forgets every walk (the function changed: a walk it held may no longer be one) and
    /// starts again with the weight `t`.
    pub fn clear(&mut self, t: f64) {
        self.cuts.clear();
        self.t = t.clamp(MIN_T, MAX_T);
    }

    /// Forgets every walk but the last (those the model was built of no longer describe the
    /// function near its centre: a memory that grew cut off some of them).
    pub fn keep_last(&mut self) {
        let last = self.cuts.pop_back();
        self.cuts.clear();
        self.cuts.extend(last);
    }

    /// How many walks it holds.
    pub fn len(&self) -> usize {
        self.cuts.len()
    }

    /// Whether it holds no walk.
    pub fn is_empty(&self) -> bool {
        self.cuts.is_empty()
    }

    /// Adds a walk: its value without prices, its takes per priced item, and `walk`, what
    /// [`Bundle::retain`] is asked about it.
    pub fn add(&mut self, value: f64, takes: Vec<(usize, f64)>, walk: T) {
        if self.cuts.len() == self.max_cuts {
            self.cuts.pop_front();
        }
        self.cuts.push_back(Cut { value, takes, walk });
    }

    /// Keeps only the walks for which `keep` holds (the function changed: those that are no
    /// longer walks would hold the model above it).
    pub fn retain(&mut self, keep: impl Fn(&T) -> bool) {
        self.cuts.retain(|cut| keep(&cut.walk));
    }

    /// The walks kept, oldest first, each with its cut's value at `prices`: for tests, which
    /// check the cuts the relaxation adds and the walks it keeps.
    #[cfg(test)]
    pub(crate) fn cuts_at<'a>(&'a self, prices: &'a [f64]) -> impl Iterator<Item = (f64, &'a T)> + 'a {
        let all: f64 = prices.iter().sum();
        self.cuts.iter().map(move |cut| (all + cut.walk_at(prices), &cut.walk))
    }

    /// Longer steps after one that found a better bound, shorter after one that did not.
    pub fn found_better(&mut self, better: bool) {
        self.t = (self.t * if better { LONGER } else { SHORTER }).clamp(MIN_T, MAX_T);
    }

    /// The prices that minimise the model (every price plus the best walk's value at them)
    /// plus `|λ - centre|² / 2t`, prices at least 0: `None` when it holds no walk or the
    /// solver fails. The work is the solver's iterations times the programme's size.
    pub fn next(&self, centre: &[f64]) -> Option<Proposal> {
        let n = self.priced;
        if self.cuts.is_empty() || centre.len() != n {
            return None;
        }
        let m = self.cuts.len();
        // Variables: the n prices, then μ (the best walk's priced value). Minimise
        // Σλ + μ + |λ - centre|² / 2t, such that μ >= value_w - takes_w · λ for each walk w
        // (rows 0..m) and λ >= 0 (rows m..m + n), as `A x + s = b, s >= 0`.
        let p = CscMatrix::new(n + 1, n + 1, (0..=n).chain([n]).collect(), (0..n).collect(), vec![1.0 / self.t; n]);
        let mut q: Vec<f64> = centre.iter().map(|c| 1.0 - c / self.t).collect();
        q.push(1.0);
        let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n + 1];
        for (row, cut) in self.cuts.iter().enumerate() {
            for &(k, times) in &cut.takes {
                columns[k].push((row, -times));
            }
            columns[n].push((row, -1.0));
        }
        for (k, column) in columns.iter_mut().enumerate().take(n) {
            column.push((m + k, -1.0));
        }
        let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
        for column in &columns {
            for &(row, v) in column {
                rowval.push(row);
                nzval.push(v);
            }
            colptr.push(rowval.len());
        }
        let nonzeros = rowval.len();
        let a = CscMatrix::new(m + n, n + 1, colptr, rowval, nzval);
        let mut b: Vec<f64> = self.cuts.iter().map(|cut| -cut.value).collect();
        b.resize(m + n, 0.0);
        let cones = [SupportedConeT::NonnegativeConeT(m + n)];
        // (One thread, the same factorisation and no clock: the same prices on any machine,
        // whatever features of the crate another dependency turns on.)
        let settings = DefaultSettings {
            verbose: false,
            max_threads: 1,
            direct_solve_method: "qdldl".into(),
            time_limit: f64::INFINITY,
            ..DefaultSettings::default()
        };
        let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings).ok()?;
        solver.solve();
        let work = (solver.info.iterations as usize).saturating_mul(nonzeros + 2 * (m + n));
        if !matches!(solver.solution.status, SolverStatus::Solved | SolverStatus::AlmostSolved) {
            return None;
        }
        let x = &solver.solution.x;
        if x.len() != n + 1 || x.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let prices: Vec<f64> = x[..n].iter().map(|&l| l.max(0.0)).collect();
        // The model's value at the (clamped) prices, from the cuts themselves.
        let best_walk = self.cuts.iter().map(|cut| cut.walk_at(&prices)).fold(f64::NEG_INFINITY, f64::max);
        Some(Proposal { model: prices.iter().sum::<f64>() + best_walk, prices, work })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound as a function of the prices: Σλ + max over walks of (value - takes · λ).
    fn bound(walks: &[(f64, Vec<(usize, f64)>)], prices: &[f64]) -> f64 {
        let best = walks
            .iter()
            .map(|(v, takes)| v - takes.iter().map(|&(k, t)| t * prices[k]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        prices.iter().sum::<f64>() + best
    }

    /// Three items and four walks: the bundle reaches the best prices (the minimum of the bound,
    /// found by enumeration on a grid) from prices 0, each step's best walk added as a cut, as
    /// the relaxation does. Control: its first step, from one walk, is not there yet.
    #[test]
    fn the_bundle_finds_the_best_prices_of_a_small_programme() {
        // Walks: take item 0 twice (20), items 0 and 1 (18), item 2 three times (27), items
        // 1 and 2 (16).
        let walks: Vec<(f64, Vec<(usize, f64)>)> = vec![
            (20.0, vec![(0, 2.0)]),
            (18.0, vec![(0, 1.0), (1, 1.0)]),
            (27.0, vec![(2, 3.0)]),
            (16.0, vec![(1, 1.0), (2, 1.0)]),
        ];
        // The optimum over a grid of prices in sixths (the function is convex and piecewise
        // linear; its minimum, 65/3, the best mixture of walks 1 to 3 in thirds, is at prices
        // in thirds).
        let mut optimum = f64::INFINITY;
        for a in 0..=60 {
            for b in 0..=60 {
                for c in 0..=60 {
                    optimum = optimum.min(bound(&walks, &[a as f64 / 6.0, b as f64 / 6.0, c as f64 / 6.0]));
                }
            }
        }
        assert!((optimum - 65.0 / 3.0).abs() < 1e-9, "the grid finds the optimum: {optimum}");
        let best_walk = |prices: &[f64]| {
            walks
                .iter()
                .max_by(|x, y| bound(&[(*x).clone()], prices).total_cmp(&bound(&[(*y).clone()], prices)))
                .cloned()
                .expect("walks")
        };
        let mut bundle = Bundle::new(3, 10);
        let (mut centre, mut best) = (vec![0.0; 3], f64::INFINITY);
        let mut prices = centre.clone();
        let mut first = None;
        for step in 0..30 {
            let at = bound(&walks, &prices);
            let better = at < best - 1e-9;
            if better {
                best = at;
                centre.clone_from(&prices);
            }
            bundle.found_better(better);
            let (v, takes) = best_walk(&prices);
            bundle.add(v, takes, ());
            let proposal = bundle.next(&centre).expect("a proposal");
            assert!(proposal.model <= best + 1e-6, "the model is below the function at its centre");
            if step == 0 {
                first = Some(bound(&walks, &proposal.prices));
            }
            prices = proposal.prices;
        }
        assert!((best - optimum).abs() < 1e-3, "reached {best}, the optimum is {optimum}");
        assert!(first.is_some_and(|f| f > optimum + 1.0), "one step from one walk is not there yet: {first:?}");
    }
}
