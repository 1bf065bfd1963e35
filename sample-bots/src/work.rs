//! Work counted as time: a clock that moves with what the searches do, not with the machine.
//!
//! The solver's phases (and the caps of the games it plays) stop by this clock, so that a solve
//! finds the same plans and bounds on any machine, loaded or not, fast or slow. Each kind of
//! work is weighed by what it cost where the weights were measured (see `docs/reference-bot.md`,
//! "The solver counts work"), so one of this clock's seconds is about a second of CPU time
//! there. Work nobody charges (distance tables, a walk's bookkeeping) does not move it.

use std::cell::Cell;
use std::time::Duration;

use crate::cputime::thread_cpu;

/// What a search did, in its own units.
#[derive(Debug, Clone, Copy)]
pub enum Work {
    /// Units of relaxation work (see [`crate::relaxation::Relaxation::work`]).
    Relax(usize),
    /// Units of relaxation work with a memory (see
    /// [`crate::relaxation::Relaxation::remember`]), which cost less each.
    Remembering(usize),
    /// Memories a relaxation step with a memory solved, when it solves only those a walk can
    /// reach, and those it found a walk can reach first (0: found by an earlier step, as the
    /// memory did not change); see [`crate::relaxation::Relaxation::memories_solved`].
    Reached {
        /// Memories solved.
        solved: usize,
        /// Memories found reachable.
        found: usize,
    },
    /// Moves a beam or exact search looked at.
    Moves {
        /// How many.
        moves: usize,
        /// 64-bit words in each state's record of the items taken.
        words: usize,
        /// States the search remembers: a large table costs more per move (cache misses).
        table: usize,
    },
    /// Route stops walked by the reference's route search.
    Stops(usize),
    /// A bundle's quadratic programme: its solver's iterations times the programme's size (see
    /// [`crate::bundle::Bundle::next`]).
    Bundle(usize),
}

/// Picoseconds each unit costs, measured on the machine of the README's tables: a relaxation
/// unit (plain or with a memory), a search's move (plus per word of its state), a route stop.
/// (Fitted to 2,400 stretches of 30 ms of ten solves, 96 s of CPU time in all; a stretch's
/// time is within 0.5 to 2 times what its work predicts; the largest tests' whole solves took
/// 0.9 to 1.2 times, with the machine's speed on the day.)
const RELAX_PS: u64 = 3_000;
const REMEMBERING_PS: u64 = 1_100;
/// A memory solved, and one found reachable, by a step with a memory that solves only those (see
/// [`Work::Reached`]; fitted on 2026-12-06 to 242 such steps of test17, test19, test20 and
/// course_map(11), `tests-bench --relaxation-steps 40 --memory 6 --lap-work 400000000 --trace`:
/// each step's CPU time within 0.84 to 1.12 times what this predicts; where the plain steps
/// took 1.0 to 1.2 times [`RELAX_PS`]'s).
const SOLVED_PS: u64 = 22_000;
const FOUND_PS: u64 = 15_000;
const MOVE_PS: u64 = 70_000;
const MOVE_WORD_PS: u64 = 70_000;
/// A search's moves cost twice as much once it remembers this many states (test17's last exact
/// search: 1.3 to 1.7 times the moves' weight with 2 to 6 million).
const TABLE_STATES: u64 = 1 << 23;
const STOP_PS: u64 = 19_300;
/// A unit of a bundle's programme (see [`Work::Bundle`]; fitted on 2026-12-07 to 291 programmes
/// of test19 and test20, up to 200 walks, 1.4 s of CPU time: 92 ns a unit in all, each
/// programme within 0.63 to 1.5 times).
const BUNDLE_PS: u64 = 92_000;

thread_local! {
    static SPENT_NS: Cell<u64> = const { Cell::new(0) };
    static SLOWER: Cell<f64> = const { Cell::new(1.0) };
}

/// Counts `work` done on this thread.
pub fn charge(work: Work) {
    let ps = match work {
        Work::Relax(units) => (units as u64).saturating_mul(RELAX_PS),
        Work::Remembering(units) => (units as u64).saturating_mul(REMEMBERING_PS),
        Work::Reached { solved, found } => {
            (solved as u64).saturating_mul(SOLVED_PS).saturating_add((found as u64).saturating_mul(FOUND_PS))
        }
        Work::Moves { moves, words, table } => {
            let per_move = MOVE_PS.saturating_add((words as u64).saturating_mul(MOVE_WORD_PS));
            let per_move = per_move.saturating_add(per_move.saturating_mul(table as u64) / TABLE_STATES);
            (moves as u64).saturating_mul(per_move)
        }
        Work::Stops(stops) => (stops as u64).saturating_mul(STOP_PS),
        Work::Bundle(units) => (units as u64).saturating_mul(BUNDLE_PS),
    };
    // (Whole nanoseconds per charge, so that the clock's differences do not depend on what the
    // thread charged before.)
    let ns = ps.div_ceil(1_000);
    SPENT_NS.with(|spent| spent.set(spent.get().saturating_add(ns)));
    let slower = SLOWER.with(Cell::get);
    if slower > 1.0 {
        let (began, extra) = (thread_cpu(), Duration::from_nanos(ns).mul_f64(slower - 1.0));
        while thread_cpu().saturating_sub(began) < extra {
            std::hint::spin_loop();
        }
    }
}

/// Makes this thread's charged work take about `factor` times the CPU time it takes (1: as it
/// is), as on a slower machine: for tests of what depends on the machine's speed.
pub fn slow_down(factor: f64) {
    SLOWER.with(|slower| slower.set(factor.max(1.0)));
}

/// The work this thread has done so far, as the time it took on the machine the weights were
/// measured on: the clock of the solver's phases.
pub fn work_clock() -> Duration {
    Duration::from_nanos(SPENT_NS.with(Cell::get))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock moves by what is charged, whatever the time it takes.
    #[test]
    fn the_clock_moves_with_work_not_time() {
        let before = work_clock();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(work_clock(), before, "waiting is no work");
        charge(Work::Relax(1_000_000));
        charge(Work::Stops(100_000));
        charge(Work::Moves { moves: 1_000, words: 2, table: 0 });
        let after = work_clock();
        assert_eq!(after - before, Duration::from_micros(3_000 + 1_930 + 210), "relaxation, route search, moves");
    }

    /// A thread slowed down takes that much more CPU time for the same work, and its work
    /// clock moves as before.
    #[test]
    fn a_slowed_thread_spends_more_cpu_for_the_same_work() {
        let spend = || {
            let (cpu, work) = (thread_cpu(), work_clock());
            charge(Work::Relax(10_000_000));
            (thread_cpu() - cpu, work_clock() - work)
        };
        let (_, plain_work) = spend();
        slow_down(3.0);
        let (slow_cpu, slow_work) = spend();
        slow_down(1.0);
        assert_eq!(slow_work, plain_work, "the same work on the clock");
        assert!(slow_cpu >= plain_work * 2, "2/3 of the time spun: {slow_cpu:?} for {plain_work:?} of work");
    }
}
