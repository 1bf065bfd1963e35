//! The system calls a box refuses, as a seccomp filter: those that reach state no namespace of
//! the box isolates. Kernel keyrings (`add_key`, `request_key`, `keyctl`) belong to the user
//! id, not to a namespace: a bot could leave a note there that a later match's bot (its own
//! next game, an accomplice) reads, even under another box user, and a build running as root
//! could read root's keys. `sched_setaffinity` too: the arena keeps each match on one CPU of
//! its own (see `referee::cpus`), and a bot that widened its set would run its threads on the
//! CPUs of the other matches of a tournament, slowing their bots on the wall clock. io_uring
//! (`io_uring_setup`, `io_uring_enter`, `io_uring_register`) too: its operations are submitted
//! through a ring this filter cannot see into (a build's `IORING_OP_FALLOCATE` took 16 GiB at
//! once past the refused `fallocate` below); programs fall back to plain calls, as on a kernel
//! without it. So is the kernel's older AIO (`io_setup`, `io_submit`, `io_getevents`,
//! `io_pgetevents`, `io_cancel`, `io_destroy`): its contexts are counted for the whole machine
//! (`/proc/sys/fs/aio-nr`, which every box reads), so one box sent another 15 bits a tick by
//! the size of the context it held, and one box made contexts until `aio-max-nr`, after which
//! every `io_setup` of the machine failed; glibc's POSIX AIO uses threads, and no compiler or
//! build tool needs it. A build's box also refuses `fallocate`, which takes disk at once, without
//! writing, faster than a build's disk use can be measured (glibc's `posix_fallocate` then
//! writes instead), and the `ioctl`s that reach it (`FS_IOC_RESVSP`, `FS_IOC_RESVSP64`,
//! `FS_IOC_ZERO_RANGE`, XFS's old `ALLOCSP`). Everything else is allowed: the namespaces, the
//! box user and the limits do the rest.
//!
//! A bot's box also refuses what would let two boxes talk through the files they share, read
//! only (`/etc`, `/usr`, …: the same inodes in every box): file locks, which one box takes and
//! another sees (`flock`, and `fcntl`'s `F_SETLK`, `F_SETLKW`, `F_GETLK` and their `F_OFD_`
//! forms), and notices of another's use of a file (`inotify_init`, `inotify_init1` and
//! `fanotify_init`, whose unprivileged `FAN_REPORT_FID` mode works in a box; `fcntl`'s
//! `F_NOTIFY`): a channel between opponents, or between a tournament's matches. Builds keep
//! the locks: cargo and make lock their own files. A build whose memory the arena sums loses
//! inotify and fanotify all the same (see [`notification_lock`]): their queued events are kernel
//! memory no process's set shows.
//!
//! No box may make a socket of a family other than unix, IP and netlink
//! ([`socket_family_filter`]): `AF_VSOCK` belongs to no network namespace.
//!
//! No box may make a user namespace: `unshare` and `clone` with `CLONE_NEWUSER` in their
//! flags fail with `EPERM` (as where the kernel allows none), and `clone3`, whose flags are in
//! memory the filter cannot read, fails with `ENOSYS` for every use (glibc's threads and
//! `posix_spawn` then fall back to `clone`, as on a kernel before 5.3; musl and Go use `clone`).
//! In a nested user namespace a bot held every capability (it made a network namespace and
//! mounted a 2 GiB tmpfs there): the kernel's code behind those capabilities, out of an
//! unprivileged process's reach otherwise, is where sandbox escapes are found. Docker's default
//! profile, nsjail and bubblewrap (`--disable-userns`) refuse them the same way; no build or
//! bot needs one. (A box of an unprivileged arena also sets its own user namespace's
//! `max_user_namespaces` to 0, see `child::enter`: the same, by the kernel.)
//!
//! On x86_64 a call numbered with the x32 bit (`nr | 0x4000_0000`) is the same call by another
//! name, which the filter above, matching numbers, would let through on a kernel with x32
//! enabled: such calls end the process, as calls of a foreign architecture do.

use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompRule};

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

/// The refused calls.
const REFUSED: [libc::c_long; 14] = [
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_keyctl,
    libc::SYS_sched_setaffinity,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_io_setup,
    libc::SYS_io_submit,
    libc::SYS_io_getevents,
    SYS_IO_PGETEVENTS,
    libc::SYS_io_cancel,
    libc::SYS_io_destroy,
    libc::SYS_clone3,
];

/// `io_pgetevents`, which the `libc` crate does not name on every architecture.
#[cfg(target_arch = "aarch64")]
const SYS_IO_PGETEVENTS: libc::c_long = 292;
/// `io_pgetevents`, which the `libc` crate does not name on every architecture.
#[cfg(not(target_arch = "aarch64"))]
const SYS_IO_PGETEVENTS: libc::c_long = 333;

/// Every filter of a box, in the order they are applied (the kernel runs them all, and the
/// harshest answer wins): a build's box gets [`build_filter`]'s too, a bot's [`bot_filters`],
/// and a bot's box whose memory no cgroup holds whole (not `holds_memory`)
/// [`uncounted_memory_filters`] too; a build's box whose memory no cgroup limits (not
/// `holds_memory`: the arena sums its processes, as a plain build's) gets
/// [`plain_build_memory_filter`], as a plain build, and [`box_build_memory_filter`]: a red team's
/// build in a box without a memory cgroup held memory in `memfd_create` files, which no process's
/// resident set shows.
///
/// They end with [`last_filters`]: a bot's box takes [`disk_lock`], a build's box
/// [`session_lock`], and so does a bot's box whose CPU time no cgroup counts (not `counts_cpu`),
/// with [`reaping_lock`], and a box whose memory is summed [`seccomp_lock`] last, after every
/// other filter.
pub(super) fn filters(build: bool, holds_memory: bool, counts_cpu: bool) -> Vec<BpfProgram> {
    let own = if build { build_filter().into_iter().chain(set_id_filters()).collect() } else { bot_filters() };
    let uncounted = match (build, holds_memory) {
        (_, true) => Vec::new(),
        (true, false) => plain_build_memory_filter().into_iter().chain(box_build_memory_filter()).collect(),
        (false, false) => uncounted_memory_filters(),
    };
    let common = filter().into_iter().chain(x32_filter()).chain(user_namespace_filter()).chain(socket_family_filter());
    common.chain(own).chain(uncounted).chain(last_filters(build, !counts_cpu, !holds_memory)).collect()
}

/// The filters every list of a process's filters ends with ([`filters`], [`plain_filters`],
/// [`unconfined_plain_filters`]), in this order: a bot's [`disk_lock`] (every bot's, boxed or
/// plain: here so that no list of a bot's goes without it), [`reaping_lock`] for a bot whose CPU
/// time is summed (`cpu_summed`: every plain one, and a box's no cgroup counts), [`session_lock`]
/// for a build and for such a bot (where they stand changes nothing: no other filter answers
/// `setsid`, `rt_sigaction`, the disk calls or `open` by its `O_DIRECT` or `O_DSYNC` bit), then,
/// for a process whose memory is summed (`summed`: every plain one, and a box's whose memory no
/// cgroup holds whole), [`seccomp_lock`], which must come last, as it refuses the filters that
/// would come after it.
fn last_filters(build: bool, cpu_summed: bool, summed: bool) -> impl Iterator<Item = BpfProgram> {
    let disk = if build { Vec::new() } else { disk_lock() };
    let reaping = if !build && cpu_summed { reaping_lock() } else { None };
    let session = if build || cpu_summed { session_lock() } else { None };
    let lock = if summed { seccomp_lock() } else { None };
    disk.into_iter().chain(reaping).chain(session).chain(lock)
}

/// A bot may not make the disk work for nothing but interrupts: each read or write that reaches
/// the disk ends in an interrupt on a CPU, and both bots of a match share one (see
/// `referee::cpus`): on a kernel without `CONFIG_IRQ_TIME_ACCOUNTING` (this arena's 6.18 among
/// them) the interrupt's time is charged to whatever task it interrupts, the opponent thinking. A
/// red team's bot answered at once while two of its threads read 4 KiB at random offsets of a large
/// system library with `O_DIRECT`: the same victim's charged CPU rose 15 to 45 %, and in a league
/// it forfeited on time in 2 games of 4; reads that leave nothing cached (`RWF_DONTCACHE`) added 5
/// to 12 %, writes each synced 0 to 9 %, reads of pages dropped from the cache first
/// (`POSIX_FADV_DONTNEED`) or read ahead again and again up to 7 %. So, for every bot, boxed
/// or plain:
///
/// - `open`, `openat` and `open_by_handle_at` with `O_DIRECT` or `O_DSYNC` (which `O_SYNC`
///   holds) in their flags, and `fcntl`'s `F_SETFL` with `O_DIRECT`, fail with `EINVAL` (what
///   the kernel answers `O_DIRECT` on a file system without direct I/O, which every user of it
///   must handle already: it then reads through the cache); `openat2`, whose flags are in memory
///   the filter cannot read, fails with `ENOSYS` for every use, as on a kernel before 5.6 (glibc's
///   `open` and `openat`, Python's, Rust's and Java's file opening use `openat`, and what calls
///   `openat2` falls back to it);
/// - `preadv2` and `pwritev2` with `RWF_DONTCACHE`, `RWF_DSYNC` or `RWF_SYNC` fail with
///   `EOPNOTSUPP` (what a file system without them answers);
/// - advice that only moves pages between the disk and the cache, and syncs, succeed and do
///   nothing: `posix_fadvise`, `readahead`, `madvise`'s `MADV_WILLNEED`, `fsync`, `fdatasync`,
///   `sync`, `syncfs`, `sync_file_range` and `msync` (a bot's files are its scratch, gone with it:
///   nothing is lost that anyone keeps; a red team's plain bot made 50,000 to 68,000 disk writes
///   in 8 s with `msync(MS_SYNC)` of a shared mapping of its scratch file);
/// - setting a file's attributes (`FS_IOC_SETFLAGS`, `FS_IOC_FSSETXATTR`) fails with `ENOTTY`, as
///   on a file system without them: `chattr +S` makes every write to the file synchronous (66,000
///   writes in 8 s, the same red team's).
///
/// What is left (reads of pages the cache lost to the box's own memory limit, or that the bot
/// pushed out itself with `MADV_PAGEOUT`, which only a box whose memory cgroup holds it may: see
/// [`uncounted_memory_filters`]) is bounded by the disk operations a box's cgroup allows
/// (`SandboxLimits::disk_ops`). io_uring and the kernel's
/// AIO, which would open or read past this filter, are refused every box and plain process
/// already ([`filter`]). A build keeps all of it: it plays no match. Empty on an architecture the
/// filter compiler does not know (said).
fn disk_lock() -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<Vec<BpfProgram>> = std::sync::OnceLock::new();
    FILTERS
        .get_or_init(|| {
            let has = |arg: u8, bit: u64| {
                SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(bit), bit)
            };
            let (direct, dsync) = (libc::O_DIRECT as u64, libc::O_DSYNC as u64);
            let opens = |arg: u8| -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
                Ok(vec![SeccompRule::new(vec![has(arg, direct)?])?, SeccompRule::new(vec![has(arg, dsync)?])?])
            };
            let refused = (|| -> Result<Vec<(libc::c_long, Vec<SeccompRule>)>, seccompiler::BackendError> {
                let set_flags =
                    SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::F_SETFL as u64)?;
                let mut rules = vec![
                    (libc::SYS_openat, opens(2)?),
                    (libc::SYS_open_by_handle_at, opens(2)?),
                    (libc::SYS_fcntl, vec![SeccompRule::new(vec![set_flags, has(2, direct)?])?]),
                ];
                #[cfg(target_arch = "x86_64")]
                rules.push((libc::SYS_open, opens(1)?));
                Ok(rules)
            })();
            let uncached = (|| -> Result<Vec<(libc::c_long, Vec<SeccompRule>)>, seccompiler::BackendError> {
                let flags: Vec<SeccompRule> = [libc::RWF_DONTCACHE, libc::RWF_DSYNC, libc::RWF_SYNC]
                    .into_iter()
                    .map(|bit| SeccompRule::new(vec![has(5, bit as u64)?]))
                    .collect::<Result<_, _>>()?;
                Ok(vec![(libc::SYS_preadv2, flags.clone()), (libc::SYS_pwritev2, flags)])
            })();
            let quiet = (|| -> Result<Vec<(libc::c_long, Vec<SeccompRule>)>, seccompiler::BackendError> {
                let advice = |a: u64| -> Result<SeccompRule, seccompiler::BackendError> {
                    SeccompRule::new(vec![SeccompCondition::new(2, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, a)?])
                };
                let mut rules: Vec<(libc::c_long, Vec<SeccompRule>)> = [
                    libc::SYS_fadvise64,
                    libc::SYS_readahead,
                    libc::SYS_fsync,
                    libc::SYS_fdatasync,
                    libc::SYS_sync,
                    libc::SYS_syncfs,
                    libc::SYS_sync_file_range,
                ]
                .into_iter()
                .map(|call| (call, Vec::new()))
                .collect();
                rules.push((libc::SYS_madvise, vec![advice(libc::MADV_WILLNEED as u64)?]));
                rules.push((libc::SYS_msync, Vec::new()));
                Ok(rules)
            })();
            let attributes: Result<Vec<SeccompRule>, _> = SETTING_ATTRIBUTES.iter().map(|&cmd| on_arg1(cmd)).collect();
            let (Ok(refused), Ok(uncached), Ok(quiet), Ok(attributes)) = (refused, uncached, quiet, attributes) else {
                tracing::error!(
                    "the bots' disk filter does not compile: a bot's disk reads may be charged to its opponent"
                );
                return Vec::new();
            };
            let openat2 = compile(vec![(libc::SYS_openat2, Vec::new())], libc::ENOSYS);
            let attributes = compile(vec![(libc::SYS_ioctl, attributes)], libc::ENOTTY);
            let programs = [
                compile(refused, libc::EINVAL),
                openat2,
                compile(uncached, libc::EOPNOTSUPP),
                compile(quiet, 0),
                attributes,
            ];
            programs.into_iter().flatten().collect()
        })
        .clone()
}

/// The `ioctl`s that set a file's attributes (its sync flag among them): `FS_IOC_SETFLAGS`, and
/// `FS_IOC_FSSETXATTR` (`_IOW('X', 32, struct fsxattr)`), as 64-bit Linux numbers them.
const SETTING_ATTRIBUTES: [u64; 2] = [libc::FS_IOC_SETFLAGS, 0x401c_5820];

/// A bot whose CPU time is summed (see [`session_lock`]) may not have the kernel reap its
/// children itself: `rt_sigaction` for `SIGCHLD` with a new action (`SIG_IGN`, or a handler with
/// `SA_NOCLDWAIT`; the filter cannot read which) succeeds and changes nothing. A child the kernel
/// reaps is added to no process's times, so its CPU was charged to no one: a red team's bot
/// thought 12 s in such children and was charged 0.3 s. Its children are now zombies until it
/// waits for them (each counted in its processes, and its CPU time in its sum, as the kernel
/// keeps a zombie's times); a program that set `SIG_IGN` to forget its children fills its
/// process limit, and one that waits for them in a handler of `SIGCHLD` must wait in its loop
/// instead (no sample bot or starter kit does either; Python's `subprocess` and `asyncio`,
/// glibc's `system` and a shell's `$(…)` wait without it). Reading the action stays. `None`
/// where it does not compile (said).
fn reaping_lock() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let rule = (|| {
                let signal = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::SIGCHLD as u64)?;
                let action = SeccompCondition::new(1, SeccompCmpArgLen::Qword, SeccompCmpOp::Ne, 0)?;
                SeccompRule::new(vec![signal, action])
            })();
            let Ok(rule) = rule else {
                tracing::error!(
                    "the bots' SIGCHLD filter does not compile: a bot's auto-reaped children think uncharged"
                );
                return None;
            };
            compile(vec![(libc::SYS_rt_sigaction, vec![rule])], 0)
        })
        .clone()
}

/// `setsid` fails with `EPERM` (what it answers a process that leads its process group already,
/// which every caller must handle) for a build's processes, plain or boxed, and for a bot's whose
/// CPU time the arena sums (a plain bot, or one in a box no cgroup counts the CPU of: an
/// unprivileged arena's; see below). Where the
/// kernel groups processes by session for the scheduler (autogroups), each session shares the CPU
/// as an equal of the arena's whatever its processes' nice values, and a build's are niced to
/// yield to the arena's look at its memory (see `child::BUILD_NICENESS`; the build's own session,
/// its keeper's or box's, is lowered with them, see `child::lower_autogroup`): a red team's
/// build's spinners, each in a session of its own, cut a probe of nice 0 to a tenth of a CPU. No
/// compiler or build tool was seen to make a session (`strace -f` of `make -j4` of a C++ project,
/// `cc`, `cargo build --offline`, `python3 -m py_compile`); `setpgid` (a shell's jobs, coreutils'
/// `timeout`) stays.
///
/// A bot whose CPU time is summed (its live processes' and the children they waited for, see
/// `meter::tree_cpu`) is not charged for children the kernel reaps itself, and a red team's kept
/// 12 short-lived spinners so, each calling `setsid`: each its own autogroup, an equal share of
/// the CPU with the opponent's whole session, and the opponent timed out in 2 games of 2 (the
/// monitor's check of a bot burning CPU while not asked never saw them). With `setsid` refused,
/// its spinners share its session's one share. A bot whose box's cgroup counts its CPU keeps it:
/// the monitor sees, and charges, its spinners' CPU (they may still each be an autogroup of their
/// own where the box's cgroup has no `cpu` controller: their time is the bot's all the same).
/// No sample bot or starter kit calls it. `None` where it does not compile (said).
fn session_lock() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| compile(vec![(libc::SYS_setsid, Vec::new())], libc::EPERM)).clone()
}

/// Installing a seccomp filter of one's own fails with `EINVAL` (`seccomp`'s
/// `SECCOMP_SET_MODE_FILTER`, and `prctl`'s `PR_SET_SECCOMP` with `SECCOMP_MODE_FILTER`), as on a
/// kernel without seccomp filters, for a process whose memory is summed (every plain bot and
/// build, and a box's without a memory cgroup): each filter is kernel memory no process's set
/// shows (its program, and its JIT's image in the machine's vmalloc space), kept as long as any
/// process it was installed in lives, some 0.57 MiB for a process of 7 filters of 4,096
/// instructions: a red team's plain build (400 processes of 12 such filters each) held 100 MiB more
/// of the machine's unreclaimable slab and 137 MiB more vmalloc under a `build_memory_mb` of 64,
/// and built (the same without the filters, 5 and 6 MiB). Strict mode (`SECCOMP_SET_MODE_STRICT`),
/// which holds nothing, stays. This filter is the last the arena applies to such a process (see
/// [`filters`], [`plain_filters`], [`unconfined_plain_filters`] and `child::enter` and
/// `child::enter_plain`, which apply them in order): the arena's own are in place before it. No
/// compiler or build tool was seen to install one (`strace -f` of `make -j4` of a C++ project,
/// `cc`, `cargo build --offline`, `python3 -m py_compile`: no `seccomp`, `prctl`'s
/// `PR_SET_NAME` alone). `None` where it does not compile (said).
fn seccomp_lock() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let set_filter = on_arg0(u64::from(libc::SECCOMP_SET_MODE_FILTER));
            let prctl = [(0, libc::PR_SET_SECCOMP as u64), (1, libc::SECCOMP_MODE_FILTER as u64)]
                .into_iter()
                .map(|(arg, value)| SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value))
                .collect::<Result<Vec<_>, _>>()
                .and_then(SeccompRule::new);
            let (Ok(set_filter), Ok(prctl)) = (set_filter, prctl) else {
                tracing::error!("the seccomp lock does not compile: summed processes may hold memory in filters");
                return None;
            };
            compile(vec![(libc::SYS_seccomp, vec![set_filter]), (libc::SYS_prctl, vec![prctl])], libc::EINVAL)
        })
        .clone()
}

/// The calls that change a file's metadata, which Landlock does not govern (its rights cover
/// a file's data and names, not its mode, owner, times or extended attributes): refused to a
/// plain bot confined by it (see `super::confine`), which may write no file, and so has no use
/// for them. Without this, a plain bot of an arena that is not root (its user owns the league)
/// made the league's `tournament.json` unreadable (`chmod 0`), and could open another
/// student's folder to every user of the machine.
const METADATA_CALLS: [&[libc::c_long]; 2] = [OWNER_AND_ATTRIBUTE_CALLS, MODE_AND_TIME_CALLS];

/// The calls of [`METADATA_CALLS`] that change a file's mode or times, which a plain build
/// keeps (see [`plain_filters`]).
const MODE_AND_TIME_CALLS: &[libc::c_long] = &[
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    SYS_FCHMODAT2,
    libc::SYS_utimensat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utime,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utimes,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_futimesat,
];

/// `fchmodat2` (Linux 6.6), the same number on every architecture.
const SYS_FCHMODAT2: libc::c_long = 452;
/// `setxattrat` (Linux 6.13), the same number on every architecture: a red team set a POSIX ACL
/// of `---` on the league's record with it past the calls above (a `chmod 0` by another name).
const SYS_SETXATTRAT: libc::c_long = 463;
/// `removexattrat` (Linux 6.13).
const SYS_REMOVEXATTRAT: libc::c_long = 466;
/// `file_setattr` (Linux 6.17): a file's attributes (immutable, append-only, …) by path.
const SYS_FILE_SETATTR: libc::c_long = 469;

/// `setpriority`'s and `ioprio_set`'s "a process" (`PRIO_PROCESS`, `IOPRIO_WHO_PROCESS`).
const PRIO_PROCESS: u64 = 0;
const IOPRIO_WHO_PROCESS: u64 = 1;

/// The filters of a plain bot confined by Landlock, which governs its files' data, TCP, signals
/// and tracing, but not the rest of what its user may do to its own files and processes (a
/// plain bot of an arena that is not root runs as the arena's user; a red team's bots did all
/// of the below before these filters):
/// - a box's refusals ([`filter`]: io_uring, whose ring this filter cannot see into and which
///   made a unix socket and set an ACL past the rules below; kernel keyrings, where a bot read
///   the key its user kept there; AIO; `clone3`), user namespaces and the x32 numbers;
/// - [`METADATA_CALLS`] (`EPERM`): it may write no file but its scratch folder's, and changed the
///   league's modes and ACLs (its own files' modes and times neither: `chmod`, `touch -t`);
/// - another process's limits, priority and scheduling (`prlimit64`, `setpriority`,
///   `sched_setscheduler`, `sched_setparam`, `sched_setattr`, `ioprio_set`, `migrate_pages`,
///   `move_pages` on any process but its own, `EPERM`): a bot killed its opponent by setting
///   its `RLIMIT_CPU` to 0, and the arena by its `RLIMIT_FSIZE`, so that no result was written;
/// - a socket of any family but netlink (`EAFNOSUPPORT`): a unix socket named by a file's
///   path, which Landlock does not govern, reached a socket its user listened on (its systemd or
///   D-Bus session would start programs outside its domain), `AF_VSOCK` the machine's host, and
///   an IP one the network (MPTCP past Landlock's TCP rights; UDP, and TCP before ABI 4, which
///   it does not govern); a pair of unix datagram sockets, which sends to any named socket
///   (`EPROTONOSUPPORT`; `socketpair`'s stream pairs, which runtimes use between their own
///   processes, are left to it);
/// - System V IPC ([`SYSV_IPC_CALLS`]) and POSIX message queues ([`POSIX_QUEUE_CALLS`]), `ENOSYS`.
///
/// A `build` may change the mode and times of files (a linker makes its output executable with
/// `chmod`, cargo copies a file's mode and sets times, `make` and `touch` set them): only the
/// owner and extended attributes are refused to it ([`OWNER_AND_ATTRIBUTE_CALLS`]), and a mode
/// with the set-uid or set-gid bit ([`set_id_filters`]). So a plain build may still change the
/// mode of a file its user owns that Landlock keeps it from, but where the arena gives it a mount
/// namespace whose mounts are read-only but its folders (see `super::mounts`).
///
/// A bot (not a build) also gets a box's bot's filters ([`bot_filters`]: its timers, locks, file
/// notices and socket filters), and [`uncounted_memory_filters`], as a box without a memory cgroup
/// does: no cgroup ever holds a plain bot, whose memory the monitor counts in its processes'
/// resident sets only (see [`plain_bot_memory_filters`]). Both end with [`last_filters`]
/// ([`seccomp_lock`] last).
pub(super) fn plain_filters(build: bool) -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<[Vec<BpfProgram>; 2]> = std::sync::OnceLock::new();
    FILTERS.get_or_init(|| {
        [false, true].map(|build| {
            let own: Vec<BpfProgram> = if build {
                let owner = plain_filters_of(&[OWNER_AND_ATTRIBUTE_CALLS]).into_iter().chain(set_id_filters());
                owner.chain(plain_build_memory_filter()).collect()
            } else {
                let own = plain_filters_of(&METADATA_CALLS).into_iter().chain(bot_filters());
                own.chain(plain_bot_memory_filters()).collect()
            };
            own.into_iter().chain(last_filters(build, true, true)).collect()
        })
    })[usize::from(build)]
    .clone()
}

/// The memory filters of a plain bot, confined by Landlock or not: [`uncounted_memory_filters`],
/// as a box's without a memory cgroup. A plain bot has no cgroup, and the monitor counts the
/// resident sets of its processes: before these, a plain bot held 192 MiB under a limit of 64 in
/// `memfd_create` files filled with `fallocate` (each under its file size limit), in
/// `memfd_secret` files, in shared anonymous mappings its children let go of, and in pipes
/// (`vmsplice`), and played on (`tests/zoo.rs`); and about 1 GiB in pipes holding the pages of
/// files it wrote in its scratch folder and deleted (`splice`). A build is refused them too, but
/// SysV `shmget` (a plain one all System V IPC, see [`system_v_filter`]) and `MADV_PAGEOUT`, and
/// may raise its sockets' send buffers (see [`plain_build_memory_filter`]).
fn plain_bot_memory_filters() -> Vec<BpfProgram> {
    uncounted_memory_filters()
}

/// The rules that match an `mmap` of shared anonymous memory (`MAP_SHARED` or
/// `MAP_SHARED_VALIDATE` with `MAP_ANONYMOUS`), which no process's resident set shows once the
/// process that wrote it is gone.
fn shared_anonymous_mmap_rules() -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
    [libc::MAP_SHARED, libc::MAP_SHARED_VALIDATE]
        .iter()
        .map(|&sharing| {
            let value = (sharing | libc::MAP_ANONYMOUS) as u64;
            let masked = SeccompCmpOp::MaskedEq(MAP_SHARING_AND_ANONYMOUS);
            SeccompCondition::new(3, SeccompCmpArgLen::Dword, masked, value).and_then(|c| SeccompRule::new(vec![c]))
        })
        .collect()
}

/// The memory filters of a build whose memory the arena sums (a plain build, confined by Landlock
/// or not, or a box's without a memory cgroup): `memfd_create`, `memfd_secret` and `vmsplice` fail
/// with `ENOSYS`, as on a kernel without them, and a shared anonymous `mmap` with `ENOMEM`, as a
/// bot's. Their memory is in no process's resident or proportional set: a red team's build held
/// 6,144 MiB in `memfd_create` files filled with `fallocate`, never mapped, under a limit of
/// 4,096; and 3 processes each holding a shared anonymous mapping of 200 MiB that a child of it
/// wrote and left (the pages stay in the mapping, mapped by no one) held 600 MiB under a
/// `build_memory_mb` of 256, counted nowhere. Shared memory then lives in files (mapped, their
/// pages count in the proportional sets of the processes that map them); `/dev/zero` it may read
/// but not write (see `super::confine`; without Landlock, and in a box, it is `/dev/full`), which,
/// mapped shared, is the same memory. And its sockets' send buffers cannot be raised
/// ([`send_buffer_lock`]): what its sockets hold is counted with its memory; nor may it make a
/// netlink socket ([`netlink_lock`]), whose answers no meter counts, nor resize a pipe
/// ([`pipe_size_lock`]; each pipe counts its default buffer with its memory), nor queue events of
/// inotify or fanotify ([`notification_lock`]), nor take locks that outlive its descriptors
/// ([`open_file_lock_lock`]), nor send descriptors away over a unix socket, where no walk of its
/// descriptors sees them ([`fd_passing_lock`]: `sendmsg` and `sendmmsg`), nor make Landlock
/// rulesets and domains ([`landlock_lock`]); nor may its
/// processes hide what they hold from the arena ([`dumpable_lock`]), nor push it out to swap
/// (`madvise`'s `MADV_PAGEOUT` fails with `EINVAL`, `process_madvise` with `ENOSYS`, as a bot's:
/// a swapped page is in no proportional set, and the swap the arena counts, `VmSwap`, is read
/// only near the limit). Nor may it make POSIX timers (`timer_create` fails with `ENOSYS`, as in a
/// bot's box, see [`bot_filters`]): each is kernel memory no process's set shows, up to its user's
/// `RLIMIT_SIGPENDING` (which a plain process shares with every process of its user, so no smaller
/// limit of its own would do): a red team's plain build made 96,367 and held 36 MiB more of the
/// machine's unreclaimable slab so under a `build_memory_mb` of 64, and built. Coreutils' `timeout`
/// then arms `alarm` instead, as on a kernel without them; no compiler or build tool was seen to
/// make one (`strace -f` of `make -j4` of a C++ project, `cc`, `cargo build --offline`, `python3 -m
/// py_compile`).
fn plain_build_memory_filter() -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<Vec<BpfProgram>> = std::sync::OnceLock::new();
    FILTERS
        .get_or_init(|| {
            let calls = [
                libc::SYS_memfd_create,
                libc::SYS_memfd_secret,
                libc::SYS_vmsplice,
                libc::SYS_process_madvise,
                libc::SYS_timer_create,
            ];
            let absent = compile(calls.iter().map(|&c| (c, Vec::new())).collect(), libc::ENOSYS);
            let shared_anonymous = shared_anonymous_mmap_rules();
            let shared_anonymous = shared_anonymous
                .map_err(|e| tracing::error!("the builds' shared memory filter does not compile ({e})"))
                .ok()
                .and_then(|rules| compile(vec![(libc::SYS_mmap, rules)], libc::ENOMEM));
            // (Nor may it push its pages out to swap, where no proportional set shows them.)
            let page_out =
                SeccompCondition::new(2, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::MADV_PAGEOUT as u64)
                    .and_then(|c| SeccompRule::new(vec![c]))
                    .map_err(|e| tracing::error!("the builds' madvise filter does not compile ({e})"))
                    .ok()
                    .and_then(|rule| compile(vec![(libc::SYS_madvise, vec![rule])], libc::EINVAL));
            let absent = absent
                .into_iter()
                .chain(shared_anonymous)
                .chain(page_out)
                .chain(netlink_lock())
                .chain(pipe_size_lock())
                .chain(splice_lock())
                .chain(notification_lock())
                .chain(open_file_lock_lock())
                .chain(fd_passing_lock());
            absent.chain(send_buffer_lock()).chain(dumpable_lock()).chain(landlock_lock()).collect()
        })
        .clone()
}

/// What a build's box whose memory no cgroup limits refuses besides [`plain_build_memory_filter`]
/// (a plain build is refused System V IPC whole, see [`system_v_filter`]; a box has an IPC
/// namespace of its own): `shmget` fails with `ENOSYS`, as a bot's box's (a build held 256 MiB
/// in System V segments of 32 MiB, each written through a window and detached, under a
/// `build_memory_mb` of 64: no process's set shows a detached segment).
fn box_build_memory_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| compile(vec![(libc::SYS_shmget, Vec::new())], libc::ENOSYS)).clone()
}

/// A netlink socket fails with `EAFNOSUPPORT` (as an IP one does a plain build), for a build
/// whose memory is summed: what a netlink socket holds (a dump the kernel answered and no one
/// read) is in no process's set, nor do the socket meters see it, and a red team's 40 processes
/// with 1,000 route sockets each, each asked for a dump never read, held 1.75 GiB under a
/// `build_memory_mb` of 64. No compiler needs one (`getaddrinfo` asks the route family which
/// addresses the machine has, and does without). A bot, and a build whose cgroup holds its
/// memory, keep the route family. `None` where it does not compile (said).
fn netlink_lock() -> Option<BpfProgram> {
    let rule = on_arg0(libc::AF_NETLINK as u64)
        .map_err(|e| tracing::error!("the builds' netlink filter does not compile ({e}): their sockets may hold more"))
        .ok()?;
    compile(vec![(libc::SYS_socket, vec![rule])], libc::EAFNOSUPPORT)
}

/// `sendmsg` and `sendmmsg` fail with `ENOSYS` (as on a kernel without them), for a process whose
/// memory is summed (a build's, plain or in a box without a memory cgroup, and a bot's no memory
/// cgroup holds, see [`uncounted_memory_filters`]): through them a process sends descriptors over
/// a unix socket (`SCM_RIGHTS`), into the socket's own queue, and closes them; they are then in
/// flight, in no process's descriptor table, so no walk of its descriptors sees what they hold,
/// and seccomp cannot look inside the message to tell descriptors from data. A plain build made
/// 1,000 epolls watching the same 1,000 eventfds each, sent each away over a socket pair it kept
/// and closed it: 1,000,000 watches, the machine's unreclaimable slab 197 MiB higher while it held
/// them 30 s (its own 1,013 descriptors counted some 2 MiB), and it built under a `build_memory_mb`
/// of 64 (this 6.18 kernel); the user's `max_user_watches` allows about 1 GiB so. A socket sent
/// away keeps its queued data: 300 socket pairs filled (133 MiB) and both ends sent so held 140
/// MiB, in a process of 11 descriptors. (The kernel limits a user's descriptors in flight to its
/// `RLIMIT_NOFILE`, not what each holds.) Refusing unix sockets instead broke honest programs:
/// Rust's `Command::spawn` makes a `SOCK_SEQPACKET` pair for each child (`cargo build` could run
/// no `rustc`), Java's file channels a pair at start (`javac` failed), Python's `asyncio` its
/// self-pipe, Node's `child_process` its children's pipes. Nothing honest was seen to send with
/// these calls (`strace -f -e trace=socket,socketpair,sendmsg,sendmmsg,connect` of `make -j4` of a
/// C++ project, `cc`, `g++ -pipe`, `cargo build --offline` of the starter kit's Rust bot, `python3
/// -m py_compile`, `javac`, and of duels of the sample bots and the starter kits' C++ and Python
/// bots: unix socket pairs, glibc's look for `nscd`, no `sendmsg`; their data goes by `write`,
/// `writev` and `send`, which is `sendto`), and `cargo build`, `javac`, Python's `asyncio` and
/// `multiprocessing` (a pool, a pipe), `getpwnam`, `getaddrinfo` and Node's `child_process` all
/// work with them refused. A memory cgroup charges what is in flight (the epolls above were
/// charged 204 MiB to a cgroup of 512 MiB, the sockets 140 MiB to one of 1 GiB, and either ended
/// by the OOM killer of one of 64; cgroup v1 memory): a process whose cgroup holds its memory keeps
/// them. `None` where it does not compile (said).
fn fd_passing_lock() -> Option<BpfProgram> {
    let calls = [libc::SYS_sendmsg, libc::SYS_sendmmsg];
    compile(calls.iter().map(|&c| (c, Vec::new())).collect(), libc::ENOSYS)
}

/// Resizing a pipe (`fcntl`'s `F_SETPIPE_SZ`) fails with `EPERM` (as past the machine's
/// `pipe-max-size` for a user without the capability), for a build or bot whose memory is summed
/// (see [`uncounted_memory_filters`]): what
/// a pipe holds is in no process's set (100 processes with 500 pipes each held 447 MiB so under a
/// `build_memory_mb` of 64). A pipe keeps its default buffer (16 pages, 64 KiB), which the
/// build's memory counts for each pipe its processes hold (see `super::sockets`).
/// `None` where it does not compile (said).
fn pipe_size_lock() -> Option<BpfProgram> {
    let rule = on_arg1(libc::F_SETPIPE_SZ as u64)
        .map_err(|e| tracing::error!("the builds' fcntl filter does not compile ({e}): their pipes may hold more"))
        .ok()?;
    compile(vec![(libc::SYS_fcntl, vec![rule])], libc::EPERM)
}

/// `splice`, `tee` and `sendfile` fail with `EINVAL`, for a build whose memory is summed: each
/// moves pages into a pipe by reference, not by copy, and a file's page in a pipe holds its whole
/// folio, which a file system with large folios (ext4 since Linux 6.16, XFS, tmpfs) makes up to
/// 2 MiB, after the file is deleted. A pipe counts at its default buffer, 16 pages (see
/// `super::sockets`): 32 pipes each given 16 pages of a 1 GiB file, one page of every 2 MiB, by
/// `splice` (or `sendfile`, which splices into a pipe the same way), held 1,021 to 1,122 MiB
/// after the file was deleted on this arena's 6.18 kernel, counted at 2 MiB; a copy (`read` then
/// `write`) holds only its own pages. `tee` only duplicates what a pipe holds, but with `splice`
/// refused it has no honest use either. `EINVAL` and not `ENOSYS`: it is what the kernel answers
/// for descriptors that cannot be spliced (a socket or file without the operation), which every
/// user of these calls must handle already by copying instead: Rust's `std::io::copy` and Python's
/// `shutil.copyfile` fall back to `read` and `write` on it (on `ENOSYS` too). No compiler or build
/// tool was seen to use them (`strace` of `make -j4` of a C++ project, `cc`, `cargo build`,
/// `python3 -m py_compile`, `cp`: `cp` uses `copy_file_range`, between two files, which no pipe can
/// be), nor an honest bot (`strace` of a duel of each: the sample bots in Rust and C++, the starter
/// kits' Python and C++ greedy, a Java bot); Java's `Files.copy` and `FileChannel.transferTo`
/// (OpenJDK 17) use `sendfile` between two files, and copy instead on `EINVAL`: a plain Java bot's
/// copies came out whole with these refused, as a Python bot's `shutil.copyfile`'s did. A bot whose
/// memory no cgroup holds is refused them too (see [`uncounted_memory_filters`]): a plain one held
/// about 1 GiB so under a limit of 64. `None` where it does not compile (said).
fn splice_lock() -> Option<BpfProgram> {
    // (`sendfile` is the 64-bit call on both architectures the filter compiles for.)
    let calls = [libc::SYS_splice, libc::SYS_tee, libc::SYS_sendfile];
    compile(calls.iter().map(|&c| (c, Vec::new())).collect(), libc::EINVAL)
}

/// `inotify_init`, `inotify_init1` and `fanotify_init` fail with `ENOSYS` (as on a kernel without
/// them, and as in a bot's box, see [`bot_filters`]), for a build whose memory is summed: the
/// events an instance queues, each with the name of the file it is about, are kernel memory no
/// process's set shows, up to the machine's `max_queued_events` (16,384) for each of the user's
/// `max_user_instances` (128): a red team's build held 1.04 GiB so (128 instances, 16,384 events
/// each of a name of 250 bytes) under a `build_memory_mb` of 64, plain and in a box. No compiler or
/// build tool was seen to use them (`strace` of `make -j4` of a C++ project, `cc`, `cargo build`,
/// `python3 -m py_compile`, `javac`); a watcher that wants them (`cargo watch`) has no place in a
/// build, and those that do fall back to polling where the kernel has none. `None` where it does
/// not compile (said).
fn notification_lock() -> Option<BpfProgram> {
    let mut calls = vec![libc::SYS_inotify_init1, libc::SYS_fanotify_init];
    #[cfg(target_arch = "x86_64")]
    calls.push(libc::SYS_inotify_init);
    compile(calls.iter().map(|&c| (c, Vec::new())).collect(), libc::ENOSYS)
}

/// Taking an open file description lock (`fcntl`'s `F_OFD_SETLK` and `F_OFD_SETLKW`) fails with
/// `EINVAL` (as on a kernel before 3.15, where what uses them takes a POSIX record lock instead),
/// for a build whose memory is summed: the arena counts the locks its descriptors hold (see
/// `super::sockets::LOCK`), but such a lock belongs to the open file, which outlives every
/// descriptor of it in a mapping of the file (or in flight in a unix socket): 1,000 such locks on a
/// file mapped and its descriptor closed were still held, and no descriptor showed them. POSIX
/// locks end with the first descriptor of their file their process closes; `flock`'s are one a
/// file. No build tool was seen to use them (`strace` of `make -j4`, `cc`, `cargo build`,
/// `python3 -m py_compile`, `javac`: cargo takes `F_SETLK` and `flock` locks). `None` where it does
/// not compile (said).
fn open_file_lock_lock() -> Option<BpfProgram> {
    let rules: Result<Vec<SeccompRule>, _> =
        [libc::F_OFD_SETLK, libc::F_OFD_SETLKW].iter().map(|&cmd| on_arg1(cmd as u64)).collect();
    let rules = rules
        .map_err(|e| tracing::error!("the builds' lock filter does not compile ({e}): their locks may hold more"))
        .ok()?;
    compile(vec![(libc::SYS_fcntl, rules)], libc::EINVAL)
}

/// Raising a socket's send buffer (`setsockopt`'s `SO_SNDBUF`) succeeds without doing anything,
/// as in a bot's box (see [`uncounted_memory_filters`]), for a build whose memory is summed: a
/// socket closed with its data still queued, which the socket meters count at the most one can
/// hold (see `super::sockets`), holds little. `None` where it does not compile (said).
fn send_buffer_lock() -> Option<BpfProgram> {
    let send_buffer = [(1, libc::SOL_SOCKET), (2, libc::SO_SNDBUF)]
        .into_iter()
        .map(|(arg, value)| SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value as u64))
        .collect::<Result<Vec<_>, _>>()
        .and_then(SeccompRule::new)
        .map_err(|e| {
            tracing::error!("the builds' socket filter does not compile ({e}): their closed sockets may hold more")
        })
        .ok()?;
    // (`Errno(0)`: the call returns 0, done, without reaching the kernel.)
    compile(vec![(libc::SYS_setsockopt, vec![send_buffer])], 0)
}

/// Making a process not dumpable (`prctl`'s `PR_SET_DUMPABLE`) succeeds without doing anything,
/// for a build whose memory is summed: a process not dumpable hides its `/proc/PID/fd` (and its
/// `smaps_rollup`) from an arena that is not root, which then could not count the sockets it
/// holds (a plain build held 133 MiB in 300 socket pairs so under a `build_memory_mb` of 64).
/// `None` where it does not compile (said).
fn dumpable_lock() -> Option<BpfProgram> {
    let rule = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::PR_SET_DUMPABLE as u64)
        .and_then(|c| SeccompRule::new(vec![c]))
        .map_err(|e| tracing::error!("the builds' prctl filter does not compile ({e}): they may hide their sockets"))
        .ok()?;
    // (`Errno(0)`: the call returns 0, done, without reaching the kernel.)
    compile(vec![(libc::SYS_prctl, vec![rule])], 0)
}

/// `landlock_create_ruleset`, `landlock_add_rule` and `landlock_restrict_self` fail with `ENOSYS`
/// (as on a kernel without Landlock, which every user of it must handle: it is off in many
/// kernels' boot options), for a process whose memory is summed (a build's, plain or in a box
/// without a memory cgroup, and a bot's no memory cgroup holds, see [`uncounted_memory_filters`]):
/// a ruleset and its rules are kernel memory in no process's set (one of 65,536 port rules is
/// some 4 MiB of unreclaimable slab, behind one descriptor), and a domain outlives its ruleset's
/// descriptor, tied to each thread that entered it, in no table: a red team's plain build of 100
/// processes of 20 threads, each thread restricting itself with a large ruleset and closing the
/// descriptor, held 638 MiB more of the machine's unreclaimable slab under a `build_memory_mb` of
/// 64 and built (612 MiB plain without Landlock, 634 in a box of an arena run as nobody); a plain
/// bot held 498 MiB so and won. The arena's own Landlock (a plain process's, see `super::confine`)
/// is made before the fork and entered before these filters are applied (see
/// `child::enter_plain`), and a box has none. No compiler or build tool was seen to use them
/// (`strace -f` of `make -j4` of a C++ project, `cc`, `cargo build --offline`, `python3 -m
/// py_compile`). `None` where it does not compile (said).
fn landlock_lock() -> Option<BpfProgram> {
    let calls = [libc::SYS_landlock_create_ruleset, libc::SYS_landlock_add_rule, libc::SYS_landlock_restrict_self];
    compile(calls.iter().map(|&c| (c, Vec::new())).collect(), libc::ENOSYS)
}

/// The set-uid and set-gid bits of a mode (`S_ISUID`, `S_ISGID`).
const SET_ID_BITS: [u64; 2] = [0o4000, 0o2000];

/// Refuses to a build, boxed or plain (`EPERM`), a mode with the set-uid bit in `chmod`,
/// `fchmod`, `fchmodat` and `fchmodat2`, and one with the set-uid or set-gid bit in the mode a
/// file is made with (`open`, `openat` and `creat`, `mknod` and `mknodat`); `openat2`, whose mode is in memory the filter
/// cannot read, fails with `ENOSYS` (as on a kernel before 5.6: what calls it falls back to
/// `openat`). A build of an arena that is not root runs as the arena's user: a red team's
/// `cp /bin/bash ./sh && chmod 4755 ./sh` left a shell set-uid to that user in the student's
/// folder, which any local user ran (`sh -p`) to read the arena's private files and write the
/// league's results. No compiler or build tool makes a set-uid program. (`mkdir` keeps no such
/// bit: a folder's set-gid bit, which its new folders inherit, is harmless.) What gets past this
/// (a mode set by a means the filter does not see) the arena takes back after the build, failing
/// it (see `tournament::build`). Empty on an architecture the filter compiler does not know.
fn set_id_filters() -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<Vec<BpfProgram>> = std::sync::OnceLock::new();
    FILTERS
        .get_or_init(|| {
            // (The mode a file is made with may hold neither bit; a mode changed, not the
            // set-uid one: the calls that change a mode cannot tell a file from a folder, and a
            // folder's set-gid bit, which tools set again (`chmod -R u+w`, `cp -a`, Python's
            // `copytree` of a set-gid tree), is harmless; a file's is taken back after.)
            let (made, changed): (&[u64], &[u64]) = (&SET_ID_BITS, &SET_ID_BITS[..1]);
            // (`open` and `openat` read their mode only with `O_CREAT` or `O_TMPFILE` in their
            // flags, the argument before it: without either, whatever is there is no mode, and
            // is not looked at.)
            let mut calls: Vec<(libc::c_long, u8, &[u64], bool)> = vec![
                (libc::SYS_fchmod, 1, changed, false),
                (libc::SYS_fchmodat, 2, changed, false),
                (SYS_FCHMODAT2, 2, changed, false),
                (libc::SYS_openat, 3, made, true),
                (libc::SYS_mknodat, 2, made, false),
            ];
            #[cfg(target_arch = "x86_64")]
            calls.extend([
                (libc::SYS_chmod, 1, changed, false),
                (libc::SYS_open, 2, made, true),
                (libc::SYS_creat, 1, made, false),
                (libc::SYS_mknod, 1, made, false),
            ]);
            let masked = |arg: u8, bits: u64| {
                SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(bits), bits)
            };
            let making = [libc::O_CREAT as u64, libc::O_TMPFILE as u64];
            let rules: Result<Vec<(libc::c_long, Vec<SeccompRule>)>, seccompiler::BackendError> = calls
                .iter()
                .map(|&(call, arg, bits, flagged)| {
                    let mut rules = Vec::new();
                    for &bit in bits {
                        if flagged {
                            for &flag in &making {
                                rules.push(SeccompRule::new(vec![masked(arg - 1, flag)?, masked(arg, bit)?])?);
                            }
                        } else {
                            rules.push(SeccompRule::new(vec![masked(arg, bit)?])?);
                        }
                    }
                    Ok((call, rules))
                })
                .collect();
            let rules = rules
                .map_err(|e| {
                    tracing::error!(
                        "the builds' set-uid filter does not compile ({e}): the arena takes the bits back after"
                    )
                })
                .ok();
            let openat2 = compile(vec![(libc::SYS_openat2, Vec::new())], libc::ENOSYS);
            rules.and_then(|rules| compile(rules, libc::EPERM)).into_iter().chain(openat2).collect()
        })
        .clone()
}

/// The calls of [`METADATA_CALLS`] a plain build has no use for either: those that change a
/// file's owner or extended attributes.
const OWNER_AND_ATTRIBUTE_CALLS: &[libc::c_long] = &[
    libc::SYS_fchown,
    libc::SYS_fchownat,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    SYS_SETXATTRAT,
    SYS_REMOVEXATTRAT,
    SYS_FILE_SETATTR,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lchown,
];

/// [`plain_filters`] with the calls of `metadata` refused.
fn plain_filters_of(metadata: &[&[libc::c_long]]) -> Vec<BpfProgram> {
    let metadata =
        compile(metadata.iter().flat_map(|calls| calls.iter()).map(|&c| (c, Vec::new())).collect(), libc::EPERM);
    let common = filter().into_iter().chain(x32_filter()).chain(user_namespace_filter());
    let sysv = system_v_filter();
    common.chain(metadata).chain(other_processes_filter()).chain(plain_socket_filters()).chain(sysv).collect()
}

/// The filters of a plain bot or build that Landlock does not confine (the kernel has none, or
/// `ARENA_PLAIN_WITHOUT_LANDLOCK` is set): a box's refusals ([`filter`]: io_uring, AIO, kernel
/// keyrings, `sched_setaffinity`, and `clone3`, which would pass the user namespace filter), as
/// a plain process Landlock confines gets them; System V IPC ([`system_v_filter`]), which no limit
/// of its user's holds (its segments outlive it, uncounted), a bot's own and memory filters
/// ([`bot_filters`], [`plain_bot_memory_filters`]), or a build's, and a new user namespace
/// ([`user_namespace_filter`], with the x32 numbers, which would pass it): in one of its own, a
/// red team's plain bot without Landlock mounted a tmpfs, and held 1,024 MiB in it under a limit
/// of 64. And a plain process's sockets ([`plain_socket_filters`]: no socket but a netlink one of
/// the route family, unix stream pairs alone): without them a red team's plain bot and build
/// without Landlock each held 223 MiB in the queues of unix datagram sockets it had bound, sent
/// to by processes that then ended (each queue counted as one socket's worth, 0.55 MiB, about
/// 55 MiB in all), under a limit of 64, and a datagram pair or named socket reaches its user's
/// sessions. (The keeper's own namespaces, `super::mounts`, are made before.) Before 2026-12-07 it
/// got `clone3`'s refusal alone of [`filter`]'s (they came in one at a time, for what a red team
/// had done; nothing here needs Landlock for them to hold): a build without Landlock went around
/// [`splice_lock`] with io_uring's `IORING_OP_SPLICE`, and held 518 MiB of a deleted file's pages
/// in pipes under a `build_memory_mb` of 64.
pub(super) fn unconfined_plain_filters(build: bool) -> Vec<BpfProgram> {
    let memory = match build {
        true => plain_build_memory_filter(),
        false => bot_filters().into_iter().chain(plain_bot_memory_filters()).collect(),
    };
    let namespaces = filter().into_iter().chain(x32_filter()).chain(user_namespace_filter());
    let sockets = plain_socket_filters();
    namespaces.chain(system_v_filter()).chain(sockets).chain(memory).chain(last_filters(build, true, true)).collect()
}

/// Refuses [`SYSV_IPC_CALLS`] and [`POSIX_QUEUE_CALLS`] (`ENOSYS`). `None` on an architecture
/// the filter compiler does not know.
fn system_v_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let calls = SYSV_IPC_CALLS.iter().chain(POSIX_QUEUE_CALLS);
            compile(calls.map(|&c| (c, Vec::new())).collect(), libc::ENOSYS)
        })
        .clone()
}

/// POSIX message queues, refused to a plain bot and build (`ENOSYS`, as on a kernel without
/// them), which share the machine's (a box has its own IPC namespace): Landlock does not govern
/// them (`mq_open` answered `EACCES` under it, having made the queue all the same), a queue
/// outlives its maker, and a red team's plain bot left 256, the machine's `queues_max`, so that
/// no other user could make one (a named queue is also a bit another bot reads).
const POSIX_QUEUE_CALLS: &[libc::c_long] = &[
    libc::SYS_mq_open,
    libc::SYS_mq_unlink,
    libc::SYS_mq_timedsend,
    libc::SYS_mq_timedreceive,
    libc::SYS_mq_notify,
    libc::SYS_mq_getsetattr,
];

/// System V IPC, refused to a plain bot and build (`ENOSYS`, as on a kernel without it), which
/// share the machine's IPC namespace (a box has one of its own): Landlock does not govern it, so
/// a plain bot read and wrote the shared memory and message queues of its user (root's, under
/// `unshare -r` by the machine's root), and its detached shared memory segments held 16 x 32
/// MiB under a limit of 64 (no process's memory shows them) and outlived the match. Each call,
/// not only those that make a segment, queue or set: an existing one is reached by its id.
const SYSV_IPC_CALLS: &[libc::c_long] = &[
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmdt,
    libc::SYS_shmctl,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semtimedop,
    libc::SYS_semctl,
];

/// A rule that matches a call whose argument `arg` (32 bits) is not `value`.
fn arg_is_not(arg: u8, value: u64) -> Result<SeccompRule, seccompiler::BackendError> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, value).and_then(|c| SeccompRule::new(vec![c]))
}

/// Refuses (`EPERM`) the calls of [`plain_filters`] that change another process than the
/// caller's: a first argument (a pid) other than 0, and for `setpriority` and `ioprio_set`
/// another kind of target than one process, or another process than its own.
fn other_processes_filter() -> Option<BpfProgram> {
    let by_pid = [
        libc::SYS_prlimit64,
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setparam,
        libc::SYS_sched_setattr,
        libc::SYS_migrate_pages,
        libc::SYS_move_pages,
    ];
    let rules: Result<Vec<(libc::c_long, Vec<SeccompRule>)>, seccompiler::BackendError> = (|| {
        let mut rules: Vec<(libc::c_long, Vec<SeccompRule>)> =
            by_pid.iter().map(|&call| Ok((call, vec![arg_is_not(0, 0)?]))).collect::<Result<_, _>>()?;
        rules.push((libc::SYS_setpriority, vec![arg_is_not(0, PRIO_PROCESS)?, arg_is_not(1, 0)?]));
        rules.push((libc::SYS_ioprio_set, vec![arg_is_not(0, IOPRIO_WHO_PROCESS)?, arg_is_not(1, 0)?]));
        Ok(rules)
    })();
    let rules = rules
        .map_err(|e| tracing::error!("the plain bots' process filter does not compile ({e}): they may reach others"))
        .ok()?;
    compile(rules, libc::EPERM)
}

/// The socket filters of [`plain_filters`]: no socket but a netlink one of the route family
/// (`getaddrinfo`'s; `EAFNOSUPPORT`, other netlink families `EPROTONOSUPPORT`): an IP socket reaches the network past Landlock, which governs neither UDP,
/// ICMP, MPTCP nor SCTP, nor TCP before ABI 4 (a bot could have a machine elsewhere think for
/// it; one connected to a TCP listener of its user through MPTCP), and a unix socket its user's
/// sessions; of `socketpair`'s, unix stream pairs only (a datagram pair sends to any named
/// socket; `EPROTONOSUPPORT`).
fn plain_socket_filters() -> Vec<BpfProgram> {
    let family = arg_is_not(0, libc::AF_NETLINK as u64);
    let pairs = arg_is_not(0, libc::AF_UNIX as u64);
    // (The type's low bits; `SOCK_CLOEXEC` and `SOCK_NONBLOCK` above them.)
    let datagram =
        SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(0xf), libc::SOCK_DGRAM as u64)
            .and_then(|c| SeccompRule::new(vec![c]));
    // Of netlink, the route family alone (`getaddrinfo`'s): the others read the machine's
    // sockets (`sock_diag`), its audit log, its devices' events.
    let other_netlink = [
        SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::AF_NETLINK as u64),
        SeccompCondition::new(2, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, libc::NETLINK_ROUTE as u64),
    ];
    let other_netlink = other_netlink.into_iter().collect::<Result<Vec<_>, _>>().and_then(SeccompRule::new);
    let (Ok(family), Ok(pairs), Ok(datagram), Ok(other_netlink)) = (family, pairs, datagram, other_netlink) else {
        tracing::error!("the plain bots' socket filter does not compile: they may make any socket");
        return Vec::new();
    };
    [
        compile(vec![(libc::SYS_socket, vec![family]), (libc::SYS_socketpair, vec![pairs])], libc::EAFNOSUPPORT),
        compile(
            vec![(libc::SYS_socket, vec![other_netlink]), (libc::SYS_socketpair, vec![datagram])],
            libc::EPROTONOSUPPORT,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The socket families a box may make sockets of: unix (pipes between a bot's own processes,
/// Python's asyncio), IPv4 and IPv6 (a box's network has no way out: its loopback is down), and
/// netlink (what `getaddrinfo` and `if_nametoindex` ask).
const SOCKET_FAMILIES: [libc::c_int; 4] = [libc::AF_UNIX, libc::AF_INET, libc::AF_INET6, libc::AF_NETLINK];

/// Refuses a socket of any other family (`socket` and `socketpair`, `EAFNOSUPPORT`, as on a
/// kernel without it): `AF_VSOCK` belongs to no network namespace, and a box reached the host's
/// vsock from it; the others (`AF_ALG`, `AF_PACKET`, Bluetooth, …) reach kernel code no bot needs.
/// `None` on an architecture the filter compiler does not know.
fn socket_family_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let other: Result<Vec<SeccompCondition>, _> = SOCKET_FAMILIES
                .iter()
                .map(|&family| SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64))
                .collect();
            let rule = other.and_then(SeccompRule::new);
            let rule = rule
                .map_err(|e| {
                    tracing::error!("the socket family filter does not compile ({e}): boxes may make any socket")
                })
                .ok()?;
            compile(
                vec![(libc::SYS_socket, vec![rule.clone()]), (libc::SYS_socketpair, vec![rule])],
                libc::EAFNOSUPPORT,
            )
        })
        .clone()
}

/// Refuses a new user namespace (`EPERM`): `unshare` and `clone` with `CLONE_NEWUSER` in their
/// flags, the first argument of both on x86_64 and aarch64 (aarch64's `clone` swaps only its
/// last two). `clone3` is refused whole by [`filter`]. `None` on an architecture the filter
/// compiler does not know.
fn user_namespace_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let newuser = libc::CLONE_NEWUSER as u64;
            let rule = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(newuser), newuser)
                .and_then(|c| SeccompRule::new(vec![c]));
            let rule = rule
                .map_err(|e| {
                    tracing::error!("the user namespace filter does not compile ({e}): boxes may make user namespaces")
                })
                .ok()?;
            compile(vec![(libc::SYS_unshare, vec![rule.clone()]), (libc::SYS_clone, vec![rule])], libc::EPERM)
        })
        .clone()
}

/// `mmap`'s sharing bits (`MAP_SHARED`, `MAP_PRIVATE`; both: `MAP_SHARED_VALIDATE`) and
/// `MAP_ANONYMOUS`: a shared anonymous mapping has `MAP_SHARED` or `MAP_SHARED_VALIDATE` there.
const MAP_SHARING_AND_ANONYMOUS: u64 = (libc::MAP_SHARED_VALIDATE | libc::MAP_ANONYMOUS) as u64;

/// What a bot's box refuses where no memory cgroup limits it (an unprivileged arena): the shared
/// memory no process's resident set shows, which the monitor's count (the resident memory of the
/// box's processes) cannot see. A bot held 1 GiB in `memfd_create` files (filled with `fallocate`,
/// held by descriptors only, 90 ms of CPU) in a box of 64 MiB, and the same in detached SysV
/// segments; a machine's memory that way, the kernel's OOM killer then picks a process by its
/// resident memory, its opponent's. `memfd_create`, `memfd_secret` (its pages stay in the file when
/// a window of it is unmapped: 256 MiB held so, in a resident set of 13) and `shmget` fail with
/// `ENOSYS`, as on a kernel without them; a shared anonymous `mmap` with `ENOMEM` (its pages, let
/// go of with `MADV_DONTNEED`, stay in it: 16 processes held 768 MiB so). Shared memory then lives
/// in files of the box's scratch space (`/dev/shm`, what Python's `multiprocessing` uses), within
/// its cap. Nor may a bot push its own pages out to swap, where no resident set shows them either
/// (on a machine with swap, a bot held 384 MiB in a box of 64, in children of 32 MiB each paged
/// out): `madvise`'s `MADV_PAGEOUT` fails with `EINVAL` and `process_madvise` with `ENOSYS`, as on
/// kernels before them (5.4, 5.10). Nor may it splice its own pages into a pipe (`vmsplice`,
/// `ENOSYS`): the pipe holds each page's whole folio, a transparent huge page of 2 MiB for 4 KiB
/// spliced, after the bot unmaps it (a bot held 512 MiB in a box of 64 so, 32 MiB a pipe; a pipe
/// written to holds a page a slot, its own size); nor move a file's pages into one by reference
/// (`splice`, `tee` and `sendfile` fail with `EINVAL`, see [`splice_lock`]: a plain bot wrote
/// files of 32 MiB in its scratch folder, on the machine's disk, spliced 4 KiB of each 2 MiB of
/// them into pipes and deleted them, and held about 1 GiB so under a limit of 64, 1,018 MiB
/// freed when it ended; its processes' resident sets showed none of it). (`MADV_COLD` stays: it
/// only marks pages first to go when the machine is short; what the kernel swaps out then, the
/// monitor counts, see `meter::usage`.) The data queued in its sockets the monitor counts too (see
/// `sockets`: a bot held 1,883 MiB in unix socket pairs so), exactly for each socket open, and at
/// the most one can hold for each closed one whose data waits at its peer: so that this is little,
/// raising a socket's send buffer (`setsockopt`'s `SO_SNDBUF`) succeeds without doing anything, as
/// the locks of [`bot_filters`] (at the system's default, 208 KiB, a socket holds about 0.5 MiB at
/// most; raised, 8 MiB and more); sockets themselves stay (Python's `asyncio` needs a socket pair),
/// but of the unix and netlink families only, those the monitor dumps: an IP socket fails with
/// `EAFNOSUPPORT`, as on a kernel without IP (a box's network has no way out anyway; what 14,400
/// UDP sockets held in their options, 1.14 GiB, went unseen); nor may it send descriptors away over
/// a unix socket, where neither its resident set nor its sockets' dump sees what they hold
/// (`sendmsg` and `sendmmsg` fail with `ENOSYS`, see [`fd_passing_lock`]), nor make Landlock
/// rulesets and domains, kernel memory no process's set shows ([`landlock_lock`]: a plain bot
/// held 498 MiB so under a limit of 64), nor POSIX timers (`timer_create`, `ENOSYS`: each is
/// kernel memory up to its user's `RLIMIT_SIGPENDING`, 36 MiB for 96,367 of them, see
/// [`plain_build_memory_filter`]; a bot's box refuses them anyway, see [`bot_filters`]), nor
/// resize a pipe ([`pipe_size_lock`], `EPERM`: its look counts each pipe at its default buffer,
/// see `super::sockets::BotLooks`; 1,024 pipes resized to 1 MiB would hold 1 GiB so). With a
/// memory cgroup
/// that holds all of it (swap counted, or none on the machine) all of it is charged to the box:
/// allowed (descriptors in flight too, see [`fd_passing_lock`]). So is
/// `splice`: the cgroup charges a file's page to the cgroup that first brought it into memory (the
/// box, for the files it writes) and keeps it charged until the page is freed, not when its file is
/// deleted, and a pipe's reference keeps it from being freed: a process of a cgroup of 4 GiB that
/// spliced 16 pages of 2 MiB folios into each of 32 pipes and deleted the file was charged 1,026
/// MiB while it held the pipes and 2 MiB once it closed them; in a cgroup of 64 MiB the same held
/// 60 MiB, the rest reclaimed before it was spliced (this 6.18 kernel, cgroup v1 memory). (Pages of
/// a file someone else brought into memory, a system library the box may read, stay charged to that
/// someone; a pipe keeps them from being reclaimed, but they are a file's that stays, at most its
/// size.)
fn uncounted_memory_filters() -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<Vec<BpfProgram>> = std::sync::OnceLock::new();
    FILTERS
        .get_or_init(|| {
            let shared_anonymous = shared_anonymous_mmap_rules();
            let page_out =
                SeccompCondition::new(2, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::MADV_PAGEOUT as u64)
                    .and_then(|c| SeccompRule::new(vec![c]));
            let send_buffer = [(1, libc::SOL_SOCKET), (2, libc::SO_SNDBUF)]
                .into_iter()
                .map(|(arg, value)| SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value as u64))
                .collect::<Result<Vec<_>, _>>()
                .and_then(SeccompRule::new);
            let (Ok(shared_anonymous), Ok(page_out), Ok(send_buffer)) = (shared_anonymous, page_out, send_buffer)
            else {
                tracing::error!(
                    "the bots' memory filter does not compile: bots of an arena without memory cgroups may hold \
                     shared or swapped memory past their limit"
                );
                return Vec::new();
            };
            let inet: Result<Vec<SeccompRule>, _> =
                [libc::AF_INET, libc::AF_INET6].iter().map(|&family| on_arg0(family as u64)).collect();
            let Ok(inet) = inet else {
                tracing::error!("the bots' socket filter does not compile: their IP sockets' memory goes uncounted");
                return Vec::new();
            };
            let absent = vec![
                (libc::SYS_memfd_create, Vec::new()),
                (libc::SYS_memfd_secret, Vec::new()),
                (libc::SYS_shmget, Vec::new()),
                (libc::SYS_process_madvise, Vec::new()),
                (libc::SYS_vmsplice, Vec::new()),
                // (As a box's bot's, see `bot_filters`; a plain bot's too.)
                (libc::SYS_timer_create, Vec::new()),
            ];
            [
                compile(absent, libc::ENOSYS),
                compile(vec![(libc::SYS_mmap, shared_anonymous)], libc::ENOMEM),
                compile(vec![(libc::SYS_madvise, vec![page_out])], libc::EINVAL),
                // (`Errno(0)`: the call returns 0, done, without reaching the kernel.)
                compile(vec![(libc::SYS_setsockopt, vec![send_buffer])], 0),
                compile(vec![(libc::SYS_socket, inet.clone()), (libc::SYS_socketpair, inet)], libc::EAFNOSUPPORT),
                splice_lock(),
                fd_passing_lock(),
                landlock_lock(),
                pipe_size_lock(),
            ]
            .into_iter()
            .flatten()
            .collect()
        })
        .clone()
}

/// The `fcntl` commands that take, release or wait for a lock on a file (record locks, and the
/// open file description locks), as the 64-bit kernels number them.
const LOCKING_FCNTLS: [libc::c_int; 4] = [libc::F_SETLK, libc::F_SETLKW, libc::F_OFD_SETLK, libc::F_OFD_SETLKW];

/// What a bot's box, and a plain bot (since 2026-12-07: a red team's plain bot, its threads'
/// slack set to 1 ns, had its opponent forfeit on time; its inotify events held 1 GiB of the
/// kernel's memory, its OFD locks and socket filters hundreds of MiB, none of it counted),
/// changes besides [`filter`]'s refusals, so that two boxes cannot signal each
/// other through a file both can read: taking or releasing a lock (`flock`, and `fcntl`'s
/// record and open file description locks) succeeds without doing anything, so no lock is ever
/// held for another box to see (`F_GETLK` then finds none); a refusal broke honest programs
/// (SQLite reads as "database is locked" an `ENOLCK`, Java's `FileChannel.lock` throws). Only
/// the processes of one box lose their locks against each other. inotify and fanotify fail with
/// `ENOSYS`, as on a kernel without them; `fcntl`'s `F_NOTIFY` with `EINVAL`, as on a kernel
/// without dnotify. Setting its timer slack (`prctl`'s `PR_SET_TIMERSLACK`) succeeds without
/// doing anything: a box's slack stays at its 1 ms (`child::TIMER_SLACK_NS`), so that a bot's
/// sleeping threads cannot interrupt its opponent's CPU every few microseconds, each interrupt
/// charged to the opponent. For the same reason the timers the slack does not delay are
/// refused: `timerfd_create` and `timer_create` fail with `ENOSYS` (as on a kernel without
/// them) and `setitimer`'s `ITIMER_REAL` with `EINVAL` (`alarm`, whole seconds, and the CPU-time
/// timers stay): a one-shot timerfd re-armed every 20 us in eight threads had the opponent
/// charged 3.7 times its CPU. Empty on an architecture the filter compiler does not know.
fn bot_filters() -> Vec<BpfProgram> {
    static FILTERS: std::sync::OnceLock<Vec<BpfProgram>> = std::sync::OnceLock::new();
    FILTERS
        .get_or_init(|| {
            let locks: Result<Vec<SeccompRule>, _> = LOCKING_FCNTLS.iter().map(|&cmd| on_arg1(cmd as u64)).collect();
            let dnotify = on_arg1(libc::F_NOTIFY as u64).map(|rule| vec![rule]);
            let timer_slack = on_arg0(libc::PR_SET_TIMERSLACK as u64).map(|rule| vec![rule]);
            let real_timer = on_arg0(libc::ITIMER_REAL as u64).map(|rule| vec![rule]);
            let attach: Result<Vec<SeccompRule>, _> = ATTACHING_OPTIONS
                .iter()
                .map(|&option| {
                    [(1, libc::SOL_SOCKET), (2, option)]
                        .into_iter()
                        .map(|(arg, value)| {
                            SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value as u64)
                        })
                        .collect::<Result<Vec<_>, _>>()
                        .and_then(SeccompRule::new)
                })
                .collect();
            let (Ok(locks), Ok(dnotify), Ok(timer_slack), Ok(real_timer), Ok(attach)) =
                (locks, dnotify, timer_slack, real_timer, attach)
            else {
                tracing::error!(
                    "the bots' system call filter does not compile: bots may signal through file locks, \
                     shorten their timer slack and arm fine timers"
                );
                return Vec::new();
            };
            let mut absent = vec![
                (libc::SYS_inotify_init1, Vec::new()),
                (libc::SYS_fanotify_init, Vec::new()),
                (libc::SYS_timerfd_create, Vec::new()),
                (libc::SYS_timer_create, Vec::new()),
                (libc::SYS_bpf, Vec::new()),
            ];
            #[cfg(target_arch = "x86_64")]
            absent.push((libc::SYS_inotify_init, Vec::new()));
            [
                // (`Errno(0)`: the call returns 0, done, without reaching the kernel.)
                compile(
                    vec![(libc::SYS_flock, Vec::new()), (libc::SYS_fcntl, locks), (libc::SYS_prctl, timer_slack)],
                    0,
                ),
                compile(absent, libc::ENOSYS),
                compile(vec![(libc::SYS_fcntl, dnotify), (libc::SYS_setitimer, real_timer)], libc::EINVAL),
                compile(vec![(libc::SYS_setsockopt, attach)], libc::ENOPROTOOPT),
            ]
            .into_iter()
            .flatten()
            .collect()
        })
        .clone()
}

/// `setsockopt`'s options that load a program into the kernel for a socket (`SO_ATTACH_FILTER`,
/// `SO_ATTACH_BPF`, `SO_ATTACH_REUSEPORT_CBPF`, `SO_ATTACH_REUSEPORT_EBPF`): in a bot's box they
/// fail with `ENOPROTOOPT`, and `bpf` with `ENOSYS`. Each filter takes kernel memory and room in
/// the machine's JIT (`bpf_jit_limit`): 14,400 UDP sockets with a filter each held 1.14 GiB a
/// monitor without a cgroup did not see, and filled the JIT's limit for the whole machine.
const ATTACHING_OPTIONS: [libc::c_int; 4] = [26, 50, 51, 52];

/// A rule that matches a call whose first argument (its 32 bits: a `prctl`'s option) is `value`.
fn on_arg0(value: u64) -> Result<SeccompRule, seccompiler::BackendError> {
    SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value).and_then(|c| SeccompRule::new(vec![c]))
}

/// A rule that matches a call whose second argument (its 32 bits: an `ioctl`'s request, an
/// `fcntl`'s command) is `value`.
fn on_arg1(value: u64) -> Result<SeccompRule, seccompiler::BackendError> {
    SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value).and_then(|c| SeccompRule::new(vec![c]))
}

/// The compiled filter (refused calls fail with `ENOSYS`, as on a kernel without keyrings), or
/// `None` on an architecture the filter compiler does not know.
fn filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| compile(REFUSED.iter().map(|&call| (call, Vec::new())).collect(), libc::ENOSYS)).clone()
}

/// The `ioctl` requests that reserve or zero a file's blocks through `fallocate`
/// (`_IOW('X', n, struct space_resv)`: `FS_IOC_RESVSP`, `FS_IOC_RESVSP64`, `FS_IOC_ZERO_RANGE`,
/// XFS's `ALLOCSP` and `ALLOCSP64`).
const RESERVING_IOCTLS: [u64; 5] = [0x4030_5828, 0x4030_582a, 0x4030_5839, 0x4030_580a, 0x4030_5824];

/// The x32 bit of an x86_64 system call number.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Ends a process that calls through the x32 numbers (x86_64 only: `None` elsewhere). A filter
/// of its own, by hand, since seccompiler matches numbers one by one: load the architecture,
/// leave other architectures to [`filter`], load the number, let -1 through (no call: what
/// tracers and libseccomp leave alone), kill at or above the x32 bit.
fn x32_filter() -> Option<BpfProgram> {
    use seccompiler::sock_filter;
    if !cfg!(target_arch = "x86_64") {
        return None;
    }
    const LOAD_WORD: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
    const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
    // `struct seccomp_data`: the number at 0, the architecture at 4.
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    const AUDIT_ARCH_X86_64: u32 = 62 | 0x8000_0000 | 0x4000_0000;
    let op = |code, k, jt, jf| sock_filter { code, jt, jf, k };
    Some(vec![
        op(LOAD_WORD, ARCH, 0, 0),
        op(JEQ, AUDIT_ARCH_X86_64, 0, 4),
        op(LOAD_WORD, NR, 0, 0),
        op(JEQ, u32::MAX, 2, 0),
        op(JGE, X32_SYSCALL_BIT, 0, 1),
        op(RET, libc::SECCOMP_RET_KILL_PROCESS, 0, 0),
        op(RET, libc::SECCOMP_RET_ALLOW, 0, 0),
    ])
}

/// What a build's box refuses besides [`filter`]'s: `fallocate`, and the `ioctl`s that reach
/// it, fail with `EOPNOTSUPP`, as on a file system without it.
fn build_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let ioctls: Result<Vec<SeccompRule>, _> = RESERVING_IOCTLS.iter().map(|&cmd| on_arg1(cmd)).collect();
            let ioctls =
                ioctls.map_err(|e| tracing::error!("the build's system call filter does not compile ({e})")).ok()?;
            compile(vec![(libc::SYS_fallocate, Vec::new()), (libc::SYS_ioctl, ioctls)], libc::EOPNOTSUPP)
        })
        .clone()
}

fn compile(rules: Vec<(libc::c_long, Vec<SeccompRule>)>, errno: i32) -> Option<BpfProgram> {
    let arch = if cfg!(target_arch = "x86_64") {
        TargetArch::x86_64
    } else if cfg!(target_arch = "aarch64") {
        TargetArch::aarch64
    } else {
        tracing::warn!(
            "no system call filter on this architecture: bots may use kernel keyrings, io_uring, AIO, other CPUs and user namespaces"
        );
        return None;
    };
    let rules = rules.into_iter().collect();
    let refused = SeccompAction::Errno(errno as u32);
    let compiled = SeccompFilter::new(rules, SeccompAction::Allow, refused, arch).and_then(BpfProgram::try_from);
    compiled
        .map_err(|e| {
            tracing::error!(
                "the system call filter does not compile ({e}): bots may use kernel keyrings, io_uring, AIO, other CPUs and user namespaces"
            )
        })
        .ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filter_compiles_here() {
        assert!(super::filter().is_some_and(|f| !f.is_empty()));
        assert!(super::build_filter().is_some_and(|f| !f.is_empty()));
        assert!(super::user_namespace_filter().is_some_and(|f| !f.is_empty()));
        assert!(super::socket_family_filter().is_some_and(|f| !f.is_empty()));
        assert!(super::system_v_filter().is_some_and(|f| !f.is_empty()));
        assert!(super::fd_passing_lock().is_some_and(|f| !f.is_empty()));
        assert!(super::landlock_lock().is_some_and(|f| !f.is_empty()));
        let memory = super::uncounted_memory_filters().len();
        assert_eq!(memory, 9);
        // (The box's refusals, user namespaces, SysV, the plain sockets' two; the x32 numbers on
        // x86_64.)
        let unconfined = 3 + 2 + usize::from(cfg!(target_arch = "x86_64"));
        assert_eq!(super::plain_build_memory_filter().len(), 12);
        // (Each summed list ends with the seccomp lock.)
        // (A build's lists hold the session lock too, and so do a plain bot's.)
        assert_eq!(super::unconfined_plain_filters(true).len(), unconfined + 1 + 12 + 1);
        // (A bot's lists hold the disk lock's five filters, and a plain bot's the reaping lock;
        // a plain bot's the bot's four, as a box's.)
        let bot = super::bot_filters().len();
        assert_eq!(super::unconfined_plain_filters(false).len(), unconfined + bot + memory + 5 + 1 + 1 + 1);
        for build in [false, true] {
            // (A build's own include its session lock; a bot's, the bot's filters, and the disk,
            // reaping and session locks.)
            let own = if build { 15 } else { bot + memory + 5 + 1 + 1 };
            assert_eq!(super::plain_filters(build).len(), 7 + own + 1 + usize::from(cfg!(target_arch = "x86_64")));
        }
        assert_eq!(super::bot_filters().len(), 4);
        if cfg!(target_arch = "x86_64") {
            // (held memory, counted CPU)
            assert_eq!((super::filters(false, true, true).len(), super::filters(true, true, true).len()), (13, 8));
            assert_eq!((super::filters(false, true, false).len(), super::filters(true, true, false).len()), (15, 8));
            assert_eq!((super::filters(false, false, true).len(), super::filters(true, false, true).len()), (23, 22));
            assert_eq!((super::filters(false, false, false).len(), super::filters(true, false, false).len()), (25, 22));
        }
        // Every list of a bot's or a build's, as (build, memory summed, CPU summed, the list).
        let every = |build: bool| {
            let boxes = [(false, false), (false, true), (true, false), (true, true)]
                .map(|(summed, cpu_summed)| (build, summed, cpu_summed, super::filters(build, !summed, !cpu_summed)));
            let plain = [super::plain_filters(build), super::unconfined_plain_filters(build)]
                .map(|filters| (build, true, true, filters));
            boxes.into_iter().chain(plain)
        };
        let lists: Vec<_> = every(false).chain(every(true)).collect();
        let disk = super::disk_lock();
        assert_eq!(disk.len(), 5);
        let reaping = super::reaping_lock();
        assert!(reaping.as_ref().is_some_and(|f| !f.is_empty()));
        let session = super::session_lock();
        assert!(session.as_ref().is_some_and(|f| !f.is_empty()));
        let lock = super::seccomp_lock();
        assert!(lock.as_ref().is_some_and(|f| !f.is_empty()));
        for (i, (build, summed, cpu_summed, filters)) in lists.iter().enumerate() {
            let held = disk.iter().all(|d| filters.contains(d));
            assert_eq!(held, !build, "every bot's list, no build's: list {i}");
            let reaps = filters.iter().any(|f| Some(f) == reaping.as_ref());
            assert_eq!(reaps, !build && *cpu_summed, "a bot's whose CPU is summed: list {i}");
            let sessions = filters.iter().any(|f| Some(f) == session.as_ref());
            assert_eq!(sessions, *build || *cpu_summed, "a build's, and a bot's whose CPU is summed: list {i}");
            let locks = filters.iter().filter(|f| Some(*f) == lock.as_ref()).count();
            assert_eq!(locks, usize::from(*summed), "once where memory is summed, list {i}");
            if *summed {
                assert_eq!(filters.last(), lock.as_ref(), "the lock last, list {i}");
                // (The session lock just before it, where there is one.)
                let before = filters.len().checked_sub(2).and_then(|at| filters.get(at));
                assert_eq!(before == session.as_ref(), sessions, "the session lock before the lock, list {i}");
            }
        }
    }
}
