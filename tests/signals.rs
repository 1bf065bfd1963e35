//! The signals that end a run as Ctrl-C does, through the real binary: SIGTERM (a batch
//! system's time limit or `scancel`, a pod deleted), SIGHUP (the terminal or SSH session
//! closed), a second signal while the run ends, the arena as a container's first process.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use arena_e2e::*;
use serde_json::Value;

/// A league config of `bots` on fire.txt in `dir` (12 matches for 4 bots).
fn config(dir: &Path, bots: &[(&str, String)]) -> PathBuf {
    config_file(&dir.join("league.toml"), "seed = 5\ngames = 1", &["fire.txt"], bots)
}

/// `arena tournament ARGS`, its stderr written to `stderr`.
fn spawn(args: &[&str], stderr: &Path) -> Child {
    Command::new(bin("arena"))
        .current_dir(root())
        .arg("tournament")
        .args(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(stderr).unwrap())
        .spawn()
        .unwrap()
}

fn result_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl")).map_or(0, |t| t.lines().count())
}

/// The command line of process `pid` (empty once it has ended, or is a zombie).
fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .unwrap_or_default()
}

/// Every process below `pid` (its children, theirs, …): the bots of a run and their keepers.
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut next = vec![pid];
    while let Some(p) = next.pop() {
        for task in std::fs::read_dir(format!("/proc/{p}/task")).into_iter().flatten().flatten() {
            let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            for child in children.split_whitespace().filter_map(|c| c.parse::<u32>().ok()) {
                all.push(child);
                next.push(child);
            }
        }
    }
    all
}

/// Waits until the run `child` (into `out`) has recorded a result and a bot whose command line
/// holds `marker` is playing; returns the processes below it then.
fn playing(child: &mut Child, out: &Path, marker: &str) -> Vec<u32> {
    let start = Instant::now();
    loop {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
        assert!(start.elapsed() < Duration::from_secs(90), "no slow match playing after a result");
        let below = descendants(child.id());
        if result_lines(out) >= 1 && below.iter().any(|&p| cmdline(p).contains(marker)) {
            return below;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The exit status of `child`, waiting up to `within`; `None` if it is still running then.
fn ends_within(child: &mut Child, within: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < within {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

fn kill(pid: u32, signal: libc::c_int) {
    // SAFETY: kill has no memory preconditions; the pid is one this test started (or below it).
    unsafe { libc::kill(pid as libc::pid_t, signal) };
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

/// The league's folder, `versions/` and each bot's and version's folder: the way to the copies.
fn way_folders(league: &Path) -> Vec<PathBuf> {
    let mut folders = vec![league.to_path_buf(), league.join("versions")];
    for bot in std::fs::read_dir(league.join("versions")).unwrap().flatten() {
        folders.push(bot.path());
        folders.extend(std::fs::read_dir(bot.path()).unwrap().flatten().map(|v| v.path()));
    }
    folders
}

/// Each result line of `league` whole (JSON, a newline at its end), each naming a replay that
/// is there; no bot was charged with a crash; and, for a run that ended cleanly, no temporary
/// file is left among the replays (one killed may leave the replay it was writing, which the
/// next run removes).
fn results_intact(league: &Path, cleanly: bool) -> usize {
    let text = std::fs::read_to_string(league.join("results.jsonl")).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "a torn last line: {text}");
    for line in text.lines() {
        let result: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let replay = result["replay"].as_str().unwrap();
        assert!(league.join(replay).is_file(), "{replay} is missing");
        assert!(!line.contains("\"crash\""), "a bot charged with a crash the run's end made: {line}");
    }
    let temporary = std::fs::read_dir(league.join("replays"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .count();
    assert!(temporary == 0 || !cleanly, "a half-written replay is left");
    text.lines().count()
}

/// Whether this test runs as root with `setpriv`: a root arena without a box (`--sandbox
/// plain`) runs each bot as a user of its own, and opens the way to the copies for them.
fn root_with_setpriv() -> bool {
    let root = as_root();
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok_and(|o| o.status.success());
    if !root || !setpriv {
        eprintln!("not root, or no setpriv: the way to the copies (a root arena's without a box) is not checked");
    }
    root && setpriv
}

/// SIGTERM (a batch system's time limit or `scancel`, a pod deleted) and SIGHUP (the terminal
/// or SSH session closed) end a run as Ctrl-C does: no new match starts, the running bots are
/// ended, every result written so far is whole, the command exits at once with 128 + the
/// signal's number, saying so, and `--resume` completes the league. A root arena without a box
/// (`--sandbox plain`) closes the way it opened to its bots' copies. The control: SIGKILL,
/// which no handler sees (as SIGTERM and SIGHUP killed the arena before), leaves that way open
/// until the next command locks the league; the bots end with the arena either way (each dies
/// with it).
#[test]
fn sigterm_and_sighup_end_a_run_as_ctrl_c_does() {
    let root = root_with_setpriv();
    let dir = tempfile::tempdir().unwrap();
    // (Others may pass through to the league, as the way needs.)
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let marker = "0.0431";
    let cfg = config(dir.path(), &slow_bots(marker)).display().to_string();
    let sandbox = if root { "plain" } else { "auto" };
    for (signal, name, status) in
        [(libc::SIGTERM, "terminated (SIGTERM)", 143), (libc::SIGHUP, "hung up (SIGHUP)", 129), (libc::SIGKILL, "", 0)]
    {
        let league = dir.path().join(format!("league-{signal}"));
        let stderr_file = dir.path().join(format!("stderr-{signal}"));
        let out = league.display().to_string();
        let mut child = spawn(&["--config", &cfg, "--out", &out, "-j", "2", "--sandbox", sandbox], &stderr_file);
        let bots: Vec<(u32, String)> = playing(&mut child, &league, marker)
            .into_iter()
            .map(|p| (p, cmdline(p)))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        if root {
            assert_eq!(mode_of(&league) & 0o001, 0o001, "the way is open while the run plays");
        }
        let signalled = Instant::now();
        kill(child.id(), signal);
        let ended = ends_within(&mut child, Duration::from_secs(15)).expect("the run ended");
        let took = signalled.elapsed();
        let stderr = std::fs::read_to_string(&stderr_file).unwrap();
        if signal == libc::SIGKILL {
            assert_eq!(std::os::unix::process::ExitStatusExt::signal(&ended), Some(libc::SIGKILL));
        } else {
            assert_eq!(ended.code(), Some(status), "{stderr}");
            assert!(took < Duration::from_secs(10), "ended at once, not after its matches: {took:?}");
            assert!(stderr.contains(&format!("{name}: starting no new matches, ending running bots")), "{stderr}");
            let word = &name[..name.find(" (").unwrap()];
            assert!(stderr.contains(&format!("{word}: resume with `")), "{stderr}");
        }
        // No bot is left, nor its keeper or box (by pid and command line: a pid taken again
        // since runs something else).
        let start = Instant::now();
        while let Some((left, command)) = bots.iter().find(|(p, command)| cmdline(*p) == *command) {
            assert!(start.elapsed() < Duration::from_secs(10), "{left} left running: {command}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let done = results_intact(&league, signal != libc::SIGKILL);
        assert!(done < 12, "stopped early ({done} of 12)");
        if signal != libc::SIGKILL {
            assert_eq!(leaderboard(&league)["matches"].as_u64(), Some(done as u64), "the leaderboard of what finished");
        }
        if root {
            let open: Vec<_> = way_folders(&league).into_iter().filter(|f| mode_of(f) & 0o001 != 0).collect();
            if signal == libc::SIGKILL {
                assert!(!open.is_empty(), "the control: SIGKILL leaves the way open");
            } else {
                assert!(open.is_empty(), "the way is closed: {open:?} open");
            }
        }
        let (stdout, stderr) = {
            let run = arena(&["tournament", "--resume", &out]);
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            (String::from_utf8_lossy(&run.stdout).into_owned(), String::from_utf8_lossy(&run.stderr).into_owned())
        };
        assert!(stdout.contains(&format!("{done} kept")), "what finished is kept: {stdout}\n{stderr}");
        assert_eq!(results_intact(&league, true), 12, "the resume completes the league");
        if root {
            assert!(way_folders(&league).iter().all(|f| mode_of(f) & 0o001 == 0), "closed after the resume");
        }
    }
}

/// A batch system that ends a job sends SIGTERM to each of its processes, the bots too, in no
/// set order (Slurm's time limit and `scancel`): a bot that dies of it before the arena sees
/// its own is no crash of the bot's, and the match is not recorded (a resume plays it again).
/// The control: the same signal to the bots alone, the arena not ending, is recorded as their
/// crash: what the arena recorded when the bots' deaths came first (reproduced with SIGINT to
/// the bots 50 ms before the arena's: matches recorded as both bots' crashes, 1 of 5 results
/// without a box, 2 of 6 in boxes).
#[test]
fn a_bot_ended_with_the_whole_job_is_charged_with_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = "0.0433";
    let cfg = config(dir.path(), &slow_bots(marker)).display().to_string();
    for whole_job in [true, false] {
        let league = dir.path().join(format!("league-{whole_job}"));
        let stderr_file = dir.path().join(format!("stderr-{whole_job}"));
        let out = league.display().to_string();
        let mut child = spawn(&["--config", &cfg, "--out", &out, "-j", "2"], &stderr_file);
        let bots = playing(&mut child, &league, marker);
        for &bot in &bots {
            kill(bot, libc::SIGTERM);
        }
        if whole_job {
            // (As a batch system signals the processes one by one: the arena a moment after.)
            std::thread::sleep(Duration::from_millis(50));
            kill(child.id(), libc::SIGTERM);
            let ended = ends_within(&mut child, Duration::from_secs(15)).expect("the run ended");
            let stderr = std::fs::read_to_string(&stderr_file).unwrap();
            assert_eq!(ended.code(), Some(143), "{stderr}");
            results_intact(&league, true);
        } else {
            // The control: the slow bot's match ends with its crash, recorded.
            let start = Instant::now();
            while !std::fs::read_to_string(league.join("results.jsonl")).unwrap_or_default().contains("\"crash\"") {
                assert!(start.elapsed() < Duration::from_secs(30), "the control: no crash recorded");
                std::thread::sleep(Duration::from_millis(20));
            }
            kill(child.id(), libc::SIGTERM);
            assert_eq!(ends_within(&mut child, Duration::from_secs(15)).and_then(|s| s.code()), Some(143));
            let text = std::fs::read_to_string(league.join("results.jsonl")).unwrap();
            assert!(text.contains("killed by signal SIGTERM"), "the control: {text}");
        }
    }
}

/// A league of slow bots (`marker`, see `slow_bots`) built in `dir`, its folder then held alone
/// as a run holds it, signed as a run signs it, until the file given back is dropped.
fn built_and_held(dir: &Path, marker: &str) -> (PathBuf, std::fs::File) {
    use std::os::fd::AsRawFd;
    let cfg = config(dir, &slow_bots(marker)).display().to_string();
    let league = dir.join("league");
    let built = arena(&["build", &cfg, "--out", &league.display().to_string()]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let lock = std::fs::OpenOptions::new().read(true).write(true).open(league.join(".lock")).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    std::fs::write(league.join(".lock"), format!("pid {}", std::process::id())).unwrap();
    (league, lock)
}

/// A shard that waits for its league's folder, held alone by another command (up to 2 minutes,
/// as a batch system starts shards unattended), ends on the first signal, at once, with 128 +
/// its number and a line that says so, writing nothing; before, it saw the signal only once it
/// had the folder (or once the wait was over, 2 minutes later: past a batch system's grace
/// before SIGKILL). The control: without a signal, it is still waiting well after it said so
/// (the wait the signal cuts short). Once the folder is free, the shard runs as usual.
#[test]
fn a_shard_waiting_for_its_folder_ends_on_the_first_signal() {
    let dir = tempfile::tempdir().unwrap();
    let (league, lock) = built_and_held(dir.path(), "0.0435");
    let out = league.display().to_string();
    let before = files_under(&league);
    for (signal, name, status) in
        [(libc::SIGTERM, "terminated (SIGTERM)", 143), (libc::SIGINT, "interrupted (SIGINT)", 130)]
    {
        let stderr_file = dir.path().join(format!("stderr-{signal}"));
        let mut child = spawn(&["--resume", &out, "--shard", "1/2"], &stderr_file);
        let stderr = || std::fs::read_to_string(&stderr_file).unwrap_or_default();
        let start = Instant::now();
        while !stderr().contains("waiting up to 120 s") {
            assert!(child.try_wait().unwrap().is_none(), "it ended without waiting: {}", stderr());
            assert!(start.elapsed() < Duration::from_secs(60), "the shard never waited: {}", stderr());
            std::thread::sleep(Duration::from_millis(20));
        }
        // The control: it waits.
        assert!(ends_within(&mut child, Duration::from_secs(2)).is_none(), "still waiting: {}", stderr());
        let signalled = Instant::now();
        kill(child.id(), signal);
        let ended = ends_within(&mut child, Duration::from_secs(5));
        if ended.is_none() {
            kill(child.id(), libc::SIGKILL);
            let _ = child.wait();
        }
        let ended = ended.unwrap_or_else(|| panic!("still waiting after {name}: {}", stderr()));
        assert!(signalled.elapsed() < Duration::from_secs(2), "at once: {:?}", signalled.elapsed());
        assert_eq!(ended.code(), Some(status), "{}", stderr());
        let word = &name[..name.find(" (").unwrap()];
        let said = format!("{word} while waiting for {out} (held by another arena run): nothing was written");
        assert!(stderr().contains(name) && stderr().contains(&said), "{}", stderr());
        assert_eq!(files_under(&league), before, "nothing written");
    }
    drop(lock);
    // Nothing was played; the shard runs as usual.
    let run = arena(&["tournament", "--resume", &out, "--shard", "1/2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// `arena merge`, which batch systems start unattended once the shards end, handles the signals
/// as a run does: waiting for its folder (up to 2 minutes), held by another command, it ends on
/// the first at once, with 128 + its number and a line that says so, writing nothing. Before,
/// it had no handler: killed by the signal, with no word, or, as a pod's first process (a
/// Kubernetes merge Job's `arena merge`), not at all until SIGKILL came. The control: without a
/// signal, it is still waiting well after it said so; once the folder is free, it merges.
#[test]
fn a_merge_waiting_for_its_folder_ends_on_the_first_signal() {
    let dir = tempfile::tempdir().unwrap();
    let (league, lock) = built_and_held(dir.path(), "0.0438");
    let out = league.display().to_string();
    let before = files_under(&league);
    let stderr_file = dir.path().join("stderr");
    let mut child = Command::new(bin("arena"))
        .current_dir(root())
        .args(["merge", &out, &out])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_file).unwrap())
        .spawn()
        .unwrap();
    let stderr = || std::fs::read_to_string(&stderr_file).unwrap_or_default();
    let start = Instant::now();
    while !stderr().contains("waiting up to 120 s") {
        assert!(child.try_wait().unwrap().is_none(), "it ended without waiting: {}", stderr());
        assert!(start.elapsed() < Duration::from_secs(60), "the merge never waited: {}", stderr());
        std::thread::sleep(Duration::from_millis(20));
    }
    // The control: it waits.
    assert!(ends_within(&mut child, Duration::from_secs(2)).is_none(), "still waiting: {}", stderr());
    let signalled = Instant::now();
    kill(child.id(), libc::SIGTERM);
    let ended = ends_within(&mut child, Duration::from_secs(5));
    if ended.is_none() {
        kill(child.id(), libc::SIGKILL);
        let _ = child.wait();
    }
    let ended = ended.unwrap_or_else(|| panic!("still waiting after SIGTERM: {}", stderr()));
    assert!(signalled.elapsed() < Duration::from_secs(2), "at once: {:?}", signalled.elapsed());
    assert_eq!(ended.code(), Some(143), "{}", stderr());
    assert!(stderr().contains("terminated (SIGTERM): stopping the merge where its folder is whole"), "{}", stderr());
    let said = format!("terminated while waiting for {out} (held by another arena run): nothing was written");
    assert!(stderr().contains(&said), "{}", stderr());
    assert_eq!(files_under(&league), before, "nothing written");
    let temporary: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(temporary.is_empty(), "nothing left beside it: {temporary:?}");
    drop(lock);
    let merged = arena(&["merge", &out, &out]);
    let text = String::from_utf8_lossy(&merged.stdout);
    assert!(text.contains("0 of 12 matches played"), "it merges once free: {text}");
}

/// A second signal stops the run at once even where its stderr is a pipe nobody reads, full: a
/// thread blocked writing a log line there holds the lock on stderr, which the line of the
/// second signal waited for before (so the immediate stop, and the ways' closing, never came).
/// The control: the first signal alone leaves the run stuck on its pipe.
#[test]
fn a_second_signal_stops_at_once_with_stderr_a_full_pipe() {
    use std::os::fd::AsRawFd;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &slow_bots("0.0436")).display().to_string();
    let out = dir.path().join("league").display().to_string();
    let mut child = Command::new(bin("arena"))
        .current_dir(root())
        .args(["tournament", "--config", &cfg, "--out", &out, "-j", "1"])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = child.stderr.take().unwrap();
    let waiting = || {
        let mut n: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int; the descriptor is this test's end of the pipe.
        unsafe { libc::ioctl(pipe.as_raw_fd(), libc::FIONREAD, &mut n) };
        n
    };
    let start = Instant::now();
    while waiting() < 60 * 1024 {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before its pipe was full");
        assert!(start.elapsed() < Duration::from_secs(60), "the pipe never filled: {} bytes", waiting());
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    kill(child.id(), libc::SIGTERM);
    // The control.
    assert!(ends_within(&mut child, Duration::from_secs(2)).is_none(), "stuck on its full pipe");
    kill(child.id(), libc::SIGHUP);
    let ended = ends_within(&mut child, Duration::from_secs(5));
    if ended.is_none() {
        kill(child.id(), libc::SIGKILL);
        let _ = child.wait();
    }
    assert_eq!(ended.expect("stopped at once").code(), Some(129));
    drop(pipe);
}

/// As the first process of a container (a Kubernetes pod's `command` is PID 1 of its PID
/// namespace), the arena ends on SIGTERM as elsewhere: the kernel gives such a process no
/// signal it has no handler for, so before, SIGTERM was dropped and the run went on after its
/// pod's deletion until SIGKILL, 30 s later (reproduced: it played on to its end). The
/// control: a first process without a handler (`sleep`) ignores the same SIGTERM.
#[test]
fn as_a_container_s_first_process_sigterm_ends_the_run() {
    let unshare = |args: &[&str]| {
        Command::new("unshare")
            .args(["--pid", "--fork", "--kill-child"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    };
    let offered = unshare(&["true"]).and_then(|mut c| c.wait()).is_ok_and(|s| s.success());
    if !offered {
        eprintln!("no PID namespace can be made here (unshare --pid): not checked");
        return;
    }
    // The PID 1 below `unshare` whose command line holds `what`.
    let first_process = |child: &mut Child, what: &str| {
        let start = Instant::now();
        loop {
            assert!(start.elapsed() < Duration::from_secs(90), "{what} never started");
            if let Some(&p) = descendants(child.id()).iter().find(|&&p| cmdline(p).contains(what)) {
                let status = std::fs::read_to_string(format!("/proc/{p}/status")).unwrap_or_default();
                if status.lines().any(|l| l.starts_with("NSpid:") && l.trim_end().ends_with("\t1")) {
                    return p;
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // The control.
    let mut sleeper = unshare(&["sleep", "60"]).unwrap();
    let sleep = first_process(&mut sleeper, "sleep 60");
    kill(sleep, libc::SIGTERM);
    assert!(ends_within(&mut sleeper, Duration::from_secs(1)).is_none(), "the control: SIGTERM dropped");
    kill(sleeper.id(), libc::SIGKILL);
    let _ = sleeper.wait();

    let dir = tempfile::tempdir().unwrap();
    let marker = "0.0437";
    let cfg = config(dir.path(), &slow_bots(marker)).display().to_string();
    let league = dir.path().join("league");
    let out = league.display().to_string();
    let mut child =
        unshare(&["--mount-proc", &bin("arena"), "tournament", "--config", &cfg, "--out", &out, "-j", "1"]).unwrap();
    let arena = first_process(&mut child, "arena tournament");
    while result_lines(&league) < 1 {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(arena, libc::SIGTERM);
    let ended = ends_within(&mut child, Duration::from_secs(15));
    assert_eq!(ended.and_then(|s| s.code()), Some(143), "ended by SIGTERM as PID 1");
    assert!(results_intact(&league, true) < 12, "stopped early");
}
