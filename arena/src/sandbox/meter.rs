//! The kernel's per-process accounting, for boxes without cgroups: the CPU time and memory
//! (resident, swapped out, the page tables that map it, and the kernel's record of each of its
//! mappings) of a process and all its descendants, read from /proc.

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

/// How many of the fields after the command name in /proc/<pid>/stat are read: up to
/// `sigignore` ([`SIGIGNORE`]).
const STAT_FIELDS: usize = 31;

/// The index of `sigignore` among the fields after the name: the signals the process ignores, a
/// mask of the first 31 (signal `n` its bit `n - 1`).
const SIGIGNORE: usize = 30;

/// `sigignore`'s bit of `SIGCHLD`.
const SIGCHLD_BIT: u64 = 1 << (libc::SIGCHLD - 1);

/// The first [`STAT_FIELDS`] fields after the command name in /proc/<pid>/stat (the name may
/// hold spaces). A field that is not a number (the state letter, a negative one) reads as 0.
/// Parsed byte by byte: the monitor reads a stat file per process 40 times a second, and the
/// string splitting and parsing it replaced was most of the arena's CPU in a debug build with
/// 60 processes in a box (`flood-stderr 60` in the zoo, as a user without cgroups).
fn stat_fields(pid: i32) -> Option<[u64; STAT_FIELDS]> {
    let text = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    let after_name = text.iter().rposition(|&b| b == b')')? + 1;
    let mut fields = [0; STAT_FIELDS];
    let mut found = 0;
    for_each_number(text.get(after_name..)?, |value| {
        if let Some(slot) = fields.get_mut(found) {
            *slot = value.unwrap_or(0);
        }
        found += 1;
        found < STAT_FIELDS
    });
    Some(fields)
}

/// Calls `each` with every whitespace-separated word of `text`, as a number (saturating), or
/// `None` for a word with anything but digits, while `each` returns true.
fn for_each_number(text: &[u8], mut each: impl FnMut(Option<u64>) -> bool) {
    let mut word: Option<Option<u64>> = None;
    for &b in text {
        if b.is_ascii_whitespace() {
            if let Some(value) = word.take() {
                if !each(value) {
                    return;
                }
            }
        } else {
            let digit = b.is_ascii_digit().then(|| u64::from(b - b'0'));
            let before = word.unwrap_or(Some(0));
            word = Some(before.zip(digit).map(|(v, d)| v.saturating_mul(10).saturating_add(d)));
        }
    }
    if let Some(value) = word {
        each(value);
    }
}

/// The CPU time the scheduler counts for `pid`'s first thread, in nanoseconds, where it can be
/// read (see [`super::schedstat`]).
fn scheduled_nanos(pid: i32) -> Option<u64> {
    super::schedstat(&format!("/proc/{pid}/schedstat")).map(|(ran, _)| ran)
}

/// The children of `pid`'s threads, appended to `out`. A process of one thread (`threads`, from
/// its stat) has them in one file, without a listing of /proc/<pid>/task.
fn children(pid: i32, threads: u64, out: &mut Vec<i32>) {
    let mut add = |file: &Path| {
        let text = std::fs::read(file).unwrap_or_default();
        for_each_number(&text, |pid| {
            out.extend(pid.and_then(|p| i32::try_from(p).ok()));
            true
        });
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

/// A thread of `pid` other than its first whose `/proc/TID/stat` shows the process's memory
/// (its first thread having ended), with those fields: one that is itself ending, whose memory
/// is already gone (vsize 0), or cannot be read is passed over for the next.
fn live_thread(pid: i32) -> Option<(i32, [u64; STAT_FIELDS])> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    tasks.flatten().find_map(|t| {
        let tid: i32 = t.file_name().to_str()?.parse().ok().filter(|&tid| tid != pid)?;
        stat_fields(tid).filter(|f| f.get(20).is_some_and(|&vsize| vsize > 0)).map(|f| (tid, f))
    })
}

/// How many threads `pid` has (its stat's `num_threads`; `None` for a process gone): what the
/// kernel's `RLIMIT_NPROC` counts of it.
pub(super) fn threads(pid: i32) -> Option<u64> {
    stat_fields(pid).and_then(|f| f.get(17).copied())
}

/// The first process of `pids` (a tree's, from its root down: see [`Walk::pids`]) whose
/// descriptors the arena may not read, with its name (`None` where it may read every one's): its
/// `/proc/PID/fd` (or, its first thread having ended, a live thread's) is refused (`denied`, of
/// the process's pid and that thread's id: the pid again for the process's own) while it has
/// memory. An arena that is root reads every process's; one that is not may not read those of a
/// process of its own user that is not dumpable: one that runs a binary it may not read
/// (`chmod 111`). A process gone, ending (its memory gone) or a zombie, whose descriptors the
/// kernel shows as root's, is passed over.
///
/// `denied` is what the look's walk of the descriptors found ([`super::sockets::Descriptors`]
/// records each table it was refused), or [`fd_denied`] where the look walked none: no table is
/// opened twice in one look.
pub(super) fn unseen_of(pids: &[i32], denied: impl Fn(i32, i32) -> bool) -> Option<(i32, String)> {
    // (Read after the refusal: a process's memory, once gone, never comes back.)
    let has_memory = |pid: i32| stat_fields(pid).is_some_and(|f| f.get(20).is_some_and(|&vsize| vsize > 0));
    pids.iter().find_map(|&pid| {
        let hidden = denied(pid, pid)
            && (has_memory(pid) || live_thread(pid).is_some_and(|(tid, _)| denied(pid, tid) && has_memory(tid)));
        hidden.then(|| {
            let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            (pid, name.trim_end().to_owned())
        })
    })
}

/// Whether the arena is refused the descriptor table of thread `tid` of process `pid`
/// (`/proc/PID/fd` where `tid` is `pid`, `/proc/PID/task/TID/fd` otherwise): `EACCES` or
/// `EPERM`.
pub(super) fn fd_denied(pid: i32, tid: i32) -> bool {
    let dir = format!("{}/fd", task_dir(pid, tid));
    std::fs::File::open(dir).is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied)
}

/// The /proc folder of thread `tid` of process `pid`: `/proc/PID` where `tid` is `pid` (the
/// process's own), `/proc/PID/task/TID` otherwise.
pub(super) fn task_dir(pid: i32, tid: i32) -> String {
    match pid == tid {
        true => format!("/proc/{pid}"),
        false => format!("/proc/{pid}/task/{tid}"),
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
    /// The page tables of the tree's address spaces, in bytes, where they were counted (see
    /// [`usage`]); 0 otherwise.
    pub page_tables: u64,
    /// What the kernel's records of the tree's mappings hold ([`MAPPING`] bytes each), where they
    /// were counted (see [`usage`]); 0 otherwise.
    pub mappings: u64,
}

impl Usage {
    /// The memory the tree holds: resident, swapped out, page tables and mappings, where those
    /// were counted.
    pub fn memory(&self) -> u64 {
        self.rss.saturating_add(self.swap).saturating_add(self.page_tables).saturating_add(self.mappings)
    }
}

/// What of a box's memory no process's resident set shows, which [`usage`] counts past `cap`
/// (the box's memory limit): its page tables always, and its swap when `swap` (a machine with
/// swap); its mappings' records from at most `maps` bytes of its processes' maps (see
/// [`MAPS_BUDGET`]: a bot's look; a build's reads them whole, and a build whose look takes more
/// than 2 s is stopped for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hidden {
    pub cap: u64,
    pub swap: bool,
    pub maps: u64,
}

/// The most page tables an address space of `bytes` can need, as a multiple of it: a page
/// mapped alone needs a table of its own at each of two levels (8 KiB for its 4 KiB: a bot held
/// 1,472 MiB of page tables in a box of 64 MiB, one page read per GiB of its address spaces,
/// its resident memory near 0), and the levels above are few.
const PAGE_TABLES_PER_BYTE: u64 = 3;

/// What the kernel holds for each mapping of a process, in bytes: its `vm_area_struct` (192 bytes
/// in this kernel's slabinfo) and its share of the maple tree's nodes that index them. A mapping
/// of one page, never touched, has no resident page nor page table to show: a red team's 40
/// processes of 14,000 such mappings each (alternating protections, so none merge) held 129 MiB
/// of slab under a `build_memory_mb` of 64, and the build built. Measured here, 50,000 such
/// mappings took 11,964 kB of unreclaimable slab (245 bytes each), rounded up.
pub(super) const MAPPING: u64 = 256;

/// What one process's status says of its hidden memory: swapped out, and page tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct StatusMemory {
    swap: u64,
    page_tables: u64,
}

/// CPU time and memory of `root`'s tree in one walk: each process's stat gives its times, its
/// resident pages and its thread count (which spares a single-threaded one the listing of its
/// threads). The monitor looks at a box without a cgroup 40 times a second; a walk for each,
/// with a listing, its children and stat and statm files for each of its 64 processes, cost
/// the arena 0.05 to 0.1 s of CPU a second (`flood-stderr 60` in the zoo).
///
/// With `hidden`, what no resident set shows counts too (from each process's status): its page
/// tables (`VmPTE`), and the pages swapped out (`VmSwap`) where `hidden.swap`; but only where the
/// tree's resident memory is within the cap and could exceed it with what its address spaces
/// (`vsize` in stat) could hide: swapped pages are within them, page tables within
/// [`PAGE_TABLES_PER_BYTE`] times them. Below that nothing hidden can take the tree past the
/// cap, while reading every status file too makes a look of 64 processes about 2.5 times as
/// costly (17 us a process, against 7 for the stat alone).
///
/// Where those are read, each mapping of each process counts [`MAPPING`] bytes too (the lines of
/// its /proc/PID/maps; nothing else says how many a process has), where what was found with what
/// its mappings could hold (a page each at least: `vsize` / 4096 of them) could take the tree
/// past the cap. A maps file costs about 1 us a line to read (a few hundred for a compiler's
/// process, 14,000 for a red team's, 50 ms for 50,000); a build of honest compilers well under
/// its cap reads none.
#[cfg(test)]
fn usage(root: i32, hidden: Option<Hidden>) -> Usage {
    walk(root).usage(hidden)
}

/// One process of a [`Walk`]: its pid, the pid of the thread whose stat shows its memory (its
/// own, or a live thread's where its first thread has ended), and what that stat says.
#[derive(Debug, Clone, Copy)]
struct Walked {
    pid: i32,
    shown: i32,
    /// Its CPU time and its reaped children's, in nanoseconds.
    nanos: u64,
    /// Its resident set, in bytes.
    resident: u64,
    /// Its address space (`vsize`), in bytes.
    address_space: u64,
    /// It ignores `SIGCHLD` (`SIG_IGN`): the kernel reaps its children itself, and their CPU time
    /// is added to no one's (see [`Walk::ignoring_sigchld`]).
    ignores_sigchld: bool,
}

/// `root`'s tree from one walk of /proc: each process's stat gives its times, its resident pages
/// and its thread count (which spares a single-threaded one the listing of its threads), and its
/// children are read. A look walks the tree once, and what it reads of the processes beside
/// (their descriptors, see `sockets::Descriptors`; whether any may not be read, [`unseen_of`];
/// their memory, [`Walk::usage`]) is read of its pids ([`Walk::pids`]).
#[derive(Debug, Default)]
pub(super) struct Walk {
    processes: Vec<Walked>,
}

/// Walks `root`'s tree (see [`Walk`]).
pub(super) fn walk(root: i32) -> Walk {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    let mut processes = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        let Some(f) = stat_fields(pid) else { continue };
        // After the name: state(0) ppid … utime(11) stime(12) cutime(13) cstime(14) …
        // num_threads(17) … vsize(20) rss(21).
        let ticks = f.get(11..15).map_or(0, |t| t.iter().sum::<u64>());
        let mut nanos = ticks.saturating_mul(1_000_000_000) / ticks_per_second();
        let threads = f.get(17).copied().unwrap_or(0);
        // A zombie (no memory, no thread but its first): its stat's times are each rounded down
        // to a clock tick (up to 20 ms of a short-lived child lost), and it is counted here until
        // its parent waits for it, which a bot whose CPU is summed must do (it may not ignore
        // `SIGCHLD`, see `syscalls::reaping_lock`): its first thread's exact time counts, where
        // more. (Without it, a bot keeping 60 children of 20 ms each as zombies was charged half
        // of their time.)
        if f.get(20) == Some(&0) && threads <= 1 {
            nanos = nanos.max(scheduled_nanos(pid).unwrap_or(0));
        }
        // A process whose first thread has ended (`pthread_exit`, or the `exit` system call)
        // shows a zombie of no memory (vsize and rss 0, nor any in its status) while its other
        // threads hold it: a red team's plain bot held 768 MiB so under a limit of 64. Those of
        // a live thread of it are the process's.
        let (shown, m) = match f.get(20).copied().unwrap_or(0) == 0 && threads > 1 {
            true => live_thread(pid).unwrap_or((pid, f)),
            false => (pid, f),
        };
        let resident = m.get(21).copied().unwrap_or(0).saturating_mul(page);
        let address_space = m.get(20).copied().unwrap_or(0);
        let ignores_sigchld = f.get(SIGIGNORE).is_some_and(|&mask| mask & SIGCHLD_BIT != 0);
        processes.push(Walked { pid, shown, nanos, resident, address_space, ignores_sigchld });
        children(pid, threads, &mut todo);
    }
    Walk { processes }
}

impl Walk {
    /// The pids of the tree's processes, from its root down (those whose stat could be read).
    pub(super) fn pids(&self) -> Vec<i32> {
        self.processes.iter().map(|p| p.pid).collect()
    }

    /// A process of the tree that ignores `SIGCHLD`, if any: the kernel reaps its children
    /// itself, and the CPU time of a child so reaped is added to no process's (`cutime`), so a
    /// sum of the tree's times never counts it. (Read from the stat the walk read already. A
    /// process that asks for the same with `SA_NOCLDWAIT` alone, its handler kept, shows
    /// nothing there.)
    pub(super) fn ignoring_sigchld(&self) -> Option<i32> {
        self.processes.iter().find(|p| p.ignores_sigchld).map(|p| p.pid)
    }

    /// What the tree uses: see [`usage`].
    pub(super) fn usage(&self, hidden: Option<Hidden>) -> Usage {
        usage_with(self, hidden, status_memory, mapping_count, |_, rss| rss)
    }

    /// [`Walk::usage`], with each process's resident memory its proportional share of it (its
    /// PSS, from `/proc/PID/smaps_rollup`): a page that `n` processes map counts `1/n` for each,
    /// so a page shared copy-on-write by a process and its forked children counts once for them
    /// all, where [`Walk::usage`] counts it for each. A process whose share cannot be read (gone,
    /// or not the arena's to read) counts its whole resident set. `rss` in the result is that sum.
    ///
    /// Reading a process's smaps_rollup walks its every mapping (tens of microseconds, more for a
    /// large one): for a build's look when its resident sets together pass its cap, not for every
    /// look.
    pub(super) fn proportional_usage(&self, hidden: Option<Hidden>) -> Usage {
        usage_with(self, hidden, status_memory, mapping_count, |pid, rss| proportional_set(pid).unwrap_or(rss))
    }
}

/// [`Walk::proportional_usage`] of `root`'s tree.
#[cfg(test)]
fn proportional_usage(root: i32, hidden: Option<Hidden>) -> Usage {
    walk(root).proportional_usage(hidden)
}

/// The `Pss:` of `pid`'s smaps_rollup, in bytes (`None` where it cannot be read).
fn proportional_set(pid: i32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    status_bytes(&text, "Pss:")
}

/// [`usage`] of the tree `walk` found, with `status` reading a process's hidden memory,
/// `mappings` its number of mappings, and `resident` its resident memory in bytes from its pid
/// (or the thread showing its memory) and its resident set's size.
fn usage_with(
    walk: &Walk,
    hidden: Option<Hidden>,
    status: impl Fn(i32) -> StatusMemory,
    mut mappings: impl FnMut(i32, &mut u64) -> u64,
    resident: impl Fn(i32, u64) -> u64,
) -> Usage {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    let (mut nanos, mut rss, mut address_space) = (0u64, 0u64, 0u64);
    for p in &walk.processes {
        nanos = nanos.saturating_add(p.nanos);
        rss = rss.saturating_add(resident(p.shown, p.resident));
        address_space = address_space.saturating_add(p.address_space);
    }
    let cpu = Duration::from_nanos(nanos);
    let nothing_hidden = Usage { cpu, rss, swap: 0, page_tables: 0, mappings: 0 };
    let Some(Hidden { cap, swap, maps }) = hidden else { return nothing_hidden };
    // Page tables, swap and mappings together: a mapping's record (MAPPING) is within the page
    // it maps at least, well within the PAGE_TABLES_PER_BYTE spared for it.
    let could_hide = address_space.saturating_mul(PAGE_TABLES_PER_BYTE + u64::from(swap));
    if rss > cap || rss.saturating_add(could_hide) <= cap {
        return nothing_hidden;
    }
    let walked = || walk.processes.iter().map(|p| p.shown);
    let found = walked().map(&status).fold(StatusMemory::default(), |all, one| StatusMemory {
        swap: all.swap.saturating_add(one.swap),
        page_tables: all.page_tables.saturating_add(one.page_tables),
    });
    let (swap, page_tables) = (if swap { found.swap } else { 0 }, found.page_tables);
    let could_map = (address_space / page).saturating_mul(MAPPING);
    let mappings = match rss.saturating_add(swap).saturating_add(page_tables).saturating_add(could_map) > cap {
        true => {
            let mut budget = maps;
            walked().map(|pid| mappings(pid, &mut budget)).sum::<u64>().saturating_mul(MAPPING)
        }
        false => 0,
    };
    Usage { cpu, rss, swap, page_tables, mappings }
}

/// Bytes of its processes' maps one look at a bot reads at most, all together (a build's reads
/// them whole, see [`Hidden`]): a line of a map names the
/// file mapped, which may be 50 KiB deep, and a red team's bot had a look read 300 MB of such
/// lines (16 to 20 s of the arena's CPU, see `referee::monitor`). Some 40,000 mappings of short
/// lines; a process not read to its end counts as many as a process may have (`vm.max_map_count`),
/// which no bot needs. Unbounded where [`LOOKS_OFF_SWITCH`](super::LOOKS_OFF_SWITCH) is set.
const MAPS_BUDGET: u64 = 4 << 20;

/// What one look may still read of maps (see [`MAPS_BUDGET`]).
pub(super) fn maps_budget() -> u64 {
    match super::looks_off() {
        true => u64::MAX,
        false => MAPS_BUDGET,
    }
}

/// How many mappings `pid` has: the lines of its /proc/PID/maps (0 for a process gone), read in
/// pieces (a process may have 65,530 of them, some 5 MiB of text), the bytes read taken from
/// `budget`; where it runs out first, as many as a process may have ([`max_map_count`]).
fn mapping_count(pid: i32, budget: &mut u64) -> u64 {
    use std::io::Read;
    if *budget == 0 {
        return max_map_count();
    }
    let Ok(mut maps) = std::fs::File::open(format!("/proc/{pid}/maps")) else { return 0 };
    let mut piece = [0u8; 64 << 10];
    let mut lines = 0u64;
    while let Ok(read @ 1..) = maps.read(&mut piece) {
        lines += piece.get(..read).map_or(0, |p| p.iter().filter(|&&b| b == b'\n').count() as u64);
        *budget = budget.saturating_sub(read as u64);
        if *budget == 0 {
            return lines.max(max_map_count());
        }
    }
    lines
}

/// The most mappings a process may have (`vm.max_map_count`, read once; the kernel's default,
/// 65,530, where it cannot be read).
fn max_map_count() -> u64 {
    static COUNT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/sys/vm/max_map_count").unwrap_or_default();
        text.trim().parse().unwrap_or(65_530)
    })
}

/// What `pid`'s status says of its hidden memory (nothing for a process gone).
fn status_memory(pid: i32) -> StatusMemory {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    StatusMemory {
        swap: status_bytes(&text, "VmSwap:").unwrap_or(0),
        page_tables: status_bytes(&text, "VmPTE:").unwrap_or(0),
    }
}

/// A field in kB of a /proc/PID/status text (`VmSwap:`, `VmPTE:`), in bytes (`None` without
/// one: a kernel thread's).
fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let line = status.as_bytes().split(|&b| b == b'\n').find_map(|l| l.strip_prefix(field.as_bytes()))?;
    let mut kb = None;
    for_each_number(line, |first| {
        kb = first;
        false
    });
    Some(kb?.saturating_mul(1024))
}

/// CPU time (user + system) of `root`'s tree: the live processes' own, plus what their
/// reaped children used.
#[cfg(test)]
fn tree_cpu(root: i32) -> Duration {
    usage(root, None).cpu
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
        assert!(usage(std::process::id() as i32, None).memory() > 0);
    }

    /// A process that ignores `SIGCHLD` is found by the walk, from the stat it reads anyway; the
    /// control: the same process with `SIGCHLD` at its default is not.
    #[test]
    fn a_process_ignoring_sigchld_is_seen() {
        use std::os::unix::process::CommandExt;
        let spawn = |ignore: bool| {
            let mut command = std::process::Command::new("sleep");
            command.arg("30");
            // SAFETY: signal is async-signal-safe, called in the child before exec (an ignored
            // signal stays ignored across exec).
            unsafe {
                command.pre_exec(move || {
                    if ignore {
                        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
                    }
                    Ok(())
                });
            }
            command.spawn().unwrap()
        };
        for ignore in [true, false] {
            let mut child = spawn(ignore);
            let pid = child.id() as i32;
            // (Until it has run `sleep`: before its exec, the stat is the test's own copy.)
            let start = std::time::Instant::now();
            while std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() != "sleep")
                && start.elapsed() < Duration::from_secs(30)
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            let seen = walk(pid).ignoring_sigchld();
            child.kill().unwrap();
            child.wait().unwrap();
            assert_eq!(seen, ignore.then_some(pid), "ignoring: {ignore}");
        }
    }

    /// A child its parent has not waited for (a zombie) counts its exact time: its stat's times,
    /// each rounded down to a clock tick, show at most 10 ms of a child that thought 15 ms (the
    /// control).
    #[test]
    fn a_zombie_counts_its_exact_time() {
        let spin = Duration::from_millis(15);
        // SAFETY: the children make raw, async-signal-safe calls only: fork, clock_gettime, _exit
        // and pause.
        let root = unsafe { libc::fork() };
        if root == 0 {
            unsafe {
                if libc::fork() == 0 {
                    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                    while Duration::new(t.tv_sec as u64, t.tv_nsec as u32) < spin {
                        libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t);
                    }
                    libc::_exit(0);
                }
                loop {
                    libc::pause();
                }
            }
        }
        assert!(root > 0);
        let zombie = || {
            let text = std::fs::read_to_string(format!("/proc/{root}/task/{root}/children")).unwrap_or_default();
            let child: i32 = text.split_whitespace().next()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z')).then_some(child)
        };
        let start = std::time::Instant::now();
        let mut child = zombie();
        while child.is_none() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
            child = zombie();
        }
        let counted = usage(root, None).cpu;
        let stat_only =
            child.and_then(stat_fields).map(|f| f[11..15].iter().sum::<u64>() * 1_000_000_000 / ticks_per_second());
        // SAFETY: ends and reaps this test's own child.
        unsafe {
            libc::kill(root, libc::SIGKILL);
            libc::waitpid(root, std::ptr::null_mut(), 0);
        }
        assert!(child.is_some(), "the child became a zombie");
        assert!(counted >= spin, "counted {counted:?} of a child that thought {spin:?}");
        let stat_only = Duration::from_nanos(stat_only.unwrap_or(u64::MAX));
        assert!(stat_only <= Duration::from_millis(10), "the control: its stat shows {stat_only:?}");
    }

    #[test]
    fn one_walk_counts_what_the_two_did() {
        // This test process has several threads and children of its own: its whole tree, walked
        // once for both, as the statm files and the listings of every thread say.
        let mut kids: Vec<_> = (0..3).map(|_| std::process::Command::new("sleep").arg("5").spawn().unwrap()).collect();
        let me = std::process::id() as i32;
        // (Other tests of this process start children of their own meanwhile: compared where the
        // tree stood still from before the walk to after it.)
        let (mut listed, mut walked) = (Vec::new(), Vec::new());
        // (The walk's order is the tree's, from its root down.)
        for _ in 0..50 {
            listed = tree(me);
            walked = walk(me).pids();
            if tree(me) == listed {
                break;
            }
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

    /// A process whose descriptors the look was refused and that has memory is unseen, named;
    /// one gone is not, nor one whose descriptors were read (the control: this process, whose
    /// own the arena reads).
    #[test]
    fn a_process_is_unseen_where_its_descriptors_were_refused() {
        let me = std::process::id() as i32;
        let name = std::fs::read_to_string(format!("/proc/{me}/comm")).unwrap();
        let asked = std::cell::RefCell::new(Vec::new());
        let refused = |pid, tid| {
            asked.borrow_mut().push((pid, tid));
            true
        };
        assert_eq!(unseen_of(&[i32::MAX, me], refused), Some((me, name.trim_end().to_owned())));
        assert_eq!(asked.borrow()[..], [(i32::MAX, i32::MAX), (me, me)], "the process's own table, of each");
        assert_eq!(unseen_of(&[i32::MAX], |_, _| true), None, "a process gone has no memory");
        assert!(!fd_denied(me, me) && !fd_denied(i32::MAX, i32::MAX), "its own, and one gone, are not refused");
        assert_eq!(unseen_of(&[me], fd_denied), None, "the control: read");
    }

    #[test]
    fn proportional_memory_counts_shared_pages_once() {
        // Three processes of one program share its pages (and the C library's): their
        // proportional sets together are below their resident sets together, and above none.
        let mut shell = std::process::Command::new("sh").args(["-c", "sleep 60 & sleep 60 & wait"]).spawn().unwrap();
        let pid = shell.id() as i32;
        let start = std::time::Instant::now();
        // (Each `sleep` counted once it runs: a child still the shell's copy, between its fork
        // and its exec, has another resident set, and the two readings below differed by it.)
        let sleeping = |p: &i32| std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "sleep");
        while tree(pid).iter().filter(|p| sleeping(p)).count() < 2 && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let (resident, proportional) = (usage(pid, None).rss, proportional_usage(pid, None).rss);
        // A process whose share cannot be read counts its whole resident set.
        let unread = usage_with(&walk(pid), None, status_memory, mapping_count, |_, rss| {
            proportional_set(i32::MAX).unwrap_or(rss)
        })
        .rss;
        for p in tree(pid) {
            // SAFETY: kill has no memory preconditions; these are this test's processes.
            unsafe { libc::kill(p, libc::SIGKILL) };
        }
        let _ = shell.wait();
        assert!(proportional > 0 && proportional < resident, "{proportional} of {resident}");
        assert_eq!(proportional_set(i32::MAX), None, "a process gone");
        assert!(unread.abs_diff(resident) < resident / 4, "{unread} against {resident}");
    }

    #[test]
    fn words_are_numbers_or_not() {
        let words = |text: &str, upto: usize| {
            let mut all = Vec::new();
            for_each_number(text.as_bytes(), |n| {
                all.push(n);
                all.len() < upto
            });
            all
        };
        let stat = " S 1 -1 0\t99999999999999999999999 12\n";
        assert_eq!(words(stat, 9), [None, Some(1), None, Some(0), Some(u64::MAX), Some(12)]);
        assert_eq!(words(stat, 2), [None, Some(1)], "stops when told");
        assert_eq!(words("  \n", 9), [], "no words");
        assert_eq!(words("7", 9), [Some(7)], "a last word without a newline");
        // This process's own stat, whose name is this test's thread's and may hold spaces: its
        // thread count (field 17) matches its listing of tasks.
        let me = std::process::id() as i32;
        let threads = std::fs::read_dir(format!("/proc/{me}/task")).unwrap().count() as u64;
        let fields = stat_fields(me).unwrap();
        assert!(fields[17] >= 1 && fields[17].abs_diff(threads) <= 2, "{fields:?} against {threads} threads");
        assert_eq!(fields[1], u64::from(std::os::unix::process::parent_id()), "{fields:?}");
    }

    #[test]
    fn hidden_memory_counts_where_the_address_spaces_could_hide_more_than_the_cap() {
        let status = "Name:\tbot\nVmRSS:\t    1200 kB\nVmPTE:\t      96 kB\nVmSwap:\t    2048 kB\n";
        assert_eq!((status_bytes(status, "VmSwap:"), status_bytes(status, "VmPTE:")), (Some(2 << 20), Some(96 << 10)));
        assert_eq!(status_bytes("Name:\tkthreadd\nThreads:\t1\n", "VmSwap:"), None, "a kernel thread has no memory");
        assert_eq!(status_memory(i32::MAX), StatusMemory::default(), "a process gone holds nothing");
        let me = std::process::id() as i32;
        let own = std::fs::read_to_string(format!("/proc/{me}/status")).unwrap();
        assert!(status_bytes(&own, "VmPTE:").is_some_and(|b| b > 0), "this process has page tables: {own}");
        // A shell and two children, asleep and stopped: their resident memory stays put. Each
        // said to have 1 MiB swapped out and 64 KiB of page tables, counted for the three where a
        // cap lies between their resident memory and what their address spaces (3 MiB or so
        // each, a quarter resident) could hide; the swap only where it is counted; nothing read
        // past that (nothing hidden could reach the cap) nor under the resident memory (over
        // already).
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
        let address_space: u64 = tree(pid).iter().filter_map(|&p| stat_fields(p)).map(|f| f[20]).sum();
        // Each said to have 100 mappings too: counted where they could take the three past the
        // cap with the rest (a page each at most: their address spaces / 16), not above that.
        let said = |_| StatusMemory { swap: 1 << 20, page_tables: 64 << 10 };
        let at = |cap: u64, swap: bool| {
            usage_with(&walk(pid), Some(Hidden { cap, swap, maps: u64::MAX }), said, |_, _| 100, |_, rss| rss)
        };
        let (within, no_swap) = (at(resident + (256 << 10), true), at(resident + (256 << 10), false));
        let unmapped = at(resident + (3 << 20) + (192 << 10) + address_space / 16 + 1, true);
        let (past, under, uncounted) =
            (at(u64::MAX, true), at(resident / 2, true), usage_with(&walk(pid), None, said, |_, _| 100, |_, rss| rss));
        let own_maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default().lines().count();
        let own = mapping_count(pid, &mut { u64::MAX });
        // Past the budget, a process counts as many as it may have.
        let cut = mapping_count(pid, &mut 10);
        let spent = mapping_count(pid, &mut 0);
        stop(libc::SIGKILL);
        let _ = shell.wait();
        assert_eq!(
            (within.swap, within.page_tables, within.mappings),
            (3 << 20, 192 << 10, 300 * MAPPING),
            "{within:?}"
        );
        assert_eq!(within.memory(), within.rss + (3 << 20) + (192 << 10) + 300 * MAPPING);
        assert_eq!((no_swap.swap, no_swap.page_tables, no_swap.mappings), (0, 192 << 10, 300 * MAPPING), "{no_swap:?}");
        assert!(address_space > 0, "a sleeping shell has an address space");
        assert_eq!((unmapped.page_tables, unmapped.mappings), (192 << 10, 0), "{unmapped:?}");
        for nothing in [past, under, uncounted] {
            assert_eq!((nothing.swap, nothing.page_tables, nothing.mappings), (0, 0, 0), "{nothing:?}");
        }
        assert!(own > 5 && own as usize == own_maps, "the shell's maps: {own} lines, {own_maps} read whole");
        assert_eq!(mapping_count(i32::MAX, &mut { u64::MAX }), 0, "a process gone maps nothing");
        assert_eq!((cut, spent), (max_map_count(), max_map_count()), "a look's budget spent");
        assert!(max_map_count() > own, "the control: read whole, the shell's maps are fewer");
    }
}
