//! Sample Resource Rush bots, as strategies (the binaries in `src/bin/` run them).
//!
//! - [`greedy::Greedy`]: best value per tick of distance, always keeping time to finish.
//! - [`reference::Reference`]: plays the optimal plan where a small search proves it, else a
//!   route found by local search; the course's reference for what a strong bot scores.
//! - [`tactics_greedy::GreedyTactics`], [`atoms_greedy::GreedyAtoms`]: greedy OOPtimal Tactics and
//!   Atoms bots, the opponents of those games' starter folders.
//! - [`plan_search`], [`relaxation`], [`planner`]: the single-player search the reference bot
//!   plans with and `arena solve` proves optima and certifies bounds with.

#![warn(missing_docs)]

pub mod atoms_greedy;
pub mod bundle;
pub mod cputime;
pub mod greedy;
pub mod plan_search;
pub mod planner;
pub mod reference;
pub mod relaxation;
pub mod tactics_greedy;
pub mod work;
