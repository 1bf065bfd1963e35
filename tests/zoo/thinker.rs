//! Test bot `clock-thinker MODE MS`: answers WAIT to every TICK after spending MS
//! milliseconds of CPU time on it (`spin`, in itself; `child`, in a child it waits for) or of
//! wall time asleep (`sleep`; `forever` never answers); or doing MS million steps of work
//! (`work`), however long that takes. Used by the fair-clock tests.
use std::io::{BufRead, Write};
use std::time::Duration;

/// CPU time this process has used.
fn cpu_now() -> Duration {
    // SAFETY: clock_gettime writes into the struct we own.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Burns `ms` of this process's CPU time.
fn spin(ms: u64) {
    let end = cpu_now() + Duration::from_millis(ms);
    let mut x = 0u64;
    while cpu_now() < end {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_default();
    let ms: u64 = args.get(1).and_then(|m| m.parse().ok()).unwrap_or(600);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if !line.starts_with("TICK") {
            continue;
        }
        match mode.as_str() {
            "spin" => spin(ms),
            "child" => {
                // SAFETY: the child only spins, then exits.
                let pid = unsafe { libc::fork() };
                if pid == 0 {
                    spin(ms);
                    // SAFETY: leaving the child without running the parent's destructors.
                    unsafe { libc::_exit(0) };
                }
                let mut status = 0;
                // SAFETY: waiting for our own child.
                unsafe { libc::waitpid(pid, &mut status, 0) };
            }
            "sleep" => std::thread::sleep(Duration::from_millis(ms)),
            // A fixed amount of work, MS million steps, whatever it is charged.
            "work" => {
                let mut x = 0u64;
                for i in 0..ms.saturating_mul(1_000_000) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
                }
            }
            _ => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
        }
        if writeln!(out, "WAIT").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
