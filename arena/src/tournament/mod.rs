//! Round-robin tournaments: build the bots, schedule every pairing from both sides, run the
//! matches concurrently, stream each result to disk as it ends, and rank the bots. Resuming a
//! folder runs only what is missing or superseded. This module knows no game's rules: it
//! goes through the engine trait and the referee.

pub mod config;
pub mod leaderboard;
pub mod results;
pub mod schedule;

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use self::config::TournamentConfig;
use self::leaderboard::Leaderboard;
use self::results::{ResultLine, ResultsWriter};
use self::schedule::{BotVersion, ScheduledMatch};
use crate::engine::Game;
use crate::games;
use crate::referee::{play_match, BotCommand, PlayedMatch, RefereeError};
use crate::replay::write_atomic;
use crate::safe_text;
use crate::sandbox::Sandbox;

/// The resolved tournament, as written to `tournament.json`.
pub const TOURNAMENT_FILE: &str = "tournament.json";

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
    /// The configuration cannot be run.
    #[error("{0}")]
    Invalid(String),
    /// Another run is writing the folder.
    #[error("{} is being written by another arena run ({holder}): wait for it to end, or use another --out", .dir.display())]
    Locked {
        /// The folder.
        dir: PathBuf,
        /// Who holds the lock, as it wrote itself down.
        holder: String,
    },
    /// The output folder already holds a tournament.
    #[error("{} already holds a tournament: resume it with --resume {}, or choose another --out", .0.display(), .0.display())]
    Exists(PathBuf),
    /// A game or map problem.
    #[error(transparent)]
    Setup(#[from] crate::engine::SetupError),
}

impl TournamentError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        TournamentError::Io { path: path.to_path_buf(), source }
    }
}

/// `tournament.json`: the resolved configuration, the bots' versions and the schedule.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// The configuration as run.
    pub config: TournamentConfig,
    /// Bots that could play, with their fingerprints.
    pub bots: Vec<BotVersion>,
    /// Bots that could not play, with the reason.
    pub failures: BTreeMap<String, String>,
    /// Every scheduled match.
    pub schedule: Vec<ScheduledMatch>,
}

impl TournamentConfig {
    /// What the bots' seeds are keyed with (the config's `secret`, else its seed).
    pub fn seat_secret(&self) -> Vec<u8> {
        self.secret.clone().unwrap_or_else(|| format!("seed {}", self.seed)).into_bytes()
    }
}

impl TournamentRecord {
    /// Reads `dir/tournament.json`.
    pub fn load(dir: &Path) -> Result<Self, TournamentError> {
        let path = dir.join(TOURNAMENT_FILE);
        let text = std::fs::read(&path).map_err(|e| TournamentError::io(&path, e))?;
        serde_json::from_slice(&text)
            .map_err(|e| TournamentError::Config { path, message: format!("not a tournament record: {e}") })
    }

    /// The leaderboard of `results` (only those in the schedule count).
    pub fn leaderboard(&self, results: &[ResultLine]) -> Leaderboard {
        let keys: HashSet<&str> = self.schedule.iter().map(|m| m.key.as_str()).collect();
        let counted: Vec<ResultLine> = results.iter().filter(|r| keys.contains(r.key.as_str())).cloned().collect();
        let names: Vec<String> = self.config.bots.iter().map(|b| b.name.clone()).collect();
        let wins_first = crate::games::by_name(&self.config.game).is_ok_and(|g| g.ranks_by_wins());
        leaderboard::compute(&names, &self.failures, &counted, self.schedule.len(), wins_first)
    }
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
    /// Results dropped because their bot, map or settings changed.
    pub dropped: usize,
    /// Matches that could not be started (their bot failed to spawn).
    pub failed: Vec<String>,
    /// Ctrl-C stopped the run before every match was played.
    pub interrupted: bool,
}

/// Runs (or resumes) the tournament `config` in `out`. With `resume`, an existing folder is
/// continued; without it, a folder that already holds results is refused.
pub fn run(
    config: TournamentConfig,
    out: &Path,
    resume: bool,
    cancel: CancellationToken,
) -> Result<Summary, TournamentError> {
    config.validate()?;
    let game = games::by_name(&config.game)?;
    // Every map is read once, here: every match plays these contents, whatever happens to the
    // files later. A bad map or board size is reported before anything is built, started or
    // written.
    let boards = load_boards(&config)?;
    for (path, board) in &boards {
        game.new_match(&config.match_options(path, board.text.clone()))?;
    }
    std::fs::create_dir_all(out.join("replays")).map_err(|e| TournamentError::io(out, e))?;
    std::fs::create_dir_all(out.join("logs")).map_err(|e| TournamentError::io(out, e))?;
    let _lock = FolderLock::take(out)?;
    // Replay pages use the folder's shared viewer from the first match on.
    crate::view::write_assets(out).map_err(|e| TournamentError::io(&out.join("assets"), e))?;
    let (existing, valid_len) = results::read(out)?;
    if !resume && (valid_len > 0 || out.join(TOURNAMENT_FILE).exists()) {
        return Err(TournamentError::Exists(out.to_path_buf()));
    }
    remove_temporaries(out);

    let mut failures = build_bots(&config);
    let mut bots = Vec::new();
    let mut file_hashes = BTreeMap::new();
    for entry in &config.bots {
        if failures.contains_key(&entry.name) {
            continue;
        }
        // A bot whose files cannot be read cannot play; the others go on.
        match schedule::fingerprint(entry, &mut file_hashes) {
            Ok(fingerprint) => bots.push(BotVersion { fingerprint, entry: entry.clone() }),
            Err(e) => {
                failures.insert(entry.name.clone(), e.to_string());
            }
        }
    }
    let digests: Vec<String> =
        config.boards().iter().map(|p| boards.get(p).map_or_else(String::new, |b| b.digest.clone())).collect();
    let schedule = schedule::round_robin(&config, &bots, &digests);
    let record = TournamentRecord { config, bots, failures, schedule };
    let json = serde_json::to_vec_pretty(&record).map_err(|e| TournamentError::Invalid(e.to_string()))?;
    let record_path = out.join(TOURNAMENT_FILE);
    write_atomic(&record_path, &json).map_err(|e| TournamentError::io(&record_path, e))?;

    // Keep what is still scheduled (once per key, wherever a duplicate stands, and only with
    // its replay on disk, agreeing); drop superseded results with their replays.
    let keys: HashSet<&str> = record.schedule.iter().map(|m| m.key.as_str()).collect();
    let mut seen = HashSet::new();
    let (mut done, mut stale) = (Vec::new(), Vec::new());
    let mut rewrite = false;
    for line in existing {
        if !keys.contains(line.key.as_str()) {
            stale.push(line);
        } else if !seen.insert(line.key.clone()) {
            tracing::warn!(key = %line.key, "dropping a duplicate result line");
            rewrite = true;
        } else if !replay_agrees(out, &line) {
            tracing::warn!(key = %line.key, "its replay is missing or disagrees with the result: playing it again");
            rewrite = true;
        } else {
            done.push(line);
        }
    }
    let mut valid_len = valid_len;
    if !stale.is_empty() || rewrite {
        for line in &stale {
            let _ = std::fs::remove_file(out.join(&line.replay));
            let _ = std::fs::remove_file(crate::replay::page_file(&out.join(&line.replay)));
            let _ = std::fs::remove_file(out.join("logs").join(format!("{}.log", line.key)));
        }
        valid_len = results::rewrite(out, &done)?;
    }
    let done_keys: HashSet<String> = done.iter().map(|r| r.key.clone()).collect();
    let todo: Vec<ScheduledMatch> = record.schedule.iter().filter(|m| !done_keys.contains(&m.key)).cloned().collect();
    let kept = done.len();
    tracing::info!(scheduled = record.schedule.len(), kept, dropped = stale.len(), todo = todo.len(), "tournament");

    let mut writer = ResultsWriter::open(out, valid_len)?;
    let jobs = record.config.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let progress = Progress::new(todo.len(), kept);
    let sandbox = Sandbox::new(record.config.sandbox, record.config.limits.sandbox_limits())
        .map_err(|e| TournamentError::Invalid(e.to_string()))?;
    let shared = Shared { record: record.clone(), game, sandbox, boards };
    let queue = Mutex::new(VecDeque::from(todo));
    // Workers only play; this thread writes every replay and result, so that no worker waits
    // on the disk.
    let (sender, receiver) = mpsc::channel::<(ScheduledMatch, Result<(ResultLine, PlayedMatch), RefereeError>)>();
    let mut played = 0;
    let mut failed = Vec::new();
    // Each worker thread runs its matches one at a time on its own single-threaded runtime:
    // a match is a ping-pong between processes, and keeping its wake-ups on one thread is
    // what makes -j scale with the cores.
    std::thread::scope(|scope| -> Result<(), TournamentError> {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (shared, queue, cancel, progress) = (&shared, &queue, &cancel, &progress);
            scope.spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        progress.println(&format!("cannot start a worker: {e}"));
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
                    progress.started(&m);
                    let outcome = runtime.block_on(play_one(shared, &m, cancel));
                    progress.ended(&m);
                    if sender.send((m, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (m, outcome) in receiver {
            match outcome {
                Ok((line, record)) => {
                    // The replay is on disk before the result line that names it.
                    let replay_path = out.join(&line.replay);
                    let log_path = out.join("logs").join(format!("{}.log", line.key));
                    record.save(&replay_path, &log_path).map_err(|e| TournamentError::Invalid(e.to_string()))?;
                    write_replay_page(&replay_path, &record.replay, &m)?;
                    writer.append(&line)?;
                    progress.finished(&m, &line);
                    done.push(line);
                    played += 1;
                }
                Err(RefereeError::Cancelled) => {}
                Err(e) => {
                    progress.println(&format!("match {} could not be played: {e}", m.key));
                    failed.push(format!("{}: {e}", m.key));
                }
            }
        }
        Ok(())
    })?;
    progress.done();
    let leaderboard = record.leaderboard(&done);
    write_leaderboard(out, &leaderboard, &done)?;
    Ok(Summary {
        out: out.to_path_buf(),
        leaderboard,
        played,
        kept,
        dropped: stale.len(),
        failed,
        interrupted: cancel.is_cancelled(),
    })
}

/// Everything a match task needs.
struct Shared {
    record: TournamentRecord,
    game: &'static dyn Game,
    sandbox: Sandbox,
    boards: BTreeMap<PathBuf, Board>,
}

/// A map (or pseudo board) as read at the start of a run.
struct Board {
    /// The file's content (`None` for a pseudo board `board-WxH`).
    text: Option<Arc<str>>,
    /// What identifies it in match keys and seeds: the content's hash.
    digest: String,
}

/// Reads every map of `config` once, in board order.
fn load_boards(config: &TournamentConfig) -> Result<BTreeMap<PathBuf, Board>, TournamentError> {
    let mut boards = BTreeMap::new();
    for path in config.boards() {
        let board = if config.maps.is_empty() {
            Board { text: None, digest: path.display().to_string() }
        } else {
            let text = crate::engine::read_map_file(&path)?;
            Board { digest: schedule::digest(text.as_bytes()), text: Some(text.into()) }
        };
        boards.insert(path, board);
    }
    Ok(boards)
}

/// Whether the replay a result names is on disk and records the same result.
fn replay_agrees(out: &Path, line: &ResultLine) -> bool {
    let path = out.join(&line.replay);
    let Ok(bytes) = crate::replay::read_json(&path) else { return false };
    #[derive(Deserialize)]
    struct Head {
        result: crate::replay::MatchResult,
    }
    serde_json::from_slice::<Head>(&bytes).is_ok_and(|h| h.result == line.result)
}

/// The lock of a tournament folder, held while a run writes it.
struct FolderLock {
    _file: std::fs::File,
}

impl FolderLock {
    /// Takes the lock of `out`, or says which run holds it.
    fn take(out: &Path) -> Result<FolderLock, TournamentError> {
        use std::io::{Read, Seek, Write};
        let path = out.join(".lock");
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| TournamentError::io(&path, e))?;
        // SAFETY: flock on a descriptor we own.
        let locked = unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        if !locked {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(TournamentError::Locked { dir: out.to_path_buf(), holder: holder.trim().to_string() });
        }
        let _ = file.set_len(0).and_then(|()| file.rewind());
        let _ = write!(file, "pid {}", std::process::id());
        Ok(FolderLock { _file: file })
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
        .map_err(|e| RefereeError::Setup(e.to_string()))?;
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
    let played = play_match(shared.game.name(), state, &bots, &limits, m.seed, &shared.sandbox, cancel).await?;
    let line = ResultLine {
        key: m.key.clone(),
        seats: m.seats.clone(),
        map: m.map.clone(),
        game: m.game,
        seed: m.seed,
        steps: played.replay.steps.len(),
        replay: format!("replays/{}.json.gz", m.key),
        result: played.replay.result.clone(),
        forfeits: crate::explain::forfeit_facts(&played.replay),
    };
    Ok((line, played))
}

/// Runs each distinct build command once; returns the bots that cannot play, with why.
fn build_bots(config: &TournamentConfig) -> BTreeMap<String, String> {
    let mut failures = BTreeMap::new();
    let mut outcomes: BTreeMap<(String, Option<PathBuf>), Result<(), String>> = BTreeMap::new();
    for bot in &config.bots {
        if let Some(build) = &bot.build {
            let key = (build.clone(), bot.cwd.clone());
            if !outcomes.contains_key(&key) {
                outcomes.insert(key.clone(), run_build(build, bot.cwd.as_deref()));
            }
            if let Some(Err(why)) = outcomes.get(&key) {
                failures.insert(bot.name.clone(), why.clone());
                continue;
            }
        }
        if let Err(why) = check_program(bot) {
            failures.insert(bot.name.clone(), why);
        }
    }
    failures
}

fn run_build(build: &str, cwd: Option<&Path>) -> Result<(), String> {
    tracing::info!(build, "building");
    let mut command = std::process::Command::new("sh");
    command.arg("-c").arg(build).stdin(std::process::Stdio::null());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    match command.output() {
        Err(e) => Err(format!("build `{build}` could not start: {e}")),
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            let last: Vec<&str> = err.lines().rev().take(3).collect();
            let tail: Vec<&str> = last.into_iter().rev().collect();
            Err(format!("build `{build}` failed ({}): {}", out.status, tail.join(" / ")))
        }
    }
}

/// Checks that a bot's program exists (a path relative to its working directory, or a
/// program found on PATH).
fn check_program(bot: &config::BotEntry) -> Result<(), String> {
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

/// Removes temporary files a crash may have left (replays are written to `.tmp-*` first).
fn remove_temporaries(out: &Path) {
    for dir in [out.to_path_buf(), out.join("replays"), out.join("logs")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(".tmp-") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Writes a match's replay page beside its replay (`replays/<key>.html`): the replay file's
/// bytes, read back, with links to the leaderboard and the players' pages.
fn write_replay_page(
    replay_path: &Path,
    replay: &crate::replay::Replay,
    m: &ScheduledMatch,
) -> Result<(), TournamentError> {
    let bytes = std::fs::read(replay_path).map_err(|e| TournamentError::io(replay_path, e))?;
    let links = crate::view::Links {
        index: Some("../index.html".to_string()),
        bots: m.seats.iter().map(|s| Some(format!("../{}", crate::view::league::bot_page(s)))).collect(),
        map: Some(m.map.display().to_string()),
    };
    let page = crate::replay::page_file(replay_path);
    write_atomic(&page, crate::view::league_replay_page(replay, &bytes, &links).as_bytes())
        .map_err(|e| TournamentError::io(&page, e))
}

/// Writes `leaderboard.json`, `leaderboard.md` and the pages (`index.html`, `bots/`, the
/// shared `assets/`), each file atomically. `results` are the lines behind `leaderboard`.
pub fn write_leaderboard(out: &Path, leaderboard: &Leaderboard, results: &[ResultLine]) -> Result<(), TournamentError> {
    let json = serde_json::to_vec_pretty(leaderboard).map_err(|e| TournamentError::Invalid(e.to_string()))?;
    let path = out.join("leaderboard.json");
    write_atomic(&path, &json).map_err(|e| TournamentError::io(&path, e))?;
    let path = out.join("leaderboard.md");
    let title = format!("Leaderboard: {}", out.file_name().map_or("tournament".into(), |n| n.to_string_lossy()));
    write_atomic(&path, leaderboard.markdown(&title).as_bytes()).map_err(|e| TournamentError::io(&path, e))?;
    crate::view::write_assets(out).map_err(|e| TournamentError::io(&out.join("assets"), e))?;
    crate::view::league::write_pages(out, &title, leaderboard, results).map_err(|e| TournamentError::io(out, e))
}

/// Recomputes the leaderboard of a tournament folder from its files.
pub fn recompute(dir: &Path) -> Result<Leaderboard, TournamentError> {
    let record = TournamentRecord::load(dir)?;
    let (results, _) = results::read(dir)?;
    let leaderboard = record.leaderboard(&results);
    write_leaderboard(dir, &leaderboard, &results)?;
    Ok(leaderboard)
}

/// `a vs b` with the names as safe terminal text (they come from config files).
fn shown_pairing(m: &ScheduledMatch) -> String {
    m.seats.iter().map(|s| safe_text::terminal(s)).collect::<Vec<_>>().join(" vs ")
}

/// A progress bar on a terminal, plain lines on stderr otherwise. Names and messages are
/// shown as safe text.
#[derive(Clone)]
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    running: Arc<std::sync::Mutex<Vec<String>>>,
    count: Arc<std::sync::atomic::AtomicUsize>,
}

impl Progress {
    fn new(todo: usize, kept: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(todo as u64);
            let style = ProgressStyle::with_template("{bar:30} {pos}/{len} matches  eta {eta}  {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        if bar.is_none() {
            eprintln!("tournament: {todo} matches to play ({kept} already done)");
        }
        Progress { bar, total: todo, running: Default::default(), count: Default::default() }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        match self.running.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    fn started(&self, m: &ScheduledMatch) {
        let mut running = self.running();
        running.push(shown_pairing(m));
        self.show_running(&running);
    }

    fn ended(&self, m: &ScheduledMatch) {
        let name = shown_pairing(m);
        let mut running = self.running();
        if let Some(i) = running.iter().position(|r| *r == name) {
            running.remove(i);
        }
        self.show_running(&running);
    }

    fn show_running(&self, running: &[String]) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("running {}: {}", running.len(), running.join(", ")));
        }
    }

    fn finished(&self, m: &ScheduledMatch, line: &ResultLine) {
        let n = self.count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let scores: Vec<String> = line.result.players.iter().map(|p| p.score.to_string()).collect();
        match &self.bar {
            Some(bar) => bar.inc(1),
            None => {
                let map = safe_text::terminal(&m.map.display().to_string());
                eprintln!("[{n}/{}] {} on {map}: {}", self.total, shown_pairing(m), scores.join("-"))
            }
        }
    }

    fn println(&self, text: &str) {
        let text = safe_text::terminal_lines(text);
        let text = text.as_ref();
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
