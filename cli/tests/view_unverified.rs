//! `arena view --unverified` and `arena export-save --unverified`: a replay that fails
//! verification is refused without the flag, and used with it, under a warning on stderr and,
//! on the page, a banner saying it failed and why, with the replay's text in it escaped.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

/// Runs `arena ARGS` in `dir`.
fn arena(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_arena")).args(args).current_dir(dir).output().expect("run arena")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A genuine Atoms replay at `dir/genuine.json`: the built-in greedy bot against itself.
fn genuine(dir: &Path) -> Value {
    let bot = format!("{} bot atoms-greedy", env!("CARGO_BIN_EXE_arena"));
    let args = ["duel", "--game", "atoms", "--size", "4x4", "--seed", "5", "--replay", "genuine.json", &bot, &bot];
    let out = arena(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&std::fs::read(dir.join("genuine.json")).unwrap()).unwrap()
}

/// The mark of the banner, and what a script of the replay's text would be unescaped.
const BANNER: &str = "NOT VERIFIED: this replay failed verification";
const HOSTILE: &str = "</div><script>alert(1)</script>";

#[test]
fn view_shows_a_replay_that_fails_verification_only_when_asked_under_a_banner() {
    let dir = tempfile::tempdir().unwrap();
    let mut tampered = genuine(dir.path());
    // A key of the replay's own, hostile HTML: verification names it in its reason.
    tampered["steps"][0]["frame"][HOSTILE] = 1.into();
    std::fs::write(dir.path().join("t.json"), serde_json::to_vec(&tampered).unwrap()).unwrap();
    let page = dir.path().join("t.html");

    // The control: without the flag, refused with the reason, and no page.
    let out = arena(dir.path(), &["view", "t.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("t.json: the replay does not re-simulate: step 1: "), "{}", stderr(&out));
    assert!(!page.exists());

    // With it: the page, a warning on stderr, the banner with the reason escaped.
    let out = arena(dir.path(), &["view", "--unverified", "t.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let warning = stderr(&out);
    assert!(warning.starts_with("warning: t.json: the replay does not re-simulate: step 1: "), "{warning}");
    assert!(warning.contains("used anyway (--unverified)"), "{warning}");
    // (The control of the escaping: the reason holds the hostile text as it is.)
    assert!(warning.contains(HOSTILE), "{warning}");
    let html = std::fs::read_to_string(&page).unwrap();
    let banner = html.split_once(BANNER).map(|(_, rest)| rest).expect("the banner");
    let banner = banner.split_once("</div>").map_or(banner, |(b, _)| b);
    assert!(
        banner.contains("Why: step 1: `&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;` is recorded as 1"),
        "{banner}"
    );
    assert!(!html.contains("<script>alert(1)"), "the replay's text is never HTML");
    assert!(html.find(BANNER) < html.find("<header>"), "the banner comes first");

    // The genuine replay's page has no banner, and no warning is said.
    let out = arena(dir.path(), &["view", "--unverified", "genuine.json"]);
    assert!(out.status.success() && stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(!std::fs::read_to_string(dir.path().join("genuine.html")).unwrap().contains(BANNER));
}

#[test]
fn export_save_writes_a_replay_that_fails_verification_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let genuine = genuine(dir.path());
    let write = |name: &str, replay: &Value| std::fs::write(dir.path().join(name), serde_json::to_vec(replay).unwrap());
    let mut score = genuine.clone();
    score["result"]["players"][0]["score"] = 99.into();
    write("score.json", &score).unwrap();

    // The control: refused without the flag, no file.
    let out = arena(dir.path(), &["export-save", "score.json", "a.sav"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("`players[0].score` is recorded as 99"), "{}", stderr(&out));
    assert!(!dir.path().join("a.sav").exists());

    // With it: a warning, and the save of the recorded moves, which loads.
    let out = arena(dir.path(), &["export-save", "--unverified", "score.json", "a.sav"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("warning: score.json: the replay does not re-simulate: result: "));
    let out = arena(dir.path(), &["export-save", "genuine.json", "b.sav"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.path().join("a.sav")).unwrap(), std::fs::read(dir.path().join("b.sav")).unwrap());

    // Recorded values no game has are refused, with where and what, even with the flag: no
    // file (a width of 300 was written as 44, a missing one as 0).
    let mut wide = genuine.clone();
    wide["setup"]["width"] = 300.into();
    let mut missing = genuine.clone();
    missing["setup"].as_object_mut().unwrap().remove("height");
    let mut off = genuine.clone();
    off["steps"][1]["frame"]["last"]["place"] = serde_json::json!([9, 0]);
    for (replay, why) in [
        (wide, "the replay's setup: a 300x4 board does not fit"),
        (missing, "the replay's setup: `height` is missing"),
        (off, "its placements are no game: move 2 (bytes 8 to 11) is (9, 0), which is off the board"),
    ] {
        write("bad.json", &replay).unwrap();
        let out = arena(dir.path(), &["export-save", "--unverified", "bad.json", "c.sav"]);
        assert_eq!(out.status.code(), Some(1), "{why}");
        assert!(stderr(&out).contains(why), "{why}: {}", stderr(&out));
        assert!(!dir.path().join("c.sav").exists(), "{why}");
    }
}
