//! What happens in a tick, as replay frames record it and as `arena replay` tells it. One
//! enum holds every kind, so the text description of each is checked by the compiler.

use bot_sdk::Pos;
use serde::{Deserialize, Serialize};

use crate::engine::ForfeitReason;

/// One event of a tick (`frame.events[]` in a replay; `type` names the kind).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TickEvent {
    /// `player` took `item` (the cell's token) at `cell`, earning `points` (0 for power-ups).
    Collected {
        /// Index of the player.
        player: usize,
        /// `[x, y]`.
        cell: [i32; 2],
        /// The cell's token: a number, `J`, `D` or `T`.
        item: String,
        /// Points earned.
        points: i64,
    },
    /// Both players moved onto `cell` at once: nobody gets `item`, the cell becomes `0`.
    Cancelled {
        /// `[x, y]`.
        cell: [i32; 2],
        /// The cell's token.
        item: String,
    },
    /// In a single-player test, the scripted opponent (`player` 1) took `item` first.
    Taken {
        /// Index of the player (the scripted opponent).
        player: usize,
        /// `[x, y]`.
        cell: [i32; 2],
        /// The cell's token.
        item: String,
    },
    /// `player` reached the final.
    Finished {
        /// Index of the player.
        player: usize,
    },
    /// `player` forfeited: its score is 0.
    Forfeit {
        /// Index of the player.
        player: usize,
        /// `fire`, `invalid_move`, `malformed`, `timeout`, `crash`, …
        reason: ForfeitReason,
        /// What exactly happened.
        detail: String,
    },
}

/// `[x, y]` of a position, as events record cells.
pub fn cell(p: Pos) -> [i32; 2] {
    [p.x, p.y]
}

impl TickEvent {
    /// The event in words for the terminal; `who(i)` names player `i`.
    pub fn describe(&self, who: impl Fn(usize) -> String) -> String {
        let at = |c: &[i32; 2]| format!("({}, {})", c[0], c[1]);
        match self {
            TickEvent::Collected { player, cell, item, points } => {
                format!("{} took {item} at {} (+{points})", who(*player), at(cell))
            }
            TickEvent::Cancelled { cell, item } => format!("both reached {}: {item} cancelled", at(cell)),
            TickEvent::Taken { player, cell, item } => format!("{} took {item} at {} first", who(*player), at(cell)),
            TickEvent::Finished { player } => format!("{} reached the final", who(*player)),
            TickEvent::Forfeit { player, reason, detail } => format!("{} forfeits: {reason} ({detail})", who(*player)),
        }
    }
}
