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
    _profile: tempfile::TempDir,
    ws: WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: Option<String>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        let mut b = Browser { child, _profile: profile, ws, next_id: 0, session: None };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }))["targetId"].clone();
        let session =
            b.call("Target.attachToTarget", json!({ "targetId": target, "flatten": true }))["sessionId"].clone();
        b.session = session.as_str().map(str::to_string);
        b.call("Page.enable", json!({}));
        b.call("Runtime.enable", json!({}));
        b
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
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
                    assert!(v.get("error").is_none(), "{method}: {v}");
                    return v["result"].clone();
                }
            }
        }
    }

    fn eval(&mut self, js: &str) -> Value {
        let r = self.call("Runtime.evaluate", json!({ "expression": js, "returnByValue": true }));
        assert!(r.get("exceptionDetails").is_none(), "{js}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `js` evaluates to true (errors while a page loads count as not yet).
    fn wait_for(&mut self, js: &str) {
        let start = Instant::now();
        let expression = format!("(() => {{ try {{ return !!({js}); }} catch (e) {{ return false; }} }})()");
        while self.call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }))["result"]
            ["value"]
            != json!(true)
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
    assert!(!html.contains("http://") && !html.contains("https://"), "self-contained: no network");
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

#[test]
fn the_tournament_index_sorts_and_clicks_through_to_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let cfg = dir.path().join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "maps = [{:?}]\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n[[bots]]\nname = \"waiter\"\ncommand = {:?}\n[[bots]]\nname = \"random\"\ncommand = {:?}\n",
            map("fire.txt"),
            bin("greedy"),
            bin("waiter"),
            bin("random")
        ),
    )
    .unwrap();
    let run = arena(&["tournament", "--config", &cfg.display().to_string(), "--out", &out.display().to_string()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let index = out.join("index.html");
    assert!(index.exists(), "every tournament folder gets index.html");

    let mut b = Browser::launch();
    let url = file_url(&index);
    b.call("Page.navigate", json!({ "url": url }));
    b.wait_for("document.readyState === 'complete' && document.querySelectorAll('tr.row').length === 3");
    assert_eq!(b.eval("document.querySelector('tr.row').dataset.bot"), json!("greedy"), "ranked first");
    // Sort by bot name, then open greedy's matches and click its first replay.
    b.eval("document.querySelectorAll('#board th')[1].click()");
    let order = b.eval("Array.from(document.querySelectorAll('tr.row')).map(r => r.dataset.bot).join(',')");
    assert!(order == json!("waiter,random,greedy") || order == json!("greedy,random,waiter"), "{order}");
    b.eval("document.querySelector('tr.row[data-bot=\"greedy\"]').click()");
    assert_eq!(b.eval("document.querySelector('tr.row[data-bot=\"greedy\"]').nextElementSibling.hidden"), json!(false));
    let href = b.eval(
        "document.querySelector('tr.row[data-bot=\"greedy\"]').nextElementSibling.querySelector('a.replay-link').href",
    );
    b.eval("document.querySelector('tr.row[data-bot=\"greedy\"]').nextElementSibling.querySelector('a.replay-link').click()");
    b.wait_for(&format!("location.href === {href} && document.body.dataset.ready === '1'"));
    assert!(b.text("title").contains("greedy"), "the replay page of a greedy match");
    assert!(b.screenshot_colours() > 20);
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
    let mut b = Browser::launch();
    b.open(&format!("{}#tick=5", file_url(&replay.with_extension("html"))));
    let frame = &rep["steps"][4]["frame"];
    for i in 0..4 {
        assert_eq!(b.text(&format!("chips-{i}")), frame["chips"][i].to_string());
    }
    assert_eq!(b.text("center"), frame["center"].to_string());
}

#[test]
fn an_atoms_replay_page_shows_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("atoms.json");
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let replay_arg = replay.display().to_string();
    let out = arena(&[
        "duel",
        "--game",
        "atoms",
        "--players",
        "2",
        "--size",
        "5x5",
        "--seed",
        "1",
        "--replay",
        &replay_arg,
        &greedy,
        &random,
    ]);
    assert!(out.status.success());
    assert!(arena(&["view", &replay_arg]).status.success());
    let rep: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let k = rep["steps"].as_array().unwrap().len().min(6);
    let mut b = Browser::launch();
    b.open(&format!("{}#tick={k}", file_url(&replay.with_extension("html"))));
    let rows = rep["steps"][k - 1]["frame"]["board"].as_array().unwrap();
    let shown = b.eval("Array.from(document.querySelectorAll('#board .cell')).map(c => c.textContent || '.').join('')");
    let expected: String = rows
        .iter()
        .flat_map(|r| {
            r.as_str()
                .unwrap()
                .split(' ')
                .map(|t| if t == ".." { ".".to_string() } else { t[1..].to_string() })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(shown, json!(expected));
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
