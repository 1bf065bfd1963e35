//! Landlock for a plain bot (`--sandbox plain`, or `auto` where no box can be made): the
//! unprivileged Linux security module confines the bot's process and what it starts, as a box
//! would, where no namespace can be made.
//!
//! Without it a plain bot of an arena that is not root runs as the arena's own user: a bot
//! rewrote the league's `tournament.json` during a run (the leaderboard then ranked it first and
//! showed an honest student as disqualified), and could read other students' code and the
//! league's secret, and signal its keeper, its opponent or the arena. With it the bot may:
//! - read and run only what a box shows it (the system's folders, its own folder or the files
//!   its command names: [`super::shown_paths`]; where it runs as the arena's user, not the
//!   system's files that others may not read, which a box masks: see [`System`]), and read
//!   `/proc` (the kernel's own answers:
//!   Landlock keeps a process from tracing, or reading the memory or the environment of, any
//!   process outside its domain);
//! - write nothing but the devices a box gives ([`super::DEVICES`]; `/dev/zero` it may only read,
//!   see [`ruleset`]) and a scratch
//!   folder of its own, its `HOME` and `TMPDIR` (see `super::scratch`: no other bot's, nor the
//!   machine's `/tmp` or `/dev/shm`), nor change a file's mode, owner, times or extended
//!   attributes, which Landlock does not govern (a seccomp filter refuses those calls to a bot
//!   it confines: `super::syscalls::plain_filters`), nor what else Landlock does not govern
//!   and the filter refuses (another process's limits and priority, unix sockets of its own,
//!   io_uring, keyrings, any IP socket: see that function);
//! - neither bind nor connect a TCP socket (ABI 4; the filter refuses it any IP socket anyway);
//! - signal no process outside its domain (its keeper, the arena, the opponent, each outside
//!   or in a domain of its own), nor reach an abstract unix socket made outside it (ABI 6).
//!
//! A plain build is confined the same way, but for what it needs: it may also read and run the
//! toolchains a box's build is shown (see `super::PlainBuild`), write its folder and a scratch
//! folder of its own (its `HOME` and `TMPDIR`), and change a file's mode and times (a linker
//! makes its output executable with `chmod`): outside those folders, a read-only mount keeps it
//! from that where the arena can make one (see `super::mounts`).
//!
//! The ruleset is made by the arena before the fork (with the `landlock` crate, best effort:
//! what the kernel lacks is left out) and only entered by the bot's process, after the keeper
//! forked it and just before `exec`, by one raw system call: the keeper stays outside, and still
//! kills what the bot starts. What the kernel lacks is said once ([`missing`]).

use std::collections::BTreeSet;
use std::os::fd::OwnedFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, PathBeneath, RulesetAttr, RulesetCreatedAttr, RulesetError, Scope,
    ABI,
};

/// The Landlock ABI whose rights are asked for (best effort: a kernel with less enforces what
/// it has). 6 has every right this confinement needs; a later one adds none it uses.
const WANTED: ABI = ABI::V6;

/// Set (to anything) in the arena's environment, plain bots run without Landlock, as before it
/// was used: for the controls of the tests only, which show the attacks it stops working
/// without it. Said as missing, as the rest of what is.
pub const OFF_SWITCH: &str = "ARENA_PLAIN_WITHOUT_LANDLOCK";

/// The Landlock ABI the running kernel offers: 0 where it has none (not built in, not enabled at
/// boot, or its calls refused, as by a container's seccomp profile).
pub fn kernel_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute, a size of 0 and this flag, the call only returns the ABI
    // version; no memory is passed.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(version).unwrap_or(0).max(0)
}

/// What a plain bot's confinement lacks on a kernel offering Landlock ABI `abi`, in words (empty
/// from ABI 6 on).
pub fn missing(abi: i32) -> Vec<String> {
    if abi < 1 {
        return vec![
            "no Landlock here (a kernel before Linux 5.13, one whose boot does not enable it, or a container \
             that refuses its calls): a plain bot runs as the arena's user (as root, as a user of its own), and may read and write what that user may \
             (the league's files, other bots' code), signal that user's processes (its keeper, its opponent, \
             the arena) and use the network"
                .to_string(),
        ];
    }
    let mut out = Vec::new();
    if abi < 3 {
        out.push(format!(
            "Landlock ABI {abi} (before Linux 6.2): a plain bot may truncate any file its user may write, \
             the league's included"
        ));
    }
    // (Nor is TCP before ABI 4 missing: the filters refuse a plain bot every IP socket.)
    if abi < 6 {
        out.push(format!(
            "Landlock ABI {abi} (before Linux 6.12): a plain bot may signal its user's processes (an arena not \
             root: its keeper, its opponent, the arena)"
        ));
    }
    out
}

/// What of the system's folders a plain bot or build may read: those folders whole where
/// nothing below them is private (a file others may not read, a folder others may not enter:
/// the list a box's masks are made of, see `super::View::mask_private`), and otherwise the
/// folder listed only, with each of its entries but the private ones whole, and those of its
/// entries that hold a private one listed in turn. A plain bot that runs as the arena's user
/// (an arena that is not root, or root in a user namespace without the box users) is that
/// user, with its groups: with the system's folders whole, it read what they may (a course
/// group's file in `/etc`, 0640), and under `unshare -r` run by the machine's root, `/etc/shadow`
/// (root's own). Links are not given rules (what they name is governed where it is), nor is
/// what was made after the list: a file made since is refused, a file gone since is passed
/// over. (Landlock's rights hold beneath a rule's folder: where a folder may be listed, so may
/// a private folder below it, where its user may, which a box shows empty: its names, not its
/// files.)
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct System {
    /// Paths it may read (and run) whole, each opened without following a link.
    pub whole: Vec<PathBuf>,
    /// Folders it may only list (`ReadDir`): each holds something private.
    pub listed: Vec<PathBuf>,
}

impl System {
    /// The system's folders `dirs` (real paths, none below another) without what of them is
    /// `private` (the walk's list: paths below `dirs`).
    pub fn without(dirs: &[PathBuf], private: &BTreeSet<PathBuf>) -> System {
        let mut out = System::default();
        for dir in dirs {
            out.add(dir, private);
        }
        out
    }

    fn add(&mut self, path: &Path, private: &BTreeSet<PathBuf>) {
        if private.contains(path) {
            return;
        }
        // (Paths order by component: what is below `path` follows it at once.)
        let holds_private = private.range(path.to_path_buf()..).take_while(|p| p.starts_with(path)).next().is_some();
        if !holds_private {
            self.whole.push(path.to_path_buf());
            return;
        }
        self.listed.push(path.to_path_buf());
        let Ok(entries) = std::fs::read_dir(path) else { return };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| !t.is_symlink()) {
                self.add(&entry.path(), private);
            }
        }
    }
}

/// The ruleset of a plain bot or build shown `system` (of the system's folders, see [`System`])
/// and `shown` (its own folder and the files its command names, see [`super::shown_paths`]; a
/// build's toolchains too), which may write beneath `writable` (its scratch folder, and a build
/// its folder), made and filled, to be entered by its process just before `exec`
/// ([`super::child::enter_plain`]); `None` where the kernel has no Landlock.
///
/// A bot or build may read `/dev/zero` but not write it: opened for writing, it is mapped shared
/// and writable, shared memory no resident set shows (a plain bot held 192 MiB so under a limit
/// of 64, as with `MAP_SHARED | MAP_ANONYMOUS`, which its filter refuses: see
/// `super::syscalls::plain_filters`), and no plain bot or build has a memory cgroup (a build
/// wrote it before its memory was summed). Read, it still gives zeros (`head -c N /dev/zero`),
/// and a read-only shared mapping of it takes no memory.
pub fn ruleset(system: &System, shown: &[PathBuf], writable: &[PathBuf]) -> Result<Option<OwnedFd>, RulesetError> {
    let read = AccessFs::from_read(WANTED);
    let devices = read | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    let zero = Some(PathBuf::from("/dev").join(super::ZERO));
    let dev = super::DEVICES.iter().map(|d| PathBuf::from("/dev").join(d));
    let created = landlock::Ruleset::default()
        .handle_access(AccessFs::from_all(WANTED))?
        .handle_access(AccessNet::from_all(WANTED))?
        .scope(Scope::from_all(WANTED))?
        .create()?
        .add_rules(not_followed(&system.whole, read))?
        .add_rules(not_followed(&system.listed, AccessFs::ReadDir.into()))?
        .add_rules(path_beneath_rules(shown, read))?
        .add_rules(path_beneath_rules(["/proc"], AccessFs::ReadFile | AccessFs::ReadDir))?
        .add_rules(path_beneath_rules(dev, devices))?
        .add_rules(path_beneath_rules(zero, read))?
        .add_rules(path_beneath_rules(writable, AccessFs::from_all(WANTED)))?;
    Ok(created.into())
}

/// The rights `ruleset` gives beneath a folder a plain process may write, as the running
/// kernel's bits (those of [`WANTED`] it handles: a rule may give no other).
pub fn writable_access() -> u64 {
    let kernel = AccessFs::from_all(ABI::from(kernel_abi().min(6)));
    (AccessFs::from_all(WANTED) & kernel).bits()
}

/// Adds to the ruleset `ruleset` (a descriptor) the rule giving `access` ([`writable_access`])
/// beneath the folder `path`, as it is now: for the tmpfs over a plain process's scratch folder,
/// mounted after the ruleset was made (Landlock's rule on the folder beneath does not hold across
/// the mount: a plain bot could not write its scratch folder at all).
///
/// # Safety
/// Raw system calls only (between `fork` and `exec`).
pub(super) unsafe fn add_writable(ruleset: libc::c_int, path: &std::ffi::CStr, access: u64) -> std::io::Result<()> {
    /// `struct landlock_path_beneath_attr` (packed).
    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let fd = libc::open(path.as_ptr(), flags);
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let attr = PathBeneathAttr { allowed_access: access, parent_fd: fd };
    let added = libc::syscall(
        libc::SYS_landlock_add_rule,
        ruleset,
        LANDLOCK_RULE_PATH_BENEATH,
        std::ptr::addr_of!(attr),
        0 as libc::c_uint,
    );
    let err = std::io::Error::last_os_error();
    libc::close(fd);
    if added < 0 {
        return Err(err);
    }
    Ok(())
}

/// Rules giving `access` beneath each of `paths` (a file's own rights only, to a file), each
/// opened without following a link: one that is a link now, or is gone, is passed over (an
/// entry of `/etc` removed since the walk must not keep a bot from starting).
fn not_followed(
    paths: &[PathBuf],
    access: landlock::BitFlags<AccessFs>,
) -> impl Iterator<Item = Result<PathBeneath<std::fs::File>, RulesetError>> + '_ {
    paths.iter().filter_map(move |path| {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .ok()?;
        let kind = file.metadata().ok()?.file_type();
        let access = match () {
            () if kind.is_symlink() => return None,
            () if kind.is_dir() => access,
            () => access & AccessFs::from_file(WANTED),
        };
        (!access.is_empty()).then(|| Ok(PathBeneath::new(file, access)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is said missing follows the ABI: everything without Landlock, the scopes on Ubuntu
    /// 24.04's 6.8 (ABI 4), nothing from ABI 6.
    #[test]
    fn what_is_missing_follows_the_abi() {
        assert!(missing(0)[0].contains("no Landlock"));
        let v4 = missing(4).join("; ");
        assert!(v4.contains("signal") && !v4.contains("network") && !v4.contains("truncate"), "{v4}");
        let v1 = missing(1).join("; ");
        assert!(v1.contains("truncate") && !v1.contains("network") && v1.contains("signal"), "{v1}");
        assert!(missing(6).is_empty() && missing(7).is_empty());
    }

    /// A child that enters a ruleset showing it only `/usr` can no longer read this test's file
    /// nor (ABI 6) signal its parent; the control: the same child
    /// without it reads the file. (Skipped where the kernel has no Landlock.)
    #[test]
    fn a_child_in_the_ruleset_reads_only_what_it_is_shown() {
        if kernel_abi() < 1 {
            eprintln!("no Landlock on this kernel: nothing to show");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret");
        std::fs::write(&secret, "s").unwrap();
        let run = |confined: bool| {
            let usr = System { whole: vec![PathBuf::from("/usr")], listed: Vec::new() };
            let fd = if confined { ruleset(&usr, &[], &[]).unwrap() } else { None };
            let raw = fd.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd);
            let path = std::ffi::CString::new(secret.display().to_string()).unwrap();
            // SAFETY: the child makes raw system calls only, then exits.
            unsafe {
                let pid = libc::fork();
                if pid == 0 {
                    if raw >= 0
                        && (libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                            || libc::syscall(libc::SYS_landlock_restrict_self, raw, 0) != 0)
                    {
                        libc::_exit(2);
                    }
                    let read = libc::open(path.as_ptr(), libc::O_RDONLY) >= 0;
                    let signalled = libc::kill(libc::getppid(), 0) == 0;
                    libc::_exit(i32::from(read) | i32::from(signalled) << 2);
                }
                let mut status = 0;
                libc::waitpid(pid, &mut status, 0);
                libc::WEXITSTATUS(status)
            }
        };
        let confined = run(true);
        assert_eq!(confined & 1, 0, "the file is out of reach: {confined}");
        if kernel_abi() >= 6 {
            assert_eq!(confined & 4, 0, "its parent is out of reach: {confined}");
        }
        assert_eq!(run(false), 1 | 4, "the control reads the file and may signal its parent");
    }

    /// A child in the ruleset of a folder whose private entries are left out reads the rest,
    /// whole or below a folder that holds a private entry, and lists the folders; it reads
    /// neither a private file (nor through a link to one), nor a file made after the list; a
    /// path gone since is passed over. The control: with the folder whole, the same child reads
    /// the private file. (Skipped where the kernel has no Landlock.)
    #[test]
    fn a_child_shown_a_folder_without_its_private_entries_reads_the_rest() {
        if kernel_abi() < 1 {
            eprintln!("no Landlock on this kernel: nothing to show");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for sub in ["sub", "clean"] {
            std::fs::create_dir(root.join(sub)).unwrap();
        }
        for file in ["open", "secret", "sub/ok", "sub/key", "clean/a"] {
            std::fs::write(root.join(file), file).unwrap();
        }
        std::os::unix::fs::symlink(root.join("secret"), root.join("link")).unwrap();
        let private: BTreeSet<PathBuf> = ["secret", "sub/key"].iter().map(|p| root.join(p)).collect();
        let mut system = System::without(std::slice::from_ref(&root), &private);
        let mut whole = system.whole.clone();
        whole.sort();
        assert_eq!(whole, ["clean", "open", "sub/ok"].map(|p| root.join(p)), "no link, nothing private");
        assert_eq!(system.listed, [root.clone(), root.join("sub")]);
        system.whole.push(root.join("gone"));
        std::fs::write(root.join("new"), "new").unwrap();
        // (Bit i: the i-th path read; the last: the folder listed.)
        let paths = ["open", "clean/a", "sub/ok", "secret", "sub/key", "link", "new"];
        let run = |system: &System| {
            let fd = ruleset(system, &[], &[]).unwrap().unwrap();
            let raw = std::os::fd::AsRawFd::as_raw_fd(&fd);
            let cpaths = paths.map(|p| std::ffi::CString::new(root.join(p).display().to_string()).unwrap());
            let folder = std::ffi::CString::new(root.join("sub").display().to_string()).unwrap();
            // SAFETY: the child makes raw system calls only, then exits.
            unsafe {
                let pid = libc::fork();
                if pid == 0 {
                    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                        || libc::syscall(libc::SYS_landlock_restrict_self, raw, 0) != 0
                    {
                        libc::_exit(255);
                    }
                    let mut bits = 0;
                    for (i, path) in cpaths.iter().enumerate() {
                        bits |= i32::from(libc::open(path.as_ptr(), libc::O_RDONLY) >= 0) << i;
                    }
                    bits |= i32::from(!libc::opendir(folder.as_ptr()).is_null()) << paths.len();
                    libc::_exit(bits);
                }
                let mut status = 0;
                libc::waitpid(pid, &mut status, 0);
                libc::WEXITSTATUS(status)
            }
        };
        assert_eq!(run(&system), 0b1000_0111, "the rest and the listing, nothing private nor new");
        let control = System { whole: vec![root.clone()], listed: Vec::new() };
        assert_eq!(run(&control), 0b1111_1111, "the control reads all");
    }
}
