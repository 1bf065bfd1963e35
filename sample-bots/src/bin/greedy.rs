//! `greedy`: the greedy sample bot (strategy in `sample_bots::greedy`).

fn main() {
    if let Err(e) = bot_sdk::run(sample_bots::greedy::Greedy) {
        eprintln!("greedy: {e}");
        std::process::exit(1);
    }
}
