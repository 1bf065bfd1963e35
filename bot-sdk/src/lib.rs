//! # bot-sdk: write a Resource Rush bot in Rust
//!
//! The arena starts your bot as a process and talks to it over stdin/stdout. It first sends
//! the map header (from your point of view: your start on line 2), then one
//! `TICK t <opponent's last action>` line per tick; you answer each with exactly one line,
//! `WAIT` or `MOVE x y`. This crate does all of that for you:
//!
//! - [`GameState`] tracks the map (collected cells cleared), both players, your Jump,
//!   multiplier and score, and the ticks left;
//! - [`rules`] is the exact rule code the referee enforces ([`rules::check_move`],
//!   [`rules::resolve`]);
//! - [`path`] gives legal moves and shortest distances, with or without Jump;
//! - implement [`Bot`] and call [`run`]: it owns the loop and flushes every answer.
//!
//! ## A complete bot
//!
//! This bot walks to the nearest resource it can still afford (it must always keep enough
//! ticks to reach the final) and otherwise heads for the final. The example feeds it a tiny
//! game through [`run_io`]; a real bot calls `bot_sdk::run(Nearest).unwrap()` in `main`.
//!
//! ```
//! use bot_sdk::{Action, Bot, Cell, GameState, Mode};
//!
//! struct Nearest;
//!
//! impl Bot for Nearest {
//!     fn act(&mut self, s: &GameState) -> Action {
//!         let here = s.distances_from(s.me.pos);
//!         let to_final = s.distances_from(s.final_pos());
//!         let budget = s.ticks_left();
//!         // The nearest resource from which the final is still reachable in time.
//!         let target = s
//!             .grid
//!             .positions()
//!             .filter(|p| matches!(s.grid.get(*p), Some(Cell::Resource(_))))
//!             .filter_map(|p| Some((here.get(p)?, to_final.get(p)?, p)))
//!             .filter(|(d, back, _)| d + back <= budget)
//!             .min()
//!             .map_or(s.final_pos(), |(_, _, p)| p);
//!         match s.step_towards(target) {
//!             Some(step) => Action::Move(step),
//!             None => Action::Wait,
//!         }
//!     }
//! }
//!
//! let input = "ARENA 1 4 5\n0 0\n0 0\n0 3\nMAP\n0 7 0 0\nEND_MAP\nSTREAM\n\
//!              TICK 1 WAIT\nTICK 2 WAIT\nTICK 3 WAIT\n";
//! let mut output = Vec::new();
//! bot_sdk::run_io(Nearest, input.as_bytes(), &mut output, Mode::Duel).unwrap();
//! assert_eq!(String::from_utf8(output).unwrap(), "MOVE 0 1\nMOVE 0 2\nMOVE 0 3\n");
//! ```
//!
//! Print debug output to stderr only: stdout is the protocol.

pub mod atoms;
pub mod bot;
pub mod map;
pub mod path;
pub mod rules;
pub mod state;
pub mod tactics;

pub use bot::{run, run_io, Bot, RunError};
pub use map::{Cell, Grid, MapError, MapSpec, Pos};
pub use rules::{Action, Player};
pub use state::{GameState, Mode};
