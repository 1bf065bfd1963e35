//! File helpers every layer above the engine shares: atomic writes (a crash leaves a file
//! absent or complete, never half written), names safe in a file system, and reading a map or
//! configuration file with a size cap.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use crate::engine::{GameInfo, MatchOptions, PlaysOn, SetupError};

/// The largest map or configuration file read (a 50x50 map is a few KiB).
pub const MAX_MAP_BYTES: u64 = 1 << 20;

/// An I/O error on a file or folder, naming it once (`league/index.html: Permission denied`):
/// what the pages' writers return, and a league run takes as its own.
#[derive(Debug, Error)]
#[error("{}: {source}", path.display())]
pub struct PathError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

impl PathError {
    /// What turns an I/O error on `path` into its `PathError`.
    pub fn on(path: &Path) -> impl FnOnce(std::io::Error) -> PathError + '_ {
        move |source| PathError { path: path.to_path_buf(), source }
    }
}

/// A map or configuration file that could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file system refused.
    #[error("{}: cannot read map: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A FIFO, a device or a folder.
    #[error("{}: not a regular file (a map or config must be a plain file)", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Over [`MAX_MAP_BYTES`].
    #[error("{}: larger than {} KiB: not a map or config", path.display(), MAX_MAP_BYTES >> 10)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Not UTF-8.
    #[error("{}: not text (invalid UTF-8 at byte {at})", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// The first byte that is not.
        at: usize,
    },
}

impl From<ReadError> for SetupError {
    fn from(e: ReadError) -> Self {
        SetupError::BadInput(Box::new(e))
    }
}

/// Reads a map or configuration file: a regular file of at most [`MAX_MAP_BYTES`], as text.
/// A FIFO, a device or a folder is refused at once rather than waited for or read forever.
pub fn read_map_file(path: &Path) -> Result<String, SetupError> {
    read_text(path).map_err(SetupError::from)
}

/// Reads a map or configuration file as text: a regular file of at most [`MAX_MAP_BYTES`]; a
/// FIFO, a device or a folder is refused at once rather than waited for or read forever.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let io = |source| ReadError::Io { path: path.to_path_buf(), source };
    let file = open_regular(path)
        .map_err(|e| io(with_near_file(path, e)))?
        .ok_or_else(|| ReadError::NotAFile { path: path.to_path_buf() })?;
    let mut bytes = Vec::new();
    file.take(MAX_MAP_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_MAP_BYTES {
        return Err(ReadError::TooLarge { path: path.to_path_buf() });
    }
    String::from_utf8(bytes)
        .map_err(|e| ReadError::NotText { path: path.to_path_buf(), at: e.utf8_error().valid_up_to() })
}

/// `error` (opening `path`), with the file `path` most likely meant where it is missing: a file
/// beside it a typo or two away (`maps/jmup.txt` for `maps/jump.txt`).
fn with_near_file(path: &Path, error: std::io::Error) -> std::io::Error {
    if error.kind() != std::io::ErrorKind::NotFound {
        return error;
    }
    match near_file(path) {
        Some(near) => {
            let near = crate::safe_text::path_word(&path.with_file_name(near));
            std::io::Error::new(error.kind(), format!("{error}; did you mean `{near}`?"))
        }
        None => error,
    }
}

/// The name of a file beside the missing `path` (a regular file, through links) a typo or two
/// away from its name ([`nearest_name`]).
pub fn near_file(path: &Path) -> Option<String> {
    near_entry(path, std::fs::Metadata::is_file)
}

/// The name beside the missing `path` a typo or two away from its name ([`nearest_name`]) of
/// an entry whose metadata (through links) `kind` accepts.
fn near_entry(path: &Path, kind: fn(&std::fs::Metadata) -> bool) -> Option<String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name()?.to_str()?;
    nearest_name(folder, name, |n| std::fs::metadata(folder.join(n)).is_ok_and(|m| kind(&m)))
}

/// The name in `folder` nearest to `name` that `keep` accepts, a typo or two away (two edits at
/// most, and one per three letters: `mybot` is no typo of `bot`), if any. Names are compared
/// first (the first few thousand entries read, [`MAX_NEAR_ENTRIES`]), the nearest first, then
/// by name (within those, the same answer whatever order the folder lists them in); only those
/// are given to `keep`.
pub fn nearest_name(folder: &Path, name: &str, keep: impl Fn(&str) -> bool) -> Option<String> {
    let typos = |n: &str| strsim::damerau_levenshtein(name, n);
    let mut near: Vec<(usize, String)> = std::fs::read_dir(folder)
        .ok()?
        .take(MAX_NEAR_ENTRIES)
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n != name)
        .map(|n| (typos(&n), n))
        .filter(|&(d, _)| d <= 2 && d * 3 <= name.chars().count())
        .collect();
    near.sort();
    near.into_iter().map(|(_, n)| n).find(|n| keep(n))
}

/// How many entries of a folder [`nearest_name`] reads at most.
const MAX_NEAR_ENTRIES: usize = 4096;

/// Opens `path` for reading if it is a regular file (`None` for a FIFO, a device or a folder),
/// without waiting: opening a FIFO blocks until something writes to it, and a student's build
/// can leave one where a program or file is expected. The kind is that of the file opened, so
/// it cannot change between the check and the read.
pub fn open_regular(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    Ok(file.metadata()?.is_file().then_some(file))
}

/// The bytes of the regular file at `path`, as `std::fs::read` gives them; a FIFO, a device or
/// a folder is an error (`InvalidInput`, "not a regular file") at once, not waited for or read
/// forever (a FIFO in a league's folder hung every command reading it).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"))?;
    let mut bytes = Vec::new();
    (&file).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read_regular`], at most `max` bytes: a larger file is an error (`InvalidInput`, "larger
/// than N MiB") at once, told by its size before anything is read (an 8 GiB sparse file was
/// read whole).
pub fn read_regular_capped(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"))?;
    read_capped(file, max)
}

/// The bytes of `file`, at most `max`: a larger file (by its size, or by what it gives) is an
/// error saying so.
fn read_capped(file: std::fs::File, max: u64) -> std::io::Result<Vec<u8>> {
    let larger = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("larger than {} MiB: not a file the arena wrote", max >> 20),
        )
    };
    if file.metadata()?.len() > max {
        return Err(larger());
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(larger());
    }
    Ok(bytes)
}

/// Opens `path` to read if it is a regular file, without following a link at its last part
/// (`O_NOFOLLOW`: an error, "a link, not a file") or waiting on a FIFO (`None` for a FIFO, a
/// device or a folder): how a file is taken from a folder someone else may have written (a
/// shard's folder, a league's copied between machines), whose link to `/etc/shadow` or to the
/// league's record must not be read as its own file.
pub fn open_own_regular(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(flags).open(path).map_err(not_followed)?;
    Ok(file.metadata()?.is_file().then_some(file))
}

/// `e`, an open's error, said as a link not followed where it is one (`ELOOP` of `O_NOFOLLOW`).
fn not_followed(e: std::io::Error) -> std::io::Error {
    if e.raw_os_error() == Some(libc::ELOOP) {
        std::io::Error::new(e.kind(), "a link, not a file: a link is not followed here")
    } else {
        e
    }
}

/// The error of a file taken as a folder's own that is no regular file.
fn not_regular() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file (a FIFO, a device or a folder)")
}

/// The bytes of the regular file at `path`, not through a link at its last part and at most
/// `max` bytes ([`open_own_regular`]): a link, a FIFO, a device, a folder or a larger file is
/// an error (`InvalidInput`) saying which, at once.
pub fn read_own_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = open_own_regular(path)?.ok_or_else(not_regular)?;
    read_capped(file, max)
}

/// Checks that `file`, opened from a folder someone else may have written (a shard's folder
/// merged), is that folder's own file and not another's under a second name: a regular file
/// with one name (`st_nlink` 1, of the descriptor opened: what is read is what was checked). A
/// hard link is an error saying so (`InvalidInput`): where the system lets any user link any
/// file (`fs.protected_hardlinks=0`, or a root shard's job), one in a shard's folder to a
/// teacher's file (the league's secret, a key) was read, and a log so copied and published.
/// No run of the arena's makes a hard link: each file it writes is written anew and renamed.
/// The one check of every file a merge reads from a folder (a shard's, and the league's named
/// by `--league` and OUT, which shards' machines write in the shared folder's flow): its
/// results files, its record, its replays and its logs.
pub fn check_foreign_file(file: &std::fs::File) -> std::io::Result<()> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    check_one_name(&meta)
}

/// The hard-link half of [`check_foreign_file`], on the metadata of a file already known to be
/// a regular one (of its descriptor).
fn check_one_name(meta: &std::fs::Metadata) -> std::io::Result<()> {
    let names = names_in(meta);
    if names > 1 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "a hard link ({names} names of one file): a file the arena wrote has one name, and this may be \
                 another file's (a teacher's), so it is not used; if it is this folder's own (a copy made with \
                 `cp -al`), copy the file so it has one name (`cp -p FILE FILE.new && mv FILE.new FILE`)"
            ),
        ));
    }
    Ok(())
}

/// How many names the open `file` has (`st_nlink`, of the descriptor: what is used is what was
/// counted): more than one is a hard link. The one count of every check of hard links (a
/// shard's file, [`check_foreign_file`]; a league's lock); on a thread of the tests that takes
/// hard links as files of their own ([`tests::with_hard_links_taken`], the checks' control), 1.
pub fn names_of(file: &std::fs::File) -> std::io::Result<u64> {
    Ok(names_in(&file.metadata()?))
}

/// How many names the file of `meta` has ([`names_of`], the tests' control included).
fn names_in(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    #[cfg(test)]
    if tests::HARD_LINKS_TAKEN.with(std::cell::Cell::get) {
        return 1;
    }
    meta.nlink()
}

/// The bytes of the regular file at `path`, of a folder someone else may have written (a
/// shard's folder merged): not through a link at its last part ([`open_own_regular`]), no hard
/// link ([`check_foreign_file`]), at most `max` bytes; else an error saying which, at once.
pub fn read_foreign_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = open_own_regular(path)?.ok_or_else(not_regular)?;
    check_foreign_file(&file)?;
    read_capped(file, max)
}

/// The bytes of the regular file `rel` below the folder `dir` (`replays/<key>.json.gz`), each
/// folder on the way and the file opened from the one before by descriptor, none through a link
/// (`O_NOFOLLOW`), at most `max` bytes: what is read is what was checked. A link, a FIFO, a
/// device or a larger file is an error saying which (`InvalidInput`, or the system's). Checking
/// the path, then reading it by path again, let a folder swapped for a link in between (a
/// process of a shard's writing its folder during a merge) send the read to a teacher's file.
/// A hard link is read: a merge reads every folder with [`read_foreign_regular_under`]. For the
/// league's folder and OUT, the teacher's: the first folder of `rel` (`replays/`) may be a link
/// [`refuse_foreign_link`] accepts (a teacher's `replays` on another disk), checked before and
/// after it is opened; none below it, and no link of another user's.
pub fn read_own_regular_under(dir: &Path, rel: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    read_capped(open_regular_under(dir, rel, true)?, max)
}

/// [`read_own_regular_under`] for a folder someone else may have written (every folder merged:
/// a shard's, and the league's and OUT, which shards' machines write in the shared folder's
/// flow): a hard link is refused too ([`check_foreign_file`]).
pub fn read_foreign_regular_under(dir: &Path, rel: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular_under(dir, rel, false)?;
    // (A regular file: `open_regular_under` checked it.)
    check_one_name(&file.metadata()?)?;
    read_capped(file, max)
}

/// The regular file `rel` below the folder `dir`, opened as [`read_own_regular_under`] says;
/// its first folder through a link [`refuse_foreign_link`] accepts only where `follow_first`.
fn open_regular_under(dir: &Path, rel: &Path, follow_first: bool) -> std::io::Result<std::fs::File> {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    let open_at = |at: Option<&OwnedFd>, name: &Path, flags: libc::c_int| -> std::io::Result<OwnedFd> {
        let name = std::ffi::CString::new(name.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "a nul byte in a path"))?;
        let base = at.map_or(libc::AT_FDCWD, AsRawFd::as_raw_fd);
        // SAFETY: openat with a valid descriptor (or AT_FDCWD) and a nul-terminated name.
        let fd = unsafe { libc::openat(base, name.as_ptr(), flags | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(not_followed(std::io::Error::last_os_error()));
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    };
    let mut at = open_at(None, dir, libc::O_RDONLY | libc::O_DIRECTORY)?;
    let parts: Vec<&std::ffi::OsStr> = rel
        .components()
        .map(|c| match c {
            std::path::Component::Normal(part) => Ok(part),
            _ => Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a path below its folder")),
        })
        .collect::<std::io::Result<_>>()?;
    let Some((name, folders)) = parts.split_last() else {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file named"));
    };
    for (i, folder) in folders.iter().enumerate() {
        let first = dir.join(folder);
        let linked = follow_first
            && i == 0
            && std::fs::symlink_metadata(&first).is_ok_and(|m| m.file_type().is_symlink())
            && refuse_foreign_link(&first).is_ok();
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | if linked { 0 } else { libc::O_NOFOLLOW };
        at = open_at(Some(&at), Path::new(folder), flags).map_err(|e| {
            if e.raw_os_error() == Some(libc::ENOTDIR) {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "its folder is a link or no folder: nothing is taken from it",
                )
            } else {
                e
            }
        })?;
        if linked {
            // (The link followed is still one of the user's, root's or the folder's owner's.)
            refuse_foreign_link(&first)?;
        }
    }
    let file = open_at(Some(&at), Path::new(name), libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK)?;
    let file = std::fs::File::from(file);
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// Refuses the folder `dir` where it is a symbolic link of another user's than the one running
/// the arena or root: a league's folder written by the shards' machines (the shared folder's
/// flow, where a student's may be one) could have its `bots/`, `assets/`, `replays/`, `logs/`,
/// `builds/` or `versions/` made a link to a teacher's folder, and the pages' stale files were
/// deleted, and replays, pages and logs written, through it. A link the teacher made (`replays`
/// on another disk) is followed by the teacher. Not a link of the folder's owner, as the kernel's
/// `fs.protected_symlinks` would: in that flow the shards' account may own the league's folder
/// (an NFS export's `all_squash`), and its links are the ones to refuse. Nothing there, or no
/// link: fine. The error says what to do.
pub fn refuse_foreign_link(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::symlink_metadata(dir) else { return Ok(()) };
    if !meta.file_type().is_symlink() {
        return Ok(());
    }
    // SAFETY: geteuid takes nothing and cannot fail.
    let me = unsafe { libc::geteuid() };
    let owner = meta.uid();
    if owner == me || owner == 0 {
        return Ok(());
    }
    let path = crate::safe_text::terminal(&dir.display().to_string());
    Err(std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!(
            "a symbolic link made by another user (uid {owner}), not by the one running the arena (uid {me}) \
             or root: nothing is written or deleted through it (it may lead to another's folder, a \
             teacher's); if it is a link of the league's own (its folder on another disk), run the arena as \
             its owner (uid {owner}) or give it to the user running it (`chown -h {me} {path}`); else remove \
             the link itself (`rm {path}`, not `rm -r`, once any file of the league's it leads to is moved \
             back), and run again"
        ),
    ))
}

/// Removes the regular files of the folder `dir` whose names `stale` picks (their names, in the
/// order found), through a descriptor of the folder ([`refuse_foreign_link`] first: no link of
/// another user's followed; not a link, it is opened without following one, so a folder swapped
/// for a link meanwhile is an error, not followed): each name is looked at and unlinked in the
/// folder opened, never by a path that could lead elsewhere since. A link, a FIFO or a folder
/// of a name picked is left.
pub fn remove_stale_files(dir: &Path, stale: impl Fn(&std::ffi::OsStr) -> bool) -> std::io::Result<Vec<PathBuf>> {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    refuse_foreign_link(dir)?;
    let linked = std::fs::symlink_metadata(dir)?.file_type().is_symlink();
    let name = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "a nul byte in a path"))?;
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | if linked { 0 } else { libc::O_NOFOLLOW };
    // SAFETY: open with a nul-terminated path.
    let fd = unsafe { libc::open(name.as_ptr(), flags) };
    if fd < 0 {
        return Err(not_followed(std::io::Error::last_os_error()));
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    let folder = unsafe { OwnedFd::from_raw_fd(fd) };
    if linked {
        // (The link followed is still one of the user's or root's.)
        refuse_foreign_link(dir)?;
    }
    // (Listed from a second descriptor of the same folder: `closedir` closes it.)
    // SAFETY: dup of a valid descriptor.
    let listed = unsafe { libc::dup(folder.as_raw_fd()) };
    if listed < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `listed` is a valid descriptor of a folder, handed to the stream.
    let stream = unsafe { libc::fdopendir(listed) };
    if stream.is_null() {
        let e = std::io::Error::last_os_error();
        // SAFETY: `listed` was not taken by a stream.
        unsafe { libc::close(listed) };
        return Err(e);
    }
    let mut names = Vec::new();
    loop {
        // SAFETY: `stream` is an open stream; the entry is read before the next call.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            break;
        }
        // SAFETY: `d_name` of an entry readdir returned is nul-terminated.
        let entry_name = unsafe { std::ffi::CStr::from_ptr((*entry).d_name.as_ptr()) };
        names.push(entry_name.to_owned());
    }
    // SAFETY: `stream` is open, closed once.
    unsafe { libc::closedir(stream) };
    let mut removed = Vec::new();
    for entry_name in names {
        let shown = std::ffi::OsStr::from_bytes(entry_name.as_bytes());
        if matches!(entry_name.as_bytes(), b"." | b"..") || !stale(shown) {
            continue;
        }
        // SAFETY: a zeroed stat is a valid buffer for fstatat to fill.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor, a nul-terminated name and a stat buffer.
        let got = unsafe { libc::fstatat(folder.as_raw_fd(), entry_name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
        if got != 0 || st.st_mode & libc::S_IFMT != libc::S_IFREG {
            continue;
        }
        // SAFETY: a valid descriptor and a nul-terminated name.
        if unsafe { libc::unlinkat(folder.as_raw_fd(), entry_name.as_ptr(), 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        removed.push(dir.join(shown));
    }
    Ok(removed)
}

/// Makes the folder `dir` (and its parents); where something else of its name is in the way
/// (a file `replays` in a league's folder), or of one of its parents' (`site` in `site/2026`),
/// the error says so, naming that parent, rather than only "File exists" or "Not a directory".
/// Like `std::fs`'s, the error names no path but a parent's: the caller names `dir` (once).
pub fn make_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| match dir.symlink_metadata() {
        Ok(m) if !m.is_dir() => {
            std::io::Error::new(e.kind(), "not a folder: move it away, the arena keeps a folder there")
        }
        _ => match parent_in_the_way(dir) {
            Some(part) => std::io::Error::new(
                e.kind(),
                format!("{} is not a folder (a file is in its place), so nothing can be made in it", part.display()),
            ),
            None => e,
        },
    })
}

/// [`make_folder`], with `dir` itself made private to its user (`rwx------`) when it is made
/// here (its parents as any folder): a league's folder holds its secret and every student's code.
pub fn make_private_folder(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let private = || std::fs::DirBuilder::new().mode(0o700).create(dir);
    let made = private().or_else(|e| match dir.parent() {
        Some(parent) if e.kind() == std::io::ErrorKind::NotFound && !parent.as_os_str().is_empty() => {
            make_folder(parent).and_then(|()| private())
        }
        _ => Err(e),
    });
    // (There already, or not made: `make_folder` says what is in the way.)
    made.or_else(|_| make_folder(dir))
}

/// [`make_folder`], with every folder made here (`dir` and the parents it lacks) private to its
/// user (`rwx------`): the folders of a league below its top (`versions/<bot>/`, `builds/`), so
/// that a process of another user's already inside one (its current folder, from before the
/// league was private) reads nothing written there since.
pub fn make_private_folders(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    // (There already, or not made: `make_folder` says what is in the way.)
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).or_else(|_| make_folder(dir))
}

/// The first of `dir`'s parents, from the root, that is there but is no folder (a link to a
/// folder is one).
fn parent_in_the_way(dir: &Path) -> Option<&Path> {
    let parents: Vec<&Path> = dir.ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()).collect();
    parents.into_iter().rev().find(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()))
}

/// The first `max` bytes of the file at `path` (a program's, to tell a script and its `#!`
/// line from a compiled program); `None` unless it is a regular file that can be read.
pub fn regular_head(path: &Path, max: usize) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(max);
    open_regular(path).ok()??.take(max as u64).read_to_end(&mut head).ok()?;
    Some(head)
}

/// The map file of a match and its content (the copy read before the run, else the file
/// now), or `None` without a map.
pub fn map_text(options: &MatchOptions) -> Result<Option<(&Path, Arc<str>)>, SetupError> {
    let Some(path) = options.map.as_deref() else { return Ok(None) };
    let text = match &options.text {
        Some(t) => t.clone(),
        None => read_map_file(path)?.into(),
    };
    Ok(Some((path, text)))
}

/// The map file of a match of a game played on one, and its content; an error naming what
/// the game needs when none was given.
pub fn required_map<'a>(info: &GameInfo, options: &'a MatchOptions) -> Result<(&'a Path, Arc<str>), SetupError> {
    let noun = match info.plays_on {
        PlaysOn::MapFile { noun } => noun,
        PlaysOn::Parameters => "map",
    };
    map_text(options)?.ok_or(SetupError::NoMap { title: info.title, noun })
}

/// `name` reduced to characters that are safe in a file name (others become `_`).
pub fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// The one name the arena gives a bot's files (its page, its build logs, the copies of its
/// versions): `name` itself when it is plain (lowercase ASCII letters, digits, `-`, `_`, at most
/// 60 bytes), else its first 40 characters made safe and 8 hex digits of a hash of the exact name
/// after a dot (which no plain name has). So no two bots share a file, not even `Alice` and
/// `alice` on a case-insensitive disk, and no name makes a file name too long.
pub fn name_part(name: &str) -> String {
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    if !name.is_empty() && name.len() <= 60 && name.chars().all(plain) {
        name.to_string()
    } else {
        let short: String = file_safe(name).chars().take(40).collect();
        format!("{short}.{}", &blake3::hash(name.as_bytes()).to_hex()[..8])
    }
}

/// The parts of `path` below `base` (none for `base` itself), or `None` when it does not lie
/// under `base` textually: another prefix, or a `..` or root below it (nothing is read from
/// the disk, so a name shown from it is the same on every machine).
pub fn parts_under(path: &Path, base: &Path) -> Option<Vec<String>> {
    path.strip_prefix(base)
        .ok()?
        .components()
        .map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// How the temporary files of [`write_atomic`] begin: one a crash left behind is recognised by it.
pub const TEMPORARY_PREFIX: &str = ".tmp-";

/// Whether a file named `name` is a temporary file of [`write_atomic`] (or of a copy made the
/// same way), not a finished one.
pub fn is_temporary(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().starts_with(TEMPORARY_PREFIX.as_bytes())
}

/// Syncs folder `dir` itself, so that the names just made or renamed in it survive a power
/// loss too (a synced file whose rename is lost is lost all the same).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Writes `bytes` to `path` through a synced temporary file in the same folder and a rename,
/// then syncs the folder. Like `std::fs`'s, an error names no path: the caller names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // Readable by others like any file written normally (pages get published as they are).
    write_atomic_as(path, bytes, 0o644)
}

/// [`write_atomic`], the file given the permissions `mode` (whatever the umask).
pub fn write_atomic_as(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    // A rename replaces whatever has the name: `--replay /dev/null` as root made the machine's
    // `/dev/null` a file of the replay.
    // (`/dev/stdout` is a link to a device: the link would be replaced.)
    let kind = std::fs::symlink_metadata(path).ok().map(|m| m.file_type());
    let followed = kind.filter(std::fs::FileType::is_symlink).and_then(|_| std::fs::metadata(path).ok());
    if let Some(kind) = followed.map(|m| m.file_type()).or(kind).as_ref().and_then(not_a_file) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{kind} has that name, not a file: it is not replaced"),
        ));
    }
    write_through_temporary(path, bytes, mode, |tmp| tmp.persist(path).map(drop).map_err(|e| e.error))
}

/// Writes `bytes` to `path`, which must not exist, whole or not at all: through a synced
/// temporary file linked to its name only if no file has it (`AlreadyExists` otherwise, a file
/// made meanwhile included).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_through_temporary(path, bytes, 0o644, |tmp| tmp.persist_noclobber(path).map(drop).map_err(|e| e.error))
}

/// `bytes` in a synced temporary file of mode `mode` in `path`'s folder, given its name by
/// `name` (a rename, or a link where none has it), then the folder synced.
fn write_through_temporary(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    name: impl FnOnce(tempfile::NamedTempFile) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new().prefix(TEMPORARY_PREFIX).tempfile_in(dir).map_err(without_temporary_path)?;
    tmp.as_file().set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
    // (Through the `File`: the temporary's own `Write` adds its path to an error, as above.)
    tmp.as_file_mut().write_all(bytes)?;
    tmp.as_file().sync_all()?;
    name(tmp)?;
    sync_dir(dir)
}

/// What an entry of kind `kind` is, in a word, where it is neither a regular file nor a link
/// (one that leads to no entry: a rename replaces it as a file would be).
fn not_a_file(kind: &std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_file() || kind.is_symlink() {
        None
    } else if kind.is_dir() {
        Some("a folder")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("a device")
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else {
        Some("a socket")
    }
}

/// Whether `a` and `b` name the same existing file (by device and inode: `./m.txt`, `m.txt`
/// and a link to it alike), as when an output would be written over an input.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// `tempfile`'s error `e` without the path it appends (` at path "DIR/.tmp-…"`): callers
/// name the file they write, and the temporary never was ("cannot write X: … at path X/.tmp-…").
fn without_temporary_path(e: std::io::Error) -> std::io::Error {
    let text = e.to_string();
    match (e.get_ref(), text.rsplit_once(" at path ")) {
        (Some(_), Some((why, _))) => std::io::Error::new(e.kind(), why.to_string()),
        _ => e,
    }
}

/// What keeps `dir`, a bot's folder, from being one, in a teacher's words: missing (with the
/// folder beside it a typo or two away, [`nearest_name`], as a missing map names its file), or
/// something else (a file, a FIFO) in its place; `None` for a folder.
pub fn folder_trouble(dir: &Path) -> Option<String> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some(format!("its folder {} is not a folder (a file is in its place)", dir.display())),
        Err(_) => {
            let near = near_folder(dir).map_or(String::new(), |near| {
                format!(": did you mean `{}`?", crate::safe_text::path_word(&dir.with_file_name(near)))
            });
            Some(format!("its folder {} is missing{near}", dir.display()))
        }
    }
}

/// The name of a folder beside the missing `path` (through links) a typo or two away from its
/// name ([`nearest_name`]).
fn near_folder(path: &Path) -> Option<String> {
    near_entry(path, std::fs::Metadata::is_dir)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    thread_local! {
        /// Takes a hard link as a file of its folder's own, on this thread (the tests' control
        /// of [`check_foreign_file`]: the order that read a shard's link to a teacher's file).
        pub(crate) static HARD_LINKS_TAKEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Runs `f` with hard links taken as files of their folder's own on this thread (the
    /// control of [`check_foreign_file`]).
    pub(crate) fn with_hard_links_taken<T>(f: impl FnOnce() -> T) -> T {
        HARD_LINKS_TAKEN.with(|taken| taken.set(true));
        let out = f();
        HARD_LINKS_TAKEN.with(|taken| taken.set(false));
        out
    }

    /// A hard link in a folder someone else may have written (a shard's) to a file elsewhere
    /// (a teacher's) is not read as the folder's own, below the folder or at its path, and the
    /// refusal says how to fix a copy's (`cp -al`); a file of one name is read. The teacher's
    /// own folder (a `cp -al` snapshot) is read with its hard links. The control: taken as one,
    /// the teacher's file is read from the shard's folder.
    #[test]
    fn a_hard_link_is_not_read_as_a_folder_s_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let (shard, teacher) = (dir.path().join("shard"), dir.path().join("teacher"));
        std::fs::create_dir_all(shard.join("logs")).unwrap();
        std::fs::create_dir_all(&teacher).unwrap();
        std::fs::write(teacher.join("secret"), "secret").unwrap();
        std::fs::hard_link(teacher.join("secret"), shard.join("logs/a.log")).unwrap();
        std::fs::write(shard.join("logs/b.log"), "own").unwrap();
        let under = |rel: &str| read_foreign_regular_under(&shard, Path::new(rel), 1 << 20);
        let e = under("logs/a.log").unwrap_err();
        assert!(e.to_string().starts_with("a hard link (2 names of one file)"), "{e}");
        assert!(e.to_string().contains("copy the file so it has one name"), "{e}");
        let e = read_foreign_regular(&shard.join("logs/a.log"), 1 << 20).unwrap_err();
        assert!(e.to_string().starts_with("a hard link"), "{e}");
        assert_eq!(read_own_regular_under(&shard, Path::new("logs/a.log"), 1 << 20).unwrap(), b"secret");
        assert_eq!(read_own_regular(&shard.join("logs/a.log"), 1 << 20).unwrap(), b"secret");
        assert_eq!(under("logs/b.log").unwrap(), b"own");
        assert_eq!(read_foreign_regular(&shard.join("logs/b.log"), 1 << 20).unwrap(), b"own");
        let taken = with_hard_links_taken(|| under("logs/a.log").unwrap());
        assert_eq!(taken, b"secret", "the control: taken as its own, the teacher's file is read");
    }

    /// A link owned by the owner of the folder holding it is refused where another user runs
    /// the arena, root included: in the shared folder's flow the shards' account may own the
    /// league's folder (an NFS export's `all_squash`), and a student on a shard's machine makes
    /// links as that account. The error names the way out (`chown -h` to the user running the
    /// arena, or running as the link's owner). The control: the same link, given to the user
    /// running the arena, is followed. Root only (links and folders given to other users), said
    /// otherwise.
    #[test]
    fn a_link_of_the_folder_s_owner_is_refused_to_another_user() {
        // SAFETY: geteuid takes nothing and cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root can give a link to another user");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let (league, disk) = (dir.path().join("league"), dir.path().join("disk2"));
        std::fs::create_dir(&league).unwrap();
        std::fs::create_dir(&disk).unwrap();
        std::os::unix::fs::chown(&league, Some(1000), Some(1000)).unwrap();
        let link = league.join("replays");
        std::os::unix::fs::symlink(&disk, &link).unwrap();
        std::os::unix::fs::lchown(&link, Some(1000), Some(1000)).unwrap();
        let e = refuse_foreign_link(&link).unwrap_err().to_string();
        assert!(e.contains("a symbolic link made by another user (uid 1000)"), "{e}");
        assert!(e.contains("chown -h 0 "), "{e}");
        std::os::unix::fs::lchown(&link, Some(0), Some(0)).unwrap();
        refuse_foreign_link(&link).unwrap();
    }

    /// A file below a folder is read by descriptor from the folder down, none through a link: a
    /// folder on the way, or the file, that is a link (to a teacher's file) is refused, as are a
    /// FIFO and a path out of the folder; a file of the folder's own is read. The control: read
    /// by its path, the link is followed and the teacher's file read.
    #[test]
    fn a_file_below_a_folder_is_read_through_no_link() {
        let dir = tempfile::tempdir().unwrap();
        let (shard, teacher) = (dir.path().join("shard"), dir.path().join("teacher"));
        std::fs::create_dir_all(shard.join("replays")).unwrap();
        std::fs::create_dir_all(teacher.join("replays")).unwrap();
        std::fs::write(teacher.join("replays/k.json.gz"), "secret").unwrap();
        std::fs::write(shard.join("replays/own.json.gz"), "own").unwrap();
        let read = |dir: &Path, rel: &str| read_own_regular_under(dir, Path::new(rel), 1 << 20);
        assert_eq!(read(&shard, "replays/own.json.gz").unwrap(), b"own");
        std::os::unix::fs::symlink(teacher.join("replays/k.json.gz"), shard.join("replays/k.json.gz")).unwrap();
        let e = read(&shard, "replays/k.json.gz").unwrap_err();
        assert!(e.to_string().contains("a link, not a file"), "{e}");
        let linked = dir.path().join("linked");
        std::fs::create_dir(&linked).unwrap();
        std::os::unix::fs::symlink(teacher.join("replays"), linked.join("replays")).unwrap();
        // A shard's folder: its `replays/` a link is never followed.
        let e = read_foreign_regular_under(&linked, Path::new("replays/k.json.gz"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("a link or no folder"), "{e}");
        assert_eq!(std::fs::read(linked.join("replays/k.json.gz")).unwrap(), b"secret", "the control: by path");
        // The league's own: its first folder a link of the user's (`replays` on another disk) is
        // followed; a link below it is not, nor (as root) one of another user's.
        assert_eq!(read(&linked, "replays/k.json.gz").unwrap(), b"secret", "the teacher's own link");
        let e = read(dir.path(), "linked/replays/k.json.gz").unwrap_err();
        assert!(e.to_string().contains("a link or no folder"), "{e}");
        // SAFETY: geteuid takes nothing and cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::lchown(linked.join("replays"), Some(65534), Some(65534)).unwrap();
            let e = read(&linked, "replays/k.json.gz").unwrap_err();
            assert!(e.to_string().contains("a link or no folder"), "{e}");
        }
        let fifo = std::ffi::CString::new(shard.join("replays/fifo.json.gz").into_os_string().into_encoded_bytes());
        // SAFETY: mkfifo with a nul-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.unwrap().as_ptr(), 0o600) }, 0);
        let e = read(&shard, "replays/fifo.json.gz").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(read(&shard, "../teacher/replays/k.json.gz").is_err(), "no path out of its folder");
    }

    /// A missing map or config names the file beside it a typo or two away, a file only. The
    /// controls: a name far from any says nothing more, nor does a typo of a folder's name.
    #[test]
    fn a_missing_map_names_the_file_it_most_likely_meant() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("jump.txt"), "").unwrap();
        std::fs::create_dir(dir.path().join("fires.txt")).unwrap();
        let said = |name: &str| read_text(&dir.path().join(name)).unwrap_err().to_string();
        let near = said("jmup.txt");
        let meant = crate::safe_text::path_word(&dir.path().join("jump.txt"));
        assert!(near.ends_with(&format!("did you mean `{meant}`?")), "{near}");
        for far in ["duel.txt", "fire.txt"] {
            assert!(!said(far).contains("did you mean"), "{}", said(far));
        }
    }

    /// An output is written over a file or a link, never over a FIFO, a device or a folder that
    /// has its name (`--replay /dev/null` made the machine's `/dev/null` a file). The control:
    /// over a file, the same write replaces it.
    #[test]
    fn an_atomic_write_replaces_a_file_and_nothing_else() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        make_fifo(&fifo, 0o600);
        let refused = write_atomic(&fifo, b"replay").unwrap_err().to_string();
        assert_eq!(refused, "a FIFO has that name, not a file: it is not replaced");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still there");
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        assert!(write_atomic(&folder, b"replay").unwrap_err().to_string().starts_with("a folder has that name"));
        let link = dir.path().join("stdout");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(write_atomic(&link, b"replay").unwrap_err().to_string().starts_with("a device has that name"));
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still there");
        let file = dir.path().join("file");
        std::fs::write(&file, "old").unwrap();
        write_atomic(&file, b"replay").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"replay", "the control: a file is replaced");
        assert!(same_file(&file, &dir.path().join(".").join("file")));
        assert_eq!(write_new(&file, b"save").unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&file).unwrap(), b"replay", "write_new leaves a file there as it was");
        write_new(&dir.path().join("new"), b"save").unwrap();
        assert_eq!(std::fs::read(dir.path().join("new")).unwrap(), b"save");
        assert!(!same_file(&file, &fifo));
    }

    /// Runs the test `test` again, alone, in a process of its own with `marker` set, as `nobody`
    /// where this one is root (a user whose limits bind it), and asserts it passed there.
    pub(crate) fn rerun_as_nobody(test: &str, marker: &str) {
        use std::os::unix::process::CommandExt;
        let Ok(exe) = std::env::current_exe() else { panic!("the test's own program") };
        let mut run = std::process::Command::new(exe);
        run.args(["--exact", test]).args(["--nocapture", "--test-threads", "1"]).env(marker, "1");
        // SAFETY: geteuid has no preconditions; the hook makes raw system calls only.
        if unsafe { libc::geteuid() } == 0 {
            unsafe {
                run.pre_exec(|| {
                    let nobody = 65534;
                    if libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setresgid(nobody, nobody, nobody) != 0
                        || libc::setresuid(nobody, nobody, nobody) != 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let out = match run.output() {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                eprintln!("nobody may not run the test's program here ({e}): nothing to show");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("1 passed"), "it ran: {text}");
    }

    /// Makes a FIFO at `path` with `mode` (for the tests of what must not wait on one).
    pub(crate) fn make_fifo(path: &Path, mode: libc::mode_t) {
        let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), mode) }, 0, "mkfifo {}", path.display());
    }

    /// Makes a FIFO at `path` and reads it with `read` on a thread: the error `read` gives.
    /// Panics if `read` waited for a writer (the defect of the readers that opened a FIFO as a
    /// file: one comes after 10 s to let it go) or read it without an error.
    pub(crate) fn fifo_read_error<T>(
        path: &Path,
        read: impl FnOnce(&Path) -> Result<T, String> + Send + 'static,
    ) -> String {
        make_fifo(path, 0o644);
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = {
            let path = path.to_path_buf();
            std::thread::spawn(move || tx.send(read(&path).map(drop)))
        };
        let answer = rx.recv_timeout(std::time::Duration::from_secs(10));
        if answer.is_err() {
            drop(std::fs::OpenOptions::new().write(true).open(path));
        }
        let _ = reader.join();
        answer.expect("the FIFO was waited for").expect_err("a FIFO was read")
    }

    /// A bot's folder that is a file or a FIFO is said to be no folder, not missing; a missing
    /// one is missing; a folder (or a link to one) is fine.
    #[test]
    fn a_bot_folder_is_missing_or_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (file, fifo, gone) = (dir.path().join("file"), dir.path().join("fifo"), dir.path().join("gone"));
        std::fs::write(&file, "").unwrap();
        make_fifo(&fifo, 0o644);
        for path in [&file, &fifo] {
            let said = folder_trouble(path).unwrap();
            assert_eq!(said, format!("its folder {} is not a folder (a file is in its place)", path.display()));
        }
        assert_eq!(folder_trouble(&gone).unwrap(), format!("its folder {} is missing", gone.display()));
        // A folder a typo away is named, as a missing map's file is; a file so near is not.
        std::fs::create_dir(dir.path().join("alice")).unwrap();
        let typo = dir.path().join("alcie");
        assert_eq!(
            folder_trouble(&typo).unwrap(),
            format!("its folder {} is missing: did you mean `{}`?", typo.display(), dir.path().join("alice").display())
        );
        assert_eq!(
            folder_trouble(&dir.path().join("fiel")).unwrap(),
            format!("its folder {} is missing", dir.path().join("fiel").display()),
            "the control: `file` is a file"
        );
        std::os::unix::fs::symlink(dir.path(), dir.path().join("link")).unwrap();
        assert_eq!(folder_trouble(dir.path()), None);
        assert_eq!(folder_trouble(&dir.path().join("link")), None);
    }

    /// A file in the way of a folder the arena makes is said to be no folder (its caller names
    /// it). The control: `create_dir_all` alone says "File exists".
    #[test]
    fn a_file_in_the_way_of_a_folder_is_said_to_be_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let replays = dir.path().join("replays");
        std::fs::write(&replays, "").unwrap();
        let plain = std::fs::create_dir_all(&replays).unwrap_err().to_string();
        assert!(plain.starts_with("File exists"), "the control: {plain}");
        let said = make_folder(&replays).unwrap_err().to_string();
        assert_eq!(said, "not a folder: move it away, the arena keeps a folder there");
        // A parent in the way is named (it was "Not a directory"); the control: under a
        // folder, the same path is made.
        let deeper = replays.join("a/b");
        let plain = std::fs::create_dir_all(&deeper).unwrap_err().to_string();
        assert!(plain.starts_with("Not a directory"), "the control: {plain}");
        let said = make_folder(&deeper).unwrap_err().to_string();
        assert_eq!(
            said,
            format!("{} is not a folder (a file is in its place), so nothing can be made in it", replays.display())
        );
        make_folder(&dir.path().join("logs/a/b")).unwrap();
        make_folder(&dir.path().join("logs/deeper")).unwrap();
        make_folder(&dir.path().join("logs")).unwrap();
    }

    /// An error of `write_atomic` names no path, as `std::fs`'s do, so that its caller names the
    /// file once; the control: `tempfile`'s own error names its temporary ("… at path
    /// DIR/.tmp-…"), which a caller naming the file then said after it.
    #[test]
    fn an_atomic_write_s_error_names_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let theirs = tempfile::Builder::new().prefix(TEMPORARY_PREFIX).tempfile_in(&file).unwrap_err().to_string();
        assert!(theirs.contains(" at path ") && theirs.contains(TEMPORARY_PREFIX), "the control: {theirs}");
        let ours = write_atomic(&file.join("page.html"), b"x").unwrap_err();
        assert_eq!(ours.to_string(), "Not a directory (os error 20)");
        assert_eq!(ours.kind(), std::io::ErrorKind::NotADirectory);
    }

    /// A FIFO where a program or a map is expected is refused at once: opened without
    /// blocking, and known by the kind of the file opened. The control: a plain open of the
    /// same FIFO is still waiting for a writer, and ends once one comes.
    #[test]
    fn a_fifo_is_no_regular_file_and_is_not_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("bot");
        make_fifo(&fifo, 0o755);
        let plain = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::File::open(fifo).is_ok())
        };
        assert_eq!(regular_head(&fifo, 16), None);
        assert!(open_regular(&fifo).unwrap().is_none());
        assert!(matches!(read_text(&fifo), Err(ReadError::NotAFile { .. })));
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!plain.is_finished(), "control: a plain open of the FIFO waits for a writer");
        drop(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap());
        assert!(plain.join().unwrap());
        // A regular file's first bytes.
        std::fs::write(dir.path().join("bot.py"), "#!/usr/bin/env python3\n").unwrap();
        assert_eq!(regular_head(&dir.path().join("bot.py"), 5).as_deref(), Some(&b"#!/us"[..]));
    }
}
