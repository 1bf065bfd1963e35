//! `arena bot NAME`: plays a built-in sample bot on stdin/stdout, so that anyone with the arena
//! binary has opponents: `arena duel --map maps/duel.txt ./mybot "arena bot greedy"`.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

/// The built-in sample bots.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SampleBot {
    /// Best value per tick of distance, always keeping time to reach the final.
    Greedy,
    /// Plans a whole route and replans every tick (passes all 20 tests).
    Reference,
}

/// Options of `arena bot`.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// Which sample bot to play.
    #[arg(value_enum)]
    pub name: SampleBot,
}

/// Runs `arena bot`.
pub fn run(args: BotArgs) -> anyhow::Result<ExitCode> {
    match args.name {
        SampleBot::Greedy => bot_sdk::run(sample_bots::greedy::Greedy)?,
        SampleBot::Reference => bot_sdk::run(sample_bots::reference::Reference::default().capped())?,
    }
    Ok(ExitCode::SUCCESS)
}
