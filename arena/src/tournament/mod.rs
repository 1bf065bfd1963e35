//! Round-robin tournaments: build the bots, schedule every pairing from both sides, run the
//! matches concurrently, stream each result to disk as it ends, and rank the bots. Resuming a
//! folder runs only what is missing or superseded. This module knows no game's rules: it
//! goes through the engine trait, the registry it is given and the referee. A run reports
//! what it does as [`Event`]s to its caller's [`Reporter`], which shows them and writes the
//! pages; the run itself prints nothing.

pub mod build;
pub mod config;
pub mod events;
pub mod merge;
pub mod public;
pub mod results;
pub mod schedule;
pub mod shown;
pub mod submission;
pub mod versions;
mod vouch;

/// The leaderboard, computed from the result lines (in [`crate::standings`], which the pages read).
pub use crate::standings::leaderboard;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use self::config::TournamentConfig;
pub use self::events::{Event, Plan, Quiet, Reporter};
use self::leaderboard::{Leaderboard, MapFact, RunFacts, ShownMap};
use self::results::{ResultLine, ResultsWriter, RESULTS_FILE};
use self::schedule::{BotVersion, ScheduledMatch, Shard};
use self::shown::ShownPaths;
use self::versions::{BotHistory, Version};
use crate::engine::{Game, Registry};
use crate::files::{write_atomic, write_atomic_as};
use crate::referee::{play_match, BotCommand, ClockKind, PlayedMatch, RefereeError};
use crate::sandbox::{Sandbox, SandboxLimits};
use crate::standings::maps::MapNames;

/// The resolved tournament, as written to `tournament.json`.
pub const TOURNAMENT_FILE: &str = "tournament.json";

/// What to give instead of a folder that holds no league, in the messages that say so.
const GIVE_A_LEAGUE: &str =
    "give a league's folder (one `arena tournament --config FILE --out DIR` or `arena build CONFIG --out DIR` made)";

/// What can stop a tournament.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The config file is not valid TOML of the expected shape.
    #[error("{}: {message}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        message: String,
    },
    /// A config file's fault that TOML itself accepts, at a line of the file.
    #[error("{}:{line}: {message}", path.display())]
    ConfigAt {
        /// The file.
        path: PathBuf,
        /// The line at fault, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The configuration cannot be run.
    #[error("{0}")]
    Invalid(String),
    /// The folder a merge was told is the league's (`arena merge OUT --league DIR`) is not one.
    #[error("{}: named the league's folder (--league), but {why}", .dir.display())]
    NotTheLeague {
        /// The folder.
        dir: PathBuf,
        /// Why it is not the league's.
        why: String,
    },
    /// Another run is writing the folder.
    #[error("{} is being written by another arena run ({holder}): wait for it to end", .dir.display())]
    Locked {
        /// The folder.
        dir: PathBuf,
        /// Who holds the lock, as it wrote itself down.
        holder: String,
    },
    /// The output folder already holds a tournament.
    #[error("{} already holds a tournament: resume it with --resume {} (add --config FILE to apply a changed config), or choose another --out", .0.display(), crate::safe_text::path_word(.0))]
    Exists(PathBuf),
    /// A game or map problem.
    #[error(transparent)]
    Setup(#[from] crate::engine::SetupError),
    /// Interrupted (Ctrl-C, SIGTERM, SIGHUP) while the bots were built: no version was recorded,
    /// nothing played.
    #[error("interrupted while the bots were built: nothing was recorded")]
    Interrupted,
    /// The run was ended (Ctrl-C, SIGTERM, SIGHUP) while it waited for its folder, which
    /// another process held: nothing was written.
    #[error("{}: ended while waiting for another arena run to leave it: nothing was written", .dir.display())]
    StoppedWaiting {
        /// The folder.
        dir: PathBuf,
    },
    /// A merge or a publish was ended (Ctrl-C, SIGTERM, SIGHUP) before it finished, at a point
    /// where its folder is whole (as it was, or complete: see each); the words say which.
    #[error("{0}")]
    Stopped(String),
    /// The machine could not start a bot's build (no process, thread or memory left): no fault
    /// of the bot's, whose build never ran. Nothing was recorded (no version of the bot, failed
    /// or not): the same command, run again once the machine has them, builds it again.
    #[error(
        "bot `{bot}`: {why}; nothing was recorded, no match played: run the same command again once the machine \
         has processes and memory to spare"
    )]
    MachineBuild {
        /// The bot.
        bot: String,
        /// Why, as the build said it.
        why: String,
    },
    /// The machine could not do what the run needs (start a thread, a build): no process,
    /// thread or memory left. No fault of the config's or of a bot's: the same command, run
    /// again once the machine has them, goes on.
    #[error(
        "the machine could not {what}, no fault of the config's or the bots': {source}{}; {kept}",
        crate::sandbox::machine_hint(source)
    )]
    Machine {
        /// What could not be done, as "start …".
        what: String,
        /// The system's reason.
        source: std::io::Error,
        /// What became of the league, as "nothing was recorded".
        kept: &'static str,
    },
    /// The output folder holds no league (no record, no results) and an entry no league's folder
    /// has: someone's own folder (a typo such as `--out ~`), which a run would make private and
    /// write its files into; refused before anything is written there.
    #[error(
        "{}: not a league's folder and not empty (it holds {}): a run would make it and its folders private to \
         you and write the league's files among what it holds: give a new or empty folder (--out, or `out` in the \
         config), or a league's folder to resume",
        .dir.display(),
        crate::safe_text::terminal(.entry)
    )]
    NotALeague {
        /// The folder.
        dir: PathBuf,
        /// The first entry found there that no league's folder holds.
        entry: String,
    },
}

impl TournamentError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        TournamentError::Io { path: path.to_path_buf(), source }
    }
}

/// A file the run's caller could not write (a league page: [`crate::files::PathError`]) as the
/// run's error on that file.
impl From<crate::files::PathError> for TournamentError {
    fn from(e: crate::files::PathError) -> Self {
        TournamentError::Io { path: e.path, source: e.source }
    }
}

/// `tournament.json`: the resolved configuration, the bots' versions and the schedule.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// The configuration as run.
    #[serde(with = "config::recorded")]
    pub config: TournamentConfig,
    /// Bots that play, each on its standing version.
    pub bots: Vec<BotVersion>,
    /// Bots that could not play at all, with the reason.
    pub failures: BTreeMap<String, String>,
    /// Every scheduled match.
    pub schedule: Vec<ScheduledMatch>,
    /// Every version of every bot the league has seen.
    #[serde(default)]
    pub history: BTreeMap<String, BotHistory>,
    /// The maps (or boards) with their content digests, in board order.
    #[serde(default)]
    pub boards: Vec<MapFact>,
    /// The league folder (absolute) the record was written in, then read from: a record read
    /// from another has been moved or copied (see [`TournamentRecord::load`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<PathBuf>,
    /// The folders the league had before it was moved or copied (its own, its config's):
    /// what its record says of them (a failed version's problem) is shown relative to them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<PathBuf>,
    /// How many shards the league's last merge found it split into (its shards' results
    /// files), until the next build: what a Slurm task's `--shard auto` is checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<usize>,
    /// The shard whose own folder this is (`--shard K/N --out DIR` records it in DIR's copy of
    /// the record): a merge takes from the folder only that slice's results, whatever its files'
    /// names say. `None` in the league's folder, a merge's, and a shard's of an earlier arena.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Shard>,
}

/// A [`TournamentRecord`] as written to `tournament.json`: the same fields, borrowed, with the
/// kept copies' paths made relative (a clone of the whole record would copy its schedule).
#[derive(Serialize)]
struct OnDisk<'a> {
    #[serde(with = "config::recorded")]
    config: &'a TournamentConfig,
    bots: &'a [BotVersion],
    failures: &'a BTreeMap<String, String>,
    schedule: &'a [ScheduledMatch],
    history: &'a BTreeMap<String, BotHistory>,
    boards: &'a [MapFact],
    folder: &'a Path,
    #[serde(skip_serializing_if = "<[PathBuf]>::is_empty")]
    earlier: &'a [PathBuf],
    #[serde(skip_serializing_if = "Option::is_none")]
    shards: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slice: Option<Shard>,
}

/// Makes the league's folder `dir` and its folders `subs`, each private to the arena's user
/// when made here (it holds the league's secret and every student's code: see
/// [`FolderLock::take_waiting`] for one made before); the error names the one not made.
/// The folders a league's folder holds (a run's, a build's, a shard's or a merge's), the one
/// list every check of them reads: the first [`MADE_WITH_LEAGUE`] are made with the league (the
/// pages' too, which `view` makes as any folder where missing); `builds/` and `versions/` are
/// made when a bot is built or kept. Each is checked for a link of another user's
/// ([`refuse_foreign_links`]) before anything is removed or written in it.
pub(crate) const LEAGUE_FOLDERS: [&str; 6] = ["replays", "logs", "bots", "assets", "builds", "versions"];
/// How many of [`LEAGUE_FOLDERS`], from the first, a run makes with its league's folder.
const MADE_WITH_LEAGUE: usize = 4;

/// The folders a league's folder (a run's, a build's, a shard's or a merge's) may hold at its
/// top, besides its pages' (`assets/`, `bots/`) and the `slurm/` folder of the Slurm scripts' output.
const LEAGUE_TOP_FOLDERS: [&str; 7] = ["replays", "logs", "builds", "assets", "bots", "versions", "slurm"];
/// The files a league's folder may hold at its top, by name (besides its results files and
/// the temporary files of an atomic write): its locks, its record, its pages and the notes of
/// builds no record lists yet and of lines a merge set aside.
const LEAGUE_TOP_FILES: [&str; 9] = [
    ".lock",
    ".way",
    "index.html",
    "leaderboard.md",
    "leaderboard.json",
    RESULTS_FILE,
    TOURNAMENT_FILE,
    versions::UNRECORDED_BUILDS,
    merge::SET_ASIDE_FILE,
];

/// Refuses `out` when it is a folder that holds no league (no `tournament.json`, no results
/// file) and holds an entry that no league's folder has ([`TournamentError::NotALeague`]): a
/// run makes its folder and the folders in it private and writes its files there, so `--out ~`
/// (or `/tmp`) took over that folder. A folder that is not there, an empty one, and what a run
/// cut short before it saved its record leaves (the league's folders, its locks, the builds'
/// note, temporary files) are accepted: `--resume` goes on from there. `versions/` may be a
/// link to a folder (a league's copies kept on another disk). Checked before the folder is made
/// or locked, and again once it is locked ([`FolderLock::claim`]). (As `arena merge` refuses
/// such an OUT.)
fn refuse_foreign_folder(out: &Path) -> Result<(), TournamentError> {
    match foreign_entry(out) {
        Some(entry) => Err(TournamentError::NotALeague { dir: out.to_path_buf(), entry }),
        None => Ok(()),
    }
}

/// The first entry of folder `out` that no league's folder holds, when it holds no league
/// (see [`refuse_foreign_folder`]); each entry of its kind: a file named `replays` or a link
/// named `.lock` is not a league's.
fn foreign_entry(out: &Path) -> Option<String> {
    let meta = std::fs::metadata(out).ok()?;
    if !meta.is_dir() || out.join(TOURNAMENT_FILE).exists() || !results::files(out).is_empty() {
        return None;
    }
    let Ok(entries) = std::fs::read_dir(out) else {
        // (Unreadable: the lock's own error says why, as before.)
        return None;
    };
    entries.flatten().find_map(|entry| {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        let kind = entry.file_type().ok();
        let (dir, file) = (kind.is_some_and(|k| k.is_dir()), kind.is_some_and(|k| k.is_file()));
        let linked_copies = text == "versions" && kind.is_some_and(|k| k.is_symlink()) && entry.path().is_dir();
        let league = (LEAGUE_TOP_FOLDERS.contains(&&*text) && dir)
            || linked_copies
            || ((LEAGUE_TOP_FILES.contains(&&*text)
                || crate::files::is_temporary(&name)
                || text.starts_with(".lock.shard-"))
                && file);
        (!league).then(|| text.into_owned())
    })
}

/// Makes the league's folder `dir` and its folders `subs`, each private; a folder of `subs`
/// that is a link of another user's is refused before anything is written
/// ([`crate::files::refuse_foreign_link`]).
fn make_league_folder(dir: &Path, subs: &[&str]) -> Result<(), TournamentError> {
    crate::files::make_private_folder(dir).map_err(|e| TournamentError::io(dir, e))?;
    refuse_foreign_links(dir)?;
    for sub in subs {
        let path = dir.join(sub);
        crate::files::refuse_foreign_link(&path).map_err(|e| TournamentError::io(&path, e))?;
    }
    for sub in subs {
        let path = dir.join(sub);
        crate::files::make_private_folder(&path).map_err(|e| TournamentError::io(&path, e))?;
    }
    Ok(())
}

/// Refuses the league's folder `dir` where any of its folders ([`LEAGUE_FOLDERS`], `versions/`
/// and `builds/` too) is a symbolic link of another user's ([`crate::files::refuse_foreign_link`]):
/// checked before [`remove_temporaries`] and before anything is written there, so no stray file
/// is deleted, and no copy cut short removed, through a link a shard's machine made.
fn refuse_foreign_links(dir: &Path) -> Result<(), TournamentError> {
    for sub in LEAGUE_FOLDERS {
        let path = dir.join(sub);
        crate::files::refuse_foreign_link(&path).map_err(|e| TournamentError::io(&path, e))?;
    }
    Ok(())
}

/// The permissions `tournament.json` at `path` is written with: its user's alone (it holds the
/// secret), plus the read bits the file it replaces was given (a teacher's `chmod g+r` for an
/// assistant outlives the runs; an older arena's `rw-r--r--` was taken away before, see
/// [`FolderLock::take_waiting`]).
fn record_mode(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path).ok().filter(|m| m.is_file()).map_or(0o600, |m| 0o600 | m.mode() & 0o044)
}

/// A new league's secret: 128 random bits, in hex.
fn fresh_secret() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl TournamentConfig {
    /// What the bots' seeds are keyed with: the config's `secret` (a league run draws one when
    /// the config has none), else its seed (only a record from before that has neither).
    pub fn seat_secret(&self) -> Vec<u8> {
        self.secret.clone().unwrap_or_else(|| format!("seed {}", self.seed)).into_bytes()
    }
}

impl TournamentRecord {
    /// Reads `dir/tournament.json`, the kept copies' paths made absolute against `dir` (see
    /// [`versions::kept_in_memory`]): the league resumes from any folder. A league folder that
    /// was moved or copied with the config's folder around it (the course's folder) finds the
    /// config's paths in the folder around it now ([`TournamentRecord::follow_move`]).
    /// The record is checked as a config is before a run ([`TournamentRecord::check`]): a
    /// hand-edited one that could not be run is refused by every command that runs or merges it,
    /// naming the file and key (those that only show it warn: [`TournamentRecord::load_to_show`]).
    pub fn load(dir: &Path, games: &Registry) -> Result<Self, TournamentError> {
        let record = Self::read(dir)?;
        record.check(games)?;
        Ok(record)
    }

    /// The check of a config before a run, for a loaded record: its game is one of `games` and
    /// [`TournamentConfig::validate`] accepts it; the error names the record's file. Returns its game.
    pub fn check(&self, games: &Registry) -> Result<&'static dyn Game, TournamentError> {
        let game = self.game(games)?;
        self.config.validate_recorded(game.info(), &self.config.maps)?;
        Ok(game)
    }

    /// [`load`](Self::load) for a command that only shows the league (`arena leaderboard`,
    /// `arena publish`): a record the check refuses (a value an older arena accepted, such as a
    /// limit of 0) is shown all the same, with a warning saying how to mend it, as its results
    /// are still the league's history; runs and resumes keep refusing it. Its game must be known.
    pub fn load_to_show(dir: &Path, games: &Registry) -> Result<Self, TournamentError> {
        let record = Self::read(dir)?;
        let game = record.game(games)?;
        if let Err(e) = record.config.validate_recorded(game.info(), &record.config.maps) {
            tracing::warn!(
                "{e}: the league is shown as recorded, but runs and resumes refuse it until a config mends it: \
                 `arena tournament --resume {} --config FILE`",
                crate::safe_text::path_word(dir)
            );
        }
        Ok(record)
    }

    /// The record's game, one of `games`; the error names the record's file.
    fn game(&self, games: &Registry) -> Result<&'static dyn Game, TournamentError> {
        games.named_or_first(&self.config.game).map_err(|e| self.config.error(format!("`game`: {e}")))
    }

    /// [`load`](Self::load) without the check: for a record whose config a new one replaces
    /// (`--resume DIR --config NEW`), which may mend what the old one got wrong.
    pub fn read(dir: &Path) -> Result<Self, TournamentError> {
        let path = dir.join(TOURNAMENT_FILE);
        let text = crate::files::read_regular_capped(&path, MAX_RECORD_BYTES).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound if dir.is_dir() => TournamentError::Invalid(format!(
                "{}: no {TOURNAMENT_FILE}: not a tournament folder: {GIVE_A_LEAGUE}; if this is one whose first run \
                 was stopped before any match started (nothing was lost), start it again with `arena tournament \
                 --config FILE --out {}`",
                dir.display(),
                dir.display()
            )),
            std::io::ErrorKind::NotADirectory => {
                TournamentError::Invalid(format!("{}: not a folder: {GIVE_A_LEAGUE}", dir.display()))
            }
            std::io::ErrorKind::NotFound if !dir.exists() => {
                TournamentError::Invalid(format!("{}: no such folder: {GIVE_A_LEAGUE}", dir.display()))
            }
            _ => TournamentError::io(&path, e),
        })?;
        Self::parse(dir, path, &text)
    }

    /// [`load`](Self::load) for the record of a teacher's folder a merge reads, the league's
    /// named by `--league` and OUT: read as a file of its own ([`crate::files::read_own_regular`]:
    /// no symbolic link, no FIFO, at most [`MAX_RECORD_BYTES`]). In the shared folder's flow
    /// (`arena merge L --league L`) the shards' machines write that folder, and a
    /// `tournament.json` linked there to a teacher's file (another league's record, its secret)
    /// was read and saved back into it. A hard link is read (a teacher's `cp -al` backup gives
    /// every file two names): with `fs.protected_hardlinks=1` a user may hard-link only a file
    /// they own or may read and write, so one planted there gives nothing its maker could not
    /// read already (the merge warns where the machine lets any user link any file). Else an
    /// error naming the file and why.
    pub(crate) fn load_unlinked(dir: &Path, games: &Registry) -> Result<Self, TournamentError> {
        let path = dir.join(TOURNAMENT_FILE);
        let text = crate::files::read_own_regular(&path, MAX_RECORD_BYTES).map_err(|e| {
            TournamentError::Invalid(format!(
                "{}: cannot be read as a file of the league's folder's own ({e}): a merge reads no league's \
                 record through a link, as shards' machines write the folder the shards shared",
                path.display()
            ))
        })?;
        let record = Self::parse(dir, path, &text)?;
        record.check(games)?;
        Ok(record)
    }

    /// [`load`](Self::load) for the record of a folder someone else may have written (a shard's
    /// folder merged): read as a file of its own ([`TournamentRecord::read_foreign`]), the bytes
    /// parsed the ones read ([`TournamentRecord::parse_foreign`]).
    pub(crate) fn load_foreign(dir: &Path, games: &Registry, cap: u64) -> Result<Self, TournamentError> {
        Self::parse_foreign(dir, games, &Self::read_foreign(dir, cap)?)
    }

    /// The bytes of the record of a folder someone else may have written (a shard's folder
    /// merged), read as a file of its own ([`crate::files::read_foreign_regular`]: no link, no
    /// hard link, no FIFO, at most `cap` bytes); else why not, naming the folder.
    pub(crate) fn read_foreign(dir: &Path, cap: u64) -> Result<Vec<u8>, TournamentError> {
        crate::files::read_foreign_regular(&dir.join(TOURNAMENT_FILE), cap).map_err(|e| {
            TournamentError::Invalid(format!(
                "{}: its {TOURNAMENT_FILE} cannot be read as a file of its own ({e})",
                dir.display()
            ))
        })
    }

    /// The record `text` read by [`TournamentRecord::read_foreign`] from `dir`, parsed and
    /// checked ([`TournamentRecord::check`]). (Serde's error and the check's quote the file's
    /// bytes, a key or a value of its: cut to 600 characters, shown safely.)
    pub(crate) fn parse_foreign(dir: &Path, games: &Registry, text: &[u8]) -> Result<Self, TournamentError> {
        let cut = |e| match e {
            TournamentError::Config { path, message } => {
                TournamentError::Config { path, message: crate::safe_text::terminal_cut(&message, 600) }
            }
            TournamentError::ConfigAt { path, line, message } => {
                TournamentError::ConfigAt { path, line, message: crate::safe_text::terminal_cut(&message, 600) }
            }
            TournamentError::Invalid(message) => {
                TournamentError::Invalid(crate::safe_text::terminal_cut(&message, 600))
            }
            e => e,
        };
        let record = Self::parse(dir, dir.join(TOURNAMENT_FILE), text).map_err(cut)?;
        record.check(games).map_err(cut)?;
        Ok(record)
    }

    /// The record `text`, read from `path`, the record's file of the league's folder `dir`.
    fn parse(dir: &Path, path: PathBuf, text: &[u8]) -> Result<Self, TournamentError> {
        let mut record: Self = serde_json::from_slice(text).map_err(|e| TournamentError::Config {
            path: path.clone(),
            message: format!("not a tournament record: {e}"),
        })?;
        record.config.fold_legacy().map_err(|message| TournamentError::Config { path: path.clone(), message })?;
        record.config.origin = Some(path);
        let here = std::env::current_dir().unwrap_or_default();
        let league = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        record.follow_move(&league);
        for bot in record.bots.iter_mut().filter(|b| b.kept) {
            bot.entry = versions::kept_in_memory(&bot.entry, &bot.fingerprint, &league, &here);
        }
        for version in record.history.values_mut().flat_map(|h| h.versions.iter_mut()) {
            if let Some(kept) = &version.kept {
                version.kept = Some(versions::kept_in_memory(kept, &version.fingerprint, &league, &here));
            }
        }
        Ok(record)
    }

    /// Follows a move of the league folder to `league` (absolute) from where the record was
    /// written: when the config's folder held it there, and the folder now around it at the
    /// same place holds what the config's folder held (every map, bot folder and file the
    /// config names there that is still there), the course's folder was moved or copied whole,
    /// and every path the record names in it is taken in the folder around the league now.
    /// Otherwise (the league folder moved alone, or a record from before `folder` was kept) the
    /// paths stay. Either way, the folders it named before are shown like the new ones.
    fn follow_move(&mut self, league: &Path) {
        let was = self.folder.replace(league.to_path_buf());
        let Some(was) = was.filter(|was| !same_folder(was, league)) else { return };
        self.remember(was.clone());
        let Some(base) = self.config.base.clone() else { return };
        let Some(now) = was
            .strip_prefix(&base)
            .ok()
            .filter(|inside| league.ends_with(inside))
            .and_then(|inside| league.ancestors().nth(inside.components().count()))
            .map(Path::to_path_buf)
        else {
            return;
        };
        if same_folder(&now, &base) {
            return;
        }
        let mut named: Vec<PathBuf> = self.config.maps.clone();
        for entry in self.config.bots.iter().chain(self.bots.iter().map(|b| &b.entry)) {
            named.extend(entry.cwd.clone());
            named.extend(shell_words::split(&entry.command).unwrap_or_default().into_iter().map(PathBuf::from));
        }
        let held = named.iter().filter_map(|p| p.strip_prefix(&base).ok()).all(|rel| {
            let (before, after) = (base.join(rel), now.join(rel));
            !before.exists() || after.exists()
        });
        if held {
            self.rebase(&base, &now);
            self.remember(base);
        }
    }

    /// Adds `folder` to the folders the league had before (once).
    fn remember(&mut self, folder: PathBuf) {
        if !self.earlier.contains(&folder) {
            self.earlier.push(folder);
        }
    }

    /// Every path the record names under `from` (absolute), taken under `to` instead.
    fn rebase(&mut self, from: &Path, to: &Path) {
        let moved = |path: &Path| {
            use std::os::unix::ffi::OsStrExt;
            // (Its text kept after the folder, `./waiter` included: the config read again in the
            // new place writes it so, and a path written otherwise reads as the bot changed.)
            let (text, folder) = (path.as_os_str().as_bytes(), from.as_os_str().as_bytes());
            if let Some(rest) = text.strip_prefix(folder).and_then(|r| r.strip_prefix(b"/")) {
                return Some(to.join(std::ffi::OsStr::from_bytes(rest)));
            }
            let rel = path.strip_prefix(from).ok()?;
            Some(if rel.as_os_str().is_empty() { to.to_path_buf() } else { to.join(rel) })
        };
        let config = &mut self.config;
        config.base = Some(to.to_path_buf());
        for map in &mut config.maps {
            *map = moved(map).unwrap_or_else(|| map.clone());
        }
        config.out = config.out.as_deref().map(|out| moved(out).unwrap_or_else(|| out.to_path_buf()));
        // (The config file it was made from moved with it: the course's copy is compared with
        // the copy's file, not the original's, whose paths all differ.)
        config.file = config.file.as_deref().map(|file| moved(file).unwrap_or_else(|| file.to_path_buf()));
        for entry in &mut config.bots {
            *entry = versions::map_paths(entry, moved);
        }
        for bot in &mut self.bots {
            bot.entry = versions::map_paths(&bot.entry, moved);
        }
        for version in self.history.values_mut().flat_map(|h| h.versions.iter_mut()) {
            version.kept = version.kept.as_ref().map(|kept| versions::map_paths(kept, moved));
        }
        for board in &mut self.boards {
            if let Some(path) = moved(Path::new(&board.path)) {
                board.path = path.display().to_string();
            }
        }
        for m in &mut self.schedule {
            m.map = moved(&m.map).unwrap_or_else(|| m.map.clone());
        }
    }

    /// Why `bot` (one of [`TournamentRecord::bots`]) would not play the version it is recorded
    /// as, if so: its kept copy is gone, or (without one, playing from its own files) those are
    /// reached through a link, no longer fingerprint as recorded, or what its build wrote
    /// changed. `left_out`: the league's folders, no part of a bot whose folder holds them.
    pub fn not_as_built(&self, bot: &BotVersion, left_out: &submission::LeftOut) -> Option<String> {
        if bot.kept {
            // The league's own copy: it must still be there.
            return versions::program_exists(&bot.entry).err().map(|why| format!("its kept copy: {why}"));
        }
        let base = self.config.base.as_deref();
        // Its files reached through a link now (none was there when the league was built).
        if let Err(linked) = submission::links(&bot.entry, base) {
            return Some(linked.to_string());
        }
        let history = self.history.get(&bot.entry.name);
        let outputs = history.map(|h| h.outputs.clone()).unwrap_or_default();
        let portable = history.and_then(|h| h.portable_of(&bot.fingerprint));
        // (One walk of its folder for both fingerprints: its own files', and with its outputs.)
        let read = match submission::read(&bot.entry, base, &outputs, left_out, &mut BTreeMap::new()) {
            Ok(read) => read,
            Err(e) => return Some(e.to_string()),
        };
        let now = read.own.fingerprints();
        if !now.is(&bot.fingerprint, portable) {
            // Said once: its files changed, so what they fingerprint with its build's outputs
            // (the same files, for a bot without a build) changed too.
            // (By the labels the leaderboard shows, where the league has them.)
            let was = history.and_then(|h| h.label_of(&bot.fingerprint)).unwrap_or(&bot.fingerprint);
            let known = history
                .and_then(|h| h.versions.iter().rev().find(|v| v.ok && now.is(&v.fingerprint, v.portable.as_deref())));
            let is = match known {
                Some(v) => format!("those of {} again", v.label),
                None => "a version the league has not seen".to_string(),
            };
            return Some(format!("built as {was}, its files now {is}"));
        }
        // What its build wrote (the program it runs) must be as the build left it, too. (None:
        // a record of an earlier arena; a run refuses a bot with no copy and outputs it cannot
        // read, see `versions::unchecked`.)
        let built = bot.built.as_ref()?;
        match &read.whole {
            Ok(now) if now.fingerprints().is(built, None) => None,
            Ok(_) => Some("what its build wrote has changed".to_string()),
            Err(e) => Some(e.clone()),
        }
    }

    /// Writes `dir/tournament.json` atomically, the kept copies' paths relative to `dir` (see
    /// [`versions::kept_on_disk`]).
    pub fn save(&self, dir: &Path) -> Result<(), TournamentError> {
        self.save_for(dir, &std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()))
    }

    /// [`save`](Self::save) into `dir` for the league folder `league` (absolute), where `dir`
    /// will be renamed to (a merge's staging folder).
    fn save_for(&self, dir: &Path, league: &Path) -> Result<(), TournamentError> {
        let bots: Vec<BotVersion> = self
            .bots
            .iter()
            .map(|b| {
                let entry =
                    if b.kept { versions::kept_on_disk(&b.entry, &b.fingerprint, league) } else { b.entry.clone() };
                BotVersion { entry, ..b.clone() }
            })
            .collect();
        let mut history = self.history.clone();
        for version in history.values_mut().flat_map(|h| h.versions.iter_mut()) {
            if let Some(kept) = &version.kept {
                version.kept = Some(versions::kept_on_disk(kept, &version.fingerprint, league));
            }
        }
        let on_disk = OnDisk {
            config: &self.config,
            bots: &bots,
            failures: &self.failures,
            schedule: &self.schedule,
            history: &history,
            boards: &self.boards,
            folder: league,
            earlier: &self.earlier,
            shards: self.shards,
            slice: self.slice,
        };
        let json = serde_json::to_vec_pretty(&on_disk).map_err(|e| TournamentError::Invalid(e.to_string()))?;
        let path = dir.join(TOURNAMENT_FILE);
        write_atomic_as(&path, &json, record_mode(&path)).map_err(|e| TournamentError::io(&path, e))
    }

    /// The leaderboard of `results` (only those in the schedule count), with each bot's
    /// version and notes, the run facts, and links to the logs found in `dir`.
    pub fn leaderboard(&self, results: &[ResultLine], dir: &Path, games: &Registry) -> Leaderboard {
        self.leaderboard_of(&self.schedule, &self.failures, results, dir, None, games)
    }

    /// Marks the rows of the bots whose start failed matches of this run (`unstarted`: each
    /// with the first error), the error's paths shown as the league's pages show them (see
    /// [`Row::unstarted`](crate::standings::leaderboard::Row::unstarted)).
    pub fn mark_unstarted(&self, board: &mut Leaderboard, unstarted: &BTreeMap<String, String>, dir: &Path) {
        let shown = self.shown_paths(dir);
        for row in &mut board.rows {
            row.unstarted = unstarted.get(&row.bot).map(|why| shown.text(why));
        }
    }

    /// The standings as they were at `as_of`: each bot on its newest good version seen by
    /// then, and every result between those versions (under the current maps and limits).
    pub fn leaderboard_as_of(&self, results: &[ResultLine], dir: &Path, as_of: u64, games: &Registry) -> Leaderboard {
        let mut bots = Vec::new();
        let mut failures = BTreeMap::new();
        for entry in &self.config.bots {
            match self.history.get(&entry.name).and_then(|h| h.standing(Some(as_of))) {
                Some(v) => bots.push(BotVersion {
                    entry: entry.clone(),
                    fingerprint: v.fingerprint.clone(),
                    runnable: true,
                    kept: false,
                    built: None,
                }),
                None => {
                    failures.insert(entry.name.clone(), format!("no good version by {}", versions::time_text(as_of)));
                }
            }
        }
        let digests: Vec<String> = self.boards.iter().map(|b| b.digest.clone()).collect();
        let schedule = schedule::round_robin(&self.config, &bots, &digests, &[]);
        self.leaderboard_of(&schedule, &failures, results, dir, Some(as_of), games)
    }

    fn leaderboard_of(
        &self,
        schedule: &[ScheduledMatch],
        failures: &BTreeMap<String, String>,
        results: &[ResultLine],
        dir: &Path,
        as_of: Option<u64>,
        games: &Registry,
    ) -> Leaderboard {
        let maps = scheduled_maps(schedule);
        let mut seen = HashSet::new();
        // Each counted result on its scheduled match's map (the same content: keys hold its
        // digest), so that one kept from a league built in another folder is named like the rest.
        let counted: Vec<ResultLine> = results
            .iter()
            .filter_map(|r| {
                let map = maps.get(r.key.as_str())?;
                seen.insert(r.key.clone()).then(|| ResultLine { map: map.to_path_buf(), ..r.clone() })
            })
            .collect();
        let names: Vec<String> = self.config.bots.iter().map(|b| b.name.clone()).collect();
        // Why a bot cannot play names its folders as the config does, not by the teacher's paths.
        let shown = self.shown_paths(dir);
        let failures: BTreeMap<String, String> = failures.iter().map(|(b, why)| (b.clone(), shown.text(why))).collect();
        let wins_first = games.get(&self.config.game).is_ok_and(|g| g.ranks_by_wins());
        let mut board = leaderboard::compute(&leaderboard::Input {
            bots: &names,
            failures: &failures,
            results: &counted,
            scheduled: schedule.len(),
            wins_first,
            forfeits: self.config.forfeits,
            maps: &self.map_names(),
        });
        let played = Self::played_by_version(results, dir);
        for row in &mut board.rows {
            if let Some(h) = self.history.get(&row.bot) {
                row.version = h.standing(as_of).map(|v| v.label.clone());
                row.version_at = h.standing(as_of).map(|v| versions::time_text(h.first_seen(v)));
                row.versions = Self::versions_seen(&row.bot, h, as_of, &played);
                if as_of.is_none() {
                    row.note = h.note().map(|note| shown.text(&note));
                    row.build_log = h.latest().and_then(|v| v.build_log.clone());
                }
            }
            for m in &mut row.matches {
                let log = format!("logs/{}.log", m.key);
                m.log = dir.join(&log).is_file().then_some(log);
            }
        }
        let waiting: Vec<&str> = self.bots.iter().filter(|b| !b.runnable).map(|b| b.entry.name.as_str()).collect();
        for row in &mut board.rows {
            if as_of.is_none() && waiting.contains(&row.bot.as_str()) && row.matches.len() < self.matches_of(&row.bot) {
                let note = row.note.take().unwrap_or_default();
                row.note = Some(format!("{note}; its matches against new versions wait for a good build"));
            }
        }
        board.facts = Some(self.facts(self.last_change(&counted, as_of)));
        board
    }

    /// Bot name and fingerprint -> how many matches the results record that version playing in:
    /// those of `results` and of every results file in `dir` (once per key), the matches of
    /// versions no longer scheduled too (a run's own lines are only those that count).
    fn played_by_version(results: &[ResultLine], dir: &Path) -> HashMap<(String, String), usize> {
        /// What a result line says of its seats (the rest is skipped unread).
        #[derive(Deserialize)]
        struct Seats {
            key: String,
            seats: Vec<String>,
            #[serde(default)]
            versions: Vec<String>,
        }
        let mut seen = HashSet::new();
        let mut played: HashMap<(String, String), usize> = HashMap::new();
        let mut count = |key: &str, seats: &[String], fingerprints: &[String]| {
            if !seen.insert(key.to_string()) {
                return;
            }
            let mut pairs: Vec<(String, String)> = seats.iter().cloned().zip(fingerprints.iter().cloned()).collect();
            pairs.sort();
            pairs.dedup();
            for pair in pairs {
                *played.entry(pair).or_default() += 1;
            }
        };
        for r in results {
            count(&r.key, &r.seats, &r.versions);
        }
        // (Lines that do not parse, and files that cannot be read, were warned of by whoever read
        // the results: skipped here. Read as the results are, a FIFO or a link at once refused
        // and at most `MAX_RESULTS_BYTES`: a merge read a FIFO there, waiting for a writer past
        // its SIGTERM, and a link to `/dev/zero` until the memory ran out.)
        for path in results::files(dir) {
            let Ok((bytes, _)) = results::own_complete_part(&path) else { continue };
            for line in bytes.split(|&b| b == b'\n').filter(|l| l.len() <= results::MAX_LINE_BYTES) {
                if let Ok(s) = serde_json::from_slice::<Seats>(line) {
                    count(&s.key, &s.seats, &s.versions);
                }
            }
        }
        played
    }

    /// The versions of `bot` its page lists (those seen by `as_of`, if given), oldest first: one
    /// per distinct fingerprint and verdict, by its label, when it was first seen, and the matches
    /// `played` records of it (a version that did not build played none).
    fn versions_seen(
        bot: &str,
        history: &BotHistory,
        as_of: Option<u64>,
        played: &HashMap<(String, String), usize>,
    ) -> Vec<leaderboard::VersionSeen> {
        let standing = history.standing(as_of);
        let mut listed: Vec<(&str, bool)> = Vec::new();
        let mut out = Vec::new();
        for v in history.versions.iter().filter(|v| as_of.is_none_or(|t| v.at <= t)) {
            if listed.contains(&(v.fingerprint.as_str(), v.ok)) {
                continue;
            }
            listed.push((v.fingerprint.as_str(), v.ok));
            let of = |fingerprint: &str| played.get(&(bot.to_string(), fingerprint.to_string())).copied().unwrap_or(0);
            let matches = if v.ok { of(&v.fingerprint) + v.portable.as_deref().map_or(0, of) } else { 0 };
            out.push(leaderboard::VersionSeen {
                label: v.label.clone(),
                first_seen: versions::time_text(history.first_seen(v)),
                ok: v.ok,
                matches,
                current: standing.is_some_and(|s| s.ok == v.ok && s.fingerprint == v.fingerprint),
            });
        }
        out
    }

    /// Why the league has no match to play at all, when that is so: too few of its bots have a
    /// version that built for one match's seats (a league of `seats = 3` with two good builds
    /// would otherwise end "0 of 0 matches played" without a word).
    pub fn why_no_match(&self) -> Option<String> {
        if !self.schedule.is_empty() {
            return None;
        }
        let seats = self.config.seats();
        let ready: Vec<&str> = self.bots.iter().map(|b| b.entry.name.as_str()).collect();
        let failed: Vec<String> = self.failures.iter().map(|(name, why)| format!("{name}: {why}")).collect();
        Some(format!(
            "no match to play: a match needs {seats} bots with a good build, and {} of the league's {} have one{}{}",
            ready.len(),
            ready.len() + self.failures.len(),
            if ready.is_empty() { String::new() } else { format!(" ({})", ready.join(", ")) },
            if failed.is_empty() { String::new() } else { format!("; cannot play: {}", failed.join("; ")) }
        ))
    }

    fn matches_of(&self, bot: &str) -> usize {
        self.schedule.iter().filter(|m| m.seats.iter().any(|s| s == bot)).count()
    }

    /// The names the league's maps are shown by ([`MapNames`]), from the paths and digests
    /// the record holds: the same on every machine, whatever folder a command runs in.
    pub fn map_names(&self) -> MapNames {
        let base = self.config.base.as_deref();
        if self.boards.is_empty() {
            // (A record from before the digests were kept.)
            let boards = self.config.boards();
            MapNames::new(boards.iter().map(|p| (p.as_path(), "")), base)
        } else {
            MapNames::new(self.boards.iter().map(|b| (Path::new(&b.path), b.digest.as_str())), base)
        }
    }

    /// How the league in `dir` shows a path ([`ShownPaths`]): relative to the config's folder or
    /// to `dir`, the home folder as `~`, else by its last part.
    pub fn shown_paths(&self, dir: &Path) -> ShownPaths {
        let league = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let roots = self.config.base.iter().chain([&league]).chain(&self.earlier);
        ShownPaths::new(roots.map(PathBuf::as_path)).with_home(home.as_deref())
    }

    /// `lines` as they may be published: each map named as the pages name it (by its
    /// scheduled match's map, see [`TournamentRecord::leaderboard`]), not by its path.
    pub fn public_lines(&self, lines: &[ResultLine]) -> Vec<ResultLine> {
        let (names, maps) = (self.map_names(), scheduled_maps(&self.schedule));
        lines
            .iter()
            .map(|line| {
                let path = maps.get(line.key.as_str()).copied().unwrap_or(&line.map);
                ResultLine { map: PathBuf::from(names.name(path)), ..line.clone() }
            })
            .collect()
    }

    /// When the league last changed, by its own record: the newest end of its `counted` results
    /// and of its bots' versions (each seen first then), up to `as_of`. Its leaderboards are
    /// dated so, not by the clock, so that the same league gives the same pages whenever they
    /// are made (a run, `arena leaderboard`, a merge, a publish). A record with no time at all
    /// (from before they were kept) is dated now.
    pub fn last_change(&self, counted: &[ResultLine], as_of: Option<u64>) -> u64 {
        let results = counted.iter().map(|r| r.at);
        let versions = self.history.values().flat_map(|h| h.versions.iter().map(|v| v.at));
        results
            .chain(versions)
            .filter(|&t| t > 0 && as_of.is_none_or(|limit| t <= limit))
            .max()
            .unwrap_or_else(unix_secs)
    }

    /// The run facts: game, maps (by name), seed, limits, `date` (seconds since the Unix epoch,
    /// see [`TournamentRecord::last_change`]), arena version.
    pub fn facts(&self, date: u64) -> RunFacts {
        let names = self.map_names();
        RunFacts {
            game: self.config.game.clone(),
            maps: self
                .boards
                .iter()
                .map(|b| ShownMap { name: names.name(Path::new(&b.path)), digest: b.digest.clone() })
                .collect(),
            games: self.config.games,
            seed: self.config.seed,
            limits: self.config.limits.describe(),
            date: versions::time_text(date),
            arena_version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

/// Each scheduled match's map, by key.
fn scheduled_maps(schedule: &[ScheduledMatch]) -> HashMap<&str, &Path> {
    schedule.iter().map(|m| (m.key.as_str(), m.map.as_path())).collect()
}

/// Whether `a` and `b` are one folder: the same path, or the same real folder.
pub fn same_folder(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).is_ok_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// How a tournament run ended.
#[derive(Debug)]
pub struct Summary {
    /// The tournament folder.
    pub out: PathBuf,
    /// The leaderboard of every finished match.
    pub leaderboard: Leaderboard,
    /// Matches played in this run.
    pub played: usize,
    /// Finished matches found on disk and kept.
    pub kept: usize,
    /// Results on disk no longer counted because their bot, map or settings changed since they
    /// were played (every such result the folder holds, not only what this run superseded).
    pub dropped: usize,
    /// Matches that wait for a good build of one of their bots.
    pub waiting: usize,
    /// Matches that could not be started (their bot failed to spawn).
    pub failed: Vec<String>,
    /// Matches left for the next run because a bot that plays from its own files (no copy of
    /// its version could be kept) no longer fingerprinted as its recorded version.
    pub changed: usize,
    /// Ctrl-C, SIGTERM or SIGHUP stopped the run before every match was played.
    pub interrupted: bool,
    /// The shard this run played, if it was one.
    pub shard: Option<Shard>,
    /// Why the league has no match at all ([`TournamentRecord::why_no_match`]).
    pub why_no_match: Option<String>,
}

/// What a run does besides playing what is missing.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Continue the tournament in the output folder (else a folder with results is refused).
    pub resume: bool,
    /// Play only this slice of the schedule, without building: the league must have been
    /// prepared (`arena build`), and every bot's files must still match its fingerprint.
    pub shard: Option<Shard>,
    /// The prepared league a shard reads, when it writes to another folder.
    pub league: Option<PathBuf>,
    /// Build, fingerprint and schedule, but play nothing (`arena build`).
    pub prepare_only: bool,
    /// Match keys to play again, whatever their results.
    pub rerun: Vec<String>,
    /// The shard came from a Slurm array's environment (`--shard auto`), which cannot tell part
    /// of an array submitted again (`--array=1-2` of 4) from a whole array: checked against the
    /// split the league's folders show.
    pub shard_from_slurm: bool,
}

/// The largest league record read (`tournament.json`): that of the largest schedule a config
/// may have ([`config::MAX_SCHEDULED_MATCHES`], about 300 bytes a match), so that no league
/// the arena may build is left unreadable (64 MiB, 290,000 matches, was: 150 students on 7
/// maps); a file larger still is no league's, refused before it is read.
const MAX_RECORD_BYTES: u64 = 4 << 30;

/// Why `--rerun` is refused with `--shard`.
pub const RERUN_WITH_SHARD: &str = "--rerun is not for a shard: a shard plays only what the league's folder lacks, \
     and the merge keeps the league's results over a shard's; play a match again in the league's folder \
     (`arena tournament --resume LEAGUE --rerun KEY`), then merge";

/// Runs (or resumes) the tournament `config` in `out`, with the games of `games`, as a
/// pipeline of steps that report to `reporter`: plan (the league, its maps, versions and
/// schedule), reconcile (what is on disk against it), execute and record (the matches),
/// finish (the leaderboard).
pub fn run(
    config: TournamentConfig,
    out: &Path,
    options: &RunOptions,
    games: &Registry,
    reporter: &dyn Reporter,
    cancel: CancellationToken,
) -> Result<Summary, TournamentError> {
    if let Some(shard) = options.shard {
        // (A match played again is the league's to play: a shard plays only what the league
        // lacks, and its line never replaces the league's result, so a rerun there was lost.)
        if !options.rerun.is_empty() {
            return Err(TournamentError::Invalid(format!("shard {shard}: {RERUN_WITH_SHARD}")));
        }
        // A shard plays the league's record; of this run's config only the matches at once
        // (-j) are its own.
        return run_shard(shard, config.jobs, out, options, games, reporter, cancel);
    }
    let league = plan(config, out, options, games, reporter, &cancel)?;
    let plan = reconcile(&league, out, options, games)?;
    reporter.report(Event::Planned(&Plan { todo: &plan.todo, kept: plan.kept, waiting: plan.waiting, shard: None }))?;
    let Reconciled { mut done, todo, kept, waiting, superseded, valid_len } = plan;
    let Executed { played, failed, unstarted, changed } = if options.prepare_only {
        Executed::default()
    } else {
        let writer = ResultsWriter::open(&out.join(RESULTS_FILE), valid_len)?;
        let matches = Matches { todo, writer, out, league: out, check_live: true, reporter, cancel: &cancel };
        execute(&league.record, league.game, league.boards, matches, &mut done)?
    };
    // Finish.
    let mut leaderboard = league.record.leaderboard(&done, out, games);
    league.record.mark_unstarted(&mut leaderboard, &unstarted, out);
    write_leaderboard(out, &league_title(out), &leaderboard, &done, reporter)?;
    Ok(Summary {
        out: out.to_path_buf(),
        leaderboard,
        played,
        kept,
        dropped: superseded,
        waiting,
        failed,
        changed,
        interrupted: !options.prepare_only && cancel.is_cancelled(),
        shard: None,
        why_no_match: league.record.why_no_match(),
    })
}

/// The league a run plays, as its first step made it: the record saved, the maps read, the
/// folder locked (for as long as this lives).
struct League {
    record: TournamentRecord,
    existing: Vec<ResultLine>,
    game: &'static dyn Game,
    boards: BTreeMap<PathBuf, Board>,
    _lock: FolderLock,
}

/// Step 1, plan: checks the config and its maps, locks the folder, builds and fingerprints
/// the bots, schedules every match, and saves the record (reporting what changed).
fn plan(
    mut config: TournamentConfig,
    out: &Path,
    options: &RunOptions,
    games: &Registry,
    reporter: &dyn Reporter,
    cancel: &CancellationToken,
) -> Result<League, TournamentError> {
    let game = games.named_or_first(&config.game).map_err(|e| config.error(e.to_string()))?;
    config.game = game.name().to_string();
    // A config that can never play a match stops here, before anything is built or written.
    // (Maps a league resumed here recorded, which its matches' keys name, are its own.)
    let recorded = if options.resume && out.join(TOURNAMENT_FILE).exists() {
        TournamentRecord::read(out).map(|r| r.config.maps).unwrap_or_default()
    } else {
        Vec::new()
    };
    config.validate_recorded(game.info(), &recorded)?;
    // Every map is read once, here: every match plays these contents, whatever happens to the
    // files later. A bad map or board size is reported before anything is built, started or
    // written.
    let boards = load_boards(&config, game)?;
    let lock = FolderLock::claim(out, None, Duration::ZERO, &|| cancel.is_cancelled())?;
    // (Read, not checked: the config given now is what runs, and it was checked above; the old
    // record gives only its names, secret and history, and a setting it holds that no longer
    // validates is what the new config replaces.)
    let previous = if out.join(TOURNAMENT_FILE).exists() { Some(TournamentRecord::read(out)?) } else { None };
    let known: Vec<&str> = previous.iter().flat_map(|p| p.config.bots.iter().map(|b| b.name.as_str())).collect();
    config.check_names(&known)?;
    let existing = results::read_all(out)?;
    if !options.resume && (!existing.is_empty() || previous.is_some()) {
        return Err(TournamentError::Exists(out.to_path_buf()));
    }
    for overlap in submission::overlaps(&config.bots, config.base.as_deref(), config.secret_in_file, out) {
        tracing::warn!("{overlap}");
    }
    for holder in submission::holding_league(&config.bots, config.base.as_deref(), out) {
        tracing::warn!("{holder}");
    }
    // The bots' seeds are keyed with a secret no bot can work out: without one in the config,
    // the league draws its own and keeps it in its record (resumes and shards read it there).
    // A recorded empty secret (an arena before `secret = ""` was refused took one) is none, as
    // a config's would be: a new one is drawn (`changes` says so), whether the config is given
    // again or is the record's own (a plain `--resume DIR`).
    if config.secret.as_deref().is_none_or(str::is_empty) {
        let recorded = previous.as_ref().and_then(|p| p.config.secret.clone()).filter(|s| !s.is_empty());
        config.secret = recorded.or_else(|| Some(fresh_secret()));
    }
    refuse_foreign_links(out)?;
    remove_temporaries(out);

    let now = unix_secs();
    let mut history = previous.as_ref().map(|p| p.history.clone()).unwrap_or_default();
    let build_limits =
        SandboxLimits { cpu_seconds: config.build_limits().timeout.as_secs(), ..config.limits.sandbox_limits() };
    let builder = Sandbox::new(config.sandbox, build_limits)
        .map_err(|e| TournamentError::Invalid(e.to_string()))?
        .with_build_memory_mb(config.build_memory_mb());
    unboxed_builds(&config, &builder.isolation())?;
    // (What the command line shows of the builds: an error of its own stops nothing.)
    let steps = |step: build::Step<'_>| {
        let event = match step {
            build::Step::Start(bots) => Event::Building(bots),
            build::Step::End(bots, took, ended) => Event::Built { bots, took, ended },
        };
        if let Err(e) = reporter.report(event) {
            tracing::warn!("{e}");
        }
    };
    let (bots, failures) =
        versions::prepare(&config, &builder, out, now, &mut history, &|| cancel.is_cancelled(), &steps)?;
    let facts: Vec<MapFact> = config
        .boards()
        .iter()
        .map(|p| MapFact {
            path: p.display().to_string(),
            digest: boards.get(p).map_or_else(String::new, |b| b.digest.clone()),
        })
        .collect();
    let digests: Vec<String> = facts.iter().map(|f| f.digest.clone()).collect();
    let costs: Vec<u64> = config.boards().iter().map(|p| boards.get(p).map_or(1, |b| b.cost)).collect();
    let schedule = schedule::round_robin(&config, &bots, &digests, &costs);
    let record = TournamentRecord {
        config,
        bots,
        failures,
        schedule,
        history,
        boards: facts,
        folder: None,
        earlier: previous.as_ref().map(|p| p.earlier.clone()).unwrap_or_default(),
        // (A build starts a new split: the next array is whole.)
        shards: None,
        slice: None,
    };
    let lines = match &previous {
        Some(previous) => changes(previous, &record, out),
        // A first run says before it plays which bots cannot play, and why (else only its final
        // table did); `arena build` lists them itself.
        None if !options.prepare_only => first_run_failures(&record, out),
        None => Vec::new(),
    };
    if !lines.is_empty() {
        reporter.report(Event::Changed(&lines))?;
    }
    for note in same_files(&record) {
        reporter.report(Event::Warning(&note))?;
    }
    for key in &options.rerun {
        if !record.schedule.iter().any(|m| &m.key == key) {
            // Refused after the builds: their logs go, as no saved record links them.
            let (none, no_failures) = (BTreeMap::new(), BTreeMap::new());
            let (linked, failed) = previous.as_ref().map_or((&none, &no_failures), |p| (&p.history, &p.failures));
            versions::remove_unlinked_logs(out, linked, failed);
            return Err(TournamentError::Invalid(no_such_rerun(key, &existing, &record)));
        }
    }
    record.save(out)?;
    // (The record stamps what the builds left: they are no longer unrecorded.)
    let _ = std::fs::remove_file(out.join(versions::UNRECORDED_BUILDS));
    versions::remove_unlinked_logs(out, &record.history, &record.failures);
    versions::remove_unlisted_copies(out, &record.history);
    Ok(League { record, existing, game, boards, _lock: lock })
}

/// Why `--rerun key` plays nothing: no match of `record`'s schedule has that key. Where one of
/// the league's results (`existing`) has it, it is a match of an older version of a bot (a key
/// names its bots' versions) or of a bot no longer in the league: said so, by the versions'
/// labels, with the key of the match of the same seats, map and game the league plays now.
fn no_such_rerun(key: &str, existing: &[ResultLine], record: &TournamentRecord) -> String {
    let shown = crate::safe_text::terminal(key);
    let Some(old) = existing.iter().rev().find(|l| l.key == key) else {
        return format!("--rerun {shown}: no such match in the schedule (a match's key is its replay's name)");
    };
    let mut older = Vec::new();
    for (seat, name) in old.seats.iter().enumerate() {
        let who = crate::safe_text::terminal(name);
        let Some(now) = record.bots.iter().find(|b| &b.entry.name == name) else {
            older.push(format!("{who}, no longer in the league"));
            continue;
        };
        let Some(then) = old.versions.get(seat).filter(|fp| **fp != now.fingerprint) else { continue };
        let label = |fp: &str| {
            let label = record.history.get(name).and_then(|h| h.label_of(fp)).unwrap_or(fp);
            crate::safe_text::terminal(label)
        };
        older.push(format!("{who} {} (the league plays {} now)", label(then), label(&now.fingerprint)));
    }
    let what = if older.is_empty() {
        "a match the league no longer schedules (its map or its bots changed since)".to_string()
    } else {
        format!("a match of an older version: {}", older.join(", "))
    };
    let current = record
        .schedule
        .iter()
        .find(|m| m.seats == old.seats && m.map == old.map && m.game == old.game)
        .map_or_else(String::new, |m| {
            format!("; the same seats, map and game now: `--rerun {}`", crate::safe_text::terminal(&m.key))
        });
    format!("--rerun {shown}: {what}. Its result is kept as history, not counted, and is not played again{current}")
}

/// What the second step found: the results that count, the matches still to play.
struct Reconciled {
    done: Vec<ResultLine>,
    todo: Vec<ScheduledMatch>,
    kept: usize,
    waiting: usize,
    /// Results on disk the schedule no longer counts (all of them, not only what this run's
    /// changes superseded: an `arena build` or a run killed after its record was saved changed
    /// the schedule before this run looked).
    superseded: usize,
    /// The valid length of `results.jsonl`, where appending goes on.
    valid_len: u64,
}

/// Step 2, reconcile: keeps what is scheduled (once per key, wherever a duplicate stands, and
/// only with its replay on disk, agreeing) and, as history, what no longer is; drops what is
/// re-run; folds shards' results files into the main one.
fn reconcile(
    league: &League,
    out: &Path,
    options: &RunOptions,
    games: &Registry,
) -> Result<Reconciled, TournamentError> {
    let record = &league.record;
    let jobs = check_jobs(record.config.jobs);
    let sorted = sort_results(record, league.existing.clone(), out, &options.rerun, games, jobs);
    let main = out.join(RESULTS_FILE);
    let shard_files: Vec<PathBuf> = results::files(out).into_iter().filter(|f| *f != main).collect();
    let valid_len = if sorted.dropped > 0 || !shard_files.is_empty() || !main.exists() {
        // Shards' files are folded into the main file (then removed: a crash in between only
        // leaves duplicates, which are dropped).
        let mut all = sorted.done.clone();
        all.extend(sorted.history.iter().cloned());
        let len = results::rewrite(&main, &all)?;
        for f in &shard_files {
            let _ = std::fs::remove_file(f);
        }
        len
    } else {
        results::read_file(&main)?.1
    };
    let done_keys: HashSet<String> = sorted.done.iter().map(|r| r.key.clone()).collect();
    let (todo, waiting) = to_play(record, &done_keys, |_| true);
    let superseded = sorted.history.len();
    Ok(Reconciled { kept: sorted.done.len(), done: sorted.done, todo, waiting, superseded, valid_len })
}

/// One shard of a prepared league: checks the bots' fingerprints and the maps against the
/// league's record, then plays its slice of what is missing, writing its own results file.
fn run_shard(
    shard: Shard,
    jobs: Option<usize>,
    out: &Path,
    options: &RunOptions,
    games: &Registry,
    reporter: &dyn Reporter,
    cancel: CancellationToken,
) -> Result<Summary, TournamentError> {
    let source = options.league.clone().unwrap_or_else(|| out.to_path_buf());
    if !source.join(TOURNAMENT_FILE).exists() {
        return Err(TournamentError::Invalid(format!(
            "{}: no tournament.json: a shard plays a league prepared by `arena build CONFIG --out {}`",
            source.display(),
            source.display()
        )));
    }
    let mut record = TournamentRecord::load(&source, games)?;
    if let Some(why) = shard.beyond(record.schedule.len()) {
        return Err(TournamentError::Invalid(format!("shard {shard}: {why}; nothing was written")));
    }
    // (A shard's own folder played in place by another shard: its results would lie in a folder
    // whose record gives it to the first, and the merge takes none of them from there.)
    if let Some(other) = record.slice.filter(|&other| other != shard && source == out) {
        return Err(TournamentError::Invalid(format!(
            "shard {shard}: {} is the folder of shard {other}: give each shard its own --out, or the league's folder",
            out.display()
        )));
    }
    // A shard's own folder inside a bot's: the build fingerprinted that folder without it (or
    // with what it held then), and without the other shards' folders made there since, so the
    // bot would read as changed; refused before anything is written there.
    // (Whether it plays from the league's copy or not: its next build would take the shard's
    // folder for its files.)
    let runnable: HashSet<&str> = record.bots.iter().filter(|b| b.runnable).map(|b| b.entry.name.as_str()).collect();
    let played: Vec<&config::BotEntry> =
        record.config.bots.iter().filter(|b| runnable.contains(b.name.as_str())).collect();
    if let Some((bot, folder)) = submission::folder_holding(&played, out, &source) {
        return Err(TournamentError::Invalid(format!(
            "shard {shard}: --out {} lies inside bot `{}`'s folder ({}): what the shard writes there would make \
             the bot a version `arena build` did not fingerprint; give the shard an --out outside every bot's folder",
            crate::safe_text::terminal_cut(&out.display().to_string(), 200),
            crate::safe_text::terminal_cut(&bot.name, 60),
            crate::safe_text::terminal_cut(&folder.display().to_string(), 200)
        )));
    }
    // (Nor inside the league's copies, which its bots play from, as their own folders.)
    if let Some(copies) = submission::copies_holding(out, &source) {
        return Err(TournamentError::Invalid(format!(
            "shard {shard}: --out {} lies inside the league's kept copies of its bots' versions ({}): what the \
             shard writes there would land in the folders the bots play from; give the shard an --out outside \
             them (and outside every bot's folder)",
            crate::safe_text::terminal_cut(&out.display().to_string(), 200),
            crate::safe_text::terminal_cut(&copies.display().to_string(), 200)
        )));
    }
    // (Nor inside the league's own folder, where it is not the league's folder itself (a shared
    // folder): its copy of the league's record, which holds the secret, and its results would
    // lie in the league's pages and logs, which `arena publish` copies.)
    let (source_real, out_real) = (submission::real_path(&source), submission::real_path(out));
    if out_real != source_real && out_real.starts_with(&source_real) {
        return Err(TournamentError::Invalid(format!(
            "shard {shard}: --out {} lies inside the league's folder {}: a shard's folder holds a copy of the \
             league's record (with its secret), which must not land in the folders the league publishes; give the \
             shard an --out outside the league's folder (or the league's folder itself, shared by the shards)",
            crate::safe_text::terminal_cut(&out.display().to_string(), 200),
            crate::safe_text::terminal_cut(&source.display().to_string(), 200)
        )));
    }
    if options.shard_from_slurm {
        if let Some(split) = other_split(&record, &[&source, out], shard) {
            return Err(TournamentError::Invalid(format!(
                "shard {shard} (--shard auto, a Slurm array of {count} tasks): the league is split into {split} \
                 shards ({}), so this array is part of one submitted again, which Slurm cannot tell from a whole \
                 array: give the task's shard as --shard {index}/{split} (deploy/slurm/league.sbatch does), or \
                 --shard {index}/{count} to split the league anew",
                if record.shards == Some(split) { "its last merge" } else { "its shards' results files" },
                count = shard.count,
                index = shard.index,
            )));
        }
    }
    let game = games.get(&record.config.game)?;
    let boards = load_boards(&record.config, game)?;
    // (As its build did, the league's folders are no part of a bot whose folder holds them.)
    let left_out = submission::LeftOut::league(&[&source, out]);
    let changed: Vec<String> = record
        .bots
        .iter()
        .filter(|b| b.runnable)
        .filter_map(|bot| Some(format!("{} ({})", bot.entry.name, record.not_as_built(bot, &left_out)?)))
        .collect();
    if !changed.is_empty() {
        return Err(TournamentError::Invalid(format!(
            "shard {shard}: bots changed since the league was built: {}; run `arena build` again before the shards",
            changed.join(", ")
        )));
    }
    for fact in &record.boards {
        let now = boards.get(Path::new(&fact.path)).map(|b| b.digest.as_str());
        if now != Some(fact.digest.as_str()) {
            return Err(TournamentError::Invalid(format!(
                "shard {shard}: map {} changed since the league was built; run `arena build` again",
                fact.path
            )));
        }
    }
    let _lock = FolderLock::claim(out, Some(shard), BATCH_LOCK_WAIT, &|| cancel.is_cancelled())?;
    if source != out {
        // A folder of another build of the league (the same config built again has the same
        // matches, with other seeds) is not taken over: its results would pass for this one's.
        let theirs = if out.join(TOURNAMENT_FILE).exists() { Some(TournamentRecord::load(out, games)?) } else { None };
        if theirs.as_ref().is_some_and(|t| t.config.seat_secret() != record.config.seat_secret()) {
            return Err(TournamentError::Invalid(format!(
                "shard {shard}: {} holds a shard of another build of the league than {} (its secret differs): \
                 give the shard a new --out",
                out.display(),
                source.display()
            )));
        }
        // (Each shard's folder is its own: the merge takes from it only the slice it records.)
        if let Some(other) = theirs.and_then(|t| t.slice).filter(|&other| other != shard) {
            return Err(TournamentError::Invalid(format!(
                "shard {shard}: {} is the folder of shard {other}: give each shard its own --out",
                out.display()
            )));
        }
        record.slice = Some(shard);
        record.save(out)?;
    }
    let existing = results::read_all(out)?;
    let checking = check_jobs(jobs.or(record.config.jobs));
    let sorted = sort_results(&record, existing, out, &[], games, checking);
    let mine = out.join(shard.results_file());
    let (own, mut valid_len) = results::read_file(&mine)?;
    // What the folder holds of the league before its last build (results no longer scheduled)
    // is kept too, as a whole run keeps it: the merge takes it into the league's history.
    let kept_keys: HashSet<&str> = sorted.done.iter().chain(&sorted.history).map(|r| r.key.as_str()).collect();
    let own_kept: Vec<ResultLine> = own.iter().filter(|l| kept_keys.contains(l.key.as_str())).cloned().collect();
    if own_kept.len() != own.len() {
        // Only what this shard wrote is this shard's to rewrite.
        let mut seen = HashSet::new();
        let own_kept: Vec<ResultLine> = own_kept.into_iter().filter(|l| seen.insert(l.key.clone())).collect();
        valid_len = results::rewrite(&mine, &own_kept)?;
    }
    let slices = schedule::slices(&record.schedule, shard.count);
    let mut done_keys: HashSet<String> = sorted.done.iter().map(|r| r.key.clone()).collect();
    if source != out {
        // What the league's folder already holds of this slice (an earlier week's, merged) is
        // not played again: a shard in a folder of its own played its whole slice every run.
        // Checked as the folder's own are, it stays there for the merge, which takes the
        // league's folder too (`arena merge OUT LEAGUE SHARD_DIR…`).
        let in_slice = |l: &ResultLine| slices.get(&l.key) == Some(&shard.index) && !done_keys.contains(&l.key);
        let held: Vec<ResultLine> = results::read_all(&source)?.into_iter().filter(in_slice).collect();
        done_keys.extend(sort_results(&record, held, &source, &[], games, checking).done.into_iter().map(|r| r.key));
    }
    let (todo, waiting) = to_play(&record, &done_keys, |m| slices.get(&m.key) == Some(&shard.index));
    let mine_total = slices.values().filter(|k| **k == shard.index).count();
    let kept = mine_total - todo.len() - waiting;
    let shard_plan = Some((shard, mine_total, record.schedule.len()));
    reporter.report(Event::Planned(&Plan { todo: &todo, kept, waiting, shard: shard_plan }))?;
    let writer = ResultsWriter::open(&mine, valid_len)?;
    record.config.jobs = jobs.or(record.config.jobs);
    let mut done = sorted.done;
    let matches = Matches { todo, writer, out, league: &source, check_live: true, reporter, cancel: &cancel };
    let Executed { played, failed, unstarted, changed } = execute(&record, game, boards, matches, &mut done)?;
    let mut leaderboard = record.leaderboard(&done, out, games);
    record.mark_unstarted(&mut leaderboard, &unstarted, out);
    Ok(Summary {
        out: out.to_path_buf(),
        leaderboard,
        played,
        kept,
        dropped: 0,
        waiting,
        failed,
        changed,
        interrupted: cancel.is_cancelled(),
        shard: Some(shard),
        why_no_match: record.why_no_match(),
    })
}

/// The shard count the league's split shows other than `shard`'s, if it shows one: its last
/// merge's (recorded in `record`), else its shards' results files in `dirs`.
fn other_split(record: &TournamentRecord, dirs: &[&Path], shard: Shard) -> Option<usize> {
    let files = dirs.iter().flat_map(|d| results::files(d));
    let counts = files.filter_map(|f| f.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file));
    record.shards.into_iter().chain(counts.map(|s| s.count)).find(|&count| count != shard.count)
}

/// Results found on disk, sorted out against a record.
struct Sorted {
    /// Scheduled results to keep, once per key.
    done: Vec<ResultLine>,
    /// Results no longer scheduled (earlier versions, removed bots), once per key: kept on
    /// disk, not counted.
    history: Vec<ResultLine>,
    /// Lines dropped: duplicates, results that are not their match's (see [`vouch`]), re-runs.
    dropped: usize,
    /// The results dropped as not their match's, in their order: each one's key and why.
    why: Vec<(String, String)>,
}

/// Sorts out `existing`, the results in `out`: each kept one is checked as a merge checks a
/// shard's ([`vouch::Vouch`]: its replay re-simulated too, half a millisecond of CPU each
/// for a duel, on `jobs` threads), and one that fails is played again.
fn sort_results(
    record: &TournamentRecord,
    existing: Vec<ResultLine>,
    out: &Path,
    rerun: &[String],
    games: &Registry,
    jobs: usize,
) -> Sorted {
    #[derive(PartialEq)]
    enum Fate {
        Rerun,
        Duplicate,
        History,
        Checked,
    }
    let keys: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
    let mut seen = HashSet::new();
    let fates: Vec<Fate> = existing
        .iter()
        .map(|line| {
            if rerun.contains(&line.key) {
                Fate::Rerun
            } else if !seen.insert(line.key.as_str()) {
                Fate::Duplicate
            } else if !keys.contains(line.key.as_str()) {
                Fate::History
            } else {
                Fate::Checked
            }
        })
        .collect();
    let mut vouch = vouch::Vouch::new(record, games);
    let to_check: Vec<(&Path, &ResultLine)> =
        existing.iter().zip(&fates).filter(|(_, fate)| **fate == Fate::Checked).map(|(line, _)| (out, line)).collect();
    let mut checked = vouch.check_all(&to_check, jobs).into_iter();
    let mut sorted = Sorted { done: Vec::new(), history: Vec::new(), dropped: 0, why: Vec::new() };
    for (line, fate) in existing.into_iter().zip(fates) {
        match fate {
            Fate::Rerun => {
                tracing::info!(key = %line.key, "playing it again (--rerun)");
                sorted.dropped += 1;
            }
            Fate::Duplicate => {
                tracing::warn!(key = %line.key, "dropping a duplicate result line");
                sorted.dropped += 1;
            }
            Fate::History => sorted.history.push(line),
            Fate::Checked => match checked.next().and_then(|c| vouch.settle(c)) {
                Some(why) => {
                    let why = crate::safe_text::terminal_line(&why);
                    tracing::warn!(key = %line.key, "{why}: playing it again");
                    sorted.why.push((line.key, why));
                    sorted.dropped += 1;
                }
                None => sorted.done.push(line),
            },
        }
    }
    sorted
}

/// How many threads check a league's results: the run's `jobs` where it is set (`-j`, the
/// config), else the cores this process may use, and never more than those.
fn check_jobs(jobs: Option<usize>) -> usize {
    // (Never more than the cores: each thread may hold a replay of up to 64 MiB, parsed.)
    let cores = crate::referee::cpus::allowed().len().max(1);
    jobs.unwrap_or(cores).clamp(1, cores)
}

/// Refuses a league whose students' builds would run without a box because `auto` could make
/// none here (a runner's user where user namespaces are restricted: Ubuntu 24.04's AppArmor):
/// a build is a student's program, run without a box as the arena's user (confined by
/// Landlock at most, where the kernel has it), which could replace what later runs as root. `--sandbox plain` runs them so on purpose; the embedded default's
/// builds (the arena's own sample bots, [`TournamentConfig::own_build`]) and bots' matches
/// under `auto` still fall back (a keeper ends what they leave, resource limits hold).
fn unboxed_builds(config: &TournamentConfig, isolation: &crate::sandbox::Isolation) -> Result<(), TournamentError> {
    let built: Vec<&str> =
        config.bots.iter().filter(|b| b.build.is_some() && !config.own_build(b)).map(|b| b.name.as_str()).collect();
    if config.sandbox != crate::sandbox::SandboxMode::Auto || isolation.boxed || built.is_empty() {
        return Ok(());
    }
    Err(TournamentError::Invalid(format!(
        "the bots' builds ({}) would run without a box, as this user: {}. Run the arena where it can make boxes \
         (as root: `sudo arena …`; or where unprivileged user namespaces are allowed), or allow unboxed builds and \
         matches with --sandbox plain (`sandbox = \"plain\"` in the config)",
        built.join(", "),
        isolation.missing.join("; ")
    )))
}

/// The scheduled matches still to play (those `pick` selects), and how many of them wait for
/// a good build of one of their bots.
fn to_play(
    record: &TournamentRecord,
    done: &HashSet<String>,
    pick: impl Fn(&ScheduledMatch) -> bool,
) -> (Vec<ScheduledMatch>, usize) {
    let runnable: HashSet<&str> = record.bots.iter().filter(|b| b.runnable).map(|b| b.entry.name.as_str()).collect();
    let missing = record.schedule.iter().filter(|m| pick(m) && !done.contains(&m.key));
    let (todo, waiting): (Vec<&ScheduledMatch>, Vec<&ScheduledMatch>) =
        missing.partition(|m| m.seats.iter().all(|s| runnable.contains(s.as_str())));
    (todo.into_iter().cloned().collect(), waiting.len())
}

/// The bots of a new league that cannot play, one line each with why (its folders named as
/// the config names them, as the leaderboard does).
fn first_run_failures(record: &TournamentRecord, out: &Path) -> Vec<String> {
    let shown = record.shown_paths(out);
    record.failures.iter().map(|(name, why)| format!("{name} cannot play: {}", shown.text(why))).collect()
}

/// A note for each group of bots that play the same files (their fingerprints alike: command,
/// build and every file), for a teacher to look into: a student may have handed in another's
/// code. Only said, never refused (a teacher may list one program twice on purpose).
fn same_files(record: &TournamentRecord) -> Vec<String> {
    let mut by_files: Vec<(&str, Vec<String>)> = Vec::new();
    for bot in &record.bots {
        let name = crate::safe_text::terminal_cut(&bot.entry.name, 60);
        match by_files.iter_mut().find(|(f, _)| *f == bot.fingerprint) {
            Some((_, names)) => names.push(name),
            None => by_files.push((&bot.fingerprint, vec![name])),
        }
    }
    by_files
        .into_iter()
        .filter_map(|(_, names)| {
            let (last, first) = names.split_last()?;
            (!first.is_empty()).then(|| {
                format!(
                    "note: {} and {last} have the same files (command, build and every file alike): a copy? for a \
                     teacher to look into",
                    first.join(", ")
                )
            })
        })
        .collect()
}

/// What changed from `old` to `new` (the league in `out`), in words, and what it re-runs.
fn changes(old: &TournamentRecord, new: &TournamentRecord, out_dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let names = |r: &TournamentRecord| -> Vec<String> { r.config.bots.iter().map(|b| b.name.clone()).collect() };
    let (before, after) = (names(old), names(new));
    let fp = |r: &TournamentRecord, n: &str| r.bots.iter().find(|b| b.entry.name == n).map(|b| b.fingerprint.clone());
    let mut added: Vec<&String> = after.iter().filter(|n| !before.contains(n)).collect();
    let mut removed: Vec<&String> = before.iter().filter(|n| !after.contains(n)).collect();
    // A bot the league had before and left (by --exclude, or a config without it) comes back
    // when the roster given now lists it: said so, as --exclude lasts only until then.
    let mut back: Vec<&String> = added.iter().copied().filter(|n| old.history.contains_key(*n)).collect();
    added.retain(|n| !back.contains(n));
    // A bot gone and one new (or back) with the same files, each the only one: most likely a
    // rename. Results are kept by name (a match's key, its seed and its replay name its bots),
    // so a new name's matches are played, and a name the league had (renamed back) finds its
    // results again; said as one change, so that the run is no surprise.
    let same = |n: &&String, f: &String, r: &TournamentRecord| fp(r, n).as_ref() == Some(f);
    let renamed: Vec<(&String, &String)> = removed
        .iter()
        .filter_map(|gone| {
            let f = fp(old, gone)?;
            let new_ones: Vec<&&String> = added.iter().chain(&back).filter(|n| same(n, &f, new)).collect();
            let gone_ones = removed.iter().filter(|n| same(n, &f, old)).count();
            (new_ones.len() == 1 && gone_ones == 1).then(|| (*gone, *new_ones[0]))
        })
        .collect();
    for (gone, renamed_to) in &renamed {
        if back.contains(renamed_to) {
            out.push(format!(
                "{renamed_to} is back and {gone} is gone, with the same files (renamed back?): {renamed_to}'s \
                 results still current count again, its other matches are played, and {gone}'s results stay on \
                 disk, no longer counted"
            ));
        } else {
            let matches = new.schedule.iter().filter(|m| m.seats.contains(renamed_to)).count();
            let are = if matches == 1 { "is" } else { "are" };
            let matches = crate::safe_text::count(matches, "match", "matches");
            out.push(format!(
                "{renamed_to} is new and {gone} is gone, with the same files (renamed?): results are kept by name \
                 (a match's key, seed and replay name its bots), so {renamed_to}'s {matches} {are} played, \
                 and {gone}'s results stay on disk, no longer counted"
            ));
        }
        added.retain(|n| n != renamed_to);
        back.retain(|n| n != renamed_to);
        removed.retain(|n| n != gone);
    }
    if old.config.secret.as_deref() == Some("") && new.config.secret.as_deref() != Some("") {
        let from = if new.config.secret_in_file {
            "the config's `secret`"
        } else {
            "a new one, drawn and kept in its tournament.json"
        };
        out.push(format!(
            "secret: the league's recorded `secret` is empty, which keys the bots' seeds (ARENA_SEED) with nothing \
             secret (an older arena took `secret = \"\"`); the matches played from now on key them with {from}"
        ));
    }
    if !back.is_empty() {
        out.push(format!(
            "bots back in the league: {} (they had left it, by --exclude or a config, and the roster given now \
             lists them: remove them from the config to keep them out); their results still current count again, \
             their other matches are played",
            join(&back)
        ));
    }
    // (One that cannot play is said so, not that its matches are played.)
    let (failed, playing): (Vec<&String>, Vec<&String>) = added.iter().partition(|n| new.failures.contains_key(**n));
    if !playing.is_empty() {
        out.push(format!("bots added: {} (their matches are played)", join(&playing)));
    }
    let shown = new.shown_paths(out_dir);
    for name in failed {
        let why = new.failures.get(name).map_or("", String::as_str);
        out.push(format!("bot added: {name}, which cannot play: {}", shown.text(why)));
    }
    if !removed.is_empty() {
        out.push(format!("bots removed: {} (their results are kept on disk, no longer counted)", join(&removed)));
    }
    let changed: Vec<&String> =
        after.iter().filter(|n| before.contains(n) && fp(old, n).is_some() && fp(old, n) != fp(new, n)).collect();
    // Files the league had as a good version (a student's revert) are that version again, not
    // a new one: said with its label, as the leaderboard shows it.
    let earlier = |n: &str| -> Option<String> {
        let now = fp(new, n)?;
        let h = old.history.get(n)?;
        let same = |v: &&Version| v.ok && (v.fingerprint == now || v.portable.as_deref() == Some(now.as_str()));
        h.versions.iter().find(same).map(|v| h.describe(v))
    };
    let (back_to, versions): (Vec<&String>, Vec<&String>) = changed.iter().partition(|n| earlier(n).is_some());
    if !versions.is_empty() {
        // Each with its labels, as the leaderboard shows them (`alice v1 -> v2 0dbb175`).
        let label = |r: &TournamentRecord, n: &str| -> Option<String> {
            r.history.get(n)?.label_of(&fp(r, n)?).map(str::to_string)
        };
        let said: Vec<String> = versions
            .iter()
            .map(|n| match (label(old, n), label(new, n)) {
                (Some(was), Some(is)) => format!("{n} {was} -> {is}"),
                (None, Some(is)) => format!("{n} {is}"),
                _ => n.to_string(),
            })
            .collect();
        out.push(format!("new versions: {} (their matches are played again)", said.join(", ")));
    }
    for name in back_to {
        let was = earlier(name).unwrap_or_default();
        out.push(format!(
            "{name}: back to {was}, a version the league had (its results still current count again, its other \
             matches are played)"
        ));
    }
    // A bot that never played (its every version failed) and now builds: its first version.
    for name in after.iter().filter(|n| before.contains(n) && fp(old, n).is_none()) {
        let never = old.history.get(name).is_none_or(|h| h.standing(None).is_none());
        let standing = new.history.get(name).and_then(|h| h.standing(None).map(|v| h.describe(v)));
        if let (true, Some(first)) = (never, standing) {
            out.push(format!("{name}: builds and starts now, as {first} (its matches are played)"));
        }
    }
    for (name, h) in &new.history {
        if !after.contains(name) {
            continue;
        }
        match (h.note(), old.history.get(name).and_then(BotHistory::note), h.standing(None)) {
            (Some(note), _, _) => out.push(format!("{name}: {note}")),
            (None, Some(_), Some(standing)) => {
                out.push(format!("{name}: builds and starts again, standing on {}", h.describe(standing)))
            }
            _ => {}
        }
    }
    // (By name and content: the same maps in a moved folder are no change.)
    let maps = |r: &TournamentRecord| -> BTreeMap<String, String> {
        let names = r.map_names();
        r.boards.iter().map(|b| (names.name(Path::new(&b.path)), b.digest.clone())).collect()
    };
    let (maps_before, maps_after) = (maps(old), maps(new));
    if maps_before != maps_after {
        let which = |what: &str, names: Vec<&String>| {
            (!names.is_empty())
                .then(|| format!("{what} {}", names.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", ")))
        };
        let said: Vec<String> = [
            which("added", maps_after.keys().filter(|n| !maps_before.contains_key(*n)).collect()),
            which("removed", maps_before.keys().filter(|n| !maps_after.contains_key(*n)).collect()),
            which(
                "changed",
                maps_after
                    .iter()
                    .filter(|(n, d)| maps_before.get(*n).is_some_and(|b| b != *d))
                    .map(|(n, _)| n)
                    .collect(),
            ),
        ]
        .into_iter()
        .flatten()
        .collect();
        out.push(format!("maps changed ({}): the matches on new or changed maps are played", said.join("; ")));
    }
    let (a, b) = (&old.config, &new.config);
    // (Only the referee's limits are in a match's key, as resolved: a default written out
    // changes nothing.)
    let settings = settings_changed(a, b);
    if !settings.is_empty() {
        out.push(format!("game settings changed ({}): every match is played again", settings.join(", ")));
    }
    if a.limits.sandbox_limits() != b.limits.sandbox_limits() {
        out.push("the boxes' resource limits changed: they apply to the matches played from now on".to_string());
    }
    if a.games != b.games {
        out.push(format!("games per pairing and map: {} -> {}", a.games, b.games));
    }
    if a.forfeits != b.forfeits {
        out.push(format!("forfeit rule: {:?} -> {:?} (no match re-runs)", a.forfeits, b.forfeits));
    }
    out
}

/// The settings in a match's key that differ from `a` to `b`, each by its config key with its
/// values (`move_ms 300 -> 400`): the limits as resolved (a default written out is no change),
/// the seed, the game, the seats and the game's parameters.
fn settings_changed(a: &TournamentConfig, b: &TournamentConfig) -> Vec<String> {
    let (la, lb) = (a.limits.limits(), b.limits.limits());
    let ms = |d: Duration| d.as_millis().to_string();
    let param = |c: &TournamentConfig, k: &str| c.params.get(k).map_or_else(|| "(unset)".to_string(), Clone::clone);
    let mut pairs: Vec<(String, String, String)> = vec![
        ("game".into(), a.game.clone(), b.game.clone()),
        ("seed".into(), a.seed.to_string(), b.seed.to_string()),
        ("seats".into(), a.seats().to_string(), b.seats().to_string()),
        ("startup_ms".into(), ms(la.startup), ms(lb.startup)),
        ("move_ms".into(), ms(la.per_move), ms(lb.per_move)),
        ("total_ms".into(), ms(la.total), ms(lb.total)),
        ("grace_ms".into(), ms(la.grace), ms(lb.grace)),
        ("max_line".into(), la.max_line.to_string(), lb.max_line.to_string()),
        ("clock".into(), la.clock.to_string(), lb.clock.to_string()),
        ("backstop_factor".into(), la.backstop_factor.to_string(), lb.backstop_factor.to_string()),
        ("stderr_rate".into(), la.stderr_rate.to_string(), lb.stderr_rate.to_string()),
    ];
    let keys: BTreeSet<&String> = a.params.keys().chain(b.params.keys()).collect();
    pairs.extend(keys.into_iter().map(|k| (format!("params.{k}"), param(a, k), param(b, k))));
    let mut said: Vec<String> = pairs
        .into_iter()
        .filter(|(_, was, is)| was != is)
        .map(|(key, was, is)| {
            format!("{key} {} -> {}", crate::safe_text::terminal_cut(&was, 40), crate::safe_text::terminal_cut(&is, 40))
        })
        .collect();
    // (Anything else of the limits in a match's key, should one be added without a name here.)
    if said.is_empty() && la != lb {
        said.push("limits".to_string());
    }
    said
}

fn join(names: &[&String]) -> String {
    names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

/// The matches a run plays, where their results go, and whom it tells.
struct Matches<'a> {
    todo: Vec<ScheduledMatch>,
    writer: ResultsWriter,
    out: &'a Path,
    /// The league's folder (a shard's `--league`, else `out`): no part of a bot's files.
    league: &'a Path,
    /// Whether a bot playing from its own files is checked around each match (see
    /// [`LiveBots`]): always, but in a test's control.
    check_live: bool,
    reporter: &'a dyn Reporter,
    cancel: &'a CancellationToken,
}

/// What step 3 did: matches played, those that could not be started, and those left for the
/// next run because a bot playing from its own files changed ([`Summary::changed`]).
#[derive(Debug, Default)]
struct Executed {
    played: usize,
    failed: Vec<String>,
    /// The bots whose start failed a match, each with the first such error.
    unstarted: BTreeMap<String, String>,
    changed: usize,
}

/// A match as a worker hands it over: played (or not startable), or `None`, left for the next
/// run (one of its bots plays from its own files, which no longer hold its recorded version).
type Outcome = Option<Result<(ResultLine, PlayedMatch), RefereeError>>;

/// The bots a run plays from their own files, for want of a kept copy of their version: each
/// of their matches is played, and recorded, only while their files still fingerprint as that
/// version, checked before it starts and once it ended. A bot found changed plays no more.
struct LiveBots<'a> {
    record: &'a TournamentRecord,
    left_out: submission::LeftOut,
    /// Whether to check them (always, but in a test's control).
    check: bool,
    /// The bots found changed, with why.
    changed: Mutex<BTreeMap<String, String>>,
}

impl LiveBots<'_> {
    /// Whether every bot of `m` that plays from its own files still holds its recorded version;
    /// says it (once per bot) of one that does not.
    fn as_built(&self, m: &ScheduledMatch, tell: &dyn Fn(Event<'_>)) -> bool {
        let live = self.record.bots.iter().filter(|b| self.check && !b.kept && m.seats.contains(&b.entry.name));
        for bot in live {
            let name = &bot.entry.name;
            let known = self.changed.lock().unwrap_or_else(|p| p.into_inner()).contains_key(name);
            if known {
                return false;
            }
            let Some(why) = self.record.not_as_built(bot, &self.left_out) else { continue };
            let first = self.changed.lock().unwrap_or_else(|p| p.into_inner()).insert(name.clone(), why.clone());
            if first.is_none() {
                let text = format!(
                    "bot `{}` plays from its own files (the league has no copy of its version), which changed \
                     during the run ({}): its matches still to play are left for the next run, which builds it \
                     anew",
                    crate::safe_text::terminal_cut(name, 60),
                    crate::safe_text::terminal_line(&why)
                );
                // (Told once, to the reporter, which shows it: not logged besides.)
                tell(Event::Warning(&text));
            }
            return false;
        }
        true
    }
}

/// Step 3, execute: plays the matches with the configured number of workers; each is recorded
/// (step 4) as it ends and added to `done`. Returns how many matches were played and the ones
/// that could not be started.
fn execute(
    record: &TournamentRecord,
    game: &'static dyn Game,
    boards: BTreeMap<PathBuf, Board>,
    matches: Matches<'_>,
    done: &mut Vec<ResultLine>,
) -> Result<Executed, TournamentError> {
    let Matches { todo, mut writer, out, league, check_live, reporter, cancel } = matches;
    let clock = record.config.limits.limits().clock;
    // (No more workers than matches: a thread each.)
    let jobs =
        record.config.jobs.unwrap_or_else(|| default_jobs(record.config.seats(), clock)).clamp(1, todo.len().max(1));
    tracing::debug!(jobs, matches = todo.len(), "playing matches");
    let box_limits = record.config.limits.sandbox_limits();
    if let Some(warning) = memory_warning(jobs, record.config.seats(), box_limits, machine_memory_mb()) {
        tracing::warn!("{warning}");
    }
    reporter.report(Event::Executing { matches: todo.len(), done: done.len() })?;
    let sandbox = Sandbox::new(record.config.sandbox, record.config.limits.sandbox_limits())
        .map_err(|e| TournamentError::Invalid(e.to_string()))?;
    let _way = sandbox.runs_bots_as_others_unboxed().then(|| WayToCopies::open(league)).transpose()?;
    let shared = Shared { record: record.clone(), game, sandbox, boards, shown: record.shown_paths(out) };
    let names = record.map_names();
    let queue = Mutex::new(VecDeque::from(todo));
    // A worker's event that fails to be reported does not stop its matches.
    let tell = |event: Event<'_>| {
        if let Err(e) = reporter.report(event) {
            tracing::warn!("reporting a worker's event: {e}");
        }
    };
    // Workers only play; this thread writes every replay and result, so that no worker waits
    // on the disk.
    let (sender, receiver) = mpsc::channel::<(ScheduledMatch, Outcome)>();
    let mut played = 0;
    let mut failed = Vec::new();
    let mut unstarted = BTreeMap::new();
    let mut changed = 0;
    let live = LiveBots {
        record,
        left_out: submission::LeftOut::league(&[league, out]),
        check: check_live,
        changed: Mutex::default(),
    };
    // Each worker thread runs its matches one at a time on its own single-threaded runtime:
    // a match is a ping-pong between processes, and keeping its wake-ups on one thread is
    // what makes -j scale with the cores. On the CPU clock a worker and its bots also keep to
    // one CPU (`referee::cpus`).
    let claim = (clock == ClockKind::Cpu).then(|| crate::referee::cpus::Claim::take(jobs));
    let cpus = claim.as_ref().map(|c| c.cpus().to_vec()).unwrap_or_default();
    std::thread::scope(|scope| -> Result<(), TournamentError> {
        for slot in 0..jobs {
            let sender = sender.clone();
            let (shared, queue, tell, cpus, live) = (&shared, &queue, &tell, &cpus, &live);
            let worker = std::thread::Builder::new().name(format!("arena-match-{slot}"));
            let spawned = worker.spawn_scoped(scope, move || {
                if clock == ClockKind::Cpu {
                    crate::referee::cpus::pin_slot(cpus, slot);
                }
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        tell(Event::Warning(&format!("cannot start a worker: {e}")));
                        return;
                    }
                };
                loop {
                    let next = match queue.lock() {
                        Ok(mut q) => q.pop_front(),
                        Err(poisoned) => poisoned.into_inner().pop_front(),
                    };
                    let Some(m) = next else { break };
                    if cancel.is_cancelled() {
                        break;
                    }
                    // (A bot playing from its own files: only while they hold its version,
                    // before the match and after it, or its result would be another's.)
                    if !live.as_built(&m, tell) {
                        if sender.send((m, None)).is_err() {
                            break;
                        }
                        continue;
                    }
                    tell(Event::Started(&m));
                    let outcome = runtime.block_on(play_one(shared, &m, cancel));
                    tell(Event::Ended(&m));
                    let outcome = match outcome {
                        _ if cut_by_the_end(&outcome, cancel) => Some(Err(RefereeError::Cancelled)),
                        Ok(_) if !live.as_built(&m, tell) => None,
                        outcome => Some(outcome),
                    };
                    if sender.send((m, outcome)).is_err() {
                        break;
                    }
                }
            });
            // A worker the machine cannot start (no process, thread or memory left): the others
            // play its matches; with none started, nothing was played.
            if let Err(source) = spawned {
                if slot == 0 {
                    let what = "start a thread to play the matches".to_string();
                    return Err(TournamentError::Machine { what, source, kept: "nothing was played" });
                }
                let hint = crate::sandbox::machine_hint(&source);
                tell(Event::Warning(&format!(
                    "the machine could start only {slot} of the {jobs} threads to play the matches: {source}{hint}; \
                     the matches are played {slot} at a time"
                )));
                break;
            }
        }
        drop(sender);
        for (m, outcome) in receiver {
            let Some(outcome) = outcome else {
                changed += 1;
                continue;
            };
            match outcome {
                Ok((line, played_match)) => {
                    let map = names.name(&m.map);
                    record_match(&m, &map, &line, &played_match, &mut writer, out, reporter)?;
                    done.push(line);
                    played += 1;
                }
                Err(RefereeError::Cancelled) => {}
                Err(e) => {
                    reporter.report(Event::Failed { scheduled: &m, error: &e })?;
                    failed.push(format!("{}: {e}", m.key));
                    if let Some(bot) = e.bot() {
                        unstarted.entry(bot.to_string()).or_insert_with(|| e.to_string());
                    }
                }
            }
        }
        Ok(())
    })?;
    Ok(Executed { played, failed, unstarted, changed })
}

/// Whether the match that ended with `outcome` was cut short by the run's end (`cancel`: Ctrl-C,
/// SIGTERM, SIGHUP), and is not to be recorded: its bots would stand charged with a crash, or
/// the match with a failure, that were the run's end's, for good (a resume keeps what was
/// recorded). So is every match that ends once the run is ending, played through or not (a
/// resume plays it again), and one that ended with a bot killed by a signal a batch system
/// sends each process of the job as it sends the arena its own (Slurm's time limit and
/// `scancel`: SIGTERM, which a plain bot's keeper turns into SIGKILL; SIGINT or SIGHUP sent
/// likewise, not the terminal's: a bot runs in a session of its own, which Ctrl-C does not
/// reach), when the run is ending within a moment: the bot's death may be seen before the
/// arena's own signal is.
fn cut_by_the_end(outcome: &Result<(ResultLine, PlayedMatch), RefereeError>, cancel: &CancellationToken) -> bool {
    let by_a_signal_sent_to_all = |line: &ResultLine| {
        line.forfeits.iter().any(|f| {
            let signal = match f.ended {
                Some(crate::engine::Ending::Signal(s)) => Some(s),
                Some(crate::engine::Ending::Exit(code)) => crate::engine::Ending::shell_signal(code),
                _ => None,
            };
            f.reason == "crash" && signal.is_some_and(|s| ENDING_SIGNALS.contains(&s))
        })
    };
    if !cancel.is_cancelled() && outcome.as_ref().is_ok_and(|(line, _)| by_a_signal_sent_to_all(line)) {
        return ending_within_a_moment(&|| cancel.is_cancelled());
    }
    cancel.is_cancelled()
}

/// Whether the run is ending (`ending`: its Ctrl-C, SIGTERM or SIGHUP seen) now or within
/// [`END_SEEN_WITHIN`]: after a bot or a build died of one of [`ENDING_SIGNALS`], which may have
/// been sent it with the arena and seen before the arena's own. Waits (this thread) until then.
pub(crate) fn ending_within_a_moment(ending: &dyn Fn() -> bool) -> bool {
    let waited = std::time::Instant::now();
    while !ending() && waited.elapsed() < END_SEEN_WITHIN {
        std::thread::sleep(Duration::from_millis(10));
    }
    ending()
}

/// The signals that end a run (SIGINT, SIGTERM, SIGHUP) and SIGKILL, as a bot or a build
/// killed by one may have been sent it with the arena (see [`cut_by_the_end`]).
pub(crate) const ENDING_SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGKILL];

/// How long a match or a build ended by one of [`ENDING_SIGNALS`] waits for the run's own end to
/// be seen, before it counts.
pub(crate) const END_SEEN_WITHIN: Duration = Duration::from_millis(500);

/// Step 4, record: saves a match's replay (and its bots' log), reports it, then appends its
/// result line: the replay is on disk before the line that names it. `map` is the map's name.
fn record_match(
    m: &ScheduledMatch,
    map: &str,
    line: &ResultLine,
    played: &PlayedMatch,
    writer: &mut ResultsWriter,
    out: &Path,
    reporter: &dyn Reporter,
) -> Result<(), TournamentError> {
    let replay_path = out.join(&line.replay);
    let log_path = out.join("logs").join(format!("{}.log", line.key));
    let bytes = played.save(&replay_path, &log_path).map_err(|e| TournamentError::Invalid(e.to_string()))?;
    reporter.report(Event::ReplaySaved {
        out,
        scheduled: m,
        map,
        replay: &played.replay,
        path: &replay_path,
        bytes: &bytes,
    })?;
    writer.append(line)?;
    reporter.report(Event::Recorded { scheduled: m, map, line })
}

/// Matches at once by default. On the CPU clock, one per CPU: each match keeps to its CPU
/// and its bots are charged only their own time, so sharing it is fair. On the wall clock, one
/// core per thinking bot (cores / players per match, at least 1), so that no bot's clock
/// depends on the others (cutechess and fastchess advise the same).
pub fn default_jobs(seats: usize, clock: ClockKind) -> usize {
    let cores = crate::referee::cpus::allowed().len().max(1);
    match clock {
        ClockKind::Cpu => cores,
        ClockKind::Wall => (cores / seats.max(1)).max(1),
    }
}

/// A warning when the boxes of `jobs` matches at once (`seats` each, each holding up to its
/// memory limit and its scratch space, `limits`) could hold more than the machine's memory
/// (`total_mb`): a bot that uses all of its limit then makes the kernel reclaim its opponents'
/// memory (their program's pages, their caches), on their clocks. `None` when they fit, or
/// when the machine's memory is unknown.
fn memory_warning(jobs: usize, seats: usize, limits: SandboxLimits, total_mb: Option<u64>) -> Option<String> {
    let total = total_mb?;
    let boxes = (jobs * seats) as u64;
    let need = boxes.saturating_mul(limits.memory_mb.saturating_add(limits.tmp_mb));
    (need > total).then(|| {
        let jobs = crate::safe_text::count(jobs, "match", "matches");
        format!(
            "{jobs} at once, {seats} bots each, may hold up to {need} MiB ({boxes} boxes of {} MiB of memory \
             and {} MiB of scratch space), more than this machine's {total} MiB: a bot that uses all of its limit \
             would slow the others on their own clocks; lower `jobs` or the memory limit (`--max-memory-mb`)",
            limits.memory_mb, limits.tmp_mb
        )
    })
}

/// The machine's memory in MiB (`MemTotal` of `/proc/meminfo`), if it can be read.
fn machine_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Everything a match task needs.
struct Shared {
    record: TournamentRecord,
    game: &'static dyn Game,
    sandbox: Sandbox,
    boards: BTreeMap<PathBuf, Board>,
    /// How the replays show the bots' commands.
    shown: ShownPaths,
}

/// A map (or pseudo board) as read at the start of a run.
struct Board {
    /// The file's content (`None` for a pseudo board `board-WxH`).
    text: Option<Arc<str>>,
    /// What identifies it in match keys and seeds: the content's hash.
    digest: String,
    /// The game's estimate of a match's cost on it.
    cost: u64,
}

/// Reads every map of `config` once, in board order, and checks that the game accepts it.
fn load_boards(config: &TournamentConfig, game: &dyn Game) -> Result<BTreeMap<PathBuf, Board>, TournamentError> {
    let mut boards = BTreeMap::new();
    for path in config.boards() {
        let (text, digest) = if config.maps.is_empty() {
            (None, path.display().to_string())
        } else {
            // Named with the config it is in (a typo in `maps` is the config's fault), as is a
            // map or parameter the game refuses.
            // The embedded default's maps are the repository's, named from the folder it runs in.
            let here = if config.embedded && !path.exists() {
                " (the default tournament plays the repository's maps: run it from the repository's root folder, \
                 or give --config)"
            } else {
                ""
            };
            let text = crate::files::read_map_file(&path).map_err(|e| config.error(format!("in `maps`: {e}{here}")))?;
            (Some(Arc::<str>::from(text.as_str())), schedule::digest(text.as_bytes()))
        };
        // Two entries of one board (the same file twice, or copies of it) would play the same
        // matches twice, and where their file names agree under the same match keys: the second
        // replay replaced the first and the league never completed (every resume dropped "a
        // duplicate result line"). Refused, naming both entries.
        if let Some((first, _)) = boards.iter().find(|(_, b): &(&PathBuf, &Board)| b.digest == digest) {
            return Err(config.error(duplicate_board(config, first, &path)));
        }
        let cost = game
            .new_match(&config.match_options(&path, text.clone()))
            .map_err(|e| config.error(e.to_string()))?
            .expected_cost();
        boards.insert(path, Board { text, digest, cost });
    }
    Ok(boards)
}

/// What is said of `maps` entries `first` and `second` holding the same board.
fn duplicate_board(config: &TournamentConfig, first: &Path, second: &Path) -> String {
    // (As the config names them: relative to its folder where they are under it.)
    let shown = |p: &Path| {
        let p = config.base.as_deref().and_then(|b| p.strip_prefix(b).ok()).unwrap_or(p);
        crate::safe_text::terminal_cut(&p.display().to_string(), 200)
    };
    let how = if first == second
        || std::fs::canonicalize(first).ok().is_some_and(|f| std::fs::canonicalize(second).is_ok_and(|s| s == f))
    {
        "is the same file as"
    } else {
        "has the same contents as"
    };
    format!(
        "in `maps`: {} {how} {}: the league would play the same matches twice (and where their names agree, \
         under the same keys, one replay replacing the other): list each board once (`games` plays each more times)",
        shown(second),
        shown(first)
    )
}

/// Whether the replay a result names is on disk and records the same result: what a merge
/// checked before [`vouch`] (a result changed in both passed), kept for the tests' controls.
#[cfg(test)]
fn replay_agrees(out: &Path, line: &ResultLine) -> bool {
    let path = out.join(&line.replay);
    let Ok(bytes) = crate::replay::read_json(&path) else { return false };
    #[derive(Deserialize)]
    struct Head {
        result: crate::replay::MatchResult,
    }
    serde_json::from_slice::<Head>(&bytes).is_ok_and(|h| h.result == line.result)
}

/// How long a shard or a merge, which batch systems start unattended, waits for its folder
/// while one process holds it alone (an `arena leaderboard` of the league the teacher runs
/// meanwhile). Shards holding it are not waited for by a merge: it is refused at once.
const BATCH_LOCK_WAIT: Duration = Duration::from_secs(120);

/// Whether a non-blocking `flock` that returned `ret` (and `error`, its errno, when not 0) took
/// the lock: no when another process holds it; an error when the file system cannot lock at all
/// (an NFS mount without its lock daemon says ENOLCK), which no wait would end.
fn flock_outcome(ret: libc::c_int, error: std::io::Error) -> std::io::Result<bool> {
    match (ret, error.raw_os_error()) {
        (0, _) => Ok(true),
        (_, Some(libc::EWOULDBLOCK | libc::EINTR)) => Ok(false),
        _ => Err(error),
    }
}

/// The most of a lock's text read (a signature, `pid N on HOST`, is at most 80 bytes).
const LOCK_TEXT_BYTES: u64 = 128;

/// This machine's name (`gethostname`), as a lock's signature names it; empty where it has none.
fn this_host() -> String {
    let mut name = [0u8; 256];
    // SAFETY: gethostname writes at most `name.len()` bytes into the buffer we own.
    if unsafe { libc::gethostname(name.as_mut_ptr().cast(), name.len()) } != 0 {
        return String::new();
    }
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}

/// Who signed a lock, by its text: `pid N on HOST` (the process and its machine), or an older
/// arena's `pid N` (no machine named); `None` for anything else (unsigned: shards).
fn signer_of(text: &str) -> Option<(u32, Option<&str>)> {
    let rest = text.trim().strip_prefix("pid ")?;
    let (pid, host) = match rest.split_once(" on ") {
        Some((pid, host)) => (pid, Some(host.trim())),
        None => (rest, None),
    };
    Some((pid.trim().parse().ok()?, host))
}

/// Whether the signer of a lock (see [`signer_of`]) is a process of this machine's: the host it
/// names is this one (an older signature naming none is taken for this machine's, as it was).
/// On a folder shared between nodes (Slurm, Kubernetes) the signer may be another's, whose
/// processes this machine's `/proc` does not show.
fn signed_here(host: Option<&str>, here: &str) -> bool {
    host.is_none_or(|h| h == here)
}

/// Who holds a folder's lock, when shards do (they leave it unsigned).
const SHARDS_HOLD_IT: &str = "shards of the league";

/// The lock of a tournament folder, held while a run writes it. A shard's own lock is only
/// ever held with the folder's shared one: it is taken after it and, declared first, released
/// before it. So whoever holds the folder's lock alone may remove the shards' lock files (see
/// [`remove_temporaries`]): no process holds one, none can take one until it is released, and a
/// shard then locks the file it makes anew.
struct FolderLock {
    _shard: Option<std::fs::File>,
    _file: std::fs::File,
}

impl FolderLock {
    /// Takes the lock of `out`, or says which run holds it. A whole run (or a merge) holds the
    /// folder alone; shards share it, each holding its own shard's lock alone.
    fn take(out: &Path, shard: Option<Shard>) -> Result<FolderLock, TournamentError> {
        Self::take_waiting(out, shard, Duration::ZERO)
    }

    /// The lock of `dir` for a command that only reads it (a publish, a merge's inputs), waiting
    /// up to `wait`. Where its user may not write in it (another user's folder, a read-only file
    /// system) its lock file is opened to read, which `flock` takes all the same (unsigned: its
    /// text is its last holder's), so that a run of its owner's is not read half-written; none
    /// where there is no lock file to open (no run ever held it): it is then read as it is.
    fn take_to_read(dir: &Path, wait: Duration) -> Result<Option<FolderLock>, TournamentError> {
        Self::take_to_read_until(dir, wait, &|| false, false)
    }

    /// [`FolderLock::take_to_read`], the wait ended as soon as `stop` says so; `foreign` for a
    /// folder someone else may have written (a shard's folder merged: see [`open_lock`]).
    fn take_to_read_until(
        dir: &Path,
        wait: Duration,
        stop: &dyn Fn() -> bool,
        foreign: bool,
    ) -> Result<Option<FolderLock>, TournamentError> {
        match Self::take_checked(dir, None, wait, stop, &|| Ok(()), foreign) {
            Ok(lock) => Ok(Some(lock)),
            Err(e) if cannot_write(&e) => {
                let path = dir.join(".lock");
                let file = match open_lock_to_read(&path) {
                    // (A shard's lock is checked as its other files are, on the descriptor opened:
                    // a hard link to a teacher's file would be held, and its text said.)
                    Ok(Some(file)) if foreign => {
                        crate::files::check_foreign_file(&file)
                            .map_err(|e| TournamentError::Invalid(format!("{}: {e}", path.display())))?;
                        file
                    }
                    Ok(Some(file)) => file,
                    // (Its owner's alone, as every lock is now: see `open_lock`.)
                    Err(denied) if denied.kind() == std::io::ErrorKind::PermissionDenied => {
                        tracing::warn!(
                            "{}: read without its lock, which only the league's owner may open: a run of theirs \
                             under way shows only the matches it has finished",
                            dir.display()
                        );
                        return Ok(None);
                    }
                    _ => {
                        tracing::debug!("{}: read without a lock: {e}", dir.display());
                        return Ok(None);
                    }
                };
                // (Where locks need a file opened to write, as on NFS: read as it is, as before.)
                match Self::lock_opened(dir, &path, file, (libc::LOCK_EX, false), (wait, stop), true, &|| ()) {
                    Ok(file) => Ok(Some(FolderLock { _shard: None, _file: file })),
                    // (A signal during the wait ends the command: it was taken for a lock that
                    // cannot be taken, and the folder read without it.)
                    Err(e @ (TournamentError::Locked { .. } | TournamentError::StoppedWaiting { .. })) => Err(e),
                    Err(other) => {
                        tracing::warn!(
                            "{}: read without its lock, which cannot be taken to read: {other}",
                            dir.display()
                        );
                        Ok(None)
                    }
                }
            }
            Err(e) => Err(e),
        }
    }

    /// [`FolderLock::take_waiting`] for a run, which writes the folder, with `check` run once the
    /// lock is held ([`FolderLock::take_checked`]): one its user may not write in is said as
    /// such, with what to do. The wait ends once `stop` says so (the run's Ctrl-C, SIGTERM or SIGHUP):
    /// [`TournamentError::StoppedWaiting`], nothing written.
    fn take_to_run(
        out: &Path,
        shard: Option<Shard>,
        wait: Duration,
        stop: &dyn Fn() -> bool,
        check: &dyn Fn() -> Result<(), TournamentError>,
    ) -> Result<FolderLock, TournamentError> {
        Self::take_checked(out, shard, wait, stop, check, false).map_err(|e| match e {
            TournamentError::Io { source, .. } if cannot_write_source(&source) => TournamentError::Invalid(format!(
                "{}: this league's folder cannot be written ({source}): a run writes its results and pages \
                 there: run it on a copy you may write (`cp -r`), or as the user who may write it",
                out.display()
            )),
            other => other,
        })
    }

    /// The folder of a run or a shard, `out`, taken as one step with the check that it is no
    /// folder of someone's own ([`refuse_foreign_folder`]): checked before anything is written
    /// (such a folder is left as it was), made where missing, locked
    /// ([`FolderLock::take_to_run`]) and checked again under the lock, before it is made private
    /// or its folders are made. (Checked only before: a run started with another passed the
    /// check before either locked, and what was put in the folder in between, by another
    /// command or its user, was taken over with it.)
    fn claim(
        out: &Path,
        shard: Option<Shard>,
        wait: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<FolderLock, TournamentError> {
        refuse_foreign_folder(out)?;
        crate::files::make_private_folder(out).map_err(|e| TournamentError::io(out, e))?;
        #[cfg(test)]
        tests::BETWEEN_CHECK_AND_LOCK.with(|hook| hook.get().map(|h| h(out)));
        let lock = Self::take_to_run(out, shard, wait, stop, &|| refuse_foreign_folder(out))?;
        make_league_folder(out, &LEAGUE_FOLDERS[..MADE_WITH_LEAGUE])?;
        Ok(lock)
    }

    /// [`FolderLock::take`], waiting up to `wait` for the folder while one process holds it
    /// alone: a batch system starts shards and merges unattended, and an `arena leaderboard`
    /// the teacher runs meanwhile holds the folder for a moment (a whole run or a build, for
    /// longer, still makes them fail once `wait` is over). Not waited for: shards, by a process
    /// that would hold the folder alone, and another copy of a shard.
    ///
    /// Its lock is made its user's alone ([`open_lock`]), and a folder every user may enter
    /// (an older arena's, `rwxr-xr-x`) is made private to its user with its record once the
    /// lock is held alone ([`make_private`]; not while a run holds it, whose bots may be using
    /// the way to their copies, [`WayToCopies`]): a folder only a group may read (`chmod -R
    /// g+rX` for an assistant) stays as the teacher made it.
    fn take_waiting(out: &Path, shard: Option<Shard>, wait: Duration) -> Result<FolderLock, TournamentError> {
        Self::take_waiting_until(out, shard, wait, &|| false)
    }

    /// [`FolderLock::take_waiting`], the wait ended as soon as `stop` says so.
    fn take_waiting_until(
        out: &Path,
        shard: Option<Shard>,
        wait: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<FolderLock, TournamentError> {
        Self::take_checked(out, shard, wait, stop, &|| Ok(()), false)
    }

    /// [`FolderLock::take_waiting_until`], with `check` run as soon as the folder's lock is held,
    /// before the folder is made private or a shard's own lock taken: its error is returned,
    /// the lock released. `foreign` for a folder someone else may have written (see [`open_lock`]).
    fn take_checked(
        out: &Path,
        shard: Option<Shard>,
        wait: Duration,
        stop: &dyn Fn() -> bool,
        check: &dyn Fn() -> Result<(), TournamentError>,
        foreign: bool,
    ) -> Result<FolderLock, TournamentError> {
        let mode = if shard.is_some() { libc::LOCK_SH } else { libc::LOCK_EX };
        let path = out.join(".lock");
        let file = open_lock(&path, false, foreign)?;
        let main = Self::lock_opened(out, &path, file, (mode, shard.is_none()), (wait, stop), true, &|| ())?;
        check()?;
        // (Never a shard's folder, which the merge only reads: after its record's check, a shard
        // that swapped the record for a hard link to a teacher's file had that file made private.)
        if shard.is_none() && !foreign {
            make_private(out, &main);
        }
        match shard {
            None => Ok(FolderLock { _shard: None, _file: main }),
            Some(s) => {
                let own = Self::lock_file(
                    out,
                    &out.join(format!(".lock.shard-{}-of-{}", s.index, s.count)),
                    libc::LOCK_EX,
                    true,
                    Duration::ZERO,
                )?;
                Ok(FolderLock { _shard: Some(own), _file: main })
            }
        }
    }

    fn lock_file(
        out: &Path,
        path: &Path,
        mode: libc::c_int,
        sign: bool,
        wait: Duration,
    ) -> Result<std::fs::File, TournamentError> {
        Self::lock_file_until(out, path, mode, sign, (wait, &|| false))
    }

    /// [`FolderLock::lock_file`], the wait ended as soon as `stop` says so.
    fn lock_file_until(
        out: &Path,
        path: &Path,
        mode: libc::c_int,
        sign: bool,
        (wait, stop): (Duration, &dyn Fn() -> bool),
    ) -> Result<std::fs::File, TournamentError> {
        Self::lock_opened(out, path, open_lock(path, false, false)?, (mode, sign), (wait, stop), true, &|| ())
    }

    /// [`FolderLock::lock_file`], calling `after_read` each time it has read who holds the
    /// lock; `reread` false reads it once, before waiting, as it did. Both for the tests.
    #[cfg(test)]
    fn lock_file_with(
        out: &Path,
        path: &Path,
        mode: libc::c_int,
        sign: bool,
        wait: Duration,
        reread: bool,
        after_read: &dyn Fn(),
    ) -> Result<std::fs::File, TournamentError> {
        let sign = (mode, sign);
        Self::lock_opened(out, path, open_lock(path, false, false)?, sign, (wait, &|| false), reread, after_read)
    }

    /// [`FolderLock::lock_file_with`] on the lock file `path`, opened as `file`; `(mode, sign)`;
    /// waiting up to `wait`, unless `stop` says to stop first (checked every 50 ms):
    /// [`TournamentError::StoppedWaiting`] then, nothing written.
    fn lock_opened(
        out: &Path,
        path: &Path,
        mut file: std::fs::File,
        (mode, sign): (libc::c_int, bool),
        (wait, stop): (Duration, &dyn Fn() -> bool),
        reread: bool,
        after_read: &dyn Fn(),
    ) -> Result<std::fs::File, TournamentError> {
        use std::io::{Read, Seek};
        let try_lock = |file: &std::fs::File| -> Result<bool, TournamentError> {
            // SAFETY: flock on a descriptor we own.
            let ret = unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(file), mode | libc::LOCK_NB) };
            flock_outcome(ret, std::io::Error::last_os_error()).map_err(|e| {
                TournamentError::Invalid(format!(
                    "{}: cannot be locked ({e}): the file system of {} does not support locks (flock), which keep \
                     two arena runs from writing a league at once (on NFS they need the lock daemon, lockd, on the \
                     server and the nodes)",
                    path.display(),
                    out.display()
                ))
            })
        };
        // Who holds it, as it signed the file (a shard leaves it empty).
        // (At most a few signatures' length, shown safely: the lock of a folder merged is the
        // shard's, whose text whoever wrote the folder chose.)
        let read_holder = |file: &mut std::fs::File| {
            let mut bytes = Vec::new();
            let _ = file.rewind().and_then(|()| (&*file).take(LOCK_TEXT_BYTES).read_to_end(&mut bytes));
            after_read();
            crate::safe_text::terminal_line(String::from_utf8_lossy(&bytes).trim())
        };
        let here = this_host();
        // (Of this machine's, else none: a signer on another node is not looked for here.)
        let pid_of = |holder: &str| signer_of(holder).filter(|(_, host)| signed_here(*host, &here)).map(|(p, _)| p);
        let signed = |holder: &str| signer_of(holder).is_some();
        let ended = |pid: u32| !Path::new(&format!("/proc/{pid}")).exists();
        let mut locked = try_lock(&file)?;
        let mut holder = String::new();
        if !locked {
            holder = read_holder(&mut file);
            // A run killed a moment ago: its boxes, dying with it, may still hold the lock. Or
            // this process's own, just released, still open in a child another thread forked
            // (it closes it on starting its program).
            let pid = pid_of(&holder);
            let dead = pid.is_some_and(ended);
            let own = pid == Some(std::process::id());
            // Waited for: one process holding the folder alone (it signs the lock; what keeps
            // a shard out is always one), not shards (an exclusive run is refused at once).
            let alone = |holder: &str| mode == libc::LOCK_SH || signed(holder);
            let wait = match (dead || own, alone(&holder)) {
                (true, _) => wait.max(Duration::from_secs(5)),
                (false, true) => wait,
                (false, false) => Duration::ZERO,
            };
            // (Said at once, whoever holds it: a lock signed by a process that has ended, held by
            // one that did not sign it, was waited for 2 minutes without a word.)
            if !wait.is_zero() && !own {
                let by = if dead {
                    format!(
                        "by a process that did not sign it, or one the run it names left behind ({}, which is not \
                         running on this machine)",
                        holder.trim()
                    )
                } else {
                    format!(
                        "alone by another arena run ({})",
                        if holder.trim().is_empty() { "just started" } else { holder.trim() }
                    )
                };
                tracing::warn!(
                    "{}: its lock ({}) is held {by}: waiting up to {} s for it",
                    out.display(),
                    path.display(),
                    // (Whole seconds, rounded up: what is left of a merge's wait is a little less.)
                    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
                );
            }
            let deadline = std::time::Instant::now() + wait;
            while std::time::Instant::now() < deadline {
                // (The run's Ctrl-C, SIGTERM or SIGHUP ends the wait: it was seen only after it,
                // up to 2 minutes later, and a batch system's time limit then sent SIGKILL.)
                if stop() {
                    return Err(TournamentError::StoppedWaiting { dir: out.to_path_buf() });
                }
                std::thread::sleep(Duration::from_millis(50));
                if try_lock(&file)? {
                    locked = true;
                    break;
                }
                // Read again: the holder read first may have ended since (its signature stays
                // in the file), and shards taken it, which a process holding the folder alone
                // does not wait for; the error names the holder of the end.
                if reread {
                    holder = read_holder(&mut file);
                    if !alone(&holder) {
                        break;
                    }
                }
            }
        }
        if !locked {
            if holder.trim().is_empty() {
                holder = SHARDS_HOLD_IT.to_string();
            } else if pid_of(&holder).is_some_and(ended) {
                // (Its signer ended: the holder is one that cannot sign, reading a league it may
                // not write in, such as a publish by another user, or a process of another
                // user's that opened the lock while an older arena left it readable to all.)
                holder = format!(
                    "{}, which is not running on this machine; what holds it now did not sign it, such as a \
                     publish or a merge by a user who may not write the league (`fuser -v {}` names the processes \
                     that have it open)",
                    holder.trim(),
                    crate::safe_text::path_word(path)
                );
            } else if crate::files::names_of(&file).is_ok_and(|names| names > 1) {
                // (A lock of two names is never signed: its text is from before its second name.)
                holder = format!(
                    "{}, as its lock says, but the lock has more than one name (a `cp -al` snapshot's), which no run \
                     signs: that is its text from before, maybe another folder's run, or one long ended",
                    holder.trim()
                );
            }
            return Err(TournamentError::Locked { dir: out.to_path_buf(), holder: holder.trim().to_string() });
        }
        // A lock of more than one name (the teacher's own: a `cp -al` snapshot's, or a file of
        // theirs a shard's machine linked there in a folder it shares) is held, never written:
        // it is unsigned (a signature of another run's, or none), as a shard's.
        let shared = crate::files::names_of(&file).map_or(true, |names| names > 1);
        if shared {
            // (Held as it is.)
        } else if sign {
            sign_lock(&file);
        } else {
            // A shard leaves the main lock's text empty: an exclusive run failing to get it
            // then says shards hold it.
            let _ = file.set_len(0);
        }
        Ok(file)
    }
}

/// Opens (makes) the lock file `path`, read and write. Not through a link (unless `follow`, the
/// tests' control): a lock beside a league or in it may be in a folder a student's build can
/// write (a league in a bot's folder), and a link there to any file of the teacher's had the
/// arena sign that file, cutting it to the signature's 20 bytes (and a publish or a merge
/// lock the link's target, not the file it named, again and again without end).
///
/// Its user's alone (`rw-------`, made so again where it was not): `flock` takes a file opened
/// to read, so another user who could read it could hold it, and every run of the league was
/// refused for as long as they liked.
///
/// A hard link (a file of more than one name), checked on the descriptor opened before anything
/// is written to it or its mode changed:
/// - of a folder someone else may have written (`foreign`: a shard's folder merged, where any
///   user may link any file, `fs.protected_hardlinks=0` or a root job) it is refused
///   ([`crate::files::check_foreign_file`], the one check of a shard's files): it may be a
///   teacher's file, which the arena made private and signed, cutting it to its signature;
/// - of the teacher's own folder (the league's, OUT) it is used, where its text is a lock's
///   (empty, or a signature, `pid N on HOST`): a `cp -al` snapshot's lock is the league's under
///   a second name, and a run of either waits for the other's, as they share it (`rm
///   SNAPSHOT/.lock` parts them; a run makes it anew), but never made private or signed (it
///   may be a teacher's empty file a shard's machine linked there, in a folder it shares: an
///   unsigned lock is held all the same). Replacing it with a file of one name
///   would let a run holding the old one and one holding the new write the folder at once. Any
///   other text is another file's, not a lock's: refused, nothing written.
fn open_lock(path: &Path, follow: bool, foreign: bool) -> Result<std::fs::File, TournamentError> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false).mode(0o600);
    if !follow {
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => TournamentError::Invalid(format!(
            "{}: is a symbolic link, which no lock of the arena's is (someone else's, or a build's that could \
             write there): remove it, and keep the league out of every bot's folder",
            path.display()
        )),
        // (A folder cannot be opened to write: said as for any other thing not a file.)
        Some(libc::EISDIR) => not_a_lock(path),
        _ => TournamentError::io(path, e),
    })?;
    match file.metadata() {
        Ok(meta) if meta.is_file() => {
            if foreign {
                crate::files::check_foreign_file(&file)
                    .map_err(|e| TournamentError::Invalid(format!("{}: {e}", path.display())))?;
            } else if crate::files::names_of(&file).map_err(|e| TournamentError::io(path, e))? > 1 && !lock_text(&file)
            {
                return Err(TournamentError::Invalid(format!(
                    "{}: a hard link ({} names of one file) whose text is no lock's: another file, not written; \
                     remove it (a run makes the lock anew), and keep the league out of every bot's folder",
                    path.display(),
                    meta.nlink()
                )));
            }
            // (Not its owner's, a shared league's lock a co-teacher opens stays as it is; nor one
            // of more than one name, which may be a teacher's file linked there.)
            let shared = crate::files::names_of(&file).map_or(true, |names| names > 1);
            if let Err(e) = if shared { Ok(None) } else { make_file_private(&file) } {
                tracing::debug!("{}: not made private to its user: {e}", path.display());
            }
            Ok(file)
        }
        Ok(_) => Err(not_a_lock(path)),
        Err(e) => Err(TournamentError::io(path, e)),
    }
}

/// Whether the open file's text is a lock's: empty (shards hold it, or none ever did) or a
/// signature ([`signer_of`]), no longer than [`LOCK_TEXT_BYTES`].
fn lock_text(file: &std::fs::File) -> bool {
    use std::os::unix::fs::FileExt;
    let mut text = [0u8; LOCK_TEXT_BYTES as usize + 1];
    let mut len = 0;
    while len < text.len() {
        match file.read_at(&mut text[len..], len as u64) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(_) => return false,
        }
    }
    if len > LOCK_TEXT_BYTES as usize {
        return false;
    }
    let text = String::from_utf8_lossy(&text[..len]);
    text.trim().is_empty() || signer_of(&text).is_some()
}

/// Takes the permissions of group and others away from the open file or folder `file` where
/// it has any (`fchmod`: never through a path, which could be a link); its old mode if it had.
pub(super) fn make_file_private(file: &std::fs::File) -> std::io::Result<Option<u32>> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    let was = file.metadata()?.mode() & 0o7777;
    if was & 0o077 == 0 {
        return Ok(None);
    }
    // SAFETY: fchmod on a descriptor we own.
    if unsafe { libc::fchmod(file.as_raw_fd(), was & !0o077) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(Some(was))
}

/// Makes the league folder `out`, whose lock `lock` this process opened, and its
/// `tournament.json` private to their user, as a new league's are, where every user may enter
/// the folder (`o+r` or `o+x`): they gave every local user the league's secret (which keys the
/// bots' seeds, so that no bot can work out another's) and every student's kept code
/// (`versions/`). Its folders every user may enter are made so too, whatever the top's mode
/// ([`make_folders_private`]). Through descriptors, on the folder holding that very lock
/// (whatever `out` names meanwhile), the record opened without following a link. Said when
/// done; a failure only warns (the league plays all the same, as before).
fn make_private(out: &Path, lock: &std::fs::File) {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let mut folders = 0;
    let made = (|| -> std::io::Result<Option<u32>> {
        let dir = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECTORY).open(out)?;
        let held = lock.metadata()?;
        // SAFETY: fstatat into a struct we own, on a descriptor we own and a C string.
        let mut named: libc::stat = unsafe { std::mem::zeroed() };
        let found = unsafe { libc::fstatat(dir.as_raw_fd(), c".lock".as_ptr(), &mut named, libc::AT_SYMLINK_NOFOLLOW) };
        if found != 0 || (named.st_dev, named.st_ino) != (held.dev(), held.ino()) {
            return Ok(None);
        }
        // Its folders first, whatever the top's mode (an arena of 2026-12-06 made only the top
        // private): a process already inside one, such as a student's shell whose current folder
        // is `versions/`, never passes through the top again.
        folders = make_folders_private(&dir);
        if dir.metadata()?.mode() & 0o005 == 0 {
            return Ok(None);
        }
        // (Not a record of more than one name: in a folder shards' machines write (the shared
        // folder's flow), one may be a teacher's file linked there, whose mode is not the
        // league's to change.)
        match open_file_at(&dir, c"tournament.json") {
            Some(record) if crate::files::names_of(&record)? > 1 => tracing::warn!(
                "{}: {TOURNAMENT_FILE} is a hard link (a file of more than one name), maybe another file's: not made \
                 private; copy it so it has one name (`cp -p FILE FILE.new && mv FILE.new FILE`)",
                out.display()
            ),
            Some(record) => drop(make_file_private(&record)?),
            None => {}
        }
        make_file_private(&dir)
    })();
    match made {
        Ok(Some(was)) => tracing::warn!(
            "{}: made private to its user (it was {was:o}, which let every user of this machine read the league's \
             secret and every student's kept code): publish its pages with `arena publish`; a user you let read it \
             (`chmod -R g+rX`) reads it without its lock",
            out.display()
        ),
        Ok(None) => {}
        Err(e) => tracing::warn!("{}: could not be made private to its user: {e}", out.display()),
    }
    if folders > 0 {
        tracing::warn!(
            "{}: {folders} of its folders (versions/, replays/, …) made private to its user: every user could enter \
             them, and a process already inside one read what was written there",
            out.display()
        );
    }
}

/// The folders of the league whose folder `dir` is open that every user may enter (`o+r` or
/// `o+x`), made its user's alone (their group's too, as [`make_file_private`] does): those at
/// its top (`versions/`, `replays/`, `logs/`, `builds/`, `bots/`, `assets/`), and in
/// `versions/` each bot's and each version's, not the copies a bot runs from (`folder/`,
/// `files/`), which a root arena's box shows a user of its own. Through descriptors, no link
/// followed (`openat` with `O_NOFOLLOW`, `fchmod`). How many were.
fn make_folders_private(dir: &std::fs::File) -> usize {
    // Levels below `versions/` made private: `<bot>/` and `<bot>/<fingerprint>/`.
    const VERSIONS_DEPTH: usize = 2;
    fn walk(dir: &std::fs::File, depth: usize, versions: bool) -> usize {
        use std::os::unix::fs::MetadataExt;
        let mut made = 0;
        for name in folder_names(dir) {
            let Some(sub) = open_folder_at(dir, &name) else { continue };
            let open_to_all = sub.metadata().is_ok_and(|m| m.mode() & 0o005 != 0);
            if open_to_all && make_file_private(&sub).is_ok_and(|was| was.is_some()) {
                made += 1;
            }
            let into_versions = depth == 0 && name.as_bytes() == b"versions";
            if into_versions || (versions && depth < VERSIONS_DEPTH) {
                made += walk(&sub, depth + 1, true);
            }
        }
        made
    }
    walk(dir, 0, false)
}

/// The way through a private league's folders to its bots' kept copies, opened for a run whose
/// bots run as users of their own without a box ([`Sandbox::runs_bots_as_others_unboxed`]):
/// they cannot pass through the league's folders, which only its user may enter, to their
/// copies, as a box binds them in. The league's folder, `versions/`, each bot's and each
/// version's are given search to all (`o+x`: entered by a name known, not listed) while the
/// run plays, and the files at the league's top lose what others may read of them
/// (`results.jsonl` names every version's folder), through descriptors. Not a secret, though:
/// a published `results.jsonl` names them too, and without a box a command line is seen in
/// `/proc`, so while the way is open a bot or a local user may read the copies whose folders
/// it learns (said in the run's warning and the docs). Held shared (`.way`, as shards of one
/// league run side by side); the last holder to end closes it (`o+x` taken away again); a run
/// killed leaves it to the next command that locks the league ([`make_private`]).
struct WayToCopies {
    league: PathBuf,
    _held: Arc<std::fs::File>,
}

/// The ways this process holds open, for [`close_ways`]. A way is listed under the same lock as
/// it is opened ([`WayToCopies::open`]), so that `close_ways` (on another thread) finds it
/// either not yet opened or opened whole.
static OPEN_WAYS: Mutex<Ways> = Mutex::new(Ways { open: Vec::new(), stopped: Vec::new() });

/// See [`OPEN_WAYS`].
struct Ways {
    /// Each league's folder and its shared hold.
    open: Vec<(PathBuf, Arc<std::fs::File>)>,
    /// Which leagues' ways may no longer be opened: the process is about to exit at once.
    stopped: Vec<Leagues>,
}

/// Which leagues, as a test of their folders.
type Leagues = Box<dyn Fn(&Path) -> bool + Send>;

/// Closes every way to a league's copies this process holds open (where it is the last holder),
/// as their drops would, and opens none after: for a process about to exit at once (a second
/// Ctrl-C or SIGTERM while it ends), which runs no drop. Its bots end with it.
pub fn close_ways() {
    close_ways_of(|_| true);
}

/// [`close_ways`], for the leagues `which` takes (the tests' own, as tests run side by side).
fn close_ways_of(which: impl Fn(&Path) -> bool + Clone + Send + 'static) {
    let mut ways = OPEN_WAYS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    ways.stopped.push(Box::new(which.clone()));
    let (closing, kept) = std::mem::take(&mut ways.open).into_iter().partition(|(league, _)| which(league));
    ways.open = kept;
    drop(ways);
    for (league, held) in closing {
        close_way(&league, &held);
    }
}

impl WayToCopies {
    fn open(league: &Path) -> Result<WayToCopies, TournamentError> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        // The folders above the league: a user of its own must pass them too.
        let closed = league
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .find(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 == 0));
        if let Some(closed) = closed {
            return Err(TournamentError::Invalid(format!(
                "{}: without a box this root arena runs each bot as a user of its own, who cannot pass through {} \
                 (others may not enter it) to the bots' copies in the league: every match would fail; run it with a \
                 box, as a user other than root, or with the league in a folder others may enter",
                league.display(),
                closed.display()
            )));
        }
        let held = open_lock(&league.join(".way"), false, false)?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_SH) } != 0 {
            return Err(TournamentError::io(&league.join(".way"), std::io::Error::last_os_error()));
        }
        let held = Arc::new(held);
        // (Held until the way is open and listed: see [`OPEN_WAYS`].)
        let mut ways = OPEN_WAYS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let stopped = ways.stopped.iter().any(|stopped| stopped(league));
        let top = match std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECTORY).open(league) {
            Ok(top) if !stopped => top,
            failed => {
                drop(ways);
                close_way(league, &held);
                return Err(match failed {
                    Err(e) => TournamentError::io(league, e),
                    Ok(_) => TournamentError::Invalid(format!(
                        "{}: the arena is stopping at once: the way to the bots' copies is not opened",
                        league.display()
                    )),
                });
            }
        };
        // The files first: none that names a version is readable once the way is open.
        for entry in std::fs::read_dir(league).into_iter().flatten().flatten() {
            let Ok(name) = std::ffi::CString::new(entry.file_name().as_encoded_bytes()) else { continue };
            if let Some(file) = open_file_at(&top, &name) {
                others_may(&file, 0o004, false);
            }
        }
        let mut opened = 0;
        for dir in way_folders(top) {
            opened += usize::from(others_may(&dir, 0o001, true));
        }
        ways.open.push((league.to_path_buf(), Arc::clone(&held)));
        drop(ways);
        let way = WayToCopies { league: league.to_path_buf(), _held: held };
        if opened > 0 {
            tracing::warn!(
                "{}: without a box this root arena runs each bot as a user of its own, who must pass through the \
                 league's folders to its copy: while the run plays, a user of this machine (and a bot, where the \
                 kernel has no Landlock to confine it) who learns the name of a version's folder (a published \
                 results.jsonl names them) may read that copy; with a box \
                 (user namespaces), or as a user other than root, they stay the league's user's alone",
                league.display()
            );
        }
        Ok(way)
    }
}

/// The league's folder `top` and, in it, `versions/`, each bot's and each version's: the way
/// to the copies.
fn way_folders(top: std::fs::File) -> Vec<std::fs::File> {
    let mut chain = Vec::new();
    if let Some(versions) = open_folder_at(&top, c"versions") {
        for bot in folder_names(&versions) {
            let Some(bot) = open_folder_at(&versions, &bot) else { continue };
            chain.extend(folder_names(&bot).iter().filter_map(|version| open_folder_at(&bot, version)));
            chain.push(bot);
        }
        chain.push(versions);
    }
    chain.push(top);
    chain
}

impl Drop for WayToCopies {
    fn drop(&mut self) {
        OPEN_WAYS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .open
            .retain(|(_, held)| !Arc::ptr_eq(held, &self._held));
        close_way(&self.league, &self._held);
    }
}

/// Lets go of the shared hold `held` on the way to `league`'s copies, and closes the way where
/// no other holder keeps it open (a shard beside).
fn close_way(league: &Path, held: &std::fs::File) {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(last) = open_lock(&league.join(".way"), false, false) else { return };
    // SAFETY: flock on descriptors we own (our shared hold let go first).
    unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_UN) };
    if unsafe { libc::flock(last.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return;
    }
    let Ok(top) = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECTORY).open(league) else {
        return;
    };
    for dir in way_folders(top) {
        others_may(&dir, 0o001, false);
    }
}

/// Gives others the permission `bit` (`o+x` 0o001, `o+r` 0o004) on the open file or folder
/// `file` (`on`), or takes it away: whether its mode changed.
fn others_may(file: &std::fs::File, bit: u32, on: bool) -> bool {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(mode) = file.metadata().map(|m| m.mode() & 0o7777) else { return false };
    let new = if on { mode | bit } else { mode & !bit };
    // SAFETY: fchmod on a descriptor we own.
    new != mode && unsafe { libc::fchmod(file.as_raw_fd(), new) } == 0
}

/// The names of the folders (not links) in the open folder `dir`.
fn folder_names(dir: &std::fs::File) -> Vec<std::ffi::CString> {
    use std::os::fd::AsRawFd;
    // SAFETY: dup of a descriptor we own; fdopendir takes the copy (closedir closes it).
    let stream = unsafe {
        let copy = libc::dup(dir.as_raw_fd());
        if copy < 0 {
            return Vec::new();
        }
        let stream = libc::fdopendir(copy);
        if stream.is_null() {
            libc::close(copy);
            return Vec::new();
        }
        libc::rewinddir(stream);
        stream
    };
    let mut names = Vec::new();
    loop {
        // SAFETY: readdir on the stream opened above, its entry read before the next call.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            break;
        }
        // SAFETY: a non-null entry readdir gave, whose name is a C string.
        let (name, kind) = unsafe { (std::ffi::CStr::from_ptr((*entry).d_name.as_ptr()), (*entry).d_type) };
        let dots = name.to_bytes() == b"." || name.to_bytes() == b"..";
        // (`DT_UNKNOWN` on some file systems: `open_folder_at` tells.)
        if !dots && (kind == libc::DT_DIR || kind == libc::DT_UNKNOWN) {
            names.push(name.to_owned());
        }
    }
    // SAFETY: the stream opened above, closed once.
    unsafe { libc::closedir(stream) };
    names
}

/// The folder `name` in the open folder `dir`, opened without following a link; `None` if it
/// is none.
fn open_folder_at(dir: &std::fs::File, name: &std::ffi::CStr) -> Option<std::fs::File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    // SAFETY: openat on a descriptor we own and a C string; the descriptor it gives is ours.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    // SAFETY: a descriptor openat just gave, owned by nothing else.
    (fd >= 0).then(|| unsafe { std::fs::File::from_raw_fd(fd) })
}

/// The regular file `name` in the open folder `dir`, opened to read without following a link
/// or waiting on a FIFO; `None` if it is none.
fn open_file_at(dir: &std::fs::File, name: &std::ffi::CStr) -> Option<std::fs::File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    // SAFETY: openat on a descriptor we own and a C string; the descriptor it gives is ours.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    // SAFETY: a descriptor openat just gave, owned by nothing else.
    let file = (fd >= 0).then(|| unsafe { std::fs::File::from_raw_fd(fd) })?;
    file.metadata().is_ok_and(|m| m.is_file()).then_some(file)
}

/// The lock file `path` of a folder its user may not write in, opened to read (not through a
/// link, not waiting on a FIFO), if it is a file.
fn open_lock_to_read(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)?;
    Ok(file.metadata().is_ok_and(|m| m.is_file()).then_some(file))
}

/// Whether `e` says the folder cannot be written by this user (read-only, another user's).
pub(super) fn cannot_write(e: &TournamentError) -> bool {
    matches!(e, TournamentError::Io { source, .. } if cannot_write_source(source))
}

pub(super) fn cannot_write_source(source: &std::io::Error) -> bool {
    matches!(source.raw_os_error(), Some(libc::EACCES | libc::EPERM | libc::EROFS))
}

/// A lock's path taken by something not a file (a folder, a FIFO).
fn not_a_lock(path: &Path) -> TournamentError {
    TournamentError::Invalid(format!("{}: not a file, which a lock is: remove it", path.display()))
}

/// This process's signature of a lock: `pid N on HOST` (`pid N` where the machine has no name),
/// as wide as any pid's (padded), so that no digit of a longer old one is read with it.
pub(super) fn signature() -> String {
    let of = |pid: u32| match this_host() {
        host if host.is_empty() => format!("pid {pid}"),
        host => format!("pid {pid} on {host}"),
    };
    format!("{:<width$}", of(std::process::id()), width = of(u32::MAX).len().max(20))
}

/// Signs the lock `file` held alone ([`signature`]), written over the old text, then cut to its
/// length, never emptied on the way (a process waiting for the lock reads it meanwhile: empty
/// says shards hold it).
fn sign_lock(file: &std::fs::File) {
    use std::os::unix::fs::FileExt;
    // (With its machine: on a folder shared between nodes, `/proc` tells nothing of another's.)
    let signature = signature();
    let _ = file.write_all_at(signature.as_bytes(), 0).and_then(|()| file.set_len(signature.len() as u64));
}

/// The lock of a folder that a publish or a merge replaces whole (renamed into its place, or
/// swapped with it), so that two into one folder do not run at once: the folder's own lock
/// would go with it, or not be there yet, so this one is in its parent folder,
/// `.<name>.arena-<what>.lock` (signed `pid N`, as [`FolderLock`]'s), removed when released.
pub(crate) struct OutLock {
    path: PathBuf,
    _file: std::fs::File,
}

impl OutLock {
    /// Takes the lock for the folder `out` (which need not exist; its parent must) of a `what`
    /// (`publish`, `merge`), waiting up to `wait` while another holds it, or says which
    /// process holds it.
    pub(crate) fn take(out: &Path, what: &str, wait: Duration) -> Result<OutLock, TournamentError> {
        Self::take_until(out, what, wait, &|| false)
    }

    /// [`OutLock::take`], the wait ended as soon as `stop` says so.
    pub(crate) fn take_until(
        out: &Path,
        what: &str,
        wait: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<OutLock, TournamentError> {
        use std::os::unix::fs::MetadataExt;
        let (parent, name) = match (out.parent(), out.file_name()) {
            (Some(parent), Some(name)) => (if parent.as_os_str().is_empty() { Path::new(".") } else { parent }, name),
            _ => return Err(TournamentError::Invalid(format!("{}: not a folder's name", out.display()))),
        };
        let path = parent.join(format!(".{}.arena-{what}.lock", name.to_string_lossy()));
        let deadline = std::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let file =
                FolderLock::lock_file_until(out, &path, libc::LOCK_EX, true, (left, stop)).map_err(|e| match e {
                    TournamentError::Locked { holder, .. } => TournamentError::Invalid(format!(
                    "{}: another arena {what} into it is under way ({holder}{}): wait for it to end, then run this \
                     one again",
                    out.display(),
                    if wait.is_zero() { String::new() } else { format!(", waited {} s", wait.as_secs()) }
                )),
                    other => other,
                })?;
            // The file locked must be the one at `path` still: its holder removes it as it
            // releases it, and a process that opened it before locks a file of no name.
            let held = file.metadata().map(|m| (m.dev(), m.ino())).ok();
            let named = std::fs::symlink_metadata(&path).map(|m| (m.dev(), m.ino())).ok();
            if held.is_some() && held == named {
                return Ok(OutLock { path, _file: file });
            }
        }
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        // (Removed while held: see [`OutLock::take`].)
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Plays one scheduled match; returns its result line and record (saved by the caller).
async fn play_one(
    shared: &Shared,
    m: &ScheduledMatch,
    cancel: &CancellationToken,
) -> Result<(ResultLine, PlayedMatch), RefereeError> {
    let state = shared
        .game
        .new_match(&shared.record.config.match_options(&m.map, shared.boards.get(&m.map).and_then(|b| b.text.clone())))
        .map_err(RefereeError::Setup)?;
    let bots: Vec<BotCommand> = m
        .seats
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let entry = shared.record.bots.iter().find(|b| &b.entry.name == name).map(|b| &b.entry);
            let command = entry.map_or("", |e| e.command.as_str());
            let secret = shared.record.config.seat_secret();
            BotCommand::seated(name, command, entry.and_then(|e| e.cwd.clone()), &secret, m.seed, seat)
        })
        .collect();
    let limits = shared.record.config.limits.limits();
    let mut played = play_match(shared.game.name(), state, &bots, &limits, m.seed, &shared.sandbox, cancel).await?;
    // The replay (published) records each command as the config gives it, not as made absolute
    // with the teacher's folders (`sh bots/alice/bot.sh`, not `sh /home/jdoe/…/bot.sh`), nor
    // as it runs the league's copy of the bot (`sh versions/alice/…/bot.sh`).
    for player in &mut played.replay.players {
        let kept = shared.record.bots.iter().any(|b| b.kept && b.entry.name == player.name);
        let configured = shared.record.config.bots.iter().find(|b| b.name == player.name);
        if let Some(configured) = configured.filter(|_| kept) {
            player.command.clone_from(&configured.command);
        }
        player.command = shared.shown.command(&player.command);
    }
    let versions = m
        .seats
        .iter()
        .map(|name| {
            shared.record.bots.iter().find(|b| &b.entry.name == name).map_or(String::new(), |b| b.fingerprint.clone())
        })
        .collect();
    let line = ResultLine {
        key: m.key.clone(),
        seats: m.seats.clone(),
        map: m.map.clone(),
        game: m.game,
        seed: m.seed,
        steps: played.replay.steps.len(),
        replay: format!("replays/{}.json.gz", m.key),
        result: played.replay.result.clone(),
        versions,
        ended_at: ended_at(&played.replay),
        at: unix_secs(),
        forfeits: crate::explain::forfeit_facts(&played.replay),
    };
    Ok((line, played))
}

/// The step at which each player's game ended: the last step holding one of its answers
/// (0 when it never answered).
fn ended_at(replay: &crate::replay::Replay) -> Vec<usize> {
    (0..replay.players.len())
        .map(|p| replay.steps.iter().rposition(|s| s.replies.iter().any(|r| r.player == p)).map_or(0, |i| i + 1))
        .collect()
}

/// Removes the temporary files a crash may have left in the folders the arena writes (every
/// file is written to a `.tmp-*` file first, then renamed), and the lock files shards left
/// (`.lock.shard-K-of-N`, free while the folder's lock is held alone: see [`FolderLock`]):
/// call it holding the folder alone.
/// (`versions/` holds copies of the students' folders, whose files are theirs: there only a
/// copy cut short goes, `versions/<bot>/<fingerprint>.tmp/`, see [`submission::snapshot`].)
/// A folder that is a link of another user's ([`crate::files::refuse_foreign_link`]) is left
/// unread, and in `versions/` a bot's folder that is a link: nothing is removed through one
/// (the callers refuse the league first, [`refuse_foreign_links`]).
fn remove_temporaries(out: &Path) {
    let refused = |dir: &Path| crate::files::refuse_foreign_link(dir).is_err();
    if refused(out) {
        return;
    }
    let subs = LEAGUE_FOLDERS.iter().filter(|&&sub| sub != "versions");
    for dir in std::iter::once(out.to_path_buf()).chain(subs.map(|sub| out.join(sub))) {
        if refused(&dir) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let shard_lock = dir == out && entry.file_name().to_string_lossy().starts_with(".lock.shard-");
            let stray = crate::files::is_temporary(&entry.file_name()) || shard_lock;
            if stray && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    let versions = out.join("versions");
    if refused(&versions) {
        return;
    }
    let Ok(bots) = std::fs::read_dir(&versions) else { return };
    let bots = bots.flatten().filter(|bot| bot.file_type().is_ok_and(|t| t.is_dir()));
    for copies in bots.filter_map(|bot| std::fs::read_dir(bot.path()).ok()) {
        for copy in copies.flatten() {
            let cut_short = Path::new(&copy.file_name()).extension().is_some_and(|e| e == "tmp");
            if cut_short && copy.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(copy.path());
            }
        }
    }
}

/// The title of the pages of the league in `dir`: `Leaderboard: <the folder's name>` (its real
/// name when `dir` has none, as `.` or `league/sub/..`).
pub fn league_title(dir: &Path) -> String {
    let real = std::fs::canonicalize(dir).ok();
    let name = dir.file_name().or_else(|| real.as_deref().and_then(Path::file_name));
    format!("Leaderboard: {}", name.map_or("tournament".into(), |n| n.to_string_lossy()))
}

/// Step 5, finish: writes `leaderboard.json` and `leaderboard.md` into `out`, each file
/// atomically, and reports them (the pages, titled `title`, are written on that event).
/// `results` are the lines behind `leaderboard`.
pub fn write_leaderboard(
    out: &Path,
    title: &str,
    leaderboard: &Leaderboard,
    results: &[ResultLine],
    reporter: &dyn Reporter,
) -> Result<(), TournamentError> {
    // Compact: a 300-bot league's file is 38 MB so, 67 MB indented (`arena leaderboard DIR
    // --json` prints it indented).
    let json = serde_json::to_vec(leaderboard).map_err(|e| TournamentError::Invalid(e.to_string()))?;
    let path = out.join("leaderboard.json");
    write_atomic(&path, &json).map_err(|e| TournamentError::io(&path, e))?;
    let path = out.join("leaderboard.md");
    write_atomic(&path, leaderboard.markdown(title).as_bytes()).map_err(|e| TournamentError::io(&path, e))?;
    reporter.report(Event::LeaderboardWritten { out, title, leaderboard, results })
}

/// Recomputes the leaderboard of a tournament folder from its files (every results file, a
/// shard's too) and rewrites it, reporting to `reporter`; `as_of` computes the standings at
/// that time instead (and writes nothing).
pub fn recompute(
    dir: &Path,
    as_of: Option<u64>,
    games: &Registry,
    reporter: &dyn Reporter,
) -> Result<Recomputed, TournamentError> {
    let record = TournamentRecord::load_to_show(dir, games)?;
    let (results, unread_lines) = results::read_all_counting(dir)?;
    let done = |board| Recomputed { board, unread_lines };
    if let Some(t) = as_of {
        return Ok(done(record.leaderboard_as_of(&results, dir, t, games)));
    }
    // Alone in the folder (no run is writing it), what a crash left half-written goes and the
    // pages are written again; with a run going on, its files are its own: pages written now
    // could land after its last ones and show an older standing than its results. A lock that
    // cannot be taken at all (a folder its user may only read, a lock file that is a folder)
    // leaves the pages as they are, said with why: the standings, the command's result, are
    // still right (and a run, which must lock the folder, fails on the same error).
    let alone = FolderLock::take(dir, None);
    let leaderboard = record.leaderboard(&results, dir, games);
    let _alone = match alone {
        Ok(lock) => lock,
        Err(e) => {
            match &e {
                TournamentError::Locked { holder, .. } if holder == SHARDS_HOLD_IT => {
                    // (Shards write no pages: the merge does, once they end.)
                    tracing::warn!(
                        "{}: shards are playing this league: its pages are written by the merge, once they end \
                         (these standings are as of now)",
                        dir.display()
                    );
                }
                TournamentError::Locked { .. } => tracing::warn!(
                    "{}: a run is writing this league: its pages are left to it (these standings are as of now)",
                    dir.display()
                ),
                other => tracing::warn!(
                    "{}: its pages were not written again, as its lock could not be taken: {other}",
                    dir.display()
                ),
            }
            return Ok(done(leaderboard));
        }
    };
    remove_temporaries(dir);
    write_leaderboard(dir, &league_title(dir), &leaderboard, &results, reporter)?;
    Ok(done(leaderboard))
}

/// A league's standings as [`recompute`] made them, and how many lines of its results files were
/// no result lines: left out of them, each named by a warning (a resume plays their matches again).
pub struct Recomputed {
    /// The standings.
    pub board: Leaderboard,
    /// How many lines of the results files were no result lines.
    pub unread_lines: usize,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A file the run's caller could not write (a league page) is the run's I/O error on the
    /// same file, said the same, naming it once.
    #[test]
    fn a_page_s_error_is_the_run_s_error_on_the_same_file() {
        let path = Path::new("league/bots/a.html");
        let page = crate::files::PathError::on(path)(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        let said = page.to_string();
        let run = TournamentError::from(page);
        assert!(matches!(&run, TournamentError::Io { path: p, .. } if p == path), "{run:?}");
        assert_eq!(run.to_string(), said);
        assert_eq!(said.matches("a.html").count(), 1, "{said}");
    }

    /// The folders a league keeps are made, and one that cannot be (a file `logs` in its place)
    /// is named once, with why; the control: `replays`, before it, is made.
    #[test]
    fn a_league_s_folders_are_made_and_one_in_the_way_named() {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("logs");
        std::fs::write(&logs, "").unwrap();
        let err = make_league_folder(dir.path(), &["replays", "logs"]).unwrap_err().to_string();
        assert_eq!(err, format!("{}: not a folder: move it away, the arena keeps a folder there", logs.display()));
        assert!(dir.path().join("replays").is_dir(), "the control");
    }

    /// A death by a signal sent with the arena's own counts as the run's end if that end is seen
    /// within [`END_SEEN_WITHIN`]; the control: one never seen is waited for that long, no more.
    #[test]
    fn an_end_seen_within_a_moment_is_the_run_s() {
        let cancel = CancellationToken::new();
        let theirs = cancel.clone();
        let signal = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            theirs.cancel();
        });
        assert!(ending_within_a_moment(&|| cancel.is_cancelled()));
        let _ = signal.join();
        let started = std::time::Instant::now();
        assert!(!ending_within_a_moment(&|| false), "the control");
        let waited = started.elapsed();
        assert!(waited >= END_SEEN_WITHIN && waited < END_SEEN_WITHIN * 4, "{waited:?}");
    }

    /// A copy of a bot version cut short by a crash (`versions/<bot>/<fingerprint>.tmp/`) goes
    /// with the other temporaries; the kept copies stay. The control: before, it is there.
    #[test]
    fn a_kept_copy_cut_short_is_removed_with_the_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let (cut, kept) = (dir.path().join("versions/bob/0a1b.tmp"), dir.path().join("versions/bob/2c3d"));
        for folder in [&cut, &kept] {
            std::fs::create_dir_all(folder.join("src")).unwrap();
            std::fs::write(folder.join("src/bot.c"), "int main;").unwrap();
        }
        std::fs::write(dir.path().join(".tmp-results.jsonl"), "{").unwrap();
        assert!(cut.exists(), "control");
        remove_temporaries(dir.path());
        assert!(!cut.exists() && !dir.path().join(".tmp-results.jsonl").exists());
        assert!(kept.join("src/bot.c").exists());
    }

    /// A folder that holds a league already says how to resume it with a command one can
    /// copy: the folder one word (`'my league'`, `./-lg`). The control: a plain name as it is.
    #[test]
    fn the_resume_command_of_a_league_already_there_can_be_copied() {
        let said = |dir: &str| TournamentError::Exists(PathBuf::from(dir)).to_string();
        assert!(said("my league").contains("resume it with --resume 'my league' (add"), "{}", said("my league"));
        assert!(said("-lg").contains("--resume ./-lg ("), "{}", said("-lg"));
        assert!(said("lg").contains("--resume lg ("), "the control: {}", said("lg"));
    }

    /// A lock held by a process that did not sign it (a publish by a user who may not write the
    /// league, which locks it opened to read), its text naming a run that has ended, is said as
    /// such, not as that run writing the league: an older arena's signature (`pid N`) and one
    /// naming this machine. Signed on another machine (a folder shared between nodes), this
    /// one's `/proc` tells nothing: it is said as that machine's run. The control: signed by a
    /// process alive (init), its pid alone.
    #[test]
    fn a_lock_held_unsigned_names_its_ended_signer_as_ended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let hold = |signer: &str| {
            std::fs::write(&path, format!("{signer:<20}")).unwrap();
            let file = std::fs::File::open(&path).unwrap();
            // SAFETY: flock on a descriptor this test owns.
            assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX) }, 0);
            let said = FolderLock::take(dir.path(), None).map(|_| ()).unwrap_err().to_string();
            drop(file);
            said
        };
        // (No pid is above the kernel's largest, 2^22.)
        let ended = hold("pid 4194305");
        let not_here = "which is not running on this machine; what holds it now did not sign it";
        assert!(ended.contains(&format!("(pid 4194305, {not_here}")), "{ended}");
        let here = this_host();
        let ended = hold(&format!("pid 4194305 on {here}"));
        assert!(ended.contains(&format!("(pid 4194305 on {here}, {not_here}")), "{ended}");
        let elsewhere = hold("pid 4194305 on another-node");
        assert!(elsewhere.contains("another arena run (pid 4194305 on another-node): wait"), "{elsewhere}");
        let alive = hold("pid 1");
        assert!(alive.contains("another arena run (pid 1): wait"), "{alive}");
    }

    /// The lock files shards leave (`.lock.shard-K-of-N`) go once a run holds the folder alone,
    /// and a shard then makes its own anew: two copies of one shard still exclude each other.
    /// The control: a run cannot hold the folder alone while a shard holds its lock.
    #[test]
    fn the_lock_files_shards_leave_go_when_the_folder_is_held_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (out, shard) = (dir.path(), Shard { index: 1, count: 2 });
        let own = out.join(".lock.shard-1-of-2");
        {
            let _shard = FolderLock::take(out, Some(shard)).unwrap();
            assert!(FolderLock::take(out, None).is_err(), "the control: a whole run waits for the shard");
        }
        assert!(own.is_file(), "left behind by the shard");
        {
            // Retried: a shard leaves the folder's lock unsigned, so a child another test's
            // thread forks, still holding it until it starts its program, is not known as ours.
            let start = std::time::Instant::now();
            let _alone = loop {
                match FolderLock::take(out, None) {
                    Err(e) if start.elapsed() < Duration::from_secs(10) => tracing::debug!("{e}"),
                    taken => break taken.unwrap(),
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            remove_temporaries(out);
        }
        assert!(!own.exists(), "removed once the folder was held alone");
        let _again = FolderLock::take(out, Some(shard)).unwrap();
        assert!(own.is_file());
        let twice = FolderLock::take(out, Some(shard));
        assert!(matches!(twice, Err(TournamentError::Locked { .. })), "one shard at a time still");
    }

    /// A file system that cannot lock (an NFS mount without its lock daemon: ENOLCK) is said
    /// to be one, not taken for a folder another run holds (which a shard would wait for, then
    /// report as "being written by another arena run"). The control: a lock held is that.
    #[test]
    fn a_file_system_without_locks_is_not_a_folder_held() {
        let errno = std::io::Error::from_raw_os_error;
        assert!(flock_outcome(0, errno(0)).unwrap());
        assert!(!flock_outcome(-1, errno(libc::EWOULDBLOCK)).unwrap(), "the control: held by another");
        for unsupported in [libc::ENOLCK, libc::EOPNOTSUPP, libc::EINVAL] {
            assert_eq!(flock_outcome(-1, errno(unsupported)).unwrap_err().raw_os_error(), Some(unsupported));
        }
    }

    /// A shard or a merge started while another process holds its folder alone for a moment
    /// (an `arena leaderboard` the teacher runs as the batch system starts them) waits for it,
    /// then goes on; a merge does not wait for shards (refused at once, as before). The
    /// control: without the wait, the shard failed at once (its batch task with it).
    /// Holds folder `out`'s lock alone as another process would, signed as every holder signs
    /// it (pid 1: alive, not this process), until the file given back is dropped.
    fn held_alone_by_another(out: &Path) -> std::fs::File {
        let lock = out.join(".lock");
        std::fs::write(&lock, "pid 1").unwrap();
        let held = std::fs::File::open(&lock).unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&held);
        // Retried: a child another test's thread forks keeps this process's lock, just
        // released, until it starts its program (what `lock_file` allows for too).
        let start = std::time::Instant::now();
        // SAFETY: flock on a descriptor we own.
        while unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            assert!(start.elapsed() < Duration::from_secs(10), "{}", std::io::Error::last_os_error());
            std::thread::sleep(Duration::from_millis(20));
        }
        held
    }

    #[test]
    fn a_shard_or_a_merge_waits_for_a_folder_held_alone_for_a_moment() {
        let dir = tempfile::tempdir().unwrap();
        let (out, shard) = (dir.path().to_path_buf(), Shard { index: 1, count: 2 });
        // Held alone by another process for 300 ms.
        let hold_alone = || held_alone_by_another(&out);
        let release = |held: std::fs::File| {
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                drop(held);
            })
        };
        let held = hold_alone();
        let refused = FolderLock::take(&out, Some(shard));
        assert!(matches!(refused, Err(TournamentError::Locked { .. })), "the control: no wait, no shard");
        let released = release(held);
        let waited = FolderLock::take_waiting(&out, Some(shard), Duration::from_secs(60));
        assert!(waited.is_ok(), "the shard plays once the folder is free: {:?}", waited.err());
        released.join().unwrap();
        // A merge (holding the folder alone) does not wait for shards: refused at once.
        let start = std::time::Instant::now();
        let merge = FolderLock::take_waiting(&out, None, Duration::from_secs(60));
        assert!(matches!(merge, Err(TournamentError::Locked { .. })));
        assert!(start.elapsed() < Duration::from_secs(30), "not waited for: {:?}", start.elapsed());
        drop(waited);
        // It waits for a process holding the folder alone.
        let released = release(hold_alone());
        let merge = FolderLock::take_waiting(&out, None, Duration::from_secs(60));
        assert!(merge.is_ok(), "the merge goes on once the folder is free: {:?}", merge.err());
        released.join().unwrap();
    }

    /// A shard waiting for its folder, held alone by another process, stops waiting as soon as
    /// the run is ended (its Ctrl-C, SIGTERM or SIGHUP: `stop`), saying so and writing nothing;
    /// before, it saw the signal only once the wait was over, up to 2 minutes later. The
    /// control: without the stop, the same wait runs its whole course.
    #[test]
    fn a_wait_for_the_folder_ends_when_the_run_is_ended() {
        let dir = tempfile::tempdir().unwrap();
        let (out, shard) = (dir.path().to_path_buf(), Shard { index: 1, count: 2 });
        let held = held_alone_by_another(&out);
        let wait = Duration::from_secs(2);
        // The control: no stop, the whole wait.
        let start = std::time::Instant::now();
        let waited = FolderLock::take_waiting_until(&out, Some(shard), wait, &|| false);
        assert!(matches!(waited, Err(TournamentError::Locked { .. })), "{:?}", waited.err());
        assert!(start.elapsed() >= wait, "waited its course: {:?}", start.elapsed());
        // Stopped 200 ms into the wait.
        let start = std::time::Instant::now();
        let stop = || start.elapsed() >= Duration::from_millis(200);
        let stopped = FolderLock::take_waiting_until(&out, Some(shard), wait, &stop);
        let took = start.elapsed();
        let Err(e @ TournamentError::StoppedWaiting { .. }) = stopped else { panic!("{:?}", stopped.err()) };
        assert!(took < Duration::from_millis(600), "stopped at once: {took:?}");
        assert!(e.to_string().ends_with("ended while waiting for another arena run to leave it: nothing was written"));
        // Nothing written: the lock as its holder signed it, no shard's lock made.
        assert_eq!(std::fs::read_to_string(out.join(".lock")).unwrap(), "pid 1");
        assert!(!out.join(".lock.shard-1-of-2").exists());
        drop(held);
        // A run ended before it looks does not wait at all; once free, the folder is taken.
        assert!(FolderLock::take_waiting_until(&out, Some(shard), wait, &|| true).is_ok(), "free: taken");
    }

    /// A command that finds the league held by a run (which may have opened the way to its bots'
    /// copies, [`WayToCopies`]) leaves its folders' modes alone: a review found `arena
    /// leaderboard` closing the way mid-run, every later match refused. The control: once the
    /// run is over, the same command makes the folders open to all private.
    #[test]
    fn a_command_refused_by_a_run_leaves_its_folders_modes_alone() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("league");
        std::fs::create_dir_all(out.join("versions/ann/0123456789abcdef")).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        let run = FolderLock::take(&out, None).unwrap();
        // (The run's way, opened once it holds the league.)
        for folder in [out.clone(), out.join("versions"), out.join("versions/ann")] {
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o711)).unwrap();
        }
        let refused = FolderLock::take_waiting(&out, None, Duration::ZERO);
        assert!(matches!(refused, Err(TournamentError::Locked { .. })), "{:?}", refused.err());
        assert_eq!((mode(&out), mode(&out.join("versions/ann"))), (0o711, 0o711), "the way left open");
        drop(run);
        let after = FolderLock::take_waiting(&out, None, Duration::ZERO).unwrap();
        assert_eq!((mode(&out), mode(&out.join("versions/ann"))), (0o700, 0o700), "the control: made private");
        drop(after);
    }

    /// The way to the copies is refused, playing nothing, where a folder above the league lets
    /// no other user in (a league under `/root`: every match would fail, each bot blamed); opened
    /// (search, and the top's files hidden), it is closed by its last holder only. The control:
    /// with the parent open, the way opens, a second holder keeps it open, the last closes it.
    #[test]
    fn the_way_to_the_copies_needs_its_parents_open_and_closes_with_its_last_holder() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("league");
        std::fs::create_dir_all(out.join("versions/ann/0123456789abcdef")).unwrap();
        std::fs::write(out.join("results.jsonl"), "{}\n").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        let chmod = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
        for folder in [out.clone(), out.join("versions"), out.join("versions/ann")] {
            chmod(&folder, 0o700);
        }
        chmod(&out.join("versions/ann/0123456789abcdef"), 0o700);
        chmod(&out.join("results.jsonl"), 0o644);
        chmod(dir.path(), 0o700);
        let refused = WayToCopies::open(&out).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("cannot pass through") && refused.contains("every match would fail"), "{refused}");
        chmod(dir.path(), 0o755);
        let first = WayToCopies::open(&out).unwrap();
        let version = out.join("versions/ann/0123456789abcdef");
        assert_eq!((mode(&out), mode(&version), mode(&out.join("results.jsonl"))), (0o701, 0o701, 0o640));
        let second = WayToCopies::open(&out).unwrap();
        drop(first);
        assert_eq!(mode(&version), 0o701, "kept open by the second holder");
        drop(second);
        assert_eq!((mode(&out), mode(&version)), (0o700, 0o700), "closed by the last");
    }

    /// A league folder `name` in `dir`, private (0700) down to one kept copy of `ann`'s.
    fn private_league_with_a_copy(dir: &Path, name: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let out = dir.join(name);
        std::fs::create_dir_all(out.join("versions/ann/0123456789abcdef")).unwrap();
        for folder in [out.clone(), out.join("versions"), out.join("versions/ann")] {
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        out
    }

    /// A process that exits at once (a second Ctrl-C or SIGTERM while a run ends), running no
    /// drop, closes the ways it holds first ([`close_ways`]). The control: a way whose holder
    /// is gone without its drop (as after `kill -9`) stays open.
    #[test]
    fn a_process_exiting_at_once_closes_the_ways_it_holds() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        let league = |name: &str| private_league_with_a_copy(dir.path(), name);
        let (closed, control) = (league("closed"), league("control"));
        let way = WayToCopies::open(&closed).unwrap();
        let held = WayToCopies::open(&control).unwrap();
        // (The control's holder gone without its drop: out of the list `close_ways` reads.)
        OPEN_WAYS.lock().unwrap().open.retain(|(league, _)| league != &control);
        std::mem::forget(held);
        assert_eq!((mode(&closed), mode(&control)), (0o701, 0o701));
        let closing = closed.clone();
        close_ways_of(move |league| league == closing);
        assert_eq!(mode(&closed.join("versions/ann")), 0o700, "closed before the exit");
        assert_eq!(mode(&control.join("versions/ann")), 0o701, "the control: left open");
        // (Its drop, should it run after all, closes nothing it should not.)
        drop(way);
        assert_eq!(mode(&closed), 0o700);
    }

    /// A process exiting at once leaves no way open that another of its threads was opening: a
    /// way is listed only once open, under the lock `close_ways` takes, and none opens after it.
    /// Before, it was listed first, then opened: a `close_ways` between the two closed it, and
    /// the opening went on (the way stayed open after the exit). The control: a league not
    /// stopped opens as before.
    #[test]
    fn no_way_is_left_open_that_was_opening_as_the_process_stopped() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        let league = |name: &str| private_league_with_a_copy(dir.path(), name);
        let (stopped, control) = (league("stopped"), league("control"));
        let closing = stopped.clone();
        close_ways_of(move |league| league == closing);
        let refused = WayToCopies::open(&stopped).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("stopping at once"), "{refused}");
        assert_eq!(mode(&stopped.join("versions/ann")), 0o700);
        let way = WayToCopies::open(&control).unwrap();
        assert_eq!(mode(&control.join("versions/ann")), 0o701, "the control");
        drop(way);
        // Side by side: whichever comes first, the way ends closed (its holder gone without its
        // drop, as on the exit).
        for i in 0..40 {
            let out = league(&format!("race{i}"));
            let start = Arc::new(std::sync::Barrier::new(2));
            let (theirs, closing) = (start.clone(), out.clone());
            let stop = std::thread::spawn(move || {
                theirs.wait();
                close_ways_of(move |league| league == closing);
            });
            start.wait();
            if let Ok(way) = WayToCopies::open(&out) {
                std::mem::forget(way);
            }
            stop.join().unwrap();
            assert_eq!(mode(&out.join("versions/ann")), 0o700, "{i}: left open");
        }
    }

    /// A league's folder every user may enter is made private, but not its `tournament.json` where
    /// it has more than one name: in a folder the shards' machines write (the shared folder's
    /// flow), it may be a teacher's file linked there, whose mode is not the league's to change.
    /// The control: taken as a file of one name, the teacher's file is made private.
    #[test]
    fn a_record_of_two_names_is_not_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let (league, notes) = (dir.path().join("league"), dir.path().join("notes.json"));
        std::fs::create_dir_all(&league).unwrap();
        std::fs::write(&notes, "{}").unwrap();
        std::fs::hard_link(&notes, league.join(TOURNAMENT_FILE)).unwrap();
        for control in [false, true] {
            std::fs::set_permissions(&league, std::fs::Permissions::from_mode(0o755)).unwrap();
            std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o644)).unwrap();
            let take = || drop(FolderLock::take(&league, None).unwrap());
            if control {
                crate::files::tests::with_hard_links_taken(take);
                assert_eq!(mode(&notes), 0o600, "the control: the teacher's file made private");
            } else {
                take();
                assert_eq!(mode(&notes), 0o644, "the teacher's file as it was");
            }
            assert_eq!(mode(&league), 0o700, "the folder made private all the same");
        }
    }

    /// The lock of the teacher's own folder with a second name, as a `cp -al` snapshot's is, is
    /// taken, never written or made private: a run of the league resumes. One whose text is no lock's (a teacher's
    /// notes linked there) is refused, the notes as they were. A shard's (`foreign`) is refused
    /// either way. The control: hard links taken as files of one name, the notes are signed.
    #[test]
    fn a_lock_of_two_names_is_taken_where_it_is_a_lock() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (league, snap) = (dir.path().join("league"), dir.path().join("snap"));
        std::fs::create_dir_all(&league).unwrap();
        std::fs::create_dir_all(&snap).unwrap();
        drop(FolderLock::take(&league, None).unwrap());
        std::fs::hard_link(league.join(".lock"), snap.join(".lock")).unwrap();
        drop(FolderLock::take(&snap, None).unwrap());
        drop(FolderLock::take(&league, None).unwrap());
        assert_eq!(std::fs::read_to_string(snap.join(".lock")).unwrap(), signature());
        // Held, its text says who held it before its second name, which the refusal says. The
        // control: the same text in a lock of one name is taken at its word.
        let alone = dir.path().join("alone");
        std::fs::create_dir_all(&alone).unwrap();
        for (at, two) in [(&snap, true), (&alone, false)] {
            std::fs::write(at.join(".lock"), "pid 1").unwrap();
            let held = std::fs::File::open(at.join(".lock")).unwrap();
            // SAFETY: flock on a descriptor we own.
            assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) }, 0);
            let err = FolderLock::take(at, None).map(|_| ()).unwrap_err().to_string();
            let note = "pid 1, as its lock says, but the lock has more than one name";
            assert_eq!(err.contains(note), two, "{err}");
            assert!(err.contains("is being written by another arena run (pid 1"), "{err}");
        }
        std::fs::write(snap.join(".lock"), signature()).unwrap();
        let err = open_lock(&snap.join(".lock"), false, true).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("a hard link (2 names of one file)") && err.contains("copy the file"), "{err}");
        // A teacher's notes linked where the lock goes.
        let notes = dir.path().join("notes.txt");
        let text = "the teacher's notes, which no run may change\n";
        std::fs::write(&notes, text).unwrap();
        std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_file(snap.join(".lock")).unwrap();
        std::fs::hard_link(&notes, snap.join(".lock")).unwrap();
        let err = FolderLock::take(&snap, None).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("a hard link (2 names of one file) whose text is no lock's"), "{err}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
        assert_eq!(std::fs::metadata(&notes).unwrap().permissions().mode() & 0o777, 0o644);
        crate::files::tests::with_hard_links_taken(|| drop(FolderLock::take(&snap, None).unwrap()));
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), signature(), "the control: the notes signed");
        // A teacher's empty file linked where the lock goes (a shard's machine, in a folder it
        // shares with the league): taken, but neither signed nor made private. The control: taken
        // as a file of one name, it is signed and made private.
        let empty = dir.path().join("empty.txt");
        for control in [false, true] {
            std::fs::write(&empty, "").unwrap();
            std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o644)).unwrap();
            std::fs::remove_file(snap.join(".lock")).unwrap();
            std::fs::hard_link(&empty, snap.join(".lock")).unwrap();
            let take = || drop(FolderLock::take(&snap, None).unwrap());
            if control {
                crate::files::tests::with_hard_links_taken(take);
            } else {
                take();
            }
            let (text, mode) = (
                std::fs::read_to_string(&empty).unwrap(),
                std::fs::metadata(&empty).unwrap().permissions().mode() & 0o777,
            );
            if control {
                assert_eq!((text, mode), (signature(), 0o600), "the control: signed and made private");
            } else {
                assert_eq!((text.as_str(), mode), ("", 0o644), "the teacher's file as it was");
            }
        }
    }

    /// Runs `test` on a thread of its own, in a mount namespace of its own where `dir` is mounted
    /// read-only (root writes any folder it may not: only a read-only file system refuses it a
    /// write). Nothing where no namespace can be made here (said; `false`); the mount goes with
    /// the thread.
    fn with_read_only(dir: &Path, test: impl FnOnce() + Send + 'static) -> bool {
        let dir = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).unwrap();
        let thread = std::thread::spawn(move || {
            // SAFETY: unshare and mount with valid C strings; the namespace is this thread's alone,
            // and made private first so that no mount in it reaches the machine's.
            let ready = unsafe {
                libc::unshare(libc::CLONE_NEWNS) == 0
                    && libc::mount(
                        c"none".as_ptr(),
                        c"/".as_ptr(),
                        std::ptr::null(),
                        libc::MS_REC | libc::MS_PRIVATE,
                        std::ptr::null(),
                    ) == 0
                    && libc::mount(dir.as_ptr(), dir.as_ptr(), std::ptr::null(), libc::MS_BIND, std::ptr::null()) == 0
                    && libc::mount(
                        std::ptr::null(),
                        dir.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY,
                        std::ptr::null(),
                    ) == 0
            };
            if !ready {
                eprintln!("no mount namespace here ({}): nothing to show", std::io::Error::last_os_error());
                return false;
            }
            test();
            true
        });
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Where the merge may only read a shard's folder (here a read-only mount), it takes the
    /// folder's lock on the lock file opened to read, and checks that file as the folder's other
    /// files are: one that is a hard link (to a teacher's file) is refused, naming it, never held
    /// (a teacher's process holding that file would have the merge wait on it, its text said).
    /// The teacher's own folder's (not `foreign`) is taken. The control: hard links taken as
    /// files of one name, the shard's is held.
    #[test]
    fn a_read_only_shard_s_lock_of_two_names_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let shard = dir.path().join("shard");
        std::fs::create_dir_all(&shard).unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "the teacher's notes\n").unwrap();
        std::fs::hard_link(&notes, shard.join(".lock")).unwrap();
        let at = shard.clone();
        let shown = with_read_only(&shard, move || {
            let lock = at.join(".lock");
            let e = open_lock(&lock, false, true).map(|_| ()).unwrap_err();
            assert!(cannot_write(&e), "the folder is read-only, so the fallback reads the lock: {e}");
            let take = |foreign| FolderLock::take_to_read_until(&at, Duration::ZERO, &|| false, foreign);
            let err = take(true).map(|_| ()).unwrap_err().to_string();
            let why = format!("{}: a hard link (2 names of one file)", lock.display());
            assert!(err.starts_with(&why) && err.contains("copy the file so it has one name"), "{err}");
            assert!(take(false).unwrap().is_some(), "the teacher's own folder's is taken");
            let held = crate::files::tests::with_hard_links_taken(|| take(true).unwrap());
            assert!(held.is_some(), "the control: taken for the shard's own, it is held");
        });
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "the teacher's notes\n");
        if shown {
            std::fs::write(shard.join("written"), "").expect("the mount was the thread's alone");
        }
    }

    /// A shard's folder (`foreign`) is only read: taking its lock to read never makes it or its
    /// record private (a shard that swapped its record for a hard link to a teacher's file,
    /// after the record's check, had that file made private). The control: the teacher's own
    /// folder, taken the same way, is made private, its record with it.
    #[test]
    fn a_shard_s_folder_is_never_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        for foreign in [true, false] {
            let shard = dir.path().join(format!("shard-{foreign}"));
            std::fs::create_dir_all(&shard).unwrap();
            let record = shard.join(TOURNAMENT_FILE);
            std::fs::write(&record, "{}").unwrap();
            std::fs::set_permissions(&record, std::fs::Permissions::from_mode(0o644)).unwrap();
            std::fs::set_permissions(&shard, std::fs::Permissions::from_mode(0o755)).unwrap();
            let lock = FolderLock::take_to_read_until(&shard, Duration::ZERO, &|| false, foreign).unwrap();
            assert!(lock.is_some());
            if foreign {
                assert_eq!((mode(&shard), mode(&record)), (0o755, 0o644), "a shard's folder as it was");
            } else {
                assert_eq!((mode(&shard), mode(&record)), (0o700, 0o600), "the control: the teacher's made private");
            }
        }
    }

    /// A link planted where a lock goes (beside the league, or in it, where a student's build
    /// may write: a league in a bot's folder) to a file of the teacher's: a publish, a merge and
    /// a run refuse it, naming it, and the file is as it was. The control: opened through the
    /// link and signed, as the locks were, the teacher's file is cut to the signature.
    #[test]
    fn a_lock_that_is_a_link_is_refused_and_its_target_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let precious = dir.path().join("grades.csv");
        let text = "alice,20\nbob,18\ncarol,19\n";
        std::fs::write(&precious, text).unwrap();
        let out = dir.path().join("league");
        std::fs::create_dir_all(&out).unwrap();
        for (what, link) in [("publish", ".league.arena-publish.lock"), ("merge", ".league.arena-merge.lock")] {
            std::os::unix::fs::symlink(&precious, dir.path().join(link)).unwrap();
            let err = OutLock::take(&out, what, Duration::ZERO).map(|_| ()).unwrap_err().to_string();
            assert!(err.contains("is a symbolic link"), "{what}: {err}");
            assert_eq!(std::fs::read_to_string(&precious).unwrap(), text, "{what}");
        }
        std::os::unix::fs::symlink(&precious, out.join(".lock")).unwrap();
        let err = FolderLock::take(&out, None).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), text);
        // The control.
        let file = open_lock(&out.join(".lock"), true, false).unwrap();
        sign_lock(&file);
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), signature());
    }

    /// A merge waiting for its folder reads who holds it again as it waits: the whole run whose
    /// signature it read first had ended, and shards hold the folder (one clears the signature
    /// as it takes it, here just after the merge read it): refused at once, naming the shards.
    /// The control: read once, the merge waited its whole wait and named the run that had ended.
    #[test]
    fn a_merge_waiting_for_its_folder_reads_again_who_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join(".lock");
        let wait_for = |reread: bool, wait: Duration| {
            // The run's signature (pid 1: alive, not this process), and a shard holding the lock.
            std::fs::write(&lock, "pid 1").unwrap();
            let shard = std::fs::OpenOptions::new().read(true).write(true).open(&lock).unwrap();
            let fd = std::os::fd::AsRawFd::as_raw_fd(&shard);
            // Retried: a child another test's thread forks may hold a lock of this process's
            // for a moment (as in the tests above).
            let start = std::time::Instant::now();
            // SAFETY: flock on a descriptor this test owns.
            while unsafe { libc::flock(fd, libc::LOCK_SH | libc::LOCK_NB) } != 0 {
                assert!(start.elapsed() < Duration::from_secs(10), "{}", std::io::Error::last_os_error());
                std::thread::sleep(Duration::from_millis(20));
            }
            // The shard clears the signature once the merge has read it.
            let clear = || {
                let _ = shard.set_len(0);
            };
            let start = std::time::Instant::now();
            let taken = FolderLock::lock_file_with(dir.path(), &lock, libc::LOCK_EX, true, wait, reread, &clear);
            let holder = match taken {
                Err(TournamentError::Locked { holder, .. }) => holder,
                other => panic!("taken while a shard holds it: {:?}", other.map(|_| ())),
            };
            (holder, start.elapsed())
        };
        let (holder, waited) = wait_for(true, Duration::from_secs(60));
        assert_eq!(holder, SHARDS_HOLD_IT);
        assert!(waited < Duration::from_secs(30), "refused at once: {waited:?}");
        // The control: read once.
        let (holder, waited) = wait_for(false, Duration::from_secs(1));
        assert_eq!(holder, "pid 1", "the run that had ended");
        assert!(waited >= Duration::from_secs(1), "its whole wait: {waited:?}");
    }

    /// A run stopped after its builds, before its record was saved, leaves a copy of a version
    /// no record keeps (here: ben's files changed, copied, then changed back): the next run
    /// removes it, and leaves the copies the record keeps and what the arena did not make. The
    /// control: the copy is there until then.
    #[test]
    fn a_copy_of_a_version_no_record_keeps_is_removed_by_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let out = dir.path().join("course/league");
        assert_eq!(league(config.clone(), &out, false).played, 6);
        let copies = |bot: &str| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(out.join("versions").join(bot))
                .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
                .unwrap_or_default();
            names.sort();
            names
        };
        let kept = copies("ben");
        assert_eq!(kept.len(), 1, "{kept:?}");
        // The stopped run: its builds and copies, no record saved.
        let script = dir.path().join("course/bots/ben/bot.sh");
        std::fs::write(&script, format!("{WAITER}# tuned\n")).unwrap();
        let mut history = TournamentRecord::read(&out).unwrap().history;
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        versions::prepare(&config, &sandbox, &out, unix_secs(), &mut history, &|| false, &|_| {}).unwrap();
        std::fs::write(&script, WAITER).unwrap();
        std::fs::create_dir_all(out.join("versions/ben/notes")).unwrap();
        std::fs::write(out.join("versions/ben/notes/mine.txt"), "the teacher's").unwrap();
        assert_eq!(copies("ben").len(), 3, "the control: the stopped run's copy is there: {:?}", copies("ben"));
        let resumed = league(config, &out, true);
        assert_eq!((resumed.played, resumed.kept), (0, 6));
        let mut want = kept.clone();
        want.push("notes".to_string());
        assert_eq!(copies("ben"), want, "the copy no record keeps is gone");
        assert!(out.join("versions/ben/notes/mine.txt").is_file());
        for bot in ["ann", "cid"] {
            assert_eq!(copies(bot).len(), 1, "{bot}: {:?}", copies(bot));
        }
        let record = TournamentRecord::read(&out).unwrap();
        let ben = record.bots.iter().find(|b| b.entry.name == "ben").unwrap();
        assert_eq!(vec![ben.fingerprint.clone()], kept, "the copy kept is ben's standing version's");
    }

    /// The results no longer counted are said as the folder holds them, whichever run
    /// superseded them: a new version that `arena build` scheduled (as before shards) is 4
    /// results no longer counted to the run after it, and still 4 to the next (it counted 0).
    #[test]
    fn the_results_no_longer_counted_are_said_whichever_run_superseded_them() {
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let out = dir.path().join("course/league");
        assert_eq!(league(config.clone(), &out, false).dropped, 0);
        std::fs::write(dir.path().join("course/bots/ben/bot.sh"), format!("{WAITER}# tuned\n")).unwrap();
        let build = RunOptions { resume: true, prepare_only: true, ..RunOptions::default() };
        run(config.clone(), &out, &build, &crate::games::registry(), &Quiet, CancellationToken::new()).unwrap();
        let after_build = league(config.clone(), &out, true);
        assert_eq!((after_build.played, after_build.kept, after_build.dropped), (4, 2, 4), "{after_build:?}");
        let again = league(config, &out, true);
        assert_eq!((again.played, again.kept, again.dropped), (0, 6, 4), "{again:?}");
    }

    /// Files back after a newer version are that version again, shown with the time it was
    /// first seen, not when it came back (the record notes that, for `--as-of`). The control:
    /// the entry it stands on is dated when it came back.
    #[test]
    fn a_version_back_is_shown_with_the_time_it_was_first_seen() {
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let out = dir.path().join("course/league");
        league(config.clone(), &out, false);
        // (First seen at 100 s after 1970, so that every later time differs.)
        let mut record = TournamentRecord::read(&out).unwrap();
        record.history.get_mut("ben").unwrap().versions[0].at = 100;
        record.save(&out).unwrap();
        let script = dir.path().join("course/bots/ben/bot.sh");
        std::fs::write(&script, format!("{WAITER}# tuned\n")).unwrap();
        let v2 = league(config.clone(), &out, true);
        assert_eq!(v2.leaderboard.rows.iter().find(|r| r.bot == "ben").unwrap().version.as_deref(), Some("v2"));
        std::fs::write(&script, WAITER).unwrap();
        let back = league(config, &out, true);
        let row = back.leaderboard.rows.iter().find(|r| r.bot == "ben").unwrap();
        assert_eq!((row.version.as_deref(), row.version_at.as_deref()), (Some("v1"), Some("1970-01-01T00:01:40Z")));
        let history = &TournamentRecord::read(&out).unwrap().history["ben"];
        assert_eq!(history.versions.len(), 3);
        assert_ne!(history.standing(None).unwrap().at, 100, "the control: its entry is dated when it came back");
    }

    /// The boxes of the matches played at once are checked against the machine's memory: 2
    /// matches of 2 bots at the default limits (1,024 + 64 MiB each) need 4,352 MiB. The
    /// control: they fit in 24 GiB, and nothing is said where the memory is unknown.
    #[test]
    fn more_memory_in_boxes_than_the_machine_has_is_warned_of() {
        let limits = SandboxLimits::default();
        let said = memory_warning(2, 2, limits, Some(4096)).unwrap_or_default();
        assert!(
            said.starts_with("2 matches at once, 2 bots each, may hold up to 4352 MiB (4 boxes of 1024 MiB"),
            "{said}"
        );
        assert!(said.contains("more than this machine's 4096 MiB"), "{said}");
        assert_eq!(memory_warning(2, 2, limits, Some(24 * 1024)), None);
        assert_eq!(memory_warning(2, 2, limits, None), None);
        assert!(machine_memory_mb().is_some_and(|mb| mb > 0));
    }

    /// A result is shown on its scheduled match's map, by the pool's name for it, even when its
    /// line holds another path for that map (a league built again on another machine: keys hold
    /// the map's content, not its path); a result of an earlier pool, by its file name. The
    /// control: the lines keep their paths.
    #[test]
    fn a_result_is_shown_by_its_scheduled_map_s_name_whatever_path_its_line_holds() {
        let dir = tempfile::tempdir().unwrap();
        let text = "seed = 3\nmaps = [\"maps/arena1.txt\", \"week2/arena1.txt\"]\n[[bots]]\nname = \"a\"\n\
                    command = \"x\"\n[[bots]]\nname = \"b\"\ncommand = \"y\"\n";
        let mut config = TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap();
        config.resolve_paths(Path::new("/srv/course"));
        let boards: Vec<MapFact> = config
            .maps
            .iter()
            .zip(["638bf733d0aa1b2c", "77aa00bb11cc22dd"])
            .map(|(p, d)| MapFact { path: p.display().to_string(), digest: d.to_string() })
            .collect();
        let scheduled = ScheduledMatch {
            key: "k".to_string(),
            seats: vec!["a".to_string(), "b".to_string()],
            map: config.maps[1].clone(),
            game: 1,
            seed: 2,
            cost: 1,
        };
        let record = TournamentRecord {
            config,
            bots: Vec::new(),
            failures: BTreeMap::new(),
            schedule: vec![scheduled],
            history: BTreeMap::new(),
            boards,
            folder: None,
            earlier: Vec::new(),
            shards: None,
            slice: None,
        };
        let player = |name: &str| crate::replay::PlayerResult {
            name: name.to_string(),
            score: 1,
            finished: true,
            forfeit: None,
            detail: None,
        };
        let line = |key: &str, map: &str| ResultLine {
            key: key.to_string(),
            seats: vec!["a".to_string(), "b".to_string()],
            map: map.into(),
            game: 1,
            seed: 2,
            steps: 3,
            replay: format!("replays/{key}.json.gz"),
            result: crate::replay::MatchResult { players: vec![player("a"), player("b")], winner: None },
            versions: Vec::new(),
            ended_at: Vec::new(),
            at: 0,
            forfeits: Vec::new(),
        };
        let lines = [line("k", "/home/jdoe/2025/week2/arena1.txt"), line("gone", "/home/jdoe/2025/maps/old.txt")];
        let board = record.leaderboard(&lines, dir.path(), &crate::games::registry());
        let shown: Vec<&str> = board.rows.iter().flat_map(|r| r.matches.iter().map(|m| m.map.as_str())).collect();
        assert_eq!(shown, ["week2/arena1.txt", "week2/arena1.txt"]);
        let facts: Vec<&str> = board.facts.as_ref().unwrap().maps.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(facts, ["maps/arena1.txt", "week2/arena1.txt"]);
        let public: Vec<PathBuf> = record.public_lines(&lines).into_iter().map(|l| l.map).collect();
        assert_eq!(public, [PathBuf::from("week2/arena1.txt"), PathBuf::from("old.txt")]);
        assert!(lines[0].map.starts_with("/home/jdoe"), "the control: the line keeps its path");
    }

    /// A league's leaderboard is dated by its record, whatever the clock says: the newest of its
    /// counted results' ends and its bots' versions (up to `as_of`; an unknown time, 0, is none).
    #[test]
    fn a_leaderboard_is_dated_by_the_league_s_last_result_or_version() {
        let config = TournamentConfig::from_toml("[[bots]]\nname = \"a\"\ncommand = \"x\"\n", Path::new("t")).unwrap();
        let version = |at| versions::Version {
            fingerprint: format!("f{at}"),
            label: "v1".to_string(),
            at,
            ok: true,
            problem: None,
            build_log: None,
            kept: None,
            portable: None,
        };
        let history = BTreeMap::from([(
            "a".to_string(),
            BotHistory { versions: vec![version(1_700_000_000), version(1_700_000_500)], ..Default::default() },
        )]);
        let record = TournamentRecord {
            config,
            bots: Vec::new(),
            failures: BTreeMap::new(),
            schedule: Vec::new(),
            history,
            boards: Vec::new(),
            folder: None,
            earlier: Vec::new(),
            shards: None,
            slice: None,
        };
        let line = |at: u64| -> ResultLine {
            let result = serde_json::json!({"players": [], "winner": null});
            let line = serde_json::json!({"key": "k", "seats": [], "map": "m", "game": 1, "seed": 1, "steps": 1,
                "replay": "replays/k.json.gz", "result": result, "at": at});
            serde_json::from_value(line).unwrap()
        };
        assert_eq!(record.last_change(&[line(1_700_000_900), line(0)], None), 1_700_000_900);
        assert_eq!(record.last_change(&[line(1_700_000_100)], None), 1_700_000_500, "a newer version");
        assert_eq!(record.last_change(&[line(1_700_000_900)], Some(1_700_000_600)), 1_700_000_500);
        assert_eq!(record.facts(1_700_000_900).date, "2023-11-14T22:28:20Z");
    }

    /// A league published from within (`arena publish . OUT`) is titled by its folder's name,
    /// not "tournament" (the review's: `.` has no file name).
    #[test]
    fn a_league_is_titled_by_its_folder_s_real_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("week3/sub")).unwrap();
        assert_eq!(league_title(&dir.path().join("week3/sub/..")), "Leaderboard: week3");
        assert_eq!(league_title(&dir.path().join("week3")), "Leaderboard: week3");
        assert_eq!(league_title(Path::new("/")), "Leaderboard: tournament");
    }

    /// `tournament.json` holds every field of the record (written through a borrowed copy of
    /// it, [`OnDisk`]), the kept copies' paths relative to the league folder; reading it back
    /// gives the record again, wherever the league folder is now.
    #[test]
    fn a_record_is_saved_whole_and_its_kept_copies_relative_to_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let league = dir.path().join("league");
        std::fs::create_dir_all(&league).unwrap();
        let fp = "0123456789abcdef";
        let copy = league.join("versions/bob").join(fp).join("folder");
        let kept = config::BotEntry { cwd: Some(copy.clone()), ..config::parse_bot_arg("bob=./bot").unwrap() };
        let good = versions::Version {
            fingerprint: fp.to_string(),
            label: "v1".to_string(),
            at: 1,
            ok: true,
            problem: None,
            build_log: Some("builds/bob-1.log".to_string()),
            kept: Some(kept.clone()),
            portable: None,
        };
        let record = TournamentRecord {
            config: TournamentConfig::from_toml("seed = 3\nmaps = [\"a.txt\"]\n", Path::new("t.toml")).unwrap(),
            bots: vec![BotVersion {
                entry: kept,
                fingerprint: fp.to_string(),
                runnable: true,
                kept: true,
                built: None,
            }],
            failures: BTreeMap::from([("carol".to_string(), "cannot start".to_string())]),
            schedule: vec![ScheduledMatch {
                key: "k".to_string(),
                seats: vec!["bob".to_string()],
                map: "a.txt".into(),
                game: 1,
                seed: 2,
                cost: 1,
            }],
            history: BTreeMap::from([(
                "bob".to_string(),
                BotHistory { versions: vec![good], ..BotHistory::default() },
            )]),
            boards: vec![MapFact { path: "a.txt".to_string(), digest: "d".to_string() }],
            folder: Some(league.clone()),
            earlier: Vec::new(),
            shards: None,
            slice: None,
        };
        record.save(&league).unwrap();
        let saved: serde_json::Value =
            serde_json::from_slice(&std::fs::read(league.join(TOURNAMENT_FILE)).unwrap()).unwrap();
        let relative = format!("versions/bob/{fp}/folder");
        assert_eq!(saved["bots"][0]["cwd"], relative.as_str());
        assert_eq!(saved["history"]["bob"]["versions"][0]["kept"]["cwd"], relative.as_str());
        let mut expected = serde_json::to_value(&record).unwrap();
        expected["bots"][0]["cwd"] = relative.as_str().into();
        expected["history"]["bob"]["versions"][0]["kept"]["cwd"] = relative.as_str().into();
        assert_eq!(saved, expected, "every field is written");
        let loaded = TournamentRecord::read(&league).unwrap();
        assert_eq!(serde_json::to_value(&loaded).unwrap(), serde_json::to_value(&record).unwrap());
        let moved = dir.path().join("moved");
        std::fs::rename(&league, &moved).unwrap();
        let loaded = TournamentRecord::read(&moved).unwrap();
        assert_eq!(loaded.bots[0].entry.cwd, Some(moved.join(&relative)));
    }

    /// The course of [`course`], played one match at a time, where `ann` (no folder of her own)
    /// and `cid` (with one) each rewrite their own script in their own folder when they start
    /// (to one that says `-B` on stderr instead of `-A`), as a push during the run would.
    fn self_rewriting_course(dir: &Path) -> TournamentConfig {
        let cfg = course(dir);
        for (bot, script) in [("ann", dir.join("bots/ann/bot.sh")), ("cid", dir.join("cid/bot.sh"))] {
            let (live, waiter) = (script.display(), WAITER.trim_end());
            let text = format!(
                "echo {bot}-A >&2\nprintf '%s\\n' 'echo {bot}-B >&2' '{waiter}' > '{live}.new' && mv '{live}.new' \
                 '{live}'\n{WAITER}"
            );
            std::fs::write(&script, text).unwrap();
        }
        let mut config = TournamentConfig::load(&cfg).unwrap();
        config.jobs = Some(1);
        config
    }

    /// The scripts of `ann` and `cid` in the course in `dir`, with their contents.
    fn scripts_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        ["bots/ann/bot.sh", "cid/bot.sh"]
            .iter()
            .map(|s| dir.join("course").join(s))
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect()
    }

    /// The result lines in `out`, each with its match's log (what the bots said on stderr).
    fn lines_with_logs(out: &Path) -> Vec<(ResultLine, String)> {
        let (lines, _) = results::read_file(&out.join(RESULTS_FILE)).unwrap();
        lines
            .into_iter()
            .map(|l| {
                let log = std::fs::read_to_string(out.join("logs").join(format!("{}.log", l.key))).unwrap_or_default();
                (l, log)
            })
            .collect()
    }

    /// The league `out` built (nothing played) with each bot recorded as playing from its own
    /// files, as an earlier arena recorded them (or as a bot no copy could be made of plays).
    fn built_to_play_live(config: &TournamentConfig, out: &Path) -> TournamentRecord {
        let options = RunOptions { prepare_only: true, ..RunOptions::default() };
        run(config.clone(), out, &options, &crate::games::registry(), &Quiet, CancellationToken::new()).unwrap();
        let mut record = TournamentRecord::read(out).unwrap();
        for bot in &mut record.bots {
            bot.entry = record.config.bots.iter().find(|b| b.name == bot.entry.name).unwrap().clone();
            bot.kept = false;
        }
        record.save(out).unwrap();
        record
    }

    /// The control of the tests below: `record`'s matches played into `out` from the bots' own
    /// files, unchecked (as a run played them before): a match after `ann`'s first is recorded
    /// under her version's fingerprint, played by the code she rewrote.
    fn played_live_unchecked(record: &TournamentRecord, out: &Path) {
        let games = crate::games::registry();
        let game = games.get(&record.config.game).unwrap();
        let boards = load_boards(&record.config, game).unwrap();
        let writer = ResultsWriter::open(&out.join(RESULTS_FILE), 0).unwrap();
        let cancel = CancellationToken::new();
        let todo = record.schedule.clone();
        let matches = Matches { todo, writer, out, league: out, check_live: false, reporter: &Quiet, cancel: &cancel };
        let executed = execute(record, game, boards, matches, &mut Vec::new()).unwrap();
        assert_eq!((executed.played, executed.changed), (6, 0));
        let ann = record.bots.iter().find(|b| b.entry.name == "ann").unwrap().fingerprint.clone();
        let by_other_code = lines_with_logs(out)
            .into_iter()
            .filter(|(l, log)| l.versions.contains(&ann) && log.contains("ann-B") && !log.contains("ann-A"))
            .count();
        assert_eq!(by_other_code, 3, "the control: ann's 3 later matches recorded as hers, played by other code");
    }

    /// A bot whose files change during a run (here it rewrites its own script as it starts, as
    /// a push or a pull would) plays every match as its recorded version, from the copy the
    /// league kept of it: every match of `ann` and `cid` is played by the code recorded (`-A`),
    /// and the replays give their commands as the config does. The next run records their new
    /// version and plays it. The control: played from their own files, as before, ann's later
    /// matches were played by the code she rewrote, under her recorded version.
    #[test]
    fn a_bot_whose_files_change_during_the_run_plays_its_recorded_version_from_its_copy() {
        let dir = tempfile::tempdir().unwrap();
        let config = self_rewriting_course(&dir.path().join("course"));
        let scripts = scripts_of(dir.path());
        let out = dir.path().join("course/league");
        let summary = league(config.clone(), &out, false);
        assert_eq!((summary.played, summary.changed), (6, 0));
        let record = TournamentRecord::read(&out).unwrap();
        assert!(record.bots.iter().all(|b| b.kept && b.entry.cwd.iter().all(|d| d.starts_with(&out))));
        let live = std::fs::read_to_string(dir.path().join("course/bots/ann/bot.sh")).unwrap();
        assert!(live.contains("ann-B") && !live.contains("ann-A"), "ann rewrote her own files: {live}");
        for (line, log) in lines_with_logs(&out) {
            for bot in ["ann", "cid"].iter().filter(|b| line.seats.iter().any(|s| s == *b)) {
                assert!(log.contains(&format!("{bot}-A")) && !log.contains("-B"), "{}: {log}", line.key);
            }
            let replay = crate::replay::Replay::load(&out.join(&line.replay)).unwrap();
            for player in &replay.players {
                let want = if player.name == "cid" {
                    "sh bot.sh".to_string()
                } else {
                    format!("sh bots/{}/bot.sh", player.name)
                };
                assert_eq!(player.command, want, "as the config gives it");
            }
        }
        // The next run: their new versions, played from their copies.
        let next = league(config.clone(), &out, true);
        assert_eq!((next.played, next.changed), (6, 0));
        let played_now: Vec<String> = lines_with_logs(&out).into_iter().skip(6).map(|(_, log)| log).collect();
        assert!(played_now.iter().all(|log| log.contains("-B") && !log.contains("-A")), "{played_now:?}");

        // The control: played from their own files, unchecked.
        let control = dir.path().join("course/control");
        for (path, bytes) in &scripts {
            std::fs::write(path, bytes).unwrap();
        }
        let record = built_to_play_live(&config, &control);
        played_live_unchecked(&record, &control);
    }

    /// A bot that plays from its own files (no copy of its version: here a record of an earlier
    /// arena, played by a shard) plays each match only while they still fingerprint as its
    /// recorded version, checked before and after each: once `ann` and `cid` rewrote theirs,
    /// their matches are left for the next run, with a warning, and no result is recorded that
    /// other code played. The control: unchecked, ann's later matches were recorded as hers.
    #[test]
    fn a_bot_playing_from_its_own_changed_files_leaves_its_matches_for_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let config = self_rewriting_course(&dir.path().join("course"));
        let scripts = scripts_of(dir.path());
        let out = dir.path().join("course/league");
        built_to_play_live(&config, &out);
        let warnings = Mutex::new(Vec::new());
        let reporter = |event: Event<'_>| {
            if let Event::Warning(text) = event {
                warnings.lock().unwrap().push(text.to_string());
            }
            Ok(())
        };
        let options = RunOptions { shard: Some(Shard { index: 1, count: 1 }), ..RunOptions::default() };
        let summary =
            run(config.clone(), &out, &options, &crate::games::registry(), &reporter, CancellationToken::new())
                .unwrap();
        assert!(summary.changed >= 2 && summary.played + summary.changed == 6, "{summary:?}");
        for (line, log) in lines_with_logs(&out) {
            assert!(!log.contains("-B"), "{}: recorded, played by other code: {log}", line.key);
        }
        let warnings = warnings.into_inner().unwrap();
        assert_eq!(warnings.len(), 2, "once per bot: {warnings:?}");
        for bot in ["ann", "cid"] {
            let said = warnings.iter().find(|w| w.contains(&format!("bot `{bot}`"))).unwrap();
            assert!(said.contains("changed during the run") && said.contains("left for the next run"), "{said}");
            assert!(said.contains("(built as v1, its files now a version the league has not seen)"), "{said}");
        }

        // The control: the same league played unchecked, its bots' files as recorded again.
        for (path, bytes) in &scripts {
            std::fs::write(path, bytes).unwrap();
        }
        let control = dir.path().join("course/control");
        let record = built_to_play_live(&config, &control);
        played_live_unchecked(&record, &control);
    }

    /// The check of a bot playing from its own files walks its folder once, for both its
    /// fingerprints (its own files', and with what its build wrote), and still tells each change.
    /// The control: the two reads it made before walked the folder twice, to the same verdicts.
    #[test]
    fn the_check_of_a_bot_playing_from_its_own_files_walks_its_folder_once() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = course(&dir.path().join("course"));
        let mut config = TournamentConfig::load(&cfg).unwrap();
        config.bots[2].build = Some("echo built > out".to_string());
        let out = dir.path().join("course/league");
        let record = built_to_play_live(&config, &out);
        let cid = record.bots.iter().find(|b| b.entry.name == "cid").unwrap();
        assert!(cid.built.is_some() && !cid.kept, "{cid:?}");
        let folder = cid.entry.cwd.clone().unwrap();
        let left_out = submission::LeftOut::league(&[&out]);
        let walks = |check: &mut dyn FnMut()| {
            submission::READS.with_borrow_mut(Vec::clear);
            check();
            submission::READS.with_borrow(|reads| reads.iter().filter(|p| **p == folder).count())
        };
        let mut verdict = None;
        assert_eq!(walks(&mut || verdict = Some(record.not_as_built(cid, &left_out))), 1);
        assert_eq!(verdict, Some(None), "as built");
        std::fs::write(folder.join("out"), "rewritten\n").unwrap();
        assert_eq!(walks(&mut || verdict = Some(record.not_as_built(cid, &left_out))), 1);
        assert_eq!(verdict, Some(Some("what its build wrote has changed".to_string())));
        std::fs::write(folder.join("bot.sh"), "echo WAIT\n").unwrap();
        assert_eq!(walks(&mut || verdict = Some(record.not_as_built(cid, &left_out))), 1);
        let why = "built as v1, its files now a version the league has not seen";
        assert_eq!(verdict, Some(Some(why.to_string())), "said by the leaderboard's labels");

        // The control: its own files, then with its outputs, read apart: two walks.
        let outputs = record.history["cid"].outputs.clone();
        assert!(outputs.contains("out"), "{outputs:?}");
        let base = record.config.base.as_deref();
        let mut apart = None;
        let control = walks(&mut || {
            let mut cache = BTreeMap::new();
            let own = submission::fingerprints(&cid.entry, base, &outputs, &left_out, &mut cache).unwrap();
            let whole = submission::fingerprints(&cid.entry, base, &BTreeSet::new(), &left_out, &mut cache).unwrap();
            apart = Some((own, whole));
        });
        assert_eq!(control, 2, "the control: two walks");
        let (own, whole) = apart.unwrap();
        let once = submission::read(&cid.entry, base, &outputs, &left_out, &mut BTreeMap::new()).unwrap();
        assert_eq!((once.own.fingerprints(), once.whole.unwrap().fingerprints()), (own, whole));
    }

    /// A course whose `cid` runs `sh prog`, built (`cp src.sh prog`) with a sparse output of
    /// 600 MiB: no copy of it can be kept (over 256 MiB), and what its build wrote cannot be read
    /// (over 512 MiB). As it starts, `prog` rewrites itself (`cid-A` then `cid-B`), as a push
    /// between matches would: an output, which its own files' fingerprint leaves out.
    fn unreadable_outputs_course(dir: &Path) -> TournamentConfig {
        let cfg = course(dir);
        let (live, waiter) = (dir.join("cid/prog"), WAITER.trim_end());
        let text = format!(
            "echo cid-A >&2\nprintf '%s\\n' 'echo cid-B >&2' '{waiter}' > '{live}.new' && mv '{live}.new' '{live}'\n\
             {WAITER}",
            live = live.display()
        );
        std::fs::write(dir.join("cid/src.sh"), text).unwrap();
        std::fs::remove_file(dir.join("cid/bot.sh")).unwrap();
        let mut config = TournamentConfig::load(&cfg).unwrap();
        config.jobs = Some(1);
        config.bots[2].command = "sh prog".to_string();
        config.bots[2].build = Some("cp src.sh prog && truncate -s 600M big".to_string());
        config
    }

    /// A bot of which no copy could be kept and whose build's outputs cannot be read (here one
    /// over 512 MiB) does not play from its own folder, where the check before and after each
    /// match could not see its program replaced: its version is refused, saying why and what to
    /// change, and none of its matches is played. The control: played as before (the refusal
    /// off), its program replaced after its first match played its later matches unseen, their
    /// results recorded under its version.
    #[test]
    fn a_bot_without_a_copy_whose_build_outputs_cannot_be_read_does_not_play_from_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let config = unreadable_outputs_course(&dir.path().join("course"));
        let out = dir.path().join("course/league");
        let summary = league(config.clone(), &out, false);
        let record = TournamentRecord::read(&out).unwrap();
        assert!(record.bots.iter().all(|b| b.entry.name != "cid"), "{:?}", record.bots);
        let why = &record.failures["cid"];
        for said in ["no copy of it could be kept", "larger than 256 MiB", "larger than 512 MiB", "`ignore`"] {
            assert!(why.contains(said), "{said}: {why}");
        }
        assert_eq!((summary.played, summary.changed), (2, 0), "ann and ben only");
        assert!(lines_with_logs(&out)
            .iter()
            .all(|(l, log)| !l.seats.iter().any(|s| s == "cid") && !log.contains("cid-")));

        // The control: the refusal off, cid plays from its own folder, its outputs unchecked.
        let control = dir.path().join("course/control");
        versions::REFUSE_UNCHECKED.set(false);
        let summary = league(config, &control, false);
        versions::REFUSE_UNCHECKED.set(true);
        let record = TournamentRecord::read(&control).unwrap();
        let cid = record.bots.iter().find(|b| b.entry.name == "cid").unwrap();
        assert!(!cid.kept && cid.built.is_none(), "{cid:?}");
        assert_eq!((summary.played, summary.changed), (6, 0), "the control: nothing left for the next run");
        let unseen = lines_with_logs(&control)
            .into_iter()
            .filter(|(l, log)| l.versions.contains(&cid.fingerprint) && log.contains("cid-B") && !log.contains("cid-A"))
            .count();
        assert_eq!(unseen, 3, "the control: cid's 3 later matches recorded as its version, played by another program");
    }

    /// A bot in a box sees of the league folder only its own copy's folder, read-only: not the
    /// other bots' copies, the results or the record. The control: without a box, it sees them.
    #[test]
    fn a_boxed_bot_sees_only_its_own_copy_of_the_league_folder() {
        let dir = tempfile::tempdir().unwrap();
        let course_dir = dir.path().join("course");
        let cfg = course(&course_dir);
        let out = course_dir.join("league");
        let spy = format!(
            "{{ echo \"LEAGUE[$(ls -A '{d}' | tr '\\n' ' ')]\"; echo \"COPIES[$(ls -A '{d}/versions' | tr '\\n' ' ')]\"; \
             echo \"ANN[$(ls -A '{d}/versions/ann' 2>/dev/null | tr '\\n' ' ')]\"; \
             echo \"RESULTS[$(cat '{d}/results.jsonl' '{d}/tournament.json' 2>/dev/null | head -c 20)]\"; \
             touch ./written 2>/dev/null && echo WROTE-OWN-COPY; }} >&2\n{WAITER}",
            d = out.display()
        );
        std::fs::write(course_dir.join("cid/bot.sh"), spy).unwrap();
        let mut config = TournamentConfig::load(&cfg).unwrap();
        config.sandbox = crate::sandbox::SandboxMode::Require;
        if !Sandbox::new(config.sandbox, Default::default()).is_ok_and(|s| s.isolation().boxed) {
            eprintln!("no box here: skipped");
            return;
        }
        config.jobs = Some(1);
        let seen = |config: TournamentConfig, out: &Path| -> Vec<String> {
            assert_eq!(league(config, out, false).played, 6);
            lines_with_logs(out)
                .into_iter()
                .filter(|(l, _)| l.seats.iter().any(|s| s == "cid"))
                .map(|(_, log)| log)
                .collect()
        };
        let boxed = seen(config.clone(), &out);
        assert_eq!(boxed.len(), 4);
        for log in &boxed {
            assert!(log.contains("LEAGUE[versions ]") && log.contains("COPIES[cid ]"), "{log}");
            assert!(log.contains("ANN[]") && log.contains("RESULTS[]") && !log.contains("WROTE"), "{log}");
        }
        // The control: no box.
        config.sandbox = crate::sandbox::SandboxMode::None;
        std::fs::remove_dir_all(&out).unwrap();
        let plain = seen(config, &out);
        let last = plain.last().unwrap();
        assert!(last.contains("results.jsonl") && !last.contains("ANN[]") && !last.contains("RESULTS[]"), "{last}");
        assert!(last.contains("WROTE-OWN-COPY"), "{last}");
    }

    /// Copies the folder `from` into `to`, recursively (files and folders only).
    fn copy_folder(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                copy_folder(&entry.path(), &to.join(entry.file_name()));
            } else {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    }

    thread_local! {
        // Run by `FolderLock::claim` on its thread between its first check and its lock: a test
        // puts a file in the folder there.
        pub(super) static BETWEEN_CHECK_AND_LOCK: std::cell::Cell<Option<fn(&Path)>> =
            const { std::cell::Cell::new(None) };
    }

    /// The folder of a run (and of a shard) is checked again once it is locked: a file put in it
    /// after the first check, before the lock (by its user, or another command started at the
    /// same time), is refused as a folder holding no league, and the folder is neither made
    /// private nor given the league's folders (it was taken over, the league written among
    /// what it held). Put there deterministically, by a hook at that very point. The control:
    /// the same runs, nothing put there, play.
    #[test]
    fn a_file_put_in_the_folder_between_its_check_and_its_lock_is_not_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let games = crate::games::registry();
        let attempt = |out: &Path, options: &RunOptions| {
            run(config.clone(), out, options, &games, &Quiet, CancellationToken::new()).map(|s| s.played)
        };
        let names = |p: &Path| -> BTreeSet<String> {
            std::fs::read_dir(p).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()
        };
        let league_dir = dir.path().join("built");
        attempt(&league_dir, &RunOptions { prepare_only: true, ..RunOptions::default() }).unwrap();
        let shard = Shard { index: 1, count: 2 };
        let as_shard = RunOptions { shard: Some(shard), league: Some(league_dir.clone()), ..RunOptions::default() };
        let plant: fn(&Path) = |out| std::fs::write(out.join("notes.txt"), "mine").unwrap();
        for (name, options) in [("run", RunOptions::default()), ("shard", as_shard.clone())] {
            let out = dir.path().join(name);
            BETWEEN_CHECK_AND_LOCK.with(|hook| hook.set(Some(plant)));
            let got = attempt(&out, &options);
            BETWEEN_CHECK_AND_LOCK.with(|hook| hook.set(None));
            match got {
                Err(TournamentError::NotALeague { dir, entry }) => {
                    assert_eq!((dir, entry.as_str()), (out.clone(), "notes.txt"))
                }
                other => panic!("{name}: {other:?}"),
            }
            let left: BTreeSet<String> = [".lock", "notes.txt"].iter().map(|s| s.to_string()).collect();
            assert_eq!(names(&out), left, "{name}: no league's folder or record made");
            // The control: nothing put there, the same run plays in a folder of its own.
            let control = dir.path().join(format!("{name}-control"));
            assert!(attempt(&control, &options).unwrap() > 0, "{name}: the control plays");
        }
    }

    /// A run (or a build, or a shard) whose folder holds no league and files of its own (a typo,
    /// `--out ~`) is refused, naming what it holds, before anything is made, locked or written
    /// there: its modes and its entries are as they were. The control: what the run did before,
    /// made and locked the folder, took every user's access to it and to its folders away. And a
    /// new folder, an empty one, one a run stopped before it saved its record left (its builds,
    /// copies and temporary files, `versions/` a link to a folder elsewhere) and a league's are
    /// run.
    #[test]
    fn a_run_into_a_folder_holding_no_league_is_refused_and_the_folder_left_alone() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let config = TournamentConfig::load(&course(&dir.path().join("course"))).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        let names = |p: &Path| -> BTreeSet<String> {
            std::fs::read_dir(p).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()
        };
        let home = |name: &str| {
            let home = dir.path().join(name);
            std::fs::create_dir_all(home.join("public_html")).unwrap();
            std::fs::write(home.join("notes.txt"), "mine").unwrap();
            std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o1777)).unwrap();
            std::fs::set_permissions(home.join("public_html"), std::fs::Permissions::from_mode(0o755)).unwrap();
            home
        };
        let games = crate::games::registry();
        let attempt = |out: &Path, options: &RunOptions| {
            run(config.clone(), out, options, &games, &Quiet, CancellationToken::new()).map(|s| s.played)
        };
        let mine = home("home");
        let before = names(&mine);
        let shard = Shard { index: 1, count: 2 };
        let league_dir = dir.path().join("built");
        let built = RunOptions { prepare_only: true, ..RunOptions::default() };
        attempt(&league_dir, &built).unwrap();
        for options in [
            RunOptions::default(),
            RunOptions { resume: true, ..RunOptions::default() },
            built.clone(),
            RunOptions { shard: Some(shard), league: Some(league_dir.clone()), ..RunOptions::default() },
        ] {
            match attempt(&mine, &options) {
                Err(TournamentError::NotALeague { dir, entry }) => {
                    assert_eq!(dir, mine);
                    assert!(before.contains(&entry), "{entry}");
                }
                other => panic!("{options:?}: {other:?}"),
            }
            assert_eq!((mode(&mine), mode(&mine.join("public_html"))), (0o1777, 0o755), "{options:?}");
            assert_eq!(names(&mine), before, "{options:?}: nothing written");
        }
        let said = TournamentError::NotALeague { dir: mine.clone(), entry: "notes.txt".into() }.to_string();
        assert!(
            said.starts_with(&format!("{}: not a league's folder and not empty (it holds notes.txt)", mine.display()))
        );
        // The control: the run's first steps, on the same folder, without the refusal.
        let theirs = home("other");
        make_league_folder(&theirs, &LEAGUE_FOLDERS[..MADE_WITH_LEAGUE]).unwrap();
        drop(FolderLock::take_to_run(&theirs, None, Duration::ZERO, &|| false, &|| Ok(())).unwrap());
        assert_eq!((mode(&theirs), mode(&theirs.join("public_html"))), (0o1700, 0o700), "the control: taken over");
        // Runs that go on: a new folder, an empty one, a league's (resumed).
        let new = dir.path().join("new");
        assert_eq!(attempt(&new, &RunOptions::default()).unwrap(), 6);
        assert_eq!(attempt(&new, &RunOptions { resume: true, ..RunOptions::default() }).unwrap(), 0);
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert_eq!(attempt(&empty, &RunOptions::default()).unwrap(), 6);
        // A run stopped after its builds, before its record: its folders, lock, builds' note and
        // copies, and a temporary file; `versions/` a link to a folder on another disk.
        let stopped = dir.path().join("stopped");
        make_league_folder(&stopped, &LEAGUE_FOLDERS[..MADE_WITH_LEAGUE]).unwrap();
        let disk = dir.path().join("disk/versions");
        std::fs::create_dir_all(&disk).unwrap();
        std::os::unix::fs::symlink(&disk, stopped.join("versions")).unwrap();
        let lock = FolderLock::take_to_run(&stopped, None, Duration::ZERO, &|| false, &|| Ok(())).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let mut history = BTreeMap::new();
        versions::prepare(&config, &sandbox, &stopped, unix_secs(), &mut history, &|| false, &|_| {}).unwrap();
        drop(lock);
        std::fs::write(stopped.join(".tmp-cut-short"), "").unwrap();
        assert!(!stopped.join(TOURNAMENT_FILE).exists() && stopped.join(".lock").is_file());
        assert_eq!(foreign_entry(&stopped), None, "{:?}", names(&stopped));
        assert_eq!(attempt(&stopped, &RunOptions { resume: true, ..RunOptions::default() }).unwrap(), 6);
        // A shard's own new folder, and the league's.
        let shard_dir = dir.path().join("shard-1");
        let as_shard = RunOptions { shard: Some(shard), league: Some(league_dir.clone()), ..RunOptions::default() };
        assert!(attempt(&shard_dir, &as_shard).is_ok());
        assert!(attempt(&league_dir, &RunOptions { shard: Some(shard), ..RunOptions::default() }).is_ok());
        // Each entry of its kind: a file named like a league's folder is someone's.
        let odd = dir.path().join("odd");
        std::fs::create_dir(&odd).unwrap();
        std::fs::write(odd.join("replays"), "").unwrap();
        assert_eq!(foreign_entry(&odd).as_deref(), Some("replays"));
    }

    /// Two `maps` entries of one board (the same file twice, named alike or not, or two copies
    /// of it with the same name in two folders) are refused, naming both: their matches had the
    /// same keys (the control), one replay replaced the other and the league never completed.
    /// The control: two different maps are read.
    #[test]
    fn one_board_listed_twice_is_refused_naming_both_entries() {
        let dir = tempfile::tempdir().unwrap();
        let class = course(dir.path());
        let game = crate::games::registry().get("resource-rush").unwrap();
        let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
        for week in ["week1", "week2"] {
            std::fs::create_dir_all(dir.path().join(week)).unwrap();
            std::fs::copy(maps.join("tight.txt"), dir.path().join(week).join("arena.txt")).unwrap();
        }
        std::fs::copy(maps.join("duel.txt"), dir.path().join("maps/duel.txt")).unwrap();
        let text = std::fs::read_to_string(&class).unwrap();
        let with_maps = |list: &str| {
            std::fs::write(&class, text.replace("maps = [\"maps/tight.txt\"]", &format!("maps = [{list}]"))).unwrap();
            TournamentConfig::load(&class).unwrap()
        };
        for (list, says) in [
            (
                "\"week1/arena.txt\", \"week2/arena.txt\"",
                "in `maps`: week2/arena.txt has the same contents as week1/arena.txt",
            ),
            ("\"maps/tight.txt\", \"maps/tight.txt\"", "in `maps`: maps/tight.txt is the same file as maps/tight.txt"),
            ("\"maps/tight.txt\", \"./maps/tight.txt\"", "is the same file as maps/tight.txt"),
            ("\"maps/tight.txt\", \"maps/duel.txt\", \"week1/arena.txt\"", "week1/arena.txt has the same contents as"),
        ] {
            let err = load_boards(&with_maps(list), game).map(|_| ()).unwrap_err().to_string();
            assert!(err.starts_with(&format!("{}: ", class.display())) && err.contains(says), "{list}: {err}");
        }
        // The control: two different maps, and what the two copies' matches were keyed as.
        let config = with_maps("\"maps/tight.txt\", \"maps/duel.txt\"");
        assert_eq!(load_boards(&config, game).unwrap().len(), 2);
        let copies = with_maps("\"week1/arena.txt\", \"week2/arena.txt\"");
        let bots: Vec<BotVersion> = copies
            .bots
            .iter()
            .map(|b| BotVersion { entry: b.clone(), fingerprint: "f".into(), runnable: true, kept: false, built: None })
            .collect();
        let digest = schedule::digest(std::fs::read(maps.join("tight.txt")).unwrap().as_slice());
        let schedule = schedule::round_robin(&copies, &bots, &[digest.clone(), digest], &[1, 1]);
        let keys: HashSet<&str> = schedule.iter().map(|m| m.key.as_str()).collect();
        assert_eq!((schedule.len(), keys.len()), (12, 6), "the control: the copies' matches share their keys");
    }

    /// A bot that waits every turn.
    const WAITER: &str = "while read -r word rest; do [ \"$word\" = TICK ] && echo WAIT; done\n";

    /// A course folder in `dir`: a map, two bots without `cwd` (scripts, their commands made
    /// absolute by the config's loader), one with, and `class.toml` naming them, with the league
    /// in `league/` inside. Returns the config's path.
    pub(super) fn course(dir: &Path) -> PathBuf {
        let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
        std::fs::create_dir_all(dir.join("maps")).unwrap();
        std::fs::copy(maps.join("tight.txt"), dir.join("maps/tight.txt")).unwrap();
        for bot in ["bots/ann/bot.sh", "bots/ben/bot.sh", "cid/bot.sh"] {
            std::fs::create_dir_all(dir.join(bot).parent().unwrap()).unwrap();
            std::fs::write(dir.join(bot), WAITER).unwrap();
        }
        let text = "seed = 5\njobs = 2\nsandbox = \"none\"\nmaps = [\"maps/tight.txt\"]\n\
                    [[bots]]\nname = \"ann\"\ncommand = \"sh bots/ann/bot.sh\"\n\
                    [[bots]]\nname = \"ben\"\ncommand = \"sh bots/ben/bot.sh\"\n\
                    [[bots]]\nname = \"cid\"\ncwd = \"cid\"\ncommand = \"sh bot.sh\"\n";
        std::fs::write(dir.join("class.toml"), text).unwrap();
        dir.join("class.toml")
    }

    /// Runs the league of the config at `config` (resumed when `resume`) in `out`.
    pub(super) fn league(config: TournamentConfig, out: &Path, resume: bool) -> Summary {
        let options = RunOptions { resume, ..RunOptions::default() };
        run(config, out, &options, &crate::games::registry(), &Quiet, CancellationToken::new()).unwrap()
    }

    /// A league with a build under `auto` where no box can be made is refused, saying how to
    /// allow it (`--sandbox plain`); the controls: the same with a box, with `plain` chosen, or
    /// with no bot to build, goes on; and so does the embedded default (the quick start), whose
    /// builds are the arena's own sample bots.
    #[test]
    fn builds_under_auto_without_a_box_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = TournamentConfig::load(&course(dir.path())).unwrap();
        config.sandbox = crate::sandbox::SandboxMode::Auto;
        let none = crate::sandbox::Isolation { boxed: false, missing: vec!["no box: user namespaces refused".into()] };
        let boxed = crate::sandbox::Isolation { boxed: true, missing: Vec::new() };
        assert!(unboxed_builds(&config, &none).is_ok(), "no bot to build");
        config.bots[2].build = Some("make".to_string());
        let err = unboxed_builds(&config, &none).unwrap_err().to_string();
        assert!(err.contains("builds (cid) would run without a box") && err.contains("--sandbox plain"), "{err}");
        assert!(err.contains("user namespaces refused"), "{err}");
        assert!(unboxed_builds(&config, &boxed).is_ok());
        config.sandbox = crate::sandbox::SandboxMode::Plain;
        assert!(unboxed_builds(&config, &none).is_ok());
        let mut own = TournamentConfig::embedded().unwrap();
        assert!(own.sandbox == crate::sandbox::SandboxMode::Auto && own.bots.iter().all(|b| b.build.is_some()));
        // (Its commands resolved against the folder it runs in, as the command line does.)
        let reference = dir.path().join(&own.bots[0].command);
        std::fs::create_dir_all(reference.parent().unwrap()).unwrap();
        std::fs::write(&reference, "").unwrap();
        own.resolve_paths(dir.path());
        assert_eq!(own.bots[0].command, reference.display().to_string());
        assert!(own.bots.iter().all(|b| own.own_build(b)) && !config.bots.iter().any(|b| config.own_build(b)));
        assert!(unboxed_builds(&own, &none).is_ok(), "the quick start's own sample bots");
        // A bot with a build added to it by a flag (`--bot`) is judged as any other; one without
        // a build leaves the default's own to build.
        let mine =
            config::BotEntry { name: "mine".into(), command: "./mine".into(), build: None, ..own.bots[0].clone() };
        own.put_bot(mine);
        assert!(unboxed_builds(&own, &none).is_ok(), "the sample bots' builds, and one of theirs");
        let mut theirs = own.bots[0].clone();
        (theirs.name, theirs.build) = ("mine".into(), Some("make".into()));
        own.put_bot(theirs);
        let err = unboxed_builds(&own, &none).unwrap_err().to_string();
        assert!(err.contains("builds (mine) would run without a box"), "{err}");
        // A flag that puts a sample bot's name and build on a student's folder, or on another
        // command, does not make it the arena's own (a resumed quick start's `--bot`).
        own.bots.retain(|b| b.name != "mine");
        assert!(unboxed_builds(&own, &none).is_ok());
        let sample = own.bots[5].clone();
        let mut moved = config::BotEntry { cwd: Some(dir.path().join("alice")), ..sample.clone() };
        assert_eq!(moved.name, "cpp-greedy");
        own.put_bot(moved.clone());
        let err = unboxed_builds(&own, &none).unwrap_err().to_string();
        assert!(err.contains("builds (cpp-greedy) would run without a box"), "{err}");
        (moved.cwd, moved.command) = (None, "./alice/bot".into());
        own.put_bot(moved);
        assert!(unboxed_builds(&own, &none).is_err(), "another command");
        own.put_bot(sample);
        assert!(unboxed_builds(&own, &none).is_ok(), "the control: the default's own entry again");
    }

    /// The standings of a run: each row's bot, rank, version, score, games and match keys.
    fn standings(summary: &Summary) -> Vec<String> {
        summary
            .leaderboard
            .rows
            .iter()
            .map(|r| {
                let keys: Vec<&str> = r.matches.iter().map(|m| m.key.as_str()).collect();
                format!(
                    "{} #{} {:?} {} {}/{}/{} {keys:?}",
                    r.bot, r.rank, r.version, r.total_score, r.wins, r.draws, r.losses
                )
            })
            .collect()
    }

    /// A league an earlier arena played (each bot recorded by its legacy fingerprint, with no
    /// `folder` in its record) plays nothing again under this one, and nothing after its course
    /// folder moved either; a changed bot is still a new version, alone. The controls: the
    /// recorded fingerprints are the legacy ones, the portable ones of the bots without `cwd`
    /// differ from them (without the legacy ones accepted, their matches would be played again),
    /// and so do their legacy ones once the folder moved.
    #[test]
    fn a_league_recorded_by_legacy_fingerprints_plays_nothing_again_even_once_moved() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("course");
        let config = TournamentConfig::load(&course(&first)).unwrap();
        let out = first.join("league");
        // The earlier arena: a config without a base makes the portable fingerprints the
        // legacy ones; its record then gets the base it had, and loses its `folder`.
        let mut without_base = config.clone();
        without_base.base = None;
        let earlier = league(without_base, &out, false);
        assert_eq!((earlier.played, earlier.failed.len()), (6, 0), "{earlier:?}");
        let path = out.join(TOURNAMENT_FILE);
        let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        json["config"]["base"] = first.display().to_string().into();
        json.as_object_mut().unwrap().remove("folder");
        std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
        let record = TournamentRecord::load(&out, &crate::games::registry()).unwrap();
        let fps = |config: &TournamentConfig| -> Vec<submission::Fingerprints> {
            let base = config.base.as_deref();
            let cache = &mut BTreeMap::new();
            config
                .bots
                .iter()
                .map(|b| submission::fingerprints(b, base, &BTreeSet::new(), &Default::default(), cache).unwrap())
                .collect()
        };
        let recorded: Vec<&str> = record.bots.iter().map(|b| b.fingerprint.as_str()).collect();
        let now = fps(&config);
        assert_eq!(
            recorded,
            now.iter().map(|f| f.legacy.as_str()).collect::<Vec<_>>(),
            "recorded by the legacy scheme"
        );
        for (bot, f) in config.bots.iter().zip(&now) {
            assert_eq!(f.portable == f.legacy, bot.cwd.is_some(), "the control: {} {f:?}", bot.name);
        }

        // Upgraded: nothing is played again.
        let upgraded = league(config, &out, true);
        assert_eq!((upgraded.played, upgraded.kept, upgraded.dropped), (0, 6, 0), "{upgraded:?}");
        assert_eq!(standings(&upgraded), standings(&earlier));

        // Moved, then resumed from its record alone (as `arena tournament --resume league`) and
        // with the config in its new place: nothing again.
        let moved = dir.path().join("elsewhere/course-2");
        std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
        std::fs::rename(&first, &moved).unwrap();
        let out = moved.join("league");
        let config = TournamentConfig::load(&moved.join("class.toml")).unwrap();
        for ((bot, was), now) in config.bots.iter().zip(&recorded).zip(fps(&config)) {
            // (Moved, the legacy fingerprint of a bot without `cwd` is another.)
            assert_eq!(now.legacy == *was, bot.cwd.is_some(), "the control: {} {was} {now:?}", bot.name);
        }
        let record = TournamentRecord::load(&out, &crate::games::registry()).unwrap();
        assert_eq!(
            record.config.base.as_deref(),
            Some(moved.as_path()),
            "the course's folder is found around the league"
        );
        let resumed = league(record.config, &out, true);
        assert_eq!((resumed.played, resumed.kept, resumed.dropped), (0, 6, 0), "{resumed:?}");
        assert_eq!(standings(&resumed), standings(&earlier));
        let with_config = league(config.clone(), &out, true);
        assert_eq!((with_config.played, with_config.kept), (0, 6), "{with_config:?}");

        // A changed bot: its matches alone, as a new version.
        std::fs::write(moved.join("bots/ben/bot.sh"), format!("{WAITER}# tuned\n")).unwrap();
        let changed = league(config, &out, true);
        assert_eq!((changed.played, changed.kept, changed.dropped), (4, 2, 4), "{changed:?}");
        let ben = changed.leaderboard.rows.iter().find(|r| r.bot == "ben").unwrap();
        assert_eq!(ben.version.as_deref(), Some("v2"));
    }

    /// A league folder copied or moved with its course's folder around it finds the config's
    /// paths there (not in the original, which a copy leaves in place), and shows the paths its
    /// record named before relative too; one moved alone keeps them.
    #[test]
    fn a_league_moved_with_its_course_finds_the_course_there_and_one_moved_alone_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("course");
        let config = TournamentConfig::load(&course(&first)).unwrap();
        let out = first.join("league");
        std::fs::create_dir_all(&out).unwrap();
        let bots: Vec<BotVersion> = config
            .bots
            .iter()
            .map(|b| BotVersion { entry: b.clone(), fingerprint: "f".into(), runnable: true, kept: false, built: None })
            .collect();
        let map = config.maps[0].clone();
        let why = format!("its folder {} is missing", first.join("cid").display());
        let record = TournamentRecord {
            boards: vec![MapFact { path: map.display().to_string(), digest: "d".into() }],
            schedule: vec![ScheduledMatch {
                key: "k".into(),
                seats: vec!["ann".into(), "ben".into()],
                map,
                game: 1,
                seed: 1,
                cost: 1,
            }],
            config,
            bots,
            failures: BTreeMap::from([("cid".to_string(), why)]),
            history: BTreeMap::new(),
            folder: None,
            earlier: Vec::new(),
            shards: None,
            slice: None,
        };
        record.save(&out).unwrap();
        // (Each bot's folder, or the script its command names.)
        let bot_under = |b: &config::BotEntry, course: &Path| match &b.cwd {
            Some(cwd) => cwd.starts_with(course),
            None => shell_words::split(&b.command).unwrap().iter().any(|w| Path::new(w).starts_with(course)),
        };
        let is_under = |r: &TournamentRecord, course: &Path| {
            r.config.base.as_deref() == Some(course)
                && r.config.maps.iter().chain([&r.schedule[0].map]).all(|m| m.starts_with(course))
                && Path::new(&r.boards[0].path).starts_with(course)
                && r.config.bots.iter().chain(r.bots.iter().map(|b| &b.entry)).all(|b| bot_under(b, course))
        };
        assert!(
            is_under(&TournamentRecord::load(&out, &crate::games::registry()).unwrap(), &first),
            "in place, as written"
        );

        // A copy: its own course's files, not the original's.
        let copy = dir.path().join("copies/course-b");
        copy_folder(&first, &copy);
        let copied = TournamentRecord::load(&copy.join("league"), &crate::games::registry()).unwrap();
        assert!(is_under(&copied, &copy), "{copied:#?}");
        assert_eq!(copied.failures["cid"], format!("its folder {} is missing", first.join("cid").display()));
        let shown = copied.shown_paths(&copy.join("league"));
        assert_eq!(shown.text(&copied.failures["cid"]), "its folder cid is missing", "the earlier folders too");

        // Moved: the same, and the record saved there names the new place.
        let moved = dir.path().join("moved/course-c");
        std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
        std::fs::rename(&first, &moved).unwrap();
        let there = TournamentRecord::load(&moved.join("league"), &crate::games::registry()).unwrap();
        assert!(is_under(&there, &moved));
        there.save(&moved.join("league")).unwrap();

        // The league folder alone moved out of its course: the course stays where it is.
        let alone = dir.path().join("archive/league");
        std::fs::create_dir_all(alone.parent().unwrap()).unwrap();
        std::fs::rename(moved.join("league"), &alone).unwrap();
        let archived = TournamentRecord::load(&alone, &crate::games::registry()).unwrap();
        assert!(is_under(&archived, &moved), "{archived:#?}");
        let shown = archived.shown_paths(&alone).text(&archived.failures["cid"]);
        assert_eq!(shown, "its folder cid is missing", "the folders it had are kept in its record");
    }

    /// A record of `bots` (name, the fingerprint it plays as, or none: it cannot play) with
    /// `history`, for [`changes`].
    fn roster(bots: &[(&str, Option<&str>)], history: &[(&str, Vec<(&str, bool)>)]) -> TournamentRecord {
        let entries: String =
            bots.iter().map(|(n, _)| format!("[[bots]]\nname = \"{n}\"\ncommand = \"./bot\"\n")).collect();
        let config =
            TournamentConfig::from_toml(&format!("maps = [\"a.txt\"]\n{entries}"), Path::new("t.toml")).unwrap();
        let playing = bots.iter().filter_map(|(n, fp)| {
            let entry = config::parse_bot_arg(&format!("{n}=./bot")).unwrap();
            fp.map(|fp| BotVersion { entry, fingerprint: fp.to_string(), runnable: true, kept: true, built: None })
        });
        let version = |(i, (fp, ok)): (usize, &(&str, bool))| versions::Version {
            fingerprint: fp.to_string(),
            label: if *ok { format!("v{}", i + 1) } else { "failed".to_string() },
            at: 1_796_000_000 + i as u64,
            ok: *ok,
            problem: (!ok).then(|| "build `make` failed".to_string()),
            build_log: None,
            kept: None,
            portable: None,
        };
        let history = history.iter().map(|(n, vs)| {
            (
                n.to_string(),
                BotHistory { versions: vs.iter().enumerate().map(version).collect(), ..BotHistory::default() },
            )
        });
        TournamentRecord {
            config,
            bots: playing.collect(),
            failures: bots
                .iter()
                .filter(|(_, fp)| fp.is_none())
                .map(|(n, _)| (n.to_string(), "failed".to_string()))
                .collect(),
            schedule: Vec::new(),
            history: history.collect(),
            boards: Vec::new(),
            folder: None,
            earlier: Vec::new(),
            shards: None,
            slice: None,
        }
    }

    /// A student's revert to files the league had as a good version is said as that version
    /// back, not as a new one; a bot whose every build failed and that now builds is said to
    /// start. The controls: a version never seen is a new version, and a bot that still fails
    /// is not said to start.
    #[test]
    fn a_revert_is_said_as_the_version_back_and_a_first_good_build_as_a_start() {
        let old = roster(
            &[("alice", Some("a2")), ("bob", Some("b2")), ("frank", None), ("gina", None)],
            &[
                ("alice", vec![("a1", true), ("a2", true)]),
                ("bob", vec![("b1", true), ("b2", true)]),
                ("frank", vec![("f0", false)]),
                ("gina", vec![("g0", false)]),
            ],
        );
        let new = roster(
            &[("alice", Some("a1")), ("bob", Some("b3")), ("frank", Some("f1")), ("gina", None)],
            &[
                ("alice", vec![("a1", true), ("a2", true), ("a1", true)]),
                ("bob", vec![("b1", true), ("b2", true), ("b3", true)]),
                ("frank", vec![("f0", false), ("f1", true)]),
                ("gina", vec![("g0", false), ("g1", false)]),
            ],
        );
        let said = changes(&old, &new, Path::new("/league"));
        // (With its labels, as the leaderboard shows them.)
        assert!(said.contains(&"new versions: bob v2 -> v3 (their matches are played again)".to_string()), "{said:#?}");
        assert!(said.iter().any(|s| s.starts_with("alice: back to v1 (2026-")), "{said:#?}");
        assert!(!said.iter().any(|s| s.starts_with("new versions:") && s.contains("alice")), "{said:#?}");
        assert!(said.iter().any(|s| s.starts_with("frank: builds and starts now, as v2 (")), "{said:#?}");
        assert!(!said.iter().any(|s| s.contains("gina")), "{said:#?}");
        assert_eq!(said.len(), 3, "{said:#?}");
    }

    /// A bot renamed back to a name the league had (`Carol` a typo of `carol`, then fixed) is
    /// said to be back, its results still current counting again: its matches are not played.
    /// Until 2026-12-05 the rename guess ran first and said "carol is new … so carol's matches
    /// are played". The control: a rename to a name the league never had is still a rename.
    #[test]
    fn a_bot_renamed_back_is_said_to_be_back_and_a_new_name_a_rename() {
        let history = |names: &[&'static str]| -> Vec<(&'static str, Vec<(&'static str, bool)>)> {
            names
                .iter()
                .map(|n| (*n, vec![(if n.eq_ignore_ascii_case("carol") { "c1" } else { "a1" }, true)]))
                .collect()
        };
        let old = roster(&[("alice", Some("a1")), ("Carol", Some("c1"))], &history(&["alice", "carol", "Carol"]));
        let new = roster(&[("alice", Some("a1")), ("carol", Some("c1"))], &history(&["alice", "carol", "Carol"]));
        let said = changes(&old, &new, Path::new("/league"));
        assert_eq!(
            said,
            ["carol is back and Carol is gone, with the same files (renamed back?): carol's results still current \
              count again, its other matches are played, and Carol's results stay on disk, no longer counted"],
        );

        // The control: a name the league never had, with the same files: a rename, played.
        let new = roster(&[("alice", Some("a1")), ("Carol Smith", Some("c1"))], &history(&["alice", "carol", "Carol"]));
        let said = changes(&old, &new, Path::new("/league"));
        assert_eq!(said.len(), 1, "{said:#?}");
        assert!(
            said[0].starts_with("Carol Smith is new and Carol is gone, with the same files (renamed?)"),
            "{said:#?}"
        );
    }

    /// A change of the settings in a match's key names each, with its old and new values;
    /// a limit written out at its default is no change. Until 2026-12-05 any of them said only
    /// "game settings (limits, seed, seats or the game's parameters) changed".
    #[test]
    fn changed_game_settings_are_named_with_their_values() {
        let records = |change: &dyn Fn(&mut TournamentConfig)| {
            let old = roster(&[("alice", Some("a1"))], &[("alice", vec![("a1", true)])]);
            let mut new = old.clone();
            change(&mut new.config);
            changes(&old, &new, Path::new("/league"))
        };
        let said = records(&|c| c.limits.move_ms = Some(400));
        assert_eq!(said, ["game settings changed (move_ms 1000 -> 400): every match is played again"]);
        let said = records(&|c| {
            c.seed += 1;
            c.limits.total_ms = Some(3000);
            c.params.insert("size".to_string(), "6x5".to_string());
        });
        let seed = roster(&[], &[]).config.seed;
        assert_eq!(
            said,
            [format!(
                "game settings changed (seed {seed} -> {}, total_ms 5000 -> 3000, params.size (unset) -> 6x5): every \
                 match is played again",
                seed + 1
            )]
        );
        // The control: the default written out changes no match, and says nothing.
        let default = crate::engine::Limits::default().per_move.as_millis() as u64;
        assert_eq!(records(&|c| c.limits.move_ms = Some(default)), Vec::<String>::new());
    }

    /// Bots that play the same files (another student's code handed in byte for byte) are
    /// noted for the teacher; the control: bots with files of their own are not. The embedded
    /// default's sample bots cannot be: each has a command of its own, and a fingerprint
    /// hashes the command.
    #[test]
    fn bots_with_the_same_files_are_noted_and_the_sample_bots_are_not() {
        let record = roster(
            &[("alice", Some("a1")), ("bob", Some("b1")), ("erin", Some("a1")), ("gus", Some("a1")), ("x", None)],
            &[],
        );
        assert_eq!(
            same_files(&record),
            ["note: alice, erin and gus have the same files (command, build and every file alike): a copy? for a \
              teacher to look into"]
        );
        let record = roster(&[("alice", Some("a1")), ("bob", Some("b1")), ("erin", Some("e1"))], &[]);
        assert_eq!(same_files(&record), Vec::<String>::new(), "the control: files of their own");

        let default = TournamentConfig::embedded().unwrap();
        let commands: BTreeSet<&str> = default.bots.iter().map(|b| b.command.as_str()).collect();
        assert_eq!(commands.len(), default.bots.len(), "{:?}", default.bots);
        // (A command of its own is a fingerprint of its own, even over the same bytes, as the
        // sample bots share a build and a workspace; the control: one command twice is alike.)
        let dir = tempfile::tempdir().unwrap();
        for bot in ["greedy", "random"] {
            std::fs::write(dir.path().join(bot), "#!/bin/sh\necho WAIT\n").unwrap();
        }
        let left_out = submission::LeftOut::league(&[]);
        let fingerprint = |file: &str| {
            let entry = config::parse_bot_arg(&format!("b={}", dir.path().join(file).display())).unwrap();
            let (outputs, mut cache) = (BTreeSet::new(), BTreeMap::new());
            submission::fingerprints(&entry, None, &outputs, &left_out, &mut cache).unwrap().portable
        };
        assert_ne!(fingerprint("greedy"), fingerprint("random"));
        assert_eq!(fingerprint("greedy"), fingerprint("greedy"), "the control");
    }

    /// A bot's page lists every version the league saw, oldest first: once per fingerprint
    /// (files back are that version again), a failed build as not built and with no match,
    /// each good one with the matches the results record it in (those of the lines given and
    /// of the results files on disk, once per key: a run gives only the lines that count),
    /// and the one it stands on marked. The control: as of a time before its second version,
    /// only what was seen by then is listed, standing on the first.
    #[test]
    fn a_bots_versions_are_listed_with_their_matches_and_as_of_a_time_only_those_seen() {
        let record = roster(
            &[("ann", Some("f1")), ("bob", Some("g1"))],
            &[("ann", vec![("f1", true), ("fx", false), ("f2", true), ("f1", true)])],
        );
        let line = |key: &str, ann: &str| {
            let mut r = crate::standings::leaderboard::test_result(key, ["ann", "bob"], [1, 0], None);
            r.versions = vec![ann.to_string(), "g1".to_string()];
            r
        };
        let given = [line("k1", "f1"), line("k2", "f1"), line("k1", "f1"), line("k3", "f2")];
        let dir = tempfile::tempdir().unwrap();
        let on_disk: String =
            [line("k3", "f2"), line("k4", "f2")].iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
        std::fs::write(dir.path().join(RESULTS_FILE), format!("{on_disk}not a result\n{{\"key\": \"torn")).unwrap();
        let played = TournamentRecord::played_by_version(&given, dir.path());
        let ann = &record.history["ann"];
        let shown = |as_of: Option<u64>| -> Vec<(String, String, bool, usize, bool)> {
            TournamentRecord::versions_seen("ann", ann, as_of, &played)
                .into_iter()
                .map(|v| (v.text(false), v.first_seen, v.ok, v.matches, v.current))
                .collect()
        };
        let at = |i: u64| versions::time_text(1_796_000_000 + i);
        assert_eq!(
            shown(None),
            [
                ("v1".to_string(), at(0), true, 2, true),
                ("failed".to_string(), at(1), false, 0, false),
                ("v3".to_string(), at(2), true, 2, false),
            ]
        );
        assert_eq!(played.get(&("bob".to_string(), "g1".to_string())), Some(&4), "each key once, whoever reads it");
        assert_eq!(
            shown(Some(1_796_000_001)),
            [("v1".to_string(), at(0), true, 2, true), ("failed".to_string(), at(1), false, 0, false)],
            "the control: its second good version was not seen yet"
        );
    }

    /// The matches a bot's versions played are counted from the results files as the results are
    /// read: a shard's results file that is a FIFO, or a link to `/dev/zero`, is skipped at once
    /// (a merge waited on such a FIFO for a writer, past its SIGTERM, and read such a link until
    /// the memory ran out). The controls: the FIFO, opened as a plain file is, waits for a writer;
    /// the link leads to bytes without end.
    #[test]
    fn a_fifo_or_an_endless_link_among_the_results_files_is_skipped_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut line = crate::standings::leaderboard::test_result("k1", ["ann", "bob"], [1, 0], None);
        line.versions = vec!["f1".to_string(), "g1".to_string()];
        std::fs::write(dir.path().join(RESULTS_FILE), serde_json::to_string(&line).unwrap() + "\n").unwrap();
        let fifo = dir.path().join("results.shard-1-of-2.jsonl");
        let c_fifo = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a path we own, NUL-terminated.
        assert_eq!(unsafe { libc::mkfifo(c_fifo.as_ptr(), 0o600) }, 0, "{}", std::io::Error::last_os_error());
        let link = dir.path().join("results.shard-2-of-2.jsonl");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(results::files(dir.path()).len(), 3, "both are results files by their names");
        let (done, took) = std::sync::mpsc::channel();
        let folder = dir.path().to_path_buf();
        std::thread::spawn(move || done.send(TournamentRecord::played_by_version(&[], &folder)));
        let played = took.recv_timeout(Duration::from_secs(20)).expect("counted at once, neither file waited on");
        let ann_f1 = ("ann".to_string(), "f1".to_string());
        assert_eq!((played.get(&ann_f1), played.len()), (Some(&1), 2), "the league's own file counted: {played:?}");
        // The controls.
        let (opened, waited) = std::sync::mpsc::channel();
        let plain = fifo.clone();
        std::thread::spawn(move || opened.send(std::fs::read(&plain).map(|b| b.len())));
        assert!(
            waited.recv_timeout(Duration::from_millis(300)).is_err(),
            "the control: a plain open waits for a writer"
        );
        drop(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap());
        assert_eq!(waited.recv_timeout(Duration::from_secs(20)).unwrap().unwrap(), 0);
        let mut endless = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::fs::File::open(&link).unwrap(), 1 << 20),
            &mut endless,
        )
        .unwrap();
        assert_eq!(endless.len(), 1 << 20, "the control: the link leads to bytes without end");
    }
}
