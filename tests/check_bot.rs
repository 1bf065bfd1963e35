//! `arena check-bot`: names the right problem, with its fix, for bots with one flaw each
//! (`tests/bots/flawed.py`), and finds nothing wrong with the control and the kits' bots.

use arena_e2e::*;

/// Runs check-bot on `bot`; returns its stdout and exit code.
fn check(bot: &str) -> (String, i32) {
    let out = arena(&["check-bot", bot]);
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

fn flawed(flaw: &str) -> String {
    format!("python3 {} {flaw}", root().join("tests/bots/flawed.py").display())
}

/// The report's line for one situation.
fn row<'a>(stdout: &'a str, situation: &str) -> &'a str {
    stdout.lines().find(|l| l.starts_with(situation)).unwrap_or("")
}

#[test]
fn good_bots_pass_with_no_problem() {
    let (stdout, code) = check(&flawed("good"));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("No problems found (1 note above).\n"), "{stdout}");
    for situation in ["seat 1", "seat 2", "CRLF input", "power-ups", "test mode"] {
        assert!(row(&stdout, situation).contains(" ok "), "{situation}: {stdout}");
    }
    // It only steps, so on the jump map it never moves: a note, not a problem.
    assert!(row(&stdout, "a jump").contains(" note "), "{stdout}");
    assert!(stdout.contains("take the J at (1, 1)"), "{stdout}");
    for kit in kits() {
        let (stdout, code) = check(&kit.greedy);
        assert_eq!(code, 0, "{}: {stdout}", kit.name);
        assert_eq!(stdout.matches(" ok ").count(), 6, "{}: every situation is clean: {stdout}", kit.name);
    }
}

#[test]
fn each_flaw_is_named_with_its_fix() {
    let table: &[(&str, &[&str])] = &[
        // Judged on the CPU clock, a duel's: an idle bot is ended by its backstop, 5x the limit.
        (
            "noflush",
            &[
                "printed nothing for 10000 ms on the clock (5x its 2000 ms of CPU time) after `TICK 1`",
                "does not flush stdout",
                "print(answer, flush=True)",
            ],
        ),
        (
            "stopflush",
            &[
                "printed nothing for 5000 ms on the clock (5x its 1000 ms of CPU time) after `TICK 3`, using only ",
                "did you flush stdout?",
            ],
        ),
        ("comma", &["you answered `MOVE 1,0` to `TICK 1`", "fix: write `MOVE 1 0`"]),
        ("extra", &["stderr", "one", "per TICK"]),
        // A debug line first is the answer to `TICK 1` itself: still named as debug output.
        (
            "debugfirst",
            &["you answered `debug: tick 1` to `TICK 1`", "if that line is debug output, write it to stderr"],
        ),
        ("crlfcrash", &["ends in `\\r\\n`", "ValueError", "only the `\\r` differs", "strip the trailing `\\r`"]),
        // Idle with CRLF input, where it answered with `\n`: told it waits on a line it does not
        // recognise for its `\r` (it was asked "did you flush stdout?" and told to flush).
        (
            "crlfwait",
            &[
                "it was still waiting for input, yet it answered `TICK 1` when the same lines ended in `\\n`",
                "with the `\\r` left on their end",
                "fix: strip the trailing `\\r` from every line you read",
            ],
        ),
        ("seats", &["line 2 of the header is always your own start"]),
        // Busy, not buffered: an endless loop is named as one (it was asked "did you flush stdout?").
        // (Its loop's own words are checked below, unless the machine starved it.)
        ("loop", &["of CPU time after `TICK 2`"]),
        // The same at tick 1: busy, so not told it waits for the end of its input (it was), which
        // the control, a bot that does wait for it, still is.
        ("loop1", &["computed for", "after the header and `TICK 1` and printed nothing"]),
        // A bot that reads its whole input first (as for `./bot < test1.txt`) answers once it
        // ends: told so, with the tests' `--piped`. It was told it does not flush (its answers
        // came in a burst once its input ended), or only that such a bot never answers.
        (
            "readall",
            &[
                "printed nothing after the header and `TICK 1`, not even in 10 s on the clock, nor when sent \
                 thousands of TICK lines at once, but answered once its input ended: it waits for the end of its \
                 input",
                "answer each TICK as soon as it arrives",
                " readall' --piped` sends each test file whole",
            ],
        ),
        // One that never answers at all: not sent to `--piped`, which would not help it.
        (
            "readexit",
            &[
                "printed nothing after the header and `TICK 1`, not even in 10 s on the clock",
                "waits for the end of its input",
            ],
        ),
    ];
    // The flaws are checked at once: most of the time goes into waiting out time limits.
    let reports: Vec<(String, i32)> = std::thread::scope(|scope| {
        let runs: Vec<_> = table.iter().map(|(flaw, _)| scope.spawn(move || check(&flawed(flaw)))).collect();
        runs.into_iter().map(|r| r.join().expect("check-bot run")).collect()
    });
    for ((flaw, phrases), (stdout, code)) in table.iter().zip(&reports) {
        assert_eq!(*code, 1, "{flaw}: a problem makes a non-zero exit\n{stdout}");
        for phrase in *phrases {
            assert!(stdout.contains(phrase), "{flaw}: expected {phrase:?} in\n{stdout}");
        }
        // A loop is told as one, with its fix; or, where the machine gave it less CPU time than
        // the limit before the clock ran out, told so (a test must not hang on the load).
        let starved = stdout.contains("as the machine was too busy to run it more");
        if ["loop", "loop1"].contains(flaw) {
            let said = if starved {
                vec!["run `arena check-bot` again when the machine is less busy"]
            } else {
                vec!["a loop that never ends", "read a clock"]
            };
            for phrase in said {
                assert!(stdout.contains(phrase), "{flaw}: expected {phrase:?} in\n{stdout}");
            }
        }
        if ["noflush", "readexit", "loop1"].contains(flaw) {
            assert!(!stdout.contains("--piped") && !stdout.contains("answered once its input ended"), "{stdout}");
        }
        if *flaw == "loop1" {
            assert!(!stdout.contains("waits for the end of its input"), "{stdout}");
        }
        // A silent start whose cause was named ends on that cause, not on "If it plays another
        // game" (which it did); the controls, a silence or a loop left unexplained (as a bot of
        // another game's may be), keep that ending.
        let other_game = stdout.contains("It never answered a prompt. If it plays another game");
        if ["noflush", "readall"].contains(flaw) {
            assert!(!other_game, "{flaw}: {stdout}");
        }
        if *flaw == "readexit" || (*flaw == "loop1" && !starved) {
            assert!(other_game, "{flaw}: {stdout}");
        }
        if *flaw == "crlfwait" {
            assert!(!stdout.contains("did you flush stdout?") && !stdout.contains("fix: flush stdout"), "{stdout}");
            // Said once: not again as "only the `\r` differs".
            assert!(!stdout.contains("only the `\\r` differs"), "{stdout}");
        }
        if ["crlfcrash", "crlfwait"].contains(flaw) {
            // The CRLF crash is pinned on CRLF input alone.
            assert!(row(stdout, "CRLF input").contains("PROBLEM"), "{stdout}");
            for situation in ["seat 1", "seat 2", "power-ups", "test mode"] {
                assert!(row(stdout, situation).contains(" ok "), "{situation}: {stdout}");
            }
        }
    }
}

/// A C bot that segfaults is told so, with the fix for an invalid memory access, not the
/// advice for a bot that misreads its input; the control, a bot that exits cleanly at the
/// same tick, keeps that advice.
#[test]
fn a_bot_killed_by_a_signal_gets_the_fix_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, code) = check(&segfaulting_c_bot(dir.path()));
    assert_eq!(code, 1, "{stdout}");
    let seat = row(&stdout, "seat 1");
    assert!(seat.contains("PROBLEM") && seat.contains("forfeit (crash) at tick 3"), "{stdout}");
    assert!(
        stdout.contains("your bot was killed by signal SIGSEGV (segmentation fault: an invalid memory access"),
        "{stdout}"
    );
    assert!(stdout.contains("`-g -fsanitize=address,undefined`") && stdout.contains("every array index"), "{stdout}");
    assert!(stdout.contains("against the map's size (N rows, M columns"), "Resource Rush's own words: {stdout}");
    assert!(!stdout.contains("read the header up to `STREAM`"), "{stdout}");
    let (stdout, _) = check(&format!("{} 2 0", script("dies.sh")));
    assert!(stdout.contains("your bot exited with status 0 (no error"), "{stdout}");
    assert!(stdout.contains("read the header up to `STREAM`") && !stdout.contains("sanitize"), "{stdout}");
}

/// A Python bot saved without its execute bit: check-bot fails, naming the fix for it,
/// `chmod +x` or `python3 FILE` (not `sh FILE`, which would run Python as a shell script).
#[test]
fn a_python_bot_without_its_execute_bit_is_told_to_run_through_python3() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.py");
    std::fs::copy(root().join("tests/bots/flawed.py"), &bot).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = arena(&["check-bot", &bot.display().to_string()]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{said}");
    let shown = bot.display();
    assert!(
        said.contains(&format!("`chmod +x {shown}`, or run it through its interpreter: `python3 {shown}`")),
        "{said}"
    );
    assert!(!said.contains(&format!("sh {shown}")), "{said}");
    // Said once, the system's reason before the advice, no brackets within brackets.
    assert_eq!(said.matches("Permission denied").count(), 1, "{said}");
    assert!(
        said.contains(&format!("cannot start `{shown}`: Permission denied")) && !said.contains("(it has"),
        "{said}"
    );
}

/// A script whose `#!` line cannot run, saved with Windows line endings (`#!/bin/sh\r`,
/// `#!/usr/bin/python3\r`: "No such file or directory" for a file that is there) or naming an
/// interpreter of another machine, is told what its `#!` line names and the fix; `arena duel`
/// says the same (one hint, the referee's). The control: the same script with LF line endings
/// starts (and passes).
#[test]
fn a_script_whose_interpreter_cannot_run_is_told_why() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    };
    let reference = bin("reference");
    // (Each runs the program its command names after it, which its box then shows.)
    let crlf = write("crlf.sh", "#!/bin/sh\r\nexec \"$1\"\r\n".to_string());
    let lf = write("lf.sh", "#!/bin/sh\nexec \"$1\"\n".to_string());
    let brew = write("brew.sh", "#!/opt/homebrew/bin/bash\nexec \"$1\"\n".to_string());
    let out = arena(&["check-bot", &crlf]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("its `#!` line names `/bin/sh\\r`, which does not exist"), "{said}");
    assert!(said.contains(&format!("Windows line endings: `sed -i 's/\\r$//' {crlf}` removes them")), "{said}");
    // Through `env`, the program starts and `env` fails: a crash, whose fix is the same check's.
    let env = write("env.sh", "#!/usr/bin/env sh\r\nexec \"$1\"\r\n".to_string());
    let (stdout, code) = check(&env);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("fix: `{env}` exists, but its `#!` line runs `sh\\r` through `env`")), "{stdout}");
    assert!(stdout.contains(&format!("Windows line endings: `sed -i 's/\\r$//' {env}` removes them")), "{stdout}");
    assert_eq!(stdout.matches("Windows line endings").count(), 1, "said once: {stdout}");
    let out = arena(&["check-bot", &brew]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("names `/opt/homebrew/bin/bash`, which is not on this machine"), "{said}");
    assert!(said.contains("(write `#!/usr/bin/env bash`)"), "bash is in /usr/bin or /bin: {said}");
    let map = map("duel.txt");
    let out = arena(&["duel", "--map", &map, &crlf, &reference]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("Windows line endings"), "{said}");
    let (stdout, code) = check(&format!("{lf} {reference}"));
    assert_eq!(code, 0, "the control, LF line endings: {stdout}");
    // `env` given the interpreter with an argument (`#!/usr/bin/env sh -e`): Linux passes `sh -e`
    // as one word, a program `env` does not find; the fix is `env -S` or the interpreter itself.
    // The control: the same line with `-S` starts (and passes).
    let one_word = write("oneword.sh", "#!/usr/bin/env sh -e\nexec \"$1\"\n".to_string());
    let (stdout, code) = check(&format!("{one_word} {reference}"));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("its `#!` line runs `sh -e` through `env`, which Linux passes to `env` as one word"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Write `#!/usr/bin/env -S sh -e` (`-S` splits it into words), or name the interpreter itself")
    );
    let split = write("split.sh", "#!/usr/bin/env -S sh -e\nexec \"$1\"\n".to_string());
    let (stdout, code) = check(&format!("{split} {reference}"));
    assert_eq!(code, 0, "the control, env -S: {stdout}");
}

/// A "program" that is a FIFO (a build can leave one): check-bot says it cannot start it and
/// ends, where it used to wait forever reading the file's first bytes for its advice (see
/// `files::tests::a_fifo_is_no_regular_file_and_is_not_waited_for` for the control).
#[test]
fn a_fifo_in_place_of_the_bot_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    assert!(std::process::Command::new("mkfifo").arg(&bot).status().unwrap().success());
    let out = arena(&["check-bot", &bot.display().to_string()]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains(&format!("cannot start `{}`", bot.display())), "{said}");
}

/// A Python bot with a syntax error is told Python never ran it, and where to fix it; and
/// `python3 bot.py` run from another folder than the bot's is told so, and `python3 bto.py`
/// from the bot's own the name it most likely meant. The first two were given the
/// advice for a bot that misreads its input. The control, the same bot crashing as it reads
/// (an error at run time), keeps that advice.
#[test]
fn a_python_bot_that_never_ran_is_told_why() {
    let dir = tempfile::tempdir().unwrap();
    let flawed = std::fs::read_to_string(root().join("tests/bots/flawed.py")).unwrap();
    let broken = flawed.replacen("def say(line):", "def say(line)", 1);
    assert_ne!(broken, flawed);
    std::fs::write(dir.path().join("bot.py"), broken).unwrap();
    let line = flawed.lines().position(|l| l.starts_with("def say(line):")).unwrap() + 1;
    let out = arena_in(dir.path(), &["check-bot", "python3 bot.py"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("SyntaxError"), "{said}");
    assert!(said.contains("Python could not compile your program, so it never ran"), "{said}");
    assert!(said.contains(&format!("bot.py\", line {line}")), "{said}");
    assert!(!said.contains("read the header up to `STREAM`"), "{said}");
    // From the folder above the bot's: Python cannot open the file.
    let here = dir.path().join("elsewhere");
    std::fs::create_dir(&here).unwrap();
    let out = arena_in(&here, &["check-bot", "python3 bot.py"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("the script `bot.py` that `python3` is to run does not exist in")
            && said.contains("run this from your bot's folder"),
        "{said}"
    );
    assert!(!said.contains("read the header up to `STREAM`"), "{said}");
    // From the bot's own folder, a typo of its name: the name a typo away, not "run it from your
    // bot's folder" alone (a newcomer was sent to change folders).
    let out = arena_in(dir.path(), &["check-bot", "python3 bto.py"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("the script `bto.py` that `python3` is to run does not exist in"), "{said}");
    assert!(said.contains("did you mean `bot.py`?"), "{said}");
    assert!(!said.contains("It never answered a prompt"), "{said}");
    // The control: a crash at run time, before the first answer.
    std::fs::write(dir.path().join("bot.py"), flawed.replacen("def say(line):", "int('x')\ndef say(line):", 1))
        .unwrap();
    let out = arena_in(dir.path(), &["check-bot", "python3 bot.py"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("ValueError") && said.contains("read the header up to `STREAM`"), "{said}");
    assert!(!said.contains("never ran") && !said.contains("does not exist"), "{said}");
}

/// A bot that crashes the same way in every situation: its stderr is shown once, in seat 1's
/// report, each other situation says only that it is the same crash (it was repeated six times),
/// and the crash is counted once. The control: a bot whose error differs on one map is told
/// there, with its own stderr.
#[test]
fn the_same_crash_s_stderr_is_shown_once() {
    let (stdout, code) = check("sh -c 'read l; echo \"Traceback: NameError: boom\" >&2; exit 1'");
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("PROBLEM").count(), 6, "{stdout}");
    assert_eq!(stdout.matches("Its last words on stderr:\n      Traceback: NameError: boom").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("(the same crash as in `seat 1`, above)").count(), 5, "{stdout}");
    assert_eq!(stdout.matches("    fix: ").count(), 1, "{stdout}");
    assert!(row(&stdout, "seat 1").contains("forfeit (crash)"), "{stdout}");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
    // The control.
    let (stdout, _) = check("sh -c 'read a r c t; [ \"$r $c\" = \"3 6\" ] && echo \"other: $r $c\" >&2; exit 1'");
    assert!(stdout.contains("Its last words on stderr:\n      other: 3 6"), "{stdout}");
    assert!(row(&stdout, "power-ups").ends_with("at tick 1"), "{stdout}");
}

/// A program that never ran (a script not found from here, a Python script without `#!`)
/// fails the same way in every situation: its fix is said once, and it is one problem, not six.
/// The control: a bot with two different errors is two problems, the repeats counted once.
#[test]
fn a_program_that_never_ran_is_one_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("bare.py");
    std::fs::write(&bare, "import sys\nprint('WAIT')\n").unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&bare).status().unwrap();
    for (bot, fix) in [
        ("python3 nosuch.py", "`nosuch.py` that `python3` is to run does not exist in"),
        ("./bare.py", "does not start with a `#!`"),
    ] {
        let out = arena_in(dir.path(), &["check-bot", bot]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert_eq!(stdout.matches(fix).count(), 1, "{bot}: {stdout}");
        assert_eq!(stdout.matches("PROBLEM").count(), 6, "{stdout}");
        assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
        assert!(!stdout.contains("6 problems found"), "{stdout}");
    }
    // The control.
    let (stdout, _) = check(
        "sh -c 'read a r c t; if [ \"$r $c\" = \"3 6\" ]; then echo \"ZeroDivisionError: division by zero\" >&2; \
         else echo \"IndexError: list index out of range\" >&2; fi; exit 1'",
    );
    assert!(
        stdout.contains("\n2 problems found (4 situations failed the same way as an earlier one, counted once).\n"),
        "{stdout}"
    );
}

/// A crash in the bot's own logic after good answers is told so, quoting the error and the line
/// its traceback names, with advice on that line, not on reading the input (it was told to "read
/// the header up to `STREAM`", and on the power-ups map to "read every kind of cell"). The
/// controls: a crash reading the TICK line after good answers, and one before the first
/// answer, keep the advice on reading the input.
#[test]
fn a_crash_in_the_bot_s_own_code_is_told_so() {
    let (stdout, code) = check(&flawed("owncrash"));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("on an error in its own code after 1 good answer: `ValueError: no plan for tick 2 (at File \""),
        "{stdout}"
    );
    assert!(stdout.contains("flawed.py\", line "), "{stdout}");
    assert!(
        stdout.contains("fix: it read its input and answered well until then") && stdout.contains("`TICK 2`"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("read the header up to `STREAM`") && !stdout.contains("read every kind of cell"),
        "{stdout}"
    );
    // The controls.
    let (stdout, _) = check(&flawed("tickcrash"));
    assert!(
        stdout.contains("invalid literal for int()") && stdout.contains("fix: read the header up to `STREAM`"),
        "{stdout}"
    );
    assert!(!stdout.contains("in its own code"), "{stdout}");
    let (stdout, _) = check(&flawed("crlfcrash"));
    assert!(stdout.contains("before answering `TICK 1`") && !stdout.contains("in its own code"), "{stdout}");
}

/// A bot that floods its stderr is told so once, with how much was cut and the fix (it was told
/// "No problems found"). The control: a good bot is told nothing of its stderr.
#[test]
fn a_flooded_stderr_is_noted_once() {
    let (stdout, code) = check(&flawed("spam"));
    assert_eq!(code, 0, "a note, not a problem: {stdout}");
    assert_eq!(
        stdout.matches("your bot wrote more to stderr than the arena keeps: the first 64 KiB were kept").count(),
        1,
        "{stdout}"
    );
    assert!(
        stdout.contains("costs it time on every answer") && stdout.contains("fix: write less to stderr"),
        "{stdout}"
    );
    let (stdout, _) = check(&flawed("good"));
    assert!(!stdout.contains("stderr than the arena keeps"), "{stdout}");
}

/// A bot that floods its stderr until it runs out of time (1 MB a tick, read at 4 MiB/s) is
/// told the flood made it late, with the stderr fix, once: the same timeout everywhere (it was
/// asked "did you flush stdout?", or told to think less, in each of six situations). The control,
/// an unflushed bot, is still asked whether it flushed (`each_flaw_is_named_with_its_fix`), and
/// a flood that makes no timeout stays a note (`a_flooded_stderr_is_noted_once`). On the wall
/// clock: waiting on its pipe costs it no CPU time, so on the CPU clock, a duel's and check-bot's
/// by default, the same flood makes no timeout in these short games (a note, as it is in a duel).
#[test]
fn a_bot_late_for_its_flood_of_stderr_is_told_so() {
    let out = arena(&["check-bot", "--clock", "wall", &script("stderrflood.sh")]);
    let (stdout, code) = (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1));
    assert_eq!(code, 1, "{stdout}");
    assert!(row(&stdout, "seat 1").contains("PROBLEM  forfeit (timeout)"), "{stdout}");
    assert_eq!(stdout.matches("MiB to stderr, which the arena reads at 4 MiB a second at most").count(), 1, "{stdout}");
    assert!(stdout.contains("that flood, not its thinking, most likely made it late"), "{stdout}");
    assert!(stdout.contains("    fix: write less to stderr"), "{stdout}");
    for wrong in ["flush", "think less", "loop", "than the arena keeps"] {
        assert!(!stdout.contains(wrong), "{wrong}: {stdout}");
    }
    assert_eq!(stdout.matches("(the same timeout as in `seat 1`, above)").count(), 5, "{stdout}");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
}

/// Timeouts with the same cause and advice are one problem, said once, as the same crash is
/// (an unflushed bot was six problems, its advice repeated six times). The control: a bot
/// that loops on the power-ups map and sleeps elsewhere is two problems, each with its advice.
#[test]
fn the_same_timeout_is_counted_once() {
    let (stdout, code) = check(&flawed("stopflush"));
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("did you flush stdout?").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("(the same timeout as in `seat 1`, above)").count(), 5, "{stdout}");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
    // The control.
    let (stdout, _) = check(
        "sh -c 'read a r c t; while read l; do case \"$l\" in TICK\\ 1*) echo WAIT;; TICK*) if [ \"$r $c\" = \"3 6\" ]; \
         then while :; do :; done; else sleep 30; fi;; esac; done'",
    );
    assert_eq!(stdout.matches("(the same timeout as in `seat 1`, above)").count(), 4, "{stdout}");
    assert!(
        stdout.contains("a loop that never ends at this tick") && stdout.contains("did you flush stdout?"),
        "{stdout}"
    );
    assert!(!row(&stdout, "power-ups").contains("the same"), "{stdout}");
    assert!(
        stdout.contains("\n2 problems found (4 situations failed the same way as an earlier one, counted once).\n"),
        "{stdout}"
    );
}

/// A debug line printed before every answer is one problem, said once with its line and its
/// fix, each other situation naming it (it was six problems, the same three lines six times),
/// and so is one whose words differ in test mode (it was two); a move written `MOVE x,y`, its
/// position differing from one situation to the next, is one too. The control: the same bot
/// answering `MOVE x,y` in test mode, a malformed answer with another fix, is two problems,
/// each with its own.
#[test]
fn the_same_malformed_answer_is_counted_once() {
    for flaw in ["debugfirst", "worded"] {
        let (stdout, code) = check(&flawed(flaw));
        assert_eq!(code, 1, "{stdout}");
        assert_eq!(stdout.matches("you answered `debug: tick 1` to `TICK 1`").count(), 1, "{stdout}");
        assert_eq!(stdout.matches("    fix: if that line is debug output, write it to stderr").count(), 1, "{stdout}");
        assert!(!stdout.contains("you answered `debug: going to the final`"), "{stdout}");
        // Each repeat quotes its own line.
        for situation in ["seat 2", "CRLF input", "a jump", "power-ups", "test mode"] {
            let said = if flaw == "worded" && situation == "test mode" { "going to the final" } else { "tick 1" };
            let repeat = format!(
                "PROBLEM  forfeit (malformed) at tick 1 (the same stray line as in `seat 1`, above: here `debug: {said}`)"
            );
            assert!(row(&stdout, situation).ends_with(&repeat), "{situation}: {stdout}");
        }
        assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
    }
    let (stdout, code) = check(&flawed("seats"));
    assert_eq!(code, 1, "{stdout}");
    // (A repeat of another problem quotes no line of its own.)
    assert_eq!(stdout.matches("(the same invalid move as in `seat 1`, above)").count(), 3, "{stdout}");
    assert!(stdout.contains("\n1 problem found (3 situations failed the same way"), "{stdout}");
    // The control.
    let (stdout, code) = check(&flawed("mixed"));
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        stdout.matches("(the same stray line as in `seat 1`, above: here `debug: tick 1`)").count(),
        4,
        "{stdout}"
    );
    assert!(row(&stdout, "test mode").ends_with("PROBLEM  forfeit (malformed) at tick 1"), "{stdout}");
    assert!(stdout.contains("    fix: write `MOVE "), "{stdout}");
    assert!(
        stdout.contains("\n2 problems found (4 situations failed the same way as an earlier one, counted once).\n"),
        "{stdout}"
    );
}

/// A debug line printed after every answer is one problem, whatever the referee made of it:
/// read as the next answer (`malformed`) or found waiting before the next prompt
/// (`extra_output`), which depends on when the line came, situation by situation (it was told
/// as two problems when both happened, one fix for both). The grouping of the two kinds is
/// shown with its control in the doctor's unit test
/// (`a_stray_line_is_one_problem_whatever_the_referee_made_of_it`): here, whichever the
/// referee made of each, the report is one problem.
#[test]
fn a_debug_line_after_each_answer_is_one_problem() {
    let (stdout, code) = check(&flawed("extra"));
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("    fix: ").count(), 1, "{stdout}");
    assert!(
        stdout.contains("debug output to stderr") || stdout.contains("debug output, write it to stderr"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("(the same stray line as in `seat 1`, above").count(), 5, "{stdout}");
    stray_rows_quote_their_own_line(&stdout, "debug: now at ");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 6 situations.\n"), "{stdout}");
}

/// Each row of a repeated stray line (`seat 1`'s) ends with its own line (`` above: here `LINE`) ``,
/// the line starting with `said`), whether it was read as the answer (`malformed`) or found
/// waiting before a prompt (`extra_output`: the referee kept no line, and such a row quoted none).
fn stray_rows_quote_their_own_line(stdout: &str, said: &str) {
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains("(the same stray line as in `seat 1`, above")).collect();
    assert!(!rows.is_empty(), "{stdout}");
    for row in rows {
        assert!(row.contains("forfeit (malformed)") || row.contains("forfeit (extra_output)"), "{row}");
        assert!(row.contains(&format!("above: here `{said}")) && row.ends_with("`)"), "{row}");
    }
}

/// A Tactics or an Atoms bot that prints a debug line after each answer is one problem, as a
/// Resource Rush bot is, with the debug-line fix, in every seat, whatever the referee made of
/// the line in each (read as the next answer, or found waiting); each repeat read as the
/// answer quotes its own line. The control: the same bot writing its commands with commas in
/// the other seats (a malformed command, with its own fix) is two problems.
#[test]
fn a_tactics_or_atoms_bot_printing_a_debug_line_after_each_answer_is_one_problem() {
    for (game, script, seats) in [("tactics", "tactics_flawed.py", 2), ("atoms", "atoms_flawed.py", 3)] {
        let (stdout, code) = game_check(game, script, "extra");
        assert_eq!(code, 1, "{game}: {stdout}");
        assert_eq!(stdout.matches("    fix: ").count(), 1, "{game}: {stdout}");
        assert!(
            stdout.contains("debug output to stderr") || stdout.contains("debug output, write it to stderr"),
            "{game}: {stdout}"
        );
        assert_eq!(stdout.matches("(the same stray line as in `seat 1`, above").count(), seats - 1, "{game}: {stdout}");
        stray_rows_quote_their_own_line(&stdout, "going to ");
        let all = format!("\n1 problem found: your bot failed the same way in all {seats} situations.\n");
        assert!(stdout.contains(&all), "{game}: {stdout}");
        // The control.
        let (stdout, code) = game_check(game, script, "mixed");
        assert_eq!(code, 1, "{game}: {stdout}");
        assert_eq!(stdout.matches("(the same stray line").count(), 0, "{game}: {stdout}");
        assert!(row(&stdout, "seat 2").ends_with(", against a scripted player"), "{game}: {stdout}");
        let fix = if game == "tactics" { "    fix: write `place " } else { "    fix: write `PLACE " };
        assert!(stdout.contains(fix), "{game}: {stdout}");
        assert!(stdout.contains("\n2 problems found"), "{game}: {stdout}");
    }
}

/// A bot of another game (Atoms) is told so, once, and where to check it instead: it died on
/// the header in every situation, quoting another game's (it was told only "If it plays another
/// game", with no name). The controls: a Resource Rush bot with a flaw, which answers, and a good
/// one are told neither.
#[test]
fn a_bot_of_another_game_is_told_which_game_it_seems_to_be() {
    let (stdout, code) = check(&bin("atoms-greedy"));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.starts_with(&format!("Checking `{}` as a Resource Rush bot", bin("atoms-greedy"))), "{stdout}");
    let said = "Is this an Atoms bot? It stopped at the first step every time";
    assert_eq!(stdout.matches(said).count(), 1, "{stdout}");
    assert!(stdout.contains(&format!("`arena check-bot --game atoms {}`", bin("atoms-greedy"))), "{stdout}");
    let out = arena(&["check-bot", "--game", "tactics", &bin("atoms-greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(said), "{stdout}");
    let out = arena(&["check-bot", "--game", "atoms", &bin("tactics-greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Is this an OOPtimal Tactics bot?") && stdout.contains("--game tactics"), "{stdout}");
    for flaw in ["comma", "good"] {
        let (stdout, _) = check(&flawed(flaw));
        assert!(!stdout.contains("If it plays another game") && !stdout.contains("Is this"), "{flaw}: {stdout}");
    }
}

/// A bot of another game that answers nothing and says nothing (a Resource Rush bot checked as
/// Tactics or Atoms waits for a header it never gets) is probed once in each other game and asked
/// whether it is that game's bot, as one that printed another game's lines is: it was told only
/// "If it plays another game". The controls: a bot that never answers anything keeps that
/// generic ending, and the same Resource Rush script, answering each prompt of the checked game
/// (`hello`, no game's answer), is not probed, so asked nothing.
#[test]
fn a_silent_bot_of_another_game_is_told_which_game_answers_it() {
    let rush = |say: &str| format!("sh {} {say}", root().join("tests/bots/rush-only.sh").display()).trim().to_string();
    let runs: Vec<(&str, String)> = vec![
        ("tactics", bin("greedy")),
        ("atoms", bin("greedy")),
        ("atoms", rush("")),
        ("tactics", rush("hello")),
        ("atoms", format!("sh {}", root().join("tests/bots/sleeper.sh").display())),
    ];
    let reports: Vec<(String, i32)> = std::thread::scope(|scope| {
        let runs: Vec<_> = runs
            .iter()
            .map(|(game, bot)| {
                scope.spawn(move || {
                    let out = arena(&["check-bot", "--game", game, bot]);
                    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("check-bot run")).collect()
    });
    let asked = "Is this a Resource Rush bot? It answered no prompt here, but it answered that game's first prompt";
    for ((game, _), (stdout, code)) in runs[..3].iter().zip(&reports) {
        assert_eq!(*code, 1, "{game}: {stdout}");
        assert_eq!(stdout.matches(asked).count(), 1, "{game}: {stdout}");
        assert!(
            stdout.contains("check it with `--game resource-rush`: `arena check-bot --game resource-rush "),
            "{stdout}"
        );
        assert!(!stdout.contains("If it plays another game"), "{game}: {stdout}");
    }
    // Controls: it answered Tactics's prompts (each malformed), so no probe ran.
    let (stdout, code) = &reports[3];
    assert_eq!(*code, 1, "{stdout}");
    assert!(stdout.contains("found `hello`") && !stdout.contains("Is this"), "{stdout}");
    // And a bot that answers no game's prompts is told only that it never answered.
    let (stdout, code) = &reports[4];
    assert_eq!(*code, 1, "{stdout}");
    let generic = "It never answered a prompt. If it plays another game, check-bot cannot check it as Atoms";
    assert!(stdout.contains(generic), "{stdout}");
    assert!(!stdout.contains("Is this"), "{stdout}");
}

/// A bot that dies on the header of every situation, quoting a different header each time,
/// crashes so for one cause: every situation gives seat 1's fix, not its own (it was told to
/// "read every kind of cell" on the power-ups map, and of test mode's TICK lines).
#[test]
fn the_same_crash_on_different_lines_is_one_cause() {
    let (stdout, code) = check("sh -c 'read l; echo \"bad line: $l\" >&2; exit 1'");
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("(the same crash as in `seat 1`, above)").count(), 5, "{stdout}");
    assert!(!stdout.contains("read every kind of cell") && !stdout.contains("in test mode the TICK"), "{stdout}");
    // The control: exit statuses that differ (the header's number of rows, 4 in seat 1, 3 on the
    // power-ups map) are not one crash, and the power-ups map gives its own fix.
    let (stdout, _) = check("sh -c 'read a b c; echo \"bad line: $a $b $c\" >&2; exit $b'");
    assert!(stdout.contains("fix: read every kind of cell"), "{stdout}");
}

/// Two different errors with the same exit status at the same step are two causes: a bot that
/// raises another exception on the power-ups map (every uncaught Python exception exits with 1)
/// gets that map's own fix, not seat 1's (797ed0d called any two such crashes one). The control:
/// the same error on every map is one crash, with seat 1's fix.
#[test]
fn two_different_errors_with_the_same_exit_status_are_two_crashes() {
    let bot = |power: &str| {
        format!(
            "sh -c 'read a r c t; if [ \"$r $c\" = \"3 6\" ]; then echo \"{power}\" >&2; \
             else echo \"IndexError: list index out of range\" >&2; fi; exit 1'"
        )
    };
    let (stdout, code) = check(&bot("ZeroDivisionError: division by zero"));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("ZeroDivisionError: division by zero"), "{stdout}");
    assert_eq!(stdout.matches("(the same crash as in `seat 1`, above)").count(), 4, "{stdout}");
    assert!(stdout.contains("fix: read every kind of cell"), "{stdout}");
    // The control: the same error there too is the same crash.
    let (stdout, _) = check(&bot("IndexError: list index out of range"));
    assert_eq!(stdout.matches("(the same crash as in `seat 1`, above)").count(), 5, "{stdout}");
    assert!(!stdout.contains("read every kind of cell"), "{stdout}");
}

/// check-bot on a bot of Tactics or Atoms that prints garbage reports the problem (the control
/// of `tests/new_bot.rs`, where the games' starters pass), in the game's
/// words, with the game's fix, and exits non-zero.
#[test]
fn check_bot_reports_a_bot_of_tactics_or_atoms_that_prints_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.sh");
    std::fs::write(&garbage, "#!/bin/sh\nwhile read line; do echo 'garbage here'; done\n").unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&garbage).status().unwrap();
    for (game, fix) in [("tactics", "`place AMOUNT COL ROW`"), ("atoms", "`PLACE x y`")] {
        let out = arena(&["check-bot", "--game", game, &garbage.display().to_string()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{game}: {stdout}");
        let seat1 = stdout.lines().find(|l| l.starts_with("seat 1")).unwrap_or("");
        assert!(seat1.contains("PROBLEM") && seat1.contains("forfeit (malformed)"), "{game}: {stdout}");
        assert!(stdout.contains("your bot's answer was not understood") && stdout.contains("`garbage here`"));
        assert!(stdout.contains("fix: ") && stdout.contains(fix), "{game}: {stdout}");
    }
}

fn game_check(game: &str, script: &str, flaw: &str) -> (String, i32) {
    let bot = format!("python3 {} {flaw}", root().join("tests/bots").join(script).display());
    let out = arena(&["check-bot", "--game", game, &bot]);
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

/// A Tactics or Atoms command the rules refuse gets a fix that names the field or cell and why,
/// with the slip behind it (row before column, counted from 1); the control, the same bot
/// without the slip, passes.
#[test]
fn a_refused_move_of_tactics_or_atoms_is_told_which_field_and_why() {
    let (stdout, code) = game_check("tactics", "tactics_flawed.py", "good");
    assert_eq!(code, 0, "the control: {stdout}");
    let (stdout, code) = game_check("tactics", "tactics_flawed.py", "water");
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("[ERROR] Invalid field!\n"), "one stop, the handout's: {stdout}");
    assert!(stdout.contains("fix: field 3 3 is water (`~~`): chips go on your own fields only"), "{stdout}");
    assert!(stdout.contains("your fields (column row) were 2 5, 3 5, 4 5"), "seat 2's own fields: {stdout}");
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "swap");
    assert!(stdout.contains("fix: field 5 2 is outside the 4x5 map"), "{stdout}");
    assert!(stdout.contains("field 2 5 is yours: did you write the row before the column?"), "{stdout}");

    let (stdout, code) = game_check("atoms", "atoms_flawed.py", "good");
    assert_eq!(code, 0, "the control: {stdout}");
    let (stdout, _) = game_check("atoms", "atoms_flawed.py", "swap");
    assert!(stdout.contains("fix: (4, 5) is off the 6x5 board: x is the column, 0 to 5"), "{stdout}");
    assert!(stdout.contains("`PLACE 5 4` was legal: did you swap them?"), "{stdout}");
    let (stdout, _) = game_check("atoms", "atoms_flawed.py", "one");
    assert!(stdout.contains("`PLACE 5 4` was legal: columns and rows count from 0, not 1"), "{stdout}");
    // A beginner's bot (the first legal cell, from (0, 0)) lives long enough against the calm
    // scripted players to show a bug of its fifth prompt, in every situation (placing on the
    // first legal cell too, the script took it out within two moves, and it passed): the
    // match's steps 9 and 10 of a duel, 14 of three players (its fifth of every third).
    let (stdout, code) = game_check("atoms", "atoms_flawed.py", "late");
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("PROBLEM  forfeit (crash) at step ").count(), 3, "{stdout}");
    for (situation, step) in [("seat 1", 9), ("seat 2", 10), ("3 players", 14)] {
        assert!(row(&stdout, situation).contains(&format!("at step {step},")), "{situation}: {stdout}");
    }
}

/// Crashes of a Tactics bot get the fix for their cause: a signal's, a traceback's line, a
/// Python syntax error's (with no word of another game: the program never ran), and a first
/// prompt that never ends is a loop, where a slow first answer (the control) is a slow start.
#[test]
fn a_tactics_bot_s_crash_or_loop_is_told_its_cause() {
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "segv");
    assert!(stdout.contains("SIGSEGV") && stdout.contains("fix: find the invalid memory access"), "{stdout}");
    assert!(!stdout.contains("tests/test1.txt"), "no Resource Rush test files: {stdout}");
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "raise");
    // An error of its own after good answers: the line it names, not the input.
    assert!(stdout.contains("fix: it read its input and answered well until then"), "{stdout}");
    // (Its second prompt: step 4 of the match in seat 1, after the scripted player's.)
    assert!(stdout.contains("for the state it was in at step 4."), "{stdout}");
    assert!(stdout.contains("tactics_flawed.py\", line "), "{stdout}");
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "syntax");
    assert!(stdout.contains("Python could not compile your program"), "{stdout}");
    assert!(!stdout.contains("If it plays another game"), "{stdout}");

    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "loop");
    assert!(stdout.contains("printed nothing, not even in 8 s of CPU time: a loop that never ends"), "{stdout}");
    assert!(stdout.contains("fix: find the loop that does not end"), "{stdout}");
    assert!(stdout.contains("If it plays another game"), "a loop may be another game's bot misreading: {stdout}");
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "slow");
    assert!(!stdout.contains("a loop that never ends"), "the control: {stdout}");
    assert!(stdout.contains("fix: do less before the first answer"), "{stdout}");
}

/// A Tactics or Atoms bot killed by SIGSEGV is told what bounds its array indexes in its own
/// game's words: the size on its own first line, and from where its coordinates count. It was
/// told of "the width and height on the first line" in both, by code shared with every game.
/// (The control, Resource Rush's own words, is `a_bot_killed_by_a_signal_gets_the_fix_for_it`.)
#[test]
fn a_segfault_s_fix_says_what_bounds_an_index_in_the_game_s_words() {
    for (game, script, words) in [
        (
            "tactics",
            "tactics_flawed.py",
            "check every array index against the map's size (the width and height on the `TACTICS` line, after \
             the number of rounds; `place` counts columns and rows from 1, your arrays from 0)",
        ),
        (
            "atoms",
            "atoms_flawed.py",
            "check every array index against the board's size (the width and height on the `ATOMS` line, after \
             the number of players; x is the column and y the row, both from 0)",
        ),
    ] {
        let (stdout, code) = game_check(game, script, "segv");
        assert_eq!(code, 1, "{game}: {stdout}");
        assert!(stdout.contains("SIGSEGV") && stdout.contains(words), "{game}: {stdout}");
        assert!(!stdout.contains("on the first line"), "{game}: {stdout}");
    }
}

/// A Tactics bot silent at its first prompt is told why, as a Resource Rush bot is: idle and
/// slow (a slow start), unflushed (its answers came in a burst when sent thousands of prompts),
/// or reading to the end of its input (it answered once its input ended). Before, all three were
/// told the same "did you flush stdout?"; the control, a bot that flushes, answers at once
/// (`a_refused_move_of_tactics_or_atoms_is_told_which_field_and_why`'s `good`). The sleeper is
/// late on the wall clock only (`--clock wall`): on the CPU clock, a duel's, it is on time.
#[test]
fn a_silent_tactics_bot_is_told_slow_unflushed_or_reading_all() {
    let table: &[(&str, &[&str])] = &[
        (
            "sleepy",
            &["to answer the first ROUND prompt, but the first answer must come within 2000 ms", "fix: do less"],
        ),
        ("noflush", &["when sent thousands of ROUND prompts at once its answers arrived in a burst", "flush=True"]),
        (
            "readall",
            &[
                "nor when sent thousands of ROUND prompts at once, but answered once its input ended: it waits for \
                 the end of its input",
                "fix: each ROUND prompt comes only after your answer to the last",
            ],
        ),
    ];
    let reports: Vec<(String, i32)> = std::thread::scope(|scope| {
        let runs: Vec<_> = table
            .iter()
            .map(|(flaw, _)| {
                scope.spawn(move || match *flaw {
                    "sleepy" => {
                        let bot = format!("python3 {} sleepy", root().join("tests/bots/tactics_flawed.py").display());
                        let out = arena(&["check-bot", "--game", "tactics", "--clock", "wall", &bot]);
                        (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
                    }
                    _ => game_check("tactics", "tactics_flawed.py", flaw),
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("check-bot run")).collect()
    });
    for ((flaw, phrases), (stdout, code)) in table.iter().zip(&reports) {
        assert_eq!(*code, 1, "{flaw}: {stdout}");
        for phrase in *phrases {
            assert!(stdout.contains(phrase), "{flaw}: expected {phrase:?} in\n{stdout}");
        }
        assert!(!stdout.contains("did you forget to flush"), "{flaw}: told apart, not guessed: {stdout}");
        // The cause named, it does not end wondering whether the bot plays another game (the
        // control: `loop`, in `a_tactics_bot_s_crash_or_loop_is_told_its_cause`, still does).
        assert!(!stdout.contains("If it plays another game"), "{flaw}: {stdout}");
    }
    // On the CPU clock, a duel's and check-bot's by default, the sleeper is on time in each seat.
    let (stdout, code) = game_check("tactics", "tactics_flawed.py", "sleepy");
    assert_eq!(code, 0, "{stdout}");
    assert!(row(&stdout, "seat 1").contains(" ok ") && row(&stdout, "seat 2").contains(" ok "), "{stdout}");
}

/// Reports a student reads plainly: a bot that quits after its third answer in every situation
/// is told of that one exit everywhere (it was told to strip `\r`, read every kind of cell and
/// read test mode's moves, where it quit the same way); an empty answer is called one (it read
/// "you answered `` … empty line, expected"); a line that is no text is an answer not understood
/// (it read "was the line was not"), with a fix in Tactics too, and no "It never answered a
/// prompt"; a Tactics bot that exits is told to keep reading. The control: `crlfcrash`, whose
/// seat 1 passes, keeps the CRLF fix (`each_flaw_is_named_with_its_fix`).
#[test]
fn quitting_empty_and_binary_answers_are_told_plainly() {
    let (stdout, code) = check(&script("midquit.sh"));
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("(the same crash as in `seat 1`, above)").count(), 5, "{stdout}");
    for guess in ["strip the trailing", "read every kind of cell", "in test mode the TICK lines"] {
        assert!(!stdout.contains(guess), "{guess}: {stdout}");
    }
    let (stdout, _) = check(&script("emptyline.sh"));
    assert!(stdout.contains("you answered an empty line to `TICK 1`: expected `WAIT` or `MOVE x y`\n"), "{stdout}");
    let (stdout, _) = check(&script("binary.sh"));
    assert!(stdout.contains("your answer to `TICK 1` was not understood: the line was not valid UTF-8"), "{stdout}");
    assert!(!stdout.contains("It never answered a prompt"), "{stdout}");
    let tactics = |bot: &str| {
        let out = arena(&["check-bot", "--game", "tactics", &script(bot)]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let stdout = tactics("binary-end.sh");
    assert!(stdout.contains("fix: answer each ROUND prompt with one short line of plain ASCII text"), "{stdout}");
    assert!(!stdout.contains("It never answered a prompt"), "{stdout}");
    let stdout = tactics("tactics-quitter.sh");
    assert!(stdout.contains("fix: keep reading one line at a time until stdin ends, answering each ROUND prompt"));
}

/// A Tactics or Atoms bot's summary counts its result in its game's words (its score column's
/// header, `fields`, `outlasted`), not as a "score" the game does not have (it said `score 3`).
#[test]
fn a_summary_counts_the_result_in_the_game_s_words() {
    for (game, script, words) in
        [("tactics", "tactics_flawed.py", "scripted player: fields "), ("atoms", "atoms_flawed.py", ": outlasted ")]
    {
        let (stdout, code) = game_check(game, script, "good");
        assert_eq!(code, 0, "{game}: {stdout}");
        let seat1 = row(&stdout, "seat 1");
        assert!(seat1.contains(words) && !seat1.contains("score"), "{game}: {stdout}");
    }
}

/// A bot whose answers end in no newline is told so, with the fix, in Resource Rush and in
/// Tactics (it was told it "printed nothing", to flush, and that it may be another game's bot);
/// the control, the same bot with the newline, answers.
#[test]
fn answers_without_a_newline_are_told_to_end_their_lines() {
    let bot = |prompt: &str, answer: &str, end: &str| {
        format!("sh -c 'while read l; do case $l in {prompt}*) printf \"{answer}{end}\";; esac; done'")
    };
    let (stdout, code) = check(&bot("TICK", "WAIT", ""));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("its answers end in no newline"), "{stdout}");
    assert!(stdout.contains("fix: end every answer with a newline"), "{stdout}");
    assert!(!stdout.contains("If it plays another game") && !stdout.contains("printed nothing"), "{stdout}");
    let out = arena(&["check-bot", "--game", "tactics", &bot("ROUND", "pass", "")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("fix: end every answer with a newline"), "{stdout}");
    let out = arena(&["check-bot", "--game", "tactics", &bot("ROUND", "pass", "\\n")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(row(&stdout, "seat 1").contains(" ok "), "the control: {stdout}");
}

/// Two answers to one prompt are told as a line no prompt asked for whose fix names a second
/// answer too, not debug output alone (it said only "write debug output to stderr"). (The two
/// lines are written at once, by one `printf`: two `echo`s, the shell descheduled between them
/// on a loaded machine, sent the second after the referee's next prompt, which took it for the
/// answer to that one, in CI.)
#[test]
fn two_answers_to_one_prompt_are_named_in_the_fix() {
    let out = arena(&[
        "check-bot",
        "--game",
        "atoms",
        "sh -c 'while read l; do case $l in TURN*) printf \"PLACE 0 0\\nPLACE 0 0\\n\";; esac; done'",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(row(&stdout, "seat 1").contains("forfeit (extra_output)"), "{stdout}");
    assert!(stdout.contains("a second answer, or debug output"), "{stdout}");
    // The line itself, quoted (the referee kept none).
    assert!(
        stdout
            .contains("asked for (a second answer, or debug output, which goes to stderr?). The line was `PLACE 0 0`."),
        "{stdout}"
    );
    assert!(
        stdout.contains("fix: print exactly one line per TURN prompt and nothing else: no second answer"),
        "{stdout}"
    );
}

/// The step of `replay` (a duel's) at which player `p` last answered: where it forfeited.
fn last_step_of(replay: &std::path::Path, p: u64) -> usize {
    let text = std::fs::read_to_string(replay).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let steps = json["steps"].as_array().unwrap();
    let asked = |s: &serde_json::Value| s["replies"].as_array().is_some_and(|r| r.iter().any(|r| r["player"] == p));
    steps.iter().rposition(asked).map_or(0, |i| i + 1)
}

/// Plays a duel of `game` (on `map`, for a game played on one) between `bots`; returns the step
/// at which player `p` forfeited, as its replay numbers it.
fn duel_step(game: &str, map: Option<&str>, bots: [&str; 2], p: u64) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let mut args = vec!["duel", "--game", game, "--seed", "7", "--replay", &replay_arg];
    let map = map.map(crate::map);
    if let Some(m) = &map {
        args.extend(["--map", m]);
    }
    args.extend(bots);
    let out = arena(&args);
    let result = String::from_utf8_lossy(&out.stdout);
    assert!(result.contains("crash") && replay.exists(), "{game}: {result}");
    last_step_of(&replay, p)
}

/// check-bot names the step of a sequential game's forfeit as the whole match counts it, as a
/// duel's replay (and `arena replay --tick N`) does: an Atoms bot that crashes at its second
/// prompt forfeits at step 3 in seat 1 and 4 in seat 2, as in a duel against the greedy bot (it
/// said step 2 in both, its own second turn); a Tactics bot's at step 4 and 3, as in a duel.
/// The control: Resource Rush's bots move at once, every tick a step of each: a crash at its
/// second tick is at tick 2, in check-bot and in a duel alike.
#[test]
fn check_bot_s_step_is_the_duel_s() {
    let cases = [
        ("atoms", None, "atoms_flawed.py", "second", bin("atoms-greedy")),
        ("tactics", Some("tactics/config_01.txt"), "tactics_flawed.py", "raise", bin("tactics-greedy")),
    ];
    for (game, map, script, flaw, greedy) in &cases {
        let (stdout, code) = game_check(game, script, flaw);
        assert_eq!(code, 1, "{game}: {stdout}");
        let bot = format!("python3 {} {flaw}", root().join("tests/bots").join(script).display());
        let first = duel_step(game, *map, [&bot, greedy], 0);
        let second = duel_step(game, *map, [greedy, &bot], 1);
        assert!(first > 2 && second > 2 && first != second, "{game}: steps {first} and {second}");
        for (situation, step) in [("seat 1", first), ("seat 2", second)] {
            let said = format!("forfeit (crash) at step {step},");
            assert!(row(&stdout, situation).contains(&said), "{game}, {situation}, step {step}: {stdout}");
        }
        // Seat 1's sentence and its fix name the same step.
        let sentence = format!("at step {first} your bot exited with status 1");
        assert!(stdout.contains(&sentence), "{game}: {stdout}");
        assert!(stdout.contains(&format!("for the state it was in at step {first}.")), "{game}: {stdout}");
    }
    // The control.
    let (stdout, _) = check(&flawed("owncrash"));
    assert!(row(&stdout, "seat 1").ends_with("at tick 2"), "{stdout}");
    let rr = duel_step("resource-rush", Some("duel.txt"), [&flawed("owncrash"), &bin("greedy")], 0);
    assert_eq!(rr, 2);
}

/// The same crash (the same error, on the same line of the bot's code) in every seat of a game
/// whose seats take turns is one problem, said in seat 1 and counted once, as Resource Rush's
/// is, though at another step in each seat (it was three problems, one per seat). The control:
/// an error that names the bot's colour, another in each seat, is two crashes.
#[test]
fn the_same_crash_in_every_seat_is_counted_once() {
    let (stdout, code) = game_check("atoms", "atoms_flawed.py", "second");
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.matches("RuntimeError: a bug that shows at the second prompt").count(), 1, "{stdout}");
    for situation in ["seat 2", "3 players"] {
        assert!(row(&stdout, situation).ends_with("(the same crash as in `seat 1`, above)"), "{stdout}");
    }
    assert_eq!(stdout.matches("    fix: ").count(), 1, "{stdout}");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 3 situations.\n"), "{stdout}");
    let (stdout, _) = game_check("tactics", "tactics_flawed.py", "raise");
    assert!(row(&stdout, "seat 2").ends_with("(the same crash as in `seat 1`, above)"), "{stdout}");
    assert!(stdout.contains("\n1 problem found: your bot failed the same way in all 2 situations.\n"), "{stdout}");
    // The control: seat 2 (green) is not seat 1 (red); the middle seat of three is green too.
    let (stdout, _) = game_check("atoms", "atoms_flawed.py", "colour");
    assert!(stdout.contains("no plan for colour R") && stdout.contains("no plan for colour G"), "{stdout}");
    assert!(!row(&stdout, "seat 2").contains("the same crash"), "{stdout}");
    assert!(row(&stdout, "3 players").ends_with("(the same crash as in `seat 2`, above)"), "{stdout}");
    assert!(
        stdout.contains("\n2 problems found (1 situation failed the same way as an earlier one, counted once).\n"),
        "{stdout}"
    );
    // The same error on the same line of Python's library, reached from two lines of the bot's:
    // two crashes, each fix naming the bot's line, not random.py's.
    let (stdout, _) = game_check("atoms", "atoms_flawed.py", "library");
    assert!(!row(&stdout, "seat 2").contains("the same crash"), "{stdout}");
    assert!(row(&stdout, "3 players").ends_with("(the same crash as in `seat 2`, above)"), "{stdout}");
    let fixes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("    fix: ")).collect();
    assert_eq!(fixes.len(), 2, "{stdout}");
    assert!(fixes[0].contains("in red_plan)") && fixes[1].contains("in other_plan)"), "{stdout}");
    assert!(fixes.iter().all(|f| f.contains("atoms_flawed.py") && !f.contains("random.py")), "{stdout}");
}

/// check-bot judges on a duel's clock, the CPU clock, and says so: a bot that sleeps 3 s before
/// it reads its first line (idle: next to no CPU time, far under the 2000 ms limit and the 10 s
/// backstop) is on time in every situation, as in a duel of the same bot, which plays to the
/// end with no forfeit (check-bot judged on the wall clock and called it late, exit 1, while the
/// duel did not). The control: with `--clock wall`, as the course's checker counts, it is late
/// (3 s against 2000 ms on the clock), told so, exit 1.
#[test]
fn a_bot_sleeping_before_its_first_answer_is_late_only_on_the_wall_clock() {
    let sleeper = flawed("slow");
    let (stdout, code) = check(&sleeper);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.lines().next().unwrap_or("").contains("the time limits count CPU time"), "{stdout}");
    for situation in ["seat 1", "seat 2", "CRLF input", "power-ups", "test mode"] {
        assert!(row(&stdout, situation).contains(" ok "), "{situation}: {stdout}");
    }
    // A duel of the same bot agrees: no forfeit.
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json").display().to_string();
    let duel = arena(&[
        "duel",
        "--json",
        "--seed",
        "3",
        "--map",
        "maps/duel.txt",
        "--replay",
        &replay,
        &sleeper,
        &bin("greedy"),
    ]);
    let result: serde_json::Value = serde_json::from_slice(&duel.stdout).unwrap_or_default();
    let forfeits: Vec<&serde_json::Value> =
        result["players"].as_array().map(|ps| ps.iter().map(|p| &p["forfeit"]).collect()).unwrap_or_default();
    assert!(forfeits.len() == 2 && forfeits.iter().all(|f| f.is_null()), "{result}");
    // The control.
    let out = arena(&["check-bot", "--clock", "wall", &sleeper]);
    let (stdout, code) = (String::from_utf8_lossy(&out.stdout), out.status.code());
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.lines().next().unwrap_or("").contains("the time limits count time on the clock"), "{stdout}");
    assert!(row(&stdout, "seat 1").contains("PROBLEM  forfeit (timeout) at tick 1"), "{stdout}");
    assert!(
        stdout.contains("to answer `TICK 1`, but the first answer must come within 2000 ms, start-up included"),
        "{stdout}"
    );
    assert!(stdout.contains("fix: do less before the first answer"), "{stdout}");
}

/// The number before the first `needle` in `text` ("computed for 1001 ms of CPU time": 1001).
fn figure_before(text: &str, needle: &str) -> u64 {
    let head = text.split(needle).next().unwrap_or("");
    head.rsplit(' ').find_map(|w| w.parse().ok()).unwrap_or(0)
}

/// A bot that loops at tick 2 is told so on the clock that judged it, its figure on the clock
/// whose limit is said, never less than it (on a loaded machine it was told "computed for 382
/// ms of CPU time … too slow for the 1000 ms an answer may take"): on the CPU clock its CPU
/// time against 1000 ms of CPU time; on the wall clock its time on the clock against 1000 ms on
/// the clock, its CPU time beside it. A loop's figure reaches the limit on either clock, however
/// loaded the machine is: on the CPU clock with a backstop of 20x the limit, so that the machine
/// gives it its 1000 ms of CPU time before the clock ends it (at 5x, it once had only 989 ms).
#[test]
fn a_loop_is_told_on_the_clock_that_judged_it() {
    let runs: Vec<(String, i32)> = std::thread::scope(|scope| {
        let runs: Vec<_> = [&["--backstop-factor", "20"][..], &["--clock", "wall"][..]]
            .into_iter()
            .map(|flags| {
                scope.spawn(move || {
                    let bot = flawed("loop");
                    let out = arena(&[&["check-bot"], flags, &[bot.as_str()]].concat());
                    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("check-bot run")).collect()
    });
    let (cpu, wall) = (&runs[0].0, &runs[1].0);
    assert_eq!((runs[0].1, runs[1].1), (1, 1), "{cpu}\n{wall}");
    // On the CPU clock: told a loop against 1000 ms of CPU time, its figure no less; or, where the
    // overloaded machine gave it less before its backstop (989 ms in 5 s, once, which failed this
    // test), told it was starved, against the same limit. Never its time on the clock as the
    // figure of a loop.
    assert!(cpu.contains("your bot computed for ") && cpu.contains(" ms of CPU time after `TICK 2`"), "{cpu}");
    let said = "ms of CPU time after `TICK 2` and printed nothing: a loop that never ends at this tick, or a \
                search too slow for the 1000 ms of CPU time an answer may take";
    let starved = "less than the 1000 ms of CPU time an answer may take, as the machine was too busy to run it more";
    if cpu.contains(said) {
        assert!(figure_before(cpu, said) >= 1000, "{cpu}");
        assert!(!cpu.contains("ms on the clock"), "{cpu}");
    } else {
        assert!(cpu.contains(starved) && figure_before(cpu, " ms of CPU time after") < 1000, "{cpu}");
    }
    assert!(!cpu.contains("your bot ran for "), "{cpu}");
    // On the wall clock: its time on the clock against 1000 ms on the clock, which a loop reaches
    // however loaded the machine is (told a loop, or, with next to no CPU time, silent).
    assert!(wall.contains("printed nothing") && wall.contains("1000 ms on the clock"), "{wall}");
    let said = "ms on the clock (";
    if wall.contains("your bot ran for ") {
        assert!(figure_before(wall, said) >= 1000, "{wall}");
        assert!(wall.contains("a search too slow for the 1000 ms on the clock an answer may take"), "{wall}");
    }
    assert!(!wall.contains("computed for") && !wall.contains("of CPU time an answer may take"), "{wall}");
}

/// check-bot takes `arena duel`'s limit flags (one `LimitArgs`), so that a student checks the
/// course's own limits: a bot that takes 300 ms for its second answer is on time under the
/// rulings' 1000 ms per answer, and late under `--move-ms 100`, told so with that limit, the
/// limits given said in the first line. (Before, check-bot refused the flag.)
#[test]
fn check_bot_takes_the_duel_s_limit_flags() {
    let bot =
        "sh -c 'n=0; while read l; do case $l in TICK*) n=$((n+1)); [ $n = 2 ] && sleep 0.3; echo WAIT;; esac; done'";
    let out = arena(&["check-bot", "--clock", "wall", "--move-ms", "100", bot]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let first = stdout.lines().next().unwrap_or("");
    assert!(
        first.contains(
            "the time limits (2000 ms for the first answer, 100 ms for each later one, 5000 ms for the game's"
        ),
        "{stdout}"
    );
    assert!(row(&stdout, "seat 1").contains("PROBLEM  forfeit (timeout) at tick 2"), "{stdout}");
    assert!(stdout.contains("each answer must come within 100 ms on the clock"), "{stdout}");
    // The control: the rulings' limits.
    let out = arena(&["check-bot", "--clock", "wall", bot]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.lines().next().unwrap_or("").contains("the time limits count time on the clock"), "{stdout}");
    assert!(!stdout.contains("timeout"), "{stdout}");
}

/// The command a crash's fix gives to run the bot by hand reproduces the crash, pasted in a
/// shell in the folder check-bot ran from, which has no `tests/` folder: the bot's own command
/// (`python3 bot.py`; it said `./bot < tests/test1.txt` whatever the bot and its folder), fed
/// the lines it was sent, with the environment it ran with (here test mode, where alone it
/// crashes). The control: the same command without that environment runs without a crash.
#[test]
fn a_crash_s_command_to_run_by_hand_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    let bot = "import os, signal, sys\nn = 0\nfor line in sys.stdin:\n    if line.startswith('TICK'):\n        n += 1\n        \
               if n == 2 and os.environ.get('RR_MODE') == 'test':\n            os.kill(os.getpid(), signal.SIGSEGV)\n        \
               print('WAIT', flush=True)\n";
    std::fs::write(dir.path().join("bot.py"), bot).unwrap();
    let out = arena_in(dir.path(), &["check-bot", "python3 bot.py"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(row(&stdout, "test mode").contains("PROBLEM  forfeit (crash) at tick 2"), "{stdout}");
    assert!(!stdout.contains("test1.txt") && !stdout.contains("./bot"), "{stdout}");
    let pasted = stdout
        .split_once("run it by hand on the lines it was sent here, `")
        .and_then(|(_, rest)| rest.split_once("`: the sanitizer"))
        .map(|(command, _)| command.to_string())
        .unwrap_or_default();
    assert!(pasted.starts_with("printf 'ARENA ") && pasted.contains("RR_MODE=test python3 bot.py"), "{stdout}");
    let sh = |command: &str| {
        let out = std::process::Command::new("sh").arg("-c").arg(command).current_dir(dir.path()).output().unwrap();
        out.status.code()
    };
    assert_eq!(sh(&pasted), Some(128 + libc::SIGSEGV), "{pasted}");
    // The control.
    assert_eq!(sh(&pasted.replace("RR_MODE=test ", "")), Some(0), "{pasted}");
}

/// The Python kit's sample bot, copied into `dir` with the kit as `bot.py`, its `act` given
/// `code` to run first (indented as the function's body): its command.
fn kit_bot_doing(dir: &std::path::Path, code: &str) -> String {
    let kit = root().join("starter-kits/python");
    std::fs::copy(kit.join("botkit.py"), dir.join("botkit.py")).unwrap();
    let greedy = std::fs::read_to_string(kit.join("greedy.py")).unwrap();
    let body = "    me, opp = s.me, s.opponent\n";
    assert!(greedy.contains(body), "the sample bot's act changed: {greedy}");
    std::fs::write(dir.join("bot.py"), greedy.replacen(body, &format!("{body}{code}"), 1)).unwrap();
    format!("python3 {}", dir.join("bot.py").display())
}

/// A crash in the student's own code at tick 1, called by the starter kit that read the input,
/// is told as an error in its own code, with the fix for the line it names (it was told to "read
/// the header up to `STREAM`", then that it never answered a prompt and may play another game).
/// The controls, a crash without the kit before the first answer, keep the advice on reading
/// the input (`a_crash_in_the_bot_s_own_code_is_told_so`).
#[test]
fn a_kit_bot_s_crash_in_its_own_code_at_tick_1_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, code) = check(&kit_bot_doing(dir.path(), "    s.grid[s.final.x + 100][0]\n"));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("before answering `TICK 1`, on an error in its own code: `IndexError: list index out of range"),
        "{stdout}"
    );
    assert!(stdout.contains("bot.py\", line ") && stdout.contains(", in act)"), "{stdout}");
    assert!(stdout.contains("fix: the starter kit read its input and called your code"), "{stdout}");
    assert!(!stdout.contains("read the header up to `STREAM`"), "{stdout}");
    assert!(!stdout.contains("It never answered a prompt"), "{stdout}");
}

/// A bot that uses up the game's CPU budget only in the CRLF game, the longest, is not told
/// that only the `\r` differs (it was): the budget is what the game's length used up. The
/// bot thinks 500 ms of CPU time a tick from tick 3: 3.5 s in the 9 ticks of `seat 1`, more
/// than the 5 s budget in the 17 of `CRLF input`. The control: a crash the `\r` makes is still
/// told so (`each_flaw_is_named_with_its_fix`, `crlfcrash`).
#[test]
fn a_budget_used_up_in_the_longer_crlf_game_is_not_blamed_on_the_r() {
    let dir = tempfile::tempdir().unwrap();
    let burn = "    if s.tick >= 3:\n        import time\n        until = time.process_time() + 0.5\n        while \
                time.process_time() < until:\n            pass\n";
    // (A backstop of 100x the limit on the clock: a loaded machine cannot end it before its CPU
    // time does.)
    let bot = kit_bot_doing(dir.path(), burn);
    let out = arena(&["check-bot", "--backstop-factor", "100", &bot]);
    let (stdout, code) = (String::from_utf8_lossy(&out.stdout), out.status.code().unwrap_or(-1));
    assert_eq!(code, 1, "{stdout}");
    assert!(row(&stdout, "seat 1").contains(" ok "), "the game with `\\n` passes: {stdout}");
    assert!(row(&stdout, "CRLF input").contains("PROBLEM  forfeit (timeout)"), "{stdout}");
    assert!(stdout.contains("used up its 5000 ms of CPU time for the game's answers"), "{stdout}");
    assert!(!stdout.contains("only the `\\r` differs"), "{stdout}");
}
