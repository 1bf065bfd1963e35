//! Command-line parsing and dispatch. Results go to stdout; logs go to stderr via `tracing`.

mod duel;
mod replay;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use tracing_subscriber::EnvFilter;

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
}

/// Options of `arena duel`.
#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The game to play.
    #[arg(long, default_value = "resource-rush")]
    pub game: String,
    /// The map file.
    #[arg(long)]
    pub map: PathBuf,
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
    /// The bots' command lines, in player order (split like a shell would, no shell is run).
    #[arg(required = true, num_args = 2.., value_name = "BOT")]
    pub bots: Vec<String>,
}

/// Time and size limits (defaults from the rulings).
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Milliseconds for a bot's first answer, start-up included.
    #[arg(long, default_value_t = 2000)]
    pub startup_ms: u64,
    /// Milliseconds for each later answer.
    #[arg(long, default_value_t = 1000)]
    pub move_ms: u64,
    /// Milliseconds of answer time per bot over the whole game.
    #[arg(long, default_value_t = 5000)]
    pub total_ms: u64,
    /// Milliseconds a finished bot may take to exit before it is ended.
    #[arg(long, default_value_t = 200)]
    pub grace_ms: u64,
    /// Longest accepted answer line, in bytes.
    #[arg(long, default_value_t = 4096)]
    pub max_line: usize,
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

/// Sends `tracing` output to stderr: warnings by default, more with -v, RUST_LOG wins.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

/// Runs the chosen command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Duel(args) => duel::run(args),
        Command::Replay(args) => replay::show(args),
        Command::Verify(args) => replay::verify(args),
    }
}
