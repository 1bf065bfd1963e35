//! The `greedy` strategy: goes for the best value per tick of distance among the resources and power-ups
//! it can still afford, always keeping enough ticks to reach the final, then goes there.
//!
//! Why it always finishes in time: it only picks a target `t` with
//! `dist(me, t) + dist(t, final) <= ticks left`, and each step along a shortest path keeps
//! that true (collecting only ever opens the map, never closes it). The way back from a `J`
//! is measured with Jump, since the bot holds it from then on: on `maps/duel.txt` the final
//! can only be reached by jumping, so the first target there is always a `J`.
//!
//! It prefers what the opponent does not reach first, and a cell both reach at once goes to the
//! player whose start comes first (row, then column): two arrivals at once cancel the item, and
//! two greedy bots would otherwise shadow each other all game long. For the same reason, when
//! both stand on one cell it waits on every other tick (the two players on opposite ticks),
//! if it has a tick to spare, so that the two split up.

use bot_sdk::path::{first_step_avoiding, Distances};
use bot_sdk::{Action, Bot, Cell, GameState, Pos};

/// The greedy strategy (see the module docs).
#[derive(Debug, Default)]
pub struct Greedy;

/// What a cell is worth to a player with this multiplier and Jump (0 for nothing).
fn worth(cell: Cell, multiplier: i64, jump: bool) -> f64 {
    let m = multiplier as f64;
    match cell {
        Cell::Resource(v) => f64::from(v) * m,
        Cell::Double => 20.0 * m,
        Cell::Triple => 40.0 * m,
        Cell::Jump if !jump => 15.0,
        _ => 0.0,
    }
}

impl Bot for Greedy {
    fn act(&mut self, s: &GameState) -> Action {
        let here = s.distances_from(s.me.pos);
        let to_final = s.distances_from(s.final_pos());
        let to_final_jumping = Distances::from(&s.grid, s.final_pos(), true);
        let budget = s.ticks_left();
        let opponent_done = s.opponent.pos == s.final_pos();
        let rival = Distances::from(&s.grid, s.opponent.pos, s.opponent.jump);
        let i_lead = s.spec.starts[0] <= s.spec.starts[1];
        let spare = to_final.get(s.me.pos).is_none_or(|d| d < budget);
        if !opponent_done && s.opponent.pos == s.me.pos && spare && s.tick.is_multiple_of(2) == i_lead {
            return Action::Wait;
        }
        // Best uncontested target, and best target at all (used when everything is contested,
        // for instance against an opponent that never moves).
        let mut best: Option<(f64, Pos)> = None;
        let mut best_any: Option<(f64, Pos)> = None;
        for p in s.grid.positions() {
            let Some(cell) = s.grid.get(p) else { continue };
            let value = worth(cell, s.me.multiplier, s.me.jump);
            if value <= 0.0 {
                continue;
            }
            let back = if cell == Cell::Jump { to_final_jumping.get(p) } else { to_final.get(p) };
            let (Some(d), Some(back)) = (here.get(p), back) else {
                continue;
            };
            if d == 0 || d + back > budget {
                continue;
            }
            let contested = !opponent_done && rival.get(p).is_some_and(|theirs| theirs < d || (theirs == d && !i_lead));
            let score = value / f64::from(d);
            if best_any.is_none_or(|(b, _)| score > b) {
                best_any = Some((score, p));
            }
            if !contested && best.is_none_or(|(b, _)| score > b) {
                best = Some((score, p));
            }
        }
        let target = best.or(best_any).map_or(s.final_pos(), |(_, p)| p);
        // A shortest path with the Jump held now (`step_towards` would also plan through a J).
        match first_step_avoiding(&s.grid, s.me.pos, target, s.me.jump, Some(s.final_pos())) {
            Some(step) => Action::Move(step),
            None => Action::Wait,
        }
    }
}
