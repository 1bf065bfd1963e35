//! Zoo bot `zoo-attack ATTACK [ARGS…]`: a Resource Rush bot that tries one attack on its
//! opponent, the referee, the results or the machine, then plays on (WAIT). Where only the
//! attacker can tell whether the attack worked, it says so by answering an invalid move
//! (`MOVE 99 99`), so that the duel's result shows it; the tests assert it never does
//! inside the box, and does with `--sandbox none` (the controls).

use std::ffi::CString;
use std::io::{BufRead, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use bot_sdk::{Action, GameState, Mode};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What an attack does at each later TICK (tick, line); true when it got through.
type Stepper = Box<dyn FnMut(u32, &str) -> bool>;

/// The answer that shows an attack worked.
const GOT_THROUGH: &str = "MOVE 99 99";

fn main() {
    // `hex:…` arguments name paths without naming them (a box shows a bot the files its
    // command names).
    let args: Vec<String> = std::env::args().skip(1).map(|a| unhex(&a)).collect();
    let mut worked = false;
    let mut stepper: Option<Stepper> = None;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut header = String::new();
    let mut playing = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if !playing {
            header.push_str(&line);
            header.push('\n');
            playing = line.trim() == "STREAM";
            continue;
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("TICK") {
            continue;
        }
        let tick: u32 = words.next().and_then(|t| t.parse().ok()).unwrap_or(0);
        if tick == 1 {
            (worked, stepper) = attack(&args);
            if let Some(s) = stepper.as_mut() {
                worked |= s(0, &header);
            }
        }
        if let Some(s) = stepper.as_mut() {
            worked |= s(tick, &line);
        }
        let answer = if worked { GOT_THROUGH } else { "WAIT" };
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            return;
        }
        if args.first().is_some_and(|a| a == "flood-at-end") && Some(tick) == rounds(&header) {
            flood_at_end(&args.get(1).cloned().unwrap_or_default());
        }
    }
}

/// The number of rounds a Resource Rush header announces (`ARENA rows cols rounds`).
fn rounds(header: &str) -> Option<u32> {
    header.split_whitespace().nth(3)?.parse().ok()
}

/// `flood-at-end stdout|stderr`: after its answer to the last tick, when no prompt is left to
/// punish it, one line without end on that stream, as fast as it goes.
fn flood_at_end(stream: &str) -> ! {
    let fd = if stream == "stderr" { 2 } else { 1 };
    let block = [b'x'; 1 << 16];
    loop {
        // SAFETY: writes from a valid buffer of its length.
        if unsafe { libc::write(fd, block.as_ptr().cast(), block.len()) } < 0 {
            std::process::exit(0);
        }
    }
}

fn unhex(arg: &str) -> String {
    let Some(hex) = arg.strip_prefix("hex:") else { return arg.to_string() };
    let bytes: Vec<u8> =
        (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Makes the attack, at the first TICK (both bots run by then). Returns whether it already
/// worked, and what to do at each later TICK.
fn attack(args: &[String]) -> (bool, Option<Stepper>) {
    let attack = args.first().cloned().unwrap_or_default();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    let mut worked = false;
    let mut stepper: Option<Stepper> = None;
    match attack.as_str() {
        "signal" => signal_processes(&arg(1), parse_signal(&arg(2))),
        "parent" => {
            // SAFETY: kill has no memory preconditions.
            unsafe {
                libc::kill(libc::getppid(), parse_signal(&arg(1)));
            }
        }
        "stdin" => {
            for pid in find(&arg(1)) {
                if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(format!("/proc/{pid}/fd/0")) {
                    worked |= f.write_all(b"TICK 1 WAIT\nTICK 1 WAIT\n").is_ok();
                }
            }
        }
        "stdout" => {
            for pid in find(&arg(1)) {
                // It plays on: the victim's result shows whether this worked. A first line goes in
                // at once: this tick cannot end before the victim's pipe holds a line it never wrote.
                if let Ok(mut f) = std::fs::OpenOptions::new().read(true).write(true).open(format!("/proc/{pid}/fd/1"))
                {
                    let _ = f.write_all(b"MOVE 0 0\n");
                    std::thread::spawn(move || steal_answers(f));
                }
            }
        }
        "ptrace" => {
            for pid in find(&arg(1)) {
                // SAFETY: attaching to another process; no memory is passed.
                worked |= unsafe { libc::ptrace(libc::PTRACE_ATTACH, pid, 0, 0) } == 0;
                worked |= read_memory(pid);
            }
        }
        "trace-parent" => {
            // Its parent: in a box, the box's init, which holds the pipe it reports the bot's
            // exit status through, of the same user in a box of an arena that is not root.
            // (Seized, not attached: the tracee is not stopped, and is let go when the bot exits.)
            // SAFETY: getppid has no preconditions; ptrace passes no memory.
            let parent = unsafe { libc::getppid() };
            worked |= unsafe { libc::ptrace(libc::PTRACE_SEIZE, parent, 0, 0) } == 0;
            worked |= read_memory(parent);
            worked |= std::fs::OpenOptions::new().write(true).open(format!("/proc/{parent}/fd/0")).is_ok();
            worked |= std::fs::read(format!("/proc/{parent}/mem")).is_ok();
        }
        "environ" => {
            let var = arg(1);
            worked = std::env::var_os(&var).is_some()
                || find("").iter().any(|pid| {
                    std::fs::read(format!("/proc/{pid}/environ"))
                        .is_ok_and(|e| e.windows(var.len()).any(|w| w == var.as_bytes()))
                });
        }
        "read" => worked = std::fs::read(arg(1)).is_ok_and(|b| !b.is_empty()),
        // Holds a capability, or could regain one at an exec (its bounding or ambient set):
        // root in its user namespace keeps them all unless they are dropped.
        "capabilities" => {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let sets = status
                .lines()
                .filter(|l| ["CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:"].iter().any(|s| l.starts_with(s)));
            let held: Vec<&str> = sets
                .filter(|l| l.split_whitespace().nth(1).is_some_and(|v| !v.trim_start_matches('0').is_empty()))
                .collect();
            eprintln!("capabilities held: {held:?}");
            worked = !held.is_empty();
        }
        "write" => {
            worked = std::fs::OpenOptions::new()
                .append(true)
                .open(arg(1))
                .and_then(|mut f| f.write_all(b"\nexit 3 # overwritten by the attacker\n"))
                .is_ok();
        }
        "unix-connect" => worked = std::os::unix::net::UnixStream::connect(arg(1)).is_ok(),
        "chmod" => {
            // A file's mode and times (which Landlock does not govern): `chmod 0` on the league's
            // `tournament.json` would keep the leaderboard from reading it.
            use std::os::unix::fs::PermissionsExt;
            worked = std::fs::set_permissions(arg(1), std::fs::Permissions::from_mode(0o600)).is_ok();
            let path = CString::new(arg(1)).unwrap_or_default();
            // SAFETY: utimensat reads the path; null times set both to now.
            worked |= unsafe { libc::utimensat(libc::AT_FDCWD, path.as_ptr(), std::ptr::null(), 0) } == 0;
        }
        "proc-root" => {
            // Through any process's root: the arena's folder, the results file.
            let target = arg(1);
            worked = find("").iter().any(|pid| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(format!("/proc/{pid}/root{target}"))
                    .and_then(|mut f| f.write_all(b"{\"forged\": true}\n"))
                    .is_ok()
            });
        }
        "daemon" => daemon(&arg(1)),
        "talk" => stepper = Some(talk(&arg(1), &arg(2))),
        "fill-tmp" => {
            let mb: usize = arg(1).parse().unwrap_or(100);
            let dir = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".to_string());
            // In files of 8 MiB (under the per-file size limit).
            let chunk = vec![7u8; 1 << 20];
            let mut written = 0;
            let mut files = Vec::new();
            'fill: for k in 0.. {
                let path = format!("{dir}/zoo-fill-{}-{k}", std::process::id());
                let Ok(mut f) = std::fs::File::create(&path) else { break };
                files.push(path);
                for _ in 0..8 {
                    if written >= mb || f.write_all(&chunk).is_err() {
                        break 'fill;
                    }
                    written += 1;
                }
            }
            for f in files {
                let _ = std::fs::remove_file(f);
            }
            eprintln!("fill-tmp: wrote {written} MiB of {mb}");
            worked = written >= mb;
        }
        "scratch-disk" => {
            // Writes 4 MiB into its TMPDIR, renames the file over another (which on ext4 starts
            // its writeback at once) and says how many bytes it sent towards a disk
            // (`/proc/self/io`'s `write_bytes`: none for a tmpfs) and whether TMPDIR is a tmpfs.
            let dir = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".to_string());
            let written = || {
                let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
                let line = io.lines().find_map(|l| l.strip_prefix("write_bytes:")).unwrap_or("0").trim().to_string();
                line.parse::<u64>().unwrap_or(0)
            };
            let before = written();
            let (a, b) = (format!("{dir}/zoo-disk-a"), format!("{dir}/zoo-disk-b"));
            let wrote = std::fs::write(&b, b"old").and_then(|()| std::fs::write(&a, vec![7u8; 4 << 20]));
            let renamed = wrote.and_then(|()| std::fs::rename(&a, &b));
            let sent = written().saturating_sub(before);
            let _ = std::fs::remove_file(&b);
            // SAFETY: statfs fills a zeroed struct of ours from a path we own.
            let tmpfs = unsafe {
                let mut fs: libc::statfs = std::mem::zeroed();
                let path = std::ffi::CString::new(dir.as_bytes()).unwrap_or_default();
                libc::statfs(path.as_ptr(), &mut fs) == 0 && fs.f_type == libc::TMPFS_MAGIC
            };
            eprintln!("scratch-disk: renamed {} sent {sent} bytes to a disk, tmpfs {tmpfs}", renamed.is_ok());
            worked = sent > 0;
        }
        "fill-shm" => {
            // `fill-shm MB TAG`: MB MiB in files of 8 MiB in `/dev/shm` (memory no limit of the
            // bot's counts, when it is the machine's), named `zoo-shm-TAG-k`, and left there.
            let (mb, tag): (usize, String) = (arg(1).parse().unwrap_or(100), arg(2));
            let chunk = vec![7u8; 1 << 20];
            let mut written = 0;
            'shm: for k in 0.. {
                let Ok(mut f) = std::fs::File::create(format!("/dev/shm/zoo-shm-{tag}-{k}")) else { break };
                for _ in 0..8 {
                    if written >= mb || f.write_all(&chunk).is_err() {
                        break 'shm;
                    }
                    written += 1;
                }
            }
            eprintln!("fill-shm: wrote {written} MiB of {mb}");
            worked = written >= mb;
        }
        "escape" => worked = escape(&arg(1), &arg(2)),
        "tty" => worked = tiocsti(),
        "keyring-leave" => worked = leave_key(&arg(1)),
        "keyring-find" => worked = find_key(&arg(1)),
        "widen-cpus" => worked = widen_cpus(libc::SYS_sched_setaffinity),
        // The same call by its x32 number, which a filter matching numbers does not know.
        "x32-widen-cpus" => worked = widen_cpus(arena_e2e::X32_SYSCALL_BIT | libc::SYS_sched_setaffinity),
        "io-uring" => worked = arena_e2e::io_uring_offered(),
        "aio" => worked = aio_context(),
        "vsock" => worked = a_socket(libc::AF_VSOCK, libc::SOCK_STREAM, "AF_VSOCK"),
        "socket-filter" => worked = socket_filter(),
        "udp" => worked = a_socket(libc::AF_INET, libc::SOCK_DGRAM, "UDP"),
        "tcp" => worked = a_socket(libc::AF_INET6, libc::SOCK_STREAM, "TCP"),
        "sock-diag" => {
            // SAFETY: socket takes no pointer; a descriptor it gives is closed.
            let fd =
                unsafe { libc::socket(libc::AF_NETLINK, libc::SOCK_RAW | libc::SOCK_CLOEXEC, libc::NETLINK_SOCK_DIAG) };
            // SAFETY: closes the descriptor just made.
            worked = fd >= 0 && unsafe { libc::close(fd) } == 0;
        }
        "mptcp" => worked = a_protocol_socket(262, "MPTCP"),
        "dgram-pair" => worked = socket_filter(),
        "renice-parent" => {
            // SAFETY: setpriority takes no pointer; the keeper (or the box's init) is the parent.
            worked = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::getppid() as libc::id_t, 19) } == 0;
        }
        "limit-parent" => {
            // The parent's core-file size to 0: harmless, and what RLIMIT_CPU 0 would kill with.
            let none = libc::rlimit64 { rlim_cur: 0, rlim_max: 0 };
            // SAFETY: prlimit64 reads `none`, ours; no old value is asked.
            let set = unsafe { libc::prlimit64(libc::getppid(), libc::RLIMIT_CORE, &none, std::ptr::null_mut()) };
            worked = set == 0;
        }
        "setxattrat" => worked = set_xattr_at(&arg(1)),
        "xattr" => worked = hold_xattrs(arg(1).parse().unwrap_or(64), arg(2) == "own-tmpfs"),
        "timer-slack" => worked = shrink_timer_slack(),
        "hide-cpu" => {
            let ms: u64 = arg(1).parse().unwrap_or(1500);
            // SAFETY: ignoring SIGCHLD changes no memory.
            unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
            stepper = Some(Box::new(move |tick, _| {
                if tick > 0 {
                    think_in_vanishing_children(ms);
                }
                false
            }));
        }
        "timer-storm" | "timerfd-storm" => {
            let storming = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            let (threads, ns) = (arg(1).parse().unwrap_or(8), arg(2).parse().unwrap_or(20_000));
            if attack == "timer-storm" {
                timer_storm(threads, ns, &storming);
            } else {
                timerfd_storm(threads, ns, &storming);
            }
            if arg(3) == "even-ticks" {
                stepper = Some(Box::new(move |tick, _| {
                    storming.store(tick % 2 == 0, std::sync::atomic::Ordering::Relaxed);
                    false
                }));
            }
        }
        "fine-timers" => worked = fine_timers(),
        "fds" => worked = open_fds().into_iter().any(|fd| fd > 2),
        "hog-cpu" => {
            // With `setsid`, each child in a session of its own: the scheduler's autogroups
            // then weigh each like a whole other program, not as a share of the bot's.
            let own_sessions = arg(2) == "setsid";
            for _ in 0..arg(1).parse().unwrap_or(60) {
                // SAFETY: the child only spins and never returns.
                if unsafe { libc::fork() } == 0 {
                    if own_sessions {
                        // SAFETY: setsid has no memory preconditions.
                        unsafe { libc::setsid() };
                    }
                    #[allow(clippy::empty_loop)]
                    loop {}
                }
            }
        }
        // Not an attack: thinks (sleeping) MS milliseconds over its first answer, a window in
        // which its opponent's CPU use is measured.
        "nap" => std::thread::sleep(Duration::from_millis(arg(1).parse().unwrap_or(1000))),
        "spill-stderr" => {
            // Not an attack: enlarges its stderr pipe to BYTES, fills it and quits at once, so
            // that its match ends while the arena still has all of it to read. Where it may not
            // enlarge it (no memory cgroup holds it), it says so and quits.
            let bytes: usize = arg(1).parse().unwrap_or(1 << 20);
            // SAFETY: fcntl on this process's own stderr.
            let size = unsafe { libc::fcntl(2, libc::F_SETPIPE_SZ, bytes as libc::c_int) };
            if size < 0 || (size as usize) < bytes {
                let why = std::io::Error::last_os_error();
                eprintln!("spill-stderr: the pipe could not be enlarged to {bytes} bytes: {why}");
                std::process::exit(0);
            }
            let _ = std::io::stderr().write_all(&vec![b'y'; bytes]);
            std::process::exit(0);
        }
        "flood-stderr" => {
            // Children each writing blocks of SIZE bytes to stderr, forever: the arena reads the
            // pipe in its own process. With SIZE 0, children that only wait (the control: as
            // many processes for the arena to watch, and no flood).
            let size: usize = arg(2).parse().unwrap_or(8192);
            for _ in 0..arg(1).parse().unwrap_or(60) {
                // SAFETY: the child only waits, or writes from its own buffer, and never returns.
                if unsafe { libc::fork() } == 0 {
                    if size == 0 {
                        loop {
                            // SAFETY: pause takes nothing.
                            unsafe { libc::pause() };
                        }
                    }
                    let block = vec![b'x'; size];
                    loop {
                        // SAFETY: writes from a valid buffer of `size` bytes.
                        if unsafe { libc::write(2, block.as_ptr().cast(), size) } < 0 {
                            std::process::exit(0);
                        }
                    }
                }
            }
        }
        "trickle-stderr" => {
            // At each tick (the first ANSWERS only, when given), for MS milliseconds of its own
            // answer time, stderr one byte at a time, each once the arena has read the last:
            // every read of the arena's then finds one byte, however its throttle counts bytes.
            let ms: u64 = arg(1).parse().unwrap_or(250);
            let answers: u32 = arg(2).parse().unwrap_or(u32::MAX);
            stepper = Some(Box::new(move |tick, _| {
                if tick > 0 && tick <= answers {
                    trickle_stderr(Duration::from_millis(ms));
                }
                false
            }));
        }
        // Played after the last answer, in `main`.
        "flood-at-end" => {}
        "hide-memory" => worked = hide_memory(&arg(1), arg(2).parse().unwrap_or(192)),
        // As `hide-memory`, then never answers: the monitor looks at what it holds until the
        // move's time is up (`timeout`), or ends it first (`memory`).
        "hide-memory-and-wait" => {
            hide_memory(&arg(1), arg(2).parse().unwrap_or(192));
            std::thread::sleep(Duration::from_secs(600));
        }
        "page-out" => worked = page_out(),
        "splice" => worked = splice_calls(),
        "fd-passing" => worked = fd_passing(),
        "kernel-objects" => worked = kernel_objects(),
        "userns" => worked = user_namespace(),
        "direct-io" => worked = direct_io(),
        "disk-calls" => worked = disk_calls(&arg(1)),
        // Not an attack: answers WAIT to every tick (an opponent for a test of the arena's own).
        "wait" => {}
        // `stall-looks P M D RES_MB HOLD_MS AT`: see `stall_looks`.
        "stall-looks" => {
            let n = |i: usize, default: u64| arg(i).parse().unwrap_or(default);
            let (reserve, hold, at) = (n(4, 900) << 20, n(5, 60), n(6, 3) as u32);
            let hold_for = Duration::from_millis(hold);
            let go = stall_looks(n(1, 5) as usize, n(2, 300) as usize, n(3, 200) as usize, reserve as usize, hold_for);
            stepper = Some(Box::new(move |tick, _| {
                if tick == at {
                    if let Some(go) = go {
                        // SAFETY: writes from a valid buffer to a pipe of its own.
                        unsafe { libc::write(go, [b'g'; 64].as_ptr().cast(), 64) };
                    }
                    eprintln!("stall-looks: each child holds {} MiB for {hold} ms", reserve >> 20);
                }
                false
            }));
        }
        // Not an attack: reads 4 KiB at random offsets of FILE for a second, and says how many
        // (`disk-reads: N in 1 s`).
        "disk-reads" => disk_reads(&arg(1)),
        // At its second tick: ignores `SIGCHLD` (so the kernel reaps its children itself), says
        // whether that took (`sigchld: ignored` or `sigchld: default`), thinks MS milliseconds of
        // CPU in short-lived children (see `reaped_think`), and answers.
        "reaped-think" => {
            let ms: u64 = arg(1).parse().unwrap_or(1500);
            stepper = Some(Box::new(move |tick, _| {
                if tick == 2 {
                    reaped_think(ms);
                }
                false
            }));
        }
        // At its second tick (once its opponent plays), forks children that wait until the
        // match ends, as many as it may (at most 10,000), and says how many on stderr,
        // with its process limit (`fork-all: forked N under a limit of L`).
        "fork-all" => {
            stepper = Some(Box::new(|tick, _| {
                if tick == 2 {
                    let mut forked = 0;
                    for _ in 0..10_000 {
                        // SAFETY: the child only waits for a signal and exits.
                        match unsafe { libc::fork() } {
                            0 => loop {
                                // SAFETY: pause has no preconditions.
                                unsafe { libc::pause() };
                            },
                            pid if pid < 0 => break,
                            _ => forked += 1,
                        }
                    }
                    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
                    // SAFETY: one rlimit we own.
                    unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut limit) };
                    eprintln!("fork-all: forked {forked} under a limit of {}", limit.rlim_cur);
                }
                false
            }));
        }
        // Not an attack: thinks on a thread of its own at every tick, as a bot of a runtime with
        // threads does, and exits (a crash) where it cannot make one.
        "thread-each-tick" => {
            stepper = Some(Box::new(|tick, _| {
                if std::thread::Builder::new()
                    .spawn(|| ())
                    .and_then(|t| t.join().map_err(|_| std::io::ErrorKind::Other.into()))
                    .is_err()
                {
                    eprintln!("thread-each-tick: no thread at tick {tick}: {}", std::io::Error::last_os_error());
                    std::process::exit(3);
                }
                false
            }));
        }
        // Not an attack: says what `setsid` answered a child of its (`setsid: ok`, or the errno's
        // name), then, with `ignore-sigchld`, ignores `SIGCHLD`, and sleeps MS milliseconds (0)
        // before its first answer, and plays on.
        "setsid" => {
            // SAFETY: the child makes raw calls only and exits.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                // SAFETY: setsid and _exit pass no memory.
                unsafe {
                    let code = if libc::setsid() < 0 { std::io::Error::last_os_error().raw_os_error() } else { None };
                    libc::_exit(code.unwrap_or(0));
                }
            }
            let mut status = 0;
            // SAFETY: waits for its own child, writing its status into a local.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
            eprintln!("setsid: {}", answer(code == 0, code));
            if arg(1) == "ignore-sigchld" {
                // SAFETY: sets a signal's disposition to ignored, no handler.
                unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
            }
            std::thread::sleep(Duration::from_millis(arg(2).parse().unwrap_or(0)));
        }
        "sysv-ipc" => worked = system_v_ipc(),
        "mq-left" => worked = posix_queue_left(&arg(1)),
        // Not an attack: exits (a crash) unless its threads and a child process work.
        "threads-and-children" => threads_and_children(),
        "hog-memory" => {
            let mb: usize = arg(2).parse().unwrap_or(100);
            // Each child says on a pipe when it holds its memory; the bot waits for all of them
            // (however loaded the machine), then a little longer for the arena to notice, before
            // the game goes on. A child killed for memory never tells: the bot then waits 3 s at
            // most.
            let mut ends = [0; 2];
            // SAFETY: pipe writes two descriptors into the array.
            unsafe { libc::pipe(ends.as_mut_ptr()) };
            for _ in 0..arg(1).parse().unwrap_or(30) {
                // SAFETY: the child allocates, touches, tells and sleeps; it never returns.
                if unsafe { libc::fork() } == 0 {
                    let hold = move || {
                        let hoard = vec![1u8; mb << 20];
                        std::hint::black_box(&hoard);
                        // SAFETY: writes one byte from a valid buffer.
                        unsafe { libc::write(ends[1], b"!".as_ptr().cast(), 1) };
                        std::thread::sleep(Duration::from_secs(600));
                        std::process::exit(0);
                    };
                    if arg(3) != "leaderless" {
                        hold();
                    }
                    // `hog-memory N MB leaderless`: a thread holds it, and the first thread
                    // ends (the `exit` system call, as `pthread_exit`): the process's stat
                    // then shows a zombie of no memory.
                    std::thread::spawn(hold);
                    // SAFETY: ends this thread only; the other keeps the process.
                    unsafe { libc::syscall(libc::SYS_exit, 0) };
                }
            }
            // SAFETY: closes the bot's own copy of the write end.
            unsafe { libc::close(ends[1]) };
            let mut told = [0u8; 64];
            let mut held = 0;
            let deadline = std::time::Instant::now() + Duration::from_secs(3);
            while held < arg(1).parse().unwrap_or(30) {
                let left = deadline.saturating_duration_since(std::time::Instant::now()).as_millis() as i32;
                let mut ready = libc::pollfd { fd: ends[0], events: libc::POLLIN, revents: 0 };
                // SAFETY: polls one valid pollfd; reads into a valid buffer of its length.
                let n = unsafe {
                    if left == 0 || libc::poll(&mut ready, 1, left) <= 0 {
                        break;
                    }
                    libc::read(ends[0], told.as_mut_ptr().cast(), told.len())
                };
                if n <= 0 {
                    break;
                }
                held += n as usize;
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        "quit-busy" => {
            for k in 0..8 {
                // SAFETY: the child writes and syncs until killed; it never returns.
                if unsafe { libc::fork() } == 0 {
                    let home = std::env::var("HOME").unwrap_or_else(|_| "/tmp".to_string());
                    let path = format!("{home}/zoo-sync-{}-{k}", std::process::id());
                    let block = vec![1u8; 1 << 20];
                    loop {
                        if let Ok(mut f) = std::fs::File::create(&path) {
                            for _ in 0..8 {
                                let _ = f.write_all(&block);
                            }
                            let _ = f.sync_all();
                        }
                    }
                }
            }
            stepper = Some(Box::new(|tick, _| if tick >= 3 { std::process::exit(0) } else { false }));
        }
        "forge-memory" => {
            // Every line a runtime writes when it runs out of memory, then an ordinary exit:
            // none of it is the box running out of memory.
            let said = "memory allocation of 67108864 bytes failed\nstd::bad_alloc\nMemoryError\n\
                        Cannot allocate memory\nout of memory\n";
            let _ = std::io::stderr().write_all(said.as_bytes());
            std::process::exit(1);
        }
        "forge-cpu" => {
            // The CPU-time limit's signal, sent to itself without using any CPU time.
            // SAFETY: raise has no memory preconditions.
            unsafe { libc::raise(libc::SIGXCPU) };
        }
        "seed" => stepper = Some(predict_random(arg(1).parse().ok())),
        "rewrite-tests" => rewrite_tests(&arg(1)),
        "rig-map" => {
            // Makes every cell around the start a wall and the final unreachable.
            worked = std::fs::read_to_string(arg(1))
                .map(|t| t.replace(" 0 ", " W "))
                .and_then(|t| std::fs::write(arg(1), t))
                .is_ok();
        }
        _ => {
            eprintln!("zoo-attack: unknown attack `{attack}`");
            std::process::exit(2);
        }
    }
    (worked, stepper)
}

/// `aio`: sets up a kernel AIO context (and lets it go): what two boxes talked through, by the
/// machine's count of them (`/proc/sys/fs/aio-nr`). Says the errno on stderr; gets through
/// unless refused with `ENOSYS` (the box's answer, as on a kernel without AIO).
/// `socket-filter`: a classic BPF program attached to a socket of its own (`SO_ATTACH_FILTER`),
/// which takes kernel memory and room in the machine's JIT; gets through when attached.
fn socket_filter() -> bool {
    let mut ends = [0; 2];
    // SAFETY: socketpair writes two descriptors into the array.
    if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0, ends.as_mut_ptr()) } != 0 {
        return false;
    }
    // One instruction: accept every packet whole.
    let mut code = [libc::sock_filter { code: (libc::BPF_RET | libc::BPF_K) as u16, jt: 0, jf: 0, k: u32::MAX }];
    let program = libc::sock_fprog { len: 1, filter: code.as_mut_ptr() };
    let size = std::mem::size_of::<libc::sock_fprog>() as libc::socklen_t;
    // SAFETY: setsockopt reads a sock_fprog we own, whose filter outlives the call.
    let attached = unsafe {
        libc::setsockopt(ends[0], libc::SOL_SOCKET, libc::SO_ATTACH_FILTER, (&raw const program).cast(), size)
    } == 0;
    if attached {
        eprintln!("zoo-attack: attached a socket filter");
    } else {
        eprintln!("zoo-attack: socket filter: {}", std::io::Error::last_os_error());
    }
    attached
}

/// `udp`, `tcp` and `vsock`: a socket of a family its box may not make: an IP socket (`udp`),
/// whose memory no monitor of a box without a memory cgroup dumps (nor may a plain bot make
/// one, `tcp` too: it reaches the network), and one of `AF_VSOCK`, a family no network
/// namespace holds (a box reached the host's vsock so). Gets through when it is made.
fn a_socket(family: libc::c_int, kind: libc::c_int, what: &str) -> bool {
    // SAFETY: socket takes no pointer; a descriptor it gives is closed.
    let fd = unsafe { libc::socket(family, kind | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        eprintln!("zoo-attack: {what}: {}", std::io::Error::last_os_error());
        return false;
    }
    // SAFETY: closes the descriptor just made.
    unsafe { libc::close(fd) };
    eprintln!("zoo-attack: {what}: made");
    true
}

/// An IP stream socket of `protocol` (MPTCP, 262), outside Landlock's TCP rights.
fn a_protocol_socket(protocol: libc::c_int, what: &str) -> bool {
    // SAFETY: socket takes no pointer; a descriptor it gives is closed.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, protocol) };
    if fd < 0 {
        eprintln!("zoo-attack: {what}: {}", std::io::Error::last_os_error());
        return false;
    }
    // SAFETY: closes the descriptor just made.
    unsafe { libc::close(fd) };
    true
}

/// Sets `user.zoo` on `path` through `setxattrat` (463, Linux 6.13), which older filters did not
/// name; true when it was set.
fn set_xattr_at(path: &str) -> bool {
    #[repr(C)]
    struct XattrArgs {
        value: u64,
        size: u32,
        flags: u32,
    }
    let (Ok(path), Ok(name)) = (CString::new(path), CString::new("user.zoo")) else { return false };
    let value = *b"x";
    let args = XattrArgs { value: value.as_ptr() as u64, size: 1, flags: 0 };
    // SAFETY: setxattrat reads the path, the name and `args` (with the value it points to), all ours.
    let set = unsafe {
        libc::syscall(
            463,
            libc::AT_FDCWD,
            path.as_ptr(),
            0,
            name.as_ptr(),
            &raw const args,
            std::mem::size_of::<XattrArgs>(),
        )
    };
    if set != 0 {
        eprintln!("zoo-attack: setxattrat: {}", std::io::Error::last_os_error());
    }
    set == 0
}

fn aio_context() -> bool {
    let mut ctx: libc::c_ulong = 0;
    // SAFETY: io_setup writes the context's id into `ctx`; io_destroy takes it back.
    let made = unsafe { libc::syscall(libc::SYS_io_setup, 64, &raw mut ctx) } == 0;
    if made {
        // SAFETY: as above.
        unsafe { libc::syscall(libc::SYS_io_destroy, ctx) };
        eprintln!("zoo-attack: io_setup made an AIO context");
    } else {
        let error = std::io::Error::last_os_error();
        eprintln!("zoo-attack: io_setup: {error}");
        return error.raw_os_error() != Some(libc::ENOSYS);
    }
    made
}

/// `xattr MIB [own-tmpfs]`: empty files in its scratch (`$TMPDIR`), each with 4000-byte
/// `user.N` attributes, until refused or `mib` MiB are held: kernel memory that neither the
/// scratch's size cap nor the box's resident memory counts. Says on stderr how much it held,
/// and gets through at `mib`. With `own-tmpfs` (the control) it writes into a tmpfs of its
/// own, sized as a bot's scratch (64 MiB) but without a cap on its files, in a mount namespace
/// of its own (a user namespace too where it is not root).
fn hold_xattrs(mib: usize, own_tmpfs: bool) -> bool {
    let mut dir = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".to_string());
    if own_tmpfs {
        match own_tmpfs_at(&format!("{dir}/zoo-xattr-{}", std::process::id())) {
            Ok(at) => dir = at,
            Err(e) => {
                eprintln!("zoo-attack: no tmpfs of its own: {e}");
                return false;
            }
        }
    }
    let value = [7u8; 4000];
    let (mut held, goal) = (0usize, mib << 20);
    'files: for k in 0.. {
        let path = format!("{dir}/zoo-xattr-{}-{k}", std::process::id());
        if std::fs::File::create(&path).is_err() {
            break;
        }
        let Ok(path) = CString::new(path) else { break };
        for n in 0..64 {
            let name = CString::new(format!("user.{n}")).unwrap_or_default();
            // SAFETY: valid strings and a buffer of the given length.
            let set = unsafe { libc::setxattr(path.as_ptr(), name.as_ptr(), value.as_ptr().cast(), value.len(), 0) };
            if set != 0 {
                if n == 0 {
                    break 'files;
                }
                continue 'files;
            }
            held += value.len();
            if held >= goal {
                break 'files;
            }
        }
    }
    eprintln!("zoo-attack: held {} MiB of extended attributes in {dir}", held >> 20);
    if own_tmpfs {
        // (Its memory back at once, and no folder left behind.)
        if let Ok(at) = CString::new(dir.clone()) {
            // SAFETY: a valid string.
            unsafe { libc::umount2(at.as_ptr(), libc::MNT_DETACH) };
        }
        let _ = std::fs::remove_dir(&dir);
    }
    held >= goal
}

/// Mounts a 64 MiB tmpfs without `nr_inodes` at `dir` (made), in a mount namespace of this
/// process's own (and a user namespace, where it is not root); returns `dir`.
fn own_tmpfs_at(dir: &str) -> std::io::Result<String> {
    let check = |r: libc::c_int| if r == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) };
    // SAFETY: plain system calls on valid strings.
    unsafe {
        let (uid, gid) = (libc::getuid(), libc::getgid());
        if uid == 0 {
            check(libc::unshare(libc::CLONE_NEWNS))?;
        } else {
            check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
            std::fs::write("/proc/self/setgroups", "deny")?;
            std::fs::write("/proc/self/uid_map", format!("0 {uid} 1"))?;
            std::fs::write("/proc/self/gid_map", format!("0 {gid} 1"))?;
        }
        // (Nothing it mounts reaches the machine's own namespace.)
        check(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
        std::fs::create_dir_all(dir)?;
        let at = CString::new(dir)?;
        check(libc::mount(c"tmpfs".as_ptr(), at.as_ptr(), c"tmpfs".as_ptr(), 0, c"size=64m".as_ptr().cast()))?;
    }
    Ok(dir.to_string())
}

fn parse_signal(name: &str) -> i32 {
    match name {
        "STOP" => libc::SIGSTOP,
        "TERM" => libc::SIGTERM,
        _ => libc::SIGKILL,
    }
}

/// Pids of the processes this one can see whose program name contains `needle` (all of them
/// for an empty needle), itself excluded.
fn find(needle: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            // The program's name (argv[0]), not its arguments: the arena names its bots there.
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
                let argv0 = c.split(|&b| b == 0).next().unwrap_or_default();
                needle.is_empty() || argv0.windows(needle.len()).any(|w| w == needle.as_bytes())
            })
        })
        .collect()
}

fn signal_processes(needle: &str, sig: i32) {
    for pid in find(needle) {
        // SAFETY: kill has no memory preconditions.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// Reads the victim's answers off its stdout, and keeps putting `MOVE 0 0` there.
fn steal_answers(pipe: std::fs::File) {
    if let Ok(mut reader) = pipe.try_clone() {
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while reader.read(&mut buf).is_ok_and(|n| n > 0) {}
        });
    }
    let mut pipe = pipe;
    while pipe.write_all(b"MOVE 0 0\n").is_ok() {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Reads a page of `pid`'s memory with `process_vm_readv`.
fn read_memory(pid: i32) -> bool {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    let Some(start) =
        maps.lines().next().and_then(|l| l.split('-').next()).and_then(|a| usize::from_str_radix(a, 16).ok())
    else {
        return false;
    };
    let mut buf = [0u8; 64];
    let local = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
    let remote = libc::iovec { iov_base: start as *mut libc::c_void, iov_len: buf.len() };
    // SAFETY: the local buffer is ours and as long as said.
    unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) > 0 }
}

/// A daemon that leaves the bot's session and group (double fork, setsid) and runs
/// `sleep MARKER`; it also tries to leave the box's cgroups for the root ones.
fn daemon(marker: &str) {
    // SAFETY: fork/setsid/exec in a plain child.
    unsafe {
        if libc::fork() == 0 {
            libc::setsid();
            if libc::fork() == 0 {
                for procs in [
                    "/sys/fs/cgroup/cgroup.procs",
                    "/sys/fs/cgroup/pids/cgroup.procs",
                    "/sys/fs/cgroup/unified/cgroup.procs",
                ] {
                    let _ = std::fs::write(procs, libc::getpid().to_string());
                }
                let sleep = CString::new("sleep").unwrap_or_default();
                let arg = CString::new(marker).unwrap_or_default();
                let argv = [sleep.as_ptr(), arg.as_ptr(), std::ptr::null()];
                libc::execvp(sleep.as_ptr(), argv.as_ptr());
            }
            libc::_exit(0);
        }
    }
}

/// Two copies of this bot, one per seat, try to talk: seat 1 offers, seat 2 listens for 40
/// ticks, through an abstract Unix socket, a file in /tmp, or SysV shared memory; or through
/// a system file both boxes see (read only, the same file): a lock seat 1 holds on it that seat
/// 2 sees (`flock`, `posix-lock`, `ofd-lock`), or seat 1 reading it every tick, which seat 2
/// is told of (`inotify`, `dnotify` on its folder, `fanotify`); or through a count the kernel
/// keeps per user, which seat 1 fills and seat 2 finds full (see [`fill_a_user_count`]).
fn talk(how: &str, token: &str) -> Stepper {
    let seat = std::env::var("ARENA_PLAYER").unwrap_or_default();
    if ["flock", "posix-lock", "ofd-lock", "inotify", "dnotify", "fanotify"].contains(&how) {
        return if seat == "1" { offer_on_a_shared_file(how) } else { listen_on_a_shared_file(how) };
    }
    if USER_COUNTS.contains(&how) {
        return if seat == "1" { fill_a_user_count(how) } else { find_a_user_count_full(how) };
    }
    let how = how.to_string();
    let key: libc::key_t = token.bytes().fold(0x5a00_0001_i32, |k, b| k.wrapping_mul(31).wrapping_add(b as i32));
    let file = format!("/tmp/arena-zoo-talk-{token}");
    let name = format!("\0arena-zoo-talk-{token}").into_bytes();
    let addr = {
        // SAFETY: a zeroed sockaddr_un is valid.
        let mut a: libc::sockaddr_un = unsafe { std::mem::zeroed() };
        a.sun_family = libc::AF_UNIX as libc::sa_family_t;
        for (d, s) in a.sun_path.iter_mut().zip(&name) {
            *d = *s as libc::c_char;
        }
        a
    };
    let len = (std::mem::size_of::<libc::sa_family_t>() + name.len()) as libc::socklen_t;
    if seat == "1" {
        match how.as_str() {
            // SAFETY: socket calls on our own descriptor and address.
            "abstract" => unsafe {
                let fd = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                libc::bind(fd, std::ptr::addr_of!(addr).cast(), len);
                libc::listen(fd, 4);
            },
            "tmp" => {
                let _ = std::fs::write(&file, "hello");
            }
            // SAFETY: a new segment; nothing is attached.
            "shm" => unsafe {
                libc::shmget(key, 4096, libc::IPC_CREAT | 0o666);
            },
            _ => {}
        }
        return Box::new(|_, _| false);
    }
    Box::new(move |tick, _| {
        if tick > 40 {
            return false;
        }
        match how.as_str() {
            // SAFETY: socket calls on our own descriptor and address.
            "abstract" => unsafe {
                let fd = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                let ok = libc::connect(fd, std::ptr::addr_of!(addr).cast(), len) == 0;
                libc::close(fd);
                ok
            },
            // Heard: clean up what the control left on the host.
            "tmp" => std::fs::remove_file(&file).is_ok(),
            // SAFETY: looks a segment up and removes it; nothing is attached.
            "shm" => unsafe {
                let id = libc::shmget(key, 0, 0);
                id >= 0 && libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) == 0
            },
            _ => false,
        }
    })
}

/// The system file the attacks of [`talk`] through a shared file use: there on every system
/// (the `#!/usr/bin/env` of scripts), and locked or watched by nothing else.
const SHARED: &str = "/usr/bin/env";

/// The lock `fcntl` takes (a read lock: the file is open read only) or asks about, on all
/// of the file.
fn whole_file(kind: libc::c_short) -> libc::flock {
    // SAFETY: a zeroed flock is valid (start 0, length 0: the whole file; pid 0, as OFD locks
    // require).
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = kind;
    lock.l_whence = libc::SEEK_SET as libc::c_short;
    lock
}

/// Seat 1 of [`talk`] through [`SHARED`]: holds a lock on it for the whole match, or reads
/// it at every tick.
fn offer_on_a_shared_file(how: &str) -> Stepper {
    let Ok(file) = std::fs::File::open(SHARED) else { return Box::new(|_, _| false) };
    let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
    let lock = whole_file(libc::F_RDLCK as libc::c_short);
    // SAFETY: lock calls on our own descriptor, kept open for the match.
    match how {
        "flock" => unsafe {
            libc::flock(fd, libc::LOCK_EX);
        },
        "posix-lock" => unsafe {
            libc::fcntl(fd, libc::F_SETLK, &lock);
        },
        "ofd-lock" => unsafe {
            libc::fcntl(fd, libc::F_OFD_SETLK, &lock);
        },
        _ => {
            return Box::new(|_, _| {
                let _ = std::fs::File::open(SHARED).and_then(|mut f| f.read(&mut [0u8; 16]));
                false
            })
        }
    }
    Box::new(|_, _| false)
}

/// Seat 2 of [`talk`] through [`SHARED`]: whether, at a tick, it sees seat 1's lock, or has
/// been told of a use of the file (of its folder, for dnotify) since the last one.
fn listen_on_a_shared_file(how: &str) -> Stepper {
    let Ok(path) = CString::new(SHARED) else { return Box::new(|_, _| false) };
    let Ok(file) = std::fs::File::open(SHARED) else { return Box::new(|_, _| false) };
    let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
    // (A descriptor a refused call did not give is -1: reading it tells nothing.)
    let told = match how {
        // SAFETY: sets up a watch on a path of our own; no memory is kept by the kernel.
        "inotify" => unsafe {
            let watch = libc::inotify_init1(libc::IN_NONBLOCK);
            libc::inotify_add_watch(watch, path.as_ptr(), libc::IN_OPEN | libc::IN_ACCESS);
            watch
        },
        // SAFETY: as above.
        "fanotify" => unsafe {
            let flags = libc::FAN_CLASS_NOTIF | libc::FAN_NONBLOCK | libc::FAN_REPORT_FID;
            let watch = libc::fanotify_init(flags, libc::O_RDONLY as libc::c_uint);
            let what = libc::FAN_OPEN | libc::FAN_ACCESS;
            libc::fanotify_mark(watch, libc::FAN_MARK_ADD, what, libc::AT_FDCWD, path.as_ptr());
            watch
        },
        "dnotify" => {
            // Told by SIGIO, blocked and left pending (its default would end the bot).
            const DN_ACCESS: libc::c_int = 1;
            const DN_MULTISHOT: libc::c_int = 0x8000_0000_u32 as libc::c_int;
            let folder = std::path::Path::new(SHARED).parent().map(|p| p.as_os_str().as_bytes().to_vec());
            let folder = CString::new(folder.unwrap_or_default()).unwrap_or_default();
            // SAFETY: a signal set of our own; a descriptor of our own, kept for the match.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGIO);
                libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
                let dir = libc::open(folder.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
                libc::fcntl(dir, libc::F_NOTIFY, DN_ACCESS | DN_MULTISHOT);
            }
            -1
        }
        _ => -1,
    };
    let how = how.to_string();
    Box::new(move |tick, _| {
        if tick > 40 {
            return false;
        }
        let mut events = [0u8; 4096];
        let mut asked = whole_file(libc::F_WRLCK as libc::c_short);
        // SAFETY: calls on our own descriptors and buffers, of the lengths given.
        unsafe {
            match how.as_str() {
                "flock" => {
                    let free = libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) == 0;
                    let held = !free && std::io::Error::last_os_error().raw_os_error() == Some(libc::EWOULDBLOCK);
                    if free {
                        libc::flock(fd, libc::LOCK_UN);
                    }
                    held
                }
                "posix-lock" => {
                    libc::fcntl(fd, libc::F_GETLK, &mut asked) == 0 && asked.l_type != libc::F_UNLCK as libc::c_short
                }
                "ofd-lock" => {
                    libc::fcntl(fd, libc::F_OFD_GETLK, &mut asked) == 0
                        && asked.l_type != libc::F_UNLCK as libc::c_short
                }
                "dnotify" => {
                    let mut pending: libc::sigset_t = std::mem::zeroed();
                    libc::sigpending(&mut pending) == 0 && libc::sigismember(&pending, libc::SIGIO) == 1
                }
                _ => told >= 0 && libc::read(told, events.as_mut_ptr().cast(), events.len()) > 0,
            }
        }
    })
}

/// Tries to get out of the box: into any other network namespace it can see (then reaches
/// 127.0.0.1:`port`), or by making the folder holding `path` writable and writing there.
fn escape(port: &str, path: &str) -> bool {
    let connect = || {
        std::net::TcpStream::connect_timeout(&format!("127.0.0.1:{port}").parse().unwrap(), Duration::from_millis(300))
            .is_ok()
    };
    if connect() {
        return true;
    }
    for pid in find("") {
        if let Ok(ns) = std::fs::File::open(format!("/proc/{pid}/ns/net")) {
            // SAFETY: setns on a descriptor we own.
            if unsafe { libc::setns(std::os::fd::AsRawFd::as_raw_fd(&ns), libc::CLONE_NEWNET) } == 0 && connect() {
                return true;
            }
        }
    }
    let dir = std::path::Path::new(path).parent().map(|d| d.as_os_str().as_bytes().to_vec()).unwrap_or_default();
    let dir = CString::new(dir).unwrap_or_default();
    // SAFETY: mount(2) with valid C strings or nulls.
    unsafe {
        libc::mount(
            std::ptr::null(),
            dir.as_ptr(),
            std::ptr::null(),
            libc::MS_REMOUNT | libc::MS_BIND,
            std::ptr::null(),
        );
        libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS);
        libc::mount(
            std::ptr::null(),
            dir.as_ptr(),
            std::ptr::null(),
            libc::MS_REMOUNT | libc::MS_BIND,
            std::ptr::null(),
        );
    }
    std::fs::OpenOptions::new().append(true).open(path).and_then(|mut f| f.write_all(b"escaped\n")).is_ok()
}

/// Queues a command line into the controlling terminal's input (`TIOCSTI`).
fn tiocsti() -> bool {
    let Ok(tty) = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty") else { return false };
    let fd = std::os::fd::AsRawFd::as_raw_fd(&tty);
    b"echo INJECTED\n".iter().all(|c| {
        // SAFETY: TIOCSTI reads one byte from the pointer.
        unsafe { libc::ioctl(fd, libc::TIOCSTI, c as *const u8) == 0 }
    })
}

/// Leaves a note in the user's kernel keyring that any user may see and read: what a later
/// match's bot could find (see `find_key`).
fn leave_key(name: &str) -> bool {
    let (kind, desc, note) = (c"user", CString::new(format!("arena-note-{name}")).unwrap(), b"moves: 3 4 5");
    const KEY_SPEC_USER_KEYRING: libc::c_long = -4;
    const KEYCTL_SETPERM: libc::c_long = 5;
    // SAFETY: add_key reads the strings and the payload given with their lengths.
    let id = unsafe {
        libc::syscall(libc::SYS_add_key, kind.as_ptr(), desc.as_ptr(), note.as_ptr(), note.len(), KEY_SPEC_USER_KEYRING)
    };
    // SAFETY: KEYCTL_SETPERM takes two integers. Every permission to everyone.
    id > 0 && unsafe { libc::syscall(libc::SYS_keyctl, KEYCTL_SETPERM, id, 0x3f3f_3f3f_u32 as libc::c_long) } == 0
}

/// Finds a note `leave_key` left (in `/proc/keys`, as any user sees it) and removes it.
fn find_key(name: &str) -> bool {
    let listing = std::fs::read_to_string("/proc/keys").unwrap_or_default();
    let wanted = format!("arena-note-{name}:");
    let Some(line) = listing.lines().find(|l| l.contains(&wanted)) else { return false };
    if let Some(id) = line.split_whitespace().next().and_then(|id| i64::from_str_radix(id, 16).ok()) {
        const KEYCTL_INVALIDATE: libc::c_long = 21;
        // SAFETY: KEYCTL_INVALIDATE takes a key id.
        unsafe { libc::syscall(libc::SYS_keyctl, KEYCTL_INVALIDATE, id) };
    }
    true
}

/// Asks to run on every CPU of the machine (more than the one its match is kept on, where it
/// has more than one): whether the kernel let it.
/// Asks for every online CPU through system call `number` (`sched_setaffinity`'s).
fn widen_cpus(number: libc::c_long) -> bool {
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET writes within it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: sysconf has no preconditions.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }.max(1) as usize;
    for cpu in 0..online.min(libc::CPU_SETSIZE as usize) {
        // SAFETY: cpu is below CPU_SETSIZE.
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    // SAFETY: the set is a valid cpu_set_t of the size given.
    unsafe { libc::syscall(number, 0, std::mem::size_of::<libc::cpu_set_t>(), &set as *const libc::cpu_set_t) == 0 }
}

/// Thinks `ms` of CPU time in children of 10 ms each, which the kernel reaps as they end (the
/// bot ignores SIGCHLD): their time is added to no parent's, so a count of the CPU of the bot's
/// live processes and of the children they waited for (`/proc`, without cgroups) never sees it.
/// Where it may make no more children (they stay, as zombies, where it may not ignore SIGCHLD), it
/// stops there.
fn think_in_vanishing_children(ms: u64) {
    for _ in 0..ms.div_ceil(10) {
        let mut ends = [0; 2];
        // SAFETY: pipe writes two descriptors into the array.
        if unsafe { libc::pipe(ends.as_mut_ptr()) } != 0 {
            return;
        }
        // SAFETY: fork has no memory preconditions here; the child only spins, writes a byte and
        // exits.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            // SAFETY: closes the two descriptors just made.
            unsafe {
                libc::close(ends[0]);
                libc::close(ends[1]);
            }
            return;
        }
        if pid == 0 {
            spin_own_cpu(Duration::from_millis(10));
            // SAFETY: writes one byte from a valid buffer; leaves without the parent's destructors.
            unsafe {
                libc::write(ends[1], b"!".as_ptr().cast(), 1);
                libc::_exit(0);
            }
        }
        let mut done = [0u8; 1];
        // SAFETY: closes our copy of the write end, reads one byte into a valid buffer, closes.
        unsafe {
            libc::close(ends[1]);
            libc::read(ends[0], done.as_mut_ptr().cast(), 1);
            libc::close(ends[0]);
        }
    }
}

/// Spins until this process has used `cpu` more CPU time.
fn spin_own_cpu(cpu: Duration) {
    let now = || {
        // SAFETY: clock_gettime writes into the struct we own.
        let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    };
    let end = now() + cpu;
    let mut x = 0u64;
    while now() < end {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
    }
}

/// Sets its timer slack to 1 ns, by `prctl` and by `/proc/self/timerslack_ns`; true when it
/// is then below the box's 1 ms.
fn shrink_timer_slack() -> bool {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    let _ = std::fs::write("/proc/self/timerslack_ns", "1");
    // SAFETY: as above.
    let slack = unsafe { libc::prctl(libc::PR_GET_TIMERSLACK, 0, 0, 0, 0) };
    (0..1_000_000).contains(&slack)
}

/// `timer-storm THREADS NS [even-ticks]`: THREADS threads, each sleeping NS nanoseconds over
/// and over with a timer slack of 1 ns (when it may set it). Each sleep's end is an interrupt on
/// the CPU the match keeps to, where the opponent thinks: on a kernel that charges interrupts to
/// the process they interrupt, the opponent pays for them. With `even-ticks`, only from an even
/// tick to the next, while `storming` (the threads nap otherwise, see [`nap_unless`]): the
/// opponent's answers with and without the storm alternate, within one match.
fn timer_storm(threads: usize, ns: u64, storming: &std::sync::Arc<std::sync::atomic::AtomicBool>) {
    for _ in 0..threads {
        let storming = storming.clone();
        std::thread::spawn(move || {
            shrink_timer_slack();
            loop {
                nap_unless(&storming);
                std::thread::sleep(Duration::from_nanos(ns));
            }
        });
    }
}

/// Naps 50 ms at a time until `storming`.
fn nap_unless(storming: &std::sync::atomic::AtomicBool) {
    while !storming.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Writes stderr one byte at a time for `span` (wall time), each byte once the pipe is empty
/// again (`FIONREAD` on the writing end tells what the pipe holds), past the log's cap.
fn trickle_stderr(span: Duration) {
    let end = std::time::Instant::now() + span;
    while std::time::Instant::now() < end {
        // SAFETY: writes one byte from a valid buffer.
        if unsafe { libc::write(2, b"x".as_ptr().cast(), 1) } < 0 {
            return;
        }
        let mut held: libc::c_int = 1;
        // SAFETY: FIONREAD writes one int into `held`.
        while held > 0 && unsafe { libc::ioctl(2, libc::FIONREAD, &mut held) } == 0 {
            if std::time::Instant::now() >= end {
                return;
            }
            std::thread::yield_now();
        }
    }
}

/// `timerfd-storm THREADS NS [even-ticks]`: THREADS threads, each arming a one-shot timerfd NS
/// nanoseconds ahead and waiting for it, over and over, while `storming` (as [`timer_storm`]):
/// the timer slack does not delay a timerfd, so each expiry interrupts the match's CPU (as
/// `timer-storm`'s sleeps did before the box's slack).
fn timerfd_storm(threads: usize, ns: u64, storming: &std::sync::Arc<std::sync::atomic::AtomicBool>) {
    for _ in 0..threads {
        let storming = storming.clone();
        std::thread::spawn(move || {
            // SAFETY: plain calls on a descriptor of our own, with valid pointers.
            unsafe {
                let fd = libc::timerfd_create(libc::CLOCK_MONOTONIC, 0);
                if fd < 0 {
                    return;
                }
                let zero = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                let soon = libc::timespec { tv_sec: 0, tv_nsec: ns as libc::c_long };
                let once = libc::itimerspec { it_interval: zero, it_value: soon };
                let mut expiries = 0u64;
                loop {
                    nap_unless(&storming);
                    libc::timerfd_settime(fd, 0, &once, std::ptr::null_mut());
                    libc::read(fd, (&mut expiries as *mut u64).cast(), 8);
                }
            }
        });
    }
}

/// Whether any timer the timer slack does not delay could be armed 20 us ahead: a timerfd, a
/// POSIX timer or `setitimer`'s real-time timer.
fn fine_timers() -> bool {
    // SAFETY: plain calls with valid pointers; the timers are disarmed or never fire (SIGALRM is
    // ignored for the real-time one).
    unsafe {
        let fd = libc::timerfd_create(libc::CLOCK_MONOTONIC, 0);
        let timerfd = fd >= 0;
        if timerfd {
            libc::close(fd);
        }
        let mut id: libc::timer_t = std::ptr::null_mut();
        let mut event: libc::sigevent = std::mem::zeroed();
        event.sigev_notify = libc::SIGEV_NONE;
        let posix = libc::timer_create(libc::CLOCK_MONOTONIC, &mut event, &mut id) == 0;
        if posix {
            libc::timer_delete(id);
        }
        libc::signal(libc::SIGALRM, libc::SIG_IGN);
        let value = libc::itimerval {
            it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
            it_value: libc::timeval { tv_sec: 0, tv_usec: 20 },
        };
        let real = libc::setitimer(libc::ITIMER_REAL, &value, std::ptr::null_mut()) == 0;
        timerfd || posix || real
    }
}

fn open_fds() -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else { return Vec::new() };
    let listing: Vec<i32> = entries.flatten().filter_map(|e| e.file_name().to_str()?.parse().ok()).collect();
    // The listing's own descriptor is open while it is read: keep those still open now.
    listing
        .into_iter()
        // SAFETY: F_GETFD only queries.
        .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0)
        .collect()
}

/// Predicts the moves of a `random` opponent from a guess of its seed (`ARENA_SEED` + 1, as
/// if seats' seeds were consecutive; or `known`), and says so when ten predictions in a row
/// came true.
fn predict_random(known: Option<u64>) -> Stepper {
    let mine: u64 = std::env::var("ARENA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut rng = StdRng::seed_from_u64(known.unwrap_or(mine.wrapping_add(1)));
    let mut theirs: Option<GameState> = None;
    let mut predicted: Option<Action> = None;
    let mut right = 0;
    Box::new(move |tick, line| {
        if tick == 0 {
            // The opponent's header: the two start lines swapped.
            let mut lines: Vec<&str> = line.lines().collect();
            if lines.len() > 3 {
                lines.swap(1, 2);
            }
            theirs = GameState::from_header(&(lines.join("\n") + "\n"), Mode::Duel).ok();
            return false;
        }
        let Some(state) = theirs.as_mut() else { return false };
        let seen = bot_sdk::state::parse_tick(line).map(|(_, a)| a).unwrap_or(Action::Wait);
        if tick > 1 && Some(seen) == predicted {
            right += 1;
        }
        // It saw our WAITs.
        state.on_tick(tick, Action::Wait);
        let moves = state.safe_moves();
        let next = if moves.is_empty() { Action::Wait } else { Action::Move(moves[rng.random_range(0..moves.len())]) };
        state.commit(next);
        predicted = Some(next);
        right >= 10
    })
}

/// In test mode: rewrites every other test of the folder so that it is trivially passed.
fn rewrite_tests(dir: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("test") && name.ends_with(".txt") {
            // The bot starts on the final: it finishes after tick 1 by waiting.
            let _ = std::fs::write(e.path(), "ARENA 1 2 5\n0 0\n0 1\n0 0\nMAP\n0 0\nEND_MAP\nSTREAM\nTICK 1 WAIT\n");
        } else if name == "limite_minime.txt" {
            let _ = std::fs::write(e.path(), "");
        }
    }
}

/// The counts the kernel keeps per user, and checks against the limits of whoever asks: queued
/// signals (`RLIMIT_SIGPENDING`), bytes of POSIX message queues (`RLIMIT_MSGQUEUE`) and locked
/// shared memory (`RLIMIT_MEMLOCK`, by `SHM_LOCK`). A user namespace's counts are added to its
/// owner's too, and checked against the limits its creator had: every box of an unprivileged
/// arena counts for the arena's user.
const USER_COUNTS: [&str; 3] = ["sigpending", "mqueue", "shm-lock"];

/// The tick at which seat 1 of [`talk`] fills a count: seat 2 has tried it before (the ticks
/// of both seats go in step: the next tick is sent once both have answered).
const FILL_TICK: u32 = 4;

/// `shmctl`'s commands to lock and unlock a segment's pages (`linux/shm.h`).
const SHM_LOCK: libc::c_int = 11;
const SHM_UNLOCK: libc::c_int = 12;

/// Takes one more unit of the count `how` names (`sigpending`: a queued real-time signal,
/// blocked, so that it stays pending; `mqueue`: a queue of 10 messages of 8 KiB, the most an
/// unprivileged program may ask, named `name`; `shm-lock`: a lock on a segment of `pages`
/// pages, never touched, so that it holds no memory). Returns whether the kernel gave it, and
/// what to give back with [`give_back`].
fn take_one(how: &str, name: &str, pages: usize) -> (bool, libc::c_int) {
    // SAFETY: plain calls on this process's own signal mask, queues and segments, with valid
    // pointers.
    unsafe {
        match how {
            "sigpending" => {
                let set = rt_min_set();
                libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
                let mut info: libc::siginfo_t = std::mem::zeroed();
                info.si_signo = libc::SIGRTMIN();
                info.si_code = -1; // SI_QUEUE: what `sigqueue` sends, counted against the limit
                let me = libc::getpid();
                (libc::syscall(libc::SYS_rt_sigqueueinfo, me, libc::SIGRTMIN(), &info) == 0, 0)
            }
            "mqueue" => {
                let Ok(path) = CString::new(format!("/{name}")) else { return (false, -1) };
                let mut attr: libc::mq_attr = std::mem::zeroed();
                attr.mq_maxmsg = 10;
                attr.mq_msgsize = 8192;
                let flags = libc::O_CREAT | libc::O_EXCL | libc::O_RDWR;
                let queue = libc::mq_open(path.as_ptr(), flags, 0o600 as libc::c_uint, &attr as *const libc::mq_attr);
                // Nameless at once: it counts while open, and goes with the process (a named
                // one outlives it, and its count, where there is no box).
                libc::mq_unlink(path.as_ptr());
                (queue >= 0, queue)
            }
            "shm-lock" => {
                let id = libc::shmget(libc::IPC_PRIVATE, pages * 4096, libc::IPC_CREAT | 0o600);
                if id < 0 {
                    return (false, -1);
                }
                let locked = libc::shmctl(id, SHM_LOCK, std::ptr::null_mut()) == 0;
                // Attached, then removed: it lives, locked, as long as the process (a segment
                // nobody removes outlives it, and its lock, where there is no box).
                libc::shmat(id, std::ptr::null(), 0);
                libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
                (locked, id)
            }
            _ => (false, -1),
        }
    }
}

/// The signal set of `SIGRTMIN` alone, which `sigpending` queues.
fn rt_min_set() -> libc::sigset_t {
    // SAFETY: a set on the stack, filled by the calls made for it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGRTMIN());
        set
    }
}

/// Gives back what [`take_one`] took (`what`).
fn give_back(how: &str, what: libc::c_int) {
    // SAFETY: as in `take_one`.
    unsafe {
        match how {
            "sigpending" => {
                let set = rt_min_set();
                let none = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                while libc::sigtimedwait(&set, std::ptr::null_mut(), &none) > 0 {}
            }
            "mqueue" if what >= 0 => {
                libc::close(what);
            }
            // (Removed already: it goes once unlocked and detached.)
            "shm-lock" if what >= 0 => {
                libc::shmctl(what, SHM_UNLOCK, std::ptr::null_mut());
            }
            _ => {}
        }
    }
}

/// Seat 1 of [`talk`] through a count the kernel keeps per user: at [`FILL_TICK`], takes all it
/// can of it (every signal it may queue, every queue, a lock on the 8 MiB its limit allows) and
/// holds it to the end of the match.
fn fill_a_user_count(how: &str) -> Stepper {
    let how = how.to_string();
    Box::new(move |tick, _| {
        if tick == FILL_TICK {
            let pid = std::process::id();
            for k in 0..1_000_000 {
                let (taken, _) = take_one(&how, &format!("arena-zoo-fill-{pid}-{k}"), 2048);
                // One lock of all the limit allows, or as many queued signals and queues as it gets.
                if !taken || how == "shm-lock" {
                    break;
                }
            }
        }
        false
    })
}

/// Seat 2 of [`talk`] through a count the kernel keeps per user: takes one unit and gives it
/// back at every tick; it has heard seat 1 when the kernel gave it before [`FILL_TICK`] and
/// refuses it after.
fn find_a_user_count_full(how: &str) -> Stepper {
    let how = how.to_string();
    let mut could = false;
    Box::new(move |tick, _| {
        if tick == 0 || tick == FILL_TICK || tick > 40 {
            return false;
        }
        let name = format!("arena-zoo-probe-{}", std::process::id());
        let (taken, what) = take_one(&how, &name, 1);
        give_back(&how, what);
        if tick < FILL_TICK {
            could |= taken;
            return false;
        }
        could && !taken
    })
}

/// The pieces [`hide_memory`] holds, one per child process.
const HIDDEN_PIECE: usize = 32 << 20;

/// `hide-memory HOW MIB`: holds MIB MiB where no process's resident set shows it, in pieces of
/// 32 MiB, one per child, made one after the other (each child says on a pipe when it holds
/// its piece): `memfd`, a `memfd_create` file filled with `fallocate`, held by its descriptor;
/// `secret`, a `memfd_secret` file written through windows of it, each unmapped at once;
/// `sysv`, a SysV segment, attached (and removed: it goes with the child); `shared`, a shared
/// anonymous mapping; `zero`, the same made by mapping `/dev/zero` shared. The last three are
/// filled 4 MiB at a time, each let go of at once with `MADV_DONTNEED`: the pages stay in the
/// segment or mapping, out of the child's resident set.
/// `vmsplice`, see [`vmsplice_piece`]. `splice`, see [`splice_piece`]. `sockets`, see [`socket_piece`]. `page-tables`, see
/// [`page_tables_piece`]. `epoll-watches`, see [`epoll_piece`].
/// `page-out`, a private mapping filled 4 MiB at a time, each pushed out to swap at once (see
/// [`page_out_own`]): on a machine with swap, out of the child's resident set too.
/// Returns whether it held it all.
fn hide_memory(how: &str, mib: usize) -> bool {
    let mut ends = [0; 2];
    // SAFETY: pipe writes two descriptors into the array.
    if unsafe { libc::pipe(ends.as_mut_ptr()) } != 0 {
        return false;
    }
    let pieces = (mib << 20).div_ceil(HIDDEN_PIECE);
    let mut held = 0;
    for _ in 0..pieces {
        // SAFETY: the child holds its piece, tells and sleeps; it never returns.
        if unsafe { libc::fork() } == 0 {
            if hold_piece(how) {
                // SAFETY: writes one byte from a valid buffer.
                unsafe { libc::write(ends[1], b"!".as_ptr().cast(), 1) };
            }
            std::thread::sleep(Duration::from_secs(600));
            std::process::exit(0);
        }
        let mut ready = libc::pollfd { fd: ends[0], events: libc::POLLIN, revents: 0 };
        let mut told = [0u8; 1];
        // SAFETY: polls one valid pollfd; reads into a valid buffer of its length.
        let got =
            unsafe { libc::poll(&mut ready, 1, 3000) > 0 && libc::read(ends[0], told.as_mut_ptr().cast(), 1) == 1 };
        if !got {
            break;
        }
        held += 1;
    }
    eprintln!("hide-memory {how}: held {} MiB of {mib}", (held * HIDDEN_PIECE) >> 20);
    held == pieces
}

/// One piece of [`hide_memory`]; whether the kernel gave it.
fn hold_piece(how: &str) -> bool {
    // SAFETY: calls on this process's own descriptors, segments and mappings, with valid
    // pointers and lengths.
    unsafe {
        let memory = match how {
            "memfd" => {
                let fd = libc::memfd_create(c"zoo-hidden".as_ptr(), 0);
                return fd >= 0 && libc::fallocate(fd, 0, 0, HIDDEN_PIECE as libc::off_t) == 0;
            }
            "secret" => {
                // Mapped 4 MiB at a time (`RLIMIT_MEMLOCK` bounds what is mapped at once), each
                // window written and unmapped: its pages stay in the file.
                let fd = libc::syscall(libc::SYS_memfd_secret, 0) as libc::c_int;
                if fd < 0 || libc::ftruncate(fd, HIDDEN_PIECE as libc::off_t) != 0 {
                    return false;
                }
                let step = 4 << 20;
                return (0..HIDDEN_PIECE).step_by(step).all(|at| {
                    let rw = libc::PROT_READ | libc::PROT_WRITE;
                    let window = libc::mmap(std::ptr::null_mut(), step, rw, libc::MAP_SHARED, fd, at as libc::off_t);
                    if window == libc::MAP_FAILED {
                        return false;
                    }
                    std::ptr::write_bytes(window.cast::<u8>(), 1, step);
                    libc::munmap(window, step) == 0
                });
            }
            "sysv" => {
                let id = libc::shmget(libc::IPC_PRIVATE, HIDDEN_PIECE, libc::IPC_CREAT | 0o600);
                if id < 0 {
                    return false;
                }
                let at = libc::shmat(id, std::ptr::null(), 0);
                libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
                at
            }
            "shared" => {
                let flags = libc::MAP_SHARED | libc::MAP_ANONYMOUS;
                libc::mmap(std::ptr::null_mut(), HIDDEN_PIECE, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0)
            }
            "zero" => {
                let fd = libc::open(c"/dev/zero".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
                if fd < 0 {
                    return false;
                }
                let rw = libc::PROT_READ | libc::PROT_WRITE;
                libc::mmap(std::ptr::null_mut(), HIDDEN_PIECE, rw, libc::MAP_SHARED, fd, 0)
            }
            "page-out" => {
                let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
                let memory =
                    libc::mmap(std::ptr::null_mut(), HIDDEN_PIECE, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0);
                if memory == libc::MAP_FAILED {
                    return false;
                }
                let step = 4 << 20;
                return (0..HIDDEN_PIECE).step_by(step).all(|at| {
                    let part = memory.cast::<u8>().add(at);
                    std::ptr::write_bytes(part, 1, step);
                    let (by_madvise, by_pidfd) = page_out_own(part, step);
                    by_madvise.is_ok() || by_pidfd.is_ok()
                });
            }
            "vmsplice" => return vmsplice_piece(),
            "splice" => return splice_piece(),
            "sockets" => return socket_piece(),
            "page-tables" => return page_tables_piece(),
            "epoll-watches" => return epoll_piece(),
            _ => return false,
        };
        if memory == libc::MAP_FAILED || memory.is_null() {
            return false;
        }
        let step = 4 << 20;
        (0..HIDDEN_PIECE).step_by(step).all(|at| {
            let part = memory.cast::<u8>().add(at);
            std::ptr::write_bytes(part, 1, step);
            libc::madvise(part.cast(), step, libc::MADV_DONTNEED) == 0
        })
    }
}

/// One piece of `hide-memory epoll-watches`: 131,072 watches of epolls, 32 MiB as the arena
/// counts them (256 bytes each; the kernel's objects behind one take some 208), none in any
/// process's resident set: 32 epolls each watch 32 eventfds through each of 128 descriptor
/// numbers (a watch is of a file and the number it was added by, and stays while its file is
/// open, whatever that number names later), 64 descriptors left open of the 256 a bot may have.
/// Whether the kernel took every watch.
fn epoll_piece() -> bool {
    const FILES: usize = 32;
    const EPOLLS: usize = 32;
    const SLOTS: i32 = 128;
    const FIRST_SLOT: i32 = 128;
    let wanted = FILES * EPOLLS * SLOTS as usize;
    // SAFETY: eventfd, epoll_create1, dup2, epoll_ctl and close take this process's own
    // descriptors and an event of ours.
    unsafe {
        let files: Vec<i32> = (0..FILES).map(|_| libc::eventfd(0, libc::EFD_CLOEXEC)).collect();
        let epolls: Vec<i32> = (0..EPOLLS).map(|_| libc::epoll_create1(libc::EPOLL_CLOEXEC)).collect();
        if files.iter().chain(&epolls).any(|&fd| fd < 0) {
            eprintln!("epoll-watches: {}", std::io::Error::last_os_error());
            return false;
        }
        let mut added = 0;
        for &file in &files {
            for slot in FIRST_SLOT..FIRST_SLOT + SLOTS {
                if libc::dup2(file, slot) != slot {
                    eprintln!("epoll-watches: dup2 to {slot}: {}", std::io::Error::last_os_error());
                    return false;
                }
                for &epoll in &epolls {
                    let mut watch = libc::epoll_event { events: libc::EPOLLIN as u32, u64: 0 };
                    added += usize::from(libc::epoll_ctl(epoll, libc::EPOLL_CTL_ADD, slot, &mut watch) == 0);
                }
            }
        }
        for slot in FIRST_SLOT..FIRST_SLOT + SLOTS {
            libc::close(slot);
        }
        eprintln!("epoll-watches: {added} watches of {wanted} in {EPOLLS} epolls");
        added == wanted && added * 256 == HIDDEN_PIECE
    }
}

/// One piece of `hide-memory page-tables`: single pages of its own, a GiB apart, each read once
/// (the kernel maps its zero page: nothing resident), so that each needs two page tables of its
/// own, 8 KiB; 4,096 of them, 32 MiB of tables for 16 MiB of address space.
fn page_tables_piece() -> bool {
    const BASE: usize = 16 << 40;
    (0..HIDDEN_PIECE / 8192).all(|i| {
        let at = (BASE + (i << 30)) as *mut libc::c_void;
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE;
        // SAFETY: maps a page of its own at a free address (`MAP_FIXED_NOREPLACE` refuses a
        // taken one) and reads its first byte.
        unsafe {
            let page = libc::mmap(at, 4096, libc::PROT_READ, flags, -1, 0);
            page == at && std::ptr::read_volatile(page.cast::<u8>()) == 0
        }
    })
}

/// What a call answered, as [`user_namespace`] says it: `ok`, or the errno's name.
fn answer(ok: bool, errno: i32) -> String {
    let name = match errno {
        _ if ok => "ok",
        libc::EPERM => "EPERM",
        libc::ENOSYS => "ENOSYS",
        libc::ENOSPC => "ENOSPC",
        libc::EINVAL => "EINVAL",
        libc::EACCES => "EACCES",
        libc::EOPNOTSUPP => "EOPNOTSUPP",
        libc::ENOTTY => "ENOTTY",
        _ => return format!("errno {errno}"),
    };
    name.to_string()
}

/// A child's code when it made the namespace asked and then, in it, a network namespace: what
/// only a process holding `CAP_SYS_ADMIN` there may do.
const WITH_CAPABILITIES: i32 = 0;
/// A child's code when it made the namespace asked but could not use a capability in it.
const WITHOUT_CAPABILITIES: i32 = 200;

/// In a child just made in a new user namespace: tries a capability there and exits saying so.
fn use_a_capability() -> ! {
    // SAFETY: unshare and _exit pass no memory.
    unsafe {
        let code = if libc::unshare(libc::CLONE_NEWNET) == 0 { WITH_CAPABILITIES } else { WITHOUT_CAPABILITIES };
        libc::_exit(code)
    }
}

/// Waits for child `pid` (or, when `pid` is -1, takes `errno`): `ok`, `ok, with capabilities`,
/// or the errno the child (or the call that would have made it) answered.
fn child_answer(pid: libc::c_long) -> (bool, String) {
    if pid < 0 {
        return (false, answer(false, std::io::Error::last_os_error().raw_os_error().unwrap_or(0)));
    }
    let mut status = 0;
    // SAFETY: waits for our own child, writing its status into a local.
    unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
    match libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)) {
        Some(WITH_CAPABILITIES) => (true, "ok, with capabilities".to_string()),
        Some(WITHOUT_CAPABILITIES) => (true, "ok".to_string()),
        Some(errno) => (false, answer(false, errno)),
        None => (false, format!("died ({status:#x})")),
    }
}

/// `struct clone_args` as `clone3` reads its first version (64 bytes).
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
}

/// Makes a child like `fork` with `clone3` and `flags`; the child runs `then`. Returns the
/// child's pid, or -1 (errno set).
fn clone3(flags: u64, then: fn() -> !) -> libc::c_long {
    let args = CloneArgs { flags, exit_signal: libc::SIGCHLD as u64, ..CloneArgs::default() };
    // SAFETY: clone3 reads the struct of the size given; without a stack it forks, and the
    // child only makes raw calls and exits.
    let pid = unsafe { libc::syscall(libc::SYS_clone3, &args, std::mem::size_of::<CloneArgs>()) };
    if pid == 0 {
        then();
    }
    pid
}

/// Makes a System V shared memory segment, message queue and semaphore set (private ones,
/// removed at once): a plain bot shares the machine's IPC namespace, where it could reach its
/// user's (root's, under `unshare -r` by the machine's root), and a detached segment outlives it
/// uncounted. Says on stderr what each call answered; returns whether any was made.
fn system_v_ipc() -> bool {
    let answer = |id: libc::c_int| answer(id >= 0, std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    // SAFETY: private objects of this process's own, made and removed with valid arguments.
    let (shm, msg, sem) = unsafe {
        let shm = libc::shmget(libc::IPC_PRIVATE, 4096, libc::IPC_CREAT | 0o600);
        let shm_said = answer(shm);
        if shm >= 0 {
            libc::shmctl(shm, libc::IPC_RMID, std::ptr::null_mut());
        }
        let msg = libc::msgget(libc::IPC_PRIVATE, libc::IPC_CREAT | 0o600);
        let msg_said = answer(msg);
        if msg >= 0 {
            libc::msgctl(msg, libc::IPC_RMID, std::ptr::null_mut());
        }
        let sem = libc::semget(libc::IPC_PRIVATE, 1, libc::IPC_CREAT | 0o600);
        let sem_said = answer(sem);
        if sem >= 0 {
            libc::semctl(sem, 0, libc::IPC_RMID);
        }
        (shm_said, msg_said, sem_said)
    };
    eprintln!("sysv-ipc: shmget {shm}, msgget {msg}, semget {sem};");
    [shm, msg, sem].iter().any(|a| a == "ok")
}

/// `mq-left NAME`: makes a POSIX message queue `/NAME` and leaves it (a queue outlives its
/// maker: a plain bot shares the machine's IPC namespace, where its queues took the machine's
/// `queues_max` from every other user). Says on stderr what `mq_open` answered; returns whether
/// it made one.
fn posix_queue_left(name: &str) -> bool {
    let Ok(path) = CString::new(format!("/{name}")) else { return false };
    // SAFETY: a valid name; default attributes (a null pointer).
    let queue = unsafe {
        libc::mq_open(
            path.as_ptr(),
            libc::O_CREAT | libc::O_RDWR,
            0o600 as libc::c_uint,
            std::ptr::null::<libc::mq_attr>(),
        )
    };
    let said = answer(queue >= 0, std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    eprintln!("mq-left: mq_open {said};");
    queue >= 0
}

/// `userns`: tries to make a user namespace, in which it would hold every capability: by
/// `unshare` (in a child: a process with threads may not), by `clone` and by `clone3` with
/// `CLONE_NEWUSER`; and a network namespace without one, which needs a capability the box does
/// not give. Each child that gets its namespace tries a capability there. Says on stderr what
/// each answered and what `max_user_namespaces` it reads (its own user namespace's); returns
/// whether any namespace was made.
fn user_namespace() -> bool {
    let by_unshare = |flags: libc::c_int| {
        // SAFETY: the child makes raw calls only and exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: unshare passes no memory.
            if unsafe { libc::unshare(flags) } != 0 {
                let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(1);
                // SAFETY: exits the child.
                unsafe { libc::_exit(errno) };
            }
            use_a_capability();
        }
        child_answer(pid.into())
    };
    let unshare = by_unshare(libc::CLONE_NEWUSER);
    let flags = (libc::CLONE_NEWUSER | libc::SIGCHLD) as libc::c_ulong;
    // SAFETY: without a stack, clone forks; the child only makes raw calls and exits.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0, 0, 0, 0) };
    if pid == 0 {
        use_a_capability();
    }
    let clone = child_answer(pid);
    let clone3 = child_answer(clone3(libc::CLONE_NEWUSER as u64, use_a_capability));
    // Without a user namespace of its own, a network namespace needs `CAP_SYS_ADMIN`.
    let network = by_unshare(libc::CLONE_NEWNET);
    let limit = std::fs::read_to_string("/proc/sys/user/max_user_namespaces").unwrap_or_default();
    eprintln!(
        "userns: unshare {}, clone {}, clone3 {}, a network namespace {}; max_user_namespaces {}",
        unshare.1,
        clone.1,
        clone3.1,
        network.1,
        limit.trim()
    );
    unshare.0 || clone.0 || clone3.0 || network.0
}

/// `direct-io`: opens its own program (`/proc/self/exe`) past the page cache, with `O_DIRECT`, by
/// `openat` (glibc's `open`), by the older `open` (x86_64), by `openat2`, and by `fcntl`'s
/// `F_SETFL` on a descriptor opened without it, and says on stderr what each answered (`ok`, or
/// the errno's name): `direct-io: openat …, open …, openat2 …, fcntl …`. Worked where any did
/// (the file system here, ext4 or XFS, takes direct I/O: each such read that reaches the disk is
/// an interrupt on the match's CPU, charged to the opponent thinking there).
fn direct_io() -> bool {
    let path = c"/proc/self/exe";
    let opened = |fd: libc::c_long| {
        let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        if fd >= 0 {
            // SAFETY: closes a descriptor it just opened.
            unsafe { libc::close(fd as libc::c_int) };
        }
        (fd >= 0, answer(fd >= 0, errno))
    };
    // SAFETY: opens a path from a C string.
    let openat = opened(unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_DIRECT) }.into());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the same, by the older call.
    let open = opened(unsafe { libc::syscall(libc::SYS_open, path.as_ptr(), libc::O_RDONLY | libc::O_DIRECT) });
    #[cfg(not(target_arch = "x86_64"))]
    let open = (false, "none here".to_string());
    // `struct open_how`: flags, mode, resolve.
    let how: [u64; 3] = [(libc::O_RDONLY | libc::O_DIRECT) as u64, 0, 0];
    // SAFETY: `how` is as long as said, and outlives the call.
    let openat2 = opened(unsafe {
        libc::syscall(libc::SYS_openat2, libc::AT_FDCWD, path.as_ptr(), how.as_ptr(), std::mem::size_of_val(&how))
    });
    // SAFETY: opens, sets and reads the flags of its own descriptor, and closes it.
    let fcntl = unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY);
        let flags = libc::fcntl(fd, libc::F_GETFL);
        let set = libc::fcntl(fd, libc::F_SETFL, flags | libc::O_DIRECT);
        let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        let direct = set == 0 && libc::fcntl(fd, libc::F_GETFL) & libc::O_DIRECT != 0;
        libc::close(fd);
        (direct, answer(direct, if set == 0 { 0 } else { errno }))
    };
    eprintln!("direct-io: openat {}, open {}, openat2 {}, fcntl {}", openat.1, open.1, openat2.1, fcntl.1);
    openat.0 || open.0 || openat2.0 || fcntl.0
}

/// `disk-calls FILE`: the calls that make the disk work with no use to a bot, on FILE (on a disk,
/// at least 8 MiB, none of it cached: the test drops it) and on a file of its scratch folder
/// (`TMPDIR`), each said on stderr: `disk-calls: fadvise kept|dropped, readahead none|read,
/// willneed none|read, dontcache …, dsync-write …, dsync-open …` (the last three `ok` or the
/// errno's name). Whether the disk was read is asked of the bytes this process had read from
/// it (`read_bytes` of `/proc/self/io`; `mincore` tells a process the truth only of files it may
/// write). Worked where any took: each is a way to have the disk interrupt the match's CPU,
/// charged to the opponent.
fn disk_calls(file: &str) -> bool {
    const PAGE: usize = 4096;
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    let read_bytes = || {
        let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
        io.lines().find_map(|l| l.strip_prefix("read_bytes:")?.trim().parse::<u64>().ok()).unwrap_or(0)
    };
    // Whether `call` read from the disk.
    let reads = |call: &mut dyn FnMut()| {
        let before = read_bytes();
        call();
        read_bytes() > before
    };
    let Ok(path) = CString::new(file) else { return false };
    // SAFETY: raw calls on descriptors, buffers and a mapping of its own, within their bounds
    // (the file is at least 8 MiB: pages 0 to 4097 are in it).
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY);
        let len = libc::lseek(fd, 0, libc::SEEK_END) as usize;
        if fd < 0 || len < 8 << 20 {
            eprintln!("disk-calls: {file}: no file of 8 MiB here");
            return false;
        }
        let map = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_SHARED, fd, 0);
        if map == libc::MAP_FAILED {
            return false;
        }
        let mut page = [0u8; PAGE];
        libc::pread(fd, page.as_mut_ptr().cast(), PAGE, 0);
        libc::posix_fadvise(fd, 0, 0, libc::POSIX_FADV_DONTNEED);
        let dropped = reads(&mut || {
            libc::pread(fd, page.as_mut_ptr().cast(), PAGE, 0);
        });
        let read_ahead = reads(&mut || {
            libc::readahead(fd, (1024 * PAGE) as i64, 16 * PAGE);
        });
        let will_need = reads(&mut || {
            libc::madvise(map.cast::<u8>().add(2048 * PAGE).cast(), 16 * PAGE, libc::MADV_WILLNEED);
        });
        let iov = libc::iovec { iov_base: page.as_mut_ptr().cast(), iov_len: PAGE };
        let uncached = libc::preadv2(fd, &iov, 1, (4096 * PAGE) as i64, libc::RWF_DONTCACHE);
        let uncached = answer(uncached >= 0, errno());
        libc::munmap(map, len);
        libc::close(fd);
        let scratch = std::env::temp_dir().join(format!("disk-calls-{}", std::process::id()));
        let Ok(scratch) = CString::new(scratch.as_os_str().as_bytes()) else { return false };
        let out = libc::open(scratch.as_ptr(), libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC, 0o600);
        let synced = libc::pwritev2(out, &iov, 1, 0, libc::RWF_DSYNC);
        let synced = answer(out >= 0 && synced >= 0, if out < 0 { -1 } else { errno() });
        libc::close(out);
        let sync_open = libc::open(scratch.as_ptr(), libc::O_WRONLY | libc::O_DSYNC);
        let sync_opened = answer(sync_open >= 0, errno());
        libc::close(sync_open);
        let (msynced, sync_flag) = sync_by_mapping_and_flag(&scratch);
        libc::unlink(scratch.as_ptr());
        let said = |took: bool, yes: &'static str, no: &'static str| if took { yes } else { no };
        eprintln!(
            "disk-calls: fadvise {}, readahead {}, willneed {}, dontcache {uncached}, dsync-write {synced}, \
             dsync-open {sync_opened}, msync {}, syncflag {sync_flag}",
            said(dropped, "dropped", "kept"),
            said(read_ahead, "read", "none"),
            said(will_need, "read", "none"),
            said(msynced, "clean", "dirty"),
        );
        let answers = [&uncached, &synced, &sync_opened, &sync_flag];
        dropped || read_ahead || will_need || msynced || answers.iter().any(|a| *a == "ok")
    }
}

/// `stall-looks P M D RES_MB HOLD_MS AT`: makes a file D folders of 250 characters deep in its
/// scratch folder (past `PATH_MAX`, by relative `mkdir` and `chdir`), and P children that each map
/// it in M separate mappings: each line of their `/proc/PID/maps` names the file, some 50 KiB. At
/// tick AT, once it has answered, each child reserves RES_MB of address space (`PROT_NONE`, no
/// memory behind it) for HOLD_MS: enough for the arena's look, where it sums the box's memory,
/// to read every process's maps, P*M lines of 50 KiB, while the opponent thinks. Returns the
/// pipe that sets the children off (one byte each), where they could be made.
fn stall_looks(children: usize, mappings: usize, depth: usize, reserve: usize, hold: Duration) -> Option<libc::c_int> {
    let scratch = std::env::temp_dir();
    std::env::set_current_dir(&scratch).ok()?;
    let name = "d".repeat(250);
    for _ in 0..depth {
        std::fs::create_dir(&name).ok()?;
        std::env::set_current_dir(&name).ok()?;
    }
    let page = 4096;
    let span = (2 * mappings + 2) * page;
    let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open("f").ok()?;
    file.set_len(span as u64).ok()?;
    let mut go = [0; 2];
    // SAFETY: pipe writes two descriptors into the array.
    if unsafe { libc::pipe(go.as_mut_ptr()) } != 0 {
        return None;
    }
    for _ in 0..children {
        // SAFETY: the child maps the file, splits the mapping, waits on the pipe and reserves
        // address space of its own; it never returns.
        unsafe {
            if libc::fork() != 0 {
                continue;
            }
            libc::close(go[1]);
            let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
            let at = libc::mmap(std::ptr::null_mut(), span, libc::PROT_READ, libc::MAP_PRIVATE, fd, 0);
            if at != libc::MAP_FAILED {
                for i in (0..2 * mappings).step_by(2) {
                    libc::mprotect(at.cast::<u8>().add(i * page).cast(), page, libc::PROT_NONE);
                }
            }
            let mut byte = 0u8;
            while libc::read(go[0], (&mut byte as *mut u8).cast(), 1) == 1 {
                let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
                let held = libc::mmap(std::ptr::null_mut(), reserve, libc::PROT_NONE, flags, -1, 0);
                std::thread::sleep(hold);
                if held != libc::MAP_FAILED {
                    libc::munmap(held, reserve);
                }
            }
            libc::_exit(0);
        }
    }
    // SAFETY: closes the read end, which only the children use.
    unsafe { libc::close(go[0]) };
    eprintln!("stall-looks: {children} children, {mappings} mappings each of a {}-byte path", depth * 251);
    Some(go[1])
}

/// Writes a page of the scratch file `path` through a shared mapping and syncs it (`msync`), and
/// sets the file's sync flag (`chattr +S`, `FS_IOC_SETFLAGS`): whether the page was written back
/// (its mapping no longer dirty, by `/proc/self/smaps`), and what setting the flag answered.
fn sync_by_mapping_and_flag(path: &CString) -> (bool, String) {
    // SAFETY: raw calls on a descriptor and a mapping of its own, within the mapping's page.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDWR);
        // (A page long, whatever the writes before it left: a mapping past its end faults.)
        if libc::ftruncate(fd, 4096) != 0 {
            return (false, answer(false, std::io::Error::last_os_error().raw_os_error().unwrap_or(0)));
        }
        let map = libc::mmap(std::ptr::null_mut(), 4096, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0);
        let mut clean = false;
        if map != libc::MAP_FAILED {
            map.cast::<u8>().write(b'x');
            libc::msync(map, 4096, libc::MS_SYNC);
            let start = format!("{:x}-", map as usize);
            let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
            let entry = smaps.split_once(&start).map_or("", |(_, rest)| rest);
            let dirty: u64 = entry
                .lines()
                .skip(1)
                .take_while(|l| l.split_whitespace().next().is_some_and(|field| field.ends_with(':')))
                .filter(|l| l.starts_with("Shared_Dirty:") || l.starts_with("Private_Dirty:"))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum();
            clean = dirty == 0 && !entry.is_empty();
            libc::munmap(map, 4096);
        }
        let mut flags: libc::c_long = 0;
        libc::ioctl(fd, libc::FS_IOC_GETFLAGS, &mut flags);
        flags |= 0x8; // FS_SYNC_FL
        let set = libc::ioctl(fd, libc::FS_IOC_SETFLAGS, &flags);
        let sync_flag = answer(set == 0, std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
        libc::close(fd);
        (clean, sync_flag)
    }
}

/// `disk-reads FILE`: reads 4 KiB at random offsets of FILE (page-aligned) for a second of wall
/// time, and says how many on stderr (`disk-reads: N in 1 s`).
fn disk_reads(file: &str) {
    let Ok(path) = CString::new(file) else { return };
    let mut rng = StdRng::seed_from_u64(7);
    // SAFETY: reads into a buffer of its own from a descriptor of its own.
    let reads = unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY);
        let pages = (libc::lseek(fd, 0, libc::SEEK_END).max(4096) / 4096) as u64;
        let mut page = [0u8; 4096];
        let start = std::time::Instant::now();
        let mut reads = 0u64;
        while start.elapsed() < Duration::from_secs(1) {
            let at = rng.random_range(0..pages) * 4096;
            if libc::pread(fd, page.as_mut_ptr().cast(), 4096, at as i64) < 0 {
                break;
            }
            reads += 1;
        }
        libc::close(fd);
        reads
    };
    eprintln!("disk-reads: {reads} in 1 s");
}

/// The heart of `reaped-think`: `SIGCHLD` ignored (said: `sigchld: ignored`, or `sigchld:
/// default` where that did not take), then [`think_in_vanishing_children`] for `ms`.
fn reaped_think(ms: u64) {
    // SAFETY: ignoring SIGCHLD changes no memory.
    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let ignored = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << (libc::SIGCHLD - 1)) != 0);
    eprintln!("sigchld: {}", if ignored { "ignored" } else { "default" });
    think_in_vanishing_children(ms);
}

/// `threads-and-children`: starts threads (`pthread_create`, which glibc makes with `clone3`
/// where the kernel takes it, else with `clone`) and a child process (`posix_spawn`, the same),
/// and says on stderr what a bare `clone3` answered; exits with 1 where either failed.
fn threads_and_children() {
    let threads: Vec<_> = (0..4u64).map(|k| std::thread::Builder::new().spawn(move || k * 2)).collect();
    let sum: Option<u64> = threads.into_iter().map(|t| t.ok()?.join().ok()).sum();
    let child = std::process::Command::new("/bin/sh").args(["-c", "exit 7"]).status();
    let pid = clone3(0, || {
        // SAFETY: exits the child.
        unsafe { libc::_exit(0) }
    });
    let bare = answer(pid > 0, std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    if pid > 0 {
        // SAFETY: reaps our own child.
        unsafe { libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0) };
    }
    let threads_ok = sum == Some(12);
    let child_ok = child.as_ref().ok().and_then(|s| s.code()) == Some(7);
    eprintln!("threads-and-children: threads {threads_ok}, a child {child_ok} ({child:?}), a bare clone3 {bare}");
    if !threads_ok || !child_ok {
        std::process::exit(1);
    }
}

/// Asks the kernel to push `len` bytes of this process's memory at `at` out to swap, by
/// `madvise`'s `MADV_PAGEOUT`, and again by `process_madvise` on a pidfd of its own: each
/// call's answer (`Err` with the errno). On a machine without swap the pages stay, but the call
/// succeeds all the same.
///
/// # Safety
/// `at` and `len` lie in a mapping of this process.
unsafe fn page_out_own(at: *mut u8, len: usize) -> (Result<(), i32>, Result<(), i32>) {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    // SAFETY: the caller's range; the iovec names it, the pidfd is this process's own.
    unsafe {
        let by_madvise = if libc::madvise(at.cast(), len, libc::MADV_PAGEOUT) == 0 { Ok(()) } else { Err(errno()) };
        let pidfd = libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0);
        if pidfd < 0 {
            return (by_madvise, Err(errno()));
        }
        let iov = libc::iovec { iov_base: at.cast(), iov_len: len };
        let advised = libc::syscall(libc::SYS_process_madvise, pidfd, &iov, 1, libc::MADV_PAGEOUT, 0);
        let by_pidfd = if advised >= 0 { Ok(()) } else { Err(errno()) };
        libc::close(pidfd as libc::c_int);
        (by_madvise, by_pidfd)
    }
}

/// `page-out`: whether it may push its own memory out to swap (where no resident set shows it),
/// by `madvise` and by `process_madvise` ([`page_out_own`] on 4 MiB of its own, touched), as it
/// says on stderr; true where either call was taken.
fn page_out() -> bool {
    let len = 4 << 20;
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
    // SAFETY: a new private mapping of `len` bytes, filled and advised within its bounds.
    let (by_madvise, by_pidfd) = unsafe {
        let memory = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0);
        if memory == libc::MAP_FAILED {
            return false;
        }
        std::ptr::write_bytes(memory.cast::<u8>(), 1, len);
        page_out_own(memory.cast(), len)
    };
    let said = |r: Result<(), i32>| answer(r.is_ok(), r.err().unwrap_or(0));
    eprintln!("page-out: madvise {}, process_madvise {}", said(by_madvise), said(by_pidfd));
    by_madvise.is_ok() || by_pidfd.is_ok()
}

/// The `vmsplice` piece of [`hide_memory`]: 32 MiB asked for as transparent huge pages, 4 KiB of
/// each 2 MiB spliced into one pipe (its 16 slots) by `vmsplice`, then all unmapped: each slot
/// holds its whole huge page (32 MiB held by one pipe, in a resident set of 1 MiB). Says what
/// the kernel gave; whether each splice was made.
fn vmsplice_piece() -> bool {
    const HUGE: usize = 2 << 20;
    // SAFETY: maps, touches, splices and unmaps this process's own memory.
    unsafe {
        let rw = libc::PROT_READ | libc::PROT_WRITE;
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
        let raw = libc::mmap(std::ptr::null_mut(), HIDDEN_PIECE + HUGE, rw, flags, -1, 0);
        if raw == libc::MAP_FAILED {
            return false;
        }
        let start = (raw as usize).next_multiple_of(HUGE) as *mut u8;
        libc::madvise(start.cast(), HIDDEN_PIECE, libc::MADV_HUGEPAGE);
        std::ptr::write_bytes(start, 1, HIDDEN_PIECE);
        let huge = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap_or_default();
        let huge = huge.lines().find(|l| l.starts_with("AnonHugePages")).unwrap_or("").to_string();
        let mut ends = [0; 2];
        if libc::pipe(ends.as_mut_ptr()) != 0 {
            return false;
        }
        let mut spliced = 0;
        for at in (0..HIDDEN_PIECE).step_by(HUGE) {
            let iov = libc::iovec { iov_base: start.add(at).cast(), iov_len: 4096 };
            if libc::vmsplice(ends[1], &iov, 1, libc::SPLICE_F_NONBLOCK) == 4096 {
                spliced += 1;
            }
        }
        libc::munmap(raw, HIDDEN_PIECE + HUGE);
        let rss = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let rss = rss.lines().find(|l| l.starts_with("VmRSS")).unwrap_or("").to_string();
        eprintln!("vmsplice: {spliced} of 16 pages spliced; before the unmap {huge}; after it {rss}");
        spliced == HIDDEN_PIECE / HUGE
    }
}

/// The `sockets` piece of [`hide_memory`]: 32 MiB queued in unix socket pairs (none read), each
/// pair's send buffer raised as far as the system lets (`SO_SNDBUF`, to twice
/// `net.core.wmem_max`) and filled until full; every other pair's writing end is then closed,
/// its data left waiting at the reading end (held by a socket no longer open). Says how many
/// pairs it took; whether it queued it all.
fn socket_piece() -> bool {
    let chunk = vec![1u8; 64 << 10];
    let (mut queued, mut pairs, mut sndbuf) = (0, 0, 0);
    while queued < HIDDEN_PIECE {
        let mut ends = [0; 2];
        // SAFETY: socketpair writes two descriptors into the array; setsockopt, getsockopt and
        // send read and write buffers of the lengths given; close takes this process's own.
        unsafe {
            if libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, ends.as_mut_ptr()) != 0 {
                eprintln!("sockets: no more pairs after {pairs}: {}", std::io::Error::last_os_error());
                return false;
            }
            let size = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
            let raised: libc::c_int = 64 << 20;
            libc::setsockopt(ends[0], libc::SOL_SOCKET, libc::SO_SNDBUF, (&raw const raised).cast(), size);
            let mut got = size;
            libc::getsockopt(ends[0], libc::SOL_SOCKET, libc::SO_SNDBUF, (&raw mut sndbuf).cast(), &mut got);
            let before = queued;
            while queued < HIDDEN_PIECE {
                let len = chunk.len().min(HIDDEN_PIECE - queued);
                let sent = libc::send(ends[0], chunk.as_ptr().cast(), len, libc::MSG_DONTWAIT);
                if sent <= 0 {
                    break;
                }
                queued += sent as usize;
            }
            if queued == before {
                return false;
            }
            if pairs % 2 == 1 {
                libc::close(ends[0]);
            }
        }
        pairs += 1;
    }
    eprintln!("sockets: 32 MiB queued in {pairs} pairs, send buffers of {sndbuf} bytes");
    true
}

/// A new file of `len` bytes (ones, a multiple of 2 MiB) in the bot's temporary folder
/// (`TMPDIR`: a plain bot's scratch folder, on the machine's disk; a box's `/tmp`), written, open
/// to read; deleted by the caller.
fn scratch_file(name: &str, len: usize) -> Option<(std::fs::File, std::path::PathBuf)> {
    let path = std::env::temp_dir().join(format!("zoo-{name}-{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path).ok()?;
    // (Written 2 MiB at a time: ext4 makes a folio of each write, up to 2 MiB.)
    let block = vec![1u8; 2 << 20];
    let written = (0..len >> 21).all(|_| file.write_all(&block).is_ok());
    if !written {
        let _ = std::fs::remove_file(&path);
        return None;
    }
    Some((file, path))
}

/// The `splice` piece of [`hide_memory`]: a file of 32 MiB written in its temporary folder, 4 KiB
/// of each 2 MiB of it moved into one pipe (its 16 slots) by `splice`, by reference, then the
/// file deleted: on a file system with large folios (ext4 since Linux 6.16) each slot holds its
/// whole folio, up to 2 MiB, which no process's resident set shows and no file's size either.
/// Whether each splice was made.
fn splice_piece() -> bool {
    const HUGE: usize = 2 << 20;
    let Some((file, path)) = scratch_file("splice", HIDDEN_PIECE) else { return false };
    // (Written out first, as where it was measured: see `arena/src/sandbox/syscalls.rs`.)
    let _ = file.sync_all();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    let mut ends = [0; 2];
    // SAFETY: pipe writes two descriptors into the array; splice reads the file's descriptor
    // at the offset given, into the pipe's writing end.
    let spliced = unsafe {
        if libc::pipe(ends.as_mut_ptr()) != 0 {
            return false;
        }
        let spliced = (0..HIDDEN_PIECE).step_by(HUGE).filter(|&at| {
            let mut at = at as libc::loff_t;
            libc::splice(fd, &mut at, ends[1], std::ptr::null_mut(), 4096, libc::SPLICE_F_NONBLOCK) == 4096
        });
        spliced.count()
    };
    let _ = std::fs::remove_file(&path);
    spliced == HIDDEN_PIECE / HUGE
}

/// `splice`: whether it may move a file's pages into a pipe by reference (a page of a file of
/// 4 MiB in its temporary folder by `splice`, another by `sendfile` into a pipe) or duplicate a
/// pipe's page into another (`tee`), as it says on stderr (`splice: splice ok, sendfile EINVAL,
/// …`); true where any of them was taken.
fn splice_calls() -> bool {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    let Some((file, path)) = scratch_file("splice-calls", 4 << 20) else {
        eprintln!("splice: no file of 4 MiB in {}", std::env::temp_dir().display());
        return false;
    };
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    let mut pipes = [[0; 2]; 3];
    // SAFETY: pipe writes two descriptors into each array; splice, sendfile, write and tee take
    // this process's own descriptors, offsets and a buffer of the length given.
    let said = unsafe {
        if pipes.iter_mut().any(|p| libc::pipe(p.as_mut_ptr()) != 0) {
            return false;
        }
        let mut at: libc::loff_t = 2 << 20;
        let spliced = libc::splice(fd, &mut at, pipes[0][1], std::ptr::null_mut(), 4096, libc::SPLICE_F_NONBLOCK);
        let spliced = (spliced == 4096, errno());
        let mut from: libc::off_t = 0;
        let sent = libc::sendfile(pipes[1][1], fd, &mut from, 4096);
        let sent = (sent == 4096, errno());
        let page = [7u8; 4096];
        if libc::write(pipes[2][1], page.as_ptr().cast(), page.len()) != 4096 {
            return false;
        }
        let teed = libc::tee(pipes[2][0], pipes[1][1], 4096, libc::SPLICE_F_NONBLOCK);
        [spliced, sent, (teed == 4096, errno())]
    };
    let _ = std::fs::remove_file(&path);
    let [splice, sendfile, tee] = said.map(|(ok, errno)| answer(ok, errno));
    eprintln!("splice: splice {splice}, sendfile {sendfile}, tee {tee}");
    said.iter().any(|&(ok, _)| ok)
}

/// `kernel-objects`: whether it may make kernel objects no process's set shows, each a call: a
/// Landlock ruleset (`landlock_create_ruleset`, handling the right to execute files), a seccomp filter of its own (an empty one that
/// allows everything, `seccomp`'s `SECCOMP_SET_MODE_FILTER`), a POSIX timer (`timer_create`) and a
/// pipe's buffer grown to 1 MiB (`fcntl`'s `F_SETPIPE_SZ`), as it says on stderr
/// (`kernel-objects: landlock ENOSYS, seccomp EINVAL, timer ENOSYS, pipe EPERM`); true where any
/// works.
fn kernel_objects() -> bool {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    // SAFETY: each call takes arguments of ours that outlive it (a ruleset attribute of 8 bytes, a
    // filter of one instruction, a timer id, this process's own pipe), or none.
    let said = unsafe {
        // (Handling one right, to execute files: a ruleset handling none is refused, ENOMSG.)
        let attr = [1u64; 1];
        let ruleset = libc::syscall(libc::SYS_landlock_create_ruleset, attr.as_ptr(), 8usize, 0u32);
        let landlock = (ruleset >= 0, errno());
        if ruleset >= 0 {
            libc::close(ruleset as i32);
        }
        let mut allow = [libc::sock_filter {
            code: (libc::BPF_RET | libc::BPF_K) as u16,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ALLOW,
        }];
        let program = libc::sock_fprog { len: 1, filter: allow.as_mut_ptr() };
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        let installed = libc::syscall(libc::SYS_seccomp, libc::SECCOMP_SET_MODE_FILTER, 0u32, &program);
        let seccomp = (installed == 0, errno());
        let mut timer: libc::timer_t = std::ptr::null_mut();
        let made = libc::timer_create(libc::CLOCK_MONOTONIC, std::ptr::null_mut(), &mut timer);
        let timer = (made == 0, errno());
        let mut ends = [0; 2];
        let grown = libc::pipe(ends.as_mut_ptr()) == 0 && libc::fcntl(ends[0], libc::F_SETPIPE_SZ, 1 << 20) >= 0;
        let pipe = (grown, errno());
        [landlock, seccomp, timer, pipe]
    };
    let [landlock, seccomp, timer, pipe] = said.map(|(ok, errno)| answer(ok, errno));
    eprintln!("kernel-objects: landlock {landlock}, seccomp {seccomp}, timer {timer}, pipe {pipe}");
    said.iter().any(|&(ok, _)| ok)
}

/// `fd-passing`: whether it may send a descriptor away over a unix socket pair of its own
/// (`SCM_RIGHTS`, into the pair's own queue) and close it, where it is in no process's descriptor
/// table and keeps what it holds: an epoll watching an eventfd, by `sendmsg`, and again by
/// `sendmmsg`, as it says on stderr (`fd-passing: sendmsg ok, sendmmsg ENOSYS`); true where either
/// was taken.
fn fd_passing() -> bool {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    let mut pair = [0; 2];
    // SAFETY: socketpair writes two descriptors into the array; epoll_create1, eventfd and
    // epoll_ctl take this process's own descriptors and an event of ours; sendmsg and sendmmsg
    // read messages of ours whose buffers (a byte, a control message of one descriptor) outlive
    // them.
    let said = unsafe {
        if libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0, pair.as_mut_ptr()) != 0 {
            eprintln!("fd-passing: socketpair: {}", std::io::Error::last_os_error());
            return false;
        }
        let (epoll, event) = (libc::epoll_create1(libc::EPOLL_CLOEXEC), libc::eventfd(0, libc::EFD_CLOEXEC));
        let mut watch = libc::epoll_event { events: libc::EPOLLIN as u32, u64: 0 };
        if epoll < 0 || event < 0 || libc::epoll_ctl(epoll, libc::EPOLL_CTL_ADD, event, &mut watch) != 0 {
            eprintln!("fd-passing: epoll: {}", std::io::Error::last_os_error());
            return false;
        }
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
        // (Room for a cmsghdr and a descriptor, aligned as one.)
        let mut control = [0u64; 4];
        let mut message: libc::mmsghdr = std::mem::zeroed();
        let msg = &mut message.msg_hdr;
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<i32>() as u32) as _;
        let cmsg = libc::CMSG_FIRSTHDR(msg);
        if cmsg.is_null() {
            return false;
        }
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<i32>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<i32>(), epoll);
        let sent = libc::sendmsg(pair[0], &message.msg_hdr, libc::MSG_DONTWAIT);
        let sent = (sent == 1, errno());
        let many = libc::sendmmsg(pair[0], &mut message, 1, libc::MSG_DONTWAIT);
        let many = (many == 1, errno());
        libc::close(epoll);
        [sent, many]
    };
    let [sendmsg, sendmmsg] = said.map(|(ok, errno)| answer(ok, errno));
    eprintln!("fd-passing: sendmsg {sendmsg}, sendmmsg {sendmmsg}");
    said.iter().any(|&(ok, _)| ok)
}
