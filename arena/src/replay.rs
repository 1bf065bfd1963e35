//! Replays: one versioned JSON file per match, written atomically, loaded with precise errors,
//! and re-simulated from the recorded answers to verify the recorded result. The game of a
//! replay comes from the [`Registry`] the caller passes: this module knows no game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::engine::{
    Answer, Chance, ClockKind, Ending, Failure, Limits, Outcome, PlayerId, Registry, Reply, SetupError, State, Turn,
};
use crate::files::write_atomic;

/// The `format` field of every replay.
pub const FORMAT: &str = "arena-replay";
/// The replay format version this build writes and reads.
pub const VERSION: u32 = 1;

/// A bot as the replay names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name.
    pub name: String,
    /// The command line it ran with; a league's replays, which are published, record it as
    /// shown ([`crate::tournament::shown`]: `sh bots/alice/bot.sh`, not the teacher's folders).
    pub command: String,
}

/// One player's answer in one step. A crash's [`Ending`] is recorded beside its failure, as
/// `ended` (see [`WireReply`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "WireReply", into = "WireReply")]
pub struct RecordedReply {
    /// The player.
    pub player: PlayerId,
    /// The line, when one arrived: as sent, less the white space around it; an answer its
    /// player played on after, as the game read it ([`crate::engine::State::canonical_answer`];
    /// replays written before 2026-12-05: its words).
    pub answer: Option<String>,
    /// What went wrong instead, when no usable line arrived.
    pub failure: Option<Failure>,
    /// How long the answer took, in milliseconds of wall time.
    pub ms: u64,
    /// CPU time the bot's box used for it (since its previous answer), in milliseconds;
    /// absent when not measured (an answer within 5 ms of the last reading).
    pub cpu_ms: Option<u64>,
    /// The line's length as the bot sent it, when `answer` is shorter (white space trimmed off
    /// around it, between its words made one space, or padding taken out of its numbers).
    pub raw_len: Option<usize>,
    /// For an `extra_output` failure: the line the bot printed that no prompt asked for, found
    /// waiting when it was asked, as evidence (the answer that ended a player's game is kept
    /// so too), when it was text (absent in replays recorded before 2026-12-06).
    pub unasked: Option<String>,
}

/// A [`RecordedReply`] as the file has it: the failure's name, and how a crashed bot's
/// process ended in a field of its own (absent in replays recorded before 2026-12-04).
#[derive(Serialize, Deserialize)]
struct WireReply {
    player: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure: Option<Failure>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ended: Option<Ending>,
    #[serde(default)]
    ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cpu_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    raw_len: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unasked: Option<String>,
}

impl From<WireReply> for RecordedReply {
    fn from(w: WireReply) -> RecordedReply {
        let failure = match w.failure {
            Some(Failure::Crash(_)) => Some(Failure::Crash(w.ended)),
            other => other,
        };
        RecordedReply {
            player: w.player,
            answer: w.answer,
            failure,
            ms: w.ms,
            cpu_ms: w.cpu_ms,
            raw_len: w.raw_len,
            unasked: w.unasked,
        }
    }
}

impl From<RecordedReply> for WireReply {
    fn from(r: RecordedReply) -> WireReply {
        let ended = r.failure.and_then(Failure::ending);
        WireReply {
            player: r.player,
            answer: r.answer,
            failure: r.failure,
            ended,
            ms: r.ms,
            cpu_ms: r.cpu_ms,
            raw_len: r.raw_len,
            unasked: r.unasked,
        }
    }
}

impl RecordedReply {
    /// Records the answer of `player`.
    pub fn new(player: PlayerId, answer: Answer) -> Self {
        let ms = answer.wall.as_millis() as u64;
        let cpu_ms = answer.cpu.map(|c| c.as_millis() as u64);
        let (raw_len, unasked) = (answer.raw_len, answer.unasked);
        let (answer, failure) = match answer.reply {
            Reply::Line(line) => (Some(line), None),
            Reply::Failed(f) => (None, Some(f)),
        };
        RecordedReply { player, answer, failure, ms, cpu_ms, raw_len, unasked }
    }

    /// The reply to feed the game again.
    pub fn reply(&self) -> Reply {
        match (&self.answer, self.failure) {
            (Some(line), _) => Reply::Line(line.clone()),
            (None, Some(f)) => Reply::Failed(f),
            (None, None) => Reply::Failed(Failure::Crash(None)),
        }
    }
}

/// One step of a match: the players' replies (or a chance outcome), then the frame after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Replies of the players asked in this step.
    #[serde(default)]
    pub replies: Vec<RecordedReply>,
    /// The outcome drawn at a chance node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<u64>,
    /// The game's frame after the step.
    pub frame: Value,
}

/// One player's line of the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerResult {
    /// Display name.
    pub name: String,
    /// Final score (0 after a forfeit).
    pub score: i64,
    /// Reached the goal.
    pub finished: bool,
    /// Forfeit reason, or `null`.
    pub forfeit: Option<String>,
    /// What caused the forfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The result of a match: players in order, and the winner's index (`null` for a draw).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct MatchResult {
    /// In player order.
    pub players: Vec<PlayerResult>,
    /// Index of the winner, or `None` for a draw.
    pub winner: Option<PlayerId>,
}

impl MatchResult {
    /// One bot's result (named `bot`), forfeited for a timeout with no score: the tests' replays
    /// of a bot that ran out of time.
    #[cfg(test)]
    pub(crate) fn timed_out() -> MatchResult {
        let me = PlayerResult {
            name: "bot".into(),
            score: 0,
            finished: false,
            forfeit: Some("timeout".into()),
            detail: None,
        };
        MatchResult { players: vec![me], winner: None }
    }

    /// The result from a game's outcome and the players' names.
    pub fn from_outcome(outcome: Outcome, players: &[PlayerInfo]) -> Self {
        MatchResult {
            players: outcome
                .players
                .into_iter()
                .enumerate()
                .map(|(i, o)| PlayerResult {
                    // Games without bot processes name their players themselves.
                    name: players.get(i).map_or_else(|| format!("Player #{}", i + 1), |p| p.name.clone()),
                    score: o.score,
                    finished: o.finished,
                    forfeit: o.forfeit.map(String::from),
                    detail: o.detail,
                })
                .collect(),
            winner: outcome.winner,
        }
    }
}

/// The largest replay read, and written (a 10,000-round duel on a 50x50 map stays far below,
/// and so does the longest Atoms game on a 255x255 board, whose steps record only the cells
/// they changed: under 1 MB).
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;

/// A whole match. See `docs/replay-format.md`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version ([`VERSION`]).
    pub version: u32,
    /// The game's registry name.
    pub game: String,
    /// The match seed (chance nodes; passed to bots as `ARENA_SEED`).
    pub seed: u64,
    /// What re-creates the initial state (the game's own record of its map or parameters).
    pub setup: Value,
    /// The bots, in player order.
    pub players: Vec<PlayerInfo>,
    /// The limits the match ran under.
    pub limits: Limits,
    /// The frame before the first step.
    pub initial: Value,
    /// Every step in order.
    pub steps: Vec<Step>,
    /// Each bot's `ARENA_SEED`, in player order (recorded once the match is over).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_seeds: Vec<u64>,
    /// The final result.
    pub result: MatchResult,
}

/// A replay file that could not be written or read.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// File system error.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not JSON of the replay format.
    #[error("{}: not a valid replay: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Line, column and reason.
        source: serde_json::Error,
    },
    /// A FIFO, a device or a folder: refused at once rather than waited for.
    #[error("{}: not a regular file: not a replay this arena wrote", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Bigger than a replay is read at (this arena writes none larger).
    #[error(
        "{}: larger than {} MiB: this arena reads no replay that large (and writes none)",
        path.display(),
        MAX_REPLAY_BYTES >> 20
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Bytes after the gzip-compressed replay's last member (this arena writes none).
    #[error(
        "{}: {count} trailing bytes after the compressed replay (from byte {at}): not a replay this arena wrote",
        path.display()
    )]
    TrailingBytes {
        /// The file.
        path: PathBuf,
        /// Where they start, in bytes from the start of the file.
        at: u64,
        /// How many there are.
        count: u64,
    },
    /// A replay too large to be read back, not written.
    #[error(
        "{}: not written: the replay would be {} MiB of JSON, more than the {} MiB this arena reads back",
        path.display(),
        bytes.div_ceil(1 << 20),
        MAX_REPLAY_BYTES >> 20
    )]
    TooLargeToWrite {
        /// Where it was to go.
        path: PathBuf,
        /// Its JSON's size.
        bytes: u64,
    },
    /// A format or version this build does not read.
    #[error("{}: unsupported replay format `{format}` version {version} (this arena reads `{FORMAT}` version {VERSION})", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its `format`.
        format: String,
        /// Its `version`.
        version: u32,
    },
}

impl Replay {
    /// What `player` replied at step `step` (1-based, as answer times count), if it was asked.
    pub fn reply(&self, step: usize, player: PlayerId) -> Option<&RecordedReply> {
        self.steps.get(step.checked_sub(1)?)?.replies.iter().find(|r| r.player == player)
    }

    /// A replay with no steps yet.
    pub fn new(game: &str, seed: u64, setup: Value, players: Vec<PlayerInfo>, limits: Limits, initial: Value) -> Self {
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            game: game.to_string(),
            seed,
            setup,
            players,
            limits,
            initial,
            steps: Vec::new(),
            seat_seeds: Vec::new(),
            result: MatchResult::default(),
        }
    }

    /// Writes the replay to a temporary file beside `path`, syncs it and renames it into
    /// place, so `path` is either absent or complete. A path ending in `.gz` gets the JSON
    /// gzip-compressed (about a tenth of the size). A replay of more than [`MAX_REPLAY_BYTES`]
    /// of JSON, which no reader would take, is not written.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        self.save_bytes(path).map(drop)
    }

    /// [`save`](Self::save), returning the bytes written: what a page of the replay embeds,
    /// never read back by path (the file's folder may be one a student's machine writes).
    pub fn save_bytes(&self, path: &Path) -> Result<Vec<u8>, ReplayError> {
        let io = |source| ReplayError::Io { path: path.to_path_buf(), source };
        let json = serde_json::to_vec(self).map_err(|source| ReplayError::Json { path: path.to_path_buf(), source })?;
        if json.len() as u64 > MAX_REPLAY_BYTES {
            return Err(ReplayError::TooLargeToWrite { path: path.to_path_buf(), bytes: json.len() as u64 });
        }
        let bytes = if path.extension().is_some_and(|e| e == "gz") { gzip(&json).map_err(io)? } else { json };
        write_atomic(path, &bytes).map_err(io)?;
        Ok(bytes)
    }

    /// Reads and checks a replay file, plain or gzip-compressed JSON (at most
    /// [`MAX_REPLAY_BYTES`] of JSON).
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        Replay::parse(path, read_json(path)?)
    }

    /// The replay the bytes `raw` of the file at `path` (named in errors) hold, plain or
    /// gzip-compressed JSON: a replay read once, by whoever checked what it read.
    pub fn from_raw(path: &Path, raw: Vec<u8>) -> Result<Replay, ReplayError> {
        Replay::parse(path, unpack(path, raw)?)
    }

    /// The replay the JSON `text` of the file at `path` (named in errors) holds (read by
    /// [`read_json`] or [`unpack`]).
    pub fn from_json(path: &Path, text: Vec<u8>) -> Result<Replay, ReplayError> {
        Replay::parse(path, text)
    }

    /// The replay the JSON `text` of the file at `path` (named in errors) holds.
    fn parse(path: &Path, text: Vec<u8>) -> Result<Replay, ReplayError> {
        let json = |source| ReplayError::Json { path: path.to_path_buf(), source };
        #[derive(Deserialize)]
        struct Head {
            #[serde(default)]
            format: String,
            #[serde(default)]
            version: u32,
        }
        let version = |format: String, version: u32| ReplayError::Version { path: path.to_path_buf(), format, version };
        // (Read whole at once; only a file that is not a replay of this format is read again,
        // for its head alone, to say why: reading the head first read every replay twice.)
        match serde_json::from_slice::<Replay>(&text) {
            Ok(replay) if replay.format == FORMAT && replay.version == VERSION => Ok(replay),
            Ok(replay) => Err(version(replay.format, replay.version)),
            Err(whole) => {
                let head: Head = serde_json::from_slice(&text).map_err(json)?;
                if head.format != FORMAT || head.version != VERSION {
                    return Err(version(head.format, head.version));
                }
                Err(json(whole))
            }
        }
    }

    /// A fresh initial state of this replay's game (found in `games`) and setup.
    pub fn initial_state(&self, games: &Registry) -> Result<Box<dyn State>, SetupError> {
        games.get(&self.game)?.load(&self.setup)
    }
}

/// The JSON text of a replay file: the file itself, or its content unpacked when it is
/// gzip-compressed (told by its first bytes, whatever its name). At most
/// [`MAX_REPLAY_BYTES`] either way, so a small compressed file cannot unpack into a huge one.
/// A FIFO (opening one waited for a writer: `arena merge`, a resume, `arena view` hung) or a
/// device is refused at once.
pub fn read_json(path: &Path) -> Result<Vec<u8>, ReplayError> {
    unpack(path, read_raw(path)?)
}

/// The bytes of the replay file at `path` as they are, compressed or not (at most one more than
/// [`MAX_REPLAY_BYTES`]): what [`read_json`] unpacks ([`unpack`]). A FIFO or a device is refused
/// at once.
pub fn read_raw(path: &Path) -> Result<Vec<u8>, ReplayError> {
    use std::io::Read;
    let io = |source| ReplayError::Io { path: path.to_path_buf(), source };
    let file = crate::files::open_regular(path).map_err(io)?;
    let file = file.ok_or_else(|| ReplayError::NotAFile { path: path.to_path_buf() })?;
    let mut raw = Vec::new();
    file.take(MAX_REPLAY_BYTES + 1).read_to_end(&mut raw).map_err(io)?;
    Ok(raw)
}

/// Whether the replay file whose bytes are `raw` holds more than `limit` bytes of JSON: told
/// by unpacking at most `limit + 1` of them, kept nowhere (false where they cannot be unpacked:
/// [`unpack`] then says why).
pub fn unpacks_beyond(raw: &[u8], limit: u64) -> bool {
    use std::io::Read;
    if !raw.starts_with(&GZIP_MAGIC) {
        return raw.len() as u64 > limit;
    }
    let mut json = flate2::bufread::MultiGzDecoder::new(raw).take(limit + 1);
    std::io::copy(&mut json, &mut std::io::sink()).is_ok_and(|n| n > limit)
}

/// The JSON text of the replay file at `path` (named in errors) whose bytes are `raw`: unpacked
/// when they are gzip-compressed, at most [`MAX_REPLAY_BYTES`] either way.
pub fn unpack(path: &Path, raw: Vec<u8>) -> Result<Vec<u8>, ReplayError> {
    use std::io::Read;
    let io = |source| ReplayError::Io { path: path.to_path_buf(), source };
    let text = if raw.starts_with(&GZIP_MAGIC) {
        // Member by member (as `gzip -d` reads `cat a.gz b.gz`), so that bytes after the last
        // member are told as such: a multi-member decoder took them for a member's header and
        // said "unexpected end of file".
        let mut text = Vec::new();
        let mut rest = raw.as_slice();
        while !rest.is_empty() && text.len() as u64 <= MAX_REPLAY_BYTES {
            if !rest.starts_with(&GZIP_MAGIC) {
                return Err(ReplayError::TrailingBytes {
                    path: path.to_path_buf(),
                    at: (raw.len() - rest.len()) as u64,
                    count: rest.len() as u64,
                });
            }
            let budget = MAX_REPLAY_BYTES + 1 - text.len() as u64;
            let read = flate2::bufread::GzDecoder::new(&mut rest).take(budget).read_to_end(&mut text);
            read.map_err(|e| match e.kind() {
                // (flate2 said only "incomplete deflate stream".)
                std::io::ErrorKind::UnexpectedEof => io(std::io::Error::new(
                    e.kind(),
                    format!(
                        "truncated: the compressed replay ends at byte {} before its end ({e}): a copy cut short, \
                         or a file still being written",
                        raw.len()
                    ),
                )),
                _ => io(e),
            })?;
        }
        text
    } else {
        raw
    };
    if text.len() as u64 > MAX_REPLAY_BYTES {
        return Err(ReplayError::TooLarge { path: path.to_path_buf() });
    }
    Ok(text)
}

/// The first bytes of every gzip file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `bytes` gzip-compressed, at the default level: on a 200-tick duel's replay (83 KB) it
/// takes 1.0 ms for 5419 bytes, where the best level takes 1.8 ms for 5380.
pub(crate) fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write as _;
    let mut encoder =
        flate2::write::GzEncoder::new(Vec::with_capacity(bytes.len() / 8), flate2::Compression::default());
    encoder.write_all(bytes)?;
    encoder.finish()
}

/// The page that shows a replay, beside it: `x.json` or `x.json.gz` gives `x.html`.
pub fn page_path(replay: &str) -> String {
    let stem = replay.strip_suffix(".gz").unwrap_or(replay);
    let stem = stem.strip_suffix(".json").unwrap_or(stem);
    format!("{stem}.html")
}

/// [`page_path`] of a file.
pub fn page_file(replay: &Path) -> PathBuf {
    match replay.file_name().and_then(|n| n.to_str()) {
        Some(name) => replay.with_file_name(page_path(name)),
        None => replay.with_extension("html"),
    }
}

/// Where a re-simulation disagrees with the replay.
#[derive(Debug, Error)]
pub enum Divergence {
    /// The setup does not load.
    #[error("cannot rebuild the game: {0}")]
    Setup(#[from] SetupError),
    /// A frame differs.
    #[error("{at}: `{path}` is recorded as {recorded} but re-simulates to {actual}")]
    Frame {
        /// Which frame (`initial frame` or `step N`).
        at: String,
        /// JSON path of the first difference.
        path: String,
        /// Recorded value.
        recorded: String,
        /// Re-simulated value.
        actual: String,
    },
    /// A step does not fit the game's turn at that point.
    #[error("step {step}: {message}")]
    Step {
        /// 1-based step number.
        step: usize,
        /// What does not fit.
        message: String,
    },
    /// The replay names more or fewer players than its game has bots.
    #[error("`players` names {recorded} bots, but the game of its setup has {expected}")]
    Players {
        /// How many `players` names.
        recorded: usize,
        /// How many bots the game has.
        expected: usize,
    },
    /// The steps stop before the game is over.
    #[error("the replay ends after {steps} steps but the game is not over")]
    Truncated {
        /// Number of steps recorded.
        steps: usize,
    },
    /// The recorded result differs from the re-simulated one.
    #[error("result: `{path}` is recorded as {recorded} but re-simulates to {actual}")]
    Result {
        /// JSON path of the first difference.
        path: String,
        /// Recorded value.
        recorded: String,
        /// Re-simulated value.
        actual: String,
    },
}

/// Replays `replay` (of a game in `games`) step by step, calling `visit(step index, state)`
/// after the initial state (index 0) and after each step, and checks every frame and the
/// result against the record.
pub fn resimulate(replay: &Replay, games: &Registry, visit: impl FnMut(usize, &dyn State)) -> Result<(), Divergence> {
    resimulate_checking(replay, games, false, visit)
}

/// What `arena verify` checks: [`resimulate`], plus every chance outcome drawn again from the
/// seed, every answer's time against the recorded limits, and every line's length against
/// them.
pub fn audit(replay: &Replay, games: &Registry) -> Result<(), Divergence> {
    resimulate_checking(replay, games, true, |_, _| {})?;
    check_times(replay)?;
    check_lengths(replay)
}

/// Whether every line recorded of a bot (an answer, as it was sent, and one it printed unasked)
/// fits the recorded `max_line`: the referee takes no longer one.
fn check_lengths(replay: &Replay) -> Result<(), Divergence> {
    let max = replay.limits.max_line;
    for (i, step) in replay.steps.iter().enumerate() {
        for r in &step.replies {
            let sent = r.answer.as_ref().map(|a| r.raw_len.unwrap_or(a.len()).max(a.len()));
            let unasked = r.unasked.as_ref().map(String::len);
            for (what, len) in [("an answer", sent), ("a line printed unasked", unasked)] {
                if let Some(len) = len.filter(|&len| len > max) {
                    return Err(Divergence::Step {
                        step: i + 1,
                        message: format!(
                            "player {}: {what} of {len} bytes is recorded, but the limit was {max} bytes (`max_line`)",
                            r.player + 1
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Answers' recorded times may be off by this much (milliseconds are rounded down, timers
/// fire a little late).
pub(crate) const TIME_SLACK: Duration = Duration::from_millis(5);

/// Which limit an answer ran under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// The first answer (start-up included).
    FirstAnswer,
    /// A later answer.
    Answer,
    /// What was left of the game's total answer time (less than a normal answer's limit).
    Total,
}

/// One recorded answer's time against the limit it ran under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerTime {
    /// 1-based step number.
    pub step: usize,
    /// The player.
    pub player: PlayerId,
    /// Wall time it took.
    pub wall: Duration,
    /// CPU time of the bot's box, as the referee counted it ([`Answer::counted_cpu`]: none where
    /// it was not read, the next reading counting it).
    pub cpu: Duration,
    /// What counted against the limit (the CPU or the wall time, by the replay's clock).
    pub charged: Duration,
    /// The limit of this answer.
    pub limit: Duration,
    /// Which limit that was.
    pub kind: LimitKind,
    /// The wall time after which the answer ended whatever the CPU time (the limit itself
    /// with the wall clock).
    pub backstop: Duration,
    /// How much more `limit` may be than the referee's, where it is what was left of the
    /// game's total, summed from the player's earlier times: the replay keeps each time in
    /// whole ms, cut down, and the referee summed them exact (up to 1 ms an earlier answer; 0
    /// for a limit that sums nothing).
    pub limit_slack: Duration,
    /// The same for `backstop` (what is left of the game's wall-clock cap, or the CPU limit
    /// left times the backstop factor).
    pub backstop_slack: Duration,
}

/// Every answer's time against its limit, in order: the first answer of each player runs
/// under the start-up limit, later ones under the per-answer limit, each also under what is
/// left of the game's total.
pub fn answer_times(replay: &Replay) -> Vec<AnswerTime> {
    let l = &replay.limits;
    let n = replay.players.len();
    let (mut used, mut answered) = (vec![Duration::ZERO; n], vec![false; n]);
    let mut wall_used = vec![Duration::ZERO; n];
    let mut earlier = vec![0u64; n];
    let factor = l.backstop_factor.max(1);
    let mut out = Vec::new();
    for (i, step) in replay.steps.iter().enumerate() {
        for r in &step.replies {
            let Some(p) = (r.player < n).then_some(r.player) else { continue };
            let per = if answered[p] { l.per_move } else { l.startup };
            let left = l.total.saturating_sub(used[p]);
            let (limit, kind) = match (left < per, answered[p]) {
                (true, _) => (left, LimitKind::Total),
                (false, false) => (per, LimitKind::FirstAnswer),
                (false, true) => (per, LimitKind::Answer),
            };
            let wall = Duration::from_millis(r.ms);
            let cpu = Answer::counted_cpu(r.cpu_ms.map(Duration::from_millis));
            let charged = match l.clock {
                ClockKind::Cpu => cpu,
                ClockKind::Wall => wall,
            };
            let backstop = l.backstop(limit, wall_used[p]);
            // (What rounding may have hidden: what is left of the game's total, and of its
            // wall-clock cap when that is the backstop, are sums of the earlier answers' times.)
            let rounding = Duration::from_millis(earlier[p]);
            let limit_slack = if kind == LimitKind::Total { rounding } else { Duration::ZERO };
            let backstop_slack = match l.clock {
                ClockKind::Wall => limit_slack,
                ClockKind::Cpu => {
                    let capped = backstop < limit.saturating_mul(factor);
                    let cap = if capped { rounding } else { Duration::ZERO };
                    cap.max(limit_slack.saturating_mul(factor))
                }
            };
            out.push(AnswerTime {
                step: i + 1,
                player: p,
                wall,
                cpu,
                charged,
                limit,
                kind,
                backstop,
                limit_slack,
                backstop_slack,
            });
            used[p] += charged;
            wall_used[p] += wall;
            answered[p] = true;
            earlier[p] += 1;
        }
    }
    out
}

/// Whether every answer's recorded time agrees with the limits: an accepted answer within
/// them, a `timeout` past them.
fn check_times(replay: &Replay) -> Result<(), Divergence> {
    for t in answer_times(replay) {
        let Some(r) = replay.reply(t.step, t.player) else { continue };
        let bad = |what: String| Divergence::Step { step: t.step, message: format!("player {}: {what}", t.player + 1) };
        match (&r.answer, r.failure) {
            (Some(_), _) if t.charged > t.limit + TIME_SLACK || t.wall > t.backstop + TIME_SLACK => {
                return Err(bad(format!(
                    "an answer after {} ms ({} ms of CPU) is recorded as accepted, but the limit was {} ms",
                    r.ms,
                    t.cpu.as_millis(),
                    t.limit.as_millis()
                )))
            }
            // (On either clock the monitor ends a bot whose CPU time, counted while it was not
            // asked, passes an answer's limit: a thread burning in the background on the wall
            // clock is recorded after 0 ms, past the limit on the CPU only.)
            (None, Some(Failure::Timeout))
                if t.charged + TIME_SLACK + t.limit_slack < t.limit
                    && t.cpu + TIME_SLACK + t.limit_slack < t.limit
                    && t.wall + TIME_SLACK + t.backstop_slack < t.backstop =>
            {
                return Err(bad(format!(
                    "a timeout after {} ms ({} ms of CPU) is recorded, but the limit was {} ms",
                    r.ms,
                    t.cpu.as_millis(),
                    t.limit.as_millis()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

fn resimulate_checking(
    replay: &Replay,
    games: &Registry,
    chance_from_seed: bool,
    mut visit: impl FnMut(usize, &dyn State),
) -> Result<(), Divergence> {
    let mut dice = Chance::new(replay.seed);
    let mut state = replay.initial_state(games)?;
    if replay.players.len() != state.num_players() {
        return Err(Divergence::Players { recorded: replay.players.len(), expected: state.num_players() });
    }
    compare(&replay.initial, &state.frame()).map_err(|(path, recorded, actual)| Divergence::Frame {
        at: "initial frame".to_string(),
        path,
        recorded,
        actual,
    })?;
    visit(0, &*state);
    for (i, step) in replay.steps.iter().enumerate() {
        let n = i + 1;
        let bad = |message: String| Divergence::Step { step: n, message };
        match (state.turn(), step.chance) {
            (Turn::Terminal, _) => return Err(bad("recorded after the game was over".to_string())),
            (Turn::Chance, Some(_)) if !step.replies.is_empty() => {
                return Err(bad("records replies where chance moves, not a player".to_string()))
            }
            (Turn::Chance, Some(outcome)) => {
                if chance_from_seed {
                    let drawn = dice.draw(&state.chance_outcomes());
                    if drawn != outcome {
                        return Err(bad(format!(
                            "records the chance outcome {outcome}, but the seed {} draws {drawn}",
                            replay.seed
                        )));
                    }
                }
                state.apply_chance(outcome)
            }
            (Turn::Chance, None) => return Err(bad("a chance node has no recorded outcome".to_string())),
            (_, Some(_)) => return Err(bad("records a chance outcome where players move".to_string())),
            (turn, None) => {
                let expected: Vec<PlayerId> = match turn {
                    Turn::Sequential(p) => vec![p],
                    Turn::Simultaneous(ps) => ps,
                    _ => Vec::new(),
                };
                let got: Vec<PlayerId> = step.replies.iter().map(|r| r.player).collect();
                if got != expected {
                    return Err(bad(format!(
                        "replies come from players {got:?}, but players {expected:?} were to move"
                    )));
                }
                let replies: Vec<(PlayerId, Reply)> = step.replies.iter().map(|r| (r.player, r.reply())).collect();
                state.apply(&replies);
            }
        }
        compare(&step.frame, &state.frame()).map_err(|(path, recorded, actual)| Divergence::Frame {
            at: format!("step {n}"),
            path,
            recorded,
            actual,
        })?;
        visit(n, &*state);
    }
    if state.turn() != Turn::Terminal {
        return Err(Divergence::Truncated { steps: replay.steps.len() });
    }
    let actual = MatchResult::from_outcome(state.outcome(), &replay.players);
    let to_json = |r: &MatchResult| serde_json::to_value(r).unwrap_or(Value::Null);
    compare(&to_json(&replay.result), &to_json(&actual)).map_err(|(path, recorded, actual)| Divergence::Result {
        path,
        recorded,
        actual,
    })
}

/// The most characters of a JSON path or value a [`Divergence`] quotes: a replay's values are
/// the file's word (a 5 MB name, an array of 10,000 players), and a message quoting one whole
/// was as long.
const QUOTED_CHARS: usize = 200;

/// The first difference between two JSON values: (path, recorded, actual), each cut to
/// [`QUOTED_CHARS`] characters (`… [N more characters]`).
pub(crate) fn compare(recorded: &Value, actual: &Value) -> Result<(), (String, String, String)> {
    // (Equal parts are passed over before their paths are written: every frame of a replay
    // is compared so, and writing each path was a fifth of a resumed league's checks.)
    fn walk(path: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
        match (a, b) {
            _ if a == b => None,
            (Value::Object(x), Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                keys.into_iter().find_map(|k| {
                    let (p, q) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                    (p != q).then(|| walk(&format!("{path}.{k}"), p, q)).flatten()
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| (p != q).then(|| walk(&format!("{path}[{i}]"), p, q)).flatten()),
            _ => Some((path.to_string(), a.to_string(), b.to_string())),
        }
    }
    let cut = |text: &str| crate::safe_text::shorten(text, QUOTED_CHARS).into_owned();
    match walk("", recorded, actual) {
        None => Ok(()),
        Some((path, a, b)) => Err((cut(path.trim_start_matches('.')), cut(&a), cut(&b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO named like a replay (in a league's `replays/`, or given to `arena view`) is
    /// refused at once, not waited for; the reader is let go by a writer if it waits (the old
    /// defect, the test then failing). The control: a replay written there reads back.
    #[test]
    fn a_fifo_is_no_replay_and_is_not_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("r.json.gz");
        let err = crate::files::tests::fifo_read_error(&fifo, |p| read_json(p).map_err(|e| e.to_string()));
        assert!(err.contains("r.json.gz: not a regular file"), "{err}");
        std::fs::remove_file(&fifo).unwrap();
        std::fs::write(&fifo, b"{}").unwrap();
        assert_eq!(read_json(&fifo).unwrap(), b"{}", "the control");
    }

    /// A compressed replay cut short is said to be truncated, and where it ends (flate2 said
    /// only "incomplete deflate stream"); the control: the whole file reads.
    #[test]
    fn a_truncated_compressed_replay_is_said_to_be() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json.gz");
        let bytes = gzip(format!("{{\"a\":\"{}\"}}", "x".repeat(1000)).as_bytes()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_json(&path).is_ok(), "the control");
        let cut = bytes.len() / 2;
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let err = read_json(&path).unwrap_err().to_string();
        assert!(err.contains(&format!("r.json.gz: truncated: the compressed replay ends at byte {cut}")), "{err}");
    }

    /// Bytes after a compressed replay's gzip stream are told as trailing bytes, where and how
    /// many (the multi-member decoder said "unexpected end of file"); a replay of two gzip
    /// members (`cat a.gz b.gz`, as `gzip -d` reads it) still reads as their concatenation.
    #[test]
    fn trailing_bytes_after_a_compressed_replay_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json.gz");
        let mut bytes = gzip(b"{\"a\":").unwrap();
        bytes.extend(gzip(b"1}").unwrap());
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_json(&path).unwrap(), b"{\"a\":1}", "the control: two members");
        let at = bytes.len() as u64;
        bytes.extend_from_slice(b"\0\0\0junk");
        std::fs::write(&path, &bytes).unwrap();
        let err = read_json(&path).unwrap_err();
        assert!(matches!(err, ReplayError::TrailingBytes { at: a, count: 7, .. } if a == at), "{err:?}");
        let said = Replay::load(&path).unwrap_err().to_string();
        let expected = format!("r.json.gz: 7 trailing bytes after the compressed replay (from byte {at})");
        assert!(said.contains(&expected), "{said}");
    }

    /// A replay of more JSON than a replay is read at is not written (a maximal Atoms duel wrote
    /// 392 MB that `verify`, `view` and `export-save` then refused as "not a replay this arena
    /// wrote"): no file is left, and the error says why. The reader's refusal says what is
    /// true. The control: the same replay a byte under the cap is written and reads back.
    #[test]
    fn a_replay_too_large_to_read_back_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let players = vec![PlayerInfo { name: "bot".into(), command: "./bot".into() }];
        let empty = Replay::new("atoms", 1, Value::Null, players, Limits::default(), Value::Null);
        let base = serde_json::to_vec(&empty).unwrap().len() as u64;
        let sized = |bytes: u64| {
            let filler = "x".repeat(usize::try_from(bytes + 2 - base).unwrap()); // (`null` is 4 bytes, `""` 2)
            Replay { initial: Value::String(filler), ..empty.clone() }
        };
        let big = dir.path().join("big.json");
        let err = sized(MAX_REPLAY_BYTES + 1).save(&big).unwrap_err();
        assert!(matches!(err, ReplayError::TooLargeToWrite { bytes, .. } if bytes == MAX_REPLAY_BYTES + 1), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: not written: the replay would be 65 MiB of JSON, more than the 64 MiB this arena reads back",
                big.display()
            )
        );
        assert!(!big.exists(), "nothing is left");
        let fits = dir.path().join("fits.json");
        let replay = sized(MAX_REPLAY_BYTES);
        replay.save(&fits).unwrap();
        assert_eq!(std::fs::metadata(&fits).unwrap().len(), MAX_REPLAY_BYTES);
        assert_eq!(Replay::load(&fits).unwrap(), replay, "the control reads back");
        // A file larger than that (an older arena's) is refused for what it is.
        let file = std::fs::OpenOptions::new().append(true).open(&fits).unwrap();
        file.set_len(MAX_REPLAY_BYTES + 1).unwrap();
        let err = Replay::load(&fits).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("{}: larger than 64 MiB: this arena reads no replay that large (and writes none)", fits.display())
        );
    }

    /// A crash's ending is recorded beside its failure, as an optional field: replays from
    /// before it read as a crash with no ending, and other failures have none.
    #[test]
    fn a_crash_records_how_the_bot_ended_in_a_field_of_its_own() {
        let crashed = Answer::failed(Failure::Crash(Some(Ending::Signal(libc::SIGSEGV))));
        let recorded = RecordedReply::new(1, crashed);
        let json = serde_json::to_value(&recorded).unwrap();
        assert_eq!(json, serde_json::json!({"player": 1, "failure": "crash", "ended": {"signal": 11}, "ms": 0}));
        let back: RecordedReply = serde_json::from_value(json).unwrap();
        assert_eq!(back, recorded);
        assert_eq!(back.reply(), Reply::Failed(Failure::Crash(Some(Ending::Signal(11)))));
        let old: RecordedReply = serde_json::from_str(r#"{"player": 0, "failure": "crash", "ms": 3}"#).unwrap();
        assert_eq!(old.reply(), Reply::Failed(Failure::Crash(None)));
        let timeout = serde_json::to_value(RecordedReply::new(0, Answer::failed(Failure::Timeout))).unwrap();
        assert_eq!(timeout, serde_json::json!({"player": 0, "failure": "timeout", "ms": 0}));
    }

    /// An answer whose CPU time was not read (a moment after the last reading) counts none, as
    /// the referee counted it: the next reading counts what it used. Thirty such answers of
    /// 4 ms on the clock, then one of 95 ms of CPU time within the game's total of 100 ms, is a
    /// genuine match (counted as their wall time, they had used the total up, and `verify`
    /// refused the last answer, "the limit was 0 ms"). The control: 110 ms is over the total.
    #[test]
    fn an_answer_whose_cpu_time_was_not_read_counts_none() {
        let limits = Limits {
            clock: ClockKind::Cpu,
            total: Duration::from_millis(100),
            backstop_factor: 5,
            ..Limits::default()
        };
        let players = vec![PlayerInfo { name: "bot".into(), command: "./bot".into() }];
        let with_last = |cpu_ms: u64| {
            let mut replay = Replay::new("resource-rush", 1, Value::Null, players.clone(), limits, Value::Null);
            let step = |a: Answer| Step { replies: vec![RecordedReply::new(0, a)], chance: None, frame: Value::Null };
            let quick = Answer { wall: Duration::from_millis(4), ..Answer::untimed(Reply::Line("W".into())) };
            replay.steps = (0..30).map(|_| step(quick.clone())).collect();
            let cpu = Duration::from_millis(cpu_ms);
            replay.steps.push(step(Answer { wall: cpu, cpu: Some(cpu), ..Answer::untimed(Reply::Line("W".into())) }));
            replay
        };
        let genuine = with_last(95);
        let last = *answer_times(&genuine).last().unwrap();
        assert_eq!(
            (last.cpu, last.limit, last.kind),
            (Duration::from_millis(95), Duration::from_millis(100), LimitKind::Total)
        );
        assert_eq!(answer_times(&genuine)[0].cpu, Duration::ZERO);
        assert!(check_times(&genuine).is_ok(), "{:?}", check_times(&genuine).err().map(|e| e.to_string()));
        let err = check_times(&with_last(110)).unwrap_err().to_string();
        assert!(
            err.contains("an answer after 110 ms (110 ms of CPU) is recorded as accepted, but the limit was 100 ms"),
            "{err}"
        );
    }

    /// A replay of `answers` answers of 12.9 ms on the clock and 0.4 ms of CPU time each (kept
    /// as 12 and 0 ms), then a timeout after `last` ms, under the CPU clock, a game's total of
    /// 1000 ms and a backstop of 1 times it: the wall-clock cap is what is left of 1000 ms.
    fn sleeper(answers: usize, last: Duration) -> Replay {
        let limits = Limits {
            clock: ClockKind::Cpu,
            startup: Duration::from_millis(1000),
            per_move: Duration::from_millis(1000),
            total: Duration::from_millis(1000),
            backstop_factor: 1,
            ..Limits::default()
        };
        let players = vec![PlayerInfo { name: "bot".into(), command: "./bot".into() }];
        let mut replay = Replay::new("resource-rush", 1, Value::Null, players, limits, Value::Null);
        let answer = |wall: Duration, reply: Reply| Answer {
            wall,
            cpu: Some(Duration::from_micros(400)),
            ..Answer::untimed(reply)
        };
        let step = |a: Answer| Step { replies: vec![RecordedReply::new(0, a)], chance: None, frame: Value::Null };
        replay.steps =
            (0..answers).map(|_| step(answer(Duration::from_micros(12_900), Reply::Line("W".into())))).collect();
        replay.steps.push(step(answer(last, Reply::Failed(Failure::Timeout))));
        replay.result = MatchResult::timed_out();
        replay
    }

    /// On the wall clock, a bot that answers and then burns CPU in a thread while the others
    /// think is ended by the monitor (its CPU time between answers over an answer's limit),
    /// recorded as a timeout after 0 ms with its CPU time: a genuine match (it failed `verify`,
    /// so every `--resume` played it again and `merge` refused it, the burner's lost matches
    /// kept out of the standings). The control: a timeout after 0 ms with 5 ms of CPU is forged.
    #[test]
    fn a_wall_clock_timeout_for_cpu_burnt_while_not_asked_is_genuine() {
        let limits = Limits { clock: ClockKind::Wall, per_move: Duration::from_millis(1000), ..Limits::default() };
        let players = vec![PlayerInfo { name: "burner".into(), command: "./bot".into() }];
        let ended_with = |cpu_ms: u64| {
            let mut replay = Replay::new("resource-rush", 1, Value::Null, players.clone(), limits, Value::Null);
            let step = |a: Answer| Step { replies: vec![RecordedReply::new(0, a)], chance: None, frame: Value::Null };
            let quick = Answer { wall: Duration::from_millis(3), ..Answer::untimed(Reply::Line("W".into())) };
            let ended = Answer { cpu: Some(Duration::from_millis(cpu_ms)), ..Answer::failed(Failure::Timeout) };
            replay.steps = vec![step(quick), step(ended)];
            replay.result = MatchResult::timed_out();
            replay
        };
        let genuine = ended_with(1007);
        assert!(check_times(&genuine).is_ok(), "{:?}", check_times(&genuine).err().map(|e| e.to_string()));
        let fact = &crate::explain::forfeit_facts(&genuine)[0];
        let why = fact.sentence(&crate::games::resource_rush::INFO.wording, None);
        assert!(why.contains("used 1007 ms of CPU time while it was not asked to answer"), "{why}");
        let err = check_times(&ended_with(5)).unwrap_err().to_string();
        assert!(err.contains("a timeout after 0 ms (5 ms of CPU) is recorded, but the limit was 1000 ms"), "{err}");
    }

    /// A bot that sleeps through 77 answers (993.3 ms on the clock, kept as 924) and is ended
    /// 6.7 ms into the next, at the game's wall-clock cap, recorded as 7 ms: the cap summed from
    /// the kept times is 76 ms, and the timeout was refused as "after 7 ms, but the limit was
    /// 1000 ms" (a genuine match failed `verify`, `view` and a league's check). Rounding's slack
    /// (1 ms an earlier answer) now allows it, and the duel's "Why:" puts it down to the cap;
    /// the control: a timeout after 7 ms with five answers before, far from any cap, is still refused.
    #[test]
    fn a_timeout_at_a_wall_clock_cap_summed_from_rounded_times_is_genuine() {
        let genuine = sleeper(77, Duration::from_micros(7_400));
        let times = answer_times(&genuine);
        let last = times.last().unwrap();
        assert_eq!((last.backstop, last.backstop_slack), (Duration::from_millis(76), Duration::from_millis(77)));
        assert!(last.wall + TIME_SLACK < last.backstop, "the control: without rounding's slack, refused");
        assert!(check_times(&genuine).is_ok(), "{:?}", check_times(&genuine).err().map(|e| e.to_string()));
        let fact = &crate::explain::forfeit_facts(&genuine)[0];
        let why = fact.sentence(&crate::games::resource_rush::INFO.wording, None);
        assert!(why.contains("silent for 7 ms"), "{why}");
        assert!(why.ends_with("after 76 ms on the clock, whatever its CPU time: here, all that was left of the game's time on the clock."), "{why}");
        let forged = sleeper(5, Duration::from_millis(7));
        let err = check_times(&forged).unwrap_err().to_string();
        assert!(err.contains("a timeout after 7 ms (0 ms of CPU) is recorded, but the limit was 1000 ms"), "{err}");
    }
}
