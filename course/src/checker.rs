//! The course's single-player test checker: finds a folder's tests and minimums, plays each
//! test with a bot process the way the course's checker does (header, then one TICK at a
//! time, 5 s per answer; or the whole file at once with `--piped`), and judges it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use arena::engine::{BoxError, Game, LimitChoices, Verdict};
use arena::files::read_map_file;
use arena::games::resource_rush::{parse_map, ResourceRush, ResourceRushTestGame, TEST_NAME};
use arena::referee::{play_match, BotCommand, ClockKind, Limits, PlayedMatch, RefereeError};
use arena::replay::{resimulate, Replay};
use arena::sandbox::Sandbox;

/// Time for each answer, as in the course's checker.
pub const ANSWER_TIME: Duration = Duration::from_secs(5);

/// What stops the checker before it can judge.
#[derive(Debug, Error)]
pub enum CheckerError {
    /// A folder or file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of `limite_minime.txt` is not `testN minimum`.
    #[error("{}:{line}: expected `test<N> <minimum>`, found `{text}`", path.display())]
    Minimums {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// No test files were found.
    #[error("{}: no test files (test1.txt, test01.txt, … here or in input/)", .0.display())]
    NoTests(PathBuf),
    /// `--only` names a test that is not there.
    #[error("there is no test {number} in {}: its tests are {}", dir.display(), numbers_text(found))]
    NoSuchTest {
        /// The test asked for.
        number: usize,
        /// The folder.
        dir: PathBuf,
        /// The numbers of the tests it holds, in order.
        found: Vec<usize>,
    },
    /// A test file cannot be read or is not a valid map; the cause names the file.
    #[error(transparent)]
    BadTest(BoxError),
    /// The bot could not be run.
    #[error(transparent)]
    Referee(#[from] RefereeError),
}

/// One test of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    /// Its number (from `test<N>.txt`).
    pub number: usize,
    /// The file.
    pub path: PathBuf,
    /// Its minimum score, from `limite_minime.txt`.
    pub minimum: Option<i64>,
    /// The file's content, read with every other test before the first one runs (a bot
    /// cannot change a later test by writing the file).
    pub text: std::sync::Arc<str>,
    /// The content's hash, for reports.
    pub digest: String,
}

/// Reads `limite_minime.txt`: lines `test01 297` or `test1 297`; CRLF and blank lines are fine.
pub fn read_minimums(path: &Path) -> Result<BTreeMap<usize, i64>, CheckerError> {
    let text = std::fs::read_to_string(path).map_err(|source| CheckerError::Io { path: path.to_path_buf(), source })?;
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let bad = || CheckerError::Minimums { path: path.to_path_buf(), line: i + 1, text: line.trim().to_string() };
        let [name, value] = words.as_slice() else { return Err(bad()) };
        let number = name.strip_prefix("test").and_then(|n| n.parse::<usize>().ok()).ok_or_else(bad)?;
        let minimum = value.parse::<i64>().map_err(|_| bad())?;
        out.insert(number, minimum);
    }
    Ok(out)
}

/// Finds the tests of `dir`: `test<N>.txt` files in `dir/input/` if it exists, else in
/// `dir`, with minimums from `dir/limite_minime.txt` (if present; for `dir` named `input`,
/// also the one beside it, as a course folder holds it).
pub fn discover(dir: &Path) -> Result<Vec<TestCase>, CheckerError> {
    let input = if dir.join("input").is_dir() { dir.join("input") } else { dir.to_path_buf() };
    let entries = std::fs::read_dir(&input).map_err(|source| CheckerError::Io { path: input.clone(), source })?;
    let minimums_path = minimums_path(dir);
    let minimums = if minimums_path.exists() { read_minimums(&minimums_path)? } else { BTreeMap::new() };
    let found: Vec<(usize, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some((arena::games::resource_rush::kit::test_number(&name)?, e.path()))
        })
        .collect();
    let mut tests = Vec::new();
    for (number, path) in found {
        let text = read_map_file(&path).map_err(|e| CheckerError::BadTest(Box::new(e)))?;
        let digest = blake3::hash(text.as_bytes()).to_hex()[..16].to_string();
        tests.push(TestCase { number, path, minimum: minimums.get(&number).copied(), text: text.into(), digest });
    }
    if tests.is_empty() {
        return Err(CheckerError::NoTests(dir.to_path_buf()));
    }
    tests.sort_by_key(|t| t.number);
    Ok(tests)
}

/// Test numbers in words: `1 to 20` for a run of them, else each (`1, 2, 5`); in order.
pub fn numbers_text(numbers: &[usize]) -> String {
    match (numbers.first(), numbers.last()) {
        (Some(first), Some(last)) if numbers.len() > 2 && last - first + 1 == numbers.len() => {
            format!("{first} to {last}")
        }
        _ => numbers.iter().map(usize::to_string).collect::<Vec<_>>().join(", "),
    }
}

/// Where the minimums of the tests in `dir` are: `dir/limite_minime.txt`, or for a `dir`
/// named `input` without one, the file beside it.
pub fn minimums_path(dir: &Path) -> PathBuf {
    let here = dir.join(MINIMUMS_FILE);
    match dir.parent() {
        Some(parent) if !here.exists() && dir.file_name().is_some_and(|n| n == "input") => parent.join(MINIMUMS_FILE),
        _ => here,
    }
}

/// The course's name for the minimums' file.
pub const MINIMUMS_FILE: &str = "limite_minime.txt";

impl TestCase {
    /// Its rounds, from its header (0 if the file is no valid map: running it says why).
    pub fn rounds(&self) -> u32 {
        parse_map(&self.path, &self.text).map_or(0, |spec| spec.rounds)
    }
}

/// How one test went.
#[derive(Debug, Serialize)]
pub struct TestReport {
    /// Test number.
    pub number: usize,
    /// Passed: reached the final in time, no forfeit, score at least the minimum.
    pub passed: bool,
    /// Reached the final (whatever its score).
    pub finished: bool,
    /// The bot's score.
    pub score: i64,
    /// The minimum, if the folder has one.
    pub minimum: Option<i64>,
    /// Ticks played.
    pub ticks: usize,
    /// Why it failed, naming the cause where the checker can see it.
    pub reason: Option<String>,
    /// The full record, and the bot's stderr.
    #[serde(skip)]
    pub played: PlayedMatch,
}

/// Plays `case` with `bot` and judges it.
pub async fn run_test(
    case: &TestCase,
    bot: &str,
    piped: bool,
    (clock, backstop): (ClockKind, Option<u32>),
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<TestReport, CheckerError> {
    let spec = parse_map(&case.path, &case.text).map_err(|e| CheckerError::BadTest(Box::new(e)))?;
    let rounds = spec.rounds;
    let state = Box::new(ResourceRush::against_script(spec, piped).with_minimum(case.minimum));
    let mut command = BotCommand::seated(&BotCommand::display_name(bot), bot, None, b"test", case.number as u64, 0);
    command.env.push(("RR_MODE".to_string(), "test".to_string()));
    let checker =
        Limits { startup: ANSWER_TIME, per_move: ANSWER_TIME, total: ANSWER_TIME * rounds.max(1), ..Limits::default() };
    let limits = LimitChoices { clock: Some(clock), backstop_factor: backstop, ..Default::default() }.over(checker);
    let played = play_match(TEST_NAME, state, &[command], &limits, 0, sandbox, cancel).await?;
    let Verdict { passed, mut reason } = played.verdict.clone().unwrap_or(Verdict {
        passed: false,
        reason: Some("the game gave no verdict (the test did not end)".to_string()),
    });
    // A timeout says which limit, after which TICK, and whether the bot was computing or idle
    // (what `arena duel`'s "Why:" says, from the same facts).
    let facts = arena::explain::forfeit_facts(&played.replay);
    if let Some(detail) = facts.first().and_then(|f| f.timeout_detail("TICK")) {
        reason = Some(format!("forfeit timeout: {detail}"));
    }
    Ok(TestReport {
        number: case.number,
        passed,
        finished: played.replay.result.players.first().is_some_and(|p| p.finished),
        score: played.replay.result.players.first().map_or(0, |p| p.score),
        minimum: case.minimum,
        ticks: played.replay.steps.len(),
        reason,
        played,
    })
}

/// The course-style transcript of a played test: the header, then each TICK line followed by
/// the bot's answer (or what happened instead). Answers are safe text: a transcript is read
/// on a terminal, so control characters show visibly and a long line is cut.
pub fn transcript(replay: &Replay) -> String {
    let Ok(state) = ResourceRushTestGame.load(&replay.setup) else { return String::new() };
    let mut out = state.intro(0);
    let mut prompts = Vec::new();
    let _ = resimulate(replay, &arena::games::registry(), |_, s| prompts.push(s.prompt(0)));
    for (step, prompt) in replay.steps.iter().zip(prompts) {
        out.push_str(&prompt);
        for reply in &step.replies {
            match (&reply.answer, reply.failure) {
                (Some(line), _) => out.push_str(&arena::safe_text::terminal(line)),
                (None, Some(f)) => out.push_str(&format!("({})", f.reason())),
                (None, None) => {}
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_numbers_are_said_as_a_run_or_each() {
        assert_eq!(numbers_text(&(1..=20).collect::<Vec<_>>()), "1 to 20");
        assert_eq!(numbers_text(&[1, 2, 5]), "1, 2, 5");
        assert_eq!(numbers_text(&[3, 4]), "3, 4");
        assert_eq!(numbers_text(&[7]), "7");
    }

    #[test]
    fn minimums_accept_both_spellings_crlf_and_blank_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("limite_minime.txt");
        std::fs::write(&path, "test01 297\r\n\r\ntest2   15  \r\ntest10 0\n").unwrap();
        let m = read_minimums(&path).unwrap();
        assert_eq!(m, BTreeMap::from([(1, 297), (2, 15), (10, 0)]));
        std::fs::write(&path, "test1 297\nexam2 3\n").unwrap();
        let err = read_minimums(&path).unwrap_err().to_string();
        assert!(err.ends_with("limite_minime.txt:2: expected `test<N> <minimum>`, found `exam2 3`"), "{err}");
    }

    #[test]
    fn discovery_finds_input_folders_and_numbers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("input")).unwrap();
        for name in ["test2.txt", "test10.txt", "test01.txt", "notes.txt"] {
            std::fs::write(dir.path().join("input").join(name), "").unwrap();
        }
        std::fs::write(dir.path().join("limite_minime.txt"), "test1 5\ntest02 7\n").unwrap();
        let tests = discover(dir.path()).unwrap();
        let got: Vec<(usize, Option<i64>)> = tests.iter().map(|t| (t.number, t.minimum)).collect();
        assert_eq!(got, [(1, Some(5)), (2, Some(7)), (10, None)]);
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(discover(empty.path()), Err(CheckerError::NoTests(_))));
    }
}
