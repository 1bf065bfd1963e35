//! The toy game of `tests/coins/` through the arena's shared code: the referee with real bot
//! processes, its replay saved, loaded and verified, a tournament, and the viewer's generic
//! renderer. The only place that names the game
//! is [`registry`]: one line, in this test.

mod coins;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arena::engine::{MatchOptions, Registry};
use arena::games;
use arena::referee::{play_match, BotCommand, Limits, PlayedMatch};
use arena::replay::{audit, resimulate, Divergence, Replay};
use arena::sandbox::{Sandbox, SandboxLimits, SandboxMode};
use arena::tournament::config::{BotEntry, TournamentConfig};
use arena::tournament::{self, Event, Reporter, RunOptions, TournamentError};
use arena::view;
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

/// What a tournament reported, in order, and the pages it had written on the way (as the
/// `arena` command writes them).
struct Recorder {
    events: std::sync::Mutex<Vec<String>>,
    out: PathBuf,
}

impl Reporter for Recorder {
    fn report(&self, event: Event<'_>) -> Result<(), TournamentError> {
        let what = match &event {
            Event::Planned(plan) => format!("planned {}", plan.todo.len()),
            Event::Executing { matches, done } => format!("executing {matches} ({done} done)"),
            Event::ReplaySaved { scheduled, map, replay, path, bytes, .. } => {
                view::league::write_replay_page(&self.out, path, replay, bytes, &scheduled.seats, map, &registry())?;
                "replay".to_string()
            }
            Event::Recorded { .. } => "recorded".to_string(),
            Event::LeaderboardWritten { out, title, leaderboard, results } => {
                view::league::publish(out, title, leaderboard, results)?;
                "leaderboard".to_string()
            }
            Event::Failed { scheduled, error } => format!("failed {}: {error}", scheduled.key),
            Event::Changed(_)
            | Event::Started(_)
            | Event::Ended(_)
            | Event::Warning(_)
            | Event::Building(_)
            | Event::Built { .. } => return Ok(()),
        };
        self.events.lock().unwrap().push(what);
        Ok(())
    }
}

/// A page as headless Chromium shows it once its scripts ran: the DOM, serialised.
fn rendered(page: &Path) -> String {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| std::process::Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
        .expect("Chromium is needed to check the viewer's generic renderer: `apt-get install chromium`");
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_toy_game_plays_a_tournament_and_shows_in_the_generic_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("league");
    let mut config =
        TournamentConfig::from_toml("game = \"coins\"\nseed = 3\njobs = 2", Path::new("coins.toml")).unwrap();
    for (name, command) in [("perfect", PERFECT), ("one", ONE_AT_A_TIME), ("grabber", GRABBER)] {
        let bot = BotEntry {
            name: name.to_string(),
            command: command.to_string(),
            cwd: None,
            build: None,
            files: Vec::new(),
            ignore: Vec::new(),
        };
        config.put_bot(bot);
    }
    let recorder = Recorder { events: Default::default(), out: out.clone() };
    let summary =
        tournament::run(config, &out, &RunOptions::default(), &registry(), &recorder, CancellationToken::new())
            .expect("the league runs");
    assert_eq!((summary.played, summary.failed.len()), (6, 0), "{summary:?}");
    let events = recorder.events.into_inner().unwrap();
    assert_eq!(events.first().map(String::as_str), Some("planned 6"), "{events:?}");
    assert_eq!(events[1], "executing 6 (0 done)");
    assert_eq!(events.iter().filter(|e| *e == "replay").count(), 6, "{events:?}");
    assert_eq!(events.iter().filter(|e| *e == "recorded").count(), 6, "{events:?}");
    assert_eq!(events.last().map(String::as_str), Some("leaderboard"), "{events:?}");
    // The perfect player wins every match; the grabber forfeits every one it moves in.
    let ranked: Vec<(&str, u32)> = summary.leaderboard.rows.iter().map(|r| (r.bot.as_str(), r.wins)).collect();
    assert_eq!(ranked, [("perfect", 4), ("one", 2), ("grabber", 0)], "{}", summary.leaderboard.table());
    for file in ["results.jsonl", "leaderboard.json", "leaderboard.md", "index.html", "bots/perfect.html"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    // The toy has no renderer of its own: its replays show as the viewer's table of steps.
    let line = &arena::tournament::results::read_all(&out).unwrap()[0];
    let replay = Replay::load(&out.join(&line.replay)).unwrap();
    audit(&replay, &registry()).expect("the league's replay verifies");
    let page = dir.path().join("coins.html");
    std::fs::write(&page, view::replay_page(&replay, &registry())).unwrap();
    let league_page = out.join(arena::replay::page_path(&line.replay));
    for page in [page, league_page] {
        let dom = rendered(&page);
        assert!(dom.contains(r#"data-renderer="generic""#), "{}: {dom}", page.display());
        assert_eq!(dom.matches("<tr").count(), replay.steps.len() + 3, "header, start, steps, result: {dom}");
        let first = replay.steps[0].replies[0].answer.clone().unwrap();
        assert!(dom.contains(&format!("<td>{first}</td>")), "the first answer, {first}: {dom}");
        let start = format!(r#"<td class="frame">{}</td>"#, replay.initial);
        assert!(dom.contains(&start), "the frames as text, {start}: {dom}");
    }
    // Control: a game with a renderer of its own does not get the table.
    let mut other = replay.clone();
    other.game = "lcr".to_string();
    assert!(view::replay_page(&other, &registry()).contains("window.arena.renderer = function"));
    assert!(!view::replay_page(&replay, &registry()).contains("window.arena.renderer = function"));
}
