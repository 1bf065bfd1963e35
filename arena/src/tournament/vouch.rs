//! Whether a result line found on disk (a shard's, or a run's own kept one) is the league's:
//! its match as the schedule has it, its replay on disk recording the same match and result,
//! and that replay re-simulating through the game's rules as `arena verify` checks it
//! ([`crate::replay::audit`]). A line that only agrees with its own replay is not enough: a
//! shard's folder is copied between machines, and a result changed in both its line and its
//! replay ranked a bot first.
//!
//! What this cannot tell: that the bots made the moves the replay records. A replay forged
//! whole, a legal game from the schedule's setup, passes; shards must run where only the
//! teacher's jobs write.
//!
//! Lines are checked on several threads at once ([`Vouch::check_all`]), each on its own; what
//! they found is then taken in the lines' order ([`Vouch::settle`]), so what is said and kept
//! does not depend on which thread ended first.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use serde_json::Value;

use super::results::ResultLine;
use super::schedule::ScheduledMatch;
use super::TournamentRecord;
use crate::engine::{Game, Registry};
use crate::replay::Replay;

/// Checks result lines against one league's record; each map's setup is made once.
pub(crate) struct Vouch<'a> {
    record: &'a TournamentRecord,
    games: &'a Registry,
    game: Option<&'static dyn Game>,
    scheduled: HashMap<&'a str, &'a ScheduledMatch>,
    /// The setup each of the schedule's maps gives its matches, made by the first check that
    /// needs it, or why it cannot be made here (the map cannot be read, or its content is no
    /// longer what the league was built with).
    setups: HashMap<&'a Path, OnceLock<Result<Value, String>>>,
    /// The maps whose setups a settled check used (a failed one is warned of once).
    used: HashSet<&'a Path>,
    /// Where set ([`Vouch::own_replays`]), the replays of every folder are read as files of
    /// their folder's own: no link followed, no hard link ([`crate::files::check_foreign_file`])
    /// but in [`Vouch::teachers`].
    own_replays: bool,
    /// The teacher's folders (the league's named by `--league` and OUT, by their real paths),
    /// whose replays' hard links are read (a `cp -al` backup's; see [`Vouch::teachers_folders`]).
    teachers: Vec<std::path::PathBuf>,
    /// Taken by the check of a large replay while it is parsed and checked (see [`Large`]).
    large: Large,
}

/// What a check of one line found, to be taken in the lines' order by [`Vouch::settle`].
pub(crate) struct Checked<'a> {
    /// Why the line is not the league's, if it is not.
    why: Option<String>,
    /// The map whose setup the check used.
    setup: Option<&'a Path>,
}

impl<'a> Vouch<'a> {
    /// A checker of `record`'s results, with the games of `games`.
    pub(crate) fn new(record: &'a TournamentRecord, games: &'a Registry) -> Self {
        let scheduled = record.schedule.iter().map(|m| (m.key.as_str(), m)).collect();
        let setups = record.schedule.iter().map(|m| (m.map.as_path(), OnceLock::new())).collect();
        let game = record.game(games).ok();
        Vouch {
            record,
            games,
            game,
            scheduled,
            setups,
            used: HashSet::new(),
            own_replays: false,
            teachers: Vec::new(),
            large: Large::default(),
        }
    }

    /// This checker, reading the replays of every folder as files of their folder's own, as the
    /// merge copies them: a link in the replay's path below its folder is refused, named, not
    /// followed (a shard's replay linked to a teacher's file was read, and part of it said in the
    /// refusal), and so is a hard link, but in the teacher's folders
    /// ([`Vouch::teachers_folders`]).
    pub(crate) fn own_replays(mut self) -> Self {
        self.own_replays = true;
        self
    }

    /// This checker, reading the replays of `dirs` (the league's folder named by `--league` and
    /// OUT) with their hard links: a teacher's `cp -al` backup gives each file two names, and
    /// with `fs.protected_hardlinks=1` one a shard's machine put there links only a file its
    /// maker could read already. Symbolic links stay refused there too.
    pub(crate) fn teachers_folders(mut self, dirs: &[&Path]) -> Self {
        self.teachers = dirs.iter().filter_map(|d| std::fs::canonicalize(d).ok()).collect();
        self
    }

    /// The turn of the replay `line` names in `dir`, if it is a large one ([`Large`], taken before
    /// it is unpacked: only its compressed bytes wait), to be held while it is checked, and the
    /// replay, read as [`Vouch::own_replays`] says.
    fn load_replay(&self, dir: &Path, line: &ResultLine) -> Result<(Option<MutexGuard<'_, ()>>, Replay), String> {
        let path = dir.join(&line.replay);
        let raw = self.replay_raw(dir, line)?;
        let turn = self.large.turn(crate::replay::unpacks_beyond(&raw, LARGE_REPLAY_BYTES as u64));
        let json = crate::replay::unpack(&path, raw).map_err(|e| e.to_string())?;
        Ok((turn, Replay::from_json(&path, json).map_err(|e| e.to_string())?))
    }

    /// The bytes of the replay file `line` names in `dir`, compressed or not, read as
    /// [`Vouch::own_replays`] says.
    fn replay_raw(&self, dir: &Path, line: &ResultLine) -> Result<Vec<u8>, String> {
        let path = dir.join(&line.replay);
        if !self.own_replays {
            return crate::replay::read_raw(&path).map_err(|e| e.to_string());
        }
        // (Every folder between `dir` and the file is a folder of its own, not a link, opened
        // from the one before: what is read is what was checked.)
        let teachers =
            !self.teachers.is_empty() && std::fs::canonicalize(dir).is_ok_and(|d| self.teachers.contains(&d));
        let read =
            if teachers { crate::files::read_own_regular_under } else { crate::files::read_foreign_regular_under };
        read(dir, Path::new(&line.replay), crate::replay::MAX_REPLAY_BYTES).map_err(|e| {
            format!("{}: {e}: nothing is read through a link (a folder's replays are files of its own)", path.display())
        })
    }

    /// Why `line`, found in `dir`, is not a result of the league, if it is not (in words that
    /// name what differs); `None` if it is. A line of a match no longer scheduled (an earlier
    /// version's) is checked against its replay alone.
    pub(crate) fn why_not(&mut self, dir: &Path, line: &ResultLine) -> Option<String> {
        let checked = self.check(dir, line);
        self.settle(checked)
    }

    /// [`Vouch::check`] of each of `lines` (each with its folder), on up to `jobs` threads;
    /// what each found, in the lines' order. Settle them in that order.
    pub(crate) fn check_all(&self, lines: &[(&Path, &ResultLine)], jobs: usize) -> Vec<Checked<'a>> {
        let jobs = jobs.clamp(1, lines.len().max(1));
        let start = std::time::Instant::now();
        let checked = self.check_on(lines, jobs);
        tracing::debug!(lines = lines.len(), jobs, ms = start.elapsed().as_millis() as u64, "results checked");
        checked
    }

    fn check_on(&self, lines: &[(&Path, &ResultLine)], jobs: usize) -> Vec<Checked<'a>> {
        if jobs == 1 {
            return lines.iter().map(|(dir, line)| self.check(dir, line)).collect();
        }
        // Each thread takes the next line not yet taken, and keeps what it found by its place.
        let next = AtomicUsize::new(0);
        let work = || {
            let mut found = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((dir, line)) = lines.get(i) else { break found };
                found.push((i, self.check(dir, line)));
            }
        };
        let mut slots: Vec<Option<Checked<'a>>> = (0..lines.len()).map(|_| None).collect();
        std::thread::scope(|scope| {
            // (A thread the machine cannot start, out of processes or memory, leaves its lines to
            // the others; with none started, this thread checks them all, below.)
            let threads: Vec<_> =
                (0..jobs).filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok()).collect();
            for thread in threads {
                // (A check that panicked panics here, as it would have on this thread.)
                let found = thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                for (i, checked) in found {
                    slots[i] = Some(checked);
                }
            }
        });
        // (Every line was taken by a thread that ended: each slot holds its check.)
        slots.into_iter().zip(lines).map(|(slot, (dir, line))| slot.unwrap_or_else(|| self.check(dir, line))).collect()
    }

    /// Takes what a check found, in the lines' order: warns once of each map whose setup could
    /// not be made, as the first line needing it is taken; why the line is not the league's.
    pub(crate) fn settle(&mut self, checked: Checked<'a>) -> Option<String> {
        if let Some(map) = checked.setup {
            if self.used.insert(map) {
                if let Some(Err(why)) = self.setups.get(map).and_then(OnceLock::get) {
                    tracing::warn!("{}: {why}: its replays' setups are not checked", map.display());
                }
            }
        }
        checked.why
    }

    /// What [`Vouch::why_not`] finds of `line`, found in `dir`, without a word said: it may run
    /// on any thread, and be settled later.
    pub(crate) fn check(&self, dir: &Path, line: &ResultLine) -> Checked<'a> {
        let mut setup = None;
        let why = self.check_using(dir, line, &mut setup);
        Checked { why, setup }
    }

    fn check_using(&self, dir: &Path, line: &ResultLine, used: &mut Option<&'a Path>) -> Option<String> {
        let scheduled = self.scheduled.get(line.key.as_str()).copied();
        if let Some(m) = scheduled {
            if let Some(why) = self.against_schedule(m, line) {
                return Some(why);
            }
        }
        // (The turn is let go after the replay is dropped: bindings drop in reverse order.)
        let (_turn, replay) = match self.load_replay(dir, line) {
            Ok(loaded) => loaded,
            Err(e) => return Some(format!("its replay cannot be read: {e}")),
        };
        if let Some(why) = against_replay(line, &replay) {
            return Some(why);
        }
        if let Some(m) = scheduled {
            let config = &self.record.config;
            if replay.game != config.game {
                return Some(format!("its replay is of the game `{}`, not `{}`", replay.game, config.game));
            }
            if replay.limits != config.limits.limits() {
                return Some("its replay records other limits than the league's".to_string());
            }
            *used = Some(m.map.as_path());
            if let Some(setup) = self.setup(&m.map) {
                if let Err((at, recorded, actual)) = crate::replay::compare(&replay.setup, setup) {
                    return Some(format!(
                        "its replay's setup is not its map's: `{at}` is {} where the map gives {}",
                        short(&recorded),
                        short(&actual)
                    ));
                }
            }
        }
        crate::replay::audit(&replay, self.games).err().map(|d| format!("its replay does not re-simulate: {d}"))
    }

    /// The match of an earlier schedule of the league `line`, of a match no longer scheduled, is
    /// a result of, or why it is none: its seats are bots the league's history records, each on
    /// a good version the history records (the line's versions), and its key, seed, map and game
    /// are those the schedule of those versions gives (made as a run makes it, under the
    /// league's config). What `arena leaderboard --as-of` counts is of such schedules.
    pub(crate) fn earlier_match(&self, line: &ResultLine) -> Result<ScheduledMatch, String> {
        let history = &self.record.history;
        let config = &self.record.config;
        let none = || {
            format!(
                "not a match of the league's schedule, nor of an earlier one (its bots on versions the league's \
                 history records: seats {:?}, versions {:?})",
                line.seats, line.versions
            )
        };
        let template = config.bots.first().ok_or_else(none)?;
        if line.versions.len() != line.seats.len() {
            return Err(none());
        }
        let mut bots = Vec::new();
        for (name, fingerprint) in line.seats.iter().zip(&line.versions) {
            let known = history.get(name).is_some_and(|h| {
                h.versions
                    .iter()
                    .any(|v| v.ok && (v.fingerprint == *fingerprint || v.portable.as_ref() == Some(fingerprint)))
            });
            if !known {
                return Err(none());
            }
            let entry = config.bots.iter().find(|b| &b.name == name).cloned();
            bots.push(super::schedule::BotVersion {
                entry: entry.unwrap_or_else(|| super::config::BotEntry { name: name.clone(), ..template.clone() }),
                fingerprint: fingerprint.clone(),
                runnable: true,
                kept: false,
                built: None,
            });
        }
        let digests: Vec<String> = self.record.boards.iter().map(|b| b.digest.clone()).collect();
        if digests.len() != config.boards().len() {
            return Err(none());
        }
        let m = super::schedule::round_robin(config, &bots, &digests, &[])
            .into_iter()
            .find(|m| m.key == line.key)
            .ok_or_else(none)?;
        if line.seats != m.seats || !same_map(&line.map, &m.map) || line.game != m.game || line.seed != m.seed {
            return Err(format!(
                "not as the earlier schedule of its key has it (seats {:?}, map {}, game {}, seed {})",
                m.seats,
                m.map.display(),
                m.game,
                m.seed
            ));
        }
        Ok(m)
    }

    /// Where `line` differs from the scheduled match of its key.
    fn against_schedule(&self, m: &ScheduledMatch, line: &ResultLine) -> Option<String> {
        if line.seats != m.seats {
            return Some(format!("its seats are {:?}, the schedule's {:?}", line.seats, m.seats));
        }
        if !same_map(&line.map, &m.map) {
            return Some(format!("its map is {}, the schedule's {}", line.map.display(), m.map.display()));
        }
        if line.game != m.game {
            return Some(format!("it is game {}, the schedule's {}", line.game, m.game));
        }
        if line.seed != m.seed {
            return Some(format!("its seed is {}, the schedule's {}", line.seed, m.seed));
        }
        let versions: Vec<String> = m
            .seats
            .iter()
            .map(|name| {
                self.record.bots.iter().find(|b| &b.entry.name == name).map_or(String::new(), |b| b.fingerprint.clone())
            })
            .collect();
        // (Lines of an arena before shards name no versions: their key names them. Every line
        // since names them, as it names when it ended and its players' last steps.)
        if (!before_shards(line) || !line.versions.is_empty()) && line.versions != versions {
            return Some(format!("its bots' versions are {:?}, the schedule's {versions:?}", line.versions));
        }
        // (When it ended, `at`, is the clock of the machine that played it, and no replay holds
        // it: not checked, as a clock a few minutes or years off would otherwise throw genuine
        // results away on every resume and merge, and play them again with the same clock.)
        None
    }

    /// The setup the league's matches on `map` (one of the schedule's) start from, made once
    /// through the game.
    fn setup(&self, map: &Path) -> Option<&Value> {
        self.setups.get(map)?.get_or_init(|| self.make_setup(map)).as_ref().ok()
    }

    /// Why the setup of `line`'s replay was not checked against its map, if it was not (the
    /// map moved or changed since the build): what a merge's summary counts.
    pub(crate) fn setup_unchecked(&self, line: &ResultLine) -> Option<(&Path, &str)> {
        let m = self.scheduled.get(line.key.as_str())?;
        if !self.used.contains(m.map.as_path()) {
            return None;
        }
        match self.setups.get(m.map.as_path())?.get()? {
            Err(why) => Some((m.map.as_path(), why.as_str())),
            Ok(_) => None,
        }
    }

    fn make_setup(&self, map: &Path) -> Result<Value, String> {
        let config = &self.record.config;
        let game = self.game.ok_or_else(|| format!("the game `{}` is not known to this arena", config.game))?;
        let text = if config.maps.is_empty() {
            None
        } else {
            let digest = self.record.boards.iter().find(|b| Path::new(&b.path) == map).map(|b| b.digest.as_str());
            match crate::files::read_map_file(map) {
                Ok(text) if Some(super::schedule::digest(text.as_bytes()).as_str()) == digest => Some(text.into()),
                Ok(_) => return Err("not the map the league was built with (changed since `arena build`)".into()),
                Err(e) => return Err(format!("the map cannot be read here ({e})")),
            }
        };
        match game.new_match(&config.match_options(map, text)) {
            Ok(state) => Ok(state.setup()),
            Err(e) => Err(format!("the game makes no match of it ({e})")),
        }
    }
}

/// Whether two results' maps are the same map: by its file name, as a league moved or copied,
/// or a shard played in another checkout, has its maps elsewhere and its lines name them where
/// they were. (The seed, made from the map's content, binds the content.)
pub(crate) fn same_map(a: &Path, b: &Path) -> bool {
    a.file_name() == b.file_name()
}

/// Where `line` and the replay it names disagree.
pub(super) fn against_replay(line: &ResultLine, replay: &Replay) -> Option<String> {
    let names: Vec<&str> = replay.players.iter().map(|p| p.name.as_str()).collect();
    if names != line.seats {
        return Some(format!("its replay's players are {names:?}, its seats {:?}", line.seats));
    }
    if replay.seed != line.seed {
        return Some(format!("its replay's seed is {}, its own {}", replay.seed, line.seed));
    }
    if replay.steps.len() != line.steps {
        return Some(format!("its replay has {} steps, it says {}", replay.steps.len(), line.steps));
    }
    if replay.result != line.result {
        return Some("its replay records another result".to_string());
    }
    // (Lines of an arena before shards may lack these: their replays still hold what they say.
    // Every line since holds them, the forfeits when there are any.)
    let old = before_shards(line);
    if (!old || !line.ended_at.is_empty()) && super::ended_at(replay) != line.ended_at {
        return Some("its replay ends the players' games at other steps".to_string());
    }
    ((!old || !line.forfeits.is_empty()) && line.forfeits != crate::explain::forfeit_facts(replay))
        .then(|| "its replay says otherwise of the forfeits".to_string())
}

/// Whether `line` was written by an arena before shards, which wrote neither when a match
/// ended, nor its players' last steps, nor its bots' versions: every line since holds all three,
/// so a line lacking one of them is not as an arena wrote it.
pub(super) fn before_shards(line: &ResultLine) -> bool {
    line.at == 0 && line.ended_at.is_empty() && line.versions.is_empty()
}

/// `text` cut to a length a message can hold.
fn short(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The replays of more than [`LARGE_REPLAY_BYTES`] of JSON are checked one at a time, whatever
/// the merge's jobs: a replay's JSON, parsed, takes some 10 to 25 times its size in memory (a
/// 66 KB file of 60 MiB of `[],` took 742 MB), and a merge checked a shard's replays so made on
/// all its jobs at once (2 jobs: 1.46 GB; 16 would take some 12 GB). The league's own replays
/// are far smaller (a 10,000-round duel on a 50x50 map: 3.4 MB of JSON), so the jobs still
/// check them side by side.
#[derive(Default)]
struct Large(Mutex<()>);

/// See [`Large`].
const LARGE_REPLAY_BYTES: usize = 2 << 20;

impl Large {
    /// The turn of a replay, waited for if it is `large` (`None`: small, checked at once).
    fn turn(&self, large: bool) -> Option<MutexGuard<'_, ()>> {
        // (A check that panicked while it held the turn panics the merge too: the turn is free.)
        large.then(|| self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A large replay waits for the turn another holds, and gets it once that one is checked;
    /// a small one never waits (the control). Large is told from the compressed bytes without
    /// unpacking more than the limit: 60 MiB of `[],` in 66 KB of gzip is large, the same cut
    /// to the limit is not (the control), nor is a file whose bytes do not unpack.
    #[test]
    fn large_replays_are_checked_one_at_a_time() {
        let limit = LARGE_REPLAY_BYTES as u64;
        let json = |n: u64| format!("[{}]", "[],".repeat(n as usize / 3));
        let bomb = crate::replay::gzip(json(60 << 20).as_bytes()).unwrap();
        assert!(bomb.len() < 100_000, "{}", bomb.len());
        assert!(crate::replay::unpacks_beyond(&bomb, limit));
        let small = crate::replay::gzip(json(limit - 3).as_bytes()).unwrap();
        assert!(!crate::replay::unpacks_beyond(&small, limit), "the control");
        assert!(!crate::replay::unpacks_beyond(&bomb[..bomb.len() / 2], u64::MAX - 1), "cut short: unpack says why");
        assert!(crate::replay::unpacks_beyond(json(limit + 3).as_bytes(), limit), "plain JSON by its length");
        let large = &Large::default();
        let held = large.turn(true).expect("a large replay takes the turn");
        std::thread::scope(|scope| {
            let (small_done, small) = std::sync::mpsc::channel();
            let (large_done, second) = std::sync::mpsc::channel();
            scope.spawn(move || small_done.send(large.turn(false).is_none()));
            scope.spawn(move || large_done.send(large.turn(true).is_some()));
            assert_eq!(
                small.recv_timeout(Duration::from_secs(20)),
                Ok(true),
                "the control: a small one is checked at once"
            );
            assert!(second.recv_timeout(Duration::from_millis(300)).is_err(), "a second large one waits");
            drop(held);
            assert_eq!(second.recv_timeout(Duration::from_secs(20)), Ok(true), "and gets its turn after");
        });
    }
}
