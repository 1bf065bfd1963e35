//! A hosted game ([`Game`]: its [`GameInfo`], and how to make a match's first state), the
//! options of a new match, and the [`Registry`] of games that the command line, replays and
//! tournaments are given (they never look a game up anywhere else).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use thiserror::Error;

use super::{BoxError, GameInfo, ParamError, PlayerId, State};

/// How a game's fix for a malformed line begins when the line is words, no answer's shape: most
/// likely debug output printed to stdout ([`Game::malformed_fix`]). One text, so that check-bot
/// tells such a line from a mis-written answer, and counts it with a line no prompt asked for.
pub const DEBUG_LINE_FIX: &str = "if that line is debug output, write it to stderr";

/// A hosted game: what it says about itself and how to build a match's initial state.
pub trait Game: Sync {
    /// The game's description.
    fn info(&self) -> &GameInfo;

    /// How the replay viewer draws the game: a script (the game's own `viewer.js`) that sets
    /// `window.arena.renderer`. None: the viewer's generic table of steps.
    fn renderer(&self) -> Option<&'static str> {
        None
    }

    /// A fresh initial state from a setup recorded by [`State::setup`].
    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError>;

    /// A new match from options (a map file, a player count, the game's parameters).
    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError>;

    /// The name used in replays and on the command line.
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// How to fix an answer `line` this game could not read (`move 1 2`: write `MOVE 1 2`),
    /// for the messages that explain a forfeit to the bot's author; shown, never recorded (a
    /// replay keeps the game's own detail). None: the game has no advice. A line that is no
    /// answer's shape at all (words: most likely debug output) gets a fix that starts with
    /// [`DEBUG_LINE_FIX`], by which check-bot knows it for a stray line.
    fn malformed_fix(&self, _line: &str) -> Option<String> {
        None
    }

    /// How to fix an answer `line` of `player` that the rules refused, told from the `frame` it
    /// answered (the state it was shown): which field or cell was wrong and why (water, another
    /// player's, off the board, counted from the wrong end). Shown, never recorded, as
    /// [`Game::malformed_fix`]. None: the game has no advice.
    fn invalid_move_fix(&self, _frame: &Value, _player: PlayerId, _line: &str) -> Option<String> {
        None
    }

    /// The state a replay's `frames` show after the last of them (the initial frame first, then
    /// the steps' frames in order), as whole as the initial frame: what
    /// [`Game::invalid_move_fix`] reads. A game whose steps' frames record only what changed
    /// applies the changes. Default: the last frame, whole already. None: no frames, or frames
    /// this game did not write.
    fn whole_frame(&self, frames: &[&Value]) -> Option<Value> {
        frames.last().map(|f| (*f).clone())
    }

    /// Whether leaderboards rank this game by wins first (else by total score first).
    fn ranks_by_wins(&self) -> bool {
        self.info().ranking == super::Ranking::Wins
    }
}

/// What is chosen for a new match; each game reads what its [`GameInfo`] declares.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// The map file, for a game played on one ([`super::PlaysOn::MapFile`]).
    pub map: Option<PathBuf>,
    /// The map file's content, read once before a run (so that every match of a tournament
    /// plays the same map, whatever happens to the file); read from `map` when absent.
    pub text: Option<Arc<str>>,
    /// Number of players (default: the smallest the game allows).
    pub players: Option<usize>,
    /// The game's parameters by name, as written (`size` = `6x5`); checked by
    /// [`GameInfo::params`], which fills in the defaults.
    pub params: BTreeMap<String, String>,
}

/// A game's setup could not be loaded (a bad replay, a bad map, bad options).
#[derive(Debug, Error)]
pub enum SetupError {
    /// A recorded setup is not valid for this game.
    #[error("invalid {game} setup: {source}")]
    Invalid {
        /// The game's name.
        game: &'static str,
        /// What is wrong.
        source: BoxError,
    },
    /// No game of this name is in the registry.
    #[error("unknown game `{name}` (hosted: {hosted}){}", .closest.as_ref().map_or(String::new(), |c| format!(": did you mean `{c}`?")))]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The registry's names.
        hosted: String,
        /// The hosted name it most likely meant (the same but for case, or a letter or two apart).
        closest: Option<String>,
    },
    /// The registry holds no game, so none can be chosen by default.
    #[error("no game is hosted: the registry is empty")]
    NoGames,
    /// The game needs a file for each match and none was given.
    #[error("{title} needs a {noun}: --map FILE")]
    NoMap {
        /// The game's title.
        title: &'static str,
        /// What its file is called.
        noun: &'static str,
    },
    /// A map file was given to a game played on its parameters alone.
    #[error(
        "{title} is played on its parameters alone, not on a map file: leave out `{map}` (--map, or a config's `maps`)"
    )]
    MapNotUsed {
        /// The game's title.
        title: &'static str,
        /// The map given.
        map: String,
    },
    /// The number of players does not fit the game.
    #[error("{title} is played by {allowed}, not {given}")]
    Players {
        /// The game's title.
        title: &'static str,
        /// The counts it allows, in words.
        allowed: String,
        /// The count asked for.
        given: usize,
    },
    /// A parameter does not fit the game.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A map or option given for a new match is not usable; the cause names where and what.
    #[error(transparent)]
    BadInput(BoxError),
}

impl SetupError {
    /// A recorded setup of `game` that is not valid, and why.
    pub fn invalid(game: &'static str, source: impl Into<BoxError>) -> Self {
        SetupError::Invalid { game, source: source.into() }
    }
}

/// The one of `names` that `name` most likely meant: the same but for case, else the nearest
/// within two letters' edits (`tactic`, `atom`, `resource_rush`; a config's `gmaes`). For a
/// "did you mean" in messages.
pub fn closest_name<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_lowercase();
    if let Some(same) = names.iter().find(|n| n.to_lowercase() == lower) {
        return Some(same);
    }
    let distance = |n: &&&str| strsim::damerau_levenshtein(&lower, n);
    names.iter().filter(|n| distance(n) <= 2).min_by_key(distance).copied()
}

/// The games an arena knows, by name. The arena's own are `arena::games::registry()`; a
/// program (or a test) can add its own with [`Registry::with`].
#[derive(Clone, Default)]
pub struct Registry {
    games: Vec<&'static dyn Game>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Registry {
    /// A registry of `games` (a later game replaces an earlier one of the same name).
    pub fn new(games: impl IntoIterator<Item = &'static dyn Game>) -> Self {
        games.into_iter().fold(Registry::default(), Registry::with)
    }

    /// This registry and `game` (which replaces a game of the same name).
    pub fn with(mut self, game: &'static dyn Game) -> Self {
        self.games.retain(|g| g.name() != game.name());
        self.games.push(game);
        self
    }

    /// The game called `name`.
    pub fn get(&self, name: &str) -> Result<&'static dyn Game, SetupError> {
        self.games.iter().copied().find(|g| g.name() == name).ok_or_else(|| SetupError::UnknownGame {
            name: name.to_string(),
            hosted: self.names().join(", "),
            closest: self.closest(name).map(str::to_string),
        })
    }

    /// The hosted name `name` most likely meant ([`closest_name`]).
    fn closest(&self, name: &str) -> Option<&'static str> {
        closest_name(name, &self.names())
    }

    /// The first game: what plays where none is named (a league config without `game`).
    pub fn first(&self) -> Result<&'static dyn Game, SetupError> {
        self.games.first().copied().ok_or(SetupError::NoGames)
    }

    /// The game called `name`, or the first where `name` is empty (a league config without `game`).
    pub fn named_or_first(&self, name: &str) -> Result<&'static dyn Game, SetupError> {
        if name.is_empty() {
            self.first()
        } else {
            self.get(name)
        }
    }

    /// Every game, in registry order.
    pub fn games(&self) -> impl Iterator<Item = &'static dyn Game> + '_ {
        self.games.iter().copied()
    }

    /// Every listed game's name ([`super::GameInfo::listed`]), in registry order: what messages
    /// offer students (an internal variant is still found by [`Registry::get`]).
    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().filter(|g| g.info().listed).map(|g| g.name()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_registry_says_so() {
        let empty = Registry::default();
        assert_eq!(
            empty.first().err().map(|e| e.to_string()).as_deref(),
            Some("no game is hosted: the registry is empty")
        );
        let unknown = empty.get("chess").err().map(|e| e.to_string());
        assert_eq!(unknown.as_deref(), Some("unknown game `chess` (hosted: )"));
    }

    /// A name off by case or a letter or two is answered with the hosted one; the control: a
    /// name like none of them gets no guess.
    #[test]
    fn an_unknown_game_is_answered_with_the_name_it_likely_meant() {
        let games = crate::games::registry();
        let said = |name: &str| games.get(name).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(said("Atoms").ends_with(": did you mean `atoms`?"), "{}", said("Atoms"));
        assert!(said("tactic").ends_with(": did you mean `tactics`?"), "{}", said("tactic"));
        assert!(said("resource_rush").ends_with(": did you mean `resource-rush`?"), "{}", said("resource_rush"));
        assert!(said("chess").ends_with(')'), "{}", said("chess"));
        assert!(games.get("atoms").is_ok());
    }

    /// Lists students see leave out the internal single-player test variant: an unknown name's
    /// message and its guess (`resource-rush-tst` was answered with the variant); the control:
    /// the variant is still played by its name, as the course's checker and replays need.
    #[test]
    fn internal_variants_are_not_offered_but_still_found() {
        let games = crate::games::registry();
        let said = |name: &str| games.get(name).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(said("chess"), "unknown game `chess` (hosted: resource-rush, lcr, atoms, tactics)");
        assert!(said("resource-rush-tst").ends_with("tactics)"), "no guess: {}", said("resource-rush-tst"));
        assert!(!said("Resource-Rush-Test").contains("resource-rush-test"), "{}", said("Resource-Rush-Test"));
        assert_eq!(games.names(), ["resource-rush", "lcr", "atoms", "tactics"]);
        assert_eq!(games.get("resource-rush-test").map(|g| g.name()).ok(), Some("resource-rush-test"));
    }
}
