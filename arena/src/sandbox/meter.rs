//! The kernel's per-process accounting, for boxes without cgroups: the CPU time and resident
//! memory (resident, and swapped out) of a process and all its descendants, read from /proc.

use std::path::Path;
use std::time::Duration;

/// Clock ticks per second of /proc's times.
fn ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as u64
    } else {
        100
    }
}

/// The fields after the command name in /proc/<pid>/stat (the name may hold spaces).
fn stat_fields(pid: i32) -> Option<Vec<u64>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    // Field 3 (state) is a letter; keep positions by mapping it to 0.
    Some(rest.split_whitespace().map(|f| f.parse().unwrap_or(0)).collect())
}

/// The children of `pid`'s threads, appended to `out`. A process of one thread (`threads`, from
/// its stat) has them in one file, without a listing of /proc/<pid>/task.
fn children(pid: i32, threads: u64, out: &mut Vec<i32>) {
    let mut add = |file: &Path| {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        out.extend(text.split_whitespace().filter_map(|c| c.parse::<i32>().ok()));
    };
    if threads == 1 {
        add(&Path::new("/proc").join(format!("{pid}/task/{pid}/children")));
        return;
    }
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return };
    for task in tasks.flatten() {
        add(&task.path().join("children"));
    }
}

/// `root` and every process below it.
pub(super) fn tree(root: i32) -> Vec<i32> {
    let mut all = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        all.push(pid);
        children(pid, 0, &mut todo);
    }
    all
}

/// What `root`'s tree uses, from one walk of /proc.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Usage {
    /// CPU time (user + system): the live processes' own, plus what their reaped children used.
    pub cpu: Duration,
    /// Resident memory, in bytes.
    pub rss: u64,
    /// Memory swapped out, in bytes, where it was counted (see [`usage`]); 0 otherwise.
    pub swap: u64,
}

impl Usage {
    /// The memory the tree holds: resident, and swapped out where that was counted.
    pub fn memory(&self) -> u64 {
        self.rss.saturating_add(self.swap)
    }
}

/// CPU time and memory of `root`'s tree in one walk: each process's stat gives its times, its
/// resident pages and its thread count (which spares a single-threaded one the listing of its
/// threads). The monitor looks at a box without a cgroup 40 times a second; a walk for each,
/// with a listing, its children and stat and statm files for each of its 64 processes, cost
/// the arena 0.05 to 0.1 s of CPU a second (`flood-stderr 60` in the zoo).
///
/// With `swap_over` (a machine with swap), the pages swapped out count too (`VmSwap` in each
/// process's status), but only where the tree's address spaces (`vsize` in stat) together
/// exceed that many bytes while its resident memory does not: below it, resident and swapped
/// pages together cannot exceed it either (and one process, its address space capped at the
/// box's figure, never can), while reading every status file too makes a look of 64 processes
/// about 2.5 times as costly (17 us a process, against 7 for the stat alone).
pub(super) fn usage(root: i32, swap_over: Option<u64>) -> Usage {
    usage_with(root, swap_over, swapped)
}

/// [`usage`], with `swapped` reading a process's swapped-out bytes.
fn usage_with(root: i32, swap_over: Option<u64>, swapped: impl Fn(i32) -> u64) -> Usage {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    let (mut ticks, mut pages, mut address_space) = (0u64, 0u64, 0u64);
    let mut walked = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        let Some(f) = stat_fields(pid) else { continue };
        // After the name: state(0) ppid … utime(11) stime(12) cutime(13) cstime(14) …
        // num_threads(17) … vsize(20) rss(21).
        ticks += f.get(11..15).map_or(0, |t| t.iter().sum::<u64>());
        pages += f.get(21).copied().unwrap_or(0);
        address_space = address_space.saturating_add(f.get(20).copied().unwrap_or(0));
        if swap_over.is_some() {
            walked.push(pid);
        }
        children(pid, f.get(17).copied().unwrap_or(0), &mut todo);
    }
    let rss = pages * page;
    let swap = match swap_over {
        Some(bytes) if address_space > bytes && rss <= bytes => walked.iter().map(|&pid| swapped(pid)).sum(),
        _ => 0,
    };
    Usage { cpu: Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / ticks_per_second()), rss, swap }
}

/// The bytes of `pid`'s memory swapped out (0 for a process gone).
fn swapped(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status")).ok().and_then(|text| vm_swap(&text)).unwrap_or(0)
}

/// `VmSwap` of a /proc/PID/status text, in bytes (`None` without one: a kernel thread's).
fn vm_swap(status: &str) -> Option<u64> {
    let kb: u64 = status.lines().find_map(|l| l.strip_prefix("VmSwap:"))?.split_whitespace().next()?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// CPU time (user + system) of `root`'s tree: the live processes' own, plus what their
/// reaped children used.
pub(super) fn tree_cpu(root: i32) -> Duration {
    usage(root, None).cpu
}

/// Memory of `root`'s tree, in bytes: resident, and swapped out as [`usage`] counts it.
pub(super) fn tree_memory(root: i32, swap_over: Option<u64>) -> u64 {
    usage(root, swap_over).memory()
}

/// The first child of `pid` (the box's init, for a supervisor).
pub(super) fn first_child(pid: i32) -> Option<i32> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_child_is_counted() {
        // Busy until killed, and looked at until its first tick shows: on a loaded machine a
        // fixed wait (150 ms) could end before the child had run a tick of its own.
        let mut child = std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
        let pid = child.id() as i32;
        let start = std::time::Instant::now();
        let mut during = tree_cpu(pid);
        while during == Duration::ZERO && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
            during = tree_cpu(pid);
        }
        let running = child.try_wait().unwrap().is_none();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(running && during > Duration::ZERO, "the child's own time shows while it runs");
        assert!(tree_memory(std::process::id() as i32, None) > 0);
    }

    #[test]
    fn one_walk_counts_what_the_two_did() {
        // This test process has several threads and children of its own: its whole tree, walked
        // once for both, as the statm files and the listings of every thread say.
        let mut kids: Vec<_> = (0..3).map(|_| std::process::Command::new("sleep").arg("5").spawn().unwrap()).collect();
        let me = std::process::id() as i32;
        let mut listed = tree(me);
        let mut walked = Vec::new();
        let mut todo = vec![me];
        while let Some(pid) = todo.pop() {
            walked.push(pid);
            children(pid, stat_fields(pid).and_then(|f| f.get(17).copied()).unwrap_or(0), &mut todo);
        }
        for k in &mut kids {
            let _ = k.kill();
            let _ = k.wait();
        }
        listed.sort_unstable();
        walked.sort_unstable();
        assert_eq!(walked, listed);
        assert!(listed.len() >= 4, "{listed:?}");
        assert!(usage(me, None).rss > 0);
    }

    #[test]
    fn swap_counts_where_the_address_spaces_could_hold_more_than_the_cap() {
        let status = "Name:\tbot\nVmRSS:\t    1200 kB\nVmSwap:\t    2048 kB\nHugetlbPages:\t       0 kB\n";
        assert_eq!(vm_swap(status), Some(2 << 20));
        assert_eq!(vm_swap("Name:\tkthreadd\nThreads:\t1\n"), None, "a kernel thread has no memory");
        assert_eq!(swapped(i32::MAX), 0, "a process gone holds nothing");
        let me = std::process::id() as i32;
        let own = std::fs::read_to_string(format!("/proc/{me}/status")).unwrap();
        assert_eq!(Some(swapped(me)), vm_swap(&own).or(Some(0)));
        // A shell and two children, asleep and stopped: their resident memory stays put. Each
        // said to have 1 MiB swapped out, counted for the three where a cap lies between their
        // resident memory and their address spaces (3 MiB or so each, a quarter resident); not
        // read past them (the address spaces could not hold more) nor under the resident memory
        // (over already).
        let mut shell = std::process::Command::new("sh").args(["-c", "sleep 60 & sleep 60 & wait"]).spawn().unwrap();
        let pid = shell.id() as i32;
        let asleep = || {
            let all = tree(pid);
            let name = |p: &i32| std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
            all.len() == 3 && all.iter().filter(|p| name(p).trim() == "sleep").count() == 2
        };
        let start = std::time::Instant::now();
        while !asleep() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let stop = |signal| {
            for p in tree(pid) {
                // SAFETY: kill has no memory preconditions; these are this test's processes.
                unsafe { libc::kill(p, signal) };
            }
        };
        stop(libc::SIGSTOP);
        let resident = usage(pid, None).rss;
        let mib = |_| 1 << 20;
        let within = usage_with(pid, Some(resident + (256 << 10)), mib);
        let (past, under, uncounted) = (
            usage_with(pid, Some(u64::MAX), mib),
            usage_with(pid, Some(resident / 2), mib),
            usage_with(pid, None, mib),
        );
        stop(libc::SIGKILL);
        let _ = shell.wait();
        assert_eq!((within.swap, within.memory()), (3 << 20, within.rss + (3 << 20)), "{within:?}");
        assert_eq!((past.swap, under.swap, uncounted.swap), (0, 0, 0));
    }
}
