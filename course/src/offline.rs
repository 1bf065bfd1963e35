//! Plays a single-player test with a bot strategy in this process (no child process): what
//! the test generator and the benchmarks use to score the sample strategies.

use std::time::{Duration, Instant};

use bot_sdk::state::parse_tick;
use bot_sdk::{Action, Bot, GameState, MapSpec, Mode};

use crate::cputime::thread_cpu;
use arena::engine::{Outcome, Reply, State, Turn};
use arena::games::resource_rush::ResourceRush;

/// How an offline test went.
#[derive(Debug, Clone)]
pub struct OfflineRun {
    /// The bot's result.
    pub outcome: Outcome,
    /// Ticks played.
    pub ticks: u32,
    /// Time the strategy spent deciding, in total.
    pub thinking: Duration,
    /// The longest single decision.
    pub slowest: Duration,
    /// CPU time (user + system) the strategy spent deciding, in total.
    pub thinking_cpu: Duration,
    /// The longest single decision in CPU time.
    pub slowest_cpu: Duration,
    /// The bot's answers, one per tick played.
    pub actions: Vec<Action>,
}

/// Plays `spec` (a test file with its scripted opponent) with `bot`, exactly as the checker
/// does with a process: header, then one TICK at a time.
pub fn play_test<B: Bot>(spec: &MapSpec, mut bot: B) -> OfflineRun {
    play_test_with(spec, &mut bot)
}

/// [`play_test`], leaving the bot to the caller (to read what it counted).
pub fn play_test_with<B: Bot>(spec: &MapSpec, bot: &mut B) -> OfflineRun {
    let mut state = ResourceRush::against_script(spec.clone(), false);
    let mut thinking = Duration::ZERO;
    let mut slowest = Duration::ZERO;
    let (mut thinking_cpu, mut slowest_cpu) = (Duration::ZERO, Duration::ZERO);
    let mut actions = Vec::new();
    let mut view = GameState::from_header(&state.intro(0), Mode::Test).ok();
    if let Some(v) = &view {
        bot.start(v);
    }
    while state.turn() == Turn::Sequential(0) {
        let prompt = state.prompt(0);
        let answer = match (&mut view, parse_tick(&prompt)) {
            (Some(v), Ok((tick, opponent))) => {
                v.on_tick(tick, opponent);
                let (start, cpu) = (Instant::now(), thread_cpu());
                let action = bot.act(v);
                let spent = start.elapsed();
                let used = thread_cpu().saturating_sub(cpu);
                thinking_cpu += used;
                slowest_cpu = slowest_cpu.max(used);
                thinking += spent;
                slowest = slowest.max(spent);
                v.commit(action);
                actions.push(action);
                action.to_string()
            }
            _ => String::new(),
        };
        state.apply(&[(0, Reply::Line(answer))]);
    }
    OfflineRun { outcome: state.outcome(), ticks: state.tick(), thinking, slowest, thinking_cpu, slowest_cpu, actions }
}
