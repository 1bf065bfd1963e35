//! `results.jsonl`: one line per finished match, appended and synced as each match ends.
//! A torn last line (a crash mid-write) is detected and discarded, never misread. A shard of
//! a league writes a file of its own (`results.shard-K-of-N.jsonl`), so that shards sharing a
//! folder never write the same file; readers take every results file of a folder.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::schedule::Shard;
use super::TournamentError;
use crate::files::write_atomic;

/// The file name inside a tournament folder.
pub const RESULTS_FILE: &str = "results.jsonl";

pub use crate::standings::ResultLine;

/// The results files of `dir`: `results.jsonl` first, then each shard's
/// (`results.shard-K-of-N.jsonl`, [`Shard::results_file`]), by name. Nothing else is: a
/// `results.backup.jsonl` or `results.shard-1-of-4 (copy).jsonl` is no file the arena wrote,
/// and its lines are nobody's ([`strays`] names them).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut shards: Vec<PathBuf> = named_results(dir)
        .into_iter()
        .filter(|p| p.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file).is_some())
        .collect();
    shards.sort();
    let main = dir.join(RESULTS_FILE);
    let mut out = Vec::new();
    if main.exists() {
        out.push(main);
    }
    out.extend(shards);
    out
}

/// The files of `dir` named like results (`results.*.jsonl`) that are no results file of the
/// arena's ([`files`]): left unread, for a merge to name.
pub fn strays(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = named_results(dir)
        .into_iter()
        .filter(|p| p.file_name().and_then(|n| n.to_str()).and_then(Shard::of_results_file).is_none())
        .collect();
    out.sort();
    out
}

/// The entries of `dir` named `results.*.jsonl` but `results.jsonl`.
fn named_results(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n != RESULTS_FILE && n.starts_with("results.") && n.ends_with(".jsonl"))
        })
        .collect()
}

/// Every complete result line of every results file in `dir`, file by file.
pub fn read_all(dir: &Path) -> Result<Vec<ResultLine>, TournamentError> {
    Ok(read_all_counting(dir)?.0)
}

/// [`read_all`], with how many lines of the files were skipped as no result lines (each named
/// by a warning): the standings a reader makes of the rest leave their matches out.
pub fn read_all_counting(dir: &Path) -> Result<(Vec<ResultLine>, usize), TournamentError> {
    warn_of_strays(dir);
    let mut lines = Vec::new();
    let mut skipped = 0;
    for path in files(dir) {
        let (read, _, not_results) = counted_lines_of(&path, complete_part(&path)?);
        lines.extend(read);
        skipped += not_results;
    }
    Ok((lines, skipped))
}

/// Warns, once per file and process, of each file of `dir` named like results that is left
/// unread ([`strays`]): a teacher who kept `results.backup.jsonl`, or renamed the results file,
/// learns why its matches do not count (a merge refuses them instead, with the same words).
fn warn_of_strays(dir: &Path) {
    static WARNED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for stray in strays(dir) {
        if !warned.contains(&stray) {
            tracing::warn!("{}", stray_message(dir, &stray, "left unread, none of its matches counts"));
            warned.push(stray);
        }
    }
}

/// What a results file `stray` of `dir` is not, and what is done with it (`done`), with what
/// the teacher can do.
pub fn stray_message(dir: &Path, stray: &Path, done: &str) -> String {
    let name = stray.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!(
        "{}: {}: not a results file an arena run writes (results.jsonl, or a shard's \
         results.shard-K-of-N.jsonl): {done}; remove it, or rename it if it holds a shard's results",
        crate::safe_text::terminal_line(&dir.display().to_string()),
        crate::safe_text::terminal_line(&name)
    )
}

/// Reads every complete line of the results file `path` (none if it does not exist).
/// Returns the lines and the byte length of the complete part; a final line without its
/// newline is torn and left out. A line that is not a result (corrupted, written by something
/// else, or not a result of its own players: see [`sound`]) is skipped with a warning naming
/// the file and the line: its match, if any, is played again.
pub fn read_file(path: &Path) -> Result<(Vec<ResultLine>, u64), TournamentError> {
    lines_of(path, complete_part(path)?)
}

/// [`read_file`] for a results file of the league's folder named by `--league` or of OUT,
/// which shards' machines may write (the shared folder's flow): not through a link at its last
/// part (a link to another league's results, or to `/etc/shadow`, is an error saying so), at
/// most [`MAX_RESULTS_BYTES`]. A hard link is read: a teacher's `cp -al` backup gives every
/// file two names, and with `fs.protected_hardlinks=1` one planted there links only a file its
/// maker could read already.
pub fn read_own_file(path: &Path) -> Result<(Vec<ResultLine>, u64), TournamentError> {
    read_regular(path, crate::files::read_own_regular)
}

/// [`read_own_file`] for a results file of a shard's folder: no hard link either
/// ([`crate::files::check_foreign_file`]).
pub fn read_foreign_file(path: &Path) -> Result<(Vec<ResultLine>, u64), TournamentError> {
    read_regular(path, crate::files::read_foreign_regular)
}

/// The results file `path`, its bytes read by `read` (at most [`MAX_RESULTS_BYTES`]).
fn read_regular(
    path: &Path,
    read: fn(&Path, u64) -> std::io::Result<Vec<u8>>,
) -> Result<(Vec<ResultLine>, u64), TournamentError> {
    let part = match read(path, MAX_RESULTS_BYTES) {
        Ok(bytes) => split_torn(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), 0),
        Err(e) => return Err(TournamentError::io(path, e)),
    };
    lines_of(path, part)
}

/// The largest results file read (a league of 100,000 matches writes about 100 MiB).
pub const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// The result lines of `bytes` (the complete part of the results file `path`, with how many
/// bytes of a torn last line followed it).
fn lines_of(path: &Path, part: (Vec<u8>, usize)) -> Result<(Vec<ResultLine>, u64), TournamentError> {
    let (lines, len, _) = counted_lines_of(path, part);
    Ok((lines, len))
}

/// [`lines_of`], with how many lines were skipped as no result lines.
fn counted_lines_of(path: &Path, (bytes, torn): (Vec<u8>, usize)) -> (Vec<ResultLine>, u64, usize) {
    if torn > 0 {
        tracing::warn!(file = %path.display(), bytes = torn, "discarding a torn last line");
    }
    let (lines, skipped) = parse_lines(&bytes);
    if let Some(warning) = skipped_warning(path, &skipped) {
        tracing::warn!("{warning}");
    }
    (lines, bytes.len() as u64, skipped.len())
}

/// The longest line a results file may hold: a result line of six players with their versions
/// takes a few KiB. A longer one is skipped unread (a shard's folder held one of 100 MB, whose
/// key the merge then printed, twice, at 600 MB of memory).
pub(super) const MAX_LINE_BYTES: usize = 1 << 20;

/// The result lines of `bytes`, and the lines skipped (each its number and why).
fn parse_lines(bytes: &[u8]) -> (Vec<ResultLine>, Vec<(usize, String)>) {
    let mut lines = Vec::new();
    let mut skipped: Vec<(usize, String)> = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.len() > MAX_LINE_BYTES {
            skipped.push((i + 1, format!("longer than {} KiB, as no result line is", MAX_LINE_BYTES >> 10)));
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<ResultLine>(line) {
            // (Why, as safe text and cut: serde's error, and the key or replay a line names,
            // quote the file's bytes, which a shard's folder merged chose.)
            Ok(parsed) => match sound(&parsed) {
                Ok(()) => lines.push(parsed),
                Err(why) => skipped.push((i + 1, crate::safe_text::terminal_cut(&why, SKIPPED_CHARS))),
            },
            Err(e) => skipped.push((i + 1, crate::safe_text::terminal_cut(&e.to_string(), SKIPPED_CHARS))),
        }
    }
    (lines, skipped)
}

/// The most characters of why a line is skipped a warning says.
const SKIPPED_CHARS: usize = 300;

/// How many skipped lines of a file a warning names (it counts them all).
const SKIPPED_SHOWN: usize = 3;

/// The one warning of the lines of the results file `path` skipped as no result lines (each
/// its line number and why), if any: a file of hundreds of them (lines naming `../` files, say)
/// printed a warning a line.
fn skipped_warning(path: &Path, skipped: &[(usize, String)]) -> Option<String> {
    let each = skipped.iter().map(|(n, why)| format!("{}:{n}: {why}", path.display()));
    match skipped.len() {
        0 => None,
        1 => Some(format!("{}:{}: not a result line, skipped: {}", path.display(), skipped[0].0, skipped[0].1)),
        n => Some(format!(
            "{}: {n} lines are not result lines, skipped: {}",
            path.display(),
            first_few(each, n, SKIPPED_SHOWN)
        )),
    }
}

/// The first `shown` of the `total` items of `each`, joined by "; ", then "; and N more": one
/// message for many lines of a file (a warning, a refusal) names a few and counts the rest.
pub(super) fn first_few(each: impl Iterator<Item = String>, total: usize, shown: usize) -> String {
    let mut text = each.take(shown).collect::<Vec<_>>().join("; ");
    let more = total.saturating_sub(shown);
    if more > 0 {
        text.push_str(&format!("; and {more} more"));
    }
    text
}

/// The bytes of the results file `path` (a plain file: see [`crate::files::read_regular`], at
/// most [`MAX_RESULTS_BYTES`]) up
/// to its last newline, none if it does not exist, and how many bytes of a torn last line
/// follow them.
pub(crate) fn complete_part(path: &Path) -> Result<(Vec<u8>, usize), TournamentError> {
    match crate::files::read_regular_capped(path, MAX_RESULTS_BYTES) {
        Ok(bytes) => Ok(split_torn(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Vec::new(), 0)),
        Err(e) => Err(TournamentError::io(path, e)),
    }
}

/// [`complete_part`], the file of the league's folder or OUT read as a file of its own, not
/// through a link at its last part ([`crate::files::read_own_regular`]): an error saying so, its
/// target never read (in the shared folder's flow a shard's machine writes the folder). A hard
/// link is read, as every file of the league's folder and OUT (a teacher's `cp -al` backup).
pub(crate) fn own_complete_part(path: &Path) -> Result<(Vec<u8>, usize), TournamentError> {
    match crate::files::read_own_regular(path, MAX_RESULTS_BYTES) {
        Ok(bytes) => Ok(split_torn(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Vec::new(), 0)),
        Err(e) => Err(TournamentError::io(path, e)),
    }
}

/// `bytes` up to their last newline, and how many bytes of a torn last line followed.
fn split_torn(mut bytes: Vec<u8>) -> (Vec<u8>, usize) {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = bytes.len() - complete;
    bytes.truncate(complete);
    (bytes, torn)
}

/// Checks what a result line says that no reader may take on trust: the files it names are its
/// folder's own ([`own_files`]), and its result is its seats' ([`ResultLine::seats_problem`]:
/// a winner of no seat counted as a loss for both, or stopped `arena leaderboard` with a panic).
fn sound(line: &ResultLine) -> Result<(), String> {
    own_files(line)?;
    line.seats_problem().map_or(Ok(()), Err)
}

/// Checks that the files a result line names are its folder's own: its key is a plain file
/// name (it names the match's log, `logs/KEY.log`) and its replay is a file of `replays/`.
/// A line naming `../../x` would make a merge copy files from outside a folder to outside
/// another.
fn own_files(line: &ResultLine) -> Result<(), String> {
    use std::path::Component;
    let plain = |name: &str| {
        let mut parts = Path::new(name).components();
        !name.contains('/') && matches!((parts.next(), parts.next()), (Some(Component::Normal(_)), None))
    };
    if !plain(&line.key) {
        return Err(format!("its key `{}` is not a plain file name", line.key.escape_debug()));
    }
    let in_replays = line.replay.strip_prefix("replays/").is_some_and(plain);
    if !in_replays {
        return Err(format!("its replay `{}` is not a file of replays/", line.replay.escape_debug()));
    }
    Ok(())
}

/// The results file open for appending.
pub struct ResultsWriter {
    path: PathBuf,
    file: File,
}

impl ResultsWriter {
    /// Opens the results file `path` for appending after cutting it to `valid_len` bytes (which
    /// drops a torn last line).
    pub fn open(path: &Path, valid_len: u64) -> Result<Self, TournamentError> {
        let path = path.to_path_buf();
        let file =
            OpenOptions::new().create(true).append(true).open(&path).map_err(|e| TournamentError::io(&path, e))?;
        file.set_len(valid_len).map_err(|e| TournamentError::io(&path, e))?;
        // (Its name too, when the file was just made.)
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::files::sync_dir(dir).map_err(|e| TournamentError::io(dir, e))?;
        }
        Ok(ResultsWriter { path, file })
    }

    /// Appends one line and syncs it to disk.
    pub fn append(&mut self, line: &ResultLine) -> Result<(), TournamentError> {
        let mut text = serde_json::to_string(line).map_err(|e| TournamentError::Invalid(e.to_string()))?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| TournamentError::io(&self.path, e))
    }
}

/// Replaces the results file `path` with `lines`, atomically.
pub fn rewrite(path: &Path, lines: &[ResultLine]) -> Result<u64, TournamentError> {
    let mut text = String::new();
    for line in lines {
        text.push_str(&serde_json::to_string(line).map_err(|e| TournamentError::Invalid(e.to_string()))?);
        text.push('\n');
    }
    write_atomic(path, text.as_bytes()).map_err(|e| TournamentError::io(path, e))?;
    Ok(text.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A results file that is a FIFO is an error at once, naming it (`arena leaderboard`, a
    /// resume and a merge of the folder waited for a writer forever); the reader is let go by
    /// a writer if it waits (the old defect, the test then failing). The control: the same
    /// path as a plain file reads.
    #[test]
    fn a_fifo_results_file_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join(RESULTS_FILE);
        let err = crate::files::tests::fifo_read_error(&fifo, |p| read_file(p).map_err(|e| e.to_string()));
        assert!(err.ends_with("results.jsonl: not a regular file"), "{err}");
        std::fs::remove_file(&fifo).unwrap();
        rewrite(&fifo, &[line("k1")]).unwrap();
        assert_eq!(read_file(&fifo).unwrap().0, [line("k1")], "the control");
    }
    /// A results file of hundreds of lines that are no result lines (each naming a replay
    /// outside `replays/`) gives one warning, counting them and naming the first few; one such
    /// line, the warning it always gave. The control: every line is skipped, none read.
    #[test]
    fn a_file_of_many_bad_lines_gives_one_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RESULTS_FILE);
        let bad: Vec<ResultLine> =
            (0..300).map(|i| ResultLine { replay: format!("../evil-{i}.json.gz"), ..line(&format!("k{i}")) }).collect();
        rewrite(&path, &bad).unwrap();
        let (read, _) = read_file(&path).unwrap();
        assert!(read.is_empty(), "the control: every line skipped");
        let skipped: Vec<(usize, String)> = (1..=300).map(|n| (n, format!("why {n}"))).collect();
        let warning = skipped_warning(&path, &skipped).unwrap();
        let p = path.display();
        assert_eq!(
            warning,
            format!(
                "{p}: 300 lines are not result lines, skipped: {p}:1: why 1; {p}:2: why 2; {p}:3: why 3; and 297 more"
            )
        );
        assert_eq!(skipped_warning(&path, &skipped[..1]).unwrap(), format!("{p}:1: not a result line, skipped: why 1"));
        assert_eq!(skipped_warning(&path, &[]), None);
    }

    /// A line longer than any result line (a key of megabytes) is skipped unread, said so; the
    /// control: the same line with a key of a usual length is read.
    #[test]
    fn a_line_longer_than_any_result_line_is_skipped_unread() {
        let text = |key: &str| serde_json::to_string(&line(key)).unwrap() + "\n";
        let (read, skipped) = parse_lines(text(&"k".repeat(MAX_LINE_BYTES)).as_bytes());
        assert!(read.is_empty(), "{read:?}");
        assert_eq!(skipped, [(1, "longer than 1024 KiB, as no result line is".to_string())]);
        let (read, skipped) = parse_lines(text("k1").as_bytes());
        assert_eq!((read.len(), skipped.len()), (1, 0), "the control: {skipped:?}");
    }

    /// Why a line is skipped, where it quotes the line (serde's error on a value, a key or a
    /// replay that is no file of the folder's), is safe text, cut: a shard's results file whose
    /// line holds a value of hundreds of KiB no longer prints it whole on the teacher's terminal.
    /// The control: serde's own error quotes the value whole.
    #[test]
    fn why_a_line_is_skipped_is_safe_text_and_cut() {
        let evil = format!("\u{1b}]0;owned\u{7}\u{1b}[2J{}", "A".repeat(100_000));
        let mut value = serde_json::to_value(line("k1")).unwrap();
        value["result"]["winner"] = serde_json::Value::from(evil.clone());
        let (_, skipped) = parse_lines(format!("{value}\n").as_bytes());
        let outside = serde_json::to_string(&line(&format!("../{evil}"))).unwrap();
        let (_, unreplayed) = parse_lines(format!("{outside}\n").as_bytes());
        assert_eq!((skipped.len(), unreplayed.len()), (1, 1));
        for (_, why) in skipped.iter().chain(&unreplayed) {
            assert!(why.contains("2JAAA") && why.ends_with("more characters]"), "{why}");
            assert!(!why.chars().any(crate::safe_text::is_unsafe) && why.chars().count() < 400, "{}", why.len());
        }
        let raw = serde_json::from_str::<ResultLine>(&value.to_string()).unwrap_err().to_string();
        assert!(raw.len() > 100_000, "the control: {}", raw.len());
    }

    use crate::replay::{MatchResult, PlayerResult};

    fn line(key: &str) -> ResultLine {
        ResultLine {
            key: key.to_string(),
            seats: vec!["a".into(), "b".into()],
            map: "m.txt".into(),
            game: 1,
            seed: 3,
            steps: 10,
            replay: format!("replays/{key}.json"),
            versions: Vec::new(),
            ended_at: Vec::new(),
            at: 0,
            result: MatchResult {
                players: vec![
                    PlayerResult { name: "a".into(), score: 5, finished: true, forfeit: None, detail: None },
                    PlayerResult {
                        name: "b".into(),
                        score: 0,
                        finished: false,
                        forfeit: Some("crash".into()),
                        detail: None,
                    },
                ],
                winner: Some(0),
            },
            forfeits: Vec::new(),
        }
    }

    #[test]
    fn appended_lines_read_back_and_a_torn_tail_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RESULTS_FILE);
        let mut w = ResultsWriter::open(&path, 0).unwrap();
        w.append(&line("k1")).unwrap();
        w.append(&line("k2")).unwrap();
        drop(w);
        let full = std::fs::read(&path).unwrap();
        // Simulate a crash in the middle of writing a third line.
        let mut torn = full.clone();
        torn.extend_from_slice(&serde_json::to_vec(&line("k3")).unwrap()[..40]);
        std::fs::write(&path, &torn).unwrap();
        let (lines, len) = read_file(&path).unwrap();
        assert_eq!(lines.iter().map(|l| l.key.as_str()).collect::<Vec<_>>(), ["k1", "k2"]);
        assert_eq!(len, full.len() as u64);
        // Even a complete JSON value without its newline counts as torn.
        let mut unterminated = full.clone();
        unterminated.extend_from_slice(&serde_json::to_vec(&line("k3")).unwrap());
        std::fs::write(&path, &unterminated).unwrap();
        assert_eq!(read_file(&path).unwrap().0.len(), 2);
        // Reopening cuts the torn part, so the next append starts on a fresh line.
        let mut w = ResultsWriter::open(&path, len).unwrap();
        w.append(&line("k4")).unwrap();
        let keys: Vec<String> = read_file(&path).unwrap().0.into_iter().map(|l| l.key).collect();
        assert_eq!(keys, ["k1", "k2", "k4"]);
    }

    #[test]
    fn a_line_that_is_not_a_result_is_skipped_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let good = serde_json::to_string(&line("k1")).unwrap();
        let text = format!("{good}\n{{oops\n{{\"forged\": true}}\n{good}\n");
        std::fs::write(dir.path().join(RESULTS_FILE), &text).unwrap();
        let (lines, len) = read_file(&dir.path().join(RESULTS_FILE)).unwrap();
        assert_eq!(lines, vec![line("k1"), line("k1")], "the good lines (duplicates are the caller's to drop)");
        assert_eq!(len, text.len() as u64);
    }

    #[test]
    fn a_line_naming_files_outside_its_folder_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let mut lines = vec![line("k1")];
        for (key, replay) in [
            ("../../x", "replays/k.json.gz"),
            ("a/b", "replays/k.json.gz"),
            ("..", "replays/k.json.gz"),
            ("", "replays/k.json.gz"),
            ("k2", "../../k2.json.gz"),
            ("k2", "replays/../../k2.json.gz"),
            ("k2", "/tmp/k2.json.gz"),
            ("k2", "replays/sub/k2.json.gz"),
            ("k2", "replays/"),
            ("k2", "logs/k2.json.gz"),
        ] {
            lines.push(ResultLine { key: key.into(), replay: replay.into(), ..line("k") });
        }
        rewrite(&dir.path().join(RESULTS_FILE), &lines).unwrap();
        let keys: Vec<String> = read_all(dir.path()).unwrap().into_iter().map(|l| l.key).collect();
        assert_eq!(keys, ["k1"], "only the line naming its own files");
    }

    /// A line whose winner is no seat of its players (seat 5 of two) is skipped like any line
    /// that is not a result: `arena leaderboard` counted it as a loss for both, and, with a
    /// forfeit in it, panicked. So is one whose result has a player more than its seats, the
    /// winner being that one (seat 2 of two seats: it was counted as a loss for both seats).
    /// The control: the same lines with their winner in range, or without the extra player.
    #[test]
    fn a_line_whose_winner_is_no_seat_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let with_winner = |key: &str, winner: Option<usize>| {
            let mut l = line(key);
            l.result.winner = winner;
            l
        };
        let with_a_third_player = |key: &str, winner: Option<usize>| {
            let mut l = with_winner(key, winner);
            let third = PlayerResult { name: "c".into(), score: 9, finished: true, forfeit: None, detail: None };
            l.result.players.push(third);
            l
        };
        let lines = [
            with_winner("k1", Some(1)),
            with_winner("k2", Some(2)),
            with_winner("k3", Some(5)),
            with_winner("k4", None),
            with_a_third_player("k5", Some(2)),
            with_a_third_player("k6", Some(0)),
        ];
        rewrite(&dir.path().join(RESULTS_FILE), &lines).unwrap();
        let keys: Vec<String> = read_all(dir.path()).unwrap().into_iter().map(|l| l.key).collect();
        assert_eq!(keys, ["k1", "k4"], "seat 1 of two and a draw are read (the control); the others are not");
        assert!(sound(&lines[2]).unwrap_err().contains("seat 5"), "the warning says which seat");
        assert_eq!(sound(&lines[4]).unwrap_err(), "its result has 3 players for its 2 seats");
        let mut two = lines[4].clone();
        two.result.players.pop();
        assert_eq!(sound(&two), Err("its winner, seat 2, is none of its 2 players' seats (counted from 0)".into()));
        two.result.winner = Some(1);
        assert_eq!(sound(&two), Ok(()), "the control: without the third player, and a winner of its seats");
    }

    #[test]
    fn rewrite_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RESULTS_FILE);
        rewrite(&path, &[line("a"), line("b")]).unwrap();
        rewrite(&path, &[line("b")]).unwrap();
        assert_eq!(read_all(dir.path()).unwrap(), vec![line("b")]);
    }

    #[test]
    fn every_results_file_of_a_folder_is_read_main_first() {
        let dir = tempfile::tempdir().unwrap();
        rewrite(&dir.path().join("results.shard-2-of-2.jsonl"), &[line("c")]).unwrap();
        rewrite(&dir.path().join("results.shard-1-of-2.jsonl"), &[line("b")]).unwrap();
        rewrite(&dir.path().join(RESULTS_FILE), &[line("a")]).unwrap();
        std::fs::write(dir.path().join("results.txt"), "not a results file").unwrap();
        let keys: Vec<String> = read_all(dir.path()).unwrap().into_iter().map(|l| l.key).collect();
        assert_eq!(keys, ["a", "b", "c"]);
        // A file named like results that no run writes is read by none (the control: the same
        // lines under a shard's name are), and named as a stray.
        for stray in ["results.backup.jsonl", "results.shard-1-of-2 (copy).jsonl", "results.shard-3-of-2.jsonl"] {
            rewrite(&dir.path().join(stray), &[line("d")]).unwrap();
        }
        let keys: Vec<String> = read_all(dir.path()).unwrap().into_iter().map(|l| l.key).collect();
        assert_eq!(keys, ["a", "b", "c"]);
        let names: Vec<String> =
            strays(dir.path()).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["results.backup.jsonl", "results.shard-1-of-2 (copy).jsonl", "results.shard-3-of-2.jsonl"]);
        rewrite(&dir.path().join("results.shard-2-of-3.jsonl"), &[line("d")]).unwrap();
        assert_eq!(read_all(dir.path()).unwrap().len(), 4, "the control");
    }
}
