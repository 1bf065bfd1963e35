//! The `tactics-greedy` sample bot (also `arena bot tactics-greedy`): places every chip on its
//! field with the most fields to win around it, then takes enemy fields it can afford (keeping a
//! chip behind), then spreads one chip to empty neighbours; passes when nothing is left to gain.

use bot_sdk::tactics::{Command, Field, TacticsBot, TacticsView};

/// The strategy (see the module's description).
#[derive(Debug, Clone, Copy, Default)]
pub struct GreedyTactics;

/// Neighbours of `(col, row)` that are not `me`'s.
fn frontier(v: &TacticsView, col: usize, row: usize) -> usize {
    v.neighbours(col, row)
        .into_iter()
        .filter(|&(c, r)| !matches!(v.get(c, r), Some(Field::Held(o, _)) if o == v.me))
        .count()
}

impl TacticsBot for GreedyTactics {
    fn act(&mut self, v: &TacticsView) -> Command {
        let mine = v.mine();
        if !v.movement {
            let best = mine.iter().max_by_key(|&&(c, r, n)| (frontier(v, c, r), std::cmp::Reverse(n)));
            return match best {
                Some(&(col, row, _)) if v.chips > 0 => Command::Place { amount: v.chips, col, row },
                _ => Command::Pass,
            };
        }
        // Captures first: the richest enemy field we can take while keeping a chip behind.
        let mut best: Option<(u32, Command)> = None;
        for &(col, row, have) in &mine {
            for (c, r) in v.neighbours(col, row) {
                let (value, amount) = match v.get(c, r) {
                    Some(Field::Held(o, m)) if o != v.me && have > m + 2 => (m + 10, m + 2),
                    Some(Field::Empty) if have >= 2 => (1, 1),
                    _ => continue,
                };
                if best.as_ref().is_none_or(|(b, _)| value > *b) {
                    best = Some((value, Command::Move { amount, from: (col, row), to: (c, r) }));
                }
            }
        }
        best.map_or(Command::Pass, |(_, command)| command)
    }
}
