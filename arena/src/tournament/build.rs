//! Building bots: each build command runs once, in a box of its own (the bot's folder
//! writable, the Rust toolchains visible read-only, no network), under a wall-clock limit and
//! a cap on the disk it fills (its folder's growth and its log). Its whole output is kept in a
//! log file; what went wrong is summed up from the log's first
//! error line, not its last lines (which are make's "Error 1" and caret lines).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::sandbox::{Launch, Sandbox, EXIT_GRACE};

/// What a build may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildLimits {
    /// Wall time.
    pub timeout: Duration,
    /// Disk it may fill: what the bot's folder grows by (allocated blocks) and its log together.
    pub disk_bytes: u64,
}

/// Files and folders a build may add to its folder: past this many, it is ended (a folder of
/// millions of empty files fills a disk's inodes, and takes long to walk).
const MAX_NEW_ENTRIES: u64 = 200_000;
/// How often a running build's disk use is measured.
const DISK_EVERY: Duration = Duration::from_millis(250);

/// How one build went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildOutcome {
    /// `None` when it succeeded, else why not (one line).
    pub problem: Option<String>,
    /// The full log (stdout and stderr), relative to the tournament folder.
    pub log: String,
    /// Files the build created or changed in the bot's folder (relative to it): build outputs,
    /// which the bot's fingerprint leaves out.
    pub outputs: Vec<String>,
}

/// Runs `build` (a shell command) in `folder` in a box, within `limits`, writing its whole
/// output to `out/log`. Never fails: a build that cannot start, fails, times out or fills too
/// much disk is an outcome with a problem.
pub fn run(sandbox: &Sandbox, build: &str, folder: &Path, limits: BuildLimits, out: &Path, log: &str) -> BuildOutcome {
    tracing::info!(build, folder = %folder.display(), "building");
    let before = super::submission::stamp(folder);
    let log_path = out.join(log);
    let problem = run_boxed(sandbox, build, folder, limits, &log_path).err();
    let after = super::submission::stamp(folder);
    let outputs = super::submission::changed(&before, &after);
    BuildOutcome { problem, log: log.to_string(), outputs }
}

fn run_boxed(
    sandbox: &Sandbox,
    build: &str,
    folder: &Path,
    limits: BuildLimits,
    log_path: &Path,
) -> Result<(), String> {
    if let Some(dir) = log_path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot write the build log {}: {e}", log_path.display()))?;
    }
    let log = std::fs::File::create(log_path)
        .map_err(|e| format!("cannot write the build log {}: {e}", log_path.display()))?;
    let err_log = log.try_clone().map_err(|e| format!("build log: {e}"))?;
    let words = ["sh".to_string(), "-c".to_string(), build.to_string()];
    let launch = Launch { words: &words, folder: Some(folder), env: &[], build: true };
    let (mut command, mut handle) =
        sandbox.command(&launch).map_err(|e| format!("build `{build}` could not start: {e}"))?;
    command.stdin(std::process::Stdio::null()).stdout(log).stderr(err_log);
    let base = disk_use(folder, u64::MAX);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            handle.release();
            return Err(format!("build `{build}` could not start: {e}"));
        }
    };
    handle.started(child.id());
    let start = Instant::now();
    // What the build filled past its limits, if it did.
    let filled = || {
        let (bytes, entries) = disk_use(folder, base.1 + MAX_NEW_ENTRIES);
        let log = std::fs::metadata(log_path).map_or(0, |m| m.len());
        if bytes.saturating_sub(base.0).saturating_add(log) > limits.disk_bytes {
            Some(format!("filled more than {} MiB of disk (its folder and its log)", limits.disk_bytes >> 20))
        } else if entries > base.1 + MAX_NEW_ENTRIES {
            Some(format!("made more than {MAX_NEW_ENTRIES} files and folders"))
        } else {
            None
        }
    };
    let mut measured = start;
    let status = loop {
        let over = if measured.elapsed() >= DISK_EVERY {
            measured = Instant::now();
            filled()
        } else {
            None
        };
        match child.try_wait() {
            // (A build that ended is measured once more: it may have been quick.)
            Ok(Some(status)) => break filled().map_or(Ok(status), |why| Err(format!("build `{build}` {why}"))),
            Ok(None) if start.elapsed() >= limits.timeout || over.is_some() => {
                handle.kill();
                let asked = Instant::now();
                while matches!(child.try_wait(), Ok(None)) && asked.elapsed() < EXIT_GRACE {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let _ = child.kill();
                let _ = child.wait();
                let why = over.unwrap_or_else(|| format!("timed out after {} s", limits.timeout.as_secs()));
                break Err(format!("build `{build}` {why}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(25)),
            Err(e) => break Err(format!("build `{build}`: {e}")),
        }
    };
    handle.release();
    let text = String::from_utf8_lossy(&std::fs::read(log_path).unwrap_or_default()).into_owned();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("build `{build}` failed ({s}): {}", first_error(&text))),
        Err(why) => Err(format!("{why}: {}", first_error(&text))),
    }
}

/// The line of a build log that says what went wrong: the first line naming an error (a
/// compiler's `error:`, `Error`, `fatal`), else the last non-empty line; at most 300 bytes.
pub fn first_error(log: &str) -> String {
    let is_noise = |l: &str| l.contains("Error 1") || l.contains("***") && l.contains("make");
    let line = log
        .lines()
        .map(str::trim)
        .find(|l| {
            let lower = l.to_lowercase();
            !is_noise(l) && (lower.contains("error") || lower.contains("fatal") || lower.contains("not found"))
        })
        .or_else(|| log.lines().map(str::trim).rev().find(|l| !l.is_empty()))
        .unwrap_or("no output");
    let mut end = line.len().min(300);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].to_string()
}

/// Disk used under `dir` (allocated blocks; symbolic links not followed) and how many files
/// and folders are there, counting no further than `most` of them.
fn disk_use(dir: &Path, most: u64) -> (u64, u64) {
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(list) = std::fs::read_dir(&d) else { continue };
        for entry in list.flatten() {
            entries += 1;
            if entries > most {
                return (bytes, entries);
            }
            let Ok(meta) = entry.metadata() else { continue };
            bytes = bytes.saturating_add(std::os::unix::fs::MetadataExt::blocks(&meta).saturating_mul(512));
            if meta.is_dir() {
                todo.push(entry.path());
            }
        }
    }
    (bytes, entries)
}

/// Runs each distinct (build command, folder) once; returns each bot's outcome, by name.
pub fn build_all(
    sandbox: &Sandbox,
    bots: &[(String, String, PathBuf)],
    limits: BuildLimits,
    out: &Path,
    stamp: u64,
) -> BTreeMap<String, BuildOutcome> {
    let mut by_command: BTreeMap<(String, PathBuf), BuildOutcome> = BTreeMap::new();
    let mut outcomes = BTreeMap::new();
    for (name, build, folder) in bots {
        let key = (build.clone(), folder.clone());
        let outcome = by_command
            .entry(key)
            .or_insert_with(|| {
                let log = format!("builds/{}-{stamp}.log", crate::files::file_safe(name));
                run(sandbox, build, folder, limits, out, &log)
            })
            .clone();
        outcomes.insert(name.clone(), outcome);
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiler_error_is_picked_not_makes_last_words() {
        let log = "g++ -O2 -o bot bot.cpp\nbot.cpp: In function 'int main()':\nbot.cpp:3:5: error: 'foo' was not declared in this scope\n    3 |     foo();\n      |     ^~~\nmake: *** [Makefile:2: bot] Error 1\n";
        assert_eq!(first_error(log), "bot.cpp:3:5: error: 'foo' was not declared in this scope");
        assert_eq!(first_error("compiling\nsomething odd\n\n"), "something odd");
        assert_eq!(first_error(""), "no output");
    }
}
