//! What a run reports as it goes, step by step (plan, reconcile, execute, record, finish), to
//! a [`Reporter`] its caller gives: the command line turns the events into the progress bar,
//! the plan's line and the pages, as cargo-nextest's reporter does with its runner's events.
//! The run itself prints nothing and writes no page.

use std::path::Path;

use super::schedule::{ScheduledMatch, Shard};
use super::TournamentError;
use crate::referee::RefereeError;
use crate::replay::Replay;
use crate::standings::leaderboard::Leaderboard;
use crate::standings::ResultLine;

/// One thing a run did or is about to do.
#[derive(Debug)]
pub enum Event<'a> {
    /// Plan: what changed from the league the run resumes, one line per change; on a new
    /// league's first run, which bots cannot play and why, one line each.
    Changed(&'a [String]),
    /// Plan: the build of these bots (one command in one folder, which they share) starts.
    Building(&'a [String]),
    /// Plan: that build ended, after `took`, as `ended` says (a failure is said with the bot's
    /// row, its log kept).
    Built {
        /// The bots it built.
        bots: &'a [String],
        /// How long it took.
        took: std::time::Duration,
        /// How it ended: built, failed, stopped by the run's end, not started by the machine.
        ended: super::build::BuildEnd,
    },
    /// Reconcile: what the run is about to play, given what is on disk.
    Planned(&'a Plan<'a>),
    /// Execute: the matches start (not reported by `arena build`, which plays nothing).
    Executing {
        /// Matches to play.
        matches: usize,
        /// Results already counted.
        done: usize,
    },
    /// A worker started a match.
    Started(&'a ScheduledMatch),
    /// A worker ended a match (recorded next, unless it could not be played).
    Ended(&'a ScheduledMatch),
    /// Record: a match's replay is on disk; its result line is appended after this event,
    /// so that whatever is written on it (its page) is there before the line that names it.
    ReplaySaved {
        /// The league's folder the replay is in (a merge's: its staging folder, where it is
        /// built whole), where its page's shared files go.
        out: &'a Path,
        /// The scheduled match.
        scheduled: &'a ScheduledMatch,
        /// Its map's name, as the pages show it (not its path: see [`crate::standings::maps`]).
        map: &'a str,
        /// Its replay.
        replay: &'a Replay,
        /// Where the replay was saved.
        path: &'a Path,
        /// The replay file's bytes: those written, or those a merge read and checked, never
        /// read back by path (a merge's folders may be written by a student's machine, whose
        /// file, swapped for a link after the check, was published).
        bytes: &'a [u8],
    },
    /// Record: a match's result line is appended.
    Recorded {
        /// The scheduled match.
        scheduled: &'a ScheduledMatch,
        /// Its map's name, as the pages show it.
        map: &'a str,
        /// Its result.
        line: &'a ResultLine,
    },
    /// A match could not be played (its bot failed to start, say).
    Failed {
        /// The scheduled match.
        scheduled: &'a ScheduledMatch,
        /// Why.
        error: &'a RefereeError,
    },
    /// Something a teacher should know, outside a match, as one line: bots that play the same
    /// files (at plan time), a bot changed during the run, a worker that could not start.
    Warning(&'a str),
    /// Finish: `leaderboard.json` and `leaderboard.md` are written in `out`; what shows the
    /// league (the pages) is written on this event.
    LeaderboardWritten {
        /// The tournament folder.
        out: &'a Path,
        /// The title of the league's pages.
        title: &'a str,
        /// The standings.
        leaderboard: &'a Leaderboard,
        /// The result lines behind them.
        results: &'a [ResultLine],
    },
}

/// What a run is about to play.
#[derive(Debug)]
pub struct Plan<'a> {
    /// The matches to play.
    pub todo: &'a [ScheduledMatch],
    /// Finished matches kept.
    pub kept: usize,
    /// Matches that wait for a good build of one of their bots.
    pub waiting: usize,
    /// For a shard: which, how many matches are its own, and how many the league has.
    pub shard: Option<(Shard, usize, usize)>,
}

/// Receives a run's events. Events come from the run's thread, except [`Event::Started`],
/// [`Event::Ended`] and [`Event::Warning`], which come from its workers (hence `Sync`).
pub trait Reporter: Sync {
    /// Reports `event`. An error stops the run (after the matches under way); an error on a
    /// worker's event is logged.
    fn report(&self, event: Event<'_>) -> Result<(), TournamentError>;
}

/// A reporter that ignores every event: a run that shows nothing and writes no page.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Reporter for Quiet {
    fn report(&self, _event: Event<'_>) -> Result<(), TournamentError> {
        Ok(())
    }
}

/// A closure is a reporter: `&|event| { … Ok(()) }`.
impl<F: Fn(Event<'_>) -> Result<(), TournamentError> + Sync> Reporter for F {
    fn report(&self, event: Event<'_>) -> Result<(), TournamentError> {
        self(event)
    }
}
