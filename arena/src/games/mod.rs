//! The hosted games, one folder each, and the registry that finds them by name.

pub mod atoms;
pub mod classic_input;
pub mod lcr;
pub mod resource_rush;
pub mod tactics;

use crate::engine::{Game, SetupError};

/// Every hosted game.
pub fn all() -> [&'static dyn Game; 5] {
    [
        &resource_rush::ResourceRushGame,
        &resource_rush::ResourceRushTestGame,
        &lcr::LcrGame,
        &atoms::hosted::AtomsGame,
        &tactics::hosted::TacticsGame,
    ]
}

/// The game called `name` (as written in replays and on the command line).
pub fn by_name(name: &str) -> Result<&'static dyn Game, SetupError> {
    all().into_iter().find(|g| g.name() == name).ok_or_else(|| {
        let names: Vec<&str> = all().iter().map(|g| g.name()).collect();
        SetupError::UnknownGame(name.to_string(), names.join(", "))
    })
}
