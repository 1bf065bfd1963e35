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
        // The league inside the kit is no part of the bot: resumed unchanged, it plays nothing.
        let (stdout, stderr, code) = sh(&folder, &format!("{} tournament --resume league -j 1", bin("arena")));
        assert_eq!(code, 0, "{lang}: resume\n{stdout}\n{stderr}");
        assert!(stderr.contains("plan: 0 matches to play"), "{lang}: resumed unchanged\n{stdout}\n{stderr}");
    }
    // Every kit's sample passes 10 of the 20 tests, the Rust one too: it has its own sample.
    // The control: `greedy`, which the Rust kit used to ship, passes only 9.
    assert_eq!(passes, [("cpp", 10), ("c", 10), ("python", 10), ("rust", 10)]);
    let greedy = arena(&["test", &bin("greedy")]);
    let greedy_passes = String::from_utf8_lossy(&greedy.stdout).lines().filter(|l| l.contains("  PASS  ")).count();
    assert_eq!(greedy_passes, 9, "{}", String::from_utf8_lossy(&greedy.stdout));
}

/// Every file under `dir`, in bytes (links not followed).
fn bytes_under(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else { continue };
        total += if meta.is_dir() { bytes_under(&entry.path()) } else { meta.len() };
    }
    total
}

/// Makes the Python kit `alice` in `dir`; returns its folder.
fn python_kit(dir: &Path) -> std::path::PathBuf {
    let out = arena_fed(dir, &["new-bot", "--lang", "python", "alice"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("alice")
}

/// Runs the kit's tournament with `args` in `kit`; returns its stdout, stderr and the league
/// folder it names.
fn kit_tournament(kit: &Path, args: &str) -> (String, String, std::path::PathBuf) {
    let (stdout, stderr, code) = sh(kit, &format!("{} tournament -j 1 {args}", bin("arena")));
    assert_eq!(code, 0, "{args}\n{stdout}\n{stderr}");
    let folder = stdout.rsplit("Folder: ").next().unwrap_or("").trim();
    (stdout.clone(), stderr, kit.join(folder))
}

/// The fingerprint of each version of `bot` the league in `league` recorded.
fn versions_of(league: &Path, bot: &str) -> Vec<String> {
    let record: Value = serde_json::from_slice(&std::fs::read(league.join("tournament.json")).unwrap()).unwrap();
    let versions = record["history"][bot]["versions"].as_array().cloned().unwrap_or_default();
    versions.iter().map(|v| v["fingerprint"].as_str().unwrap_or("").to_string()).collect()
}

/// A student's first hour: the kit's tournament, then `--resume` of its league with nothing
/// changed, plays nothing, says no new version, keeps every copy, and the copies are small; no
/// warning that the bot can read the config's folder (see `overlaps` in the library for its
/// control).
/// Before, the league (under `replays/`, in the bot's folder) was part of the student's bot:
/// each resume was a new version whose copy exceeded 256 MiB, and the sample bots' copies held
/// the whole arena executable (65 MB each).
#[test]
fn a_kit_s_league_resumed_unchanged_plays_nothing_and_keeps_small_copies() {
    let dir = tempfile::tempdir().unwrap();
    let kit = python_kit(dir.path());
    let (stdout, stderr, league) = kit_tournament(&kit, "--config tournament.toml");
    assert!(stdout.contains("6 of 6 matches played"), "{stdout}");
    // Its bot reads the kit's folder, but no other bot's seed is worth working out: not said.
    assert!(!stderr.contains("can read"), "{stderr}");
    assert!(league.starts_with(kit.join("replays")), "the default league folder is in the kit: {}", league.display());
    let (stdout, stderr, again) = kit_tournament(&kit, &format!("--resume {}", league.display()));
    assert_eq!(again, league);
    assert!(stderr.contains("plan: 0 matches to play, 6 kept"), "{stdout}\n{stderr}");
    assert!(!stderr.contains("new versions") && !stderr.contains("cannot keep a copy"), "{stdout}\n{stderr}");
    // Nor on a resume, whose config (the record's) holds the secret the league drew, not the file.
    assert!(!stderr.contains("can read"), "{stderr}");
    assert_eq!(versions_of(&league, "alice").len(), 1);
    for bot in ["alice", "greedy", "reference"] {
        let copies = league.join("versions").join(bot);
        assert_eq!(std::fs::read_dir(&copies).unwrap().count(), 1, "{bot}: one kept copy");
        let size = bytes_under(&copies);
        assert!(size < 1 << 20, "{bot}: its copy holds {size} bytes");
    }
    assert!(!league.join("versions/greedy").read_dir().unwrap().flatten().any(|c| c.path().join("files").exists()));
}

/// A fresh second run of the kit's tournament (a new league under `replays/`) sees the same
/// first version of the student's bot as the first league: the first league is no part of it
/// (the kit's `ignore = ["replays"]`), nor of its copy. The control: the same config without
/// that line gives the bot another fingerprint there, its copy holding the first league.
#[test]
fn a_second_league_s_first_version_of_the_kit_s_bot_leaves_the_first_league_out() {
    let dir = tempfile::tempdir().unwrap();
    let kit = python_kit(dir.path());
    let (_, _, first) = kit_tournament(&kit, "--config tournament.toml");
    let (_, stderr, second) = kit_tournament(&kit, "--config tournament.toml");
    assert_ne!(first, second, "a new league folder");
    assert!(!stderr.contains("cannot keep a copy"), "{stderr}");
    let (v1, v2) = (versions_of(&first, "alice"), versions_of(&second, "alice"));
    assert_eq!((v1.len(), &v1), (1, &v2), "the same bot, the same version");
    let copy = second.join("versions/alice").join(&v2[0]).join("folder");
    assert!(copy.join("bot.py").is_file() && !copy.join("replays").exists(), "{}", copy.display());
    // The control: without the kit's `ignore`, the earlier leagues are part of the bot.
    let text = std::fs::read_to_string(kit.join("tournament.toml")).unwrap();
    assert!(text.contains("ignore = [\"replays\"]\n"), "{text}");
    std::fs::write(kit.join("bare.toml"), text.replace("ignore = [\"replays\"]\n", "")).unwrap();
    let (_, _, third) = kit_tournament(&kit, "--config bare.toml");
    let v3 = versions_of(&third, "alice");
    assert_ne!(v3, v1, "the control: the earlier leagues made another version");
    let copy = third.join("versions/alice").join(&v3[0]).join("folder");
    let held = first.strip_prefix(&kit).unwrap();
    assert!(copy.join(held).join("tournament.json").is_file(), "the control: the copy holds the first league");
    assert!(!copy.join(third.strip_prefix(&kit).unwrap()).exists(), "but never its own league");
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

/// The shell commands of the README's "The two commands" block (a game without the 20 tests).
fn two_commands(readme: &str) -> Vec<String> {
    let block = readme.split("## The two commands").nth(1).and_then(|rest| rest.split("```sh\n").nth(1));
    block.and_then(|b| b.split("```").next()).unwrap_or("").lines().map(str::to_string).collect()
}

/// `arena new-bot --game tactics|atoms`: in every language, the README's build and duel run as
/// written from the new folder, and the starter plays the duel against the game's sample bot to
/// its end without a forfeit; `arena check-bot --game` finds no problem with it.
#[test]
fn tactics_and_atoms_starters_play_a_duel_to_the_end_and_pass_check_bot() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["tactics", "atoms"] {
        for lang in ["cpp", "c", "python", "rust"] {
            let name = format!("my-{game}-{lang}");
            let out = arena_fed(dir.path(), &["new-bot", "--game", game, "--lang", lang, &name], b"");
            assert!(out.status.success(), "{game} {lang}: {}", String::from_utf8_lossy(&out.stderr));
            let folder = dir.path().join(&name);
            let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
            let commands = two_commands(&readme);
            assert_eq!(commands.len(), 2, "{game} {lang}: the README's two commands\n{readme}");
            assert!(commands[1].contains(&format!("duel --game {game} ")), "{}", commands[1]);

            let (stdout, stderr, code) = sh(&folder, &commands[0]);
            assert_eq!(code, 0, "{game} {lang}: build `{}`\n{stdout}\n{stderr}", commands[0]);
            let (stdout, stderr, code) = sh(&folder, &commands[1]);
            assert_eq!(code, 0, "{game} {lang}: duel `{}`\n{stdout}\n{stderr}", commands[1]);
            let mut replays = std::fs::read_dir(folder.join("replays")).unwrap().flatten().map(|e| e.path());
            let replay = replays.find(|p| p.extension().is_some_and(|e| e == "json")).expect("a replay");
            let replay: Value = serde_json::from_slice(&std::fs::read(replay).unwrap()).unwrap();
            assert_eq!(replay["game"], game);
            let players = replay["result"]["players"].as_array().unwrap();
            assert_eq!(players[0]["name"], name.as_str());
            assert_eq!(players[1]["name"], format!("{game}-greedy"));
            for p in players {
                assert!(p["forfeit"].is_null(), "{game} {lang}: played to the end: {p}\n{stdout}");
            }
            assert!(replay["steps"].as_array().unwrap().len() > 4, "{game} {lang}: a whole game\n{stdout}");

            let bot = match lang {
                "python" => "python3 bot.py".to_string(),
                "rust" => format!("./target/release/{name}"),
                _ => format!("./{name}"),
            };
            let out = arena_fed(&folder, &["check-bot", "--game", game, &bot], b"");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{game} {lang}: check-bot\n{stdout}");
            assert!(stdout.ends_with("No problems found.\n") && !stdout.contains("PROBLEM"), "{stdout}");
            assert!(stdout.matches(" ok ").count() >= 2, "{game} {lang}: both seats at least: {stdout}");
        }
    }
}

/// LCR has no bots: new-bot and check-bot say so, and make nothing.
#[test]
fn new_bot_and_check_bot_say_lcr_has_no_bots() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena_fed(dir.path(), &["new-bot", "--game", "lcr", "--lang", "python", "mybot"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("Wild Left-Center-Right has no bots"), "{stderr}");
    assert!(!dir.path().join("mybot").exists());
    let out = arena_fed(dir.path(), &["check-bot", "--game", "lcr", "python3 bot.py"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("Wild Left-Center-Right has no bots"), "{stderr}");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}
