//! The attack zoo of the box (one box per bot): each attack is `zoo-attack` in a real duel or
//! tournament against a normal bot. Inside the box every attack fails: the victim finishes
//! with its normal score, the arena stays up, nothing is left running, and the attacker's own
//! forfeit is recorded where it broke a rule. Each test also has a control, the same attack
//! with `--sandbox none`, that shows it working when the box is off (so the test can fail).
//!
//! CI runs this file as root and once more as an unprivileged user (see `tools/test`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arena_e2e::*;
use serde_json::Value;

/// What a duel left.
struct Run {
    out: Output,
    result: Value,
    replay: Value,
}

impl Run {
    fn forfeit(&self, seat: usize) -> Option<String> {
        player(&self.result, seat).2
    }

    fn score(&self, seat: usize) -> i64 {
        player(&self.result, seat).0
    }
}

fn attacker(args: &str) -> String {
    format!("{} {args}", bin("zoo-attack"))
}

/// Tests of this file run in parallel and share the cores: each holds `shared()`, except the
/// one that measures how many CPUs a CPU hog's box keeps busy, which holds `alone()` (other
/// tests' load would take them from it; the machine's other load it allows for).
static LOAD: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn shared() -> std::sync::RwLockReadGuard<'static, ()> {
    LOAD.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn alone() -> std::sync::RwLockWriteGuard<'static, ()> {
    LOAD.write().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A unique token for names the attacks look for (tests run in parallel).
fn token() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{}x{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst))
}

/// A copy of `greedy` under a name no other test uses, so that an attack on it (and its
/// control) hits no other test's bot.
fn victim(dir: &Path) -> (String, String) {
    let name = format!("victim{}", token());
    let path = dir.join(&name);
    std::fs::copy(bin("greedy"), &path).unwrap();
    (name, path.display().to_string())
}

/// `arena duel --json` of `bots` on `map`, with `extra` flags and `env` set for the arena.
fn duel_run(map_name: &str, extra: &[&str], env: &[(&str, &str)], bots: [&str; 2]) -> Run {
    let run = duel_with(map_name, extra, bots, |args, _| {
        Some(Command::new(bin("arena")).current_dir(root()).args(args).envs(env.iter().copied()).output().unwrap())
    });
    run.unwrap_or_else(|| unreachable!("a duel run as is always runs"))
}

/// `arena duel --json --seed 5` of `bots` on `map_name` with `extra`, its replay written in a
/// folder of its own, run by `run` (given the arena's words and that folder; `None`: it could
/// not be run here, said by `run`): its output, result and replay.
fn duel_with(
    map_name: &str,
    extra: &[&str],
    bots: [&str; 2],
    run: impl FnOnce(&[&str], &Path) -> Option<Output>,
) -> Option<Run> {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json").display().to_string();
    let map_arg = map(map_name);
    let mut args = vec!["duel", "--json", "--seed", "5", "--map", &map_arg, "--replay", &replay];
    args.extend_from_slice(extra);
    args.extend_from_slice(&bots);
    let out = run(&args, dir.path())?;
    let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let replay = std::fs::read(&replay).ok().and_then(|r| serde_json::from_slice(&r).ok()).unwrap_or(Value::Null);
    Some(Run { out, result, replay })
}

/// The victim's score on maps/fire.txt against a bot that only waits: what it must still get.
fn normal_score() -> i64 {
    let dir = tempfile::tempdir().unwrap();
    let (_, greedy) = victim(dir.path());
    let run = duel_run("fire.txt", &[], &[], [&attacker("read /nonexistent"), &greedy]);
    assert!(run.out.status.success(), "{}", String::from_utf8_lossy(&run.out.stderr));
    assert!(player(&run.result, 1).1, "greedy finishes on fire.txt: {}", run.result);
    run.score(1)
}

/// Plays `attack` against a fresh victim; `boxed` or with `--sandbox none`.
fn against_victim(attack: impl Fn(&str) -> String, boxed: bool) -> Run {
    against_victim_in(attack, if boxed { "auto" } else { "none" })
}

/// Plays `attack` against a fresh victim with `--sandbox mode`.
fn against_victim_in(attack: impl Fn(&str) -> String, mode: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let (name, path) = victim(dir.path());
    // (Without a box, the attacker runs from a copy everyone may reach, as the victim does.)
    let attacker = match mode {
        "plain" => format!("{} {}", shared_copy(dir.path(), &bin("zoo-attack")), attack(&name)),
        _ => attacker(&attack(&name)),
    };
    duel_run("fire.txt", &["--sandbox", mode], &[], [&attacker, &path])
}

/// The promises of the box: the victim plays its normal game, the arena is fine, the attacker
/// did not get through.
fn unharmed(run: &Run, normal: i64) {
    assert!(run.out.status.success(), "the arena lives: {}", String::from_utf8_lossy(&run.out.stderr));
    assert_eq!(run.forfeit(1), None, "{}", run.result);
    assert!(player(&run.result, 1).1, "the victim finishes: {}", run.result);
    assert_eq!(run.score(1), normal, "with its normal score: {}", run.result);
    assert_ne!(run.forfeit(0).as_deref(), Some("invalid_move"), "the attack did not get through: {}", run.result);
}

#[test]
fn cannot_kill_or_stop_the_opponent() {
    let _load = shared();
    let normal = normal_score();
    for sig in ["KILL", "STOP"] {
        unharmed(&against_victim(|v| format!("signal {v} {sig}"), true), normal);
    }
    // Without a box too (`plain`) when the arena is root, each bot a box user of its own, or
    // where Landlock scopes a plain bot's signals (ABI 6): the opponent is outside its domain.
    // (Otherwise both bots are the arena's user, and the attack works, as with the sandbox off
    // below; the control with Landlock off: tests/zoo.rs.)
    if as_root() || landlock_abi() >= 6 {
        unharmed(&against_victim_in(|v| format!("signal {v} KILL"), "plain"), normal);
    }
    let control = against_victim(|v| format!("signal {v} KILL"), false);
    assert_eq!(control.forfeit(1).as_deref(), Some("crash"), "the control: {}", control.result);
    let control = against_victim(|v| format!("signal {v} STOP"), false);
    assert_eq!(control.forfeit(1).as_deref(), Some("timeout"), "the control: {}", control.result);
}

#[test]
fn cannot_leave_a_note_in_a_kernel_keyring_for_a_later_match() {
    let _load = shared();
    // Kernel keyrings belong to a user id, not to a namespace: a note left there would outlive
    // the match (a bot's own next game could read the opponent's moves, an accomplice its hints).
    let normal = normal_score();
    let note = token();
    unharmed(&against_victim(|_| format!("keyring-leave {note}"), true), normal);
    unharmed(&against_victim(|_| format!("keyring-find {note}"), true), normal);
    // The control: without the box, the note is left in one match and found in the next.
    let left = against_victim(|_| format!("keyring-leave {note}"), false);
    assert_eq!(left.forfeit(0).as_deref(), Some("invalid_move"), "the control left a note: {}", left.result);
    let found = against_victim(|_| format!("keyring-find {note}"), false);
    assert_eq!(found.forfeit(0).as_deref(), Some("invalid_move"), "the control found it: {}", found.result);
}

/// `attack` (one that needs no victim's name) fails in the box and works without it (the
/// control: the attacker then plays an invalid move on purpose), where it `did` that.
fn only_without_the_box(attack: &str, did: &str) {
    let normal = normal_score();
    unharmed(&against_victim(|_| attack.to_string(), true), normal);
    let control = against_victim(|_| attack.to_string(), false);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control {did}: {}", control.result);
}

#[test]
fn cannot_move_onto_the_cpus_of_other_matches() {
    let _load = shared();
    // The arena keeps each match on one CPU; a bot that widened its set would run its threads
    // on the CPUs of a tournament's other matches. Without the box, the kernel lets it.
    only_without_the_box("widen-cpus", "widened its CPUs");
}

#[test]
fn cannot_shorten_its_timer_slack() {
    let _load = shared();
    // A box's timers may fire up to 1 ms late: threads sleeping a few microseconds at a time
    // with no slack interrupt the match's CPU, where the opponent thinks, and on a kernel without
    // IRQ time accounting each interrupt is charged to the opponent (tests/clocks.rs). `prctl`
    // does nothing, and `/proc/self/timerslack_ns` is read-only. Without the box, the kernel
    // lets it.
    only_without_the_box("timer-slack", "shortened its timer slack");
}

#[test]
fn cannot_arm_a_timer_its_slack_does_not_delay() {
    let _load = shared();
    // A timerfd, a POSIX timer or `setitimer`'s real-time timer fires when asked, slack or not:
    // one re-armed every 20 us in a few threads interrupts the opponent's CPU as the short sleeps
    // did (tests/clocks.rs). In a bot's box the three are refused; without the box, the kernel
    // lets them.
    only_without_the_box("fine-timers", "armed a timer 20 us ahead");
}

#[test]
fn cannot_pass_the_filter_by_x32_numbers() {
    let _load = shared();
    // `nr | 0x4000_0000` is the same call for an x32 program; a filter that matches numbers
    // would let a refused call through under it, on a kernel with x32 enabled. The box ends the
    // caller before the kernel sees it, on any kernel: without that, this kernel's answer
    // (ENOSYS where x32 is off) would let the attacker play on.
    let normal = normal_score();
    let boxed = against_victim(|_| "x32-widen-cpus".to_string(), true);
    unharmed(&boxed, normal);
    assert_eq!(boxed.forfeit(0).as_deref(), Some("crash"), "the box ended the caller: {}", boxed.result);
    // The control, where the kernel takes x32 numbers: without the box, the CPUs are widened.
    if x32_offered() {
        only_without_the_box("x32-widen-cpus", "widened its CPUs by an x32 number");
    } else {
        eprintln!("this kernel has x32 off: the control (without the box) cannot show the attack working");
    }
}

/// The box keeps no lock for another box to see, yet an honest program that locks its own
/// files works: SQLite, which locks to read and write, keeps a book in the box's temporary
/// folder (when the box refused locks, it answered "database is locked").
#[test]
fn a_bot_that_keeps_its_book_in_sqlite_plays() {
    let _load = shared();
    let bot = format!("python3 {}", root().join("tests/bots/sqlite.py").display());
    let run = duel_run("fire.txt", &["--sandbox", "auto"], &[], [&bot, &bin("waiter")]);
    assert!(run.out.status.success(), "{}", String::from_utf8_lossy(&run.out.stderr));
    assert_eq!(run.forfeit(0), None, "{}", run.result);
}

#[test]
fn cannot_use_io_uring() {
    let _load = shared();
    // Its operations pass the box's system call filter unseen (a build took 16 GiB of disk at
    // once by `IORING_OP_FALLOCATE`, past the refused `fallocate`).
    let normal = normal_score();
    unharmed(&against_victim(|_| "io-uring".to_string(), true), normal);
    // The control, where the kernel offers io_uring to this user (the one a bot without a box
    // runs as): asked here the same way.
    if io_uring_offered() {
        let control = against_victim(|_| "io-uring".to_string(), false);
        assert_eq!(
            control.forfeit(0).as_deref(),
            Some("invalid_move"),
            "the control set up a ring: {}",
            control.result
        );
    } else {
        eprintln!("this kernel refuses io_uring to this user: the control (without the box) cannot show it working");
    }
}

/// A box makes sockets of the unix, IP and netlink families only: `AF_VSOCK` belongs to no
/// network namespace, and a box reached the host's vsock from it. The control, without the box,
/// makes one (on a kernel that has vsock).
#[test]
fn cannot_make_a_socket_of_another_family() {
    let _load = shared();
    if !vsock_offered() {
        eprintln!("this kernel has no vsock: the control cannot make a socket of it");
        return;
    }
    only_without_the_box("vsock", "made an AF_VSOCK socket");
}

/// A bot's box loads no program into the kernel: a socket filter (`SO_ATTACH_FILTER`) fails
/// (14,400 of them held 1.14 GiB of kernel memory and filled the machine's JIT), and so does
/// `bpf`. Without a memory cgroup a box makes no IP socket either, whose memory its monitor does
/// not dump. The controls, without the box, attach a filter and make a UDP socket.
#[test]
fn cannot_load_socket_filters_nor_make_uncounted_sockets() {
    let _load = shared();
    only_without_the_box("socket-filter", "attached a socket filter");
    if as_root() {
        eprintln!("root: the box's memory cgroup charges its IP sockets, which it may make");
        return;
    }
    only_without_the_box("udp", "made a UDP socket");
}

/// Kernel AIO contexts are counted for the whole machine (`/proc/sys/fs/aio-nr`, which every
/// box reads): two boxes talked through that count, and one box's contexts up to `aio-max-nr`
/// left none to the machine. The attack gets through unless `io_setup` fails with `ENOSYS`; the
/// control, without the box, makes a context.
#[test]
fn cannot_use_kernel_aio() {
    let _load = shared();
    only_without_the_box("aio", "made an AIO context");
}

/// A bot's scratch space caps its files (`nr_inodes`): empty files with extended attributes,
/// which neither its size cap nor the box's memory counts, held 1154 MiB of kernel memory in a
/// box of 1024 MiB. In the box the attack is refused well before 64 MiB; the control, without
/// the box in a 64 MiB tmpfs of its own without that cap (as the scratch was), holds 64 MiB.
#[test]
fn cannot_hold_kernel_memory_in_extended_attributes_of_its_scratch() {
    let _load = shared();
    let normal = normal_score();
    unharmed(&against_victim(|_| "xattr 64".to_string(), true), normal);
    if !as_root() && !user_namespaces_offered() {
        eprintln!("this kernel gives this user no user namespace: the control cannot mount a tmpfs of its own");
        return;
    }
    let control = against_victim(|_| "xattr 64 own-tmpfs".to_string(), false);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control held 64 MiB: {}", control.result);
}

#[test]
fn cannot_write_into_the_opponents_stdin_or_read_its_stdout() {
    let _load = shared();
    let normal = normal_score();
    unharmed(&against_victim(|v| format!("stdin {v}"), true), normal);
    unharmed(&against_victim(|v| format!("stdout {v}"), true), normal);
    // Without the box the injected lines reach the victim. Where they land is a race with the
    // referee's own first write: after the header, the victim answers them too (`extra_output`);
    // before it, its header is broken and it exits (`crash`). Either way the attack hurt it.
    let control = against_victim(|v| format!("stdin {v}"), false);
    assert!(
        matches!(control.forfeit(1).as_deref(), Some("extra_output" | "crash")),
        "the control: the victim is harmed: {}",
        control.result
    );
    let control = against_victim(|v| format!("stdout {v}"), false);
    assert!(control.forfeit(1).is_some(), "the control: the victim is blamed: {}", control.result);
}

#[test]
fn cannot_trace_the_opponent_or_read_its_memory() {
    let _load = shared();
    let normal = normal_score();
    unharmed(&against_victim(|v| format!("ptrace {v}"), true), normal);
    let control = against_victim(|v| format!("ptrace {v}"), false);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control: {}", control.result);
    assert_eq!(
        control.forfeit(1).as_deref(),
        Some("timeout"),
        "the control: the victim was stopped: {}",
        control.result
    );
}

#[test]
fn cannot_trace_or_read_the_init_of_its_own_box() {
    let _load = shared();
    // The box's init reports the bot's exit status to the arena through a pipe of its own; in a
    // box of an arena that is not root it is the bot's own user (a box uid's, as root). It is not
    // dumpable (`child::enter`): the bot can neither trace it, nor read its memory, nor open the
    // pipe through /proc to forge its result. Without the box, the bot's parent is the arena, of
    // its user: the control traces it and reads its memory.
    only_without_the_box("trace-parent", "traced its parent and read its memory");
}

/// A file or folder of the system's folders (which every box shows), removed (whole) when
/// dropped.
struct SystemFile(PathBuf);

impl Drop for SystemFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0).or_else(|_| std::fs::remove_dir_all(&self.0));
    }
}

/// `nobody`'s user and group ids.
const NOBODY: u32 = 65534;

/// Sets the permission bits of `path` (a test's own file).
fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
}

/// Gives `path` (a test's own file) to `nobody`.
fn to_nobody(path: &Path) {
    std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
}

/// An arena that root's test runs as `nobody`: a folder of the test's own (0755) holding its
/// copy, a `TMPDIR` anyone may write (1777) and a `HOME` of nobody's.
struct AsNobody {
    dir: tempfile::TempDir,
    arena: String,
    tmp: PathBuf,
    home: PathBuf,
}

impl AsNobody {
    fn new() -> AsNobody {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o755);
        let arena = shared_copy(dir.path(), &bin("arena"));
        let (tmp, home) = (dir.path().join("tmp"), dir.path().join("home"));
        std::fs::create_dir(&tmp).unwrap();
        chmod(&tmp, 0o1777);
        std::fs::create_dir(&home).unwrap();
        to_nobody(&home);
        AsNobody { dir, arena, tmp, home }
    }

    /// The arena, run as `nobody` with no other group, with `env`.
    fn command(&self, env: &[(&str, &str)]) -> Command {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid", &NOBODY.to_string(), "--regid", &NOBODY.to_string(), "--clear-groups"])
            .arg(&self.arena)
            .current_dir(self.dir.path())
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmp)
            .envs(env.iter().copied());
        command
    }

    /// `arena tournament --sandbox sandbox` (with `env`) of a league of greedy and `student`
    /// built by `build` ([`student_league`]), in a folder of its own whose `student/` and `out/`
    /// are nobody's, `student/` first given what `prepare` puts there: that folder and the
    /// run's output.
    fn league(
        &self,
        build: &str,
        sandbox: &str,
        env: &[(&str, &str)],
        prepare: impl FnOnce(&Path),
    ) -> (tempfile::TempDir, Output) {
        let league = tempfile::tempdir().unwrap();
        chmod(league.path(), 0o755);
        let student = league.path().join("student");
        std::fs::create_dir(&student).unwrap();
        to_nobody(&student);
        prepare(&student);
        let cfg = league.path().join("t.toml");
        std::fs::write(&cfg, student_league("", build)).unwrap();
        let out_dir = league.path().join("out");
        std::fs::create_dir(&out_dir).unwrap();
        to_nobody(&out_dir);
        let out = self
            .command(env)
            .args(["tournament", "--config"])
            .arg(&cfg)
            .arg("--out")
            .arg(&out_dir)
            .args(["--sandbox", sandbox])
            .output()
            .unwrap();
        (league, out)
    }
}

#[test]
fn a_bot_of_an_arena_that_is_not_root_cannot_read_what_only_its_user_or_groups_may() {
    let _load = shared();
    // Not root, the arena makes each box in a user namespace, as its own user: with its
    // supplementary groups, which the kernel still grants (the box shows them as `nogroup`, and
    // no ordinary user may drop them). A bot read a course group's grading file in `/etc`
    // (0640), and one the teacher owned there (0600). The box now shows the system's folders as
    // any user sees them. Here the arena runs as `nobody` with a group of its own (the teacher).
    if skipped_unless_root("this test must give a file to a group and start the arena in it (its root run does)") {
        return;
    }
    let (nobody, nogroup) = (65534u32, 65534u32);
    // A group no one has (none is made: setpriv gives the arena its number).
    let group = (424_242u32..).find(|&g| unsafe { libc::getgrgid(g) }.is_null()).unwrap();
    let normal = normal_score();
    let dir = tempfile::tempdir().unwrap();
    // Everything nobody runs and reads, where nobody may reach it; the replays in a folder of its own.
    let (arena, attack) = (shared_copy(dir.path(), &bin("arena")), shared_copy(dir.path(), &bin("zoo-attack")));
    let (_, victim) = victim(dir.path());
    std::fs::set_permissions(&victim, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let fire = shared_copy(dir.path(), &map("fire.txt"));
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::chown(&out, Some(nobody), Some(nogroup)).unwrap();
    let mut files = Vec::new();
    for (name, owner, mode) in [("group", (0, group), 0o640), ("own", (nobody, nogroup), 0o600)] {
        let file = SystemFile(PathBuf::from(format!("/etc/arena-test-{name}-{}", token())));
        std::fs::write(&file.0, "a teacher's secret\n").unwrap();
        std::os::unix::fs::chown(&file.0, Some(owner.0), Some(owner.1)).unwrap();
        std::fs::set_permissions(&file.0, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
        files.push(file);
    }
    let run = |file: &Path, mode: &str| -> Run {
        let replay = out.join(format!("{}.json", token())).display().to_string();
        let attacker = format!("{attack} read {}", file.display());
        let out = Command::new("setpriv")
            .args(["--reuid", &nobody.to_string(), "--regid", &nogroup.to_string(), "--groups", &group.to_string()])
            .arg(&arena)
            .args(["duel", "--json", "--seed", "5", "--map", &fire, "--replay", &replay, "--sandbox", mode])
            .args([&attacker, &victim])
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .output()
            .unwrap();
        let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        Run { out, result, replay: Value::Null }
    };
    for file in &files {
        let boxed = run(&file.0, "auto");
        unharmed(&boxed, normal);
        assert!(!String::from_utf8_lossy(&boxed.out.stderr).contains("no box"), "a box was made");
        // The control: without the box, the arena's user reads it.
        let control = run(&file.0, "none");
        assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control read it: {}", control.result);
    }
}

/// `arena duel --json` of `bots` on `map`, with `extra` flags, run by root in a user namespace
/// that maps only the caller's uid (`unshare -r`, as some rootless containers: `0 <outer> 1` in
/// /proc/self/uid_map), from the workspace's root; with `no_nested`, the namespace allows none
/// below it (`max_user_namespaces` 0: no box can be made, as where user namespaces are
/// restricted). `None` where no such namespace can be made here (said on stderr, with why).
fn duel_in_one_uid_namespace(map_name: &str, extra: &[&str], no_nested: bool, bots: [&str; 2]) -> Option<Run> {
    duel_in_one_uid_namespace_with(map_name, extra, no_nested, &[], bots)
}

/// [`duel_in_one_uid_namespace`] with `env` set for the arena.
fn duel_in_one_uid_namespace_with(
    map_name: &str,
    extra: &[&str],
    no_nested: bool,
    env: &[(&str, &str)],
    bots: [&str; 2],
) -> Option<Run> {
    match Command::new("unshare").args(["-r", "true"]).output() {
        Ok(probe) if probe.status.success() => {}
        Ok(probe) => {
            let why = String::from_utf8_lossy(&probe.stderr);
            eprintln!("no user namespace can be made here (`unshare -r true`: {}): not checked", why.trim());
            return None;
        }
        Err(e) => {
            eprintln!("`unshare` cannot be run here ({e}): not checked");
            return None;
        }
    }
    duel_with(map_name, extra, bots, |args, dir| {
        let script =
            if no_nested { r#"echo 0 > /proc/sys/user/max_user_namespaces && exec "$@""# } else { r#"exec "$@""# };
        let mut command = Command::new("unshare");
        command.args(["-r", "sh", "-c", script, "sh"]).arg(bin("arena")).args(args).current_dir(root());
        command.envs(env.iter().copied());
        if !as_root() {
            // The namespace maps this user alone: root's `/tmp` is shown as the overflow uid's
            // (65534), another user's, which the arena will not make its folders in (it says so).
            eprintln!("not root: the arena's TMPDIR is a folder of this user's (the namespace shows /tmp as nobody's)");
            command.env("TMPDIR", dir);
        }
        Some(command.output().unwrap())
    })
}

/// A root arena in a user namespace that maps only its own uid (`unshare -r`) plays: the box
/// users (uids 60000 and up) are not mapped there, and every bot failed (`EINVAL`), in a box
/// (its scratch tmpfs given to a box user) and without one (its scratch folder given to one).
/// It now runs its bots as an arena that is not root does: in a box of their own user
/// namespace, else plain, as its own uid; and says so once. Each way (a box, `--sandbox
/// require`, `plain`, and `auto` where no box can be made), the duel's result is the one of
/// the same duel outside the namespace.
#[test]
fn a_root_arena_in_a_user_namespace_of_one_uid_plays() {
    let _load = shared();
    if as_root() {
        // The machine's root there would run its bots as itself: refused, see
        // `the_machines_root_in_a_user_namespace_of_one_uid_runs_no_bot`.
        eprintln!("the machine's root: such an arena runs no bot (checked below); run as another user to check it");
        return;
    }
    let (greedy, random) = (bin("greedy"), bin("random"));
    let players = |result: &Value| (0..2).map(|i| player(result, i)).collect::<Vec<_>>();
    let reference = duel_run("duel.txt", &[], &[], [&greedy, &random]);
    assert!(reference.out.status.success(), "{}", String::from_utf8_lossy(&reference.out.stderr));
    let expected = players(&reference.result);
    assert!(expected[0].0 > 0 && expected[0].1 && expected[0].2.is_none(), "greedy plays: {}", reference.result);
    for (mode, no_nested) in [("auto", false), ("require", false), ("plain", false), ("auto", true)] {
        let Some(run) = duel_in_one_uid_namespace("duel.txt", &["--sandbox", mode], no_nested, [&greedy, &random])
        else {
            return;
        };
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        let how = format!("--sandbox {mode}{}", if no_nested { ", no user namespace below" } else { "" });
        assert!(run.out.status.success(), "{how}: {stderr}");
        assert_eq!(players(&run.result), expected, "{how}: {}\n{stderr}", run.result);
        assert_eq!(run.result["winner"], reference.result["winner"], "{how}: {}", run.result);
        assert_eq!(run.replay["players"].as_array().map(Vec::len), Some(2), "{how}: a replay");
        assert_eq!(
            stderr.matches("are not mapped in the arena's user namespace").count(),
            1,
            "{how}: said once: {stderr}"
        );
        if mode == "auto" {
            assert_eq!(stderr.contains("no box:"), no_nested, "{how}: a box where one can be made: {stderr}");
        }
    }
}

/// A plain bot of such an arena keeps the arena's uid, root in the namespace, which held every
/// capability there (`CAP_DAC_OVERRIDE` over the files of the namespace's users, `CAP_SYS_ADMIN`,
/// `CAP_KILL`…): it now drops them all before it runs its program (its capability sets are
/// empty), and cannot read a file of the arena's user whose mode keeps it even from its owner
/// (0000, which Landlock lets it read: its command names it). A box's bot holds none either.
/// The control: with the sandbox off (`--sandbox none`), the same bot holds them, and reads
/// the file.
#[test]
fn a_plain_bot_of_a_root_arena_in_a_user_namespace_holds_no_capability() {
    let _load = shared();
    if as_root() {
        // (The machine's root there runs no bot: see
        // `the_machines_root_in_a_user_namespace_of_one_uid_runs_no_bot`.)
        eprintln!("the machine's root: such an arena runs no bot; run as another user to check it");
        return;
    }
    let normal = normal_score();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "the league's secret\n").unwrap();
    std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    let (_, victim) = victim(dir.path());
    for (attack, what) in [
        ("capabilities".to_string(), "holds capabilities"),
        (format!("read {}", secret.display()), "reads a file of mode 0000"),
    ] {
        for mode in ["plain", "auto"] {
            let Some(run) =
                duel_in_one_uid_namespace("fire.txt", &["--sandbox", mode], false, [&attacker(&attack), &victim])
            else {
                return;
            };
            unharmed(&run, normal);
        }
        let Some(control) =
            duel_in_one_uid_namespace("fire.txt", &["--sandbox", "none"], false, [&attacker(&attack), &victim])
        else {
            return;
        };
        assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control {what}: {}", control.result);
    }
}

/// A plain bot keeps the arena's uid where the arena is not root (and so does a plain build):
/// Landlock showed it the system's folders whole, so it read what that uid may and others may
/// not there (under `unshare -r` run by the machine's root, which now runs no bot, it read
/// `/etc/shadow`). It is now shown all of them but what others may not read (the list a box's
/// masks are made of). Here a file in `/etc` only `nobody` may read, made for the test and
/// removed after it (and one in a folder of root's others may enter but not list), and an arena
/// run as `nobody` with `--sandbox plain`: its bot cannot read either file and still reads
/// `/etc/passwd`; its build cannot copy the file into its folder. The
/// controls: with Landlock off (`ARENA_PLAIN_WITHOUT_LANDLOCK`), the same bot and build read it.
#[test]
fn a_plain_bot_of_an_arena_that_is_not_root_reads_no_private_system_file() {
    let _load = shared();
    if skipped_unless_root("this test must make a file in /etc and start the arena as nobody (its root run does)") {
        return;
    }
    let secret = SystemFile(PathBuf::from(format!("/etc/arena-test-private-{}", token())));
    std::fs::write(&secret.0, "only nobody's\n").unwrap();
    to_nobody(&secret.0);
    chmod(&secret.0, 0o600);
    // The same in a folder of root's that others may enter but not list (`0711`): the walk,
    // which could not list it, hid nothing in it.
    let unlisted = SystemFile(PathBuf::from(format!("/etc/arena-test-unlisted-{}", token())));
    std::fs::create_dir(&unlisted.0).unwrap();
    chmod(&unlisted.0, 0o711);
    let inside = unlisted.0.join("secret");
    std::fs::write(&inside, "only nobody's\n").unwrap();
    to_nobody(&inside);
    chmod(&inside, 0o600);
    let normal = normal_score();
    let nobody = AsNobody::new();
    let attack = shared_copy(nobody.dir.path(), &bin("zoo-attack"));
    let (_, victim) = victim(nobody.dir.path());
    chmod(Path::new(&victim), 0o755);
    let fire = shared_copy(nobody.dir.path(), &map("fire.txt"));
    let duel = |path: &Path, env: &[(&str, &str)]| -> Run {
        // (In hex: a path among a bot's words is shown to it, as its own file.)
        let attacker = format!("{attack} read {}", hex(path));
        let out = nobody
            .command(env)
            .args(["duel", "--json", "--seed", "5", "--map", &fire, "--sandbox", "plain", "--no-replay"])
            .args([&attacker, &victim])
            .output()
            .unwrap();
        let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        Run { out, result, replay: Value::Null }
    };
    let off = [("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")];
    for path in [&secret.0, &inside] {
        unharmed(&duel(path, &[]), normal);
        let control = duel(path, &off);
        assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control reads it: {}", control.result);
    }
    let public = duel(Path::new("/etc/passwd"), &[]);
    assert_eq!(public.forfeit(0).as_deref(), Some("invalid_move"), "/etc/passwd is read: {}", public.result);
    // A plain build runs as the same uid.
    let build = |env: &[(&str, &str)]| {
        let script = format!("cat {} > leak; wc -c /etc/passwd > public", secret.0.display());
        let (league, out) = nobody.league(&script, "plain", env, |_| {});
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let read = |name: &str| std::fs::read(league.path().join("student").join(name)).unwrap_or_default();
        (read("leak").len(), read("public").len())
    };
    let (leak, public) = build(&[]);
    assert!(leak == 0 && public > 0, "the build reads /etc/passwd alone: {leak} bytes of the secret, {public}");
    let (leak, _) = build(&off);
    assert!(leak > 0, "the control build reads the secret");
}

/// Without Landlock (a kernel without it; here `ARENA_PLAIN_WITHOUT_LANDLOCK`, its switch for the
/// tests), a plain bot could write the machine's `/dev/shm`, a tmpfs, whose files take memory no
/// limit of the bot's counts and outlive the match (a red team's left 8 x 32 MiB under a limit of
/// 64). Where the arena can make a mount namespace (root; an arena that is not root, in a user
/// namespace of its own, where the kernel gives it one), a plain bot gets a `/dev/shm` of its own
/// now, capped as a box's scratch space (64 MiB), and gone with it: it writes 64 MiB of the 128
/// it tries, and leaves nothing. Here as root, and as `nobody`. Where none can be made, the arena
/// says so. The control: without the mount namespace (`ARENA_PLAIN_WITHOUT_MOUNT_NAMESPACE`, as
/// where none can be made), it writes all 128 MiB there, left after the match (removed by the
/// test).
#[test]
fn a_plain_bot_without_landlock_leaves_nothing_in_the_machines_dev_shm() {
    let _load = shared();
    let off = [PLAIN_WITHOUT_LANDLOCK];
    let none = [PLAIN_WITHOUT_LANDLOCK, PLAIN_WITHOUT_MOUNT_NAMESPACE];
    let dir = tempfile::tempdir().unwrap();
    chmod(dir.path(), 0o755);
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let (_, greedy) = victim(dir.path());
    chmod(Path::new(&greedy), 0o755);
    let root = as_root();
    let as_is = |env| move |extra: &[&str], bots: [&str; 2]| duel_run("fire.txt", extra, env, bots);
    let fenced = root || user_namespaces_offered();
    let (wrote, left, stderr) = fills_shm(as_is(&off), &attack, &greedy);
    if fenced {
        assert_eq!((wrote, left), (false, 0), "a /dev/shm of its own, capped and gone: {stderr}");
    } else {
        eprintln!("no user namespace for this user: a plain bot shares the machine's /dev/shm, as the arena says");
        assert!(stderr.contains("it shares the machine's /dev/shm"), "{stderr}");
    }
    let (wrote, left, _) = fills_shm(as_is(&none), &attack, &greedy);
    assert_eq!((wrote, left), (true, 128), "the control writes the machine's /dev/shm, for good");
    if !root {
        return;
    }
    // An arena that is not root makes its bot's mount namespace in a user namespace of its own.
    let nobody = AsNobody::new();
    let attack = shared_copy(nobody.dir.path(), &bin("zoo-attack"));
    let (_, greedy) = victim(nobody.dir.path());
    chmod(Path::new(&greedy), 0o755);
    let fire = shared_copy(nobody.dir.path(), &map("fire.txt"));
    let as_nobody = |env: &'static [(&'static str, &'static str)]| {
        let nobody = &nobody;
        let fire = &fire;
        move |extra: &[&str], bots: [&str; 2]| {
            let mut command = nobody.command(env);
            command.args(["duel", "--json", "--seed", "5", "--map", fire, "--no-replay"]).args(extra).args(bots);
            let out = command.output().unwrap();
            let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            Run { out, result, replay: Value::Null }
        }
    };
    let (wrote, left, stderr) = fills_shm(as_nobody(&[PLAIN_WITHOUT_LANDLOCK]), &attack, &greedy);
    if user_namespaces_offered() {
        assert_eq!((wrote, left), (false, 0), "nobody's plain bot: a /dev/shm of its own: {stderr}");
    } else {
        assert!(stderr.contains("it shares the machine's /dev/shm"), "{stderr}");
    }
    let (wrote, left, _) =
        fills_shm(as_nobody(&[PLAIN_WITHOUT_LANDLOCK, PLAIN_WITHOUT_MOUNT_NAMESPACE]), &attack, &greedy);
    assert_eq!((wrote, left), (true, 128), "the control, as nobody");
}

/// A plain build of an arena that is not root runs as the arena's user, and Landlock does not
/// govern a file's mode: it could `chmod 644` a private file of that user's anywhere (the
/// teacher's, the league's), readable to every local user for good. Where the arena can make a
/// mount namespace (here, as `nobody`, in a user namespace of its own), a plain build now runs
/// with every mount read-only but its folder and scratch folder: its `chmod` of the file fails
/// (`EROFS`) and the file stays private, with Landlock or without, while it still makes its own
/// file executable in its folder. Where none can be made, the arena says so. The control: the
/// same plain build without the mount namespace (`ARENA_PLAIN_WITHOUT_MOUNT_NAMESPACE`, as where
/// none can be made), Landlock on, changes the mode.
#[test]
fn a_plain_build_cannot_change_the_mode_of_its_users_files_outside_its_folder() {
    let _load = shared();
    if skipped_unless_root("this test must start the arena as nobody (its root run does)") {
        return;
    }
    let nobody = AsNobody::new();
    let private = nobody.dir.path().join("private");
    std::fs::write(&private, "nobody's own\n").unwrap();
    to_nobody(&private);
    let mode = |p: &Path| std::os::unix::fs::MetadataExt::mode(&std::fs::metadata(p).unwrap()) & 0o7777;
    let build = format!("chmod 644 {} 2>/dev/null; echo 'exit 0' > mine; chmod 755 mine", private.display());
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        chmod(&private, 0o600);
        let (league, out) = nobody.league(&build, "plain", env, |_| {});
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{env:?}: {stderr}");
        assert_eq!(mode(&league.path().join("student/mine")), 0o755, "{env:?}: its own file's mode is set: {stderr}");
        if user_namespaces_offered() {
            assert_eq!(mode(&private), 0o600, "{env:?}: the file stays private: {stderr}");
        } else {
            assert!(stderr.contains("no mount namespace for plain"), "{env:?}: {stderr}");
        }
    }
    chmod(&private, 0o600);
    let (_, out) = nobody.league(&build, "plain", &[PLAIN_WITHOUT_MOUNT_NAMESPACE], |_| {});
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(mode(&private), 0o644, "the control: without the mount namespace, the build opened the file to all");
}

/// The files `fill-shm … TAG` left in the machine's `/dev/shm`.
fn shm_files(tag: &str) -> Vec<PathBuf> {
    let prefix = format!("zoo-shm-{tag}-");
    let entries = std::fs::read_dir("/dev/shm").into_iter().flatten().flatten();
    entries.filter(|e| e.file_name().to_string_lossy().starts_with(&prefix)).map(|e| e.path()).collect()
}

/// Removes, when dropped, what [`shm_files`] lists of its tag (a control leaves them).
struct ShmLeft(String);

impl Drop for ShmLeft {
    fn drop(&mut self) {
        for file in shm_files(&self.0) {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// `zoo-attack fill-shm 128` (`attack`, its path) against `victim` with `--sandbox plain`, run by
/// `duel` (given the arena's extra words and the bots): whether it wrote it all (its invalid move),
/// the MiB it left in the machine's `/dev/shm` (removed after), and what the arena said.
fn fills_shm(duel: impl Fn(&[&str], [&str; 2]) -> Run, attack: &str, victim: &str) -> (bool, u64, String) {
    let mode = "plain";
    let tag = token();
    let _left = ShmLeft(tag.clone());
    let attacker = format!("{attack} fill-shm 128 {tag}");
    let run = duel(&["--sandbox", mode, "--startup-ms", "5000"], [&attacker, victim]);
    let stderr = String::from_utf8_lossy(&run.out.stderr).into_owned();
    assert!(run.out.status.success(), "{mode}: {stderr}");
    assert!(player(&run.result, 1).1, "{mode}: the victim finishes: {}", run.result);
    let bytes: u64 = shm_files(&tag).iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    (run.forfeit(0).as_deref() == Some("invalid_move"), bytes >> 20, stderr)
}

/// The boxes' folder in `$TMPDIR` (`arena-box-root-<uid>`) that another local user made first
/// no longer turns the boxes off, nor steers a root arena's set-up: a non-root arena (here
/// `nobody`), finding a file there, made its boxes in a folder of its own (it ran every bot
/// without a box, so that a bot read the arena's user's private files); a root arena keeps its
/// boxes and claims in `/run/arena` (it changed the mode of the folder another user's link
/// there named, and another user's `arena-box-uids` stopped every box). The control: the same
/// attack without the box reads the file.
#[test]
fn another_users_folder_in_tmpdir_turns_no_box_off_nor_steers_its_set_up() {
    let _load = shared();
    if skipped_unless_root(
        "this test must make files as another user and start the arena as nobody (its root run does)",
    ) {
        return;
    }
    let (nobody, nogroup) = (65534u32, 65534u32);
    let normal = normal_score();
    let dir = tempfile::tempdir().unwrap();
    let chmod =
        |p: &Path, mode: u32| std::fs::set_permissions(p, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
    let mode = |p: &Path| std::os::unix::fs::MetadataExt::mode(&std::fs::metadata(p).unwrap()) & 0o7777;
    let (arena, attack) = (shared_copy(dir.path(), &bin("arena")), shared_copy(dir.path(), &bin("zoo-attack")));
    let (_, victim) = victim(dir.path());
    chmod(Path::new(&victim), 0o755);
    let fire = shared_copy(dir.path(), &map("fire.txt"));
    // The shared temporary folder, as /tmp; another user (root here, for nobody's arena) made
    // nobody's boxes' folder first, as a file.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    chmod(&tmp, 0o1777);
    std::fs::write(tmp.join(format!("arena-box-root-{nobody}")), "").unwrap();
    // What only nobody may read (not in the folder of the bots' programs, which their boxes show
    // them), and its replays.
    let elsewhere = tempfile::tempdir().unwrap();
    chmod(elsewhere.path(), 0o755);
    let private = elsewhere.path().join("private");
    std::fs::create_dir(&private).unwrap();
    std::fs::write(private.join("secret"), "nobody's own\n").unwrap();
    for path in [private.join("secret"), private.clone()] {
        std::os::unix::fs::chown(&path, Some(nobody), Some(nogroup)).unwrap();
    }
    chmod(&private, 0o700);
    chmod(&private.join("secret"), 0o600);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::chown(&out, Some(nobody), Some(nogroup)).unwrap();
    let run = |mode: &str| -> Run {
        let replay = out.join(format!("{}.json", token())).display().to_string();
        // (In hex: a path among a bot's words is shown in its box, as its own file.)
        let attacker = format!("{attack} read {}", hex(&private.join("secret")));
        let out = Command::new("setpriv")
            .args(["--reuid", &nobody.to_string(), "--regid", &nogroup.to_string(), "--clear-groups"])
            .arg(&arena)
            .args(["duel", "--json", "--seed", "5", "--map", &fire, "--replay", &replay, "--sandbox", mode])
            .args([&attacker, &victim])
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        Run { out, result, replay: Value::Null }
    };
    let boxed = run("auto");
    unharmed(&boxed, normal);
    let stderr = String::from_utf8_lossy(&boxed.out.stderr);
    assert!(!stderr.contains("no box") && stderr.contains("boxes are made in folders of each run's own"), "{stderr}");
    let control = run("none");
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control read it: {}", control.result);

    // A root arena: another user's link where its boxes' folder was, and their `arena-box-uids`.
    let target = dir.path().join("target");
    std::fs::create_dir(&target).unwrap();
    chmod(&target, 0o755);
    let link = tmp.join("arena-box-root-0");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(nobody), Some(nogroup)).unwrap();
    for name in ["arena-box-uids", "arena-box-uids-0", "arena-cpus-0"] {
        std::fs::create_dir(tmp.join(name)).unwrap();
        std::os::unix::fs::chown(tmp.join(name), Some(nobody), Some(nogroup)).unwrap();
    }
    let replay = dir.path().join("root.json").display().to_string();
    let greedy = bin("greedy");
    let root_run = Command::new(&arena)
        .args(["duel", "--json", "--seed", "5", "--map", &fire, "--replay", &replay, &greedy, &victim])
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&root_run.stderr);
    assert!(root_run.status.success() && !stderr.contains("no box"), "{stderr}");
    assert_eq!(mode(&target), 0o755, "the set-up did not go through the link");
}

#[test]
fn cannot_read_the_arenas_environment_or_the_opponents() {
    let _load = shared();
    let normal = normal_score();
    let var = format!("ZOO_SECRET_{}", token());
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = victim(dir.path());
    let attack = attacker(&format!("environ {var}"));
    let env = [(var.as_str(), "teacher-token")];
    unharmed(&duel_run("fire.txt", &[], &env, [&attack, &path]), normal);
    let control = duel_run("fire.txt", &["--sandbox", "none"], &env, [&attack, &path]);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control: {}", control.result);
}

#[test]
fn cannot_read_or_overwrite_another_bots_files() {
    let _load = shared();
    let normal = normal_score();
    // The victim is a script (a running program cannot be written to, a script can).
    let dir = tempfile::tempdir().unwrap();
    let (_, greedy) = victim(dir.path());
    let script = dir.path().join("victim.sh");
    std::fs::write(&script, "exec \"$1\"\n").unwrap();
    let victim = format!("sh {} {greedy}", script.display());
    let before = std::fs::read(&script).unwrap();
    for attack in ["read", "write"] {
        let run = duel_run("fire.txt", &[], &[], [&attacker(&format!("{attack} {}", hex(&script))), &victim]);
        unharmed(&run, normal);
    }
    assert_eq!(std::fs::read(&script).unwrap(), before, "the victim's program is untouched");
    let control =
        duel_run("fire.txt", &["--sandbox", "none"], &[], [&attacker(&format!("write {}", hex(&script))), &victim]);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control: {}", control.result);
    assert_ne!(std::fs::read(&script).unwrap(), before, "the control overwrote it");
}

#[test]
fn cannot_signal_the_arena() {
    let _load = shared();
    let normal = normal_score();
    for sig in ["TERM", "STOP"] {
        unharmed(&against_victim(|_| format!("parent {sig}"), true), normal);
    }
    let control = against_victim(|_| "parent TERM".to_string(), false);
    assert!(!control.out.status.success(), "the control: the arena was killed");
}

#[test]
fn without_a_box_a_root_arena_says_why_a_private_program_cannot_start() {
    let _load = shared();
    // Only a root arena runs plain bots as users of their own; otherwise the bot is the arena's
    // user, who may read its own private folder, and starts.
    if !as_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let (_, path) = victim(dir.path());
    let run = duel_run("fire.txt", &["--sandbox", "plain"], &[], [&path, &bin("greedy")]);
    let stderr = String::from_utf8_lossy(&run.out.stderr);
    assert!(!run.out.status.success());
    assert!(
        stderr.contains("Permission denied (os error 13); without a box")
            && stderr.contains("must be readable by others: chmod o+rx"),
        "{stderr}"
    );
    // The control: in a box the same program starts (it is bound into the box by itself).
    let boxed = duel_run("fire.txt", &[], &[], [&path, &bin("greedy")]);
    assert!(boxed.out.status.success(), "{}", String::from_utf8_lossy(&boxed.out.stderr));
}

#[test]
fn leaves_no_daemon_behind() {
    let _load = shared();
    let normal = normal_score();
    let marker = format!("51{}", std::process::id() % 1000 + 1000);
    unharmed(&against_victim(|_| format!("daemon {marker}"), true), normal);
    let pattern = format!("sleep {marker}");
    assert!(!process_running(&pattern), "the daemon ended with the box");
    // Without a box (`plain`: what `auto` falls back to where none can be made), the bot's
    // keeper adopts the daemon and ends it with the bot.
    let plain = against_victim_in(|_| format!("daemon {marker}"), "plain");
    assert!(plain.out.status.success(), "{}", String::from_utf8_lossy(&plain.out.stderr));
    assert_eq!(plain.score(1), normal, "{}", plain.result);
    assert!(!process_running(&pattern), "the daemon ended with the plain bot");
    against_victim(|_| format!("daemon {marker}"), false);
    let survived = process_running(&pattern);
    let _ = Command::new("pkill").args(["-f", &pattern]).status();
    assert!(survived, "the control: without the box the daemon survives the match");
}

#[test]
fn two_bots_cannot_talk() {
    let _load = shared();
    for how in ["abstract", "tmp", "shm"] {
        cannot_talk_by(how, true);
    }
}

#[test]
fn two_bots_cannot_talk_through_the_files_they_share() {
    let _load = shared();
    // Every box sees the same system files, read only: a lock one box holds on one the other
    // would see (`flock`, `fcntl`'s record and open file description locks), and one box's
    // reading it the other would be told of (inotify, dnotify on its folder, fanotify in the mode
    // an unprivileged program may use). The box refuses them all.
    for how in ["flock", "posix-lock", "ofd-lock", "inotify", "dnotify"] {
        cannot_talk_by(how, true);
    }
    cannot_talk_by("fanotify", fanotify_offered());
    // Nor can two plain bots, whose locks and notices are a box's (before 2026-12-07 a red
    // team's plain bots talked through a lock on `/etc/hostname`; their inotify instances also
    // held 1 GiB of the kernel's memory under a limit of 64 MiB).
    for how in ["flock", "posix-lock", "ofd-lock", "inotify", "dnotify", "fanotify"] {
        cannot_talk_in(how, &["--sandbox", "plain"], false);
    }
    if !fanotify_offered() {
        eprintln!("this kernel refuses fanotify to this user: the control (without the box) cannot show it working");
    }
}

#[test]
fn two_bots_cannot_talk_through_the_counts_kept_per_user() {
    let _load = shared();
    // Queued signals, POSIX message queue bytes and locked shared memory are counted per user,
    // a user namespace's for its owner too: one box filling a count (at its fourth tick) would
    // leave the other's own attempts refused, a channel. An unprivileged arena's boxes all
    // count for its user (a root arena's are users of their own). The box gives each a small
    // share of the first two; the kernel here does not pass on the third's (the control, with
    // every box its user's, shows it: not as root, whose locks are not counted).
    let root = as_root();
    for (how, control) in [("sigpending", true), ("mqueue", true), ("shm-lock", !root)] {
        cannot_talk_by(how, control);
    }
}

/// Two `talk HOW` bots, one per seat: in a box seat 2 never hears seat 1; without it (the
/// control, when `control`) it does, and says so by an invalid move.
fn cannot_talk_by(how: &str, control: bool) {
    cannot_talk_in(how, &[], control);
}

/// [`cannot_talk_by`], the duel run with `flags`.
fn cannot_talk_in(how: &str, flags: &[&str], control: bool) {
    let talker = attacker(&format!("talk {how} {}", token()));
    let run = duel_run("fire.txt", flags, &[], [&talker, &talker]);
    assert!(run.out.status.success(), "{how}: {}", String::from_utf8_lossy(&run.out.stderr));
    assert_eq!(run.forfeit(1), None, "{how}: nothing was heard: {}", run.result);
    if control {
        let talker = attacker(&format!("talk {how} {}", token()));
        let control = duel_run("fire.txt", &["--sandbox", "none"], &[], [&talker, &talker]);
        assert_eq!(control.forfeit(1).as_deref(), Some("invalid_move"), "{how}: the control heard: {}", control.result);
    }
}

#[test]
fn cannot_fill_tmp_past_its_cap() {
    let _load = shared();
    only_without_the_box("fill-tmp 100", "wrote 100 MiB");
}

#[test]
fn cannot_reach_the_network_remount_or_escape_the_box() {
    let _load = shared();
    let normal = normal_score();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("outside.txt");
    std::fs::write(&target, "").unwrap();
    let attack = |_: &str| format!("escape {port} {}", hex(&target));
    unharmed(&against_victim(attack, true), normal);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "", "nothing was written outside");
    let control = against_victim(attack, false);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control: {}", control.result);
}

#[test]
fn a_build_cannot_read_the_cargo_credentials_of_whoever_runs_the_arena() {
    let _load = shared();
    // A build's box shows it the Rust toolchain of whoever runs the arena, `CARGO_HOME` with it;
    // a student's build that printed `credentials.toml` in its error had the teacher's crates.io
    // token shown in its row, on the league's pages. (A `CARGO_HOME` in a temporary folder, as
    // the box's own /tmp once hid.)
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("cargo-home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    let secret = format!("cio-secret-{}", token());
    let credentials = home.join("credentials.toml");
    std::fs::write(&credentials, format!("[registry]\ntoken = \"{secret}\"\n")).unwrap();
    std::fs::set_permissions(&credentials, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    std::fs::create_dir(dir.path().join("student")).unwrap();
    // (On one line: a failed build's row quotes the first line of its error.)
    let build = "echo \"error: $(tr '\\n' ' ' < \"$CARGO_HOME/credentials.toml\")\" >&2; exit 3";
    let text = student_league("", build);
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let failure = |out: &str, mode: &str| -> String {
        let out = dir.path().join(out);
        let (cfg, out_arg) = (cfg.display().to_string(), out.display().to_string());
        let run = Command::new(bin("arena"))
            .current_dir(root())
            .env("CARGO_HOME", &home)
            .args(["tournament", "--config", &cfg, "--out", &out_arg, "--sandbox", mode])
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let rows = leaderboard(&out)["rows"].as_array().cloned().unwrap_or_default();
        let student = rows.iter().find(|r| r["bot"] == "student").cloned().unwrap_or_default();
        student["failure"].as_str().unwrap_or_default().to_string()
    };
    let boxed = failure("boxed", "auto");
    assert!(boxed.contains("failed (exit status: 3)"), "the build ran: {boxed}");
    assert!(!boxed.contains(&secret), "the token stays hidden: {boxed}");
    // The control: without the box, the build prints the token, and its row shows it.
    let control = failure("control", "none");
    assert!(control.contains(&secret), "the control printed the token: {control}");
}

#[test]
fn a_build_cannot_read_a_token_in_cargo_s_config_or_behind_a_linked_credentials_file() {
    let _load = shared();
    // Cargo reads a registry token written in `CARGO_HOME/config.toml` too, and a teacher may
    // keep `credentials.toml` as a link to the file elsewhere: a student's build printed both
    // into its error. The box shows `config.toml` without its token (the rest kept) and the
    // linked file empty; a dangling `credentials` link is no error.
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("cargo-home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    std::fs::create_dir_all(home.join("keep")).unwrap();
    let (config_secret, linked_secret) = (format!("config-{}", token()), format!("linked-{}", token()));
    let config = format!("[registries.school]\nindex = \"file:///school\"\ntoken = \"{config_secret}\"\n");
    std::fs::write(home.join("config.toml"), config).unwrap();
    std::fs::write(home.join("keep/real.toml"), format!("[registry]\ntoken = \"{linked_secret}\"\n")).unwrap();
    std::os::unix::fs::symlink("keep/real.toml", home.join("credentials.toml")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone"), home.join("credentials")).unwrap();
    std::fs::create_dir(dir.path().join("student")).unwrap();
    // (On one line: a failed build's row quotes the first line of its error.)
    let build = "echo \"error: $(cat \"$CARGO_HOME/config.toml\" \"$CARGO_HOME/credentials.toml\" | tr '\\n' ' ')\" >&2; exit 3";
    let boxed = student_failure(dir.path(), "boxed", build, "auto", Some(&home));
    assert!(boxed.contains("failed (exit status: 3)") && boxed.contains("file:///school"), "it ran: {boxed}");
    assert!(!boxed.contains(&config_secret) && !boxed.contains(&linked_secret), "the tokens stay hidden: {boxed}");
    // The control: without the box, the build prints both.
    let control = student_failure(dir.path(), "control", build, "none", Some(&home));
    assert!(control.contains(&config_secret) && control.contains(&linked_secret), "the control: {control}");
}

#[test]
fn a_build_script_cannot_read_the_teachers_env_or_proxy_password_in_cargo_s_config() {
    let _load = shared();
    // Cargo sets the variables of `[env]` in `CARGO_HOME/config.toml` for build scripts: a
    // teacher's `GITHUB_TOKEN` there reached a student's `build.rs`, which could compile it into
    // the bot (which prints it) or print it into the build's log; the file itself held a proxy's
    // password. A real cargo build of a student's crate whose `build.rs` prints both: the box's
    // copy has neither, and keeps the rest (`[build] rustflags` reach the build, which succeeds).
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().ok();
    let sysroot = sysroot.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".rustup")));
    let shown = |dir: &Path| Path::new(&sysroot).starts_with(dir);
    if sysroot.is_empty() || !(shown(Path::new("/usr")) || rustup_home.is_some_and(|h| shown(&h))) {
        eprintln!("no Rust toolchain a build's box shows here (sysroot `{sysroot}`)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("cargo-home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    let (env_secret, proxy_secret) = (format!("env-{}", token()), format!("proxy-{}", token()));
    let config = format!(
        "[env]\nTEACHER_TOKEN = \"{env_secret}\"\n[http]\nproxy = \"http://teacher:{proxy_secret}@proxy.school:3128\"\n\
         [build]\nrustflags = [\"--cfg\", \"kept_config\"]\n[net]\noffline = true\n"
    );
    std::fs::write(home.join("config.toml"), config).unwrap();
    let student = dir.path().join("student");
    std::fs::create_dir_all(student.join("src")).unwrap();
    let manifest = "[package]\nname = \"student\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
    std::fs::write(student.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(student.join("src/main.rs"), "fn main() {}\n").unwrap();
    let script = r#"fn main() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let config = std::fs::read_to_string(var("CARGO_HOME") + "/config.toml").unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS").replace('\x1f', " ");
    println!("cargo:warning=env [{}] flags [{flags}] config [{}]", var("TEACHER_TOKEN"), config.replace('\n', " "));
}
"#;
    std::fs::write(student.join("build.rs"), script).unwrap();
    let log = |out: &str| -> String {
        // (A target folder of each run's own: cargo would replay the first run's warning. And the
        // arena's environment, which `--sandbox none` keeps, may name the workspace's.)
        let build = format!("PATH={sysroot}/bin:$PATH cargo build --offline --target-dir target-{out}");
        let mode = if out == "boxed" { "auto" } else { "none" };
        let failure = student_failure(dir.path(), out, &build, mode, Some(&home));
        assert_eq!(failure, "", "{out}: the build succeeds");
        let logs = std::fs::read_dir(dir.path().join(out).join("builds")).unwrap();
        let logs = logs.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("student"));
        logs.map(|e| std::fs::read_to_string(e.path()).unwrap()).collect()
    };
    let boxed = log("boxed");
    assert!(boxed.contains("env [] flags [--cfg kept_config] config ["), "it ran, the rest kept: {boxed}");
    assert!(!boxed.contains(&env_secret) && !boxed.contains(&proxy_secret), "the secrets stay hidden: {boxed}");
    // The control: without the box, the build script reads both.
    let control = log("control");
    assert!(control.contains(&format!("env [{env_secret}]")) && control.contains(&proxy_secret), "{control}");
}

/// Runs a league of greedy and `student` (built by `build` in its folder `dir/student`, which
/// `prepare` is given first) with `--sandbox mode`, `CARGO_HOME` at `cargo_home`; returns the
/// student's failure (empty if none), the run's output folder being `dir/out`.
fn student_failure(dir: &Path, out: &str, build: &str, mode: &str, cargo_home: Option<&Path>) -> String {
    let cfg = dir.join("t.toml");
    std::fs::write(&cfg, student_league("", build)).unwrap();
    let out = dir.join(out);
    let (cfg, out_arg) = (cfg.display().to_string(), out.display().to_string());
    let mut command = Command::new(bin("arena"));
    command.current_dir(root()).args(["tournament", "--config", &cfg, "--out", &out_arg, "--sandbox", mode]);
    if let Some(home) = cargo_home {
        command.env("CARGO_HOME", home);
    }
    let run = command.output().unwrap();
    let rows = leaderboard(&out)["rows"].as_array().cloned().unwrap_or_default();
    let student = rows.iter().find(|r| r["bot"] == "student").cloned().unwrap_or_default();
    assert!(run.status.success() || student["failure"].is_string(), "{}", String::from_utf8_lossy(&run.stderr));
    student["failure"].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_build_cannot_write_its_folder_s_git_metadata() {
    let _load = shared();
    // A student's repository cloned into the course's folder (as GitHub Classroom does): its
    // Makefile wrote an executable `.git/hooks/post-merge` and `core.fsmonitor` in `.git/config`,
    // which the teacher's next `git pull` (or `git status`) there ran, unboxed, as the teacher or
    // root; and another commit's id into its branch, which the league then published as the
    // version graded (`v1 1111111`). Its box shows its `.git` read-only: each write fails
    // (EROFS), the build goes on, `.git` is as it was, the label the real commit.
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("student");
    std::fs::create_dir(&student).unwrap();
    std::fs::write(student.join("notes.txt"), "my bot\n").unwrap();
    git(&student, &["init", "-q"]);
    git(&student, &["add", "."]);
    git(&student, &["commit", "-qm", "my bot"]);
    let head = git(&student, &["rev-parse", "--short=7", "HEAD"]);
    let branch = student.join(".git").join(git(&student, &["symbolic-ref", "HEAD"]));
    let before = files_under(&student.join(".git"));
    let forged = "1111111111111111111111111111111111111111";
    let build = format!(
        "printf '#!/bin/sh\\necho ran\\n' > .git/hooks/post-merge; chmod +x .git/hooks/post-merge; \
         printf '[core]\\n\\tfsmonitor = echo ran\\n' >> .git/config; \
         echo {forged} > .git/$(sed -n 's/^ref: //p' .git/HEAD); echo rm > .git/index; exit 0"
    );
    let row = |out: &str| {
        let rows = leaderboard(&dir.path().join(out))["rows"].as_array().cloned().unwrap_or_default();
        rows.iter().find(|r| r["bot"] == "student").cloned().unwrap_or_default()
    };
    let log = |out: &str| -> String {
        let logs = std::fs::read_dir(dir.path().join(out).join("builds")).unwrap();
        let logs = logs.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("student"));
        logs.map(|e| std::fs::read_to_string(e.path()).unwrap()).collect()
    };
    assert_eq!(student_failure(dir.path(), "boxed", &build, "auto", None), "", "the build goes on");
    assert!(log("boxed").contains("Read-only file system"), "{}", log("boxed"));
    assert_eq!(files_under(&student.join(".git")), before, "its .git as it was");
    assert_eq!(row("boxed")["version"], format!("v1 {head}").as_str(), "{}", row("boxed"));
    // The control: without the box, each write lands (nothing keeps a build without one from its
    // `.git`), and the build fails, its changes named (the walk after every build): no label
    // of it is published.
    let control = student_failure(dir.path(), "control", &build, "none", None);
    assert!(control.contains("changed or moved git metadata in its folder: .git;"), "{control}");
    let hook = std::fs::metadata(student.join(".git/hooks/post-merge"));
    let hook = hook.map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()));
    assert!(hook.is_ok_and(|mode| mode & 0o100 != 0), "the control planted a hook");
    let config = std::fs::read_to_string(student.join(".git/config")).unwrap();
    assert!(config.contains("fsmonitor = echo ran"), "{config}");
    assert_eq!(std::fs::read_to_string(&branch).unwrap().trim(), forged, "the control forged its branch");
    assert!(row("control")["version"].is_null(), "no version of a failed build is published: {}", row("control"));
}

#[test]
fn a_build_running_as_root_cannot_read_what_only_root_may() {
    let _load = shared();
    // A root arena builds a folder root owns (the teacher cloned the students' repositories as
    // root) as uid 0, without a capability: still the owner of root's files, it read
    // `/etc/shadow`, the TLS key in `/etc/ssl/private`, and a `config.toml` the teacher had made
    // private (0600) in `CARGO_HOME`, into its error, which the league's pages show. The box now
    // shows it what any user may read. (Not as root, a build runs as the arena's user, the
    // owner of that file, by design: nothing to show then.)
    if skipped_unless_root("a build runs as the arena's own user, whose files these are") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("cargo-home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    let secret = format!("private-registry-{}", token());
    let config = home.join("config.toml");
    std::fs::write(&config, format!("[registries.school]\ntoken = \"{secret}\"\n")).unwrap();
    std::fs::set_permissions(&config, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    std::fs::create_dir(dir.path().join("student")).unwrap();
    // (On one line: a failed build's row quotes the first line of its error.)
    let build = "echo \"error: $(id -u) $(tr '\\n' ' ' < \"$CARGO_HOME/config.toml\")\" >&2; exit 3";
    let boxed = student_failure(dir.path(), "boxed", build, "auto", Some(&home));
    assert!(boxed.contains("failed (exit status: 3)") && boxed.contains("error: 0 "), "it ran as uid 0: {boxed}");
    assert!(!boxed.contains(&secret), "the private file stays hidden: {boxed}");
    // The control: without the box, the build prints it.
    let control = student_failure(dir.path(), "control", build, "none", Some(&home));
    assert!(control.contains(&secret), "the control printed the token: {control}");
}

#[test]
fn a_build_of_a_folder_root_owns_is_refused_without_a_box() {
    let _load = shared();
    // Without a box (`--sandbox plain`, or `auto` where none can be made), a root arena runs a
    // build as its folder's owner: for a folder root owns, root itself, every capability kept.
    // A student's build wrote another student's folder and the league's results that way. It
    // is refused now, and says why; a folder of another owner still builds, as that user.
    if skipped_unless_root("a plain build runs as the arena's own user") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("student");
    std::fs::create_dir(&folder).unwrap();
    let outside = dir.path().join("outside");
    let build = format!("touch {} built", outside.display());
    let plain = student_failure(dir.path(), "plain", &build, "plain", None);
    assert!(plain.contains("belongs to root") && plain.contains("would run as root"), "{plain}");
    assert!(!outside.exists() && !folder.join("built").exists(), "the build did not run");
    // The control: with the box off, the same build runs as root and writes outside its folder.
    let control = student_failure(dir.path(), "control", &build, "none", None);
    assert_eq!(control, "", "the control built");
    assert!(outside.exists(), "the control wrote outside its folder");
    // A folder given to a user of its own builds without a box, as that user (who may not
    // write outside it: the build fails, its file in the folder made; where the arena made it a
    // mount namespace, everything but its folders is read-only too, which the kernel says first).
    std::fs::remove_file(&outside).unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::os::unix::fs::chown(&folder, Some(65534), Some(65534)).unwrap();
    let nobody = student_failure(dir.path(), "nobody", &format!("touch built {}", outside.display()), "plain", None);
    assert!(nobody.contains("Permission denied") || nobody.contains("Read-only file system"), "{nobody}");
    assert!(folder.join("built").exists() && !outside.exists());
}

#[test]
fn has_no_descriptor_of_the_arenas_but_its_pipes() {
    let _load = shared();
    let normal = normal_score();
    // The arena is started with a descriptor 7 open (as a shell or a CI runner may leave one).
    let run = |boxed: bool| {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = victim(dir.path());
        let leaked = std::fs::File::open(map("fire.txt")).unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&leaked);
        let replay = dir.path().join("r.json").display().to_string();
        let mut command = Command::new(bin("arena"));
        command.current_dir(root()).args([
            "duel",
            "--json",
            "--seed",
            "5",
            "--map",
            &map("fire.txt"),
            "--replay",
            &replay,
        ]);
        if !boxed {
            command.args(["--sandbox", "none"]);
        }
        command.args([&attacker("fds"), &path]);
        // SAFETY: dup2 in the child before exec.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                if libc::dup2(fd, 7) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = command.output().unwrap();
        let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        Run { out, result, replay: Value::Null }
    };
    unharmed(&run(true), normal);
    let control = run(false);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control saw fd 7: {}", control.result);
}

#[test]
fn cannot_inject_commands_into_the_teachers_terminal() {
    let _load = shared();
    // The arena runs in a pseudo-terminal of its own, as in a teacher's shell.
    let run = |boxed: bool| -> Value {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = victim(dir.path());
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty fills two descriptors.
        let ok =
            unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
        assert_eq!(ok, 0, "openpty");
        let json = dir.path().join("result.json");
        let replay = dir.path().join("r.json").display().to_string();
        let mut command = Command::new(bin("arena"));
        command.current_dir(root()).args([
            "duel",
            "--json",
            "--seed",
            "5",
            "--map",
            &map("fire.txt"),
            "--replay",
            &replay,
        ]);
        if !boxed {
            command.args(["--sandbox", "none"]);
        }
        command.args([&attacker("tty"), &path]);
        command.stdout(std::fs::File::create(&json).unwrap()).stderr(Stdio::null());
        // SAFETY: session, controlling terminal and stdin in the child before exec.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                libc::setsid();
                if libc::ioctl(slave, libc::TIOCSCTTY, 0) < 0 || libc::dup2(slave, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let status = command.status().unwrap();
        // SAFETY: closing our descriptors.
        unsafe {
            libc::close(slave);
            libc::close(master);
        }
        assert!(status.success());
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
    };
    let normal = normal_score();
    let boxed = run(true);
    assert_eq!(player(&boxed, 0).2, None, "no terminal to inject into: {boxed}");
    assert_eq!(player(&boxed, 1).0, normal);
    let control = run(false);
    assert_eq!(player(&control, 0).2.as_deref(), Some("invalid_move"), "the control injected: {control}");
}

#[test]
fn cannot_starve_the_opponent_of_cpu() {
    let _load = alone();
    // 60 busy children, then normal play: the reference bot still plans in time on the
    // course's map.
    let reference = bin("reference");
    let hog = attacker("hog-cpu 60");
    let baseline = duel_run("duel.txt", &[], &[], [&attacker("read /nonexistent"), &reference]);
    let run = duel_run("duel.txt", &[], &[], [&hog, &reference]);
    assert!(run.out.status.success());
    assert_eq!(run.forfeit(1), None, "{}", run.result);
    assert_eq!(run.score(1), baseline.score(1), "the reference plays its normal game: {}", run.result);
    // On the wall clock too, where a starved opponent loses its time: children each in a
    // session of their own (each weighed by the scheduler like another program) keep at most
    // one CPU busy, the box's quota, and the opponent's box gets its share beside them. Both
    // are measured as rates of CPU time, which the machine's other load lowers alike (on a busy
    // machine the reference's first answer took up to 4.9 times its CPU time, box or not).
    // Against a bot that sleeps through its first answer (2 s; the hog may burn 10 s of CPU
    // between answers before the monitor ends it): the hog's box kept 0.93 to 1.04 CPUs busy
    // meanwhile (0.25 to 0.73 beside three other busy programs); the control lifts the quota
    // (`--max-cpus 0`), and it kept 1.76 to 2.2 busy. And against the reference, which thinks
    // about 110 ms on its first answer: the hog's box ran 1.0 to 2.4 times as fast as the
    // reference then, busy machine or not, against 30 to 80 times without the quota on this
    // project's machines (cgroup v1, `cpu` a hierarchy of its own: where `cpu` comes with
    // `cpuacct`, or on v2, every box has a CPU group of its own, which shares fairly already).
    // (The token names the hog's processes, killed once the duels are over.)
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("the wall-clock half needs two CPUs (one cannot show a box using more than one): not run");
        return;
    }
    let mark = token();
    let sessions = attacker(&format!("hog-cpu 60 setsid {mark}"));
    let napper = attacker("nap 2000");
    let long = ["--clock", "wall", "--startup-ms", "5000", "--move-ms", "10000"];
    let uncapped = [&long[..], &["--max-cpus", "0"]].concat();
    // (Room on the clock for a whole game of the reference's on a busy machine.)
    let roomy = [&long[..], &["--total-ms", "30000"]].concat();
    let napping = duel_run("duel.txt", &long, &[], [&sessions, &napper]);
    let stderr = String::from_utf8_lossy(&napping.out.stderr).into_owned();
    if ["no box", "no cpu cgroup", "refused a box's CPU quota"].iter().any(|m| stderr.contains(m)) {
        // (An unprivileged arena makes no cgroups, and some systems refuse the quota: the arena
        // says so, and the monitor ends such a hog only between answers.)
        let _ = Command::new("pkill").args(["-f", &mark]).status();
        eprintln!("the wall-clock half needs boxes with a CPU quota, which the arena says it has not: not run");
        return;
    }
    let control = duel_run("duel.txt", &uncapped, &[], [&sessions, &napper]);
    let wall = duel_run("duel.txt", &roomy, &[], [&sessions, &reference]);
    let starved = duel_run("duel.txt", &uncapped, &[], [&sessions, &reference]);
    let _ = Command::new("pkill").args(["-f", &mark]).status();
    // (The first two steps' answers, for a failure's message.)
    let first_steps = |run: &Run| {
        let steps = run.replay["steps"].as_array().cloned().unwrap_or_default();
        steps.iter().take(2).map(|s| s["replies"].to_string()).collect::<Vec<_>>().join(" ")
    };
    let (held, free) = (hog_rate(&napping), hog_rate(&control));
    assert!(held <= 1.25, "the hog kept {held:.2} CPUs busy under its quota: {}", first_steps(&napping));
    assert!(free >= 1.5, "the control kept {free:.2} CPUs busy: {}", first_steps(&control));
    assert_eq!(wall.forfeit(1), None, "{}", wall.result);
    // The hog's box's CPU time per millisecond against the reference's, over the reference's
    // first answer: one bound, between what was measured with the quota and without it.
    let share = |run: &Run| {
        let (ms, cpu_ms) = first_answer(run, 1);
        hog_rate(run) / (cpu_ms as f64 / ms.max(1) as f64).max(1e-3)
    };
    let (fair, unfair) = (share(&wall), share(&starved));
    eprintln!("CPUs kept busy by the hog: {held:.2} (control {free:.2}); its speed over the reference's: {fair:.1} (control {unfair:.1})");
    assert!(fair < 8.0, "the hog's box ran {fair:.1} times as fast as the reference: {}", first_steps(&wall));
    assert!(unfair >= 8.0, "the control: the hog's box ran {unfair:.1} times as fast: {}", first_steps(&starved));
}

/// The CPUs the box of seat 0 kept busy on average from the start of a duel to its second
/// answer: the CPU time of its first two answers over their wall time (the first step lasts
/// until the later of the two answers; the referee's own moment between steps aside).
fn hog_rate(run: &Run) -> f64 {
    let reply = |step: usize, seat: u64| {
        let replies = run.replay["steps"][step]["replies"].as_array().cloned().unwrap_or_default();
        let reply = replies.iter().find(|r| r["player"] == seat).cloned().unwrap_or(Value::Null);
        (reply["ms"].as_u64().unwrap_or(0), reply["cpu_ms"].as_u64().unwrap_or(0))
    };
    let ((ms0, cpu0), (other_ms0, _), (ms1, cpu1)) = (reply(0, 0), reply(0, 1), reply(1, 0));
    (cpu0 + cpu1) as f64 / (ms0.max(other_ms0) + ms1).max(1) as f64
}

/// The wall and CPU milliseconds of `seat`'s first answer in a duel's replay.
fn first_answer(run: &Run, seat: u64) -> (u64, u64) {
    let replies = run.replay["steps"][0]["replies"].as_array().cloned().unwrap_or_default();
    let reply = replies.iter().find(|r| r["player"] == seat).unwrap_or_else(|| panic!("no answer: {}", run.replay));
    (reply["ms"].as_u64().unwrap_or(0), reply["cpu_ms"].as_u64().unwrap_or(0))
}

#[test]
fn memory_is_limited_for_the_whole_box() {
    let _load = shared();
    // Five children of 100 MiB each, under a 200 MiB limit: each is under it, the box is not.
    let normal = normal_score();
    // (A long first answer: the children's 500 MiB of page faults are its CPU time.)
    let limit = ["--max-memory-mb", "200", "--startup-ms", "10000"];
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = victim(dir.path());
    let hog = attacker("hog-memory 5 100");
    let run = duel_run("fire.txt", &limit, &[], [&hog, &path]);
    assert_eq!(run.forfeit(0).as_deref(), Some("memory"), "{}", run.result);
    assert_eq!(run.forfeit(1), None);
    assert_eq!(run.score(1), normal);
    let control = duel_run("fire.txt", &[&limit[..], &["--sandbox", "none"]].concat(), &[], [&hog, &path]);
    assert_eq!(control.forfeit(0), None, "the control: 500 MiB held under a 200 MiB limit: {}", control.result);
    // The same where each child's first thread has ended, another holding its memory (its stat
    // a zombie's, of no memory: a box without a cgroup summed nothing of it before 2026-12-07).
    let leaderless = attacker("hog-memory 5 100 leaderless");
    let run = duel_run("fire.txt", &limit, &[], [&leaderless, &path]);
    assert_eq!(run.forfeit(0).as_deref(), Some("memory"), "{}", run.result);
    let control = duel_run("fire.txt", &[&limit[..], &["--sandbox", "none"]].concat(), &[], [&leaderless, &path]);
    assert_eq!(control.forfeit(0), None, "the control: {}", control.result);
}

#[test]
fn a_bot_ending_with_busy_children_does_not_stall_its_opponent() {
    let _load = shared();
    // Its box is ended off the referee's clock: the opponent, on tight limits, plays on. (No
    // control: no mode of the arena ends boxes on the match's thread.)
    let normal = normal_score();
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = victim(dir.path());
    let run = duel_run("fire.txt", &["--move-ms", "150", "--startup-ms", "1000"], &[], [&attacker("quit-busy"), &path]);
    assert_eq!(run.forfeit(0).as_deref(), Some("crash"), "{}", run.result);
    assert_eq!(run.forfeit(1), None, "the opponent never waited for the cleanup: {}", run.result);
    assert_eq!(run.score(1), normal);
}

#[test]
fn cannot_predict_its_opponents_random_moves() {
    let _load = shared();
    // The seats' seeds are drawn from a secret of the arena's: ARENA_SEED + 1 is not the
    // opponent's. The control gives the attacker the opponent's real seed.
    let random = bin("random");
    let run = duel_run("duel.txt", &[], &[], [&attacker("seed"), &random]);
    assert_eq!(run.forfeit(0), None, "ten predictions never came true: {}", run.result);
    let control = duel_run("duel.txt", &[], &[], [&attacker("seed 4242"), &format!("{random} --seed 4242")]);
    assert_eq!(control.forfeit(0).as_deref(), Some("invalid_move"), "the control predicted: {}", control.result);
}

/// A copy of the 20 tests in a fresh folder.
fn tests_copy(dir: &Path) -> PathBuf {
    let copy = dir.join("tests");
    std::fs::create_dir(&copy).unwrap();
    for e in std::fs::read_dir(root().join("maps/tests")).unwrap().flatten() {
        std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
    }
    copy
}

#[test]
fn cannot_rewrite_the_tests_it_is_checked_against() {
    let _load = shared();
    let dir = tempfile::tempdir().unwrap();
    let tests = tests_copy(dir.path());
    let before = std::fs::read(tests.join("test7.txt")).unwrap();
    let run = |extra: &[&str]| {
        let tests_arg = tests.display().to_string();
        let bot = attacker(&format!("rewrite-tests {}", hex(&tests)));
        let mut args = vec!["test", "--json", "--tests", &tests_arg];
        args.extend_from_slice(extra);
        args.push(&bot);
        let out = arena(&args);
        let reports: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        let reports = reports.as_array().expect("one report per test");
        assert_eq!(reports.len(), 20, "every test was played");
        reports.iter().filter(|t| t["passed"] == true).count()
    };
    assert_eq!(run(&[]), 0, "waiting passes no test");
    assert_eq!(std::fs::read(tests.join("test7.txt")).unwrap(), before, "the tests are untouched");
    // The control: without the box the files are rewritten, but they were all read before the
    // first test, so the results stand.
    assert_eq!(run(&["--sandbox", "none"]), 0);
    assert_ne!(std::fs::read(tests.join("test7.txt")).unwrap(), before, "the control rewrote them");
}

#[test]
fn cannot_touch_the_tournament_folder_or_rig_its_maps() {
    let _load = shared();
    let dir = tempfile::tempdir().unwrap();
    let maps = dir.path().join("maps");
    std::fs::create_dir(&maps).unwrap();
    let rigged = maps.join("fire.txt");
    std::fs::copy(map("fire.txt"), &rigged).unwrap();
    let original = std::fs::read(&rigged).unwrap();
    let out = dir.path().join("t");
    let run = |out: &Path, extra: &[&str]| -> Value {
        let results = out.join("results.jsonl");
        let bots = [
            format!("rig={}", attacker(&format!("rig-map {}", hex(&rigged)))),
            format!("forge={}", attacker(&format!("proc-root {}", hex(&results)))),
            format!("greedy={}", bin("greedy")),
        ];
        let mut args = vec!["--map", rigged.to_str().unwrap(), "-j", "1"];
        args.extend_from_slice(extra);
        tournament(out, &args, &bots)
    };
    let board = run(&out, &[]);
    assert_eq!(std::fs::read(&rigged).unwrap(), original, "the map is untouched");
    let lines = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert!(!lines.contains("forged"), "the results are untouched");
    assert_eq!(board["matches"], 6);
    let greedy = board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == "greedy").unwrap().clone();
    // The control: both attacks work on the files, yet every match was played on the map as
    // loaded at the start (the map is read once), so the standings are the same.
    let control_out = dir.path().join("control");
    let control = run(&control_out, &["--sandbox", "none"]);
    assert_ne!(std::fs::read(&rigged).unwrap(), original, "the control rigged the map");
    let lines = std::fs::read_to_string(control_out.join("results.jsonl")).unwrap();
    assert!(lines.contains("forged"), "the control wrote into the results");
    let greedy_control = control["rows"].as_array().unwrap().iter().find(|r| r["bot"] == "greedy").unwrap().clone();
    assert_eq!(greedy["total_score"], greedy_control["total_score"], "the rigged map was never played");
}

/// What an arena run by the machine's root in a user namespace without the box users says
/// when it refuses to run bots there (see below).
const MACHINE_ROOT_REFUSED: &str = "the arena runs as the machine's root inside a user namespace";

/// An arena run by the machine's root under `unshare -r` (uid 0 of a namespace that maps only
/// root, `0 0 1`) ran its bots as its own uid, boxed or not: the machine's root, which the kernel
/// holds to no process limit (`RLIMIT_NPROC` spares it; no cgroup was used), whose plain build
/// owned every file root owns (a `chmod 4755` of a copy of a shell made a setuid-root one), and
/// whose plain bot without Landlock wrote root's files and killed root's processes. It now
/// refuses every mode but `none` (which confines nothing) up front, saying where and what, and
/// exits non-zero, with no match played: `auto` (boxed), `require`, `plain`, and `auto` where no
/// box can be made. `none` plays. The control: run by a user who is not root (here `nobody`, as
/// the CI runs these tests too), uid 0 of such a namespace is that user outside, held to its
/// process limit: each mode plays, as `a_root_arena_in_a_user_namespace_of_one_uid_plays` shows
/// whole, and nothing is refused.
#[test]
fn the_machines_root_in_a_user_namespace_of_one_uid_runs_no_bot() {
    let _load = shared();
    let (greedy, random) = (bin("greedy"), bin("random"));
    let machine_root = as_root();
    for (mode, no_nested) in [("auto", false), ("require", false), ("plain", false), ("auto", true), ("none", false)] {
        let Some(run) = duel_in_one_uid_namespace("duel.txt", &["--sandbox", mode], no_nested, [&greedy, &random])
        else {
            return;
        };
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        let how = format!("--sandbox {mode}{}", if no_nested { ", no user namespace below" } else { "" });
        let refused = machine_root && mode != "none";
        assert_eq!(stderr.contains(MACHINE_ROOT_REFUSED), refused, "{how}: {stderr}");
        assert_eq!(run.out.status.success(), !refused, "{how}: {stderr}");
        if refused {
            assert!(stderr.contains("/proc/self/uid_map: 0 0 1"), "{how}: says where: {stderr}");
            assert!(stderr.contains("no process limit"), "{how}: says what: {stderr}");
            assert!(run.result.is_null() && run.replay.is_null(), "{how}: no match played: {}", run.result);
        } else {
            let (score, finished, forfeit) = player(&run.result, 0);
            assert!(score > 0 && finished && forfeit.is_none(), "{how}: greedy plays: {}\n{stderr}", run.result);
        }
    }
}

/// `arena duel --json` of `bots` with `extra` flags, run by root in a user namespace of its own
/// whose uid and gid maps are `map` (lines joined by `,`) and whose `/proc/self/setgroups` is
/// `setgroups`, as a rootless container may be set up: the maps are written from outside, by
/// this process (root), as `newuidmap` would. `None` where no such namespace can be made here.
fn duel_in_namespace(map: &str, setgroups: &str, extra: &[&str], bots: [&str; 2]) -> Option<Run> {
    duel_with("duel.txt", extra, bots, |args, dir| in_namespace(map, setgroups, args, dir))
}

/// The arena run with `args` as [`duel_in_namespace`] says, `dir` a folder of its own.
fn in_namespace(map: &str, setgroups: &str, args: &[&str], dir: &Path) -> Option<Output> {
    // The child makes its namespace and waits on a FIFO until its maps are written.
    let script = r#"map=$1 setgroups=$2 go=$3; shift 3
        mkfifo "$go" || exit 90
        unshare --user sh -c 'read x < "$0" && exec "$@"' "$go" "$@" &
        pid=$!
        while [ "$(readlink /proc/$pid/ns/user)" = "$(readlink /proc/self/ns/user)" ]; do
            kill -0 $pid 2>/dev/null || exit 90
            sleep 0.01
        done
        echo "$setgroups" > /proc/$pid/setgroups &&
            echo "$map" | tr , '\n' > /proc/$pid/uid_map &&
            echo "$map" | tr , '\n' > /proc/$pid/gid_map || { kill $pid; exit 90; }
        echo go > "$go"
        wait $pid"#;
    let go = dir.join("go").display().to_string();
    let out = Command::new("sh")
        .args(["-c", script, "sh", map, setgroups, &go])
        .arg(bin("arena"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    if out.status.code() == Some(90) {
        eprintln!("no such user namespace can be made here: {}", String::from_utf8_lossy(&out.stderr).trim());
        return None;
    }
    Some(out)
}

/// A namespace that maps the box users but whose `/proc/self/setgroups` is `deny` (as a
/// rootless container may be made) let a root arena take them for its bots, and every bot then
/// failed at the `setgroups` that becoming one starts with (`EPERM`). The arena now counts them
/// as missing there, and says why (`denies setgroups`): run by the machine's root (its uid 0
/// mapped to root, `0 0 1`), that is the refusal above, said up front. The control: the same
/// namespace with `setgroups` allowed plays, each bot as a box user (`auto` and `plain`).
/// Root only (the maps of another uid are written from outside).
#[test]
fn a_namespace_denying_setgroups_counts_as_one_without_the_box_users() {
    let _load = shared();
    if skipped_unless_root("no namespace mapping the box users can be made") {
        return;
    }
    let (greedy, random) = (bin("greedy"), bin("random"));
    let map = "0 0 1,60000 60000 2000";
    for mode in ["auto", "plain"] {
        let Some(run) = duel_in_namespace(map, "deny", &["--sandbox", mode], [&greedy, &random]) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        assert!(!run.out.status.success(), "{mode}: {stderr}");
        assert!(stderr.contains(MACHINE_ROOT_REFUSED) && stderr.contains("denies setgroups"), "{mode}: {stderr}");
        let Some(control) = duel_in_namespace(map, "allow", &["--sandbox", mode], [&greedy, &random]) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&control.out.stderr);
        assert!(control.out.status.success(), "{mode}: the control plays: {stderr}");
        let (score, finished, forfeit) = player(&control.result, 0);
        assert!(score > 0 && finished && forfeit.is_none(), "{mode}: the control: {}\n{stderr}", control.result);
        assert!(!stderr.contains("are not mapped") && !stderr.contains("denies setgroups"), "{mode}: {stderr}");
    }
}

/// Root in a user namespace of its own holds `CAP_SYS_RESOURCE` there, and cannot raise a hard
/// limit with it (the kernel allows that in the machine's first user namespace alone): the
/// arena told that namespace by its uid map's text, which a namespace of its own may make the
/// same as the first's (`0 0 4294967295`), so a `--max-open-files` above its hard limit passed
/// its checks and every bot then failed to start (`EPERM`). It now asks the kernel (the inode of
/// `/proc/self/ns/user`), and refuses such a limit up front, saying why. The control: a limit
/// the arena's hard limit holds plays there. Root only (the maps are written from outside).
#[test]
fn a_namespace_mapping_every_uid_is_not_the_machines_first() {
    let _load = shared();
    if skipped_unless_root("no namespace mapping every uid can be made") {
        return;
    }
    let mut hard = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes into the struct given.
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut hard) };
    if hard.rlim_max == libc::RLIM_INFINITY || hard.rlim_max >= 1 << 20 {
        eprintln!("the hard limit of open files is {}: none above it to ask", hard.rlim_max);
        return;
    }
    let (greedy, random) = (bin("greedy"), bin("random"));
    let map = "0 0 4294967295";
    let above = (hard.rlim_max + 1).to_string();
    let Some(run) = duel_in_namespace(map, "allow", &["--max-open-files", &above], [&greedy, &random]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&run.out.stderr);
    assert!(!run.out.status.success(), "{stderr}");
    assert!(stderr.contains("which it may not raise"), "refused up front: {stderr}");
    assert!(run.result.is_null(), "no match played: {}", run.result);
    let at = hard.rlim_max.to_string();
    let Some(control) = duel_in_namespace(map, "allow", &["--max-open-files", &at], [&greedy, &random]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&control.out.stderr);
    assert!(control.out.status.success(), "{stderr}");
    let (score, finished, forfeit) = player(&control.result, 0);
    assert!(score > 0 && finished && forfeit.is_none(), "the control plays: {}\n{stderr}", control.result);
}

/// A build of an arena that is not root runs as the arena's user: a program it made set-uid (or
/// set-gid) in the student's folder would run as the arena for any local user. The builds'
/// filter refuses the set-uid bit (plain and boxed: `chmod` fails), and what gets past it (a
/// file's set-gid bit, which the filter lets through since a folder's is harmless and tools set
/// it again: `chmod -R` of a set-gid tree works; and everything with the sandbox off, which has
/// no filter: the control, where the build's own `stat` shows the bits set) the arena takes back
/// after the build, failing it with the new files named. A file set-gid before the build (a
/// teacher's `tar` keeps the bit) is not the build's doing: left as it was, not named.
#[test]
fn a_build_of_an_arena_that_is_not_root_leaves_no_set_uid_program() {
    let _load = shared();
    if skipped_unless_root("this test must start the arena as nobody (its root run does)") {
        return;
    }
    let nobody = AsNobody::new();
    // Each attempt notes the mode the build saw (`stat`), after a `chmod` that may fail.
    let script = "cp /bin/sh su; chmod 4755 su; stat -c %a su > su.mode; \
                  cp /bin/sh sg; chmod g+s sg; stat -c %a sg > sg.mode; \
                  install -m 4755 /bin/sh inst; stat -c %a inst > inst.mode; \
                  mkdir -p tree/sub && chmod g+s tree tree/sub && chmod -R u+w tree && touch tree.ok; \
                  python3 -c 'import ctypes, os; l = ctypes.CDLL(None, use_errno=True); \
                  n = 257 if os.uname().machine == \"x86_64\" else 56; \
                  r = l.syscall(n, -100, b\"su\", 0, 0o4000); print(\"ok\" if r >= 0 else ctypes.get_errno()); \
                  r = l.syscall(n, -100, b\"made\", os.O_CREAT | os.O_WRONLY, 0o4755); \
                  print(\"ok\" if r >= 0 else ctypes.get_errno())' > raw.modes; exit 0";
    // The modes the build saw and those left, the newest version's problem, the run's stderr.
    let build = |sandbox: &str| {
        let (league, out) = nobody.league(script, sandbox, &[], |student| {
            let tool = student.join("tool");
            std::fs::copy("/bin/true", &tool).unwrap();
            to_nobody(&tool);
            chmod(&tool, 0o2755);
        });
        let (student, out_dir) = (league.path().join("student"), league.path().join("out"));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{sandbox}: {stderr}");
        let seen = |name: &str| std::fs::read_to_string(student.join(format!("{name}.mode"))).unwrap_or_default();
        let left = |name: &str| {
            use std::os::unix::fs::MetadataExt;
            std::fs::symlink_metadata(student.join(name)).map_or(0, |m| m.mode() & 0o7777)
        };
        let seen = ["su", "sg", "inst"].map(|n| seen(n).trim().to_string());
        let left = ["su", "sg", "inst", "tool"].map(left);
        let tree = student.join("tree.ok").exists();
        // (A raw openat of `su` without O_CREAT, whatever its mode argument; one making `made` set-uid.)
        let raw = std::fs::read_to_string(student.join("raw.modes")).unwrap_or_default();
        assert_eq!(
            raw,
            if sandbox == "none" { "ok\nok\n".to_string() } else { format!("ok\n{}\n", libc::EPERM) },
            "{sandbox}: an openat's mode is looked at only when it makes a file"
        );
        let record: Value = serde_json::from_slice(&std::fs::read(out_dir.join("tournament.json")).unwrap_or_default())
            .unwrap_or(Value::Null);
        let versions = record["history"]["student"]["versions"].clone();
        let newest = versions.as_array().and_then(|v| v.last()).cloned().unwrap_or_default();
        let problem = newest["problem"].as_str().unwrap_or_default().to_string();
        (seen, left, problem, tree, stderr)
    };
    for sandbox in ["plain", "require"] {
        let (seen, left, problem, tree, stderr) = build(sandbox);
        // (`install` makes its file, then fails to make it set-uid: left as made.)
        assert_eq!(seen[..2], ["755", "2755"], "{sandbox}: set-uid refused, set-gid not: {stderr}");
        assert_eq!(seen[2].len(), 3, "{sandbox}: install's set-uid refused ({}): {stderr}", seen[2]);
        assert!(left[..3].iter().all(|m| m & 0o6000 == 0), "{sandbox}: {left:?} / {stderr}");
        assert_eq!(left[3], 0o2755, "{sandbox}: the file set-gid before the build is left as it was");
        assert!(tree, "{sandbox}: the set-gid tree's chmod -R worked: {stderr}");
        assert!(problem.contains("set-uid or set-gid program, sg: builds may not"), "{sandbox}: {problem} / {stderr}");
    }
    // The control: no filter, so the bits are set; the arena takes them back and fails it.
    let (seen, left, problem, _, stderr) = build("none");
    assert_eq!(seen, ["4755", "2755", "4755"].map(String::from), "{stderr}");
    assert_eq!(left, [0o755, 0o755, 0o755, 0o2755], "{stderr}");
    assert!(
        problem.contains("set-uid or set-gid program, ") && problem.contains("(and 3 other files)"),
        "{problem} / {stderr}"
    );
}
