//! The `atoms-greedy` sample bot (also `arena bot atoms-greedy`): scores every legal cell and
//! takes the best: exploding next to enemy cells is best (it captures them), corners and edges
//! are safer than the middle, and a cell next to an enemy cell that is about to explode is risky.

use bot_sdk::atoms::{AtomsBot, AtomsView};

/// The strategy (see the module's description).
#[derive(Debug, Clone, Copy, Default)]
pub struct GreedyAtoms;

fn score(v: &AtomsView, x: usize, y: usize) -> i32 {
    let mine = v.cell(x, y).map_or(0, |(_, n)| n);
    let limit = v.limit(x, y);
    let enemies =
        v.neighbours(x, y).into_iter().filter_map(|(a, b)| v.cell(a, b)).filter(|(o, _)| *o != v.me).count() as i32;
    let threats = v
        .neighbours(x, y)
        .into_iter()
        .filter(|&(a, b)| v.cell(a, b).is_some_and(|(o, n)| o != v.me && n + 1 >= v.limit(a, b)))
        .count() as i32;
    let mut s = 0;
    if mine + 1 >= limit {
        s += 10 + 6 * enemies;
    } else {
        s += i32::from(4 - limit) * 2 + i32::from(mine);
        s -= 6 * threats;
    }
    s
}

impl AtomsBot for GreedyAtoms {
    fn place(&mut self, v: &AtomsView) -> (usize, usize) {
        v.legal().into_iter().max_by_key(|&(x, y)| (score(v, x, y), std::cmp::Reverse((y, x)))).unwrap_or((0, 0))
    }
}
