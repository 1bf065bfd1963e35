//! `tactics-greedy`: see [`sample_bots::tactics_greedy`].

use bot_sdk::tactics::run_tactics;
use sample_bots::tactics_greedy::GreedyTactics;

fn main() {
    if let Err(e) = run_tactics(GreedyTactics) {
        eprintln!("tactics-greedy: {e}");
        std::process::exit(1);
    }
}
