//! Time and size limits for bots: what the referee enforces, what a replay records, and the
//! one place where chosen limits meet the defaults (the rulings': 2 s for a first answer, 1 s
//! for any later one, 5 s in total per game, lines of at most 4 KiB).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What a bot's time limits count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// CPU time of the bot's whole box (children included), with a wall-clock backstop: a
    /// result does not depend on how busy the machine is.
    #[default]
    Cpu,
    /// Wall time from the prompt to the answer, as the course's own checker measures.
    Wall,
}

impl ClockKind {
    /// The clock of replays recorded before the clock was a setting.
    pub fn legacy() -> ClockKind {
        ClockKind::Wall
    }
}

/// A clock name that is neither `cpu` nor `wall`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("expected cpu or wall, found `{0}`")]
pub struct UnknownClock(pub String);

impl std::str::FromStr for ClockKind {
    type Err = UnknownClock;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "cpu" => Ok(ClockKind::Cpu),
            "wall" => Ok(ClockKind::Wall),
            _ => Err(UnknownClock(s.to_string())),
        }
    }
}

impl std::fmt::Display for ClockKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ClockKind::Cpu => "cpu",
            ClockKind::Wall => "wall",
        })
    }
}

/// Time and size limits for bots (defaults from the rulings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Time for a bot's first answer (includes start-up).
    #[serde(with = "millis")]
    pub startup: Duration,
    /// Time for each later answer.
    #[serde(with = "millis")]
    pub per_move: Duration,
    /// Total answer time for one bot over a whole game.
    #[serde(with = "millis")]
    pub total: Duration,
    /// How long a bot that is done may take to exit before it is ended.
    #[serde(with = "millis")]
    pub grace: Duration,
    /// Longest accepted answer line, in bytes.
    pub max_line: usize,
    /// How much of a bot's stderr is kept, in bytes.
    pub stderr_cap: usize,
    /// What the time limits count: the CPU time of the bot's box, or wall time.
    #[serde(default = "ClockKind::legacy")]
    pub clock: ClockKind,
    /// With the CPU clock, an answer also ends after this many times its limit in wall time
    /// (a bot that sleeps or blocks).
    #[serde(default = "default_backstop")]
    pub backstop_factor: u32,
    /// Bytes per second of a bot's stderr read, from its first byte (0: as fast as it
    /// writes). The arena reads the pipe in its own process, off the box's clock and CPU quota:
    /// read as fast as a bot's many children could write, that cost the arena a whole CPU
    /// (1.5 to 2 s in a 2 s duel) and the opponent its time on the wall clock; a bot that
    /// writes faster waits for its own pipe. Each read counts as a full one (64 KiB), however
    /// few bytes it brings: at most `rate / 64 KiB` reads a second, whatever size the bot writes
    /// in. (Left out of the text when it is the default, so that tournament match keys stay as
    /// they were.)
    #[serde(default = "default_stderr_rate", skip_serializing_if = "is_default_stderr_rate")]
    pub stderr_rate: u64,
}

fn default_backstop() -> u32 {
    5
}

/// 4 MiB/s: more than any debugging print (a map per tick is about 1 KB).
fn default_stderr_rate() -> u64 {
    4 << 20
}

fn is_default_stderr_rate(rate: &u64) -> bool {
    *rate == default_stderr_rate()
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            startup: Duration::from_secs(2),
            per_move: Duration::from_secs(1),
            total: Duration::from_secs(5),
            grace: Duration::from_millis(200),
            max_line: 4096,
            stderr_cap: 64 * 1024,
            clock: ClockKind::Cpu,
            backstop_factor: default_backstop(),
            stderr_rate: default_stderr_rate(),
        }
    }
}

impl Limits {
    /// The wall time an answer with `limit` may take whatever its CPU time, when the bot's
    /// answers so far took `wall_used`: the limit itself on the wall clock; on the CPU clock
    /// `backstop_factor` times the limit, and no more than what is left of `backstop_factor`
    /// times the game's total (a bot that sleeps just under every answer's backstop cannot
    /// stretch a game to minutes).
    pub fn backstop(&self, limit: Duration, wall_used: Duration) -> Duration {
        let factor = self.backstop_factor.max(1);
        match self.clock {
            ClockKind::Wall => limit,
            ClockKind::Cpu => {
                limit.saturating_mul(factor).min(self.total.saturating_mul(factor).saturating_sub(wall_used))
            }
        }
    }
}

/// Limits as chosen on a command line or in a config file, in milliseconds: each one left
/// out keeps its default. [`LimitChoices::limits`] is where choices meet the defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitChoices {
    /// First answer.
    pub startup_ms: Option<u64>,
    /// Each later answer.
    pub move_ms: Option<u64>,
    /// Answer time per game.
    pub total_ms: Option<u64>,
    /// Exit grace for a finished bot.
    pub grace_ms: Option<u64>,
    /// Longest accepted answer line, in bytes.
    pub max_line: Option<usize>,
    /// What time limits count: `cpu` (default) or `wall`.
    pub clock: Option<ClockKind>,
    /// With the CPU clock, an answer also ends after this many times its limit in wall time.
    pub backstop_factor: Option<u32>,
    /// Bytes per second of a bot's stderr read once its log is full (0: as fast as it writes).
    pub stderr_rate: Option<u64>,
}

impl LimitChoices {
    /// The limits: these choices over `base` (the rulings' [`Limits::default`], or a mode's
    /// own, such as the course checker's 5 s per answer).
    pub fn over(&self, base: Limits) -> Limits {
        let ms = |v: Option<u64>, default: Duration| v.map_or(default, Duration::from_millis);
        Limits {
            startup: ms(self.startup_ms, base.startup),
            per_move: ms(self.move_ms, base.per_move),
            total: ms(self.total_ms, base.total),
            grace: ms(self.grace_ms, base.grace),
            max_line: self.max_line.unwrap_or(base.max_line),
            stderr_cap: base.stderr_cap,
            clock: self.clock.unwrap_or(base.clock),
            backstop_factor: self.backstop_factor.unwrap_or(base.backstop_factor),
            stderr_rate: self.stderr_rate.unwrap_or(base.stderr_rate),
        }
    }

    /// The limits: these choices over the defaults.
    pub fn limits(&self) -> Limits {
        self.over(Limits::default())
    }
}

mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_millis() as u64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_answers_share_one_wall_backstop() {
        let ms = Duration::from_millis;
        let l = Limits { total: ms(300), ..Limits::default() };
        assert_eq!(l.backstop(ms(200), ms(0)), ms(1000), "five times the answer's limit");
        assert_eq!(l.backstop(ms(200), ms(1200)), ms(300), "what is left of five times the total");
        assert_eq!(l.backstop(ms(200), ms(2000)), ms(0));
        let wall = Limits { clock: ClockKind::Wall, ..l };
        assert_eq!(wall.backstop(ms(200), ms(2000)), ms(200), "the wall clock is the limit itself");
    }

    #[test]
    fn choices_override_only_what_they_name() {
        assert_eq!(LimitChoices::default().limits(), Limits::default());
        let chosen = LimitChoices { move_ms: Some(300), clock: Some(ClockKind::Wall), ..Default::default() };
        let limits = chosen.limits();
        assert_eq!((limits.per_move, limits.clock), (Duration::from_millis(300), ClockKind::Wall));
        assert_eq!((limits.startup, limits.total), (Limits::default().startup, Limits::default().total));
        let base = Limits { per_move: Duration::from_secs(5), ..Limits::default() };
        assert_eq!(LimitChoices::default().over(base).per_move, Duration::from_secs(5), "a mode's own base");
    }

    #[test]
    fn limits_serialise_as_before() {
        // Tournament match keys hash this text: it must not change.
        let text = serde_json::to_string(&Limits::default()).unwrap();
        assert_eq!(
            text,
            r#"{"startup":2000,"per_move":1000,"total":5000,"grace":200,"max_line":4096,"stderr_cap":65536,"clock":"cpu","backstop_factor":5}"#
        );
        // Only a rate other than the default is written, and read back.
        let unthrottled = Limits { stderr_rate: 0, ..Limits::default() };
        let text = serde_json::to_string(&unthrottled).unwrap();
        assert!(text.ends_with(r#""backstop_factor":5,"stderr_rate":0}"#), "{text}");
        assert_eq!(serde_json::from_str::<Limits>(&text).unwrap(), unthrottled);
        assert_eq!("wall".parse::<ClockKind>(), Ok(ClockKind::Wall));
        assert_eq!("sundial".parse::<ClockKind>().unwrap_err().to_string(), "expected cpu or wall, found `sundial`");
    }
}
