//! Plays a single-player test with a bot strategy in this process (no child process): what
//! the test generator and the benchmarks use to score the sample strategies.

use std::time::{Duration, Instant};

use bot_sdk::state::parse_tick;
use bot_sdk::{Bot, GameState, MapSpec, Mode};

use super::ResourceRush;
use crate::engine::{Outcome, Reply, State, Turn};

/// How an offline test went.
#[derive(Debug, Clone)]
pub struct OfflineRun {
    /// The bot's result.
    pub outcome: Outcome,
    /// Ticks played.
    pub ticks: u32,
    /// Time the strategy spent deciding, in total.
    pub thinking: Duration,
}

/// Plays `spec` (a test file with its scripted opponent) with `bot`, exactly as the checker
/// does with a process: header, then one TICK at a time.
pub fn play_test<B: Bot>(spec: &MapSpec, mut bot: B) -> OfflineRun {
    let mut state = ResourceRush::test(spec.clone(), false);
    let mut thinking = Duration::ZERO;
    let mut view = GameState::from_header(&state.intro(0), Mode::Test).ok();
    if let Some(v) = &view {
        bot.start(v);
    }
    while state.turn() == Turn::Sequential(0) {
        let prompt = state.prompt(0);
        let answer = match (&mut view, parse_tick(&prompt)) {
            (Some(v), Ok((tick, opponent))) => {
                v.on_tick(tick, opponent);
                let start = Instant::now();
                let action = bot.act(v);
                thinking += start.elapsed();
                v.commit(action);
                action.to_string()
            }
            _ => String::new(),
        };
        state.apply(&[(0, Reply::Line(answer))]);
    }
    OfflineRun { outcome: state.outcome(), ticks: state.tick(), thinking }
}
