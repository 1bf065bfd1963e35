//! The system calls a box refuses, as a seccomp filter: those that reach state no namespace of
//! the box isolates. Kernel keyrings (`add_key`, `request_key`, `keyctl`) belong to the user
//! id, not to a namespace: a bot could leave a note there that a later match's bot (its own
//! next game, an accomplice) reads, even under another box user, and a build running as root
//! could read root's keys. `sched_setaffinity` too: the arena keeps each match on one CPU of
//! its own (see `referee::cpus`), and a bot that widened its set would run its threads on the
//! CPUs of the other matches of a tournament, slowing their bots on the wall clock. io_uring
//! (`io_uring_setup`, `io_uring_enter`, `io_uring_register`) too: its operations are submitted
//! through a ring this filter cannot see into (a build's `IORING_OP_FALLOCATE` took 16 GiB at
//! once past the refused `fallocate` below); programs fall back to plain calls, as on a kernel
//! without it. A build's box also refuses `fallocate`, which takes disk at once, without
//! writing, faster than a build's disk use can be measured (glibc's `posix_fallocate` then
//! writes instead), and the `ioctl`s that reach it (`FS_IOC_RESVSP`, `FS_IOC_RESVSP64`,
//! `FS_IOC_ZERO_RANGE`, XFS's old `ALLOCSP`). Everything else is allowed: the namespaces, the
//! box user and the limits do the rest.

use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompRule};

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

/// The refused calls.
const REFUSED: [libc::c_long; 7] = [
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_keyctl,
    libc::SYS_sched_setaffinity,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

/// The compiled filter (refused calls fail with `ENOSYS`, as on a kernel without keyrings), or
/// `None` on an architecture the filter compiler does not know.
pub(super) fn filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| compile(REFUSED.iter().map(|&call| (call, Vec::new())).collect(), libc::ENOSYS)).clone()
}

/// The `ioctl` requests that reserve or zero a file's blocks through `fallocate`
/// (`_IOW('X', n, struct space_resv)`: `FS_IOC_RESVSP`, `FS_IOC_RESVSP64`, `FS_IOC_ZERO_RANGE`,
/// XFS's `ALLOCSP` and `ALLOCSP64`).
const RESERVING_IOCTLS: [u64; 5] = [0x4030_5828, 0x4030_582a, 0x4030_5839, 0x4030_580a, 0x4030_5824];

/// What a build's box refuses besides [`filter`]'s: `fallocate`, and the `ioctl`s that reach
/// it, fail with `EOPNOTSUPP`, as on a file system without it.
pub(super) fn build_filter() -> Option<BpfProgram> {
    static FILTER: std::sync::OnceLock<Option<BpfProgram>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(|| {
            let request = |cmd: u64| {
                SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, cmd)
                    .and_then(|c| SeccompRule::new(vec![c]))
            };
            let ioctls: Result<Vec<SeccompRule>, _> = RESERVING_IOCTLS.iter().map(|&cmd| request(cmd)).collect();
            let ioctls =
                ioctls.map_err(|e| tracing::error!("the build's system call filter does not compile ({e})")).ok()?;
            compile(vec![(libc::SYS_fallocate, Vec::new()), (libc::SYS_ioctl, ioctls)], libc::EOPNOTSUPP)
        })
        .clone()
}

fn compile(rules: Vec<(libc::c_long, Vec<SeccompRule>)>, errno: i32) -> Option<BpfProgram> {
    let arch = if cfg!(target_arch = "x86_64") {
        TargetArch::x86_64
    } else if cfg!(target_arch = "aarch64") {
        TargetArch::aarch64
    } else {
        tracing::warn!(
            "no system call filter on this architecture: bots may use kernel keyrings, io_uring and other CPUs"
        );
        return None;
    };
    let rules = rules.into_iter().collect();
    let refused = SeccompAction::Errno(errno as u32);
    let compiled = SeccompFilter::new(rules, SeccompAction::Allow, refused, arch).and_then(BpfProgram::try_from);
    compiled
        .map_err(|e| {
            tracing::error!(
                "the system call filter does not compile ({e}): bots may use kernel keyrings, io_uring and other CPUs"
            )
        })
        .ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filter_compiles_here() {
        assert!(super::filter().is_some_and(|f| !f.is_empty()));
        assert!(super::build_filter().is_some_and(|f| !f.is_empty()));
    }
}
