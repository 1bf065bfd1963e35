//! Standings: what a league's pages and tables read (each finished match's result line, the
//! forfeit rule, the leaderboard computed from them). Below both the tournament that writes
//! them and the pages that show them, so that neither needs the other.

pub mod leaderboard;
pub mod maps;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::replay::MatchResult;

/// How a forfeit counts in wins, draws and losses (the score is the game's either way).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitRule {
    /// A bot that forfeited lost the match (whatever the scores), unless every bot did.
    #[default]
    Loss,
    /// The match is decided by the scores, as the game reports it (a 0-0 is a draw).
    Score,
}

/// One finished match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultLine {
    /// The scheduled match's key.
    pub key: String,
    /// Bot names in seat order.
    pub seats: Vec<String>,
    /// The map file, by the path the league's config gave (private: what is shown names it by
    /// [`maps::MapNames`]).
    pub map: PathBuf,
    /// Game number for the pairing and map.
    pub game: u32,
    /// The match seed.
    pub seed: u64,
    /// Number of steps played.
    pub steps: usize,
    /// The replay, relative to the tournament folder.
    pub replay: String,
    /// The result.
    pub result: MatchResult,
    /// Each seat's bot version (fingerprint), in seat order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<String>,
    /// The step at which each seat's game ended (finished, forfeited or ran out of rounds).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ended_at: Vec<usize>,
    /// When the match ended (seconds since the Unix epoch; 0 when unknown).
    #[serde(default)]
    pub at: u64,
    /// What the replay says about each forfeit (tick, times, limits), for the pages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<crate::explain::ForfeitFact>,
}

impl ResultLine {
    /// Why its result is no result of its own seats, if it is not: one player for each seat, and
    /// a winner (if any) that is one of them. A line failing this counts for nobody (a winner of
    /// seat 5 of two, or seat 2 of two seats with a third player added, was a loss for both).
    pub fn seats_problem(&self) -> Option<String> {
        let (players, seats) = (self.result.players.len(), self.seats.len());
        if players != seats {
            return Some(format!("its result has {players} players for its {seats} seats"));
        }
        match self.result.winner {
            Some(w) if w >= players => {
                Some(format!("its winner, seat {w}, is none of its {players} players' seats (counted from 0)"))
            }
            _ => None,
        }
    }
}
