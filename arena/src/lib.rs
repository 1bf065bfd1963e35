//! The arena's library: the engine traits every hosted game implements, the games, the
//! referee that plays them between bot processes, replays that re-simulate exactly, leagues
//! and pages. Layers, from the bottom (ARCHITECTURE.md; `tests/layers.rs` checks them): 0
//! [`engine`], [`sandbox`] and [`safe_text`]; 1 [`files`]; 2 [`replay`]; 3 [`referee`] and
//! [`games`], side by side; 4 [`explain`]; 5 [`standings`], [`doctor`] and [`starter`]; 6
//! [`tournament`] and [`view`], side by side.

#![warn(missing_docs)]

pub mod doctor;
pub mod engine;
pub mod explain;
pub mod files;
pub mod games;
pub mod referee;
pub mod replay;
pub mod safe_text;
pub mod sandbox;
pub mod standings;
pub mod starter;
pub mod tournament;
pub mod view;
