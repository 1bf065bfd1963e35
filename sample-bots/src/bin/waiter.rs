//! `waiter`: answers WAIT to every tick. It never reaches the final; it shows the protocol
//! loop and makes a baseline opponent.

use bot_sdk::{Action, Bot, GameState};

struct Waiter;

impl Bot for Waiter {
    fn act(&mut self, _state: &GameState) -> Action {
        Action::Wait
    }
}

fn main() {
    if let Err(e) = bot_sdk::run(Waiter) {
        eprintln!("waiter: {e}");
        std::process::exit(1);
    }
}
