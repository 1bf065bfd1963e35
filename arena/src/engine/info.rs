//! What a game says about itself, as OpenSpiel's `GameType` does: its name, how many play,
//! whether moves are simultaneous or chance plays a part, what a match is played on, how a
//! league ranks it, its parameters (with defaults and checks) and its original text program.
//! The command line, the referee, replays, tournaments and pages read this instead of
//! knowing any game: a new game adds no field, flag or key to shared code.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::ops::RangeInclusive;
use std::path::Path;

use thiserror::Error;

use super::{BoxError, SetupError};

/// How a league ranks a game's bots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// By the sum of their scores first (the course league's order), then wins.
    Score,
    /// By matches won first (a score only says how a match was won), then the sum of scores.
    Wins,
}

/// What a new match is played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaysOn {
    /// A file given for each match (`--map FILE`); `noun` names it in messages (`map`).
    MapFile {
        /// What the file is called: `map`, `config`.
        noun: &'static str,
    },
    /// The game's parameters alone (a board size, a number of players).
    Parameters,
}

/// A game's description. Each game has one, as a constant, returned by its `Game::info`.
#[derive(Debug, Clone)]
pub struct GameInfo {
    /// The registry name: in replays, results and `--game`.
    pub name: &'static str,
    /// The name for people.
    pub title: &'static str,
    /// Whether lists students see name it (unknown-game messages, their did-you-mean); `false`
    /// for an internal variant (Resource Rush's single-player tests), still played by its name.
    pub listed: bool,
    /// How many players a match may have (for a game with no decisions to make, the players
    /// chance plays for).
    pub players: RangeInclusive<usize>,
    /// Whether the players of a turn answer at once (else one at a time).
    pub simultaneous: bool,
    /// Whether chance (dice) plays a part: the match seed matters.
    pub chance: bool,
    /// Whether bot processes play it; `false` for a game with no decisions to make, where
    /// chance plays for every player (a match takes no bot command lines, a league has none
    /// to rank).
    pub bots: bool,
    /// What messages to a bot's author call the game's steps and prompts.
    pub wording: Wording,
    /// What a result table calls a player's score and its `finished` (which each game defines).
    pub columns: Columns,
    /// What a match is played on.
    pub plays_on: PlaysOn,
    /// How a league ranks the game's bots.
    pub ranking: Ranking,
    /// The game's parameters (`size`, `rounds`), each with a default.
    pub params: &'static [ParamSpec],
    /// The handout's own text program, if the arena plays it (`arena play NAME`).
    pub classic: Option<ClassicProgram>,
    /// What `arena new-bot --game NAME` writes for a student's first bot and what its duel
    /// plays; None: the game has no starter (a game without bots has none).
    pub kit: Option<BotKit>,
}

/// A game's part of a student's starter folder (`arena new-bot`): its sample bot in each
/// language, the files and the opponent of its duel, and the README's words on the game. The
/// languages' part (the kit's own files, how to build) is the starter's.
#[derive(Debug, Clone, Copy)]
pub struct BotKit {
    /// The sample bot in each language that has one: the student's first bot.
    pub samples: &'static [KitSample],
    /// The file a duel is played on, when the game is played on one.
    pub map: Option<KitMap>,
    /// More files for the folder (path, text): the course's tests.
    pub files: &'static [(&'static str, &'static str)],
    /// The built-in sample bots (`arena bot NAME`) of the README's duel (the first) and of the
    /// local tournament (all).
    pub opponents: &'static [&'static str],
    /// A third command of the README after the build and the duel, if any: its arguments to the
    /// arena, `{bot}` standing for the bot's command (`test {bot} --tests tests`), what it does
    /// in a few words (`run the 20 tests`), and the README's item explaining it.
    pub more: Option<KitCommand>,
    /// The README's paragraphs: what the sample bot does (after "it starts as the kit's sample
    /// bot"), what the kit does for the game, what `arena check-bot` plays.
    pub readme: KitReadme,
    /// The game's own situations for `arena check-bot`; None: the bot plays each seat against
    /// the game's scripted players ([`super::State::scripted_answer`]).
    pub check: Option<super::Checkup>,
    /// What bounds an array index, in check-bot's fix for an invalid memory access: `the map's
    /// size (N rows, M columns: …)`.
    pub bounds: &'static str,
    /// What the game's lines look like, so that check-bot can tell its bots when another game's
    /// doctor checks them.
    pub speaks: Speaks,
}

/// What a game's protocol looks like, to recognise a bot of this game checked as another's: it
/// quotes the header it expected in its error, or prints this game's answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speaks {
    /// The first word of the first line a bot is sent: `ARENA`.
    pub header: &'static str,
    /// Its answers' shapes, word by word: `#` an integer, any other word itself in any case
    /// (`MOVE # #`, `WAIT`).
    pub answers: &'static [&'static str],
}

impl Speaks {
    /// Whether `line` has the shape of one of the game's answers.
    pub fn is_answer(&self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        self.answers.iter().any(|shape| {
            let shape: Vec<&str> = shape.split_whitespace().collect();
            shape.len() == words.len()
                && shape.iter().zip(&words).all(|(s, w)| match *s {
                    "#" => w.parse::<i64>().is_ok(),
                    s => s.eq_ignore_ascii_case(w),
                })
        })
    }

    /// Whether `text` (a bot's error) names the game's header word, as a word of its own.
    pub fn is_quoted(&self, text: &str) -> bool {
        text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == self.header)
    }
}

/// The file a starter's duel is played on.
#[derive(Debug, Clone, Copy)]
pub struct KitMap {
    /// Its path in the folder (`maps/duel.txt`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
    /// What it is, in a few words (`the course's duel map`).
    pub about: &'static str,
}

/// One language's sample bot for a game.
#[derive(Debug, Clone, Copy)]
pub struct KitSample {
    /// The language's name on the command line (`cpp`, `c`, `python`, `rust`).
    pub lang: &'static str,
    /// The sample's own file name where it is kept (`greedy.c`), which its text names; the
    /// starter writes it under the kit's name for the bot (`bot.c`).
    pub file: &'static str,
    /// Its text.
    pub text: &'static str,
    /// The function a student edits (`act`, `place`).
    pub function: &'static str,
}

/// A third command of a starter's README.
#[derive(Debug, Clone, Copy)]
pub struct KitCommand {
    /// Its arguments to the arena, `{bot}` standing for the bot's command.
    pub args: &'static str,
    /// What it does, in a few words.
    pub what: &'static str,
    /// The README's item on it (after its number).
    pub readme: &'static str,
}

/// The game's words in a starter's README.
#[derive(Debug, Clone, Copy)]
pub struct KitReadme {
    /// What the sample bot does.
    pub sample: &'static str,
    /// What the kit does for this game (reads the prompts, …).
    pub kit: &'static str,
    /// What `arena check-bot` plays.
    pub check: &'static str,
}

impl GameInfo {
    /// The number of players of a new match: `given` if the game allows it, else the
    /// smallest number the game allows.
    pub fn player_count(&self, given: Option<usize>) -> Result<usize, SetupError> {
        let n = given.unwrap_or(*self.players.start());
        if self.players.contains(&n) {
            return Ok(n);
        }
        let (lo, hi) = (*self.players.start(), *self.players.end());
        let allowed = match (lo == hi, lo == 1) {
            (true, true) => "exactly 1 player".to_string(),
            (true, false) => format!("exactly {lo} players"),
            (false, _) => format!("{lo} to {hi} players"),
        };
        Err(SetupError::Players { title: self.title, allowed, given: n })
    }

    /// Checks that a match is given a map file only if the game is played on one: a game
    /// played on its parameters alone would ignore it (and pages would name a map it never used).
    pub fn check_map(&self, map: Option<&Path>) -> Result<(), SetupError> {
        match (self.plays_on, map) {
            (PlaysOn::Parameters, Some(map)) => {
                Err(SetupError::MapNotUsed { title: self.title, map: map.display().to_string() })
            }
            _ => Ok(()),
        }
    }

    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Checks `given` (parameter values by name, as written) against the game's parameters:
    /// each must be one of them and parse; those not given take their defaults.
    pub fn params(&self, given: &BTreeMap<String, String>) -> Result<Params, ParamError> {
        let mut values = BTreeMap::new();
        for (name, text) in given {
            let spec = self.param(name).ok_or_else(|| ParamError::Unknown {
                game: self.name,
                name: name.clone(),
                known: match self.params {
                    [] => "it has none".to_string(),
                    all => {
                        let names: Vec<String> = all.iter().map(|p| format!("`{}`", p.name)).collect();
                        format!("its parameters: {}", names.join(", "))
                    }
                },
            })?;
            values.insert(spec.name, spec.kind.parse(spec.name, text)?);
        }
        for spec in self.params {
            if !values.contains_key(spec.name) {
                values.insert(spec.name, spec.kind.parse(spec.name, spec.default)?);
            }
        }
        Ok(Params { game: self.name, values })
    }
}

/// How explanations of a forfeit name a game's steps and prompts, so that the shared code
/// speaks each game's language ("after TICK 4" for Resource Rush, "at step 4" elsewhere).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wording {
    /// One step of a match, as in "at step 4": `tick`.
    pub step: &'static str,
    /// What a bot is sent when it must answer, as in "no prompt asked for": `TICK line`.
    pub prompt: &'static str,
    /// What to feed a bot run by hand to reach a state: `the header and TICK lines`.
    pub input: &'static str,
}

impl Wording {
    /// Words that fit any game.
    pub const NEUTRAL: Wording = Wording { step: "step", prompt: "prompt", input: "the lines it was sent" };
}

/// The headers of a result table's game-defined columns (`arena duel`), so that each game's
/// table says what its numbers mean: "finished" is Resource Rush's goal, "won" another game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    /// What a player's score counts: `score`, `fields`.
    pub score: &'static str,
    /// What a player's `finished` means: `finished` (reached the goal), `won`.
    pub finished: &'static str,
}

impl Columns {
    /// A score, and `finished` meaning the player won.
    pub const WON: Columns = Columns { score: "score", finished: "won" };
}

/// One parameter of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamSpec {
    /// Its name: `--NAME VALUE` on the command line.
    pub name: &'static str,
    /// What it sets, for `--help`.
    pub help: &'static str,
    /// What values it takes.
    pub kind: ParamKind,
    /// Its value when none is given, as written.
    pub default: &'static str,
}

/// The values a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number from `min` to `max`.
    Count {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A board size `WIDTHxHEIGHT`, each side from `min` to `max`.
    Size {
        /// Smallest side.
        min: usize,
        /// Largest side.
        max: usize,
    },
}

impl ParamKind {
    /// What a value looks like, for messages and `--help`.
    pub fn expected(&self) -> String {
        match *self {
            ParamKind::Count { min, max } => format!("a whole number from {min} to {max}"),
            ParamKind::Size { min, max } => format!("WIDTHxHEIGHT such as 6x5, each side {min} to {max}"),
        }
    }

    /// Parses `text` as a value of parameter `name` (the one place a `WIDTHxHEIGHT` is read).
    pub fn parse(&self, name: &str, text: &str) -> Result<ParamValue, ParamError> {
        let bad = || ParamError::Bad { name: name.to_string(), value: text.to_string(), expected: self.expected() };
        match *self {
            ParamKind::Count { min, max } => {
                let n: u64 = text.trim().parse().map_err(|_| bad())?;
                (min..=max).contains(&n).then_some(ParamValue::Count(n)).ok_or_else(bad)
            }
            ParamKind::Size { min, max } => {
                let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
                let (w, h): (usize, usize) =
                    (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
                let fits = |side: usize| (min..=max).contains(&side);
                (fits(w) && fits(h)).then_some(ParamValue::Size(w, h)).ok_or_else(bad)
            }
        }
    }
}

/// A parameter's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamValue {
    /// A whole number.
    Count(u64),
    /// A board size (width, height).
    Size(usize, usize),
}

/// A game's parameters, checked and complete (defaults filled in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    game: &'static str,
    values: BTreeMap<&'static str, ParamValue>,
}

impl Params {
    fn get(&self, name: &str) -> Result<ParamValue, ParamError> {
        self.values.get(name).copied().ok_or_else(|| ParamError::Undeclared { game: self.game, name: name.to_string() })
    }

    /// The whole number `name`.
    pub fn count(&self, name: &str) -> Result<u64, ParamError> {
        match self.get(name)? {
            ParamValue::Count(n) => Ok(n),
            ParamValue::Size(..) => Err(ParamError::Undeclared { game: self.game, name: name.to_string() }),
        }
    }

    /// The board size `name`, as (width, height).
    pub fn size(&self, name: &str) -> Result<(usize, usize), ParamError> {
        match self.get(name)? {
            ParamValue::Size(w, h) => Ok((w, h)),
            ParamValue::Count(_) => Err(ParamError::Undeclared { game: self.game, name: name.to_string() }),
        }
    }
}

/// A parameter that does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamError {
    /// The game has no parameter of this name.
    #[error("{game} has no parameter `{name}` ({known})")]
    Unknown {
        /// The game.
        game: &'static str,
        /// The name given.
        name: String,
        /// What parameters it has, in words.
        known: String,
    },
    /// The value does not parse or is out of range.
    #[error("--{name}: expected {expected}, found `{value}`")]
    Bad {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// What a value looks like.
        expected: String,
    },
    /// The game asked for a parameter of a kind it did not declare (a bug in the game).
    #[error("{game} reads a parameter `{name}` it does not declare")]
    Undeclared {
        /// The game.
        game: &'static str,
        /// The parameter.
        name: String,
    },
}

/// A handout's original text program, run byte for byte (`arena play NAME`).
#[derive(Debug, Clone, Copy)]
pub struct ClassicProgram {
    /// Whether it takes parameters of its own on the command line (`arena play NAME
    /// PARAMS…`, as a C program takes its `argv`); without, any is refused before it runs.
    pub takes_params: bool,
    /// Runs it to its end; returns its exit status.
    pub run: fn(ClassicSession<'_>) -> Result<i32, ClassicError>,
}

/// What a classic program runs with.
pub struct ClassicSession<'a> {
    /// Its own parameters, as bytes (a C program's `argv`).
    pub params: &'a [OsString],
    /// The seed of its dice, for a game with chance.
    pub seed: u64,
    /// Its dice given in advance instead (`--dice 7,0,4`), for a game with chance.
    pub dice: Option<&'a str>,
    /// Its standard input.
    pub input: &'a mut dyn BufRead,
    /// Its standard output.
    pub output: &'a mut dyn Write,
    /// Where it reads and writes files (save files).
    pub dir: &'a Path,
}

/// Why a classic program could not run.
#[derive(Debug, Error)]
pub enum ClassicError {
    /// Reading its input or writing its output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Its command-line options are not usable (dice that are not dice).
    #[error(transparent)]
    Options(BoxError),
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: ParamSpec =
        ParamSpec { name: "size", help: "board size", kind: ParamKind::Size { min: 2, max: 255 }, default: "6x5" };
    const ROUNDS: ParamSpec =
        ParamSpec { name: "rounds", help: "rounds", kind: ParamKind::Count { min: 1, max: 100 }, default: "10" };

    fn info(players: RangeInclusive<usize>) -> GameInfo {
        GameInfo {
            name: "toy",
            title: "Toy",
            listed: true,
            players,
            simultaneous: false,
            chance: false,
            bots: true,
            wording: Wording::NEUTRAL,
            columns: Columns::WON,
            plays_on: PlaysOn::Parameters,
            ranking: Ranking::Score,
            params: &[SIZE, ROUNDS],
            classic: None,
            kit: None,
        }
    }

    #[test]
    fn sizes_parse_in_one_place() {
        let p = |t: &str| SIZE.kind.parse("size", t);
        assert_eq!(p("6x5"), Ok(ParamValue::Size(6, 5)));
        assert_eq!(p(" 7 x 3 "), Ok(ParamValue::Size(7, 3)), "spaces around the numbers are fine");
        for bad in ["6", "6x", "x5", "6x5x4", "1x5", "256x2", "axb", "-3x4", ""] {
            let err = p(bad).unwrap_err().to_string();
            assert_eq!(err, format!("--size: expected WIDTHxHEIGHT such as 6x5, each side 2 to 255, found `{bad}`"));
        }
    }

    #[test]
    fn params_take_defaults_and_refuse_strangers() {
        let game = info(2..=6);
        let none = game.params(&BTreeMap::new()).unwrap();
        assert_eq!((none.size("size"), none.count("rounds")), (Ok((6, 5)), Ok(10)));
        let given = BTreeMap::from([("rounds".to_string(), "3".to_string())]);
        assert_eq!(game.params(&given).unwrap().count("rounds"), Ok(3));
        let stranger = BTreeMap::from([("colour".to_string(), "red".to_string())]);
        assert_eq!(
            game.params(&stranger).unwrap_err().to_string(),
            "toy has no parameter `colour` (its parameters: `size`, `rounds`)"
        );
        let zero = BTreeMap::from([("rounds".to_string(), "0".to_string())]);
        assert!(game.params(&zero).is_err(), "out of range");
        assert!(none.count("size").is_err() && none.size("depth").is_err(), "a game reads what it declares");
    }

    /// A game played on its parameters refuses a map file (it would ignore it); the control: a
    /// game on map files takes one, and either takes none here.
    #[test]
    fn a_map_is_refused_by_a_game_played_on_parameters() {
        let err = info(2..=6).check_map(Some(Path::new("maps/duel.txt"))).unwrap_err().to_string();
        assert_eq!(
            err,
            "Toy is played on its parameters alone, not on a map file: leave out `maps/duel.txt` (--map, or a \
             config's `maps`)"
        );
        assert!(info(2..=6).check_map(None).is_ok());
        let on_maps = GameInfo { plays_on: PlaysOn::MapFile { noun: "map" }, ..info(2..=2) };
        assert!(on_maps.check_map(Some(Path::new("maps/duel.txt"))).is_ok());
    }

    #[test]
    fn player_counts_default_to_the_smallest_and_are_checked() {
        assert_eq!(info(2..=6).player_count(None).unwrap(), 2);
        assert_eq!(info(2..=6).player_count(Some(6)).unwrap(), 6);
        assert_eq!(
            info(2..=6).player_count(Some(7)).unwrap_err().to_string(),
            "Toy is played by 2 to 6 players, not 7"
        );
        assert_eq!(
            info(2..=2).player_count(Some(3)).unwrap_err().to_string(),
            "Toy is played by exactly 2 players, not 3"
        );
        assert_eq!(
            info(1..=1).player_count(Some(2)).unwrap_err().to_string(),
            "Toy is played by exactly 1 player, not 2"
        );
    }
}
