//! How a bot's process ended, as the kernel's wait status tells it (never what the bot wrote):
//! recorded with a crash, so that a student reads "killed by signal SIGSEGV (segmentation
//! fault: …)" instead of "exited".

use serde::{Deserialize, Serialize};

/// How a process that stopped answering had ended when the referee looked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Killed by this signal (its number on Linux), none the arena sent for its limits (a
    /// SIGXCPU recorded here came before the box had used its CPU-time limit).
    Signal(i32),
    /// Exited with this status.
    Exit(i32),
    /// Still running: it closed its stdout without ending.
    Running,
    /// Still running: it closed its stdin (the referee's next prompt could not be written)
    /// without ending.
    ClosedInput,
}

/// Signals a bot dies of, by number: the name and what it most likely means to a student.
const SIGNALS: [(i32, &str, &str); 17] = [
    (
        libc::SIGSEGV,
        "SIGSEGV",
        "segmentation fault: an invalid memory access, such as an index out of bounds or a null pointer",
    ),
    (libc::SIGABRT, "SIGABRT", "aborted (an assert failed, or the C++ runtime ended it: an uncaught exception; or an allocation failed, as one \
         past the memory limit does)"),
    (libc::SIGFPE, "SIGFPE", "arithmetic error, such as a division by zero"),
    (libc::SIGBUS, "SIGBUS", "bus error: an invalid memory access, such as a misaligned pointer"),
    (
        libc::SIGILL,
        "SIGILL",
        "illegal instruction: a corrupted stack or function pointer, or a program built for another CPU",
    ),
    (libc::SIGTRAP, "SIGTRAP", "trap: a breakpoint, or a check compiled into the program failed"),
    (libc::SIGSYS, "SIGSYS", "a system call the sandbox ends a process for"),
    (
        libc::SIGKILL,
        "SIGKILL",
        "killed outright, not by the arena's limits: by the bot itself, or by the system (short of memory?)",
    ),
    (libc::SIGTERM, "SIGTERM", "terminated: asked to end, by the bot itself or another of its processes"),
    (libc::SIGPIPE, "SIGPIPE", "broken pipe: it wrote to a pipe that nobody reads any more"),
    (libc::SIGXFSZ, "SIGXFSZ", "it wrote a file larger than the sandbox allows"),
    (
        libc::SIGXCPU,
        "SIGXCPU",
        "the CPU-time limit's signal, sent by the bot itself: the arena measured its CPU time well under the limit",
    ),
    (libc::SIGALRM, "SIGALRM", "an alarm it set (`alarm`, `setitimer`) went off with no handler"),
    (libc::SIGINT, "SIGINT", "interrupted"),
    (libc::SIGHUP, "SIGHUP", "hang-up"),
    (libc::SIGQUIT, "SIGQUIT", "quit"),
    (libc::SIGUSR1, "SIGUSR1", "a user signal with no handler"),
];

/// Signal `sig`'s entry in [`SIGNALS`], if it has one.
fn known(sig: i32) -> Option<&'static (i32, &'static str, &'static str)> {
    SIGNALS.iter().find(|s| s.0 == sig)
}

impl Ending {
    /// The signal a shell's exit status says its command died of (a shell exits with 128 + n
    /// when the program it ran was killed by signal n), if it says one.
    pub fn shell_signal(code: i32) -> Option<i32> {
        (129..=128 + 64).contains(&code).then(|| code - 128)
    }

    /// The signal's name (`SIGSEGV`), or `signal N` for one not listed.
    pub fn signal_name(sig: i32) -> String {
        known(sig).map_or_else(|| format!("signal {sig}"), |s| s.1.to_string())
    }

    /// How it ended, as words after "the bot" (or "your bot"): `was killed by signal SIGSEGV
    /// (segmentation fault: …)`, `exited with status 1`, `closed its stdout but was still running`.
    pub fn clause(self) -> String {
        match self {
            Ending::Signal(sig) => match known(sig) {
                Some((_, name, meaning)) => format!("was killed by signal {name} ({meaning})"),
                None => format!("was killed by signal {sig}"),
            },
            Ending::Exit(0) => "exited with status 0 (no error: its program ended before the game did)".to_string(),
            // (A shell says a program it ran died of signal N so: `sh -c ./bot`, `./bot | tee`.)
            Ending::Exit(code) if Ending::shell_signal(code).and_then(known).is_some() => {
                format!(
                    "exited with status {code} (a shell's way of saying that a program it ran was killed by \
                     signal {})",
                    Ending::signal_name(code - 128)
                )
            }
            Ending::Exit(code) => format!("exited with status {code}"),
            Ending::Running => "closed its stdout but was still running".to_string(),
            Ending::ClosedInput => "closed its stdin (stopped reading its input) but was still running".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_named_for_a_student() {
        assert_eq!(
            Ending::Signal(libc::SIGSEGV).clause(),
            "was killed by signal SIGSEGV (segmentation fault: an invalid memory access, such as an index out of \
             bounds or a null pointer)"
        );
        assert!(Ending::Signal(libc::SIGABRT).clause().contains("SIGABRT (aborted (an assert failed"));
        assert!(Ending::Signal(libc::SIGFPE).clause().contains("division by zero"));
        assert_eq!(Ending::Signal(63).clause(), "was killed by signal 63");
        assert_eq!(Ending::Exit(3).clause(), "exited with status 3");
        assert!(Ending::Exit(0).clause().starts_with("exited with status 0 (no error"));
        assert!(Ending::Exit(139).clause().ends_with("killed by signal SIGSEGV)"));
        assert_eq!(Ending::Running.clause(), "closed its stdout but was still running");
        assert_eq!(Ending::ClosedInput.clause(), "closed its stdin (stopped reading its input) but was still running");
        // Recorded as `{"signal": 11}`, `{"exit": 1}`, `"running"`.
        let json = serde_json::to_string(&[Ending::Signal(11), Ending::Exit(1), Ending::Running, Ending::ClosedInput])
            .unwrap();
        assert_eq!(json, r#"[{"signal":11},{"exit":1},"running","closed_input"]"#);
    }
}
