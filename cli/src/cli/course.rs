//! `arena test`, `arena gen-tests` and `arena solve`: the course's single-player tests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use arena::explain::Silence;
use arena::files::write_atomic;
use arena::games::resource_rush::{load_map_file, ResourceRushGame};
use arena::referee::ClockKind;
use course::checker::{discover, minimums_path, run_test, transcript, CheckerError, ANSWER_TIME};
use course::solver::{solve as solve_map, Budget, Solution};
use course::testgen::{generate, minimums_file};

use super::{GenTestsArgs, SolveArgs, TestArgs};

/// The folder of tests `arena test` plays, and the temporary folder holding it (kept for the
/// run) where it is the arena's own: `given` (`--tests DIR`); else the repository's `maps/tests`,
/// else the `tests/` of a bot folder made by `arena new-bot`, else the 20 tests built into the
/// arena (before, from any other folder the command failed until given `--tests`).
///
/// `only` (`--only K`) that is none of the built-in tests is refused before their temporary
/// folder is made: the error named that folder, gone by the time it was read.
fn tests_folder(given: Option<&Path>, only: Option<usize>) -> anyhow::Result<(PathBuf, Option<tempfile::TempDir>)> {
    let here =
        || std::env::current_dir().map_or_else(|_| "the current folder".to_string(), |d| d.display().to_string());
    if let Some(dir) = given {
        anyhow::ensure!(
            dir.exists(),
            "{}: no such folder of tests (relative to {}): give the tests' folder with --tests DIR, or leave it \
             out to play the 20 tests built into the arena",
            dir.display(),
            here()
        );
        return Ok((dir.to_path_buf(), None));
    }
    let repository = Path::new("maps/tests");
    let kit = Path::new("tests");
    if repository.is_dir() {
        return Ok((repository.to_path_buf(), None));
    }
    if kit.join("test1.txt").is_file() || kit.join("input").is_dir() {
        tell!("tests: {}/tests (give --tests DIR for others)", here());
        return Ok((kit.to_path_buf(), None));
    }
    let numbers = arena::games::resource_rush::kit::builtin_test_numbers();
    if let Some(k) = only.filter(|k| !numbers.contains(k)) {
        anyhow::bail!(
            "there is no test {k}: the tests built into the arena are {} (no maps/tests or tests/ in {}; give --tests \
             DIR for others)",
            course::checker::numbers_text(&numbers),
            here()
        );
    }
    let built_in = tempfile::Builder::new()
        .prefix("arena-tests-")
        .tempdir()
        .context("cannot make a temporary folder for the built-in tests")?;
    arena::games::resource_rush::kit::write_builtin_tests(built_in.path())
        .with_context(|| format!("cannot write the built-in tests into {}", built_in.path().display()))?;
    tell!("tests: the 20 built into the arena (no maps/tests or tests/ in {}; give --tests DIR for others)", here());
    Ok((built_in.path().to_path_buf(), Some(built_in)))
}

/// Runs `arena test`.
pub fn test(args: TestArgs) -> anyhow::Result<ExitCode> {
    let (tests, _built_in) = tests_folder(args.tests.as_deref(), args.only)?;
    let mut cases = discover(&tests)?;
    if let Some(k) = args.only {
        let found: Vec<usize> = cases.iter().map(|c| c.number).collect();
        cases.retain(|c| c.number == k);
        if cases.is_empty() {
            return Err(CheckerError::NoSuchTest { number: k, dir: tests.clone(), found }.into());
        }
    }
    let unjudged: Vec<String> =
        cases.iter().filter(|c| c.minimum.is_none()).map(|c| format!("test{}", c.number)).collect();
    if !unjudged.is_empty() && !args.no_minimums {
        let path = minimums_path(&tests);
        let why = if path.exists() {
            format!("{} has no line for {}", path.display(), if unjudged.len() == 1 { "it" } else { "them" })
        } else {
            format!("{} does not exist", path.display())
        };
        anyhow::bail!(
            "no minimum for {} ({why}): add it, or pass --no-minimums to play tests without one (each then \
             passes by reaching the final)",
            unjudged.join(", "),
        );
    }
    // A process may think 5 s of CPU time at every tick, as the course allows (the sandbox's
    // default, 10 s for a whole game, failed honest bots that think a few seconds a tick).
    let rounds = cases.iter().map(|c| u64::from(c.rounds())).max().unwrap_or(0);
    let sandbox = args.sandbox.sandbox_with(|limits| {
        limits.cpu_seconds = Some(ANSWER_TIME.as_secs() * (rounds + 1));
    })?;
    let outputs: Vec<&std::path::PathBuf> =
        [&args.transcripts, &args.replays, &args.logs].into_iter().flatten().collect();
    for dir in &outputs {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    refuse_what_the_bot_would_see(&tests, &outputs, &args.bot, &cases, &sandbox)?;
    let cancel = super::signals::cancel_on_signals("ending the bot")?;
    // Like the course's own checker: wall time, unless asked otherwise.
    let clock = (args.clock.clock.unwrap_or(ClockKind::Wall), args.clock.backstop_factor);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (mut passed, mut failed, mut forfeits) = (0, 0, 0);
    let mut reports = Vec::new();
    // Why a bot idle at its first TICK never answered, probed once (the same in every test).
    let mut silence = None;
    for case in &cases {
        let mut report = runtime.block_on(run_test(case, &args.bot, args.piped, clock, &sandbox, &cancel))?;
        if !args.piped {
            let facts = arena::explain::forfeit_facts(&report.played.replay);
            if let Some(fact) = facts.first().filter(|f| {
                f.tick == Some(1) && f.activity() == Some(arena::explain::Activity::Idle) && f.reason == "timeout"
            }) {
                let silence = match silence {
                    Some(known) => known,
                    None => {
                        let probe = arena::doctor::why_silent(&ResourceRushGame, &args.bot, &sandbox, &cancel);
                        *silence.insert(runtime.block_on(probe)?)
                    }
                };
                report.reason = waiting_reason(fact, silence, &args.bot).or(report.reason);
            }
        }
        let name = format!("test{:02}", case.number);
        if let Some(dir) = &args.replays {
            // The bot's stderr goes beside its replay, as `arena duel` does (when it wrote any).
            report.played.save(&dir.join(format!("{name}.json")), &dir.join(format!("{name}.log")))?;
        }
        if let Some(dir) = &args.logs {
            let path = dir.join(format!("{name}.log"));
            write_atomic(&path, report.played.stderr_log().as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(dir) = &args.transcripts {
            let path = dir.join(format!("{name}.txt"));
            write_atomic(&path, transcript(&report.played.replay).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if report.passed {
            passed += 1;
        } else {
            failed += 1;
        }
        if !args.json {
            let minimum = report.minimum.map_or("-".to_string(), |m| m.to_string());
            say!(
                "{name}  {}  score {:>7}  min {:>7}  ticks {:>4}{}",
                if report.passed { "PASS" } else { "FAIL" },
                report.score,
                minimum,
                report.ticks,
                // (A timeout's reason names the limit and what the bot was doing: longer than a field.)
                report
                    .reason
                    .as_ref()
                    .map_or(String::new(), |r| format!("  {}", arena::safe_text::terminal_cut(r, 400)))
            );
            if let Some(line) = last_words(&report) {
                say!("        its stderr ends: {}", arena::safe_text::terminal(&arena::safe_text::shorten(&line, 300)));
            }
        }
        forfeits += usize::from(report.played.replay.result.players.first().is_some_and(|p| p.forfeit.is_some()));
        reports.push(report);
    }
    if forfeits > 0 && args.logs.is_none() && args.replays.is_none() {
        tell!(
            "{forfeits} test(s) ended in a forfeit: --logs DIR keeps the bot's whole stderr of each test, and \
             `{} check-bot {}` explains what went wrong",
            super::arena_command(),
            super::shell_word(&args.bot)
        );
    }
    if args.json {
        // stdout holds the JSON alone, so that it parses; the count goes to stderr.
        say!("{}", arena::safe_text::json(&reports, true)?);
        tell!("{passed} passed, {failed} failed");
    } else {
        say!("{passed} passed, {failed} failed");
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The reason of a test whose bot, idle, never answered `TICK 1`, when a probe found what it
/// waited for (`silence`): a bot that waits for the end of its input is sent to `--piped`.
fn waiting_reason(fact: &arena::explain::ForfeitFact, silence: Silence, bot: &str) -> Option<String> {
    let detail = fact.timeout_detail_knowing("TICK", silence)?;
    Some(match silence {
        Silence::EndOfInput => format!(
            "forfeit timeout: {detail}. Run the tests with `{} test {} --piped` (each test file sent whole, then \
             the end of input), or answer each TICK as soon as it arrives",
            super::arena_command(),
            super::shell_word(bot)
        ),
        _ => format!("forfeit timeout: {detail}"),
    })
}

/// How the stderr of a bot that forfeited a test ends (a crash's message, often), if it wrote
/// any: said under the test's line, so that a crash is not only "the bot exited".
fn last_words(report: &course::checker::TestReport) -> Option<String> {
    report.played.replay.result.players.first()?.forfeit.as_ref()?;
    arena::explain::stderr_ends(&report.played.stderr_text(0))
}

/// Refuses to run tests that are not the public 20 where the bot's box shows the tests folder
/// (the bot would read every test: its scripted opponent's moves, the minimums), or to write
/// their replays, transcripts or logs into a folder it shows (it would read them in a later
/// run): the system's folders, the bot's own, or its script's.
fn refuse_what_the_bot_would_see(
    tests: &std::path::Path,
    outputs: &[&std::path::PathBuf],
    bot: &str,
    cases: &[course::checker::TestCase],
    sandbox: &arena::sandbox::Sandbox,
) -> anyhow::Result<()> {
    if !sandbox.isolation().boxed || cases.iter().all(|c| arena::games::resource_rush::kit::is_public_test(&c.text)) {
        return Ok(());
    }
    let shown = arena::sandbox::shown_paths(&shell_words::split(bot).unwrap_or_default(), None);
    let seen = |dir: &std::path::Path| {
        let real = std::fs::canonicalize(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        anyhow::Ok(shown.iter().find(|p| real.starts_with(p)).cloned())
    };
    if let Some(at) = seen(tests)? {
        anyhow::bail!(
            "{}: the bot's box shows it {}, so it could read every test (the scripted opponent's moves, the \
             minimums): keep tests that are not public outside it",
            tests.display(),
            at.display()
        );
    }
    for dir in outputs {
        if let Some(at) = seen(dir)? {
            let _ = std::fs::remove_dir(dir);
            anyhow::bail!(
                "{}: the bot's box shows it {}, so in a later run it could read these tests' replays, \
                 transcripts or logs (every move of the scripted opponent, the minimums): write them outside it",
                dir.display(),
                at.display()
            );
        }
    }
    Ok(())
}

/// Runs `arena gen-tests`.
pub fn gen_tests(args: GenTestsArgs) -> anyhow::Result<ExitCode> {
    let tests = generate(args.seed).context("cannot generate the tests")?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut readme = format!(
        "# The 20 single-player tests\n\nGenerated by `arena gen-tests --seed {}`; do not edit by hand.\n\n\
         Each minimum is 3/4 of the `reference` strategy's score (rounded down); on the tests marked easy it is\n\
         also never above what `greedy` scores, so the `greedy` sample bot passes them. Easy means easy for a bot\n\
         that weighs each item's value against its distance and takes D and T early, as `greedy` does: a bot that\n\
         just walks to the nearest resource can still fall below an easy test's minimum.\n\n| test | what it exercises | minimum | reference | greedy |\n| --- | --- | --- | --- | --- |\n",
        args.seed,
    );
    for t in &tests {
        let path = args.out.join(format!("test{}.txt", t.number));
        write_atomic(&path, t.text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        readme.push_str(&format!(
            "| test{} | {}{} | {} | {} | {} |\n",
            t.number,
            t.title,
            if t.easy { " (easy)" } else { "" },
            t.minimum,
            t.reference,
            t.greedy.map_or("does not finish".to_string(), |g| g.to_string())
        ));
        say!("test{}: {} (minimum {})", t.number, t.title, t.minimum);
    }
    let path = args.out.join("limite_minime.txt");
    write_atomic(&path, minimums_file(&tests).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    let path = args.out.join("README.md");
    write_atomic(&path, readme.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena solve`.
pub fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let spec = load_map_file(&args.map)?;
    let mut budget = Budget { time_limit: std::time::Duration::from_secs(args.work_seconds), ..Budget::default() };
    budget.plan.quick_states = budget.plan.quick_states.min(args.state_limit);
    budget.plan.first_certify_states = budget.plan.first_certify_states.min(args.state_limit);
    budget.plan.exact_states = args.state_limit;
    let solved = solve_map(&spec, &budget, None);
    if solved.backstopped {
        tracing::warn!(
            "CPU time ended the solve before its work did (a machine much slower than the README's): another machine may find otherwise"
        );
    }
    match solved.solution {
        Solution::Exact(score) => say!("{}: optimum {score} (exact)", args.map.display()),
        Solution::Bounded { best, bound } => say!(
            "{}: best plan found {best}, at most {bound} (certified upper bound; gap {:.1} %)",
            args.map.display(),
            solved.solution.gap() * 100.0
        ),
        Solution::Impossible => say!("{}: the final cannot be reached in time", args.map.display()),
    }
    Ok(ExitCode::SUCCESS)
}
