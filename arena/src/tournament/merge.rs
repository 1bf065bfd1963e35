//! `arena merge OUT DIR…`: one league from its shards' folders (or one shared folder). Every
//! folder must hold the same league (the same schedule, from one `arena build`); each match
//! counts once, with its replay and its log copied into OUT (files of the folder's own: no
//! link followed, no FIFO waited on) and its page written anew from its replay; the league's
//! record is its folder's; what no shard played is listed, and a league with missing matches
//! is never called complete.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::leaderboard::Leaderboard;
use super::results::{self, ResultLine, RESULTS_FILE};
use super::schedule::{slices, ScheduledMatch, Shard};
use super::vouch::Vouch;
use super::{write_leaderboard, Event, FolderLock, Reporter, TournamentError, TournamentRecord};
use crate::engine::Registry;
use crate::files::write_atomic;

/// What a merge found.
#[derive(Debug)]
pub struct Merged {
    /// The league's leaderboard, written to OUT.
    pub leaderboard: Leaderboard,
    /// Keys of the scheduled matches no folder holds (a valid result of).
    pub missing: Vec<String>,
    /// The shards those matches belong to, with how many each misses, where the folders' results
    /// files say how the league was split (`results.shard-K-of-N.jsonl`, one N); else empty.
    pub missing_shards: Vec<(Shard, usize)>,
    /// Results taken from the folders.
    pub results: usize,
    /// Result lines refused, each with its folder, its match and why: not the league's match,
    /// or a replay that does not record it or does not re-simulate (a shard's folder changed
    /// after it was played). Their matches are left out (missing, unless another folder holds
    /// them), so that running their shard again plays them. Also a line of another shard's
    /// match than its results file's, and the lines of a match two folders hold differently.
    /// Each refusal is one line of safe text ([`crate::safe_text::terminal_line`]: a shard's
    /// bytes a refusal quotes, such as serde's error on its replay, show no escape sequence),
    /// at most [`MAX_REFUSAL_CHARS`] characters.
    pub refused: Vec<String>,
    /// The folder each refusal of [`Merged::refused`] is of, at the same place (none: of no one
    /// folder, such as a folder left out before it was read), for [`Merged::refusals_shown`].
    pub refused_in: Vec<Option<PathBuf>>,
    /// The maps whose replays' setups could not be checked (the map moved or changed since the
    /// build), each with how many merged results are on it and why: those results were checked
    /// otherwise (schedule, replay, re-simulation), but not that their game began as the map says.
    pub unchecked: Vec<(PathBuf, usize, String)>,
    /// Lines of OUT's own results files the merge did not take (refused, held differently by
    /// another folder, or no result line), newly kept in [`SET_ASIDE_FILE`] rather than lost
    /// as those files are replaced.
    pub set_aside: usize,
    /// Lines OUT's [`SET_ASIDE_FILE`] held already, set aside by earlier merges: still not in
    /// the league unless moved back into `results.jsonl`, which a later merge should say.
    pub set_aside_earlier: usize,
    /// Whether the merge had what the league's folder holds (its folder, or OUT holding the
    /// league): without it, the matches shards' folders did not play because the league's
    /// folder held them (`--out` shards play only what it lacks) are missing, and running the
    /// shards again plays none of them.
    pub league_given: bool,
    /// The folder whose record was taken for the league's without `--league` naming one (the
    /// first recording no shard's slice): its results had no league's rank, and the merge
    /// should say to name it.
    pub league_inferred: Option<PathBuf>,
}

impl Merged {
    /// The refusals to print, in order: at most `shown` of each folder's, then one line counting
    /// the rest of that folder's (`DIR: and 99,997 more refusals of this folder, not shown`); a
    /// folder of 100,000 bad lines filled the terminal.
    pub fn refusals_shown(&self, shown: usize) -> Vec<String> {
        refusals_shown(&self.refused, &self.refused_in, shown)
    }
}

/// [`Merged::refusals_shown`] of the refusals `refused`, each of the folder at its place in
/// `refused_in`.
fn refusals_shown(refused: &[String], refused_in: &[Option<PathBuf>], shown: usize) -> Vec<String> {
    let folders = || refused_in.iter().map(Option::as_deref);
    let mut total: HashMap<&Path, usize> = HashMap::new();
    for at in folders().flatten() {
        *total.entry(at).or_default() += 1;
    }
    let mut seen: HashMap<&Path, usize> = HashMap::new();
    let mut out = Vec::new();
    for (why, at) in refused.iter().zip(folders()) {
        let Some(at) = at else {
            out.push(why.clone());
            continue;
        };
        let n = seen.entry(at).or_default();
        *n += 1;
        if *n <= shown {
            out.push(why.clone());
        }
        let more = total[at].saturating_sub(shown);
        if *n == shown && more > 0 {
            out.push(format!(
                "{}: and {more} more refusal{} of this folder, not shown (the first {shown} are)",
                crate::safe_text::terminal_line(&at.display().to_string()),
                if more == 1 { "" } else { "s" }
            ));
        }
    }
    out
}

/// The longest refusal a merge keeps, in characters: one quoting a shard's file (its key, a
/// replay's text) is cut there.
pub const MAX_REFUSAL_CHARS: usize = 2000;

/// The most characters of a shard's own text (serde's error on its replay or record, which
/// quotes the file's bytes; a check's finding) a refusal quotes.
const SHARD_TEXT_CHARS: usize = 600;

/// `text`, of a shard's file or said of it, as a refusal quotes it: one line of safe text,
/// every control character shown (`\e`), cut to [`SHARD_TEXT_CHARS`].
fn shard_text(text: &str) -> String {
    crate::safe_text::terminal_cut(text, SHARD_TEXT_CHARS)
}

/// A merge's refusals, each with the folder it is of.
#[derive(Default)]
struct Refusals {
    texts: Vec<String>,
    folders: Vec<Option<PathBuf>>,
}

impl Refusals {
    /// Keeps the refusal `text` of the folder `at`: one line of safe text, cut to
    /// [`MAX_REFUSAL_CHARS`].
    fn add(&mut self, at: Option<&Path>, text: String) {
        self.texts.push(crate::safe_text::terminal_cut(&text, MAX_REFUSAL_CHARS));
        self.folders.push(at.map(Path::to_path_buf));
    }

    /// The refusals, each with its folder, taken for [`Merged`]: none is left to be said when
    /// this is dropped.
    fn take(&mut self) -> (Vec<String>, Vec<Option<PathBuf>>) {
        (std::mem::take(&mut self.texts), std::mem::take(&mut self.folders))
    }
}

/// How many refusals of each folder a merge that fails logs (see [`Refusals`]'s drop).
const REFUSALS_SHOWN_ON_ERROR: usize = 5;

impl Drop for Refusals {
    /// The refusals not taken for [`Merged`] are those of a merge that failed after making
    /// them (OUT could not be written, a signal): said here, a few of each folder (they are
    /// said by the command only with the merge's outcome, so a failure said none of them).
    fn drop(&mut self) {
        if self.texts.is_empty() {
            return;
        }
        tracing::warn!(
            "the merge ended before it was done; {} refusal{} made before it (nothing was merged):",
            self.texts.len(),
            if self.texts.len() == 1 { " was" } else { "s were" }
        );
        for why in refusals_shown(&self.texts, &self.folders, REFUSALS_SHOWN_ON_ERROR) {
            tracing::warn!("  {why}");
        }
    }
}

/// Where a merge into a folder holding results keeps the lines of its results files it did
/// not take, as they were written: its results files are replaced, and a refused line may be
/// the one to keep (of two folders holding a match differently, OUT's may be the shard's own).
pub const SET_ASIDE_FILE: &str = "refused.jsonl";

/// Merges the leagues in `dirs` into `out` (which may be one of them), with the games of
/// `games`, reporting the leaderboard written to `reporter`.
///
/// A kill at any moment leaves `out` as it was or complete: an `out` holding no league yet (new,
/// empty, or what a run cut short left) gets the league built whole in a staging folder next to
/// it ([`staging_folder`]) and renamed into place; one holding the league keeps its record, its
/// pages are written, then its results replaced at once (cut short in between, the pages show
/// the merge it was making, never the results with pages older than them). A staging folder a
/// killed merge left is taken up again by the next merge into `out`.
///
/// `league` names the league's folder (`arena merge OUT --league DIR SHARD_DIR…`): its record is
/// the league's and what its main results file holds outranks every other folder's line, and no
/// other folder passes for it (one recording no slice is merged as any shard's folder). Without
/// it, the record is the first folder's recording no slice (see [`Merged::league_inferred`]), but
/// no folder's results get the league's rank: a shard's folder whose slice a student removed,
/// with a `versions/` made, looked exactly like the league's and its lines outranked the shards'.
pub fn merge(
    out: &Path,
    league: Option<&Path>,
    dirs: &[PathBuf],
    games: &Registry,
    reporter: &dyn Reporter,
) -> Result<Merged, TournamentError> {
    merge_in(out, league, dirs, games, reporter, &Steps::default())
}

/// [`merge`], stopped as soon as `stop` says so (the command's Ctrl-C, SIGTERM or SIGHUP): while
/// it waits for a lock ([`TournamentError::StoppedWaiting`]), or at its next point where a kill
/// leaves `out` whole, as it was or complete ([`TournamentError::Stopped`]; a merge into `out`
/// again takes up a staging folder it left).
///
/// `shards` are the shards' folders, each bound to its slice where the teacher's command line
/// says so (`arena merge OUT --league LEAGUE 1/3=DIR …`): a folder bound gives only the results
/// of its slice, whatever its files are named, and one whose record names another slice is
/// left out, named (a student who writes a shard's folder writes its record too: its `slice`
/// claimed another shard's, and made the honest shard's results drop as held differently). A
/// folder not bound is taken at its record's word, as before. Binding needs `league`.
pub fn merge_until(
    out: &Path,
    league: Option<&Path>,
    shards: &[ShardDir],
    games: &Registry,
    reporter: &dyn Reporter,
    stop: &dyn Fn() -> bool,
) -> Result<Merged, TournamentError> {
    let dirs: Vec<PathBuf> = shards.iter().map(|s| s.dir.clone()).collect();
    let bound: Vec<(PathBuf, Shard)> = shards.iter().filter_map(|s| Some((s.dir.clone(), s.slice?))).collect();
    merge_in(out, league, &dirs, games, reporter, &Steps { killed: stop, stop, bound: &bound, ..Steps::default() })
}

/// A folder given to a merge, and the slice the teacher's command line binds it to (`K/N=DIR`),
/// if it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardDir {
    /// The folder.
    pub dir: PathBuf,
    /// Its slice, as the command line binds it; none where it names the folder alone.
    pub slice: Option<Shard>,
}

impl ShardDir {
    /// Reads one folder argument of `arena merge`: `K/N=DIR` binds `DIR` to slice K of N;
    /// anything else is a folder (a folder whose path starts so is written `./K/N=DIR`). What
    /// starts as a binding but is none (`0/3=DIR`, `4/3=DIR`, `1/3=`) is an error saying so.
    pub fn parse(arg: &std::ffi::OsStr) -> Result<ShardDir, String> {
        let unbound = || Ok(ShardDir { dir: PathBuf::from(arg), slice: None });
        let Some((slice, dir)) = arg.to_str().and_then(|text| text.split_once('=')) else { return unbound() };
        if !slice.contains('/') || !slice.bytes().all(|b| b.is_ascii_digit() || b == b'/') {
            return unbound();
        }
        // (The argument as the terminal shows it: `1/3=` and a line break printed it raw.)
        let bad = |why: String| {
            format!(
                "{}: a shard's folder bound to its slice is K/N=DIR: {why}",
                crate::safe_text::terminal_line(&arg.to_string_lossy())
            )
        };
        let slice = Shard::parse(slice).map_err(bad)?;
        if dir.is_empty() {
            return Err(bad("no folder after `=`".to_string()));
        }
        Ok(ShardDir { dir: PathBuf::from(dir), slice: Some(slice) })
    }
}

/// How a merge goes, for the tests: [`merge`]'s is the default.
struct Steps<'a> {
    /// The folders the command line binds to a slice each (`K/N=DIR`), as given.
    bound: &'a [(PathBuf, Shard)],
    /// Asked at each point where a kill could stop it (after each write): it stops there when
    /// this says so.
    killed: &'a dyn Fn() -> bool,
    /// Asked while it waits for a lock: it stops waiting when this says so.
    stop: &'a dyn Fn() -> bool,
    /// A new league is built in a staging folder; false writes it straight into `out` (the
    /// order that left a new `out` reading "0 of N played" when killed).
    staged: bool,
    /// Holds the merge's lock for OUT ([`super::OutLock`]), waiting up to this long for it;
    /// `None` takes none (the order that let two merges into a new OUT write one staging folder).
    lock: Option<std::time::Duration>,
    /// Holds each folder merged locked (false reads them as they are: the order that read a
    /// shard still running as one that did not finish).
    lock_inputs: bool,
    /// How long it waits for the lock of a folder merged that one process holds alone, said at
    /// once, before it leaves the folder out ([`super::BATCH_LOCK_WAIT`]; the tests' shorter).
    input_wait: std::time::Duration,
    /// Writes the pages before the results; false after them (the order that left a folder
    /// holding the league with its new results and its old pages when killed in between).
    pages_first: bool,
    /// Locks the folders merged before OUT is made; false after (the order that made a new OUT,
    /// left empty, before the league's folder was found still written by a shard).
    #[cfg(test)]
    inputs_first: bool,
    /// Compares two lines of a match naming its replay `<key>.json` and `<key>.json.gz` as one
    /// result; false as two (the order that counted one result, an older arena's replay in one
    /// folder and the new one in another, as held differently).
    #[cfg(test)]
    replay_names_aside: bool,
    /// Refuses the lines of a folder naming another file than their match's replay as one,
    /// naming a few; false line by line (the order that printed hundreds of warnings).
    #[cfg(test)]
    misnamed_per_folder: bool,
    /// Removes OUT's older `<key>.json` once its replay is written as `<key>.json.gz` and the
    /// results name that; false leaves it (the order that kept both).
    #[cfg(test)]
    plain_removed: bool,
    /// How many threads check the lines (see [`Vouch::check_all`]).
    jobs: usize,
    /// Checks each line as [`Vouch`] does; false only compares it with its replay's result
    /// (the check that took a result changed in both).
    #[cfg(test)]
    vouched: bool,
    /// Takes a line only from a results file of the shard whose match it is, and refuses the
    /// lines two folders give differently for one match; false takes the first line seen for
    /// each match, from any folder (the order that let a shard's folder hold another's matches).
    #[cfg(test)]
    owned: bool,
    /// Keeps the lines of OUT's results files it does not take in [`SET_ASIDE_FILE`]; false
    /// replaces those files without (the order that lost them).
    #[cfg(test)]
    keeps_unmerged: bool,
    /// Takes a match's result from its surest folders ([`Found::rank`]); false holds every
    /// folder alike (the order that let a folder recording no slice veto a shard's result).
    #[cfg(test)]
    ranked: bool,
    /// Takes the league's record from its folder (the first recording no slice), and refuses
    /// another that could be taken for it and differs; false takes the first folder's (the
    /// order that let a shard's folder given first rewrite the standings).
    #[cfg(test)]
    league_record: bool,
    /// Keeps what the league's folder (or OUT) already holds over any shard's line, and refuses
    /// a shard's folder of another split than the league's; false ranks the league's results
    /// below a shard's folder's (the order that let a folder claiming `slice 1/1` replace them).
    #[cfg(test)]
    league_held: bool,
    /// Gives the folder taken for the league's without `--league` (the first recording no slice
    /// and holding `versions/`) the rank of what the league holds; false (the default) gives it
    /// only to a folder named the league's (true is the order that let a shard's folder with
    /// its slice removed and a `versions/` made outrank the shards' lines).
    #[cfg(test)]
    inferred_rank: bool,
    /// Ranks the shards' results files of OUT and of the league's folder named (shards run there,
    /// in the folder they shared) above a shard's own folder: false ranks them below it (the
    /// order that let a shard's folder from elsewhere replace what the teacher's folders hold).
    #[cfg(test)]
    trusted_files: bool,
    /// Refuses a lone shard's folder of another split than the one the league's record (its last
    /// merge) or the teacher's folders show; false takes it as a new split (the order that let a
    /// lone folder claiming `slice 1/1` fill every match the league lacked).
    #[cfg(test)]
    lone_split: bool,
    /// Takes a line only naming its match's own replay (`replays/<key>.json.gz`), and writes
    /// that replay into OUT re-serialised from the replay read and checked; false writes the
    /// folder's bytes where the line says (the order that let a shard's line name
    /// `replays/evil.html`, published as a page, or another match's replay, replaced).
    #[cfg(test)]
    named_replays: bool,
    /// Takes a line naming its match's replay as an arena before compressed replays did
    /// (`replays/<key>.json`) too, writing it as `<key>.json.gz`; false refuses it (the order
    /// that set aside every line of a league made by an older arena).
    #[cfg(test)]
    plain_replays: bool,
    /// Holds every `results.shard-*.jsonl` file, OUT's and the league's named included, to one
    /// result a match, scheduled matches only and no `at` after the merge; false exempts every
    /// file of OUT and of the league's folder (the order that let a shard job's file in the
    /// folder the shards shared merge an unscheduled line and date the league 2099).
    #[cfg(test)]
    shard_files_held: bool,
    /// Takes a line as an arena before shards wrote it (no `at`, `ended_at`, `versions`) only
    /// from OUT's or the league's main results file; false takes it from any file (the order
    /// that let a shard's folder skip the versions and ended-at checks).
    #[cfg(test)]
    old_lines_teachers_only: bool,
    /// With `--league`, leaves out a folder (not the league's, not OUT) whose record cannot be
    /// read or is another league's, naming it; false refuses the whole merge (the order that let
    /// one bad folder stop it).
    #[cfg(test)]
    bad_records_left_out: bool,
    /// With `--league`, holds a folder recording no slice that is neither the league's nor OUT
    /// to its results files' names: its split checked as a shard's folder's (and a lone one
    /// refused, even where no split is known), none recorded from it, and a line of its main
    /// results file taken only where another folder holds the same result; false claims by
    /// its files' names as any folder (the order that let a shard's folder with its slice
    /// removed and one `results.shard-1-of-1.jsonl` fill the league and record its split).
    #[cfg(test)]
    sliceless_held: bool,
    /// Refuses, before any replay is read, the lines of a match a shard's folder (not OUT, not
    /// the league's named) holds more than once with different results; false checks each (the
    /// order that had a folder of many lines of one match, each naming a replay that unpacks to
    /// 64 MiB, keep the merge busy for hours).
    #[cfg(test)]
    one_result_each: bool,
    /// Takes a shard's folder's line of a match no longer scheduled only where an earlier
    /// schedule of the league (its bots' versions its history records) holds it, as it says;
    /// false takes any such line checked against its replay alone (the order that merged and
    /// published matches never scheduled).
    #[cfg(test)]
    earlier_only: bool,
    /// Takes a shard's folder's line ended later than the merge's clock (and [`AT_MARGIN`]) as
    /// ended then; false as it says (the order that let a line dated in 2099 date the league).
    #[cfg(test)]
    at_capped: bool,
    /// Takes a line of a match of no slice of the schedule (an earlier schedule's) from a folder
    /// with a slice (bound, or by its record) only where the league's folder or OUT holds the same
    /// result; false takes it wherever an earlier schedule holds it (the order that let a folder
    /// bound to 2/3 give a forged result of a match that was week 1's slice 3, never merged).
    #[cfg(test)]
    earlier_from_teachers: bool,
    /// Ranks a folder's lines of the slice the command line binds it to above a folder's lines
    /// of the slice its own record claims; false as sure (the order that let an unbound folder
    /// claiming a bound slice drop the bound honest shard's result as held differently).
    #[cfg(test)]
    bound_ranked: bool,
    /// Reads the replays of folders other than OUT, as the check reads them, as files of the
    /// folder's own (no link followed); false follows links (the order that read a teacher's
    /// file through a shard's link, and echoed part of it).
    #[cfg(test)]
    own_replays: bool,
    /// Waits for the folders merged up to `input_wait` in all; false up to `input_wait` each
    /// (the order that let a process holding several shards' folders' locks, each signed with a
    /// made-up `pid N on HOST`, delay the merge 2 minutes a folder).
    #[cfg(test)]
    one_wait: bool,
}

/// How many of a folder's lines naming another file than their replay a merge names (it counts
/// them all).
const MISNAMED_SHOWN: usize = 3;

/// How many entries of a folder merged that are no files of a league's folder a merge names (it
/// counts them all).
const UNKNOWN_SHOWN: usize = 5;

/// How far past a merge's clock a shard's line may say it ended (its node's clock a little
/// ahead): a line saying later is taken as ended then.
const AT_MARGIN: u64 = 3600;

impl Default for Steps<'_> {
    fn default() -> Self {
        Steps {
            bound: &[],
            killed: &|| false,
            stop: &|| false,
            staged: true,
            lock: Some(super::BATCH_LOCK_WAIT),
            lock_inputs: true,
            input_wait: super::BATCH_LOCK_WAIT,
            pages_first: true,
            jobs: super::check_jobs(None),
            #[cfg(test)]
            inputs_first: true,
            #[cfg(test)]
            replay_names_aside: true,
            #[cfg(test)]
            misnamed_per_folder: true,
            #[cfg(test)]
            plain_removed: true,
            #[cfg(test)]
            vouched: true,
            #[cfg(test)]
            owned: true,
            #[cfg(test)]
            keeps_unmerged: true,
            #[cfg(test)]
            ranked: true,
            #[cfg(test)]
            league_record: true,
            #[cfg(test)]
            league_held: true,
            #[cfg(test)]
            inferred_rank: false,
            #[cfg(test)]
            trusted_files: true,
            #[cfg(test)]
            lone_split: true,
            #[cfg(test)]
            named_replays: true,
            #[cfg(test)]
            plain_replays: true,
            #[cfg(test)]
            shard_files_held: true,
            #[cfg(test)]
            old_lines_teachers_only: true,
            #[cfg(test)]
            bad_records_left_out: true,
            #[cfg(test)]
            sliceless_held: true,
            #[cfg(test)]
            one_result_each: true,
            #[cfg(test)]
            earlier_only: true,
            #[cfg(test)]
            earlier_from_teachers: true,
            #[cfg(test)]
            bound_ranked: true,
            #[cfg(test)]
            own_replays: true,
            #[cfg(test)]
            one_wait: true,
            #[cfg(test)]
            at_capped: true,
        }
    }
}

impl Steps<'_> {
    /// Whether each line is checked as [`Vouch`] does (else only against its replay's result).
    fn vouched(&self) -> bool {
        #[cfg(test)]
        return self.vouched;
        #[cfg(not(test))]
        true
    }

    /// Why `line`, found in `dir`, is not the league's (see [`Vouch::why_not`]).
    fn why_not(&self, vouch: &mut Vouch, dir: &Path, line: &ResultLine) -> Option<String> {
        #[cfg(test)]
        if !self.vouched {
            return (!super::replay_agrees(dir, line)).then(|| "its replay disagrees".to_string());
        }
        vouch.why_not(dir, line)
    }

    /// Whether each folder's lines are held to its shards' matches, and conflicts refused.
    fn owned(&self) -> bool {
        #[cfg(test)]
        return self.owned;
        #[cfg(not(test))]
        true
    }

    /// Whether a match's result is taken from its surest folders.
    fn ranked(&self) -> bool {
        #[cfg(test)]
        return self.ranked;
        #[cfg(not(test))]
        true
    }

    /// Whether the league's record is its folder's, others that could be it checked.
    fn league_record(&self) -> bool {
        #[cfg(test)]
        return self.league_record;
        #[cfg(not(test))]
        true
    }

    /// Whether what the league's folder (or OUT) holds is kept over shards' lines.
    fn league_held(&self) -> bool {
        #[cfg(test)]
        return self.league_held;
        #[cfg(not(test))]
        true
    }

    /// Whether a folder taken for the league's, not named, holds the league's rank.
    fn inferred_rank(&self) -> bool {
        #[cfg(test)]
        return self.inferred_rank;
        #[cfg(not(test))]
        false
    }

    /// Whether the shards' results files of OUT and of the league's folder named outrank a
    /// shard's own folder.
    fn trusted_files(&self) -> bool {
        #[cfg(test)]
        return self.trusted_files;
        #[cfg(not(test))]
        true
    }

    /// Whether a lone folder of another split than the league's known one is refused.
    fn lone_split(&self) -> bool {
        #[cfg(test)]
        return self.lone_split;
        #[cfg(not(test))]
        true
    }

    /// Whether a line names only its match's own replay, written anew from the replay checked.
    fn named_replays(&self) -> bool {
        #[cfg(test)]
        return self.named_replays;
        #[cfg(not(test))]
        true
    }

    /// Whether a line may name its replay `replays/<key>.json`.
    fn plain_replays(&self) -> bool {
        #[cfg(test)]
        return self.plain_replays;
        #[cfg(not(test))]
        true
    }

    /// Whether OUT's and the league's shard files are held to the shard checks.
    fn shard_files_held(&self) -> bool {
        #[cfg(test)]
        return self.shard_files_held;
        #[cfg(not(test))]
        true
    }

    /// Whether a line before shards is taken only from the teacher's main results files.
    fn old_lines_teachers_only(&self) -> bool {
        #[cfg(test)]
        return self.old_lines_teachers_only;
        #[cfg(not(test))]
        true
    }

    /// Whether a folder with a bad record is left out rather than the merge refused.
    fn bad_records_left_out(&self) -> bool {
        #[cfg(test)]
        return self.bad_records_left_out;
        #[cfg(not(test))]
        true
    }

    /// Whether a folder recording no slice, not the league's named nor OUT, is held to its
    /// files' names.
    fn sliceless_held(&self) -> bool {
        #[cfg(test)]
        return self.sliceless_held;
        #[cfg(not(test))]
        true
    }

    /// Whether a shard's folder's match held with several results is refused unread.
    fn one_result_each(&self) -> bool {
        #[cfg(test)]
        return self.one_result_each;
        #[cfg(not(test))]
        true
    }

    /// Whether a shard's folder's line of a match not scheduled needs an earlier schedule's.
    fn earlier_only(&self) -> bool {
        #[cfg(test)]
        return self.earlier_only;
        #[cfg(not(test))]
        true
    }

    /// Whether an earlier schedule's line is taken from a folder with a slice only where the
    /// league's folder or OUT holds it.
    fn earlier_from_teachers(&self) -> bool {
        #[cfg(test)]
        return self.earlier_from_teachers;
        #[cfg(not(test))]
        true
    }

    /// Whether a bound folder's own slice's lines outrank those a folder's record claims.
    fn bound_ranked(&self) -> bool {
        #[cfg(test)]
        return self.bound_ranked;
        #[cfg(not(test))]
        true
    }

    /// Whether the replays of folders other than OUT are read as their own files.
    fn own_replays(&self) -> bool {
        #[cfg(test)]
        return self.own_replays;
        #[cfg(not(test))]
        true
    }

    /// Whether the folders merged are waited for up to `input_wait` in all (else each).
    fn one_wait(&self) -> bool {
        #[cfg(test)]
        return self.one_wait;
        #[cfg(not(test))]
        true
    }

    /// Whether a shard's line's time is capped at the merge's clock.
    fn at_capped(&self) -> bool {
        #[cfg(test)]
        return self.at_capped;
        #[cfg(not(test))]
        true
    }

    /// Whether the folders merged are locked before OUT is made.
    fn inputs_first(&self) -> bool {
        #[cfg(test)]
        return self.inputs_first;
        #[cfg(not(test))]
        true
    }

    /// Whether `a` and `b` are the same result (see [`same_result`]), the name of its replay
    /// aside where each names the match's own (`.json` or `.json.gz`).
    fn same_result(&self, a: &ResultLine, b: &ResultLine) -> bool {
        #[cfg(test)]
        if !self.replay_names_aside {
            return same_result(a, b) && a.replay == b.replay;
        }
        same_result(a, b)
    }

    /// Whether OUT's older `<key>.json`, written anew as `<key>.json.gz`, is removed.
    fn plain_removed(&self) -> bool {
        #[cfg(test)]
        return self.plain_removed;
        #[cfg(not(test))]
        true
    }

    /// Whether a folder's lines naming another replay are refused as one.
    fn misnamed_per_folder(&self) -> bool {
        #[cfg(test)]
        return self.misnamed_per_folder;
        #[cfg(not(test))]
        true
    }

    /// Whether the lines of OUT's results files the merge does not take are kept aside.
    fn keeps_unmerged(&self) -> bool {
        #[cfg(test)]
        return self.keeps_unmerged;
        #[cfg(not(test))]
        true
    }
}

/// A result line a merge takes, and where it was found.
struct Found {
    /// Its folder, by its place among the folders merged.
    dir: usize,
    /// Its results file's name.
    file: String,
    line: ResultLine,
    /// How surely its folder is its match's own: [`LEAGUE_HELD`] and [`HELD`] in what the league
    /// already holds (the main results file of the league's folder named by `--league`, and of
    /// OUT, recording no slice), which no shard's line overrides: a shard plays only what the
    /// league lacks; [`TEACHERS_SHARD`] in a shard's results file of those two folders (a shard
    /// run in the folder the shards shared: the teacher's own); [`BOUND`] in the folder the
    /// command line binds to the shard whose slice holds it (`K/N=DIR`); else 2 in the folder of
    /// the shard whose slice holds it (its record says so), 1 in a shard's results file of another
    /// folder recording no slice, 0 in the main results file of such a folder (a whole run's, a
    /// merge's, the league's folder not named). A match's result is taken from its surest
    /// folders; a line of it elsewhere that says otherwise is refused, naming the folder.
    rank: u8,
    /// Whether it is held only in the main results file of a folder recording no slice that is
    /// neither the league's named nor OUT (see [`Steps::sliceless_held`]): taken only where
    /// another folder holds the same result.
    alone: bool,
}

/// The rank ([`Found::rank`]) of a shard's results file in OUT or in the league's folder named,
/// each recording no slice: a shard run there, in the folder the shards shared, which is the
/// teacher's; above a shard's own folder, which may come from another machine (a student who
/// controls one held the match otherwise, and OUT's line was refused for it).
const TEACHERS_SHARD: u8 = 4;
/// The rank of a line of the slice the teacher's command line binds its folder to (`K/N=DIR`):
/// above a folder's slice its own record claims (whoever writes a shard's folder writes its
/// record, and a folder given alone claiming a bound slice dropped the bound honest shard's
/// result as held differently), below the teacher's own folders'.
const BOUND: u8 = 3;
/// The rank of what OUT already holds (an earlier merge of the league).
const HELD: u8 = 5;
/// The rank of what the league's folder holds, above OUT's: OUT is made from the league, and a
/// match played again there (`--rerun`) since OUT's merge was refused as held differently by
/// two folders, missing from OUT, with advice to remove one of them. Only the folder `--league`
/// names holds it: one taken for the league's by its looks (no slice, a `versions/`) may be a
/// shard's folder a student changed so.
const LEAGUE_HELD: u8 = 6;

/// The split of the league the shards' folders merged show, of their slices' counts `counts`
/// (one per folder recording a slice) and the league's record's last merge `recorded`: the one
/// count they all show (a new split of the league is one), else the record's where a folder
/// shows it, else the count most folders show; none where that cannot be told (two counts as
/// common, neither the record's).
fn league_split(counts: &[usize], recorded: Option<usize>) -> Option<usize> {
    let mut per: BTreeMap<usize, usize> = BTreeMap::new();
    for &count in counts {
        *per.entry(count).or_default() += 1;
    }
    if per.len() <= 1 {
        return per.keys().next().copied();
    }
    if let Some(n) = recorded.filter(|n| per.contains_key(n)) {
        return Some(n);
    }
    let most = per.values().copied().max().unwrap_or(0);
    let top: Vec<usize> = per.iter().filter(|(_, &n)| n == most).map(|(&count, _)| count).collect();
    (top.len() == 1).then(|| top[0])
}

/// [`merge`] with no league named, going as `steps` say.
#[cfg(test)]
fn merge_with(
    out: &Path,
    dirs: &[PathBuf],
    games: &Registry,
    reporter: &dyn Reporter,
    steps: &Steps,
) -> Result<Merged, TournamentError> {
    merge_in(out, None, dirs, games, reporter, steps)
}

/// [`merge`], going as `steps` say.
fn merge_in(
    out: &Path,
    league: Option<&Path>,
    dirs: &[PathBuf],
    games: &Registry,
    reporter: &dyn Reporter,
    steps: &Steps,
) -> Result<Merged, TournamentError> {
    let (killed, staged) = (steps.killed, steps.staged);
    let point = || {
        if !killed() {
            return Ok(());
        }
        Err(TournamentError::Stopped(format!(
            "{}: the merge was stopped before it finished, where the folder is whole: as it was, or complete (a \
             merge into it again takes up what this one left)",
            out.display()
        )))
    };
    if dirs.is_empty() && league.is_none() {
        return Err(TournamentError::Invalid(
            "merge: give at least one folder (arena merge OUT --league LEAGUE K/N=SHARD_DIR…)".to_string(),
        ));
    }
    // The slice each folder bound on the command line (`K/N=DIR`) is bound to, by its real
    // path: one path bound to two slices, or a binding without the league named, is refused
    // before anything is written. A bound folder that is a link, or is the league's folder, OUT
    // or a folder bound before under another path, is left out, named (it stopped the whole
    // merge, where a folder given alone so was only left out).
    let mut bound: HashMap<PathBuf, Shard> = HashMap::new();
    // (Every refusal, from the first: a merge that fails says those made before it, as it ends.)
    let mut refused = Refusals::default();
    // (The records of the shards' folders read with `--league`, by their place among the folders.)
    let mut read_records: HashMap<usize, TournamentRecord> = HashMap::new();
    let mut bound_left_out: HashSet<PathBuf> = HashSet::new();
    // (Each path as the terminal shows it: `1/3=` and a line break printed it raw.)
    let shown = |dir: &Path| crate::safe_text::terminal_line(&dir.display().to_string());
    for (k, (dir, slice)) in steps.bound.iter().enumerate() {
        if league.is_none() {
            return Err(TournamentError::Invalid(format!(
                "{slice}={}: a shard's folder bound to its slice needs the league's folder named: arena merge OUT \
                 --league LEAGUE K/N=SHARD_DIR…",
                shown(dir)
            )));
        }
        if let Some((_, other)) = steps.bound[..k].iter().find(|(d, other)| d == dir && other != slice) {
            return Err(TournamentError::Invalid(format!(
                "{}: bound to two slices, {other} and {slice}: a shard's folder holds one shard's results; bind each \
                 folder once",
                shown(dir)
            )));
        }
    }
    for (dir, slice) in steps.bound {
        if bound_left_out.contains(dir) {
            continue;
        }
        let is_link = dir.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
        let real = if is_link {
            None
        } else {
            Some(std::fs::canonicalize(dir).map_err(|e| {
                TournamentError::Invalid(format!(
                    "{slice}={}: the folder bound to shard {slice} cannot be read: {e}",
                    shown(dir)
                ))
            })?)
        };
        let teachers = real.is_some() && [league, Some(out)].into_iter().flatten().any(|t| super::same_folder(t, dir));
        let why = match &real {
            None => Some(format!(
                "a link{}: a shard's folder bound to its slice is named by its own path, never through a link",
                std::fs::read_link(dir)
                    .map(|to| format!(" (to {})", crate::safe_text::terminal_line(&to.display().to_string())))
                    .unwrap_or_default()
            )),
            Some(_) if teachers => Some(
                "the league's folder (--league) or OUT: they hold every shard's results (the folder the shards \
                 shared); name them without a slice"
                    .to_string(),
            ),
            Some(real) if bound.contains_key(real) => {
                steps.bound.iter().find(|(d, _)| d != dir && std::fs::canonicalize(d).is_ok_and(|d| d == *real)).map(
                    |(first, other)| {
                        format!(
                        "the same folder as {} (bound to shard {other}): a shard's folder is bound once, by one path",
                        shown(first)
                    )
                    },
                )
            }
            Some(_) => None,
        };
        match (why, real) {
            (Some(why), _) => {
                let why = format!(
                    "{slice}={}: bound to shard {slice} on the command line, but {why}: the folder is left out of the \
                     merge, none of its lines merged",
                    shown(dir)
                );
                refused.add(None, why);
                bound_left_out.insert(dir.clone());
            }
            (None, Some(real)) => {
                bound.insert(real, *slice);
            }
            (None, None) => {}
        }
    }
    let bound_to = |dir: &Path| -> Option<Shard> {
        if bound.is_empty() {
            return None;
        }
        std::fs::canonicalize(dir).ok().and_then(|real| bound.get(&real).copied())
    };
    // The league's folder named is merged first, unless it is among the folders given too.
    let mut given_dirs: Vec<PathBuf> = dirs.iter().filter(|d| !bound_left_out.contains(*d)).cloned().collect();
    let mut named_at = match league {
        Some(league) => {
            if !league.join(super::TOURNAMENT_FILE).is_file() {
                return Err(TournamentError::NotTheLeague {
                    dir: league.to_path_buf(),
                    why: format!(
                        "it holds no {}: `arena build CONFIG --out DIR` makes the league's folder",
                        super::TOURNAMENT_FILE
                    ),
                });
            }
            let real = std::fs::canonicalize(league).map_err(|e| TournamentError::io(league, e))?;
            match given_dirs.iter().position(|d| std::fs::canonicalize(d).is_ok_and(|d| d == real)) {
                Some(at) => Some(at),
                None => {
                    given_dirs.insert(0, league.to_path_buf());
                    Some(0)
                }
            }
        }
        None => None,
    };
    // With `--league`, a folder other than the league's and OUT whose record cannot be read
    // (none, `{}`, corrupt, a FIFO, a link, a folder) or is another league's is left out,
    // named, as one whose lock cannot be taken: one bad shard's folder stopped the whole merge.
    // A folder bound to a slice whose record names another is left out too, named: a student
    // who writes a shard's folder claimed another shard's slice in its record (the honest
    // shard's results, held differently by the two, dropped), and only the teacher's command
    // line tells which folder is which shard's.
    if let (Some(at), true) = (named_at, steps.bad_records_left_out() || !bound.is_empty()) {
        let league_record = TournamentRecord::load_unlinked(&given_dirs[at], games)?;
        // (A shard's record is a copy of the league's: read no larger than twice it, or 16 MiB.)
        let cap = given_dirs[at]
            .join(super::TOURNAMENT_FILE)
            .metadata()
            .map_or(0, |m| m.len())
            .saturating_mul(2)
            .max(SHARD_RECORD_MIN_CAP);
        let out_real = std::fs::canonicalize(out).ok();
        let mut kept = Vec::with_capacity(given_dirs.len());
        for (d, dir) in given_dirs.iter().enumerate() {
            if d == at {
                named_at = Some(kept.len());
            } else if dir.symlink_metadata().is_ok()
                && (out_real.is_none() || std::fs::canonicalize(dir).ok() != out_real)
            {
                // (A folder that is not there at all, a typo, still stops the merge: below.)
                let read = shard_record(dir, games, &league_record, cap);
                let why = match (&read, bound_to(dir)) {
                    (Err(why), _) if steps.bad_records_left_out() => Some(shard_text(why)),
                    (Ok(TournamentRecord { slice: Some(slice), .. }), Some(to)) if *slice != to => Some(format!(
                        "bound to shard {to} on the command line ({to}=DIR), but its {} names the slice of shard \
                         {slice}: a shard's folder claiming another shard's slice, or the folders bound to the \
                         wrong slices (check the command line)",
                        super::TOURNAMENT_FILE
                    )),
                    _ => None,
                };
                if let Some(why) = why {
                    let why = format!(
                        "{}: {why}: the folder is left out of the merge, none of its lines merged",
                        dir.display()
                    );
                    refused.add(None, why);
                    continue;
                }
                // (Kept as read: read again, the file could be another by then, up to 4 GiB, and
                // its error ended the whole merge rather than leaving the folder out.)
                if let Ok(theirs) = read {
                    read_records.insert(kept.len(), theirs);
                }
            }
            kept.push(dir.clone());
        }
        given_dirs = kept;
    }
    // (OUT a file: not a folder to merge into. A folder merged without a record: no league's.)
    if out.symlink_metadata().is_ok() && !out.is_dir() {
        return Err(TournamentError::Invalid(format!(
            "{}: not a folder: merge into a new or empty folder, or into one of the folders merged (arena merge OUT \
             DIR…)",
            out.display()
        )));
    }
    if let Some(dir) = given_dirs.iter().find(|d| !d.join(super::TOURNAMENT_FILE).is_file()) {
        return Err(TournamentError::Invalid(format!(
            "{}: no {}: not a league's folder; merge the league's folder (`arena build CONFIG --out DIR` made it) \
             and its shards' folders",
            dir.display(),
            super::TOURNAMENT_FILE
        )));
    }
    // (A folder merged but the league's named and OUT is data: its record is read as a file of
    // its own, no link nor hard link, as every file of it is; with `--league`, it was read
    // above. One that cannot be read so is left out, named, as with `--league`: a hard link in
    // a shard's folder ended the whole merge without it.)
    let out_before = std::fs::canonicalize(out).ok();
    let mut records: Vec<TournamentRecord> = Vec::with_capacity(given_dirs.len());
    let mut kept = Vec::with_capacity(given_dirs.len());
    for (d, dir) in given_dirs.iter().enumerate() {
        let teachers = Some(d) == named_at || (out_before.is_some() && std::fs::canonicalize(dir).ok() == out_before);
        let record = if teachers {
            TournamentRecord::load_unlinked(dir, games)?
        } else if let Some(theirs) = read_records.remove(&d) {
            theirs
        } else {
            match TournamentRecord::read_foreign(dir, super::MAX_RECORD_BYTES) {
                Ok(text) => TournamentRecord::parse_foreign(dir, games, &text)?,
                Err(e) if named_at.is_none() && steps.bad_records_left_out() => {
                    // (Without `--league` every folder but OUT is taken for a shard's: the league's
                    // own, once copied with `cp -al`, has hard links, which are read only there.)
                    let mut why = shard_text(&e.to_string());
                    if why.contains("a hard link") {
                        why = format!(
                            "{}: if it is the league's folder, name it with --league {} (`arena merge OUT --league {} …`): \
                             its hard links (a `cp -al` backup's) are read there; else: {why}",
                            dir.display(),
                            crate::safe_text::path_word(dir),
                            crate::safe_text::path_word(dir)
                        );
                    }
                    refused.add(None, format!("{why}: the folder is left out of the merge, none of its lines merged"));
                    continue;
                }
                Err(e) => return Err(e),
            }
        };
        records.push(record);
        kept.push(dir.clone());
    }
    if kept.is_empty() {
        return Err(TournamentError::Invalid(refused.take().0.join("; ")));
    }
    given_dirs = kept;
    let dirs = &given_dirs[..];
    // The league's record (its bots, versions, failures: what the standings show) is its
    // folder's, the first folder recording no shard's slice, wherever it is given; a shard's
    // folder given first rewrote the league's standings with its copy's. Without the league's
    // folder, the first shard's. Every other folder that could be taken for it (recording no
    // slice) must hold the same record, else which is the league's is not known: refused.
    // Named (`--league`), it is that folder's, which must be no shard's; and every other folder
    // is a shard's, its record not compared (a copy of the league's used as the folder shards
    // shared on another machine records no slice either).
    let source = match named_at {
        Some(at) => at,
        None => records.iter().position(|r| r.slice.is_none()).filter(|_| steps.league_record()).unwrap_or(0),
    };
    if let Some(slice) = named_at.and_then(|at| records[at].slice) {
        return Err(TournamentError::NotTheLeague {
            dir: dirs[source].clone(),
            why: format!(
                "its {} names the slice of shard {slice} (`slice`): it is a shard's folder (`arena tournament \
                 --shard {slice} --out DIR` made it); name the folder `arena build` made",
                super::TOURNAMENT_FILE
            ),
        });
    }
    let league_dir = dirs[source].clone();
    // (Where it is among the folders: its main results file is what the league holds.)
    let league_at = source;
    let candidate = |r: &TournamentRecord| {
        steps.league_record() && named_at.is_none() && (r.slice.is_none() || records[source].slice.is_some())
    };
    for (dir, theirs) in dirs.iter().zip(&records) {
        if let Some(at) = candidate(theirs).then(|| record_differs(&records[source], theirs)).flatten() {
            return Err(TournamentError::Invalid(format!(
                "{}: its record differs from {}'s in `{at}`: {}",
                dir.display(),
                league_dir.display(),
                if records[source].slice.is_some() { SHARD_RECORDS_DIFFER } else { RECORDS_DIFFER }
            )));
        }
        if let Some(why) = not_the_league(&records[source], theirs) {
            return Err(TournamentError::Invalid(format!(
                "{}: {why} from {}: merge only the shards of one league (one `arena build`)",
                dir.display(),
                league_dir.display()
            )));
        }
    }
    // The slice each folder is a shard's own folder of, as the command line binds it, else as
    // its record says (see below).
    let bound_at: Vec<Option<Shard>> = dirs.iter().map(|dir| bound_to(dir)).collect();
    let mut own_slices: Vec<Option<Shard>> =
        records.iter().zip(&bound_at).map(|(r, bound)| bound.or(r.slice)).collect();
    // (Where a folder's slice comes from, for what the merge says of it.)
    let says = |d: usize| {
        if bound_at.get(d).copied().flatten().is_some() {
            "as the command line binds it"
        } else {
            "as its record says"
        }
    };
    // (What the league's folder holds outranks every shard's line where `--league` names it.
    // The folder recording no slice and holding its bots' `versions/` looks like one `arena
    // build` made, but a shard's folder with its slice removed and a `versions/` made looks the
    // same: taken for the league's by its looks, its lines outranked the shards'. Unnamed, it
    // still counts as the league's folder given, for the advice on missing matches.)
    // (`versions/` may be a link to a folder elsewhere, to share a disk: followed.)
    let looks_like_league =
        records[source].slice.is_none() && dirs[source].join("versions").metadata().is_ok_and(|m| m.is_dir());
    let league_known = named_at.is_some() || (looks_like_league && steps.inferred_rank());
    let mut league_given = named_at.is_some() || looks_like_league;
    let league_inferred = (named_at.is_none() && records[source].slice.is_none()).then(|| league_dir.clone());
    let mut record = records.swap_remove(source);
    drop(records);
    // (The record OUT gets is the league's, no shard's folder's.)
    record.slice = None;
    // One merge into OUT at a time, from before it is looked at to the end: OUT's own lock is
    // not there yet for a new OUT, and moves with it into the staging folder as it takes OUT's
    // place (a merge started then locked a new one, and wrote the same staging folder). Where
    // no file can be made beside OUT, no staging folder can be either: OUT's own lock is enough.
    let _merging = match steps.lock {
        Some(wait) => out_lock(out, wait, steps.stop)?,
        None => None,
    };
    // Whether OUT is one of the folders merged (it may not exist yet: then it is not).
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let out_before = real(out);
    let given = out_before.is_some() && dirs.iter().any(|d| real(d) == out_before);
    // OUT holding no league and files a league's folder does not have is another folder (a
    // typo naming a bot's folder, whose new files would make the bot a new version, or the
    // course's): refused before anything, the lock's file included, is written into it.
    if let Some(name) = if given { None } else { foreign_entry(out) } {
        return Err(TournamentError::Invalid(format!(
            "{}: not a league's folder and not empty (it holds {}): merge into a new or empty folder, or into one of \
             the folders merged",
            out.display(),
            crate::safe_text::terminal(&name)
        )));
    }
    // Each folder merged holds still meanwhile: one a shard still writes (it holds the folder's
    // lock, as in a shared folder) is refused, not read as a shard that did not finish. Taken
    // after the merge's own lock beside OUT (a second merge into it is refused there, naming the
    // first), before OUT is made: the league's folder still written by a shard
    // stops the merge with nothing written (a new OUT was made first, and left behind empty).
    let out_guess = std::fs::canonicalize(out)
        .ok()
        .or_else(|| {
            let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            Some(std::fs::canonicalize(parent).ok()?.join(out.file_name()?))
        })
        .unwrap_or_else(|| out.to_path_buf());
    let inputs_locked = if steps.lock_inputs && steps.inputs_first() {
        Some(lock_inputs(dirs, &out_guess, (league_at, named_at), (steps.input_wait, steps.one_wait()), steps.stop)?)
    } else {
        None
    };
    // OUT is locked before it is looked at: a merge finishing into it meanwhile would otherwise
    // go unseen, and its results be dropped by this one's rewrite.
    // (Private to the merge's user, as a run's league: it holds the secret.)
    crate::files::make_private_folder(out).map_err(|e| TournamentError::io(out, e))?;
    // (Started by a batch system once the shards ended, it waits for an `arena leaderboard` of
    // the league run meanwhile, not for shards still running.)
    let _lock = FolderLock::take_waiting_until(out, None, super::BATCH_LOCK_WAIT, steps.stop)?;
    // OUT's own results are rewritten: when it holds some and is not one of the folders, they
    // are merged too if they are the league's, and the merge is refused if they are not.
    let out_real = std::fs::canonicalize(out).map_err(|e| TournamentError::io(out, e))?;
    let is_out = |dir: &Path| std::fs::canonicalize(dir).is_ok_and(|d| d == out_real);
    let mut dirs = dirs.to_vec();
    let holds_league = out.join(super::TOURNAMENT_FILE).exists() || !results::files(out).is_empty();
    if !given && holds_league {
        let why = if !out.join(super::TOURNAMENT_FILE).exists() {
            Some(format!("results files but no {}", super::TOURNAMENT_FILE))
        } else {
            let theirs = TournamentRecord::load_unlinked(out, games)?;
            own_slices.push(theirs.slice);
            // (Only another league is refused: OUT's record is replaced by the league's, so an
            // earlier merge's record differing from it (a label, a failure, a setting changed
            // since) is what this merge brings up to date.)
            not_the_league(&record, &theirs).map(|why| format!("{why} from {}", league_dir.display()))
        };
        if let Some(why) = why {
            return Err(TournamentError::Invalid(format!(
                "{}: holds another league's record or results ({why}): merge into a new folder, or into one of the folders merged",
                out.display()
            )));
        }
        dirs.push(out.to_path_buf());
    }
    let dirs = &dirs[..];
    league_given |= dirs.iter().zip(&own_slices).any(|(dir, slice)| slice.is_none() && is_out(dir));
    // (OUT, appended last if it is merged too, is locked as OUT.)
    let (_inputs, left_out) = match inputs_locked {
        Some(locked) => locked,
        None if steps.lock_inputs => {
            lock_inputs(dirs, &out_real, (league_at, named_at), (steps.input_wait, steps.one_wait()), steps.stop)?
        }
        None => (Vec::new(), Vec::new()),
    };
    let skipped: HashSet<usize> = left_out.iter().map(|(d, _)| *d).collect();
    // What a folder merged holds that no league's folder does is left where it is: named, a few
    // of each folder, the rest counted (a shard's folder of 100,000 such files printed a warning
    // a file).
    for dir in dirs.iter().filter(|d| !is_out(d)) {
        // (A few kept, the rest counted: a folder of 100,000 such entries was held whole.)
        let mut names: Vec<String> = Vec::with_capacity(UNKNOWN_SHOWN);
        let mut n = 0;
        for name in std::fs::read_dir(dir).into_iter().flatten().flatten().filter_map(|e| unknown_entry(&e)) {
            n += 1;
            if names.len() < UNKNOWN_SHOWN {
                names.push(crate::safe_text::terminal_line(&name));
            }
        }
        match n {
            0 => {}
            1 => tracing::warn!("{}: {}: no file of a league's folder: left out of the merge", dir.display(), names[0]),
            n => tracing::warn!(
                "{}: {n} entries are no files of a league's folder, left out of the merge: {}",
                dir.display(),
                results::first_few(names.into_iter(), n, UNKNOWN_SHOWN)
            ),
        }
    }
    super::refuse_foreign_links(out)?;
    super::remove_temporaries(out);
    // Where the league is written: OUT when it holds the league already (its record stays, its
    // results are replaced at once), else a staging folder renamed to OUT once complete.
    // (Not where OUT is a mount point, a Docker volume or a disk of its own: no rename crosses
    // into it, and the merge failed at its last step, every time; written straight into it.)
    let staging = if staged && !holds_league && !given { staging_folder(&out_real)? } else { None };
    // (Nor where no staging folder can be made beside OUT, or nothing made there renames into
    // it: a parent folder the teacher may not write in, OUT a bind mount of the same disk.)
    let staging = match staging {
        Some(staging) if stages_into(&staging, out)? => Some(staging),
        Some(staging) => {
            tracing::warn!(
                "{}: no folder beside it to build the league in whole ({} cannot be made or renamed into it): \
                 written straight into it, so a merge cut short leaves it partial until run again",
                out.display(),
                staging.display()
            );
            None
        }
        None => None,
    };
    let into = staging.as_deref().unwrap_or(out);
    if let Some(staging) = &staging {
        super::refuse_foreign_links(staging)?;
        super::remove_temporaries(staging);
    } else if let Some(staging) = staging_folder(&out_real).ok().flatten().filter(|s| s.exists()) {
        tracing::warn!(
            "{}: a merge into {} was cut short there before {} held a league: it is left as it is",
            staging.display(),
            out.display(),
            out.display()
        );
    }
    super::make_league_folder(into, &super::LEAGUE_FOLDERS[..=super::MADE_WITH_LEAGUE])?;
    point()?;
    // How the league was split, from its shards' results files taken (before OUT's are folded
    // in): a folder refused for its split (a lone one claiming `1/1`) records none.
    let mut counts: BTreeSet<usize> = BTreeSet::new();
    #[cfg(test)]
    if !steps.sliceless_held {
        counts = dirs
            .iter()
            .flat_map(|dir| results::files(dir))
            .filter_map(|f| f.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file))
            .filter(|shard| shard.beyond(record.schedule.len()).is_none())
            .map(|shard| shard.count)
            .collect();
    }
    // With `--league`, a folder recording no slice that is neither the league's nor OUT is a
    // shard's folder only by its results files' names: a shard's folder whose slice a student
    // removed looks so. (A copy of the league's folder the shards shared elsewhere, holding
    // their `results.shard-K-of-N.jsonl`, is one too.)
    let teachers_dir = |d: usize| is_out(&dirs[d]) || Some(d) == named_at;
    // (The teacher's own lines are those of its main results file: a shard job's
    // `results.shard-K-of-N.jsonl` in the folder the shards shared is a shard's, held as any.)
    let teachers_line = |d: usize, file: &Path| {
        teachers_dir(d) && (!steps.shard_files_held() || file.file_name().is_some_and(|n| n == RESULTS_FILE))
    };
    let no_slice = |d: usize| {
        steps.sliceless_held()
            && named_at.is_some()
            && own_slices.get(d).copied().flatten().is_none()
            && !teachers_dir(d)
    };
    // Each folder's lines, checked: a line of a shard's results file only for a match of that
    // shard's slice (a folder that held another shard's matches, forged or not, won them when
    // it came first); each line through [`Vouch`]; and where folders hold a match's result
    // differently, none of them (which is the shard's own, the arena cannot tell).
    let mut splits: BTreeMap<usize, BTreeMap<String, usize>> = BTreeMap::new();
    let mut found: Vec<Found> = Vec::new();
    let mut by_key: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    warn_of_unprotected_hard_links();
    let mut vouch = Vouch::new(&record, games);
    if steps.own_replays() {
        let teachers: Vec<&Path> =
            std::iter::once(out_real.as_path()).chain(named_at.map(|at| dirs[at].as_path())).collect();
        vouch = vouch.own_replays().teachers_folders(&teachers);
    }
    // (Each said once, by the command, at the end, a few of each folder: logged here too, every
    // refusal was said twice, and a folder of thousands of bad lines flooded the terminal.)
    let refuse = |refused: &mut Refusals, at: Option<&Path>, refusal: String| refused.add(at, refusal);
    // Every folder's lines, in order, each with its folder, its file and the shard it claims.
    let mut lines: Vec<(usize, &PathBuf, Option<Shard>, ResultLine)> = Vec::new();
    // (A folder left out, its lock not taken, gives nothing: named. One whose record is bad
    // was named as it was left out, above.)
    for (_, why) in &left_out {
        refuse(&mut refused, None, why.clone());
    }
    let files: Vec<(usize, PathBuf)> = dirs
        .iter()
        .enumerate()
        .filter(|(d, _)| !skipped.contains(d))
        .flat_map(|(d, dir)| results::files(dir).into_iter().map(move |f| (d, f)))
        .collect();
    // A file named like results that no run writes (`results.backup.jsonl`, a copy) is nobody's:
    // named, and none of its lines taken.
    let taken_dirs = dirs.iter().enumerate().filter(|(d, _)| !skipped.contains(d)).map(|(_, dir)| dir);
    for (dir, stray) in taken_dirs.flat_map(|dir| results::strays(dir).into_iter().map(move |f| (dir, f))) {
        refuse(
            &mut refused,
            Some(dir),
            results::stray_message(dir, &stray, "so no shard's, and none of its lines is merged"),
        );
    }
    // A shard's folder of another split than the league's (a folder claiming `slice 1/1`
    // claims every match) gives nothing: a split is the league's, its folders' slices one N.
    // (A folder recording no slice counts by its shards' results files, each as a folder of
    // its split: the folder the shards shared holds them all.)
    let mut folder_counts: Vec<usize> = own_slices
        .iter()
        .enumerate()
        .filter(|(d, _)| !skipped.contains(d))
        .filter_map(|(_, s)| s.map(|s| s.count))
        .collect();
    for (_, dir) in dirs.iter().enumerate().filter(|(d, _)| no_slice(*d) && !skipped.contains(d)) {
        let shards: BTreeSet<(usize, usize)> = results::files(dir)
            .iter()
            .filter_map(|f| f.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file))
            .filter(|shard| shard.beyond(record.schedule.len()).is_none())
            .map(|shard| (shard.count, shard.index))
            .collect();
        folder_counts.extend(shards.iter().map(|&(count, _)| count));
    }
    // The split the teacher's side shows, if it shows one: the league's record (its last merge,
    // since its build), else the shards' results files of OUT and of the league's folder named
    // (shards run there, in the folder they shared), one N.
    let teachers: BTreeSet<usize> = dirs
        .iter()
        .enumerate()
        .filter(|(d, dir)| own_slices[*d].is_none() && (is_out(dir) || Some(*d) == named_at) && !skipped.contains(d))
        .flat_map(|(_, dir)| results::files(dir))
        .filter_map(|f| f.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file))
        .filter(|shard| shard.beyond(record.schedule.len()).is_none())
        .map(|shard| shard.count)
        .collect();
    let known = match (record.shards, teachers.len()) {
        (Some(n), _) => {
            Some((n, format!("as {}'s last merge recorded (`shards` in its record)", league_dir.display())))
        }
        (None, 1) => teachers
            .first()
            .map(|&n| (n, "as the shards' results files in OUT or the league's folder show".to_string())),
        _ => None,
    };
    let mut split = league_split(&folder_counts, known.as_ref().map(|(n, _)| *n));
    // A new split of the league (a shard run with another N splits it anew) shows in the
    // folders of its shards; a lone folder showing another split than the one known is refused:
    // a student who controls a shard's folder could make it claim `slice 1/1`, every match the
    // league lacks.
    let mut lone = false;
    if let (Some((n, _)), Some(k)) = (&known, split) {
        if *n != k && steps.lone_split() && folder_counts.iter().filter(|&&c| c == k).count() == 1 {
            (split, lone) = (Some(*n), true);
        }
    }
    let mut other_split: BTreeSet<usize> = BTreeSet::new();
    for (d, file) in &files {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let named = Shard::of_results_file(&name);
        if let Some(own) = own_slices.get(*d).copied().flatten().filter(|_| steps.league_held()) {
            if split != Some(own.count) {
                let counts: BTreeSet<String> = folder_counts.iter().map(usize::to_string).collect();
                let league = match (split, &known) {
                    (Some(n), Some((k, why))) if n == *k && lone => format!(
                        "the league is split into {n} shards ({why}), and no other folder merged is of its \
                         split: a new split is taken from its shards' folders, two or more"
                    ),
                    (Some(n), Some((k, why))) if n == *k => format!("the league is split into {n} shards ({why})"),
                    (Some(n), _) => format!("the league is split into {n} shards"),
                    (None, _) => {
                        // (Every folder of every split named: a student's folder claiming another
                        // split than the teacher's shards leaves them all out, and the teacher
                        // must see which to leave out.)
                        let mut by_split: BTreeMap<usize, Vec<String>> = BTreeMap::new();
                        for (e, slice) in own_slices.iter().enumerate().filter(|(e, _)| !skipped.contains(e)) {
                            if let Some(slice) = slice {
                                by_split.entry(slice.count).or_default().push(dirs[e].display().to_string());
                            }
                        }
                        let named: Vec<String> =
                            by_split.iter().map(|(n, folders)| format!("{n} shards: {}", folders.join(", "))).collect();
                        format!(
                            "the shards' folders merged are of several splits ({} shards), as many folders each, and \
                             which is the league's cannot be told ({}); merge again giving only the folders of the \
                             split the teacher's jobs ran (`--shard K/N`), or a split is recorded once the league's \
                             folder holds one merge of them",
                            counts.into_iter().collect::<Vec<_>>().join(", "),
                            named.join("; ")
                        )
                    }
                };
                if other_split.insert(*d) {
                    refuse(
                        &mut refused,
                        Some(&dirs[*d]),
                        format!(
                            "{}: the folder of shard {own} ({}), and {league}: none of its lines is merged; merge \
                             the folders of one split",
                            dirs[*d].display(),
                            says(*d)
                        ),
                    );
                }
                continue;
            }
        }
        // A shard's own folder (its record says which slice) gives only its slice's lines, from
        // its own results file or its main one, whatever the names: another shard's results
        // file there is refused whole. A folder recording none (the league's, shared by the
        // shards; a merge's; a shard's of an earlier arena) claims by its files' names.
        let claim = match own_slices.get(*d).copied().flatten().filter(|_| steps.owned()) {
            Some(own) if named.is_some_and(|n| n != own) => {
                refuse(
                    &mut refused,
                    Some(&dirs[*d]),
                    format!(
                        "{}: {}: another shard's results file, in the folder of shard {own} ({}): none of its \
                         lines is merged",
                        dirs[*d].display(),
                        crate::safe_text::terminal_line(&name),
                        says(*d)
                    ),
                );
                continue;
            }
            Some(own) => Some(own),
            None => named,
        };
        // (A shard of more slices than the league has matches: no shard of it wrote the file.)
        if let Some((shard, why)) = claim.and_then(|c| Some((c, c.beyond(record.schedule.len())?))) {
            refuse(
                &mut refused,
                Some(&dirs[*d]),
                format!(
                    "{}: {}: the results of shard {shard}, {why}: no shard of this league wrote it, and none of its \
                     lines is merged",
                    dirs[*d].display(),
                    crate::safe_text::terminal_line(&name)
                ),
            );
            continue;
        }
        // A folder recording no slice that is neither the league's named nor OUT gives a shard's
        // results file only of the league's split, and one some other folder or file shows too,
        // or the league's record or the teacher's folders back: alone, it is a split of its own
        // (`results.shard-1-of-1.jsonl` claims every match).
        if let Some(shard) = named.filter(|_| no_slice(*d)) {
            let backed = known.as_ref().is_some_and(|(n, _)| *n == shard.count)
                || folder_counts.iter().filter(|&&c| c == shard.count).count() >= 2;
            if split != Some(shard.count) || !backed {
                refuse(
                    &mut refused,
                    Some(&dirs[*d]),
                    format!(
                        "{}: {}: the results of shard {shard}, in a folder recording no slice that is not the league's \
                         folder named by --league: a shard's folder by its files' names, and {}: none of its lines is \
                         merged; merge the shards' own folders (`arena tournament --shard K/N --out DIR` records the \
                         slice), or the folder they shared holding the files of two or more of them",
                        dirs[*d].display(),
                        crate::safe_text::terminal_line(&name),
                        match split {
                            Some(n) if n != shard.count => format!("the league is split into {n} shards"),
                            _ => "no other folder or file merged is of its split, and the league's record and \
                                  folder show none: a lone split of its own is not taken"
                                .to_string(),
                        }
                    ),
                );
                continue;
            }
        }
        if let Some(shard) = named.filter(|_| claim.is_some() && steps.sliceless_held()) {
            counts.insert(shard.count);
        }
        // (A folder merged but OUT is data: its results files are read only as files of its own,
        // no link followed, and no larger than a results file; one that is not is refused, named.)
        // (The league's folder named by `--league` and OUT's too, no link followed: in the
        // shared folder's flow, `arena merge L --league L`, a shard's machine that wrote in L may
        // leave a link there to a teacher's file, whose text the merge would copy into OUT's
        // `refused.jsonl`. Their hard links are read, a shard's are not: see `teachers_reads`.)
        let read = if teachers_dir(*d) { results::read_own_file } else { results::read_foreign_file };
        match read(file) {
            Ok((read, _)) => lines.extend(read.into_iter().map(|line| (*d, file, claim, line))),
            Err(e) => refuse(&mut refused, Some(&dirs[*d]), format!("{e}: none of its lines is merged")),
        }
    }
    // A line names its match's own replay, `replays/<key>.json.gz`, as every run writes it: one
    // naming another file (`replays/evil.html`, another match's replay) is refused, naming it;
    // the merge would write the folder's replay there, a page published or a match's replay
    // replaced.
    // (One refusal a folder, with its count and a few of them: a folder of hundreds of such
    // lines printed a warning a line.)
    if steps.named_replays() {
        let mut misnamed: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
        lines.retain(|(d, _, _, line)| {
            let own = replay_of(&line.key);
            // (An arena before replays were compressed named them `replays/<key>.json`: read the
            // same way, and written as `<key>.json.gz` like every other.)
            if line.replay == own || (steps.plain_replays() && line.replay == plain_replay_of(&line.key)) {
                return true;
            }
            misnamed.entry(*d).or_default().push((line.key.clone(), line.replay.escape_debug().to_string()));
            false
        });
        for (d, of) in misnamed {
            let one = |(key, replay): &(String, String)| {
                format!("match {key}: its replay is named `{replay}`, not {}", replay_of(key))
            };
            if of.len() == 1 || !steps.misnamed_per_folder() {
                for line in &of {
                    refuse(
                        &mut refused,
                        Some(&dirs[d]),
                        format!(
                            "{}: {}: a result line names its own match's replay, and no other file",
                            dirs[d].display(),
                            one(line)
                        ),
                    );
                }
                continue;
            }
            refuse(
                &mut refused,
                Some(&dirs[d]),
                format!(
                    "{}: {} lines name another file than their match's replay (a result line names its own match's \
                     replay, `replays/<key>.json.gz`, and no other file), so none of them is merged: {}",
                    dirs[d].display(),
                    of.len(),
                    super::results::first_few(of.iter().map(one), of.len(), MISNAMED_SHOWN)
                ),
            );
        }
    }
    // A shard's folder (not OUT, not the league's named) holds each match once: one holding a
    // match more than once with different results is refused for it, naming it, before any
    // replay is read (a folder of thousands of lines of one match, each naming a replay that
    // unpacks to 64 MiB, kept the merge busy for hours).
    if steps.one_result_each() {
        let mut per: BTreeMap<(usize, &str), Vec<usize>> = BTreeMap::new();
        for (i, (d, _, _, line)) in lines.iter().enumerate().filter(|(_, (d, file, ..))| !teachers_line(*d, file)) {
            per.entry((*d, line.key.as_str())).or_default().push(i);
        }
        let mut dropped: HashSet<usize> = HashSet::new();
        let mut why = Vec::new();
        for ((d, key), at) in per {
            let results: Vec<&ResultLine> = at.iter().map(|&i| &lines[i].3).collect();
            if results.iter().all(|line| steps.same_result(results[0], line)) {
                continue;
            }
            dropped.extend(at.iter().copied());
            why.push((
                d,
                format!(
                    "{}: match {key}: the folder holds {} lines of it with different results: a shard plays each \
                     match once, so none of them is merged (and no replay of them is read)",
                    dirs[d].display(),
                    at.len()
                ),
            ));
        }
        for (d, why) in why {
            refuse(&mut refused, Some(&dirs[d]), why);
        }
        let mut i = 0;
        lines.retain(|_| {
            i += 1;
            !dropped.contains(&(i - 1))
        });
    }
    // A shard's folder's line of a match not scheduled is taken only where an earlier schedule
    // of the league holds it, as it says (a result of an earlier version of its bots, which the
    // league's history records): any other was merged and published, checked against its
    // replay alone.
    if steps.earlier_only() {
        let scheduled: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
        lines.retain(|(d, file, _, line)| {
            if teachers_line(*d, file) || scheduled.contains(line.key.as_str()) {
                return true;
            }
            match vouch.earlier_match(line) {
                Ok(_) => true,
                Err(why) => {
                    refuse(
                        &mut refused,
                        Some(&dirs[*d]),
                        format!("{}: match {}: {}", dirs[*d].display(), line.key, shard_text(&why)),
                    );
                    false
                }
            }
        });
    }
    // A line as an arena before shards wrote it (no `at`, `ended_at` nor `versions`) is taken
    // without its versions, ended-at and forfeits checked: only the teacher's own main results
    // file (OUT's, the league's named or, without one named, taken) is as old; a shard's line
    // so is refused (it skipped them).
    if steps.old_lines_teachers_only() {
        lines.retain(|(d, file, _, line)| {
            // (Without `--league`, the folder taken for the league's, recording no slice, is the
            // teacher's too: an old league merged alone.)
            let inferred = named_at.is_none()
                && *d == league_at
                && own_slices.get(*d).copied().flatten().is_none()
                && file.file_name().is_some_and(|n| n == RESULTS_FILE);
            if teachers_line(*d, file) || inferred || !super::vouch::before_shards(line) {
                return true;
            }
            refuse(
                &mut refused,
                Some(&dirs[*d]),
                format!(
                    "{}: match {}: its line names no `at`, `ended_at` nor `versions`, as only an arena before shards \
                     wrote it, and a shard's results are never so old: not merged",
                    dirs[*d].display(),
                    crate::safe_text::terminal_line(&line.key)
                ),
            );
            false
        });
    }
    // When a shard's line says it ended is its node's clock, and the league's date is its
    // latest result's: a line of a shard's folder saying it ended after the merge (and a
    // margin for a clock a little ahead) is taken as ended now (one dated 2099 dated the league).
    if steps.at_capped() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        for (d, _, _, line) in lines.iter_mut().filter(|(d, file, ..)| !teachers_line(*d, file)) {
            if line.at > now.saturating_add(AT_MARGIN) {
                tracing::warn!(
                    "{}: match {}: it says it ended at {}, after this merge: taken as ended now",
                    dirs[*d].display(),
                    crate::safe_text::terminal_line(&line.key),
                    line.at
                );
                line.at = now;
            }
        }
    }
    // Whether a line is another shard's match than its file's.
    let mut not_its_shard = |claim: Option<Shard>, line: &ResultLine| -> Option<Shard> {
        let claim = claim.filter(|_| steps.owned())?;
        let split = splits.entry(claim.count).or_insert_with(|| slices(&record.schedule, claim.count));
        split.get(&line.key).filter(|&&owner| owner != claim.index).map(|&index| Shard { index, count: claim.count })
    };
    // Whether a line is of a match of no slice of the schedule (an earlier schedule's) in a
    // folder with a slice (bound, or by its record or its file's name) other than the teacher's
    // own: such a line is taken only where the league's folder or OUT holds the same result (a
    // folder bound to 2/3 gave a forged result of an old match that was week 1's slice 3, never
    // merged: the earlier schedule holds it, and no split of the current one says whose it is).
    // Only with `--league` (which binding needs): without it no folder is the teacher's, a folder
    // with its slice removed passes anyway, and a shard run again after a build, its week never
    // merged, keeps its folder's earlier results for the merge.
    let in_schedule: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
    let unscheduled_in_slice = |d: usize, claim: Option<Shard>, line: &ResultLine| {
        steps.earlier_from_teachers()
            && named_at.is_some()
            && !teachers_dir(d)
            && (claim.is_some() || own_slices.get(d).copied().flatten().is_some())
            && !in_schedule.contains(line.key.as_str())
    };
    // The lines to check, checked at once (on several threads): those of their file's shard,
    // and the first of each result (a line of the same result as one before it is checked, in
    // order, only where that one was not merged).
    let mut earlier: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut first = vec![false; lines.len()];
    for (i, (d, _, claim, line)) in lines.iter().enumerate() {
        let before = earlier.entry(line.key.as_str()).or_default();
        first[i] = not_its_shard(*claim, line).is_none()
            && !unscheduled_in_slice(*d, *claim, line)
            && !before.iter().any(|&j| steps.same_result(&lines[j].3, line));
        before.push(i);
    }
    let to_check: Vec<(&Path, &ResultLine)> = lines
        .iter()
        .zip(&first)
        .filter(|(_, first)| **first && steps.vouched())
        .map(|((d, _, _, line), _)| (dirs[*d].as_path(), line))
        .collect();
    let mut checked = vouch.check_all(&to_check, steps.jobs).into_iter();
    // (Each with whether only the teacher's folders' holding it takes it.)
    let mut misplaced: Vec<(usize, ResultLine, String, bool)> = Vec::new();
    for ((d, file, claim, line), first) in lines.into_iter().zip(first) {
        let dir = &dirs[d];
        let known = by_key.get(&line.key).map_or(&[][..], Vec::as_slice);
        let ahead = if first && steps.vouched() { checked.next() } else { None };
        if !steps.owned() && !known.is_empty() {
            continue;
        }
        if let Some(owner) = not_its_shard(claim, &line) {
            let name = file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            let claim = claim.unwrap_or(owner);
            let why = format!(
                "{}: match {}: it is shard {owner}'s match, and the line is in {name}, shard {claim}'s results: a \
                 shard's folder holds only its own matches",
                dir.display(),
                line.key
            );
            misplaced.push((d, line, why, false));
            continue;
        }
        if unscheduled_in_slice(d, claim, &line) {
            let slice = own_slices.get(d).copied().flatten().or(claim).map(|s| s.to_string()).unwrap_or_default();
            let why = format!(
                "{}: match {}: a match of no slice of the league's schedule (of an earlier one), in the folder of \
                 shard {slice}: a shard's folder holds only its slice's matches, and an earlier schedule's results \
                 come from the league's folder (--league) or OUT, which do not hold this one",
                dir.display(),
                crate::safe_text::terminal_line(&line.key)
            );
            misplaced.push((d, line, why, true));
            continue;
        }
        let own = own_slices.get(d).copied().flatten().filter(|_| steps.owned());
        let sliceless = own_slices.get(d).copied().flatten().is_none();
        let in_main = file.file_name().is_some_and(|n| n == RESULTS_FILE);
        let held = steps.league_held() && sliceless && in_main;
        let teachers = sliceless && (is_out(dir) || Some(d) == named_at) && steps.trusted_files();
        let rank = if held && d == league_at && league_known {
            LEAGUE_HELD
        } else if held && is_out(dir) {
            HELD
        } else if !steps.ranked() {
            0
        } else if teachers && !in_main && claim.is_some() {
            TEACHERS_SHARD
        } else if own.is_some() && bound_at.get(d).copied().flatten().is_some() && steps.bound_ranked() {
            BOUND
        } else if own.is_some() {
            2
        } else if claim.is_some() {
            1
        } else {
            0
        };
        // (The same result again: a folder given twice, a shard's file folded into the
        // main one by a run killed before it removed it. It counts as held by the surer.)
        let alone = no_slice(d) && claim.is_none();
        if let Some(&i) = known.iter().find(|&&i| steps.same_result(&found[i].line, &line)) {
            found[i].rank = found[i].rank.max(rank);
            found[i].alone &= alone;
            continue;
        }
        let why = match ahead {
            Some(checked) => vouch.settle(checked),
            None => steps.why_not(&mut vouch, dir, &line),
        };
        if let Some(why) = why {
            refuse(&mut refused, Some(dir), format!("{}: match {}: {}", dir.display(), line.key, shard_text(&why)));
            continue;
        }
        by_key.entry(line.key.clone()).or_default().push(found.len());
        let file = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        found.push(Found { dir: d, file, line, rank, alone });
    }
    // A line in another shard's folder than its match's is refused, unless a folder merged
    // holds the same result: a shard's folder used again after the league grew keeps an earlier
    // week's lines, which the split now gives other shards, and which the league already holds
    // (every later merge was refused, and no run of the shards mended it).
    // (A line of an earlier schedule, only where the league's folder or OUT holds it.)
    for (d, line, why, teachers_only) in misplaced {
        let known = by_key.get(&line.key).map_or(&[][..], Vec::as_slice);
        let holds =
            |i: usize| steps.same_result(&found[i].line, &line) && (!teachers_only || teachers_dir(found[i].dir));
        if !known.iter().any(|&i| holds(i)) {
            refuse(&mut refused, Some(&dirs[d]), why);
        }
    }
    let mut taken = vec![true; found.len()];
    let held_at = |f: &Found| format!("{} in {} ({})", dirs[f.dir].display(), f.file, outcome(&f.line));
    for (key, at) in by_key.iter().filter(|(_, at)| at.len() > 1) {
        // The lines of its surest folders; the others, which say otherwise, refused: a folder
        // recording no slice (a shard's folder with its slice removed) no longer vetoes the
        // result of the shard whose match it is by holding another.
        let top = at.iter().map(|&i| found[i].rank).max().unwrap_or(0);
        let (at, below): (Vec<usize>, Vec<usize>) = at.iter().partition(|&&i| found[i].rank == top);
        for &i in below.iter().filter(|_| top >= HELD) {
            taken[i] = false;
            refuse(
                &mut refused,
                Some(&dirs[found[i].dir]),
                format!(
                    "{}: match {key}: {}: another result than {}, which the league already holds: a shard plays only \
                     what the league lacks, so its line never replaces the league's result (a match played again \
                     with --rerun in the league's folder, or a shard's folder claiming another's matches); this \
                     line is not merged",
                    dirs[found[i].dir].display(),
                    found[i].file,
                    at.iter().map(|&j| held_at(&found[j])).collect::<Vec<_>>().join("; ")
                ),
            );
        }
        for &i in below.iter().filter(|_| top < HELD) {
            taken[i] = false;
            refuse(
                &mut refused,
                Some(&dirs[found[i].dir]),
                format!(
                    "{}: match {key}: {}: another result than {}, which {}, and this line is not merged",
                    dirs[found[i].dir].display(),
                    found[i].file,
                    at.iter().map(|&j| held_at(&found[j])).collect::<Vec<_>>().join("; "),
                    if top == TEACHERS_SHARD {
                        "its shard's results file holds in the folder the shards shared (OUT, or the league's \
                         folder named by --league): a shard run there is the teacher's own, surer than a shard's \
                         folder from elsewhere"
                    } else if top == BOUND {
                        "the folder the command line binds to its shard (K/N=DIR) holds: the teacher's binding is \
                         surer than the slice a folder's own record claims"
                    } else {
                        "its own shard's results hold: a shard's match is taken from its own folder"
                    }
                ),
            );
        }
        if at.len() < 2 {
            continue;
        }
        for &i in &at {
            taken[i] = false;
        }
        let held: Vec<String> = at.iter().map(|&i| held_at(&found[i])).collect();
        refuse(
            &mut refused,
            Some(&dirs[found[at[0]].dir]),
            format!(
                "{}: match {key}: folders hold different results for it: {}: none is merged; remove those that are \
                 not its shard's own (its shard's folder, which only the teacher's jobs write), then merge again",
                dirs[found[at[0]].dir].display(),
                held.join("; ")
            ),
        );
    }
    // A line only the main results file of a folder recording no slice (not the league's named,
    // not OUT) holds claims no shard's match: a shard's folder whose slice a student removed,
    // its lines moved there, claimed every match the league lacked. Taken where another folder
    // holds the same result (a copy of the league's lines), else refused, named.
    for (i, f) in found.iter().enumerate() {
        if !taken[i] || !f.alone {
            continue;
        }
        taken[i] = false;
        refuse(
            &mut refused,
            Some(&dirs[f.dir]),
            format!(
                "{}: match {}: {}: the main results file of a folder recording no slice that is not the league's \
                 folder named by --league: it is no shard's results file, and no other folder holds this result, so \
                 it is not merged; merge the shards' own folders, or their results files",
                dirs[f.dir].display(),
                f.line.key,
                f.file
            ),
        );
    }
    let found: Vec<Found> = found.into_iter().zip(taken).filter(|(_, taken)| *taken).map(|(f, _)| f).collect();
    // Each result's replay is copied (a file of its folder's own: no link followed, no FIFO
    // waited on, no larger than a replay), with its log, and its page written anew from it as
    // a run writes it: a page is never copied from a shard's folder (its own page replaced by
    // a script, or a link to `/etc/shadow`, was published).
    let names = record.map_names();
    let scheduled: HashMap<&str, &ScheduledMatch> = record.schedule.iter().map(|m| (m.key.as_str(), m)).collect();
    let mut logs_not_copied = LogsNotCopied::default();
    let mut copied = Vec::with_capacity(found.len());
    let mut plain_left: Vec<(PathBuf, PathBuf)> = Vec::new();
    for mut f in found {
        let dir = &dirs[f.dir];
        let replay = PathBuf::from(&f.line.replay);
        // (Written where every run writes it, `replays/<key>.json.gz`, whichever of the two
        // names its line gave: the line merged then names the file written.)
        let target = if steps.named_replays() { into.join(replay_of(&f.line.key)) } else { into.join(&replay) };
        let own = is_out(dir);
        let foreign = !teachers_dir(f.dir);
        let check = |loaded: crate::replay::Replay| match super::vouch::against_replay(&f.line, &loaded)
            .filter(|_| steps.vouched())
        {
            Some(why) => Err(format!("changed since the merge checked it ({why})")),
            None => Ok(loaded),
        };
        let taken = if steps.named_replays() {
            // (Its name is its key's, checked above: the line names no other file. What is
            // written is the replay read and checked, serialised anew as a run writes it, never
            // the folder's bytes.)
            take_checked_replay(dir, &replay, &target, (own, foreign), check)
        } else {
            take_replay(dir, &replay, &target, (own, foreign)).and_then(|raw| {
                let loaded = crate::replay::Replay::from_raw(&target, raw.clone()).map_err(|e| e.to_string())?;
                Ok((check(loaded)?, raw))
            })
        };
        let (loaded, bytes) = match taken {
            Ok(taken) => taken,
            Err(why) => {
                if !own {
                    let _ = std::fs::remove_file(&target);
                }
                let text = format!(
                    "{}: match {}: its replay {}: {}",
                    dir.display(),
                    f.line.key,
                    replay.display(),
                    shard_text(&why)
                );
                refuse(&mut refused, Some(dir), text);
                continue;
            }
        };
        point()?;
        if !own {
            let log = PathBuf::from("logs").join(format!("{}.log", f.line.key));
            if let Err(why) = copy_own(dir, &log, &into.join(&log), foreign) {
                logs_not_copied.say(dir, &log, &why);
            }
            point()?;
        }
        let unscheduled;
        let m = match scheduled.get(f.line.key.as_str()) {
            Some(m) => *m,
            None => {
                unscheduled = vouch.earlier_match(&f.line).unwrap_or_else(|_| ScheduledMatch {
                    key: f.line.key.clone(),
                    seats: f.line.seats.clone(),
                    map: f.line.map.clone(),
                    game: f.line.game,
                    seed: f.line.seed,
                    cost: 1,
                });
                &unscheduled
            }
        };
        let map = names.name(&m.map);
        reporter.report(Event::ReplaySaved {
            out: into,
            scheduled: m,
            map: &map,
            replay: &loaded,
            path: &target,
            bytes: &bytes,
        })?;
        point()?;
        if steps.named_replays() {
            // (OUT's own older `<key>.json`, now written anew as `<key>.json.gz` beside it, is
            // removed once the results no longer name it: see below.)
            if own && steps.plain_removed() && f.line.replay == plain_replay_of(&f.line.key) {
                plain_left.push((into.join(&f.line.replay), target.clone()));
            }
            f.line.replay = replay_of(&f.line.key);
        }
        copied.push(f);
    }
    let found = copied;
    // Build logs, the rows link to them: those the league's record names, each from the first
    // folder holding it as a file of its own (the league's first).
    let mut order: Vec<&PathBuf> = vec![&league_dir];
    order.extend(
        dirs.iter().enumerate().filter(|(d, dir)| **dir != league_dir && !skipped.contains(d)).map(|(_, dir)| dir),
    );
    for log in build_logs(&record) {
        let target = into.join(&log);
        if target.symlink_metadata().is_ok() {
            continue;
        }
        for dir in order.iter().filter(|d| !is_out(d)) {
            let foreign = named_at.is_none_or(|at| dirs[at] != ***dir);
            match copy_own(dir, &log, &target, foreign) {
                Ok(true) => break,
                Ok(false) => {}
                Err(why) => {
                    logs_not_copied.say(dir, &log, &why);
                }
            }
        }
        point()?;
    }
    logs_not_copied.count_the_rest();
    let mut unchecked: BTreeMap<(PathBuf, String), usize> = BTreeMap::new();
    for f in &found {
        if let Some((map, why)) = vouch.setup_unchecked(&f.line) {
            *unchecked.entry((map.to_path_buf(), why.to_string())).or_default() += 1;
        }
    }
    let unchecked: Vec<(PathBuf, usize, String)> = unchecked.into_iter().map(|((map, why), n)| (map, n, why)).collect();
    let seen: HashSet<String> = found.iter().map(|f| f.line.key.clone()).collect();
    let lines: Vec<ResultLine> = found.into_iter().map(|f| f.line).collect();
    // The record names OUT as its folder, wherever it is written first; with the league's
    // split, when its shards' files show one (a Slurm task's `--shard auto` is checked against it).
    if let (Some(&count), 1) = (counts.first(), counts.len()) {
        record.shards = Some(count);
    }
    record.save_for(into, &out_real)?;
    point()?;
    // The pages before the results they show: in a folder that holds the league already, a
    // merge cut short between the two left the new results with the old pages (until the next
    // `arena leaderboard`); now it leaves the pages of the merge it was making, from the record
    // and the replays already in place, and the results the next merge (or run) completes.
    let leaderboard = record.leaderboard(&lines, into, games);
    let pages = || -> Result<(), TournamentError> {
        write_leaderboard(into, &super::league_title(out), &leaderboard, &lines, reporter)?;
        point()
    };
    if steps.pages_first {
        pages()?;
    }
    let main = into.join(RESULTS_FILE);
    // (Kept before the files they are in are replaced: a kill in between leaves them in both,
    // and the next merge keeps each once.)
    let (set_aside, set_aside_earlier) =
        if steps.keeps_unmerged() { set_aside(into, &lines, &mut refused)? } else { (0, 0) };
    point()?;
    results::rewrite(&main, &lines)?;
    point()?;
    for f in results::files(into).into_iter().filter(|f| *f != main) {
        let _ = std::fs::remove_file(f);
        point()?;
    }
    // An older arena's `replays/<key>.json` in OUT whose result was merged from it: its replay,
    // checked, is `<key>.json.gz` beside it now, and the results name that one (a kill before
    // the results were replaced left the old file, which they still named). Removed only where
    // the new file is there; a `.json` of a line set aside (not merged) stays, as that line names it.
    for (plain, written) in plain_left {
        // (Read without following a link at its last part or waiting on a FIFO.)
        let whole = crate::files::read_own_regular(&written, crate::replay::MAX_REPLAY_BYTES)
            .is_ok_and(|raw| crate::replay::Replay::from_raw(&written, raw).is_ok());
        if whole {
            let _ = std::fs::remove_file(&plain);
        }
        point()?;
    }
    if !steps.pages_first {
        pages()?;
    }
    if let Some(staging) = &staging {
        take_place(staging, &out_real, &point)?;
    }
    let missing: Vec<String> =
        record.schedule.iter().filter(|m| !seen.contains(&m.key)).map(|m| m.key.clone()).collect();
    let mut missing_shards = Vec::new();
    if let (Some(&count), 1) = (counts.first(), counts.len()) {
        let slice = slices(&record.schedule, count);
        let mut per: BTreeMap<usize, usize> = BTreeMap::new();
        for key in &missing {
            if let Some(&index) = slice.get(key) {
                *per.entry(index).or_default() += 1;
            }
        }
        missing_shards = per.into_iter().map(|(index, n)| (Shard { index, count }, n)).collect();
    }
    let (refused_texts, refused_folders) = refused.take();
    Ok(Merged {
        leaderboard,
        missing,
        missing_shards,
        results: lines.len(),
        refused: refused_texts,
        refused_in: refused_folders,
        unchecked,
        set_aside,
        set_aside_earlier,
        league_given,
        league_inferred,
    })
}

/// The logs a merge could not copy (a shard's log that is a link, a hard link, too large): each
/// said as a warning, the first [`LOGS_SAID`] of each folder, then one line a folder counting
/// the rest (a shard's folder of thousands of linked logs printed a warning each).
#[derive(Default)]
struct LogsNotCopied(BTreeMap<PathBuf, usize>);

/// How many logs of one folder not copied are said one by one.
const LOGS_SAID: usize = 5;

impl LogsNotCopied {
    /// Counts the log `log` of `dir` not copied, and says it (whether it did).
    fn say(&mut self, dir: &Path, log: &Path, why: &str) -> bool {
        let n = self.0.entry(dir.to_path_buf()).or_default();
        *n += 1;
        let said = *n <= LOGS_SAID;
        if said {
            tracing::warn!(
                "{}: {why}: not copied",
                crate::safe_text::terminal_line(&dir.join(log).display().to_string())
            );
        }
        said
    }

    /// Each folder with more than [`LOGS_SAID`] logs not copied, with how many were not said.
    fn the_rest(&self) -> Vec<(&Path, usize)> {
        self.0.iter().filter(|(_, n)| **n > LOGS_SAID).map(|(dir, n)| (dir.as_path(), n - LOGS_SAID)).collect()
    }

    /// Says, for each folder with more than [`LOGS_SAID`] logs not copied, how many more.
    fn count_the_rest(&self) {
        for (dir, more) in self.the_rest() {
            tracing::warn!(
                "{}: and {more} more of its logs not copied",
                crate::safe_text::terminal_line(&dir.display().to_string())
            );
        }
    }
}

/// Appends to `into`'s [`SET_ASIDE_FILE`] each complete line of its results files that is no
/// result of `merged` (refused, or not a result line at all), byte for byte, once; returns how
/// many it added, and how many it held before. (A torn last line, what a run killed mid-write
/// left, is no line.)
/// Every file is read as a file of its own, no link followed ([`crate::files::read_own_regular`];
/// a hard link is read: these are the league's folder's or OUT's, and a teacher's `cp -al`
/// backup makes every file one, whose refused lines were dropped): in a folder shards wrote (the shared folder's
/// flow) a link to a teacher's file had its text kept in `refused.jsonl`. A results file that
/// is not one was refused, named, as it was read,
/// and is left unread here; a `refused.jsonl` that is not one is refused, named, (`refused`),
/// its target never read, and replaced by the lines kept now. It is written private (0600).
fn set_aside(into: &Path, merged: &[ResultLine], refused: &mut Refusals) -> Result<(usize, usize), TournamentError> {
    let by_key: HashMap<&str, &ResultLine> = merged.iter().map(|l| (l.key.as_str(), l)).collect();
    let taken = |raw: &[u8]| {
        serde_json::from_slice::<ResultLine>(raw)
            .is_ok_and(|l| by_key.get(l.key.as_str()).is_some_and(|m| same_result(m, &l)))
    };
    let complete_lines = |path: &Path| -> Result<Vec<Vec<u8>>, TournamentError> {
        Ok(results::own_complete_part(path)?
            .0
            .split(|&b| b == b'\n')
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .map(<[u8]>::to_vec)
            .collect())
    };
    // (A link, or what is not a regular file, is never read; any other error, a file this user
    // may not read or a disk's, stops the merge as before: what was set aside is never lost. A
    // hard link, every file after a teacher's `cp -al` backup, is read as the league's own.)
    let not_own = |path: &Path| std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file());
    let file = into.join(SET_ASIDE_FILE);
    let mut replace = false;
    let mut kept = match complete_lines(&file) {
        Ok(kept) => kept,
        Err(e) if !not_own(&file) => return Err(e),
        Err(e) => {
            refused.add(
                Some(into),
                format!("{e}: its lines are not kept, and it is replaced by the lines this merge sets aside"),
            );
            replace = true;
            Vec::new()
        }
    };
    let before = kept.len();
    // (A set beside the list, which keeps their order: a folder's thousands of lines were each
    // compared with every line kept.)
    let mut seen: HashSet<Vec<u8>> = kept.iter().cloned().collect();
    for results_file in results::files(into) {
        // (One that is not a file of its own was refused as the merge read it.)
        let lines = match complete_lines(&results_file) {
            Err(_) if not_own(&results_file) => Vec::new(),
            lines => lines?,
        };
        for line in lines {
            if !taken(&line) && seen.insert(line.clone()) {
                kept.push(line);
            }
        }
    }
    let added = kept.len() - before;
    if replace && std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink()) {
        // (The link itself, not its target: a link to a device would not be replaced.)
        std::fs::remove_file(&file).map_err(|e| TournamentError::io(&file, e))?;
    }
    if added > 0 || replace {
        let text: Vec<u8> = kept
            .into_iter()
            .flat_map(|mut line| {
                line.push(b'\n');
                line
            })
            .collect();
        crate::files::write_atomic_as(&file, &text, 0o600).map_err(|e| TournamentError::io(&file, e))?;
    }
    Ok((added, before))
}

/// The locks of the folders in `dirs` but `out` (already held), each once, taken as a merge
/// takes OUT's: a shard still writing one (holding its lock) makes the merge fail, saying so;
/// one process holding one alone is waited for up to `wait`, said at once (which folder, what
/// its lock says holds it, how long), then the folder is left out as below.
/// A folder the merge may not write in (read-only, another user's) is read without one.
/// A folder but the league's (`league`, whose record is taken) whose lock cannot be taken (held,
/// or a lock file that is not one) is left out of the merge: its place among `dirs` with why,
/// in words; the merge goes on without it (one shard's folder stopped the whole merge).
/// Every folder but the league's named by `--league` (`named`) is a shard's, its lock checked
/// as one someone else may have written (a hard link refused: see [`super::open_lock`]).
/// The folders are waited for up to `wait` in all (`one`; else each): a lock's text is whatever
/// wrote the folder wrote, and a process holding several shards' folders' locks, each signed
/// with a made-up `pid N on HOST`, delayed the merge `wait` a folder.
#[allow(clippy::type_complexity)]
fn lock_inputs(
    dirs: &[PathBuf],
    out: &Path,
    (league, named): (usize, Option<usize>),
    (wait, one): (std::time::Duration, bool),
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<FolderLock>, Vec<(usize, String)>), TournamentError> {
    let (total, deadline) = (wait, std::time::Instant::now() + wait);
    let mut seen = HashSet::from([out.to_path_buf()]);
    let mut locks = Vec::new();
    let mut left_out = Vec::new();
    // (The league's folder first: a copy of it given again is the same folder, locked once.)
    let order = std::iter::once(league).chain((0..dirs.len()).filter(|&d| d != league));
    for d in order {
        let dir = &dirs[d];
        if !seen.insert(std::fs::canonicalize(dir).map_err(|e| TournamentError::io(dir, e))?) {
            continue;
        }
        // (A shard killed a moment ago may leave a process of its own holding the folder for
        // a moment more, one it was starting: a few tries before it counts as running.)
        let mut tries = 0;
        let wait = if one { deadline.saturating_duration_since(std::time::Instant::now()) } else { wait };
        let taken = loop {
            match FolderLock::take_to_read_until(dir, wait, stop, Some(d) != named) {
                Err(TournamentError::Locked { holder, .. }) if holder == super::SHARDS_HOLD_IT && tries < 20 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                taken => break taken,
            }
        };
        let why = match taken {
            Ok(lock) => {
                locks.extend(lock);
                continue;
            }
            Err(TournamentError::Locked { holder, .. }) if holder == super::SHARDS_HOLD_IT => {
                TournamentError::Invalid(format!(
                    "{}: still being written by a shard (it holds the folder's lock): merge once the shards end",
                    dir.display()
                ))
            }
            Err(e @ TournamentError::StoppedWaiting { .. }) => return Err(e),
            Err(e @ TournamentError::Locked { .. }) if one && wait.is_zero() && !total.is_zero() => {
                TournamentError::Invalid(format!(
                    "{e} (not waited for: a merge waits up to {} s in all for the folders it merges, spent on those \
                     before it)",
                    total.as_secs()
                ))
            }
            Err(e) => e,
        };
        if d == league {
            return Err(why);
        }
        left_out.push((d, format!("{why}: the folder is left out of the merge, none of its lines merged")));
    }
    Ok((locks, left_out))
}

/// The merge's lock for `out` (see [`super::OutLock`]), waiting up to `wait` for another merge
/// into it; none where its parent folder cannot be written in (read-only, or the user's not).
fn out_lock(
    out: &Path,
    wait: std::time::Duration,
    stop: &dyn Fn() -> bool,
) -> Result<Option<super::OutLock>, TournamentError> {
    let name = out.file_name().ok_or_else(|| {
        TournamentError::Invalid(format!("{}: merge into a folder with a parent folder", out.display()))
    })?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(|e| TournamentError::io(parent, e))?;
    // (Named by OUT's real path: two merges naming it through links lock one file.)
    let real = std::fs::canonicalize(out)
        .or_else(|_| std::fs::canonicalize(parent).map(|p| p.join(name)))
        .map_err(|e| TournamentError::io(parent, e))?;
    match super::OutLock::take_until(&real, "merge", wait, stop) {
        Ok(lock) => Ok(Some(lock)),
        Err(e) if super::cannot_write(&e) => Ok(None),
        // (`/proc`: no file can be made there at all.)
        Err(TournamentError::Io { source, .. }) => Err(TournamentError::Invalid(format!(
            "{}: its parent folder {} cannot be written in ({source}): merge into a folder elsewhere",
            out.display(),
            parent.display()
        ))),
        Err(e) => Err(e),
    }
}

/// The staging folder of a merge into `out` (absolute, real) that holds no league yet:
/// `.<name>.merging` next to it, on the same file system, so that one rename puts it in place;
/// none where `out` is on another file system than its parent (a mount point: a volume, a disk).
fn staging_folder(out: &Path) -> Result<Option<PathBuf>, TournamentError> {
    match (out.parent(), out.file_name()) {
        (Some(parent), Some(name)) => {
            let device = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).map_err(|e| TournamentError::io(p, e));
            if device(out)? != device(parent)? {
                return Ok(None);
            }
            let mut staged = std::ffi::OsString::from(".");
            staged.push(name);
            staged.push(".merging");
            Ok(Some(parent.join(staged)))
        }
        _ => Err(TournamentError::Invalid(format!("{}: merge into a folder with a parent folder", out.display()))),
    }
}

/// Makes the staging folder `staging` (kept if a merge cut short left it) and tries a rename
/// from it into `out` with an empty file: whether the league built there can take `out`'s place.
/// No where the folder cannot be made (a parent the teacher may not write in, read-only) or the
/// rename fails (`out` a mount point, even a bind mount of the same disk, which the devices do
/// not tell); a folder made here for nothing is removed.
fn stages_into(staging: &Path, out: &Path) -> Result<bool, TournamentError> {
    let made = !staging.exists();
    // (Private as OUT's league, which it becomes; one an older arena's merge cut short left made so.)
    if let Err(e) = crate::files::make_private_folder(staging) {
        return if super::cannot_write_source(&e) { Ok(false) } else { Err(TournamentError::io(staging, e)) };
    }
    if !made {
        use std::os::unix::fs::OpenOptionsExt;
        let opened =
            std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW).open(staging);
        if let Err(e) = opened.and_then(|dir| super::make_file_private(&dir)) {
            tracing::warn!("{}: could not be made private to its user: {e}", staging.display());
        }
    }
    // (Named as a temporary: a kill between the two steps leaves what the next run removes.)
    let probe = format!("{}merge-probe", crate::files::TEMPORARY_PREFIX);
    let (from, to) = (staging.join(&probe), out.join(&probe));
    let renamed = std::fs::write(&from, b"").and_then(|()| std::fs::rename(&from, &to));
    let _ = std::fs::remove_file(&from);
    let _ = std::fs::remove_file(&to);
    if renamed.is_err() && made {
        let _ = std::fs::remove_dir(staging);
    }
    Ok(renamed.is_ok())
}

/// Puts the complete league in `staging` in place of `out`, a folder holding no league: what
/// `out` holds (the lock this merge holds, what a run cut short left, a folder of the user's)
/// is moved into `staging` first, then `staging`, renamed, replaces the emptied `out` in one
/// step. Cut short, `out` still holds no league and `staging` the league, taken up again.
fn take_place(
    staging: &Path,
    out: &Path,
    point: &dyn Fn() -> Result<(), TournamentError>,
) -> Result<(), TournamentError> {
    move_into(out, staging, true, point)?;
    std::fs::rename(staging, out).map_err(|e| TournamentError::io(out, e))?;
    if let Some(parent) = out.parent() {
        let _ = crate::files::sync_dir(parent);
    }
    Ok(())
}

/// Moves every entry of `from` into `to` where `to` has none of that name; a folder both have
/// is merged the same way, and of a file both have the merge's (in `to`) is kept, except the
/// lock (`top`: `from` is OUT itself), which is the one this merge holds.
fn move_into(
    from: &Path,
    to: &Path,
    top: bool,
    point: &dyn Fn() -> Result<(), TournamentError>,
) -> Result<(), TournamentError> {
    let entries = std::fs::read_dir(from).map_err(|e| TournamentError::io(from, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| TournamentError::io(from, e))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let dirs = entry.file_type().is_ok_and(|t| t.is_dir()) && target.is_dir();
        if dirs {
            move_into(&source, &target, false, point)?;
            std::fs::remove_dir(&source).map_err(|e| TournamentError::io(&source, e))?;
        } else if target.symlink_metadata().is_err() || (top && entry.file_name() == ".lock") {
            std::fs::rename(&source, &target).map_err(|e| TournamentError::io(&target, e))?;
        } else {
            std::fs::remove_file(&source).map_err(|e| TournamentError::io(&source, e))?;
        }
        point()?;
    }
    Ok(())
}

/// The files a league's folder holds, by name (with its temporary files, a shard's lock and
/// the builds' note).
const LEAGUE_FILES: [&str; 7] =
    [".lock", ".way", "index.html", "leaderboard.md", "leaderboard.json", RESULTS_FILE, super::TOURNAMENT_FILE];

/// The first entry of `out` that no league's folder holds, when `out` is a folder holding no
/// league (no record, no results file). What a merge or run cut short leaves (its subfolders,
/// temporary files, the lock) is a league's, each of its own kind: a file named `replays`, or
/// a link named like a league's entry, is not (the merge would replace it by its own).
fn foreign_entry(out: &Path) -> Option<String> {
    if !out.is_dir() || out.join(super::TOURNAMENT_FILE).exists() || !results::files(out).is_empty() {
        return None;
    }
    std::fs::read_dir(out).ok()?.flatten().find_map(|entry| {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        let kind = entry.file_type().ok();
        let (dir, file) = (kind.is_some_and(|k| k.is_dir()), kind.is_some_and(|k| k.is_file()));
        let league = (super::LEAGUE_FOLDERS.contains(&&*text) && dir)
            || ((LEAGUE_FILES.contains(&&*text)
                || text == super::versions::UNRECORDED_BUILDS
                || crate::files::is_temporary(&name)
                || text.starts_with(".lock.shard-"))
                && file);
        (!league).then(|| text.into_owned())
    })
}

/// The name of `entry`, of a folder merged, when it is nothing a league's folder holds (what
/// [`foreign_entry`] takes for a league's, its results files, a shard's lock, the pages, and the
/// `slurm/` folder of the Slurm scripts' output); results files no run writes are refused apart.
fn unknown_entry(entry: &std::fs::DirEntry) -> Option<String> {
    let name = entry.file_name().to_string_lossy().into_owned();
    let file = entry.file_type().is_ok_and(|k| k.is_file());
    let dir = entry.file_type().is_ok_and(|k| k.is_dir());
    let known = (super::LEAGUE_FOLDERS.contains(&name.as_str()) || name == "slurm") && dir
        || file
            && (LEAGUE_FILES.contains(&name.as_str())
                || name == super::versions::UNRECORDED_BUILDS
                || name == SET_ASIDE_FILE
                || name.starts_with(".lock.shard-")
                || crate::files::is_temporary(&entry.file_name())
                || (name.starts_with("results.") && name.ends_with(".jsonl")));
    (!known).then_some(name)
}

/// The least a shard's folder's record is read to (see [`shard_record`]).
const SHARD_RECORD_MIN_CAP: u64 = 16 << 20;

/// The record of `dir`, a shard's folder merged with the league's `league` (the slice it names,
/// and the record the merge takes for the folder: it is read once); or why it is not one to
/// merge: not a file of the folder's own (none, a link, a hard link, a FIFO, a folder), larger
/// than `cap`, not a record this arena runs, or another league's.
fn shard_record(dir: &Path, games: &Registry, league: &TournamentRecord, cap: u64) -> Result<TournamentRecord, String> {
    // (Read once, as a file of its own: the bytes parsed are the ones checked.)
    let theirs = TournamentRecord::load_foreign(dir, games, cap).map_err(|e| match e {
        TournamentError::Invalid(why) => {
            why.strip_prefix(&format!("{}: ", dir.display())).map(str::to_string).unwrap_or(why)
        }
        e => e.to_string(),
    })?;
    match not_the_league(league, &theirs) {
        Some(why) => Err(format!("{why} from the league's folder: merge only the shards of one league")),
        None => Ok(theirs),
    }
}

/// Why `other` is not the league of `record`, if it is not: another schedule, or another
/// `arena build` of it (another secret, which keys the bots' seeds: a league built again from
/// the same config has the same matches, played with other seeds).
fn not_the_league(record: &TournamentRecord, other: &TournamentRecord) -> Option<String> {
    let keys: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
    let theirs: HashSet<&str> = other.schedule.iter().map(|m| m.key.as_str()).collect();
    if theirs != keys {
        let differ = theirs.symmetric_difference(&keys).count();
        let are = if differ == 1 { "is" } else { "are" };
        let differ = crate::safe_text::count(differ, "match", "matches");
        return Some(format!("its schedule differs ({differ} {are} not in both)"));
    }
    (other.config.seat_secret() != record.config.seat_secret())
        .then(|| "it is another build of the league (its secret, which keys the bots' seeds, differs)".to_string())
}

/// Where `other`'s record differs from the league's `record` in what the standings and pages
/// show (its bots' versions and labels, their failures, the settings), if it does: the first
/// such field, named by its path (`failures.alice`). What is each folder's own is not compared:
/// where it is and was (`folder`, `earlier`), the shard it records (`slice`), the split its last
/// merge found (`shards`), and the paths of its config, maps, bots and kept copies (a shard run
/// on another machine, or made from a copy of the league elsewhere, names them there); the schedule is compared by [`not_the_league`].
fn record_differs(record: &TournamentRecord, other: &TournamentRecord) -> Option<String> {
    let (ours, theirs) = (comparable(record), comparable(other));
    first_difference(&ours, &theirs, String::new()).map(|at| crate::safe_text::terminal_line(&at))
}

/// What a merge says of two folders whose records differ ([`record_differs`]).
const RECORDS_DIFFER: &str = "a shard's folder holds a copy of the league's record as `arena build` wrote it, \
     naming its shard's slice, and the league's folder holds the record itself; of two folders naming no slice \
     and differing, which is the league's cannot be told (a shard's folder with its slice removed and its record \
     edited would rewrite the standings): name the league's folder with --league (`arena merge OUT --league \
     LEAGUE K/N=SHARD_DIR…`)";

/// What a merge without the league's folder says of two shards' folders whose records differ
/// ([`record_differs`]).
const SHARD_RECORDS_DIFFER: &str =
    "each shard's folder holds a copy of the league's record, naming its shard's slice, \
     and without the league's folder the first shard's is taken for the league's; these two differ, so which is the \
     league's cannot be told: name the league's folder (`arena merge OUT --league LEAGUE K/N=SHARD_DIR…`), or \
     merge the shards' folders as they were written";

/// `record` as [`record_differs`] compares it.
fn comparable(record: &TournamentRecord) -> serde_json::Value {
    use serde_json::Value;
    let mut value = serde_json::to_value(record).unwrap_or(Value::Null);
    let Some(top) = value.as_object_mut() else { return value };
    for own in ["folder", "earlier", "shards", "slice", "schedule"] {
        top.remove(own);
    }
    let drop_in = |v: Option<&mut Value>, keys: &[&str]| {
        if let Some(o) = v.and_then(Value::as_object_mut) {
            for k in keys {
                o.remove(*k);
            }
        }
    };
    // (Where the config was read from and resolved against: a shard made from a copy of the
    // league at another path names them there.)
    drop_in(top.get_mut("config"), &["maps", "bots", "out", "jobs", "base", "file", "origin"]);
    for bot in top.get_mut("bots").and_then(Value::as_array_mut).into_iter().flatten() {
        drop_in(Some(bot), &["cwd", "command"]);
    }
    for board in top.get_mut("boards").and_then(Value::as_array_mut).into_iter().flatten() {
        drop_in(Some(board), &["path"]);
    }
    for history in top.get_mut("history").and_then(Value::as_object_mut).into_iter().flat_map(|h| h.values_mut()) {
        if let Some(h) = history.as_object_mut() {
            h.retain(|k, _| k == "versions");
        }
        for version in history.get_mut("versions").and_then(Value::as_array_mut).into_iter().flatten() {
            drop_in(Some(version), &["kept"]);
        }
    }
    value
}

/// The path (`history.alice.versions.0.label`) of the first place where `a` and `b` differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    let join = |k: &str| if at.is_empty() { k.to_string() } else { format!("{at}.{k}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => first_difference(p, q, join(k)),
                _ => Some(join(k)),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| first_difference(p, q, join(&i.to_string())))
        }
        _ => (a != b).then(|| if at.is_empty() { "the record".to_string() } else { at }),
    }
}

/// Whether `a` and `b` record the same result of one match (when each ended aside: a match
/// played again the same way is the same result; and its map by name, as [`Vouch`] takes it: a
/// shard run again in another checkout names it at another path).
fn same_result(a: &ResultLine, b: &ResultLine) -> bool {
    // (Its replay's name aside where each names its match's own: an older arena's
    // `<key>.json` in one folder and `<key>.json.gz` in another are one result's, which the
    // merge writes as `<key>.json.gz` either way; compared by name, they were held differently.)
    let own = |l: &ResultLine| l.replay == replay_of(&l.key) || l.replay == plain_replay_of(&l.key);
    let replay = if own(a) && own(b) { b.replay.clone() } else { a.replay.clone() };
    super::vouch::same_map(&a.map, &b.map) && ResultLine { at: b.at, map: b.map.clone(), replay, ..a.clone() } == *b
}

/// A line's result in a few words: its winner (or a draw), the scores and the steps.
fn outcome(line: &ResultLine) -> String {
    let name = |i: usize| line.seats.get(i).map_or("?", String::as_str);
    let winner = line.result.winner.map_or("a draw".to_string(), |w| format!("{} wins", name(w)));
    let scores: Vec<String> = line.result.players.iter().map(|p| p.score.to_string()).collect();
    crate::safe_text::terminal_line(&format!("{winner}, scores {}, {} steps", scores.join("-"), line.steps))
}

/// The largest match or build log a merge copies (a bot's stderr is kept up to a cap far below).
const MAX_LOG_BYTES: u64 = 64 << 20;

/// Takes the replay `rel` of the folder `dir` into `to`: copied, where it is a file of its
/// folder's own ([`crate::files::read_own_regular_under`]: no link, no FIFO waited on, at most
/// a replay's size; of a shard's folder, `foreign`, no hard link either); in OUT itself
/// (`own`), only checked to be one. The bytes read (the ones to parse and to put on its page:
/// never read again by path); why not, in words.
fn take_replay(dir: &Path, rel: &Path, to: &Path, (own, foreign): (bool, bool)) -> Result<Vec<u8>, String> {
    let bytes = teachers_or_foreign(foreign)(dir, rel, crate::replay::MAX_REPLAY_BYTES).map_err(|e| e.to_string())?;
    if !own {
        write_atomic(to, &bytes).map_err(|e| format!("cannot be written to {}: {e}", to.display()))?;
    }
    Ok(bytes)
}

/// Takes the replay `rel` (`replays/<key>.json.gz`) of the folder `dir` into `to`: read, where
/// it and its folder are the folder's own (no link followed, no FIFO waited on, no larger than
/// a replay), checked by `check`, and written as a run writes it, serialised anew from the
/// replay read (gzip-compressed): never the folder's bytes. Of OUT (`own`), checked in place.
/// Of a shard's folder (`foreign`), a hard link is refused too; of the league's named and OUT,
/// read (see [`teachers_or_foreign`]).
fn take_checked_replay(
    dir: &Path,
    rel: &Path,
    to: &Path,
    (own, foreign): (bool, bool),
    check: impl FnOnce(crate::replay::Replay) -> Result<crate::replay::Replay, String>,
) -> Result<(crate::replay::Replay, Vec<u8>), String> {
    let from = dir.join(rel);
    // (Read once as the folder's own, each folder on the way opened from the one before: a
    // link, a FIFO or a huge file is refused at once, and the bytes parsed are the ones read;
    // read by path again, a folder swapped for a link in between sent it to a teacher's file.
    // OUT's own replays stay where they are: nothing is copied from its folder.)
    let raw = teachers_or_foreign(foreign)(dir, rel, crate::replay::MAX_REPLAY_BYTES).map_err(|e| e.to_string())?;
    let loaded = check(crate::replay::Replay::from_raw(&from, raw.clone()).map_err(|e| e.to_string())?)?;
    // (OUT's own old-style `<key>.json` is written anew as `<key>.json.gz` beside it. The
    // bytes returned are those its page embeds: the ones checked, or the ones written, never
    // the file read again by path, which a student's machine writing the folder could have
    // swapped for a link to a teacher's file since, or for a FIFO.)
    if !own || from != to {
        let written = loaded.save_bytes(to).map_err(|e| format!("cannot be written to {}: {e}", to.display()))?;
        return Ok((loaded, written));
    }
    Ok((loaded, raw))
}

/// How a file below a folder merged is read: never through a symbolic link nor from a FIFO, at
/// most so many bytes; of a shard's folder (`foreign`), no hard link either
/// ([`crate::files::read_foreign_regular_under`]); of the league's folder named by `--league`
/// and of OUT, a hard link is read ([`crate::files::read_own_regular_under`]). A teacher's
/// `cp -al` backup gives each of the league's files two names, and refusing them made the league
/// unmergeable; with `fs.protected_hardlinks=1` (every current distribution's default) a user
/// may hard-link only a file they own or may read and write, so a hard link a student's machine
/// put in the shared folder gives them nothing they could not read already. Where the machine
/// merging lets any user link any file, the merge warns ([`warn_of_unprotected_hard_links`]).
fn teachers_or_foreign(foreign: bool) -> fn(&Path, &Path, u64) -> std::io::Result<Vec<u8>> {
    if foreign {
        crate::files::read_foreign_regular_under
    } else {
        crate::files::read_own_regular_under
    }
}

/// Warns (once a merge, on stderr) where this machine lets any user hard-link any file
/// (`/proc/sys/fs/protected_hardlinks` reads 0): there a hard link in the league's folder or
/// OUT, which a merge reads as the league's own (see [`teachers_or_foreign`]), may be a
/// teacher's file a shard's machine linked there.
fn warn_of_unprotected_hard_links() {
    let setting = std::fs::read_to_string("/proc/sys/fs/protected_hardlinks").unwrap_or_default();
    if setting.trim() == "0" {
        tracing::warn!(
            "fs.protected_hardlinks is 0 on this machine: any user may hard-link any file, and a merge reads a hard \
             link in the league's folder or OUT as the league's own (a teacher's `cp -al` backup has them), so one a \
             shard's machine put there could be a teacher's file; set it to 1 (`sysctl fs.protected_hardlinks=1`, \
             every current distribution's default), or let no student's machine write the league's folder"
        );
    }
}

/// The replay of the match `key`, as every run names it in its folder.
pub(crate) fn replay_of(key: &str) -> String {
    format!("replays/{key}.json.gz")
}

/// The replay of the match `key` as an arena before compressed replays named it.
fn plain_replay_of(key: &str) -> String {
    format!("replays/{key}.json")
}

/// Copies the file `rel` (`logs/<key>.log`, `builds/<name>.log`) of the folder `dir` to `to`
/// atomically, where it is a file of the folder's own: not through a link (the file or its
/// folder: a link to the league's record or to `/etc/shadow` was copied, then published), no
/// FIFO waited on (one hung the merge), no folder (one aborted it), at most
/// [`MAX_LOG_BYTES`]; of a shard's folder (`foreign`), no hard link either (the league's named
/// by `--league`: see [`teachers_or_foreign`]). Whether it copied it (false where there is
/// none); why not, in words.
fn copy_own(dir: &Path, rel: &Path, to: &Path, foreign: bool) -> Result<bool, String> {
    // (Read by descriptor from `dir` down: checked, then read by path, its folder could be
    // swapped for a link in between.)
    match teachers_or_foreign(foreign)(dir, rel, MAX_LOG_BYTES) {
        Ok(bytes) => {
            write_atomic(to, &bytes).map(|()| true).map_err(|e| format!("cannot be written to {}: {e}", to.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e.to_string()),
    }
}

/// The build logs the league's `record` links (each version's, and those its problems and
/// failures name), as `builds/<name>.log`: the only files of a folder's `builds/` a merge takes.
fn build_logs(record: &TournamentRecord) -> BTreeSet<PathBuf> {
    let versions = record.history.values().flat_map(|h| &h.versions);
    let linked = versions.clone().filter_map(|v| v.build_log.clone());
    let texts = versions.filter_map(|v| v.problem.as_deref()).chain(record.failures.values().map(String::as_str));
    let named = texts.flat_map(|t| {
        t.match_indices("builds/")
            .map(|(at, _)| {
                let rest = &t[at..];
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, ')' | '`' | '\'' | '"' | ','))
                    .unwrap_or(rest.len());
                rest[..end].trim_end_matches(['.', ':', ';']).to_string()
            })
            .collect::<Vec<_>>()
    });
    linked
        .chain(named)
        .filter_map(|log| {
            let name = log.strip_prefix("builds/")?;
            let plain = name.ends_with(".log") && !name.contains('/') && !name.starts_with('.');
            plain.then(|| Path::new("builds").join(name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::tournament::config::TournamentConfig;
    use crate::tournament::tests::{course, league};
    use crate::tournament::{recompute, Quiet};

    /// The course of [`course`] in `dir`, its league played whole (six matches): its folder.
    fn played(dir: &Path) -> PathBuf {
        let config = TournamentConfig::load(&course(&dir.join("course"))).unwrap();
        let src = dir.join("course/league");
        assert_eq!(league(config, &src, false).played, 6);
        src
    }

    /// What `arena leaderboard OUT` says of OUT: how many matches are played, or its error; and
    /// what OUT's `leaderboard.md` says, if it has one.
    fn read(out: &Path) -> String {
        let page = std::fs::read_to_string(out.join("leaderboard.md")).unwrap_or_default();
        let board = match recompute(out, None, &crate::games::registry(), &Quiet) {
            Ok(done) => done.board.played_text(),
            Err(e) => format!("error: {e}"),
        };
        format!("{board} {}", page.lines().find(|l| l.contains("matches played")).unwrap_or(""))
    }

    /// Runs a merge of `from` into `out`, stopped (as by a kill) at its `n`th point; whether
    /// it ran to its end.
    fn merge_stopped(out: &Path, from: &Path, n: usize, staged: bool) -> bool {
        let points = Cell::new(0);
        let killed = || {
            points.set(points.get() + 1);
            points.get() > n
        };
        let dirs = [from.to_path_buf()];
        let steps = Steps { killed: &killed, staged, ..Steps::default() };
        match merge_with(out, &dirs, &crate::games::registry(), &Quiet, &steps) {
            Ok(_) => true,
            Err(TournamentError::Stopped(_)) => false,
            Err(e) => panic!("{e}"),
        }
    }

    /// A merge into a new folder killed at any of its points leaves the folder holding no league
    /// (never a league reading "Partial: 0 of 6"), keeps a folder of the user's there, and the
    /// same merge run again completes it, leaving no staging folder. A merge into the league's
    /// own folder, killed anywhere, leaves it complete. The control: written straight into the
    /// new folder (the old order), a kill after its record is saved leaves "Partial: 0 of 6".
    #[test]
    fn a_merge_killed_at_any_point_leaves_its_folder_as_it_was_or_complete() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let complete = read(&src);
        assert!(complete.starts_with("6 of 6 matches played."), "{complete}");
        let mut stops = 0;
        for n in 0.. {
            let out = dir.path().join(format!("out-{n}"));
            std::fs::create_dir_all(out.join("bots")).unwrap();
            std::fs::write(out.join("bots/keep.txt"), "mine").unwrap();
            if merge_stopped(&out, &src, n, true) {
                break;
            }
            stops += 1;
            let seen = read(&out);
            assert!(seen.contains("no tournament.json") && !seen.contains("Partial"), "stopped at {n}: {seen}");
            assert!(merge_stopped(&out, &src, usize::MAX, true), "the merge run again");
            assert_eq!(read(&out), complete, "stopped at {n}, run again");
            assert_eq!(std::fs::read_to_string(out.join("bots/keep.txt")).unwrap(), "mine", "stopped at {n}");
            assert!(!dir.path().join(format!(".out-{n}.merging")).exists(), "stopped at {n}: staging left");
        }
        assert!(stops > 20, "every copy, the record, the results, the pages and each move: {stops}");

        // Into the league's own folder: complete whenever it stops.
        for n in 0..4 {
            assert!(!merge_stopped(&src, &src, n, true));
            assert_eq!(read(&src), complete, "stopped at {n}");
        }

        // The control: the old order, straight into the new folder.
        let partial = (0..)
            .map(|n| {
                let out = dir.path().join(format!("old-{n}"));
                (merge_stopped(&out, &src, n, false), read(&out))
            })
            .take_while(|(done, _)| !done)
            .find(|(_, seen)| seen.contains("Partial: 0 of 6"));
        assert!(partial.is_some(), "the old order leaves a league reading 0 of 6");
    }

    /// A merge into a folder holding the league with fewer results, killed at any point, never
    /// leaves its pages older than its results (the window a kill after the results' swap left
    /// until the next `arena leaderboard`); run again, both are whole. The control: the pages
    /// written after the results (the old order), a kill in between leaves the results at 6 of 6
    /// and the page at 4.
    #[test]
    fn a_merge_into_the_league_killed_never_leaves_pages_older_than_its_results() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        // A folder holding the league with 4 of its 6 results, its pages saying so.
        let stale = |name: &str| {
            let out = dir.path().join(name);
            assert!(merge_stopped(&out, &src, usize::MAX, true));
            let main = out.join(RESULTS_FILE);
            let text = std::fs::read_to_string(&main).unwrap();
            let kept: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
            std::fs::write(&main, kept).unwrap();
            recompute(&out, None, &crate::games::registry(), &Quiet).unwrap();
            out
        };
        let page = |out: &Path| std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
        let played = |text: &str| text.lines().find(|l| l.contains("matches played")).unwrap_or("").to_string();
        let stopped = |pages_first: bool, n: usize, out: &Path| {
            let points = Cell::new(0);
            let killed = || {
                points.set(points.get() + 1);
                points.get() > n
            };
            let steps = Steps { killed: &killed, pages_first, ..Steps::default() };
            merge_with(out, std::slice::from_ref(&src), &crate::games::registry(), &Quiet, &steps).is_err()
        };
        let results = |out: &Path| results::read_all(out).unwrap().len();
        assert!(played(&page(&stale("probe"))).contains("4 of 6"), "{}", page(&dir.path().join("probe")));
        for n in 0.. {
            let out = stale(&format!("in-{n}"));
            if !stopped(true, n, &out) {
                assert_eq!((results(&out), played(&page(&out)).contains("6 of 6")), (6, true));
                break;
            }
            let (lines, shown) = (results(&out), played(&page(&out)));
            assert!(lines == 4 || shown.contains("6 of 6"), "stopped at {n}: {lines} results, page: {shown}");
            assert!(!stopped(true, usize::MAX, &out), "run again");
            assert!(results(&out) == 6 && played(&page(&out)).contains("6 of 6"), "stopped at {n}, run again");
        }

        // The control: the pages after the results.
        let lagging = (0..200).find(|&n| {
            let out = stale(&format!("old-{n}"));
            stopped(false, n, &out) && results(&out) == 6 && played(&page(&out)).contains("4 of 6")
        });
        assert!(lagging.is_some(), "the control: the old order leaves 6 results under a page of 4");
    }

    /// Two merges into one new OUT at once: the second, started as the first puts its league
    /// in OUT's place (OUT emptied, its lock moved into the staging folder), is refused, naming
    /// the first's pid, and the first completes. The control: without the merge's lock, the
    /// second locked a new lock file in the empty OUT and wrote into the first's staging folder,
    /// renamed it into place, and the first failed (the folder merged not locked either: the
    /// second, in this process, would wait for the first's lock of it).
    #[test]
    fn two_merges_into_one_new_out_exclude_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let complete = read(&src);
        let dirs = [src.clone()];
        for locked in [true, false] {
            let out = dir.path().join(format!("out-{locked}"));
            let lock = locked.then_some(std::time::Duration::ZERO);
            let second = std::cell::RefCell::new(None);
            let killed = || {
                let emptied = out.is_dir() && !out.join(".lock").exists();
                if emptied && second.borrow().is_none() {
                    let steps = Steps { lock, lock_inputs: locked, ..Steps::default() };
                    let merged = merge_with(&out, &dirs, &crate::games::registry(), &Quiet, &steps);
                    *second.borrow_mut() = Some(merged.map(|_| ()).map_err(|e| e.to_string()));
                }
                false
            };
            let steps = Steps { killed: &killed, lock, lock_inputs: locked, ..Steps::default() };
            let first = merge_with(&out, &dirs, &crate::games::registry(), &Quiet, &steps);
            let second = second.take().expect("the second merge ran");
            if locked {
                assert!(first.is_ok(), "{:?}", first.err());
                let pid = format!("another arena merge into it is under way ({})", super::super::signature().trim());
                assert!(second.as_ref().is_err_and(|e| e.contains(&pid)), "{second:?}");
                assert!(!dir.path().join(format!(".out-{locked}.arena-merge.lock")).exists(), "removed");
            } else {
                // The control.
                assert_eq!(second, Ok(()));
                let err = first.map(|_| ()).unwrap_err().to_string();
                assert!(err.contains("No such file"), "{err}");
            }
            assert_eq!(read(&out), complete, "locked: {locked}");
        }
    }

    /// Rewrites the replay of `line` in `dir` by `change` (its JSON), gzipped as the league
    /// writes it.
    fn rewrite_replay(dir: &Path, line: &ResultLine, change: impl FnOnce(&mut serde_json::Value)) {
        let path = dir.join(&line.replay);
        let mut replay: serde_json::Value = serde_json::from_slice(&crate::replay::read_json(&path).unwrap()).unwrap();
        change(&mut replay);
        std::fs::write(&path, crate::replay::gzip(&serde_json::to_vec(&replay).unwrap()).unwrap()).unwrap();
    }

    /// A shard's folder whose result was changed in both its line and its replay (seat 0 scores
    /// 999999 and wins, as the red team's `shard-x`) is refused by the merge, naming the folder,
    /// the match and the re-simulated score; its match is missing, not in the leaderboard. The
    /// control: with the older check (the line against its replay's result alone), the forged
    /// score tops the leaderboard.
    #[test]
    fn a_result_forged_in_its_line_and_its_replay_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let src = dir.path().join("course/league");
        assert_eq!(league(config, &src, false).played, 6);
        let mut lines = results::read_all(&src).unwrap();
        let forged = &mut lines[0];
        let cheat = forged.seats[0].clone();
        forged.result.players[0].score = 999_999;
        forged.result.winner = Some(0);
        rewrite_replay(&src, forged, |r| {
            r["result"]["players"][0]["score"] = 999_999.into();
            r["result"]["winner"] = 0.into();
        });
        let key = forged.key.clone();
        results::rewrite(&src.join(RESULTS_FILE), &lines).unwrap();
        let dirs = [src.clone()];
        let top = |merged: &Merged| (merged.leaderboard.rows[0].bot.clone(), merged.leaderboard.rows[0].total_score);

        let merged =
            merge_with(&dir.path().join("out"), &dirs, &crate::games::registry(), &Quiet, &Steps::default()).unwrap();
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let why = &merged.refused[0];
        assert!(why.starts_with(&format!("{}: match {key}: its replay does not re-simulate", src.display())), "{why}");
        assert!(why.contains("is recorded as 999999 but re-simulates to 0"), "{why}");
        assert_eq!(merged.missing, [key], "left out, to be played again");
        assert!(top(&merged).1 < 999_999, "{:?}", top(&merged));

        // The control: the older check.
        let steps = Steps { vouched: false, ..Steps::default() };
        let merged = merge_with(&dir.path().join("old"), &dirs, &crate::games::registry(), &Quiet, &steps).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty());
        assert_eq!(top(&merged), (cheat, 999_999), "the control ranks the forged result first");

        // A run resuming the folder plays the forged match again (its own results are checked
        // as a merge checks a shard's).
        let config = TournamentConfig::load(&dir.path().join("course/class.toml")).unwrap();
        let summary = league(config, &src, true);
        assert_eq!((summary.played, summary.kept), (1, 5));
        let merged =
            merge_with(&dir.path().join("again"), &dirs, &crate::games::registry(), &Quiet, &Steps::default()).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
    }

    /// Forges four of the six results of `src` (its first, third, fourth and sixth lines), each
    /// otherwise: a score changed in its line and its replay (which then does not re-simulate),
    /// a frame changed in its replay alone, its replay removed, its seed changed in its line.
    /// Returns their keys, in the lines' order.
    fn forge_four(src: &Path) -> Vec<String> {
        let mut lines = results::read_all(src).unwrap();
        lines[0].result.players[0].score = 999_999;
        rewrite_replay(src, &lines[0], |r| r["result"]["players"][0]["score"] = 999_999.into());
        rewrite_replay(src, &lines[2], |r| r["steps"][2]["frame"]["tick"] = 999.into());
        std::fs::remove_file(src.join(&lines[3].replay)).unwrap();
        lines[5].seed += 1;
        results::rewrite(&src.join(RESULTS_FILE), &lines).unwrap();
        [0, 2, 3, 5].iter().map(|&i| lines[i].key.clone()).collect()
    }

    /// A merge checking its lines on several threads at once refuses the same lines as one
    /// thread, with the same words, in the lines' order (whichever thread ends first), and
    /// merges the same results. The control: the older check (a line against its replay's
    /// result alone) takes the two forged lines whose replays read, which only a re-simulation
    /// refuses.
    #[test]
    fn lines_checked_at_once_are_refused_as_one_thread_refuses_them() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let forged = forge_four(&src);
        let dirs = [src.clone()];
        let merge = |name: &str, steps: &Steps| {
            let out = dir.path().join(name);
            (merge_with(&out, &dirs, &crate::games::registry(), &Quiet, steps).unwrap(), results::read_all(&out))
        };
        let (one, one_results) = merge("one", &Steps { jobs: 1, ..Steps::default() });
        let whys: Vec<&str> = one
            .refused
            .iter()
            .zip(&forged)
            .map(|(why, key)| {
                let at = format!("{}: match {key}: ", src.display());
                why.strip_prefix(&at).unwrap_or_else(|| panic!("{why} (expected {at})"))
            })
            .collect();
        assert_eq!(one.refused.len(), 4, "{:?}", one.refused);
        assert!(whys[0].starts_with("its replay does not re-simulate: result:"), "{}", whys[0]);
        assert!(whys[1].starts_with("its replay does not re-simulate: step 3:"), "{}", whys[1]);
        assert!(whys[2].starts_with("its replay cannot be read"), "{}", whys[2]);
        assert!(whys[3].starts_with("its seed is"), "{}", whys[3]);
        for jobs in [2, 3, 4, 8] {
            let (many, many_results) = merge(&format!("many-{jobs}"), &Steps { jobs, ..Steps::default() });
            assert_eq!(many.refused, one.refused, "{jobs} threads");
            assert_eq!((&many.missing, many.results), (&one.missing, one.results), "{jobs} threads");
            assert_eq!(many_results.unwrap(), *one_results.as_ref().unwrap(), "{jobs} threads");
        }

        // The control: the older check.
        let (old, _) = merge("old", &Steps { vouched: false, jobs: 4, ..Steps::default() });
        assert!(
            !old.refused.iter().any(|why| why.contains(&forged[0]) || why.contains(&forged[1])),
            "{:?}",
            old.refused
        );
    }

    /// A resumed league checking its results on several threads drops the same lines as one
    /// thread, for the same reasons, in the lines' order, and keeps the same; run, it plays the
    /// forged matches again. The control: the same lines, unforged, are all kept.
    #[test]
    fn a_resume_checking_at_once_drops_what_one_thread_drops() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let record = TournamentRecord::load(&src, &registry).unwrap();
        let sort = |jobs: usize| {
            let sorted =
                super::super::sort_results(&record, results::read_all(&src).unwrap(), &src, &[], &registry, jobs);
            let done: Vec<String> = sorted.done.iter().map(|l| l.key.clone()).collect();
            (done, sorted.history.len(), sorted.dropped, sorted.why)
        };
        // The control.
        let honest = sort(4);
        assert_eq!((honest.0.len(), honest.2), (6, 0), "{:?}", honest.3);

        let forged = forge_four(&src);
        let one = sort(1);
        assert_eq!(one.3.iter().map(|(key, _)| key).collect::<Vec<_>>(), forged.iter().collect::<Vec<_>>());
        assert_eq!((one.0.len(), one.2), (2, 4));
        assert!(one.3[0].1.starts_with("its replay does not re-simulate"), "{:?}", one.3);
        for jobs in [2, 3, 4, 8] {
            assert_eq!(sort(jobs), one, "{jobs} threads");
        }
        let config = TournamentConfig::load(&dir.path().join("course/class.toml")).unwrap();
        let summary = league(config, &src, true);
        assert_eq!((summary.played, summary.kept), (4, 2));
    }

    /// A line whose replay re-simulates but is another scheduled match's (the same bots, seats
    /// swapped) is refused: given under the other key as it is (its seats not the schedule's),
    /// or with the key's seats but the swapped match's replay. The control: the older check
    /// takes both.
    #[test]
    fn a_result_of_another_scheduled_match_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let lines = results::read_all(&src).unwrap();
        let (a, b) = lines
            .iter()
            .enumerate()
            .find_map(|(i, a)| {
                let swapped = |b: &&ResultLine| b.seats.iter().rev().eq(a.seats.iter());
                lines.iter().position(|b| swapped(&b)).map(|j| (i, j))
            })
            .unwrap();
        let replay_a = std::fs::read(src.join(&lines[a].replay)).unwrap();
        for (n, keep_seats) in [false, true].into_iter().enumerate() {
            // B's line and replay, under A's key and in A's replay file.
            let mut forged = lines.clone();
            forged[a] = ResultLine { key: lines[a].key.clone(), replay: lines[a].replay.clone(), ..lines[b].clone() };
            if keep_seats {
                forged[a].seats.clone_from(&lines[a].seats);
                forged[a].versions.clone_from(&lines[a].versions);
                forged[a].seed = lines[a].seed;
            }
            std::fs::write(src.join(&lines[a].replay), std::fs::read(src.join(&lines[b].replay)).unwrap()).unwrap();
            results::rewrite(&src.join(RESULTS_FILE), &forged).unwrap();
            let dirs = [src.clone()];
            let out = dir.path().join(format!("out-{n}"));
            let merged = merge_with(&out, &dirs, &crate::games::registry(), &Quiet, &Steps::default()).unwrap();
            assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
            let why = &merged.refused[0];
            let expected = if keep_seats { "its replay's players are" } else { "its seats are" };
            assert!(why.contains(&format!("match {}: {expected}", lines[a].key)), "{why}");
            // The control.
            let steps = Steps { vouched: false, ..Steps::default() };
            let old = dir.path().join(format!("old-{n}"));
            let merged = merge_with(&old, &dirs, &crate::games::registry(), &Quiet, &steps).unwrap();
            assert!(
                merged.refused.is_empty() && merged.missing.is_empty(),
                "the control takes it: {:?}",
                merged.refused
            );
            std::fs::write(src.join(&lines[a].replay), &replay_a).unwrap();
        }
    }

    /// A new OUT holding an entry named like a league's but of another kind (a file named
    /// `replays`, a link named `logs`) is not a league's folder: the merge is refused and leaves
    /// it as it was (a staged merge would have put its own folder in the file's place, deleting
    /// it). The control: the same names, of their kind, are a league's.
    #[test]
    fn an_entry_named_like_a_league_s_but_of_another_kind_is_foreign() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir_all(out.join("bots")).unwrap();
        std::fs::write(out.join("leaderboard.md"), "old").unwrap();
        // (What a first run stopped during its builds leaves.)
        std::fs::write(out.join(super::super::versions::UNRECORDED_BUILDS), "alice\n").unwrap();
        assert_eq!(foreign_entry(&out), None, "the control");
        std::fs::write(out.join("replays"), "mine").unwrap();
        assert_eq!(foreign_entry(&out).as_deref(), Some("replays"));
        std::fs::remove_file(out.join("replays")).unwrap();
        std::os::unix::fs::symlink(dir.path(), out.join("logs")).unwrap();
        assert_eq!(foreign_entry(&out).as_deref(), Some("logs"));
        std::fs::remove_file(out.join("logs")).unwrap();
        std::fs::create_dir(out.join("index.html")).unwrap();
        assert_eq!(foreign_entry(&out).as_deref(), Some("index.html"));
    }

    /// A folder on another file system than its parent (a mount point: `/proc` is one on every
    /// Linux machine) gets no staging folder, which no rename could bring into it; the control:
    /// a folder on its parent's file system gets one beside it. (End to end, on a tmpfs mounted
    /// as OUT: tests/shards.rs.)
    #[test]
    fn a_mount_point_gets_no_staging_folder() {
        assert_eq!(staging_folder(Path::new("/proc")).unwrap(), None);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        assert_eq!(staging_folder(&out).unwrap(), Some(dir.path().join(".out.merging")));
    }

    /// Copies the files and folders of `from` into `to`.
    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let (source, target) = (entry.path(), to.join(entry.file_name()));
            if entry.file_type().unwrap().is_dir() {
                copy_tree(&source, &target);
            } else {
                std::fs::copy(&source, &target).unwrap();
            }
        }
    }

    /// A league split in two shards' folders, `shard-1` and `shard-2` (each its record, its
    /// replays and its own results file), with ann's honest result of a match of shard 2 and
    /// a forged one: a legal game of it (its seed, map and limits, re-simulating) where ann's
    /// program exits at once (a flag file outside its folder, its fingerprint unchanged).
    /// Returns the folders, the forged line and its replay's bytes, and the honest line.
    fn forged_shards(dir: &Path) -> ([PathBuf; 2], (ResultLine, Vec<u8>), ResultLine) {
        let flag = dir.join("crash");
        let config = course(&dir.join("course"));
        let waiter = "while read -r word rest; do [ \"$word\" = TICK ] && echo WAIT; done\n";
        std::fs::write(dir.join("course/bots/ann/bot.sh"), format!("[ -e {} ] && exit 0\n{waiter}", flag.display()))
            .unwrap();
        let src = dir.join("course/league");
        assert_eq!(league(TournamentConfig::load(&config).unwrap(), &src, false).played, 6);
        let record = TournamentRecord::load(&src, &crate::games::registry()).unwrap();
        let split = slices(&record.schedule, 2);
        let honest = results::read_all(&src).unwrap();
        let shards = [dir.join("shard-1"), dir.join("shard-2")];
        for (k, shard) in shards.iter().enumerate() {
            copy_tree(&src.join("replays"), &shard.join("replays"));
            std::fs::copy(src.join(super::super::TOURNAMENT_FILE), shard.join(super::super::TOURNAMENT_FILE)).unwrap();
            let mine: Vec<ResultLine> = honest.iter().filter(|l| split[&l.key] == k + 1).cloned().collect();
            results::rewrite(&shard.join(Shard { index: k + 1, count: 2 }.results_file()), &mine).unwrap();
        }
        let line = honest.iter().find(|l| split[&l.key] == 2 && l.seats.iter().any(|s| s == "ann")).unwrap().clone();
        std::fs::write(&flag, "").unwrap();
        let options = super::super::RunOptions { resume: true, rerun: vec![line.key.clone()], ..Default::default() };
        let config = TournamentConfig::load(&config).unwrap();
        let registry = crate::games::registry();
        super::super::run(config, &src, &options, &registry, &Quiet, tokio_util::sync::CancellationToken::new())
            .unwrap();
        let forged = results::read_all(&src).unwrap().into_iter().find(|l| l.key == line.key).unwrap();
        assert_ne!(forged.result, line.result, "ann forfeits");
        let replay = std::fs::read(src.join(&forged.replay)).unwrap();
        (shards, (forged, replay), line)
    }

    /// The setup of the tests of shards' folders: a temporary folder holding [`forged_shards`]'
    /// league and its two shards' folders, the forged line and its replay's bytes, the honest
    /// line and its match's key, and the games (each test took them in the same four lines).
    struct Forged {
        dir: tempfile::TempDir,
        one: PathBuf,
        two: PathBuf,
        forged: ResultLine,
        replay: Vec<u8>,
        honest: ResultLine,
        key: String,
        registry: Registry,
    }

    impl Forged {
        fn new() -> Forged {
            let dir = tempfile::tempdir().unwrap();
            let ([one, two], (forged, replay), honest) = forged_shards(dir.path());
            let key = honest.key.clone();
            Forged { dir, one, two, forged, replay, honest, key, registry: crate::games::registry() }
        }
    }

    /// The result the league merged into `out` holds for `key`.
    fn merged_line(out: &Path, key: &str) -> Option<ResultLine> {
        results::read_all(out).unwrap().into_iter().find(|l| l.key == key)
    }

    /// A forged result of a match of shard 2 in shard 1's folder (the reviewer's `forge.py`):
    /// in shard 1's results file it is refused as another shard's match, naming the folder, the
    /// match and its shard, and shard 2's honest line is merged; in the folder's main results
    /// file (which claims no shard) shard 2's results file, whose match it is, wins, and the
    /// line is refused, naming its folder; in a shard 2's results file of both folders (each as
    /// sure) it conflicts with shard 2's line: both are refused, the match is missing. The
    /// controls: taking the first line seen (the older merge), the forged result lands; holding
    /// every folder alike, the main file's line vetoes shard 2's; the same result in both
    /// folders (when it ended aside) merges.
    #[test]
    fn a_result_in_another_shard_s_folder_or_held_differently_is_refused() {
        let Forged { dir, one, two, forged, replay, honest, key, .. } = Forged::new();
        let dirs = [one.clone(), two.clone()];
        let merge = |name: &str, owned: bool| {
            let steps = Steps { owned, ..Steps::default() };
            let out = dir.path().join(name);
            (merge_with(&out, &dirs, &crate::games::registry(), &Quiet, &steps).unwrap(), out)
        };
        std::fs::write(one.join(&forged.replay), &replay).unwrap();
        let own_file = one.join("results.shard-1-of-2.jsonl");
        let own = results::read_file(&own_file).unwrap().0;
        results::rewrite(&own_file, &[own.clone(), vec![forged.clone()]].concat()).unwrap();

        let (merged, out) = merge("owned", true);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let why = &merged.refused[0];
        let expected =
            format!("{}: match {key}: it is shard 2/2's match, and the line is in results.shard-1-of-2", one.display());
        assert!(why.starts_with(&expected), "{why}");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest));
        // The control: the first line seen.
        let (merged, out) = merge("owned-old", false);
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control takes the forged result");

        // In shard 1's main results file (a folder recording no slice): shard 2's results file,
        // whose match it is, holds it otherwise, and is taken; the line is refused, naming its
        // folder. The control: every folder alike, the line vetoed shard 2's result.
        results::rewrite(&own_file, &own).unwrap();
        results::rewrite(&one.join(RESULTS_FILE), std::slice::from_ref(&forged)).unwrap();
        let (merged, out) = merge("vetoed", true);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let why = &merged.refused[0];
        let expected = format!(
            "{}: match {key}: results.jsonl: another result than {} in results.shard-2-of-2.jsonl (",
            one.display(),
            two.display()
        );
        assert!(why.starts_with(&expected), "{why}");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest));
        let steps = Steps { ranked: false, ..Steps::default() };
        let vetoed = dir.path().join("vetoed-old");
        let merged = merge_with(&vetoed, &dirs, &crate::games::registry(), &Quiet, &steps).unwrap();
        assert_eq!(merged.missing, std::slice::from_ref(&key), "the control: vetoed");
        assert_eq!(merged_line(&vetoed, &key), None);
        std::fs::remove_file(one.join(RESULTS_FILE)).unwrap();

        // In shard 2's results file of both folders: held differently, each as surely.
        results::rewrite(&one.join("results.shard-2-of-2.jsonl"), std::slice::from_ref(&forged)).unwrap();
        let (merged, out) = merge("conflict", true);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let why = &merged.refused[0];
        assert!(why.starts_with(&format!("{}: match {key}: folders hold different results for it: ", one.display())));
        assert!(why.contains(&format!("{} in results.shard-2-of-2.jsonl (", one.display())), "{why}");
        assert!(why.contains(&format!("{} in results.shard-2-of-2.jsonl (", two.display())), "{why}");
        assert!(why.contains("none is merged"), "{why}");
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        assert_eq!(merged_line(&out, &key), None);
        // The control.
        let (merged, out) = merge("conflict-old", false);
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control takes the forged result");

        // The same result in both (its end's time aside, and its map named at another path: a
        // shard run again in another checkout): merged once.
        std::fs::copy(two.join(&honest.replay), one.join(&honest.replay)).unwrap();
        let elsewhere = Path::new("/elsewhere/checkout/maps").join(honest.map.file_name().unwrap());
        let again = ResultLine { at: honest.at + 60, map: elsewhere.clone(), ..honest.clone() };
        std::fs::remove_file(one.join("results.shard-2-of-2.jsonl")).unwrap();
        results::rewrite(&one.join(RESULTS_FILE), &[again]).unwrap();
        let (merged, out) = merge("same", true);
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged.results, 6);
        assert_eq!(merged_line(&out, &key).map(|l| l.result), Some(honest.result));
    }

    /// What the league's folder already holds is never replaced by a shard's line: a match the
    /// teacher played again with `--rerun` in the league's folder keeps the rerun's result over
    /// shard 2's folder's old line (refused, naming it), and its replay in OUT is not written
    /// over; a folder claiming `slice 1/1` (another split than the league's 2) gives nothing,
    /// named, so a match the league lacks is not taken from it. The controls: ranking the league
    /// below a shard's folder (this morning's merge), the shard's old line replaces the rerun's
    /// and its replay OUT's, and the `1/1` folder's forged line is merged.
    #[test]
    fn what_the_league_holds_is_never_replaced_by_a_shard_s_line() {
        let Forged { dir, two, forged: rerun, replay: rerun_replay, honest: old, key, registry, .. } = Forged::new();
        let src = dir.path().join("course/league");
        let set_slice = |folder: &Path, slice: Option<Shard>| {
            let mut record = TournamentRecord::load(folder, &registry).unwrap();
            record.slice = slice;
            record.save(folder).unwrap();
        };
        set_slice(&two, Some(Shard { index: 2, count: 2 }));
        // The rerun case: OUT is the league's folder.
        let rerun_case = |name: &str, league_held: bool| {
            let league = dir.path().join(name);
            copy_tree(&src, &league);
            let dirs = [league.clone(), two.clone()];
            let steps = Steps { league_held, ..Steps::default() };
            (merge_with(&league, &dirs, &registry, &Quiet, &steps).unwrap(), league)
        };
        let (merged, league) = rerun_case("rerun", true);
        assert_eq!(merged_line(&league, &key).as_ref(), Some(&rerun), "the rerun's result is kept");
        assert_eq!(std::fs::read(league.join(&rerun.replay)).unwrap(), rerun_replay, "its replay too");
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let expected = format!(
            "{}: match {key}: results.shard-2-of-2.jsonl: another result than {}",
            two.display(),
            league.display()
        );
        assert!(merged.refused[0].starts_with(&expected), "{:?}", merged.refused);
        assert!(merged.refused[0].contains("which the league already holds"), "{:?}", merged.refused);
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        // A league whose `versions/` is a link to a folder elsewhere (to share a disk) is the
        // league's all the same (the control: the case above, a folder).
        let linked = dir.path().join("rerun-linked");
        copy_tree(&src, &linked);
        let elsewhere = dir.path().join("versions-elsewhere");
        std::fs::rename(linked.join("versions"), &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, linked.join("versions")).unwrap();
        let out = dir.path().join("rerun-linked-out");
        let merged =
            merge_in(&out, Some(&linked), std::slice::from_ref(&two), &registry, &Quiet, &Steps::default()).unwrap();
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&rerun), "a linked versions/: the rerun's result is kept");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        let (merged, league) = rerun_case("rerun-old", false);
        assert_eq!(merged_line(&league, &key).as_ref(), Some(&old), "the control: the shard's old line wins");
        assert_ne!(std::fs::read(league.join(&rerun.replay)).unwrap(), rerun_replay, "the control: replay overwritten");
        assert!(merged.refused.iter().all(|r| !r.starts_with(&two.display().to_string())), "{:?}", merged.refused);
        // Into a new folder, the league's folder named (`arena merge OUT --league LEAGUE SHARD_DIR…`).
        let new = dir.path().join("rerun-new");
        let dirs = [two.clone()];
        let merged =
            merge_in(&new, Some(&dir.path().join("rerun")), &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        assert_eq!(merged_line(&new, &key).as_ref(), Some(&rerun), "the rerun's result is kept");
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        // Into an OUT holding an earlier merge (the old result), the league having played the
        // match again since: the league's result is taken (both were held alike, and the match
        // went missing, "folders hold different results").
        let earlier = dir.path().join("rerun-old");
        assert_eq!(merged_line(&earlier, &key).as_ref(), Some(&old), "the control: OUT holds the old result");
        let merged =
            merge_in(&earlier, Some(&dir.path().join("rerun")), &[], &registry, &Quiet, &Steps::default()).unwrap();
        assert_eq!(merged_line(&earlier, &key).as_ref(), Some(&rerun), "the league's result is taken");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);

        // A folder of shard 1/1: the league (split in 2 by its last merge) lacks the match, shard
        // 2's folder has not played it, and the `1/1` folder holds it forged.
        let mut record = TournamentRecord::load(&src, &registry).unwrap();
        record.shards = Some(2);
        record.save(&src).unwrap();
        let without = |file: &Path| {
            let kept: Vec<ResultLine> =
                results::read_file(file).unwrap().0.into_iter().filter(|l| l.key != key).collect();
            results::rewrite(file, &kept).unwrap();
        };
        without(&src.join(RESULTS_FILE));
        without(&two.join("results.shard-2-of-2.jsonl"));
        let forged = dir.path().join("forged");
        copy_tree(&two, &forged);
        std::fs::remove_file(forged.join("results.shard-2-of-2.jsonl")).unwrap();
        set_slice(&forged, Some(Shard { index: 1, count: 1 }));
        std::fs::write(forged.join(&rerun.replay), &rerun_replay).unwrap();
        results::rewrite(&forged.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&rerun)).unwrap();
        let dirs = [src.clone(), two.clone(), forged.clone()];
        let merge = |name: &str, league_held: bool| {
            let steps = Steps { league_held, ..Steps::default() };
            let out = dir.path().join(name);
            (merge_with(&out, &dirs, &registry, &Quiet, &steps).unwrap(), out)
        };
        let (merged, out) = merge("split", true);
        assert_eq!(merged_line(&out, &key), None);
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        let expected = format!(
            "{}: the folder of shard 1/1 (as its record says), and the league is split into 2 shards",
            forged.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&expected)), "{:?}", merged.refused);
        let (merged, out) = merge("split-old", false);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&rerun), "the control: the 1/1 folder's line lands");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);

        // Two folders claiming shard 2's slice, holding the match the league lacks differently:
        // still a conflict, neither merged.
        let own_file = two.join("results.shard-2-of-2.jsonl");
        let mut lines = results::read_file(&own_file).unwrap().0;
        lines.push(old.clone());
        results::rewrite(&own_file, &lines).unwrap();
        std::fs::remove_file(forged.join("results.shard-1-of-1.jsonl")).unwrap();
        set_slice(&forged, Some(Shard { index: 2, count: 2 }));
        results::rewrite(&forged.join("results.shard-2-of-2.jsonl"), std::slice::from_ref(&rerun)).unwrap();
        let (merged, out) = merge("twins", true);
        assert_eq!(merged_line(&out, &key), None);
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        assert!(
            merged.refused.iter().any(|r| r.contains("folders hold different results for it")),
            "{:?}",
            merged.refused
        );
    }

    /// [`forged_shards`]' league and shard 2's folder set up for the tests of the league's
    /// rank: `league`, a copy of the league lacking the match `key` (played by shard 2), and
    /// shard 2's folder recording its slice, 2/2, holding the honest result.
    fn league_lacking(dir: &Path, two: &Path, key: &str) -> PathBuf {
        let registry = crate::games::registry();
        let league = dir.join("lacking");
        copy_tree(&dir.join("course/league"), &league);
        let kept: Vec<ResultLine> = results::read_all(&league).unwrap().into_iter().filter(|l| l.key != key).collect();
        results::rewrite(&league.join(RESULTS_FILE), &kept).unwrap();
        let mut record = TournamentRecord::load(two, &registry).unwrap();
        record.slice = Some(Shard { index: 2, count: 2 });
        record.save(two).unwrap();
        league
    }

    /// A shard's folder whose slice a student removed, with a `versions/` made (it looks like
    /// the league's folder `arena build` made), holding another result of a match of shard 2 in
    /// its main results file: given first, or without the league's folder, it no longer
    /// outranks shard 2's own folder (its line is refused, named, and the honest result merged),
    /// and the merge says which folder's record it took, to name the league's. Named with
    /// `--league`, the league's folder alone holds the league's rank and gives the record: the
    /// look-alike is merged as a shard's folder, its record (a bot disqualified) not taken and
    /// not compared; a shard's folder named the league's is refused, saying which field. The
    /// controls: ranking the folder taken for the league's by its looks as the league (the
    /// older merge), the forged result is merged, over shard 2's; and without `--league` or the
    /// league's folder, the look-alike's record is taken (the merge says so).
    #[test]
    fn only_the_folder_named_the_league_s_holds_its_rank() {
        let Forged { dir, one, two, forged, replay, honest, key, registry } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let evil = dir.path().join("evil");
        copy_tree(&one, &evil);
        std::fs::create_dir_all(evil.join("versions")).unwrap();
        std::fs::write(evil.join(&forged.replay), &replay).unwrap();
        results::rewrite(&evil.join(RESULTS_FILE), std::slice::from_ref(&forged)).unwrap();
        let merge = |name: &str, named: Option<&Path>, dirs: &[PathBuf], inferred_rank: bool| {
            let out = dir.path().join(name);
            let steps = Steps { inferred_rank, ..Steps::default() };
            (merge_in(&out, named, dirs, &registry, &Quiet, &steps).unwrap(), out)
        };
        let refused_evil = |merged: &Merged| {
            let expected =
                format!("{}: match {key}: results.jsonl: another result than {}", evil.display(), two.display());
            merged.refused.iter().any(|r| r.starts_with(&expected))
        };
        for (case, dirs) in
            [("alone", vec![evil.clone(), two.clone()]), ("first", vec![evil.clone(), league.clone(), two.clone()])]
        {
            let (merged, out) = merge(case, None, &dirs, false);
            assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "{case}: shard 2's own result");
            assert!(refused_evil(&merged), "{case}: {:?}", merged.refused);
            assert_eq!(merged.league_inferred.as_ref(), Some(&evil), "{case}: the merge says whose record it took");
            // The control: the look-alike ranked as the league's.
            let (merged, out) = merge(&format!("{case}-old"), None, &dirs, true);
            assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: {case}: the forged result lands");
            assert!(!refused_evil(&merged), "{:?}", merged.refused);
        }
        // Named: the league's folder is the league's, the look-alike a shard's folder.
        let mut record = TournamentRecord::load(&evil, &registry).unwrap();
        record.failures.insert("ben".to_string(), "disqualified".to_string());
        record.save(&evil).unwrap();
        let (merged, out) = merge("named", Some(&league), &[evil.clone(), two.clone()], false);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "shard 2's own result");
        assert!(refused_evil(&merged), "{:?}", merged.refused);
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        assert_eq!(merged.league_inferred, None);
        assert!(!TournamentRecord::load(&out, &registry).unwrap().failures.contains_key("ben"), "the league's record");
        // The control: unnamed, the league's folder not given, the look-alike's record is taken.
        let (merged, out) = merge("record-old", None, &[evil.clone(), two.clone()], false);
        assert!(TournamentRecord::load(&out, &registry).unwrap().failures.contains_key("ben"));
        assert_eq!(merged.league_inferred.as_ref(), Some(&evil), "and the merge says so");
        // A shard's folder named the league's: refused, naming it and its slice; nothing made.
        let out = dir.path().join("shard-named");
        let err = merge_in(&out, Some(&two), std::slice::from_ref(&league), &registry, &Quiet, &Steps::default())
            .unwrap_err();
        assert!(matches!(err, TournamentError::NotTheLeague { .. }), "{err}");
        let expected = format!(
            "{}: named the league's folder (--league), but its tournament.json names the slice of shard 2/2",
            two.display()
        );
        assert!(err.to_string().starts_with(&expected), "{err}");
        assert!(!out.exists());
        // A folder holding no record named the league's: refused, naming it.
        let err = merge_in(
            &out,
            Some(&dir.path().join("nowhere")),
            std::slice::from_ref(&two),
            &registry,
            &Quiet,
            &Steps::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("nowhere: named the league's folder (--league), but it holds no tournament.json"),
            "{err}"
        );
    }

    /// A shard's results file in the folder the shards shared (OUT, or the league's folder
    /// named) holds its match over a shard's own folder from elsewhere, whose line is refused:
    /// both are shard 2's, and the teacher's folder is the surer. The control: ranked below the
    /// shard's folder (the older merge), the other folder's forged result replaced it.
    #[test]
    fn a_shard_s_results_in_the_teacher_s_folders_outrank_a_shard_s_folder() {
        let Forged { dir, two, forged, replay, honest, key, registry, .. } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        std::fs::copy(two.join(&honest.replay), league.join(&honest.replay)).unwrap();
        results::rewrite(&league.join("results.shard-2-of-2.jsonl"), std::slice::from_ref(&honest)).unwrap();
        let own = two.join("results.shard-2-of-2.jsonl");
        let lines: Vec<ResultLine> = results::read_file(&own)
            .unwrap()
            .0
            .into_iter()
            .map(|l| if l.key == key { forged.clone() } else { l })
            .collect();
        results::rewrite(&own, &lines).unwrap();
        std::fs::write(two.join(&forged.replay), &replay).unwrap();
        let merge = |name: &str, named: bool, trusted_files: bool| {
            let out = dir.path().join(name);
            copy_tree(&league, &out);
            let steps = Steps { trusted_files, ..Steps::default() };
            let named = named.then_some(out.as_path());
            (merge_in(&out, named, std::slice::from_ref(&two), &registry, &Quiet, &steps).unwrap(), out)
        };
        for named in [false, true] {
            let (merged, out) = merge(&format!("shared-{named}"), named, true);
            assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "the shared folder's result");
            assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
            let expected = format!(
                "{}: match {key}: results.shard-2-of-2.jsonl: another result than {}",
                two.display(),
                out.display()
            );
            assert!(merged.refused[0].starts_with(&expected), "{:?}", merged.refused);
            let (_, out) = merge(&format!("shared-{named}-old"), named, false);
            assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: the other folder's line lands");
        }
        // The league's folder named, into a new folder.
        let out = dir.path().join("new");
        let merged =
            merge_in(&out, Some(&league), std::slice::from_ref(&two), &registry, &Quiet, &Steps::default()).unwrap();
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "the league's folder's result");
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
    }

    /// A copy `lone` in `dir` of shard 2's folder `two`, without its results file, recording
    /// `slice`, with the `forged` line's replay `replay` written where the line names it.
    fn lone_copy(dir: &Path, two: &Path, slice: Option<Shard>, forged: &ResultLine, replay: &[u8]) -> PathBuf {
        let registry = crate::games::registry();
        let lone = dir.join("lone");
        copy_tree(two, &lone);
        std::fs::remove_file(lone.join("results.shard-2-of-2.jsonl")).unwrap();
        let mut record = TournamentRecord::load(&lone, &registry).unwrap();
        record.slice = slice;
        record.save(&lone).unwrap();
        std::fs::write(lone.join(&forged.replay), replay).unwrap();
        lone
    }

    /// A lone shard's folder of another split than the league's last merge recorded (one
    /// claiming `slice 1/1`, every match) fills no match the league lacks: refused, saying why.
    /// The controls: taken as a new split (the older merge), its forged line lands; and where
    /// the league names no split, any split is a new one, and the folder's line is merged.
    #[test]
    fn a_lone_folder_of_another_split_than_the_league_s_is_refused() {
        let Forged { dir, two, forged, replay, key, registry, .. } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let lone = lone_copy(dir.path(), &two, Some(Shard { index: 1, count: 1 }), &forged, &replay);
        results::rewrite(&lone.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&forged)).unwrap();
        let split = |shards: Option<usize>| {
            let mut record = TournamentRecord::load(&league, &registry).unwrap();
            record.shards = shards;
            record.save(&league).unwrap();
        };
        let merge = |name: &str, lone_split: bool| {
            let out = dir.path().join(name);
            let steps = Steps { lone_split, ..Steps::default() };
            (merge_in(&out, Some(&league), std::slice::from_ref(&lone), &registry, &Quiet, &steps).unwrap(), out)
        };
        split(Some(2));
        let (merged, out) = merge("recorded", true);
        assert_eq!(merged_line(&out, &key), None);
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        let expected = format!(
            "{}: the folder of shard 1/1 (as its record says), and the league is split into 2 shards (as {}'s last merge recorded",
            lone.display(),
            league.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&expected)), "{:?}", merged.refused);
        assert!(
            merged.refused.iter().any(|r| r.contains("no other folder merged is of its split")),
            "{:?}",
            merged.refused
        );
        let (merged, out) = merge("recorded-old", false);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: the lone folder's line lands");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        split(None);
        let (merged, out) = merge("unsplit", true);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "no split known: a new one");
        assert!(merged.refused.is_empty(), "{:?}", merged.refused);
    }

    /// With `--league`, a folder recording no slice (a shard's folder whose slice a student
    /// removed) is a shard's folder only by its results files' names: a lone
    /// `results.shard-1-of-1.jsonl` there gives nothing, even where no split of the league is
    /// known, and records no split; its main results file gives only what another folder holds
    /// the same. The folder the shards shared, holding the files of both shards of the split,
    /// is merged. The controls: claimed by names as before, the forged line is merged and the
    /// league's split recorded as 1, or merged from the main results file.
    #[test]
    fn a_folder_recording_no_slice_is_a_shard_s_only_by_its_files_names() {
        let Forged { dir, one, two, forged, replay, honest, key, registry } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let lone = lone_copy(dir.path(), &two, None, &forged, &replay);
        let merge = |name: &str, sliceless_held: bool| {
            let out = dir.path().join(format!("out-{name}"));
            let steps = Steps { sliceless_held, ..Steps::default() };
            let merged = merge_in(&out, Some(&league), std::slice::from_ref(&lone), &registry, &Quiet, &steps).unwrap();
            let shards = TournamentRecord::load(&out, &registry).unwrap().shards;
            (merged, out, shards)
        };
        results::rewrite(&lone.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&forged)).unwrap();
        let (merged, out, shards) = merge("lone", true);
        assert_eq!(merged_line(&out, &key), None, "{:?}", merged.refused);
        assert_eq!(shards, None, "no split recorded from it");
        let why = format!(
            "{}: results.shard-1-of-1.jsonl: the results of shard 1/1, in a folder recording no slice",
            lone.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        let (_, out, shards) = merge("lone-old", false);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: the forged line lands");
        assert_eq!(shards, Some(1), "the control: the split recorded from it");
        std::fs::rename(lone.join("results.shard-1-of-1.jsonl"), lone.join(RESULTS_FILE)).unwrap();
        let (merged, out, _) = merge("main", true);
        assert_eq!(merged_line(&out, &key), None);
        let why = format!(
            "{}: match {key}: results.jsonl: the main results file of a folder recording no slice",
            lone.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        let (_, out, _) = merge("main-old", false);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: the forged line lands");
        // The folder the shards shared: both shards' files.
        std::fs::remove_file(lone.join(RESULTS_FILE)).unwrap();
        std::fs::copy(src_file(&two, &honest), lone.join(&honest.replay)).unwrap();
        let first: Vec<ResultLine> = results::read_all(&one).unwrap();
        results::rewrite(&lone.join("results.shard-1-of-2.jsonl"), &first).unwrap();
        results::rewrite(&lone.join("results.shard-2-of-2.jsonl"), std::slice::from_ref(&honest)).unwrap();
        for line in &first {
            std::fs::copy(src_file(&one, line), lone.join(&line.replay)).unwrap();
        }
        let (merged, out, shards) = merge("shared", true);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "{:?}", merged.refused);
        assert!(merged.refused.is_empty(), "{:?}", merged.refused);
        assert_eq!(shards, Some(2));
    }

    /// The replay of `line` in the folder `dir`.
    fn src_file(dir: &Path, line: &ResultLine) -> PathBuf {
        dir.join(&line.replay)
    }

    /// OUT holding an earlier merge of the league is merged into again after a change of the
    /// league's record alone (a setting, a label): its record is brought up to date, not
    /// refused as another league's; another build of the league still is.
    #[test]
    fn an_out_holding_an_earlier_merge_takes_the_league_s_record_changed_since() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let out = dir.path().join("out");
        let dirs = [src.clone()];
        merge_with(&out, &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        let mut record = TournamentRecord::load(&src, &registry).unwrap();
        record.config.seed = record.config.seed.wrapping_add(1);
        record.save(&src).unwrap();
        assert!(record_differs(&record, &TournamentRecord::load(&out, &registry).unwrap()).is_some());
        let merged = merge_with(&out, &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(TournamentRecord::load(&out, &registry).unwrap().config.seed, record.config.seed);
        // Another build (another secret) is still refused.
        let mut other = TournamentRecord::load(&out, &registry).unwrap();
        other.config.secret = Some("another".to_string());
        other.save(&out).unwrap();
        let err = merge_with(&out, &dirs, &registry, &Quiet, &Steps::default()).unwrap_err().to_string();
        assert!(err.contains("another build of the league"), "{err}");
    }

    /// Two shards' folders made from copies of the league at other paths (their records naming
    /// another config file and base folder) merge without the league's folder; a record that
    /// differs in what the standings show is still refused, told as shards' folders (they name
    /// slices). The control: the paths compared, the honest pair was refused.
    #[test]
    fn shards_made_from_league_copies_elsewhere_merge_without_the_league() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let mut folders = Vec::new();
        for k in 1..=2 {
            let shard = dir.path().join(format!("shard-{k}"));
            copy_tree(&src.join("replays"), &shard.join("replays"));
            let mut record = TournamentRecord::load(&src, &registry).unwrap();
            record.slice = Some(Shard { index: k, count: 2 });
            record.config.base = Some(dir.path().join(format!("copy-{k}")));
            record.config.file = Some(dir.path().join(format!("copy-{k}/class.toml")));
            record.save(&shard).unwrap();
            let split = slices(&record.schedule, 2);
            let mine: Vec<ResultLine> =
                results::read_all(&src).unwrap().into_iter().filter(|l| split[&l.key] == k).collect();
            results::rewrite(&shard.join(Shard { index: k, count: 2 }.results_file()), &mine).unwrap();
            folders.push(shard);
        }
        let (a, b) = (
            TournamentRecord::load(&folders[0], &registry).unwrap(),
            TournamentRecord::load(&folders[1], &registry).unwrap(),
        );
        assert_ne!(a.config.base, b.config.base);
        // The control: the paths are in the records compared, and differ.
        let (ja, jb) = (serde_json::to_value(&a).unwrap(), serde_json::to_value(&b).unwrap());
        for field in ["base", "file"] {
            assert!(ja["config"].get(field).is_some() && ja["config"][field] != jb["config"][field], "{field}");
        }
        let merged = merge_with(&dir.path().join("out"), &folders, &registry, &Quiet, &Steps::default()).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        let mut edited = b.clone();
        edited.config.seed = edited.config.seed.wrapping_add(1);
        edited.save(&folders[1]).unwrap();
        let err = merge_with(&dir.path().join("out2"), &folders, &registry, &Quiet, &Steps::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("its record differs from") && err.contains("`config.seed`"), "{err}");
        assert!(err.contains("name the league's folder (`arena merge OUT --league LEAGUE"), "{err}");
        assert!(!err.contains("naming no slice"), "{err}");
    }

    /// A shard's folder's results file that is a link is not read (its lines refused, the file
    /// named), and one larger than a results file is refused by its size before it is read (a
    /// sparse 8 GiB file was read whole); the league's record is capped too. The control: the
    /// link followed (as before) gives shard 1's lines.
    #[test]
    fn a_shard_s_results_file_linked_or_huge_is_refused_unread() {
        let Forged { dir, one, two, registry, .. } = Forged::new();
        let own = one.join("results.shard-1-of-2.jsonl");
        let outside = dir.path().join("outside.jsonl");
        std::fs::rename(&own, &outside).unwrap();
        std::os::unix::fs::symlink(&outside, &own).unwrap();
        assert!(!results::read_file(&own).unwrap().0.is_empty(), "the control: followed, the link gives its lines");
        let dirs = [one.clone(), two.clone()];
        let merged = merge_with(&dir.path().join("linked"), &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        assert!(
            merged.refused.iter().any(|r| r.contains("results.shard-1-of-2.jsonl") && r.contains("a link, not a file")),
            "{:?}",
            merged.refused
        );
        assert_eq!(merged.missing.len(), 3, "shard 1's matches: {:?}", merged.missing);
        std::fs::remove_file(&own).unwrap();
        std::fs::rename(&outside, &own).unwrap();
        let huge = std::fs::OpenOptions::new().append(true).open(&own).unwrap();
        huge.set_len(results::MAX_RESULTS_BYTES + 1).unwrap();
        let merged = merge_with(&dir.path().join("huge"), &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        assert!(merged.refused.iter().any(|r| r.contains("larger than 1024 MiB")), "{:?}", merged.refused);
        let record = one.join(super::super::TOURNAMENT_FILE);
        std::fs::OpenOptions::new().append(true).open(&record).unwrap().set_len(MAX_RECORD_TEST + 1).unwrap();
        let err = TournamentRecord::load(&one, &registry).unwrap_err().to_string();
        assert!(err.contains("larger than 4096 MiB"), "{err}");
    }

    /// OUT's results files and its `refused.jsonl` are read as files of their own, no link
    /// followed: in the shared folder's flow (`arena merge L --league L`) a shard's machine that
    /// made `L/results.shard-2-of-2.jsonl` or `L/refused.jsonl` a link to a teacher's file had
    /// that file's text copied into `L/refused.jsonl`. The link is refused, named, and its target
    /// never read nor changed; `refused.jsonl` is written private, a file of its own (always,
    /// where it was the link: it is replaced, never read). The control: read by its path (the
    /// older read), the link gives the teacher's file. A hard-linked `refused.jsonl` is read as
    /// OUT's own, its text kept, as a hard-linked results file of OUT is (a teacher's `cp -al`
    /// backup gives every file two names, and its refused lines were lost: see
    /// `the_league_s_hard_links_are_read_as_its_own_files_and_its_symbolic_links_are_not`; a
    /// shard's machine's kernel refuses it a hard link to a file its user may not write, see
    /// docs/scale-out.md).
    #[test]
    fn out_s_linked_results_file_or_refused_jsonl_is_refused_unread() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let Forged { dir, one, two, .. } = Forged::new();
        let creds = dir.path().join("creds");
        let secret = b"SECRET=hunter2\n";
        std::fs::write(&creds, secret).unwrap();
        let has_secret = |file: &Path| {
            std::fs::read(file).unwrap_or_default().windows(secret.len() - 1).any(|w| w == &secret[..secret.len() - 1])
        };
        std::fs::set_permissions(&creds, std::fs::Permissions::from_mode(0o644)).unwrap();
        let cases = [
            ("results", "results.shard-2-of-2.jsonl", false),
            ("set-aside", SET_ASIDE_FILE, false),
            ("set-aside-hard", SET_ASIDE_FILE, true),
            ("set-aside-hard-taken", SET_ASIDE_FILE, true),
        ];
        for (case, linked, hard) in cases {
            let out = dir.path().join(case);
            copy_tree(&two, &out);
            let link = out.join(linked);
            let _ = std::fs::remove_file(&link);
            if hard {
                std::fs::hard_link(&creds, &link).unwrap();
            } else {
                std::os::unix::fs::symlink(&creds, &link).unwrap();
            }
            assert_eq!(results::complete_part(&link).unwrap().0, secret, "{case}: the control: by path, it is read");
            let dirs = [one.clone(), out.clone()];
            let merge = || merge_in(&out, Some(&one), &dirs, &crate::games::registry(), &Quiet, &Steps::default());
            let kept = out.join(SET_ASIDE_FILE);
            if hard {
                let merged = if case.ends_with("-taken") {
                    crate::files::tests::with_hard_links_taken(merge).unwrap()
                } else {
                    merge().unwrap()
                };
                assert!(has_secret(&kept), "the control: taken as a file of its own, its text is kept");
                assert!(merged.refused.iter().all(|r| !r.contains("a hard link")), "{:?}", merged.refused);
                continue;
            }
            let merged = merge().unwrap_or_else(|e| panic!("{case}: {e}"));
            let why = if hard { "a hard link" } else { "a link, not a file" };
            assert!(
                merged.refused.iter().any(|r| r.contains(linked) && r.contains(why)),
                "{case}: {:?}",
                merged.refused
            );
            assert!(!has_secret(&kept), "{case}: the teacher's file is not kept");
            assert!(merged.refused.iter().all(|r| !r.contains("hunter2")), "{case}: nor said");
            assert_eq!(std::fs::read(&creds).unwrap(), secret, "{case}: the target is untouched");
            let creds_mode = std::fs::metadata(&creds).unwrap().permissions().mode() & 0o777;
            assert_eq!(creds_mode, 0o644, "{case}: the target's mode too");
            // (Where refused.jsonl was the link, it is replaced: there, a file of its own always.)
            let meta = match std::fs::symlink_metadata(&kept) {
                Ok(meta) => meta,
                Err(e) if linked != SET_ASIDE_FILE => {
                    assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{case}");
                    continue;
                }
                Err(e) => panic!("{case}: refused.jsonl replaced by a file of its own: {e}"),
            };
            assert!(meta.is_file() && meta.nlink() == 1, "{case}: refused.jsonl is a file of its own now");
            assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{case}");
        }
    }

    /// A `refused.jsonl` the merge cannot read for another reason than being a link (here larger
    /// than a results file may be: a sparse file) stops the merge, the file as it was: it was
    /// replaced by the lines the merge set aside, and the lines it had kept were lost. The
    /// control: the same file, a line long, is read and kept.
    #[test]
    fn a_set_aside_file_that_cannot_be_read_stops_the_merge_and_is_kept() {
        let Forged { dir, one, two, .. } = Forged::new();
        let line = b"{\"not\": \"a result\"}\n";
        for (case, huge) in [("control", false), ("huge", true)] {
            let out = dir.path().join(case);
            copy_tree(&two, &out);
            let kept = out.join(SET_ASIDE_FILE);
            std::fs::write(&kept, line).unwrap();
            if huge {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&kept)
                    .unwrap()
                    .set_len(results::MAX_RESULTS_BYTES + 1)
                    .unwrap();
            }
            let dirs = [one.clone(), out.clone()];
            let merged = merge_in(&out, Some(&one), &dirs, &crate::games::registry(), &Quiet, &Steps::default());
            let len = std::fs::metadata(&kept).unwrap().len();
            if huge {
                assert!(merged.is_err(), "the merge stops");
                assert_eq!(len, results::MAX_RESULTS_BYTES + 1, "the file is as it was");
            } else {
                assert!(merged.is_ok(), "the control merges: {:?}", merged.err());
                assert!(std::fs::read(&kept).unwrap().starts_with(line), "the control keeps its line");
            }
        }
    }

    /// The logs a merge cannot copy are said five a folder, then counted: a shard's folder of
    /// thousands of linked logs printed a warning each. (Before, every one was said.)
    #[test]
    fn logs_not_copied_are_said_five_a_folder_then_counted() {
        let mut logs = LogsNotCopied::default();
        let (a, b) = (Path::new("/shard-a"), Path::new("/shard-b"));
        let said: Vec<bool> = (0..7).map(|i| logs.say(a, Path::new(&format!("logs/{i}.log")), "a hard link")).collect();
        assert_eq!(said, [true, true, true, true, true, false, false]);
        assert!(logs.say(b, Path::new("logs/x.log"), "a link, not a file"), "each folder its own five");
        assert_eq!(logs.the_rest(), [(a, 2)]);
    }

    /// The record's cap, as the tests see it.
    const MAX_RECORD_TEST: u64 = 4 << 30;

    /// A merge into one of its folders replaces that folder's results files: the lines of them
    /// it does not take are kept in its `refused.jsonl` as they were written, once, not lost
    /// (here shard 2's line, which the league's folder named holds otherwise, played again,
    /// and a line that is no result, a hand edit); those it takes are not. The control:
    /// replacing the files without keeping them (the older merge), both lines are gone from the
    /// folder. (A shard 2's results file in the other folder, as it was here before, no longer
    /// holds the match as surely as OUT's own: OUT's line is taken over it.)
    #[test]
    fn a_merge_into_one_of_its_folders_keeps_the_lines_it_does_not_take() {
        let Forged { dir, one, two, forged, replay, honest, .. } = Forged::new();
        std::fs::write(one.join(&forged.replay), &replay).unwrap();
        let own = "results.shard-2-of-2.jsonl";
        results::rewrite(&one.join(RESULTS_FILE), std::slice::from_ref(&forged)).unwrap();
        let mut text = std::fs::read(two.join(own)).unwrap();
        let honest_raw = text
            .split(|&b| b == b'\n')
            .find(|l| serde_json::from_slice::<ResultLine>(l).is_ok_and(|l| l.key == honest.key))
            .unwrap()
            .to_vec();
        text.extend_from_slice(b"{\"key\": \"hand-edited\"\n");
        let lines_of = |file: &Path| -> Vec<Vec<u8>> {
            let bytes = std::fs::read(file).unwrap_or_default();
            bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
        };
        let everywhere = |out: &Path| -> Vec<Vec<u8>> {
            [results::files(out), vec![out.join(SET_ASIDE_FILE)]].concat().iter().flat_map(|f| lines_of(f)).collect()
        };
        let merge = |name: &str, keeps_unmerged: bool| {
            let out = dir.path().join(name);
            copy_tree(&two, &out);
            std::fs::write(out.join(own), &text).unwrap();
            let steps = Steps { keeps_unmerged, ..Steps::default() };
            let dirs = [one.clone(), out.clone()];
            (merge_in(&out, Some(&one), &dirs, &crate::games::registry(), &Quiet, &steps).unwrap(), out, dirs)
        };

        let (merged, out, dirs) = merge("kept", true);
        assert_eq!(merged.refused.len(), 1, "the match held differently: {:?}", merged.refused);
        assert_eq!(merged_line(&out, &honest.key).as_ref(), Some(&forged), "the league's result");
        assert_eq!(merged.set_aside, 2);
        let kept = lines_of(&out.join(SET_ASIDE_FILE));
        assert_eq!(kept, [honest_raw.clone(), b"{\"key\": \"hand-edited\"".to_vec()], "as written, and no other");
        assert_eq!(merged.set_aside_earlier, 0, "none before");
        let again = merge_in(&out, Some(&one), &dirs, &crate::games::registry(), &Quiet, &Steps::default()).unwrap();
        assert_eq!((again.set_aside, again.set_aside_earlier), (0, 2), "the two kept by the merge before");
        assert_eq!(lines_of(&out.join(SET_ASIDE_FILE)), kept, "each once");

        // The control: the folder's own result is lost.
        let (merged, out, _) = merge("lost", false);
        assert_eq!((merged.refused.len(), merged.set_aside), (1, 0));
        assert!(!everywhere(&out).contains(&honest_raw), "the control loses shard 2's honest line");
        assert!(everywhere(&dir.path().join("kept")).contains(&honest_raw));
    }

    /// A shard's folder recording its slice (as `--shard K/N --out DIR` makes it) gives the
    /// merge only that slice's results, whatever its files are named: another shard's match in
    /// its `results.jsonl` is refused, and so is another shard's results file there, whole. A
    /// file named like results that no run writes (`results.backup.jsonl`, a copy) is refused in
    /// any folder, naming it. The control: the same folder without its slice (an earlier
    /// arena's) takes the line of `results.jsonl` (a forged result of a match whose own shard's
    /// folder is not merged) and the other shard's file by their names; and the merged league's
    /// record is no shard's.
    #[test]
    fn a_shard_s_folder_gives_only_its_recorded_slice_whatever_the_names() {
        let Forged { dir, one, forged, replay, key, registry, .. } = Forged::new();
        std::fs::write(one.join(&forged.replay), &replay).unwrap();
        let dirs = [one.clone()];
        let merge =
            |name: &str| merge_with(&dir.path().join(name), &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        let record_slice = |slice: Option<Shard>| {
            let mut record = TournamentRecord::load(&one, &registry).unwrap();
            record.slice = slice;
            record.save(&one).unwrap();
        };
        let only = |file: &str| {
            for other in [RESULTS_FILE, "results.backup.jsonl", "results.shard-2-of-2.jsonl"] {
                let _ = std::fs::remove_file(one.join(other));
            }
            results::rewrite(&one.join(file), std::slice::from_ref(&forged)).unwrap();
        };
        // The controls: an earlier arena's shard folder, by the names.
        for file in [RESULTS_FILE, "results.shard-2-of-2.jsonl"] {
            only(file);
            let merged = merge(&format!("old-{file}"));
            assert!(merged.refused.is_empty(), "{file}: {:?}", merged.refused);
            assert_eq!(merged_line(&dir.path().join(format!("old-{file}")), &key).as_ref(), Some(&forged), "{file}");
        }
        record_slice(Some(Shard { index: 1, count: 2 }));
        only(RESULTS_FILE);
        let merged = merge("main");
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let expected =
            format!("{}: match {key}: it is shard 2/2's match, and the line is in results.jsonl", one.display());
        assert!(merged.refused[0].starts_with(&expected), "{:?}", merged.refused);
        assert_eq!(merged_line(&dir.path().join("main"), &key), None);
        let out_record = TournamentRecord::load(&dir.path().join("main"), &registry).unwrap();
        assert_eq!(out_record.slice, None, "the merged league is no shard's folder");
        only("results.shard-2-of-2.jsonl");
        let merged = merge("other-file");
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let expected = format!(
            "{}: results.shard-2-of-2.jsonl: another shard's results file, in the folder of shard 1/2",
            one.display()
        );
        assert!(merged.refused[0].starts_with(&expected), "{:?}", merged.refused);
        for slice in [None, Some(Shard { index: 1, count: 2 })] {
            record_slice(slice);
            only("results.backup.jsonl");
            let merged = merge(&format!("backup-{}", slice.is_some()));
            assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
            let expected = format!("{}: results.backup.jsonl: not a results file an arena run writes", one.display());
            assert!(merged.refused[0].starts_with(&expected), "{:?}", merged.refused);
        }
    }

    /// A merge reading a folder a shard still writes (holding its lock) fails, saying so, and
    /// writes no OUT. The control: without the folders' locks, it merged the folder as it was.
    #[test]
    fn a_merge_of_a_folder_a_shard_still_writes_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let dirs = [src.clone()];
        let shard = super::super::FolderLock::take(&src, Some(Shard { index: 1, count: 2 })).unwrap();
        let out = dir.path().join("out");
        let err = merge_with(&out, &dirs, &registry, &Quiet, &Steps::default()).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "{}: still being written by a shard (it holds the folder's lock): merge once the shards end",
                src.display()
            )
        );
        assert!(!out.exists(), "checked before OUT is made");
        assert!(!dir.path().join(".out.arena-merge.lock").exists(), "the merge's lock removed");
        // The control: the folders merged locked after OUT is made, a new OUT is left behind.
        let early = dir.path().join("early");
        let steps = Steps { inputs_first: false, ..Steps::default() };
        assert!(merge_with(&early, &dirs, &registry, &Quiet, &steps).is_err());
        assert!(early.is_dir(), "the control: OUT made before the league's lock was found held");
        // The control: not locked at all, the folder a shard still writes is read.
        let steps = Steps { lock_inputs: false, ..Steps::default() };
        assert!(merge_with(&out, &dirs, &registry, &Quiet, &steps).is_ok());
        drop(shard);
        // And once the shard ended, merged (its lock released, the folder given twice).
        let dirs = [src.clone(), src.clone()];
        assert!(merge_with(&dir.path().join("again"), &dirs, &registry, &Quiet, &Steps::default()).is_ok());
    }

    /// A line that names no versions, no players' last steps or no forfeits where its replay has
    /// some is refused, naming what. The controls: the lines as the arena wrote them merge, and so
    /// does a line of an arena before shards (no time, no versions, no last steps: all three
    /// missing), checked against its key and replay as before; and a line whose time (`at`, the
    /// clock of the node that played it) is years or a day off is kept, as no replay holds it.
    #[test]
    fn a_line_s_versions_last_steps_or_forfeits_edited_are_refused_its_time_kept() {
        let Forged { dir, .. } = Forged::new();
        let src = dir.path().join("course/league");
        let lines = results::read_all(&src).unwrap();
        let registry = crate::games::registry();
        let forfeited = lines.iter().position(|l| !l.forfeits.is_empty()).expect("ann's forfeit");
        let plain = (forfeited + 1) % lines.len();
        let merge = |name: &str, at: usize, edit: &dyn Fn(&mut ResultLine)| {
            let mut edited = lines.clone();
            edit(&mut edited[at]);
            results::rewrite(&src.join(RESULTS_FILE), &edited).unwrap();
            let dirs = [src.clone()];
            merge_with(&dir.path().join(name), &dirs, &registry, &Quiet, &Steps::default()).unwrap().refused
        };
        assert_eq!(merge("control", plain, &|_| ()), Vec::<String>::new(), "the control");
        let now = super::super::unix_secs();
        assert_eq!(merge("early", plain, &|l| l.at = 1_000_000_000), Vec::<String>::new(), "a clock years behind");
        assert_eq!(merge("late", plain, &|l| l.at = now + 86_400), Vec::<String>::new(), "a clock a day ahead");
        type Edit<'a> = &'a dyn Fn(&mut ResultLine);
        let cases: [(&str, usize, Edit, &str); 3] = [
            ("versions", plain, &|l| l.versions.clear(), "its bots' versions are [], the schedule's"),
            ("ends", plain, &|l| l.ended_at.clear(), "its replay ends the players' games at other steps"),
            ("forfeits", forfeited, &|l| l.forfeits.clear(), "its replay says otherwise of the forfeits"),
        ];
        for (name, at, edit, why) in cases {
            let refused = merge(name, at, edit);
            assert_eq!(refused.len(), 1, "{name}: {refused:?}");
            assert!(
                refused[0].contains(&format!("match {}: ", lines[at].key)) && refused[0].contains(why),
                "{name}: {refused:?}"
            );
        }
        // The control: a line of an arena before shards.
        let old = |l: &mut ResultLine| {
            l.at = 0;
            l.versions.clear();
            l.ended_at.clear();
            l.forfeits.clear();
        };
        assert_eq!(merge("before-shards", forfeited, &old), Vec::<String>::new());
    }

    /// Two lines of one result that differ only in when they ended and where its map was (a
    /// shard run again in another checkout) are the same result; another map or another result
    /// is not. The control: the old comparison (the whole line but its time) took them for two.
    #[test]
    fn the_same_result_with_its_map_elsewhere_is_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let line = results::read_all(&src).unwrap().remove(0);
        let map = Path::new("/other/checkout/maps").join(line.map.file_name().unwrap());
        let elsewhere = ResultLine { at: line.at + 5, map, ..line.clone() };
        assert!(same_result(&line, &elsewhere) && same_result(&elsewhere, &line));
        assert_ne!(ResultLine { at: elsewhere.at, ..line.clone() }, elsewhere, "the control: the old comparison");
        assert!(!same_result(&line, &ResultLine { map: line.map.with_file_name("other.txt"), ..line.clone() }));
        assert!(!same_result(&line, &ResultLine { steps: line.steps + 1, ..line.clone() }));
    }

    /// Results whose map moved since the build are merged (re-simulated), and the merge says
    /// how many of them had their setups left unchecked, on which map and why; the control: with
    /// the map in place, none.
    #[test]
    fn a_merge_counts_the_results_whose_setups_it_could_not_check() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let dirs = [src.clone()];
        let merged = merge_with(&dir.path().join("a"), &dirs, &crate::games::registry(), &Quiet, &Steps::default());
        assert!(merged.unwrap().unchecked.is_empty(), "the control");
        let map = dir.path().join("course/maps/tight.txt");
        std::fs::rename(&map, dir.path().join("tight.txt")).unwrap();
        let merged =
            merge_with(&dir.path().join("b"), &dirs, &crate::games::registry(), &Quiet, &Steps::default()).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged.unchecked.len(), 1, "{:?}", merged.unchecked);
        let (at, n, why) = &merged.unchecked[0];
        assert_eq!((at.file_name().unwrap().to_str().unwrap(), *n), ("tight.txt", 6));
        assert!(why.contains("cannot be read"), "{why}");
    }

    /// The merged league's record is its folder's, wherever it is given: a shard's folder given
    /// first, its copy of the record edited (a bot disqualified, a version relabelled), does not
    /// rewrite the standings. A shard's folder whose slice was removed as well (so it could be
    /// taken for the league's) and whose record differs from the league's is refused, naming
    /// the folders and the field. Honest shards' folders alone merge. The control: taking the
    /// first folder's record (the older merge), the edited one is the league's.
    #[test]
    fn the_league_s_record_is_its_folder_s_not_a_shard_s_given_first() {
        let Forged { dir, one, two, registry, .. } = Forged::new();
        let src = dir.path().join("course/league");
        for (k, shard) in [&one, &two].into_iter().enumerate() {
            let mut record = TournamentRecord::load(shard, &registry).unwrap();
            record.slice = Some(Shard { index: k + 1, count: 2 });
            record.save(shard).unwrap();
        }
        let edit = |slice: bool| {
            let mut record = TournamentRecord::load(&one, &registry).unwrap();
            record.failures.insert("ann".to_string(), "build failed: plagiarism detected, disqualified".to_string());
            if let Some(v) = record.history.get_mut("ben").and_then(|h| h.versions.first_mut()) {
                v.label = "v1 COPIED".to_string();
            }
            if !slice {
                record.slice = None;
            }
            record.save(&one).unwrap();
        };
        let merge = |name: &str, steps: &Steps, dirs: &[PathBuf]| {
            merge_with(&dir.path().join(name), dirs, &registry, &Quiet, steps)
        };
        // Honest shards alone.
        assert!(merge("honest", &Steps::default(), &[one.clone(), two.clone()]).is_ok());
        edit(true);
        let dirs = [one.clone(), two.clone(), src.clone()];
        merge("league", &Steps::default(), &dirs).unwrap();
        let merged = TournamentRecord::load(&dir.path().join("league"), &registry).unwrap();
        assert!(!merged.failures.contains_key("ann"), "{:?}", merged.failures);
        assert!(merged.history["ben"].versions.iter().all(|v| v.label != "v1 COPIED"));
        // The control.
        let steps = Steps { league_record: false, ..Steps::default() };
        merge("first", &steps, &dirs).unwrap();
        let first = TournamentRecord::load(&dir.path().join("first"), &registry).unwrap();
        assert!(first.failures["ann"].contains("disqualified"), "the control takes the shard's edited record");
        // Its slice removed too: which is the league's cannot be told, so refused.
        edit(false);
        let err = merge("sliceless", &Steps::default(), &dirs).unwrap_err().to_string();
        let expected = format!("{}: its record differs from {}'s in `failures.ann`: ", src.display(), one.display());
        assert!(err.starts_with(&expected), "{err}");
        assert!(!dir.path().join("sliceless").join(super::super::TOURNAMENT_FILE).exists());
    }

    /// A merge takes from a folder only files of its own: a match's log that is a link (to the
    /// league's record, with its secret), a FIFO (which hung the merge) or a folder (which
    /// aborted it), a replay that is a link, and in `builds/` anything the league's record does
    /// not name, are not copied (the replay's result refused, naming it), and the merge ends.
    /// The controls: read as the older merge read them (`std::fs::read`), the link gives the
    /// secret and the FIFO is one; the honest files are copied.
    #[test]
    fn a_merge_copies_no_link_fifo_or_folder_from_a_folder() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let lines = results::read_all(&src).unwrap();
        let log = |i: usize| src.join("logs").join(format!("{}.log", lines[i].key));
        let secret = src.join(super::super::TOURNAMENT_FILE);
        for i in 0..5 {
            let _ = std::fs::remove_file(log(i));
        }
        std::fs::write(log(4), "an honest log").unwrap();
        std::os::unix::fs::symlink(&secret, log(0)).unwrap();
        crate::files::tests::make_fifo(&log(1), 0o600);
        std::fs::create_dir(log(2)).unwrap();
        let replay = src.join(&lines[3].replay);
        let moved = dir.path().join("elsewhere.json.gz");
        std::fs::rename(&replay, &moved).unwrap();
        std::os::unix::fs::symlink(&moved, &replay).unwrap();
        std::fs::create_dir_all(src.join("builds/dir.log")).unwrap();
        std::os::unix::fs::symlink(&secret, src.join("builds/x.log")).unwrap();
        std::fs::write(src.join("builds/unnamed.log"), "not the league's").unwrap();

        let out = dir.path().join("out");
        let (sent, got) = std::sync::mpsc::channel();
        let (to, dirs) = (out.clone(), [src.clone()]);
        std::thread::spawn(move || {
            let merged = merge_with(&to, &dirs, &crate::games::registry(), &Quiet, &Steps::default());
            let _ = sent.send(merged.map(|m| (m.refused, m.missing)).map_err(|e| e.to_string()));
        });
        let (refused, missing) = got.recv_timeout(std::time::Duration::from_secs(120)).expect("no hang").unwrap();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].contains(&format!("match {}: its replay ", lines[3].key)), "{refused:?}");
        assert!(refused[0].contains("a link, not a file"), "{refused:?}");
        assert_eq!(missing, [lines[3].key.clone()]);
        for line in &lines[..3] {
            let copied = out.join("logs").join(format!("{}.log", line.key));
            assert!(copied.symlink_metadata().is_err(), "{}", copied.display());
        }
        assert!(out.join("logs").join(format!("{}.log", lines[4].key)).is_file(), "the control: an honest log");
        assert!(out.join(&lines[4].replay).is_file(), "the control: an honest replay");
        assert!(!out.join(&lines[3].replay).exists());
        let builds: Vec<_> = std::fs::read_dir(out.join("builds")).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(builds.is_empty(), "{builds:?}");
        // The controls: the attack's files are live.
        let read = std::fs::read(log(0)).unwrap();
        assert!(String::from_utf8_lossy(&read).contains("\"secret\""), "the old read gives the record");
        assert!(std::fs::symlink_metadata(log(1)).unwrap().file_type().is_fifo());
    }

    /// A folder's line naming another file than its match's replay (`replays/<key>.json.gz`) is
    /// refused, naming the file, and nothing is written there: a page `replays/evil.html` (plain
    /// JSON of the match's replay with a script in a field the replay does not know, which the
    /// merge copied byte for byte and `arena publish` published), and another match's replay,
    /// which the league holds (replaced by this match's). A replay merged is written anew from
    /// the replay checked: a field it does not know is not in OUT. The controls: merged as the
    /// older merge did (the folder's bytes where the line says), the page holds the script, the
    /// other match's replay is replaced, and the unknown field is copied.
    #[test]
    fn a_line_naming_another_file_than_its_match_s_replay_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let (a, b, c) = (lines[0].clone(), lines[1].clone(), lines[2].clone());
        // The league's folder lacks a and c; a shard's folder (its copy) holds them, forged.
        let league = dir.path().join("league");
        copy_tree(&src, &league);
        let kept: Vec<ResultLine> = lines.iter().filter(|l| l.key != a.key && l.key != c.key).cloned().collect();
        results::rewrite(&league.join(RESULTS_FILE), &kept).unwrap();
        let shard = dir.path().join("shard");
        copy_tree(&src, &shard);
        // (A shard's folder of a split of one, as its record says.)
        std::fs::remove_file(shard.join(RESULTS_FILE)).unwrap();
        let mut record = TournamentRecord::load(&shard, &registry).unwrap();
        record.slice = Some(Shard { index: 1, count: 1 });
        record.save(&shard).unwrap();
        let script = "<script>alert(1)</script>";
        let mut json: serde_json::Value =
            serde_json::from_slice(&crate::replay::read_json(&src.join(&a.replay)).unwrap()).unwrap();
        json["note"] = serde_json::Value::String(script.to_string());
        std::fs::write(shard.join("replays/evil.html"), serde_json::to_vec(&json).unwrap()).unwrap();
        // (a's replay, as b's, and c's own replay with the unknown field.)
        std::fs::copy(src.join(&a.replay), shard.join(&b.replay)).unwrap();
        let mut json_c: serde_json::Value =
            serde_json::from_slice(&crate::replay::read_json(&src.join(&c.replay)).unwrap()).unwrap();
        json_c["note"] = serde_json::Value::String(script.to_string());
        std::fs::write(shard.join(&c.replay), crate::replay::gzip(&serde_json::to_vec(&json_c).unwrap()).unwrap())
            .unwrap();
        let evil = |line: &ResultLine, replay: &str| ResultLine { replay: replay.to_string(), ..line.clone() };
        let merge = |name: &str, replay: &str, named_replays: bool| {
            let out = dir.path().join(name);
            results::rewrite(&shard.join("results.shard-1-of-1.jsonl"), &[evil(&a, replay), c.clone()]).unwrap();
            let steps = Steps { named_replays, ..Steps::default() };
            let merged =
                merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap();
            (merged, out)
        };
        let unknown = |out: &Path| String::from_utf8(crate::replay::read_json(&out.join(&c.replay)).unwrap()).unwrap();
        let (merged, out) = merge("page", "replays/evil.html", true);
        let why = format!(
            "{}: match {}: its replay is named `replays/evil.html`, not replays/{}.json.gz",
            shard.display(),
            a.key,
            a.key
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        assert!(!out.join("replays/evil.html").exists());
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        assert_eq!(merged_line(&out, &c.key).as_ref(), Some(&c), "c's line is merged");
        assert!(!unknown(&out).contains(script), "c's replay written anew, without the unknown field");
        crate::replay::Replay::load(&out.join(&c.replay)).unwrap();
        let (merged, out) = merge("other", &b.replay, true);
        assert!(merged.refused.iter().any(|r| r.contains(&format!("its replay is named `{}`", b.replay))));
        let seed = |out: &Path| crate::replay::Replay::load(&out.join(&b.replay)).unwrap().seed;
        assert_eq!(seed(&out), b.seed, "b's replay is b's");
        // The controls.
        let (_, out) = merge("page-old", "replays/evil.html", false);
        let page = std::fs::read_to_string(out.join("replays/evil.html")).unwrap();
        assert!(page.contains(script), "the control: the shard's bytes are written as a page");
        assert!(unknown(&out).contains(script), "the control: the shard's bytes are copied");
        let (_, out) = merge("other-old", &b.replay, false);
        assert_eq!(seed(&out), a.seed, "the control: b's replay is replaced by a's");
    }

    /// A league made by an older arena names its replays `replays/<key>.json` (plain JSON):
    /// its lines are merged, their replays read the same way and written as `<key>.json.gz`,
    /// the merged lines naming the file written. The control: holding lines to the `.json.gz`
    /// name alone, every old line is refused and its match missing.
    #[test]
    fn a_league_of_an_older_arena_naming_plain_replays_is_merged() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let league = dir.path().join("league");
        copy_tree(&src, &league);
        let old: Vec<ResultLine> = lines
            .iter()
            .map(|l| {
                let json = crate::replay::read_json(&src.join(&l.replay)).unwrap();
                std::fs::remove_file(league.join(&l.replay)).unwrap();
                let plain = plain_replay_of(&l.key);
                std::fs::write(league.join(&plain), json).unwrap();
                ResultLine { replay: plain, ..l.clone() }
            })
            .collect();
        results::rewrite(&league.join(RESULTS_FILE), &old).unwrap();
        let merge = |name: &str, plain_replays: bool| {
            let out = dir.path().join(name);
            let steps = Steps { plain_replays, ..Steps::default() };
            (merge_in(&out, Some(&league), &[], &registry, &Quiet, &steps).unwrap(), out)
        };
        let (merged, out) = merge("out", true);
        assert!(merged.refused.is_empty(), "{:?}", merged.refused);
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
        for line in &lines {
            let got = merged_line(&out, &line.key).unwrap();
            assert_eq!(got.replay, replay_of(&line.key), "the line names the file written");
            let replay = crate::replay::Replay::load(&out.join(&got.replay)).unwrap();
            assert_eq!(replay.seed, line.seed);
            assert!(std::fs::read(out.join(&got.replay)).unwrap().starts_with(&[0x1f, 0x8b]), "compressed");
        }
        // The control.
        let (merged, _) = merge("control", false);
        assert_eq!(merged.refused.len(), 1, "the control: every old line refused, in one: {:?}", merged.refused);
        let every = format!("{} lines name another file than their match's replay", lines.len());
        assert!(merged.refused[0].contains(&every), "{:?}", merged.refused);
        assert!(merged.refused[0].contains("its replay is named `replays/"), "{:?}", merged.refused);
        assert_eq!(merged.missing.len(), lines.len(), "the control: every match missing");
        // Merged into the league's folder itself: its lines then name the `.json.gz` written,
        // and the old `.json` beside it, which no line names any more, is gone; no line is set
        // aside (each is the result merged, under its replay's other name). The control: a
        // copy of the league merged without the old files removed keeps every `.json`.
        let control = dir.path().join("league-kept");
        copy_tree(&league, &control);
        let steps = Steps::default();
        let merged = merge_in(&league, Some(&league), &[], &registry, &Quiet, &steps).unwrap();
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged.set_aside, 0, "no line set aside for its replay's name");
        for line in &lines {
            let got = merged_line(&league, &line.key).unwrap();
            assert_eq!(got.replay, replay_of(&line.key));
            crate::replay::Replay::load(&league.join(&got.replay)).unwrap();
            assert!(!league.join(plain_replay_of(&line.key)).exists(), "{}: the old replay left", line.key);
        }
        let steps = Steps { plain_removed: false, ..Steps::default() };
        merge_in(&control, Some(&control), &[], &registry, &Quiet, &steps).unwrap();
        assert!(lines.iter().all(|l| control.join(plain_replay_of(&l.key)).exists()), "the control: kept");
    }

    /// A shard's folder of a split of one (as its record says) made from the league's folder
    /// `src`, its results file holding `lines`; and the league's folder, lacking `lacking`.
    fn shard_and_league(dir: &Path, src: &Path, lacking: &[&str], lines: &[ResultLine]) -> (PathBuf, PathBuf) {
        let registry = crate::games::registry();
        let league = dir.join("league");
        copy_tree(src, &league);
        let kept: Vec<ResultLine> =
            results::read_all(src).unwrap().into_iter().filter(|l| !lacking.contains(&l.key.as_str())).collect();
        results::rewrite(&league.join(RESULTS_FILE), &kept).unwrap();
        let shard = dir.join("shard");
        copy_tree(src, &shard);
        std::fs::remove_file(shard.join(RESULTS_FILE)).unwrap();
        let mut record = TournamentRecord::load(&shard, &registry).unwrap();
        record.slice = Some(Shard { index: 1, count: 1 });
        record.save(&shard).unwrap();
        results::rewrite(&shard.join("results.shard-1-of-1.jsonl"), lines).unwrap();
        (league, shard)
    }

    /// A shard's folder holding one match more than once with different results is refused for
    /// it, naming it, before any replay is read (its replay gone, no line says it cannot be
    /// read); the same line twice is one. The control: checked line by line (the order that read
    /// a replay per line, each a gzip bomb), each line's replay is read.
    #[test]
    fn a_shard_s_folder_holding_a_match_twice_differently_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let (a, b) = (lines[0].clone(), lines[1].clone());
        let other = ResultLine { steps: a.steps + 1, ..a.clone() };
        let (league, shard) =
            shard_and_league(dir.path(), &src, &[&a.key, &b.key], &[a.clone(), other, b.clone(), b.clone()]);
        std::fs::remove_file(shard.join(&a.replay)).unwrap();
        let merge = |name: &str, one_result_each: bool| {
            let out = dir.path().join(name);
            let steps = Steps { one_result_each, ..Steps::default() };
            let merged =
                merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap();
            (merged, out)
        };
        let (merged, out) = merge("out", true);
        let why =
            format!("{}: match {}: the folder holds 2 lines of it with different results", shard.display(), a.key);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        assert!(merged.refused[0].starts_with(&why), "{:?}", merged.refused);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        assert_eq!(merged_line(&out, &b.key).as_ref(), Some(&b), "the same line twice is one");
        let (merged, _) = merge("old", false);
        let unread = merged.refused.iter().filter(|r| r.contains("its replay cannot be read")).count();
        assert_eq!(unread, 2, "the control: each line's replay is read: {:?}", merged.refused);
    }

    /// A shard's folder's line of a match not scheduled is merged only where an earlier schedule
    /// of the league holds it (its bots on versions the league's history records), as it says:
    /// one of a made-up key, or of a version the history does not record, is refused, naming it.
    /// The controls: a result of an earlier version of a bot is merged; taking any such line
    /// checked against its replay alone (the older merge), the made-up one is merged.
    #[test]
    fn a_shard_s_line_of_no_schedule_of_the_league_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let a = lines[0].clone();
        // An earlier version of a's first bot, recorded in the league's history.
        let mut record = TournamentRecord::load(&src, &registry).unwrap();
        let history = record.history.get_mut(&a.seats[0]).unwrap();
        let old = super::super::versions::Version {
            fingerprint: "0ld0ld0ld0ld0ld0".to_string(),
            ..history.versions[0].clone()
        };
        history.versions.insert(0, old);
        record.save(&src).unwrap();
        let mut bots: Vec<super::super::schedule::BotVersion> = Vec::new();
        for (name, fingerprint) in a.seats.iter().zip(&a.versions) {
            let mut bot = record.bots.iter().find(|b| &b.entry.name == name).unwrap().clone();
            bot.fingerprint = if bots.is_empty() { "0ld0ld0ld0ld0ld0".to_string() } else { fingerprint.clone() };
            bots.push(bot);
        }
        let digests: Vec<String> = record.boards.iter().map(|b| b.digest.clone()).collect();
        let earlier = super::super::schedule::round_robin(&record.config, &bots, &digests, &[])
            .into_iter()
            .find(|m| m.seats == a.seats && super::super::vouch::same_map(&m.map, &a.map) && m.game == a.game)
            .unwrap();
        assert!(record.schedule.iter().all(|m| m.key != earlier.key));
        let moved = |key: &str, first: &str| ResultLine {
            key: key.to_string(),
            replay: replay_of(key),
            versions: [vec![first.to_string()], a.versions[1..].to_vec()].concat(),
            ..a.clone()
        };
        let of_earlier = moved(&earlier.key, "0ld0ld0ld0ld0ld0");
        let made_up = moved("tight-g1-made-up", "0ld0ld0ld0ld0ld0");
        let unrecorded = moved(&earlier.key, "5ec0ndf0rgedf1ng");
        let (league, shard) = shard_and_league(dir.path(), &src, &[], &[of_earlier.clone(), made_up.clone()]);
        for line in [&of_earlier, &made_up] {
            std::fs::copy(src.join(&a.replay), shard.join(&line.replay)).unwrap();
        }
        // (Checked as a folder recording no slice's: one with a slice takes it only where the
        // league's folder holds it, below.)
        let merge_as = |name: &str, earlier_only: bool, earlier_from_teachers: bool| {
            let out = dir.path().join(name);
            let steps = Steps { earlier_only, earlier_from_teachers, ..Steps::default() };
            let merged =
                merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap();
            (merged, out)
        };
        let merge = |name: &str, earlier_only: bool| merge_as(name, earlier_only, false);
        let (merged, out) = merge("out", true);
        assert_eq!(merged_line(&out, &of_earlier.key).as_ref(), Some(&of_earlier), "{:?}", merged.refused);
        assert_eq!(merged_line(&out, &made_up.key), None);
        let why = format!(
            "{}: match tight-g1-made-up: not a match of the league's schedule, nor of an earlier one",
            shard.display()
        );
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        assert!(merged.refused[0].starts_with(&why), "{:?}", merged.refused);
        results::rewrite(&shard.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&unrecorded)).unwrap();
        let (merged, out) = merge("unrecorded", true);
        assert_eq!(merged_line(&out, &unrecorded.key), None, "{:?}", merged.refused);
        results::rewrite(&shard.join("results.shard-1-of-1.jsonl"), &[of_earlier.clone(), made_up.clone()]).unwrap();
        let (_, out) = merge("old", false);
        assert_eq!(merged_line(&out, &made_up.key).as_ref(), Some(&made_up), "the control: the made-up match lands");

        // The shard's folder has a slice (1/1): its line of an earlier schedule is taken only
        // where the league's folder holds the same result (a folder bound to 2/3 gave a forged
        // result of a match that was week 1's slice 3, never merged).
        let (merged, out) = merge_as("teachers", true, true);
        assert_eq!(merged_line(&out, &of_earlier.key), None, "{:?}", merged.refused);
        let why = format!(
            "{}: match {}: a match of no slice of the league's schedule (of an earlier one), in the folder of shard 1/1",
            shard.display(),
            of_earlier.key
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        // The control: taken wherever an earlier schedule holds it, it lands.
        let (_, out) = merge_as("teachers-old", true, false);
        assert_eq!(merged_line(&out, &of_earlier.key).as_ref(), Some(&of_earlier), "the control: it lands");
        // The league's folder holding the same result: taken.
        let held = [results::read_all(&league).unwrap(), vec![of_earlier.clone()]].concat();
        results::rewrite(&league.join(RESULTS_FILE), &held).unwrap();
        std::fs::copy(src.join(&a.replay), league.join(&of_earlier.replay)).unwrap();
        let (merged, out) = merge_as("held", true, true);
        assert_eq!(merged_line(&out, &of_earlier.key).as_ref(), Some(&of_earlier), "{:?}", merged.refused);
        assert!(!merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
    }

    /// A shard's replay that is a link (to a teacher's file) is not read by the check: its line
    /// is refused, naming the link, and nothing of the file it points to is said. The control:
    /// links followed (the older check), the file is read and part of it said in the refusal.
    #[test]
    fn a_shard_s_replay_linked_elsewhere_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let secret = dir.path().join("secret.json");
        std::fs::write(&secret, r#"{"format": "the-teachers-secret-token", "version": 1}"#).unwrap();
        std::fs::remove_file(shard.join(&a.replay)).unwrap();
        std::os::unix::fs::symlink(&secret, shard.join(&a.replay)).unwrap();
        let merge = |name: &str, own_replays: bool| {
            let out = dir.path().join(name);
            let steps = Steps { own_replays, ..Steps::default() };
            merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap()
        };
        let merged = merge("own", true);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: match {}: its replay cannot be read: ", shard.display(), a.key);
        assert!(merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("a link")), "{:?}", merged.refused);
        assert!(!merged.refused.iter().any(|r| r.contains("secret")), "{:?}", merged.refused);
        let merged = merge("followed", false);
        assert!(
            merged.refused.iter().any(|r| r.contains("the-teachers-secret-token")),
            "the control: {:?}",
            merged.refused
        );
    }

    /// A shard job's `results.shard-K-of-N.jsonl` in the league's folder named (the folder the
    /// shards shared) is a shard's file: a line of no schedule in it is refused, a line dated
    /// after the merge is taken as ended now, and a match held twice differently is refused.
    /// The controls: exempting every file of the league's folder (the older merge), the made-up
    /// match lands and the league is dated 2100.
    #[test]
    fn a_shard_file_in_the_league_s_folder_is_held_as_a_shard_s() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let (a, b, c) = (lines[0].clone(), lines[1].clone(), lines[2].clone());
        let league = dir.path().join("league");
        copy_tree(&src, &league);
        let kept: Vec<ResultLine> =
            lines.iter().filter(|l| ![&a.key, &b.key, &c.key].contains(&&l.key)).cloned().collect();
        results::rewrite(&league.join(RESULTS_FILE), &kept).unwrap();
        let made_up =
            ResultLine { key: "tight-g1-made-up".to_string(), replay: replay_of("tight-g1-made-up"), ..b.clone() };
        std::fs::copy(src.join(&b.replay), league.join(&made_up.replay)).unwrap();
        let future = ResultLine { at: 4_102_444_800, ..a.clone() };
        let twice = ResultLine { steps: c.steps + 1, ..c.clone() };
        let shard_lines = [future, made_up.clone(), c.clone(), twice];
        results::rewrite(&league.join("results.shard-1-of-1.jsonl"), &shard_lines).unwrap();
        let merge = |name: &str, shard_files_held: bool| {
            let out = dir.path().join(name);
            let steps = Steps { shard_files_held, ..Steps::default() };
            (merge_in(&out, Some(&league), &[], &registry, &Quiet, &steps).unwrap(), out)
        };
        let (merged, out) = merge("out", true);
        assert_eq!(merged_line(&out, &made_up.key), None, "{:?}", merged.refused);
        let why = format!("{}: match tight-g1-made-up: not a match of the league's schedule", league.display());
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        let twice = format!("{}: match {}: the folder holds 2 lines of it", league.display(), c.key);
        assert!(merged.refused.iter().any(|r| r.starts_with(&twice)), "{:?}", merged.refused);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        let at = merged_line(&out, &a.key).unwrap().at;
        assert!(at <= now + AT_MARGIN, "a's line is taken as ended now: {at}");
        assert_eq!(merged_line(&out, &b.key), None, "b is in no file merged");
        // The teacher's own main results file stays exempt: its lines are merged as they are.
        assert_eq!(merged_line(&out, &lines[3].key).as_ref(), Some(&lines[3]));
        // The controls.
        let (_, out) = merge("old", false);
        assert_eq!(merged_line(&out, &made_up.key).as_ref(), Some(&made_up), "the control: the made-up match lands");
        assert_eq!(merged_line(&out, &a.key).unwrap().at, 4_102_444_800, "the control: dated 2100");
    }

    /// A shard's line naming no `at`, `ended_at` nor `versions` (as only an arena before shards
    /// wrote one) is refused, naming it: it skipped the versions and ended-at checks. The same
    /// line in the league's own `results.jsonl` is merged. The control: taken from any file (the
    /// older merge), the shard's line is merged.
    #[test]
    fn a_shard_s_line_as_an_arena_before_shards_wrote_it_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let strip = |l: &ResultLine| ResultLine { at: 0, ended_at: Vec::new(), versions: Vec::new(), ..l.clone() };
        let (a, b) = (strip(&lines[0]), strip(&lines[1]));
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key, &b.key], std::slice::from_ref(&a));
        let mut kept = results::read_all(&league).unwrap();
        kept.push(b.clone());
        results::rewrite(&league.join(RESULTS_FILE), &kept).unwrap();
        let merge = |name: &str, old_lines_teachers_only: bool| {
            let out = dir.path().join(name);
            let steps = Steps { old_lines_teachers_only, ..Steps::default() };
            let merged =
                merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap();
            (merged, out)
        };
        let (merged, out) = merge("out", true);
        assert_eq!(merged_line(&out, &a.key), None, "{:?}", merged.refused);
        let why = format!("{}: match {}: its line names no `at`, `ended_at` nor `versions`", shard.display(), a.key);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        assert!(merged.refused[0].starts_with(&why), "{:?}", merged.refused);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        assert_eq!(merged_line(&out, &b.key).as_ref(), Some(&b), "the league's own old line is merged");
        let (merged, out) = merge("old", false);
        assert_eq!(merged_line(&out, &a.key).as_ref(), Some(&a), "the control: {:?}", merged.refused);
    }

    /// With `--league`, a shard's folder whose record cannot be read (`{}`, none, a FIFO, a
    /// link to `/dev/zero`, a folder, corrupt) or is another build's (its secret differs) is left out, named,
    /// and the other shards are merged. The control: the older merge refuses the whole merge.
    #[test]
    fn a_shard_s_folder_with_a_bad_record_is_left_out() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let (a, b) = (lines[0].clone(), lines[1].clone());
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key, &b.key], std::slice::from_ref(&a));
        let bad = dir.path().join("bad");
        let record = bad.join(super::super::TOURNAMENT_FILE);
        type Break<'a> = (&'a str, Box<dyn Fn() + 'a>);
        let breaks: Vec<Break> = vec![
            ("{}", Box::new(|| std::fs::write(&record, "{}").unwrap())),
            ("corrupt", Box::new(|| std::fs::write(&record, "{\"config\":").unwrap())),
            ("none", Box::new(|| std::fs::remove_file(&record).unwrap())),
            (
                "a folder",
                Box::new(|| {
                    std::fs::remove_file(&record).unwrap();
                    std::fs::create_dir(&record).unwrap();
                }),
            ),
            (
                "a FIFO",
                Box::new(|| {
                    std::fs::remove_file(&record).unwrap();
                    crate::files::tests::make_fifo(&record, 0o600);
                }),
            ),
            (
                "a link",
                Box::new(|| {
                    std::fs::remove_file(&record).unwrap();
                    symlink("/dev/zero", &record).unwrap();
                }),
            ),
            (
                "another build",
                Box::new(|| {
                    let mut theirs = TournamentRecord::load(&bad, &registry).unwrap();
                    theirs.config.secret = Some("another build's secret".to_string());
                    theirs.save(&bad).unwrap();
                }),
            ),
        ];
        for (what, make) in &breaks {
            let _ = std::fs::remove_dir_all(&bad);
            copy_tree(&shard, &bad);
            results::rewrite(&bad.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&b)).unwrap();
            make();
            let merge = |name: &str, bad_records_left_out: bool| {
                let out = dir.path().join(name);
                let _ = std::fs::remove_dir_all(&out);
                let steps = Steps { bad_records_left_out, ..Steps::default() };
                let dirs = [shard.clone(), bad.clone()];
                (merge_in(&out, Some(&league), &dirs, &registry, &Quiet, &steps), out)
            };
            let (merged, out) = merge("out", true);
            let merged = merged.unwrap_or_else(|e| panic!("{what}: {e}"));
            let why = format!("{}: ", bad.display());
            assert!(
                merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("the folder is left out of the merge")),
                "{what}: {:?}",
                merged.refused
            );
            assert_eq!(merged.missing, std::slice::from_ref(&b.key), "{what}");
            assert_eq!(merged_line(&out, &a.key).as_ref(), Some(&a), "{what}: the other shard is merged");
            let (merged, _) = merge("old", false);
            assert!(merged.is_err(), "the control: {what}: the whole merge is refused");
        }
        // A folder that is not there at all (a typo) still stops the merge.
        let dirs = [shard.clone(), dir.path().join("no-such-shard")];
        let out = dir.path().join("typo");
        assert!(merge_in(&out, Some(&league), &dirs, &registry, &Quiet, &Steps::default()).is_err());
    }

    /// A shard's folder whose `replays/` is a link (to another folder's replays) gives no replay:
    /// its results are refused, naming it. The control: the same replays in a folder of its own
    /// are merged.
    #[test]
    fn a_linked_replays_folder_gives_no_replay() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let a = lines[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let merge = |name: &str| {
            let out = dir.path().join(name);
            merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &Steps::default()).unwrap()
        };
        let merged = merge("own");
        assert!(merged.refused.is_empty(), "the control: {:?}", merged.refused);
        let elsewhere = dir.path().join("elsewhere");
        std::fs::rename(shard.join("replays"), &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, shard.join("replays")).unwrap();
        let merged = merge("linked");
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        assert!(merged.refused.iter().any(|r| r.contains("its folder is a link")), "{:?}", merged.refused);
    }

    /// A shard's line saying it ended after the merge (a node's clock, or an edit: 2099) is taken
    /// as ended at the merge's time, so it does not date the league. The control: taken as it
    /// says (the older merge), the league's merged line says 2099.
    #[test]
    fn a_shard_s_line_ended_in_the_future_is_taken_as_ended_now() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let a = results::read_all(&src).unwrap()[0].clone();
        let future = ResultLine { at: 4_070_908_800, ..a.clone() };
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&future));
        let merge = |name: &str, at_capped: bool| {
            let out = dir.path().join(name);
            let steps = Steps { at_capped, ..Steps::default() };
            merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap();
            merged_line(&out, &a.key).unwrap().at
        };
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        assert!(merge("out", true) <= now + AT_MARGIN);
        assert_eq!(merge("old", false), future.at, "the control: the line dates the league");
    }

    /// A shard's folder whose lock cannot be taken (a shard holds it, or `.lock` is a folder) is
    /// left out of the merge, named, and the rest merged (partial), where it stopped the whole
    /// merge. The control: its lock released and the folder whole, it is merged.
    #[test]
    fn a_shard_s_folder_whose_lock_cannot_be_taken_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let merge = |name: &str| {
            let out = dir.path().join(name);
            merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &Steps::default()).unwrap()
        };
        let held = super::super::FolderLock::take(&shard, Some(Shard { index: 1, count: 1 })).unwrap();
        let merged = merge("held");
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: still being written by a shard", shard.display());
        assert!(merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("left out")), "{:?}", merged.refused);
        drop(held);
        let lock = shard.join(".lock");
        let _ = std::fs::remove_file(&lock);
        std::fs::create_dir(&lock).unwrap();
        let merged = merge("folder");
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        assert!(merged.refused.iter().any(|r| r.contains("left out of the merge")), "{:?}", merged.refused);
        std::fs::remove_dir(&lock).unwrap();
        let merged = merge("whole");
        assert!(merged.missing.is_empty() && merged.refused.is_empty(), "the control: {:?}", merged.refused);
    }

    /// The build logs a merge takes are those the league's record names (a version's, or a
    /// failure's text), each a plain name in `builds/`; a name leading elsewhere is none.
    #[test]
    fn a_merge_takes_the_build_logs_the_record_names() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let mut record = TournamentRecord::load(&src, &crate::games::registry()).unwrap();
        let version = record.history.values_mut().next().unwrap().versions.first_mut().unwrap();
        version.build_log = Some("builds/ann-1.log".to_string());
        record.failures.insert("dan".to_string(), "build failed (full log: builds/dan-2.log)".to_string());
        record.failures.insert("eve".to_string(), "see builds/../tournament.json and builds/.x.log".to_string());
        let logs: Vec<PathBuf> = build_logs(&record).into_iter().collect();
        assert_eq!(logs, [PathBuf::from("builds/ann-1.log"), PathBuf::from("builds/dan-2.log")]);
    }

    /// A shard's folder bound to its slice on the command line (`K/N=DIR`) gives only that
    /// slice's results. Shard 1's folder, written by a student, claiming slice 2/2 in its record
    /// and holding a forged result of a match of shard 2: bound `1/2=`, it is left out, named,
    /// and shard 2's honest result merged. The same folder with its slice removed and a
    /// `results.shard-2-of-2.jsonl` of the forged line, shard 2's folder missing: bound, that
    /// file is refused whole and the match stays missing. The controls: the same folders given
    /// alone (the older command line, taken at their records' word), the honest result is
    /// dropped as held differently by two folders of slice 2/2, and the forged line fills the
    /// missing shard's match.
    #[test]
    fn a_shard_s_folder_bound_to_its_slice_gives_only_that_slice() {
        let Forged { dir, one, two, forged, replay, honest, key, registry } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let (first, second) = (Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 });
        let set_slice = |slice: Option<Shard>| {
            let mut record = TournamentRecord::load(&one, &registry).unwrap();
            record.slice = slice;
            record.save(&one).unwrap();
        };
        std::fs::write(one.join(&forged.replay), &replay).unwrap();
        results::rewrite(&one.join(second.results_file()), std::slice::from_ref(&forged)).unwrap();
        let merge = |name: &str, dirs: &[PathBuf], bound: &[(PathBuf, Shard)]| {
            let out = dir.path().join(name);
            let steps = Steps { bound, ..Steps::default() };
            (merge_in(&out, Some(&league), dirs, &registry, &Quiet, &steps).unwrap(), out)
        };
        let both = [one.clone(), two.clone()];

        // Shard 1's folder claiming slice 2/2.
        set_slice(Some(second));
        let (merged, out) = merge("claimed", &both, &[(one.clone(), first), (two.clone(), second)]);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "{:?}", merged.refused);
        let why = format!(
            "{}: bound to shard 1/2 on the command line (1/2=DIR), but its tournament.json names the slice of shard \
             2/2",
            one.display()
        );
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        assert!(merged.refused[0].starts_with(&why) && merged.refused[0].contains("left out"), "{:?}", merged.refused);
        // The control: given alone, both folders say 2/2, and the honest result is dropped.
        let (merged, out) = merge("claimed-unbound", &both, &[]);
        assert_eq!(merged_line(&out, &key), None, "the control: the honest result dropped");
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        assert!(merged.refused.iter().any(|r| r.contains("folders hold different results")), "{:?}", merged.refused);

        // Its slice removed, shard 2's folder missing.
        set_slice(None);
        let alone = std::slice::from_ref(&one);
        let (merged, out) = merge("filled", alone, &[(one.clone(), first)]);
        assert_eq!(merged_line(&out, &key), None, "{:?}", merged.refused);
        assert_eq!(merged.missing, std::slice::from_ref(&key));
        let why = format!(
            "{}: results.shard-2-of-2.jsonl: another shard's results file, in the folder of shard 1/2 (as the \
             command line binds it)",
            one.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        // The control: given alone, the forged line fills the missing shard's match.
        let (merged, out) = merge("filled-unbound", alone, &[]);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&forged), "the control: the forged line lands");
        assert!(merged.missing.is_empty(), "{:?}", merged.missing);
    }

    /// A binding the merge cannot honour is refused before anything is written: without the
    /// league's folder named, one path bound to two slices, a folder bound that is not there
    /// (named with its argument); and `K/N=DIR` is read as a binding only where K/N is one, an
    /// argument that is none said as the terminal shows it.
    #[test]
    fn a_binding_the_merge_cannot_honour_is_refused() {
        let Forged { dir, one, two, honest, registry, .. } = Forged::new();
        let league = league_lacking(dir.path(), &two, &honest.key);
        let first = Shard { index: 1, count: 2 };
        let out = dir.path().join("out");
        let refused = |league: Option<&Path>, bound: &[(PathBuf, Shard)]| {
            let steps = Steps { bound, ..Steps::default() };
            let dirs: Vec<PathBuf> = bound.iter().map(|(d, _)| d.clone()).collect();
            merge_in(&out, league, &dirs, &registry, &Quiet, &steps).unwrap_err().to_string()
        };
        assert!(refused(None, &[(one.clone(), first)]).contains("needs the league's folder named"));
        let nowhere = dir.path().join("nowhere");
        let why = refused(Some(&league), &[(one.clone(), first), (nowhere.clone(), Shard { index: 2, count: 2 })]);
        assert!(why.starts_with(&format!("2/2={}: the folder bound to shard 2/2 cannot be read", nowhere.display())));
        // (A path as the terminal shows it: `1/3=` and a line break printed it raw.)
        let why = refused(Some(&league), &[(PathBuf::from("\n"), first)]);
        assert!(why.starts_with("1/2=\\n: the folder bound to shard 1/2 cannot be read"), "{why}");
        let twice = [(one.clone(), first), (one.clone(), Shard { index: 2, count: 2 })];
        assert!(refused(Some(&league), &twice).contains("bound to two slices, 1/2 and 2/2"));
        assert!(!out.exists(), "nothing written");
        // The control: bound once, with the league named, it merges.
        let steps = Steps { bound: &[(one.clone(), first)], ..Steps::default() };
        assert!(merge_in(&out, Some(&league), std::slice::from_ref(&one), &registry, &Quiet, &steps).is_ok());

        let parse = |arg: &str| ShardDir::parse(std::ffi::OsStr::new(arg));
        assert_eq!(
            parse("1/3=shard-1"),
            Ok(ShardDir { dir: "shard-1".into(), slice: Some(Shard { index: 1, count: 3 }) })
        );
        assert_eq!(parse("./1/3=shard-1"), Ok(ShardDir { dir: "./1/3=shard-1".into(), slice: None }));
        assert_eq!(parse("shard-1"), Ok(ShardDir { dir: "shard-1".into(), slice: None }));
        assert_eq!(parse("a=b"), Ok(ShardDir { dir: "a=b".into(), slice: None }));
        let line = parse("0/3=a\nb").unwrap_err();
        assert!(line.starts_with("0/3=a\\nb: ") && !line.contains('\n'), "{line}");
        for bad in ["4/3=shard", "0/3=shard", "1/3="] {
            assert!(parse(bad).is_err_and(|e| e.starts_with(bad)), "{bad}");
        }
    }

    /// A bound folder that is a link (to a shard's folder, or dangling), the league's folder,
    /// OUT, or a folder bound before under another path is left out, named, and the rest merged
    /// (each stopped the whole merge, where given alone it was only left out); shard 1's folder
    /// bound beside it gives its results.
    #[test]
    fn a_bound_folder_that_is_a_link_or_the_league_s_is_left_out() {
        let Forged { dir, one, two, honest, key, registry, .. } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let (first, second) = (Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 });
        let link = dir.path().join("two-link");
        std::os::unix::fs::symlink(&two, &link).unwrap();
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let out = dir.path().join("out");
        let merge = |bound: &[(PathBuf, Shard)]| {
            let steps = Steps { bound, ..Steps::default() };
            let dirs: Vec<PathBuf> = bound.iter().map(|(d, _)| d.clone()).collect();
            merge_in(&out, Some(&league), &dirs, &registry, &Quiet, &steps).unwrap()
        };
        let left_out = |merged: &Merged, arg: &str, why: &str| {
            let head = format!("{arg}: bound to shard 2/2 on the command line, but {why}");
            assert!(
                merged.refused.iter().any(|r| r.starts_with(&head) && r.contains("left out of the merge")),
                "{head}: {:?}",
                merged.refused
            );
            assert_eq!(merged.missing, std::slice::from_ref(&key), "shard 1's results merged, shard 2's missing");
        };
        let merged = merge(&[(one.clone(), first), (link.clone(), second)]);
        left_out(&merged, &format!("2/2={}", link.display()), &format!("a link (to {})", two.display()));
        let merged = merge(&[(one.clone(), first), (dangling.clone(), second)]);
        left_out(&merged, &format!("2/2={}", dangling.display()), "a link (to ");
        let merged = merge(&[(one.clone(), first), (league.clone(), second)]);
        left_out(&merged, &format!("2/2={}", league.display()), "the league's folder (--league) or OUT");
        let merged = merge(&[(one.clone(), first), (out.clone(), second)]);
        left_out(&merged, &format!("2/2={}", out.display()), "the league's folder (--league) or OUT");
        // Shard 2's folder bound, then again by another path to another slice: the second left out.
        let again = one.join("../shard-2");
        let merged = merge(&[(two.clone(), second), (again.clone(), first)]);
        let head = format!(
            "1/2={}: bound to shard 1/2 on the command line, but the same folder as {}",
            again.display(),
            two.display()
        );
        assert!(merged.refused.iter().any(|r| r.starts_with(&head)), "{:?}", merged.refused);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "shard 2's own result merged");
    }

    /// Where only some folders are bound, a folder given alone whose record claims a bound
    /// slice, holding another result of one of its matches, no longer drops the bound honest
    /// shard's result: the binding outranks the record's claim (its line is refused, named).
    /// The control: a bound folder's lines as sure as a record's (the older merge), the honest
    /// result is dropped as held differently.
    #[test]
    fn a_bound_slice_outranks_one_a_folder_s_record_claims() {
        let Forged { dir, one, two, forged, replay, honest, key, registry } = Forged::new();
        let league = league_lacking(dir.path(), &two, &key);
        let second = Shard { index: 2, count: 2 };
        let mut record = TournamentRecord::load(&one, &registry).unwrap();
        record.slice = Some(second);
        record.save(&one).unwrap();
        std::fs::write(one.join(&forged.replay), &replay).unwrap();
        results::rewrite(&one.join(second.results_file()), std::slice::from_ref(&forged)).unwrap();
        let bound = [(two.clone(), second)];
        let merge = |name: &str, bound_ranked: bool| {
            let out = dir.path().join(name);
            let steps = Steps { bound: &bound, bound_ranked, ..Steps::default() };
            (merge_in(&out, Some(&league), &[two.clone(), one.clone()], &registry, &Quiet, &steps).unwrap(), out)
        };
        let (merged, out) = merge("ranked", true);
        assert_eq!(merged_line(&out, &key).as_ref(), Some(&honest), "{:?}", merged.refused);
        let why = format!(
            "{}: match {key}: results.shard-2-of-2.jsonl: another result than {}",
            one.display(),
            two.display()
        );
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("the folder the command line binds")),
            "{:?}",
            merged.refused
        );
        let (merged, out) = merge("alike", false);
        assert_eq!(merged_line(&out, &key), None, "the control: the honest result dropped");
        assert!(merged.refused.iter().any(|r| r.contains("folders hold different results")), "{:?}", merged.refused);
    }

    /// A match held as an older arena's `replays/<key>.json` in one folder and `.json.gz` in
    /// another, the same result, is one result: merged once, nothing refused. The control:
    /// lines compared with their replay's name, the two are held differently and the match is
    /// dropped.
    #[test]
    fn one_result_under_its_two_replay_names_is_one() {
        let Forged { dir, one, two, honest, key, registry, .. } = Forged::new();
        // Shard 2's folder as an older arena wrote it: `<key>.json`, uncompressed.
        let plain = plain_replay_of(&key);
        std::fs::write(two.join(&plain), crate::replay::read_json(&two.join(&honest.replay)).unwrap()).unwrap();
        std::fs::remove_file(two.join(&honest.replay)).unwrap();
        let file = two.join("results.shard-2-of-2.jsonl");
        let old: Vec<ResultLine> = results::read_file(&file)
            .unwrap()
            .0
            .into_iter()
            .map(|l| if l.key == key { ResultLine { replay: plain.clone(), ..l } } else { l })
            .collect();
        results::rewrite(&file, &old).unwrap();
        // Shard 1's folder holding the same result, as this arena names its replay.
        crate::replay::Replay::load(&two.join(&plain)).unwrap().save(&one.join(&honest.replay)).unwrap();
        results::rewrite(&one.join("results.shard-2-of-2.jsonl"), std::slice::from_ref(&honest)).unwrap();
        let dirs = [one.clone(), two.clone()];
        let merge = |name: &str, replay_names_aside: bool| {
            let out = dir.path().join(name);
            let steps = Steps { replay_names_aside, ..Steps::default() };
            (merge_with(&out, &dirs, &registry, &Quiet, &steps).unwrap(), out)
        };
        let (merged, out) = merge("one", true);
        assert!(merged.refused.is_empty() && merged.missing.is_empty(), "{:?}", merged.refused);
        assert_eq!(merged_line(&out, &key).map(|l| (l.result, l.replay)), Some((honest.result.clone(), honest.replay)));
        let (merged, out) = merge("two", false);
        assert_eq!(merged_line(&out, &key), None, "the control: held differently");
        assert!(merged.refused.iter().any(|r| r.contains("folders hold different results")), "{:?}", merged.refused);
    }

    /// A folder of hundreds of lines naming another file than their match's replay is refused
    /// in one message, counting them and naming the first few. The control: line by line, as
    /// many refusals (and warnings) as lines.
    #[test]
    fn a_folder_s_misnamed_lines_are_refused_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let misnamed: Vec<ResultLine> = (0..200)
            .map(|i| ResultLine { replay: format!("replays/evil-{i}.html"), ..lines[i % lines.len()].clone() })
            .collect();
        let (league, shard) = shard_and_league(dir.path(), &src, &[], &misnamed);
        let merge = |name: &str, misnamed_per_folder: bool| {
            let out = dir.path().join(name);
            let steps = Steps { misnamed_per_folder, ..Steps::default() };
            merge_in(&out, Some(&league), std::slice::from_ref(&shard), &registry, &Quiet, &steps).unwrap()
        };
        let merged = merge("one", true);
        assert_eq!(merged.refused.len(), 1, "{:?}", merged.refused);
        let why = &merged.refused[0];
        let expected = format!("{}: 200 lines name another file than their match's replay", shard.display());
        assert!(why.starts_with(&expected), "{why}");
        assert!(why.contains("`replays/evil-0.html`") && why.contains("`replays/evil-2.html`"), "{why}");
        assert!(!why.contains("evil-3.html") && why.ends_with("; and 197 more"), "{why}");
        assert!(merged.missing.is_empty(), "the league holds every match");
        let merged = merge("each", false);
        assert_eq!(merged.refused.len(), 200, "the control: a refusal a line");
    }

    /// A merge with `--league` of `shard` into `name` (under `dir`), its checks on this thread
    /// (one job: the control of hard links is this thread's), its inputs' locks waited for `wait`.
    fn merge_one(dir: &Path, name: &str, league: &Path, shard: &Path, wait: std::time::Duration) -> (Merged, PathBuf) {
        let out = dir.join(name);
        let steps = Steps { jobs: 1, input_wait: wait, ..Steps::default() };
        let merged = merge_in(
            &out,
            Some(league),
            std::slice::from_ref(&shard.to_path_buf()),
            &crate::games::registry(),
            &Quiet,
            &steps,
        )
        .unwrap();
        (merged, out)
    }

    /// A shard's file that is a hard link to a teacher's file (where any user may link any file:
    /// `fs.protected_hardlinks=0`, or a root job) is not read, whichever the merge reads: its
    /// match's log is not copied into OUT (where `--match-logs` published it), its replay and its
    /// results file are refused and its record leaves the folder out, each naming the file and
    /// why. The controls: hard links taken as the folder's own files, the teacher's secret is
    /// copied into OUT, said in a refusal, or the teacher's line merged.
    #[test]
    fn a_shard_s_files_hard_linked_to_a_teacher_s_are_not_read() {
        use crate::files::tests::with_hard_links_taken;
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let wait = std::time::Duration::from_secs(1);
        let secret = dir.path().join("secret.txt");
        std::fs::write(&secret, "TEACHERS-SECRET").unwrap();
        let relink = |rel: &Path, to: &Path| {
            let _ = std::fs::remove_file(shard.join(rel));
            std::fs::hard_link(to, shard.join(rel)).unwrap();
        };
        // A match's log.
        let log = PathBuf::from("logs").join(format!("{}.log", a.key));
        relink(&log, &secret);
        let (merged, out) = merge_one(dir.path(), "log", &league, &shard, wait);
        assert!(merged.missing.is_empty() && merged.refused.is_empty(), "{:?}", merged.refused);
        assert!(!out.join(&log).exists(), "the hard-linked log is not copied");
        let (_, out) = with_hard_links_taken(|| merge_one(dir.path(), "log-taken", &league, &shard, wait));
        assert_eq!(std::fs::read_to_string(out.join(&log)).unwrap(), "TEACHERS-SECRET", "the control: copied");
        std::fs::remove_file(shard.join(&log)).unwrap();
        // Its replay.
        let replay = dir.path().join("secret.json");
        std::fs::write(&replay, r#"{"format": "the-teachers-secret-token", "version": 1}"#).unwrap();
        let kept = dir.path().join("kept.json.gz");
        std::fs::copy(shard.join(&a.replay), &kept).unwrap();
        relink(Path::new(&a.replay), &replay);
        let (merged, _) = merge_one(dir.path(), "replay", &league, &shard, wait);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: match {}: ", shard.display(), a.key);
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains(&a.replay) && r.contains("a hard link")),
            "{:?}",
            merged.refused
        );
        assert!(!merged.refused.iter().any(|r| r.contains("secret")), "{:?}", merged.refused);
        let (merged, _) = with_hard_links_taken(|| merge_one(dir.path(), "replay-taken", &league, &shard, wait));
        assert!(
            merged.refused.iter().any(|r| r.contains("the-teachers-secret-token")),
            "the control: {:?}",
            merged.refused
        );
        std::fs::remove_file(shard.join(&a.replay)).unwrap();
        std::fs::copy(&kept, shard.join(&a.replay)).unwrap();
        // Its results file, linked to a teacher's file of the league's results.
        let teachers = dir.path().join("teachers.jsonl");
        results::rewrite(&teachers, std::slice::from_ref(&a)).unwrap();
        relink(Path::new("results.shard-1-of-1.jsonl"), &teachers);
        let (merged, _) = merge_one(dir.path(), "results", &league, &shard, wait);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: a hard link", shard.join("results.shard-1-of-1.jsonl").display());
        assert!(merged.refused.iter().any(|r| r.starts_with(&why)), "{:?}", merged.refused);
        let (merged, _) = with_hard_links_taken(|| merge_one(dir.path(), "results-taken", &league, &shard, wait));
        assert!(merged.missing.is_empty(), "the control: the teacher's line merged: {:?}", merged.refused);
        std::fs::remove_file(shard.join("results.shard-1-of-1.jsonl")).unwrap();
        results::rewrite(&shard.join("results.shard-1-of-1.jsonl"), std::slice::from_ref(&a)).unwrap();
        // Its record, linked to the league's (its secret).
        let record = std::fs::read(shard.join(super::super::TOURNAMENT_FILE)).unwrap();
        let teachers = dir.path().join("teachers.json");
        std::fs::write(&teachers, &record).unwrap();
        relink(Path::new(super::super::TOURNAMENT_FILE), &teachers);
        let (merged, _) = merge_one(dir.path(), "record", &league, &shard, wait);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: its tournament.json cannot be read as a file of its own (a hard link", shard.display());
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("left out of the merge")),
            "{:?}",
            merged.refused
        );
        let (merged, _) = with_hard_links_taken(|| merge_one(dir.path(), "record-taken", &league, &shard, wait));
        assert!(merged.missing.is_empty(), "the control: {:?}", merged.refused);
    }

    /// The league's folder named by `--league` is read with its hard links, as its own files,
    /// and without its symbolic links: a teacher's `cp -al` backup gives every file of the
    /// league two names, and refusing them made the league unmergeable; with
    /// `fs.protected_hardlinks=1` a student's machine writing the shared folder may hard-link
    /// only a file its user could read already. A symbolic link there (to a teacher's file) is
    /// still refused: a match's log so linked is not copied into OUT, a replay so linked has its
    /// result refused, naming it, and a `tournament.json` so linked stops the merge, naming it,
    /// before OUT is made. The controls: the same files hard-linked are copied, merged and read;
    /// a shard's hard links stay refused (`a_shard_s_files_hard_linked_to_a_teacher_s_are_not_read`).
    #[test]
    fn the_league_s_hard_links_are_read_as_its_own_files_and_its_symbolic_links_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let all = results::read_all(&src).unwrap();
        let (a, b) = (all[0].clone(), all[1].clone());
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let wait = std::time::Duration::from_secs(1);
        let secret = dir.path().join("secret.txt");
        std::fs::write(&secret, "TEACHERS-SECRET").unwrap();
        let relink = |rel: &Path, to: &Path, hard: bool| {
            let _ = std::fs::remove_file(league.join(rel));
            if hard {
                std::fs::hard_link(to, league.join(rel)).unwrap();
            } else {
                std::os::unix::fs::symlink(to, league.join(rel)).unwrap();
            }
        };
        // The log of a match the league's folder holds.
        let log = PathBuf::from("logs").join(format!("{}.log", b.key));
        relink(&log, &secret, false);
        let (merged, out) = merge_one(dir.path(), "log", &league, &shard, wait);
        assert!(merged.missing.is_empty() && merged.refused.is_empty(), "{:?}", merged.refused);
        assert!(!out.join(&log).exists(), "the linked log is not copied");
        relink(&log, &secret, true);
        let (_, out) = merge_one(dir.path(), "log-hard", &league, &shard, wait);
        assert_eq!(std::fs::read_to_string(out.join(&log)).unwrap(), "TEACHERS-SECRET", "the control: copied");
        std::fs::remove_file(league.join(&log)).unwrap();
        // Its replay, linked to a copy.
        let kept = dir.path().join("teachers.json.gz");
        std::fs::copy(league.join(&b.replay), &kept).unwrap();
        relink(Path::new(&b.replay), &kept, false);
        let (merged, _) = merge_one(dir.path(), "replay", &league, &shard, wait);
        assert_eq!(merged.missing, std::slice::from_ref(&b.key));
        let why = league.display().to_string();
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains(&b.replay) && r.contains("a link")),
            "{:?}",
            merged.refused
        );
        relink(Path::new(&b.replay), &kept, true);
        let (merged, _) = merge_one(dir.path(), "replay-hard", &league, &shard, wait);
        assert!(merged.missing.is_empty(), "the control: merged: {:?}", merged.refused);
        std::fs::remove_file(league.join(&b.replay)).unwrap();
        std::fs::copy(&kept, league.join(&b.replay)).unwrap();
        // Its record, linked to a teacher's file (here a copy of the league's own).
        let record = league.join(super::super::TOURNAMENT_FILE);
        let teachers = dir.path().join("teachers.json");
        std::fs::copy(&record, &teachers).unwrap();
        relink(Path::new(super::super::TOURNAMENT_FILE), &teachers, false);
        let steps = Steps { jobs: 1, input_wait: wait, ..Steps::default() };
        let dirs = [shard.clone()];
        let err = merge_in(&dir.path().join("record"), Some(&league), &dirs, &crate::games::registry(), &Quiet, &steps)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        let why = format!("{}: cannot be read as a file of the league's folder's own (a link", record.display());
        assert!(err.starts_with(&why), "{err}");
        assert!(!dir.path().join("record").exists(), "nothing written");
        relink(Path::new(super::super::TOURNAMENT_FILE), &teachers, true);
        let (merged, _) = merge_one(dir.path(), "record-hard", &league, &shard, wait);
        assert!(merged.missing.is_empty(), "the control: merged: {:?}", merged.refused);
    }

    /// Without `--league`, a shard's folder whose record is a hard link (to a teacher's file) is
    /// left out, named, the rest merged, as with `--league` (the merge ended there, merging
    /// nothing). The control: hard links taken as files of their own, the folder is merged.
    #[test]
    fn without_the_league_named_a_shard_s_hard_linked_record_leaves_its_folder_out() {
        use crate::files::tests::with_hard_links_taken;
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let record = shard.join(super::super::TOURNAMENT_FILE);
        let teachers = dir.path().join("teachers.json");
        std::fs::rename(&record, &teachers).unwrap();
        std::fs::hard_link(&teachers, &record).unwrap();
        let merge = |name: &str| {
            let steps = Steps { jobs: 1, input_wait: std::time::Duration::from_secs(1), ..Steps::default() };
            let dirs = [league.clone(), shard.clone()];
            merge_in(&dir.path().join(name), None, &dirs, &crate::games::registry(), &Quiet, &steps)
        };
        let merged = merge("out").unwrap();
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let advice = format!("{}: if it is the league's folder, name it with --league", shard.display());
        let why = format!("{}: its tournament.json cannot be read as a file of its own (a hard link", shard.display());
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&advice)
                && r.contains(&why)
                && r.contains("copy the file so it has one name")
                && r.contains("left out of the merge")),
            "{:?}",
            merged.refused
        );
        let merged = with_hard_links_taken(|| merge("taken")).unwrap();
        assert!(merged.missing.is_empty(), "the control: {:?}", merged.refused);
    }

    /// A shard's `.lock` that is a hard link to a teacher's file leaves the folder out, named,
    /// the file as it was; the control: taken for a lock, the merge makes the file private and
    /// signs it, cutting it to its signature.
    #[test]
    fn a_shard_s_lock_hard_linked_to_a_teacher_s_file_is_not_written() {
        use crate::files::tests::with_hard_links_taken;
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let wait = std::time::Duration::from_secs(1);
        let notes = dir.path().join("notes.txt");
        let text = "the teacher's notes, which no merge may change\n";
        std::fs::write(&notes, text).unwrap();
        std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o644)).unwrap();
        let _ = std::fs::remove_file(shard.join(".lock"));
        std::fs::hard_link(&notes, shard.join(".lock")).unwrap();
        let (merged, _) = merge_one(dir.path(), "held", &league, &shard, wait);
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: a hard link", shard.join(".lock").display());
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("left out of the merge")),
            "{:?}",
            merged.refused
        );
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
        assert_eq!(std::fs::metadata(&notes).unwrap().permissions().mode() & 0o777, 0o644);
        let (merged, _) = with_hard_links_taken(|| merge_one(dir.path(), "taken", &league, &shard, wait));
        assert!(merged.missing.is_empty(), "{:?}", merged.refused);
        let now = std::fs::read_to_string(&notes).unwrap();
        assert!(now.starts_with("pid "), "the control: the teacher's file signed: {now:?}");
    }

    /// A shard's folder whose lock one process holds (its text signed by a process that is
    /// running, `pid 1`, as a run's is) is waited for as long as the merge's wait says, then
    /// left out, named with what its lock says, and the rest merged.
    #[test]
    fn a_shard_s_folder_whose_lock_is_held_is_left_out_after_the_wait() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        std::fs::write(shard.join(".lock"), "pid 1").unwrap();
        let held = std::fs::File::open(shard.join(".lock")).unwrap();
        // SAFETY: flock on a descriptor we own.
        assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) }, 0);
        let start = std::time::Instant::now();
        let (merged, _) = merge_one(dir.path(), "held", &league, &shard, std::time::Duration::from_secs(1));
        let waited = start.elapsed();
        assert!(
            waited >= std::time::Duration::from_secs(1) && waited < std::time::Duration::from_secs(60),
            "{waited:?}"
        );
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{} is being written by another arena run (pid 1)", shard.display());
        assert!(
            merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("left out of the merge")),
            "{:?}",
            merged.refused
        );
        drop(held);
        let (merged, _) = merge_one(dir.path(), "free", &league, &shard, std::time::Duration::from_secs(1));
        assert!(merged.missing.is_empty(), "the control: released, merged: {:?}", merged.refused);
    }

    /// Shards' folders whose locks one process holds (each signed, as a run's is, by a process
    /// that is running: a student's process may write any text there) are waited for up to the
    /// merge's wait in all, not each: the folders after the wait is spent are left out at once,
    /// each named, saying so. The control: waited for each (the order before), three held
    /// folders cost three waits.
    #[test]
    fn folders_held_are_waited_for_once_in_all() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let shards: Vec<PathBuf> = (1..=3)
            .map(|i| {
                let copy = dir.path().join(format!("shard-{i}"));
                copy_tree(&shard, &copy);
                copy
            })
            .collect();
        let held: Vec<std::fs::File> = shards
            .iter()
            .map(|s| {
                std::fs::write(s.join(".lock"), "pid 1").unwrap();
                let held = std::fs::File::open(s.join(".lock")).unwrap();
                // SAFETY: flock on a descriptor we own.
                assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) }, 0);
                held
            })
            .collect();
        let wait = std::time::Duration::from_secs(2);
        for one_wait in [true, false] {
            let steps = Steps { jobs: 1, input_wait: wait, one_wait, ..Steps::default() };
            let out = dir.path().join(format!("out-{one_wait}"));
            let start = std::time::Instant::now();
            let merged = merge_in(&out, Some(&league), &shards, &crate::games::registry(), &Quiet, &steps).unwrap();
            let waited = start.elapsed();
            assert_eq!(merged.missing, std::slice::from_ref(&a.key));
            for s in &shards {
                let why = format!("{} is being written by another arena run (pid 1)", s.display());
                assert!(
                    merged.refused.iter().any(|r| r.starts_with(&why) && r.contains("left out of the merge")),
                    "{:?}",
                    merged.refused
                );
            }
            let at_once = merged.refused.iter().filter(|r| r.contains("not waited for")).count();
            if one_wait {
                assert!(waited >= wait && waited < wait * 5 / 2, "one wait, not three: {waited:?}");
                assert_eq!(at_once, 2, "{:?}", merged.refused);
            } else {
                assert!(waited >= wait * 3, "the control: a wait each: {waited:?}");
                assert_eq!(at_once, 0);
            }
        }
        drop(held);
    }

    /// A folder's refusals are printed a few at a time, the rest counted: a folder of a hundred
    /// lines of no match of the league gives a hundred refusals, and five are shown with one
    /// line counting the other 95; another folder's are shown apart.
    #[test]
    fn a_folder_s_refusals_are_shown_a_few_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let bad: Vec<ResultLine> = (0..100)
            .map(|i| {
                let key = format!("nope-{i}");
                ResultLine { replay: replay_of(&key), key, ..a.clone() }
            })
            .collect();
        let (league, shard) = shard_and_league(dir.path(), &src, &[], &bad);
        let (merged, _) = merge_one(dir.path(), "out", &league, &shard, std::time::Duration::from_secs(1));
        assert_eq!(merged.refused.len(), 100, "{:?}", merged.refused);
        assert_eq!(merged.refused_in.len(), 100);
        assert!(merged.refused_in.iter().all(|at| at.as_deref() == Some(shard.as_path())));
        let shown = merged.refusals_shown(5);
        assert_eq!(shown.len(), 6, "{shown:?}");
        assert_eq!(shown[..5], merged.refused[..5]);
        let more = format!("{}: and 95 more refusals of this folder, not shown (the first 5 are)", shard.display());
        assert_eq!(shown[5], more);
        assert_eq!(merged.refusals_shown(100), merged.refused, "the control: all shown where the cap is not reached");
    }

    /// A shard's replay whose text holds escape sequences (in its `format`, which serde's error
    /// quotes), and is long, is refused in one line of safe text, cut: no control character of
    /// it is kept. The control: the replay's own error holds the escape character, and more.
    #[test]
    fn a_shard_s_bad_replay_is_refused_in_safe_bounded_text() {
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let a = results::read_all(&src).unwrap()[0].clone();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&a.key], std::slice::from_ref(&a));
        let evil = format!("\u{1b}]0;owned\u{7}\u{1b}[2J\rline\n{}", "A".repeat(100_000));
        let text = serde_json::json!({"format": evil, "version": 1}).to_string();
        std::fs::remove_file(shard.join(&a.replay)).unwrap();
        std::fs::write(shard.join(&a.replay), &text).unwrap();
        let (merged, _) = merge_one(dir.path(), "out", &league, &shard, std::time::Duration::from_secs(1));
        assert_eq!(merged.missing, std::slice::from_ref(&a.key));
        let why = format!("{}: match {}: ", shard.display(), a.key);
        let refusal = merged.refused.iter().find(|r| r.starts_with(&why)).unwrap();
        assert!(refusal.contains("\\e]0;owned\\a\\e[2J\\rline\\nAAA"), "{refusal}");
        assert!(!refusal.chars().any(crate::safe_text::is_unsafe), "{refusal}");
        assert!(refusal.chars().count() < 1000 && refusal.contains("more characters]"), "{refusal}");
        let raw = crate::replay::Replay::from_raw(&shard.join(&a.replay), text.into_bytes()).unwrap_err().to_string();
        assert!(raw.contains('\u{1b}') && raw.len() > 100_000, "the control: {}", raw.len());
    }

    /// A replay of the league's own folder (the shared folder's flow, `arena merge L --league
    /// L`, where the shards' machines write L) is put on its page as the bytes the merge read
    /// and checked: swapped for a link to a teacher's file after the check, the file is not
    /// read again. The control: what its path reads then, as the page was made before, is the
    /// teacher's file.
    #[test]
    fn a_replay_swapped_for_a_link_after_its_check_is_not_what_its_page_embeds() {
        let dir = tempfile::tempdir().unwrap();
        let league = played(dir.path());
        let secret = dir.path().join("secret.txt");
        std::fs::write(&secret, "TEACHER-SECRET").unwrap();
        let lines = results::read_all(&league).unwrap();
        let rel = PathBuf::from(&lines[0].replay);
        let path = league.join(&rel);
        let before = std::fs::read(&path).unwrap();
        let check = |loaded: crate::replay::Replay| Ok(loaded);
        let (_, bytes) = take_checked_replay(&league, &rel, &path, (true, false), check).unwrap();
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&secret, &path).unwrap();
        assert_eq!(bytes, before, "the bytes checked");
        assert_eq!(std::fs::read(&path).unwrap(), b"TEACHER-SECRET", "the control: read again by path");
        // The link itself is refused at its check; a replay written anew (of a shard's folder)
        // is put on its page as the bytes written.
        assert!(take_checked_replay(&league, &rel, &path, (true, false), check).is_err(), "a link is refused");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, &before).unwrap();
        let to = dir.path().join("out.json.gz");
        let (_, written) = take_checked_replay(&league, &rel, &to, (false, true), check).unwrap();
        assert_eq!(written, std::fs::read(&to).unwrap(), "the bytes written");
    }

    /// In the shared folder's flow, the league's `replays/` made a link to a teacher's folder
    /// by another user (a student's machine writing L) stops the merge of a shard into L before
    /// anything is written, naming it: no replay, page or log is written through it. The
    /// control: the same link, the arena's user's own (`replays` on another disk), is written
    /// through (the shard's replays and pages land in the folder it leads to). Needs root to
    /// give the link to another user (skipped, said, otherwise).
    #[test]
    fn a_league_s_folder_linked_by_another_user_is_not_written_through() {
        // SAFETY: geteuid takes nothing and cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root can give a link to another user");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let src = played(dir.path());
        let registry = crate::games::registry();
        let lines = results::read_all(&src).unwrap();
        let (league, shard) = shard_and_league(dir.path(), &src, &[&lines[0].key], &[lines[0].clone()]);
        // (The league's replays moved to the teacher's disk, the folder linked there.)
        let teacher = dir.path().join("teacher");
        std::fs::rename(league.join("replays"), &teacher).unwrap();
        std::fs::write(teacher.join("notes.txt"), "mine").unwrap();
        let held = std::fs::read_dir(&teacher).unwrap().count();
        std::os::unix::fs::symlink(&teacher, league.join("replays")).unwrap();
        std::os::unix::fs::lchown(league.join("replays"), Some(65534), Some(65534)).unwrap();
        let dirs = [shard];
        let err =
            merge_in(&league, Some(&league), &dirs, &registry, &Quiet, &Steps::default()).unwrap_err().to_string();
        assert!(err.contains("replays") && err.contains("a symbolic link made by another user (uid 65534)"), "{err}");
        assert_eq!(std::fs::read_dir(&teacher).unwrap().count(), held, "nothing written in the teacher's folder");
        // The control: written through, and the league's own lines, whose replays are read
        // through the link, are kept, none refused (they were all set aside).
        std::os::unix::fs::lchown(league.join("replays"), Some(0), Some(0)).unwrap();
        merge_in(&league, Some(&league), &dirs, &registry, &Quiet, &Steps::default()).unwrap();
        let written = teacher.join(format!("{}.json.gz", lines[0].key));
        assert!(written.is_file(), "the control: written through the link");
        merge_in(&league, Some(&league), &[], &registry, &Quiet, &Steps::default()).unwrap();
        assert_eq!(results::read_all(&league).unwrap().len(), lines.len(), "the control: every line kept");
        assert!(!league.join(SET_ASIDE_FILE).exists(), "the control: no line refused");
    }
}
