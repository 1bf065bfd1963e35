//! The sandbox: what confines a bot process on Linux beyond its own process group.
//!
//! Applied in the child between `fork` and `exec` (only raw system calls there: no
//! allocation): resource limits (CPU seconds, address space, file size, open files), a
//! process-count cap through a `pids` cgroup (or `RLIMIT_NPROC` where no cgroup can be
//! made), a fresh network namespace (no network at all), a mount namespace in which the
//! arena's output folders are read-only, and death with the arena (`PR_SET_PDEATHSIG`).
//! What the system does not allow is reported once, and skipped, unless the sandbox is
//! required.

use std::ffi::CString;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How much confinement to insist on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    /// Use what the system allows; say once what is missing.
    #[default]
    Auto,
    /// Refuse to run bots without network isolation and a process cap.
    Require,
    /// Resource limits only (no namespaces, no cgroup): for debugging bots.
    None,
}

impl std::str::FromStr for SandboxMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(SandboxMode::Auto),
            "require" => Ok(SandboxMode::Require),
            "none" => Ok(SandboxMode::None),
            _ => Err(format!("expected auto, require or none, found `{s}`")),
        }
    }
}

/// Resource limits for every bot process (and its children). Missing fields in a config
/// file keep their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxLimits {
    /// CPU seconds (SIGXCPU at the limit: forfeit `cpu`).
    pub cpu_seconds: u64,
    /// Address space in MiB (allocation fails beyond it: forfeit `memory`).
    pub memory_mb: u64,
    /// Largest file the bot may write, in MiB.
    pub file_size_mb: u64,
    /// Open file descriptors.
    pub open_files: u64,
    /// Processes (the bot and all its children at once).
    pub processes: u64,
}

impl Default for SandboxLimits {
    fn default() -> Self {
        SandboxLimits { cpu_seconds: 10, memory_mb: 1024, file_size_mb: 64, open_files: 256, processes: 64 }
    }
}

/// The sandbox could not be set up as required.
#[derive(Debug, Error)]
pub enum SandboxError {
    /// `--require-sandbox` and something is missing.
    #[error("the sandbox is required but unavailable: {0}")]
    Unavailable(String),
    /// A cgroup could not be made for a bot.
    #[error("cannot set up the process cap for a bot: {0}")]
    Cgroup(String),
}

/// What this system allows, probed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capabilities {
    /// New network namespaces can be made.
    pub network: bool,
    /// New mount namespaces can be made (for read-only output folders).
    pub mounts: bool,
    /// Namespaces need a user namespace first (not root).
    pub user_namespace: bool,
    /// Where per-bot `pids` cgroups can be made, if anywhere.
    pub pids_cgroup: Option<PathBuf>,
    /// Whether it is a cgroup v2 (`cgroup.kill` may exist) rather than v1.
    pub cgroup_v2: bool,
}

/// The sandbox for a run: mode, limits, protected folders and what the system allows.
#[derive(Debug, Clone)]
pub struct Sandbox {
    limits: SandboxLimits,
    caps: Capabilities,
    /// One network namespace (with no interface up) that every bot joins: joining is much
    /// cheaper than making a namespace per bot, and still cuts bots off the network.
    shared: Option<Arc<SharedNamespaces>>,
}

/// Handles to namespaces made once per run; they live as long as these files are open.
#[derive(Debug)]
struct SharedNamespaces {
    user: Option<std::fs::File>,
    net: Option<std::fs::File>,
    mnt: Option<std::fs::File>,
}

impl SharedNamespaces {
    /// Makes the namespaces in a short-lived child (a network namespace with no interface up;
    /// a mount namespace with `protect` read-only) and keeps handles to them.
    fn create(caps: &Capabilities, protect: &[CString]) -> std::io::Result<SharedNamespaces> {
        let mounts = caps.mounts && !protect.is_empty();
        let mut flags = 0;
        if caps.network {
            flags |= libc::CLONE_NEWNET;
        }
        if mounts {
            flags |= libc::CLONE_NEWNS;
        }
        if caps.user_namespace {
            flags |= libc::CLONE_NEWUSER;
        }
        let mut command = std::process::Command::new("/bin/sh");
        command.args(["-c", "read _"]).stdin(std::process::Stdio::piped());
        let protect = protect.to_vec();
        // SAFETY: system calls only, on data prepared before the fork.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                if libc::unshare(flags) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if mounts {
                    read_only(&protect)?;
                }
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let ns = |kind: &str| std::fs::File::open(format!("/proc/{}/ns/{kind}", child.id()));
        let opened = (|| {
            Ok::<_, std::io::Error>(SharedNamespaces {
                user: if caps.user_namespace { Some(ns("user")?) } else { None },
                net: if caps.network { Some(ns("net")?) } else { None },
                mnt: if mounts { Some(ns("mnt")?) } else { None },
            })
        })();
        let _ = child.kill();
        let _ = child.wait();
        opened
    }
}

/// In a fresh mount namespace: stops mount events from leaking out, then bind-mounts each
/// path read-only onto itself. System calls only (it runs between fork and exec).
fn read_only(protect: &[CString]) -> std::io::Result<()> {
    let fail = || Err(std::io::Error::last_os_error());
    let (no_str, no_data) = (std::ptr::null::<libc::c_char>(), std::ptr::null::<libc::c_void>());
    // SAFETY: mount(2) with valid C strings or nulls.
    unsafe {
        if libc::mount(no_str, c"/".as_ptr(), no_str, libc::MS_REC | libc::MS_PRIVATE, no_data) != 0 {
            return fail();
        }
        for path in protect {
            let p = path.as_ptr();
            if libc::mount(p, p, no_str, libc::MS_BIND | libc::MS_REC, no_data) != 0 {
                return fail();
            }
            let remount = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY;
            if libc::mount(no_str, p, no_str, remount, no_data) != 0 {
                return fail();
            }
        }
    }
    Ok(())
}

/// A bot's confinement, to be ended with the bot.
#[derive(Debug)]
pub struct Cage {
    cgroup: Option<PathBuf>,
    v2: bool,
}

static CGROUP_SEQ: AtomicU64 = AtomicU64::new(0);

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

impl Sandbox {
    /// Probes the system and checks `mode`. `protect` lists folders bots must not write to
    /// (made read-only for them where mount namespaces work).
    pub fn new(mode: SandboxMode, limits: SandboxLimits, protect: Vec<PathBuf>) -> Result<Sandbox, SandboxError> {
        let caps = if mode == SandboxMode::None { Capabilities::none() } else { Capabilities::probe() };
        if let Some(root) = &caps.pids_cgroup {
            end_stale_cages(root, caps.cgroup_v2);
        }
        let protect: Vec<CString> = protect
            .into_iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter_map(|p| CString::new(p.as_os_str().as_bytes()).ok())
            .collect();
        let shared = if caps.network || (caps.mounts && !protect.is_empty()) {
            match SharedNamespaces::create(&caps, &protect) {
                Ok(ns) => Some(Arc::new(ns)),
                Err(e) => return Err(SandboxError::Unavailable(format!("cannot make the bots' namespaces: {e}"))),
            }
        } else {
            None
        };
        let sandbox = Sandbox { limits, caps, shared };
        let missing = sandbox.missing();
        match mode {
            SandboxMode::Require if !missing.is_empty() => return Err(SandboxError::Unavailable(missing.join("; "))),
            SandboxMode::Auto if !missing.is_empty() => warn_once(&missing),
            _ => {}
        }
        Ok(sandbox)
    }

    /// Resource limits only: what `--sandbox none` gives.
    pub fn limits_only(limits: SandboxLimits) -> Sandbox {
        Sandbox { limits, caps: Capabilities::none(), shared: None }
    }

    /// What the system allows.
    pub fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    /// The limits applied.
    pub fn limits(&self) -> &SandboxLimits {
        &self.limits
    }

    fn missing(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.caps.network {
            out.push("no network namespace: bots can reach the network".to_string());
        }
        if self.caps.pids_cgroup.is_none() && is_root() {
            out.push("no pids cgroup: a bot running as root can fork without limit".to_string());
        }
        out
    }

    /// Prepares `command` to run confined in working directory `cwd`: its cage (cgroup) is made
    /// now, and the limits and namespaces are applied in the child before `exec`.
    pub fn confine(&self, command: &mut tokio::process::Command, cwd: &Path) -> Result<Cage, SandboxError> {
        let cage = match &self.caps.pids_cgroup {
            Some(root) => Some(self.make_cgroup(root)?),
            None => None,
        };
        let procs_file =
            cage.as_ref().and_then(|dir| CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()).ok());
        let cwd = std::fs::canonicalize(cwd).ok().and_then(|p| CString::new(p.as_os_str().as_bytes()).ok());
        let limits = self.limits;
        let mb = 1024 * 1024;
        let rlimits = [
            (libc::RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds.saturating_add(1)),
            (libc::RLIMIT_AS, limits.memory_mb.saturating_mul(mb), limits.memory_mb.saturating_mul(mb)),
            (libc::RLIMIT_FSIZE, limits.file_size_mb.saturating_mul(mb), limits.file_size_mb.saturating_mul(mb)),
            (libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
        ];
        // Without a cgroup, RLIMIT_NPROC caps processes; it counts every process of the user,
        // so the cap is added to what the user already runs.
        let nproc = (cage.is_none() && !is_root()).then(|| user_process_count() + limits.processes);
        let fd = |f: &Option<std::fs::File>| f.as_ref().map_or(-1, |f| f.as_raw_fd());
        let namespaces = self.shared.as_ref().map_or([-1; 3], |ns| [fd(&ns.user), fd(&ns.net), fd(&ns.mnt)]);
        let kinds = [libc::CLONE_NEWUSER, libc::CLONE_NEWNET, libc::CLONE_NEWNS];
        let parent = std::process::id() as libc::pid_t;
        let hook = move || -> std::io::Result<()> {
            // Only system calls from here on: this runs in the forked child.
            let fail = || Err(std::io::Error::last_os_error());
            // SAFETY: plain system calls on values prepared before the fork.
            unsafe {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return fail();
                }
                if libc::getppid() != parent {
                    libc::_exit(1); // the arena died while we were starting
                }
                for (resource, soft, hard) in rlimits {
                    let rl = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
                    if libc::setrlimit(resource, &rl) != 0 {
                        return fail();
                    }
                }
                if let Some(n) = nproc {
                    let rl = libc::rlimit { rlim_cur: n as libc::rlim_t, rlim_max: n as libc::rlim_t };
                    if libc::setrlimit(libc::RLIMIT_NPROC, &rl) != 0 {
                        return fail();
                    }
                }
                if let Some(path) = &procs_file {
                    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                    if fd < 0 {
                        return fail();
                    }
                    let ok = libc::write(fd, b"0".as_ptr().cast(), 1) == 1;
                    libc::close(fd);
                    if !ok {
                        return fail();
                    }
                }
                // Join the run's namespaces: user first (it grants the rights for the others).
                for (ns_fd, kind) in namespaces.into_iter().zip(kinds) {
                    if ns_fd >= 0 && libc::setns(ns_fd, kind) != 0 {
                        return fail();
                    }
                }
                // Joining a mount namespace moves to its root: go back to the working directory.
                if namespaces[2] >= 0 {
                    if let Some(dir) = &cwd {
                        if libc::chdir(dir.as_ptr()) != 0 {
                            return fail();
                        }
                    }
                }
            }
            Ok(())
        };
        // SAFETY: the hook only makes system calls on data prepared before the fork.
        unsafe {
            command.pre_exec(hook);
        }
        Ok(Cage { cgroup: cage, v2: self.caps.cgroup_v2 })
    }

    fn make_cgroup(&self, root: &Path) -> Result<PathBuf, SandboxError> {
        let n = CGROUP_SEQ.fetch_add(1, Ordering::SeqCst);
        let dir = root.join(format!("arena-{}-{n}", std::process::id()));
        let err = |e: std::io::Error| SandboxError::Cgroup(format!("{}: {e}", dir.display()));
        std::fs::create_dir(&dir).map_err(err)?;
        std::fs::write(dir.join("pids.max"), self.limits.processes.to_string()).map_err(err)?;
        Ok(dir)
    }
}

impl Capabilities {
    fn none() -> Self {
        Capabilities { network: false, mounts: false, user_namespace: false, pids_cgroup: None, cgroup_v2: false }
    }

    /// Finds out what this system allows, by trying it in a throw-away child.
    pub fn probe() -> Self {
        let user_namespace = !is_root();
        let try_unshare = |flags: libc::c_int| -> bool {
            let mut command = std::process::Command::new("/bin/sh");
            command.args(["-c", "exit 0"]).stdin(std::process::Stdio::null());
            let flags = if user_namespace { flags | libc::CLONE_NEWUSER } else { flags };
            // SAFETY: a single system call in the child.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                    if libc::unshare(flags) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            command.status().is_ok_and(|s| s.success())
        };
        let network = try_unshare(libc::CLONE_NEWNET);
        let mounts = try_unshare(libc::CLONE_NEWNS);
        let (pids_cgroup, cgroup_v2) = find_pids_cgroup();
        Capabilities { network, mounts, user_namespace, pids_cgroup, cgroup_v2 }
    }
}

/// A writable cgroup directory under which `pids` cgroups can be made: the v2 cgroup of this
/// process if it delegates `pids`, else this process's cgroup in the v1 `pids` hierarchy.
fn find_pids_cgroup() -> (Option<PathBuf>, bool) {
    let Ok(text) = std::fs::read_to_string("/proc/self/cgroup") else { return (None, false) };
    let usable = |dir: &Path| {
        let probe = dir.join(format!("arena-probe-{}", std::process::id()));
        let ok = std::fs::create_dir(&probe).is_ok() && probe.join("pids.max").exists();
        let _ = std::fs::remove_dir(&probe);
        ok
    };
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let rel = path.trim_start_matches('/');
        if controllers.is_empty() {
            for base in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
                let dir = Path::new(base).join(rel);
                let delegated = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
                    .is_ok_and(|s| s.split_whitespace().any(|c| c == "pids"));
                if delegated && usable(&dir) {
                    return (Some(dir), true);
                }
            }
        } else if controllers.split(',').any(|c| c == "pids") {
            let dir = Path::new("/sys/fs/cgroup/pids").join(rel);
            if usable(&dir) {
                return (Some(dir), false);
            }
        }
    }
    (None, false)
}

/// Ends what an arena that died (`kill -9`) left in its bots' cgroups, and removes them.
fn end_stale_cages(root: &Path, v2: bool) {
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(owner) = name.strip_prefix("arena-").and_then(|rest| rest.split('-').next()) else { continue };
        let Ok(pid) = owner.parse::<u32>() else { continue };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue; // a running arena's cage
        }
        tracing::info!(cgroup = %entry.path().display(), "ending a cage left by an arena that died");
        Cage { cgroup: Some(entry.path()), v2 }.end();
    }
}

fn user_process_count() -> u64 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()))
        .filter(|e| {
            std::fs::read_to_string(e.path().join("status")).is_ok_and(|s| {
                s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some(&uid.to_string()))
            })
        })
        .count() as u64
}

fn warn_once(missing: &[String]) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        for m in missing {
            tracing::warn!("sandbox: {m} (use --require-sandbox to refuse to run like this)");
        }
    });
}

impl Cage {
    /// Kills every process left in the bot's cgroup (children that left its process group
    /// included) and removes the cgroup.
    pub fn end(self) {
        let Some(dir) = &self.cgroup else { return };
        if self.v2 && std::fs::write(dir.join("cgroup.kill"), "1").is_ok() {
            // Every process in the cgroup is being killed.
        } else {
            for _ in 0..100 {
                let pids = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
                let pids: Vec<i32> = pids.lines().filter_map(|l| l.trim().parse().ok()).collect();
                if pids.is_empty() {
                    break;
                }
                for pid in pids {
                    // SAFETY: kill has no memory preconditions.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        for _ in 0..200 {
            if std::fs::remove_dir(dir).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        tracing::warn!(cgroup = %dir.display(), "could not remove a bot's cgroup");
    }

    /// Processes still in the cage (0 without a cgroup).
    pub fn remaining(&self) -> usize {
        self.cgroup
            .as_ref()
            .and_then(|d| std::fs::read_to_string(d.join("cgroup.procs")).ok())
            .map_or(0, |s| s.lines().count())
    }
}
