//! `random`: a random valid move that does not enter fire (WAIT when there is none).
//! Seeded by `--seed N`, else by the `ARENA_SEED` variable the arena sets, else at random,
//! so a duel with a seed replays the same.

use bot_sdk::{Action, Bot, GameState};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

struct RandomBot {
    rng: StdRng,
}

impl Bot for RandomBot {
    fn act(&mut self, state: &GameState) -> Action {
        let moves = state.safe_moves();
        if moves.is_empty() {
            return Action::Wait;
        }
        Action::Move(moves[self.rng.random_range(0..moves.len())])
    }
}

fn seed() -> Result<u64, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {}
        [flag, value] if flag == "--seed" => {
            return value.parse().map_err(|_| format!("--seed: `{value}` is not a number"));
        }
        _ => return Err(format!("unexpected arguments {args:?} (usage: random [--seed N])")),
    }
    match std::env::var("ARENA_SEED") {
        Ok(v) => v.parse().map_err(|_| format!("ARENA_SEED: `{v}` is not a number")),
        Err(_) => Ok(rand::random()),
    }
}

fn main() {
    let seed = match seed() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("random: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = bot_sdk::run(RandomBot { rng: StdRng::seed_from_u64(seed) }) {
        eprintln!("random: {e}");
        std::process::exit(1);
    }
}
