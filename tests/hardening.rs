//! Hardening, second round: what a bot or a bad input could do to a league or to a check,
//! beyond the box (tests/boxes.rs). Each attack is real; where the defence is a mode that can
//! be turned off, the test runs the control; where it is a fix in the arena's own logic, the
//! control is the unattacked run beside it.

use std::path::Path;

use arena_e2e::*;
use serde_json::Value;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn one_bot_with_an_unreadable_or_huge_file_does_not_brick_the_league() {
    let dir = tempfile::tempdir().unwrap();
    // A script replaced by a link to /proc/self/mem (reading it fails), and a bot naming a
    // sparse file of 1 GiB beyond the fingerprint's cap.
    let link = dir.path().join("bot.sh");
    std::os::unix::fs::symlink("/proc/self/mem", &link).unwrap();
    let huge = dir.path().join("weights.bin");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(1 << 30).unwrap();
    let bots = [
        format!("linked=sh {}", link.display()),
        format!("huge={} {}", bin("waiter"), huge.display()),
        format!("greedy={}", bin("greedy")),
        format!("waiter={}", bin("waiter")),
    ];
    let board = tournament(&dir.path().join("t"), &["--map", &map("fire.txt"), "-j", "2"], &bots);
    assert_eq!(board["matches"], 2, "greedy and waiter play each other from both sides");
    let rows = board["rows"].as_array().unwrap();
    for name in ["linked", "huge"] {
        let row = rows.iter().find(|r| r["bot"] == name).unwrap();
        assert!(row["failure"].is_string(), "{name} gets a clear row: {row}");
    }
    let huge_row = rows.iter().find(|r| r["bot"] == "huge").unwrap();
    assert!(huge_row["failure"].as_str().unwrap().contains("larger than"), "{huge_row}");
}

#[test]
fn a_very_long_bot_name_is_cut_in_file_names_only() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(300);
    let bots = [format!("{long}={}", bin("waiter")), format!("greedy={}", bin("greedy"))];
    let board = tournament(&dir.path().join("t"), &["--map", &map("fire.txt")], &bots);
    assert_eq!(board["matches"], 2);
    assert!(board["rows"].as_array().unwrap().iter().any(|r| r["bot"] == long.as_str()), "the name stays whole");
    for e in std::fs::read_dir(dir.path().join("t/replays")).unwrap().flatten() {
        assert!(e.file_name().len() < 200, "{:?}", e.file_name());
    }
}

#[test]
fn a_map_asking_for_billions_of_rounds_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let huge = write(dir.path(), "huge.txt", "ARENA 1 3 4294967295\n0 0\n0 0\n0 2\nMAP\n0 0 0\nEND_MAP\nSTREAM\n");
    let waiter = bin("waiter");
    let out = arena(&["duel", "--map", &huge, "--no-replay", &waiter, &waiter]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("{huge}:1: ROUNDS 4294967295 is out of range")), "{err}");
    // The control: the same map with 10 rounds plays.
    let fine = write(dir.path(), "fine.txt", "ARENA 1 3 10\n0 0\n0 0\n0 2\nMAP\n0 0 0\nEND_MAP\nSTREAM\n");
    assert!(arena(&["duel", "--map", &fine, "--no-replay", &waiter, &waiter]).status.success());
}

#[test]
fn map_files_that_are_not_plain_files_are_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.txt");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let waiter = bin("waiter");
    for bad in [fifo.display().to_string(), "/dev/zero".to_string(), dir.path().display().to_string()] {
        let out = arena(&["duel", "--map", &bad, "--no-replay", &waiter, &waiter]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(err.contains(&format!("{bad}: not a regular file")), "{err}");
    }
    let big = write(dir.path(), "big.txt", &"# padding\n".repeat(200_000));
    let out = arena(&["duel", "--map", &big, "--no-replay", &waiter, &waiter]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 1024 KiB"));
}

#[test]
fn a_padded_answer_is_stored_trimmed_with_its_length() {
    let dir = tempfile::tempdir().unwrap();
    // WAIT followed by 4000 vertical tabs, a legal answer.
    let script = write(
        dir.path(),
        "padded.sh",
        "pad=$(printf '%4000s' '' | tr ' ' '\\v')\nwhile read -r w r; do [ \"$w\" = TICK ] && printf 'WAIT%s\\n' \"$pad\"; done\n",
    );
    let (result, replay) = duel(dir.path(), "fire.txt", &[], [&format!("sh {script}"), &bin("greedy")]);
    assert_eq!(player(&result, 0).2, None, "a padded WAIT is a WAIT: {result}");
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let first = &rep["steps"][0]["replies"][0];
    assert_eq!(first["answer"], "WAIT");
    assert_eq!(first["raw_len"], 4004);
    let size = std::fs::metadata(&replay).unwrap().len();
    assert!(size < 40_000, "the replay stays small: {size} bytes");
}

#[test]
fn an_answer_padded_between_its_words_is_stored_as_its_words() {
    // A bot moving to and fro with 2,040 spaces between the words of each answer (4,086 bytes,
    // under the 4 KiB limit): both seats doing so on a 10,000-round map made an 85 MB replay,
    // which `arena verify` then refused. An answer the game took is stored as its words: the
    // replay is about the plain one's size, and verifies.
    let dir = tempfile::tempdir().unwrap();
    let map = write(dir.path(), "row.txt", "ARENA 3 3 200\n1 0\n1 2\n0 0\nMAP\n0 0 0\n0 0 0\n0 0 0\nEND_MAP\nSTREAM\n");
    let bot = write(
        dir.path(),
        "padder.sh",
        "pad=$(printf \"%${1}s\" '')\nn=0\nwhile read -r l; do n=$((n+1)); [ $n = 2 ] && start=$l; [ \"$l\" = STREAM ] && break; done\n\
         set -- $start\ni=0\nwhile read -r w rest; do [ \"$w\" = TICK ] || continue\n\
         printf 'MOVE%s %s%s %s\\n' \"$pad\" \"$1\" \"$pad\" $(($2 + (1 - i % 2)))\ni=$((i+1)); done\n",
    );
    let play = |width: usize| {
        let replay = dir.path().join(format!("padded-{width}.json"));
        let (replay_arg, padder) = (replay.display().to_string(), format!("sh {bot} {width}"));
        let out =
            arena(&["duel", "--json", "--seed", "1", "--map", &map, "--replay", &replay_arg, &padder, &bin("waiter")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(player(&result, 0).2, None, "a padded move is a move: {result}");
        let verified = arena(&["verify", &replay_arg]);
        assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
        let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
        let mine: Vec<Value> = rep["steps"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["replies"].as_array().unwrap().iter().filter(|r| r["player"] == 0).cloned())
            .collect();
        assert_eq!(mine.len(), 200, "it answered every tick");
        let stored: Vec<String> = mine.iter().map(|r| r["answer"].as_str().unwrap_or("").to_string()).collect();
        let sent: u64 = mine.iter().zip(&stored).map(|(r, a)| r["raw_len"].as_u64().unwrap_or(a.len() as u64)).sum();
        (std::fs::metadata(&replay).unwrap().len(), sent, stored)
    };
    let (plain, plain_sent, _) = play(0);
    let (padded, padded_sent, stored) = play(2039);
    // The control: the padded answers were sent in full, 800 KB, which were stored as sent.
    assert_eq!((plain_sent, padded_sent), (200 * 8, 200 * 4086));
    // 76,687 bytes against 69,478 here: a length per answer, and the last answer as sent.
    assert!(padded < plain + 16 * 1024, "the padded replay is {padded} bytes, the plain one {plain}");
    assert_eq!(stored[..2], ["MOVE 1 1", "MOVE 1 0"]);
    // The answer that ended its game (its last here; a refused one elsewhere) stays as evidence.
    assert_eq!(stored[199].len(), 4086, "the last answer is kept as sent");
}

/// The answers `player` gave in a replay: each as recorded, and the length it was sent with.
fn answers_of(rep: &Value, player: u64) -> Vec<(String, u64)> {
    let replies = rep["steps"].as_array().unwrap().iter().flat_map(|s| s["replies"].as_array().unwrap().iter());
    replies
        .filter(|r| r["player"] == player)
        .map(|r| {
            let answer = r["answer"].as_str().unwrap_or("").to_string();
            let sent = r["raw_len"].as_u64().unwrap_or(answer.len() as u64);
            (answer, sent)
        })
        .collect()
}

#[test]
fn an_answer_padded_with_zeros_is_stored_as_the_game_read_it() {
    // Greedy bots writing 2,000 zeros before every number (`MOVE 000…3 4`, legal) grew a
    // replay of the duel map tenfold (43 KB to 411 KB), and on a 10,000-round map past the
    // 64 MiB a replay may have. An answer the game took is stored as it read it (`MOVE 3 4`,
    // with the length sent): the replay is about the plain one's size, and verifies. The same
    // for Tactics' commands, 800 zeros before each of up to five numbers.
    let dir = tempfile::tempdir().unwrap();
    let play = |name: String, args: &[&str], bots: [String; 2]| {
        let replay = dir.path().join(format!("{name}.json"));
        let replay_arg = replay.display().to_string();
        let out =
            arena(&[&["duel", "--json", "--seed", "1", "--replay", &replay_arg], args, &[&bots[0], &bots[1]]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let verified = arena(&["verify", &replay_arg]);
        assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
        (result, rep, std::fs::metadata(&replay).unwrap().len())
    };
    let duel_map = map("duel.txt");
    let tactics = map("tactics/config_01.txt");
    let games: [(&[&str], &str, usize); 2] =
        [(&["--map", &duel_map], "greedy", 2000), (&["--game", "tactics", "--map", &tactics], "tactics-greedy", 800)];
    for (args, bot, zeros) in games {
        let padded = format!("{} {zeros} {}", script("zeropad.sh"), bin(bot));
        let (plain_result, plain, plain_size) = play(format!("{bot}-plain"), args, [bin(bot), bin(bot)]);
        let (result, rep, size) = play(format!("{bot}-padded"), args, [padded.clone(), padded]);
        let outcome = |r: &Value| [player(r, 0), player(r, 1)];
        assert_eq!(outcome(&result), outcome(&plain_result), "{bot}: padded answers are the same answers");
        let (mine, plain_mine) = (answers_of(&rep, 0), answers_of(&plain, 0));
        assert!(mine.len() > 8, "{bot}: {} answers", mine.len());
        // The control: every answer with a number was sent padded, near 4 KiB.
        let numbered = mine.iter().filter(|(a, _)| a.bytes().any(|b| b.is_ascii_digit())).count();
        assert!(mine.iter().filter(|(_, sent)| *sent > 2000).count() >= numbered, "{bot}: {mine:?}");
        assert!(numbered > 5, "{bot}: {mine:?}");
        // Stored as the plain bot's answers, the last (the one that ended its game) aside.
        let stored = |a: &[(String, u64)]| a[..a.len() - 1].iter().map(|(s, _)| s.clone()).collect::<Vec<_>>();
        assert_eq!(stored(&mine), stored(&plain_mine), "{bot}");
        assert!(size < plain_size + 16 * 1024, "{bot}: the padded replay is {size} bytes, the plain one {plain_size}");
    }
}

/// A replay of a short duel, as JSON to tamper with.
fn recorded(dir: &Path) -> (Value, std::path::PathBuf) {
    let (_, replay) = duel(dir, "fire.txt", &[], [&bin("greedy"), &bin("waiter")]);
    (serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap(), replay)
}

fn verify(path: &Path, replay: &Value) -> (bool, String) {
    std::fs::write(path, serde_json::to_vec(replay).unwrap()).unwrap();
    let out = arena(&["verify", &path.display().to_string()]);
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn verify_checks_answer_times_against_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let (replay, path) = recorded(dir.path());
    let (ok, text) = verify(&path, &replay);
    assert!(ok, "the control: the untouched replay verifies: {text}");
    // A 987 s answer recorded as accepted.
    let mut slow = replay.clone();
    slow["steps"][3]["replies"][0]["ms"] = 987_000.into();
    slow["steps"][3]["replies"][0]["cpu_ms"] = 987_000.into();
    let (ok, text) = verify(&path, &slow);
    assert!(!ok && text.contains("step 4: player 1: an answer after 987000 ms"), "{text}");
    // A "timeout" after 3 ms.
    let mut quick = replay.clone();
    let reply = &mut quick["steps"][0]["replies"][1];
    reply.as_object_mut().unwrap().remove("answer");
    reply["failure"] = "timeout".into();
    reply["ms"] = 3.into();
    reply["cpu_ms"] = 1.into();
    let (ok, text) = verify(&path, &quick);
    assert!(!ok, "{text}");
    assert!(text.contains("re-simulates") || text.contains("a timeout after 3 ms"), "{text}");
}

#[test]
fn verify_draws_the_dice_again_from_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lcr.json");
    let out =
        arena(&["duel", "--game", "lcr", "--players", "3", "--seed", "2", "--replay", &path.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replay: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let (ok, text) = verify(&path, &replay);
    assert!(ok, "the control: {text}");
    // The same dice under another seed: every step still re-simulates, but not from the seed.
    let mut other = replay.clone();
    other["seed"] = 3.into();
    let (ok, text) = verify(&path, &other);
    assert!(!ok && text.contains("but the seed 3 draws"), "{text}");
}

/// `arena view` and `arena export-save` check a replay as `arena verify` does: a forged result
/// (its page was headed with it), a game nobody hosts (shown as a table) or an edited move (a
/// save file of a game never played) is refused with verify's reason, exit 1 and no file
/// written. The control: the genuine replay gives its page and save file.
#[test]
fn view_and_export_save_refuse_a_replay_that_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("atoms.json");
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let args = ["duel", "--game", "atoms", "--size", "4x4", "--seed", "5", "--replay"];
    let out = arena(&[&args[..], &[&path.display().to_string(), &greedy, &random]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let genuine: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let file = dir.path().join("edited.json");
    let (page, save) = (dir.path().join("edited.html"), dir.path().join("game.sav"));
    let run = |replay: &Value| {
        std::fs::write(&file, serde_json::to_vec(replay).unwrap()).unwrap();
        let _ = (std::fs::remove_file(&page), std::fs::remove_file(&save));
        let view = arena(&["view", &file.display().to_string()]);
        let export = arena(&["export-save", &file.display().to_string(), &save.display().to_string()]);
        let said = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
        (view.status.success() && page.exists(), export.status.success() && save.exists(), said(&view), said(&export))
    };
    let (viewed, exported, view_err, export_err) = run(&genuine);
    assert!(viewed && exported, "the control: {view_err} {export_err}");
    let mut score = genuine.clone();
    score["result"]["players"][0]["score"] = 99.into();
    let mut chess = genuine.clone();
    chess["game"] = "chess".into();
    let mut moved = genuine.clone();
    let answer = &mut moved["steps"][2]["replies"][0]["answer"];
    *answer = if answer == "PLACE 0 0" { "PLACE 3 3" } else { "PLACE 0 0" }.into();
    for (forged, why) in [
        (score, "result: `players[0].score` is recorded as 99 but re-simulates to"),
        (chess, "cannot rebuild the game: unknown game `chess` (hosted: "),
        (moved, "step 3: "),
    ] {
        let (viewed, exported, view_err, export_err) = run(&forged);
        let reason = format!("{}: the replay does not re-simulate: ", file.display());
        for (made, err) in [(viewed, &view_err), (exported, &export_err)] {
            assert!(!made && err.contains(&reason) && err.contains(why), "{why}: {err}");
        }
        let (_, verified) = verify(&file, &forged);
        assert!(verified.contains(why), "verify says the same: {verified}");
    }
}

#[test]
fn verify_refuses_a_huge_file_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(65 << 20).unwrap();
    let out = arena(&["verify", &path.display().to_string()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 64 MiB"));
}

/// A compressed replay with bytes after its gzip stream (a download appended to, a copy
/// gone wrong) is refused by every command that reads replays, saying what and where: it said
/// "unexpected end of file", as if the replay were cut short. The control: the same replay
/// without them is read by all three.
#[test]
fn a_compressed_replay_with_trailing_bytes_is_refused_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json.gz");
    let path_arg = path.display().to_string();
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let args = ["duel", "--game", "atoms", "--size", "4x4", "--seed", "5", "--replay", &path_arg, &greedy, &random];
    let out = arena(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let genuine = std::fs::read(&path).unwrap();
    let save = dir.path().join("game.sav").display().to_string();
    let commands = [vec!["verify", &path_arg], vec!["view", &path_arg], vec!["export-save", &path_arg, &save]];
    for command in &commands {
        let out = arena(command);
        assert!(out.status.success(), "the control, {command:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let mut damaged = genuine.clone();
    damaged.extend_from_slice(b"garbage\n");
    std::fs::write(&path, &damaged).unwrap();
    let expected =
        format!("{path_arg}: 8 trailing bytes after the compressed replay (from byte {}): not a replay", genuine.len());
    for command in &commands {
        let out = arena(command);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(&expected), "{command:?}: {err}");
        assert!(!err.contains("unexpected end of file"), "{command:?}: {err}");
    }
}

#[test]
fn a_second_run_on_a_folder_being_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out_arg = out.display().to_string();
    let slow = format!("{} 0.02", script("slowpoke.sh"));
    let mut args = vec!["tournament".to_string(), "--out".into(), out_arg.clone(), "--map".into(), map("fire.txt")];
    for name in ["a", "b", "c"] {
        args.extend(["--bot".to_string(), format!("{name}={slow}")]);
    }
    let mut first = std::process::Command::new(bin("arena"))
        .current_dir(root())
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !out.join("tournament.json").exists() {
        assert!(start.elapsed().as_secs() < 30, "the first run started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = arena(&["tournament", "--resume", &out_arg]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success() && err.contains("is being written by another arena run"), "{err}");
    assert!(first.wait().unwrap().success());
    // The control: once the first run is over, resuming works (and finds everything done).
    let third = arena(&["tournament", "--resume", &out_arg]);
    assert!(third.status.success(), "{}", String::from_utf8_lossy(&third.stderr));
}

/// Whether this process may raise its hard resource limits (`CAP_SYS_RESOURCE`: root, unless a
/// container dropped it, as Docker does by default).
fn may_raise_hard_limits() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let effective = status.lines().find_map(|l| l.strip_prefix("CapEff:"));
    effective.and_then(|caps| u64::from_str_radix(caps.trim(), 16).ok()).is_some_and(|c| c >> 24 & 1 == 1)
}

/// The tasks (processes and threads) of this test's user now: what `RLIMIT_NPROC` counts.
fn user_tasks() -> u64 {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let mut tasks = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if entry.metadata().is_ok_and(|m| m.uid() == uid) {
            tasks += std::fs::read_dir(entry.path().join("task")).map_or(0, |t| t.count() as u64);
        }
    }
    tasks
}

/// A hard limit on the arena's user's processes (`RLIMIT_NPROC`, `ulimit -Hu`) below the bots'
/// process limit, which the arena may not raise, is said before anything starts, by a duel as by
/// a league: what is wrong (both limits), the flag and the config key, how to fix it, and a
/// status that is not 0. Before, each bot's process failed to set its limit: every match failed
/// as the machine's fault ("its resource limits could not be set"), after the builds. The
/// control: the same hard limit with the bots' limit under it plays.
#[test]
fn a_hard_process_limit_below_the_bots_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    // (Room for what this user runs now, other tests included: the arena's own threads count.)
    let hard = user_tasks() + 400;
    let over = (hard + 1).to_string();
    let under = "64";
    let nproc = format!("--nproc={hard}:{hard}");
    let limited = |args: &[&str]| {
        let out = std::process::Command::new("prlimit")
            .arg(&nproc)
            .arg(bin("arena"))
            .args(args)
            .current_dir(root())
            .output()
            .unwrap();
        (out.status, String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
    };
    let fire = map("fire.txt");
    let duel = |procs: &str| {
        limited(&["duel", "--map", &fire, "--no-replay", "--max-procs", procs, &bin("greedy"), &bin("random")])
    };
    let league = dir.path().join("league").display().to_string();
    let (greedy, random) = (format!("greedy={}", bin("greedy")), format!("random={}", bin("random")));
    let run = |procs: &str| {
        let args = ["tournament", "--out", &league, "--map", &fire, "--bot", &greedy, "--bot", &random];
        limited(&[&args[..], &["--max-procs", procs]].concat())
    };
    if may_raise_hard_limits() {
        eprintln!("this arena may raise its hard limits (CAP_SYS_RESOURCE): it plays over its hard limit");
        let (status, text) = duel(&over);
        assert!(status.success(), "{text}");
        return;
    }
    for (what, (status, text)) in [("duel", duel(&over)), ("league", run(&over))] {
        assert_eq!(status.code(), Some(1), "{what}: {text}");
        let said = format!(
            "the bots' process limit, {over} (--max-procs, `processes` in the config's [limits]), is more than this \
             arena's own hard limit on its user's processes ({hard}, `ulimit -Hu`)"
        );
        assert!(text.contains(&said), "{what}: {text}");
        assert!(text.contains(&format!("Give at most {hard}")) && text.contains("limits.conf"), "{what}: {text}");
        assert!(!text.contains("could not start"), "{what}: refused before any bot: {text}");
    }
    // The control.
    let (status, text) = duel(under);
    assert!(status.success() && text.contains("Winner"), "the control: {text}");
    let (status, text) = run(under);
    assert!(status.success(), "the control: {text}");
    let board = leaderboard(Path::new(&league));
    assert!(board["matches"].as_u64() > Some(0) && board["matches"] == board["scheduled"], "{text}");
}
