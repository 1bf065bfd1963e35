//! Sample bots duel through real processes; replays verify, render, and catch tampering.

use std::os::unix::fs::FileTypeExt;
use std::process::Command;

use arena_e2e::*;
use serde_json::Value;

#[test]
fn greedy_beats_waiter_on_the_duel_map_from_either_side() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, waiter) = (bin("greedy"), bin("waiter"));
    let (r, replay) = duel(dir.path(), "duel.txt", &[], [&greedy, &waiter]);
    let (score, finished, forfeit) = player(&r, 0);
    assert!(score > 1000 && finished && forfeit.is_none(), "greedy: {r}");
    assert_eq!(player(&r, 1), (0, false, None), "waiter never moves: {r}");
    assert_eq!(r["winner"], 0);
    assert_eq!(r["players"][0]["name"], "greedy");
    assert!(replay.exists(), "the replay is written");
    assert!(!replay.with_extension("log").exists(), "no stderr, no log");

    let (r, _) = duel(dir.path(), "duel.txt", &[], [&waiter, &greedy]);
    assert_eq!(r["winner"], 1);
    assert!(player(&r, 1).1, "greedy finishes as player 2: {r}");
}

/// Two copies of the reference bot on the symmetric duel map used to walk in step all game,
/// cancelling every take, and neither scored; one now gives way, and both collect (neither
/// finishes: in a duel the reference spends the ticks it would walk to the final collecting).
#[test]
fn the_reference_bot_against_itself_falls_out_of_step_and_both_score() {
    let dir = tempfile::tempdir().unwrap();
    let reference = bin("reference");
    let (r, _) = duel(dir.path(), "duel.txt", &[], [&reference, &reference]);
    for i in 0..2 {
        let (score, _, forfeit) = player(&r, i);
        assert!(forfeit.is_none() && score > 0, "player {i}: {r}");
    }
}

#[test]
fn the_cpp_sample_bot_plays_and_the_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let (cpp, greedy) = (cpp_greedy(), bin("greedy"));
    let (r, replay) = duel(dir.path(), "duel.txt", &[], [&cpp, &greedy]);
    for i in 0..2 {
        let (score, finished, forfeit) = player(&r, i);
        assert!(score > 0 && finished && forfeit.is_none(), "player {i}: {r}");
    }
    let out = arena(&["verify", &replay.display().to_string()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "verify failed: {stdout}");
    assert!(stdout.starts_with("OK "), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the players' names and commands are not verified"), "{stderr}");
}

#[test]
fn every_sample_map_is_playable_and_every_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, random) = (bin("greedy"), bin("random"));
    for name in ["duel.txt", "jump.txt", "fire.txt", "multipliers.txt", "tight.txt"] {
        let (r, replay) = duel(dir.path(), name, &[], [&greedy, &random]);
        assert!(player(&r, 0).1, "greedy finishes on {name}: {r}");
        assert_eq!(player(&r, 1).2, None, "random never forfeits on {name}: {r}");
        let out = arena(&["verify", &replay.display().to_string()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn the_replay_schema_holds_what_the_docs_promise() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, random) = (bin("greedy"), bin("random"));
    let (r, replay) = duel(dir.path(), "jump.txt", &[], [&greedy, &random]);
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(rep["format"], "arena-replay");
    assert_eq!(rep["version"], 1);
    assert_eq!(rep["game"], "resource-rush");
    assert_eq!(rep["seed"], 7);
    assert_eq!(rep["setup"]["rows"], 5);
    assert_eq!(rep["setup"]["map"][0], "0 J 0 W 40 0 0");
    assert_eq!(rep["players"][1]["name"], "random");
    let step = &rep["steps"][0];
    assert_eq!(step["replies"][0]["player"], 0);
    assert!(step["replies"][0]["answer"].is_string());
    let p = &step["frame"]["players"][0];
    for key in ["action", "pos", "score", "multiplier", "jump", "status"] {
        assert!(!p[key].is_null(), "frame player has {key}: {p}");
    }
    assert_eq!(step["frame"]["tick"], 1);
    let result = &rep["result"];
    assert_eq!(result["winner"], r["winner"]);
    assert_eq!(result["players"], r["players"]);
}

#[test]
fn a_seeded_random_bot_replays_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let (random, waiter) = (bin("random"), bin("waiter"));
    let answers = |path: &std::path::Path| -> Vec<Value> {
        let rep: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        rep["steps"].as_array().unwrap().iter().map(|s| s["replies"][0]["answer"].clone()).collect()
    };
    let (_, a) = duel(dir.path(), "duel.txt", &[], [&random, &waiter]);
    let (_, b) = duel(dir.path(), "duel.txt", &[], [&random, &waiter]);
    assert_eq!(answers(&a), answers(&b), "ARENA_SEED from --seed 7 fixes the random bot");
    let (_, c) = duel(dir.path(), "duel.txt", &["--seed", "8"], [&random, &waiter]);
    assert_ne!(answers(&a), answers(&c), "another seed, another game");
}

#[test]
fn verify_reports_where_a_tampered_replay_diverges() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, waiter) = (bin("greedy"), bin("waiter"));
    let (_, replay) = duel(dir.path(), "jump.txt", &[], [&greedy, &waiter]);
    let original: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();

    let check = |edit: &dyn Fn(&mut Value), needle: &str| {
        let mut rep = original.clone();
        edit(&mut rep);
        let path = dir.path().join("tampered.json");
        std::fs::write(&path, serde_json::to_vec(&rep).unwrap()).unwrap();
        let out = arena(&["verify", &path.display().to_string()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "tampering went unnoticed: {needle}");
        assert!(stdout.contains(needle), "expected `{needle}` in: {stdout}");
    };
    check(&|r| r["result"]["players"][0]["score"] = 99999.into(), "result: `players[0].score`");
    check(&|r| r["result"]["winner"] = 1.into(), "result: `winner`");
    check(&|r| r["steps"][2]["frame"]["players"][0]["score"] = 1234.into(), "step 3: `players[0].score`");
    check(&|r| r["steps"][0]["replies"][0]["answer"] = "MOVE 2 2".into(), "step 1:");
    check(
        &|r| {
            r["steps"].as_array_mut().unwrap().pop();
        },
        "the game is not over",
    );
    check(&|r| r["setup"]["map"][0] = "0 J 0 W".into(), "cannot rebuild the game");
}

#[test]
fn replay_shows_the_board_tick_by_tick_when_piped() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, waiter) = (bin("greedy"), bin("waiter"));
    let (_, replay) = duel(dir.path(), "jump.txt", &[], [&greedy, &waiter]);
    let path = replay.display().to_string();
    let out = arena(&["replay", &path, "--tick", "0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("tick 0/20"), "{text}");
    assert!(text.contains(" @1  5  .  $  .  5 @2"), "players at their starts, the final: {text}");
    // Numbered as `MOVE x y` names cells: the columns (y) on top, each row (x) on its left.
    assert!(text.contains("\n     0  1  2  3  4  5  6\n  0 "), "{text}");
    assert!(text.contains("\n  2 @1  5  .  $  .  5 @2\n"), "{text}");
    assert!(!text.contains('\x1b'), "no terminal escapes when piped");

    let out = arena(&["replay", &path]);
    let text = String::from_utf8_lossy(&out.stdout);
    let frames = text.matches("tick ").count();
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(frames, rep["steps"].as_array().unwrap().len() + 1, "every tick is shown");
    assert!(text.contains("P1 took J"), "events are shown: {text}");
    assert!(text.contains("result: greedy"), "{text}");

    let out = arena(&["replay", &path, "--tick", "999"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("past the end"));
}

/// An output is never written over an input nor over what is not a file: `--replay m.txt` wrote
/// the replay over the map it was played on, `view r.json -o r.json` the page over the only
/// replay, `--replay /dev/null` (as root) made the machine's `/dev/null` a file, and a failed
/// `export-save` left an empty save the next try refused. Each is refused now, with its inputs
/// untouched. The controls: the same commands with an output of their own write it, over an
/// older file too.
#[test]
fn no_output_is_written_over_an_input_or_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let map_file = dir.path().join("m.txt");
    std::fs::copy(map("duel.txt"), &map_file).unwrap();
    let waiter = shared_copy(dir.path(), &bin("waiter"));
    let (m, before) = (map_file.display().to_string(), std::fs::read(&map_file).unwrap());
    let duel_to =
        |replay: &str, bot: &str| arena_in(dir.path(), &["duel", "--map", &m, "--replay", replay, bot, &waiter]);
    let out = duel_to(&m, &waiter);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("the duel would write its replay over") && err.contains("m.txt, one of its inputs"), "{err}");
    assert_eq!(std::fs::read(&map_file).unwrap(), before, "the map is untouched");
    let logged = dir.path().join("bot.log");
    std::fs::copy(bin("waiter"), &logged).unwrap();
    let out = duel_to("./bot.json", "./bot.log");
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("bots' stderr"));
    let pipe = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    let out = duel_to(&pipe.display().to_string(), &waiter);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("a FIFO has that name, not a file: it is not replaced"), "{err}");
    assert!(std::fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo(), "the FIFO stays");

    let replay = dir.path().join("r.json");
    std::fs::write(&replay, "an older file").unwrap();
    let r = replay.display().to_string();
    assert!(duel_to(&r, &waiter).status.success(), "the control: a replay of its own replaces an older file");
    let recorded = std::fs::read(&replay).unwrap();
    let out = arena(&["view", &r, "-o", &dir.path().join(".").join("r.json").display().to_string()]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("this is the replay shown"));
    assert_eq!(std::fs::read(&replay).unwrap(), recorded, "the replay is untouched");
    let page = dir.path().join("pages/week1/r.html").display().to_string();
    assert!(arena(&["view", &r, "-o", &page]).status.success(), "the control: a page of its own, its folder made");

    let atoms = dir.path().join("atoms.json").display().to_string();
    let random = bin("atoms-random");
    let played =
        arena(&["duel", "--game", "atoms", "--size", "4x4", "--seed", "3", "--replay", &atoms, &random, &random]);
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let save = dir.path().join("game.sav");
    std::fs::write(&save, "mine").unwrap();
    let out = arena(&["export-save", &atoms, &save.display().to_string()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("refused: it exists"), "{err}");
    assert_eq!(std::fs::read(&save).unwrap(), b"mine");
    let fresh = dir.path().join("fresh.sav");
    assert!(arena(&["export-save", &atoms, &fresh.display().to_string()]).status.success(), "the control");
    assert!(std::fs::metadata(&fresh).unwrap().len() > 3);
}

#[test]
fn bad_maps_bad_bots_and_bad_replays_fail_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let bad_map = dir.path().join("bad.txt");
    std::fs::write(&bad_map, "ARENA 2 2 5\n0 0\n1 1\n0 1\nMAP\n0 0\n0 Q\nEND_MAP\nSTREAM\n").unwrap();
    let waiter = bin("waiter");
    let bad = bad_map.display().to_string();
    let out = arena(&["duel", "--map", &bad, "--no-replay", &waiter, &waiter]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("{bad}:7: bad cell `Q` at row 1, column 1")), "{err}");

    let out = arena(&["duel", "--map", "maps/none.txt", "--no-replay", &waiter, &waiter]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("maps/none.txt: cannot read map"));

    let missing = dir.path().join("no-such-bot").display().to_string();
    let out = arena(&["duel", "--map", "maps/duel.txt", "--no-replay", &waiter, &missing]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bot `no-such-bot`: cannot start"), "{err}");

    let out = arena(&["duel", "--map", "maps/duel.txt", "--no-replay", "--cwd", "/nonexistent", &waiter, &waiter]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--cwd: folder /nonexistent is missing"), "{err}");
    let (a, b, c) = ("--name=a", "--name=b", "--name=c");
    let out = arena(&["duel", "--map", "maps/duel.txt", "--no-replay", a, b, c, &waiter, &waiter]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 --name given for 2 bots"), "{out:?}");
    let out = arena(&["duel", "--map", "maps/duel.txt", "--no-replay", a, b, &waiter, &waiter]);
    assert!(out.status.success(), "the control: a name each");

    let out = arena(&["duel", "--map", "maps/duel.txt", "--no-replay", &waiter, "\"unclosed"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad command"));

    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"format\": \"arena-replay\", \"version\": 1, \"game\": 3}").unwrap();
    let out = arena(&["verify", &junk.display().to_string()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a valid replay"));
    std::fs::write(&junk, "not json").unwrap();
    let out = arena(&["replay", &junk.display().to_string()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1 column 2"));
}

#[test]
fn every_kind_of_bad_map_is_rejected_with_file_line_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let waiter = bin("waiter");
    let head = "ARENA 2 3 5\n0 0\n1 2\n1 1\nMAP\n";
    let cases: [(&str, String, usize, &str); 6] = [
        ("truncated", format!("{head}0 0 0\n"), 7, "unexpected end of file, expected map row 1 of 2"),
        ("oversized", "ARENA 51 3 5\n".to_string(), 1, "map size 51x3 is out of range"),
        ("short row", format!("{head}0 0 0\n0 0\nEND_MAP\nSTREAM\n"), 7, "map row 1 has 2 cells, expected 3"),
        ("bad cell", format!("{head}0 0 0\n0 0 %\nEND_MAP\nSTREAM\n"), 7, "bad cell `%`"),
        ("start on a wall", format!("{head}W 0 0\n0 0 0\nEND_MAP\nSTREAM\n"), 2, "player 1 start (0, 0) is on `W`"),
        (
            "final out of bounds",
            "ARENA 2 3 5\n0 0\n1 2\n2 1\nMAP\n0 0 0\n0 0 0\nEND_MAP\nSTREAM\n".to_string(),
            4,
            "final cell (2, 1) is outside the 2x3 map",
        ),
    ];
    for (what, text, line, reason) in cases {
        let path = dir.path().join(format!("{}.txt", what.replace(' ', "-")));
        std::fs::write(&path, text).unwrap();
        let replay = dir.path().join("never.json");
        let out = arena(&[
            "duel",
            "--map",
            &path.display().to_string(),
            "--replay",
            &replay.display().to_string(),
            &waiter,
            &waiter,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what} was accepted");
        assert!(err.contains(&format!("{}:{line}: {reason}", path.display())), "{what}: {err}");
        assert!(!replay.exists(), "{what}: no bot started, no replay");
    }
}

/// `arena simulate lcr` refuses each option out of range by name, with its range: `-j 0` ran
/// on one thread unsaid, `--games 18446744073709551615` ran with no end, and one message named
/// every option whichever was wrong. The control: options in range print the table.
#[test]
fn simulate_refuses_each_option_out_of_range_by_name() {
    for (args, said) in [
        (["--players", "2,1"], "--players 1: each player count must be 2..=10000"),
        (["--games", "1"], "--games 1: it must be 2..=1000000000"),
        (["--games", "18446744073709551615"], "--games 18446744073709551615: it must be 2..=1000000000"),
        (["-j", "0"], "-j 0: the threads must be 1..=1024"),
    ] {
        let out = arena(&[&["simulate", "lcr"], &args[..]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(said), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = arena(&["simulate", "lcr", "--players", "2", "--games", "2", "-j", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("| 2 | 2 |"), "the control");
}

#[test]
fn lcr_plays_the_handout_run_through_the_binary_and_hosts_a_verified_game() {
    let expected = std::fs::read_to_string(root().join("arena/src/games/lcr/examples/run2.stdout")).unwrap();
    let dice: Vec<String> =
        expected.lines().filter_map(|l| l.trim().strip_prefix("Rolled a ")).map(|l| l[..1].to_string()).collect();
    let out = arena_fed(&root(), &["play", "lcr", "--dice", &dice.join(",")], b"3\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);

    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("lcr.json").display().to_string();
    let out = arena(&["duel", "--game", "lcr", "--players", "4", "--seed", "3", "--json", "--replay", &replay]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let winner = result["winner"].as_u64().unwrap() as usize;
    let chips: i64 = result["players"].as_array().unwrap().iter().map(|p| p["score"].as_i64().unwrap()).sum();
    assert!(chips > 0 && chips <= 12 && result["players"][winner]["score"].as_i64() == Some(chips), "{result}");
    let verified = arena(&["verify", &replay]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    // A reply recorded where the dice decide is no evidence of this game: refused.
    let mut forged: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    forged["steps"][0]["replies"] = serde_json::json!([{"player": 0, "answer": "x", "ms": 0}]);
    let forged_path = dir.path().join("forged.json");
    std::fs::write(&forged_path, forged.to_string()).unwrap();
    let out = arena(&["verify", &forged_path.display().to_string()]);
    let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && said.contains("records replies where chance moves"), "{said}");
    let again = arena(&["duel", "--game", "lcr", "--players", "4", "--seed", "3", "--json", "--no-replay"]);
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["players"], result["players"], "the same seed, the same game");
    // `arena replay` names the players chance played for (its title said only `lcr: `).
    let shown = arena(&["replay", &replay, "--tick", "2"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.starts_with("lcr: P1 Player #1 vs P2 Player #2 vs P3 Player #3 vs P4 Player #4\n"), "{shown}");
}

#[test]
fn atoms_classic_cases_in_and_out() {
    let cases = root().join("tests/atoms");
    let mut checked = 0;
    for entry in std::fs::read_dir(&cases).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let work = tempfile::tempdir().unwrap();
        let out = arena_fed(work.path(), &["play", "atoms"], &std::fs::read(&path).unwrap());
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 4, "the .in/.out cases are there");
}

#[test]
fn atoms_hosted_games_verify_export_and_play_in_tournaments() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("atoms.json");
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let replay_arg = replay.display().to_string();
    let out = atoms_duel(3, "4x4", 5, &replay, &["--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut scores: Vec<i64> =
        result["players"].as_array().unwrap().iter().map(|p| p["score"].as_i64().unwrap()).collect();
    scores.sort();
    assert_eq!(scores, [0, 1, 2], "scores are the players each one outlasted: {result}");
    assert!(arena(&["verify", &replay_arg]).status.success());
    let out = arena(&["duel", "--game", "atoms", "--players", "3", "--no-replay", &greedy, &random]);
    assert!(!out.status.success(), "three seats need three bots");
    // A map is refused, not ignored (the result named a map Atoms never used); so is LCR's.
    let duel = map("duel.txt");
    let out = arena(&["duel", "--game", "atoms", "--map", &duel, "--no-replay", &greedy, &random]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(err.contains("Atoms is played on its parameters alone, not on a map file: leave out `"), "{err}");
    let out = arena(&["duel", "--game", "lcr", "--players", "3", "--map", &duel, "--no-replay"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("not on a map file"));

    // The replay exports as a classic save file that the classic program loads.
    let save = dir.path().join("game.sav");
    assert!(arena(&["export-save", &replay_arg, &save.display().to_string()]).status.success());
    let bytes = std::fs::read(&save).unwrap();
    assert_eq!(bytes[..3], [4, 4, 3]);
    // The game was won: PLAYFROM END names the winner and ends, as the winning PLACE does.
    let rep: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let last = &rep["steps"].as_array().unwrap().last().unwrap()["frame"];
    let winner = ["Red", "Green", "Purple"][last["winner"].as_u64().expect("a winner") as usize];
    let out = arena_fed(dir.path(), &["play", "atoms"], b"LOAD game.sav\nPLAYFROM END\nDISPLAY\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("Game Loaded\n{winner} Wins\n"));
    // The move before the last loads as the replay's board then.
    let moves = (bytes.len() - 3) / 4;
    let steps = rep["steps"].as_array().unwrap();
    let before = steps.iter().rposition(|s| s["frame"]["move"] == moves - 1).unwrap();
    let board = atoms_board(&rep, before + 1);
    let input = format!("LOAD game.sav\nPLAYFROM {}\nDISPLAY\n", moves - 1);
    let out = String::from_utf8(arena_fed(dir.path(), &["play", "atoms"], input.as_bytes()).stdout).unwrap();
    for row in &board {
        let row: String = row.split(' ').map(|c| if c == ".." { "  " } else { c }).collect::<Vec<_>>().join("|");
        assert!(out.contains(&format!("|{row}|")), "the loaded game is the replay's board:\n{out}\n{board:?}");
    }

    // A 4-player tournament of the sample bots through the shared tournament code.
    let bots = [
        format!("g1={greedy}"),
        format!("r1={random}"),
        format!("g2={greedy}"),
        format!("r2={random}"),
        format!("r3={random}"),
    ];
    let board = tournament(&dir.path().join("t"), &["--game", "atoms", "--seats", "4", "--size", "5x5"], &bots);
    assert_eq!(board["matches"], 20, "5 groups of 4, each in 4 seat rotations");
    let total: i64 = board["rows"].as_array().unwrap().iter().map(|r| r["total_score"].as_i64().unwrap()).sum();
    assert_eq!(total, 20 * 6, "each match hands out 0 + 1 + 2 + 3");
    for r in board["rows"].as_array().unwrap() {
        assert_eq!(r["games"], 16, "{r}");
    }
}

#[test]
fn tactics_plays_the_handout_examples_through_the_binary() {
    for (rounds, file) in [("2", "example1.txt"), ("1", "example2.txt")] {
        let text = std::fs::read_to_string(root().join("arena/src/games/tactics/examples").join(file)).unwrap();
        let (mut input, mut expected) = (String::new(), String::new());
        for line in text.split_inclusive('\n') {
            match line.strip_prefix(" > ") {
                Some(typed) => {
                    input.push_str(typed);
                    expected.push_str(" > ");
                }
                None => expected.push_str(line),
            }
        }
        // Example 1 is a tie: its block's last, blank line is not output (rulings).
        if let Some(tie) = expected.strip_suffix("field(s)!\n\n") {
            expected = format!("{tie}field(s)!\n");
        }
        let out = arena_fed(&root(), &["play", "tactics", rounds, &map("tactics/config_01.txt")], input.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{file}");
    }
    let out = arena(&["play", "tactics", "2"]);
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned()),
        (Some(1), "[ERROR] Wrong number of parameters!\n".to_string())
    );
    let out = arena(&["play", "tactics", "2", "maps/none.txt"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn tactics_hosted_games_verify_forfeit_and_rank_by_wins() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("tactics.json");
    let replay_arg = replay.display().to_string();
    let (greedy, random) = (bin("tactics-greedy"), bin("tactics-random"));
    let config = map("tactics/config_02.txt");
    let base = ["duel", "--game", "tactics", "--map", &config, "--rounds", "4", "--seed", "3", "--json"];
    let out = arena(&[&base[..], &["--replay", &replay_arg, &random, &greedy]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rep: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let last = &rep["steps"].as_array().unwrap().last().unwrap()["frame"];
    assert_eq!(last["over"], true);
    assert!(last["round"].as_u64().unwrap() <= 4, "--rounds 4 is honoured: {last}");
    for i in 0..2 {
        assert_eq!(result["players"][i]["score"], last["fields"][i], "the score is the fields held: {result}");
    }
    assert!(arena(&["verify", &replay_arg]).status.success());

    // A refused command ends the game at once: the cheat scores 0 and loses.
    let out = arena(&[&base[..], &["--no-replay", &greedy, &script("tactics-cheat.sh")]].concat());
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(player(&result, 1), (0, false, Some("invalid_move".to_string())), "{result}");
    assert_eq!(result["winner"], 0, "{result}");
    assert!(arena(&["duel", "--game", "tactics", "--no-replay", &greedy, &random]).status.code() != Some(0));

    // In a tournament the bot with most wins leads, whatever its total of fields.
    let bots =
        [format!("greedy={greedy}"), format!("random={random}"), format!("passer={}", script("tactics-passer.sh"))];
    let board = tournament(&dir.path().join("t"), &["--game", "tactics", "--map", &config, "--rounds", "3"], &bots);
    assert_eq!(board["matches"], 6, "3 pairings, both sides");
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows[0]["bot"], "greedy", "{board}");

    // Without a config the tournament stops before writing anything.
    let none = dir.path().join("none");
    let none_arg = none.display().to_string();
    let out = arena(&["tournament", "--game", "tactics", "--out", &none_arg, "--bot", &bots[0], "--bot", &bots[1]]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Tactics needs a config: --map FILE"), "{stderr}");
    assert!(!none.exists(), "no output folder is left behind");
    for pair in rows.windows(2) {
        assert!(pair[0]["wins"].as_u64() >= pair[1]["wins"].as_u64(), "ranked by wins first: {board}");
    }
}

#[test]
fn a_duel_warns_about_a_bot_that_never_moved() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json").display().to_string();
    let (waiter, greedy) = (bin("waiter"), bin("greedy"));
    let out = arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay, &waiter, &greedy]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // On the course map the final's neighbours are a void and fire: only a jump reaches it.
    assert!(
        err.contains("warning: waiter (player 1) never moved (it answered WAIT to every TICK); the final is unreachable without J"),
        "{err}"
    );
    assert!(!err.contains("greedy (player 2)"), "greedy moved: {err}");
    let text = String::from_utf8_lossy(&arena(&["replay", &replay]).stdout).into_owned();
    assert!(text.contains("warning: waiter (player 1) never moved"), "the replay tells it too: {text}");
    let out = arena(&["duel", "--map", &map("jump.txt"), "--no-replay", &greedy, &greedy]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "no warning when both moved");
}

/// Each game heads its result table's columns with what they mean: Resource Rush's `finished`
/// (the final reached), Tactics' and Atoms' `won` with what their scores count (before, their
/// tables said `finished` for a win).
#[test]
fn each_game_s_result_table_says_what_its_columns_mean() {
    let header = |args: &[&str]| {
        let out = arena(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().find(|l| l.contains("player")).unwrap_or_else(|| panic!("no header: {text}"));
        line.split(['│', '┆']).map(str::trim).filter(|c| !c.is_empty()).collect::<Vec<_>>().join(",")
    };
    let (greedy, waiter) = (bin("greedy"), bin("waiter"));
    let rush = header(&["duel", "--map", &map("duel.txt"), "--no-replay", &greedy, &waiter]);
    assert_eq!(rush, "#,player,score,finished,forfeit", "Resource Rush's table is as it was");
    let (greedy, random) = (bin("tactics-greedy"), bin("tactics-random"));
    let config = map("tactics/config_02.txt");
    let tactics =
        header(&["duel", "--game", "tactics", "--map", &config, "--rounds", "1", "--no-replay", &greedy, &random]);
    assert_eq!(tactics, "#,player,fields,won,forfeit");
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let atoms = header(&["duel", "--game", "atoms", "--size", "4x4", "--seed", "5", "--no-replay", &greedy, &random]);
    assert_eq!(atoms, "#,player,outlasted,won,forfeit");
}

#[test]
fn a_bot_named_through_a_parent_folder_plays_in_its_box() {
    let dir = tempfile::tempdir().unwrap();
    // target/<profile>/../<profile>/greedy: the box holds the file, not the folders on the way.
    let profile = bins().file_name().unwrap().to_str().unwrap();
    let greedy = format!("{}/../{profile}/greedy", bins().display());
    let (r, _) = duel(dir.path(), "duel.txt", &[], [&greedy, &bin("waiter")]);
    let (score, finished, forfeit) = player(&r, 0);
    assert!(score > 1000 && finished && forfeit.is_none(), "greedy plays: {r}");
}

/// The duel's hint to watch its replay names the arena as the user started it: by a path when
/// it is not on the PATH (`./target/release/arena`, whose `arena replay` would not run), else as
/// `arena` (the control); a replay path with a space is quoted as a shell word.
#[test]
fn the_watch_hint_names_the_arena_as_it_was_started() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("my replay.json");
    let hint = |arg0: &str| {
        let out = std::process::Command::new(bin("arena"))
            .arg0(arg0)
            .current_dir(root())
            .args(["duel", "--map", &map("duel.txt"), "--replay"])
            .arg(&replay)
            .args([&bin("waiter"), &bin("waiter")])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        stdout.lines().find(|l| l.starts_with("Replay: ")).map(str::to_string).unwrap_or_else(|| panic!("{stdout}"))
    };
    let quoted = format!("'{}'", replay.display());
    assert!(hint("./target/release/arena").ends_with(&format!("(watch: ./target/release/arena replay {quoted})")));
    assert!(hint("arena").ends_with(&format!("(watch: arena replay {quoted})")));
}

/// What a student most often gets wrong when naming a bot, said with the fix: a path with a
/// space left unquoted inside the command (the program becomes its first part), and the bot's
/// folder instead of its program.
#[test]
fn a_bot_command_a_student_got_wrong_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("my bots/cbot");
    std::fs::create_dir_all(&folder).unwrap();
    let program = shared_copy(&folder, &bin("waiter"));
    for open in [dir.path().to_path_buf(), dir.path().join("my bots")] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let waiter = bin("waiter");
    let start = |bot: &str| {
        let out = arena_in(dir.path(), &["duel", "--map", &map("duel.txt"), "--no-replay", bot, &waiter]);
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = start(&program);
    let first = program.split(' ').next().unwrap_or_default();
    assert!(err.contains(&format!("its program is `{first}`")), "{err}");
    assert!(err.contains(&format!("quote it inside the command, `\"'{program}'\"`")), "{err}");
    let err = start("./my bots/cbot");
    assert!(err.contains("its program is `./my`"), "{err}");
    let err = start("'my bots/cbot'");
    assert!(err.contains("`my bots/cbot` is a folder, not a program"), "{err}");
}

/// A bot that crashes: the duel says at which tick, and where its stderr is and how it ends
/// (before: "its stderr is in the match log", naming no file).
#[test]
fn a_crash_in_a_duel_names_its_log_and_last_words() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let crasher = "sh -c 'read l; echo \"Traceback: NameError: name x is not defined\" >&2; exit 1'";
    let out =
        arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay.display().to_string(), crasher, &bin("waiter")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Why: At tick 1 "), "{stdout}");
    let log = replay.with_extension("log");
    assert!(
        stdout.contains(&format!(
            "stderr ends: Traceback: NameError: name x is not defined (all of it in {})",
            log.display()
        )),
        "{stdout}"
    );
    assert!(std::fs::read_to_string(&log).unwrap().contains("NameError"));
}

/// A bot killed by a signal: the duel's table, its "Why:" and its replay name the signal and
/// what it means, from the kernel's wait status (the C bot says nothing on stderr). The
/// controls: a bot that exits with status 0, or with 139 (what a shell reports for a program
/// killed by SIGSEGV, which any bot may exit with), is not said to be killed by a signal.
#[test]
fn a_bot_killed_by_a_signal_is_named_with_its_signal() {
    let dir = tempfile::tempdir().unwrap();
    let segv = segfaulting_c_bot(dir.path());
    let replay = dir.path().join("r.json");
    let out =
        arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay.display().to_string(), &segv, &bin("waiter")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let segfault = "killed by signal SIGSEGV (segmentation fault: an invalid memory access, such as an index out \
                    of bounds or a null pointer)";
    assert!(stdout.contains(&format!("Why: At tick 3 segv was {segfault}; it wrote nothing to stderr.")), "{stdout}");
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(recorded["result"]["players"][0]["detail"], format!("the bot was {segfault}"), "{}", recorded["result"]);
    let last = &recorded["steps"][2]["replies"][0];
    assert_eq!((&last["failure"], &last["ended"]), (&serde_json::json!("crash"), &serde_json::json!({"signal": 11})));
    let verified = arena(&["verify", &replay.display().to_string()]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    // A shell bot that kills itself the same way; one that aborts.
    let dies = |how: &str| {
        let (r, _) = duel(dir.path(), "duel.txt", &[], [&format!("{} 2 {how}", script("dies.sh")), &bin("waiter")]);
        r["players"][0]["detail"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(dies("SEGV"), format!("the bot was {segfault}"));
    assert!(dies("ABRT").contains("SIGABRT (aborted (an assert failed, or the C++ runtime ended it"));
    // The controls.
    let clean = dies("0");
    assert!(clean.starts_with("the bot exited with status 0 (no error") && !clean.contains("signal"), "{clean}");
    let shell_code = dies("139");
    assert!(shell_code.starts_with("the bot exited with status 139 (a shell's way of saying"), "{shell_code}");
    assert_eq!(dies("3"), "the bot exited with status 3");
}

/// A bot that closes its stdin and stays alive: the referee cannot write its third prompt, and
/// the bot is said to have closed its stdin (it was said to have closed its stdout). It closes
/// it before its second answer, so that the third prompt always finds it closed (closed after,
/// the prompt could be written first, and lost unread: a timeout, on a loaded machine). The
/// control: one that closes its stdout after two answers is said to have done so.
#[test]
fn a_bot_that_closes_its_stdin_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let closes = |fd: &str| {
        let bot = dir.path().join(format!("closes-{fd}.sh"));
        let text = if fd == "0" {
            "n=0\nwhile read -r line; do\n  case $line in TICK*) n=$((n + 1)); if [ $n = 2 ]; then exec 0<&-; echo WAIT; \
             sleep 30; exit 0; fi; echo WAIT;; esac\ndone\n"
                .to_string()
        } else {
            format!(
                "n=0\nwhile read -r line; do\n  case $line in TICK*) echo WAIT; n=$((n + 1)); [ $n = 2 ] && break;; \
                 esac\ndone\nexec {fd}>&-\nsleep 30\n"
            )
        };
        std::fs::write(&bot, text).unwrap();
        let (r, replay) = duel(dir.path(), "duel.txt", &[], [&format!("sh {}", bot.display()), &bin("waiter")]);
        let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(replay).unwrap()).unwrap();
        let last = recorded["steps"][2]["replies"][0].clone();
        (r["players"][0]["detail"].as_str().unwrap_or_default().to_string(), last["ended"].clone())
    };
    let (detail, ended) = closes("0");
    assert_eq!(detail, "the bot closed its stdin (stopped reading its input) but was still running");
    assert_eq!(ended, serde_json::json!("closed_input"));
    let (detail, ended) = closes("1");
    assert_eq!(detail, "the bot closed its stdout but was still running");
    assert_eq!(ended, serde_json::json!("running"));
}

/// A bot whose answer the game cannot read: the duel's "Why:" quotes it, and a "Fix:" line
/// gives the line it meant, as `arena check-bot` does, and so does its replay page (the game's
/// advice, not recorded in the replay). The control: a bot that forfeits otherwise (a crash) gets no "Fix:" line.
#[test]
fn a_malformed_answer_in_a_duel_gets_the_line_it_meant() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let lower = "sh -c 'while read -r l; do case \"$l\" in TICK*) echo \"move 1 0\";; esac; done'";
    let out =
        arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay.display().to_string(), lower, &bin("waiter")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("found `move 1 0`.\nFix: write `MOVE 1 0`: the keyword in upper case"), "{stdout}");
    let recorded = std::fs::read_to_string(&replay).unwrap();
    assert!(!recorded.contains("the keyword in upper case"), "the advice is shown, not recorded");
    // The replay's page says it too, under its "why".
    let page = dir.path().join("r.html");
    let viewed = arena(&["view", &replay.display().to_string(), "--out", &page.display().to_string()]);
    assert!(viewed.status.success(), "{}", String::from_utf8_lossy(&viewed.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#"<p class="why">Fix: write `MOVE 1 0`: the keyword in upper case"#), "{html}");
    let crasher = "sh -c 'read l; exit 1'";
    let out =
        arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay.display().to_string(), crasher, &bin("waiter")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Why: At tick 1 ") && !stdout.contains("Fix:"), "{stdout}");
}

/// A bot that printed a line no TICK asked for: the duel's "Why:" quotes the line, safely (its
/// escape shown as `\e`, its own backtick inside a double quote, as check-bot quotes it). The
/// control: a line without a backtick is quoted by single backticks, and another forfeit (a
/// malformed answer) quotes no such line.
#[test]
fn an_extra_line_in_a_duel_is_quoted_safely() {
    let dir = tempfile::tempdir().unwrap();
    let why = |bot: &str| {
        let out = arena(&["duel", "--map", &map("duel.txt"), "--no-replay", bot, &bin("waiter")]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success() && !stdout.contains('\u{1b}'), "{stdout}");
        stdout.lines().find(|l| l.starts_with("Why: ")).unwrap_or_default().to_string()
    };
    let chatty = |name: &str, extra: &str| {
        let path = dir.path().join(name);
        let script = format!("while read -r l; do case \"$l\" in TICK*) printf 'WAIT\\n{extra}\\n';; esac; done\n");
        std::fs::write(&path, script).unwrap();
        format!("sh {}", path.display())
    };
    let said = why(&chatty("backtick.sh", "plan: `go` \\033[2J east"));
    let quoted = "The line was `` plan: `go` \\e[2J east ``.";
    assert!(said.ends_with(&format!("(a second answer, or debug output, which goes to stderr?). {quoted}")), "{said}");
    let said = why(&chatty("plain.sh", "going east"));
    assert!(said.ends_with("The line was `going east`."), "the control: {said}");
    let said = why("sh -c 'while read -r l; do case \"$l\" in TICK*) echo \"move 1 0\";; esac; done'");
    assert!(said.contains("found `move 1 0`") && !said.contains("The line was"), "the control: {said}");
}

/// A bot that gives no answer in time gets a "Fix:" line under its "Why:", as a malformed
/// answer does (it had none), by what it was doing: idle, flush stdout; busy, the loop; and its
/// replay's page says it too. The control, a crash, still has none (above).
#[test]
fn a_timeout_in_a_duel_gets_a_fix_by_what_the_bot_was_doing() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let duel = |bot: &str| {
        let out = arena(&[
            "duel",
            "--map",
            &map("duel.txt"),
            "--clock",
            "wall",
            "--replay",
            &replay.display().to_string(),
            bot,
            &bin("waiter"),
        ]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let idle = duel("sh -c 'while read -r l; do :; done'");
    assert!(idle.contains("It used only "), "{idle}");
    assert!(idle.contains("forget to flush its output? The first answer may take 2000 ms"), "{idle}");
    assert!(idle.contains("\nFix: flush stdout after every answer: C `fflush(stdout);`"), "{idle}");
    let page = dir.path().join("r.html");
    let viewed = arena(&["view", &replay.display().to_string(), "--out", &page.display().to_string()]);
    assert!(viewed.status.success(), "{}", String::from_utf8_lossy(&viewed.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#"<p class="why">Fix: flush stdout after every answer"#), "{html}");
    let busy = duel("sh -c 'read l; read l; while :; do :; done'");
    assert!(busy.contains("It was busy computing"), "{busy}");
    assert!(busy.contains("\nFix: do less before the first answer") && !busy.contains("flush"), "{busy}");
}

/// A line of input without a newline, longer than the text programs read (here 3 MiB, made
/// here, sent as the program reads): each stops with a message saying so and a non-zero status,
/// its output up to then as with any input. The control: the same command, one line under the
/// limit, is just a command nobody knows.
#[test]
fn the_text_programs_refuse_an_endless_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let config = map("tactics/config_01.txt");
    let fed = |args: &[&str], input: Vec<u8>| {
        let mut child = Command::new(bin("arena"))
            .args(args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // The program stops reading at the limit: the rest meets a closed pipe.
        let writer = std::thread::spawn(move || drop(stdin.write_all(&input)));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        out
    };
    for (args, prompt) in [
        (&["play", "atoms"][..], ""),
        (&["play", "lcr", "--seed", "1"][..], "How many players are playing: "),
        (&["play", "tactics", "1", &config][..], " > "),
    ] {
        let out = fed(args, vec![b'a'; 3 << 20]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error: a line of input is longer than 1048576 bytes"), "{args:?}: {stderr}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.ends_with(prompt) && stdout.len() < 4096, "{args:?}: {stdout}");
        // The control.
        let mut short = vec![b'a'; (1 << 20) - 1];
        short.extend_from_slice(b"\n");
        let out = fed(args, short);
        assert!(String::from_utf8_lossy(&out.stderr).is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{args:?}: the end of input ends the program");
    }
}

/// Atoms and Tactics give a malformed answer's author a "Fix:" line too, from their own rules,
/// in the duel and on the replay page. An answer each game reads but refuses (an invalid move,
/// not a malformed one) gets the fix of what it refused, from the board the bot was shown, not
/// the malformed answer's.
#[test]
fn a_malformed_atoms_or_tactics_answer_gets_a_fix_from_its_rules() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let answering = |prompt_end: &str, answer: &str| {
        format!("sh -c 'while read -r l; do case \"$l\" in {prompt_end}) echo \"{answer}\";; esac; done'")
    };
    let atoms = |answer: &str| {
        let bot = answering("END", answer);
        let args = ["duel", "--game", "atoms", "--size", "3x3", "--replay", &replay_arg, &bot, &bin("atoms-random")];
        String::from_utf8_lossy(&arena(&args).stdout).into_owned()
    };
    let tactics = |answer: &str| {
        let bot = answering("END", answer);
        let config = map("tactics/config_01.txt");
        let args =
            ["duel", "--game", "tactics", "--map", &config, "--replay", &replay_arg, &bot, &bin("tactics-random")];
        String::from_utf8_lossy(&arena(&args).stdout).into_owned()
    };
    let page = |name: &str| {
        let html_path = dir.path().join(name);
        let viewed = arena(&["view", &replay_arg, "--out", &html_path.display().to_string()]);
        assert!(viewed.status.success(), "{}", String::from_utf8_lossy(&viewed.stderr));
        std::fs::read_to_string(html_path).unwrap()
    };

    let stdout = atoms("place 1 1");
    assert!(stdout.contains("Fix: write `PLACE 1 1`: the keyword in upper case"), "{stdout}");
    assert!(page("a.html").contains(r#"<p class="why">Fix: write `PLACE 1 1`"#));
    let stdout = atoms("PLACE 9 9");
    assert!(stdout.contains("made a move the rules do not allow"), "off the board is invalid, not malformed: {stdout}");
    assert!(stdout.contains("Fix: (9, 9) is off the 3x3 board") && !stdout.contains("Fix: write"), "{stdout}");

    let stdout = tactics("info");
    assert!(stdout.contains("Fix: `info` is a command of the classic program, not an answer"), "{stdout}");
    assert!(page("t.html").contains(r#"<p class="why">Fix: `info` is a command"#));
    let stdout = tactics("place 99 1 1");
    assert!(stdout.contains("made a move the rules do not allow"), "a refused placement is not malformed: {stdout}");
    assert!(stdout.contains("Fix: you had 1 chip(s) left to place"), "{stdout}");
}

/// A duel's crash explanation points to no log it did not keep: with `--no-replay` it quotes
/// how the stderr ends and says how to keep all of it (it said "its stderr is in the match log",
/// a file never written). The control: with a replay, the log is named, and written.
#[test]
fn a_crash_without_a_replay_points_to_no_log() {
    let dir = tempfile::tempdir().unwrap();
    let bot = format!("python3 {} owncrash", root().join("tests/bots/flawed.py").display());
    let map = map("duel.txt");
    let out = arena_in(dir.path(), &["duel", "--map", &map, "--no-replay", &bot, &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Why: At tick 2 flawed exited with status 1.\n"), "{stdout}");
    assert!(stdout.contains("stderr ends: ValueError: no plan for tick 2 (at File"), "{stdout}");
    assert!(stdout.contains("(no log was kept: run without --no-replay to keep all of it)"), "{stdout}");
    assert!(!stdout.contains("match log"), "{stdout}");
    // The control.
    let replay = dir.path().join("r.json");
    let out = arena_in(dir.path(), &["duel", "--map", &map, "--replay", "r.json", &bot, &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("exited with status 1; its stderr is in the match log."), "{stdout}");
    assert!(stdout.contains("(all of it in r.log)") && replay.with_extension("log").exists(), "{stdout}");
}

/// A duel's crash of a Python script without `#!` gets the doctor's fix (it only quoted
/// `/bin/sh`'s errors, with no Fix:), with `--cwd` too, its files looked for in that folder
/// (it was given no fix there). The control: the same code run through `python3` crashes in
/// its own code, and gets no such fix.
#[test]
fn a_script_without_a_shebang_gets_the_doctor_s_fix_in_a_duel() {
    let dir = tempfile::tempdir().unwrap();
    let flawed = std::fs::read_to_string(root().join("tests/bots/flawed.py")).unwrap();
    std::fs::write(dir.path().join("bare.py"), &flawed).unwrap();
    std::process::Command::new("chmod").arg("+x").arg(dir.path().join("bare.py")).status().unwrap();
    let map = map("duel.txt");
    let out = arena_in(dir.path(), &["duel", "--map", &map, "--no-replay", "./bare.py", &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Fix: `./bare.py` does not start with a `#!` line, so the system ran it with `/bin/sh`"),
        "{stdout}"
    );
    let cwd = dir.path().display().to_string();
    let out = arena(&["duel", "--map", &map, "--no-replay", "--cwd", &cwd, "./bare.py", &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Fix: `./bare.py` does not start with a `#!` line"), "--cwd: {stdout}");
    // The control.
    let out = arena_in(dir.path(), &["duel", "--map", &map, "--no-replay", "python3 bare.py owncrash", &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Why: At tick 2") && !stdout.contains("#!"), "{stdout}");
}

/// A duel's crash in the bot's own code says how to run the bot by hand as it ran: its own
/// command in its `--cwd` folder, with its environment (it said `./bot < tests/test1.txt`,
/// whatever the bot and its folder, and whether that file existed).
#[test]
fn a_crash_s_fix_runs_the_bot_by_hand_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let flawed = std::fs::read_to_string(root().join("tests/bots/flawed.py")).unwrap();
    std::fs::write(dir.path().join("bot.py"), &flawed).unwrap();
    let cwd = dir.path().display().to_string();
    let map = map("duel.txt");
    let out = arena(&["duel", "--map", &map, "--no-replay", "--cwd", &cwd, "python3 bot.py owncrash", &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // (A temporary folder's name needs no quotes in a shell.)
    assert!(stdout.contains(&format!("run it by hand, `(cd {cwd} && ARENA_SEED=")), "{stdout}");
    assert!(
        stdout.contains("ARENA_PLAYER=1 python3 bot.py owncrash)`, and paste the header and TICK lines"),
        "{stdout}"
    );
    assert!(!stdout.contains("test1.txt") && !stdout.contains("./bot"), "{stdout}");
}

/// A bot that floods its stderr is warned in the duel's summary, with how much was cut and
/// that it costs it time (the log's note alone said so). The control: the greedy bot is not.
#[test]
fn a_flooded_stderr_is_warned_in_a_duel() {
    let map = map("tight.txt");
    let out = arena(&["duel", "--map", &map, "--no-replay", &script("stderrflood.sh"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let warned = "wrote more to stderr than the arena keeps: the first 64 KiB were kept";
    assert_eq!(stdout.matches(warned).count(), 1, "{stdout}");
    assert!(stdout.contains("(player 1) wrote more") && stdout.contains("costs it time"), "{stdout}");
    assert!(stdout.contains("Fix: write less to stderr"), "{stdout}");
    assert!(!stdout.contains("(player 2) wrote more"), "{stdout}");
}

/// A bot that floods its stderr until it runs out of time is told in the duel's "Why:" that the
/// flood most likely made it late, with the stderr fix, and not warned of it twice (it was
/// told it took more than 1000 ms of CPU time having used 2, and to flush stdout). The control,
/// a flood without a timeout, is warned as before (`a_flooded_stderr_is_warned_in_a_duel`), and
/// gets no such "Why:".
#[test]
fn a_timeout_a_flood_of_stderr_made_is_put_down_to_it_in_a_duel() {
    let out = arena(&["duel", "--map", &map("duel.txt"), "--no-replay", &script("stderrflood.sh"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("\nWhy: At tick ") && stdout.contains(" stderrflood ran out of time (stopped after "),
        "{stdout}"
    );
    assert!(
        stdout.contains("that flood, not its thinking, most likely made it late.\nFix: write less to stderr"),
        "{stdout}"
    );
    assert!(!stdout.contains("flush") && !stdout.contains("(player 1) wrote more"), "{stdout}");
    // The control.
    let out = arena(&["duel", "--map", &map("tight.txt"), "--no-replay", &script("stderrflood.sh"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("(player 1) wrote more") && !stdout.contains("ran out of time"), "{stdout}");
    // With a replay, its log holds the stderr's first part only (past the cap, nothing is kept):
    // said so, not "all of it" (the control: a crash's whole stderr, in the test above).
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let out =
        arena(&["duel", "--map", &map("duel.txt"), "--replay", &replay_arg, &script("stderrflood.sh"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let log = replay.with_extension("log");
    assert!(stdout.contains(&format!("(its first part in {})", log.display())), "{stdout}");
    assert!(!stdout.contains("(all of it in") && log.is_file(), "{stdout}");
}

/// A crash in the bot's own code gets the doctor's fix in a duel, naming the line its
/// traceback names and the replay's tick that shows the state it was in (the duel only
/// quoted how its stderr ended); without a replay, how to keep one. The control: a crash
/// reading its input gets no such fix.
#[test]
fn a_crash_in_the_bot_s_own_code_gets_the_doctor_s_fix_in_a_duel() {
    let dir = tempfile::tempdir().unwrap();
    let flawed = |flaw: &str| format!("python3 {} {flaw}", root().join("tests/bots/flawed.py").display());
    let map = map("duel.txt");
    let duel = |bot: &str, replay: &[&str]| {
        let out = arena_in(dir.path(), &[&["duel", "--map", &map], replay, &[bot, &bin("greedy")]].concat());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let kept = duel(&flawed("owncrash"), &["--replay", "r.json"]);
    assert!(kept.contains("\nFix: it read its input and answered well until then, so the input is not to blame: fix the line the error names (File \""), "{kept}");
    assert!(kept.contains("flawed.py\", line ") && kept.contains("for the state it was in at `TICK 2`"), "{kept}");
    assert!(kept.contains(" replay r.json --tick 1` shows it,"), "{kept}");
    let dropped = duel(&flawed("owncrash"), &["--no-replay"]);
    assert!(
        dropped.contains("play it again without `--no-replay`: `arena replay FILE --tick 1` then shows it"),
        "{dropped}"
    );
    // The control.
    let reading = duel(&flawed("tickcrash"), &["--no-replay"]);
    assert!(reading.contains("Why: At tick 2 ") && !reading.contains("Fix:"), "{reading}");
}

/// `arena view --open` where no browser can be opened says so, with the page's path and URL,
/// and keeps the opener's own noise off the terminal (it showed `xdg-open`'s "www-browser: not
/// found" and said nothing). The control: an opener that succeeds is followed by no such words.
#[test]
fn view_open_without_a_browser_says_where_the_page_is() {
    let dir = tempfile::tempdir().unwrap();
    let (_, replay) = duel(dir.path(), "tight.txt", &[], [&bin("greedy"), &bin("greedy")]);
    let opener = |status: i32| {
        let bin_dir = dir.path().join(format!("bin{status}"));
        std::fs::create_dir_all(&bin_dir).unwrap();
        let fake = bin_dir.join(if cfg!(target_os = "macos") { "open" } else { "xdg-open" });
        std::fs::write(
            &fake,
            format!("#!/bin/sh\necho '/usr/bin/xdg-open: 882: www-browser: not found' >&2\nexit {status}\n"),
        )
        .unwrap();
        std::process::Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
        let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
        std::process::Command::new(bin("arena"))
            .env("PATH", path)
            .args(["view", "--open", &replay.display().to_string()])
            .output()
            .unwrap()
    };
    let out = opener(3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the page was written: {stderr}");
    let page = stdout.trim();
    assert!(std::path::Path::new(page).exists(), "{stdout}");
    assert!(
        stderr.contains("No browser could be opened") && stderr.contains(&format!("open it by hand: {page}")),
        "{stderr}"
    );
    assert!(stderr.contains("file://"), "{stderr}");
    assert!(!stderr.contains("www-browser"), "{stderr}");
    // The control.
    let out = opener(0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("No browser") && !stderr.contains("www-browser"), "{stderr}");
}

/// A duel names the log of what the bots wrote to stderr (a student's debug output), which no
/// line named when nobody forfeited. The control: with no stderr there is no log, and no line.
#[test]
fn a_duel_names_the_log_of_the_bots_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let map = map("tight.txt");
    let out =
        arena_in(dir.path(), &["duel", "--map", &map, "--replay", "r.json", &script("narrator.sh"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("\nStderr: r.log  (what the bots wrote to stderr)\n"), "{stdout}");
    let log = std::fs::read_to_string(dir.path().join("r.log")).unwrap();
    assert!(log.contains("got: TICK 1"), "{log}");
    // The control.
    let out = arena_in(dir.path(), &["duel", "--map", &map, "--replay", "q.json", &bin("waiter"), &bin("greedy")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("Replay: q.json"), "{stdout}");
    assert!(!stdout.contains("Stderr:") && !dir.path().join("q.log").exists(), "{stdout}");
    // A replay named like its log (`x.log`) is refused before any match: the log overwrote it.
    let out =
        arena_in(dir.path(), &["duel", "--map", &map, "--replay", "x.log", &script("narrator.sh"), &bin("greedy")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("name the replay otherwise, e.g. `x.json`"), "{stderr}");
    assert!(!dir.path().join("x.log").exists() && !dir.path().join("x.json").exists(), "nothing is written");
}
