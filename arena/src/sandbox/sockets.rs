//! The memory a box's sockets hold, for a box without a memory cgroup: data queued in unix
//! sockets (charged to the sender) and netlink sockets (charged to the receiver) is memory no
//! process's resident set shows (a bot held 1,883 MiB in the queues of 120 socket pairs in a
//! box of 64). The box's own network namespace holds every socket its processes make: the
//! box's supervisor opens a socket diagnostics socket and `/proc/self/net/protocols` there and
//! hands both to the arena (see `child::enter`), which cannot enter that namespace itself.
//!
//! Each look dumps the namespace's unix and netlink sockets with their memory (`UDIAG_SHOW_MEMINFO`,
//! `NDIAG_SHOW_MEMINFO`): what each holds is exact. A unix socket closed while data it sent is
//! still queued at its peer (or a connection not yet accepted) is no longer listed, though its
//! data is held until read: `protocols` counts it still, and each such socket is counted at
//! the most one can hold ([`Meter::most_per_socket`]), which the box's filter keeps small: its
//! send buffer cannot be raised (see `syscalls::uncounted_memory_filters`). Other families hold
//! nothing there: the namespace's loopback is down, and raw sockets need a capability.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Mutex;

/// `NETLINK_SOCK_DIAG`, the netlink family of socket diagnostics.
pub(super) const NETLINK_SOCK_DIAG: libc::c_int = 4;
/// The request for a dump of one address family's sockets.
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// `NLM_F_REQUEST | NLM_F_DUMP`.
const DUMP: u16 = 0x1 | 0x300;
/// The kinds of message that end a dump: an error, or its end.
const NLMSG_ERROR: u16 = 2;
const NLMSG_DONE: u16 = 3;
/// `UDIAG_SHOW_MEMINFO`, and the attribute it adds (`UNIX_DIAG_MEMINFO`).
const UDIAG_SHOW_MEMINFO: u32 = 0x20;
const UNIX_DIAG_MEMINFO: u16 = 5;
/// `NDIAG_SHOW_MEMINFO`, the attribute it adds (`NETLINK_DIAG_MEMINFO`), every protocol.
const NDIAG_SHOW_MEMINFO: u32 = 0x1;
const NETLINK_DIAG_MEMINFO: u16 = 0;
const NDIAG_PROTO_ALL: u8 = 255;
/// The sizes of `struct nlmsghdr`, `struct unix_diag_msg` and `struct netlink_diag_msg`.
const HEADER: usize = 16;
const UNIX_MSG: usize = 16;
const NETLINK_MSG: usize = 28;
/// What the kernel puts in one message of a dump at most (`SKB_WITH_OVERHEAD(32768)`): a read
/// this large is never cut short.
const READ: usize = 32 << 10;
/// How long a dump may take before the monitor gives up on it (it is never that slow).
const TIMEOUT: libc::timeval = libc::timeval { tv_sec: 0, tv_usec: 200_000 };

/// Sockets a look dumps at every look; a box that keeps more is dumped every `n / this`-th
/// look (at most every [`MOST_SKIPPED`] + 1): a dump costs about 0.1 us of the arena's CPU per
/// socket, 1.5 ms for 16,384 (the most a box of the default limits may hold), 40 times a second.
const SOCKETS_PER_LOOK: u64 = 4096;
/// The most looks skipped in a row: a box of 16,384 sockets is dumped every 100 ms.
const MOST_SKIPPED: u64 = 3;

/// What a box's sockets hold, from its network namespace (see the module's doc).
#[derive(Debug)]
pub(super) struct Meter {
    state: Mutex<State>,
}

#[derive(Debug)]
enum State {
    /// The arena's end of the socket pair the box's supervisor sends the descriptors on.
    Waiting(OwnedFd),
    Ready(Box<Ready>),
    /// The supervisor sent nothing usable.
    Failed,
}

#[derive(Debug)]
struct Ready {
    diag: OwnedFd,
    /// The diagnostics socket's inode (its own queue, the dump's answer, is not the box's).
    own: u32,
    protocols: OwnedFd,
    buf: Vec<u8>,
    seq: u32,
    /// Looks to skip before the next dump, and what the last one found.
    skip: u64,
    last: u64,
}

impl Meter {
    /// A meter, and the end of its socket pair that the box's supervisor sends on (see
    /// `child::send_meter`).
    pub(super) fn new() -> io::Result<(Meter, OwnedFd)> {
        let mut ends = [-1; 2];
        // SAFETY: socketpair writes two descriptors into the array.
        if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0, ends.as_mut_ptr()) } != 0
        {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: two fresh descriptors that nothing else owns.
        let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        Ok((Meter { state: Mutex::new(State::Waiting(ours)) }, theirs))
    }

    /// Takes the descriptors the box's supervisor sent, which it has by the time its init runs
    /// (see `child::enter`): where none came, says so once, and the meter counts nothing.
    pub(super) fn arrived(&self) {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let State::Waiting(end) = &*state {
            *state = match receive(end) {
                Ok(Some(ready)) => State::Ready(Box::new(ready)),
                Ok(None) => failed(&io::Error::other("the box's supervisor sent no socket diagnostics")),
                Err(e) => failed(&e),
            };
        }
    }

    /// The bytes the box's sockets hold now (as of the last dump when this look skips one; see
    /// [`SOCKETS_PER_LOOK`]); `None` while the supervisor has not sent its descriptors, or
    /// where they cannot be read.
    pub(super) fn held(&self) -> Option<u64> {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let State::Waiting(end) = &*state {
            match receive(end) {
                Ok(Some(ready)) => *state = State::Ready(Box::new(ready)),
                Ok(None) => return None,
                Err(e) => *state = failed(&e),
            }
        }
        let State::Ready(ready) = &mut *state else { return None };
        if ready.skip > 0 {
            ready.skip -= 1;
            return Some(ready.last);
        }
        match ready.dump() {
            Ok(dump) => {
                ready.skip = (dump.sockets / SOCKETS_PER_LOOK).min(MOST_SKIPPED);
                ready.last = dump.held();
                Some(ready.last)
            }
            Err(e) => {
                tracing::debug!("a box's socket dump: {e}");
                Some(ready.last)
            }
        }
    }
}

/// What the unix sockets of a plain build hold (no box, so no network namespace of its own: its
/// sockets are among the machine's): each look dumps the machine's unix sockets (their memory,
/// peer and receive queue) and counts those whose inode a descriptor of the build's processes
/// names (`/proc/PID/fd`): what each holds, and where its data waits from a peer the build does
/// not hold (closed, its data left behind: no longer listed, nor any descriptor's), or it
/// listens with connections waiting, the most such a peer may hold for each
/// ([`most_per_socket`]), as a box's meter counts a closed socket (a plain build's send buffer
/// cannot be raised either: see `syscalls::plain_build_memory_filter`). `None` where the
/// machine's sockets cannot be dumped.
#[derive(Debug)]
pub(super) struct HostMeter {
    ready: Mutex<Option<Ready>>,
}

/// `UDIAG_SHOW_PEER` and `UDIAG_SHOW_RQLEN`, and the attributes they add.
const UDIAG_SHOW_PEER: u32 = 0x4;
const UDIAG_SHOW_RQLEN: u32 = 0x10;
const UNIX_DIAG_PEER: u16 = 2;
const UNIX_DIAG_RQLEN: u16 = 4;
/// A unix socket listening (`TCP_LISTEN`, its `udiag_state`).
const LISTENING: u8 = 10;

impl HostMeter {
    /// A meter of the machine's unix sockets, in the arena's own network namespace (`None`
    /// where no socket diagnostics socket can be made: it says so once).
    pub(super) fn new() -> Option<HostMeter> {
        let made = (|| -> io::Result<Ready> {
            // SAFETY: socket returns a new descriptor or -1.
            let fd = unsafe { libc::socket(libc::AF_NETLINK, libc::SOCK_RAW | libc::SOCK_CLOEXEC, NETLINK_SOCK_DIAG) };
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: a fresh descriptor that nothing else owns.
            let diag = unsafe { OwnedFd::from_raw_fd(fd) };
            let protocols = OwnedFd::from(std::fs::File::open("/proc/self/net/protocols")?);
            // SAFETY: setsockopt reads a timeval we own; fstat writes a stat we own.
            let own = unsafe {
                let size = std::mem::size_of::<libc::timeval>() as libc::socklen_t;
                let timeout: *const libc::timeval = &TIMEOUT;
                if libc::setsockopt(diag.as_raw_fd(), libc::SOL_SOCKET, libc::SO_RCVTIMEO, timeout.cast(), size) != 0 {
                    return Err(io::Error::last_os_error());
                }
                let mut st: libc::stat = std::mem::zeroed();
                if libc::fstat(diag.as_raw_fd(), &mut st) != 0 {
                    return Err(io::Error::last_os_error());
                }
                st.st_ino as u32
            };
            Ok(Ready { diag, own, protocols, buf: vec![0; READ], seq: 0, skip: 0, last: 0 })
        })();
        match made {
            Ok(ready) => Some(HostMeter { ready: Mutex::new(Some(ready)) }),
            Err(e) => {
                let _ = failed(&e);
                None
            }
        }
    }

    /// What the unix sockets named in `found` (the descriptors of a build's processes, see
    /// [`Descriptors::of`]) hold (see [`HostMeter`]); `None` where the dump failed.
    pub(super) fn held_by(&self, found: &Descriptors) -> Option<u64> {
        if found.sockets.is_empty() {
            return Some(0);
        }
        let mut ready = self.ready.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let ready = ready.as_mut()?;
        ready.held_by(&found.sockets).map_err(|e| tracing::debug!("a plain build's socket dump: {e}")).ok()
    }
}

/// What the descriptors of a build's or bot's processes name (`/proc/PID/fd`), from one walk of
/// them: the inodes of their sockets (`socket:[N]`, for [`HostMeter::held_by`]) and their distinct
/// pipes (`pipe:[N]`, and FIFOs, by device and inode), whose buffers no process's set shows,
/// nor the kernel's objects behind each socket and pipe ([`Descriptors::in_kernel`]); and, from
/// each descriptor's `/proc/PID/fdinfo`, the file locks it holds (`lock:` lines) and, of an
/// epoll, the files it watches (`tfd:` lines), with the descriptors of no file (eventfd, epoll,
/// timerfd, signalfd, pidfd: `anon_inode:…`), whose kernel objects no process's set shows either.
#[derive(Debug, Default)]
pub(super) struct Descriptors {
    sockets: std::collections::HashSet<u32>,
    pipes: std::collections::HashSet<(u64, u64)>,
    /// Descriptors of no file, pipe or socket (see [`ANONYMOUS`]).
    anonymous: u64,
    /// The epolls among them, where the walk looks for more than sockets.
    epolls: u64,
    /// The watches of the epolls among them (see [`WATCH`]).
    watches: u64,
    /// The file locks the descriptors hold (see [`LOCK`]).
    locks: u64,
    /// The buffer each `fdinfo` is read into.
    info: Vec<u8>,
    /// What the walk reads (see [`Reads`]).
    reads: Reads,
    /// The descriptor tables the walk was refused (`EACCES`, `EPERM`), by pid and thread id (the
    /// pid again for the process's own): those of a process the arena may not look at, which
    /// the look then names (`meter::unseen_of`) without opening them again.
    refused: std::collections::HashSet<(i32, i32)>,
}

/// The device and inode of the FIFO that the descriptor link `link` names (`None` for any other
/// file): its attributes as the kernel has them (`AT_STATX_DONT_SYNC`: a file of a network file
/// system is not asked of its server, so a look never waits on one).
fn fifo(link: &std::path::Path) -> Option<(u64, u64)> {
    let path = std::ffi::CString::new(link.as_os_str().as_encoded_bytes()).ok()?;
    // SAFETY: a zeroed statx is valid; statx reads a path and writes a statx we own.
    let st = unsafe {
        let mut st: libc::statx = std::mem::zeroed();
        let mask = libc::STATX_TYPE | libc::STATX_INO;
        if libc::statx(libc::AT_FDCWD, path.as_ptr(), libc::AT_STATX_DONT_SYNC, mask, &mut st) != 0 {
            return None;
        }
        st
    };
    let is_fifo = u32::from(st.stx_mode) & libc::S_IFMT == libc::S_IFIFO;
    is_fifo.then(|| (libc::makedev(st.stx_dev_major, st.stx_dev_minor), st.stx_ino))
}

/// Whether thread `tid` of process `pid` shares the process's descriptor table (`kcmp`'s
/// `KCMP_FILES`); where that cannot be told (no `kcmp`, no permission), not: its table is walked.
fn same_table(pid: i32, tid: i32) -> bool {
    const KCMP_FILES: libc::c_long = 2;
    // SAFETY: kcmp only compares two processes' kernel objects; no memory is passed.
    unsafe { libc::syscall(libc::SYS_kcmp, pid as libc::c_long, tid as libc::c_long, KCMP_FILES, 0, 0) == 0 }
}

/// Whether descriptor `fd` of thread `tid`'s table names the same open file as one of the
/// descriptors `read` of that table (`kcmp`'s `KCMP_FILE`), which are kept in their open files'
/// order (`kcmp` orders them too), `fd` added where it names another: a duplicate in the same
/// table (`dup`, `fcntl`'s `F_DUPFD`) lists the same locks and watches in its `fdinfo`, which are
/// then counted once and read once. (Another process's table, a forked child's, is walked apart:
/// a file shared so lists an open file description's and `flock`'s locks in each, counted
/// again.) A plain bot's 12,000 locks through one descriptor duplicated 240 times were 2.9
/// million lines of `fdinfo` a look read, 10 s of the arena's CPU. A binary search, so that a
/// table of many distinct open files costs `log n` calls a descriptor. Where it cannot be told
/// (no `kcmp`, no permission), not: its `fdinfo` is read.
fn duplicate(tid: i32, fd: i32, read: &mut Vec<i32>) -> bool {
    const KCMP_FILE: libc::c_long = 0;
    let (mut low, mut high) = (0, read.len());
    while low < high {
        let middle = (low + high) / 2;
        let (a, b) = (fd as libc::c_long, read[middle] as libc::c_long);
        // SAFETY: kcmp only compares two descriptors' open files; no memory is passed.
        let order = unsafe { libc::syscall(libc::SYS_kcmp, tid as libc::c_long, tid as libc::c_long, KCMP_FILE, a, b) };
        match order {
            0 => return true,
            1 => high = middle,
            2 => low = middle + 1,
            _ => return false,
        }
    }
    read.insert(low, fd);
    false
}

/// The device number [`Descriptors`] files an anonymous pipe under (its inode is pipefs's own):
/// no FIFO's file system has it.
const PIPEFS: u64 = u64::MAX;

impl Descriptors {
    /// Walks the descriptors of `pids` (those it may read: a process gone, or whose descriptors
    /// the arena may not read, names none). One `readlink` per descriptor, and a [`fifo`] look
    /// at those that name a path (a FIFO is a pipe too): its cost grows with the descriptors a
    /// build keeps open, at most its processes times their open files, which the build's monitor
    /// bounds (a look that takes too long stops the build; see `tournament::build`).
    ///
    /// A thread may have a table of its own (`unshare(CLONE_FILES)`, or a `clone` without
    /// `CLONE_FILES`), which only `/proc/PID/task/TID/fd` shows: each thread's table is walked
    /// too, unless `kcmp` says it is the process's own (every thread libc makes), and every
    /// thread's when the process's first thread has exited (its table is gone).
    ///
    /// The `fdinfo` of each open file is read too (of one of its descriptors, [`duplicate`]: an
    /// `open` and a `read` more), for the locks it holds and an epoll's watches: its text grows
    /// with them (a line of some 60 bytes each), which the look's limit bounds as well.
    pub(super) fn of(pids: &[i32]) -> Descriptors {
        Descriptors::read(pids, Reads { kinds: true, watches: true, locks: true })
    }

    /// As [`Descriptors::of`], reading what `reads` says: a bot's look reads its epolls' `fdinfo`
    /// at most, and every descriptor's only at some looks (see [`BotLooks`]).
    pub(super) fn read(pids: &[i32], reads: Reads) -> Descriptors {
        Descriptors { reads, ..Descriptors::default() }.walked(pids)
    }

    /// The walk of [`Descriptors::of`] from `self`.
    fn walked(mut self, pids: &[i32]) -> Descriptors {
        let found = &mut self;
        for &pid in pids {
            let main = found.walk(pid, pid);
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
            for task in tasks.flatten() {
                let Some(tid) = task.file_name().to_str().and_then(|t| t.parse::<i32>().ok()) else { continue };
                if tid == pid || (main && same_table(pid, tid)) {
                    continue;
                }
                found.walk(pid, tid);
            }
        }
        self
    }

    /// Whether the walk was refused the descriptor table of thread `tid` of process `pid` (the
    /// process's own where `tid` is `pid`): `EACCES` or `EPERM`, as `meter::fd_denied` reads it.
    /// A process's other threads' are walked, and so known, wherever its own was refused.
    pub(super) fn refused(&self, pid: i32, tid: i32) -> bool {
        self.refused.contains(&(pid, tid))
    }

    /// Adds what the descriptor table of thread `tid` of `pid` (`/proc/PID` where `tid` is
    /// `pid`, `/proc/PID/task/TID` otherwise) holds: its sockets and pipes, its descriptors of
    /// no file, and the locks and epoll watches its `fdinfo` lists; whether it could be read and
    /// named any descriptor. A table refused is recorded ([`Descriptors::refused`]).
    fn walk(&mut self, pid: i32, tid: i32) -> bool {
        let task = super::meter::task_dir(pid, tid);
        let fds = match std::fs::read_dir(format!("{task}/fd")) {
            Ok(fds) => fds,
            Err(e) => {
                if e.kind() == io::ErrorKind::PermissionDenied {
                    self.refused.insert((pid, tid));
                }
                return false;
            }
        };
        let mut any = false;
        // (The descriptors whose `fdinfo` was read, in their open files' order: see `duplicate`.)
        let mut read: Vec<i32> = Vec::new();
        let once_a_file = !super::looks_off();
        for fd in fds.flatten() {
            any = true;
            let Ok(target) = std::fs::read_link(fd.path()) else { continue };
            let target = target.as_os_str().as_encoded_bytes();
            let inode = |prefix: &[u8]| -> Option<u64> {
                let inode = target.strip_prefix(prefix)?.strip_suffix(b"]")?;
                std::str::from_utf8(inode).ok()?.parse().ok()
            };
            if !self.reads.kinds {
                self.sockets.extend(inode(b"socket:[").and_then(|inode| u32::try_from(inode).ok()));
                continue;
            }
            if let Some(inode) = inode(b"socket:[") {
                self.sockets.extend(u32::try_from(inode).ok());
            } else if let Some(inode) = inode(b"pipe:[") {
                self.pipes.insert((PIPEFS, inode));
            } else if target.starts_with(b"/") {
                self.pipes.extend(fifo(&fd.path()));
            } else {
                self.anonymous += 1;
            }
            let epoll = target == b"anon_inode:[eventpoll]";
            self.epolls += u64::from(epoll);
            if self.reads.locks || (epoll && self.reads.watches) {
                let number = fd.file_name().to_str().and_then(|n| n.parse::<i32>().ok());
                if once_a_file && number.is_some_and(|number| duplicate(tid, number, &mut read)) {
                    continue;
                }
                let mut info = std::path::PathBuf::from(format!("{task}/fdinfo"));
                info.push(fd.file_name());
                self.count_info(&info, epoll && self.reads.watches);
            }
        }
        any
    }

    /// Adds the locks that the `fdinfo` file `path` lists (`lock:` lines: every lock taken
    /// through that descriptor's open file, POSIX ones of its table's, open file description
    /// and `flock` ones), where the walk reads locks, and, of an `epoll`, its watches (`tfd:`
    /// lines).
    fn count_info(&mut self, path: &std::path::Path, epoll: bool) {
        use std::io::Read;
        self.info.clear();
        let Ok(mut file) = std::fs::File::open(path) else { return };
        if file.read_to_end(&mut self.info).is_err() {
            return;
        }
        for line in self.info.split(|&b| b == b'\n') {
            if self.reads.locks && line.starts_with(b"lock:") {
                self.locks += 1;
            } else if epoll && line.starts_with(b"tfd:") {
                self.watches += 1;
            }
        }
    }

    /// What the pipes and sockets found hold in the kernel, at most, beside the data queued in
    /// the sockets (which the socket meters count): [`pipe_buffer`] and [`KERNEL_OBJECTS`] for
    /// each distinct pipe, [`KERNEL_OBJECTS`] for each distinct socket; [`ANONYMOUS`] for each
    /// descriptor of no file, [`WATCH`] for each watch of an epoll, [`LOCK`] for each lock.
    pub(super) fn in_kernel(&self) -> u64 {
        let pipes = (self.pipes.len() as u64).saturating_mul(pipe_buffer().saturating_add(KERNEL_OBJECTS));
        let sockets = (self.sockets.len() as u64).saturating_mul(KERNEL_OBJECTS);
        let others = [(self.anonymous, ANONYMOUS), (self.watches, WATCH), (self.locks, LOCK)];
        others.iter().fold(pipes.saturating_add(sockets), |sum, &(n, each)| sum.saturating_add(n.saturating_mul(each)))
    }
}

/// What a walk of descriptors reads beyond each one's link (see [`Descriptors::read`]); every
/// walk finds the sockets.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reads {
    /// Every kind of descriptor, from its link: pipes (and FIFOs, from their attributes) and
    /// descriptors of no file.
    pub kinds: bool,
    /// The watches of each epoll (its `fdinfo`: the link names an epoll).
    pub watches: bool,
    /// The file locks of each open file (the `fdinfo` of one of its descriptors, see [`duplicate`]).
    pub locks: bool,
}

/// The walk of a summed bot's descriptors, for its look (a plain bot, or one in a box without a
/// memory cgroup, 40 times a second): what the kernel holds for them counts with its memory as
/// a summed build's does ([`Descriptors::in_kernel`]): a red team's plain bot of 40 processes
/// held 575,769 epoll watches (115 MiB of the kernel's memory) under a limit of 64 MiB, its look
/// walking its descriptors for their sockets alone. Reading every descriptor's `fdinfo` (an
/// `open` and a `read` each) at every look is what made that walk a sockets-only one; each
/// look now reads each descriptor's link (as before) and, of those, the `fdinfo` of its epolls
/// alone (an honest bot holds one or none: an event loop's), and every descriptor's, for the
/// locks they hold, every [`LOCK_LOOKS`]-th look, the locks found then counted until the next.
/// Measured in release on this machine (`sandbox::tests::the_cost_of_a_look`, a plain bot of 7
/// processes, four of them Python's sharing a socket pair): its look took 98 to 99 us of CPU
/// with the sockets-only walk (the walk alone 52 to 55), and 116 to 122 with this one (the walk
/// alone 66 to 68; with every `fdinfo` read at every look, a build's walk, 120 to 126).
///
/// An epoll's `fdinfo` is a line of some 77 bytes per watch, which the kernel writes and the
/// look reads in 0.73 us of CPU (131,072 watches in 32 epolls, 95 ms): a quarter of a million
/// (64 MiB as counted) would cost a look 190 ms. A bot whose epolls held more than
/// [`WATCHES_PER_LOOK`] watches at the last read has them read again after `watches /
/// WATCHES_PER_LOOK` looks (at most [`MOST_WATCH_SKIPS`]: every second), what it held then
/// counted meanwhile (none once it holds no epoll): what it adds in that while is seen at the
/// next read, and reading them costs the monitor some 3 ms a look on average (an eighth of a
/// CPU) while it holds fewer than 160,000, less than a fifth of a CPU at 64 MiB of them. (A
/// process's mappings near its cap cost as much: see `meter::MAPPING`.)
#[derive(Debug, Default)]
pub(super) struct BotLooks {
    state: Mutex<BotState>,
}

#[derive(Debug, Default)]
struct BotState {
    /// Looks made, to tell which read every `fdinfo`.
    looks: u64,
    /// Looks to make before the epolls' watches are read again, and what they were then.
    skip: u64,
    watches: u64,
    /// The locks the last look that read them found.
    locks: u64,
}

/// A bot's look reads every open file's `fdinfo` for its locks every this many looks (every
/// 200 ms at the monitor's 40 a second): none are found where its filters make locks do nothing
/// (`syscalls::bot_filters`, every bot's since 2026-12-07), which this still counts should one
/// be taken past them.
const LOCK_LOOKS: u64 = 8;
/// Watches of epolls whose `fdinfo` a bot's look reads at every look (some 300 KiB of text, 3 ms).
const WATCHES_PER_LOOK: u64 = 4096;
/// The most looks skipped between two reads of a bot's epolls (a second at the monitor's pace).
const MOST_WATCH_SKIPS: u64 = 39;

impl BotLooks {
    /// A look's walk of the descriptors of `pids` (see [`BotLooks`]).
    pub(super) fn walk(&self, pids: &[i32]) -> Descriptors {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let reads = Reads { kinds: true, watches: state.skip == 0, locks: state.looks.is_multiple_of(LOCK_LOOKS) };
        state.looks = state.looks.wrapping_add(1);
        let mut found = Descriptors::read(pids, reads);
        if reads.watches {
            state.watches = found.watches;
            state.skip = (found.watches / WATCHES_PER_LOOK).min(MOST_WATCH_SKIPS);
        } else {
            state.skip -= 1;
            found.watches = if found.epolls > 0 { state.watches } else { 0 };
        }
        match reads.locks {
            true => state.locks = found.locks,
            false => found.locks = state.locks,
        }
        found
    }
}

/// What the kernel's objects behind a descriptor of no file take (an eventfd, an epoll, a
/// timerfd, a signalfd, a pidfd, ...: `anon_inode:` in `/proc/PID/fd`), for a build whose
/// memory is summed: no process's set shows them. Measured here (`Slab` in `/proc/meminfo`
/// before and after 19,000 of each in one process, Linux 6.18): an eventfd 280 bytes, an empty
/// epoll 430, a timerfd 1,138, a signalfd 137, a pidfd 189; a red team's 200 processes of 1,015
/// eventfds each held 254 MiB (some 1.3 KiB each with their processes' descriptor tables). Two
/// KiB each, the most of these rounded up: 200,000 of them count 390 MiB. Each descriptor counts
/// (what `dup` or a fork shares counts again: the walk cannot tell), and an honest build holds a
/// few (cargo an epoll and an eventfd): a few KiB.
pub(super) const ANONYMOUS: u64 = 2048;

/// What one watch of an epoll takes in the kernel (its `epitem`, 128 bytes, and its wait queue's
/// entry), for a build whose memory is summed: measured here, 208 bytes a watch (200,000 watches
/// of 1,000 eventfds); a red team's build held 5 million, 1.0 GiB, under a `build_memory_mb` of
/// 64. 256 bytes each, rounded up. An honest build's event loops watch a few descriptors each.
pub(super) const WATCH: u64 = 256;

/// What one file lock takes in the kernel (a `file_lock_cache` object of 192 bytes, and the
/// file's lock context), for a build whose memory is summed: the kernel has no limit of a user's
/// locks, and a red team's build held 10 million byte-range locks (10 processes, 1,000 files,
/// 1,000 locks each), 1.9 GiB, under a `build_memory_mb` of 64. 256 bytes each, rounded up.
/// Cargo and make lock a few files (cargo build took 13 `fcntl` and 10 `flock` locks, one at a
/// time): some KiB.
pub(super) const LOCK: u64 = 256;

/// What the kernel's own objects behind one pipe or one socket take, empty, for a build whose
/// memory is summed: no process's set shows them, and a build may hold some 500,000 descriptors
/// (512 processes of 1,024 open files each). Measured on this arena's kernel (Linux 6.18, x86_64;
/// `/proc/meminfo`'s `Slab` before and after 9,000 of each, and `/proc/slabinfo` by cache): a unix
/// socket pair took 4,473 to 4,504 bytes (for each end a `sock_inode_cache` of 832 bytes, a
/// `UNIX` socket of 1,152, a `filp` and a `dentry` of 192 each, and its security blobs), a pipe
/// 2,225 to 2,231 (two `filp`s, an `inode_cache` of 624, a `dentry`, its `pipe_inode_info` and
/// its 16 buffer slots in a `kmalloc-1k`), an unconnected TCP socket 3,584 (its `TCP` object is
/// 2,368). One page each, then: the most of these, rounded up, since the walk does not tell a
/// socket's family. Uncounted, 100,000 empty unix socket pairs held some 430 MiB of these (637 MiB with the
/// descriptor tables) under any `build_memory_mb`; counted so, 50,000 sockets are 195 MiB. An
/// honest build holds a few dozen (make's jobserver and its shells' pipelines, cargo's
/// jobserver and its rustc's): some hundred KiB.
pub(super) const KERNEL_OBJECTS: u64 = 4096;

/// The most a pipe holds, for a build whose memory is summed: its default buffer, 16 pages
/// (`PIPE_DEF_BUFFERS`: 64 KiB with pages of 4 KiB). What a pipe holds is in no process's set,
/// and such a build may not resize one (`F_SETPIPE_SZ` fails with `EPERM`, see
/// `syscalls::pipe_size_lock`), so each of its pipes holds its default buffer at most (16
/// slots of a page each however it is written, spliced or gifted; one page once the user's
/// pipes pass the machine's `fs.pipe-user-pages-soft`, which this does not count on): 100
/// processes with 500 full pipes each held 447 MiB uncounted under a `build_memory_mb` of 64.
/// An honest build keeps a few (make's jobserver, a shell's pipelines): a few hundred KiB.
pub(super) fn pipe_buffer() -> u64 {
    // SAFETY: sysconf has no memory preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    16 * u64::try_from(page).ok().filter(|&p| p > 0).unwrap_or(4096)
}

/// Says that a box's socket meter failed with `error`, once per run.
fn failed(error: &io::Error) -> State {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        tracing::warn!("sandbox: {error}: the memory a bot's sockets hold is not counted against its limit");
    });
    State::Failed
}

/// The descriptors the supervisor sent on `end` (a diagnostics socket and `protocols`, in the
/// box's network namespace), `None` while none came.
fn receive(end: &OwnedFd) -> io::Result<Option<Ready>> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    // (Room for two descriptors, aligned as a cmsghdr.)
    let mut control = [0u64; 8];
    // SAFETY: a zeroed msghdr is valid; its pointers are set to buffers that outlive the call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control) as _;
    let flags = libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC;
    // SAFETY: msg points to valid buffers of the given sizes.
    let n = unsafe { libc::recvmsg(end.as_raw_fd(), &mut msg, flags) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::WouldBlock { Ok(None) } else { Err(e) };
    }
    let mut fds = Vec::new();
    // SAFETY: the control buffer was filled by recvmsg; CMSG_* walk it within its length.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<libc::c_int>();
                let count =
                    ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / std::mem::size_of::<libc::c_int>();
                for i in 0..count {
                    fds.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    let mut fds = fds.into_iter();
    let (Some(diag), Some(protocols), None) = (fds.next(), fds.next(), fds.next()) else {
        return Err(io::Error::other("the box's supervisor sent no socket diagnostics"));
    };
    // SAFETY: setsockopt reads a timeval we own; fstat writes a stat we own.
    let own = unsafe {
        let size = std::mem::size_of::<libc::timeval>() as libc::socklen_t;
        let timeout: *const libc::timeval = &TIMEOUT;
        let timeout = timeout.cast();
        if libc::setsockopt(diag.as_raw_fd(), libc::SOL_SOCKET, libc::SO_RCVTIMEO, timeout, size) != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(diag.as_raw_fd(), &mut st) != 0 {
            return Err(io::Error::last_os_error());
        }
        st.st_ino as u32
    };
    let mut ready = Ready { diag, own, protocols, buf: vec![0; READ], seq: 0, skip: 0, last: 0 };
    // A first dump: where the kernel has no socket diagnostics, it says so at once.
    ready.dump()?;
    Ok(Some(ready))
}

/// What a dump found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dump {
    /// What the sockets listed hold, exactly.
    open: u64,
    /// Unix sockets not listed: closed, their data waiting at a peer (or not yet accepted).
    closed: u64,
    /// The most each of those may hold (see [`most_per_socket`]).
    most_each: u64,
    /// Sockets listed.
    sockets: u64,
}

impl Dump {
    /// What the sockets hold, at most.
    fn held(&self) -> u64 {
        self.open.saturating_add(self.closed.saturating_mul(self.most_each))
    }
}

impl Ready {
    /// What the namespace's sockets hold.
    fn dump(&mut self) -> io::Result<Dump> {
        let in_use_before = self.unix_sockets()?;
        let (mut held, mut sockets, mut sndbuf) = (0u64, 0u64, 0u64);
        // struct unix_diag_req: family, protocol, pad, states, ino, show, cookie.
        let mut unix = [0u8; 24];
        unix[0] = libc::AF_UNIX as u8;
        unix[4..8].copy_from_slice(&u32::MAX.to_ne_bytes());
        unix[12..16].copy_from_slice(&UDIAG_SHOW_MEMINFO.to_ne_bytes());
        let own = self.own;
        self.each(&unix, UNIX_MSG, UNIX_DIAG_MEMINFO, |_, info| {
            sockets += 1;
            held += mem(info, libc::SK_MEMINFO_RMEM_ALLOC) + mem(info, libc::SK_MEMINFO_WMEM_ALLOC);
            held += mem(info, libc::SK_MEMINFO_OPTMEM);
            sndbuf = sndbuf.max(mem(info, libc::SK_MEMINFO_SNDBUF));
        })?;
        let listed_unix = sockets;
        // struct netlink_diag_req: family, protocol, pad, ino, show, cookie.
        let mut netlink = [0u8; 20];
        netlink[0] = libc::AF_NETLINK as u8;
        netlink[1] = NDIAG_PROTO_ALL;
        netlink[8..12].copy_from_slice(&NDIAG_SHOW_MEMINFO.to_ne_bytes());
        self.each(&netlink, NETLINK_MSG, NETLINK_DIAG_MEMINFO, |msg, info| {
            sockets += 1;
            // (struct netlink_diag_msg: its inode at 16.)
            if msg.get(16..20).is_some_and(|ino| ino != own.to_ne_bytes()) {
                held += mem(info, libc::SK_MEMINFO_RMEM_ALLOC) + mem(info, libc::SK_MEMINFO_WMEM_ALLOC);
                held += mem(info, libc::SK_MEMINFO_OPTMEM);
            }
        })?;
        let closed = unlisted(in_use_before, self.unix_sockets()?, listed_unix);
        Ok(Dump { open: held, closed, most_each: most_per_socket(sndbuf), sockets })
    }

    /// What the machine's unix sockets of `inodes` hold (see [`HostMeter`]).
    fn held_by(&mut self, inodes: &std::collections::HashSet<u32>) -> io::Result<u64> {
        let (mut held, mut left, mut sndbuf) = (0u64, 0u64, 0u64);
        // struct unix_diag_req: family, protocol, pad, states, ino, show, cookie.
        let mut unix = [0u8; 24];
        unix[0] = libc::AF_UNIX as u8;
        unix[4..8].copy_from_slice(&u32::MAX.to_ne_bytes());
        unix[12..16].copy_from_slice(&(UDIAG_SHOW_MEMINFO | UDIAG_SHOW_PEER | UDIAG_SHOW_RQLEN).to_ne_bytes());
        let number = |b: &[u8]| b.get(..4).map_or(0, |v| u32::from_ne_bytes([v[0], v[1], v[2], v[3]]));
        self.each(&unix, UNIX_MSG, UNIX_DIAG_MEMINFO, |msg, info| {
            // (struct unix_diag_msg: family, type, state, pad, its inode at 4.)
            if !inodes.contains(&number(msg.get(4..).unwrap_or(&[]))) {
                return;
            }
            held += mem(info, libc::SK_MEMINFO_RMEM_ALLOC) + mem(info, libc::SK_MEMINFO_WMEM_ALLOC);
            held += mem(info, libc::SK_MEMINFO_OPTMEM);
            sndbuf = sndbuf.max(mem(info, libc::SK_MEMINFO_SNDBUF));
            let attrs = msg.get(UNIX_MSG..).unwrap_or(&[]);
            let waiting = number(attribute(attrs, UNIX_DIAG_RQLEN));
            let peer = number(attribute(attrs, UNIX_DIAG_PEER));
            match msg.get(2) {
                // (A listening socket's queue is its connections waiting, each of a peer.)
                Some(&LISTENING) => left += u64::from(waiting),
                _ if waiting > 0 && !inodes.contains(&peer) => left += 1,
                _ => {}
            }
        })?;
        Ok(held.saturating_add(left.saturating_mul(most_per_socket(sndbuf))))
    }

    /// Sends the dump request `req` and calls `each` with every socket's message (the part
    /// after its header, `size` bytes and its attributes) and its meminfo attribute `info`.
    fn each(&mut self, req: &[u8], size: usize, info: u16, mut each: impl FnMut(&[u8], &[u8])) -> io::Result<()> {
        self.seq = self.seq.wrapping_add(1);
        let mut out = Vec::with_capacity(HEADER + req.len());
        out.extend_from_slice(&((HEADER + req.len()) as u32).to_ne_bytes());
        out.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
        out.extend_from_slice(&DUMP.to_ne_bytes());
        out.extend_from_slice(&self.seq.to_ne_bytes());
        out.extend_from_slice(&0u32.to_ne_bytes());
        out.extend_from_slice(req);
        let fd = self.diag.as_raw_fd();
        // SAFETY: sends from a buffer of its length.
        if unsafe { libc::send(fd, out.as_ptr().cast(), out.len(), 0) } != out.len() as isize {
            return Err(io::Error::last_os_error());
        }
        loop {
            // SAFETY: reads into a buffer of its length.
            let n = unsafe { libc::recv(fd, self.buf.as_mut_ptr().cast(), self.buf.len(), 0) };
            if n <= 0 {
                return Err(if n == 0 { io::Error::other("the dump ended early") } else { io::Error::last_os_error() });
            }
            let mut rest = &self.buf[..n as usize];
            while rest.len() >= HEADER {
                let len = u32::from_ne_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
                let kind = u16::from_ne_bytes([rest[4], rest[5]]);
                let seq = u32::from_ne_bytes([rest[8], rest[9], rest[10], rest[11]]);
                if len < HEADER || len > rest.len() {
                    return Err(io::Error::other("a malformed dump"));
                }
                let body = &rest[HEADER..len];
                rest = &rest[len.next_multiple_of(4).min(rest.len())..];
                if seq != self.seq {
                    continue; // (the rest of an earlier dump given up on)
                }
                match kind {
                    NLMSG_DONE => return Ok(()),
                    NLMSG_ERROR => {
                        let errno = body.get(..4).map_or(0, |e| i32::from_ne_bytes([e[0], e[1], e[2], e[3]]));
                        return Err(io::Error::from_raw_os_error(errno.saturating_neg()));
                    }
                    _ if body.len() >= size => each(body, attribute(&body[size..], info)),
                    _ => {}
                }
            }
        }
    }

    /// The unix sockets of the namespace (both protocols, `UNIX` and `UNIX-STREAM`), listed or
    /// not: `protocols`' `sockets` column.
    fn unix_sockets(&mut self) -> io::Result<u64> {
        let mut text = Vec::new();
        loop {
            let at = text.len() as libc::off_t;
            // SAFETY: reads into a buffer of its length.
            let n =
                unsafe { libc::pread(self.protocols.as_raw_fd(), self.buf.as_mut_ptr().cast(), self.buf.len(), at) };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            if n == 0 {
                break;
            }
            text.extend_from_slice(&self.buf[..n as usize]);
        }
        Ok(unix_sockets(&String::from_utf8_lossy(&text)))
    }
}

/// The unix sockets a namespace holds that its dump did not list (closed, their data waiting at a
/// peer), from the sockets in use before the dump and after it and those it listed: the fewer of
/// the two counts, so that sockets made during the dump (not yet listed) or ended during it
/// (listed no more) are not taken for closed ones, each counted at the most one may hold (those
/// made and listed meanwhile hide as many closed ones from that look: an undercount, once). A
/// build making 19,200 empty pairs in 40 processes, under a limit of 512 MiB, was stopped for
/// "more than 512 MiB" on a loaded machine: the sockets it made while the dump ran, counted
/// after it alone.
fn unlisted(in_use_before: u64, in_use_after: u64, listed: u64) -> u64 {
    in_use_before.min(in_use_after).saturating_sub(listed)
}

/// The `UNIX` and `UNIX-STREAM` sockets of a `/proc/net/protocols` text.
fn unix_sockets(protocols: &str) -> u64 {
    let counts = protocols.lines().filter_map(|line| {
        let mut words = line.split_whitespace();
        let name = words.next()?;
        let sockets = words.nth(1)?.parse::<u64>().ok()?;
        matches!(name, "UNIX" | "UNIX-STREAM").then_some(sockets)
    });
    counts.sum()
}

/// The attribute of type `kind` among `attrs` (empty where there is none).
fn attribute(mut attrs: &[u8], kind: u16) -> &[u8] {
    while attrs.len() >= 4 {
        let len = u16::from_ne_bytes([attrs[0], attrs[1]]) as usize;
        let this = u16::from_ne_bytes([attrs[2], attrs[3]]);
        if len < 4 || len > attrs.len() {
            break;
        }
        if this == kind {
            return &attrs[4..len];
        }
        attrs = &attrs[len.next_multiple_of(4).min(attrs.len())..];
    }
    &[]
}

/// Value `which` (an `SK_MEMINFO_*`) of a meminfo attribute (0 where it is missing).
fn mem(info: &[u8], which: libc::c_int) -> u64 {
    let at = which as usize * 4;
    info.get(at..at + 4).map_or(0, |v| u64::from(u32::from_ne_bytes([v[0], v[1], v[2], v[3]])))
}

/// The most a unix socket's sent data may hold, its send buffer `sndbuf` bytes (the largest a
/// dump shows, at least the system's default): its data is sent while what it holds is under
/// its buffer, a datagram of a buffer's size at most (a stream's piece is smaller), each with
/// its kernel overhead; with what its options may hold (`optmem_max`).
fn most_per_socket(sndbuf: u64) -> u64 {
    let sysctl = |name: &str| {
        std::fs::read_to_string(format!("/proc/sys/net/core/{name}")).ok().and_then(|t| t.trim().parse::<u64>().ok())
    };
    static SYSTEM: std::sync::OnceLock<(u64, u64)> = std::sync::OnceLock::new();
    let (default, options) =
        *SYSTEM.get_or_init(|| (sysctl("wmem_default").unwrap_or(212_992), sysctl("optmem_max").unwrap_or(131_072)));
    sndbuf.max(default).saturating_mul(2).saturating_add(options).saturating_add(16 << 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Meter {
        /// A dump now (once the descriptors came).
        fn dump(&self) -> Dump {
            let mut state = self.state.lock().unwrap();
            let State::Ready(ready) = &mut *state else { panic!("no descriptors: {state:?}") };
            ready.dump().unwrap()
        }
    }

    /// The machine's meter counts what the sockets of the processes given hold: a socket pair of
    /// this process, one end filled, then that end closed (its data left at the other, counted at
    /// the most a closed peer may hold); a process without sockets holds none.
    #[test]
    fn the_machines_meter_counts_the_sockets_of_the_processes_given() {
        let Some(host) = HostMeter::new() else {
            eprintln!("no socket diagnostics here: nothing to show");
            return;
        };
        let mut ends = [-1; 2];
        // SAFETY: socketpair writes two descriptors into the array.
        let made =
            unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_NONBLOCK, 0, ends.as_mut_ptr()) };
        assert_eq!(made, 0);
        // SAFETY: two fresh descriptors that nothing else owns.
        let (writer, reader) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        let chunk = [7u8; 65536];
        let mut queued = 0u64;
        loop {
            // SAFETY: writes from a buffer of its length.
            let n = unsafe { libc::write(writer.as_raw_fd(), chunk.as_ptr().cast(), chunk.len()) };
            if n <= 0 {
                break;
            }
            queued += n as u64;
        }
        let me = [std::process::id() as i32];
        let open = host.held_by(&Descriptors::of(&me)).unwrap();
        drop(writer);
        let closed = host.held_by(&Descriptors::of(&me)).unwrap();
        drop(reader);
        let null = std::process::Stdio::null;
        let mut sleeper =
            std::process::Command::new("sleep").arg("5").stdin(null()).stdout(null()).stderr(null()).spawn().unwrap();
        let none = host.held_by(&Descriptors::of(&[sleeper.id() as i32]));
        let _ = sleeper.kill();
        let _ = sleeper.wait();
        assert!(queued > 0 && open >= queued, "{open} held of {queued} queued");
        assert!(closed >= most_per_socket(0), "{closed} held with the writer closed");
        assert_eq!(none, Some(0), "a process without sockets");
    }

    /// A walk of a process's descriptors finds each pipe once (both ends of one are one pipe),
    /// a FIFO opened by its path as a pipe, and its sockets; once they are closed, none of them;
    /// a process gone names none.
    #[test]
    fn descriptors_name_each_pipe_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        let (mut ends, mut pair) = ([-1; 2], [-1; 2]);
        // SAFETY: pipe and socketpair write two descriptors into each array; mkfifo reads a
        // path we own.
        unsafe {
            assert_eq!(libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC), 0);
            assert_eq!(
                libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0, pair.as_mut_ptr()),
                0
            );
            assert_eq!(libc::mkfifo(path.as_ptr(), 0o600), 0);
        }
        // SAFETY: fresh descriptors that nothing else owns.
        let owned: Vec<OwnedFd> = ends.iter().chain(&pair).map(|&fd| unsafe { OwnedFd::from_raw_fd(fd) }).collect();
        let fifo = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
        use std::os::unix::fs::MetadataExt;
        let meta = fifo.metadata().unwrap();
        let fifo_key = (meta.dev(), meta.ino());
        // SAFETY: fstat writes a stat we own.
        let pipe_key = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            assert_eq!(libc::fstat(ends[0], &mut st), 0);
            (PIPEFS, st.st_ino)
        };
        let me = Descriptors::of(&[std::process::id() as i32]);
        // The sockets alone (what every walk finds): the pair's, and no pipe nor anything else.
        let only = Descriptors::read(&[std::process::id() as i32], Reads::default());
        // SAFETY: fstat writes a stat we own.
        let pair_keys: Vec<u32> = pair
            .iter()
            .map(|&fd| unsafe {
                let mut st: libc::stat = std::mem::zeroed();
                assert_eq!(libc::fstat(fd, &mut st), 0);
                st.st_ino as u32
            })
            .collect();
        assert!(pair_keys.iter().all(|k| only.sockets.contains(k) && me.sockets.contains(k)), "{only:?}");
        assert!(only.pipes.is_empty() && (only.anonymous, only.watches, only.locks) == (0, 0, 0), "{only:?}");
        drop((owned, fifo));
        let after = Descriptors::of(&[std::process::id() as i32]);
        let none = Descriptors::of(&[i32::MAX]);
        // (Other tests of this process may hold pipes of their own meanwhile.)
        assert!(me.pipes.contains(&pipe_key) && me.pipes.contains(&fifo_key), "{me:?}");
        assert!(!after.pipes.contains(&pipe_key) && !after.pipes.contains(&fifo_key), "closed: {after:?}");
        // (Each pipe its buffer and its objects, each socket its objects.)
        let least = 2 * (pipe_buffer() + KERNEL_OBJECTS) + 2 * KERNEL_OBJECTS;
        assert!(me.sockets.len() >= 2 && me.in_kernel() >= least, "{me:?}");
        // (Other tests of this process may hold descriptors of no file, epoll watches and file
        // locks meanwhile: each counts too.)
        let each = me.pipes.len() as u64 * (pipe_buffer() + KERNEL_OBJECTS)
            + me.sockets.len() as u64 * KERNEL_OBJECTS
            + me.anonymous * ANONYMOUS
            + me.watches * WATCH
            + me.locks * LOCK;
        assert_eq!(me.in_kernel(), each, "{me:?}");
        assert_eq!((none.pipes.len(), none.sockets.len(), none.in_kernel()), (0, 0, 0), "{none:?}");
        assert_eq!(pipe_buffer() % (64 << 10), 0);
        // A table refused is recorded as `meter::fd_denied` reads it (the first process's, the
        // machine's own: refused to an arena that is not root), for both walks; this process's
        // own and one gone are not.
        let me = std::process::id() as i32;
        let first = [Descriptors::of(&[1]), Descriptors::read(&[1], Reads::default())];
        assert!(first.iter().all(|d| d.refused(1, 1) == super::super::meter::fd_denied(1, 1)), "{first:?}");
        assert!(!only.refused(me, me) && !none.refused(i32::MAX, i32::MAX), "{only:?}");
    }

    /// A child that holds an epoll of 4,160 watches (64 eventfds, each added through 65
    /// descriptor numbers) and a lock on `file`, its other descriptors closed but the pipes it
    /// reads `commands` on and says `!` on `answers` after each: `w` adds a watch, `u` lets go of
    /// the lock, `c` closes the epoll, anything else exits. Raw calls only.
    fn hold_watches_and_a_lock(file: &std::ffi::CStr, commands: libc::c_int, answers: libc::c_int) -> ! {
        // SAFETY: raw calls on this child's own descriptors and buffers, then _exit.
        unsafe {
            let (commands, answers) = (libc::dup2(commands, 500), libc::dup2(answers, 501));
            libc::syscall(libc::SYS_close_range, 3, 499, 0);
            libc::syscall(libc::SYS_close_range, 502, u32::MAX, 0);
            let epoll = libc::epoll_create1(0);
            let mut watch = libc::epoll_event { events: libc::EPOLLIN as u32, u64: 0 };
            for _ in 0..64 {
                let event = libc::eventfd(0, 0);
                for slot in 200..265 {
                    libc::dup2(event, slot);
                    libc::epoll_ctl(epoll, libc::EPOLL_CTL_ADD, slot, &mut watch);
                }
            }
            libc::syscall(libc::SYS_close_range, 200, 264, 0);
            let locked = libc::open(file.as_ptr(), libc::O_RDWR);
            let mut lock: libc::flock = std::mem::zeroed();
            lock.l_type = libc::F_WRLCK as libc::c_short;
            libc::fcntl(locked, libc::F_SETLK, &lock);
            let say = || libc::write(answers, b"!".as_ptr().cast(), 1);
            say();
            let mut command = 0u8;
            while libc::read(commands, (&raw mut command).cast(), 1) == 1 {
                match command {
                    b'w' => {
                        libc::epoll_ctl(epoll, libc::EPOLL_CTL_ADD, libc::eventfd(0, 0), &mut watch);
                    }
                    b'u' => {
                        lock.l_type = libc::F_UNLCK as libc::c_short;
                        libc::fcntl(locked, libc::F_SETLK, &lock);
                    }
                    b'c' => {
                        libc::close(epoll);
                    }
                    _ => break,
                }
                say();
            }
            libc::_exit(0)
        }
    }

    /// A bot's looks count its epolls' watches and its locks as a build's walk does: the watches
    /// at every look where they were few at the last (4,096 or fewer), at every other one where
    /// they were more (4,160), what was found then counted between, but none once the epoll is
    /// closed; the locks at every [`LOCK_LOOKS`]-th look, counted between. The control: a
    /// build's walk reads both at each.
    #[test]
    fn a_bots_looks_count_its_watches_and_locks() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("locked");
        std::fs::write(&file, b"x").unwrap();
        let path = std::ffi::CString::new(file.as_os_str().as_encoded_bytes()).unwrap();
        let (mut commands, mut answers) = ([-1; 2], [-1; 2]);
        // SAFETY: pipe writes two descriptors into each array.
        unsafe {
            assert_eq!(libc::pipe2(commands.as_mut_ptr(), libc::O_CLOEXEC), 0);
            assert_eq!(libc::pipe2(answers.as_mut_ptr(), libc::O_CLOEXEC), 0);
        }
        // SAFETY: the child makes raw calls only and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            hold_watches_and_a_lock(&path, commands[0], answers[1]);
        }
        // SAFETY: this test's own descriptors: the child's ends closed here, then a command
        // written and an answer read from buffers of the lengths given.
        unsafe {
            libc::close(commands[0]);
            libc::close(answers[1]);
        }
        let ask = |command: u8| {
            let mut answer = 0u8;
            // SAFETY: as above.
            unsafe {
                if command != 0 {
                    libc::write(commands[1], (&raw const command).cast(), 1);
                }
                assert_eq!(libc::read(answers[0], (&raw mut answer).cast(), 1), 1, "the child answers");
            }
        };
        ask(0);
        let build = Descriptors::of(&[pid]);
        let looks = BotLooks::default();
        let mut seen = vec![];
        let mut look = || {
            let found = looks.walk(&[pid]);
            seen.push((found.watches, found.locks));
            found
        };
        let first = look();
        ask(b'w');
        look();
        look();
        ask(b'u');
        for _ in 3..9 {
            look();
        }
        ask(b'c');
        look();
        let build_after = Descriptors::of(&[pid]);
        // SAFETY: ends and reaps this test's child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        assert_eq!((build.watches, build.locks, build.epolls), (4160, 1, 1), "{build:?}");
        assert_eq!((build_after.watches, build_after.locks, build_after.epolls), (0, 0, 0), "{build_after:?}");
        let (read, again, unlocked) = ((4160, 1), (4161, 1), (4161, 0));
        assert_eq!(seen, [read, read, again, again, again, again, again, again, unlocked, (0, 0)]);
        assert!(first.anonymous >= 65, "{first:?}");
        assert!(first.in_kernel() >= 4160 * WATCH + LOCK + 65 * ANONYMOUS, "{first:?}");
    }

    /// The locks held through a descriptor and its duplicates are counted once, and their
    /// `fdinfo` read once: 100 locks through one open file, duplicated to 50 descriptors, are 100,
    /// by a build's walk and a bot's look. (A lock is listed only at the descriptors of the open
    /// file it was taken through: a second open file of the same file, read too, lists none.) The
    /// control: the descriptors' `fdinfo` files, every one read, list each lock once per
    /// descriptor, 5,000.
    #[test]
    fn a_lock_held_through_duplicates_is_counted_once() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("locked");
        std::fs::write(&file, vec![0u8; 256]).unwrap();
        let path = std::ffi::CString::new(file.as_os_str().as_encoded_bytes()).unwrap();
        let (mut ready, mut done) = ([-1; 2], [-1; 2]);
        // SAFETY: pipe writes two descriptors into each array.
        unsafe {
            assert_eq!(libc::pipe2(ready.as_mut_ptr(), libc::O_CLOEXEC), 0);
            assert_eq!(libc::pipe2(done.as_mut_ptr(), libc::O_CLOEXEC), 0);
        }
        // SAFETY: the child makes raw calls on its own descriptors and buffers, then _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                let (ready, done) = (libc::dup2(ready[1], 600), libc::dup2(done[0], 601));
                libc::syscall(libc::SYS_close_range, 3, 599, 0);
                let locked = libc::open(path.as_ptr(), libc::O_RDWR);
                let mut lock: libc::flock = std::mem::zeroed();
                lock.l_type = libc::F_WRLCK as libc::c_short;
                lock.l_len = 1;
                for start in 0..100 {
                    lock.l_start = 2 * start;
                    libc::fcntl(locked, libc::F_SETLK, &lock);
                }
                for slot in 100..149 {
                    libc::dup2(locked, slot);
                }
                libc::open(path.as_ptr(), libc::O_RDONLY);
                libc::write(ready, b"!".as_ptr().cast(), 1);
                let mut byte = 0u8;
                libc::read(done, (&raw mut byte).cast(), 1);
                libc::_exit(0)
            }
        }
        let mut byte = 0u8;
        // SAFETY: this test's own descriptors and a byte of its own.
        unsafe {
            libc::close(ready[1]);
            libc::close(done[0]);
            assert_eq!(libc::read(ready[0], (&raw mut byte).cast(), 1), 1, "the child is ready");
        }
        let build = Descriptors::of(&[pid]);
        let looks = BotLooks::default();
        let look = looks.walk(&[pid]);
        let mut listed = 0;
        for info in std::fs::read_dir(format!("/proc/{pid}/fdinfo")).unwrap().flatten() {
            let text = std::fs::read_to_string(info.path()).unwrap_or_default();
            listed += text.lines().filter(|l| l.starts_with("lock:")).count();
        }
        // SAFETY: ends and reaps this test's child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        assert_eq!(listed, 5_000, "the control");
        assert_eq!(build.locks, 100, "{build:?}");
        assert_eq!(look.locks, 100, "{look:?}");
    }

    /// Sockets made or ended while a namespace's sockets are dumped are not taken for closed ones;
    /// those closed before it are, but for as many as the dump listed of those made meanwhile (a
    /// look's undercount, never an overcount).
    #[test]
    fn sockets_made_or_ended_during_a_dump_are_not_taken_for_closed_ones() {
        // 1,000 listed, 10 closed: nothing meanwhile.
        assert_eq!(unlisted(1_010, 1_010, 1_000), 10);
        // 500 made during the dump, 200 of them listed (the control: the count after alone
        // would take the 300 others for closed): the 10 closed go unseen at this look.
        assert_eq!(unlisted(1_010, 1_510, 1_200), 0);
        assert_eq!(1_510u64 - 1_200, 310, "the control");
        // 500 made, none listed: the 10 closed.
        assert_eq!(unlisted(1_010, 1_510, 1_000), 10);
        // 300 ended during the dump, after they were listed, or before.
        assert_eq!(unlisted(1_010, 710, 1_000), 0);
        assert_eq!(unlisted(1_010, 710, 700), 10);
    }

    /// A child that stands for a box: in a network namespace of its own (and a user namespace,
    /// so that no privilege is needed) it sends `end` the meter's descriptors as a box's
    /// supervisor does, says so (0, or `u64::MAX` where no namespace can be made), then for
    /// each byte read from `commands`, `f` fills a socket pair's writing end (its send buffer
    /// the system's default, as in a box), `c` closes it (its data left at the reading end),
    /// anything else exits; each time it says how many bytes it has queued. Raw calls only.
    fn stand_in_box(end: libc::c_int, commands: libc::c_int, answers: libc::c_int, chunk: &[u8]) -> ! {
        // SAFETY: raw calls on this child's own descriptors and buffers, then _exit.
        unsafe {
            let say = |n: u64| libc::write(answers, (&raw const n).cast(), 8);
            if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                say(u64::MAX);
                libc::_exit(0);
            }
            super::super::child::send_meter(end);
            say(0);
            let (mut pair, mut queued) = ([-1; 2], 0u64);
            let mut command = 0u8;
            while libc::read(commands, (&raw mut command).cast(), 1) == 1 {
                match command {
                    b'f' => {
                        libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr());
                        loop {
                            let sent = libc::send(pair[0], chunk.as_ptr().cast(), chunk.len(), libc::MSG_DONTWAIT);
                            if sent <= 0 {
                                break;
                            }
                            queued += sent as u64;
                        }
                    }
                    b'c' => {
                        libc::close(pair[0]);
                    }
                    _ => break,
                }
                say(queued);
            }
            libc::_exit(0)
        }
    }

    /// A meter counts what a socket pair's writer queued, exactly while it is open, and once it
    /// is closed (its data waiting at the reader) at the most a closed socket holds, no less. The
    /// control: the sockets listed then show none of it. (Skipped where no namespace can be made.)
    #[test]
    fn a_meter_counts_what_sockets_hold_open_or_closed() {
        let (meter, end) = Meter::new().unwrap();
        let (mut commands, mut answers) = ([-1; 2], [-1; 2]);
        // SAFETY: pipe writes two descriptors into each array.
        unsafe {
            assert_eq!(libc::pipe2(commands.as_mut_ptr(), libc::O_CLOEXEC), 0);
            assert_eq!(libc::pipe2(answers.as_mut_ptr(), libc::O_CLOEXEC), 0);
        }
        let chunk = vec![1u8; 64 << 10];
        // SAFETY: the child makes raw calls only and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            stand_in_box(end.as_raw_fd(), commands[0], answers[1], &chunk);
        }
        drop(end);
        // SAFETY: this test's own descriptors: the child's ends closed here (a child gone is
        // an end of file, not a wait), then commands written and answers read from buffers of
        // the lengths given.
        unsafe {
            libc::close(commands[0]);
            libc::close(answers[1]);
        }
        let ask = |command: u8| -> u64 {
            let mut n = 0u64;
            // SAFETY: as above.
            unsafe {
                if command != 0 {
                    libc::write(commands[1], (&raw const command).cast(), 1);
                }
                if command != b'q' {
                    assert_eq!(libc::read(answers[0], (&raw mut n).cast(), 8), 8, "the child answers");
                }
            }
            n
        };
        if ask(0) == u64::MAX {
            eprintln!("no network namespace can be made here: nothing to show");
            // SAFETY: reaps this test's child.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            return;
        }
        meter.arrived();
        let before = meter.dump();
        let queued = ask(b'f');
        let open = meter.dump();
        let closed_after = ask(b'c');
        let closed = meter.dump();
        let held = meter.held();
        ask(b'q');
        // SAFETY: reaps this test's child.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
        assert!(queued > 100 << 10 && closed_after == queued, "{queued}");
        // (The kernel's own netlink sockets of the namespace are listed too: a few bytes.)
        assert!(before.held() < 16 << 10 && before.closed == 0, "{before:?}");
        assert!(open.open >= queued && open.closed == 0, "{queued}: {open:?}");
        assert!(closed.held() >= queued && closed.closed == 1, "{queued}: {closed:?}");
        assert!(closed.open < queued / 10, "the control: the sockets listed show none of it: {closed:?}");
        assert_eq!(held, Some(closed.held()), "a look says what a dump finds");
    }

    #[test]
    fn protocols_counts_both_unix_protocols() {
        let text = "protocol  size sockets  memory press maxhdr  slab module     cl co di\n\
                    UNIX-STREAM 1088      7      -1   NI       0   yes  kernel      y  n  y\n\
                    UNIX      1088      3      -1   NI       0   yes  kernel      y  n  y\n\
                    NETLINK   1040      1      -1   NI       0   no   kernel      n  n  n\n";
        assert_eq!(unix_sockets(text), 10);
        assert_eq!(unix_sockets("garbage\n"), 0);
    }

    #[test]
    fn attributes_are_found_by_type() {
        // Two attributes: type 1 (4 bytes of data), type 5 (8 bytes).
        let mut attrs = vec![8, 0, 1, 0, 9, 9, 9, 9, 12, 0, 5, 0];
        attrs.extend_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(mem(attribute(&attrs, 5), 1), 2);
        assert_eq!(attribute(&attrs, 7), &[] as &[u8]);
        assert_eq!(mem(&[], 2), 0);
    }
}
