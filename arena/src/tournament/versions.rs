//! Bot versions over a league's life: every version seen is kept with its fingerprint, a label
//! (number, commit, time) and whether it could play. A version that fails to build or start
//! never replaces the last good one: the bot keeps standing on its last good version, and its
//! row says so. `--as-of` picks each bot's standing version at a past time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::build::{self, BuildOutcome};
use super::config::{BotEntry, TournamentConfig};
use super::schedule::BotVersion;
use super::submission;
use super::TournamentError;
use crate::sandbox::Sandbox;

/// One version of a bot, as the league saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// The fingerprint of its files (empty when they could not be read at all).
    pub fingerprint: String,
    /// `v<N>` for the N-th good version (`failed` otherwise), then the git commit when the
    /// bot's folder is a git work tree, and `+ edits` when its files are not all that commit's
    /// (see [`submission::git_edits`]).
    pub label: String,
    /// When the league first saw it (seconds since the Unix epoch).
    pub at: u64,
    /// Whether it built and could be started.
    pub ok: bool,
    /// Why it could not play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Its build's full log, relative to the tournament folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_log: Option<String>,
    /// How to run the copy of it the league keeps (`versions/<bot>/<fingerprint>/`), so that
    /// it can still play once the bot's files hold another version. Its paths are absolute in
    /// memory, relative to the league folder in `tournament.json` ([`kept_on_disk`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<BotEntry>,
    /// Its location-free fingerprint, when its `fingerprint` is another: a version an earlier
    /// arena recorded by the legacy scheme keeps that fingerprint (its matches' keys name it),
    /// and is known by this one too once the league has seen it, wherever the folders go (see
    /// [`submission::fingerprints`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portable: Option<String>,
}

/// Every version of one bot, oldest first, and what its builds wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotHistory {
    /// The versions, oldest first.
    pub versions: Vec<Version>,
    /// Paths in the bot's folder its builds have made (left out of its fingerprint), for as long
    /// as each is as a build last left it: an output the student changed since (pushed anew)
    /// is theirs again ([`BotHistory::forget_changed_outputs`]). The first build the league
    /// stamps (see [`BotHistory::output_stamps`]) gives every file it created or changed; the
    /// later ones only what they create, a student's file they change staying the student's
    /// (see [`BotHistory::note_outputs`]). A build that touched `bot.sh` had it left out of
    /// every later fingerprint, so that a wholly new `bot.sh` was no new version, its matches
    /// not played again, and it stood as `v1` (and as of any deadline).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub outputs: BTreeSet<String>,
    /// Each output as a build last left it (see [`submission::output_stamp`]); `None` before the
    /// bot's first build (or a league recorded before these were kept: until its next build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_stamps: Option<BTreeMap<String, String>>,
    /// The folder those stamps were taken in, by [`folder_tag`]: an output of a bot that the
    /// build of another bot in that folder rewrote (the bot renamed meanwhile) is still a
    /// build's, by these stamps (see [`BotHistory::forget_changed_outputs`]). `None` before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamped_in: Option<String>,
    /// Each output's content stamp as a build last left it, where one was taken (see
    /// [`submission::output_stamps`]): what tells it unchanged in a copy of its folder, where
    /// its stamp's inodes are new (see [`BotHistory::follow_copy`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub output_contents: BTreeMap<String, String>,
    /// What its builds have added to its folder over the runs, which `build_disk_mb` caps (see
    /// [`build::FolderGrowth`]); `None` before its first build (or a league recorded before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_growth: Option<build::FolderGrowth>,
}

impl BotHistory {
    /// Its outputs that are not as its last build left them (their stamps noted then): written
    /// since, by a push or a pull.
    fn changed_outputs(&self, folder: &Path) -> Vec<String> {
        self.changed_stamps(folder).into_iter().map(|(path, _)| path).collect()
    }

    /// [`BotHistory::changed_outputs`], each with its stamp now (empty when it is gone).
    fn changed_stamps(&self, folder: &Path) -> Vec<(String, String)> {
        let Some(stamps) = &self.output_stamps else { return Vec::new() };
        stamps
            .iter()
            .filter_map(|(path, stamp)| {
                let now = submission::output_stamp(folder, path);
                (now != *stamp).then(|| (path.clone(), now))
            })
            .collect()
    }

    /// Before a build: forgets each output of `folder` that is no longer as a build left it (its
    /// stamp differs, or it is gone): the student's file now, in the fingerprint. An output as
    /// the last build of another bot in the same folder left it (its stamp among `others`: the
    /// bot under another name meanwhile, whose build rewrote it) is still a build's, stamped
    /// anew: what the student changes after that build is theirs as ever.
    fn forget_changed_outputs(&mut self, folder: &Path, others: &[OtherStamps]) {
        self.follow_copy(folder);
        let changed = self.changed_stamps(folder);
        if changed.is_empty() {
            return;
        }
        let tag = folder_tag(folder);
        for (path, now) in changed {
            let Some(stamps) = &mut self.output_stamps else { return };
            let rebuilt = others
                .iter()
                .find(|o| !now.is_empty() && o.folder == tag && o.stamps.get(&path).is_some_and(|s| *s == now));
            // (Its content stamp as that build left it, if taken.)
            match rebuilt.and_then(|o| o.contents.get(&path)) {
                Some(content) => self.output_contents.insert(path.clone(), content.clone()),
                None => self.output_contents.remove(&path),
            };
            if rebuilt.is_some() {
                stamps.insert(path, now);
            } else {
                self.outputs.remove(&path);
                stamps.remove(&path);
            }
        }
    }

    /// Where its stamps were taken in another folder than `folder` (the course copied, `cp -a`,
    /// `rsync -a`, or moved: [`folder_tag`]), takes each output whose stamp no longer holds but
    /// whose content stamp does (every file's bytes, permissions, size, each link's target) as
    /// still its build's, stamped anew here, and notes its stamps as taken here. Else every
    /// output of a copy, its inodes new, was taken for a push: every bot with a build a new
    /// version, its matches played again.
    ///
    /// The inode is in the stamp so that a file put in an output's place (a push, a pull: a new
    /// file) counts as changed even with its size and time forged; a copy's inodes are all new,
    /// so there the content decides, which no forged time or size passes: a file swapped in a
    /// copy, before or after it was made, is the student's (fingerprinted, a new version). An
    /// output without a content stamp (a league recorded before these were taken, or its files
    /// past [`submission::MAX_CONTENT_STAMPED`]) counts as changed, as before. In the same folder
    /// the stamps alone decide, unread, as before (so there a file written over in place, its
    /// inode kept and its size and time put back, passes: only its content would tell).
    fn follow_copy(&mut self, folder: &Path) {
        let tag = folder_tag(folder);
        if self.stamped_in.as_ref().is_none_or(|t| *t == tag) {
            return;
        }
        let Some(stamps) = &mut self.output_stamps else { return };
        let mut budget = submission::MAX_CONTENT_STAMPED;
        for (path, stamp) in stamps.iter_mut() {
            let Some(content) = self.output_contents.get(path) else { continue };
            if submission::output_stamp(folder, path) == *stamp {
                continue;
            }
            let (now, content_now) = submission::output_stamps(folder, path, &mut budget, &|_| None);
            if content_now.as_ref() == Some(content) {
                *stamp = now;
            }
        }
        self.stamped_in = Some(tag);
    }

    /// Its stamps, with the folder they were taken in, as [`BotHistory::forget_changed_outputs`]
    /// asks of another bot.
    fn other_stamps(&self) -> Option<OtherStamps> {
        Some(OtherStamps {
            folder: self.stamped_in.clone()?,
            stamps: self.output_stamps.clone()?,
            contents: self.output_contents.clone(),
        })
    }

    /// After a build in `folder`: what it made is output too, and every output is stamped as
    /// it is now. What the build made: every file it created or changed (`built.outputs`) at
    /// the first stamping (the league knows nothing of the folder yet: its earlier outputs, of
    /// a student's own build or of a bot it was renamed from, are rewritten as any others);
    /// from then on, only what it created: a file that was there and is no output is the
    /// student's, whatever the build does to it.
    /// Content stamps are read only for an output whose stamp is not one another build of this
    /// run in its folder noted (`known`), which keeps the content stamp taken with it. Not its
    /// own record's, from an earlier run: a `chmod`, or bytes written over with their time put
    /// back, leave the stamp as it was, and that content stamp would then be stale (a copy of
    /// the folder taken for a push, its matches played again).
    fn note_outputs(&mut self, folder: &Path, built: &BuildOutcome, known: Known) {
        let made = if self.output_stamps.is_some() { &built.created } else { &built.outputs };
        self.outputs.extend(made.iter().cloned());
        self.output_stamps = Some(BTreeMap::new());
        self.output_contents.clear();
        let outputs = self.outputs.clone();
        self.stamp(&outputs, folder, &known);
        self.stamped_in = Some(folder_tag(folder));
    }

    /// Stamps `outputs` of `folder` as they are now, each with its content stamp where one can
    /// be taken (see [`submission::output_stamps`]): the one `known` has for its stamp, unread,
    /// or else read, up to [`submission::MAX_CONTENT_STAMPED`] in all.
    fn stamp(&mut self, outputs: &BTreeSet<String>, folder: &Path, known: &Known) {
        let stamps = self.output_stamps.get_or_insert_with(BTreeMap::new);
        let mut budget = submission::MAX_CONTENT_STAMPED;
        for path in outputs {
            let known = |stamp: &str| known.0.get(&(path.clone(), stamp.to_string())).cloned();
            let (stamp, content) = submission::output_stamps(folder, path, &mut budget, &known);
            stamps.insert(path.clone(), stamp);
            match content {
                Some(content) => self.output_contents.insert(path.clone(), content),
                None => self.output_contents.remove(path),
            };
        }
    }

    /// Takes the outputs of another bot's build in its folder (`theirs`) as its own outputs too,
    /// with their stamps and content stamps as that build left them (nothing read): those files
    /// are no more its sources than its own build's, and one written since (a push after that
    /// build) is not as noted, the student's. Where its own build's stamp of a path is another
    /// (both builds wrote it), the one it still has holds: the later build's.
    fn take_outputs(&mut self, theirs: &BuiltOutputs, folder: &Path) {
        // (A bot without a build has no stamps of its own: these are taken in its folder.)
        self.stamped_in.get_or_insert_with(|| folder_tag(folder));
        let stamps = self.output_stamps.get_or_insert_with(BTreeMap::new);
        for path in &theirs.outputs {
            let Some(stamp) = theirs.stamps.get(path) else { continue };
            self.outputs.insert(path.clone());
            let same = stamps.get(path) == Some(stamp);
            let mine = stamps.get(path).filter(|mine| *mine != stamp);
            if mine.is_some_and(|mine| *mine == submission::output_stamp(folder, path)) {
                continue;
            }
            stamps.insert(path.clone(), stamp.clone());
            match theirs.contents.get(path) {
                Some(content) => self.output_contents.insert(path.clone(), content.clone()),
                // (Its own, of the same stamp, stays where theirs took none: past their budget.)
                None if same => None,
                None => self.output_contents.remove(path),
            };
        }
    }

    /// Its outputs and their stamps, and its builds' growth, as `built` noted them when a build
    /// ended in `folder` (see [`Unrecorded`]).
    fn built_as(&mut self, built: &BuiltOutputs, folder: &Path) {
        self.outputs_as(built, folder);
        self.build_growth = built.growth.or(self.build_growth);
    }

    /// Its outputs and their stamps as `built` noted them in `folder` (its growth left as it is:
    /// the build just run sets it, see [`prepare`]). Taken in another folder (the course copied
    /// since), they are that folder's, for [`BotHistory::follow_copy`].
    fn outputs_as(&mut self, built: &BuiltOutputs, folder: &Path) {
        self.outputs.clone_from(&built.outputs);
        self.output_stamps = Some(built.stamps.clone());
        self.output_contents.clone_from(&built.contents);
        self.stamped_in = built.folder.clone().or_else(|| Some(folder_tag(folder)));
    }

    /// The version the bot stands on: the newest good one (seen by `as_of`, if given).
    pub fn standing(&self, as_of: Option<u64>) -> Option<&Version> {
        self.versions.iter().rev().filter(|v| v.ok).find(|v| as_of.is_none_or(|t| v.at <= t))
    }

    /// When the league first saw `version`'s files as a good version. Files back after a
    /// failed push or a newer version are that version again, and its entry then records when
    /// they came back (from when it stands, for `--as-of`); it is shown by when it was first seen.
    pub fn first_seen(&self, version: &Version) -> u64 {
        let same = |v: &&Version| v.ok && version.ok && v.fingerprint == version.fingerprint;
        self.versions.iter().find(same).map_or(version.at, |v| v.at.min(version.at))
    }

    /// A version's label with the time it was first seen: `v2 3f2a1bc (2026-11-30T16:40:00Z)`.
    pub fn describe(&self, version: &Version) -> String {
        format!("{} ({})", version.label, time_text(self.first_seen(version)))
    }

    /// The label of the good version recorded as `fingerprint` (`v2 0dbb175`, as the
    /// leaderboard shows it), if the league has one.
    pub fn label_of(&self, fingerprint: &str) -> Option<&str> {
        self.versions.iter().find(|v| v.ok && v.fingerprint == fingerprint).map(|v| v.label.as_str())
    }

    /// The newest version, good or not.
    pub fn latest(&self) -> Option<&Version> {
        self.versions.last()
    }

    /// "build failed at `<time>`, standing from `<version>`: `<problem>`" when the newest version
    /// failed but an older one stands (the problem last: a table that cuts a long note keeps the
    /// version it stands on).
    pub fn note(&self) -> Option<String> {
        let latest = self.latest().filter(|v| !v.ok)?;
        let standing = self.standing(None)?;
        let what = if latest.build_log.is_some() && latest.problem.as_deref().is_some_and(|p| p.starts_with("build")) {
            "build failed"
        } else {
            "could not start"
        };
        Some(format!(
            "{what} at {}, standing from {}: {}",
            time_text(latest.at),
            self.describe(standing),
            latest.problem.as_deref().unwrap_or("?")
        ))
    }

    /// The fingerprint the bot's files `now` are recorded by, and their location-free one
    /// when that is another: the newest version that is them ([`submission::Fingerprints::is`])
    /// keeps its fingerprint, so that its matches are not played again; files never seen are
    /// a new version, by the location-free fingerprint.
    pub fn fingerprint_of(&self, now: &submission::Fingerprints) -> (String, Option<String>) {
        let known = self.versions.iter().rev().find(|v| now.is(&v.fingerprint, v.portable.as_deref()));
        match known {
            Some(v) if v.fingerprint != now.portable => (v.fingerprint.clone(), Some(now.portable.clone())),
            _ => (now.portable.clone(), None),
        }
    }

    /// The location-free fingerprint noted for the version recorded as `fingerprint`, if any.
    pub fn portable_of(&self, fingerprint: &str) -> Option<&str> {
        self.versions.iter().filter(|v| v.fingerprint == fingerprint).find_map(|v| v.portable.as_deref())
    }

    /// Records `version` unless it is the newest already (same fingerprint and verdict). A good
    /// version keeps the log of the build that made it (a build run again over the same files
    /// only says it is up to date); a failed one links its newest failure, and says its
    /// problem (which names that log). Files that were a
    /// good version before (back after a failed push) are that version again, by its label.
    /// `commit` gives a new label's git commit: asked only for a version new to the record (it
    /// reads the repository's index and looks at the bot's files).
    fn record(&mut self, mut version: Version, commit: impl FnOnce() -> Option<String>) {
        if self.latest().is_some_and(|v| v.fingerprint == version.fingerprint && v.ok == version.ok) {
            if let Some(v) = self.versions.last_mut() {
                if !v.ok || v.build_log.is_none() {
                    v.build_log = version.build_log.or(v.build_log.take());
                }
                if !v.ok {
                    v.problem = version.problem.or(v.problem.take());
                }
                // (A version an earlier arena recorded learns its location-free fingerprint.)
                v.portable = v.portable.take().or(version.portable);
                // (One that had no copy, too large once, or whose copy is gone, keeps the copy
                // made now.)
                v.kept = version.kept.or(v.kept.take());
            }
            return;
        }
        let earlier = self.versions.iter().find(|v| v.ok && version.ok && v.fingerprint == version.fingerprint);
        version.label = match earlier {
            Some(v) => v.label.clone(),
            None => {
                let n =
                    self.versions.iter().filter(|v| v.ok).map(|v| &v.fingerprint).collect::<BTreeSet<_>>().len() + 1;
                let head = if version.ok { format!("v{n}") } else { "failed".to_string() };
                let commit = commit().map_or(String::new(), |c| format!(" {c}"));
                format!("{head}{commit}")
            }
        };
        self.versions.push(version);
    }
}

/// Content stamps taken, by output and its stamp then: an output with that stamp now (the same
/// inodes, sizes and times of all under it: the same files, a hard link's too) has that content
/// stamp, unread (see [`BotHistory::stamp`]).
#[derive(Default)]
struct Known(BTreeMap<(String, String), String>);

impl Known {
    /// Adds the content stamps `contents` of outputs with the stamps `stamps`.
    fn add(&mut self, stamps: Option<&BTreeMap<String, String>>, contents: &BTreeMap<String, String>) {
        for (path, content) in contents {
            if let Some(stamp) = stamps.and_then(|s| s.get(path)).filter(|s| !s.is_empty()) {
                self.0.insert((path.clone(), stamp.clone()), content.clone());
            }
        }
    }

    /// The content stamps the builds of this run in `folder` noted (`builds`, see
    /// [`Unrecorded`]): another folder's paths and stamps are not this one's.
    fn noted(builds: &BTreeMap<String, Option<BuiltOutputs>>, folder: &Path) -> Known {
        let tag = folder_tag(folder);
        let mut known = Known::default();
        for noted in builds.values().flatten().filter(|b| b.folder.as_deref() == Some(tag.as_str())) {
            known.add(Some(&noted.stamps), &noted.contents);
        }
        known
    }
}

/// The stamps of another bot's outputs and the folder they were taken in (see
/// [`BotHistory::forget_changed_outputs`]).
struct OtherStamps {
    folder: String,
    stamps: BTreeMap<String, String>,
    contents: BTreeMap<String, String>,
}

/// The outputs of the builds of this run (`built`, as `unrecorded` noted them) of the bots but
/// `name` that lie in `name`'s folder `dir` (not that folder itself), by their paths relative to
/// it: all of a bot sharing the folder, all of a bot whose folder is inside it (`kit/b` in `kit`),
/// those inside it of a bot whose folder holds it. Only what those builds made: a file of the
/// same name that no build of this run noted as its output is not among them.
fn outputs_of_others(
    config: &TournamentConfig,
    name: &str,
    dir: &Path,
    built: &BTreeMap<String, BuildOutcome>,
    unrecorded: &Unrecorded,
) -> Vec<BuiltOutputs> {
    let Ok(mine) = std::fs::canonicalize(dir) else { return Vec::new() };
    let mut found = Vec::new();
    for other in config.bots.iter().filter(|b| b.name != name && built.contains_key(&b.name)) {
        let (Some(theirs), Some(Some(noted))) = (other.cwd.as_deref(), unrecorded.builds.get(&other.name)) else {
            continue;
        };
        // (Noted in that folder as it is now: its paths are that folder's.)
        let Ok(at) = std::fs::canonicalize(theirs) else { continue };
        if noted.folder.as_deref() != Some(folder_tag(theirs).as_str()) {
            continue;
        }
        let here = |path: &str| {
            let inside = at.join(path);
            let rel = inside.strip_prefix(&mine).ok()?;
            (!rel.as_os_str().is_empty()).then(|| rel.to_string_lossy().into_owned())
        };
        let moved: Vec<(&String, String)> = noted.outputs.iter().filter_map(|path| Some((path, here(path)?))).collect();
        if moved.is_empty() {
            continue;
        }
        let mut outputs = BuiltOutputs { folder: Some(folder_tag(dir)), ..BuiltOutputs::default() };
        for (path, rel) in moved {
            if let Some(stamp) = noted.stamps.get(path) {
                outputs.stamps.insert(rel.clone(), stamp.clone());
            }
            if let Some(content) = noted.contents.get(path) {
                outputs.contents.insert(rel.clone(), content.clone());
            }
            outputs.outputs.insert(rel);
        }
        found.push(outputs);
    }
    found
}

/// What tells a bot's folder from any other, for [`BotHistory::stamped_in`]: a digest of its
/// real path (of its absolute path where that cannot be told). A folder moved is another: its
/// outputs' stamps (their inodes) no longer hold there either.
fn folder_tag(folder: &Path) -> String {
    let real =
        std::fs::canonicalize(folder).or_else(|_| std::path::absolute(folder)).unwrap_or_else(|_| folder.to_path_buf());
    blake3::hash(real.as_os_str().as_encoded_bytes()).to_hex()[..16].to_string()
}

/// `secs` since the Unix epoch as UTC RFC 3339 (`2026-11-30T16:40:00Z`).
pub fn time_text(secs: u64) -> String {
    // (A record's time past the year 9999 is shown as the number it is, not as a date.)
    match std::time::UNIX_EPOCH.checked_add(std::time::Duration::from_secs(secs)) {
        Some(at) if secs < 253_402_300_800 => humantime::format_rfc3339_seconds(at).to_string(),
        _ => format!("{secs} s after 1970"),
    }
}

/// Parses a time for `--as-of`: RFC 3339 (`2026-11-30T17:00:00Z`, with an offset such as
/// `2026-11-30T18:00:00+01:00`, or with a space and no zone, read as UTC) or seconds since the
/// Unix epoch.
pub fn parse_time(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if let Ok(secs) = t.parse::<u64>() {
        return Ok(secs);
    }
    let t = if t.len() == 10 { format!("{t}T23:59:59Z") } else { t.to_string() };
    // RFC 3339 with its zone (`Z`, `+01:00`); without one, read as UTC.
    let stamp = t
        .parse::<jiff::Timestamp>()
        .or_else(|e| if has_zone(&t) { Err(e) } else { format!("{t}Z").parse::<jiff::Timestamp>() })
        .map_err(|e| {
            format!(
                "`{text}` is not a time (such as 2026-11-30T17:00:00Z, 2026-11-30T18:00:00+01:00, \
                 2026-11-30 17:00:00 or 2026-11-30): {e}"
            )
        })?;
    u64::try_from(stamp.as_second()).map_err(|_| format!("`{text}` is before 1970"))
}

/// Whether an RFC 3339 time names its zone (`Z`, or a numeric offset after the time of day).
fn has_zone(time: &str) -> bool {
    time.ends_with(['Z', 'z']) || time.get(10..).is_some_and(|clock| clock.contains(['+', '-']))
}

/// The file of a league folder holding, for each bot a run has built (or is building) since its
/// record was last saved, its outputs as that build left them ([`Unrecorded`]); removed once the
/// record is saved.
pub const UNRECORDED_BUILDS: &str = ".builds-unrecorded";

/// A bot's outputs and their stamps as a build left them (see [`BotHistory::outputs`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct BuiltOutputs {
    outputs: BTreeSet<String>,
    stamps: BTreeMap<String, String>,
    /// What the bot's builds have added to its folder, that build included.
    #[serde(default)]
    growth: Option<build::FolderGrowth>,
    /// The folder it was built in, by [`folder_tag`] (none in a file an earlier arena wrote).
    #[serde(default)]
    folder: Option<String>,
    /// Their content stamps (see [`BotHistory::output_contents`]).
    #[serde(default)]
    contents: BTreeMap<String, String>,
}

impl BuiltOutputs {
    /// Notes in `h` the outputs of the build that ended as `outcome` in `dir`, and returns them
    /// as that build left them; the content stamps of the other `builds` of the run are reused
    /// where their stamps hold (see [`BotHistory::note_outputs`]).
    fn after(
        h: &mut BotHistory,
        dir: &Path,
        outcome: &BuildOutcome,
        builds: &BTreeMap<String, Option<BuiltOutputs>>,
    ) -> BuiltOutputs {
        h.note_outputs(dir, outcome, Known::noted(builds, dir));
        let stamps = h.output_stamps.clone().unwrap_or_default();
        let (contents, folder) = (h.output_contents.clone(), h.stamped_in.clone());
        BuiltOutputs { outputs: h.outputs.clone(), stamps, growth: outcome.growth, folder, contents }
    }

    /// Its stamps, with the folder they were taken in, as [`BotHistory::other_stamps`] gives a
    /// recorded build's.
    fn other_stamps(&self) -> Option<OtherStamps> {
        Some(OtherStamps { folder: self.folder.clone()?, stamps: self.stamps.clone(), contents: self.contents.clone() })
    }
}

/// What the builds of a run that has not saved its record yet did to the bots' outputs, by bot:
/// its outputs as its build left them, `None` while it builds. A run cut short then (kill -9,
/// Ctrl-C, a refused `--rerun`) left outputs its builds rewrote, which the record's stamps took
/// for the students' changes: every bot whose build copies its program anew was a new version,
/// its matches played again. The next run compares with what those builds left instead, so a
/// student's push since is still seen (where only the names of the built bots were kept, their
/// outputs were outputs still, and a push in between went unseen); a bot whose build was cut
/// short is compared with its record, as before (a spurious new version, never a missed one),
/// and all its folder grew by since its last noted build counts as its builds' growth.
/// The file names the record it was written over (`record`): once a record is saved, the file
/// left by a removal that failed (or a file that cannot be replaced) is ignored, as if removed:
/// its outputs as older builds left them took the outputs the builds since rewrote for pushes.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Unrecorded {
    /// [`record_tag`] of the record the run started from.
    record: Option<String>,
    builds: BTreeMap<String, Option<BuiltOutputs>>,
}

impl Unrecorded {
    /// The file's, if written over the record `record` (see [`record_tag`]); none where it is
    /// missing, unreadable or another record's: every bot then compared with its record.
    fn read(file: &Path, record: Option<String>) -> Unrecorded {
        let text = std::fs::read(file).unwrap_or_default();
        let read: Option<Unrecorded> = serde_json::from_slice(&text).ok();
        match read {
            Some(read) if read.record == record => read,
            found => {
                if found.is_some() || !text.is_empty() {
                    tracing::info!(file = %file.display(), "left by a run whose record was saved since: ignored");
                }
                Unrecorded { record, builds: BTreeMap::new() }
            }
        }
    }

    fn write(&self, file: &Path) {
        let text = serde_json::to_vec(self).unwrap_or_default();
        if let Err(e) = crate::files::write_atomic(file, &text) {
            tracing::warn!(file = %file.display(), "cannot note the builds under way: {e}");
        }
    }
}

/// What tells the record of the league folder `out` from any other: a digest of its file
/// (`None` before the first is saved).
fn record_tag(out: &Path) -> Option<String> {
    let bytes = std::fs::read(out.join(super::TOURNAMENT_FILE)).ok()?;
    Some(blake3::hash(&bytes).to_hex()[..16].to_string())
}

/// Removes the build logs in `out/builds/` that the league's record does not link: those of
/// builds run again over a good version's files (it keeps its first log) and a failure's
/// older logs (it links its newest), which each run would otherwise add. A log a version
/// links, or a problem or failure names, stays. Call it once the record that links them is
/// saved: a run stopped before leaves a log too many, never a link to a removed one.
pub fn remove_unlinked_logs(out: &Path, history: &BTreeMap<String, BotHistory>, failures: &BTreeMap<String, String>) {
    let versions = history.values().flat_map(|h| &h.versions);
    let linked: BTreeSet<&str> = versions.clone().filter_map(|v| v.build_log.as_deref()).collect();
    let texts: Vec<&str> =
        versions.filter_map(|v| v.problem.as_deref()).chain(failures.values().map(String::as_str)).collect();
    let Ok(entries) = std::fs::read_dir(out.join("builds")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str().filter(|n| n.ends_with(".log") && !crate::files::is_temporary(name.as_ref()))
        else {
            continue;
        };
        let log = format!("builds/{name}");
        if linked.contains(log.as_str()) || texts.iter().any(|t| t.contains(&log)) {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            if let Err(e) = std::fs::remove_file(entry.path()) {
                tracing::warn!(log = %entry.path().display(), "cannot remove a build log no version links: {e}");
            }
        }
    }
}

/// Removes the copies in `out/versions/<bot>/<fingerprint>/` that no version of `history`
/// keeps: a run stopped after its builds, before its record was saved, leaves the copies it
/// made, and a bot that moved on meanwhile would never take them up. Only folders named as
/// this arena names a copy (16 hex digits) go; each is renamed `<fingerprint>.tmp` first, so
/// that a removal cut short is a copy cut short, removed by the next run. Call it holding the
/// folder alone, once the record `history` is in is saved: copies are only made then (a shard
/// plays the copies its record keeps, and every later record keeps them too).
/// `versions/` leading out of the league (a link to a folder another league's `versions/` leads
/// to as well, to share a disk) is left alone: copies no record of this league lists may be that
/// one's.
pub fn remove_unlisted_copies(out: &Path, history: &BTreeMap<String, BotHistory>) {
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    match (real(out), real(&out.join("versions"))) {
        (Some(league), Some(versions)) if versions.starts_with(&league) => {}
        (_, None) => return,
        _ => {
            tracing::info!(folder = %out.join("versions").display(), "copies outside the league folder: none removed");
            return;
        }
    }
    remove_unlisted_copies_in(out, history);
}

/// [`remove_unlisted_copies`] wherever `out/versions` leads (a test's control).
fn remove_unlisted_copies_in(out: &Path, history: &BTreeMap<String, BotHistory>) {
    let league = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let mut listed = BTreeSet::new();
    for (name, h) in history {
        for v in h.versions.iter().filter(|v| !v.fingerprint.is_empty()) {
            let Some(kept) = &v.kept else { continue };
            // Where it was made, and wherever its entry's paths lead into a copy.
            let made = league.join("versions").join(crate::files::name_part(name)).join(&v.fingerprint);
            for root in std::iter::once(made).chain(copy_roots(kept, &v.fingerprint)) {
                listed.extend(real(&league.join(root)));
            }
        }
    }
    let is_fingerprint = |n: &str| n.len() == 16 && n.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    let Ok(bots) = std::fs::read_dir(out.join("versions")) else { return };
    for bot in bots.flatten().filter(|b| b.file_type().is_ok_and(|t| t.is_dir())) {
        let Ok(copies) = std::fs::read_dir(bot.path()) else { continue };
        for copy in copies.flatten() {
            let path = copy.path();
            let ours =
                copy.file_name().to_str().is_some_and(is_fingerprint) && copy.file_type().is_ok_and(|t| t.is_dir());
            // (A copy whose real path cannot be told is left alone.)
            if !ours || real(&path).is_none_or(|r| listed.contains(&r)) {
                continue;
            }
            tracing::info!(copy = %path.display(), "removing a copy of a bot version no record keeps");
            let doomed = path.with_extension("tmp");
            let doomed = if std::fs::rename(&path, &doomed).is_ok() { doomed } else { path };
            if let Err(e) = std::fs::remove_dir_all(&doomed) {
                tracing::warn!(copy = %doomed.display(), "cannot remove a copy no record keeps: {e}");
            }
        }
        // (Its bot's folder too, once empty.)
        let _ = std::fs::remove_dir(bot.path());
    }
}

/// Keeps each bot's copies (in `history`) within `most` bytes of disk (their allocated
/// blocks): past it, the copies of its versions that no longer play go, the least recently seen
/// first, unlisted from the record (their `kept` cleared; [`remove_unlisted_copies`] removes
/// them from disk once the record is saved). The copy of the version the bot stands on, and of
/// the one it plays (`playing`), always stays, whatever its size. A version that comes back
/// later is copied again. Its versions stay recorded, with their build logs.
pub fn limit_copies(history: &mut BTreeMap<String, BotHistory>, playing: &[BotVersion], most: u64) {
    for (name, h) in history.iter_mut() {
        let mut copies: BTreeMap<&str, (u64, Option<PathBuf>)> = BTreeMap::new();
        for v in h.versions.iter().filter(|v| !v.fingerprint.is_empty()) {
            let Some(kept) = &v.kept else { continue };
            let seen = copies.entry(v.fingerprint.as_str()).or_insert((v.at, copy_root(kept, &v.fingerprint)));
            seen.0 = seen.0.max(v.at);
        }
        let mut sized: Vec<(u64, String, u64)> = copies
            .into_iter()
            .map(|(fp, (at, root))| (at, fp.to_string(), root.as_deref().map_or(0, copy_size)))
            .collect();
        let mut total: u64 = sized.iter().map(|c| c.2).sum();
        if total <= most {
            continue;
        }
        let mut keep: BTreeSet<String> = h.standing(None).map(|v| v.fingerprint.clone()).into_iter().collect();
        keep.extend(playing.iter().filter(|b| &b.entry.name == name).map(|b| b.fingerprint.clone()));
        sized.sort();
        for (at, fingerprint, bytes) in sized {
            if total <= most {
                break;
            }
            if keep.contains(&fingerprint) {
                continue;
            }
            total -= bytes;
            let label = h.label_of(&fingerprint).unwrap_or("?");
            tracing::info!(
                bot = %crate::safe_text::terminal_cut(name, 60),
                version = %label,
                fingerprint = %fingerprint,
                last_seen = %time_text(at),
                "its copies take more than {} MiB: the copy of this version, which no longer plays, goes (its \
                 version stays recorded; copied again if it comes back)",
                most >> 20
            );
            for v in h.versions.iter_mut().filter(|v| v.fingerprint == fingerprint) {
                v.kept = None;
            }
        }
    }
}

/// What the copy in `root` counts for `copies_mb`: its allocated blocks, and at least a block
/// (4 KiB) per file and folder: empty files take no blocks but an inode each, and a build's
/// 200,000 empty files in every version's copy would have run the league's disk out of inodes
/// within its 1 GiB (replays and pages then failing to be written, for every bot).
fn copy_size(root: &Path) -> u64 {
    let used = build::disk_use(root, u64::MAX);
    used.bytes.max(used.entries.saturating_mul(4096))
}

/// The folder of the copy `kept` runs (of version `fingerprint`): `versions/<bot>/<fingerprint>`
/// in the path of its folder or of a word of its command; none for a copy with no file (a
/// built-in bot's, which runs the arena where it is).
fn copy_root(kept: &BotEntry, fingerprint: &str) -> Option<PathBuf> {
    copy_roots(kept, fingerprint).next()
}

/// The folder of the copy of version `fingerprint` in each path of `kept` that leads into one
/// (its folder's, then its command's words'), as [`copy_root`] finds the first.
fn copy_roots<'a>(kept: &'a BotEntry, fingerprint: &'a str) -> impl Iterator<Item = PathBuf> + 'a {
    let words = shell_words::split(&kept.command).unwrap_or_default().into_iter().map(PathBuf::from);
    kept.cwd.clone().into_iter().chain(words).filter_map(move |path| {
        let start = copy_start(&path, fingerprint)?;
        Some(path.components().take(start + 3).collect())
    })
}

/// The folder a bot is built in: its own, else the config's.
pub fn build_folder(config: &TournamentConfig, bot: &BotEntry) -> PathBuf {
    bot.cwd.clone().or_else(|| config.base.clone()).unwrap_or_else(|| PathBuf::from("."))
}

/// The most builds of one bot in a run: a bot whose files changed during its build (a push, see
/// [`prepare`]) is built again until they stay as its build found them, this many times in all.
pub const MAX_BUILDS: u32 = 3;

/// Whether the run was interrupted by the time `builds` ended. Ctrl-C, SIGTERM and SIGHUP end
/// the builds with the arena: a build they ended is no version of its bot (the student's
/// failure, for good). A build that ended by one of them (or SIGKILL: a plain build's keeper
/// ends it so when sent SIGTERM with the arena, as Slurm sends it to each process of a job)
/// waits a moment for the arena's own to be seen; one that raised it itself, the arena never
/// interrupted, failed.
fn cut_short<'a>(mut builds: impl Iterator<Item = &'a BuildOutcome>, interrupted: &dyn Fn() -> bool) -> bool {
    if builds.any(|b| b.signal.is_some_and(|s| super::ENDING_SIGNALS.contains(&s))) {
        return super::ending_within_a_moment(interrupted);
    }
    interrupted()
}

/// Which bots play, on which version: builds every bot with a build command (once per command
/// and folder), fingerprints it and records the version in `history`. A bot whose new version
/// cannot play keeps standing on its last good version (`runnable: false`: its files no longer
/// hold it, so its missing matches wait); one with no good version at all cannot play (the
/// returned failures say why). [`TournamentError::Interrupted`] when `interrupted` (the run's
/// Ctrl-C, SIGTERM or SIGHUP) says the run was interrupted by the time the builds ended: nothing
/// is recorded then (a build under way is ended then, and no other starts).
/// [`TournamentError::MachineBuild`] when the machine could not start a build
/// ([`build::BuildEnd::Machine`]): nothing is recorded either, as for a match the machine could
/// not start (no fault of the bot's, nor a failed version of it; the next run builds it again),
/// and no other build starts (they would fail alike).
pub fn prepare(
    config: &TournamentConfig,
    sandbox: &Sandbox,
    out: &Path,
    now: u64,
    history: &mut BTreeMap<String, BotHistory>,
    interrupted: &dyn Fn() -> bool,
    steps: &dyn Fn(build::Step<'_>),
) -> Result<(Vec<BotVersion>, BTreeMap<String, String>), TournamentError> {
    let base = config.base.as_deref();
    // The first build the machine could not start: its bot, and why.
    let machine: std::cell::RefCell<Option<(String, String)>> = std::cell::RefCell::default();
    // A bot whose files are reached through a link its students may have made is neither built
    // nor played (see [`submission::links`]): asked just before its build, and again below,
    // after every build, just before its version is recorded for its matches.
    let linked = |entry: &BotEntry| submission::links(entry, base).err();
    // (Before any build: what the students changed since the last one; for a bot a run cut
    // short before its record was saved had built, since that build, see [`Unrecorded`].)
    let marker = out.join(UNRECORDED_BUILDS);
    let mut unrecorded = Unrecorded::read(&marker, record_tag(out));
    // (Every bot's outputs as its last build left them, and where: another name's build in a
    // bot's folder rewrote its outputs.)
    let others: Vec<OtherStamps> = history
        .values()
        .filter_map(BotHistory::other_stamps)
        .chain(unrecorded.builds.values().flatten().filter_map(BuiltOutputs::other_stamps))
        .collect();
    // (A bot without a build too: the other builds' outputs it took, see below.)
    for entry in config.bots.iter().filter(|b| linked(b).is_none()) {
        if let (Some(dir), Some(h)) = (&entry.cwd, history.get_mut(&entry.name)) {
            match unrecorded.builds.get(&entry.name) {
                Some(Some(built)) => h.built_as(built, dir),
                // (Its build cut short: what it added was never noted.)
                Some(None) => h.build_growth.iter_mut().for_each(|g| g.cut_short = true),
                None => {}
            }
            h.forget_changed_outputs(dir, &others);
        }
    }
    let to_build: Vec<build::ToBuild> = config
        .bots
        .iter()
        .filter(|b| b.cwd.as_ref().is_none_or(|d| d.is_dir()))
        .filter_map(|b| {
            let growth = history.get(&b.name).and_then(|h| h.build_growth);
            b.build.as_ref().map(|cmd| (b.name.clone(), cmd.clone(), build_folder(config, b), growth, b.cwd.is_some()))
        })
        .collect();
    // (From here until the record is saved, each bot's outputs as its build leaves them, and
    // as unknown while it builds.)
    for (name, _, _, _, _) in &to_build {
        unrecorded.builds.insert(name.clone(), None);
    }
    unrecorded.write(&marker);
    // The copies' paths are made from the league folder's absolute path: they hold from any
    // folder the arena runs in (and a copy's program named by an absolute path runs in its box).
    let league = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    // (The league's own folder is no part of a bot whose folder holds it.)
    let left_out = submission::LeftOut::league(&[out]);
    // Each bot's files as its build starts from them, to tell whether they are still the files it
    // built when its version is recorded (see [`MAX_BUILDS`]): read just before the first build
    // of its command in its folder (its own, or the first of the bots that share it).
    let mut started: BTreeMap<String, submission::Sources> = BTreeMap::new();
    // And its git commit and index, for its label, read then too: what its build writes in its
    // `.git` (without a box, where nothing keeps it from there) is never what its label says.
    let mut git_before: BTreeMap<String, Option<submission::GitState>> = BTreeMap::new();
    let git_now = |entry: &BotEntry| submission::folder(entry).and_then(|f| submission::git_state(&f, base));
    let mut refuse = |name: &str| {
        // (No build starts once the run is ending: it records none.)
        if interrupted() {
            return Some("not built: the run was ended".to_string());
        }
        if machine.borrow().is_some() {
            return Some("not built: the machine could not start an earlier build".to_string());
        }
        let why = config.bots.iter().find(|b| b.name == name).and_then(linked).map(|l| l.to_string());
        let shared = to_build.iter().find(|(n, _, _, _, _)| n == name).map(|(_, c, d, _, _)| (c, d));
        for (other, _, _, _, _) in to_build.iter().filter(|(_, c, d, _, _)| why.is_none() && Some((c, d)) == shared) {
            let Some(entry) = config.bots.iter().find(|b| &b.name == other && b.cwd.is_some() && linked(b).is_none())
            else {
                continue;
            };
            if !started.contains_key(other) {
                let outputs = history.get(other).map(|h| h.outputs.clone()).unwrap_or_default();
                if let Ok(files) = submission::sources(entry, base, &outputs, &left_out, &mut BTreeMap::new()) {
                    started.insert(other.clone(), files);
                    let git = git_now(entry);
                    git_before.insert(other.clone(), git);
                }
            }
        }
        why
    };
    let mut note = |name: &str, outcome: &BuildOutcome| {
        if outcome.ended == build::BuildEnd::Machine && machine.borrow().is_none() {
            *machine.borrow_mut() = Some((name.to_string(), outcome.problem.clone().unwrap_or_default()));
        }
        let Some(dir) = config.bots.iter().find(|b| b.name == name).and_then(|e| e.cwd.as_ref()) else {
            unrecorded.builds.remove(name);
            unrecorded.write(&marker);
            return;
        };
        let mut h = history.get(name).cloned().unwrap_or_default();
        let noted = BuiltOutputs::after(&mut h, dir, outcome, &unrecorded.builds);
        unrecorded.builds.insert(name.to_string(), Some(noted));
        unrecorded.write(&marker);
    };
    let limits = (config.build_limits(), out, now, interrupted);
    let builds = build::build_all(sandbox, &to_build, limits, &mut refuse, &mut note, steps);
    if cut_short(builds.values(), interrupted) {
        return Err(TournamentError::Interrupted);
    }
    if let Some((bot, why)) = machine.take() {
        return Err(TournamentError::MachineBuild { bot, why });
    }
    let mut cache = BTreeMap::new();
    let mut bots = Vec::new();
    let mut failures = BTreeMap::new();
    for entry in &config.bots {
        let h = history.entry(entry.name.clone()).or_default();
        let mut built: Option<BuildOutcome> = builds.get(&entry.name).cloned();
        let mut link = linked(entry);
        if let Some(growth) = built.as_ref().and_then(|b| b.growth) {
            h.build_growth = Some(growth);
        }
        if let (Some(dir), None) = (&entry.cwd, &link) {
            // Only what a build made inside the bot's own folder is left out of its fingerprint,
            // as it was when that build ended (noted then, above): stamped now, after the other
            // bots' builds, a student's push to an output meanwhile passed for the build's.
            if let Some(b) = &built {
                match unrecorded.builds.get(&entry.name) {
                    Some(Some(noted)) => h.outputs_as(noted, dir),
                    _ => h.note_outputs(dir, b, Known::noted(&unrecorded.builds, dir)),
                }
            }
            // What the other bots' builds of this run wrote in its folder is no file of its own
            // either, whether it has a build or not (`make a` beside `python3 bot.py` in one kit,
            // or a bot's folder inside its own): else their outputs were its, and a build of
            // theirs that writes anything new (a time stamp, a cache) made it a new version on
            // every run. (As those builds left them, unread: a push to one since is the
            // student's.)
            for theirs in outputs_of_others(config, &entry.name, dir, &builds, &unrecorded) {
                h.take_outputs(&theirs, dir);
            }
        }
        // The files its build started from must still be the bot's, those its version is recorded
        // by and copied from: a push during its build, or during the builds after it, had the
        // new files recorded with a program built from the old ones. It is built again, up to
        // MAX_BUILDS builds in all; files changing still leave its new version for the next run.
        // (A bot without a folder of its own has its command's files fingerprinted whole,
        // outputs included: what it runs is what is recorded.)
        // (Read once for both of its fingerprints: its own files', and with its build's outputs.)
        let mut checked: Option<submission::Reading> = None;
        let mut unsettled: Option<String> = None;
        if let (Some(mut from), Some(dir), Some(command)) = (started.remove(&entry.name), &entry.cwd, &entry.build) {
            let mut runs = 1;
            while link.is_none() && built.as_ref().is_some_and(|b| b.problem.is_none()) {
                let Ok(after) = submission::read(entry, base, &h.outputs, &left_out, &mut BTreeMap::new()) else {
                    break;
                };
                let then = from.without(&h.outputs);
                // (Its outputs too: the copy takes them as they are, as what its sources built.)
                let pushed = h.changed_outputs(dir);
                if then == after.own && pushed.is_empty() {
                    checked = Some(after);
                    break;
                }
                let mut what = then.differences(&after.own, 5);
                what.extend(pushed);
                what.truncate(5);
                let what = what.join(", ");
                if runs == MAX_BUILDS {
                    unsettled = Some(format!(
                        "build: its files changed during each of its {MAX_BUILDS} builds (last: {what}): a push \
                         meanwhile, or a build that rewrites a file of the submission (have it make that file \
                         anew, or `ignore` it); its new version waits for the next run"
                    ));
                    break;
                }
                tracing::warn!(bot = %entry.name, changed = %what, "its files changed during its build: building it again");
                // (An output written since its build, the student's file now, as the next run
                // would take it: fingerprinted, and no build's any more.)
                h.forget_changed_outputs(dir, &[]);
                // (Asked again just before each build, as before the first.)
                link = linked(entry);
                if link.is_some() {
                    break;
                }
                let Ok(again) = submission::sources(entry, base, &h.outputs, &left_out, &mut BTreeMap::new()) else {
                    break;
                };
                from = again;
                let git = git_now(entry);
                git_before.insert(entry.name.clone(), git);
                let log = build::free_log_name(out, &entry.name, now);
                let earlier = build::Earlier { bot: &entry.name, growth: h.build_growth, own: true };
                let outcome = build::timed(std::slice::from_ref(&entry.name), steps, || {
                    build::run_until(sandbox, command, dir, config.build_limits(), out, &log, earlier, interrupted)
                });
                runs += 1;
                if let Some(growth) = outcome.growth {
                    h.build_growth = Some(growth);
                }
                let noted = BuiltOutputs::after(h, dir, &outcome, &unrecorded.builds);
                unrecorded.builds.insert(entry.name.clone(), Some(noted));
                unrecorded.write(&marker);
                // (What the files were read as, for this bot or another, may be old now.)
                cache.clear();
                if cut_short(std::iter::once(&outcome), interrupted) {
                    return Err(TournamentError::Interrupted);
                }
                if outcome.ended == build::BuildEnd::Machine {
                    let why = outcome.problem.unwrap_or_default();
                    return Err(TournamentError::MachineBuild { bot: entry.name.clone(), why });
                }
                built = Some(outcome);
            }
        }
        let log = built.as_ref().map(|b| b.log.clone()).filter(|log| !log.is_empty());
        // Why no copy of its version could be kept, if so.
        let mut no_copy: Option<String> = None;
        let attempt = match (&entry.cwd, built.as_ref().and_then(|b| b.problem.clone())) {
            _ if let Some(link) = &link => Err(link.to_string()),
            _ if let Some(unsettled) = &unsettled => Err(unsettled.clone()),
            (Some(dir), _) if let Some(trouble) = crate::files::folder_trouble(dir) => Err(trouble),
            (_, Some(problem)) => match &log {
                Some(log) => Err(format!("{problem} (full log: {log})")),
                // (Not run: refused just before its build.)
                None => Err(problem),
            },
            _ => check_program(entry, &sandbox.sight()).and_then(|()| {
                // (The files fingerprinted are those the copy below must still be made from.)
                let files = match &checked {
                    Some(files) => files.own.fingerprints(),
                    None => {
                        let read = submission::read(entry, base, &h.outputs, &left_out, &mut cache)
                            .map_err(|e| e.to_string())?;
                        checked.insert(read).own.fingerprints()
                    }
                };
                Ok(h.fingerprint_of(&files))
            }),
        };
        // (Nothing is read through a link: the version refused is no one's files.)
        // (Its files not all the commit's, as far as git's index tells: `+ edits`.)
        // (Its commit and index as its build found them, told against its files as they are
        // now; a bot not built, as they are now.)
        let git = match git_before.remove(&entry.name) {
            Some(before) => before,
            None => git_now(entry),
        };
        let commit = || {
            let git = git.as_ref().filter(|_| link.is_none())?;
            let edited = checked.as_ref().is_some_and(|files| git.edits(&files.own));
            Some(if edited { format!("{} + edits", git.label()) } else { git.label() })
        };
        // A new version is copied (one seen before, whose copy is missing, again: an earlier
        // arena kept none of a version that played): from the files checked above, while they
        // stay so. The bot plays from its copy, whatever its own files become during the run.
        let attempt = attempt.and_then(|(fingerprint, portable)| {
            let known = h
                .versions
                .iter()
                .filter(|v| v.ok && v.fingerprint == fingerprint)
                .find_map(|v| v.kept.clone().filter(copy_is_there));
            if known.is_some() {
                return Ok((fingerprint, portable, known));
            }
            let dest = league.join("versions").join(crate::files::name_part(&entry.name)).join(&fingerprint);
            let kept = submission::snapshot(entry, &dest, &left_out).map_err(|e| no_copy = Some(e.to_string())).ok();
            let Some(then) = checked.as_ref().map(|c| &c.own) else { return Ok((fingerprint, portable, kept)) };
            // The copy is checked twice: itself, as copied, against the files fingerprinted (a
            // file swapped during the copy and back, A, B, A, is B in the copy though A is in
            // the folder after it), and the bot's files after it (an output pushed meanwhile).
            let copied = match &kept {
                Some(_) => submission::copied_sources(entry, &dest, then, &h.outputs, &left_out).map(Some),
                None => Ok(None),
            };
            let pushed = entry.cwd.as_deref().map(|dir| h.changed_outputs(dir)).unwrap_or_default();
            let now = submission::sources(entry, base, &h.outputs, &left_out, &mut BTreeMap::new());
            match (now, copied) {
                (Ok(now), Ok(copied))
                    if now == *then && pushed.is_empty() && copied.as_ref().is_none_or(|c| c == then) =>
                {
                    Ok((fingerprint, portable, kept))
                }
                (now, copied) => {
                    if kept.is_some() {
                        if let Err(e) = std::fs::remove_dir_all(&dest) {
                            tracing::warn!(copy = %dest.display(), "cannot remove a copy of files that changed: {e}");
                        }
                    }
                    let mut what: Vec<String> = Vec::new();
                    let read = [now.map(Some), copied].into_iter().flat_map(|read| match read {
                        Ok(read) => read.map(|read| then.differences(&read, 5)).unwrap_or_default(),
                        Err(e) => vec![e.to_string()],
                    });
                    for said in read.chain(pushed) {
                        if !what.contains(&said) && what.len() < 5 {
                            what.push(said);
                        }
                    }
                    let what = what.join(", ");
                    let head = if entry.build.is_some() { "build: " } else { "" };
                    Err(format!(
                        "{head}its files changed while the league copied them ({what}): its new version waits for \
                         the next run"
                    ))
                }
            }
        });
        // Without a copy to play from (see [`unchecked`]), it plays from its own folder only if
        // what its build wrote could be read, to be checked before and after each match.
        let attempt = attempt.and_then(|(fingerprint, portable, kept)| {
            let copy = kept.as_ref().filter(|k| program_exists(k).is_ok());
            let whole = checked.as_ref().map(|c| c.whole.as_ref().map(|_| ()));
            match (copy, whole) {
                (None, Some(Err(unread))) if refuses_unchecked() => {
                    let no_copy = no_copy.as_deref().unwrap_or("its copy cannot run");
                    Err(unchecked(entry, no_copy, unread))
                }
                (None, _) => {
                    let why = no_copy.as_deref().unwrap_or("its copy cannot run");
                    tracing::warn!(
                        "{why}: it plays from its own folder, each match only while its files are still this version"
                    );
                    Ok((fingerprint, portable, kept))
                }
                _ => Ok((fingerprint, portable, kept)),
            }
        });
        match attempt {
            Ok((fingerprint, portable, kept)) => {
                // It plays from the copy of this version when there is one (see
                // [`BotVersion::kept`]): the one found or made above, which the record keeps.
                let copy = kept.clone().filter(|k| program_exists(k).is_ok());
                let version = Version {
                    fingerprint: fingerprint.clone(),
                    label: String::new(),
                    at: now,
                    ok: true,
                    problem: None,
                    build_log: log,
                    kept,
                    portable,
                };
                h.record(version, commit);
                // (What its build wrote as read with its files above, which are still so.)
                let built =
                    checked.as_ref().and_then(|c| c.whole.as_ref().ok()).map(|whole| whole.fingerprints().portable);
                bots.push(match copy {
                    Some(copy) => BotVersion { entry: copy, fingerprint, runnable: true, kept: true, built },
                    None => BotVersion { entry: entry.clone(), fingerprint, runnable: true, kept: false, built },
                });
            }
            Err(why) => {
                let (fingerprint, portable) = match link {
                    Some(_) => Default::default(),
                    None => submission::fingerprints(entry, base, &h.outputs, &left_out, &mut cache)
                        .map(|now| h.fingerprint_of(&now))
                        .unwrap_or_default(),
                };
                let version = Version {
                    fingerprint,
                    label: String::new(),
                    at: now,
                    ok: false,
                    problem: Some(why.clone()),
                    build_log: log,
                    kept: None,
                    portable,
                };
                h.record(version, commit);
                match h.standing(None) {
                    // It plays on as its last good version, from the copy the league kept.
                    Some(good) => bots.push(match good.kept.as_ref().filter(|k| program_exists(k).is_ok()) {
                        Some(kept) => BotVersion {
                            entry: kept.clone(),
                            fingerprint: good.fingerprint.clone(),
                            runnable: true,
                            kept: true,
                            built: None,
                        },
                        None => BotVersion {
                            entry: entry.clone(),
                            fingerprint: good.fingerprint.clone(),
                            runnable: false,
                            kept: false,
                            built: None,
                        },
                    }),
                    None => {
                        failures.insert(entry.name.clone(), why);
                    }
                }
            }
        }
    }
    limit_copies(history, &bots, config.copies_bytes());
    Ok((bots, failures))
}

/// Why `bot` cannot play its new version: no copy of it could be kept (`no_copy`), so it would
/// play from its own folder, and what its build wrote cannot be read (`unread`: more than
/// [`submission::MAX_FILES`] files or [`submission::MAX_FOLDER_BYTES`] with the bot's, an output
/// over 512 MiB or unreadable), so
/// the check before and after each match could not see its program replaced (a push, a student
/// with a shell on the machine). It is refused rather than checked on the files its command
/// names alone: a committed `./bot` that runs `build/real-bot`, an interpreter loading a module
/// its build wrote, a `java -cp build` run none of their words name, and a partial check would
/// pass them. As a submission too large to fingerprint is refused, and with the same remedy.
fn unchecked(bot: &BotEntry, no_copy: &str, unread: &str) -> String {
    let head = if bot.build.is_some() { "build: " } else { "" };
    format!(
        "{head}no copy of it could be kept ({no_copy}), and what its build wrote cannot be read ({unread}): it \
         would play from its own folder, where its program could be replaced between matches unseen, so it does \
         not play this version; have its build write fewer files (at most {} and {} MiB with the bot's) and none unreadable \
         or over {} MiB, e.g. `ignore` its build's intermediate folders (not what its command runs), or keep its \
         folder under {} MiB and {} files so that the league keeps a copy",
        submission::MAX_FILES,
        submission::MAX_FOLDER_BYTES >> 20,
        submission::MAX_FINGERPRINTED_BYTES >> 20,
        submission::MAX_SNAPSHOT_BYTES >> 20,
        submission::MAX_COPY_FILES,
    )
}

#[cfg(test)]
thread_local! {
    /// Off in a test's control, on this thread: a bot refused by [`unchecked`] plays from its
    /// own folder all the same, its build's outputs unchecked, as a run played it before.
    pub(super) static REFUSE_UNCHECKED: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether a bot with no copy whose build's outputs cannot be read is refused (see [`unchecked`]).
fn refuses_unchecked() -> bool {
    #[cfg(test)]
    let on = REFUSE_UNCHECKED.get();
    #[cfg(not(test))]
    let on = true;
    on
}

/// Where, in `path`, the copy of version `fingerprint` begins: the index of its components
/// `versions/<bot>/<fingerprint>` (which only a path into the league's copy has: a fingerprint
/// covers the command, so no word of the command can name it).
fn copy_start(path: &Path, fingerprint: &str) -> Option<usize> {
    if fingerprint.is_empty() {
        return None;
    }
    let parts: Vec<Component<'_>> = path.components().collect();
    parts.windows(3).position(|w| {
        w[0] == Component::Normal("versions".as_ref())
            && matches!(w[1], Component::Normal(_))
            && w[2] == Component::Normal(fingerprint.as_ref())
    })
}

/// `entry` with `change` applied to its folder and to each word of its command (a word it
/// gives `None` stays as it is).
pub(super) fn map_paths(entry: &BotEntry, change: impl Fn(&Path) -> Option<PathBuf>) -> BotEntry {
    let mut out = entry.clone();
    if let Some(cwd) = entry.cwd.as_deref().and_then(&change) {
        out.cwd = Some(cwd);
    }
    if let Ok(words) = shell_words::split(&entry.command) {
        let changed: Vec<Option<String>> =
            words.iter().map(|w| change(Path::new(w)).and_then(|p| p.to_str().map(str::to_string))).collect();
        if changed.iter().any(Option::is_some) {
            let words = words.into_iter().zip(changed).map(|(w, c)| c.unwrap_or(w));
            out.command = shell_words::join(words);
        }
    }
    out
}

/// A kept copy (`entry`, of version `fingerprint`) as `tournament.json` holds it: its paths into
/// the copy relative to the league folder `league` (absolute), so that the league resumes from
/// any folder, and once moved. A path elsewhere (a shard's record, naming the league's copy)
/// stays absolute.
pub fn kept_on_disk(entry: &BotEntry, fingerprint: &str, league: &Path) -> BotEntry {
    map_paths(entry, |path| {
        let rel = path.strip_prefix(league).ok()?;
        (copy_start(rel, fingerprint) == Some(0)).then(|| rel.to_path_buf())
    })
}

/// A kept copy read from the `tournament.json` of the league folder `league` (absolute), with
/// absolute paths: one written relative to the league folder is found there. One written
/// before that, as the first run typed the league folder (relative to the folder it ran in,
/// `here` now), is found there if the copy is there, else in the league folder (the league
/// resumed from another folder, or moved).
pub fn kept_in_memory(entry: &BotEntry, fingerprint: &str, league: &Path, here: &Path) -> BotEntry {
    map_paths(entry, |path| {
        let start = copy_start(path, fingerprint)?;
        if start == 0 && path.is_relative() {
            return Some(league.join(path));
        }
        let parts: Vec<Component<'_>> = path.components().collect();
        let copy: PathBuf = parts[..start + 3].iter().collect();
        if here.join(&copy).is_dir() {
            Some(here.join(path))
        } else {
            Some(league.join(parts[start..].iter().collect::<PathBuf>()))
        }
    })
}

/// Whether the kept copy `kept` is still on disk: its folder, and its program.
fn copy_is_there(kept: &BotEntry) -> bool {
    kept.cwd.as_ref().is_none_or(|d| d.is_dir()) && program_exists(kept).is_ok()
}

/// Checks that a bot's program exists (a path relative to its working directory, or a
/// program found on PATH): whether a kept copy is still there (see [`check_program`] for what
/// a version must pass to play).
pub fn program_exists(bot: &BotEntry) -> Result<(), String> {
    let words = shell_words::split(&bot.command).map_err(|e| format!("bad command `{}`: {e}", bot.command))?;
    let program = words.first().ok_or_else(|| "empty command".to_string())?;
    let found = if program.contains('/') {
        bot.cwd.clone().unwrap_or_default().join(program).is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    };
    if found {
        Ok(())
    } else {
        Err(format!("cannot start: program `{program}` not found"))
    }
}

/// Checks that a bot can start as it will really run, seeing `sight` (see
/// [`crate::referee::start::trouble`]): its program is there (a bare name where bots look for
/// programs, not on the teacher's PATH), may be run, its `#!` line names an interpreter the bot
/// has, and the script an interpreter is given exists. A bot that fails it cannot play (a
/// "cannot play" row, with why), rather than having every match fail to start or crash.
pub fn check_program(bot: &BotEntry, sight: &crate::sandbox::Sight) -> Result<(), String> {
    let words = shell_words::split(&bot.command).map_err(|e| format!("bad command `{}`: {e}", bot.command))?;
    if words.is_empty() {
        return Err("empty command".to_string());
    }
    match crate::referee::start::trouble(&words, bot.cwd.as_deref(), sight) {
        Some(why) => Err(format!("cannot start: {why}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's time is a date up to the year 9999, and past it the number it is (a damaged
    /// `tournament.json` made the leaderboard panic).
    #[test]
    fn times_past_the_year_9999_are_numbers() {
        assert_eq!(time_text(1_796_000_000), "2026-11-30T00:53:20Z");
        assert_eq!(time_text(253_402_300_800), "253402300800 s after 1970");
        assert_eq!(time_text(u64::MAX), format!("{} s after 1970", u64::MAX));
    }

    fn v(fp: &str, at: u64, ok: bool) -> Version {
        Version {
            fingerprint: fp.into(),
            label: String::new(),
            at,
            ok,
            problem: (!ok).then(|| {
                format!("build `make` failed (exit status: 2): bot.c:1: error: x (full log: builds/b-{at}.log)")
            }),
            build_log: Some(format!("builds/b-{at}.log")),
            kept: None,
            portable: None,
        }
    }

    /// Two leagues whose `versions/` are links to one shared folder: a run of the first removes
    /// none of the second's copies, which its own record does not list; a copy no record lists in
    /// a league's own `versions/` goes. The control: removed wherever `versions/` leads, the
    /// second league's copy went.
    #[test]
    fn copies_in_a_versions_folder_shared_by_a_link_are_not_removed() {
        let dir = tempfile::tempdir().unwrap();
        let (shared, first, second) = (dir.path().join("shared"), dir.path().join("first"), dir.path().join("second"));
        let theirs = shared.join("bob/0123456789abcdef");
        std::fs::create_dir_all(theirs.join("folder")).unwrap();
        std::fs::write(theirs.join("folder/bot.sh"), "echo WAIT\n").unwrap();
        for league in [&first, &second] {
            std::fs::create_dir_all(league).unwrap();
            std::os::unix::fs::symlink(&shared, league.join("versions")).unwrap();
        }
        // (The second league's record keeps the copy; the first's has no version of bob.)
        let mine = BTreeMap::new();
        remove_unlisted_copies(&first, &mine);
        assert!(theirs.join("folder/bot.sh").is_file(), "the second league's copy stays");
        // In a league's own versions/, a copy no record lists goes.
        let own = dir.path().join("own");
        let unlisted = own.join("versions/bob/0123456789abcdef");
        std::fs::create_dir_all(unlisted.join("folder")).unwrap();
        remove_unlisted_copies(&own, &mine);
        assert!(!unlisted.exists() && !own.join("versions/bob").exists());
        // The control: removed wherever versions/ leads.
        remove_unlisted_copies_in(&first, &mine);
        assert!(!theirs.exists(), "the second league's copy went");
        assert!(second.join("versions").symlink_metadata().is_ok());
    }

    #[test]
    fn a_failed_version_never_replaces_the_last_good_one() {
        let mut h = BotHistory::default();
        h.record(v("aa", 100, true), || Some("abc123".into()));
        h.record(v("aa", 200, true), || None);
        assert_eq!(h.versions.len(), 1, "the same version is recorded once");
        assert_eq!(h.versions[0].build_log.as_deref(), Some("builds/b-100.log"), "with the log that built it");
        h.record(v("bb", 300, false), || None);
        assert_eq!(h.standing(None).unwrap().fingerprint, "aa");
        let note = h.note().unwrap();
        assert!(note.starts_with("build failed at 1970-01-01T00:05:00Z"), "{note}");
        assert!(note.contains(", standing from v1 abc123 (1970-01-01T00:01:40Z): "), "{note}");
        h.record(v("cc", 400, true), || None);
        assert_eq!(h.describe(h.standing(None).unwrap()), "v2 (1970-01-01T00:06:40Z)");
        assert_eq!(h.note(), None);
        assert_eq!(h.standing(Some(399)).unwrap().fingerprint, "aa", "as of a past time");
        assert_eq!(h.standing(Some(99)), None);
        // A failure again links its newest log; files that were v1 again are v1, not v3.
        h.record(v("dd", 500, false), || None);
        h.record(v("dd", 600, false), || None);
        assert_eq!(h.latest().unwrap().build_log.as_deref(), Some("builds/b-600.log"));
        let problem = h.latest().unwrap().problem.as_deref().unwrap();
        assert!(problem.ends_with("(full log: builds/b-600.log)"), "its problem names that log: {problem}");
        h.record(v("aa", 700, true), || None);
        assert_eq!(h.standing(None).unwrap().label, "v1 abc123");
        assert_eq!(h.standing(None).unwrap().at, 700, "standing from when it came back");
        // Shown as v1 was first seen (the same files, the same version), not when it came back.
        assert_eq!(h.describe(h.standing(None).unwrap()), "v1 abc123 (1970-01-01T00:01:40Z)");
        assert_eq!(h.standing(Some(650)).unwrap().fingerprint, "cc", "as of before it came back: v2");
        h.record(v("ee", 800, true), || None);
        assert_eq!(h.standing(None).unwrap().label, "v3", "the next new version");
    }

    fn entry(cwd: Option<&Path>, command: &str) -> BotEntry {
        BotEntry {
            cwd: cwd.map(Path::to_path_buf),
            ..super::super::config::parse_bot_arg(&format!("b={command}")).unwrap()
        }
    }

    /// A kept copy's paths go to `tournament.json` relative to the league folder and come back
    /// from it against the league folder, wherever that is now; paths that are not into the
    /// copy are left alone.
    #[test]
    fn kept_copies_are_recorded_relative_to_the_league_folder() {
        let league = Path::new("/srv/league");
        let copy = league.join("versions/bob/0123456789abcdef");
        let folder_bot =
            entry(Some(&copy.join("folder")), &format!("./bot {}/folder/data versions/x/y", copy.display()));
        let disk = kept_on_disk(&folder_bot, "0123456789abcdef", league);
        assert_eq!(disk.cwd.as_deref(), Some(Path::new("versions/bob/0123456789abcdef/folder")));
        assert_eq!(disk.command, "./bot versions/bob/0123456789abcdef/folder/data versions/x/y");
        let moved = Path::new("/elsewhere/league");
        let back = kept_in_memory(&disk, "0123456789abcdef", moved, Path::new("/anywhere"));
        assert_eq!(back.cwd.as_deref(), Some(moved.join("versions/bob/0123456789abcdef/folder").as_path()));
        assert_eq!(back.command, "./bot /elsewhere/league/versions/bob/0123456789abcdef/folder/data versions/x/y");
        assert_eq!(kept_in_memory(&disk, "0123456789abcdef", league, Path::new("/")), folder_bot, "a round trip");
        // A bot without a folder: the files its command names.
        let files_bot = entry(None, &format!("{}/files/0-prebuilt --x", copy.display()));
        let disk = kept_on_disk(&files_bot, "0123456789abcdef", league);
        assert_eq!(disk.command, "versions/bob/0123456789abcdef/files/0-prebuilt --x");
        // A copy outside the league folder (a shard's record naming the league's copies) stays.
        assert_eq!(kept_on_disk(&folder_bot, "0123456789abcdef", Path::new("/srv/shard-1")), folder_bot);
        assert_eq!(kept_on_disk(&folder_bot, "another", league), folder_bot, "not this version's copy");
    }

    /// A record written before holds the paths as the first run typed the league folder
    /// (`L/versions/…`, relative to the folder it ran in): found there if the copy is there,
    /// else in the league folder.
    #[test]
    fn kept_copies_of_records_written_before_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let (first, other) = (dir.path().join("first"), dir.path().join("other"));
        std::fs::create_dir_all(first.join("L/versions/bob/0123456789abcdef/folder")).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        let old = entry(Some(Path::new("L/versions/bob/0123456789abcdef/folder")), "./bot");
        let league = first.join("L");
        let want = league.join("versions/bob/0123456789abcdef/folder");
        let from_first = kept_in_memory(&old, "0123456789abcdef", &league, &first);
        assert_eq!(from_first.cwd.as_deref(), Some(want.as_path()), "as today, from the first run's folder");
        let from_other = kept_in_memory(&old, "0123456789abcdef", &league, &other);
        assert_eq!(from_other.cwd.as_deref(), Some(want.as_path()), "from another folder, in the league folder");
        let absolute = entry(Some(&want), "./bot");
        assert_eq!(kept_in_memory(&absolute, "0123456789abcdef", &league, &other), absolute, "typed absolute");
        // The league moved: from the first run's folder too, it is found where it is now.
        let moved = other.join("L");
        std::fs::rename(&league, &moved).unwrap();
        let there = Some(moved.join("versions/bob/0123456789abcdef/folder"));
        assert_eq!(kept_in_memory(&old, "0123456789abcdef", &moved, &first).cwd, there, "relative, then moved");
        assert_eq!(kept_in_memory(&absolute, "0123456789abcdef", &moved, &first).cwd, there, "absolute, then moved");
    }

    /// A league an earlier arena recorded keeps its versions: the version recorded by the
    /// legacy fingerprint is the bot as it is now (its matches' keys, which name it, stay), and
    /// learns its portable fingerprint, by which it is still known once the course's folder has
    /// moved. The controls: the portable fingerprint is another (without the legacy one
    /// accepted, every match would be played again), and so is the legacy one after the move.
    #[test]
    fn a_version_recorded_by_the_legacy_fingerprint_is_kept_and_known_after_a_move() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("course");
        std::fs::create_dir_all(first.join("bots/bob")).unwrap();
        std::fs::write(first.join("bots/bob/bot.sh"), "echo WAIT\n").unwrap();
        let toml = "[[bots]]\nname = \"bob\"\ncommand = \"sh bots/bob/bot.sh\"\n";
        std::fs::write(first.join("class.toml"), toml).unwrap();
        let load = |course: &Path| TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let out = dir.path().join("league");
        let config = load(&first);
        let now = |config: &TournamentConfig| {
            let base = config.base.as_deref();
            submission::fingerprints(&config.bots[0], base, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new())
                .unwrap()
        };
        let legacy = now(&config).legacy;
        // As an earlier arena recorded the bot: by its legacy fingerprint.
        let mut history = BTreeMap::from([(
            "bob".to_string(),
            BotHistory {
                versions: vec![Version { label: "v1".into(), ..v(&legacy, 100, true) }],
                ..Default::default()
            },
        )]);
        let (bots, _) = prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(bots[0].fingerprint, legacy, "the recorded version is the bot as it is now");
        assert_ne!(now(&config).portable, legacy, "the control: the portable fingerprint is another");
        let h = &history["bob"];
        assert_eq!(h.versions.len(), 1, "no new version: {h:?}");
        assert_eq!(
            h.versions[0].portable.as_deref(),
            Some(now(&config).portable.as_str()),
            "it learns its portable one"
        );
        assert_eq!(h.portable_of(&legacy), Some(now(&config).portable.as_str()));

        let moved = dir.path().join("moved/course");
        std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
        std::fs::rename(&first, &moved).unwrap();
        let config = load(&moved);
        assert_ne!(now(&config).legacy, legacy, "the control: the legacy fingerprint moved with the folder");
        let (bots, _) = prepare(&config, &sandbox, &out, 300, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(bots[0].fingerprint, legacy, "still the recorded version, known by its portable fingerprint");
        assert_eq!(history["bob"].versions.len(), 1);

        // A changed file is a new version, recorded by its portable fingerprint.
        std::fs::write(moved.join("bots/bob/bot.sh"), "echo WAIT # tuned\n").unwrap();
        let (bots, _) = prepare(&config, &sandbox, &out, 400, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(bots[0].fingerprint, now(&config).portable);
        let h = &history["bob"];
        assert_eq!(
            (h.versions.len(), h.versions[1].label.as_str(), h.versions[1].portable.as_deref()),
            (2, "v2", None)
        );
    }

    /// Two bots built in one folder (`cp a-src a`, and `cp b-src b` that also writes a new
    /// `b.stamp` on every build, as a time stamp or a cache would): what b's build writes is no
    /// file of a's, so a stays on its one version over three runs, built once a run. The
    /// control: `b.stamp` did change on every run, and a file the builds did not write (a
    /// teacher's note in the folder) makes a new version of both.
    #[test]
    fn a_build_in_a_shared_folder_does_not_make_the_other_bot_a_new_version() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        std::fs::create_dir_all(course.join("kit")).unwrap();
        std::fs::write(course.join("kit/a-src"), "#!/bin/sh\necho a\n").unwrap();
        std::fs::write(course.join("kit/b-src"), "#!/bin/sh\necho b\n").unwrap();
        let toml = "[[bots]]\nname = \"a\"\ncommand = \"./a\"\ncwd = \"kit\"\nbuild = \"cp a-src a && chmod +x a\"\n\
                    [[bots]]\nname = \"b\"\ncommand = \"./b\"\ncwd = \"kit\"\n\
                    build = \"cp b-src b && chmod +x b && date +%s%N > b.stamp\"\n";
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::Auto, Default::default()).unwrap();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        let mut stamps = Vec::new();
        for at in [100, 200, 300] {
            let (bots, failures) = prepare(&config, &sandbox, &out, at, &mut history, &|| false, &|_| {}).unwrap();
            assert!(failures.is_empty(), "{failures:?}");
            assert_eq!(bots.len(), 2);
            stamps.push(std::fs::read_to_string(course.join("kit/b.stamp")).unwrap());
        }
        let labels = |h: &BTreeMap<String, BotHistory>, name: &str| -> Vec<String> {
            h[name].versions.iter().map(|v| v.label.clone()).collect()
        };
        assert_eq!(labels(&history, "a"), ["v1"], "{:?}", history["a"]);
        assert_eq!(labels(&history, "b"), ["v1"], "{:?}", history["b"]);
        let logs = std::fs::read_dir(out.join("builds")).unwrap().flatten();
        let a_logs = logs.filter(|e| e.file_name().to_string_lossy().starts_with("a-")).count();
        assert_eq!(a_logs, 3, "a built once a run");
        // The control: b's build wrote anew each time, and a file of the folder's counts for both.
        assert!(stamps[0] != stamps[1] && stamps[1] != stamps[2], "{stamps:?}");
        std::fs::write(course.join("kit/notes.txt"), "the teacher's\n").unwrap();
        prepare(&config, &sandbox, &out, 400, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(labels(&history, "a"), ["v1", "v2"]);
        assert_eq!(labels(&history, "b"), ["v1", "v2"]);
    }

    /// A bot's folder inside another's (`b` in `kit/b`, `a` in `kit`): what b's build writes
    /// there (`b`, and a new `b.stamp` each run) is no file of a's, and what a's build writes in
    /// b's folder (`from-a`, new each run) is no file of b's: both stay on one version over three
    /// runs, each built once a run. The controls: those files changed each run, and a's
    /// fingerprint counting b's outputs changed with them (the old defect: a new version of a on
    /// every run, a built twice on the first); a file at a's root named like b's output
    /// (`b.stamp`, written by hand, no build's) makes a new version of a alone; and once b is
    /// out of the league, its output written by hand is a's file again.
    #[test]
    fn a_build_in_a_folder_inside_another_bot_s_does_not_make_it_a_new_version() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        std::fs::create_dir_all(course.join("kit/b")).unwrap();
        std::fs::write(course.join("kit/a-src"), "#!/bin/sh\necho a\n").unwrap();
        std::fs::write(course.join("kit/b/b-src"), "#!/bin/sh\necho b\n").unwrap();
        let a = "[[bots]]\nname = \"a\"\ncommand = \"./a\"\ncwd = \"kit\"\n\
                 build = \"cp a-src a && chmod +x a && date +%s%N > b/from-a\"\n";
        let b = "[[bots]]\nname = \"b\"\ncommand = \"./b\"\ncwd = \"kit/b\"\n\
                 build = \"cp b-src b && chmod +x b && date +%s%N > b.stamp\"\n";
        std::fs::write(course.join("class.toml"), format!("{a}{b}")).unwrap();
        std::fs::write(course.join("alone.toml"), a).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::Auto, Default::default()).unwrap();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        let written = || ["kit/b/b.stamp", "kit/b/from-a"].map(|f| std::fs::read_to_string(course.join(f)).unwrap());
        // a's fingerprint with its own build's outputs left out, b's counted (as before).
        let own_only = |h: &BTreeMap<String, BotHistory>| {
            let own: BTreeSet<String> = h["a"].outputs.iter().filter(|p| !p.starts_with("b/")).cloned().collect();
            submission::fingerprints(
                &config.bots[0],
                config.base.as_deref(),
                &own,
                &Default::default(),
                &mut BTreeMap::new(),
            )
            .unwrap()
            .portable
        };
        // (Each run's record saved: the builds it noted are no longer read, see [`Unrecorded`].)
        let run = |config: &TournamentConfig, at: u64, history: &mut BTreeMap<String, BotHistory>| {
            let (bots, failures) = prepare(config, &sandbox, &out, at, history, &|| false, &|_| {}).unwrap();
            std::fs::remove_file(out.join(UNRECORDED_BUILDS)).unwrap();
            assert!(failures.is_empty(), "{failures:?}");
            bots.len()
        };
        let (mut seen, mut counted) = (Vec::new(), Vec::new());
        for at in [100, 200, 300] {
            assert_eq!(run(&config, at, &mut history), 2);
            seen.push(written());
            counted.push(own_only(&history));
        }
        let labels = |h: &BTreeMap<String, BotHistory>, name: &str| -> Vec<String> {
            h[name].versions.iter().map(|v| v.label.clone()).collect()
        };
        assert_eq!(labels(&history, "a"), ["v1"], "{:?}", history["a"]);
        assert_eq!(labels(&history, "b"), ["v1"], "{:?}", history["b"]);
        let logs = |bot: &str| {
            let logs = std::fs::read_dir(out.join("builds")).unwrap().flatten();
            logs.filter(|e| e.file_name().to_string_lossy().starts_with(&format!("{bot}-"))).count()
        };
        assert_eq!((logs("a"), logs("b")), (3, 3), "each built once a run");
        // The controls: both builds wrote anew each run, and a's fingerprint with b's outputs
        // counted changed with them.
        assert!(seen[0] != seen[1] && seen[1] != seen[2], "{seen:?}");
        assert!(seen.iter().all(|s| s[0] != s[1]), "{seen:?}");
        assert!(counted[0] != counted[1] && counted[1] != counted[2], "{counted:?}");
        // A file named like b's output where no build wrote it: a's, a new version of a alone.
        std::fs::write(course.join("kit/b.stamp"), "by hand\n").unwrap();
        run(&config, 400, &mut history);
        assert_eq!(labels(&history, "a"), ["v1", "v2"]);
        assert_eq!(labels(&history, "b"), ["v1"]);
        // b out of the league: its outputs stay left out of a's while as its build left them;
        // written by hand, its old output is a's file.
        let alone = TournamentConfig::load(&course.join("alone.toml")).unwrap();
        run(&alone, 500, &mut history);
        assert_eq!(labels(&history, "a"), ["v1", "v2"]);
        std::fs::write(course.join("kit/b/b.stamp"), "by hand\n").unwrap();
        run(&alone, 600, &mut history);
        assert_eq!(labels(&history, "a"), ["v1", "v2", "v3"]);
    }

    /// A bot's outputs are read for their content stamps only where their stamps are not as
    /// another build of the run in its folder noted them: one still as noted keeps the content
    /// stamp taken with it, unread (in a shared folder of 4 bots each output was read 16 times a
    /// run); its own record's, from an earlier run, is not taken (a chmod leaves the stamp).
    /// Shown by a file written over in place, its inode, size and time kept (so its stamp holds):
    /// the other build's content stamp stays as it was. The controls: without a stamp to go by it is read (other bytes, another content
    /// stamp), and a file put in its place (a new inode) is read.
    #[test]
    fn an_output_whose_stamp_holds_keeps_its_content_stamp_unread() {
        use std::os::unix::fs::FileExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        let (outputs, h) = one_output_stamped(folder);
        let stamp = h.output_stamps.as_ref().unwrap()["bot"].clone();
        let content = h.output_contents["bot"].clone();
        let was = std::fs::metadata(folder.join("bot")).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(folder.join("bot")).unwrap();
        file.write_all_at(b"B", 0).unwrap();
        file.set_modified(was.modified().unwrap()).unwrap();
        assert_eq!(submission::output_stamp(folder, "bot"), stamp, "its stamp holds");
        let rebuilt = || BuildOutcome::refused(String::new());
        let contents = |h: &BotHistory| h.output_contents.get("bot").cloned();

        // Not its own record's, from an earlier run (a chmod would leave it stale): read again.
        let mut own = h.clone();
        own.note_outputs(folder, &rebuilt(), Known::default());
        assert!(contents(&own).is_some_and(|c| c != content), "its own record's not taken: read again");
        let builds = BTreeMap::from([(
            "other".to_string(),
            Some(BuiltOutputs {
                stamps: h.output_stamps.clone().unwrap(),
                contents: h.output_contents.clone(),
                folder: Some(folder_tag(folder)),
                ..Default::default()
            }),
        )]);
        let fresh = BotHistory { outputs: outputs.clone(), ..Default::default() };
        let mut by_other = fresh.clone();
        by_other.note_outputs(folder, &rebuilt(), Known::noted(&builds, folder));
        assert_eq!(contents(&by_other), Some(content.clone()), "the other build's, unread");
        // A build of another folder's: its paths and stamps are not this one's (read).
        let mut elsewhere = builds.clone();
        if let Some(Some(b)) = elsewhere.get_mut("other") {
            b.folder = Some(folder_tag(&folder.join("elsewhere")));
        }
        let mut by_stranger = fresh.clone();
        by_stranger.note_outputs(folder, &rebuilt(), Known::noted(&elsewhere, folder));
        assert!(contents(&by_stranger).is_some_and(|c| c != content), "another folder's build's not taken");
        let mut read = fresh.clone();
        read.note_outputs(folder, &rebuilt(), Known::default());
        assert!(contents(&read).is_some_and(|c| c != content), "the control: read, the bytes written over");

        std::fs::write(folder.join("new"), "built\n").unwrap();
        std::fs::rename(folder.join("new"), folder.join("bot")).unwrap();
        let mut replaced = h.clone();
        replaced.note_outputs(folder, &rebuilt(), Known::noted(&builds, folder));
        assert_ne!(replaced.output_stamps.as_ref().unwrap()["bot"], stamp);
        assert_eq!(contents(&replaced), Some(content), "a new file: read (the same bytes as first)");
    }

    /// A bot whose one output, `bot` in `folder`, is written and stamped, its content too.
    fn one_output_stamped(folder: &Path) -> (BTreeSet<String>, BotHistory) {
        std::fs::write(folder.join("bot"), "built\n").unwrap();
        let outputs = BTreeSet::from(["bot".to_string()]);
        let mut h = BotHistory { outputs: outputs.clone(), ..Default::default() };
        h.stamp(&outputs, folder, &Known::default());
        (outputs, h)
    }

    /// Where another build of its folder noted the same stamp of an output as its own but no
    /// content stamp (past that build's budget), a bot keeps its own content stamp, not none
    /// (which would count the output as changed in a copy). The control: where its own stamp no
    /// longer holds, the other build's is taken, with its content stamp, none here.
    #[test]
    fn an_output_another_build_noted_without_its_content_keeps_the_bot_s_own() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        let (outputs, h) = one_output_stamped(folder);
        let (stamp, content) = (h.output_stamps.as_ref().unwrap()["bot"].clone(), h.output_contents["bot"].clone());
        let theirs = |stamp: &str| BuiltOutputs {
            outputs: outputs.clone(),
            stamps: BTreeMap::from([("bot".to_string(), stamp.to_string())]),
            ..Default::default()
        };
        let mut same = h.clone();
        same.take_outputs(&theirs(&stamp), folder);
        assert_eq!(same.output_contents.get("bot"), Some(&content));
        let mut stale = h.clone();
        stale.output_stamps.as_mut().unwrap().insert("bot".to_string(), "an old stamp".to_string());
        stale.take_outputs(&theirs(&stamp), folder);
        assert_eq!(stale.output_stamps.as_ref().unwrap()["bot"], stamp, "the control: theirs, which holds");
        assert_eq!(stale.output_contents.get("bot"), None);
    }

    /// A file both builds in a shared folder wrote (`common`): of their two stamps of it, the one
    /// that still holds is kept (the later build's), in either order. The control: the other
    /// build's taken blindly, the earlier one's, `common` counted as pushed (a rebuild each run).
    #[test]
    fn a_file_two_builds_in_one_folder_wrote_keeps_the_later_build_s_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        let common = BTreeSet::from(["common".to_string()]);
        let write = |text: &str| {
            std::fs::write(folder.join("new"), text).unwrap();
            std::fs::rename(folder.join("new"), folder.join("common")).unwrap();
            let mut h = BotHistory { outputs: common.clone(), ..Default::default() };
            h.stamp(&common, folder, &Known::default());
            h
        };
        let built = |h: &BotHistory| BuiltOutputs {
            outputs: h.outputs.clone(),
            stamps: h.output_stamps.clone().unwrap(),
            contents: h.output_contents.clone(),
            ..Default::default()
        };
        let (first, later) = (write("first\n"), write("later\n"));
        let mut earlier_mine = first.clone();
        earlier_mine.take_outputs(&built(&later), folder);
        assert_eq!(earlier_mine.output_stamps, later.output_stamps, "theirs, the later");
        assert_eq!(earlier_mine.output_contents, later.output_contents);
        assert!(earlier_mine.changed_outputs(folder).is_empty());
        let mut later_mine = later.clone();
        later_mine.take_outputs(&built(&first), folder);
        assert_eq!(later_mine.output_stamps, later.output_stamps, "mine, the later");
        assert!(later_mine.changed_outputs(folder).is_empty());
        let mut blind = later.clone();
        blind.output_stamps.as_mut().unwrap().insert("common".into(), first.output_stamps.unwrap()["common"].clone());
        assert_eq!(blind.changed_outputs(folder), ["common"], "the control: the earlier one's taken");
    }

    /// The outputs another bot's build left in a shared folder are taken as that build noted
    /// them, not as they are when the bot is recorded: a push to one after that build (here
    /// `z`'s build, in its own folder, writes `kit/b.out` after `b`'s build, as a student's push
    /// would) is the student's, in `a`'s fingerprint, and `a` rebuilt; nothing of it read again.
    /// The control: stamped as they are then (as `take_outputs` did), the pushed `b.out` passed
    /// for a build's output of `a`'s, left out of its fingerprint.
    #[test]
    fn a_push_to_another_bot_s_output_after_its_build_is_no_output_of_the_bot_sharing_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        for (folder, file) in [("kit", "bot.sh"), ("z", "bot.sh")] {
            std::fs::create_dir_all(course.join(folder)).unwrap();
            std::fs::write(course.join(folder).join(file), "echo WAIT\n").unwrap();
        }
        let z = "[ -e pushed ] || { echo the student\\'s own > ../kit/b.out; touch pushed; }";
        let toml = format!(
            "[[bots]]\nname = \"a\"\ncommand = \"sh bot.sh\"\ncwd = \"kit\"\nbuild = \"echo a > a.out\"\n\
             [[bots]]\nname = \"b\"\ncommand = \"sh bot.sh\"\ncwd = \"kit\"\nbuild = \"[ -e b.out ] || echo b > b.out\"\n\
             [[bots]]\nname = \"z\"\ncommand = \"sh bot.sh\"\ncwd = \"z\"\nbuild = {z:?}\n"
        );
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let mut history = BTreeMap::new();
        let (_, failures) =
            prepare(&config, &sandbox, &dir.path().join("league"), 100, &mut history, &|| false, &|_| {}).unwrap();
        assert!(failures.is_empty(), "{failures:?}");
        let kit = course.join("kit");
        assert_eq!(std::fs::read_to_string(kit.join("b.out")).unwrap(), "the student's own\n", "pushed");
        let a = &history["a"];
        assert!(a.outputs.contains("a.out") && !a.outputs.contains("b.out"), "b.out is the student's: {a:?}");
        let print = |outputs: &BTreeSet<String>| {
            submission::fingerprints(&config.bots[0], None, outputs, &Default::default(), &mut BTreeMap::new())
                .unwrap()
                .portable
        };
        let v1 = a.versions[0].fingerprint.clone();
        assert_eq!(v1, print(&BTreeSet::from(["a.out".to_string()])), "v1 holds the pushed b.out");
        let logs = std::fs::read_dir(dir.path().join("league/builds")).unwrap().flatten();
        assert_eq!(logs.filter(|e| e.file_name().to_string_lossy().starts_with("a-")).count(), 2, "a rebuilt");

        // The control: b's outputs taken as they are now, the push passed for a build's.
        let mut now = BotHistory { outputs: BTreeSet::from(["a.out".to_string()]), ..Default::default() };
        now.stamp(&now.outputs.clone(), &kit, &Known::default());
        let b_outputs = BTreeSet::from(["b.out".to_string()]);
        now.outputs.extend(b_outputs.iter().cloned());
        now.stamp(&b_outputs, &kit, &Known::default());
        assert!(now.changed_outputs(&kit).is_empty(), "the control: the push unseen");
        assert_ne!(print(&now.outputs), v1, "the control: recorded without it");
    }

    /// The run of [`a_build_the_machine_cannot_start_is_no_bot_s_fault`] in a process of its
    /// own, not root (whose limits do not bind it), where it may lower its limits.
    const MACHINE_BUILDS: &str = "ARENA_TEST_MACHINE_BUILDS";

    /// A build the machine cannot start is no fault of the bot's: no process or thread left for
    /// the arena's user (its `RLIMIT_NPROC`), or a step of the build's start refused (its hard
    /// limit on file sizes below a build's, which a user that is not root may not raise). The
    /// run records nothing (no version of the bot, failed or not) and says so; the next run
    /// builds it again. Before, it was recorded as the bot's failed build (`build … could not
    /// start`), its matches lost for the run. The controls: a build that fails by itself is
    /// the bot's failed version, and the same bot builds where the machine lets it. (Run as
    /// `nobody` by a root test, in a process of its own.)
    #[test]
    fn a_build_the_machine_cannot_start_is_no_bot_s_fault() {
        if std::env::var_os(MACHINE_BUILDS).is_some() {
            return machine_builds();
        }
        crate::files::tests::rerun_as_nobody(
            "tournament::versions::tests::a_build_the_machine_cannot_start_is_no_bot_s_fault",
            MACHINE_BUILDS,
        );
    }

    /// See [`a_build_the_machine_cannot_start_is_no_bot_s_fault`]: as a user that is not root.
    fn machine_builds() {
        // SAFETY: geteuid has no preconditions.
        assert_ne!(unsafe { libc::geteuid() }, 0, "not root: its limits bind it");
        let set = |resource, soft: libc::rlim_t, hard: libc::rlim_t| {
            let limit = libc::rlimit { rlim_cur: soft, rlim_max: hard };
            // SAFETY: setrlimit reads the struct.
            assert_eq!(unsafe { libc::setrlimit(resource, &limit) }, 0, "{}", std::io::Error::last_os_error());
        };
        let hard = |resource| {
            let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            // SAFETY: getrlimit fills the struct.
            unsafe { libc::getrlimit(resource, &mut limit) };
            limit.rlim_max
        };
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        std::fs::create_dir_all(course.join("ann")).unwrap();
        std::fs::write(course.join("ann/bot.sh"), "echo WAIT\n").unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let out = dir.path().join("league");
        let prepared = |build: &str, history: &mut BTreeMap<String, BotHistory>| {
            let toml = format!("[[bots]]\nname = \"ann\"\ncommand = \"sh bot.sh\"\ncwd = \"ann\"\nbuild = {build:?}\n");
            std::fs::write(course.join("class.toml"), toml).unwrap();
            let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
            prepare(&config, &sandbox, &out, 100, history, &|| false, &|_| {})
        };
        let versions = |history: &BTreeMap<String, BotHistory>| history.get("ann").map_or(0, |h| h.versions.len());
        // The controls: a build that fails by itself is the bot's failed version; a good one builds.
        let mut history = BTreeMap::new();
        let (_, failures) = prepared("exit 3", &mut history).unwrap();
        assert!(failures["ann"].contains("failed (exit status: 3)"), "{failures:?}");
        assert!(history["ann"].latest().is_some_and(|v| !v.ok), "the bot's failed version: {history:?}");
        let mut history = BTreeMap::new();
        let (bots, failures) = prepared("true", &mut history).unwrap();
        assert!(failures.is_empty() && bots.len() == 1 && versions(&history) == 1, "{failures:?}");
        // No process or thread left for this user.
        let nproc = hard(libc::RLIMIT_NPROC);
        let mut history = BTreeMap::new();
        set(libc::RLIMIT_NPROC, 0, nproc);
        let refused = prepared("true", &mut history);
        set(libc::RLIMIT_NPROC, nproc, nproc);
        let Err(TournamentError::MachineBuild { bot, why }) = refused else { panic!("the bot's: {refused:?}") };
        assert_eq!(bot, "ann");
        assert!(why.contains("could not start, no fault of the bot's") && why.contains("ulimit -u"), "{why}");
        assert_eq!(versions(&history), 0, "nothing recorded: {history:?}");
        // A hard limit below the build's, which this user may not raise: its `setrlimit` fails.
        let half = (crate::sandbox::SandboxLimits::for_build(1).file_size_mb << 20) / 2;
        set(libc::RLIMIT_FSIZE, half as libc::rlim_t, half as libc::rlim_t);
        let refused = prepared("true", &mut history);
        let Err(e @ TournamentError::MachineBuild { .. }) = refused else { panic!("the bot's: {refused:?}") };
        let said = e.to_string();
        assert!(said.contains("no fault of the bot's: its resource limits could not be set"), "{said}");
        assert!(said.contains("nothing was recorded, no match played"), "{said}");
        assert_eq!(versions(&history), 0, "nothing recorded: {history:?}");
    }

    /// The attack, and the defence: alice's folder `subs/alice/src` is a link to bob's. A build
    /// run there (`build::run`, which takes the folder it is given) writes bob's folder, as the
    /// box binds the link's target (the control: the attack works without the check). The
    /// league's `prepare` checks first: alice is neither built nor played, her failure names the
    /// link, and bob builds and plays, his folder untouched.
    #[test]
    fn a_build_through_a_link_writes_the_target_and_the_league_refuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        std::fs::create_dir_all(course.join("subs/bob")).unwrap();
        std::fs::create_dir_all(course.join("subs/alice")).unwrap();
        std::fs::write(course.join("subs/bob/bot"), "#!/bin/sh\n").unwrap();
        let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        std::fs::set_permissions(course.join("subs/bob/bot"), executable).unwrap();
        std::os::unix::fs::symlink("../bob", course.join("subs/alice/src")).unwrap();
        let toml = "[[bots]]\nname = \"alice\"\ncommand = \"./bot\"\ncwd = \"subs/alice/src\"\nbuild = \"touch x\"\n\
                    [[bots]]\nname = \"bob\"\ncommand = \"./bot\"\ncwd = \"subs/bob\"\nbuild = \"touch built\"\n";
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::Auto, Default::default()).unwrap();
        let out = dir.path().join("league");
        let (bots, failures) = prepare(&config, &sandbox, &out, 100, &mut BTreeMap::new(), &|| false, &|_| {}).unwrap();
        assert!(!course.join("subs/bob/x").exists(), "alice's build did not run in bob's folder");
        assert!(course.join("subs/bob/built").exists(), "bob's did");
        assert_eq!(bots.iter().map(|b| b.entry.name.as_str()).collect::<Vec<_>>(), ["bob"]);
        let why = &failures["alice"];
        assert!(
            why.starts_with(&format!(
                "its folder {}/subs/alice/src is a symbolic link (to ../bob): ",
                course.display()
            )),
            "{why}"
        );

        // The control: the same build, given the link as its folder, writes bob's folder.
        let link = config.bots[0].cwd.clone().unwrap();
        let built = build::run(
            &sandbox,
            "touch x",
            &link,
            config.build_limits(),
            &out,
            "builds/control.log",
            build::Earlier { bot: "control", growth: None, own: true },
        );
        assert_eq!(built.problem, None);
        assert!(course.join("subs/bob/x").exists(), "without the check, alice's build writes bob's folder");
    }

    /// The attack: a build that touches the student's `bot.sh` had it noted as its output, left
    /// out of every later fingerprint: a wholly new `bot.sh` was no new version (its matches
    /// kept, its label `v1`). Now an output is one only while it is as a build left it, and
    /// after the first build only what a build creates is one: the new `bot.sh` is `v2` (the
    /// build touching it again changes nothing), and a file the build once made (`made`) that
    /// the student then pushes is `v3`; with nothing changed, no version is new. The control:
    /// with every file the build changed left out, as before, a new `bot.sh` fingerprints the
    /// same. (A league recorded so is healed by its next build: its outputs are stamped then,
    /// and the student's next push is seen.)
    #[test]
    fn a_build_cannot_make_the_students_files_outputs_left_out_of_its_fingerprint() {
        let build = "touch bot.sh; [ -e made ] || echo made > made; echo out > out";
        let (dir, course, config, sandbox) = alice_course("", Some(build));
        let folder = course.join("alice");
        let out = dir.path().join("league");
        let run = |history: &mut BTreeMap<String, BotHistory>, at: u64| {
            prepare(&config, &sandbox, &out, at, history, &|| false, &|_| {}).unwrap();
            history["alice"].versions.iter().map(|v| v.label.clone()).collect::<Vec<_>>()
        };
        let mut history = BTreeMap::new();
        assert_eq!(run(&mut history, 100), ["v1"]);
        assert_eq!(run(&mut history, 200), ["v1"], "rebuilt, nothing changed: {:?}", history["alice"]);
        // (Its first build gives every file it wrote, `bot.sh` too, until the student changes it.)
        let outputs = ["bot.sh", "made", "out"].map(String::from);
        assert_eq!(history["alice"].outputs, BTreeSet::from(outputs));
        std::fs::write(folder.join("bot.sh"), "echo WAIT # another bot altogether\n").unwrap();
        assert_eq!(run(&mut history, 300), ["v1", "v2"], "the new bot.sh is a new version");
        std::fs::write(folder.join("made"), "the student's own\n").unwrap();
        assert_eq!(run(&mut history, 400), ["v1", "v2", "v3"], "a file a build made, then pushed");
        assert_eq!(run(&mut history, 500), ["v1", "v2", "v3"]);

        // The control: the build reports `bot.sh` among the files it changed (what the history
        // noted as outputs before), and left out so, a new one fingerprints the same.
        let built = build::run(
            &sandbox,
            build,
            &folder,
            config.build_limits(),
            &out,
            "builds/control.log",
            build::Earlier { bot: "control", growth: None, own: true },
        );
        assert!(built.outputs.contains(&"bot.sh".to_string()) && !built.created.contains(&"bot.sh".to_string()));
        let as_before: BTreeSet<String> = built.outputs.iter().cloned().collect();
        let print = || {
            submission::fingerprints(&config.bots[0], None, &as_before, &Default::default(), &mut BTreeMap::new())
                .unwrap()
        };
        let old = print();
        std::fs::write(folder.join("bot.sh"), "echo WAIT # yet another\n").unwrap();
        assert_eq!(print(), old, "the control: the change went unseen");
    }

    /// An output of a bot's build that another bot's build in the same folder rewrote (the bot
    /// renamed, then back: `bob`, `Bob Smith`, `bob`) is still a build's, stamped anew, and an
    /// edit after that build is the student's. The controls: without the other bot's stamps,
    /// the rewritten output was the student's (a new version); and the same stamps taken in
    /// another folder (`bot` a hard link to eve's, her build's output) count for nothing there.
    #[test]
    fn an_output_another_name_s_build_rewrote_in_the_same_folder_is_still_a_build_s() {
        let dir = tempfile::tempdir().unwrap();
        let (bob, eve) = (dir.path().join("bob"), dir.path().join("eve"));
        let stamped = |folder: &Path| {
            let outputs = BTreeSet::from(["bot".to_string()]);
            let stamps = outputs.iter().map(|p| (p.clone(), submission::output_stamp(folder, p))).collect();
            BotHistory {
                outputs,
                output_stamps: Some(stamps),
                stamped_in: Some(folder_tag(folder)),
                ..Default::default()
            }
        };
        for folder in [&bob, &eve] {
            std::fs::create_dir_all(folder).unwrap();
            std::fs::write(folder.join("bot"), "built\n").unwrap();
        }
        let bobs = stamped(&bob);
        // Bob Smith's build rewrites `bot` (another size: a stamp of its own, however coarse
        // the clock).
        std::fs::write(bob.join("bot"), "built again\n").unwrap();
        let smiths = stamped(&bob);
        let back = |others: &[&BotHistory]| {
            let mut h = bobs.clone();
            let others: Vec<OtherStamps> = others.iter().filter_map(|o| o.other_stamps()).collect();
            h.forget_changed_outputs(&bob, &others);
            h
        };
        let h = back(&[&smiths]);
        assert!(h.outputs.contains("bot"), "{h:?}");
        assert_eq!(h.output_stamps, smiths.output_stamps, "stamped as Bob Smith's build left it");
        assert!(!back(&[]).outputs.contains("bot"), "the control: the student's, without Bob Smith's stamps");
        // Edited after Bob Smith's build: the student's.
        std::fs::write(bob.join("bot"), "built again, then edited by hand\n").unwrap();
        let h = back(&[&smiths]);
        assert!(!h.outputs.contains("bot") && h.output_stamps.as_ref().is_some_and(|s| s.is_empty()), "{h:?}");

        // `bot` a hard link to eve's (her build's output): her stamps are of her folder.
        std::fs::remove_file(bob.join("bot")).unwrap();
        std::fs::hard_link(eve.join("bot"), bob.join("bot")).unwrap();
        let eves = stamped(&eve);
        assert_eq!(submission::output_stamp(&bob, "bot"), eves.output_stamps.as_ref().unwrap()["bot"], "one file");
        assert!(!back(&[&eves]).outputs.contains("bot"), "another folder's build's output is the student's here");
        let as_if_here = BotHistory { stamped_in: Some(folder_tag(&bob)), ..eves.clone() };
        assert!(back(&[&as_if_here]).outputs.contains("bot"), "the control: taken, but for the folder");
    }

    /// A bot folder copied with `cp -a` (every file a new inode, times kept): its build's outputs
    /// are still its build's there, by their content stamps, stamped anew, and the league notes
    /// its stamps as taken there. The controls: without content stamps (an earlier arena's
    /// record) the copy's outputs were the student's, a new version; and in a copy, an output
    /// whose bytes (its size and time kept, as an attacker would: `touch -r`) or permissions
    /// changed, or one past [`submission::MAX_CONTENT_STAMPED`] (not read), is the student's.
    #[test]
    fn an_output_copied_with_its_folder_is_still_a_build_s_unless_it_changed() {
        use std::os::unix::fs::{FileExt, MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let built = dir.path().join("built");
        std::fs::create_dir_all(built.join("lib")).unwrap();
        std::fs::write(built.join("bot"), "#!/bin/sh\necho WAIT\n").unwrap();
        std::fs::set_permissions(built.join("bot"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(built.join("lib/kit.so"), "a library\n").unwrap();
        let outputs = BTreeSet::from(["bot".to_string(), "lib".to_string()]);
        let mut h = BotHistory { outputs: outputs.clone(), ..Default::default() };
        h.stamp(&outputs, &built, &Known::default());
        h.stamped_in = Some(folder_tag(&built));
        assert_eq!(h.output_contents.len(), 2, "{h:?}");
        let copy = |name: &str, change: &dyn Fn(&Path)| {
            let to = dir.path().join(name);
            let cp = std::process::Command::new("cp").arg("-a").arg(&built).arg(&to).status().unwrap();
            assert!(cp.success());
            change(&to);
            to
        };
        let after = |h: &BotHistory, folder: &Path| {
            let mut h = h.clone();
            h.forget_changed_outputs(folder, &[]);
            h
        };

        let same = copy("same", &|_| {});
        assert_ne!(submission::output_stamp(&same, "bot"), h.output_stamps.as_ref().unwrap()["bot"], "new inodes");
        let there = after(&h, &same);
        assert_eq!(there.outputs, outputs, "still the build's: {there:?}");
        assert_eq!(there.stamped_in, Some(folder_tag(&same)));
        assert_eq!(
            there.output_stamps.as_ref().unwrap()["bot"],
            submission::output_stamp(&same, "bot"),
            "stamped anew"
        );
        assert_eq!(after(&there, &same).outputs, outputs, "and so from then on");
        let unstamped = BotHistory { output_contents: BTreeMap::new(), ..h.clone() };
        assert!(after(&unstamped, &same).outputs.is_empty(), "the control: without content stamps, the student's");

        // Swapped in the copy: the same size and time, other bytes.
        let swapped = copy("swapped", &|to| {
            let program = to.join("bot");
            let was = std::fs::metadata(&program).unwrap();
            let file = std::fs::OpenOptions::new().write(true).open(&program).unwrap();
            file.write_all_at(b"X", 3).unwrap();
            file.set_modified(was.modified().unwrap()).unwrap();
            let now = std::fs::metadata(&program).unwrap();
            assert_eq!(
                (now.len(), now.modified().unwrap(), now.ino()),
                (was.len(), was.modified().unwrap(), was.ino())
            );
        });
        assert_eq!(after(&h, &swapped).outputs, BTreeSet::from(["lib".to_string()]), "bot is the student's");
        let chmodded = copy("chmodded", &|to| {
            std::fs::set_permissions(to.join("lib/kit.so"), std::fs::Permissions::from_mode(0o600)).unwrap();
        });
        assert_eq!(after(&h, &chmodded).outputs, BTreeSet::from(["bot".to_string()]), "lib is the student's");

        // Past the cap (a sparse file: no disk, nothing read): no content stamp.
        let big = std::fs::File::create(built.join("lib/big")).unwrap();
        big.set_len(submission::MAX_CONTENT_STAMPED + 1).unwrap();
        let mut h = BotHistory { outputs: outputs.clone(), ..Default::default() };
        h.stamp(&outputs, &built, &Known::default());
        h.stamped_in = Some(folder_tag(&built));
        assert_eq!(h.output_contents.keys().collect::<Vec<_>>(), ["bot"], "{h:?}");
        let large = copy("large", &|_| {});
        assert_eq!(after(&h, &large).outputs, BTreeSet::from(["bot".to_string()]), "lib counts as changed");
    }

    /// A run cut short during a bot's build never noted what that build added: the next run
    /// counts all the folder grew by since the last noted build as the builds' (here 4 MiB by
    /// the cut build, then 1 MiB more: over the 5 MiB cap). The control: the same growth
    /// between two runs that ended well is the student's push, and the build passes.
    #[test]
    fn a_build_cut_short_before_its_growth_was_noted_counts_what_the_folder_grew_by() {
        // (Each build makes a file of its own: the student's files are left as they are.)
        let build = "head -c 1048576 /dev/urandom > blob-$(date +%s%N)";
        let (dir, course, config, sandbox) = alice_course("build_disk_mb = 5\n", Some(build));
        let folder = course.join("alice");
        let out = dir.path().join("league");
        let run = |history: &mut BTreeMap<String, BotHistory>, at: u64| {
            prepare(&config, &sandbox, &out, at, history, &|| false, &|_| {}).unwrap();
            history["alice"].latest().and_then(|v| v.problem.clone()).unwrap_or_default()
        };
        let grow = |name: &str| {
            let bytes: Vec<u8> = (0..4u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
            std::fs::write(folder.join(name), bytes).unwrap();
        };
        let mut history = BTreeMap::new();
        assert_eq!(run(&mut history, 100), "");
        // The control: 4 MiB between two runs that ended well.
        grow("pushed-1");
        assert_eq!(run(&mut history, 200), "", "{:?}", history["alice"].build_growth);
        // The same 4 MiB by a build the run was cut short in (its record never saved).
        grow("built-by-the-cut-build");
        let cut = Unrecorded { record: record_tag(&out), builds: [("alice".to_string(), None)].into() };
        cut.write(&out.join(UNRECORDED_BUILDS));
        let problem = run(&mut history, 300);
        assert!(problem.contains("bot alice's builds have filled "), "{problem}");
    }

    /// A student's push to an output of their build while the league builds the other bots (here
    /// bob's build writes alice's `out`, as her push would) is seen in the same run: her outputs
    /// are stamped as her build left them, and the pushed `out` is hers, fingerprinted in the
    /// version recorded (the next run sees no new one). The control: stamped once every build is
    /// done (as the record did), the pushed `out` passed for her build's.
    #[test]
    fn a_push_to_an_output_during_the_other_bots_builds_is_a_new_version() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        for bot in ["alice", "bob"] {
            std::fs::create_dir_all(course.join(bot)).unwrap();
            std::fs::write(course.join(bot).join("bot.sh"), "echo WAIT\n").unwrap();
        }
        let alice = "[ -e out ] || echo built > out";
        let bob = "[ -e pushed ] || { echo the student\\'s own > ../alice/out; touch pushed; }";
        let toml = format!(
            "[[bots]]\nname = \"alice\"\ncommand = \"sh bot.sh\"\ncwd = \"alice\"\nbuild = {alice:?}\n\
             [[bots]]\nname = \"bob\"\ncommand = \"sh bot.sh\"\ncwd = \"bob\"\nbuild = {bob:?}\n"
        );
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let run = |history: &mut BTreeMap<String, BotHistory>, out: &str, at: u64| {
            prepare(&config, &sandbox, &dir.path().join(out), at, history, &|| false, &|_| {}).unwrap();
            history["alice"].versions.iter().map(|v| v.label.clone()).collect::<Vec<_>>()
        };
        let mut history = BTreeMap::new();
        assert_eq!(run(&mut history, "league", 100), ["v1"]);
        assert_eq!(std::fs::read_to_string(course.join("alice/out")).unwrap(), "the student's own\n", "pushed");
        assert!(!history["alice"].outputs.contains("out"), "the pushed `out` is hers");
        let alice = &config.bots[0];
        let print = |outputs: &BTreeSet<String>| {
            submission::fingerprints(alice, None, outputs, &Default::default(), &mut BTreeMap::new()).unwrap().portable
        };
        let v1 = history["alice"].versions[0].fingerprint.clone();
        assert_eq!(v1, print(&BTreeSet::new()), "v1 is the pushed `out`");
        assert_eq!(run(&mut history, "league", 200), ["v1"]);
        // The control: alice's outputs stamped after bob's build, the pushed `out` passed for hers.
        let mut late = history["alice"].clone();
        late.outputs.insert("out".to_string());
        late.output_stamps = Some(
            late.outputs.iter().map(|p| (p.clone(), submission::output_stamp(&course.join("alice"), p))).collect(),
        );
        assert!(late.changed_outputs(&course.join("alice")).is_empty(), "the control: the push unseen");
        assert_ne!(print(&late.outputs), v1, "the control: recorded without it");
    }

    /// A course of `alice` (a source `src.txt`, built into `prog`: `cp src.txt prog`) and `bob`,
    /// built after her, whose builds also do what the files `push-alice` (her push during her
    /// build, after it read `src.txt`), `push-bob` (her push during bob's build) and `always`
    /// (her build rewriting `src.txt` each time) in the course folder ask.
    fn pushed_during_builds() -> (tempfile::TempDir, PathBuf, TournamentConfig) {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        for bot in ["alice", "bob"] {
            std::fs::create_dir_all(course.join(bot)).unwrap();
            std::fs::write(course.join(bot).join("src.txt"), "echo WAIT\n").unwrap();
        }
        let alice = "cp src.txt prog; if [ -e ../push-alice ]; then mv ../push-alice src.txt; fi; \
                     if [ -e ../always ]; then echo '# again' >> src.txt; fi";
        let bob = "cp src.txt prog; if [ -e ../push-bob ]; then mv ../push-bob ../alice/src.txt; fi";
        let toml = format!(
            "[[bots]]\nname = \"alice\"\ncommand = \"sh prog\"\ncwd = \"alice\"\nbuild = {alice:?}\n\
             [[bots]]\nname = \"bob\"\ncommand = \"sh prog\"\ncwd = \"bob\"\nbuild = {bob:?}\n"
        );
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        (dir, course, config)
    }

    /// The copy kept of alice's newest good version: its `(src.txt, prog)`.
    fn kept_copy(history: &BTreeMap<String, BotHistory>) -> (String, String) {
        let kept = history["alice"].standing(None).unwrap().kept.clone().unwrap();
        let read = |name: &str| std::fs::read_to_string(kept.cwd.as_ref().unwrap().join(name)).unwrap();
        (read("src.txt"), read("prog"))
    }

    /// A student's push during their build (after it read the sources), or during the builds of
    /// the bots after theirs, is built before its version is recorded: the version recorded is
    /// the new `src.txt`, and its copy's `prog` was built from it (two builds, two logs). The
    /// control: fingerprinted and copied after the builds, as before, the new `src.txt` was
    /// recorded and copied with the `prog` built from the old one.
    #[test]
    fn a_push_during_the_builds_is_built_before_its_version_is_recorded() {
        let (dir, course, config) = pushed_during_builds();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(kept_copy(&history), ("echo WAIT\n".to_string(), "echo WAIT\n".to_string()));
        let logs = |out: &Path| std::fs::read_dir(out.join("builds")).map_or(0, |d| d.count());
        assert_eq!(logs(&out), 2);
        for (push, at) in [("push-alice", 200), ("push-bob", 300)] {
            let new = format!("echo WAIT # {push}\n");
            std::fs::write(course.join(push), &new).unwrap();
            let (bots, failures) = prepare(&config, &sandbox, &out, at, &mut history, &|| false, &|_| {}).unwrap();
            assert!(failures.is_empty(), "{failures:?}");
            assert!(!course.join(push).exists(), "pushed during the builds");
            assert_eq!(kept_copy(&history), (new.clone(), new.clone()), "{push}: built from what is recorded");
            let files = submission::fingerprints(
                &config.bots[0],
                None,
                &history["alice"].outputs,
                &Default::default(),
                &mut BTreeMap::new(),
            );
            assert_eq!(bots[0].fingerprint, files.unwrap().portable, "{push}: the files as they are");
            assert_eq!(std::fs::read_to_string(course.join("alice/prog")).unwrap(), new);
        }
        let labels: Vec<&str> = history["alice"].versions.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["v1", "v2", "v3"]);

        // The control: built, then fingerprinted and copied, as prepare did before.
        let new = "echo WAIT # the control\n";
        std::fs::write(course.join("push-alice"), new).unwrap();
        let (alice, folder) = (&config.bots[0], course.join("alice"));
        let built = build::run(
            &sandbox,
            alice.build.as_deref().unwrap(),
            &folder,
            config.build_limits(),
            &out,
            "builds/control.log",
            build::Earlier { bot: "alice", growth: None, own: true },
        );
        assert_eq!(built.problem, None);
        let outputs = &history["alice"].outputs;
        let recorded =
            submission::fingerprints(alice, None, outputs, &Default::default(), &mut BTreeMap::new()).unwrap();
        let copy = dir.path().join("control-copy");
        let kept = submission::snapshot(alice, &copy, &Default::default()).unwrap();
        let read = |name: &str| std::fs::read_to_string(kept.cwd.as_ref().unwrap().join(name)).unwrap();
        assert_eq!(read("src.txt"), new, "the control: the new sources recorded and copied");
        assert_eq!(read("prog"), "echo WAIT # push-bob\n", "the control: with a program built from the old ones");
        assert!(history["alice"].versions.iter().all(|v| v.fingerprint != recorded.portable));
    }

    /// A bot whose files change during each of its builds (here its build rewrites a source) is
    /// built [`MAX_BUILDS`] times, then its new version is refused for this run with a message
    /// naming the file: it plays on as its last good version, from the league's copy. The
    /// control: its files the same during its build, the same bot records its new version.
    #[test]
    fn files_that_keep_changing_during_the_builds_leave_the_last_good_version_playing() {
        let (dir, course, config) = pushed_during_builds();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        let v1 = history["alice"].versions[0].fingerprint.clone();
        std::fs::write(course.join("always"), "").unwrap();
        let (bots, failures) = prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
        assert!(failures.is_empty(), "it has a good version: {failures:?}");
        assert_eq!((bots[0].fingerprint.as_str(), bots[0].runnable, bots[0].kept), (v1.as_str(), true, true));
        let latest = history["alice"].latest().unwrap();
        assert!(!latest.ok);
        let why = latest.problem.as_deref().unwrap();
        assert!(why.starts_with("build: its files changed during each of its 3 builds (last: src.txt)"), "{why}");
        let note = history["alice"].note().unwrap();
        assert!(note.contains("standing from v1"), "{note}");
        let again = std::fs::read_to_string(course.join("alice/src.txt")).unwrap();
        assert_eq!(again.matches("# again").count(), 3, "built 3 times: {again}");

        // The control: the same bot, its files left alone during its build, records them.
        std::fs::remove_file(course.join("always")).unwrap();
        let (bots, failures) = prepare(&config, &sandbox, &out, 300, &mut history, &|| false, &|_| {}).unwrap();
        assert!(failures.is_empty());
        assert!(bots[0].fingerprint != v1 && bots[0].kept, "its new version plays from its copy too");
        assert_eq!(history["alice"].standing(None).unwrap().label, "v2");
        assert_eq!(kept_copy(&history), (again.clone(), again));
    }

    /// A push to a bot's build output after its build ended (here bob's build writes alice's
    /// `prog`, as her push during his build would) is hers, as the next run would take it, and
    /// she is built again: her copy's `prog` is not the pushed one passed for her build's. The
    /// control: her sources read without her outputs, as the check read them, are the same
    /// before and after the push, and a copy made then holds the pushed `prog`.
    #[test]
    fn a_push_to_an_output_after_the_build_is_not_copied_as_the_version_built() {
        let (dir, course, config) = pushed_during_builds();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        let outputs = history["alice"].outputs.clone();
        assert!(outputs.contains("prog"));
        // Her new sources, and a `prog` of her own pushed over what her build makes of them.
        let new = "echo WAIT # v2\n";
        std::fs::write(course.join("alice/src.txt"), new).unwrap();
        std::fs::write(course.join("push-out"), "echo EVIL\n").unwrap();
        let bob =
            config.bots[1].build.clone().unwrap() + "; if [ -e ../push-out ]; then mv ../push-out ../alice/prog; fi";
        let mut pushing = config.clone();
        pushing.bots[1].build = Some(bob);
        let (bots, failures) = prepare(&pushing, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
        assert!(failures.is_empty(), "{failures:?}");
        assert!(!course.join("push-out").exists(), "pushed during bob's build");
        assert_eq!(history["alice"].standing(None).unwrap().label, "v2");
        assert!(bots[0].kept);
        assert_eq!(kept_copy(&history), (new.to_string(), new.to_string()), "the copy's prog built from v2");

        // The control: what the sources check alone sees of the same push, and what a copy takes.
        let alice = &config.bots[0];
        let read = || submission::sources(alice, None, &outputs, &Default::default(), &mut BTreeMap::new()).unwrap();
        let before = read();
        std::fs::write(course.join("alice/prog"), "echo EVIL\n").unwrap();
        assert_eq!(before.without(&outputs), read(), "the control: the sources alone are the same");
        let copy = dir.path().join("control-copy");
        let kept = submission::snapshot(alice, &copy, &Default::default()).unwrap();
        let prog = std::fs::read_to_string(kept.cwd.unwrap().join("prog")).unwrap();
        assert_eq!(prog, "echo EVIL\n", "the control: the copy takes the pushed prog");
    }

    /// A `.builds-unrecorded` left behind once a record was saved (its removal failed, and the
    /// runs since could not replace it) is ignored: the record's outputs, as the newest build
    /// left them, stand, and a rebuilt output is no new version. The control: the same file
    /// taken as the current record's (as any was before), its outputs as the first build left
    /// them take the one rebuilt since for a push, and the bot has a new version.
    #[test]
    fn a_builds_file_left_behind_once_a_record_was_saved_is_ignored() {
        // (Each build makes `out` anew, the same: its stamp differs from build to build, as its
        // inode does: the old one is still in use as the new is made.)
        let (dir, _, config, sandbox) = alice_course("", Some("echo built > out.new && mv out.new out"));
        let out = dir.path().join("league");
        let marker = out.join(UNRECORDED_BUILDS);
        let mut history = BTreeMap::new();
        let labels = |history: &BTreeMap<String, BotHistory>| {
            history["alice"].versions.iter().map(|v| v.label.clone()).collect::<Vec<_>>()
        };
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        // Its record saved, the file left behind.
        std::fs::write(out.join(crate::tournament::TOURNAMENT_FILE), "the record of the first run").unwrap();
        let left = std::fs::read(&marker).unwrap();
        prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
        std::fs::write(out.join(crate::tournament::TOURNAMENT_FILE), "the record of the second run").unwrap();
        std::fs::write(&marker, &left).unwrap();
        assert_eq!(labels(&history), ["v1"]);
        let mut control = history.clone();
        prepare(&config, &sandbox, &out, 300, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!(labels(&history), ["v1"], "no new version: {:?}", history["alice"]);

        // The control: the file left behind taken as the current record's.
        let mut stale: Unrecorded = serde_json::from_slice(&left).unwrap();
        assert_ne!(stale.record, record_tag(&out));
        stale.record = record_tag(&out);
        stale.write(&marker);
        prepare(&config, &sandbox, &out, 300, &mut control, &|| false, &|_| {}).unwrap();
        assert_eq!(labels(&control), ["v1", "v2"], "the control: the rebuilt `out` taken for a push");
    }

    /// A course of one bot, `alice` (`sh bot.sh` in her folder, built by `build` if given), its
    /// config (`head`, then the bot) and a sandbox-free box.
    fn alice_course(head: &str, build: Option<&str>) -> (tempfile::TempDir, PathBuf, TournamentConfig, Sandbox) {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        std::fs::create_dir_all(course.join("alice")).unwrap();
        std::fs::write(course.join("alice/bot.sh"), "echo WAIT\n").unwrap();
        let build = build.map_or(String::new(), |b| format!("build = {b:?}\n"));
        let toml = format!("{head}[[bots]]\nname = \"alice\"\ncommand = \"sh bot.sh\"\ncwd = \"alice\"\n{build}");
        std::fs::write(course.join("class.toml"), toml).unwrap();
        let config = TournamentConfig::load(&course.join("class.toml")).unwrap();
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        (dir, course, config, sandbox)
    }

    /// [`alice_course`] without a build, `strategy.sh` beside her `bot.sh`.
    fn alice_alone() -> (tempfile::TempDir, PathBuf, TournamentConfig, Sandbox) {
        let course = alice_course("", None);
        std::fs::write(course.1.join("alice/strategy.sh"), "A\n").unwrap();
        course
    }

    /// Has the copy write `during` into `file` while it copies it, and `after` once it did (a
    /// swap during the copy and back): until the returned guard is dropped.
    fn swap_during_the_copy(file: PathBuf, during: &'static str, after: &'static str) -> impl Drop {
        struct Unhook;
        impl Drop for Unhook {
            fn drop(&mut self) {
                submission::BETWEEN_FILES.set(None);
            }
        }
        submission::BETWEEN_FILES.set(Some(Box::new(move |from: &Path, done: bool| {
            if from == file {
                std::fs::write(&file, if done { after } else { during }).unwrap();
            }
        })));
        Unhook
    }

    /// The reads of the bot's folder `folder` that `run` makes (its walks, and its files'
    /// hashes), from [`submission::READS`].
    fn reads_in(folder: &Path, run: impl FnOnce()) -> (usize, usize) {
        submission::READS.with_borrow_mut(Vec::clear);
        run();
        submission::READS.with_borrow(|reads| {
            (
                reads.iter().filter(|p| *p == folder).count(),
                reads.iter().filter(|p| **p == folder.join("bot.sh")).count(),
            )
        })
    }

    /// A run walks and hashes a built bot's folder once after its build, for the check that its
    /// files stayed as built, its fingerprint and what its build wrote (`built`), and once before
    /// it; a new version once more, after its copy. Its fingerprints are those of the reads apart.
    /// The control: those reads, made apart as a run made them, walk it three times.
    #[test]
    fn a_run_walks_a_built_bot_s_folder_once_after_its_build() {
        let (dir, course, config, sandbox) = alice_course("", Some("echo built > out.new && mv out.new out"));
        let out = dir.path().join("league");
        let folder = course.join("alice");
        let mut history = BTreeMap::new();
        let mut bots = Vec::new();
        let first = reads_in(&folder, || {
            bots = prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap().0
        });
        assert_eq!(first, (3, 3), "a new version: before its build, after it, after its copy");
        let second = reads_in(&folder, || {
            bots = prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap().0
        });
        assert_eq!(second, (2, 2), "a known version: before its build and after it");
        let labels: Vec<&str> = history["alice"].versions.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["v1"]);
        let alice = &config.bots[0];
        let outputs = history["alice"].outputs.clone();
        assert!(outputs.contains("out"), "{outputs:?}");
        let print = |outputs: &BTreeSet<String>| {
            submission::fingerprints(alice, None, outputs, &Default::default(), &mut BTreeMap::new()).unwrap().portable
        };
        assert_eq!(bots[0].fingerprint, print(&outputs));
        assert_eq!(bots[0].built, Some(print(&BTreeSet::new())));

        // The control: the files before its build, after it, and with what it wrote, read apart.
        let left_out = submission::LeftOut::league(&[&out]);
        let apart = reads_in(&folder, || {
            for outputs in [&outputs, &outputs, &BTreeSet::new()] {
                submission::sources(alice, None, outputs, &left_out, &mut BTreeMap::new()).unwrap();
            }
        });
        assert_eq!(apart, (3, 3), "the control: three walks");
    }

    /// A run reads a bot with no build once (a new version once more, after its copy). The
    /// control: its fingerprint and `built` read apart, as a run read them, walk it twice.
    #[test]
    fn a_run_walks_a_bot_s_folder_without_a_build_once() {
        let (dir, course, config, sandbox) = alice_alone();
        let out = dir.path().join("league");
        let folder = course.join("alice");
        let mut history = BTreeMap::new();
        let first = reads_in(&folder, || {
            prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        });
        assert_eq!(first, (2, 2), "a new version: its files, then after its copy");
        let mut bots = Vec::new();
        let second = reads_in(&folder, || {
            bots = prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap().0
        });
        assert_eq!(second, (1, 1), "a known version");
        assert_eq!(bots[0].built.as_ref(), Some(&bots[0].fingerprint));

        // The control: its files, then with its (no) outputs, read apart, with one cache.
        let mut cache = BTreeMap::new();
        let left_out = submission::LeftOut::league(&[&out]);
        let apart = reads_in(&folder, || {
            for _ in 0..2 {
                submission::sources(&config.bots[0], None, &BTreeSet::new(), &left_out, &mut cache).unwrap();
            }
        });
        assert_eq!(apart, (2, 1), "the control: two walks (the cache hashed each file once)");
    }

    /// A file swapped during the copy and back (A, B, A: B is copied, A is in the folder after)
    /// is seen in the copy itself, fingerprinted as copied: the copy goes, the new version is
    /// refused for this run, and the bot plays on from its last good version's copy; the next run
    /// copies it whole. The control: the check of the bot's files after the copy, alone, as
    /// before, finds them unchanged, and the copy holds B under A's fingerprint.
    #[test]
    fn a_file_swapped_during_the_copy_and_back_is_not_kept_as_the_version_recorded() {
        let (dir, course, config, sandbox) = alice_alone();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        let v1 = history["alice"].versions[0].fingerprint.clone();
        let strategy = course.join("alice/strategy.sh");
        std::fs::write(&strategy, "A2\n").unwrap();
        let print = || {
            submission::fingerprints(&config.bots[0], None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new())
                .unwrap()
                .portable
        };
        let a2 = print();
        {
            let _hook = swap_during_the_copy(strategy.clone(), "B\n", "A2\n");
            let (bots, failures) = prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
            assert!(failures.is_empty(), "{failures:?}");
            assert_eq!((bots[0].fingerprint.as_str(), bots[0].kept), (v1.as_str(), true), "it plays on as v1");
        }
        let latest = history["alice"].latest().unwrap();
        assert!(!latest.ok && latest.fingerprint == a2);
        let why = latest.problem.as_deref().unwrap();
        assert_eq!(
            why,
            "its files changed while the league copied them (strategy.sh): its new version waits for the next run"
        );
        assert!(!out.join("versions/alice").join(&a2).exists(), "the copy of B went");
        assert_eq!(std::fs::read_to_string(&strategy).unwrap(), "A2\n");
        // The next run, nothing swapped: A2 is copied as it is.
        prepare(&config, &sandbox, &out, 300, &mut history, &|| false, &|_| {}).unwrap();
        let standing = history["alice"].standing(None).unwrap();
        assert_eq!((standing.label.as_str(), standing.fingerprint.as_str()), ("v2", a2.as_str()));
        let copy = out.join("versions/alice").join(&a2).join("folder/strategy.sh");
        assert_eq!(std::fs::read_to_string(copy).unwrap(), "A2\n");

        // The control: the same swap, checked by the bot's files after the copy alone.
        std::fs::write(&strategy, "A3\n").unwrap();
        let alice = &config.bots[0];
        let read = || submission::sources(alice, None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new());
        let then = read().unwrap();
        let dest = dir.path().join("control/versions/alice").join(then.fingerprints().portable);
        {
            let _hook = swap_during_the_copy(strategy.clone(), "B\n", "A3\n");
            submission::snapshot(alice, &dest, &Default::default()).unwrap();
        }
        assert_eq!(read().unwrap(), then, "the control: the files after the copy are those fingerprinted");
        assert_eq!(std::fs::read_to_string(dest.join("folder/strategy.sh")).unwrap(), "B\n", "the control: B kept");
        let copied = submission::copied_sources(alice, &dest, &then, &BTreeSet::new(), &Default::default()).unwrap();
        assert_ne!(copied.fingerprints(), then.fingerprints(), "the copy itself is another version");
    }

    /// A bot's copies past their cap in all: the least recently seen go, unlisted from the
    /// record, then from the disk, but never the copy of the version it stands on and plays;
    /// a version that comes back is copied again. The control: within the cap, every copy stays,
    /// their disk growing with each version.
    #[test]
    fn a_bot_s_copies_past_their_cap_lose_the_oldest_but_never_the_one_it_plays() {
        let (dir, course, config, sandbox) = alice_alone();
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        // Four versions, each with 64 KiB of data of its own, then the first back.
        let data = |n: u8| (0..64u32 << 10).map(|i| (i % 251) as u8 ^ (n << 4)).collect::<Vec<u8>>();
        for (n, at) in [(1, 100), (2, 200), (3, 300), (4, 400), (1, 500)] {
            std::fs::write(course.join("alice/data"), data(n)).unwrap();
            prepare(&config, &sandbox, &out, at, &mut history, &|| false, &|_| {}).unwrap();
        }
        let labels: Vec<&str> = history["alice"].versions.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["v1", "v2", "v3", "v4", "v1"]);
        let fp = |i: usize| history["alice"].versions[i].fingerprint.clone();
        let (v1, v2, v3, v4) = (fp(0), fp(1), fp(2), fp(3));
        let copy = |fp: &str| out.join("versions/alice").join(fp);
        let size = |fp: &str| build::disk_use(&copy(fp), u64::MAX).bytes;
        assert!(size(&v1) >= 64 << 10, "{}", size(&v1));
        let playing = [BotVersion {
            entry: config.bots[0].clone(),
            fingerprint: v1.clone(),
            runnable: true,
            kept: true,
            built: None,
        }];
        // The control: within the cap, all four stay.
        let mut control = history.clone();
        limit_copies(&mut control, &playing, u64::MAX);
        assert_eq!(control, history, "the control: nothing unlisted");
        let total: u64 = [&v1, &v2, &v3, &v4].iter().map(|fp| size(fp)).sum();
        assert!(total >= 4 * (64 << 10), "the control: four copies' disk: {total}");

        // Room for two copies: v2 and v3, least recently seen, go; v4 and v1 (which plays) stay.
        limit_copies(&mut history, &playing, size(&v1) + size(&v4));
        let kept = |h: &BTreeMap<String, BotHistory>, fp: &str| {
            h["alice"].versions.iter().filter(|v| v.fingerprint == fp).all(|v| v.kept.is_some())
        };
        let gone = |h: &BTreeMap<String, BotHistory>, fp: &str| {
            h["alice"].versions.iter().filter(|v| v.fingerprint == fp).all(|v| v.kept.is_none())
        };
        assert!(gone(&history, &v2) && gone(&history, &v3), "{:?}", history["alice"]);
        assert!(kept(&history, &v1) && kept(&history, &v4));
        remove_unlisted_copies(&out, &history);
        assert!(!copy(&v2).exists() && !copy(&v3).exists(), "removed from the disk once unlisted");
        assert!(copy(&v1).is_dir() && copy(&v4).is_dir());
        // No room at all: the copy it stands on and plays still stays.
        limit_copies(&mut history, &playing, 0);
        assert!(gone(&history, &v4) && kept(&history, &v1));
        // v3 back: copied again, and played from its copy.
        std::fs::write(course.join("alice/data"), data(3)).unwrap();
        let (bots, _) = prepare(&config, &sandbox, &out, 600, &mut history, &|| false, &|_| {}).unwrap();
        assert_eq!((bots[0].fingerprint.as_str(), bots[0].kept), (v3.as_str(), true));
        assert_eq!(std::fs::read(copy(&v3).join("folder/data")).unwrap(), data(3));
        assert_eq!(history["alice"].standing(None).unwrap().label, "v3");
    }

    /// A copy counts for `copies_mb` at least a block per file: 1,000 empty files take no blocks
    /// but 1,000 inodes, and count 4,000 KiB. The control: by their blocks alone, next to nothing.
    #[test]
    fn a_copy_of_empty_files_counts_a_block_each() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..1000 {
            std::fs::File::create(dir.path().join(i.to_string())).unwrap();
        }
        assert!(copy_size(dir.path()) >= 1000 * 4096, "{}", copy_size(dir.path()));
        assert!(build::disk_use(dir.path(), u64::MAX).bytes < 1000 * 4096, "the control: its blocks alone");
    }

    /// `copies_mb` caps a bot's copies: with 0, its first version's copy goes once a second
    /// plays; the control: the same league without the key (1 GiB) keeps both.
    #[test]
    fn copies_mb_caps_a_bot_s_copies() {
        let runs = |head: &str| {
            let (dir, course, config, sandbox) = alice_course(head, None);
            let out = dir.path().join("league");
            let mut history = BTreeMap::new();
            for (n, at) in [(1, 100), (2, 200)] {
                std::fs::write(course.join("alice/bot.sh"), format!("echo WAIT # v{n}\n")).unwrap();
                prepare(&config, &sandbox, &out, at, &mut history, &|| false, &|_| {}).unwrap();
            }
            history["alice"].versions.iter().map(|v| (v.label.clone(), v.kept.is_some())).collect::<Vec<_>>()
        };
        let v = |n: &str, kept: bool| (n.to_string(), kept);
        assert_eq!(runs("copies_mb = 0\n"), [v("v1", false), v("v2", true)]);
        assert_eq!(runs(""), [v("v1", true), v("v2", true)], "the control: the default keeps both");
    }

    /// A version whose files are not all its commit's (an uncommitted edit) is labelled so:
    /// `v2 <commit> + edits`; committed, the same files are labelled by the new commit alone.
    #[test]
    fn a_version_with_uncommitted_edits_says_so_beside_its_commit() {
        let (dir, course, config, sandbox) = alice_course("", None);
        let git = |args: &[&str]| {
            let out = super::super::submission::tests::git(&course, args);
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        git(&["init", "-q"]);
        git(&["add", "."]);
        git(&["commit", "-qm", "one"]);
        let first = git(&["rev-parse", "--short=7", "HEAD"]);
        let out = dir.path().join("league");
        let mut history = BTreeMap::new();
        prepare(&config, &sandbox, &out, 100, &mut history, &|| false, &|_| {}).unwrap();
        std::fs::write(course.join("alice/bot.sh"), "echo WAIT # v2\n").unwrap();
        prepare(&config, &sandbox, &out, 200, &mut history, &|| false, &|_| {}).unwrap();
        std::fs::write(course.join("alice/bot.sh"), "echo WAIT # v3\n").unwrap();
        git(&["commit", "-qam", "three"]);
        let third = git(&["rev-parse", "--short=7", "HEAD"]);
        prepare(&config, &sandbox, &out, 300, &mut history, &|| false, &|_| {}).unwrap();
        let labels: Vec<&str> = history["alice"].versions.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, [format!("v1 {first}"), format!("v2 {first} + edits"), format!("v3 {third}")]);
    }

    #[test]
    fn times_parse_in_several_spellings() {
        assert_eq!(parse_time("2026-11-30T17:00:00Z"), Ok(1_796_058_000));
        assert_eq!(parse_time("2026-11-30 17:00:00"), Ok(1_796_058_000));
        assert_eq!(parse_time("1796058000"), Ok(1_796_058_000));
        assert_eq!(parse_time("2026-11-30"), Ok(1_796_058_000 + 6 * 3600 + 59 * 60 + 59));
        assert!(parse_time("next friday").unwrap_err().contains("not a time"));
        // RFC 3339 with a numeric offset: the same instant as in UTC.
        assert_eq!(parse_time("2026-11-30T18:00:00+01:00"), Ok(1_796_058_000));
        assert_eq!(parse_time("2026-11-30T12:30:00-04:30"), Ok(1_796_058_000));
        assert_eq!(parse_time("2026-11-30 17:00:00+00:00"), Ok(1_796_058_000));
        assert!(parse_time("2026-11-30T18:00:00+99:00").unwrap_err().contains("not a time"));
        assert!(parse_time("1970-01-01T00:30:00+01:00").unwrap_err().contains("before 1970"));
    }
}
