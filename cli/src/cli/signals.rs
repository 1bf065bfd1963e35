//! The signals that end a command as Ctrl-C does: `SIGINT` (Ctrl-C), `SIGTERM` (a batch
//! system's time limit or `scancel`, a pod deleted or evicted, `kill`) and `SIGHUP` (the
//! terminal or the SSH session closed). The first cancels the command's token: no new match
//! starts, the running bots are ended, what finished is kept, and the command exits with status
//! 128 + the signal's number (130, 143, 129). A second one while it ends stops the process at
//! once, with that status too.

use std::io::Write as _;
use std::sync::atomic::{AtomicI32, Ordering};

use tokio::signal::unix::{signal, SignalKind};
use tokio_util::sync::CancellationToken;

/// The signals handled: number, name, and what the first one does to the command, in a word.
const SIGNALS: [(libc::c_int, &str, &str); 3] = [
    (libc::SIGINT, "SIGINT", "interrupted"),
    (libc::SIGTERM, "SIGTERM", "terminated"),
    (libc::SIGHUP, "SIGHUP", "hung up"),
];

/// The first signal received (0 while none was).
static FIRST: AtomicI32 = AtomicI32::new(0);

/// Whether the line saying the first signal (`terminated (SIGTERM): …`) was written.
static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Waits, up to `max`, for the line saying the first signal to be written, where one was
/// received: it is written by a thread of its own, and a command that ends at once on the
/// signal (one waiting for its folder sees it within 50 ms) returned from `main`, and the
/// process ended, before it did: the line was missing from stderr now and then.
pub fn await_said(max: std::time::Duration) {
    let start = std::time::Instant::now();
    while received().is_some() && !SAID.load(Ordering::SeqCst) && start.elapsed() < max {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The first of [`SIGNALS`] this process received, if any.
pub fn received() -> Option<libc::c_int> {
    Some(FIRST.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// The status a command ended by the first signal exits with: 128 + its number (130 for
/// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as a shell reports a command it killed.
pub fn status() -> u8 {
    status_of(received().unwrap_or(libc::SIGINT))
}

fn status_of(signal: libc::c_int) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// What the first signal did to the command, in a word: "interrupted" (Ctrl-C, and where none
/// was received), "terminated", "hung up".
pub fn word() -> &'static str {
    let first = received().unwrap_or(libc::SIGINT);
    SIGNALS.iter().find(|s| s.0 == first).map_or("interrupted", |s| s.2)
}

/// A token cancelled on the first of SIGINT, SIGTERM and SIGHUP, after `what` (what the command
/// does then: "starting no new matches, ending running bots") is printed to stderr after the
/// signal's word and name: `terminated (SIGTERM): starting no new matches, …`. A second one
/// while the command ends exits at once with status 128 + its number, after closing the way a
/// root arena without a box opened to its league's copies ([`arena::tournament::close_ways`]):
/// its bots end with it (each dies with the arena), its files were each written whole (a
/// replay or a page renamed into place, a result line appended and synced) or not at all, and
/// `--resume` goes on. A small thread waits for the signals, so that the work itself can run on
/// any runtime or thread; the handlers are registered before this returns, so that no early
/// signal is missed (nor, as the first process of a container, ignored: a process with a PID of
/// 1 gets no signal it has no handler for). A SIGHUP the arena was started ignoring (`nohup`)
/// stays ignored.
pub fn cancel_on_signals(what: &'static str) -> anyhow::Result<CancellationToken> {
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    // (`nohup arena tournament …` outlives its terminal, as it did. SIGINT is handled though
    // ignored: a shell runs a command of a script's `… &` ignoring it, and so do test harnesses
    // that start their programs so; Ctrl-C and `kill -INT` ended such a run cleanly before.)
    let kept = |signal| signal == libc::SIGHUP && ignored(signal);
    let handled: Vec<usize> = (0..SIGNALS.len()).filter(|&i| !kept(SIGNALS[i].0)).collect();
    let mut streams = runtime.block_on(async {
        handled.iter().map(|&i| signal(SignalKind::from_raw(SIGNALS[i].0))).collect::<std::io::Result<Vec<_>>>()
    })?;
    let waiter = std::thread::Builder::new().name("arena-signals".into()).spawn(move || {
        runtime.block_on(async move {
            let first = next(&mut streams, &handled).await;
            FIRST.store(first, Ordering::SeqCst);
            // (Cancelled before anything is written: after SIGHUP the terminal may be gone, and
            // a write to it fail.)
            on_signal.cancel();
            let (name, word) = names(first);
            // (On a thread of its own: stderr's lock may be held by a thread blocked on a full
            // pipe, and this one must go on to wait for the second signal.)
            let say = move || {
                super::ShownBar::global().suspend(|| say_on_stderr(&format!("{word} ({name}): {what}")));
                SAID.store(true, Ordering::SeqCst);
            };
            let said = std::sync::Arc::new(std::sync::Mutex::new(Some(say)));
            let theirs = said.clone();
            let spawned = std::thread::Builder::new().name("arena-signal-said".into()).spawn(move || {
                if let Some(say) = theirs.lock().ok().and_then(|mut s| s.take()) {
                    say();
                }
            });
            if spawned.is_err() {
                if let Some(say) = said.lock().ok().and_then(|mut s| s.take()) {
                    say();
                }
            }
            let second = next(&mut streams, &handled).await;
            let status = status_of(second);
            // The ways first, then a line written past stderr's lock (which a thread blocked on
            // a full pipe may hold), if it can be written without waiting.
            arena::tournament::close_ways();
            say_at_once(&format!("{} while ending: stopping at once (status {status})", names(second).0));
            std::process::exit(i32::from(status));
        });
    });
    // (Before any work: a command that could not end cleanly on a signal does not start.)
    waiter.map_err(|e| {
        anyhow::anyhow!(
            "the machine could not start the thread that waits for Ctrl-C, SIGTERM and SIGHUP: {e}{}; nothing was \
             started",
            arena::sandbox::machine_hint(&e)
        )
    })?;
    Ok(cancel)
}

/// Whether `signal` is ignored (`SIG_IGN`), as the arena was started.
fn ignored(signal: libc::c_int) -> bool {
    // SAFETY: sigaction with no new action only reads the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// The next signal of `streams`: one for each of [`SIGNALS`] whose index `handled` lists.
async fn next(streams: &mut [tokio::signal::unix::Signal], handled: &[usize]) -> libc::c_int {
    // (Each stream polled registers to be woken: all of them, until one is ready.)
    let i = std::future::poll_fn(|cx| match streams.iter_mut().position(|s| s.poll_recv(cx).is_ready()) {
        Some(i) => std::task::Poll::Ready(i),
        None => std::task::Poll::Pending,
    })
    .await;
    SIGNALS[handled[i]].0
}

/// The name and the word of `signal`, one of [`SIGNALS`].
fn names(signal: libc::c_int) -> (&'static str, &'static str) {
    SIGNALS.iter().find(|s| s.0 == signal).map_or(("a signal", "interrupted"), |s| (s.1, s.2))
}

/// Writes `line` and a newline to stderr; a stderr that cannot be written (the terminal hung
/// up) is no error.
fn say_on_stderr(line: &str) {
    let _ = writeln!(std::io::stderr(), "{}", arena::safe_text::terminal_lines(line));
}

/// Writes `line` and a newline to the standard error's file descriptor itself, past Rust's lock
/// on stderr, and only if it takes it now or within 100 ms (a pipe nobody reads is full): the
/// process is about to exit at once.
fn say_at_once(line: &str) {
    let text = format!("{}\n", arena::safe_text::terminal_lines(line));
    // (A pipe ready for writing takes PIPE_BUF bytes, 4096 at least, at once and whole.)
    let bytes = &text.as_bytes()[..text.len().min(4096)];
    let mut ready = libc::pollfd { fd: libc::STDERR_FILENO, events: libc::POLLOUT, revents: 0 };
    // SAFETY: poll reads and fills the one pollfd given; write reads `bytes`, alive here.
    unsafe {
        if libc::poll(&mut ready, 1, 100) == 1 && ready.revents & libc::POLLOUT != 0 {
            let _ = libc::write(libc::STDERR_FILENO, bytes.as_ptr().cast(), bytes.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_is_128_and_the_signal() {
        assert_eq!([libc::SIGINT, libc::SIGTERM, libc::SIGHUP].map(status_of), [130, 143, 129]);
        assert_eq!(names(libc::SIGTERM), ("SIGTERM", "terminated"));
    }
}
