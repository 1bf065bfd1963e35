//! `arena merge OUT DIR…`: one league from its shards' folders (or one shared folder). Every
//! folder must hold the same league (the same schedule, from one `arena build`); each match
//! counts once, with its replay, its page and its log copied into OUT; what no shard played is
//! listed, and a league with missing matches is never called complete.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use super::leaderboard::Leaderboard;
use super::results::{self, ResultLine, RESULTS_FILE};
use super::schedule::{slices, Shard};
use super::{replay_agrees, write_leaderboard, FolderLock, Reporter, TournamentError, TournamentRecord};
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
}

/// Merges the leagues in `dirs` into `out` (which may be one of them), with the games of
/// `games`, reporting the leaderboard written to `reporter`.
pub fn merge(
    out: &Path,
    dirs: &[PathBuf],
    games: &Registry,
    reporter: &dyn Reporter,
) -> Result<Merged, TournamentError> {
    let first = dirs.first().ok_or_else(|| TournamentError::Invalid("merge: give at least one folder".to_string()))?;
    let record = TournamentRecord::load(first)?;
    for dir in &dirs[1..] {
        if let Some(why) = not_the_league(&record, &TournamentRecord::load(dir)?) {
            return Err(TournamentError::Invalid(format!(
                "{}: {why} from {}: merge only the shards of one league (one `arena build`)",
                dir.display(),
                first.display()
            )));
        }
    }
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
    // OUT is locked before it is looked at: a merge finishing into it meanwhile would otherwise
    // go unseen, and its results be dropped by this one's rewrite.
    std::fs::create_dir_all(out).map_err(|e| TournamentError::io(out, e))?;
    let _lock = FolderLock::take(out, None)?;
    // OUT's own results are rewritten: when it holds some and is not one of the folders, they
    // are merged too if they are the league's, and the merge is refused if they are not.
    let out_real = std::fs::canonicalize(out).map_err(|e| TournamentError::io(out, e))?;
    let is_out = |dir: &Path| std::fs::canonicalize(dir).is_ok_and(|d| d == out_real);
    let mut dirs = dirs.to_vec();
    if !given && (out.join(super::TOURNAMENT_FILE).exists() || !results::files(out).is_empty()) {
        let why = if !out.join(super::TOURNAMENT_FILE).exists() {
            Some(format!("results files but no {}", super::TOURNAMENT_FILE))
        } else {
            match TournamentRecord::load(out) {
                Ok(theirs) => not_the_league(&record, &theirs).map(|why| format!("{why} from {}", first.display())),
                Err(e) => Some(e.to_string()),
            }
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
    for sub in ["replays", "logs", "builds"] {
        std::fs::create_dir_all(out.join(sub)).map_err(|e| TournamentError::io(out, e))?;
    }
    super::remove_temporaries(out);
    // How the league was split, from its shards' results files (before OUT's are folded in).
    let counts: BTreeSet<usize> = dirs
        .iter()
        .flat_map(|dir| results::files(dir))
        .filter_map(|f| f.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file))
        .map(|shard| shard.count)
        .collect();
    let mut seen = HashSet::new();
    let mut lines: Vec<ResultLine> = Vec::new();
    for dir in dirs {
        let same = is_out(dir);
        for line in results::read_all(dir)? {
            if seen.contains(&line.key) {
                continue;
            }
            if !replay_agrees(dir, &line) {
                tracing::warn!(key = %line.key, dir = %dir.display(), "its replay is missing or disagrees: not merged");
                continue;
            }
            if !same {
                let replay = PathBuf::from(&line.replay);
                let log = PathBuf::from("logs").join(format!("{}.log", line.key));
                for rel in [replay.clone(), crate::replay::page_file(&replay), log] {
                    copy_atomic(&dir.join(&rel), &out.join(&rel))?;
                }
            }
            seen.insert(line.key.clone());
            lines.push(line);
        }
        if !same {
            // Build logs: the rows link to them.
            for entry in std::fs::read_dir(dir.join("builds")).into_iter().flatten().flatten() {
                let target = out.join("builds").join(entry.file_name());
                if !target.exists() {
                    copy_atomic(&entry.path(), &target)?;
                }
            }
        }
    }
    record.save(out)?;
    let main = out.join(RESULTS_FILE);
    results::rewrite(&main, &lines)?;
    for f in results::files(out).into_iter().filter(|f| *f != main) {
        let _ = std::fs::remove_file(f);
    }
    let leaderboard = record.leaderboard(&lines, out, games);
    write_leaderboard(out, &super::league_title(out), &leaderboard, &lines, reporter)?;
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
    Ok(Merged { leaderboard, missing, missing_shards, results: lines.len() })
}

/// The first entry of `out` that no league's folder holds, when `out` is a folder holding no
/// league (no record, no results file). What a merge or run cut short leaves (its subfolders,
/// temporary files, the lock) is a league's.
fn foreign_entry(out: &Path) -> Option<String> {
    const LEAGUE: [&str; 12] = [
        ".lock",
        "replays",
        "logs",
        "builds",
        "assets",
        "bots",
        "versions",
        "index.html",
        "leaderboard.md",
        "leaderboard.json",
        RESULTS_FILE,
        super::TOURNAMENT_FILE,
    ];
    if !out.is_dir() || out.join(super::TOURNAMENT_FILE).exists() || !results::files(out).is_empty() {
        return None;
    }
    std::fs::read_dir(out).ok()?.flatten().map(|e| e.file_name()).find_map(|name| {
        let text = name.to_string_lossy();
        let league = LEAGUE.contains(&&*text) || crate::files::is_temporary(&name) || text.starts_with(".lock.shard-");
        (!league).then(|| text.into_owned())
    })
}

/// Why `other` is not the league of `record`, if it is not: another schedule, or another
/// `arena build` of it (another secret, which keys the bots' seeds: a league built again from
/// the same config has the same matches, played with other seeds).
fn not_the_league(record: &TournamentRecord, other: &TournamentRecord) -> Option<String> {
    let keys: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
    let theirs: HashSet<&str> = other.schedule.iter().map(|m| m.key.as_str()).collect();
    if theirs != keys {
        let differ = theirs.symmetric_difference(&keys).count();
        return Some(format!("its schedule differs ({differ} matches are not in both)"));
    }
    (other.config.seat_secret() != record.config.seat_secret())
        .then(|| "it is another build of the league (its secret, which keys the bots' seeds, differs)".to_string())
}

/// Copies `from` to `to` atomically, if `from` exists.
fn copy_atomic(from: &Path, to: &Path) -> Result<(), TournamentError> {
    match std::fs::read(from) {
        Ok(bytes) => write_atomic(to, &bytes).map_err(|e| TournamentError::io(to, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(TournamentError::io(from, e)),
    }
}
