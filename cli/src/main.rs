//! The `arena` command: duels, replays and their verification.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let games = arena::games::registry();
    let args = cli::Cli::parse_with(&games);
    cli::init_logging(args.verbose);
    let code = match cli::run(args, &games) {
        Ok(code) => code,
        // A reader that stopped reading (`arena … | head`) is not an error.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            // Errors may quote names, paths and commands from config files and students'
            // folders: shown as safe text, keeping the lines and tabs of multi-line messages.
            eprintln!("error: {}", arena::safe_text::terminal_message(&message(&e)));
            ExitCode::FAILURE
        }
    };
    cli::log_peak_memory();
    code
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
