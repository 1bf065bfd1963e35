//! The 20 single-player tests: the checker through the real binary, course folders as they
//! really are, regeneration byte for byte, and the reference bot against greedy.

use arena_e2e::*;

fn run(args: &[&str]) -> (String, String, i32) {
    let out = arena(args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_reference_bot_passes_all_20_tests() {
    let (stdout, stderr, code) = run(&["test", &bin("reference")]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.contains("  PASS  ")).count(), 20, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("20 passed, 0 failed"));
}

#[test]
fn the_waiter_fails_every_test_with_a_reason() {
    let (stdout, _, code) = run(&["test", &bin("waiter")]);
    assert_eq!(code, 1, "any failure makes a non-zero exit");
    for line in stdout.lines().filter(|l| l.starts_with("test")) {
        assert!(line.contains("  FAIL  ") && line.contains("did not reach the final in"), "{line}");
    }
    assert_eq!(stdout.lines().last(), Some("0 passed, 20 failed"));
}

#[test]
fn json_output_is_the_reports_alone() {
    let (stdout, stderr, code) = run(&["test", &bin("greedy"), "--only", "2", "--json"]);
    assert_eq!(code, 1, "a failed test still fails the run");
    let reports: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let report = &reports[0];
    assert_eq!((report["number"].as_u64(), report["passed"].as_bool()), (Some(2), Some(false)), "{report}");
    assert!(stderr.contains("0 passed, 1 failed"), "the count goes to stderr: {stderr}");
}

#[test]
fn a_test_below_its_minimum_or_forfeited_says_so() {
    let (stdout, _, code) = run(&["test", &bin("greedy"), "--only", "2"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("below the minimum"), "{stdout}");
    let (stdout, _, _) = run(&["test", &script("garbage.sh"), "--only", "1"]);
    assert!(stdout.contains("forfeit malformed"), "{stdout}");
    let (_, stderr, code) = run(&["test", &bin("waiter"), "--only", "99"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("there is no test 99"), "{stderr}");
}

#[test]
fn a_crash_shows_the_bots_last_words_and_where_to_look() {
    let crasher = "sh -c 'echo starting >&2; echo \"Traceback: NameError: name x is not defined\" >&2; exit 1'";
    let (stdout, stderr, code) = run(&["test", crasher, "--only", "1"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("forfeit crash"), "{stdout}");
    assert!(stdout.contains("its stderr ends: Traceback: NameError: name x is not defined"), "{stdout}");
    assert!(stderr.contains("--logs DIR") && stderr.contains("arena check-bot 'sh -c"), "{stderr}");
    // A Python traceback: its last line, and the line of the bot that failed.
    let python = "python3 -c 'import sys\ndef f(g):\n    return g[99]\nsys.stdin.readline()\nf([])'";
    let (stdout, _, _) = run(&["test", python, "--only", "1"]);
    assert!(
        stdout.contains("its stderr ends: IndexError: list index out of range (at File \"<string>\", line 3, in f)"),
        "{stdout}"
    );
    // The control: a bot that plays on and only fails its test has no forfeit to explain.
    let (stdout, stderr, _) = run(&["test", &bin("waiter"), "--only", "1"]);
    assert!(!stdout.contains("its stderr ends") && !stderr.contains("check-bot"), "{stdout}{stderr}");
}

/// `--only K` of no test says which tests there are; from a folder without tests (the built-in
/// ones played) it is refused before their temporary folder is made, and names none (it named
/// that folder, removed by the time the message was read). The control: a folder of tests that
/// stays, the repository's maps/tests, is named.
#[test]
fn only_a_test_that_is_not_there_says_which_there_are() {
    let dir = tempfile::tempdir().unwrap();
    for k in ["0", "21"] {
        let out = arena_in(dir.path(), &["test", &bin("waiter"), "--only", k]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("there is no test {k}: the tests built into the arena are 1 to 20")),
            "{stderr}"
        );
        assert!(!stderr.contains("arena-tests-") && !stderr.contains("tests: the 20 built into"), "{stderr}");
    }
    let (_, stderr, code) = run(&["test", &bin("waiter"), "--only", "0"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("there is no test 0 in maps/tests: its tests are 1 to 20"), "the control: {stderr}");
}

/// From a folder with neither the repository's `maps/tests` nor a bot folder's `tests/`, `arena
/// test` plays the 20 tests built into the arena, and says so (it used to fail until given
/// `--tests`); in a bot folder made by `arena new-bot`, its `tests/`; a `--tests` folder that
/// is not there is an error that says where it was looked for.
#[test]
fn arena_test_from_another_folder_plays_the_tests_built_into_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena_in(dir.path(), &["test", &bin("greedy"), "--only", "1"]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("tests: the 20 built into the arena"), "{stderr}");
    assert!(stdout.contains("test01  PASS") && stdout.contains("1 passed, 0 failed"), "{stdout}");
    // In a bot folder made by `arena new-bot`, the tests are in tests/: those are played (here a
    // test1 of its own, which the built-in minimums would not judge alike).
    std::fs::create_dir_all(dir.path().join("tests")).unwrap();
    std::fs::copy(map("tight.txt"), dir.path().join("tests/test1.txt")).unwrap();
    let out = arena_in(dir.path(), &["test", &bin("greedy"), "--only", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/tests (give --tests DIR for others)") && stderr.contains("no minimum for test1"),
        "{stderr}"
    );
    let out = arena_in(dir.path(), &["test", &bin("greedy"), "--tests", "nowhere"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr.contains("nowhere: no such folder of tests (relative to") && stderr.contains("--tests DIR"),
        "{stderr}"
    );
}

#[test]
fn the_tests_regenerate_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    let (_, stderr, code) = run(&["gen-tests", "--seed", "1", "--out", &out]);
    assert_eq!(code, 0, "{stderr}");
    let committed = root().join("maps/tests");
    let mut compared = 0;
    for entry in std::fs::read_dir(&committed).unwrap().flatten() {
        let name = entry.file_name();
        let fresh = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(fresh == std::fs::read(entry.path()).unwrap(), "{name:?} differs from its regeneration");
        compared += 1;
    }
    assert_eq!(compared, 22, "20 tests, limite_minime.txt and README.md");
    let minimums = std::fs::read_to_string(committed.join("limite_minime.txt")).unwrap();
    assert_eq!(minimums.lines().count(), 20);
}

#[test]
fn course_folders_are_read_as_they_really_are() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("teste");
    std::fs::create_dir_all(course.join("input")).unwrap();
    // CRLF, trailing spaces, blank lines in the STREAM, `test01` in the minimums.
    let original = std::fs::read_to_string(root().join("maps/tests/test9.txt")).unwrap();
    let mut messy = String::new();
    for line in original.lines() {
        messy.push_str(line);
        messy.push_str("  \r\n");
        if line.starts_with("TICK 3 ") {
            messy.push_str("\r\n\r\n");
        }
    }
    std::fs::write(course.join("input/test1.txt"), messy).unwrap();
    std::fs::write(course.join("limite_minime.txt"), "test01 40\r\n\r\n").unwrap();
    let (transcripts, replays) = (dir.path().join("t"), dir.path().join("r"));
    let course_arg = course.display().to_string();
    let (stdout, stderr, code) = run(&[
        "test",
        &bin("reference"),
        "--tests",
        &course_arg,
        "--transcripts",
        &transcripts.display().to_string(),
        "--replays",
        &replays.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.starts_with("test01  PASS"), "{stdout}");
    assert!(stdout.contains("min      40"), "the minimum comes from test01: {stdout}");

    let transcript = std::fs::read_to_string(transcripts.join("test01.txt")).unwrap();
    assert!(transcript.starts_with("ARENA 8 8 30\n3 3\n7 7\n3 4\nMAP\n"), "{transcript}");
    assert!(transcript.contains("END_MAP\nSTREAM\nTICK 1 WAIT\nMOVE "), "each TICK then its answer: {transcript}");

    let replay = replays.join("test01.json").display().to_string();
    let (stdout, _, code) = run(&["verify", &replay]);
    assert_eq!(code, 0, "{stdout}");
    let (stdout, _, code) = run(&["replay", &replay, "--tick", "2"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("resource-rush-test") && stdout.contains("tick 2/30"), "{stdout}");

    let (stdout, _, code) = run(&["test", &bin("reference"), "--tests", &course_arg, "--piped"]);
    assert_eq!(code, 0, "the whole file at once works too: {stdout}");
    let (stdout, _, code) = run(&["test", &cpp_greedy(), "--tests", &course_arg, "--piped"]);
    assert!(stdout.contains("test01"), "a C++ bot reads the piped file: {stdout} ({code})");
}

/// `--piped` sends a test's whole file and then ends the bot's input, as `./bot < file` would:
/// a bot that reads to the end of its input before answering plays (control: sent one TICK at
/// a time, its input never ends, and it loses on time, told that it seems to wait for the end
/// of its input and to try `--piped`, where it was asked only whether it flushed stdout).
#[test]
fn a_piped_test_ends_the_input_of_a_bot_that_reads_it_all_first() {
    // test1's optimum (16): along the top row, down, back for the 5, down to the final.
    let bot = format!("{} 0,1 0,2 0,3 1,3 1,2 2,2 2,3", script("readall.sh"));
    let (stdout, stderr, code) = run(&["test", &bot, "--only", "1", "--piped"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.starts_with("test01  PASS  score      16"), "{stdout}");
    let (stdout, _, code) = run(&["test", &bot, "--only", "1"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("forfeit timeout: no answer within 5000 ms after TICK 1: it was idle (",)
            && stdout.contains("and answered only once its input ended: it seems to wait for the end of its input"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!(" test '{bot}' --piped` (each test file sent whole")), "{stdout}");
    assert!(!stdout.contains("did you flush stdout?"), "{stdout}");
}

#[test]
fn the_solver_answers_for_test_files() {
    let (stdout, _, code) = run(&["solve", &map("tests/test1.txt")]);
    assert_eq!(code, 0);
    assert_eq!(stdout.trim(), format!("{}: optimum 16 (exact)", map("tests/test1.txt")));
    let (stdout, _, _) = run(&["solve", &map("tests/test2.txt"), "--state-limit", "1000", "--cpu-seconds", "1"]);
    assert!(stdout.contains("best plan found") && stdout.contains("at most"), "{stdout}");
}

#[test]
fn the_reference_beats_greedy_in_a_duel_tournament_over_the_test_maps() {
    let dir = tempfile::tempdir().unwrap();
    let maps: Vec<String> = (1..=20).map(|k| format!("{:?}", map(&format!("tests/test{k}.txt")))).collect();
    let cfg = dir.path().join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "maps = [{}]\n[[bots]]\nname = \"reference\"\ncommand = {:?}\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n",
            maps.join(", "),
            bin("reference"),
            bin("greedy")
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let (stdout, stderr, code) =
        run(&["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let board = leaderboard(&out);
    assert_eq!(board["matches"], 40);
    assert_eq!(board["rows"][0]["bot"], "reference", "{}", board["rows"]);
    let (r, g) = (&board["rows"][0], &board["rows"][1]);
    assert!(r["total_score"].as_i64() > g["total_score"].as_i64());
    assert!(r["wins"].as_u64() > g["wins"].as_u64(), "{r}\n{g}");
}

#[test]
fn arena_test_keeps_each_tests_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let (logs, replays) = (dir.path().join("logs"), dir.path().join("replays"));
    let (logs_arg, replays_arg) = (logs.display().to_string(), replays.display().to_string());
    let bot = script("narrator.sh");
    let (stdout, stderr, code) = run(&["test", &bot, "--logs", &logs_arg, "--replays", &replays_arg]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    for k in 1..=20 {
        let name = format!("test{k:02}");
        let first = std::fs::read_to_string(root().join(format!("maps/tests/test{k}.txt"))).unwrap();
        let first = first.lines().next().unwrap().to_string();
        let rounds: usize = first.split_whitespace().last().unwrap().parse().unwrap();
        for folder in [&logs, &replays] {
            let log = std::fs::read_to_string(folder.join(format!("{name}.log"))).unwrap();
            assert!(log.starts_with("===== player 1 (narrator): stderr =====\n"), "{log}");
            assert!(log.contains(&format!("header: {first}\n")), "{name}'s own header, in {}: {log}", folder.display());
            assert_eq!(log.matches("got: TICK ").count(), rounds, "every TICK of {name}");
        }
    }
    // A bot that writes nothing still gets its file under --logs (saying so), none beside replays.
    let (logs_arg, replays_arg) = (dir.path().join("quiet").display().to_string(), dir.path().join("qr"));
    let (_, _, _) = run(&[
        "test",
        &bin("waiter"),
        "--only",
        "1",
        "--logs",
        &logs_arg,
        "--replays",
        &replays_arg.display().to_string(),
    ]);
    let log = std::fs::read_to_string(dir.path().join("quiet/test01.log")).unwrap();
    assert_eq!(log, "===== player 1 (waiter): wrote nothing to stderr =====\n\n");
    assert!(replays_arg.join("test01.json").exists() && !replays_arg.join("test01.log").exists());
}

#[test]
fn a_failed_test_names_its_cause_and_its_replay_shows_the_minimum_and_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().display().to_string();
    // Test 3's final is behind walls that only Jump crosses.
    let (stdout, _, code) = run(&["test", &bin("waiter"), "--only", "3", "--replays", &replays]);
    assert_eq!(code, 1);
    assert!(stdout.contains("never moved"), "{stdout}");
    assert!(stdout.contains("the final is unreachable without J"), "{stdout}");
    let (text, _, code) = run(&["replay", &dir.path().join("test03.json").display().to_string()]);
    assert_eq!(code, 0);
    let minimum = std::fs::read_to_string(root().join("maps/tests/limite_minime.txt")).unwrap();
    let minimum = minimum.lines().find_map(|l| l.strip_prefix("test3 ")).unwrap().trim().to_string();
    assert!(text.starts_with("resource-rush-test: P1 waiter\ntick 0/40  (test: minimum "), "{text}");
    assert!(text.contains(&format!("(test: minimum {minimum})")), "{text}");
    assert!(text.contains("result: waiter 0 (FAIL: did not reach the final in 40 ticks; never moved"), "{text}");
    assert!(!text.contains("draw"), "{text}");

    // Test 15's scripted opponent races for the power-ups: a nearest-resource bot is told so.
    let (stdout, _, _) = run(&["test", &bin("first-bot"), "--only", "15", "--replays", &replays]);
    assert!(stdout.contains("below the minimum") && stdout.contains("the opponent took "), "{stdout}");
    let (text, _, _) = run(&["replay", &dir.path().join("test15.json").display().to_string()]);
    assert!(text.contains("P2 took ") && text.contains(" first"), "the scripted opponent's takes are told: {text}");
    assert!(text.contains("(FAIL: below the minimum"), "{text}");

    let (stdout, _, code) = run(&["test", &bin("reference"), "--only", "1", "--replays", &replays]);
    assert_eq!(code, 0, "{stdout}");
    let (text, _, _) = run(&["replay", &dir.path().join("test01.json").display().to_string()]);
    assert!(text.trim_end().ends_with("(PASS)"), "{text}");
}

/// `arena test` refuses what would grade wrong or leak a secret test: a test without a
/// minimum (unless `--no-minimums`; the minimums beside an `input/` folder are found), outputs
/// where the bot's box shows it (for tests that are not the public ones); and a process may
/// think 5 s of CPU time a tick. The controls: the same runs with the minimums, with the
/// public tests, with the outputs elsewhere, and with `--max-cpu-s 10`.
#[test]
fn arena_test_refuses_what_would_grade_wrong_or_leak() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("secret");
    std::fs::create_dir_all(course.join("input")).unwrap();
    // test9 with a blank line added: not one of the public tests.
    let text = std::fs::read_to_string(root().join("maps/tests/test9.txt")).unwrap().replace("STREAM\n", "STREAM\n\n");
    std::fs::write(course.join("input/test1.txt"), text).unwrap();
    let student = dir.path().join("student");
    std::fs::create_dir_all(&student).unwrap();
    let script = student.join("limits.sh");
    std::fs::write(
        &script,
        "grep 'Max cpu time' /proc/self/limits >&2\nwhile read -r line; do case \"$line\" in TICK*) echo WAIT;; esac; done\n",
    )
    .unwrap();
    let bot = format!("sh {}", script.display());
    let (tests, input) = (course.display().to_string(), course.join("input").display().to_string());
    let (_, stderr, code) = run(&["test", &bot, "--tests", &tests]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no minimum for test1") && stderr.contains("--no-minimums"), "{stderr}");
    // Which of the two it is: the file is missing, or it has no line for the test.
    let minimums = course.join("limite_minime.txt");
    assert!(stderr.contains(&format!("({} does not exist)", minimums.display())), "{stderr}");
    std::fs::write(&minimums, "test2 40\n").unwrap();
    let (_, stderr, code) = run(&["test", &bot, "--tests", &tests]);
    assert_ne!(code, 0);
    assert!(stderr.contains(&format!("no minimum for test1 ({} has no line for it)", minimums.display())), "{stderr}");
    std::fs::remove_file(&minimums).unwrap();
    let (stdout, stderr, _) = run(&["test", &bot, "--tests", &tests, "--no-minimums"]);
    assert!(stdout.contains("test01  FAIL") && stdout.contains("min       -"), "played without one: {stdout}{stderr}");
    std::fs::write(course.join("limite_minime.txt"), "test1 40\n").unwrap();
    let (stdout, stderr, _) = run(&["test", &bot, "--tests", &input]);
    assert!(stdout.contains("min      40"), "the minimums beside input/: {stdout}{stderr}");

    // 30 rounds: 5 s of CPU time for each, and the start.
    let logs = dir.path().join("logs");
    let logs_arg = logs.display().to_string();
    let cpu = |extra: &[&str]| {
        let mut args = vec!["test", bot.as_str(), "--tests", tests.as_str(), "--logs", logs_arg.as_str()];
        args.extend_from_slice(extra);
        run(&args);
        std::fs::read_to_string(logs.join("test01.log")).unwrap()
    };
    assert!(cpu(&[]).split_whitespace().any(|w| w == "155"), "{}", cpu(&[]));
    assert!(cpu(&["--max-cpu-s", "10"]).split_whitespace().any(|w| w == "10"), "the control");

    // The box shows the bot its script's folder: no secret test's replay goes there.
    let inside = student.join("replays").display().to_string();
    let (_, stderr, code) = run(&["test", &bot, "--tests", &tests, "--replays", &inside]);
    assert_ne!(code, 0);
    assert!(stderr.contains("the bot's box shows it"), "{stderr}");
    assert!(!student.join("replays").exists(), "nothing was written there");
    // Nor do secret tests run where it could read them.
    let copy = student.join("secret");
    std::fs::create_dir_all(copy.join("input")).unwrap();
    std::fs::copy(course.join("input/test1.txt"), copy.join("input/test1.txt")).unwrap();
    std::fs::copy(course.join("limite_minime.txt"), copy.join("limite_minime.txt")).unwrap();
    let (_, stderr, code) = run(&["test", &bot, "--tests", &copy.display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("so it could read every test"), "{stderr}");
    // The controls: elsewhere, or the public tests (no secret to keep).
    let outside = dir.path().join("replays").display().to_string();
    let (stdout, stderr, _) = run(&["test", &bot, "--tests", &tests, "--replays", &outside]);
    assert!(stdout.contains("test01"), "{stdout}{stderr}");
    let public = root().join("maps/tests").display().to_string();
    let (stdout, stderr, _) = run(&["test", &bot, "--tests", &public, "--only", "1", "--replays", &inside]);
    assert!(stdout.contains("test01") && student.join("replays/test01.json").exists(), "{stdout}{stderr}");
}

/// `arena test` names how a crashed bot ended: a C bot's segmentation fault at TICK 3 (the
/// control: one that exits cleanly is not called one).
#[test]
fn a_test_names_the_signal_that_killed_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, _, code) = run(&["test", &segfaulting_c_bot(dir.path()), "--only", "1"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(
            "ticks    3  forfeit crash: the bot was killed by signal SIGSEGV (segmentation fault: an invalid memory \
             access, such as an index out of bounds or a null pointer)"
        ),
        "{stdout}"
    );
    let (stdout, _, _) = run(&["test", &format!("{} 2 0", script("dies.sh")), "--only", "1"]);
    assert!(stdout.contains("forfeit crash: the bot exited with status 0 (no error"), "{stdout}");
    assert!(!stdout.contains("SIGSEGV"), "{stdout}");
}

/// A timeout names the limit, the clock and the TICK, and whether the bot was idle (a bot
/// that waits: did it flush?) or busy computing (a loop), from the CPU time it used. An idle
/// bot whose answers, sent many TICK lines at once, arrive in a burst is told to flush, and
/// not sent to `--piped` (which is for a bot that waits for the end of its input).
#[test]
fn a_test_timeout_says_which_limit_and_whether_the_bot_was_busy() {
    let noflush = format!("python3 {} noflush", root().join("tests/bots/flawed.py").display());
    let [idle, busy, buffered] = std::thread::scope(|scope| {
        let idle = scope.spawn(|| run(&["test", &script("sleeper.sh"), "--only", "1"]).0);
        let busy = scope.spawn(|| run(&["test", &script("spinner.sh"), "--only", "1", "--clock", "cpu"]).0);
        let buffered = scope.spawn(|| run(&["test", &noflush, "--only", "1"]).0);
        [idle.join().expect("idle run"), busy.join().expect("busy run"), buffered.join().expect("noflush run")]
    });
    assert!(
        buffered.contains(
            "and answered in a burst when sent many TICK lines at once: its answer is stuck in its \
                           output buffer: flush stdout"
        ),
        "{buffered}"
    );
    assert!(!idle.contains("--piped") && !buffered.contains("--piped"), "{idle}{buffered}");
    assert!(idle.contains("forfeit timeout: no answer within 5000 ms after TICK 1: it was idle ("), "{idle}");
    assert!(
        idle.contains("waiting for input, or its answer is stuck in its output buffer: did you flush stdout?"),
        "{idle}"
    );
    assert!(
        busy.contains("forfeit timeout: no answer within 5000 ms of CPU time after TICK 1: it was busy computing ("),
        "{busy}"
    );
    assert!(busy.contains("a loop that never ends, or a search too slow") && !busy.contains("flush"), "{busy}");
}
