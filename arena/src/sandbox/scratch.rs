//! The scratch folders of plain bots and builds (no box: `--sandbox plain`, or `auto` where none
//! can be made): a folder of each process's own, its `HOME` and `TMPDIR`, which Landlock lets it
//! write and no other bot reach (see `confine`). A box's bot has a tmpfs of `tmp_mb` instead.
//!
//! Each run's scratch folders are in one folder of the run's own, `$TMPDIR/arena-scratch-XXXXXX`
//! (or in `/tmp`, where others may replace what is made in `$TMPDIR`, or a root arena's bots,
//! each a user of its own, could not reach it), holding a lock file the run holds while it lives:
//! a folder is removed when its bot or build ends, the run's folder when the run does, and what an
//! arena killed with `kill -9` left (whose lock no one holds) by the next run that makes its own.
//!
//! Unlike a box's tmpfs, a scratch folder is on the machine's disk and has no size of its own:
//! each file is capped (`RLIMIT_FSIZE`, `file_size_mb`), not their sum, nor how many there are.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How a run's folder is named in the temporary folder.
const PREFIX: &str = "arena-scratch-";

/// The lock file in a run's folder, held while its run lives.
const LOCK: &str = ".lock";

/// How old a run's folder without a lock file must be to be taken for one left behind (its
/// arena died between making it and locking it): a new one is locked a moment after it is made.
const UNLOCKED_STALE: Duration = Duration::from_secs(3600);

/// The folder of a run's scratch folders (see the module's documentation), removed when the last
/// of them, and the run, are done with it.
#[derive(Debug)]
pub(super) struct RunFolder {
    path: PathBuf,
    _lock: File,
}

/// A scratch folder of one process, removed (all it holds) when dropped.
#[derive(Debug)]
pub(super) struct Scratch {
    path: PathBuf,
    /// Its run's folder, kept while it is.
    _run: Arc<RunFolder>,
}

impl RunFolder {
    /// Makes a run's folder, in `$TMPDIR` or `/tmp` (see [`base`]), after removing those of runs
    /// that are gone. `others_enter`: a root arena's bots, users of their own, must pass through
    /// it to their folders (mode 0711: none may list it; 0700 otherwise).
    pub(super) fn make(others_enter: bool) -> std::io::Result<RunFolder> {
        let base = base(others_enter)?;
        sweep(&base);
        RunFolder::make_in(&base, if others_enter { 0o711 } else { 0o700 })
    }

    /// A run's folder of `mode` in `base`, locked.
    fn make_in(base: &Path, mode: u32) -> std::io::Result<RunFolder> {
        let dir = tempfile::Builder::new()
            .prefix(PREFIX)
            .permissions(std::fs::Permissions::from_mode(mode))
            .tempdir_in(base)?;
        // (Made with the mode asked for, under the umask: set again.)
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(mode))?;
        // Locked under another name, then named `.lock`: another run's sweep never finds it
        // unlocked (between making and locking it, it would have taken the folder for a dead
        // run's and removed it).
        let unnamed = dir.path().join(".lock-new");
        let lock = std::fs::OpenOptions::new()
            .create_new(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&unnamed)?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        std::fs::rename(&unnamed, dir.path().join(LOCK))?;
        Ok(RunFolder { path: dir.keep(), _lock: lock })
    }

    /// The path of the run's folder.
    #[cfg(test)]
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunFolder {
    fn drop(&mut self) {
        remove_all(&self.path);
    }
}

impl Scratch {
    /// A new scratch folder in `run` (named `<what>-XXXXXX`, mode 0700), given to `owner` (uid,
    /// gid) where a root arena runs the process as another user.
    pub(super) fn make(run: &Arc<RunFolder>, what: &str, owner: Option<(u32, u32)>) -> std::io::Result<Scratch> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{what}-"))
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir_in(&run.path)?;
        let scratch = Scratch { path: dir.keep(), _run: Arc::clone(run) };
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::lchown(&scratch.path, Some(uid), Some(gid))?;
        }
        Ok(scratch)
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        remove_all(&self.path);
    }
}

/// Where a run's folder is made: `$TMPDIR`, unless others may replace what is made there (not
/// sticky, as `/tmp` is), or `others_enter` (a root arena's bots) and some user cannot pass
/// through it (a `TMPDIR` of root's own, 0700): then `/tmp`.
fn base(others_enter: bool) -> std::io::Result<PathBuf> {
    let tmp = std::env::temp_dir();
    if super::safe_parent(&tmp).is_ok() && (!others_enter || all_may_enter(&tmp)) {
        return Ok(tmp);
    }
    let fallback = PathBuf::from("/tmp");
    super::safe_parent(&fallback).map_err(std::io::Error::other)?;
    Ok(fallback)
}

/// Whether every user may pass through `dir` and each folder above it (`o+x`).
fn all_may_enter(dir: &Path) -> bool {
    dir.ancestors().all(|d| std::fs::metadata(d).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// Removes the run folders in `base` whose run is gone: their lock is held by no one (the arena
/// that made it was killed), or, without one, they are older than [`UNLOCKED_STALE`]. Only this
/// user's folders, never through a link.
pub(super) fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else { return };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    for entry in entries.filter_map(Result::ok) {
        if !entry.file_name().to_str().is_some_and(|n| n.starts_with(PREFIX)) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let lock = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path.join(LOCK));
        let gone = match lock {
            // SAFETY: flock on a descriptor we own (held until the folder is removed).
            Ok(file) => {
                file.metadata().is_ok_and(|m| m.is_file())
                    && unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                meta.modified().ok().and_then(|t| t.elapsed().ok()).is_some_and(|age| age > UNLOCKED_STALE)
            }
            Err(_) => false,
        };
        if gone {
            tracing::debug!("removing {}, the scratch folders of a run that is gone", path.display());
            remove_all(&path);
        }
    }
}

/// Removes `path` and all it holds, where a process left folders its owner may not write or
/// enter (`mkdir` with mode 0) too: their modes are given back first. What cannot be removed is
/// logged.
pub(super) fn remove_all(path: &Path) {
    if std::fs::remove_dir_all(path).is_ok() || !path.exists() {
        return;
    }
    // (Without following links; breadth first, without recursion: a bot may nest deep.)
    let mut todo = vec![path.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.filter_map(Result::ok) {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(entry.path());
            }
        }
    }
    if let Err(e) = std::fs::remove_dir_all(path) {
        tracing::warn!("a scratch folder could not be removed: {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs that start while others sweep lose nothing: a run's folder is never seen unlocked
    /// (locked under another name first: made, then locked, it was taken for a dead run's in
    /// between and removed, and the run failed to give its bot a scratch folder).
    #[test]
    fn a_run_starting_while_others_sweep_keeps_its_folder() {
        let base = tempfile::tempdir().unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        let failures = std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    sweep(base.path());
                }
            });
            let runs: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        let start = || Scratch::make(&Arc::new(RunFolder::make_in(base.path(), 0o700)?), "bot", None);
                        (0..300).filter_map(|_| start().err()).map(|e| e.to_string()).collect::<Vec<_>>()
                    })
                })
                .collect();
            let failures: Vec<String> = runs.into_iter().flat_map(|r| r.join().unwrap_or_default()).collect();
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            failures
        });
        assert!(failures.is_empty(), "{} of 900 runs lost their folder: {:?}", failures.len(), failures.first());
    }

    /// A run's folder left by an arena killed with `kill -9` (its lock held by no one) is removed
    /// by the next run, a folder its bot made unenterable (mode 0) too; one whose run lives (its
    /// lock held) is kept, as is what is not a run's folder. Each scratch folder goes when
    /// dropped, and the run's folder with the last of them.
    #[test]
    fn a_run_s_folder_goes_with_the_run_and_a_dead_run_s_with_the_next() {
        let base = tempfile::tempdir().unwrap();
        let stale = base.path().join(format!("{PREFIX}dead"));
        let locked = base.path().join(format!("{PREFIX}alive"));
        let other = base.path().join("arena-other");
        for dir in [&stale, &locked, &other] {
            std::fs::create_dir_all(dir.join("bot-x/deep")).unwrap();
            std::fs::write(dir.join(LOCK), "").unwrap();
        }
        std::fs::set_permissions(stale.join("bot-x"), std::fs::Permissions::from_mode(0o000)).unwrap();
        // The live run: its lock held, by another open file (as another arena would).
        let held = File::open(locked.join(LOCK)).unwrap();
        // SAFETY: flock on a descriptor we own.
        assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
        sweep(base.path());
        assert!(!stale.exists(), "the dead run's folder is removed");
        assert!(locked.join("bot-x/deep").exists(), "the live run's is kept");
        assert!(other.exists(), "what is not a run's folder is kept");
        // The control: once its run is gone (its lock let go), it is removed too.
        drop(held);
        sweep(base.path());
        assert!(!locked.exists(), "the control: removed once its lock is let go");

        let run = Arc::new(RunFolder::make(false).unwrap());
        let run_path = run.path().to_path_buf();
        assert_eq!(std::fs::metadata(&run_path).unwrap().mode() & 0o777, 0o700);
        let scratch = Scratch::make(&run, "bot", None).unwrap();
        let path = scratch.path().to_path_buf();
        assert!(path.starts_with(&run_path) && path.is_dir());
        std::fs::create_dir_all(path.join("a/b")).unwrap();
        std::fs::set_permissions(path.join("a"), std::fs::Permissions::from_mode(0o000)).unwrap();
        // While the run lives, another run's sweep keeps it.
        sweep(run_path.parent().unwrap());
        assert!(path.is_dir(), "a live run's scratch is kept by another's sweep");
        drop(run);
        assert!(run_path.is_dir(), "kept while a scratch folder is");
        drop(scratch);
        assert!(!path.exists() && !run_path.exists(), "both gone");
    }
}
