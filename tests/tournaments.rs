//! Tournaments through the real binary: leaderboards, determinism across -j, resume after
//! kill -9, the league workflow (adding and replacing bots), torn result lines, Ctrl-C.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arena_e2e::*;
use serde_json::Value;

/// Writes a config with `bots` (name, command) on `maps` and returns its path.
/// (A fixed `secret`, the key of leagues from before secrets were drawn, `seed 5`: two
/// leagues of the same config then give the bots the same seeds, the ones these tests expect.)
fn config(dir: &Path, bots: &[(&str, String)], maps: &[&str], extra: &str) -> PathBuf {
    config_file(&dir.join("tournament.toml"), &format!("seed = 5\ngames = 1\nsecret = \"seed 5\"\n{extra}"), maps, bots)
}

fn tournament(args: &[&str]) -> (String, String, i32) {
    let out = arena(&[&["tournament"], args].concat());
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn result_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl")).map_or(0, |t| t.lines().count())
}

fn row<'a>(board: &'a Value, bot: &str) -> &'a Value {
    board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == bot).unwrap()
}

fn sample_bots() -> Vec<(&'static str, String)> {
    vec![
        ("greedy", bin("greedy")),
        ("random", bin("random")),
        ("waiter", bin("waiter")),
        ("cpp-greedy", cpp_greedy()),
        ("crasher", script("quitter.sh")),
    ]
}

#[test]
fn a_tournament_of_sample_bots_and_a_crasher_ranks_as_expected() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let cfg = config(dir.path(), &sample_bots(), &["fire.txt", "jump.txt"], "");
    let (stdout, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string(), "-j", "2"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    // 5 bots: 10 pairings, both sides, 2 maps.
    assert_eq!(result_lines(&out), 40);
    let board = leaderboard(&out);
    assert_eq!((board["matches"].as_u64(), board["scheduled"].as_u64()), (Some(40), Some(40)));
    let ranks: Vec<&str> = board["rows"].as_array().unwrap().iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert_eq!(ranks.len(), 5);
    let crasher = row(&board, "crasher");
    // It ties with the waiter on total score (0) and draws against it (0-0): only the
    // tie-breaks order those two.
    assert_eq!(&ranks[..3], ["cpp-greedy", "greedy", "random"], "{ranks:?}");
    assert_eq!((crasher["total_score"].as_i64(), crasher["games"].as_u64()), (Some(0), Some(16)));
    assert_eq!(crasher["forfeits"]["crash"], 16);
    assert_eq!(crasher["wins"], 0);
    assert_eq!(row(&board, "waiter")["total_score"], 0);
    for r in board["rows"].as_array().unwrap() {
        let sum = r["wins"].as_u64().unwrap() + r["draws"].as_u64().unwrap() + r["losses"].as_u64().unwrap();
        assert_eq!(sum, 16, "every bot plays 16 games: {r}");
        assert_eq!(r["matches"].as_array().unwrap().len(), 16);
    }
    assert!(row(&board, "greedy")["rank"].as_u64() < row(&board, "waiter")["rank"].as_u64());
    assert!(stdout.contains("rank") && stdout.contains("crash 16"), "the table is printed: {stdout}");
    // Every replay exists and verifies; the Markdown leaderboard links to them.
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    // Its run facts are whole: two maps make the line longer than a field's 200 characters,
    // and it still ends with the date and the arena's version.
    let facts = md.lines().find(|l| l.starts_with("Game resource-rush")).expect("the run facts");
    let version = format!("arena {}.", board["facts"]["arena_version"].as_str().unwrap());
    assert!(facts.chars().count() > 200 && facts.ends_with(&version) && !facts.contains("more characters"), "{facts}");
    for m in row(&board, "greedy")["matches"].as_array().unwrap() {
        let replay = m["replay"].as_str().unwrap();
        assert!(md.contains(&format!("]({replay})")));
        let verified = arena(&["verify", &out.join(replay).display().to_string()]);
        assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    }
    // `arena leaderboard` recomputes the same thing from the folder.
    let again = arena(&["leaderboard", "--json", &out.display().to_string()]);
    assert!(again.status.success());
    assert_eq!(untimed(&serde_json::from_slice::<Value>(&again.stdout).unwrap()), untimed(&board));

    // While a run holds the folder (its lock taken here as a run takes it), the standings are
    // printed but its pages are left to it: written now, they could land after the run's own.
    std::fs::remove_file(out.join("leaderboard.md")).unwrap();
    let lock = std::fs::File::open(out.join(".lock")).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    let busy = arena(&["leaderboard", "--json", &out.display().to_string()]);
    let stderr = String::from_utf8_lossy(&busy.stderr);
    assert!(busy.status.success() && stderr.contains("a run is writing this league"), "{stderr}");
    assert_eq!(untimed(&serde_json::from_slice::<Value>(&busy.stdout).unwrap()), untimed(&board));
    assert!(!out.join("leaderboard.md").exists(), "the run's pages are its own");
    drop(lock);
    // The control: alone, it writes them.
    assert!(arena(&["leaderboard", &out.display().to_string()]).status.success());
    assert!(out.join("leaderboard.md").exists());
    // A lock that cannot be taken at all (here its file is a folder; a read-only file system is
    // the same: the next test) is said with why, not put down to a run; the standings are still
    // printed, and the pages left as they are.
    std::fs::remove_file(out.join("leaderboard.md")).unwrap();
    std::fs::remove_file(out.join(".lock")).unwrap();
    std::fs::create_dir(out.join(".lock")).unwrap();
    let broken = arena(&["leaderboard", "--json", &out.display().to_string()]);
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(broken.status.success(), "{stderr}");
    assert!(
        stderr.contains("its pages were not written again, as its lock could not be taken")
            && stderr.contains(&format!("{}: not a file, which a lock is", out.join(".lock").display()))
            && !stderr.contains("a run is writing"),
        "{stderr}"
    );
    assert_eq!(untimed(&serde_json::from_slice::<Value>(&broken.stdout).unwrap()), untimed(&board));
    assert!(!out.join("leaderboard.md").exists());
}

/// A league on a file system the arena may not write (a snapshot, a read-only mount; root is
/// denied no folder, so the test remounts it read-only in a mount namespace of its own) is read
/// by every command that only reads it: its standings printed, published, merged, a replay
/// verified; a run says the folder cannot be written and what to do; nothing of it changes. The
/// control: the same commands on the folder writable, where the pages are written again and
/// the run resumes.
/// The default tournament (`arena tournament` alone) run outside the repository finds none of
/// its maps: it says to run it from the repository's root folder, and plays nothing. The
/// control: a config's own missing map is named without that line.
#[test]
fn the_default_tournament_outside_the_repository_says_where_to_run_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena_in(dir.path(), &["tournament", "-j", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("maps/duel.txt: cannot read map"), "{stderr}");
    assert!(stderr.contains("run it from the repository's root folder"), "{stderr}");
    let text = format!(
        "maps = [\"maps/none.txt\"]\n[[bots]]\nname = \"g\"\ncommand = {:?}\n[[bots]]\nname = \"w\"\ncommand = {:?}\n",
        bin("greedy"),
        bin("waiter")
    );
    std::fs::write(dir.path().join("c.toml"), text).unwrap();
    let out = arena_in(dir.path(), &["tournament", "-j", "1", "--config", "c.toml"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("maps/none.txt: cannot read map"), "{stderr}");
    assert!(!stderr.contains("repository's root folder"), "the control: {stderr}");
}

#[test]
fn a_read_only_league_is_read_published_and_merged_and_a_run_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let volume = dir.path().join("volume");
    let league = volume.join("league");
    let bots = [("greedy", bin("greedy")), ("random", bin("random"))];
    let cfg = config(dir.path(), &bots, &["duel.txt"], "");
    let (_, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let board = leaderboard(&league);
    std::fs::remove_file(league.join("leaderboard.md")).unwrap();
    let replay = walk(&league.join("replays")).into_iter().find(|p| p.to_string_lossy().ends_with(".json.gz")).unwrap();
    let script = r#"setup="$1"; shift; eval "$setup" || exit 77
run() { name=$1; shift; [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || return 0
    "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.code"; }
run leaderboard "$ARENA" leaderboard --json "$LEAGUE"
run publish "$ARENA" publish "$LEAGUE" "$OUT/site"
run merge "$ARENA" merge "$OUT/merged" "$LEAGUE"
run verify "$ARENA" verify "$REPLAY"
run resume "$ARENA" tournament --resume "$LEAGUE""#;
    let run = |name: &str, setup: &str, only: &str| {
        let out = dir.path().join(name);
        std::fs::create_dir(&out).unwrap();
        let before = contents(&volume);
        // (A mount namespace of its own: root's needs no user namespace, in which the machine's
        // root may run no bot, so that the control's resume is refused; another user's does.)
        let flags = if as_root() { "-m" } else { "-rm" };
        let ran = Command::new("unshare")
            .args([flags, "sh", "-c", script, "sh", setup])
            .env("OUT", &out)
            .env("ARENA", bin("arena"))
            .env("LEAGUE", &league)
            .env("REPLAY", &replay)
            .env("VOLUME", &volume)
            .env("ONLY", only)
            .output()
            .unwrap();
        let said =
            move |what: &str, of: &str| std::fs::read_to_string(out.join(format!("{of}.{what}"))).unwrap_or_default();
        let changed = before != contents(&volume);
        (
            ran,
            move |of: &str| (said("code", of).trim().parse::<i32>().unwrap_or(-1), said("out", of), said("err", of)),
            changed,
        )
    };
    let read_only = r#"mount --bind "$VOLUME" "$VOLUME" && mount -o remount,bind,ro "$VOLUME""#;
    // While a run of its owner's holds it (its lock taken and signed here, as a run does), a
    // publish of the read-only league does not read it half-written: refused, naming the run,
    // as where it may write. (Read without a lock, it was published.)
    let lock = std::fs::OpenOptions::new().read(true).write(true).open(league.join(".lock")).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    let signed = format!("pid {}", std::process::id());
    std::os::unix::fs::FileExt::write_all_at(&lock, format!("{signed:<20}").as_bytes(), 0).unwrap();
    let (ran, said, changed) = run("held", read_only, "publish");
    if ran.status.code() == Some(77) || !ran.status.success() && ran.stderr.starts_with(b"unshare:") {
        eprintln!("no mount namespace here: {}", String::from_utf8_lossy(&ran.stderr));
        return;
    }
    let (code, _, stderr) = said("publish");
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains(&format!("is being written by another arena run ({signed})")), "{stderr}");
    assert!(!changed && !dir.path().join("held/site").exists());
    drop(lock);
    let (ran, said, changed) = run("read-only", read_only, "");
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let (code, stdout, stderr) = said("leaderboard");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(untimed(&serde_json::from_str::<Value>(&stdout).unwrap()), untimed(&board));
    assert!(
        stderr.contains("its pages were not written again") && stderr.contains("Read-only file system"),
        "{stderr}"
    );
    for command in ["publish", "merge", "verify"] {
        let (code, _, stderr) = said(command);
        assert_eq!(code, 0, "{command}: {stderr}");
    }
    let site = dir.path().join("read-only/site");
    assert_eq!(untimed(&leaderboard(&site)), untimed(&board), "published");
    assert_eq!(leaderboard(&dir.path().join("read-only/merged"))["matches"], board["matches"], "merged");
    let (code, _, stderr) = said("resume");
    assert_ne!(code, 0, "{stderr}");
    let why = format!("{}: this league's folder cannot be written (Read-only file system", league.display());
    assert!(stderr.contains(&why) && stderr.contains("cp -r"), "{stderr}");
    assert!(!changed, "nothing of the read-only league changed");
    assert!(!league.join("leaderboard.md").exists());
    // The control: writable, the pages are written again and the run resumes (nothing to play).
    let (ran, said, changed) = run("writable", "true", "");
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    for command in ["leaderboard", "publish", "merge", "verify", "resume"] {
        let (code, _, stderr) = said(command);
        assert_eq!(code, 0, "{command}: {stderr}");
    }
    assert!(changed && league.join("leaderboard.md").exists(), "the pages written again");
    assert_eq!(leaderboard(&league)["matches"], board["matches"]);
}

/// The permission bits of `path` (not followed if a link).
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

/// Sets the permission bits of `path` (a test's own files).
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `command` run as uid and gid `id` with no other group (`setpriv`), its output.
fn run_as(id: u32, command: &mut Command) -> std::process::Output {
    let ids = [format!("--reuid={id}"), format!("--regid={id}"), "--clear-groups".to_string()];
    let mut wrapped = Command::new("setpriv");
    wrapped.args(ids).arg(command.get_program()).args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    wrapped.output().unwrap()
}

/// A league holds its secret (`tournament.json`) and every student's kept code (`versions/`):
/// its folder is its user's alone (`rwx------`), its lock and record `rw-------`, as a run, a
/// resume and a merge make them. The control: an older arena's league (`rwxr-xr-x`, its lock
/// and record `rw-r--r--`) is made so by its next run, which says so; a folder the teacher let
/// only a group read (`chmod -R g+rX`) stays so, but for its lock, its user's alone again.
#[test]
fn a_league_folder_is_private_to_its_user_and_an_older_one_is_made_so() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league");
    let cfg = config(dir.path(), &[("greedy", bin("greedy")), ("random", bin("random"))], &["duel.txt"], "");
    let (stdout, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let modes = |dir: &Path| [mode_of(dir), mode_of(&dir.join(".lock")), mode_of(&dir.join("tournament.json"))];
    assert_eq!(modes(&league), [0o700, 0o600, 0o600], "a new league");
    // Its folders too (a process already inside one never passes through the top again), but
    // for the copies a bot runs from, which a root arena's box shows a user of its own.
    let folders = league_folders(&league);
    assert!(folders.len() >= 9, "{folders:?}");
    for (folder, mode) in &folders {
        let copy = folder.file_name().is_some_and(|n| n == "files");
        assert_eq!(*mode, if copy { 0o755 } else { 0o700 }, "{}", folder.display());
    }
    let merged = dir.path().join("merged");
    let merge = arena(&["merge", &merged.display().to_string(), &league.display().to_string()]);
    assert!(merge.status.success(), "{}", String::from_utf8_lossy(&merge.stderr));
    assert_eq!(modes(&merged), [0o700, 0o600, 0o600], "a merged league");
    let resume = |expect: &str| {
        let (stdout, stderr, code) = tournament(&["--resume", &league.display().to_string()]);
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        assert_eq!(stderr.contains("made private to its user"), !expect.is_empty(), "{stderr}");
        assert!(stderr.contains(expect), "{stderr}");
    };
    // The control: an older arena's league.
    set_mode(&league, 0o755);
    set_mode(&league.join(".lock"), 0o644);
    set_mode(&league.join("tournament.json"), 0o644);
    for (folder, _) in &folders {
        set_mode(folder, 0o755);
    }
    resume(&format!("{}: made private to its user (it was 755", league.display()));
    assert_eq!(modes(&league), [0o700, 0o600, 0o600], "an older league, made private");
    assert_eq!(league_folders(&league), folders, "its folders too");
    // A league whose top alone an arena of 2026-12-06 made private: its folders made so.
    for (folder, _) in &folders {
        set_mode(folder, 0o755);
    }
    resume(&format!(
        "{}: {} of its folders (versions/, replays/, …) made private",
        league.display(),
        folders.len() - 2
    ));
    assert_eq!(league_folders(&league), folders);
    // A group let read it: the folder and record kept so (the record rewritten by the run),
    // the lock its user's again.
    set_mode(&league, 0o750);
    set_mode(&league.join(".lock"), 0o640);
    set_mode(&league.join("tournament.json"), 0o640);
    resume("");
    assert_eq!(modes(&league), [0o750, 0o600, 0o640], "a group's read kept, but for the lock");
    // Every user let in (`chmod -R a+rX`) is the older league's case again.
    set_mode(&league, 0o751);
    resume(&format!("{}: made private to its user (it was 751", league.display()));
    assert_eq!(modes(&league), [0o700, 0o600, 0o600]);
}

/// Every folder of the league `league` (not itself) down to its kept copies' own (`versions/<bot>/
/// <fingerprint>/files`), with its mode, by path.
fn league_folders(league: &Path) -> Vec<(PathBuf, u32)> {
    let mut folders: Vec<(PathBuf, u32)> = walk(league)
        .into_iter()
        .filter(|p| p.is_dir() && p.strip_prefix(league).unwrap().components().count() <= 4)
        .map(|p| {
            let mode = mode_of(&p);
            (p, mode)
        })
        .collect();
    folders.sort();
    folders
}

/// As root: the tests below start a process as `nobody` (uid 65534) with `setpriv`.
fn root_with_setpriv(why: &str) -> bool {
    let root = as_root();
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok_and(|o| o.status.success());
    if !root || !setpriv {
        eprintln!("not root, or no setpriv: {why}");
    }
    root && setpriv
}

/// A league whose folder `nobody` may enter (the test's temporary folder is root's own,
/// `rwx------`, made `rwxr-xr-x` here), played once: its folder.
fn league_nobody_could_reach(dir: &Path) -> PathBuf {
    set_mode(dir, 0o755);
    let league = dir.join("league");
    let cfg = config(dir, &[("greedy", bin("greedy")), ("random", bin("random"))], &["duel.txt"], "");
    let (stdout, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    league
}

/// Another local user (here `nobody`) can neither read a league's secret nor hold its lock, so
/// the owner's run is not refused while such a process lives. The control (the attack, as on an
/// older arena's league: its folder `rwxr-xr-x`, lock and record `rw-r--r--`): the same
/// process reads the record, holds the lock shared, and the owner's run is refused for as long
/// as it likes.
#[test]
fn another_user_can_neither_read_a_league_nor_hold_its_lock() {
    if !root_with_setpriv("this test starts a process of another user's (its root run does)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let league = league_nobody_could_reach(dir.path());
    let lock = league.join(".lock");
    // Holds the lock shared while it lives (as `flock -s LOCK sleep`), saying whether it could.
    let attack = || {
        let script = r#"if (: < "$1") 2>/dev/null; then exec flock -s "$1" sh -c 'echo held; exec sleep 600'
else echo cannot-open; exec sleep 600; fi"#;
        let mut child = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script, "sh"])
            .arg(&lock)
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut said = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut said).unwrap();
        (child, said.trim().to_string())
    };
    let end = |mut child: Child| {
        // SAFETY: kill of the process group this test started.
        unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = child.wait();
    };
    let read = run_as(65534, Command::new("cat").arg(league.join("tournament.json")));
    assert!(!read.status.success() && read.stdout.is_empty(), "the secret read by nobody");
    let (child, said) = attack();
    assert_eq!(said, "cannot-open");
    let (stdout, stderr, code) = tournament(&["--resume", &league.display().to_string()]);
    end(child);
    assert_eq!(code, 0, "the owner's run, while nobody's process lives: {stdout}\n{stderr}");
    // The control: an older arena's modes.
    set_mode(&league, 0o755);
    set_mode(&lock, 0o644);
    set_mode(&league.join("tournament.json"), 0o644);
    let read = run_as(65534, Command::new("cat").arg(league.join("tournament.json")));
    assert!(read.status.success() && String::from_utf8_lossy(&read.stdout).contains("\"secret\""));
    let (child, said) = attack();
    assert_eq!(said, "held");
    let (stdout, stderr, code) = tournament(&["--resume", &league.display().to_string()]);
    end(child);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("is being written by another arena run"), "{stderr}");
}

/// A process of another user's whose current folder is in a league's `versions/` (a student's
/// shell, there since the league was an older arena's, `rwxr-xr-x` throughout) never passes
/// through the league's folder again: the league made private, it can no longer list or read
/// the copies kept there, nor those kept since. The control: the league as an arena of
/// 2026-12-06 made it private (its top alone `rwx------`): the same process still reads them.
#[test]
fn a_process_of_another_user_inside_a_league_loses_its_folders_when_it_is_made_private() {
    if !root_with_setpriv("this test starts a process of another user's (its root run does)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let league = league_nobody_could_reach(dir.path());
    // Waits inside `versions/` for a line, then lists greedy's copies and reads one of them.
    let spy = |make_private: &dyn Fn()| {
        for (folder, _) in league_folders(&league) {
            set_mode(&folder, 0o755);
        }
        set_mode(&league, 0o755);
        set_mode(&league.join(".lock"), 0o644);
        set_mode(&league.join("tournament.json"), 0o644);
        let script = r#"cd "$1" && echo in && read go && ls greedy && cat greedy/*/files/0-greedy | wc -c"#;
        let mut child = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script, "sh"])
            .arg(league.join("versions"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut said = String::new();
        std::io::BufRead::read_line(&mut out, &mut said).unwrap();
        assert_eq!(said.trim(), "in");
        make_private();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"go\n").unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        let done = child.wait_with_output().unwrap();
        (done.status.success(), rest, String::from_utf8_lossy(&done.stderr).into_owned())
    };
    let (read, stdout, stderr) = spy(&|| {
        let made = arena(&["leaderboard", &league.display().to_string()]);
        assert!(made.status.success() && String::from_utf8_lossy(&made.stderr).contains("made private"));
    });
    assert!(!read && !stdout.contains(".."), "{stdout}");
    assert!(stderr.contains("Permission denied"), "{stderr}");
    assert_eq!(mode_of(&league.join("versions")), 0o700);
    // The control: the top alone made private, as the arena of 2026-12-06 did.
    let (read, stdout, stderr) = spy(&|| {
        set_mode(&league, 0o700);
        set_mode(&league.join("tournament.json"), 0o600);
    });
    let size = std::fs::metadata(bin("greedy")).unwrap().len();
    assert!(read && stdout.lines().last() == Some(&*size.to_string()), "{stdout}\n{stderr}");
}

/// A root arena's private league plays every match boxed (`--sandbox require`): a student's bot
/// (a folder) and one without a folder, both from the league's copies in folders root's alone,
/// which the box binds in before it takes the bot's user. Without a box (`plain`, as `auto`
/// where none can be made) the bots run as a user of their own, for whom the run opens the way
/// to the copies (search, not read) while it plays, and takes it back after: every match is
/// played too, and the folders are private again. The control: with that way not opened (the
/// copies not bound in, the folders private), no plain match could be played.
#[test]
fn a_root_arena_s_private_league_plays_every_match_boxed_or_not() {
    if !root_with_setpriv("this test is a root arena's (its root run does)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    set_mode(dir.path(), 0o755);
    std::fs::create_dir(dir.path().join("student")).unwrap();
    std::fs::copy(bin("greedy"), dir.path().join("student/bot")).unwrap();
    let text = format!(
        "maps = [{:?}]\ngames = 1\n[[bots]]\nname = \"random\"\ncommand = {:?}\n[[bots]]\nname = \"student\"\n\
         command = \"./bot\"\ncwd = \"student\"\n",
        map("duel.txt"),
        bin("random")
    );
    let cfg = dir.path().join("league.toml");
    std::fs::write(&cfg, text).unwrap();
    let run = |sandbox: &str| {
        let league = dir.path().join(sandbox);
        let args = ["--config", &cfg.display().to_string(), "--out", &league.display().to_string()];
        let ran = tournament(&[&args[..], &["--sandbox", sandbox]].concat());
        assert_eq!(mode_of(&league.join("versions")), 0o700);
        (ran, leaderboard(&league))
    };
    let every_match_played = |(stdout, stderr, code): (String, String, i32), board: Value| {
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        assert_eq!((board["matches"].as_u64(), board["scheduled"].as_u64()), (Some(2), Some(2)));
        for row in board["rows"].as_array().unwrap() {
            assert_eq!(row["games"], 2, "{row}");
            assert!(row["forfeits"].as_object().is_none_or(|f| f.values().all(|n| n == 0)), "{row}");
        }
        stderr
    };
    let (ran, board) = run("require");
    every_match_played(ran, board);
    let (ran, board) = run("plain");
    let stderr = every_match_played(ran, board);
    assert!(stderr.contains("who learns the name of a version's folder"), "{stderr}");
    let league = dir.path().join("plain");
    let version = std::fs::read_dir(league.join("versions/student")).unwrap().next().unwrap().unwrap().path();
    for folder in [league.clone(), league.join("versions"), league.join("versions/student"), version] {
        assert_eq!(mode_of(&folder), 0o700, "{} private again", folder.display());
    }
    // The control: the way not opened, a bot of its own user cannot reach its copy.
    let copy = std::fs::read_dir(league.join("versions/student")).unwrap().next().unwrap().unwrap().path();
    let reach = Command::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups", "test", "-x"])
        .arg(copy.join("folder/bot"))
        .status()
        .unwrap();
    assert!(!reach.success(), "the control: {} reached without the way", copy.display());
}

/// While a root arena without a box opens the way to its bots' copies, a bot does not learn
/// the other versions' folders from the league itself: the files at the league's top
/// (`results.jsonl` names every version) are no one else's to read, so a thief that reads them
/// and then each version of alice's finds nothing (a review's bot read alice's file so), and
/// the folders are private again once the run ends. Told alice's version's folder (as a
/// published results.jsonl would), the thief still reads nothing where Landlock confines it
/// (its own copy is all it may read). The control: with Landlock off, the same thief told it
/// reads it: the names are no secret, which the docs and the run's warning say; and, by hand,
/// with the files left readable, the thief read alice's file through results.jsonl.
#[test]
fn a_bot_of_a_root_arena_without_a_box_finds_no_copy_through_the_league_s_files() {
    if !root_with_setpriv("this test is a root arena's (its root run does)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    set_mode(dir.path(), 0o755);
    for bot in ["alice", "thief"] {
        std::fs::create_dir(dir.path().join(bot)).unwrap();
    }
    std::fs::copy(bin("greedy"), dir.path().join("alice/bot")).unwrap();
    std::fs::write(dir.path().join("alice/strategy.txt"), "ALICE SECRET STRATEGY\n").unwrap();
    let thief = format!(
        "#!/bin/sh\nL=../../../..\nfor fp in $(grep -o '[0-9a-f]\\{{16\\}}' $L/results.jsonl 2>/dev/null) $(cat known \
         2>/dev/null); do\n  cat $L/versions/alice/$fp/folder/strategy.txt 2>/dev/null | sed \"s/^/STOLE $fp /\" >&2\n\
         done\nexec {}\n",
        bin("greedy")
    );
    std::fs::write(dir.path().join("thief/bot"), thief).unwrap();
    set_mode(&dir.path().join("thief/bot"), 0o755);
    let text = format!(
        "maps = [{:?}]\ngames = 1\n[[bots]]\nname = \"alice\"\ncommand = \"./bot\"\ncwd = \"alice\"\n[[bots]]\n\
         name = \"thief\"\ncommand = \"./bot\"\ncwd = \"thief\"\n",
        map("duel.txt")
    );
    let cfg = dir.path().join("league.toml");
    std::fs::write(&cfg, text).unwrap();
    let league = dir.path().join("league");
    let args = ["--config", &cfg.display().to_string(), "--out", &league.display().to_string()];
    let logs = || {
        let mut text = String::new();
        for log in std::fs::read_dir(league.join("logs")).unwrap() {
            text += &std::fs::read_to_string(log.unwrap().path()).unwrap_or_default();
        }
        text
    };
    // A first run in boxes records alice's version in results.jsonl; then a new version of the
    // thief plays without a box.
    let (stdout, stderr, code) = tournament(&[&args[..], &["--sandbox", "require"]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let alice = std::fs::read_dir(league.join("versions/alice")).unwrap().next().unwrap().unwrap().file_name();
    let results = std::fs::read_to_string(league.join("results.jsonl")).unwrap();
    assert!(results.contains(&*alice.to_string_lossy()), "results.jsonl names alice's version: {results}");
    let resume = ["--resume", &league.display().to_string(), "--config", &cfg.display().to_string()];
    let plain = || tournament(&[&resume[..], &["--sandbox", "plain", "-j", "1"]].concat());
    std::fs::write(dir.path().join("thief/known"), "").unwrap();
    let (stdout, stderr, code) = plain();
    assert!(code == 0 && stderr.contains("thief v1 -> v2"), "{stdout}\n{stderr}");
    assert!(!logs().contains("STOLE"), "{}", logs());
    assert_eq!(mode_of(&league.join("versions/alice")), 0o700, "the way closed after the run");
    // Told alice's version's folder (as a published results.jsonl would), a new version of the
    // thief still reads nothing where Landlock confines a plain bot: it reads only its own copy.
    std::fs::write(dir.path().join("thief/known"), alice.to_string_lossy().as_bytes()).unwrap();
    let (stdout, stderr, code) = plain();
    assert!(code == 0 && stderr.contains("thief v2 -> v3"), "{stdout}\n{stderr}");
    if landlock_abi() >= 1 {
        assert!(!logs().contains("STOLE"), "Landlock: {}", logs());
    } else {
        eprintln!("no Landlock on this kernel: the thief told the folder reads it");
    }
    // The control: with Landlock off, a new version of the thief, told it, reads it (the way is
    // open to whoever knows the name).
    std::fs::write(dir.path().join("thief/known"), format!("{}\n\n", alice.to_string_lossy())).unwrap();
    let env = [PLAIN_WITHOUT_LANDLOCK];
    let out = Command::new(bin("arena"))
        .current_dir(root())
        .envs(env)
        .args([&["tournament"][..], &resume[..], &["--sandbox", "plain", "-j", "1"]].concat())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("thief v3 -> v4"), "{stderr}");
    assert!(logs().contains("STOLE") && logs().contains("ALICE SECRET STRATEGY"), "the control: {}", logs());
}

/// A private league still plays every match boxed (`--sandbox require`), its student's bot from
/// the league's copy under `versions/`, which the box binds in before it takes the bot's user:
/// run by `nobody` (boxes in a user namespace) in a folder `nobody` owns. (Root's runs are every
/// other league test's.)
#[test]
fn a_private_league_of_another_user_plays_its_matches_boxed() {
    if !root_with_setpriv("this test runs the arena as another user (its root run does)") {
        return;
    }
    if !user_namespaces_offered() {
        eprintln!("no user namespaces for an unprivileged user here: no box for nobody's arena");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    set_mode(dir.path(), 0o755);
    let home = dir.path().join("nobody");
    std::fs::create_dir_all(home.join("student")).unwrap();
    std::fs::copy(bin("greedy"), home.join("student/bot")).unwrap();
    let text = format!(
        "maps = [{:?}]\ngames = 1\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n[[bots]]\nname = \"student\"\n\
         command = \"./bot\"\ncwd = \"student\"\n",
        map("duel.txt"),
        bin("greedy")
    );
    std::fs::write(home.join("league.toml"), text).unwrap();
    assert!(Command::new("chown").args(["-R", "65534:65534"]).arg(&home).status().unwrap().success());
    let run = run_as(
        65534,
        Command::new(bin("arena"))
            .args(["tournament", "--config", "league.toml", "--out", "league", "--sandbox", "require"])
            .current_dir(&home),
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let league = home.join("league");
    assert_eq!(mode_of(&league), 0o700);
    assert!(std::fs::read_dir(league.join("versions/student")).unwrap().count() == 1, "played from its copy");
    for (folder, mode) in league_folders(&league) {
        let copy = folder.file_name().is_some_and(|n| n == "folder" || n == "files");
        assert!(copy || mode == 0o700, "{}: {mode:o}", folder.display());
    }
    let board = leaderboard(&league);
    assert_eq!((board["matches"].as_u64(), board["scheduled"].as_u64()), (Some(2), Some(2)));
    for row in board["rows"].as_array().unwrap() {
        assert_eq!(row["games"], 2, "{row}");
        assert!(row["forfeits"].as_object().is_none_or(|f| f.values().all(|n| n == 0)), "{row}");
    }
}

/// A user the teacher let read a league (`chmod -R g+rX` for an assistant's group) but not its
/// lock, its owner's alone, publishes it without the lock, saying so. The control: not let in,
/// the same user publishes nothing.
#[test]
fn a_user_let_read_a_league_publishes_it_without_its_lock() {
    if !root_with_setpriv("this test publishes as another user (its root run does)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let league = league_nobody_could_reach(dir.path());
    let site = dir.path().join("pub");
    std::fs::create_dir(&site).unwrap();
    std::os::unix::fs::chown(&site, Some(65534), Some(65534)).unwrap();
    let publish = |to: &str| {
        let out = run_as(
            65534,
            Command::new(bin("arena")).args(["publish", &league.display().to_string()]).arg(site.join(to)),
        );
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // The control: not let in.
    let (published, stderr) = publish("refused");
    assert!(!published && stderr.contains("Permission denied"), "{stderr}");
    let chgrp = Command::new("chgrp").args(["-R", "65534"]).arg(&league).status().unwrap();
    let chmod = Command::new("chmod").args(["-R", "g+rX"]).arg(&league).status().unwrap();
    assert!(chgrp.success() && chmod.success());
    set_mode(&league.join(".lock"), 0o600);
    let (published, stderr) = publish("site");
    assert!(published, "{stderr}");
    let said = format!("{}: read without its lock, which only the league's owner may open", league.display());
    assert!(stderr.contains(&said), "{stderr}");
    assert_eq!(leaderboard(&site.join("site"))["matches"], leaderboard(&league)["matches"]);
    assert!(!site.join("site/tournament.json").exists());
}

#[test]
fn one_job_and_four_jobs_give_the_same_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &sample_bots(), &["multipliers.txt"], "");
    let mut boards = Vec::new();
    for jobs in ["1", "4"] {
        let out = dir.path().join(format!("j{jobs}"));
        let (stdout, stderr, code) =
            tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string(), "-j", jobs]);
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        boards.push(leaderboard(&out));
    }
    assert_eq!(untimed(&boards[0]), untimed(&boards[1]));
}

fn spawn_tournament(args: &[&str]) -> Child {
    Command::new(bin("arena"))
        .current_dir(root())
        .arg("tournament")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait_for_results(dir: &Path, n: usize, child: &mut Child) {
    let start = Instant::now();
    while result_lines(dir) < n {
        assert!(child.try_wait().unwrap().is_none(), "the tournament ended before {n} results");
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn kill_9_then_resume_gives_the_uninterrupted_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &slow_bots("0.011"), &["fire.txt"], "");
    let cfg = cfg.display().to_string();
    let whole = dir.path().join("whole");
    let (_, stderr, code) = tournament(&["--config", &cfg, "--out", &whole.display().to_string(), "-j", "2"]);
    assert_eq!(code, 0, "{stderr}");

    let cut = dir.path().join("cut");
    let mut child = spawn_tournament(&["--config", &cfg, "--out", &cut.display().to_string(), "-j", "1"]);
    wait_for_results(&cut, 3, &mut child);
    let killed = child.id();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = result_lines(&cut);
    assert!(before < 12, "killed mid-tournament ({before} of 12 done)");

    let (stdout, stderr, code) = tournament(&["--resume", &cut.display().to_string()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("{} kept", before)), "finished matches are kept, not re-run: {stdout}");
    assert_eq!(result_lines(&cut), 12);
    assert_eq!(untimed(&leaderboard(&cut)), untimed(&leaderboard(&whole)));
    let leftovers: Vec<_> = std::fs::read_dir(cut.join("replays"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no half-written replay remains");
    for root in ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"] {
        let stale = std::fs::read_dir(root)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(&format!("arena-{killed}-")));
        assert!(!stale, "the resumed run ended the killed arena's bot cgroups in {root}");
    }
}

/// An arena in a PID namespace of its own (a container's, `unshare --pid`) that was killed left
/// its boxes' cgroups, named with its namespace, which no arena could judge (its pid means
/// nothing elsewhere). An arena of the machine's first namespace, which sees every process,
/// removes those of a namespace no process is in any more, and keeps those of one that lives.
/// (Root only: only a root arena makes cgroups.)
#[test]
fn boxes_of_an_ended_pid_namespace_are_removed_and_those_of_a_live_one_kept() {
    use std::os::unix::fs::MetadataExt;
    if skipped_unless_root("the arena makes no cgroups") {
        return;
    }
    let first = std::fs::metadata("/proc/self/ns/pid").unwrap().ino();
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    let memory = own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers.split(',').any(|c| c == "memory").then(|| path.trim_start_matches('/').to_string())
    });
    let Some(parent) = memory.map(|p| Path::new("/sys/fs/cgroup/memory").join(p)).filter(|p| p.is_dir()) else {
        eprintln!("no cgroup v1 memory hierarchy here");
        return;
    };
    if first != 0xEFFF_FFFC {
        eprintln!("this test runs in a PID namespace of its own: it sees not every process");
        return;
    }
    let mut holder = Command::new("unshare").args(["--pid", "--fork", "sleep", "60"]).spawn().unwrap();
    let children = format!("/proc/{0}/task/{0}/children", holder.id());
    let start = Instant::now();
    let live = loop {
        let child = std::fs::read_to_string(&children).unwrap_or_default();
        if let Some(ns) =
            child.split_whitespace().next().and_then(|c| std::fs::metadata(format!("/proc/{c}/ns/pid")).ok())
        {
            break ns.ino();
        }
        assert!(start.elapsed() < Duration::from_secs(10), "unshare started no process");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_ne!(live, first);
    let ended = parent.join(format!("arena-4000001-{}-ns1", std::process::id()));
    let living = parent.join(format!("arena-4000002-{}-ns{live}", std::process::id()));
    std::fs::create_dir(&ended).unwrap();
    std::fs::create_dir(&living).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (result, _) = duel(dir.path(), "fire.txt", &[], [&bin("greedy"), &bin("waiter")]);
    let (kept, removed) = (living.exists(), !ended.exists());
    let _ = std::fs::remove_dir(&living);
    let _ = std::fs::remove_dir(&ended);
    let _ = holder.kill();
    let _ = holder.wait();
    assert!(player(&result, 0).1, "the duel was played: {result}");
    assert!(kept, "the box of a namespace that lives is kept");
    assert!(removed, "the box of a namespace that ended is removed");
}

#[test]
fn a_torn_last_result_line_is_discarded_and_its_match_re_run() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &sample_bots()[..3], &["fire.txt"], "");
    let out = dir.path().join("t");
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let complete = leaderboard(&out);
    let path = out.join("results.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let last_start = text.trim_end().rfind('\n').unwrap() + 1;
    let cut_at = last_start + (text.len() - last_start) / 2;
    std::fs::write(&path, &text[..cut_at]).unwrap();
    let (stdout, stderr, code) = tournament(&["--resume", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(1 now, 5 kept"), "{stdout}");
    assert_eq!(untimed(&leaderboard(&out)), untimed(&complete));
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
}

/// A line in the middle of the results that is no result (a disk error, a hand edit) leaves its
/// match out of the standings: `arena leaderboard` prints them, names the line and exits 3, so a
/// script publishing them as grades stops; once a resume played the match again it exits 0,
/// the line only warned of. The control: the same command before the line was spoiled.
#[test]
fn a_spoiled_middle_line_fails_the_leaderboard_until_a_resume_plays_its_match() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &sample_bots()[..3], &["fire.txt"], "");
    let out = dir.path().join("t");
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let board = |args: &[&str]| {
        let out = arena(&[&["leaderboard"], args, &[&out.display().to_string()]].concat());
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&out.stdout), text(&out.stderr), out.status.code().unwrap_or(-1))
    };
    let (stdout, stderr, code) = board(&[]);
    assert_eq!(code, 0, "the control: {stderr}");
    assert!(stdout.contains("6 of 6 matches played"), "{stdout}");

    let path = out.join("results.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{\"key\": \"spoiled";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    for args in [&[][..], &["--csv"], &["--as-of", "2100-01-01T00:00:00Z"]] {
        let (stdout, stderr, code) = board(args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert!(stderr.contains("results.jsonl:3: not a result line"), "{stderr}");
        assert!(stderr.contains("these standings lack matches") && stderr.contains("--resume"), "{stderr}");
        assert!(stdout.contains("greedy"), "the standings are printed all the same: {stdout}");
    }

    let (stdout, stderr, code) = tournament(&["--resume", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(1 now, 5 kept"), "{stdout}");
    let (stdout, stderr, code) = board(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("6 of 6 matches played"), "{stdout}");
    assert!(stderr.contains("results.jsonl:3: not a result line"), "still warned of: {stderr}");
}

fn summary_line(stdout: &str) -> &str {
    stdout.lines().find(|l| l.contains("matches played")).unwrap_or("")
}

#[test]
fn the_league_reruns_only_what_a_new_or_changed_bot_touches() {
    let dir = tempfile::tempdir().unwrap();
    // A bot whose executable we can swap, to check that a rebuilt bot counts as new.
    let swap = dir.path().join("swap-bot");
    std::fs::copy(bins().join("waiter"), &swap).unwrap();
    let bots = vec![("greedy", bin("greedy")), ("random", bin("random")), ("swap", swap.display().to_string())];
    let cfg = config(dir.path(), &bots, &["fire.txt"], "");
    let out = dir.path().join("league");
    let out_arg = out.display().to_string();
    let (stdout, _, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &out_arg]);
    assert_eq!(code, 0);
    assert!(summary_line(&stdout).starts_with("6 of 6 matches played (6 now"), "{stdout}");

    // A new submission: only its 6 matches are played.
    let cpp = format!("cpp={}", cpp_greedy());
    let (stdout, _, code) = tournament(&["--resume", &out_arg, "--bot", &cpp]);
    assert_eq!(code, 0);
    assert!(
        summary_line(&stdout).starts_with("12 of 12 matches played (6 now, 6 kept, 0 no longer counted"),
        "{stdout}"
    );

    // Nothing changed: nothing runs.
    let (stdout, _, _) = tournament(&["--resume", &out_arg]);
    assert!(summary_line(&stdout).starts_with("12 of 12 matches played (0 now, 12 kept"), "{stdout}");

    // The swap bot is rebuilt (its executable changes): its 6 matches are superseded and re-run.
    std::fs::copy(bins().join("greedy"), &swap).unwrap();
    let (stdout, _, code) = tournament(&["--resume", &out_arg]);
    assert_eq!(code, 0);
    assert!(
        summary_line(&stdout).starts_with("12 of 12 matches played (6 now, 6 kept, 6 no longer counted"),
        "{stdout}"
    );
    assert!(row(&leaderboard(&out), "swap")["total_score"].as_i64().unwrap() > 0, "the new version plays");

    // A bot replaced on the command line under the same name.
    let (stdout, _, code) = tournament(&["--resume", &out_arg, "--bot", &format!("random={}", bin("waiter"))]);
    assert_eq!(code, 0);
    assert!(
        summary_line(&stdout).starts_with("12 of 12 matches played (6 now, 6 kept, 12 no longer counted"),
        "{stdout}"
    );
    assert_eq!(row(&leaderboard(&out), "random")["total_score"], 0);
    let files: Vec<String> = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    // Nothing is lost: superseded results stay on disk, with their replays, as history.
    assert_eq!(files.iter().filter(|f| f.ends_with(".json.gz")).count(), 24, "superseded replays are kept");
    assert_eq!(files.iter().filter(|f| f.ends_with(".html")).count(), 24, "and their pages");
    assert_eq!(result_lines(&out), 24);
    assert_eq!(leaderboard(&out)["matches"], 12, "only the current versions' results count");
}

#[test]
fn ctrl_c_stops_starting_matches_ends_bots_and_keeps_what_finished() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &slow_bots("0.013"), &["fire.txt"], "");
    let out = dir.path().join("t");
    let mut child =
        spawn_tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string(), "-j", "2"]);
    wait_for_results(&out, 1, &mut child);
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "an interrupted tournament exits non-zero");
    let done = result_lines(&out);
    assert!(done < 12, "it stopped early ({done} of 12)");
    assert_eq!(leaderboard(&out)["matches"].as_u64(), Some(done as u64), "the leaderboard of finished matches");
    assert!(!process_running("slowpoke.sh 0.013"), "no bot is left running");
    let (_, stderr, code) = tournament(&["--resume", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result_lines(&out), 12);
}

#[test]
fn bots_that_cannot_build_or_start_get_a_clear_row() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = format!("maps = [{:?}]\n", map("fire.txt"));
    text.push_str(&format!("[[bots]]\nname = \"greedy\"\ncommand = {:?}\n", bin("greedy")));
    text.push_str(&format!("[[bots]]\nname = \"waiter\"\ncommand = {:?}\n", bin("waiter")));
    text.push_str("[[bots]]\nname = \"broken\"\ncommand = \"./nothing\"\nbuild = \"echo compiling >&2; exit 3\"\n");
    text.push_str("[[bots]]\nname = \"ghost\"\ncommand = \"./no-such-program\"\n");
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("t");
    let (stdout, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let board = leaderboard(&out);
    assert_eq!(board["scheduled"], 2, "only the two working bots play");
    let broken = row(&board, "broken")["failure"].as_str().unwrap().to_string();
    assert!(broken.contains("build `echo compiling >&2; exit 3` failed") && broken.contains("compiling"), "{broken}");
    let ghost = row(&board, "ghost")["failure"].as_str().unwrap().to_string();
    assert!(ghost.contains("program `./no-such-program` not found"), "{ghost}");
    assert!(stdout.contains("not found"), "{stdout}");
    assert!(!stderr.contains("no match to play"), "two of four can play: {stderr}");
}

/// Writes `text` as the executable `file` of the bot folder `name` in `dir`.
fn bot_file(dir: &Path, name: &str, file: &str, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir.join(name)).unwrap();
    std::fs::write(dir.join(name).join(file), text).unwrap();
    std::fs::set_permissions(dir.join(name).join(file), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs a league of the config `cfg` into `out` with `PATH` set to `path`.
fn tournament_with_path(cfg: &Path, out: &Path, path: &str) -> (String, String, i32) {
    let args = ["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()];
    let run = Command::new(bin("arena")).current_dir(root()).env("PATH", path).args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&run.stdout), text(&run.stderr), run.status.code().unwrap_or(-1))
}

/// A bot that cannot start as it will really run gets a "cannot play" row with why, before
/// any match: a script saved with Windows line endings (`#!/bin/sh\r`), a `#!` line naming an
/// interpreter of another machine, an interpreter's script mistyped (`sh bto.sh`), a program
/// named bare that is on the teacher's PATH only (bots look in /usr/local/bin, /usr/bin, /bin).
/// Each passed the league's old check (its program is there; the bare one on the arena's
/// PATH), and made every match it was in "could not be played" or a crash. The controls: the
/// same script with LF line endings, and a compiled bot, play each other; no match fails, and
/// neither is listed as unable to play.
#[test]
fn a_bot_that_cannot_start_as_it_will_run_gets_a_cannot_play_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let waiter = bin("waiter");
    // (A script runs the program its command names after it, which its box then shows.)
    bot_file(d, "crlf", "run.sh", "#!/bin/sh\r\nexec \"$1\"\r\n");
    bot_file(d, "lf", "run.sh", "#!/bin/sh\nexec \"$1\"\n");
    bot_file(d, "brew", "run.py", "#!/opt/homebrew/bin/python3\nprint('WAIT')\n");
    bot_file(d, "typo", "bot.sh", &format!("exec {waiter}\n"));
    bot_file(d, "tools", "arena-test-runner", &format!("#!/bin/sh\nexec {waiter}\n"));
    let mut text = format!("maps = [{:?}]\n", map("fire.txt"));
    text.push_str(&format!("[[bots]]\nname = \"waiter\"\ncommand = {waiter:?}\n"));
    let run = format!("./run.sh {waiter}");
    for (name, command, cwd) in [
        ("lf", run.as_str(), "lf"),
        ("crlf", run.as_str(), "crlf"),
        ("brew", "./run.py", "brew"),
        ("typo", "sh bto.sh", "typo"),
        ("shim", "arena-test-runner", "typo"),
    ] {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\ncwd = {cwd:?}\n"));
    }
    let cfg = d.join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = d.join("t");
    // (The teacher's PATH has the runner: the old check looked bare names up there.)
    let path = format!("{}:{}", d.join("tools").display(), std::env::var("PATH").unwrap_or_default());
    let (stdout, stderr, code) = tournament_with_path(&cfg, &out, &path);
    assert_eq!(code, 0, "{stderr}");
    let board = leaderboard(&out);
    assert_eq!((board["scheduled"].as_u64(), board["matches"].as_u64()), (Some(2), Some(2)), "{board}");
    let failure = |bot: &str| row(&board, bot)["failure"].as_str().unwrap_or_default().to_string();
    let crlf = failure("crlf");
    assert!(crlf.contains("Windows line endings") && crlf.contains("sed -i 's/\\r$//' ./run.sh"), "{crlf}");
    let brew = failure("brew");
    assert!(brew.contains("`#!` line names") && brew.contains("which is not on this machine"), "{brew}");
    let typo = failure("typo");
    assert!(typo.contains("the script `bto.sh` that `sh` is to run does not exist"), "{typo}");
    assert!(typo.contains("did you mean `bot.sh`?"), "{typo}");
    let shim = failure("shim");
    assert!(shim.contains("program `arena-test-runner` not found in /usr/local/bin, /usr/bin, /bin"), "{shim}");
    for good in ["waiter", "lf"] {
        assert_eq!(row(&board, good)["failure"], Value::Null, "{good}");
        assert_eq!(row(&board, good)["games"], 2, "{good} played");
        assert_eq!(row(&board, good)["forfeits"], serde_json::json!({}), "{good} played to the end");
    }
    assert!(!stdout.contains("could not be played") && !stderr.contains("could not be played"), "{stdout}{stderr}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("\"failure\":").count(), 4, "only the four bad bots could not play");
}

/// A match that could not start because of one bot (its interpreter, `#!./interp`, a script of
/// its folder, itself has a `#!` line with Windows line endings: past the league's check, which
/// looks one `#!` deep, failing at each start) names that bot: its row says why, and the pages list it alone as unable to play, not
/// its opponent, who played no game either (the pages listed every bot without a game).
#[test]
fn a_match_that_cannot_start_blames_only_the_bot_that_failed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let waiter = bin("waiter");
    bot_file(d, "carol", "run.sh", "#!/bin/sh\nexec \"$1\"\n");
    bot_file(d, "x", "interp", "#!/bin/sh\r\nexec \"$@\"\r\n");
    bot_file(d, "x", "run", "#!./interp\n");
    let mut text = format!("maps = [{:?}]\n", map("fire.txt"));
    text.push_str(&format!("[[bots]]\nname = \"carol\"\ncommand = \"./run.sh {waiter}\"\ncwd = \"carol\"\n"));
    text.push_str("[[bots]]\nname = \"x\"\ncommand = \"./run\"\ncwd = \"x\"\n");
    let cfg = d.join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = d.join("t");
    let (stdout, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert_eq!(code, 1, "matches could not be played: {stderr}");
    assert!(stderr.contains("could not be played: bot `x`: cannot start"), "{stdout}{stderr}");
    let board = leaderboard(&out);
    let x = row(&board, "x")["unstarted"].as_str().unwrap_or_default().to_string();
    assert!(x.starts_with("bot `x`: cannot start"), "{board}");
    assert_eq!(row(&board, "carol")["unstarted"], Value::Null);
    assert_eq!(row(&board, "carol")["games"], 0, "carol played no game either");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("\"failure\":").count(), 1, "x alone could not play");
    assert!(index.contains("\"failure\":\"bot `x`: cannot start"), "the listed bot is x");
}

/// A match whose bot the machine could not start blames no bot: here the arena (not root, so
/// that its limits bind it) has a hard limit on file sizes below the bots', which it may not
/// raise, so each bot's `setrlimit` fails before its program runs. Every match failed "bot `x`:
/// cannot start …: Operation not permitted", and the league listed each bot as unable to play.
/// Now each is "could not be played" as the machine's, no bot is listed, and the next run plays
/// them. The control: on that next run, the bot whose interpreter cannot start is the one at
/// fault again, and only it.
#[test]
fn a_match_the_machine_could_not_start_blames_no_bot_and_is_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // (A root test runs the arena as `nobody`, which may reach these.)
    let (arena, waiter) = (shared_copy(d, &bin("arena")), shared_copy(d, &bin("waiter")));
    bot_file(d, "carol", "run.sh", "#!/bin/sh\n# carol\nexec \"$1\"\n");
    bot_file(d, "dave", "run.sh", "#!/bin/sh\n# dave\nexec \"$1\"\n");
    bot_file(d, "x", "interp", "#!/bin/sh\r\nexec \"$@\"\r\n");
    bot_file(d, "x", "run", "#!./interp\n");
    let fire = shared_copy(d, &map("fire.txt"));
    let mut text = format!("maps = [{fire:?}]\n");
    for (name, command) in
        [("carol", format!("./run.sh {waiter}")), ("dave", format!("./run.sh {waiter}")), ("x", "./run".into())]
    {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\ncwd = {name:?}\n"));
    }
    let cfg = d.join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let league = d.join("league");
    std::fs::create_dir(&league).unwrap();
    let root = as_root();
    if root {
        std::os::unix::fs::chown(&league, Some(65534), Some(65534)).unwrap();
    }
    let out = league.join("t");
    // The bots may write files of 64 MiB (`file_size_mb`): the arena's own hard limit is half.
    let hard = (32u64 << 20) as libc::rlim_t;
    let run = |faulty: bool| {
        let mut command = Command::new(&arena);
        command.current_dir(d).env("HOME", d).args(["tournament", "--config", &cfg.display().to_string()]);
        // (The next run resumes the league.)
        command.args([if faulty { "--out" } else { "--resume" }, &out.display().to_string()]);
        // SAFETY: the hook makes raw system calls only.
        unsafe {
            command.pre_exec(move || {
                let nobody = 65534;
                if root
                    && (libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setresgid(nobody, nobody, nobody) != 0
                        || libc::setresuid(nobody, nobody, nobody) != 0)
                {
                    return Err(std::io::Error::last_os_error());
                }
                let limit = libc::rlimit { rlim_cur: hard, rlim_max: hard };
                if faulty && libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let run = command.output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&run.stdout), text(&run.stderr), run.status.code().unwrap_or(-1))
    };
    let (stdout, stderr, code) = run(true);
    assert_eq!(code, 1, "matches could not be played: {stdout}{stderr}");
    let machine = "the machine could not start it, no fault of the bot's: its resource limits could not be set";
    assert!(stderr.contains("could not be played: bot `") && stderr.contains(machine), "{stdout}{stderr}");
    assert!(!stderr.contains("cannot start"), "no bot's fault: {stderr}");
    assert_eq!(result_lines(&out), 0, "no match was played");
    let board = leaderboard(&out);
    for bot in ["carol", "dave", "x"] {
        assert_eq!(row(&board, bot)["unstarted"], Value::Null, "{bot}: {board}");
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("\"failure\":").count(), 0, "no bot is listed as unable to play");

    // The next run, where the machine lets them start: played again; the control, x is at fault.
    let (stdout, stderr, code) = run(false);
    assert_eq!(code, 1, "x's matches could not be played: {stdout}{stderr}");
    assert!(stderr.contains("could not be played: bot `x`: cannot start"), "{stdout}{stderr}");
    assert!(!stderr.contains("the machine could not start"), "{stderr}");
    let board = leaderboard(&out);
    assert!(row(&board, "carol")["games"].as_u64() > Some(0), "carol and dave played: {board}");
    assert_eq!(result_lines(&out), row(&board, "carol")["games"].as_u64().unwrap_or(0) as usize, "{board}");
    let x = row(&board, "x")["unstarted"].as_str().unwrap_or_default().to_string();
    assert!(x.starts_with("bot `x`: cannot start"), "{board}");
    for bot in ["carol", "dave"] {
        assert_eq!(row(&board, bot)["unstarted"], Value::Null, "{bot}: {board}");
    }
}

#[test]
fn a_league_that_can_play_no_match_says_why_and_a_bad_param_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let league = |seats: u32, size: &str| {
        let mut text = format!("game = \"atoms\"\nseats = {seats}\n[params]\nsize = {size:?}\n");
        text.push_str(&format!("[[bots]]\nname = \"g\"\ncommand = {:?}\n", bin("atoms-greedy")));
        text.push_str(&format!("[[bots]]\nname = \"r\"\ncommand = {:?}\n", bin("atoms-random")));
        text.push_str("[[bots]]\nname = \"broken\"\ncommand = \"./nothing\"\nbuild = \"exit 3\"\n");
        let cfg = dir.path().join(format!("s{seats}-{size}.toml"));
        std::fs::write(&cfg, text).unwrap();
        let out = dir.path().join(format!("t{seats}-{size}"));
        tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()])
    };
    // Three seats, two good builds: nothing can be played, and the run says so.
    let (stdout, stderr, code) = league(3, "4x4");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("0 of 0 matches played"), "{stdout}");
    assert!(
        stderr.contains("no match to play: a match needs 3 bots with a good build, and 2 of the league's 3 have one (g, r); cannot play: broken: build `exit 3` failed"),
        "{stderr}"
    );
    // The control: with two seats the two good builds play each other, and nothing is said.
    let (stdout, stderr, code) = league(2, "4x4");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2 of 2 matches played") && !stderr.contains("no match to play"), "{stdout}{stderr}");
    // A bad parameter in the file is the file's, not a flag's.
    let (_, stderr, code) = league(2, "4by4");
    assert_ne!(code, 0);
    assert!(stderr.contains("s2-4by4.toml: [params] size = `4by4`: expected WIDTHxHEIGHT"), "{stderr}");
    assert!(!stderr.contains("--size"), "{stderr}");
}

/// A config that can never play a match (more seats than it has bots, or than its game allows)
/// is refused before anything is built or written, with a non-zero exit and a message naming
/// the file and what is wrong. The control, in the test above: a league that only waits for
/// good builds runs and exits 0.
#[test]
fn a_config_that_can_never_play_fails_naming_its_file_before_building() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built");
    let bots = format!(
        "[[bots]]\nname = \"g\"\ncommand = {:?}\nbuild = {:?}\n[[bots]]\nname = \"r\"\ncommand = {:?}\n",
        bin("atoms-greedy"),
        format!("touch {}", built.display()),
        bin("atoms-random")
    );
    for (name, head, says) in [
        ("atoms.toml", "game = \"atoms\"\nseats = 3\n", "`seats = 3` needs at least 3 bots, the config has 2 (g, r)"),
        (
            "rush.toml",
            &format!("seats = 3\nmaps = [{:?}]\n", map("fire.txt")) as &str,
            "`seats = 3`: Resource Rush is played by exactly 2 players, not 3",
        ),
        ("chess.toml", "game = \"chess\"\n", "unknown game `chess` (hosted: "),
    ] {
        let cfg = dir.path().join(name);
        std::fs::write(&cfg, format!("{head}{bots}")).unwrap();
        let out = dir.path().join(format!("out-{name}"));
        let (_, stderr, code) =
            tournament(&["--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
        assert_ne!(code, 0, "{name}: {stderr}");
        assert!(stderr.contains(&format!("{}: {says}", cfg.display())), "{name}: {stderr}");
        assert!(!out.exists() && !built.exists(), "{name}: nothing is built or written");
    }
    // A flag that makes the config unplayable is named beside the file.
    let cfg = dir.path().join("ok.toml");
    std::fs::write(&cfg, format!("game = \"atoms\"\n{bots}")).unwrap();
    let out = dir.path().join("out-flag");
    let (_, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--seats", "3", "--out", &out.display().to_string()]);
    assert_ne!(code, 0, "{stderr}");
    let says = format!("{} with --seats 3: `seats = 3` needs at least 3 bots", cfg.display());
    assert!(stderr.contains(&says), "{stderr}");
    assert!(!out.exists() && !built.exists(), "nothing is built or written");
}

/// A league of greedy and one bot built by `build` in a folder of its own (holding `notes.txt`,
/// 6 bytes), with `settings`; returns the built bot's leaderboard row, its folder's files with
/// their sizes (by name), and the disk its build log takes.
fn build_in_own_folder(build: &str, settings: &str) -> (Value, Vec<(String, u64)>, u64) {
    let (student, files, log) = build_in_prepared_folder(build, settings, &|_| {});
    (student, files.into_iter().map(|(name, size, _)| (name, size)).collect(), log)
}

/// [`build_in_own_folder`], with what `prepare` puts in the folder besides `notes.txt`, and
/// the files' disk use (allocated bytes) after their sizes.
fn build_in_prepared_folder(
    build: &str,
    settings: &str,
    prepare: &dyn Fn(&Path),
) -> (Value, Vec<(String, u64, u64)>, u64) {
    build_in_prepared_folder_with(build, settings, prepare, &[])
}

/// [`build_in_prepared_folder`], the arena run with `env` added to its environment.
fn build_in_prepared_folder_with(
    build: &str,
    settings: &str,
    prepare: &dyn Fn(&Path),
    env: &[(&str, &str)],
) -> (Value, Vec<(String, u64, u64)>, u64) {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("student");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("notes.txt"), "hello\n").unwrap();
    prepare(&folder);
    let text = student_league(settings, build);
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("t");
    let args = ["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()];
    let run = Command::new(bin("arena")).current_dir(root()).envs(env.iter().copied()).args(args).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let mut files: Vec<(String, u64, u64)> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.metadata().unwrap().len(), allocated(&e.path())))
        .collect();
    files.sort();
    let student = row(&leaderboard(&out), "student").clone();
    let log = out.join(student["build_log"].as_str().unwrap_or_default());
    (student, files, allocated(&log))
}

/// The bytes `path` takes on disk (its allocated blocks).
fn allocated(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::blocks(&std::fs::symlink_metadata(path).unwrap()) * 512
}

/// Reserves 256 MiB of its argument's blocks through `ioctl(FS_IOC_RESVSP64)`, which reaches
/// `fallocate` without calling it.
const RESERVE_C: &str = r#"#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
struct space_resv { int16_t l_type, l_whence; int64_t l_start, l_len; int32_t l_sysid; uint32_t l_pid; int32_t l_pad[4]; };
int main(int argc, char **argv) {
    int fd = open(argv[1], O_RDWR | O_CREAT, 0644);
    struct space_resv r;
    memset(&r, 0, sizeof r);
    r.l_len = 268435456;
    if (fd < 0 || ioctl(fd, 0x4030582a, &r) != 0) { perror("FS_IOC_RESVSP64"); return 1; }
    return 0;
}
"#;

/// Held by the tests whose builds move the free space of the temporary folders' file system by
/// hundreds of MiB, or count on it not moving: a build's cap watches that free space.
static DISK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn disk_alone() -> std::sync::MutexGuard<'static, ()> {
    DISK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn a_build_over_its_cap_gives_back_the_holes_it_filled() {
    let _disk = disk_alone();
    // A sparse file the folder holds (an earlier build's, say) takes no disk; filling its holes
    // takes disk without growing it. A build that fills 48 MiB of them is over its 16 MiB cap,
    // and the holes are made again: the file takes no disk, its size unchanged.
    let probe = tempfile::tempdir().unwrap();
    let sparse = |folder: &Path| std::fs::File::create(folder.join("sparse")).unwrap().set_len(64 << 20).unwrap();
    sparse(probe.path());
    if allocated(&probe.path().join("sparse")) >= 64 << 20 {
        eprintln!("this file system has no sparse files: nothing to give back here");
        return;
    }
    // (Data no file system compresses into holes.)
    let fill =
        |mib: u32| format!("dd if=/dev/urandom of=sparse bs=1M count={mib} iflag=fullblock conv=notrunc status=none");
    let disk_of = |files: &[(String, u64, u64)]| files.iter().find(|f| f.0 == "sparse").map(|f| (f.1, f.2));
    let (student, files, _) = build_in_prepared_folder(&fill(48), "build_disk_mb = 16", &sparse);
    assert!(student["failure"].as_str().unwrap_or_default().contains("filled more than 16 MiB"), "{student}");
    let (size, disk) = disk_of(&files).unwrap();
    assert_eq!(size, 64 << 20);
    assert!(disk < 1 << 20, "the holes are back: {disk} bytes on disk");
    // The control: within its cap, the same filling keeps its blocks.
    let (student, files, _) = build_in_prepared_folder(&fill(8), "build_disk_mb = 16", &sparse);
    assert!(student["failure"].is_null(), "{student}");
    let (size, disk) = disk_of(&files).unwrap();
    assert!(size == 64 << 20 && disk >= 8 << 20, "the control filled {disk} bytes of {size}");
}

#[test]
fn a_build_cannot_fill_the_disk() {
    let _disk = disk_alone();
    // A build writing 4 MiB files without end is ended at the cap, long before its time limit,
    // and what it wrote is removed.
    let endless = "i=0; while :; do head -c 4194304 /dev/zero > f$i; i=$((i+1)); done";
    let (student, files, _) = build_in_own_folder(endless, "build_disk_mb = 16\nbuild_timeout_s = 120");
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("filled more than 16 MiB of disk"), "{student}");
    let untouched = [("notes.txt".to_string(), 6)];
    assert_eq!(files, untouched, "what the build wrote is gone");
    // One that writes 24 MiB and ends at once is measured once more as it ends.
    let quick = "head -c 25165824 /dev/zero > blob";
    let (student, files, _) = build_in_own_folder(quick, "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("filled more than 16 MiB"), "{student}");
    assert_eq!(files, untouched);
    // A folder the arena cannot list (here: a path longer than the system's limit) is not
    // measured: the build fails, and the folder is removed.
    let deep = "n=$(printf 'd%.0s' $(seq 250)); for i in $(seq 20); do mkdir $n && cd $n; done; echo x > f";
    let (student, files, _) = build_in_own_folder(deep, "build_disk_mb = 16");
    assert!(
        student["failure"].as_str().unwrap_or_default().contains("made a folder the arena cannot read"),
        "{student}"
    );
    assert_eq!(files, untouched);
    // A file deleted but held open takes disk no walk sees: the free space tells.
    let hidden = "exec 3>x; rm x; head -c 335544320 /dev/zero >&3; sleep 1";
    let (student, _, _) = build_in_own_folder(hidden, "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("the free space fell by"), "{student}");
    // The log is a pipe, not a file: it cannot be grown without writing (the control: the same
    // call on a file takes 256 MiB of disk at once, its size unchanged).
    let grow = "fallocate --keep-size -l 268435456 /dev/stdout";
    let (student, _, log) = build_in_own_folder(grow, "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("fallocate"), "{student}");
    assert!(log < 1 << 20, "the log takes {log} bytes");
    // Nor can a file in the folder: a build's box refuses `fallocate`.
    let (student, files, _) = build_in_own_folder("fallocate -l 268435456 blob", "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("Operation not supported"), "{student}");
    assert!(files.iter().all(|(name, size)| *size == 0 || name == "notes.txt"), "{files:?}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("log");
    let grown = Command::new("sh").arg("-c").arg(format!("{grow} > {}", file.display())).status().unwrap();
    assert!(grown.success());
    let taken = allocated(&file);
    assert!(taken >= 256 << 20, "the control: a file grew to {taken} bytes on disk");
    // Nor through the `ioctl` that reaches it (`FS_IOC_RESVSP64`; the control: the same
    // program outside the box reserves 256 MiB at once).
    let reserve = |folder: &Path| std::fs::write(folder.join("reserve.c"), RESERVE_C).unwrap();
    let build = "cc -o reserve reserve.c && ./reserve blob";
    let (student, files, _) = build_in_prepared_folder(build, "build_disk_mb = 16", &reserve);
    assert!(student["failure"].as_str().unwrap_or_default().contains("Operation not supported"), "{student}");
    assert!(files.iter().all(|(name, _, disk)| *disk < 1 << 20 || name == "reserve"), "{files:?}");
    reserve(dir.path());
    let compiled =
        Command::new("cc").arg("-o").arg(dir.path().join("reserve")).arg(dir.path().join("reserve.c")).status();
    assert!(compiled.unwrap().success());
    let blob = dir.path().join("blob");
    assert!(Command::new(dir.path().join("reserve")).arg(&blob).status().unwrap().success());
    let taken = allocated(&blob);
    assert!(taken >= 256 << 20, "the control: the ioctl took {taken} bytes");
    // A file that was there is cut back to its size.
    let grow = "head -c 25165824 /dev/zero >> notes.txt";
    let (student, files, _) = build_in_own_folder(grow, "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("filled more than 16 MiB"), "{student}");
    assert_eq!(files, untouched);
    // Another file put under its name is removed, as one the build made (the arena, maybe
    // root, touches only the very file that was there: the folder is the student's).
    let swap = "head -c 25165824 /dev/zero > x && mv x notes.txt";
    let (student, files, _) = build_in_own_folder(swap, "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("filled more than 16 MiB"), "{student}");
    assert_eq!(files, Vec::<(String, u64)>::new());
    // A file of two hard links counts once (cargo links its outputs): 12 MiB fit in 16, not
    // as two copies.
    let (student, _, _) = build_in_own_folder("head -c 12582912 /dev/zero > a; ln a b", "build_disk_mb = 16");
    assert!(student["failure"].is_null(), "{student}");
    let (student, _, _) = build_in_own_folder("head -c 12582912 /dev/zero > a; cp a b", "build_disk_mb = 16");
    assert!(student["failure"].as_str().unwrap_or_default().contains("filled more than 16 MiB"), "{student}");
    // The control: under the default cap the same build succeeds, and did write past 16 MiB.
    let (student, files, _) = build_in_own_folder(quick, "");
    assert!(student["failure"].is_null(), "{student}");
    let wrote = [("blob".to_string(), 24 << 20), ("notes.txt".to_string(), 6)];
    assert_eq!(files, wrote, "the build wrote its 24 MiB");
}

/// `hold MIB SECONDS`: writes every page of MIB MiB, says so, and holds them SECONDS seconds.
const HOLD_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc != 3) return 2;
    size_t n = (size_t)atoi(argv[1]) << 20;
    volatile char *p = malloc(n);
    if (!p) { perror("malloc"); return 1; }
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    printf("held %s MiB\n", argv[1]);
    fflush(stdout);
    sleep(atoi(argv[2]));
    return 0;
}
"#;

/// A plain build (no box, no cgroup) was held to its memory limit per process alone (its
/// address space): one that started 3 processes of 1.5 GiB held 4.5 GiB under a limit of 4 GiB.
/// Its processes are summed now, as a bot's are: here 3 processes each writing 40 MiB, each
/// under a `build_memory_mb` of 100 (one alone builds), are stopped together, with a message that
/// says so. The control: the same build under a limit above their total (400) builds, each of
/// its 3 processes having held its 40 MiB.
#[test]
fn a_plain_build_is_held_to_its_memory_limit_all_its_processes_together() {
    // (A root arena builds a plain build as its folder's owner, and refuses root's folder.)
    let root = as_root();
    let prepare = |folder: &Path| {
        std::fs::write(folder.join("hold.c"), HOLD_C).unwrap();
        let compiled = Command::new("cc").arg("-o").arg(folder.join("hold")).arg(folder.join("hold.c")).status();
        assert!(compiled.unwrap().success(), "cc hold.c");
        if root {
            let parent = folder.parent().unwrap();
            std::fs::set_permissions(parent, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
            for path in [folder.to_path_buf(), folder.join("hold"), folder.join("hold.c"), folder.join("notes.txt")] {
                std::os::unix::fs::lchown(&path, Some(65534), Some(65534)).unwrap();
            }
        }
    };
    // (Each says it held its 40 MiB in a file of its own: `a`, `b`, `c`.)
    let three = |seconds: u32| {
        let one = |name: &str| format!("./hold 40 {seconds} > {name} & {name}=$!; ");
        format!("{}{}{}wait $a && wait $b && wait $c", one("a"), one("b"), one("c"))
    };
    // Together over the limit: stopped (the message says so) long before the 10 s they would
    // hold it, and then end well.
    let (student, _, _) = build_in_prepared_folder(&three(10), "sandbox = \"plain\"\nbuild_memory_mb = 100", &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    let said = "held more than 100 MiB of memory together (all its processes), and was stopped: build with fewer \
                jobs at once (make -j1, cargo build -j1), or raise build_memory_mb";
    assert!(failure.contains(said), "{student}");
    // Each alone is under the limit (the per-process one too).
    let (student, _, _) =
        build_in_prepared_folder("./hold 40 0", "sandbox = \"plain\"\nbuild_memory_mb = 100", &prepare);
    assert!(student["failure"].is_null(), "one alone builds: {student}");
    // The control: the same three under a limit above their total build.
    let (student, files, _) =
        build_in_prepared_folder(&three(1), "sandbox = \"plain\"\nbuild_memory_mb = 400", &prepare);
    assert!(student["failure"].is_null(), "the control builds: {student}");
    let said: Vec<_> = files.iter().filter(|f| ["a", "b", "c"].contains(&f.0.as_str())).map(|f| f.1).collect();
    assert_eq!(said, ["held 40 MiB\n".len() as u64; 3], "each of the control's processes held its 40 MiB: {files:?}");
}

/// Compiles `source` into `folder` as `name` (and keeps the source as `name.c`) for a build
/// there; where the test is root, `folder` and what is in it are given to `nobody` (a root arena
/// builds a plain build as its folder's owner, and refuses root's folder), its parent opened to
/// all.
fn compiled_for_the_build(folder: &Path, name: &str, source: &str) {
    let c = folder.join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let compiled = Command::new("cc").arg("-o").arg(folder.join(name)).arg(&c).status();
    assert!(compiled.unwrap().success(), "cc {name}.c");
    if as_root() {
        let parent = folder.parent().unwrap();
        std::fs::set_permissions(parent, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        for entry in std::fs::read_dir(folder).unwrap().flatten() {
            std::os::unix::fs::lchown(entry.path(), Some(65534), Some(65534)).unwrap();
        }
        std::os::unix::fs::lchown(folder, Some(65534), Some(65534)).unwrap();
    }
}

/// A summed build that fails for want of memory (an allocation refused: here one process's
/// 100 MiB under a `build_memory_mb` of 64, its address space's limit) is told so, and what to
/// raise. The control: one that fails for another reason (its program misused) is not.
#[test]
fn a_plain_build_out_of_memory_is_told_to_raise_build_memory_mb() {
    let prepare = |folder: &Path| compiled_for_the_build(folder, "hold", HOLD_C);
    let settings = "sandbox = \"plain\"\nbuild_memory_mb = 64";
    let hint = "(it ran out of memory: each of its processes, and all of them together, may hold 64 MiB: raise \
                build_memory_mb, or build with fewer jobs at once)";
    let (student, _, _) = build_in_prepared_folder("./hold 100 0", settings, &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("Cannot allocate memory") && failure.contains(hint), "{student}");
    let (student, _, _) = build_in_prepared_folder("./hold 1", settings, &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("failed (exit status: 2)") && !failure.contains("ran out of memory"), "{student}");
}

/// Writes its first argument's MiB, then forks its second's children that only sleep its third's
/// seconds, sharing every page copy-on-write (no new memory), and waits for them.
const COW_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    size_t n = (size_t)atoi(argv[1]) << 20;
    volatile char *p = malloc(n);
    if (!p) { perror("malloc"); return 1; }
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    for (int k = 0; k < atoi(argv[2]); k++) if (fork() == 0) { sleep(atoi(argv[3])); _exit(0); }
    while (wait(0) > 0) ;
    printf("shared %s MiB\n", argv[1]);
    return 0;
}
"#;

/// The memory of a plain build is the sum of its processes' proportional sets (PSS), not of
/// their resident sets: a build that writes 100 MiB and forks 3 children sharing those pages
/// copy-on-write holds 100 MiB, but its resident sets sum to 400; under a `build_memory_mb` of
/// 250 it was stopped (a red team's `cow 300 3` under 1000, which built before the sum). It
/// builds now. The control: with the confirmation by PSS off (`ARENA_BUILD_WITHOUT_PSS`) the
/// same build is stopped.
#[test]
fn a_plain_builds_pages_shared_copy_on_write_are_counted_once() {
    let prepare = |folder: &Path| compiled_for_the_build(folder, "cow", COW_C);
    let (build, settings) = ("./cow 100 3 3 > said", "sandbox = \"plain\"\nbuild_memory_mb = 250");
    let (student, files, _) = build_in_prepared_folder(build, settings, &prepare);
    assert!(student["failure"].is_null(), "100 MiB shared by 4 processes builds under 250: {student}");
    let said: Vec<_> = files.iter().filter(|f| f.0 == "said").map(|f| f.1).collect();
    assert_eq!(said, ["shared 100 MiB\n".len() as u64], "it ran to its end: {files:?}");
    // The control: held to the resident sets together (400 MiB), it is stopped.
    let (student, _, _) = build_in_prepared_folder_with(build, settings, &prepare, &[("ARENA_BUILD_WITHOUT_PSS", "1")]);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 250 MiB of memory together"), "{student}");
}

/// Forks up to its argument's children that sleep 3 seconds, and says how many it made (until a
/// fork failed): a byte for each.
const FORKS_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
    if (argc != 2) return 2;
    int n = atoi(argv[1]), made = 0;
    for (int k = 0; k < n; k++) {
        pid_t p = fork();
        if (p == 0) { sleep(3); _exit(0); }
        if (p < 0) break;
        made++;
    }
    for (int k = 0; k < made; k++) putchar('.');
    fflush(stdout);
    while (wait(0) > 0) ;
    return 0;
}
"#;

/// A root arena's plain build runs as its folder's owner, and had no limit on its processes
/// (neither a box user's `RLIMIT_NPROC` nor a `pids` cgroup): one made 700 past a build's 512.
/// It is held to what the owner runs already and 512 now. The control: with the sandbox off
/// (the same build, the same arena) it makes its 700. (Root only: an arena that is not root
/// held its builds so already.)
#[test]
fn a_root_arenas_plain_build_is_held_to_its_processes() {
    if skipped_unless_root("the arena is not root (its plain builds are held to RLIMIT_NPROC already)") {
        return;
    }
    let prepare = |folder: &Path| compiled_for_the_build(folder, "forks", FORKS_C);
    // How many it made: the size of what it said.
    let made = |sandbox: &str| -> u64 {
        let settings = format!("sandbox = \"{sandbox}\"");
        let (student, files, _) = build_in_prepared_folder("./forks 700 > made", &settings, &prepare);
        assert!(student["failure"].is_null(), "{student}");
        files.iter().find(|f| f.0 == "made").map_or(0, |f| f.1)
    };
    let held = made("plain");
    assert!(held > 0 && held <= 512, "made {held} processes");
    assert_eq!(made("none"), 700, "the control, without the sandbox");
}

/// Makes a `memfd_create` file and fills it with its argument's MiB, never mapped: says `memfd ok`,
/// or `memfd ERRNO` where it could not make one; then a System V segment of 1 MiB, written and
/// detached (and removed: without a box it would outlive the test): `shm ok`, or `shm ERRNO`.
const MEMFD_C: &str = r#"#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc != 2) return 2;
    int fd = memfd_create("hoard", 0);
    if (fd < 0) printf("memfd %d\n", errno);
    static char buf[1 << 20];
    for (int i = 0; fd >= 0 && i < atoi(argv[1]); i++) if (write(fd, buf, sizeof buf) != sizeof buf) return 1;
    if (fd >= 0) printf("memfd ok\n");
    int id = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
    if (id < 0) { printf("shm %d\n", errno); return 0; }
    char *p = shmat(id, 0, 0);
    if (p == (void *)-1) return 1;
    memset(p, 1, 1 << 20);
    shmdt(p);
    shmctl(id, IPC_RMID, 0);
    printf("shm ok\n");
    return 0;
}
"#;

/// A league of greedy and `student`, built by `build` under `settings` (with `source` compiled
/// into the student's folder as `name`), played by an arena that root's test runs as `nobody`
/// with `--sandbox sandbox`: a box without cgroups (none is nobody's to write). The student's
/// row, and what the build left in its folder's `said` and `tmp`. (Root only.)
fn built_by_nobody(name: &str, source: &str, build: &str, settings: &str, sandbox: &str) -> (Value, String, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (arena, greedy) = (shared_copy(dir.path(), &bin("arena")), shared_copy(dir.path(), &bin("greedy")));
    let map = dir.path().join("fire.txt");
    std::fs::copy(arena_e2e::map("fire.txt"), &map).unwrap();
    std::fs::set_permissions(&map, std::fs::Permissions::from_mode(0o644)).unwrap();
    let student = dir.path().join("student");
    std::fs::create_dir(&student).unwrap();
    compiled_for_the_build(&student, name, source);
    let cfg = dir.path().join("t.toml");
    let text = format!(
        "maps = [{map:?}]\n{settings}\n[[bots]]\nname = \"greedy\"\ncommand = {greedy:?}\n\
         [[bots]]\nname = \"student\"\ncommand = {greedy:?}\ncwd = \"student\"\nbuild = {build:?}\n"
    );
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::lchown(&out, Some(65534), Some(65534)).unwrap();
    let done = Command::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups", &arena, "tournament", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .args(["--sandbox", sandbox])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    assert!(done.status.success(), "{sandbox}: {}", String::from_utf8_lossy(&done.stderr));
    let read = |file: &str| std::fs::read_to_string(student.join(file)).unwrap_or_default();
    (row(&leaderboard(&out), "student").clone(), read("said"), read("tmp"))
}

/// A build in a box without a memory cgroup (an arena that is not root, here root's test running
/// it as `nobody`) is held to its memory by the arena's sum of its processes, which sees no
/// `memfd_create` file nor detached System V segment: it got none of the memory filters a plain
/// build or a bot's box has, and held memory in them that way (256 MiB in segments under a limit
/// of 64). `memfd_create` and `shmget` fail with `ENOSYS` in it now, and its
/// `/tmp` tmpfs is no larger than its `build_memory_mb` (64 here). The control: the same build
/// with the sandbox off makes one.
#[test]
fn a_boxed_build_without_a_memory_cgroup_cannot_hold_memory_outside_its_processes() {
    if skipped_unless_root("runs the arena as nobody, which only root's test can") {
        return;
    }
    // (And the size of its /tmp, in KiB.)
    let build = "./memfd 100 > said; df -k /tmp | awk 'NR == 2 { print $2 }' > tmp";
    let (_, said, tmp) = built_by_nobody("memfd", MEMFD_C, build, "build_memory_mb = 64", "require");
    assert_eq!(said, format!("memfd {0}\nshm {0}\n", libc::ENOSYS), "in a box without a memory cgroup");
    // Its /tmp, a tmpfs no process's resident set shows either, is no larger than its memory
    // limit (it was 512 MiB whatever the limit).
    assert_eq!(tmp.trim(), (64 << 10).to_string(), "its /tmp");
    let (_, said, _) = built_by_nobody("memfd", MEMFD_C, build, "build_memory_mb = 64", "none");
    assert_eq!(said, "memfd ok\nshm ok\n", "the control, without the sandbox");
}

/// Maps 1 MiB shared and anonymous, and 1 MiB of `/dev/zero` shared and writable (the same
/// memory), writes each, and says how each went in the name of a file it makes: `shared-ok` or
/// `shared-ERRNO`, then `zero-ok` or `zero-ERRNO`; then pages 1 MiB of its own out to swap
/// (`MADV_PAGEOUT`): `pageout-ok` or `pageout-ERRNO`.
const SHARED_C: &str = r#"#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static void say(const char *what, int error) {
    char name[64];
    if (error) snprintf(name, sizeof name, "%s-%d", what, error); else snprintf(name, sizeof name, "%s-ok", what);
    close(open(name, O_CREAT | O_WRONLY, 0644));
}
int main(void) {
    char *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) say("shared", errno); else { memset(p, 1, 1 << 20); say("shared", 0); }
    int fd = open("/dev/zero", O_RDWR);
    char *z = fd < 0 ? MAP_FAILED : mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (z == MAP_FAILED) say("zero", errno); else { memset(z, 1, 1 << 20); say("zero", 0); }
    char *q = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(q, 1, 1 << 20);
    say("pageout", madvise(q, 1 << 20, MADV_PAGEOUT) ? errno : 0);
    return 0;
}
"#;

/// A build whose memory the arena sums kept shared anonymous mappings and a writable `/dev/zero`
/// (the same memory): a page a child of it wrote there and left stays in the mapping, in no
/// process's set (3 processes held 600 MiB so under a `build_memory_mb` of 256). It is refused
/// them now, as a bot is: a shared anonymous `mmap` fails with `ENOMEM`; `/dev/zero` opens for
/// reading only under Landlock (`EACCES`), and is `/dev/full` (which cannot be mapped, `ENODEV`)
/// without it, and in a box without a memory cgroup (root only: the arena run as nobody). Nor may
/// it page its memory out to swap, where no proportional set shows it (`MADV_PAGEOUT`, `EINVAL`).
/// The control: with the sandbox off all three work.
#[test]
fn a_summed_build_cannot_hold_shared_anonymous_memory() {
    let prepare = |folder: &Path| compiled_for_the_build(folder, "shared", SHARED_C);
    let said = |sandbox: &str, env: &[(&str, &str)]| -> Vec<String> {
        let settings = format!("sandbox = \"{sandbox}\"");
        let (student, files, _) = build_in_prepared_folder_with("./shared", &settings, &prepare, env);
        assert!(student["failure"].is_null(), "{student}");
        let said = files
            .iter()
            .map(|f| f.0.clone())
            .filter(|n| ["pageout-", "shared-", "zero-"].iter().any(|p| n.starts_with(p)));
        said.collect()
    };
    let (no_memory, denied, no_device, invalid) = (libc::ENOMEM, libc::EACCES, libc::ENODEV, libc::EINVAL);
    let refused = |zero: i32| [format!("pageout-{invalid}"), format!("shared-{no_memory}"), format!("zero-{zero}")];
    if landlock_abi() >= 1 {
        assert_eq!(said("plain", &[]), refused(denied), "with Landlock");
    }
    let without = [("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")];
    assert_eq!(said("plain", &without), refused(no_device), "without");
    if as_root() {
        let (student, listed, _) = built_by_nobody("shared", SHARED_C, "./shared; ls > said", "", "require");
        let said: Vec<_> =
            listed.lines().filter(|n| ["pageout-", "shared-", "zero-"].iter().any(|p| n.starts_with(p))).collect();
        let boxed = refused(no_device);
        assert!(student["failure"].is_null() && said == boxed, "in a box without a memory cgroup: {student} {said:?}");
    }
    assert_eq!(said("none", &[]), ["pageout-ok", "shared-ok", "zero-ok"], "the control, without the sandbox");
}

/// Makes a netlink socket of the route family (`getaddrinfo`'s) and asks it for a dump of the
/// machine's links, never read, and says how it went in the name of a file it makes:
/// `netlink-ok` or `netlink-ERRNO`; then makes a pipe and resizes it to one page (`F_SETPIPE_SZ`;
/// a shrink, which the kernel allows whatever the user's pipes hold, so the control never fails):
/// `pipesize-ok` or `pipesize-ERRNO`.
const UNCOUNTED_C: &str = r#"#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
static void say(const char *what, int error) {
    char name[64];
    if (error) snprintf(name, sizeof name, "%s-%d", what, error); else snprintf(name, sizeof name, "%s-ok", what);
    close(open(name, O_CREAT | O_WRONLY, 0644));
}
int main(void) {
    int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (s < 0) say("netlink", errno);
    else {
        struct { struct nlmsghdr h; struct rtgenmsg g; } req;
        memset(&req, 0, sizeof req);
        req.h.nlmsg_len = sizeof req;
        req.h.nlmsg_type = RTM_GETLINK;
        req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
        req.g.rtgen_family = AF_UNSPEC;
        say("netlink", send(s, &req, sizeof req, 0) < 0 ? errno : 0);
    }
    int p[2];
    if (pipe(p)) say("pipesize", errno); else say("pipesize", fcntl(p[1], F_SETPIPE_SZ, 4096) < 0 ? errno : 0);
    return 0;
}
"#;

/// What a probe build said ([`UNCOUNTED_C`] and the others like it), by the names of the files it
/// left: those named for one of `calls` (`CALL-ok`, or `CALL-ERRNO`), sorted.
fn probe_said(names: impl Iterator<Item = String>, calls: &[&str]) -> Vec<String> {
    let mut said: Vec<String> = names.filter(|n| calls.iter().any(|c| n.starts_with(&format!("{c}-")))).collect();
    said.sort();
    said
}

/// A probe build: `name` compiled from `source` and run as the build with `sandbox` and `env`;
/// it builds, and what it said of `calls` is returned (see [`probe_said`]).
fn probe_build(name: &str, source: &str, calls: &[&str], sandbox: &str, env: &[(&str, &str)]) -> Vec<String> {
    let prepare = |folder: &Path| compiled_for_the_build(folder, name, source);
    let settings = format!("sandbox = \"{sandbox}\"");
    let (student, files, _) = build_in_prepared_folder_with(&format!("./{name}"), &settings, &prepare, env);
    assert!(student["failure"].is_null(), "{student}");
    probe_said(files.into_iter().map(|f| f.0), calls)
}

/// The same probe built in a box of an arena run as nobody, without a memory cgroup (root only):
/// it builds, and says what it said of `calls`.
fn probe_built_by_nobody(name: &str, source: &str, calls: &[&str]) -> Vec<String> {
    let (student, listed, _) = built_by_nobody(name, source, &format!("./{name}; ls > said"), "", "require");
    let said = probe_said(listed.lines().map(str::to_string), calls);
    assert!(student["failure"].is_null(), "in a box without a memory cgroup: {student} {said:?}");
    said
}

/// The probe `name` built as a build whose memory the arena sums: plain with Landlock (where the
/// kernel has it) and without, and in a box of an arena run as nobody, without a memory cgroup
/// (root only): each says `refused` of `calls`. Returns what it says with the sandbox off, the
/// control's, for the caller to check.
fn summed_builds_say(name: &str, source: &str, calls: &[&str], refused: &[String]) -> Vec<String> {
    let said = |sandbox: &str, env: &[(&str, &str)]| probe_build(name, source, calls, sandbox, env);
    if landlock_abi() >= 1 {
        assert_eq!(said("plain", &[]), refused, "{name}: with Landlock");
    }
    assert_eq!(said("plain", &[("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")]), refused, "{name}: without");
    if as_root() {
        let boxed = probe_built_by_nobody(name, source, calls);
        assert_eq!(boxed, refused, "{name}: in a box without a memory cgroup");
    }
    said("none", &[])
}

/// A build whose memory the arena sums made netlink sockets of the route family: what the kernel
/// answers to a dump request, never read, is in no process's set nor any socket meter's (a red
/// team's 40 processes with 1,000 such sockets each held 1.75 GiB under a `build_memory_mb` of
/// 64); and it resized its pipes, whose buffers no set shows either (100 processes with 500
/// pipes each held 447 MiB under 64). Such a build is refused a netlink socket now
/// (`EAFNOSUPPORT`, as an IP socket) and a pipe's resizing (`EPERM`), plain (with Landlock and
/// without) and in a box without a memory cgroup (root only: the arena run as nobody). The
/// control: with the sandbox off it makes one, asks, and resizes.
#[test]
fn a_summed_build_cannot_hold_memory_in_netlink_sockets_or_resized_pipes() {
    let calls = ["netlink", "pipesize"];
    let refused = [format!("netlink-{}", libc::EAFNOSUPPORT), format!("pipesize-{}", libc::EPERM)];
    let control = summed_builds_say("uncounted", UNCOUNTED_C, &calls, &refused);
    assert_eq!(control, ["netlink-ok", "pipesize-ok"], "the control, without the sandbox");
}

/// The start of a probe build's C source ([`SPLICE_C`] and those like it): `say(what, done)`
/// makes a file named `WHAT-ok`, or `WHAT-ERRNO` where `done` is negative, which [`probe_said`]
/// reads.
macro_rules! probe_c_prelude {
    () => {
        r#"#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static void say(const char *what, long done) {
    char name[64];
    if (done < 0) snprintf(name, sizeof name, "%s-%d", what, errno); else snprintf(name, sizeof name, "%s-ok", what);
    close(open(name, O_CREAT | O_WRONLY, 0644));
}
"#
    };
}

/// The fork-and-gather tail of [`KERNEL_OBJECTS_C`] and [`MAPPINGS_C`], each of which forks
/// processes that make something, then says how many they made together: `hold`, in a child, tells
/// the parent through the pipe `ready` how many it made and holds them `secs` seconds; `gather`, in
/// the parent, adds up what its `procs` children told it, says `made N` and waits for them all.
/// (Whether the parent closes its own writing end first stays each probe's: [`MAPPINGS_C`] does,
/// so that a child that ends without telling ends its wait; [`KERNEL_OBJECTS_C`] never did, and
/// such a child leaves it waiting, its build ended by its timeout or cap, as before.)
macro_rules! probe_c_gather {
    () => {
        r#"#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void hold(int ready, long made, int secs) {
    if (write(ready, &made, sizeof made) != sizeof made) _exit(1);
    sleep(secs);
    _exit(0);
}
static int gather(int ready, int procs) {
    long total = 0, each;
    for (int p = 0; p < procs; p++)
        if (read(ready, &each, sizeof each) == sizeof each) total += each;
    printf("made %ld\n", total);
    fflush(stdout);
    while (wait(NULL) > 0) {}
    return 0;
}
"#
    };
}

/// Writes a file of 4 MiB, then moves a page of it into a pipe by `splice`, another by
/// `sendfile`, and duplicates a pipe's written page into another by `tee`, and says how each went
/// in the name of a file it makes: `splice-ok` or `splice-ERRNO`, and so on.
const SPLICE_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <string.h>
#include <sys/sendfile.h>
int main(void) {
    static char buf[1 << 20];
    memset(buf, 7, sizeof buf);
    int fd = open("big", O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; i < 4; i++) if (fd < 0 || write(fd, buf, sizeof buf) != sizeof buf) { perror("big"); return 1; }
    int a[2], b[2], c[2];
    if (pipe(a) || pipe(b) || pipe(c)) { perror("pipe"); return 1; }
    loff_t at = 2 << 20;
    say("splice", splice(fd, &at, a[1], NULL, 4096, 0));
    off_t from = 0;
    say("sendfile", sendfile(b[1], fd, &from, 4096));
    if (write(c[1], buf, 4096) != 4096) { perror("write"); return 1; }
    say("tee", tee(c[0], b[1], 4096, SPLICE_F_NONBLOCK));
    close(fd);
    unlink("big");
    return 0;
}
"#
);

/// A build whose memory the arena sums moved a file's pages into pipes by reference (`splice`, or
/// `sendfile` into a pipe): each page holds its whole folio there, up to 2 MiB on a file system
/// with large folios, after the file is deleted, while the pipe counts 16 pages (32 pipes given
/// one page of every 2 MiB of a 1 GiB file held some 1 GiB on this kernel, counted at 2 MiB).
/// Such a build is refused `splice`, `tee` and `sendfile` now (`EINVAL`, on which what uses them
/// copies instead), plain (with Landlock and without) and in a box without a memory cgroup (root
/// only: the arena run as nobody). The control: with the sandbox off all three work.
#[test]
fn a_summed_build_cannot_splice_a_files_pages_into_its_pipes() {
    let calls = ["sendfile", "splice", "tee"];
    let refused: Vec<String> = ["sendfile", "splice", "tee"].iter().map(|c| format!("{c}-{}", libc::EINVAL)).collect();
    let control = summed_builds_say("splice", SPLICE_C, &calls, &refused);
    assert_eq!(control, ["sendfile-ok", "splice-ok", "tee-ok"], "the control, without the sandbox");
}

/// Asks for an inotify instance (`inotify_init1`, and `inotify_init` where there is one), watches
/// its folder with it and queues an event, and asks for a fanotify group (its unprivileged
/// `FAN_REPORT_FID` mode); says how each went in the name of a file it makes (`inotify1-ok` or
/// `inotify1-ERRNO`, `inotify-`, `fanotify-`), as [`SPLICE_C`].
const NOTIFY_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
int main(void) {
    int fd = inotify_init1(IN_NONBLOCK);
    if (fd >= 0 && inotify_add_watch(fd, ".", IN_CREATE) < 0) { perror("inotify_add_watch"); return 1; }
    say("inotify1", fd);
#ifdef SYS_inotify_init
    say("inotify", syscall(SYS_inotify_init));
#endif
    say("fanotify", fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID, O_RDONLY));
    return 0;
}
"#
);

/// A build whose memory the arena sums queued inotify events, each with a file's name, in kernel
/// memory no process's set shows: 128 instances of 16,384 events each held 1.04 GiB under a
/// `build_memory_mb` of 64, plain and in a box. Such a build is refused inotify and fanotify now
/// (`ENOSYS`, as a bot's box, and as on a kernel without them), plain (with Landlock and without)
/// and in a box without a memory cgroup (root only: the arena run as nobody). The control: with
/// the sandbox off inotify works.
#[test]
fn a_summed_build_cannot_queue_inotify_events() {
    let said = |sandbox: &str, env: &[(&str, &str)]| {
        probe_build("notify", NOTIFY_C, &["fanotify", "inotify", "inotify1"], sandbox, env)
    };
    let calls: &[&str] =
        if cfg!(target_arch = "x86_64") { &["fanotify", "inotify", "inotify1"] } else { &["fanotify", "inotify1"] };
    let refused: Vec<String> = calls.iter().map(|c| format!("{c}-{}", libc::ENOSYS)).collect();
    if landlock_abi() >= 1 {
        assert_eq!(said("plain", &[]), refused, "with Landlock");
    }
    assert_eq!(said("plain", &[("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")]), refused, "without");
    if as_root() {
        let said = probe_built_by_nobody("notify", NOTIFY_C, &["fanotify", "inotify", "inotify1"]);
        assert_eq!(said, refused, "in a box without a memory cgroup");
    }
    let control = said("none", &[]);
    assert!(control.contains(&"inotify1-ok".to_string()), "the control, without the sandbox: {control:?}");
}

/// Asks for an io_uring (`io_uring_setup`) and an AIO context (`io_setup`), and says how each went
/// in the name of a file it makes (`uring-ok` or `uring-ERRNO`, `aio-`), as [`SPLICE_C`].
const RINGS_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <linux/aio_abi.h>
#include <string.h>
#include <sys/syscall.h>
int main(void) {
    unsigned long params[15];
    memset(params, 0, sizeof params);
    say("uring", syscall(SYS_io_uring_setup, 4, params));
    aio_context_t ctx = 0;
    say("aio", syscall(SYS_io_setup, 64, &ctx));
    return 0;
}
"#
);

/// A plain build Landlock did not confine (a kernel without it, or `ARENA_PLAIN_WITHOUT_LANDLOCK`)
/// got none of a box's refusals but `clone3`'s: io_uring, whose `IORING_OP_SPLICE` went around
/// the refused `splice` (518 MiB of a deleted file's pages held in pipes under a `build_memory_mb`
/// of 64), AIO, kernel keyrings, `sched_setaffinity`. It gets them all now, as one Landlock
/// confines: `io_uring_setup` and `io_setup` fail with `ENOSYS` without Landlock and with it. The
/// control: with the sandbox off both work (io_uring where the kernel offers it).
#[test]
fn a_plain_build_without_landlock_gets_no_io_uring_nor_aio() {
    let said = |sandbox: &str, env: &[(&str, &str)]| probe_build("rings", RINGS_C, &["aio", "uring"], sandbox, env);
    let refused = [format!("aio-{}", libc::ENOSYS), format!("uring-{}", libc::ENOSYS)];
    assert_eq!(said("plain", &[("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")]), refused, "without Landlock");
    if landlock_abi() >= 1 {
        assert_eq!(said("plain", &[]), refused, "with Landlock");
    }
    let control = said("none", &[]);
    assert!(control.contains(&"aio-ok".to_string()), "the control, without the sandbox: {control:?}");
    if io_uring_offered() {
        assert!(control.contains(&"uring-ok".to_string()), "the control's io_uring: {control:?}");
    }
}

/// Makes its first argument's unix stream socket pairs and fills both ends' queues (the data
/// held by the kernel, in no process's resident set), says how many MiB, and holds them its
/// second argument's seconds; with a third argument, first makes itself not dumpable (its
/// `/proc/PID/fd` hidden from another process of its user).
const SOCKETS_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    if (argc > 3) prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    static char buf[65536];
    long long total = 0;
    for (int i = 0; i < atoi(argv[1]); i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv)) { perror("socketpair"); return 1; }
        for (int e = 0; e < 2; e++) { ssize_t w; while ((w = write(sv[e], buf, sizeof buf)) > 0) total += w; }
    }
    printf("queued %lld MiB\n", total >> 20);
    fflush(stdout);
    sleep(atoi(argv[2]));
    return 0;
}
"#;

/// A build in a box without a memory cgroup had no socket meter (a bot's box has one): 300 unix
/// socket pairs held 133 MiB in their queues under a `build_memory_mb` of 64, and it built. Its
/// sockets are counted with its processes now: it is stopped, while 100 pairs (some 44 MiB)
/// build. The control: the same 300 with the sandbox off build.
#[test]
fn a_boxed_build_without_a_memory_cgroup_is_held_to_what_its_sockets_hold() {
    if skipped_unless_root("runs the arena as nobody, which only root's test can") {
        return;
    }
    let build = |pairs: u32| format!("./sockets {pairs} 3 > said");
    let settings = "build_memory_mb = 64";
    // (Held half a minute where it is to be stopped: a loaded machine may take a while to see it.)
    let (student, _, _) = built_by_nobody("sockets", SOCKETS_C, "./sockets 300 30 > said", settings, "require");
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, said, _) = built_by_nobody("sockets", SOCKETS_C, &build(100), settings, "require");
    assert!(student["failure"].is_null() && said.starts_with("queued "), "100 pairs build: {student} {said}");
    let (student, said, _) = built_by_nobody("sockets", SOCKETS_C, &build(300), settings, "none");
    let queued: u64 = said.trim().strip_prefix("queued ").and_then(|m| m.split(' ').next()?.parse().ok()).unwrap_or(0);
    assert!(student["failure"].is_null() && queued > 64, "the control, without the sandbox: {student} {said}");
}

/// A plain build's sockets are among the machine's (no network namespace of its own), which no
/// meter dumped: 300 unix socket pairs held 133 MiB in their queues under a `build_memory_mb` of
/// 64, and it built. The arena now counts the machine's unix sockets its processes hold with its
/// memory: it is stopped, while 100 pairs (some 44 MiB) build, and so is one that made itself not
/// dumpable under an arena that is not root (which would hide its descriptors). The control: the
/// same 300 with the sandbox off build.
#[test]
fn a_plain_build_is_held_to_what_its_sockets_hold() {
    let prepare = |folder: &Path| compiled_for_the_build(folder, "sockets", SOCKETS_C);
    let build = |pairs: u32| format!("./sockets {pairs} 3 > said");
    let plain = "sandbox = \"plain\"\nbuild_memory_mb = 64";
    // (Held half a minute where it is to be stopped: a loaded machine may take a while to see it.)
    let (student, _, _) = build_in_prepared_folder("./sockets 300 30 > said", plain, &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, files, _) = build_in_prepared_folder(&build(100), plain, &prepare);
    assert!(student["failure"].is_null(), "100 pairs build: {student}");
    assert!(files.iter().any(|f| f.0 == "said" && f.1 > 0), "{files:?}");
    let off = "sandbox = \"none\"\nbuild_memory_mb = 64";
    let (student, _, _) = build_in_prepared_folder(&build(300), off, &prepare);
    assert!(student["failure"].is_null(), "the control, without the sandbox: {student}");
    // An arena that is not root (here root's test runs it as nobody) reads a process's
    // descriptors only while it is dumpable: a build that made itself not dumpable hid its
    // sockets so, and built. Making itself so does nothing now.
    if as_root() {
        let hidden = "./sockets 300 30 hide > said";
        let (student, _, _) = built_by_nobody("sockets", SOCKETS_C, hidden, "build_memory_mb = 64", "plain");
        let failure = student["failure"].as_str().unwrap_or_default();
        assert!(failure.contains("held more than 64 MiB of memory together"), "not dumpable: {student}");
    }
}

/// Forks its first argument's processes, each of which makes its second argument's pipes and
/// fills them (the data held by the kernel, in no process's resident set; no more than a
/// process's 1,024 open files each), says how many KiB they queued together and in how many
/// pipes, and holds them its third argument's seconds.
const PIPES_C: &str = r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static int pipes, secs, ready[2];
static char buf[65536];
/* Fills the pipes and holds them; in a thread of its own table (`arg` set) when asked to. */
static void *hold(void *arg) {
    if (arg && unshare(CLONE_FILES)) { perror("unshare"); _exit(1); }
    long long total = 0;
    for (int i = 0; i < pipes; i++) {
        int fd[2];
        if (pipe2(fd, O_NONBLOCK)) { perror("pipe"); _exit(1); }
        ssize_t w;
        while ((w = write(fd[1], buf, sizeof buf)) > 0) total += w;
    }
    if (write(ready[1], &total, sizeof total) != sizeof total) _exit(1);
    sleep(secs);
    return NULL;
}
int main(int argc, char **argv) {
    if (argc < 4) return 2;
    int procs = atoi(argv[1]);
    pipes = atoi(argv[2]);
    secs = atoi(argv[3]);
    int threaded = argc > 4 && strcmp(argv[4], "thread") == 0;
    memset(buf, 7, sizeof buf);
    if (pipe(ready)) { perror("pipe"); return 1; }
    for (int p = 0; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid == 0) {
            if (threaded) {
                pthread_t t;
                if (pthread_create(&t, NULL, hold, (void *)1)) _exit(1);
                pthread_join(t, NULL);
            } else {
                hold(NULL);
            }
            _exit(0);
        }
    }
    long long total = 0, each;
    for (int p = 0; p < procs; p++)
        if (read(ready[0], &each, sizeof each) == sizeof each) total += each;
    printf("queued %lld KiB in %d pipes\n", total >> 10, procs * pipes);
    fflush(stdout);
    while (wait(NULL) > 0) {}
    return 0;
}
"#;

/// An honest build's pipes, all at once: make's jobserver (`-j4`), and a shell pipeline in each
/// of its four recipes.
const PIPELINES_MAKEFILE: &str = "all: a b c d\n\
a b c d:\n\tseq 1 20000 | sort -r | tr 0 x | head -c 200 > $@\n";

/// A plain build's pipes hold what no process's set shows, and resizing them is refused, but
/// their default buffers were counted nowhere: 100 processes with 500 full pipes each held
/// 447 MiB under a `build_memory_mb` of 64. A summed build's distinct pipes are counted with its
/// memory now, 64 KiB each (their default buffer): 4 processes with 500 full pipes each (some
/// 125 MiB at most) are stopped, while 4 with 50 each (12.5 MiB) build, and so does an honest
/// `make -j4` of shell pipelines; the 2,000 are stopped in a box without a memory cgroup too
/// (root only). The
/// control: the 2,000 pipes with the sandbox off build.
#[test]
fn a_plain_build_is_held_to_what_its_pipes_hold() {
    let prepare = |folder: &Path| {
        std::fs::write(folder.join("Makefile"), PIPELINES_MAKEFILE).unwrap();
        compiled_for_the_build(folder, "pipes", PIPES_C);
    };
    let build = |pipes: u32, how: &str| format!("./pipes 4 {pipes} 2 {how} > said");
    // (Held half a minute where it is to be stopped: a loaded machine may take a while to see it.)
    let held = |how: &str| format!("./pipes 4 500 30 {how} > said");
    let plain = "sandbox = \"plain\"\nbuild_memory_mb = 64";
    let (student, _, _) = build_in_prepared_folder(&held(""), plain, &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    // Held by threads with descriptor tables of their own, which only their task's fd shows.
    let (student, _, _) = build_in_prepared_folder(&held("thread"), plain, &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "in threads of their own: {student}");
    let (student, files, _) = build_in_prepared_folder(&build(50, ""), plain, &prepare);
    assert!(student["failure"].is_null(), "200 pipes build: {student}");
    assert!(files.iter().any(|f| f.0 == "said" && f.1 > 0), "{files:?}");
    let (student, files, _) = build_in_prepared_folder("make -j4", plain, &prepare);
    assert!(student["failure"].is_null(), "an honest make -j4 of pipelines builds: {student}");
    assert!(["a", "b", "c", "d"].iter().all(|n| files.iter().any(|f| f.0 == *n && f.1 > 0)), "{files:?}");
    let off = "sandbox = \"none\"\nbuild_memory_mb = 64";
    let (student, files, _) = build_in_prepared_folder(&build(500, ""), off, &prepare);
    assert!(student["failure"].is_null(), "the control, without the sandbox: {student}");
    assert!(files.iter().any(|f| f.0 == "said" && f.1 > 0), "the control said what it queued: {files:?}");
    // A box without a memory cgroup (the arena run as nobody, which only root's test can) sums
    // its build's memory too: its pipes count the same.
    if as_root() {
        let (student, _, _) = built_by_nobody("pipes", PIPES_C, &held(""), "build_memory_mb = 64", "require");
        let failure = student["failure"].as_str().unwrap_or_default();
        assert!(failure.contains("held more than 64 MiB of memory together"), "in a box: {student}");
    }
}

/// Forks its first argument's processes, each of which makes its second argument's unix stream
/// socket pairs, empty (nothing queued: only the kernel's objects behind them, in no process's
/// set), then says how many pairs they made together, and holds them its third argument's
/// seconds.
const EMPTY_PAIRS_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 4) return 2;
    int procs = atoi(argv[1]), pairs = atoi(argv[2]), secs = atoi(argv[3]), ready[2];
    if (pipe(ready)) { perror("pipe"); return 1; }
    for (int p = 0; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid == 0) {
            int made = 0, sv[2];
            for (int i = 0; i < pairs; i++) if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) made++;
            if (write(ready[1], &made, sizeof made) != sizeof made) _exit(1);
            sleep(secs);
            _exit(0);
        }
    }
    long total = 0;
    int each;
    for (int p = 0; p < procs; p++)
        if (read(ready[0], &each, sizeof each) == sizeof each) total += each;
    printf("made %ld pairs\n", total);
    fflush(stdout);
    while (wait(NULL) > 0) {}
    return 0;
}
"#;

/// The kernel's objects behind a summed build's empty sockets and pipes (some 2.2 KiB a unix
/// socket, 2.2 KiB a pipe, 3.6 KiB a TCP socket, measured here) are in no process's set, and
/// were counted nowhere: 100,000 empty socket pairs held some 430 MiB so under any
/// `build_memory_mb`. Each distinct socket and pipe its processes hold counts a page now: 40
/// processes with 480 empty pairs each (38,400 sockets, 150 MiB counted) are stopped under 64,
/// while 40 with 48 each build, and so do the 40 with 480 each under 512 (the control: the
/// build is stopped for what its sockets count, nothing else), plain and in a box without a
/// memory cgroup (root only).
#[test]
fn a_summed_build_is_held_to_the_kernel_objects_of_its_empty_sockets() {
    let prepare = |folder: &Path| compiled_for_the_build(folder, "pairs", EMPTY_PAIRS_C);
    // (Those to be stopped hold their sockets half a minute, not 3 s: on a loaded machine the
    // processes take a while to make them, and the looks to see them.)
    let build = |pairs: u32| format!("./pairs 40 {pairs} 3 > said");
    let held = |pairs: u32| format!("./pairs 40 {pairs} 30 > said");
    let settings = |mb: u32| format!("sandbox = \"plain\"\nbuild_memory_mb = {mb}");
    let (student, _, _) = build_in_prepared_folder(&held(480), &settings(64), &prepare);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, files, _) = build_in_prepared_folder(&build(48), &settings(64), &prepare);
    assert!(student["failure"].is_null(), "40 x 48 pairs build: {student}");
    assert!(files.iter().any(|f| f.0 == "said" && f.1 > 0), "{files:?}");
    let (student, files, _) = build_in_prepared_folder(&build(480), &settings(512), &prepare);
    assert!(student["failure"].is_null(), "the control, under 512 MiB: {student}");
    assert!(files.iter().any(|f| f.0 == "said" && f.1 > 0), "the control made its pairs: {files:?}");
    if as_root() {
        let (student, _, _) = built_by_nobody("pairs", EMPTY_PAIRS_C, &held(480), "build_memory_mb = 64", "require");
        let failure = student["failure"].as_str().unwrap_or_default();
        assert!(failure.contains("held more than 64 MiB of memory together"), "in a box: {student}");
        let (student, said, _) =
            built_by_nobody("pairs", EMPTY_PAIRS_C, &build(480), "build_memory_mb = 512", "require");
        assert!(
            student["failure"].is_null() && said.contains("made 19200 pairs"),
            "the control in a box: {student} {said}"
        );
    }
}

/// Makes a unix socket pair (says `socketpair-ok` or `socketpair-ERRNO`, see
/// [`probe_c_prelude`]), its second argument's eventfds (200 without arguments) and its first
/// argument's epolls (500), each watching every one of them, and sends each epoll away over the
/// pair (`SCM_RIGHTS`, into the pair's own queue; a new pair when one is full) and closes it: in
/// flight, an epoll is in no process's descriptor table, and keeps its watches. The first goes by
/// `sendmmsg` too (says `sendmmsg-…`), then each by `sendmsg` (`sendmsg-…`, of the first); then
/// says `sent-EPOLLSxWATCHES` of those it sent, and holds them its third argument's seconds (0).
const FD_PASSING_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
static void fill(struct msghdr *msg, struct iovec *iov, char *control, size_t size, int fd) {
    memset(msg, 0, sizeof *msg);
    msg->msg_iov = iov;
    msg->msg_iovlen = 1;
    msg->msg_control = control;
    msg->msg_controllen = size;
    struct cmsghdr *c = CMSG_FIRSTHDR(msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fd);
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
}
int main(int argc, char **argv) {
    int epolls = argc > 1 ? atoi(argv[1]) : 500, watches = argc > 2 ? atoi(argv[2]) : 200;
    int secs = argc > 3 ? atoi(argv[3]) : 0, sv[2];
    int made = socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    say("socketpair", made);
    if (made < 0) return 0;
    int *fds = calloc(watches, sizeof *fds);
    for (int i = 0; i < watches; i++) if ((fds[i] = eventfd(0, 0)) < 0) { perror("eventfd"); return 1; }
    long sent = 0;
    for (int e = 0; e < epolls; e++) {
        int ep = epoll_create1(0);
        if (ep < 0) { perror("epoll_create1"); return 1; }
        for (int i = 0; i < watches; i++) {
            struct epoll_event ev = { .events = EPOLLIN };
            if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev)) { perror("epoll_ctl"); return 1; }
        }
        char byte = 0, control[CMSG_SPACE(sizeof(int))];
        struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
        struct msghdr msg;
        if (e == 0) {
            struct mmsghdr one;
            memset(&one, 0, sizeof one);
            fill(&one.msg_hdr, &iov, control, sizeof control, ep);
            say("sendmmsg", sendmmsg(sv[0], &one, 1, MSG_DONTWAIT));
        }
        fill(&msg, &iov, control, sizeof control, ep);
        long done = sendmsg(sv[0], &msg, MSG_DONTWAIT);
        if (done < 0 && errno == EAGAIN && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0)
            done = sendmsg(sv[0], &msg, MSG_DONTWAIT);
        if (e == 0) say("sendmsg", done);
        close(ep);
        if (done < 0) break;
        sent++;
    }
    char name[64];
    snprintf(name, sizeof name, "sent-%ldx%d", sent, watches);
    close(open(name, O_CREAT | O_WRONLY, 0644));
    printf("sent %ld epolls with %ld watches\n", sent, sent * watches);
    fflush(stdout);
    sleep(secs);
    return 0;
}
"#
);

/// A process whose memory the arena sums could send descriptors away over a unix socket
/// (`SCM_RIGHTS`, into the socket's own queue) and close them: in flight, they are in no
/// process's descriptor table, which is all the arena walks, and keep what they hold (1,000
/// epolls of 1,000 watches each, sent so, held 201 MiB of the kernel's slab; a socket keeps its
/// queued data). Such a build is refused `sendmsg` and `sendmmsg` now (`ENOSYS`; it keeps its unix
/// socket pairs), plain (with Landlock and without) and in a box without a memory cgroup (root
/// only: the arena run as nobody), and sends nothing. The control: with the sandbox off, it sends
/// its 500 epolls of 200 watches each.
#[test]
fn a_summed_build_cannot_send_descriptors_away_over_a_unix_socket() {
    let calls = ["socketpair", "sendmsg", "sendmmsg", "sent"];
    let refused = [
        format!("sendmmsg-{}", libc::ENOSYS),
        format!("sendmsg-{}", libc::ENOSYS),
        "sent-0x200".to_string(),
        "socketpair-ok".to_string(),
    ];
    let control = summed_builds_say("fdpass", FD_PASSING_C, &calls, &refused);
    assert_eq!(control, ["sendmmsg-ok", "sendmsg-ok", "sent-500x200", "socketpair-ok"], "the control");
}

/// Asks the kernel for its Landlock ABI (`landlock_create_ruleset`'s version query), makes a
/// ruleset of one port rule (`landlock_add_rule`, `LANDLOCK_RULE_NET_PORT` where the ABI has it,
/// else a path rule on its folder) and enters it in a thread of its own (`landlock_restrict_self`);
/// says how each went in the name of a file it makes (`llabi-ok` or `llabi-ERRNO`, `llruleset-`,
/// `llrule-`, `llrestrict-`), as [`SPLICE_C`].
const LANDLOCK_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <linux/landlock.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
static void *restrict_self(void *ruleset) {
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    say("llrestrict", syscall(SYS_landlock_restrict_self, (int)(intptr_t)ruleset, 0));
    return NULL;
}
int main(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    say("llabi", abi);
    struct { uint64_t fs, net; } attr = { LANDLOCK_ACCESS_FS_READ_FILE, abi >= 4 ? 1 : 0 };
    long ruleset = syscall(SYS_landlock_create_ruleset, &attr, abi >= 4 ? sizeof attr : sizeof attr.fs, 0);
    say("llruleset", ruleset);
    if (abi >= 4) {
        struct __attribute__((packed)) { uint64_t allowed, port; } port = { 1, 8080 };
        say("llrule", syscall(SYS_landlock_add_rule, (int)ruleset, 2, &port, 0));
    } else {
        struct __attribute__((packed)) { uint64_t allowed; int32_t parent; } beneath = { LANDLOCK_ACCESS_FS_READ_FILE, open(".", O_PATH) };
        say("llrule", syscall(SYS_landlock_add_rule, (int)ruleset, 1, &beneath, 0));
    }
    pthread_t t;
    if (pthread_create(&t, NULL, restrict_self, (void *)(intptr_t)ruleset) || pthread_join(t, NULL)) return 1;
    return 0;
}
"#
);

/// A build whose memory the arena sums made Landlock rulesets and entered them in thread after
/// thread, closing each descriptor: the domains stay, tied to the threads, kernel memory in no
/// process's set or table (a red team's plain build held 638 MiB of unreclaimable slab so under a
/// `build_memory_mb` of 64). Such a build is refused all three Landlock calls now (`ENOSYS`, as on
/// a kernel without it), plain (with Landlock and without) and in a box without a memory cgroup
/// (root only: the arena run as nobody). The control: with the sandbox off (and a kernel with
/// Landlock) all of them work.
#[test]
fn a_summed_build_cannot_make_landlock_rulesets() {
    let calls = ["llabi", "llrestrict", "llrule", "llruleset"];
    let refused: Vec<String> = calls.iter().map(|c| format!("{c}-{}", libc::ENOSYS)).collect();
    let control = summed_builds_say("landlock", LANDLOCK_C, &calls, &refused);
    if landlock_abi() >= 1 {
        assert_eq!(control, ["llabi-ok", "llrestrict-ok", "llrule-ok", "llruleset-ok"], "the control");
    } else {
        eprintln!("no control: this kernel has no Landlock");
    }
}

/// Installs a seccomp filter that allows every call, by `seccomp`'s `SECCOMP_SET_MODE_FILTER` and
/// by `prctl`'s `PR_SET_SECCOMP`, and says how each went in the name of a file it makes
/// (`seccomp-ok` or `seccomp-ERRNO`, `prseccomp-`), as [`SPLICE_C`].
const SECCOMP_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
int main(void) {
    struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = { 1, &allow };
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    say("seccomp", syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog));
    say("prseccomp", prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0));
    return 0;
}
"#
);

/// A build whose memory the arena sums installed seccomp filters of its own in many processes:
/// each is kernel memory (its program and JIT image) no process's set shows (a red team's plain
/// build of 400 processes of 12 filters of 4,096 instructions each held 100 MiB more of the
/// machine's unreclaimable slab and 137 MiB more vmalloc under a `build_memory_mb` of 64). Such a
/// build may install none now (`EINVAL` from `seccomp` and `prctl`, as on a kernel without seccomp
/// filters), plain (with Landlock and without) and in a box without a memory cgroup (root only:
/// the arena run as nobody), while the arena's own filters still hold (its build runs, refused the
/// calls they refuse: see the other probes). The control: with the sandbox off both work.
#[test]
fn a_summed_build_cannot_install_seccomp_filters() {
    let calls = ["prseccomp", "seccomp"];
    let refused: Vec<String> = calls.iter().map(|c| format!("{c}-{}", libc::EINVAL)).collect();
    let control = summed_builds_say("seccomp", SECCOMP_C, &calls, &refused);
    assert_eq!(control, ["prseccomp-ok", "seccomp-ok"], "the control");
}

/// Reads its autogroup's nice value (`/proc/self/autogroup`, "/autogroup-N nice V") and says it
/// in the name of a file it makes (`agnice-V`, or `agnice-none` where there is none), and forks a
/// child (no group leader) that makes a session of its own: `setsid-ok` or `setsid-ERRNO`, as
/// [`SPLICE_C`].
const SESSION_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
int main(void) {
    char text[128] = "", name[64] = "agnice-none";
    FILE *f = fopen("/proc/self/autogroup", "r");
    if (f && fgets(text, sizeof text, f)) {
        char *nice = strstr(text, "nice ");
        if (nice) snprintf(name, sizeof name, "agnice-%d", atoi(nice + 5));
    }
    close(open(name, O_CREAT | O_WRONLY, 0644));
    pid_t child = fork();
    if (child == 0) { say("setsid", setsid()); _exit(0); }
    if (child < 0 || waitpid(child, NULL, 0) != child) return 1;
    return 0;
}
"#
);

/// Whether the kernel groups processes by session for the scheduler (autogroups), and so whether a
/// session's nice value means anything: `None` where it does not, with the reason.
fn autogroups() -> Result<(), String> {
    match std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled") {
        Ok(on) if on.trim() == "1" => Ok(()),
        Ok(_) => Err("sched_autogroup_enabled is 0".to_string()),
        Err(e) => Err(format!("no /proc/sys/kernel/sched_autogroup_enabled ({e})")),
    }
}

/// A build runs niced (by 10), but in a session of its own (its keeper's, or its box's init's):
/// where the kernel groups processes by session (autogroups), sessions share the CPU as equals,
/// whatever their processes' nice values, so the build had as much of it as the arena's whole
/// session, and each process of it that made a session of its own as much again (a red team's
/// spinners, each in a session, cut a probe of nice 0 to 10 %). The build's session is niced 10
/// below the arena's own now (19 at most), and its processes may make none (`setsid`: `EPERM`), plain (with Landlock and without)
/// and in a box without a memory cgroup (root only: the arena run as nobody). The control: with
/// the sandbox off, the build runs in the arena's session (nice 0) and a child of it makes one.
#[test]
fn a_builds_session_is_niced_and_it_makes_no_other() {
    let calls = ["agnice", "setsid"];
    let said = |sandbox: &str, env: &[(&str, &str)]| probe_build("session", SESSION_C, &calls, sandbox, env);
    let grouped = autogroups();
    if let Err(why) = &grouped {
        eprintln!("the sessions' nice values are not checked: {why}");
    }
    // (Only where autogroups exist does a session's nice value matter; `setsid` is refused anyway.)
    let check = |said: Vec<String>, nice: &str, setsid: &str, how: &str| {
        let expected = [nice.to_string(), setsid.to_string()];
        match grouped {
            Ok(()) => assert_eq!(said, expected, "{how}"),
            Err(_) => {
                assert_eq!(said.iter().filter(|s| s.starts_with("setsid-")).collect::<Vec<_>>(), [setsid], "{how}")
            }
        }
    };
    let refused = format!("setsid-{}", libc::EPERM);
    // (10 below the arena's own session, this test's: 19 at most.)
    let own = std::fs::read_to_string("/proc/self/autogroup").ok();
    let own = own.as_deref().and_then(|t| t.split_once(" nice ")).and_then(|(_, n)| n.trim().parse::<i32>().ok());
    let lowered = format!("agnice-{}", (own.unwrap_or(0) + 10).min(19));
    if landlock_abi() >= 1 {
        check(said("plain", &[]), &lowered, &refused, "with Landlock");
    }
    check(said("plain", &[("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")]), &lowered, &refused, "without");
    if as_root() {
        let boxed = probe_built_by_nobody("session", SESSION_C, &calls);
        check(boxed, &lowered, &refused, "in a box of an arena run as nobody");
    }
    check(said("none", &[]), "agnice-0", "setsid-ok", "the control, without the sandbox");
}

/// Makes a POSIX timer (`timer_create`) and says how it went (`timer-ok` or `timer-ERRNO`), then
/// runs coreutils' `timeout 1 sleep 5` and says its exit status (`timeout-124`: it stopped the
/// sleep), as [`SPLICE_C`].
const TIMER_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
int main(void) {
    timer_t timer;
    say("timer", timer_create(CLOCK_MONOTONIC, NULL, &timer));
    int status = system("timeout 1 sleep 5");
    char name[64];
    snprintf(name, sizeof name, "timeout-%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    close(open(name, O_CREAT | O_WRONLY, 0644));
    return 0;
}
"#
);

/// A build whose memory the arena sums made POSIX timers, each kernel memory no process's set
/// shows, up to its user's `RLIMIT_SIGPENDING` (a red team's plain build made 96,367, 36 MiB of
/// unreclaimable slab, under a `build_memory_mb` of 64). Such a build may make none now
/// (`timer_create` fails with `ENOSYS`, as in a bot's box), plain (with Landlock and without) and
/// in a box without a memory cgroup (root only: the arena run as nobody), and coreutils' `timeout`
/// still stops what it runs (with `alarm`). The control: with the sandbox off it makes one.
#[test]
fn a_summed_build_cannot_make_posix_timers() {
    let calls = ["timeout", "timer"];
    let refused = ["timeout-124".to_string(), format!("timer-{}", libc::ENOSYS)];
    let control = summed_builds_say("timer", TIMER_C, &calls, &refused);
    assert_eq!(control, ["timeout-124", "timer-ok"], "the control");
}

/// Forks its second argument's processes, each of which, as its first argument says, makes
/// (`epoll`) its fourth argument's eventfds and its third argument's epolls, each watching every
/// one of them, or (`locks`) opens its third argument's files (deleted at once) and takes its
/// fourth argument's byte-range locks on each (every other byte): kernel objects in no process's
/// set. Then says how many it made together, and holds them its fifth argument's seconds.
const KERNEL_OBJECTS_C: &str = concat!(
    probe_c_gather!(),
    r#"#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
int main(int argc, char **argv) {
    if (argc < 6) return 2;
    int epoll = strcmp(argv[1], "epoll") == 0, procs = atoi(argv[2]), outer = atoi(argv[3]);
    int inner = atoi(argv[4]), secs = atoi(argv[5]), ready[2];
    if (pipe(ready)) { perror("pipe"); return 1; }
    for (int p = 0; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid != 0) continue;
        long made = 0;
        int *fds = calloc(inner, sizeof *fds);
        for (int i = 0; epoll && i < inner; i++) if ((fds[i] = eventfd(0, 0)) < 0) { perror("eventfd"); _exit(1); }
        for (int o = 0; o < outer; o++) {
            if (epoll) {
                int ep = epoll_create1(0);
                if (ep < 0) { perror("epoll_create1"); _exit(1); }
                for (int i = 0; i < inner; i++) {
                    struct epoll_event ev = { .events = EPOLLIN };
                    if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) == 0) made++;
                }
            } else {
                char name[64];
                snprintf(name, sizeof name, "lock.%d.%d", p, o);
                int fd = open(name, O_RDWR | O_CREAT, 0644);
                if (fd < 0) { perror("open"); _exit(1); }
                unlink(name);
                for (int i = 0; i < inner; i++) {
                    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 2L * i, .l_len = 1 };
                    if (fcntl(fd, F_SETLK, &fl) == 0) made++;
                }
            }
        }
        hold(ready[1], made, secs);
    }
    return gather(ready[0], procs);
}
"#
);

/// The builds of [`a_summed_build_is_held_to_its_epoll_watches`] and
/// [`a_summed_build_is_held_to_its_file_locks`]: `kind` (`epoll` or `locks`) in 4 processes of
/// `outer` epolls or files of 800 watches or locks each, held `secs` seconds, under
/// `build_memory_mb = mb`, plain; the student's row and what the build said. (Builds to be
/// stopped hold them half a minute: a loaded machine may take a while to make and see them.)
fn kernel_objects_built(kind: &str, outer: u32, mb: u32, secs: u32) -> (Value, String) {
    plain_build_said("kobjects", KERNEL_OBJECTS_C, &format!("{kind} 4 {outer} 800 {secs}"), mb)
}

/// A plain build of `name`, compiled from `source` and run as `./NAME ARGS > said`, under
/// `build_memory_mb = mb`: the student's row and how much the build said.
fn plain_build_said(name: &str, source: &str, args: &str, mb: u32) -> (Value, String) {
    let prepare = |folder: &Path| compiled_for_the_build(folder, name, source);
    let settings = format!("sandbox = \"plain\"\nbuild_memory_mb = {mb}");
    let (student, files, _) = build_in_prepared_folder(&format!("./{name} {args} > said"), &settings, &prepare);
    let said = files.iter().find(|f| f.0 == "said").map_or(0, |f| f.1);
    (student, format!("said {said} bytes"))
}

/// A summed build's epoll watches (an `epitem` and a wait queue entry each, some 210 bytes,
/// measured here) are kernel memory in no process's set, and no descriptor of no file (eventfd,
/// epoll, timerfd: some 140 to 1,140 bytes each) was counted either: 20 processes with 500
/// epolls of 500 eventfds each held 1.0 GiB under a `build_memory_mb` of 64, and it built. Each
/// watch counts 256 bytes with its memory now, and each such descriptor 2 KiB: 4 processes with
/// 100 epolls of 800 watches each (320,000, some 80 MiB counted) are stopped under 64, while 4
/// with 10 each (32,000: 8 MiB) build. The control: the 320,000 under 512 build (the build is
/// stopped for what its watches count, nothing else).
#[test]
fn a_summed_build_is_held_to_its_epoll_watches() {
    let (student, _) = kernel_objects_built("epoll", 100, 64, 30);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, said) = kernel_objects_built("epoll", 10, 64, 3);
    assert!(student["failure"].is_null() && !said.starts_with("said 0 "), "4 x 10 epolls build: {student} {said}");
    let (student, said) = kernel_objects_built("epoll", 100, 512, 3);
    assert!(student["failure"].is_null() && !said.starts_with("said 0 "), "the control, under 512: {student} {said}");
}

/// A summed build's file locks (a `file_lock_cache` object of 192 bytes each) are kernel memory in
/// no process's set, which no limit of the kernel's holds: 10 processes with 1,000 files of 1,000
/// byte-range locks each held 1.9 GiB under a `build_memory_mb` of 64, and it built. Each lock its
/// descriptors hold (their `fdinfo`'s `lock:` lines) counts 256 bytes with its memory now: 4
/// processes with 100 files of 800 locks each (320,000, some 80 MiB counted) are stopped under
/// 64, plain and in a box without a memory cgroup (root only: the arena run as nobody), while 4
/// with 10 each (32,000: 8 MiB) build. The control: the 320,000 under 512 build.
#[test]
fn a_summed_build_is_held_to_its_file_locks() {
    let (student, _) = kernel_objects_built("locks", 100, 64, 30);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, said) = kernel_objects_built("locks", 10, 64, 3);
    assert!(student["failure"].is_null() && !said.starts_with("said 0 "), "4 x 10 files build: {student} {said}");
    let (student, said) = kernel_objects_built("locks", 100, 512, 3);
    assert!(student["failure"].is_null() && !said.starts_with("said 0 "), "the control, under 512: {student} {said}");
    if as_root() {
        let build = "./kobjects locks 4 100 800 30 > said";
        let (student, _, _) = built_by_nobody("kobjects", KERNEL_OBJECTS_C, build, "build_memory_mb = 64", "require");
        let failure = student["failure"].as_str().unwrap_or_default();
        assert!(failure.contains("held more than 64 MiB of memory together"), "in a box: {student}");
    }
}

/// Takes 1,000 open file description locks on a file of its folder (`F_OFD_SETLK`), maps it and
/// closes its descriptor, then says how it went in the name of a file it makes (`ofd-ok`, or
/// `ofd-ERRNO` at the first lock refused), as [`SPLICE_C`]: the locks are the open file's, which
/// the mapping keeps, and no descriptor shows them.
const OFD_C: &str = concat!(
    probe_c_prelude!(),
    r#"#include <sys/mman.h>
int main(void) {
    int fd = open("locked", O_RDWR | O_CREAT, 0644);
    if (fd < 0 || ftruncate(fd, 4096)) { perror("locked"); return 1; }
    long done = 0;
    for (int i = 0; i < 1000 && done == 0; i++) {
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 2L * i, .l_len = 1 };
        done = fcntl(fd, F_OFD_SETLK, &fl);
    }
    if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED) { perror("mmap"); return 1; }
    close(fd);
    say("ofd", done);
    return 0;
}
"#
);

/// An open file description lock belongs to the open file, which a mapping of the file keeps
/// after its last descriptor is closed, where the walk of a build's descriptors does not see it
/// (1,000 locks held so, and no descriptor shows them). A summed build may take none now
/// (`EINVAL`, as on a kernel before 3.15), plain with Landlock and without; POSIX locks (which end
/// with a descriptor of their file closed) and `flock`'s (one a file) stay. The control: with the
/// sandbox off it takes them.
#[test]
fn a_summed_build_takes_no_open_file_description_locks() {
    let said = |sandbox: &str, env: &[(&str, &str)]| probe_build("ofd", OFD_C, &["ofd"], sandbox, env);
    let refused = [format!("ofd-{}", libc::EINVAL)];
    if landlock_abi() >= 1 {
        assert_eq!(said("plain", &[]), refused, "with Landlock");
    }
    assert_eq!(said("plain", &[("ARENA_PLAIN_WITHOUT_LANDLOCK", "1")]), refused, "without");
    assert_eq!(said("none", &[]), ["ofd-ok"], "the control, without the sandbox");
}

/// Every run builds again: a build that grows its folder by 3 MiB on each run fits a 5 MiB cap
/// once, not twice (its builds' growth is counted over the runs, and the second's taken back);
/// a student's push is not counted, a rebuild that grows nothing passes, and a clean gives the
/// room back. The control: a record without the count (per build, as before) lets every run pass.
#[test]
fn a_builds_growth_is_capped_over_the_runs() {
    let _disk = disk_alone();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("student");
    std::fs::create_dir(&folder).unwrap();
    let script = |mib: u32| {
        let grow = format!("head -c {} /dev/urandom >> blob\n", mib << 20);
        std::fs::write(folder.join("build.sh"), if mib == 0 { "touch blob\n".to_string() } else { grow }).unwrap();
    };
    script(3);
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, student_league("build_disk_mb = 5", "sh build.sh")).unwrap();
    let out = dir.path().join("t");
    let (cfg, out_arg) = (cfg.display().to_string(), out.display().to_string());
    let record = || -> Value { serde_json::from_slice(&std::fs::read(out.join("tournament.json")).unwrap()).unwrap() };
    // The newest version's problem (empty when it built), and the blob's size in MiB.
    let run = || -> (String, u64) {
        let flag = if out.exists() { "--resume" } else { "--out" };
        let (_, stderr, code) = tournament(&["--config", &cfg, flag, &out_arg]);
        assert_eq!(code, 0, "{stderr}");
        let versions = record()["history"]["student"]["versions"].clone();
        let newest = versions.as_array().and_then(|v| v.last()).cloned().unwrap_or_default();
        let size = std::fs::metadata(folder.join("blob")).map_or(0, |m| m.len());
        (newest["problem"].as_str().unwrap_or_default().to_string(), size >> 20)
    };
    assert_eq!(run(), (String::new(), 3));
    let (problem, blob) = run();
    let said = " MiB over the runs (its folder's growth, and this build's log), more than build_disk_mb (5 MiB): clean its folder (make clean) or raise build_disk_mb";
    assert!(problem.contains("bot student's builds have filled ") && problem.contains(said), "{problem}");
    assert_eq!(blob, 3, "what the second build wrote is taken back");
    // The student pushes 4 MiB of their own, and a build growing 1 MiB: 4 MiB of builds.
    std::fs::write(folder.join("data.bin"), vec![7u8; 4 << 20]).unwrap();
    script(1);
    assert_eq!(run(), (String::new(), 4), "the student's push is not the builds'");
    script(0);
    assert_eq!(run(), (String::new(), 4), "a rebuild that grows nothing");
    // A clean (the builds' 4 MiB removed) gives the room back.
    std::fs::remove_file(folder.join("blob")).unwrap();
    script(3);
    assert_eq!(run(), (String::new(), 3));
    // The control: without the count in the record, each build is held to the cap alone, and
    // the folder grows by 3 MiB on every run.
    for grown in [6, 9] {
        let mut record = record();
        let count = record["history"]["student"].as_object_mut().unwrap().remove("build_growth");
        assert!(count.is_some(), "{record}");
        std::fs::write(out.join("tournament.json"), record.to_string()).unwrap();
        assert_eq!(run(), (String::new(), grown));
    }
}

/// A private file of the toolchains a root build is shown (a lock or journal file of cargo's)
/// gone between two builds of one run no longer stops the second: the walk that finds what a
/// root build's box masks is made once a process, and its mount on the file gone failed ("its
/// box's file system could not be built", a machine's fault: CI's `tournaments`, when a cargo
/// elsewhere removed such a file). The file still there is masked: the first build, run as its
/// folder's owner root, could not read it.
#[test]
fn a_private_file_gone_between_two_builds_stops_no_build() {
    if skipped_unless_root("only a build of a folder root owns runs as root, with the toolchains' private files masked")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cargo_home = dir.path().join("cargo");
    std::fs::create_dir(&cargo_home).unwrap();
    let private = cargo_home.join("journal");
    std::fs::write(&private, "the teacher's\n").unwrap();
    std::fs::set_permissions(&private, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    for (name, build) in [
        // (It waits for the test's go, while the test removes the file.)
        (
            "first",
            format!("cat {} > seen 2>&1; touch started; while [ ! -e go ]; do sleep 0.05; done\n", private.display()),
        ),
        ("second", "touch built\n".to_string()),
    ] {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join("build.sh"), build).unwrap();
    }
    let mut text = format!("maps = [{:?}]\n", map("fire.txt"));
    for name in ["first", "second"] {
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\ncommand = {:?}\ncwd = \"{name}\"\nbuild = \"sh build.sh\"\n",
            bin("greedy")
        ));
    }
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("t");
    let league = Command::new(bin("arena"))
        .args(["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()])
        .env("CARGO_HOME", &cargo_home)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = dir.path().join("first").join("started");
    let waited = Instant::now();
    while !started.exists() && waited.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(started.exists(), "the first build started");
    std::fs::remove_file(&private).unwrap();
    std::fs::write(dir.path().join("first").join("go"), "").unwrap();
    let ended = league.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert!(ended.status.success(), "{stderr}");
    assert!(dir.path().join("second").join("built").exists(), "the second build ran: {stderr}");
    let seen = std::fs::read_to_string(dir.path().join("first").join("seen")).unwrap();
    assert!(!seen.contains("the teacher's"), "the first build read the private file: {seen}");
}

/// A root arena's copies of its bots' folders are readable by the boxes' users whatever the
/// teacher's umask: under 027 the copy's folders were made 0750, and every match of a bot given
/// as a folder failed ("is not readable by others, so a box cannot read it"). And a bot whose
/// folder is empty (its program named elsewhere) plays: the copy made no folder for it, its
/// working directory, which every match of it failed to find.
#[test]
fn a_bot_s_copy_is_readable_by_its_box_whatever_the_umask_and_an_empty_folder_plays() {
    if skipped_unless_root("only a root arena runs its bots as users of their own") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(dir.path().join("student/src")).unwrap();
    std::fs::write(dir.path().join("student/src/notes.txt"), "hello\n").unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let mut text =
        format!("maps = [{:?}]\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n", map("fire.txt"), bin("greedy"));
    for name in ["student", "empty"] {
        text.push_str(&format!("[[bots]]\nname = \"{name}\"\ncommand = {:?}\ncwd = \"{name}\"\n", bin("greedy")));
    }
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("t");
    let mut command = Command::new(bin("arena"));
    command.args(["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    // SAFETY: umask is async-signal-safe and cannot fail.
    unsafe {
        command.pre_exec(|| {
            libc::umask(0o027);
            Ok(())
        });
    }
    let run = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let board = leaderboard(&out);
    assert_eq!(board["complete"], true, "every match played: {board}\n{stderr}");
    for bot in ["student", "empty"] {
        assert!(row(&board, bot)["failure"].is_null(), "{bot}: {board}");
    }
    assert!(!stderr.contains("not readable by others") && !stderr.contains("could not"), "{stderr}");
}

#[test]
fn bad_configs_and_folders_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "maps = [\"x\"]\ngames = -1\n").unwrap();
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("bad.toml") && stderr.contains("games"), "{stderr}");

    let (_, stderr, code) = tournament(&["--bot", "only=./one"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("at least 2 bots"), "{stderr}");

    // No match at a time is no league (it was read as 1).
    let zero = config(dir.path(), &sample_bots()[..2], &["fire.txt"], "jobs = 0\n");
    let (_, stderr, code) = tournament(&["--config", &zero.display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("tournament.toml") && stderr.contains("`jobs` must be at least 1"), "{stderr}");
    // Given on the command line, the option is named, not the file (it blamed the config).
    let good = config(dir.path(), &sample_bots()[..2], &["fire.txt"], "");
    let (_, stderr, code) = tournament(&["--config", &good.display().to_string(), "-j", "0"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("invalid value '0' for '--jobs <JOBS>': must be at least 1"), "{stderr}");

    let (_, stderr, code) = tournament(&["--resume", &dir.path().join("none").display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("none: no such folder: give a league's folder"), "{stderr}");

    let cfg = config(dir.path(), &sample_bots()[..2], &["fire.txt"], "");
    let out = dir.path().join("t").display().to_string();
    assert_eq!(tournament(&["--config", &cfg.display().to_string(), "--out", &out]).2, 0);
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &out]);
    assert_ne!(code, 0, "a folder with results is not overwritten");
    assert!(stderr.contains("--resume"), "{stderr}");
}

#[test]
fn a_default_output_folder_never_reuses_a_taken_name() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    for secs in now..now + 30 {
        std::fs::create_dir_all(dir.path().join(format!("replays/tournament-{secs}"))).unwrap();
    }
    let (a, b) = (format!("a={}", bin("waiter")), format!("b={}", bin("waiter")));
    let out = arena_fed(dir.path(), &["tournament", "--map", &map("fire.txt"), "--bot", &a, "--bot", &b], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let made: Vec<String> = std::fs::read_dir(dir.path().join("replays"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-2"))
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(dir.path().join("replays").join(&made[0]).join("leaderboard.json").is_file());
}

#[test]
fn a_league_without_a_secret_draws_its_own_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [("random", bin("random")), ("waiter", bin("waiter"))];
    // No `secret`: the bots' seeds must not follow from the (published) seed alone.
    let cfg = config_file(&dir.path().join("league.toml"), "seed = 5\ngames = 1", &["fire.txt"], &bots);
    let run = |out: &Path, resume: bool| {
        let (cfg, out) = (cfg.display().to_string(), out.display().to_string());
        let flag = if resume { "--resume" } else { "--out" };
        let (stdout, stderr, code) = tournament(&["--config", &cfg, flag, &out]);
        assert_eq!(code, 0, "{stdout}\n{stderr}");
    };
    let secret = |out: &Path| {
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("tournament.json")).unwrap()).unwrap();
        record["config"]["secret"].as_str().unwrap_or_default().to_string()
    };
    let seeds = |out: &Path| -> Vec<serde_json::Value> {
        let mut seeds = Vec::new();
        for entry in std::fs::read_dir(out.join("replays")).unwrap().flatten() {
            if !entry.path().to_string_lossy().ends_with(".json.gz") {
                continue;
            }
            let mut bytes = Vec::new();
            let file = std::fs::File::open(entry.path()).unwrap();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(file), &mut bytes).unwrap();
            let replay: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            seeds.push(replay["seat_seeds"].clone());
        }
        seeds.sort_by_key(|s| s.to_string());
        seeds
    };
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    run(&a, false);
    run(&b, false);
    let (secret_a, secret_b) = (secret(&a), secret(&b));
    assert_eq!(secret_a.len(), 32, "128 random bits: {secret_a}");
    assert_ne!(secret_a, secret_b, "each league draws its own");
    assert_eq!(seeds(&a).len(), 2);
    assert_ne!(seeds(&a), seeds(&b), "the same seed, other seats' seeds");
    // A resumed league (the config file still has no secret) keeps its own: matches whose
    // replays are gone are played again, with the same seeds.
    let before = seeds(&a);
    for entry in std::fs::read_dir(a.join("replays")).unwrap().flatten() {
        std::fs::remove_file(entry.path()).unwrap();
    }
    let _ = std::fs::remove_file(a.join("results.jsonl"));
    run(&a, true);
    assert_eq!(secret(&a), secret_a);
    assert_eq!(seeds(&a), before);
    // A league an older arena recorded with `secret = ""` (which keys the seeds with nothing
    // secret, and a config may no longer give) does not keep it: it draws one, as a league
    // without a secret does, and says so. (The resume above, keeping its secret, is the control.)
    // Both with the config given again and with a plain `--resume DIR`, the config being the
    // record's own (the resume the arena itself tells of after an interruption, which kept it).
    let record_file = a.join("tournament.json");
    let (cfg_text, a_text) = (cfg.display().to_string(), a.display().to_string());
    let mut last = secret_a.clone();
    for args in [&["--config", &cfg_text, "--resume", &a_text][..], &["--resume", &a_text]] {
        let mut record: serde_json::Value = serde_json::from_slice(&std::fs::read(&record_file).unwrap()).unwrap();
        record["config"]["secret"] = "".into();
        std::fs::write(&record_file, serde_json::to_vec(&record).unwrap()).unwrap();
        let (stdout, stderr, code) = tournament(args);
        assert_eq!(code, 0, "{args:?}: {stdout}\n{stderr}");
        let drawn = secret(&a);
        assert!(drawn.len() == 32 && drawn != last, "{args:?}: a new secret of 128 random bits: {drawn:?}");
        assert!(
            format!("{stdout}{stderr}").contains("change: secret: the league's recorded `secret` is empty"),
            "{args:?}: {stdout}\n{stderr}"
        );
        last = drawn;
    }
    // It is in the record only: no page, leaderboard or result shows it.
    for file in ["index.html", "leaderboard.json", "leaderboard.md", "results.jsonl"] {
        let text = std::fs::read_to_string(a.join(file)).unwrap();
        assert!(!text.contains(&secret_a), "{file} shows the secret");
    }
}

/// `arena publish` copies what the pages need, every link of them resolving in the copy, and
/// neither the league's secret (which keys the bots' seeds), the copies of the students' code,
/// nor the source lines a failed build's log quotes (unless `--build-logs`). The control: the
/// tournament folder itself holds all three.
#[test]
fn publishing_copies_the_pages_not_the_secret_or_the_students_code() {
    let dir = tempfile::tempdir().unwrap();
    let alice = dir.path().join("s/alice");
    std::fs::create_dir_all(&alice).unwrap();
    // (Her stderr, a match log, holds a line her source does not: as a traceback would.)
    let traced = "ALICE_TRACE_2";
    std::fs::write(alice.join("bot.sh"), format!("echo ALICE_TRACE_$((1+1)) >&2\nexec {:?}\n", bin("waiter"))).unwrap();
    let strategy = "alice's strategy, not for classmates";
    std::fs::write(alice.join("strategy.txt"), strategy).unwrap();
    let mut text = format!("secret = \"s3cret-key\"\nmaps = [{:?}]\n", map("fire.txt"));
    text.push_str(&format!("[[bots]]\nname = \"greedy\"\ncommand = {:?}\n", bin("greedy")));
    text.push_str("[[bots]]\nname = \"alice\"\ncommand = \"sh bot.sh\"\ncwd = \"s/alice\"\n");
    // (The log quotes a line of the student's source, as a compiler's messages do; upper-cased
    // by the build, so that the command, which the leaderboard shows, does not hold it.)
    let quoted = "INT HIDDEN_TRICK = 42;";
    text.push_str(&format!(
        "[[bots]]\nname = \"broken\"\ncommand = \"./nothing\"\nbuild = \"echo '{}' | tr a-z A-Z >&2; echo compiling >&2; exit 3\"\n",
        quoted.to_lowercase()
    ));
    let cfg = dir.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let (league, public) = (dir.path().join("league"), dir.path().join("public"));
    let (_, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let run = arena(&["publish", &league.display().to_string(), &public.display().to_string()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let files: Vec<PathBuf> = walk(&public).into_iter().filter(|p| p.is_file()).collect();
    let everything: Vec<u8> = files.iter().flat_map(|f| std::fs::read(f).unwrap()).collect();
    let holds = |bytes: &[u8], what: &str| bytes.windows(what.len()).any(|w| w == what.as_bytes());
    assert!(
        !holds(&everything, "s3cret-key")
            && !holds(&everything, strategy)
            && !holds(&everything, quoted)
            && !holds(&everything, traced),
        "published: the secret, alice's code, the source line in broken's build log or alice's stderr"
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("logs withheld"), "{:?}", run.stdout);
    assert!(!public.join("tournament.json").exists() && !public.join("versions").exists());
    // Every page's links and scripts are in the copy.
    let pages: Vec<&PathBuf> = files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")).collect();
    assert!(pages.len() >= 5, "index, 3 bots' pages, replay pages: {pages:?}");
    let mut linked = Vec::new();
    for page in pages {
        let html = std::fs::read_to_string(page).unwrap();
        for target in html.split(['"', '\'']).filter(|t| {
            t.ends_with(".html")
                || t.ends_with(".js")
                || t.ends_with(".css")
                || t.ends_with(".gz")
                || t.ends_with(".log")
        }) {
            if target.contains("://") || target.contains(' ') || target.contains('<') {
                continue;
            }
            let path = page.parent().unwrap().join(target);
            assert!(path.is_file(), "{}: {target} is not in the published folder", page.display());
            linked.push(target.to_string());
        }
    }
    assert!(linked.iter().any(|t| t.starts_with("builds/broken-")), "the failed build's log is linked: {linked:?}");
    assert!(linked.iter().any(|t| t.ends_with(".json.gz") || t.starts_with("../replays/")), "{linked:?}");
    // The control: the tournament folder holds both.
    let league_files: Vec<u8> =
        walk(&league).into_iter().filter(|p| p.is_file()).flat_map(|f| std::fs::read(f).unwrap()).collect();
    assert!(
        holds(&league_files, "s3cret-key")
            && holds(&league_files, strategy)
            && holds(&league_files, quoted)
            && holds(&league_files, traced),
        "the league folder holds them"
    );
    // Asked for, the build and match logs are published as they are.
    let with_logs = dir.path().join("with-logs");
    let (league_arg, with_arg) = (league.display().to_string(), with_logs.display().to_string());
    let run = arena(&["publish", "--build-logs", "--match-logs", &league_arg, &with_arg]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let logs =
        |sub: &str| -> Vec<u8> { walk(&with_logs.join(sub)).iter().flat_map(|f| std::fs::read(f).unwrap()).collect() };
    assert!(holds(&logs("builds"), quoted), "--build-logs publishes the build log");
    assert!(holds(&logs("logs"), traced), "--match-logs publishes the match logs");
}

/// Two publishes of an unchanged league are the same bytes, a second and more apart: the
/// leaderboard is dated by the league's record (its last result or bot version), the date its
/// own leaderboard shows, not by the publish.
#[test]
fn two_publishes_of_an_unchanged_league_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [("greedy", bin("greedy")), ("waiter", bin("waiter"))];
    let cfg = config(dir.path(), &bots, &["tight.txt"], "");
    let league = dir.path().join("league");
    let (league_arg, cfg_arg) = (league.display().to_string(), cfg.display().to_string());
    let (_, stderr, code) = tournament(&["--config", &cfg_arg, "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    let publish = |name: &str| {
        let out = dir.path().join(name);
        let run = arena(&["publish", &league_arg, &out.display().to_string()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let mut files: Vec<(PathBuf, Vec<u8>)> = walk(&out)
            .into_iter()
            .filter(|p| p.is_file())
            .map(|p| (p.strip_prefix(&out).unwrap().to_path_buf(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    };
    let first = publish("public-1");
    // (Past the next second: a date from the clock would differ.)
    std::thread::sleep(Duration::from_millis(1100));
    let second = publish("public-2");
    let paths = |files: &[(PathBuf, Vec<u8>)]| files.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&first), paths(&second));
    for ((path, a), (_, b)) in first.iter().zip(&second) {
        assert!(a == b, "{} differs:\n{}\n{}", path.display(), String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    }
    let date = |file: &Path| {
        let board: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        board["facts"]["date"].as_str().unwrap().to_string()
    };
    let published = date(&dir.path().join("public-1/leaderboard.json"));
    assert_eq!(published, date(&league.join("leaderboard.json")), "the league's own leaderboard's date");
    assert!(published.starts_with("20"), "{published}");
}

/// The folders beside `out` that a publish into it stages in (`.tmp-publish-<name>-XXXXXX`).
fn publish_staging(out: &Path) -> Vec<PathBuf> {
    let prefix = format!(".tmp-publish-{}-", out.file_name().unwrap().to_string_lossy());
    let beside = std::fs::read_dir(out.parent().unwrap()).unwrap().flatten().map(|e| e.path());
    beside.filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix)).collect()
}

/// Each path under `dir` with its bytes (a folder's: none), sorted.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all: Vec<(PathBuf, Vec<u8>)> =
        walk(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap_or_default())).collect();
    all.sort();
    all
}

/// Re-publishing into the folder of an earlier publish (the weekly publish of a league into the
/// folder a web server serves) replaces it with the new results, leaving no staging folder, and
/// keeps the folder's mode; so does one into an earlier arena's publish, which has no marker,
/// when it holds nothing this publish does not write anew.
#[test]
fn a_republish_replaces_an_earlier_publish() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &[("greedy", bin("greedy")), ("waiter", bin("waiter"))], &["tight.txt"], "");
    let (league, site) = (dir.path().join("league"), dir.path().join("site"));
    let (league_arg, site_arg) = (league.display().to_string(), site.display().to_string());
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    let publish = |to: &str| arena(&["publish", &league_arg, to]);
    let run = publish(&site_arg);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&site), 0o755, "readable by a web server");
    assert!(site.join(".arena-publish.json").is_file() && !site.join("bots/carol.html").exists());
    // A new result: carol joins and plays.
    let (_, stderr, code) = tournament(&["--resume", &league_arg, "--bot", &format!("carol={}", bin("greedy"))]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::set_permissions(&site, std::fs::Permissions::from_mode(0o750)).unwrap();
    let run = publish(&site_arg);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let board: Value = serde_json::from_slice(&std::fs::read(site.join("leaderboard.json")).unwrap()).unwrap();
    assert_eq!(row(&board, "carol")["games"], 4, "{board}");
    assert!(site.join("bots/carol.html").is_file());
    assert!(publish_staging(&site).is_empty(), "{:?}", publish_staging(&site));
    assert_eq!(mode(&site), 0o750, "the folder's mode, as the teacher set it");
    // An earlier arena's publish: no marker.
    std::fs::remove_file(site.join(".arena-publish.json")).unwrap();
    let run = publish(&site_arg);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(site.join(".arena-publish.json").is_file() && publish_staging(&site).is_empty());
}

/// A folder that is not empty and no earlier publish is refused before anything is written,
/// and left as it was: a folder of the teacher's; one holding a copy of a publish's marker
/// beside its own files; an earlier publish with a file added (in a subfolder too); an earlier
/// arena's publish (no marker) with a page this publish does not write; a teacher's page named
/// as a publish's, without the arena's leaderboard. The control: each
/// folder, without what makes it foreign, is published into.
#[test]
fn a_publish_into_a_folder_that_is_not_a_publish_is_refused_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [("greedy", bin("greedy")), ("waiter", bin("waiter"))];
    let cfg = config(dir.path(), &bots, &["tight.txt"], "");
    let league = dir.path().join("league");
    let league_arg = league.display().to_string();
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    let publish = |to: &Path| arena(&["publish", &league_arg, &to.display().to_string()]);
    let refused = |to: &Path, holds: &str| {
        let before = contents(to);
        let run = publish(to);
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(!run.status.success(), "{}: published", to.display());
        assert!(stderr.contains("not empty: publish into a new or empty folder"), "{stderr}");
        assert!(stderr.contains(&format!("it holds {holds},")), "{stderr}");
        assert_eq!(contents(to), before, "{} changed", to.display());
        assert!(publish_staging(to).is_empty(), "{:?}", publish_staging(to));
    };
    // A teacher's folder.
    let mine = dir.path().join("mine");
    std::fs::create_dir_all(mine.join("replays")).unwrap();
    std::fs::write(mine.join("grades.csv"), "alice,A\n").unwrap();
    refused(&mine, "grades.csv");
    // An earlier publish, and the same with a file added.
    let site = dir.path().join("site");
    assert!(publish(&site).status.success());
    std::fs::write(site.join("replays/notes.txt"), "mine").unwrap();
    refused(&site, "replays/notes.txt");
    // Its marker copied into the teacher's folder.
    std::fs::copy(site.join(".arena-publish.json"), mine.join(".arena-publish.json")).unwrap();
    refused(&mine, "grades.csv");
    // An earlier arena's publish (no marker), with a page this publish does not write.
    std::fs::remove_file(site.join("replays/notes.txt")).unwrap();
    std::fs::remove_file(site.join(".arena-publish.json")).unwrap();
    std::fs::write(site.join("bots/dave.html"), "dave's page").unwrap();
    refused(&site, "bots/dave.html");
    // The controls: without what makes them foreign, published into.
    std::fs::remove_file(site.join("bots/dave.html")).unwrap();
    assert!(publish(&site).status.success());
    // A teacher's folder holding only names a publish writes (a page of theirs), without the
    // arena's leaderboard: no earlier publish either.
    std::fs::remove_file(mine.join("grades.csv")).unwrap();
    std::fs::remove_file(mine.join(".arena-publish.json")).unwrap();
    std::fs::write(mine.join("index.html"), "<h1>My course</h1>").unwrap();
    refused(&mine, "index.html");
    std::fs::remove_file(mine.join("index.html")).unwrap();
    std::fs::remove_dir(mine.join("replays")).unwrap();
    assert!(publish(&mine).status.success(), "the control: empty");
}

/// Every path under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

/// What a crash left half-written (`.tmp-*` files, in every folder the arena writes) is removed
/// by the next command that holds the folder (`arena leaderboard` here), never published, and
/// never taken from the copies of the students' folders; a folder whose first run stopped
/// before its record was written is explained. The control: the planted files are there
/// before.
#[test]
fn what_a_crash_left_half_written_goes_and_is_never_published() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league");
    tournament(&[
        "--bot",
        &format!("greedy={}", bin("greedy")),
        "--bot",
        &format!("waiter={}", bin("waiter")),
        "--map",
        &map("fire.txt"),
        "--out",
        &league.display().to_string(),
    ]);
    let planted: Vec<PathBuf> =
        ["", "bots", "assets", "replays", "logs"].iter().map(|sub| league.join(sub).join(".tmp-crashed")).collect();
    for path in &planted {
        std::fs::write(path, "half").unwrap();
    }
    let kept = walk(&league.join("versions")).into_iter().find(|p| p.is_dir()).unwrap().join(".tmp-students-own");
    std::fs::write(&kept, "mine").unwrap();
    assert!(planted.iter().all(|p| p.exists()), "the control: planted");
    // What a publish into `public` cut short left beside it, and, the control, what one into
    // `public-2` left.
    let (cut_short, other) =
        (dir.path().join(".tmp-publish-public-a1B2c3"), dir.path().join(".tmp-publish-public-2-a1B2c3"));
    for left in [&cut_short, &other] {
        std::fs::create_dir_all(left.join("bots")).unwrap();
        std::fs::write(left.join("bots/x.html"), "half").unwrap();
    }
    let public = dir.path().join("public");
    assert!(arena(&["publish", &league.display().to_string(), &public.display().to_string()]).status.success());
    assert!(walk(&public).iter().all(|p| !p.file_name().unwrap().to_string_lossy().starts_with(".tmp-")), "published");
    assert!(!cut_short.exists(), "what the publish cut short left is gone");
    assert!(other.join("bots/x.html").exists(), "the control: another folder's is left");
    assert!(arena(&["leaderboard", &league.display().to_string()]).status.success());
    for path in &planted {
        assert!(!path.exists(), "{} is left", path.display());
    }
    assert!(kept.exists(), "a student's own file in a kept copy stays");
    // A folder whose first run was stopped before it wrote its record.
    let early = dir.path().join("early");
    std::fs::create_dir_all(early.join("replays")).unwrap();
    let (_, stderr, code) = tournament(&["--resume", &early.display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("start it again with `arena tournament --config FILE --out"), "{stderr}");
    // A folder that is no league at all (a bot's, mistyped) is told so first: not only told to
    // start a league there.
    assert!(stderr.contains("not a tournament folder: give a league's folder"), "{stderr}");
}

/// `-j` far above the matches to play starts no more workers than matches (one thread each:
/// 2^62 of them never ended).
#[test]
fn a_huge_job_count_plays_as_many_workers_as_matches() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t").display().to_string();
    let (greedy, waiter) = (format!("greedy={}", bin("greedy")), format!("waiter={}", bin("waiter")));
    let (_, stderr, code) = tournament(&[
        "--bot",
        &greedy,
        "--bot",
        &waiter,
        "--map",
        &map("fire.txt"),
        "-j",
        "4611686018427387904",
        "--out",
        &out,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result_lines(Path::new(&out)), 2);
}

/// Every byte of every file under `dir`, a gzip file's decompressed (replays are gzip), and
/// a replay page's with the replay it embeds (gzip in base64) decompressed after it.
fn all_bytes(dir: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    for file in walk(dir).into_iter().filter(|p| p.is_file()) {
        let bytes = std::fs::read(&file).unwrap();
        if file.extension().is_some_and(|e| e == "gz") {
            flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut out).unwrap();
        } else {
            if let Some(embedded) = embedded_replay(&bytes) {
                out.extend(embedded);
            }
            out.extend(bytes);
        }
    }
    out
}

/// The replay JSON a league's replay page embeds (gzip in base64), if it is one.
fn embedded_replay(page: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use std::io::Read;
    let text = std::str::from_utf8(page).ok()?;
    let (_, rest) = text.split_once(r#"<script type="application/gzip+base64" id="replay">"#)?;
    let (data, _) = rest.split_once("</script>")?;
    let gz = base64::engine::general_purpose::STANDARD.decode(data).ok()?;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut json).ok()?;
    Some(json)
}

/// `page` with the replay it embeds replaced by `file` (gzip bytes), as a page of that replay.
fn with_embedded_replay(page: &str, file: &[u8]) -> String {
    use base64::Engine as _;
    let open = r#"<script type="application/gzip+base64" id="replay">"#;
    let (head, rest) = page.split_once(open).unwrap();
    let (_, tail) = rest.split_once("</script>").unwrap();
    format!("{head}{open}{}</script>{tail}", base64::engine::general_purpose::STANDARD.encode(file))
}

fn holds(bytes: &[u8], what: &str) -> bool {
    bytes.windows(what.len()).any(|w| w == what.as_bytes())
}

/// The names `leaderboard.json` gives the league's maps, sorted; and every map its matches name.
fn map_names(board: &Value) -> (Vec<String>, Vec<String>) {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut names: Vec<String> = board["facts"]["maps"].as_array().unwrap().iter().map(|m| text(&m["name"])).collect();
    names.sort();
    let mut used: Vec<String> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["matches"].as_array().unwrap().iter().map(|m| text(&m["map"])))
        .collect();
    used.sort();
    used.dedup();
    (names, used)
}

/// A league whose config names its maps by absolute paths under the teacher's home (a folder
/// called `secret-home-folder` here) shows no such path: no published file (pages, leaderboards,
/// results, replays) and no `arena leaderboard --json` holds the folder's name. A map is named
/// by its file name, two maps of one file name by their paths under the config's folder. The
/// control: the league's own record keeps the paths, with which it resumes.
#[test]
fn published_pages_name_maps_by_file_name_not_by_the_teacher_s_path() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("secret-home-folder/courses/2026");
    let pool = [("maps/arena1.txt", "fire.txt"), ("week2/arena1.txt", "jump.txt"), ("maps/tight.txt", "tight.txt")];
    let mut paths = Vec::new();
    for (to, from) in pool {
        let to = home.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(map(from), &to).unwrap();
        paths.push(format!("{:?}", to.display().to_string()));
    }
    let mut text = format!("seed = 5\ngames = 1\nsecret = \"s\"\nmaps = [{}]\n", paths.join(", "));
    for (name, command) in [("greedy", bin("greedy")), ("waiter", bin("waiter"))] {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    let cfg = home.join("class.toml");
    std::fs::write(&cfg, text).unwrap();
    let (league, public) = (home.join("league"), dir.path().join("public"));
    let (cfg_arg, league_arg, public_arg) =
        (cfg.display().to_string(), league.display().to_string(), public.display().to_string());
    let (_, stderr, code) = tournament(&["--config", &cfg_arg, "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    let secret = "secret-home-folder";
    let run = arena(&["publish", &league_arg, &public_arg]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(!holds(&all_bytes(&public), secret), "a published file names the teacher's folder");
    let json = arena(&["leaderboard", &league_arg, "--json"]);
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    assert!(!holds(&json.stdout, secret), "leaderboard --json names the teacher's folder");
    let board: Value = serde_json::from_slice(&json.stdout).unwrap();
    let expected = ["maps/arena1.txt", "tight.txt", "week2/arena1.txt"].map(String::from).to_vec();
    assert_eq!(map_names(&board), (expected.clone(), expected));
    let md = std::fs::read_to_string(public.join("leaderboard.md")).unwrap();
    assert!(md.contains(" on tight.txt (seat "), "{md}");
    // The control: the league's record keeps the paths, and resumes with them.
    assert!(holds(&std::fs::read(league.join("tournament.json")).unwrap(), secret));
    let (stdout, stderr, code) = tournament(&["--resume", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    assert!(summary_line(&stdout).starts_with("6 of 6 matches played (0 now, 6 kept"), "{stdout}");
}

/// A league folder the previous version wrote still loads, and publishes no map's path:
/// `tests/fixtures/old-league` was made by arena 3ef2763 (two bots, maps
/// `/home/jdoe/courses/2026/maps/arena1.txt` and `…/week2/arena1.txt` given by absolute paths,
/// which its record, results, leaderboards and every page hold; its `assets/` left out). Its
/// replay pages, which only a match writes, name the map anew in the published copy. The
/// control: the fixture's files hold the paths.
#[test]
fn a_league_folder_of_the_previous_version_loads_and_publishes_no_map_path() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league");
    let fixture = format!("{}/.", root().join("tests/fixtures/old-league").display());
    assert!(Command::new("cp").args(["-a", &fixture]).arg(&league).status().unwrap().success());
    let old = "/home/jdoe/";
    for file in ["tournament.json", "results.jsonl", "leaderboard.json", "index.html", "bots/alice.html"] {
        assert!(holds(&std::fs::read(league.join(file)).unwrap(), old), "the control: {file} holds the path");
    }
    let pages: Vec<PathBuf> =
        walk(&league.join("replays")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "html")).collect();
    assert!(pages.iter().all(|p| holds(&std::fs::read(p).unwrap(), old)), "the control: the replay pages hold it");
    let (league_arg, public) = (league.display().to_string(), dir.path().join("public"));
    let run = arena(&["publish", &league_arg, &public.display().to_string()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let published = all_bytes(&public);
    assert!(!holds(&published, "jdoe"), "a published file names the teacher's folder");
    for page in &pages {
        let copy = std::fs::read_to_string(public.join("replays").join(page.file_name().unwrap())).unwrap();
        assert!(
            copy.contains(r#"<div class="sub">maps/arena1.txt · "#)
                || copy.contains(r#"<div class="sub">week2/arena1.txt · "#),
            "{copy}"
        );
    }
    let json = arena(&["leaderboard", &league_arg, "--json"]);
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    assert!(!holds(&json.stdout, "jdoe"), "leaderboard --json names the teacher's folder");
    let board: Value = serde_json::from_slice(&json.stdout).unwrap();
    let expected = ["maps/arena1.txt", "week2/arena1.txt"].map(String::from).to_vec();
    assert_eq!(map_names(&board), (expected.clone(), expected));
    assert_eq!((board["matches"].as_u64(), board["complete"].as_bool()), (Some(4), Some(true)));
}

/// A league whose bots are given by commands under the teacher's home (a folder called
/// `secret-home-folder`) without `cwd`, one of whose bots cannot play (its folder is missing),
/// one whose build fails with an error naming its file by its absolute path, and one that
/// stands on the copy the league kept of it, publishes no such path: not in the replays (each
/// records its bots' commands), the replay pages that embed them, the leaderboards and pages
/// (a failure, a note), a withheld build log's first error, nor the results. A replay an
/// older arena wrote, with the command made absolute, is published without it too, and
/// every published replay still verifies. A command is shown as the config gives it
/// (`sh bots/alice/bot.sh`), a folder by its path under the config's folder. The control: the
/// league's own record keeps the paths.
#[test]
fn published_replays_and_failures_name_no_folder_of_the_teacher_s() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("secret-home-folder/courses/2026");
    for (bot, program) in [("alice", bin("greedy")), ("bob", bin("waiter")), ("erin", bin("random"))] {
        std::fs::create_dir_all(home.join("bots").join(bot)).unwrap();
        std::fs::write(home.join("bots").join(bot).join("bot.sh"), format!("exec {program:?}\n")).unwrap();
    }
    let bot =
        |name: &str, rest: &str| format!("[[bots]]\nname = {name:?}\ncommand = \"sh bots/{name}/bot.sh\"\n{rest}");
    let mut text = format!("seed = 5\ngames = 1\nsecret = \"s\"\nmaps = [{:?}]\n", map("fire.txt"));
    // (alice's build fails once `bots/alice/broken` exists: she then stands on her kept copy.)
    text.push_str(&bot("alice", "build = \"test ! -e bots/alice/broken\"\n"));
    text.push_str(&bot("bob", ""));
    text.push_str("[[bots]]\nname = \"carol\"\ncommand = \"./bot\"\ncwd = \"bots/carol\"\n");
    let error = format!("{}/bots/dave/bot.c:1:5: error: expected ';'", home.display());
    text.push_str(&bot("dave", &format!("build = {:?}\n", format!("echo \"{error}\" >&2; exit 1"))));
    let cfg = home.join("class.toml");
    std::fs::write(&cfg, &text).unwrap();
    let (league, public) = (home.join("league"), dir.path().join("public"));
    let (cfg_arg, league_arg, public_arg) =
        (cfg.display().to_string(), league.display().to_string(), public.display().to_string());
    let (_, stderr, code) = tournament(&["--config", &cfg_arg, "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    // A second week: alice's new version fails to build, erin joins and meets alice's kept copy.
    std::fs::write(home.join("bots/alice/broken"), "").unwrap();
    text.push_str(&bot("erin", ""));
    std::fs::write(&cfg, &text).unwrap();
    let (_, stderr, code) = tournament(&["--resume", &league_arg, "--config", &cfg_arg]);
    assert_eq!(code, 0, "{stderr}");
    let secret = "secret-home-folder";
    let replays: Vec<PathBuf> =
        walk(&league.join("replays")).into_iter().filter(|p| p.to_string_lossy().ends_with(".json.gz")).collect();
    assert_eq!(replays.len(), 2 + 4, "alice and bob, then erin against both");
    // One replay as an older arena wrote it: its bots' commands absolute, in its page too.
    let old = &replays[0];
    let mut replay: Value = serde_json::from_slice(&gunzip(&std::fs::read(old).unwrap())).unwrap();
    for player in replay["players"].as_array_mut().unwrap() {
        let name = player["name"].as_str().unwrap().to_string();
        player["command"] = format!("sh {}/bots/{name}/bot.sh", home.display()).into();
    }
    let file = gzip(&serde_json::to_vec(&replay).unwrap());
    std::fs::write(old, &file).unwrap();
    let page = old.with_file_name(old.file_name().unwrap().to_string_lossy().replace(".json.gz", ".html"));
    std::fs::write(&page, with_embedded_replay(&std::fs::read_to_string(&page).unwrap(), &file)).unwrap();
    let run = arena(&["publish", &league_arg, &public_arg]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let published = all_bytes(&public);
    let at = published.windows(secret.len()).position(|w| w == secret.as_bytes());
    let around = at.map(|i| String::from_utf8_lossy(&published[i.saturating_sub(200)..(i + 200).min(published.len())]));
    assert!(around.is_none(), "a published file names the teacher's folder: {around:?}");
    // What a student sees instead: the command as the config gives it, the folder under it.
    let board = leaderboard(&public);
    let carol = row(&board, "carol")["failure"].as_str().unwrap_or_default().to_string();
    assert_eq!(carol, "its folder bots/carol is missing");
    let dave = row(&board, "dave")["failure"].as_str().unwrap_or_default().to_string();
    assert!(dave.contains("bots/dave/bot.c:1:5: error: expected ';'"), "{dave}");
    let commands: Vec<String> = walk(&public.join("replays"))
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .flat_map(|p| {
            let replay: Value = serde_json::from_slice(&gunzip(&std::fs::read(&p).unwrap())).unwrap();
            let players = replay["players"].as_array().unwrap().clone();
            players.into_iter().map(|p| p["command"].as_str().unwrap_or_default().to_string())
        })
        .collect();
    for expected in ["sh bots/alice/bot.sh", "sh bots/bob/bot.sh", "sh bots/erin/bot.sh"] {
        assert!(commands.iter().any(|c| c == expected), "{expected} in {commands:?}");
    }
    // (Every bot plays from the league's copy of its version, alice's kept v1 too: each shown as configured.)
    assert!(!commands.iter().any(|c| c.contains("versions/")), "no copy's path: {commands:?}");
    // Every published replay, the one rewritten too, verifies; its page embeds it as it is.
    for file in walk(&public.join("replays")).into_iter().filter(|p| p.to_string_lossy().ends_with(".json.gz")) {
        let out = arena(&["verify", &file.display().to_string()]);
        assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stdout));
        let page = file.with_file_name(file.file_name().unwrap().to_string_lossy().replace(".json.gz", ".html"));
        let embedded = embedded_replay(&std::fs::read(&page).unwrap()).unwrap();
        assert_eq!(embedded, gunzip(&std::fs::read(&file).unwrap()), "{}", page.display());
    }
    // The control: the league's record, and the replay the older arena wrote, hold the paths.
    assert!(holds(&std::fs::read(league.join("tournament.json")).unwrap(), secret));
    assert!(holds(&gunzip(&std::fs::read(old).unwrap()), secret));
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A league an arena before gzip wrote keeps its replays as plain JSON (`replays/<key>.json`),
/// its bots' commands made absolute, and its replay pages embed them as JSON (as `arena view`
/// still writes a page): such a replay is published with its commands shown, in its file and
/// in its page (paired with `<key>.json` as with `<key>.json.gz`), and still verifies; one
/// without a page too. The control: the league's files keep the path.
#[test]
fn a_plain_json_replay_of_an_older_arena_is_published_with_its_commands_shown() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("secret-home-folder/courses/2026");
    std::fs::create_dir_all(&home).unwrap();
    let mut text = format!("seed = 5\ngames = 1\nsecret = \"s\"\nmaps = [{:?}]\n", map("tight.txt"));
    for (name, command) in [("greedy", bin("greedy")), ("waiter", bin("waiter"))] {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    let cfg = home.join("class.toml");
    std::fs::write(&cfg, text).unwrap();
    let (league, public) = (home.join("league"), dir.path().join("public"));
    let league_arg = league.display().to_string();
    let (_, stderr, code) = tournament(&["--config", &cfg.display().to_string(), "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    // Both replays as such an arena wrote them: plain JSON, their commands absolute; the first
    // with its page embedding it as JSON, the second without a page.
    let mut gz: Vec<PathBuf> =
        walk(&league.join("replays")).into_iter().filter(|p| p.to_string_lossy().ends_with(".json.gz")).collect();
    gz.sort();
    assert_eq!(gz.len(), 2);
    let mut plain = Vec::new();
    for file in &gz {
        let mut replay: Value = serde_json::from_slice(&gunzip(&std::fs::read(file).unwrap())).unwrap();
        for player in replay["players"].as_array_mut().unwrap() {
            let name = player["name"].as_str().unwrap().to_string();
            player["command"] = format!("{}/bots/{name}", home.display()).into();
        }
        let json = file.with_extension("");
        std::fs::write(&json, serde_json::to_vec(&replay).unwrap()).unwrap();
        std::fs::remove_file(file).unwrap();
        std::fs::remove_file(json.with_extension("html")).unwrap();
        plain.push(json);
    }
    // (`arena view` writes no page into a league's folder: it is written outside, then copied in.)
    let page = plain[0].with_extension("html");
    let outside = dir.path().join("page.html");
    let view = arena(&["view", &plain[0].display().to_string(), "-o", &outside.display().to_string()]);
    assert!(view.status.success(), "{}", String::from_utf8_lossy(&view.stderr));
    std::fs::copy(&outside, &page).unwrap();
    let run = arena(&["publish", &league_arg, &public.display().to_string()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for file in &plain {
        let published = public.join("replays").join(file.file_name().unwrap());
        let bytes = std::fs::read(&published).unwrap();
        assert!(!holds(&bytes, "secret-home-folder"), "{}", String::from_utf8_lossy(&bytes));
        let shown: Value = serde_json::from_slice(&bytes).unwrap();
        let mut commands: Vec<&str> =
            shown["players"].as_array().unwrap().iter().map(|p| p["command"].as_str().unwrap()).collect();
        commands.sort();
        assert_eq!(commands, ["bots/greedy", "bots/waiter"], "under the config's folder: relative to it");
        let out = arena(&["verify", &published.display().to_string()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        assert!(holds(&std::fs::read(file).unwrap(), "secret-home-folder"), "the control: the league's file");
    }
    // The page embeds the published file's JSON, and no command of the teacher's folders.
    let copy = std::fs::read_to_string(public.join("replays").join(page.file_name().unwrap())).unwrap();
    assert!(!copy.contains("secret-home-folder"), "{copy}");
    let open = r#"<script type="application/json" id="replay">"#;
    let (_, rest) = copy.split_once(open).expect("the replay, as JSON");
    let (embedded, _) = rest.split_once("</script>").unwrap();
    let file: Value =
        serde_json::from_slice(&std::fs::read(public.join("replays").join(plain[0].file_name().unwrap())).unwrap())
            .unwrap();
    assert_eq!(serde_json::from_str::<Value>(embedded).unwrap(), file);
    assert!(std::fs::read_to_string(&page).unwrap().contains("secret-home-folder"), "the control: the league's page");
}

/// `arena view` of a league's replay never replaces the league's page of it (which links back to
/// the leaderboard and both bots, and is what `arena publish` publishes): the page current, it
/// is the page shown, untouched; stale (another match's) or missing, a page is written to the
/// cache folder instead, and the league's stays as it was; `-o` into the league's `replays/` is
/// refused. The control: the same replay copied out of the league gets its page beside it, as
/// every replay did (the league's page was overwritten so, with a 67 KB page without links).
#[test]
fn viewing_a_league_replay_leaves_the_league_page_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &[("greedy", bin("greedy")), ("waiter", bin("waiter"))], &[&map("tight.txt")], "");
    let league = dir.path().join("league");
    let (_, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let mut replays: Vec<PathBuf> =
        walk(&league.join("replays")).into_iter().filter(|p| p.to_string_lossy().ends_with(".json.gz")).collect();
    replays.sort();
    assert_eq!(replays.len(), 2);
    let (replay, other) = (&replays[0], &replays[1]);
    let page = league
        .join("replays")
        .join(format!("{}.html", replay.file_name().unwrap().to_string_lossy().trim_end_matches(".json.gz")));
    let cache = dir.path().join("cache");
    let view = |args: &[&str]| {
        let out = Command::new(bin("arena")).env("XDG_CACHE_HOME", &cache).arg("view").args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let cached = cache.join("arena/view").join(page.file_name().unwrap());
    let league_page = std::fs::read(&page).unwrap();
    assert!(holds(&league_page, "../index.html"), "the league's page links back");

    // Current: the league's page is the one shown, as it was; nothing is written.
    let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), page.display().to_string(), "{stderr}");
    assert!(stderr.contains("the league's own page of this match"), "{stderr}");
    assert_eq!(std::fs::read(&page).unwrap(), league_page);
    assert!(!cached.exists());

    // Stale (the other match's page in its place): left so, the page written to the cache.
    let others = std::fs::read(other.with_extension("").with_extension("html")).unwrap();
    std::fs::write(&page, &others).unwrap();
    let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), cached.display().to_string(), "{stderr}");
    assert!(
        stderr.contains("is not the one the league writes of this replay") && stderr.contains("cache folder"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&page).unwrap(), others, "the league's file is left as it is");
    let standalone = std::fs::read(&cached).unwrap();
    assert!(holds(&standalone, r#"<script type="application/json" id="replay">"#), "a standalone page");

    // A page of someone's holding the replay's bytes where the league's page holds them, and a
    // script of theirs: not the league's own page (the older check, that the page held the
    // bytes so, took it for it), so a page is written to the cache. A FIFO there is not waited on.
    use base64::Engine as _;
    let data = base64::engine::general_purpose::STANDARD.encode(std::fs::read(replay).unwrap());
    let forged = format!(
        "<h1>waiter WINS</h1><script>alert(1)</script><div hidden><script type=\"application/gzip+base64\" id=\"replay\">{data}</script></div>"
    );
    assert!(
        String::from_utf8_lossy(&league_page).contains(&forged[forged.find("<script type").unwrap()..forged.len() - 6]),
        "the control: the older check's mark"
    );
    std::fs::write(&page, &forged).unwrap();
    std::fs::remove_file(&cached).unwrap();
    let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), cached.display().to_string(), "{stderr}");
    assert_eq!(std::fs::read(&cached).unwrap(), standalone);
    std::fs::remove_file(&page).unwrap();
    let made = Command::new("mkfifo").arg(&page).status().unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok && started.elapsed() < std::time::Duration::from_secs(60), "{stderr}");
    assert_eq!(stdout.trim(), cached.display().to_string(), "{stderr}");
    std::fs::remove_file(&page).unwrap();
    std::fs::write(&page, &league_page).unwrap();
    let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok && stdout.trim() == page.display().to_string(), "the league's own again: {stderr}");

    // The page the league's own, but a script it loads from the folder's assets/ replaced by
    // someone's (the viewer, or the game's renderer), a link to the genuine file, or assets/ a
    // link to a copy of the genuine folder: not vouched for (`--open` would run that script), so
    // a page is written to the cache. The control: the genuine assets back, the page is trusted.
    let assets = league.join("assets");
    let scripts: Vec<PathBuf> = walk(&assets)
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(".js") && (name.starts_with("viewer.") || name.starts_with("render-"))
        })
        .collect();
    assert!(scripts.iter().any(|p| p.file_name().unwrap().to_string_lossy().starts_with("viewer.")), "{scripts:?}");
    let page_text = String::from_utf8_lossy(&league_page).into_owned();
    let trusted = |why: &str| {
        let _ = std::fs::remove_file(&cached);
        let (ok, stdout, stderr) = view(&[&replay.display().to_string()]);
        assert!(ok, "{why}: {stderr}");
        assert_eq!(std::fs::read(&page).unwrap(), league_page, "{why}: the league's page is left as it is");
        let own = stdout.trim() == page.display().to_string();
        assert_eq!(own, stderr.contains("the league's own page of this match"), "{why}: {stderr}");
        assert_eq!(!own, stdout.trim() == cached.display().to_string() && cached.exists(), "{why}: {stderr}");
        (own, stderr)
    };
    for script in &scripts {
        let name = script.file_name().unwrap().to_string_lossy().into_owned();
        assert!(page_text.contains(&format!("\"../assets/{name}\"")), "the page loads {name}");
        let genuine = std::fs::read(script).unwrap();
        std::fs::write(script, "alert('pwned');\n").unwrap();
        let (own, stderr) = trusted(&format!("{name} replaced"));
        assert!(!own && stderr.contains("loads from the folder's assets/ is not the arena's own"), "{stderr}");
        let kept = dir.path().join(&name);
        std::fs::write(&kept, &genuine).unwrap();
        std::fs::remove_file(script).unwrap();
        std::os::unix::fs::symlink(&kept, script).unwrap();
        assert!(!trusted(&format!("{name} a link to the genuine file")).0);
        std::fs::remove_file(script).unwrap();
        std::fs::write(script, &genuine).unwrap();
        assert!(trusted(&format!("{name} genuine again (the control)")).0);
    }
    let moved = dir.path().join("assets-copy");
    std::fs::rename(&assets, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &assets).unwrap();
    assert!(!trusted("assets/ a link to the genuine folder").0);
    std::fs::remove_file(&assets).unwrap();
    std::fs::rename(&moved, &assets).unwrap();
    assert!(trusted("assets/ the folder again (the control)").0);

    // Missing: none is written into the league's folder.
    std::fs::remove_file(&page).unwrap();
    let _ = std::fs::remove_file(&cached);
    let (ok, _, stderr) = view(&[&replay.display().to_string()]);
    assert!(ok && stderr.contains("there is no page of it there yet"), "{stderr}");
    assert!(!page.exists() && cached.exists());

    // -o into the league's replays/ is refused, with a message and a non-zero exit.
    let (ok, _, stderr) = view(&[&replay.display().to_string(), "-o", &page.display().to_string()]);
    assert!(!ok && stderr.contains("a league's replays folder") && !page.exists(), "{stderr}");

    // The control: out of the league, the page is written beside the replay, replacing the file
    // there (the league's page, copied with it).
    let loose = dir.path().join("loose");
    std::fs::create_dir(&loose).unwrap();
    let copy = loose.join(replay.file_name().unwrap());
    std::fs::copy(replay, &copy).unwrap();
    let beside = loose.join(page.file_name().unwrap());
    std::fs::write(&beside, &league_page).unwrap();
    let (ok, stdout, stderr) = view(&[&copy.display().to_string()]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), beside.display().to_string());
    assert_eq!(std::fs::read(&beside).unwrap(), standalone, "the standalone page, over the league's copy");
}

/// A league resumed without `--config` whose config file has changed since it was made says so
/// in one line, with what changed and the command that uses it (the edit is otherwise ignored
/// without a word, as docs/tournaments.md says), its paths relative to the current folder where
/// they lie in it; the controls: nothing when the file is as the league holds it (edited back),
/// nor when it is gone.
#[test]
fn resuming_without_config_says_when_the_config_file_has_changed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("maps")).unwrap();
    for name in ["tight.txt", "fire.txt"] {
        std::fs::copy(map(name), dir.path().join("maps").join(name)).unwrap();
    }
    let mut text = "seed = 5\ngames = 1\nmaps = [\"maps/tight.txt\"]\n".to_string();
    for (name, command) in [("greedy", bin("greedy")), ("waiter", bin("waiter"))] {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    let cfg = dir.path().join("class.toml");
    std::fs::write(&cfg, text).unwrap();
    let league = dir.path().join("league");
    let (league_arg, cfg_arg) = (league.display().to_string(), cfg.display().to_string());
    let (_, stderr, code) = tournament(&["--config", &cfg_arg, "--out", &league_arg]);
    assert_eq!(code, 0, "{stderr}");
    let said = || {
        let (_, stderr, code) = tournament(&["--resume", &league_arg]);
        assert_eq!(code, 0, "{stderr}");
        stderr
            .lines()
            .filter(|l| l.contains("has changed since this league was made"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(said(), Vec::<String>::new(), "the control: unchanged");
    let original = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, original.replace(r#""maps/tight.txt""#, r#""maps/tight.txt", "maps/fire.txt""#)).unwrap();
    assert_eq!(
        said(),
        [format!(
            "{cfg_arg} has changed since this league was made (maps: +maps/fire.txt); to use it: arena tournament \
             --resume {league_arg} --config {cfg_arg}"
        )]
    );
    // Run from the config's folder: its paths as they can be pasted there, relative (the
    // league keeps the file's absolute path, which the line gave).
    let out = arena_in(dir.path(), &["tournament", "--resume", "league"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().any(|l| l
            == "class.toml has changed since this league was made (maps: +maps/fire.txt); to use it: arena \
                tournament --resume league --config class.toml"),
        "{stderr}"
    );
    assert_eq!(result_lines(&league), 2, "the edit is not played without --config");
    std::fs::write(&cfg, &original).unwrap();
    assert_eq!(said(), Vec::<String>::new(), "the control: edited back");
    std::fs::remove_file(&cfg).unwrap();
    assert_eq!(said(), Vec::<String>::new(), "the control: gone");
}

/// A course folder copied whole (`cp -a`, as a CI job's checkout at another path is) resumes
/// its league without saying that its config changed: the league compares the copy's config
/// file, not the original's, whose every path differs (it said "maps: -/old/maps/tight.txt
/// +maps/tight.txt; bots: ~greedy ~waiter" and offered the original's config, whose bots are
/// the original course's). The control: an edit of the copy's file is said, naming that file.
#[test]
fn a_copied_course_resumes_without_a_false_config_change() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir_all(course.join("maps")).unwrap();
    std::fs::copy(map("tight.txt"), course.join("maps/tight.txt")).unwrap();
    std::fs::copy(bin("waiter"), course.join("waiter")).unwrap();
    let mut text = "seed = 5\ngames = 1\nmaps = [\"maps/tight.txt\"]\n".to_string();
    text.push_str(&format!("[[bots]]\nname = \"greedy\"\ncommand = {:?}\n", bin("greedy")));
    text.push_str("[[bots]]\nname = \"waiter\"\ncommand = \"./waiter\"\n");
    std::fs::write(course.join("class.toml"), &text).unwrap();
    let (cfg, league) = (course.join("class.toml"), course.join("league"));
    let (_, stderr, code) =
        tournament(&["--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let copy = dir.path().join("copy");
    assert!(Command::new("cp").args(["-a"]).arg(&course).arg(&copy).status().unwrap().success());
    let said = || {
        let (_, stderr, code) = tournament(&["--resume", &copy.join("league").display().to_string()]);
        assert_eq!(code, 0, "{stderr}");
        stderr.lines().filter(|l| l.contains("has changed since")).map(String::from).collect::<Vec<_>>()
    };
    assert_eq!(said(), Vec::<String>::new(), "nothing changed");
    std::fs::write(copy.join("class.toml"), text.replace("games = 1", "games = 2")).unwrap();
    let changed = said();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].contains(&copy.join("class.toml").display().to_string()), "the copy's file: {changed:?}");
}

/// Every file of `dir` (and its subfolders) is whole: JSON parses, gzip decodes to JSON, a
/// results file ends with its last line's newline. A `.tmp-*` file is allowed: the next run
/// removes it.
fn every_file_is_whole(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let (path, name) = (entry.path(), entry.file_name().to_string_lossy().into_owned());
        if entry.file_type().unwrap().is_dir() {
            if name != "versions" {
                every_file_is_whole(&path);
            }
            continue;
        }
        if name.starts_with(".tmp-") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let json = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).is_ok();
        let whole = if name.ends_with(".json.gz") {
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).is_ok() && json(&text)
        } else if name.ends_with(".json") {
            json(&bytes)
        } else if name.ends_with(".jsonl") {
            bytes.last().is_none_or(|&b| b == b'\n') && bytes.split(|&b| b == b'\n').all(|l| l.is_empty() || json(l))
        } else {
            true
        };
        assert!(whole, "{} is not whole", path.display());
    }
}

/// A league killed (SIGKILL, the whole process group) at several points fixed by its own
/// progress (when its record appears, after the 1st, 5th and 11th result) leaves only whole
/// files, and `--resume` keeps every result recorded, plays each other match once, and ends on
/// the uninterrupted run's leaderboard.
#[test]
fn killed_at_any_of_several_points_a_league_resumes_to_the_same_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let bots = vec![
        ("greedy", bin("greedy")),
        ("waiter", bin("waiter")),
        ("random", bin("random")),
        ("greedy2", bin("greedy")),
    ];
    let cfg = config(dir.path(), &bots, &["duel.txt", "fire.txt"], "jobs = 2").display().to_string();
    let whole = dir.path().join("whole");
    let (_, stderr, code) = tournament(&["--config", &cfg, "--out", &whole.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let expected = untimed(&leaderboard(&whole));
    assert_eq!(result_lines(&whole), 24);
    for after in [0, 1, 5, 11] {
        let cut = dir.path().join(format!("cut-{after}"));
        let mut child = Command::new(bin("arena"))
            .args(["tournament", "--config", &cfg, "--out", &cut.display().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !(if after == 0 { cut.join("tournament.json").exists() } else { result_lines(&cut) >= after }) {
            assert!(child.try_wait().unwrap().is_none(), "the league ended before the kill point {after}");
            assert!(start.elapsed() < Duration::from_secs(60), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(unsafe { libc::killpg(child.id() as i32, libc::SIGKILL) }, 0);
        child.wait().unwrap();
        every_file_is_whole(&cut);
        let kept = result_lines(&cut);
        assert!(kept >= after && kept < 24, "killed at {after}: {kept} results");
        let (stdout, stderr, code) = tournament(&["--resume", &cut.display().to_string()]);
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let played = format!("24 of 24 matches played ({} now, {kept} kept", 24 - kept);
        assert!(stdout.contains(&played), "killed at {after}: nothing recorded is played again: {stdout}");
        assert_eq!(result_lines(&cut), 24);
        assert_eq!(untimed(&leaderboard(&cut)), expected, "killed at {after}");
        every_file_is_whole(&cut);
    }
}

/// A hand-edited `tournament.json` that could not be run (`jobs = 0`, a limit of 0 as older
/// arenas accepted, an unknown game) is refused by every command that would run or merge it,
/// not only by `--resume`: a non-zero exit and a message naming the file and the key. The
/// commands that only show the league (`leaderboard`, `publish`) show it with that message as a
/// warning, as its results are still its history, unless its game is unknown. The control: the
/// record as `arena build` wrote it is taken by each (the merge fails only because no match was
/// played), and no command warns of it.
#[test]
fn a_hand_edited_record_that_cannot_run_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cfg = config(d, &[("a", script("chatty.sh")), ("b", script("chatty.sh"))], &["tight.txt"], "jobs = 1");
    let league = d.join("league");
    let s = |p: &Path| p.display().to_string();
    let built = arena(&["build", &s(&cfg), "--out", &s(&league)]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let record = league.join("tournament.json");
    let written: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    // (The commands that show the league first: the resume of the control would play.)
    let commands = |n: usize| -> Vec<Vec<String>> {
        vec![
            vec!["leaderboard".into(), s(&league)],
            vec!["publish".into(), s(&league), s(&d.join(format!("site-{n}")))],
            vec!["merge".into(), s(&d.join(format!("merged-{n}"))), s(&league)],
            vec!["tournament".into(), "--resume".into(), s(&league)],
        ]
    };
    let run = |args: &[String]| {
        let out = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
        (out.status, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for args in &commands(0)[..3] {
        let (status, stderr) = run(args);
        assert!(status.success() || status.code() == Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("tournament.json"), "{args:?}: {stderr}");
    }
    for (n, (path, value, said, shown)) in [
        (&["jobs"][..], Value::from(0), "`jobs` must be at least 1", true),
        (&["limits", "move_ms"][..], Value::from(0), "[limits] `move_ms = 0` would forfeit every bot", true),
        (&["game"][..], Value::from("nope"), "`game`: unknown game `nope`", false),
    ]
    .into_iter()
    .enumerate()
    {
        let mut edited = written.clone();
        let mut at = &mut edited["config"];
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        std::fs::write(&record, serde_json::to_vec_pretty(&edited).unwrap()).unwrap();
        let message = format!("{}: {said}", record.display());
        for (i, args) in commands(n + 1).iter().enumerate() {
            let (status, stderr) = run(args);
            assert!(stderr.contains(&message), "{args:?}: {stderr}");
            if shown && i < 2 {
                assert!(status.success(), "{args:?} refused {path:?}: {stderr}");
                assert!(stderr.contains("runs and resumes refuse it until a config mends it"), "{stderr}");
            } else {
                assert!(!status.success() && status.code() != Some(2), "{args:?} took {path:?}: {stderr}");
            }
        }
        if shown {
            assert!(d.join(format!("site-{}/index.html", n + 1)).is_file(), "{path:?}: published");
        }
        // A new config given to the resume replaces the record's: it runs, and mends the record.
        let mended = arena(&["tournament", "--resume", &s(&league), "--config", &s(&cfg)]);
        let stderr = String::from_utf8_lossy(&mended.stderr);
        assert!(mended.status.success(), "{path:?}: resumed with a new config: {stderr}");
        let (status, stderr) = run(&commands(0)[0]);
        assert!(status.success() && !stderr.contains("tournament.json"), "{path:?}: mended: {stderr}");
    }
}

/// A new league's first run says, before it plays, which bots cannot play and why (one line
/// each, as a resume says a change); before, only its final table did. The controls: a bot
/// that builds gets no such line, a resume with nothing changed says nothing, and `arena
/// build` (which lists them on stdout itself) does not say them twice.
#[test]
fn a_first_run_says_which_bots_cannot_play_before_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = format!("seed = 5\ngames = 1\nmaps = [{:?}]\n", map("fire.txt"));
    for (name, command) in [("greedy", bin("greedy")), ("waiter", bin("waiter"))] {
        cfg.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    cfg.push_str("[[bots]]\nname = \"broken\"\ncommand = \"./nope\"\nbuild = \"echo 'main.c:3: error' >&2; exit 2\"\n");
    cfg.push_str("[[bots]]\nname = \"gone\"\ncwd = \"nobody\"\ncommand = \"./bot\"\n");
    let config = dir.path().join("league.toml");
    std::fs::write(&config, cfg).unwrap();
    let (config, out) = (config.display().to_string(), dir.path().join("out").display().to_string());
    let (_, stderr, code) = tournament(&["--config", &config, "--out", &out]);
    assert_eq!(code, 0, "{stderr}");
    let at =
        |start: &str| stderr.lines().position(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{start}: {stderr}"));
    let broken = at("change: broken cannot play: build `echo 'main.c:3: error' >&2; exit 2` failed");
    let gone = at("change: gone cannot play: its folder nobody is missing");
    let plan = at("plan: 2 matches to play");
    assert!(broken < plan && gone < plan, "said before it plays: {stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("change: ")).count(), 2, "{stderr}");
    let (_, stderr, code) = tournament(&["--config", &config, "--resume", &out]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("change: "), "the control: nothing changed, nothing said: {stderr}");
    let built = arena(&["build", "--config", &config, "--out", &dir.path().join("built").display().to_string()]);
    let (stdout, stderr) = (String::from_utf8_lossy(&built.stdout), String::from_utf8_lossy(&built.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("gone cannot play: its folder")), "{stdout}");
    assert!(!stderr.contains("change: "), "`arena build` says it once: {stderr}");
}

/// With stderr captured (a CI log, `2> log`), the builds are not a silent minute: a line names
/// the bot whose build starts and one says how long it took (or that it failed), on stderr,
/// while stdout holds only the results. The control: a bot without a build gets no such line.
#[test]
fn a_captured_stderr_names_each_build_as_it_starts_and_ends() {
    let dir = tempfile::tempdir().unwrap();
    for bot in ["maker", "broken"] {
        std::fs::create_dir_all(dir.path().join(bot)).unwrap();
    }
    let waiter = bin("waiter");
    let text = format!(
        "seed = 5\ngames = 1\nmaps = [{:?}]\n\
         [[bots]]\nname = \"maker\"\ncwd = \"maker\"\nbuild = \"sleep 0.3 && touch built\"\ncommand = {waiter:?}\n\
         [[bots]]\nname = \"broken\"\ncwd = \"broken\"\nbuild = \"exit 3\"\ncommand = {waiter:?}\n\
         [[bots]]\nname = \"plain\"\ncommand = {waiter:?}\n",
        map("duel.txt")
    );
    let config = dir.path().join("class.toml");
    std::fs::write(&config, text).unwrap();
    let out = dir.path().join("league").display().to_string();
    let (stdout, stderr, code) = tournament(&["--config", &config.display().to_string(), "--out", &out]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix));
    let (start, end) = (at("building maker"), at("built maker in "));
    assert!(start.is_some() && end.is_some() && start < end, "{stderr}");
    let took: f64 = lines[end.unwrap()]["built maker in ".len()..].trim_end_matches(" s").parse().unwrap();
    assert!(took >= 0.3, "{stderr}");
    assert!(at("building broken").is_some() && at("the build of broken failed after ").is_some(), "{stderr}");
    assert!(at("plan: ").is_some_and(|plan| plan > end.unwrap()), "the builds come before the plan: {stderr}");
    // The control: the bot without a build is named by no build line, and stdout is the results'.
    let build_lines = lines.iter().filter(|l| l.starts_with("build") || l.starts_with("the build"));
    assert_eq!(build_lines.filter(|l| l.contains("plain")).count(), 0, "{stderr}");
    assert!(!stdout.lines().any(|l| l.starts_with("build") || l.starts_with("the build")), "{stdout}");
}

/// Ctrl-C during a league whose folder the config names (`out = "league"`, made absolute
/// against the config's folder): the resume line names it as the teacher can paste it where
/// they are, `--resume league` in the course folder, `--resume course/league` above it, and
/// that command resumes it. The control: run from a folder outside the course, the line keeps
/// the absolute path (a relative one would need `..`).
#[test]
fn ctrl_c_prints_a_resume_line_relative_to_where_the_teacher_is() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir_all(&course).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let cfg = config(&course, &slow_bots("0.011"), &["fire.txt"], "out = \"league\"");
    let league = course.join("league");
    let interrupted = |from: &Path, config: &str, out: Option<&str>| -> String {
        let _ = std::fs::remove_dir_all(&league);
        let mut command = Command::new(bin("arena"));
        command.current_dir(from).args(["tournament", "--config", config, "-j", "1"]);
        if let Some(out) = out {
            command.args(["--out", out]);
        }
        let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
        wait_for_results(&league, 2, &mut child);
        // SAFETY: a signal to the child this test started and has not reaped.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        stderr.lines().find(|l| l.starts_with("interrupted: resume with")).unwrap_or_default().to_string()
    };
    let line = interrupted(&course, "tournament.toml", None);
    assert!(line.ends_with(" tournament --resume league`"), "{line}");
    let (stdout, stderr, code) = {
        let out = arena_in(&course, &["tournament", "--resume", "league"]);
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played"), "{stdout}");
    let line = interrupted(dir.path(), "course/tournament.toml", None);
    assert!(line.ends_with(" tournament --resume course/league`"), "{line}");
    // The control: from outside the course, its absolute path.
    let line = interrupted(&elsewhere, &cfg.display().to_string(), None);
    assert!(line.ends_with(&format!(" tournament --resume {}`", league.display())), "{line}");
}

/// `--out` naming a folder of someone's that holds no league (a typo: `--out ~`) is refused by
/// `arena tournament` and `arena build`, exit 1, naming what it holds, the folder's modes and
/// entries as they were (a run made it and its folders private, 1777 to 1700, and wrote the
/// league among its files, exit 0). So are a config's `out = "."`, two copies of one map and a
/// bot's command no shell could split, before anything is written. The control: an empty
/// folder is run.
#[test]
fn a_league_never_takes_over_a_folder_holding_no_league() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join("public_html")).unwrap();
    std::fs::write(home.join("notes.txt"), "mine").unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::fs::set_permissions(home.join("public_html"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let modes = || {
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        (mode(&home), mode(&home.join("public_html")), std::fs::read_dir(&home).unwrap().count())
    };
    let bots = [("a", bin("waiter")), ("b", bin("waiter"))];
    let cfg = config(dir.path(), &bots, &["tight.txt"], "").display().to_string();
    let (out, cfg_arg) = (home.display().to_string(), cfg.clone());
    for args in [vec!["tournament", "--config", &cfg_arg, "--out", &out], vec!["build", &cfg_arg, "--out", &out]] {
        let run = arena(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("{out}: not a league's folder and not empty (it holds ")), "{stderr}");
        assert_eq!(modes(), (0o1777, 0o755, 2), "{args:?}: left as it was");
    }
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, stderr, code) = tournament(&["--config", &cfg, "--out", &empty.display().to_string()]);
    assert_eq!(code, 0, "the control: {stderr}");
    assert_eq!(result_lines(&empty), 2);
    // What a config holds that could never play, refused naming the file and the line.
    let refused = |text: &str| {
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, text).unwrap();
        let (_, stderr, code) = tournament(&["--config", &file.display().to_string()]);
        assert_eq!(code, 1, "{text}: {stderr}");
        stderr
    };
    let waiter = bin("waiter");
    let two = format!("[[bots]]\nname = \"a\"\ncommand = {waiter:?}\n[[bots]]\nname = \"b\"\ncommand = {waiter:?}\n");
    let tight = map("tight.txt");
    let stderr = refused(&format!("out = \".\"\nmaps = [{tight:?}]\n{two}"));
    assert!(stderr.contains("bad.toml:1: `out` is `.`: that is this file's own folder"), "{stderr}");
    let stderr = refused(&format!("maps = [{tight:?}, {tight:?}]\n{two}"));
    assert!(stderr.contains("tight.txt is the same file as"), "{stderr}");
    let quote = format!("{waiter} 'unterminated");
    let stderr = refused(&format!("maps = [{tight:?}]\n{two}[[bots]]\nname = \"c\"\ncommand = {quote:?}\n"));
    assert!(stderr.contains("bad.toml:9: bot `c`: `command = "), "{stderr}");
}

/// `--sandbox none` promises nothing (a root arena's bot is root), but an arena that is not root
/// holding ambient capabilities (a service's `AmbientCapabilities=`) no longer gives them to its
/// bots' programs, which kept them across their exec: each bot reads its `CapAmb`, empty. The
/// control: the same command, run by the same `setpriv` without the arena, holds
/// `CAP_SYS_ADMIN`. Root only (`setpriv` gives the capability); said and passed over otherwise.
#[test]
fn a_bot_without_a_sandbox_gets_no_ambient_capability() {
    use std::os::unix::fs::PermissionsExt;
    if skipped_unless_root("no ambient capability can be given here") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let arena = shared_copy(dir.path(), &bin("arena"));
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let as_nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+sys_admin"];
    let ambient = "--ambient-caps=+sys_admin";
    let said = |name: &str| dir.path().join(name);
    let read = |name: &str| std::fs::read_to_string(said(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let grep = |name: &str| format!("grep CapAmb /proc/self/status > {}", said(name).display());
    let control = Command::new("setpriv").args(as_nobody).arg(ambient).args(["sh", "-c", &grep("control")]).status();
    assert!(control.unwrap().success());
    assert_eq!(read("control").trim(), "CapAmb:\t0000000000200000", "the control: an exec keeps it");
    let bot = |name: &str| format!("sh -c '{}'", grep(name));
    let map = map("fire.txt");
    let out = Command::new("setpriv")
        .args(as_nobody)
        .arg(ambient)
        .arg(&arena)
        .current_dir(dir.path())
        .args(["duel", "--json", "--seed", "5", "--map", &map, "--no-replay", "--sandbox", "none"])
        .args([bot("one"), bot("two")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for name in ["one", "two"] {
        assert_eq!(read(name).trim(), "CapAmb:\t0000000000000000", "{name}: no ambient capability");
    }
}

/// A plain build of an arena that is not root (here root's test runs it as `nobody`, or the test
/// itself is not root) may not hide its descriptors behind a binary it made execute-only: one
/// that runs a binary it may not read is not dumpable, and the arena, of the same user, may not
/// read its `/proc/PID/fd` (nor count the pipes and sockets it holds: 4 x 500 full pipes, 125 MiB
/// and more, built under a `build_memory_mb` of 64 so). Such a build is stopped, told why, even
/// one that holds little. The controls: the same build whose binary stays readable builds with
/// few pipes, and is held to its memory with many; with the sandbox off, the execute-only one
/// builds (nothing is summed).
#[test]
fn a_plain_build_may_not_hide_behind_an_execute_only_binary() {
    // (Builds to be stopped hold their pipes half a minute: a loaded machine may take a while to
    // see them; the others 2 s.)
    let build = |pipes: u32, mode: &str, secs: u32| {
        format!("chmod {mode} pipes && ./pipes 4 {pipes} {secs} > said; chmod 755 pipes")
    };
    let built = |build: &str, sandbox: &str| -> (Value, String) {
        let settings = "build_memory_mb = 64";
        if as_root() {
            let (student, said, _) = built_by_nobody("pipes", PIPES_C, build, settings, sandbox);
            return (student, said);
        }
        let prepare = |folder: &Path| compiled_for_the_build(folder, "pipes", PIPES_C);
        let settings = format!("sandbox = \"{sandbox}\"\n{settings}");
        let (student, _, _) = build_in_prepared_folder(build, &settings, &prepare);
        (student, String::new())
    };
    for pipes in [500, 10] {
        let (student, _) = built(&build(pipes, "111", 30), "plain");
        let failure = student["failure"].as_str().unwrap_or_default();
        assert!(
            failure.contains("(`pipes`) cannot be looked at by the arena") && failure.contains("chmod 111"),
            "{pipes} pipes each: {student}"
        );
    }
    let (student, said) = built(&build(10, "755", 2), "plain");
    assert!(student["failure"].is_null(), "the control, readable: {student}");
    assert!(!as_root() || !said.is_empty(), "the control said what it held: {said:?}");
    let (student, _) = built(&build(500, "755", 30), "plain");
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "the control, readable: {student}");
    let (student, said) = built(&build(500, "111", 2), "none");
    assert!(student["failure"].is_null(), "the control, without the sandbox: {student}");
    assert!(!as_root() || !said.is_empty(), "the control, without the sandbox, said what it held: {said:?}");
}

/// Forks its first argument's processes, each of which maps its second argument's pages, never
/// touched (`MAP_NORESERVE`), every other one made writable so that none merge: a mapping of one
/// page each, kernel memory (its `vm_area_struct`) in no process's set, nor any page table. Then
/// says how many pages they mapped together, and holds them its third argument's seconds.
const MAPPINGS_C: &str = concat!(
    probe_c_gather!(),
    r#"#include <sys/mman.h>
int main(int argc, char **argv) {
    if (argc < 4) return 2;
    int procs = atoi(argv[1]), secs = atoi(argv[3]), ready[2];
    long pages = atol(argv[2]), page = sysconf(_SC_PAGESIZE);
    if (pipe(ready)) { perror("pipe"); return 1; }
    for (int p = 0; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid != 0) continue;
        char *at = mmap(NULL, pages * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (at == MAP_FAILED) { perror("mmap"); _exit(1); }
        long made = 0;
        for (long i = 0; i < pages; i++)
            if (i % 2 == 1 || mprotect(at + i * page, page, PROT_READ | PROT_WRITE) == 0) made++;
        hold(ready[1], made, secs);
    }
    close(ready[1]);
    return gather(ready[0], procs);
}
"#
);

/// The build of [`a_summed_build_is_held_to_its_mappings`]: 24 processes of `pages` one-page
/// mappings each (each process's address space is held to `mb`), held `secs` seconds, under
/// `build_memory_mb = mb`, plain; the student's row and what the build said. (Builds to be
/// stopped hold them half a minute: a loaded machine may take a while to make and see them.)
fn mappings_built(pages: u32, mb: u32, secs: u32) -> (Value, String) {
    plain_build_said("mappings", MAPPINGS_C, &format!("24 {pages} {secs}"), mb)
}

/// A summed build's mappings (a `vm_area_struct` and its share of the maple tree, some 245 bytes
/// each, measured here) are kernel memory in no process's set: a mapping of one page never
/// touched has no resident page nor page table either. A red team's 40 processes of 14,000 such
/// mappings each held 129 MiB under a `build_memory_mb` of 64, and it built. Each mapping counts
/// 256 bytes with its memory now: 24 processes of 14,000 (336,000, some 82 MiB counted) are
/// stopped under 64, while 24 of 1,000 (24,000: 6 MiB) build. The control: the 336,000 under 512
/// build (the build is stopped for what its mappings count, nothing else).
#[test]
fn a_summed_build_is_held_to_its_mappings() {
    let (student, _) = mappings_built(14_000, 64, 30);
    let failure = student["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("held more than 64 MiB of memory together"), "{student}");
    let (student, said) = mappings_built(1_000, 64, 5);
    assert!(
        student["failure"].is_null() && !said.starts_with("said 0 "),
        "24 x 1,000 mappings build: {student} {said}"
    );
    let (student, said) = mappings_built(14_000, 512, 5);
    assert!(student["failure"].is_null() && !said.starts_with("said 0 "), "the control, under 512: {student} {said}");
}
