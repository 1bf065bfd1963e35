//! The hosted games, one folder each, and their registry. A game's folder holds its rules, its
//! `State`, its `GameInfo` and, when the arena plays the handout's program, that program;
//! adding a game is its folder and one line below (ARCHITECTURE.md has the checklist).

pub(crate) mod board;
pub mod classic_input;

use crate::engine::{Game, Registry, SetupError};

/// Declares each game's module and lists its entries in [`registry`], in that order.
macro_rules! hosted_games {
    ($($module:ident: $($game:ident),+;)+) => {
        $(pub mod $module;)+

        /// The arena's own games, in the order `--help` lists them.
        pub fn registry() -> Registry {
            Registry::new([$($(&$module::$game as &'static dyn Game),+),+])
        }
    };
}

hosted_games! {
    resource_rush: ResourceRushGame, ResourceRushTestGame;
    lcr: LcrGame;
    atoms: AtomsGame;
    tactics: TacticsGame;
}

/// The arena's own game called `name` (as written in replays and on the command line).
pub fn by_name(name: &str) -> Result<&'static dyn Game, SetupError> {
    registry().get(name)
}
