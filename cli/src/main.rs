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
            // Errors may quote names and commands from config files: shown as safe text.
            eprintln!("error: {}", arena::safe_text::terminal_lines(&format!("{e:#}")));
            ExitCode::FAILURE
        }
    };
    cli::log_peak_memory();
    code
}
