//! Tournament configuration: the TOML file, command-line overrides, and the resolved form
//! recorded in `tournament.json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::TournamentError;
use crate::engine::{GameInfo, LimitChoices};
use crate::referee::Limits;
use crate::sandbox::{SandboxLimits, SandboxMode};

/// The configuration embedded in the binary: the sample bots on `maps/duel.txt`.
pub const DEFAULT_CONFIG: &str = include_str!("default.toml");

/// The [`TournamentConfig::origin`] of the embedded default.
const EMBEDDED_ORIGIN: &str = "<embedded default>";

/// One bot of a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Unique display name.
    pub name: String,
    /// Command line (split like a shell would; no shell is run).
    pub command: String,
    /// Working directory for the bot and its build command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// Shell command run once before the tournament (e.g. `make build`), in the bot's folder
    /// (`cwd`; without one, the config file's folder), in a box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// The submission's files, as globs relative to its folder (default: all of it). The
    /// fingerprint covers them, so a change to any re-runs the bot's matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// Globs of files in the folder that are not part of the submission (besides `.git`,
    /// `__pycache__`, `*.pyc`, `target`, `node_modules` and whatever the build writes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
}

pub use crate::standings::ForfeitRule;

/// Time limits in a config file, in milliseconds; missing ones keep the rulings' defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// First answer.
    pub startup_ms: Option<u64>,
    /// Each later answer.
    pub move_ms: Option<u64>,
    /// Answer time per game.
    pub total_ms: Option<u64>,
    /// Exit grace for a finished bot.
    pub grace_ms: Option<u64>,
    /// Longest accepted answer line, in bytes.
    pub max_line: Option<usize>,
    /// CPU seconds per bot process.
    pub cpu_seconds: Option<u64>,
    /// Memory of each bot's box, in MiB (also each process's address space, where no memory
    /// cgroup limits the box).
    pub memory_mb: Option<u64>,
    /// Largest file a bot may write, in MiB.
    pub file_size_mb: Option<u64>,
    /// Open files per bot process.
    pub open_files: Option<u64>,
    /// Processes per bot (itself and its children).
    pub processes: Option<u64>,
    /// CPUs a bot's box may keep busy at once (0: no cap).
    pub cpus: Option<u64>,
    /// Disk operations a bot's box may start per second on each disk, reads and writes each (0:
    /// no cap).
    pub disk_ops: Option<u64>,
    /// What time limits count: `cpu` (default) or `wall`.
    pub clock: Option<crate::referee::ClockKind>,
    /// With the CPU clock, an answer also ends after this many times its limit in wall time.
    pub backstop_factor: Option<u32>,
    /// Bytes per second of a bot's stderr read once its log is full (0: as fast as it writes).
    pub stderr_rate: Option<u64>,
}

impl LimitsConfig {
    /// The sandbox's resource limits.
    pub fn sandbox_limits(&self) -> SandboxLimits {
        let d = SandboxLimits::default();
        SandboxLimits {
            cpu_seconds: self.cpu_seconds.unwrap_or(d.cpu_seconds),
            memory_mb: self.memory_mb.unwrap_or(d.memory_mb),
            file_size_mb: self.file_size_mb.unwrap_or(d.file_size_mb),
            open_files: self.open_files.unwrap_or(d.open_files),
            processes: self.processes.unwrap_or(d.processes),
            cpus: self.cpus.unwrap_or(d.cpus),
            disk_ops: self.disk_ops.unwrap_or(d.disk_ops),
            ..d
        }
    }

    /// The limits in words, for the run facts (the rarer ones only when not their defaults).
    pub fn describe(&self) -> String {
        let (l, d) = (self.limits(), Limits::default());
        let b = self.sandbox_limits();
        let mut text = format!(
            "first answer {} ms, each answer {} ms, {} ms per game ({} clock), {} s CPU, {} MiB per bot",
            l.startup.as_millis(),
            l.per_move.as_millis(),
            l.total.as_millis(),
            l.clock,
            b.cpu_seconds,
            b.memory_mb
        );
        if l.max_line != d.max_line {
            text.push_str(&format!(", answers up to {} bytes", l.max_line));
        }
        if l.backstop_factor != d.backstop_factor {
            text.push_str(&format!(", wall-clock backstop {} times the limit", l.backstop_factor));
        }
        match l.stderr_rate {
            0 => text.push_str(", stderr read unthrottled"),
            rate if rate != d.stderr_rate => text.push_str(&format!(", stderr read at {rate} bytes/s")),
            _ => {}
        }
        match b.disk_ops {
            0 => text.push_str(", disk unthrottled"),
            ops if ops != SandboxLimits::default().disk_ops => {
                text.push_str(&format!(", {ops} disk operations a second per bot"))
            }
            _ => {}
        }
        text
    }

    /// The first limit set to 0 where 0 would forfeit every bot of every match (no time to
    /// answer, no answer line, no memory, no process, no file: not even its program), by its key.
    pub fn zero_limit(&self) -> Option<&'static str> {
        let limits = [
            ("startup_ms", self.startup_ms),
            ("move_ms", self.move_ms),
            ("total_ms", self.total_ms),
            ("max_line", self.max_line.map(|n| n as u64)),
            ("cpu_seconds", self.cpu_seconds),
            ("memory_mb", self.memory_mb),
            ("open_files", self.open_files),
            ("processes", self.processes),
            ("backstop_factor", self.backstop_factor.map(u64::from)),
        ];
        limits.into_iter().find(|(_, value)| *value == Some(0)).map(|(key, _)| key)
    }

    /// The referee's limits: these choices over the rulings' defaults, as the command line's.
    pub fn limits(&self) -> Limits {
        LimitChoices {
            startup_ms: self.startup_ms,
            move_ms: self.move_ms,
            total_ms: self.total_ms,
            grace_ms: self.grace_ms,
            max_line: self.max_line,
            clock: self.clock,
            backstop_factor: self.backstop_factor,
            stderr_rate: self.stderr_rate,
        }
        .limits()
    }
}

/// A tournament as configured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// The game, by its registry name (left out: the registry's first game, which a run
    /// writes down in `tournament.json`).
    #[serde(default)]
    pub game: String,
    /// The bots.
    #[serde(default)]
    pub bots: Vec<BotEntry>,
    /// The map pool: every pairing plays every map.
    #[serde(default)]
    pub maps: Vec<PathBuf>,
    /// Games per pairing and map, each played from both sides.
    #[serde(default = "one")]
    pub games: u32,
    /// Bots per match (default 2). With more, every group of that many bots meets, once per
    /// rotation of the seats, so that nobody always moves first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The game's parameters, by name, as written (`[params]` with `size = "6x5"` for Atoms,
    /// `rounds = 3` for Tactics): each game declares its own, checked when the league starts.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "param_values")]
    pub params: BTreeMap<String, String>,
    /// `size` and `rounds` at the top level, as configs and league records written before
    /// `[params]` have them: read into `params` (see [`TournamentConfig::fold_legacy`]).
    #[serde(default, skip_serializing, rename = "size")]
    legacy_size: Option<String>,
    #[serde(default, skip_serializing, rename = "rounds")]
    legacy_rounds: Option<u32>,
    /// Base seed: every match's seed derives from it.
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// What the bots' seeds (`ARENA_SEED`) are keyed with, so that no bot can work out its
    /// opponent's. Without it they are keyed with the seed: keep the config private then, or
    /// set this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Time and resource limits.
    #[serde(default)]
    pub limits: LimitsConfig,
    /// How bots are confined: `auto`, `require`, `plain` or `none`.
    #[serde(default)]
    pub sandbox: SandboxMode,
    /// Matches run at once (default: the cores on the CPU clock, cores / players per match on
    /// the wall clock; at least 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<usize>,
    /// Output folder (default: a new folder under `replays/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    /// How forfeits count in wins, draws and losses: `loss` (default) or `score`.
    #[serde(default)]
    pub forfeits: ForfeitRule,
    /// Wall-clock seconds a bot's build may take (default 300); a build that takes longer
    /// failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_timeout_s: Option<u64>,
    /// Disk a bot's builds may fill, in MiB (default 2048): what its folder grows by over the
    /// runs and a build's log together; a build past it is ended and failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_disk_mb: Option<u64>,
    /// Memory a bot's build may hold, all its processes together, in MiB (default
    /// [`crate::sandbox::DEFAULT_BUILD_MEMORY_MB`], 4096): its box's memory cgroup, or without
    /// one each process's address space and the arena's sum of them; a build past it is ended
    /// and failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_memory_mb: Option<u64>,
    /// Disk each bot's kept copies (`versions/<bot>/`) may take in all, in MiB (default
    /// [`DEFAULT_COPIES_MB`]): past it, the copies of its versions that no longer play go, the
    /// least recently seen first (see [`super::versions::limit_copies`]); 0 keeps only the
    /// copies that play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies_mb: Option<u64>,
    /// The folder relative paths were resolved against (the config file's); bots without a
    /// folder build here. Set by the arena, so not a key of config files (nor listed among
    /// them): a league record keeps it beside the keys (see [`recorded`]).
    #[serde(skip)]
    pub base: Option<PathBuf>,
    /// Where the config was read from (its file, `<command line>`, a league's
    /// `tournament.json`, and the flags that changed it), so that
    /// [`TournamentConfig::validate`] says where the fault is. Not a key of the file, nor recorded.
    #[serde(skip)]
    pub origin: Option<PathBuf>,
    /// The config file's line of each bot's name, so that [`TournamentConfig::check_names`]
    /// says where (bots from a league's record or the command line have none). Not recorded.
    #[serde(skip)]
    pub name_lines: Option<NameLines>,
    /// Whether the config file read sets `secret` (a bot that reads its folder reads it): not
    /// a league's record, whose `secret` may be the one the league drew. Not recorded.
    #[serde(skip)]
    pub secret_in_file: bool,
    /// Whether this is the embedded default ([`TournamentConfig::embedded`], flags may have
    /// added bots to it): set by the arena, not a key of config files; a league record keeps it
    /// (see [`recorded`]), so that a resumed quick start is still told apart.
    #[serde(skip)]
    pub embedded: bool,
    /// The config file it was read from (absolute): a league record keeps it (see
    /// [`recorded`]), so that `--resume` without `--config` can say when that file has changed.
    #[serde(skip)]
    pub file: Option<PathBuf>,
}

/// Where a config file writes its bots' names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameLines {
    /// The file.
    pub file: PathBuf,
    /// Each name's line, from 1 (a name given twice is refused as the file is read).
    pub lines: BTreeMap<String, usize>,
}

/// The default limit of a bot's build, in seconds.
pub const DEFAULT_BUILD_TIMEOUT_S: u64 = 300;
/// The default disk a bot's build may fill, in MiB.
pub const DEFAULT_BUILD_DISK_MB: u64 = 2048;

/// The least memory a build may be given, in MiB (`build_memory_mb`): its shell and the processes
/// around it (a plain build's keeper) must fit.
pub const MIN_BUILD_MEMORY_MB: u64 = 16;

/// The default disk one bot's kept copies may take in all, in MiB: four copies of the largest
/// kept ([`super::submission::MAX_SNAPSHOT_BYTES`]). Each push's copy is kept, and a student who
/// pushes often, each version with that much data (a build's output, made anew each time: no
/// growth of its folder, which `build_disk_mb` caps), had filled the teacher's disk over a term.
pub const DEFAULT_COPIES_MB: u64 = 4 * (super::submission::MAX_SNAPSHOT_BYTES >> 20);

/// The most matches a league may schedule. Its schedule is made whole before the first match
/// (and saved in `tournament.json`, a few hundred bytes a match), so a config asking for
/// billions of matches (`games = 4294967295`, or 6 seats among 100 bots: 1.2e9 groups) would
/// fill the memory for ever rather than start; it is refused at once with the count instead.
/// Ten million is days of play even at a millisecond a match, and far above any course's league
/// (300 bots on 10 maps, twice: 1.8 million).
pub const MAX_SCHEDULED_MATCHES: u128 = 10_000_000;

/// How many matches a round robin of `bots` bots schedules (see `schedule::round_robin`): each
/// group of `seats` bots, once per rotation of its seats, on each of `boards` boards, `games`
/// times; `None` past `u128`.
pub fn scheduled_matches(bots: usize, seats: usize, boards: usize, games: u32) -> Option<u128> {
    if seats > bots {
        return Some(0);
    }
    // C(bots, seats), exactly: each step's product is divisible by its `i`.
    let mut groups: u128 = 1;
    for i in 1..=seats as u128 {
        groups = groups.checked_mul(bots as u128 - seats as u128 + i)? / i;
    }
    groups.checked_mul(seats as u128)?.checked_mul(boards as u128)?.checked_mul(u128::from(games))
}

fn one() -> u32 {
    1
}

fn one_u64() -> u64 {
    1
}

/// A parameter's value as a string, whether the file wrote `"6x5"`, `3` or `true`; a whole
/// number too large for TOML's 64 bits is kept as written too, for the game's own check to say
/// its range (it is refused when the league starts, as any value out of the game's range).
fn param_values<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    struct Scalar(String);
    impl<'de> Deserialize<'de> for Scalar {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Text;
            impl serde::de::Visitor<'_> for Text {
                type Value = Scalar;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string, a whole number or a boolean")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
            }
            d.deserialize_any(Text)
        }
    }
    let map = BTreeMap::<String, Scalar>::deserialize(d)?;
    Ok(map.into_iter().map(|(k, Scalar(text))| (k, text)).collect())
}

/// The line of `text` (from 1) that its byte `offset` is on (the end's, past it).
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// What TOML's parser says of a whole number out of its key's range (`invalid type: integer
/// `N` as i128, expected u32`: more than 64 bits; `invalid value: integer `N`, expected u32`),
/// said in the config's terms: the line, the key, the value and the range the key takes.
fn out_of_range(text: &str, error: &toml::de::Error, origin: &Path) -> Option<TournamentError> {
    let message = error.message();
    let rest =
        message.strip_prefix("invalid type: integer `").or_else(|| message.strip_prefix("invalid value: integer `"))?;
    let (value, rest) = rest.split_once('`')?;
    let expected = rest.rsplit_once("expected ")?.1.trim();
    let range = match expected {
        "u8" => format!("0 to {}", u8::MAX),
        "u16" => format!("0 to {}", u16::MAX),
        "u32" => format!("0 to {}", u32::MAX),
        "u64" => format!("0 to {}", u64::MAX),
        "usize" => format!("0 to {}", usize::MAX),
        "i8" => format!("{} to {}", i8::MIN, i8::MAX),
        "i16" => format!("{} to {}", i16::MIN, i16::MAX),
        "i32" => format!("{} to {}", i32::MIN, i32::MAX),
        _ => format!("{} to {} (TOML's whole numbers)", i64::MIN, i64::MAX),
    };
    let start = error.span()?.start.min(text.len());
    let line = line_at(text, start);
    let key = text[..start].rsplit('\n').next().unwrap_or("").split('=').next().unwrap_or("").trim();
    let table =
        text[..start].lines().map(str::trim).rfind(|l| l.starts_with('[')).map(|t| format!("{t} ")).unwrap_or_default();
    // (A key that takes no 0, said with its real least: `build_memory_mb = -1` was said to take
    // "0 to 18446744073709551615", and 0 was then refused for its own reason.)
    let least = match (table.as_str(), key) {
        ("", "build_memory_mb") => Some(MIN_BUILD_MEMORY_MB),
        ("", "build_disk_mb" | "build_timeout_s" | "games") => Some(1),
        _ => None,
    };
    let range = match least.filter(|_| range.starts_with("0 to ")) {
        Some(least) => range.replacen('0', &least.to_string(), 1),
        None => range,
    };
    let key = crate::safe_text::terminal(&format!("{table}{key}"));
    Some(TournamentError::ConfigAt {
        path: origin.to_path_buf(),
        line,
        message: format!("`{key}` = {value} is out of range: it takes a whole number from {range}"),
    })
}

/// A parse error's `message` with, after a misspelt key ("unknown field `gmaes`, expected one
/// of `game`, …"), the key it most likely meant: "unknown field `gmaes` (did you mean
/// `games`?), expected …", as for a game's name ([`crate::engine::closest_name`]). Any other
/// message is kept as it is.
fn did_you_mean(message: &str) -> String {
    const UNKNOWN: &str = "unknown field `";
    let Some(start) = message.find(UNKNOWN).map(|at| at + UNKNOWN.len()) else { return message.to_string() };
    let Some(len) = message[start..].find('`') else { return message.to_string() };
    let (key, rest) = (&message[start..start + len], &message[start + len + 1..]);
    let expected = rest.lines().next().unwrap_or_default();
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    match crate::engine::closest_name(key, &known) {
        Some(meant) => format!("{}` (did you mean `{meant}`?){rest}", &message[..start + len]),
        None => message.to_string(),
    }
}

impl TournamentConfig {
    /// Parses a TOML config; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &Path) -> Result<Self, TournamentError> {
        let mut config: Self = toml::from_str(text).map_err(|e| {
            out_of_range(text, &e, origin).unwrap_or_else(|| TournamentError::Config {
                path: origin.to_path_buf(),
                message: did_you_mean(&e.to_string()),
            })
        })?;
        config.fold_legacy().map_err(|message| TournamentError::Config { path: origin.to_path_buf(), message })?;
        config.name_lines = no_name_twice(text, origin)?;
        no_empty_text(text, origin)?;
        config.origin = Some(origin.to_path_buf());
        config.secret_in_file = config.secret.is_some();
        Ok(config)
    }

    /// Moves the old top-level `size` and `rounds` keys into `params` (an error when both
    /// forms set the same parameter).
    pub fn fold_legacy(&mut self) -> Result<(), String> {
        let legacy = [("size", self.legacy_size.take()), ("rounds", self.legacy_rounds.take().map(|r| r.to_string()))];
        for (name, value) in legacy {
            let Some(value) = value else { continue };
            if self.params.contains_key(name) {
                return Err(format!("`{name}` is set twice: at the top level and in [params]; keep the [params] one"));
            }
            self.params.insert(name.to_string(), value);
        }
        Ok(())
    }

    /// Reads a TOML config file; its relative paths (maps, `out`, bots' `cwd` and the files
    /// their commands name) are taken from the file's own folder. A FIFO, a device or a folder
    /// is refused rather than waited for or read until memory runs out.
    pub fn load(path: &Path) -> Result<Self, TournamentError> {
        let text = crate::files::read_text(path).map_err(|e| match e {
            crate::files::ReadError::Io { source, .. } => TournamentError::io(path, source),
            other => TournamentError::Invalid(other.to_string()),
        })?;
        let mut config = Self::from_toml(&text, path)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        config.resolve_paths(dir);
        config.file = std::path::absolute(path).ok();
        Ok(config)
    }

    /// What `now` (the config file as it reads today) changes in this config (a league's), in a
    /// few words (`maps: +…/fire.txt; bots: -bob, ~carol`), or `None` when nothing a league plays
    /// by differs. A `secret` the league drew, the game a run wrote down, `out` and `jobs` are no
    /// change.
    pub fn changes_in(&self, now: &TournamentConfig) -> Option<String> {
        fn diff<T: PartialEq>(old: &[T], new: &[T], name: impl Fn(&T) -> String) -> Vec<String> {
            let gone = old.iter().filter(|o| !new.contains(o)).map(|o| format!("-{}", name(o)));
            gone.chain(new.iter().filter(|n| !old.contains(n)).map(|n| format!("+{}", name(n)))).collect()
        }
        let mut parts = Vec::new();
        // (Under the config's folder a map is named relative to it, as the file names it.)
        let shown =
            |m: &PathBuf| now.base.as_deref().and_then(|b| m.strip_prefix(b).ok()).unwrap_or(m).display().to_string();
        let maps = diff(&self.maps, &now.maps, shown);
        if !maps.is_empty() {
            parts.push(format!("maps: {}", maps.join(" ")));
        }
        let names = |c: &TournamentConfig| c.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        let mut bots = diff(&names(self), &names(now), String::clone);
        for bot in &now.bots {
            if self.bots.iter().any(|b| b.name == bot.name && b != bot) {
                bots.push(format!("~{}", bot.name));
            }
        }
        if !bots.is_empty() {
            parts.push(format!("bots: {}", bots.join(" ")));
        }
        let rest = |c: &TournamentConfig, secret: bool| {
            let mut value = serde_json::to_value(c).unwrap_or_default();
            if let Some(map) = value.as_object_mut() {
                for key in ["bots", "maps", "out", "jobs"] {
                    map.remove(key);
                }
                if !secret {
                    map.remove("secret");
                }
                if now.game.is_empty() {
                    map.remove("game"); // the first game, which a run writes down
                }
            }
            value
        };
        if rest(self, now.secret_in_file) != rest(now, now.secret_in_file) {
            parts.push("other settings".to_string());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// Makes every relative path absolute against `base` (the config file's folder, or the
    /// current folder for the embedded default and the command line), and records `base`.
    pub fn resolve_paths(&mut self, base: &Path) {
        let base = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
        let at = |p: &Path| if p.is_absolute() { p.to_path_buf() } else { base.join(p) };
        self.maps = self.maps.iter().map(|m| at(m)).collect();
        self.out = self.out.as_deref().map(at);
        for bot in &mut self.bots {
            bot.resolve_paths(&base);
        }
        self.base = Some(base);
    }

    /// `message` as an error of this config, naming its [`origin`](Self::origin) when known.
    pub fn error(&self, message: String) -> TournamentError {
        match &self.origin {
            Some(path) => TournamentError::Config { path: path.clone(), message },
            None => TournamentError::Invalid(message),
        }
    }

    /// What a build may take.
    pub fn build_limits(&self) -> super::build::BuildLimits {
        super::build::BuildLimits {
            timeout: std::time::Duration::from_secs(self.build_timeout_s.unwrap_or(DEFAULT_BUILD_TIMEOUT_S)),
            disk_bytes: self.build_disk_mb.unwrap_or(DEFAULT_BUILD_DISK_MB).saturating_mul(1 << 20),
        }
    }

    /// The memory a build may hold, all its processes together, in MiB (`build_memory_mb`).
    pub fn build_memory_mb(&self) -> u64 {
        self.build_memory_mb.unwrap_or(crate::sandbox::DEFAULT_BUILD_MEMORY_MB)
    }

    /// The disk each bot's kept copies may take in all, in bytes (`copies_mb`).
    pub fn copies_bytes(&self) -> u64 {
        self.copies_mb.unwrap_or(DEFAULT_COPIES_MB).saturating_mul(1 << 20)
    }

    /// The embedded default.
    pub fn embedded() -> Result<Self, TournamentError> {
        let mut config = Self::from_toml(DEFAULT_CONFIG, Path::new(EMBEDDED_ORIGIN))?;
        config.embedded = true;
        Ok(config)
    }

    /// Whether `bot`'s build is one of the embedded default's ([`TournamentConfig::embedded`]),
    /// in a config that is that default (flags may have added bots to it): the arena's own sample
    /// bots, not a student's program, so it may run without a box where none can be made (the
    /// quick start as an ordinary user on Ubuntu 24.04). A bot a flag added is not, nor one a
    /// flag replaced by a sample bot's name and build in another folder: the whole entry is the
    /// default's (its command as written, or resolved against the config's folder).
    pub fn own_build(&self, bot: &BotEntry) -> bool {
        if !self.embedded || bot.build.is_none() {
            return false;
        }
        let Ok(default) = TournamentConfig::embedded() else { return false };
        let resolved = |command: &str| {
            let base = self.base.as_deref()?;
            Some(shell_words::join([base.join(command).display().to_string()]))
        };
        default.bots.iter().any(|own| {
            let command = bot.command == own.command || resolved(&own.command).is_some_and(|c| bot.command == c);
            command && BotEntry { command: own.command.clone(), ..bot.clone() } == *own
        })
    }

    /// Adds `bot`, or replaces the bot of the same name (then no longer the file's: its line is
    /// forgotten).
    pub fn put_bot(&mut self, bot: BotEntry) {
        if let Some(at) = &mut self.name_lines {
            at.lines.remove(&bot.name);
        }
        match self.bots.iter_mut().find(|b| b.name == bot.name) {
            Some(slot) => *slot = bot,
            None => self.bots.push(bot),
        }
    }

    /// Checks what a run needs: at least two bots with unique, non-empty names, games, and
    /// seats that `game` allows and the bots can fill. What fails here can never play a match,
    /// whatever the bots' builds do; the error names the config's [`origin`](Self::origin).
    pub fn validate(&self, game: &GameInfo) -> Result<(), TournamentError> {
        self.validate_recorded(game, &[])
    }

    /// [`validate`](Self::validate) for a league whose record names `recorded` as its maps: an
    /// arena before this one let a game played on its parameters alone (Atoms) record maps, and
    /// its matches' keys are named after them. Those very maps are kept (with a warning: they
    /// are ignored, as they always were): left out, every key would change and the whole term's
    /// results would count no more, the league played again from scratch.
    pub fn validate_recorded(&self, game: &GameInfo, recorded: &[PathBuf]) -> Result<(), TournamentError> {
        let bad = |message: String| Err(self.error(message));
        if !game.bots {
            return bad(format!(
                "{} has no decisions to make (chance plays for every player), so a league has no bots to rank: \
                 play a game with `arena duel --game {} --players N`",
                game.title, game.name
            ));
        }
        if let Err(e) = game.check_map(self.maps.first().map(PathBuf::as_path)) {
            if self.maps.as_slice() != recorded {
                return bad(e.to_string());
            }
            tracing::warn!(
                "{}",
                self.error(format!(
                    "`maps`: {} is played on its parameters alone and ignores them; kept, as an earlier arena \
                     recorded them: the league's matches are named after them",
                    game.title
                ))
            );
        }
        if self.bots.len() < 2 {
            return bad(format!("a tournament needs at least 2 bots, the config has {}", self.bots.len()));
        }
        for (i, bot) in self.bots.iter().enumerate() {
            if bot.name.trim().is_empty() || bot.name.contains(['/', '\\']) {
                return bad(format!("bot {}: name `{}` must be non-empty and contain no slash", i + 1, bot.name));
            }
            if self.bots[..i].iter().any(|b| b.name == bot.name) {
                return bad(format!("bot name `{}` is used twice", crate::safe_text::terminal(&bot.name)));
            }
            if bot.command.trim().is_empty() {
                return bad(format!("bot `{}` has an empty command", bot.name));
            }
            // What the bot's build and matches would find only when run (the bot then "cannot
            // play", the league run on without it, exit 0) is refused here, naming the entry.
            let name = crate::safe_text::terminal(&bot.name);
            let command = crate::safe_text::terminal_cut(&bot.command, 200);
            match shell_words::split(&bot.command) {
                Err(e) => {
                    return Err(self.bot_error(
                        &bot.name,
                        format!(
                            "bot `{name}`: `command = {command:?}` cannot be split into words as a shell would ({e}): \
                             close the quote, or escape a lone quote with a backslash (`\\\\'` in the TOML string)"
                        ),
                    ))
                }
                Ok(words) if words.first().is_none_or(String::is_empty) => {
                    return Err(self.bot_error(
                        &bot.name,
                        format!("bot `{name}`: `command = {command:?}` names no program to run"),
                    ))
                }
                Ok(_) => {}
            }
            if let Some(build) = bot.build.as_deref().filter(|b| b.trim().is_empty()) {
                return Err(self.bot_error(
                    &bot.name,
                    format!(
                        "bot `{name}`: `build = {build:?}` builds nothing (a box started to run no command): name \
                         the command that builds the bot (`make`), or leave `build` out for a bot with nothing to build"
                    ),
                ));
            }
            if let Err(e) = super::submission::check_globs(bot) {
                let e = crate::safe_text::terminal(&e.to_string());
                return Err(self.bot_error(&bot.name, format!("{e}: fix the glob (`*`, `?`, `[abc]`, `{{a,b}}`)")));
            }
        }
        if self.build_timeout_s == Some(0) {
            return bad(format!(
                "`build_timeout_s = 0` would fail every bot's build at once (\"timed out after 0 s\"): give it at \
                 least 1, or leave it out for its default ({DEFAULT_BUILD_TIMEOUT_S})"
            ));
        }
        if self.build_disk_mb == Some(0) {
            return bad(format!(
                "`build_disk_mb = 0` leaves the bots' builds no disk: a build that writes anything (its log \
                 included) is ended and failed: give it at least 1, or leave it out for its default \
                 ({DEFAULT_BUILD_DISK_MB})"
            ));
        }
        if let Some(mb) = self.build_memory_mb.filter(|&mb| mb < MIN_BUILD_MEMORY_MB) {
            return bad(format!(
                "`build_memory_mb = {mb}` leaves the bots' builds too little memory to start a shell (each \
                 build runs `sh -c BUILD`): give it at least {MIN_BUILD_MEMORY_MB}, or leave it out for its \
                 default ({})",
                crate::sandbox::DEFAULT_BUILD_MEMORY_MB
            ));
        }
        if self.games == 0 {
            return bad("`games` must be at least 1".to_string());
        }
        if let Some(key) = self.limits.zero_limit() {
            return bad(format!(
                "[limits] `{key} = 0` would forfeit every bot of every match: give it at least 1, or leave it out \
                 for its default"
            ));
        }
        if self.jobs == Some(0) {
            return bad("`jobs` must be at least 1 (leave it out for one match per core)".to_string());
        }
        let seats = self.seats();
        if seats < 2 {
            return bad(format!("`seats = {seats}`: a match needs at least 2 bots"));
        }
        if let Err(e) = game.player_count(Some(seats)) {
            return bad(format!("`seats = {seats}`: {e}"));
        }
        if seats > self.bots.len() {
            let names: Vec<String> = self.bots.iter().map(|b| crate::safe_text::terminal(&b.name)).collect();
            return bad(format!(
                "`seats = {seats}` needs at least {seats} bots, the config has {} ({})",
                self.bots.len(),
                names.join(", ")
            ));
        }
        let boards = self.boards().len();
        let matches = scheduled_matches(self.bots.len(), seats, boards, self.games);
        if matches.is_none_or(|n| n > MAX_SCHEDULED_MATCHES) {
            let count = matches.map_or_else(|| "more than 2^128".to_string(), |n| n.to_string());
            return bad(format!(
                "{count} matches to schedule ({} bots, {seats} per match, {boards} map(s), `games = {}`): at most \
                 {MAX_SCHEDULED_MATCHES} can be scheduled: lower `games`, the maps or the bots per match",
                self.bots.len(),
                self.games
            ));
        }
        Ok(())
    }

    /// Refuses a bot name that starts or ends with a space, or looks like another's (see
    /// [`look`]), so that one student cannot pass for another; where every name involved is in
    /// `known` (a league's bots from before this rule), it only warns, as renaming a bot would
    /// start it afresh.
    pub fn check_names(&self, known: &[&str]) -> Result<(), TournamentError> {
        let shown = |name: &str| crate::safe_text::terminal(name);
        let refuse = |names: &[&str], message: String| {
            if names.iter().any(|n| !known.contains(n)) {
                return Err(TournamentError::Invalid(message));
            }
            tracing::warn!("{message} (kept: the league had them already)");
            Ok(())
        };
        for (i, bot) in self.bots.iter().enumerate() {
            if bot.name.trim() != bot.name {
                refuse(&[&bot.name], format!("bot name `{}` starts or ends with a space", shown(&bot.name)))
                    .map_err(|e| self.at_name(&bot.name, e))?;
            }
            if let Some(twin) = self.bots[..i].iter().find(|b| look(&b.name) == look(&bot.name)) {
                let first = self.line_of(&twin.name).map_or(String::new(), |line| format!(" (line {line})"));
                refuse(
                    &[&twin.name, &bot.name],
                    format!(
                        "bot names `{}`{first} and `{}` look alike (they differ only in case, invisible characters \
                         or how Unicode writes a letter): one student could pass for the other; rename one",
                        shown(&twin.name),
                        shown(&bot.name)
                    ),
                )
                .map_err(|e| self.at_name(&bot.name, e))?;
            }
        }
        Ok(())
    }

    /// `message` about the bot named `name` as an error at the config file's line of its name,
    /// when the file wrote it; else as [`error`](Self::error) says it (a record, the command line).
    fn bot_error(&self, name: &str, message: String) -> TournamentError {
        match (&self.name_lines, self.line_of(name)) {
            (Some(at), Some(line)) => TournamentError::ConfigAt { path: at.file.clone(), line, message },
            _ => self.error(message),
        }
    }

    /// The config file's line of the bot named `name`, if the file wrote it.
    fn line_of(&self, name: &str) -> Option<usize> {
        self.name_lines.as_ref()?.lines.get(name).copied()
    }

    /// `e` (an [`TournamentError::Invalid`] about the bot named `name`) at the config file's
    /// line of that name, when the file wrote it: as a name given twice is reported.
    fn at_name(&self, name: &str, e: TournamentError) -> TournamentError {
        match (e, &self.name_lines, self.line_of(name)) {
            (TournamentError::Invalid(message), Some(at), Some(line)) => {
                TournamentError::ConfigAt { path: at.file.clone(), line, message }
            }
            (e, ..) => e,
        }
    }

    /// Bots per match.
    pub fn seats(&self) -> usize {
        self.seats.unwrap_or(2)
    }

    /// What each match is played on: the map files, or one plain board for games without maps,
    /// named for the parameters' values (`board-6x5`; `board-default` without any).
    pub fn boards(&self) -> Vec<PathBuf> {
        if self.maps.is_empty() {
            let values: Vec<&str> = self.params.values().map(String::as_str).collect();
            let name = if values.is_empty() { "default".to_string() } else { values.join("-") };
            vec![PathBuf::from(format!("board-{name}"))]
        } else {
            self.maps.clone()
        }
    }

    /// The options of a match on `board` (one of [`TournamentConfig::boards`]).
    pub fn match_options(&self, board: &Path, text: Option<std::sync::Arc<str>>) -> crate::engine::MatchOptions {
        crate::engine::MatchOptions {
            map: (!self.maps.is_empty()).then(|| board.to_path_buf()),
            text,
            players: Some(self.seats()),
            params: self.params.clone(),
        }
    }
}

/// A [`TournamentConfig`] as a league record (`tournament.json`) keeps it: the keys of a config
/// file, `base` and `embedded` (when true), which files may not set (use with
/// `#[serde(with = "recorded")]`).
pub mod recorded {
    use std::borrow::Borrow;
    use std::path::PathBuf;

    use serde::{de::Error as _, ser::Error as _, Deserialize, Deserializer, Serialize, Serializer};

    use super::TournamentConfig;

    /// Writes `config`'s keys, its `base`, whether it is the embedded default and its file.
    pub fn serialize<S: Serializer, C: Borrow<TournamentConfig>>(config: &C, s: S) -> Result<S::Ok, S::Error> {
        let config = config.borrow();
        let mut value = serde_json::to_value(config).map_err(S::Error::custom)?;
        if let Some(map) = value.as_object_mut() {
            if let Some(base) = &config.base {
                map.insert("base".to_string(), serde_json::to_value(base).map_err(S::Error::custom)?);
            }
            if config.embedded {
                map.insert("embedded".to_string(), true.into());
            }
            if let Some(file) = &config.file {
                map.insert("file".to_string(), serde_json::to_value(file).map_err(S::Error::custom)?);
            }
        }
        value.serialize(s)
    }

    /// Reads what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TournamentConfig, D::Error> {
        let mut value = serde_json::Value::deserialize(d)?;
        let base = match value.as_object_mut().and_then(|map| map.remove("base")) {
            Some(base) => Option::<PathBuf>::deserialize(base).map_err(D::Error::custom)?,
            None => None,
        };
        let embedded = match value.as_object_mut().and_then(|map| map.remove("embedded")) {
            Some(embedded) => bool::deserialize(embedded).map_err(D::Error::custom)?,
            None => false,
        };
        let file = match value.as_object_mut().and_then(|map| map.remove("file")) {
            Some(file) => Option::<PathBuf>::deserialize(file).map_err(D::Error::custom)?,
            None => None,
        };
        let mut config = TournamentConfig::deserialize(value).map_err(D::Error::custom)?;
        (config.base, config.embedded, config.file) = (base, embedded, file);
        Ok(config)
    }
}

/// Refuses a config text that gives one bot name twice, naming the line of the second
/// `name` and the first's: [`TournamentConfig::validate`] sees only the parsed bots, not where.
/// Returns each name's line (none when the text does not parse: the real parse says why).
fn no_name_twice(text: &str, origin: &Path) -> Result<Option<NameLines>, TournamentError> {
    /// The bots' names with where they are written; every other key is left to the real parse.
    #[derive(Deserialize)]
    struct Names {
        #[serde(default)]
        bots: Vec<NameAt>,
    }
    #[derive(Deserialize)]
    struct NameAt {
        name: toml::Spanned<String>,
    }
    let Ok(names) = toml::from_str::<Names>(text) else { return Ok(None) };
    let line = |name: &toml::Spanned<String>| line_at(text, name.span().start);
    for (i, bot) in names.bots.iter().enumerate() {
        if let Some(first) = names.bots[..i].iter().find(|b| b.name.get_ref() == bot.name.get_ref()) {
            return Err(TournamentError::ConfigAt {
                path: origin.to_path_buf(),
                line: line(&bot.name),
                message: format!(
                    "bot name `{}` is used twice (first at line {}): give each bot its own name",
                    crate::safe_text::terminal(bot.name.get_ref()),
                    line(&first.name)
                ),
            });
        }
    }
    let lines = names.bots.iter().map(|b| (b.name.get_ref().clone(), line(&b.name))).collect();
    Ok(Some(NameLines { file: origin.to_path_buf(), lines }))
}

/// Refuses `out = ""` (or `.`, `sub/..`), `secret = ""` and a bot's `cwd = ""` (or `.`, `sub/..`), naming the
/// line. An empty `out` is the config file's own folder once paths are resolved (the league was written among the
/// config and the bots' folders); an empty `secret` keys the bots' seeds with nothing a bot
/// could not know, so one bot could work out another's `ARENA_SEED` from the published seeds and
/// the roster, which the secret is there to prevent (left out, the league draws one); an empty
/// `cwd` makes the config's own folder the bot's, its submission every other bot's files and
/// the league's, and its build run among them.
fn no_empty_text(text: &str, origin: &Path) -> Result<(), TournamentError> {
    /// The keys with where they are written; every other key is left to the real parse.
    #[derive(Deserialize)]
    struct Keys {
        out: Option<toml::Spanned<String>>,
        secret: Option<toml::Spanned<String>>,
        #[serde(default)]
        bots: Vec<BotKeys>,
    }
    /// A bot's name and folder.
    #[derive(Deserialize)]
    struct BotKeys {
        name: Option<String>,
        cwd: Option<toml::Spanned<String>>,
    }
    let Ok(keys) = toml::from_str::<Keys>(text) else { return Ok(()) };
    let empty = |value: &Option<toml::Spanned<String>>| {
        value.as_ref().filter(|v| v.get_ref().is_empty()).map(|v| line_at(text, v.span().start))
    };
    let refuse = |line: usize, message: &str| {
        Err(TournamentError::ConfigAt { path: origin.to_path_buf(), line, message: message.to_string() })
    };
    if let Some(out) = keys.out.as_ref().filter(|o| names_its_own_folder(o.get_ref())) {
        let line = line_at(text, out.span().start);
        let is = if out.get_ref().is_empty() { "is empty".to_string() } else { format!("is `{}`", out.get_ref()) };
        return refuse(
            line,
            &format!(
                "`out` {is}: that is this file's own folder, which holds the config, the maps and the bots' folders, \
                 the league written among them: name the league's folder (relative to this file's folder), or leave \
                 `out` out for a new folder under replays/"
            ),
        );
    }
    for bot in &keys.bots {
        let here = bot.cwd.as_ref().filter(|c| names_its_own_folder(c.get_ref()));
        if let Some(cwd) = here {
            let line = line_at(text, cwd.span().start);
            let name = bot.name.as_deref().map_or(String::new(), |n| format!(" of bot `{n}`"));
            let is = if cwd.get_ref().is_empty() { "is empty".to_string() } else { format!("is `{}`", cwd.get_ref()) };
            return refuse(
                line,
                &format!(
                    "`cwd`{name} {is}: that is this file's own folder, which holds every bot's folder (and the \
                     league's), all of it taken for this bot's submission: name the bot's folder (relative to this \
                     file's folder), or leave `cwd` out to run its command from this file's folder"
                ),
            );
        }
    }
    if let Some(line) = empty(&keys.secret) {
        return refuse(
            line,
            "`secret` is empty: it keys the bots' seeds (ARENA_SEED) so that no bot can work out another's, and an \
             empty key keeps nothing secret: set one (text no student can guess), or leave `secret` out for one the \
             league draws and keeps in its tournament.json",
        );
    }
    Ok(())
}

/// Whether a bot's `cwd` (or `out`) names the folder it is relative to itself (`""`, `.`, `./`, `sub/..`),
/// by its words alone.
fn names_its_own_folder(cwd: &str) -> bool {
    use std::path::Component;
    let mut depth = 0usize;
    for part in Path::new(cwd).components() {
        match part {
            Component::CurDir => {}
            Component::Normal(_) => depth += 1,
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => return false,
        }
    }
    depth == 0
}

impl BotEntry {
    /// Makes the bot's folder absolute against `base`; without a folder, also each word of its
    /// command that names a file relative to `base`.
    pub fn resolve_paths(&mut self, base: &Path) {
        match &self.cwd {
            Some(dir) if dir.is_relative() => self.cwd = Some(base.join(dir)),
            Some(_) => {}
            None => {
                let Ok(words) = shell_words::split(&self.command) else { return };
                let mut changed = false;
                let words: Vec<String> = words
                    .into_iter()
                    .map(|w| {
                        let p = Path::new(&w);
                        if p.is_relative() && !w.starts_with('-') && base.join(p).is_file() {
                            changed = true;
                            base.join(p).display().to_string()
                        } else {
                            w
                        }
                    })
                    .collect();
                if changed {
                    self.command = shell_words::join(words);
                }
            }
        }
    }
}

/// Parses `--bot`: `NAME=CMD`, or a whole entry as a TOML inline table with the keys of a config
/// file's `[[bots]]` (`{name = "carol", cwd = "carol", build = "make", command = "./bot"}`).
pub fn parse_bot_arg(arg: &str) -> Result<BotEntry, String> {
    if arg.trim_start().starts_with('{') {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct One {
            bot: BotEntry,
        }
        let one: One = toml::from_str(&format!("bot = {arg}")).map_err(|e| {
            let hint = "a bot entry is {name = \"…\", command = \"…\"} with optional cwd, build, files and ignore";
            format!("`{arg}` is not a bot entry: {} ({hint})", did_you_mean(e.message().trim()))
        })?;
        let mut bot = one.bot;
        (bot.name, bot.command) = (bot.name.trim().to_string(), bot.command.trim().to_string());
        if bot.name.is_empty() || bot.command.is_empty() {
            return Err(format!("`{arg}`: a bot needs a name and a command"));
        }
        // As in a config file ([`no_empty_text`]): the current folder, taken whole as its submission.
        if bot.cwd.as_ref().and_then(|c| c.to_str()).is_some_and(names_its_own_folder) {
            return Err(format!(
                "`{arg}`: `cwd` names the current folder, all of it taken for this bot's submission: name the bot's \
                 folder, or leave `cwd` out to run its command from here"
            ));
        }
        return Ok(bot);
    }
    match arg.split_once('=') {
        Some((name, command)) if !name.trim().is_empty() && !command.trim().is_empty() => Ok(BotEntry {
            name: name.trim().to_string(),
            command: command.trim().to_string(),
            cwd: None,
            build: None,
            files: Vec::new(),
            ignore: Vec::new(),
        }),
        _ => Err(format!("expected NAME=COMMAND, found `{arg}`")),
    }
}

/// What a bot's name looks like to a reader: its letters in one Unicode form (NFKC), in lower
/// case, without the characters a page shows as escapes or not at all, then as Unicode's
/// confusables skeleton (UTS #39: Cyrillic `е` as Latin `e`, `1` and `I` as `l`). Two names
/// that look alike cannot both play (`Alice` and `alice`, `café` written two ways, `greedy`
/// and `greedy` with an invisible letter after it or a Cyrillic `е` in it).
fn look(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let letters: String =
        name.nfkc().flat_map(char::to_lowercase).filter(|&c| !crate::safe_text::is_unsafe(c)).collect();
    unicode_security::confusable_detection::skeleton(&letters).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A config file that is no plain file of at most [`crate::files::MAX_MAP_BYTES`] is
    /// refused at once: `--config` naming a FIFO waited for a writer forever, and `/dev/zero`
    /// was read until memory ran out. The FIFO's reader is let go by a writer if it waits (the
    /// old defect, the test then failing); the control: the same text within the cap loads.
    #[test]
    fn a_config_that_is_no_small_plain_file_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.toml");
        let err = crate::files::tests::fifo_read_error(&fifo, |p| TournamentConfig::load(p).map_err(|e| e.to_string()));
        assert!(err.contains("not a regular file"), "{err}");

        let line = format!("# {}\n", "x".repeat(1021));
        let within = format!("maps = [\"m.txt\"]\n{}", line.repeat(1000));
        let small = dir.path().join("small.toml");
        std::fs::write(&small, &within).unwrap();
        TournamentConfig::load(&small).expect("the control: a config within the cap loads");
        let large = dir.path().join("large.toml");
        std::fs::write(&large, format!("{within}{}", line.repeat(30))).unwrap();
        let err = TournamentConfig::load(&large).expect_err("over the cap").to_string();
        assert!(err.contains("large.toml: larger than 1024 KiB"), "{err}");
    }

    /// `out = ""` (or `.`, `league/..`) and `secret = ""` are refused naming the key and its line: an
    /// empty `out` ran the league in the config's own folder, an empty `secret` keyed the bots' seeds with
    /// nothing. The control: the same keys with a value are read.
    #[test]
    fn an_empty_out_or_secret_is_refused() {
        let read =
            |extra: &str| TournamentConfig::from_toml(&format!("maps = [\"m.txt\"]\n{extra}"), Path::new("c.toml"));
        let c = read("out = \"league\"\nsecret = \"s\"\n").unwrap();
        assert_eq!((c.out.as_deref(), c.secret.as_deref()), (Some(Path::new("league")), Some("s")), "the control");
        let err = read("seed = 2\nout = \"\"\n").unwrap_err().to_string();
        assert!(err.starts_with("c.toml:3: `out` is empty: that is this file's own folder"), "{err}");
        // Any other way to name the same folder, by its words (`.` was accepted: the league was
        // written among the config, its maps and the bots' folders).
        for here in [".", "./", "league/..", "./a/../."] {
            let err = read(&format!("out = {here:?}\n")).unwrap_err().to_string();
            assert!(err.starts_with(&format!("c.toml:2: `out` is `{here}`: that is this file's own folder")), "{err}");
        }
        for elsewhere in ["league/../other", "../league", "/srv/league", "a/./b"] {
            assert!(read(&format!("out = {elsewhere:?}\n")).is_ok(), "the control: {elsewhere}");
        }
        let err = read("secret = \"\"\n").unwrap_err().to_string();
        assert!(err.starts_with("c.toml:2: `secret` is empty: it keys the bots' seeds"), "{err}");
    }

    /// A bot's `cwd = ""` (or `.`, `bob/..`) is refused naming the bot, the key and its line: it
    /// made the config's own folder the bot's (every other bot's files and the league's its
    /// submission). The controls: other folders are read, and a bot without `cwd` is read.
    #[test]
    fn an_empty_cwd_is_refused() {
        let bots = |cwd: &str| {
            let text = format!(
                "maps = [\"m.txt\"]\n[[bots]]\nname = \"ann\"\ncommand = \"./bot\"\n[[bots]]\nname = \"bob\"\n\
                 command = \"./bot\"\n{cwd}"
            );
            TournamentConfig::from_toml(&text, Path::new("c.toml"))
        };
        let err = bots("cwd = \"\"\n").unwrap_err().to_string();
        assert!(err.starts_with("c.toml:8: `cwd` of bot `bob` is empty: that is this file's own folder"), "{err}");
        // Any other way to name the same folder, by its words.
        for here in [".", "./", "bob/..", "./bob/../."] {
            let err = bots(&format!("cwd = {here:?}\n")).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("c.toml:8: `cwd` of bot `bob` is `{here}`: that is this file's own")),
                "{err}"
            );
        }
        let named = bots("cwd = \"bob\"\n").unwrap();
        assert_eq!(named.bots[1].cwd.as_deref(), Some(Path::new("bob")), "the control");
        for elsewhere in ["bob/../carol", "../bob", "/srv/bob"] {
            assert!(bots(&format!("cwd = {elsewhere:?}\n")).is_ok(), "the control: {elsewhere}");
        }
        assert_eq!(bots("").unwrap().bots[1].cwd, None, "the control: no cwd");
        let err = TournamentConfig::from_toml(
            "maps = [\"m.txt\"]\nbots = [{name = \"ann\", command = \"./bot\", cwd = \"\"}]\n",
            Path::new("c.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("c.toml:2: `cwd` of bot `ann` is empty"), "an inline table too: {err}");
    }

    /// What a bot's entry or the builds' settings hold that could never run is refused when the
    /// config is checked, naming the file, the bot's line and what is wrong: a command a shell
    /// could not split, a `files` or `ignore` glob that does not compile, `build = ""`,
    /// `build_timeout_s = 0`, `build_disk_mb = 0`.
    /// (Each was found only when the league ran: the bot "cannot play", every build "timed out
    /// after 0 s", the run ended with exit 0.) The controls: the same entries written right pass.
    #[test]
    fn a_bot_entry_that_could_never_run_is_refused_naming_it() {
        let check = |bob: &str, extra: &str| {
            let text = format!(
                "maps = [\"m.txt\"]\n{extra}[[bots]]\nname = \"ann\"\ncommand = \"./bot\"\n[[bots]]\nname = \"bob\"\n{bob}"
            );
            let config = TournamentConfig::from_toml(&text, Path::new("c.toml")).unwrap();
            config.validate(game_of(&config)).map_err(|e| e.to_string())
        };
        for (bob, says) in [
            (
                "command = \"./waiter 'unterminated\"\n",
                "c.toml:6: bot `bob`: `command = \"./waiter 'unterminated\"` cannot be split into words as a shell would",
            ),
            ("command = \"''\"\n", "c.toml:6: bot `bob`: `command = \"''\"` names no program to run"),
            (
                "command = \"./bot\"\nfiles = [\"src/*.py\", \"[\"]\n",
                "c.toml:6: bot `bob`: files `[`: error parsing glob '[': unclosed character class",
            ),
            ("command = \"./bot\"\nignore = [\"a{b\"]\n", "c.toml:6: bot `bob`: ignore `a{b`: error parsing glob"),
        ] {
            let err = check(bob, "").expect_err(bob);
            assert!(err.starts_with(says), "{bob}: {err}");
        }
        for bob in [
            "command = \"./waiter 'a quoted word'\"\n",
            "command = \"./bot\"\nfiles = [\"src/*.py\", \"[ab].txt\", \"{a,b}/**\"]\nignore = [\"*.log\"]\n",
        ] {
            assert_eq!(check(bob, ""), Ok(()), "the control: {bob}");
        }
        let err = check("command = \"./bot\"\n", "build_timeout_s = 0\n").unwrap_err();
        assert!(err.starts_with("c.toml: `build_timeout_s = 0` would fail every bot's build at once"), "{err}");
        assert_eq!(check("command = \"./bot\"\n", "build_timeout_s = 1\n"), Ok(()), "the control");
        let err = check("command = \"./bot\"\n", "build_disk_mb = 0\n").unwrap_err();
        assert!(err.starts_with("c.toml: `build_disk_mb = 0` leaves the bots' builds no disk"), "{err}");
        assert_eq!(check("command = \"./bot\"\n", "build_disk_mb = 1\n"), Ok(()), "the control");
        for mb in [0, 15] {
            let err = check("command = \"./bot\"\n", &format!("build_memory_mb = {mb}\n")).unwrap_err();
            let says = format!("c.toml: `build_memory_mb = {mb}` leaves the bots' builds too little memory");
            assert!(err.starts_with(&says) && err.contains("at least 16"), "{err}");
        }
        assert_eq!(check("command = \"./bot\"\n", "build_memory_mb = 16\n"), Ok(()), "the control");
        for build in ["\"\"", "\"  \""] {
            let err = check(&format!("command = \"./bot\"\nbuild = {build}\n"), "").unwrap_err();
            let says = format!("c.toml:6: bot `bob`: `build = {build}` builds nothing");
            assert!(err.starts_with(&says), "{err}");
        }
        assert_eq!(check("command = \"./bot\"\nbuild = \"make\"\n", ""), Ok(()), "the control");
        // A bot the command line gave (no line to name) is named by its config's origin.
        let mut config = TournamentConfig::from_toml("maps = [\"m.txt\"]\n", Path::new("<command line>")).unwrap();
        for (name, command) in [("ann", "./bot"), ("bob", "./bot \"open")] {
            config.put_bot(BotEntry { name: name.into(), command: command.into(), ..parse_bot_arg("x=./x").unwrap() });
        }
        let err = config.validate(game_of(&config)).unwrap_err().to_string();
        assert!(err.starts_with("<command line>: bot `bob`: `command = "), "{err}");
    }

    /// A config file's `secret` is the file's (a bot reading its folder reads it); the same
    /// secret read back from a league's record is not (the league may have drawn it: a kit's
    /// resumed league warned its bot read the config's secret, which the file did not hold).
    /// The control: a file without one has none.
    #[test]
    fn a_secret_is_the_config_file_s_only_when_the_file_sets_it() {
        let with = TournamentConfig::from_toml("maps = [\"m.txt\"]\nsecret = \"s\"\n", Path::new("c.toml")).unwrap();
        assert!(with.secret_in_file);
        let without = TournamentConfig::from_toml("maps = [\"m.txt\"]\n", Path::new("c.toml")).unwrap();
        assert!(!without.secret_in_file, "the control");
        let written = serde_json::to_value(RecordedConfig(&with)).unwrap();
        let read: TournamentConfig = recorded::deserialize(written).unwrap();
        assert_eq!(read.secret.as_deref(), Some("s"));
        assert!(!read.secret_in_file, "a record's secret is no file's");
    }

    /// [`recorded::serialize`] as a value.
    struct RecordedConfig<'a>(&'a TournamentConfig);

    impl Serialize for RecordedConfig<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            recorded::serialize(self.0, s)
        }
    }

    /// Names that look alike (one student passing for another) are refused; names that merely
    /// share letters are not.
    #[test]
    fn names_that_look_alike_are_refused() {
        let config = |a: &str, b: &str| {
            let (a, b) = (toml::Value::String(a.into()), toml::Value::String(b.into()));
            let text = format!(
                "maps = [\"m.txt\"]\n[[bots]]\nname = {a}\ncommand = \"x\"\n[[bots]]\nname = {b}\ncommand = \"y\"\n"
            );
            TournamentConfig::from_toml(&text, Path::new("league.toml")).unwrap()
        };
        for (a, b) in [
            ("Alice", "alice"),
            ("caf\u{e9}", "cafe\u{301}"),
            ("greedy", "greedy\u{3164}"),
            ("bob", "b\u{200d}ob"),
            ("greedy", "gr\u{435}\u{435}dy"),
        ] {
            let e = config(a, b).check_names(&[]).unwrap_err().to_string();
            assert!(e.contains("look alike"), "{a:?} and {b:?}: {e}");
            // A league that had both plays on (renaming one would start it afresh); one new, not.
            assert!(config(a, b).check_names(&[a, b]).is_ok(), "{a:?} and {b:?} known");
            assert!(config(a, b).check_names(&[a]).is_err(), "{b:?} new");
        }
        // A name with a character drawn as nothing (a variation selector, a musical format
        // character, a tag) is refused, and the message shows it: the teacher sees which
        // names it means. The control: they look alike, and the raw names differ only in it.
        for (a, b, shown) in [
            ("greedy", "greedy\u{fe0f}", "`greedy\\u{fe0f}`"),
            ("greedy", "gree\u{1d173}dy", "`gree\\u{1d173}dy`"),
            ("greedy", "greedy\u{e0100}", "`greedy\\u{e0100}`"),
        ] {
            let e = config(a, b).check_names(&[]).unwrap_err().to_string();
            assert!(e.contains("look alike") && e.contains(shown), "{a:?} and {b:?}: {e}");
            assert_eq!(look(a), look(b), "the control: {b:?} looks like {a:?}");
            assert_ne!(a, b);
        }
        let e = config("alice ", "bob").check_names(&[]).unwrap_err().to_string();
        assert!(e.starts_with("league.toml:3: ") && e.contains("starts or ends with a space"), "{e}");
        // The control: different names play.
        for (a, b) in [("alice", "alice2"), ("caf\u{e9}", "cafe"), ("greedy", "greedy-v2")] {
            assert!(config(a, b).check_names(&[]).is_ok(), "{a:?} and {b:?}");
        }
    }

    /// Look-alike names are reported at the config file's line of the second, with the
    /// first's, as a name given twice is. The control: the same bots not read from a file (a
    /// league's record, the command line) have no line to report.
    #[test]
    fn look_alike_names_are_reported_at_their_line() {
        let text = "maps = [\"m.txt\"]\n\n[[bots]]\nname = \"alice\"\ncommand = \"x\"\n[[bots]]\nname = \"bob\"\ncommand = \"y\"\n\n[[bots]]\ncommand = \"z\"\nname = \"Alice\"\n";
        let config = TournamentConfig::from_toml(text, Path::new("class/league.toml")).unwrap();
        let e = config.check_names(&[]).unwrap_err();
        assert!(matches!(&e, TournamentError::ConfigAt { line: 12, .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.starts_with("class/league.toml:12: bot names `alice` (line 4) and `Alice` look alike ("), "{e}");
        // The control.
        let mut unplaced = config.clone();
        unplaced.name_lines = None;
        let e = unplaced.check_names(&[]).unwrap_err();
        assert!(
            matches!(&e, TournamentError::Invalid(m) if m.starts_with("bot names `alice` and `Alice` look alike (")),
            "{e:?}"
        );
        // A bot the command line put in place of the file's is not at the file's line.
        let mut put = config.clone();
        put.put_bot(parse_bot_arg("Alice=./other").unwrap());
        assert!(matches!(put.check_names(&[]).unwrap_err(), TournamentError::Invalid(_)));
    }

    #[test]
    fn relative_paths_are_the_config_file_s_folder_s() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("class/alice")).unwrap();
        std::fs::write(dir.path().join("class/bob.py"), "").unwrap();
        let text = "maps = [\"maps/a.txt\"]\nout = \"league\"\n[[bots]]\nname = \"alice\"\ncommand = \"./bot\"\ncwd = \"alice\"\n[[bots]]\nname = \"bob\"\ncommand = \"python3 bob.py --fast\"\n";
        std::fs::write(dir.path().join("class/class.toml"), text).unwrap();
        let c = TournamentConfig::load(&dir.path().join("class/class.toml")).unwrap();
        let class = dir.path().join("class");
        assert_eq!(c.maps, vec![class.join("maps/a.txt")]);
        assert_eq!(c.out, Some(class.join("league")));
        assert_eq!(c.bots[0].cwd, Some(class.join("alice")));
        assert_eq!(c.bots[0].command, "./bot", "a bot with a folder runs its command there");
        assert_eq!(c.bots[1].command, format!("python3 {} --fast", class.join("bob.py").display()));
        assert_eq!(c.base.as_deref(), Some(class.as_path()));
    }

    #[test]
    fn a_bot_on_the_command_line_may_be_a_whole_entry() {
        let bot =
            parse_bot_arg(r#"{name = "carol", cwd = "carol", build = "make", command = "./bot --fast"}"#).unwrap();
        assert_eq!(bot.name, "carol");
        assert_eq!(bot.command, "./bot --fast");
        assert_eq!(bot.cwd, Some(PathBuf::from("carol")));
        assert_eq!(bot.build.as_deref(), Some("make"));
        // The short form keeps its meaning: everything after the first `=` is the command.
        let short = parse_bot_arg("dave=python3 bot.py --level=3").unwrap();
        assert_eq!(
            (short.name.as_str(), short.command.as_str(), short.cwd),
            ("dave", "python3 bot.py --level=3", None)
        );
        for (bad, says) in [
            (r#"{name = "carol", command = "./bot", dir = "x"}"#, "unknown field `dir`"),
            (r#"{name = "carol"}"#, "missing field `command`"),
            (r#"{name = "", command = "./bot"}"#, "a bot needs a name and a command"),
            (r#"{name = "carol", command = "./bot""#, "is not a bot entry"),
            ("{name = \"carol\", command = \"./bot\"}\nextra = 1", "unknown field `extra`"),
            // An empty cwd, the whole current folder (the control: `carol` above).
            (r#"{name = "carol", cwd = "", command = "./bot"}"#, "`cwd` names the current folder"),
            (r#"{name = "carol", cwd = "carol/..", command = "./bot"}"#, "`cwd` names the current folder"),
        ] {
            let error = parse_bot_arg(bad).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    /// The game `config` plays, as the registry describes it.
    fn game_of(config: &TournamentConfig) -> &'static GameInfo {
        let games = crate::games::registry();
        games.named_or_first(&config.game).unwrap().info()
    }

    #[test]
    fn the_embedded_default_is_valid() {
        let config = TournamentConfig::embedded().unwrap();
        config.validate(game_of(&config)).unwrap();
        assert_eq!(config.maps, vec![PathBuf::from("maps/duel.txt")]);
        assert!(config.bots.iter().any(|b| b.name == "cpp-greedy"));
    }

    #[test]
    fn the_class_of_42_loads_and_its_maps_and_folders_exist() {
        // docs/class-42.toml makes the README's storage and page figures: it must keep working.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/class-42.toml");
        let config = TournamentConfig::load(&path).unwrap();
        config.validate(game_of(&config)).unwrap();
        assert_eq!(config.bots.len(), 42);
        for map in &config.maps {
            assert!(map.is_file(), "{}", map.display());
        }
        for bot in &config.bots {
            if let Some(dir) = &bot.cwd {
                assert!(dir.is_dir(), "{}: {}", bot.name, dir.display());
            }
        }
    }

    #[test]
    fn config_errors_name_the_file_and_the_field() {
        let err = TournamentConfig::from_toml("games = \"two\"", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.starts_with("t.toml: "), "{err}");
        assert!(err.contains("games"), "{err}");
        let err = TournamentConfig::from_toml("colour = 1", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.contains("unknown field `colour`"), "{err}");
    }

    /// A name given twice is refused when the file is read, at the line of its second `name`
    /// and naming the first's; distinct names, and other keys on such lines, are not.
    #[test]
    fn a_bot_name_given_twice_is_refused_at_its_line() {
        let text = "maps = [\"m.txt\"]\n\n[[bots]]\nname = \"bob\"\ncommand = \"./a\"\n\n[[bots]]\nname = \"alice\"\n\
                    command = \"./b\"\n\n[[bots]]\ncommand = \"./c\"\nname = \"bob\"\n";
        let err = TournamentConfig::from_toml(text, Path::new("class/league.toml")).unwrap_err().to_string();
        assert_eq!(
            err,
            "class/league.toml:13: bot name `bob` is used twice (first at line 4): give each bot its own name"
        );
        let inline = "bots = [{name = \"a\", command = \"x\"},\n  {name = \"a\", command = \"y\"}]\n";
        let err = TournamentConfig::from_toml(inline, Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.starts_with("t.toml:2: bot name `a` is used twice (first at line 1)"), "{err}");
        // The control: the same file with a third name reads.
        let distinct = text.replacen("\"bob\"", "\"carol\"", 1);
        assert_eq!(TournamentConfig::from_toml(&distinct, Path::new("t.toml")).unwrap().bots.len(), 3);
    }

    /// A key out of its range that takes no 0 is said with its real least: `build_memory_mb = -1`
    /// said "0 to 18446744073709551615", 0 being refused as too little. The control: a key that
    /// takes 0 (`copies_mb`, `[limits] processes`) is said from 0.
    #[test]
    fn a_key_out_of_range_is_said_with_its_least() {
        let said = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap_err().to_string();
        for (text, range) in [
            ("build_memory_mb = -1\n", format!("16 to {}", u64::MAX)),
            ("build_disk_mb = -1\n", format!("1 to {}", u64::MAX)),
            ("build_timeout_s = -5\n", format!("1 to {}", u64::MAX)),
            ("games = -1\n", format!("1 to {}", u32::MAX)),
            ("copies_mb = -1\n", format!("0 to {}", u64::MAX)),
        ] {
            let err = said(text);
            assert!(err.ends_with(&format!("is out of range: it takes a whole number from {range}")), "{text}: {err}");
        }
        let err = said("[limits]\nprocesses = -1\n");
        assert!(err.contains("`[limits] processes` = -1 is out of range: it takes a whole number from 0 to"), "{err}");
    }

    /// `copies_mb` is read as the other keys are: a value out of its range, or not a number, is
    /// refused naming its line; left out, it is 1 GiB.
    #[test]
    fn copies_mb_is_a_key_checked_where_it_is_written() {
        let text = "games = 1\ncopies_mb = -1\n";
        let err = TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap_err().to_string();
        assert!(
            err.starts_with("t.toml:2: `copies_mb` = -1 is out of range: it takes a whole number from 0 to"),
            "{err}"
        );
        let err = TournamentConfig::from_toml("\ncopies_mb = \"1G\"\n", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.contains("line 2") && err.contains("copies_mb"), "{err}");
        let read = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap().copies_bytes();
        assert_eq!(read(""), 1 << 30);
        assert_eq!(read("copies_mb = 64"), 64 << 20);
        assert_eq!(read("copies_mb = 18446744073709551615"), u64::MAX);
    }

    /// A misspelt key is refused naming the file and line, with the key it most likely meant,
    /// at the top level as in a table (`[limits]`, `[[bots]]`) and in `--bot`; the control: a
    /// key like none gets the list alone.
    #[test]
    fn a_misspelt_key_gets_a_did_you_mean() {
        let err = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap_err().to_string();
        let said = err("seed = 1\n\ngmaes = 1\n");
        assert!(said.starts_with("t.toml: ") && said.contains("line 3"), "{said}");
        assert!(said.contains("unknown field `gmaes` (did you mean `games`?), expected one of `game`,"), "{said}");
        let said = err("[limits]\ncpu_secnds = 2\n");
        assert!(said.contains("unknown field `cpu_secnds` (did you mean `cpu_seconds`?)"), "{said}");
        let said = err("[[bots]]\nname = \"a\"\ncomand = \"./bot\"\n");
        assert!(said.contains("unknown field `comand` (did you mean `command`?)") && said.contains("line 3"), "{said}");
        let said = parse_bot_arg("{name = \"a\", command = \"x\", buidl = \"make\"}").unwrap_err();
        assert!(said.contains("unknown field `buidl` (did you mean `build`?)"), "{said}");
        let said = err("colour = 1\n");
        assert!(said.contains("unknown field `colour`, expected one of") && !said.contains("did you mean"), "{said}");
    }

    /// `base` is the arena's (the config file's folder): a file that sets it is refused as any
    /// unknown key, and the keys the error lists are a file's, without it; a league record
    /// keeps it.
    #[test]
    fn base_is_not_a_key_of_config_files_but_records_keep_it() {
        let err = TournamentConfig::from_toml("colour = 1", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.contains("expected one of `game`, `bots`") && err.contains("`build_disk_mb`"), "{err}");
        assert!(!err.contains("`base`"), "{err}");
        let err = TournamentConfig::from_toml("base = \"/\"", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.starts_with("t.toml: ") && err.contains("unknown field `base`"), "{err}");
        #[derive(Serialize, Deserialize)]
        struct Record {
            #[serde(with = "recorded")]
            config: TournamentConfig,
        }
        let mut config = TournamentConfig::from_toml("seed = 7", Path::new("t.toml")).unwrap();
        config.base = Some(PathBuf::from("/course"));
        let json = serde_json::to_value(Record { config }).unwrap();
        assert_eq!((&json["config"]["base"], &json["config"]["seed"]), (&"/course".into(), &7.into()));
        let read: Record = serde_json::from_value(json).unwrap();
        assert_eq!((read.config.base, read.config.seed), (Some(PathBuf::from("/course")), 7));
    }

    /// The embedded default's own builds are told apart by the config, not by its origin's
    /// name: a file named like it is not the default (the control), and a league record keeps
    /// it, so that a resumed quick start's sample bots still build where no box can be made.
    #[test]
    fn the_embedded_default_is_told_apart_in_its_record_and_not_by_a_file_name() {
        #[derive(Serialize, Deserialize)]
        struct Record {
            #[serde(with = "recorded")]
            config: TournamentConfig,
        }
        let own = TournamentConfig::embedded().unwrap();
        assert!(own.bots.iter().all(|b| own.own_build(b)));
        let json = serde_json::to_value(Record { config: own.clone() }).unwrap();
        assert_eq!(json["config"]["embedded"], true);
        let read: Record = serde_json::from_value(json).unwrap();
        assert!(read.config.bots.iter().all(|b| read.config.own_build(b)), "a resumed quick start");
        let named = TournamentConfig::from_toml(DEFAULT_CONFIG, Path::new("<embedded default>.toml")).unwrap();
        assert!(!named.bots.iter().any(|b| named.own_build(b)), "a file's config, whatever its name");
        let json = serde_json::to_value(Record { config: named }).unwrap();
        assert!(json["config"].get("embedded").is_none());
        let err = TournamentConfig::from_toml("embedded = true", Path::new("t.toml")).unwrap_err().to_string();
        assert!(err.contains("unknown field `embedded`"), "{err}");
    }

    #[test]
    fn the_limits_table_sets_the_referee_s_limits_over_the_defaults() {
        let config = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml")).unwrap();
        assert_eq!(config("[limits]\nstderr_rate = 0").limits.limits().stderr_rate, 0);
        assert_eq!(config("").limits.limits(), Limits::default());
        assert_eq!(config("[limits]\nmax_line = 80").limits.limits().max_line, 80);
        // The run facts name the rarer limits only when they are not the defaults.
        let plain =
            "first answer 2000 ms, each answer 1000 ms, 5000 ms per game (cpu clock), 10 s CPU, 1024 MiB per bot";
        assert_eq!(config("").limits.describe(), plain);
        assert_eq!(
            config("[limits]\nstderr_rate = 0\nmax_line = 80\nbackstop_factor = 3").limits.describe(),
            format!("{plain}, answers up to 80 bytes, wall-clock backstop 3 times the limit, stderr read unthrottled")
        );
        assert!(config("[limits]\nstderr_rate = 1000").limits.describe().ends_with("stderr read at 1000 bytes/s"));
    }

    /// A whole number beyond its key's range is refused naming the line, the key (with its
    /// table), the value and the range, not with serde's "invalid type: integer … as i128"; in
    /// `[params]` it is kept as written, and the game's check says its own range. The control:
    /// the largest value in range is taken.
    #[test]
    fn a_number_out_of_its_key_s_range_is_refused_with_the_range() {
        let parse = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml"));
        let huge = "99999999999999999999";
        for (text, said) in [
            (
                format!("rounds = {huge}"),
                format!("t.toml:1: `rounds` = {huge} is out of range: it takes a whole number from 0 to 4294967295"),
            ),
            (
                "games = 4294967296".to_string(),
                "t.toml:1: `games` = 4294967296 is out of range: it takes a whole number from 1 to 4294967295"
                    .to_string(),
            ),
            (
                "seed = -1".to_string(),
                format!("t.toml:1: `seed` = -1 is out of range: it takes a whole number from 0 to {}", u64::MAX),
            ),
            (
                format!("seed = 1\n[limits]\nmove_ms = {huge}"),
                format!("t.toml:3: `[limits] move_ms` = {huge} is out of range"),
            ),
        ] {
            let error = parse(&text).unwrap_err().to_string();
            assert!(error.starts_with(&said) && !error.contains("i128"), "{text}: {error}");
        }
        assert_eq!(parse("rounds = 4294967295\ngames = 4294967295").unwrap().games, u32::MAX, "the control");
        let c = parse(&format!("game = \"tactics\"\n[params]\nrounds = {huge}")).unwrap();
        assert_eq!(c.params["rounds"], huge, "kept as written");
        let tactics = crate::games::registry().get("tactics").unwrap().info();
        let error = tactics.params(&c.params).unwrap_err().to_string();
        assert!(error.contains("expected a whole number from 1 to 100"), "{error}");
        let c = parse("game = \"tactics\"\n[params]\nrounds = 100").unwrap();
        assert!(tactics.params(&c.params).is_ok(), "the control");
    }

    #[test]
    fn game_parameters_come_from_params_or_the_old_top_level_keys() {
        let parse = |text: &str| TournamentConfig::from_toml(text, Path::new("t.toml"));
        let c = parse("[params]\nsize = \"5x4\"\nrounds = 3").unwrap();
        let want = BTreeMap::from([("rounds".to_string(), "3".to_string()), ("size".to_string(), "5x4".to_string())]);
        assert_eq!(c.params, want, "a number is kept as written");
        assert_eq!(c.match_options(Path::new("board"), None).params, want);
        assert_eq!(c.boards(), vec![PathBuf::from("board-3-5x4")]);
        // Configs and league records from before [params]: the same league, the same boards.
        let old = parse("size = \"5x4\"\nrounds = 3").unwrap();
        assert_eq!((old.params.clone(), old.boards()), (want, c.boards()));
        let json = serde_json::to_value(&old).unwrap();
        assert!(json["params"]["size"] == "5x4" && json.get("size").is_none(), "written the new way: {json}");
        let err = parse("size = \"5x4\"\n[params]\nsize = \"6x5\"").unwrap_err().to_string();
        assert!(err.starts_with("t.toml: ") && err.contains("`size` is set twice"), "{err}");
        assert_eq!(parse("").unwrap().boards(), vec![PathBuf::from("board-default")]);
    }

    /// A config that can never play a match (more seats than bots, seats its game does not
    /// allow, or fewer than two) is refused, naming its file and the key at fault; one whose
    /// bots and game can fill its seats passes, however many of its bots will build.
    #[test]
    fn a_config_that_can_never_play_is_refused_naming_its_file() {
        let config = |text: &str| TournamentConfig::from_toml(text, Path::new("class/league.toml")).unwrap();
        let bots = |n: usize| -> String {
            (0..n).map(|i| format!("[[bots]]\nname = \"b{i}\"\ncommand = \"./b{i}\"\n")).collect()
        };
        for (text, says) in [
            (
                format!("game = \"atoms\"\nseats = 3\n{}", bots(2)),
                "`seats = 3` needs at least 3 bots, the config has 2 (b0, b1)",
            ),
            (format!("seats = 3\n{}", bots(3)), "`seats = 3`: Resource Rush is played by exactly 2 players, not 3"),
            (
                format!("game = \"atoms\"\nseats = 7\n{}", bots(7)),
                "`seats = 7`: Atoms is played by 2 to 6 players, not 7",
            ),
            (format!("game = \"atoms\"\nseats = 1\n{}", bots(2)), "`seats = 1`: a match needs at least 2 bots"),
            // A game on its parameters alone would ignore the map (and name it on every page).
            (
                format!("game = \"atoms\"\nmaps = [\"maps/duel.txt\"]\n{}", bots(2)),
                "Atoms is played on its parameters alone, not on a map file: leave out `maps/duel.txt` (--map, or \
                 a config's `maps`)",
            ),
            // A game of dice only: its matches take no bot command lines (each would fail).
            (
                format!("game = \"lcr\"\nseats = 4\n{}", bots(5)),
                "Wild Left-Center-Right has no decisions to make (chance plays for every player), so a league has \
                 no bots to rank: play a game with `arena duel --game lcr --players N`",
            ),
        ] {
            let c = config(&text);
            let error = c.validate(game_of(&c)).unwrap_err().to_string();
            assert_eq!(error, format!("class/league.toml: {says}"), "{text}");
        }
        // The controls: seats the bots and the game can fill.
        for text in [format!("game = \"atoms\"\nseats = 3\n{}", bots(3)), bots(2)] {
            let c = config(&text);
            assert!(c.validate(game_of(&c)).is_ok(), "{text}");
        }
    }

    /// An Atoms league an earlier arena recorded with a map (its matches' keys are named after
    /// it) is resumed with that map, not refused: left out, every key would change and the term's
    /// results count no more. A new config, or other maps, are still refused. The control: the
    /// check of a new config refuses the recorded one.
    #[test]
    fn maps_an_earlier_arena_recorded_for_atoms_are_kept() {
        let bots = "[[bots]]\nname = \"a\"\ncommand = \"./a\"\n[[bots]]\nname = \"b\"\ncommand = \"./b\"\n";
        let text = format!("game = \"atoms\"\nmaps = [\"maps/duel.txt\"]\n{bots}");
        let c = TournamentConfig::from_toml(&text, Path::new("class/league.toml")).unwrap();
        let game = game_of(&c);
        assert!(c.validate(game).unwrap_err().to_string().contains("leave out"), "the control: refused as new");
        assert!(c.validate_recorded(game, &c.maps).is_ok(), "the league's own maps");
        let other = [PathBuf::from("class/maps/other.txt")];
        assert!(c.validate_recorded(game, &other).is_err(), "maps it did not record");
        assert!(c.validate_recorded(game, &[]).is_err(), "a league that recorded none");
    }

    /// A limit of 0 that would forfeit every bot of every match is refused, naming its key; the
    /// control: 1 is taken, and so are the zeros that mean something (`cpus`, `stderr_rate`).
    #[test]
    fn a_limit_of_zero_that_forfeits_every_bot_is_refused() {
        let two = "maps = [\"m.txt\"]\n[[bots]]\nname = \"a\"\ncommand = \"./a\"\n[[bots]]\nname = \"b\"\ncommand = \"./b\"\n";
        let validate = |limits: &str| {
            let c =
                TournamentConfig::from_toml(&format!("{two}[limits]\n{limits}\n"), Path::new("league.toml")).unwrap();
            c.validate(game_of(&c)).map_err(|e| e.to_string())
        };
        for key in [
            "startup_ms",
            "move_ms",
            "total_ms",
            "max_line",
            "cpu_seconds",
            "memory_mb",
            "open_files",
            "processes",
            "backstop_factor",
        ] {
            let error = validate(&format!("{key} = 0")).unwrap_err();
            assert_eq!(
                error,
                format!("league.toml: [limits] `{key} = 0` would forfeit every bot of every match: give it at least 1, or leave it out for its default")
            );
            assert!(validate(&format!("{key} = 1")).is_ok(), "{key} = 1");
        }
        assert!(validate("cpus = 0\nstderr_rate = 0\ngrace_ms = 0").is_ok());
    }

    /// The CPU time this thread has used.
    fn thread_cpu() -> std::time::Duration {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes only the timespec it is given.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    }

    /// A league too large to schedule (its schedule is made whole, in memory, before any match)
    /// is refused at once with the count, rather than filling the memory for ever: `games` at
    /// its largest, or 6 seats among 100 bots. The controls, one under the cap, pass.
    #[test]
    fn a_league_too_large_to_schedule_is_refused_with_its_count() {
        let config = |text: &str| TournamentConfig::from_toml(text, Path::new("class/league.toml")).unwrap();
        let bots = |n: usize| -> String {
            (0..n).map(|i| format!("[[bots]]\nname = \"b{i}\"\ncommand = \"./b{i}\"\n")).collect()
        };
        for (text, count) in [
            (format!("maps = [\"m.txt\"]\ngames = 4294967295\n{}", bots(4)), "51539607540"),
            (format!("game = \"atoms\"\nseats = 6\n{}", bots(100)), "7152314400"),
        ] {
            let c = config(&text);
            // Timed in this thread's CPU time: a loaded machine may pause it for a second.
            let started = thread_cpu();
            let error = c.validate(game_of(&c)).unwrap_err().to_string();
            assert!(thread_cpu() - started < std::time::Duration::from_secs(1), "at once");
            assert!(error.starts_with(&format!("class/league.toml: {count} matches to schedule (")), "{error}");
            assert!(error.contains(&format!("at most {MAX_SCHEDULED_MATCHES}")), "{error}");
        }
        for text in [
            format!("maps = [\"m.txt\"]\ngames = 833333\n{}", bots(4)),
            format!("game = \"atoms\"\nseats = 6\n{}", bots(20)),
        ] {
            let c = config(&text);
            assert!(c.validate(game_of(&c)).is_ok(), "{text}");
        }
        assert_eq!(scheduled_matches(usize::MAX, 3, 1, 1), None, "past u128");
        assert_eq!(scheduled_matches(2, 3, 1, 1), Some(0));
    }

    #[test]
    fn validation_explains_what_is_missing() {
        let mut c = TournamentConfig::from_toml("maps = [\"m.txt\"]", Path::new("t")).unwrap();
        let game = game_of(&c);
        assert_eq!(c.seats(), 2);
        assert!(c.validate(game).unwrap_err().to_string().contains("at least 2 bots"));
        c.put_bot(parse_bot_arg("a=./a").unwrap());
        c.put_bot(parse_bot_arg("b=./b").unwrap());
        c.validate(game).unwrap();
        c.put_bot(parse_bot_arg("a=./a2").unwrap());
        assert_eq!(c.bots.len(), 2, "same name replaces");
        assert_eq!(c.bots[0].command, "./a2");
        c.games = 0;
        assert!(c.validate(game).is_err());
        assert_eq!(c.forfeits, ForfeitRule::Loss);
        assert!(parse_bot_arg("noequals").is_err());
        assert!(parse_bot_arg("=cmd").is_err());
    }
}
