//! What a bot knows: the header it was sent, then every TICK line, folded into a game state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use thiserror::Error;

use crate::map::{Cell, Grid, MapError, MapSpec, Pos};
use crate::path::{legal_moves, safe_moves, Distances, DistancesTo};
use crate::rules::{resolve, Action, Event, Player};

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

/// Whether the opponent still plays, as far as its moves tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OpponentStatus {
    /// Still on the board. (A forfeit for an invalid, malformed or late answer, or a crash,
    /// shows as `WAIT` on every later tick: it cannot be told from waiting.)
    #[default]
    Playing,
    /// It reached the final: its score is final and it moves no more.
    Finished,
    /// It stepped into fire: its score is 0 and it moves no more.
    Forfeited,
}

/// Distances this bot asked for, kept until they may change: from this bot until it moves,
/// to each target until a `J` leaves the map (walls, voids and fire never change).
#[derive(Debug, Default)]
struct PathCache {
    from_me: Option<Arc<Distances>>,
    to: HashMap<Pos, Arc<DistancesTo>>,
}

/// A [`PathCache`] behind a lock, so that a `&GameState` can fill it.
#[derive(Debug, Default)]
struct SharedCache(Mutex<PathCache>);

impl SharedCache {
    fn with<T>(&self, f: impl FnOnce(&mut PathCache) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Clone for SharedCache {
    fn clone(&self) -> Self {
        self.with(|c| SharedCache(Mutex::new(PathCache { from_me: c.from_me.clone(), to: c.to.clone() })))
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
    opponent_status: OpponentStatus,
    pending: Option<Action>,
    paths: SharedCache,
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
            opponent_status: OpponentStatus::Playing,
            pending: None,
            paths: SharedCache::default(),
            spec,
        })
    }

    /// Whether this is a duel or a single-player test (from `RR_MODE` when run by [`crate::run`]).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the opponent still plays. In a single-player test the opponent is a recording
    /// that never finishes nor forfeits: it is always [`OpponentStatus::Playing`].
    pub fn opponent_status(&self) -> OpponentStatus {
        self.opponent_status
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

    /// Shortest distances from this bot to every cell, planning through `J` pickups (a path
    /// may take a `J` on the way and jump after it), over safe moves, never on through the
    /// final. Kept until this bot moves.
    pub fn distances(&self) -> Arc<Distances> {
        self.paths.with(|c| {
            let (grid, me, stop) = (&self.grid, self.me, self.final_pos());
            c.from_me
                .get_or_insert_with(|| Arc::new(Distances::planning_jumps(grid, me.pos, me.jump, Some(stop))))
                .clone()
        })
    }

    /// Ticks from this bot to `target` on the shortest safe way, planning through `J` pickups
    /// and never on through the final; `None` when it cannot be reached.
    pub fn distance_to(&self, target: Pos) -> Option<u32> {
        self.distances().get(target)
    }

    /// Shortest distances to `target` from every cell, with or without Jump, planning through
    /// `J` pickups and never on through the final (`.get(cell, has_jump)`). Cached per target
    /// until a `J` leaves the map; for instance `state.distances_to(state.final_pos())` says
    /// how far the final is from any cell.
    pub fn distances_to(&self, target: Pos) -> Arc<DistancesTo> {
        self.paths.with(|c| {
            c.to.entry(target)
                .or_insert_with(|| Arc::new(DistancesTo::new(&self.grid, target, Some(self.final_pos()))))
                .clone()
        })
    }

    /// The moves of a shortest safe path from this bot to `target` (the target last; empty when
    /// the bot is there), planning through `J` pickups and never on through the final; `None`
    /// when it cannot be reached.
    pub fn path_to(&self, target: Pos) -> Option<Vec<Pos>> {
        self.distances_to(target).path(&self.grid, self.me.pos, self.me.jump)
    }

    /// The first move of [`GameState::path_to`]: `None` when `target` cannot be reached, or
    /// the bot is there.
    pub fn step_towards(&self, target: Pos) -> Option<Pos> {
        self.distances_to(target).next_step(&self.grid, self.me.pos, self.me.jump)
    }

    /// Takes in `TICK tick <opponent action>`; call before deciding tick `tick`. The opponent's
    /// move is taken as told: [`crate::run`] refuses one off the map before it gets here (the
    /// arena never sends one), so a bot may look up the opponent's cell on its map.
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
            Mode::Test => {
                if let Some(p) = opp_move {
                    self.scripted_move(p);
                }
            }
        }
        self.tick = tick;
        // The opponent's move of tick t-1 is known now: did it end its game?
        if self.mode == Mode::Duel && tick > 1 && self.opponent_status == OpponentStatus::Playing {
            if self.grid.get(self.opponent.pos) == Some(Cell::Fire) {
                self.opponent_status = OpponentStatus::Forfeited;
                self.opponent.score = 0;
            } else if self.opponent.pos == self.final_pos() {
                self.opponent_status = OpponentStatus::Finished;
            }
        }
    }

    /// Records this bot's answer for the current tick.
    pub fn commit(&mut self, action: Action) {
        match (self.mode, action) {
            (Mode::Duel, _) => self.pending = Some(action),
            (Mode::Test, Action::Move(p)) => self.apply(&[Some(p), None]),
            (Mode::Test, Action::Wait) => {}
        }
    }

    /// A test's scripted opponent moves as the arena moves it: unchecked, onto `p`, taking
    /// whatever lies there, and scoring nothing (it is a recording, not a player). A `J` it
    /// takes is noted, since its later moves may be jumps.
    fn scripted_move(&mut self, p: Pos) {
        self.opponent.pos = p;
        let Some(item) = self.grid.get(p).filter(|c| c.is_collectable()) else { return };
        self.grid.set(p, Cell::Floor);
        if item == Cell::Jump {
            self.opponent.jump = true;
            self.paths.with(|c| {
                c.from_me = None;
                c.to.clear();
            });
        }
    }

    fn apply(&mut self, moves: &[Option<Pos>; 2]) {
        let mut players = [self.me, self.opponent];
        let events = resolve(&mut self.grid, &mut players, moves);
        [self.me, self.opponent] = players;
        let jump_gone = events.iter().any(|e| {
            matches!(e, Event::Collected { item: Cell::Jump, .. } | Event::Cancelled { item: Cell::Jump, .. })
        });
        self.paths.with(|c| {
            if moves[0].is_some() || jump_gone {
                c.from_me = None;
            }
            if jump_gone {
                c.to.clear();
            }
        });
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
        assert_eq!(
            (s.opponent.pos, s.opponent.score),
            (Pos::new(0, 2), 0),
            "a recording scores nothing, as in the arena"
        );
        s.commit(Action::Move(Pos::new(0, 2)));
        assert_eq!((s.me.pos, s.me.score), (Pos::new(0, 2), 0));
    }

    #[test]
    fn the_mode_and_the_opponents_status_are_known() {
        // P2 starts at (0, 3) beside the final (0, 4) and fire (1, 3).
        let header = "ARENA 2 5 9\n0 0\n0 3\n0 4\nMAP\n0 0 0 7 0\n0 0 0 F 0\nEND_MAP\nSTREAM\n";
        let mut s = GameState::from_header(header, Mode::Duel).unwrap();
        assert_eq!((s.mode(), s.opponent_status()), (Mode::Duel, OpponentStatus::Playing));
        s.on_tick(1, Action::Wait);
        s.commit(Action::Wait);
        s.on_tick(2, Action::Move(Pos::new(0, 4)));
        assert_eq!(s.opponent_status(), OpponentStatus::Finished, "its move onto the final shows as made");
        let mut s = GameState::from_header(header, Mode::Duel).unwrap();
        s.on_tick(1, Action::Wait);
        s.commit(Action::Wait);
        s.on_tick(2, Action::Move(Pos::new(1, 3)));
        assert_eq!((s.opponent_status(), s.opponent.score), (OpponentStatus::Forfeited, 0), "it entered fire");
        s.commit(Action::Wait);
        s.on_tick(3, Action::Wait);
        assert_eq!(s.opponent_status(), OpponentStatus::Forfeited, "and stays out");
        // In a test the opponent is a recording: it walks over the final and plays on.
        let mut t = GameState::from_header(header, Mode::Test).unwrap();
        assert_eq!(t.mode(), Mode::Test);
        t.on_tick(1, Action::Move(Pos::new(0, 4)));
        t.commit(Action::Wait);
        t.on_tick(2, Action::Move(Pos::new(0, 3)));
        assert_eq!(t.opponent_status(), OpponentStatus::Playing);
    }

    #[test]
    fn paths_plan_through_a_j_and_forget_it_once_it_is_gone() {
        // The final (0, 4) is behind a wall; the only J is at (1, 0), next to both players.
        let header = "ARENA 2 5 20\n0 0\n1 1\n0 4\nMAP\n0 0 0 W 0\nJ 0 0 W 0\nEND_MAP\nSTREAM\n";
        let mut s = GameState::from_header(header, Mode::Duel).unwrap();
        let fin = s.final_pos();
        assert_eq!(s.path_to(fin), Some(vec![Pos::new(1, 0), Pos::new(0, 0), Pos::new(0, 2), Pos::new(0, 4)]));
        assert_eq!(s.distance_to(fin), Some(4));
        assert_eq!(s.step_towards(fin), Some(Pos::new(1, 0)));
        assert_eq!(s.distances_to(fin).get(Pos::new(0, 2), false), Some(6), "from any cell, without Jump");
        assert_eq!(s.distances_to(fin).get(Pos::new(0, 2), true), Some(1), "and with it: one jump over the wall");
        // The opponent takes the J at tick 1: now nothing reaches the final.
        s.on_tick(1, Action::Wait);
        s.commit(Action::Move(Pos::new(0, 1)));
        s.on_tick(2, Action::Move(Pos::new(1, 0)));
        assert!(s.opponent.jump);
        assert_eq!((s.path_to(fin), s.distance_to(fin), s.step_towards(fin)), (None, None, None));
        assert_eq!(s.distances().get(Pos::new(0, 2)), Some(1), "distances from here follow the bot");
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

    #[test]
    fn the_run_loop_refuses_an_opponents_move_off_the_map() {
        /// Looks the opponent's cell up on its map, as a bot may.
        struct Looks;
        impl crate::Bot for Looks {
            fn act(&mut self, s: &GameState) -> Action {
                let p = s.opponent.pos;
                let _ = s.grid.row_text(usize::try_from(p.x).unwrap()).split(' ').nth(usize::try_from(p.y).unwrap());
                Action::Wait
            }
        }
        for mode in [Mode::Duel, Mode::Test] {
            for (x, y) in [(9, 9), (0, 5), (1, 0), (-1, 0), (0, -1), (1_000_000, 0)] {
                let input = format!("{HEADER}TICK 1 MOVE {x} {y}\n");
                let mut out = Vec::new();
                match crate::run_io(Looks, input.as_bytes(), &mut out, mode) {
                    Err(crate::RunError::Tick(e)) => {
                        assert_eq!(e.line, format!("TICK 1 MOVE {x} {y}"));
                        assert!(e.why.contains(&format!("({x}, {y}) is off the 1 x 5 map")), "{}", e.why);
                    }
                    other => panic!("({x}, {y}) in {mode:?}: {other:?}"),
                }
                assert!(out.is_empty(), "the bot never saw the line");
            }
            // Control: a move on the map, even one no referee would send (a wall's cell, a
            // teleport), reaches the bot, which answers.
            let header = "ARENA 2 5 6\n0 1\n0 3\n0 4\nMAP\n0 0 9 0 0\nW 0 0 0 0\nEND_MAP\nSTREAM\n";
            for (x, y) in [(1, 0), (0, 0), (1, 4)] {
                let input = format!("{header}TICK 1 MOVE {x} {y}\n");
                let mut out = Vec::new();
                crate::run_io(Looks, input.as_bytes(), &mut out, mode).unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), "WAIT\n");
            }
        }
    }
}
