//! `tactics-random`: random legal commands, passing now and then (seeded by `ARENA_SEED`).

use bot_sdk::tactics::{run_tactics, Command, TacticsBot, TacticsView};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

struct RandomTactics(StdRng);

impl TacticsBot for RandomTactics {
    fn act(&mut self, v: &TacticsView) -> Command {
        let mine = v.mine();
        if mine.is_empty() || self.0.random_bool(0.1) {
            return Command::Pass;
        }
        let (col, row, have) = mine[self.0.random_range(0..mine.len())];
        if !v.movement {
            return match v.chips {
                0 => Command::Pass,
                chips => Command::Place { amount: self.0.random_range(1..=chips), col, row },
            };
        }
        let to = v.neighbours(col, row);
        if to.is_empty() {
            return Command::Pass;
        }
        Command::Move {
            amount: self.0.random_range(1..=have),
            from: (col, row),
            to: to[self.0.random_range(0..to.len())],
        }
    }
}

fn main() {
    let seed = std::env::var("ARENA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    if let Err(e) = run_tactics(RandomTactics(StdRng::seed_from_u64(seed))) {
        eprintln!("tactics-random: {e}");
        std::process::exit(1);
    }
}
