//! Replays recorded before the engine learned to describe games (issue 15) still load, verify
//! and read back to the very same JSON: the registry, typed forfeit reasons and the moved
//! limits changed nothing in the format.

use std::path::Path;

use arena::games;
use arena::replay::{audit, Replay};

#[test]
fn replays_of_every_game_recorded_before_still_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays-v1");
    let mut games_seen = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let replay = Replay::load(&path).unwrap_or_else(|e| panic!("{e}"));
        audit(&replay, &games::registry()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let recorded: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&replay).unwrap(), recorded, "{} reads back the same", path.display());
        games_seen.push(replay.game.clone());
    }
    games_seen.sort();
    games_seen.dedup();
    assert_eq!(games_seen, ["atoms", "lcr", "resource-rush", "resource-rush-test", "tactics"]);
}

#[test]
fn a_recorded_forfeit_keeps_its_reason_and_detail() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays-v1/resource-rush-forfeit.json");
    let replay = Replay::load(&path).unwrap();
    let loser = &replay.result.players[1];
    assert_eq!(loser.forfeit.as_deref(), Some("malformed"));
    assert_eq!(loser.detail.as_deref(), Some("expected `WAIT` or `MOVE x y`, found `BAD`"));
    // Control: the same replay with another recorded reason no longer verifies.
    let mut changed = replay.clone();
    changed.result.players[1].forfeit = Some("timeout".to_string());
    assert!(audit(&changed, &games::registry()).is_err());
}

/// The recorded replays of every game, by file name.
fn recorded() -> Vec<(String, Replay)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays-v1");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    entries.iter().map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), Replay::load(p).unwrap())).collect()
}

/// A replay that names a bot more, or one fewer, than its game has is refused (an extra entry
/// verified, and `arena replay` showed "P1 … vs P2 … vs P3" for a duel); LCR, whose players are
/// no bots, names none. The control: each replay as recorded verifies.
#[test]
fn a_replay_naming_more_or_fewer_players_than_its_game_has_does_not_verify() {
    let games = games::registry();
    for (name, replay) in recorded() {
        assert!(audit(&replay, &games).is_ok(), "the control: {name}");
        let n = replay.players.len();
        let extra = arena::replay::PlayerInfo { name: "P3".into(), command: "./extra".into() };
        let mut more = replay.clone();
        more.players.push(extra);
        let err = audit(&more, &games).unwrap_err().to_string();
        assert_eq!(err, format!("`players` names {} bots, but the game of its setup has {n}", n + 1), "{name}");
        assert!(arena::replay::resimulate(&more, &games, |_, _| {}).is_err(), "{name}: nor does it show");
        if n > 0 {
            let mut fewer = replay.clone();
            fewer.players.pop();
            let err = audit(&fewer, &games).unwrap_err().to_string();
            assert_eq!(err, format!("`players` names {} bots, but the game of its setup has {n}", n - 1), "{name}");
        }
    }
}

/// An answer longer than the replay's own `max_line` (as sent: its `raw_len` where recorded),
/// or a line printed unasked as long, is refused: the referee takes none longer. The control:
/// at the limit it verifies.
#[test]
fn an_answer_longer_than_the_recorded_limit_does_not_verify() {
    let games = games::registry();
    for (name, replay) in recorded() {
        let Some((s, r)) = replay
            .steps
            .iter()
            .enumerate()
            .find_map(|(s, step)| step.replies.iter().position(|r| r.answer.is_some()).map(|r| (s, r)))
        else {
            assert_eq!(name, "lcr.json", "only LCR has no answers");
            continue;
        };
        let len = replay.steps[s].replies[r].answer.as_ref().unwrap().len();
        let player = replay.steps[s].replies[r].player + 1;
        let with = |raw_len: usize| {
            let mut edited = replay.clone();
            edited.steps[s].replies[r].raw_len = Some(raw_len);
            audit(&edited, &games).map_err(|e| e.to_string())
        };
        let max = replay.limits.max_line;
        assert_eq!(with(max), Ok(()), "the control: {name}");
        assert_eq!(
            with(max + 1),
            Err(format!(
                "step {}: player {player}: an answer of {} bytes is recorded, but the limit was {max} bytes (`max_line`)",
                s + 1,
                max + 1
            )),
            "{name}"
        );
        let mut shorter = replay.clone();
        shorter.limits.max_line = len - 1;
        assert!(audit(&shorter, &games).is_err(), "{name}: the answer itself past a lower limit");
        let mut unasked = replay.clone();
        unasked.steps[s].replies[r].unasked = Some("x".repeat(max + 1));
        let err = audit(&unasked, &games).unwrap_err().to_string();
        assert!(err.contains(&format!("a line printed unasked of {} bytes is recorded", max + 1)), "{name}: {err}");
    }
}
