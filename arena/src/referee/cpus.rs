//! Keeping a match on one CPU: its referee thread and its bots' processes.
//!
//! A match is a ping-pong of short lines between the referee and its bots. When they sit on
//! different CPUs every line wakes an idle CPU (an interrupt and an exit from its idle state),
//! which costs more than the line itself: on the 2-core machines the project targets, a
//! 200-tick duel of two `waiter`s takes half the wall and CPU time when everything runs on one
//! CPU (`arena-bench`). Bots of a match then share that CPU when they think at once, which
//! the CPU clock (`ClockKind::Cpu`) already makes fair: each bot is charged only its own time.

use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::unistd::Pid;

/// The CPUs this process may use, in order, as they were at the first call (before any thread
/// was kept on one); empty when the kernel does not say.
pub fn allowed() -> Vec<usize> {
    static ALLOWED: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    ALLOWED
        .get_or_init(|| match sched_getaffinity(nix::unistd::getpid()) {
            Ok(set) => cpus_of(&set).collect(),
            Err(_) => Vec::new(),
        })
        .clone()
}

fn cpus_of(set: &CpuSet) -> impl Iterator<Item = usize> + '_ {
    (0..CpuSet::count()).filter(|&cpu| set.is_set(cpu).unwrap_or(false))
}

/// The CPUs this process may use, starting with the one the calling thread runs on, so that
/// arenas started side by side begin on different CPUs. Slot `k` of a run keeps to the `k`-th
/// (modulo their number).
pub fn from_here() -> Vec<usize> {
    let mut cpus = allowed();
    // SAFETY: sched_getcpu has no preconditions; it returns -1 on failure.
    let here = unsafe { libc::sched_getcpu() };
    if let Some(start) = cpus.iter().position(|&c| c as i64 == i64::from(here)) {
        cpus.rotate_left(start);
    }
    cpus
}

/// The CPUs of a run's slots, claimed among the arenas its user runs on the machine: arenas
/// started side by side (shards of a Slurm array on one node, two leagues at once) each began
/// on the CPU it started on ([`from_here`]), and two that started on the same one kept their
/// matches there, the other CPU idle. Held until dropped (or the process ends).
#[derive(Debug)]
pub struct Claim {
    cpus: Vec<usize>,
    _held: Vec<std::fs::File>,
}

impl Claim {
    /// The CPUs for `slots` slots: [`from_here`]'s, the first `slots` of them no other arena of
    /// this user holds put first, each claimed (an advisory lock in the folder
    /// [`crate::sandbox::shared_folder`] `cpus`), then the others. Where nothing can be claimed
    /// (every CPU held, no such folder), [`from_here`]'s order, as before.
    pub fn take(slots: usize) -> Claim {
        Self::take_in(crate::sandbox::shared_folder("cpus").ok().as_deref(), slots)
    }

    fn take_in(dir: Option<&std::path::Path>, slots: usize) -> Claim {
        let order = from_here();
        let Some(dir) = dir else { return Claim { cpus: order, _held: Vec::new() } };
        let (mut mine, mut others, mut held) = (Vec::new(), Vec::new(), Vec::new());
        for cpu in order {
            match (held.len() < slots).then(|| crate::sandbox::try_claim(&dir.join(format!("cpu-{cpu}")))).flatten() {
                Some(file) => {
                    held.push(file);
                    mine.push(cpu);
                }
                None => others.push(cpu),
            }
        }
        mine.extend(others);
        Claim { cpus: mine, _held: held }
    }

    /// The CPUs, slot `k`'s the `k`-th (modulo their number): see [`pin_slot`].
    pub fn cpus(&self) -> &[usize] {
        &self.cpus
    }
}

/// Keeps the calling thread (and its bots) on the CPU of slot `slot` of `cpus` (a list from
/// [`from_here`] or a [`Claim`], modulo its length); nothing when the list is empty.
pub fn pin_slot(cpus: &[usize], slot: usize) {
    if let Some(&cpu) = cpus.get(slot % cpus.len().max(1)) {
        pin_thread(cpu);
    }
}

/// Keeps the calling thread, and the bots it starts from now on, on CPU `cpu`. Does nothing
/// where the kernel refuses.
pub fn pin_thread(cpu: usize) {
    let mut set = CpuSet::new();
    if set.set(cpu).is_ok() {
        if let Err(e) = sched_setaffinity(Pid::from_raw(0), &set) {
            tracing::debug!("cannot keep the match on CPU {cpu}: {e}");
        }
    }
}

/// Lets the calling thread run on every CPU of the process again.
pub fn unpin_thread() {
    let mut set = CpuSet::new();
    for cpu in allowed() {
        let _ = set.set(cpu);
    }
    let _ = sched_setaffinity(Pid::from_raw(0), &set);
}

/// The CPUs the calling thread may run on, to hand to the thread that starts its bots.
pub(super) fn of_this_thread() -> Option<CpuSet> {
    sched_getaffinity(Pid::from_raw(0)).ok()
}

/// Puts the calling thread on `set` (a spawner thread, before it starts a bot for a match).
pub(super) fn follow(set: &CpuSet) {
    let _ = sched_setaffinity(Pid::from_raw(0), set);
}

/// How many CPUs `set` holds.
pub(super) fn count(set: &CpuSet) -> usize {
    cpus_of(set).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_still_sees_every_cpu_of_the_process_and_can_let_go() {
        let all = allowed();
        assert!(!all.is_empty());
        let here = from_here();
        assert_eq!(here.len(), all.len(), "the same CPUs, rotated: {here:?} {all:?}");
        pin_thread(here[0]);
        let pinned = of_this_thread().map(|s| count(&s));
        assert_eq!(pinned, Some(1), "kept on one CPU");
        // The main thread kept on one CPU too (as `arena duel` keeps it): what the process may
        // use is still every CPU.
        let main = Pid::from_raw(nix::unistd::getpid().as_raw());
        let before = sched_getaffinity(main).unwrap();
        let mut one = CpuSet::new();
        one.set(here[0]).unwrap();
        sched_setaffinity(main, &one).unwrap();
        let seen = allowed();
        sched_setaffinity(main, &before).unwrap();
        assert_eq!(seen, all, "the process's CPUs, not its main thread's now");
        unpin_thread();
        assert_eq!(of_this_thread().map(|s| count(&s)), Some(all.len()), "free again");
    }

    /// Two arenas started on the same CPU (here: two claims from a thread kept on one) keep
    /// their one slot each on different CPUs while both run, and the CPU a claim let go of is
    /// claimed again. The control: unclaimed, both begin on the same CPU. A folder another
    /// user could write in takes no claims.
    #[test]
    fn arenas_started_side_by_side_claim_different_cpus() {
        let all = allowed();
        if all.len() < 2 {
            eprintln!("one CPU: nothing to spread over");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let mine = crate::sandbox::own_folder(&dir.path().join("claims")).expect("a folder of this user's");
        pin_thread(all[0]);
        let (plain, again) = (Claim::take_in(None, 1), Claim::take_in(None, 1));
        assert_eq!(plain.cpus()[0], again.cpus()[0], "the control: unclaimed, both begin on the CPU they run on");
        let first = Claim::take_in(Some(&mine), 1);
        let second = Claim::take_in(Some(&mine), 1);
        assert_eq!(first.cpus()[0], all[0]);
        assert_ne!(second.cpus()[0], first.cpus()[0], "{:?} {:?}", first.cpus(), second.cpus());
        assert_eq!(second.cpus().len(), all.len(), "every CPU still listed");
        let (gone, kept) = (first.cpus()[0], second.cpus()[0]);
        drop(first);
        let third = Claim::take_in(Some(&mine), 1);
        assert_eq!(third.cpus()[0], gone, "the CPU let go of is free again");
        assert_ne!(third.cpus()[0], kept);
        unpin_thread();
        // A folder others may write in is not used.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&mine, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(crate::sandbox::own_folder(&mine), None);
    }
}
