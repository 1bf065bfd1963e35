// The Rust starter kit's sample OOPtimal Tactics bot (`arena new-bot --game tactics --lang
// rust` writes it as src/main.rs).
//
// In the Placement Phase it puts all its chips on its field with the most neighbours that it
// does not hold; in the Movement Phase it passes.
use bot_sdk::tactics::{run_tactics, Command, Field, TacticsBot, TacticsView};

/// The sample strategy.
struct Sample;

impl TacticsBot for Sample {
    fn act(&mut self, v: &TacticsView) -> Command {
        if v.movement || v.chips == 0 {
            return Command::Pass;
        }
        // Neighbours of a field that are not ours: where there is something to win or defend.
        let exposure = |&(col, row, _): &(usize, usize, u32)| {
            let around = v.neighbours(col, row).into_iter();
            around.filter(|&(c, r)| !matches!(v.get(c, r), Some(Field::Held(o, _)) if o == v.me)).count()
        };
        // `max_by_key` keeps the last of equal fields; `rev` makes it the first, row by row.
        match v.mine().into_iter().rev().max_by_key(exposure) {
            Some((col, row, _)) => Command::Place { amount: v.chips, col, row },
            None => Command::Pass,
        }
    }
}

fn main() {
    if let Err(e) = run_tactics(Sample) {
        eprintln!("bot: {e}");
        std::process::exit(1);
    }
}
