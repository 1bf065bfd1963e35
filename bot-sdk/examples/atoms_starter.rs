// The Rust starter kit's sample Atoms bot (`arena new-bot --game atoms --lang rust` writes it
// as src/main.rs).
//
// It places where one more atom explodes its own cell, else on an empty corner, else on its
// own cells, else anywhere legal (the first such cell, row by row).
use bot_sdk::atoms::{run_atoms, AtomsBot, AtomsView};

/// The sample strategy.
struct Sample;

impl AtomsBot for Sample {
    fn place(&mut self, v: &AtomsView) -> (usize, usize) {
        let rank = |&(x, y): &(usize, usize)| match v.cell(x, y) {
            Some((_, atoms)) if atoms + 1 == v.limit(x, y) => 3,
            None if v.limit(x, y) == 2 => 2,
            Some(_) => 1,
            None => 0,
        };
        // `max_by_key` keeps the last of equal cells; `rev` makes it the first, row by row.
        v.legal().into_iter().rev().max_by_key(rank).unwrap_or((0, 0))
    }
}

fn main() {
    if let Err(e) = run_atoms(Sample) {
        eprintln!("bot: {e}");
        std::process::exit(1);
    }
}
