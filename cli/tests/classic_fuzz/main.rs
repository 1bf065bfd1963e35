//! Differential fuzz tests of the classic programs (`arena play tactics|atoms|lcr`).
//!
//! Each program gets random sessions: valid and invalid commands, odd white space, bytes that
//! are not UTF-8, end of input anywhere, huge numbers and bad start-up arguments. They run
//! against an executable model of the program written here from its handout, the rulings and
//! its page in `docs/rules/` (it shares no code with the arena), and the output must match
//! byte for byte, with the same exit status. Independently of the model, every output line
//! must be one the handout (or the rules page) defines. A few dozen sessions per program also
//! go through the real binary, which must never panic, hang, or write to stderr anything but
//! the documented messages.
//!
//! The sessions are the same on every run, so a failure repeats; set `PROPTEST_RNG_SEED` (and
//! `PROPTEST_CASES`) to explore others.

mod atoms;
mod gen;
mod lcr;
mod tactics;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};

/// Runs `check` on `cases` sessions from `strategy`, with a fixed seed unless
/// `PROPTEST_RNG_SEED` says otherwise; panics with the smallest failing session.
pub fn fuzz<S: Strategy>(cases: u32, strategy: S, check: impl Fn(S::Value) -> TestCaseResult)
where
    S::Value: std::fmt::Debug,
{
    let mut config = Config::with_cases(cases);
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(25);
    }
    config.failure_persistence = None;
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, check) {
        panic!("{e}");
    }
}

/// What the real binary did.
#[derive(Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs the real `arena` with `args` in `dir`, feeding `input`. A program that has not ended
/// after a minute (sessions take milliseconds) hangs: it is killed and the test fails.
pub fn arena(dir: &Path, args: &[std::ffi::OsString], input: &[u8]) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start arena");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // The program may stop reading early (QUIT): a broken pipe here is expected.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        let reader = std::thread::spawn(move || {
            let _ = err.read_to_end(&mut stderr);
            stderr
        });
        let _ = out.read_to_end(&mut stdout);
        let stderr = reader.join().unwrap_or_default();
        let status = child.wait().expect("wait for arena");
        let _ = tx.send(Ran { code: status.code(), stdout, stderr: String::from_utf8_lossy(&stderr).into_owned() });
    });
    let ran = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(ran) => ran,
        Err(_) => {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
            panic!("arena {args:?} did not end within a minute");
        }
    };
    let _ = feeder.join();
    ran
}

#[test]
fn tactics_sessions_match_the_model() {
    tactics::in_process();
}

#[test]
fn tactics_through_the_binary() {
    tactics::through_the_binary();
}

#[test]
fn atoms_sessions_match_the_model() {
    atoms::in_process();
}

#[test]
fn atoms_through_the_binary() {
    atoms::through_the_binary();
}

#[test]
fn lcr_sessions_match_the_model() {
    lcr::in_process();
}

#[test]
fn lcr_through_the_binary() {
    lcr::through_the_binary();
}

#[test]
fn lcr_model_reproduces_the_handout_runs() {
    lcr::model_reproduces_the_handout();
}
