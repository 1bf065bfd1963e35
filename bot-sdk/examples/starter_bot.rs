// The Rust starter kit's sample bot (`arena new-bot --lang rust` writes it as src/main.rs).
//
// Each tick it goes for the best value per tick of distance among the resources and
// power-ups it can still afford, always keeping enough ticks to reach the final, then goes
// there. Distances plan through J pickups: on some maps only a jump reaches the final.
use bot_sdk::{Action, Bot, Cell, GameState, Pos};

/// The sample strategy: best value per tick of distance, then the final.
struct Sample;

/// What stepping on `cell` is worth now (0 for nothing): a resource its value times the
/// multiplier; D and T a guess at what the bigger multiplier will bring; J a little, once.
fn worth(cell: Cell, s: &GameState) -> f64 {
    let m = s.me.multiplier as f64;
    match cell {
        Cell::Resource(v) => f64::from(v) * m,
        Cell::Double => 20.0 * m,
        Cell::Triple => 40.0 * m,
        Cell::Jump if !s.me.jump => 15.0,
        _ => 0.0,
    }
}

impl Bot for Sample {
    fn act(&mut self, s: &GameState) -> Action {
        // How far every cell is from here, and how far the final is from every cell.
        let from_me = s.distances();
        let to_final = s.distances_to(s.final_pos());
        let budget = s.ticks_left();
        // The best value per tick among the cells from which the final is still reachable in
        // time. (The way back is measured with the Jump held there: a J picked up on the way
        // only shortens it.)
        let mut best: Option<(f64, Pos)> = None;
        for p in s.grid.positions() {
            let Some(cell) = s.grid.get(p) else { continue };
            let value = worth(cell, s);
            let (Some(there), Some(back)) = (from_me.get(p), to_final.get(p, s.me.jump || cell == Cell::Jump)) else {
                continue;
            };
            if value <= 0.0 || there == 0 || there + back > budget {
                continue;
            }
            let score = value / f64::from(there);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, p));
            }
        }
        let target = best.map_or(s.final_pos(), |(_, p)| p);
        match s.step_towards(target) {
            Some(step) => Action::Move(step),
            None => {
                // Debug output goes to stderr: stdout is the protocol.
                eprintln!("tick {}: no way from {} to {target}, waiting", s.tick, s.me.pos);
                Action::Wait
            }
        }
    }
}

fn main() {
    if let Err(e) = bot_sdk::run(Sample) {
        eprintln!("{}: {e}", env!("CARGO_BIN_NAME"));
        std::process::exit(1);
    }
}
