//! The stdin/stdout loop: read the header, answer each TICK with one flushed line.

use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::map::MapError;
use crate::rules::Action;
use crate::state::{parse_tick, GameState, Mode, TickError};

/// A Resource Rush bot: given the state, choose this tick's action.
pub trait Bot {
    /// Called once, after the header, before the first TICK.
    fn start(&mut self, _state: &GameState) {}

    /// The action for the current tick (`state.tick`).
    fn act(&mut self, state: &GameState) -> Action;
}

/// What can stop [`run`].
#[derive(Debug, Error)]
pub enum RunError {
    /// Reading stdin or writing stdout failed.
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
    /// The header was not a valid map.
    #[error("bad header: {0}")]
    Header(#[from] MapError),
    /// A TICK line could not be parsed.
    #[error(transparent)]
    Tick(#[from] TickError),
    /// A line of another game's protocol (Atoms, Tactics) could not be read.
    #[error("bad line `{line}`: {why}")]
    Line {
        /// The line as received.
        line: String,
        /// What was wrong.
        why: String,
    },
}

impl RunError {
    /// A protocol line the SDK could not read, and why.
    pub(crate) fn bad_line(line: &str, why: &str) -> Self {
        RunError::Line { line: line.trim().to_string(), why: why.to_string() }
    }
}

/// Reads the next line into `line` (cleared first); `false` at the end of input.
pub(crate) fn next_line<R: BufRead>(input: &mut R, line: &mut String) -> io::Result<bool> {
    line.clear();
    Ok(input.read_line(line)? > 0)
}

/// Reads a board prompt's rest: `height` lines of `width` space-separated cells, each read by
/// `cell`, then `END`. `bad_cell` and `bad_end` say what went wrong.
pub(crate) fn read_board<T, R: BufRead>(
    input: &mut R,
    line: &mut String,
    (width, height): (usize, usize),
    cell: impl Fn(&str) -> Option<T>,
    (bad_cell, bad_end): (&str, &str),
) -> Result<Vec<T>, RunError> {
    let mut cells = Vec::with_capacity(width * height);
    for _ in 0..height {
        next_line(input, line)?;
        for token in line.split_whitespace() {
            cells.push(cell(token).ok_or_else(|| RunError::bad_line(line, bad_cell))?);
        }
    }
    next_line(input, line)?;
    if line.trim() != "END" || cells.len() != width * height {
        return Err(RunError::bad_line(line, bad_end));
    }
    Ok(cells)
}

/// Refuses an opponent's move off the map. The arena never sends one (it tells an invalid move
/// as `WAIT`, and a test file's scripted moves are on its map), so such a line was typed or
/// piped by hand: stopping with an error says so, where a bot that looked the cell up would
/// index out of its map.
fn check_on_map(state: &GameState, line: &str, opponent: Action) -> Result<(), TickError> {
    match opponent {
        Action::Move(p) if !state.grid.in_bounds(p) => Err(TickError {
            line: line.trim().to_string(),
            why: format!(
                "the opponent's move to {p} is off the {} x {} map (the arena never sends one)",
                state.grid.rows(),
                state.grid.cols()
            ),
        }),
        _ => Ok(()),
    }
}

/// Runs `bot` on stdin/stdout until the referee closes stdin. The mode comes from `RR_MODE`.
pub fn run<B: Bot>(bot: B) -> Result<(), RunError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run_io(bot, stdin.lock(), stdout.lock(), Mode::from_env())
}

/// [`run`] on any input and output, for tests and custom set-ups.
pub fn run_io<B: Bot, R: BufRead, W: Write>(
    mut bot: B,
    mut input: R,
    mut output: W,
    mode: Mode,
) -> Result<(), RunError> {
    let mut header = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        header.push_str(&line);
        if line.split('#').next().unwrap_or("").trim() == "STREAM" {
            break;
        }
    }
    let mut state = GameState::from_header(&header, mode)?;
    bot.start(&state);
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let (tick, opponent) = parse_tick(&line)?;
        check_on_map(&state, &line, opponent)?;
        state.on_tick(tick, opponent);
        let action = bot.act(&state);
        state.commit(action);
        writeln!(output, "{action}")?;
        output.flush()?;
    }
}
