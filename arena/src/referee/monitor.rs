//! A match's monitor: while bots think, it looks at every box now and then. A bot that is not
//! being asked but burns more CPU than one answer may use (children busy in the background,
//! starving the opponent) is ended with `timeout`, and a box over its memory limit with
//! `memory`, at once rather than at its next answer. It also notices when thinking bots wait
//! for a CPU a quarter of the time or more (beyond sharing the CPU their match is kept on): a
//! machine busy with something else, or `-j` set too high.
//!
//! Each look runs on a thread of the runtime's blocking pool, not on the match's own thread: how
//! long a look takes is partly the bot's to decide (the lines of its processes' maps, the watches
//! of its epolls), and while a look ran on the match's thread nothing else of the match did. A
//! red team's bot, having answered, held address space enough for the look to read its maps,
//! whose every line named a file 50 KiB deep: the look took 16 to 20 s, and its opponent, thinking
//! meanwhile, had its answer read only after it and forfeited on time (its wall-clock backstop),
//! in leagues too.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::process::Watch;
use crate::engine::{ClockKind, Failure, Limits};

/// How often the monitor looks.
pub(super) const PERIOD: Duration = Duration::from_millis(25);

/// Watches `bots` until dropped (run it as a task; abort it when the match ends).
pub(super) async fn watch(bots: Vec<Arc<Watch>>, limits: Limits) {
    let mut tick = tokio::time::interval(PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    let mut waits: Vec<Option<(Instant, u64)>> = vec![None; bots.len()];
    let mut starved = 0u32;
    // A match kept on one CPU (see `cpus`) shares it between its thinking bots: that much
    // waiting is its own doing, not the machine's.
    let pinned = super::cpus::of_this_thread().is_some_and(|set| super::cpus::count(&set) == 1);
    let inline = crate::sandbox::looks_off();
    loop {
        tick.tick().await;
        let thinking = bots.iter().filter(|b| b.asked.load(Ordering::Relaxed)).count().max(1) as u64;
        let sharing = if pinned { thinking } else { 1 };
        for (bot, wait) in bots.iter().zip(waits.iter_mut()) {
            let asked = bot.asked.load(Ordering::Relaxed);
            // (Memory and CPU from one look: without a cgroup, one walk of the box's processes.)
            let (over, since_answer) = if inline {
                bot.look(!asked)
            } else {
                // (tokio panics where it can start no thread for its pool and has none: the
                // machine's processes used up. The look is then made here, as before.)
                let started = std::panic::catch_unwind(|| {
                    let bot = bot.clone();
                    tokio::task::spawn_blocking(move || bot.look(!asked))
                });
                let looked = match started {
                    Ok(looking) => looking.await,
                    Err(_) => Ok(bot.look(!asked)),
                };
                // (A look that panicked is no verdict: the next one looks again.)
                let Ok((over, since_answer)) = looked else { continue };
                // The match went on meanwhile: a bot asked since is thinking, not busy in the
                // background, and its CPU is its answer's clock's to judge.
                (over, since_answer.filter(|_| !bot.asked.load(Ordering::Relaxed)))
            };
            if over {
                bot.condemn(Failure::Memory);
                continue;
            }
            // On either clock: on the wall clock, CPU burnt in the background is the opponent's
            // thinking time.
            if let Some(used) = since_answer {
                let limit = if bot.answered.load(Ordering::Relaxed) { limits.per_move } else { limits.startup };
                if used > limit {
                    tracing::debug!("a bot used more than an answer's CPU while not asked");
                    bot.condemn(Failure::Timeout);
                    continue;
                }
            }
            // Time spent runnable but waiting for a CPU, while thinking.
            let now = asked.then(|| bot.main_pid().and_then(run_delay)).flatten().map(|d| (Instant::now(), d));
            if let (Some((t0, d0)), Some((t1, d1))) = (*wait, now) {
                let span = t1.duration_since(t0).as_nanos() as u64;
                // Waiting more than a quarter of the time its share of the CPU allows: with
                // `sharing` bots on one CPU, running less than 3/4 of 1/sharing of the time.
                let ran = span.saturating_sub(d1.saturating_sub(d0));
                if span > 0 && ran * 4 * sharing < span * 3 {
                    starved += 1;
                }
            }
            *wait = now;
        }
        if starved >= 8 {
            warn_overloaded(limits.clock);
        }
    }
}

/// Nanoseconds the process has waited for a CPU while runnable (`/proc/<pid>/schedstat`).
fn run_delay(pid: i32) -> Option<u64> {
    crate::sandbox::schedstat(&format!("/proc/{pid}/schedstat")).map(|(_, waited)| waited)
}

/// The clock the command's verdicts count, where it set one ([`judge_by`]): 0 none, 1 CPU
/// time, 2 time on the clock.
static JUDGED_BY: AtomicU8 = AtomicU8::new(0);

/// Says that the command judges by `clock`, whatever the clock of a match it plays only to
/// diagnose (check-bot's probes run on the wall clock): the overload warning then speaks of the
/// verdicts' clock (a probe's suggested `--clock cpu` to a user already on it).
pub fn judge_by(clock: ClockKind) {
    JUDGED_BY.store(if clock == ClockKind::Cpu { 1 } else { 2 }, Ordering::Relaxed);
}

/// The clock the command judges by, if it said ([`judge_by`]).
fn judged_by() -> Option<ClockKind> {
    match JUDGED_BY.load(Ordering::Relaxed) {
        1 => Some(ClockKind::Cpu),
        2 => Some(ClockKind::Wall),
        _ => None,
    }
}

/// Whether the machine was found overloaded in this run (and said so, [`warn_overloaded`]).
static WARNED: AtomicBool = AtomicBool::new(false);

/// Whether the machine was found overloaded in this run: bots waited for a CPU a quarter of the
/// time or more (what a bot ended on the clock with little CPU time may owe its end to).
pub fn overload_seen() -> bool {
    WARNED.load(Ordering::Relaxed)
}

/// Says once per run that bots wait for a CPU, as a notice to the user ([`super::NOTICE`]), on
/// the clock the command judges by, else that of the match (`clock`).
pub fn warn_overloaded(clock: ClockKind) {
    if !WARNED.swap(true, Ordering::Relaxed) {
        tracing::warn!(target: super::NOTICE, "{}", overloaded_for(clock, judged_by()));
    }
}

/// The overload warning for a match on `clock` of a command that judges by `judged`, if it said.
fn overloaded_for(clock: ClockKind, judged: Option<ClockKind>) -> &'static str {
    overloaded(judged.unwrap_or(clock))
}

/// The warning of an overloaded machine, fitted to the `clock` the time limits count.
fn overloaded(clock: ClockKind) -> &'static str {
    match clock {
        ClockKind::Cpu => {
            "warning: the machine is overloaded: the bots waited for a CPU a quarter of the time or more (another \
             program's load, or -j above the number of cores). The time limits count CPU time, so the results stay \
             fair, but the matches take longer."
        }
        ClockKind::Wall => {
            "warning: the machine is overloaded: the bots waited for a CPU a quarter of the time or more (another \
             program's load, or -j above the number of cores). The time limits count time on the clock, so a bot \
             may have run out of time for the machine's load, not its own: the results may be unfair. Run it again \
             on a quieter machine, or with `--clock cpu` where the command has it."
        }
    }
}

#[cfg(test)]
mod overload_tests {
    use super::*;

    /// The warning fits the clock: on the CPU clock the results stay fair; on the wall clock they
    /// may not, with what to do (the warning of both clocks said the same, and under `arena
    /// test`, on the wall clock, that results "stay fair" with --clock cpu). The control: each
    /// says nothing of the other's verdict.
    #[test]
    fn the_overload_warning_fits_the_clock() {
        let (cpu, wall) = (overloaded(ClockKind::Cpu), overloaded(ClockKind::Wall));
        assert!(cpu.starts_with("warning: the machine is overloaded") && cpu.contains("results stay fair"), "{cpu}");
        assert!(!cpu.contains("unfair"), "{cpu}");
        assert!(wall.contains("the results may be unfair") && wall.contains("a quieter machine"), "{wall}");
        assert!(wall.contains("`--clock cpu`") && !wall.contains("stay fair"), "{wall}");
    }

    /// A probe on the wall clock of a command that judges by CPU time (check-bot's) warns on the
    /// CPU clock: it suggested `--clock cpu` to a user already on it. The control: a match of a
    /// command that said no clock warns on its own.
    #[test]
    fn the_overload_warning_speaks_of_the_command_s_clock() {
        let probe = overloaded_for(ClockKind::Wall, Some(ClockKind::Cpu));
        assert_eq!(probe, overloaded(ClockKind::Cpu));
        assert!(!probe.contains("--clock cpu"), "{probe}");
        let own = overloaded_for(ClockKind::Wall, None);
        assert!(own.contains("`--clock cpu`"), "{own}");
        assert_eq!(overloaded_for(ClockKind::Cpu, Some(ClockKind::Wall)), overloaded(ClockKind::Wall));
    }
}
