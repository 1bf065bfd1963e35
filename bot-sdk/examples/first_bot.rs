// A first Resource Rush bot: the example of bot-sdk's crate docs, built as the sample bot
// `first-bot`. Copy it into your own crate's src/main.rs (with `bot-sdk` as a dependency).
use bot_sdk::{Action, Bot, Cell, GameState};

/// Walks to the nearest resource it can still afford, then to the final.
struct FirstBot;

impl Bot for FirstBot {
    fn act(&mut self, s: &GameState) -> Action {
        // How far every cell is from here, and how far the final is from every cell. Both
        // plan through J pickups: on some maps the final can only be reached by jumping.
        let from_me = s.distances();
        let to_final = s.distances_to(s.final_pos());
        let budget = s.ticks_left();
        // The nearest resource from which the final is still reachable in time. (The way back
        // is measured with the Jump held now: a J picked up on the way only shortens it.)
        let target = s
            .grid
            .positions()
            .filter(|&p| matches!(s.grid.get(p), Some(Cell::Resource(_))))
            .filter_map(|p| {
                let there = from_me.get(p)?;
                let back = to_final.get(p, s.me.jump)?;
                (there > 0 && there + back <= budget).then_some((there, p))
            })
            .min()
            .map_or(s.final_pos(), |(_, p)| p);
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
    if let Err(e) = bot_sdk::run(FirstBot) {
        eprintln!("first-bot: {e}");
        std::process::exit(1);
    }
}
