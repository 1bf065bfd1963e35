//! Wild Left-Center-Right: a game of dice only, no decisions. Three chips each; the player
//! to roll throws one 8-sided die per chip (three at most): 0-2 keep, 3 give a chip to the
//! left (the next player, k+1), 4 to the right (the previous player, k-1), 5 to the centre,
//! 6 reverse the direction of play, 7 skip one more player. Then play moves on one player
//! in the current direction, and one more per skip; a player without chips takes no turn
//! (play passes on to the next player with chips) but stays in the circle and can be given
//! chips again. The game ends when at most one player has chips.
//!
//! As a hosted game it has no bot processes: every step is a chance node (one die), so a
//! match runs through the referee and `arena verify` re-simulates it from the recorded dice.
//! A player's score is the chips it holds at the end; its `finished` means it won.

pub mod classic;
pub mod sim;

use serde_json::{json, Value};

use crate::engine::{
    ClassicProgram, Columns, Game, GameInfo, MatchOptions, Outcome, PlayerId, PlayerOutcome, PlaysOn, Ranking, Reply,
    SetupError, State, Turn, Wording,
};

/// The game's name in replays and on the command line.
pub const NAME: &str = "lcr";

/// Chips each player starts with.
pub const START_CHIPS: u32 = 3;

/// What one die did, for transcripts and replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DieEffect {
    /// 0-2.
    Keep,
    /// 3: a chip to the next player.
    Left {
        /// Who gets it.
        to: usize,
    },
    /// 4: a chip to the previous player.
    Right {
        /// Who gets it.
        to: usize,
    },
    /// 5: a chip to the centre.
    Center,
    /// 6.
    Reverse,
    /// 7: skip one more player.
    Skip {
        /// The turn's skip count so far.
        skips: u32,
    },
}

impl std::fmt::Display for DieEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DieEffect::Keep => f.write_str("keep"),
            DieEffect::Left { to } => write!(f, "give left to Player #{}", to + 1),
            DieEffect::Right { to } => write!(f, "give right to Player #{}", to + 1),
            DieEffect::Center => f.write_str("give center"),
            DieEffect::Reverse => f.write_str("reverse"),
            DieEffect::Skip { skips } => write!(f, "skip ({skips} this turn)"),
        }
    }
}

/// The state of a game (pure rules, no I/O).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lcr {
    /// Chips per player (index 0 is Player #1).
    pub chips: Vec<u32>,
    /// Chips in the centre.
    pub center: u32,
    /// The player to roll.
    pub current: usize,
    /// Play moves to k+1 (clockwise) or k-1.
    pub clockwise: bool,
    /// Turns taken so far.
    pub turns: u32,
    /// Dice left to roll in the current turn (0 before it starts).
    pub dice_left: u32,
    /// Skips rolled in the current turn.
    pub skips: u32,
    /// Players that hold chips, kept as chips move ([`Lcr::holders`] is asked at every die: a
    /// count over 10,000 players each time cost more than the game).
    holding: usize,
}

impl Lcr {
    /// A new game of `players` players, Player #1 to roll.
    pub fn new(players: usize) -> Lcr {
        Lcr {
            chips: vec![START_CHIPS; players],
            center: 0,
            current: 0,
            clockwise: true,
            turns: 0,
            dice_left: 0,
            skips: 0,
            holding: players,
        }
    }

    /// Players that still hold chips.
    pub fn holders(&self) -> usize {
        self.holding
    }

    /// Moves one chip from `from` to `to` (the centre for `None`), keeping the count of holders.
    fn give(&mut self, from: usize, to: Option<usize>) {
        self.chips[from] -= 1;
        self.holding -= usize::from(self.chips[from] == 0);
        match to {
            Some(to) => {
                self.chips[to] += 1;
                self.holding += usize::from(self.chips[to] == 1);
            }
            None => self.center += 1,
        }
    }

    /// Over when at most one player has chips (and no turn is half played).
    pub fn is_over(&self) -> bool {
        self.dice_left == 0 && self.holders() <= 1
    }

    /// Starts the current player's turn: returns how many dice it rolls.
    pub fn start_turn(&mut self) -> u32 {
        self.turns += 1;
        self.skips = 0;
        self.dice_left = self.chips[self.current].min(3);
        self.dice_left
    }

    /// Applies one die of the current turn; ends the turn (moves play on) after its last die.
    pub fn roll(&mut self, die: u8) -> DieEffect {
        let n = self.chips.len();
        let me = self.current;
        let effect = match die {
            3 => {
                let to = (me + 1) % n;
                self.give(me, Some(to));
                DieEffect::Left { to }
            }
            4 => {
                let to = (me + n - 1) % n;
                self.give(me, Some(to));
                DieEffect::Right { to }
            }
            5 => {
                self.give(me, None);
                DieEffect::Center
            }
            6 => {
                self.clockwise = !self.clockwise;
                DieEffect::Reverse
            }
            7 => {
                self.skips += 1;
                DieEffect::Skip { skips: self.skips }
            }
            _ => DieEffect::Keep,
        };
        self.dice_left = self.dice_left.saturating_sub(1);
        if self.dice_left == 0 {
            self.pass_on();
        }
        effect
    }

    /// Moves play on: one player, then one more per skip, then on to a player with chips.
    fn pass_on(&mut self) {
        if self.holders() <= 1 {
            return;
        }
        let n = self.chips.len();
        let step = |k: usize, cw: bool| if cw { (k + 1) % n } else { (k + n - 1) % n };
        for _ in 0..=self.skips {
            self.current = step(self.current, self.clockwise);
        }
        while self.chips[self.current] == 0 {
            self.current = step(self.current, self.clockwise);
        }
    }

    /// The winner (the one player with chips) once the game is over.
    pub fn winner(&self) -> Option<usize> {
        if self.holders() == 1 {
            self.chips.iter().position(|&c| c > 0)
        } else {
            None
        }
    }
}

/// Wild Left-Center-Right as the registry describes it.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: "Wild Left-Center-Right",
    listed: true,
    players: 2..=MAX_PLAYERS,
    simultaneous: false,
    chance: true,
    bots: false,
    wording: Wording::NEUTRAL,
    columns: Columns { score: "chips", finished: "won" },
    plays_on: PlaysOn::Parameters,
    ranking: Ranking::Score,
    params: &[],
    classic: Some(ClassicProgram { takes_params: false, run: classic::session }),
    kit: None,
};

/// The Wild Left-Center-Right entry of the game registry.
pub struct LcrGame;

impl Game for LcrGame {
    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn renderer(&self) -> Option<&'static str> {
        Some(include_str!("viewer.js"))
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let players = setup.get("players").and_then(Value::as_u64).unwrap_or(0) as usize;
        let players = INFO.player_count(Some(players)).map_err(|e| SetupError::invalid(NAME, e))?;
        let frames = match setup.get("frames") {
            None => Frames::AllChips,
            Some(v) if v == FRAMES_CHANGES => Frames::Changes,
            Some(other) => {
                let why = format!("`frames` is {other}: a replay of this arena records `\"{FRAMES_CHANGES}\"` or nothing");
                return Err(SetupError::invalid(NAME, why));
            }
        };
        Ok(Box::new(LcrState { frames, ..LcrState::new(players) }))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        INFO.params(&options.params)?;
        Ok(Box::new(LcrState::new(INFO.player_count(options.players)?)))
    }
}

/// The most players a hosted game or the classic program accepts.
pub const MAX_PLAYERS: usize = 10_000;

/// What a step's frame records of the chips (the setup's `frames`): the initial frame always
/// has every player's chips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frames {
    /// Every player's chips in every frame: replays recorded before 2026-12-05, whose size
    /// grew as players x dice (a 3,000-player game took 6.8 GB to play).
    AllChips,
    /// Only the chips a die moved, as `changed`: `[[player, chips], ...]` (what new matches record).
    Changes,
}

/// The setup's `frames` of a match whose frames record only the chips that changed.
const FRAMES_CHANGES: &str = "changes";

/// A hosted LCR match: only chance nodes, one per die.
#[derive(Debug, Clone)]
pub struct LcrState {
    game: Lcr,
    last: Option<(usize, u8, DieEffect)>,
    frames: Frames,
}

impl LcrState {
    /// A new match of `players` players.
    pub fn new(players: usize) -> Self {
        LcrState { game: Lcr::new(players), last: None, frames: Frames::Changes }
    }

    /// The players whose chips the last die moved, with their chips now: the roller, then the
    /// neighbour it gave one to.
    fn changed(&self) -> Vec<[u64; 2]> {
        let Some((roller, _, effect)) = &self.last else { return Vec::new() };
        let chips = |p: usize| [p as u64, u64::from(self.game.chips[p])];
        match effect {
            DieEffect::Left { to } | DieEffect::Right { to } => vec![chips(*roller), chips(*to)],
            DieEffect::Center => vec![chips(*roller)],
            DieEffect::Keep | DieEffect::Reverse | DieEffect::Skip { .. } => Vec::new(),
        }
    }
}

impl State for LcrState {
    fn num_players(&self) -> usize {
        0
    }

    fn turn(&self) -> Turn {
        if self.game.is_over() {
            Turn::Terminal
        } else {
            Turn::Chance
        }
    }

    fn intro(&self, _player: PlayerId) -> String {
        String::new()
    }

    fn prompt(&self, _player: PlayerId) -> String {
        String::new()
    }

    fn apply(&mut self, _replies: &[(PlayerId, Reply)]) {}

    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        (0..8).map(|d| (d, 1.0 / 8.0)).collect()
    }

    fn apply_chance(&mut self, outcome: u64) {
        if self.game.dice_left == 0 {
            self.game.start_turn();
        }
        let player = self.game.current;
        let die = (outcome % 8) as u8;
        let effect = self.game.roll(die);
        self.last = Some((player, die, effect));
    }

    fn is_active(&self, _player: PlayerId) -> bool {
        false
    }

    fn outcome(&self) -> Outcome {
        let winner = self.game.winner();
        let players = self
            .game
            .chips
            .iter()
            .enumerate()
            .map(|(i, &c)| PlayerOutcome {
                score: i64::from(c),
                finished: winner == Some(i),
                forfeit: None,
                detail: None,
            })
            .collect();
        Outcome { players, winner }
    }

    fn setup(&self) -> Value {
        match self.frames {
            Frames::AllChips => json!({ "players": self.game.chips.len() }),
            Frames::Changes => json!({ "players": self.game.chips.len(), "frames": FRAMES_CHANGES }),
        }
    }

    fn frame(&self) -> Value {
        let (player, die, effect) = match &self.last {
            Some((p, d, e)) => (json!(p), json!(d), json!(e.to_string())),
            None => (Value::Null, Value::Null, Value::Null),
        };
        let mut frame = json!({
            "turn": self.game.turns,
            "roller": player,
            "die": die,
            "effect": effect,
            "center": self.game.center,
            "next": self.game.current,
            "clockwise": self.game.clockwise,
        });
        if self.frames == Frames::AllChips || self.last.is_none() {
            frame["chips"] = json!(self.game.chips);
        } else {
            frame["changed"] = json!(self.changed());
        }
        frame
    }

    fn render(&self) -> String {
        let chips: Vec<String> =
            self.game.chips.iter().enumerate().map(|(i, c)| format!("Player #{}: {c}", i + 1)).collect();
        let last = match &self.last {
            Some((p, d, e)) => format!("Player #{} rolled a {d}: {e}\n", p + 1),
            None => String::new(),
        };
        // Once over, who won (not the player play would pass to, which may hold no chips).
        let next = match (self.game.is_over(), self.game.winner()) {
            (false, _) => format!("next: Player #{}", self.game.current + 1),
            (true, Some(w)) => format!("game over: Player #{} wins", w + 1),
            (true, None) => "game over: no player holds a chip".to_string(),
        };
        format!(
            "turn {}  {}\n{last}{}  centre: {}\n{next}\n",
            self.game.turns,
            if self.game.clockwise { "clockwise" } else { "counter-clockwise" },
            chips.join("  "),
            self.game.center,
        )
    }
}

#[cfg(test)]
mod render_tests {
    use super::*;

    /// The last frame of a game names its winner, not the next player (who may hold no chips);
    /// the control: a frame of a game going on names the next player.
    #[test]
    fn the_terminal_frame_names_the_winner() {
        let mut s = LcrState::new(2);
        assert!(s.render().ends_with("next: Player #1\n"), "{}", s.render());
        // Player 1 sends its three chips right, to player 2 (die 4), who then holds them all.
        for _ in 0..3 {
            s.apply_chance(4);
        }
        assert_eq!(s.turn(), Turn::Terminal);
        let frame = s.render();
        assert!(frame.ends_with("game over: Player #2 wins\n") && !frame.contains("next:"), "{frame}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Chance;

    /// Plays a hosted match of `setup` to the end with the dice of seed 1: its frames' sizes in
    /// bytes as a replay writes them (the initial frame first), and its final outcome.
    fn frame_sizes(setup: Value) -> (Vec<usize>, Outcome) {
        let mut state = LcrGame.load(&setup).unwrap();
        let mut dice = Chance::new(1);
        let mut sizes = vec![serde_json::to_vec(&state.frame()).unwrap().len()];
        while state.turn() == Turn::Chance {
            state.apply_chance(dice.draw(&state.chance_outcomes()));
            sizes.push(serde_json::to_vec(&state.frame()).unwrap().len());
        }
        (sizes, state.outcome())
    }

    /// A new match's step records only the chips its die moved, so a replay grows with its steps
    /// alone, not players x steps (a 3,000-player duel took 6.8 GB, 10,000 never ended): every
    /// step's frame stays under 200 bytes at 40 players and at 400 alike. The control: a setup
    /// recorded before (no `frames`), which re-simulates every frame with all the chips, writes
    /// frames that grow with the players; both play the same game.
    #[test]
    fn a_step_records_the_chips_that_changed_so_replays_grow_with_steps_alone() {
        for players in [40, 400] {
            let setup = LcrGame.new_match(&MatchOptions { players: Some(players), ..Default::default() }).unwrap().setup();
            assert_eq!(setup, json!({ "players": players, "frames": "changes" }));
            let (sizes, outcome) = frame_sizes(setup);
            assert!(sizes[0] > 2 * players, "the initial frame has everyone's chips: {} bytes", sizes[0]);
            let steps = &sizes[1..];
            assert!(steps.len() > 10 * players, "{players} players: {} steps", steps.len());
            let largest = steps.iter().max().copied().unwrap_or(0);
            assert!(largest < 200, "{players} players: a step's frame takes up to {largest} bytes");
            let (old, old_outcome) = frame_sizes(json!({ "players": players }));
            assert_eq!(old.len(), sizes.len());
            assert_eq!(old_outcome, outcome, "the same game");
            assert!(old[1..].iter().all(|&b| b > 2 * players), "{players} players: the old frames hold every chip");
        }
    }

    /// A step's `changed` is what its die moved; the chips it leaves out are as before.
    #[test]
    fn changed_names_the_roller_and_the_neighbour_it_gave_to() {
        let mut state = LcrState::new(5);
        state.apply_chance(3); // Player #1 gives left, to Player #2.
        assert_eq!(state.frame()["changed"], json!([[0, 2], [1, 4]]));
        assert!(state.frame().get("chips").is_none());
        state.apply_chance(4); // and right, to Player #5.
        assert_eq!(state.frame()["changed"], json!([[0, 1], [4, 4]]));
        state.apply_chance(5); // then to the centre: the turn is over.
        assert_eq!(state.frame()["changed"], json!([[0, 0]]));
        assert_eq!((state.frame()["center"].clone(), state.frame()["next"].clone()), (json!(1), json!(1)));
        state.apply_chance(0);
        assert_eq!(state.frame()["changed"], json!([]));
        assert_eq!(state.game.chips, [0, 4, 3, 3, 4]);
    }

    /// A setup's `frames` other than `"changes"` is refused, saying what a replay records.
    #[test]
    fn an_unknown_frames_setup_is_refused() {
        let err = LcrGame.load(&json!({ "players": 3, "frames": "all" })).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("invalid lcr setup: `frames` is \"all\": a replay of this arena records `\"changes\"` or nothing")
        );
    }

    /// The count of players holding chips, kept as chips move, is the count over them at every die.
    #[test]
    fn the_holders_kept_are_the_holders_counted() {
        for (players, seed) in [(2, 1), (3, 2), (7, 3), (50, 4)] {
            let mut game = Lcr::new(players);
            let mut dice = Chance::new(seed);
            while !game.is_over() {
                for _ in 0..game.start_turn() {
                    game.roll(dice.draw(&[(0, 1.0), (1, 1.0), (2, 1.0), (3, 1.0), (4, 1.0), (5, 1.0), (6, 1.0), (7, 1.0)]) as u8);
                    assert_eq!(game.holders(), game.chips.iter().filter(|&&c| c > 0).count());
                }
            }
            assert_eq!(game.holders(), 1);
        }
    }
}
