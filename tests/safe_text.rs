//! Text a bot controls (its answers, the forfeit details that quote them, stderr excerpts, and
//! names from config files and the command line) reaches every output safely. Hostile bots
//! (`tests/bots/hostile.sh`) answer with terminal escape sequences, `|` and carriage returns,
//! a 4 KiB line, bytes that are not UTF-8, and markup; hostile names carry the same. Every
//! output path in [`OUTPUTS`] is produced and checked: no raw control character reaches a
//! terminal or a Markdown table, a Markdown table keeps its columns, JSON reads back the raw
//! text, and the replay keeps the raw answer as evidence. (The browser test
//! `bot_text_shows_literally_in_the_pages` checks the pages' DOM.)

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};

use arena_e2e::*;
use serde_json::Value;

/// Every output that shows text a bot controls.
const OUTPUTS: &[&str] = &[
    "duel: result table",
    "duel: --json",
    "duel: warning (stderr)",
    "duel: error (stderr)",
    "replay: piped",
    "replay: --tick",
    "replay: on a terminal",
    "verify: OK",
    "verify: MISMATCH",
    "view: page",
    "tournament: progress lines (stderr)",
    "tournament: progress bar on a terminal",
    "tournament: final table",
    "tournament: --json",
    "leaderboard: table",
    "leaderboard: --json",
    "leaderboard.md",
    "leaderboard.json",
    "index.html",
    "bot pages",
    "replay pages",
    "test: report lines",
    "test: --json",
    "test: --transcripts",
    "check-bot",
];

/// The hostile bot's modes (see `tests/bots/hostile.sh`).
const MODES: [&str; 5] = ["escapes", "pipes", "long", "utf8", "html"];

/// What each mode's bot sends, trimmed as the arena stores it (`None`: not UTF-8).
fn sent(mode: &str) -> Option<String> {
    match mode {
        "escapes" => Some("\u{1b}[2J\u{1b}]0;owned\u{7}\u{1b}[31m WAIT".to_string()),
        "pipes" => Some("| a | b |\r| c |\rWAIT".to_string()),
        "long" => Some(format!("MOVE {}", "A".repeat(4091))),
        "html" => Some("<img src=x onerror=\"document.title=1\"></script><b>bold</b> `tick` *x*".to_string()),
        _ => None,
    }
}

/// A display name as hostile as an answer: escapes, a table separator, a line break, a
/// right-to-left override and markup.
const NAME: &str = "esc\u{1b}[2J\u{1b}]0;owned\u{7}|\nname\u{202e}<i>x";

fn hostile(mode: &str) -> String {
    format!("{} {mode}", script("hostile.sh"))
}

/// The characters a terminal would act on: C0 controls but the newline, DEL, C1 controls,
/// bidirectional overrides and isolates, line and paragraph separators.
fn unsafe_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c < ' ' && c != '\n')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || c == '\u{2028}'
                || c == '\u{2029}'
        })
        .collect()
}

/// Checks terminal output: UTF-8, no unsafe character, and (but in JSON, which keeps the
/// whole text) no line longer than a few hundred characters: long text is cut.
fn terminal_safe(what: &str, bytes: &[u8]) {
    let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{what}: not UTF-8 ({e})"));
    assert_eq!(unsafe_chars(text), Vec::<char>::new(), "{what}: raw control characters in\n{text}");
    if !what.contains("json") {
        for line in text.lines() {
            assert!(line.chars().count() < 700, "{what}: a line of {} characters", line.chars().count());
        }
    }
}

/// Columns of a Markdown table row: `|` not escaped by a backslash, minus one.
fn columns(row: &str) -> usize {
    let (mut n, mut escaped) = (0usize, false);
    for c in row.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => n += 1,
            _ => escaped = false,
        }
    }
    n.saturating_sub(1)
}

/// Runs `arena` with stdout and stderr on a pseudo-terminal (raw mode: no `\r` added);
/// returns everything it wrote there.
fn on_terminal(args: &[&str]) -> Vec<u8> {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills two descriptors; null name, termios and size are allowed.
    let rc =
        unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: the descriptors are ours; termios is filled by tcgetattr before use.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        libc::tcgetattr(slave, &mut t);
        libc::cfmakeraw(&mut t);
        libc::tcsetattr(slave, libc::TCSANOW, &t);
    }
    let (master, slave) = unsafe { (std::fs::File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let reader = std::thread::spawn(move || {
        let mut master = master;
        let (mut out, mut buf) = (Vec::new(), [0u8; 8192]);
        // Ends with EIO once the last writer of the terminal has gone.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let status = {
        let mut command = Command::new(bin("arena"));
        command
            .current_dir(root())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        command.status().unwrap()
    };
    assert!(status.success(), "arena {args:?} on a terminal failed");
    reader.join().unwrap()
}

struct Seen(Vec<&'static str>);

impl Seen {
    fn check(&mut self, what: &'static str, bytes: &[u8]) {
        terminal_safe(what, bytes);
        self.0.push(what);
    }
}

/// HTML a bot's text went into: no element or attribute came from it.
fn html_safe(what: &str, page: &str) {
    for injected in ["<img", "<b>bold", "<i>x", "</script><b>"] {
        assert!(!page.contains(injected), "{what}: `{injected}` reached the page as markup");
    }
}

#[test]
fn every_output_path_shows_bot_text_safely() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let mut seen = Seen(Vec::new());
    let fire = map("fire.txt");
    let greedy = bin("greedy");

    // ---- arena duel, each hostile answer, with a hostile name
    let mut replays = Vec::new();
    for mode in MODES {
        let replay = d(&format!("{mode}.json"));
        let bot = hostile(mode);
        let duel = |json: bool, replay: &str| {
            let mut args = vec!["duel", "--map", &fire, "--seed", "1", "--name", NAME, "--name", "greedy"];
            if json {
                args.push("--json");
            }
            args.extend(["--replay", replay, &bot, &greedy]);
            arena(&args)
        };
        let out = duel(false, &replay);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        seen.check("duel: result table", &out.stdout);
        terminal_safe("duel: stderr", &out.stderr);
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(table.contains("malformed"), "{table}");
        if mode == "escapes" {
            assert!(table.contains("\\e[2J\\e]0;owned\\a\\e[31m WAIT"), "escapes are shown visibly: {table}");
        }
        if mode == "long" {
            assert!(table.contains("more characters]"), "a long answer is cut with a marker: {table}");
        }
        let out = duel(true, &d(&format!("{mode}-json.json")));
        seen.check("duel: --json", &out.stdout);
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(result["players"][0]["name"], NAME, "JSON reads back the raw name");
        // The control: the attack reached the arena, and the replay keeps it raw.
        let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
        let reply = &rep["steps"][0]["replies"][0];
        match sent(mode) {
            Some(raw) => {
                assert_eq!(reply["answer"], raw.as_str(), "{mode}: the replay keeps the raw answer");
                let detail = result["players"][0]["detail"].as_str().unwrap();
                let quoted = raw.split_whitespace().next().unwrap();
                assert!(detail.contains(quoted), "{mode}: the detail quotes the answer: {detail:?}");
            }
            None => assert_eq!(reply["failure"], "not_utf8", "{mode}: not UTF-8"),
        }
        replays.push(replay);
    }

    // ---- warnings and errors on stderr
    let out = arena(&["duel", "--map", &fire, "--no-replay", "--name", NAME, &bin("waiter"), &greedy]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("never moved"), "{}", String::from_utf8_lossy(&out.stderr));
    seen.check("duel: warning (stderr)", &out.stderr);
    let out = arena(&["duel", "--map", &fire, "--no-replay", "--name", NAME, "./nope\u{1b}[31m", &greedy]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"), "{}", String::from_utf8_lossy(&out.stderr));
    seen.check("duel: error (stderr)", &out.stderr);

    // ---- arena replay, verify, view
    for replay in &replays {
        let out = arena(&["replay", replay]);
        assert!(out.status.success());
        seen.check("replay: piped", &out.stdout);
        let out = arena(&["replay", replay, "--tick", "1"]);
        seen.check("replay: --tick", &out.stdout);
        let out = arena(&["verify", replay]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        seen.check("verify: OK", &out.stdout);
        let page = d("view.html");
        assert!(arena(&["view", replay, "-o", &page]).status.success());
        html_safe("view: page", &std::fs::read_to_string(&page).unwrap());
        seen.0.push("view: page");
    }
    let shown = on_terminal(&["replay", &replays[0], "--delay-ms", "0"]);
    // The animation's own clear-screen is the only escape sequence.
    let text = String::from_utf8(shown).unwrap().replace("\u{1b}[2J\u{1b}[H", "");
    assert!(text.contains("\\e[2J"), "the bot's escapes are shown visibly on a terminal too: {text}");
    seen.check("replay: on a terminal", text.as_bytes());
    let mut tampered: Value = serde_json::from_slice(&std::fs::read(&replays[0]).unwrap()).unwrap();
    tampered["steps"][0]["frame"]["players"][1]["action"] = "\u{9b}31m\u{1b}[2J".into();
    let bad = d("tampered.json");
    std::fs::write(&bad, serde_json::to_vec(&tampered).unwrap()).unwrap();
    let out = arena(&["verify", &bad]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));
    seen.check("verify: MISMATCH", &out.stdout);

    // ---- a tournament with hostile names, answers and a build's stderr
    let out_dir = dir.path().join("t");
    let cfg = dir.path().join("t.toml");
    let mut config = format!("maps = [{fire:?}]\nseed = 2\n[[bots]]\nname = \"greedy\"\ncommand = {greedy:?}\n");
    let names = [
        ("escapes", "esc\\u001b[2J\\u001b]0;owned\\u0007|bot"),
        ("pipes", "pipe|d\\r\\nname"),
        ("long", "long"),
        ("utf8", "rtl\\u202egnp.exe"),
        ("html", "<img src=x onerror=alert(1)>`x`"),
    ];
    for (mode, name) in names {
        config.push_str(&format!("[[bots]]\nname = \"{name}\"\ncommand = {:?}\n", hostile(mode)));
    }
    config.push_str("[[bots]]\nname = \"broken\"\ncommand = \"./nope\"\nbuild = \"printf '\\\\033[31mred|cell\\\\n' >&2; exit 1\"\n");
    std::fs::write(&cfg, &config).unwrap();
    let run = arena(&[
        "tournament",
        "--config",
        &cfg.display().to_string(),
        "--out",
        &out_dir.display().to_string(),
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    seen.check("tournament: progress lines (stderr)", &run.stderr);
    assert!(String::from_utf8_lossy(&run.stderr).contains("esc\\e[2J"), "{}", String::from_utf8_lossy(&run.stderr));
    seen.check("tournament: final table", &run.stdout);
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(table.contains("\\e[31mred|cell"), "the build's stderr excerpt, shown visibly: {table}");
    let bots = 7;
    let run = arena(&["leaderboard", &out_dir.display().to_string()]);
    seen.check("leaderboard: table", &run.stdout);
    let run = arena(&["leaderboard", "--json", &out_dir.display().to_string()]);
    seen.check("leaderboard: --json", &run.stdout);
    let board: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert!(board["rows"].as_array().unwrap().iter().any(|r| r["bot"] == "esc\u{1b}[2J\u{1b}]0;owned\u{7}|bot"));
    let again = Command::new(bin("arena"))
        .current_dir(root())
        .args(["tournament", "--json", "--resume", &out_dir.display().to_string()])
        .output()
        .unwrap();
    seen.check("tournament: --json", &again.stdout);
    let file: Value = serde_json::from_slice(&std::fs::read(out_dir.join("leaderboard.json")).unwrap()).unwrap();
    // Compared without the times (its date, when each version was first seen).
    let untimed = |mut b: Value| {
        b["facts"].as_object_mut().map(|f| f.remove("date"));
        for r in b["rows"].as_array_mut().into_iter().flatten() {
            r.as_object_mut().map(|r| r.remove("version_at"));
        }
        b
    };
    // (After the resume, which built the broken bot again: the leaderboard as it is now.)
    let now = arena(&["leaderboard", "--json", &out_dir.display().to_string()]);
    let now: Value = serde_json::from_slice(&now.stdout).unwrap();
    assert_eq!(untimed(file), untimed(now), "leaderboard.json holds the raw names (JSON escapes them)");
    seen.0.push("leaderboard.json");

    // leaderboard.md: one row per bot, eleven columns each (the version among them), nothing raw.
    let md = std::fs::read_to_string(out_dir.join("leaderboard.md")).unwrap();
    terminal_safe("leaderboard.md", md.as_bytes());
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 2 + bots, "header, separator, one line per bot:\n{md}");
    for row in &rows {
        assert_eq!(columns(row), 11, "{row}");
    }
    // The control: the raw name in a row breaks it.
    let naive = format!("| 1 | {} | 0 |", "pipe|d\r\nname");
    assert!(naive.lines().count() > 1 || columns(naive.lines().next().unwrap()) != 3);
    assert!(md.contains("\\`x\\`") && md.contains("\\<img"), "markup is escaped: {md}");
    seen.0.push("leaderboard.md");

    // The pages: names and answers reach them only as text.
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    html_safe("index.html", &index);
    seen.0.push("index.html");
    for entry in std::fs::read_dir(out_dir.join("bots")).unwrap().flatten() {
        html_safe("bot pages", &std::fs::read_to_string(entry.path()).unwrap());
    }
    seen.0.push("bot pages");
    for entry in std::fs::read_dir(out_dir.join("replays")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "html") {
            html_safe("replay pages", &std::fs::read_to_string(entry.path()).unwrap());
        }
    }
    seen.0.push("replay pages");

    // The progress bar on a terminal: its own cursor moves only, none of the bots'.
    let cfg2 = dir.path().join("t2.toml");
    let two = format!(
        "maps = [{fire:?}]\n[[bots]]\nname = \"esc\\u001b[2J\\u001b]0;owned\\u0007\"\ncommand = {:?}\n[[bots]]\nname = \"greedy\"\ncommand = {greedy:?}\n",
        hostile("escapes")
    );
    std::fs::write(&cfg2, two).unwrap();
    let shown = on_terminal(&["tournament", "--config", &cfg2.display().to_string(), "--out", &d("t2")]);
    let text = String::from_utf8(shown).unwrap();
    for payload in ["\u{1b}[2J", "\u{1b}]0;owned", "\u{7}", "\u{1b}[31m"] {
        assert!(!text.contains(payload), "the bots' escape {payload:?} reached the terminal: {text:?}");
    }
    seen.0.push("tournament: progress bar on a terminal");

    // ---- arena test, its transcripts, and check-bot
    let transcripts = dir.path().join("tr");
    for mode in MODES {
        let bot = hostile(mode);
        let tr = transcripts.display().to_string();
        let out = arena(&["test", &bot, "--only", "1", "--transcripts", &tr]);
        seen.check("test: report lines", &out.stdout);
        let text = std::fs::read_to_string(transcripts.join("test01.txt")).unwrap();
        seen.check("test: --transcripts", text.as_bytes());
        if mode == "escapes" {
            assert!(text.contains("\\e[2J\\e]0;owned\\a\\e[31m WAIT"), "{text}");
        }
        let out = arena(&["test", &bot, "--only", "1", "--json"]);
        seen.check("test: --json", &out.stdout);
        // The reports, then (as `arena test` does) a summary line.
        let reports: Value = serde_json::Deserializer::from_slice(&out.stdout).into_iter().next().unwrap().unwrap();
        assert_eq!(reports[0]["passed"], false);
        let out = arena(&["check-bot", &bot]);
        seen.check("check-bot", &out.stdout);
    }

    let mut covered = seen.0.clone();
    covered.sort();
    covered.dedup();
    let mut all = OUTPUTS.to_vec();
    all.sort();
    assert_eq!(covered, all, "every output path is checked");
}

#[test]
fn a_replay_keeps_the_raw_bytes_while_showing_them_safely() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let (bot, fire, greedy) = (hostile("escapes"), map("fire.txt"), bin("greedy"));
    let out = arena(&["duel", "--map", &fire, "--replay", &replay_arg, &bot, &greedy]);
    assert!(out.status.success());
    let raw = std::fs::read(&replay).unwrap();
    // JSON escapes the bytes, and reads them back as they were.
    assert!(!raw.contains(&0x1b), "the file itself holds no raw escape byte");
    let rep: Value = serde_json::from_slice(&raw).unwrap();
    assert_eq!(rep["steps"][0]["replies"][0]["answer"], sent("escapes").unwrap().as_str());
    // Compressed in a tournament folder, the same: `arena view` reads either.
    let gz = dir.path().join("r.json.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, &raw).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let out = arena(&["verify", &gz.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(arena(&["view", &gz.display().to_string()]).status.success());
    assert!(Path::new(&dir.path().join("r.html")).exists(), "`x.json.gz` is viewed as `x.html`");
}

/// A file name in a student's folder (here one with a line break and a forged progress line)
/// reaches the teacher's terminal in a resumed league's `change:` line, through the note that
/// quotes why the bot cannot start: it stays on that line. The control: shown as lines (the
/// display before), the note starts a forged line of its own.
#[test]
fn a_file_name_in_a_bot_s_folder_cannot_forge_a_line_of_a_resumed_league() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("s/mallory");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("notes.txt"), "mine").unwrap();
    let config = mallory_league(dir.path());
    let (config, out) = (config.display().to_string(), dir.path().join("out").display().to_string());
    assert!(arena(&["tournament", "--config", &config, "--out", &out]).status.success());
    // Too large a file to fingerprint (sparse: it takes no disk), named to forge a line (a
    // file name cannot hold `/`: U+2215 looks the same).
    let forged = "[9\u{2215}9] greedy vs mallory on fire.txt: 0-999";
    let name = folder.join(format!("x\n{forged}\ny"));
    std::fs::File::create(&name).unwrap().set_len(600 << 20).unwrap();
    let resumed = arena(&["tournament", "--resume", &out]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    let change = stderr.lines().find(|l| l.starts_with("change: mallory: could not start")).expect(&stderr);
    assert!(change.contains(&format!("x\\n{forged}\\ny")), "the name shown on the change line: {stderr}");
    assert!(!stderr.lines().any(|l| l.starts_with(forged)), "no forged line: {stderr}");
    // The control: the league keeps why as it was (evidence), and printed as it is, that
    // starts the forged line.
    let record = std::fs::read_to_string(Path::new(&out).join("tournament.json")).unwrap();
    let record: Value = serde_json::from_str(&record).unwrap();
    let why = strings(&record).into_iter().find(|s| s.contains(forged)).expect("why mallory cannot start");
    assert!(why.lines().any(|l| l.starts_with(forged)), "printed as it is, a forged line: {why}");
}

/// Every string in a JSON value.
fn strings(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(fields) => fields.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// A file name in a student's folder (one with line breaks and a forged progress line) makes
/// the bot unable to play in a new league, so that no match can be played: the line saying
/// so, on `arena tournament`'s stderr, and `arena build`'s lines, quote why, each on its own
/// line. The control: the league keeps why as it was, which shown as lines (the display
/// before: `terminal_lines` keeps line breaks) starts the forged line.
#[test]
fn a_file_name_in_a_bot_s_folder_cannot_forge_a_line_when_no_match_can_be_played() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("s/mallory");
    std::fs::create_dir_all(&folder).unwrap();
    // Too large a file to fingerprint (sparse: it takes no disk), named to forge a line (a
    // file name cannot hold `/`: U+2215 looks the same).
    let forged = "[9\u{2215}9] greedy vs mallory on fire.txt: 0-999";
    std::fs::File::create(folder.join(format!("x\n{forged}\ny"))).unwrap().set_len(600 << 20).unwrap();
    let config = mallory_league(dir.path());
    let config = config.display().to_string();
    let out = dir.path().join("out").display().to_string();
    let run = arena(&["tournament", "--config", &config, "--out", &out]);
    let built = arena(&["build", "--config", &config, "--out", &dir.path().join("built").display().to_string()]);
    for (what, output) in [("tournament", &run.stderr), ("build", &built.stdout), ("build", &built.stderr)] {
        let text = String::from_utf8_lossy(output);
        assert!(!text.lines().any(|l| l.starts_with(forged)), "{what}: a forged line: {text}");
    }
    let stderr = String::from_utf8_lossy(&run.stderr);
    let line = stderr.lines().find(|l| l.starts_with("no match to play")).expect(&stderr);
    assert!(line.contains(&format!("x\\n{forged}\\ny")), "the name shown on its line: {stderr}");
    let stdout = String::from_utf8_lossy(&built.stdout);
    assert!(stdout.lines().any(|l| l.starts_with("mallory cannot play: ") && l.contains(forged)), "{stdout}");
    // The control.
    let record = std::fs::read_to_string(Path::new(&out).join("tournament.json")).unwrap();
    let record: Value = serde_json::from_str(&record).unwrap();
    let why = strings(&record).into_iter().find(|s| s.contains(forged)).expect("why mallory cannot play");
    assert!(why.lines().any(|l| l.starts_with(forged)), "shown as lines, a forged line: {why}");
}

/// A replay whose frame has a key holding a line break and a forged `OK` line: `arena verify`
/// says MISMATCH on one line, and `arena replay`'s error is one line too. The control: the
/// key, shown as lines (the display before: `terminal_lines` keeps line breaks), starts the
/// forged line.
#[test]
fn a_replay_s_keys_cannot_forge_a_line_of_verify() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let out = arena(&["duel", "--map", &map("fire.txt"), "--replay", &replay_arg, &bin("greedy"), &bin("greedy")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let forged = "OK r.json: 57 steps re-simulate to the recorded result (greedy 99, greedy 0)";
    let key = format!("x\n{forged}");
    let mut tampered: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    tampered["steps"][0]["frame"][&key] = 1.into();
    std::fs::write(&replay, serde_json::to_vec(&tampered).unwrap()).unwrap();
    let verified = arena(&["verify", &replay_arg]);
    let stdout = String::from_utf8_lossy(&verified.stdout);
    assert!(!verified.status.success());
    assert!(stdout.starts_with("MISMATCH") && stdout.lines().count() == 1, "{stdout}");
    let shown = arena(&["replay", &replay_arg]);
    let stderr = String::from_utf8_lossy(&shown.stderr);
    assert!(stderr.contains("does not re-simulate") && !stderr.lines().any(|l| l.starts_with(forged)), "{stderr}");
    // The control.
    assert!(key.lines().any(|l| l.starts_with(forged)));
}

/// What `verify` and `view --unverified` quote of a replay that does not re-simulate is cut:
/// a result's 5 MB name (`verify` printed a line of 5,000,100 bytes) and an LCR setup's
/// 10,000 players, whose frame's every chip was quoted. The control: the recorded value the
/// message quotes is the whole name, 5 MB.
#[test]
fn what_verify_quotes_of_a_replay_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let replay_arg = replay.display().to_string();
    let out = arena(&["duel", "--map", &map("fire.txt"), "--replay", &replay_arg, &bin("greedy"), &bin("greedy")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let name = "n".repeat(5_000_000);
    let mut tampered: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    tampered["result"]["players"][0]["name"] = name.clone().into();
    std::fs::write(&replay, serde_json::to_vec(&tampered).unwrap()).unwrap();
    let verified = arena(&["verify", &replay_arg]);
    let stdout = String::from_utf8_lossy(&verified.stdout);
    assert!(!verified.status.success());
    assert!(stdout.starts_with("MISMATCH") && stdout.lines().count() == 1, "{}", &stdout[..200]);
    assert!(stdout.len() < 1_000, "{} bytes", stdout.len());
    assert!(stdout.contains("result: `players[0].name` is recorded as \"nnnn"), "{stdout}");
    assert!(stdout.contains("… [4999802 more characters]"), "{stdout}");
    let page = dir.path().join("r.html").display().to_string();
    let viewed = arena(&["view", &replay_arg, "--unverified", "-o", &page]);
    let stderr = String::from_utf8_lossy(&viewed.stderr);
    assert!(viewed.status.success() && stderr.len() < 1_500, "{} bytes: {}", stderr.len(), &stderr[..300]);
    assert!(stderr.contains("more characters]") && stderr.contains("used anyway (--unverified)"), "{stderr}");
    // The control: the value differing is the whole name.
    assert_eq!(tampered["result"]["players"][0]["name"].as_str().map(str::len), Some(5_000_000));

    // An LCR replay whose setup says 10,000 players: its initial frame's chips differ.
    let lcr = dir.path().join("lcr.json");
    let lcr_arg = lcr.display().to_string();
    assert!(arena(&["duel", "--game", "lcr", "--players", "4", "--seed", "1", "--replay", &lcr_arg]).status.success());
    let mut tampered: Value = serde_json::from_slice(&std::fs::read(&lcr).unwrap()).unwrap();
    tampered["setup"]["players"] = 10_000.into();
    std::fs::write(&lcr, serde_json::to_vec(&tampered).unwrap()).unwrap();
    let verified = arena(&["verify", &lcr_arg]);
    let stdout = String::from_utf8_lossy(&verified.stdout);
    assert!(!verified.status.success() && stdout.starts_with("MISMATCH"), "{}", &stdout[..200.min(stdout.len())]);
    assert!(stdout.len() < 1_000 && stdout.contains("more characters]"), "{} bytes: {stdout}", stdout.len());
}

/// A config file named to clear the screen and reverse the text (as a file a student hands in
/// may be) with a syntax error on a line laid out with a tab: the top-level `error:` shows the
/// name's escape and override visibly, and keeps the message's lines and the tab. The control:
/// the name the error quotes holds the raw escape byte.
#[test]
fn a_file_name_in_a_top_level_error_is_shown_safely() {
    let dir = tempfile::tempdir().unwrap();
    let name = "le\u{1b}[2J\u{202e}ague.toml";
    std::fs::write(dir.path().join(name), "maps = [\"m.txt\"]\n[[bots]]\n\tname = \"a\n").unwrap();
    let run = arena_in(dir.path(), &["tournament", "--config", name]);
    assert!(!run.status.success());
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.starts_with("error: le\\e[2J\\u{202e}ague.toml: "), "{stderr}");
    assert!(!stderr.contains(['\u{1b}', '\u{202e}']), "{stderr:?}");
    assert!(stderr.lines().any(|l| l.ends_with("| \tname = \"a")), "the quoted line keeps its tab: {stderr:?}");
    assert!(stderr.lines().count() > 2, "the message keeps its lines: {stderr}");
    // The control.
    assert!(
        name.contains('\u{1b}') && stderr.contains(&name.replace('\u{1b}', "\\e").replace('\u{202e}', "\\u{202e}"))
    );
}

/// A shard's folder whose record was crafted so that a match key clears the screen and forges
/// a line: `arena merge` lists the key as missing on one line, its escape shown. The control:
/// the key as recorded holds the escape and starts the forged line.
#[test]
fn a_crafted_shard_s_match_keys_are_listed_safely_by_merge() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("s/mallory")).unwrap();
    let config = mallory_league(dir.path());
    let league = dir.path().join("league");
    let built = arena(&["build", "--config", &config.display().to_string(), "--out", &league.display().to_string()]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let forged = "the league is complete: 0 of 2 matches are missing";
    let key = format!("x\u{1b}[2J\n{forged}\u{202e}");
    let file = league.join("tournament.json");
    let mut record: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    record["schedule"][0]["key"] = key.clone().into();
    std::fs::write(&file, serde_json::to_vec(&record).unwrap()).unwrap();
    let merged = arena(&["merge", &dir.path().join("merged").display().to_string(), &league.display().to_string()]);
    assert_eq!(merged.status.code(), Some(2), "{}", String::from_utf8_lossy(&merged.stderr));
    let stderr = String::from_utf8(merged.stderr).unwrap();
    assert!(stderr.lines().any(|l| l == format!("  x\\e[2J\\n{forged}\\u{{202e}}")), "{stderr}");
    assert!(!stderr.contains(['\u{1b}', '\u{202e}']) && !stderr.lines().any(|l| l.starts_with(forged)), "{stderr:?}");
    // The control.
    assert!(key.contains('\u{1b}') && key.lines().any(|l| l.starts_with(forged)));
}

/// `DIR/league.toml`: greedy, and mallory (the waiter) in her folder `DIR/s/mallory`.
fn mallory_league(dir: &std::path::Path) -> std::path::PathBuf {
    let config = dir.join("league.toml");
    let text = format!(
        "maps = [{:?}]\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n[[bots]]\nname = \"mallory\"\ncommand = {:?}\ncwd = \"s/mallory\"\n",
        map("fire.txt"),
        bin("greedy"),
        bin("waiter")
    );
    std::fs::write(&config, text).unwrap();
    config
}
