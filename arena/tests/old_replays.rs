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
