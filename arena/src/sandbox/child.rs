//! What runs in the forked child before `exec`: the box is built here, from a [`Plan`] made
//! beforehand, with raw system calls only (no allocation, no locks: the parent is
//! multi-threaded).
//!
//! Three processes per box, as bubblewrap does it:
//! - the *supervisor* (the process the arena spawned) joins the box's cgroups, makes the
//!   namespaces, forks the init and waits for it, then exits the way the bot did (by the
//!   same signal, or with the same status: the init passes on the bot's wait status through
//!   a pipe of their own, so the referee can say a bot "was killed by signal SIGSEGV");
//! - the *init* (PID 1 of the box's PID namespace) builds the file system view, forks the
//!   bot, reaps every orphan, and exits when the bot does: the kernel then kills whatever is
//!   left in the box;
//! - the *bot* drops every privilege and returns to `std`, which execs the program.

use std::ffi::{CStr, CString};
use std::io;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use libc::{c_int, c_ulong};

/// A step of the file system view, run by the init in the new mount namespace.
#[derive(Debug, Clone)]
pub(super) enum Op {
    /// Makes a directory.
    Mkdir(CString, libc::mode_t),
    /// Makes a symbolic link `path` -> `target`.
    Symlink { target: CString, path: CString },
    /// Makes an empty file (a mount point for a file).
    File(CString),
    /// Bind-mounts `src` on `dst`, then remounts it with `flags` (read-only, nosuid…).
    Bind { src: CString, dst: CString, flags: c_ulong },
    /// Mounts a tmpfs with mount data `data` (size, mode, owner).
    Tmpfs { dst: CString, data: CString, flags: c_ulong },
    /// Mounts a fresh, read-only proc for the box's PID namespace.
    Proc(CString),
    /// Changes the owner of a path.
    Chown { path: CString, uid: libc::uid_t, gid: libc::gid_t },
}

/// A path of the box shown otherwise, once the box's root is in place: the path is resolved as
/// the box resolves it (a link is followed inside the box, to what a bot would read there), and
/// nothing is done where it leads nowhere (a dangling link, a link out of the box).
#[derive(Debug, Clone)]
pub(super) struct Mask {
    /// The path, as the box names it.
    pub path: CString,
    /// What is shown instead: `None`, nothing (`/dev/null` on a file, an empty folder on a
    /// folder); otherwise a copy of these bytes, with its mode and (as root) its owner.
    pub copy: Option<MaskCopy>,
}

/// A copy a [`Mask`] shows: its bytes, its mode and (as root) its owner.
pub(super) type MaskCopy = (Vec<u8>, libc::mode_t, Option<(libc::uid_t, libc::gid_t)>);

/// Everything the child needs, prepared before the fork.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    /// The arena's pid: a supervisor whose parent is gone already exits.
    pub parent: libc::pid_t,
    /// `cgroup.procs` files to join.
    pub cgroup_procs: Vec<CString>,
    /// Maps for a user namespace (`uid_map`, `gid_map` contents), when not root.
    pub user_maps: Option<(CString, CString)>,
    /// Namespaces to make besides the user namespace.
    pub namespaces: c_int,
    /// The empty directory on which the box's root is built.
    pub root: CString,
    /// The file system view, relative to nothing: every path is absolute on the host, under `root`.
    pub ops: Vec<Op>,
    /// The paths shown otherwise once the root is in place (see [`Mask`]).
    pub masks: Vec<Mask>,
    /// The read-only remount flags for the root once built.
    pub root_flags: c_ulong,
    /// The bot's working directory inside the box.
    pub cwd: CString,
    /// Resource limits: (resource, soft, hard).
    pub rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    /// The user and group the bot runs as (root only: a box user of its own).
    pub ids: Option<(libc::uid_t, libc::gid_t)>,
    /// The host name inside the box.
    pub hostname: CString,
    /// The arena's command line and environment in memory (start, end): the init, a copy of
    /// the arena, blanks them so that the box cannot read them in /proc/1.
    pub wipe: [(usize, usize); 2],
    /// The system calls the bot may not make (see [`super::syscalls`]), compiled: every filter
    /// of `syscalls::filters`, in order.
    pub filters: Vec<seccompiler::BpfProgram>,
    /// The socket the supervisor sends the box's socket meter on (see [`send_meter`]), or -1.
    pub meter: c_int,
}

const CLOSE_RANGE_CLOEXEC: libc::c_uint = 4;
const SECBIT_NOROOT: c_ulong = 1 << 0;
const SECBIT_NOROOT_LOCKED: c_ulong = 1 << 1;
const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;

fn check(ret: c_int) -> io::Result<()> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// A step of a box's start made in the forked child, before the bot's program is run: one that
/// fails is the machine's doing, never the bot's (nothing of the bot's has run yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// The process's own set-up: death with its parent, its session, its signals, its OOM score.
    Process = 1,
    /// Joining the box's cgroups.
    Cgroup,
    /// Making the box's namespaces (its user namespace's maps too).
    Namespaces,
    /// Forking the box's init, or the bot, or a plain bot below its keeper.
    Fork,
    /// Building the box's file system, and moving into the bot's folder there.
    View,
    /// Setting the bot's resource limits (`setrlimit`).
    Limits,
    /// Becoming the bot's user (`setgroups`, `setresgid`, `setresuid`).
    User,
    /// Dropping every capability, and `no_new_privs`.
    Privileges,
    /// Installing the bot's system call filter (seccomp).
    Filter,
}

/// What std passes to the arena of a hook's error is its errno alone: a step's error carries
/// the step in bits no errno has (errno below 256, then the step, under this mark).
const STEP_MARK: i32 = 0x4152_0000;

/// Marks an error of `step` (see [`STEP_MARK`]). Allocates nothing.
pub(super) fn at(step: Step) -> impl Fn(io::Error) -> io::Error {
    move |e| io::Error::from_raw_os_error(STEP_MARK | (step as i32) << 8 | (e.raw_os_error().unwrap_or(0) & 0xff))
}

/// The step an errno a box's start returned names, and the system's own errno, if it is marked.
pub(super) fn step_of(raw: i32) -> Option<(Step, i32)> {
    if raw & !0xffff != STEP_MARK {
        return None;
    }
    let step = match (raw >> 8) & 0xff {
        1 => Step::Process,
        2 => Step::Cgroup,
        3 => Step::Namespaces,
        4 => Step::Fork,
        5 => Step::View,
        6 => Step::Limits,
        7 => Step::User,
        8 => Step::Privileges,
        9 => Step::Filter,
        _ => return None,
    };
    Some((step, raw & 0xff))
}

/// Writes `data` to the file `path` (a /proc or cgroup file), allocating nothing.
///
/// # Safety
/// Raw system calls only.
pub(super) unsafe fn write_file(path: &CStr, data: &[u8]) -> io::Result<()> {
    write_file_at(libc::AT_FDCWD, path, data)
}

/// [`write_file`], `path` taken from the folder `dir` (a descriptor, or `AT_FDCWD`).
///
/// # Safety
/// Raw system calls only.
unsafe fn write_file_at(dir: c_int, path: &CStr, data: &[u8]) -> io::Result<()> {
    let fd = libc::openat(dir, path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
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

/// Closes every descriptor (`from` and up), or marks them close-on-exec.
///
/// # Safety
/// Raw system calls only.
unsafe fn close_from(from: libc::c_uint, cloexec: bool) {
    let flags = if cloexec { CLOSE_RANGE_CLOEXEC } else { 0 };
    if libc::syscall(libc::SYS_close_range, from, libc::c_uint::MAX, flags) != 0 {
        // Kernels before 5.9 (5.11 for CLOEXEC): do it one by one.
        for fd in from as c_int..4096 {
            if cloexec {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            } else {
                libc::close(fd);
            }
        }
    }
}

/// Closes every descriptor but `keep` (when it is one: an end of the status pipe, above the
/// three standard ones), which becomes descriptor 0.
///
/// # Safety
/// Raw system calls only.
unsafe fn keep_only(keep: c_int) {
    if keep >= 0 {
        // (`dup2` clears close-on-exec on the copy; nothing here execs.)
        libc::dup2(keep, 0);
        close_from(1, false);
    } else {
        close_from(0, false);
    }
}

/// Exits exactly as a process with wait status `status` ended: by the same signal, or with
/// the same code.
///
/// # Safety
/// Raw system calls only.
unsafe fn exit_as(status: c_int) -> ! {
    if libc::WIFSIGNALED(status) {
        exit_like(status, true)
    }
    libc::_exit(libc::WEXITSTATUS(status))
}

/// Exits the way a process with wait status `status` ended: the same code, or (when
/// `reraise`) by the same signal; without re-raising, a signal `s` becomes code 128 + s.
///
/// # Safety
/// Raw system calls only.
unsafe fn exit_like(status: c_int, reraise: bool) -> ! {
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        if reraise {
            raise_default(sig);
        }
        libc::_exit(128 + sig);
    }
    let code = libc::WEXITSTATUS(status);
    // The init passes a bot's death by signal on as 128 + signal.
    if reraise && (129..=128 + 64).contains(&code) {
        raise_default(code - 128);
    }
    libc::_exit(code)
}

/// Dies by signal `sig` (no core file).
///
/// # Safety
/// Raw system calls only.
unsafe fn raise_default(sig: c_int) {
    let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    libc::setrlimit(libc::RLIMIT_CORE, &none);
    libc::signal(sig, libc::SIG_DFL);
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigaddset(&mut set, sig);
    libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    libc::kill(libc::getpid(), sig);
}

/// Waits for `pid` (or, with -1, reaps every child until `target` ends); returns its status.
///
/// # Safety
/// Raw system calls only.
unsafe fn reap_until(target: libc::pid_t, any: bool) -> c_int {
    loop {
        let mut status = 0;
        let got = libc::waitpid(if any { -1 } else { target }, &mut status, 0);
        if got == target {
            return status;
        }
        if got < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return 1 << 8; // no such child: as if it exited with 1
        }
    }
}

/// Signals back to their defaults and none blocked: the arena's handlers mean nothing here.
///
/// # Safety
/// Raw system calls only.
unsafe fn reset_signals() {
    for sig in 1..libc::SIGRTMIN() {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
}

/// The timer slack of every process in a box, in nanoseconds (the kernel's default is 50 us):
/// the sleeps, polls and waits with a timeout of a box's threads end up to 1 ms late, so that
/// they wake the CPU at most about once a millisecond. The interrupt that ends a sleep runs on
/// the CPU the sleeper last ran on, the one its match keeps to (see `referee::cpus`), and its
/// cost, on a kernel without `CONFIG_IRQ_TIME_ACCOUNTING`, is charged to whichever process it
/// interrupts: the opponent, thinking there. A bot whose threads slept 20 us at a time with a
/// slack of 1 ns had its opponent charged four times the CPU its answer used (1576 ms for a
/// 415 ms answer); with 1 ms, 1.03 times. A bot has no use for a finer sleep.
pub(super) const TIMER_SLACK_NS: libc::c_ulong = 1_000_000;

/// Has the kernel refuse a user namespace within this process's own (`ENOSPC`), whoever asks:
/// its `max_user_namespaces` becomes 0, a limit that binds every namespace below it too. The
/// box's filter refuses them already (see `syscalls`); this holds without it.
///
/// # Safety
/// Raw system calls only.
pub(super) unsafe fn forbid_user_namespaces() -> io::Result<()> {
    write_file(c"/proc/sys/user/max_user_namespaces", b"0")
}

/// Whether the kernel lets a process of this one's user, without a capability, make processes
/// past its `RLIMIT_NPROC`: it does for the machine's root alone (`copy_process` skips the
/// limit where the real user is the first user namespace's uid 0, whatever namespace the
/// process is in; `CAP_SYS_RESOURCE` or `CAP_SYS_ADMIN` there would too, and are dropped
/// first). That is the arena run by the machine's root under `unshare -r`: uid 0 of a namespace
/// that maps only root, whose bots (which keep its uid, boxed or not) no limit would hold to a
/// number of processes. Asked of the kernel in a forked child: it drops its capabilities, sets
/// its limit to 0 and forks; the fork succeeding is the answer. `None` where the child could not
/// be made or said nothing.
pub(super) fn exempt_from_the_process_limit() -> Option<bool> {
    // SAFETY: the child makes raw system calls only, then exits; it and its child are reaped.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return None;
        }
        if pid == 0 {
            if clear_capabilities().is_err() {
                libc::_exit(3);
            }
            let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            if libc::setrlimit(libc::RLIMIT_NPROC, &none) != 0 {
                libc::_exit(3);
            }
            let child = libc::fork();
            if child == 0 {
                libc::_exit(0);
            }
            if child < 0 {
                libc::_exit(if io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN) { 1 } else { 3 });
            }
            let mut status = 0;
            while libc::waitpid(child, &mut status, 0) < 0
                && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
            libc::_exit(0);
        }
        let mut status = 0;
        while libc::waitpid(pid, &mut status, 0) < 0 {
            if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return None;
            }
        }
        match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
            (true, 0) => Some(true),
            (true, 1) => Some(false),
            _ => None,
        }
    }
}

/// Runs the plan: returns in the bot process (ready to exec); the supervisor and the init
/// never return.
///
/// # Safety
/// Must run between `fork` and `exec`; raw system calls only.
pub(super) unsafe fn enter(plan: &Plan) -> io::Result<()> {
    reset_signals();
    check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL)).map_err(at(Step::Process))?;
    if libc::getppid() != plan.parent {
        libc::_exit(1); // the arena died while we were starting
    }
    // The kernel's OOM killer takes a bot before anything else.
    write_file(c"/proc/self/oom_score_adj", b"1000").map_err(at(Step::Process))?;
    for procs in &plan.cgroup_procs {
        write_file(procs, b"0").map_err(at(Step::Cgroup))?;
    }
    if let Some((uid_map, gid_map)) = &plan.user_maps {
        user_namespace(uid_map, gid_map).map_err(at(Step::Namespaces))?;
    }
    check(libc::unshare(plan.namespaces)).map_err(at(Step::Namespaces))?;
    // Before the init is forked: neither it nor the bot ever holds the meter's descriptors.
    if plan.meter >= 0 {
        send_meter(plan.meter);
        libc::close(plan.meter);
    }
    // The init tells the supervisor the bot's own wait status through this pipe: its exit
    // code alone cannot (a bot that exits with 139 is not one killed by SIGSEGV). Where it
    // cannot be made, the exit code says it as before.
    let mut status_pipe: [c_int; 2] = [-1, -1];
    if libc::pipe2(status_pipe.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) != 0 {
        status_pipe = [-1, -1];
    }
    let init = libc::fork();
    if init < 0 {
        return Err(at(Step::Fork)(io::Error::last_os_error()));
    }
    if init > 0 {
        // The supervisor: holds nothing of the bot's (its pipes close when the bot's do), but
        // the status pipe's reading end, as its descriptor 0.
        keep_only(status_pipe[0]);
        let status = reap_until(init, false);
        // (The init is gone, and every process of its box with it: nobody else can write.)
        let mut bot: c_int = 0;
        let size = std::mem::size_of::<c_int>();
        if status_pipe[0] >= 0 && libc::read(0, (&raw mut bot).cast(), size) == size as isize {
            exit_as(bot);
        }
        exit_like(status, true);
    }
    // The init, PID 1 of the box: a copy of the arena, so it hides the arena's command line,
    // environment and memory from the box.
    check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL)).map_err(at(Step::Process))?;
    check(libc::prctl(libc::PR_SET_DUMPABLE, 0)).map_err(at(Step::Process))?;
    for (start, end) in plan.wipe {
        if start != 0 && end > start {
            std::ptr::write_bytes(start as *mut u8, 0, end - start);
        }
    }
    // A session of its own: no controlling terminal (no TIOCSTI into the teacher's shell).
    check(libc::setsid()).map_err(at(Step::Process))?;
    if NICED.load(Ordering::SeqCst) {
        // A build's session is an autogroup of its own, lowered while `/proc` may still be
        // written; dumpable for that moment (its command line wiped, no box process yet), so that
        // its `/proc/self` is its own, which an arena that is not root needs to write it.
        libc::prctl(libc::PR_SET_DUMPABLE, 1);
        lower_autogroup();
        check(libc::prctl(libc::PR_SET_DUMPABLE, 0)).map_err(at(Step::Process))?;
    }
    build_view(plan).map_err(at(Step::View))?;
    check(libc::sethostname(plan.hostname.as_ptr(), plan.hostname.as_bytes().len())).map_err(at(Step::Namespaces))?;
    // The bot's timers may fire up to this late: its current and default slack (what
    // `PR_SET_TIMERSLACK` 0 restores), inherited from the init; its filter keeps it there.
    check(libc::prctl(libc::PR_SET_TIMERSLACK, TIMER_SLACK_NS)).map_err(at(Step::Process))?;
    let bot = libc::fork();
    if bot < 0 {
        return Err(at(Step::Fork)(io::Error::last_os_error()));
    }
    if bot > 0 {
        keep_only(status_pipe[1]);
        let status = reap_until(bot, true);
        if status_pipe[1] >= 0 {
            let size = std::mem::size_of::<c_int>();
            libc::write(0, (&raw const status).cast(), size);
        }
        exit_like(status, false);
    }
    // The bot.
    check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL)).map_err(at(Step::Process))?;
    check(libc::chdir(plan.cwd.as_ptr())).map_err(at(Step::View))?;
    set_limits(&plan.rlimits).map_err(at(Step::Limits))?;
    drop_privileges(plan.ids)?;
    for filter in &plan.filters {
        // (Its error holds the errno; building another would allocate after the fork.)
        seccompiler::apply_filter(filter).map_err(|_| at(Step::Filter)(io::Error::last_os_error()))?;
    }
    // Nothing of the arena's but the three pipes survives the exec.
    close_from(3, true);
    Ok(())
}

/// Makes a user namespace of the calling process's own (with the namespaces of `flags`, such
/// as `CLONE_NEWNS`, owned by it), mapped by `uid_map` and `gid_map` (the files' contents;
/// `setgroups` denied first, as a map written without a capability needs).
///
/// # Safety
/// Raw system calls only.
pub(super) unsafe fn one_user_namespace(flags: libc::c_int, uid_map: &[u8], gid_map: &[u8]) -> io::Result<()> {
    check(libc::unshare(libc::CLONE_NEWUSER | flags))?;
    write_file(c"/proc/self/setgroups", b"deny")?;
    write_file(c"/proc/self/uid_map", uid_map)?;
    write_file(c"/proc/self/gid_map", gid_map)
}

/// Makes the box's user namespace, its own user and group mapped to the arena's.
///
/// # Safety
/// Raw system calls only.
unsafe fn user_namespace(uid_map: &CString, gid_map: &CString) -> io::Result<()> {
    one_user_namespace(0, uid_map.as_bytes(), gid_map.as_bytes())?;
    // Best effort: where /proc/sys is read-only (some containers), the filter alone does it.
    let _ = forbid_user_namespaces();
    Ok(())
}

/// Sets each resource limit of `rlimits` (resource, soft, hard).
///
/// # Safety
/// Raw system calls only.
unsafe fn set_limits(rlimits: &[(libc::__rlimit_resource_t, u64, u64)]) -> io::Result<()> {
    for &(resource, soft, hard) in rlimits {
        let rl = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
        check(libc::setrlimit(resource, &rl))?;
    }
    Ok(())
}

/// Becomes `uid` and `gid`, without a supplementary group.
///
/// # Safety
/// Raw system calls only.
unsafe fn become_user(uid: libc::uid_t, gid: libc::gid_t) -> io::Result<()> {
    check(libc::setgroups(0, std::ptr::null()))?;
    check(libc::setresgid(gid, gid, gid))?;
    check(libc::setresuid(uid, uid, uid))
}

/// Sends the arena, on `to`, a socket diagnostics socket and `/proc/self/net/protocols`, both
/// of the box's network namespace (this process's, once made): the arena reads there what the
/// box's sockets hold (see `super::sockets`), and cannot enter the namespace itself. Both are
/// closed here once sent (nothing is sent where either cannot be opened: the arena says so).
///
/// # Safety
/// Raw system calls only.
pub(super) unsafe fn send_meter(to: c_int) {
    let fds = [
        libc::socket(libc::AF_NETLINK, libc::SOCK_RAW | libc::SOCK_CLOEXEC, super::sockets::NETLINK_SOCK_DIAG),
        libc::open(c"/proc/self/net/protocols".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC),
    ];
    if fds.iter().all(|&fd| fd >= 0) {
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
        // (Room for a cmsghdr and two descriptors, aligned as one.)
        let mut control = [0u64; 8];
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        let size = std::mem::size_of_val(&fds) as u32;
        msg.msg_controllen = libc::CMSG_SPACE(size) as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        if !cmsg.is_null() {
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(size) as _;
            std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast::<c_int>(), fds.len());
            libc::sendmsg(to, &msg, libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL);
        }
    }
    for fd in fds.into_iter().filter(|&fd| fd >= 0) {
        libc::close(fd);
    }
}

/// Builds the box's root from the plan's steps and moves into it.
///
/// # Safety
/// Raw system calls only.
unsafe fn build_view(plan: &Plan) -> io::Result<()> {
    let null = std::ptr::null::<libc::c_char>();
    let no_data = std::ptr::null::<libc::c_void>();
    // Nothing mounted here shows outside, and nothing mounted outside shows here.
    check(libc::mount(null, c"/".as_ptr(), null, libc::MS_REC | libc::MS_PRIVATE, no_data))?;
    for op in &plan.ops {
        match op {
            Op::Mkdir(path, mode) => {
                if libc::mkdir(path.as_ptr(), *mode) != 0
                    && io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
                {
                    return Err(io::Error::last_os_error());
                }
                check(libc::chmod(path.as_ptr(), *mode))?;
            }
            Op::Symlink { target, path } => check(libc::symlink(target.as_ptr(), path.as_ptr()))?,
            Op::File(path) => {
                let fd = libc::open(path.as_ptr(), libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC, 0o644);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                libc::close(fd);
            }
            Op::Bind { src, dst, flags } => {
                check(libc::mount(src.as_ptr(), dst.as_ptr(), null, libc::MS_BIND, no_data))?;
                let remount = libc::MS_BIND | libc::MS_REMOUNT | flags;
                check(libc::mount(null, dst.as_ptr(), null, remount, no_data))?;
            }
            Op::Tmpfs { dst, data, flags } => {
                check(libc::mount(c"tmpfs".as_ptr(), dst.as_ptr(), c"tmpfs".as_ptr(), *flags, data.as_ptr().cast()))?
            }
            Op::Proc(dst) => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
                check(libc::mount(c"proc".as_ptr(), dst.as_ptr(), c"proc".as_ptr(), flags, no_data))?
            }
            Op::Chown { path, uid, gid } => check(libc::chown(path.as_ptr(), *uid, *gid))?,
        }
    }
    // The new root replaces the old one, which is then let go entirely.
    check(libc::chdir(plan.root.as_ptr()))?;
    check(libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as c_int)?;
    check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
    check(libc::chdir(c"/".as_ptr()))?;
    for mask in &plan.masks {
        apply_mask(mask)?;
    }
    let remount = libc::MS_BIND | libc::MS_REMOUNT | plan.root_flags;
    check(libc::mount(null, c"/".as_ptr(), null, remount, no_data))?;
    Ok(())
}

/// Shows `mask.path` otherwise (see [`Mask`]), in the box's root, before it is made read-only.
/// A copy is written to a file of the root's own, bound on the path, then unlinked. The path may
/// go, or change kind, between its look-up and the mount (a lock or journal file, made and
/// removed by a process outside, such as cargo's `.global-cache-journal`): it is looked up again
/// until it is found gone (passed over) or masked; before, its `ENOENT` failed the box. (Only the
/// system's and the teacher's processes write where masks are; a file made and removed in a
/// tight loop was masked or found gone within a few tries: [`MASK_TRIES`] is far more.)
///
/// # Safety
/// Raw system calls only.
unsafe fn apply_mask(mask: &Mask) -> io::Result<()> {
    let mut last = Ok(());
    for _ in 0..MASK_TRIES {
        last = apply_mask_once(mask);
        match &last {
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ENOTDIR)) => continue,
            _ => return last,
        }
    }
    last
}

/// How many times [`apply_mask`] looks a path up again that went between its look-up and its mount.
const MASK_TRIES: usize = 100;

/// [`apply_mask`], once: what is found at the path when looked up.
///
/// # Safety
/// Raw system calls only.
unsafe fn apply_mask_once(mask: &Mask) -> io::Result<()> {
    let null = std::ptr::null::<libc::c_char>();
    let no_data = std::ptr::null::<libc::c_void>();
    let mut st: libc::stat = std::mem::zeroed();
    // (The init may read more than the bot will: what it cannot reach, the bot cannot either.)
    if libc::stat(mask.path.as_ptr(), &mut st) != 0 {
        return Ok(());
    }
    let hidden = libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NOEXEC;
    if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
        let data = c"size=4k,nr_inodes=1,mode=0";
        return check(libc::mount(
            c"tmpfs".as_ptr(),
            mask.path.as_ptr(),
            c"tmpfs".as_ptr(),
            hidden,
            data.as_ptr().cast(),
        ));
    }
    let Some((bytes, mode, owner)) = &mask.copy else {
        check(libc::mount(c"/dev/null".as_ptr(), mask.path.as_ptr(), null, libc::MS_BIND, no_data))?;
        return check(libc::mount(null, mask.path.as_ptr(), null, libc::MS_BIND | libc::MS_REMOUNT | hidden, no_data));
    };
    let copy = c"/.arena-mask";
    let fd = libc::open(copy.as_ptr(), libc::O_CREAT | libc::O_EXCL | libc::O_WRONLY | libc::O_CLOEXEC, 0o600);
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut done = 0;
    while done < bytes.len() {
        let n = libc::write(fd, bytes[done..].as_ptr().cast(), bytes.len() - done);
        if n <= 0 {
            let err = io::Error::last_os_error();
            libc::close(fd);
            return Err(err);
        }
        done += n as usize;
    }
    let owned = owner.map_or(0, |(uid, gid)| libc::fchown(fd, uid, gid));
    let moded = libc::fchmod(fd, *mode & 0o777);
    libc::close(fd);
    let flags = hidden | libc::MS_NODEV;
    let bound = check(owned)
        .and_then(|()| check(moded))
        .and_then(|()| check(libc::mount(copy.as_ptr(), mask.path.as_ptr(), null, libc::MS_BIND, no_data)))
        .and_then(|()| {
            check(libc::mount(null, mask.path.as_ptr(), null, libc::MS_BIND | libc::MS_REMOUNT | flags, no_data))
        });
    // (Unlinked whatever came of it: a look-up again makes it anew.)
    let unlinked = check(libc::unlink(copy.as_ptr()));
    bound.and(unlinked)
}

/// Leaves the bot with no capability it could use or regain: an exec as uid 0 grants none
/// (`SECBIT_NOROOT`), the bounding set is empty, then the box user is taken (root only),
/// and `no_new_privs` stops set-uid programs.
///
/// # Safety
/// Raw system calls only.
unsafe fn drop_privileges(ids: Option<(libc::uid_t, libc::gid_t)>) -> io::Result<()> {
    let privileges = at(Step::Privileges);
    drop_bounds().map_err(&privileges)?;
    if let Some((uid, gid)) = ids {
        become_user(uid, gid).map_err(at(Step::User))?;
    }
    clear_capabilities().map_err(&privileges)?;
    check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)).map_err(&privileges)?;
    Ok(())
}

/// Leaves this process (root, in its user namespace) no capability it could regain: an exec as
/// uid 0 grants none (`SECBIT_NOROOT`, locked), the bounding set is empty, the ambient set
/// cleared. What it holds now stays until [`clear_capabilities`].
///
/// # Safety
/// Raw system calls only.
unsafe fn drop_bounds() -> io::Result<()> {
    check(libc::prctl(libc::PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED))?;
    for cap in 0..64 {
        if libc::prctl(libc::PR_CAPBSET_DROP, cap) != 0
            && io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
        {
            return Err(io::Error::last_os_error());
        }
    }
    libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    Ok(())
}

/// What a plain bot that keeps the arena's uid drops ([`enter_plain`]): every capability it
/// holds, ambient ones included, and, where it may (`CAP_SETPCAP`), its bounding set and
/// root's grant at an exec ([`drop_bounds`]). A user who is not root, and root of a namespace
/// made without capabilities (`bwrap --uid 0`, `setpriv --bounding-set=-all`), may not change
/// those (`EPERM`: the latter's bots failed to start), and need not: with its permitted set empty and `no_new_privs`, which the caller sets next, an
/// exec gains nothing (the kernel keeps a `no_new_privs` exec's permitted set within the old).
///
/// # Safety
/// Raw system calls only.
unsafe fn drop_capabilities() -> io::Result<()> {
    match drop_bounds() {
        Err(e) if e.raw_os_error() == Some(libc::EPERM) => {
            libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        }
        done => done?,
    }
    clear_capabilities()
}

/// Empties this process's effective, permitted and inheritable capability sets.
///
/// # Safety
/// Raw system calls only.
unsafe fn clear_capabilities() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let header = Header { version: LINUX_CAPABILITY_VERSION_3, pid: 0 };
    let data = [Data { effective: 0, permitted: 0, inheritable: 0 }; 2];
    check(libc::syscall(libc::SYS_capset, &header, data.as_ptr()) as c_int)
}

/// The plain child of `--sandbox none` and of `--sandbox plain` (what `auto` falls back to
/// where no box can be made): resource limits, death with the arena and `no_new_privs`.
///
/// Without `keep_terminal` (`plain`), the process the arena spawned becomes a *keeper*: a
/// session of its own, a subreaper (whatever the bot starts and leaves behind, even in a
/// session of its own, becomes its child), forks the bot, and once the bot ends, or the arena
/// asks (`SIGTERM`) or dies, kills every process left below it before exiting the way the bot
/// did: without a PID namespace, nothing else would end a daemon the bot left. The bot gets
/// no descriptor but the pipes, and becomes `ids` (root only: a box user, or a build's folder
/// owner), or, root without them (in a user namespace that does not map the box users), drops
/// every capability. With `keep_terminal` (`none`, for debugging) the bot is the process
/// spawned, and a daemon it leaves outlives it.
///
/// With a keeper, the bot's process (not the keeper) last enters the Landlock ruleset
/// `landlock` (a descriptor, or -1: none), made beforehand (see `super::confine`), and takes
/// its `filters` (compiled, see `super::syscalls::plain_filters`): the keeper stays outside its
/// domain, and may still signal what the bot starts. Where `bot_timers` (a bot, not a build),
/// the bot's timer slack is a box's bot's ([`TIMER_SLACK_NS`]).
///
/// # Safety
/// Must run between `fork` and `exec`; raw system calls only.
pub(super) unsafe fn enter_plain(
    parent: libc::pid_t,
    rlimits: &[(libc::__rlimit_resource_t, u64, u64)],
    ids: Option<(libc::uid_t, libc::gid_t)>,
    keep_terminal: bool,
    landlock: c_int,
    filters: &[seccompiler::BpfProgram],
    bot_timers: bool,
) -> io::Result<()> {
    let process = at(Step::Process);
    check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL)).map_err(&process)?;
    if libc::getppid() != parent {
        libc::_exit(1);
    }
    if !keep_terminal {
        check(libc::setsid()).map_err(&process)?;
        lower_autogroup();
        reset_signals();
        let keeper = libc::getpid();
        check(libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1)).map_err(&process)?;
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_end as extern "C" fn(c_int) as libc::sighandler_t;
        // (No SA_RESTART: the signal interrupts the keeper's wait.)
        check(libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut())).map_err(&process)?;
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM)).map_err(&process)?;
        if libc::getppid() != parent {
            libc::_exit(1);
        }
        if bot_timers {
            // The bot's timers may fire up to this late, as a box's: its current and default
            // slack (what `PR_SET_TIMERSLACK` 0 restores), the keeper's at the fork; its filter
            // keeps it there (see `syscalls::bot_filters`).
            check(libc::prctl(libc::PR_SET_TIMERSLACK, TIMER_SLACK_NS)).map_err(&process)?;
        }
        let bot = libc::fork();
        if bot < 0 {
            return Err(at(Step::Fork)(io::Error::last_os_error()));
        }
        if bot > 0 {
            close_from(0, false);
            keep(bot);
        }
        // The bot.
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL)).map_err(&process)?;
        if libc::getppid() != keeper {
            libc::_exit(1);
        }
    }
    set_limits(rlimits).map_err(at(Step::Limits))?;
    if let Some((uid, gid)) = ids {
        // (Leaving root for another user drops every capability.)
        become_user(uid, gid).map_err(at(Step::User))?;
    } else if !keep_terminal {
        // The bot keeps the arena's uid. Root in a user namespace that does not map the box
        // users (`unshare -r`, see `Sandbox::new`) is 0 there, and would keep every capability
        // of the namespace (`CAP_DAC_OVERRIDE` over its files, `CAP_SYS_ADMIN`'s mounts,
        // `CAP_KILL`…) and regain them at its exec; an arena that is not root may hold ambient
        // ones (a service's `AmbientCapabilities=`), which an exec keeps even under
        // `no_new_privs` (a red team's plain bot held `CAP_SYS_ADMIN`). It drops them all, as a
        // box's bot.
        drop_capabilities().map_err(at(Step::Privileges))?;
    } else {
        // (`none` promises nothing, and a root arena's bot is root with all root may do; but an
        // arena that is not root holding ambient capabilities gave them to every bot's program,
        // which a user asking for no sandbox would not expect: cleared, as cheap as that. Its
        // error, before Linux 4.3 that has none, is no matter.)
        libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    }
    check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)).map_err(at(Step::Privileges))?;
    if !keep_terminal && landlock >= 0 {
        // (`no_new_privs` first: the kernel requires it of a process without CAP_SYS_ADMIN.)
        check(libc::syscall(libc::SYS_landlock_restrict_self, landlock, 0) as c_int).map_err(at(Step::Privileges))?;
    }
    for filter in filters.iter().filter(|_| !keep_terminal) {
        // (Its error holds the errno; building another would allocate after the fork.)
        seccompiler::apply_filter(filter).map_err(|_| at(Step::Filter)(io::Error::last_os_error()))?;
    }
    if !keep_terminal {
        close_from(3, true);
    }
    Ok(())
}

/// How much lower than the arena's a build's processes run: their nice value this much higher
/// (19 at most). A summed build's memory is looked at by a thread of the arena's own (see
/// `tournament::build`'s looker); at the arena's priority, a build of busy processes on a loaded
/// machine (a load of 21) kept that look waiting for the CPU, and held 200 MiB past a cap of 64
/// for some 10 s meanwhile. Niced so, the build yields the CPU to the look (the scheduler gives
/// a process of nice 10 about a tenth of the share of one of nice 0). A bot is not niced: it is
/// looked at by the monitor, and plays against another at the arena's priority.
pub(super) const BUILD_NICENESS: c_int = 10;

/// Lowers the calling process's priority by [`BUILD_NICENESS`], for a build, before its box or
/// its keeper is made: every process of the build inherits it (a nice value raised is allowed to
/// any process, whatever its `RLIMIT_NICE`). Its failure stops no build, which runs on at the
/// arena's priority: the arena sees that once it has started, and says so
/// (`BoxHandle::started`), as nothing may be logged here. It also reads the nice value of the
/// arena's autogroup, which the process is still in, for [`lower_autogroup`].
///
/// # Safety
/// In the forked child before `exec` (or any process): raw system calls only.
pub(super) unsafe fn lower_priority() {
    NICED.store(true, Ordering::SeqCst);
    // (Unread, as where the kernel has no autogroups: the arena's is taken as 0.)
    let own = autogroup_nice(c"/proc/self/autogroup").unwrap_or(0);
    AUTOGROUP_NICE.store(lowered(own), Ordering::SeqCst);
    if let Some(now) = nice_of(0) {
        libc::setpriority(libc::PRIO_PROCESS, 0, lowered(now));
    }
}

/// The nice value of the process `pid` (0: the calling one), or `None` where it cannot be read
/// (no such process). `getpriority` may return -1 as a nice value: this thread's `errno`, cleared
/// before, tells its failure. Async-signal-safe (raw system calls, nothing allocated): for the
/// forked child before `exec` as for the arena.
pub(super) fn nice_of(pid: libc::pid_t) -> Option<c_int> {
    // SAFETY: errno is this thread's; getpriority has no memory preconditions.
    unsafe {
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, pid as libc::id_t);
        (nice != -1 || *libc::__errno_location() == 0).then_some(nice)
    }
}

/// A nice value `nice` lowered by [`BUILD_NICENESS`]: 19 at most, the lowest there is.
pub(super) fn lowered(nice: c_int) -> c_int {
    nice.saturating_add(BUILD_NICENESS).min(19)
}

/// Set in a build's process by [`lower_priority`], before its keeper or box is made: its session
/// is then lowered too (see [`lower_autogroup`]).
static NICED: AtomicBool = AtomicBool::new(false);

/// The nice value a build's session gets (see [`lower_autogroup`]), set by [`lower_priority`].
static AUTOGROUP_NICE: AtomicI32 = AtomicI32::new(BUILD_NICENESS);

/// How long [`lower_autogroup`] may wait for the kernel to take a session's nice value, and how
/// long it pauses between two asks (ns). The kernel lets a process without `CAP_SYS_ADMIN` (an
/// arena that is not root, or its box's init) set an autogroup's nice value once every 100 ms,
/// for the whole machine, and answers `EAGAIN` otherwise: builds started together take turns,
/// ten a second. Asked 12 times 20 ms apart, as before, at most three of eight builds started at
/// once were lowered (see the tests); 3 s covers some thirty at once, and delays a build's start
/// by that much at most.
pub(super) const AUTOGROUP_WAIT_NS: i64 = 3_000_000_000;
const AUTOGROUP_PAUSE_NS: libc::c_long = 20_000_000;

/// Lowers a build's session, just made (`setsid`: a build's keeper's, or its box's init's), when
/// [`lower_priority`] lowered the process (nothing otherwise: a bot's session keeps the arena's
/// share). Where the kernel groups processes by session for the scheduler
/// (`CONFIG_SCHED_AUTOGROUP`, `/proc/sys/kernel/sched_autogroup_enabled`), each session is an
/// autogroup, and autogroups share the CPU as equals whatever the nice values of their processes:
/// a build of nice 10 in a session of its own had as much of the CPU as the arena's whole
/// session. Its autogroup's own nice value (`/proc/self/autogroup`, which a process may raise
/// without privilege) puts it back below the arena's: the arena's autogroup's nice value plus
/// [`BUILD_NICENESS`] (19 at most), as a build's processes get the arena's nice value plus as
/// much. Not 10 outright: the weights of autogroups are relative, and an arena whose own session
/// was niced (an autogroup at 10 or more) would have a build's as high as its own, or higher;
/// one raised (below 0, by root) keeps its builds 10 below it, as their processes. (A new
/// session's autogroup starts at 0, whatever the arena's; a build's processes may make no
/// session, and no autogroup, of their own: see `syscalls::session_lock`.) A plain build's keeper
/// runs in a mount namespace whose mounts are all read-only already (see `super::mounts`), `/proc`
/// with them: it writes through a copy of `/proc`'s mount made writable, detached, seen by no one
/// and dropped at once (it still holds its namespace's `CAP_SYS_ADMIN` then). The kernel takes
/// one such write a tenth of a second from processes without `CAP_SYS_ADMIN`: it asks again
/// until [`AUTOGROUP_WAIT_NS`] have passed. Failures stop nothing (no autogroups, a `/proc` that
/// cannot be written, too many builds at once): the build runs on in an autogroup of the arena's
/// priority, as before, and the arena says so (`BoxHandle::started`).
///
/// # Safety
/// In the forked child before `exec`: raw system calls only.
pub(super) unsafe fn lower_autogroup() {
    if NICED.load(Ordering::SeqCst) {
        set_autogroup_nice(AUTOGROUP_NICE.load(Ordering::SeqCst), AUTOGROUP_WAIT_NS);
    }
}

/// Sets the calling process's autogroup's nice value to `nice` (-20 to 19), asking again while
/// the kernel answers `EAGAIN`, for `wait_ns` at most (see [`lower_autogroup`]).
///
/// # Safety
/// Raw system calls only.
unsafe fn set_autogroup_nice(nice: c_int, wait_ns: i64) {
    let mut text = [0u8; 3];
    let text = nice_text(nice, &mut text);
    let deadline = monotonic_ns().saturating_add(wait_ns);
    // (Counted too, should the clock not be read: at most the pauses that fit in the wait.)
    #[allow(clippy::useless_conversion, reason = "c_long is i32 on 32-bit targets")]
    let most = (wait_ns / i64::from(AUTOGROUP_PAUSE_NS)).max(1);
    let mut proc: c_int = -1;
    for _ in 0..=most {
        let written = if proc >= 0 {
            write_file_at(proc, c"self/autogroup", text)
        } else {
            write_file_at(libc::AT_FDCWD, c"/proc/self/autogroup", text)
        };
        match written.map_err(|e| e.raw_os_error()) {
            Err(Some(libc::EROFS)) if proc < 0 => {
                proc = writable_proc();
                if proc < 0 {
                    break;
                }
            }
            Err(Some(libc::EAGAIN)) if monotonic_ns() < deadline => {
                let pause = libc::timespec { tv_sec: 0, tv_nsec: AUTOGROUP_PAUSE_NS };
                libc::nanosleep(&pause, std::ptr::null_mut());
            }
            _ => break,
        }
    }
    if proc >= 0 {
        libc::close(proc);
    }
}

/// `nice` (-20 to 19, clamped) in decimal, written into `text`, allocating nothing.
fn nice_text(nice: c_int, text: &mut [u8; 3]) -> &[u8] {
    let nice = nice.clamp(-20, 19);
    let mut len = 0;
    if nice < 0 {
        text[0] = b'-';
        len = 1;
    }
    let abs = nice.unsigned_abs() as u8;
    if abs >= 10 {
        text[len] = b'0' + abs / 10;
        len += 1;
    }
    text[len] = b'0' + abs % 10;
    &text[..=len]
}

/// The monotonic clock, in ns (0 where it cannot be read).
///
/// # Safety
/// Raw system calls only.
unsafe fn monotonic_ns() -> i64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now);
    now.tv_sec.saturating_mul(1_000_000_000).saturating_add(now.tv_nsec)
}

/// The nice value of the autogroup that an autogroup file (`/proc/PID/autogroup`) shows, or
/// `None` where it cannot be read (no such process, a kernel without autogroups). Raw system
/// calls only, nothing allocated: for the forked child before `exec` as for the arena.
pub(super) fn autogroup_nice(path: &CStr) -> Option<c_int> {
    let mut text = [0u8; 64];
    // SAFETY: a NUL-terminated path, a buffer we own of the length given, a descriptor we close.
    let n = unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let n = libc::read(fd, text.as_mut_ptr().cast(), text.len());
        libc::close(fd);
        n
    };
    parse_autogroup_nice(text.get(..usize::try_from(n).ok()?)?)
}

/// Whether the kernel groups processes by session for the scheduler (autogroups,
/// `/proc/sys/kernel/sched_autogroup_enabled`): `Err` with the reason where it does not.
pub(super) fn autogroups() -> Result<(), String> {
    match std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled") {
        Ok(on) if on.trim() == "1" => Ok(()),
        Ok(_) => Err("sched_autogroup_enabled is 0".to_string()),
        Err(e) => Err(format!("no /proc/sys/kernel/sched_autogroup_enabled ({e})")),
    }
}

/// The nice value in an autogroup file's text ("/autogroup-N nice K"), allocating nothing.
pub(super) fn parse_autogroup_nice(text: &[u8]) -> Option<c_int> {
    let at = text.windows(6).position(|w| w == b" nice ")? + 6;
    let rest = &text[at..];
    let (negative, rest) = match rest.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, rest),
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let value = rest[..digits].iter().fold(0, |n, d| n * 10 + c_int::from(d - b'0'));
    Some(if negative { -value } else { value })
}

/// A copy of `/proc`'s mount, detached and writable (`open_tree`, then `mount_setattr` clearing
/// its read-only flag), as a descriptor, or -1.
///
/// # Safety
/// Raw system calls only.
unsafe fn writable_proc() -> c_int {
    use super::mounts::{MountAttr, AT_RECURSIVE, MOUNT_ATTR_RDONLY, OPEN_TREE_CLONE};
    let flags = OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint;
    let tree = libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, c"/proc".as_ptr(), flags) as c_int;
    if tree < 0 {
        return -1;
    }
    let attr = MountAttr { attr_set: 0, attr_clr: MOUNT_ATTR_RDONLY, propagation: 0, userns_fd: 0 };
    let at = libc::AT_EMPTY_PATH as libc::c_uint | AT_RECURSIVE;
    let size = std::mem::size_of::<MountAttr>();
    if libc::syscall(libc::SYS_mount_setattr, tree, c"".as_ptr(), at, &attr, size) != 0 {
        libc::close(tree);
        return -1;
    }
    tree
}

/// Set when the keeper is asked to end everything (see [`enter_plain`]).
static ENDING: AtomicBool = AtomicBool::new(false);
/// The keeper's bot, killed at once when it is asked to end (so that its wait ends, even when
/// the signal comes just before it).
static BOT: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_end(_: c_int) {
    ENDING.store(true, Ordering::SeqCst);
    let bot = BOT.load(Ordering::SeqCst);
    if bot > 0 {
        // SAFETY: kill is async-signal-safe.
        unsafe { libc::kill(bot, libc::SIGKILL) };
    }
}

/// The keeper of a plain bot (see [`enter_plain`]): reaps until the bot ends or it is asked to
/// end, kills every process left below it, and exits the way the bot did.
///
/// # Safety
/// Raw system calls only.
unsafe fn keep(bot: libc::pid_t) -> ! {
    BOT.store(bot, Ordering::SeqCst);
    let mut status: Option<c_int> = None;
    while status.is_none() && !ENDING.load(Ordering::SeqCst) {
        let mut st = 0;
        let got = libc::waitpid(-1, &mut st, 0);
        if got == bot {
            status = Some(st);
        } else if got < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
            break;
        }
    }
    // Kill what the children list shows, reap, and look again: whoever a killed process
    // leaves behind becomes the keeper's child in turn.
    loop {
        let mut st = 0;
        let got = libc::waitpid(-1, &mut st, libc::WNOHANG);
        if got == bot {
            status.get_or_insert(st);
        }
        if got > 0 {
            continue;
        }
        if got < 0 {
            break; // no child left
        }
        match kill_children() {
            // The list cannot be read (a kernel without it): nothing more can be found.
            None => break,
            Some(0) => {
                // Children, none listed yet (one is being handed over): look again shortly.
                let pause = libc::timespec { tv_sec: 0, tv_nsec: 1_000_000 };
                libc::nanosleep(&pause, std::ptr::null_mut());
            }
            Some(_) => {
                let got = libc::waitpid(-1, &mut st, 0);
                if got == bot {
                    status.get_or_insert(st);
                }
            }
        }
    }
    // (The status is the bot's own: only a death by signal is one, unlike the init's codes.)
    exit_as(status.unwrap_or(1 << 8))
}

/// Sends `SIGKILL` to each child listed in `/proc/thread-self/children`; returns how many, or
/// `None` when the list cannot be read.
///
/// # Safety
/// Raw system calls only.
unsafe fn kill_children() -> Option<usize> {
    let fd = libc::open(c"/proc/thread-self/children".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return None;
    }
    let mut buf = [0u8; 4096];
    let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
    libc::close(fd);
    let (mut killed, mut pid, mut digits) = (0, 0 as libc::pid_t, 0);
    // Each pid ends with a space; one cut off at the end of the buffer is left for next time.
    for &b in &buf[..n.max(0) as usize] {
        if b.is_ascii_digit() {
            pid = pid.saturating_mul(10).saturating_add(libc::pid_t::from(b - b'0'));
            digits += 1;
        } else {
            if digits > 0 && pid > 0 {
                libc::kill(pid, libc::SIGKILL);
                killed += 1;
            }
            (pid, digits) = (0, 0);
        }
    }
    Some(killed)
}

#[cfg(test)]
mod tests {
    /// In a child in a user namespace of its own (as the supervisor of an unprivileged arena's
    /// box is), with the limit set or not: what `unshare(CLONE_NEWUSER)` answers there (0, or
    /// its errno), or `None` where no user namespace can be made for the test (its code 255).
    fn nested_user_namespace(forbidden: bool) -> Option<i32> {
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let (uid_map, gid_map) = (format!("0 {uid} 1").into_bytes(), format!("0 {gid} 1").into_bytes());
        // SAFETY: the child makes raw system calls only (on data made before the fork), then exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                // (As the box's: a namespace without maps may make none below it.)
                if super::one_user_namespace(0, &uid_map, &gid_map).is_err()
                    || forbidden && super::forbid_user_namespaces().is_err()
                {
                    libc::_exit(255);
                }
                let made = libc::unshare(libc::CLONE_NEWUSER) == 0;
                libc::_exit(if made { 0 } else { io_errno() });
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            Some(libc::WEXITSTATUS(status)).filter(|&code| libc::WIFEXITED(status) && code != 255)
        }
    }

    /// In a child that is root in a user namespace mapping only this user (as an arena under
    /// `unshare -r`), after [`super::drop_capabilities`] where `drop` (as
    /// `super::enter_plain` does for such a plain bot): whether it holds any capability, or
    /// could regain one (its permitted, effective, inheritable, bounding or ambient set, read in
    /// /proc/self/status, is not empty); `None` where no user namespace can be made here.
    fn capabilities_held_as_root_of_a_user_namespace(drop: bool) -> Option<bool> {
        // SAFETY: raw system calls only, in the child.
        let code = in_a_child_root_of_a_one_uid_namespace(|| unsafe {
            if drop && super::drop_capabilities().is_err() {
                return 3;
            }
            let mut status = [0u8; 16384];
            let fd = libc::open(c"/proc/self/status".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
            let n = if fd < 0 { -1 } else { libc::read(fd, status.as_mut_ptr().cast(), status.len()) };
            if n <= 0 {
                return 4;
            }
            let text = &status[..n as usize];
            let mut sets = 0;
            let mut held = false;
            for name in [&b"CapInh:"[..], b"CapPrm:", b"CapEff:", b"CapBnd:", b"CapAmb:"] {
                let Some(at) = text.windows(name.len()).position(|w| w == name) else { continue };
                sets += 1;
                let value = text[at + name.len()..].iter().skip_while(|b| b.is_ascii_whitespace());
                held |= value.take_while(|b| b.is_ascii_hexdigit()).any(|&b| b != b'0');
            }
            if sets < 5 {
                5
            } else {
                i32::from(held)
            }
        })?;
        match code {
            held @ (0 | 1) => Some(held == 1),
            other => panic!("the child failed: {other} (3: the drop, 4: its status, 5: a set missing)"),
        }
    }

    /// Runs `sh -c grep` of its own /proc/self/status in place of this (forked) process: it
    /// exits 0 where the program holds no effective capability, 1 where it holds one; this
    /// returns 5 only if the exec failed. Raw system calls only.
    unsafe fn exec_effective_capabilities_check() -> i32 {
        let check = c"grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status";
        let argv = [c"sh".as_ptr(), c"-c".as_ptr(), check.as_ptr(), std::ptr::null()];
        libc::execv(c"/bin/sh".as_ptr(), argv.as_ptr());
        5
    }

    /// Runs `then` in a forked child made root of a user namespace mapping only this user (as
    /// `unshare -r` makes it), which exits with what `then` returns: that status, `None` where
    /// no such namespace can be made here. `then` must make raw system calls only.
    fn in_a_child_root_of_a_one_uid_namespace(then: impl FnOnce() -> i32) -> Option<i32> {
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let (uid_map, gid_map) = (format!("0 {uid} 1").into_bytes(), format!("0 {gid} 1").into_bytes());
        // SAFETY: the child makes raw system calls only (on data made before the fork), then exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                if super::one_user_namespace(0, &uid_map, &gid_map).is_err() {
                    libc::_exit(255);
                }
                libc::_exit(then());
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            match libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)) {
                Some(255) => None,
                Some(code) => Some(code),
                None => panic!("the child was killed: status {status}"),
            }
        }
    }

    /// A plain bot of root in a user namespace that does not map the box users keeps the
    /// arena's uid, root there: the drop leaves it no capability in any set. The control: root
    /// of such a namespace holds them (`CAP_DAC_OVERRIDE` and all) without it.
    #[test]
    fn root_of_a_user_namespace_drops_every_capability() {
        none_held_with_the_defence(
            capabilities_held_as_root_of_a_user_namespace,
            "root of a user namespace holds capabilities there",
            NO_USER_NAMESPACE,
        );
    }

    /// Said where a test needs a user namespace and none can be made here.
    const NO_USER_NAMESPACE: &str =
        "no user namespace can be made here (unshare(CLONE_NEWUSER) refused): nothing to show";

    /// What a test of a capability defence shows: `held(false)`, the control (the defence off),
    /// holds a capability (`control` says which way), and `held(true)` none. Where `held` can set
    /// nothing up here (`None`), `skipped` is said and nothing shown.
    fn none_held_with_the_defence(held: impl Fn(bool) -> Option<bool>, control: &str, skipped: &str) {
        let Some(without) = held(false) else {
            eprintln!("{skipped}");
            return;
        };
        assert!(without, "the control: {control}");
        assert_eq!(held(true), Some(false));
    }

    /// In a child that is root of a user namespace mapping only this user but holds no
    /// capability (as under `bwrap --uid 0`: its bounding set full, no `CAP_SETPCAP` to empty it),
    /// after [`super::drop_capabilities`] and, where `no_new_privs`, `PR_SET_NO_NEW_PRIVS`:
    /// whether a program it runs holds an effective capability (`sh -c grep` of the exec's own
    /// /proc/self/status); `None` where no user namespace can be made here.
    fn an_exec_of_capless_root_regains_capabilities(no_new_privs: bool) -> Option<bool> {
        // SAFETY: raw system calls only, in the child, which then runs `sh`.
        let code = in_a_child_root_of_a_one_uid_namespace(|| unsafe {
            // Root of the namespace without a capability, as `bwrap --uid 0` makes it.
            if super::clear_capabilities().is_err() {
                return 2;
            }
            if super::drop_capabilities().is_err() {
                return 3;
            }
            if no_new_privs && libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return 4;
            }
            exec_effective_capabilities_check()
        })?;
        match code {
            held @ (0 | 1) => Some(held == 1),
            other => panic!("the child failed: {other} (2, 3: the drops, 4: no_new_privs, 5: the exec)"),
        }
    }

    /// Root of a user namespace made without capabilities may not empty its bounding set (no
    /// `CAP_SETPCAP`): the drop no longer fails there (every plain bot failed to start under
    /// `bwrap --uid 0`), and what it runs gains nothing, `no_new_privs` keeping an exec's
    /// capabilities within the none it held. The control: without `no_new_privs`, the same exec,
    /// as root, regains every capability of its bounding set.
    #[test]
    fn root_of_a_user_namespace_without_capabilities_starts_bots_that_regain_none() {
        none_held_with_the_defence(
            an_exec_of_capless_root_regains_capabilities,
            "an exec as root without no_new_privs regains capabilities",
            NO_USER_NAMESPACE,
        );
    }

    /// In a forked child that becomes `nobody` keeping `CAP_SYS_ADMIN` as an ambient capability
    /// (as a service's `AmbientCapabilities=` gives an arena that is not root), after
    /// [`super::drop_capabilities`] where `drop`, then `no_new_privs`: whether the program it runs
    /// holds an effective capability. Root only (`None` otherwise: nothing to give).
    fn an_exec_keeps_an_ambient_capability(drop: bool) -> Option<bool> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return None;
        }
        #[repr(C)]
        struct Header {
            version: u32,
            pid: libc::c_int,
        }
        #[repr(C)]
        #[derive(Clone, Copy)]
        struct Data {
            effective: u32,
            permitted: u32,
            inheritable: u32,
        }
        const CAP_SYS_ADMIN: u32 = 21;
        // SAFETY: the child makes raw system calls only (on data made before the fork), then
        // runs `sh` or exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                let header = Header { version: super::LINUX_CAPABILITY_VERSION_3, pid: 0 };
                let admin = 1 << CAP_SYS_ADMIN;
                let data = [
                    Data { effective: admin, permitted: admin, inheritable: admin },
                    Data { effective: 0, permitted: 0, inheritable: 0 },
                ];
                if libc::prctl(libc::PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0
                    || libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(65534, 65534, 65534) != 0
                    || libc::setresuid(65534, 65534, 65534) != 0
                    || libc::syscall(libc::SYS_capset, &header, data.as_ptr()) != 0
                    || libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0) != 0
                {
                    libc::_exit(2);
                }
                if drop && super::drop_capabilities().is_err() {
                    libc::_exit(3);
                }
                if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                    libc::_exit(4);
                }
                libc::_exit(exec_effective_capabilities_check());
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            match libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)) {
                Some(held @ (0 | 1)) => Some(held == 1),
                other => {
                    panic!("the child failed: {other:?} (2: its set-up, 3: the drop, 4: no_new_privs, 5: the exec)")
                }
            }
        }
    }

    /// A plain bot of an arena that is not root keeps the arena's uid, and kept its ambient
    /// capabilities, which an exec keeps even under `no_new_privs`: it now drops them. The
    /// control: without the drop, the program it runs holds `CAP_SYS_ADMIN`.
    #[test]
    fn a_plain_bot_of_an_arena_that_is_not_root_keeps_no_ambient_capability() {
        none_held_with_the_defence(
            an_exec_keeps_an_ambient_capability,
            "an exec keeps the ambient capability under no_new_privs",
            "not root: no ambient capability can be given here (its root run checks it)",
        );
    }

    /// What [`super::exempt_from_the_process_limit`] answers in a forked child that first
    /// becomes `nobody` (65534, `become`: root only), or is made root of a user namespace mapping
    /// only its own uid (`namespace`, as `unshare -r`): 1 exempt, 0 not, 2 no answer, 255 where
    /// the child could not be set up (no user namespace here).
    fn exempt_in_a_child(nobody: bool, namespace: bool) -> i32 {
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = if nobody { (65534, 65534) } else { unsafe { (libc::getuid(), libc::getgid()) } };
        let (uid_map, gid_map) = (format!("0 {uid} 1").into_bytes(), format!("0 {gid} 1").into_bytes());
        // SAFETY: the child makes raw system calls only (on data made before the fork), then exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                // (Dumpable again after the change of user, so that its /proc/self files are its
                // own to write.)
                if nobody
                    && (super::become_user(65534, 65534).is_err()
                        || libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
                {
                    libc::_exit(255);
                }
                if namespace && super::one_user_namespace(0, &uid_map, &gid_map).is_err() {
                    libc::_exit(255);
                }
                libc::_exit(match super::exempt_from_the_process_limit() {
                    Some(true) => 1,
                    Some(false) => 0,
                    None => 2,
                });
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                254
            }
        }
    }

    /// The kernel holds every user to its `RLIMIT_NPROC` but the machine's root (capabilities
    /// dropped), whatever user namespace it is in: the probe finds the machine's root exempt,
    /// here and as root of a user namespace mapping only it (`unshare -r` by the machine's
    /// root: the arena refuses to run bots there); the controls, a user who is not root, and
    /// root of such a namespace made by one (`unshare -r` by that user), are held to it.
    #[test]
    fn only_the_machines_root_is_exempt_from_the_process_limit() {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        assert_eq!(super::exempt_from_the_process_limit(), Some(root));
        match exempt_in_a_child(false, true) {
            255 => eprintln!("no user namespace can be made here: root of one not checked"),
            code => assert_eq!(code, i32::from(root), "root of a user namespace mapping only this user"),
        }
        if root {
            assert_eq!(exempt_in_a_child(true, false), 0, "the control: nobody is held to it");
            match exempt_in_a_child(true, true) {
                255 => eprintln!("nobody cannot make a user namespace here: not checked"),
                code => assert_eq!(code, 0, "the control: root of a user namespace that nobody made"),
            }
        }
    }

    /// This thread's errno.
    fn io_errno() -> i32 {
        std::io::Error::last_os_error().raw_os_error().unwrap_or(1)
    }

    /// A step of the child's set-up that fails is the machine's, whatever its errno (a refused
    /// `setresuid` is `EPERM`, as a program's file the box user may not run is `EACCES`), and
    /// says which step; so is a process the machine cannot make. The controls: the errors of a
    /// bot's program, `#!` line or command, unmarked, are not the machine's.
    #[test]
    fn a_failed_step_of_a_box_s_start_is_the_machine_s_and_says_which() {
        use super::{at, step_of, Step};
        use crate::sandbox::StartFault;
        use std::io::Error;
        let steps = [
            Step::Process,
            Step::Cgroup,
            Step::Namespaces,
            Step::Fork,
            Step::View,
            Step::Limits,
            Step::User,
            Step::Privileges,
            Step::Filter,
        ];
        for step in steps {
            for errno in [libc::EPERM, libc::EACCES, libc::ENOENT, libc::EINVAL, libc::EAGAIN] {
                let marked = at(step)(Error::from_raw_os_error(errno));
                let raw = marked.raw_os_error().unwrap_or(0);
                assert_eq!(step_of(raw), Some((step, errno)), "{step:?} {errno}");
                let fault = StartFault::of(&marked).expect("the machine's");
                assert_eq!((fault.step, fault.source.raw_os_error()), (Some(step), Some(errno)));
            }
        }
        let fault = StartFault::of(&at(Step::User)(Error::from_raw_os_error(libc::EPERM))).expect("the machine's");
        assert!(
            fault.to_string().starts_with("it could not be given its box's user: Operation not permitted"),
            "{fault}"
        );
        for errno in [libc::EAGAIN, libc::ENOMEM, libc::EMFILE, libc::ENFILE, libc::EIO, libc::ETXTBSY] {
            let fault = StartFault::of(&Error::from_raw_os_error(errno)).expect("the machine's");
            assert_eq!((fault.step, fault.source.raw_os_error()), (None, Some(errno)));
        }
        // The controls: the bot's program, its `#!` line, its command, its folder.
        for errno in [libc::ENOENT, libc::EACCES, libc::ENOEXEC, libc::ENOTDIR, libc::ELOOP, libc::E2BIG, libc::EPERM] {
            assert!(StartFault::of(&Error::from_raw_os_error(errno)).is_none(), "{errno}");
            assert_eq!(step_of(errno), None);
        }
        let nul = Error::new(std::io::ErrorKind::InvalidInput, "nul byte found in provided data");
        assert!(StartFault::of(&nul).is_none());
        // Said as it reads where the errno is a mark; the others as they were.
        let said = StartFault::readable(at(Step::Namespaces)(Error::from_raw_os_error(libc::EPERM)));
        assert_eq!(said.kind(), std::io::ErrorKind::PermissionDenied);
        assert_eq!(said.to_string(), "its box's namespaces could not be made: Operation not permitted (os error 1)");
        let exec = StartFault::readable(Error::from_raw_os_error(libc::ENOENT));
        assert_eq!(exec.raw_os_error(), Some(libc::ENOENT), "the control: the bot's, as it was");
    }

    #[test]
    fn the_kernel_refuses_a_user_namespace_below_a_box_s_own() {
        let Some(control) = nested_user_namespace(false) else {
            eprintln!("no user namespace can be made here: nothing to show");
            return;
        };
        // The control: without the limit, a user namespace is made within the box's.
        assert_eq!(control, 0);
        assert_eq!(nested_user_namespace(true), Some(libc::ENOSPC));
    }

    /// Forks `children` children that, at one moment, each in a session (an autogroup) of its own
    /// and without `CAP_SYS_ADMIN` (as an arena that is not root, or its box's init), set their
    /// autogroup's nice value to 10 (`set_autogroup_nice`, waiting `wait_ns` at most): how many
    /// read 10 in their `/proc/self/autogroup` after, and how long the last took.
    fn autogroups_lowered(children: usize, wait_ns: i64) -> (usize, std::time::Duration) {
        // (A moment to start at, not a pipe: a child another test forks meanwhile would hold the
        // pipe's end open.)
        // SAFETY: clock_gettime only.
        let go = unsafe { super::monotonic_ns() } + 300_000_000;
        let at = libc::timespec { tv_sec: (go / 1_000_000_000) as libc::time_t, tv_nsec: (go % 1_000_000_000) as _ };
        let mut pids = Vec::with_capacity(children);
        for _ in 0..children {
            // SAFETY: the child makes raw system calls only (on data made before the fork), then exits.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                // SAFETY: as above.
                unsafe {
                    if libc::setsid() < 0 || super::drop_capabilities().is_err() {
                        libc::_exit(3);
                    }
                    while libc::clock_nanosleep(libc::CLOCK_MONOTONIC, libc::TIMER_ABSTIME, &at, std::ptr::null_mut())
                        != 0
                    {}
                    super::set_autogroup_nice(10, wait_ns);
                    let lowered = super::autogroup_nice(c"/proc/self/autogroup") == Some(10);
                    libc::_exit(if lowered { 0 } else { 1 });
                }
            }
            assert!(pid > 0, "fork: {}", std::io::Error::last_os_error());
            pids.push(pid);
        }
        let mut lowered = 0;
        for pid in pids {
            let mut status = 0;
            // SAFETY: waits for a child of ours.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            match libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)) {
                Some(0) => lowered += 1,
                Some(1) => {}
                other => panic!("a child failed: {other:?} (3: its session or its capabilities)"),
            }
        }
        // SAFETY: clock_gettime only.
        let took = unsafe { super::monotonic_ns() } - go;
        (lowered, std::time::Duration::from_nanos(took.max(0) as u64))
    }

    /// Builds started together each get their session lowered, though the kernel takes one
    /// autogroup's nice value a tenth of a second from a process without `CAP_SYS_ADMIN`: eight
    /// at once, each asking again (here for up to 10 s, not `AUTOGROUP_WAIT_NS`, which thirty
    /// fit in: on a loaded machine other tests' builds take turns of that tenth too). The
    /// control: asked 12 times 20 ms apart (240 ms), as before, some are left at the arena's
    /// priority.
    #[test]
    fn builds_started_together_all_get_their_session_lowered() {
        if let Err(why) = super::autogroups() {
            eprintln!("no autogroups here ({why}): a session's nice value changes nothing, not checked");
            return;
        }
        let children = 8;
        let (lowered, took) = autogroups_lowered(children, 10_000_000_000);
        eprintln!("{lowered} of {children} lowered at once in {took:?}");
        assert_eq!(lowered, children, "every session lowered, in {took:?}");
        let (control, took) = autogroups_lowered(children, 240_000_000);
        eprintln!("the control: {control} of {children} lowered in {took:?}");
        assert!(control < children, "the control: asked for 240 ms, some are left ({control} lowered)");
    }

    /// Thirty builds started at once fit in the wait, at the kernel's one a tenth of a second.
    const _: () = assert!(super::AUTOGROUP_WAIT_NS / 100_000_000 >= 30);

    /// An autogroup's nice value is read from its file, and written as the kernel reads it.
    #[test]
    fn an_autogroup_s_nice_value_is_read_and_written() {
        assert_eq!(super::parse_autogroup_nice(b"/autogroup-560525 nice 0\n"), Some(0));
        assert_eq!(super::parse_autogroup_nice(b"/autogroup-7 nice 19\n"), Some(19));
        assert_eq!(super::parse_autogroup_nice(b"/autogroup-7 nice -20\n"), Some(-20));
        assert_eq!(super::parse_autogroup_nice(b"/autogroup-7 nice \n"), None);
        assert_eq!(super::parse_autogroup_nice(b""), None);
        let mut text = [0u8; 3];
        for (nice, said) in [(0, "0"), (10, "10"), (19, "19"), (-5, "-5"), (-20, "-20"), (25, "19"), (-30, "-20")] {
            assert_eq!(super::nice_text(nice, &mut text), said.as_bytes(), "{nice}");
        }
        assert_eq!((super::lowered(0), super::lowered(5), super::lowered(12), super::lowered(-15)), (10, 15, 19, -5));
    }
}
