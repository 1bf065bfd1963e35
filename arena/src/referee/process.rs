//! One bot process: spawned in a box of its own, fed through stdin, read line by line from
//! stdout under time limits (CPU or wall), its stderr kept up to a cap, and ended with
//! everything in its box.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::clock::{AnswerClock, Look};
use super::{CommandError, RefereeError};
use crate::engine::{Answer, ClockKind, Ending, Failure, Limits, Reply};
use crate::sandbox::{BoxHandle, Launch, Sandbox, BOX_PATH, EXIT_GRACE};

/// How to start one bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCommand {
    /// The name shown in results.
    pub name: String,
    /// The command line, split like a POSIX shell would (no shell is run).
    pub command: String,
    /// The working directory (the arena's own when `None`).
    pub cwd: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
}

impl BotCommand {
    /// A display name from a command line: the program's file name, or the script's when the
    /// program is an interpreter (`sh bots/x.sh` is `x`).
    pub fn display_name(command: &str) -> String {
        let words = shell_words::split(command).unwrap_or_default();
        let base = |w: &str| Path::new(w).file_name().map_or(w.to_string(), |n| n.to_string_lossy().into_owned());
        let mut chosen = words.first().map(|w| base(w)).unwrap_or_default();
        // The arena's own sample bots (`arena bot greedy`, the opponent the README suggests)
        // are named for the bot, not `arena`.
        if chosen == "arena" && words.get(1).is_some_and(|w| w == "bot") {
            if let Some(bot) = words.iter().skip(2).find(|w| !w.starts_with('-')) {
                return base(bot);
            }
        }
        if crate::sandbox::is_interpreter(&chosen) {
            if let Some(script) = words.iter().skip(1).find(|w| !w.starts_with('-')) {
                chosen =
                    Path::new(&base(script)).file_stem().map_or(base(script), |s| s.to_string_lossy().into_owned());
            }
        }
        if chosen.is_empty() {
            "bot".to_string()
        } else {
            chosen
        }
    }

    /// The bot in seat `seat` (0-based) of a match with seed `seed`: its environment gets
    /// `ARENA_SEED` = [`seat_seed`] (so seeded random bots replay the same, and no bot can
    /// work out its opponent's) and `ARENA_PLAYER` = seat + 1.
    pub fn seated(name: &str, command: &str, cwd: Option<PathBuf>, secret: &[u8], seed: u64, seat: usize) -> Self {
        BotCommand {
            name: name.to_string(),
            command: command.to_string(),
            cwd,
            env: vec![
                ("ARENA_SEED".to_string(), seat_seed(secret, seed, seat).to_string()),
                ("ARENA_PLAYER".to_string(), (seat + 1).to_string()),
            ],
        }
    }

    /// The `ARENA_SEED` this bot gets, if any.
    pub fn seat_seed(&self) -> Option<u64> {
        self.env.iter().find(|(k, _)| k == "ARENA_SEED").and_then(|(_, v)| v.parse().ok())
    }
}

/// The seed of seat `seat` in a match with seed `seed`: a keyed hash of both with `secret`
/// (something the bots never see), so one seat's seed tells nothing of another's.
pub fn seat_seed(secret: &[u8], seed: u64, seat: usize) -> u64 {
    let mut h = blake3::Hasher::new_derive_key("resource-rush-arena 2026 seat seed");
    h.update(secret);
    h.update(&seed.to_le_bytes());
    h.update(&(seat as u64).to_le_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&h.finalize().as_bytes()[..8]);
    u64::from_le_bytes(bytes)
}

/// What the stdout reader saw.
#[derive(Debug)]
enum BotLine {
    /// A line without its surrounding whitespace, and its length as sent.
    Text(String, usize),
    TooLong,
    NotUtf8,
    Eof,
}

/// The bot's stderr, kept up to a cap.
#[derive(Debug, Default)]
struct StderrLog {
    kept: Vec<u8>,
    dropped: usize,
    /// Set once the bot is gone: what is left in the pipe (at most its size, read within
    /// 100 ms at shutdown) is read unthrottled, so that the count of bytes dropped is whole.
    ended: bool,
    /// The wall time the bot spent on a full stderr pipe, as its reader found it ([`keep_stderr`]).
    blocked: Duration,
}

/// What a bot wrote to stderr, as its reader kept it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotStderr {
    /// What was kept (up to the cap).
    pub text: String,
    /// How many bytes more were dropped.
    pub dropped: usize,
    /// The wall time it spent writing to a full pipe, waiting for the arena to read it: what its
    /// flood of stderr cost it, measured, however loaded the machine (the reader then slower
    /// than its rate), where the bytes at the rate only give the least it can have cost.
    pub blocked: Duration,
}

impl BotStderr {
    /// Whether the bot wrote nothing to stderr (nothing kept, nothing dropped).
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.dropped == 0
    }
}

/// A bot's CPU time is not read at an answer that comes less than this after the last
/// reading: it cannot have used much of it (at most this times its cores), and the next
/// reading counts it ([`Answer::counted_cpu`]: such an answer counts none).
pub const UNMEASURED: Duration = Duration::from_millis(5);

/// What a bot shares with its match's monitor (see [`super::monitor`]).
#[derive(Debug)]
pub(super) struct Watch {
    /// The box; `None` once released. Shared, so that no one holds this lock while looking at
    /// the box: a look may take long (a bot's processes' maps, its descriptors' locks, see
    /// `sandbox::meter`), and the match's thread reads the box's CPU time at every answer.
    handle: Mutex<Option<Arc<BoxHandle>>>,
    /// What the monitor found, and the CPU time the bot had used since its last answer then
    /// (the box is killed at once).
    verdict: Mutex<Option<(Failure, Duration)>>,
    /// The box's CPU time when last read, and when that was (at an answer, or the start).
    mark: Mutex<(Duration, Instant)>,
    /// Being asked now (the answer's own clock watches it).
    pub asked: AtomicBool,
    /// Answered at least once.
    pub answered: AtomicBool,
    /// The bot's name, for the warning of [`Watch::look`].
    name: String,
    /// Whether the warning of a process ignoring `SIGCHLD` was given (once a bot).
    warned_reaping: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Watch {
    /// CPU time of the whole box so far.
    pub fn cpu(&self) -> Duration {
        let (used, reaping) = self.shared().map_or((Duration::ZERO, None), |h| (h.cpu_time(), h.ignoring_sigchld()));
        self.warn_reaping(reaping);
        used
    }

    /// Warns, once, that the bot's process `reaping` ignores `SIGCHLD` (see
    /// `BoxHandle::ignoring_sigchld`).
    fn warn_reaping(&self, reaping: Option<i32>) {
        if let Some(pid) = reaping.filter(|_| !self.warned_reaping.swap(true, Ordering::Relaxed)) {
            tracing::warn!(
                "bot {}: its process {pid} ignores SIGCHLD, so the kernel reaps its children itself, and without a \
                 cgroup counting its CPU the CPU time of those children is charged to no one: only the wall-clock \
                 backstops limit it (a sandboxed bot may not ignore SIGCHLD: run it in a box or plain, not with \
                 --sandbox none)",
                crate::safe_text::terminal_line(&self.name)
            );
        }
    }

    /// CPU time since the bot last answered.
    pub fn cpu_since_answer(&self) -> Duration {
        self.since_answer(self.cpu())
    }

    /// What of `used`, a reading of the box's CPU time, came since the bot last answered.
    fn since_answer(&self, used: Duration) -> Duration {
        used.saturating_sub(lock(&self.mark).0)
    }

    /// Whether the box is over its memory limit.
    pub fn out_of_memory(&self) -> bool {
        self.shared().is_some_and(|h| h.out_of_memory())
    }

    /// Whether the box is over its memory limit, and (when `cpu`) its CPU time since the bot
    /// last answered: the monitor's look, with one walk of /proc for both where the box has no
    /// cgroup (see [`BoxHandle::look`]).
    pub fn look(&self, cpu: bool) -> (bool, Option<Duration>) {
        let (used, over, reaping) = self.shared().map_or((None, false, None), |h| {
            let (used, over) = h.look(cpu);
            (used, over, h.ignoring_sigchld())
        });
        self.warn_reaping(reaping);
        let since = cpu.then(|| self.since_answer(used.unwrap_or(Duration::ZERO)));
        (over, since)
    }

    /// Ends the box for `failure` (the first verdict stands).
    pub fn condemn(&self, failure: Failure) {
        let used = self.cpu_since_answer();
        lock(&self.verdict).get_or_insert((failure, used));
        if let Some(h) = self.shared() {
            h.kill();
        }
    }

    /// The box, shared (see [`Watch::handle`]).
    fn shared(&self) -> Option<Arc<BoxHandle>> {
        lock(&self.handle).clone()
    }

    fn verdict(&self) -> Option<(Failure, Duration)> {
        *lock(&self.verdict)
    }

    /// The process of the box that runs the bot's program, for the monitor's looks.
    pub fn main_pid(&self) -> Option<i32> {
        self.shared().and_then(|h| h.main_pid())
    }
}

/// Releases a box (see [`BoxHandle::release`]) on a thread of its own, or on this one where no
/// thread can be started: the machine may have no process left (a panic there ended the arena).
fn release_soon(handle: Arc<BoxHandle>) {
    let slot = Arc::new(Mutex::new(Some(handle)));
    let theirs = slot.clone();
    let started = std::thread::Builder::new().name("arena-release".into()).spawn(move || {
        if let Some(handle) = lock(&theirs).take() {
            release_when_alone(handle);
        }
    });
    if started.is_err() {
        if let Some(handle) = lock(&slot).take() {
            release_when_alone(handle);
        }
    }
}

/// Releases the box once no look at it is under way (a look holds it as long as it looks; the
/// box was killed first, so what is left to look at dwindles).
fn release_when_alone(mut handle: Arc<BoxHandle>) {
    let started = Instant::now();
    let mut said = false;
    loop {
        match Arc::try_unwrap(handle) {
            Ok(alone) => return alone.release(),
            Err(shared) => handle = shared,
        }
        if !said && started.elapsed() > Duration::from_secs(2) {
            said = true;
            tracing::warn!("a box's release waits for a look at it that has taken 2 s so far");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Releases a box (see [`BoxHandle::release`]) on a thread of its own and waits for it, never
/// blocking the referee's; on this one where no thread can be started (tokio's blocking pool
/// panics then, where it has no thread yet: the machine may have no process left).
async fn release_off_this_thread(handle: Arc<BoxHandle>) {
    let (done, released) = tokio::sync::oneshot::channel();
    let slot = Arc::new(Mutex::new(Some(handle)));
    let theirs = slot.clone();
    let started = std::thread::Builder::new().name("arena-release".into()).spawn(move || {
        if let Some(handle) = lock(&theirs).take() {
            release_when_alone(handle);
        }
        let _ = done.send(());
    });
    match started {
        Ok(_) => {
            let _ = released.await;
        }
        Err(_) => {
            if let Some(handle) = lock(&slot).take() {
                release_when_alone(handle);
            }
        }
    }
}

/// A running bot.
pub struct BotProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<BotLine>,
    stderr: Arc<Mutex<StderrLog>>,
    tasks: Vec<JoinHandle<()>>,
    used: Duration,
    /// Wall time its answers took in all (see [`Limits::backstop`]).
    wall_used: Duration,
    ended: bool,
    /// Cores the box may use at once (how fast its CPU time can run).
    parallel: u32,
    /// The CPU time each of its processes may use ([`crate::sandbox::SandboxLimits::cpu_seconds`]):
    /// past it, one that ignored `SIGXCPU` is killed by the kernel.
    cpu_limit: Duration,
    watch: Arc<Watch>,
}

impl Drop for BotProcess {
    /// A bot dropped without [`BotProcess::shutdown`] (a cancelled match, a panic) still has
    /// its whole box killed; its cgroups are removed off this thread.
    fn drop(&mut self) {
        if !self.ended {
            if let Some(handle) = lock(&self.watch.handle).take() {
                handle.kill();
                release_soon(handle);
            }
        }
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl BotProcess {
    /// Starts the bot in a box of its own. Fails when the command is empty, cannot be split,
    /// cannot be boxed, or cannot be run.
    pub fn spawn(cmd: &BotCommand, limits: &Limits, sandbox: &Sandbox) -> Result<BotProcess, RefereeError> {
        let bad = |source: CommandError| RefereeError::BadCommand {
            name: cmd.name.clone(),
            command: cmd.command.clone(),
            source,
        };
        let words = shell_words::split(&cmd.command).map_err(|e| bad(CommandError::Split(e)))?;
        if words.is_empty() {
            return Err(bad(CommandError::Empty));
        }
        let launch = Launch { words: &words, folder: cmd.cwd.as_deref(), env: &cmd.env, build: false, read_only: &[] };
        let (command, mut handle) =
            sandbox.command(&launch).map_err(|source| RefereeError::Sandbox { name: cmd.name.clone(), source })?;
        let mut command = Command::from(command);
        // (A keeper, killed at once, could not end what the bot left: `kill` asks it to.)
        let kill_on_drop = !handle.has_keeper();
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(kill_on_drop);
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(source) => {
                let (name, command) = (cmd.name.clone(), cmd.command.clone());
                // (Its program never ran: a process the machine could not start is not its fault.
                // An errno `exec` also gives for a bad program is the machine's only where a
                // good program cannot start either.)
                if let Some(fault) = sandbox.machine_fault(&launch, &source) {
                    release_soon(Arc::new(handle));
                    return Err(RefereeError::Machine { name, source: fault });
                }
                let hint = handle
                    .start_hint(&source)
                    .map(str::to_string)
                    .or_else(|| program_hint(&words, cmd.cwd.as_deref(), &source, &sandbox.sight()))
                    .map_or(String::new(), |h| format!("; {h}"));
                release_soon(Arc::new(handle));
                return Err(RefereeError::Spawn { name, command, source, hint });
            }
        };
        if let Some(pid) = child.id() {
            handle.started(pid);
        }
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel(4);
        let stderr = Arc::new(Mutex::new(StderrLog::default()));
        let mut tasks = Vec::new();
        if let Some(out) = child.stdout.take() {
            tasks.push(tokio::spawn(read_lines(out, tx, limits.max_line)));
        }
        if let Some(err) = child.stderr.take() {
            let pipe = pipe_size(std::os::fd::AsRawFd::as_raw_fd(&err));
            tasks.push(tokio::spawn(keep_stderr(err, stderr.clone(), limits.stderr_cap, limits.stderr_rate, pipe)));
        }
        // A box's CPU time can run as fast as every core (its quota, where it has one, may
        // be refused, or lifted with `--max-cpus 0`).
        let parallel = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        tracing::debug!(bot = %cmd.name, command = %cmd.command, pid = ?child.id(), "spawned");
        let watch = Arc::new(Watch {
            handle: Mutex::new(Some(Arc::new(handle))),
            verdict: Mutex::new(None),
            mark: Mutex::new((Duration::ZERO, Instant::now())),
            asked: AtomicBool::new(false),
            answered: AtomicBool::new(false),
            name: cmd.name.clone(),
            warned_reaping: AtomicBool::new(false),
        });
        Ok(BotProcess {
            name: cmd.name.clone(),
            child,
            stdin,
            lines,
            stderr,
            tasks,
            used: Duration::ZERO,
            wall_used: Duration::ZERO,
            ended: false,
            parallel,
            cpu_limit: Duration::from_secs(sandbox.limits().cpu_seconds),
            watch,
        })
    }

    /// What the match's monitor watches.
    pub(super) fn watch(&self) -> Arc<Watch> {
        self.watch.clone()
    }

    /// Sends `text` and waits for one answer line under the limits. A line already waiting is
    /// output nobody asked for, unless `early_ok` (the bot was sent its whole input at once,
    /// so answers may run ahead). With `last`, `text` ends its input: its stdin is closed then.
    pub async fn ask(&mut self, text: &str, limits: &Limits, early_ok: bool, last: bool) -> Answer {
        if let Some((f, used)) = self.watch.verdict() {
            // Ended by the monitor: what it had used since its last answer is what it is charged.
            return Answer { cpu: Some(used), ..Answer::failed(f) };
        }
        if !early_ok {
            match self.lines.try_recv() {
                Ok(BotLine::Eof) | Err(mpsc::error::TryRecvError::Disconnected) => {
                    return Answer::failed(self.why_it_died().await)
                }
                // (Kept, as evidence, where it is text: what the bot printed unasked.)
                Ok(BotLine::Text(line, _)) => {
                    return Answer { unasked: Some(line), ..Answer::failed(Failure::ExtraOutput) }
                }
                Ok(_) => return Answer::failed(Failure::ExtraOutput),
                Err(mpsc::error::TryRecvError::Empty) => {}
            }
        }
        let answered = self.watch.answered.load(Ordering::Relaxed);
        let per_answer = if answered { limits.per_move } else { limits.startup };
        let limit = per_answer.min(limits.total.saturating_sub(self.used));
        let backstop = limits.backstop(limit, self.wall_used);
        let clock = AnswerClock::new(limits.clock, limit, backstop, self.parallel);
        let watch = &self.watch;
        watch.asked.store(true, Ordering::Relaxed);
        let (mark, marked) = *lock(&watch.mark);
        let start = Instant::now();
        let mut raw = 0;
        // Whether the prompt could not be written: a bot still running then closed its stdin.
        let unwritten = std::cell::Cell::new(false);
        let mut reply = {
            let raw_len = &mut raw;
            let stdin = &mut self.stdin;
            let lines = &mut self.lines;
            let exchange = async {
                // (Nothing to send, to a bot whose input has ended: it answers from what it read.)
                if !text.is_empty() || !early_ok {
                    let Some(pipe) = stdin.as_mut() else {
                        return Reply::Failed(Failure::Crash(None));
                    };
                    if pipe.write_all(text.as_bytes()).await.is_err() || pipe.flush().await.is_err() {
                        unwritten.set(true);
                        return Reply::Failed(Failure::Crash(None));
                    }
                }
                if last {
                    // Its whole input sent: closed, so that reading to its end returns.
                    drop(stdin.take());
                }
                match lines.recv().await {
                    Some(BotLine::Text(line, raw)) => {
                        *raw_len = raw;
                        Reply::Line(line)
                    }
                    Some(BotLine::TooLong) => Reply::Failed(Failure::TooLong),
                    Some(BotLine::NotUtf8) => Reply::Failed(Failure::NotUtf8),
                    Some(BotLine::Eof) | None => Reply::Failed(Failure::Crash(None)),
                }
            };
            tokio::pin!(exchange);
            let mut next = start + clock.first_look();
            loop {
                tokio::select! {
                    reply = &mut exchange => break reply,
                    () = tokio::time::sleep_until(next.into()) => {
                        let cpu = if limits.clock == ClockKind::Cpu { watch.cpu().saturating_sub(mark) } else { Duration::ZERO };
                        match clock.look(start.elapsed(), cpu) {
                            Look::Over => break Reply::Failed(Failure::Timeout),
                            Look::Again(after) => next = Instant::now() + after,
                        }
                    }
                }
            }
        };
        let wall = start.elapsed();
        // The box's CPU time is read when it can matter: a box cannot use much of it in a
        // few milliseconds of wall time, and reading it costs system calls on every answer.
        let measured = (marked.elapsed() >= UNMEASURED).then(|| {
            let now = watch.cpu();
            *lock(&watch.mark) = (now, Instant::now());
            now.saturating_sub(mark)
        });
        let cpu = Answer::counted_cpu(measured);
        if matches!(reply, Reply::Line(_)) && !clock.accepts(wall, cpu) {
            reply = Reply::Failed(Failure::Timeout);
        }
        watch.asked.store(false, Ordering::Relaxed);
        watch.answered.store(true, Ordering::Relaxed);
        // A bot that exited while a child still holds its pipe open crashed: it did not merely
        // run out of time.
        let exited = reply == Reply::Failed(Failure::Timeout) && matches!(self.child.try_wait(), Ok(Some(_)));
        if reply == Reply::Failed(Failure::Crash(None)) || exited {
            reply = Reply::Failed(match self.why_it_died().await {
                Failure::Crash(Some(Ending::Running)) if unwritten.get() => Failure::Crash(Some(Ending::ClosedInput)),
                why => why,
            });
        }
        self.used += clock.charged(wall, cpu);
        self.wall_used += wall;
        tracing::trace!(bot = %self.name, ?reply, ?wall, ?cpu, "answer");
        let raw_len = match &reply {
            Reply::Line(line) if line.len() != raw => Some(raw),
            _ => None,
        };
        Answer { reply, wall, cpu: measured, raw_len, unasked: None }
    }

    /// Tells a limit apart from a plain crash once the bot has gone, from what the arena
    /// measured, never from what the bot wrote or did to itself: what the monitor found;
    /// `cpu` when the process died of the CPU-time limit's signals (SIGXCPU, or the SIGKILL
    /// a second later) and the box's CPU time, as the arena reads it, reached that limit
    /// (see [`cpu_limit_reached`]);
    /// `memory` when the box's memory accounting shows its limit refused memory (an OOM kill
    /// in its cgroup, or, without one, the monitor's count over it). Anything else is a
    /// `crash`, with how the process ended as the kernel's wait status says (a signal, an
    /// exit status, or still running after closing its stdout): a bot that raised SIGXCPU
    /// itself "was killed by signal SIGXCPU", and one that wrote "out of memory" and exited
    /// "exited with status 1" (what it wrote stays in its stderr, the match log). A box with
    /// a memory cgroup has no address-space cap, so a bot over-allocating there is OOM-killed:
    /// `memory`. Without one, an allocation refused by the per-process cap
    /// ([`crate::sandbox`]'s `RLIMIT_AS`) leaves no count the arena can read: the runtime's
    /// abort is a `crash` (SIGABRT), and its message is in the log.
    async fn why_it_died(&mut self) -> Failure {
        // (Read before the wait: without a cgroup, the tree of a process once reaped is gone
        // from /proc; the box keeps the highest reading.)
        let _ = self.watch.cpu();
        let status = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
        if let Some((f, _)) = self.watch.verdict() {
            return f;
        }
        let ending = match status {
            Ok(Ok(status)) => match std::os::unix::process::ExitStatusExt::signal(&status) {
                Some(sig) => Some(Ending::Signal(sig)),
                None => status.code().map(Ending::Exit),
            },
            Ok(Err(_)) => None,
            Err(_) => Some(Ending::Running),
        };
        let cpu = self.watch.cpu();
        tracing::debug!(bot = %self.name, ?ending, ?cpu, limit = ?self.cpu_limit, "ended");
        limit_reached(ending, cpu_limit_reached(cpu, self.cpu_limit), self.watch.out_of_memory())
    }

    /// What the bot wrote to stderr and was kept, how many bytes more were dropped, and how
    /// long it waited on a full pipe.
    fn stderr_text(&self) -> BotStderr {
        let log = lock(&self.stderr);
        BotStderr { text: String::from_utf8_lossy(&log.kept).into_owned(), dropped: log.dropped, blocked: log.blocked }
    }

    /// Closes stdin, lets the bot exit within `grace`, then kills everything in its box and
    /// waits until it is gone; the box's cgroups are removed on a blocking thread, never on
    /// the referee's. Returns what the bot wrote to stderr ([`BotStderr`]).
    pub async fn shutdown(mut self, grace: Duration) -> BotStderr {
        drop(self.stdin.take());
        let exited = tokio::time::timeout(grace, self.child.wait()).await.is_ok();
        let handle = lock(&self.watch.handle).take();
        if let Some(h) = &handle {
            if !exited {
                tracing::debug!(bot = %self.name, "did not end within the grace time");
            }
            h.kill();
            let left = h.remaining();
            if left > 0 {
                tracing::debug!(bot = %self.name, left, "ending what was left in the box");
            }
        }
        // The box's supervisor exits only once everything in the box is gone, and a plain bot's
        // keeper once it has ended what is left: a moment for either, then it is killed.
        if tokio::time::timeout(EXIT_GRACE, self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
        if let Some(h) = handle {
            release_off_this_thread(h).await;
        }
        self.ended = true;
        tracing::debug!(bot = %self.name, "ended");
        // The readers end with the pipes (the stdout reader, which may have stopped reading at a
        // line too long, with its channel); give the stderr reader the last bytes, unthrottled.
        self.lines.close();
        lock(&self.stderr).ended = true;
        // (A reader still held open by something the bot left, outside any box, is ended.)
        for mut task in self.tasks.drain(..) {
            if tokio::time::timeout(Duration::from_millis(100), &mut task).await.is_err() {
                task.abort();
            }
        }
        self.stderr_text()
    }
}

/// Which limit ended a bot that ended as `ending`, from the arena's counts: `cpu_reached` (its
/// box's CPU time reached the CPU-time limit, see [`cpu_limit_reached`]) and `oom` (its box's
/// memory accounting shows an OOM kill); a `crash` when neither explains it. SIGXCPU is the CPU
/// limit's own signal; a SIGKILL is the memory limit's where the box's OOM killer acted, and the
/// CPU limit's (a second after SIGXCPU) otherwise: a bot killed for memory after using half its
/// CPU time is `memory`.
fn limit_reached(ending: Option<Ending>, cpu_reached: bool, oom: bool) -> Failure {
    match ending {
        Some(Ending::Signal(libc::SIGXCPU)) if cpu_reached => Failure::Cpu,
        _ if oom => Failure::Memory,
        Some(Ending::Signal(libc::SIGKILL)) if cpu_reached => Failure::Cpu,
        _ => Failure::Crash(ending),
    }
}

/// Whether a box that used `used` of CPU time reached a CPU-time limit of `limit` (none when
/// zero), so that a bot that sends itself the limit's signals early is not taken for one that
/// ran out of CPU time. Half of it is enough: the kernel decides on each process's time as its
/// clock ticks sample it (the whole tick to whoever runs then), the arena reads the precise
/// count (cgroup or /proc), and on a busy machine the samples run ahead: a spinner under a 1 s
/// limit got its SIGXCPU at 930 to 960 ms counted, and once at 720 ms, with six jobs on two
/// cores. (A bot that sends it itself has used next to nothing; and on the CPU clock the
/// default total of 5 s ends a bot long before half of the default 10 s.)
fn cpu_limit_reached(used: Duration, limit: Duration) -> bool {
    !limit.is_zero() && used >= limit / 2
}

/// A start-up job for the spawner threads.
type Job = Box<dyn FnOnce() + Send>;

/// Starts `cmd`'s box on one of the arena's spawner threads; the returned receiver yields the
/// running bot. Starting a box waits on the kernel (forks, namespaces, cgroups), so a
/// match's bots start side by side. The spawner threads live as long as the arena: a box
/// dies with the thread that started it (`PR_SET_PDEATHSIG`).
pub(super) fn spawn_soon(
    cmd: &BotCommand,
    limits: &Limits,
    sandbox: &Sandbox,
) -> tokio::sync::oneshot::Receiver<Result<BotProcess, RefereeError>> {
    static SPAWNERS: std::sync::OnceLock<Mutex<std::sync::mpsc::Sender<Job>>> = std::sync::OnceLock::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let (cmd, limits, sandbox, runtime) = (cmd.clone(), *limits, sandbox.clone(), tokio::runtime::Handle::current());
    // The bot runs where its match runs (see `cpus`): it inherits the spawner's CPUs.
    let cpus = super::cpus::of_this_thread();
    let job: Job = Box::new(move || {
        let _entered = runtime.enter();
        if let Some(set) = &cpus {
            super::cpus::follow(set);
        }
        let _ = tx.send(BotProcess::spawn(&cmd, &limits, &sandbox));
    });
    let pool = SPAWNERS.get_or_init(|| {
        let (sender, receiver) = std::sync::mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for i in 0..8 {
            let receiver = receiver.clone();
            let _ = std::thread::Builder::new().name(format!("arena-spawner-{i}")).spawn(move || loop {
                let next = lock(&receiver).recv();
                match next {
                    Ok(job) => job(),
                    Err(_) => return,
                }
            });
        }
        Mutex::new(sender)
    });
    if let Err(std::sync::mpsc::SendError(job)) = lock(pool).send(job) {
        job(); // no spawner thread (cannot happen): start it here
    }
    rx
}

/// Splits stdout into lines of at most `max` bytes. A longer line is reported as soon as it
/// passes the limit, and then stdout is read no more: the bot has lost (`malformed` if asked,
/// `extra_output` at its next prompt), and skipping a line without end cost the arena a CPU,
/// on no bot's clock, for as long as the bot kept writing (after its last answer, through its
/// grace). Its pipe fills and it waits until its box is ended; the reader ends with the channel.
async fn read_lines(out: impl tokio::io::AsyncRead + Unpin, tx: mpsc::Sender<BotLine>, max: usize) {
    let mut reader = BufReader::new(out);
    let mut line = Vec::new();
    while let Ok(chunk) = reader.fill_buf().await {
        if chunk.is_empty() {
            if !line.is_empty() && tx.send(decode(std::mem::take(&mut line))).await.is_err() {
                return;
            }
            break;
        }
        let (part, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if line.len() + part.len() > max {
            if tx.send(BotLine::TooLong).await.is_ok() {
                tx.closed().await;
            }
            return;
        }
        line.extend_from_slice(part);
        let used = end.unwrap_or(chunk.len());
        reader.consume(used);
        if end.is_some() && tx.send(decode(std::mem::take(&mut line))).await.is_err() {
            return;
        }
    }
    let _ = tx.send(BotLine::Eof).await;
}

/// A line as the games see it: surrounding white space (a trailing `\r` among it) is trimmed,
/// so that a padded answer neither means nor stores more than the plain one (see
/// [`crate::engine::State::canonical_answer`] for what a replay keeps of an answer taken). Only the ASCII white space
/// that separates words ([`bot_sdk::action::is_space`]): a U+3000 after `WAIT` is part of
/// the word for the games, as for the course's C/C++ checker.
fn decode(bytes: Vec<u8>) -> BotLine {
    let raw = bytes.len();
    match String::from_utf8(bytes) {
        Ok(text) => BotLine::Text(bot_sdk::action::trim(&text).to_string(), raw),
        Err(_) => BotLine::NotUtf8,
    }
}

/// `program` (a path, run in `here`) with its file name replaced by the nearest name of a program
/// beside it (an executable file, a typo or two away: `./mybott` for `./mybot`), if any.
/// Only executable files: `./mybot` not built yet is not `./mybot.c` misspelt.
fn near_program(here: &Path, program: &str) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let (parent, name) = program.rsplit_once('/')?;
    let folder = if parent.is_empty() { Path::new("/").to_path_buf() } else { here.join(parent) };
    // Looked at through links, for an executable file.
    let executable =
        |n: &str| std::fs::metadata(folder.join(n)).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    let near = crate::files::nearest_name(&folder, name, executable)?;
    Some(format!("{parent}/{near}"))
}

/// What a beginner most likely got wrong when the program of the command `words` (run in
/// `folder` or the current folder) could not be started with `error`: a program of the folder
/// named without `./` (the system looks for it on the PATH only), one found on the user's PATH
/// but not on the bots' ([`BOX_PATH`]), a path with a space that the command's splitting cut in
/// two, a folder instead of its program, a program not built yet (or whose build failed), or a
/// script that may not be run (no execute permission), or one whose `#!` line names an
/// interpreter the bot does not have (Windows line endings: `/bin/sh\r`; another machine's
/// path), as a bot that sees `sight` runs it.
fn program_hint(
    words: &[String],
    folder: Option<&std::path::Path>,
    error: &std::io::Error,
    sight: &crate::sandbox::Sight,
) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let program = words.first()?;
    let here = folder.unwrap_or(Path::new("."));
    let meta = std::fs::metadata(here.join(program)).ok();
    let file = meta.clone().filter(|m| m.is_file());
    let shown = crate::safe_text::terminal(program);
    // A path in a command to copy (the bot's, `chmod +x …`): one word, quoted where it needs
    // to be as the command's splitting reads it (`'./my bot'`).
    let word = |path: &str| crate::safe_text::shell_word(path);
    // A path with spaces, written unquoted inside the bot's command: the words that, joined
    // with spaces again, name a file or folder.
    let split_path = (2..=words.len()).map(|k| words[..k].join(" ")).find(|p| here.join(p).exists());
    // A program named by its path that is not there: one beside it a typo away, and the build
    // of its folder, if any (a program a typo away may be an old build under another name).
    let missing = error.kind() == std::io::ErrorKind::NotFound && program.contains('/') && meta.is_none();
    let near = missing.then(|| near_program(here, program)).flatten();
    let build = missing
        .then(|| build_command(here, Path::new(program)))
        .flatten()
        .map(|(build, dir)| format!("build it first, `{build}` in `{}`", crate::safe_text::terminal(&dir)));
    // Where a bot's programs are looked for.
    let box_path = BOX_PATH.replace(':', ", ");
    match error.kind() {
        std::io::ErrorKind::NotFound if split_path.is_some() => {
            let whole = split_path.unwrap_or_default();
            Some(format!(
                "the bot's command is split into words at spaces, as a shell does, so its program is `{shown}`; \
                 `{}` has a space in its path: quote it inside the command, `\"{}\"`",
                crate::safe_text::terminal(&whole),
                word(&whole)
            ))
        }
        std::io::ErrorKind::NotFound if near.is_some() => Some(format!(
            "`{shown}` does not exist, but `{}` does: did you mean it?{}",
            word(&near.unwrap_or_default()),
            build.map_or(String::new(), |build| format!(" If not, {build}"))
        )),
        _ if missing => Some(format!(
            "`{shown}` does not exist: {}; if the build failed, fix its first error and build again",
            build?
        )),
        std::io::ErrorKind::NotFound if !program.contains('/') && file.is_some() => Some(format!(
            "`{shown}` is a file of the bot's folder, but a program named without a folder is looked for in \
             {box_path} only: write `{}`",
            word(&format!("./{program}"))
        )),
        std::io::ErrorKind::NotFound if !program.contains('/') => {
            super::start::bare_hint(program, sight, std::env::var_os("PATH").as_deref())
        }
        // The file is there: what it names is not (its `#!` line's interpreter).
        std::io::ErrorKind::NotFound if file.is_some() => super::start::interpreter_hint(words, folder, sight),
        std::io::ErrorKind::PermissionDenied if meta.as_ref().is_some_and(|m| m.is_dir()) => {
            // The program `arena new-bot` makes is named after its folder.
            let dir = program.trim_end_matches('/');
            let inside = Path::new(dir).file_name().map(|n| format!("{dir}/{}", n.to_string_lossy()));
            let inside =
                inside.filter(|p| here.join(p).is_file()).map_or_else(|| format!("{}/…", word(dir)), |p| word(&p));
            Some(format!("`{shown}` is a folder, not a program: name the program in it, `{inside}`"))
        }
        std::io::ErrorKind::PermissionDenied if file.is_some_and(|m| m.permissions().mode() & 0o111 == 0) => {
            let through = script_interpreter(&here.join(program))
                .map_or(String::new(), |i| format!(", or run it through its interpreter: `{i} {}`", word(program)));
            Some(format!("`{shown}` has no execute permission: `chmod +x {}`{through}", word(program)))
        }
        _ => None,
    }
}

/// How the missing `program` (a path in `here`) is built: the build command of the nearest of its
/// folders that exist and hold a Makefile or a Cargo.toml (`./target/release/mybot`: the bot's
/// folder's Cargo.toml), with that folder as written (`.` for the current one).
fn build_command(here: &Path, program: &Path) -> Option<(&'static str, String)> {
    let existing = program.ancestors().skip(1).filter(|d| here.join(d).is_dir()).take(3);
    existing.into_iter().find_map(|dir| {
        let build = if ["Makefile", "makefile", "GNUmakefile"].iter().any(|f| here.join(dir).join(f).is_file()) {
            "make"
        } else if here.join(dir).join("Cargo.toml").is_file() {
            "cargo build --release"
        } else {
            return None;
        };
        let shown = dir.to_string_lossy();
        Some((build, if shown.is_empty() { ".".to_string() } else { shown.into_owned() }))
    })
}

/// The interpreter to run the script `path` through: its extension's (`bot.py`: `python3`),
/// else its `#!` line's (`#!/usr/bin/env python3`, `#!/bin/bash`), else `sh` for a text file
/// (what the system runs one without `#!` with). `None` for a compiled program, or one that
/// cannot be read.
fn script_interpreter(path: &Path) -> Option<String> {
    if let Some(interpreter) = crate::sandbox::interpreter_by_extension(path) {
        return Some(interpreter.to_string());
    }
    let head = crate::files::regular_head(path, 256)?;
    let head = head.as_slice();
    let Some(rest) = head.strip_prefix(b"#!") else {
        // A compiled program (ELF, or any file with a NUL byte early on) has no interpreter.
        return (!head.is_empty() && !head.contains(&0)).then(|| "sh".to_string());
    };
    let line = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let program = Path::new(words.next()?).file_name()?.to_str()?;
    let name = if program == "env" { words.find(|w| !w.starts_with('-'))? } else { program };
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    plain.then(|| name.to_string())
}

/// How much a bot's stderr reader takes at once: every read waits as long as this many bytes
/// take at the rate (or the pipe holds, where it holds less), whatever it returned (see
/// [`keep_stderr`]).
const STDERR_READ: usize = 64 * 1024;

/// What the pipe `fd` holds at most (`F_GETPIPE_SZ`), as a read of [`keep_stderr`] takes it: at
/// most [`STDERR_READ`], at least a page; [`STDERR_READ`] where it cannot be read. Not always 64
/// KiB: the kernel gives a user's new pipes a page or two once that user's pipes hold
/// `fs.pipe-user-pages-soft` (16,384 pages), and a bot of an arena not run as root, the arena's
/// user, did so with 1,100 pipes of its own.
fn pipe_size(fd: std::os::fd::RawFd) -> usize {
    // SAFETY: F_GETPIPE_SZ reads a number of the descriptor; no memory is passed.
    let size = unsafe { libc::fcntl(fd, libc::F_GETPIPE_SZ) };
    usize::try_from(size).map_or(STDERR_READ, |size| size.clamp(4096, STDERR_READ))
}

/// Keeps the first `cap` bytes of a bot's stderr, counts the rest, and reads at most `rate`
/// bytes per second (0: as fast as the bot writes; see [`Limits::stderr_rate`]) from a pipe that
/// holds `pipe` bytes (see [`pipe_size`]).
///
/// Each read, from the first byte, waits as long as a full read (`pipe`, [`STDERR_READ`] at
/// most) takes at the rate, however few bytes it returned: at most `rate / 64 KiB` reads a second
/// (64 at 4 MiB/s) from a pipe of 64 KiB, and still `rate` bytes a second for a bot that writes
/// in bulk, whatever its pipe holds (with each read waiting as long as 64 KiB takes, a pipe of 8
/// KiB was read at an eighth of the rate, and a red team's bot writing 32 KiB an answer timed out
/// on the wall clock where another bot had shrunk the pipes of its user). A log of a few lines per
/// answer is read a moment later (15.6 ms at 4 MiB/s), and the bot never waits for it while
/// its pipe has room. Counted by the bytes read, a bot writing one byte at a time, each once
/// the arena had read the last (`FIONREAD` tells it), had every read wait 0 µs (1 byte at
/// 4 MiB/s, rounded down): 850,000 reads in a 5 s duel cost the arena 3.4 s of CPU, on no
/// bot's clock, and its opponent a quarter more wall time per answer; and throttled past the
/// log only, its first 64 KiB were still 65,536 reads (0.4 s of CPU) per bot and match.
///
/// Two reads in a row that take all the pipe holds found it full each time:
/// the bot kept it full in between, waiting on it, and the time between them is counted as
/// its `blocked` time, as long as it took, however loaded the machine. (One full read alone
/// says nothing: a single write of 64 KiB or more fills the pipe at once, after any pause.)
async fn keep_stderr(
    mut err: impl tokio::io::AsyncRead + Unpin,
    log: Arc<Mutex<StderrLog>>,
    cap: usize,
    rate: u64,
    pipe: usize,
) {
    let mut buf = vec![0u8; STDERR_READ];
    let pipe = pipe.clamp(1, STDERR_READ);
    // (In nanoseconds: in microseconds, rounded down, a small read's wait was none.)
    let per_read = Duration::from_nanos((pipe as u64 * 1_000_000_000).checked_div(rate).unwrap_or(0));
    // When the last read returned, if it filled the buffer (on tokio's clock, which is the
    // system's but for a test's paused one).
    let mut last_full: Option<tokio::time::Instant> = None;
    loop {
        let n = match err.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let now = tokio::time::Instant::now();
        let full = n >= pipe;
        {
            let mut log = lock(&log);
            if let Some(last) = last_full.filter(|_| full && !log.ended) {
                log.blocked += now - last;
            }
            last_full = full.then_some(now);
            let room = cap.saturating_sub(log.kept.len()).min(n);
            log.kept.extend_from_slice(&buf[..room]);
            log.dropped += n - room;
        }
        // (In slices of at most 10 ms, so that a bot's end cuts a long wait short.)
        let mut wait = per_read;
        while !wait.is_zero() && !lock(&log).ended {
            let slice = wait.min(Duration::from_millis(10));
            tokio::time::sleep(slice).await;
            wait -= slice;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `read_lines` over `source` with lines of at most 4 KiB until it ends (the receiver
    /// is closed after the first message): that message, and what `source` had left.
    fn first_line(source: &mut tokio::io::Take<tokio::io::Repeat>) -> (BotLine, u64) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
        let Ok(runtime) = runtime else { panic!("a runtime") };
        runtime.block_on(async {
            let (tx, mut rx) = mpsc::channel(4);
            let reading = read_lines(&mut *source, tx, 4096);
            let receiving = async {
                let first = rx.recv().await;
                rx.close();
                // (Without the defence the reader skips the rest of the line, then says `Eof`.)
                while rx.recv().await.is_some() {}
                first
            };
            let ((), first) = tokio::join!(reading, receiving);
            (first.unwrap_or(BotLine::Eof), source.limit())
        })
    }

    #[test]
    fn a_line_without_end_is_read_no_further_than_its_limit() {
        use tokio::io::AsyncReadExt;
        // 16 MiB of one line: past the first 4 KiB and the reader's buffer, nothing is read.
        let mut flood = tokio::io::repeat(b'x').take(16 << 20);
        let (first, left) = first_line(&mut flood);
        assert!(matches!(first, BotLine::TooLong), "{first:?}");
        assert!(left >= (16 << 20) - 16 * 1024, "the reader read {} bytes of it", (16 << 20) - left);
    }

    /// A stderr that has one byte for every read, `left` times, then ends.
    struct Trickle {
        left: u32,
    }

    impl tokio::io::AsyncRead for Trickle {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            if self.left > 0 {
                self.left -= 1;
                buf.put_slice(b"x");
            }
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// Reads `bytes` bytes, one per read, with a log of `cap` bytes at `rate`: what was kept
    /// and dropped, and how long the reader waited (on a paused clock, which moves only by the
    /// waits: the machine's speed does not count).
    fn trickled(bytes: u32, cap: usize, rate: u64) -> (usize, usize, Duration) {
        let (log, took) = read_at(|| Trickle { left: bytes }, cap, rate);
        (log.kept.len(), log.dropped, took)
    }

    /// Reads all of the source `make` makes (on the runtime, which its tasks may use) with a log
    /// of `cap` bytes at `rate`, on a paused clock: the log, and how long the reader waited.
    fn read_at<R: tokio::io::AsyncRead + Unpin>(
        make: impl FnOnce() -> R,
        cap: usize,
        rate: u64,
    ) -> (StderrLog, Duration) {
        read_pipe_at(make, cap, rate, STDERR_READ)
    }

    /// [`read_at`], from a pipe that holds `pipe` bytes.
    fn read_pipe_at<R: tokio::io::AsyncRead + Unpin>(
        make: impl FnOnce() -> R,
        cap: usize,
        rate: u64,
        pipe: usize,
    ) -> (StderrLog, Duration) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build();
        let Ok(runtime) = runtime else { panic!("a runtime") };
        let log = Arc::new(Mutex::new(StderrLog::default()));
        let took = runtime.block_on(async {
            let started = tokio::time::Instant::now();
            keep_stderr(make(), log.clone(), cap, rate, pipe).await;
            started.elapsed()
        });
        let log = std::mem::take(&mut *lock(&log));
        (log, took)
    }

    /// A bot that writes in bulk finds the pipe full at every read after the first: the time
    /// between them is counted as its wait on its stderr (15 reads of 5 ms at this rate, on a
    /// paused clock; on a loaded machine, as long as they took). The control: a bot whose
    /// every write the reader takes whole never waited, however long the reader did.
    #[test]
    fn the_wait_of_a_bot_on_its_full_stderr_pipe_is_measured() {
        use tokio::io::AsyncReadExt;
        let rate = STDERR_READ as u64 * 200;
        let bulk = tokio::io::repeat(b'e').take(16 * STDERR_READ as u64);
        let (log, took) = read_at(|| bulk, 0, rate);
        assert_eq!(log.dropped, 16 * STDERR_READ);
        assert_eq!(log.blocked, Duration::from_millis(15 * 5), "read for {took:?}");
        let (log, took) = read_at(|| Trickle { left: 16 }, 0, rate);
        assert!(took >= Duration::from_millis(16 * 5), "{took:?}");
        assert_eq!(log.blocked, Duration::ZERO, "the control");
    }

    /// A pipe of 8 KiB (a user's new pipes, once its pipes hold its soft limit) is read at the
    /// rate all the same: 16 reads of 8 KiB wait 16 times what 8 KiB takes, and the bot's wait on
    /// its full pipe is counted. The control: each read waiting as long as 64 KiB takes, the same
    /// bytes took 8 times as long, and its wait was not seen.
    #[test]
    fn a_small_pipe_is_read_at_the_rate() {
        use tokio::io::AsyncWriteExt;
        let small = 8 * 1024;
        // (5 ms a read of 8 KiB: tokio's timers count whole milliseconds.)
        let rate = small as u64 * 200;
        let bot = move || {
            let (mut bot, arena) = tokio::io::duplex(small);
            tokio::spawn(async move {
                let _ = bot.write_all(&vec![b'e'; 16 * small]).await;
            });
            arena
        };
        let (log, took) = read_pipe_at(bot, 0, rate, small);
        assert_eq!(log.dropped, 16 * small);
        let per_read = Duration::from_nanos(small as u64 * 1_000_000_000 / rate);
        assert_eq!(took, per_read * 16, "{took:?}");
        assert_eq!(log.blocked, per_read * 15);
        let (log, took) = read_pipe_at(bot, 0, rate, STDERR_READ);
        assert_eq!(took, per_read * 16 * 8, "the control: {took:?}");
        assert_eq!(log.blocked, Duration::ZERO, "the control");
    }

    /// A pipe's size is read as the kernel gives it: 8 KiB once shrunk so, 64 KiB by default, and
    /// [`STDERR_READ`] where the descriptor is no pipe.
    #[test]
    fn a_pipe_s_size_is_read() {
        let mut ends = [0; 2];
        // SAFETY: pipe writes two descriptors into the array; fcntl passes numbers only.
        let shrunk = unsafe {
            assert_eq!(libc::pipe(ends.as_mut_ptr()), 0);
            let before = pipe_size(ends[0]);
            libc::fcntl(ends[1], libc::F_SETPIPE_SZ, 8192);
            (before, pipe_size(ends[0]))
        };
        // SAFETY: closes the two descriptors made above.
        unsafe {
            libc::close(ends[0]);
            libc::close(ends[1]);
        }
        assert_eq!(shrunk, (64 * 1024, 8192));
        assert_eq!(pipe_size(-1), STDERR_READ);
    }

    /// A bot that writes a line, thinks a second, then writes 64 KiB at once fills the pipe in
    /// one write that never waits: the second it thought is not counted (it was, when a full
    /// read alone counted the time since the read before). The control: the same bot writing
    /// three times that keeps the pipe full between its last three reads, 5 ms each.
    #[test]
    fn a_bot_that_fills_its_pipe_in_one_write_after_a_pause_did_not_wait() {
        use tokio::io::AsyncWriteExt;
        let rate = STDERR_READ as u64 * 200;
        let blocked = |bulk: usize| {
            let bot = move || {
                // A pipe of 64 KiB, as the kernel's: read to its end once the bot's task ends.
                let (mut bot, arena) = tokio::io::duplex(STDERR_READ);
                tokio::spawn(async move {
                    let _ = bot.write_all(b"thinking\n").await;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    let _ = bot.write_all(&vec![b'e'; bulk]).await;
                });
                arena
            };
            read_at(bot, 0, rate).0.blocked
        };
        assert_eq!(blocked(STDERR_READ), Duration::ZERO);
        assert_eq!(blocked(3 * STDERR_READ), Duration::from_millis(2 * 5), "the control");
    }

    #[test]
    fn a_stderr_written_a_byte_at_a_time_is_read_no_more_often_than_in_bulk() {
        // Every read waits as long as a full read takes at the rate: 5 ms each at this rate, so
        // 40 reads of one byte take at least 200 ms, past the log (a cap of 0) or in it (a cap
        // of 64 KiB: its first bytes are not read any faster). (Counted by the bytes read, a
        // byte's wait was 0 µs, and the 40 reads took no time at all.)
        let rate = STDERR_READ as u64 * 200;
        for cap in [0, STDERR_READ] {
            let (kept, dropped, took) = trickled(40, cap, rate);
            assert_eq!(kept + dropped, 40, "every byte kept or counted");
            assert_eq!(kept, cap.min(40));
            assert!(took >= Duration::from_millis(200), "40 reads of one byte waited {took:?} with a log of {cap}");
        }
        // The control: unthrottled (a rate of 0), the reader takes each byte as it comes, a read
        // each, and never waits: 100,000 of them in no time on the paused clock.
        let (kept, dropped, took) = trickled(100_000, STDERR_READ, 0);
        assert_eq!((kept, dropped), (STDERR_READ, 100_000 - STDERR_READ));
        assert_eq!(took, Duration::ZERO, "100,000 unthrottled reads waited {took:?}");
    }

    /// The limit each ending is taken for: a SIGKILL after half the CPU time is `memory` where
    /// the OOM killer acted (it was `cpu`, whatever killed it). The control: the same kill
    /// without an OOM kill is the CPU limit's.
    #[test]
    fn a_kill_is_the_memory_limit_s_where_the_oom_killer_acted() {
        let kill = Some(Ending::Signal(libc::SIGKILL));
        let xcpu = Some(Ending::Signal(libc::SIGXCPU));
        assert_eq!(limit_reached(kill, true, true), Failure::Memory);
        assert_eq!(limit_reached(kill, true, false), Failure::Cpu, "the control: the CPU limit's kill");
        assert_eq!(limit_reached(kill, false, false), Failure::Crash(kill));
        assert_eq!(limit_reached(xcpu, true, true), Failure::Cpu);
        assert_eq!(limit_reached(xcpu, false, false), Failure::Crash(xcpu), "a SIGXCPU it sent itself");
        assert_eq!(limit_reached(Some(Ending::Exit(1)), true, false), Failure::Crash(Some(Ending::Exit(1))));
        assert_eq!(limit_reached(Some(Ending::Exit(1)), false, true), Failure::Memory);
    }

    #[test]
    fn the_cpu_limit_is_reached_only_with_the_cpu_time_used() {
        let limit = Duration::from_secs(10);
        assert!(cpu_limit_reached(Duration::from_millis(9_400), limit), "the kernel's ticks ran ahead");
        assert!(cpu_limit_reached(Duration::from_secs(11), limit));
        assert!(!cpu_limit_reached(Duration::from_millis(3), limit), "a SIGXCPU sent at once");
        assert!(!cpu_limit_reached(Duration::from_secs(60), Duration::ZERO), "no limit");
    }

    #[test]
    fn a_bot_is_named_for_its_program_or_script() {
        let name = |command: &str| BotCommand::display_name(command);
        assert_eq!(name("./bots/greedy --fast"), "greedy");
        assert_eq!(name("python3 -u student/bot.py"), "bot");
        assert_eq!(name("/opt/arena/arena bot greedy"), "greedy", "not `arena`");
        assert_eq!(name("arena duel x y"), "arena", "another arena command is the arena's");
        assert_eq!(name(""), "bot");
    }

    #[test]
    fn a_program_that_cannot_start_gets_the_beginners_fix() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = Some(dir.path());
        let (missing, denied) =
            (std::io::Error::from_raw_os_error(libc::ENOENT), std::io::Error::from_raw_os_error(libc::EACCES));
        std::fs::write(dir.path().join("bot"), "#!/bin/sh\n").unwrap();
        let hint_for = |command: &str, error: &std::io::Error| {
            let words: Vec<String> = command.split(' ').map(str::to_string).collect();
            program_hint(&words, folder, error, &crate::sandbox::Sight::boxed())
        };
        let hint = hint_for("bot", &missing).unwrap_or_default();
        assert!(hint.contains("write `./bot`"), "{hint}");
        // Where a bot's programs are looked for, as the box's PATH says (it said "on the PATH").
        assert!(hint.contains(&format!("looked for in {} only", BOX_PATH.replace(':', ", "))), "{hint}");
        assert_eq!(hint_for("other", &missing), None, "no such file in the folder: nothing to guess");
        assert_eq!(hint_for("./bot", &missing), None, "named with its folder already");
        std::fs::set_permissions(dir.path().join("bot"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let hint = hint_for("./bot", &denied).unwrap_or_default();
        assert!(hint.contains("chmod +x ./bot"), "{hint}");
        assert!(hint.ends_with("or run it through its interpreter: `sh ./bot`"), "a shell script: {hint}");
        std::fs::set_permissions(dir.path().join("bot"), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(hint_for("./bot", &denied), None, "executable: refused for another reason");
        // A path with a space, unquoted in the command: the split cut it in two.
        std::fs::create_dir_all(dir.path().join("my bots/cbot")).unwrap();
        std::fs::write(dir.path().join("my bots/cbot/cbot"), "#!/bin/sh\n").unwrap();
        let hint = hint_for("./my bots/cbot/cbot", &missing).unwrap_or_default();
        assert!(hint.contains("its program is `./my`") && hint.contains("\"'./my bots/cbot/cbot'\""), "{hint}");
        // A bot's folder instead of its program (the one `arena new-bot` makes has its name).
        let folder_hint = |dir: &str| {
            program_hint(&[dir.to_string()], folder, &denied, &crate::sandbox::Sight::boxed()).unwrap_or_default()
        };
        let hint = folder_hint("my bots/cbot");
        assert!(hint.contains("is a folder, not a program") && hint.contains("`'my bots/cbot/cbot'`"), "{hint}");
        assert!(folder_hint("my bots/").contains("`'my bots'/…`"), "no program named after it");
        // A program not built yet (or whose build failed): the build of its folder, a Makefile's
        // or a Cargo.toml's (a Rust program lies in target/release, made by the build); the
        // control, a folder with nothing to build it, gets no guess.
        assert_eq!(hint_for("./mybot", &missing), None, "nothing here builds it");
        std::fs::write(dir.path().join("Makefile"), "mybot: bot.c\n").unwrap();
        let hint = hint_for("./mybot", &missing).unwrap_or_default();
        assert!(hint.starts_with("`./mybot` does not exist: build it first, `make` in `.`"), "{hint}");
        std::fs::create_dir_all(dir.path().join("rs/src")).unwrap();
        std::fs::write(dir.path().join("rs/Cargo.toml"), "[package]\n").unwrap();
        let hint = hint_for("rs/target/release/rs", &missing).unwrap_or_default();
        assert!(hint.contains("build it first, `cargo build --release` in `rs`"), "{hint}");
        assert_eq!(hint_for("./bot", &missing), None, "it exists: missing is something else (its interpreter)");
        // A typo in the program's name: the program beside it of the nearest name (an executable
        // file only: `./mybot`, not built, is not `./mybot.c` misspelt, nor the Makefile).
        std::fs::write(dir.path().join("mybot.c"), "int main() {}\n").unwrap();
        let hint = hint_for("./mybot", &missing).unwrap_or_default();
        assert!(hint.starts_with("`./mybot` does not exist: build it first"), "{hint}");
        let hint = hint_for("./bott", &missing).unwrap_or_default();
        assert_eq!(
            hint,
            "`./bott` does not exist, but `./bot` does: did you mean it? If not, build it first, `make` in `.`"
        );
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/cbot"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(dir.path().join("sub/cbot"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let hint = hint_for("sub/cbt", &missing).unwrap_or_default();
        let make = " If not, build it first, `make` in `.`";
        assert_eq!(hint, format!("`sub/cbt` does not exist, but `sub/cbot` does: did you mean it?{make}"));
        // A link to an executable is one too (looked at through the link).
        std::os::unix::fs::symlink("sub/cbot", dir.path().join("runme")).unwrap();
        assert_eq!(
            hint_for("./runm", &missing).as_deref(),
            Some(format!("`./runm` does not exist, but `./runme` does: did you mean it?{make}").as_str())
        );
        // Nothing here builds it: the near program only.
        let bare = tempfile::tempdir().unwrap();
        std::fs::write(bare.path().join("mybot"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(bare.path().join("mybot"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let hint =
            program_hint(&["./mybott".to_string()], Some(bare.path()), &missing, &crate::sandbox::Sight::boxed())
                .unwrap_or_default();
        assert_eq!(hint, "`./mybott` does not exist, but `./mybot` does: did you mean it?");
        std::fs::set_permissions(dir.path().join("bot"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let hint = hint_for("./bott", &missing).unwrap_or_default();
        assert!(hint.starts_with("`./bott` does not exist: build it first"), "the control, not executable: {hint}");
    }

    /// A program a typo away whose name has a space (or any character a shell reads) is
    /// suggested quoted, as the command's splitting reads it: `'./my bot'` splits into the one
    /// word `./my bot`. The control: the name unquoted, as it was suggested, splits in two. So
    /// do the other commands a hint builds from a path the user chose (`chmod +x`, the
    /// interpreter's, `./` before a file of the folder); a plain name is left as it is.
    #[test]
    fn a_suggested_program_is_quoted_as_the_command_s_splitting_reads_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (missing, denied) =
            (std::io::Error::from_raw_os_error(libc::ENOENT), std::io::Error::from_raw_os_error(libc::EACCES));
        let program = |name: &str, mode: u32| {
            std::fs::write(dir.path().join(name), "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(dir.path().join(name), std::fs::Permissions::from_mode(mode)).unwrap();
        };
        program("my bot", 0o755);
        // `arena check-bot "'./my bott'"`: one word, the program.
        let words = shell_words::split("'./my bott'").unwrap();
        let hint =
            program_hint(&words, Some(dir.path()), &missing, &crate::sandbox::Sight::boxed()).unwrap_or_default();
        let suggested = hint.split_once(", but `").and_then(|(_, rest)| rest.split_once("` does")).map(|(s, _)| s);
        assert_eq!(suggested, Some("'./my bot'"), "{hint}");
        assert_eq!(shell_words::split(suggested.unwrap_or_default()).unwrap(), ["./my bot"]);
        // The control: unquoted, the suggestion is two words, a program `./my` and an argument.
        assert_eq!(shell_words::split("./my bot").unwrap(), ["./my", "bot"]);
        // A quote in the name is quoted too.
        program("it's bot", 0o755);
        let hint =
            program_hint(&["./its bot".to_string()], Some(dir.path()), &missing, &crate::sandbox::Sight::boxed())
                .unwrap_or_default();
        let suggested = hint.split_once(", but `").and_then(|(_, rest)| rest.split_once("` does")).map(|(s, _)| s);
        assert_eq!(shell_words::split(suggested.unwrap_or_default()).unwrap(), ["./it's bot"], "{hint}");
        // The other commands built from the path.
        program("my script", 0o644);
        let hint =
            program_hint(&["./my script".to_string()], Some(dir.path()), &denied, &crate::sandbox::Sight::boxed())
                .unwrap_or_default();
        assert!(hint.contains("`chmod +x './my script'`") && hint.ends_with("`sh './my script'`"), "{hint}");
        let hint =
            program_hint(&["my script".to_string()], Some(dir.path()), &missing, &crate::sandbox::Sight::boxed())
                .unwrap_or_default();
        assert!(hint.ends_with("write `'./my script'`"), "{hint}");
        // A plain name needs no quotes.
        program("mybot", 0o755);
        let hint = program_hint(&["./mybott".to_string()], Some(dir.path()), &missing, &crate::sandbox::Sight::boxed())
            .unwrap_or_default();
        assert!(hint.contains(", but `./mybot` does"), "{hint}");
    }

    /// A script without its execute bit gets the interpreter it is written for: `python3` for a
    /// `.py` file, not `sh`; the one its `#!` line names; none for a compiled program.
    #[test]
    fn a_script_without_its_execute_bit_is_run_through_its_own_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let denied = std::io::Error::from_raw_os_error(libc::EACCES);
        let hint = |file: &str, text: &[u8]| {
            std::fs::write(dir.path().join(file), text).unwrap();
            program_hint(&[format!("./{file}")], Some(dir.path()), &denied, &crate::sandbox::Sight::boxed())
                .unwrap_or_default()
        };
        let through =
            |i: &str, file: &str| format!("`chmod +x ./{file}`, or run it through its interpreter: `{i} ./{file}`");
        for (file, text, interpreter) in [
            ("bot.py", &b"import sys\n"[..], "python3"),
            ("bot.py", b"#!/usr/bin/env python3\nimport sys\n", "python3"),
            ("bot.rb", b"puts 1\n", "ruby"),
            ("bot.js", b"console.log(1)\n", "node"),
            ("bot.sh", b"echo WAIT\n", "sh"),
            ("bot", b"#!/usr/bin/env -S python3 -u\nimport sys\n", "python3"),
            ("bot", b"#!/bin/bash\r\necho WAIT\n", "bash"),
            ("bot", b"echo WAIT\n", "sh"),
        ] {
            let said = hint(file, text);
            assert!(said.ends_with(&through(interpreter, file)), "{file} {:?}: {said}", String::from_utf8_lossy(text));
            assert_eq!(said.matches("interpreter").count(), 1, "one interpreter: {said}");
        }
        // A compiled program: making it executable is the only fix.
        let said = hint("bot", b"\x7fELF\x02\x01\x01\0\0\0");
        assert!(said.ends_with("`chmod +x ./bot`"), "{said}");
    }

    #[test]
    fn a_line_is_trimmed_of_ascii_white_space_only() {
        let text = |line: &str| match decode(line.as_bytes().to_vec()) {
            BotLine::Text(text, raw) => (text, raw),
            other => panic!("{other:?}"),
        };
        assert_eq!(text(" \t\u{b}\u{c}WAIT \r"), ("WAIT".to_string(), 10));
        // A U+3000 or a no-break space after WAIT is part of the word, as for C++'s `>>`.
        for c in ['\u{a0}', '\u{3000}', '\u{85}', '\u{2028}'] {
            assert_eq!(text(&format!("{c}WAIT{c}\r")).0, format!("{c}WAIT{c}"), "{c:?}");
        }
    }

    /// A copy of `true` whose interpreter's name lies past the file's end (as in a truncated
    /// binary): `exec` refuses it with `EIO`, an errno a failing disk gives too.
    fn program_with_its_interpreter_past_its_end(dir: &std::path::Path) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let Some(real) = ["/usr/bin/true", "/bin/true"].into_iter().find(|p| std::path::Path::new(p).exists()) else {
            panic!("no true")
        };
        let mut elf = std::fs::read(real).unwrap_or_else(|e| panic!("{real}: {e}"));
        let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as usize;
        let u64_at = |b: &[u8], at: usize| {
            let mut word = [0; 8];
            word.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(word) as usize
        };
        assert_eq!((&elf[..4], elf[4], elf[5]), (&b"\x7fELF"[..], 2, 1), "{real}: a little-endian ELF64 file");
        let (table, size, count) = (u64_at(&elf, 0x20), u16_at(&elf, 0x36), u16_at(&elf, 0x38));
        let past_its_end = (elf.len() as u64 + 4096).to_le_bytes();
        let interp = (0..count).map(|i| table + i * size).find(|&h| elf[h..h + 4] == 3u32.to_le_bytes());
        let Some(interp) = interp else { panic!("{real}: no PT_INTERP (a static program)") };
        elf[interp + 8..interp + 16].copy_from_slice(&past_its_end);
        let path = dir.join("bot");
        std::fs::write(&path, &elf).unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        path
    }

    /// A bot's own program that `exec` refuses with an errno the machine's faults give too (`EIO`:
    /// an ELF file whose interpreter's name lies past its end) is the bot's fault: a good program
    /// starts the same way. It was taken as the machine's, never charged, and its matches were
    /// played again on every run (the bot ranked first with no game). The control: the errno is
    /// one [`StartFault::of`] takes for the machine's, unless a good program starts too (the
    /// machine's own faults, where it does not, are in
    /// [`a_process_the_machine_cannot_start_is_no_bot_s_fault`]).
    #[tokio::test]
    async fn a_bot_s_program_exec_refuses_with_eio_is_the_bot_s_fault() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        let program = program_with_its_interpreter_past_its_end(dir.path());
        let Err(refused) = std::process::Command::new(&program).spawn() else { panic!("it started") };
        assert_eq!(refused.raw_os_error(), Some(libc::EIO), "{refused}");
        let fault =
            crate::sandbox::StartFault::of(&refused).unwrap_or_else(|| panic!("not the machine's errno: {refused}"));
        assert!(fault.ambiguous(), "{fault}");
        let command = program.display().to_string();
        let bot = BotCommand { name: "cheat".into(), command, cwd: None, env: Vec::new() };
        let limits = Limits::default();
        for mode in [crate::sandbox::SandboxMode::Plain, crate::sandbox::SandboxMode::Auto] {
            let Ok(sandbox) = Sandbox::new(mode, Default::default()) else { continue };
            let launch_words = [bot.command.clone()];
            let launch = Launch { words: &launch_words, folder: None, env: &[], build: false, read_only: &[] };
            assert!(sandbox.starts_a_good_program(&launch), "{mode:?}: a good program starts here");
            let error = BotProcess::spawn(&bot, &limits, &sandbox).err();
            let error = error.unwrap_or_else(|| panic!("{mode:?}: it started"));
            let RefereeError::Spawn { source, .. } = &error else { panic!("{mode:?}, not the bot's: {error}") };
            assert_eq!(source.raw_os_error(), Some(libc::EIO), "{mode:?}: {error}");
            assert_eq!(error.bot(), Some("cheat"), "{mode:?}: {error}");
        }
    }

    /// The run of [`a_process_the_machine_cannot_start_is_no_bot_s_fault`] in a process of its
    /// own, not root (whose limits do not bind it), where it may lower its limits.
    const MACHINE_FAULTS: &str = "ARENA_TEST_MACHINE_FAULTS";

    /// A bot's process that the machine cannot start is no bot's fault: `fork` refused (no
    /// process left for the arena's user: its `RLIMIT_NPROC`), or a step of the set-up refused
    /// in the child (its hard limit on file sizes below the bot's, which a user that is not root
    /// may not raise), without a box and in one. Each failed the match as a start error naming
    /// the bot (`cannot start`), which a league then listed as unable to play. The controls: a
    /// bot whose program is missing is still the one at fault, and the same bot starts where
    /// the machine lets it. (Run as `nobody` by a root test, in a process of its own.)
    #[test]
    fn a_process_the_machine_cannot_start_is_no_bot_s_fault() {
        if std::env::var_os(MACHINE_FAULTS).is_some() {
            return machine_faults();
        }
        crate::files::tests::rerun_as_nobody(
            "referee::process::tests::a_process_the_machine_cannot_start_is_no_bot_s_fault",
            MACHINE_FAULTS,
        );
    }

    /// See [`a_process_the_machine_cannot_start_is_no_bot_s_fault`]: as a user that is not root.
    fn machine_faults() {
        // SAFETY: geteuid has no preconditions.
        assert_ne!(unsafe { libc::geteuid() }, 0, "not root: its limits bind it");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
        let Ok(runtime) = runtime else { panic!("a runtime") };
        let _entered = runtime.enter();
        let limits = Limits::default();
        let mut sandboxes = vec![("plain", Sandbox::new(crate::sandbox::SandboxMode::Plain, Default::default()))];
        sandboxes.push(("auto", Sandbox::new(crate::sandbox::SandboxMode::Auto, Default::default())));
        let sandboxes: Vec<(&str, Sandbox)> = sandboxes.into_iter().filter_map(|(m, s)| Some((m, s.ok()?))).collect();
        let boxed = sandboxes.iter().any(|(_, s)| s.isolation().boxed);
        if !boxed {
            eprintln!("no box can be made here: only the plain bots are shown");
        }
        let bot =
            |command: &str| BotCommand { name: "ann".into(), command: command.into(), cwd: None, env: Vec::new() };
        let set = |resource, soft: libc::rlim_t, hard: libc::rlim_t| {
            let limit = libc::rlimit { rlim_cur: soft, rlim_max: hard };
            // SAFETY: setrlimit reads the struct.
            assert_eq!(unsafe { libc::setrlimit(resource, &limit) }, 0, "{}", std::io::Error::last_os_error());
        };
        let hard = |resource| {
            let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            // SAFETY: getrlimit fills the struct.
            unsafe { libc::getrlimit(resource, &mut limit) };
            limit.rlim_max
        };
        for (mode, sandbox) in &sandboxes {
            // The controls: a bot whose program is missing is at fault; a good one starts.
            let missing = BotProcess::spawn(&bot("./no-such-program"), &limits, sandbox).err();
            let missing = missing.unwrap_or_else(|| panic!("{mode}: it started"));
            assert!(matches!(missing, RefereeError::Spawn { .. }), "{mode}: {missing}");
            assert_eq!(missing.bot(), Some("ann"), "{mode}: {missing}");
            let good = BotProcess::spawn(&bot("true"), &limits, sandbox).unwrap_or_else(|e| panic!("{mode}: {e}"));
            runtime.block_on(good.shutdown(Duration::ZERO));
        }
        // No process left for this user: `fork` fails (and so does a thread to release the box:
        // that panicked).
        let nproc = hard(libc::RLIMIT_NPROC);
        set(libc::RLIMIT_NPROC, 0, nproc);
        let plain = &sandboxes[0].1;
        let refused = BotProcess::spawn(&bot("true"), &limits, plain).err();
        set(libc::RLIMIT_NPROC, nproc, nproc);
        let Some(refused) = refused else { panic!("it started without a process") };
        let RefereeError::Machine { source, .. } = &refused else { panic!("the bot's: {refused}") };
        assert_eq!((source.step, source.source.raw_os_error()), (None, Some(libc::EAGAIN)), "{refused}");
        assert_eq!(refused.bot(), None, "{refused}");
        assert!(refused.to_string().contains("the machine could not start it, no fault of the bot's"), "{refused}");
        // A hard limit below the bot's, which this user may not raise: its `setrlimit` fails,
        // in the plain bot's process as in the box's.
        let half = (crate::sandbox::SandboxLimits::default().file_size_mb << 20) / 2;
        set(libc::RLIMIT_FSIZE, half as libc::rlim_t, half as libc::rlim_t);
        for (mode, sandbox) in &sandboxes {
            let refused = BotProcess::spawn(&bot("true"), &limits, sandbox).err();
            let Some(refused) = refused else { panic!("{mode}: it started") };
            let RefereeError::Machine { source, .. } = &refused else { panic!("{mode}, the bot's: {refused}") };
            let step = Some(crate::sandbox::StartStep::Limits);
            assert_eq!((source.step, source.source.raw_os_error()), (step, Some(libc::EPERM)), "{mode}: {refused}");
            assert_eq!(refused.bot(), None, "{mode}: {refused}");
            assert!(refused.to_string().contains("its resource limits could not be set"), "{refused}");
        }
        // The probe of a new sandbox fails so too, and says which step (its errno is a mark).
        if boxed {
            let sandbox = Sandbox::new(crate::sandbox::SandboxMode::Auto, Default::default());
            let missing = sandbox.map(|s| s.isolation().missing.join("; ")).unwrap_or_else(|e| e.to_string());
            assert!(
                missing.contains("no box: its resource limits could not be set: Operation not permitted"),
                "{missing}"
            );
        }
    }
}
