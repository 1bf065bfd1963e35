//! What a bot knows: the header it was sent, then every TICK line, folded into a game state.

use thiserror::Error;

use crate::map::{Grid, MapError, MapSpec, Pos};
use crate::path::{legal_moves, safe_moves, Distances};
use crate::rules::{resolve, Action, Player};

/// How the referee orders the opponent's move against yours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A duel: both moves of a tick happen at once, and `TICK t` reports the opponent's move
    /// of tick `t-1`.
    #[default]
    Duel,
    /// A single-player test: `TICK t` carries the scripted opponent's move of tick `t`, applied
    /// before yours.
    Test,
}

impl Mode {
    /// The mode named by the `RR_MODE` environment variable (`duel` or `test`), else `Duel`.
    pub fn from_env() -> Mode {
        match std::env::var("RR_MODE").as_deref() {
            Ok("test") => Mode::Test,
            _ => Mode::Duel,
        }
    }
}

/// A `TICK` line that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad TICK line `{line}`: {why}")]
pub struct TickError {
    /// The line as received.
    pub line: String,
    /// What was wrong.
    pub why: String,
}

/// Parses `TICK t WAIT` or `TICK t MOVE x y`.
pub fn parse_tick(line: &str) -> Result<(u32, Action), TickError> {
    let fail = |why: String| TickError { line: line.trim().to_string(), why };
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.as_slice() {
        ["TICK", t, rest @ ..] => {
            let tick = t.parse::<u32>().map_err(|_| fail(format!("`{t}` is not a tick number")))?;
            let action = Action::parse_tokens(rest).map_err(|e| fail(e.to_string()))?;
            Ok((tick, action))
        }
        _ => Err(fail("expected `TICK t <action>`".to_string())),
    }
}

/// The game as one bot sees it: the map with collected cells cleared, both players, the clock.
#[derive(Debug, Clone)]
pub struct GameState {
    /// The header as received: `starts[0]` is this bot, `starts[1]` the opponent.
    pub spec: MapSpec,
    /// The map now: collected resources and power-ups are `0`.
    pub grid: Grid,
    /// This bot.
    pub me: Player,
    /// The opponent, as far as its moves tell (its score is inferred the same way).
    pub opponent: Player,
    /// The tick being answered (0 before the first TICK).
    pub tick: u32,
    mode: Mode,
    pending: Option<Action>,
}

impl GameState {
    /// A state from the header text (everything up to and including `STREAM`).
    pub fn from_header(text: &str, mode: Mode) -> Result<GameState, MapError> {
        let spec = MapSpec::parse(text)?;
        Ok(GameState {
            grid: spec.grid.clone(),
            me: Player::new(spec.starts[0]),
            opponent: Player::new(spec.starts[1]),
            tick: 0,
            mode,
            pending: None,
            spec,
        })
    }

    /// Whether this is a duel or a single-player test.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The cell both players must reach.
    pub fn final_pos(&self) -> Pos {
        self.spec.final_pos
    }

    /// Ticks still to play, the current one included.
    pub fn ticks_left(&self) -> u32 {
        (self.spec.rounds + 1).saturating_sub(self.tick.max(1))
    }

    /// Valid moves for this bot now (fire included).
    pub fn legal_moves(&self) -> Vec<Pos> {
        legal_moves(&self.grid, self.me.pos, self.me.jump)
    }

    /// Valid moves for this bot now that do not enter fire.
    pub fn safe_moves(&self) -> Vec<Pos> {
        safe_moves(&self.grid, self.me.pos, self.me.jump)
    }

    /// Shortest distances from `from` on the current map, with this bot's Jump, on paths that
    /// do not go on through the final (reaching it ends the game).
    pub fn distances_from(&self, from: Pos) -> Distances {
        Distances::avoiding(&self.grid, from, self.me.jump, Some(self.final_pos()))
    }

    /// The first move towards `target` on a shortest safe path that does not cross the final
    /// on the way (`None` when there is none, or the bot is there).
    pub fn step_towards(&self, target: Pos) -> Option<Pos> {
        crate::path::first_step_avoiding(&self.grid, self.me.pos, target, self.me.jump, Some(self.final_pos()))
    }

    /// Takes in `TICK tick <opponent action>`; call before deciding tick `tick`.
    pub fn on_tick(&mut self, tick: u32, opponent: Action) {
        let opp_move = match opponent {
            Action::Move(p) => Some(p),
            Action::Wait => None,
        };
        match self.mode {
            Mode::Duel => {
                let mine = match self.pending.take() {
                    Some(Action::Move(p)) => Some(p),
                    _ => None,
                };
                self.apply(&[mine, opp_move]);
            }
            Mode::Test => self.apply(&[None, opp_move]),
        }
        self.tick = tick;
    }

    /// Records this bot's answer for the current tick.
    pub fn commit(&mut self, action: Action) {
        match (self.mode, action) {
            (Mode::Duel, _) => self.pending = Some(action),
            (Mode::Test, Action::Move(p)) => self.apply(&[Some(p), None]),
            (Mode::Test, Action::Wait) => {}
        }
    }

    fn apply(&mut self, moves: &[Option<Pos>; 2]) {
        let mut players = [self.me, self.opponent];
        resolve(&mut self.grid, &mut players, moves);
        [self.me, self.opponent] = players;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Cell;

    const HEADER: &str = "ARENA 1 5 6\n0 1\n0 3\n0 4\nMAP\n0 0 9 0 0\nEND_MAP\nSTREAM\n";

    #[test]
    fn duel_mode_settles_a_tick_when_the_opponents_move_arrives() {
        let mut s = GameState::from_header(HEADER, Mode::Duel).unwrap();
        s.on_tick(1, Action::Wait);
        assert_eq!(s.ticks_left(), 6);
        s.commit(Action::Move(Pos::new(0, 2)));
        assert_eq!(s.me.score, 0, "nothing is settled before the opponent's move is known");
        // TICK 2 says the opponent also moved onto (0, 2) at tick 1: the 9 was cancelled.
        s.on_tick(2, Action::Move(Pos::new(0, 2)));
        assert_eq!((s.me.pos, s.me.score, s.opponent.score), (Pos::new(0, 2), 0, 0));
        assert_eq!(s.grid.get(Pos::new(0, 2)), Some(Cell::Floor));
        assert_eq!(s.ticks_left(), 5);
    }

    #[test]
    fn duel_mode_collects_when_uncontested() {
        let mut s = GameState::from_header(HEADER, Mode::Duel).unwrap();
        s.on_tick(1, Action::Wait);
        s.commit(Action::Move(Pos::new(0, 2)));
        s.on_tick(2, Action::Move(Pos::new(0, 4)));
        assert_eq!((s.me.score, s.opponent.pos), (9, Pos::new(0, 4)));
    }

    #[test]
    fn test_mode_applies_the_scripted_move_first() {
        let mut s = GameState::from_header(HEADER, Mode::Test).unwrap();
        s.on_tick(1, Action::Move(Pos::new(0, 2)));
        assert_eq!(s.grid.get(Pos::new(0, 2)), Some(Cell::Floor), "the opponent took the 9 first");
        assert_eq!(s.opponent.score, 9);
        s.commit(Action::Move(Pos::new(0, 2)));
        assert_eq!((s.me.pos, s.me.score), (Pos::new(0, 2), 0));
    }

    #[test]
    fn tick_lines_parse_or_explain() {
        assert_eq!(parse_tick("TICK 3 MOVE 1 2\r\n"), Ok((3, Action::Move(Pos::new(1, 2)))));
        assert_eq!(parse_tick(" TICK 1 WAIT "), Ok((1, Action::Wait)));
        assert!(parse_tick("TOCK 1 WAIT").unwrap_err().why.contains("expected `TICK t <action>`"));
        assert!(parse_tick("TICK x WAIT").unwrap_err().why.contains("not a tick number"));
        assert!(parse_tick("TICK 1 JUMP").is_err());
    }

    #[test]
    fn the_run_loop_answers_each_tick_and_stops_at_end_of_input() {
        struct Right;
        impl crate::Bot for Right {
            fn act(&mut self, s: &GameState) -> Action {
                Action::Move(Pos::new(s.me.pos.x, s.me.pos.y + 1))
            }
        }
        let input = format!("{HEADER}TICK 1 WAIT\n\nTICK 2 MOVE 0 2\n");
        let mut out = Vec::new();
        crate::run_io(Right, input.as_bytes(), &mut out, Mode::Duel).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "MOVE 0 2\nMOVE 0 3\n");
        let early = crate::run_io(Right, "ARENA 1\n".as_bytes(), Vec::new(), Mode::Duel);
        assert!(early.is_ok(), "end of input before STREAM is a clean stop");
        let bad = format!("{HEADER}TICK one WAIT\n");
        assert!(matches!(crate::run_io(Right, bad.as_bytes(), Vec::new(), Mode::Duel), Err(crate::RunError::Tick(_))));
    }
}
