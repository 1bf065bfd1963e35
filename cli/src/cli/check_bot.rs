//! `arena check-bot [--game GAME] BOT`: plays a bot through short scripted situations and
//! explains each problem, with the fix.

use std::process::ExitCode;

use arena::doctor::{answered_none, can_check, check_bot, seems_of, Sign};
use arena::engine::Registry;
use arena::referee::ClockKind;
use clap::Args;

use super::{ClockArgs, LimitArgs, SandboxArgs};

/// Options of `arena check-bot`.
#[derive(Debug, Args)]
pub struct CheckBotArgs {
    /// The game the bot plays (`arena duel --help` lists them).
    #[arg(long, default_value = super::DEFAULT_GAME)]
    pub game: String,
    /// The bot's command line (split like a shell would): `./mybot`, `"python3 bot.py"`.
    pub bot: String,
    /// Time and size limits (as `arena duel`'s: a course's own, such as 5 s per answer, checked
    /// as it plays).
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
}

/// Runs `arena check-bot`.
pub fn run(args: CheckBotArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let game = games.get(&args.game)?;
    can_check(game)?;
    let sandbox = args.sandbox.sandbox()?;
    let cancel = super::signals::cancel_on_signals("ending the bot")?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    // The limits of a duel given the same flags, on its clock (`cpu` unless `--clock` says
    // otherwise), so that check-bot and a duel agree on whether a bot is late.
    let limits = args.limits.choices(&args.clock).limits();
    // Its probes run on the wall clock whatever the verdicts' clock: a warning of an overloaded
    // machine speaks of the verdicts'.
    arena::referee::judge_by(limits.clock);
    let clock = match limits.clock {
        ClockKind::Cpu => {
            "count CPU time, as in duels and tournaments (`--clock wall`: time on the clock, \
                           as the course's checker)"
        }
        ClockKind::Wall => {
            "count time on the clock, as the course's checker (`--clock cpu`: CPU \
                            time, as in duels and tournaments)"
        }
    };
    // The limits given, as they apply (the others are the rulings').
    let given = if args.limits.given().is_empty() {
        String::new()
    } else {
        format!(
            " ({} ms for the first answer, {} ms for each later one, {} ms for the game's answers in all)",
            limits.startup.as_millis(),
            limits.per_move.as_millis(),
            limits.total.as_millis()
        )
    };
    say!(
        "Checking `{}` as {} bot, in short scripted games (the opponent is a script); the time limits{given} {clock}…",
        args.bot,
        arena::starter::a_or_an(game.info().title)
    );
    let checked = runtime.block_on(check_bot(game, &args.bot, &limits, &sandbox, &cancel))?;
    let (mut problems, mut notes, mut repeated) = (0, 0, 0);
    for c in &checked {
        if let Some(first) = c.same_as.as_deref().filter(|_| c.failed()) {
            // The same cause as an earlier situation's: said and counted there; a stray line
            // quoted, as each is its own (`going to 3 4` there, `going to 5 1` here).
            let own = c.stray_line().map_or(String::new(), |line| format!(": here `{line}`"));
            say!(
                "{:<12} {:<8} {} (the same {} as in `{first}`, above{own})",
                c.name,
                "PROBLEM",
                c.summary,
                c.repeated()
            );
            repeated += 1;
            continue;
        }
        let verdict = if c.skipped {
            "-"
        } else if c.failed() {
            "PROBLEM"
        } else if c.findings.is_empty() {
            "ok"
        } else {
            "note"
        };
        say!("{:<12} {verdict:<8} {}", c.name, c.summary);
        for f in &c.findings {
            problems += usize::from(f.serious);
            notes += usize::from(!f.serious);
            say!("    {}", f.problem);
            if !f.fix.is_empty() {
                say!("    fix: {}", f.fix);
            }
        }
    }
    if problems == 0 {
        match notes {
            0 => say!("No problems found."),
            1 => say!("No problems found (1 note above)."),
            n => say!("No problems found ({n} notes above)."),
        }
        Ok(ExitCode::SUCCESS)
    } else {
        let played = checked.iter().filter(|c| !c.skipped).count();
        let failed = checked.iter().filter(|c| c.failed()).count();
        let s = if problems == 1 { "" } else { "s" };
        match repeated {
            0 => say!("{problems} problem{s} found."),
            _ if problems == 1 && failed == played => {
                say!("1 problem found: your bot failed the same way in all {played} situations.")
            }
            n => say!(
                "{problems} problem{s} found ({n} situation{} failed the same way as an earlier one, counted once).",
                if n == 1 { "" } else { "s" }
            ),
        }
        let seems = runtime.block_on(seems_of(game, &checked, games.games(), &args.bot, &sandbox, &cancel))?;
        if let Some(seems) = seems {
            // It died on, or misanswered, the first lines everywhere, in another game's words;
            // or, silent here, it answered another game's first prompt.
            let (title, name) = (seems.game.info().title, seems.game.name());
            let why = match seems.sign {
                Sign::Printed => "It stopped at the first step every time, and what it printed is that game's",
                Sign::Answered => "It answered no prompt here, but it answered that game's first prompt",
            };
            say!(
                "Is this {} bot? {why}: check it with `--game {name}`: `arena check-bot --game {name} {}`.",
                arena::starter::a_or_an(title),
                arena::safe_text::shell_word(&args.bot)
            );
        } else if answered_none(&checked) {
            // It answered nothing: perhaps a bot of another game, told this game's prompts (not
            // when its program never ran: a syntax error is no game's; nor when the doctor named
            // why its answers never came, unflushed or waiting for the end of its input).
            let others: Vec<&str> = games
                .games()
                .filter(|g| g.name() != game.name() && g.info().bots && g.info().kit.is_some())
                .map(|g| g.name())
                .collect();
            say!(
                "It never answered a prompt. If it plays another game, check-bot cannot check it as {}: name its \
                 game, `arena check-bot --game NAME …` ({}), or play it in a duel, `arena duel --game NAME …` \
                 (`arena duel --help` lists the games), whose Why: and Fix: lines explain a forfeit.",
                game.info().title,
                others.join(", ")
            );
        }
        Ok(ExitCode::FAILURE)
    }
}
