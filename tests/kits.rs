//! The starter kits (`starter-kits/`): each kit's view of the game equals the referee's after
//! every tick (differential: the sample bots print their view under `RR_DEBUG`, compared with
//! the replay, over random duels on random maps from both seats and over the 20 tests, with LF
//! and CRLF input); the sample bots pass the easy tests, duel every Rust sample bot without a
//! forfeit, are at least as strong as cpp-greedy and answer identically in all three languages;
//! the Atoms and Tactics loops play whole games.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use arena_e2e::*;
use serde_json::Value;

/// A small deterministic generator (xorshift64*), so that every run plays the same maps.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// A random valid map: 1..9 x 1..9 cells of every kind, walkable starts and final (possibly the
/// same cell), 1..60 rounds.
fn random_map(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (rows, cols) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
    let mut cells: Vec<String> = (0..rows * cols)
        .map(|_| match rng.below(100) {
            0..=29 => "0".to_string(),
            30..=59 => (1 + rng.below(99)).to_string(),
            60..=67 => "W".to_string(),
            68..=73 => "E".to_string(),
            74..=80 => "F".to_string(),
            81..=87 => "J".to_string(),
            88..=93 => "D".to_string(),
            _ => "T".to_string(),
        })
        .collect();
    let walkable = |c: &str| !matches!(c, "E" | "W" | "F");
    if !cells.iter().any(|c| walkable(c)) {
        cells[0] = "0".to_string();
    }
    let open: Vec<usize> = (0..cells.len()).filter(|&i| walkable(&cells[i])).collect();
    let mut pick = || open[rng.below(open.len() as u64) as usize];
    let places = [pick(), pick(), pick()];
    let mut text = format!("ARENA {rows} {cols} {}\n", 1 + rng.below(60));
    for p in places {
        text.push_str(&format!("{} {}\n", p / cols, p % cols));
    }
    text.push_str("MAP\n");
    for r in 0..rows {
        text.push_str(&cells[r * cols..(r + 1) * cols].join(" "));
        text.push('\n');
    }
    text.push_str("END_MAP\nSTREAM\n");
    text
}

/// Plays a duel (players named `a` and `b`) and returns its replay and the stderr log.
fn play(dir: &Path, map: &Path, seed: u64, bots: [&str; 2]) -> (Value, String) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let replay = dir.join(format!("duel-{seed}-{}.json", NEXT.fetch_add(1, Ordering::SeqCst)));
    let (map_arg, replay_arg, seed_arg) = (map.display().to_string(), replay.display().to_string(), seed.to_string());
    let args = ["duel", "--map", &map_arg, "--replay", &replay_arg, "--seed", &seed_arg, "--name", "a", "--name", "b"];
    let out = arena(&[&args[..], &bots[..]].concat());
    assert!(out.status.success(), "arena duel failed: {}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&std::fs::read(&replay).expect("replay")).expect("replay JSON");
    let log = std::fs::read_to_string(replay.with_extension("log")).unwrap_or_default();
    (json, log)
}

/// The `RR_VIEW` lines in `text`, as numbers (in a match log, after its margin `  | `).
fn view_lines(text: &str) -> Vec<Vec<i64>> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  | ").unwrap_or(l).strip_prefix("RR_VIEW "))
        .map(|l| l.split(' ').map(|w| w.parse().expect("a number in RR_VIEW")).collect())
        .collect()
}

/// The `RR_VIEW` lines player `seat` (0-based) wrote to stderr, from a duel's log.
fn seat_views(log: &str, seat: usize) -> Vec<Vec<i64>> {
    let head = format!("===== player {} ", seat + 1);
    let section = log.split("===== player ").find(|s| format!("===== player {s}").starts_with(&head));
    view_lines(section.unwrap_or(""))
}

/// The replay's frame after `k` steps.
fn frame(replay: &Value, k: usize) -> &Value {
    if k == 0 {
        &replay["initial"]
    } else {
        &replay["steps"][k - 1]["frame"]
    }
}

/// Items left and the sum of the resources left after `k` steps, rebuilt from the setup's map
/// and the events that cleared cells.
fn items_after(replay: &Value, k: usize) -> (i64, i64) {
    let mut grid: Vec<Vec<String>> = replay["setup"]["map"]
        .as_array()
        .expect("setup.map")
        .iter()
        .map(|row| row.as_str().unwrap_or("").split_whitespace().map(str::to_string).collect())
        .collect();
    for step in 1..=k {
        for event in frame(replay, step)["events"].as_array().into_iter().flatten() {
            if matches!(event["type"].as_str(), Some("collected" | "cancelled" | "taken")) {
                let (x, y) = (event["cell"][0].as_u64().unwrap_or(0), event["cell"][1].as_u64().unwrap_or(0));
                grid[x as usize][y as usize] = "0".to_string();
            }
        }
    }
    let cells = grid.iter().flatten();
    let items =
        cells.clone().filter(|c| matches!(c.as_str(), "J" | "D" | "T") || c.parse::<i64>().is_ok_and(|v| v > 0));
    (items.count() as i64, cells.filter_map(|c| c.parse::<i64>().ok()).sum())
}

/// The player's position, score, multiplier and Jump in a frame.
fn player_fields(f: &Value, p: usize) -> [i64; 5] {
    let q = &f["players"][p];
    [
        q["pos"][0].as_i64().unwrap_or(-1),
        q["pos"][1].as_i64().unwrap_or(-1),
        q["score"].as_i64().unwrap_or(-1),
        q["multiplier"].as_i64().unwrap_or(-1),
        i64::from(q["jump"].as_bool().unwrap_or(false)),
    ]
}

/// Checks every view of the bot in `seat` against the replay; `first` is the frame of the first
/// view (0 in a duel, 1 in a test). Views past the replay's end (a bot run on its own) are
/// ignored. Returns how many were compared.
fn compare_views(replay: &Value, seat: usize, views: &[Vec<i64>], first: usize, label: &str) -> usize {
    let steps = replay["steps"].as_array().map_or(0, Vec::len);
    let other = 1 - seat;
    // The step at which the opponent forfeited for a reason its TICK lines cannot show.
    let hidden_forfeit = (1..=steps).find(|&k| {
        let f = &frame(replay, k)["players"][other];
        f["status"] == "forfeit" && f["forfeit"] != "fire"
    });
    let mut compared = 0;
    for (i, view) in views.iter().enumerate() {
        let k = first + i;
        assert_eq!(view.len(), 13, "{label}: RR_VIEW line {i} has {} numbers", view.len());
        assert_eq!(view[0] as usize, k, "{label}: views must come one per tick, in order");
        if k > steps {
            break;
        }
        let f = frame(replay, k);
        let want_me = player_fields(f, seat);
        let mut want_opp = player_fields(f, other);
        let mut seen_opp: [i64; 5] = view[6..11].try_into().unwrap_or_default();
        if hidden_forfeit.is_some_and(|at| k >= at) {
            seen_opp[2] = 0;
            want_opp[2] = 0;
        }
        assert_eq!(view[1..6], want_me, "{label}: frame {k}: your x y score multiplier jump");
        assert_eq!(seen_opp, want_opp, "{label}: frame {k}: the opponent's x y score multiplier jump");
        let (items, value) = items_after(replay, k);
        assert_eq!([view[11], view[12]], [items, value], "{label}: frame {k}: items and resource value left");
        compared += 1;
    }
    compared
}

/// The answers player `seat` gave, in order.
fn answers(replay: &Value, seat: usize) -> Vec<String> {
    let steps = replay["steps"].as_array().into_iter().flatten();
    steps
        .flat_map(|s| s["replies"].as_array().into_iter().flatten())
        .filter(|r| r["player"].as_u64() == Some(seat as u64))
        .map(|r| r["answer"].as_str().unwrap_or("-").to_string())
        .collect()
}

fn debug_command(command: &str) -> String {
    format!("env RR_DEBUG=1 {command}")
}

#[test]
fn every_kit_sees_what_the_referee_records_in_random_duels_from_both_seats() {
    let dir = tempfile::tempdir().unwrap();
    let kits = kits();
    let (greedy, random, reference, waiter, cpp) =
        (bin("greedy"), bin("random"), bin("reference"), bin("waiter"), cpp_greedy());
    let opponents = [&greedy, &random, &reference, &waiter, &cpp, &kits[0].greedy];
    let maps: Vec<_> = (0..16u64)
        .map(|seed| {
            let path = dir.path().join(format!("random-{seed}.txt"));
            std::fs::write(&path, random_map(seed)).unwrap();
            path
        })
        .collect();
    // Every kit plays the same duels, so their answers can be compared across languages too.
    let all_answers: Vec<BTreeMap<(u64, usize), Vec<String>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = kits
            .iter()
            .map(|kit| {
                let (maps, opponents, dir) = (&maps, &opponents, dir.path());
                scope.spawn(move || {
                    let mine = debug_command(&kit.greedy);
                    let mut compared = 0;
                    let mut seen = BTreeMap::new();
                    for (seed, map) in maps.iter().enumerate() {
                        let seed = seed as u64;
                        let opponent = opponents[seed as usize % opponents.len()].as_str();
                        for seat in 0..2 {
                            let bots = if seat == 0 { [mine.as_str(), opponent] } else { [opponent, mine.as_str()] };
                            let sub = dir.join(format!("{}-{seed}-{seat}", kit.name));
                            std::fs::create_dir_all(&sub).unwrap();
                            let (replay, log) = play(&sub, map, seed, bots);
                            let label =
                                format!("{} as player {} on random map {seed} vs {opponent}", kit.name, seat + 1);
                            let me = &replay["result"]["players"][seat];
                            assert!(me["forfeit"].is_null(), "{label}: the kit bot forfeited: {me}");
                            let views = seat_views(&log, seat);
                            let asked = answers(&replay, seat).len();
                            assert_eq!(views.len(), asked, "{label}: one view per TICK\n{log}");
                            compared += compare_views(&replay, seat, &views, 0, &label);
                            seen.insert((seed, seat), answers(&replay, seat));
                        }
                    }
                    assert!(compared > 200, "{}: only {compared} frames compared", kit.name);
                    seen
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a kit's duels")).collect()
    });
    for (kit, seen) in kits.iter().zip(&all_answers).skip(1) {
        assert_eq!(seen, &all_answers[0], "{} answers like {} in every duel", kit.name, kits[0].name);
    }
}

#[test]
fn every_kit_sees_an_opponent_that_walks_into_fire_forfeit() {
    let dir = tempfile::tempdir().unwrap();
    let fire = root().join("maps/fire.txt");
    let walker = script("firewalker.sh");
    for kit in kits() {
        let mine = debug_command(&kit.greedy);
        for seat in 0..2 {
            let bots = if seat == 0 { [mine.as_str(), walker.as_str()] } else { [walker.as_str(), mine.as_str()] };
            let (replay, log) = play(dir.path(), &fire, 5, bots);
            assert_eq!(replay["result"]["players"][1 - seat]["forfeit"], "fire", "the control walks into fire");
            let label = format!("{} as player {} vs firewalker", kit.name, seat + 1);
            let compared = compare_views(&replay, seat, &seat_views(&log, seat), 0, &label);
            assert!(compared > 3, "{label}: views after the fire were compared ({compared})");
        }
    }
}

/// Runs `command` (split on spaces) with `input` on stdin and the test-mode environment, which
/// must succeed; returns stdout and stderr.
fn run_direct(command: &str, input: &[u8]) -> (String, String) {
    let (ok, stdout, stderr) = run_kit(command, "test", true, input);
    assert!(ok, "{command}: {stderr}");
    (stdout, stderr)
}

/// Runs `command` (split on spaces) with `input` on stdin, `RR_MODE` set to `mode` and
/// `RR_DEBUG` set or not (`debug`); returns whether it exited with success, stdout and stderr.
fn run_kit(command: &str, mode: &str, debug: bool, input: &[u8]) -> (bool, String, String) {
    let words: Vec<&str> = command.split(' ').collect();
    let mut kit = Command::new(words[0]);
    kit.args(&words[1..]).env("RR_MODE", mode).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if debug {
        kit.env("RR_DEBUG", "1");
    } else {
        kit.env_remove("RR_DEBUG");
    }
    let mut child = kit.spawn().expect("start a kit bot");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for a kit bot");
    let _ = feeder.join();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// The tests `arena test` printed as passed.
fn passed(stdout: &str) -> Vec<usize> {
    stdout
        .lines()
        .filter(|l| l.contains("  PASS  "))
        .filter_map(|l| l.strip_prefix("test")?.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn every_kit_plays_the_20_tests_as_the_checker_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let easy = easy_tests();
    assert!(easy.len() >= 3, "maps/tests/README.md marks easy tests: {easy:?}");
    let cpp = arena(&["test", &cpp_greedy()]);
    let cpp_passed = passed(&String::from_utf8_lossy(&cpp.stdout)).len();
    std::thread::scope(|scope| {
        for kit in kits() {
            let (dir, easy) = (dir.path(), &easy);
            scope.spawn(move || {
                let replays = dir.join(kit.name);
                let replays_arg = replays.display().to_string();
                let out = arena(&["test", &kit.greedy, "--replays", &replays_arg]);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let ok = passed(&stdout);
                for k in easy {
                    assert!(ok.contains(k), "{}: easy test {k} passes\n{stdout}", kit.name);
                }
                assert!(
                    ok.len() >= cpp_passed,
                    "{}: passes {} tests, cpp-greedy {cpp_passed}\n{stdout}",
                    kit.name,
                    ok.len()
                );
                // The kit run on its own on each test file (LF, then CRLF) sees every frame as
                // the checker's replay records it, and answers the same.
                for k in 1..=20 {
                    let file = std::fs::read(root().join(format!("maps/tests/test{k}.txt"))).unwrap();
                    let crlf = String::from_utf8_lossy(&file).replace('\n', "\r\n");
                    let (answers_lf, views_lf) = run_direct(&kit.greedy, &file);
                    let (answers_crlf, views_crlf) = run_direct(&kit.greedy, crlf.as_bytes());
                    let label = format!("{} on test{k}", kit.name);
                    assert_eq!(
                        (&answers_crlf, &views_crlf),
                        (&answers_lf, &views_lf),
                        "{label}: CRLF input reads like LF"
                    );
                    let replay: Value =
                        serde_json::from_slice(&std::fs::read(replays.join(format!("test{k:02}.json"))).unwrap())
                            .unwrap();
                    let recorded = answers(&replay, 0);
                    let given: Vec<String> = answers_lf.lines().take(recorded.len()).map(str::to_string).collect();
                    assert_eq!(given, recorded, "{label}: the same answers as under the checker");
                    let compared = compare_views(&replay, 0, &view_lines(&views_lf), 1, &label);
                    assert_eq!(compared, recorded.len(), "{label}: a view for every tick played");
                }
            });
        }
    });
}

#[test]
fn every_kit_duels_every_sample_bot_without_a_forfeit_and_outscores_cpp_greedy() {
    let dir = tempfile::tempdir().unwrap();
    let duel_map = root().join("maps/duel.txt");
    let rust: Vec<String> = ["greedy", "random", "reference", "waiter"].iter().map(|b| bin(b)).collect();
    for kit in kits() {
        for opponent in &rust {
            for seat in 0..2 {
                let bots = if seat == 0 { [kit.greedy.as_str(), opponent] } else { [opponent.as_str(), &kit.greedy] };
                let (replay, _) = play(dir.path(), &duel_map, 11, bots);
                let me = &replay["result"]["players"][seat];
                assert!(me["forfeit"].is_null() && me["finished"] == true, "{} vs {opponent}: {me}", kit.name);
                assert!(me["score"].as_i64().unwrap_or(0) > 0, "{} vs {opponent}: {me}", kit.name);
            }
        }
        // Head to head with cpp-greedy on every sample map, from both sides.
        let (mut mine, mut theirs) = (0, 0);
        for name in ["duel.txt", "jump.txt", "fire.txt", "multipliers.txt", "tight.txt"] {
            for seat in 0..2 {
                let cpp = cpp_greedy();
                let bots = if seat == 0 { [kit.greedy.as_str(), &cpp] } else { [cpp.as_str(), &kit.greedy] };
                let (replay, _) = play(dir.path(), &root().join("maps").join(name), 3, bots);
                let players = &replay["result"]["players"];
                assert!(players[seat]["forfeit"].is_null(), "{} on {name}: {players}", kit.name);
                mine += players[seat]["score"].as_i64().unwrap_or(0);
                theirs += players[1 - seat]["score"].as_i64().unwrap_or(0);
            }
        }
        assert!(mine >= theirs, "{}: {mine} points against cpp-greedy's {theirs}", kit.name);
    }
}

/// Plays `game` (its own arguments in `args`) with `mine` in `seat` against `opponent` and
/// asserts `mine` did not forfeit.
fn plays_without_forfeit(args: &[&str], mine: &str, opponent: &str, seat: usize, label: &str) {
    let other = bin(opponent);
    let bots = if seat == 0 { [mine, other.as_str()] } else { [other.as_str(), mine] };
    let all = [&["duel", "--json", "--no-replay", "--seed", "4"][..], args, &bots[..]].concat();
    let result: Value = serde_json::from_slice(&arena(&all).stdout).expect("duel --json");
    assert!(result["players"][seat]["forfeit"].is_null(), "{label} vs {opponent}: {result}");
}

#[test]
fn every_kit_plays_atoms_and_tactics_games_to_the_end() {
    let config = root().join("maps/tactics/config_02.txt").display().to_string();
    for kit in kits() {
        let atoms = ["--game", "atoms", "--players", "2"];
        plays_without_forfeit(&atoms, &kit.atoms, "atoms-random", 0, &format!("{} atoms", kit.name));
        plays_without_forfeit(&atoms, &kit.atoms, "atoms-greedy", 1, &format!("{} atoms", kit.name));
        let tactics = ["--game", "tactics", "--map", &config];
        plays_without_forfeit(&tactics, &kit.tactics, "tactics-random", 0, &format!("{} tactics", kit.name));
        plays_without_forfeit(&tactics, &kit.tactics, "tactics-greedy", 1, &format!("{} tactics", kit.name));
    }
}

#[test]
fn every_kits_own_tests_pass() {
    let dir = root().join("starter-kits");
    for lang in ["c", "cpp"] {
        let out =
            Command::new("make").args(["-s", "-C"]).arg(dir.join(lang)).arg("test").output().expect("run make test");
        assert!(
            out.status.success(),
            "{lang}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new("python3")
        .args(["-m", "unittest", "-v", "test_botkit"])
        .current_dir(dir.join("python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run python3 -m unittest");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && report.trim_end().ends_with("OK"), "python: {report}");
}

/// Runs `command` with `input` on stdin (`RR_MODE` set to `mode`, no `RR_DEBUG`); returns whether
/// it exited with success, stdout and stderr.
fn run_status(command: &str, mode: &str, input: &str) -> (bool, String, String) {
    run_kit(command, mode, false, input.as_bytes())
}

#[test]
fn every_kit_refuses_an_opponent_move_off_the_map_like_the_sdk() {
    // The header of maps/duel.txt (12 x 21) in a duel, and of test1 (3 x 4) in test mode.
    let duel = std::fs::read_to_string(root().join("maps/duel.txt")).unwrap();
    let test1 = std::fs::read_to_string(root().join("maps/tests/test1.txt")).unwrap();
    let header = |text: &str| text[..text.find("STREAM").unwrap() + "STREAM\n".len()].to_string();
    let cases = [
        ("duel", header(&duel), "12 x 21", "TICK 2 MOVE 12 0", "(12, 0)"),
        ("duel", header(&duel), "12 x 21", "TICK 2 MOVE 0 -1", "(0, -1)"),
        ("test", header(&test1), "3 x 4", "TICK 2 MOVE -1 0", "(-1, 0)"),
        ("test", header(&test1), "3 x 4", "TICK 2 MOVE 2 4", "(2, 4)"),
    ];
    for kit in kits() {
        for (mode, header, size, bad, at) in &cases {
            let label = format!("{} ({mode} mode) given `{bad}`", kit.name);
            // The control: the same input with an on-map move is played to the end.
            let (ok, answers, err) =
                run_status(&kit.greedy, mode, &format!("{header}TICK 1 WAIT\r\nTICK 2 MOVE 0 0\r\n"));
            assert!(ok && answers.lines().count() == 2, "{label}: the control plays\n{answers}{err}");
            let (ok, answers, err) =
                run_status(&kit.greedy, mode, &format!("{header}TICK 1 WAIT\r\n{bad}\r\nTICK 3 WAIT\n"));
            assert!(!ok, "{label}: refused with a non-zero status\n{answers}{err}");
            assert_eq!(answers.lines().count(), 1, "{label}: only the tick before it is answered\n{answers}{err}");
            let expected = format!(
                "botkit: bad TICK line `{bad}`: the opponent's move to {at} is off the {size} map (the arena never sends one)"
            );
            assert_eq!(err.trim_end(), expected, "{label}: the message names the line and what was wrong");
        }
        // A coordinate beyond the kit's integers is refused too, not wrapped onto the map.
        let (ok, answers, err) =
            run_status(&kit.greedy, "duel", &format!("{}TICK 1 MOVE 4294967296 0\n", header(&duel)));
        assert!(!ok && answers.is_empty(), "{}: a far-off coordinate is refused\n{answers}{err}", kit.name);
        assert!(err.starts_with("botkit: bad TICK line `TICK 1 MOVE 4294967296 0`: "), "{}: {err}", kit.name);
        // So is a tick no int holds, or a negative one, whatever the action (the C++ kit took
        // `TICK 4294967297 WAIT` as tick 1).
        for bad in ["TICK 4294967297 WAIT", "TICK -3 WAIT", "TICK -3 MOVE 0 0"] {
            let (ok, answers, err) = run_status(&kit.greedy, "duel", &format!("{}{bad}\n", header(&duel)));
            assert!(!ok && answers.is_empty(), "{}: `{bad}` is refused\n{answers}{err}", kit.name);
            let tick = bad.split(' ').nth(1).unwrap_or_default();
            let said = format!("botkit: bad TICK line `{bad}`: `{tick}` is not a tick number");
            assert_eq!(err.trim_end(), said, "{}", kit.name);
        }
    }
}
