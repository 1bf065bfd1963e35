//! One bot process: spawned in its own process group, fed through stdin, read line by line
//! from stdout under time limits, its stderr kept up to a cap, and ended without leftovers.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{Limits, RefereeError};
use crate::engine::{Failure, Reply};
use crate::sandbox::{Cage, Sandbox};

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

/// Interpreters whose script, not themselves, names a bot.
const INTERPRETERS: [&str; 9] = ["sh", "bash", "python", "python3", "node", "ruby", "perl", "java", "env"];

impl BotCommand {
    /// A display name from a command line: the program's file name, or the script's when the
    /// program is an interpreter (`sh bots/x.sh` is `x`).
    pub fn display_name(command: &str) -> String {
        let words = shell_words::split(command).unwrap_or_default();
        let base = |w: &str| Path::new(w).file_name().map_or(w.to_string(), |n| n.to_string_lossy().into_owned());
        let mut chosen = words.first().map(|w| base(w)).unwrap_or_default();
        if INTERPRETERS.contains(&chosen.as_str()) {
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
    /// `ARENA_SEED` = seed + seat (so seeded random bots replay the same) and `ARENA_PLAYER`
    /// = seat + 1.
    pub fn seated(name: &str, command: &str, cwd: Option<PathBuf>, seed: u64, seat: usize) -> Self {
        BotCommand {
            name: name.to_string(),
            command: command.to_string(),
            cwd,
            env: vec![
                ("ARENA_SEED".to_string(), seed.wrapping_add(seat as u64).to_string()),
                ("ARENA_PLAYER".to_string(), (seat + 1).to_string()),
            ],
        }
    }
}

/// What the stdout reader saw.
#[derive(Debug)]
enum BotLine {
    Text(String),
    TooLong,
    NotUtf8,
    Eof,
}

/// The bot's stderr, kept up to a cap.
#[derive(Debug, Default)]
struct StderrLog {
    kept: Vec<u8>,
    dropped: usize,
}

/// A running bot.
pub struct BotProcess {
    name: String,
    child: Child,
    pgid: Option<Pid>,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<BotLine>,
    stderr: Arc<Mutex<StderrLog>>,
    tasks: Vec<JoinHandle<()>>,
    used: Duration,
    answered: bool,
    ended: bool,
    cage: Option<Cage>,
}

impl Drop for BotProcess {
    /// A bot dropped without [`BotProcess::shutdown`] (a cancelled match, a panic) still has
    /// its whole process group killed; tokio reaps the leader in the background.
    fn drop(&mut self) {
        if !self.ended {
            if let Some(pgid) = self.pgid {
                let _ = killpg(pgid, Signal::SIGKILL);
            }
        }
        if let Some(cage) = self.cage.take() {
            cage.end();
        }
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl BotProcess {
    /// Starts the bot. Fails when the command is empty, cannot be split, or cannot be run.
    pub fn spawn(cmd: &BotCommand, limits: &Limits, sandbox: &Sandbox) -> Result<BotProcess, RefereeError> {
        let bad = |message: String| RefereeError::BadCommand {
            name: cmd.name.clone(),
            command: cmd.command.clone(),
            message,
        };
        let words = shell_words::split(&cmd.command).map_err(|e| bad(e.to_string()))?;
        let (program, args) = words.split_first().ok_or_else(|| bad("the command is empty".to_string()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(dir) = &cmd.cwd {
            command.current_dir(dir);
        }
        for (k, v) in &cmd.env {
            command.env(k, v);
        }
        let cwd = match &cmd.cwd {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        };
        let cage = sandbox.confine(&mut command, &cwd).map_err(|e| bad(e.to_string()))?;
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(source) => {
                cage.end();
                return Err(RefereeError::Spawn { name: cmd.name.clone(), command: cmd.command.clone(), source });
            }
        };
        let pgid = child.id().map(|id| Pid::from_raw(id as i32));
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel(4);
        let stderr = Arc::new(Mutex::new(StderrLog::default()));
        let mut tasks = Vec::new();
        if let Some(out) = child.stdout.take() {
            tasks.push(tokio::spawn(read_lines(out, tx, limits.max_line)));
        }
        if let Some(err) = child.stderr.take() {
            tasks.push(tokio::spawn(keep_stderr(err, stderr.clone(), limits.stderr_cap)));
        }
        tracing::debug!(bot = %cmd.name, command = %cmd.command, pid = ?pgid, "spawned");
        Ok(BotProcess {
            name: cmd.name.clone(),
            child,
            pgid,
            stdin,
            lines,
            stderr,
            tasks,
            used: Duration::ZERO,
            answered: false,
            ended: false,
            cage: Some(cage),
        })
    }

    /// Sends `text` and waits for one answer line under the limits. Returns the reply and the
    /// time it took. A line already waiting is output nobody asked for, unless `early_ok` (the
    /// bot was sent its whole input at once, so answers may run ahead).
    pub async fn ask(&mut self, text: &str, limits: &Limits, early_ok: bool) -> (Reply, Duration) {
        if !early_ok {
            match self.lines.try_recv() {
                Ok(BotLine::Eof) | Err(mpsc::error::TryRecvError::Disconnected) => {
                    return (Reply::Failed(self.why_it_died().await), Duration::ZERO)
                }
                Ok(_) => return (Reply::Failed(Failure::ExtraOutput), Duration::ZERO),
                Err(mpsc::error::TryRecvError::Empty) => {}
            }
        }
        let per_answer = if self.answered { limits.per_move } else { limits.startup };
        let limit = per_answer.min(limits.total.saturating_sub(self.used));
        let start = Instant::now();
        let stdin = &mut self.stdin;
        let lines = &mut self.lines;
        let exchange = async {
            let Some(pipe) = stdin.as_mut() else {
                return Reply::Failed(Failure::Crash);
            };
            if pipe.write_all(text.as_bytes()).await.is_err() || pipe.flush().await.is_err() {
                return Reply::Failed(Failure::Crash);
            }
            match lines.recv().await {
                Some(BotLine::Text(line)) => Reply::Line(line),
                Some(BotLine::TooLong) | Some(BotLine::NotUtf8) => Reply::Failed(Failure::Malformed),
                Some(BotLine::Eof) | None => Reply::Failed(Failure::Crash),
            }
        };
        let mut reply = tokio::time::timeout(limit, exchange).await.unwrap_or(Reply::Failed(Failure::Timeout));
        let took = start.elapsed();
        // A bot that exited while a child still holds its pipe open crashed: it did not merely
        // run out of time.
        let exited = reply == Reply::Failed(Failure::Timeout) && matches!(self.child.try_wait(), Ok(Some(_)));
        if reply == Reply::Failed(Failure::Crash) || exited {
            reply = Reply::Failed(self.why_it_died().await);
        }
        self.used += took;
        self.answered = true;
        tracing::trace!(bot = %self.name, ?reply, ?took, "answer");
        (reply, took)
    }

    /// Tells a limit apart from a plain crash once the bot has gone: SIGXCPU is `cpu`; an
    /// allocation failure its runtime reported on stderr is `memory`; anything else `crash`.
    async fn why_it_died(&mut self) -> Failure {
        let status = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
        if let Ok(Ok(status)) = status {
            if std::os::unix::process::ExitStatusExt::signal(&status) == Some(libc::SIGXCPU) {
                return Failure::Cpu;
            }
        }
        // Give the stderr reader a moment to take the last words.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let log = self.stderr_text();
        const OUT_OF_MEMORY: [&str; 5] =
            ["memory allocation of", "bad_alloc", "MemoryError", "Cannot allocate memory", "out of memory"];
        if OUT_OF_MEMORY.iter().any(|m| log.contains(m)) {
            return Failure::Memory;
        }
        Failure::Crash
    }

    fn stderr_text(&self) -> String {
        let log = match self.stderr.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut text = String::from_utf8_lossy(&log.kept).into_owned();
        if log.dropped > 0 {
            text.push_str(&format!("\n[arena: {} more bytes of stderr dropped]\n", log.dropped));
        }
        text
    }

    /// Closes stdin, lets the bot exit within `grace`, then ends its whole process group
    /// (SIGTERM, then SIGKILL) and reaps it. Returns what it wrote to stderr.
    pub async fn shutdown(mut self, grace: Duration) -> String {
        drop(self.stdin.take());
        let exited = tokio::time::timeout(grace, self.child.wait()).await.is_ok();
        if let Some(pgid) = self.pgid {
            if !exited {
                let _ = killpg(pgid, Signal::SIGTERM);
                if tokio::time::timeout(grace, self.child.wait()).await.is_err() {
                    tracing::debug!(bot = %self.name, "did not end on SIGTERM");
                }
            }
            // Children that outlived the leader (or ignored SIGTERM) go too.
            let _ = killpg(pgid, Signal::SIGKILL);
        }
        let _ = self.child.kill().await;
        if let Some(cage) = self.cage.take() {
            let left = cage.remaining();
            if left > 0 {
                tracing::debug!(bot = %self.name, left, "ending processes that left the group");
            }
            cage.end();
        }
        self.ended = true;
        tracing::debug!(bot = %self.name, "ended");
        self.stderr_text()
    }
}

/// Splits stdout into lines of at most `max` bytes. A longer line is reported as soon as it
/// passes the limit, and the rest of it is skipped without being kept.
async fn read_lines(out: tokio::process::ChildStdout, tx: mpsc::Sender<BotLine>, max: usize) {
    let mut reader = BufReader::new(out);
    let mut line = Vec::new();
    let mut too_long = false;
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
        if !too_long {
            if line.len() + part.len() > max {
                too_long = true;
                line.clear();
                if tx.send(BotLine::TooLong).await.is_err() {
                    return;
                }
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = end.unwrap_or(chunk.len());
        reader.consume(used);
        if end.is_some() {
            if !too_long && tx.send(decode(std::mem::take(&mut line))).await.is_err() {
                return;
            }
            too_long = false;
        }
    }
    let _ = tx.send(BotLine::Eof).await;
}

fn decode(bytes: Vec<u8>) -> BotLine {
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.ends_with('\r') {
                text.pop();
            }
            BotLine::Text(text)
        }
        Err(_) => BotLine::NotUtf8,
    }
}

async fn keep_stderr(mut err: tokio::process::ChildStderr, log: Arc<Mutex<StderrLog>>, cap: usize) {
    let mut buf = [0u8; 8192];
    loop {
        let n = match err.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let mut log = match log.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let room = cap.saturating_sub(log.kept.len()).min(n);
        log.kept.extend_from_slice(&buf[..room]);
        log.dropped += n - room;
    }
}
