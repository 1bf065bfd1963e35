//! `pages-bench`: writes the league pages (`index.html`, one page per bot, the shared assets)
//! of a synthetic round robin, without playing any match, and says how large they are and how
//! long writing them took. For the README's figures and the browser test of a large class.
//!
//! `target/release/pages-bench --bots 300 --maps 1 --out /tmp/league-300`
//!
//! Every pair of bots meets on every map from both sides; a bot's score is its strength plus
//! noise; about one match in twenty ends in a forfeit (with its facts recorded, as a
//! tournament does); the last bots of the list could not be built. Replays are not written:
//! the pages' replay links point where a tournament would put them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use arena::explain::ForfeitFact;
use arena::referee::ClockKind;
use arena::replay::{LimitKind, MatchResult, PlayerResult};
use arena::standings::maps::MapNames;
use arena::tournament::config::ForfeitRule;
use arena::tournament::leaderboard::{compute, Input};
use arena::tournament::results::ResultLine;
use arena::tournament::{write_leaderboard, Event, TournamentError};
use rand::{Rng, SeedableRng};

struct Args {
    bots: usize,
    maps: usize,
    failed: usize,
    seed: u64,
    out: PathBuf,
}

const USAGE: &str = "usage: pages-bench [--bots N >= 2] [--maps M >= 1] [--failed K < N] [--seed S] --out DIR";

/// The arguments, or `None` when asked for help (`-h`, `--help`).
fn args() -> anyhow::Result<Option<Args>> {
    let mut a = Args { bots: 300, maps: 1, failed: 3, seed: 1, out: PathBuf::new() };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let mut value = || it.next().with_context(|| format!("{flag} needs a value ({USAGE})"));
        match flag.as_str() {
            "--bots" => a.bots = value()?.parse().context("--bots N")?,
            "--maps" => a.maps = value()?.parse().context("--maps M")?,
            "--failed" => a.failed = value()?.parse().context("--failed K")?,
            "--seed" => a.seed = value()?.parse().context("--seed S")?,
            "--out" => a.out = PathBuf::from(value()?),
            _ => bail!("unknown option `{flag}` ({USAGE})"),
        }
    }
    if a.out.as_os_str().is_empty() || a.bots < 2 || a.maps < 1 || a.failed >= a.bots {
        bail!("{USAGE}");
    }
    Ok(Some(a))
}

/// CPU time this process has used so far, in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

fn main() -> anyhow::Result<()> {
    let Some(a) = args()? else {
        println!("{USAGE}\n\nWrites the pages of a synthetic round robin of N bots on M maps (K of them not built) into DIR.");
        return Ok(());
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(a.seed);
    let names: Vec<String> = (0..a.bots).map(|i| format!("bot-{i:03}")).collect();
    let playing = a.bots - a.failed;
    let strength: Vec<f64> = (0..a.bots).map(|_| rng.random_range(0.0..1.0)).collect();
    let failures: BTreeMap<String, String> = names[playing..]
        .iter()
        .map(|n| (n.clone(), "build `make` failed (exit status: 2): main.c:3: error: expected ';'".to_string()))
        .collect();
    let mut results = Vec::new();
    for map in 0..a.maps {
        for i in 0..playing {
            for j in 0..playing {
                if i == j {
                    continue;
                }
                let seats = [i, j];
                let key = format!("map{map}-g1-{}-vs-{}-{:010x}", names[i], names[j], rng.random::<u64>() >> 24);
                let mut players = Vec::new();
                let mut forfeits = Vec::new();
                for (s, &b) in seats.iter().enumerate() {
                    let forfeit = rng.random_range(0..20) == 0;
                    let score = if forfeit { 0 } else { (strength[b] * 4000.0 + rng.random_range(0.0..1500.0)) as i64 };
                    if forfeit {
                        let tick = rng.random_range(1..200);
                        forfeits.push(ForfeitFact {
                            player: s,
                            reason: "timeout".into(),
                            tick: Some(tick),
                            ms: Some(1004),
                            cpu_ms: Some(1001),
                            limit_ms: Some(1000),
                            limit: Some(LimitKind::Answer),
                            clock: Some(ClockKind::Cpu),
                            backstop_ms: Some(5000),
                            backstop_slack_ms: None,
                            ended: None,
                        });
                    }
                    players.push(PlayerResult {
                        name: names[b].clone(),
                        score,
                        finished: !forfeit,
                        forfeit: forfeit.then(|| "timeout".to_string()),
                        detail: forfeit.then(|| "no answer within the time limit".to_string()),
                    });
                }
                let winner = match players[0].score.cmp(&players[1].score) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                results.push(ResultLine {
                    replay: format!("replays/{key}.json.gz"),
                    key,
                    seats: seats.iter().map(|&b| names[b].clone()).collect(),
                    map: PathBuf::from(format!("maps/map{map}.txt")),
                    game: 1,
                    seed: 0,
                    steps: 200,
                    result: MatchResult { players, winner },
                    versions: Vec::new(),
                    ended_at: Vec::new(),
                    at: 0,
                    forfeits,
                });
            }
        }
    }
    std::fs::create_dir_all(&a.out).with_context(|| format!("cannot create {}", a.out.display()))?;
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let board = compute(&Input {
        bots: &names,
        failures: &failures,
        results: &results,
        scheduled: results.len(),
        wins_first: false,
        forfeits: ForfeitRule::Loss,
        maps: &MapNames::default(),
    });
    let ranked = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let pages = |event: Event<'_>| match event {
        Event::LeaderboardWritten { out, title, leaderboard, results } => {
            arena::view::league::publish(out, title, leaderboard, results).map_err(TournamentError::from)
        }
        _ => Ok(()),
    };
    write_leaderboard(&a.out, &arena::tournament::league_title(&a.out), &board, &results, &pages)?;
    let written = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let size = |p: PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    let bots_bytes: u64 =
        std::fs::read_dir(a.out.join("bots"))?.flatten().map(|e| e.metadata().map_or(0, |m| m.len())).sum();
    println!("{} bots ({} could not play), {} maps, {} matches", a.bots, a.failed, a.maps, results.len());
    println!("leaderboard computed in {:.2} s ({:.2} s CPU)", ranked.0, ranked.1);
    println!("pages written in {:.2} s ({:.2} s CPU)", written.0, written.1);
    println!("index.html: {} KB", size(a.out.join("index.html")) / 1024);
    println!("bots/: {} pages, {} KB in all", a.bots, bots_bytes / 1024);
    println!("leaderboard.json: {} KB", size(a.out.join("leaderboard.json")) / 1024);
    Ok(())
}
