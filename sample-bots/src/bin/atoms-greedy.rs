//! `atoms-greedy`: see [`sample_bots::atoms_greedy`].

use bot_sdk::atoms::run_atoms;
use sample_bots::atoms_greedy::GreedyAtoms;

fn main() {
    if let Err(e) = run_atoms(GreedyAtoms) {
        eprintln!("atoms-greedy: {e}");
        std::process::exit(1);
    }
}
