//! `arena-bench`: measures the referee against a raw floor, and tournament throughput.
//!
//! Run `cargo build --release --workspace && target/release/arena-bench` from the repository
//! root. It uses the `waiter` sample bot (a minimal compiled bot) built next to it and
//! `maps/duel.txt` (200 rounds; two waiters play all of them).
//!
//! - (a) raw floor: the same process spawns and line round trips as a duel, through plain
//!   pipes with blocking I/O and no game logic;
//! - (b) a 200-tick duel through the referee (`play_match`), without and with writing the
//!   replay;
//! - (c) tournament throughput for 10 bots (180 duels) on `maps/duel.txt` at `-j 1` and `-j 2`
//!   with the default sandbox (five alternating runs of each, medians reported).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arena::engine::MatchOptions;
use arena::games;
use arena::referee::{play_match, BotCommand, Limits};
use arena::sandbox::{Sandbox, SandboxLimits, SandboxMode};
use arena::tournament::config::{BotEntry, TournamentConfig};
use bot_sdk::MapSpec;
use tokio_util::sync::CancellationToken;

const MAP: &str = "maps/duel.txt";

fn main() -> anyhow::Result<()> {
    let duels: usize = std::env::args().nth(1).map_or(Ok(40), |a| a.parse()).context("usage: arena-bench [DUELS]")?;
    let exe = std::env::current_exe()?;
    let dir = exe.parent().context("binary folder")?;
    let waiter = dir.join("waiter");
    if !waiter.is_file() {
        bail!("{} not found: run `cargo build --release --workspace` first", waiter.display());
    }
    let spec =
        MapSpec::parse(&std::fs::read_to_string(MAP).with_context(|| format!("{MAP}: run from the repository root"))?)?;
    let ticks = spec.rounds as usize;
    println!("arena-bench: {duels} duels of {ticks} ticks, waiter vs waiter on {MAP}; {} cores", cores());

    // Warm-up, so that the first spawn's page cache misses are in neither figure.
    raw_duel(&waiter, &spec)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;

    let start = Instant::now();
    for _ in 0..duels {
        raw_duel(&waiter, &spec)?;
    }
    let raw = start.elapsed() / duels as u32;

    let tmp = tempfile::tempdir()?;
    let sandbox = Sandbox::new(SandboxMode::Auto, SandboxLimits::default())?;
    let bare = Sandbox::new(SandboxMode::None, SandboxLimits::default())?;
    let sandboxed = runtime.block_on(async {
        let t = Instant::now();
        for _ in 0..duels {
            referee_duel(&waiter, &sandbox).await?;
        }
        anyhow::Ok(t.elapsed() / duels as u32)
    })?;
    let (referee, with_replay) = runtime.block_on(async {
        let mut plain = Duration::ZERO;
        let mut saving = Duration::ZERO;
        for i in 0..duels {
            let t = Instant::now();
            let played = referee_duel(&waiter, &bare).await?;
            plain += t.elapsed();
            let t = Instant::now();
            played.replay.save(&tmp.path().join(format!("{i}.json")))?;
            saving += t.elapsed();
        }
        anyhow::Ok((plain / duels as u32, (plain + saving) / duels as u32))
    })?;

    // Alternate -j 1 and -j 2 five times and keep the medians: one short run is noisy.
    let (mut j1s, mut j2s) = (Vec::new(), Vec::new());
    for round in 0..5 {
        j1s.push(tournament(&waiter, 1, &tmp.path().join(format!("r{round}")))?);
        j2s.push(tournament(&waiter, 2, &tmp.path().join(format!("r{round}")))?);
    }
    let show = |v: &[f64]| v.iter().map(|x| format!("{x:.0}")).collect::<Vec<_>>().join(", ");
    let runs = format!("-j 1 runs: {}; -j 2 runs: {}", show(&j1s), show(&j2s));
    let (j1, j2) = (median(j1s), median(j2s));

    println!();
    println!("(a) raw floor (spawn 2 bots, {ticks} round trips each, plain pipes): {:.2} ms per duel", ms(raw));
    println!("(b) referee duel (play_match, resource limits only): {:.2} ms per duel", ms(referee));
    println!("    + replay written and synced:                     {:.2} ms per duel", ms(with_replay));
    println!("    with the full sandbox (network namespace, cgroup): {:.2} ms per duel", ms(sandboxed));
    println!(
        "    overhead (b)/(a) = {:.2}  (target <= 1.3); with the replay write: {:.2}",
        ratio(referee, raw),
        ratio(with_replay, raw)
    );
    println!("(c) tournament, 10 bots, 180 duels (2 games per pairing, both sides) on {MAP}:");
    println!("    -j 1: {:.1} duels/s (median of 5)", j1);
    println!("    -j 2: {:.1} duels/s (median of 5)", j2);
    println!("    ({runs})");
    println!("    speed-up -j 2 / -j 1 = {:.2}  (target >= 1.8 on 2 cores)", j2 / j1);
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// (a): two bot processes, the header, then one TICK line and one answer per tick each.
fn raw_duel(bot: &Path, spec: &MapSpec) -> anyhow::Result<()> {
    let mut children = Vec::new();
    for me in 0..2 {
        let mut child = Command::new(bot).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
        let mut stdin = child.stdin.take().context("stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("stdout")?);
        stdin.write_all(spec.header_for(me).as_bytes())?;
        children.push((child, stdin, stdout));
    }
    let mut line = String::new();
    for t in 1..=spec.rounds {
        let tick = format!("TICK {t} WAIT\n");
        for (_, stdin, _) in children.iter_mut() {
            stdin.write_all(tick.as_bytes())?;
            stdin.flush()?;
        }
        for (_, _, stdout) in children.iter_mut() {
            line.clear();
            if stdout.read_line(&mut line)? == 0 {
                bail!("bot closed its stdout");
            }
        }
    }
    for (mut child, stdin, _) in children {
        drop(stdin);
        child.wait()?;
    }
    Ok(())
}

/// (b): one duel through the referee.
async fn referee_duel(bot: &Path, sandbox: &Sandbox) -> anyhow::Result<arena::referee::PlayedMatch> {
    let game = games::by_name(games::resource_rush::NAME)?;
    let state =
        game.new_match(&MatchOptions { map: Some(PathBuf::from(MAP)), players: Some(2), ..Default::default() })?;
    let bots: Vec<BotCommand> = (1..=2)
        .map(|i| BotCommand { name: format!("w{i}"), command: bot.display().to_string(), cwd: None, env: Vec::new() })
        .collect();
    Ok(play_match(game.name(), state, &bots, &Limits::default(), 1, sandbox, &CancellationToken::new()).await?)
}

/// (c): duels per second of a 10-bot round robin with `jobs` matches at once.
fn tournament(bot: &Path, jobs: usize, tmp: &Path) -> anyhow::Result<f64> {
    let mut config = TournamentConfig::from_toml(&format!("maps = [{MAP:?}]"), Path::new("<bench>"))?;
    config.jobs = Some(jobs);
    config.games = 2;
    for i in 0..10 {
        config.put_bot(BotEntry {
            name: format!("w{i}"),
            command: bot.display().to_string(),
            cwd: None,
            build: None,
            files: Vec::new(),
            ignore: Vec::new(),
        });
    }
    let out = tmp.join(format!("tournament-j{jobs}"));
    let start = Instant::now();
    let summary = arena::tournament::run(config, &out, &Default::default(), CancellationToken::new())?;
    Ok(summary.played as f64 / start.elapsed().as_secs_f64())
}
