//! The `arena` command: duels, replays and their verification.

mod cli;

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let games = arena::games::registry();
    let args = cli::Cli::parse_with(&games);
    cli::init_logging(args.verbose);
    let code = match cli::run(args, &games) {
        // A command a signal reached exits as the signal says, even where it ended well (a
        // duel's last answer came before the cancellation): a batch system or a shell that sent
        // it is told the command was ended (the duel exited 0 after SIGTERM, 7 times in 60).
        Ok(_) if cli::signals::received().is_some() => ExitCode::from(cli::signals::status()),
        Ok(code) => code,
        // A reader that stopped reading (`arena … | head`) is not an error.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            // Errors may quote names, paths and commands from config files and students'
            // folders: shown as safe text, keeping the lines and tabs of multi-line messages.
            // (The cancellation a signal asked for was said when it came: `error: cancelled` is
            // not said again.)
            if !(cancelled(&e) && cli::signals::received().is_some()) {
                let _ = writeln!(std::io::stderr(), "error: {}", arena::safe_text::terminal_message(&message(&e)));
            }
            // A command a signal ended (Ctrl-C, SIGTERM, SIGHUP) exits as a shell reports a
            // command the signal killed, 128 + its number, whatever error its end made.
            match cli::signals::received() {
                Some(_) => ExitCode::from(cli::signals::status()),
                None => ExitCode::FAILURE,
            }
        }
    };
    cli::log_peak_memory();
    code
}

/// Whether `e` is the referee's cancellation (`cancelled`), as the commands return it: their
/// errors wrap it whole (`#[error(transparent)]`, which no cause chain lists apart).
fn cancelled(e: &anyhow::Error) -> bool {
    use arena::referee::RefereeError::{self, Cancelled};
    e.chain().any(|cause| {
        matches!(cause.downcast_ref::<RefereeError>(), Some(Cancelled))
            || matches!(
                cause.downcast_ref::<arena::doctor::CheckError>(),
                Some(arena::doctor::CheckError::Referee(Cancelled))
            )
            || matches!(
                cause.downcast_ref::<course::checker::CheckerError>(),
                Some(course::checker::CheckerError::Referee(Cancelled))
            )
    })
}

/// The error and its causes, `: `-separated, each cause left out when the message before it
/// already quotes it (the library's messages quote their source, some with advice after it).
fn message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if !text.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::message;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot start `bot`: {source}")]
    struct Quoting {
        source: std::io::Error,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("cannot start `bot`: {source}; write `./bot`")]
    struct Advising {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_the_message_quotes_is_not_repeated() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(Quoting { source: io }).context("bot `a`");
        assert_eq!(message(&e), "bot `a`: cannot start `bot`: no such file");
        // (Quoted before the advice that follows it.)
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(Advising { source: io });
        assert_eq!(message(&e), "cannot start `bot`: no such file; write `./bot`");
        // The control: a cause the message does not quote is kept.
        let e = anyhow::anyhow!("no such file").context("reading the map");
        assert_eq!(message(&e), "reading the map: no such file");
    }
}
