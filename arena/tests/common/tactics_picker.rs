//! A Tactics bot for the integration tests that play deep games: it picks one of the commands
//! its view allows, so games do not end at the first refused command.

use arena::engine::{PlayerId, State};
use bot_sdk::tactics::{run_tactics_io, Command, TacticsBot, TacticsView};

/// A bot that picks the `pick`-th of the commands the SDK's view allows (or passes).
pub struct Picker(pub u64);

impl TacticsBot for Picker {
    fn act(&mut self, v: &TacticsView) -> Command {
        let mut options = vec![Command::Pass];
        for (col, row, have) in v.mine() {
            if v.movement {
                for to in v.neighbours(col, row) {
                    options.extend((1..=have).map(|amount| Command::Move { amount, from: (col, row), to }));
                }
            } else {
                options.extend((1..=v.chips).map(|amount| Command::Place { amount, col, row }));
            }
        }
        options[(self.0 % options.len() as u64) as usize]
    }
}

/// The command `Picker(pick)` gives at `p`'s turn, through the SDK's own prompt parsing.
pub fn legal(state: &dyn State, p: PlayerId, pick: u64) -> String {
    let input = format!("{}{}", state.intro(p), state.prompt(p));
    let mut out = Vec::new();
    run_tactics_io(Picker(pick), input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap().trim().to_string()
}
