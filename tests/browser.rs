//! The replay viewer and the tournament index in a real browser: headless Chromium, driven
//! over the DevTools protocol. The pages are opened from the file system (no server), stepped
//! to a given tick and checked against the replay JSON; a screenshot must not be blank; the
//! index page is clicked through to a replay. Without Chromium these tests fail: `.ci/run`
//! installs it.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arena_e2e::*;
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

struct Browser {
    child: Child,
    profile: tempfile::TempDir,
    ws: WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: Option<String>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Its helpers (renderer, GPU) end soon after it, writing in the profile meanwhile: removed
        // at once, the profile was often left behind, half removed, in the temporary folder.
        let profile = self.profile.path();
        let began = Instant::now();
        while std::fs::remove_dir_all(profile).is_err() && profile.exists() && began.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Browser {
    fn launch() -> Browser {
        let chromium = ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
            .unwrap_or_else(|| {
                panic!("Chromium is needed for the browser tests: `apt-get install chromium` (.ci/run installs it)")
            });
        let profile = tempfile::tempdir().unwrap();
        let mut command = Command::new(chromium);
        // Chromium dies with the test process even if that is killed (Drop does not run then).
        // SAFETY: prctl is async-signal-safe and touches only the child being set up.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,860",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            // Chromium makes scratch folders in TMPDIR and leaves them behind when killed: in
            // the profile, they go with it.
            .env("TMPDIR", profile.path())
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let browser_url =
            rx.recv_timeout(Duration::from_secs(30)).expect("Chromium did not start its DevTools endpoint");
        // One connection to the browser; a page target attached in flat mode, addressed by
        // its session id.
        let (ws, _) = tungstenite::connect(browser_url).unwrap();
        let mut b = Browser { child, profile, ws, next_id: 0, session: None };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }))["targetId"].clone();
        let session =
            b.call("Target.attachToTarget", json!({ "targetId": target, "flatten": true }))["sessionId"].clone();
        b.session = session.as_str().map(str::to_string);
        b.call("Page.enable", json!({}));
        b.call("Runtime.enable", json!({}));
        b
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        match self.try_call(method, params) {
            Ok(result) => result,
            Err(v) => panic!("{method}: {v}"),
        }
    }

    /// [`Browser::call`], giving back the protocol's error instead of failing on it.
    fn try_call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = &self.session {
            msg["sessionId"] = json!(session);
        }
        let msg = msg.to_string();
        self.ws.send(Message::Text(msg.into())).unwrap();
        loop {
            if let Message::Text(text) = self.ws.read().unwrap() {
                let v: Value = serde_json::from_str(text.as_str()).unwrap();
                if v["id"] == id {
                    return match v.get("error") {
                        None => Ok(v["result"].clone()),
                        Some(_) => Err(v),
                    };
                }
            }
        }
    }

    fn eval(&mut self, js: &str) -> Value {
        let r = self.call("Runtime.evaluate", json!({ "expression": js, "returnByValue": true }));
        assert!(r.get("exceptionDetails").is_none(), "{js}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `js` evaluates to true (errors while a page loads count as not yet: a script
    /// error, or the protocol's "Inspected target navigated or closed" when a click's navigation
    /// lands during the evaluation).
    fn wait_for(&mut self, js: &str) {
        let start = Instant::now();
        let expression = format!("(() => {{ try {{ return !!({js}); }} catch (e) {{ return false; }} }})()");
        let params = json!({ "expression": expression, "returnByValue": true });
        while self.try_call("Runtime.evaluate", params.clone()).map(|r| r["result"]["value"].clone()) != Ok(json!(true))
        {
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {js}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for(&format!("location.href === {url:?} && document.body && document.body.dataset.ready === '1'"));
    }

    fn text(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById({id:?}).textContent")).as_str().unwrap_or_default().to_string()
    }

    /// Distinct colours in a screenshot of the page (a blank page has one or two).
    fn screenshot_colours(&mut self) -> usize {
        use base64::Engine as _;
        let data = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let bytes = base64::engine::general_purpose::STANDARD.decode(data["data"].as_str().unwrap()).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let px = info.color_type.samples();
        let mut colours: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).step_by(7).collect();
        colours.sort();
        colours.dedup();
        colours.len()
    }
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

#[test]
fn a_duel_page_shows_each_tick_as_the_replay_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let (reference, greedy) = (bin("reference"), bin("greedy"));
    let (_, replay) = duel(dir.path(), "duel.txt", &[], [&reference, &greedy]);
    let out = arena(&["view", &replay.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = replay.with_extension("html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is loaded from anywhere (the SVG namespace URI is a name, not a
    // request).
    for reference in ["src=\"http", "href=\"http", "url(http", "@import", "fetch(", "XMLHttpRequest"] {
        assert!(!html.contains(reference), "self-contained: no network ({reference})");
    }
    assert!(!html.contains("<script src") && !html.contains("<link"), "script and styles are inlined");
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let steps = rep["steps"].as_array().unwrap();

    let mut b = Browser::launch();
    // Pick a tick where something was collected, and check what the page shows there.
    let k = steps.iter().position(|s| s["frame"]["events"].as_array().is_some_and(|e| !e.is_empty())).unwrap() + 1;
    b.open(&format!("{}#tick={k}", file_url(&page)));
    let frame = &steps[k - 1]["frame"];
    assert_eq!(b.text("tick"), k.to_string());
    for i in 0..2 {
        let p = &frame["players"][i];
        assert_eq!(b.text(&format!("score-{i}")), p["score"].to_string());
        assert_eq!(b.text(&format!("pos-{i}")), format!("{},{}", p["pos"][0], p["pos"][1]));
        assert_eq!(b.text(&format!("mult-{i}")), p["multiplier"].to_string());
    }
    let event = &frame["events"][0];
    let events = b.text("events");
    assert!(events.contains(&format!("at ({},{})", event["cell"][0], event["cell"][1])), "{events} vs {event}");
    // The board draws both players where the frame puts them.
    for i in 0..2 {
        let p = &frame["players"][i];
        let here = b.eval(&format!(
            "document.querySelector('.cell[data-x=\"{}\"][data-y=\"{}\"] .token.p{i}') !== null",
            p["pos"][0], p["pos"][1]
        ));
        assert_eq!(here, json!(true), "player {i} drawn at {}", p["pos"]);
    }
    // Step forward with the button and with the keyboard.
    b.eval("document.getElementById('next').click()");
    assert_eq!(b.text("tick"), (k + 1).to_string());
    assert_eq!(b.text("score-0"), steps[k]["frame"]["players"][0]["score"].to_string());
    b.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "End", "code": "End", "windowsVirtualKeyCode": 35}),
    );
    assert_eq!(b.text("tick"), steps.len().to_string());
    assert_eq!(b.text("score-0"), rep["result"]["players"][0]["score"].to_string());
    assert!(b.screenshot_colours() > 20, "the screenshot is not blank");
}

/// A tournament in `dir/t` from a TOML config body (bots and all); returns the folder.
fn league(dir: &Path, config: &str) -> std::path::PathBuf {
    let out = dir.join("t");
    let cfg = dir.join("t.toml");
    std::fs::write(&cfg, config).unwrap();
    let run = arena(&["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    out
}

/// A config of `bots` (name, command) on `maps`, in TOML.
fn league_config(maps: &[&str], bots: &[(&str, String)]) -> String {
    let maps: Vec<String> = maps.iter().map(|m| format!("{:?}", map(m))).collect();
    let mut text = format!("seed = 3\nmaps = [{}]\n", maps.join(", "));
    for (name, command) in bots {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    text
}

/// The matches of `bot` in `leaderboard.json` against exactly `opponent` (all with `None`).
fn matches_of<'a>(board: &'a Value, bot: &str, opponent: Option<&str>) -> Vec<&'a Value> {
    let row = board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == bot).unwrap();
    row["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| opponent.is_none_or(|o| m["opponents"] == json!([o])))
        .collect()
}

/// A replay's page as a bot page links it: `…/replays/<key>.html` (without `#tick=`).
fn page_of(replay: &str) -> String {
    format!("{}.html", replay.trim_end_matches(".gz").trim_end_matches(".json"))
}

/// The replay pages linked from the rows a bot page shows.
fn shown_replays(b: &mut Browser) -> Vec<String> {
    let hrefs = b.eval(
        "Array.from(document.querySelectorAll('#matches tbody tr')).filter(r => !r.hidden).map(r => r.querySelector('a.replay-link').getAttribute('href'))",
    );
    let mut out: Vec<String> = hrefs
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().split('#').next().unwrap().trim_start_matches("../").to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn the_league_index_cross_table_and_bot_pages_agree_with_leaderboard_json() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        ("greedy", bin("greedy")),
        ("waiter", bin("waiter")),
        ("random", bin("random")),
        ("crasher", script("quitter.sh")),
    ];
    let mut config = league_config(&["fire.txt", "jump.txt"], &bots);
    config.push_str(
        "[[bots]]\nname = \"broken\"\ncommand = \"./nope\"\nbuild = \"echo 'main.c:3: error' >&2; exit 2\"\n",
    );
    let out = league(dir.path(), &config);
    let board: Value = serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    let rows = board["rows"].as_array().unwrap();

    let mut b = Browser::launch();
    b.open(&file_url(&out.join("index.html")));
    // The rating chart: one mark per bot, in rank order, left to right.
    let marks = b.eval(
        "Array.from(document.querySelectorAll('#ratingchart .mark')).map(g => [g.dataset.bot, +g.dataset.rank, g.getBBox().x])",
    );
    let marks = marks.as_array().unwrap();
    assert_eq!(marks.len(), rows.len(), "one mark per bot");
    for (k, (m, r)) in marks.iter().zip(rows).enumerate() {
        assert_eq!((&m[0], &m[1]), (&r["bot"], &r["rank"]), "mark {k} is rank {}", k + 1);
        if k > 0 {
            assert!(m[2].as_f64() > marks[k - 1][2].as_f64(), "rank order runs left to right");
        }
    }
    // The bot that could not be built is marked, with why.
    let failed = b.eval("document.getElementById('failed').textContent");
    assert!(
        failed.as_str().unwrap().contains("broken") && failed.as_str().unwrap().contains("main.c:3: error"),
        "{failed}"
    );
    assert_eq!(b.eval("document.querySelector('.vrow.failedrow').dataset.bot"), json!("broken"));
    assert_eq!(b.eval("document.querySelector('#ratingchart .mark.failed').dataset.bot"), json!("broken"));
    // Each bot's version, average and rating read as in leaderboard.json and leaderboard.md (the
    // terminal's table): one rounding, the arena's; `-` for the bot that never played (it has no
    // rating).
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    for r in rows {
        let bot = r["bot"].as_str().unwrap();
        let line = md.lines().find(|l| l.contains(&format!("| [{bot}](#{bot}) |"))).unwrap();
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let (avg, rating) = (cells[8], cells[cells.len() - 1]);
        let version = r["version"].as_str().unwrap_or("-");
        let shown = b.eval(&format!(
            "(() => {{ const r = document.querySelector('.vbody .vrow[data-bot=\"{bot}\"]'); return [r.children[2].textContent, r.children[8].textContent, r.children[10].textContent]; }})()"
        ));
        assert_eq!(shown, json!([version, avg, rating]), "{bot}: {line}");
        if bot == "broken" {
            assert_eq!(rating, "-");
        }
    }

    // The cross-table cell greedy vs waiter: the points and wins of leaderboard.json.
    let (a, o) = ("greedy", "waiter");
    let mine = matches_of(&board, a, Some(o));
    let theirs = matches_of(&board, o, Some(a));
    let points = |ms: &[&Value]| ms.iter().map(|m| m["score"].as_i64().unwrap()).sum::<i64>();
    let count = |what: &str| mine.iter().filter(|m| m["outcome"] == what).count();
    let cell = format!("#cross a.xc[data-a=\"{a}\"][data-b=\"{o}\"]");
    assert_eq!(
        b.eval(&format!("document.querySelector('{cell} .pts').textContent")),
        json!(format!("{}–{}", points(&mine), points(&theirs)))
    );
    assert_eq!(
        b.eval(&format!("document.querySelector('{cell} .wdl').textContent")),
        json!(format!("{}-{}-{}", count("win"), count("draw"), count("loss")))
    );
    // Its link opens greedy's page showing exactly those matches, linking their replays.
    let href = b.eval(&format!("document.querySelector('{cell}').href"));
    b.eval(&format!("document.querySelector('{cell}').click()"));
    b.wait_for(&format!("location.href === {href} && document.body.dataset.ready === '1'"));
    let mut expected: Vec<String> = mine.iter().map(|m| page_of(m["replay"].as_str().unwrap())).collect();
    expected.sort();
    assert_eq!(shown_replays(&mut b), expected);
    assert_eq!(b.eval("document.body.dataset.shown"), json!(mine.len().to_string()));
    // Every match of the bot is on its page.
    b.open(&file_url(&out.join("bots/greedy.html")));
    let mut all: Vec<String> =
        matches_of(&board, a, None).iter().map(|m| page_of(m["replay"].as_str().unwrap())).collect();
    all.sort();
    assert_eq!(all.len(), 2 * 2 * 3, "two maps, both sides, three opponents");
    assert_eq!(shown_replays(&mut b), all);
    for page in &all {
        assert!(out.join(page).is_file(), "{page} exists");
    }

    // Per-map standings: the map filter shows each bot's total on that map.
    b.open(&file_url(&out.join("index.html")));
    // (A map is shown by its file name, not the path the config gave: see standings::maps.)
    let jump = "jump.txt";
    b.eval(&format!(
        "(() => {{ const s = document.getElementById('map'); s.value = String(Array.from(s.options).findIndex(o => o.textContent === {jump:?}) - 1); s.dispatchEvent(new Event('change')); }})()"
    ));
    assert_eq!(b.text("standings-title"), format!("Standings on {jump}"));
    let on_jump: i64 =
        matches_of(&board, a, None).iter().filter(|m| m["map"] == jump).map(|m| m["score"].as_i64().unwrap()).sum();
    assert_eq!(
        b.eval("document.querySelector('.vbody .vrow[data-bot=\"greedy\"] .td:nth-child(4)').textContent"),
        json!(on_jump.to_string())
    );
    // Filters: a name, a forfeit reason, bots that could not play.
    b.eval(
        "(() => { const q = document.getElementById('q'); q.value = 'wait'; q.dispatchEvent(new Event('input')); })()",
    );
    assert_eq!(
        b.eval("Array.from(document.querySelectorAll('.vbody .vrow')).map(r => r.dataset.bot)"),
        json!(["waiter"])
    );
    b.eval("(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); const r = document.getElementById('reason'); r.value = 'crash'; r.dispatchEvent(new Event('change')); })()");
    assert_eq!(
        b.eval("Array.from(document.querySelectorAll('.vbody .vrow')).map(r => r.dataset.bot)"),
        json!(["crasher"])
    );
    b.eval("(() => { const r = document.getElementById('reason'); r.value = '__failed'; r.dispatchEvent(new Event('change')); })()");
    assert_eq!(
        b.eval("Array.from(document.querySelectorAll('.vbody .vrow')).map(r => r.dataset.bot)"),
        json!(["broken"])
    );
}

/// The index's standings on a map follow the game's ranking: Tactics ranks by wins first, so a
/// bot with three narrow wins stands above one with two big ones, on the map as on the
/// leaderboard (the map's standings sorted by total score put the big winner first).
#[test]
fn a_tactics_leagues_standings_on_a_map_rank_by_wins_first() {
    let dir = tempfile::tempdir().unwrap();
    let tactics = root().join("maps/tactics/config_01.txt").display().to_string();
    let mut config = format!("game = \"tactics\"\nseed = 3\nmaps = [{tactics:?}]\n");
    for (name, command) in [
        ("narrow", script("tactics-passer.sh")),
        ("big", format!("{} {}", script("tactics-a-only.sh"), bin("tactics-greedy"))),
        ("quits", script("tactics-quitter.sh")),
    ] {
        config.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    let out = league(dir.path(), &config);
    let board: Value = serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    let row = |bot: &str| board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == bot).unwrap().clone();
    let (narrow, big) = (row("narrow"), row("big"));
    assert!(narrow["wins"].as_u64() > big["wins"].as_u64(), "{board}");
    assert!(narrow["total_score"].as_i64() < big["total_score"].as_i64(), "the orders differ: {board}");
    let order: Vec<&str> = board["rows"].as_array().unwrap().iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert_eq!(order, ["narrow", "big", "quits"]);

    let mut b = Browser::launch();
    b.open(&file_url(&out.join("index.html")));
    b.eval(
        "(() => { const s = document.getElementById('map'); s.value = '0'; s.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(b.text("standings-title"), "Standings on config_01.txt");
    assert_eq!(b.eval("Array.from(document.querySelectorAll('.vbody .vrow')).map(r => r.dataset.bot)"), json!(order));
}

/// Bots level on every key of a map's standings share a rank on the index's view of the map
/// (1, 2, 2, 4, ties listed by name), as on the leaderboard and their bot pages; the index said
/// 2 and 3 there.
#[test]
fn bots_tied_on_a_map_share_a_rank_on_the_index_as_on_their_pages() {
    let dir = tempfile::tempdir().unwrap();
    // Two copies of one idle bot: each draws the other, loses to greedy, beats the quitter.
    let bots = [
        ("greedy", bin("greedy")),
        ("idle-a", bin("waiter")),
        ("idle-b", bin("waiter")),
        ("quits", script("quitter.sh")),
    ];
    let out = league(dir.path(), &league_config(&["duel.txt"], &bots));
    let board: Value = serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    let ranks: Vec<(&str, u64)> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["bot"].as_str().unwrap(), r["rank"].as_u64().unwrap()))
        .collect();
    assert_eq!(ranks, [("greedy", 1), ("idle-a", 2), ("idle-b", 2), ("quits", 4)], "{board}");
    for bot in ["idle-a", "idle-b"] {
        let page = std::fs::read_to_string(out.join("bots").join(format!("{bot}.html"))).unwrap();
        assert!(page.contains("<td>2 of 4</td>"), "{bot}'s rank on the map: {page}");
    }

    let mut b = Browser::launch();
    b.open(&file_url(&out.join("index.html")));
    let shown = "Array.from(document.querySelectorAll('.vbody .vrow')).map(r => [r.dataset.bot, r.querySelector('.td').textContent])";
    let expected = json!([["greedy", "1"], ["idle-a", "2"], ["idle-b", "2"], ["quits", "4"]]);
    assert_eq!(b.eval(shown), expected, "the leaderboard");
    b.eval(
        "(() => { const s = document.getElementById('map'); s.value = '0'; s.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(b.text("standings-title"), "Standings on duel.txt");
    assert_eq!(b.eval(shown), expected, "the standings on the map");
}

#[test]
fn from_the_index_two_clicks_reach_why_a_bot_lost_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [("greedy", bin("greedy")), ("mine", script("midquit.sh")), ("waiter", bin("waiter"))];
    let out = league(dir.path(), &league_config(&["fire.txt"], &bots));
    let mut b = Browser::launch();
    b.open(&file_url(&out.join("index.html")));
    // Click 1: my bot's name in the leaderboard.
    b.eval("document.querySelector('.vbody .vrow[data-bot=\"mine\"] .name a').click()");
    b.wait_for("location.href.endsWith('/bots/mine.html') && document.body.dataset.ready === '1'");
    let why = b.eval("document.querySelector('.forfeits li').textContent");
    // (How it ended, from its wait status: `midquit.sh` exits cleanly in mid-game.)
    assert!(why.as_str().unwrap().contains("your bot exited with status 0 (no error"), "{why}");
    // Click 2: "watch" on a lost match: the replay opens at the tick where it forfeited, saying why.
    let href = b.eval("document.querySelector('#matches tr.loss a.replay-link').href");
    let tick: usize = href.as_str().unwrap().rsplit("#tick=").next().unwrap().parse().unwrap();
    b.eval("document.querySelector('#matches tr.loss a.replay-link').click()");
    b.wait_for(&format!("location.href === {href} && document.body.dataset.ready === '1'"));
    assert_eq!(b.text("tick"), tick.to_string());
    let header = b.eval("document.querySelector('header .why').textContent");
    assert!(
        header.as_str().unwrap().starts_with(&format!("At tick {tick} mine exited with status 0 (no error")),
        "{header}"
    );
    assert!(b.text("events").contains("mine forfeits: crash"), "{}", b.text("events"));
    assert!(b.screenshot_colours() > 20);
}

#[test]
fn a_300_bot_league_index_opens_in_under_a_second_of_script_and_scrolls() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("league");
    let run =
        Command::new(bin("pages-bench")).args(["--bots", "300", "--out", &out.display().to_string()]).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let mut b = Browser::launch();
    b.call("Performance.enable", json!({}));
    let metric = |b: &mut Browser, name: &str| {
        let m = b.call("Performance.getMetrics", json!({}));
        m["metrics"].as_array().unwrap().iter().find(|v| v["name"] == name).unwrap()["value"].as_f64().unwrap()
    };
    let before = metric(&mut b, "ScriptDuration");
    b.open(&file_url(&out.join("index.html")));
    let load = metric(&mut b, "ScriptDuration") - before;
    let nodes = b.eval("document.getElementsByTagName('*').length").as_u64().unwrap();
    // Scroll the leaderboard and the cross-table to their far ends: what comes into view is drawn.
    b.eval("(() => { const t = document.getElementById('board'); t.scrollTop = t.scrollHeight; const c = document.getElementById('cross'); c.scrollTop = c.scrollHeight; c.scrollLeft = c.scrollWidth; })()");
    b.wait_for("document.querySelector('.vbody .vrow[data-bot=\"bot-299\"]') !== null");
    b.wait_for("Array.from(document.querySelectorAll('#cross .rowhead')).some(h => h.title === 'bot-299')");
    let last = b.eval("document.querySelectorAll('#cross .xc').length");
    let total = metric(&mut b, "ScriptDuration") - before;
    let after = b.eval("document.getElementsByTagName('*').length").as_u64().unwrap();
    eprintln!(
        "300 bots: script {:.0} ms to open, {:.0} ms with both scrolls; {nodes} elements on load, {after} after scrolling; {last} cross-table cells drawn",
        load * 1000.0,
        total * 1000.0
    );
    assert!(load < 1.0, "the page took {load:.2} s of script to open");
    assert!(nodes < 5000 && after < 5000, "only the visible part is drawn: {nodes}, {after} elements");
}

#[test]
fn bot_text_shows_literally_in_the_pages() {
    // Names and answers with markup, a script end tag, terminal escapes and a right-to-left
    // override: the pages' DOM holds them as text, the controls and the override shown as
    // escapes (which would otherwise reorder the page's own text), and nothing of them runs
    // or becomes an element.
    let dir = tempfile::tempdir().unwrap();
    let hostile = |mode: &str| format!("{} {mode}", script("hostile.sh"));
    let name = "<img src=x onerror=\"document.title='pwned'\">`x`|\u{1b}[2J\u{202e}";
    let toml_name = "<img src=x onerror=\\\"document.title='pwned'\\\">`x`|\\u001b[2J\\u202e";
    let shown = "<img src=x onerror=\"document.title='pwned'\">`x`|\\e[2J\\u{202e}";
    let config = format!(
        "maps = [{:?}]\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n[[bots]]\nname = \"{toml_name}\"\ncommand = {:?}\n[[bots]]\nname = \"markup\"\ncommand = {:?}\n",
        map("fire.txt"),
        bin("greedy"),
        hostile("escapes"),
        hostile("html")
    );
    let out = league(dir.path(), &config);
    let board: Value = serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    assert!(board["rows"].as_array().unwrap().iter().any(|r| r["bot"] == name));
    let mut b = Browser::launch();
    let injected = "document.querySelectorAll('img, script:not([src]):not([type]), b.bold').length";

    b.open(&file_url(&out.join("index.html")));
    assert!(b.eval("document.title").as_str().unwrap().starts_with("Leaderboard"));
    assert_eq!(b.eval(injected), json!(0));
    let names = b.eval("Array.from(document.querySelectorAll('.vbody .vrow .name a')).map(a => a.textContent)");
    assert!(names.as_array().unwrap().contains(&json!(shown)), "{names}");
    let in_cross =
        format!("Array.from(document.querySelectorAll('#cross a.xc')).some(a => a.dataset.a === {})", json!(shown));
    assert_eq!(b.eval(&in_cross), json!(true));

    // Its page and the markup bot's page quote the answers as text.
    b.open(&file_url(&out.join("bots/markup.html")));
    assert_eq!(b.eval(injected), json!(0));
    let why = b.eval("document.querySelector('.forfeits li').textContent");
    assert!(
        why.as_str()
            .unwrap()
            .contains("found `<img src=x onerror=\"document.title=1\"></script><b>bold</b> `tick` *x*`"),
        "{why}"
    );
    assert_eq!(b.eval("document.title"), json!("markup"));

    // The replay page: the answer exactly as sent, its name as text, the title untouched.
    let replay = b.eval("document.querySelector('#matches a.replay-link').href");
    b.call("Page.navigate", json!({ "url": replay }));
    b.wait_for("document.body.dataset.ready === '1'");
    b.eval("document.getElementById('first').click(); document.getElementById('next').click()");
    assert!(
        b.text("answers").contains("markup: <img src=x onerror=\"document.title=1\"></script><b>bold</b> `tick` *x*"),
        "{}",
        b.text("answers")
    );
    assert_eq!(b.eval(injected), json!(0));
    // No handler rewrote the title: it is still the page's own, names as text.
    let titles = b.eval("[document.title, document.getElementById('title').textContent]");
    assert_eq!(titles[0], titles[1]);
    assert!(titles[0].as_str().unwrap().starts_with("resource-rush: "), "{titles}");
    let escapes =
        board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == name).unwrap()["matches"][0]["replay"].clone();
    b.open(&format!("{}#tick=1", file_url(&out.join(page_of(escapes.as_str().unwrap())))));
    assert!(b.text("answers").contains("\\e[2J\\e]0;owned\\a\\e[31m WAIT"), "{}", b.text("answers"));
    assert!(b.text("title").contains(shown), "{}", b.text("title"));
    assert_eq!(b.eval(injected), json!(0));
}

#[test]
fn an_lcr_replay_page_shows_the_chips() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("lcr.json");
    let out =
        arena(&["duel", "--game", "lcr", "--players", "4", "--seed", "2", "--replay", &replay.display().to_string()]);
    assert!(out.status.success());
    assert!(arena(&["view", &replay.display().to_string()]).status.success());
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    // A step's frame records only the chips its die moved (`changed`): the chips at tick 5 are
    // the initial ones with the changes of steps 1 to 5.
    let mut chips = rep["initial"]["chips"].as_array().unwrap().clone();
    for step in &rep["steps"].as_array().unwrap()[..5] {
        assert!(step["frame"].get("chips").is_none(), "{step}");
        for change in step["frame"]["changed"].as_array().unwrap() {
            chips[change[0].as_u64().unwrap() as usize] = change[1].clone();
        }
    }
    let mut b = Browser::launch();
    // Tick 9 first, then back to 5: a step back applies the changes again from tick 0.
    b.open(&format!("{}#tick=9", file_url(&replay.with_extension("html"))));
    b.eval("location.hash = 'tick=5'");
    b.wait_for("document.getElementById('tick').textContent === '5'");
    for (i, k) in chips.iter().enumerate() {
        assert_eq!(b.text(&format!("chips-{i}")), k.to_string());
    }
    assert_eq!(b.text("center"), rep["steps"][4]["frame"]["center"].to_string());
    // A replay recorded before, with every player's chips in every frame, still shows them.
    let old = root().join("arena/tests/replays-v1/lcr.json");
    let old_page = dir.path().join("old.html");
    let out = arena(&["view", &old.display().to_string(), "-o", &old_page.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rep: Value = serde_json::from_slice(&std::fs::read(&old).unwrap()).unwrap();
    b.open(&format!("{}#tick=30", file_url(&old_page)));
    for i in 0..4 {
        assert_eq!(b.text(&format!("chips-{i}")), rep["steps"][29]["frame"]["chips"][i].to_string());
    }
}

#[test]
fn an_atoms_replay_page_shows_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("atoms.json");
    let replay_arg = replay.display().to_string();
    let out = atoms_duel(2, "5x5", 1, &replay, &[]);
    assert!(out.status.success());
    assert!(arena(&["view", &replay_arg]).status.success());
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let k = rep["steps"].as_array().unwrap().len().min(6);
    let mut b = Browser::launch();
    b.open(&format!("{}#tick={k}", file_url(&replay.with_extension("html"))));
    // A step's frame records the cells its move changed: the page builds each board from the
    // initial one, going on and back (to an earlier step it starts again from the initial board).
    let cells = "Array.from(document.querySelectorAll('#board .cell')).map(c => c.textContent || '.').join('')";
    for t in [k, 2, k - 1, 0, k] {
        b.eval(&format!("location.hash = '#tick={t}'"));
        b.wait_for(&format!("document.getElementById('tick').textContent === '{t}'"));
        let expected: String = atoms_board(&rep, t)
            .iter()
            .flat_map(|r| {
                r.split(' ').map(|t| if t == ".." { ".".to_string() } else { t[1..].to_string() }).collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(b.eval(cells), json!(expected), "step {t}");
    }
    assert_ne!(atoms_board(&rep, k), atoms_board(&rep, 2), "the steps shown differ");
}

/// A replay shown with `--unverified` whose setup gives a board or a player count no game has
/// (10^10 fields, 10^8 players) is refused by the page with a message, not built cell by cell
/// (which would hang the tab). The control: the same replay as recorded shows its board.
#[test]
fn an_unverified_replay_with_a_board_no_game_has_is_refused_by_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("atoms.json");
    let replay_arg = replay.display().to_string();
    let out = atoms_duel(2, "3x3", 1, &replay, &[]);
    assert!(out.status.success());
    let mut b = Browser::launch();
    assert!(arena(&["view", &replay_arg]).status.success());
    b.open(&file_url(&replay.with_extension("html")));
    b.wait_for("document.querySelectorAll('#board .cell').length === 9");
    let mut rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    for (setup, why) in [
        (json!({"width": 100000, "height": 100000, "players": 2}), "its board is 100000 x 100000 fields"),
        (json!({"width": 3, "height": 3, "players": 100000000}), "it has 100000000 players"),
    ] {
        rep["setup"] = setup;
        let forged = dir.path().join("forged.json");
        std::fs::write(&forged, serde_json::to_vec(&rep).unwrap()).unwrap();
        let forged_arg = forged.display().to_string();
        assert!(!arena(&["view", &forged_arg]).status.success(), "refused without --unverified");
        assert!(arena(&["view", "--unverified", &forged_arg]).status.success());
        let url = file_url(&forged.with_extension("html"));
        b.call("Page.navigate", json!({ "url": url }));
        b.wait_for(&format!("location.href === {url:?} && document.querySelector('p.error') !== null"));
        let said = b.eval("document.querySelector('p.error').textContent");
        assert!(said.as_str().is_some_and(|t| t.contains(why)), "{said}");
        let built = b
            .eval("document.querySelectorAll('#board .cell').length + document.querySelectorAll('#players tr').length");
        assert!(built.as_u64().is_some_and(|n| n <= 9), "nothing built by the forged size: {built}");
    }
}

#[test]
fn a_tactics_replay_page_shows_fields_water_and_chips() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("tactics.json");
    let replay_arg = replay.display().to_string();
    let config = root().join("maps/tactics/config_02.txt").display().to_string();
    let (greedy, random) = (bin("tactics-greedy"), bin("tactics-random"));
    let args =
        ["duel", "--game", "tactics", "--map", &config, "--seed", "2", "--replay", &replay_arg, &greedy, &random];
    assert!(arena(&args).status.success());
    assert!(arena(&["view", &replay_arg]).status.success());
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let k = rep["steps"].as_array().unwrap().len().min(9);
    let frame = &rep["steps"][k - 1]["frame"];
    let mut b = Browser::launch();
    b.open(&format!("{}#tick={k}", file_url(&replay.with_extension("html"))));
    let shown = b.eval(
        "Array.from(document.querySelectorAll('#board .cell')).map(c => c.classList.contains('water') ? '~' : (c.textContent || '.')).join('')",
    );
    let expected: String = frame["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_str()
                .unwrap()
                .split(' ')
                .map(|t| match t {
                    ".." => ".".to_string(),
                    "~~" => "~".to_string(),
                    _ => t[1..].to_string(),
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(shown, json!(expected));
    let status = b.text("status-0");
    assert!(status.starts_with(&format!("{} fields, {} chips", frame["fields"][0], frame["chips"][0])), "{status}");
}
