//! # bot-sdk: write a Resource Rush bot in Rust
//!
//! The arena starts your bot as a process and talks to it over stdin/stdout. It first sends
//! the map header (from your point of view: your start on line 2), then one
//! `TICK t <opponent's last action>` line per tick; you answer each with exactly one line,
//! `WAIT` or `MOVE x y`. This crate does all of that for you:
//!
//! - [`GameState`] tracks the map (collected cells cleared), both players, your Jump,
//!   multiplier and score, the ticks left, the [`Mode`] ([`GameState::mode`]) and whether the
//!   opponent has finished or forfeited ([`GameState::opponent_status`]);
//! - it answers "how do I get there?": [`GameState::path_to`], [`GameState::distance_to`],
//!   [`GameState::step_towards`], [`GameState::distances`] (from you to every cell) and
//!   [`GameState::distances_to`] (from every cell to one target, cached). They plan through
//!   `J` pickups: a path may take a `J` on the way and jump after it;
//! - [`rules`] is the exact rule code the referee enforces ([`rules::check_move`],
//!   [`rules::resolve`]);
//! - [`path`] gives legal moves and shortest distances, with or without Jump;
//! - implement [`Bot`] and call [`run`]: it owns the loop and flushes every answer.
//!
//! ## Your first bot
//!
//! This is a whole bot: put it in `src/main.rs` of a binary crate that depends on `bot-sdk`
//! (`bot-sdk = { path = "…/bot-sdk" }`), then `cargo build --release`. It walks to the nearest
//! resource it can still afford, always keeping enough ticks to reach the final, and then
//! goes there. It finishes on every map in `maps/`: on `maps/duel.txt` the final's
//! neighbours are a void and fire, so only a jump reaches it, and `step_towards` plans
//! through a `J` on the way. (It is the sample bot `first-bot`; the arena's tests run it on
//! every map.)
//!
//! ```no_run
#![doc = include_str!("../examples/first_bot.rs")]
//! ```
//!
//! ## Planning through a `J`
//!
//! On this 1 x 5 map the wall at (0, 3) stands between the bot and the final. Walking cannot
//! get past it, but the `J` behind the bot can: the shortest way takes it, then jumps.
//!
//! ```
//! use bot_sdk::{GameState, Mode, Pos};
//!
//! let header = "ARENA 1 5 20\n0 1\n0 1\n0 4\nMAP\nJ 0 0 W 0\nEND_MAP\nSTREAM\n";
//! let state = GameState::from_header(header, Mode::Duel).unwrap();
//! let final_cell = state.final_pos();
//! // Step back onto the J, then jump twice: over (0, 1), then over the wall.
//! assert_eq!(state.path_to(final_cell), Some(vec![Pos::new(0, 0), Pos::new(0, 2), Pos::new(0, 4)]));
//! assert_eq!(state.distance_to(final_cell), Some(3));
//! // Without the J the final is out of reach: `distances_from` uses the Jump held now.
//! assert_eq!(state.distances_from(state.me.pos).get(final_cell), None);
//! ```
//!
//! ## Running a bot on a tiny game
//!
//! [`run_io`] plays a bot on any input; a real bot calls [`run`] in `main`, which reads
//! `RR_MODE` to know whether it plays a duel or a single-player test.
//!
//! ```
//! use bot_sdk::{Action, Bot, GameState, Mode};
//!
//! struct Right;
//! impl Bot for Right {
//!     fn act(&mut self, s: &GameState) -> Action {
//!         s.step_towards(s.final_pos()).map_or(Action::Wait, Action::Move)
//!     }
//! }
//!
//! let input = "ARENA 1 4 5\n0 0\n0 0\n0 3\nMAP\n0 7 0 0\nEND_MAP\nSTREAM\n\
//!              TICK 1 WAIT\nTICK 2 WAIT\nTICK 3 WAIT\n";
//! let mut output = Vec::new();
//! bot_sdk::run_io(Right, input.as_bytes(), &mut output, Mode::Duel).unwrap();
//! assert_eq!(String::from_utf8(output).unwrap(), "MOVE 0 1\nMOVE 0 2\nMOVE 0 3\n");
//! ```
//!
//! Bots of the other games: [`tactics`] (OOPtimal Tactics) and [`atoms`] read their game's
//! prompts and write its commands the same way (`arena new-bot --game tactics|atoms --lang
//! rust` writes a starter that uses them).
//!
//! Print debug output to stderr only: stdout is the protocol. The arena keeps it
//! (`arena duel` beside the replay, `arena test --logs DIR` per test).

#![warn(missing_docs)]

pub mod action;
pub mod atoms;
pub mod bot;
pub mod grid;
pub mod map;
pub mod path;
pub mod rules;
pub mod state;
pub mod tactics;

pub use bot::{run, run_io, Bot, RunError};
pub use map::{Cell, Grid, MapError, MapSpec, Pos};
pub use rules::{Action, Player};
pub use state::{GameState, Mode, OpponentStatus};
