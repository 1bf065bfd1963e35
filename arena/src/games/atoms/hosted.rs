//! Atoms as a hosted game for 2 to 6 bots.
//!
//! Protocol (one line each, `\n`-terminated): at the start a bot gets
//! `ATOMS <players> <width> <height> <its colour letter>`; at each of its turns
//! `TURN <move number>`, then `<height>` lines of `<width>` cells (`..` for an empty cell,
//! else the owner's letter and the atom count, e.g. `R2`), then `END`. It answers
//! `PLACE x y`. An answer that is not `PLACE x y`, or a placement the rules refuse, forfeits:
//! that player is out (its cells stay on the board). The last player left wins. A game that
//! reaches `MAX_MOVES` moves ends without a winner, players ranked by cells owned.
//!
//! A player's score is the number of players it outlasted (the winner: players - 1), so
//! summing scores over a tournament ranks bots by how long they survive; its `finished` means
//! it won.

use serde_json::{json, Value};
use thiserror::Error;

use super::{Atoms, PlaceError, COLOURS};
use crate::engine::{
    ClassicProgram, Columns, ForfeitReason, Game, GameInfo, MatchOptions, Outcome, ParamKind, ParamSpec, PlayerId,
    PlayerOutcome, PlaysOn, Ranking, Reply, SetupError, State, Turn, Wording, DEBUG_LINE_FIX,
};

/// The game's name in replays and on the command line.
pub const NAME: &str = super::NAME;

/// Moves after which a game stops without a winner.
pub const MAX_MOVES: usize = 2_000;

/// What the prompt is called in forfeit details. Replays recorded so far say `TICK` (the
/// wording the arena once used for every game), and they must re-simulate to the same text.
const PROMPT: &str = "TICK";

/// Atoms as the registry describes it.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: "Atoms",
    listed: true,
    players: 2..=6,
    simultaneous: false,
    chance: false,
    bots: true,
    wording: Wording {
        step: "step",
        prompt: "TURN prompt",
        input: "the ATOMS line and a TURN prompt (through END)",
    },
    columns: Columns { score: "outlasted", finished: "won" },
    plays_on: PlaysOn::Parameters,
    ranking: Ranking::Score,
    params: &[ParamSpec {
        name: "size",
        help: "the size of the board",
        kind: ParamKind::Size { min: 2, max: 255 },
        default: "6x5",
    }],
    classic: Some(ClassicProgram { takes_params: false, run: super::classic::session }),
    kit: Some(super::kit::KIT),
};

/// A board that does not fit its players.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Not 2 to 6 players.
    #[error("Atoms is played by 2 to 6 players, not {0}")]
    Players(usize),
    /// Sides out of 2..=255, or fewer cells than players.
    #[error("a {width}x{height} board does not fit: sizes are 2..255 and cells >= players")]
    Size {
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
}

/// A recorded setup (a replay's) that makes no Atoms board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordedSetupError {
    /// A value is not there.
    #[error("`{0}` is missing: an Atoms setup records `players`, `width` and `height`, each a whole number")]
    Missing(&'static str),
    /// A value that is not a whole number (a string, a fraction, a negative number, null).
    #[error("`{key}` is {found}, not a whole number")]
    NotWhole {
        /// The setup's key.
        key: &'static str,
        /// Its value as JSON (cut short).
        found: String,
    },
    /// The numbers make no board.
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// The players, width and height a recorded setup says, each a whole number, checked as a new
/// match's: a missing or non-integer value is refused by name, never read as 0.
fn recorded_board(setup: &Value) -> Result<(usize, usize, usize), RecordedSetupError> {
    let get = |key: &'static str| {
        let value = setup.get(key).ok_or(RecordedSetupError::Missing(key))?;
        let found = || crate::safe_text::shorten(&value.to_string(), 40).into_owned();
        let n = value.as_u64().ok_or_else(|| RecordedSetupError::NotWhole { key, found: found() })?;
        Ok::<_, RecordedSetupError>(usize::try_from(n).unwrap_or(usize::MAX))
    };
    let (players, width, height) = (get("players")?, get("width")?, get("height")?);
    check(players, width, height)?;
    Ok((players, width, height))
}

/// The Atoms entry of the game registry.
pub struct AtomsGame;

fn check(players: usize, width: usize, height: usize) -> Result<(), BoardError> {
    if !(2..=6).contains(&players) {
        return Err(BoardError::Players(players));
    }
    if !(2..=255).contains(&width) || !(2..=255).contains(&height) || width * height < players {
        return Err(BoardError::Size { width, height });
    }
    Ok(())
}

impl Game for AtomsGame {
    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn renderer(&self) -> Option<&'static str> {
        Some(include_str!("viewer.js"))
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let (players, width, height) = recorded_board(setup).map_err(|e| SetupError::invalid(NAME, e))?;
        let frames = match setup.get("frames") {
            None => Frames::WholeBoard,
            Some(v) if v == FRAMES_CHANGES => Frames::Changes,
            Some(other) => {
                let found = crate::safe_text::shorten(&other.to_string(), 40).into_owned();
                let why = format!("`frames` is {found}: a replay of this arena records `\"{FRAMES_CHANGES}\"` or nothing");
                return Err(SetupError::invalid(NAME, why));
            }
        };
        Ok(Box::new(AtomsState { frames, ..AtomsState::new(players, width, height) }))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        let players = INFO.player_count(options.players)?;
        let (width, height) = INFO.params(&options.params)?.size("size")?;
        check(players, width, height).map_err(|e| SetupError::BadInput(Box::new(e)))?;
        Ok(Box::new(AtomsState::new(players, width, height)))
    }

    fn malformed_fix(&self, line: &str) -> Option<String> {
        Some(malformed_fix(line))
    }

    fn invalid_move_fix(&self, frame: &Value, player: PlayerId, line: &str) -> Option<String> {
        super::refused::invalid_move_fix(frame, player, line)
    }

    /// The last frame with its whole `board`: the last whole board among `frames` (the initial
    /// frame's at least), with the `changed` cells of the frames after it applied.
    fn whole_frame(&self, frames: &[&Value]) -> Option<Value> {
        let last = *frames.last()?;
        if last.get("board").is_some() {
            return Some(last.clone());
        }
        let start = frames.iter().rposition(|f| f.get("board").is_some())?;
        let mut rows: Vec<Vec<String>> = frames[start]["board"]
            .as_array()?
            .iter()
            .map(|r| r.as_str().map(|r| r.split(' ').map(str::to_string).collect()))
            .collect::<Option<_>>()?;
        for frame in &frames[start + 1..] {
            for change in frame.get("changed").and_then(Value::as_array).into_iter().flatten() {
                let (Some(x), Some(y), Some(token)) = (change[0].as_u64(), change[1].as_u64(), change[2].as_str())
                else {
                    return None;
                };
                let cell = rows.get_mut(usize::try_from(y).ok()?)?.get_mut(usize::try_from(x).ok()?)?;
                *cell = token.to_string();
            }
        }
        let mut whole = last.clone();
        let object = whole.as_object_mut()?;
        object.remove("changed");
        object.insert("board".to_string(), json!(rows.iter().map(|r| r.join(" ")).collect::<Vec<_>>()));
        Some(whole)
    }
}

/// What a step's frame records of the board (the setup's `frames`): the initial frame always
/// has the whole board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frames {
    /// The whole board in every frame: replays recorded before 2026-12-06, whose size grew as
    /// cells x moves (a 255x255 game wrote 392 MB, more than any replay is read at).
    WholeBoard,
    /// Only the cells the step changed, as `changed`: `[[x, y, cell], ...]` (what new matches
    /// record).
    Changes,
}

/// The setup's `frames` of a match whose frames record only the cells that changed.
const FRAMES_CHANGES: &str = "changes";

/// A hosted match.
#[derive(Debug, Clone)]
pub struct AtomsState {
    game: Atoms,
    /// Forfeit reason and detail per player.
    forfeits: Vec<Option<(ForfeitReason, String)>>,
    /// Players in the order they went out.
    out_order: Vec<usize>,
    last: Option<Value>,
    frames: Frames,
    /// The cells the last step changed, with their contents now (row by row).
    changed: Vec<usize>,
}

impl AtomsState {
    /// A new match.
    pub fn new(players: usize, width: usize, height: usize) -> Self {
        AtomsState {
            game: Atoms::new(players, width, height),
            forfeits: vec![None; players],
            out_order: Vec::new(),
            last: None,
            frames: Frames::Changes,
            changed: Vec::new(),
        }
    }

    /// The rules state.
    pub fn game(&self) -> &Atoms {
        &self.game
    }

    fn board_rows(&self) -> Vec<String> {
        (0..self.game.height)
            .map(|y| (0..self.game.width).map(|x| token(self.game.cell(x, y))).collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// The cells the last step changed, as a frame records them: `[x, y, cell]`.
    fn changes(&self) -> Vec<Value> {
        let width = self.game.width;
        self.changed.iter().map(|&i| json!([i % width, i / width, token(self.game.cells[i])])).collect()
    }

    fn note_outs(&mut self, before: &[bool]) {
        for (p, was) in before.iter().enumerate() {
            if *was && !self.game.alive[p] && !self.out_order.contains(&p) {
                self.out_order.push(p);
            }
        }
    }
}

/// A cell as prompts and frames show it: `..` when empty, else the owner's letter and its atoms.
fn token(c: super::Cell) -> String {
    if c.atoms == 0 {
        "..".to_string()
    } else {
        format!("{}{}", &COLOURS[c.owner as usize][..1], c.atoms)
    }
}

/// Whether two cells look alike on a board (an empty cell's owner is not shown).
fn same(a: super::Cell, b: super::Cell) -> bool {
    a.atoms == b.atoms && (a.atoms == 0 || a.owner == b.owner)
}

/// A replay that has no save file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("only `{NAME}` replays have save files, this one is `{0}`")]
pub struct NotAtoms(pub String);

/// A replay whose game no save file holds.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveFileError {
    /// Not an Atoms replay.
    #[error(transparent)]
    NotAtoms(#[from] NotAtoms),
    /// A player forfeited while others played on: a save holds placements only, every player
    /// in turn, so the later ones would replay as other colours' (or be refused by LOAD).
    #[error(
        "{colour} (player {player}) forfeited at step {step} and the others played on: a save file holds \
         placements only, each player in turn, so this game cannot be one (its later moves would be replayed by the \
         wrong colours)"
    )]
    ForfeitMidGame {
        /// The colour of the player who forfeited.
        colour: &'static str,
        /// Its 1-based number.
        player: usize,
        /// The 1-based step of the forfeit.
        step: usize,
    },
    /// The replay's setup makes no board (a replay that was not verified).
    #[error("the replay's setup: {0}")]
    Setup(#[from] RecordedSetupError),
    /// A recorded placement is not two coordinates from 0 to 255 (a replay that was not verified).
    #[error("step {step} records the placement {found}: a save holds two coordinates from 0 to 255")]
    Place {
        /// The 1-based step.
        step: usize,
        /// The placement as JSON (cut short).
        found: String,
    },
    /// The placements make no game the classic program loads (a replay that was not verified).
    #[error("its placements are no game: {0}")]
    NotAGame(#[from] super::SaveError),
}

/// The classic save file of a hosted game's replay: its board, players and every placement
/// that was made (a forfeit is no move: one that ends the game, or comes last, is left out; one
/// before more placements makes no save).
pub fn save_file(replay: &crate::replay::Replay) -> Result<Vec<u8>, SaveFileError> {
    if replay.game != NAME {
        return Err(NotAtoms(replay.game.clone()).into());
    }
    save_bytes(&replay.setup, replay.steps.iter().map(|s| &s.frame))
}

/// [`save_file`] from a replay's setup and its steps' frames.
fn save_bytes<'a>(setup: &Value, frames: impl Iterator<Item = &'a Value>) -> Result<Vec<u8>, SaveFileError> {
    let (players, width, height) = recorded_board(setup)?;
    // (Checked: sides up to 255, up to 6 players.)
    let mut out = vec![width as u8, height as u8, players as u8];
    let mut forfeit: Option<(usize, usize)> = None;
    for (i, frame) in frames.enumerate() {
        let last = frame.get("last");
        if let Some(place) = last.and_then(|l| l.get("place")) {
            if let Some((player, step)) = forfeit {
                let colour = COLOURS.get(player).copied().unwrap_or("a player");
                return Err(SaveFileError::ForfeitMidGame { colour, player: player.saturating_add(1), step });
            }
            let coord = |c: &Value| c.as_u64().and_then(|v| u8::try_from(v).ok());
            let coords: Option<Vec<u8>> = place.as_array().and_then(|p| p.iter().map(coord).collect());
            let Some(&[x, y]) = coords.as_deref() else {
                let found = crate::safe_text::shorten(&place.to_string(), 40).into_owned();
                return Err(SaveFileError::Place { step: i + 1, found });
            };
            out.extend_from_slice(&[x, y, 0, 0]);
        } else if last.and_then(|l| l.get("forfeit")).is_some() && forfeit.is_none() {
            let player = last.and_then(|l| l.get("player")).and_then(Value::as_u64).unwrap_or(0);
            let player = usize::try_from(player).unwrap_or(usize::MAX);
            forfeit = Some((player, i + 1));
        }
    }
    // What LOAD would refuse is no save file: a verified replay's moves always load.
    super::parse_save(&out)?;
    Ok(out)
}

/// Why the rules refused a placement at (x, y), in words.
fn refusal(e: PlaceError, x: i64, y: i64) -> String {
    match e {
        PlaceError::OffBoard => format!("({x}, {y}) is off the board"),
        PlaceError::NotYours => format!("({x}, {y}) belongs to another player"),
        PlaceError::Over => "the game is over".to_string(),
    }
}

/// Whether `word` is an integer as a bot writes one: an optional sign, then digits, however
/// many (one past `i64` is still a number, off any board).
pub(super) fn integer(word: &str) -> bool {
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A `PLACE x y` the game cannot read, or whose place is off every board.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unread {
    /// Not `PLACE` and two integers: the detail of a malformed answer.
    Malformed(String),
    /// Integers too large for any board: the detail of an invalid move.
    OffBoard(String),
}

/// Parses `PLACE x y`, its words separated by ASCII white space as the classic program's.
fn parse_place(line: &str) -> Result<(i64, i64), Unread> {
    match bot_sdk::action::words(line).collect::<Vec<_>>().as_slice() {
        ["PLACE", x, y] => match (x.parse(), y.parse()) {
            (Ok(x), Ok(y)) => Ok((x, y)),
            _ if integer(x) && integer(y) => Err(Unread::OffBoard(format!("({x}, {y}) is off the board"))),
            _ => Err(Unread::Malformed(format!("coordinates must be integers: `{}`", line.trim()))),
        },
        _ => Err(Unread::Malformed(format!("expected `PLACE x y`, found `{}`", line.trim()))),
    }
}

/// How to fix the malformed answer `line` (shown to the bot's author, never recorded): the
/// `PLACE x y` it most likely meant (the word PLACE in any case, or just two integers), else
/// where debug output goes, else the answer's form.
pub(crate) fn malformed_fix(line: &str) -> String {
    let upper = line.trim().to_uppercase();
    let numbers: Vec<i64> =
        line.split(|c: char| !(c.is_ascii_digit() || c == '-')).filter_map(|w| w.parse().ok()).collect();
    let placelike = upper.starts_with("PLACE") || !upper.chars().any(|c| c.is_ascii_alphabetic());
    let other_game = ["MOVE", "WAIT"].iter().find(|w| upper.split_ascii_whitespace().next() == Some(**w));
    if let (Some(word), true) = (other_game, numbers.len() <= 2) {
        let at = if numbers.len() == 2 { format!("{} {}", numbers[0], numbers[1]) } else { "x y".to_string() };
        format!(
            "`{word}` is Resource Rush's answer, not Atoms': write `PLACE {at}` (x the column, y the row, 0-based), \
             the one answer of Atoms"
        )
    } else if placelike && numbers.len() == 2 && !upper.contains('.') {
        format!(
            "write `PLACE {} {}`: the keyword in upper case, then the column and the row (0-based), separated by \
             spaces, nothing else on the line",
            numbers[0], numbers[1]
        )
    } else if upper.chars().any(|c| c.is_ascii_alphabetic()) && !upper.starts_with("PLACE") {
        format!(
            "{DEBUG_LINE_FIX}: stdout carries exactly one answer per TURN, `PLACE x y` (x the column, y the row, \
             0-based)"
        )
    } else {
        "answer exactly `PLACE x y` (x the column, y the row, both whole numbers from 0), one line per TURN"
            .to_string()
    }
}

impl State for AtomsState {
    fn num_players(&self) -> usize {
        self.game.players()
    }

    fn turn(&self) -> Turn {
        if self.game.winner.is_some() || self.game.moves.len() >= MAX_MOVES {
            Turn::Terminal
        } else {
            Turn::Sequential(self.game.turn)
        }
    }

    fn intro(&self, player: PlayerId) -> String {
        let letter = &COLOURS[player][..1];
        format!("ATOMS {} {} {} {letter}\n", self.game.players(), self.game.width, self.game.height)
    }

    fn prompt(&self, _player: PlayerId) -> String {
        crate::engine::board_prompt(format!("TURN {}\n", self.game.moves.len() + 1), &self.board_rows())
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let Some((p, reply)) = replies.first() else { return };
        let p = *p;
        if p != self.game.turn {
            return;
        }
        let before = self.game.alive.clone();
        let cells = (self.frames == Frames::Changes).then(|| self.game.cells.clone());
        let verdict = match reply {
            Reply::Failed(f) => Err((f.reason(), f.describe(PROMPT))),
            Reply::Line(line) => match parse_place(line) {
                Err(Unread::Malformed(why)) => Err((ForfeitReason::Malformed, why)),
                Err(Unread::OffBoard(why)) => Err((ForfeitReason::InvalidMove, why)),
                Ok((x, y)) => match self.game.place(x, y) {
                    Ok(()) => Ok((x, y)),
                    Err(e) => Err((ForfeitReason::InvalidMove, refusal(e, x, y))),
                },
            },
        };
        self.last = Some(match verdict {
            Ok((x, y)) => json!({"player": p, "place": [x, y]}),
            Err((reason, detail)) => {
                self.forfeits[p] = Some((reason.clone(), detail.clone()));
                self.game.resign(p);
                json!({"player": p, "forfeit": reason, "detail": detail})
            }
        });
        self.note_outs(&before);
        if let Some(cells) = cells {
            self.changed = (0..cells.len()).filter(|&i| !same(cells[i], self.game.cells[i])).collect();
        }
    }

    /// `PLACE x y` with the coordinates as read (`PLACE 2 3` for `PLACE 002 +3`); a line that
    /// does not parse stays its words.
    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        match parse_place(line) {
            Ok((x, y)) => format!("PLACE {x} {y}"),
            Err(_) => crate::engine::words(line),
        }
    }

    fn is_active(&self, player: PlayerId) -> bool {
        self.game.alive[player] && self.turn() != Turn::Terminal
    }

    /// The first cell, row by row, that is empty or its own.
    /// An empty cell from the board's far end (a beginner's bot starts at (0, 0): the two meet
    /// late), else its own cell furthest from exploding: a calm player, so that check-bot's bot
    /// answers many prompts before the game ends (placing on the first legal cell, it was often
    /// taken out within two moves).
    fn scripted_answer(&self, player: PlayerId) -> Option<String> {
        let g = &self.game;
        let at = |i: usize| (i % g.width, i / g.width);
        let room = |i: usize| g.limit(at(i).0, at(i).1).saturating_sub(g.cells[i].atoms);
        let empty = (0..g.cells.len()).rev().find(|&i| g.cells[i].atoms == 0);
        let own = || (0..g.cells.len()).filter(|&i| g.cells[i].owner as usize == player).max_by_key(|&i| room(i));
        let (x, y) = at(empty.or_else(own)?);
        Some(format!("PLACE {x} {y}"))
    }

    fn outcome(&self) -> Outcome {
        let n = self.game.players();
        // Rank: the winner, then those still in (by cells), then the fallen, last out first.
        let mut order: Vec<usize> = (0..n).filter(|p| self.game.alive[*p]).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(self.game.grid_count(p)), p));
        order.extend(self.out_order.iter().rev());
        let players = (0..n)
            .map(|p| {
                let rank = order.iter().position(|&q| q == p).unwrap_or(n - 1);
                PlayerOutcome {
                    score: (n - 1 - rank) as i64,
                    finished: self.game.winner == Some(p),
                    forfeit: self.forfeits[p].as_ref().map(|(r, _)| r.clone()),
                    detail: self.forfeits[p].as_ref().map(|(_, d)| d.clone()),
                }
            })
            .collect();
        Outcome { players, winner: self.game.winner }
    }

    fn setup(&self) -> Value {
        let (players, width, height) = (self.game.players(), self.game.width, self.game.height);
        match self.frames {
            Frames::WholeBoard => json!({"players": players, "width": width, "height": height}),
            Frames::Changes => json!({"players": players, "width": width, "height": height, "frames": FRAMES_CHANGES}),
        }
    }

    fn frame(&self) -> Value {
        let mut frame = json!({
            "move": self.game.moves.len(),
            "last": self.last,
            "alive": self.game.alive,
            "next": self.game.turn,
            "winner": self.game.winner,
        });
        if self.frames == Frames::WholeBoard || self.last.is_none() {
            frame["board"] = json!(self.board_rows());
        } else {
            frame["changed"] = json!(self.changes());
        }
        frame
    }

    fn render(&self) -> String {
        let last = match &self.last {
            Some(v) if v.get("place").is_some() => {
                format!(
                    "{} placed at ({}, {})\n",
                    COLOURS[v["player"].as_u64().unwrap_or(0) as usize],
                    v["place"][0],
                    v["place"][1]
                )
            }
            Some(v) => format!(
                "{} forfeits: {} ({})\n",
                COLOURS[v["player"].as_u64().unwrap_or(0) as usize],
                v["forfeit"].as_str().unwrap_or(""),
                crate::safe_text::terminal(v["detail"].as_str().unwrap_or(""))
            ),
            None => String::new(),
        };
        let status = match self.game.winner {
            Some(w) => format!("{} Wins", COLOURS[w]),
            None => format!("{}'s Turn", COLOURS[self.game.turn]),
        };
        // Which colour each player is: the replay's title names the players P1, P2, … .
        let seats: Vec<String> =
            COLOURS.iter().take(self.game.players()).enumerate().map(|(p, c)| format!("{c} P{}", p + 1)).collect();
        format!("move {}  ({})\n{last}{}{status}\n", self.game.moves.len(), seats.join(", "), self.game.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Failure;

    fn line(s: &str) -> Reply {
        Reply::Line(s.to_string())
    }

    #[test]
    fn bots_take_turns_see_the_board_and_forfeits_leave_cells() {
        let mut s = AtomsState::new(3, 3, 2);
        assert_eq!(s.intro(1), "ATOMS 3 3 2 G\n");
        assert_eq!(s.turn(), Turn::Sequential(0));
        s.apply(&[(0, line("PLACE 0 0"))]);
        assert_eq!(s.prompt(1), "TURN 2\nR1 .. ..\n.. .. ..\nEND\n");
        s.apply(&[(1, line("PLACE 0 0"))]); // Red's cell: Green forfeits
        assert_eq!(s.turn(), Turn::Sequential(2));
        assert!(!s.is_active(1));
        s.apply(&[(2, line("PLACE 2 1"))]);
        s.apply(&[(0, Reply::Failed(Failure::Timeout))]);
        assert_eq!(s.turn(), Turn::Terminal, "Purple is the last one in");
        let o = s.outcome();
        assert_eq!(o.winner, Some(2));
        assert_eq!(o.players.iter().map(|p| p.score).collect::<Vec<_>>(), [1, 0, 2], "Green went out first");
        assert_eq!(o.players[1].forfeit, Some(ForfeitReason::InvalidMove));
        assert_eq!(o.players[0].forfeit, Some(ForfeitReason::Timeout));
        assert_eq!(s.game().cell(0, 0).atoms, 1, "a forfeited player's cells stay");
    }

    #[test]
    fn malformed_answers_forfeit() {
        let mut s = AtomsState::new(2, 2, 2);
        s.apply(&[(0, line("place 0 0"))]);
        assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed));
        assert_eq!(s.outcome().winner, Some(1));
    }

    /// Each kind of malformed answer gets its own fix: the `PLACE x y` it meant, where debug
    /// output goes, or the answer's form. The fixed line is itself a well-formed answer.
    #[test]
    fn each_kind_of_malformed_answer_gets_its_own_fix() {
        for (line, meant) in [
            ("place 1 2", "PLACE 1 2"),
            ("PLACE 1,2", "PLACE 1 2"),
            ("Place(3, 0)", "PLACE 3 0"),
            ("PLACE\u{a0}1 2", "PLACE 1 2"),
            ("2 4", "PLACE 2 4"),
        ] {
            assert!(parse_place(line).is_err(), "{line} is malformed");
            let fix = malformed_fix(line);
            assert!(fix.starts_with(&format!("write `{meant}`: the keyword in upper case")), "{line}: {fix}");
            assert!(parse_place(meant).is_ok(), "{meant} is well formed");
        }
        // Resource Rush's answers, from a bot written for it first.
        assert!(malformed_fix("MOVE 1 2").starts_with("`MOVE` is Resource Rush's answer, not Atoms': write `PLACE 1 2`"));
        assert!(malformed_fix("WAIT").starts_with("`WAIT` is Resource Rush's answer, not Atoms': write `PLACE x y`"));
        for line in ["debug: at 1 2", "hello", "MOVE to 1 2 then 3 4", "going to 3 4"] {
            assert!(malformed_fix(line).starts_with("if that line is debug output, write it to stderr"), "{line}");
        }
        // The answer mis-written (a word PLACE starts, the numbers wrong): its form, not the
        // debug-line fix (check-bot tells a stray line by that fix), as Tactics' `placement 1 1 1`.
        for line in ["PLACE 1 2 3", "PLACE 1.5 2", "PLACE x y", "", "1 2 3", "PLACE 1", "placement 1 1 1"] {
            assert!(malformed_fix(line).starts_with("answer exactly `PLACE x y`"), "{line}: {}", malformed_fix(line));
        }
        // The game gives it (the engine's default gives none).
        assert_eq!(AtomsGame.malformed_fix("place 0 0").as_deref(), Some(malformed_fix("place 0 0").as_str()));
    }

    /// A game where a player forfeited and the others played on makes no save file (its later
    /// moves would replay as other colours'); the control: the same game's placements before
    /// the forfeit, and a game whose forfeit comes last, make one that loads.
    #[test]
    fn a_forfeit_before_more_placements_makes_no_save_file() {
        let mut s = AtomsState::new(3, 3, 3);
        let setup = s.setup();
        let mut frames = Vec::new();
        for (p, answer) in [(0, "PLACE 0 0"), (1, "PLACE 0 0"), (2, "PLACE 2 2")] {
            s.apply(&[(p, line(answer))]);
            frames.push(s.frame());
        }
        let err = save_bytes(&setup, frames.iter()).unwrap_err().to_string();
        assert!(err.starts_with("Green (player 2) forfeited at step 2 and the others played on"), "{err}");
        let before = save_bytes(&setup, frames[..2].iter()).unwrap();
        assert_eq!(before, [3, 3, 3, 0, 0, 0, 0], "the forfeit last: Red's placement alone");
        assert!(super::super::parse_save(&before).is_ok());
        // The control: Green's move replayed in Purple's place is a legal one, so LOAD alone
        // would not have caught it (the game would just be wrong).
        let wrong = [3, 3, 3, 0, 0, 0, 0, 2, 2, 0, 0];
        assert_eq!(super::super::parse_save(&wrong).map(|g| g.game(9).cell(2, 2).owner), Ok(1), "Green's, not Purple's");
    }

    /// Each frame says which colour each player is (the terminal replay's title names them
    /// P1, P2, …): the classic program's colours are never bots' names.
    #[test]
    fn frames_map_colours_to_players() {
        let mut s = AtomsState::new(3, 3, 2);
        s.apply(&[(0, line("PLACE 0 0"))]);
        let frame = s.render();
        assert!(frame.starts_with("move 1  (Red P1, Green P2, Purple P3)\nRed placed at (0, 0)\n"), "{frame}");
        assert!(!AtomsState::new(2, 2, 2).render().contains("Purple"), "two players, two colours");
    }

    /// Coordinates too large for `i64` are integers off the board (an invalid move, as
    /// `PLACE 99 0`), not a malformed answer; the control: a coordinate that is no integer is.
    #[test]
    fn coordinates_past_i64_are_off_the_board() {
        for (answer, detail) in [
            ("PLACE 99999999999999999999 0", "(99999999999999999999, 0) is off the board"),
            ("PLACE 0 -99999999999999999999", "(0, -99999999999999999999) is off the board"),
            ("PLACE 99 0", "(99, 0) is off the board"),
        ] {
            let mut s = AtomsState::new(2, 6, 5);
            s.apply(&[(0, line(answer))]);
            let o = s.outcome();
            assert_eq!(o.players[0].forfeit, Some(ForfeitReason::InvalidMove), "{answer}");
            assert_eq!(o.players[0].detail.as_deref(), Some(detail));
        }
        for answer in ["PLACE 1x 0", "PLACE 0 ++1", "PLACE - 0"] {
            let mut s = AtomsState::new(2, 6, 5);
            s.apply(&[(0, line(answer))]);
            let o = s.outcome();
            assert_eq!(o.players[0].forfeit, Some(ForfeitReason::Malformed), "{answer}");
            assert_eq!(o.players[0].detail, Some(format!("coordinates must be integers: `{answer}`")));
        }
    }

    #[test]
    fn only_ascii_white_space_separates_an_answers_words() {
        // The classic program's white space (C's `isspace`), between and around the words.
        for c in [' ', '\t', '\n', '\u{b}', '\u{c}', '\r'] {
            let mut s = AtomsState::new(2, 2, 2);
            s.apply(&[(0, line(&format!("{c}PLACE{c}{c}0{c}0{c}")))]);
            assert!(s.is_active(0) && s.game().cell(0, 0).atoms == 1, "{c:?}");
        }
        // Unicode's other white space is part of a word, as for the classic program.
        for c in ['\u{a0}', '\u{3000}', '\u{85}', '\u{2028}'] {
            let mut s = AtomsState::new(2, 2, 2);
            s.apply(&[(0, line(&format!("PLACE{c}0 0")))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{c:?}");
            let mut s = AtomsState::new(2, 2, 2);
            s.apply(&[(0, line(&format!("PLACE 0{c}0")))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{c:?}");
        }
    }

    /// A recorded setup whose players or sizes are missing or not whole numbers is refused by
    /// name, with what was found (it was read as 0, and refused as "not 0 players" or a "0x5
    /// board", which the replay never said). The control: the same setup with whole numbers
    /// loads, and in-range numbers that make no board are refused by the board's check.
    #[test]
    fn recorded_setups_that_are_no_whole_numbers_are_refused_by_name() {
        let load = |setup: Value| AtomsGame.load(&setup).err().map(|e| e.to_string()).unwrap_or_default();
        for (setup, why) in [
            (json!({"width": 6, "height": 5}), "`players` is missing: an Atoms setup records"),
            (json!({"players": 2, "height": 5}), "`width` is missing"),
            (json!({"players": "2", "width": 6, "height": 5}), "`players` is \"2\", not a whole number"),
            (json!({"players": 2, "width": 6.5, "height": 5}), "`width` is 6.5, not a whole number"),
            (json!({"players": 2, "width": 6, "height": -5}), "`height` is -5, not a whole number"),
            (json!({"players": 2, "width": 6, "height": null}), "`height` is null, not a whole number"),
            (json!({"players": 2, "width": "x".repeat(500), "height": 5}), "`width` is \"xxxx"),
            (json!({"players": 2, "width": 256, "height": 5}), "a 256x5 board does not fit"),
            (json!({"players": 7, "width": 6, "height": 5}), "Atoms is played by 2 to 6 players, not 7"),
            (json!({"players": u64::MAX, "width": u64::MAX, "height": 5}), "Atoms is played by 2 to 6 players"),
            (json!([2, 6, 5]), "`players` is missing"),
        ] {
            let err = load(setup.clone());
            assert!(err.starts_with("invalid atoms setup: ") && err.contains(why), "{setup}: {err}");
            assert!(err.len() < 200, "a long value is cut: {err}");
        }
        let state = AtomsGame.load(&json!({"players": 2, "width": 6, "height": 5})).unwrap();
        assert_eq!(state.setup(), json!({"players": 2, "width": 6, "height": 5}));
    }

    /// A save made from frames no verified replay holds (`arena export-save --unverified`) is
    /// refused with where and what, never written with values cut to a byte (a width of 300
    /// was 44, a place of 300 was 44) or missing ones read as 0. The control: the frames a
    /// real game makes give the save, which loads.
    #[test]
    fn a_save_from_frames_no_game_makes_is_refused() {
        let mut s = AtomsState::new(2, 3, 3);
        let setup = s.setup();
        let mut frames = Vec::new();
        for (p, answer) in [(0, "PLACE 0 0"), (1, "PLACE 2 2")] {
            s.apply(&[(p, line(answer))]);
            frames.push(s.frame());
        }
        let save = save_bytes(&setup, frames.iter()).unwrap();
        assert_eq!(save, [3, 3, 2, 0, 0, 0, 0, 2, 2, 0, 0]);
        assert!(super::super::parse_save(&save).is_ok());
        let err = |setup: &Value, frames: &[Value]| save_bytes(setup, frames.iter()).unwrap_err().to_string();
        let big = json!({"players": 2, "width": 300, "height": 3});
        assert_eq!(err(&big, &frames), "the replay's setup: a 300x3 board does not fit: sizes are 2..255 and cells >= players");
        let none = json!({"players": 2, "height": 3});
        assert!(err(&none, &frames).starts_with("the replay's setup: `width` is missing"));
        for place in [json!([300, 0]), json!([0]), json!([0, 1, 2]), json!(["0", 1]), json!([-1, 0]), json!("0 0")] {
            let mut forged = frames.clone();
            forged[1]["last"]["place"] = place.clone();
            assert_eq!(
                err(&setup, &forged),
                format!("step 2 records the placement {place}: a save holds two coordinates from 0 to 255"),
            );
        }
        let mut forged = frames.clone();
        forged[1]["last"]["place"] = json!([0, 0]);
        assert_eq!(err(&setup, &forged), "its placements are no game: move 2 (bytes 8 to 11) is (0, 0), which belongs to another player");
    }

    /// Plays `moves` scripted moves (or to the end) of a match of `setup`: the setup recorded,
    /// the initial frame, and every step's frame.
    fn scripted_frames(setup: Value, moves: usize) -> (Value, Vec<Value>) {
        let mut s = AtomsGame.load(&setup).unwrap();
        let mut frames = vec![s.frame()];
        while let (Turn::Sequential(p), true) = (s.turn(), frames.len() <= moves) {
            let answer = s.scripted_answer(p).unwrap();
            s.apply(&[(p, line(&answer))]);
            frames.push(s.frame());
        }
        (s.setup(), frames)
    }

    /// A new match's step records only the cells its move changed, so a replay grows with its
    /// moves, not cells x moves (a 255x255 duel wrote 392 MB, more than a replay is read at):
    /// on that board 300 moves take under 150 bytes a frame. Built back by `whole_frame`, every
    /// frame is the whole board a setup recorded before (no `frames`) re-simulates, the
    /// control, whose frames hold all 65,025 cells; both play the same game.
    #[test]
    fn a_step_records_the_cells_that_changed_so_replays_grow_with_moves_alone() {
        for (players, width, height, moves) in [(2, 255, 255, 300), (3, 4, 3, usize::MAX), (6, 9, 7, usize::MAX)] {
            let new = AtomsGame.new_match(&MatchOptions {
                players: Some(players),
                params: [("size".to_string(), format!("{width}x{height}"))].into(),
                ..Default::default()
            });
            let setup = new.unwrap().setup();
            assert_eq!(setup, json!({"players": players, "width": width, "height": height, "frames": "changes"}));
            let (recorded, changes) = scripted_frames(setup, moves);
            assert_eq!(recorded["frames"], "changes");
            let old_setup = json!({"players": players, "width": width, "height": height});
            let (recorded, whole) = scripted_frames(old_setup.clone(), moves);
            assert_eq!(recorded, old_setup, "an old replay's setup re-simulates as recorded");
            assert_eq!(changes.len(), whole.len(), "the same game");
            assert!(changes.len() > 10, "{} frames", changes.len());
            assert_eq!(changes[0], whole[0], "the initial frame has the whole board");
            // (Every frame of the small boards; on the large one, where each is built from the
            // initial board's 65,025 cells, every 50th and the last.)
            let last = changes.len() - 1;
            for t in (1..=last).filter(|&t| width < 255 || t % 50 == 0 || t == last) {
                assert!(changes[t].get("board").is_none() && whole[t].get("changed").is_none(), "frame {t}");
                let refs: Vec<&Value> = changes[..=t].iter().collect();
                assert_eq!(AtomsGame.whole_frame(&refs).as_ref(), Some(&whole[t]), "frame {t} of {width}x{height}");
                let refs: Vec<&Value> = whole[..=t].iter().collect();
                assert_eq!(AtomsGame.whole_frame(&refs).as_ref(), Some(&whole[t]), "an old frame is whole already");
            }
            let bytes = |f: &Value| serde_json::to_vec(f).unwrap().len();
            if width == 255 {
                assert!(changes[1..].iter().all(|f| bytes(f) < 150), "{:?}", changes[1..].iter().map(bytes).max());
                assert!(whole[1..].iter().all(|f| bytes(f) > 65_025 * 3), "the control holds every cell");
            }
        }
    }

    /// A cascade's changes are all recorded: on a 3x3 board Red's second atom in a corner
    /// explodes into both neighbours, one of them Green's. A setup's `frames` other than
    /// `"changes"` is refused, saying what a replay records.
    #[test]
    fn a_cascade_records_every_cell_it_changed_and_unknown_frames_are_refused() {
        let mut s = AtomsState::new(2, 3, 3);
        for (p, answer) in [(0, "PLACE 0 0"), (1, "PLACE 1 0"), (0, "PLACE 2 2"), (1, "PLACE 0 2"), (0, "PLACE 0 0")] {
            s.apply(&[(p, line(answer))]);
        }
        assert_eq!(s.frame()["changed"], json!([[0, 0, ".."], [1, 0, "R2"], [0, 1, "R1"]]));
        assert_eq!((s.frame()["move"].clone(), s.turn()), (json!(5), Turn::Sequential(1)));
        let err = AtomsGame.load(&json!({"players": 2, "width": 2, "height": 2, "frames": "all"})).err();
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some("invalid atoms setup: `frames` is \"all\": a replay of this arena records `\"changes\"` or nothing")
        );
    }
}
