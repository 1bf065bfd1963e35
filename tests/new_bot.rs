//! `arena new-bot`: for each language, the three commands of the generated README (build,
//! duel against greedy, the 20 tests) work from the created folder as written; the tournament
//! snippet runs; bad names and existing folders are refused.

use std::path::Path;
use std::process::Command;

use arena_e2e::*;
use serde_json::Value;

/// The shell commands of the README's "The three commands" block.
fn three_commands(readme: &str) -> Vec<String> {
    let block = readme.split("## The three commands").nth(1).and_then(|rest| rest.split("```sh\n").nth(1));
    let block = block.and_then(|b| b.split("```").next()).unwrap_or("");
    block.lines().map(str::to_string).collect()
}

/// Runs `command` with `sh -c` in `dir`, without a target-dir override (as a student would).
fn sh(dir: &Path, command: &str) -> (String, String, i32) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run sh");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn each_language_goes_from_new_bot_to_a_passing_duel_in_three_commands() {
    let dir = tempfile::tempdir().unwrap();
    let easy = easy_tests();
    let mut passes = Vec::new();
    for lang in ["cpp", "c", "python", "rust"] {
        let name = format!("my-{lang}-bot");
        let out = arena_fed(dir.path(), &["new-bot", "--lang", lang, &name], b"");
        assert!(out.status.success(), "{lang}: {}", String::from_utf8_lossy(&out.stderr));
        let folder = dir.path().join(&name);
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        let commands = three_commands(&readme);
        assert_eq!(commands.len(), 3, "{lang}: the README's three commands\n{readme}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(&commands[1]), "new-bot prints the commands too");

        let (stdout, stderr, code) = sh(&folder, &commands[0]);
        assert_eq!(code, 0, "{lang}: build `{}`\n{stdout}\n{stderr}", commands[0]);

        let (stdout, stderr, code) = sh(&folder, &commands[1]);
        assert_eq!(code, 0, "{lang}: duel `{}`\n{stdout}\n{stderr}", commands[1]);
        let mut replays = std::fs::read_dir(folder.join("replays")).unwrap().flatten().map(|e| e.path());
        let replay = replays.find(|p| p.extension().is_some_and(|e| e == "json")).expect("a replay");
        let replay: Value = serde_json::from_slice(&std::fs::read(replay).unwrap()).unwrap();
        let me = &replay["result"]["players"][0];
        assert_eq!(me["name"], name.as_str(), "{lang}: {stdout}");
        assert!(me["forfeit"].is_null() && me["finished"] == true, "{lang}: {me}");
        assert!(me["score"].as_i64().unwrap_or(0) > 0, "{lang}: {me}");
        assert_eq!(replay["result"]["players"][1]["name"], "greedy");

        let (stdout, stderr, _) = sh(&folder, &commands[2]);
        assert!(stdout.contains("passed,"), "{lang}: tests `{}`\n{stdout}\n{stderr}", commands[2]);
        passes.push((lang, stdout.lines().filter(|l| l.contains("  PASS  ")).count()));
        for k in &easy {
            let line = stdout.lines().find(|l| l.starts_with(&format!("test{k:02} "))).unwrap_or("");
            assert!(line.contains("PASS"), "{lang}: easy test {k}: {line}\n{stdout}");
        }

        let (stdout, stderr, code) =
            sh(&folder, &format!("{} tournament --config tournament.toml --out league -j 1", bin("arena")));
        assert_eq!(code, 0, "{lang}: tournament\n{stdout}\n{stderr}");
        let board = leaderboard(&folder.join("league"));
        assert!(board.to_string().contains(&name), "{lang}: the bot is on the leaderboard: {board}");
    }
    // Every kit's sample passes 10 of the 20 tests, the Rust one too: it has its own sample.
    // The control: `greedy`, which the Rust kit used to ship, passes only 9.
    assert_eq!(passes, [("cpp", 10), ("c", 10), ("python", 10), ("rust", 10)]);
    let greedy = arena(&["test", &bin("greedy")]);
    let greedy_passes = String::from_utf8_lossy(&greedy.stdout).lines().filter(|l| l.contains("  PASS  ")).count();
    assert_eq!(greedy_passes, 9, "{}", String::from_utf8_lossy(&greedy.stdout));
}

/// `--lang` takes a language in any case, and its aliases (`C`, `C++`, `Python`); the folder is
/// that language's kit.
#[test]
fn new_bot_takes_the_language_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, name, file) in [("C", "upper_c", "bot.c"), ("C++", "plus", "bot.cpp"), ("Python", "snake", "bot.py")] {
        let out = arena_fed(dir.path(), &["new-bot", "--lang", lang, name], b"");
        assert!(out.status.success(), "{lang}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(dir.path().join(name).join(file).is_file(), "{lang}: {name}/{file}");
    }
    let out = arena_fed(dir.path(), &["new-bot", "--lang", "Java", "mybot"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown language `Java`"));
}

#[test]
fn new_bot_refuses_bad_names_and_existing_folders() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena_fed(dir.path(), &["new-bot", "--lang", "c", "my bot"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a usable bot name"));
    let out = arena_fed(dir.path(), &["new-bot", "--lang", "java", "mybot"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected cpp, c, python or rust"));
    std::fs::create_dir(dir.path().join("taken")).unwrap();
    std::fs::write(dir.path().join("taken/mine.txt"), "keep me").unwrap();
    let out = arena_fed(dir.path(), &["new-bot", "--lang", "python", "taken"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    assert_eq!(std::fs::read_to_string(dir.path().join("taken/mine.txt")).unwrap(), "keep me");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("taken")], "nothing else was created");
}

/// A student whose `arena` is on a PATH of their own (`~/.cargo/bin` after `cargo install`,
/// `~/bin`) gets README commands that run: the duel's opponent is the bot command `arena bot
/// greedy`, and bots find programs in /usr/local/bin, /usr/bin and /bin only. Before, the
/// README said `"arena bot greedy"` and its duel failed with "cannot start `arena bot greedy`:
/// No such file or directory"; that message now says where the arena is and what to write.
#[test]
fn an_arena_on_a_path_of_ones_own_gives_a_readme_whose_duel_runs() {
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("bin");
    std::fs::create_dir(&own).unwrap();
    std::os::unix::fs::symlink(bin("arena"), own.join("arena")).unwrap();
    let path = format!("{}:{}", own.display(), std::env::var("PATH").unwrap_or_default());
    let run = |command: &str| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .expect("run sh");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        (text, out.status.code().unwrap_or(-1))
    };
    let (text, code) = run("arena new-bot --lang python mybot");
    assert_eq!(code, 0, "{text}");
    let readme = std::fs::read_to_string(dir.path().join("mybot/README.md")).unwrap();
    let commands = three_commands(&readme);
    assert!(!commands[1].contains("\"arena bot greedy\""), "a bot command bots cannot run: {}", commands[1]);
    assert!(readme.contains("/usr/local/bin, /usr/bin and /bin"), "the README says why the full path: {readme}");
    let (text, code) = run(&format!("cd mybot && {}", commands[1]));
    assert_eq!(code, 0, "the README's duel runs: {text}");
    assert!(text.contains("Winner:"), "{text}");
    // Written by hand as `arena bot greedy`, the opponent cannot start, and the message says why.
    let (text, code) =
        run("cd mybot && arena duel --map maps/duel.txt --no-replay 'python3 bot.py' 'arena bot greedy'");
    assert_ne!(code, 0, "{text}");
    let hint = format!("`arena` is {}/arena on your PATH, but a bot's programs are looked for in", own.display());
    assert!(text.contains(&hint) && text.contains("write its full path"), "{text}");
}

/// A student who skips the build (or whose build failed) and runs the README's tests command is
/// told to build first, with the folder's build command: `make` for C and C++, `cargo build
/// --release` for Rust. Before, it said only "No such file or directory".
#[test]
fn the_tests_before_the_build_say_to_build_first() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, program, build) in [
        ("c", "./cbot", "`make` in `.`"),
        ("cpp", "./cppbot", "`make` in `.`"),
        ("rust", "./target/release/rsbot", "`cargo build --release` in `.`"),
    ] {
        let name = program.rsplit('/').next().unwrap_or_default();
        let out = arena_fed(dir.path(), &["new-bot", "--lang", lang, name], b"");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let out = arena_fed(&dir.path().join(name), &["test", program, "--tests", "tests", "--only", "1"], b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{lang}: {err}");
        assert!(err.contains(&format!("`{program}` does not exist: build it first, {build}")), "{lang}: {err}");
    }
}
