//! A plain bot's (or build's) own `/dev/shm`, where Landlock does not confine it (a kernel
//! without it, or `ARENA_PLAIN_WITHOUT_LANDLOCK`): the machine's `/dev/shm` is a tmpfs every
//! process may write, whose files are memory no limit of the bot's counts (neither its address
//! space, nor its resident set) and which outlive it. A red team's plain bot left 8 files of 32
//! MiB there under a memory limit of 64, for good. (Landlock, where the kernel has it, keeps a
//! plain bot from writing it at all.)
//!
//! Where the arena can make a mount namespace, the plain process (its keeper, and so the bot and
//! all it starts) gets one of its own before anything else, with a small tmpfs of its own at
//! `/dev/shm` (the box's scratch cap, `tmp_mb`, and its inodes, as a box's scratch space), made
//! and dropped with it: Python's `multiprocessing` works there, within the cap, and nothing is
//! left after the match. A bot (not a build) also gets `/dev/full` at `/dev/zero`, as a box
//! without a memory cgroup does (`super::ZERO_UNMAPPED`): `/dev/zero` opened for writing and
//! mapped shared is memory no resident set shows. The arena's root (the machine's, or root of a
//! user namespace, which holds `CAP_SYS_ADMIN` there) makes the mount namespace alone; an arena
//! that is not root makes it in a user namespace of its own that maps only its uid and gid,
//! each to itself (so the bot's files and processes keep their owner), where the kernel lets an
//! unprivileged user make one. It drops every capability it holds there before it runs (see
//! `child::enter_plain`). Where neither can be made, the arena says so once: the bot shares the
//! machine's `/dev/shm`.

use std::ffi::{CStr, CString};
use std::io;

use super::child::{self, Step};

/// How this arena makes a plain process's mount namespace (learned once, see [`Way::here`]).
#[derive(Debug, Clone)]
pub(super) enum Way {
    /// A mount namespace alone: the arena is root (of the machine, or of its user namespace).
    Root,
    /// A user namespace of its own first, mapping `uid_map` and `gid_map` (`"U U 1"`: the
    /// arena's own ids, each to itself).
    UserNamespace { uid_map: CString, gid_map: CString },
}

impl Way {
    /// How a private `/dev/shm` is made here, or why it cannot be, in words: tried once, in a
    /// child running `true`. `None` where there is no `/dev/shm` to hide (nothing of the
    /// machine's is shared then).
    pub(super) fn here() -> Option<Result<Way, String>> {
        if !std::path::Path::new("/dev/shm").is_dir() {
            return None;
        }
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let way = if uid == 0 {
            Way::Root
        } else {
            let map = |id: u32| CString::new(format!("{id} {id} 1")).unwrap_or_default();
            Way::UserNamespace { uid_map: map(uid), gid_map: map(gid) }
        };
        let trial = PrivateShm { way: way.clone(), data: tmpfs_options(1), zero_unmapped: true };
        let mut command = std::process::Command::new("true");
        command.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
        command.stderr(std::process::Stdio::null());
        // SAFETY: the hook only makes system calls on data prepared before the fork.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || trial.enter());
        }
        let tried = match command.status() {
            Ok(status) if status.success() => Ok(way),
            Ok(status) => Err(format!("a trial ended with {status}")),
            Err(e) => Err(match child::step_of(e.raw_os_error().unwrap_or(0)) {
                Some((_, errno)) => io::Error::from_raw_os_error(errno).to_string(),
                None => e.to_string(),
            }),
        };
        Some(tried)
    }
}

/// The options of a private `/dev/shm` of `mb` MiB: its inodes capped as a box's scratch space's
/// (see `super::scratch_inodes`), open to its user alone where it is a box user (mode 1777: only
/// the plain process and what it starts see it).
fn tmpfs_options(mb: u64) -> CString {
    let mb = mb.max(1);
    CString::new(format!("size={mb}m,nr_inodes={},mode=1777", super::scratch_inodes(mb))).unwrap_or_default()
}

/// A plain process's own `/dev/shm`, prepared before the fork and entered just after it
/// ([`PrivateShm::enter`]).
#[derive(Debug, Clone)]
pub(super) struct PrivateShm {
    way: Way,
    /// The tmpfs's options (see [`tmpfs_options`]).
    data: CString,
    /// `/dev/full` bound at `/dev/zero` (a bot's, not a build's).
    zero_unmapped: bool,
}

impl PrivateShm {
    /// A `/dev/shm` of `mb` MiB made `way`, with `/dev/full` at `/dev/zero` for a bot (not a
    /// `build`).
    pub(super) fn new(way: &Way, mb: u64, build: bool) -> PrivateShm {
        PrivateShm { way: way.clone(), data: tmpfs_options(mb), zero_unmapped: !build }
    }

    /// Enters a mount namespace of the process's own (in a user namespace of its own first,
    /// where the arena is not root), its mounts private (none propagates to the machine's), with
    /// a tmpfs at `/dev/shm` (and `/dev/full` at `/dev/zero`). Errors are marked
    /// [`Step::Namespaces`]: the machine's.
    ///
    /// # Safety
    /// Must run between `fork` and `exec`; raw system calls only.
    pub(super) unsafe fn enter(&self) -> io::Result<()> {
        let namespaces = child::at(Step::Namespaces);
        match &self.way {
            Way::Root => check(libc::unshare(libc::CLONE_NEWNS)).map_err(&namespaces)?,
            Way::UserNamespace { uid_map, gid_map } => {
                check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS)).map_err(&namespaces)?;
                write_file(c"/proc/self/setgroups", b"deny").map_err(&namespaces)?;
                write_file(c"/proc/self/uid_map", uid_map.as_bytes()).map_err(&namespaces)?;
                write_file(c"/proc/self/gid_map", gid_map.as_bytes()).map_err(&namespaces)?;
            }
        }
        let none = std::ptr::null::<libc::c_char>();
        let private = libc::MS_REC | libc::MS_PRIVATE;
        check(libc::mount(none, c"/".as_ptr(), none, private, std::ptr::null())).map_err(&namespaces)?;
        let flags = libc::MS_NOSUID | libc::MS_NODEV;
        let (tmpfs, shm) = (c"tmpfs".as_ptr(), c"/dev/shm".as_ptr());
        check(libc::mount(tmpfs, shm, tmpfs, flags, self.data.as_ptr().cast())).map_err(&namespaces)?;
        if self.zero_unmapped {
            let (full, zero) = (c"/dev/full".as_ptr(), c"/dev/zero".as_ptr());
            check(libc::mount(full, zero, none, libc::MS_BIND, std::ptr::null())).map_err(&namespaces)?;
        }
        Ok(())
    }
}

/// Writes `data` to the file `path` (of `/proc`), allocating nothing.
///
/// # Safety
/// Raw system calls only.
unsafe fn write_file(path: &CStr, data: &[u8]) -> io::Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let n = libc::write(fd, data.as_ptr().cast(), data.len());
    let err = io::Error::last_os_error();
    libc::close(fd);
    if n != data.len() as isize {
        return Err(err);
    }
    Ok(())
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}
