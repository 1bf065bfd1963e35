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
//! A bot's scratch folder gets a tmpfs of `tmp_mb` mounted over it in its process's mount
//! namespace (see `super::mounts`), where the arena can make one: on the machine's disk, its
//! writes ended in interrupts its opponent's clock paid. A build's does where the temporary
//! folder is in memory (a tmpfs, as `/tmp` is on many systems), whose files no limit counts;
//! elsewhere it is on the machine's disk and has no size of its own: each file is capped
//! (`RLIMIT_FSIZE`, `file_size_mb`), not their sum, nor how many there are. Where the arena can
//! make no mount namespace and the folder is in memory, it says so among what is missing.

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
    // (Absolute: a bot runs in a folder of its own, its `HOME` read from there.)
    let tmp = std::path::absolute(std::env::temp_dir())?;
    if super::safe_parent(&tmp).is_ok() && (!others_enter || all_may_enter(&tmp)) {
        return Ok(tmp);
    }
    let fallback = PathBuf::from("/tmp");
    super::safe_parent(&fallback).map_err(std::io::Error::other)?;
    Ok(fallback)
}

/// Where a run's folder would be made (as [`base`]), if that is in memory (a tmpfs or a ramfs,
/// as `/tmp` is on many systems): there a scratch folder's files are memory no limit of its
/// bot's counts, unless a tmpfs of `tmp_mb` is mounted over it (see `super::mounts`).
pub(super) fn base_in_memory(others_enter: bool) -> Option<PathBuf> {
    base(others_enter).ok().filter(|b| in_memory(b))
}

/// Whether `path` is on a tmpfs or a ramfs (its files are memory).
pub(super) fn in_memory(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    const RAMFS_MAGIC: i64 = 0x8584_58f6;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return false };
    // SAFETY: a valid path and a zeroed statfs the call fills.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::statfs(c.as_ptr(), &mut fs) } != 0 {
        return false;
    }
    #[allow(clippy::unnecessary_cast)]
    let kind = fs.f_type as i64;
    kind == TMPFS_MAGIC || kind == RAMFS_MAGIC
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
        // (The lock, taken, is held until the folder is removed: another run's sweep leaves it.)
        let mut _held = None;
        let gone = match lock {
            // SAFETY: flock on a descriptor we own.
            Ok(file) => {
                let taken = file.metadata().is_ok_and(|m| m.is_file())
                    && unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
                _held = Some(file);
                taken
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

/// Removes `path` and all it holds, what cannot be removed logged. A process may have left
/// folders its owner may not write or enter (`mkdir` with mode 0): their modes are given back
/// first. Nothing is done by a path a process there could change: each folder is opened by its
/// descriptor's name, never through a link (a red team's build swapped a folder for a link while
/// a root arena gave modes back by path, and root made a folder outside 0700 and all below it);
/// and a deep tree is flattened as it goes, a few descriptors open whatever its depth (a bot
/// nested 1,100 folders, past the arena's open-files limit, and its scratch stayed for good).
pub(super) fn remove_all(path: &Path) {
    match remove_tree(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!("a scratch folder could not be removed: {}: {e}", path.display()),
    }
}

/// At most this many entries are removed or moved up by one [`remove_tree`]: a process still
/// writing there (none should be) cannot keep it going for ever.
const MOST_STEPS: u64 = 50_000_000;

/// See [`remove_all`]: each pass removes what `path` holds that is a file, a link or an empty
/// folder, and of each other folder there removes its files and moves its folders up into
/// `path`, until nothing is left.
fn remove_tree(path: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    let c_path = CString::new(path.as_os_str().as_encoded_bytes())?;
    let root = open_folder(libc::AT_FDCWD, &c_path)?;
    let (mut steps, mut moved, mut fruitless) = (0u64, 0u64, 0);
    loop {
        let (mut nested, mut progress) = (false, false);
        for name in names(&root)? {
            steps += 1;
            if steps > MOST_STEPS {
                return Err(std::io::Error::other("it keeps changing while it is removed"));
            }
            if unlink(&root, &name) {
                progress = true;
                continue;
            }
            nested = true;
            #[cfg(test)]
            tests::before_open(path, &name);
            // (Not a folder any more, or changed: the next pass sees what it is.)
            let Ok(dir) = open_folder(root.as_raw_fd(), &name) else { continue };
            for child in names(&dir)? {
                steps += 1;
                if unlink(&dir, &child) {
                    progress = true;
                    continue;
                }
                // A folder with entries, moved up a level under a name not taken (its mode
                // given back first: a folder moved needs its `..` written).
                drop(open_folder(dir.as_raw_fd(), &child));
                loop {
                    moved += 1;
                    let up = CString::new(format!(".up-{moved}"))?;
                    // SAFETY: both names are NUL-terminated; the descriptors are open folders.
                    let done = unsafe {
                        libc::renameat2(
                            dir.as_raw_fd(),
                            child.as_ptr(),
                            root.as_raw_fd(),
                            up.as_ptr(),
                            libc::RENAME_NOREPLACE,
                        )
                    };
                    if done == 0 {
                        progress = true;
                        break;
                    }
                    let e = std::io::Error::last_os_error();
                    if e.raw_os_error() != Some(libc::EEXIST) {
                        break;
                    }
                }
            }
        }
        if !nested {
            break;
        }
        // (A pass may find what changed under it, as a folder no longer one: it tries again.)
        fruitless = if progress { 0 } else { fruitless + 1 };
        if fruitless > 3 {
            return Err(std::io::Error::other("a folder there can be neither emptied nor moved"));
        }
    }
    drop(root);
    std::fs::remove_dir(path)
}

/// Opens the folder `name` in the folder `at` (or the working folder) without following a link,
/// giving its mode back (0700) where its owner may not read it.
fn open_folder(at: libc::c_int, name: &std::ffi::CStr) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let open = |flags| {
        // SAFETY: a NUL-terminated name; a descriptor given is ours, owned at once.
        let fd = unsafe { libc::openat(at, name.as_ptr(), flags) };
        // SAFETY: as above.
        (fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) }).ok_or_else(std::io::Error::last_os_error)
    };
    match open(flags) {
        Ok(dir) => {
            given_back_writable(&dir);
            return Ok(dir);
        }
        Err(e) if e.raw_os_error() != Some(libc::EACCES) => return Err(e),
        Err(_) => {}
    }
    // The folder itself, by a descriptor of its own (`O_PATH`), its mode given back by that
    // descriptor's name: the folder opened, whatever is named so by then.
    let path_fd = open(libc::O_PATH | flags)?;
    let own = format!("/proc/self/fd/{}", path_fd.as_raw_fd());
    std::fs::set_permissions(own, std::fs::Permissions::from_mode(0o700))?;
    open(flags)
}

/// The open folder `dir`, given back the mode 0700 where its owner may not write in it (a build
/// left it 0555): nothing in it could be removed, nor could it be moved up.
fn given_back_writable(dir: &std::os::fd::OwnedFd) {
    // SAFETY: fstat writes the struct; fchmod acts on the open folder itself.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(dir.as_raw_fd(), &mut st) == 0 && st.st_mode & 0o700 != 0o700 {
            libc::fchmod(dir.as_raw_fd(), 0o700);
        }
    }
}

/// Removes `name` in the folder `dir` where it is a file, a link or an empty folder.
fn unlink(dir: &std::os::fd::OwnedFd, name: &std::ffi::CStr) -> bool {
    // SAFETY: a NUL-terminated name in an open folder.
    unsafe {
        libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) == 0
            || libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) == 0
    }
}

/// The names in the open folder `dir` (but `.` and `..`).
fn names(dir: &std::os::fd::OwnedFd) -> std::io::Result<Vec<std::ffi::CString>> {
    // A descriptor of its own for the stream (closed with it), read from the start.
    // SAFETY: fcntl on an open descriptor.
    let dup = unsafe { libc::fcntl(dir.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
    if dup < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `dup` is ours; the stream owns it from here (closed on failure).
    let stream = unsafe { libc::fdopendir(dup) };
    if stream.is_null() {
        let e = std::io::Error::last_os_error();
        // SAFETY: ours, not taken by a stream.
        unsafe { libc::close(dup) };
        return Err(e);
    }
    let mut out = Vec::new();
    // SAFETY: a stream just opened; each entry is read before the next call; closed once.
    unsafe {
        libc::rewinddir(stream);
        loop {
            let entry = libc::readdir(stream);
            if entry.is_null() {
                break;
            }
            let name = std::ffi::CStr::from_ptr((*entry).d_name.as_ptr());
            if name.to_bytes() != b"." && name.to_bytes() != b".." {
                out.push(name.to_owned());
            }
        }
        libc::closedir(stream);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test does in [`remove_tree`] just before it opens a folder it found in the folder
    /// it removes (given both).
    type Hook = Box<dyn Fn(&Path, &std::ffi::CStr)>;

    thread_local! {
        static BEFORE_OPEN: std::cell::RefCell<Option<Hook>> = const { std::cell::RefCell::new(None) };
    }

    pub(super) fn before_open(path: &Path, name: &std::ffi::CStr) {
        BEFORE_OPEN.with(|hook| {
            if let Some(hook) = hook.borrow().as_ref() {
                hook(path, name);
            }
        });
    }

    /// A folder swapped for a link to a folder outside, between the moment the removal finds it
    /// and the moment it opens it (as a red team's build raced a root arena's removal), is not
    /// followed: the folder outside keeps its mode and all it holds, and the scratch is gone.
    /// The control: giving the mode back by path at that moment, as the removal did, makes the
    /// folder outside 0700.
    #[test]
    fn a_folder_swapped_for_a_link_while_it_is_removed_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(outside.join("below")).unwrap();
        std::fs::write(outside.join("below/keep"), "kept").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        for by_path in [false, true] {
            let scratch = dir.path().join(format!("scratch-{by_path}"));
            std::fs::create_dir_all(scratch.join("d/e")).unwrap();
            let (link_to, swapped) = (outside.clone(), scratch.join("d-real"));
            BEFORE_OPEN.with(|hook| {
                *hook.borrow_mut() = Some(Box::new(move |path: &Path, name: &std::ffi::CStr| {
                    if name.to_bytes() == b"d" && path.join("d").is_dir() && !swapped.exists() {
                        std::fs::rename(path.join("d"), &swapped).unwrap();
                        std::os::unix::fs::symlink(&link_to, path.join("d")).unwrap();
                        if by_path {
                            // The control: the step the removal took, by path.
                            std::fs::set_permissions(path.join("d"), std::fs::Permissions::from_mode(0o700)).unwrap();
                        }
                    }
                }));
            });
            remove_all(&scratch);
            BEFORE_OPEN.with(|hook| *hook.borrow_mut() = None);
            assert!(!scratch.exists(), "the scratch is gone");
            assert_eq!(std::fs::read_to_string(outside.join("below/keep")).unwrap(), "kept");
            if by_path {
                assert_eq!(mode(&outside), 0o700, "the control: by path, the folder outside is changed");
            } else {
                assert_eq!(mode(&outside), 0o755, "the folder outside keeps its mode");
            }
        }
    }

    /// What a build may leave as its user (not root: root's removal ignores modes) is removed:
    /// a folder 0555 holding a file, the scratch folder itself 0555, a folder of mode 0 two levels
    /// down. The control: std's `remove_dir_all` fails on such a tree. (As root, nothing to show.)
    #[test]
    fn folders_their_owner_may_not_write_are_removed() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            eprintln!("root: modes bind no removal of root's");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
        let tree = |name: &str| {
            let top = dir.path().join(name);
            std::fs::create_dir_all(top.join("ro")).unwrap();
            std::fs::write(top.join("ro/f"), "x").unwrap();
            std::fs::create_dir_all(top.join("a/b/c")).unwrap();
            mode(&top.join("ro"), 0o555);
            mode(&top.join("a/b"), 0o000);
            mode(&top, 0o555);
            top
        };
        let control = tree("control");
        assert!(std::fs::remove_dir_all(&control).is_err(), "the control: not removable as it is");
        let scratch = tree("scratch");
        remove_all(&scratch);
        assert!(!scratch.exists(), "removed whole");
        for p in [control.join("a/b"), control.join("ro"), control.clone()] {
            let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o700));
        }
    }

    /// A tree deeper than the process may open files is removed whole (its folders moved up as
    /// it goes). The control: std's `remove_dir_all`, a descriptor open per level, fails on the
    /// same tree. (In a process of its own, whose open-files limit it lowers to 64.)
    #[test]
    fn a_tree_deeper_than_the_open_files_limit_is_removed() {
        const MARKER: &str = "ARENA_TEST_DEEP_SCRATCH";
        if std::env::var_os(MARKER).is_none() {
            let Ok(exe) = std::env::current_exe() else { panic!("the test's own program") };
            let out = std::process::Command::new(exe)
                .args(["--exact", "sandbox::scratch::tests::a_tree_deeper_than_the_open_files_limit_is_removed"])
                .args(["--nocapture", "--test-threads", "1"])
                .env(MARKER, "1")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success() && text.contains("1 passed"), "{text}");
            return;
        }
        let limit = libc::rlimit { rlim_cur: 64, rlim_max: libc::RLIM_INFINITY };
        let mut old = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit read and write these structs.
        unsafe {
            assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut old), 0);
            let limit = libc::rlimit { rlim_max: old.rlim_max, ..limit };
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
        let dir = tempfile::tempdir().unwrap();
        let deep = |name: &str| {
            let top = dir.path().join(name);
            let mut at = top.clone();
            for _ in 0..150 {
                at = at.join("d");
            }
            std::fs::create_dir_all(&at).unwrap();
            std::fs::write(at.join("f"), "x").unwrap();
            top
        };
        let control = deep("control");
        assert!(std::fs::remove_dir_all(&control).is_err(), "the control: a descriptor per level runs out");
        // (Removed as the arena does, or the temporary folder's own removal fails alike and it is
        // left behind.)
        remove_all(&control);
        let scratch = deep("scratch");
        remove_all(&scratch);
        assert!(!scratch.exists(), "removed whole");
    }

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
