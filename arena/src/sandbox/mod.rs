//! The sandbox: one box per bot process, so that a bot cannot touch its opponent, the
//! referee, the results or the rest of the machine.
//!
//! A box (built in the forked child, see `child`) has its own PID, mount, network, IPC and
//! UTS namespaces; its own user (a reserved uid per running box when the arena is root and its
//! user namespace maps those uids, an unprivileged user namespace otherwise) with no
//! capabilities and `no_new_privs`; a file system view of the system directories and the bot's
//! own files, read-only, plus a private size-capped scratch directory (`HOME`, `/tmp`,
//! `/dev/shm`); a clean environment; no controlling terminal and no descriptor but its three
//! pipes. Its cgroups (where the system has them) cap its processes, its memory and its CPU
//! at one core, and count its CPU time; elsewhere the kernel's per-process accounting stands
//! in (see `meter`).
//!
//! What the system does not allow is said once; `--sandbox require` refuses to run without a box.

mod cgroup;
mod child;
mod confine;
mod meter;
mod mounts;
mod scratch;
mod sockets;
mod syscalls;

use std::collections::BTreeSet;
use std::ffi::CString;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use child::{Op, Plan};

/// How much confinement to insist on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    /// A box per bot where the system allows it; say once what is missing.
    #[default]
    Auto,
    /// Refuse to run bots without a box.
    Require,
    /// No box, as `auto` where boxes cannot be made: plain processes in a session of their
    /// own, with a clean environment and resource limits, each the child of a keeper that ends
    /// what it leaves running (see `child::enter_plain`), a bot or a build confined by Landlock
    /// where the kernel has it (see `confine`).
    Plain,
    /// No box at all: plain child processes with resource limits (for debugging bots). Each
    /// leads a process group, killed with it; there is no keeper, so a process that leaves the
    /// group (`setsid`, a daemon) outlives it.
    None,
}

impl std::str::FromStr for SandboxMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(SandboxMode::Auto),
            "require" => Ok(SandboxMode::Require),
            "plain" => Ok(SandboxMode::Plain),
            "none" => Ok(SandboxMode::None),
            _ => Err(format!("expected auto, require, plain or none, found `{s}`")),
        }
    }
}

/// Resource limits of a box. Missing fields in a config file keep their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxLimits {
    /// CPU seconds per process (SIGXCPU at the limit: forfeit `cpu`, when the arena's count of
    /// the box's CPU time shows it; see the referee's `why_it_died`).
    pub cpu_seconds: u64,
    /// Memory of the whole box in MiB (its cgroup, swap included; address space per process
    /// without one).
    pub memory_mb: u64,
    /// Largest file the bot may write, in MiB.
    pub file_size_mb: u64,
    /// Open file descriptors per process.
    pub open_files: u64,
    /// Processes in the box at once.
    pub processes: u64,
    /// Size of the box's scratch space (`HOME`, `/tmp`, `/dev/shm` together), in MiB.
    pub tmp_mb: u64,
    /// CPUs a bot's box may keep busy at once, all its processes together (its cgroup's CPU
    /// quota; 0: no cap): however many children it starts, an opponent keeps its own CPU.
    pub cpus: u64,
    /// Disk operations a bot's box may start per second on each disk, reads and writes each (its
    /// cgroup's `blkio` throttle, v2's `io.max`; 0: no cap): each ends in an interrupt on the
    /// CPU the match shares, charged to whoever runs there (see `syscalls::disk_lock`).
    pub disk_ops: u64,
}

impl Default for SandboxLimits {
    fn default() -> Self {
        SandboxLimits {
            cpu_seconds: 10,
            memory_mb: 1024,
            file_size_mb: 64,
            open_files: 256,
            processes: 64,
            tmp_mb: 64,
            cpus: 1,
            disk_ops: 200,
        }
    }
}

/// The memory a build may hold, all its processes together, in MiB, unless its sandbox is given
/// another ([`Sandbox::with_build_memory_mb`]; a league's `build_memory_mb`).
pub const DEFAULT_BUILD_MEMORY_MB: u64 = 4096;

impl SandboxLimits {
    /// The limits of a build (a compiler needs more than a bot): `seconds` of CPU per process,
    /// [`DEFAULT_BUILD_MEMORY_MB`] (4 GiB), 512 processes, every CPU, the disk unthrottled.
    pub fn for_build(seconds: u64) -> SandboxLimits {
        SandboxLimits {
            cpu_seconds: seconds,
            memory_mb: DEFAULT_BUILD_MEMORY_MB,
            file_size_mb: 1024,
            open_files: 1024,
            processes: 512,
            tmp_mb: 512,
            cpus: 0,
            disk_ops: 0,
        }
    }
}

/// The sandbox could not be set up as required.
#[derive(Debug, Error)]
pub enum SandboxError {
    /// `--sandbox require` and no box can be made here.
    #[error("the sandbox is required but unavailable: {0}")]
    Unavailable(String),
    /// A box could not be prepared (its cgroups, its user).
    #[error("cannot prepare a box: {what}: {source}")]
    Setup {
        /// What was being done.
        what: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The bot's files cannot be given to it.
    #[error("{0}")]
    Files(String),
    /// A limit no process here can be given: every bot would fail to start.
    #[error("{0}")]
    Limit(String),
    /// A build of a folder owned by root, by a root arena without a box: it would run as root.
    #[error(
        "its folder {} belongs to root, and without a box (--sandbox plain, or no box possible here) a build \
         runs as its folder's owner: it would run as root over the whole machine; give the folder to a user \
         of its own (chown -R), or build where boxes can be made",
        .0.display()
    )]
    RootBuild(PathBuf),
    /// The arena's uid, which its bots would keep, is the machine's root (root under `unshare
    /// -r`): no process limit holds it. Says where (the arena's user namespace, in words).
    #[error(
        "the arena runs as the machine's root inside a user namespace where it cannot give its bots users of \
         their own ({0}): every bot and build, boxed or not, would run as the machine's root, \
         which the kernel holds to no process limit, and a bot without a box would own every file root owns; \
         run the arena as root outside the user namespace, or as a user who is not root (inside such a \
         namespace or outside it); only --sandbox none, which confines nothing, runs here"
    )]
    MachineRoot(String),
}

impl SandboxError {
    /// Whether the error is of the bot's own (its files, its folder, root's folder without a
    /// box), not the machine's: a box the machine could not prepare (its cgroups, a box uid, a
    /// limit, a system folder) is no bot's fault, nor a sandbox required and missing.
    pub fn is_the_bots(&self) -> bool {
        matches!(self, SandboxError::Files(_) | SandboxError::RootBuild(_))
    }

    /// The error, said as one of the bot's files ([`SandboxError::Files`]): what failed was its
    /// own folder or a path of its command.
    fn into_the_bots(self) -> SandboxError {
        match self {
            SandboxError::Setup { what, source } => SandboxError::Files(format!("{what}: {source}")),
            other => other,
        }
    }
}

pub use child::Step as StartStep;

/// Why the machine, not the bot, could not start a bot's process: a step of its box's set-up
/// refused in the child (see [`StartStep`]), or the process itself not made (no process or
/// memory left, too many open files). The bot's own faults (its program missing, not
/// executable, not a program, its folder missing) are not one: see [`StartFault::of`].
#[derive(Debug, Error)]
#[error("{}: {source}{}", self.what(), self.hint())]
pub struct StartFault {
    /// The step that failed, or `None` for the process itself (`fork`, its pipes, `exec`).
    pub step: Option<StartStep>,
    /// The system's reason.
    pub source: std::io::Error,
}

impl StartFault {
    /// The machine's fault behind `error`, which spawning a command of [`Sandbox::command`]
    /// returned, if it is one. A step of the child's set-up marks its errors (see
    /// `child::step_of`), all the machine's: nothing of the bot's has run yet. Otherwise the
    /// error is `fork`'s, its pipes', or the `exec` of the bot's program; of these, the
    /// machine's are the ones no file of the bot's causes: no process (`EAGAIN`, also `exec`'s
    /// where the box user has too many), no memory (`ENOMEM`), too many open files (`EMFILE`,
    /// `ENFILE`), a disk that fails (`EIO`), or the program's file open for writing at that
    /// instant (`ETXTBSY`: the bot has not run, so another process holds it, such as a copy or
    /// a build under way, or another fork of the arena's that inherited a file being written).
    /// Everything else (`ENOENT`, `EACCES`, `ENOEXEC`, `ENOTDIR`, `ELOOP`, `E2BIG`, a nul byte
    /// in a word…) is the bot's program, `#!` line, command or folder.
    pub fn of(error: &std::io::Error) -> Option<StartFault> {
        let raw = error.raw_os_error()?;
        if let Some((step, errno)) = child::step_of(raw) {
            return Some(StartFault { step: Some(step), source: std::io::Error::from_raw_os_error(errno) });
        }
        let machine = [libc::EAGAIN, libc::ENOMEM, libc::EMFILE, libc::ENFILE, libc::EIO, libc::ETXTBSY];
        machine.contains(&raw).then(|| StartFault { step: None, source: std::io::Error::from_raw_os_error(raw) })
    }

    /// Whether the machine's fault may as well be the bot's program: an errno that no step of the
    /// child's set-up marked, other than too many open files (the pipes, made before the fork).
    /// `exec` gives these for some programs too: `EIO` for an ELF file whose interpreter's name
    /// lies past its end (a truncated or crafted binary), `ENOMEM` for one whose segments ask too
    /// much, `ETXTBSY` for one its own other process holds open for writing. The caller starts a
    /// program known to be good the same way ([`Sandbox::starts_a_good_program`]): if that
    /// starts, the bot's program is at fault.
    pub fn ambiguous(&self) -> bool {
        self.step.is_none() && !matches!(self.source.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
    }

    /// `error`, which spawning a command of [`Sandbox::command`] returned, as it reads: where a
    /// step of the child's set-up failed, its errno is a mark no one can read ("Unknown error
    /// 1095893761"), said here as the step and the system's reason, of the same kind.
    pub fn readable(error: std::io::Error) -> std::io::Error {
        match StartFault::of(&error) {
            Some(fault) if fault.step.is_some() => std::io::Error::new(fault.source.kind(), fault.to_string()),
            _ => error,
        }
    }

    /// What could not be done, in words.
    fn what(&self) -> &'static str {
        match self.step {
            None => "its process could not be started",
            Some(StartStep::Process) => "its process could not be set up",
            Some(StartStep::Cgroup) => "it could not join its box's cgroups",
            Some(StartStep::Namespaces) => "its box's namespaces could not be made",
            Some(StartStep::Fork) => "its box's processes could not be forked",
            Some(StartStep::View) => "its box's file system could not be built",
            Some(StartStep::Limits) => "its resource limits could not be set",
            Some(StartStep::User) => "it could not be given its box's user",
            Some(StartStep::Privileges) => "its privileges could not be dropped",
            Some(StartStep::Filter) => "its system call filter could not be installed",
        }
    }

    /// Where to look, after the system's reason (empty, or "; …").
    fn hint(&self) -> &'static str {
        match (self.step, self.source.raw_os_error()) {
            (_, Some(libc::EAGAIN)) => "; the machine lets no more processes be made (ulimit -u, or a pids cgroup)",
            (_, Some(libc::EMFILE | libc::ENFILE)) => "; too many files are open (ulimit -n, or the machine's limit)",
            (Some(StartStep::Limits), Some(libc::EPERM)) => {
                "; the arena may not raise its own hard limits (ulimit -H): lower the bots' limits, or raise the arena's"
            }
            _ => "",
        }
    }
}

/// Where to look when the machine could not start a thread or a process of the arena's own
/// (`error`, the system's reason), after it: empty, or "; …". No process or thread left
/// (`EAGAIN`: the user's `RLIMIT_NPROC`, which counts threads too, or a pids cgroup), no memory.
pub fn machine_hint(error: &std::io::Error) -> &'static str {
    match error.raw_os_error() {
        Some(libc::EAGAIN) => {
            "; the machine lets no more processes or threads be made (ulimit -u, or a pids cgroup): run again once \
             fewer run"
        }
        Some(libc::ENOMEM) => "; the machine has no memory left for it: run again once more is free",
        _ => "",
    }
}

/// What a run's boxes give, for reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Isolation {
    /// Every bot runs in a box of its own.
    pub boxed: bool,
    /// What is missing, in words (empty when fully isolated).
    pub missing: Vec<String>,
}

/// Where a bot's program is looked for and what of the machine it sees, for the checks of
/// what its command will really run (a `#!` line's interpreter, a program named bare).
#[derive(Debug, Clone)]
pub struct Sight {
    /// The folders a program named without one is looked for in: [`BOX_PATH`], or the arena's
    /// own `PATH` with the sandbox off (`--sandbox none` keeps the arena's environment).
    pub path: std::ffi::OsString,
    /// Whether the bot runs in a box, which shows it only the system's folders, its own and the
    /// files its command names (see [`shown_paths`]); otherwise it sees the whole machine.
    pub boxed: bool,
}

impl Sight {
    /// What a bot in a box sees (also the course checker's view, whatever the system allows).
    pub fn boxed() -> Sight {
        Sight { path: BOX_PATH.into(), boxed: true }
    }

    /// Whether `path` (absolute, or relative to the current folder) is there for the bot run
    /// with `words` in `folder`: it exists and, in a box, the box shows it (through links).
    pub fn sees(&self, path: &Path, words: &[String], folder: Option<&Path>) -> bool {
        let Ok(real) = std::fs::canonicalize(path) else { return false };
        !self.boxed || is_system(&real) || shown_paths(words, folder).iter().any(|shown| real.starts_with(shown))
    }

    /// The executable file `name` (a program named without a folder) is found as, if any.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        std::env::split_paths(&self.path).map(|dir| dir.join(name)).find(|p| is_executable_file(p))
    }
}

/// Whether `path` is a regular file (through links) that someone may execute.
pub fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.mode() & 0o111 != 0)
}

/// What to start in a box.
#[derive(Debug, Clone, Copy)]
pub struct Launch<'a> {
    /// The command's words: program first.
    pub words: &'a [String],
    /// The bot's own folder (its configured working directory), if it has one: visible in the
    /// box, read-only (writable for a build).
    pub folder: Option<&'a Path>,
    /// Extra environment variables (the protocol's `ARENA_*`, `RR_MODE`).
    pub env: &'a [(String, String)],
    /// A build: the folder is writable and the toolchains are visible.
    pub build: bool,
    /// Entries of a build's `folder` (names, one each) its box shows read-only over the
    /// writable folder, the folder's git metadata (`.git`): a student's build wrote hooks and
    /// `core.fsmonitor` there, which the teacher's next `git pull` ran, unboxed. One that is a
    /// symbolic link is refused (the build could swap it; see [`SandboxError::Files`]); one
    /// missing is skipped. Without a box nothing is read-only: a plain build writes them too.
    pub read_only: &'a [PathBuf],
}

/// How long the process the arena spawned (a box's supervisor, a plain bot's keeper) may take
/// to exit once its box is killed (a keeper ends what is left first); then it is killed.
pub const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The two first fields of a thread's `schedstat` file at `path` (`/proc/PID/schedstat`,
/// `/proc/self/task/TID/schedstat`): nanoseconds it ran and nanoseconds it waited for a CPU while
/// runnable. `None` where it cannot be read (a kernel without `CONFIG_SCHED_INFO`, a thread gone).
pub(crate) fn schedstat(path: &str) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some((fields.next()?.ok()?, fields.next()?.ok()?))
}

/// Set (to anything) in the arena's environment, a look reads every process's maps whole, however
/// long (see `meter::MAPS_BUDGET`), and every descriptor's `fdinfo`, duplicates too (see
/// `sockets::duplicate`), and the referee's monitor looks on the match's own thread, at its pace
/// however long each look takes (see `referee::monitor`): for the controls of the tests only.
pub const LOOKS_OFF_SWITCH: &str = "ARENA_LOOKS_ON_THE_MATCH_THREAD";

/// Whether [`LOOKS_OFF_SWITCH`] is set (read once).
pub(crate) fn looks_off() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os(LOOKS_OFF_SWITCH).is_some())
}

/// Set to a number of milliseconds in the arena's environment, every look at a bot's box
/// ([`BoxHandle::look`]) takes that much longer: for the tests only, which show that a slow look
/// holds nothing its bot's opponent needs (a bot can no longer make one slow: the maps are read
/// 4 MiB a look, the watches less often the more there are, and no bot takes a lock).
pub const SLOW_LOOKS_SWITCH: &str = "ARENA_TEST_SLOW_LOOKS_MS";

/// How much longer [`SLOW_LOOKS_SWITCH`] makes each look (read once).
fn slowed_looks() -> Option<Duration> {
    static SLOWED: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    *SLOWED.get_or_init(|| {
        let ms = std::env::var(SLOW_LOOKS_SWITCH).ok()?.parse().ok()?;
        Some(Duration::from_millis(ms))
    })
}

/// The host's directories every box sees, read-only.
const SYSTEM: [&str; 8] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];
/// Device nodes every box gets.
const DEVICES: [&str; 4] = ["null", "full", "random", "urandom"];
/// `/dev/zero`, as a box gets it where a memory cgroup holds it, or for a build. Mapped shared,
/// it makes shared memory no resident set shows, as `MAP_SHARED | MAP_ANONYMOUS` does (see
/// `syscalls::uncounted_memory_filters`), which a filter cannot tell from another file's: a
/// bot's box without one gets [`ZERO_UNMAPPED`] at that path instead.
const ZERO: &str = "zero";
/// What a bot's box without a memory cgroup has at `/dev/zero`: `/dev/full`, which reads as
/// zeros too (`head -c N /dev/zero` works: shell bots use it) but cannot be mapped (ENODEV), so
/// it makes no shared memory (a bot held 192 MiB so in a box of 64). Writes to it fail (ENOSPC).
const ZERO_UNMAPPED: &str = "full";
/// `PATH` inside a box (and for a plain bot): a bot command's program named without a folder is
/// looked for there only, not on the PATH of whoever runs the arena.
pub const BOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
/// The first uid of the range boxes run as when the arena is root (as isolate does).
const FIRST_BOX_UID: u32 = 60000;
/// How many box uids there are.
const BOX_UIDS: u32 = 2000;

/// The sandbox for a run: mode, limits, and what the system allows.
#[derive(Debug, Clone)]
pub struct Sandbox {
    mode: SandboxMode,
    limits: SandboxLimits,
    /// Boxes can be made (namespaces work).
    boxed: bool,
    /// The arena is root with the box users mapped in its user namespace (see
    /// [`box_users_missing`]): it runs bots as box users. Root in a namespace without them runs
    /// them as an arena that is not root does.
    root: bool,
    cgroups: Option<cgroup::Roots>,
    box_root: PathBuf,
    /// A folder of this run's own that `box_root` is, where the shared one could not be had
    /// (see [`box_root`]); removed with the last clone.
    _fresh_root: Option<std::sync::Arc<tempfile::TempDir>>,
    missing: Vec<String>,
    /// Plain bots are confined by Landlock (see `confine`): the kernel has it, and the tests'
    /// switch is not set.
    landlock: bool,
    /// How a plain bot or build gets a mount namespace of its own (see `mounts`), where the
    /// arena can make one.
    mounts: Option<mounts::Here>,
    /// The folder of this run's plain scratch folders (see `scratch`), made with the first.
    scratch_run: std::sync::Arc<std::sync::Mutex<Option<std::sync::Arc<scratch::RunFolder>>>>,
    /// The memory a build may hold, in MiB (its box's, all its processes together; see
    /// [`Sandbox::with_build_memory_mb`]).
    build_memory_mb: u64,
}

/// One look at a box's processes (see [`BoxHandle::look`]): their tree, walked once, the walk
/// of their descriptors where one was made, and what those hold (see [`BoxHandle::in_buffers`]).
struct Seen {
    walk: meter::Walk,
    found: Option<sockets::Descriptors>,
    held: u64,
}

/// A running box, to be ended with its bot.
#[derive(Debug)]
pub struct BoxHandle {
    group: Option<cgroup::BoxGroup>,
    uid: Option<UidClaim>,
    /// The process the arena spawned: the supervisor of a box, the keeper of a plain bot (see
    /// `child::enter_plain`), or the bot itself (`--sandbox none`).
    leader: Option<i32>,
    /// A pidfd of the box's init (killing it ends everything in the box).
    init: Option<OwnedFd>,
    /// The process running the bot's program.
    main: Option<i32>,
    boxed: bool,
    /// The leader is a plain bot's keeper.
    kept: bool,
    /// A pidfd of the keeper: it is signalled, and its tree walked, only while it lives (its
    /// pid could be another process's once it is reaped).
    keeper: Option<OwnedFd>,
    memory_cap: u64,
    /// Whether the monitor counts the box's swapped-out memory with its resident memory (see
    /// [`counts_swap`]): otherwise the kernel's swapping of a bot's pages, under pressure,
    /// would let it hold more than its cap, unseen.
    counts_swap: bool,
    /// The most CPU time [`BoxHandle::cpu_time`] has read, in nanoseconds: without a cgroup,
    /// the time of a process already reaped may be missing from a later reading.
    peak_cpu: AtomicU64,
    /// A process of the box's that a look found ignoring `SIGCHLD` where its CPU time is summed
    /// (0 for none yet): see [`BoxHandle::ignoring_sigchld`].
    ignoring_sigchld: AtomicI32,
    /// What the box's sockets hold, counted with its memory where no memory cgroup charges it
    /// (see `sockets`).
    sockets: Option<sockets::Meter>,
    /// What a plain build's or kept plain bot's unix sockets hold, counted with its memory (see
    /// `sockets::HostMeter`): a plain build or bot has no network namespace of its own for a
    /// [`sockets::Meter`].
    host_sockets: Option<sockets::HostMeter>,
    /// Whether the box runs a build, whose every descriptor's `fdinfo` is read at every look
    /// where its memory is summed ([`BoxHandle::memory_is_summed`]): a bot's look reads less,
    /// 40 times a second (see `sockets::BotLooks`), and counts the same (its pipes, the kernel's
    /// objects behind its descriptors: see [`BoxHandle::in_buffers`]).
    counts_pipes: bool,
    /// A summed bot's looks at its descriptors (see `sockets::BotLooks`).
    bot_looks: sockets::BotLooks,
    /// A build's: its processes run at a lower priority than the arena's (see
    /// `child::lower_priority`), which [`BoxHandle::started`] checks.
    niced: bool,
    /// A plain bot's or build's scratch folder (its `HOME` and `TMPDIR`), removed with the
    /// handle.
    _scratch: Option<scratch::Scratch>,
}

impl Sandbox {
    /// Probes the system (by making one box) and checks `mode`.
    pub fn new(mode: SandboxMode, limits: SandboxLimits) -> Result<Sandbox, SandboxError> {
        // SAFETY: geteuid has no preconditions.
        let euid_root = unsafe { libc::geteuid() } == 0;
        // Root in a user namespace that does not map the box users (`unshare -r`, a rootless
        // container mapping one uid) runs its bots as an arena that is not root does: its boxes
        // in a user namespace of their own, its plain bots as its own uid (without a
        // capability, see `child::enter_plain`). A box user there was refused (`EINVAL`), and
        // so was every bot, boxed or plain.
        let missing_users = if euid_root { box_users_missing() } else { None };
        let root = euid_root && missing_users.is_none();
        let unmapped = missing_users.clone().map(|why| {
            format!(
                "{why}: bots share the arena's uid, as under an arena that is not root (a box makes a user \
                 namespace of its own; a plain bot runs without a capability)"
            )
        });
        // Bots that keep the arena's uid where that uid is the machine's root (root under
        // `unshare -r`: uid 0 of a namespace mapping only root) would run as the machine's root,
        // boxed or not: the kernel holds it to no process limit (and this arena has no cgroups),
        // and a plain one owns every file root owns (a build's `chmod 4755` of a copy of a shell
        // made a setuid-root one). Refused, but with the sandbox off, which promises nothing;
        // and so is root without the box users where the kernel could not be asked (no fork).
        let exempt = || match child::exempt_from_the_process_limit() {
            Some(exempt) => exempt,
            None => missing_users.is_some(),
        };
        if !root && mode != SandboxMode::None && exempt() {
            // SAFETY: getuid has no preconditions.
            let uid = unsafe { libc::getuid() };
            let why = missing_users.unwrap_or_else(|| format!("its uid there, {uid}, is root's outside it"));
            return Err(SandboxError::MachineRoot(format!("{why}; {}", own_user_namespace_in_words())));
        }
        let raise = may_raise_hard_limits();
        if let Some(why) = open_files_out_of_reach(limits.open_files, own_hard_limit(libc::RLIMIT_NOFILE), raise) {
            return Err(SandboxError::Limit(why));
        }
        if let Some(why) = processes_out_of_reach(limits.processes, own_hard_limit(libc::RLIMIT_NPROC)) {
            return Err(SandboxError::Limit(why));
        }
        let mut sandbox = Sandbox {
            mode,
            limits,
            boxed: false,
            root,
            cgroups: None,
            box_root: PathBuf::new(),
            _fresh_root: None,
            missing: Vec::new(),
            landlock: false,
            mounts: None,
            scratch_run: Default::default(),
            build_memory_mb: DEFAULT_BUILD_MEMORY_MB,
        };
        match mode {
            SandboxMode::None => {
                sandbox.missing.push("the sandbox is off (--sandbox none)".to_string());
                return Ok(sandbox);
            }
            SandboxMode::Plain => {
                sandbox.missing.push(
                    "no box (--sandbox plain): bots run as plain processes with resource limits, confined by Landlock \
                     where the kernel has it"
                        .into(),
                );
                // (Asked for: only what Landlock lacks here, and the box users missing, are
                // warned of.)
                let mut lacking: Vec<String> = unmapped.into_iter().collect();
                lacking.extend(sandbox.plain_confinement());
                if !lacking.is_empty() {
                    warn_once(&lacking);
                }
                sandbox.missing.extend(lacking);
                return Ok(sandbox);
            }
            _ => {}
        }
        sandbox.missing.extend(unmapped);
        if root {
            sandbox.cgroups = cgroup::Roots::discover();
            if let Some(roots) = &sandbox.cgroups {
                roots.end_stale();
            }
        }
        let made = box_root(shared_folder("box-root")).map(|(dir, fresh)| {
            sandbox.box_root = dir;
            sandbox._fresh_root = fresh.map(std::sync::Arc::new);
        });
        // (Whether a bot's box has a memory cgroup that holds all its memory, as the probe's box
        // had: said in the report below, for the tests that expect what such a box does.)
        let mut memory_held = false;
        match made.and_then(|()| sandbox.probe()) {
            Ok(held) => {
                sandbox.boxed = true;
                memory_held = held;
            }
            Err(e) => {
                sandbox.missing.push(format!(
                    "no box: {e}; bots run as plain processes with resource limits, confined by Landlock where the \
                     kernel has it"
                ));
                let lacking = sandbox.plain_confinement();
                sandbox.missing.extend(lacking);
            }
        }
        let controllers = sandbox.cgroups.as_ref().map(cgroup::Roots::controllers).unwrap_or_default();
        tracing::debug!(boxed = sandbox.boxed, memory_held, cgroups = ?controllers, "sandbox");
        let quota = sandbox.limits.cpus > 0;
        let disk = sandbox.limits.disk_ops > 0;
        for (controller, without, wanted) in [
            ("memory", "memory is limited per process and watched by the arena, not enforced per box", true),
            ("cpuacct", "a box's CPU time is counted from /proc, every answer and every 25 ms", true),
            ("cpu", "a bot's busy children can take its opponent's CPU while both think (no CPU quota)", quota),
            (
                "blkio",
                "a bot's disk reads are not throttled, and the interrupt of each is charged to whoever runs on the \
                 match's CPU (its opponent, thinking)",
                disk,
            ),
        ] {
            let present = match controller {
                "blkio" => cgroup::DISK.iter().any(|c| controllers.contains(c)),
                _ => controllers.contains(&controller),
            };
            if sandbox.boxed && wanted && !present {
                sandbox.missing.push(format!("no {controller} cgroup: {without}"));
            }
        }
        match mode {
            SandboxMode::Require if !sandbox.boxed => {
                return Err(SandboxError::Unavailable(sandbox.missing.join("; ")))
            }
            _ if !sandbox.missing.is_empty() => warn_once(&sandbox.missing),
            _ => {}
        }
        Ok(sandbox)
    }

    /// Learns whether plain bots can be confined by Landlock here (see `confine`), and returns
    /// what of it is missing, in words.
    ///
    /// Plain bots and builds get a mount namespace of their own where the arena can make one (see
    /// `mounts`), and what of it is missing is said too.
    fn plain_confinement(&mut self) -> Vec<String> {
        let mut lacking = if std::env::var_os(confine::OFF_SWITCH).is_some() {
            vec![format!("Landlock is off ({} is set): plain bots are not confined", confine::OFF_SWITCH)]
        } else {
            let abi = confine::kernel_abi();
            tracing::debug!(abi, "Landlock");
            self.landlock = abi > 0;
            confine::missing(abi)
        };
        let chmod = "a plain build (Landlock does not govern a file's mode) may change the mode and times of any file \
                     of the user it runs as";
        let on_disk = "a plain bot's scratch folder is no tmpfs of its own but a folder of TMPDIR (on a disk, its \
                       writes end in interrupts its opponent's clock may pay; the sum of its files has no cap)";
        match mounts::Here::learn() {
            Ok(here) => {
                tracing::debug!(?here, "plain bots' and builds' mount namespaces");
                if here.as_ref().is_some_and(|h| !h.read_only()) {
                    lacking.push(format!(
                        "no read-only mounts for plain builds here (the kernel has no mount_setattr, Linux 5.12): \
                         {chmod}{}",
                        if self.landlock { "" } else { ", and a plain bot may write any file of that user's" }
                    ));
                }
                if here.as_ref().is_some_and(|h| !h.unmaps_zero()) && !self.landlock {
                    lacking.push(
                        "no /dev/full here (or no /dev/zero): a plain bot's /dev/zero stays the machine's, which, \
                         mapped shared and writable, is memory its limit does not count"
                            .to_string(),
                    );
                }
                self.mounts = here;
            }
            Err(why) if self.landlock => {
                lacking.push(format!("no mount namespace for plain bots and builds here ({why}): {chmod}, {on_disk}"))
            }
            Err(why) => lacking.push(format!(
                "no mount namespace for plain bots and builds here ({why}): {chmod}, {on_disk}, and a plain bot \
                 shares the machine's /dev/shm, whose files take memory its limit does not count and outlive the match"
            )),
        }
        if let Some(base) = scratch::base_in_memory(self.root).filter(|_| self.mounts.is_none()) {
            lacking.push(format!(
                "the plain bots' scratch folders are in {}, a tmpfs, and no mount namespace caps them here: a plain \
                 bot's files there take memory its limit does not count (set TMPDIR to a folder on disk)",
                base.display()
            ));
        }
        lacking
    }

    /// The limits applied.
    pub fn limits(&self) -> &SandboxLimits {
        &self.limits
    }

    /// Where this run's bots look for programs and what they see.
    pub fn sight(&self) -> Sight {
        match self.mode {
            SandboxMode::None => Sight { path: std::env::var_os("PATH").unwrap_or_default(), boxed: false },
            _ => Sight { path: BOX_PATH.into(), boxed: self.boxed },
        }
    }

    /// Whether bots run as users of their own without a box (a root arena that cannot make
    /// boxes, or `--sandbox plain`): they reach their programs through the file system's
    /// permissions alone, not through what a box binds in.
    pub fn runs_bots_as_others_unboxed(&self) -> bool {
        self.root && !self.boxed && self.mode != SandboxMode::None
    }

    /// The sandbox, its builds held to `mb` MiB of memory (all of a build's processes together:
    /// its box's memory cgroup, or the arena's sum of them without one; and each process's
    /// address space without a cgroup) instead of [`DEFAULT_BUILD_MEMORY_MB`].
    pub fn with_build_memory_mb(mut self, mb: u64) -> Sandbox {
        self.build_memory_mb = mb;
        self
    }

    /// What this run's boxes give.
    pub fn isolation(&self) -> Isolation {
        Isolation { boxed: self.boxed, missing: self.missing.clone() }
    }

    /// Makes one box running `true`, to learn whether boxes work here, and whether a bot's box
    /// has a memory cgroup that holds all its memory (`BoxGroup::holds_memory`).
    fn probe(&self) -> Result<bool, String> {
        let words = ["true".to_string()];
        let launch = Launch { words: &words, folder: None, env: &[], build: false, read_only: &[] };
        let (mut command, handle) = self.boxed_command(&launch, &self.limits).map_err(|e| e.to_string())?;
        command.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
        let status = command.status().map_err(|e| StartFault::readable(e).to_string());
        let held = handle.group.as_ref().is_some_and(cgroup::BoxGroup::holds_memory);
        handle.release();
        match status? {
            s if s.success() => Ok(held),
            s => Err(format!("a test box ended with {s}")),
        }
    }

    /// Whether a program known to be good (`true`) starts as `launch`'s would: in the same
    /// folder, with the same environment, in the same kind of box. It tells a start that failed
    /// with an [ambiguous](StartFault::ambiguous) errno the machine's (this fails too) from the
    /// bot's program's (this starts).
    pub fn starts_a_good_program(&self, launch: &Launch) -> bool {
        let words = ["true".to_string()];
        let good = Launch { words: &words, ..*launch };
        let Ok((mut command, mut handle)) = self.command(&good) else { return false };
        command.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
        command.stderr(std::process::Stdio::null());
        let started = match command.spawn() {
            Ok(mut child) => {
                handle.started(child.id());
                // (`true` ends at once; its box is ended as any other.)
                let _ = child.wait();
                true
            }
            Err(e) => {
                tracing::debug!(error = %StartFault::readable(e), "a good program could not be started either");
                false
            }
        };
        handle.release();
        started
    }

    /// The machine's fault behind `error`, which spawning `launch`'s command returned, if it is
    /// one, settled: an errno only the machine gives ([`StartFault::of`]), or one a bad program
    /// gives too ([`StartFault::ambiguous`]) where a good program cannot start the same way
    /// either ([`Sandbox::starts_a_good_program`]). A bot's process and a build are settled so.
    pub fn machine_fault(&self, launch: &Launch, error: &std::io::Error) -> Option<StartFault> {
        let fault = StartFault::of(error)?;
        (!fault.ambiguous() || !self.starts_a_good_program(launch)).then_some(fault)
    }

    /// Prepares `launch` to run in a box of its own (or as a plain process where boxes cannot
    /// be made). The caller sets the standard streams, spawns, then calls
    /// [`BoxHandle::started`].
    pub fn command(&self, launch: &Launch) -> Result<(std::process::Command, BoxHandle), SandboxError> {
        let limits = match launch.build {
            // (Its scratch tmpfs, memory that no process's resident set shows, at most its memory
            // limit.)
            true => {
                let build = SandboxLimits::for_build(self.limits.cpu_seconds);
                SandboxLimits {
                    memory_mb: self.build_memory_mb,
                    tmp_mb: build.tmp_mb.min(self.build_memory_mb),
                    ..build
                }
            }
            false => self.limits,
        };
        if self.boxed {
            self.boxed_command(launch, &limits)
        } else {
            self.plain_command(launch, &limits)
        }
    }

    fn plain_command(
        &self,
        launch: &Launch,
        limits: &SandboxLimits,
    ) -> Result<(std::process::Command, BoxHandle), SandboxError> {
        let (program, args) = launch.words.split_first().map_or(("", &[][..]), |(p, a)| (p.as_str(), a));
        let mut command = std::process::Command::new(program);
        command.args(args);
        if let Some(dir) = launch.folder {
            command.current_dir(dir);
        }
        // Off means off: the arena's environment and terminal (the controls of the tests).
        let keep_terminal = self.mode == SandboxMode::None;
        // As root (`plain`), as in a box: neither a bot nor a build can signal the other bots,
        // their keepers or the arena. (Not with the box off: `none` runs as the arena's user.)
        let (ids, uid) = if keep_terminal { (None, None) } else { self.user(launch, launch.folder)? };
        // A scratch folder of its own (its `HOME` and `TMPDIR`, as a box's `/scratch`: see
        // `scratch`), which it alone may write; a build is also shown the toolchains a box's
        // build is (see `plain_build`).
        let scratch =
            if keep_terminal { None } else { Some(self.scratch(if launch.build { "build" } else { "bot" }, ids)?) };
        let (build, scratch) = match scratch {
            Some(s) if launch.build => (Some(plain_build(s, ids)?), None),
            s => (None, s),
        };
        if !keep_terminal {
            command.env_clear().envs(box_env(launch, "/tmp"));
            if let Some(b) = &build {
                command.envs(b.env());
            }
            if let Some(s) = &scratch {
                let path = s.path().display().to_string();
                command.envs([("HOME", &path), ("TMPDIR", &path)]);
            }
        }
        command.envs(launch.env.iter().map(|(k, v)| (k, v)));
        let mut rlimits = rlimits(limits, false);
        if uid.is_some() {
            rlimits.push((libc::RLIMIT_NPROC, limits.processes, limits.processes));
        }
        // (Root in a user namespace is no exception: the kernel spares only the machine's root,
        // whose bots `Sandbox::new` refuses to run here, and a process with `CAP_SYS_RESOURCE`
        // in the machine's first user namespace.)
        // A root arena's build runs as its folder's owner (`ids`, no uid claimed), a user of the
        // machine who may run processes of their own: held, as an arena that is not root holds
        // its bots, to what that user runs already and the build's processes. (Leaving root for
        // that user drops every capability, so the kernel holds it to the limit: a build made
        // 700 processes past its 512 before.)
        if let Some((owner, _)) = ids.filter(|_| self.root && uid.is_none() && launch.build) {
            let n = user_process_count(owner).saturating_add(limits.processes);
            rlimits.push((libc::RLIMIT_NPROC, n, n));
        }
        // A bot or a build with a keeper: Landlock's ruleset, entered by its process alone (see
        // `confine`). It may write its scratch folder; a build is shown the toolchains too, and
        // may write its folder.
        let mut writable: Vec<PathBuf> = scratch.iter().map(|s| s.path().to_path_buf()).collect();
        if let Some(b) = &build {
            let here = std::env::current_dir().unwrap_or_default();
            writable.extend(launch.folder.map(|f| normalize(&here.join(f))));
            writable.push(b.scratch.path().to_path_buf());
        }
        let ruleset = if self.landlock && !keep_terminal {
            let toolchains = build.iter().flat_map(PlainBuild::shown).collect();
            let (system, shown) = self.plain_shown(launch.words, launch.folder, toolchains);
            let whose = if launch.build { "the build's Landlock ruleset" } else { "the bot's Landlock ruleset" };
            confine::ruleset(&system, &shown, &writable)
                .map_err(|e| setup(whose, std::io::Error::other(e.to_string())))?
        } else {
            None
        };
        // (With it, what Landlock does not govern: see `syscalls::plain_filters`; without it,
        // System V IPC and a bot's uncounted shared memory all the same, but with the sandbox
        // off.)
        let filters = match &ruleset {
            Some(_) => syscalls::plain_filters(launch.build),
            None if keep_terminal => Vec::new(),
            None => syscalls::unconfined_plain_filters(launch.build),
        };
        // A mount namespace of its own where the arena can make one (see `mounts`): without
        // Landlock, which keeps it from the machine's `/dev/shm`, one of its own; for a build, and
        // a bot without Landlock, every mount read-only but what it may write.
        let confined = ruleset.is_some();
        // A bot's scratch folder gets a tmpfs of `tmp_mb` over it, its process's, as a box's
        // `/scratch`, and so does a build's in memory (a tmpfs `TMPDIR`; see `scratch`): on disk,
        // a bot's writes there (a rename over a file starts its writeback at once) ended in
        // interrupts its opponent's clock paid. A build keeps its folder on disk (a compiler's
        // temporary files may pass `tmp_mb`).
        let scratch_dir = scratch.as_ref().map(scratch::Scratch::path).or(build.as_ref().map(|b| b.scratch.path()));
        // SAFETY: getuid and getgid have no preconditions.
        let owner = ids.unwrap_or_else(|| unsafe { (libc::getuid(), libc::getgid()) });
        let tmpfs_scratch = scratch_dir.filter(|d| !launch.build || scratch::in_memory(d)).map(|d| (d, owner));
        // (A bot that needs no mount of its own still gets a user namespace of its own, where the
        // arena is not root: see below.)
        let plain_mounts = match &self.mounts {
            Some(here) if !keep_terminal => {
                let mounts = here.plain(!confined, launch.build || !confined, &writable, limits.tmp_mb, tmpfs_scratch);
                mounts.or_else(|| if launch.build { None } else { here.user_namespace_only() })
            }
            _ => None,
        };
        if !self.root {
            // Without a box, RLIMIT_NPROC caps processes. The kernel counts it for each user
            // namespace (Linux 5.14 on): a bot in one of its own (with its keeper) is held to its
            // own processes. Elsewhere (no user namespace can be made here, or `none`) it counts
            // every process of the user, so the limit is what the user runs already, the keeper
            // and the bot's (a build keeps that limit too, though a plain build in a user
            // namespace of its own is counted apart: a looser limit for builds, left as it was): a
            // plain bot of an arena that is not root forked up to that before 2026-12-07, and its
            // opponent, whose limit was the same count, could make no thread (a crash).
            let own = !launch.build
                && plain_mounts.as_ref().is_some_and(mounts::PlainMounts::in_user_namespace)
                && nproc_counted_per_namespace();
            // SAFETY: getuid has no preconditions.
            let others = if own { 0 } else { user_process_count(unsafe { libc::getuid() }) };
            let n = others + limits.processes + u64::from(!keep_terminal);
            // (At most the arena's own hard limit, which it may not raise: a user with many
            // processes of their own left every bot unable to set its limit, and start.)
            let n = match own_hard_limit(libc::RLIMIT_NPROC) {
                Some(hard) if hard != libc::RLIM_INFINITY && !may_raise_hard_limits() => n.min(hard),
                _ => n,
            };
            rlimits.push((libc::RLIMIT_NPROC, n, n));
        }
        let parent = std::process::id() as libc::pid_t;
        let writable_access = confine::writable_access();
        // (A build runs at a lower priority than the arena: see `child::lower_priority`. Not with
        // the box off, which changes nothing.)
        let niced = launch.build && !keep_terminal;
        // (A bot's timer slack is a box's: see `child::enter_plain`.)
        let bot_timers = !launch.build;
        // SAFETY: the hook only makes system calls on data prepared before the fork (the
        // ruleset's descriptor, the filters and the mounts' words, held by the hook as long as the
        // command).
        unsafe {
            command.pre_exec(move || {
                let landlock = ruleset.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd);
                if let Some(mounts) = &plain_mounts {
                    mounts.enter()?;
                    // Landlock's rule on the scratch folder does not hold beneath the tmpfs
                    // now over it: the tmpfs gets its own, before the ruleset is entered.
                    if let Some(tmpfs) = mounts.scratch_tmpfs().filter(|_| landlock >= 0) {
                        confine::add_writable(landlock, tmpfs, writable_access)
                            .map_err(child::at(child::Step::Privileges))?;
                    }
                }
                if niced {
                    child::lower_priority();
                }
                child::enter_plain(parent, &rlimits, ids, keep_terminal, landlock, &filters, bot_timers)
            });
        }
        if keep_terminal {
            command.process_group(0);
        }
        let handle = BoxHandle {
            group: None,
            uid,
            leader: None,
            init: None,
            main: None,
            boxed: false,
            kept: !keep_terminal,
            keeper: None,
            memory_cap: limits.memory_mb.saturating_mul(1 << 20),
            // (A plain build's memory is summed as a box's without a cgroup: what the kernel
            // swaps out of it counts, on a machine with swap.)
            counts_swap: launch.build && !keep_terminal && cgroup::machine_swaps(),
            peak_cpu: AtomicU64::new(0),
            ignoring_sigchld: AtomicI32::new(0),
            sockets: None,
            // (A plain build's and a kept plain bot's: its sockets are in the machine's network
            // namespace, see the README.)
            host_sockets: if keep_terminal { None } else { sockets::HostMeter::new() },
            counts_pipes: launch.build,
            bot_looks: sockets::BotLooks::default(),
            niced,
            _scratch: build.map(|b| b.scratch).or(scratch),
        };
        Ok((command, handle))
    }

    /// What a plain bot's (or build's) Landlock ruleset shows it ([`shown_paths`]): of the
    /// system's folders, and the rest (its own folder, the files its command names, a build's
    /// `toolchains`). A bot or build that runs as the arena's user (an arena that is not root,
    /// or root in a user namespace without the box users) is not shown what others may not read
    /// in the system's folders ([`plain_system`]), as a box masks it there, whatever else shows
    /// it the same path: neither a file its command names there, nor its folder or a toolchain,
    /// below a system folder or above one, gives it more (a script under `/etc` gave it its
    /// folder, `/etc`, whole). A root arena's runs as a box user (a build as its folder's
    /// owner), as its box would, and is shown them whole.
    fn plain_shown(
        &self,
        words: &[String],
        folder: Option<&Path>,
        toolchains: Vec<PathBuf>,
    ) -> (confine::System, Vec<PathBuf>) {
        let real = system_real();
        let mut own = shown_paths(words, folder);
        own.extend(toolchains);
        own.retain(|p| !real.iter().any(|d| p.starts_with(d) || (!self.root && d.starts_with(p))));
        let system =
            if self.root { confine::System { whole: real, listed: Vec::new() } } else { plain_system().clone() };
        (system, own)
    }

    /// A new scratch folder for a plain bot or build (`what`), given to `owner` where a root
    /// arena runs it as another user, in this run's folder of them (made with the first).
    fn scratch(&self, what: &str, owner: Option<(u32, u32)>) -> Result<scratch::Scratch, SandboxError> {
        let whose = format!("a scratch folder for the {what} (in the temporary folder)");
        let mut run = self.scratch_run.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let run = match &*run {
            Some(made) => std::sync::Arc::clone(made),
            None => {
                let made = std::sync::Arc::new(scratch::RunFolder::make(self.root).map_err(|e| setup(&whose, e))?);
                *run = Some(std::sync::Arc::clone(&made));
                made
            }
        };
        scratch::Scratch::make(&run, what, owner).map_err(|e| setup(&whose, e))
    }

    /// Who runs `launch` (root only; `None` otherwise): a build writes the bot's `folder` as the
    /// folder's owner, anything else runs as a box uid of its own (claimed while it runs).
    ///
    /// A build of a folder root owns is refused without a box ([`SandboxError::RootBuild`]): it
    /// would run as root itself, every capability kept, over the whole machine (a student's
    /// `make` wrote another student's folder and the league's `results.jsonl` under `--sandbox
    /// plain`, and so would it where `auto` finds no box). In a box it runs as uid 0 without a
    /// capability, on a read-only system (see [`View::mask_private`]).
    fn user(&self, launch: &Launch, folder: Option<&Path>) -> Result<RunAs, SandboxError> {
        if !self.root {
            return Ok((None, None));
        }
        match folder.filter(|_| launch.build) {
            Some(dir) => {
                let meta = std::fs::metadata(dir).map_err(|e| setup(&dir.display().to_string(), e).into_the_bots())?;
                if meta.uid() == 0 && !self.boxed {
                    return Err(SandboxError::RootBuild(dir.to_path_buf()));
                }
                Ok((Some((meta.uid(), meta.gid())), None))
            }
            None => {
                let claim = UidClaim::take()?;
                Ok((Some((claim.uid, claim.uid)), Some(claim)))
            }
        }
    }

    fn boxed_command(
        &self,
        launch: &Launch,
        limits: &SandboxLimits,
    ) -> Result<(std::process::Command, BoxHandle), SandboxError> {
        let toolchains = if launch.build { toolchains() } else { Vec::new() };
        self.boxed_command_with(launch, limits, toolchains, true)
    }

    /// [`Sandbox::boxed_command`] with the `toolchains` a build is shown, and whether cargo's
    /// secrets are hidden and its locks the box's own (`masked`: always, but in the tests'
    /// controls).
    fn boxed_command_with(
        &self,
        launch: &Launch,
        limits: &SandboxLimits,
        toolchains: Vec<(&'static str, PathBuf)>,
        masked: bool,
    ) -> Result<(std::process::Command, BoxHandle), SandboxError> {
        let (program, args) =
            launch.words.split_first().ok_or_else(|| SandboxError::Files("the command is empty".to_string()))?;
        let here = std::env::current_dir().map_err(|e| setup("the current folder", e))?;
        let cwd = normalize(&launch.folder.map_or(here.clone(), |f| here.join(f)));
        let folder = launch.folder.map(|_| cwd.clone());
        // Otherwise (not root): the arena's user, in a user namespace.
        let (ids, uid) = self.user(launch, folder.as_deref())?;
        // A bot's box: its memory (enforced by the kernel), its CPU time (counted) and the CPUs
        // it keeps busy at once (a quota: without it, a bot's busy children took its opponent's
        // CPU on the wall clock until the monitor saw them between answers); its processes are
        // capped by RLIMIT_NPROC of its own user. A build's box (sharing its owner's uid) gets a
        // `pids` cap instead of the quota.
        // Its disk operations are throttled too, where asked (`blkio` on v1, `io` on v2).
        let mut wanted: Vec<&str> =
            if launch.build { vec!["memory", "cpuacct", "pids"] } else { vec!["memory", "cpuacct"] };
        if !launch.build && limits.cpus > 0 {
            wanted.push("cpu");
        }
        if !launch.build && limits.disk_ops > 0 {
            wanted.extend(cgroup::DISK);
        }
        let group = match &self.cgroups {
            Some(roots) => Some(roots.make(limits, &wanted).map_err(|e| setup("the box's cgroups", e))?),
            None => None,
        };
        // Whether a memory cgroup holds all the box may take (its swap counted, or no swap).
        let holds_memory = group.as_ref().is_some_and(cgroup::BoxGroup::holds_memory);
        // A box whose memory no cgroup limits: the monitor (a build's loop) counts what its
        // sockets hold (the kernel charges them to a memory cgroup, swap counted or not). A
        // build's box had none: a build held 133 MiB in the queues of 300 socket pairs under a
        // `build_memory_mb` of 64.
        let (meter, meter_end) = if group.as_ref().is_some_and(cgroup::BoxGroup::limits_memory) {
            (None, None)
        } else {
            let (meter, end) = sockets::Meter::new().map_err(|e| setup("the box's socket meter", e))?;
            (Some(meter), Some(end))
        };
        let mut view = View::new(&self.box_root, self.root);
        for dir in SYSTEM {
            view.system(Path::new(dir))?;
        }
        // (A build's memory is the kernel's to hold where a memory cgroup limits it, the arena's
        // sum of its processes otherwise, which sees neither a memfd file nor `/dev/zero` mapped
        // shared: such a box gets the filters and the `/dev/zero` a bot's box without one gets.)
        let memory_held =
            if launch.build { group.as_ref().is_some_and(cgroup::BoxGroup::limits_memory) } else { holds_memory };
        view.devices(memory_held)?;
        let scratch_owner = ids.unwrap_or((0, 0));
        view.scratch(limits.tmp_mb, scratch_owner)?;
        // After the scratch space, as the bot's folder: a toolchain kept under /tmp is bound on
        // top of the box's own /tmp (bound before it, it was hidden, and the folders made for
        // what came after were missing: no build could start).
        for (_, dir) in &toolchains {
            view.system(dir)?;
        }
        // A build of a folder root owns runs as uid 0 (without a capability), which
        // `mask_private` stands in for (see below).
        let root_build = launch.build && ids.is_some_and(|(uid, _)| uid == 0);
        if let Some((_, dir)) = toolchains.iter().find(|(var, _)| *var == "CARGO_HOME").filter(|_| masked) {
            for name in CARGO_CREDENTIALS {
                view.hide(dir, name);
            }
            for name in CARGO_LOCKS {
                view.own_lock(dir, name);
            }
            view.mask_cargo_secrets(dir, root_build);
        }
        // A build of a folder root owns runs as uid 0 (without a capability): the owner of the
        // system's secrets, which no other box may read.
        if root_build {
            let system = SYSTEM.iter().map(|d| (PathBuf::from(d), usize::MAX));
            view.mask_private(&system.chain(toolchains.iter().map(|(_, d)| (d.clone(), 1))).collect::<Vec<_>>());
        } else if !self.root {
            // Not root: every box (bot or build) runs in a user namespace as the arena's user,
            // with its supplementary groups, which the kernel still grants though the box shows
            // them as `nogroup` (an unprivileged user namespace must deny `setgroups` before its
            // gid map is written, and `setgroups` needs `CAP_SETGID` over the groups' namespace:
            // no process of an ordinary user can drop them). A bot read a course group's grading
            // file in `/etc` (0640), and what the teacher owns there (0600): the system's folders
            // now show it only what any user may read, as a bot of a root arena sees them. (The
            // toolchains of a build are its own user's, which it runs as, by design: only their
            // credentials are hidden, see `CARGO_CREDENTIALS` and `View::mask_cargo_secrets`.)
            view.mask_private(&SYSTEM.iter().map(|d| (PathBuf::from(d), usize::MAX)).collect::<Vec<_>>());
        }
        if let Some(dir) = &folder {
            view.bind(dir, dir, launch.build).map_err(SandboxError::into_the_bots)?;
            // (After the folder, on top of it.)
            for name in launch.read_only.iter().filter(|_| launch.build) {
                view.read_only_entry(dir, name).map_err(SandboxError::into_the_bots)?;
            }
        }
        for path in named_paths(&cwd, launch.words) {
            if !view.covers(&path) {
                if self.root && !readable_by_others(&path) {
                    return Err(SandboxError::Files(format!(
                        "{} is not readable by others, so a box cannot read it: make it readable (chmod o+r), \
                         or give the bot a folder",
                        path.display()
                    )));
                }
                view.bind(&path, &path, false).map_err(SandboxError::into_the_bots)?;
            }
        }
        view.workdir(&cwd)?;
        view.proc()?;
        let user_maps = (!self.root).then(|| {
            // SAFETY: getuid/getgid have no preconditions.
            let (u, g) = unsafe { (libc::getuid(), libc::getgid()) };
            (cstring(format!("0 {u} 1")), cstring(format!("0 {g} 1")))
        });
        let namespaces =
            libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
        let plan = Plan {
            parent: std::process::id() as libc::pid_t,
            cgroup_procs: group.iter().flat_map(|g| g.procs_files()).map(|p| cpath(&p)).collect(),
            user_maps,
            namespaces,
            root: cpath(&self.box_root),
            ops: view.ops,
            masks: view.masks,
            root_flags: libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            cwd: cpath(&cwd),
            rlimits: {
                let mut r = rlimits(limits, uncapped(holds_memory, strict_overcommit()));
                // Its own user (a box uid, or the user namespace's): the cap counts its processes.
                if !launch.build {
                    r.push((libc::RLIMIT_NPROC, limits.processes, limits.processes));
                    r.extend_from_slice(&USER_COUNT_SHARES);
                }
                r
            },
            ids,
            hostname: cstring("arena".to_string()),
            wipe: arena_strings(),
            filters: syscalls::filters(
                launch.build,
                memory_held,
                group.as_ref().is_some_and(cgroup::BoxGroup::counts_cpu),
            ),
            meter: meter_end.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd),
        };
        // A path through `..` names folders the box may not hold (only the file is bound): the
        // box is given the path the file is bound at.
        let in_box = |word: &String| -> String {
            let through_parent = Path::new(word).components().any(|c| c == std::path::Component::ParentDir);
            let path = normalize(&cwd.join(word));
            if through_parent && path.exists() {
                path.display().to_string()
            } else {
                word.clone()
            }
        };
        let mut command = std::process::Command::new(in_box(program));
        command.args(args.iter().map(in_box)).current_dir(&here).env_clear();
        let mut env = box_env(launch, "/scratch");
        if launch.build {
            let path = toolchains.iter().map(|(_, d)| format!("{}/bin:", d.display())).collect::<String>() + BOX_PATH;
            env.retain(|(k, _)| k != "PATH");
            env.push(("PATH".to_string(), path));
            for (var, dir) in &toolchains {
                env.push((var.to_string(), dir.display().to_string()));
            }
        }
        command.envs(env).envs(launch.env.iter().map(|(k, v)| (k, v)));
        // SAFETY: the hook only makes system calls on data prepared before the fork.
        unsafe {
            // (The meter's end lives with the command, closed in the arena once it is dropped.)
            let niced = launch.build;
            command.pre_exec(move || {
                let _end = &meter_end;
                if niced {
                    child::lower_priority();
                }
                child::enter(&plan)
            });
        }
        let counts_swap = counts_swap(holds_memory, cgroup::machine_swaps());
        let handle = BoxHandle {
            group,
            uid,
            leader: None,
            init: None,
            main: None,
            boxed: true,
            kept: false,
            keeper: None,
            memory_cap: limits.memory_mb.saturating_mul(1 << 20),
            counts_swap,
            peak_cpu: AtomicU64::new(0),
            ignoring_sigchld: AtomicI32::new(0),
            sockets: meter,
            host_sockets: None,
            counts_pipes: launch.build,
            bot_looks: sockets::BotLooks::default(),
            niced: launch.build,
            _scratch: None,
        };
        Ok((command, handle))
    }
}

/// Whether the monitor counts a box's swapped-out memory (`VmSwap`) with its resident memory:
/// on a machine with swap, wherever no memory cgroup holds the box: none, or one that limits
/// its memory but not its swap (the kernel swaps such a box out at its limit, and it goes on).
fn counts_swap(holds_memory: bool, machine_swaps: bool) -> bool {
    !holds_memory && machine_swaps
}

/// Where this process's command line and environment strings are in memory, from
/// /proc/self/stat (fields 48 to 51); zeros where unknown.
fn arena_strings() -> [(usize, usize); 2] {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = text.rfind(')').map_or("", |i| &text[i + 1..]);
    // After the name, field 3 is the first; arg_start is field 48.
    let f: Vec<usize> = after.split_whitespace().skip(45).take(4).filter_map(|x| x.parse().ok()).collect();
    match f[..] {
        [a0, a1, e0, e1] => [(a0, a1), (e0, e1)],
        _ => [(0, 0); 2],
    }
}

/// Whether a program runs a script named after it (whose folder then holds its modules).
pub fn is_interpreter(program: &str) -> bool {
    const INTERPRETERS: [&str; 9] = ["sh", "bash", "python", "python3", "node", "ruby", "perl", "java", "env"];
    INTERPRETERS.contains(&program) || program.starts_with("python3.")
}

/// The interpreter a script's extension names (`bot.py`: `python3`, `bot.sh`: `sh`), for the
/// hints that tell a student how to run one; `None` for other extensions.
pub fn interpreter_by_extension(program: &Path) -> Option<&'static str> {
    match program.extension()?.to_str()? {
        "py" => Some("python3"),
        "sh" => Some("sh"),
        "bash" => Some("bash"),
        "rb" => Some("ruby"),
        "js" => Some("node"),
        "pl" => Some("perl"),
        _ => None,
    }
}

fn setup(what: &str, source: std::io::Error) -> SandboxError {
    SandboxError::Setup { what: what.to_string(), source }
}

fn cstring(s: String) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

fn cpath(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes().iter().copied().filter(|&b| b != 0).collect::<Vec<u8>>()).unwrap_or_default()
}

/// The environment of a box: only what the protocol documents, a `PATH`, `HOME`, `LANG`.
fn box_env(launch: &Launch, home: &str) -> Vec<(String, String)> {
    let mut env = vec![
        ("PATH".to_string(), BOX_PATH.to_string()),
        ("HOME".to_string(), home.to_string()),
        ("TMPDIR".to_string(), "/tmp".to_string()),
        ("LANG".to_string(), "C.UTF-8".to_string()),
    ];
    if launch.build {
        env.push(("CARGO_NET_OFFLINE".to_string(), "true".to_string()));
    }
    env
}

/// The files of `CARGO_HOME` that hold the tokens of whoever runs the arena (crates.io's, a
/// private registry's): a build's box shows them empty (see [`View::hide`]); tokens and other
/// secrets written in its `config.toml` are taken out of it (see [`View::mask_cargo_secrets`]).
const CARGO_CREDENTIALS: [&str; 2] = ["credentials.toml", "credentials"];

/// The lock files of `CARGO_HOME` that cargo holds (`flock`) around reading its registry: a
/// build's box is shown its own (see [`View::own_lock`]).
const CARGO_LOCKS: [&str; 2] = [".package-cache", ".package-cache-mutate"];

/// The largest `config.toml` of `CARGO_HOME` a build's box is shown a copy of (without its
/// secrets; see [`View::mask_cargo_secrets`]); a larger one with a secret is shown empty.
const CARGO_CONFIG_COPY_MAX: usize = 256 << 10;

/// The keys of cargo's `[registry]` (and of each `[registries.<name>]`) that a build's box does
/// not show: tokens, and the credential providers that would be run to get one (with their
/// arguments, which may hold one).
const REGISTRY_SECRETS: [&str; 4] = ["token", "secret-key", "credential-provider", "global-credential-providers"];

/// Cargo's configuration `text` without what of the teacher's it may hold that a student's
/// build has no use for offline and must not read, with the keys removed (`None` where it holds
/// none; `Err` where it is not TOML, whether it holds one cannot be told): the registries' tokens
/// and credential providers ([`REGISTRY_SECRETS`], `[credential-alias]`), `http.proxy` (a URL
/// with a password in it), and `[env]` whole, which cargo sets for build scripts and rustc (a
/// `GITHUB_TOKEN` there reached a student's `build.rs`, and so its log): a student's build must
/// not depend on the teacher's own environment. The rest is kept, so that an offline build
/// still finds its sources (`[source]`, `[registries.<name>] index`), `[build]`, `[target]`,
/// `[profile]`, `[net]` and so on.
fn without_secrets(text: &str) -> Result<Option<(String, Vec<String>)>, toml::de::Error> {
    let mut config = text.parse::<toml::Table>()?;
    let mut keys = Vec::new();
    for table in ["env", "credential-alias"] {
        if config.remove(table).is_some() {
            keys.push(format!("[{table}]"));
        }
    }
    let mut take = |table: Option<&mut toml::Value>, at: &str, names: &[&str]| {
        let Some(table) = table.and_then(toml::Value::as_table_mut) else { return };
        for name in names {
            if table.remove(*name).is_some() {
                keys.push(format!("{at}.{name}"));
            }
        }
    };
    take(config.get_mut("http"), "http", &["proxy"]);
    take(config.get_mut("registry"), "registry", &REGISTRY_SECRETS);
    for (name, registry) in config.get_mut("registries").and_then(toml::Value::as_table_mut).into_iter().flatten() {
        take(Some(registry), &format!("registries.{name}"), &REGISTRY_SECRETS);
    }
    if keys.is_empty() {
        return Ok(None);
    }
    // (A table read from TOML is written back as TOML; were it not, nothing of it is shown.)
    Ok(Some((toml::to_string(&config).unwrap_or_default(), keys)))
}

/// What a plain build is given besides its folder (see `Sandbox::plain_command`).
struct PlainBuild {
    /// A folder of its own for its `HOME` and `TMPDIR` (a box's build has its `/scratch`):
    /// without it, the machine's `/tmp` was the build's, which Landlock then would not let it
    /// write, and which every other process of the machine shares.
    scratch: scratch::Scratch,
    /// The toolchains it may use, as a box's build ([`toolchains`]).
    toolchains: Vec<(&'static str, PathBuf)>,
    /// The `CARGO_HOME` it is given, in `scratch` (see [`plain_cargo_home`]), if there is one.
    cargo_home: Option<PathBuf>,
}

impl PlainBuild {
    /// Its environment besides [`box_env`]'s: `HOME` and `TMPDIR` its scratch folder, the
    /// toolchains' variables and their programs first on the `PATH`, as a box's build has.
    fn env(&self) -> Vec<(String, String)> {
        let scratch = self.scratch.path().display().to_string();
        let path = self.toolchains.iter().map(|(_, d)| format!("{}/bin:", d.display())).collect::<String>() + BOX_PATH;
        let mut env =
            vec![("HOME".to_string(), scratch.clone()), ("TMPDIR".to_string(), scratch), ("PATH".to_string(), path)];
        for (var, dir) in &self.toolchains {
            let dir = if *var == "CARGO_HOME" { self.cargo_home.as_ref().unwrap_or(dir) } else { dir };
            env.push((var.to_string(), dir.display().to_string()));
        }
        env
    }

    /// What of its toolchains it may read (the real folders: its `CARGO_HOME` links there).
    fn shown(&self) -> Vec<PathBuf> {
        self.toolchains.iter().flat_map(|(var, dir)| shown_of_toolchain(var, dir)).collect()
    }
}

/// A plain build's `scratch` folder (already given to the build's user `ids` where a root arena
/// runs it as its folder's owner) with its `CARGO_HOME`, and its toolchains.
fn plain_build(scratch: scratch::Scratch, ids: Option<(libc::uid_t, libc::gid_t)>) -> Result<PlainBuild, SandboxError> {
    let toolchains = toolchains();
    let cargo_home = match toolchains.iter().find(|(var, _)| *var == "CARGO_HOME") {
        Some((_, real)) => Some(
            plain_cargo_home(real, &scratch.path().join("cargo-home"))
                .map_err(|e| setup(&format!("the build's CARGO_HOME in {}", scratch.path().display()), e))?,
        ),
        None => None,
    };
    if let Some((uid, gid)) = ids {
        let mut made = Vec::new();
        if let Some(home) = &cargo_home {
            made.push(home.clone());
            made.extend(CARGO_LOCKS.iter().map(|name| home.join(name)));
            made.extend(["config.toml", "config"].iter().map(|name| home.join(name)).filter(|p| p.is_file()));
        }
        for path in made {
            std::os::unix::fs::lchown(&path, Some(uid), Some(gid))
                .map_err(|e| setup(&path.display().to_string(), e))?;
        }
    }
    Ok(PlainBuild { scratch, toolchains, cargo_home })
}

/// The `CARGO_HOME` of a plain build, made at `home` (in its scratch folder): what a box's build
/// is shown of the real one, `real`, as Landlock cannot show a file otherwise than it is. Each
/// entry of `real` is linked there but the teacher's tokens ([`CARGO_CREDENTIALS`]: left out),
/// its lock files (its own, empty: [`CARGO_LOCKS`]; a build that held the shared one stalled
/// every cargo of the teacher's) and its configuration (a copy without its secrets, see
/// [`without_secrets`]; none where it cannot be read, is not TOML, or is too large).
fn plain_cargo_home(real: &Path, home: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir(home)?;
    for entry in std::fs::read_dir(real)? {
        let name = entry?.file_name();
        let Some(text) = name.to_str() else { continue };
        if CARGO_CREDENTIALS.contains(&text) || CARGO_LOCKS.contains(&text) {
            continue;
        }
        if ["config.toml", "config"].contains(&text) {
            let file = real.join(&name);
            // (The teacher's file, a regular one only: nothing here waits on a FIFO.)
            if !std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= CARGO_CONFIG_COPY_MAX as u64) {
                continue;
            }
            let Ok(original) = std::fs::read_to_string(&file) else { continue };
            let copy = match without_secrets(&original) {
                Ok(None) => original,
                Ok(Some((copy, keys))) => {
                    tracing::debug!("{}: builds see it without {}", file.display(), keys.join(", "));
                    copy
                }
                Err(_) => continue,
            };
            std::fs::write(home.join(&name), copy)?;
            continue;
        }
        std::os::unix::fs::symlink(real.join(&name), home.join(&name))?;
    }
    for name in CARGO_LOCKS {
        std::fs::write(home.join(name), b"")?;
    }
    Ok(home.to_path_buf())
}

/// What of the toolchain `dir` (named by the variable `var`) a plain build confined by Landlock
/// may read: the whole folder, but for `CARGO_HOME`, whose entries are shown one by one but the
/// teacher's tokens ([`CARGO_CREDENTIALS`]), configuration and locks (the build's `CARGO_HOME`
/// has a copy of the one without its secrets, and locks of its own: [`plain_cargo_home`]).
fn shown_of_toolchain(var: &str, dir: &Path) -> Vec<PathBuf> {
    if var != "CARGO_HOME" {
        return vec![dir.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let hidden = |name: &str| {
        CARGO_CREDENTIALS.contains(&name) || CARGO_LOCKS.contains(&name) || ["config.toml", "config"].contains(&name)
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .filter(|n| !n.to_str().is_some_and(hidden))
        .map(|n| dir.join(n))
        .collect()
}

/// The toolchains a build may use (read-only): Rust's, where installed.
fn toolchains() -> Vec<(&'static str, PathBuf)> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut out = Vec::new();
    for (var, default) in [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")] {
        let dir = std::env::var_os(var).map(PathBuf::from).or_else(|| home.as_ref().map(|h| h.join(default)));
        if let Some(dir) = dir.filter(|d| d.is_dir()) {
            out.push((var, normalize(&dir)));
        }
    }
    out
}

/// What a bot's box may take of the counts the kernel keeps per user rather than per
/// namespace: signals queued by `sigqueue` (`RLIMIT_SIGPENDING`, 256) and bytes of POSIX
/// message queues (`RLIMIT_MSGQUEUE`, none: `mq_open` fails with `EMFILE`, as over the limit).
/// A user namespace's counts are added to its owner's as well, and checked there against the
/// limits its creator had: every box of an unprivileged arena counted for the arena's user, so
/// a bot that queued every signal its limit allowed (96,369 here), or made queues of every byte
/// (800 KiB), left none for its opponent's box, which then found its own `sigqueue` refused
/// (`EAGAIN`), or its `mq_open` (`EMFILE`): a channel between opponents (`tests/boxes.rs`).
/// With these shares all the boxes of a run together stay far under the user's limits. (A root
/// arena's boxes are users of their own already. A plain bot is not given them: it shares its
/// counts with every process of its user, and a small limit there is reached sooner.)
const USER_COUNT_SHARES: [(libc::__rlimit_resource_t, u64, u64); 2] =
    [(libc::RLIMIT_SIGPENDING, 256, 256), (libc::RLIMIT_MSGQUEUE, 0, 0)];

/// Whether the kernel refuses to promise more memory than it has (`vm.overcommit_memory` 2):
/// there what a process reserves counts against one limit for the whole machine, used or not,
/// so a box without an address-space cap could reserve it all, and its opponent's allocations
/// (and the arena's) would fail. Its boxes keep the cap even with a memory cgroup.
fn strict_overcommit() -> bool {
    static STRICT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STRICT.get_or_init(|| std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|t| t.trim() == "2"))
}

/// Whether a box's address space goes uncapped: only where a memory cgroup limits it, swap
/// included or none on the machine (`BoxGroup::holds_memory`), and not
/// under strict overcommit (see [`rlimits`], [`strict_overcommit`]).
fn uncapped(memory_cgroup: bool, strict_overcommit: bool) -> bool {
    memory_cgroup && !strict_overcommit
}

/// Resource limits as (resource, soft, hard). Without a memory cgroup (`memory_cgroup` false:
/// an unprivileged arena, a plain bot) the address space is capped per process at the box's
/// figure, the only limit the kernel enforces there (an allocation over it fails: a runtime's
/// abort, a `crash`). With one it is not capped: the cgroup limits the memory the box really
/// uses, and its OOM killer's kill is the count that makes a `memory` forfeit (a cap at the
/// box's figure failed the allocation first, and left no count), and no cap stops runtimes
/// that reserve more address space than they use (Java, Go, sanitizers). (The caller keeps the
/// cap under strict overcommit: [`strict_overcommit`].)
/// No real-time priority and no raised priority (`RLIMIT_RTPRIO`, `RLIMIT_NICE` 0), whatever
/// the arena was started with (a teacher in a group allowed them, such as `audio`): a bot
/// with either could take the CPU its opponent thinks on.
fn rlimits(limits: &SandboxLimits, memory_cgroup: bool) -> Vec<(libc::__rlimit_resource_t, u64, u64)> {
    let mb = 1024 * 1024;
    let mut out = vec![
        (libc::RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds.saturating_add(1)),
        (libc::RLIMIT_FSIZE, limits.file_size_mb.saturating_mul(mb), limits.file_size_mb.saturating_mul(mb)),
        (libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (libc::RLIMIT_CORE, 0, 0),
        (libc::RLIMIT_RTPRIO, 0, 0),
        (libc::RLIMIT_NICE, 0, 0),
    ];
    if !memory_cgroup {
        out.push((libc::RLIMIT_AS, limits.memory_mb.saturating_mul(mb), limits.memory_mb.saturating_mul(mb)));
    }
    out
}

/// Why `open_files` cannot be set on a bot's processes here, if it cannot: more than the system
/// allows any process (`fs.nr_open`), or more than this arena's own hard limit `hard` where it
/// may not raise it (`may_raise`: `CAP_SYS_RESOURCE`, which root in a container may lack, see
/// [`may_raise_hard_limits`]). Every bot then failed to start, saying only "Operation not
/// permitted".
fn open_files_out_of_reach(open_files: u64, hard: Option<u64>, may_raise: bool) -> Option<String> {
    let what = format!("the open files limit, {open_files} (--max-open-files, [limits] open_files),");
    let system = std::fs::read_to_string("/proc/sys/fs/nr_open").ok().and_then(|t| t.trim().parse::<u64>().ok());
    if let Some(max) = system.filter(|&max| open_files > max) {
        return Some(format!(
            "{what} is more than this system allows a process ({max}, fs.nr_open): give at most {max}"
        ));
    }
    let hard = hard.filter(|&h| h != libc::RLIM_INFINITY)?;
    (!may_raise && open_files > hard).then(|| {
        format!(
            "{what} is more than this arena's own hard limit ({hard}, `ulimit -Hn`), which it may not raise (only \
             with CAP_SYS_RESOURCE, which root has unless a container dropped it): give at most {hard}"
        )
    })
}

/// Why `processes` cannot be set on a bots' processes here, if it cannot: more than this
/// arena's own hard limit on its user's processes (`hard`, `RLIMIT_NPROC`), which it may not
/// raise (only with `CAP_SYS_RESOURCE`: root, unless a container dropped it, as Docker does).
/// Each bot's process sets its own limit to `processes` (see [`Sandbox::command`]), which then
/// failed, and every match with it, as the machine's fault ("its resource limits could not be
/// set: Operation not permitted"), after its builds and with nothing said up front.
fn processes_out_of_reach(processes: u64, hard: Option<u64>) -> Option<String> {
    let hard = hard.filter(|&h| h != libc::RLIM_INFINITY)?;
    (processes > hard && !may_raise_hard_limits()).then(|| {
        format!(
            "the bots' process limit, {processes} (--max-procs, `processes` in the config's [limits]), is more than \
             this arena's own hard limit on its user's processes ({hard}, `ulimit -Hu`), which it may not raise: every \
             bot would fail to start. Give at most {hard}, or raise the hard limit where the arena is started (as \
             root: `ulimit -u`, the `nproc` item of /etc/security/limits.conf, `LimitNPROC=` of a systemd unit, \
             `--ulimit nproc=` of a container)"
        )
    })
}

/// This process's own hard limit on `resource`, if it can be read.
fn own_hard_limit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut own = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes into the struct we own.
    (unsafe { libc::getrlimit(resource, &mut own) } == 0).then_some(own.rlim_max)
}

/// Whether this process may raise its hard resource limits: it has `CAP_SYS_RESOURCE` (root
/// has it, unless a container dropped it, as Docker does by default) in the machine's first user
/// namespace, the only one where the kernel lets it raise them (root in a user namespace of its
/// own, `unshare -r`, has it there and is refused, `EPERM`: a bot given a limit above the
/// arena's own could not start).
fn may_raise_hard_limits() -> bool {
    /// `CAP_SYS_RESOURCE`'s bit in the capability sets.
    const CAP_SYS_RESOURCE: u32 = 24;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let effective = status.lines().find_map(|l| l.strip_prefix("CapEff:"));
    effective.and_then(|caps| u64::from_str_radix(caps.trim(), 16).ok()).is_some_and(|c| c >> CAP_SYS_RESOURCE & 1 == 1)
        && initial_user_namespace()
}

/// The inode number the kernel gives the machine's first user namespace (`PROC_USER_INIT_INO`,
/// fixed since Linux 3.8), as `/proc/self/ns/user` shows it there.
const INITIAL_USER_NAMESPACE_INODE: u64 = 0xEFFF_FFFD;

/// Whether this process is in the machine's first user namespace, as the kernel says by the
/// inode of `/proc/self/ns/user` (true where there is none: a kernel without user namespaces).
/// Its uid map's text is no proof: a namespace of its own may map `0 0 4294967295` too, and
/// there a hard limit cannot be raised (`EPERM`).
fn initial_user_namespace() -> bool {
    match std::fs::metadata("/proc/self/ns/user") {
        Ok(meta) => meta.ino() == INITIAL_USER_NAMESPACE_INODE,
        Err(_) => std::fs::read_to_string("/proc/self/uid_map").is_err(),
    }
}

/// The arena's user namespace in words, for a refusal: its uid map (`/proc/self/uid_map`), one
/// range a line, joined by commas.
fn own_user_namespace_in_words() -> String {
    match std::fs::read_to_string("/proc/self/uid_map") {
        Ok(map) => {
            let ranges: Vec<String> =
                id_ranges(&map).iter().map(|(inside, outside, n)| format!("{inside} {outside} {n}")).collect();
            format!("/proc/self/uid_map: {}", ranges.join(", "))
        }
        Err(e) => format!("/proc/self/uid_map: {e}"),
    }
}

/// The ranges of a user namespace's id map (the text of `/proc/PID/uid_map` or `gid_map`):
/// each line's first id inside, first id outside and how many; lines that are not three
/// numbers are skipped.
fn id_ranges(map: &str) -> Vec<(u64, u64, u64)> {
    map.lines()
        .filter_map(|line| {
            let n: Vec<u64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            match n[..] {
                [inside, outside, count] if line.split_whitespace().count() == 3 => Some((inside, outside, count)),
                _ => None,
            }
        })
        .collect()
}

/// Whether each of the `count` ids from `first` is mapped by `map` (see [`id_ranges`]): only a
/// mapped id can be taken (`setresuid`) or given (`chown`, a tmpfs's `uid=`); any other is
/// refused with `EINVAL`.
fn maps_all(map: &str, first: u32, count: u32) -> bool {
    let ranges = id_ranges(map);
    let (mut next, end) = (u64::from(first), u64::from(first) + u64::from(count));
    while next < end {
        match ranges.iter().find(|&&(inside, _, n)| inside <= next && next < inside + n) {
            Some(&(inside, _, n)) => next = inside + n,
            None => return false,
        }
    }
    true
}

/// Why a root arena cannot run bots as the box users (uids and gids from [`FIRST_BOX_UID`],
/// [`BOX_UIDS`] of them) in this process's user namespace, or `None` where it can: one that maps
/// fewer (`unshare -r` maps only its own uid, as some rootless containers do) can neither run a
/// box as one nor give one a folder; one whose `/proc/self/setgroups` is `deny` maps them, but
/// refuses the `setgroups` that becoming one starts with (`EPERM`), so every bot failed. Nothing
/// is missing where the files cannot be read (a kernel without user namespaces).
fn box_users_missing() -> Option<String> {
    let range = format!("uids and gids {FIRST_BOX_UID} to {}", FIRST_BOX_UID + BOX_UIDS - 1);
    let unmapped = ["/proc/self/uid_map", "/proc/self/gid_map"]
        .iter()
        .any(|file| std::fs::read_to_string(file).is_ok_and(|map| !maps_all(&map, FIRST_BOX_UID, BOX_UIDS)));
    if unmapped {
        return Some(format!(
            "the box users ({range}) are not mapped in the arena's user namespace (/proc/self/uid_map, gid_map)"
        ));
    }
    let denied = std::fs::read_to_string("/proc/self/setgroups").is_ok_and(|s| s.trim() == "deny");
    denied.then(|| {
        format!(
            "the box users ({range}) are mapped in the arena's user namespace, but it denies setgroups \
             (/proc/self/setgroups), which becoming one of them needs"
        )
    })
}

/// `path` made absolute without touching the file system: `.` dropped, `..` taken back (as a
/// box takes the paths it binds).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

fn readable_by_others(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.mode() & 0o004 != 0 && (!m.is_dir() || m.mode() & 0o001 != 0))
}

/// The mount flags of the mount holding `path` that a bind mount of it must keep.
fn kept_flags(path: &Path) -> libc::c_ulong {
    let c = cpath(path);
    // SAFETY: statvfs writes into the struct we own.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    // The ST_* bits have the values of the MS_* flags.
    let keep = libc::MS_RDONLY
        | libc::MS_NOSUID
        | libc::MS_NODEV
        | libc::MS_NOEXEC
        | libc::MS_NOATIME
        | libc::MS_NODIRATIME
        | libc::MS_RELATIME;
    st.f_flag & keep
}

/// The files the command `words` names, run in `cwd` (the program, a script, a data file),
/// which a box shows it read-only: a script run by an interpreter brings its folder (its
/// modules).
fn named_paths(cwd: &Path, words: &[String]) -> Vec<PathBuf> {
    let Some(program) = words.first() else { return Vec::new() };
    let interpreted = Path::new(program).file_name().and_then(|n| n.to_str()).is_some_and(is_interpreter);
    let mut out = Vec::new();
    for word in words.iter().filter(|w| !w.is_empty() && !w.starts_with('-')) {
        let mut path = normalize(&cwd.join(word));
        if interpreted && word != program && path.is_file() {
            path = path.parent().map_or(path.clone(), Path::to_path_buf);
        }
        if path.exists() {
            out.push(path);
        }
    }
    out
}

/// Whether a box shows `path` as one of the system's (its folders bound whole, read-only), not
/// as a file of the bot's own: a path under `/usr`, `/bin`, `/etc`…
pub fn is_system(path: &Path) -> bool {
    SYSTEM.iter().any(|dir| path.starts_with(dir))
}

/// The host paths a bot's box shows it: the system's folders, its `folder`, and what its
/// command `words` name (see [`named_paths`]), resolved. What is under them, the bot may read:
/// a caller keeps what a bot must not see (a secret test's replay) elsewhere.
pub fn shown_paths(words: &[String], folder: Option<&Path>) -> Vec<PathBuf> {
    let here = std::env::current_dir().unwrap_or_default();
    let cwd = normalize(&folder.map_or(here.clone(), |f| here.join(f)));
    let system = SYSTEM.iter().map(PathBuf::from);
    let own = folder.map(|_| cwd.clone()).into_iter().chain(named_paths(&cwd, words));
    system.chain(own).map(|p| std::fs::canonicalize(&p).unwrap_or(p)).collect()
}

/// The box's file system view, as steps for the init.
struct View {
    root: PathBuf,
    ops: Vec<Op>,
    /// Directories made so far on the root tmpfs.
    made: BTreeSet<PathBuf>,
    /// Paths bound (whatever is under them is there already).
    bound: Vec<PathBuf>,
    /// Paths shown otherwise once the root is in place.
    masks: Vec<child::Mask>,
    /// Whether a mask's copy keeps its file's owner (see [`copy_of`]): a root arena whose box
    /// users are mapped; in a user namespace of the box's own, only the arena's user is.
    owners: bool,
}

impl View {
    fn new(root: &Path, owners: bool) -> View {
        let ops = vec![Op::Tmpfs {
            dst: cpath(root),
            data: cstring("size=1m,nr_inodes=4096,mode=0755".to_string()),
            flags: libc::MS_NOSUID | libc::MS_NODEV,
        }];
        View {
            root: root.to_path_buf(),
            ops,
            made: BTreeSet::from([PathBuf::from("/")]),
            bound: Vec::new(),
            masks: Vec::new(),
            owners,
        }
    }

    /// The host path of `inside` in the new root.
    fn at(&self, inside: &Path) -> PathBuf {
        self.root.join(inside.strip_prefix("/").unwrap_or(inside))
    }

    fn covers(&self, path: &Path) -> bool {
        self.bound.iter().any(|b| path.starts_with(b))
    }

    /// Makes `dir` and its missing parents on the root tmpfs.
    fn mkdirs(&mut self, dir: &Path) {
        if self.made.contains(dir) || self.covers(dir) {
            return;
        }
        if let Some(parent) = dir.parent() {
            self.mkdirs(parent);
        }
        self.ops.push(Op::Mkdir(cpath(&self.at(dir)), 0o755));
        self.made.insert(dir.to_path_buf());
    }

    /// A system directory, read-only (or a symbolic link, as on the host).
    fn system(&mut self, dir: &Path) -> Result<(), SandboxError> {
        let Ok(meta) = std::fs::symlink_metadata(dir) else { return Ok(()) };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(dir).map_err(|e| setup(&dir.display().to_string(), e))?;
            if let Some(parent) = dir.parent() {
                self.mkdirs(parent);
            }
            self.ops.push(Op::Symlink { target: cpath(&target), path: cpath(&self.at(dir)) });
            return Ok(());
        }
        self.bind(dir, dir, false)
    }

    /// Binds host `src` at `dst` in the box, read-only unless `writable`.
    fn bind(&mut self, src: &Path, dst: &Path, writable: bool) -> Result<(), SandboxError> {
        let real = std::fs::canonicalize(src).map_err(|e| setup(&src.display().to_string(), e))?;
        let is_dir = real.is_dir();
        if let Some(parent) = dst.parent() {
            self.mkdirs(parent);
        }
        let at = cpath(&self.at(dst));
        self.ops.push(if is_dir { Op::Mkdir(at.clone(), 0o755) } else { Op::File(at.clone()) });
        let mut flags = libc::MS_NOSUID | libc::MS_NODEV | kept_flags(&real);
        if !writable {
            flags |= libc::MS_RDONLY;
        }
        self.ops.push(Op::Bind { src: cpath(&real), dst: at, flags });
        self.bound.push(dst.to_path_buf());
        Ok(())
    }

    /// Shows the entry `name` of the folder `dir`, bound writable before, read-only (a file or a
    /// folder, whole). Only an entry of `dir` itself: a build could rename a folder between
    /// `dir` and a deeper one (only a mount point itself cannot be moved) and put one of its own
    /// in its place. A link is refused, not followed: the mount would land on its target, and the
    /// link, no mount point, could be swapped for a folder of the build's own (git then reads
    /// that). Bound on what is there, which the bind makes nothing for (a folder's mode kept).
    fn read_only_entry(&mut self, dir: &Path, name: &Path) -> Result<(), SandboxError> {
        let mut parts = name.components();
        let (Some(std::path::Component::Normal(_)), None) = (parts.next(), parts.next()) else {
            return Err(SandboxError::Files(format!("{} is no name of an entry of a folder", name.display())));
        };
        let path = dir.join(name);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(setup(&path.display().to_string(), e)),
        };
        if !meta.is_dir() && !meta.is_file() {
            let what = if meta.file_type().is_symlink() { "a symbolic link" } else { "neither a file nor a folder" };
            return Err(SandboxError::Files(format!(
                "{} is {what}: a build's box shows it read-only, which it cannot be so (a build could put \
                 one of its own in its place); make it a folder or a file",
                path.display()
            )));
        }
        let real = std::fs::canonicalize(&path).map_err(|e| setup(&path.display().to_string(), e))?;
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_RDONLY | kept_flags(&real);
        self.ops.push(Op::Bind { src: cpath(&real), dst: cpath(&self.at(&path)), flags });
        Ok(())
    }

    /// Shows `name` in the bound folder `dir` empty (`/dev/null` on a file, an empty folder on a
    /// folder, read-only), whatever it is: a link is followed in the box, to what a bot would
    /// read there. A build's box shows it the toolchains of whoever runs the arena, and cargo's
    /// `credentials.toml` among them: a student's build printed the teacher's crates.io token in
    /// its error, which the league's pages then showed to everyone (`tests/boxes.rs`); so did a
    /// `credentials.toml` that was a link to the file kept elsewhere.
    fn hide(&mut self, dir: &Path, name: &str) {
        self.masks.push(child::Mask { path: cpath(&dir.join(name)), copy: None });
    }

    /// Shows cargo's lock file `name` in `dir` as an empty file of the box's own: a student's
    /// build that held the shared one (`flock`, which needs no write access) stalled every cargo
    /// outside a box that uses this `CARGO_HOME` (the teacher's own, a `--sandbox none` build)
    /// until its time limit. Cargo in a box skips the lock of its read-only home, and needs no
    /// lock across boxes: none of them writes there.
    fn own_lock(&mut self, dir: &Path, name: &str) {
        let path = dir.join(name);
        // (The teacher's file, a regular one only.)
        let Ok(meta) = std::fs::metadata(&path) else { return };
        if !meta.is_file() {
            return;
        }
        self.masks.push(child::Mask { path: cpath(&path), copy: Some(copy_of(Vec::new(), &meta, self.owners)) });
    }

    /// Shows the cargo configuration files of `cargo_home` (`config.toml`, the older `config`)
    /// that hold a secret of the teacher's as a copy without it (see [`without_secrets`]): cargo
    /// reads `registry.token` and `[registries.<name>] token` there too, and a student's build
    /// printed the teacher's token into its log; cargo sets `[env]`'s variables for a build
    /// script, which can print a `GITHUB_TOKEN` there, or compile it into the bot, which prints
    /// it; `http.proxy` and the credential providers' arguments may hold passwords. The copy keeps everything else (an
    /// offline build still finds its sources and settings), and the file's owner and mode
    /// (whoever could not read it still cannot). One that is not TOML (or not UTF-8), or too
    /// large to copy, is shown empty. A private one (not `o+r`) is left to
    /// [`View::mask_private`] when `private_masked`: the copy would undo it.
    fn mask_cargo_secrets(&mut self, cargo_home: &Path, private_masked: bool) {
        for name in ["config.toml", "config"] {
            let file = cargo_home.join(name);
            // (The teacher's file, a regular one only: nothing here waits on a FIFO.)
            let Ok(meta) = std::fs::metadata(&file) else { continue };
            if !meta.is_file() || (private_masked && meta.mode() & 0o004 == 0) {
                continue;
            }
            let copy = match std::fs::read_to_string(&file).map(|text| without_secrets(&text)) {
                Ok(Ok(None)) => continue,
                Ok(Ok(Some((copy, keys)))) => {
                    tracing::debug!("{}: builds see it without {}", file.display(), keys.join(", "));
                    Some(copy).filter(|c| !c.is_empty() && c.len() <= CARGO_CONFIG_COPY_MAX)
                }
                Ok(Err(_)) | Err(_) => None,
            };
            let copy = copy.map(|c| copy_of(c.into_bytes(), &meta, self.owners));
            self.masks.push(child::Mask { path: cpath(&file), copy });
        }
    }

    /// Shows empty what, under the folders `dirs` (the system's, whole, and the toolchains', their
    /// own files and folders: `config.toml`, `settings.toml`, not the 100,000 files of the crates
    /// and toolchains below; each with how deep it is looked at, as the box binds them), only its
    /// owner or group may read: each such file has `/dev/null` bound on it
    /// and each such folder (one others may not enter) an empty tmpfs none may list, all
    /// read-only. For a build that runs as uid 0 (its folder is root's, the arena root): without a
    /// capability it is still the owner of root's files, and read `/etc/shadow` and the TLS key
    /// in `/etc/ssl/private` into its log (`tests/boxes.rs`). The box then shows it what any
    /// user may read, as a bot's box does. So does every box of an arena that is not root: it
    /// runs as the arena's user, with its supplementary groups (see `Sandbox::boxed_command`).
    /// The list is made once per folder and process (a walk of 134,000 entries on the machine of
    /// the tests, 0.4 to 0.6 s of CPU). Each is a [`child::Mask`], applied to what is there when
    /// the box starts: a private file gone since the walk (a lock or journal file, made and
    /// removed while a long run lives) is passed over, where a mount on it stopped every box
    /// after it ("its box's file system could not be built", CI's `tournaments`). Beneath the
    /// masks pushed before (cargo's own lock copies stay on top, as they were).
    fn mask_private(&mut self, dirs: &[(PathBuf, usize)]) {
        let private = private_of(dirs);
        let masks = private.iter().map(|(path, _)| child::Mask { path: cpath(path), copy: None }).collect::<Vec<_>>();
        self.masks.splice(0..0, masks);
    }

    /// `/dev` with the harmless devices and the usual links; no terminal. `/dev/zero` is the
    /// host's `with_zero`, else [`ZERO_UNMAPPED`] (see [`ZERO`]).
    fn devices(&mut self, with_zero: bool) -> Result<(), SandboxError> {
        let dev = Path::new("/dev");
        self.mkdirs(dev);
        let at = cpath(&self.at(dev));
        self.ops.push(Op::Tmpfs {
            dst: at,
            data: cstring("size=64k,nr_inodes=64,mode=0755".to_string()),
            flags: libc::MS_NOSUID | libc::MS_NOEXEC,
        });
        let zero = (ZERO, if with_zero { ZERO } else { ZERO_UNMAPPED });
        for (name, from) in DEVICES.iter().map(|&d| (d, d)).chain([zero]) {
            let host = dev.join(from);
            if !host.exists() {
                continue;
            }
            let at = cpath(&self.at(&dev.join(name)));
            self.ops.push(Op::File(at.clone()));
            let flags = libc::MS_NOSUID | libc::MS_NOEXEC | (kept_flags(&host) & !libc::MS_NODEV);
            self.ops.push(Op::Bind { src: cpath(&host), dst: at, flags });
        }
        for (name, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            self.ops.push(Op::Symlink { target: cstring(target.to_string()), path: cpath(&self.at(&dev.join(name))) });
        }
        self.ops.push(Op::Mkdir(cpath(&self.at(&dev.join("shm"))), 0o755));
        self.made.insert(dev.to_path_buf());
        self.bound.push(dev.to_path_buf());
        Ok(())
    }

    /// The private scratch space: one size-capped tmpfs at `/scratch` (`HOME`), with its
    /// `tmp` and `shm` folders bound at `/tmp` and `/dev/shm`, and its files capped too (see
    /// [`scratch_inodes`]).
    fn scratch(&mut self, mb: u64, (uid, gid): (u32, u32)) -> Result<(), SandboxError> {
        let scratch = Path::new("/scratch");
        self.mkdirs(scratch);
        let at = self.at(scratch);
        let mb = mb.max(1);
        self.ops.push(Op::Tmpfs {
            dst: cpath(&at),
            data: cstring(format!("size={mb}m,nr_inodes={},mode=0700,uid={uid},gid={gid}", scratch_inodes(mb))),
            flags: libc::MS_NOSUID | libc::MS_NODEV,
        });
        for sub in ["tmp", "shm"] {
            self.ops.push(Op::Mkdir(cpath(&at.join(sub)), 0o1777));
            self.ops.push(Op::Chown { path: cpath(&at.join(sub)), uid, gid });
        }
        // Not marked as bound: the bot's own files may be bound below /tmp on top of it (a bot
        // kept in a temporary folder on the host).
        self.made.insert(scratch.to_path_buf());
        for (src, dst) in [("tmp", "/tmp"), ("shm", "/dev/shm")] {
            let dst_at = self.at(Path::new(dst));
            if dst == "/tmp" {
                self.mkdirs(Path::new(dst));
            }
            self.ops.push(Op::Bind {
                src: cpath(&at.join(src)),
                dst: cpath(&dst_at),
                flags: libc::MS_NOSUID | libc::MS_NODEV,
            });
        }
        Ok(())
    }

    /// The working directory exists in the box.
    fn workdir(&mut self, cwd: &Path) -> Result<(), SandboxError> {
        self.mkdirs(cwd);
        Ok(())
    }

    fn proc(&mut self) -> Result<(), SandboxError> {
        let proc = Path::new("/proc");
        self.mkdirs(proc);
        self.ops.push(Op::Proc(cpath(&self.at(proc))));
        Ok(())
    }
}

/// How many files (inodes) a scratch space of `mb` MiB may hold: one per page (4 KiB) of its
/// cap, which files that hold data never reach before the cap itself (16,384 for a bot's 64 MiB,
/// 131,072 for a build's 512). Without it the kernel's default (some 3 million) applied, and
/// what the size cap does not count held the machine's memory: a bot held 870 MiB in 900,000
/// empty files, and 1154 MiB of extended attributes (`user.*`) in a box of 1024 MiB with 64 MiB
/// of scratch, none of it file data nor resident in its processes. tmpfs bounds its inodes and
/// their attributes together by 1 KiB an inode it may hold: 16 MiB for a bot's scratch.
fn scratch_inodes(mb: u64) -> u64 {
    mb.saturating_mul(256)
}

/// A mask's copy of a file of `meta` holding `bytes`: its mode, and with `owners` (a root arena
/// whose box users are mapped, see [`View::owners`]) its owner (otherwise the box's user owns
/// it, as the arena's user owns what it reads: in a box's user namespace of its own, no other
/// owner is mapped, and giving it one was refused).
fn copy_of(bytes: Vec<u8>, meta: &std::fs::Metadata, owners: bool) -> child::MaskCopy {
    let owner = owners.then(|| (meta.uid(), meta.gid()));
    (bytes, meta.mode(), owner)
}

/// What others may not read under the folders `dirs` (each with how deep it is looked at; see
/// [`private_paths`]), each with whether it is a folder: walked once per folder, depth and
/// process, for the masks of the boxes (see [`View::mask_private`]) and the Landlock rules of
/// the plain bots (see [`plain_system`]) alike.
fn private_of(dirs: &[(PathBuf, usize)]) -> Vec<(PathBuf, bool)> {
    // (Per folder and depth: a bot's box and a build's are given different folders.)
    type Found = std::collections::HashMap<(PathBuf, usize), Vec<(PathBuf, bool)>>;
    static PRIVATE: std::sync::Mutex<Option<Found>> = std::sync::Mutex::new(None);
    let mut found = PRIVATE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let found = found.get_or_insert_with(Found::new);
    for dir in dirs {
        found.entry(dir.clone()).or_insert_with(|| private_paths(&dir.0, dir.1));
    }
    dirs.iter().filter_map(|dir| found.get(dir)).flatten().cloned().collect()
}

/// The system's folders as a plain bot or build is shown them: their real paths (`/bin` is
/// `/usr/bin` on most systems), none below another.
fn system_real() -> Vec<PathBuf> {
    let mut real: Vec<PathBuf> =
        SYSTEM.iter().filter_map(|d| std::fs::canonicalize(d).ok()).filter(|p| p.is_dir()).collect();
    real.sort();
    real.dedup();
    let kept = real.clone();
    real.retain(|p| !kept.iter().any(|other| other != p && p.starts_with(other)));
    real
}

/// What of the system's folders a plain bot or build that runs as the arena's user may read:
/// all but what others may not ([`confine::System`]), from the walk a box's masks are made of
/// (one walk serves both), made once per process, when the first such bot starts. An entry made
/// since, under a folder that held a private one, is not shown; under a folder shown whole, it
/// is, private or not (a rule covers all below its folder; a box's masks are no different); one
/// gone since is passed over.
fn plain_system() -> &'static confine::System {
    static SYSTEM_SHOWN: std::sync::OnceLock<confine::System> = std::sync::OnceLock::new();
    SYSTEM_SHOWN.get_or_init(|| {
        let real = system_real();
        let dirs = real.iter().map(|d| (d.clone(), usize::MAX)).collect::<Vec<_>>();
        let private = private_of(&dirs).into_iter().map(|(path, _)| path).collect();
        let shown = confine::System::without(&real, &private);
        tracing::debug!(whole = shown.whole.len(), listed = shown.listed.len(), "a plain bot's system folders");
        shown
    })
}

/// The files and folders under `dir` (down to `depth`) that others may not read (a file
/// without `o+r`, a folder without `o+x`, or one this user may not list), each with whether it
/// is a folder; nothing below such
/// a folder, and no link followed (a `dir` that is a link is the box's link too: skipped).
/// Each entry's kind comes from its folder's listing and its mode from a look-up relative to the
/// folder, not from its whole path: the system's folders hold 130,000 entries or more (0.5 s of
/// the arena's CPU at each start of an arena that is not root, by whole paths).
fn private_paths(dir: &Path, depth: usize) -> Vec<(PathBuf, bool)> {
    let mut out = Vec::new();
    let Ok(meta) = std::fs::symlink_metadata(dir) else { return out };
    if !meta.is_dir() {
        return out;
    }
    if meta.mode() & 0o001 == 0 {
        out.push((dir.to_path_buf(), true));
        return out;
    }
    let mut todo = vec![(dir.to_path_buf(), 0)];
    while let Some((folder, level)) = todo.pop() {
        if level >= depth {
            continue;
        }
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            // (Gone since it was listed: nothing in it to hide.)
            Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => continue,
            // A folder others may enter but this user may not list (`0711`, another user's):
            // what it holds cannot be looked at, so it is hidden whole (a file in it only this
            // user may read was shown to a plain bot, and in a box).
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                out.push((folder, true));
                continue;
            }
            // (Another error, the machine's for a moment, such as no descriptor left, would hide
            // a system folder whole for the process's life, and every plain bot fail: said.)
            Err(e) => {
                tracing::warn!(folder = %folder.display(), "the walk for the system's private files cannot list it: {e}");
                continue;
            }
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            if !kind.is_dir() && !kind.is_file() {
                continue;
            }
            let Ok(meta) = entry.metadata() else { continue };
            if kind.is_dir() && meta.mode() & 0o001 == 0 {
                out.push((entry.path(), true));
            } else if kind.is_dir() {
                todo.push((entry.path(), level + 1));
            } else if meta.mode() & 0o004 == 0 {
                out.push((entry.path(), false));
            }
        }
    }
    out
}

/// Who a box's process runs as: its uid and gid, and the claim on a box uid it holds.
type RunAs = (Option<(u32, u32)>, Option<UidClaim>);

/// A box uid, held (by a lock file) while its box runs, so that no two boxes on this machine
/// share one, whichever arena made them.
#[derive(Debug)]
struct UidClaim {
    uid: u32,
    _lock: std::fs::File,
    /// Its claim where older root arenas claimed theirs (see [`OLD_ROOT_CLAIMS`]).
    _old: Option<std::fs::File>,
}

/// The folder of `$TMPDIR` where root arenas before `/run/arena` claimed their box uids (one
/// file per uid, as [`try_claim`] does): a root arena also claims each uid there, so that an
/// older one still running (a league during an upgrade) cannot give its box the same uid. An
/// older arena took only a folder of root's alone, as [`own_folder`] does: where that folder is
/// another user's, it could claim nothing there.
const OLD_ROOT_CLAIMS: &str = "arena-box-uids";

/// An advisory lock on the file `path` (made if missing, readable by its user only; a link is
/// not followed, nor anything but a file taken), taken without waiting: `None` when another
/// open file holds it or it cannot be opened. Held until the returned file is dropped (or its process ends, `kill -9` too):
/// processes that share a folder of such files claim one each (box uids, `referee::cpus`'s CPUs).
pub fn try_claim(path: &Path) -> Option<std::fs::File> {
    claim_or_held(path).ok().flatten()
}

/// `dir`, made if missing, if it is a folder of this user's that no one else may write in (not a
/// link), in a folder where no one else may move it ([`safe_parent`]): in another user's, they
/// could steer the claims ([`try_claim`]) or take one away, or, as the boxes' root, send the
/// box's set-up through their links.
pub fn own_folder(dir: &Path) -> Option<PathBuf> {
    checked_folder(dir).map_err(|why| tracing::debug!("{why}")).ok()
}

/// [`own_folder`], or why `dir` is not a folder of this user's alone, naming it.
fn checked_folder(dir: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    let parent = dir.parent().map_or(Path::new("/"), |p| if p.as_os_str().is_empty() { Path::new(".") } else { p });
    safe_parent(parent)?;
    let _ = std::fs::DirBuilder::new().mode(0o700).create(dir);
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let why = if meta.file_type().is_symlink() {
        "a link, not a folder".to_string()
    } else if !meta.is_dir() {
        "not a folder".to_string()
    } else if meta.uid() != me {
        another_users(meta.uid())
    } else if meta.mode() & 0o022 != 0 {
        format!("a folder others may write in (mode {:o})", meta.mode() & 0o7777)
    } else {
        return Ok(dir.to_path_buf());
    };
    Err(format!("{}: {why}", dir.display()))
}

/// "The folder of another user", `uid`'s, in words; where this process's user namespace does
/// not map `uid` (the kernel shows the owners it does not map as the overflow uid, 65534: under
/// `unshare -r` run by a user who is not root, `/tmp` is root's, and shown so), with what to do.
fn another_users(uid: u32) -> String {
    let unmapped = std::fs::read_to_string("/proc/self/uid_map").is_ok_and(|map| !maps_all(&map, uid, 1));
    let hint = if unmapped {
        ", shown so as its owner is not mapped in the arena's user namespace (any user outside it, root \
         or another): give TMPDIR a folder of the arena's user"
    } else {
        ""
    };
    format!("the folder of another user (uid {uid}){hint}")
}

/// Whether no one but this user (and root) may move or replace what is in `folder`: it is this
/// user's or root's, and only its owner may write in it, or it is sticky (as `/tmp`: only an
/// entry's owner may move it). A folder of this user's that its own group may write in counts
/// when that group is the user's own (as a folder made under the umask 002 of systems that give
/// each user a group of their own).
fn safe_parent(folder: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    // SAFETY: geteuid and getegid have no preconditions and cannot fail.
    let (me, my_group) = unsafe { (libc::geteuid(), libc::getegid()) };
    let mode = meta.mode();
    let sticky = mode & 0o1000 != 0;
    let group_writes = mode & 0o020 != 0 && !(meta.uid() == me && meta.gid() == my_group && group_of_one(me, my_group));
    if !meta.is_dir() {
        Err(format!("{}: not a folder", folder.display()))
    } else if meta.uid() != me && meta.uid() != 0 {
        Err(format!("{}: {}", folder.display(), another_users(meta.uid())))
    } else if (mode & 0o002 != 0 || group_writes) && !sticky {
        Err(format!(
            "{}: a folder others may write in, not sticky as /tmp is (mode {:o}), so they could replace what \
             the arena makes there",
            folder.display(),
            mode & 0o7777
        ))
    } else {
        Ok(())
    }
}

/// Whether the group `gid` is taken for the user `uid`'s own, as [`group_alone`] decides from
/// the system's user database: its members (`/etc/group`) and every user's primary group
/// (`/etc/passwd`), where the database can be read whole ([`primary_groups`]). A primary group
/// students share (`users`) is not; nor is a group another user was given as theirs (`useradd -g
/// alice bob`): bob could move what the arena makes in alice's folder that it may write.
fn group_of_one(uid: u32, gid: u32) -> bool {
    uid == gid && group_alone(uid, gid, group_lists_members(gid), primary_groups().as_deref())
}

/// Whether the group `gid` is the user `uid`'s alone: numbered as the user (as systems that give
/// each user a group of their own do), listing no member (`listed`: `None` where the group could
/// not be read), and no other user's primary group (`accounts`, each user's uid and primary
/// gid: `None` where the user database cannot be read whole, which is not a group of one).
fn group_alone(uid: u32, gid: u32, listed: Option<bool>, accounts: Option<&[(u32, u32)]>) -> bool {
    uid == gid
        && listed == Some(false)
        && accounts.is_some_and(|all| all.iter().all(|&(user, primary)| primary != gid || user == uid))
}

/// Whether the group `gid` lists members; `None` where it cannot be read. A group the system
/// does not name lists none.
fn group_lists_members(gid: u32) -> Option<bool> {
    // SAFETY: a zeroed `group` is a valid value for getgrgid_r to fill.
    let mut group: libc::group = unsafe { std::mem::zeroed() };
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    let mut found: *mut libc::group = std::ptr::null_mut();
    // SAFETY: getgrgid_r fills `group` from `buffer`, both ours and alive while it is read.
    let code = unsafe { libc::getgrgid_r(gid, &mut group, buffer.as_mut_ptr(), buffer.len(), &mut found) };
    if code != 0 {
        return None;
    }
    if found.is_null() {
        return Some(false);
    }
    // SAFETY: `gr_mem` is a NULL-ended array of C strings in `buffer`, read while it lives.
    Some(unsafe { !group.gr_mem.is_null() && !(*group.gr_mem).is_null() })
}

/// Every user of the system's database, as (uid, primary gid), or `None` where it cannot be
/// read whole: a source that lists only some of its users, or none (`sss`, `ldap`, `nis`,
/// `winbind` in `/etc/nsswitch.conf`, see [`enumerates_every_user`]), or an error.
fn primary_groups() -> Option<Vec<(u32, u32)>> {
    let nsswitch = std::fs::read_to_string("/etc/nsswitch.conf").ok();
    if !enumerates_every_user(nsswitch.as_deref()) {
        return None;
    }
    // (`getpwent_r` keeps one place in the database for the whole process.)
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut all = Vec::new();
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: setpwent has no preconditions; the lock keeps other readers of this process out.
    unsafe { libc::setpwent() };
    let read = loop {
        // SAFETY: a zeroed `passwd` is a valid value for getpwent_r to fill.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: getpwent_r fills `entry` from `buffer`, both ours and alive while it is read.
        let code = unsafe { libc::getpwent_r(&mut entry, buffer.as_mut_ptr(), buffer.len(), &mut found) };
        match code {
            0 if !found.is_null() => all.push((entry.pw_uid, entry.pw_gid)),
            // (The end, said as no entry or as ENOENT.)
            0 | libc::ENOENT => break true,
            // An entry too long for the buffer: read again, the same entry, with a larger one.
            libc::ERANGE if buffer.len() < 1 << 20 => buffer.resize(buffer.len() * 2, 0),
            _ => break false,
        }
    };
    // SAFETY: endpwent has no preconditions.
    unsafe { libc::endpwent() };
    read.then_some(all)
}

/// Whether the user database that `nsswitch` names (the text of `/etc/nsswitch.conf`, `None`
/// without one) lists every user when read whole: only from sources that list all they hold (`files`,
/// `compat`, `systemd`, `extrausers`, `db`; glibc reads `files` without the line). A directory
/// service (`sss`, `ldap`, `nis`, `winbind`…) may list none of its users, or some.
fn enumerates_every_user(nsswitch: Option<&str>) -> bool {
    let lines = nsswitch.into_iter().flat_map(str::lines);
    let mut lines = lines.filter_map(|l| l.split('#').next().unwrap_or_default().trim().strip_prefix("passwd:"));
    // (Where it has the line twice, each must: whichever the C library reads.)
    lines.all(|sources| {
        // (Skipping the actions, `[NOTFOUND=return]`, which may hold spaces.)
        let mut words = Vec::new();
        let mut depth = 0usize;
        for word in sources.split_whitespace() {
            if word.starts_with('[') {
                depth += 1;
            }
            if depth == 0 {
                words.push(word);
            }
            if word.ends_with(']') {
                depth = depth.saturating_sub(1);
            }
        }
        let known = ["files", "compat", "systemd", "extrausers", "db"];
        !words.is_empty() && words.iter().all(|w| known.contains(w))
    })
}

/// The folder `name` of what this user's arenas share on the machine (the boxes' root, the box
/// uids' and the CPUs' claims), a folder of this user's alone ([`own_folder`]), or why there is
/// none. As root it is in `/run/arena` where `/run` is root's alone: only root may write there,
/// so no other user can make it first, and every root arena finds the same one whatever its
/// `$TMPDIR` (two with their own would give two boxes one uid). Otherwise (or where `/run` is
/// not root's alone, as in some containers) `$TMPDIR/arena-<name>-<uid>`.
pub fn shared_folder(name: &str) -> Result<PathBuf, String> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let run = Path::new("/run");
    let root_only = |m: std::fs::Metadata| m.is_dir() && m.uid() == 0 && m.mode() & 0o022 == 0;
    if me == 0 && std::fs::symlink_metadata(run).is_ok_and(root_only) {
        if let Some(arena) = own_folder(&run.join("arena")) {
            return checked_folder(&arena.join(name));
        }
    }
    checked_folder(&std::env::temp_dir().join(format!("arena-{name}-{me}")))
}

/// The folder boxes are made on: `shared` ([`shared_folder`]), else (another user made that
/// path first, or may write where it is) a new folder of this run's own, in `$TMPDIR` or, where
/// others may replace what is made there, in `/tmp`, said with a warning once a process. The
/// box's set-up makes its folders and links by path under it, as root too: in a folder another
/// user holds, they could send those steps through their links.
fn box_root(shared: Result<PathBuf, String>) -> Result<(PathBuf, Option<tempfile::TempDir>), String> {
    let why = match shared {
        Ok(dir) => return Ok((dir, None)),
        Err(why) => why,
    };
    let tmp = std::env::temp_dir();
    let base = if safe_parent(&tmp).is_ok() { tmp } else { PathBuf::from("/tmp") };
    safe_parent(&base).map_err(|e| format!("{why}; and for a folder of this run's own, {e}"))?;
    let fresh = tempfile::Builder::new()
        .prefix("arena-box-root-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir_in(&base)
        .map_err(|e| format!("{why}; and a folder of this run's own in {}: {e}", base.display()))?;
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        tracing::warn!("the boxes' usual folder is not this user's alone ({why}): boxes are made in folders of each run's own, such as {}", fresh.path().display())
    });
    Ok((fresh.path().to_path_buf(), Some(fresh)))
}

impl UidClaim {
    fn take() -> Result<UidClaim, SandboxError> {
        let dir = shared_folder("box-uids").map_err(|why| {
            setup("the box uid locks", std::io::Error::other(format!("{why} (another user made it): remove it")))
        })?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let old = root.then(|| own_folder(&std::env::temp_dir().join(OLD_ROOT_CLAIMS))).flatten();
        UidClaim::take_in(&dir, old.as_deref())
    }

    /// A uid claimed in `dir`, and in `old` ([`OLD_ROOT_CLAIMS`]) unless another holds it
    /// there: a uid an older arena holds is passed over. (Where the file cannot be made there,
    /// as on a full disk, the claim in `dir` is enough: no older arena could make it either.)
    fn take_in(dir: &Path, old: Option<&Path>) -> Result<UidClaim, SandboxError> {
        let start = std::process::id() % BOX_UIDS;
        for k in 0..BOX_UIDS {
            let uid = FIRST_BOX_UID + (start + k) % BOX_UIDS;
            let Some(file) = try_claim(&dir.join(uid.to_string())) else { continue };
            let old = match old.map(|old| claim_or_held(&old.join(uid.to_string()))) {
                Some(Err(Held)) => continue,
                Some(Ok(old)) => old,
                None => None,
            };
            return Ok(UidClaim { uid, _lock: file, _old: old });
        }
        Err(setup("a box uid", std::io::Error::other("all box uids are in use")))
    }
}

/// Another process holds a claim ([`claim_or_held`]).
#[derive(Debug)]
struct Held;

/// [`try_claim`], telling a claim another holds (`Err`) from one that cannot be made (`Ok(None)`:
/// the file cannot be opened, or is no file).
fn claim_or_held(path: &Path) -> Result<Option<std::fs::File>, Held> {
    use std::os::unix::fs::OpenOptionsExt;
    let opened = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let Ok(file) = opened.map_err(|e| tracing::debug!("{}: {e}", path.display())) else { return Ok(None) };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    // SAFETY: flock on a descriptor we own.
    let locked = unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX | libc::LOCK_NB) };
    match std::io::Error::last_os_error().raw_os_error() {
        _ if locked == 0 => Ok(Some(file)),
        Some(libc::EWOULDBLOCK) => Err(Held),
        _ => Ok(None),
    }
}

impl BoxHandle {
    /// Records the spawned process (the box's supervisor, the plain bot's keeper, or the bot).
    pub fn started(&mut self, pid: u32) {
        let pid = pid as i32;
        self.leader = Some(pid);
        self.main = Some(pid);
        if self.niced {
            // (A box's session is its init's, the supervisor's child; a plain build's, its
            // keeper's, the process spawned.)
            let session = if self.boxed { meter::first_child(pid) } else { Some(pid) };
            for said in not_niced(pid, session) {
                tracing::warn!(
                    pid,
                    "{said}: on a loaded machine, the look at its memory may wait for the CPU behind it"
                );
            }
        }
        if self.kept {
            // (Spawning returns once the bot has started: the keeper has forked it.)
            self.main = meter::first_child(pid);
            self.keeper = pidfd(pid);
        }
        if self.boxed {
            if let Some(init) = meter::first_child(pid) {
                self.main = meter::first_child(init);
                self.init = pidfd(init);
                // (Sent before the init was forked.)
                if let Some(sockets) = &self.sockets {
                    sockets.arrived();
                }
            }
        }
    }

    /// Whether the spawned process is a keeper, which ends what is left itself once
    /// [`BoxHandle::kill`] asks it to: it must not be killed before (see [`EXIT_GRACE`]).
    pub fn has_keeper(&self) -> bool {
        self.kept
    }

    /// What to do when the process could not be started with `error`, where the box knows: a
    /// plain bot of a root arena runs as a box user, who must be able to reach its program.
    pub fn start_hint(&self, error: &std::io::Error) -> Option<&'static str> {
        (!self.boxed && self.uid.is_some() && error.kind() == std::io::ErrorKind::PermissionDenied).then_some(
            "without a box, a root arena runs each bot as a user of its own: its program, and every folder \
             above it, must be readable by others: chmod o+rx",
        )
    }

    /// The process running the bot's program (in the host's PID namespace).
    pub fn main_pid(&self) -> Option<i32> {
        self.main
    }

    /// CPU time used by every process of the box so far: its cgroup's count, or without one
    /// the kernel's per-process times of the spawned process's tree (/proc), never less than
    /// an earlier reading (once the spawned process is reaped, its tree is gone from /proc).
    pub fn cpu_time(&self) -> Duration {
        let now = match self.group.as_ref().and_then(cgroup::BoxGroup::cpu_time) {
            Some(t) => t,
            None => self.leader.map_or(Duration::ZERO, |pid| {
                let walk = meter::walk(pid);
                self.note_ignoring_sigchld(&walk);
                walk.usage(None).cpu
            }),
        };
        self.at_least_the_peak(now)
    }

    /// A process of the box (its pid) that a look ([`BoxHandle::look`], [`BoxHandle::cpu_time`])
    /// found ignoring `SIGCHLD`, where the box's CPU time is the sum of its processes' (no cgroup
    /// counts it; read from the stat files those walks read anyway): the
    /// CPU time of the children the kernel then reaps itself is added to no process's, and goes
    /// uncounted (only the wall-clock backstops bound it). A process that asks for the same with
    /// `SA_NOCLDWAIT`, keeping a handler, is not seen: its stat shows no such mark.
    pub fn ignoring_sigchld(&self) -> Option<i32> {
        Some(self.ignoring_sigchld.load(Ordering::Relaxed)).filter(|&pid| pid != 0)
    }

    /// Keeps the first process of `walk` that ignores `SIGCHLD` (see
    /// [`BoxHandle::ignoring_sigchld`]).
    fn note_ignoring_sigchld(&self, walk: &meter::Walk) {
        if let Some(pid) = walk.ignoring_sigchld() {
            let _ = self.ignoring_sigchld.compare_exchange(0, pid, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// `now`, a reading of the box's CPU time, kept as the highest yet: the highest of all.
    fn at_least_the_peak(&self, now: Duration) -> Duration {
        let nanos = u64::try_from(now.as_nanos()).unwrap_or(u64::MAX);
        Duration::from_nanos(self.peak_cpu.fetch_max(nanos, Ordering::Relaxed).max(nanos))
    }

    /// Whether the box went over its memory limit (its cgroup's limit refused it memory, or, without
    /// a memory cgroup or with one that does not count swap, its processes hold more than the
    /// limit together, with what the monitor counts of what no resident set shows; a plain process's
    /// too, which never has a cgroup; never with the sandbox off).
    pub fn out_of_memory(&self) -> bool {
        self.out_of_memory_seen().0
    }

    /// [`BoxHandle::out_of_memory`], with what the walk of its processes saw where it made one.
    fn out_of_memory_seen(&self) -> (bool, Option<Seen>) {
        match &self.group {
            // A cgroup that does not count swap caps the resident memory only: what it swapped
            // out is counted with it, by the monitor ([`BoxHandle::counts_swap`]).
            Some(g) if g.limits_memory() => match g.out_of_memory() {
                true => (true, None),
                false if self.counts_swap => self.over_its_cap(),
                false => (false, None),
            },
            // A plain process (no box, kept) is summed as a box without a cgroup: each of its
            // processes under its address-space cap, 4 x 48 MiB held 192 MiB under 64 before.
            // (With the sandbox off, nothing.)
            _ if self.boxed || self.kept => self.over_its_cap(),
            _ => (false, None),
        }
    }

    /// Whether the box's memory is held to its cap by the arena's sum of its processes alone
    /// (see [`BoxHandle::out_of_memory`]): a plain process, or a box without a memory cgroup.
    /// A box whose cgroup limits its memory is held by the kernel (not looked at by this).
    pub fn memory_is_summed(&self) -> bool {
        (self.boxed || self.kept) && !self.group.as_ref().is_some_and(cgroup::BoxGroup::limits_memory)
    }

    /// The box's memory limit, in MiB (all its processes together).
    pub fn memory_limit_mb(&self) -> u64 {
        self.memory_cap >> 20
    }

    /// Whether the box's processes hold more than its cap together (resident, page tables and
    /// swapped out as [`BoxHandle::hidden`] says, with what its sockets hold where that is
    /// counted), and the look that says so (`None` without a leader).
    fn over_its_cap(&self) -> (bool, Option<Seen>) {
        let Some(pid) = self.leader else { return (false, None) };
        let seen = self.see(pid);
        (self.usage_and_over(&seen).1, Some(seen))
    }

    /// One look at the processes from `pid` down: their tree walked once (`meter::walk`), and
    /// what their descriptors hold ([`BoxHandle::in_buffers`]), read of the pids it found.
    fn see(&self, pid: i32) -> Seen {
        let walk = meter::walk(pid);
        let (found, held) = self.in_buffers(&walk.pids());
        Seen { walk, found, held }
    }

    /// What the processes `seen` use, and whether they hold more than the box's cap together
    /// with what its sockets (and a summed build's pipes) hold.
    fn usage_and_over(&self, seen: &Seen) -> (meter::Usage, bool) {
        let used = seen.walk.usage(self.hidden(seen.held));
        let over = used.memory().saturating_add(seen.held) > self.memory_cap;
        (used, over)
    }

    /// What the box's sockets hold, where the monitor counts it (no memory cgroup charges it:
    /// see `sockets`), with, where its memory is summed ([`BoxHandle::memory_is_summed`]: a
    /// build's or a bot's), what its pipes may hold (see `sockets::pipe_buffer`), and the
    /// kernel's objects behind each of its pipes and sockets (`sockets::KERNEL_OBJECTS`), its
    /// descriptors of no file (eventfds, epolls, ...), its epolls' watches and its file locks
    /// (`sockets::ANONYMOUS`, `WATCH`, `LOCK`); 0 elsewhere. The descriptors are walked once for
    /// all (`sockets::Descriptors`), those of `pids` (the look's walk of the tree), and the walk
    /// is returned where it was made: a build's reads every descriptor's `fdinfo` at every look,
    /// a bot's look (40 times a second) its epolls' only, and the rest now and then (see
    /// `sockets::BotLooks`, with its cost).
    fn in_buffers(&self, pids: &[i32]) -> (Option<sockets::Descriptors>, u64) {
        let found = match (self.memory_is_summed(), self.counts_pipes) {
            (true, true) => Some(sockets::Descriptors::of(pids)),
            (true, false) => Some(self.bot_looks.walk(pids)),
            (false, _) => None,
        };
        let pipes = found.as_ref().map_or(0, sockets::Descriptors::in_kernel);
        let sockets = match (&self.sockets, &self.host_sockets, &found) {
            (Some(meter), _, _) => meter.held().unwrap_or(0),
            (None, Some(host), Some(found)) => host.held_by(found).unwrap_or(0),
            _ => 0,
        };
        (found, sockets.saturating_add(pipes))
    }

    /// What of the box's memory the monitor counts beside its resident memory (see
    /// `meter::usage`): page tables, and swap where [`BoxHandle::counts_swap`], read where they
    /// could take it past its cap less `beside` (what its sockets hold, counted apart).
    fn hidden(&self, beside: u64) -> Option<meter::Hidden> {
        // (A build's box reads every descriptor's fdinfo: `counts_pipes`. Its look reads its
        // processes' maps whole, as it did: a build whose look takes too long is stopped.)
        let maps = if self.counts_pipes { u64::MAX } else { meter::maps_budget() };
        Some(meter::Hidden { cap: self.memory_cap.saturating_sub(beside), swap: self.counts_swap, maps })
    }

    /// The box's CPU time (as [`BoxHandle::cpu_time`], when `cpu`) and whether it is over its
    /// memory limit (as [`BoxHandle::out_of_memory`]): without a cgroup, from one walk of /proc
    /// for both, whose cost grows with the processes a bot keeps (the monitor's look, 40 times
    /// a second).
    pub fn look(&self, cpu: bool) -> (Option<Duration>, bool) {
        if let Some(slowed) = slowed_looks() {
            std::thread::sleep(slowed);
        }
        let (cpu, over, _) = self.look_seen(cpu);
        (cpu, over)
    }

    /// [`BoxHandle::look`], with the look at the box's processes it made (`None` where it made
    /// none: a memory cgroup holds the box).
    fn look_seen(&self, cpu: bool) -> (Option<Duration>, bool, Option<Seen>) {
        match (self.group.is_none() && (self.boxed || self.kept), self.leader) {
            (true, Some(pid)) => {
                let seen = self.see(pid);
                self.note_ignoring_sigchld(&seen.walk);
                let (used, over) = self.usage_and_over(&seen);
                let over = over || self.unseen_bot_process(&seen);
                (cpu.then(|| self.at_least_the_peak(used.cpu)), over, Some(seen))
            }
            _ => {
                let (over, seen) = self.out_of_memory_seen();
                (cpu.then(|| self.cpu_time()), over, seen)
            }
        }
    }

    /// One look at a build's box (its watch's): whether it is over its memory limit, and a process
    /// of it the arena may not look at (see `BoxHandle::unseen_in`), from one walk of its
    /// processes. Over its memory limit as [`BoxHandle::look`] says, but where its processes are
    /// summed ([`BoxHandle::memory_is_summed`]) and their resident sets together pass the limit,
    /// confirmed (when `proportional`) with each process's proportional share of its pages
    /// instead (its PSS, see `meter::Walk::proportional_usage`), read again at every look that
    /// needs it: a build that writes 300 MiB and then forks 3 processes that share those pages
    /// copy-on-write holds 300 MiB, not 1,200. (Bots are held to their resident sets: a bot's sum
    /// confirmed so, and trusted for a while, was gamed.)
    pub fn build_look(&self, proportional: bool) -> (bool, Option<(i32, String)>) {
        let (_, over, seen) = self.look_seen(false);
        let unseen = seen.as_ref().and_then(|seen| self.unseen_in(seen));
        let Some(seen) = seen.filter(|_| over && proportional && self.memory_is_summed()) else {
            return (over, unseen);
        };
        let used = seen.walk.proportional_usage(self.hidden(seen.held));
        (used.memory().saturating_add(seen.held) > self.memory_cap, unseen)
    }

    /// Whether a plain bot (not boxed, kept), whose descriptors are counted (what its sockets
    /// hold, the kernel's objects behind them: see [`BoxHandle::in_buffers`]), has a process the
    /// arena may not look at (see `BoxHandle::unseen_in`), said: its look counts it over its
    /// memory limit, which the monitor ends it for (a plain bot of an arena that is not root
    /// held 192 MiB in socket pairs under a limit of 64 so, behind a binary made execute-only).
    /// Read where the look found it within its limit, of what the look's walk of its descriptors
    /// was refused. A build's watch says why it stops one itself.
    fn unseen_bot_process(&self, seen: &Seen) -> bool {
        if self.counts_pipes {
            return false;
        }
        let Some((pid, name)) = self.unseen_in(seen) else { return false };
        tracing::warn!(
            pid,
            name = ?name,
            "a plain bot's process may not be looked at by the arena (it runs a binary made execute-only, \
             `chmod 111`, so it is not dumpable): what its descriptors hold (its sockets' data, its epolls' \
             watches, ...) cannot be counted; ended as over its memory limit"
        );
        true
    }

    /// A process of a plain build (or bot: not boxed, kept) that the arena may not look at, its
    /// pid and name (see `meter::unseen_of`), as the look `seen` found: its descriptors (the
    /// pipes and sockets it holds) and its proportional set cannot be read, and would go
    /// uncounted (a plain build of an arena that is not root held 198 MiB in socket buffers
    /// under a `build_memory_mb` of 64 so, behind a binary made execute-only). `None` elsewhere
    /// (a box's processes are the arena's to read in its user namespace, but for its own
    /// supervisor, not dumpable). Of the descriptor tables the look's walk of them was refused,
    /// or, where it walked none, of each one opened.
    fn unseen_in(&self, seen: &Seen) -> Option<(i32, String)> {
        if !self.kept || self.boxed {
            return None;
        }
        let pids = seen.walk.pids();
        match &seen.found {
            Some(found) => meter::unseen_of(&pids, |pid, tid| found.refused(pid, tid)),
            None => meter::unseen_of(&pids, meter::fd_denied),
        }
    }

    /// Kills every process of the box at once (the bot, its children, any daemon).
    pub fn kill(&self) {
        if let Some(fd) = &self.init {
            signal(fd, libc::SIGKILL);
        }
        if let Some(g) = &self.group {
            g.kill_all();
        }
        match self.leader {
            Some(keeper) if self.kept => {
                // Everything below the keeper at once, and the keeper ends whatever they start
                // meanwhile, then exits; nothing once it has exited.
                // (Without pidfds, by its pid.)
                if self.keeper.as_ref().is_some_and(|fd| !running(fd)) {
                    return;
                }
                for pid in meter::tree(keeper).into_iter().filter(|&p| p != keeper) {
                    // SAFETY: kill has no memory preconditions.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                match &self.keeper {
                    Some(fd) => signal(fd, libc::SIGTERM),
                    // SAFETY: as above.
                    None => unsafe {
                        libc::kill(keeper, libc::SIGTERM);
                    },
                }
            }
            Some(pid) if !self.boxed => {
                // SAFETY: kill has no memory preconditions; the bot leads its own group.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
            _ => {}
        }
    }

    /// Processes left in the box's cgroups (0 without cgroups).
    pub fn remaining(&self) -> usize {
        self.group.as_ref().map_or(0, |g| g.procs_files().iter().map(|f| count_lines(f)).sum())
    }

    /// Kills what is left, removes the cgroups and gives the uid back. Blocking (a few
    /// milliseconds): run it off the referee's thread.
    pub fn release(mut self) {
        self.kill();
        if let Some(g) = self.group.take() {
            g.remove();
        }
        self.uid.take();
    }
}

/// A pidfd of `pid`, where the kernel has them (5.3 and later).
fn pidfd(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a fresh descriptor that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Sends `sig` to the process of a pidfd (never to another that took its pid).
fn signal(fd: &OwnedFd, sig: libc::c_int) {
    // SAFETY: a pidfd we own; no memory is passed.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            std::os::fd::AsRawFd::as_raw_fd(fd),
            sig,
            std::ptr::null::<libc::c_void>(),
            0,
        );
    }
}

/// Whether the process of a pidfd has not exited yet (a pidfd is readable once it has).
fn running(fd: &OwnedFd) -> bool {
    let mut poll = libc::pollfd { fd: std::os::fd::AsRawFd::as_raw_fd(fd), events: libc::POLLIN, revents: 0 };
    // SAFETY: one pollfd we own, no wait.
    unsafe { libc::poll(&mut poll, 1, 0) == 0 }
}

/// What of a build's lowering failed, in words: its spawned process `pid` runs at no lower
/// priority than the arena (its nice value, see `child::lower_priority`); where the kernel groups
/// processes by session for the scheduler (autogroups, `/proc/sys/kernel/sched_autogroup_enabled`
/// 1), the autogroup of `session` (the process whose session the build runs in) has no higher
/// nice value than the arena's own (`/proc/PID/autogroup`, see `child::lower_autogroup`), and
/// the build shares the CPU with the arena's whole session as an equal. Nothing of what cannot be
/// read, nor where the arena's value is the lowest priority already (19).
fn not_niced(pid: i32, session: Option<i32>) -> Vec<String> {
    let mut said = Vec::new();
    if let (Some(own), Some(its)) = (child::nice_of(0), child::nice_of(pid)) {
        if its <= own && own < 19 {
            said.push(format!(
                "a build runs at the arena's priority, not a lower one (its nice value {its}, the arena's {own}: it \
                 could not be raised)"
            ));
        }
    }
    let autogroup = |file: &str| std::ffi::CString::new(file).ok().and_then(|f| child::autogroup_nice(&f));
    let session = session.filter(|_| child::autogroups().is_ok()).map(|pid| format!("/proc/{pid}/autogroup"));
    if let (Some(file), Some(own)) = (session, child::autogroup_nice(c"/proc/self/autogroup")) {
        if let Some(its) = autogroup(&file).filter(|&its| its <= own && own < 19) {
            said.push(format!(
                "a build's session has the arena's priority, not a lower one ({file}: nice {its}, the arena's \
                 autogroup: nice {own}; the kernel takes one such value a tenth of a second, and more builds were \
                 started together than it took in {} s): the scheduler shares the CPU between sessions as equals, \
                 whatever their processes' nice values",
                child::AUTOGROUP_WAIT_NS / 1_000_000_000
            ));
        }
    }
    said
}

fn count_lines(file: &Path) -> usize {
    std::fs::read_to_string(file).map_or(0, |s| s.lines().count())
}

/// The processes `uid` runs, each counted by its threads as the kernel's `RLIMIT_NPROC` counts
/// them (a user with a process of 600 threads left a limit of its processes and 512 no room).
fn user_process_count(uid: libc::uid_t) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    entries
        .flatten()
        .filter(|e| e.file_name().as_bytes().iter().all(u8::is_ascii_digit))
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
        .map(|e| e.file_name().to_str().and_then(|p| p.parse().ok()).and_then(meter::threads).unwrap_or(1))
        .sum()
}

/// Whether this kernel counts `RLIMIT_NPROC` for each user namespace (Linux 5.14 on, its
/// "ucounts"): before, it counted every process of the real user, namespace or not, and a plain
/// bot held to its own processes alone in its namespace could not start where its user ran more.
fn nproc_counted_per_namespace() -> bool {
    static COUNTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COUNTED.get_or_init(|| {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        release_at_least(&release, (5, 14))
    })
}

/// Whether a kernel release (`6.18.44-fc-v1272`) is `at_least` (major, minor); false where it
/// cannot be read.
fn release_at_least(release: &str, at_least: (u64, u64)) -> bool {
    let mut numbers = release.trim().split(['.', '-']).map(|n| n.parse::<u64>().ok());
    match (numbers.next().flatten(), numbers.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) >= at_least,
        _ => false,
    }
}

fn warn_once(missing: &[String]) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        for m in missing {
            tracing::warn!("sandbox: {m} (use --require-sandbox to refuse to run like this)");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn kernel_releases_are_compared_by_major_and_minor() {
        assert!(release_at_least("6.18.44-fc-v1272\n", (5, 14)));
        assert!(release_at_least("5.14.0-284.el9.x86_64", (5, 14)));
        assert!(!release_at_least("5.10.0-28-amd64", (5, 14)));
        assert!(!release_at_least("4.19.0", (5, 14)));
        assert!(!release_at_least("", (5, 14)), "unread: the user's count, as before");
    }

    /// The box users are usable only where every one of them is inside a range the namespace
    /// maps: the machine's identity map and a rootless container's 65,536 ids hold them all,
    /// `unshare -r`'s one uid none, a range that ends among them some only; two ranges that
    /// meet hold them as one. Where a map cannot be read, nothing is known to be missing. The
    /// machine's first namespace is told by its whole identity map alone.
    #[test]
    fn box_users_are_mapped_only_where_each_one_is() {
        let all = |map: &str| maps_all(map, FIRST_BOX_UID, BOX_UIDS);
        assert!(all("         0          0 4294967295\n"));
        assert!(all("         0       1000          1\n         1     100000      65536\n"));
        assert!(!all("         0       1000          1\n"), "unshare -r");
        assert!(!all("0 100000 61000\n"), "a range that ends among them");
        assert!(all("0 100000 61000\n61000 300000 1000\n"), "two ranges that meet");
        assert!(!all("0 100000 61000\n61001 300000 1000\n"), "a gap of one");
        assert!(!all(""), "no map: nothing mapped");
        assert!(!all("60000 60000\n"), "not a range");
        assert_eq!(id_ranges("         0          0 4294967295\n"), [(0, 0, u64::from(u32::MAX))]);
        assert_ne!(id_ranges("0 0 1\n"), [(0, 0, u64::from(u32::MAX))], "unshare -r as root");
    }

    /// A claim is taken on a file once at a time, and on nothing else: a FIFO put where a lock
    /// file goes is neither waited on (its open would wait for a writer) nor taken, and a folder
    /// another user made (or others may write in) holds no claims, which they could take away or
    /// steer. The controls: a plain file is claimed, again once let go; this user's folder is.
    #[test]
    fn a_claim_takes_a_file_once_at_a_time_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let mine = own_folder(&dir.path().join("claims")).expect("a folder of this user's");
        let held = try_claim(&mine.join("1")).expect("the control: a plain file");
        assert!(try_claim(&mine.join("1")).is_none(), "held");
        drop(held);
        assert!(try_claim(&mine.join("1")).is_some(), "let go");
        assert!(std::process::Command::new("mkfifo").arg(mine.join("2")).status().unwrap().success());
        assert!(try_claim(&mine.join("2")).is_none(), "a FIFO, not waited on");
        std::os::unix::fs::symlink(mine.join("1"), mine.join("3")).unwrap();
        assert!(try_claim(&mine.join("3")).is_none(), "a link");
        std::fs::set_permissions(&mine, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(own_folder(&mine), None, "others may write in it");
        std::fs::set_permissions(&mine, std::fs::Permissions::from_mode(0o700)).unwrap();
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(&mine, Some(65534), None).unwrap();
            assert_eq!(own_folder(&mine), None, "another user's");
        }
    }

    /// A root arena passes over a uid an older one (claiming in `$TMPDIR/arena-box-uids`, before
    /// `/run/arena`) holds, and holds its own claim there while its box runs, so that neither
    /// gives it to a second box. The controls: without the old folder, that uid is taken; where
    /// the old claim cannot be made (its folder gone), the new one is enough.
    #[test]
    fn a_uid_an_older_root_arena_holds_is_passed_over_and_held_there_too() {
        let dir = tempfile::tempdir().unwrap();
        let new = own_folder(&dir.path().join("new")).expect("a folder of this user's");
        let old = own_folder(&dir.path().join("old")).expect("a folder of this user's");
        let first = FIRST_BOX_UID + std::process::id() % BOX_UIDS;
        let control = UidClaim::take_in(&new, None).unwrap();
        assert_eq!(control.uid, first, "the control: the first uid this process tries");
        drop(control);
        // An older arena holds it in its folder.
        let older = try_claim(&old.join(first.to_string())).expect("the older arena's claim");
        let claim = UidClaim::take_in(&new, Some(&old)).unwrap();
        assert_ne!(claim.uid, first, "passed over");
        // Held in both folders while its box runs: an older arena cannot take it.
        assert!(try_claim(&old.join(claim.uid.to_string())).is_none(), "held in the old folder");
        assert!(try_claim(&new.join(claim.uid.to_string())).is_none(), "held in the new one");
        drop((claim, older));
        let gone = dir.path().join("gone");
        let claim = UidClaim::take_in(&new, Some(&gone)).unwrap();
        assert_eq!(claim.uid, first, "the control: no old claim can be made, the new one is enough");
    }

    /// A group is one user's alone only where no other user has it as their primary group
    /// (`useradd -g alice bob`: bob could write in alice's folder that her group may write, and
    /// put his own where the arena's shared folders go), where it lists no member, and where
    /// every user can be read: a database that cannot be read whole is not one user's. The
    /// control: alice's group with bob given another is hers alone (the old check saw only the
    /// members, so it said so with bob in it too).
    #[test]
    fn a_group_another_user_has_as_primary_is_not_one_user_s_alone() {
        let (alice, bob) = (1000, 1001);
        let others = [(0, 0), (alice, alice), (65534, 65534), (5, 60)];
        assert!(group_alone(alice, alice, Some(false), Some(&others)), "the control: hers alone");
        let with_bob: Vec<(u32, u32)> = others.iter().copied().chain([(bob, alice)]).collect();
        assert!(!group_alone(alice, alice, Some(false), Some(&with_bob)), "bob's primary group too");
        assert!(group_alone(alice, alice, Some(false), Some(&[(bob, bob), (alice, alice), (alice, alice)])));
        assert!(!group_alone(alice, alice, Some(false), None), "the users cannot be read whole");
        assert!(!group_alone(alice, alice, Some(true), Some(&others)), "it lists members");
        assert!(!group_alone(alice, alice, None, Some(&others)), "the group cannot be read");
        assert!(!group_alone(alice, 100, Some(false), Some(&others)), "not numbered as her");
    }

    /// Only the user database's sources that list all they hold are read whole; a directory
    /// service (sss, ldap…) lists some of its users, or none. The control: files, and what glibc
    /// reads without the line or the file.
    #[test]
    fn only_sources_that_list_every_user_are_read_whole() {
        for listed in [
            "passwd: files systemd\ngroup: files sss\n",
            "passwd:         compat\n",
            "# passwd: sss\npasswd: files # and no more\n",
            "passwd: files [NOTFOUND=return] extrausers\n",
            "passwd: files\npasswd: compat\n",
            "",
        ] {
            assert!(enumerates_every_user(Some(listed)), "{listed:?}");
        }
        assert!(enumerates_every_user(None), "no nsswitch.conf: files");
        for partial in [
            "passwd: files sss\n",
            "passwd: files ldap\n",
            "passwd: sss files\n",
            "passwd: files [SUCCESS=merge] winbind\n",
            "passwd: nis\n",
            "passwd:\n",
            "passwd: files\npasswd: files ldap\n",
        ] {
            assert!(!enumerates_every_user(Some(partial)), "{partial:?}");
        }
    }

    /// The system's users as this machine's database has them, whatever they are: read whole,
    /// they hold this user's entry where it has one, and a group some user has as primary under
    /// another number is no one's alone; not read whole, no group is one user's.
    #[test]
    fn the_system_s_users_are_read_whole_or_no_group_is_one_user_s() {
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        match primary_groups() {
            Some(all) => {
                // SAFETY: getpwuid returns NULL or an entry read before another call.
                let mine = unsafe { libc::getpwuid(me).as_ref().map(|p| (p.pw_uid, p.pw_gid)) };
                if let Some(mine) = mine {
                    assert!(all.contains(&mine), "{mine:?} in {all:?}");
                }
                for &(user, primary) in all.iter().filter(|(user, primary)| user != primary) {
                    assert!(!group_of_one(primary, primary), "{user} has {primary} as primary");
                }
            }
            None => assert!(!group_of_one(me, me)),
        }
        assert!(!group_of_one(me, me.wrapping_add(1)), "a group numbered otherwise");
    }

    /// The boxes' root in `$TMPDIR` that another user made first (as a link to a folder they    /// The boxes' root in `$TMPDIR` that another user made first (as a link to a folder they
    /// chose, or a file) is not used: a new folder of the run's own is, and the folder the link
    /// names keeps its mode; a folder in a parent others may write in (not sticky) is not this
    /// user's alone either. The control: the old set-up (`create_dir_all`, then the mode set by
    /// path) went through the link and made the victim 0700 (a root arena so made `/etc` its
    /// own; a file there ran every bot without a box).
    #[test]
    fn a_boxes_root_another_user_made_first_is_not_used_and_its_link_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        let victim = tmp.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o755)).unwrap();
        let link = tmp.path().join("arena-box-root");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let file = tmp.path().join("arena-box-file");
        std::fs::write(&file, "").unwrap();
        assert_eq!(own_folder(&link), None, "a link");
        assert_eq!(own_folder(&file), None, "a file");
        assert_eq!(mode(&victim), 0o755, "the link was not followed");
        let (root, fresh) = box_root(checked_folder(&link)).unwrap();
        assert!(
            fresh.is_some() && root != link && root.is_dir() && mode(&root) == 0o700,
            "{} {:o}",
            root.display(),
            mode(&root)
        );
        let (shared, none) = box_root(checked_folder(&tmp.path().join("mine"))).unwrap();
        assert!(none.is_none() && shared == tmp.path().join("mine"), "the control: a folder of this user's is used");
        // A parent others may write in, not sticky: they could move the folder and put theirs.
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(own_folder(&tmp.path().join("mine")), None, "in a folder others may write in");
        // A folder its own group may write in (umask 002): the user's own group, no one else.
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o775)).unwrap();
        // SAFETY: getegid has no preconditions.
        let my_group = unsafe { libc::getegid() };
        std::os::unix::fs::chown(tmp.path(), None, Some(my_group)).unwrap();
        // SAFETY: geteuid has no preconditions.
        let own_group = group_of_one(unsafe { libc::geteuid() }, my_group);
        assert_eq!(own_folder(&tmp.path().join("mine")).is_some(), own_group, "in a folder of its own group's");
        // A group that lists members is no one's own (where the system has one to try).
        let listed = std::fs::read_to_string("/etc/group").unwrap_or_default().lines().find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.len() == 4 && !fields[3].is_empty()).then(|| fields[2].parse::<u32>().ok()).flatten()
        });
        match listed {
            Some(gid) => assert!(!group_of_one(gid, gid), "group {gid} lists members"),
            None => eprintln!("no group in /etc/group lists members: that case is not tried here"),
        }
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(tmp.path(), None, Some(65534)).unwrap();
            let why = checked_folder(&tmp.path().join("mine")).unwrap_err();
            assert!(why.contains("a folder others may write in"), "another group's: {why}");
        }
        // The control: the old set-up follows the link.
        std::fs::create_dir_all(&link).unwrap();
        std::fs::set_permissions(&link, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(mode(&victim), 0o700, "the control: the old set-up changed the victim's mode");
    }

    /// An open files limit over the system's (`fs.nr_open`) is refused as the sandbox is made,
    /// naming the limit and the most it may be. The control: a process given that limit does
    /// not start ("Operation not permitted", every bot of every match); the defaults pass.
    #[test]
    fn an_open_files_limit_no_process_can_have_is_refused() {
        let Some(max) = std::fs::read_to_string("/proc/sys/fs/nr_open").ok().and_then(|t| t.trim().parse::<u64>().ok())
        else {
            return; // (No /proc here: nothing to compare with.)
        };
        let over = max + 1;
        let mut command = std::process::Command::new("true");
        // SAFETY: setrlimit is async-signal-safe.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(move || {
                let limit = libc::rlimit { rlim_cur: over, rlim_max: over };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let control = command.status().expect_err("the control: no process starts with it");
        assert_eq!(control.kind(), std::io::ErrorKind::PermissionDenied, "{control}");
        let limits = SandboxLimits { open_files: over, ..SandboxLimits::default() };
        let Err(SandboxError::Limit(why)) = Sandbox::new(SandboxMode::None, limits) else { panic!("not refused") };
        assert!(
            why.contains(&format!("the open files limit, {over} ")) && why.contains(&format!("at most {max}")),
            "{why}"
        );
        assert!(Sandbox::new(SandboxMode::None, SandboxLimits::default()).is_ok());
    }

    /// An open files limit over the arena's own hard limit is refused only where it may not raise
    /// it (without `CAP_SYS_RESOURCE`, whether root or not: a container's root lacks it, and
    /// every bot failed to start); with the capability, or under the limit, it passes.
    #[test]
    fn an_open_files_limit_over_the_hard_limit_is_refused_where_it_cannot_be_raised() {
        let (hard, over) = (64, 65);
        let why = open_files_out_of_reach(over, Some(hard), false).expect("refused");
        assert!(why.contains("hard limit (64, `ulimit -Hn`)") && why.contains("at most 64"), "{why}");
        assert_eq!(open_files_out_of_reach(over, Some(hard), true), None, "the capability raises it");
        assert_eq!(open_files_out_of_reach(hard, Some(hard), false), None);
        assert_eq!(open_files_out_of_reach(over, Some(libc::RLIM_INFINITY), false), None);
        assert_eq!(open_files_out_of_reach(over, None, false), None);
    }

    /// A process limit over the arena's own hard limit on its user's processes, which it may not
    /// raise, is refused as the sandbox is made, naming the limit, its config key and flag, the
    /// hard limit and how to raise it. The control: a process given that limit under that hard
    /// limit does not start ("Operation not permitted": every bot of every match, the machine's
    /// fault); a limit at or under it, or no hard limit, passes.
    #[test]
    fn a_process_limit_over_the_arena_s_own_hard_limit_is_refused() {
        let hard = 40;
        let over = hard + 1;
        let mut command = std::process::Command::new("true");
        // SAFETY: setrlimit is async-signal-safe.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(move || {
                let lowered = libc::rlimit { rlim_cur: hard, rlim_max: hard };
                let raised = libc::rlimit { rlim_cur: over, rlim_max: over };
                if libc::setrlimit(libc::RLIMIT_NPROC, &lowered) != 0
                    || libc::setrlimit(libc::RLIMIT_NPROC, &raised) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        if may_raise_hard_limits() {
            // (Root with CAP_SYS_RESOURCE raises it: nothing is refused.)
            assert!(command.status().is_ok_and(|s| s.success()), "raised");
            assert_eq!(processes_out_of_reach(over, Some(hard)), None);
            return;
        }
        let control = command.status().expect_err("the control: no process starts with it");
        assert_eq!(control.kind(), std::io::ErrorKind::PermissionDenied, "{control}");
        let why = processes_out_of_reach(over, Some(hard)).expect("refused");
        for said in ["process limit, 41 ", "--max-procs", "`processes` in the config's [limits]", "(40, `ulimit -Hu`)"]
        {
            assert!(why.contains(said), "{said}: {why}");
        }
        assert!(why.contains("at most 40") && why.contains("limits.conf"), "{why}");
        assert_eq!(processes_out_of_reach(hard, Some(hard)), None);
        assert_eq!(processes_out_of_reach(over, Some(libc::RLIM_INFINITY)), None);
        assert_eq!(processes_out_of_reach(over, None), None);
    }

    /// A plain bot that runs as the arena's user is shown none of what others may not read in
    /// the system's folders (no rule it is given holds one), whatever its command names: a
    /// script under `/etc` brought it its folder, `/etc`, whole, and a word `/` the whole
    /// machine; it is still shown what others may read (`/etc/passwd`). The control: a root
    /// arena's (a box user, whom the files' modes keep out) is shown the folders whole, private
    /// files and all.
    #[test]
    fn a_plain_bot_of_the_arena_s_user_is_shown_no_private_system_file() {
        let mut sandbox = Sandbox::new(SandboxMode::None, SandboxLimits::default()).unwrap();
        let words = ["python3", "/etc/passwd", "/"].map(String::from);
        let real = system_real();
        let dirs = real.iter().map(|d| (d.clone(), usize::MAX)).collect::<Vec<_>>();
        let private = private_of(&dirs);
        let holds = |rules: &[PathBuf], path: &Path| rules.iter().any(|rule| path.starts_with(rule));
        sandbox.root = false;
        let (system, own) = sandbox.plain_shown(&words, None, Vec::new());
        for (path, _) in &private {
            assert!(!holds(&system.whole, path) && !holds(&own, path), "{} is shown", path.display());
        }
        assert!(own.iter().all(|p| !p.starts_with("/etc") && !Path::new("/etc").starts_with(p)), "{own:?}");
        assert!(holds(&system.whole, Path::new("/etc/passwd")), "{system:?}");
        sandbox.root = true;
        let (system, own) = sandbox.plain_shown(&words, None, Vec::new());
        assert_eq!(system, confine::System { whole: real, listed: Vec::new() });
        assert!(private.iter().all(|(path, _)| holds(&system.whole, path)), "the control shows them");
        assert!(own.iter().all(|p| !p.starts_with("/etc")), "{own:?}");
    }

    /// The walk for masks finds what others may not read, down to its depth, not below a private
    /// folder, not through a link; what others may read is left out.
    #[test]
    fn private_paths_are_what_others_may_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mode =
            |path: &Path, mode: u32| std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        for folder in ["open/deeper", "closed/inside"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        for file in ["secret", "public", "open/secret", "open/deeper/secret", "closed/inside/secret"] {
            std::fs::write(root.join(file), "x").unwrap();
            mode(&root.join(file), if file.ends_with("secret") { 0o640 } else { 0o644 });
        }
        mode(&root.join("closed"), 0o750);
        std::os::unix::fs::symlink(root.join("closed"), root.join("link")).unwrap();
        let found = |depth| {
            let mut all = private_paths(root, depth);
            all.sort();
            all.into_iter().map(|(p, d)| (p.strip_prefix(root).unwrap().display().to_string(), d)).collect::<Vec<_>>()
        };
        let upto = |n: usize| {
            let all = [("closed", true), ("open/deeper/secret", false), ("open/secret", false), ("secret", false)];
            all.iter().filter(|(p, _)| p.matches('/').count() < n).map(|&(p, d)| (p.to_string(), d)).collect::<Vec<_>>()
        };
        assert_eq!(found(usize::MAX), upto(3));
        assert_eq!(found(2), upto(2), "down to the depth asked");
        assert_eq!(found(1), upto(1));
        assert_eq!(found(0), []);
        mode(root, 0o700);
        assert_eq!(private_paths(root, usize::MAX), [(root.to_path_buf(), true)], "a private folder, whole");
        assert_eq!(private_paths(&root.join("link"), usize::MAX), [], "a link is not followed");
    }

    /// A registry token in cargo's configuration (which builds see) is taken out of the copy a
    /// build is shown, and nothing else; the control: a configuration without one has no copy.
    #[test]
    fn registry_tokens_are_taken_out_of_cargo_s_configuration() {
        assert!(without_secrets("[build]\njobs = 2\n[registries.school]\nindex = \"x\"\n").unwrap().is_none());
        let text =
            "[registry]\ntoken = \"a\"\ndefault = \"school\"\n[registries.school]\nindex = \"x\"\ntoken = \"b\"\n";
        let (copy, keys) = without_secrets(text).unwrap().unwrap();
        assert_eq!(keys, ["registry.token", "registries.school.token"]);
        let copy: toml::Table = copy.parse().unwrap();
        let expected: toml::Table =
            "[registry]\ndefault = \"school\"\n[registries.school]\nindex = \"x\"\n".parse().unwrap();
        assert_eq!(copy, expected);
        assert!(without_secrets("not toml [").is_err());
    }

    /// Each kind of secret cargo's configuration may hold is taken out of a build's copy, the
    /// keys beside it kept: `[env]` whole (cargo gives it to build scripts), `http.proxy` (a
    /// password in its URL), the credential providers and their arguments, `[credential-alias]`.
    #[test]
    fn every_kind_of_secret_is_taken_out_of_cargo_s_configuration() {
        let cases = [
            ("[env]\nGITHUB_TOKEN = \"s3cret\"\nOTHER = { value = \"s3cret\", force = true }\n", "", &["[env]"][..]),
            ("env.GITHUB_TOKEN = \"s3cret\"\n[build]\njobs = 2\n", "[build]\njobs = 2\n", &["[env]"]),
            (
                "[http]\nproxy = \"http://teacher:s3cret@proxy:3128\"\ncainfo = \"/etc/ca.pem\"\n",
                "[http]\ncainfo = \"/etc/ca.pem\"\n",
                &["http.proxy"],
            ),
            (
                "[registry]\ndefault = \"school\"\ncredential-provider = [\"cargo:token-from-stdout\", \"pass\", \"s3cret\"]\n\
                 global-credential-providers = [\"cargo:token\", \"my-provider --key s3cret\"]\nsecret-key = \"s3cret\"\n",
                "[registry]\ndefault = \"school\"\n",
                &["registry.secret-key", "registry.credential-provider", "registry.global-credential-providers"],
            ),
            (
                "[registries.school]\nindex = \"sparse+https://school/index/\"\ncredential-provider = \"get s3cret\"\n\
                 secret-key = \"s3cret\"\n",
                "[registries.school]\nindex = \"sparse+https://school/index/\"\n",
                &["registries.school.secret-key", "registries.school.credential-provider"],
            ),
            (
                "[credential-alias]\nmine = [\"provider\", \"--password\", \"s3cret\"]\n[net]\noffline = true\n",
                "[net]\noffline = true\n",
                &["[credential-alias]"],
            ),
        ];
        for (text, kept, removed) in cases {
            let (copy, keys) = without_secrets(text).unwrap().unwrap_or_else(|| panic!("nothing taken out of {text}"));
            assert_eq!(keys, removed, "{text}");
            assert!(!copy.contains("s3cret"), "{copy}");
            assert_eq!(copy.parse::<toml::Table>().unwrap(), kept.parse::<toml::Table>().unwrap(), "{text}");
        }
    }

    /// What an offline build of a student's crate needs of cargo's configuration holds no secret:
    /// a configuration of only that is shown as it is (no copy), and beside a secret it is kept
    /// whole in the copy.
    #[test]
    fn what_an_offline_build_needs_of_cargo_s_configuration_is_kept() {
        let needed = "paths = [\"/srv/overrides/bot-sdk\"]\n\
            [source.crates-io]\nreplace-with = \"vendored\"\n\
            [source.vendored]\ndirectory = \"/srv/vendor\"\n\
            [source.mirror]\nregistry = \"sparse+https://mirror.school/index/\"\n\
            [registries.school]\nindex = \"sparse+https://school/index/\"\n\
            [registry]\ndefault = \"school\"\n\
            [build]\njobs = 2\nrustflags = [\"--cfg\", \"course\"]\ntarget-dir = \"target\"\n\
            [target.x86_64-unknown-linux-gnu]\nlinker = \"clang\"\nrustflags = [\"-Ctarget-cpu=native\"]\n\
            [profile.release]\nlto = true\n[profile.dev]\nopt-level = 1\n\
            [net]\noffline = true\ngit-fetch-with-cli = true\n\
            [http]\ncainfo = \"/etc/ssl/ca.pem\"\ntimeout = 30\n\
            [alias]\nb = \"build --release\"\n\
            [patch.crates-io]\nbot-sdk = { path = \"/srv/bot-sdk\" }\n\
            [term]\ncolor = \"never\"\n";
        assert!(without_secrets(needed).unwrap().is_none(), "nothing to take out: shown as it is");
        let text = format!("{needed}[env]\nGITHUB_TOKEN = \"s3cret\"\n");
        let (copy, keys) = without_secrets(&text).unwrap().unwrap();
        assert_eq!(keys, ["[env]"]);
        assert_eq!(copy.parse::<toml::Table>().unwrap(), needed.parse::<toml::Table>().unwrap());
    }

    /// A student's folder and a `CARGO_HOME` beside it, in a temporary folder a box may enter.
    fn a_student_and_a_cargo_home() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let (home, folder) = (dir.path().join("cargo-home"), dir.path().join("student"));
        for path in [&home, &folder] {
            std::fs::create_dir(path).unwrap();
        }
        for path in [dir.path(), &home, &folder] {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        (dir, home, folder)
    }

    /// Runs the shell `script` in a build's box of `folder`, shown `home` as `CARGO_HOME`, with
    /// cargo's masks or without them (`masked`, the tests' controls); `None` (said on stderr)
    /// where no box can be made.
    fn in_a_build_box(script: &str, home: &Path, folder: &Path, masked: bool) -> Option<std::process::Output> {
        in_a_build_box_keeping(script, home, folder, masked, &[]).map(|out| out.unwrap())
    }

    /// [`in_a_build_box`], its box showing the entries `read_only` of `folder` read-only; the
    /// box's error if it cannot be made.
    fn in_a_build_box_keeping(
        script: &str,
        home: &Path,
        folder: &Path,
        masked: bool,
        read_only: &[PathBuf],
    ) -> Option<Result<std::process::Output, SandboxError>> {
        let sandbox = Sandbox::new(SandboxMode::Auto, SandboxLimits::default()).unwrap();
        if !sandbox.isolation().boxed {
            eprintln!("no box here: {:?}", sandbox.isolation().missing);
            return None;
        }
        let words = ["sh", "-c", script].map(String::from);
        let launch = Launch { words: &words, folder: Some(folder), env: &[], build: true, read_only };
        let limits = SandboxLimits::for_build(10);
        let toolchains = vec![("CARGO_HOME", home.to_path_buf())];
        let (mut command, handle) = match sandbox.boxed_command_with(&launch, &limits, toolchains, masked) {
            Ok(made) => made,
            Err(e) => return Some(Err(e)),
        };
        let out = command.stdin(std::process::Stdio::null()).output().unwrap();
        handle.release();
        Some(Ok(out))
    }

    /// A build's box shows the entries of its folder it is given read-only (a `.git` folder,
    /// a `.git`-like file) over the writable folder: its writes there fail (`EROFS`), the rest
    /// of the folder it writes; an entry given that is missing is no error, one that is a link
    /// is refused (the build could swap it), and so is a name that is not one entry. The
    /// control: the same build given none writes them all. (Skipped where no box can be made.)
    #[test]
    fn a_build_s_box_shows_the_entries_it_is_given_read_only() {
        let (_dir, home, folder) = a_student_and_a_cargo_home();
        std::fs::create_dir_all(folder.join(".git/hooks")).unwrap();
        std::fs::write(folder.join(".git/config"), "[core]\n").unwrap();
        std::fs::write(folder.join("gitfile"), "gitdir: x\n").unwrap();
        let script = "touch .git/hooks/post-merge; echo evil >> .git/config; echo evil >> gitfile; \
                      mkdir .git/x; touch built; exit 0";
        let given: Vec<PathBuf> = [".git", "gitfile", "missing"].map(PathBuf::from).to_vec();
        let Some(out) = in_a_build_box_keeping(script, &home, &folder, true, &given) else { return };
        let out = out.unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("Read-only file system"), "{stderr}");
        assert!(folder.join("built").exists(), "the rest of the folder is written");
        assert!(!folder.join(".git/hooks/post-merge").exists() && !folder.join(".git/x").exists());
        assert_eq!(std::fs::read_to_string(folder.join(".git/config")).unwrap(), "[core]\n");
        assert_eq!(std::fs::read_to_string(folder.join("gitfile")).unwrap(), "gitdir: x\n");
        // Given as a link, or not as an entry's name: refused.
        std::os::unix::fs::symlink(".git", folder.join("linked")).unwrap();
        for bad in ["linked", "a/b", "..", "/etc"] {
            let given = [PathBuf::from(bad)];
            let refused = in_a_build_box_keeping("true", &home, &folder, true, &given).unwrap();
            assert!(matches!(refused, Err(SandboxError::Files(_))), "{bad}: {refused:?}");
        }
        // The control: given none, the build writes them.
        let control = in_a_build_box_keeping(script, &home, &folder, true, &[]).unwrap().unwrap();
        assert!(control.status.success(), "{}", String::from_utf8_lossy(&control.stderr));
        assert!(folder.join(".git/hooks/post-merge").exists() && folder.join(".git/x").is_dir());
        assert!(std::fs::read_to_string(folder.join(".git/config")).unwrap().ends_with("evil\n"));
        assert!(std::fs::read_to_string(folder.join("gitfile")).unwrap().ends_with("evil\n"));
    }

    /// A build's box shows it `CARGO_HOME`'s `config.toml` without its registry token (cargo
    /// reads one there), its `[env]` and its proxy's password, its `config` that is not UTF-8
    /// and its `credentials.toml` empty, though a link to a file elsewhere in the folder; a
    /// dangling `credentials` link is no error. The control: the same box without the masks prints every secret. (Skipped where
    /// no box can be made.)
    #[test]
    fn a_build_s_box_shows_cargo_s_files_without_their_tokens() {
        let (_dir, home, folder) = a_student_and_a_cargo_home();
        std::fs::create_dir(home.join("keep")).unwrap();
        std::fs::set_permissions(home.join("keep"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let config =
            "[registries.school]\nindex = \"x\"\ntoken = \"config-secret\"\n[env]\nGITHUB_TOKEN = \"env-secret\"\n\
            [http]\nproxy = \"http://teacher:proxy-secret@proxy:3128\"\n";
        std::fs::write(home.join("config.toml"), config).unwrap();
        std::fs::write(home.join("keep/real.toml"), "[registry]\ntoken = \"linked-secret\"\n").unwrap();
        std::os::unix::fs::symlink("keep/real.toml", home.join("credentials.toml")).unwrap();
        std::os::unix::fs::symlink("nowhere", home.join("credentials")).unwrap();
        // (The older name, not UTF-8: not TOML, shown empty.)
        std::fs::write(home.join("config"), b"[env]\nTOKEN = \"old-secret\"\n# \xff\n").unwrap();
        let script = "cat \"$CARGO_HOME/config.toml\" \"$CARGO_HOME/credentials.toml\" \"$CARGO_HOME/config\"";
        let shown = |masked: bool| {
            let out = in_a_build_box(script, &home, &folder, masked)?;
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let Some(masked) = shown(true) else { return };
        assert!(masked.contains("index = \"x\"") && !masked.contains("secret"), "{masked}");
        let control = shown(false).unwrap_or_default();
        for secret in ["config-secret", "linked-secret", "env-secret", "proxy-secret", "old-secret"] {
            assert!(control.contains(secret), "{secret}: {control}");
        }
    }

    /// Cargo reads a `.cargo/config.toml` in every folder above the crate too: a build's box
    /// shows none of the teacher's (the course folder's, the one above it), only its own folder
    /// and empty folders above it, mask or not. The control: the same script outside the box
    /// reads both. (Skipped where no box can be made.)
    #[test]
    fn a_build_s_box_shows_no_cargo_configuration_of_the_folders_above_its_own() {
        let (dir, home, top) = a_student_and_a_cargo_home();
        let folder = top.join("course/alice");
        std::fs::create_dir_all(&folder).unwrap();
        for (at, secret) in [(dir.path(), "above-secret"), (&top.join("course"), "course-secret")] {
            std::fs::create_dir_all(at.join(".cargo")).unwrap();
            std::fs::write(at.join(".cargo/config.toml"), format!("[env]\nTOKEN = \"{secret}\"\n")).unwrap();
        }
        let script = "cat ../.cargo/config.toml ../../../.cargo/config.toml; ls -A .. ../../..";
        for masked in [true, false] {
            let Some(out) = in_a_build_box(script, &home, &folder, masked) else { return };
            let shown = String::from_utf8_lossy(&out.stdout);
            assert!(shown.contains("alice"), "it ran: {shown}");
            assert!(!shown.contains("secret") && !shown.contains(".cargo"), "masked {masked}: {shown}");
        }
        let control = std::process::Command::new("sh").args(["-c", script]).current_dir(&folder).output().unwrap();
        let control = String::from_utf8_lossy(&control.stdout);
        assert!(control.contains("course-secret") && control.contains("above-secret"), "{control}");
    }

    /// A build's box locks a cargo lock file of its own: while the arena's user holds
    /// `CARGO_HOME/.package-cache`, a box still takes its lock at once, so a box holding it no
    /// longer stalls the arena user's cargo either. The control: the same box without the
    /// masks finds the lock taken. (Skipped where no box can be made.)
    #[test]
    fn a_build_s_box_locks_its_own_cargo_lock() {
        let (_dir, home, folder) = a_student_and_a_cargo_home();
        let lock = std::fs::File::create(home.join(".package-cache")).unwrap();
        std::fs::set_permissions(home.join(".package-cache"), std::fs::Permissions::from_mode(0o644)).unwrap();
        // SAFETY: flock on a descriptor this test owns.
        assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) }, 0);
        let script = "exec 9<\"$CARGO_HOME/.package-cache\" && flock -n -x 9 && echo locked";
        let locked = |masked: bool| {
            in_a_build_box(script, &home, &folder, masked)
                .map(|out| String::from_utf8_lossy(&out.stdout).contains("locked"))
        };
        let Some(own) = locked(true) else { return };
        assert!(own, "its own lock");
        assert_eq!(locked(false), Some(false), "the control: the arena's user holds the shared one");
    }

    /// (Checked on the table: this project's machines start every process with both at 0, and
    /// even root may not raise them there, so no box could show one inherited.)
    #[test]
    fn a_box_may_not_take_real_time_or_raised_priority() {
        let limits = rlimits(&SandboxLimits::default(), false);
        for resource in [libc::RLIMIT_RTPRIO, libc::RLIMIT_NICE] {
            assert!(limits.contains(&(resource, 0, 0)), "{resource}: {limits:?}");
        }
    }

    /// The address space is capped at the box's memory only where no memory cgroup limits the
    /// box (the e2e side, a hog `memory` with one and `crash` without: tests/zoo.rs).
    #[test]
    fn the_address_space_is_capped_only_without_a_memory_cgroup() {
        let limits = SandboxLimits { memory_mb: 300, ..SandboxLimits::default() };
        let cap = |memory_cgroup| {
            let r = rlimits(&limits, memory_cgroup);
            r.iter().find(|(resource, _, _)| *resource == libc::RLIMIT_AS).map(|&(_, soft, hard)| (soft, hard))
        };
        assert_eq!(cap(false), Some((300 << 20, 300 << 20)));
        assert_eq!(cap(true), None);
        // Under strict overcommit the cap stays, cgroup or not.
        assert_eq!(cap(uncapped(true, true)), cap(false));
        assert_eq!(cap(uncapped(false, false)), cap(false));
        assert_eq!(cap(uncapped(true, false)), None);
    }

    /// Swap is counted on a machine with swap wherever no memory cgroup holds the box: without
    /// a memory cgroup, and with one that limits memory but not swap (which neither the kernel
    /// nor the monitor counted); not where the cgroup counts it, nor on a machine without swap.
    #[test]
    fn swap_is_counted_wherever_no_memory_cgroup_holds_the_box() {
        // (limits_memory, holds_memory, machine_swaps, counted)
        let cases = [
            (false, false, true, true),
            (true, false, true, true),
            (true, true, true, false),
            (false, false, false, false),
            (true, true, false, false),
        ];
        for (limits, holds, swaps, counted) in cases {
            assert_eq!(counts_swap(holds, swaps), counted, "limits {limits}, holds {holds}, swaps {swaps}");
        }
    }

    #[test]
    fn paths_are_made_absolute_without_the_file_system() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../x")), PathBuf::from("/x"));
    }

    /// `/dev/zero` is the host's only where asked (a build, or a box a memory cgroup holds),
    /// else `/dev/full` bound there; the other devices are the host's always.
    #[test]
    fn dev_zero_is_the_host_s_only_where_asked() {
        let bound = |with_zero| {
            let mut view = View::new(Path::new("/r"), true);
            view.devices(with_zero).unwrap();
            let binds = view.ops.iter().filter_map(|o| match o {
                Op::Bind { src, dst, .. } => {
                    Some((dst.to_string_lossy().into_owned(), src.to_string_lossy().into_owned()))
                }
                _ => None,
            });
            binds.collect::<std::collections::BTreeMap<_, _>>()
        };
        let (without, with) = (bound(false), bound(true));
        assert_eq!(without.get("/r/dev/zero").map(String::as_str), Some("/dev/full"), "{without:?}");
        assert_eq!(without.get("/r/dev/null").map(String::as_str), Some("/dev/null"), "{without:?}");
        assert_eq!(with.get("/r/dev/zero").map(String::as_str), Some("/dev/zero"), "the control: {with:?}");
    }

    #[test]
    fn a_view_makes_each_parent_once_and_nothing_under_a_bind() {
        let mut view = View::new(Path::new("/r"), true);
        view.mkdirs(Path::new("/a/b/c"));
        view.mkdirs(Path::new("/a/b/d"));
        let mkdirs = view.ops.iter().filter(|o| matches!(o, Op::Mkdir(..))).count();
        assert_eq!(mkdirs, 4, "a, a/b, a/b/c, a/b/d");
        view.bound.push(PathBuf::from("/x"));
        view.mkdirs(Path::new("/x/y"));
        assert_eq!(view.ops.iter().filter(|o| matches!(o, Op::Mkdir(..))).count(), 4);
    }

    /// A build's processes run at a lower priority than the arena (nice 10 more, 19 at most),
    /// plain or boxed (where a box can be made): the arena's look at a summed build's memory
    /// gets the CPU before them on a loaded machine. The control: a bot, launched the same way,
    /// runs at the arena's own (as builds did before).
    #[test]
    fn a_build_runs_at_a_lower_priority_than_the_arena() {
        let own = child::nice_of(0).expect("the test's own nice value");
        if own >= 19 {
            eprintln!("the arena runs at the lowest priority already ({own}): no build can run lower");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        // (A root arena builds a folder as its owner, and builds none of root's.)
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).unwrap();
        }
        let words = ["sh", "-c", "nice"].map(String::from);
        let mut seen = Vec::new();
        for mode in [SandboxMode::Plain, SandboxMode::Auto] {
            let Ok(sandbox) = Sandbox::new(mode, SandboxLimits::default()) else { continue };
            if mode == SandboxMode::Auto && !sandbox.isolation().boxed {
                continue;
            }
            for build in [true, false] {
                let launch = Launch { words: &words, folder: Some(dir.path()), env: &[], build, read_only: &[] };
                let (mut command, mut handle) = sandbox.command(&launch).unwrap();
                command.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::piped());
                let child = command.spawn().unwrap();
                handle.started(child.id());
                let out = child.wait_with_output().unwrap();
                handle.release();
                let said = String::from_utf8_lossy(&out.stdout).trim().to_string();
                seen.push((mode, build, said.parse::<i32>().unwrap_or_else(|_| panic!("{said:?}: {out:?}"))));
            }
        }
        // (Run under `nice`, the tests run at 10, and their builds at 19.)
        let lower = (own + 10).min(19);
        assert!(seen.iter().any(|&(_, build, _)| build), "no build could be run: {seen:?}");
        for &(mode, build, nice) in &seen {
            match build {
                true => assert_eq!(nice, lower, "a {mode:?} build: {seen:?}"),
                false => assert_eq!(nice, own, "the control: a {mode:?} bot: {seen:?}"),
            }
        }
    }

    /// A build left at the arena's priority is said to be: its processes' nice value, and, where
    /// the kernel has autogroups, its session's (a process in a session of its own, lowered in
    /// neither), or its session's alone (its nice value raised, its session's not: what was not
    /// said before). The control: one lowered as a build's keeper lowers itself is not.
    #[test]
    fn a_build_left_at_the_arena_s_priority_is_said_to_be() {
        if child::nice_of(0).expect("the test's own nice value") >= 19 {
            eprintln!("the arena runs at the lowest priority already: nothing can be lower");
            return;
        }
        // (A new session's autogroup has nice 0: at the arena's priority or above where the
        // arena's is 0 to 18.)
        let own = child::autogroup_nice(c"/proc/self/autogroup");
        let grouped = child::autogroups().is_ok() && own.is_some_and(|own| (0..19).contains(&own));
        if !grouped {
            eprintln!("no autogroups here, or the arena's is {own:?}: only the processes' nice value is checked");
        }
        for (process, session) in [(false, false), (true, false), (true, true)] {
            let mut command = std::process::Command::new("sleep");
            command.arg("30");
            // SAFETY: the hook makes raw system calls only.
            unsafe {
                command.pre_exec(move || {
                    if process {
                        child::lower_priority();
                    }
                    libc::setsid();
                    if session {
                        child::lower_autogroup();
                    }
                    Ok(())
                });
            }
            let mut sleeper = command.spawn().unwrap();
            let pid = sleeper.id() as i32;
            let said = not_niced(pid, Some(pid));
            sleeper.kill().unwrap();
            sleeper.wait().unwrap();
            let mut expected = Vec::new();
            if !process {
                expected.push("its nice value".to_string());
            }
            if grouped && !session {
                expected.push(format!("/proc/{pid}/autogroup: nice 0"));
            }
            assert_eq!(said.len(), expected.len(), "process lowered {process}, session {session}: {said:?}");
            for (said, expected) in said.iter().zip(&expected) {
                assert!(said.contains(expected.as_str()), "{said:?} says {expected:?}");
            }
        }
    }

    /// What a look at a plain bot and at a plain build costs, on a tree of 7 processes (the
    /// keeper, a shell, four Python processes holding a socket pair, a `sleep`): the bot's
    /// [`BoxHandle::look`], the build's [`BoxHandle::build_look`] (its watch's look), and the
    /// walks of the bot's descriptors alone (see `sockets::BotLooks`). A measure,
    /// not a test: run by hand, in release,
    /// `cargo test --release -p arena --lib the_cost_of_a_look -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement of CPU time, not a test: run by hand, in release (see above)"]
    fn the_cost_of_a_look() {
        let Ok(sandbox) = Sandbox::new(SandboxMode::Plain, SandboxLimits::default()) else { return };
        let dir = tempfile::tempdir().unwrap();
        // (A root arena builds a folder as its owner, and builds none of root's.)
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).unwrap();
        }
        let python = "import socket, os, time; a, b = socket.socketpair(); os.fork(); os.fork(); time.sleep(60)";
        let script = format!("python3 -c '{python}' & sleep 60 & wait");
        let words = ["sh".to_string(), "-c".to_string(), script];
        for build in [false, true] {
            let launch = Launch { words: &words, folder: Some(dir.path()), env: &[], build, read_only: &[] };
            let (mut command, mut handle) = sandbox.command(&launch).unwrap();
            let mut child = command.stdin(std::process::Stdio::null()).spawn().unwrap();
            handle.started(child.id());
            let start = std::time::Instant::now();
            while meter::tree(child.id() as i32).len() < 7 && start.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(10));
            }
            let processes = meter::tree(child.id() as i32).len();
            let looks = 2000u32;
            let cpu = |who| {
                let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                // SAFETY: clock_gettime writes only the timespec it is given.
                unsafe { libc::clock_gettime(who, &mut t) };
                Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
            };
            let (began, cpu_then) = (std::time::Instant::now(), cpu(libc::CLOCK_THREAD_CPUTIME_ID));
            for _ in 0..looks {
                if build {
                    std::hint::black_box(handle.build_look(true));
                } else {
                    std::hint::black_box(handle.look(true));
                }
            }
            let (wall, used) = (began.elapsed(), cpu(libc::CLOCK_THREAD_CPUTIME_ID) - cpu_then);
            let what = if build { "build" } else { "bot" };
            eprintln!(
                "a plain {what}'s look, {processes} processes: {:.1} us by the clock, {:.1} us of CPU ({looks} looks)",
                wall.as_secs_f64() * 1e6 / f64::from(looks),
                used.as_secs_f64() * 1e6 / f64::from(looks)
            );
            if !build {
                // The walks of its descriptors alone: the sockets only (a bot's look before
                // 2026-12-07), a bot's look's (see `sockets::BotLooks`), and a build's.
                let pids = meter::walk(child.id() as i32).pids();
                let bot = sockets::BotLooks::default();
                let walks: [(&str, &dyn Fn() -> sockets::Descriptors); 3] = [
                    ("the sockets alone", &|| sockets::Descriptors::read(&pids, sockets::Reads::default())),
                    ("a bot's", &|| bot.walk(&pids)),
                    ("every fdinfo (a build's)", &|| sockets::Descriptors::of(&pids)),
                ];
                for (what, walk) in walks {
                    let cpu_then = cpu(libc::CLOCK_THREAD_CPUTIME_ID);
                    for _ in 0..looks {
                        std::hint::black_box(walk());
                    }
                    let used = cpu(libc::CLOCK_THREAD_CPUTIME_ID) - cpu_then;
                    eprintln!(
                        "  its descriptors, {what}: {:.1} us of CPU a walk",
                        used.as_secs_f64() * 1e6 / f64::from(looks)
                    );
                }
            }
            handle.kill();
            let _ = child.wait();
            handle.release();
        }
    }
}
