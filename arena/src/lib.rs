//! The arena: hosts bot games (Resource Rush first) behind one engine trait, referees
//! matches between bot processes, and records replays that re-simulate exactly.
//!
//! Modules: [`engine`] (the trait every game implements), [`games`] (one folder per game),
//! [`referee`] (processes, pipes, time limits), [`replay`] (the JSON record and its checks).

#![warn(missing_docs)]

pub mod doctor;
pub mod engine;
pub mod files;
pub mod games;
pub mod referee;
pub mod replay;
pub mod sandbox;
pub mod starter;
pub mod tournament;
pub mod view;
