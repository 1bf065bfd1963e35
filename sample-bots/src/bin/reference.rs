//! `reference`: the planning sample bot (strategy in `sample_bots::reference`).

fn main() {
    if let Err(e) = bot_sdk::run(sample_bots::reference::Reference::default().capped()) {
        eprintln!("reference: {e}");
        std::process::exit(1);
    }
}
