//! Building bots: each build command runs once, in a box of its own (the bot's folder
//! writable, the Rust toolchains visible read-only, no network), under a wall-clock limit and
//! a cap on the disk it fills (its folder's growth over the league's runs, and its log). Its
//! output is kept in a log file (up to the cap); what went wrong is summed up from the log's
//! first error line, not its last lines (which are make's "Error 1" and caret lines).

use std::collections::BTreeMap;
use std::ffi::CString;
use std::io::{Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::sandbox::{Launch, Sandbox, EXIT_GRACE};

/// What a build may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildLimits {
    /// Wall time.
    pub timeout: Duration,
    /// Disk it may fill: what the bot's folder grows by (allocated blocks) and its log together.
    pub disk_bytes: u64,
}

/// What a bot's builds have added to its folder over the league's runs, for the cap across runs:
/// every run builds again, and a build that grew its folder by its cap on each run would fill
/// the disk run after run. A build may grow the folder only by what is left of the cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderGrowth {
    /// Allocated bytes the builds have added to the folder and that are still counted: each
    /// build's growth (what it removed taken off), less what the folder shrank by between runs
    /// (a `make clean`).
    pub added: u64,
    /// The folder's allocated bytes as the last build left it: what it grew by between runs is
    /// the student's (a push), not the builds'.
    pub left: u64,
    /// The build after it was cut short (the run killed before it noted its growth): what the
    /// folder grew by since the last noted build counts as the builds' (never a growth missed).
    #[serde(skip)]
    pub cut_short: bool,
}

impl FolderGrowth {
    /// What still counts before a build, when the folder takes `now` allocated bytes: what it
    /// shrank by since the last build is taken off (down to nothing), what it grew by is not
    /// counted (unless that build was cut short).
    pub fn counted(&self, now: u64) -> u64 {
        if now < self.left {
            self.added.saturating_sub(self.left - now)
        } else if self.cut_short {
            self.added.saturating_add(now - self.left)
        } else {
            self.added
        }
    }
}

/// Files and folders a build may add to its folder: past this many, it is ended (a folder of
/// millions of empty files fills a disk's inodes, and takes long to walk).
const MAX_NEW_ENTRIES: u64 = 200_000;
/// The lengths of the paths of what a build adds, together, at most: the arena lists them.
const MAX_NEW_PATH_BYTES: u64 = 32 << 20;
/// How often a running build's disk use is measured, at most.
const DISK_EVERY: Duration = Duration::from_millis(250);
/// How often the memory of a build no memory cgroup holds is summed (a walk of its processes in
/// /proc, some microseconds each: a build of hundreds of processes takes milliseconds), at most:
/// the next look waits four times as long as the last took, where that is longer.
const MEMORY_EVERY: Duration = Duration::from_millis(100);
/// The longest wait between two looks at a summed build's memory, however long the last look
/// took: a build that held 255,000 sockets made each look take some 15 s, and the wait of four
/// times that left it unwatched long enough to hold 1.4 GiB under a `build_memory_mb` of 1,024
/// for some 20 s.
const MEMORY_WAIT_AT_MOST: Duration = Duration::from_millis(500);
/// The longest one look at a summed build's memory may take the looking thread, but for its waits
/// for the CPU (the wall clock's time less the thread's run-queue wait, see [`run_queue_wait`]:
/// its CPU time, and what it was kept waiting otherwise, as on a lock of the build's processes'
/// memory): past it, the build is stopped (no honest build holds so many processes, files or
/// sockets that a look costs so much, and while the arena looks the build is not watched). A
/// thrashing or loaded machine, slow to give the arena's thread the CPU, stops no honest build
/// so; a build that kept each look waiting without the CPU (threads that `mprotect` in a loop
/// hold their memory's lock, which `smaps_rollup` waits on) made looks of 10 to 19 s, 0.1 s of
/// CPU each, every half a second, when only the CPU time was held to this.
const MEMORY_LOOK_AT_MOST: Duration = Duration::from_secs(2);
/// The longest one look at a summed build's memory may take by the wall clock, its waits for the
/// CPU too: a backstop, for a machine so loaded that the build goes unwatched long; past it, the
/// build is stopped too, said so, as the machine's fault (not the bot's). (A look runs on a
/// thread of its own, [`Looker`], and is held to both as it runs: one that never ends stops the
/// build too.)
const MEMORY_LOOK_WALL_AT_MOST: Duration = Duration::from_secs(5);

/// How long one look at a summed build's memory took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct LookTook {
    /// The looking thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
    cpu: Duration,
    /// The wall clock's.
    wall: Duration,
    /// What of it the thread waited for the CPU, on a run queue ([`run_queue_wait`]; zero where
    /// that cannot be read: then the wall clock's time is held to [`MEMORY_LOOK_AT_MOST`]).
    queued: Duration,
}

impl LookTook {
    /// A look begun at `wall` with the looking thread's CPU time `cpu` and run-queue wait
    /// `queued` then, those being `queued_now` and `cpu_now` now (a run-queue wait not read at
    /// either end counts as none: the wall clock's time is held then).
    fn since(
        wall: Instant,
        cpu: Duration,
        queued: Option<Duration>,
        queued_now: Option<Duration>,
        cpu_now: Duration,
    ) -> LookTook {
        let queued = queued.zip(queued_now).map_or(Duration::ZERO, |(then, now)| now.saturating_sub(then));
        LookTook { cpu: cpu_now.saturating_sub(cpu), wall: wall.elapsed(), queued }
    }

    /// The look's time but for its waits for the CPU: what is held to [`MEMORY_LOOK_AT_MOST`].
    fn held(&self) -> Duration {
        self.wall.saturating_sub(self.queued).max(self.cpu)
    }
}

/// What the arena does next about a summed build's memory, given how long its last look took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NextLook {
    /// Looks again once this long has passed since the last look ended.
    After(Duration),
    /// Stops the build: the last look took longer than [`MEMORY_LOOK_AT_MOST`] but for its waits
    /// for the CPU, or longer on the wall clock than [`MEMORY_LOOK_WALL_AT_MOST`].
    TooSlow(LookTook),
}

/// The wait before the next look at a summed build's memory: four times the last look on the
/// wall clock (at most a fifth of the arena's time goes to looking, and a machine that is slow to
/// run the looks is looked at less often), at least [`MEMORY_EVERY`] and at most
/// [`MEMORY_WAIT_AT_MOST`]; or [`NextLook::TooSlow`] where the last look took more than
/// [`MEMORY_LOOK_AT_MOST`] but for its waits for the CPU ([`LookTook::held`]), or more wall clock
/// time than [`MEMORY_LOOK_WALL_AT_MOST`].
fn next_memory_look(last_look: LookTook) -> NextLook {
    if last_look.held() > MEMORY_LOOK_AT_MOST || last_look.wall > MEMORY_LOOK_WALL_AT_MOST {
        NextLook::TooSlow(last_look)
    } else {
        NextLook::After(last_look.wall.saturating_mul(4).clamp(MEMORY_EVERY, MEMORY_WAIT_AT_MOST))
    }
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`: in the kernel on its
/// behalf too, where a look's reading of `/proc` goes); zero where that clock cannot be read
/// (then the look's time but for its waits for the CPU is held without it, see [`LookTook::held`]).
fn thread_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes only the timespec it is given.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
}

/// One look at a summed build (see the build's watch): why it is to be stopped, if it is: over
/// its memory (all its processes together), or a process of it the arena may not look at (see
/// `BoxHandle::build_look`, which walks its processes once for both).
fn look_at_memory(handle: &crate::sandbox::BoxHandle, proportional: bool) -> Option<Ended> {
    let (over, unseen) = handle.build_look(proportional);
    let over = over.then(|| Ended::Memory(handle.memory_limit_mb()));
    over.or(unseen.map(|(pid, name)| Ended::Unseen(pid, name)))
}

/// The thread that looks at a summed build's memory (see the build's watch), and what the watch
/// knows of it: whether it is looking, since when, and its CPU clock.
///
/// A look walks the build's tree from its process's pid (`meter::tree`), and may still be in
/// flight when the build ends or is killed. The watch sees the build's end without reaping its
/// process ([`ended_unreaped`]), and reaps it only once the looking thread's scope has joined,
/// every look done: until then the pid is the build's zombie's, and no look can walk the tree of
/// another process that took the pid once it was free (after a pid wrap). That is simpler, and
/// surer, than a flag to stop the look between its steps: the look could read the flag as not
/// set an instant before the watch set it and reaped the build, and walk a pid taken meanwhile,
/// unless the reap waited for the look's step anyway (as it now waits for the whole look, which a
/// build gone ends soon).
struct Looker {
    ask: std::sync::mpsc::Sender<()>,
    told: std::sync::mpsc::Receiver<(Option<Ended>, LookTook)>,
    /// The looking thread's CPU clock (`pthread_getcpuclockid`).
    clock: libc::clockid_t,
    /// The looking thread's id, whose run-queue wait the watch reads as it looks (see
    /// [`run_queue_wait`]).
    tid: Option<libc::pid_t>,
    /// Since when a look runs, and the looking thread's CPU time and run-queue wait then.
    running: Option<(Instant, Duration, Option<Duration>)>,
    /// The thread is gone (it should not be: then the watch looks itself).
    gone: bool,
}

/// Where a look of a [`Looker`] is.
enum LookState {
    /// Still looking: what it took so far.
    Running(LookTook),
    /// Done: why the build is to be stopped (over its memory, or a process of it that cannot be
    /// looked at), if it is, and what the look took.
    Done(Option<Ended>, LookTook),
}

impl Looker {
    /// Starts the looking thread in `scope`, which runs `look` (why the build is to be stopped, if
    /// it is: see [`look_at_memory`]) each time it is asked; `None` where no thread can be started
    /// (the watch then looks itself).
    fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        look: impl Fn() -> Option<Ended> + Send + 'scope,
    ) -> Option<Looker> {
        let (ask, asked) = std::sync::mpsc::channel::<()>();
        let (tell, told) = std::sync::mpsc::channel();
        let (clock_tell, clock_told) = std::sync::mpsc::sync_channel(1);
        let looking = move || {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: pthread_getcpuclockid writes the clock's id into `clock`, which we own.
            let known = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) } == 0;
            // SAFETY: gettid has no arguments and cannot fail.
            let _ = clock_tell.send((known.then_some(clock), unsafe { libc::gettid() }));
            for () in asked {
                let (wall, cpu, queued) = (Instant::now(), thread_cpu(), run_queue_wait(None));
                let over = look();
                let took = LookTook::since(wall, cpu, queued, run_queue_wait(None), thread_cpu());
                if tell.send((over, took)).is_err() {
                    break;
                }
            }
        };
        let started = std::thread::Builder::new().name("arena-build-look".into()).spawn_scoped(scope, looking);
        if let Err(e) = started {
            tracing::debug!("no thread to look at a build's memory ({e}): the watch looks itself");
            return None;
        }
        // (Where its clock cannot be read, the thread still looks: only the clock's CPU time,
        // read as it runs, is missing, and the wall clock's backstop holds.)
        let (clock, tid) = clock_told.recv().map_or((None, None), |(clock, tid)| (clock, Some(tid)));
        let clock = clock.unwrap_or(libc::CLOCK_THREAD_CPUTIME_ID);
        Some(Looker { ask, told, clock, tid, running: None, gone: false })
    }

    /// The looking thread's CPU time now (zero where its clock cannot be read).
    fn cpu(&self) -> Duration {
        if self.clock == libc::CLOCK_THREAD_CPUTIME_ID {
            return Duration::ZERO;
        }
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes only the timespec it is given.
        if unsafe { libc::clock_gettime(self.clock, &mut t) } != 0 {
            return Duration::ZERO;
        }
        Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
    }

    /// Asks for a look.
    fn ask(&mut self) {
        match self.ask.send(()) {
            Ok(()) => self.running = Some((Instant::now(), self.cpu(), run_queue_wait(self.tid))),
            Err(_) => self.gone = true,
        }
    }

    /// Where the look asked for is: done (no longer running), or still running, and what it has
    /// taken so far (a thread that is gone counts as a look that found nothing, and is marked
    /// gone: the watch looks itself from then on).
    fn result(&mut self) -> LookState {
        let (since, cpu, queued) = self.running.unwrap_or((Instant::now(), Duration::ZERO, None));
        match self.told.try_recv() {
            Ok((over, took)) => {
                self.running = None;
                LookState::Done(over, took)
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                LookState::Running(LookTook::since(since, cpu, queued, run_queue_wait(self.tid), self.cpu()))
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                (self.running, self.gone) = (None, true);
                LookState::Done(None, LookTook::default())
            }
        }
    }
}

/// Whether `child` has ended, without reaping it (`waitid` with `WNOWAIT`; waiting for it to end
/// when `wait`): until it is reaped its pid is still its own (a zombie's, with no children), and
/// a look at the build still in flight ([`Looker`]) walks no other process's tree from it.
fn ended_unreaped(child: &std::process::Child, wait: bool) -> std::io::Result<bool> {
    let flags = libc::WEXITED | libc::WNOWAIT | if wait { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: an all-zero siginfo_t is valid (its pid reads 0 where nothing has ended).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes only the siginfo_t it is given; `child` is this process's own, unreaped.
        if unsafe { libc::waitid(libc::P_PID, child.id(), &mut info, flags) } == 0 {
            // SAFETY: waitid filled `info` for a child's change of state, or left it zero.
            return Ok(unsafe { info.si_pid() } != 0);
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// What a thread of the arena (`of`, by its id; `None`: the calling thread) has waited for the
/// CPU on a run queue since it started: the second field of its `schedstat`, in nanoseconds
/// (`None` where it cannot be read).
fn run_queue_wait(of: Option<libc::pid_t>) -> Option<Duration> {
    let path =
        of.map_or_else(|| "/proc/thread-self/schedstat".to_string(), |tid| format!("/proc/self/task/{tid}/schedstat"));
    crate::sandbox::schedstat(&path).map(|(_, waited)| Duration::from_nanos(waited))
}

/// `d` in seconds, rounded up to a tenth: a time past a limit never reads as the limit itself.
fn tenths_up(d: Duration) -> f64 {
    (d.as_secs_f64() * 10.0).ceil() / 10.0
}

/// Whether a look that stopped a build was slow only for the machine: not past
/// [`MEMORY_LOOK_AT_MOST`] but for its waits for the CPU, only past the wall clock's backstop.
fn too_slow_for_the_machine(took: LookTook) -> bool {
    took.held() <= MEMORY_LOOK_AT_MOST
}

/// Why a look at a summed build's memory stopped it, for its message: the time it took but for
/// its waits for the CPU (its CPU time, and what the build's processes kept it waiting), or the
/// wall clock's where only that was past its backstop (the machine's waits).
fn too_slow_why(took: LookTook) -> String {
    if !too_slow_for_the_machine(took) {
        format!(
            "a look at its memory took {:.1} s of the arena's time, more than {} s ({:.1} s of its CPU, {:.1} s kept \
             waiting by the build's processes)",
            tenths_up(took.held()),
            MEMORY_LOOK_AT_MOST.as_secs(),
            took.cpu.as_secs_f64(),
            took.held().saturating_sub(took.cpu).as_secs_f64()
        )
    } else {
        format!(
            "a look at its memory took {:.1} s by the clock, more than {} s, {:.1} s of it waiting for the CPU: \
             the machine is overloaded",
            tenths_up(took.wall),
            MEMORY_LOOK_WALL_AT_MOST.as_secs(),
            took.queued.as_secs_f64()
        )
    }
}

/// Set (to anything) in the arena's environment, a build whose processes are summed is held to
/// their resident sets together, as before they were confirmed with their proportional sets
/// (PSS): for the controls of the tests only, which show what the confirmation lets build.
pub const WITHOUT_PSS: &str = "ARENA_BUILD_WITHOUT_PSS";
/// How much more than its cap the free space of the file systems a build may write (its
/// folder's; without a box, the shared scratch ones too) may fall during it (others may write
/// there too) before the build is held to account for it: what the walk cannot see (a file
/// deleted but held open, a file outside the folder) still takes disk.
const FREE_SPACE_SLACK: u64 = 256 << 20;
/// How much of a log is read back for its first error: the start, and the end.
const LOG_HEAD: u64 = 1 << 20;
const LOG_TAIL: u64 = 64 << 10;

/// How one build went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildOutcome {
    /// `None` when it succeeded, else why not (one line).
    pub problem: Option<String>,
    /// The log (stdout and stderr, up to the disk cap), relative to the tournament folder; empty
    /// for a build that was not run ([`BuildOutcome::refused`]).
    pub log: String,
    /// Files the build created or changed in the bot's folder (relative to it).
    pub outputs: Vec<String>,
    /// Those of `outputs` that were not there before the build: its outputs, which the bot's
    /// fingerprint leaves out (a file of the student's that the build changed is no output:
    /// see [`super::versions::BotHistory::outputs`]).
    pub created: Vec<String>,
    /// The signal that ended it, if one did (Ctrl-C ends the builds with the arena by `SIGINT`),
    /// or its shell's command (a shell exits with 128 + n when its command died by signal n).
    pub signal: Option<i32>,
    /// What the bot's builds have added to its folder, this one included (`None` for a build
    /// that was not run).
    pub growth: Option<FolderGrowth>,
    /// How it ended: built, failed, stopped by the run's end, or not started by the machine.
    pub ended: BuildEnd,
}

/// How a build ended, which decides what it is recorded as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildEnd {
    /// It succeeded.
    Built,
    /// It failed (its problem says why), or was not run: the bot's version records it.
    Failed,
    /// The run's end (Ctrl-C, SIGTERM, SIGHUP) stopped it, or came as it failed: no version
    /// records it (see [`run_until`]).
    Stopped,
    /// The machine could not start it (no process, thread or memory left; see
    /// [`crate::sandbox::StartFault`]): no fault of the bot's, whose build never ran. The run
    /// records nothing (see [`super::versions::prepare`]), and the next one builds it again.
    Machine,
}

impl BuildOutcome {
    /// A build that was not run, for `why`: no log, nothing written.
    pub fn refused(why: String) -> BuildOutcome {
        BuildOutcome {
            problem: Some(why),
            log: String::new(),
            outputs: Vec::new(),
            created: Vec::new(),
            signal: None,
            growth: None,
            ended: BuildEnd::Failed,
        }
    }
}

/// Why a build did not succeed.
struct Failed {
    /// In one line.
    why: String,
    /// It filled more disk than it may: what it wrote is taken back.
    disk: bool,
    /// The signal that ended it, if one did.
    signal: Option<i32>,
    /// The machine could not start it: no fault of the bot's ([`BuildEnd::Machine`]).
    machine: bool,
}

/// A build whose box could not be prepared: its own fault where its folder or command is at
/// fault ([`SandboxError::is_the_bots`]), else the machine's, whose build never ran (its box's
/// cgroups, a box uid, a system folder): it was recorded as the bot's failed build.
fn unboxed(build: &str, e: &crate::sandbox::SandboxError) -> Failed {
    let bots = e.is_the_bots();
    let why = if bots {
        format!("build `{build}` could not start: {e}")
    } else {
        format!("build `{build}` could not start, no fault of the bot's: {e}")
    };
    Failed { why, disk: false, signal: None, machine: !bots }
}

/// Why a build was ended before it ended by itself.
enum Ended {
    TimedOut,
    /// The run was ended (Ctrl-C, SIGTERM, SIGHUP).
    Interrupted,
    /// It filled more disk than it may (what it wrote is taken back).
    Disk(String),
    /// Its processes held more memory together than its box's limit (in MiB).
    Memory(u64),
    /// A look at its memory took this long (more than [`MEMORY_LOOK_AT_MOST`] of the CPU, or
    /// [`MEMORY_LOOK_WALL_AT_MOST`] by the clock).
    Unmeasurable(LookTook),
    /// A process of it (this pid and name) may not be looked at by the arena (see
    /// `BoxHandle::build_look`).
    Unseen(i32, String),
}

/// A bot's earlier builds, for the cap across runs: its name (for the message), and what they
/// have added to its folder (`None` before its first build: nothing).
#[derive(Debug, Clone, Copy)]
pub struct Earlier<'a> {
    /// The bot's name.
    pub bot: &'a str,
    /// What its earlier builds have added to its folder.
    pub growth: Option<FolderGrowth>,
    /// The folder is the bot's own (`cwd`), a student's, where a hard link of a file outside it
    /// gets a copy of its own before the build (see [`own_copies`]); not the config's folder,
    /// the teacher's, which a build there may write whole anyway.
    pub own: bool,
}

/// A bot to build: its name, its build command, the folder it builds in, what its earlier
/// builds added there, and whether that folder is its own (see [`Earlier::own`]).
pub type ToBuild = (String, String, PathBuf, Option<FolderGrowth>, bool);

/// The folder before a build: its disk use, what the bot's earlier builds still count there,
/// and the bot's name.
struct Start<'a> {
    disk: DiskUse,
    spent: u64,
    bot: &'a str,
    /// Whether the run is ending: the build is then ended (see [`run_until`]).
    ending: &'a dyn Fn() -> bool,
}

/// Runs `build` (a shell command) in `folder` in a box, within `limits`, writing its whole
/// output to `out/log` (up to the disk cap). Never fails: a build that cannot start, fails,
/// times out or fills too much disk is an outcome with a problem; what a build that filled
/// too much wrote in the folder is taken back: what it created removed, what it grew cut back.
/// The disk cap holds for the folder's growth over the runs: what the `earlier` builds added
/// and still count takes from it (see [`FolderGrowth`]).
pub fn run(
    sandbox: &Sandbox,
    build: &str,
    folder: &Path,
    limits: BuildLimits,
    out: &Path,
    log: &str,
    earlier: Earlier,
) -> BuildOutcome {
    run_until(sandbox, build, folder, limits, out, log, earlier, &|| false)
}

/// [`run`], the build ended (as a time-out ends it) once `ending` says that the run is ending
/// (Ctrl-C, SIGTERM, SIGHUP): the run does not wait for its build to end by itself. No signal
/// of the terminal reaches a build on its own: it runs in a session of its own (`setsid`, in a
/// box or under a plain build's keeper) or, with the sandbox off, a process group of its own, so
/// Ctrl-C's SIGINT goes to the arena alone, and this ends the build. (A signal sent to every
/// process of a job, as Slurm sends it, reaches the build too.) Its outcome is then a problem
/// that no version records: the run records nothing of its builds
/// ([`super::versions::prepare`]).
#[allow(clippy::too_many_arguments)]
pub fn run_until(
    sandbox: &Sandbox,
    build: &str,
    folder: &Path,
    limits: BuildLimits,
    out: &Path,
    log: &str,
    earlier: Earlier,
    ending: &dyn Fn() -> bool,
) -> BuildOutcome {
    tracing::info!(build, folder = %folder.display(), "building");
    // The folder as it is now, held open: what is taken back is taken back there, whatever
    // the path names by then.
    let root = open_folder(folder);
    let mut looked = look_before(folder, root.as_ref().ok());
    // Its own folder's files that are also hard links outside it get copies of their own first
    // (noted in what the walk found: no file of it is another version, or the build's).
    let shared = std::mem::take(&mut looked.shared);
    if let Some(first) = shared.first().filter(|_| earlier.own) {
        let copied = match &root {
            Ok(root) => own_copies(root, &shared, &mut looked),
            Err(e) => Err((first, std::io::Error::new(e.kind(), format!("its folder cannot be opened: {e}")))),
        };
        match copied {
            Ok(1) => tracing::info!(
                "bot `{}`: 1 file was a hard link of a file outside its folder; it now has a copy of its own",
                earlier.bot
            ),
            Ok(n) => tracing::info!(
                "bot `{}`: {n} files were hard links of files outside its folder; each now has a copy of its own",
                earlier.bot
            ),
            Err((file, e)) => return BuildOutcome::refused(shared_file(file, &e)),
        }
    }
    let Looked { stamp: before, disk, holes, set_id: set_id_before, .. } = looked;
    let spent = earlier.growth.map_or(0, |g| g.counted(disk.bytes));
    let (base, folder_then) = (disk.bytes, Start { disk, spent, bot: earlier.bot, ending });
    let log_path = out.join(log);
    // The log is written under a temporary name and takes its own once whole: a run killed
    // during the build leaves only a temporary, which the next run removes.
    let name = log_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let writing = log_path.with_file_name(format!("{}{name}", crate::files::TEMPORARY_PREFIX));
    let mut result = run_boxed(sandbox, build, folder, limits, &writing, &folder_then);
    if writing.exists() {
        if let Err(e) = std::fs::rename(&writing, &log_path) {
            let why = format!("cannot write the build log {}: {e}", log_path.display());
            result = result.and(Err(Failed { why, disk: false, signal: None, machine: false }));
        }
    }
    if let Err(Failed { disk: true, .. }) = &result {
        match &root {
            Ok(root) => take_back(root, &before, &holes, |_| {}),
            Err(e) => {
                tracing::warn!(folder = %folder.display(), "cannot take back what a build over its disk cap wrote: {e}")
            }
        }
    }
    let Looked { stamp: after, disk: left, set_id, .. } = look_after(folder);
    // (A file set-uid or set-gid before the build, one a teacher's `tar` kept, is not the
    // build's doing: left as it was.)
    let set_id: Vec<String> = set_id.into_iter().filter(|p| set_id_before.binary_search(p).is_err()).collect();
    if !set_id.is_empty() {
        let why = set_id_taken_back(root.as_ref(), &set_id);
        tracing::warn!(bot = earlier.bot, "{why}");
        let failed = |signal| Failed { why: why.clone(), disk: false, signal, machine: false };
        result = match result {
            Ok(()) => Err(failed(None)),
            Err(f) if f.machine => Err(f),
            Err(f) => Err(Failed { why: format!("{}; {why}", f.why), disk: f.disk, ..failed(f.signal) }),
        };
    }
    let outputs = super::submission::changed(&before, &after);
    let created = outputs.iter().filter(|p| !before.contains_key(*p)).cloned().collect();
    let signal = result.as_ref().err().and_then(|f| f.signal);
    // (A build that failed as the run ended is said to have been stopped, not to have failed:
    // the run records none of its builds then. One that died of a signal the run's end sends
    // with the arena may have died before the arena saw its own: it waits a moment for it, as
    // the run does before it records anything, `versions::cut_short`.)
    let by_the_end = signal.is_some_and(|s| super::ENDING_SIGNALS.contains(&s));
    let ended = match &result {
        Ok(()) => BuildEnd::Built,
        Err(f) if f.machine => BuildEnd::Machine,
        Err(_) if ending() || (by_the_end && super::ending_within_a_moment(ending)) => BuildEnd::Stopped,
        Err(_) => BuildEnd::Failed,
    };
    // What the builds have added, this one's growth (or shrinking) included, as it is left
    // (taken back, for a build over its cap).
    let left = left.bytes;
    let growth = Some(FolderGrowth { added: spent.saturating_add(left).saturating_sub(base), left, cut_short: false });
    BuildOutcome { problem: result.err().map(|f| f.why), log: log.to_string(), outputs, created, signal, growth, ended }
}

/// Takes back what a build over its disk cap wrote in the open folder `dir`, as it was
/// `before`: what it created is removed (a file it put under an old name too), files it grew
/// are cut back to their size, and the `holes` of sparse files made again (walking the folder,
/// not listing it: the list may be what was too large). `meanwhile` is called with each path
/// just before it is undone (a test swaps a folder for a link there).
fn take_back(dir: &OwnedFd, before: &super::submission::Stamp, holes: &Holes, mut meanwhile: impl FnMut(&str)) {
    use std::os::unix::fs::MetadataExt;
    let folder = &through(dir);
    let mut walk = walkdir::WalkDir::new(folder).follow_links(false).min_depth(1).into_iter();
    while let Some(entry) = walk.next() {
        let Ok(entry) = entry else { continue };
        let Ok(path) = entry.path().strip_prefix(folder) else { continue };
        let rel = path.to_string_lossy().into_owned();
        meanwhile(&rel);
        let is_dir = entry.file_type().is_dir();
        let undone = match before.get(&rel) {
            None if is_dir => {
                walk.skip_current_dir();
                remove(dir, path, true)
            }
            None => remove(dir, path, false),
            Some(&(_, _, size, ino, _)) if entry.file_type().is_file() => match entry.metadata() {
                // Another file under the old name: the build's, as if it had made it.
                Ok(meta) if meta.ino() != ino => remove(dir, path, false),
                Ok(meta) => {
                    let holes = holes.get(&rel).map(|(_, h)| h);
                    let id = (meta.dev(), ino);
                    give_back(dir, path, id, (meta.len() > size).then_some(size), holes)
                }
                Err(_) => Ok(()),
            },
            Some(_) => Ok(()),
        };
        if let Err(e) = undone {
            tracing::warn!(path = %rel, "cannot take back what a build over its disk cap wrote: {e}");
        }
    }
}

/// Opens a bot's `folder` before its build (as the tournament names it, a link included), to
/// name what is in it from there, with [`parent_of`] and [`through`].
fn open_folder(folder: &Path) -> std::io::Result<OwnedFd> {
    use std::os::unix::fs::OpenOptionsExt;
    Ok(std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECTORY).open(folder)?.into())
}

/// A path to the open folder `dir` itself, for walking it: whatever its own path names now.
fn through(dir: &OwnedFd) -> PathBuf {
    PathBuf::from(format!("/proc/self/fd/{}", dir.as_raw_fd()))
}

/// The folder holding `rel` (relative to the open `folder`), and its name there: reached one
/// folder at a time, never through a link (the arena may be root, and a process of the
/// folder's owner may swap a folder on the way for a link to elsewhere at any time).
fn parent_of(folder: &OwnedFd, rel: &Path) -> std::io::Result<(OwnedFd, CString)> {
    use std::os::unix::ffi::OsStrExt;
    let mut names = rel.components().map(|c| match c {
        Component::Normal(name) => Ok(CString::new(name.as_bytes())?),
        _ => Err(std::io::Error::other("not a plain relative path")),
    });
    let mut last = names.next().ok_or_else(|| std::io::Error::other("an empty path"))??;
    let mut dir = folder.try_clone()?;
    for name in names {
        let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: openat on a descriptor we own and a NUL-terminated name; a new descriptor is ours.
        let fd = unsafe { libc::openat(dir.as_raw_fd(), last.as_ptr(), flags) };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            return Err(std::io::Error::other(format!(
                "{} is no folder now (not followed): {e}",
                last.to_string_lossy()
            )));
        }
        // SAFETY: `fd` was just opened, and nothing else owns it.
        dir = unsafe { OwnedFd::from_raw_fd(fd) };
        last = name?;
    }
    Ok((dir, last))
}

/// Removes `rel` (a file, or a folder with all it holds) from the open `folder`, through
/// [`parent_of`]. A folder goes by `remove_dir_all`, which follows no link inside, named from
/// its parent's descriptor (`/proc/self/fd`): no path is too deep, and no folder on the way is
/// looked up again.
fn remove(folder: &OwnedFd, rel: &Path, is_dir: bool) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let (dir, name) = parent_of(folder, rel)?;
    if is_dir {
        let name = std::ffi::OsStr::from_bytes(name.as_bytes());
        return std::fs::remove_dir_all(Path::new(&format!("/proc/self/fd/{}", dir.as_raw_fd())).join(name));
    }
    // SAFETY: unlinkat on a descriptor we own and a NUL-terminated name.
    if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The holes of the sparse files of a folder, by path (relative, as in a
/// [`super::submission::Stamp`]): the file's (device, inode), and (offset, length) of each hole.
type Holes = BTreeMap<String, ((u64, u64), Vec<(u64, u64)>)>;

/// Holes recorded before a build, at most: a sparse file beyond them is not made sparse again.
/// (Each costs two `lseek`s, before every build of the folder.)
const MAX_HOLES: usize = 1 << 16;

/// What one walk of a bot's folder finds: its [`super::submission::Stamp`], its disk use (as
/// [`disk_use`] counts it) and, before a build, the holes of its sparse files.
struct Looked {
    stamp: super::submission::Stamp,
    disk: DiskUse,
    holes: Holes,
    /// The regular files of the folder that are also hard links outside it (see [`Shared`]),
    /// by their first path.
    shared: Vec<Shared>,
    /// The regular files of the folder whose mode has the set-uid or set-gid bit, by path.
    set_id: Vec<String>,
}

/// A regular file of a bot's folder that is also a hard link outside it (a teacher's `cp -al`,
/// a local `git clone`'s objects, a venv `uv sync` linked to its cache): the build's box shows
/// the folder writable, and a write to that file is a write to the same file elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shared {
    /// Its device and inode, as the walk found it.
    id: (u64, u64),
    /// Its links in all then.
    links: u64,
    /// Its allocated bytes then (the walk counted them once).
    bytes: u64,
    /// Its names in the folder (relative to it), in the order the walk found them.
    paths: Vec<String>,
}

#[cfg(test)]
thread_local! {
    /// The walks of a folder on this thread, by kind (`look`, `disk_use`, `stamp`, and `watch`
    /// for a running build's): a test counts a build's walks by them.
    static WALKS: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Walk as before the walks were merged, a stamp, the holes and the disk use each a walk of
    /// its own (the control of the test that counts them).
    static SEPARATE_WALKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Called once a file's copy of its own is made, before it is swapped in (a test replaces
    /// the file meanwhile there, as a push would).
    static BEFORE_SWAP: std::cell::RefCell<Option<Box<dyn FnMut()>>> = std::cell::RefCell::new(None);
    /// Called once a file found replaced is swapped out, before it is swapped back (a test
    /// makes that fail).
    static BEFORE_SWAP_BACK: std::cell::RefCell<Option<Box<dyn FnMut()>>> = std::cell::RefCell::new(None);
    /// Remove the temporary name even where it holds the file a swap back failed to put back,
    /// as before (the control of the test that provokes it).
    static UNLINK_UNSWAPPED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The folder before its build, in one walk: its stamp (everything, ignored files too: what
/// is not in it is removed after a build over its cap), its disk use, and the holes of its
/// sparse files, opened through `dir` (the folder held open; none without it).
fn look_before(folder: &Path, dir: Option<&OwnedFd>) -> Looked {
    #[cfg(test)]
    if SEPARATE_WALKS.get() {
        let Looked { holes, shared, .. } = look(folder, dir);
        WALKS.with_borrow_mut(|w| w.push("stamp"));
        let stamp = super::submission::stamp(folder);
        return Looked { stamp, disk: disk_use(folder, u64::MAX), holes, shared, set_id: set_id_files(folder) };
    }
    look(folder, dir)
}

/// The folder after its build, in one walk: its stamp and its disk use.
fn look_after(folder: &Path) -> Looked {
    #[cfg(test)]
    if SEPARATE_WALKS.get() {
        WALKS.with_borrow_mut(|w| w.push("stamp"));
        return Looked {
            stamp: super::submission::stamp(folder),
            disk: disk_use(folder, u64::MAX),
            holes: Holes::new(),
            shared: Vec::new(),
            set_id: set_id_files(folder),
        };
    }
    look(folder, None)
}

/// Walks `folder` once (by its path, as [`super::submission::stamp`] and [`disk_use`] do, links
/// not followed): each path's [`super::submission::Facts`], the disk use, and, with the folder
/// held open as `dir`, the holes of the sparse files (those with fewer blocks than their size):
/// a build can fill them, taking disk without growing any file, and a build over its cap gives
/// them back ([`give_back`]).
fn look(folder: &Path, dir: Option<&OwnedFd>) -> Looked {
    #[cfg(test)]
    WALKS.with_borrow_mut(|w| w.push("look"));
    let (mut stamp, mut holes, mut left) = (super::submission::Stamp::new(), Holes::new(), MAX_HOLES);
    // Each regular file of several links, with its names found here.
    let mut links: std::collections::HashMap<(u64, u64), Shared> = std::collections::HashMap::new();
    let mut set_id = Vec::new();
    let disk = walk_disk(folder, u64::MAX, |path, meta| {
        use std::os::unix::fs::MetadataExt;
        let name = path.to_string_lossy().into_owned();
        if meta.is_file() && meta.mode() & SET_ID_BITS != 0 {
            set_id.push(name.clone());
        }
        if meta.is_file() && meta.nlink() > 1 {
            let id = (meta.dev(), meta.ino());
            let bytes = meta.blocks().saturating_mul(512);
            let file = links.entry(id).or_insert(Shared { id, links: meta.nlink(), bytes, paths: Vec::new() });
            file.paths.push(name.clone());
        }
        if let Some(dir) = dir.filter(|_| left > 0 && meta.is_file() && meta.blocks().saturating_mul(512) < meta.len())
        {
            let found = file_holes(dir, path, meta, left);
            left -= found.len();
            if !found.is_empty() {
                holes.insert(name.clone(), ((meta.dev(), meta.ino()), found));
            }
        }
        stamp.insert(name, super::submission::facts(meta));
    });
    let mut shared: Vec<Shared> = links.into_values().filter(|f| (f.paths.len() as u64) < f.links).collect();
    shared.sort_by(|a, b| a.paths.cmp(&b.paths));
    set_id.sort();
    Looked { stamp, disk, holes, shared, set_id }
}

/// The regular files under `folder` that are set-uid or set-gid, as [`look`] finds them (a
/// test's separate walks).
#[cfg(test)]
fn set_id_files(folder: &Path) -> Vec<String> {
    use std::os::unix::fs::MetadataExt;
    let mut set_id = Vec::new();
    walk_disk(folder, u64::MAX, |path, meta| {
        if meta.is_file() && meta.mode() & SET_ID_BITS != 0 {
            set_id.push(path.to_string_lossy().into_owned());
        }
    });
    set_id.sort();
    set_id
}

/// The set-uid and set-gid bits of a file's mode (`S_ISUID`, `S_ISGID`).
const SET_ID_BITS: u32 = 0o6000;

/// Why a build fails that left regular files set-uid or set-gid in its folder (`set_id`, by
/// path), whose bits the arena has taken back (through the open folder `root`; a file it cannot
/// change is named as such). A build of an arena that is not root runs as the arena's user: a
/// program set-uid to it, left in a student's folder, runs as the arena for any local user (a red
/// team read the arena's private files and wrote the league's results so). The builds' system
/// call filter refuses those bits (`sandbox::syscalls`); this takes back what got past it. Only
/// regular files: a folder's set-gid bit (which its new folders inherit) is harmless.
fn set_id_taken_back(root: Result<&OwnedFd, &std::io::Error>, set_id: &[String]) -> String {
    let mut kept = Vec::new();
    for rel in set_id {
        let back = match root {
            Ok(root) => take_back_set_id(root, Path::new(rel)),
            Err(e) => Err(std::io::Error::new(e.kind(), format!("its folder cannot be opened: {e}"))),
        };
        if let Err(e) = back {
            tracing::error!(path = %rel, "a build left a set-uid or set-gid file whose bits cannot be taken back: {e}");
            kept.push(rel.as_str());
        }
    }
    let cut = |path: &str| -> String { path.chars().take(200).collect() };
    let first = set_id.first().map_or(String::new(), |p| cut(p));
    let more = match set_id.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} other file{})", n - 1, if n == 2 { "" } else { "s" }),
    };
    let kept = if kept.is_empty() {
        "; their set-uid and set-gid bits have been removed".to_string()
    } else {
        format!("; the bits of {} could not be removed", kept.iter().map(|p| cut(p)).collect::<Vec<_>>().join(", "))
    };
    format!(
        "the build made a set-uid or set-gid program, {first}{more}: builds may not (such a program runs as the \
         arena's user for anyone){kept}"
    )
}

/// Removes the set-uid and set-gid bits of the regular file `rel` of the open `folder` (reached
/// without following a link; the build's processes are gone).
fn take_back_set_id(folder: &OwnedFd, rel: &Path) -> std::io::Result<()> {
    let (dir, name) = parent_of(folder, rel)?;
    // (Opened, not followed if a link, and changed through its descriptor (by its /proc name,
    // which names the file itself: a file the arena may not read has no other descriptor that
    // `fchmod` takes): a process of the build's left running, as `--sandbox none` may leave
    // one, could swap it for a link.)
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: openat on a descriptor we own and a NUL-terminated name.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fd was just opened and is ours alone.
    let file = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: fstat writes into the struct we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(file.as_raw_fd(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Ok(());
    }
    let mode = st.st_mode & 0o7777 & !SET_ID_BITS;
    let by_descriptor = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .map_err(|_| std::io::Error::other("a descriptor's name with a nul byte"))?;
    // SAFETY: chmod of a NUL-terminated path naming the descriptor we hold.
    if unsafe { libc::chmod(by_descriptor.as_ptr(), mode) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Why a build may not run in its own folder where a regular file is also a hard link outside it
/// and no copy of its own could be made (`why`, see [`own_copies`]): the build's box shows the
/// folder writable, and a write to that file is a write to the same file elsewhere. Alice's
/// build appended `sys.exit(3)` to her `botkit.py`, a link of Bob's, and Bob's bot crashed in
/// every match. (A build cannot make such a link: the box's folder is a mount of its own.) The
/// file's path is the student's: cut, as the box's messages cut theirs.
fn shared_file(file: &Shared, why: &std::io::Error) -> String {
    let path = file.paths.first().map_or("", String::as_str);
    let short: String = path.chars().take(200).collect();
    let cut = if short.len() < path.len() { "…" } else { "" };
    format!(
        "not built: its file {short}{cut} is a hard link of a file outside its folder ({} links) and no copy of \
         its own could be made there ({why}): its build could change that file too; give the folder files of its \
         own (`cp` without `-l`, `git clone --no-hardlinks`, `uv sync --link-mode copy`)",
        file.links
    )
}

/// Gives each file of `shared` (found in the open `folder` by the walk before its build) a copy
/// of its own ([`own_copy`]), and notes the copies in what that walk found (`looked`): their
/// inodes in its stamp and holes (a build's changes are told by them, and a file of another
/// inode under an old name is taken for the build's), their blocks in its disk use. Returns how
/// many were copied, or the first that could not be and why (the folder is not built then).
fn own_copies<'a>(
    folder: &OwnedFd,
    shared: &'a [Shared],
    looked: &mut Looked,
) -> Result<usize, (&'a Shared, std::io::Error)> {
    use std::os::unix::fs::MetadataExt;
    // The folders renamed in, by (device, inode), synced once all are copied.
    let mut dirs: std::collections::HashMap<(u64, u64), std::fs::File> = std::collections::HashMap::new();
    let mut result = Ok(shared.len());
    for file in shared {
        match own_copy(folder, file, &mut dirs) {
            Ok(meta) => {
                for path in &file.paths {
                    if let Some(facts) = looked.stamp.get_mut(path) {
                        *facts = super::submission::facts(&meta);
                    }
                    if let Some((id, _)) = looked.holes.get_mut(path) {
                        *id = (meta.dev(), meta.ino());
                    }
                }
                let bytes = meta.blocks().saturating_mul(512);
                looked.disk.bytes = looked.disk.bytes.saturating_sub(file.bytes).saturating_add(bytes);
            }
            Err(e) => {
                result = Err((file, e));
                break;
            }
        }
    }
    for dir in dirs.values() {
        if let Err(e) = dir.sync_all() {
            tracing::warn!("cannot sync a folder where a file was given a copy of its own: {e}");
        }
    }
    result
}

/// Replaces each name in the open `folder` of `file` (a file also linked outside it) by one copy
/// of its own: the same bytes (holes kept), permissions, owner (as far as the arena may give it)
/// and times, written to a temporary name beside the first name and synced, linked beside the
/// others, then swapped in for each name only while it is still the file the walk found
/// (`RENAME_EXCHANGE`, the swapped-out name checked and removed, or swapped back; where the file
/// system cannot swap, checked just before a rename). No link is followed on the way. Returns
/// the copy's metadata; a file that changed meanwhile is an error. `dirs` gathers the folders
/// renamed in, to sync.
fn own_copy(
    folder: &OwnedFd,
    file: &Shared,
    dirs: &mut std::collections::HashMap<(u64, u64), std::fs::File>,
) -> std::io::Result<std::fs::Metadata> {
    use std::os::unix::fs::MetadataExt;
    let places = file.paths.iter().map(|p| parent_of(folder, Path::new(p))).collect::<std::io::Result<Vec<_>>>()?;
    let Some((dir, name)) = places.first() else { return Err(std::io::Error::other("no name in the folder")) };
    let from = open_at(dir, name, false, file.id)?;
    let was = from.metadata()?;
    // The temporary name beside each name, while it is there.
    let mut temps: Vec<Option<CString>> = vec![None; places.len()];
    let copied = (|| {
        let (copy, temp) = create_temporary(dir)?;
        temps[0] = Some(temp);
        super::submission::copy_sparse(&from, &copy, was.len())?;
        keep_owner_mode_times(&copy, &was)?;
        copy.sync_all()?;
        let now = from.metadata()?;
        let facts = |m: &std::fs::Metadata| (m.len(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec());
        if facts(&now) != facts(&was) {
            return Err(std::io::Error::other("it changed while it was copied"));
        }
        for (i, (dir, _)) in places.iter().enumerate().skip(1) {
            temps[i] = Some(link_temporary(&copy, dir)?);
        }
        #[cfg(test)]
        BEFORE_SWAP.with_borrow_mut(|f| f.as_mut().map(|f| f()));
        for (i, (dir, name)) in places.iter().enumerate() {
            swap_in(dir, &mut temps[i], name, file.id)?;
            let here = std::fs::File::from(reopen_dir(dir)?);
            let meta = here.metadata()?;
            dirs.entry((meta.dev(), meta.ino())).or_insert(here);
        }
        copy.metadata()
    })();
    for ((dir, _), temp) in places.iter().zip(&temps) {
        if let Some(temp) = temp {
            // SAFETY: unlinkat on a descriptor we own and a NUL-terminated name.
            unsafe { libc::unlinkat(dir.as_raw_fd(), temp.as_ptr(), 0) };
        }
    }
    copied
}

/// A new file for writing (mode 0600, to be set) under a free temporary name in the open
/// folder `dir`, and that name.
fn create_temporary(dir: &OwnedFd) -> std::io::Result<(std::fs::File, CString)> {
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    at_a_free_name(|name| {
        // SAFETY: openat on a descriptor we own and a NUL-terminated name; a new descriptor is ours.
        let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags, 0o600 as libc::c_uint) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened, and nothing else owns it.
        Ok(std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
    })
}

/// Another name of the open file `copy` in the open folder `dir`: a free temporary one, linked
/// to that very file (through `/proc/self/fd`), whatever its first name is by then.
fn link_temporary(copy: &std::fs::File, dir: &OwnedFd) -> std::io::Result<CString> {
    let fd = CString::new(format!("/proc/self/fd/{}", copy.as_raw_fd())).map_err(std::io::Error::other)?;
    let ((), name) = at_a_free_name(|name| {
        // SAFETY: linkat on descriptors we own and NUL-terminated names.
        let r = unsafe {
            libc::linkat(libc::AT_FDCWD, fd.as_ptr(), dir.as_raw_fd(), name.as_ptr(), libc::AT_SYMLINK_FOLLOW)
        };
        if r == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    })?;
    Ok(name)
}

/// `make` at temporary names ([`crate::files::TEMPORARY_PREFIX`], this process's, each new)
/// until one is not taken already: what it made, and that name.
fn at_a_free_name<T>(mut make: impl FnMut(&CString) -> std::io::Result<T>) -> std::io::Result<(T, CString)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let name = format!("{}own-{}-{n}-{nanos}", crate::files::TEMPORARY_PREFIX, std::process::id());
        let name = CString::new(name).map_err(std::io::Error::other)?;
        match make(&name) {
            Ok(made) => return Ok((made, name)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Gives the copy `to` the owner (as far as the arena may: set-user and set-group bits only
/// with the owner and group they were given for), mode and times of the file `was` describes.
fn keep_owner_mode_times(to: &std::fs::File, was: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let fd = to.as_raw_fd();
    let mut mode = was.mode() & 0o7777;
    let is = to.metadata()?;
    if (is.uid(), is.gid()) != (was.uid(), was.gid()) {
        // SAFETY: fchown on a descriptor we own.
        if unsafe { libc::fchown(fd, was.uid(), was.gid()) } != 0 {
            // SAFETY: as above (the group alone: its owner may give it any of its groups).
            unsafe { libc::fchown(fd, u32::MAX, was.gid()) };
        }
        let is = to.metadata()?;
        if is.uid() != was.uid() {
            mode &= !0o4000;
        }
        if is.gid() != was.gid() {
            mode &= !0o2000;
        }
    }
    to.set_permissions(std::fs::Permissions::from_mode(mode))?;
    let times = [
        libc::timespec { tv_sec: was.atime(), tv_nsec: was.atime_nsec() },
        libc::timespec { tv_sec: was.mtime(), tv_nsec: was.mtime_nsec() },
    ];
    // SAFETY: futimens on a descriptor we own, with two timespecs.
    if unsafe { libc::futimens(fd, times.as_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Puts the file at the temporary name in `slot` (if any) under `name`, both in the open folder
/// `dir`, only if `name` is still the regular file `id`, which goes: swapped (`RENAME_EXCHANGE`),
/// the name swapped out checked and removed (swapped back if it is another file, put there
/// meanwhile); where the file system cannot swap, `name` is checked just before a rename over
/// it. `slot` is cleared once nothing of the arena's is left to remove there: the copy put in,
/// or a file put there meanwhile that could not be swapped back (the student's: it stays under
/// the temporary name, with a warning).
fn swap_in(dir: &OwnedFd, slot: &mut Option<CString>, name: &CString, id: (u64, u64)) -> std::io::Result<()> {
    let Some(temp) = slot.clone() else { return Ok(()) };
    let temp = &temp;
    let d = dir.as_raw_fd();
    let replaced = || std::io::Error::other("it was replaced while it was copied");
    // SAFETY: renameat2 on a descriptor we own and NUL-terminated names.
    if unsafe { libc::renameat2(d, temp.as_ptr(), d, name.as_ptr(), libc::RENAME_EXCHANGE) } == 0 {
        if is_file_at(dir, temp, id) {
            // SAFETY: unlinkat on a descriptor we own and a NUL-terminated name.
            if unsafe { libc::unlinkat(d, temp.as_ptr(), 0) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
            *slot = None;
            return Ok(());
        }
        #[cfg(test)]
        BEFORE_SWAP_BACK.with_borrow_mut(|f| f.as_mut().map(|f| f()));
        // SAFETY: as above.
        if unsafe { libc::renameat2(d, temp.as_ptr(), d, name.as_ptr(), libc::RENAME_EXCHANGE) } != 0 {
            let e = std::io::Error::last_os_error();
            tracing::warn!(
                name = %name.to_string_lossy(),
                kept_as = %temp.to_string_lossy(),
                "cannot put back a file replaced while it was copied ({e}): it is left under the temporary name"
            );
            // The temporary name holds the student's file now: it must not be removed.
            #[cfg(test)]
            if UNLINK_UNSWAPPED.get() {
                return Err(replaced());
            }
            *slot = None;
        }
        return Err(replaced());
    }
    let e = std::io::Error::last_os_error();
    if !matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)) {
        return Err(e);
    }
    if !is_file_at(dir, name, id) {
        return Err(replaced());
    }
    // SAFETY: renameat on a descriptor we own and NUL-terminated names.
    if unsafe { libc::renameat(d, temp.as_ptr(), d, name.as_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    *slot = None;
    Ok(())
}

/// Whether `name` in the open folder `dir` is the regular file `id` (device, inode), not followed.
fn is_file_at(dir: &OwnedFd, name: &CString, id: (u64, u64)) -> bool {
    // SAFETY: fstatat writes into the struct we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstatat on a descriptor we own and a NUL-terminated name.
    let r = unsafe { libc::fstatat(dir.as_raw_fd(), name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
    r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG && (st.st_dev, st.st_ino) == id
}

/// The open folder `dir` (perhaps opened `O_PATH`) opened again for reading, to sync it.
fn reopen_dir(dir: &OwnedFd) -> std::io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    // SAFETY: openat on a descriptor we own and a NUL-terminated name; a new descriptor is ours.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), c".".as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened, and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The holes, (offset, length), of the sparse file `rel` of the open `folder` found with `meta`
/// (none if it is no longer that file), at most `most`.
fn file_holes(folder: &OwnedFd, rel: &Path, meta: &std::fs::Metadata, most: usize) -> Vec<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let Ok(file) = open_file(folder, rel, false, (meta.dev(), meta.ino())) else { return Vec::new() };
    let fd = file.as_raw_fd();
    let (len, mut at, mut found) = (meta.len() as i64, 0i64, Vec::new());
    while at < len && found.len() < most {
        // SAFETY: lseek on a descriptor we own.
        let hole = unsafe { libc::lseek(fd, at, libc::SEEK_HOLE) };
        if hole < 0 || hole >= len {
            break;
        }
        // (No data after it: the hole runs to the end.)
        // SAFETY: as above.
        let data = unsafe { libc::lseek(fd, hole, libc::SEEK_DATA) };
        let end = if data < 0 { len } else { data.min(len) };
        if end <= hole {
            break;
        }
        found.push((hole as u64, (end - hole) as u64));
        at = end;
    }
    found
}

/// Opens `rel` in the open `folder` (for writing, or reading; through [`parent_of`]) only if it
/// is still the regular file `id` (device, inode) found there before the build: the arena may
/// be root, and the folder is the student's (a name or a parent folder swapped for a link, a
/// hard link to another file, or a FIFO, is refused; without blocking).
fn open_file(folder: &OwnedFd, rel: &Path, write: bool, id: (u64, u64)) -> std::io::Result<std::fs::File> {
    let (dir, name) = parent_of(folder, rel)?;
    open_at(&dir, &name, write, id)
}

/// Opens `name` in the open folder `dir` as [`open_file`] does: only if it is the regular file `id`.
fn open_at(dir: &OwnedFd, name: &CString, write: bool, id: (u64, u64)) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::MetadataExt;
    let mode = if write { libc::O_WRONLY } else { libc::O_RDONLY };
    let flags = mode | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: openat on a descriptor we own and a NUL-terminated name; a new descriptor is ours.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened, and nothing else owns it.
    let file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    let meta = file.metadata()?;
    if !meta.is_file() || (meta.dev(), meta.ino()) != id {
        return Err(std::io::Error::other("not the file that was there before the build"));
    }
    Ok(file)
}

/// Gives back what a build over its cap took in a file that was there (`rel` in the open
/// `folder`; `id`: its device and inode then): cut back to `size` where it grew, and its
/// `holes` punched again (they read as zeros, as before).
fn give_back(
    folder: &OwnedFd,
    rel: &Path,
    id: (u64, u64),
    size: Option<u64>,
    holes: Option<&Vec<(u64, u64)>>,
) -> std::io::Result<()> {
    if size.is_none() && holes.is_none() {
        return Ok(());
    }
    let file = open_file(folder, rel, true, id)?;
    if let Some(size) = size {
        file.set_len(size)?;
    }
    let fd = file.as_raw_fd();
    let punch = libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE;
    for &(at, len) in holes.into_iter().flatten() {
        // SAFETY: fallocate on a descriptor we own.
        if unsafe { libc::fallocate(fd, punch, at as i64, len as i64) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs the build; its error says why it failed, and whether for its disk.
fn run_boxed(
    sandbox: &Sandbox,
    build: &str,
    folder: &Path,
    limits: BuildLimits,
    log_path: &Path,
    folder_then: &Start,
) -> Result<(), Failed> {
    let other = |why: String| Failed { why, disk: false, signal: None, machine: false };
    if let Some(dir) = log_path.parent() {
        // (A league's `builds/`: its user's alone, as its other folders.)
        crate::files::make_private_folders(dir)
            .map_err(|e| other(format!("cannot write the build log {}: {e}", log_path.display())))?;
    }
    let log = std::fs::File::create(log_path)
        .map_err(|e| other(format!("cannot write the build log {}: {e}", log_path.display())))?;
    // The build writes into a pipe, never into the log file itself (which it could grow
    // without writing: `fallocate`); what passes the cap is counted and dropped.
    let (reader, writer) = std::io::pipe().map_err(|e| other(format!("build log: {e}")))?;
    let err_writer = writer.try_clone().map_err(|e| other(format!("build log: {e}")))?;
    let words = ["sh".to_string(), "-c".to_string(), build.to_string()];
    // Its folder's git metadata, read-only in its box: a build wrote a hook and `core.fsmonitor`
    // there for the teacher's next `git pull` to run, unboxed (without a box, nothing stops it).
    let read_only = super::submission::git_metadata(folder);
    let git_before = git_entries(folder);
    let launch = Launch { words: &words, folder: Some(folder), env: &[], build: true, read_only: &read_only };
    let (mut command, mut handle) = sandbox.command(&launch).map_err(|e| unboxed(build, &e))?;
    command.stdin(std::process::Stdio::null()).stdout(writer).stderr(err_writer);
    let base = &folder_then.disk;
    let shared = if sandbox.isolation().boxed { &[][..] } else { &SHARED_SCRATCH[..] };
    let watched: Vec<&Path> = std::iter::once(folder).chain(shared.iter().map(Path::new)).collect();
    let free_before = free_space(&watched);
    // What the build writes is copied into its log by a thread started before the build: one
    // the machine cannot start (no process, thread or memory left) starts no build. (Should the
    // build not start, the pipe's other ends go with the command, and the copy ends at once.)
    let logged = std::sync::Arc::new(AtomicU64::new(0));
    let (copied, done) = std::sync::mpsc::sync_channel(1);
    let copier = {
        let logged = logged.clone();
        std::thread::Builder::new().name("arena-build-log".into()).spawn(move || {
            copy_capped(reader, log, limits.disk_bytes, &logged);
            let _ = copied.send(());
        })
    };
    if let Err(e) = copier {
        handle.release();
        let hint = crate::sandbox::machine_hint(&e);
        let why = format!(
            "build `{build}` could not start, no fault of the bot's: the machine could not start a thread to copy \
             its log: {e}{hint}"
        );
        return Err(Failed { why, disk: false, signal: None, machine: true });
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            // (A process the machine could not start is no fault of the bot's, whose build never
            // ran: settled as a bot's process is, see `Sandbox::machine_fault`.)
            let fault = sandbox.machine_fault(&launch, &e);
            handle.release();
            return Err(match fault {
                Some(fault) => Failed {
                    why: format!("build `{build}` could not start, no fault of the bot's: {fault}"),
                    disk: false,
                    signal: None,
                    machine: true,
                },
                None => {
                    let e = crate::sandbox::StartFault::readable(e);
                    other(format!("build `{build}` could not start: {e}"))
                }
            });
        }
    };
    // (The command, which holds the pipe's other copies, must go for the log to end.)
    drop(command);
    handle.started(child.id());
    let start = Instant::now();
    // How far the free space fell past the cap, if it did: cheap, so looked at every quarter
    // second even while a slow walk of a folder of many entries waits for its turn.
    let free_over = || {
        let fell = fallen(&free_before, &free_space(&watched));
        (fell > limits.disk_bytes.saturating_add(FREE_SPACE_SLACK)).then(|| {
            format!(
                "filled more than {} MiB of disk (the free space fell by {} MiB)",
                limits.disk_bytes >> 20,
                fell >> 20
            )
        })
    };
    // What the build filled past its limits, if it did.
    let filled = || {
        let used = disk_use(folder, base.entries + MAX_NEW_ENTRIES);
        let log = logged.load(Ordering::Relaxed);
        let grown = used.bytes.saturating_sub(base.bytes).saturating_add(log);
        // (A folder unreadable already before the build is not the build's doing.)
        if let Some(dir) = used.unreadable.filter(|_| base.unreadable.is_none()) {
            let rel = dir.strip_prefix(folder).unwrap_or(&dir).display().to_string();
            let short: String = rel.chars().take(60).collect();
            let cut = if short.len() < rel.len() { "…" } else { "" };
            Some(format!("made a folder the arena cannot read ({short}{cut})"))
        } else if folder_then.spent > 0 && grown.saturating_add(folder_then.spent) > limits.disk_bytes {
            Some(format!(
                "stopped: bot {}'s builds have filled {} MiB over the runs (its folder's growth, and this build's log), more than build_disk_mb ({} MiB): clean its folder (make clean) or raise build_disk_mb",
                folder_then.bot,
                grown.saturating_add(folder_then.spent).div_ceil(1 << 20),
                limits.disk_bytes >> 20
            ))
        } else if grown > limits.disk_bytes {
            Some(format!("filled more than {} MiB of disk (its folder and its log)", limits.disk_bytes >> 20))
        } else if used.entries > base.entries + MAX_NEW_ENTRIES {
            Some(format!("made more than {MAX_NEW_ENTRIES} files and folders"))
        } else if used.path_bytes > base.path_bytes + MAX_NEW_PATH_BYTES {
            Some(format!("made paths of more than {} MiB together", MAX_NEW_PATH_BYTES >> 20))
        } else {
            free_over()
        }
    };
    // Its memory: a box whose memory cgroup limits it is held by the kernel. Without one (a plain
    // build, a box without a memory cgroup), each of its processes is held only to the limit
    // (its address space), and they are summed as a bot's are (see `BoxHandle::look`): three
    // processes of 1.5 GiB each held 4.5 GiB under a build's 4 GiB.
    // Past the limit on their resident sets together, it is confirmed with their proportional
    // sets (PSS: a page shared copy-on-write by a process and its forked children counts once,
    // as it is held once; see `BoxHandle::build_look`).
    let summed = handle.memory_is_summed();
    let proportional = std::env::var_os(WITHOUT_PSS).is_none();
    // (A look at many processes takes a while: as for the disk, at most a fifth of the time goes
    // to looking. 2,000 processes looked at every 100 ms cost the arena 7 s of CPU in 14.)
    let (mut memory_looked, mut memory_look) = (start, LookTook::default());
    // (A large folder takes a while to walk: at most a fifth of the time goes to walking it.)
    let (mut measured, mut walk, mut looked) = (start, Duration::ZERO, start);
    let status = std::thread::scope(|scope| {
        // The looks at its memory run on a thread of their own (where one can be started; here
        // otherwise), so that a slow look keeps neither the build's timeout, nor its end, nor the run's
        // interruption waiting: the watch goes on while a look runs, and holds the look to its limits
        // as it runs (its thread's CPU clock, and the wall clock).
        let look = || look_at_memory(&handle, proportional);
        let mut looker = summed.then(|| Looker::start(scope, look)).flatten();
        loop {
            let over = if measured.elapsed() >= DISK_EVERY.max(walk * 4) {
                measured = Instant::now();
                let found = filled().map(Ended::Disk);
                walk = measured.elapsed();
                looked = Instant::now();
                found
            } else if looked.elapsed() >= DISK_EVERY {
                looked = Instant::now();
                free_over().map(Ended::Disk)
            } else {
                None
            };
            let over = over
                .or_else(|| {
                    if !summed {
                        return None;
                    }
                    if looker.as_ref().is_some_and(|l| l.gone) {
                        looker = None;
                    }
                    if let Some(looker) = looker.as_mut().filter(|l| l.running.is_some()) {
                        return match looker.result() {
                            LookState::Running(took) => matches!(next_memory_look(took), NextLook::TooSlow(_))
                                .then_some(Ended::Unmeasurable(took)),
                            LookState::Done(over, took) => {
                                (memory_look, memory_looked) = (took, Instant::now());
                                over
                            }
                        };
                    }
                    match next_memory_look(memory_look) {
                        NextLook::TooSlow(took) => return Some(Ended::Unmeasurable(took)),
                        NextLook::After(wait) if memory_looked.elapsed() < wait => return None,
                        NextLook::After(_) => {}
                    }
                    if let Some(looker) = looker.as_mut() {
                        looker.ask();
                        return None;
                    }
                    let (began, cpu, queued) = (Instant::now(), thread_cpu(), run_queue_wait(None));
                    let over = look();
                    memory_look = LookTook::since(began, cpu, queued, run_queue_wait(None), thread_cpu());
                    memory_looked = Instant::now();
                    over
                })
                .or_else(|| (start.elapsed() >= limits.timeout).then_some(Ended::TimedOut))
                .or_else(|| (folder_then.ending)().then_some(Ended::Interrupted));
            // (Its end is seen without reaping it: see `ended_unreaped`.)
            match ended_unreaped(&child, false) {
                // (A build that ended is measured once more: it may have been quick.)
                Ok(true) => {
                    break filled().map_or(Ok(()), |why| {
                        Err(Failed { why: format!("build `{build}` {why}"), disk: true, signal: None, machine: false })
                    })
                }
                Ok(false) if over.is_some() => {
                    handle.kill();
                    let asked = Instant::now();
                    while matches!(ended_unreaped(&child, false), Ok(false)) && asked.elapsed() < EXIT_GRACE {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    let _ = child.kill();
                    let _ = ended_unreaped(&child, true);
                    break Err(match over {
                        Some(Ended::Disk(why)) => {
                            Failed { why: format!("build `{build}` {why}"), disk: true, signal: None, machine: false }
                        }
                        Some(Ended::Interrupted) => other(format!("build `{build}` was ended with the run")),
                        Some(Ended::Memory(mb)) => other(format!(
                            "build `{build}` held more than {mb} MiB of memory together (all its processes), and was \
                         stopped: build with fewer jobs at once (make -j1, cargo build -j1), or raise \
                         build_memory_mb"
                        )),
                        Some(Ended::Unmeasurable(took)) if too_slow_for_the_machine(took) => Failed {
                            why: format!("build `{build}` was stopped, no fault of the bot's: {}", too_slow_why(took)),
                            disk: false,
                            signal: None,
                            machine: true,
                        },
                        Some(Ended::Unmeasurable(took)) => other(format!(
                            "build `{build}` holds too many processes, files or sockets to be measured ({}): no build \
                         needs so many; build with fewer jobs at once (make -j1, cargo build -j1)",
                            too_slow_why(took)
                        )),
                        Some(Ended::Unseen(pid, name)) => other(format!(
                            "build `{build}` was stopped: its process {pid} ({}) cannot be looked at by the arena, \
                             so neither its memory nor its pipes and sockets can be counted; it runs a binary it \
                             may not read (execute-only, chmod 111)? make it readable (chmod 755)",
                            crate::safe_text::quoted(&name)
                        )),
                        _ => other(format!("build `{build}` timed out after {} s", limits.timeout.as_secs())),
                    });
                }
                Ok(false) => std::thread::sleep(Duration::from_millis(25)),
                Err(e) => {
                    // (Not to be waited for while it runs on.)
                    handle.kill();
                    let _ = child.kill();
                    break Err(other(format!("build `{build}`: {e}")));
                }
            }
        }
        // (The looking thread ends with its look, which a build killed or gone ends soon: the scope
        // waits for it.)
    });
    // The build's process is reaped only now, its looks all done: until then its pid is its own
    // (a zombie's), and a look still in flight when it ended, walking its tree from that pid,
    // cannot walk another process's that took the pid once free (see `ended_unreaped`).
    let reaped = child.wait();
    let status = status.and_then(|()| reaped.map_err(|e| other(format!("build `{build}`: {e}"))));
    let memory_mb = handle.memory_limit_mb();
    handle.release();
    // Everything of the build is gone, and its pipe closed with it (unless a process escaped a
    // plain build's keeper: then the log is read as it is, and the copy goes on to its cap).
    let _ = done.recv_timeout(EXIT_GRACE);
    let text = log_summary(log_path);
    // (Looked at whatever the build's end: one that failed may have planted git metadata too.
    // A build that failed for its disk has its say first: a folder too deep to walk is its.)
    let git = git_before.as_ref().and_then(|before| git_changes(folder, before));
    let also = |why: String| match &git {
        Some(git) => format!("{why}; and it {git}"),
        None => why,
    };
    match status {
        Ok(s) if s.success() => match git {
            Some(why) => {
                Err(Failed { why: format!("build `{build}` {why}"), disk: false, signal: None, machine: false })
            }
            None => Ok(()),
        },
        Ok(s) => Err(Failed {
            signal: std::os::unix::process::ExitStatusExt::signal(&s)
                .or_else(|| s.code().and_then(crate::engine::Ending::shell_signal)),
            ..other(also(format!(
                "build `{build}` failed ({s}): {}{}",
                first_error(&text),
                if summed && ran_out_of_memory(&text) { out_of_memory_hint(memory_mb) } else { String::new() }
            )))
        }),
        Err(f) if f.disk => Err(Failed { why: format!("{}: {}", f.why, first_error(&text)), ..f }),
        Err(f) => Err(Failed { why: also(format!("{}: {}", f.why, first_error(&text))), ..f }),
    }
}

/// Each git metadata entry of a folder by its path there: its identity (device, inode) and the
/// digest of what git acts on in it (see [`git_entries`]).
type GitEntries = BTreeMap<PathBuf, ((u64, u64), blake3::Hash)>;

/// The git metadata in a bot's folder, at any depth: each entry named `.git` (a folder, or a
/// file naming one), by its path, with its identity (device, inode) and a digest of what git
/// acts on in it (see [`git_digest`]). A teacher's `git status` in the folder runs what a
/// `.git` configures (`core.fsmonitor`, hooks), and in a submodule's or a nested repository's
/// too: a build that made `sdk/.git` for a submodule the student's repository records had its
/// command run as root. A walk that cannot be made says nothing (`None`).
fn git_entries(folder: &Path) -> Option<GitEntries> {
    use std::os::unix::fs::MetadataExt;
    let mut found = BTreeMap::new();
    let mut walk = walkdir::WalkDir::new(folder).follow_links(false).min_depth(1).into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.ok()?;
        if entry.file_name() != ".git" {
            continue;
        }
        if entry.file_type().is_dir() {
            walk.skip_current_dir();
        }
        let meta = entry.path().symlink_metadata().ok()?;
        let rel = entry.path().strip_prefix(folder).ok()?.to_path_buf();
        found.insert(rel, ((meta.dev(), meta.ino()), git_digest(entry.path())));
    }
    Some(found)
}

/// A digest of the git metadata at `path` (a `.git` folder or file, not followed): every file
/// in it but its objects, logs, index and locks (a build's `git describe --dirty` refreshes the
/// index; none of these runs anything), each by its path, mode and first MiB.
fn git_digest(path: &Path) -> blake3::Hash {
    use std::os::unix::fs::MetadataExt;
    let mut hasher = blake3::Hasher::new();
    let skipped = |name: &std::ffi::OsStr| {
        name == "objects" || name == "logs" || name == "index" || name.as_encoded_bytes().ends_with(b".lock")
    };
    let mut walk = walkdir::WalkDir::new(path).follow_links(false).sort_by_file_name().into_iter();
    while let Some(Ok(entry)) = walk.next() {
        if entry.depth() > 0 && skipped(entry.file_name()) {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        let rel = entry.path().strip_prefix(path).unwrap_or(entry.path());
        hasher.update(rel.as_os_str().as_encoded_bytes());
        hasher.update(&[0]);
        if let Ok(meta) = entry.path().symlink_metadata() {
            hasher.update(&meta.mode().to_le_bytes());
        }
        if entry.file_type().is_file() {
            if let Ok(file) = std::fs::File::open(entry.path()) {
                let _ = std::io::copy(&mut file.take(1 << 20), &mut hasher);
            }
        } else if entry.file_type().is_symlink() {
            if let Ok(target) = std::fs::read_link(entry.path()) {
                hasher.update(target.as_os_str().as_encoded_bytes());
            }
        }
        hasher.update(&[0xff]);
    }
    hasher.finalize()
}

/// What a build did to its folder's git metadata, from the walks before and after it
/// ([`git_entries`]): a `.git` it made is removed (not followed: a link goes, not what it
/// names), and one it changed or moved is named; either fails the build, saying so (`None`:
/// nothing). The folder's own `.git` is read-only in a build's box, the others are not.
fn git_changes(folder: &Path, before: &GitEntries) -> Option<String> {
    let Some(after) = git_entries(folder) else {
        return Some("left a folder whose git metadata cannot be read: run no git there".to_string());
    };
    let known: BTreeMap<(u64, u64), &PathBuf> = before.iter().map(|(path, (id, _))| (*id, path)).collect();
    let (mut made, mut changed) = (Vec::new(), Vec::new());
    for (path, (id, digest)) in &after {
        match known.get(id) {
            Some(&was) if was == path && before.get(path).is_some_and(|(_, old)| old == digest) => {}
            Some(_) => changed.push(path.display().to_string()),
            None => {
                let at = folder.join(path);
                let dir = at.symlink_metadata().is_ok_and(|m| m.is_dir());
                let removed = if dir { std::fs::remove_dir_all(&at) } else { std::fs::remove_file(&at) };
                made.push(match removed {
                    Ok(()) => format!("{} (removed)", path.display()),
                    Err(e) => format!("{} (could not be removed: {e}; remove it)", path.display()),
                });
            }
        }
    }
    let gone = before.keys().filter(|path| !after.contains_key(*path)).count();
    let mut why = Vec::new();
    if !made.is_empty() {
        why.push(format!("made git metadata in its folder: {}", made.join(", ")));
    }
    if !changed.is_empty() || gone > 0 {
        let gone = if gone > 0 { format!(" ({gone} gone)") } else { String::new() };
        why.push(format!(
            "changed or moved git metadata in its folder: {}{gone}; run no git there (its hooks and \
             configuration would run) and give the folder a fresh clone",
            changed.join(", ")
        ));
    }
    (!why.is_empty()).then(|| format!("{}: a build may not write git metadata", why.join("; ")))
}

/// Copies `from` (a build's output) into `to` as the arena's logs keep a program's lines
/// ([`crate::referee::log::kept_line`]: a teacher who `cat`s the log gets no escape sequence but
/// colours', which end with their line), until `cap` bytes (whole lines: the first that does not
/// fit and all after it are dropped); `total` counts every byte read, and what the guard added.
fn copy_capped(mut from: std::io::PipeReader, mut to: std::fs::File, cap: u64, total: &AtomicU64) {
    let mut buf = vec![0u8; 64 << 10];
    let mut written = 0u64;
    // (The bytes read of a line not yet ended, at most about `LOG_PIECE`.)
    let mut pending: Vec<u8> = Vec::new();
    let write = |text: &[u8], to: &mut std::fs::File, written: &mut u64| {
        let kept = log_text(text);
        // (What the guard adds, a control shown in up to four characters, is disk the log takes
        // too, counted with the bytes read.)
        total.fetch_add((kept.len() as u64).saturating_sub(text.len() as u64), Ordering::Relaxed);
        // A piece that does not fit is kept up to the end of its last line that does, and
        // nothing after it: a cut inside a line could leave a colour on, or half a character.
        let room = cap.saturating_sub(*written) as usize;
        let keep = match kept.len() <= room {
            true => kept.len(),
            false => kept.as_bytes()[..room].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        };
        if keep > 0 && to.write_all(&kept.as_bytes()[..keep]).is_ok() {
            *written += keep as u64;
        }
        if keep < kept.len() {
            *written = cap;
        }
    };
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        total.fetch_add(n as u64, Ordering::Relaxed);
        if written >= cap {
            continue;
        }
        pending.extend_from_slice(&buf[..n]);
        let end = match pending.iter().rposition(|&b| b == b'\n') {
            Some(i) => i + 1,
            // (A line past the piece is kept piece by piece, each cut where a character ends:
            // an escape sequence cut in two shows its escape, and its rest is plain text.)
            None if pending.len() >= LOG_PIECE => match std::str::from_utf8(&pending) {
                Err(e) if e.error_len().is_none() => e.valid_up_to().max(1),
                _ => pending.len(),
            },
            None => 0,
        };
        if end > 0 {
            write(&pending[..end], &mut to, &mut written);
            pending.drain(..end);
        }
    }
    if !pending.is_empty() {
        write(&pending, &mut to, &mut written);
    }
}

/// The longest piece of a build's output line kept at once ([`copy_capped`]).
const LOG_PIECE: usize = 64 << 10;

/// `bytes` of a build's output as its log keeps them ([`copy_capped`]; bytes that are no UTF-8
/// become U+FFFD).
fn log_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    crate::referee::log::keep_lines(&String::from_utf8_lossy(bytes), &mut out);
    out
}

/// Whether a build's log says it ran out of memory: an allocation refused (`ENOMEM`, as a
/// process's address-space limit refuses it) in the words of the C library, a compiler, Rust,
/// C++ or Python.
fn ran_out_of_memory(log: &str) -> bool {
    let lower = log.to_lowercase();
    ["cannot allocate memory", "out of memory", "memory exhausted", "memory allocation of", "bad_alloc", "memoryerror"]
        .iter()
        .any(|said| lower.contains(said))
}

/// What a build whose log says it ran out of memory ([`ran_out_of_memory`]) is told, its limit
/// `mb` MiB.
fn out_of_memory_hint(mb: u64) -> String {
    format!(
        " (it ran out of memory: each of its processes, and all of them together, may hold {mb} MiB: raise \
         build_memory_mb, or build with fewer jobs at once)"
    )
}

/// The start and the end of a log (it may be large), as text for [`first_error`].
fn log_summary(path: &Path) -> String {
    let Ok(mut file) = std::fs::File::open(path) else { return String::new() };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut bytes = Vec::new();
    let _ = (&mut file).take(LOG_HEAD).read_to_end(&mut bytes);
    if len > LOG_HEAD + LOG_TAIL && file.seek(std::io::SeekFrom::End(-(LOG_TAIL as i64))).is_ok() {
        bytes.push(b'\n');
        let _ = file.take(LOG_TAIL).read_to_end(&mut bytes);
    } else {
        let _ = file.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Disk use under a folder (see [`disk_use`]).
pub(super) struct DiskUse {
    /// Allocated bytes.
    pub(super) bytes: u64,
    /// Files and folders.
    pub(super) entries: u64,
    /// Their paths' lengths, together (what a list of them takes in memory).
    path_bytes: u64,
    /// A folder that could not be listed (its path too long, or not readable by the arena).
    unreadable: Option<PathBuf>,
}

/// Disk used under `dir` (allocated blocks, a file of several hard links once; symbolic links
/// not followed), counting no further than `most` files and folders. Also what a bot's kept
/// copies take ([`super::versions::limit_copies`]).
pub(super) fn disk_use(dir: &Path, most: u64) -> DiskUse {
    #[cfg(test)]
    WALKS.with_borrow_mut(|w| w.push(if most == u64::MAX { "disk_use" } else { "watch" }));
    walk_disk(dir, most, |_, _| {})
}

/// Walks `dir` (links not followed) and counts its disk use as [`disk_use`] says, no further
/// than `most` files and folders, giving `visit` each entry's path (relative to `dir`) and
/// metadata: the one walk behind [`disk_use`] and [`look`].
fn walk_disk(dir: &Path, most: u64, mut visit: impl FnMut(&Path, &std::fs::Metadata)) -> DiskUse {
    use std::os::unix::fs::MetadataExt;
    let mut used = DiskUse { bytes: 0, entries: 0, path_bytes: 0, unreadable: None };
    let mut linked = std::collections::HashSet::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        let d = if rel.as_os_str().is_empty() { dir.to_path_buf() } else { dir.join(&rel) };
        let list = match std::fs::read_dir(&d) {
            Ok(list) => list,
            // Removed (or made a file) since it was listed: it holds nothing now. rustc makes
            // and removes `rustcXXXX` folders in `target/*/deps`, and an honest build must not
            // fail as if it hid its disk there. (A build that keeps renaming folders to hide
            // them between looks is still held by the free space, and by the look at its end.)
            Err(e) if !rel.as_os_str().is_empty() && gone(&e) => continue,
            Err(_) => {
                used.unreadable.get_or_insert(d);
                continue;
            }
        };
        for entry in list.flatten() {
            used.entries += 1;
            if used.entries > most {
                return used;
            }
            used.path_bytes += entry.path().as_os_str().len() as u64;
            let Ok(meta) = entry.metadata() else { continue };
            // (Cargo links its outputs: `target/debug/bot` is `target/debug/deps/bot-…`.)
            if meta.nlink() < 2 || meta.is_dir() || linked.insert((meta.dev(), meta.ino())) {
                used.bytes = used.bytes.saturating_add(meta.blocks().saturating_mul(512));
            }
            let path = rel.join(entry.file_name());
            visit(&path, &meta);
            if meta.is_dir() {
                todo.push(path);
            }
        }
    }
    used
}

/// Whether listing a folder failed because it is no longer there.
fn gone(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
}

/// Where a build may write besides its folder when it runs without a box (`--sandbox plain`;
/// a box has its own scratch space): their file systems' free space is watched too.
const SHARED_SCRATCH: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// Free bytes (for anyone but root) of each distinct file system holding `dirs`, by its id.
fn free_space(dirs: &[&Path]) -> BTreeMap<u64, u64> {
    let mut free = BTreeMap::new();
    for dir in dirs {
        let Ok(c) = std::ffi::CString::new(std::os::unix::ffi::OsStrExt::as_bytes(dir.as_os_str())) else { continue };
        // SAFETY: statvfs writes into the struct we own.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } == 0 {
            free.insert(st.f_fsid as u64, (st.f_bavail as u64).saturating_mul(st.f_frsize as u64));
        }
    }
    free
}

/// How much free space fell from `before` to `now`, over all the file systems in both.
fn fallen(before: &BTreeMap<u64, u64>, now: &BTreeMap<u64, u64>) -> u64 {
    before.iter().map(|(fs, &was)| was.saturating_sub(now.get(fs).copied().unwrap_or(was))).sum()
}

/// The line of a build log that says what went wrong: the first line naming an error (a
/// compiler's `error:`, `Error`, `fatal`), else the last non-empty line; at most 300 bytes.
/// rustup fetching a toolchain a bot pins is said as such: what it fails with then (a
/// read-only folder, no network) names none of the cause.
pub fn first_error(log: &str) -> String {
    if let Some(toolchain) = missing_toolchain(log) {
        return cut(&format!(
            "toolchain {toolchain} pinned by rust-toolchain.toml (or rust-toolchain) is not installed where the arena builds (builds have no network): install it there, or remove the pin"
        ))
        .to_string();
    }
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
    cut(line).to_string()
}

/// `text` cut to at most 300 bytes (at a character's boundary).
fn cut(text: &str) -> &str {
    let mut end = text.len().min(300);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The toolchain rustup set out to install during a build (`info: syncing channel updates for
/// '1.86.0-x86_64-unknown-linux-gnu'`, quoted or not): one the bot pins and the arena lacks.
fn missing_toolchain(log: &str) -> Option<&str> {
    log.lines().find_map(|l| {
        let name = l.trim().strip_prefix("info: syncing channel updates for ")?.trim().trim_matches(['\'', '`']);
        (!name.is_empty()).then_some(name)
    })
}

/// Runs each distinct (build command, folder) once, the first bot's earlier growth counted
/// (see [`FolderGrowth`]); returns each bot's outcome, by name. The log is named after the first bot by [`crate::files::name_part`], so two bots' logs never
/// share a file (`a.b` and `a_b`) and a long name still makes a file name. `refuse` is asked
/// about each bot just before its build (the builds before it may have changed the files on
/// the way to its folder): a bot it gives a reason for is not built, and its outcome is that
/// reason, with no log (see [`BuildOutcome::refused`]). `built` is told each outcome as it
/// comes (a run cut short still knows what the builds before the cut did), and `steps` when
/// each build starts and ends. A build is ended once `ending` says the run is (see
/// [`run_until`]).
pub fn build_all(
    sandbox: &Sandbox,
    bots: &[ToBuild],
    (limits, out, stamp, ending): (BuildLimits, &Path, u64, &dyn Fn() -> bool),
    refuse: &mut dyn FnMut(&str) -> Option<String>,
    built: &mut dyn FnMut(&str, &BuildOutcome),
    steps: &dyn Fn(Step<'_>),
) -> BTreeMap<String, BuildOutcome> {
    let mut by_command: BTreeMap<(String, PathBuf), BuildOutcome> = BTreeMap::new();
    let mut outcomes = BTreeMap::new();
    for (name, build, folder, growth, own) in bots {
        if let Some(why) = refuse(name) {
            outcomes.insert(name.clone(), BuildOutcome::refused(why));
            continue;
        }
        let key = (build.clone(), folder.clone());
        let outcome = by_command
            .entry(key)
            .or_insert_with(|| {
                let earlier = Earlier { bot: name, growth: *growth, own: *own };
                // (Named by every bot it builds: the sample bots share one `cargo build`.)
                let sharing: Vec<String> =
                    bots.iter().filter(|(_, b, f, _, _)| (b, f) == (build, folder)).map(|b| b.0.clone()).collect();
                timed(&sharing, steps, || {
                    run_until(sandbox, build, folder, limits, out, &free_log_name(out, name, stamp), earlier, ending)
                })
            })
            .clone();
        built(name, &outcome);
        outcomes.insert(name.clone(), outcome);
    }
    outcomes
}

/// A build starting or ending, for what the command line shows while the bots build.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// The build of these bots (one command in one folder) starts.
    Start(&'a [String]),
    /// It ended, after this long, so.
    End(&'a [String], Duration, BuildEnd),
}

/// Runs `build` (of the bots `names`), telling `steps` when it starts and ends.
pub fn timed(names: &[String], steps: &dyn Fn(Step<'_>), build: impl FnOnce() -> BuildOutcome) -> BuildOutcome {
    steps(Step::Start(names));
    let began = Instant::now();
    let outcome = build();
    steps(Step::End(names, began.elapsed(), outcome.ended));
    outcome
}

/// The name of a new build log of bot `name` at `stamp`, relative to the league folder `out`:
/// `builds/<name>-<stamp>.log`, numbered on when a run in the same second wrote that one (a
/// version's first log is kept, so it must not be overwritten).
pub fn free_log_name(out: &Path, name: &str, stamp: u64) -> String {
    let part = crate::files::name_part(name);
    (1u32..)
        .map(|n| if n == 1 { format!("builds/{part}-{stamp}.log") } else { format!("builds/{part}-{stamp}-{n}.log") })
        .find(|log| !out.join(log).exists())
        .unwrap_or_else(|| format!("builds/{part}-{stamp}.log"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wait between two looks at a summed build's memory is four times the last look, but
    /// never more than half a second (a build whose looks took 15 s was unwatched long between
    /// them, and held 1.4 GiB under 1,024 so), nor less than a tenth; a look of more than 2 s but
    /// for its waits for the CPU (CPU, or kept waiting by the build's processes) stops the build,
    /// and one of more than 5 s by the clock, whatever it waited on. The control: a look slow
    /// only for its waits for the CPU (a loaded machine's: 5 s of the wall clock, 4.8 s of them on
    /// a run queue, a tenth of a second of CPU) measures on, half a second later; the same look
    /// not on a run queue (kept waiting by the build, as on its memory's lock) stops it.
    #[test]
    fn a_slow_look_at_a_builds_memory_waits_half_a_second_at_most_and_a_very_slow_one_stops_it() {
        let ms = Duration::from_millis;
        let took = |cpu: u64, wall: u64, queued: u64| LookTook { cpu: ms(cpu), wall: ms(wall), queued: ms(queued) };
        assert_eq!(next_memory_look(took(1, 1, 0)), NextLook::After(ms(100)), "the control: a quick look");
        assert_eq!(next_memory_look(took(50, 50, 0)), NextLook::After(ms(200)));
        assert_eq!(next_memory_look(took(125, 125, 0)), NextLook::After(ms(500)));
        assert_eq!(next_memory_look(took(1_000, 1_000, 0)), NextLook::After(ms(500)), "not 4 s");
        assert_eq!(next_memory_look(took(2_000, 2_000, 0)), NextLook::After(ms(500)), "2 s is still measured");
        assert_eq!(next_memory_look(took(2_001, 2_001, 0)), NextLook::TooSlow(took(2_001, 2_001, 0)));
        let red = took(15_000, 15_000, 0);
        assert_eq!(next_memory_look(red), NextLook::TooSlow(red), "the red team's look");
        let loaded = took(100, 5_000, 4_800);
        assert_eq!(next_memory_look(loaded), NextLook::After(ms(500)), "the control: a loaded machine's look");
        let stalled = took(100, 5_000, 0);
        assert_eq!(next_memory_look(stalled), NextLook::TooSlow(stalled), "a look the build kept waiting");
        let stalled = took(100, 2_500, 0);
        assert_eq!(next_memory_look(stalled), NextLook::TooSlow(stalled), "kept waiting 2.4 s");
        assert_eq!(next_memory_look(took(100, 2_500, 500)), NextLook::After(ms(500)), "2 s but for the run queue");
        assert_eq!(
            next_memory_look(took(2_000, 5_000, 3_000)),
            NextLook::After(ms(500)),
            "5 s by the clock is measured"
        );
        let waiting = took(100, 5_001, 4_901);
        assert_eq!(next_memory_look(waiting), NextLook::TooSlow(waiting), "the backstop");
        let never = LookTook { cpu: Duration::ZERO, wall: Duration::MAX, queued: Duration::MAX };
        assert_eq!(next_memory_look(never), NextLook::TooSlow(never));
        assert!(!too_slow_for_the_machine(red) && !too_slow_for_the_machine(stalled));
        assert!(too_slow_for_the_machine(waiting) && too_slow_for_the_machine(never));
        let why = too_slow_why(red);
        assert!(
            why.contains("15.0 s of the arena's time, more than 2 s (15.0 s of its CPU, 0.0 s kept waiting"),
            "{why}"
        );
        let why = too_slow_why(stalled);
        assert!(
            why.contains("2.5 s of the arena's time, more than 2 s (0.1 s of its CPU, 2.4 s kept waiting"),
            "{why}"
        );
        let why = too_slow_why(waiting);
        assert!(
            why.contains("5.1 s by the clock, more than 5 s, 4.9 s of it waiting for the CPU: the machine"),
            "{why}"
        );
    }

    /// The looking thread's wait on a run queue counts while it waits for the CPU, not while it
    /// sleeps: a tenth of a second asleep adds little (less than half of it); the control, two
    /// threads more busy than the machine has CPUs for a while, adds some.
    #[test]
    fn the_run_queue_wait_counts_waits_for_the_cpu_not_sleep() {
        let Some(before) = run_queue_wait(None) else { return eprintln!("skipped: no schedstat") };
        std::thread::sleep(Duration::from_millis(100));
        let slept = run_queue_wait(None).unwrap_or_default().saturating_sub(before);
        assert!(slept < Duration::from_millis(50), "asleep: {slept:?}");
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spinners: Vec<_> = (0..cpus * 2)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || while !stop.load(std::sync::atomic::Ordering::Relaxed) {})
            })
            .collect();
        let (before, start) = (run_queue_wait(None).unwrap_or_default(), std::time::Instant::now());
        while start.elapsed() < Duration::from_millis(300) {}
        let busy = run_queue_wait(None).unwrap_or_default().saturating_sub(before);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        spinners.into_iter().for_each(|t| t.join().unwrap());
        assert!(busy > Duration::ZERO, "the control, among more busy threads than CPUs: {busy:?}");
    }

    /// The looking thread's CPU time counts what it runs, not what the wall clock passes while it
    /// waits: a tenth of a second asleep adds little (less than half of it), and the control, a
    /// tenth of a second busy, adds some.
    #[test]
    fn the_looks_clock_counts_the_threads_cpu_not_its_waits() {
        let before = thread_cpu();
        std::thread::sleep(Duration::from_millis(100));
        let slept = thread_cpu().saturating_sub(before);
        assert!(slept < Duration::from_millis(50), "asleep: {slept:?}");
        let before = thread_cpu();
        let began = Instant::now();
        let mut spin = 0u64;
        while began.elapsed() < Duration::from_millis(100) {
            spin = std::hint::black_box(spin.wrapping_add(1));
        }
        let busy = thread_cpu().saturating_sub(before);
        assert!(busy > Duration::ZERO, "busy: {busy:?}");
    }

    /// A look at a build's memory runs on a thread of its own: the watch gets control back at
    /// once, sees the look running with the CPU it has taken so far (so that it can stop a look
    /// too slow, and the build at its timeout, while the look runs), and its answer once it ends.
    /// The look here spins until the test lets it end, so no timing is assumed: before, the
    /// watch looked itself and waited for it all.
    #[test]
    fn a_look_runs_beside_the_watch_which_sees_what_it_takes_as_it_runs() {
        use std::sync::atomic::AtomicBool;
        let (release, looks) = (AtomicBool::new(false), AtomicU64::new(0));
        /// Lets the spinning look end however the test leaves its scope: a failed assertion
        /// inside it then fails the test, where the scope waited for the look for ever (a CI run
        /// hung so).
        struct Release<'a>(&'a AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        std::thread::scope(|scope| {
            let _release = Release(&release);
            let look = || {
                looks.fetch_add(1, Ordering::Relaxed);
                let mut spin = 0u64;
                while !release.load(Ordering::Relaxed) {
                    spin = std::hint::black_box(spin.wrapping_add(1));
                }
                Some(Ended::Memory(1))
            };
            let mut looker = Looker::start(scope, look).expect("a thread");
            looker.ask();
            let began = Instant::now();
            let took = loop {
                match looker.result() {
                    LookState::Running(took) if took.cpu > Duration::ZERO => break took,
                    LookState::Running(_) if began.elapsed() < Duration::from_secs(60) => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    LookState::Running(took) => panic!("the look's CPU never showed: {took:?}"),
                    LookState::Done(..) => panic!("the look cannot end before it is let"),
                }
            };
            assert!(looker.running.is_some() && took.wall > Duration::ZERO, "{took:?}");
            // (Its run-queue wait is read by its id as it looks, wherever the machine keeps one.)
            let queued = looker.tid.and_then(|tid| run_queue_wait(Some(tid)));
            assert!(queued.is_some() || run_queue_wait(None).is_none(), "the looking thread's schedstat");
            assert_eq!(looks.load(Ordering::Relaxed), 1);
            release.store(true, Ordering::Relaxed);
            let began = Instant::now();
            loop {
                match looker.result() {
                    LookState::Done(over, took) => {
                        assert!(matches!(over, Some(Ended::Memory(1))) && took.cpu > Duration::ZERO, "{took:?}");
                        break;
                    }
                    LookState::Running(_) if began.elapsed() < Duration::from_secs(60) => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    LookState::Running(took) => panic!("the look never ended: {took:?}"),
                }
            }
            assert!(looker.running.is_none() && !looker.gone);
        });
    }

    /// A build's end is seen without its process being reaped (`ended_unreaped`, as the watch
    /// sees it): its pid stays its own, a zombie's, for a look still in flight, until it is
    /// reaped once the looks are done, its exit status its own then. The control: `try_wait`, as
    /// the watch saw the end before, reaps it at once, its pid free for another process.
    #[test]
    fn a_builds_end_is_seen_without_freeing_its_pid() {
        let state = |pid: u32| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next())
        };
        let mut child = std::process::Command::new("sh").args(["-c", "sleep 0.2; exit 3"]).spawn().unwrap();
        let pid = child.id();
        let before = ended_unreaped(&child, false).unwrap();
        assert!(ended_unreaped(&child, true).unwrap(), "waited for until it ended");
        let (zombie, seen_again) = (state(pid), ended_unreaped(&child, false).unwrap());
        let status = child.wait().unwrap();
        assert!(!before, "running at first");
        assert_eq!((zombie, seen_again), (Some('Z'), true), "ended, not reaped: the pid is still its own");
        assert_eq!(status.code(), Some(3), "its own status, once reaped");
        assert_eq!(state(pid), None, "reaped: the pid is free");
        // The control.
        let mut child = std::process::Command::new("sh").args(["-c", "exit 3"]).spawn().unwrap();
        let (pid, began) = (child.id(), Instant::now());
        let status = loop {
            match child.try_wait().unwrap() {
                Some(status) => break status,
                None if began.elapsed() < Duration::from_secs(60) => std::thread::sleep(Duration::from_millis(5)),
                None => panic!("`sh -c 'exit 3'` never ended"),
            }
        };
        assert_eq!((status.code(), state(pid)), (Some(3), None), "seen to end, and reaped: the pid is free");
    }

    /// A build whose box the machine could not prepare is the machine's fault, not the bot's
    /// failed build (its cgroups, a box uid); the control: its own folder's fault is its own.
    #[test]
    fn a_build_whose_box_the_machine_could_not_prepare_is_no_bot_s_failure() {
        use crate::sandbox::SandboxError;
        let cgroups = SandboxError::Setup { what: "the box's cgroups".into(), source: std::io::Error::other("full") };
        let failed = unboxed("make", &cgroups);
        assert!(failed.machine && failed.why.contains("no fault of the bot's"), "{}", failed.why);
        let folder = SandboxError::Files("its folder is missing".into());
        let failed = unboxed("make", &folder);
        assert!(!failed.machine && !failed.why.contains("no fault"), "the control: {}", failed.why);
    }

    /// Git metadata a build made or changed anywhere in its folder: a bot in a folder of a larger
    /// repository (`alice/bot`, the repository at `alice`) whose build made a `.git` of its own
    /// there, naming another commit (the next run's label read that commit: the control); one that
    /// made `sdk/.git` for a submodule, whose `core.fsmonitor` a teacher's `git status` ran; and
    /// one that changed a nested repository's configuration. What it made is removed (a link, not
    /// what it names), what it changed is named, and either fails the build; a refreshed index
    /// (`git describe --dirty`) is no change.
    #[test]
    fn git_metadata_a_build_made_or_changed_fails_it() {
        let dir = tempfile::tempdir().unwrap();
        let (repo, folder) = (dir.path().join("alice"), dir.path().join("alice/bot"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("bot.c"), "int main;").unwrap();
        let git = |at: &Path, args: &[&str]| {
            let out = super::super::submission::tests::git(at, args);
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-qm", "bot"]);
        let head = git(&repo, &["rev-parse", "--short=7", "HEAD"]);
        let label = || super::super::submission::git_label(&folder, Some(dir.path()));
        assert_eq!(label(), Some(head.clone()));
        let before = git_entries(&folder).unwrap();
        assert!(before.is_empty());
        assert_eq!(git_changes(&folder, &before), None, "nothing made: nothing to say");
        // What the build made: a git folder whose HEAD names another commit.
        let forged = "1111111111111111111111111111111111111111";
        std::fs::create_dir_all(folder.join(".git/refs/heads")).unwrap();
        std::fs::create_dir_all(folder.join(".git/objects")).unwrap();
        std::fs::write(folder.join(".git/HEAD"), format!("{forged}\n")).unwrap();
        assert_eq!(label(), Some(forged[..7].to_string()), "the control: the label read the forged commit");
        let why = git_changes(&folder, &before).unwrap();
        assert!(why.contains("made git metadata in its folder: .git (removed)"), "{why}");
        assert!(std::fs::symlink_metadata(folder.join(".git")).is_err(), "it is gone");
        assert_eq!(label(), Some(head), "the repository's commit again");
        // A link goes, not what it names.
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, folder.join(".git")).unwrap();
        assert!(git_changes(&folder, &before).is_some());
        assert!(std::fs::symlink_metadata(folder.join(".git")).is_err() && elsewhere.is_dir());

        // The repository's own folder, a nested repository in it, and a submodule's place.
        let before = git_entries(&repo).unwrap();
        assert_eq!(before.keys().cloned().collect::<Vec<_>>(), [PathBuf::from(".git")]);
        git(&repo, &["describe", "--always", "--dirty"]);
        std::fs::write(repo.join(".git/index.lock"), "").unwrap();
        assert_eq!(git_changes(&repo, &before), None, "an index refreshed, a lock: no change");
        std::fs::remove_file(repo.join(".git/index.lock")).unwrap();
        std::fs::create_dir_all(repo.join("sdk/.git")).unwrap();
        std::fs::write(repo.join("sdk/.git/config"), "[core]\n\tfsmonitor = touch ran\n").unwrap();
        let why = git_changes(&repo, &before).unwrap();
        assert!(why.contains("made git metadata in its folder: sdk/.git (removed)"), "{why}");
        assert!(!repo.join("sdk/.git").exists());
        std::fs::create_dir_all(repo.join("vendor/x")).unwrap();
        git(&repo.join("vendor/x"), &["init", "-q"]);
        let before = git_entries(&repo).unwrap();
        assert_eq!(before.len(), 2);
        let config = repo.join("vendor/x/.git/config");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(&config, text + "[core]\n\tfsmonitor = touch ran\n").unwrap();
        let why = git_changes(&repo, &before).unwrap();
        assert!(why.contains("changed or moved git metadata in its folder: vendor/x/.git;"), "{why}");
        assert!(config.exists(), "a repository's own metadata is named, not removed");
    }

    /// A folder of every kind of entry: folders (one empty), two names of one file, a link out
    /// (not followed), a sparse file; what the build may touch.
    fn rich_folder(folder: &Path, outside: &Path) {
        use std::os::unix::fs::FileExt;
        std::fs::create_dir_all(folder.join("src/deep")).unwrap();
        std::fs::create_dir(folder.join("empty")).unwrap();
        std::fs::write(folder.join("src/main.c"), b"int main;").unwrap();
        std::fs::write(folder.join("src/deep/a"), vec![7u8; 10_000]).unwrap();
        std::fs::hard_link(folder.join("src/deep/a"), folder.join("linked")).unwrap();
        std::os::unix::fs::symlink(outside, folder.join("out")).unwrap();
        std::fs::write(outside.join("big"), vec![1u8; 100_000]).unwrap();
        let sparse = std::fs::File::create(folder.join("src/sparse")).unwrap();
        sparse.write_all_at(b"x", 0).unwrap();
        sparse.write_all_at(b"y", 1 << 20).unwrap();
    }

    /// One walk finds what the three did: the stamp (`take_back` removes what is not in it),
    /// the disk use (hard links once, no link followed) and the holes of sparse files.
    #[test]
    fn one_walk_finds_what_the_stamp_the_disk_use_and_the_holes_found() {
        use std::os::unix::fs::MetadataExt;
        let (dir, outside) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let folder = dir.path().join("bot");
        rich_folder(&folder, outside.path());
        let root = open_folder(&folder).unwrap();
        let looked = look_before(&folder, Some(&root));
        assert_eq!(looked.stamp, super::super::submission::stamp(&folder));
        assert_eq!(looked.stamp.len(), 8);
        let (disk, old) = (&looked.disk, disk_use(&folder, u64::MAX));
        assert_eq!(
            (disk.bytes, disk.entries, disk.path_bytes, &disk.unreadable),
            (old.bytes, old.entries, old.path_bytes, &old.unreadable)
        );
        let meta = std::fs::metadata(folder.join("src/sparse")).unwrap();
        if meta.blocks() * 512 < meta.len() {
            let id = (meta.dev(), meta.ino());
            assert!(
                matches!(looked.holes.get("src/sparse"), Some((i, h)) if *i == id && !h.is_empty()),
                "{:?}",
                looked.holes
            );
        }
        assert_eq!(looked.holes.len(), usize::from(meta.blocks() * 512 < meta.len()));
        assert!(look_after(&folder).holes.is_empty());
        assert_eq!(
            disk_use(&folder.join("none"), u64::MAX).unreadable,
            look(&folder.join("none"), None).disk.unreadable
        );
    }

    /// A sandbox for the builds of the tests: a box where one can be made, else none.
    fn test_sandbox() -> Sandbox {
        Sandbox::new(crate::sandbox::SandboxMode::Require, Default::default())
            .or_else(|_| Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()))
            .unwrap()
    }

    /// A build is ended once the run is ending (SIGTERM sent to the arena alone, by a batch
    /// system or `kill`, reaches no build), its outcome a problem that says why. The control:
    /// the same build while the run goes on runs until its time-out ends it.
    #[test]
    fn a_build_is_ended_with_the_run() {
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let sandbox = test_sandbox();
        let limits = BuildLimits { timeout: Duration::from_secs(5), disk_bytes: 1 << 30 };
        let earlier = Earlier { bot: "bob", growth: None, own: true };
        // (The run ends once the build has begun: its box may take a while to make.)
        let ending = || dir.path().join("started").exists();
        let outcome =
            run_until(&sandbox, "touch started; sleep 30", dir.path(), limits, out.path(), "a.log", earlier, &ending);
        assert_eq!(outcome.problem.as_deref().map(|p| p.contains("was ended with the run")), Some(true), "{outcome:?}");
        // The control.
        std::fs::remove_file(dir.path().join("started")).unwrap();
        let outcome = run(&sandbox, "touch started; sleep 30", dir.path(), limits, out.path(), "b.log", earlier);
        assert!(dir.path().join("started").exists(), "the build ran");
        assert_eq!(outcome.problem.as_deref().map(|p| p.contains("timed out after 5 s")), Some(true), "{outcome:?}");
    }

    /// A build's log keeps no escape sequence but colours', each ended with its line: a build
    /// printing `ESC ] 52` set the clipboard of the teacher who `cat`s its log (`ESC [ 2 J`
    /// cleared the screen, `ESC [ 8 m` hid the lines after). A line longer than a piece, cut
    /// through an escape sequence, shows its escape too; plain lines are as they came. The
    /// control: the same command's output, as it came, holds each sequence.
    #[test]
    fn a_build_log_shows_escapes_it_would_have_sent() {
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let sandbox = test_sandbox();
        let limits = BuildLimits { timeout: Duration::from_secs(20), disk_bytes: 1 << 30 };
        let earlier = Earlier { bot: "bob", growth: None, own: true };
        // (The long line's escape comes as the piece's last byte, the rest of its sequence after
        // a pause: read later, the line is whole, and shown the same.)
        let long = "x".repeat(LOG_PIECE - 1);
        let build = format!(
            "printf 'gcc -O2 bot.c\\n\\033]52;c;cm0gLXJmIH4=\\007copied\\n\\033[2Jcleared\\n\\033[8mhidden\\n\
             \\033[1;31merror:\\033[0m red\\n{long}\\033'; sleep 0.3; printf '[2J\\n'"
        );
        let raw = std::process::Command::new("sh").args(["-c", &build]).output().unwrap().stdout;
        let raw = String::from_utf8(raw).unwrap();
        for (sequence, n) in [("\u{1b}]52;", 1), ("\u{1b}[2J", 2), ("\u{1b}[8m", 1)] {
            assert_eq!(raw.matches(sequence).count(), n, "the control: {sequence:?}");
        }
        let outcome = run(&sandbox, &build, dir.path(), limits, out.path(), "a.log", earlier);
        assert_eq!(outcome.problem, None, "{outcome:?}");
        let log = std::fs::read_to_string(out.path().join("a.log")).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 6, "{:?}", lines.iter().take(5).collect::<Vec<_>>());
        assert_eq!(lines[0], "gcc -O2 bot.c");
        assert_eq!(lines[1], "\\e]52;c;cm0gLXJmIH4=\\acopied");
        assert_eq!(lines[2], "\\e[2Jcleared");
        assert_eq!(lines[3], "\u{1b}[8mhidden\u{1b}[0m", "a colour is kept, and ended with its line");
        assert_eq!(lines[4], "\u{1b}[1;31merror:\u{1b}[0m red", "a colour ended by its line is as it came");
        assert!(lines[5].starts_with(&long) && &lines[5][long.len()..] == "\\e[2J", "{:?}", &lines[5][long.len()..]);
        assert_eq!(log.matches('\u{1b}').count(), 4, "{:?}", lines.iter().take(5).collect::<Vec<_>>());
    }

    /// A build's log past its cap keeps whole lines only: a build sized its output so that the cap
    /// fell just after a colour that hides text, before its end. What the guard adds counts as
    /// disk the log takes. The control: the same lines without a cap are kept whole.
    #[test]
    fn a_build_log_cut_at_its_cap_keeps_whole_lines() {
        let copied = |cap: u64| {
            let dir = tempfile::tempdir().unwrap();
            let (reader, mut writer) = std::io::pipe().unwrap();
            let feeder = std::thread::spawn(move || {
                writer.write_all(b"ok\n\x1b[8mhidden\n\x08\x08\x08 shown\n").unwrap();
            });
            let (path, total) = (dir.path().join("a.log"), AtomicU64::new(0));
            copy_capped(reader, std::fs::File::create(&path).unwrap(), cap, &total);
            feeder.join().unwrap();
            (std::fs::read_to_string(&path).unwrap(), total.load(Ordering::Relaxed))
        };
        let (whole, total) = copied(1 << 20);
        assert_eq!(whole, "ok\n\u{1b}[8mhidden\u{1b}[0m\n\\b\\b\\b shown\n", "the control");
        assert_eq!(total, whole.len() as u64, "the bytes read and what the guard added");
        // The cap falls inside the hidden line's end: that line and all after it are dropped.
        let (cut, _) = copied(3 + 8 + 2);
        assert_eq!(cut, "ok\n");
    }

    /// A build whose own folder holds a hard link of a file outside it runs on a copy of its
    /// own of that file (the same bytes, mode and time), and the file outside is left as it
    /// was: Alice's `botkit.py`, a link of Bob's, took her build's `SystemExit` into Bob's bot.
    /// The copy is no change of hers: no output, the folder walked once before and once after.
    /// Links inside the folder alone stay links. The control: the same build in a folder that is
    /// no bot's own (the config's, the teacher's, not looked at) writes Bob's file.
    #[test]
    fn a_build_gets_its_own_copy_of_a_file_that_is_a_hard_link_of_another_folder_s() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (alice, bob) = (dir.path().join("alice"), dir.path().join("bob"));
        std::fs::create_dir_all(alice.join("lib")).unwrap();
        std::fs::create_dir_all(&bob).unwrap();
        let kit = "def act(view):\n    return 'WAIT'\n";
        std::fs::write(bob.join("botkit.py"), kit).unwrap();
        std::fs::set_permissions(bob.join("botkit.py"), std::fs::Permissions::from_mode(0o640)).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        std::fs::File::options().write(true).open(bob.join("botkit.py")).unwrap().set_modified(old).unwrap();
        std::fs::hard_link(bob.join("botkit.py"), alice.join("botkit.py")).unwrap();
        // A second name of it in her folder: one copy for both.
        std::fs::hard_link(bob.join("botkit.py"), alice.join("lib/kit.py")).unwrap();
        let bobs = std::fs::metadata(bob.join("botkit.py")).unwrap();
        let (sandbox, limits) = (test_sandbox(), BuildLimits { timeout: Duration::from_secs(60), disk_bytes: 1 << 30 });
        let attack = "printf 'raise SystemExit(3)\\n' >> botkit.py";
        let earlier = Earlier { bot: "alice", growth: None, own: true };
        // First a build that writes nothing: the copy is no change of the folder's.
        WALKS.with_borrow_mut(Vec::clear);
        let outcome = run(&sandbox, "true", &alice, limits, out.path(), "builds/a.log", earlier);
        assert_eq!(outcome.problem, None);
        assert_eq!(outcome.outputs, Vec::<String>::new(), "the copies are no output of the build");
        let walks = WALKS.with_borrow(|w| w.iter().filter(|&&k| k != "watch").copied().collect::<Vec<_>>());
        assert_eq!(walks, ["look", "look"]);
        let (hers, also) =
            (std::fs::metadata(alice.join("botkit.py")).unwrap(), std::fs::metadata(alice.join("lib/kit.py")).unwrap());
        assert_ne!(hers.ino(), bobs.ino(), "a file of her own");
        assert_eq!((hers.ino(), hers.nlink()), (also.ino(), 2), "her two names of it are still one file");
        assert_eq!((hers.mode(), hers.modified().unwrap(), hers.len()), (bobs.mode(), old, bobs.len()));
        assert_eq!(std::fs::metadata(bob.join("botkit.py")).unwrap().nlink(), 1);
        let leftovers: Vec<_> = std::fs::read_dir(&alice)
            .unwrap()
            .flatten()
            .filter(|e| crate::files::is_temporary(&e.file_name()))
            .map(|e| e.file_name())
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        // The attack: her file written, Bob's as it was.
        let outcome = run(&sandbox, attack, &alice, limits, out.path(), "builds/b.log", earlier);
        assert_eq!(outcome.problem, None);
        assert!(std::fs::read_to_string(alice.join("botkit.py")).unwrap().ends_with("raise SystemExit(3)\n"));
        assert_eq!(std::fs::read_to_string(bob.join("botkit.py")).unwrap(), kit, "Bob's file as it was");
        // Two names of one file, both in the folder: left as they are.
        std::fs::remove_file(alice.join("lib/kit.py")).unwrap();
        std::fs::hard_link(alice.join("botkit.py"), alice.join("kit.py")).unwrap();
        let ino = std::fs::metadata(alice.join("botkit.py")).unwrap().ino();
        let outcome = run(&sandbox, "true", &alice, limits, out.path(), "builds/c.log", earlier);
        assert_eq!(outcome.problem, None);
        assert_eq!(std::fs::metadata(alice.join("kit.py")).unwrap().ino(), ino, "still the same file");
        // The control: her link to Bob's file again, built as the config's folder is (the
        // teacher's, not looked at): run, it writes Bob's file.
        std::fs::remove_file(alice.join("botkit.py")).unwrap();
        std::fs::remove_file(alice.join("kit.py")).unwrap();
        std::fs::hard_link(bob.join("botkit.py"), alice.join("botkit.py")).unwrap();
        let teachers = Earlier { own: false, ..earlier };
        let outcome = run(&sandbox, attack, &alice, limits, out.path(), "builds/d.log", teachers);
        assert_eq!(outcome.problem, None);
        assert!(std::fs::read_to_string(bob.join("botkit.py")).unwrap().ends_with("raise SystemExit(3)\n"));
    }

    /// A file replaced by another while its copy of its own was made (a push meanwhile) is not
    /// replaced by that copy: the build is not run, the message says why, and the new file, the
    /// file outside, and no temporary are left. The control: without the push, it builds.
    #[test]
    fn a_file_replaced_while_it_is_copied_keeps_the_new_file_and_is_not_built() {
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (alice, bob) = (dir.path().join("alice"), dir.path().join("bob"));
        std::fs::create_dir_all(&alice).unwrap();
        std::fs::create_dir_all(&bob).unwrap();
        std::fs::write(bob.join("botkit.py"), "bob's\n").unwrap();
        std::fs::hard_link(bob.join("botkit.py"), alice.join("botkit.py")).unwrap();
        let (sandbox, limits) = (test_sandbox(), BuildLimits { timeout: Duration::from_secs(60), disk_bytes: 1 << 30 });
        let earlier = Earlier { bot: "alice", growth: None, own: true };
        let kit = alice.join("botkit.py");
        let push = kit.clone();
        BEFORE_SWAP.with_borrow_mut(|f| {
            *f = Some(Box::new(move || {
                std::fs::remove_file(&push).unwrap();
                std::fs::write(&push, "pushed\n").unwrap();
            }))
        });
        let attack = "printf 'raise SystemExit(3)\\n' >> botkit.py";
        let outcome = run(&sandbox, attack, &alice, limits, out.path(), "builds/a.log", earlier);
        BEFORE_SWAP.with_borrow_mut(|f| *f = None);
        let problem = outcome.problem.unwrap_or_default();
        assert!(
            problem.contains(
                "its file botkit.py is a hard link of a file outside its folder (2 links) and no copy of its own \
                 could be made there (it was replaced while it was copied)"
            ),
            "{problem}"
        );
        assert_eq!(std::fs::read_to_string(&kit).unwrap(), "pushed\n", "the push kept");
        assert_eq!(std::fs::read_to_string(bob.join("botkit.py")).unwrap(), "bob's\n");
        assert_eq!(std::fs::read_dir(&alice).unwrap().count(), 1, "no temporary left");
        // The control: linked again, no push: built, on a copy of its own.
        std::fs::remove_file(&kit).unwrap();
        std::fs::hard_link(bob.join("botkit.py"), &kit).unwrap();
        let outcome = run(&sandbox, attack, &alice, limits, out.path(), "builds/b.log", earlier);
        assert_eq!(outcome.problem, None);
        assert_eq!(std::fs::read_to_string(&kit).unwrap(), "bob's\nraise SystemExit(3)\n");
        assert_eq!(std::fs::read_to_string(bob.join("botkit.py")).unwrap(), "bob's\n");
    }

    /// Where a file replaced while it was copied cannot be swapped back (its name gone
    /// meanwhile), the student's new file, under the temporary name then, is left there, not
    /// removed with the temporaries. The control: removing that name, as before, loses it.
    #[test]
    fn a_replaced_file_that_cannot_be_swapped_back_is_not_removed() {
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (alice, bob) = (dir.path().join("alice"), dir.path().join("bob"));
        std::fs::create_dir_all(&alice).unwrap();
        std::fs::create_dir_all(&bob).unwrap();
        std::fs::write(bob.join("botkit.py"), "bob's\n").unwrap();
        let (sandbox, limits) = (test_sandbox(), BuildLimits { timeout: Duration::from_secs(60), disk_bytes: 1 << 30 });
        let earlier = Earlier { bot: "alice", growth: None, own: true };
        let kit = alice.join("botkit.py");
        let attack = "printf 'raise SystemExit(3)\\n' >> botkit.py";
        // What alice's folder holds after a build during which the linked file was replaced by
        // a push, then its name removed (the copy swapped in there): (name, contents).
        let after = |unlink_unswapped: bool, log: &str| {
            std::fs::hard_link(bob.join("botkit.py"), &kit).unwrap();
            let (push, gone) = (kit.clone(), kit.clone());
            BEFORE_SWAP.with_borrow_mut(|f| {
                *f = Some(Box::new(move || {
                    std::fs::remove_file(&push).unwrap();
                    std::fs::write(&push, "pushed\n").unwrap();
                }))
            });
            BEFORE_SWAP_BACK.with_borrow_mut(|f| *f = Some(Box::new(move || std::fs::remove_file(&gone).unwrap())));
            UNLINK_UNSWAPPED.set(unlink_unswapped);
            let outcome = run(&sandbox, attack, &alice, limits, out.path(), log, earlier);
            BEFORE_SWAP.with_borrow_mut(|f| *f = None);
            BEFORE_SWAP_BACK.with_borrow_mut(|f| *f = None);
            UNLINK_UNSWAPPED.set(false);
            let problem = outcome.problem.unwrap_or_default();
            assert!(problem.contains("(it was replaced while it was copied)"), "{problem}");
            let mut left = std::fs::read_dir(&alice)
                .unwrap()
                .map(|e| {
                    let e = e.unwrap();
                    (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap())
                })
                .collect::<Vec<_>>();
            left.sort();
            left
        };
        let left = after(false, "builds/a.log");
        assert!(
            matches!(&left[..], [(name, text)] if crate::files::is_temporary(name.as_ref()) && text == "pushed\n"),
            "the push kept, under the temporary name: {left:?}"
        );
        assert_eq!(std::fs::read_to_string(bob.join("botkit.py")).unwrap(), "bob's\n");
        for (name, _) in &left {
            std::fs::remove_file(alice.join(name)).unwrap();
        }
        // The control: the temporary name removed whatever it holds, the push is lost.
        assert_eq!(after(true, "builds/b.log"), [], "the control lost the push");
        assert_eq!(std::fs::read_to_string(bob.join("botkit.py")).unwrap(), "bob's\n");
    }

    /// A sparse file linked outside the folder gets a copy of its own as sparse (its holes no
    /// disk the build is charged for), byte for byte the same.
    #[test]
    fn a_sparse_file_s_copy_of_its_own_keeps_its_holes() {
        use std::os::unix::fs::{FileExt, MetadataExt};
        let dir = tempfile::tempdir().unwrap();
        let (folder, outside) = (dir.path().join("bot"), dir.path().join("outside"));
        std::fs::create_dir_all(&folder).unwrap();
        let sparse = std::fs::File::create(&outside).unwrap();
        sparse.write_all_at(b"x", 0).unwrap();
        sparse.write_all_at(b"y", 8 << 20).unwrap();
        std::fs::hard_link(&outside, folder.join("sparse")).unwrap();
        let root = open_folder(&folder).unwrap();
        let mut looked = look_before(&folder, Some(&root));
        let shared = std::mem::take(&mut looked.shared);
        assert_eq!(shared.len(), 1);
        let disk = looked.disk.bytes;
        assert_eq!(own_copies(&root, &shared, &mut looked).map_err(|(_, e)| e.to_string()), Ok(1));
        let (was, now) = (std::fs::metadata(&outside).unwrap(), std::fs::metadata(folder.join("sparse")).unwrap());
        assert_eq!(std::fs::read(&outside).unwrap(), std::fs::read(folder.join("sparse")).unwrap());
        assert_eq!((now.blocks(), now.nlink()), (was.blocks(), 1));
        assert_eq!(looked.disk.bytes, disk, "the same disk as before");
        assert_eq!(looked.stamp, super::super::submission::stamp(&folder), "the stamp as the folder is now");
    }

    /// A bot's folder made by a local `git clone` (its objects hard links of the source
    /// repository's) is built, on objects of its own: the source's are left as they were when its
    /// build writes every object of its own; its fingerprint and commit label are the same before
    /// and after its copies are made. (That the clone's objects were links of the source's is
    /// checked first: what the test is about.) The control: another clone built as the config's
    /// folder is (not looked at) writes the source's objects.
    #[test]
    fn a_local_git_clone_is_built_and_the_source_repository_is_left_as_it_was() {
        use super::super::submission;
        use std::os::unix::fs::MetadataExt;
        let git = |dir: &Path, args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
                .args(args)
                .current_dir(dir)
                .output()
                .expect("git runs");
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        let (dir, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (source, alice) = (dir.path().join("source"), dir.path().join("alice"));
        std::fs::create_dir_all(&source).unwrap();
        std::fs::write(source.join("bot.sh"), "#!/bin/sh\necho WAIT\n").unwrap();
        std::fs::write(source.join("botkit.py"), "def act(view):\n    return 'WAIT'\n").unwrap();
        git(&source, &["init", "-q"]);
        git(&source, &["add", "."]);
        git(&source, &["commit", "-qm", "one"]);
        git(dir.path(), &["clone", "-q", source.to_str().unwrap(), "alice"]);
        let objects = |repo: &Path| {
            let mut all = BTreeMap::new();
            for e in walkdir::WalkDir::new(repo.join(".git/objects")).into_iter().flatten() {
                if e.file_type().is_file() {
                    let meta = e.metadata().unwrap();
                    all.insert(
                        e.path().strip_prefix(repo).unwrap().to_path_buf(),
                        (meta.ino(), std::fs::read(e.path()).unwrap()),
                    );
                }
            }
            all
        };
        let (theirs, hers) = (objects(&source), objects(&alice));
        assert!(!theirs.is_empty());
        assert!(
            hers.iter().any(|(p, (ino, _))| theirs.get(p).is_some_and(|(i, _)| i == ino)),
            "the clone's objects are hard links of the source's"
        );
        let entry = super::super::config::BotEntry {
            cwd: Some(alice.clone()),
            build: Some("true".to_string()),
            ..super::super::config::parse_bot_arg("alice=./bot.sh").unwrap()
        };
        let fingerprint = || {
            let (none, left_out) = (std::collections::BTreeSet::new(), submission::LeftOut::default());
            let read = submission::read(&entry, None, &none, &left_out, &mut BTreeMap::new()).unwrap();
            let label = submission::git_label(&alice, None);
            (read.own.fingerprints(), label, submission::git_edits(&alice, None, &read.own))
        };
        let before = fingerprint();
        assert!(before.1.is_some() && !before.2, "a commit, no edits: {before:?}");
        // (Without a box: a box shows a build its folder's `.git` read-only, which no build
        // writes then; the copies are for a build without one, and for other files so linked.)
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let limits = BuildLimits { timeout: Duration::from_secs(60), disk_bytes: 1 << 30 };
        let earlier = Earlier { bot: "alice", growth: None, own: true };
        let outcome = run(&sandbox, "true", &alice, limits, out.path(), "builds/a.log", earlier);
        assert_eq!((outcome.problem, outcome.outputs), (None, Vec::new()));
        assert_eq!(fingerprint(), before, "the same version, the same label");
        let now = objects(&alice);
        assert_eq!(now.keys().collect::<Vec<_>>(), hers.keys().collect::<Vec<_>>());
        assert!(now.iter().all(|(p, (ino, bytes))| theirs.get(p).is_none_or(|(i, _)| i != ino) && *bytes == hers[p].1));
        // Her build writes every object of hers: the source's are as they were.
        let attack = "find .git/objects -type f -exec sh -c 'chmod u+w \"$1\" && echo x >> \"$1\"' _ {} \\;";
        let outcome = run(&sandbox, attack, &alice, limits, out.path(), "builds/b.log", earlier);
        assert_eq!(outcome.problem, None);
        assert!(objects(&alice)
            .iter()
            .all(|(p, (_, bytes))| bytes.ends_with(b"x\n") && bytes.len() == hers[p].1.len() + 2));
        assert_eq!(objects(&source), theirs, "the source repository's objects as they were");
        git(&source, &["fsck", "--no-progress"]);
        // The control: another clone, built as the config's folder is (the teacher's, not
        // looked at): its build writes the source repository's objects.
        git(dir.path(), &["clone", "-q", source.to_str().unwrap(), "bob"]);
        let teachers = Earlier { own: false, ..earlier };
        let outcome = run(&sandbox, attack, &dir.path().join("bob"), limits, out.path(), "builds/c.log", teachers);
        assert_eq!(outcome.problem, None);
        let written = objects(&source);
        assert!(
            written.iter().any(|(p, (_, bytes))| *bytes != theirs[p].1),
            "the control: the source's objects written"
        );
    }

    /// A build walks its folder once before it (stamp, holes, disk use together) and once after
    /// (stamp, disk use), besides the looks while it runs, and finds the same. The control:
    /// walking as before, each a walk of its own, counts the five walks of old.
    #[test]
    fn a_build_walks_its_folder_once_before_and_once_after() {
        let (dir, outside, out) =
            (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let folder = dir.path().join("bot");
        rich_folder(&folder, outside.path());
        let sandbox = Sandbox::new(crate::sandbox::SandboxMode::None, Default::default()).unwrap();
        let limits = BuildLimits { timeout: Duration::from_secs(60), disk_bytes: 1 << 30 };
        let build = |separate: bool, log: &str| {
            let _ = std::fs::remove_file(folder.join("made"));
            SEPARATE_WALKS.set(separate);
            WALKS.with_borrow_mut(Vec::clear);
            let outcome = run(
                &sandbox,
                "echo x > made && echo y >> src/main.c",
                &folder,
                limits,
                out.path(),
                log,
                Earlier { bot: "b", growth: None, own: true },
            );
            SEPARATE_WALKS.set(false);
            let walks = WALKS.with_borrow(|w| w.iter().filter(|&&k| k != "watch").copied().collect::<Vec<_>>());
            (outcome, walks)
        };
        let (merged, walks) = build(false, "builds/merged.log");
        assert_eq!(merged.problem, None);
        assert_eq!(merged.outputs, ["made", "src/main.c"]);
        assert_eq!(merged.created, ["made"]);
        assert_eq!(walks, ["look", "look"]);
        let (separate, walks) = build(true, "builds/separate.log");
        assert_eq!(walks, ["look", "stamp", "disk_use", "stamp", "disk_use"], "the control: five walks");
        assert_eq!(
            (separate.problem, separate.outputs, separate.created),
            (merged.problem, merged.outputs, merged.created)
        );
        assert_eq!(separate.growth, merged.growth);
    }

    /// A folder that went between its listing and its reading is no unreadable folder; one
    /// the arena may not read is (as root nothing is refused: the decision is checked on the
    /// errors themselves), and so is the build's folder itself when it is gone.
    #[test]
    fn a_folder_removed_during_the_walk_is_not_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("rustc1234");
        let err = |p: &Path| std::fs::read_dir(p).err().unwrap();
        assert!(gone(&err(&missing)));
        std::fs::write(&missing, b"x").unwrap();
        assert!(gone(&err(&missing)), "a folder replaced by a file");
        assert!(!gone(&std::io::Error::from(std::io::ErrorKind::PermissionDenied)));
        let deep = dir.path().join("d".repeat(300));
        assert!(!gone(&err(&deep)), "a name too long is no folder gone: {:?}", err(&deep).kind());
        assert_eq!(disk_use(dir.path(), u64::MAX).unreadable, None);
        let root = dir.path().join("none");
        assert_eq!(disk_use(&root, u64::MAX).unreadable, Some(root));
    }

    /// A build over its cap cannot make the arena remove a file or folder outside its folder: a
    /// folder on the way swapped for a link (by a process of the folder's owner, between the
    /// walk and the removal) is not followed. The control: removed by their paths, they go.
    #[test]
    fn taking_back_does_not_follow_a_folder_swapped_for_a_link() {
        let (dir, outside, away) =
            (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let folder = dir.path();
        std::fs::create_dir(folder.join("sub")).unwrap();
        let before = super::super::submission::stamp(folder);
        // The build.
        std::fs::write(folder.join("sub/made-by-build"), b"x").unwrap();
        std::fs::create_dir(folder.join("sub/made-dir")).unwrap();
        std::fs::write(folder.join("made-on-top"), b"x").unwrap();
        let (file, tree) = (outside.path().join("made-by-build"), outside.path().join("made-dir"));
        std::fs::write(&file, b"not the build's").unwrap();
        std::fs::create_dir(&tree).unwrap();
        // The outside process, once the walk has found the first of them.
        let mut swapped = false;
        let swap = |rel: &str| {
            if rel.starts_with("sub/") && !std::mem::replace(&mut swapped, true) {
                std::fs::rename(folder.join("sub"), away.path().join("sub")).unwrap();
                std::os::unix::fs::symlink(outside.path(), folder.join("sub")).unwrap();
            }
        };
        take_back(&open_folder(folder).unwrap(), &before, &Holes::new(), swap);
        assert!(swapped);
        assert!(file.exists() && tree.exists(), "what is outside the folder was removed through the link");
        assert!(!folder.join("made-on-top").exists(), "what the build made is taken back");
        std::fs::remove_file(folder.join("sub/made-by-build")).unwrap();
        std::fs::remove_dir_all(folder.join("sub/made-dir")).unwrap();
        assert!(!file.exists() && !tree.exists(), "the control: by their paths, they are removed");
    }

    /// The folder itself swapped for a link after its build (its path now names another folder):
    /// what is taken back is taken back in the folder the build ran in, held open since before
    /// it. The control: by its path, the other folder's file goes.
    #[test]
    fn taking_back_stays_in_the_folder_the_build_ran_in() {
        let (dir, outside, away) =
            (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let folder = dir.path().join("bot");
        std::fs::create_dir(&folder).unwrap();
        let root = open_folder(&folder).unwrap();
        let before = super::super::submission::stamp(&folder);
        std::fs::write(folder.join("made"), b"x").unwrap();
        let elsewhere = outside.path().join("made");
        std::fs::write(&elsewhere, b"not the build's").unwrap();
        let moved = away.path().join("bot");
        std::fs::rename(&folder, &moved).unwrap();
        std::os::unix::fs::symlink(outside.path(), &folder).unwrap();
        take_back(&root, &before, &Holes::new(), |_| {});
        assert!(elsewhere.exists(), "the other folder's file was removed");
        assert!(!moved.join("made").exists(), "what the build made is taken back where it made it");
        std::fs::remove_file(folder.join("made")).unwrap();
        assert!(!elsewhere.exists(), "the control: by its path, it is removed");
    }

    /// A new folder deeper than a path can name (here 20 × 250 bytes) is taken back whole.
    #[test]
    fn a_new_folder_too_deep_for_a_path_is_taken_back() {
        let dir = tempfile::tempdir().unwrap();
        let before = super::super::submission::stamp(dir.path());
        let under = |at: &std::fs::File, name: &str| Path::new(&format!("/proc/self/fd/{}", at.as_raw_fd())).join(name);
        let mut at = std::fs::File::open(dir.path()).unwrap();
        for _ in 0..20 {
            std::fs::create_dir(under(&at, &"d".repeat(250))).unwrap();
            at = std::fs::File::open(under(&at, &"d".repeat(250))).unwrap();
        }
        std::fs::write(under(&at, "f"), b"x").unwrap();
        take_back(&open_folder(dir.path()).unwrap(), &before, &Holes::new(), |_| {});
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Between runs, what the folder shrank by (a clean) is taken off the builds' growth, and
    /// what it grew by (a push) is not added, unless the build after it was cut short.
    #[test]
    fn a_clean_takes_off_the_builds_growth_and_a_push_adds_none() {
        let g = FolderGrowth { added: 30, left: 100, cut_short: false };
        assert_eq!(g.counted(100), 30, "untouched");
        assert_eq!(g.counted(150), 30, "a push is the student's");
        assert_eq!(g.counted(80), 10, "a partial clean");
        assert_eq!(g.counted(20), 0, "a clean of everything, sources too");
        let cut = FolderGrowth { cut_short: true, ..g };
        assert_eq!(cut.counted(150), 80, "a build cut short: its growth counts");
        assert_eq!(cut.counted(80), 10);
    }

    #[test]
    fn the_compiler_error_is_picked_not_makes_last_words() {
        let log = "g++ -O2 -o bot bot.cpp\nbot.cpp: In function 'int main()':\nbot.cpp:3:5: error: 'foo' was not declared in this scope\n    3 |     foo();\n      |     ^~~\nmake: *** [Makefile:2: bot] Error 1\n";
        assert_eq!(first_error(log), "bot.cpp:3:5: error: 'foo' was not declared in this scope");
        assert_eq!(first_error("compiling\nsomething odd\n\n"), "something odd");
        assert_eq!(first_error(""), "no output");
    }

    /// A bot pinning a toolchain the arena lacks: rustup tries to fetch it (no network, its
    /// folder read-only) and fails on a temporary file; the outcome names the pin instead.
    #[test]
    fn a_pinned_toolchain_that_is_not_installed_is_named() {
        // As rustup 1.29 writes it in a build's box (and older ones, with quotes).
        let log = "info: syncing channel updates for 1.86.0-x86_64-unknown-linux-gnu\nerror: could not create temp file /root/.rustup/tmp/ukynoop3v37jdnxc_file: Read-only file system (os error 30)\n";
        let said = first_error(log);
        assert!(said.starts_with("toolchain 1.86.0-x86_64-unknown-linux-gnu pinned by rust-toolchain.toml (or rust-toolchain) is not installed where the arena builds (builds have no network): install it there, or remove the pin"), "{said}");
        let quoted = log.replace("for 1.86.0-x86_64-unknown-linux-gnu", "for '1.86.0-x86_64-unknown-linux-gnu'");
        assert_eq!(first_error(&quoted), said);
        // The control: the same log without rustup's line says what it says today.
        let plain = log.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(
            first_error(&plain),
            "error: could not create temp file /root/.rustup/tmp/ukynoop3v37jdnxc_file: Read-only file system (os error 30)"
        );
    }

    /// The walk after a build notes its regular files set-uid or set-gid (not a set-gid
    /// folder), and the arena takes their bits back, naming them; a file left alone (the
    /// control) keeps them.
    #[test]
    fn set_uid_and_set_gid_files_lose_their_bits_and_are_named() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::symlink_metadata(dir.path().join(p)).unwrap().mode() & 0o7777;
        let set = |p: &str, m: u32| std::fs::set_permissions(dir.path().join(p), std::fs::Permissions::from_mode(m));
        std::fs::create_dir_all(dir.path().join("inherit/deep")).unwrap();
        set("inherit", 0o2755).unwrap();
        for (name, m) in [("sh", 0o4755), ("inherit/deep/sg", 0o2711), ("plain", 0o755)] {
            std::fs::write(dir.path().join(name), "#!/bin/sh\n").unwrap();
            set(name, m).unwrap();
        }
        std::os::unix::fs::symlink("sh", dir.path().join("link")).unwrap();
        let looked = look(dir.path(), None);
        assert_eq!(looked.set_id, ["inherit/deep/sg", "sh"]);
        assert_eq!(mode(Path::new("sh")), 0o4755, "the control: the walk alone changes nothing");
        let root = open_folder(dir.path());
        let why = set_id_taken_back(root.as_ref(), &looked.set_id);
        assert_eq!(
            why,
            "the build made a set-uid or set-gid program, inherit/deep/sg (and 1 other file): builds may not (such \
             a program runs as the arena's user for anyone); their set-uid and set-gid bits have been removed"
        );
        let modes = ["sh", "inherit/deep/sg", "plain", "inherit"].map(|p| mode(Path::new(p)));
        assert_eq!(modes, [0o755, 0o711, 0o755, 0o2755]);
        assert!(look(dir.path(), None).set_id.is_empty());
    }
}
