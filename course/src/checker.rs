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
    /// Two lines of `limite_minime.txt` give a minimum for the same test.
    #[error("{}:{line}: a second minimum for test {number} (the first at line {first}): give each test one line", path.display())]
    MinimumTwice {
        /// The file.
        path: PathBuf,
        /// The second line, from 1.
        line: usize,
        /// The first line, from 1.
        first: usize,
        /// The test.
        number: usize,
    },
    /// A line of `limite_minime.txt` whose test number or minimum is out of range: negative, or
    /// past what the checker counts.
    #[error("{}:{line}: `{text}`: {what}", path.display())]
    MinimumOutOfRange {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
        /// What is out of range, and the range.
        what: String,
    },
    /// Two test files of a folder have the same number (`test1.txt` and `test01.txt`).
    #[error("{} and {}: both are test {number}: keep one of them", first.display(), second.display())]
    TestTwice {
        /// The test.
        number: usize,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
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

/// The largest `limite_minime.txt` read: a line per test is a few bytes (the course's 20 tests,
/// 200 bytes); past this it is no such file.
pub const MAX_MINIMUMS_BYTES: u64 = 1 << 20;

/// Reads `limite_minime.txt`: lines `test01 297` or `test1 297`; CRLF and blank lines are fine.
/// A minimum given twice for one test (`test1` and `test01` are one), a negative one, and a number
/// out of range are refused, naming the line. Only a regular file is read, at most
/// [`MAX_MINIMUMS_BYTES`]: a FIFO or a device is refused at once, not waited for or read without end.
pub fn read_minimums(path: &Path) -> Result<BTreeMap<usize, i64>, CheckerError> {
    let io = |source| CheckerError::Io { path: path.to_path_buf(), source };
    let bytes = arena::files::read_regular_capped(path, MAX_MINIMUMS_BYTES).map_err(io)?;
    let text = String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 text: {e}"))))?;
    let mut out = BTreeMap::new();
    let mut lines: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let text = || arena::safe_text::terminal_cut(line.trim(), 200);
        let bad = || CheckerError::Minimums { path: path.to_path_buf(), line: i + 1, text: text() };
        let out_of_range = |what: String| CheckerError::MinimumOutOfRange {
            path: path.to_path_buf(),
            line: i + 1,
            text: text(),
            what,
        };
        let [name, value] = words.as_slice() else { return Err(bad()) };
        // (A whole number too large to read is out of range; anything else is no number.)
        let digits = |word: &str| {
            let word = word.strip_prefix(['+', '-']).unwrap_or(word);
            !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
        };
        let number = name.strip_prefix("test").ok_or_else(bad)?;
        let number = match number.parse::<usize>() {
            Ok(n) => n,
            Err(_) if digits(number) && !number.starts_with('-') => {
                return Err(out_of_range(format!("test number {number} is out of range (at most {})", usize::MAX)))
            }
            Err(_) => return Err(bad()),
        };
        let minimum = match value.parse::<i64>() {
            Ok(m) => m,
            Err(_) if digits(value) => {
                return Err(out_of_range(format!("the minimum {value} is out of range (at most {})", i64::MAX)))
            }
            Err(_) => return Err(bad()),
        };
        if minimum < 0 {
            return Err(out_of_range(format!(
                "the minimum {minimum} is negative: a minimum is a score, 0 or more (0 passes every test that ends)"
            )));
        }
        if let Some(&first) = lines.get(&number) {
            return Err(CheckerError::MinimumTwice { path: path.to_path_buf(), line: i + 1, first, number });
        }
        lines.insert(number, i + 1);
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
    // (`test1.txt` and `test01.txt` are both test 1: it was played twice, and counted twice.)
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (number, path) in &found {
        if let Some(first) = seen.insert(*number, path) {
            let (first, second) =
                if first <= path.as_path() { (first, path.as_path()) } else { (path.as_path(), first) };
            return Err(CheckerError::TestTwice { number: *number, first: first.into(), second: second.into() });
        }
    }
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

    /// A minimum given twice for one test (last-wins before, silently), a negative one, and a
    /// number too large (said as "expected `test<N> <minimum>`") are refused, naming the line;
    /// a FIFO is refused at once (it hung `arena test`), a file past the cap said so. The
    /// controls: the same file without the faulty line is read; a regular file within the cap.
    #[test]
    fn minimums_refuse_a_test_twice_a_negative_or_an_out_of_range_value() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("limite_minime.txt");
        let read = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read_minimums(&path).map_err(|e| e.to_string())
        };
        for (text, says) in [
            ("test1 5\ntest2 3\ntest1 0\n", "limite_minime.txt:3: a second minimum for test 1 (the first at line 1)"),
            ("test01 5\n\ntest1 0\n", "limite_minime.txt:3: a second minimum for test 1 (the first at line 1)"),
            ("test1 5\ntest2 -3\n", "limite_minime.txt:2: `test2 -3`: the minimum -3 is negative"),
            (
                "test1 99999999999999999999\n",
                "limite_minime.txt:1: `test1 99999999999999999999`: the minimum \
              99999999999999999999 is out of range (at most 9223372036854775807)",
            ),
            (
                "test99999999999999999999999 1\n",
                "limite_minime.txt:1: `test99999999999999999999999 1`: test number \
              99999999999999999999999 is out of range",
            ),
            ("test1 5x\n", "limite_minime.txt:1: expected `test<N> <minimum>`, found `test1 5x`"),
            ("test-1 5\n", "limite_minime.txt:1: expected `test<N> <minimum>`, found `test-1 5`"),
        ] {
            let err = read(text).unwrap_err();
            assert!(err.ends_with(says) || err.contains(says), "{text:?}: {err}");
        }
        assert_eq!(read("test1 5\ntest2 3\n"), Ok(BTreeMap::from([(1, 5), (2, 3)])), "the control");
        assert_eq!(read("test1 +5\ntest2 0\n"), Ok(BTreeMap::from([(1, 5), (2, 0)])), "the control: as before");
        let big = format!("test1 5\n{}", " ".repeat(MAX_MINIMUMS_BYTES as usize));
        assert!(read(&big).unwrap_err().contains("larger than 1 MiB"));
        // A FIFO: refused at once, not waited for.
        std::fs::remove_file(&path).unwrap();
        assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
        let err = read_minimums(&path).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }

    /// `test1.txt` and `test01.txt` in one folder are both test 1: refused, naming both (it was
    /// played twice, and counted twice). The control: either alone is read as test 1.
    #[test]
    fn two_files_of_one_test_are_refused_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        let map =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests/test1.txt")).unwrap();
        for name in ["test1.txt", "test01.txt", "test2.txt"] {
            std::fs::write(dir.path().join(name), &map).unwrap();
        }
        let err = discover(dir.path()).unwrap_err().to_string();
        let (one, zero_one) = (dir.path().join("test1.txt"), dir.path().join("test01.txt"));
        assert_eq!(err, format!("{} and {}: both are test 1: keep one of them", zero_one.display(), one.display()));
        std::fs::remove_file(&zero_one).unwrap();
        let tests: Vec<usize> = discover(dir.path()).unwrap().iter().map(|t| t.number).collect();
        assert_eq!(tests, [1, 2], "the control");
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
