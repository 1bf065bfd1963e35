//! Property tests on hosted Tactics: whatever the bots answer, nothing panics, every game
//! ends, the board stays consistent, and its replay re-simulates; config checks never panic.

use arena::engine::{Game, Reply, State, Turn};
use arena::games::tactics::hosted::{TacticsGame, TacticsState, MAX_ACTIONS};
use arena::games::tactics::{Board, Field};
use arena::referee::{Answer, Limits};
use arena::replay::{resimulate, MatchResult, PlayerInfo, RecordedReply, Replay, Step};
use proptest::prelude::*;

#[path = "common/tactics_picker.rs"]
mod tactics_picker;
use tactics_picker::legal;

const CONFIG: &str = "OOP\n5_4\naa0-0\na00-0\n0000b\n0-0bb\n";

/// Answers a bot might give: mostly well-formed commands with small or odd numbers.
fn answer() -> impl Strategy<Value = String> {
    let num = prop_oneof![
        (0i64..7).prop_map(|n| n.to_string()),
        Just("-1".to_string()),
        Just("99999999999999999999".to_string()),
        "[a-z]{1,2}"
    ];
    prop_oneof![
        4 => (num.clone(), 0i64..7, 0i64..6).prop_map(|(n, c, r)| format!("place {n} {c} {r}")),
        8 => (num, 0i64..7, 0i64..6, -1i64..2, -1i64..2)
            .prop_map(|(n, c, r, dc, dr)| format!("move {n} {c} {r} {} {}", c + dc, r + dr)),
        2 => Just("pass".to_string()),
        1 => ".{0,16}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn legal_commands_never_forfeit_and_games_end(picks in prop::collection::vec(any::<u64>(), 1..64), rounds in 1u32..6) {
        let mut state: Box<dyn State> = Box::new(TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), rounds));
        let mut turns = 0usize;
        while let Turn::Sequential(p) = state.turn() {
            let line = legal(state.as_ref(), p, picks[turns % picks.len()]);
            turns += 1;
            prop_assert!(turns <= (rounds * 2 * 2 * MAX_ACTIONS) as usize + 1, "the game must end");
            state.apply(&[(p, Reply::Line(line.clone()))]);
            prop_assert!(state.frame()["last"].get("forfeit").is_none(), "`{line}` was legal: {}", state.frame());
        }
        let outcome = state.outcome();
        prop_assert!(outcome.players.iter().all(|p| p.forfeit.is_none()));
    }

    #[test]
    fn any_answers_end_the_game_consistently_and_replay(answers in prop::collection::vec(answer(), 1..40), rounds in 1u32..4) {
        let board = Board::parse(CONFIG.as_bytes()).unwrap();
        let mut state: Box<dyn State> = Box::new(TacticsState::new(board, CONFIG.to_string(), rounds));
        let players = vec![PlayerInfo { name: "a".into(), command: "a".into() }, PlayerInfo { name: "b".into(), command: "b".into() }];
        let mut replay = Replay::new("tactics", 0, state.setup(), players.clone(), Limits::default(), state.frame());
        let mut turns = 0usize;
        while let Turn::Sequential(p) = state.turn() {
            let line = answers[turns % answers.len()].clone();
            turns += 1;
            prop_assert!(turns <= (rounds * 2 * 2 * MAX_ACTIONS) as usize + 1, "the game must end");
            let _ = state.prompt(p);
            let replies = vec![(p, Reply::Line(line))];
            state.apply(&replies);
            let _ = state.render();
            replay.steps.push(Step {
                replies: replies.into_iter().map(|(p, r)| RecordedReply::new(p, Answer::untimed(r))).collect(),
                chance: None,
                frame: state.frame(),
            });
        }
        let outcome = state.outcome();
        let frame = state.frame();
        for row in frame["board"].as_array().unwrap() {
            for cell in row.as_str().unwrap().split(' ') {
                prop_assert!(cell == ".." || cell == "~~" || cell[1..].parse::<u32>().is_ok_and(|n| n > 0), "bad field {cell}");
            }
        }
        for p in 0..2 {
            let forfeited = outcome.players[p].forfeit.is_some();
            let expected = if forfeited { 0 } else { frame["fields"][p].as_i64().unwrap() };
            prop_assert_eq!(outcome.players[p].score, expected);
        }
        replay.result = MatchResult::from_outcome(outcome, &players);
        prop_assert!(resimulate(&replay, &arena::games::registry(), |_, _| ()).is_ok());
        prop_assert!(TacticsGame.load(&replay.setup).is_ok());
    }

    #[test]
    fn config_checks_never_panic(text in "(OOP\n)?([0-9]{1,2}_[0-9]{1,2}\n)?([ab0\\-x]{0,10}\n){0,10}") {
        if let Err((line, what)) = Board::check(&text) {
            prop_assert!(line >= 1 && line <= text.lines().count() + 1, "line {line} ({what}) for {text:?}");
        } else {
            let b = Board::check(&text).unwrap();
            prop_assert!(b.fields.iter().any(|f| matches!(f, Field::Claimed(0, _))));
        }
        let _ = Board::parse(text.as_bytes());
    }
}
