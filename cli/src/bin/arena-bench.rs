//! `arena-bench`: the referee and tournaments against a raw floor, wall and CPU time.
//!
//! Run `cargo build --release --workspace && target/release/arena-bench [DUELS]` from the
//! repository root. It uses the `waiter` sample bot (a minimal compiled bot) built next to it
//! and `maps/duel.txt` (200 rounds; two waiters play all of them). Every figure is per duel,
//! wall time and CPU time (user + system, of this process and every bot it ran):
//!
//! - (a) raw floor: the same process spawns and line round trips as a duel, through plain
//!   pipes with blocking I/O, no game logic, no box;
//! - (b) a duel through the referee (`play_match`) without a box (`--sandbox none`), and with
//!   the full box (namespaces, cgroups, user);
//! - (c) a tournament of 10 bots on the course map at `-j 1`, as `arena tournament` runs it
//!   (replays, pages, results synced; default box), and the same without the box;
//! - (d) `-j 2` throughput against two floors running side by side.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arena::engine::MatchOptions;
use arena::games;
use arena::referee::{cpus, play_match, BotCommand, Limits};
use arena::sandbox::{Sandbox, SandboxLimits, SandboxMode};
use arena::tournament::config::{BotEntry, TournamentConfig};
use arena::tournament::{Event, TournamentError};
use bot_sdk::MapSpec;
use tokio_util::sync::CancellationToken;

const MAP: &str = "maps/duel.txt";

/// Wall and CPU time of a piece of work.
#[derive(Debug, Clone, Copy)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

impl Cost {
    fn per(self, n: usize) -> Cost {
        Cost { wall: self.wall / n as u32, cpu: self.cpu / n as u32 }
    }

    fn show(self) -> String {
        format!("{:6.2} ms wall, {:6.2} ms CPU", ms(self.wall), ms(self.cpu))
    }
}

/// CPU time (user + system) of this process and of every child it has waited for.
fn cpu_used() -> Duration {
    let of = |who| {
        // SAFETY: getrusage writes into the struct we own.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut u) };
        let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
        t(u.ru_utime) + t(u.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// Runs `work` and measures it.
fn measure<T>(work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<(Cost, T)> {
    let (t, c) = (Instant::now(), cpu_used());
    let out = work()?;
    Ok((Cost { wall: t.elapsed(), cpu: cpu_used() - c }, out))
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: arena-bench [DUELS] | arena-bench --only floor|plain|box|spawn N (one kind, for a \
                 profiler; ARENA_BENCH_ONE_CPU=1 keeps it on one CPU)";
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{usage}");
        return Ok(());
    }
    if let [flag, kind, n] = &args[..] {
        if flag == "--only" {
            return only(kind, n.parse().context(usage)?);
        }
    }
    let duels: usize = args.first().map_or(Ok(40), |a| a.parse()).context(usage)?;
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

    // Warm-up, so that the first spawn's page cache misses are in no figure.
    raw_duel(&waiter, &spec)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let boxed = Sandbox::new(SandboxMode::Auto, SandboxLimits::default())?;
    let bare = Sandbox::new(SandboxMode::None, SandboxLimits::default())?;
    let isolation = boxed.isolation();

    let referee = |sandbox: &Sandbox| {
        measure(|| {
            runtime.block_on(async {
                for _ in 0..duels {
                    referee_duel(&waiter, sandbox).await?;
                }
                anyhow::Ok(())
            })
        })
    };
    let floor = || measure(|| (0..duels).try_for_each(|_| raw_duel(&waiter, &spec)));
    let (raw, ()) = floor()?;
    let (plain, ()) = referee(&bare)?;
    let (in_box, ()) = referee(&boxed)?;
    // The same on one CPU, as `arena duel` and tournaments on the CPU clock run (`referee::cpus`).
    let here = cpus::from_here();
    cpus::pin_thread(here[0]);
    let (raw1, ()) = floor()?;
    let (plain1, ()) = referee(&bare)?;
    let (box1, ()) = referee(&boxed)?;
    cpus::unpin_thread();
    let per = |c: Cost| c.per(duels);
    let (raw, plain, in_box, raw1, plain1, box1) =
        (per(raw), per(plain), per(in_box), per(raw1), per(plain1), per(box1));

    let tmp = tempfile::tempdir()?;
    let (t_box, n) = tournament(&waiter, 1, SandboxMode::Auto, &tmp.path().join("box"))?;
    let (t_bare, m) = tournament(&waiter, 1, SandboxMode::None, &tmp.path().join("bare"))?;
    let (t_box, t_bare) = (t_box.per(n), t_bare.per(m));
    let (t_j2, k) = tournament(&waiter, 2, SandboxMode::Auto, &tmp.path().join("j2"))?;
    // Two floors side by side, each on a CPU of its own as -j 2 keeps its matches, together
    // as many duels as -j 2 played.
    let (floors, ()) = measure(|| {
        let half = k / 2;
        std::thread::scope(|s| {
            let side = |cpu: usize, n: usize| {
                let (waiter, spec) = (&waiter, &spec);
                s.spawn(move || {
                    cpus::pin_thread(cpu);
                    (0..n).try_for_each(|_| raw_duel(waiter, spec))
                })
            };
            let a = side(here[0], half);
            let b = side(here[1 % here.len()], k - half);
            a.join().map_err(|_| anyhow::anyhow!("a floor thread panicked"))??;
            b.join().map_err(|_| anyhow::anyhow!("a floor thread panicked"))??;
            anyhow::Ok(())
        })
    })?;
    let rate = |c: Cost, n: usize| n as f64 / c.wall.as_secs_f64();

    println!("box: {}", if isolation.missing.is_empty() { "full".to_string() } else { isolation.missing.join("; ") });
    println!();
    println!("                                                  free to move            on one CPU");
    let row = |name: &str, free: Cost, one: Cost| println!("{name:<42} {}   {}", free.show(), one.show());
    row("(a) raw floor (plain pipes, no referee)", raw, raw1);
    row("(b) referee duel, no box (--sandbox none)", plain, plain1);
    row("    referee duel in the box", in_box, box1);
    let ratios = |c: Cost, f: Cost| format!("{:.2} wall, {:.2} CPU", ratio(c.wall, f.wall), ratio(c.cpu, f.cpu));
    println!(
        "    referee/floor, no box: {} free; {} on one CPU (target <= 1.2)",
        ratios(plain, raw),
        ratios(plain1, raw1)
    );
    println!("    referee/floor, box:    {} free; {} on one CPU", ratios(in_box, raw), ratios(box1, raw1));
    println!("(c) tournament -j 1, 10 bots, {n} duels, replays + pages, box:     {}", t_box.show());
    println!("    the same without the box:                                   {}", t_bare.show());
    println!(
        "    tournament/floor on one CPU per duel: {} (target <= 2); box/no box throughput: {:.2}",
        ratios(t_box, raw1),
        ratio(t_bare.wall, t_box.wall)
    );
    println!(
        "(d) -j 2: {:.1} duels/s; two floors side by side: {:.1} duels/s; ratio {:.2} (target >= 0.8)",
        rate(t_j2, k),
        rate(floors, k),
        rate(t_j2, k) / rate(floors, k)
    );
    println!("    -j 2 CPU per duel: {:.2} ms; floors: {:.2} ms", ms(t_j2.per(k).cpu), ms(floors.per(k).cpu));
    Ok(())
}

/// Plays `duels` duels of one kind and nothing else: what `perf record` should look at.
fn only(kind: &str, duels: usize) -> anyhow::Result<()> {
    if std::env::var_os("ARENA_BENCH_ONE_CPU").is_some() {
        cpus::pin_slot(&cpus::from_here(), 0);
    }
    let waiter = std::env::current_exe()?.parent().context("binary folder")?.join("waiter");
    let spec =
        MapSpec::parse(&std::fs::read_to_string(MAP).with_context(|| format!("{MAP}: run from the repository root"))?)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let mode = match kind {
        "floor" => return (0..duels).try_for_each(|_| raw_duel(&waiter, &spec)),
        "spawn" => {
            // Boxes alone: make a box, run `true` in it, end it.
            let sandbox = Sandbox::new(SandboxMode::Auto, SandboxLimits::default())?;
            let words = ["true".to_string()];
            for _ in 0..duels {
                let launch =
                    arena::sandbox::Launch { words: &words, folder: None, env: &[], build: false, read_only: &[] };
                let (mut command, mut handle) = sandbox.command(&launch)?;
                let mut child = command.spawn().map_err(arena::sandbox::StartFault::readable)?;
                handle.started(child.id());
                child.wait()?;
                handle.release();
            }
            return Ok(());
        }
        "plain" => SandboxMode::None,
        "box" => SandboxMode::Auto,
        other => bail!("--only {other}: expected floor, plain, box or spawn"),
    };
    let sandbox = Sandbox::new(mode, SandboxLimits::default())?;
    runtime.block_on(async {
        for _ in 0..duels {
            referee_duel(&waiter, &sandbox).await?;
        }
        anyhow::Ok(())
    })
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

/// (c), (d): a 10-bot round robin (90 duels) with `jobs` matches at once; its cost and duels.
fn tournament(bot: &Path, jobs: usize, sandbox: SandboxMode, out: &Path) -> anyhow::Result<(Cost, usize)> {
    let mut config = TournamentConfig::from_toml(&format!("maps = [{MAP:?}]"), Path::new("<bench>"))?;
    config.jobs = Some(jobs);
    config.sandbox = sandbox;
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
    let registry = games::registry();
    // The pages are written as the `arena` command writes them, so that they count in the figures.
    let pages = |event: Event<'_>| match event {
        Event::ReplaySaved { out, scheduled, map, replay, path, bytes } => {
            arena::view::league::write_replay_page(out, path, replay, bytes, &scheduled.seats, map, &registry)
                .map_err(TournamentError::from)
        }
        Event::LeaderboardWritten { out, title, leaderboard, results } => {
            arena::view::league::publish(out, title, leaderboard, results).map_err(TournamentError::from)
        }
        _ => Ok(()),
    };
    let cancel = CancellationToken::new();
    let (cost, summary) =
        measure(|| Ok(arena::tournament::run(config, out, &Default::default(), &registry, &pages, cancel)?))?;
    Ok((cost, summary.played))
}
