//! CPU time (user + system) of the calling thread: what benchmarks report beside wall time,
//! what the solver's time limit counts, so that a loaded machine does not change results, and
//! what the reference bot's caps ([`crate::reference::Caps`]) count.

use std::time::Duration;

/// CPU time the calling thread has used so far (zero if the clock cannot be read).
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec.max(0) as u64, ts.tv_nsec.clamp(0, 999_999_999) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_work_uses_cpu_time_and_sleeping_does_not() {
        let before = thread_cpu();
        let mut x = 0u64;
        while thread_cpu() - before < Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let busy = thread_cpu();
        assert!(busy - before >= Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(50));
        assert!(thread_cpu() - busy < Duration::from_millis(40), "sleeping is not CPU time");
    }
}
