//! The toy game of `tests/coins/` through the arena's shared code: the referee with real bot
//! processes, then its replay saved, loaded and verified. The only place that names the game
//! is [`registry`]: one line, in this test.

mod coins;

use std::collections::BTreeMap;

use arena::engine::{MatchOptions, Registry};
use arena::games;
use arena::referee::{play_match, BotCommand, Limits, PlayedMatch};
use arena::replay::{audit, resimulate, Divergence, Replay};
use arena::sandbox::{Sandbox, SandboxLimits, SandboxMode};
use tokio_util::sync::CancellationToken;

/// The arena's games and the toy: the one registry line a new game needs.
fn registry() -> Registry {
    games::registry().with(&coins::CoinGame)
}

/// Takes one coin every turn.
const ONE_AT_A_TIME: &str = r#"sh -c 'while read -r word n rest; do [ "$word" = PILE ] && echo "TAKE 1"; done'"#;
/// Leaves a multiple of four whenever it can: it wins from any pile that is not one.
const PERFECT: &str = r#"sh -c 'while read -r word n rest; do if [ "$word" = PILE ]; then k=$((n % 4)); [ "$k" -eq 0 ] && k=1; echo "TAKE $k"; fi; done'"#;
/// Takes more than the rules allow.
const GRABBER: &str = r#"sh -c 'while read -r word n rest; do [ "$word" = PILE ] && echo "TAKE 5"; done'"#;

fn play(coins: &str, bots: [&str; 2]) -> PlayedMatch {
    let games = registry();
    let game = games.get("coins").expect("registered");
    let params = BTreeMap::from([("coins".to_string(), coins.to_string())]);
    let state = game.new_match(&MatchOptions { players: Some(2), params, ..Default::default() }).expect("a match");
    let bots: Vec<BotCommand> = bots
        .iter()
        .enumerate()
        .map(|(seat, command)| BotCommand::seated(&format!("bot{}", seat + 1), command, None, b"toy", 1, seat))
        .collect();
    let sandbox = Sandbox::new(SandboxMode::Auto, SandboxLimits::default()).expect("a sandbox");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let cancel = CancellationToken::new();
    runtime.block_on(play_match(game.name(), state, &bots, &Limits::default(), 1, &sandbox, &cancel)).expect("played")
}

#[test]
fn the_toy_game_plays_through_the_referee() {
    // From 10 the perfect player takes 2, then leaves 4 after the other's single coin, and wins.
    let played = play("10", [PERFECT, ONE_AT_A_TIME]);
    let result = &played.replay.result;
    assert_eq!(result.winner, Some(0), "{result:?}");
    assert_eq!(result.players.iter().map(|p| p.score).collect::<Vec<_>>(), [1, 0]);
    let piles: Vec<u64> = played.replay.steps.iter().map(|s| s.frame["pile"].as_u64().unwrap()).collect();
    assert_eq!(piles, [8, 7, 4, 3, 0]);
    assert_eq!(played.replay.steps[0].replies[0].answer.as_deref(), Some("TAKE 2"));
    // Seats swapped: now the one-at-a-time player starts and loses all the same.
    assert_eq!(play("10", [ONE_AT_A_TIME, PERFECT]).replay.result.winner, Some(1));
}

#[test]
fn a_rule_breaker_forfeits() {
    let played = play("6", [GRABBER, ONE_AT_A_TIME]);
    let me = &played.replay.result.players[0];
    assert_eq!((me.forfeit.as_deref(), me.score), (Some("invalid_move"), 0));
    assert!(me.detail.as_deref().is_some_and(|d| d.contains("TAKE 5")), "{me:?}");
    assert_eq!(played.replay.result.winner, Some(1));
}

#[test]
fn its_replay_loads_and_verifies_with_the_registry_that_knows_it() {
    let played = play("9", [PERFECT, ONE_AT_A_TIME]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coins.json");
    played.replay.save(&path).unwrap();
    let replay = Replay::load(&path).unwrap();
    assert_eq!(replay, played.replay);
    audit(&replay, &registry()).expect("the replay verifies");
    let mut frames = Vec::new();
    resimulate(&replay, &registry(), |_, state| frames.push(state.render())).unwrap();
    assert_eq!(frames.first().map(String::as_str), Some("9 coins left\n"));
    // Control: the arena's own registry does not know the game.
    let unknown = audit(&replay, &games::registry()).unwrap_err().to_string();
    assert!(unknown.contains("unknown game `coins`"), "{unknown}");
    // A changed record is caught.
    let mut forged = replay.clone();
    forged.steps[1].frame["pile"] = serde_json::json!(1);
    assert!(matches!(audit(&forged, &registry()), Err(Divergence::Frame { .. })));
}

#[test]
fn its_parameters_come_from_its_info() {
    let games = registry();
    let game = games.get("coins").unwrap();
    let state = game.new_match(&MatchOptions::default()).unwrap();
    assert_eq!(state.setup()["coins"], 11, "the declared default");
    let bad = |name: &str, value: &str| {
        let params = BTreeMap::from([(name.to_string(), value.to_string())]);
        game.new_match(&MatchOptions { params, ..Default::default() }).err().map(|e| e.to_string()).unwrap_or_default()
    };
    assert_eq!(bad("coins", "0"), "--coins: expected a whole number from 1 to 99, found `0`");
    assert_eq!(bad("size", "6x5"), "coins has no parameter `size` (its parameters: `coins`)");
    let three = game.new_match(&MatchOptions { players: Some(3), ..Default::default() }).err().unwrap().to_string();
    assert_eq!(three, "Coins is played by exactly 2 players, not 3");
}
