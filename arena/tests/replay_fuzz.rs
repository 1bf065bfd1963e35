//! Property tests on the replay loader and the re-simulation: no input panics, and a genuine
//! replay verifies while a changed one is reported.

use std::path::PathBuf;

use arena::engine::{MatchOptions, Reply, Turn};
use arena::games;
use arena::referee::{Answer, Limits};
use arena::replay::{resimulate, MatchResult, PlayerInfo, RecordedReply, Replay, Step};
use proptest::prelude::*;
use serde_json::Value;

/// A replay of a game played in-process with the given answers (cycled).
fn replay_of(answers: &[String]) -> Replay {
    let map = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../maps/fire.txt");
    let game = games::by_name("resource-rush").unwrap();
    let mut state = game.new_match(&MatchOptions { map: Some(map), players: Some(2), ..Default::default() }).unwrap();
    let players = vec![
        PlayerInfo { name: "a".into(), command: "a".into() },
        PlayerInfo { name: "b".into(), command: "b".into() },
    ];
    let mut replay = Replay::new("resource-rush", 0, state.setup(), players.clone(), Limits::default(), state.frame());
    let mut i = 0;
    while let Turn::Simultaneous(ps) = state.turn() {
        let replies: Vec<(usize, Reply)> = ps
            .iter()
            .map(|&p| {
                i += 1;
                (p, Reply::Line(answers.get(i % answers.len().max(1)).cloned().unwrap_or_default()))
            })
            .collect();
        state.apply(&replies);
        replay.steps.push(Step {
            replies: replies.into_iter().map(|(p, r)| RecordedReply::new(p, Answer::untimed(r))).collect(),
            chance: None,
            frame: state.frame(),
        });
    }
    replay.result = MatchResult::from_outcome(state.outcome(), &players);
    replay
}

fn answer() -> impl Strategy<Value = String> {
    prop_oneof![Just("WAIT".to_string()), (0i32..6, 0i32..8).prop_map(|(x, y)| format!("MOVE {x} {y}")), ".{0,12}",]
}

/// Replaces the value at a pseudo-random place in `v` (chosen by `pick`) with `new`.
fn mutate(v: &mut Value, pick: u64, new: Value) {
    match v {
        Value::Object(m) if !m.is_empty() && pick > 0 => {
            let n = m.len() as u64;
            let key = m.keys().nth((pick % n) as usize).cloned().unwrap_or_default();
            if let Some(child) = m.get_mut(&key) {
                mutate(child, pick / (n + 1), new);
            }
        }
        Value::Array(a) if !a.is_empty() && pick > 0 => {
            let n = a.len() as u64;
            mutate(&mut a[(pick % n) as usize], pick / (n + 1), new);
        }
        _ => *v = new,
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-3i64..60).prop_map(Value::from),
        ".{0,10}".prop_map(Value::from),
        Just(serde_json::json!([1, 2])),
        Just(serde_json::json!({"x": 1})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn genuine_replays_verify(answers in prop::collection::vec(answer(), 1..12)) {
        let replay = replay_of(&answers);
        let verified = resimulate(&replay, &games::registry(), |_, _| ()).is_ok();
        prop_assert!(verified);
    }

    #[test]
    fn changed_replays_never_panic(answers in prop::collection::vec(answer(), 1..8), pick in any::<u64>(), new in json_value()) {
        let replay = replay_of(&answers);
        let mut json = serde_json::to_value(&replay).unwrap();
        mutate(&mut json, pick, new);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
        if let Ok(loaded) = Replay::load(&path) {
            let mut frames = 0;
            let outcome = resimulate(&loaded, &games::registry(), |_, state| {
                frames += 1;
                let _ = state.render();
            });
            if loaded == replay {
                prop_assert!(outcome.is_ok());
            }
            prop_assert!(frames <= replay.steps.len() + 1);
        }
    }

    #[test]
    fn arbitrary_bytes_are_an_error_not_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, &bytes).unwrap();
        let _ = Replay::load(&path);
    }
}
