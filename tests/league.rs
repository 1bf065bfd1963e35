//! A league as a teacher runs it all term: several `--resume` rounds as students push, one
//! push broken (the folder gone, then a build that fails), a roster change through `--config`;
//! nothing is lost, every standing comes from the bot's newest good version, and the teacher
//! never edits a file of the league by hand.

use std::path::{Path, PathBuf};

use arena_e2e::*;
use serde_json::Value;

const WAITER_SH: &str = "#!/bin/sh\nwhile read -r word rest; do\n  if [ \"$word\" = TICK ]; then echo WAIT; fi\ndone\n";
const BROKEN_SH: &str = "#!/bin/sh\nwhile read -r word rest; do\n  if [ \"$word\" = TICK ] then echo WAIT; fi\ndone\n";
const GREEDY_SH: &str = "#!/bin/sh\nexec python3 greedy.py\n";
const BUILD_SH: &str = "sh -n bot.src && cp bot.src bot && chmod 755 bot\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A Python bot folder: the starter kit's greedy bot and its library.
fn python_bot(dir: &Path) {
    for file in ["greedy.py", "botkit.py"] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(root().join("starter-kits/python").join(file), dir.join(file)).unwrap();
    }
}

/// A bot built by a shell "compiler": `bot.src` is checked and copied to `bot`.
fn built_bot(dir: &Path, source: &str) {
    write(&dir.join("build.sh"), BUILD_SH);
    write(&dir.join("bot.src"), source);
}

/// A course's folder in `dir`, `class/`, with the two maps its configs name.
fn class_folder(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    for m in ["fire.txt", "tight.txt"] {
        std::fs::create_dir_all(class.join("maps")).unwrap();
        std::fs::copy(map(m), class.join("maps").join(m)).unwrap();
    }
    class
}

fn class_config(class: &Path, bots: &[&str]) -> PathBuf {
    let mut text = String::from("seed = 9\nout = \"league\"\nmaps = [\"maps/fire.txt\", \"maps/tight.txt\"]\n");
    for bot in bots {
        text.push_str(&match *bot {
            "alice" => "[[bots]]\nname = \"alice\"\ncommand = \"python3 greedy.py\"\ncwd = \"alice\"\n".to_string(),
            "bob" | "erin" => {
                format!("[[bots]]\nname = \"{bot}\"\ncommand = \"./bot\"\ncwd = \"{bot}\"\nbuild = \"sh build.sh\"\n")
            }
            "carol" => format!("[[bots]]\nname = \"carol\"\ncommand = {:?}\n", bin("greedy")),
            "dave" | "gus" => format!("[[bots]]\nname = \"{bot}\"\ncommand = {:?}\n", bin("waiter")),
            _ => unreachable!(),
        });
    }
    let path = class.join(format!("class-{}.toml", bots.len()));
    write(&path, &text);
    path
}

fn run(args: &[&str]) -> (String, String) {
    let out = arena(args);
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "arena {args:?}:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// [`run`] from `dir`.
fn run_in(dir: &Path, args: &[&str]) -> (String, String) {
    let out = arena_in(dir, args);
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "arena {args:?} in {}:\n{stdout}\n{stderr}", dir.display());
    (stdout, stderr)
}

fn row<'a>(board: &'a Value, bot: &str) -> &'a Value {
    board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == bot).unwrap_or_else(|| panic!("no row {bot}"))
}

fn lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl")).unwrap().lines().count()
}

/// The data `index.html` embeds for its script (which draws the leaderboard from it).
fn page_data(league: &Path) -> Value {
    let page = std::fs::read_to_string(league.join("index.html")).unwrap();
    let open = r#"<script type="application/json" id="data">"#;
    let data = &page[page.find(open).unwrap() + open.len()..];
    serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap()
}

/// The static warning box at the top of `index.html` (a page read without its script shows it).
fn index_notes(league: &Path) -> String {
    let page = std::fs::read_to_string(league.join("index.html")).unwrap();
    page.find(r#"id="notes""#)
        .map_or(String::new(), |at| page[at..at + page[at..].find("</section>").unwrap()].to_string())
}

/// The fields a standing is made of.
fn standing(board: &Value, bot: &str) -> Value {
    let r = row(board, bot);
    serde_json::json!([r["rank"], r["version"], r["total_score"], r["games"], r["wins"], r["draws"], r["losses"]])
}

/// The "Versions" table of a bot's page: each row's label, whether it built, its matches, and
/// whether the bot stands on it.
fn versions_table(league: &Path, bot: &str) -> Vec<(String, String, u64, bool)> {
    let page = std::fs::read_to_string(league.join(format!("bots/{bot}.html"))).unwrap();
    let table = &page[page.find("<h2>Versions (").unwrap_or_else(|| panic!("no versions table: {page}"))..];
    let table = &table[table.find("<tbody>").unwrap() + 7..table.find("</tbody>").unwrap()];
    let cell = |row: &str, i: usize| row.split("<td>").nth(i + 1).unwrap().split("</td>").next().unwrap().to_string();
    table
        .split("</tr>")
        .filter(|r| !r.is_empty())
        .map(|r| {
            let built = if cell(r, 2) == "yes" { "built" } else { "not built" };
            (cell(r, 0), built.to_string(), cell(r, 3).parse().unwrap(), r.starts_with(r#"<tr class="current">"#))
        })
        .collect()
}

#[test]
fn a_term_of_pushes_keeps_every_result_and_counts_the_newest_good_versions() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    python_bot(&class.join("alice"));
    built_bot(&class.join("bob"), WAITER_SH);
    let cfg = class_config(&class, &["alice", "bob", "carol", "dave", "gus"]);
    let league = class.join("league");
    let league_arg = league.display().to_string();

    // Week 1: the first run. Paths in the config are the config file's folder's, wherever the
    // arena is started (the e2e helper starts it from the repository root).
    let (_, stderr) = run(&["tournament", "--config", &cfg.display().to_string()]);
    assert!(stderr.contains("plan: 40 matches to play"), "{stderr}");
    assert_eq!(stderr.matches("matches to play").count(), 1, "said once: {stderr}");
    let week1 = leaderboard(&league);
    assert!(week1["complete"].as_bool().unwrap());
    assert_eq!(row(&week1, "bob")["version"], "v1");
    assert!(league.join(row(&week1, "bob")["build_log"].as_str().unwrap()).is_file(), "the build log is kept");
    // Two waiters have exactly the same results: they share a rank, and the next rank skips.
    let (dave, gus) = (row(&week1, "dave"), row(&week1, "gus"));
    assert_eq!(dave["rank"], gus["rank"]);
    assert_eq!(
        (dave["total_score"].as_i64(), dave["wins"].as_u64()),
        (gus["total_score"].as_i64(), gus["wins"].as_u64())
    );
    let after_week1 = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    std::thread::sleep(std::time::Duration::from_millis(1100));

    // Week 2: alice changes a file her entry file imports (not the entry file): her 16
    // matches, and only hers, are played again.
    let kit = std::fs::read_to_string(class.join("alice/botkit.py")).unwrap();
    write(&class.join("alice/botkit.py"), &format!("{kit}\n# tuned\n"));
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 16 matches to play (alice 16,"), "{stderr}");
    assert!(stderr.contains("new versions: alice"), "{stderr}");
    assert!(stdout.contains("40 of 40 matches played (16 now, 24 kept, 16 no longer counted"), "{stdout}");
    let week2 = leaderboard(&league);
    assert_eq!(row(&week2, "alice")["version"], "v2");
    let bob_before = standing(&week2, "bob");

    // Week 3: bob's folder is gone for a while (a bad push): his standing survives.
    let away = class.join("bob-away");
    std::fs::rename(class.join("bob"), &away).unwrap();
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
    let week3 = leaderboard(&league);
    assert_eq!(standing(&week3, "bob"), bob_before, "bob stands on v1");
    let note = row(&week3, "bob")["note"].as_str().unwrap().to_string();
    assert!(
        note.contains("could not start at") && note.contains("missing") && note.contains("standing from v1"),
        "{note}"
    );

    // Week 4: it is back, but its new version does not build; alice pushes again the same
    // week. Bob plays on as v1, from the copy the league kept of it: alice's new version meets
    // it too.
    std::fs::rename(&away, class.join("bob")).unwrap();
    write(&class.join("bob/bot.src"), BROKEN_SH);
    write(&class.join("alice/botkit.py"), &format!("{kit}\n# tuned again\n"));
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 16 matches to play (alice 16, bob 4, carol 4, dave 4, gus 4), 24 kept"), "{stderr}");
    let week4 = leaderboard(&league);
    assert!(week4["complete"].as_bool().unwrap());
    assert_eq!(row(&week4, "alice")["version"], "v3");
    let bob = row(&week4, "bob");
    assert_eq!((bob["version"].as_str(), bob["games"].as_u64()), (Some("v1"), Some(16)), "bob still stands on v1");
    assert_eq!(bob["total_score"], bob_before[2], "a waiter scores 0 whoever it meets");
    let bob = row(&week4, "bob");
    let note = bob["note"].as_str().unwrap();
    assert!(note.starts_with("build failed at ") && note.contains("standing from v1 ("), "{note}");
    let log = std::fs::read_to_string(league.join(bob["build_log"].as_str().unwrap())).unwrap();
    assert!(log.contains("Syntax error"), "the full build log is kept: {log}");
    assert!(note.contains("Syntax error"), "the note names the compiler's error: {note}");
    let page = std::fs::read_to_string(league.join("index.html")).unwrap();
    let linked = format!(">{}</a>", bob["build_log"].as_str().unwrap());
    assert!(page.contains("build failed at") && page.contains(&linked), "the page says so and links the log");

    // Week 5: fixed (and better): bob v2 replaces v1, and only now.
    python_bot(&class.join("bob"));
    write(&class.join("bob/bot.src"), GREEDY_SH);
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stdout.contains("(16 now, 24 kept, 48 no longer counted"), "{stdout}");
    assert!(stderr.contains("bob: builds and starts again, standing on v2 ("), "its failure is over: {stderr}");
    let week5 = leaderboard(&league);
    assert_eq!(row(&week5, "alice")["version"], "v3");
    let bob = row(&week5, "bob");
    assert_eq!(bob["version"], "v2");
    assert!(bob.get("note").is_none(), "{bob}");
    assert!(bob["total_score"].as_i64().unwrap() > 0, "the fixed version plays: {bob}");
    // The pages show the versions too: the index's data (its table) and each bot's header.
    let data = page_data(&league);
    for (bot, version) in [("alice", "v3"), ("bob", "v2")] {
        let shown = data["bots"].as_array().unwrap().iter().find(|b| b["name"] == bot).unwrap();
        assert_eq!(
            (&shown["version"], &shown["version_at"]),
            (&row(&week5, bot)["version"], &row(&week5, bot)["version_at"])
        );
        assert_eq!(shown["version"], version);
        let page = std::fs::read_to_string(league.join(format!("bots/{bot}.html"))).unwrap();
        let at = row(&week5, bot)["version_at"].as_str().unwrap().to_string();
        assert!(page.contains(&format!(">version {version}, first seen {at} · rank ")), "{page}");
    }
    // Each bot's page lists its versions, with the matches each played (those no longer
    // counted too: alice v3 met bob v1 in week 4 and bob v2 in week 5), its newest marked.
    let v = |label: &str, built: bool, matches: u64, current: bool| {
        (label.to_string(), if built { "built" } else { "not built" }.to_string(), matches, current)
    };
    assert_eq!(
        versions_table(&league, "alice"),
        [v("v1", true, 16, false), v("v2", true, 16, false), v("v3", true, 20, true)]
    );
    assert_eq!(
        versions_table(&league, "bob"),
        [v("v1", true, 24, false), v("failed", false, 0, false), v("failed", false, 0, false), v("v2", true, 16, true)]
    );
    assert!(week5["complete"].as_bool().unwrap());
    // Nothing was lost: every result ever played is still in results.jsonl, with its replay.
    assert_eq!(lines(&league), 40 + 16 + 16 + 16);
    let replays = std::fs::read_dir(league.join("replays")).unwrap().flatten();
    assert_eq!(replays.filter(|e| e.file_name().to_string_lossy().ends_with(".json.gz")).count(), 88);

    // The standings at the end of week 1, reproduced.
    let (json, _) = run(&["leaderboard", &league_arg, "--json", "--as-of", &after_week1.to_string()]);
    let then: Value = serde_json::from_str(&json).unwrap();
    for bot in ["alice", "bob", "carol", "dave", "gus"] {
        assert_eq!(standing(&then, bot), standing(&week1, bot), "{bot} as of week 1");
    }

    // The gradebook: the CSV says what leaderboard.json says.
    let (csv, _) = run(&["leaderboard", &league_arg, "--csv"]);
    let mut csv_lines = csv.lines();
    assert_eq!(
        csv_lines.next(),
        Some("rank,bot,version,points,games,wins,draws,losses,forfeits,status"),
        "no bot forfeited, so no per-reason columns"
    );
    let board = leaderboard(&league);
    for (line, r) in csv_lines.zip(board["rows"].as_array().unwrap()) {
        let expected = format!(
            "{},{},{},{},{},{},{},{},0,ok",
            r["rank"],
            r["bot"].as_str().unwrap(),
            r["version"].as_str().unwrap(),
            r["total_score"],
            r["games"],
            r["wins"],
            r["draws"],
            r["losses"]
        );
        assert_eq!(line, expected);
    }
    // A copy of the results file kept beside it under a name no run writes counts for nothing,
    // and is said so, once, though the leaderboard reads the folder's results more than once.
    // The control: the same command before it was there said nothing of it.
    let (_, before) = run(&["leaderboard", &league_arg, "--json"]);
    std::fs::copy(league.join("results.jsonl"), league.join("results.backup.jsonl")).unwrap();
    let (json, stderr) = run(&["leaderboard", &league_arg, "--json"]);
    std::fs::remove_file(league.join("results.backup.jsonl")).unwrap();
    let unread = "results.backup.jsonl: not a results file an arena run writes (results.jsonl, or a shard's \
                  results.shard-K-of-N.jsonl): left unread, none of its matches counts";
    assert_eq!(stderr.matches(unread).count(), 1, "{stderr}");
    assert!(!before.contains("results.backup.jsonl"), "{before}");
    let copied: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(copied["rows"], board["rows"], "nothing counted twice");

    // The roster changes through a config: dave leaves, erin (built by a command) joins. What
    // changes is said before anything runs.
    built_bot(&class.join("erin"), WAITER_SH);
    assert!(league.join("bots/dave.html").is_file(), "the control: dave has a page while in the league");
    let cfg2 = class_config(&class, &["alice", "bob", "carol", "gus", "erin"]);
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &cfg2.display().to_string()]);
    assert!(stderr.contains("bots added: erin") && stderr.contains("bots removed: dave"), "{stderr}");
    assert!(stderr.contains("plan: 16 matches to play"), "{stderr}");
    assert!(stdout.contains("40 of 40 matches played (16 now, 24 kept"), "{stdout}");
    let last = leaderboard(&league);
    let bots: Vec<&str> = last["rows"].as_array().unwrap().iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert!(bots.contains(&"erin") && !bots.contains(&"dave"), "{bots:?}");
    assert_eq!(row(&last, "erin")["games"], 16);
    assert_eq!(lines(&league), 88 + 16, "dave's results stay on disk");
    assert!(!league.join("bots/dave.html").exists(), "dave's page, with his old standing, is gone");
    assert!(league.join("bots/erin.html").is_file() && league.join("bots/alice.html").is_file());

    // A limit written out at its default changes no match, and neither do the boxes' own
    // limits: the plan and the words say so.
    let mut text = std::fs::read_to_string(&cfg2).unwrap();
    text.push_str("[limits]\nstderr_rate = 4194304\nmove_ms = 1000\nmemory_mb = 512\n");
    let cfg3 = class.join("class-limits.toml");
    write(&cfg3, &text);
    let (_, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &cfg3.display().to_string()]);
    assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
    assert!(stderr.contains("the boxes' resource limits changed"), "{stderr}");
    assert!(!stderr.contains("every match is played again"), "{stderr}");

    // --exclude and --rerun.
    let key = row(&last, "carol")["matches"][0]["key"].as_str().unwrap().to_string();
    let (stdout, _) = run(&["tournament", "--resume", &league_arg, "--rerun", &key]);
    assert!(stdout.contains("(1 now, 39 kept"), "{stdout}");
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--exclude", "gus"]);
    assert!(stderr.contains("bots removed: gus"), "{stderr}");
    assert!(stdout.contains("24 of 24 matches played (0 now"), "{stdout}");
    let (stdout, _) = run(&["tournament", "--resume", &league_arg]);
    assert!(stdout.contains("24 of 24 matches played (0 now"), "gus stays out: {stdout}");
    // A config that lists gus brings him back (it decides the roster), and says so: his
    // results, of the same versions, count again.
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &cfg3.display().to_string()]);
    assert!(stderr.contains("bots back in the league: gus (they had left it, by --exclude"), "{stderr}");
    assert!(!stderr.contains("bots added"), "{stderr}");
    assert!(stdout.contains("40 of 40 matches played (0 now, 40 kept"), "{stdout}");
}

#[test]
fn switching_a_link_in_a_bot_s_folder_is_a_new_version() {
    // Bob's `bot.src` is a link to one of two sources in his folder; switching it to the other
    // was no new version (links were not fingerprinted): his change was not rebuilt, and his
    // matches stood for the other program. The control: resumed unchanged, nothing is new.
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    let bob = class.join("bob");
    built_bot(&bob, WAITER_SH);
    std::fs::rename(bob.join("bot.src"), bob.join("waiter.src")).unwrap();
    write(&bob.join("other.src"), &format!("{WAITER_SH}# another strategy\n"));
    std::os::unix::fs::symlink("waiter.src", bob.join("bot.src")).unwrap();
    let cfg = class_config(&class, &["bob", "carol", "dave"]);
    let league = class.join("league");
    let league_arg = league.display().to_string();
    run(&["tournament", "--config", &cfg.display().to_string()]);
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v1");

    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 0 matches to play") && !stderr.contains("new versions"), "{stderr}");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v1", "the control: unchanged, the same version");

    std::fs::remove_file(bob.join("bot.src")).unwrap();
    std::os::unix::fs::symlink("other.src", bob.join("bot.src")).unwrap();
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("new versions: bob"), "{stderr}");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v2");
    let built = std::fs::read_to_string(bob.join("bot")).unwrap();
    assert!(built.contains("another strategy"), "rebuilt from the new target: {built}");
}

#[test]
fn bad_league_commands_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("maps")).unwrap();
    // (Two maps of their own: one board under two names is refused.)
    std::fs::copy(map("fire.txt"), class.join("maps/fire.txt")).unwrap();
    std::fs::copy(map("tight.txt"), class.join("maps/tight.txt")).unwrap();
    let cfg = class_config(&class, &["carol", "dave"]);
    let league = class.join("league").display().to_string();
    run(&["tournament", "--config", &cfg.display().to_string()]);
    // A typo in the config's `maps`: the error names the config and the key, and the path.
    let typo = class.join("typo.toml");
    let text = std::fs::read_to_string(&cfg).unwrap().replace("maps/fire.txt", "maps/fier.txt");
    write(&typo, &text.replace("out = \"league\"", "out = \"typo\""));
    let typo_cfg = typo.display().to_string();
    let missing_league = format!("{league}-typo");
    for (args, says) in [
        (vec!["tournament", "--config", &typo_cfg], format!("{typo_cfg}: in `maps`: ")),
        (vec!["build", &typo_cfg], format!("{}: cannot read map", class.join("maps/fier.txt").display())),
        (vec!["tournament", "--resume", &missing_league], format!("{missing_league}: no such folder")),
    ] {
        let out = arena(&args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&says), "{args:?}: {stderr}");
        assert!(!class.join("typo").exists() && !Path::new(&missing_league).exists(), "nothing written: {args:?}");
    }
    for (args, says) in [
        (vec!["tournament", "--resume", &league, "--exclude", "nobody"], "no bot of that name"),
        (vec!["tournament", "--resume", &league, "--rerun", "no-such-key"], "no such match"),
        (vec!["tournament", "--resume", &league, "--forfeits", "maybe"], "expected loss or score"),
        (vec!["leaderboard", &league, "--as-of", "next friday"], "not a time"),
        (vec!["tournament", "--resume", &league, "--shard", "1/2", "--seed", "3"], "as `arena build` prepared it"),
    ] {
        let out = arena(&args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn a_bot_added_on_the_command_line_brings_its_folder_and_build() {
    // `--bot` with a whole entry (`{name, cwd, build, command}`, as in a config file) builds the
    // bot in its folder and plays it. The control, the short form `NAME=CMD`, has neither: its
    // `./bot` is looked for in the current folder, and the bot cannot start.
    let dir = tempfile::tempdir().unwrap();
    // A league of two in `class`, played once.
    let league_in = |class: &Path| {
        for m in ["fire.txt", "tight.txt"] {
            std::fs::create_dir_all(class.join("maps")).unwrap();
            std::fs::copy(map(m), class.join("maps").join(m)).unwrap();
        }
        let cfg = class_config(class, &["carol", "dave"]);
        run(&["tournament", "--config", &cfg.display().to_string()]);
        class.join("league")
    };
    let class = dir.path().join("class");
    let league = league_in(&class);
    built_bot(&class.join("erin"), WAITER_SH);
    let folder = class.join("erin").display().to_string();
    let entry = format!("{{name = \"erin\", cwd = {folder:?}, build = \"sh build.sh\", command = \"./bot\"}}");
    let (_, stderr) = run(&["tournament", "--resume", &league.display().to_string(), "--bot", &entry]);
    assert!(stderr.contains("plan: 8 matches to play (carol 4, dave 4, erin 8)"), "{stderr}");
    assert!(stderr.contains("bots added: erin (their matches are played)"), "{stderr}");
    let board = leaderboard(&league);
    let erin = row(&board, "erin");
    assert_eq!(erin["version"], "v1", "{erin}");
    assert_eq!(erin["games"], 8, "{erin}");
    assert!(league.join(erin["build_log"].as_str().unwrap()).is_file(), "built: {erin}");
    assert!(class.join("erin/bot").is_file(), "the build wrote its output in the bot's folder");

    let league = league_in(&dir.path().join("control"));
    let (_, stderr) = run(&["tournament", "--resume", &league.display().to_string(), "--bot", "erin=./bot"]);
    assert!(!stderr.contains("erin 8"), "{stderr}");
    assert!(
        stderr.contains("bot added: erin, which cannot play: cannot start")
            && !stderr.contains("their matches are played"),
        "an added bot that cannot play is not said to play: {stderr}"
    );
    let board = leaderboard(&league);
    let erin = row(&board, "erin");
    assert_eq!(erin["games"], 0, "{erin}");
    assert!(erin["failure"].as_str().is_some_and(|f| f.contains("cannot start")), "{erin}");
}

/// A league typed relative to the folder it was started in (`--out L1`), whose bob's new push
/// fails to build: bob plays on from the copy the league kept of his last good version, whether
/// the league is resumed from that folder (the control), from another one, or after being
/// moved; and so does a league folder written before, whose record names its copies relative
/// to the first run's folder. (Before, the copy was found from the first run's folder only:
/// elsewhere bob's new matches waited "for a good build".)
#[test]
fn a_kept_version_plays_wherever_the_league_is_resumed_from() {
    let dir = tempfile::tempdir().unwrap();
    let (first, other) = (dir.path().join("first"), dir.path().join("other"));
    std::fs::create_dir_all(&other).unwrap();
    built_bot(&first.join("bob"), WAITER_SH);
    let maps = format!("maps = [{:?}, {:?}]\n", map("fire.txt"), map("tight.txt"));
    let bots = format!(
        "[[bots]]\nname = \"bob\"\ncommand = \"./bot\"\ncwd = \"bob\"\nbuild = \"sh build.sh\"\n[[bots]]\nname = \"carol\"\ncommand = {:?}\n",
        bin("greedy")
    );
    write(&first.join("class.toml"), &format!("seed = 9\n{maps}{bots}"));
    for league in ["L1", "L2", "L3", "L4"] {
        run_in(&first, &["tournament", "--config", "class.toml", "--out", league]);
    }
    write(&first.join("bob/bot.src"), BROKEN_SH);
    let waiter = format!("{}={}", "dave", bin("waiter"));
    // Resumed with a new bot, dave: bob's 4 matches against him are played by bob's kept v1.
    let resume = |from: &Path, league: &str, newcomer: &str| {
        let (stdout, stderr) = run_in(from, &["tournament", "--resume", league, "--bot", newcomer]);
        let name = newcomer.split('=').next().unwrap_or_default();
        assert!(
            !stdout.contains("waiting") && !stderr.contains("waiting"),
            "{league} from {from:?}:\n{stdout}\n{stderr}"
        );
        assert!(stderr.contains(&format!("plan: 8 matches to play (bob 4, carol 4, {name} 8)")), "{stderr}");
        let league = from.join(league);
        let board = leaderboard(&league);
        let bob = row(&board, "bob");
        assert_eq!((bob["version"].as_str(), bob["games"].as_u64()), (Some("v1"), Some(8)), "{league:?}: {bob}");
        assert!(bob["note"].as_str().is_some_and(|n| n.contains("build failed") && !n.contains("wait")), "{bob}");
        assert!(board["complete"].as_bool().unwrap(), "{league:?}");
    };
    // The control: from the folder of the first run.
    resume(&first, "L1", &waiter);
    // From another folder.
    resume(&other, "../first/L2", &waiter);
    // The whole league folder moved elsewhere, resumed from a third folder.
    let moved = dir.path().join("moved");
    std::fs::create_dir_all(&moved).unwrap();
    std::fs::rename(first.join("L3"), moved.join("L3")).unwrap();
    resume(dir.path(), "moved/L3", &waiter);
    // A league folder written before: its record names the copies as the first run typed the
    // league folder, `L4/versions/…`. Resumed from another folder, they are found in it.
    let record = first.join("L4/tournament.json");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("\"versions/bob/"), "the copies are recorded relative to the league folder");
    std::fs::write(&record, text.replace("\"versions/bob/", "\"L4/versions/bob/")).unwrap();
    resume(&other, "../first/L4", &waiter);
}

/// Build logs and kept copies are named as bot pages are: bots `a.b` and `a_b` (one name once
/// made safe) each get their own log, which their rows link, and a bot with a 300-character
/// name builds and plays. (Before, both wrote `builds/a_b-<time>.log`, and the long name's log
/// could not be written: "File name too long".)
#[test]
fn build_logs_and_copies_are_named_apart_and_short() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let long = "n".repeat(300);
    let mut text = format!("seed = 9\nmaps = [{:?}]\n", map("fire.txt"));
    for (name, folder) in [("a.b", "dot"), ("a_b", "underscore"), (long.as_str(), "long")] {
        built_bot(&class.join(folder), WAITER_SH);
        let build = format!("echo this is the build of {folder} && sh build.sh");
        text.push_str(&format!(
            "[[bots]]\nname = {name:?}\ncommand = \"./bot\"\ncwd = {folder:?}\nbuild = {build:?}\n"
        ));
    }
    let cfg = class.join("class.toml");
    write(&cfg, &text);
    let league = class.join("league");
    run(&["tournament", "--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    let board = leaderboard(&league);
    let log_of = |name: &str| {
        let r = row(&board, name);
        let path = r["build_log"].as_str().unwrap_or_else(|| panic!("no build log: {r}")).to_string();
        (path.clone(), std::fs::read_to_string(league.join(&path)).unwrap_or_default())
    };
    let ((dot_path, dot), (under_path, under)) = (log_of("a.b"), log_of("a_b"));
    assert_ne!(dot_path, under_path, "one log each");
    assert!(dot.contains("build of dot") && !dot.contains("underscore"), "{dot_path}: {dot}");
    assert!(under.contains("build of underscore") && !under.contains("build of dot"), "{under_path}: {under}");
    let (long_path, long_log) = log_of(&long);
    assert!(long_log.contains("build of long") && long_path.len() < 100, "{long_path}: {long_log}");
    let r = row(&board, &long);
    assert_eq!((r["version"].as_str(), r["games"].as_u64()), (Some("v1"), Some(4)), "{r}");
    assert!(board["complete"].as_bool().unwrap());
    // Each bot's copy of its version has a folder of its own, of a short name.
    let copies: Vec<String> = std::fs::read_dir(league.join("versions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(copies.len(), 3, "{copies:?}");
    assert!(copies.iter().all(|c| c.len() < 60), "{copies:?}");
}

/// `--copies-mb` caps a bot's kept copies as the config's `copies_mb` does: with 0, a resumed run
/// whose alice has a new version keeps only the copy that plays. The control: without the flag,
/// both of her versions keep their copies.
#[test]
fn copies_mb_on_the_command_line_caps_a_bot_s_copies() {
    let copies = |flag: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let class = class_folder(dir.path());
        python_bot(&class.join("alice"));
        let cfg = class_config(&class, &["alice", "carol"]).display().to_string();
        let league = class.join("league").display().to_string();
        run(&["tournament", "--config", &cfg, "--out", &league]);
        let greedy = class.join("alice/greedy.py");
        let text = std::fs::read_to_string(&greedy).unwrap();
        std::fs::write(&greedy, format!("{text}\n# pushed\n")).unwrap();
        run(&[&["tournament", "--resume", &league][..], flag].concat());
        std::fs::read_dir(class.join("league/versions/alice")).unwrap().count()
    };
    assert_eq!(copies(&["--copies-mb", "0"]), 1, "only the copy that plays");
    assert_eq!(copies(&[]), 2, "the control: both versions' copies");
}

/// Gives bob a new version whose build takes 30 s, starts `arena tournament --resume LEAGUE`
/// in a process group of its own (the terminal's, for a signal to it; stderr piped), and
/// returns it once that build has begun (it touches `bob/started`).
fn resume_while_bob_builds(class: &Path, league_arg: &str) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    let started = class.join("bob/started");
    write(&class.join("bob/build.sh"), &format!("touch started\nsleep 30\n{BUILD_SH}"));
    let child = std::process::Command::new(bin("arena"))
        .args(["tournament", "--resume", league_arg])
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let begun = std::time::Instant::now();
    while !started.exists() {
        assert!(begun.elapsed() < std::time::Duration::from_secs(60), "the build never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}

/// A class in `dir` of two built bots, `bob` and `erin`, and its league, played once: the class
/// folder and the league folder.
fn bob_and_erin_played(dir: &Path) -> (PathBuf, PathBuf) {
    let class = class_folder(dir);
    built_bot(&class.join("bob"), WAITER_SH);
    built_bot(&class.join("erin"), WAITER_SH);
    let cfg = class_config(&class, &["bob", "erin"]);
    run(&["tournament", "--config", &cfg.display().to_string()]);
    let league = class.join("league");
    (class, league)
}

/// A run stopped once it has rebuilt the bots but before it saved its record (refused here for
/// a `--rerun` key not in the schedule; a kill -9 or Ctrl-C during the builds alike) leaves the
/// next run no new version: the outputs those unrecorded builds rewrote (`bot`, copied afresh
/// by every build) are compared with what the builds left (`.builds-unrecorded`), not with the
/// record. (Before, they were taken for the students' changes: a new version of every such
/// bot, and its matches played again.) A student's push to an output after such a run is still
/// a new version (keeping only the built bots' names missed it). The control: without what the
/// builds left, the record's stamps take erin's rebuilt `bot` for a push.
#[test]
fn a_run_stopped_after_its_builds_leaves_no_new_version() {
    let dir = tempfile::tempdir().unwrap();
    let (class, league) = bob_and_erin_played(dir.path());
    let league_arg = league.display().to_string();
    let refuse = || {
        // (A second apart: the rebuilt `bot` gets another time than the record's stamp.)
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let refused = arena(&["tournament", "--resume", &league_arg, "--rerun", "no-such-key"]);
        assert!(!refused.status.success(), "{}", String::from_utf8_lossy(&refused.stderr));
        assert!(league.join(".builds-unrecorded").is_file());
    };
    refuse();
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 0 matches to play") && !stderr.contains("new versions"), "{stderr}");
    assert!(!league.join(".builds-unrecorded").exists(), "the saved record stamps the builds");
    refuse();
    std::fs::write(class.join("bob/bot"), "#!/bin/sh\nexit 0\n").unwrap();
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("new versions: bob v1 -> v2 (their matches are played again)"), "{stderr}");
    // The control: what the builds left forgotten, erin's rebuilt `bot` reads as her push.
    refuse();
    std::fs::remove_file(league.join(".builds-unrecorded")).unwrap();
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("new versions: ") && stderr.contains("erin"), "{stderr}");
}

/// The build logs in `league/builds/`, sorted (temporaries too).
fn build_logs(league: &Path) -> Vec<String> {
    names_in(&league.join("builds"))
}

/// Resuming a league whose bots did not change builds them again but leaves no new log: a
/// good version keeps its first log, a failed one its newest (which its note names), and
/// nothing else stays in `builds/`. A run killed (`kill -9`) during a build leaves no log under
/// a log's name, and the next run removes what it left. (Before, every run added a log per
/// built bot, which nothing linked.)
#[test]
fn resumed_runs_of_unchanged_bots_leave_no_new_build_logs() {
    let dir = tempfile::tempdir().unwrap();
    let (class, league) = bob_and_erin_played(dir.path());
    let league_arg = league.display().to_string();
    let first = build_logs(&league);
    assert_eq!(first.len(), 2, "{first:?}");
    let bob_log = row(&leaderboard(&league), "bob")["build_log"].as_str().unwrap().to_string();
    // (Each run in a second of its own: logs are named by the second.)
    for _ in 0..2 {
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
        assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
        assert_eq!(build_logs(&league), first, "no new log");
        assert_eq!(row(&leaderboard(&league), "bob")["build_log"], bob_log.as_str(), "v1 keeps its first log");
    }
    // A run refused once its bots are built (a --rerun key not in the schedule) leaves none
    // either (before, each left a log per built bot until the next run).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let refused = arena(&["tournament", "--resume", &league_arg, "--rerun", "no-such-key"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("--rerun no-such-key: no such match"), "{stderr}");
    assert_eq!(build_logs(&league), first, "no log of the refused run");
    // Two runs in the same second: the first log is not written over.
    std::fs::write(league.join(&bob_log), "the first build's log\n").unwrap();
    run(&["tournament", "--resume", &league_arg]);
    run(&["tournament", "--resume", &league_arg]);
    assert_eq!(std::fs::read_to_string(league.join(&bob_log)).unwrap(), "the first build's log\n");
    assert_eq!(build_logs(&league), first);

    // A broken push, built twice: v1's log and the newest failure's, which the row links and
    // its note names.
    write(&class.join("bob/bot.src"), BROKEN_SH);
    let mut failed = Vec::new();
    for _ in 0..2 {
        std::thread::sleep(std::time::Duration::from_millis(1100));
        run(&["tournament", "--resume", &league_arg]);
        let bob = row(&leaderboard(&league), "bob").clone();
        let log = bob["build_log"].as_str().unwrap().to_string();
        assert!(bob["note"].as_str().unwrap().contains(&format!("(full log: {log})")), "{bob}");
        assert!(std::fs::read_to_string(league.join(&log)).unwrap().contains("Syntax error"), "{log}");
        failed.push(log);
    }
    assert_ne!(failed[0], failed[1], "the newest failure's log");
    let mut want: Vec<String> = first.clone();
    want.push(failed[1].trim_start_matches("builds/").to_string());
    want.sort();
    assert_eq!(build_logs(&league), want, "v1's first log, and the newest failure's");

    // Killed during a build: no log under a log's name; the next run leaves none of it.
    let started = class.join("bob/started");
    let mut child = resume_while_bob_builds(&class, &league_arg);
    // SAFETY: a signal to the process group of the child just started.
    assert_eq!(unsafe { libc::killpg(child.id() as i32, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    let left: Vec<String> = build_logs(&league).into_iter().filter(|n| !want.contains(n)).collect();
    assert!(left.iter().all(|n| n.starts_with(".tmp-")), "only a temporary: {left:?}");
    std::fs::remove_file(&started).unwrap();
    write(&class.join("bob/build.sh"), BUILD_SH);
    write(&class.join("bob/bot.src"), WAITER_SH);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    run(&["tournament", "--resume", &league_arg]);
    let bob = row(&leaderboard(&league), "bob").clone();
    assert_eq!(bob["version"], "v1", "{bob}");
    // (Files back after a failed push are a version seen again, linking the build that made them.)
    want.push(bob["build_log"].as_str().unwrap().trim_start_matches("builds/").to_string());
    want.sort();
    assert_eq!(build_logs(&league), want, "every version's log stays, and nothing else");
}

/// A class league of alice, bob (with a build) and dave, played once, and a copy of its config
/// where bob is named `Bob Smith`: the set-up of the rename tests.
struct Renamed {
    class: PathBuf,
    cfg: PathBuf,
    league: PathBuf,
    renamed: PathBuf,
}

fn bob_renamed(root: &Path) -> Renamed {
    let class = class_folder(root);
    python_bot(&class.join("alice"));
    built_bot(&class.join("bob"), WAITER_SH);
    let cfg = class_config(&class, &["alice", "bob", "dave"]);
    run(&["tournament", "--config", &cfg.display().to_string()]);
    let renamed = class.join("renamed.toml");
    write(&renamed, &std::fs::read_to_string(&cfg).unwrap().replace("name = \"bob\"", "name = \"Bob Smith\""));
    Renamed { league: class.join("league"), class, cfg, renamed }
}

/// A bot renamed in the config (the same files under a new name) is said to be one, with how
/// many of its matches are played again (results are kept by name: a match's key, seed and
/// replay name its bots), and the leaderboard shows the new name only. The control: a bot that
/// leaves and another, with other files, that joins are a removal and an addition.
#[test]
fn a_renamed_bot_is_said_to_be_one_and_its_matches_are_played() {
    let dir = tempfile::tempdir().unwrap();
    let Renamed { class, cfg, league, renamed } = bob_renamed(dir.path());
    let league_arg = league.display().to_string();
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &renamed.display().to_string()]);
    assert!(
        stderr.contains(
            "Bob Smith is new and bob is gone, with the same files (renamed?): results are kept by name (a match's \
             key, seed and replay name its bots), so Bob Smith's 8 matches are played, and bob's results stay on \
             disk, no longer counted"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("bots added") && !stderr.contains("bots removed"), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played (8 now, 4 kept"), "{stdout}");
    let board = leaderboard(&league);
    let bots: Vec<&str> = board["rows"].as_array().unwrap().iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert!(bots.contains(&"Bob Smith") && !bots.contains(&"bob"), "{bots:?}");

    // The control: Bob Smith leaves, and erin (other files) joins.
    built_bot(&class.join("erin"), &format!("{WAITER_SH}# erin's\n"));
    let swapped = class.join("swapped.toml");
    write(&swapped, &std::fs::read_to_string(&cfg).unwrap().replace("\"bob\"", "\"erin\""));
    let (_, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &swapped.display().to_string()]);
    assert!(stderr.contains("bots added: erin") && stderr.contains("bots removed: Bob Smith"), "{stderr}");
    assert!(!stderr.contains("renamed?"), "{stderr}");
}

/// A bot renamed by a typo (`Alice`) and back (`alice`) is said, the second time, to be back
/// with the same files: its results, still current, count again, and none of its matches is
/// played. Until 2026-12-05 the second change was said as a rename whose matches are played.
/// The control: the typo itself is a rename, whose matches are played.
#[test]
fn a_bot_renamed_back_is_said_to_be_back_and_plays_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    python_bot(&class.join("alice"));
    let cfg = class_config(&class, &["alice", "dave"]);
    let league = class.join("league");
    let league_arg = league.display().to_string();
    let (_, stderr) = run(&["tournament", "--config", &cfg.display().to_string()]);
    assert!(!stderr.contains("the same files"), "files of their own: no note: {stderr}");

    let typo = class.join("typo.toml");
    write(&typo, &std::fs::read_to_string(&cfg).unwrap().replace("name = \"alice\"", "name = \"Alice\""));
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &typo.display().to_string()]);
    assert!(stderr.contains("Alice is new and alice is gone, with the same files (renamed?)"), "{stderr}");
    assert!(stdout.contains("4 of 4 matches played (4 now"), "the control: {stdout}");

    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &cfg.display().to_string()]);
    assert!(
        stderr.contains(
            "alice is back and Alice is gone, with the same files (renamed back?): alice's results still current \
             count again, its other matches are played, and Alice's results stay on disk, no longer counted"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("is new") && !stderr.contains("bots back"), "{stderr}");
    assert!(stdout.contains("4 of 4 matches played (0 now, 4 kept"), "{stdout}");

    // zoe hands in alice's files byte for byte: noted for the teacher, and played.
    python_bot(&class.join("zoe"));
    let copied = class.join("copied.toml");
    let zoe = "[[bots]]\nname = \"zoe\"\ncommand = \"python3 greedy.py\"\ncwd = \"zoe\"\n";
    write(&copied, &format!("{}{zoe}", std::fs::read_to_string(&cfg).unwrap()));
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &copied.display().to_string()]);
    assert!(
        stderr.contains(
            "note: alice and zoe have the same files (command, build and every file alike): a copy? for a teacher \
             to look into"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("12 of 12 matches played (8 now, 4 kept"), "{stdout}");
}

/// A class in `dir` of `bob` (a bot with a build) and `dave`, whose league has played once:
/// the class's folder, its config and its league's folder.
fn bob_and_dave_played(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let class = class_folder(dir);
    built_bot(&class.join("bob"), WAITER_SH);
    let cfg = class_config(&class, &["bob", "dave"]);
    run(&["tournament", "--config", &cfg.display().to_string()]);
    let league = class.join("league");
    (class, cfg, league)
}

/// bob's versions as `league`'s record holds them.
fn bob_versions(league: &Path) -> Vec<Value> {
    let record: Value = serde_json::from_slice(&std::fs::read(league.join("tournament.json")).unwrap()).unwrap();
    record["history"]["bob"]["versions"].as_array().unwrap().clone()
}

/// Ctrl-C while a student's new version builds (its build ended by it, with the arena) ends the
/// run with nothing recorded: no failed version, which would stand in the student's row for
/// good; the build is said to have been stopped, not to have failed (which it was said to
/// before). Control: a build that ends by the same signal of its own, with no Ctrl-C, failed.
#[test]
fn ctrl_c_during_a_build_records_no_version() {
    let dir = tempfile::tempdir().unwrap();
    let (class, cfg, league) = bob_and_dave_played(dir.path());
    let league_arg = league.display().to_string();
    let versions = || bob_versions(&league);
    assert_eq!(versions().len(), 1);

    // A new version whose build takes a while, and Ctrl-C (SIGINT to the terminal's process
    // group, the arena's) once it builds.
    let started = class.join("bob/started");
    let child = resume_while_bob_builds(&class, &league_arg);
    // Timed from the build's start (the arena's own start on a loaded machine is no part of it).
    let begun = std::time::Instant::now();
    // SAFETY: a signal to the process group of the child just started.
    assert_eq!(unsafe { libc::killpg(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted while the bots were built"), "{stderr}");
    assert!(stderr.contains("the build of bob was stopped after "), "{stderr}");
    assert!(!stderr.contains("the build of bob failed"), "{stderr}");
    assert!(begun.elapsed() < std::time::Duration::from_secs(25), "the build was ended, not waited for");
    assert_eq!(versions().len(), 1, "no version recorded: {:?}", versions());

    // The control: the build ends by SIGINT of its own, and the arena was not interrupted.
    write(&class.join("bob/build.sh"), "kill -INT $$\n");
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("the build of bob failed after "), "the control: {stderr}");
    let now = versions();
    assert_eq!(now.len(), 2, "{now:?}");
    assert_eq!(now[1]["ok"], false);
    // (`sh` reports the death by signal of the script it ran as 130, 128 + SIGINT.)
    let problem = now[1]["problem"].as_str().unwrap();
    assert!(problem.contains("SIGINT") || problem.contains("exit status: 130"), "{now:?}");

    // Its first files again: v1 again (not a v2), and said so; a map added is named.
    std::fs::remove_file(&started).unwrap();
    write(&class.join("bob/build.sh"), BUILD_SH);
    std::fs::copy(map("duel.txt"), class.join("maps/duel.txt")).unwrap();
    let text =
        std::fs::read_to_string(&cfg).unwrap().replace("\"maps/tight.txt\"]", "\"maps/tight.txt\", \"maps/duel.txt\"]");
    write(&cfg, &text);
    let (_, stderr) = run(&["tournament", "--resume", &league_arg, "--config", &cfg.display().to_string()]);
    assert!(stderr.contains("bob: builds and starts again, standing on v1 ("), "{stderr}");
    assert!(stderr.contains("maps changed (added duel.txt)"), "{stderr}");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v1");
}

/// SIGTERM to the arena alone while a student's new version builds (a batch system's time limit,
/// a pod deleted, `kill`: no terminal sends the build a signal of its own) ends the build with
/// the run at once, and records no version, as Ctrl-C does. (Before, SIGTERM killed the arena
/// on the spot; handled as Ctrl-C alone, the run still waited for the build to end by itself:
/// a 20 s build, 20 s, reproduced. `build::tests::a_build_is_ended_with_the_run` has the
/// control: a build the run does not end runs to its time-out.)
#[test]
fn sigterm_during_a_build_ends_it_and_records_no_version() {
    let dir = tempfile::tempdir().unwrap();
    let (class, _, league) = bob_and_dave_played(dir.path());
    let league_arg = league.display().to_string();
    let versions = || bob_versions(&league).len();
    assert_eq!(versions(), 1);
    let child = resume_while_bob_builds(&class, &league_arg);
    let begun = std::time::Instant::now();
    // SAFETY: a signal to the child just started, alone (not its process group).
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("terminated while the bots were built: no version recorded"), "{stderr}");
    assert!(stderr.contains("the build of bob was stopped after "), "{stderr}");
    assert!(!stderr.contains("the build of bob failed"), "{stderr}");
    assert!(begun.elapsed() < std::time::Duration::from_secs(15), "the build (30 s) was ended, not waited for");
    assert_eq!(versions(), 1, "no version recorded");
}

/// Each bot's (name, command as its config gives it, fingerprint) in the `tournament.json` of
/// `league` (its `bots` run the league's copies).
fn recorded_bots(league: &Path) -> Vec<(String, String, String)> {
    let record: Value = serde_json::from_slice(&std::fs::read(league.join("tournament.json")).unwrap()).unwrap();
    let text = |b: &Value, key: &str| b[key].as_str().unwrap_or_default().to_string();
    let configured = record["config"]["bots"].as_array().unwrap();
    let command =
        |name: &str| configured.iter().find(|b| b["name"] == name).map_or(String::new(), |b| text(b, "command"));
    record["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (text(b, "name"), command(&text(b, "name")), text(b, "fingerprint")))
        .collect()
}

/// A teacher moves the course's folder (config, bots, league) elsewhere, or copies it: the
/// league plays nothing again there, resumed from its folder alone or with the config, and its
/// standings stay; a changed bot is still a new version, and only its matches are played (a
/// copy plays its own bots, not the original's). The control: the record names the bots
/// without `cwd` by the folder's absolute path, before the move the old one and after it the
/// new one, so a fingerprint of the command as made absolute (as bots' fingerprints were)
/// differs between the two places.
#[test]
fn a_course_folder_moved_or_copied_elsewhere_plays_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir_all(course.join("maps")).unwrap();
    std::fs::copy(map("fire.txt"), course.join("maps/fire.txt")).unwrap();
    python_bot(&course.join("alice"));
    python_bot(&course.join("bots/bob"));
    write(&course.join("bots/carol/bot.sh"), WAITER_SH);
    let config = format!(
        "seed = 9\nout = \"league\"\nmaps = [\"maps/fire.txt\"]\n\
         [[bots]]\nname = \"alice\"\ncwd = \"alice\"\ncommand = \"python3 greedy.py\"\n\
         [[bots]]\nname = \"bob\"\ncommand = \"python3 bots/bob/greedy.py\"\n\
         [[bots]]\nname = \"carol\"\ncommand = \"sh bots/carol/bot.sh\"\n\
         [[bots]]\nname = \"dave\"\ncommand = {:?}\n",
        bin("waiter")
    );
    write(&course.join("class.toml"), &config);
    let (_, stderr) = run(&["tournament", "--config", &course.join("class.toml").display().to_string()]);
    assert!(stderr.contains("plan: 12 matches to play"), "{stderr}");
    let before = untimed(&leaderboard(&course.join("league")));
    assert!(before["complete"].as_bool().unwrap());
    let recorded = recorded_bots(&course.join("league"));
    let named_in = |bots: &[(String, String, String)], folder: &Path| -> Vec<String> {
        let folder = folder.display().to_string();
        bots.iter().filter(|(_, command, _)| command.contains(&folder)).map(|(name, _, _)| name.clone()).collect()
    };
    assert_eq!(named_in(&recorded, &course), ["bob", "carol"], "the control: {recorded:?}");

    // Moved: another name, another depth.
    let moved = dir.path().join("archive/2026/course-b");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&course, &moved).unwrap();
    let league = moved.join("league");
    let league_arg = league.display().to_string();
    let config_arg = moved.join("class.toml").display().to_string();
    for args in [
        vec!["tournament", "--resume", &league_arg],
        vec!["tournament", "--resume", &league_arg, "--config", &config_arg],
    ] {
        let (stdout, stderr) = run(&args);
        assert!(stderr.contains("plan: 0 matches to play"), "{args:?}: {stderr}");
        assert!(!stderr.contains("new versions") && !stderr.contains("maps changed"), "{args:?}: {stderr}");
        assert!(stdout.contains("12 of 12 matches played (0 now, 12 kept, 0 no longer counted"), "{args:?}: {stdout}");
        assert_eq!(untimed(&leaderboard(&league)), before, "{args:?}: the same standings");
        let now = recorded_bots(&league);
        assert_eq!(named_in(&now, &moved), ["bob", "carol"], "the control: the commands name the new place: {now:?}");
        assert!(named_in(&now, &course).is_empty(), "{now:?}");
        let fingerprints = |bots: &[(String, String, String)]| bots.iter().map(|b| b.2.clone()).collect::<Vec<_>>();
        assert_eq!(fingerprints(&now), fingerprints(&recorded), "the same versions");
    }

    // Copied (the original stays), then a bot of the original changes: the copy plays its
    // own bots, nothing again; a bot of the copy changes: its matches alone.
    let copy = dir.path().join("copy/course-c");
    copy_into(&moved, &copy);
    let copy_league = copy.join("league").display().to_string();
    write(&moved.join("bots/carol/bot.sh"), &format!("{WAITER_SH}# the original's\n"));
    let (_, stderr) = run(&["tournament", "--resume", &copy_league]);
    assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
    assert_eq!(untimed(&leaderboard(&copy.join("league"))), before);
    write(
        &copy.join("bots/bob/botkit.py"),
        &format!("{}\n# tuned\n", std::fs::read_to_string(copy.join("bots/bob/botkit.py")).unwrap()),
    );
    let (stdout, stderr) = run(&["tournament", "--resume", &copy_league]);
    assert!(stderr.contains("plan: 6 matches to play (alice 2, bob 6, carol 2, dave 2)"), "{stderr}");
    assert!(stderr.contains("new versions: bob"), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played (6 now, 6 kept"), "{stdout}");
    assert_eq!(row(&leaderboard(&copy.join("league")), "bob")["version"], "v2");
    // The original's league, resumed, plays its own changed carol.
    let (_, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 6 matches to play (alice 2, bob 2, carol 6, dave 2)"), "{stderr}");
}

/// A course whose bots have builds, copied whole with `cp -a` (to run it on a cluster: every
/// file a new inode), plays nothing again, resumed with or without `--config`: its builds'
/// outputs are told unchanged by their content where their stamps' inodes are new. Until
/// 2026-12-06 every bot with a build was a new version there (`bob v1 -> v2, erin v1 -> v2`),
/// all its matches played again; the control shows it with the record's content stamps taken
/// out (as an earlier arena's record is). The attack: a build output swapped in the copy by one
/// of the same size, its time kept (as `touch -r` does), is the student's, a new version.
#[test]
fn a_course_copied_whole_with_built_bots_plays_nothing_again_but_a_swapped_output_counts() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    built_bot(&class.join("bob"), WAITER_SH);
    built_bot(&class.join("erin"), &format!("{WAITER_SH}# erin's\n"));
    let cfg = class_config(&class, &["bob", "erin", "dave"]);
    let (_, stderr) = run(&["tournament", "--config", &cfg.display().to_string()]);
    assert!(stderr.contains("plan: 12 matches to play"), "{stderr}");
    let before = untimed(&leaderboard(&class.join("league")));
    let copy_of = |name: &str| {
        let copy = dir.path().join("cluster").join(name);
        copy_into(&class, &copy);
        (copy.join("league").display().to_string(), copy)
    };

    let (league, copy) = copy_of("copy");
    let config = copy.join(cfg.file_name().unwrap()).display().to_string();
    for args in [vec!["tournament", "--resume", &league], vec!["tournament", "--resume", &league, "--config", &config]]
    {
        let (stdout, stderr) = run(&args);
        assert!(stderr.contains("plan: 0 matches to play"), "{args:?}: {stderr}");
        assert!(!stderr.contains("new versions"), "{args:?}: {stderr}");
        assert!(stdout.contains("12 of 12 matches played (0 now, 12 kept"), "{args:?}: {stdout}");
        assert_eq!(untimed(&leaderboard(&copy.join("league"))), before, "{args:?}: the same standings");
    }

    // The attack: bob's program swapped in the copy by one of the same size, in its place, its
    // time as the copy kept it.
    let (league, copy) = copy_of("swapped");
    let program = copy.join("bob/bot");
    let was = std::fs::metadata(&program).unwrap();
    let mut bytes = std::fs::read(&program).unwrap();
    bytes[WAITER_SH.len() - 2] = b'#';
    {
        use std::os::unix::fs::FileExt;
        let file = std::fs::OpenOptions::new().write(true).open(&program).unwrap();
        file.write_all_at(&bytes, 0).unwrap();
        file.set_modified(was.modified().unwrap()).unwrap();
    }
    let now = std::fs::metadata(&program).unwrap();
    assert_eq!((now.len(), now.modified().unwrap()), (was.len(), was.modified().unwrap()), "size and time kept");
    assert_ne!(std::fs::read(&program).unwrap(), std::fs::read(class.join("bob/bot")).unwrap(), "other bytes");
    let (_, stderr) = run(&["tournament", "--resume", &league]);
    assert!(stderr.contains("new versions: bob v1 -> v2 (their"), "{stderr}");
    assert!(stderr.contains("plan: 8 matches to play (bob 8, dave 4, erin 4)"), "{stderr}");
    assert_eq!(row(&leaderboard(&copy.join("league")), "erin")["version"], "v1");

    // The control: without the content stamps, every bot with a build is a new version.
    let (league, copy) = copy_of("unstamped");
    let record = copy.join("league/tournament.json");
    let mut json: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    for h in json["history"].as_object_mut().unwrap().values_mut() {
        h.as_object_mut().unwrap().remove("output_contents");
    }
    std::fs::write(&record, serde_json::to_vec(&json).unwrap()).unwrap();
    let (_, stderr) = run(&["tournament", "--resume", &league]);
    assert!(stderr.contains("new versions: bob v1 -> v2, erin v1 -> v2"), "{stderr}");
    assert!(stderr.contains("plan: 12 matches to play"), "{stderr}");
}

/// A run cut short (SIGKILL to its process group after its first new results), its course then
/// copied whole (`cp -a`: every inode new) and resumed in the copy: the matches it finished are
/// kept, byte for byte, the others are played, and the league ends complete, every replay
/// re-simulating to its result (`arena verify`), with the standings of the original resumed in
/// place; the version the cut run recorded (erin's push) is no new version again in the copy,
/// nor is bob (built, unchanged: his outputs told by their content there). The control: the run
/// was cut short (more results than before it, fewer than the league's), so the copy did have
/// matches left to play and finished ones to keep (each kept replay the same file, its inode too).
#[test]
fn a_run_cut_short_then_copied_whole_resumes_in_the_copy_keeping_what_it_played() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    built_bot(&class.join("bob"), WAITER_SH);
    built_bot(&class.join("erin"), &format!("{WAITER_SH}# erin's\n"));
    let cfg = class_config(&class, &["bob", "erin", "carol", "dave"]);
    run(&["tournament", "--config", &cfg.display().to_string()]);
    let results =
        |league: &Path| std::fs::read_to_string(league.join("results.jsonl")).map_or(0, |t| t.lines().count());
    let league = class.join("league");
    assert_eq!(results(&league), 24);
    // erin's push: her 12 matches are played again, and the run is killed after a few.
    write(&class.join("erin/bot.src"), &format!("{WAITER_SH}# erin's, tuned\n"));
    let mut child = std::process::Command::new(bin("arena"))
        .args(["tournament", "--resume", &league.display().to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while results(&league) < 27 {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it was cut short");
        assert!(start.elapsed() < std::time::Duration::from_secs(120), "no progress");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: a signal to the process group of the child just started.
    assert_eq!(unsafe { libc::killpg(child.id() as i32, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    let cut = results(&league);
    assert!((27..36).contains(&cut), "cut short: {cut} results");
    let copy = dir.path().join("cluster/class");
    copy_into(&class, &copy);
    let copied = copy.join("league");
    // (The replays: a match played again would write its replay anew.)
    let replays = |league: &Path| {
        let mut all = files_under(&league.join("replays"));
        all.retain(|p, _| p.to_string_lossy().ends_with(".json.gz"));
        all
    };
    let kept = replays(&copied);

    let (stdout, stderr) = run(&["tournament", "--resume", &copied.display().to_string()]);
    let now = 36 - cut;
    assert!(!stderr.contains("new versions"), "{stderr}");
    assert!(stderr.contains(&format!("plan: {now} matches to play")), "{stderr}");
    let played = format!("24 of 24 matches played ({now} now, {} kept, 12 no longer counted", 24 - now);
    assert!(stdout.contains(&played), "{stdout}");
    assert_eq!(results(&copied), 36, "each match once");
    let after = replays(&copied);
    for (path, file) in &kept {
        assert_eq!(after.get(path), Some(file), "{} kept as it was", path.display());
    }
    let board = leaderboard(&copied);
    assert_eq!(
        (row(&board, "bob")["version"].as_str(), row(&board, "erin")["version"].as_str()),
        (Some("v1"), Some("v2"))
    );
    let mut verified = 0;
    for path in after.keys() {
        let out = arena(&["verify", &copied.join("replays").join(path).display().to_string()]);
        assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
        verified += 1;
    }
    assert_eq!(verified, 36, "every match's replay");
    // The original, resumed in place, ends on the same standings.
    let (_, stderr) = run(&["tournament", "--resume", &league.display().to_string()]);
    assert!(stderr.contains(&format!("plan: {now} matches to play")), "{stderr}");
    assert_eq!(untimed(&leaderboard(&league)), untimed(&board));
}

/// A kit of two bots in one folder, one built (`cp a-src a`, and a new `a.stamp` each build, as
/// a time stamp or a cache) and one without a build (`python3 greedy.py`): what a's build writes
/// is no file of py's, so resumed twice the league plays nothing again. Until 2026-12-06 only a
/// bot with a build of its own left the others' outputs out: py was a new version on every run
/// (`new versions: py v1 -> v2`), its matches played again. The controls: a's build did write
/// anew each run, and a change to py's own file is a new version (of both: they share it).
#[test]
fn a_bot_without_a_build_in_a_built_bot_s_folder_is_no_new_version_for_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    let kit = class.join("kit");
    python_bot(&kit);
    write(&kit.join("a-src"), WAITER_SH);
    let cfg = class.join("kit.toml");
    write(
        &cfg,
        &format!(
            "seed = 9\nout = \"league\"\nmaps = [\"maps/fire.txt\"]\n\
             [[bots]]\nname = \"a\"\ncommand = \"./a\"\ncwd = \"kit\"\n\
             build = \"cp a-src a && chmod +x a && date +%s%N > a.stamp\"\n\
             [[bots]]\nname = \"py\"\ncommand = \"python3 greedy.py\"\ncwd = \"kit\"\n\
             [[bots]]\nname = \"dave\"\ncommand = {:?}\n",
            bin("waiter")
        ),
    );
    let league = class.join("league").display().to_string();
    let stamp = || std::fs::read_to_string(kit.join("a.stamp")).unwrap();
    let (_, stderr) = run(&["tournament", "--config", &cfg.display().to_string()]);
    assert!(stderr.contains("plan: 6 matches to play"), "{stderr}");
    let before = untimed(&leaderboard(&class.join("league")));
    let mut stamps = vec![stamp()];
    for _ in 0..2 {
        let (stdout, stderr) = run(&["tournament", "--resume", &league]);
        assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
        assert!(!stderr.contains("new versions"), "{stderr}");
        assert!(stdout.contains("6 of 6 matches played (0 now, 6 kept"), "{stdout}");
        stamps.push(stamp());
    }
    let board = leaderboard(&class.join("league"));
    assert_eq!(untimed(&board), before, "the same standings");
    assert_eq!((row(&board, "a")["version"].as_str(), row(&board, "py")["version"].as_str()), (Some("v1"), Some("v1")));
    // The controls: a's build wrote anew each run; py's own file changed is a new version.
    assert!(stamps[0] != stamps[1] && stamps[1] != stamps[2], "{stamps:?}");
    let greedy = std::fs::read_to_string(kit.join("greedy.py")).unwrap();
    write(&kit.join("greedy.py"), &format!("{greedy}\n# tuned\n"));
    let (_, stderr) = run(&["tournament", "--resume", &league]);
    assert!(stderr.contains("new versions: a v1 -> v2, py v1 -> v2"), "{stderr}");
    assert!(stderr.contains("plan: 6 matches to play"), "{stderr}");
}

/// A student's folder pushed as a symbolic link to another's (git keeps links): alice's entry
/// names `subs/alice/src`, which alice made a link to `../bob`. Her build (`touch x`) would run
/// in Bob's folder, writable, and her matches would run Bob's program: she is refused instead,
/// as her failure, saying the link, its target and the fix; Bob's folder is untouched, and Bob
/// and the others play. The control: her real folder named directly, her build writes in it
/// alone and she plays. (That the build follows the link without the check, writing
/// `subs/bob/x`, is shown by the library's test
/// `versions::tests::a_build_through_a_link_writes_the_target_and_the_league_refuses_it`: this
/// crate drives the arena binary, whose leagues always check.)
#[test]
fn a_bot_whose_folder_is_a_link_to_another_s_is_refused_and_the_other_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    built_bot(&class.join("subs/bob"), WAITER_SH);
    built_bot(&class.join("subs/alice/real"), WAITER_SH);
    std::os::unix::fs::symlink("../bob", class.join("subs/alice/src")).unwrap();
    let league_with = |alice: &str, name: &str| {
        let mut text = String::from("seed = 9\nmaps = [\"maps/fire.txt\"]\n");
        text.push_str(&format!(
            "[[bots]]\nname = \"alice\"\ncommand = \"./bot\"\ncwd = \"{alice}\"\nbuild = \"touch x && sh build.sh\"\n"
        ));
        text.push_str("[[bots]]\nname = \"bob\"\ncommand = \"./bot\"\ncwd = \"subs/bob\"\nbuild = \"sh build.sh\"\n");
        for bot in ["carol", "dave"] {
            let program = bin(if bot == "carol" { "greedy" } else { "waiter" });
            text.push_str(&format!("[[bots]]\nname = \"{bot}\"\ncommand = {program:?}\n"));
        }
        // (And one whose folder is missing: neither it nor alice has a build log.)
        text.push_str("[[bots]]\nname = \"zed\"\ncommand = \"./bot\"\ncwd = \"subs/zed\"\nbuild = \"sh build.sh\"\n");
        let cfg = class.join(format!("{name}.toml"));
        write(&cfg, &text);
        let league = class.join(name);
        let out =
            arena(&["tournament", "--config", &cfg.display().to_string(), "--out", &league.display().to_string()]);
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{said}");
        (leaderboard(&league), said)
    };

    let (board, said) = league_with("subs/alice/src", "linked");
    assert!(!class.join("subs/bob/x").exists(), "alice's build did not write in bob's folder");
    let alice = row(&board, "alice");
    let failure = alice["failure"].as_str().unwrap_or_default();
    assert_eq!(
        failure,
        "its folder subs/alice/src is a symbolic link (to ../bob): a bot's folder may not be reached through a \
         link in its students' files; name the folder itself (its real path) in `cwd`",
        "{alice}"
    );
    assert_eq!(alice["games"], 0, "{alice}");
    assert!(alice["build_log"].is_null(), "not built: {alice}");
    assert!(said.contains("is a symbolic link (to ../bob)"), "the teacher is told: {said}");
    for bot in ["bob", "carol", "dave"] {
        assert_eq!(row(&board, bot)["games"], 4, "{bot} plays the two others: {}", row(&board, bot));
    }
    // The index says so without its script too, with why, though neither has a build log.
    let notes = index_notes(&class.join("linked"));
    assert!(notes.contains("<b>alice</b>: its folder subs/alice/src is a symbolic link (to ../bob)"), "{notes}");
    assert!(notes.contains("<b>zed</b>: its folder subs/zed is missing</li>"), "{notes}");
    assert!(!notes.contains("build log") && !notes.contains("<b>bob</b>"), "{notes}");

    // The control: her real folder, named directly.
    let (board, _) = league_with("subs/alice/real", "real");
    assert!(class.join("subs/alice/real/x").is_file(), "her build wrote in her folder");
    assert!(!class.join("subs/bob/x").exists(), "and not in bob's");
    assert!(row(&board, "alice")["failure"].is_null(), "{}", row(&board, "alice"));
    assert_eq!(row(&board, "alice")["games"], 6, "{}", row(&board, "alice"));
    let notes = index_notes(&class.join("real"));
    assert!(notes.contains("<b>zed</b>: its folder subs/zed is missing") && !notes.contains("alice"), "{notes}");
}

/// A teacher fetched a student's repository with a plain local `git clone` (its objects hard
/// links of the server's, as git makes them): the bot is built, its files that were links given
/// copies of their own first (said with `-v`), and the server's repository is left as it was,
/// though the build writes every object of the clone. The next run sees the same version
/// (nothing to play, the same fingerprint) and has nothing to copy. (Before, such a folder was
/// not built at all; that the clone's objects were links of the server's is checked first.)
#[test]
fn a_bot_fetched_by_a_local_git_clone_is_built_and_the_server_s_repository_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    let work = dir.path().join("work");
    built_bot(&work, WAITER_SH);
    let attack = "find .git/objects -type f -exec sh -c 'chmod u+w \"$1\" && echo x >> \"$1\"' _ {} \\;\n";
    write(&work.join("build.sh"), &format!("{attack}{BUILD_SH}"));
    git(&work, &["init", "-q"]);
    git(&work, &["add", "."]);
    git(&work, &["commit", "-qm", "bob's bot"]);
    std::fs::create_dir_all(dir.path().join("srv")).unwrap();
    git(dir.path(), &["clone", "-q", "--bare", work.to_str().unwrap(), "srv/bob.git"]);
    git(&class, &["clone", "-q", dir.path().join("srv/bob.git").to_str().unwrap(), "bob"]);
    let server = files_under(&dir.path().join("srv/bob.git/objects"));
    let cloned = files_under(&class.join("bob/.git/objects"));
    assert!(
        cloned.iter().any(|(p, (ino, _))| server.get(p).is_some_and(|(i, _)| i == ino)),
        "the clone's objects are links of the server's"
    );
    let cfg = class_config(&class, &["bob", "dave"]);
    // (Without a box: a box shows the build its folder's `.git` read-only, so no build writes the
    // objects there; the copies are for a build without one.)
    let (_, stderr) = run(&["-v", "tournament", "--config", &cfg.display().to_string(), "--sandbox", "none"]);
    let said = "files were hard links of files outside its folder; each now has a copy of its own";
    assert!(stderr.contains("bot `bob`: ") && stderr.contains(said), "{stderr}");
    let league = class.join("league");
    let board = leaderboard(&league);
    let bob = row(&board, "bob");
    let head = std::process::Command::new("git").args(["rev-parse", "--short=7", "HEAD"]).current_dir(&work).output();
    let head = String::from_utf8_lossy(&head.unwrap().stdout).trim().to_string();
    let label = format!("v1 {head}");
    assert_eq!(bob["version"], label.as_str(), "its commit, no edits: {bob}");
    // The pages show it as leaderboard.json does: the index's data, and bob's page's header.
    let shown = page_data(&league)["bots"].as_array().unwrap().iter().find(|b| b["name"] == "bob").cloned().unwrap();
    assert_eq!((&shown["version"], &shown["version_at"]), (&bob["version"], &bob["version_at"]));
    let page = std::fs::read_to_string(league.join("bots/bob.html")).unwrap();
    assert!(page.contains(&format!(">version {label}, first seen ")), "{page}");
    assert!(bob["note"].is_null(), "{bob}");
    assert_eq!(files_under(&dir.path().join("srv/bob.git/objects")), server, "the server's objects as they were");
    git(&dir.path().join("srv/bob.git"), &["fsck", "--no-progress"]);
    let written = files_under(&class.join("bob/.git/objects"));
    assert!(written.values().all(|(_, bytes)| bytes.ends_with(b"x\n")), "the build wrote the clone's own objects");
    let recorded = recorded_bots(&league);
    let (_, stderr) = run(&["-v", "tournament", "--resume", &league.display().to_string(), "--sandbox", "none"]);
    assert!(stderr.contains("plan: 0 matches to play"), "{stderr}");
    assert!(!stderr.contains(said), "nothing left to copy: {stderr}");
    assert_eq!(recorded_bots(&league), recorded, "the same versions");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], label.as_str());
}

/// A bot that plays from its own files (no copy of its version: here a record of an earlier
/// arena) and rewrites them during the run is told once, by the labels the leaderboard shows
/// (until 2026-12-05: twice, as a log line and as a plain one, naming fingerprints), and its
/// matches still to play are left for the next run.
#[test]
fn a_bot_changed_while_it_plays_from_its_own_files_is_told_once_by_its_labels() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    // ann rewrites her own script as she starts (a new file moved over it, as a push would).
    let script = format!(
        "printf '%s\\n' '# pushed' >> bot.sh.new && cat bot.sh >> bot.sh.new && mv bot.sh.new bot.sh\n{WAITER_SH}"
    );
    write(&class.join("ann/bot.sh"), &script);
    let text = std::fs::read_to_string(class_config(&class, &["carol", "dave"])).unwrap();
    let cfg = class.join("class-ann.toml");
    // (Unboxed, so that she can write her folder: a box shows it read-only.)
    write(
        &cfg,
        &format!(
            "jobs = 1\nsandbox = \"none\"\n{text}[[bots]]\nname = \"ann\"\ncommand = \"sh bot.sh\"\ncwd = \"ann\"\n"
        ),
    );
    let league = class.join("league");
    run(&["build", &cfg.display().to_string(), "--out", &league.display().to_string()]);
    // As an earlier arena recorded it: every bot plays from its own files.
    playing_from_own_files(&league);

    let (stdout, stderr) = run(&["tournament", "--resume", &league.display().to_string(), "--shard", "1/1"]);
    let told = "bot `ann` plays from its own files (the league has no copy of its version), which changed during the \
                run (built as v1, its files now a version the league has not seen): its matches still to play are \
                left for the next run";
    assert_eq!(stderr.matches("which changed during the run").count(), 1, "{stderr}");
    assert!(stderr.contains(told), "{stderr}");
    assert!(stdout.contains("left for the next run"), "{stdout}");
}

/// A bot with a build renamed (`Bob Smith`) and back (`bob`) is the same version all along,
/// whatever the other name's build rewrote in the folder: `bot`, as that league build left it,
/// is still no file of the student's, and bob's results, still current, count again (and Bob
/// Smith's, given back, too). Until 2026-12-06 bob's record of `bot` no longer matched what
/// Bob Smith's build wrote, `bot` counted as the student's, and bob was a new version, its 8
/// matches played again. The control: `bot` edited by hand after a build is the student's, a
/// new version (v2), its matches played.
#[test]
fn a_built_bot_renamed_and_back_is_the_same_version_unless_its_output_was_edited() {
    let dir = tempfile::tempdir().unwrap();
    let Renamed { class, cfg, league, renamed } = bob_renamed(dir.path());
    let league_arg = league.display().to_string();
    let resume =
        |config: &Path| run(&["tournament", "--resume", &league_arg, "--config", &config.display().to_string()]);
    let bot = class.join("bob/bot");
    let written = || std::fs::metadata(&bot).unwrap().modified().unwrap();

    let before = written();
    let (stdout, _) = resume(&renamed);
    assert!(stdout.contains("12 of 12 matches played (8 now, 4 kept"), "{stdout}");
    assert_ne!(written(), before, "Bob Smith's build rewrote `bot`");
    let (stdout, stderr) = resume(&cfg);
    assert!(stderr.contains("bob is back and Bob Smith is gone, with the same files (renamed back?)"), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played (0 now, 12 kept"), "{stdout}\n{stderr}");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v1");
    let (stdout, stderr) = resume(&renamed);
    assert!(stderr.contains("Bob Smith is back and bob is gone, with the same files (renamed back?)"), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played (0 now, 12 kept"), "{stdout}\n{stderr}");

    // The control: `bot` edited by hand (after Bob Smith's build) is the student's file now.
    let mut text = std::fs::read_to_string(&bot).unwrap();
    text.push_str("# edited by hand\n");
    std::fs::write(&bot, text).unwrap();
    let (stdout, stderr) = resume(&cfg);
    assert!(stderr.contains("bots back in the league: bob"), "{stderr}");
    assert!(stdout.contains("12 of 12 matches played (8 now, 4 kept"), "{stdout}\n{stderr}");
    assert_eq!(row(&leaderboard(&league), "bob")["version"], "v2");
}

/// What a newcomer's run met: a plan of one match said "1 matches", `arena build` listed
/// fingerprints where the leaderboard names versions, and `--rerun` of a key of a bot's older
/// version said only "no such match". One match is now "1 match" (the control: the first run's
/// plan of 4 is plural); `arena build` names each bot's version (`bob v2`) with its fingerprint
/// after it; and `--rerun` of the older version's key says whose version it was, that its result
/// is history, and the key of the same match now (the control: a key the league never had is
/// still "no such match").
#[test]
fn one_match_is_one_and_builds_and_reruns_name_the_versions() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_folder(dir.path());
    built_bot(&class.join("bob"), WAITER_SH);
    built_bot(&class.join("erin"), WAITER_SH);
    let cfg = class_config(&class, &["bob", "erin"]).display().to_string();
    let (_, stderr) = run(&["tournament", "--config", &cfg]);
    assert!(stderr.contains("plan: 4 matches to play (bob 4, erin 4)"), "the control: {stderr}");
    let league = class.join("league");
    let league_arg = league.display().to_string();
    // One result gone: one match to play, and then one played.
    let results = league.join("results.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    let old_key =
        serde_json::from_str::<Value>(text.lines().next().unwrap()).unwrap()["key"].as_str().unwrap().to_string();
    let kept: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&results, kept.join("\n") + "\n").unwrap();
    let (stdout, stderr) = run(&["tournament", "--resume", &league_arg]);
    assert!(stderr.contains("plan: 1 match to play (bob 1, erin 1), 3 kept"), "{stderr}");
    assert!(stdout.contains("4 of 4 matches played (1 now, 3 kept"), "{stdout}");
    assert!(!format!("{stdout}{stderr}").contains(" 1 matches"), "{stdout}{stderr}");
    // A push of bob's, built: versions named as the leaderboard names them.
    write(&class.join("bob/bot.src"), &format!("{WAITER_SH}# v2\n"));
    let (stdout, _) = run(&["build", &cfg, "--out", &league_arg]);
    assert!(stdout.contains("bob v2 ready (fingerprint "), "{stdout}");
    assert!(stdout.contains("erin v1 ready (fingerprint "), "{stdout}");
    // The key of a match of bob's v1.
    let refused = arena(&["tournament", "--resume", &league_arg, "--rerun", &old_key]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    let said = format!("--rerun {old_key}: a match of an older version: bob v1 (the league plays v2 now). Its result is kept as history, not counted, and is not played again; the same seats, map and game now: `--rerun ");
    assert!(stderr.contains(&said), "{stderr}");
    let now = stderr.split(&said).nth(1).and_then(|rest| rest.split('`').next()).unwrap_or_default();
    let record = std::fs::read_to_string(league.join("tournament.json")).unwrap();
    assert!(now != old_key && record.contains(&format!("\"{now}\"")), "the key it names is scheduled: {now}");
    let (_, stderr) = run(&["tournament", "--resume", &league_arg, "--rerun", now]);
    assert!(stderr.contains("plan: "), "{stderr}");
    let refused = arena(&["tournament", "--resume", &league_arg, "--rerun", "no-such-key"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--rerun no-such-key: no such match in the schedule"), "the control: {stderr}");
}
