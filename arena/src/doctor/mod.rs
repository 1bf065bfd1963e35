//! The bot doctor behind `arena check-bot`: plays a bot through short scripted situations
//! through the referee, then explains each problem in words, with the fix. A game with its own
//! situations ([`Checkup`]: Resource Rush's small maps, both seats, CRLF input, a jump,
//! power-ups, test mode) plays those, its rules judging each; any other game's bot plays each
//! seat against the game's own scripted players (`seats.rs`).
//!
//! The opponent is a script inside the arena, not a process: the bot under test is the only
//! process, so every problem is its own. When the very first answer never comes, two probes
//! tell a slow start-up from a bot that does not flush its output; when no answer came at all,
//! one probe per other game tells whether it is that game's bot ([`seems_of`]).

mod seats;

use std::time::Duration;

use thiserror::Error;
use tokio_util::sync::CancellationToken;

pub use crate::engine::Finding;
use crate::engine::{Checkup, Ending, Game, Played, PlayerId, Reply, Situation, Speaks, State, Turn, Wrapper};
use crate::explain::{forfeit_facts, loop_fix, Activity, Lateness, Silence, StderrEnd, FLUSH, NEWLINE, STARTUP_FIX};
use crate::referee::{play_match, BotCommand, ClockKind, Limits, PlayedMatch, RefereeError};
use crate::replay::{LimitKind, Replay};
use crate::sandbox::{Sandbox, Sight};

/// How long the start-up probe waits for a first answer.
const PATIENCE: Duration = Duration::from_secs(8);

/// Why a bot was not checked.
#[derive(Debug, Error)]
pub enum CheckError {
    /// The game has no bots to check.
    #[error(
        "{title} has no bots: chance plays for every player, so there is no bot to check (watch a match with \
         `arena duel --game {name}`)"
    )]
    NoBots {
        /// The game's title.
        title: &'static str,
        /// Its name.
        name: &'static str,
    },
    /// The game scripts no opponent (or has no starter to play on).
    #[error(
        "check-bot cannot check {title} bots: the game scripts no opponent for it; play your bot in a duel instead, \
         `arena duel --game {name} …`, whose Why: and Fix: lines explain a forfeit"
    )]
    NoScript {
        /// The game's title.
        title: &'static str,
        /// Its name.
        name: &'static str,
    },
    /// Running the bot failed.
    #[error(transparent)]
    Referee(#[from] RefereeError),
}

/// The game's own situations for check-bot, if it has them.
fn checkup_of(game: &dyn Game) -> Option<Checkup> {
    game.info().kit.as_ref().and_then(|kit| kit.check)
}

/// What bounds an array index in a bot of `game`, in the fix for an invalid memory access: its
/// kit's words (a game with a [`Checkup`] has a kit), else words that fit any game.
fn bounds_of(game: &dyn Game) -> &'static str {
    game.info().kit.as_ref().map_or("the sizes its input gives", |kit| kit.bounds)
}

/// Whether check-bot can check bots of `game`, or why not (no bots, no scripted opponent).
pub fn can_check(game: &dyn Game) -> Result<(), CheckError> {
    if checkup_of(game).is_some() {
        return Ok(());
    }
    seats::kit_of(game).map(|_| ())
}

/// Plays `command` as a bot of `game` and explains what went wrong: through the game's own
/// situations where it has them, else in each seat against the game's scripted players (see
/// `seats.rs`). Its verdicts are judged by `limits` (their clock is a duel's, so that check-bot
/// and a duel agree on whether a bot is late); the probes that only diagnose a silence run on the
/// wall clock.
pub async fn check_bot(
    game: &dyn Game,
    command: &str,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Vec<Checked>, CheckError> {
    match checkup_of(game) {
        Some(checkup) => Ok(check_situations(game, &checkup, command, limits, sandbox, cancel).await?),
        None => seats::check(game, command, limits, sandbox, cancel).await,
    }
}

/// What to do when the machine ran a bot too little to judge it: its CPU time stayed under
/// the limit until it was ended on the clock.
const STARVED_FIX: &str = "run `arena check-bot` again when the machine is less busy (other programs closed, other \
                           checks finished): with so little CPU time, it cannot tell a loop from an answer on its way";

/// How a CRLF situation's finding for a bot waiting on a line with its `\r` says it answered
/// the same prompt with `\n` line endings.
const CRLF_WAIT: &str = "when the same lines ended in `\\n`";

/// The limits of a probe that only diagnoses (a first answer of another game, a burst of
/// prompts): on the wall clock, whatever the verdicts' clock, as on the CPU clock a bot that
/// never flushes would wait out the backstop (5x the limit) in every probe.
fn probe_limits() -> Limits {
    Limits { clock: ClockKind::Wall, ..Limits::default() }
}

/// How long a bot that printed nothing was given after the prompt, and on which clock, for an
/// answer limited to `limit_ms` whose wall-clock backstop was `backstop_ms`, under `limits`: the
/// limit itself on the wall clock ("1000 ms"), the backstop on the CPU clock ("5000 ms on the
/// clock (5x its 1000 ms of CPU time)").
fn silent_for(limits: &Limits, limit_ms: u64, backstop_ms: u64) -> String {
    match limits.clock {
        ClockKind::Wall => format!("{limit_ms} ms"),
        ClockKind::Cpu if backstop_ms == limit_ms * u64::from(limits.backstop_factor) => {
            format!("{backstop_ms} ms on the clock ({}x its {limit_ms} ms of CPU time)", limits.backstop_factor)
        }
        ClockKind::Cpu => format!(
            "{backstop_ms} ms on the clock (all that was left of the game's {} ms on the clock, for an answer of \
             {limit_ms} ms of CPU time)",
            limits.total.as_millis() as u64 * u64::from(limits.backstop_factor)
        ),
    }
}

/// What an answer's limit counts under `limits`, after its figure: " of CPU time" or " on the clock".
fn counted(limits: &Limits) -> &'static str {
    match limits.clock {
        ClockKind::Cpu => " of CPU time",
        ClockKind::Wall => " on the clock",
    }
}

/// The fix for a line no prompt asked for, in the words of a game whose prompt is `prompt`: a
/// debug line, or a second answer (a bot that answers twice, or answers every line it reads).
fn one_line_fix(prompt: &str) -> String {
    format!(
        "print exactly one line per {prompt} and nothing else: no second answer, no answer to the other lines you \
         read (only a {prompt} asks for one), and debug output to stderr (the arena keeps it in the match log)"
    )
}

/// How one situation went.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The situation.
    pub name: String,
    /// Score, ticks, finished, or why it was not played.
    pub summary: String,
    /// What went wrong (empty when all went well).
    pub findings: Vec<Finding>,
    /// Not played (an earlier problem would only repeat).
    pub skipped: bool,
    /// Whether the bot answered a prompt with a line, text or not (a bot of another game answers none).
    pub answered: bool,
    /// Whether its program never ran as meant (a Python syntax error, a `#!` line ending in
    /// `\r`, a script not found): no game's prompts are to blame.
    pub never_ran: bool,
    /// Whether its first answer never came for a cause named here (unflushed output, waiting for
    /// the end of its input, a slow start, an error in its own code called by a starter kit that
    /// read the input): it does answer this game's prompts.
    pub explained: bool,
    /// Whether it forfeited at the first step (died on, or misanswered, the first lines).
    pub at_first: bool,
    /// What it printed: its answers, then the last lines of its stderr (to tell another game's bot).
    pub heard: Vec<String>,
    /// Its last answer line, as the referee read it (the one its forfeit read, if any).
    pub last_answer: Option<String>,
    /// The line it printed that no prompt asked for, when it forfeited so (`extra_output`)
    /// and the line was text.
    pub unasked: Option<String>,
    /// The earlier situation whose problem this one repeats (the same crash, the same program
    /// that never ran, the same timeout): said and counted there, once.
    pub same_as: Option<String>,
    /// What made it late, when it forfeited by a timeout: the same cause in an earlier
    /// situation is the same timeout, said there once.
    pub timeout: Option<Lateness>,
    /// Why it forfeited (`malformed`, `crash`, …), if it did: the kind of problem a repeat of
    /// an earlier one must share ([`same_problem`]), but for a stray line ([`Mistake::Stray`]).
    pub forfeit: Option<String>,
}

impl Checked {
    /// Whether a forfeit-level problem was found.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.serious)
    }

    /// Whether it forfeited by a timeout (what a repeat of an earlier problem repeats).
    pub fn timed_out(&self) -> bool {
        self.timeout.is_some()
    }

    /// What a repeat of an earlier situation's problem ([`Checked::same_as`]) repeats, in words:
    /// "the same {what} as in …".
    pub fn repeated(&self) -> &'static str {
        match self.forfeit.as_deref() {
            _ if self.timed_out() => "timeout",
            Some("crash") => "crash",
            // (A debug line read as an answer too: one mistake with a line unasked for.)
            _ if self.failed() && self.only_stray() => "stray line",
            Some("malformed") => "malformed answer",
            Some("invalid_move") => "invalid move",
            _ => "problem",
        }
    }

    /// The stray line this situation's bot printed, as one terminal field, when the doctor has
    /// it: a debug line read as its answer, or one found waiting before a prompt
    /// (`extra_output`, kept where it was text; the first stray line ends the situation). What
    /// the row of a repeat of an earlier stray line quotes of its own.
    pub fn stray_line(&self) -> Option<String> {
        if !(self.failed() && self.only_stray()) {
            return None;
        }
        let line = match self.forfeit.as_deref() {
            Some("malformed") => self.last_answer.as_deref(),
            Some("extra_output") => self.unasked.as_deref(),
            _ => None,
        };
        line.map(crate::safe_text::terminal)
    }

    /// Whether its serious findings are all stray lines, and there is one ([`Mistake::Stray`]).
    fn only_stray(&self) -> bool {
        let mistakes = Mistake::all(self);
        !mistakes.is_empty() && mistakes.iter().all(|m| *m == Mistake::Stray)
    }

    /// The situation `name`, summed up as `summary`, as the match `played` went, its findings
    /// not yet told (none): for a game's own situations and for seats alike.
    fn played(name: String, summary: String, played: &PlayedMatch) -> Checked {
        let me = &played.replay.result.players[0];
        let crashed = me.forfeit.as_deref() == Some("crash");
        let fact = || forfeit_facts(&played.replay).into_iter().find(|f| f.player == 0);
        Checked {
            name,
            summary,
            findings: Vec::new(),
            skipped: false,
            answered: answered(played),
            never_ran: crashed && python_compile_fix(&played.stderr_text(0)).is_some(),
            explained: false,
            at_first: at_first(played),
            heard: heard(played),
            last_answer: played.replay.steps.iter().rev().find_map(|s| s.replies.first()?.answer.clone()),
            unasked: unasked(played),
            same_as: None,
            timeout: fact().and_then(|f| f.lateness(played)),
            forfeit: me.forfeit.clone(),
        }
    }

    /// The situation `name`, not played: the bot answered nothing in the first, and every other
    /// would only say the same.
    fn skipped(name: String) -> Checked {
        Checked {
            name,
            summary: "not played: fix the first answer first".to_string(),
            findings: Vec::new(),
            skipped: true,
            answered: false,
            never_ran: false,
            explained: false,
            at_first: false,
            heard: Vec::new(),
            last_answer: None,
            unasked: None,
            same_as: None,
            timeout: None,
            forfeit: None,
        }
    }
}

/// The earlier situation of `before` whose timeout `checked` repeats: the same cause (a flood,
/// or the same limit broken doing the same: waiting, or computing), said and counted there once,
/// as the same crash is. (Not the same advice: a bot waiting for input it never gets and one
/// looping get the same one where the limit decides it, a game's budget or its first answer.)
fn same_timeout(checked: &Checked, before: &[Checked]) -> Option<String> {
    let cause = checked.timeout.filter(|_| checked.failed())?;
    let first = before.iter().find(|c| c.timeout == Some(cause) && c.same_as.is_none() && c.failed())?;
    Some(first.name.clone())
}

/// A serious finding as [`same_problem`] compares it: what mistake it shows.
#[derive(Debug, PartialEq, Eq)]
enum Mistake {
    /// A line on stdout that answers no prompt, whatever the referee made of it: a line no
    /// prompt asked for (`extra_output`), or one read as the answer that the game took for
    /// debug output (`malformed`, its fix [`crate::engine::DEBUG_LINE_FIX`]). Which of the two
    /// it was depends on when the line came (a debug line printed after an answer is read as
    /// the next answer, or found waiting before the next prompt): one mistake, whose fix is one
    /// rule (debug output to stderr, one line per prompt), not a change to that line, so its
    /// words do not matter (`going to 3 4`, `going to final`).
    Stray,
    /// Any other: its forfeit, its problem and its fix, numbers left out (the tick, a position).
    Other { forfeit: Option<String>, problem: String, fix: String },
}

impl Mistake {
    /// The mistake of `finding`, one of a situation that forfeited for `forfeit`.
    fn of(forfeit: Option<&str>, finding: &Finding) -> Mistake {
        let stray = match forfeit {
            Some("extra_output") => true,
            Some("malformed") => finding.fix.starts_with(crate::engine::DEBUG_LINE_FIX),
            _ => false,
        };
        if stray {
            return Mistake::Stray;
        }
        let numberless = |text: &str| {
            let mut out = String::with_capacity(text.len());
            for ch in text.chars() {
                if !ch.is_ascii_digit() {
                    out.push(ch);
                } else if !out.ends_with('#') {
                    out.push('#');
                }
            }
            out
        };
        Mistake::Other {
            forfeit: forfeit.map(str::to_string),
            problem: numberless(&finding.problem),
            fix: numberless(&finding.fix),
        }
    }

    /// The mistakes of `checked`'s serious findings.
    fn all(checked: &Checked) -> Vec<Mistake> {
        let forfeit = checked.forfeit.as_deref();
        checked.findings.iter().filter(|f| f.serious).map(|f| Mistake::of(forfeit, f)).collect()
    }
}

/// The earlier situation of `before` whose problem `checked` repeats, when it is neither a crash
/// nor a timeout (each the same by its cause: [`Crash::same`], [`same_timeout`]): the same
/// mistakes ([`Mistake`]), said and counted there once. A stray line on stdout (a debug line
/// before or after every answer, read as a malformed answer in one situation and as a line no
/// prompt asked for in another, or saying other words) is one problem; any other is the same
/// when its kind, its words and its fix are, but for their numbers; a malformed answer with
/// another fix (`MOVE 1`, short of a coordinate) is another problem. (Not when `checked` has a
/// note of its own, which a repeat's one line would hide.)
fn same_problem(checked: &Checked, before: &[Checked]) -> Option<String> {
    let by_cause = matches!(checked.forfeit.as_deref(), Some("crash" | "timeout"));
    if by_cause || !checked.failed() || checked.findings.iter().any(|f| !f.serious) {
        return None;
    }
    let mine = Mistake::all(checked);
    let first = before.iter().find(|c| c.same_as.is_none() && c.failed() && Mistake::all(c) == mine)?;
    Some(first.name.clone())
}

/// The earlier situation of `before` whose timeout or other problem `checked` repeats
/// ([`same_timeout`], [`same_problem`]; a crash is compared on its own, [`Crash::repeats`]):
/// for a game's own situations and for seats alike.
fn repeat_of(checked: &Checked, before: &[Checked]) -> Option<String> {
    same_timeout(checked, before).or_else(|| same_problem(checked, before))
}

/// Adds to `checked` the note of a bot that wrote more to stderr than the arena keeps in the
/// match `played`, unless it or a situation `before` it says so: said once per check.
fn flooded(checked: &mut Checked, played: &PlayedMatch, before: &[Checked]) {
    let dropped = played.dropped(0);
    // (Said by a note, or by a timeout the flood caused, whose fix is the note's.)
    let said = |c: &Checked| {
        c.findings
            .iter()
            .any(|f| f.problem.starts_with(crate::explain::STDERR_CUT) || f.fix == crate::explain::STDERR_FIX)
    };
    if dropped == 0 || said(checked) || before.iter().any(said) {
        return;
    }
    checked.findings.push(Finding {
        problem: crate::explain::stderr_cut(dropped, &played.replay.limits),
        fix: crate::explain::STDERR_FIX.to_string(),
        serious: false,
    });
}

/// What a bot printed in a match: its first answers, then the last lines of its stderr.
fn heard(played: &PlayedMatch) -> Vec<String> {
    let answers = played.replay.steps.iter().filter_map(|s| s.replies.first()?.answer.clone()).take(5);
    let stderr = played.stderr_text(0);
    answers.chain(last_lines(&stderr, 10).iter().map(|l| l.to_string())).collect()
}

/// The line the bot printed that no prompt asked for, where it forfeited so (`extra_output`),
/// when the referee kept it (a line of text).
fn unasked(played: &PlayedMatch) -> Option<String> {
    played.replay.steps.iter().rev().find_map(|s| s.replies.first()?.unasked.clone())
}

/// `line`, a line the bot printed unasked, as a field of a sentence: `` `LINE` `` (escaped and
/// cut as a stray line's row quotes it, [`Checked::stray_line`]).
fn quoted(line: &str) -> String {
    crate::safe_text::quoted(line)
}

/// The last `n` lines of `stderr` that are not blank.
fn last_lines(stderr: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

/// Whether the bot answered a prompt of `played` with a line, text or not: a line that was not
/// text is an answer too, malformed, but no silence (see [`Checked::answered`]).
fn answered(played: &PlayedMatch) -> bool {
    let replay = &played.replay;
    replay.steps.iter().filter_map(|s| s.replies.first()).any(|r| r.answer.is_some())
        || replay.result.players[0].forfeit.as_deref() == Some("malformed")
}

/// Whether the bot forfeited `played` at its first step (see [`Checked::at_first`]).
fn at_first(played: &PlayedMatch) -> bool {
    played.replay.steps.len() <= 1 && played.replay.result.players[0].forfeit.is_some()
}

/// How a bot checked as one game's showed it plays another ([`seems_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// What it printed in the check (its answers, its error) is that game's.
    Printed,
    /// Silent in the check, it answered that game's first prompt in that game's shape.
    Answered,
}

/// The game a checked bot seems to be of, and what showed it.
#[derive(Clone, Copy)]
pub struct Seems<'g> {
    /// The game.
    pub game: &'g dyn Game,
    /// What showed it.
    pub sign: Sign,
}

/// Whether the bot answered no prompt of the check `checked`, for no cause named there: its
/// program ran, and no probe found it slow, unflushed or waiting for the end of its input
/// (a bot of another game, told prompts it cannot read, may be so).
pub fn answered_none(checked: &[Checked]) -> bool {
    checked.iter().all(|c| c.skipped || !c.answered) && !checked.iter().any(|c| c.never_ran || c.explained)
}

/// The game of `games` whose bot `checked` (a check of `command` as a bot of `game`) seems to
/// be: it forfeited at the first step in every situation and printed that game's answers or
/// quoted its header in an error ([`Sign::Printed`]); or, when it answered no prompt at all
/// ([`answered_none`]), it answers the first prompt of exactly one other game, probed once
/// each ([`Sign::Answered`]). None when several games would fit, or none.
pub async fn seems_of<'g>(
    game: &dyn Game,
    checked: &[Checked],
    games: impl IntoIterator<Item = &'g dyn Game>,
    command: &str,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Option<Seems<'g>>, RefereeError> {
    let own = game.info().kit.as_ref().map(|k| k.speaks);
    // Games with a kit other than `game` and its variants (which speak as it does).
    let others: Vec<(&'g dyn Game, Speaks)> = games
        .into_iter()
        .filter(|g| g.name() != game.name() && g.info().bots)
        .filter_map(|g| Some((g, g.info().kit.as_ref()?.speaks)))
        .filter(|(_, speaks)| own != Some(*speaks))
        .collect();
    let theirs = |speaks: &Speaks, line: &str| speaks.is_answer(line) && !own.is_some_and(|o| o.is_answer(line));
    let only = |found: Vec<&'g dyn Game>, sign: Sign| match found[..] {
        [game] => Some(Seems { game, sign }),
        _ => None,
    };
    let played: Vec<&Checked> = checked.iter().filter(|c| !c.skipped).collect();
    if !played.is_empty() && played.iter().all(|c| c.at_first && !c.never_ran) {
        let heard = |speaks: &Speaks| {
            played.iter().flat_map(|c| &c.heard).any(|line| theirs(speaks, line) || speaks.is_quoted(line))
        };
        let found = others.iter().filter(|(_, speaks)| heard(speaks)).map(|(g, _)| *g).collect();
        if let Some(seems) = only(found, Sign::Printed) {
            return Ok(Some(seems));
        }
    }
    if !answered_none(checked) {
        return Ok(None);
    }
    // One short probe per game, at once: the first answer, within the start-up limit.
    let probes = others.iter().map(|&(other, speaks)| async move {
        let answer = first_answer(other, command, sandbox, cancel).await?;
        Ok::<_, RefereeError>(answer.is_some_and(|line| theirs(&speaks, &line)).then_some(other))
    });
    let mut found = Vec::new();
    for probe in futures::future::join_all(probes).await {
        found.extend(probe?);
    }
    Ok(only(found, Sign::Answered))
}

/// The bot's answer to the first prompt of `game`'s first situation (its own, or its first
/// seat against its scripted players), within the start-up limit; the match then ends. None
/// when it gave no line, or `game` has no situation to play.
async fn first_answer(
    game: &dyn Game,
    command: &str,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Option<String>, RefereeError> {
    let limits = probe_limits();
    let played = match checkup_of(game).and_then(|c| (c.situations)().into_iter().next()) {
        Some(situation) => play(game, command, situation.as_ref(), Feed::First, &limits, sandbox, cancel).await?,
        None => match seats::first(game) {
            Some(seat) => play(game, command, &seat, Feed::First, &limits, sandbox, cancel).await?,
            None => return Ok(None),
        },
    };
    Ok(played.replay.steps.first().and_then(|s| s.replies.first()).and_then(|r| r.answer.clone()))
}

/// A situation's one-player state as the bot is fed it: lines go out with CRLF endings when
/// `crlf`, and its stdin is closed after a whole input sent at once when `close_input`; every
/// other [`State`] method is the inner state's ([`Wrapper`]).
struct Fed {
    inner: Box<dyn State>,
    crlf: bool,
    close_input: bool,
    /// Only the first step is played ([`Feed::First`]); `stepped`: it was.
    first_only: bool,
    stepped: bool,
}

impl Fed {
    fn endings(&self, text: String) -> String {
        if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        }
    }
}

impl Wrapper for Fed {
    fn inner(&self) -> &dyn State {
        &*self.inner
    }

    fn inner_mut(&mut self) -> &mut dyn State {
        &mut *self.inner
    }

    fn turn(&self) -> Turn {
        if self.first_only && self.stepped {
            Turn::Terminal
        } else {
            self.inner.turn()
        }
    }

    fn intro(&self, player: PlayerId) -> String {
        self.endings(self.inner.intro(player))
    }

    fn prompt(&self, player: PlayerId) -> String {
        self.endings(self.inner.prompt(player))
    }

    fn input_is_intro(&self) -> bool {
        self.close_input && self.inner.input_is_intro()
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        self.inner.apply(replies);
        self.stepped = true;
    }

    fn is_active(&self, player: PlayerId) -> bool {
        !(self.first_only && self.stepped) && self.inner.is_active(player)
    }
}

/// How a situation's input is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feed {
    /// One prompt at a time, after each answer.
    Interactive,
    /// The first prompt alone: the match ends after the first step (a probe of another game).
    First,
    /// Every prompt at once, the input left open.
    AllOpen,
    /// Every prompt at once, then the end of the input.
    AllClosed,
}

/// Where the doctor plays a bot, as its process sees it: a game's own [`Situation`], or a seat
/// against the game's scripted players (`seats.rs`), so that both go through one [`play`] and
/// one [`first_answer_probe`].
trait Stage: Sync {
    /// The bot's seat, as its command is told.
    fn seat(&self) -> PlayerId;
    /// Whether every line the bot is sent ends in `\r\n`.
    fn crlf(&self) -> bool;
    /// Environment variables the bot runs with.
    fn env(&self) -> Vec<(String, String)>;
    /// A new one-player state (the bot is player 0); `whole_input`: sent all at once.
    fn state(&self, whole_input: bool) -> Result<Box<dyn State>, crate::engine::SetupError>;
}

impl<T: Situation + ?Sized> Stage for T {
    fn seat(&self) -> PlayerId {
        Situation::seat(self)
    }

    fn crlf(&self) -> bool {
        Situation::crlf(self)
    }

    fn env(&self) -> Vec<(String, String)> {
        Situation::env(self)
    }

    fn state(&self, whole_input: bool) -> Result<Box<dyn State>, crate::engine::SetupError> {
        Situation::state(self, whole_input)
    }
}

/// Plays `situation` of `game` with `command` under `limits`.
async fn play<S: Stage + ?Sized>(
    game: &dyn Game,
    command: &str,
    situation: &S,
    feed: Feed,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<PlayedMatch, RefereeError> {
    let whole = matches!(feed, Feed::AllOpen | Feed::AllClosed);
    let inner = Stage::state(situation, whole)?;
    let (crlf, close_input, first_only) = (Stage::crlf(situation), feed == Feed::AllClosed, feed == Feed::First);
    let state = Box::new(Fed { inner, crlf, close_input, first_only, stepped: false });
    let mut bot =
        BotCommand::seated(&BotCommand::display_name(command), command, None, b"check-bot", 1, Stage::seat(situation));
    bot.env = bot_env(situation);
    play_match(game.name(), state, &[bot], limits, 1, sandbox, cancel).await
}

/// A crash, as the doctor compares it with an earlier situation's to say the same crash once:
/// for a game's own situations and for seats alike ([`Crash::same`]).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Crash {
    /// The situation it happened in.
    name: String,
    /// What the bot wrote to stderr.
    stderr: String,
    /// That stderr as compared ([`crash_words`]).
    words: String,
    /// How its process ended, if recorded.
    ended: Option<Ending>,
    /// The steps of its match (its own).
    steps: usize,
    /// The error, the place and every frame of a Python traceback, when a traceback or a panic
    /// names an error and a place.
    site: Option<(String, String, String)>,
}

impl Crash {
    /// The crash of the bot that played `stage` (its situation `name`) in the match `played`.
    fn of<S: Stage + ?Sized>(stage: &S, name: &str, played: &PlayedMatch) -> Crash {
        let stderr = played.stderr_text(0);
        let header = Stage::state(stage, false)
            .ok()
            .and_then(|s| s.intro(Stage::seat(stage)).lines().next().map(str::to_string));
        let words = crash_words(&stderr, header.as_deref());
        // (The place alone may be a library's line, reached from two places of the bot's:
        // every frame of a Python traceback is compared.)
        let frames: Vec<&str> = stderr.lines().map(str::trim).filter(|l| l.starts_with("File \"")).collect();
        let site = StderrEnd::of(&stderr).and_then(|end| Some((end.error?, end.place?, frames.join("\n"))));
        let (ended, steps) = (crash_ending(&played.replay), played.replay.steps.len());
        Crash { name: name.to_string(), stderr, words, ended, steps, site }
    }

    /// Whether it is the crash `seen`, of an earlier situation, with the same cause (a bot that
    /// misreads every header is no CRLF or power-up problem, nor one of seat 2): the same error,
    /// on the same line of the bot's code, by the same calls (at any step: each seat's turns come
    /// at steps of their own); or the same stderr; or the same once each situation's header is
    /// left out (a bot of another game that quotes it), ended alike at the same step. Two that
    /// said nothing are the same only when the same signal killed the bot in both, or it exited
    /// alike at the same step (a bot that quits after its third answer everywhere); two that say
    /// different things are not, whatever their exit status (every uncaught Python exception
    /// exits with 1).
    fn same(&self, seen: &Crash) -> bool {
        let said = !self.stderr.trim().is_empty();
        let ended_alike = self.ended.is_some() && self.ended == seen.ended;
        (self.site.is_some() && self.site == seen.site)
            || (said && self.stderr == seen.stderr)
            || (said && self.words == seen.words && ended_alike && self.steps == seen.steps)
            || (!said
                && seen.stderr.trim().is_empty()
                && ended_alike
                && (self.steps == seen.steps || matches!(self.ended, Some(Ending::Signal(_)))))
    }

    /// The earlier situation of `crashes` (each a crash said there) whose crash this one repeats.
    fn repeats<'a>(&self, crashes: &'a [Crash]) -> Option<&'a str> {
        crashes.iter().find(|seen| self.same(seen)).map(|seen| seen.name.as_str())
    }
}

/// A crash's stderr as compared with another situation's: the first line the bot was sent
/// (`header`, each situation's own) and carriage returns left out, so that a bot that quotes the
/// header it cannot read crashes alike everywhere, and two different errors do not.
fn crash_words(stderr: &str, header: Option<&str>) -> String {
    let stderr = stderr.replace('\r', "");
    match header.map(str::trim).filter(|h| !h.is_empty()) {
        Some(header) => stderr.replace(header, "\0header\0"),
        None => stderr,
    }
}

/// The last lines the bot wrote to stderr, for a crash report.
fn last_words(stderr: &str) -> String {
    let tail: Vec<String> = last_lines(stderr, 3).into_iter().map(crate::safe_text::terminal).collect();
    if tail.is_empty() {
        " It wrote nothing to stderr.".to_string()
    } else {
        format!(" Its last words on stderr:\n      {}", tail.join("\n      "))
    }
}

/// What is wrong with the bot's program file itself, when it is a script the system cannot run
/// as meant, as a bot run with `command` in `folder` (or the current folder) that sees `sight`
/// runs it: what would keep it from starting ([`crate::referee::start::trouble`], the referee's
/// and a league's check: a `#!` line with Windows line endings or naming an interpreter the bot
/// does not have, a script an interpreter is given that is not there), or a script without a
/// `#!` line (the system hands it to `/bin/sh`, whose errors about `import` say nothing useful).
fn program_problem(command: &str, folder: Option<&std::path::Path>, sight: &Sight) -> Option<String> {
    let words = shell_words::split(command).ok()?;
    if let Some(trouble) = crate::referee::start::trouble(&words, folder, sight) {
        return Some(trouble);
    }
    let program = words.first().filter(|p| p.contains('/'))?;
    let head = crate::files::regular_head(&folder.unwrap_or(std::path::Path::new(".")).join(program), 512)?;
    let head = head.as_slice();
    if head.starts_with(b"\x7fELF") || head.starts_with(b"#!") {
        return None;
    }
    let shown = crate::safe_text::terminal(program);
    // (In a command to copy: quoted as one word where it needs to be.)
    let word = crate::safe_text::shell_word(program);
    // (A shell script needs no `#!`: `/bin/sh` is what runs it anyway. Nor does a file of
    // another kind the fix could be sure of.)
    let interpreter = match crate::sandbox::interpreter_by_extension(std::path::Path::new(program)) {
        Some(shell) if shell == "sh" || shell == "bash" => return None,
        Some(interpreter) => interpreter,
        None => return None,
    };
    Some(format!(
        "`{shown}` does not start with a `#!` line, so the system ran it with `/bin/sh`: make its first line \
         `#!/usr/bin/env {interpreter}`, or run it through its interpreter: `\"{interpreter} {word}\"`"
    ))
}

/// The fix for a Python program that did not compile, when `stderr` ends with Python's error
/// for one (`SyntaxError: …`), naming the line it names (`File "bot.py", line 20`).
fn python_compile_fix(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let last = lines.last()?;
    if !["SyntaxError:", "IndentationError:", "TabError:"].iter().any(|e| last.starts_with(e)) {
        return None;
    }
    let at =
        lines.iter().rev().find(|l| l.starts_with("File \"")).map_or("the line its error names".to_string(), |l| {
            format!("the error at {}", crate::safe_text::terminal(l))
        });
    Some(format!(
        "Python could not compile your program, so it never ran: fix {at}, then `python3 -m py_compile` on your \
         files says whether any error is left, without the arena"
    ))
}

/// The fix for a Python bot whose `multiprocessing` could not make a semaphore (its `stderr`
/// ends in `PermissionError` in `multiprocessing/synchronize.py`): a bot without a box may not
/// write `/dev/shm`, where glibc makes POSIX semaphores (it is shared with every process of the
/// bot's user, so it is not opened to it; a box has one of its own).
fn semaphore_fix(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let (last, before) = lines.split_last()?;
    let semaphore = |l: &&str| l.starts_with("File \"") && l.contains("multiprocessing/synchronize.py\"");
    (last.starts_with("PermissionError") && before.iter().any(semaphore)).then(|| {
        "Python's multiprocessing (a Pool, a Queue, a Lock) needs POSIX semaphores, which live in /dev/shm, and a \
         bot without a box (`--sandbox plain`, or `auto` where no box can be made) may write only its own scratch \
         folder: use threads (`threading`, `concurrent.futures.ThreadPoolExecutor`) or child processes without \
         multiprocessing's locks (`subprocess`), or play where boxes can be made (a box has a /dev/shm of its own)"
            .to_string()
    })
}

/// How the bot of a one-bot game that crashed ended (a signal, an exit status), if recorded.
fn crash_ending(replay: &Replay) -> Option<Ending> {
    replay.steps.iter().rev().find_map(|s| s.replies.first())?.failure?.ending()
}

/// What to do about a bot killed by the signal of `ended`, when it is one a program's own fault
/// sends (not the arena's limits, which are forfeits of their own), for any game: `hand` says
/// how to run the bot by hand on its input, `bounds` what bounds an array index.
fn signal_fix(ended: Ending, hand: &ByHand, bounds: &str) -> Option<String> {
    let Ending::Signal(sig) = ended else { return None };
    let (run, gdb) = (hand.run(), hand.under_gdb());
    Some(match sig {
        libc::SIGSEGV | libc::SIGBUS => format!(
            "find the invalid memory access: check every array index against {bounds} and every pointer before \
             you use it; C/C++: build it with `-g -fsanitize=address,undefined`, then {run}: the sanitizer names \
             the line"
        ),
        libc::SIGABRT => format!(
            "read its stderr for the assert that failed or the exception's message (C++: `std::out_of_range` from \
             `.at()` is an index out of bounds; `std::bad_alloc`, memory); to see where, {gdb}"
        ),
        libc::SIGFPE => format!(
            "find the division or the `%` by a value that can be 0 (a count, a distance, a number of steps left): \
             test it before you divide; to see where, {gdb}"
        ),
        _ => format!("to see where it stops, {run} (C/C++: {gdb})"),
    })
}

/// The most bytes of input a fix pastes (`printf '…' | ./bot`): a bot that misreads its input
/// dies on its first lines, far fewer.
const MOST_PASTED: usize = 1000;

/// How to run a bot by hand on its input, in a fix: its command as one pastes it in a shell
/// (with the environment it ran with, in its folder), and the lines it was sent, where the
/// doctor has them and they are few enough to paste; else which lines to paste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByHand {
    /// The environment it runs with, as a command's prefix: `RR_MODE=test `.
    env: String,
    /// Its command, as given.
    command: String,
    /// Its folder, quoted for a shell, where it is not the current one.
    folder: Option<String>,
    /// `printf '…'`: the lines it was sent.
    feed: Option<String>,
    /// What to paste without them: "the header and TICK lines".
    paste: String,
}

impl ByHand {
    /// The bot `command`, run in `folder` (the current one where `None`) with `env`, sent
    /// `input` (`None`: not known; not pasted past [`MOST_PASTED`] bytes), for a game whose
    /// input is `paste` in words.
    pub fn new(
        command: &str,
        folder: Option<&std::path::Path>,
        env: &[(String, String)],
        input: Option<&str>,
        paste: &str,
    ) -> ByHand {
        use crate::safe_text::shell_word;
        ByHand {
            env: env.iter().map(|(k, v)| format!("{k}={} ", shell_word(v))).collect(),
            command: command.to_string(),
            folder: folder.map(|dir| shell_word(&dir.display().to_string())),
            feed: input.filter(|i| i.len() <= MOST_PASTED).map(printf),
            paste: paste.to_string(),
        }
    }

    /// `line`, run in the bot's folder (in a subshell, which leaves the shell where it was).
    fn within(&self, line: String) -> String {
        match &self.folder {
            Some(dir) => format!("(cd {dir} && {line})"),
            None => line,
        }
    }

    /// How to run it by hand: "run it by hand on the lines it was sent here, `printf '…' |
    /// ./bot`", or with the lines to paste.
    pub fn run(&self) -> String {
        let (env, command) = (&self.env, &self.command);
        match &self.feed {
            Some(feed) => {
                format!(
                    "run it by hand on the lines it was sent here, `{}`",
                    self.within(format!("{feed} | {env}{command}"))
                )
            }
            None => format!("run it by hand, `{}`, and paste {}", self.within(format!("{env}{command}")), self.paste),
        }
    }

    /// How to see where it stops under `gdb` (a compiled program): on the lines it was sent,
    /// written to a file first (`gdb` reads its own commands on its input).
    fn under_gdb(&self) -> String {
        const FILE: &str = "check-bot-input.txt";
        let (env, command) = (&self.env, &self.command);
        match &self.feed {
            Some(feed) => format!(
                "run it under `gdb` on the lines it was sent here, `{}` (`bt` shows where it stopped)",
                self.within(format!("{feed} > {FILE} && {env}gdb -batch -ex 'run < {FILE}' -ex bt --args {command}"))
            ),
            None => format!(
                "run it under `gdb`, `{}`, paste {} and type `bt` where it stops",
                self.within(format!("{env}gdb -ex run --args {command}")),
                self.paste
            ),
        }
    }
}

/// `printf '…'`, which writes `input` exactly (a line ending `\r\n` too), as a shell reads it.
fn printf(input: &str) -> String {
    let mut out = String::from("printf '");
    for ch in input.chars() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            '%' => out.push_str("%%"),
            '\'' => out.push_str("'\\''"),
            c if c.is_control() => {
                let mut bytes = [0; 4];
                for b in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// What the bot of the match `played` of `stage` was sent, up to its last prompt: rebuilt from
/// a new state of it, fed the bot's recorded answers (the other seats' are scripted, the same
/// each time). `None` past [`MOST_PASTED`] bytes, or where it cannot be rebuilt.
fn input_sent<S: Stage + ?Sized>(stage: &S, played: &PlayedMatch) -> Option<String> {
    let inner = Stage::state(stage, false).ok()?;
    let mut state: Box<dyn State> =
        Box::new(Fed { inner, crlf: Stage::crlf(stage), close_input: false, first_only: false, stepped: false });
    let mut text = String::new();
    for (i, step) in played.replay.steps.iter().enumerate() {
        if let Some(outcome) = step.chance {
            state.apply_chance(outcome);
            continue;
        }
        // (As the referee sends it: the intro before the first prompt.)
        if i == 0 {
            text.push_str(&state.intro(0));
        }
        text.push_str(&state.prompt(0));
        if text.len() > MOST_PASTED {
            return None;
        }
        let reply = step.replies.first()?;
        state.apply(&[(0, reply.reply())]);
    }
    Some(text)
}

/// The environment the bot runs with on `stage`: the protocol's (`ARENA_PLAYER`, `ARENA_SEED`)
/// and the stage's own (`RR_MODE=test`).
fn bot_env<S: Stage + ?Sized>(stage: &S) -> Vec<(String, String)> {
    let mut env = BotCommand::seated("", "", None, b"check-bot", 1, Stage::seat(stage)).env;
    env.extend(Stage::env(stage));
    env
}

/// How to run the bot `command` by hand as it ran on `stage` in `played`, for a game whose
/// input is `paste` in words.
fn by_hand<S: Stage + ?Sized>(stage: &S, command: &str, played: &PlayedMatch, paste: &str) -> ByHand {
    ByHand::new(command, None, &bot_env(stage), input_sent(stage, played).as_deref(), paste)
}

/// What the check had seen when it judged a situation.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    /// How many prompts the bot answered in the situations played before with lines ending in
    /// `\n` (the most in one): a bot idle in a CRLF situation where it answered the same prompt
    /// with `\n` waits on a line it does not recognise for its `\r`.
    lf_answers: usize,
    /// Whether the machine was found overloaded ([`crate::referee::overload_seen`]): a bot that
    /// computed but was ended on the clock with less CPU time than its limit was starved.
    overloaded: bool,
}

/// Reads what happened in one situation of `game`: the process's doing (silence, a crash, a
/// line unasked for) in the `checkup`'s words, the rest as the game's rules judge it.
/// `seen`: what the situations played before showed.
fn diagnose(
    game: &dyn Game,
    checkup: &Checkup,
    situation: &dyn Situation,
    command: &str,
    played: &PlayedMatch,
    limits: &Limits,
    seen: Seen,
) -> Checked {
    let replay = &played.replay;
    let me = &replay.result.players[0];
    let ticks = replay.steps.len();
    let replies: Vec<_> = replay.steps.iter().filter_map(|s| s.replies.first()).collect();
    let facts = Played {
        score: me.score,
        finished: me.finished,
        forfeit: me.forfeit.as_deref(),
        detail: me.detail.as_deref(),
        steps: ticks,
        answers: replies.iter().map(|r| r.answer.as_deref()).collect(),
        frames: std::iter::once(&replay.initial).chain(replay.steps.iter().map(|s| &s.frame)).collect(),
    };
    let summary = situation.summary(&facts);
    let serious = |problem: String, fix: String| Finding { problem, fix, serious: true };
    let t = ticks.max(1);
    let (prompt, header, step) = (checkup.prompt, checkup.header, game.info().wording.step);
    let context = situation.context();
    // The limit the referee applied to the answer that never came, and which it was.
    let applied = forfeit_facts(replay).into_iter().find(|f| f.player == 0 && f.reason == "timeout");
    let limit_of = |default: Duration| applied.as_ref().and_then(|f| f.limit_ms).unwrap_or(default.as_millis() as u64);
    // A timeout that its flood of stderr most likely made: no flush or loop is to blame.
    let flood = applied.as_ref().and_then(|f| Some((f, f.flood_in(played)?)));
    let finding = match me.forfeit.as_deref() {
        Some("timeout") if flood.is_some() => flood.map(|(fact, flood)| {
            let said = fact.flood_sentence(&game.info().wording, "your bot", &flood);
            serious(format!("{}{context}", said.trim_end_matches('.')), crate::explain::STDERR_FIX.to_string())
        }),
        Some("timeout") => {
            let first = t == 1;
            let at = if first { format!("{header}`{prompt} 1`") } else { format!("`{prompt} {t}`") };
            let limit_ms = limit_of(if first { limits.startup } else { limits.per_move });
            let backstop_ms = applied.as_ref().and_then(|f| f.backstop_ms).unwrap_or(limit_ms);
            let last = replies.last();
            let (ms, cpu) = (last.map_or(0, |r| r.ms), last.and_then(|r| r.cpu_ms));
            let in_ = counted(limits);
            Some(if applied.as_ref().and_then(|f| f.limit) == Some(LimitKind::Total) {
                // What the game's budget counted: CPU time, or time on the clock.
                let (used, budget): (u64, String) = match limits.clock {
                    ClockKind::Cpu => (
                        replies
                            .iter()
                            .map(|r| {
                                crate::engine::Answer::counted_cpu(r.cpu_ms.map(Duration::from_millis)).as_millis()
                                    as u64
                            })
                            .sum(),
                        "CPU time for the game's answers".to_string(),
                    ),
                    ClockKind::Wall => (replies.iter().map(|r| r.ms).sum(), "answer time for the game".to_string()),
                };
                let total = limits.total.as_millis() as u64;
                serious(
                    format!(
                        "your bot used up its {total} ms of {budget} ({used} ms over {t} answers; {limit_ms} ms were \
                         left for the last)"
                    ),
                    format!("think less per {step}: the whole game's answers must fit in that budget"),
                )
            } else if situation.crlf()
                && seen.lf_answers >= t
                && cpu.is_some_and(|cpu| Activity::of(cpu, ms) == Activity::Idle)
            {
                // Idle where it answered the same prompt with lines ending in `\n`: waiting for a
                // line it does not recognise with its `\r` left on, not an unflushed answer.
                serious(
                    format!(
                        "your bot printed nothing for {} after {at}{context}, using only {} ms of CPU time: it \
                         was still waiting for input, yet it answered `{prompt} {t}` {CRLF_WAIT}. It most likely \
                         compares the lines it reads with the `\\r` left on their end, so it never recognises the \
                         line it waits for",
                        silent_for(limits, limit_ms, backstop_ms),
                        cpu.unwrap_or(0)
                    ),
                    situation.crash_fix().0.to_string(),
                )
            } else if let Some(cpu) = cpu.filter(|&cpu| {
                seen.overloaded
                    && applied.as_ref().is_some_and(|f| f.backstopped())
                    && Activity::of(cpu, ms) == Activity::Computing
            }) {
                // Computing, yet ended by the backstop under its limit of CPU time, on a machine
                // found overloaded: it ran too little to tell a loop from an answer on its way. (Not
                // otherwise: 300 ms of work then a wait for input is no starved bot.)
                serious(
                    format!(
                        "your bot computed for {cpu} ms of CPU time after {at}{context} and printed nothing in {}: \
                         less than the {limit_ms} ms of CPU time an answer may take, as the machine was too busy to \
                         run it more",
                        silent_for(limits, limit_ms, backstop_ms)
                    ),
                    STARVED_FIX.to_string(),
                )
            } else if applied.as_ref().is_some_and(|f| f.backstopped()) {
                // On the CPU clock, ended by the wall-clock backstop: not computing, whatever
                // share of its time it computed.
                serious(
                    format!(
                        "your bot printed nothing for {} after {at}{context}, using only {} ms of CPU time: did you \
                         flush stdout?",
                        silent_for(limits, limit_ms, backstop_ms),
                        cpu.unwrap_or(0)
                    ),
                    format!(
                        "{FLUSH} If it was waiting for input or sleeping: an answer ends after {backstop_ms} ms on the \
                         clock, whatever its CPU time."
                    ),
                )
            } else if let Some(cpu) = cpu.filter(|&cpu| {
                // Computing for a good part of the time it took (the box's CPU time is recorded
                // on the wall clock too): a loop that does not end or a slow search, not an
                // answer waiting in a buffer or a bot waiting for input, which use next to none.
                Activity::of(cpu, ms) == Activity::Computing
            }) {
                // The figure said is on the clock whose limit is said: on the wall clock, a loop
                // on a loaded machine may have had a third of its time on a CPU.
                let ran = match limits.clock {
                    ClockKind::Cpu => format!("computed for {cpu} ms of CPU time"),
                    ClockKind::Wall => format!("ran for {ms} ms on the clock ({cpu} ms of CPU time)"),
                };
                serious(
                    format!(
                        "your bot {ran} after {at}{context} and printed nothing: a loop that never ends at this \
                         {step}, or a search too slow for the {limit_ms} ms{in_} an answer may take"
                    ),
                    loop_fix(&game.info().wording, limit_ms),
                )
            } else if first {
                serious(
                    format!("your bot printed nothing for {limit_ms} ms after {at}{context}"),
                    format!("answer every {prompt} at once with one line, then {FLUSH}"),
                )
            } else {
                serious(
                    format!("your bot printed nothing for {limit_ms} ms after {at}{context}: did you flush stdout?"),
                    format!("{FLUSH} If it was still thinking: each answer must come within {limit_ms} ms{in_}."),
                )
            })
        }
        Some("crash") => {
            let when = if replies.iter().all(|r| r.answer.is_none()) {
                format!("before answering `{prompt} 1`")
            } else {
                format!("after answering `{prompt} {}`", t - 1)
            };
            let (fix, its_own) = situation.crash_fix();
            let stderr = &played.stderr_text(0);
            // Python's own error for a program it could not compile: it never ran, so nothing
            // about reading the input applies.
            // (Nor does it where Python's multiprocessing could not make its semaphores: no box.)
            let compile_fix = python_compile_fix(stderr).or_else(|| semaphore_fix(stderr));
            let fix = compile_fix.as_deref().unwrap_or(fix);
            let ended = crash_ending(replay);
            let what = ended.map_or_else(|| "exited (or closed stdout)".to_string(), Ending::clause);
            let good = replies.iter().filter(|r| r.answer.is_some()).count();
            let hand = by_hand(situation, command, played, game.info().wording.input);
            if let Some(end) = own_error(stderr, good).filter(|_| compile_fix.is_none()) {
                // An error in its own logic after good answers: the input was read, so no
                // advice on reading it fits.
                return Checked {
                    findings: vec![serious(
                        format!(
                            "your bot {what} {when}{context}, on an error in its own code{}: `{}`",
                            match good {
                                0 => String::new(),
                                1 => " after 1 good answer".to_string(),
                                n => format!(" after {n} good answers"),
                            },
                            crate::safe_text::terminal(&end.said)
                        ),
                        own_error_fix(&end, &format!("`{prompt} {t}`"), t, step, &hand, SeeAgain::InADuel),
                    )],
                    explained: true,
                    ..Checked::played(situation.name().to_string(), summary, played)
                };
            }
            // Killed by a signal: a fault in the program itself, which the fix for it finds,
            // after the situation's own cause where it has one.
            let fix = match (ended.and_then(|e| signal_fix(e, &hand, bounds_of(game))), its_own) {
                (Some(signal), true) => format!("{fix}: a bot that misreads its input often dies so; then {signal}"),
                (Some(signal), false) => signal,
                (None, _) if compile_fix.is_some() => fix.to_string(),
                (None, _) => format!("{fix}; to see where it stops, {}", hand.run()),
            };
            Some(serious(format!("your bot {what} {when}{context}.{}", last_words(stderr)), fix))
        }
        Some("extra_output") => {
            let when = if t == 1 {
                format!("before the first {prompt} (a greeting or a debug line?)")
            } else {
                format!("that no {prompt} asked for, after answering `{prompt} {}`", t - 1)
            };
            // The line itself, where the referee kept it (a line of text).
            let line = unasked(played).map_or(String::new(), |l| format!(", {},", quoted(&l)));
            Some(serious(format!("your bot printed a line{line} {when}"), one_line_fix(prompt)))
        }
        _ => None,
    };
    let findings = match finding {
        Some(finding) => vec![finding],
        None => situation.findings(&facts, limits),
    };
    Checked { findings, ..Checked::played(situation.name().to_string(), summary, played) }
}

/// Where the stderr of a bot that crashed after `good` good answers says it failed in its own
/// code: a traceback or a panic that names its place, not while reading the input
/// ([`StderrEnd::at_input`]). None before its first answer (a bot that cannot read its input
/// dies there), unless a starter kit read the input and called the code that failed
/// ([`StderrEnd::past_the_kit`]).
fn own_error(stderr: &str, good: usize) -> Option<StderrEnd> {
    let end = StderrEnd::of(stderr)?;
    ((good > 0 || end.past_the_kit(stderr)) && end.place.is_some() && !end.at_input()).then_some(end)
}

/// Where a bot that crashed can see the state it crashed in again, for [`own_code_fix`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeeAgain<'a> {
    /// In a duel of its own (check-bot keeps no replay).
    InADuel,
    /// In this duel again, without `--no-replay` (it kept none).
    WithReplay,
    /// In this duel's replay, shown by the command (`arena replay r.json`).
    Replay(&'a str),
}

/// The fix for a bot that stopped on an error of its own (`end`) at `prompt_at` (`` `TICK 5` ``,
/// the `at`th step), in a game of `step`s, which one runs by hand as `hand` says: the line it
/// names, and how to see the state it was in again (`again`).
fn own_error_fix(end: &StderrEnd, prompt_at: &str, at: usize, step: &str, hand: &ByHand, again: SeeAgain) -> String {
    let by_hand = hand.run();
    let place = end
        .place
        .as_deref()
        .map_or(String::new(), |p| format!(" ({})", crate::safe_text::terminal(&crate::safe_text::shorten(p, 200))));
    // The state it answered: the one after the step before.
    let before = at.saturating_sub(1);
    let again = match again {
        SeeAgain::InADuel => {
            format!("play a duel (it keeps a replay: `arena replay FILE --tick N` shows the state after {step} N)")
        }
        SeeAgain::WithReplay => {
            format!("play it again without `--no-replay`: `arena replay FILE --tick {before}` then shows it")
        }
        SeeAgain::Replay(command) => format!("`{command} --tick {before}` shows it"),
    };
    // (Before its first answer, only a starter kit's loop vouches for the input read.)
    let read = if at > 1 {
        "it read its input and answered well until then"
    } else {
        "the starter kit read its input and called your code"
    };
    format!(
        "{read}, so the input is not to blame: fix the line the error names{place} for the state it was in at \
         {prompt_at}. To see that state again, {again}, or {by_hand}, and print what your bot sees to stderr"
    )
}

/// The fix for a bot of `game` that crashed at `step` (1-based) on an error in its own code,
/// after `good` good answers, as its `stderr` ends: the line its error names, and how to see
/// that state again (`again`, or by hand as `hand` says). What check-bot says, and `arena duel`
/// too. None when the error is not its own code's (no place named, met reading the input, or
/// before its first answer).
pub fn own_code_fix(
    game: &dyn Game,
    hand: &ByHand,
    stderr: &str,
    good: usize,
    step: usize,
    again: SeeAgain,
) -> Option<String> {
    let end = own_error(stderr, good)?;
    let words = &game.info().wording;
    let prompt_at = match checkup_of(game) {
        Some(checkup) => format!("`{} {step}`", checkup.prompt),
        None => format!("{} {step}", words.step),
    };
    Some(own_error_fix(&end, &prompt_at, step, words.step, hand, again))
}

/// What is wrong with the program of a bot `command`, run in `folder` (or the current folder)
/// by a bot that sees `sight`, that crashed writing `stderr`, when it never ran as meant: a
/// script without `#!` or with Windows line endings, a script not found in its folder, a
/// Python program that did not compile. What `arena duel` says of a crash too.
pub fn program_fix(command: &str, folder: Option<&std::path::Path>, sight: &Sight, stderr: &str) -> Option<String> {
    program_problem(command, folder, sight).or_else(|| python_compile_fix(stderr)).or_else(|| semaphore_fix(stderr))
}

/// How the first-answer probe's findings name what a bot is sent, and its fixes for a silent bot.
struct FirstPrompt {
    /// The first prompt, quoted: "`TICK 1`", "the first ROUND prompt".
    first: String,
    /// What the bot was sent up to it: "the header and `TICK 1`".
    after: String,
    /// Many prompts: "TICK lines", "ROUND prompts".
    many: String,
    /// The fix for a bot silent from the start, neither unflushed nor reading to the end of its input.
    never_answered: String,
    /// The fix for a bot that answers only once its input ends (`{bot}` for its command).
    end_of_input: String,
}

impl FirstPrompt {
    /// The words of a game's own `checkup`.
    fn of(checkup: &Checkup) -> FirstPrompt {
        let first = format!("`{} 1`", checkup.prompt);
        FirstPrompt {
            after: format!("{}{first}", checkup.header),
            first,
            many: format!("{} lines", checkup.prompt),
            never_answered: checkup.never_answered.to_string(),
            end_of_input: checkup.end_of_input.to_string(),
        }
    }

    /// Words that fit any game, from its `wording` (its prompt, its input).
    fn of_wording(words: &crate::engine::Wording) -> FirstPrompt {
        let prompt = words.prompt;
        let first = format!("the first {prompt}");
        FirstPrompt {
            after: first.clone(),
            first,
            many: format!("{prompt}s"),
            never_answered: format!(
                "answer each {prompt} as soon as it arrives, with one line (a bot that waits for the end of its \
                 input never answers), and flush stdout after every answer"
            ),
            end_of_input: format!(
                "each {prompt} comes only after your answer to the last: read one line at a time and answer each \
                 {prompt} as soon as its last line arrives (and flush stdout), without waiting for the end of the \
                 input"
            ),
        }
    }
}

/// When the very first answer never came, in the `first` situation: tells a slow start-up from
/// unflushed output, and a loop (busy, silent) from a bot waiting for the end of its input (idle,
/// silent), the last two by the `idle` situation's probes ([`silence`]). For any game. With the
/// finding, whether it named a cause that shows the bot answers these prompts (see
/// [`Checked::explained`]): a slow start, unflushed output, waiting for the end of its input; not a
/// loop (a bot misreading another game's input may spin) nor a silence left unexplained. A bot
/// that computed, but less than the limit before the clock ended it on a machine found
/// `overloaded`, was starved: told so, to run the check again.
#[allow(clippy::too_many_arguments)]
async fn first_answer_probe<S: Stage + ?Sized, I: Stage + ?Sized>(
    game: &dyn Game,
    words: &FirstPrompt,
    first: &S,
    idle: &I,
    command: &str,
    judged: &PlayedMatch,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
    overloaded: bool,
) -> Result<(Finding, bool), RefereeError> {
    let first_reply = |played: &PlayedMatch| played.replay.steps.first().and_then(|s| s.replies.first()).cloned();
    let startup = limits.startup.as_millis() as u64;
    // A bot given PATIENCE on the clock or more in the match judged (the CPU clock's backstop,
    // 5x the limit, when it was idle) is not played again: it would only wait as long once more.
    // Otherwise it is given PATIENCE on the clock that judged it (on the CPU clock, a bot that
    // computed past the limit: PATIENCE of CPU time, however loaded the machine).
    let patience = PATIENCE.as_millis() as u64;
    let judged_first = first_reply(judged).filter(|r| r.ms >= patience && r.cpu_ms.is_some_and(|cpu| cpu < startup));
    let on_the_clock = |backstop: Duration| format!("{} s on the clock", backstop.as_secs());
    let (reply, waited) = match judged_first {
        Some(reply) => (Some(reply), on_the_clock(limits.backstop(limits.startup, Duration::ZERO))),
        None => {
            let patient = Limits { startup: PATIENCE, total: PATIENCE + limits.total, ..*limits };
            let played = play(game, command, first, Feed::Interactive, &patient, sandbox, cancel).await?;
            let reply = first_reply(&played);
            // (On the CPU clock, its backstop may have ended it first.)
            let backstopped = reply.as_ref().and_then(|r| r.cpu_ms).is_some_and(|cpu| cpu < patience);
            let waited = match limits.clock {
                ClockKind::Wall => format!("{} s", PATIENCE.as_secs()),
                ClockKind::Cpu if backstopped => on_the_clock(patient.backstop(PATIENCE, Duration::ZERO)),
                ClockKind::Cpu => format!("{} s of CPU time", PATIENCE.as_secs()),
            };
            (reply, waited)
        }
    };
    let in_ = counted(limits);
    if let Some(reply) = reply {
        // Silent but busy all along: a loop at the first prompt (or before), not a bot waiting
        // for the end of its input or for a flush, which use next to no CPU time.
        let busy =
            reply.cpu_ms.filter(|&cpu| reply.answer.is_none() && Activity::of(cpu, reply.ms) == Activity::Computing);
        // On the CPU clock, ended on the clock with less CPU time than its first answer may
        // take: the machine starved it (it was told it "computed for 1166 ms … too slow for the
        // first answer (2000 ms of CPU time …)"), and whether it loops is not known.
        if let Some(cpu) = busy.filter(|&cpu| overloaded && limits.clock == ClockKind::Cpu && cpu < startup) {
            return Ok((
                Finding {
                    problem: format!(
                        "your bot computed for {cpu} ms of CPU time after {} and printed nothing in {waited}: less \
                         than the {startup} ms of CPU time its first answer may take, as the machine was too busy \
                         to run it more",
                        words.after,
                    ),
                    fix: STARVED_FIX.to_string(),
                    serious: true,
                },
                true,
            ));
        }
        if let Some(cpu) = busy {
            return Ok((
                Finding {
                    problem: format!(
                        "your bot computed for {cpu} ms of CPU time after {} and printed nothing, not even in {waited}: a \
                     loop that never ends, or work far too slow for the first answer ({startup} ms{in_}, start-up \
                     included)",
                        words.after,
                    ),
                    fix: loop_fix(&game.info().wording, startup),
                    serious: true,
                },
                false,
            ));
        }
        if reply.answer.is_some() {
            // Said on the clock that judged it: on the CPU clock, the CPU time the match judged
            // used without answering (given longer, it answered).
            let judged_cpu = first_reply(judged).and_then(|r| r.cpu_ms).filter(|_| limits.clock == ClockKind::Cpu);
            let problem = match judged_cpu {
                Some(cpu) => format!(
                    "your bot used {cpu} ms of CPU time without answering {}, but the first answer may take {startup} \
                     ms of CPU time, start-up included (given longer, it answered after {} ms of CPU time)",
                    words.first,
                    reply.cpu_ms.unwrap_or(0)
                ),
                None => format!(
                    "your bot took {} ms to answer {}, but the first answer must come within {startup} ms, start-up \
                     included",
                    reply.ms, words.first
                ),
            };
            return Ok((Finding { problem, fix: STARTUP_FIX.to_string(), serious: true }, true));
        }
    }
    let silent = silence(game, command, idle, sandbox, cancel).await?;
    // How long the match judged waited: its first answer's backstop (the limit, on the wall clock).
    let judged_ms = limits.backstop(limits.startup, Duration::ZERO).as_millis() as u64;
    let finding = match silent {
        Silence::Buffered => Finding {
            problem: format!(
                "your bot printed nothing for {} after {}, yet when sent thousands of {} at once its answers \
                 arrived in a burst: it does not flush stdout, so its answers wait in its output buffer",
                silent_for(limits, startup, judged_ms),
                words.first,
                words.many
            ),
            fix: FLUSH.to_string(),
            serious: true,
        },
        Silence::EndOfInput => Finding {
            problem: format!(
                "your bot printed nothing after {}, not even in {}, nor when sent thousands of {} at once, but \
                 answered once its input ended: it waits for the end of its input",
                words.after, waited, words.many
            ),
            fix: words.end_of_input.replace("{bot}", &crate::safe_text::shell_word(command)),
            serious: true,
        },
        Silence::NoNewline => Finding {
            problem: format!(
                "your bot ended no line after {}, not even in {}, and when sent thousands of {} at once it wrote \
                 one line longer than any answer: its answers end in no newline, so the arena, which reads a \
                 line per answer, still waits for the first to end",
                words.after, waited, words.many
            ),
            fix: NEWLINE.to_string(),
            serious: true,
        },
        Silence::Unknown => Finding {
            problem: format!("your bot printed nothing after {}, not even in {waited}", words.after),
            fix: words.never_answered.clone(),
            serious: true,
        },
    };
    Ok((finding, silent != Silence::Unknown))
}

/// Why a bot gave its first answer neither in time nor later, while idle: two probes on the
/// `game`'s idle situation, where it can only wait, for thousands of steps, all sent at once.
/// With its input left open, answers arriving in a burst were waiting in its output buffer,
/// and one line longer than any answer instead means its answers end in no newline; with none,
/// answers that come once its input ends mean it reads all of its input before it answers. Not
/// known for a game without situations of its own.
pub async fn why_silent(
    game: &dyn Game,
    command: &str,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Silence, RefereeError> {
    let Some(checkup) = checkup_of(game) else { return Ok(Silence::Unknown) };
    silence(game, command, (checkup.idle)().as_ref(), sandbox, cancel).await
}

/// [`why_silent`] on the `idle` situation of any game: one where the bot is sent thousands of
/// prompts at once and can only answer each.
async fn silence<I: Stage + ?Sized>(
    game: &dyn Game,
    command: &str,
    idle: &I,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Silence, RefereeError> {
    let burst = Limits { startup: Duration::from_secs(5), total: Duration::from_secs(60), ..probe_limits() };
    for (feed, silence) in [(Feed::AllOpen, Silence::Buffered), (Feed::AllClosed, Silence::EndOfInput)] {
        let played = play(game, command, idle, feed, &burst, sandbox, cancel).await?;
        let first = played.replay.steps.first().and_then(|s| s.replies.first());
        if first.is_some_and(|r| r.answer.is_some()) {
            return Ok(silence);
        }
        // Thousands of answers, its input still open, and not one newline among them.
        if feed == Feed::AllOpen && first.is_some_and(|r| r.failure == Some(crate::engine::Failure::TooLong)) {
            return Ok(Silence::NoNewline);
        }
    }
    Ok(Silence::Unknown)
}

/// Plays every situation of the `game`'s `checkup` with `command` and explains what went wrong.
async fn check_situations(
    game: &dyn Game,
    checkup: &Checkup,
    command: &str,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Vec<Checked>, RefereeError> {
    let situations = (checkup.situations)();
    let mut out: Vec<Checked> = Vec::new();
    let program = program_problem(command, None, &sandbox.sight());
    // The first crash: the same crash elsewhere has the same cause, not the situation's own,
    // and is said there once, with its fix. (Only the first: a later crash that differs from it
    // keeps its situation's own fix, as the power-ups map's for a bot that cannot read its cells.)
    let mut crashes: Vec<Crash> = Vec::new();
    // The most prompts it answered in one situation with lines ending in `\n`, so far.
    let mut lf_answers = 0;
    for (i, situation) in situations.iter().enumerate() {
        let played = play(game, command, situation.as_ref(), Feed::Interactive, limits, sandbox, cancel).await?;
        let seen = Seen { lf_answers, overloaded: crate::referee::overload_seen() };
        let mut checked = diagnose(game, checkup, situation.as_ref(), command, &played, limits, seen);
        if played.replay.result.players[0].forfeit.as_deref() == Some("crash") {
            checked.never_ran |= program.is_some();
            if let Some(fix) = &program {
                for f in &mut checked.findings {
                    f.fix.clone_from(fix);
                }
            }
            let crash = Crash::of(situation.as_ref(), situation.name(), &played);
            // (A program that never ran fails the same way everywhere.)
            let first = crashes.first().map(|c| c.name.as_str());
            let same = if program.is_some() { first } else { crash.repeats(&crashes) };
            match same.and_then(|name| out.iter().find(|c| c.name == name)) {
                Some(seen) => {
                    let fix = seen.findings.first().map(|f| f.fix.clone()).unwrap_or_default();
                    for f in &mut checked.findings {
                        f.fix.clone_from(&fix);
                    }
                    checked.same_as = Some(seen.name.clone());
                }
                None if crashes.is_empty() => crashes.push(crash),
                None => {}
            }
        }
        flooded(&mut checked, &played, &out);
        let never_answered =
            played.replay.steps.len() <= 1 && played.replay.result.players[0].forfeit.as_deref() == Some("timeout");
        if i == 0 && never_answered {
            let overloaded = crate::referee::overload_seen();
            let (words, idle) = (FirstPrompt::of(checkup), (checkup.idle)());
            let (first, idle) = (situation.as_ref(), idle.as_ref());
            let (finding, explained) =
                first_answer_probe(game, &words, first, idle, command, &played, limits, sandbox, cancel, overloaded)
                    .await?;
            (checked.findings, checked.explained) = (vec![finding], explained);
            out.push(checked);
            for skipped in &situations[1..] {
                out.push(Checked::skipped(skipped.name().to_string()));
            }
            break;
        }
        // Only for a failure that line endings can cause, where the game with lines ending in
        // `\n` went as far: not the game's time budget used up (a longer game), nor a flood.
        // (Nor a bot the machine starved.)
        let budget = matches!(checked.timeout, Some(Lateness::Flood | Lateness::Limit(Some(LimitKind::Total), _)))
            || checked.findings.iter().any(|f| f.fix == STARVED_FIX)
            // (Nor twice, where the finding says so already.)
            || checked.findings.iter().any(|f| f.problem.contains(CRLF_WAIT));
        let reached = played.replay.steps.len() <= lf_answers;
        if situation.crlf() && checked.failed() && !out[0].failed() && !budget && reached {
            for f in &mut checked.findings {
                f.problem.push_str("\n    It played fine with the same lines ending in `\\n`: only the `\\r` differs.");
            }
        }
        if checked.same_as.is_none() {
            checked.same_as = repeat_of(&checked, &out);
        }
        if !situation.crlf() {
            let answers = played.replay.steps.iter().filter(|s| s.replies.first().is_some_and(|r| r.answer.is_some()));
            lf_answers = lf_answers.max(answers.count());
        }
        out.push(checked);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    /// A Python bot whose multiprocessing could not make its semaphore (no box: /dev/shm is not
    /// its to write) is told why and what to use instead, by `duel`'s Fix (`program_fix`); the
    /// controls: the same error raised elsewhere, and another error there, are not.
    #[test]
    fn multiprocessing_without_dev_shm_is_explained() {
        let traceback = |at: &str, error: &str| {
            format!(
                "Traceback (most recent call last):\n  File \"/b/bot.py\", line 3, in main\n    with \
                 multiprocessing.Pool(2) as p:\n  File \"/usr/lib/python3.11/{at}\", line 57, in __init__\n    \
                 sl = self._semlock = _multiprocessing.SemLock(\n{error}\n"
            )
        };
        let denied = "PermissionError: [Errno 13] Permission denied";
        let sight = Sight { path: crate::sandbox::BOX_PATH.into(), boxed: false };
        // (A script that exists, from the crate's folder: nothing else is wrong with the program.)
        let fix = program_fix("python3 src/lib.rs", None, &sight, &traceback("multiprocessing/synchronize.py", denied));
        let fix = fix.expect("explained");
        assert!(fix.contains("/dev/shm") && fix.contains("--sandbox plain") && fix.contains("threading"), "{fix}");
        assert_eq!(semaphore_fix(&traceback("shutil.py", denied)), None, "the control: elsewhere");
        let other = traceback("multiprocessing/synchronize.py", "OSError: [Errno 28] No space left on device");
        assert_eq!(semaphore_fix(&other), None, "the control: another error");
    }
    /// A match of Resource Rush's first situation under `limits` whose bot answered `WAIT` in
    /// `answers` ms each, computing all along, then timed out after `last` ms, `last_cpu` of them
    /// computing.
    fn timed_out(limits: &Limits, answers: &[u64], last: u64, last_cpu: u64) -> PlayedMatch {
        use crate::engine::{Answer, Failure};
        use crate::replay::{MatchResult, PlayerInfo, RecordedReply, Step};
        let players = vec![PlayerInfo { name: "bot".to_string(), command: "./bot".to_string() }];
        let mut replay = Replay::new("resource-rush", 1, Value::Null, players, *limits, Value::Null);
        let reply = |ms: u64, cpu_ms: u64, reply: Reply| {
            let (wall, cpu) = (Duration::from_millis(ms), Some(Duration::from_millis(cpu_ms)));
            let answer = Answer { wall, cpu, ..Answer::untimed(reply) };
            Step { replies: vec![RecordedReply::new(0, answer)], chance: None, frame: Value::Null }
        };
        replay.steps = answers.iter().map(|&ms| reply(ms, ms, Reply::Line("WAIT".to_string()))).collect();
        replay.steps.push(reply(last, last_cpu, Reply::Failed(Failure::Timeout)));
        replay.result = MatchResult::timed_out();
        PlayedMatch { replay, stderr: vec![crate::referee::BotStderr::default()], verdict: None, remarks: Vec::new() }
    }

    /// A timeout is told by the limit the referee applied: 3.6 s used of the game's 5 s left
    /// 1.4 s, so the fifth answer's limit was the 1000 ms of any answer (it was guessed from the
    /// times, the timed-out answer's own second counted as used, as the game's budget used up);
    /// the control: with 4.5 s used, only 500 ms were left, and the budget is named.
    #[test]
    fn a_timeout_is_told_by_the_limit_the_referee_applied() {
        let wall = Limits { clock: ClockKind::Wall, ..Limits::default() };
        let said = |played: &PlayedMatch| told(played, &wall);
        let answer = said(&timed_out(&wall, &[900; 4], 1000, 0));
        assert!(answer.contains("printed nothing for 1000 ms after `TICK 5`: did you flush stdout?"), "{answer}");
        assert!(!answer.contains("answer time for the game"), "{answer}");
        let budget = said(&timed_out(&wall, &[900; 5], 500, 0));
        assert!(
            budget
                .contains("used up its 5000 ms of answer time for the game (5000 ms over 6 answers; 500 ms were left"),
            "{budget}"
        );
    }

    /// What check-bot says of `played`, Resource Rush's first situation, judged by `limits`.
    fn told(played: &PlayedMatch, limits: &Limits) -> String {
        told_seen(played, limits, Seen::default())
    }

    /// [`told`], after the check had `seen` what it says.
    fn told_seen(played: &PlayedMatch, limits: &Limits, seen: Seen) -> String {
        let game = crate::games::by_name("resource-rush").unwrap();
        let checkup = checkup_of(game).unwrap();
        let situations = (checkup.situations)();
        let checked = diagnose(game, &checkup, situations[0].as_ref(), "./bot", played, limits, seen);
        checked.findings.iter().map(|f| format!("{}\n{}", f.problem, f.fix)).collect::<Vec<_>>().join("\n")
    }

    /// A timeout's figure is on the clock whose limit is said: a loop on a loaded machine that
    /// had 382 ms of CPU time in its 1000 ms on the wall clock ran 1000 ms on the clock (it was
    /// told it "computed for 382 ms of CPU time … too slow for the 1000 ms an answer may take");
    /// on the CPU clock, its CPU time against the limit of CPU time; a bot silent until the CPU
    /// clock's backstop, the backstop and what it is (it was told "printed nothing for 1000
    /// ms"). The controls: each clock's words are not the other's.
    #[test]
    fn a_timeout_is_told_on_the_clock_that_judged_it() {
        let wall = Limits { clock: ClockKind::Wall, ..Limits::default() };
        let cpu = Limits::default();
        let looped = told(&timed_out(&wall, &[10], 1000, 382), &wall);
        assert!(
            looped.contains(
                "your bot ran for 1000 ms on the clock (382 ms of CPU time) after `TICK 2` and printed nothing: a \
                 loop that never ends at this tick, or a search too slow for the 1000 ms on the clock an answer may \
                 take"
            ),
            "{looped}"
        );
        assert!(!looped.contains("computed for 382 ms"), "{looped}");
        let looped = told(&timed_out(&cpu, &[10], 1150, 1001), &cpu);
        assert!(
            looped.contains(
                "your bot computed for 1001 ms of CPU time after `TICK 2` and printed nothing: a loop that never \
                 ends at this tick, or a search too slow for the 1000 ms of CPU time an answer may take"
            ),
            "{looped}"
        );
        assert!(!looped.contains("on the clock"), "{looped}");
        let slept = told(&timed_out(&cpu, &[10, 10], 5001, 2), &cpu);
        assert!(
            slept.contains(
                "your bot printed nothing for 5000 ms on the clock (5x its 1000 ms of CPU time) after `TICK 3`, \
                 using only 2 ms of CPU time: did you flush stdout?"
            ),
            "{slept}"
        );
        assert!(slept.contains("an answer ends after 5000 ms on the clock, whatever its CPU time"), "{slept}");
        // The control: the same silence on the wall clock is told by its limit.
        let slept = told(&timed_out(&wall, &[10, 10], 1001, 2), &wall);
        assert!(slept.contains("printed nothing for 1000 ms after `TICK 3`: did you flush stdout?"), "{slept}");
        assert!(!slept.contains("CPU time"), "{slept}");
    }

    /// A bot that computed yet was ended by the CPU clock's backstop with less CPU time than its
    /// limit, on a machine found overloaded, was starved: told so, with the advice to run again
    /// (it was asked "did you flush stdout?"). The controls: on a machine not found overloaded
    /// (300 ms of work, then a wait for input, is no starved bot), and a bot idle as long, it is
    /// still asked whether it flushes.
    #[test]
    fn a_bot_starved_by_the_machine_is_told_so() {
        let cpu = Limits::default();
        let busy = Seen { overloaded: true, ..Seen::default() };
        let starved = told_seen(&timed_out(&cpu, &[10], 5001, 989), &cpu, busy);
        assert!(
            starved.contains(
                "your bot computed for 989 ms of CPU time after `TICK 2` and printed nothing in 5000 ms on the clock \
                 (5x its 1000 ms of CPU time): less than the 1000 ms of CPU time an answer may take, as the machine \
                 was too busy to run it more"
            ),
            "{starved}"
        );
        assert!(starved.contains("run `arena check-bot` again when the machine is less busy"), "{starved}");
        assert!(!starved.contains("flush") && !starved.contains("a loop that never ends"), "{starved}");
        let quiet = told(&timed_out(&cpu, &[10], 5001, 989), &cpu);
        assert!(quiet.contains("did you flush stdout?") && !quiet.contains("too busy"), "{quiet}");
        let idle = told_seen(&timed_out(&cpu, &[10], 5001, 3), &cpu, busy);
        assert!(idle.contains("did you flush stdout?") && !idle.contains("too busy"), "{idle}");
    }

    /// The same before the first answer: a bot that computed 1166 ms of CPU time before the
    /// backstop's 10 s on the clock ended it, under the 2000 ms its first answer may take, was
    /// starved (it was told it "computed for 1166 ms … too slow for the first answer (2000 ms
    /// …)"). Told from the judged match alone, nothing played again. The control: on a machine not
    /// found overloaded, it is told of a loop, as before.
    #[test]
    fn a_bot_starved_before_its_first_answer_is_told_so() {
        let cpu = Limits::default();
        let game = crate::games::by_name("resource-rush").unwrap();
        let checkup = checkup_of(game).unwrap();
        let (situations, idle) = ((checkup.situations)(), (checkup.idle)());
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let probe = |judged: &PlayedMatch, overloaded: bool| {
            let words = FirstPrompt::of(&checkup);
            let cancel = CancellationToken::new();
            let (first, idle) = (situations[0].as_ref(), idle.as_ref());
            // (A command that cannot run: nothing is played again.)
            let run = first_answer_probe(
                game,
                &words,
                first,
                idle,
                "/no/such/bot",
                judged,
                &cpu,
                &sandbox,
                &cancel,
                overloaded,
            );
            runtime.block_on(run).unwrap().0
        };
        let judged = timed_out(&cpu, &[], 10_001, 1166);
        let starved = probe(&judged, true);
        assert!(
            starved.problem.contains(
                "your bot computed for 1166 ms of CPU time after the header and `TICK 1` and printed nothing in 10 s \
                 on the clock: less than the 2000 ms of CPU time its first answer may take"
            ),
            "{starved:?}"
        );
        assert!(starved.fix.contains("again when the machine is less busy"), "{starved:?}");
        assert!(!starved.problem.contains("a loop that never ends"), "{starved:?}");
        let quiet = probe(&judged, false);
        assert!(quiet.problem.contains("a loop that never ends") && !quiet.problem.contains("too busy"), "{quiet:?}");
    }

    /// What check-bot says of `played`, Resource Rush's CRLF situation, judged by `limits`, for a
    /// bot that answered `lf_answers` prompts in a game with lines ending in `\n`.
    fn told_crlf(played: &PlayedMatch, limits: &Limits, lf_answers: usize) -> String {
        let seen = Seen { lf_answers, ..Seen::default() };
        let game = crate::games::by_name("resource-rush").unwrap();
        let checkup = checkup_of(game).unwrap();
        let situations = (checkup.situations)();
        let crlf = situations.iter().find(|s| s.crlf()).unwrap();
        let checked = diagnose(game, &checkup, crlf.as_ref(), "./bot", played, limits, seen);
        checked.findings.iter().map(|f| format!("{}\n{}", f.problem, f.fix)).collect::<Vec<_>>().join("\n")
    }

    /// A bot idle at `TICK 1` of the CRLF game that answered it with `\n` is told it waits on a
    /// line it does not recognise for its `\r`, with the fix to strip it (it was told "did you
    /// flush stdout?" and to flush). The controls: one that never answered with `\n` either, and
    /// one that computed, are told as before.
    #[test]
    fn an_idle_bot_with_crlf_input_is_told_of_the_r() {
        let cpu = Limits::default();
        let waiting = timed_out(&cpu, &[], 10001, 3);
        let said = told_crlf(&waiting, &cpu, 9);
        assert!(said.contains("it was still waiting for input, yet it answered `TICK 1`"), "{said}");
        assert!(said.contains("strip the trailing `\\r` from every line you read"), "{said}");
        assert!(!said.contains("flush"), "{said}");
        let never = told_crlf(&waiting, &cpu, 0);
        assert!(never.contains("did you flush stdout?") && !never.contains("waiting for input, yet"), "{never}");
        let busy = told_crlf(&timed_out(&cpu, &[], 2100, 2050), &cpu, 9);
        assert!(!busy.contains("waiting for input, yet"), "{busy}");
    }

    /// A situation that timed out (`cause`), told with the advice `fix`, as check-bot records it.
    fn late(name: &str, cause: Lateness, fix: &str) -> Checked {
        let finding = Finding { problem: format!("late in {name}"), fix: fix.to_string(), serious: true };
        Checked { findings: vec![finding], skipped: false, timeout: Some(cause), ..Checked::skipped(name.to_string()) }
    }

    /// Timeouts are the same by their cause, as crashes are by their crash: the same limit broken
    /// doing the same is said once, where it first happened, and a flood is one cause whatever the
    /// limit. The control: a bot waiting for input it never gets and one looping, given the same
    /// advice where the limit decides it (the game's budget, the first answer), are two timeouts
    /// (grouped by that advice, they were one).
    #[test]
    fn timeouts_are_the_same_by_their_cause_not_their_advice() {
        let (waiting, looping) = (Some(Activity::Idle), Some(Activity::Computing));
        let budget = "think less per tick: the whole game's answers must fit in that budget";
        let waited = late("seat 1", Lateness::Limit(Some(LimitKind::Total), waiting), budget);
        let again = late("crlf", Lateness::Limit(Some(LimitKind::Total), waiting), budget);
        assert_eq!(same_timeout(&again, std::slice::from_ref(&waited)).as_deref(), Some("seat 1"));
        let flood = late("seat 2", Lateness::Flood, crate::explain::STDERR_FIX);
        let before = [waited.clone(), flood];
        let flooded = late("jump", Lateness::Flood, crate::explain::STDERR_FIX);
        assert_eq!(same_timeout(&flooded, &before).as_deref(), Some("seat 2"));
        // The control: the same advice, another cause.
        let looped = late("power-ups", Lateness::Limit(Some(LimitKind::Total), looping), budget);
        assert_eq!(looped.findings[0].fix, waited.findings[0].fix, "the old key, the advice, is the same");
        assert_eq!(same_timeout(&looped, &before), None);
        let first = |doing| late("test mode", Lateness::Limit(Some(LimitKind::FirstAnswer), doing), "answer at once");
        assert_eq!(same_timeout(&first(looping), &[first(waiting)]), None);
        assert_eq!(same_timeout(&first(waiting), &[first(waiting)]).as_deref(), Some("test mode"));
        // A repeat is of the first, and no crash is a timeout.
        let repeat = Checked { same_as: Some("seat 1".to_string()), ..again.clone() };
        assert_eq!(same_timeout(&again, &[repeat]), None);
        assert!(!Checked::skipped("x".to_string()).timed_out() && again.timed_out());
    }

    /// A situation that forfeited for `forfeit`, told `problem` with the fix `fix`.
    fn forfeited(name: &str, forfeit: &str, problem: &str, fix: &str) -> Checked {
        let finding = Finding { problem: problem.to_string(), fix: fix.to_string(), serious: true };
        Checked {
            findings: vec![finding],
            skipped: false,
            forfeit: Some(forfeit.to_string()),
            ..Checked::skipped(name.to_string())
        }
    }

    /// Any other problem is the same by its kind, its words and its fix, but for their numbers
    /// (the tick, a position): said once, where it first happened (a debug line before every
    /// answer was said in every situation). The controls: the same kind with another fix, or
    /// the same words as another kind, is another problem; a crash or a timeout is the same only
    /// by its cause; a repeat's own note would be hidden, so it is none.
    #[test]
    fn other_problems_are_the_same_by_kind_and_fix_but_for_numbers() {
        let fixed = "write `MOVE 1 0`: the keyword in upper case";
        let first = forfeited("seat 1", "malformed", "you answered `move 1 0` to `TICK 1`", fixed);
        let later =
            forfeited("jump", "malformed", "you answered `move 13 4` to `TICK 12`", &fixed.replace("1 0", "13 4"));
        assert_eq!(same_problem(&later, std::slice::from_ref(&first)).as_deref(), Some("seat 1"));
        let moved = |name, to: &str| forfeited(name, "malformed", &format!("`{to}`"), &format!("write `{to}`"));
        let comma = moved("seat 2", "MOVE 1,0");
        assert_eq!(
            same_problem(&moved("crlf", "MOVE 13,4"), &[first.clone(), comma.clone()]).as_deref(),
            Some("seat 2")
        );
        // The controls.
        let other = forfeited("test mode", "malformed", "you answered `move 1 0` to `TICK 1`", "write `WAIT`");
        assert_eq!(same_problem(&other, std::slice::from_ref(&first)), None, "another fix");
        let invalid = forfeited("test mode", "invalid_move", "you answered `move 1 0` to `TICK 1`", fixed);
        assert_eq!(same_problem(&invalid, std::slice::from_ref(&first)), None, "another kind");
        let worded = forfeited("test mode", "malformed", "you answered `wait 1 0` to `TICK 1`", fixed);
        assert_eq!(same_problem(&worded, std::slice::from_ref(&first)), None, "other words");
        let crash = |name| forfeited(name, "crash", "your bot exited", "read every line");
        assert_eq!(same_problem(&crash("b"), &[crash("a")]), None, "a crash is compared by its crash");
        let mut noted = later.clone();
        noted.findings.push(Finding { problem: "a note".to_string(), fix: String::new(), serious: false });
        assert_eq!(same_problem(&noted, std::slice::from_ref(&first)), None);
        // A repeat is of the first, and no problem repeats a situation that went well.
        let repeat = Checked { same_as: Some("seat 0".to_string()), ..first.clone() };
        assert_eq!(same_problem(&later, &[repeat]), None);
        assert_eq!(same_problem(&later, &[Checked { findings: Vec::new(), ..first.clone() }]), None);
        assert_eq!(
            (later.repeated(), crash("a").repeated(), comma.repeated()),
            ("malformed answer", "crash", "malformed answer")
        );
    }

    /// A line on stdout that answers no prompt is one mistake whatever the referee made of it
    /// and whatever it says: the same debug line read as a malformed answer in one situation and
    /// found waiting before the next prompt (`extra_output`) in another, or saying `going to
    /// final` instead of `going to 3 4`, is one problem, its fix the game's and the doctor's own
    /// (it was two, or one per wording). The controls: a malformed `MOVE 1` (short of a
    /// coordinate: the game's fix names the form of a move) is another problem beside either,
    /// and the old key, kind and words, told them apart.
    #[test]
    fn a_stray_line_is_one_problem_whatever_the_referee_made_of_it() {
        let rr = crate::games::by_name("resource-rush").unwrap();
        let fix = |line: &str| rr.malformed_fix(line).unwrap_or_default();
        let answered = |name, line: &str| {
            forfeited(name, "malformed", &format!("you answered `{line}` to `TICK 1`: expected …"), &fix(line))
        };
        let debug = answered("seat 1", "going to 3 4");
        let unasked = forfeited(
            "seat 2",
            "extra_output",
            "your bot printed a line that no TICK asked for, after answering `TICK 1`",
            &one_line_fix("TICK"),
        );
        assert_eq!(same_problem(&unasked, std::slice::from_ref(&debug)).as_deref(), Some("seat 1"));
        assert_eq!(same_problem(&debug, std::slice::from_ref(&unasked)).as_deref(), Some("seat 2"), "either first");
        let final_ = answered("test mode", "going to final");
        assert_eq!(same_problem(&final_, std::slice::from_ref(&debug)).as_deref(), Some("seat 1"), "other words");
        assert_eq!((unasked.repeated(), final_.repeated()), ("stray line", "stray line"));
        // The controls.
        assert_ne!(debug.forfeit, unasked.forfeit, "another kind");
        assert_ne!(numberless_words(&debug), numberless_words(&final_), "other words");
        let short = answered("a jump", "MOVE 1");
        assert!(!short.findings[0].fix.contains("debug"), "{}", short.findings[0].fix);
        assert_eq!(same_problem(&short, &[debug.clone(), unasked.clone()]), None);
        assert_eq!(short.repeated(), "malformed answer");
        assert_eq!(same_problem(&answered("CRLF input", "MOVE 2"), &[debug, short]).as_deref(), Some("a jump"));
    }

    /// A repeat of a stray line quotes its own line, as one terminal field (escaped, cut as an
    /// answer quoted elsewhere is): one read as the answer, and one found waiting before a
    /// prompt (`extra_output`), which the referee now keeps (it kept none, and such a row quoted
    /// nothing). The controls: a line found waiting that was no text (none kept) quotes none,
    /// not the last answer either, nor does a mis-written answer (`MOVE 1`).
    #[test]
    fn a_stray_line_is_quoted_as_a_field() {
        let rr = crate::games::by_name("resource-rush").unwrap();
        let answered = |line: &str| Checked {
            last_answer: Some(line.to_string()),
            ..forfeited("seat 2", "malformed", "…", &rr.malformed_fix(line).unwrap_or_default())
        };
        assert_eq!(answered("going to 3 4").stray_line().as_deref(), Some("going to 3 4"));
        let forged = format!("going to \u{1b}[2J{}", "x".repeat(500));
        let shown = answered(&forged).stray_line().unwrap();
        assert_eq!(shown, crate::safe_text::terminal(&forged));
        assert!(!shown.contains('\u{1b}') && shown.len() < forged.len(), "escaped and cut: {shown}");
        let waiting = |line: Option<&str>| Checked {
            last_answer: Some("MOVE 1 2".to_string()),
            unasked: line.map(str::to_string),
            ..forfeited("seat 2", "extra_output", "…", &one_line_fix("TICK"))
        };
        assert_eq!(waiting(Some("going to 3 4")).stray_line().as_deref(), Some("going to 3 4"));
        assert_eq!(waiting(Some(&forged)).stray_line(), Some(shown), "escaped and cut alike");
        // The controls.
        assert_eq!(waiting(None).stray_line(), None);
        assert_eq!(answered("MOVE 1").stray_line(), None);
    }

    /// A situation's serious findings' problems with their digits left out: the old key's words.
    fn numberless_words(c: &Checked) -> Vec<String> {
        c.findings.iter().map(|f| f.problem.replace(|ch: char| ch.is_ascii_digit(), "#")).collect()
    }

    /// One check says the same crash for a game's own situations and for seats: the same error,
    /// place and calls at any step; the same stderr; the same once the header is left out, ended
    /// alike at the same step; or silent, killed by the same signal. The controls: different
    /// errors with the same exit status, the same library line reached from two of the bot's,
    /// and silent exits at different steps are different crashes.
    #[test]
    fn the_same_crash_is_one_check_for_situations_and_seats() {
        let traceback = |line: u32, error: &str| {
            format!("Traceback (most recent call last):\n  File \"bot.py\", line {line}, in act\n    x()\n{error}\n")
        };
        let crash = |stderr: &str, ended: Option<Ending>, steps: usize| {
            let words = crash_words(stderr, Some("RESOURCE 5 7 200"));
            let frames: Vec<&str> = stderr.lines().map(str::trim).filter(|l| l.starts_with("File \"")).collect();
            let site = StderrEnd::of(stderr).and_then(|e| Some((e.error?, e.place?, frames.join("\n"))));
            Crash { name: format!("{steps}"), stderr: stderr.to_string(), words, ended, steps, site }
        };
        let exit1 = Some(Ending::Exit(1));
        let bug = crash(&format!("tick 2\n{}", traceback(9, "ValueError: no plan")), exit1, 2);
        // At another step, after other debug lines: the same error, place and calls.
        assert!(crash(&format!("tick 5\n{}", traceback(9, "ValueError: no plan")), exit1, 5).same(&bug));
        let quoted = |h: &str| crash(&format!("cannot read {h}\n"), exit1, 1);
        assert!(quoted("RESOURCE 5 7 200").same(&crash("cannot read RESOURCE 5 7 200\n", exit1, 1)));
        assert!(crash("bad header\n", None, 3).same(&crash("bad header\n", None, 1)), "the same stderr");
        let segv = Some(Ending::Signal(libc::SIGSEGV));
        assert!(crash("", segv, 4).same(&crash("", segv, 9)));
        assert!(crash("", exit1, 4).same(&crash("", exit1, 4)));
        // The controls.
        assert!(!crash(&traceback(9, "KeyError: 3"), exit1, 2).same(&bug));
        assert!(!crash(&traceback(12, "ValueError: no plan"), exit1, 2).same(&bug));
        let library = |own: u32| {
            format!(
                "Traceback (most recent call last):\n  File \"bot.py\", line {own}, in act\n    x()\n  File \
                 \"/usr/lib/python3/random.py\", line 3, in choice\n    y\nIndexError: empty\n"
            )
        };
        assert!(!crash(&library(4), exit1, 2).same(&crash(&library(7), exit1, 2)));
        assert!(!crash("", exit1, 4).same(&crash("", exit1, 5)));
        assert!(!crash("oops\n", exit1, 4).same(&crash("", exit1, 4)));
        // The earlier crash it repeats, by its situation's name.
        let seen = [crash("other\n", exit1, 1), bug.clone()];
        assert_eq!(crash(&traceback(9, "ValueError: no plan"), exit1, 7).repeats(&seen), Some("2"));
        assert_eq!(crash("new\n", exit1, 7).repeats(&seen), None);
    }

    /// A crash in the bot's own code gets one fix, check-bot's and the duel's: the line its
    /// traceback names, and how to see the state it was in (the duel's replay at the tick
    /// before, a duel to play again, or one of its own). The controls: an error met reading the
    /// input, and one before the first answer, get none.
    #[test]
    fn a_crash_in_the_bot_s_own_code_gets_the_same_fix_everywhere() {
        let rr = crate::games::by_name("resource-rush").unwrap();
        let tactics = crate::games::by_name("tactics").unwrap();
        let own = "Traceback (most recent call last):\n  File \"bot.py\", line 9, in act\n    raise ValueError(\"no plan\")\nValueError: no plan\n";
        let hand = |game: &dyn Game| ByHand::new("python3 bot.py", None, &[], None, game.info().wording.input);
        let fix = |game, again| own_code_fix(game, &hand(game), own, 4, 5, again).unwrap_or_default();
        let kept = fix(rr, SeeAgain::Replay("arena replay r.json"));
        assert!(kept.contains("(File \"bot.py\", line 9, in act) for the state it was in at `TICK 5`"), "{kept}");
        assert!(kept.contains("To see that state again, `arena replay r.json --tick 4` shows it"), "{kept}");
        let dropped = fix(rr, SeeAgain::WithReplay);
        assert!(dropped.contains("play it again without `--no-replay`: `arena replay FILE --tick 4`"), "{dropped}");
        let doctor = fix(tactics, SeeAgain::InADuel);
        assert!(doctor.contains("at step 5. To see that state again, play a duel"), "{doctor}");
        assert!(doctor.contains("run it by hand, `python3 bot.py`, and paste the TACTICS line"), "{doctor}");
        assert!(kept.contains("run it by hand, `python3 bot.py`, and paste the header and TICK lines"), "{kept}");
        // The controls.
        let reading = own.replace("raise ValueError(\"no plan\")", "x = int(sys.stdin.readline())");
        assert_eq!(own_code_fix(rr, &hand(rr), &reading, 4, 5, SeeAgain::InADuel), None);
        assert_eq!(own_code_fix(rr, &hand(rr), own, 0, 1, SeeAgain::InADuel), None);
    }

    /// The command a fix gives to run a bot by hand is the bot's own, as a shell pastes it: its
    /// command as given (`python3 bot.py`, not `./bot`), with the environment it ran with, in
    /// its folder (a subshell), fed the lines it was sent, exactly (a `\r`, a `%`, a quote);
    /// under `gdb` too. The controls: without the lines (unknown, or too many to paste), it
    /// names what to paste, and names no test file that may not be there (it said `./bot <
    /// tests/test1.txt` whatever the bot, its folder, and whether that file existed).
    #[test]
    fn a_bot_is_run_by_hand_as_it_ran() {
        let env = [("RR_MODE".to_string(), "test".to_string())];
        let input = "ARENA 1 2 3\r\nTICK 1 100% 'x' \\n\u{1}\n";
        let hand = ByHand::new("python3 bot.py", Some(std::path::Path::new("my bot")), &env, Some(input), "the lines");
        let run = hand.run();
        let pasted = run.split_once(", `").and_then(|(_, c)| c.strip_suffix('`')).unwrap_or_default();
        assert!(pasted.starts_with("(cd 'my bot' && printf '") && pasted.ends_with("| RR_MODE=test python3 bot.py)"));
        // What the shell makes of it: the lines, byte for byte, and the command.
        let printf = pasted.trim_start_matches("(cd 'my bot' && ").split(" | ").next().unwrap_or_default();
        let out = std::process::Command::new("sh").arg("-c").arg(printf).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), input, "{pasted}");
        let gdb = hand.under_gdb();
        assert!(gdb.contains("> check-bot-input.txt && RR_MODE=test gdb -batch -ex 'run < check-bot-input.txt' -ex bt --args python3 bot.py)`"), "{gdb}");
        // The controls.
        for hand in [
            ByHand::new("./bot", None, &[], None, "the header and TICK lines"),
            ByHand::new("./bot", None, &[], Some(&"TICK 1 WAIT\n".repeat(200)), "the header and TICK lines"),
        ] {
            assert_eq!(hand.run(), "run it by hand, `./bot`, and paste the header and TICK lines");
            assert!(hand.under_gdb().contains("`gdb -ex run --args ./bot`, paste the header"), "{}", hand.under_gdb());
            assert!(!hand.run().contains("test1.txt"));
        }
    }

    /// A script without `#!`, or with Windows line endings, is named as such, in the words of the
    /// referee's and a league's check ([`crate::referee::start::trouble`], one check): its `sed`
    /// fix, and a `\r` at the end of the interpreter's argument (`#!/bin/sh -e\r`) too; a good
    /// script, a compiled program, a command through an interpreter, a name on the bots' PATH
    /// and `env -S`, which splits its words on the `\r` too (the doctor's own check took it for
    /// Windows line endings; it runs), are not. Files are looked for in the bot's folder.
    #[test]
    fn a_script_the_system_cannot_run_as_meant_is_named() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path.display().to_string()
        };
        let sight = Sight::boxed();
        let problem = |command: &str| program_problem(command, None, &sight);
        let bare = file("bot.py", b"import sys\nprint('WAIT')\n");
        let found = problem(&bare).expect("no #! line");
        assert!(
            found.contains("does not start with a `#!` line") && found.contains("#!/usr/bin/env python3"),
            "{found}"
        );
        let crlf = file("crlf.py", b"#!/usr/bin/env python3\r\nimport sys\r\n");
        let found = problem(&crlf).expect("CRLF");
        assert!(found.contains("runs `python3\\r` through `env`"), "{found}");
        assert!(found.contains("Windows line endings") && found.contains("sed -i"), "{found}");
        assert!(found.contains("Unix (LF) line endings, your editor's setting"), "{found}");
        let argument = file("arg.sh", b"#!/bin/sh -e\r\necho WAIT\r\n");
        let found = problem(&argument).expect("CRLF in the argument");
        assert!(found.contains("gives `/bin/sh` the argument `-e\\r`") && found.contains("sed -i"), "{found}");
        // A path with a space is one word of the commands to copy (unquoted, `sed` and the bot's
        // command would read two).
        let spaced = file("my bot.py", b"#!/usr/bin/env python3\r\nimport sys\r\n");
        let found = problem(&shell_words::quote(&spaced)).expect("CRLF");
        let command = found.split_once("`sed -i ").and_then(|(_, rest)| rest.split_once('`')).map(|(c, _)| c);
        assert_eq!(shell_words::split(command.unwrap_or_default()).unwrap(), ["s/\\r$//", spaced.as_str()], "{found}");
        let bare_spaced = file("my bare.py", b"import sys\n");
        let found = problem(&shell_words::quote(&bare_spaced)).expect("no #! line");
        let command = found.rsplit_once("`\"").and_then(|(_, rest)| rest.split_once("\"`")).map(|(c, _)| c);
        assert_eq!(
            shell_words::split(command.unwrap_or_default()).unwrap(),
            ["python3", bare_spaced.as_str()],
            "{found}"
        );
        // In the bot's folder: its program's path is the folder's.
        let found = program_problem("./crlf.py", Some(dir.path()), &sight).expect("CRLF, in the folder");
        assert!(found.contains("sed -i 's/\\r$//' ./crlf.py"), "{found}");
        // Controls.
        assert_eq!(problem(&file("good.py", b"#!/usr/bin/env python3\nimport sys\n")), None);
        assert_eq!(problem(&file("split.py", b"#!/usr/bin/env -S python3\r\nimport sys\r\n")), None, "env -S");
        assert_eq!(problem(&file("prog", b"\x7fELF\x02\x01\x01")), None);
        assert_eq!(problem(&file("bot.sh", b"echo WAIT\n")), None, "/bin/sh is what runs a shell script");
        assert_eq!(problem(&format!("python3 {bare}")), None, "the interpreter is the program");
        assert_eq!(problem("sh"), None, "a name found on the bots' PATH");
        // A script run through its interpreter from another folder than its own.
        let found = problem("python3 -u no-such-dir/bot.py").expect("missing script");
        assert!(
            found.starts_with("the script `no-such-dir/bot.py` that `python3` is to run does not exist in ")
                && found.contains("the current folder, where the bot runs")
                && found.contains("run this from your bot's folder"),
            "{found}"
        );
        assert_eq!(problem("python3 -c 'print(1)' x.py"), None, "code, not a file");
    }
}
