//! A mount namespace of a plain process's own (a plain bot's or build's keeper, and so the bot
//! and all it starts), where the arena can make one, for what Landlock does not do:
//!
//! - Where Landlock does not confine it (a kernel without it, or `ARENA_PLAIN_WITHOUT_LANDLOCK`),
//!   a `/dev/shm` of its own. The machine's is a tmpfs every process may write, whose files are
//!   memory no limit of the bot's counts (neither its address space, nor its resident set) and
//!   which outlive it: a red team's plain bot left 8 files of 32 MiB there under a memory limit
//!   of 64, for good. Its own is a tmpfs capped as a box's scratch space (`tmp_mb`, and its
//!   inodes), made and dropped with it: Python's `multiprocessing` works there, within the cap,
//!   and nothing is left after the match. A bot, and a build (whose memory the arena sums
//!   too), also gets `/dev/full` at `/dev/zero`, as a box without a memory cgroup does
//!   (`super::ZERO_UNMAPPED`): `/dev/zero` opened for writing and mapped shared is memory no
//!   resident set shows. (Landlock keeps a plain bot or build from writing either.)
//! - For a build (Landlock or not), and a bot Landlock does not confine: every mount read-only
//!   but the folders it may write (its scratch folder, a build's folder), where the kernel has
//!   `mount_setattr` (Linux 5.12). Landlock governs a file's data and names, not its mode, owner
//!   or times, which a build's filter refuses only in part (a linker makes its output executable
//!   with `chmod`): a plain build of an arena that is not root could `chmod` any file of its
//!   user's (`chmod 644` of the teacher's private file, `chmod 777` of a toolchain's folder),
//!   and outside a read-only mount's folders it now fails (`EROFS`). Without Landlock, a bot may
//!   so write nothing of its user's outside its scratch folder either.
//!
//! The arena's root (the machine's, or root of a user namespace, which holds `CAP_SYS_ADMIN`
//! there) makes the mount namespace alone; an arena that is not root makes it in a user namespace
//! of its own that maps only its uid and gid, each to itself (so the bot's files and processes
//! keep their owner), where the kernel lets an unprivileged user make one. The bot drops every
//! capability it holds there before it runs (see `child::enter_plain`). Where none can be made,
//! the arena says once what is missing.

use std::ffi::{CStr, CString};
use std::io;
use std::path::PathBuf;

use super::child::{self, Step};

/// Set (to anything) in the arena's environment, plain bots and builds get no mount namespace, as
/// where none can be made: for the controls of the tests only, which show what it stops working
/// without it. Said as missing, as the rest of what is.
pub const OFF_SWITCH: &str = "ARENA_PLAIN_WITHOUT_MOUNT_NAMESPACE";

/// How this arena makes a plain process's mount namespace, and what it can do there (learned
/// once, see [`Here::learn`]).
#[derive(Debug, Clone)]
pub(super) struct Here {
    way: Way,
    /// Every mount can be made read-only but some (`mount_setattr`, `open_tree`, `move_mount`:
    /// Linux 5.12).
    read_only: bool,
    /// `/dev/full` and `/dev/zero` are both here, so the one can be bound at the other (a
    /// minimal container's `/dev` may lack `/dev/full`: without this, its plain bots lost their
    /// private `/dev/shm` whole).
    zero: bool,
}

/// How a mount namespace is made.
#[derive(Debug, Clone)]
enum Way {
    /// A mount namespace alone: the arena is root (of the machine, or of its user namespace).
    Root,
    /// A user namespace of its own first, mapping `uid_map` and `gid_map` (`"U U 1"`: the
    /// arena's own ids, each to itself).
    UserNamespace { uid_map: CString, gid_map: CString },
}

impl Here {
    /// What a plain process's mount namespace can do here, or why none can be made, in words:
    /// tried in a child running `true`, with everything, then with a private `/dev/shm` alone.
    /// `Ok(None)` where there is no `/dev/shm` (a container's): none is tried then.
    pub(super) fn learn() -> Result<Option<Here>, String> {
        if std::env::var_os(OFF_SWITCH).is_some() {
            return Err(format!("it is off: {OFF_SWITCH} is set"));
        }
        if !std::path::Path::new("/dev/shm").is_dir() {
            return Ok(None);
        }
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let way = if uid == 0 {
            Way::Root
        } else {
            let map = |id: u32| CString::new(format!("{id} {id} 1")).unwrap_or_default();
            Way::UserNamespace { uid_map: map(uid), gid_map: map(gid) }
        };
        let zero = ["/dev/full", "/dev/zero"].iter().all(|d| std::path::Path::new(d).exists());
        let whole = Here { way: way.clone(), read_only: true, zero };
        let writable = [std::env::temp_dir()];
        let first = whole.plain(true, true, &writable, 1, None).map(|m| m.trial()).unwrap_or(Ok(()));
        if first.is_ok() {
            return Ok(Some(whole));
        }
        let shm = Here { way, read_only: false, zero };
        match shm.plain(true, false, &[], 1, None).map(|m| m.trial()).unwrap_or(Ok(())) {
            Ok(()) => {
                tracing::debug!(error = ?first, "no read-only mounts for plain processes here");
                Ok(Some(shm))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether every mount but the writable folders can be made read-only here.
    pub(super) fn read_only(&self) -> bool {
        self.read_only
    }

    /// Whether a plain bot's `/dev/zero` can be `/dev/full` here (both are there).
    pub(super) fn unmaps_zero(&self) -> bool {
        self.zero
    }

    /// The mounts of a plain process: a `/dev/shm` of its own of `mb` MiB (with `/dev/full` at
    /// `/dev/zero`, for a bot as for a build: the memory of neither is held by a cgroup) where
    /// `shm`, and everything read-only but `writable` where `view` (and the kernel can). `None`
    /// where it gets neither.
    pub(super) fn plain(
        &self,
        shm: bool,
        view: bool,
        writable: &[PathBuf],
        mb: u64,
        scratch: Option<(&std::path::Path, (u32, u32))>,
    ) -> Option<PlainMounts> {
        use std::os::unix::ffi::OsStrExt;
        // (A scratch folder given gets a tmpfs of `mb` over it, owned by its process.)
        let scratch = scratch.and_then(|(path, (uid, gid))| {
            let options = format!(
                "size={}m,nr_inodes={},mode=0700,uid={uid},gid={gid}",
                mb.max(1),
                super::scratch_inodes(mb.max(1))
            );
            Some((CString::new(path.as_os_str().as_bytes()).ok()?, CString::new(options).ok()?))
        });
        let view = view && self.read_only;
        // (A folder it writes in the machine's `/dev/shm`, an arena's `TMPDIR` there, would be
        // hidden by its own: it keeps the machine's then, read-only but that folder where `view`.)
        let shm = shm && !writable.iter().any(|p| p.starts_with("/dev/shm"));
        if !shm && !view && scratch.is_none() {
            return None;
        }
        let writable = view.then(|| {
            let paths = writable.iter().filter_map(|p| CString::new(p.as_os_str().as_bytes()).ok());
            paths.take(MOST_WRITABLE).collect()
        });
        Some(PlainMounts {
            way: self.way.clone(),
            shm: shm.then(|| tmpfs_options(mb)),
            zero_unmapped: shm && self.zero,
            writable,
            scratch,
        })
    }
}

impl Here {
    /// A user namespace of its own (and a private mount namespace in it, with no mount changed),
    /// where the arena is not root (`None` where it is: its plain processes run as users of their
    /// own). For a plain bot that needs no mount of its own (one Landlock confines, without a
    /// scratch folder to mount a tmpfs over): the kernel counts `RLIMIT_NPROC` for each user
    /// namespace (Linux 5.14 on), so the bot's limit holds its own processes, not every process
    /// of the arena's user (see `Sandbox::plain_command`'s limit).
    pub(super) fn user_namespace_only(&self) -> Option<PlainMounts> {
        matches!(self.way, Way::UserNamespace { .. }).then(|| PlainMounts {
            way: self.way.clone(),
            shm: None,
            zero_unmapped: false,
            writable: None,
            scratch: None,
        })
    }
}

impl PlainMounts {
    /// Whether the process enters a user namespace of its own (the arena is not root).
    pub(super) fn in_user_namespace(&self) -> bool {
        matches!(self.way, Way::UserNamespace { .. })
    }
}

/// The most folders a plain process may write (its scratch folder, a build's own and its
/// scratch folder).
const MOST_WRITABLE: usize = 4;

/// The options of a private `/dev/shm` of `mb` MiB: its inodes capped as a box's scratch space's
/// (see `super::scratch_inodes`), mode 1777 (only the plain process and what it starts see it).
fn tmpfs_options(mb: u64) -> CString {
    let mb = mb.max(1);
    CString::new(format!("size={mb}m,nr_inodes={},mode=1777", super::scratch_inodes(mb))).unwrap_or_default()
}

/// A plain process's mounts, prepared before the fork and entered just after it
/// ([`PlainMounts::enter`]).
#[derive(Debug, Clone)]
pub(super) struct PlainMounts {
    way: Way,
    /// A `/dev/shm` of its own: the tmpfs's options (see [`tmpfs_options`]).
    shm: Option<CString>,
    /// `/dev/full` bound at `/dev/zero`.
    zero_unmapped: bool,
    /// Every mount read-only but these folders (at most [`MOST_WRITABLE`]).
    writable: Option<Vec<CString>>,
    /// A tmpfs over the scratch folder (its path, the tmpfs's options), where that is in memory:
    /// a red team's plain bot wrote 1,024 MiB in its scratch folder on a tmpfs `TMPDIR` under a
    /// memory limit of 64.
    scratch: Option<(CString, CString)>,
}

/// `open_tree`'s flags: a copy of the tree, detached (`OPEN_TREE_CLONE`), with the mounts below
/// it (`AT_RECURSIVE`), its descriptor closed at `exec`, a link not followed
/// (`AT_SYMLINK_NOFOLLOW`: `move_mount` does not follow one either).
pub(super) const OPEN_TREE_CLONE: libc::c_uint = 1;
pub(super) const AT_RECURSIVE: libc::c_uint = 0x8000;
/// `mount_setattr`'s read-only attribute.
pub(super) const MOUNT_ATTR_RDONLY: u64 = 1;
/// `move_mount`'s flag: the tree to move is its descriptor.
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 4;

/// `struct mount_attr`.
#[repr(C)]
pub(super) struct MountAttr {
    pub(super) attr_set: u64,
    pub(super) attr_clr: u64,
    pub(super) propagation: u64,
    pub(super) userns_fd: u64,
}

impl PlainMounts {
    /// The path of the tmpfs over the scratch folder, where one is mounted ([`Self::enter`]).
    pub(super) fn scratch_tmpfs(&self) -> Option<&CStr> {
        self.scratch.as_ref().map(|(path, _)| path.as_c_str())
    }

    /// Enters the mounts in a child running `true`: `Err` says why they cannot be made here.
    fn trial(self) -> Result<(), String> {
        let mut command = std::process::Command::new("true");
        command.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
        command.stderr(std::process::Stdio::null());
        // SAFETY: the hook only makes system calls on data prepared before the fork.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || self.enter());
        }
        match command.status() {
            Ok(status) if status.success() => Ok(()),
            Ok(status) => Err(format!("a trial ended with {status}")),
            Err(e) => Err(match child::step_of(e.raw_os_error().unwrap_or(0)) {
                Some((_, errno)) => io::Error::from_raw_os_error(errno).to_string(),
                None => e.to_string(),
            }),
        }
    }

    /// Enters a mount namespace of the process's own (in a user namespace of its own first,
    /// where the arena is not root), its mounts private (none propagates to the machine's), with
    /// every mount read-only but the writable folders (each a copy of its tree, made before and
    /// mounted back over it after; the working folder entered again), and a tmpfs at `/dev/shm` (and `/dev/full` at `/dev/zero`).
    /// Errors are marked [`Step::Namespaces`]: the machine's.
    ///
    /// # Safety
    /// Must run between `fork` and `exec`; raw system calls only.
    pub(super) unsafe fn enter(&self) -> io::Result<()> {
        let namespaces = child::at(Step::Namespaces);
        match &self.way {
            Way::Root => check(libc::unshare(libc::CLONE_NEWNS)).map_err(&namespaces)?,
            Way::UserNamespace { uid_map, gid_map } => {
                child::one_user_namespace(libc::CLONE_NEWNS, uid_map.as_bytes(), gid_map.as_bytes())
                    .map_err(&namespaces)?
            }
        }
        let none = std::ptr::null::<libc::c_char>();
        let private = libc::MS_REC | libc::MS_PRIVATE;
        check(libc::mount(none, c"/".as_ptr(), none, private, std::ptr::null())).map_err(&namespaces)?;
        // (Before the writable folders' copies are taken: the scratch folder's is this tmpfs.)
        if let Some((path, data)) = &self.scratch {
            let (tmpfs, flags) = (c"tmpfs".as_ptr(), libc::MS_NOSUID | libc::MS_NODEV);
            check(libc::mount(tmpfs, path.as_ptr(), tmpfs, flags, data.as_ptr().cast())).map_err(&namespaces)?;
        }
        let mut trees: [libc::c_int; MOST_WRITABLE] = [-1; MOST_WRITABLE];
        if let Some(writable) = &self.writable {
            for (tree, path) in trees.iter_mut().zip(writable) {
                let flags = OPEN_TREE_CLONE
                    | AT_RECURSIVE
                    | libc::O_CLOEXEC as libc::c_uint
                    | libc::AT_SYMLINK_NOFOLLOW as libc::c_uint;
                let fd = libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, path.as_ptr(), flags);
                check(fd as libc::c_int).map_err(&namespaces)?;
                *tree = fd as libc::c_int;
            }
            let attr = MountAttr { attr_set: MOUNT_ATTR_RDONLY, attr_clr: 0, propagation: 0, userns_fd: 0 };
            let size = std::mem::size_of::<MountAttr>();
            let set = libc::syscall(libc::SYS_mount_setattr, libc::AT_FDCWD, c"/".as_ptr(), AT_RECURSIVE, &attr, size);
            check(set as libc::c_int).map_err(&namespaces)?;
        }
        if let Some(data) = &self.shm {
            let flags = libc::MS_NOSUID | libc::MS_NODEV;
            let (tmpfs, shm) = (c"tmpfs".as_ptr(), c"/dev/shm".as_ptr());
            check(libc::mount(tmpfs, shm, tmpfs, flags, data.as_ptr().cast())).map_err(&namespaces)?;
        }
        if self.zero_unmapped {
            let (full, zero) = (c"/dev/full".as_ptr(), c"/dev/zero".as_ptr());
            check(libc::mount(full, zero, none, libc::MS_BIND, std::ptr::null())).map_err(&namespaces)?;
        }
        if let Some(writable) = &self.writable {
            // (The working folder, already entered, is the mount beneath: entered again by its
            // path, it is the copy, where that is a writable folder.)
            let mut cwd = [0 as libc::c_char; libc::PATH_MAX as usize];
            if libc::getcwd(cwd.as_mut_ptr(), cwd.len()).is_null() {
                return Err(namespaces(io::Error::last_os_error()));
            }
            for (&tree, path) in trees.iter().zip(writable) {
                let moved = libc::syscall(
                    libc::SYS_move_mount,
                    tree,
                    c"".as_ptr(),
                    libc::AT_FDCWD,
                    path.as_ptr(),
                    MOVE_MOUNT_F_EMPTY_PATH,
                );
                check(moved as libc::c_int).map_err(&namespaces)?;
                libc::close(tree);
            }
            check(libc::chdir(cwd.as_ptr())).map_err(&namespaces)?;
        }
        Ok(())
    }
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}
