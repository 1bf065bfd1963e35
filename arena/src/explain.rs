//! Why a bot forfeited, as facts taken from its replay (at which tick, how long its answer
//! took against which limit) and in words a student understands ("at tick 37 your bot took
//! more than 1000 ms to answer"). Tournaments record the facts with each result, so pages
//! can explain every forfeit without reading the replays again.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{Answer, Ending, Failure, ForfeitReason, Game, PlayerId, Wording};
use crate::referee::{ClockKind, PlayedMatch};
use crate::replay::{answer_times, LimitKind, Replay};

/// What a replay says about one player's forfeit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitFact {
    /// The player (0-based, in seat order).
    pub player: PlayerId,
    /// The forfeit reason (`timeout`, `malformed`, `fire`, …).
    pub reason: String,
    /// The tick (1-based step) of its last answer, where the forfeit happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tick: Option<usize>,
    /// Wall time of that answer, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// CPU time of the bot's box for that answer, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
    /// The time limit of that answer, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_ms: Option<u64>,
    /// Which limit it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<LimitKind>,
    /// What the limit counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockKind>,
    /// The wall time after which an answer ended whatever its CPU time, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backstop_ms: Option<u64>,
    /// How much more that backstop may be than the referee's, summed from the earlier
    /// answers' rounded times ([`crate::replay::AnswerTime::backstop_slack`]), in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backstop_slack_ms: Option<u64>,
    /// For a crash: how the bot's process ended (a signal, an exit status), when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ending>,
}

/// What a bot that gave no answer in time was doing, told by the CPU time its box used in the
/// wall time the answer took: what `arena duel`'s "Why:", `arena test` and `arena check-bot`
/// all say of a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// Computing for a good part of the time: a loop that does not end, a search too slow.
    Computing,
    /// Next to no CPU time: waiting for input, or with its answer left in its output buffer.
    Idle,
}

impl Activity {
    /// `cpu_ms` of CPU time in `ms` on the clock: computing for a good part of it (a quarter,
    /// as a busy machine shares its CPUs, or 200 ms however loaded it is), or idle (a bot
    /// waiting for input, or whose answer waits in a buffer, uses next to none).
    pub fn of(cpu_ms: u64, ms: u64) -> Activity {
        if cpu_ms > 0 && (cpu_ms * 4 >= ms || cpu_ms >= 200) {
            Activity::Computing
        } else {
            Activity::Idle
        }
    }
}

/// Why a bot that never answered its first prompt was silent, when a probe found out (see
/// [`crate::doctor::why_silent`]): what `arena test` and `arena check-bot` then say of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// Sent many prompts at once, its input left open, it answered in a burst: its answers
    /// wait in its output buffer.
    Buffered,
    /// It answered only once its input ended: it reads to the end of its input first.
    EndOfInput,
    /// Sent many prompts at once, its input left open, it wrote one line longer than any
    /// answer: its answers end in no newline, so none of them ever ends a line.
    NoNewline,
    /// Not known (not probed, or neither).
    Unknown,
}

/// How to flush stdout, in the languages students use.
pub const FLUSH: &str = "flush stdout after every answer: C `fflush(stdout);` after `printf`, \
                         C++ `std::cout << answer << std::endl;` (`endl` flushes), Python \
                         `print(answer, flush=True)`, Java `System.out.flush()`. The starter kits (`arena new-bot`) \
                         do it for you.";

/// How to end each answer with a newline, in the languages students use.
pub const NEWLINE: &str = "end every answer with a newline: C `printf(\"%s\\n\", answer);`, C++ `std::cout << answer \
                           << std::endl;`, Python `print(answer, flush=True)` (not `sys.stdout.write(answer)`), and \
                           flush stdout after each";

/// What to do about a bot silent while computing, in the game's `words`, answering within
/// `limit_ms`: "find the loop that does not end on this tick's state (… paste the header and
/// TICK lines …) … answer before 1000 ms".
pub fn loop_fix(words: &Wording, limit_ms: u64) -> String {
    format!(
        "find the loop that does not end on this {}'s state (run the bot by hand and paste {}, or print progress \
         to stderr); to stop a search in time, read a clock between its steps (`time.monotonic()`, \
         `std::chrono::steady_clock`, `clock_gettime`, `std::time::Instant`) and answer before {limit_ms} ms",
        words.step, words.input
    )
}

/// How [`stderr_cut`] begins.
pub const STDERR_CUT: &str = "your bot wrote more to stderr than the arena keeps";

/// What a bot whose stderr passed the cap of `limits` was told: how much was cut, and that
/// writing it cost it time (the arena reads a bot's stderr at a bounded rate, and a bot whose
/// output waits to be read waits too).
pub fn stderr_cut(dropped: usize, limits: &crate::engine::Limits) -> String {
    let mb = |bytes: f64| bytes / f64::from(1 << 20);
    format!(
        "{STDERR_CUT}: the first {} KiB were kept, {:.1} MiB more dropped. Writing that much costs it time on every \
         answer: the arena reads a bot's stderr at {:.0} MiB a second at most, and a bot waits while it writes",
        limits.stderr_cap / 1024,
        mb(dropped as f64),
        mb(limits.stderr_rate as f64)
    )
}

/// What to do about a bot that writes too much to stderr.
pub const STDERR_FIX: &str = "write less to stderr: a line or two per answer, and the rest only when a debug flag \
                              of yours is set (an environment variable you set when you run it by hand)";

/// A flood of stderr that most likely made a bot late: the arena reads a bot's stderr at a
/// bounded rate, so a bot that writes far more waits on its own writes, idle, until it runs out
/// of time (it was asked whether it flushed stdout, or told to think less).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flood {
    /// Bytes it wrote to stderr, kept and dropped.
    pub written: u64,
    /// The least wall time writing them took at the arena's rate, in milliseconds.
    pub wait_ms: u64,
    /// The wall time the bot spent on its full stderr pipe as the arena's reader measured it,
    /// in milliseconds: more than `wait_ms` on a loaded machine, whose reader is slower.
    pub blocked_ms: u64,
    /// The wall time all of its answers took, in milliseconds.
    pub answering_ms: u64,
    /// The rate the arena read them at, in bytes a second.
    pub rate: u64,
}

impl Flood {
    /// How long writing it kept the bot waiting, in milliseconds: the longer of the least at
    /// the rate and the time measured, no longer than its answers took.
    pub fn waited_ms(&self) -> u64 {
        self.wait_ms.max(self.blocked_ms).min(self.answering_ms)
    }

    /// The cause in words: how much it wrote, at what rate it was read, and how long that kept
    /// it waiting of the time its answers took.
    pub fn cause(&self) -> String {
        let mb = |bytes: u64| bytes as f64 / f64::from(1 << 20);
        format!(
            "it wrote {:.1} MiB to stderr, which the arena reads at {:.0} MiB a second at most, so writing it kept it \
             waiting {} ms of the {} ms its answers took: that flood, not its thinking, most likely made it late",
            mb(self.written),
            mb(self.rate),
            self.waited_ms(),
            self.answering_ms
        )
    }
}

/// What made a bot late, as two timeouts are told the same or apart (check-bot says the same
/// timeout once, as it does the same crash): its flood of stderr, or the limit it broke and what
/// it was doing then. A bot waiting for input it never gets and one looping are two timeouts,
/// though both broke the same limit with the same advice (a game's budget, its first answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lateness {
    /// Its flood of stderr most likely made it late ([`Flood`]), whatever the limit.
    Flood,
    /// The limit it broke, and what it was doing ([`ForfeitFact::activity`]: None when its
    /// CPU time was not measured).
    Limit(Option<LimitKind>, Option<Activity>),
}

/// What to do about a first answer too slow while computing (in any game).
pub const STARTUP_FIX: &str = "do less before the first answer: load or precompute lazily, or spread the work over \
                               the first answers (and build compiled bots with optimisations, such as -O2)";

/// The facts of every forfeit in `replay`, in player order.
pub fn forfeit_facts(replay: &Replay) -> Vec<ForfeitFact> {
    let times = answer_times(replay);
    replay
        .result
        .players
        .iter()
        .enumerate()
        .filter_map(|(p, r)| {
            let reason = r.forfeit.clone()?;
            // A player is not asked again after it forfeits: its last answer is where.
            let last = times.iter().rev().find(|t| t.player == p);
            let reply = last.and_then(|t| replay.reply(t.step, p));
            Some(ForfeitFact {
                player: p,
                reason,
                tick: last.map(|t| t.step),
                ms: reply.map(|r| r.ms),
                cpu_ms: reply.and_then(|r| r.cpu_ms),
                limit_ms: last.map(|t| t.limit.as_millis() as u64),
                limit: last.map(|t| t.kind),
                clock: Some(replay.limits.clock),
                backstop_ms: last.map(|t| t.backstop.as_millis() as u64),
                backstop_slack_ms: last.map(|t| t.backstop_slack.as_millis() as u64),
                ended: reply.and_then(|r| r.failure).and_then(Failure::ending),
            })
        })
        .collect()
}

impl ForfeitFact {
    /// Whether a timeout under the CPU clock was the wall-clock backstop's, not the CPU time's:
    /// its CPU time short of the limit, its time on the clock at the backstop within the slack
    /// `arena verify` allows (a game's last answers' backstop is what is left of its wall-clock
    /// cap, summed from rounded times: it was missed by a few ms, and the sentence then said the
    /// bot "took more than 1000 ms of CPU time" having used 2).
    pub(crate) fn backstopped(&self) -> bool {
        let (ms, limit) = (self.ms.unwrap_or(0), self.limit_ms.unwrap_or(0));
        let slack = crate::replay::TIME_SLACK.as_millis() as u64 + self.backstop_slack_ms.unwrap_or(0);
        self.clock == Some(ClockKind::Cpu)
            && self.counted_cpu_ms() < limit
            && ms + slack >= self.backstop_ms.unwrap_or(limit)
    }

    /// The line the player last answered, where it forfeited, as `replay` recorded it.
    pub fn answer<'a>(&self, replay: &'a Replay) -> Option<&'a str> {
        replay.reply(self.tick?, self.player)?.answer.as_deref()
    }

    /// The line the player printed that no prompt asked for, where it forfeited so
    /// (`extra_output`), as `replay` kept it (a line of text; not kept otherwise).
    pub fn unasked<'a>(&self, replay: &'a Replay) -> Option<&'a str> {
        if self.reason != "extra_output" {
            return None;
        }
        let mine = |s: &'a crate::replay::Step| s.replies.iter().find(|r| r.player == self.player);
        replay.steps.iter().rev().find_map(|s| mine(s)?.unasked.as_deref())
    }

    /// What to change: the line of a `malformed` or `invalid_move` forfeit, as the replay's `game`
    /// advises (the latter knowing the state the player answered); for a
    /// timeout, by what the bot was doing (flush, or end the loop), when its CPU time was measured.
    pub fn fix(&self, replay: &Replay, game: &dyn Game) -> Option<String> {
        self.fix_seated(replay, game, self.player)
    }

    /// The same, for a player whose seat in the game's frames is `seat` (check-bot's bot plays
    /// one seat of a match whose other seats are scripted, and its replay has it alone).
    pub fn fix_seated(&self, replay: &Replay, game: &dyn Game, seat: PlayerId) -> Option<String> {
        if self.reason == "timeout" {
            return self.timeout_fix(&game.info().wording);
        }
        if self.reason == ForfeitReason::InvalidMove.as_str() {
            // The state the player answered: the frame of the step before its answer.
            // (A game's frames may record only what changed: the whole state is built from them.)
            let before = replay.steps.get(..self.tick?.saturating_sub(1))?;
            let frames: Vec<&serde_json::Value> =
                std::iter::once(&replay.initial).chain(before.iter().map(|s| &s.frame)).collect();
            let frame = game.whole_frame(&frames)?;
            return game.invalid_move_fix(&frame, seat, self.answer(replay)?);
        }
        if self.reason != ForfeitReason::Malformed.as_str() {
            return None;
        }
        let reply = replay.reply(self.tick?, self.player)?;
        if reply.failure == Some(Failure::TooLong) {
            // (The recorded detail names no limit: it re-simulates from the failure alone.)
            return Some(format!(
                "an answer is one line of at most {} bytes (this match's limit): print only the answer on stdout, \
                 anything else on stderr",
                replay.limits.max_line
            ));
        }
        game.malformed_fix(reply.answer.as_deref()?)
    }

    /// What to change after a timeout, by the limit and what the bot was doing, in the game's `words`.
    fn timeout_fix(&self, words: &Wording) -> Option<String> {
        let limit = self.limit_ms.unwrap_or(0);
        Some(match (self.activity()?, self.limit) {
            (Activity::Idle, _) => format!(
                "{FLUSH} A bot waiting for more input: answer each prompt as soon as it arrives, without reading \
                 ahead."
            ),
            (Activity::Computing, Some(LimitKind::Total)) => {
                "think less per answer: the whole game's answers must fit in its total answer time".to_string()
            }
            (Activity::Computing, Some(LimitKind::FirstAnswer)) => STARTUP_FIX.to_string(),
            (Activity::Computing, _) => loop_fix(words, limit),
        })
    }

    /// The flood of stderr that most likely made this timeout, for a bot that wrote `dropped`
    /// bytes past the arena's cap in `replay` and waited `blocked` on its full stderr pipe (as
    /// the referee measured it, [`PlayedMatch::blocked`]): writing it kept the bot waiting half
    /// the wall time its answers took or more, and its last answer was not spent computing (100
    /// ms of CPU time or more, for half its time or more: a loop; a few ms in the last few ms
    /// left of the game's total say nothing). The wait is the longer of the least its bytes
    /// take at the limits' rate and the time measured: on a loaded machine the reader is slower
    /// than its rate, the answers take longer, and the bytes alone no longer explain them. None
    /// for another forfeit, a bot whose stderr was not cut, or one read as fast as it wrote.
    pub fn flood(&self, replay: &Replay, dropped: usize, blocked: Duration) -> Option<Flood> {
        let limits = &replay.limits;
        let rate = limits.stderr_rate;
        let cpu_ms = self.counted_cpu_ms();
        let computing = cpu_ms >= 100 && cpu_ms * 2 >= self.ms.unwrap_or(0);
        if self.reason != "timeout" || dropped == 0 || rate == 0 || computing {
            return None;
        }
        let written = (limits.stderr_cap + dropped) as u64;
        // What a bot writes without waiting: the pipe's 64 KiB, and the arena's first read.
        let ahead = 2 * 64 * 1024;
        let wait_ms = written.saturating_sub(ahead).saturating_mul(1000) / rate;
        let answering_ms: u64 =
            replay.steps.iter().flat_map(|s| &s.replies).filter(|r| r.player == self.player).map(|r| r.ms).sum();
        let blocked_ms = blocked.as_millis() as u64;
        let waited = wait_ms.max(blocked_ms);
        // (Bytes a bot writes without waiting explain no wait, whatever was measured.)
        (wait_ms > 0 && waited * 2 >= answering_ms).then_some(Flood {
            written,
            wait_ms,
            blocked_ms,
            answering_ms,
            rate,
        })
    }

    /// [`ForfeitFact::flood`] in the match `played`, with what was dropped of this player's
    /// stderr and how long it waited on it.
    pub fn flood_in(&self, played: &PlayedMatch) -> Option<Flood> {
        self.flood(&played.replay, played.dropped(self.player), played.blocked(self.player))
    }

    /// What made this timeout in the match `played` ([`Lateness`]); None for another forfeit.
    pub fn lateness(&self, played: &PlayedMatch) -> Option<Lateness> {
        if self.reason != "timeout" {
            return None;
        }
        Some(match self.flood_in(played) {
            Some(_) => Lateness::Flood,
            None => Lateness::Limit(self.limit, self.activity()),
        })
    }

    /// The timeout as its `flood` explains it, about `subject`, in the game's `words`: "at tick
    /// 18 your bot ran out of time (…): it wrote 17.9 MiB to stderr, …".
    pub fn flood_sentence(&self, words: &Wording, subject: &str, flood: &Flood) -> String {
        let at = self.tick.map_or(String::new(), |t| format!("at {} {t} ", words.step));
        let ms = self.ms.unwrap_or(0);
        let cpu = self.cpu_ms.map_or(String::new(), |c| format!(", having used {c} ms of CPU time"));
        format!("{at}{subject} ran out of time (stopped after {ms} ms{cpu}): {}.", flood.cause())
    }

    /// The CPU time the referee counted for its last answer, in milliseconds ([`Answer::counted_cpu`]).
    fn counted_cpu_ms(&self) -> u64 {
        Answer::counted_cpu(self.cpu_ms.map(Duration::from_millis)).as_millis() as u64
    }

    /// What the bot was doing while it gave no answer, when its CPU time was measured.
    pub fn activity(&self) -> Option<Activity> {
        Some(Activity::of(self.cpu_ms?, self.ms.unwrap_or(0)))
    }

    /// A timeout as the limit it broke, at which prompt (`prompt` is what the game calls it:
    /// `TICK`), and what the bot was doing: "no answer within 5000 ms of CPU time after TICK 4:
    /// it was computing (…)". `None` for another forfeit.
    pub fn timeout_detail(&self, prompt: &str) -> Option<String> {
        self.timeout_detail_knowing(prompt, Silence::Unknown)
    }

    /// The same, saying what an idle bot was waiting for when a probe found out (`silence`).
    pub fn timeout_detail_knowing(&self, prompt: &str, silence: Silence) -> Option<String> {
        if self.reason != "timeout" {
            return None;
        }
        let (ms, limit) = (self.ms.unwrap_or(0), self.limit_ms.unwrap_or(0));
        let cpu = self.clock == Some(ClockKind::Cpu);
        let backstop = self.backstop_ms.unwrap_or(limit);
        let after = self.tick.map_or(String::new(), |t| format!(" after {prompt} {t}"));
        let cpu_ms = self.counted_cpu_ms();
        let within = if self.backstopped() {
            // Ended by the wall-clock backstop, not by its CPU time.
            format!(
                "no answer within {backstop} ms on the clock{after} (the wall-clock cap of an answer limited to \
                 {limit} ms of CPU time)"
            )
        } else {
            let clock = if cpu { " of CPU time" } else { "" };
            match self.limit {
                Some(LimitKind::Total) => {
                    format!("no answer within the {limit} ms{clock} left of the game's total{after}")
                }
                _ => format!("no answer within {limit} ms{clock}{after}"),
            }
        };
        let doing = match self.activity() {
            Some(Activity::Computing) => format!(
                ": it was busy computing ({cpu_ms} ms of CPU time in {ms} ms): a loop that never ends, or a search \
                 too slow"
            ),
            Some(Activity::Idle) => match silence {
                Silence::EndOfInput => format!(
                    ": it was idle ({cpu_ms} ms of CPU time in {ms} ms), and answered only once its input ended: it \
                     seems to wait for the end of its input"
                ),
                Silence::Buffered => format!(
                    ": it was idle ({cpu_ms} ms of CPU time in {ms} ms), and answered in a burst when sent many \
                     {prompt} lines at once: its answer is stuck in its output buffer: flush stdout"
                ),
                Silence::NoNewline => format!(
                    ": it was idle ({cpu_ms} ms of CPU time in {ms} ms), and wrote one endless line when sent many \
                     {prompt} lines at once: its answers end in no newline"
                ),
                Silence::Unknown => format!(
                    ": it was idle ({cpu_ms} ms of CPU time in {ms} ms): waiting for input, or its answer is stuck \
                     in its output buffer: did you flush stdout?"
                ),
            },
            None => String::new(),
        };
        Some(format!("{within}{doing}"))
    }

    /// The forfeit in a student's words, addressed to the bot's author ("your bot …"), with
    /// the game's `detail` of it (the result's), in the game's `words`. Plain text that may
    /// quote the bot: escape it for the output it goes to.
    pub fn sentence(&self, words: &Wording, detail: Option<&str>) -> String {
        self.sentence_about(words, "your bot", detail)
    }

    /// The same sentence about `subject` (a bot's name, where both players read it).
    pub fn sentence_about(&self, words: &Wording, subject: &str, detail: Option<&str>) -> String {
        self.sentence_noting(words, subject, detail, Some("its stderr is in the match log"))
    }

    /// The same sentence, a crash's saying `stderr` of the bot's stderr ("its stderr is in the
    /// match log"), or nothing of it (None): where no log was kept, it points to none.
    pub fn sentence_noting(
        &self,
        words: &Wording,
        subject: &str,
        detail: Option<&str>,
        stderr: Option<&str>,
    ) -> String {
        let at = self.tick.map_or(String::new(), |t| format!("at {} {t} ", words.step));
        let detail = detail.unwrap_or("");
        let ms = self.ms.unwrap_or(0);
        let limit = self.limit_ms.unwrap_or(0);
        match self.reason.as_str() {
            "timeout" => {
                let cpu = self.clock == Some(ClockKind::Cpu);
                let cpu_ms = self.counted_cpu_ms();
                let backstop = self.backstop_ms.unwrap_or(limit);
                if self.backstopped() {
                    // Ended by the wall-clock backstop: it was not computing. (A backstop summed
                    // from the earlier answers' times is what the game had left.)
                    let left = if self.backstop_slack_ms.unwrap_or(0) > 0 {
                        ": here, all that was left of the game's time on the clock"
                    } else {
                        ""
                    };
                    return format!(
                        "{at}{subject} was silent for {ms} ms while using only {cpu_ms} ms of CPU time: was it \
                         waiting for input or sleeping, or did it forget to flush its output? An answer ends after \
                         {backstop} ms on the clock, whatever its CPU time{left}."
                    );
                }
                if !cpu && ms < limit && cpu_ms > limit {
                    // Ended by the monitor on the wall clock: CPU time burnt while not asked.
                    return format!(
                        "{at}{subject} used {cpu_ms} ms of CPU time while it was not asked to answer (work left \
                         running in the background, its opponents' thinking time): on either clock, what a bot \
                         computes between two answers must stay within one answer's {limit} ms of CPU time."
                    );
                }
                let took = if cpu {
                    // (Its CPU time not read, it is not said: the referee read it as over the limit.
                    // Read last just before it crossed the limit, it is said as such: "more than 475
                    // ms … it used 473 ms" contradicted itself.)
                    let used = match self.cpu_ms {
                        Some(c) if c > limit => format!("it used {c} ms; "),
                        Some(c) => format!("its CPU time was last read at {c} ms, just before it crossed the limit; "),
                        None => String::new(),
                    };
                    format!("took more than {limit} ms of CPU time to answer ({used}{ms} ms on the clock)")
                } else {
                    // On the wall clock, what its CPU time shows it was doing.
                    let doing = match self.activity() {
                        Some(Activity::Idle) => format!(
                            ". It used only {cpu_ms} ms of CPU time: was it waiting for input, or did it forget to \
                             flush its output?"
                        ),
                        Some(Activity::Computing) => format!(". It was busy computing ({cpu_ms} ms of CPU time)"),
                        None => String::new(),
                    };
                    format!("took more than {limit} ms to answer (it was stopped after {ms} ms){doing}")
                };
                // What the limit counts, as the limits' clock has it (none for a fact from before
                // the clock was recorded).
                let counted = match self.clock {
                    Some(ClockKind::Cpu) => " of CPU time",
                    Some(ClockKind::Wall) => " on the clock",
                    None => "",
                };
                let which = match self.limit {
                    Some(LimitKind::FirstAnswer) => {
                        format!("The first answer may take {limit} ms{counted}, starting the program included.")
                    }
                    Some(LimitKind::Total) => "That was all that was left of the game's total answer time: the \
                                               whole game's answers must fit in it, so think less per answer."
                        .to_string(),
                    _ => format!("Each answer must come within {limit} ms{counted}."),
                };
                let stop = if took.ends_with('?') { "" } else { "." };
                format!("{at}{subject} {took}{stop} {which}")
            }
            "crash" => match (self.ended, stderr) {
                (Some(ended), Some(note)) => format!("{at}{subject} {}; {note}.", ended.clause()),
                (Some(ended), None) => format!("{at}{subject} {}.", ended.clause()),
                (None, Some(note)) => format!("{at}{subject} exited or closed its output ({note})."),
                (None, None) => format!("{at}{subject} exited or closed its output."),
            },
            "extra_output" => {
                format!(
                    "{at}{subject} printed a line that no {} asked for (a second answer, or debug output, which goes \
                     to stderr?).",
                    words.prompt
                )
            }
            "malformed" => format!("{at}{subject}'s answer was not understood: {detail}{}", stop(detail)),
            "invalid_move" => format!("{at}{subject} made a move the rules do not allow: {detail}{}", stop(detail)),
            "fire" => format!("{at}{subject} walked into fire ({detail}): fire ends the game with 0 points."),
            "cpu" => format!("{at}{subject} used up its CPU-time limit for the whole program."),
            "memory" => format!("{at}{subject} ran out of memory under its limit."),
            other if detail.is_empty() => format!("{at}{subject} forfeited ({other})."),
            other => format!("{at}{subject} forfeited ({other}): {detail}."),
        }
    }
}

/// The full stop after a game's `detail`, unless it ends a sentence itself (Tactics quotes the
/// classic program's `[ERROR] Invalid field!`).
fn stop(detail: &str) -> &'static str {
    if detail.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    }
}

/// How a bot's stderr ends, as said under a forfeit: its last line (not the arena's own notes),
/// with what points at the cause when the last line alone does not: a Python traceback's last
/// `File "…", line N` (the line that failed), or the line before when both are the same
/// program's (`/usr/bin/env: 'python3\r': No such file or directory` before `/usr/bin/env: use
/// -[v]S …`), or a Rust panic's message and place (its last line is a note about
/// `RUST_BACKTRACE`). `None` when it wrote nothing.
pub fn stderr_ends(stderr: &str) -> Option<String> {
    Some(StderrEnd::of(stderr)?.said)
}

/// How a bot's stderr ends, read once: what [`stderr_ends`] says, and where a traceback or a
/// panic points, when one ends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StderrEnd {
    /// What [`stderr_ends`] says.
    pub said: String,
    /// The error's own line, when a traceback or a panic ends the stderr (`ValueError: boom`).
    pub error: Option<String>,
    /// The place it names (`File "bot.py", line 3, in act`; `src/main.rs:49:9`).
    pub place: Option<String>,
    /// The failing line of code a Python traceback quotes under that place.
    pub code: Option<String>,
}

impl StderrEnd {
    /// Reads the end of `stderr` (see [`stderr_ends`]); `None` when it wrote nothing.
    pub fn of(stderr: &str) -> Option<StderrEnd> {
        let lines: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("[arena:") && !l.starts_with("note: run with `RUST_BACKTRACE="))
            .collect();
        if let Some((message, place)) = rust_panic(&lines) {
            let said = format!("{message} (at {place})");
            return Some(StderrEnd { said, error: Some(message), place: Some(place), code: None });
        }
        let (&last, before) = lines.split_last()?;
        // The place: the innermost frame in the bot's own files, past those of Python's library
        // (`random.choice([])` fails in random.py, but the line to fix is the bot's), else the
        // innermost.
        let frame = |l: &&str| l.starts_with("File \"") && l.contains(", line ");
        let library =
            |l: &&str| ["/lib/python", "site-packages", "dist-packages", "\"<frozen "].iter().any(|m| l.contains(m));
        let traceback = before.iter().rposition(|l| frame(l) && !library(l)).or_else(|| before.iter().rposition(frame));
        let program = |l: &str| l.split_once(": ").map(|(p, _)| p.to_string()).filter(|p| !p.contains(' '));
        let same_program = before.last().filter(|l| program(l).is_some() && program(l) == program(last));
        Some(match (traceback, same_program) {
            (Some(i), _) => {
                let at = before[i];
                // The quoted code: the line after the place, unless it is the error itself or
                // the carets under the code.
                let code = before.get(i + 1).filter(|l| !l.starts_with('^') && !l.starts_with('~'));
                StderrEnd {
                    said: format!("{last} (at {at})"),
                    error: Some(last.to_string()),
                    place: Some(at.to_string()),
                    code: code.map(|c| c.to_string()),
                }
            }
            (None, Some(previous)) => {
                StderrEnd { said: format!("{previous} / {last}"), error: None, place: None, code: None }
            }
            (None, None) => StderrEnd { said: last.to_string(), error: None, place: None, code: None },
        })
    }

    /// Whether a starter kit's input loop (a traceback frame in `botkit.py`) called the code the
    /// error names, outside the kit (`in act`): the kit read the input and the bot's own code
    /// failed, even before its first answer. `stderr` is what this was read from.
    pub fn past_the_kit(&self, stderr: &str) -> bool {
        let kit = |l: &str| l.starts_with("File \"") && l.contains("botkit.py\", line ");
        self.place.as_deref().is_some_and(|p| !kit(p)) && stderr.lines().map(str::trim).any(kit)
    }

    /// Whether the error it names was met reading the input rather than in the bot's own logic:
    /// the failing function or line reads or parses (`readline`, `input()`, `split`, `parse`,
    /// `scanf`…), or the error is a number that did not parse. Only for a traceback or a panic.
    pub fn at_input(&self) -> bool {
        let function = self.place.as_deref().and_then(|p| p.rsplit_once(", in ")).map_or("", |(_, f)| f);
        let code = self.code.as_deref().unwrap_or("");
        let error = self.error.as_deref().unwrap_or("");
        let reads = ["read", "readline", "readlines", "input", "split", "stdin", "scanf", "getline", "cin", "fgets"];
        let reading = |word: &str| {
            let word = word.to_lowercase();
            reads.contains(&word.as_str()) || word.starts_with("read_") || word.contains("parse")
        };
        format!("{function} {code}").split(|c: char| !c.is_alphanumeric() && c != '_').any(reading)
            || ["invalid literal for int()", "could not convert string to float", "ParseIntError", "ParseFloatError"]
                .iter()
                .any(|e| error.contains(e))
            || error.starts_with("EOFError")
    }
}

/// A Rust panic's message and place when the panic ends `lines`: `thread 'main' panicked at
/// src/main.rs:49:9:` then the message (Rust 1.73 and later), or `thread 'main' panicked at
/// 'message', src/main.rs:49:9` (before).
fn rust_panic(lines: &[&str]) -> Option<(String, String)> {
    let at = lines.iter().rposition(|l| l.starts_with("thread '") && l.contains(" panicked at "))?;
    let (_, rest) = lines[at].split_once(" panicked at ")?;
    if let Some(place) = rest.strip_suffix(':') {
        let message = lines.get(at + 1)?;
        return Some((message.to_string(), place.to_string()));
    }
    let (message, place) = rest.strip_prefix('\'')?.rsplit_once("', ")?;
    (at + 1 == lines.len()).then(|| (message.to_string(), place.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resource Rush's words: ticks and TICK lines.
    const RR: Wording = crate::games::resource_rush::INFO.wording;

    fn fact(reason: &str) -> ForfeitFact {
        ForfeitFact {
            player: 0,
            reason: reason.to_string(),
            tick: Some(37),
            ms: Some(1003),
            cpu_ms: Some(1000),
            limit_ms: Some(1000),
            limit: Some(LimitKind::Answer),
            clock: Some(ClockKind::Cpu),
            backstop_ms: Some(5000),
            backstop_slack_ms: None,
            ended: None,
        }
    }

    /// A traceback's failing line, and an error the same program wrote just before, go with
    /// the last line; the arena's notes do not count.
    #[test]
    fn stderr_ends_with_what_points_at_the_cause() {
        let traceback =
            "Traceback (most recent call last):\n  File \"/b/bot.py\", line 30, in <module>\n    main()\n  \
                         File \"/b/bot.py\", line 12, in main\n    x = grid[99]\nIndexError: list index out of range\n";
        assert_eq!(
            stderr_ends(traceback).unwrap(),
            "IndexError: list index out of range (at File \"/b/bot.py\", line 12, in main)"
        );
        let env = "/usr/bin/env: 'python3\\r': No such file or directory\n/usr/bin/env: use -[v]S to pass options in shebang lines\n";
        assert_eq!(
            stderr_ends(env).unwrap(),
            "/usr/bin/env: 'python3\\r': No such file or directory / /usr/bin/env: use -[v]S to pass options in shebang lines"
        );
        assert_eq!(stderr_ends("thinking\nsegfault here\n\n[arena: killed]\n").unwrap(), "segfault here");
        assert_eq!(stderr_ends("\n[arena: killed]\n"), None);
        // A Rust panic, as the starter kit's bot writes it: the message and where, not the note
        // about RUST_BACKTRACE after them (which was all it said).
        let panic = "thread 'main' (2) panicked at src/main.rs:49:49:\nindex out of bounds: the len is 0 but the \
                     index is 1\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            stderr_ends(panic).unwrap(),
            "index out of bounds: the len is 0 but the index is 1 (at src/main.rs:49:49)"
        );
        let old_rust = "thread 'main' panicked at 'no way home', src/main.rs:7:5\nnote: run with `RUST_BACKTRACE=1` \
                        environment variable to display a backtrace\n";
        assert_eq!(stderr_ends(old_rust).unwrap(), "no way home (at src/main.rs:7:5)");
    }

    /// An error met reading the input (the failing line reads or parses, or a number did not
    /// parse) is told from one in the bot's own logic, from the one traceback reader. The
    /// control: the error of its own logic is not at the input.
    #[test]
    fn an_error_at_the_input_is_told_from_one_of_the_bot_s_own() {
        let traceback = |code: &str, function: &str, error: &str| {
            format!(
                "Traceback (most recent call last):\n  File \"bot.py\", line 3, in {function}\n    {code}\n{error}\n"
            )
        };
        let own = StderrEnd::of(&traceback("if s.tick == 5: raise ValueError(\"boom\")", "act", "ValueError: boom"));
        let own = own.unwrap();
        assert_eq!(own.place.as_deref(), Some("File \"bot.py\", line 3, in act"));
        assert_eq!(own.said, "ValueError: boom (at File \"bot.py\", line 3, in act)");
        assert!(!own.at_input(), "{own:?}");
        for (code, function, error) in [
            ("x = int(parts[2])", "act", "ValueError: invalid literal for int() with base 10: 'WAIT'"),
            ("line = sys.stdin.readline().split()", "main", "IndexError: list index out of range"),
            ("grid = rows[1]", "parse_header", "IndexError: list index out of range"),
        ] {
            let end = StderrEnd::of(&traceback(code, function, error)).unwrap();
            assert!(end.at_input(), "{end:?}");
        }
    }

    /// A crash's sentence names the match log only where one is kept. The control: the log is
    /// named where it is.
    #[test]
    fn a_crash_names_the_log_only_where_one_is_kept() {
        let segv = ForfeitFact { ended: Some(Ending::Signal(libc::SIGSEGV)), ..fact("crash") };
        let without = segv.sentence_noting(&RR, "bot", None, None);
        assert!(without.ends_with("a null pointer)."), "{without}");
        assert!(!without.contains("log"), "{without}");
        let with = segv.sentence_noting(&RR, "bot", None, Some("its stderr is in the match log"));
        assert!(with.ends_with("; its stderr is in the match log."), "{with}");
    }

    /// A timeout says when, how long, and the limit as its clock counts it: of CPU time, or on
    /// the clock (it said "Each answer must come within 1000 ms" under either). The control: a
    /// fact from before the clock was recorded names none.
    #[test]
    fn timeouts_say_when_and_how_long() {
        assert_eq!(
            fact("timeout").sentence(&RR, None),
            "at tick 37 your bot took more than 1000 ms of CPU time to answer (its CPU time was last read at 1000 \
             ms, just before it crossed the limit; 1003 ms on the clock). Each answer must come within 1000 ms of CPU \
             time."
        );
        // Read past the limit, it is said as used (it said "more than 475 ms … it used 473 ms" of one
        // read before the limit was crossed).
        let over = ForfeitFact { cpu_ms: Some(1040), ..fact("timeout") }.sentence(&RR, None);
        assert!(
            over.contains("more than 1000 ms of CPU time to answer (it used 1040 ms; 1003 ms on the clock)"),
            "{over}"
        );
        let first_cpu =
            ForfeitFact { tick: Some(1), limit_ms: Some(2000), limit: Some(LimitKind::FirstAnswer), ..fact("timeout") };
        let said = first_cpu.sentence(&RR, None);
        assert!(
            said.ends_with("The first answer may take 2000 ms of CPU time, starting the program included."),
            "{said}"
        );
        let unknown = ForfeitFact { clock: None, ..fact("timeout") }.sentence(&RR, None);
        assert!(unknown.ends_with("Each answer must come within 1000 ms."), "{unknown}");
        let wall = ForfeitFact { clock: Some(ClockKind::Wall), backstop_ms: Some(1000), ..fact("timeout") };
        assert!(wall
            .sentence(&RR, None)
            .starts_with("at tick 37 your bot took more than 1000 ms to answer (it was stopped after 1003 ms)"));
        let sleeping = ForfeitFact { ms: Some(5002), cpu_ms: Some(3), ..fact("timeout") };
        assert_eq!(
            sleeping.sentence(&RR, None),
            "at tick 37 your bot was silent for 5002 ms while using only 3 ms of CPU time: was it waiting for input \
             or sleeping, or did it forget to flush its output? An answer ends after 5000 ms on the clock, whatever \
             its CPU time."
        );
        let first =
            ForfeitFact { tick: Some(1), limit_ms: Some(2000), limit: Some(LimitKind::FirstAnswer), ..fact("timeout") };
        assert!(first.sentence(&RR, None).contains("The first answer may take 2000 ms"));
    }

    /// A replay of one bot that answered `answers` times in `ms` each (1 ms of CPU time), then
    /// timed out after `last` ms with `last_cpu` ms of CPU time, on the wall clock.
    fn timed_out_after(answers: usize, ms: u64, last: u64, last_cpu: u64) -> Replay {
        use crate::engine::Failure;
        use crate::replay::{PlayerInfo, RecordedReply, Step};
        let limits = crate::referee::Limits { clock: ClockKind::Wall, ..crate::referee::Limits::default() };
        let players = vec![PlayerInfo { name: "bot".into(), command: String::new() }];
        let mut replay = Replay::new("resource-rush", 1, serde_json::json!({}), players, limits, serde_json::json!({}));
        let reply = |ms: u64, cpu: u64, failure: Option<Failure>| RecordedReply {
            player: 0,
            answer: failure.is_none().then(|| "WAIT".to_string()),
            failure,
            ms,
            cpu_ms: Some(cpu),
            raw_len: None,
            unasked: None,
        };
        let mut replies: Vec<_> = (0..answers).map(|_| reply(ms, 1, None)).collect();
        replies.push(reply(last, last_cpu, Some(Failure::Timeout)));
        replay.steps = replies
            .into_iter()
            .map(|r| Step { replies: vec![r], chance: None, frame: serde_json::json!({}) })
            .collect();
        replay.result = crate::replay::MatchResult::timed_out();
        replay
    }

    /// A timeout after a flood of stderr is put down to the flood when writing it at the
    /// arena's rate took at least half the time its answers took (it was asked whether it
    /// flushed stdout, or told to think less). The controls: the same timeout with a small
    /// flood, with none, with stderr read as fast as it is written, or with a last answer spent
    /// computing, is not.
    #[test]
    fn a_timeout_after_a_flood_of_stderr_is_put_down_to_it() {
        // 19 answers of 260 ms, then 40 ms left: 18 MiB written took 4.5 s at 4 MiB/s.
        let replay = timed_out_after(19, 260, 40, 2);
        let f = &forfeit_facts(&replay)[0];
        let flood = f.flood(&replay, 18 << 20, Duration::ZERO).expect("a flood");
        assert_eq!(
            (flood.answering_ms, flood.wait_ms),
            (19 * 260 + 40, ((18 << 20) + (64 << 10) - (128 << 10)) * 1000 / (4 << 20))
        );
        let said = f.flood_sentence(&RR, "your bot", &flood);
        assert!(
            said.starts_with("at tick 20 your bot ran out of time (stopped after 40 ms, having used 2 ms"),
            "{said}"
        );
        assert!(
            said.contains("it wrote 18.1 MiB to stderr, which the arena reads at 4 MiB a second at most")
                && said.ends_with("that flood, not its thinking, most likely made it late."),
            "{said}"
        );
        // The controls.
        assert_eq!(f.flood(&replay, 1 << 20, Duration::ZERO), None, "1 MiB takes 0.25 s of 5 s");
        assert_eq!(f.flood(&replay, 0, Duration::ZERO), None);
        let mut unthrottled = replay.clone();
        unthrottled.limits.stderr_rate = 0;
        assert_eq!(f.flood(&unthrottled, 18 << 20, Duration::ZERO), None);
        let looping = timed_out_after(4, 260, 1000, 990);
        assert_eq!(forfeit_facts(&looping)[0].flood(&looping, 18 << 20, Duration::ZERO), None);
        assert_eq!(fact("crash").flood(&replay, 18 << 20, Duration::ZERO), None);
    }

    /// On a loaded machine the arena's reader is slower than its rate: a flooding bot's answers
    /// take longer than its bytes imply (here 7 MB, at least 1.6 s at 4 MiB/s, in answers of 7 s,
    /// the last one 5.2 s silent with 7 ms of CPU time), and the flood is still blamed for the
    /// wait the referee measured on its full pipe. The controls: without that measure (the old
    /// rule) it is not; nor is a bot that computed (a loop) however long it was blocked, nor one
    /// that wrote its flood at once and then waited for input, its pipe full only briefly.
    #[test]
    fn a_flood_is_blamed_for_the_wait_measured_however_loaded_the_machine() {
        let loaded = timed_out_after(6, 300, 5212, 7);
        let f = &forfeit_facts(&loaded)[0];
        let dropped = 7_000_000 - (64 << 10);
        let blocked = Duration::from_millis(6500);
        let flood = f.flood(&loaded, dropped, blocked).expect("a flood");
        assert_eq!((flood.answering_ms, flood.blocked_ms, flood.waited_ms()), (6 * 300 + 5212, 6500, 6500));
        assert!(flood.wait_ms * 2 < flood.answering_ms, "the bytes alone do not explain it: {flood:?}");
        assert!(flood.cause().contains("kept it waiting 6500 ms of the 7012 ms its answers took"), "{flood:?}");
        // The controls.
        assert_eq!(f.flood(&loaded, dropped, Duration::ZERO), None, "the old rule, on the bytes alone");
        let looping = timed_out_after(6, 300, 5212, 5100);
        assert_eq!(forfeit_facts(&looping)[0].flood(&looping, dropped, blocked), None, "a loop");
        let unflushed = timed_out_after(0, 0, 5000, 3);
        let said = forfeit_facts(&unflushed)[0].flood(&unflushed, 1_000_000 - (64 << 10), Duration::from_millis(230));
        assert_eq!(said, None, "1 MB written at once, then waiting for input");
        // Nor one whose bytes fit in what a bot writes without waiting (100 KB), whatever
        // was measured (its pipe found full twice across its thinking, say).
        let small = forfeit_facts(&unflushed)[0].flood(&unflushed, 100_000 - (64 << 10), Duration::from_millis(5000));
        assert_eq!(small, None, "100 KB cannot have kept it waiting");
    }

    #[test]
    fn facts_come_from_the_forfeiting_players_last_answer() {
        use crate::engine::Failure;
        use crate::replay::{PlayerInfo, PlayerResult, RecordedReply, Step};
        let player = |name: &str| PlayerInfo { name: name.into(), command: String::new() };
        let mut replay = Replay::new(
            "resource-rush",
            1,
            serde_json::json!({}),
            vec![player("a"), player("b")],
            crate::referee::Limits::default(),
            serde_json::json!({}),
        );
        let reply = |p: usize, ms: u64, failure: Option<Failure>| RecordedReply {
            player: p,
            answer: failure.is_none().then(|| "WAIT".to_string()),
            failure,
            ms,
            cpu_ms: Some(ms.saturating_sub(2)),
            raw_len: None,
            unasked: None,
        };
        for (t, late) in [(1, None), (2, None), (3, Some(Failure::Timeout))] {
            let mut replies = vec![reply(0, 5, None)];
            replies.push(reply(1, if late.is_some() { 1003 } else { 7 * t }, late));
            replay.steps.push(Step { replies, chance: None, frame: serde_json::json!({}) });
        }
        let result = |name: &str, forfeit: Option<&str>| PlayerResult {
            name: name.into(),
            score: 0,
            finished: false,
            forfeit: forfeit.map(str::to_string),
            detail: None,
        };
        replay.result.players = vec![result("a", None), result("b", Some("timeout"))];
        let facts = forfeit_facts(&replay);
        assert_eq!(facts.len(), 1, "only the player who forfeited");
        let f = &facts[0];
        assert_eq!((f.player, f.tick, f.ms, f.cpu_ms), (1, Some(3), Some(1003), Some(1001)));
        assert_eq!((f.limit_ms, f.limit, f.clock), (Some(1000), Some(LimitKind::Answer), Some(ClockKind::Cpu)));
        assert!(f.sentence(&RR, None).starts_with("at tick 3 your bot took more than 1000 ms of CPU time"));
    }

    #[test]
    fn a_timeout_names_its_limit_and_what_the_bot_was_doing() {
        let busy = fact("timeout");
        assert_eq!(
            busy.timeout_detail("TICK").as_deref(),
            Some(
                "no answer within 1000 ms of CPU time after TICK 37: it was busy computing (1000 ms of CPU time in \
                 1003 ms): a loop that never ends, or a search too slow"
            )
        );
        let idle = ForfeitFact { clock: Some(ClockKind::Wall), cpu_ms: Some(2), ..fact("timeout") };
        assert_eq!(
            idle.timeout_detail("TICK").as_deref(),
            Some(
                "no answer within 1000 ms after TICK 37: it was idle (2 ms of CPU time in 1003 ms): waiting for \
                 input, or its answer is stuck in its output buffer: did you flush stdout?"
            )
        );
        // The duel's "Why:" says the same of a bot that waited on the wall clock.
        let why = idle.sentence(&RR, None);
        assert!(
            why.contains(
                "(it was stopped after 1003 ms). It used only 2 ms of CPU time: was it waiting for input, or did it \
                 forget to flush its output? Each answer must come within 1000 ms on the clock."
            ),
            "{why}"
        );
        let backstopped = ForfeitFact { ms: Some(5002), cpu_ms: Some(3), ..fact("timeout") };
        let said = backstopped.timeout_detail("TICK").unwrap_or_default();
        assert!(said.starts_with("no answer within 5000 ms on the clock after TICK 37 (the wall-clock cap"), "{said}");
        assert!(said.contains("it was idle (3 ms of CPU time in 5002 ms)"), "{said}");
        assert_eq!(fact("crash").timeout_detail("TICK"), None);
        // Unmeasured CPU time: the limit alone, and the sentence says no CPU time (it said the
        // wall time, 1003 ms, as its CPU time).
        let unmeasured = ForfeitFact { cpu_ms: None, ..fact("timeout") };
        let said = unmeasured.sentence(&RR, None);
        assert!(said.contains("took more than 1000 ms of CPU time to answer (1003 ms on the clock)"), "{said}");
        assert_eq!(
            unmeasured.timeout_detail("TICK").as_deref(),
            Some("no answer within 1000 ms of CPU time after TICK 37")
        );
    }

    /// A game's last answer ended by what was left of its wall-clock cap (a backstop summed from
    /// rounded times, here 141 ms, reached at 139 ms as the replay recorded it) is the backstop's,
    /// as `arena verify` allows it, not "more than 1000 ms of CPU time" with 2 used. The control:
    /// one that reached the CPU limit is told so.
    #[test]
    fn a_timeout_a_few_ms_short_of_the_game_s_wall_cap_is_the_cap_s() {
        let capped = ForfeitFact { ms: Some(139), cpu_ms: Some(2), backstop_ms: Some(141), ..fact("timeout") };
        let why = capped.sentence(&RR, None);
        assert!(why.contains("silent for 139 ms while using only 2 ms of CPU time"), "{why}");
        assert!(!why.contains("took more than"), "{why}");
        let said = capped.timeout_detail("TICK").unwrap_or_default();
        assert!(said.starts_with("no answer within 141 ms on the clock after TICK 37"), "{said}");
        let computing = ForfeitFact { ms: Some(1003), cpu_ms: Some(1000), backstop_ms: Some(1005), ..fact("timeout") };
        let why = computing.sentence(&RR, None);
        assert!(why.contains("took more than 1000 ms of CPU time to answer"), "{why}");
    }

    /// A timeout's fix follows what the bot was doing and the limit; an idle bot's detail says
    /// what a probe found it waited for. The controls: unmeasured CPU time gives no fix, and a
    /// crash none either.
    #[test]
    fn a_timeout_s_fix_and_detail_follow_what_the_bot_was_doing() {
        let idle = ForfeitFact { clock: Some(ClockKind::Wall), cpu_ms: Some(2), ..fact("timeout") };
        assert!(idle.timeout_fix(&RR).unwrap_or_default().starts_with("flush stdout after every answer"));
        assert!(fact("timeout").timeout_fix(&RR).unwrap_or_default().ends_with("and answer before 1000 ms"));
        let first = ForfeitFact { limit: Some(LimitKind::FirstAnswer), ..fact("timeout") };
        assert_eq!(first.timeout_fix(&RR).as_deref(), Some(STARTUP_FIX));
        let total = ForfeitFact { limit: Some(LimitKind::Total), ..fact("timeout") };
        assert!(total.timeout_fix(&RR).unwrap_or_default().starts_with("think less per answer"));
        assert_eq!(ForfeitFact { cpu_ms: None, ..fact("timeout") }.timeout_fix(&RR), None);
        let detail = |silence| idle.timeout_detail_knowing("TICK", silence).unwrap_or_default();
        assert!(detail(Silence::EndOfInput).ends_with("it seems to wait for the end of its input"));
        assert!(detail(Silence::Buffered).ends_with("its answer is stuck in its output buffer: flush stdout"));
        assert!(detail(Silence::Unknown).ends_with("did you flush stdout?"));
        assert_eq!(idle.timeout_detail("TICK"), Some(detail(Silence::Unknown)));
    }

    /// Every listed game is explained in its own words, none of another's (Resource Rush's ticks
    /// and TICK lines, Tactics' ROUND prompts): the loop fix, the startup fix, the total's and
    /// unrequested output's sentences. The games and their words come from the registry, not
    /// their names. The control: Resource Rush's words still say TICK.
    #[test]
    fn other_games_are_explained_in_their_own_words() {
        let said = |words: &Wording| {
            let mut all = Vec::new();
            for (limit, reason) in [
                (LimitKind::Answer, "timeout"),
                (LimitKind::FirstAnswer, "timeout"),
                (LimitKind::Total, "timeout"),
                (LimitKind::Answer, "extra_output"),
            ] {
                let f = ForfeitFact { limit: Some(limit), ..fact(reason) };
                all.push(f.sentence(words, None));
                all.extend(f.timeout_fix(words));
            }
            all.join("\n")
        };
        // A game's own words, whole: its step (`tick`), and its prompt's protocol keyword (`TICK`).
        let own = |w: &Wording| {
            let keyword = w.prompt.split_whitespace().next().filter(|k| k.chars().all(|c| c.is_ascii_uppercase()));
            [Some(w.step), keyword].into_iter().flatten().map(str::to_lowercase).collect::<Vec<_>>()
        };
        let listed: Vec<_> = crate::games::registry().games().filter(|g| g.info().listed).collect();
        assert!(listed.iter().any(|g| own(&g.info().wording).contains(&"tick".to_string())), "a game of ticks");
        for game in &listed {
            let words = game.info().wording;
            let text = said(&words).to_lowercase();
            let said_words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
            for other in listed.iter().map(|g| g.info().wording).filter(|w| *w != words) {
                for word in own(&other).into_iter().filter(|w| !own(&words).contains(w)) {
                    assert!(!said_words.contains(&word.as_str()), "{}: says {word:?}: {text}", game.name());
                }
            }
        }
        let tactics = said(&crate::games::tactics::hosted::INFO.wording);
        assert!(tactics.contains("at step 37 your bot printed a line that no ROUND prompt asked for"), "{tactics}");
        assert!(tactics.contains("paste the TACTICS line and a ROUND prompt (through END)"), "{tactics}");
        let rr = said(&RR);
        assert!(rr.contains("no TICK line asked for") && rr.contains("paste the header and TICK lines"), "{rr}");
    }

    #[test]
    fn a_crash_says_how_the_bot_ended_when_it_was_recorded() {
        let segv = ForfeitFact { ended: Some(Ending::Signal(libc::SIGSEGV)), ..fact("crash") };
        assert_eq!(
            segv.sentence(&RR, None),
            "at tick 37 your bot was killed by signal SIGSEGV (segmentation fault: an invalid memory access, such as \
             an index out of bounds or a null pointer); its stderr is in the match log."
        );
        assert_eq!(
            fact("crash").sentence(&RR, None),
            "at tick 37 your bot exited or closed its output (its stderr is in the match log).",
            "a replay from before endings were recorded"
        );
    }

    #[test]
    fn game_forfeits_quote_the_game() {
        let f = fact("fire");
        assert_eq!(
            f.sentence(&RR, Some("entered the fire at (1, 1)")),
            "at tick 37 your bot walked into fire (entered the fire at (1, 1)): fire ends the game with 0 points."
        );
        let f = fact("malformed");
        let said = f.sentence(&RR, Some("expected `WAIT` or `MOVE x y`, found `GO`"));
        assert!(said.ends_with("not understood: expected `WAIT` or `MOVE x y`, found `GO`."));
        // A detail that ends its own sentence gets no second stop (the control above gets one).
        let said = fact("invalid_move").sentence(&RR, Some("`place 1 3 3`: [ERROR] Invalid field!"));
        assert!(said.ends_with("do not allow: `place 1 3 3`: [ERROR] Invalid field!"), "{said}");
    }
}
