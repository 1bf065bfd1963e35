//! Command-line parsing and dispatch. Results go to stdout; logs go to stderr via `tracing`.

/// Prints a line of results to stdout. A closed stdout (`arena … | head`) is not an error:
/// the rest of the output is dropped and the command still finishes its work. Whatever the
/// line holds, no control character reaches the terminal ([`arena::safe_text`]).
macro_rules! say {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout());
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stdout(), "{}", arena::safe_text::terminal_lines(&line));
    }};
}

/// Prints a line to stderr with every control character shown visibly, as [`say!`] does. A
/// stderr that cannot be written (a terminal hung up: SIGHUP ends a run cleanly) is no error.
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", arena::safe_text::terminal_lines(&line));
    }};
}

mod bot;
mod check_bot;
mod course;
mod duel;
mod new_bot;
mod play;
mod replay;
pub mod signals;
mod simulate;
mod tournament;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use arena::engine::{LimitChoices, Limits, Registry};
use clap::{Arg, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use tracing_subscriber::EnvFilter;

/// The game played where none is named (`--game`'s default in `duel`, `new-bot`, `check-bot`).
pub(crate) const DEFAULT_GAME: &str = arena::games::resource_rush::NAME;

/// Referee for bot games: duels between bot processes, JSON replays, verification.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about)]
pub struct Cli {
    /// More log output on stderr (-v debug, -vv trace). RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play one match between bot processes and print the result.
    Duel(DuelArgs),
    /// Show a replay in the terminal, tick by tick.
    Replay(ReplayArgs),
    /// Re-simulate a replay from its recorded answers and check its result.
    Verify(VerifyArgs),
    /// Run a round-robin tournament (by default: the sample bots on maps/duel.txt).
    Tournament(TournamentArgs),
    /// Recompute and print the leaderboard of a tournament folder.
    Leaderboard(LeaderboardArgs),
    /// Build a league's bots once and prepare its folder, so that shards can play it.
    Build(BuildArgs),
    /// Merge the folders of a league's shards into one leaderboard.
    Merge(MergeArgs),
    /// Copy what of a tournament folder may be published (pages, replays, leaderboards,
    /// results, logs) into a new folder: not its secret, nor the students' code.
    Publish(PublishArgs),
    /// Run the single-player tests (the course's 20 tests) on a bot.
    Test(TestArgs),
    /// Generate the 20 single-player tests and their minimums.
    GenTests(GenTestsArgs),
    /// The best score a bot can reach on a test file (exact, or an upper bound).
    Solve(SolveArgs),
    /// A game's original text program (`arena play lcr`).
    Play(PlayArgs),
    /// Statistics by simulation (`arena simulate lcr`).
    Simulate(SimulateArgs),
    /// Write a replay as a self-contained HTML page that animates it.
    View(ViewArgs),
    /// Export an Atoms replay as a save file that `arena play atoms` can LOAD.
    ExportSave(ExportSaveArgs),
    /// Create a ready folder for a new bot: starter kit, sample bot, build file, tests, README.
    NewBot(new_bot::NewBotArgs),
    /// Play a bot through short scripted situations and explain every problem, with the fix.
    #[command(visible_alias = "doctor")]
    CheckBot(check_bot::CheckBotArgs),
    /// Play a built-in sample bot on stdin/stdout (an opponent: `"arena bot greedy"`).
    Bot(bot::BotArgs),
}

/// Options of `arena export-save`.
#[derive(Debug, Args)]
pub struct ExportSaveArgs {
    /// The replay (of game `atoms`).
    pub replay: PathBuf,
    /// The save file to write (refused if it exists).
    pub out: PathBuf,
    /// Export a replay that fails verification anyway, with a warning on stderr (its
    /// placements must still make a game the classic program can LOAD).
    #[arg(long)]
    pub unverified: bool,
}

/// Options of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The replay file.
    pub replay: PathBuf,
    /// The page to write (default: the replay's path with `.html` for `.json` or `.json.gz`; for a
    /// replay in a league's `replays/` folder, the league's own page of it, else one in
    /// `~/.cache/arena/view`: a league's pages are never replaced).
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Show a replay that fails verification anyway: a warning on stderr, and a banner on the
    /// page saying that it failed and why.
    #[arg(long)]
    pub unverified: bool,
}

/// Options of `arena play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game: `lcr`, `atoms` or `tactics`.
    pub game: String,
    /// Seed for the dice (default: random, printed on stderr).
    #[arg(long, conflicts_with = "dice")]
    pub seed: Option<u64>,
    /// Play this sequence of rolls instead of random dice: 7,0,4,…
    #[arg(long, value_name = "LIST")]
    pub dice: Option<String>,
    /// The program's own parameters (tactics: `<ROUNDS> <CONFIG>`; lcr and atoms take none).
    /// Bytes, as a C program gets them: they need not be UTF-8.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "PARAMS")]
    pub params: Vec<std::ffi::OsString>,
}

/// Options of `arena simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The game: `lcr`.
    pub game: String,
    /// Player counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,10,20")]
    pub players: Vec<usize>,
    /// Games per player count.
    #[arg(long, default_value_t = 1_000_000)]
    pub games: u64,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: the number of cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

/// Options of `arena test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The bot's command line.
    pub bot: String,
    /// The folder of tests: test<N>.txt here or in input/, and limite_minime.txt. Default: the
    /// repository's maps/tests, else a bot folder's tests/ (`arena new-bot`), else the 20 tests
    /// built into the arena.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// Run only test K.
    #[arg(long, value_name = "K")]
    pub only: Option<usize>,
    /// Send the whole file at once instead of one TICK per answer.
    #[arg(long)]
    pub piped: bool,
    /// Write each test's course-style transcript (header, TICK lines and answers) here.
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,
    /// Save each test's replay here (watch with `arena replay`), with the bot's stderr beside
    /// it (`testNN.log`, when it wrote any).
    #[arg(long, value_name = "DIR")]
    pub replays: Option<PathBuf>,
    /// Keep each test's bot stderr here, as `testNN.log` (written for every test).
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Print the reports as JSON.
    #[arg(long)]
    pub json: bool,
    /// Play tests that have no minimum (a test then passes by reaching the final); without it,
    /// a test without one is an error, as a grade would be wrong.
    #[arg(long)]
    pub no_minimums: bool,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
}

/// Options of `arena gen-tests`.
#[derive(Debug, Args)]
pub struct GenTestsArgs {
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder.
    #[arg(long, default_value = "maps/tests")]
    pub out: PathBuf,
}

/// Options of `arena solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A test file (its TICK lines are the scripted opponent).
    pub map: PathBuf,
    /// Most states each exact search may create.
    #[arg(long, default_value_t = 10_000_000)]
    pub state_limit: usize,
    /// Seconds the relaxation may spend tightening the bound (wider beams may start until 2/3
    /// of it, exact searches until 5/4 of it, a guided beam when expected to end by 3/2; the
    /// rest of the best plan is planned again within 1/5 of it), counted in work: about CPU
    /// seconds on the machine of the README's tables, and the same result on any machine.
    #[arg(long, alias = "cpu-seconds", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub work_seconds: u64,
}

/// Options of `arena tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// A TOML configuration (see docs/tournaments.md). With --resume: the league's new
    /// roster and settings (what changes is said before anything runs).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Continue the tournament in this folder: run only missing or superseded matches.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Play only slice K of N of a league prepared by `arena build` (K from 1), or `auto`
    /// (from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX and ARENA_SHARD_COUNT: a whole
    /// array; give a Slurm task submitted again as K/N). Needs --resume DIR; with --out, the
    /// shard writes to its own folder.
    #[arg(long, value_name = "K/N|auto", requires = "resume")]
    pub shard: Option<String>,
    /// Remove a bot from the league (repeatable); its results stay on disk, uncounted. It stays
    /// out until a roster lists it again (`--resume DIR --config FILE` takes the file's).
    #[arg(long, value_name = "NAME")]
    pub exclude: Vec<String>,
    /// Play this match again, by key (repeatable; keys are in results.jsonl and the pages).
    #[arg(long, value_name = "KEY", requires = "resume")]
    pub rerun: Vec<String>,
    /// How forfeits count in wins, draws and losses: `loss` (default) or `score`.
    #[arg(long, value_name = "RULE")]
    pub forfeits: Option<String>,
    /// Wall-clock seconds a bot's build may take [default: 300].
    #[arg(long, value_name = "S")]
    pub build_timeout_s: Option<u64>,
    /// Disk a bot's builds may fill, its folder's growth over the runs and a build's log, in MiB [default: 2048].
    #[arg(long, value_name = "MB")]
    pub build_disk_mb: Option<u64>,
    /// Disk each bot's kept copies of its versions may take in all, in MiB [default: 1024]; the
    /// least recently seen go first, and 0 keeps only the copies that play.
    #[arg(long, value_name = "MB")]
    pub copies_mb: Option<u64>,
    /// Add a bot, or replace the bot of that name (repeatable): `NAME=CMD`, or a whole entry
    /// as in a config file, `{name = "carol", cwd = "carol", build = "make", command = "./bot"}`.
    #[arg(long = "bot", value_name = "NAME=CMD", value_parser = parse_bot)]
    pub bots: Vec<arena::tournament::config::BotEntry>,
    /// Map pool (repeatable; replaces the configured maps).
    #[arg(long = "map", value_name = "FILE")]
    pub maps: Vec<PathBuf>,
    /// Games per pairing and map, each played from both sides.
    #[arg(long)]
    pub games: Option<u32>,
    /// The game (default: the config's, else resource-rush).
    #[arg(long)]
    pub game: Option<String>,
    /// Bots per match (default 2; the game says how many it allows).
    #[arg(long)]
    pub seats: Option<usize>,
    /// The game's parameters, from the flags each game declares (`--size`, `--rounds`).
    #[arg(skip)]
    pub params: BTreeMap<String, String>,
    /// Base seed for every match's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Matches run at once (default: one per core on the CPU clock, each match kept on its
    /// core; on the wall clock, cores / players per match, so that every thinking bot gets a
    /// core of its own).
    #[arg(short = 'j', long, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// Output folder (default: a new folder under replays/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the leaderboard as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Time and size limits over the configuration's `[limits]`.
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
}

fn parse_bot(arg: &str) -> Result<arena::tournament::config::BotEntry, String> {
    arena::tournament::config::parse_bot_arg(arg)
}

/// Options of `arena leaderboard`.
#[derive(Debug, Args)]
pub struct LeaderboardArgs {
    /// The tournament folder.
    pub dir: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV for a gradebook: one row per bot (rank, version, points, W/D/L, forfeits by
    /// reason, status).
    #[arg(long)]
    pub csv: bool,
    /// The standings as they were at this time (each bot on its newest good version by then):
    /// 2026-11-30T17:00:00Z, "2026-11-30 17:00:00" (UTC) or seconds since 1970. Writes nothing.
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

/// Options of `arena build`: those of `arena tournament` but `--resume`, `--shard`, `--rerun`
/// and `--json`, which it refuses (an existing league folder takes the config as its new
/// roster and settings).
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The league's TOML configuration.
    #[arg(value_name = "CONFIG")]
    pub config_file: Option<PathBuf>,
    #[command(flatten)]
    pub tournament: TournamentArgs,
}

/// Options of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Where the merged league goes (may be one of the folders, the league's itself).
    pub out: PathBuf,
    /// The league's folder, the one `arena build` made: its record is the league's, what it
    /// holds outranks every shard's folder, and no other folder passes for it. Without it, the
    /// first folder recording no shard's slice gives the record, and no folder the league's rank.
    #[arg(long, value_name = "LEAGUE")]
    pub league: Option<PathBuf>,
    /// The shards' folders (`--shard K/N --out DIR`), each bound to its slice: `K/N=DIR` (`1/3=shard-1`)
    /// takes from DIR only the results of slice K of N, and leaves DIR out, named, if its record
    /// names another slice. A folder given alone (`DIR`, the older form) is taken at its own
    /// record's word, which whoever wrote it controls. None where the shards shared the league's.
    #[arg(value_name = "K/N=SHARD_DIR", required_unless_present = "league")]
    pub dirs: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Options of `arena publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The tournament folder.
    pub dir: PathBuf,
    /// Where its public part goes, outside it: a new or empty folder, or an earlier publish
    /// (replaced whole in one step; a folder holding anything a publish did not write is refused).
    pub out: PathBuf,
    /// Publish the build logs too, as they are (by default each is a note in their place: a
    /// compiler's messages quote the student's source lines, and may name files by their paths
    /// on this machine, the teacher's folders).
    #[arg(long)]
    pub build_logs: bool,
    /// Publish the match logs too, the bots' stderr, as they are (by default each is a note in
    /// their place: a crash's traceback quotes the student's source lines, and may name files
    /// by their paths on this machine).
    #[arg(long)]
    pub match_logs: bool,
}

/// Options of `arena duel`.
#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The game to play.
    #[arg(long, default_value = DEFAULT_GAME)]
    pub game: String,
    /// The map file, for games played on one.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Number of players (default: one per bot; for games without bot processes, the
    /// smallest number the game allows).
    #[arg(long)]
    pub players: Option<usize>,
    /// The game's parameters, from the flags each game declares (`--size`, `--rounds`).
    #[arg(skip)]
    pub params: BTreeMap<String, String>,
    /// Where to write the replay (default: a new file under replays/).
    #[arg(long, conflicts_with = "no_replay")]
    pub replay: Option<PathBuf>,
    /// Write no replay (and no stderr log).
    #[arg(long)]
    pub no_replay: bool,
    /// Print the result as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Match seed, recorded in the replay and passed to bots as ARENA_SEED (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Display names, in player order (default: each command's program name).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Working directory for the bots.
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
    /// The bots' command lines, in player order (split like a shell would, no shell is run).
    #[arg(num_args = 0.., value_name = "BOT")]
    pub bots: Vec<String>,
}

/// How bots are confined (see the README's Security section).
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// auto: confine as far as the system allows; require: refuse to run without network
    /// isolation and a process cap; plain: no box, as auto where none can be made (resource
    /// limits; what a bot leaves running is ended with it; where the kernel has Landlock, a bot reads
    /// only its own files and the system's, writes none, and signals no other process); none: resource
    /// limits only (for debugging):
    /// its process group is ended with it, but what leaves that group (setsid, a daemon) keeps running.
    #[arg(long, value_name = "MODE")]
    pub sandbox: Option<arena::sandbox::SandboxMode>,
    /// The same as --sandbox require.
    #[arg(long, conflicts_with = "sandbox")]
    pub require_sandbox: bool,
    /// CPU seconds per bot process [default: 10].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_cpu_s: Option<u64>,
    /// Memory of each bot's box, in MiB (its cgroup; without one, the monitor and each process's
    /// address space) [default: 1024].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory_mb: Option<u64>,
    /// Largest file a bot may write, in MiB [default: 64].
    #[arg(long)]
    pub max_file_mb: Option<u64>,
    /// Open files per bot process [default: 256].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_open_files: Option<u64>,
    /// Processes per bot, children included [default: 64].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_procs: Option<u64>,
    /// CPUs a bot may keep busy at once, children included (its box's CPU quota; 0: no cap)
    /// [default: 1].
    #[arg(long)]
    pub max_cpus: Option<u64>,
    /// Disk operations a bot's box may start per second on each disk, reads and writes each (its
    /// cgroup's; none without one; 0: no cap) [default: 200].
    #[arg(long, value_name = "N")]
    pub max_disk_ops: Option<u64>,
}

impl SandboxArgs {
    /// The mode asked for, if any.
    pub fn mode(&self) -> Option<arena::sandbox::SandboxMode> {
        if self.require_sandbox {
            Some(arena::sandbox::SandboxMode::Require)
        } else {
            self.sandbox
        }
    }

    /// The sandbox these flags ask for (resource limits not given keep their defaults).
    pub fn sandbox(&self) -> anyhow::Result<arena::sandbox::Sandbox> {
        self.sandbox_with(|_| {})
    }

    /// [`SandboxArgs::sandbox`] with `defaults` applied first (the flags given override them).
    pub fn sandbox_with(
        &self,
        defaults: impl FnOnce(&mut arena::tournament::config::LimitsConfig),
    ) -> anyhow::Result<arena::sandbox::Sandbox> {
        let mut limits = arena::tournament::config::LimitsConfig::default();
        defaults(&mut limits);
        self.apply(&mut limits);
        Ok(arena::sandbox::Sandbox::new(self.mode().unwrap_or_default(), limits.sandbox_limits())?)
    }

    /// The resource limits' flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        names_given([
            ("--max-cpu-s", self.max_cpu_s.is_some()),
            ("--max-memory-mb", self.max_memory_mb.is_some()),
            ("--max-file-mb", self.max_file_mb.is_some()),
            ("--max-open-files", self.max_open_files.is_some()),
            ("--max-procs", self.max_procs.is_some()),
            ("--max-cpus", self.max_cpus.is_some()),
            ("--max-disk-ops", self.max_disk_ops.is_some()),
        ])
    }

    /// Overrides `limits` with the flags given.
    pub fn apply(&self, limits: &mut arena::tournament::config::LimitsConfig) {
        limits.cpu_seconds = self.max_cpu_s.or(limits.cpu_seconds);
        limits.memory_mb = self.max_memory_mb.or(limits.memory_mb);
        limits.file_size_mb = self.max_file_mb.or(limits.file_size_mb);
        limits.open_files = self.max_open_files.or(limits.open_files);
        limits.processes = self.max_procs.or(limits.processes);
        limits.cpus = self.max_cpus.or(limits.cpus);
        limits.disk_ops = self.max_disk_ops.or(limits.disk_ops);
    }
}

/// The names of the flags whose second is true: the flags a command was given.
fn names_given<const N: usize>(flags: [(&'static str, bool); N]) -> Vec<&'static str> {
    flags.into_iter().filter_map(|(name, given)| given.then_some(name)).collect()
}

/// What bots' time limits count.
#[derive(Debug, Args)]
pub struct ClockArgs {
    /// What time limits count: `cpu` (the CPU time of the bot's whole box, with a wall-clock
    /// backstop; results do not depend on the machine's load) or `wall` (as the course's own
    /// checker) [default: cpu; for `arena test`: wall].
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<arena::referee::ClockKind>,
    /// With `--clock cpu`, an answer also ends after this many times its limit in wall time
    /// (a bot that sleeps or blocks) [default: 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub backstop_factor: Option<u32>,
}

impl ClockArgs {
    /// The flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        names_given([("--clock", self.clock.is_some()), ("--backstop-factor", self.backstop_factor.is_some())])
    }

    /// Overrides the clock settings of `limits` with the flags given.
    pub fn apply(&self, limits: &mut arena::tournament::config::LimitsConfig) {
        limits.clock = self.clock.or(limits.clock);
        limits.backstop_factor = self.backstop_factor.or(limits.backstop_factor);
    }
}

/// Time and size limits; those not given keep the rulings' defaults (shown by `--help`).
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Milliseconds for a bot's first answer, start-up included.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub startup_ms: Option<u64>,
    /// Milliseconds for each later answer.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub move_ms: Option<u64>,
    /// Milliseconds of answer time per bot over the whole game.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub total_ms: Option<u64>,
    /// Milliseconds a finished bot may take to exit before it is ended.
    #[arg(long)]
    pub grace_ms: Option<u64>,
    /// Longest accepted answer line, in bytes.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_line: Option<usize>,
    /// Bytes per second of a bot's stderr read once its log is full (0: as fast as it writes;
    /// a bot that writes faster waits for its pipe, on its own time, not the arena's CPU).
    #[arg(long, value_name = "BYTES")]
    pub stderr_rate: Option<u64>,
}

impl LimitArgs {
    /// The flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        names_given([
            ("--startup-ms", self.startup_ms.is_some()),
            ("--move-ms", self.move_ms.is_some()),
            ("--total-ms", self.total_ms.is_some()),
            ("--grace-ms", self.grace_ms.is_some()),
            ("--max-line", self.max_line.is_some()),
            ("--stderr-rate", self.stderr_rate.is_some()),
        ])
    }

    /// The limits chosen by these flags and the clock flags.
    pub fn choices(&self, clock: &ClockArgs) -> LimitChoices {
        LimitChoices {
            startup_ms: self.startup_ms,
            move_ms: self.move_ms,
            total_ms: self.total_ms,
            grace_ms: self.grace_ms,
            max_line: self.max_line,
            clock: clock.clock,
            backstop_factor: clock.backstop_factor,
            stderr_rate: self.stderr_rate,
        }
    }

    /// Overrides a league's configured `limits` with the flags given (the clock's are
    /// [`ClockArgs::apply`]'s).
    pub fn apply(&self, limits: &mut arena::tournament::config::LimitsConfig) {
        limits.startup_ms = self.startup_ms.or(limits.startup_ms);
        limits.move_ms = self.move_ms.or(limits.move_ms);
        limits.total_ms = self.total_ms.or(limits.total_ms);
        limits.grace_ms = self.grace_ms.or(limits.grace_ms);
        limits.max_line = self.max_line.or(limits.max_line);
        limits.stderr_rate = self.stderr_rate.or(limits.stderr_rate);
    }

    /// `command`'s limit flags (these) with their defaults in its `--help`.
    fn with_defaults(mut command: clap::Command) -> clap::Command {
        for (id, default) in LimitArgs::defaults() {
            command = command.mut_arg(id, |arg| {
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                arg.help(format!("{help} [default: {default}]"))
            });
        }
        command
    }

    /// Each limit flag's default, for `--help`: the rulings' [`Limits::default`].
    fn defaults() -> [(&'static str, String); 6] {
        let d = Limits::default();
        [
            ("startup_ms", d.startup.as_millis().to_string()),
            ("move_ms", d.per_move.as_millis().to_string()),
            ("total_ms", d.total.as_millis().to_string()),
            ("grace_ms", d.grace.as_millis().to_string()),
            ("max_line", d.max_line.to_string()),
            ("stderr_rate", d.stderr_rate.to_string()),
        ]
    }
}

/// Options of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file.
    pub path: PathBuf,
    /// Show only the state after this tick (0 = the start).
    #[arg(long)]
    pub tick: Option<usize>,
    /// Milliseconds between frames when animating on a terminal.
    #[arg(long, default_value_t = 150)]
    pub delay_ms: u64,
}

/// Options of `arena verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The replay file.
    pub path: PathBuf,
}

/// A game's remark about a player as a warning line: `warning: NAME (player K) TEXT`.
pub fn warning_line(result: &arena::replay::MatchResult, remark: &arena::engine::Remark) -> String {
    let name = result.players.get(remark.player).map_or("?", |p| p.name.as_str());
    let name = arena::safe_text::terminal(name);
    format!("warning: {name} (player {}) {}", remark.player + 1, remark.text)
}

/// How a hint names the arena (`watch: arena replay …`): as it was started when that was by a
/// path (`target/release/arena`, `./arena`: not on the PATH, where `arena` alone would say
/// "command not found"), else `arena`.
pub fn arena_command() -> String {
    match std::env::args_os().next() {
        Some(arg0) if arg0.as_encoded_bytes().contains(&b'/') => shell_word(&arg0.to_string_lossy()),
        _ => "arena".to_string(),
    }
}

pub use arena::safe_text::shell_word;

/// Seconds since the Unix epoch, for default output names (0 if the clock is before it).
pub fn unix_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `replays/<stem><ext>`, or `replays/<stem>-2<ext>`, `-3`… if that is taken.
pub fn fresh_output(stem: &str, ext: &str) -> PathBuf {
    let mut path = PathBuf::from("replays").join(format!("{stem}{ext}"));
    let mut k = 2;
    while path.exists() {
        path = PathBuf::from("replays").join(format!("{stem}-{k}{ext}"));
        k += 1;
    }
    path
}

/// Sends `tracing` output to stderr: warnings by default, more with -v, RUST_LOG wins.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // (As `fmt().init()` did: also the `log` crate's records, where a dependency writes them.)
    let shown = ShownBar::global().clone();
    tracing_subscriber::util::SubscriberInitExt::try_init(subscriber(filter, std::io::stderr, ansi, shown)).ok();
}

/// The `tracing` subscriber writing to `writer` through [`SafeLog`]: log lines as `filter`
/// says, and the arena's notices to the user ([`arena::referee::NOTICE`]) as plain sentences,
/// without time, level or module; both through the bar `shown`, if one is drawn.
fn subscriber<W>(filter: EnvFilter, writer: W, ansi: bool, shown: ShownBar) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'a> tracing_subscriber::fmt::MakeWriter<'a> + Clone + Send + Sync + 'static,
{
    use tracing_subscriber::filter::filter_fn;
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::Layer as _;
    let notice = |m: &tracing::Metadata<'_>| m.target() == arena::referee::NOTICE;
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(SafeLog { inner: writer.clone(), ansi, shown: shown.clone() })
        .with_ansi(ansi)
        .with_filter(filter)
        .with_filter(filter_fn(move |m| !notice(m)));
    let notices = tracing_subscriber::fmt::layer()
        .without_time()
        .with_level(false)
        .with_target(false)
        .with_writer(SafeLog { inner: writer, ansi: false, shown })
        .with_ansi(false)
        .with_filter(filter_fn(notice));
    tracing_subscriber::registry().with(logs).with(notices)
}

/// Where `tracing` writes (`inner`: stderr), each event shown as one line of safe text
/// ([`arena::safe_text::terminal_log`]): what it logs quotes file names in students' folders and
/// bots' names, and `tracing` itself shows neither their line breaks nor their carriage returns.
/// A line is written through the bar `shown` ([`ShownBar::suspend`]), not across it.
struct SafeLog<M> {
    inner: M,
    /// Whether `tracing` writes colours (stderr is a terminal).
    ansi: bool,
    shown: ShownBar,
}

impl<'a, M: tracing_subscriber::fmt::MakeWriter<'a>> tracing_subscriber::fmt::MakeWriter<'a> for SafeLog<M> {
    type Writer = SafeEvent<'a, M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        SafeEvent { inner: self.inner.make_writer(), ansi: self.ansi, shown: &self.shown }
    }
}

/// One event's writer (`tracing` writes each event whole, with one `write_all`).
struct SafeEvent<'a, W> {
    inner: W,
    ansi: bool,
    shown: &'a ShownBar,
}

impl<W: std::io::Write> std::io::Write for SafeEvent<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let shown = arena::safe_text::terminal_log(&String::from_utf8_lossy(buf), self.ansi);
        let inner = &mut self.inner;
        self.shown.suspend(|| inner.write_all(shown.as_bytes()))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The progress bar or spinner drawn on the terminal now, if any (the build's spinner, the
/// tournament's match bar: one at a time), through which lines are written to stderr: the bar
/// cleared, the line written whole, the bar redrawn. Written across it, a line was left behind
/// a stale copy of the bar, or overwritten by its next drawing. No bar is made when stderr is
/// not a terminal, so what a log or a CI captures is written as it is, byte for byte.
#[derive(Clone, Default)]
pub struct ShownBar(std::sync::Arc<std::sync::Mutex<Option<indicatif::WeakProgressBar>>>);

impl ShownBar {
    /// The process's own: the log's writer ([`init_logging`]) and the command line's bars share it.
    pub fn global() -> &'static ShownBar {
        static SHOWN: std::sync::LazyLock<ShownBar> = std::sync::LazyLock::new(ShownBar::default);
        &SHOWN
    }

    /// `bar` is the one drawn now, until it is finished or dropped (held weakly: a bar left
    /// behind by an error is not drawn again by a later line), or another is shown.
    pub fn show(&self, bar: &indicatif::ProgressBar) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(bar.downgrade());
    }

    /// The bar drawn now: shown, alive and not finished.
    fn bar(&self) -> Option<indicatif::ProgressBar> {
        let slot = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.as_ref().and_then(indicatif::WeakProgressBar::upgrade).filter(|bar| !bar.is_finished())
    }

    /// Runs `write` (what writes lines to stderr) with the bar cleared, then redraws it; runs it
    /// as it is when no bar is drawn, or inside another `suspend` on this thread (a line logged
    /// from within `write`): the bar's lock is held there, and taking it again would wait forever.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        thread_local! {
            static INSIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        /// Leaves the thread outside `suspend`, however `write` ends.
        struct Leave;
        impl Drop for Leave {
            fn drop(&mut self) {
                INSIDE.set(false);
            }
        }
        // (The slot's lock is released before the bar's is taken: none is held while writing.)
        let bar = if INSIDE.get() { None } else { self.bar() };
        match bar {
            Some(bar) => {
                INSIDE.set(true);
                let _leave = Leave;
                bar.suspend(write)
            }
            None => write(),
        }
    }
}

/// Logs (at debug level) the arena's own peak memory, so that tests and users can check it
/// stays bounded whatever the bots do.
pub fn log_peak_memory() {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).map(|v| v.trim().trim_end_matches(" kB").trim());
    if let Some(kb) = peak {
        tracing::debug!(peak_rss_kb = kb, "arena exits");
    }
}

/// The command line with what the games bring: each game's parameters as flags of `arena
/// duel` (`--size` for Atoms, `--rounds` for Tactics), and the limits' defaults in `--help`.
pub fn command(games: &Registry) -> clap::Command {
    Cli::command()
        .mut_subcommand("duel", |duel| game_param_flags(LimitArgs::with_defaults(duel), games))
        .mut_subcommand("check-bot", LimitArgs::with_defaults)
        .mut_subcommand("tournament", |tournament| game_param_flags(tournament, games))
        .mut_subcommand("build", |build| {
            // The run's own flags, which a build refuses (it shares the tournament's options):
            // kept out of its --help.
            let build = BUILD_REFUSES.iter().fold(build, |b, id| b.mut_arg(*id, |arg| arg.hide(true)));
            // Flags whose tournament help speaks of a run (--resume, matches played now):
            // said as a build takes them.
            let build = BUILD_HELP.iter().fold(build, |b, (id, help)| b.mut_arg(*id, |arg| arg.help(*help)));
            game_param_flags(build, games)
        })
}

/// The help of `arena build`'s flags whose `arena tournament` help does not fit a build.
const BUILD_HELP: [(&str, &str); 4] = [
    (
        "config",
        "The same as CONFIG: the league's TOML configuration (see docs/tournaments.md); for a folder \
         that holds a league already, its new roster and settings (what changes is said before \
         anything is built)",
    ),
    (
        "exclude",
        "Remove a bot from the league (repeatable); its results stay on disk, uncounted. It stays out \
         until a roster lists it again (a later build's CONFIG)",
    ),
    (
        "out",
        "The league's folder (default: the config's `out`): a new one, or a league's, which then \
         takes CONFIG as its new roster and settings",
    ),
    (
        "jobs",
        "Matches each shard runs at once, kept in the league's settings (a shard's own -j overrides \
         it; default: as for `arena tournament`)",
    ),
];

/// The options of `arena tournament` that `arena build` refuses.
const BUILD_REFUSES: [&str; 4] = ["resume", "shard", "rerun", "json"];

/// One `--NAME VALUE` flag per parameter name any game declares; its help says which games
/// take it, what it sets and its default.
fn game_param_flags(mut command: clap::Command, games: &Registry) -> clap::Command {
    let mut flags: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for game in games.games() {
        for p in game.info().params {
            flags.entry(p.name).or_default().push(format!(
                "{}: {}, {} [default: {}]",
                game.name(),
                p.help,
                p.kind.expected(),
                p.default
            ));
        }
    }
    for (name, help) in flags {
        // The flag's id is its name: a game's parameter cannot take a name the command uses.
        command = command.arg(Arg::new(name).long(name).value_name("VALUE").help(help.join("; ")));
    }
    command
}

/// The game parameters given on the command line, by name.
fn game_params(matches: &ArgMatches, games: &Registry) -> BTreeMap<String, String> {
    let names: std::collections::BTreeSet<&str> =
        games.games().flat_map(|g| g.info().params.iter().map(|p| p.name)).collect();
    names
        .into_iter()
        .filter_map(|name| matches.get_one::<String>(name).map(|v| (name.to_string(), v.clone())))
        .collect()
}

impl Cli {
    /// Parses the process's arguments (exiting with clap's message and status on an error).
    pub fn parse_with(games: &Registry) -> Cli {
        Cli::from_matches(&command(games).get_matches(), games).unwrap_or_else(|e| e.exit())
    }

    /// The command line from what clap matched, the games' parameters included.
    fn from_matches(matches: &ArgMatches, games: &Registry) -> Result<Cli, clap::Error> {
        let mut cli = Cli::from_arg_matches(matches)?;
        match (&mut cli.command, matches.subcommand()) {
            (Command::Duel(args), Some((_, sub))) => args.params = game_params(sub, games),
            (Command::Tournament(args), Some((_, sub))) => args.params = game_params(sub, games),
            (Command::Build(args), Some((_, sub))) => args.tournament.params = game_params(sub, games),
            _ => {}
        }
        Ok(cli)
    }
}

/// Runs the chosen command with the games of `games`.
pub fn run(cli: Cli, games: &Registry) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Duel(args) => duel::run(args, games),
        Command::Replay(args) => replay::show(args, games),
        Command::Verify(args) => replay::verify(args, games),
        Command::Tournament(args) => tournament::run(args),
        Command::Leaderboard(args) => tournament::leaderboard(args),
        Command::Build(args) => tournament::build(args),
        Command::Merge(args) => tournament::merge(args),
        Command::Publish(args) => tournament::publish(args),
        Command::Test(args) => course::test(args),
        Command::GenTests(args) => course::gen_tests(args),
        Command::Solve(args) => course::solve(args),
        Command::Play(args) => play::run(args, games),
        Command::Simulate(args) => simulate::run(args),
        Command::View(args) => replay::view(args, games),
        Command::ExportSave(args) => replay::export_save(args, games),
        Command::NewBot(args) => new_bot::run(args, games),
        Command::CheckBot(args) => check_bot::run(args, games),
        Command::Bot(args) => bot::run(args),
    }
}

/// A count of at least 1 (`-j`: no match at a time is no league; more than there are matches
/// plays as many as there are).
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (leave it out for one match per core)".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Bots given to a game no bots play are refused, saying so; the controls: the same bot for
    /// a game bots play, and LCR without bots, pass on to the duel.
    #[test]
    fn a_duel_of_a_game_without_bots_says_it_takes_none() {
        let games = arena::games::registry();
        let duel = |args: &[&str]| match parse(&games, &[&["arena", "duel"], args].concat()) {
            Ok(Cli { command: Command::Duel(duel), .. }) => {
                let game = games.get(&duel.game).unwrap();
                duel::no_bots_to_give(&duel, game).err().map(|e| e.to_string())
            }
            _ => panic!("{args:?} parses"),
        };
        assert_eq!(
            duel(&["--game", "lcr", "--players", "3", "./bot"]).as_deref(),
            Some(
                "Wild Left-Center-Right has no bots: chance plays for every player, so a duel takes no bot command \
                 lines: leave out `./bot` (`arena duel --game lcr --players N`)"
            )
        );
        assert!(duel(&["--game", "lcr", "./a", "./b"]).is_some_and(|e| e.contains("leave out `./a` `./b`")));
        assert_eq!(duel(&["--game", "atoms", "./a", "./b"]), None);
        assert_eq!(duel(&["--game", "lcr", "--players", "3"]), None);
    }

    fn parse(games: &Registry, args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::from_matches(&command(games).try_get_matches_from(args)?, games)
    }

    /// A writer into a shared buffer, for what `tracing` writes.
    #[derive(Clone)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What `tracing` writes of a warning quoting `value` (as a field and in the
    /// message), with colours, through [`SafeLog`] or (`safe` false) as it is.
    fn logged(value: &str, safe: bool) -> String {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let buf = buf.clone();
            move || Sink(buf.clone())
        };
        let warn = || tracing::warn!(path = %value, "{value}: Permission denied");
        if safe {
            let log = tracing_subscriber::fmt()
                .with_writer(SafeLog { inner: sink, ansi: true, shown: ShownBar::default() })
                .with_ansi(true);
            tracing::subscriber::with_default(log.finish(), warn);
        } else {
            tracing::subscriber::with_default(
                tracing_subscriber::fmt().with_writer(sink).with_ansi(true).finish(),
                warn,
            );
        }
        let text = buf.lock().unwrap().clone();
        String::from_utf8(text).unwrap()
    }

    /// A notice to the user (the overloaded machine's warning) is written as its sentence alone,
    /// still on the log's writer, stderr: it was a log line with its time, level and module. The
    /// control: a log line keeps them.
    #[test]
    fn a_notice_is_a_plain_sentence_and_a_log_line_keeps_its_form() {
        let sink = Sink(Arc::new(Mutex::new(Vec::new())));
        let writer = {
            let sink = sink.clone();
            move || sink.clone()
        };
        tracing::subscriber::with_default(
            subscriber(EnvFilter::new("warn"), writer, false, ShownBar::default()),
            || {
                tracing::warn!(target: arena::referee::NOTICE, "warning: the machine is overloaded.");
                tracing::warn!("a log line");
            },
        );
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.first(), Some(&"warning: the machine is overloaded."), "{text}");
        assert!(lines.get(1).is_some_and(|l| l.contains(" WARN ") && l.ends_with(": a log line")), "{text}");
        assert_eq!(lines.len(), 2, "each once: {text}");
    }

    /// A file name in a student's folder (or a bot's name) that a warning quotes, with a line
    /// break, a carriage return, an override and an escape sequence, cannot forge a line of the log on the
    /// teacher's terminal: the event stays one line, with them shown, and its colours. The
    /// control: as `tracing` writes it, the forged line starts.
    #[test]
    fn a_file_name_cannot_forge_a_line_of_the_log() {
        let forged = "plan: 2 matches to play (evil 2, greedy 2), 0 kept";
        let name = format!("/s/evil/x\n{forged}\r\u{202e}\u{1b}[2J");
        let shown = logged(&name, true);
        assert_eq!(shown.lines().count(), 1, "{shown:?}");
        assert!(shown.contains(&format!("/s/evil/x\\n{forged}\\r\\u{{202e}}")), "{shown:?}");
        assert!(!shown.contains("\u{1b}[2J") && shown.contains("\u{1b}[33m"), "its colours only: {shown:?}");
        // The control: as `tracing` writes it, a forged line, and the escape sequence of the
        // field's value as it is.
        let raw = logged(&name, false);
        assert!(raw.lines().any(|l| l.starts_with(forged)), "a forged line: {raw:?}");
        assert!(raw.contains("\u{1b}[2J"), "{raw:?}");
    }

    /// A league takes every limit flag a duel does, over its configured `[limits]`: given,
    /// a flag replaces the configured value; not given, the configured value stays.
    #[test]
    fn a_tournament_takes_the_duels_limit_flags_over_its_config() {
        use std::time::Duration;
        let games = arena::games::registry();
        let flags = ["--stderr-rate", "0", "--max-line", "80", "--grace-ms", "50", "--move-ms", "300"];
        let Ok(Cli { command: Command::Tournament(t), .. }) =
            parse(&games, &[&["arena", "tournament", "--config", "league.toml"][..], &flags].concat())
        else {
            panic!("a tournament")
        };
        let mut limits = arena::tournament::config::LimitsConfig {
            stderr_rate: Some(1000),
            startup_ms: Some(4000),
            move_ms: Some(900),
            ..Default::default()
        };
        t.limits.apply(&mut limits);
        let chosen = limits.limits();
        assert_eq!((chosen.stderr_rate, chosen.max_line), (0, 80));
        assert_eq!((chosen.grace, chosen.per_move), (Duration::from_millis(50), Duration::from_millis(300)));
        assert_eq!(chosen.startup, Duration::from_millis(4000), "not given: the config's");
    }

    #[test]
    fn the_command_line_builds_with_every_games_flags() {
        // clap checks that no game's parameter takes a name the command already uses.
        command(&arena::games::registry()).debug_assert();
    }

    #[test]
    fn game_parameters_are_duel_flags_from_the_registry() {
        let games = arena::games::registry();
        let Ok(Cli { command: Command::Duel(duel), .. }) =
            parse(&games, &["arena", "duel", "--game", "atoms", "--size", "4x4", "a", "b"])
        else {
            panic!("a duel")
        };
        assert_eq!(duel.params, BTreeMap::from([("size".to_string(), "4x4".to_string())]));
        assert!(parse(&games, &["arena", "duel", "--rounds", "3"]).is_ok(), "Tactics brings --rounds");
        // Control: a registry without those games has no such flags.
        let none = Registry::default();
        assert!(parse(&none, &["arena", "duel", "--size", "4x4"]).is_err());
        let help = command(&games).find_subcommand_mut("duel").unwrap().render_long_help().to_string();
        assert!(help.contains("atoms: the size of the board") && help.contains("[default: 6x5]"), "{help}");
        assert!(help.contains("Milliseconds for each later answer [default: 1000]"), "{help}");
    }

    #[test]
    fn leagues_take_the_games_parameters_too() {
        let games = arena::games::registry();
        let tournament = parse(&games, &["arena", "tournament", "--game", "atoms", "--size", "5x5", "--rounds", "2"]);
        let Ok(Cli { command: Command::Tournament(args), .. }) = tournament else { panic!("a tournament") };
        let want = BTreeMap::from([("rounds".to_string(), "2".to_string()), ("size".to_string(), "5x5".to_string())]);
        assert_eq!(args.params, want);
        let Ok(Cli { command: Command::Build(args), .. }) =
            parse(&games, &["arena", "build", "c.toml", "--size", "4x4"])
        else {
            panic!("a build")
        };
        assert_eq!(args.tournament.params, BTreeMap::from([("size".to_string(), "4x4".to_string())]));
        assert!(parse(&Registry::default(), &["arena", "tournament", "--size", "4x4"]).is_err(), "no game, no flag");
        // A build's help leaves out the run's flags it refuses; the tournament's shows them.
        let mut command = command(&games);
        let build = command.find_subcommand_mut("build").unwrap().render_long_help().to_string();
        let offers = |help: &str, flag: &str| help.lines().any(|l| l.trim_start().starts_with(&format!("--{flag}")));
        for flag in BUILD_REFUSES {
            assert!(!offers(&build, flag), "--{flag} in {build}");
        }
        assert!(offers(&build, "size") && offers(&build, "exclude"), "{build}");
        let tournament = command.find_subcommand_mut("tournament").unwrap().render_long_help().to_string();
        assert!(BUILD_REFUSES.iter().all(|flag| offers(&tournament, flag)), "{tournament}");
    }

    /// `arena build --help` speaks of a build: no flag's help names `--resume` (which a build
    /// refuses) nor a run's default folder, and `--config`, `--out`, `-j` say what a build does
    /// with them. The control: the tournament's help, which the build's was, still says them.
    #[test]
    fn a_builds_help_speaks_of_a_build() {
        let games = arena::games::registry();
        let mut command = command(&games);
        let build = command.find_subcommand_mut("build").unwrap().render_long_help().to_string();
        let tournament = command.find_subcommand_mut("tournament").unwrap().render_long_help().to_string();
        let run_words = ["--resume", "With --resume", "a new folder under replays/", "Matches run at once"];
        for words in run_words {
            assert!(!build.contains(words), "`{words}` in the build's help: {build}");
            assert!(tournament.contains(words), "the control: `{words}` in the tournament's help: {tournament}");
        }
        for (_, help) in BUILD_HELP {
            assert!(build.contains(help), "`{help}` not in the build's help: {build}");
            assert!(!tournament.contains(help), "`{help}` in the tournament's help");
        }
    }

    /// The README's synopsis (`## Commands`) gives every flag of every command, on the
    /// command's lines or named by the paragraph below it (the sandbox's `--max-…` by its
    /// `…`), and no flag a command does not take. (It left out `arena test --logs` and
    /// `arena tournament --json`: the control is that both are flags the check looks for.)
    #[test]
    fn the_readme_s_synopsis_gives_every_flag_of_every_command() {
        let readme = include_str!("../../../README.md");
        let section = &readme[readme.find("## Commands\n").unwrap()..];
        let code = &section[section.find("```\n").unwrap() + 4..];
        let (code, rest) = code.split_once("```").unwrap();
        let shared = rest.trim_start().split("\n\n").next().unwrap();
        // The right column's notes, in parentheses (over lines too), are not flags of a command.
        let mut plain = String::new();
        let mut depth = 0;
        for c in code.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let flags = |text: &str| -> std::collections::BTreeSet<String> {
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .filter(|w| w.starts_with('-') && w.len() > 1 && !w.starts_with("---"))
                .map(str::to_string)
                .collect()
        };
        let mut given: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        let mut current = String::new();
        for line in plain.lines() {
            // A line goes on with the command above it until one starts (several may share a line).
            let mut parts = line.split("arena ");
            let lead = flags(parts.next().unwrap_or_default());
            given.entry(current.clone()).or_default().extend(lead);
            for part in parts {
                current = part.split_whitespace().next().unwrap_or_default().to_string();
                given.entry(current.clone()).or_default().extend(flags(part));
            }
        }
        given.retain(|_, f| !f.is_empty());
        // `arena build` takes the tournament's flags, as its note says.
        let build_as_tournament = code.contains("also the tournament's flags");
        let shared = flags(shared);
        let games = arena::games::registry();
        let cli = command(&games);
        let mut taken_by = BTreeMap::new();
        for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut takes = std::collections::BTreeSet::new();
            for arg in sub.get_arguments().filter(|a| !a.is_positional()) {
                let (long, short) =
                    (arg.get_long().map(|l| format!("--{l}")), arg.get_short().map(|s| format!("-{s}")));
                if matches!(long.as_deref(), Some("--help" | "--verbose" | "--version")) {
                    continue;
                }
                takes.extend(long.clone());
                takes.extend(short.clone());
                let said = |f: &Option<String>| {
                    let on = |name: &str| given.get(name).is_some_and(|g| f.as_ref().is_some_and(|f| g.contains(f)));
                    on(sub.get_name())
                        || (sub.get_name() == "build" && build_as_tournament && on("tournament"))
                        || f.as_ref().is_some_and(|f| shared.contains(f))
                };
                let sandbox = long.as_deref().is_some_and(|l| l.starts_with("--max-"));
                assert!(said(&long) || said(&short) || sandbox, "README: `arena {}` lacks {long:?}", sub.get_name());
            }
            taken_by.insert(sub.get_name().to_string(), takes);
        }
        for (name, flags) in &given {
            let takes = taken_by.get(name).unwrap_or_else(|| panic!("README: no command `arena {name}`"));
            for f in flags {
                assert!(takes.contains(f), "README: `arena {name}` takes no {f}");
            }
        }
        assert!(taken_by["test"].contains("--logs") && taken_by["tournament"].contains("--json"));
    }
}
