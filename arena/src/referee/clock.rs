//! The clock of one answer: what counts against a bot's time (the CPU time its whole box
//! used, or wall time), when to look at it again, and the wall-clock backstop that ends a
//! bot that blocks or sleeps. Pure logic: the readings come from the caller.

use std::time::Duration;

use crate::engine::ClockKind;

/// What a look at the clock says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Over the limit: the answer timed out.
    Over,
    /// Within it: look again after this long (wall time).
    Again(Duration),
}

/// The limits of one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerClock {
    kind: ClockKind,
    limit: Duration,
    backstop: Duration,
    /// Cores the box may use at once: CPU time can run this much faster than wall time.
    parallel: u32,
}

/// The shortest wait between two looks at the CPU clock.
const MIN_LOOK: Duration = Duration::from_millis(2);

impl AnswerClock {
    /// An answer allowed `limit` on `kind`'s clock and `backstop` of wall time whatever its CPU
    /// time ([`crate::engine::Limits::backstop`]); `parallel` is how many cores the box may use.
    pub fn new(kind: ClockKind, limit: Duration, backstop: Duration, parallel: u32) -> AnswerClock {
        let backstop = match kind {
            ClockKind::Cpu => backstop,
            ClockKind::Wall => limit,
        };
        AnswerClock { kind, limit, backstop, parallel: parallel.max(1) }
    }

    /// The wall time after which the answer is over whatever the CPU says.
    pub fn backstop(&self) -> Duration {
        self.backstop
    }

    /// When to look first, from the prompt.
    pub fn first_look(&self) -> Duration {
        match self.look(Duration::ZERO, Duration::ZERO) {
            Look::Again(after) => after,
            Look::Over => Duration::ZERO,
        }
    }

    /// Whether the answer is over its limit after `elapsed` wall time and `cpu` CPU time.
    pub fn look(&self, elapsed: Duration, cpu: Duration) -> Look {
        if elapsed >= self.backstop {
            return Look::Over;
        }
        match self.kind {
            ClockKind::Wall => Look::Again(self.limit - elapsed),
            ClockKind::Cpu if cpu >= self.limit => Look::Over,
            ClockKind::Cpu => {
                // CPU time cannot run out before this much wall time has passed.
                let soonest = (self.limit - cpu) / self.parallel;
                Look::Again(soonest.max(MIN_LOOK).min(self.backstop - elapsed))
            }
        }
    }

    /// Whether an answer that arrived after `elapsed` and `cpu` is within the limit.
    pub fn accepts(&self, elapsed: Duration, cpu: Duration) -> bool {
        match self.kind {
            ClockKind::Wall => elapsed <= self.limit,
            ClockKind::Cpu => cpu <= self.limit && elapsed <= self.backstop,
        }
    }

    /// What the answer costs against the bot's total time for the game.
    pub fn charged(&self, wall: Duration, cpu: Duration) -> Duration {
        match self.kind {
            ClockKind::Wall => wall,
            ClockKind::Cpu => cpu,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn the_wall_clock_is_the_limit_itself() {
        let c = AnswerClock::new(ClockKind::Wall, MS(1000), MS(5000), 1);
        assert_eq!(c.first_look(), MS(1000));
        assert_eq!(c.look(MS(400), MS(0)), Look::Again(MS(600)));
        assert_eq!(c.look(MS(1000), MS(0)), Look::Over);
        assert!(c.accepts(MS(999), MS(5000)), "CPU does not matter");
        assert!(!c.accepts(MS(1001), MS(0)));
        assert_eq!(c.charged(MS(300), MS(10)), MS(300));
    }

    #[test]
    fn the_cpu_clock_waits_for_a_starved_bot() {
        let c = AnswerClock::new(ClockKind::Cpu, MS(1000), MS(5000), 1);
        assert_eq!(c.first_look(), MS(1000));
        // Half a core for a second: half the CPU time used, so look again in half a second.
        assert_eq!(c.look(MS(1000), MS(500)), Look::Again(MS(500)));
        assert_eq!(c.look(MS(1500), MS(999)), Look::Again(MS(2)), "never a busy loop");
        assert_eq!(c.look(MS(1600), MS(1000)), Look::Over);
        assert!(c.accepts(MS(2400), MS(600)), "a slow machine is not the bot's fault");
        assert_eq!(c.charged(MS(2400), MS(600)), MS(600));
    }

    #[test]
    fn the_backstop_ends_a_bot_that_sleeps() {
        let c = AnswerClock::new(ClockKind::Cpu, MS(1000), MS(5000), 1);
        assert_eq!(c.backstop(), MS(5000));
        assert_eq!(c.look(MS(4000), MS(0)), Look::Again(MS(1000)), "capped by the backstop");
        assert_eq!(c.look(MS(5000), MS(0)), Look::Over);
        assert!(!c.accepts(MS(5001), MS(0)));
    }

    #[test]
    fn a_box_with_several_cores_is_looked_at_sooner() {
        let c = AnswerClock::new(ClockKind::Cpu, MS(1000), MS(5000), 4);
        assert_eq!(c.first_look(), MS(250), "four cores can burn a second in a quarter");
        assert!(!c.accepts(MS(300), MS(1001)), "over in CPU time, whatever the wall says");
    }
}
