//! Per-box cgroups: a memory limit for the whole box (`memory`), the box's CPU time
//! (`cpuacct`, or `cpu.stat` on v2), for bots a CPU quota (`cpu`) and a cap on disk operations
//! (`blkio`, or `io` on v2), and for builds a process cap (`pids`).
//!
//! Works with cgroup v1 (one hierarchy per controller, as on this project's machines) and v2
//! (one hierarchy). Each box gets a directory `arena-<arena pid>-<n>-ns<arena's PID namespace>`
//! in every hierarchy it uses, under the arena's own cgroup (v1) or under `arena-boxes` at the
//! v2 root.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The controllers a box uses.
const WANTED: [&str; 6] = ["pids", "memory", "cpuacct", "cpu", "blkio", "io"];

/// The controllers that throttle a box's disk operations: v1's and v2's.
pub(super) const DISK: [&str; 2] = ["blkio", "io"];

/// The period of a box's CPU quota, in microseconds (the kernel's default).
const CPU_PERIOD_US: u64 = 100_000;

/// Where box cgroups are made: one parent directory per hierarchy, with its controllers.
#[derive(Debug, Clone)]
pub(super) struct Roots {
    parents: Vec<(PathBuf, Vec<&'static str>, bool)>,
    /// The CPUs the arena may use, read once: a quota over them is no cap.
    cpus: u64,
    /// The machine's disks (`major:minor`), read once: a box's disk operations are throttled on
    /// each.
    disks: Vec<String>,
}

/// One box's cgroup directories.
#[derive(Debug)]
pub(super) struct BoxGroup {
    dirs: Vec<(PathBuf, Vec<&'static str>, bool)>,
    /// Whether the kernel counts the box's swap in its memory limit (v1's `memsw`, v2's
    /// `swap.max`): where it does not, a box at its limit is swapped out and goes on.
    swap_limited: bool,
}

static SEQ: AtomicU64 = AtomicU64::new(0);

impl Roots {
    /// Finds the hierarchies this process may make cgroups in, if any.
    pub fn discover() -> Option<Roots> {
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let mut parents: Vec<(PathBuf, Vec<&'static str>, bool)> = Vec::new();
        let mut missing: Vec<&'static str> = WANTED.to_vec();
        // v1 first: a controller bound to a v1 hierarchy is not available on v2.
        for line in own.lines() {
            let mut parts = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else { continue };
            if controllers.is_empty() {
                continue;
            }
            let here: Vec<&'static str> =
                WANTED.iter().copied().filter(|w| controllers.split(',').any(|c| c == *w)).collect();
            if here.is_empty() {
                continue;
            }
            let Some(mount) = mount_point(&mounts, "cgroup", here[0]) else { continue };
            let dir = mount.join(path.trim_start_matches('/'));
            if usable(&dir) {
                missing.retain(|m| !here.contains(m));
                parents.push((dir, here, false));
            }
        }
        // On v2, every cgroup's cpu.stat counts its CPU time: "cpuacct" stands for that there.
        if !missing.is_empty() {
            if let Some((dir, here)) = v2_parent(&mounts, &missing) {
                parents.push((dir, here, true));
            }
        }
        // (`available_parallelism` reads the cgroup files again at every call: about 20 system
        // calls, 33 us, too many for every box.)
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        (!parents.is_empty()).then(|| Roots { parents, cpus, disks: disks() })
    }

    /// The controllers available.
    pub fn controllers(&self) -> Vec<&'static str> {
        self.parents.iter().flat_map(|(_, c, _)| c.iter().copied()).collect()
    }

    /// Makes a box's cgroups with its limits, in the hierarchies of `wanted` controllers only
    /// (each hierarchy costs a directory made, joined and removed per box).
    pub fn make(&self, limits: &super::SandboxLimits, wanted: &[&str]) -> std::io::Result<BoxGroup> {
        let n = SEQ.fetch_add(1, Ordering::SeqCst);
        let name = format!("arena-{}-{n}-ns{}", std::process::id(), pid_namespace());
        let mut group = BoxGroup { dirs: Vec::new(), swap_limited: false };
        match self.fill(&mut group, &name, limits, wanted) {
            Ok(()) => Ok(group),
            Err(e) => {
                // (No directory of a box that could not be made is left behind.)
                group.remove();
                Err(e)
            }
        }
    }

    fn fill(
        &self,
        group: &mut BoxGroup,
        name: &str,
        limits: &super::SandboxLimits,
        wanted: &[&str],
    ) -> std::io::Result<()> {
        for (parent, controllers, v2) in &self.parents {
            let controllers: Vec<&'static str> = controllers.iter().copied().filter(|c| wanted.contains(c)).collect();
            if controllers.is_empty() {
                continue;
            }
            let dir = parent.join(name);
            std::fs::create_dir(&dir)?;
            group.dirs.push((dir.clone(), controllers.clone(), *v2));
            let set = |file: &str, value: String| {
                std::fs::write(dir.join(file), value)
                    .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.join(file).display())))
            };
            for c in &controllers {
                match (*c, *v2) {
                    ("pids", _) => set("pids.max", limits.processes.to_string())?,
                    // Swap included, where the kernel counts it (otherwise a box over its limit is
                    // swapped out and goes on): v1's memory+swap limit at the same figure (set
                    // after the memory limit: it may not be below it), else no swapping by the
                    // box's own reclaim; v2's swap limit 0. Set before any process joins.
                    ("memory", false) => {
                        set("memory.limit_in_bytes", limits.memory_mb.saturating_mul(1 << 20).to_string())?;
                        if set("memory.memsw.limit_in_bytes", limits.memory_mb.saturating_mul(1 << 20).to_string())
                            .is_ok()
                        {
                            group.swap_limited = true;
                        } else {
                            let _ = set("memory.swappiness", "0".to_string());
                        }
                    }
                    ("memory", true) => {
                        set("memory.max", limits.memory_mb.saturating_mul(1 << 20).to_string())?;
                        group.swap_limited = set("memory.swap.max", "0".to_string()).is_ok();
                    }
                    ("cpu", _) => {
                        // More CPUs than the machine has is no cap; a quota the kernel refuses
                        // (over a parent's quota on v1, as in a container limited to half a
                        // CPU) leaves the box without one, said once, rather than without a box.
                        let quota = limits.cpus.min(self.cpus) * CPU_PERIOD_US;
                        let made = if *v2 {
                            set("cpu.max", format!("{quota} {CPU_PERIOD_US}"))
                        } else {
                            set("cpu.cfs_period_us", CPU_PERIOD_US.to_string())
                                .and_then(|()| set("cpu.cfs_quota_us", quota.to_string()))
                        };
                        if let Err(e) = made {
                            quota_refused(&e);
                        }
                    }
                    ("blkio" | "io", v2) if limits.disk_ops > 0 => self.throttle(&dir, v2, limits.disk_ops),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Caps the disk operations the box in `dir` starts, on each disk, at `ops` a second for reads
    /// and as many for writes. A disk the kernel refuses a cap on (one with no queue of its own)
    /// is passed over; where it refuses every one, the box goes on without a cap, said once.
    fn throttle(&self, dir: &Path, v2: bool, ops: u64) {
        let capped = self.disks.iter().filter(|disk| {
            let written = if v2 {
                std::fs::write(dir.join("io.max"), format!("{disk} riops={ops} wiops={ops}"))
            } else {
                std::fs::write(dir.join("blkio.throttle.read_iops_device"), format!("{disk} {ops}")).and_then(|()| {
                    std::fs::write(dir.join("blkio.throttle.write_iops_device"), format!("{disk} {ops}"))
                })
            };
            written.is_ok()
        });
        if capped.count() == 0 && !self.disks.is_empty() {
            static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !SAID.swap(true, Ordering::Relaxed) {
                tracing::warn!(
                    disks = ?self.disks,
                    "the kernel refused a box's cap on disk operations on every disk: a bot's disk reads are not \
                     throttled, and the interrupt of each is charged to whoever runs on the match's CPU"
                );
            }
        }
    }

    /// Ends what an arena that died (`kill -9`) left in its boxes' cgroups, and removes them.
    pub fn end_stale(&self) {
        let mine = pid_namespace();
        for (parent, _, v2) in &self.parents {
            let Ok(entries) = std::fs::read_dir(parent) else { continue };
            // (Listed before the namespaces are: a box listed was made by then, by an arena
            // whose namespace the list then shows if it lives.)
            let entries: Vec<std::fs::DirEntry> = entries.flatten().collect();
            let mut live = None;
            for entry in entries {
                let name = entry.file_name().to_string_lossy().into_owned();
                let stale = match owner_here(&name, mine) {
                    Some(pid) => !Path::new(&format!("/proc/{pid}")).exists(),
                    None => match box_namespace(&name) {
                        // From the machine's first PID namespace every process shows: a
                        // namespace none of them is in has ended, with its arena.
                        Some(ns) if mine == INITIAL_PID_NAMESPACE => {
                            live.get_or_insert_with(live_pid_namespaces).as_ref().is_some_and(|l| !l.contains(&ns))
                        }
                        _ => false,
                    },
                };
                if !stale {
                    continue; // a running arena's box, or one this arena cannot judge
                }
                tracing::info!(cgroup = %entry.path().display(), "ending a box left by an arena that died");
                BoxGroup { dirs: vec![(entry.path(), Vec::new(), *v2)], swap_limited: false }.remove();
            }
        }
    }
}

/// The inode of this process's PID namespace (0 where it cannot be read): a box's cgroup is
/// named with it, as its arena's pid means something only there.
fn pid_namespace() -> u64 {
    use std::os::unix::fs::MetadataExt;
    static NAMESPACE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *NAMESPACE.get_or_init(|| std::fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino()))
}

/// The inode of the machine's first PID namespace (the kernel's `PROC_PID_INIT_INO`).
const INITIAL_PID_NAMESPACE: u64 = 0xEFFF_FFFC;

/// The PID namespace named by the box's cgroup `name` (`arena-<pid>-<n>-ns<namespace>`).
fn box_namespace(name: &str) -> Option<u64> {
    name.strip_prefix("arena-")?.split('-').nth(2)?.strip_prefix("ns")?.parse().ok()
}

/// The PID namespaces some process of the machine is in (read by root in the first one), or
/// None where `/proc` cannot be listed, or a process's namespace not read (then no other
/// namespace's box is judged).
fn live_pid_namespaces() -> Option<std::collections::HashSet<u64>> {
    use std::os::unix::fs::MetadataExt;
    let entries = std::fs::read_dir("/proc").ok()?;
    let mut live = std::collections::HashSet::new();
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        match std::fs::metadata(entry.path().join("ns/pid")) {
            Ok(meta) => {
                live.insert(meta.ino());
            }
            // (A process that ended meanwhile.)
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            // One this arena may not see into (a container without `CAP_SYS_PTRACE`): in this
            // first namespace when its status names one pid (as this machine's init); else its
            // namespace may be any box's, so none is judged.
            Err(_) => {
                let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
                let pids = status.lines().find_map(|l| l.strip_prefix("NSpid:")).map(|p| p.split_whitespace().count());
                if pids != Some(1) {
                    return None;
                }
            }
        }
    }
    // (This process is in one: a /proc that shows none of them shows nothing.)
    live.contains(&pid_namespace()).then_some(live)
}

/// The pid of the arena that made the box's cgroup `name` (`arena-<pid>-<n>-ns<namespace>`),
/// where it is a pid of the PID namespace `mine`, or of an arena that named none (before
/// namespaces were named): an arena in a PID namespace of its own (a container's, `unshare
/// --pid`) found no process of the others' pids in its `/proc` and removed every box of every
/// other arena of the machine as stale (a test's arena as PID 1 ended a tournament's boxes
/// while it played, "could not join its box's cgroups").
fn owner_here(name: &str, mine: u64) -> Option<u32> {
    let mut parts = name.strip_prefix("arena-")?.split('-');
    let pid = parts.next()?.parse().ok()?;
    let namespace = parts.nth(1).and_then(|ns| ns.strip_prefix("ns")).map(str::parse::<u64>);
    match namespace {
        None => Some(pid),
        Some(Ok(ns)) if ns == mine => Some(pid),
        Some(_) => None,
    }
}

/// Says once per run that the kernel refused a box's CPU quota.
fn quota_refused(e: &std::io::Error) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            "the kernel refused a box's CPU quota ({e}): bots run without one, so a bot's busy \
             children can take its opponent's CPU while both think (lower --max-cpus, or run \
             the arena where its cgroup has no smaller quota)"
        );
    }
}

/// The mount point of the cgroup hierarchy of type `fstype` carrying `controller`.
fn mount_point(mountinfo: &str, fstype: &str, controller: &str) -> Option<PathBuf> {
    mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut right = right.split_whitespace();
        if right.next()? != fstype {
            return None;
        }
        let options = right.nth(1).unwrap_or("");
        let point = left.split_whitespace().nth(4)?;
        (fstype == "cgroup2" || options.split(',').any(|o| o == controller)).then(|| PathBuf::from(point))
    })
}

/// As root on cgroup v2: `arena-boxes` at the root, with those of `wanted` that exist
/// enabled for its children.
fn v2_parent(mountinfo: &str, wanted: &[&'static str]) -> Option<(PathBuf, Vec<&'static str>)> {
    let mount = mount_point(mountinfo, "cgroup2", "")?;
    let available = std::fs::read_to_string(mount.join("cgroup.controllers")).ok()?;
    // Controllers to enable for the boxes, each on its own: one the kernel refuses here (`cpu`
    // where a real-time process runs outside the root) takes no other with it. CPU time needs
    // none (cpu.stat is always there).
    let candidates: Vec<&'static str> =
        wanted.iter().copied().filter(|w| available.split_whitespace().any(|a| a == *w)).collect();
    if candidates.is_empty() && !wanted.contains(&"cpuacct") {
        return None;
    }
    let dir = mount.join("arena-boxes");
    let _ = std::fs::create_dir(&dir);
    let mut here: Vec<&'static str> = candidates
        .into_iter()
        .filter(|c| {
            let enable = format!("+{c}");
            std::fs::write(mount.join("cgroup.subtree_control"), &enable).is_ok()
                && std::fs::write(dir.join("cgroup.subtree_control"), &enable).is_ok()
        })
        .collect();
    if wanted.contains(&"cpuacct") {
        here.push("cpuacct");
    }
    usable(&dir).then_some((dir, here))
}

/// The machine's disks, as `major:minor` (`/sys/block/*/dev`, those with a size: an unused loop
/// device has none, and takes no cap). Read once, when the arena starts: a disk attached later
/// has no cap.
fn disks() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/sys/block") else { return Vec::new() };
    let mut disks: Vec<String> = entries
        .flatten()
        .filter(|e| std::fs::read_to_string(e.path().join("size")).is_ok_and(|s| s.trim() != "0"))
        .filter_map(|e| Some(std::fs::read_to_string(e.path().join("dev")).ok()?.trim().to_string()))
        .collect();
    disks.sort();
    disks
}

/// Whether a cgroup can be made under `dir`.
fn usable(dir: &Path) -> bool {
    let probe = dir.join(format!("arena-probe-{}", std::process::id()));
    let ok = std::fs::create_dir(&probe).is_ok();
    let _ = std::fs::remove_dir(&probe);
    ok
}

/// The first number after `key ` in a `key value` file.
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
}

impl BoxGroup {
    /// The `cgroup.procs` files a process joins to enter the box's cgroups.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|(d, _, _)| d.join("cgroup.procs")).collect()
    }

    /// Whether a hierarchy of the box counts its CPU time (`cpuacct`, or `cpu.stat` on v2): its
    /// processes' CPU is then the kernel's count, not the arena's sum of them (see
    /// [`BoxGroup::cpu_time`]).
    pub fn counts_cpu(&self) -> bool {
        self.dirs.iter().any(|(_, c, _)| c.contains(&"cpuacct"))
    }

    /// CPU time used by every process of the box so far, if a hierarchy counts it.
    pub fn cpu_time(&self) -> Option<Duration> {
        self.dirs.iter().find_map(|(dir, controllers, v2)| {
            if *v2 && controllers.contains(&"cpuacct") {
                let text = std::fs::read_to_string(dir.join("cpu.stat")).ok()?;
                keyed(&text, "usage_usec").map(Duration::from_micros)
            } else if controllers.contains(&"cpuacct") {
                let text = std::fs::read_to_string(dir.join("cpuacct.usage")).ok()?;
                text.trim().parse().ok().map(Duration::from_nanos)
            } else {
                None
            }
        })
    }

    /// Whether the box's memory limit refused its processes memory: the kernel's counts say
    /// its OOM killer killed one of them (`oom_kill`), or, on v2, that the limit was about to
    /// fail an allocation (`oom` in memory.events). Not `max` (v2) or `failcnt` (v1): those
    /// count reclaims at the limit, page cache included, which a bot that reads files meets
    /// while it plays on.
    pub fn out_of_memory(&self) -> bool {
        self.dirs.iter().any(|(dir, controllers, v2)| {
            if !controllers.contains(&"memory") {
                return false;
            }
            let file = if *v2 { "memory.events" } else { "memory.oom_control" };
            let Ok(text) = std::fs::read_to_string(dir.join(file)) else { return false };
            let counted = |key: &str| keyed(&text, key).is_some_and(|n| n > 0);
            counted("oom_kill") || (*v2 && counted("oom"))
        })
    }

    /// Whether the box has a memory limit of its own.
    pub fn limits_memory(&self) -> bool {
        self.dirs.iter().any(|(_, c, _)| c.contains(&"memory"))
    }

    /// Whether the box's memory limit holds all the memory it may take: its swap counted in it,
    /// or no swap on the machine to go to (`SwapTotal` 0). Otherwise a box at its limit is
    /// swapped out and goes on, as far as the machine's swap reaches.
    pub fn holds_memory(&self) -> bool {
        self.limits_memory() && (self.swap_limited || !machine_swaps())
    }

    /// Kills every process left in the box's cgroups.
    pub fn kill_all(&self) {
        for (dir, _, v2) in &self.dirs {
            if *v2 && std::fs::write(dir.join("cgroup.kill"), "1").is_ok() {
                continue;
            }
            for pid in pids(dir) {
                // SAFETY: kill has no memory preconditions.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }

    /// Kills what is left and removes the directories (blocking: waits for the processes to
    /// go, a few milliseconds). Call it off the referee's thread.
    pub fn remove(self) {
        for (dir, _, _) in &self.dirs {
            for _ in 0..400 {
                let left = pids(dir);
                if left.is_empty() {
                    break;
                }
                for pid in left {
                    // SAFETY: kill has no memory preconditions.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let mut removed = false;
            for _ in 0..400 {
                if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                    removed = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            if !removed {
                tracing::warn!(cgroup = %dir.display(), "could not remove a box's cgroup");
            }
        }
    }
}

fn pids(dir: &Path) -> Vec<i32> {
    std::fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether the machine has swap space (`SwapTotal` in /proc/meminfo; unreadable: assumed so).
pub(super) fn machine_swaps() -> bool {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    swap_total(&meminfo).is_none_or(|kb| kb > 0)
}

/// `SwapTotal` of a /proc/meminfo text, in kB.
fn swap_total(meminfo: &str) -> Option<u64> {
    meminfo.lines().find_map(|l| l.strip_prefix("SwapTotal:")).and_then(|v| v.split_whitespace().next()?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arena judges as stale only the boxes of its own PID namespace (and those of arenas
    /// that named none): a pid of another namespace means another process there. The control:
    /// read as before (the pid alone), another namespace's box was its to end.
    #[test]
    fn only_a_box_of_this_pid_namespace_is_judged_stale() {
        assert_eq!(owner_here("arena-42-7-ns1000", 1000), Some(42));
        assert_eq!(owner_here("arena-42-7-ns2000", 1000), None, "another namespace's");
        assert_eq!(owner_here("arena-42-7", 1000), Some(42), "an older arena's");
        assert_eq!(owner_here("arena-probe-42", 1000), None);
        assert_eq!(owner_here("arena-42-7-nsx", 1000), None);
        assert_eq!(box_namespace("arena-42-7-ns2000"), Some(2000), "judged from the first namespace");
        assert_eq!(box_namespace("arena-42-7"), None);
        let old = |name: &str| name.strip_prefix("arena-").and_then(|r| r.split('-').next())?.parse::<u32>().ok();
        assert_eq!(old("arena-42-7-ns2000"), Some(42), "the control: the old reading took it");
        assert!(pid_namespace() > 0, "this machine shows its PID namespace");
    }

    /// A box whose swap the kernel does not count (v2 without `memory.swap.max`, v1 without
    /// `memsw`) holds its memory only on a machine without swap: elsewhere it keeps its
    /// address-space cap (see the sandbox's `rlimits`). The control: the memory limit alone,
    /// which left such a box uncapped, says yes whatever the swap.
    #[test]
    fn a_memory_limit_without_swap_counted_holds_only_on_a_machine_without_swap() {
        let group =
            |swap_limited| BoxGroup { dirs: vec![(PathBuf::from("/none"), vec!["memory"], true)], swap_limited };
        assert!(group(true).holds_memory());
        assert_eq!(group(false).holds_memory(), !machine_swaps());
        assert!(group(false).limits_memory(), "the control");
        assert!(!BoxGroup { dirs: vec![(PathBuf::from("/none"), vec!["cpuacct"], true)], swap_limited: true }
            .holds_memory());
        assert_eq!(swap_total("MemTotal: 8 kB\nSwapTotal:     2097148 kB\nSwapFree: 1 kB\n"), Some(2_097_148));
        assert_eq!(swap_total("SwapTotal:       0 kB\n"), Some(0));
        assert_eq!(swap_total("MemTotal: 8 kB\n"), None);
    }
}
