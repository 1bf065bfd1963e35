//! One test (or table) per ruling of the Resource Rush section of the rulings.

use bot_sdk::{MapSpec, Pos};

use super::*;
use crate::engine::Failure;

fn game(text: &str) -> ResourceRush {
    ResourceRush::new(MapSpec::parse(text).unwrap())
}

/// A 3x5 map: P1 at (0,0), P2 at (0,4), final (2,2).
const SMALL: &str = "ARENA 3 5 10\n0 0\n0 4\n2 2\nMAP\n0 5 W 7 0\nF F D T 0\n0 9 0 3 0\nEND_MAP\nSTREAM\n";

fn line(s: &str) -> Reply {
    Reply::Line(s.to_string())
}

fn tick(g: &mut ResourceRush, a: Reply, b: Reply) {
    let replies: Vec<(PlayerId, Reply)> = match g.turn() {
        Turn::Simultaneous(ps) => ps.into_iter().map(|p| (p, if p == 0 { a.clone() } else { b.clone() })).collect(),
        other => panic!("expected simultaneous turn, got {other:?}"),
    };
    g.apply(&replies);
}

fn forfeit(g: &ResourceRush, p: PlayerId) -> Option<&str> {
    match g.status(p) {
        Status::Forfeit { reason, .. } => Some(reason.as_str()),
        _ => None,
    }
}

#[test]
fn intro_is_the_header_from_each_players_perspective() {
    let g = game(SMALL);
    assert_eq!(g.intro(0), SMALL);
    assert!(g.intro(1).starts_with("ARENA 3 5 10\n0 4\n0 0\n2 2\nMAP\n"));
    assert!(g.intro(1).ends_with("END_MAP\nSTREAM\n"));
}

#[test]
fn prompts_report_the_opponents_previous_action() {
    let mut g = game(SMALL);
    assert_eq!(g.prompt(0), "TICK 1 WAIT\n");
    assert_eq!(g.prompt(1), "TICK 1 WAIT\n");
    tick(&mut g, line("MOVE 0 1"), line("WAIT"));
    assert_eq!(g.prompt(1), "TICK 2 MOVE 0 1\n");
    assert_eq!(g.prompt(0), "TICK 2 WAIT\n");
    tick(&mut g, line("PLAYER 2 MOVE 0 0"), line("MOVE 1 4"));
    assert_eq!(g.prompt(0), "TICK 3 MOVE 1 4\n");
    assert_eq!(g.prompt(1), "TICK 3 MOVE 0 0\n");
}

#[test]
fn a_rejected_answer_shows_as_wait_and_a_fatal_move_as_made() {
    let mut g = game(SMALL);
    tick(&mut g, line("MOVE 1 0"), line("MOVE 0 2")); // P1 into fire, P2 onto a wall
    assert_eq!(forfeit(&g, 0), Some("fire"));
    assert_eq!(forfeit(&g, 1), Some("invalid_move"));
    assert_eq!(g.shown, [Action::Move(Pos::new(1, 0)), Action::Wait]);
    assert_eq!(g.turn(), Turn::Terminal);
}

#[test]
fn after_finishing_or_forfeiting_the_opponent_sees_wait() {
    let text = "ARENA 1 4 10\n0 1\n0 3\n0 0\nMAP\n0 0 0 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 0"), line("WAIT"));
    assert_eq!(*g.status(0), Status::Finished);
    assert_eq!(g.prompt(1), "TICK 2 MOVE 0 0\n", "the move that reached the final shows as made");
    assert_eq!(g.turn(), Turn::Simultaneous(vec![1]));
    assert!(!g.is_active(0));
    tick(&mut g, line("unused"), line("MOVE 0 2"));
    assert_eq!(g.prompt(1), "TICK 3 WAIT\n");
}

#[test]
fn every_forfeit_reason_zeroes_the_score_and_the_opponent_plays_on() {
    let cases: Vec<(Reply, &str)> = vec![
        (line("MOVE 1 1"), "fire"),
        (line("MOVE 0 2"), "invalid_move"),
        (line("MOVE 2 2"), "invalid_move"),
        (line("GO EAST"), "malformed"),
        (line(""), "malformed"),
        (Reply::Failed(Failure::Malformed), "malformed"),
        (Reply::Failed(Failure::Timeout), "timeout"),
        (Reply::Failed(Failure::Crash(None)), "crash"),
        (Reply::Failed(Failure::ExtraOutput), "extra_output"),
    ];
    for (bad, reason) in cases {
        let mut g = game(SMALL);
        tick(&mut g, line("MOVE 0 1"), line("MOVE 0 3")); // both collect first
        assert_eq!((g.player(0).score, g.player(1).score), (5, 7));
        tick(&mut g, bad.clone(), line("MOVE 0 4"));
        assert_eq!(forfeit(&g, 0), Some(reason), "{bad:?}");
        assert_eq!(g.player(0).score, 0, "{reason} zeroes the score");
        assert_eq!(g.turn(), Turn::Simultaneous(vec![1]), "the opponent plays on after {reason}");
        tick(&mut g, line("WAIT"), line("MOVE 1 4"));
        tick(&mut g, line("WAIT"), line("MOVE 2 4"));
        tick(&mut g, line("WAIT"), line("MOVE 2 3"));
        tick(&mut g, line("WAIT"), line("MOVE 2 2"));
        assert_eq!(*g.status(1), Status::Finished);
        assert_eq!(g.turn(), Turn::Terminal);
        let outcome = g.outcome();
        assert_eq!(outcome.players[0].forfeit, Some(reason.into()));
        assert!(outcome.players[0].detail.is_some());
        assert_eq!((outcome.players[1].score, outcome.players[1].finished), (10, true));
        assert_eq!(outcome.winner, Some(1));
    }
}

#[test]
fn moves_are_checked_against_the_start_of_the_tick() {
    // P1 takes J this tick; a jump in the same tick would still be invalid, the next tick it is fine.
    let text = "ARENA 1 5 10\n0 0\n0 4\n0 4\nMAP\n0 J W 0 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 1"), line("WAIT"));
    assert_eq!(*g.status(1), Status::Finished, "P2 started on the final and is done after tick 1");
    assert!(g.player(0).jump);
    tick(&mut g, line("MOVE 0 3"), line("ignored"));
    assert_eq!(g.player(0).pos, Pos::new(0, 3));
    let mut h = game(text);
    tick(&mut h, line("MOVE 0 2"), line("WAIT"));
    assert_eq!(forfeit(&h, 0), Some("invalid_move"));
}

#[test]
fn simultaneous_arrival_cancels_the_item() {
    let text = "ARENA 1 3 10\n0 0\n0 2\n0 0\nMAP\n0 D 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 1"), line("MOVE 0 1"));
    assert_eq!(g.grid().get(Pos::new(0, 1)), Some(bot_sdk::Cell::Floor));
    assert_eq!((g.player(0).multiplier, g.player(1).multiplier), (1, 1));
    assert_eq!(g.frame()["events"][0]["type"], "cancelled");
}

#[test]
fn finishing_and_running_out_of_rounds() {
    let text = "ARENA 1 4 3\n0 0\n0 0\n0 3\nMAP\n0 4 4 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 1"), line("WAIT"));
    tick(&mut g, line("MOVE 0 2"), line("WAIT"));
    tick(&mut g, line("MOVE 0 3"), line("MOVE 0 1"));
    assert_eq!(g.turn(), Turn::Terminal, "3 rounds played");
    assert!(!g.is_active(1));
    let outcome = g.outcome();
    assert_eq!((outcome.players[0].score, outcome.players[0].finished), (8, true));
    assert_eq!((outcome.players[1].score, outcome.players[1].finished), (0, false));
    assert_eq!(outcome.players[1].forfeit, None);
    assert_eq!(outcome.winner, Some(0));
}

#[test]
fn an_unfinished_player_keeps_its_score_and_can_win() {
    let text = "ARENA 1 4 2\n0 1\n0 2\n0 3\nMAP\n9 0 0 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 0"), line("MOVE 0 3"));
    tick(&mut g, line("WAIT"), line("ignored"));
    let outcome = g.outcome();
    assert_eq!((outcome.players[0].score, outcome.players[0].finished), (9, false));
    assert_eq!((outcome.players[1].score, outcome.players[1].finished), (0, true));
    assert_eq!(outcome.winner, Some(0), "the higher score wins, finished or not");
}

#[test]
fn equal_scores_draw() {
    let text = "ARENA 1 3 1\n0 1\n0 1\n0 1\nMAP\n0 0 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("WAIT"), line("WAIT"));
    assert_eq!(g.outcome().winner, None);
    assert!(g.outcome().players.iter().all(|p| p.finished), "both start on the final: done after tick 1");
}

#[test]
fn the_spec_example_move_onto_a_wall_is_invalid() {
    // The handout's worked example answers MOVE 0 2 from (0,1), but (0,2) is `W`.
    let text =
        "ARENA 5 5 10\n0 0\n3 2\n4 4\nMAP\n0 5 W 0 10\nE 3 0 W 7\n0 0 J 0 0\nW 2 0 4 W\n0 0 F 0 0\nEND_MAP\nSTREAM\n";
    let mut g = game(text);
    tick(&mut g, line("MOVE 0 1"), line("WAIT"));
    tick(&mut g, line("MOVE 0 2"), line("MOVE 3 3"));
    assert_eq!(forfeit(&g, 0), Some("invalid_move"));
    assert_eq!(g.outcome().players[0].detail.as_deref(), Some("(0, 2) is `W`, which cannot be entered"));
}

#[test]
fn setup_round_trips_through_the_registry() {
    let g = game(SMALL);
    let loaded = ResourceRushGame.load(&g.setup()).unwrap();
    assert_eq!(loaded.setup(), g.setup());
    assert_eq!(loaded.frame(), g.frame());
    assert_eq!(loaded.intro(1), g.intro(1));
}

#[test]
fn bad_setups_are_rejected_with_a_reason() {
    let mut setup = game(SMALL).setup();
    setup["map"][1] = serde_json::json!("F J D T");
    let err = ResourceRushGame.load(&setup).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("map row 1 has 4 cells, expected 5"), "{err}");
    setup["map"][1] = serde_json::json!("0 0 0 0 0\nEND_MAP");
    assert!(ResourceRushGame.load(&setup).is_err());
    let err = ResourceRushGame.load(&serde_json::json!({"rows": 1})).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("`cols` must be a non-negative integer"), "{err}");
}

const SCRIPTED: &str =
    "ARENA 1 5 6\n0 0\n0 4\n0 4\nMAP\n0 7 9 3 0\nEND_MAP\nSTREAM\nTICK 1 MOVE 0 3\nTICK 2 MOVE 0 2\n";

#[test]
fn in_a_test_the_scripted_opponent_moves_first_and_takes_the_item() {
    let mut g = ResourceRush::against_script(MapSpec::parse(SCRIPTED).unwrap(), false);
    assert_eq!(g.num_players(), 1);
    assert_eq!(g.turn(), Turn::Sequential(0));
    assert_eq!(g.prompt(0), "TICK 1 MOVE 0 3\n", "the file's line for tick 1");
    g.apply(&[(0, line("MOVE 0 1"))]);
    assert_eq!(g.player(0).score, 7);
    assert_eq!(g.prompt(0), "TICK 2 MOVE 0 2\n");
    // Both go for the 9 at tick 2: the opponent got there first, no cancellation.
    g.apply(&[(0, line("MOVE 0 2"))]);
    assert_eq!(g.player(0).score, 7, "the opponent took the 9 first");
    let events = g.frame()["events"].clone();
    assert_eq!(events[0]["type"], "taken", "{events}");
    assert!(events.as_array().unwrap().iter().all(|e| e["type"] != "cancelled"));
    assert_eq!(g.prompt(0), "TICK 3 WAIT\n", "past the script the opponent waits");
}

#[test]
fn in_a_test_the_bot_alone_finishes_and_is_judged() {
    let mut g = ResourceRush::against_script(MapSpec::parse(SCRIPTED).unwrap(), false);
    for to in ["MOVE 0 1", "MOVE 0 2", "MOVE 0 3", "MOVE 0 4"] {
        g.apply(&[(0, line(to))]);
    }
    assert_eq!(g.turn(), Turn::Terminal, "no more TICK lines after the final");
    assert!(!g.is_active(0));
    let outcome = g.outcome();
    assert_eq!(outcome.players.len(), 1);
    assert_eq!((outcome.players[0].score, outcome.players[0].finished), (7, true));
}

#[test]
fn a_piped_test_sends_the_whole_file_at_once() {
    let g = ResourceRush::against_script(MapSpec::parse(SCRIPTED).unwrap(), true);
    let intro = g.intro(0);
    assert!(intro
        .ends_with("STREAM\nTICK 1 MOVE 0 3\nTICK 2 MOVE 0 2\nTICK 3 WAIT\nTICK 4 WAIT\nTICK 5 WAIT\nTICK 6 WAIT\n"));
    assert_eq!(g.prompt(0), "");
    assert!(g.answers_may_run_ahead());
    assert!(g.input_is_intro(), "its input ends there");
    assert!(!scripted(SCRIPTED, None).input_is_intro(), "one TICK at a time: it goes on");
    let again = ResourceRushTestGame.load(&g.setup()).unwrap();
    assert_eq!(again.intro(0), intro, "the replay setup keeps the script and the mode");
}

fn scripted(text: &str, minimum: Option<i64>) -> ResourceRush {
    ResourceRush::against_script(MapSpec::parse(text).unwrap(), false).with_minimum(minimum)
}

fn play_test(g: &mut ResourceRush, answers: &[&str]) {
    for a in answers {
        if g.turn() == Turn::Terminal {
            break;
        }
        g.apply(&[(0, line(a))]);
    }
    while g.turn() != Turn::Terminal {
        g.apply(&[(0, line("WAIT"))]);
    }
}

fn reason(g: &ResourceRush) -> String {
    let verdict = g.verdict().expect("a finished test has a verdict");
    assert_eq!(verdict.passed, verdict.reason.is_none());
    verdict.reason.unwrap_or_else(|| "PASS".to_string())
}

#[test]
fn a_test_passes_at_the_minimum_and_fails_below_it_naming_what_the_opponent_took() {
    // The opponent takes the 3 at tick 1 and the 9 at tick 2; the bot gets the 7.
    let answers = ["MOVE 0 1", "MOVE 0 2", "MOVE 0 3", "MOVE 0 4"];
    let mut g = scripted(SCRIPTED, Some(7));
    assert_eq!(g.verdict(), None, "no verdict before the end");
    play_test(&mut g, &answers);
    assert_eq!(reason(&g), "PASS");
    let mut g = scripted(SCRIPTED, Some(8));
    play_test(&mut g, &answers);
    assert_eq!(reason(&g), "below the minimum (7 < 8): the opponent took 2 items worth 12 before you");
    let power = SCRIPTED.replace("0 7 9 3 0", "0 7 9 D 0");
    let mut g = scripted(&power, Some(100));
    play_test(&mut g, &answers);
    assert_eq!(
        reason(&g),
        "below the minimum (7 < 100): the opponent took 2 items worth 9 before you (power-ups among them: D)"
    );
    assert_eq!(game(SMALL).verdict(), None, "a duel has no verdict");
}

#[test]
fn a_test_not_finished_says_whether_the_bot_never_moved_or_needed_a_j() {
    let mut g = scripted(SCRIPTED, Some(0));
    play_test(&mut g, &[]);
    assert_eq!(reason(&g), "did not reach the final in 6 ticks; never moved (it answered WAIT to every TICK)");
    let mut g = scripted(SCRIPTED, Some(0));
    play_test(&mut g, &["MOVE 0 1"]);
    assert_eq!(reason(&g), "did not reach the final in 6 ticks; it ended at (0, 1), 3 moves from the final");
    // The final (0, 4) lies behind a wall: only a jump gets there, and the J is at (0, 0).
    let walled = "ARENA 1 5 6\n0 1\n0 1\n0 4\nMAP\nJ 0 0 W 0\nEND_MAP\nSTREAM\n";
    let mut g = scripted(walled, None);
    play_test(&mut g, &["MOVE 0 2"]);
    assert_eq!(
        reason(&g),
        "did not reach the final in 6 ticks; the final is unreachable without J: only a jump reaches it, so pick up a J first"
    );
    let mut g = scripted(walled, None);
    play_test(&mut g, &["MOVE 0 0", "MOVE 0 2", "MOVE 0 4"]);
    assert_eq!(reason(&g), "PASS", "no minimum: finishing is enough");
    let mut g = scripted(&walled.replace("J 0 0 W 0", "0 0 0 W 0"), None);
    play_test(&mut g, &["MOVE 0 2"]);
    assert!(reason(&g).ends_with("the final cannot be reached from the start at all"), "{}", reason(&g));
    let mut g = scripted(walled, Some(0));
    play_test(&mut g, &["MOVE 0 2", "MOVE 0 3"]);
    assert_eq!(reason(&g), "forfeit invalid_move: (0, 3) is `W`, which cannot be entered");
}

#[test]
fn a_duel_remarks_on_a_bot_that_never_moved() {
    let mut g = game(SMALL);
    for to in ["MOVE 2 4", "MOVE 2 3", "MOVE 2 2"] {
        assert!(g.remarks().is_empty(), "nothing to say before the end");
        tick(&mut g, line("WAIT"), line(to));
    }
    for _ in 3..10 {
        tick(&mut g, line("WAIT"), line("WAIT"));
    }
    assert_eq!(g.turn(), Turn::Terminal);
    // P1 never moved (and, walled in by W and F with no J on the map, could not have finished).
    let remarks = g.remarks();
    assert_eq!(remarks.len(), 1, "P2 finished: nothing to say about it ({remarks:?})");
    assert_eq!(remarks[0].player, 0);
    assert_eq!(
        remarks[0].text,
        "never moved (it answered WAIT to every TICK); the final cannot be reached from the start at all"
    );
    let mut g = game(SMALL);
    tick(&mut g, line("MOVE 0 1"), line("MOVE 1 4"));
    for _ in 1..10 {
        tick(&mut g, line("WAIT"), line("WAIT"));
    }
    assert_eq!(g.remarks(), [], "both moved at least once");
}

#[test]
fn the_minimum_is_recorded_in_the_setup_and_shown() {
    let g = scripted(SCRIPTED, Some(42));
    assert_eq!(g.setup()["minimum"], 42);
    let again = ResourceRushTestGame.load(&g.setup()).unwrap();
    assert!(again.render().starts_with("tick 0/6  (test: minimum 42)\n"), "{}", again.render());
    let mut bad = g.setup();
    bad["minimum"] = serde_json::json!("lots");
    let err = ResourceRushTestGame.load(&bad).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("`minimum` must be an integer"), "{err}");
    let without = scripted(SCRIPTED, None);
    assert!(without.setup().get("minimum").is_none());
}

/// One event of each kind. The match makes adding a kind without a case here a compile error.
fn one_event_of_each_kind() -> Vec<TickEvent> {
    let all = vec![
        TickEvent::Collected { player: 0, cell: [1, 2], item: "7".into(), points: 14 },
        TickEvent::Cancelled { cell: [3, 4], item: "D".into() },
        TickEvent::Taken { player: 1, cell: [5, 6], item: "J".into() },
        TickEvent::Finished { player: 1 },
        TickEvent::Forfeit { player: 0, reason: "fire".into(), detail: "entered the fire at (1, 1)".into() },
    ];
    let mut seen = [false; 5];
    for e in &all {
        seen[match e {
            TickEvent::Collected { .. } => 0,
            TickEvent::Cancelled { .. } => 1,
            TickEvent::Taken { .. } => 2,
            TickEvent::Finished { .. } => 3,
            TickEvent::Forfeit { .. } => 4,
        }] = true;
    }
    assert!(seen.iter().all(|s| *s));
    all
}

#[test]
fn every_event_kind_has_a_text_description() {
    let who = |p: usize| format!("P{}", p + 1);
    let texts: Vec<String> = one_event_of_each_kind().iter().map(|e| e.describe(who)).collect();
    assert_eq!(
        texts,
        [
            "P1 took 7 at (1, 2) (+14)",
            "both reached (3, 4): D cancelled",
            "P2 took J at (5, 6) first",
            "P2 reached the final",
            "P1 forfeits: fire (entered the fire at (1, 1))",
        ]
    );
}

#[test]
fn the_text_replay_and_the_html_viewer_know_the_same_event_kinds() {
    let kinds: std::collections::BTreeSet<String> = one_event_of_each_kind()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_string())
        .collect();
    // The game renderer's `describe(e)`: one `case "kind":` per event kind.
    let js = include_str!("viewer.js");
    let start = js.find("function describe(e)").expect("the viewer describes events");
    let body = &js[start..start + js[start..].find("default:").expect("a default case")];
    let viewer: std::collections::BTreeSet<String> =
        body.split("case \"").skip(1).filter_map(|c| c.split('"').next()).map(str::to_string).collect();
    assert_eq!(kinds, viewer);
}

#[test]
fn the_events_a_game_records_read_back_and_show_in_the_text_board() {
    let mut g = scripted(SCRIPTED, None);
    g.apply(&[(0, line("MOVE 0 1"))]);
    g.apply(&[(0, line("MOVE 0 2"))]);
    let text = g.render();
    assert!(text.contains("events: P2 took 9 at (0, 2) first"), "{text}");
    assert!(!text.contains("events: taken"), "{text}");
    let frame = g.frame();
    let back: Vec<TickEvent> = serde_json::from_value(frame["events"].clone()).unwrap();
    assert_eq!(back, g.events);
}

/// A coordinate that is a whole number past 64 bits is an integer off the map, an invalid move
/// like `MOVE 99999999999 0` (it was malformed: "coordinate … is not an integer", which it is);
/// the control: a coordinate that is no integer is malformed.
#[test]
fn a_coordinate_past_64_bits_is_off_the_map() {
    let detail = |g: &ResourceRush| match g.status(0) {
        Status::Forfeit { reason, detail } => (reason.as_str().to_string(), detail.clone()),
        other => panic!("{other:?}"),
    };
    for answer in ["MOVE 18446744073709551616 0", "MOVE 0 -99999999999999999999", "MOVE 99999999999 0"] {
        let mut g = game(SMALL);
        tick(&mut g, line(answer), line("WAIT"));
        let (reason, detail) = detail(&g);
        assert_eq!(reason, "invalid_move", "{answer}");
        assert!(detail.contains("is off the map"), "{answer}: {detail}");
    }
    let mut g = game(SMALL);
    tick(&mut g, line("MOVE 1x 0"), line("WAIT"));
    assert_eq!(detail(&g), ("malformed".to_string(), "coordinate `1x` is not an integer".to_string()));
}
