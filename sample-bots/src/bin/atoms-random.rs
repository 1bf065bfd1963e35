//! `atoms-random`: places on a random legal cell (seeded by `ARENA_SEED`).

use bot_sdk::atoms::{run_atoms, AtomsBot, AtomsView};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

struct RandomAtoms(StdRng);

impl AtomsBot for RandomAtoms {
    fn place(&mut self, v: &AtomsView) -> (usize, usize) {
        let legal = v.legal();
        legal[self.0.random_range(0..legal.len())]
    }
}

fn main() {
    let seed = std::env::var("ARENA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    if let Err(e) = run_atoms(RandomAtoms(StdRng::seed_from_u64(seed))) {
        eprintln!("atoms-random: {e}");
        std::process::exit(1);
    }
}
