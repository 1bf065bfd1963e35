//! Misbehaving bots get the right forfeit while the other bot's game goes on to its end,
//! and no process of theirs is left running.

use arena_e2e::*;

/// Quick limits so that timeouts cost well under a second each.
const FAST: [&str; 4] = ["--startup-ms", "1500", "--move-ms", "400"];

/// Plays `bad` against greedy on maps/fire.txt from both sides and checks the outcome.
fn forfeits(bad: &str, reason: &str) {
    let dir = tempfile::tempdir().unwrap();
    let greedy = bin("greedy");
    for bad_side in 0..2 {
        let bots = if bad_side == 0 { [bad, greedy.as_str()] } else { [greedy.as_str(), bad] };
        let (r, replay) = duel(dir.path(), "fire.txt", &FAST, bots);
        let (score, finished, forfeit) = player(&r, bad_side);
        assert_eq!(forfeit.as_deref(), Some(reason), "side {bad_side}: {r}");
        assert_eq!((score, finished), (0, false), "a forfeit scores 0: {r}");
        let (score, finished, forfeit) = player(&r, 1 - bad_side);
        assert!(score > 0 && finished && forfeit.is_none(), "the other bot plays on to the final: {r}");
        assert_eq!(r["winner"], 1 - bad_side);
        let out = arena(&["verify", &replay.display().to_string()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn a_bot_that_never_answers_times_out_and_is_ended() {
    forfeits(&format!("{} 4242", script("sleeper.sh")), "timeout");
    assert!(!process_running("sleep 4242"), "the sleeping child was ended with its group");
}

#[test]
fn a_bot_that_prints_garbage_is_malformed() {
    forfeits(&script("garbage.sh"), "malformed");
}

#[test]
fn a_bot_that_exits_at_once_crashed() {
    forfeits(&script("quitter.sh"), "crash");
}

#[test]
fn a_bot_that_steps_into_fire_burns() {
    forfeits(&script("firewalker.sh"), "fire");
}

/// Its second line, found waiting at the next prompt, is kept in the replay as evidence
/// (`unasked`), what check-bot quotes; no other reply has one.
#[test]
fn a_bot_that_answers_twice_printed_extra_output() {
    forfeits(&script("chatty.sh"), "extra_output");
    let dir = tempfile::tempdir().unwrap();
    let (_, replay) = duel(dir.path(), "fire.txt", &FAST, [&script("chatty.sh"), &bin("greedy")]);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let replies: Vec<&serde_json::Value> =
        json["steps"].as_array().unwrap().iter().flat_map(|s| s["replies"].as_array().unwrap()).collect();
    let unasked: Vec<&serde_json::Value> = replies.iter().filter(|r| r.get("unasked").is_some()).copied().collect();
    assert_eq!(unasked.len(), 1, "{json}");
    assert_eq!((&unasked[0]["failure"], &unasked[0]["unasked"]), (&"extra_output".into(), &"WAIT".into()));
}

#[test]
fn a_slow_bot_uses_up_its_total_time_on_the_wall_clock() {
    // Each answer takes 0.3 s: far under the 3 s per answer, but a few of them use up a 1.2 s
    // total (how many exactly depends on the machine's load: at most 3, each a little over
    // 0.3 s). It sleeps, so only the wall clock counts it (the CPU clock's side is in
    // tests/clocks.rs).
    let dir = tempfile::tempdir().unwrap();
    let slow = format!("{} 0.3", script("slowpoke.sh"));
    let greedy = bin("greedy");
    let (r, replay) =
        duel(dir.path(), "fire.txt", &["--clock", "wall", "--move-ms", "3000", "--total-ms", "1200"], [&slow, &greedy]);
    assert_eq!(player(&r, 0).2.as_deref(), Some("timeout"), "{r}");
    assert_eq!(r["players"][0]["name"], "slowpoke", "a script is named after the script, not `sh`");
    let rep: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let answered = rep["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["replies"].as_array().unwrap())
        .filter(|r| r["player"] == 0 && r["answer"].is_string())
        .count();
    assert!((1..=3).contains(&answered), "it answered {answered} times before its 1.2 s ran out");
    // Cut at what was left of the total, long before its 3 s for the answer ran out.
    let ms: Vec<u64> = rep["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["replies"].as_array().unwrap())
        .filter(|r| r["player"] == 0)
        .map(|r| r["ms"].as_u64().unwrap())
        .collect();
    assert!(ms.last().is_some_and(|&last| last < 1200), "the total ran out, not the answer's time: {ms:?}");
    assert!((1150..2400).contains(&ms.iter().sum::<u64>()), "1.2 s in all: {ms:?}");
}

#[test]
fn a_line_over_the_size_limit_is_malformed() {
    forfeits(&script("longline.sh"), "malformed");
    says_which_line_failed(&script("longline.sh"), "too_long", "longer than the limit on an answer's length");
    // The fix names the match's limit, whatever it is (the recorded detail names none).
    for limit in ["4096", "5000"] {
        let (fire, long, greedy) = (map("fire.txt"), script("longline.sh"), bin("greedy"));
        let args = ["duel", "--map", &fire, "--no-replay", "--max-line", limit];
        let out = arena(&[&args[..], &FAST[..], &[&long, &greedy]].concat());
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains(&format!("an answer is one line of at most {limit} bytes (this match's limit)")),
            "{text}"
        );
    }
}

#[test]
fn a_line_that_is_not_utf8_is_malformed() {
    forfeits(&script("binary.sh"), "malformed");
    says_which_line_failed(&script("binary.sh"), "not_utf8", "not valid UTF-8");
}

#[test]
fn only_ascii_white_space_separates_an_answers_words() {
    // `PLAYER <t> WAIT` with C's white space between its words (what C++'s `>>` skips) is a
    // WAIT, stored as the game read it; with a no-break space, U+3000 or NEL it is one word to the
    // course's checker, and malformed here too.
    let dir = tempfile::tempdir().unwrap();
    let greedy = bin("greedy");
    for sep in [" ", "\\t", "\\v", "\\f", "\\r"] {
        let bot = format!("{} '{sep}'", script("spacer.sh"));
        let (r, replay) = duel(dir.path(), "fire.txt", &FAST, [&bot, &greedy]);
        assert_eq!(player(&r, 0).2, None, "{sep}: {r}");
        let replay: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
        let first = &replay["steps"][0]["replies"][0];
        assert_eq!((&first["answer"], &first["raw_len"]), (&"WAIT".into(), &13.into()), "{sep}");
    }
    for sep in ["\\302\\240", "\\343\\200\\200", "\\302\\205"] {
        let bot = format!("{} '{sep}'", script("spacer.sh"));
        let (r, _) = duel(dir.path(), "fire.txt", &FAST, [&bot, &greedy]);
        assert_eq!(player(&r, 0).2.as_deref(), Some("malformed"), "{sep}: {r}");
    }
}

/// The replay records which of the two unreadable lines it was, and the result says it.
fn says_which_line_failed(bad: &str, failure: &str, detail: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (r, replay) = duel(dir.path(), "fire.txt", &FAST, [bad, &bin("greedy")]);
    let said = r["players"][0]["detail"].as_str().unwrap_or_default();
    assert!(said.contains(detail), "{r}");
    let replay: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let failures: Vec<&serde_json::Value> = replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["replies"].as_array().unwrap())
        .filter_map(|reply| reply.get("failure"))
        .collect();
    assert_eq!(failures, [failure], "{replay}");
}

#[test]
fn a_line_that_is_not_utf8_is_malformed_in_atoms_and_tactics_too() {
    let (bad, greedy) = (script("binary-end.sh"), bin("tactics-greedy"));
    let config = map("tactics/config_01.txt");
    let args = ["duel", "--game", "tactics", "--map", &config, "--rounds", "2", "--no-replay", "--json"];
    let out = arena(&[&args[..], &[&greedy, &bad]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(player(&r, 1).2.as_deref(), Some("malformed"), "{r}");
    let atoms_greedy = bin("atoms-greedy");
    let args = ["duel", "--game", "atoms", "--players", "2", "--size", "3x3", "--no-replay", "--json"];
    let out = arena(&[&args[..], &[&bad, &atoms_greedy]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["players"][0]["forfeit"], "malformed", "{r}");
}
