//! `arena bot NAME`: plays a built-in sample bot on stdin/stdout, so that anyone with the arena
//! binary has opponents: `arena duel --map maps/duel.txt ./mybot "arena bot greedy"`.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

/// The built-in sample bots.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SampleBot {
    /// Resource Rush: best value per tick of distance, always keeping time to reach the final.
    Greedy,
    /// Resource Rush: plans a whole route and replans every tick (passes all 20 tests).
    Reference,
    /// OOPtimal Tactics: places where there is most to win, then captures what it can afford.
    TacticsGreedy,
    /// Atoms: explodes next to enemy cells, else prefers corners and edges away from threats.
    AtomsGreedy,
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
        SampleBot::TacticsGreedy => bot_sdk::tactics::run_tactics(sample_bots::tactics_greedy::GreedyTactics)?,
        SampleBot::AtomsGreedy => bot_sdk::atoms::run_atoms(sample_bots::atoms_greedy::GreedyAtoms)?,
    }
    Ok(ExitCode::SUCCESS)
}
