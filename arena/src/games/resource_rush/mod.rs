//! Resource Rush: two players on a grid collect resources and power-ups, avoid fire, and must
//! reach the final cell before the rounds run out. Moves are simultaneous. The rules live in
//! `bot_sdk::rules`; this module adds turns, forfeits, observations and replay frames.
//!
//! The same state also plays the course's single-player tests (game `resource-rush-test`):
//! one bot against the file's scripted opponent, whose move of tick t is applied first.
//!
//! A player's `finished` (in outcomes and results) means it reached the final cell.

mod answers;
mod doctor;
mod events;
pub mod kit;
mod render;
mod setup;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use bot_sdk::path::{Distances, DistancesTo};
use bot_sdk::rules::{check_move, resolve, Action, Event, Player};
use bot_sdk::{Cell, Grid, MapSpec, Pos};
use serde_json::{json, Value};

use crate::engine::{
    Columns, ForfeitReason, Game, GameInfo, MatchOptions, Outcome, PlayerId, PlayerOutcome, PlaysOn, Ranking, Remark,
    Reply, SetupError, State, Turn, Verdict, Wording,
};
use crate::files::required_map;

pub(crate) use answers::malformed_fix;
pub use events::TickEvent;
pub use setup::{load_map_file, parse_map, MapFileError, SetupJsonError};

/// The game's name in replays and on the command line.
pub const NAME: &str = "resource-rush";

/// The single-player test variant's name in replays.
pub const TEST_NAME: &str = "resource-rush-test";

/// The forfeit reason of a player who entered fire.
pub const FIRE: &str = "fire";

/// What the prompt is called, in forfeit details ("printed a line that no TICK asked for").
const PROMPT: &str = "TICK";

/// How forfeits are explained: ticks and TICK lines.
const WORDING: Wording = Wording { step: "tick", prompt: "TICK line", input: "the header and TICK lines" };

/// A score, and `finished` for a player that reached the final cell.
const COLUMNS: Columns = Columns { score: "score", finished: "finished" };

/// Resource Rush as the registry describes it.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: "Resource Rush",
    listed: true,
    players: 2..=2,
    simultaneous: true,
    chance: false,
    bots: true,
    wording: WORDING,
    columns: COLUMNS,
    plays_on: PlaysOn::MapFile { noun: "map" },
    ranking: Ranking::Score,
    params: &[],
    classic: None,
    kit: Some(kit::KIT),
};

/// The single-player tests as the registry describes them.
pub static TEST_INFO: GameInfo = GameInfo {
    name: TEST_NAME,
    title: "A Resource Rush single-player test",
    listed: false,
    players: 1..=1,
    simultaneous: false,
    chance: false,
    bots: true,
    wording: WORDING,
    columns: COLUMNS,
    plays_on: PlaysOn::MapFile { noun: "test file" },
    ranking: Ranking::Score,
    params: &[],
    classic: None,
    kit: None,
};

/// The Resource Rush entry of the game registry.
pub struct ResourceRushGame;

impl Game for ResourceRushGame {
    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn renderer(&self) -> Option<&'static str> {
        Some(include_str!("viewer.js"))
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let spec = setup::spec_from_setup(setup).map_err(|e| SetupError::invalid(NAME, e))?;
        Ok(Box::new(ResourceRush::new(spec)))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        Ok(Box::new(ResourceRush::new(new_spec(&INFO, options)?)))
    }

    fn malformed_fix(&self, line: &str) -> Option<String> {
        Some(malformed_fix(line))
    }
}

/// The map of a new match of `info`'s game: its player count and parameters checked, its map
/// file read and validated.
fn new_spec(info: &GameInfo, options: &MatchOptions) -> Result<MapSpec, SetupError> {
    info.player_count(options.players)?;
    info.params(&options.params)?;
    let (path, text) = required_map(info, options)?;
    setup::parse_map(path, &text).map_err(|e| SetupError::BadInput(Box::new(e)))
}

/// The single-player test entry of the game registry: one bot against the map file's scripted
/// opponent (its TICK lines).
pub struct ResourceRushTestGame;

impl Game for ResourceRushTestGame {
    fn info(&self) -> &GameInfo {
        &TEST_INFO
    }

    fn renderer(&self) -> Option<&'static str> {
        Some(include_str!("viewer.js"))
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let spec = setup::spec_from_setup(setup).map_err(|e| SetupError::invalid(TEST_NAME, e))?;
        let piped = setup.get("piped").and_then(Value::as_bool).unwrap_or(false);
        let minimum = match setup.get("minimum") {
            None | Some(Value::Null) => None,
            Some(m) => Some(m.as_i64().ok_or_else(|| {
                SetupError::invalid(TEST_NAME, setup::SetupJsonError::Field { key: "minimum", expected: "an integer" })
            })?),
        };
        Ok(Box::new(ResourceRush::against_script(spec, piped).with_minimum(minimum)))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        Ok(Box::new(ResourceRush::against_script(new_spec(&TEST_INFO, options)?, false)))
    }

    fn malformed_fix(&self, line: &str) -> Option<String> {
        Some(malformed_fix(line))
    }
}

/// Who the second player is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    /// A duel: both players are bots.
    Duel,
    /// A single-player test: player 2 follows the file's TICK lines; `piped` sends the bot the
    /// whole file at once instead of one TICK per answer.
    Test {
        /// Send everything at the start.
        piped: bool,
    },
}

/// Where a player stands in the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Still answering TICKs.
    Playing,
    /// Reached the final cell; its score is final.
    Finished,
    /// Out of the game with score 0.
    Forfeit {
        /// `fire`, `invalid_move`, `malformed`, `timeout`, `crash` or `extra_output`.
        reason: ForfeitReason,
        /// What exactly happened, for people.
        detail: String,
    },
}

/// What one player did in the last tick, for the replay frame.
#[derive(Debug, Clone, Default)]
struct LastMove {
    /// The action as parsed (`None` when the player was not asked or the answer was rejected).
    action: Option<Action>,
}

/// A Resource Rush match in progress.
#[derive(Debug, Clone)]
pub struct ResourceRush {
    spec: Arc<MapSpec>,
    grid: Grid,
    players: [Player; 2],
    status: [Status; 2],
    /// Ticks played so far.
    tick: u32,
    /// What each player did last tick, as its opponent is told (`WAIT` when rejected).
    shown: [Action; 2],
    last: [LastMove; 2],
    events: Vec<TickEvent>,
    mode: Mode,
    /// Whether each player has made a move (not only WAIT) so far.
    moved: [bool; 2],
    /// In a test: what the scripted opponent took, in order.
    taken: Vec<Cell>,
    /// In a test: the score to reach, if known (recorded in the replay's setup).
    minimum: Option<i64>,
}

impl ResourceRush {
    /// A single-player test at tick 0: the bot is player 1, player 2 follows `spec.script`;
    /// `piped` sends the bot the whole file at once.
    pub fn against_script(spec: MapSpec, piped: bool) -> Self {
        ResourceRush { mode: Mode::Test { piped }, ..ResourceRush::new(spec) }
    }

    /// The same test judged against `minimum` (recorded in the setup, shown by `arena replay`).
    pub fn with_minimum(self, minimum: Option<i64>) -> Self {
        ResourceRush { minimum, ..self }
    }

    /// The test's minimum score, if known.
    pub fn minimum(&self) -> Option<i64> {
        self.minimum
    }

    /// The scripted opponent's action at tick `t` (1-based); `WAIT` past the script's end.
    fn scripted(&self, t: u32) -> Action {
        self.spec.script.get(t as usize - 1).map_or(Action::Wait, |s| s.action)
    }

    /// Whether this is a single-player test.
    pub fn is_test(&self) -> bool {
        self.mode != Mode::Duel
    }

    /// A match at tick 0 on `spec` (player 1 at `starts[0]`).
    pub fn new(spec: MapSpec) -> Self {
        ResourceRush {
            mode: Mode::Duel,
            grid: spec.grid.clone(),
            players: [Player::new(spec.starts[0]), Player::new(spec.starts[1])],
            status: [Status::Playing, Status::Playing],
            tick: 0,
            shown: [Action::Wait; 2],
            last: Default::default(),
            events: Vec::new(),
            moved: [false; 2],
            taken: Vec::new(),
            minimum: None,
            spec: Arc::new(spec),
        }
    }

    /// The map as it stands (collected cells are `0`).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Player `p`'s position, score, multiplier and Jump.
    pub fn player(&self, p: PlayerId) -> &Player {
        &self.players[p]
    }

    /// Player `p`'s status.
    pub fn status(&self, p: PlayerId) -> &Status {
        &self.status[p]
    }

    /// Ticks played so far.
    pub fn tick(&self) -> u32 {
        self.tick
    }

    fn forfeit(&mut self, p: PlayerId, reason: ForfeitReason, detail: String) {
        self.events.push(TickEvent::Forfeit { player: p, reason: reason.clone(), detail: detail.clone() });
        self.players[p].score = 0;
        self.status[p] = Status::Forfeit { reason, detail };
    }

    /// Validates one reply: `Ok(Some(dest))` for a valid move, `Ok(None)` for WAIT, or the
    /// forfeit reason and detail.
    fn judge(&self, p: PlayerId, reply: &Reply) -> Result<Option<Pos>, (ForfeitReason, String)> {
        let line = match reply {
            Reply::Line(line) => line,
            Reply::Failed(failure) => return Err((failure.reason(), failure.describe(PROMPT))),
        };
        match Action::parse_answer(line, self.tick + 1) {
            Err(e) => Err((ForfeitReason::Malformed, e.to_string())),
            Ok(Action::Wait) => Ok(None),
            Ok(Action::Move(to)) => {
                let me = &self.players[p];
                check_move(&self.grid, me.pos, to, me.jump)
                    .map(|_| Some(to))
                    .map_err(|e| (ForfeitReason::InvalidMove, e.to_string()))
            }
        }
    }
}

fn pos_json(p: Pos) -> Value {
    json!([p.x, p.y])
}

/// What passing one tick's lines costs, in cell-ticks (see `expected_cost`).
const TICK_COST: u64 = 4;
/// What starting a match's bots costs, in cell-ticks (see `expected_cost`).
const MATCH_COST: u64 = 1500;

impl State for ResourceRush {
    /// In cell-ticks: map size x rounds (the bots think over the board every tick), plus a share
    /// per tick for passing the lines and a share per match for starting the bots (both
    /// measured with `tools/shard-balance`: about 4 and 1500 cell-ticks).
    fn expected_cost(&self) -> u64 {
        let cells = (self.grid.rows() * self.grid.cols()) as u64;
        u64::from(self.spec.rounds) * (cells + TICK_COST) + MATCH_COST
    }

    fn num_players(&self) -> usize {
        match self.mode {
            Mode::Duel => 2,
            Mode::Test { .. } => 1,
        }
    }

    fn turn(&self) -> Turn {
        let bots = self.num_players();
        let playing: Vec<PlayerId> = (0..bots).filter(|&p| self.status[p] == Status::Playing).collect();
        if playing.is_empty() || self.tick >= self.spec.rounds {
            Turn::Terminal
        } else if self.is_test() {
            Turn::Sequential(0)
        } else {
            Turn::Simultaneous(playing)
        }
    }

    fn intro(&self, player: PlayerId) -> String {
        let mut text = self.spec.header_for(player);
        if self.mode == (Mode::Test { piped: true }) {
            for t in 1..=self.spec.rounds {
                text.push_str(&format!("TICK {t} {}\n", self.scripted(t)));
            }
        }
        text
    }

    fn answers_may_run_ahead(&self) -> bool {
        self.mode == (Mode::Test { piped: true })
    }

    fn input_is_intro(&self) -> bool {
        self.mode == (Mode::Test { piped: true })
    }

    fn prompt(&self, player: PlayerId) -> String {
        let t = self.tick + 1;
        match self.mode {
            Mode::Duel => format!("TICK {t} {}\n", self.shown[1 - player]),
            Mode::Test { piped: false } => format!("TICK {t} {}\n", self.scripted(t)),
            Mode::Test { piped: true } => String::new(),
        }
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        self.events.clear();
        self.last = Default::default();
        if self.is_test() {
            // The scripted opponent moves first, unchecked, and takes what lies there.
            let action = self.scripted(self.tick + 1);
            self.last[1].action = Some(action);
            if let Action::Move(dest) = action {
                self.players[1].pos = dest;
                if let Some(item) = self.grid.get(dest).filter(|c| c.is_collectable()) {
                    self.grid.set(dest, Cell::Floor);
                    self.taken.push(item);
                    self.events.push(TickEvent::Taken { player: 1, cell: events::cell(dest), item: item.to_string() });
                }
            }
        }
        let mut moves = [None, None];
        let mut rejected = Vec::new();
        for (p, reply) in replies {
            let p = *p;
            if p > 1 || self.status[p] != Status::Playing {
                continue;
            }
            match self.judge(p, reply) {
                Ok(dest) => {
                    moves[p] = dest;
                    self.last[p].action = Some(dest.map_or(Action::Wait, Action::Move));
                }
                Err(why) => rejected.push((p, why)),
            }
        }
        for (p, dest) in moves.iter().enumerate() {
            self.moved[p] |= dest.is_some();
        }
        for event in resolve(&mut self.grid, &mut self.players, &moves) {
            match event {
                Event::Collected { player, pos, item, points } => self.events.push(TickEvent::Collected {
                    player,
                    cell: events::cell(pos),
                    item: item.to_string(),
                    points,
                }),
                Event::Cancelled { pos, item } => {
                    self.events.push(TickEvent::Cancelled { cell: events::cell(pos), item: item.to_string() })
                }
                Event::Fire { player, pos } => {
                    self.forfeit(player, ForfeitReason::Rule(FIRE.to_string()), format!("entered the fire at {pos}"));
                }
            }
        }
        for (p, (reason, detail)) in rejected {
            self.forfeit(p, reason, detail);
        }
        self.shown = moves.map(|m| m.map_or(Action::Wait, Action::Move));
        for p in 0..self.num_players() {
            if self.status[p] == Status::Playing && self.players[p].pos == self.spec.final_pos {
                self.status[p] = Status::Finished;
                self.events.push(TickEvent::Finished { player: p });
            }
        }
        self.tick += 1;
    }

    /// `WAIT` or `MOVE x y` with the coordinates as read (`MOVE 3 4` for `PLAYER 7 MOVE 003
    /// +4`): the same action. A line that does not parse stays its words.
    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        match Action::parse_answer(line, self.tick + 1) {
            Ok(action) => action.to_string(),
            Err(_) => crate::engine::words(line),
        }
    }

    fn is_active(&self, player: PlayerId) -> bool {
        player < self.num_players() && self.status[player] == Status::Playing && self.tick < self.spec.rounds
    }

    fn outcome(&self) -> Outcome {
        let players: Vec<PlayerOutcome> = (0..self.num_players())
            .map(|p| {
                let (forfeit, detail) = match &self.status[p] {
                    Status::Forfeit { reason, detail } => (Some(reason.clone()), Some(detail.clone())),
                    _ => (None, None),
                };
                PlayerOutcome {
                    score: self.players[p].score,
                    finished: self.status[p] == Status::Finished,
                    forfeit,
                    detail,
                }
            })
            .collect();
        let winner = match (self.is_test(), players.first(), players.get(1)) {
            (false, Some(a), Some(b)) => match a.score.cmp(&b.score) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
            _ => None,
        };
        Outcome { players, winner }
    }

    fn setup(&self) -> Value {
        let mut setup = setup::setup_json(&self.spec);
        if let Mode::Test { piped } = self.mode {
            let script: Vec<String> = self.spec.script.iter().map(|s| s.action.to_string()).collect();
            setup["script"] = json!(script);
            setup["piped"] = json!(piped);
            if let Some(minimum) = self.minimum {
                setup["minimum"] = json!(minimum);
            }
        }
        setup
    }

    fn frame(&self) -> Value {
        let players: Vec<Value> = (0..2)
            .map(|p| {
                let me = &self.players[p];
                let (status, forfeit) = match &self.status[p] {
                    Status::Playing => ("playing", Value::Null),
                    Status::Finished => ("finished", Value::Null),
                    Status::Forfeit { reason, .. } => ("forfeit", json!(reason)),
                };
                json!({
                    "action": self.last[p].action.map(|a| a.to_string()),
                    "pos": pos_json(me.pos),
                    "score": me.score,
                    "multiplier": me.multiplier,
                    "jump": me.jump,
                    "status": status,
                    "forfeit": forfeit,
                })
            })
            .collect();
        let events = serde_json::to_value(&self.events).unwrap_or_else(|_| json!([]));
        json!({"tick": self.tick, "players": players, "events": events})
    }

    fn render(&self) -> String {
        render::render(self)
    }

    fn verdict(&self) -> Option<Verdict> {
        if !self.is_test() || self.turn() != Turn::Terminal {
            return None;
        }
        let me = &self.players[0];
        let reason = match (&self.status[0], self.minimum) {
            (Status::Forfeit { reason, detail }, _) => Some(format!("forfeit {reason}: {detail}")),
            (Status::Playing, _) => {
                let mut why = format!("did not reach the final in {} ticks", self.spec.rounds);
                for cause in self.why_unfinished(0) {
                    why.push_str("; ");
                    why.push_str(&cause);
                }
                Some(why)
            }
            (Status::Finished, Some(min)) if me.score < min => {
                let mut why = format!("below the minimum ({} < {min})", me.score);
                if let Some(cause) = self.what_the_opponent_took() {
                    why.push_str(": ");
                    why.push_str(&cause);
                }
                Some(why)
            }
            (Status::Finished, _) => None,
        };
        Some(Verdict { passed: reason.is_none(), reason })
    }

    fn remarks(&self) -> Vec<Remark> {
        if self.turn() != Turn::Terminal {
            return Vec::new();
        }
        (0..self.num_players())
            .filter(|&p| !self.moved[p] && self.status[p] == Status::Playing)
            .map(|p| Remark { player: p, text: self.why_unfinished(p).join("; ") })
            .collect()
    }
}

/// Why a map's final may be out of a player's reach from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FinalReach {
    /// Reachable with the Jump the player starts without.
    Walking,
    /// Only by picking up a `J` first.
    NeedsJump,
    /// Not at all.
    Never,
}

impl ResourceRush {
    /// How player `p` can reach the final from its start on the initial map.
    fn final_reach(&self, p: PlayerId) -> FinalReach {
        let (grid, start, fin) = (&self.spec.grid, self.spec.starts[p], self.spec.final_pos);
        if Distances::from(grid, start, false).get(fin).is_some() {
            FinalReach::Walking
        } else if DistancesTo::new(grid, fin, None).get(start, false).is_some() {
            FinalReach::NeedsJump
        } else {
            FinalReach::Never
        }
    }

    /// What the arena can see of why player `p` is not on the final: it never moved, the final
    /// needs a J it never took, or where it ended up.
    fn why_unfinished(&self, p: PlayerId) -> Vec<String> {
        let me = &self.players[p];
        let mut causes = Vec::new();
        if !self.moved[p] {
            causes.push("never moved (it answered WAIT to every TICK)".to_string());
        }
        match self.final_reach(p) {
            FinalReach::NeedsJump if !me.jump => causes
                .push("the final is unreachable without J: only a jump reaches it, so pick up a J first".to_string()),
            FinalReach::Never => causes.push("the final cannot be reached from the start at all".to_string()),
            _ if self.moved[p] => {
                let left = DistancesTo::new(&self.grid, self.spec.final_pos, None).get(me.pos, me.jump);
                causes.push(match left {
                    Some(d) => format!("it ended at {}, {d} moves from the final", me.pos),
                    None => format!("it ended at {}, from where the final cannot be reached", me.pos),
                });
            }
            _ => {}
        }
        causes
    }

    /// In a test: what the scripted opponent took first, when it took anything.
    fn what_the_opponent_took(&self) -> Option<String> {
        if self.taken.is_empty() {
            return None;
        }
        let worth: i64 = self.taken.iter().map(|c| if let Cell::Resource(v) = c { i64::from(*v) } else { 0 }).sum();
        let powers: Vec<String> =
            self.taken.iter().filter(|c| !matches!(c, Cell::Resource(_))).map(Cell::to_string).collect();
        let items = if self.taken.len() == 1 { "item" } else { "items" };
        let mut text = format!("the opponent took {} {items} worth {worth} before you", self.taken.len());
        if !powers.is_empty() {
            text.push_str(&format!(" (power-ups among them: {})", powers.join(", ")));
        }
        Some(text)
    }
}
