//! The zoo: hostile bots, each in a duel against a normal bot. Each gets its expected forfeit
//! (or none), the normal bot's game goes on to its end, no process of the hostile bot is left,
//! and the referee's own memory stays bounded.

use std::path::Path;
use std::process::Command;

use arena_e2e::*;
use serde_json::{json, Value};

/// Short limits so that each slow case costs about a second.
const FAST: [&str; 4] = ["--startup-ms", "1000", "--move-ms", "300"];

/// The referee's peak resident memory must stay under this, whatever the bot prints.
const MAX_ARENA_RSS_KB: u64 = 100 * 1024;

struct Run {
    result: Value,
    replay: Value,
    peak_rss_kb: u64,
    /// The match log: what each bot wrote to stderr.
    log: String,
    /// What the arena logged (`RUST_LOG=arena=debug`).
    stderr: String,
}

/// Plays `bot` (player 1) against `opponent` on maps/fire.txt and returns what happened.
fn duel_with(bot: &str, opponent: &str, extra: &[&str]) -> Run {
    duel_with_env(bot, opponent, extra, &[])
}

/// [`duel_with`], with `env` set for the arena.
fn duel_with_env(bot: &str, opponent: &str, extra: &[&str], env: &[(&str, &str)]) -> Run {
    duel_under(&[], bot, opponent, extra, env)
}

/// [`duel_with_env`], the arena run by the command `wrapper` (its words before the arena's).
fn duel_under(wrapper: &[&str], bot: &str, opponent: &str, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    if !wrapper.is_empty() {
        // (A wrapper may run the arena as another user, who writes the replay here.)
        std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    }
    let replay = dir.path().join("r.json");
    let map_arg = map("fire.txt");
    let replay_arg = replay.display().to_string();
    let mut args = vec!["duel", "--json", "--seed", "3", "--map", &map_arg, "--replay", &replay_arg];
    if !extra.contains(&"--startup-ms") {
        args.extend_from_slice(&FAST);
    }
    args.extend_from_slice(extra);
    args.extend_from_slice(&[bot, opponent]);
    let arena = bin("arena");
    let mut command = match wrapper.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(&arena);
            c
        }
        None => Command::new(&arena),
    };
    command.current_dir(root()).env("RUST_LOG", "arena=debug").envs(env.iter().copied());
    let out = command.args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "arena duel failed: {stderr}");
    let peak_rss_kb = stderr
        .lines()
        .find_map(|l| l.split("peak_rss_kb=").nth(1))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.trim_matches('"').parse().ok())
        .expect("the arena logs its peak memory");
    Run {
        result: serde_json::from_slice(&out.stdout).unwrap(),
        replay: serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap(),
        peak_rss_kb,
        log: std::fs::read_to_string(replay.with_extension("log")).unwrap_or_default(),
        stderr: stderr.into_owned(),
    }
}

/// Runs the zoo bot `bot` against greedy and checks the common promises.
fn zoo(bot: &str, forfeit: Option<&str>, markers: &[&str]) -> Run {
    zoo_with(bot, &bin("greedy"), forfeit, markers, &[])
}

/// [`zoo`] against `greedy` (a path to it), with `extra` flags for the arena.
fn zoo_with(bot: &str, greedy: &str, forfeit: Option<&str>, markers: &[&str], extra: &[&str]) -> Run {
    let run = duel_with(bot, greedy, extra);
    promises(&run, bot, forfeit, markers);
    run
}

/// What the controls of a plain bot's defences turn off: Landlock (with its filters) and the
/// mount namespace of its own (read-only but its scratch folder, without Landlock).
const UNCONFINED: [(&str, &str); 2] = [PLAIN_WITHOUT_LANDLOCK, PLAIN_WITHOUT_MOUNT_NAMESPACE];

/// A defence's control: `zoo-attack <attack>` against `greedy` without a box (`--sandbox
/// plain`, with `extra`, and Landlock with its filters off, and its mount namespace), both copied where any user may run
/// them (a root arena runs a plain bot as a box user). The attack works there, so the bot says
/// so and plays an invalid move.
fn unboxed_attack(attack: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = format!("{} {attack}", shared_copy(dir.path(), &bin("zoo-attack")));
    let plain = [&["--sandbox", "plain"][..], extra].concat();
    let run = duel_with_env(&attacker, &greedy, &plain, &UNCONFINED);
    promises(&run, &attacker, Some("invalid_move"), &[]);
    run
}

/// The common promises of a zoo duel: `bot`'s `forfeit`, the normal bot's game to its end, no
/// process with any of `markers` left, the referee's memory bounded.
fn promises(run: &Run, bot: &str, forfeit: Option<&str>, markers: &[&str]) {
    let (score, _, got) = player(&run.result, 0);
    assert_eq!(got.as_deref(), forfeit, "{bot}: {}", run.result);
    if forfeit.is_some() {
        assert_eq!(score, 0);
    }
    let (score, finished, none) = player(&run.result, 1);
    assert!(finished && score > 0 && none.is_none(), "the normal bot plays on to the final: {}", run.result);
    for marker in markers {
        assert!(!process_running(marker), "{bot}: a process `{marker}` is still running");
    }
    assert!(run.peak_rss_kb < MAX_ARENA_RSS_KB, "{bot}: the arena peaked at {} kB", run.peak_rss_kb);
}

#[test]
fn sleeps_forever() {
    zoo(&format!("{} 5101", script("sleeper.sh")), Some("timeout"), &["sleep 5101"]);
}

#[test]
fn exits_mid_game() {
    let run = zoo(&script("midquit.sh"), Some("crash"), &[]);
    let answered =
        run.replay["steps"].as_array().unwrap().iter().filter(|s| s["replies"][0]["answer"] == "WAIT").count();
    assert_eq!(answered, 3, "it played three ticks first");
}

#[test]
fn prints_an_empty_line() {
    zoo(&script("emptyline.sh"), Some("malformed"), &[]);
}

#[test]
fn prints_a_line_before_any_tick() {
    // Against a bot that takes its time, so the early line's follower is surely waiting
    // when the second TICK is due.
    let slow = format!("{} 0.05", script("slowpoke.sh"));
    let run = duel_with(&script("early.sh"), &slow, &[]);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("extra_output"), "{}", run.result);
    assert_eq!(player(&run.result, 1).2, None);
}

#[test]
fn prints_100_mb_without_a_newline() {
    zoo(&script("flood.sh"), Some("malformed"), &[]);
}

#[test]
fn floods_stderr_and_plays_on() {
    let greedy = bin("greedy");
    let dir = tempfile::tempdir().unwrap();
    let (r, replay) = duel(dir.path(), "fire.txt", &FAST, [&script("stderrflood.sh"), &greedy]);
    assert_eq!(player(&r, 0), (0, false, None), "flooding stderr is allowed: {r}");
    let log = std::fs::read_to_string(replay.with_extension("log")).unwrap();
    assert!(log.len() < 70 * 1024, "the log is capped ({} bytes)", log.len());
    assert!(log.contains("\n[arena: "), "the cut is noted, by the arena: outside the bot's margin");
}

#[test]
fn counts_all_the_stderr_a_bot_leaves_in_its_pipe() {
    // A bot that fills a pipe of 1 MiB and quits: its match ends at once, with 960 KiB past the
    // log still in the pipe, which the throttle (4 MiB/s) would take 234 ms to read. Once the
    // bot is gone the rest is read unthrottled, so the count in the log is exact.
    let spill = format!("{} spill-stderr {}", bin("zoo-attack"), 1 << 20);
    let run = duel_with(&spill, &bin("greedy"), &FAST);
    let r = &run.result;
    assert_eq!(player(r, 0).2.as_deref(), Some("crash"), "it quits without answering: {r}");
    let log = run.log;
    // (Where no memory cgroup holds a bot, an arena that is not root's, it may not grow a pipe:
    // see `cannot_make_uncounted_kernel_objects_where_no_memory_cgroup_holds_it`. Its pipe then
    // holds no more than the log keeps: nothing to count in it.)
    // The count is then the arena's with the sandbox off, where the pipe grows.
    let log = if memory_cgroup(&run.stderr) {
        log
    } else {
        assert!(log.contains("spill-stderr: the pipe could not be enlarged"), "{log}");
        let run = duel_with(&spill, &bin("greedy"), &[&["--sandbox", "none"][..], &FAST].concat());
        assert_eq!(player(&run.result, 0).2.as_deref(), Some("crash"), "{}", run.result);
        run.log
    };
    let dropped = (1 << 20) - 64 * 1024;
    assert!(
        log.contains(&format!("\n[arena: {dropped} more bytes of stderr dropped]\n")),
        "{}",
        log.get(log.len().saturating_sub(200)..).unwrap_or(&log)
    );
}

#[test]
fn floods_stderr_from_many_children_without_costing_the_arena_a_cpu() {
    // Sixty children writing 8 KiB blocks to stderr: the arena reads the pipe in its own
    // process, off the box's clock and CPU quota. Once the log is full it reads at most 4 MiB/s
    // (`--stderr-rate`), and the writers wait for their pipe. Its own CPU time, from /proc while
    // it runs, beyond what a quiet duel costs it: 0.01 to 0.02 s of the duel's 0.44 s. The
    // quiet duel's bot has as many children, which only wait: its cost is the arena's start
    // (0.04 s as root; 0.7 to 1.0 s as an unprivileged user, whose boxes have the system's
    // folders walked once per process for files others may not read) and, where no cgroup
    // counts a box, its watch of the 61 processes in /proc: 0.6 s of the 2.4 s of either duel as
    // `nobody`, in a debug build. (Against a bot without children, that watch failed the test.)
    let (quiet_s, ..) = stderr_flood(&format!("{} flood-stderr 60 0", bin("zoo-attack")), &[]);
    let (cpu_s, wall_s, dropped, r) = stderr_flood(&flooder(), &[]);
    assert_eq!(player(&r, 1).2, None, "its opponent keeps its time: {r}");
    assert!(dropped > 256 * 1024, "the children flooded stderr (the arena read {dropped} bytes past the log)");
    assert!(dropped <= throttled_bound(wall_s), "the arena read {dropped} bytes past the log in {wall_s:.2} s");
    assert!(
        cpu_s - quiet_s < 0.25 * wall_s.max(1.0),
        "the arena used {cpu_s:.2} s of CPU in a duel of {wall_s:.2} s ({quiet_s:.2} s in a quiet one)"
    );
    // The control: read as fast as they write (0.8 to 1.3 GB here), the flood costs the arena
    // about half a CPU for as long as the duel lasts (0.31 to 0.38 s of 0.64 to 0.71 s; 1.5 to
    // 2.0 s of a 2 s duel in the red team's longer game, whose victim then waited for a CPU on
    // the wall clock). Judged by the bytes read, which the throttle bounds, not by CPU seconds:
    // on a loaded machine the throttled run's start alone took 0.10 s, and the control's 0.22 s
    // was less than four times that. (Twice the bound: each of the arena's reads waits for the
    // scheduler to wake it, 2 ms and more on a busy machine, where the control read 270 MB in
    // 8.1 s, 7.5 times the bound.)
    let (unthrottled_cpu, unthrottled_wall, unthrottled, _) = stderr_flood(&flooder(), &["--stderr-rate", "0"]);
    assert!(
        unthrottled > 2 * throttled_bound(unthrottled_wall),
        "the control: unthrottled, the arena read only {unthrottled} bytes past the log in {unthrottled_wall:.2} s \
         ({unthrottled_cpu:.2} s of CPU)"
    );
}

/// The most bytes past the log that the default throttle (4 MiB/s) lets the arena read in a
/// duel of `wall_s` seconds: what the rate allows, one read ahead of its wait, and what is left
/// in the pipe once the bot has ended (read unthrottled), with room to spare.
fn throttled_bound(wall_s: f64) -> u64 {
    (wall_s * f64::from(4u32 << 20)) as u64 + (2 << 20)
}

/// A bot whose sixty children flood stderr with blocks of 8 KiB.
fn flooder() -> String {
    format!("{} flood-stderr 60 8192", bin("zoo-attack"))
}

/// A wall-clock duel of `flood` (see [`flooder`]) against the reference, with `extra` arena
/// flags: the arena's own CPU seconds, the duel's wall seconds, how many bytes of stderr the
/// arena read past the log, and the result. (Limits roomy enough for the reference's 200
/// answers on a loaded machine.)
fn stderr_flood(flood: &str, extra: &[&str]) -> (f64, f64, u64, Value) {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let (map_arg, replay_arg, reference) = (map("duel.txt"), replay.display().to_string(), bin("reference"));
    let args = ["duel", "--json", "--seed", "5", "--clock", "wall", "--map", &map_arg, "--replay", &replay_arg];
    let roomy = ["--startup-ms", "5000", "--move-ms", "2000", "--total-ms", "20000"];
    let started = std::time::Instant::now();
    let mut arena = Command::new(bin("arena"))
        .current_dir(root())
        .args(args)
        .args(roomy)
        .args(extra)
        .args([flood, &reference])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The arena's own CPU time (its threads, not its children's), read until it exits.
    let mut cpu_s = 0.0;
    while arena.try_wait().unwrap().is_none() {
        if let Some(s) = own_cpu_seconds(arena.id()) {
            cpu_s = s;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let wall_s = started.elapsed().as_secs_f64();
    let out = arena.wait_with_output().unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    (cpu_s, wall_s, dropped_stderr(&replay), r)
}

/// How many bytes of stderr the arena read past the log, as the duel's log beside `replay`
/// says (0 when it says none).
fn dropped_stderr(replay: &Path) -> u64 {
    let log = std::fs::read_to_string(replay.with_extension("log")).unwrap_or_default();
    log.split("[arena: ").nth(1).and_then(|rest| rest.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// User and system CPU seconds of process `pid`'s own threads (`/proc/<pid>/stat`).
fn own_cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    Some(ticks / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64)
}

#[test]
fn trickles_stderr_a_byte_at_a_time_without_costing_the_arena_a_cpu() {
    // At each tick, for 100 ms of its own answer time, the bot writes stderr one byte at a time,
    // each once the arena has read the last: every read of the arena's finds one byte, so the
    // bytes it read (kept in the log or dropped past it) are its reads. Each read, from the
    // first byte, waits as long as a full read takes at the rate (15.6 ms at 4 MiB/s): at most
    // 64 a second, however few bytes each brings (114 reads in a 2 s duel here). Counted by the
    // bytes, a one-byte read waited 0 µs: 430,000 reads in the same duel (850,000 in a 5 s one,
    // 3.4 s of CPU); throttled past the log only, the first 65,536 were.
    let (reads, wall_s, r) = trickle(&[]);
    assert_eq!(player(&r, 1).2, None, "its opponent keeps its time: {r}");
    assert!(reads > 0, "the bot trickled: {r}");
    assert!(reads <= trickled_bound(wall_s), "the arena read {reads} times in {wall_s:.2} s");
    // The control: read as fast as it writes (`--stderr-rate 0`), the arena reads one byte at a
    // time as fast as the bot can wait for it (440,000 times in this 2 s duel here; on a busy
    // machine, where each read waits for the scheduler to wake the arena, 1,230 to 4,637 times
    // in about 3 s, 4 to 18 times the bound).
    // (Tried up to three times: an arena the machine starves of CPU wakes too seldom to show
    // the attack, which then does no harm either; the defence's side above is never retried.)
    let mut tries = Vec::new();
    for _ in 0..3 {
        let (unthrottled, unthrottled_wall, _) = trickle(&["--stderr-rate", "0"]);
        tries.push((unthrottled, unthrottled_wall));
        if unthrottled > 2 * trickled_bound(unthrottled_wall) {
            return;
        }
    }
    panic!("the control: unthrottled, the arena read only (reads, seconds) {tries:?}");
}

/// The most reads the default throttle allows in a duel of `wall_s` seconds: 64 a second
/// (4 MiB/s in reads of 64 KiB; each read's wait is a sleep, never shorter), and the last,
/// unthrottled, once the bot has ended, with room to spare.
fn trickled_bound(wall_s: f64) -> u64 {
    (1.25 * 64.0 * wall_s) as u64 + 32
}

/// A wall-clock duel of a bot trickling stderr (`trickle-stderr`, 100 ms in each of its first
/// 20 answers: 2 s in all) against greedy, with `extra` arena flags: how many bytes of stderr
/// the arena read from it (kept in the log and dropped past it), the duel's wall seconds, and
/// the result. (Limits roomy enough for greedy on a loaded machine, where a debug build's
/// answer can take 100 ms and more: the trickler's own length, not its time running out, ends
/// the trickling.)
fn trickle(extra: &[&str]) -> (u64, f64, Value) {
    let dir = tempfile::tempdir().unwrap();
    let trickler = format!("{} trickle-stderr 100 20", bin("zoo-attack"));
    let roomy = ["--startup-ms", "5000", "--move-ms", "2000", "--total-ms", "20000", "--clock", "wall"];
    let limits = [&roomy[..], extra].concat();
    let started = std::time::Instant::now();
    let (r, replay) = duel(dir.path(), "fire.txt", &limits, [&trickler, &bin("greedy")]);
    let log = std::fs::read_to_string(replay.with_extension("log")).unwrap_or_default();
    // The trickler's part of the log: its bytes (all `x`) before the count of those dropped.
    let own = log.split("===== player 1 ").nth(1).and_then(|p| p.split("=====").nth(1)).unwrap_or_default();
    let kept = own.bytes().filter(|&b| b == b'x').count() as u64;
    (kept + dropped_stderr(&replay), started.elapsed().as_secs_f64(), r)
}

/// The grace a finished bot has to exit, in the duels of [`flood_at_end`]: how long it floods.
const FLOOD_GRACE_S: f64 = 2.0;

#[test]
fn floods_stdout_after_its_last_answer_without_costing_the_arena_a_cpu() {
    // After its answer to the last tick, when no prompt is left to punish it, the bot writes
    // one line without end to stdout through its grace (2 s). Past the length limit the arena
    // reads its stdout no more: the bot's pipe fills, it waits until its box is ended, and the
    // arena's own CPU time is the duel's: 0.01 s here beyond a duel of two greedy bots, whose
    // cost is the arena's start (0.7 to 1.0 s as an unprivileged user, in a debug build: see
    // above); 1.8 s when it skipped the rest of the line.
    let marker = format!("flood-{}", std::process::id());
    let (quiet_s, ..) = duel_to_the_end(&bin("greedy"), &[]);
    let (cpu_s, _, r) = flood_at_end("stdout", &marker, &[]);
    assert_eq!(player(&r, 0).2, None, "its game was over: {r}");
    assert!(player(&r, 1).1, "the opponent finished: {r}");
    assert!(!process_running(&marker), "the flooder was ended with its box");
    assert!(
        cpu_s - quiet_s < 0.3 * FLOOD_GRACE_S,
        "the arena used {cpu_s:.2} s of CPU ({quiet_s:.2} s in a quiet duel)"
    );
    // The control: the same flood on stderr, read unthrottled (`--stderr-rate 0`) as stdout's
    // rest of a long line was skipped before: 1.1 s of CPU through the 2 s grace here, and
    // gigabytes read. Judged by the bytes read, not CPU seconds, which a loaded machine makes
    // too noisy to compare: a bot whose pipe is not read can write no more than the pipe
    // holds (64 KiB).
    let (unthrottled_cpu, unthrottled, _) = flood_at_end("stderr", &marker, &["--stderr-rate", "0"]);
    assert!(!process_running(&marker), "the control's flooder was ended with its box");
    assert!(
        unthrottled > 64 << 20,
        "the control: unthrottled, the arena read only {unthrottled} bytes of stderr past the log \
         ({unthrottled_cpu:.2} s of CPU)"
    );
}

/// A duel of a bot that floods `stream` after its last answer (its arguments name `marker`)
/// against greedy, with `extra` arena flags: as [`duel_to_the_end`].
fn flood_at_end(stream: &str, marker: &str, extra: &[&str]) -> (f64, u64, Value) {
    duel_to_the_end(&format!("{} flood-at-end {stream} {marker}", bin("zoo-attack")), extra)
}

/// A duel of `bot` against greedy with a grace of [`FLOOD_GRACE_S`] and `extra` arena flags:
/// the arena's own CPU seconds, how many bytes of stderr it read past the log, and the result.
fn duel_to_the_end(bot: &str, extra: &[&str]) -> (f64, u64, Value) {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json").display().to_string();
    let grace = format!("{}", (FLOOD_GRACE_S * 1000.0) as u64);
    let map_arg = map("fire.txt");
    let args = ["duel", "--json", "--seed", "3", "--grace-ms", &grace, "--map", &map_arg, "--replay", &replay];
    let arena = Command::new(bin("arena"))
        .current_dir(root())
        .args(args)
        .args(extra)
        .args([bot, &bin("greedy")])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Its own CPU time (its threads, not its children's), read once it has exited, before it is
    // reaped.
    // SAFETY: a zeroed siginfo_t is valid; waitid writes within it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, leaving it to be reaped below.
    let waited = unsafe { libc::waitid(libc::P_PID, arena.id(), &mut info, libc::WEXITED | libc::WNOWAIT) };
    assert_eq!(waited, 0, "waitid: {}", std::io::Error::last_os_error());
    let cpu_s = own_cpu_seconds(arena.id()).expect("the exited arena's /proc/<pid>/stat");
    let out = arena.wait_with_output().unwrap();
    assert!(out.status.success(), "the arena lives");
    (cpu_s, dropped_stderr(Path::new(&replay)), serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn forks_a_child_that_holds_the_pipes_even_outside_its_group() {
    zoo(&format!("{} 5102", script("holder.sh")), Some("crash"), &["sleep 5102", "sleep 5103"]);
    // Without a box too (`plain`, what `auto` falls back to): the bot's keeper ends both. (From
    // copies everyone may reach: as root, a plain bot runs as a user of its own.)
    let dir = tempfile::tempdir().unwrap();
    let holder =
        format!("sh {} 5110", shared_copy(dir.path(), &root().join("tests/bots/holder.sh").display().to_string()));
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let markers = ["sleep 5110", "sleep 5111"];
    zoo_with(&holder, &greedy, Some("crash"), &markers, &["--sandbox", "plain"]);
    // The control: with the sandbox off, the one in a session of its own outlives the match (the
    // bot waits for it to be in that session before it exits: see the script).
    let run = duel_with(&format!("{holder} wait"), &greedy, &["--sandbox", "none"]);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("crash"), "{}", run.result);
    let survived = process_running("sleep 5111");
    let _ = Command::new("pkill").args(["-f", "sleep 51(10|11)"]).status();
    assert!(survived, "the control: without a keeper the setsid child survives the match");
}

#[test]
fn ignores_sigterm_and_end_of_input() {
    let run = zoo(&format!("{} 5104", script("stubborn.sh")), None, &["sleep 5104"]);
    assert!(!player(&run.result, 0).1, "it never reached the final");
}

#[test]
fn forks_without_limit() {
    // Only with a process cap: --require-sandbox refuses to run otherwise.
    let greedy = bin("greedy");
    let run = duel_with(&script("forkbomb.sh"), &greedy, &["--require-sandbox", "--max-procs", "32"]);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("timeout"), "{}", run.result);
    assert!(player(&run.result, 1).1, "the normal bot finishes");
    assert!(!process_running("forkbomb.sh"), "every forked copy was ended");
}

#[test]
fn allocates_memory_without_limit() {
    // Where its box has a memory cgroup (a root arena), its address space is not capped: it
    // fills its box, the cgroup's OOM killer kills it, and the arena reads that kill: `memory`.
    // Without one (an unprivileged arena), the address-space cap, per process, refuses its
    // allocation before its box holds its limit: no count the arena reads shows it, so it is
    // the runtime's abort, a crash, and the runtime's words stay in the log. (The default
    // 1 GiB takes it about 0.5 s of CPU time to fill: a long first answer.)
    let memhog = bin("zoo-memhog");
    let slow_start = ["--startup-ms", "5000"];
    let run = duel_with(&memhog, &bin("greedy"), &slow_start);
    let aborted = |run: &Run| {
        assert_eq!(
            failures(&run.replay, 0),
            [("crash".to_string(), json!({"signal": libc::SIGABRT}))],
            "{}",
            run.replay
        );
        assert!(run.log.contains("memory allocation of"), "{}", run.log);
    };
    if memory_cgroup(&run.stderr) {
        promises(&run, &memhog, Some("memory"), &[]);
        assert_eq!(failures(&run.replay, 0), [("memory".to_string(), Value::Null)], "{}", run.replay);
    } else {
        promises(&run, &memhog, Some("crash"), &[]);
        aborted(&run);
    }
    // The control: without a box (never a cgroup), the address-space cap again.
    let dir = tempfile::tempdir().unwrap();
    let plain = [&slow_start[..], &["--sandbox", "plain"]].concat();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let run = zoo_with(&shared_copy(dir.path(), &memhog), &greedy, Some("crash"), &[], &plain);
    aborted(&run);
}

#[test]
fn cannot_hold_memory_outside_its_processes() {
    // 192 MiB in a box of 64, where no process's resident set shows it: in `memfd_create` files
    // held by descriptors, `memfd_secret` files written through windows each child unmapped,
    // SysV segments or shared mappings (anonymous, or of `/dev/zero`) whose pages each child
    // let go of (`MADV_DONTNEED`), or transparent huge pages a pipe holds (`vmsplice`) once
    // unmapped, 32 MiB per child. With a memory cgroup (a root arena) the kernel charges all of
    // it to the box: `memory`. Without one (an unprivileged arena), the monitor counts resident
    // memory only: the box refuses the calls and its `/dev/zero` is `/dev/full` (zeros to read,
    // nothing to map; the bot held 1 GiB so, and a machine's memory would have been next), and
    // it plays on, holding nothing. Data queued in unix socket pairs (`sockets`, half of them
    // with their writing end closed) is counted against its limit there by the monitor: `memory`
    // either way; and so are page tables (`page-tables`: single pages read a GiB apart, 8 KiB of
    // tables each, none resident).
    for how in ["memfd", "secret", "sysv", "shared", "zero", "vmsplice", "sockets", "page-tables"] {
        if how == "secret" && !memfd_secret_offered() {
            eprintln!("this kernel has no memfd_secret: nothing to show of it");
            continue;
        }
        let hider = format!("{} hide-memory {how} 192", bin("zoo-attack"));
        let limits = ["--require-sandbox", "--max-memory-mb", "64", "--startup-ms", "5000"];
        // (What the monitor counts, it counts at a look: the bot then holds it and waits, rather
        // than answer at once, which raced the look.)
        let counted = how == "sockets" || how == "page-tables";
        let boxed = if counted { hider.replace("hide-memory", "hide-memory-and-wait") } else { hider.clone() };
        let run = duel_with(&boxed, &bin("greedy"), &limits);
        let forfeit = (memory_cgroup(&run.stderr) || counted).then_some("memory");
        promises(&run, &boxed, forfeit, &[]);
        // The control: without a box, nothing counts it; the bot says it held it all. (A plain
        // bot makes no SysV segment, memfd or shared anonymous mapping either, see
        // `a_plain_bot_cannot_use_system_v_ipc` and `a_plain_bot_cannot_hold_memory_outside_its_processes`:
        // their control is the sandbox off; and the monitor counts a plain bot's page tables and
        // unix sockets as a box's, see `a_plain_bot_may_not_hide_behind_an_execute_only_binary`.)
        let limits = ["--max-memory-mb", "64", "--startup-ms", "5000"];
        let run = if PLAIN_REFUSES.contains(&how) || how == "page-tables" || how == "sockets" {
            let run = duel_with(&hider, &bin("greedy"), &[&["--sandbox", "none"][..], &limits].concat());
            promises(&run, &hider, Some("invalid_move"), &[]);
            run
        } else {
            unboxed_attack(&format!("hide-memory {how} 192"), &limits)
        };
        assert!(run.log.contains(&format!("hide-memory {how}: held 192 MiB of 192")), "{}", run.log);
    }
}

#[test]
fn cannot_make_a_user_namespace() {
    // In a user namespace of its own a bot holds every capability (it made a network namespace
    // and mounted a 2 GiB tmpfs there): the kernel code behind them, out of its reach otherwise,
    // is where sandbox escapes are found. The box refuses `unshare` and `clone` with
    // `CLONE_NEWUSER` (EPERM) and every `clone3` (ENOSYS: its flags cannot be read), and gives
    // no capability for a network namespace without one. A box of an unprivileged arena has
    // the kernel refuse them too: its user namespace's `max_user_namespaces` is 0.
    let attacker = format!("{} userns", bin("zoo-attack"));
    let run = zoo_with(&attacker, &bin("greedy"), None, &[], &["--require-sandbox"]);
    let refused = "userns: unshare EPERM, clone EPERM, clone3 ENOSYS, a network namespace EPERM;";
    assert!(run.log.contains(refused), "{}", run.log);
    if !as_root() {
        assert!(run.log.contains("max_user_namespaces 0\n"), "{}", run.log);
    }
    // Nor may a plain bot, with Landlock or without (before 2026-12-06, without Landlock, a red
    // team's mounted a tmpfs in one of its own and held 1,024 MiB there under a limit of 64).
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let plain = format!("{} userns", shared_copy(dir.path(), &bin("zoo-attack")));
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..], &UNCONFINED[..]] {
        let run = duel_with_env(&plain, &greedy, &["--sandbox", "plain"], env);
        promises(&run, &plain, None, &[]);
        assert!(run.log.contains("userns: unshare EPERM, clone EPERM, clone3 ENOSYS,"), "{env:?}: {}", run.log);
    }
    // The control: with the sandbox off, the kernel makes one by each call (where it gives an
    // unprivileged user one, or to root), and the bot holds a capability there.
    if !(as_root() || user_namespaces_offered()) {
        eprintln!("this kernel gives unprivileged users no user namespace: the control cannot show one made");
        return;
    }
    let run = duel_with(&attacker, &bin("greedy"), &["--sandbox", "none"]);
    promises(&run, &attacker, Some("invalid_move"), &[]);
    let made = "userns: unshare ok, with capabilities, clone ok, with capabilities, clone3 ok, with capabilities,";
    assert!(run.log.contains(made), "{}", run.log);
}

/// Both bots of a match share one CPU, and on a kernel without `CONFIG_IRQ_TIME_ACCOUNTING` the
/// time of an interrupt is charged to whatever it interrupts: a red team's bot that answered at
/// once while two threads read a large system file with `O_DIRECT` (each read to the disk an
/// interrupt on that CPU) had its opponent charged 15 to 45 % more CPU, which timed out in 2
/// games of 4 of a league. No bot may open a file so: `open`, `openat` and `fcntl`'s `F_SETFL`
/// with `O_DIRECT` fail with `EINVAL`, `openat2` with `ENOSYS`, boxed and plain (with Landlock
/// and without). The control: with the sandbox off, each opens its own program so.
#[test]
fn cannot_read_files_past_the_page_cache() {
    let refused = "direct-io: openat EINVAL, open EINVAL, openat2 ENOSYS, fcntl EINVAL\n";
    let refused = if cfg!(target_arch = "x86_64") { refused } else { "openat2 ENOSYS, fcntl EINVAL\n" };
    let attacker = format!("{} direct-io", bin("zoo-attack"));
    let run = zoo(&attacker, None, &[]);
    assert!(run.log.contains(refused), "{}", run.log);
    for (env, run) in plain_runs("direct-io") {
        assert!(run.log.contains(refused), "{env:?}: {}", run.log);
    }
    let run = duel_with(&attacker, &bin("greedy"), &["--sandbox", "none"]);
    promises(&run, &attacker, Some("invalid_move"), &[]);
    let opened = if cfg!(target_arch = "x86_64") { "openat ok, open ok, openat2 ok, fcntl ok\n" } else { "fcntl ok\n" };
    assert!(run.log.contains(opened), "{}", run.log);
}

/// A plain bot of an arena that is not root runs as the arena's user, and `RLIMIT_NPROC` counted
/// every process of that user: its limit was what the user ran at its start and `--max-procs`, and
/// a bot that forked up to it left its opponent no thread to make (a red team's crashed). Each such
/// bot now has a user namespace of its own, where the kernel counts its processes apart (Linux 5.14
/// on), its limit `--max-procs` and its keeper (33): the bot that forks makes 32 at most, and its
/// opponent plays on. The control: without a user namespace of its own (no mount namespace, no
/// Landlock), its limit is the user's count again (every process of the arena's user and 33), and
/// what it forks up to it is taken from its opponent's room too (whether the opponent then has
/// none depends on which of the two was counted first: said, not asserted). (A root arena runs
/// each plain bot as a user of its own, whose limit is its own: no control there.)
#[test]
fn a_plain_bot_cannot_take_its_opponent_s_processes() {
    let dir = tempfile::tempdir().unwrap();
    let threads = format!("{} thread-each-tick", shared_copy(dir.path(), &bin("zoo-attack")));
    let forker = format!("{} fork-all", shared_copy(dir.path(), &bin("zoo-attack")));
    let plain = ["--sandbox", "plain", "--max-procs", "32"];
    // How many the forker forked, and under what limit.
    let forked = |log: &str| -> (u64, u64) {
        let said = log.lines().find_map(|l| l.split("fork-all: forked ").nth(1));
        let said = said.unwrap_or_else(|| panic!("the forker says how many: {log}"));
        let (n, limit) = said.trim().split_once(" under a limit of ").unwrap_or_else(|| panic!("{said}"));
        (n.parse().unwrap(), limit.parse().unwrap())
    };
    let run = duel_with(&threads, &forker, &plain);
    assert_eq!(player(&run.result, 0).2, None, "the opponent plays on: {} {}", run.result, run.log);
    let (n, limit) = forked(&run.log);
    assert!(n < 32, "forked {n} under a limit of 32");
    assert!(!process_running(&forker), "every forked child was ended");
    if as_root() {
        eprintln!("a root arena runs each plain bot as a user of its own: the control cannot show the attack");
        return;
    }
    assert_eq!(limit, 33, "its own processes and its keeper's, in a user namespace of its own: {}", run.log);
    let control = duel_with_env(&threads, &forker, &plain, &UNCONFINED);
    let (n, limit) = forked(&control.log);
    assert!(limit > 33, "the control: the limit counts the user's other processes ({limit}): {}", control.log);
    eprintln!(
        "the control: forked {n} under a limit of {limit}; the opponent {}",
        player(&control.result, 0)
            .2
            .map_or("played on (counted after the forker)".to_string(), |f| format!("ended: {f}"))
    );
}

/// Where no cgroup counts a bot's CPU time (a plain bot, or a box of an arena not run as root),
/// the arena sums its processes' times, and a red team's bot kept 12 short-lived spinners, each
/// in a session of its own (its own autogroup, an equal share of the CPU with the opponent's whole
/// session): the opponent timed out in 2 games of 2. Such a bot may make no session (`setsid`:
/// `EPERM`). A box whose cgroup counts its CPU (a root arena's) keeps `setsid`. Nowhere does the
/// arena warn that the bot ignores `SIGCHLD`: a bot whose CPU is summed cannot (see
/// [`children_the_kernel_would_reap_are_charged_to_their_bot`]). The control: with the sandbox
/// off, `setsid` works.
#[test]
fn a_bot_whose_cpu_is_summed_makes_no_session() {
    // (It sleeps 200 ms before its first answer: the arena looks at it meanwhile.)
    let bot = format!("{} setsid ignore-sigchld 200", bin("zoo-attack"));
    let run = zoo(&bot, None, &[]);
    let counted = cpu_counted(&run.stderr);
    let expected = if counted { "setsid: ok\n" } else { "setsid: EPERM\n" };
    assert!(run.log.contains(expected), "CPU counted by a cgroup: {counted}: {}", run.log);
    assert_eq!(run.stderr.matches(REAPING_WARNING).count(), 0, "{}", run.stderr);
    for (env, run) in plain_runs("setsid ignore-sigchld 200") {
        assert!(run.log.contains("setsid: EPERM\n"), "{env:?}: {}", run.log);
        assert_eq!(run.stderr.matches(REAPING_WARNING).count(), 0, "{env:?}: {}", run.stderr);
    }
    let run = duel_with(&bot, &bin("greedy"), &["--sandbox", "none"]);
    promises(&run, &bot, None, &[]);
    assert!(run.log.contains("setsid: ok\n"), "{}", run.log);
}

/// What the arena warns of a bot, whose CPU it sums, that ignores `SIGCHLD`.
const REAPING_WARNING: &str = "ignores SIGCHLD, so the kernel reaps its children itself";

/// A child the kernel reaps itself (its parent ignores `SIGCHLD`) is added to no process's times,
/// so where the arena sums a bot's processes' CPU (a plain bot, or a box of an arena not run as
/// root) it was charged to no one: a red team's bot thought 12 s in such children, each living
/// less than the arena's look takes to come round, and was charged 0.3 s. Such a bot may not
/// ignore `SIGCHLD` (the call succeeds and changes nothing): its children stay until it waits for
/// them, their CPU in its sum, and it times out. A box whose cgroup counts its CPU (a root arena's)
/// lets it ignore `SIGCHLD`, and counts the children all the same. The control: with the sandbox
/// off, the children are reaped, their time charged to no one, and the arena warns of it.
#[test]
fn children_the_kernel_would_reap_are_charged_to_their_bot() {
    // (Its children think 1.5 s, against 500 ms an answer: 20 times that in wall time is left them.)
    let flags = ["--startup-ms", "1000", "--move-ms", "500", "--backstop-factor", "20"];
    let attack = "reaped-think 1500";
    let bot = format!("{} {attack}", bin("zoo-attack"));
    let run = zoo_with(&bot, &bin("greedy"), Some("timeout"), &[], &flags);
    let expected = if cpu_counted(&run.stderr) { "sigchld: ignored\n" } else { "sigchld: default\n" };
    assert!(run.log.contains(expected), "{}", run.log);
    for (env, run) in plain_runs_with(attack, &flags, Some("timeout")) {
        assert!(run.log.contains("sigchld: default\n"), "{env:?}: {}", run.log);
    }
    let run = duel_with(&bot, &bin("greedy"), &[&["--sandbox", "none"][..], &flags].concat());
    promises(&run, &bot, None, &[]);
    assert!(run.log.contains("sigchld: ignored\n"), "{}", run.log);
    assert_eq!(run.stderr.matches(REAPING_WARNING).count(), 1, "{}", run.stderr);
    let charged = run.replay["steps"][1]["replies"][0]["cpu_ms"].as_u64();
    assert!(charged.is_some_and(|ms| ms < 500), "the children's 1.5 s went uncharged: {charged:?}");
}

/// Each read or write that reaches the disk ends in an interrupt on a CPU, and both bots of a match
/// share one: on a kernel without `CONFIG_IRQ_TIME_ACCOUNTING` its time is charged to whoever runs
/// there, the opponent thinking. Reads that leave nothing cached (`RWF_DONTCACHE`) added 5 to 12 %
/// to a red team's victim's charged CPU, writes each synced 0 to 9 %, reads of pages dropped first
/// (`POSIX_FADV_DONTNEED`) or read ahead again and again up to 7 %; a second red team's plain bot
/// made 50,000 to 68,000 disk writes in 8 s with `msync(MS_SYNC)`, and 66,000 with its file's sync
/// flag set (`chattr +S`). No bot may (boxed or plain): advice and syncs (`msync` too) succeed and
/// do nothing, `RWF_DONTCACHE` and `RWF_DSYNC` fail with `EOPNOTSUPP`, opening with `O_DSYNC` with
/// `EINVAL`, setting a file's flags with `ENOTTY` (see `syscalls::disk_lock`). The control: with
/// the sandbox off, each call takes (the file dropped from the cache first; its scratch file, in
/// the machine's temporary folder then, on its disk).
#[test]
fn cannot_make_the_disk_work_for_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = uncached_file(dir.path());
    let attack = format!("disk-calls {}", file.display());
    let refused = "disk-calls: fadvise kept, readahead none, willneed none, dontcache EOPNOTSUPP, dsync-write \
                   EOPNOTSUPP, dsync-open EINVAL, msync dirty, syncflag ENOTTY\n";
    let attacker = format!("{} {attack}", bin("zoo-attack"));
    let run = zoo(&attacker, None, &[]);
    assert!(run.log.contains(refused), "{}", run.log);
    for (env, run) in plain_runs(&attack) {
        assert!(run.log.contains(refused), "{env:?}: {}", run.log);
    }
    uncache(&file);
    let run = duel_with(&attacker, &bin("greedy"), &["--sandbox", "none"]);
    promises(&run, &attacker, Some("invalid_move"), &[]);
    let took =
        "disk-calls: fadvise dropped, readahead read, willneed read, dontcache ok, dsync-write ok, dsync-open ok, \
                msync clean, syncflag ok\n";
    assert!(run.log.contains(took), "{}", run.log);
}

/// What is left, reads of pages the cache lost to the box's own memory limit, is capped by the box's
/// cgroup (`--max-disk-ops`, 200 a second by default; `blkio` on cgroup v1, `io` on v2): a bot
/// reading 4 KiB at random offsets of a file none of which is cached makes 20 reads a second under
/// a cap of 20 (and a burst). An arena without such a cgroup (one not run as root) says so. The
/// control: without a cap (`--max-disk-ops 0`), the same bot reads far more.
#[test]
fn a_box_s_disk_reads_are_throttled() {
    let dir = tempfile::tempdir().unwrap();
    let file = uncached_file(dir.path());
    let reader = format!("{} disk-reads {}", bin("zoo-attack"), file.display());
    let reads = |run: &Run| -> u64 {
        let said = run.log.lines().find_map(|l| l.split("disk-reads: ").nth(1));
        let said = said.unwrap_or_else(|| panic!("the bot says how many it read: {}", run.log));
        said.trim_end_matches(" in 1 s").parse().unwrap()
    };
    if is_tmpfs(&file) {
        eprintln!("the temporary folder is in memory: no disk to read, no cap to show");
        return;
    }
    let run = duel_with(&reader, &bin("greedy"), &["--max-disk-ops", "20"]);
    promises(&run, &reader, None, &[]);
    let report = sandbox_report(&run.stderr);
    if !report.contains("\"blkio\"") && !report.contains("\"io\"") {
        assert!(run.stderr.contains("a bot's disk reads are not throttled"), "{}", run.stderr);
        eprintln!("no blkio or io cgroup here (an arena not run as root): no cap to show");
        return;
    }
    assert!(reads(&run) <= 2 * 20 + 10, "{} reads in a second under a cap of 20: {}", reads(&run), run.log);
    uncache(&file);
    let run = duel_with(&reader, &bin("greedy"), &["--max-disk-ops", "0"]);
    promises(&run, &reader, None, &[]);
    assert!(reads(&run) >= 5 * 20, "the control: {} reads in a second without a cap", reads(&run));
}

/// Where the arena sums a bot's memory (a plain bot, or a box without a memory cgroup), its look
/// reads the maps of the bot's processes once their address spaces could hide more than the cap,
/// and a red team's bot, having answered, had 20 children hold 900 MiB of address space each,
/// with 300 mappings each of a file 50 KiB deep: the look read 300 MB of maps in 16 to 20 s, on the
/// match's own thread, and the opponent, thinking meanwhile, had its answer read only after it and
/// forfeited on time, in leagues too. Looks now run beside the match (a thread of the runtime's
/// blocking pool), and read 4 MiB of maps at most (a process past that counts as many mappings as
/// a process may have): with a tenth of the red team's mappings, the opponent's answers (30 ms of
/// CPU each, on the wall clock) take well under their second. The control: with the looks on the
/// match's thread and unbounded (`ARENA_LOOKS_ON_THE_MATCH_THREAD`), the opponent times out.
#[test]
fn a_look_at_a_bot_does_not_hold_up_its_opponent() {
    let run = looks_against("stall-looks 20 60 200 900 60 3", "spin 30", "stall-looks: each child holds 900 MiB");
    // The victim's slowest answer, in wall-clock milliseconds.
    let steps = run.replay["steps"].as_array().cloned().unwrap_or_default();
    let replies = steps.iter().filter_map(|s| s["replies"].as_array()?.iter().find(|r| r["player"] == 1).cloned());
    let slowest = replies.filter_map(|r| r["ms"].as_u64()).max().unwrap_or(0);
    assert!(slowest < 1000, "its slowest answer took {slowest} ms: {}", run.result);
}

/// A look at a bot ran beside the match already, but held the bot's box (its lock) all the while,
/// which the match's thread takes to read a bot's CPU time at its answer: a red team's plain bot
/// made the look at it take 10 s (12,000 locks duplicated to 240 descriptors, each listed at every
/// one; locks are no-ops for a bot now, and a look reads one descriptor of each open file), and its
/// opponent, thinking, had its answer read 10 s late and forfeited on time. No one holds the box
/// while looking: with every look made 1.5 s longer (`ARENA_TEST_SLOW_LOOKS_MS`, as no bot can make
/// one so now), the opponent plays on. The control: with the looks on the match's thread too, it
/// times out. (Holding the box's lock during the look again fails the test.)
#[test]
fn a_slow_look_at_a_bot_holds_nothing_its_opponent_needs() {
    let slowed = [(SLOW_LOOKS, "1500")];
    looks_against_with("wait", "spin 10", "", &slowed);
}

/// The switch that makes every look at a bot that many milliseconds longer (tests only).
const SLOW_LOOKS: &str = "ARENA_TEST_SLOW_LOOKS_MS";

/// `zoo-attack ATTACK` against `clock-thinker THINK`, both plain, on the wall clock (a second an
/// answer): the run, once the attacker said `said` and its opponent played on. The control: the
/// same with the looks on the match's thread (`ARENA_LOOKS_ON_THE_MATCH_THREAD`), where the
/// attacker said `said` too and the opponent timed out.
fn looks_against(attack: &str, think: &str, said: &str) -> Run {
    looks_against_with(attack, think, said, &[])
}

/// [`looks_against`], with `env` set for the arena in both runs.
fn looks_against_with(attack: &str, think: &str, said: &str, env: &[(&str, &str)]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{} {attack}", shared_copy(dir.path(), &bin("zoo-attack")));
    let victim = format!("{} {think}", shared_copy(dir.path(), &bin("clock-thinker")));
    let flags = ["--sandbox", "plain", "--clock", "wall", "--startup-ms", "2000", "--move-ms", "1000"];
    let run = duel_with_env(&attacker, &victim, &flags, env);
    assert!(run.log.contains(said), "{}", run.log);
    assert_eq!(player(&run.result, 1).2, None, "the opponent plays on: {}", run.result);
    let control = duel_with_env(&attacker, &victim, &flags, &[env, &[(LOOKS_OFF, "1")]].concat());
    assert!(control.log.contains(said), "{}", control.log);
    assert_eq!(player(&control.result, 1).2.as_deref(), Some("timeout"), "the control: {}", control.result);
    run
}

/// The switch that puts the monitor's looks back on the match's thread, unbounded.
const LOOKS_OFF: &str = "ARENA_LOOKS_ON_THE_MATCH_THREAD";

/// A file of 16 MiB in `dir` (which any user may then read), none of it in the page cache.
fn uncached_file(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let file = dir.join("data");
    let bytes: Vec<u8> = (0..16u32 << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&file, bytes).unwrap();
    std::fs::File::open(&file).unwrap().sync_all().unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    uncache(&file);
    file
}

/// Drops `file` (written and synced) from the page cache.
fn uncache(file: &Path) {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(file).unwrap();
    // SAFETY: advice on a descriptor this function holds.
    let advised = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    assert_eq!(advised, 0, "{}", file.display());
}

/// `zoo-attack ARGS` played as a plain bot against greedy (both copies a plain bot of an arena
/// run as nobody may run), with Landlock and without it and a mount namespace: each run, with
/// the environment that made it, once it kept the zoo's promises (no forfeit).
fn plain_runs(args: &str) -> Vec<(&'static [(&'static str, &'static str)], Run)> {
    plain_runs_with(args, &[], None)
}

/// [`plain_runs`], with `extra` flags for the arena, each run once it kept the zoo's promises with
/// `forfeit` the bot's.
fn plain_runs_with(
    args: &str,
    extra: &[&str],
    forfeit: Option<&str>,
) -> Vec<(&'static [(&'static str, &'static str)], Run)> {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let plain = format!("{} {args}", shared_copy(dir.path(), &bin("zoo-attack")));
    let envs: [&'static [(&'static str, &'static str)]; 2] = [&[], &UNCONFINED];
    let flags = [&["--sandbox", "plain"][..], extra].concat();
    envs.map(|env| {
        let run = duel_with_env(&plain, &greedy, &flags, env);
        promises(&run, &plain, forfeit, &[]);
        (env, run)
    })
    .into()
}

/// What the arena that logged `stderr` (`RUST_LOG=arena=debug`) reported of its sandbox, after
/// `sandbox boxed=` (`true memory_held=… cgroups=[…]`).
fn sandbox_report(stderr: &str) -> &str {
    let report = stderr.lines().find_map(|l| l.split_once(" sandbox boxed=")).map(|(_, r)| r);
    report.unwrap_or_else(|| panic!("the sandbox says what its boxes have: {stderr}"))
}

/// Whether the arena that logged `stderr` (`RUST_LOG=arena=debug`) ran its bots in boxes whose
/// cgroup counts their CPU time (`cpuacct`, or v2's `cpu.stat`), as its sandbox reported it
/// (`sandbox boxed=… memory_held=… cgroups=[…]`): otherwise it sums their processes' times.
fn cpu_counted(stderr: &str) -> bool {
    let report = sandbox_report(stderr);
    report.starts_with("true ") && report.contains("\"cpuacct\"")
}

/// The ways of `hide-memory` a plain bot is refused, as a box without a memory cgroup.
/// (`zero`, where Landlock confines it: its `/dev/zero` may be read, not written, nor so mapped
/// shared and writable.)
const PLAIN_REFUSES: [&str; 6] = ["memfd", "secret", "sysv", "shared", "vmsplice", "zero"];

/// A plain bot has no memory cgroup, ever: the monitor counts its processes' resident sets,
/// and nothing counted what it held in `memfd_create` or `memfd_secret` files, shared anonymous
/// mappings its children let go of (anonymous, or of `/dev/zero` opened for writing), or pipes
/// it spliced its pages into (192 MiB under a limit of 64, and it played on). It gets a box's
/// filters for that now, with Landlock or without: each call fails, and it plays on, holding
/// nothing; Landlock lets it read `/dev/zero` only, and without Landlock its `/dev/zero` is
/// `/dev/full`, in a mount namespace of its own, where the arena can make one. The control: with the sandbox off, it holds it
/// all (see `cannot_hold_memory_outside_its_processes`, whose control this was).
#[test]
fn a_plain_bot_cannot_hold_memory_outside_its_processes() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let limits = ["--max-memory-mb", "64", "--startup-ms", "5000"];
    for how in PLAIN_REFUSES.into_iter().filter(|&h| h != "sysv") {
        if how == "secret" && !memfd_secret_offered() {
            eprintln!("this kernel has no memfd_secret: nothing to show of it");
            continue;
        }
        let hider = format!("{attack} hide-memory {how} 192");
        for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
            if how == "zero" && !env.is_empty() && !(as_root() || user_namespaces_offered()) {
                eprintln!("no mount namespace for this user: without Landlock, its /dev/zero is the machine's");
                continue;
            }
            let run = duel_with_env(&hider, &greedy, &[&["--sandbox", "plain"][..], &limits].concat(), env);
            promises(&run, &hider, None, &[]);
            assert!(run.log.contains(&format!("hide-memory {how}: held 0 MiB of 192")), "{how} {env:?}: {}", run.log);
        }
        let control = duel_with(&hider, &greedy, &[&["--sandbox", "none"][..], &limits].concat());
        promises(&control, &hider, Some("invalid_move"), &[]);
        assert!(control.log.contains(&format!("hide-memory {how}: held 192 MiB of 192")), "{}", control.log);
    }
}

/// A plain bot has no cgroup: the monitor sums its processes' resident sets, as a box's without
/// one (before 2026-12-06 it did not, and four children of 48 MiB each held 192 MiB under a
/// limit of 64, as did sixteen of 60 MiB, 960 MiB, and played on). With Landlock or without, it
/// forfeits `memory`, as where its children's first threads have ended, a thread of each holding
/// the memory (its stat a zombie's, of no memory: that went uncounted before 2026-12-07). The
/// control: with the sandbox off, nothing sums them, and it plays on.
#[test]
fn a_plain_bot_s_processes_share_its_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let hog = format!("{} hog-memory 4 48", shared_copy(dir.path(), &bin("zoo-attack")));
    let limits = ["--max-memory-mb", "64", "--startup-ms", "10000"];
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&hog, &greedy, &[&["--sandbox", "plain"][..], &limits].concat(), env);
        promises(&run, &hog, Some("memory"), &[]);
    }
    // Its processes whose first thread ended, their memory held by another (their stat shows
    // a zombie of no memory: sixteen of 48 MiB held 768 MiB so, and played on).
    let leaderless = format!("{} hog-memory 4 48 leaderless", shared_copy(dir.path(), &bin("zoo-attack")));
    let run = duel_with(&leaderless, &greedy, &[&["--sandbox", "plain"][..], &limits].concat());
    promises(&run, &leaderless, Some("memory"), &[]);
    let control = duel_with(&leaderless, &greedy, &[&["--sandbox", "none"][..], &limits].concat());
    promises(&control, &leaderless, None, &[]);
    // Its page tables too (single pages a GiB apart: 192 MiB of tables, none resident).
    let tables = format!("{} hide-memory page-tables 192", shared_copy(dir.path(), &bin("zoo-attack")));
    let run = duel_with(&tables, &greedy, &[&["--sandbox", "plain"][..], &limits].concat());
    promises(&run, &tables, Some("memory"), &[]);
    let control = duel_with(&hog, &greedy, &[&["--sandbox", "none"][..], &limits].concat());
    promises(&control, &hog, None, &[]);
    let control = duel_with(&tables, &greedy, &[&["--sandbox", "none"][..], &limits].concat());
    promises(&control, &tables, Some("invalid_move"), &[]);
}

/// Where the temporary folder is a tmpfs (`/tmp` on many systems), a plain bot's scratch folder
/// was memory its limit did not count: a red team's bot wrote 1,024 MiB there under a limit of 64.
/// A tmpfs of `tmp_mb` (64 MiB) is mounted over it in its mount namespace: it writes 100 MiB no
/// more, with Landlock or without, but still writes 1 MiB there (under Landlock, the rule on
/// its scratch folder did not hold beneath the tmpfs, and it could write nothing at all: a
/// build's compiler found no temporary folder). The control: without the mount namespace, it
/// writes them all. (Root only: the arena runs in a mount namespace of the test's, its `TMPDIR`
/// a tmpfs.)
#[test]
fn a_plain_bot_s_scratch_folder_in_memory_is_capped() {
    use std::os::unix::fs::PermissionsExt;
    if skipped_unless_root("this test cannot mount a tmpfs for the arena's TMPDIR") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let bot = format!("{attack} fill-tmp 100");
    let small = format!("{attack} fill-tmp 1");
    let tmp = tmp.display().to_string();
    let mount = r#"mount -t tmpfs -o size=512m,mode=1777 none "$0" && TMPDIR="$0" exec "$@""#;
    let wrapper = ["unshare", "-m", "--propagation", "private", "sh", "-c", mount, &tmp];
    let limits = ["--sandbox", "plain", "--max-memory-mb", "64", "--startup-ms", "5000"];
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_under(&wrapper, &bot, &greedy, &limits, env);
        promises(&run, &bot, None, &[]);
        assert!(!run.log.contains("fill-tmp: wrote 0 MiB"), "{env:?}: it wrote some: {}", run.log);
        let run = duel_under(&wrapper, &small, &greedy, &limits, env);
        promises(&run, &small, Some("invalid_move"), &[]);
        assert!(run.log.contains("fill-tmp: wrote 1 MiB of 1"), "{env:?}: {}", run.log);
    }
    let run = duel_under(&wrapper, &bot, &greedy, &limits, &UNCONFINED);
    promises(&run, &bot, Some("invalid_move"), &[]);
    assert!(run.log.contains("fill-tmp: wrote 100 MiB of 100"), "{}", run.log);
    assert!(run.stderr.contains("a tmpfs, and no mount namespace caps them here"), "said: {}", run.stderr);
}

/// A plain bot's scratch folder on the machine's disk took its writes to the disk: a rename over
/// a file starts its writeback at once on ext4 (a red team's bot made 20,000 disk writes in 8 s),
/// each ending in an interrupt its opponent's clock paid while it thought. It is a tmpfs of
/// `tmp_mb` of its own, as a box's scratch space, wherever the arena can make a mount namespace:
/// 4 MiB written and renamed send nothing towards a disk (`/proc/self/io`'s `write_bytes`), with
/// Landlock or without, and 100 MiB no longer fit. The control: without the mount namespace,
/// the same bot sends its 4 MiB to the disk. (Where the temporary folder is a tmpfs already,
/// `a_plain_bot_s_scratch_folder_in_memory_is_capped` holds instead, and this test says so.)
#[test]
fn a_plain_bot_s_scratch_folder_on_disk_is_a_tmpfs_of_its_own() {
    if is_tmpfs(&std::env::temp_dir()) {
        eprintln!("the temporary folder is a tmpfs here: no disk to keep a scratch folder's writes from");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let (bot, fill) = (format!("{attack} scratch-disk"), format!("{attack} fill-tmp 100"));
    let limits = ["--sandbox", "plain", "--startup-ms", "5000"];
    // (What it said: whether it renamed, the bytes sent towards a disk, whether it wrote a tmpfs.)
    let said = |run: &Run| -> (bool, u64, bool) {
        let line = run.log.lines().find_map(|l| l.split("scratch-disk: ").nth(1));
        let words: Vec<&str> =
            line.unwrap_or_else(|| panic!("the bot says what it did: {}", run.log)).split(' ').collect();
        (words[1] == "true", words[3].parse().unwrap(), words[9] == "true")
    };
    let control = duel_with_env(&bot, &greedy, &limits, &[PLAIN_WITHOUT_MOUNT_NAMESPACE]);
    promises(&control, &bot, Some("invalid_move"), &[]);
    let (renamed, sent, tmpfs) = said(&control);
    assert!(renamed && sent >= 4 << 20 && !tmpfs, "{}", control.log);
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&bot, &greedy, &limits, env);
        if run.stderr.contains("no mount namespace for plain bots") {
            eprintln!("no mount namespace for plain bots here (as this user): their scratch stays on disk, as said");
            return;
        }
        promises(&run, &bot, None, &[]);
        assert_eq!(said(&run), (true, 0, true), "{env:?}: {}", run.log);
        let run = duel_with_env(&fill, &greedy, &limits, env);
        promises(&run, &fill, None, &[]);
        assert!(!run.log.contains("fill-tmp: wrote 0 MiB"), "{env:?}: it wrote some: {}", run.log);
    }
}

/// Whether `path` is on a tmpfs.
fn is_tmpfs(path: &std::path::Path) -> bool {
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else { return false };
    // SAFETY: statfs fills a zeroed struct of ours from a valid path.
    unsafe {
        let mut fs: libc::statfs = std::mem::zeroed();
        libc::statfs(c.as_ptr(), &mut fs) == 0 && fs.f_type == libc::TMPFS_MAGIC
    }
}

/// On a machine whose `/dev` has no `/dev/full` (a minimal container's), a plain bot Landlock
/// does not confine lost its private `/dev/shm` whole (binding `/dev/full` at `/dev/zero` failed,
/// and the namespace with it), and wrote the machine's: it keeps it now, capped at `tmp_mb` (64
/// MiB: 100 MiB fail), and the arena names what is missing. The control: without the mount
/// namespace, it writes 100 MiB there. (Root only: the arena runs in a mount namespace of the
/// test's, its `/dev` a tmpfs of a few devices.)
#[test]
fn a_plain_bot_keeps_its_dev_shm_where_there_is_no_dev_full() {
    use std::os::unix::fs::PermissionsExt;
    if skipped_unless_root("this test cannot make a /dev without /dev/full") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let dev = dir.path().join("dev");
    std::fs::create_dir(&dev).unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let bot = format!("{} fill-shm 100 nofull", shared_copy(dir.path(), &bin("zoo-attack")));
    let dev = dev.display().to_string();
    let script = r#"set -e; mount -t tmpfs -o mode=755 dev "$0"
        for d in null zero urandom random tty; do touch "$0/$d"; mount --bind "/dev/$d" "$0/$d"; done
        mkdir -m 1777 "$0/shm"; mount --rbind "$0" /dev; exec "$@""#;
    let wrapper = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, &dev];
    let limits = ["--sandbox", "plain", "--startup-ms", "5000"];
    let run = duel_under(&wrapper, &bot, &greedy, &limits, &[PLAIN_WITHOUT_LANDLOCK]);
    promises(&run, &bot, None, &[]);
    assert!(run.stderr.contains("no /dev/full here"), "said: {}", run.stderr);
    let run = duel_under(&wrapper, &bot, &greedy, &limits, &UNCONFINED);
    promises(&run, &bot, Some("invalid_move"), &[]);
    assert!(run.log.contains("fill-shm: wrote 100 MiB of 100"), "{}", run.log);
}

/// Whether the kernel makes `memfd_secret` files (5.14 on, where `secretmem` is enabled).
fn memfd_secret_offered() -> bool {
    // SAFETY: memfd_secret takes no pointer; the descriptor it gives is ours to close.
    unsafe {
        let fd = libc::syscall(libc::SYS_memfd_secret, 0);
        fd >= 0 && libc::close(fd as libc::c_int) == 0
    }
}

#[test]
fn threads_and_child_processes_work_in_a_box() {
    // The box refuses `clone3` (see above): glibc's threads and `posix_spawn` fall back to
    // `clone`, as on a kernel before 5.3. A Rust bot's threads and child (it says `clone3` was
    // refused, so the fallback was taken) and a Python bot's (`threading`, `subprocess`) work.
    let rust = format!("{} threads-and-children", bin("zoo-attack"));
    let python = format!("python3 {}", root().join("tests/bots/threads.py").display());
    let said =
        [(&rust, "threads-and-children: threads true, a child true"), (&python, "threads: [0, 1, 2, 3], a child: 7")];
    for (bot, said) in said {
        let run = zoo_with(bot, &bin("greedy"), None, &[], &["--require-sandbox", "--startup-ms", "5000"]);
        assert!(run.log.contains(said), "{}", run.log);
        if bot == &rust {
            assert!(run.log.contains("a bare clone3 ENOSYS"), "the fallback was taken: {}", run.log);
        }
    }
}

#[test]
fn cannot_page_its_memory_out_to_swap() {
    // On a machine with swap, a bot that pushed its own pages out (`madvise`'s `MADV_PAGEOUT`,
    // `process_madvise` on its own pidfd) held far more than its cap, where no resident set
    // shows it. A box without a memory cgroup (an unprivileged arena) refuses both calls; with
    // one (a root arena), the cgroup counts swap (or there is none): allowed, the bot says so.
    let pager = format!("{} page-out", bin("zoo-attack"));
    let run = duel_with(&pager, &bin("greedy"), &["--require-sandbox"]);
    let cgroup = memory_cgroup(&run.stderr);
    promises(&run, &pager, cgroup.then_some("invalid_move"), &[]);
    let said = if cgroup {
        "page-out: madvise ok, process_madvise ok"
    } else {
        "page-out: madvise EINVAL, process_madvise ENOSYS"
    };
    assert!(run.log.contains(said), "{}", run.log);
    // The control: with the sandbox off, the kernel takes both (a plain bot is refused them too,
    // having no memory cgroup either).
    let run = duel_with(&pager, &bin("greedy"), &["--sandbox", "none"]);
    promises(&run, &pager, Some("invalid_move"), &[]);
    assert!(run.log.contains("page-out: madvise ok, process_madvise ok"), "{}", run.log);
}

/// A bot whose memory no cgroup holds (a plain one, or one in a box without a memory cgroup)
/// wrote files of 32 MiB in its scratch folder, on the machine's disk, moved 4 KiB of each 2 MiB
/// of them into pipes by reference (`splice`; `sendfile` into a pipe does the same) and deleted
/// them: each page there holds its whole folio, up to 2 MiB, and a plain bot held about 1 GiB so
/// under a limit of 64 (`zoo-attack hide-memory splice 1024`: the machine's free memory 873 MiB
/// lower while it played, 1,018 MiB freed when it ended), which no process's resident set shows.
/// Such a bot is refused `splice`, `tee` and `sendfile` now (`EINVAL`, on which what uses them
/// copies instead): plain, with Landlock and without, and in a box without a memory cgroup (root
/// only: the arena run as `nobody`, whose boxes have no cgroup). In a box with a memory cgroup
/// they work: the cgroup keeps each page charged while a pipe holds it. The control: with the
/// sandbox off all three work.
#[test]
fn cannot_splice_a_file_s_pages_into_a_pipe_where_no_memory_cgroup_holds_it() {
    let refused = "splice: splice EINVAL, sendfile EINVAL, tee EINVAL";
    let taken = "splice: splice ok, sendfile ok, tee ok";
    refused_where_no_memory_cgroup_holds_it("splice", refused, taken, taken);
}

/// A bot whose memory no cgroup holds (a plain one, or one in a box without a memory cgroup) could
/// send descriptors away over a unix socket pair of its own (`SCM_RIGHTS`, into the pair's own
/// queue) and close them: in flight, they are in no process's descriptor table, and keep what they
/// hold (an epoll its watches, a socket its queued data: 300 pairs filled and sent so held 140
/// MiB, in a process of 11 descriptors), which neither its resident set nor its socket meter sees.
/// Such a bot is refused `sendmsg` and `sendmmsg` now (`ENOSYS`; its socket pairs stay): plain,
/// with Landlock and without, and in a box without a memory cgroup (root only: the arena run as
/// `nobody`). In a box with a memory cgroup they work: the cgroup charges what is in flight. The
/// control: with the sandbox off both work.
#[test]
fn cannot_send_descriptors_away_where_no_memory_cgroup_holds_it() {
    let refused = "fd-passing: sendmsg ENOSYS, sendmmsg ENOSYS";
    let taken = "fd-passing: sendmsg ok, sendmmsg ok";
    refused_where_no_memory_cgroup_holds_it("fd-passing", refused, taken, taken);
}

/// A bot whose memory no cgroup holds may make none of the kernel's objects that no process's set
/// shows, nor grow a pipe past the default buffer its look counts: a Landlock ruleset (`ENOSYS`; a
/// plain bot's Landlock domains held 498 MiB under a limit of 64), a seccomp filter of its own
/// (`EINVAL`; about 0.57 MiB a process), a POSIX timer (`ENOSYS`, as in any bot's box) and a
/// pipe's buffer grown (`EPERM`), plain, with Landlock and without, and in a box without a memory
/// cgroup (root only); in a box with one, whose cgroup charges them, it may make all but the
/// timer. The control: with the sandbox off all four work. (Skipped where the kernel has no
/// Landlock.)
#[test]
fn cannot_make_uncounted_kernel_objects_where_no_memory_cgroup_holds_it() {
    // (Where the kernel has no Landlock, its calls fail whatever the filters: no control.)
    if !landlock_confines(1, "Landlock rulesets") {
        return;
    }
    let refused = "kernel-objects: landlock ENOSYS, seccomp EINVAL, timer ENOSYS, pipe EPERM";
    let boxed = "kernel-objects: landlock ok, seccomp ok, timer ENOSYS, pipe ok";
    let taken = "kernel-objects: landlock ok, seccomp ok, timer ok, pipe ok";
    refused_where_no_memory_cgroup_holds_it("kernel-objects", refused, boxed, taken);
}

/// `zoo-attack <attack>` playing `greedy`: its log says `refused` plain (with Landlock and
/// without) and in a box without a memory cgroup (root only: the arena run as `nobody`, whose
/// boxes have no cgroup), `boxed` in a box with one; the control: with the sandbox off, `taken`.
/// It plays on where all it tries is refused, and its next move is invalid where any is taken.
fn refused_where_no_memory_cgroup_holds_it(attack: &str, refused: &str, boxed: &str, taken: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = format!("{} {attack}", shared_copy(dir.path(), &bin("zoo-attack")));
    let roomy = ["--startup-ms", "5000", "--move-ms", "2000"];
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&attacker, &greedy, &[&["--sandbox", "plain"][..], &roomy].concat(), env);
        promises(&run, &attacker, None, &[]);
        assert!(run.log.contains(refused), "{env:?}: {}", run.log);
    }
    let run = duel_with(&attacker, &greedy, &[&["--require-sandbox"][..], &roomy].concat());
    let cgroup = memory_cgroup(&run.stderr);
    promises(&run, &attacker, cgroup.then_some("invalid_move"), &[]);
    assert!(run.log.contains(if cgroup { boxed } else { refused }), "a box (memory cgroup {cgroup}): {}", run.log);
    if !skipped_unless_root("runs the arena as nobody, whose boxes have no memory cgroup") {
        let nobody = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"];
        let run = duel_under(&nobody, &attacker, &greedy, &[&["--require-sandbox"][..], &roomy].concat(), &[]);
        assert!(!memory_cgroup(&run.stderr), "nobody's box has no memory cgroup: {}", run.stderr);
        promises(&run, &attacker, None, &[]);
        assert!(run.log.contains(refused), "a box without a memory cgroup: {}", run.log);
    }
    // The control: with the sandbox off, the kernel takes them all.
    let run = duel_with(&attacker, &greedy, &[&["--sandbox", "none"][..], &roomy].concat());
    promises(&run, &attacker, Some("invalid_move"), &[]);
    assert!(run.log.contains(taken), "{}", run.log);
}

/// A bot whose memory no cgroup holds (a plain one, or one in a box without a memory cgroup) held
/// the kernel's memory in the watches of epolls, which no process's resident set shows: a red
/// team's plain bot of 40 processes held 575,769 watches (115 MiB of unreclaimable slab) under a
/// limit of 64 and played on, as did one in a box without a memory cgroup, its look walking its
/// descriptors for their sockets alone (a box's, not at all). Its look counts each watch 256
/// bytes now, as a summed build's does (and each descriptor of no file, each pipe, each socket
/// and each file lock as a build's): `zoo-attack hide-memory-and-wait epoll-watches 128` (4
/// processes of 131,072 watches each, made one after the other, then held without an answer for
/// the 30 s of its first move) is ended for `memory` under a limit of 64 as soon as it is seen,
/// plain, with Landlock and without, and in a box without a memory cgroup (root only: the arena
/// run as `nobody`, whose boxes have none). The controls: plain under a limit of 1,024, and with
/// the sandbox off, it holds them all and says so (`hide-memory`, which answers an invalid move
/// once it holds them).
#[test]
fn a_bot_whose_memory_is_summed_cannot_hold_epoll_watches_past_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let holder = format!("{attack} hide-memory-and-wait epoll-watches 128");
    let held = "hide-memory epoll-watches: held 128 MiB of 128";
    let limits = |mb: &'static str| ["--max-memory-mb", mb, "--startup-ms", "30000"];
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&holder, &greedy, &[&["--sandbox", "plain"][..], &limits("64")].concat(), env);
        promises(&run, &holder, Some("memory"), &[]);
    }
    if !skipped_unless_root("runs the arena as nobody, whose boxes have no memory cgroup") {
        let nobody = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"];
        let boxed = [&["--require-sandbox"][..], &limits("64")].concat();
        let run = duel_under(&nobody, &holder, &greedy, &boxed, &[]);
        assert!(!memory_cgroup(&run.stderr), "nobody's box has no memory cgroup: {}", run.stderr);
        promises(&run, &holder, Some("memory"), &[]);
    }
    // The controls: under a limit far above, and with the sandbox off, it holds them all.
    let teller = format!("{attack} hide-memory epoll-watches 128");
    for sandbox in [["--sandbox", "plain"], ["--sandbox", "none"]] {
        let run = duel_with(&teller, &greedy, &[&sandbox[..], &limits("1024")].concat());
        promises(&run, &teller, Some("invalid_move"), &[]);
        assert!(run.log.contains(held), "{sandbox:?}: {}", run.log);
    }
}

/// Whether the arena that logged `stderr` (`RUST_LOG=arena=debug`) ran its bots in boxes with a
/// memory cgroup that holds all their memory (a root arena where the system has one, counting
/// swap in it or on a machine without swap: the sandbox's `holds_memory`, on which its refusals
/// turn), as its sandbox reported it (`sandbox boxed=… memory_held=… cgroups=[…]`). A memory
/// cgroup alone is not enough: on a machine with swap where the cgroup does not count it, a box
/// at its limit is swapped out and plays on, as one without a cgroup.
fn memory_cgroup(stderr: &str) -> bool {
    let report = sandbox_report(stderr);
    let held = report.split_whitespace().find_map(|field| field.strip_prefix("memory_held="));
    let held = held.unwrap_or_else(|| panic!("the sandbox says whether its boxes' memory is held: {report}"));
    report.starts_with("true ") && held == "true"
}

/// The sandbox's report is read for whether its boxes' memory is held, not for a memory cgroup
/// alone. The control: a box with a memory cgroup that does not hold its memory (swap not counted,
/// on a machine with swap) is not taken for one that does, as it was.
#[test]
fn the_report_says_whether_a_box_s_memory_is_held() {
    let line = |boxed: bool, held: bool| {
        format!(
            "2026-12-07T09:00:00Z DEBUG arena::sandbox: sandbox boxed={boxed} memory_held={held} \
             cgroups=[\"cpu\", \"cpuacct\", \"memory\", \"pids\"]\n"
        )
    };
    assert!(memory_cgroup(&line(true, true)));
    assert!(!memory_cgroup(&line(true, false)), "a memory cgroup that does not hold the memory");
    assert!(!memory_cgroup(&line(false, false)), "no box");
}

/// Player `seat`'s failures in a replay, each with how its process ended (`null` for none).
fn failures(replay: &Value, seat: u64) -> Vec<(String, Value)> {
    let steps = replay["steps"].as_array().cloned().unwrap_or_default();
    let replies = steps.iter().flat_map(|s| s["replies"].as_array().cloned().unwrap_or_default());
    let failed = replies.filter(|r| r["player"] == seat && r["failure"].is_string());
    failed.map(|r| (r["failure"].as_str().unwrap_or_default().to_string(), r["ended"].clone())).collect()
}

#[test]
fn cannot_forge_a_memory_forfeit_by_saying_so() {
    // It writes every line a runtime writes when it runs out of memory, and exits: the forfeit
    // says how it ended (status 1), not what it wrote, which stays in the log. (It was `memory`.)
    let forger = format!("{} forge-memory", bin("zoo-attack"));
    let run = zoo(&forger, Some("crash"), &[]);
    assert_eq!(failures(&run.replay, 0), [("crash".to_string(), json!({"exit": 1}))], "{}", run.replay);
    assert!(run.log.contains("out of memory") && run.log.contains("bad_alloc"), "it did say so: {}", run.log);
    // The control: a box that really holds more than its limit (five children of 100 MiB
    // under 200 MiB: its cgroup's OOM killer, or the monitor without cgroups) is `memory`.
    // (A plain bot's processes are summed by the monitor too: see
    // `a_plain_bot_s_processes_share_its_memory_limit`.)
    let hog = format!("{} hog-memory 5 100", bin("zoo-attack"));
    let limits = ["--require-sandbox", "--max-memory-mb", "200", "--startup-ms", "10000"];
    zoo_with(&hog, &bin("greedy"), Some("memory"), &[], &limits);
}

#[test]
fn cannot_forge_a_cpu_forfeit_by_raising_sigxcpu() {
    // It sends itself the CPU-time limit's signal at once: the kernel's wait status shows the
    // signal (so the old reading, "died of SIGXCPU", would say `cpu`), but its box used a few
    // milliseconds of its 1 s, so it is a crash by that signal.
    let forger = format!("{} forge-cpu", bin("zoo-attack"));
    let run = zoo_with(&forger, &bin("greedy"), Some("crash"), &[], &["--max-cpu-s", "1"]);
    assert_eq!(failures(&run.replay, 0), [("crash".to_string(), json!({"signal": libc::SIGXCPU}))], "{}", run.replay);
    // The control: one that really burns its second of CPU time is `cpu`.
    let limits = ["--startup-ms", "8000", "--move-ms", "8000", "--total-ms", "20000", "--max-cpu-s", "1"];
    let run = duel_with(&script("spinner.sh"), &bin("greedy"), &limits);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("cpu"), "{}", run.result);
    assert!(player(&run.result, 1).1, "the normal bot finishes");
}

#[test]
fn closes_stdout_but_keeps_running() {
    zoo(&format!("{} 5105", script("closer.sh")), Some("crash"), &["sleep 5105"]);
}

#[test]
fn answers_just_after_the_time_limit_on_the_wall_clock() {
    // It sleeps: only the wall clock counts that (the CPU clock's side is in tests/clocks.rs).
    // 1.2 s each, over a move's 1 s (the first answer has 3 s): room for greedy's answers on a
    // loaded machine (a debug build's answer can take 100 ms and more).
    let limits = ["--clock", "wall", "--startup-ms", "3000", "--move-ms", "1000", "--total-ms", "20000"];
    let run = duel_with(&format!("{} 1.2", script("late.sh")), &bin("greedy"), &limits);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("timeout"), "{}", run.result);
    assert!(player(&run.result, 1).1, "the normal bot finishes");
}

#[test]
fn cannot_reach_the_network_while_sandboxed() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let bot = format!("bash {} {port}", root().join("tests/bots/nettry.sh").display());
    let greedy = bin("greedy");
    let run = duel_with(&bot, &greedy, &["--require-sandbox"]);
    assert_eq!(player(&run.result, 0).2, None, "the connection failed, so it just waited: {}", run.result);
    assert!(listener.accept().is_err(), "nothing connected to the listener");
    // The control: without the sandbox the same bot gets through (and says so by moving
    // off the map), so the check above can fail.
    let run = duel_with(&bot, &greedy, &["--sandbox", "none"]);
    assert_eq!(player(&run.result, 0).2.as_deref(), Some("invalid_move"), "{}", run.result);
    assert!(listener.accept().is_ok());
}

#[test]
fn a_tournament_mixing_the_zoo_with_sample_bots_ranks_them_right() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        ("greedy", bin("greedy")),
        ("waiter", bin("waiter")),
        ("sleeper", format!("{} 5106", script("sleeper.sh"))),
        ("garbage", script("garbage.sh")),
        ("holder", format!("{} 5107", script("holder.sh"))),
        ("memhog", bin("zoo-memhog")),
    ];
    // (memhog fills 256 MiB in about 0.15 s of CPU time, well within its first answer.)
    let limits = "[limits]\nstartup_ms = 1000\nmove_ms = 300\nmemory_mb = 256\n";
    let mut text = format!("maps = [{:?}]\n{limits}", map("fire.txt"));
    for (name, command) in &bots {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    let cfg = dir.path().join("zoo.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("t");
    let args = ["tournament", "--out", &out.display().to_string(), "--config", &cfg.display().to_string(), "-j", "2"];
    let run =
        Command::new(bin("arena")).current_dir(root()).env("RUST_LOG", "arena=debug").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let board = leaderboard(&out);
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(board["matches"], 30);
    assert_eq!(rows[0]["bot"], "greedy");
    assert_eq!(rows[0]["wins"], 10, "greedy wins every game");
    // (memhog is killed by its box's memory cgroup, or without one its allocations are refused
    // by the address-space cap: a crash; see above.)
    let memhog = if memory_cgroup(&stderr) { "memory" } else { "crash" };
    for (name, reason) in [("sleeper", "timeout"), ("garbage", "malformed"), ("holder", "crash"), ("memhog", memhog)] {
        let row = rows.iter().find(|r| r["bot"] == name).unwrap();
        assert_eq!(row["forfeits"][reason], 10, "{name}: {row}");
        assert_eq!(row["total_score"], 0);
    }
    for marker in ["sleep 5106", "sleep 5107", "sleep 5108"] {
        assert!(!process_running(marker), "`{marker}` is still running");
    }
}

#[test]
fn cannot_write_into_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let bot = format!("{} {}", script("scribbler.sh"), dir.path().display());
    let greedy = bin("greedy");
    let duel = |extra: &[&str]| {
        let mut args = vec!["duel", "--map", "maps/fire.txt", "--json", "--replay"];
        let replay_arg = replay.display().to_string();
        args.push(&replay_arg);
        args.extend_from_slice(extra);
        args.extend_from_slice(&[&bot, &greedy]);
        let out = arena(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    duel(&["--require-sandbox"]);
    assert!(replay.exists(), "the arena itself still writes there");
    assert!(!dir.path().join("scribbled.txt").exists(), "the bot could not");
    // The control: without the sandbox the same bot does write there.
    duel(&["--sandbox", "none"]);
    assert!(dir.path().join("scribbled.txt").exists());
}

/// Whether this kernel's Landlock confines a plain bot's `what` (ABI `abi` on); says why not.
fn landlock_confines(abi: i64, what: &str) -> bool {
    let offered = landlock_abi();
    if offered < abi {
        eprintln!("this kernel offers Landlock ABI {offered}, not {abi}: a plain bot's {what} are not confined here");
    }
    offered >= abi
}

/// A plain bot (`--sandbox plain`: what `auto` falls back to where user namespaces are
/// restricted, as on Ubuntu 24.04) of an arena that is not root runs as the arena's own user: a
/// bot rewrote a league's `tournament.json` (`arena leaderboard` then ranked it first and showed
/// an honest student as disqualified), and could read the other students' code. Landlock now
/// shows it only what a box would: it can neither write the league's files nor read another
/// bot's, though its user may (they are left writable by all here, so that as root, where the
/// bot is a user of its own, the control shows the same), nor change their mode or times,
/// which Landlock does not govern (a filter refuses those calls to a plain bot Landlock
/// confines). The control: with Landlock off, it does all of them (the mode as a user other
/// than root only). (Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_bot_can_neither_write_the_league_s_files_nor_read_another_bot_s() {
    use std::os::unix::fs::PermissionsExt;
    if !landlock_confines(1, "files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (league, alice) = (dir.path().join("league"), dir.path().join("alice"));
    let tournament = league.join("tournament.json");
    let results = league.join("results.jsonl");
    let theirs = alice.join("bot.py");
    for folder in [&league, &alice] {
        std::fs::create_dir(folder).unwrap();
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    for (file, text) in [(&tournament, "{\"name\":\"league\"}\n"), (&results, "{}\n"), (&theirs, "print('alice')\n")] {
        std::fs::write(file, text).unwrap();
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = shared_copy(dir.path(), &bin("zoo-attack"));
    for (attack, file) in [("write", &tournament), ("write", &results), ("read", &theirs), ("chmod", &tournament)] {
        let before = std::fs::read(file).unwrap();
        let mode = std::fs::metadata(file).unwrap().permissions().mode();
        let bot = format!("{attacker} {attack} {}", hex(file));
        zoo_with(&bot, &greedy, None, &[], &["--sandbox", "plain"]);
        assert_eq!(std::fs::read(file).unwrap(), before, "{attack} {}: untouched", file.display());
        assert_eq!(std::fs::metadata(file).unwrap().permissions().mode(), mode, "{attack} {}", file.display());
        // (As root the bot is a user of its own, who may change no mode of root's files anyway.)
        if attack == "chmod" && as_root() {
            eprintln!("root: a plain bot is a user of its own, which may not change the mode of root's files anyway");
            continue;
        }
        // The control: without Landlock the attack works (the bot says so by an invalid move).
        let control = duel_with_env(&bot, &greedy, &["--sandbox", "plain"], &UNCONFINED);
        promises(&control, &bot, Some("invalid_move"), &[]);
        match attack {
            "write" => assert_ne!(std::fs::read(file).unwrap(), before, "the control wrote {}", file.display()),
            "chmod" => assert_eq!(std::fs::metadata(file).unwrap().permissions().mode() & 0o777, 0o600, "the control"),
            _ => {}
        }
    }
}

/// Without a box, the plain bot of an arena that is not root was the arena's user, and so were
/// its keeper and its opponent: it could kill either (and the arena). Landlock's signal scope
/// (ABI 6) keeps it from signalling any process outside its own domain: its keeper lives on, and
/// its opponent plays its game to the end. The control: with Landlock off, the keeper is killed
/// (the bot dies with it: a crash) and so is the opponent. (As root the bots, a user of their own
/// each, could not signal the others anyway: the control is skipped, the defence still shown.)
#[test]
fn a_plain_bot_cannot_signal_its_keeper_nor_its_opponent() {
    if !landlock_confines(6, "signals") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let name = format!("victim{}", std::process::id());
    let victim = shared_copy(dir.path(), &bin("greedy"));
    let victim = {
        let renamed = dir.path().join(&name);
        std::fs::rename(&victim, &renamed).unwrap();
        renamed.display().to_string()
    };
    let attacker = shared_copy(dir.path(), &bin("zoo-attack"));
    let (at_keeper, at_opponent) = (format!("{attacker} parent KILL"), format!("{attacker} signal {name} KILL"));
    zoo_with(&at_keeper, &victim, None, &[], &["--sandbox", "plain"]);
    zoo_with(&at_opponent, &victim, None, &[], &["--sandbox", "plain"]);
    if as_root() {
        eprintln!("root: a plain bot is a user of its own, which may not signal the others even without Landlock");
        return;
    }
    let control = duel_with_env(&at_keeper, &victim, &["--sandbox", "plain"], &UNCONFINED);
    assert_eq!(
        player(&control.result, 0).2.as_deref(),
        Some("crash"),
        "the control killed its keeper: {}",
        control.result
    );
    let control = duel_with_env(&at_opponent, &victim, &["--sandbox", "plain"], &UNCONFINED);
    assert_eq!(
        player(&control.result, 1).2.as_deref(),
        Some("crash"),
        "the control killed its opponent: {}",
        control.result
    );
}

/// Honest bots still play in plain mode, confined by Landlock where the kernel has it: Python
/// (the starter kit's greedy bot, `python3` reading its module beside it), the compiled C++
/// sample bot and the Rust one, each from a folder any user may read (a root arena runs a plain
/// bot as a user of its own).
#[test]
fn honest_bots_play_in_plain_mode() {
    let dir = tempfile::tempdir().unwrap();
    let kit = root().join("starter-kits/python");
    let python = dir.path().join("python");
    std::fs::create_dir(&python).unwrap();
    for file in ["greedy.py", "botkit.py"] {
        shared_copy(&python, &kit.join(file).display().to_string());
    }
    let python = format!("python3 {}", python.join("greedy.py").display());
    let (cpp, rust) = (shared_copy(dir.path(), &cpp_greedy()), shared_copy(dir.path(), &bin("greedy")));
    for (a, b) in [(&python, &cpp), (&rust, &python), (&cpp, &rust)] {
        let run = duel_with(a, b, &["--sandbox", "plain", "--startup-ms", "5000", "--move-ms", "1000"]);
        for seat in 0..2 {
            let (score, finished, forfeit) = player(&run.result, seat);
            assert!(finished && forfeit.is_none() && score > 0, "{a} against {b}: {}\n{}", run.result, run.log);
        }
    }
}

/// A plain bot reads `/proc` (its runtime does: `/proc/self`), but Landlock keeps it from any
/// process outside its domain there as by `ptrace`: it can neither read the arena's environment
/// nor the memory of its opponent or keeper, nor write into its opponent's pipe through
/// `/proc/<pid>/fd/0`. The control (a user other than root, whose bots are all its own): with
/// Landlock off, each works. (Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_bot_cannot_reach_other_processes_through_proc() {
    if !landlock_confines(1, "views of other processes") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let name = format!("prey{}", std::process::id());
    let victim = dir.path().join(&name);
    std::fs::rename(shared_copy(dir.path(), &bin("greedy")), &victim).unwrap();
    let victim = victim.display().to_string();
    let attacker = shared_copy(dir.path(), &bin("zoo-attack"));
    for attack in
        ["environ RUST_LOG".to_string(), format!("ptrace {name}"), format!("stdin {name}"), "trace-parent".into()]
    {
        let bot = format!("{attacker} {attack}");
        zoo_with(&bot, &victim, None, &[], &["--sandbox", "plain"]);
        if as_root() {
            continue;
        }
        // (Nor its own user namespace, where an arena that is not root makes its mount namespace
        // without Landlock: the kernel keeps it from processes outside that as well.)
        let off = UNCONFINED;
        let control = duel_with_env(&bot, &victim, &["--sandbox", "plain"], &off);
        assert_eq!(player(&control.result, 0).2.as_deref(), Some("invalid_move"), "{attack}: {}", control.result);
    }
}

/// What Landlock does not govern, a red team's plain bots did past it (their user the arena's):
/// made an io_uring (through which they set an ACL and made a unix socket past the filters),
/// an AIO context, a unix datagram pair (which sends to any named socket), an MPTCP socket
/// (a TCP connection outside Landlock's TCP rights), set their keeper's priority and limits
/// (an opponent killed by its `RLIMIT_CPU` set to 0, the arena by its `RLIMIT_FSIZE`), and an
/// extended attribute through `setxattrat`; and UDP is ungoverned too, and TCP before ABI 4 (a
/// machine elsewhere could think for the bot): a plain bot makes no IP socket, nor a netlink
/// one but of the route family (`sock_diag` lists the machine's sockets). A plain bot
/// Landlock confines does none of them.
/// The controls: with Landlock (and so the filters) off, each works (the keeper's priority, its
/// limits and the attribute as a user other than root only: a root arena's plain bot is a user
/// of its own; an IP socket, an io_uring and an AIO context with the sandbox off only: a plain
/// bot without Landlock is refused those too, which this checks for the last two, refused it
/// since 2026-12-07 as a box's refusals; and a datagram pair and `sock_diag`, refused it since
/// stop 76 with a plain process's sockets). (Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_bot_reaches_no_process_socket_or_attribute_past_landlock() {
    if !landlock_confines(1, "processes, sockets and attributes") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = shared_copy(dir.path(), &bin("zoo-attack"));
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "x").unwrap();
    let mptcp = {
        // SAFETY: socket takes no pointer; a descriptor it gives is closed.
        let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 262) };
        // SAFETY: closes the descriptor just made.
        fd >= 0 && unsafe { libc::close(fd) } == 0
    };
    let mut attacks = vec![
        ("io-uring".to_string(), true),
        ("aio".to_string(), true),
        ("dgram-pair".to_string(), true),
        ("udp".to_string(), true),
        ("tcp".to_string(), true),
        ("sock-diag".to_string(), true),
    ];
    attacks.push(("mptcp".to_string(), mptcp));
    for attack in ["renice-parent", "limit-parent"] {
        attacks.push((attack.to_string(), !as_root()));
    }
    attacks.push((format!("setxattrat {}", hex(&target)), !as_root()));
    for (attack, control) in attacks {
        let bot = format!("{attacker} {attack}");
        zoo_with(&bot, &greedy, None, &[], &["--sandbox", "plain"]);
        // (A box's refusals, io_uring and AIO among them, hold without Landlock too since
        // 2026-12-07, as do IP sockets, refused to a plain bot without Landlock as to a box
        // without a memory cgroup: their control is the sandbox off.)
        let unconfined_too =
            ["io-uring", "aio", "udp", "tcp", "mptcp", "dgram-pair", "sock-diag"].contains(&attack.as_str());
        if ["io-uring", "aio", "dgram-pair", "sock-diag"].contains(&attack.as_str()) {
            let run = duel_with_env(&bot, &greedy, &["--sandbox", "plain"], &UNCONFINED);
            promises(&run, &bot, None, &[]);
        }
        if control {
            let off = if unconfined_too { ["--sandbox", "none"] } else { ["--sandbox", "plain"] };
            // (Nor a mount namespace: an arena that is not root makes it in a user namespace, whose
            // capabilities the keeper holds, and the kernel keeps the bot from renicing it too.)
            let run = duel_with_env(&bot, &greedy, &off, &UNCONFINED);
            promises(&run, &bot, Some("invalid_move"), &[]);
        } else {
            eprintln!("{attack}: no control here (the kernel lacks it, or the bot is a user of its own as root)");
        }
    }
}

/// Landlock does not govern a unix socket named by a file's path (only one in the abstract
/// space, from ABI 6): a plain bot of an arena that is not root connected to a socket its user
/// listened on, as it could to that user's systemd or D-Bus session, which start programs
/// outside its domain. A plain bot Landlock confines may make no unix socket of its own (a
/// filter refuses `socket(AF_UNIX, …)`; `socketpair` is left to it), nor one Landlock does not
/// confine (the same filter, since stop 76). The control: with the sandbox off, it connects.
/// (Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_bot_cannot_connect_to_a_unix_socket_of_its_user() {
    use std::os::unix::fs::PermissionsExt;
    if !landlock_confines(1, "unix sockets") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = shared_copy(dir.path(), &bin("zoo-attack"));
    let path = dir.path().join("session.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    // (Open to all: as root, the bot is a user of its own.)
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    let bot = format!("{attacker} unix-connect {}", hex(&path));
    zoo_with(&bot, &greedy, None, &[], &["--sandbox", "plain"]);
    let unconfined = duel_with_env(&bot, &greedy, &["--sandbox", "plain"], &UNCONFINED);
    promises(&unconfined, &bot, None, &[]);
    let control = duel_with_env(&bot, &greedy, &["--sandbox", "none"], &UNCONFINED);
    promises(&control, &bot, Some("invalid_move"), &[]);
}

/// `arena build CONFIG --out LEAGUE --sandbox plain` of the bots `bots` (TOML entries) in `dir`,
/// with `env` set for the arena: what it printed, whether it succeeded.
fn plain_build(dir: &Path, bots: &str, env: &[(&str, &str)]) -> (bool, String) {
    build_in(dir, bots, env, "plain")
}

/// [`plain_build`] with the sandbox `mode` (`plain`, or `none` for a control).
fn build_in(dir: &Path, bots: &str, env: &[(&str, &str)], mode: &str) -> (bool, String) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let config = dir.join(format!("league-{run}.toml"));
    std::fs::write(&config, format!("seed = 1\nmaps = [{:?}]\n{bots}", map("fire.txt"))).unwrap();
    let league = config.with_extension("out");
    let (config, league) = (config.display().to_string(), league.display().to_string());
    let out = Command::new(bin("arena"))
        .current_dir(dir)
        .envs(env.iter().copied())
        .args(["build", &config, "--out", &league, "--sandbox", mode])
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// A folder `dir` for a plain build: open to every user, and its files, where this test runs
/// as root, given to `nobody` (a root arena runs a plain build as its folder's owner, and
/// refuses to build a folder root owns: the build would be root).
fn build_folder(dir: &Path, files: &[(&str, &str)]) {
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    if as_root() {
        let status = Command::new("chown").args(["-R", "65534:65534"]).arg(dir).status().unwrap();
        assert!(status.success(), "chown -R nobody {}", dir.display());
    }
}

/// Plain builds were not confined: with `--sandbox plain` (the documented way on Ubuntu 24.04
/// without root) a student's `build` ran as the arena's user, and could rewrite the league's
/// `tournament.json` or read other students' code. Landlock now shows a plain build what a
/// box's build sees (the system's folders, its own folder, the toolchains) and lets it write
/// its folder and a scratch folder of its own (its `HOME` and `TMPDIR`), nothing else: the
/// machine's `/tmp` neither. The control: with Landlock off, the same build does all of it.
/// (Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_build_can_neither_write_the_league_s_files_nor_read_another_bot_s() {
    use std::os::unix::fs::PermissionsExt;
    if !landlock_confines(1, "builds' files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (league, alice) = (dir.path().join("league"), dir.path().join("alice"));
    let tournament = league.join("tournament.json");
    let theirs = alice.join("bot.py");
    // (Writable and readable by all: as root, the build is nobody's, and the control shows the same.)
    for folder in [&league, &alice] {
        std::fs::create_dir(folder).unwrap();
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    for (file, text) in [(&tournament, "{\"name\":\"league\"}\n"), (&theirs, "print('alice secret')\n")] {
        std::fs::write(file, text).unwrap();
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    let shared = std::env::temp_dir().join(format!("arena-e2e-build-{}", std::process::id()));
    let script = format!(
        "cat {theirs} > stolen\necho forged >> {tournament}\necho shared > {shared}\n\
         echo \"$TMPDIR $HOME\" > scratch && echo own > \"$TMPDIR/own\" && cat \"$TMPDIR/own\" >> scratch\n\
         printf '#!/bin/sh\\nexec true\\n' > bot && chmod 755 bot\n",
        theirs = theirs.display(),
        tournament = tournament.display(),
        shared = shared.display()
    );
    let evil = dir.path().join("evil");
    build_folder(&evil, &[("build.sh", &script)]);
    let bots = format!(
        "[[bots]]\nname = \"evil\"\ncwd = \"evil\"\nbuild = \"sh build.sh\"\ncommand = \"./bot\"\n\
         [[bots]]\nname = \"carol\"\ncommand = {:?}\n",
        bin("greedy")
    );
    let (ok, out) = plain_build(dir.path(), &bots, &[]);
    assert!(ok && out.contains("built evil"), "{out}");
    assert_eq!(std::fs::read_to_string(&tournament).unwrap(), "{\"name\":\"league\"}\n", "untouched: {out}");
    let stolen = std::fs::read_to_string(evil.join("stolen")).unwrap();
    assert!(!stolen.contains("alice secret"), "alice's file out of reach: {stolen}");
    assert!(!shared.exists(), "the machine's /tmp is not the build's");
    // Its own scratch folder, its HOME and TMPDIR, which it writes.
    let scratch = std::fs::read_to_string(evil.join("scratch")).unwrap();
    let (tmp, home) = scratch.lines().next().and_then(|l| l.split_once(' ')).unwrap();
    assert!(tmp == home && tmp != "/tmp" && scratch.ends_with("own\n"), "{scratch}");
    assert!(!Path::new(tmp).exists(), "the scratch folder goes with the build: {tmp}");
    // The control: with Landlock off, the same build reads alice's file and writes the league's.
    let (ok, out) = plain_build(dir.path(), &bots, &UNCONFINED);
    assert!(ok, "{out}");
    assert!(std::fs::read_to_string(&tournament).unwrap().contains("forged"), "the control: {out}");
    assert!(std::fs::read_to_string(evil.join("stolen")).unwrap().contains("alice secret"), "the control");
    assert!(shared.exists(), "the control writes the machine's /tmp");
    let _ = std::fs::remove_file(&shared);
}

/// A plain build's memory is capped by each process's address space alone: what no address
/// space holds, it may not make (a red team's build held 6,144 MiB in `memfd_create` files, never
/// mapped, under a limit of 4,096). `memfd_create` (and `memfd_secret`, `vmsplice`) fail with
/// `ENOSYS`, with Landlock or without. The control: with the sandbox off, the same build makes one.
#[test]
fn a_plain_build_cannot_hold_memory_outside_its_processes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = "python3 -c 'import os\ntry:\n    os.memfd_create(\"hoard\"); print(\"memfd ok\")\n\
                  except OSError as e:\n    print(\"memfd\", e.errno)' > said\n\
                  printf '#!/bin/sh\\nexec true\\n' > bot && chmod 755 bot\n";
    let hoarder = dir.path().join("hoarder");
    build_folder(&hoarder, &[("build.sh", script)]);
    let bots = format!(
        "[[bots]]\nname = \"hoarder\"\ncwd = \"hoarder\"\nbuild = \"sh build.sh\"\ncommand = \"./bot\"\n\
         [[bots]]\nname = \"carol\"\ncommand = {:?}\n",
        bin("greedy")
    );
    let bots = bots.as_str();
    let said = || std::fs::read_to_string(hoarder.join("said")).unwrap_or_default();
    let refused = format!("memfd {}\n", libc::ENOSYS);
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let (ok, out) = plain_build(dir.path(), bots, env);
        assert!(ok && said() == refused, "{env:?}: {} {out}", said());
    }
    let (ok, out) = build_in(dir.path(), bots, &[], "none");
    assert!(ok && said() == "memfd ok\n", "the control: {} {out}", said());
}

/// Honest builds still succeed in plain mode, confined by Landlock where the kernel has it: C++
/// (`make` running `g++`), Python (`python3 -m py_compile`) and Rust (`cargo build --offline`
/// of a crate without dependencies; only where the build's user may run this user's cargo, not
/// as root, whose plain builds run as `nobody`), each bot's output where its command runs it.
#[test]
fn honest_builds_succeed_in_plain_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let cpp =
        "#include <iostream>\n#include <string>\nint main() { std::string l; while (std::getline(std::cin, l)) {} }\n";
    build_folder(
        &dir.path().join("cpp"),
        &[("bot.cpp", cpp), ("Makefile", "bot: bot.cpp\n\tg++ -O1 -o bot bot.cpp\n")],
    );
    build_folder(&dir.path().join("py"), &[("bot.py", "print('WAIT')\n")]);
    let mut bots = String::from(
        "[[bots]]\nname = \"cpp\"\ncwd = \"cpp\"\nbuild = \"make\"\ncommand = \"./bot\"\n\
         [[bots]]\nname = \"py\"\ncwd = \"py\"\nbuild = \"python3 -m py_compile bot.py\"\ncommand = \"python3 bot.py\"\n",
    );
    // The arena's CARGO_HOME, as a build is given it (see `sandbox::toolchains`).
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let cargo = cargo_home
        .map(|h| h.join("bin/cargo"))
        .filter(|c| !as_root() && Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()));
    if cargo.is_some() {
        let manifest = "[package]\nname = \"rsbot\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n";
        build_folder(&dir.path().join("rs"), &[("Cargo.toml", manifest), ("src/main.rs", "fn main() {}\n")]);
        bots.push_str("[[bots]]\nname = \"rs\"\ncwd = \"rs\"\nbuild = \"cargo build --offline\"\ncommand = \"./target/debug/rsbot\"\n");
    } else {
        eprintln!(
            "no cargo the build's user may run (as root, plain builds run as nobody): the Rust build is not tried"
        );
    }
    let (ok, out) = plain_build(dir.path(), &bots, &[]);
    assert!(ok && !out.contains("cannot play"), "{out}");
    let executable = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    assert!(executable(&dir.path().join("cpp/bot")), "g++'s output, executable: {out}");
    let cache = std::fs::read_dir(dir.path().join("py/__pycache__")).unwrap().count();
    assert_eq!(cache, 1, "python's compiled file: {out}");
    if cargo.is_some() {
        assert!(executable(&dir.path().join("rs/target/debug/rsbot")), "cargo's output: {out}");
    }
}

/// A plain bot (`--sandbox plain`, or `auto` where no box can be made) has a scratch folder of its
/// own, its `HOME` and `TMPDIR`, as a box's bot has its tmpfs: Python's `tempfile` works there
/// (before, its `TMPDIR` was the machine's `/tmp`, which Landlock does not let it write, and every
/// `TemporaryFile()` failed). The folder is in one of the run's own in the arena's `TMPDIR`,
/// removed when the run ends. The control: the same bot with a scratch folder it may not write
/// (`TMPDIR` and `HOME` set, in its command, to the read-only `/proc`) fails.
#[test]
fn a_plain_bot_keeps_scratch_files_in_a_folder_of_its_own() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // (As root, the bot is a user of its own: it passes through the arena's TMPDIR.)
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = shared_copy(dir.path(), &root().join("tests/bots/tempfiles.py").display().to_string());
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let env = [("TMPDIR", tmp.to_str().unwrap())];
    let flags = ["--sandbox", "plain", "--startup-ms", "5000"];
    let run = duel_with_env(&format!("python3 {bot}"), &greedy, &flags, &env);
    promises(&run, &bot, None, &[]);
    let said = run.log.lines().find_map(|l| l.split("scratch: ").nth(1)).unwrap_or_default().to_string();
    let (scratch, home) = said.split_once(" home: ").unwrap_or_default();
    assert!(scratch == home && scratch.starts_with(tmp.to_str().unwrap()), "{}", run.log);
    assert!(scratch.contains("/arena-scratch-") && scratch.contains("/bot-"), "{scratch}");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().map(|e| e.unwrap().file_name()).collect();
    let left: Vec<_> = left.iter().filter(|n| n.to_string_lossy().starts_with("arena-scratch-")).collect();
    assert!(left.is_empty(), "the run's scratch folders go with it: {left:?}");
    // The control: where its TMPDIR may not be written, the bot fails.
    let control = duel_with_env(&format!("env TMPDIR=/proc HOME=/proc python3 {bot}"), &greedy, &flags, &env);
    assert_eq!(player(&control.result, 0).2.as_deref(), Some("crash"), "the control: {}", control.result);
    assert!(control.log.contains("no scratch"), "{}", control.log);
}

/// A plain bot's scratch folder is its own: its opponent can neither find it (the run's folder
/// of them may not be listed) nor, given its path (the test finds both bots' and tells the spy),
/// read a file there or write one, as Landlock shows each bot its own folder alone, and its
/// tmpfs is in its own mount namespace (`scratch_spy.sh` plays an invalid move where it can). The
/// control: with Landlock and the mount namespace off, a bot of an arena that is not root (both
/// bots the arena's user) does both. (As root, each plain bot is a user of its own, whose folder
/// is its own alone: there is no control to show. Skipped where the kernel has no Landlock.)
#[test]
fn a_plain_bot_cannot_reach_its_opponent_s_scratch_folder() {
    use std::os::unix::fs::PermissionsExt;
    if !landlock_confines(1, "files") {
        return;
    }
    let spied = |env: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let (tmp, spy) = (dir.path().join("tmp"), dir.path().join("spy"));
        for folder in [&tmp, &spy] {
            std::fs::create_dir(folder).unwrap();
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let owner = shared_copy(dir.path(), &root().join("tests/bots/scratch_owner.sh").display().to_string());
        let script = shared_copy(&spy, &root().join("tests/bots/scratch_spy.sh").display().to_string());
        // The test finds both bots' scratch folders and tells the spy their paths (one a line:
        // it tries the one that is not its own; the owner's secret may be in a tmpfs of the
        // owner's mount namespace, out of the test's sight).
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let finder = {
            let (tmp, spy, done) = (tmp.clone(), spy.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    let runs = std::fs::read_dir(&tmp).into_iter().flatten().filter_map(Result::ok);
                    let folders =
                        runs.flat_map(|r| std::fs::read_dir(r.path()).into_iter().flatten().filter_map(Result::ok));
                    let found: Vec<String> =
                        folders.map(|f| f.path()).filter(|f| f.is_dir()).map(|f| f.display().to_string()).collect();
                    if found.len() == 2 {
                        let target = spy.join("target");
                        std::fs::write(&target, found.join("\n")).unwrap();
                        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
                        return true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                false
            })
        };
        let env = [&[("TMPDIR", tmp.to_str().unwrap())][..], env].concat();
        let flags = ["--sandbox", "plain", "--startup-ms", "5000", "--move-ms", "3000"];
        let spy_bot = format!("sh {script} {}", spy.display());
        let run = duel_with_env(&spy_bot, &format!("sh {owner}"), &flags, &env);
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(finder.join().unwrap(), "the test found the bots' scratch folders: {}", run.log);
        run
    };
    let run = spied(&[]);
    assert!(player(&run.result, 0).2.is_none(), "the spy reached nothing: {}\n{}", run.result, run.log);
    if as_root() {
        eprintln!("root: each plain bot is a user of its own, whose folder is its own alone: no control to show");
        return;
    }
    let control = spied(&UNCONFINED);
    assert_eq!(player(&control.result, 0).2.as_deref(), Some("invalid_move"), "the control: {}", control.result);
}

/// A plain bot (and build) shares the machine's IPC namespace, which Landlock does not govern:
/// it made System V shared memory segments, message queues and semaphore sets, reached those of
/// its user by their ids (root's, under `unshare -r` by the machine's root), and its detached
/// segments held 16 x 32 MiB under a limit of 64 (no process's memory shows them) and outlived
/// the match. Each SysV call now fails (`ENOSYS`, as on a kernel without it) in every plain
/// mode, with Landlock and without it; the bot plays on, holding nothing (`hide-memory sysv`).
/// A box has an IPC namespace of its own. The control: with the sandbox off, it makes each.
#[test]
fn a_plain_bot_cannot_use_system_v_ipc() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attacker = format!("{} sysv-ipc", shared_copy(dir.path(), &bin("zoo-attack")));
    let hider = format!("{} hide-memory sysv 192", shared_copy(dir.path(), &bin("zoo-attack")));
    let refused = "sysv-ipc: shmget ENOSYS, msgget ENOSYS, semget ENOSYS;";
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&attacker, &greedy, &["--sandbox", "plain"], env);
        promises(&run, &attacker, None, &[]);
        assert!(run.log.contains(refused), "{env:?}: {}", run.log);
        let limits = ["--sandbox", "plain", "--max-memory-mb", "64", "--startup-ms", "5000"];
        let run = duel_with_env(&hider, &greedy, &limits, env);
        promises(&run, &hider, None, &[]);
        assert!(run.log.contains("hide-memory sysv: held 0 MiB of 192"), "{env:?}: {}", run.log);
    }
    let control = duel_with(&attacker, &greedy, &["--sandbox", "none"]);
    promises(&control, &attacker, Some("invalid_move"), &[]);
    assert!(control.log.contains("sysv-ipc: shmget ok, msgget ok, semget ok;"), "{}", control.log);
}

/// A plain bot shares the machine's POSIX message queues (`/dev/mqueue`), which Landlock does
/// not govern: `mq_open` answered `EACCES` there but made the queue all the same, and a red
/// team's bot left 256 of them, the machine's `queues_max`, so that no other user could make one
/// (and one named queue is a bit another bot reads). A filter refuses the calls (`ENOSYS`), with
/// Landlock or without: no queue is left after the match. The control: with the sandbox off, it
/// makes the queue, which outlives it.
#[test]
fn a_plain_bot_cannot_leave_a_posix_message_queue() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let attack = shared_copy(dir.path(), &bin("zoo-attack"));
    let name = format!("arena-zoo-mq-{}", std::process::id());
    let path = std::ffi::CString::new(format!("/{name}")).unwrap();
    // Whether the queue is there: its name is taken (ENOENT: it is not).
    let there = || {
        // SAFETY: a valid name; O_RDONLY makes nothing; the descriptor, if any, is closed.
        unsafe {
            let q = libc::mq_open(path.as_ptr(), libc::O_RDONLY);
            let there = q >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ENOENT);
            if q >= 0 {
                libc::mq_close(q);
            }
            there
        }
    };
    let bot = format!("{attack} mq-left {name}");
    for env in [&[][..], &[PLAIN_WITHOUT_LANDLOCK][..]] {
        let run = duel_with_env(&bot, &greedy, &["--sandbox", "plain"], env);
        promises(&run, &bot, None, &[]);
        assert!(run.log.contains("mq-left: mq_open ENOSYS;"), "{env:?}: {}", run.log);
        assert!(!there(), "{env:?}: no queue is left");
    }
    let control = duel_with(&bot, &greedy, &["--sandbox", "none"]);
    let left = there();
    // SAFETY: a valid name.
    unsafe { libc::mq_unlink(path.as_ptr()) };
    promises(&control, &bot, Some("invalid_move"), &[]);
    assert!(control.log.contains("mq-left: mq_open ok;") && left, "the control's queue is left: {}", control.log);
}

/// A plain bot's unix socket pairs are counted with its memory (its sockets are in the
/// machine's network namespace: the arena dumps the machine's unix sockets and counts those its
/// processes hold), and a process of it that an arena that is not root may not look at, one
/// running a binary made execute-only (`chmod 111`: not dumpable), ends it for memory, even
/// holding little: its descriptors cannot be read, and 192 MiB in socket pairs hid so under a
/// limit of 64 (here 128; the arena run as `nobody` where the test is root). The attack holds, then never
/// answers: the monitor looks until the startup time is up. The controls: the readable binary
/// holding 32 MiB is not ended for memory (the startup time ends it), the readable one holding
/// 192 MiB is; with the sandbox off, the execute-only one holds its 192 MiB until its time is up.
#[test]
fn a_plain_bot_may_not_hide_behind_an_execute_only_binary() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let greedy = shared_copy(dir.path(), &bin("greedy"));
    let readable = shared_copy(dir.path(), &bin("zoo-attack"));
    let hidden = dir.path().join("hidden-attack");
    std::fs::copy(&readable, &hidden).unwrap();
    std::fs::set_permissions(&hidden, std::fs::Permissions::from_mode(0o111)).unwrap();
    let hidden = hidden.display().to_string();
    let nobody = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"];
    let not_root: &[&str] = if as_root() { &nobody } else { &[] };
    let duel = |binary: &str, mib: u32, sandbox: &str| {
        let attacker = format!("{binary} hide-memory-and-wait sockets {mib}");
        // (128 MiB: the readable control's 32 MiB of socket data counts up to about twice that
        // with the buffers' overhead, and its own pages besides.)
        let limits = ["--sandbox", sandbox, "--max-memory-mb", "128", "--startup-ms", "5000"];
        (duel_under(not_root, &attacker, &greedy, &limits, &[]), attacker)
    };
    for mib in [192, 1] {
        let (run, attacker) = duel(&hidden, mib, "plain");
        promises(&run, &attacker, Some("memory"), &[]);
        let said = "a plain bot's process may not be looked at by the arena";
        assert!(run.stderr.contains(said) && run.stderr.contains("hidden-attack"), "{mib} MiB: {}", run.stderr);
    }
    let (run, attacker) = duel(&readable, 1, "plain");
    promises(&run, &attacker, Some("timeout"), &[]);
    assert!(run.log.contains("hide-memory sockets: held 32 MiB of 1"), "the control, readable: {}", run.log);
    let (run, attacker) = duel(&readable, 192, "plain");
    promises(&run, &attacker, Some("memory"), &[]);
    let (run, attacker) = duel(&hidden, 192, "none");
    promises(&run, &attacker, Some("timeout"), &[]);
    assert!(run.log.contains("hide-memory sockets: held 192 MiB of 192"), "the control, no sandbox: {}", run.log);
}
