//! The kernel's per-process accounting, for boxes without cgroups: the CPU time and resident
//! memory of a process and all its descendants, read from /proc.

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

/// `root` and every process below it.
pub(super) fn tree(root: i32) -> Vec<i32> {
    let mut all = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        all.push(pid);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
        for task in tasks.flatten() {
            let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            todo.extend(children.split_whitespace().filter_map(|c| c.parse::<i32>().ok()));
        }
    }
    all
}

/// CPU time (user + system) of `root`'s tree: the live processes' own, plus what their
/// reaped children used.
pub(super) fn tree_cpu(root: i32) -> Duration {
    let ticks: u64 = tree(root)
        .into_iter()
        .filter_map(stat_fields)
        // After the name: state(0) ppid … utime(11) stime(12) cutime(13) cstime(14).
        .map(|f| f.get(11..15).map_or(0, |t| t.iter().sum::<u64>()))
        .sum();
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / ticks_per_second())
}

/// Resident memory of `root`'s tree, in bytes.
pub(super) fn tree_rss(root: i32) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    tree(root)
        .into_iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/statm")).ok())
        .filter_map(|t| t.split_whitespace().nth(1).and_then(|r| r.parse::<u64>().ok()))
        .map(|pages| pages * page)
        .sum()
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
        let mut child = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        std::thread::sleep(Duration::from_millis(150));
        let during = tree_cpu(pid);
        child.wait().unwrap();
        assert!(during > Duration::ZERO, "the child's own time shows while it runs");
        assert!(tree_rss(std::process::id() as i32) > 0);
    }
}
