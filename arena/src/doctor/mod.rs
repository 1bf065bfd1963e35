//! The bot doctor behind `arena check-bot`: plays a bot through a few short scripted Resource
//! Rush situations (both seats, CRLF input, a jump, power-ups, test mode) through the referee,
//! then explains each problem in words, with the fix. A bot of another game plays each seat
//! against the game's own scripted players (`seats.rs`).
//!
//! The opponent is a script inside the arena, not a process: the bot under test is the only
//! process, so every problem is its own. When the very first answer never comes, two probes
//! tell a slow start-up from a bot that does not flush its output.

mod seats;

use std::time::Duration;

use bot_sdk::rules::{check_move, Action, InvalidMove};
use bot_sdk::{MapSpec, Pos};
use serde_json::Value;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::engine::{Ending, Failure, Game, Outcome, PlayerId, Reply, SetupError, State, Turn};
use crate::explain::{loop_fix, Activity, Silence, FLUSH, STARTUP_FIX};
use crate::games::resource_rush::{malformed_fix, ResourceRush, INFO, NAME};
use crate::referee::{play_match, BotCommand, Limits, PlayedMatch, RefereeError};
use crate::replay::Replay;
use crate::sandbox::Sandbox;

/// The base map: player 1 at (0, 0), player 2 at (3, 5), the final at (3, 0).
const BASE_MAP: &str =
    "ARENA 4 6 30\n0 0\n3 5\n3 0\nMAP\n0 5 0 0 7 W\n0 0 W 0 0 0\n9 0 0 0 0 0\n0 0 0 8 0 0\nEND_MAP\nSTREAM\n";
/// The final lies behind a wall: only a jump (after taking the J) gets there.
const JUMP_MAP: &str = "ARENA 3 5 20\n1 0\n2 0\n1 4\nMAP\n0 0 0 W 0\n0 J 0 W 0\n0 0 0 W 6\nEND_MAP\nSTREAM\n";
/// Every kind of cell; D and T on the way to the final.
const POWER_MAP: &str = "ARENA 3 6 20\n0 0\n2 0\n0 5\nMAP\n0 D 9 T 9 0\n0 F E W 0 0\n0 0 0 0 0 0\nEND_MAP\nSTREAM\n";
/// A single-player test: the scripted opponent walks along the bottom row.
const TEST_MAP: &str = "ARENA 3 5 20\n0 0\n2 4\n0 4\nMAP\n0 5 0 5 0\n0 W W W 0\n0 0 9 0 0\nEND_MAP\nSTREAM\n\
                        TICK 1 MOVE 2 3\nTICK 2 MOVE 2 2\nTICK 3 MOVE 2 1\nTICK 4 WAIT\n";
/// A bot boxed in by walls: it can only WAIT, for many ticks (the output-buffer probe).
const BOXED_MAP: &str = "ARENA 1 3 8000\n0 0\n0 0\n0 2\nMAP\n0 W 0\nEND_MAP\nSTREAM\n";

/// How long the start-up probe waits for a first answer.
const PATIENCE: Duration = Duration::from_secs(8);

/// One scripted situation.
#[derive(Debug, Clone, Copy)]
struct Situation {
    name: &'static str,
    map: &'static str,
    /// 0: the bot is player 1; 1: player 2.
    seat: usize,
    crlf: bool,
    /// A single-player test (`RR_MODE=test`) instead of a duel.
    test: bool,
    /// The scripted opponent's answers, tick by tick (`WAIT` after the last).
    opponent: &'static [&'static str],
    /// Why a bot might not finish here.
    finish_hint: &'static str,
}

const SITUATIONS: [Situation; 6] = [
    Situation {
        name: "seat 1",
        map: BASE_MAP,
        seat: 0,
        crlf: false,
        test: false,
        opponent: &["MOVE 3 4", "MOVE 3 3", "MOVE 2 3", "MOVE 1 3", "MOVE 1 4", "MOVE 0 4"],
        finish_hint: "",
    },
    Situation {
        name: "seat 2",
        map: BASE_MAP,
        seat: 1,
        crlf: false,
        test: false,
        opponent: &["MOVE 0 1", "MOVE 0 2", "MOVE 0 3", "MOVE 0 4", "MOVE 1 4"],
        finish_hint: "",
    },
    Situation {
        name: "CRLF input",
        map: BASE_MAP,
        seat: 0,
        crlf: true,
        test: false,
        opponent: &["MOVE 3 4", "MOVE 3 3", "MOVE 2 3"],
        finish_hint: "",
    },
    Situation {
        name: "a jump",
        map: JUMP_MAP,
        seat: 0,
        crlf: false,
        test: false,
        opponent: &[],
        finish_hint: " Here the final lies behind a wall: take the J at (1, 1), then jump from (1, 2) to (1, 4) \
                      with `MOVE 1 4` (a jump goes two cells in a straight line, over walls and voids).",
    },
    Situation { name: "power-ups", map: POWER_MAP, seat: 0, crlf: false, test: false, opponent: &[], finish_hint: "" },
    Situation {
        name: "test mode",
        map: TEST_MAP,
        seat: 0,
        crlf: false,
        test: true,
        opponent: &[],
        finish_hint: " In a test, `TICK t MOVE x y` is the scripted opponent's move of this very tick, \
                      already made when you answer.",
    },
];

/// Why a bot was not checked.
#[derive(Debug, Error)]
pub enum CheckError {
    /// The game has no bots to check.
    #[error(
        "{title} has no bots: chance plays for every player, so there is no bot to check (watch a match with \
         `arena duel --game {name}`)"
    )]
    NoBots {
        /// The game's title.
        title: &'static str,
        /// Its name.
        name: &'static str,
    },
    /// The game scripts no opponent (or has no starter to play on).
    #[error(
        "check-bot cannot check {title} bots: the game scripts no opponent for it; play your bot in a duel instead, \
         `arena duel --game {name} …`, whose Why: and Fix: lines explain a forfeit"
    )]
    NoScript {
        /// The game's title.
        title: &'static str,
        /// Its name.
        name: &'static str,
    },
    /// Running the bot failed.
    #[error(transparent)]
    Referee(#[from] RefereeError),
}

/// Whether check-bot can check bots of `game`, or why not (no bots, no scripted opponent).
pub fn can_check(game: &dyn Game) -> Result<(), CheckError> {
    if game.name() == NAME {
        return Ok(());
    }
    seats::kit_of(game).map(|_| ())
}

/// Plays `command` as a bot of `game` and explains what went wrong: Resource Rush through its
/// own scripted situations, any other game's bot in each seat against the game's scripted
/// players (see `seats.rs`).
pub async fn check_bot(
    game: &dyn Game,
    command: &str,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Vec<Checked>, CheckError> {
    if game.name() == NAME {
        Ok(check_resource_rush(command, sandbox, cancel).await?)
    } else {
        seats::check(game, command, sandbox, cancel).await
    }
}

/// One problem, in words, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What went wrong, as the bot's author sees it.
    pub problem: String,
    /// What to change.
    pub fix: String,
    /// A forfeit (the bot would lose games) rather than a weakness.
    pub serious: bool,
}

/// How one situation went.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The situation.
    pub name: String,
    /// Score, ticks, finished, or why it was not played.
    pub summary: String,
    /// What went wrong (empty when all went well).
    pub findings: Vec<Finding>,
    /// Not played (an earlier problem would only repeat).
    pub skipped: bool,
    /// Whether the bot answered a prompt with a line (a bot of another game answers none).
    pub answered: bool,
}

impl Checked {
    /// Whether a forfeit-level problem was found.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.serious)
    }
}

/// A game with one bot process: the bot plays `seat` of `inner`; the other seat (in a duel)
/// answers from a script. Lines go out with CRLF endings when `crlf`.
struct Scripted {
    inner: ResourceRush,
    seat: PlayerId,
    crlf: bool,
    test: bool,
    opponent: Vec<String>,
    /// Its stdin is closed after a whole file sent at once (else left open).
    close_input: bool,
}

impl Scripted {
    fn endings(&self, text: String) -> String {
        if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        }
    }
}

impl State for Scripted {
    fn num_players(&self) -> usize {
        1
    }

    fn turn(&self) -> Turn {
        match self.inner.turn() {
            Turn::Terminal => Turn::Terminal,
            _ if self.inner.is_active(self.seat) => Turn::Sequential(0),
            _ => Turn::Terminal,
        }
    }

    fn intro(&self, _player: PlayerId) -> String {
        self.endings(self.inner.intro(self.seat))
    }

    fn prompt(&self, _player: PlayerId) -> String {
        self.endings(self.inner.prompt(self.seat))
    }

    fn answers_may_run_ahead(&self) -> bool {
        self.inner.answers_may_run_ahead()
    }

    fn input_is_intro(&self) -> bool {
        self.close_input && self.inner.input_is_intro()
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let mine = replies.first().map_or(Reply::Failed(Failure::Crash(None)), |(_, r)| r.clone());
        if self.test {
            self.inner.apply(&[(0, mine)]);
        } else {
            let theirs = self.opponent.get(self.inner.tick() as usize).cloned().unwrap_or_else(|| "WAIT".to_string());
            self.inner.apply(&[(self.seat, mine), (1 - self.seat, Reply::Line(theirs))]);
        }
    }

    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        self.inner.canonical_answer(self.seat, line)
    }

    fn is_active(&self, _player: PlayerId) -> bool {
        self.inner.is_active(self.seat)
    }

    fn outcome(&self) -> Outcome {
        let mut all = self.inner.outcome();
        Outcome { players: vec![all.players.swap_remove(self.seat)], winner: None }
    }

    fn setup(&self) -> Value {
        self.inner.setup()
    }

    fn frame(&self) -> Value {
        self.inner.frame()
    }

    fn render(&self) -> String {
        self.inner.render()
    }
}

/// How a situation's input is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feed {
    /// One TICK at a time, after each answer.
    Interactive,
    /// Every TICK at once, the input left open.
    AllOpen,
    /// Every TICK at once, then the end of the input.
    AllClosed,
}

/// Plays `situation` with `command` under `limits`.
async fn play(
    command: &str,
    situation: &Situation,
    feed: Feed,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<(PlayedMatch, MapSpec), RefereeError> {
    let spec = MapSpec::parse(situation.map).map_err(|e| RefereeError::Setup(SetupError::invalid(NAME, e)))?;
    let inner = if situation.test {
        ResourceRush::against_script(spec.clone(), feed != Feed::Interactive)
    } else {
        ResourceRush::new(spec.clone())
    };
    let state = Box::new(Scripted {
        inner,
        seat: if situation.test { 0 } else { situation.seat },
        crlf: situation.crlf,
        test: situation.test,
        opponent: situation.opponent.iter().map(|s| s.to_string()).collect(),
        close_input: feed == Feed::AllClosed,
    });
    let mut bot =
        BotCommand::seated(&BotCommand::display_name(command), command, None, b"check-bot", 1, situation.seat);
    if situation.test {
        bot.env.push(("RR_MODE".to_string(), "test".to_string()));
    }
    let played = play_match(NAME, state, &[bot], limits, 1, sandbox, cancel).await?;
    Ok((played, spec))
}

/// The frame before step `k` (1-based tick).
fn frame_before(replay: &Replay, k: usize) -> &Value {
    if k <= 1 {
        &replay.initial
    } else {
        &replay.steps[k - 2].frame
    }
}

fn pos_of(frame: &Value, seat: usize) -> Option<Pos> {
    let p = &frame["players"][seat]["pos"];
    Some(Pos::new(p[0].as_i64()? as i32, p[1].as_i64()? as i32))
}

/// The last lines the bot wrote to stderr, for a crash report.
fn last_words(stderr: &str) -> String {
    let lines: Vec<String> = stderr.lines().filter(|l| !l.trim().is_empty()).map(crate::safe_text::terminal).collect();
    let tail = &lines[lines.len().saturating_sub(3)..];
    if tail.is_empty() {
        " It wrote nothing to stderr.".to_string()
    } else {
        format!(" Its last words on stderr:\n      {}", tail.join("\n      "))
    }
}

/// What is wrong with the bot's program file itself, when it is a script the system cannot run
/// as meant: one without a `#!` line (the system hands it to `/bin/sh`, whose errors about
/// `import` say nothing useful), or one whose `#!` line ends in `\r` (saved with Windows line
/// endings: `/usr/bin/env: 'python3\r': No such file or directory`).
fn program_problem(command: &str) -> Option<String> {
    let words = shell_words::split(command).ok()?;
    if let Some(missing) = missing_script(&words) {
        return Some(missing);
    }
    let program = words.first().filter(|p| p.contains('/'))?;
    let head = crate::files::regular_head(std::path::Path::new(program), 512)?;
    let head = head.as_slice();
    if head.starts_with(b"\x7fELF") {
        return None;
    }
    let shown = crate::safe_text::terminal(program);
    if let Some(rest) = head.strip_prefix(b"#!") {
        let first = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
        return first.ends_with(b"\r").then(|| {
            format!(
                "`{shown}` has Windows line endings: its `#!` line ends in `\\r`, so the system looks for an \
                 interpreter whose name ends in `\\r` and finds none. Save it with Unix (LF) line endings (your \
                 editor's setting, or `sed -i 's/\\r$//' {shown}`)"
            )
        });
    }
    // (A shell script needs no `#!`: `/bin/sh` is what runs it anyway. Nor does a file of
    // another kind the fix could be sure of.)
    let interpreter = match crate::sandbox::interpreter_by_extension(std::path::Path::new(program)) {
        Some(shell) if shell == "sh" || shell == "bash" => return None,
        Some(interpreter) => interpreter,
        None => return None,
    };
    Some(format!(
        "`{shown}` does not start with a `#!` line, so the system ran it with `/bin/sh`: make its first line \
         `#!/usr/bin/env {interpreter}`, or run it through its interpreter: `\"{interpreter} {shown}\"`"
    ))
}

/// The script of a command run through its interpreter (`python3 bot.py`) when it does not exist
/// from the current folder: the command was run from another folder than the bot's (the
/// interpreter then says "can't open file" and exits, which is no fault of the bot's reading).
fn missing_script(words: &[String]) -> Option<String> {
    let interpreter = std::path::Path::new(words.first()?).file_name()?.to_str()?;
    let known = ["python3", "python", "node", "ruby", "perl", "bash", "sh"];
    if !known.contains(&interpreter) {
        return None;
    }
    // Its first word that is not an option (`-u`); none with `-c` or `-m` (code, not a file).
    let script = words[1..].iter().find(|w| !w.starts_with('-') || *w == "-c" || *w == "-m")?;
    let path = std::path::Path::new(script);
    if crate::sandbox::interpreter_by_extension(path).is_none() || path.exists() {
        return None;
    }
    let here = std::env::current_dir().map(|d| crate::safe_text::terminal(&d.display().to_string())).ok()?;
    Some(format!(
        "`{}` does not exist in {here}, the folder you ran this from: run it from your bot's folder, or give \
         the script's path from here",
        crate::safe_text::terminal(script)
    ))
}

/// The fix for a Python program that did not compile, when `stderr` ends with Python's error
/// for one (`SyntaxError: …`), naming the line it names (`File "bot.py", line 20`).
fn python_compile_fix(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let last = lines.last()?;
    if !["SyntaxError:", "IndentationError:", "TabError:"].iter().any(|e| last.starts_with(e)) {
        return None;
    }
    let at =
        lines.iter().rev().find(|l| l.starts_with("File \"")).map_or("the line its error names".to_string(), |l| {
            format!("the error at {}", crate::safe_text::terminal(l))
        });
    Some(format!(
        "Python could not compile your program, so it never ran: fix {at}, then `python3 -m py_compile` on your \
         files says whether any error is left, without the arena"
    ))
}

/// How the bot of a one-bot game that crashed ended (a signal, an exit status), if recorded.
fn crash_ending(replay: &Replay) -> Option<Ending> {
    replay.steps.iter().rev().find_map(|s| s.replies.first())?.failure?.ending()
}

/// What to do about a bot killed by the signal of `ended`, when it is one a program's own
/// fault sends (not the arena's limits, which are forfeits of their own).
fn signal_fix(ended: Ending) -> Option<&'static str> {
    let Ending::Signal(sig) = ended else { return None };
    const RUN_IT: &str = "run it by hand with a map on stdin (`./bot < tests/test1.txt`) to see where it stops; \
                          C/C++: build it with `-g -fsanitize=address,undefined` and the sanitizer names the line, \
                          or run it under `gdb` and type `bt` where it stops";
    Some(match sig {
        libc::SIGSEGV | libc::SIGBUS => {
            "find the invalid memory access: check every array index against the map's size (N rows, M \
             columns: the map need not be square) and every pointer before you use it; C/C++: build it with \
             `-g -fsanitize=address,undefined` and run it by hand with a map on stdin \
             (`./bot < tests/test1.txt`): the sanitizer names the line"
        }
        libc::SIGABRT => {
            "read its stderr for the assert that failed or the exception's message (C++: `std::out_of_range` \
             from `.at()` is an index out of bounds; `std::bad_alloc`, memory); then run it by hand with a map \
             on stdin (`./bot < tests/test1.txt`), under `gdb` (`bt` where it stops) to see where"
        }
        libc::SIGFPE => {
            "find the division or the `%` by a value that can be 0 (a count of cells, a distance, a number of \
             ticks left): test it before you divide; run it by hand with a map on stdin \
             (`./bot < tests/test1.txt`) under `gdb` (`bt` where it stops) to see where"
        }
        _ => RUN_IT,
    })
}

/// Reads what happened in one situation.
fn diagnose(situation: &Situation, spec: &MapSpec, played: &PlayedMatch, limits: &Limits) -> Checked {
    let replay = &played.replay;
    let seat = if situation.test { 0 } else { situation.seat };
    let me = &replay.result.players[0];
    let ticks = replay.steps.len();
    let replies: Vec<_> = replay.steps.iter().filter_map(|s| s.replies.first()).collect();
    let mut findings = Vec::new();
    let serious = |problem: String, fix: String| Finding { problem, fix, serious: true };
    let summary = match (&me.forfeit, me.finished) {
        (Some(reason), _) => format!("forfeit ({reason}) at tick {ticks}"),
        (None, true) => format!("score {}, reached the final after {ticks} ticks", me.score),
        (None, false) => format!("score {}, did not reach the final in {ticks} ticks", me.score),
    };
    let t = ticks.max(1);
    let line = replies.last().and_then(|r| r.answer.clone());
    // What the bot wrote is quoted as safe text: visible control characters, cut when long.
    let shown = line.as_deref().map(crate::safe_text::terminal).unwrap_or_default();
    let detail = crate::safe_text::terminal(me.detail.as_deref().unwrap_or_default());
    let context = if situation.crlf {
        " (here every line it was sent ends in `\\r\\n`, as in the course's own test files)"
    } else if situation.seat == 1 {
        " (here it plays as player 2)"
    } else if situation.test {
        " (here in test mode, `RR_MODE=test`)"
    } else {
        ""
    };
    match me.forfeit.as_deref() {
        Some("timeout") if t == 1 => findings.push(serious(
            format!(
                "your bot printed nothing for {} ms after the header and `TICK 1`{context}",
                limits.startup.as_millis()
            ),
            format!("answer every TICK at once with one line, then {FLUSH}"),
        )),
        Some("timeout") => {
            let used: u64 = replies.iter().map(|r| r.ms).sum();
            let total = limits.total.as_millis() as u64;
            if used + limits.per_move.as_millis() as u64 > total {
                findings.push(serious(
                    format!("your bot used up its {total} ms of answer time for the game ({used} ms over {t} answers)"),
                    "think less per tick: the whole game's answers must fit in that budget".to_string(),
                ));
            } else if let Some((cpu, _)) = replies.last().and_then(|r| Some((r.cpu_ms?, r.ms))).filter(|&(cpu, ms)| {
                // Computing for a good part of the time it took (the box's CPU time is recorded
                // on the wall clock too): a loop that does not end or a slow search, not an
                // answer waiting in a buffer or a bot waiting for input, which use next to none.
                Activity::of(cpu, ms) == Activity::Computing
            }) {
                findings.push(serious(
                    format!(
                        "your bot computed for {cpu} ms of CPU time after `TICK {t}`{context} and printed nothing: \
                         a loop that never ends at this tick, or a search too slow for the {} ms an answer may take",
                        limits.per_move.as_millis()
                    ),
                    loop_fix(&INFO.wording, limits.per_move.as_millis() as u64),
                ));
            } else {
                findings.push(serious(
                    format!(
                        "your bot printed nothing for {} ms after `TICK {t}`{context}: did you flush stdout?",
                        limits.per_move.as_millis()
                    ),
                    format!(
                        "{FLUSH} If it was still thinking: each answer must come within {} ms.",
                        limits.per_move.as_millis()
                    ),
                ));
            }
        }
        Some("crash") => {
            let when = if replies.iter().all(|r| r.answer.is_none()) {
                "before answering `TICK 1`".to_string()
            } else {
                format!("after answering `TICK {}`", t - 1)
            };
            let fix = if situation.crlf {
                "strip the trailing `\\r` from every line you read before you split or compare it (C/C++: drop a \
                 final '\\r'; Python: `line.strip()`; split on any whitespace, not on ' ')"
            } else if situation.map == POWER_MAP {
                "read every kind of cell: `0`, `1`..`99`, `E`, `W`, `F`, `J`, `D` and `T` (not only numbers)"
            } else if situation.test {
                "in test mode the TICK lines carry the scripted opponent's moves: read `TICK t MOVE x y` as well \
                 as `TICK t WAIT`, and keep answering until stdin ends"
            } else {
                "read the header up to `STREAM` (N map rows of M cells), then one `TICK t WAIT` or \
                 `TICK t MOVE x y` line per tick, until stdin ends; run it by hand with a map on stdin to see \
                 where it stops"
            };
            let stderr = played.stderr.first().map_or("", String::as_str);
            // Python's own error for a program it could not compile: it never ran, so nothing
            // about reading the input applies.
            let compile_fix = python_compile_fix(stderr);
            let fix = compile_fix.as_deref().unwrap_or(fix);
            let ended = crash_ending(replay);
            let what = ended.map_or_else(|| "exited (or closed stdout)".to_string(), Ending::clause);
            // Killed by a signal: a fault in the program itself, which the fix for it finds,
            // after the situation's own cause where it has one.
            let fix = match (ended.and_then(signal_fix), situation.crlf || situation.map == POWER_MAP || situation.test)
            {
                (Some(signal), true) => format!("{fix}: a bot that misreads its input often dies so; then {signal}"),
                (Some(signal), false) => signal.to_string(),
                (None, _) => fix.to_string(),
            };
            findings.push(serious(format!("your bot {what} {when}{context}.{}", last_words(stderr)), fix));
        }
        Some("extra_output") => {
            let when = if t == 1 {
                "before the first TICK (a greeting or a debug line?)".to_string()
            } else {
                format!("that no TICK asked for, after answering `TICK {}`", t - 1)
            };
            findings.push(serious(
                format!("your bot printed a line {when}"),
                "print exactly one line per TICK; write debug output to stderr (the arena keeps it in the match \
                 log)"
                    .to_string(),
            ));
        }
        Some("malformed") => match &line {
            Some(line) => {
                let fix = malformed_fix(line);
                findings.push(serious(format!("you answered `{shown}` to `TICK {t}`: {detail}"), fix));
            }
            None => findings.push(serious(
                format!("your answer to `TICK {t}` was {}", detail),
                format!("answer `WAIT` or `MOVE x y` in plain ASCII, under {} bytes", limits.max_line),
            )),
        },
        Some("invalid_move") => {
            let before = frame_before(replay, t);
            let at = pos_of(before, seat);
            let jump = before["players"][seat]["jump"].as_bool().unwrap_or(false);
            let asked = line.as_deref().and_then(|l| Action::parse_answer(l, t as u32).ok());
            let fix = match (asked, at) {
                (Some(Action::Move(to)), Some(at)) => invalid_move_fix(spec, situation, at, to, jump),
                _ => "check the move against the map before answering".to_string(),
            };
            let from = at.map_or(String::new(), |p| format!(" at {p}"));
            findings.push(serious(format!("you answered `{shown}`{from} to `TICK {t}`: {detail}"), fix));
        }
        Some("fire") => findings.push(serious(
            format!("your bot walked into the fire on `TICK {t}`: {detail}"),
            "an `F` cell ends your game with 0 points: leave fire out of the moves you consider (the kits' \
             safe moves and paths do)"
                .to_string(),
        )),
        Some(other) => findings.push(serious(format!("your bot forfeited ({other}): {detail}"), String::new())),
        None => {
            if ticks > 1 && replies.iter().all(|r| r.answer.as_deref().map(str::trim) == Some("WAIT")) {
                findings.push(Finding {
                    problem: format!("your bot answered `WAIT` to all {ticks} TICKs: it never moved"),
                    fix: format!(
                        "move towards resources and the final with `MOVE x y`; a bot that stays put scores 0 \
                         and fails every test.{}",
                        situation.finish_hint
                    ),
                    serious: false,
                });
            } else if !me.finished {
                findings.push(Finding {
                    problem: format!("your bot did not reach the final {} in {ticks} ticks", spec.final_pos),
                    fix: format!(
                        "keep enough ticks to get there: in a duel it keeps its points, but a test only passes \
                         when it finishes.{}",
                        situation.finish_hint
                    ),
                    serious: false,
                });
            }
        }
    }
    let answered = replies.iter().any(|r| r.answer.is_some());
    Checked { name: situation.name.to_string(), summary, findings, skipped: false, answered }
}

/// What to change after an invalid move from `at` to `to`.
fn invalid_move_fix(spec: &MapSpec, situation: &Situation, at: Pos, to: Pos, jump: bool) -> String {
    let own = spec.starts[situation.seat];
    let theirs = spec.starts[1 - situation.seat];
    if own != theirs && at == own && check_move(&spec.grid, theirs, to, jump).is_ok() {
        return format!(
            "line 2 of the header is always your own start and line 3 the opponent's, whichever seat you play: \
             you are at {own}, yet you moved as if you stood at {theirs}"
        );
    }
    if check_move(&spec.grid, at, Pos::new(to.y, to.x), jump).is_ok() {
        return format!("x is the row and y the column: did you mean `MOVE {} {}`?", to.y, to.x);
    }
    match check_move(&spec.grid, at, to, jump) {
        Err(InvalidMove::Stay(_)) => "to stay where you are, answer `WAIT`".to_string(),
        Err(InvalidMove::NoJump { .. }) => {
            "a two-cell move needs Jump, which you get by stepping on a `J`; until then move one cell at a time"
                .to_string()
        }
        Err(InvalidMove::Blocked { .. }) => {
            "walls (`W`) and voids (`E`) cannot be entered, only jumped over once you hold Jump".to_string()
        }
        Err(InvalidMove::OverFire(_)) => "a jump cannot pass over fire: go around it".to_string(),
        Err(InvalidMove::OutOfBounds(_)) => {
            "stay on the map: rows go from 0 to N-1 and columns from 0 to M-1 (`ARENA N M ROUNDS`)".to_string()
        }
        _ => "move one cell up, down, left or right (or two in a straight line once you hold Jump); no diagonals"
            .to_string(),
    }
}

/// When the very first answer never came: tells a slow start-up from unflushed output, and a
/// loop (busy, silent) from a bot waiting for the end of its input (idle, silent).
async fn first_answer_probe(
    command: &str,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Finding, RefereeError> {
    let patient = Limits { startup: PATIENCE, total: PATIENCE + limits.total, ..*limits };
    let (played, _) = play(command, &SITUATIONS[0], Feed::Interactive, &patient, sandbox, cancel).await?;
    if let Some(first) = played.replay.steps.first().and_then(|s| s.replies.first()) {
        // Silent but busy all along: a loop at tick 1 (or before), not a bot waiting for the
        // end of its input or for a flush, which use next to no CPU time.
        if let Some(cpu) =
            first.cpu_ms.filter(|&cpu| first.answer.is_none() && Activity::of(cpu, first.ms) == Activity::Computing)
        {
            return Ok(Finding {
                problem: format!(
                    "your bot computed for {cpu} ms of CPU time after the header and `TICK 1` and printed nothing, \
                     not even in {} s: a loop that never ends, or work far too slow for the first answer ({} ms, \
                     start-up included)",
                    PATIENCE.as_secs(),
                    limits.startup.as_millis()
                ),
                fix: loop_fix(&INFO.wording, limits.startup.as_millis() as u64),
                serious: true,
            });
        }
        if first.answer.is_some() {
            return Ok(Finding {
                problem: format!(
                    "your bot took {} ms to answer `TICK 1`, but the first answer must come within {} ms, \
                     start-up included",
                    first.ms,
                    limits.startup.as_millis()
                ),
                fix: STARTUP_FIX.to_string(),
                serious: true,
            });
        }
    }
    Ok(match why_silent(command, sandbox, cancel).await? {
        Silence::Buffered => Finding {
            problem: format!(
                "your bot printed nothing for {} ms after `TICK 1`, yet when sent thousands of TICK lines at once \
                 its answers arrived in a burst: it does not flush stdout, so its answers wait in its output buffer",
                limits.startup.as_millis()
            ),
            fix: FLUSH.to_string(),
            serious: true,
        },
        Silence::EndOfInput => Finding {
            problem: format!(
                "your bot printed nothing after the header and `TICK 1`, not even in {} s, nor when sent thousands \
                 of TICK lines at once, but answered once its input ended: it waits for the end of its input",
                PATIENCE.as_secs()
            ),
            fix: format!(
                "in a duel each TICK comes only after your answer to the last, so read one line at a time and answer \
                 each TICK as soon as it arrives (and flush stdout). To play the tests with a bot that reads its \
                 whole input first (as `./bot < test1.txt` gives it), `arena test {} --piped` sends each test \
                 file whole, then ends its input",
                crate::safe_text::terminal(&shell_words::quote(command))
            ),
            serious: true,
        },
        Silence::Unknown => Finding {
            problem: format!(
                "your bot printed nothing after the header and `TICK 1`, not even in {} s",
                PATIENCE.as_secs()
            ),
            fix: "read the header up to `STREAM`, then answer each TICK line as soon as it arrives (a bot that \
                  waits for the end of its input never answers), and flush stdout after every answer"
                .to_string(),
            serious: true,
        },
    })
}

/// Why a bot gave its first answer neither in time nor later, while idle: two probes on a map
/// where it can only `WAIT`, for thousands of ticks, all sent at once. With its input left open,
/// answers arriving in a burst were waiting in its output buffer; with none, answers that come
/// once its input ends mean it reads all of its input before it answers.
pub async fn why_silent(command: &str, sandbox: &Sandbox, cancel: &CancellationToken) -> Result<Silence, RefereeError> {
    let boxed = Situation { name: "output buffer", map: BOXED_MAP, test: true, ..SITUATIONS[0] };
    let burst = Limits {
        clock: crate::referee::ClockKind::Wall,
        startup: Duration::from_secs(5),
        total: Duration::from_secs(60),
        ..Limits::default()
    };
    for (feed, silence) in [(Feed::AllOpen, Silence::Buffered), (Feed::AllClosed, Silence::EndOfInput)] {
        let (played, _) = play(command, &boxed, feed, &burst, sandbox, cancel).await?;
        if played.replay.steps.first().and_then(|s| s.replies.first()).is_some_and(|r| r.answer.is_some()) {
            return Ok(silence);
        }
    }
    Ok(Silence::Unknown)
}

/// Plays every Resource Rush situation with `command` and explains what went wrong.
pub async fn check_resource_rush(
    command: &str,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Vec<Checked>, RefereeError> {
    // The wall clock: a bot that never flushes uses no CPU, and a doctor should say so
    // after the plain time limit, not after the CPU clock's backstop.
    let limits = Limits { clock: crate::referee::ClockKind::Wall, ..Limits::default() };
    let mut out: Vec<Checked> = Vec::new();
    let program = program_problem(command);
    // Seat 1's crash (its stderr and fix): the same crash elsewhere has the same cause, not the
    // situation's own (a bot that misreads every header is no CRLF or power-up problem).
    let mut first_crash: Option<(String, Option<Ending>, String)> = None;
    for (i, situation) in SITUATIONS.iter().enumerate() {
        let (played, spec) = play(command, situation, Feed::Interactive, &limits, sandbox, cancel).await?;
        let mut checked = diagnose(situation, &spec, &played, &limits);
        if played.replay.result.players[0].forfeit.as_deref() == Some("crash") {
            let stderr = played.stderr.first().cloned().unwrap_or_default();
            let ended = crash_ending(&played.replay);
            let fix = match (&program, &first_crash) {
                (Some(fix), _) => Some(fix.clone()),
                // (Two crashes that said nothing are not known to be the same, unless the same
                // signal killed the bot in both.)
                (None, Some((seen, seen_ended, fix)))
                    if *seen == stderr
                        && (!stderr.trim().is_empty()
                            || (matches!(ended, Some(Ending::Signal(_))) && ended == *seen_ended)) =>
                {
                    Some(format!("{fix} (the same crash as in `{}`, above)", SITUATIONS[0].name))
                }
                _ => None,
            };
            if let Some(fix) = &fix {
                for f in &mut checked.findings {
                    f.fix.clone_from(fix);
                }
            }
            // The same stderr as seat 1's, shown there: said once.
            let said = last_words(&stderr);
            if i > 0 && !stderr.trim().is_empty() && first_crash.as_ref().is_some_and(|(seen, ..)| *seen == stderr) {
                for f in &mut checked.findings {
                    if let Some(problem) = f.problem.strip_suffix(&said) {
                        f.problem =
                            format!("{problem} It wrote the same to stderr as in `{}`, above.", SITUATIONS[0].name);
                    }
                }
            }
            if i == 0 {
                let fix = checked.findings.first().map(|f| f.fix.clone()).unwrap_or_default();
                first_crash = Some((stderr, ended, fix));
            }
        }
        let never_answered =
            played.replay.steps.len() <= 1 && played.replay.result.players[0].forfeit.as_deref() == Some("timeout");
        if i == 0 && never_answered {
            checked.findings = vec![first_answer_probe(command, &limits, sandbox, cancel).await?];
            out.push(checked);
            for skipped in &SITUATIONS[1..] {
                out.push(Checked {
                    name: skipped.name.to_string(),
                    summary: "not played: fix the first answer first".to_string(),
                    findings: Vec::new(),
                    skipped: true,
                    answered: false,
                });
            }
            break;
        }
        if situation.crlf && checked.failed() && !out[0].failed() {
            for f in &mut checked.findings {
                f.problem.push_str("\n    It played fine with the same lines ending in `\\n`: only the `\\r` differs.");
            }
        }
        out.push(checked);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A script without `#!`, or with Windows line endings, is named as such; a good script,
    /// a compiled program, a command through an interpreter and a name on the PATH are not.
    #[test]
    fn a_script_the_system_cannot_run_as_meant_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        };
        let bare = file("bot.py", b"import sys\nprint('WAIT')\n");
        let found = program_problem(&bare).expect("no #! line");
        assert!(
            found.contains("does not start with a `#!` line") && found.contains("#!/usr/bin/env python3"),
            "{found}"
        );
        let crlf = file("crlf.py", b"#!/usr/bin/env python3\r\nimport sys\r\n");
        let found = program_problem(&crlf).expect("CRLF");
        assert!(found.contains("Windows line endings") && found.contains("sed -i"), "{found}");
        // Controls.
        assert_eq!(program_problem(&file("good.py", b"#!/usr/bin/env python3\nimport sys\n")), None);
        assert_eq!(program_problem(&file("prog", b"\x7fELF\x02\x01\x01")), None);
        assert_eq!(program_problem(&file("bot.sh", b"echo WAIT\n")), None, "/bin/sh is what runs a shell script");
        assert_eq!(program_problem(&format!("python3 {bare}")), None, "the interpreter is the program");
        assert_eq!(program_problem("bot.py"), None, "a name looked up on the PATH");
        // A script run through its interpreter from another folder than its own.
        let found = program_problem("python3 -u no-such-dir/bot.py").expect("missing script");
        assert!(
            found.starts_with("`no-such-dir/bot.py` does not exist in ") && found.contains("bot's folder"),
            "{found}"
        );
        assert_eq!(program_problem("python3 -c 'print(1)' x.py"), None, "code, not a file");
    }

    #[test]
    fn the_built_in_maps_are_valid_and_the_scripts_legal() {
        for s in SITUATIONS {
            let spec = MapSpec::parse(s.map).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            let mut at = spec.starts[1 - s.seat];
            for (t, answer) in s.opponent.iter().enumerate() {
                let Ok(Action::Move(to)) = Action::parse_answer(answer, t as u32 + 1) else { panic!("{answer}") };
                assert!(check_move(&spec.grid, at, to, false).is_ok(), "{}: {answer} from {at}", s.name);
                at = to;
            }
        }
        assert_eq!(MapSpec::parse(BOXED_MAP).unwrap().rounds, 8000);
    }

    #[test]
    fn invalid_moves_get_a_fix_that_names_the_cause() {
        let spec = MapSpec::parse(BASE_MAP).unwrap();
        let seat2 = SITUATIONS[1];
        // As player 2 at (3, 5), moving as if from player 1's start (0, 0).
        let fix = invalid_move_fix(&spec, &seat2, Pos::new(3, 5), Pos::new(0, 1), false);
        assert!(fix.contains("line 2 of the header is always your own start"), "{fix}");
        let seat1 = SITUATIONS[0];
        let swapped = invalid_move_fix(&spec, &seat1, Pos::new(2, 0), Pos::new(0, 3), false);
        assert!(swapped.contains("did you mean `MOVE 3 0`"), "{swapped}");
        let stay = invalid_move_fix(&spec, &seat1, Pos::new(0, 0), Pos::new(0, 0), false);
        assert!(stay.contains("answer `WAIT`"), "{stay}");
        let jump = invalid_move_fix(&spec, &seat1, Pos::new(2, 0), Pos::new(2, 2), false);
        assert!(jump.contains("needs Jump"), "{jump}");
        let wall = invalid_move_fix(&spec, &seat1, Pos::new(1, 3), Pos::new(1, 2), false);
        assert!(wall.contains("walls"), "{wall}");
    }
}
