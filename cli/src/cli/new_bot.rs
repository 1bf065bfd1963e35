//! `arena new-bot [--game GAME] --lang cpp|c|python|rust NAME`: a ready folder for a student's
//! bot of a game (its [`arena::engine::GameInfo::kit`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use arena::engine::Registry;
use arena::sandbox::BOX_PATH;
use arena::starter::{create, starter, Lang};
use clap::Args;

/// Options of `arena new-bot`.
#[derive(Debug, Args)]
pub struct NewBotArgs {
    /// The game the bot plays (`arena duel --help` lists them).
    #[arg(long, default_value = super::DEFAULT_GAME)]
    pub game: String,
    /// The language: cpp, c, python or rust (also c++, py, rs; in any case).
    #[arg(long, value_parser = parse_lang)]
    pub lang: Lang,
    /// The bot's name: the folder created in the current directory, the program, the name in results.
    pub name: String,
}

fn parse_lang(arg: &str) -> Result<Lang, String> {
    Lang::parse(arg).map_err(|e| e.to_string())
}

/// How the README should call the arena: `arena` when that is this very program on the PATH
/// that bots get too ([`BOX_PATH`]: the duel's opponent is the command `arena bot greedy`), else
/// its full path. (An `arena` in `~/.cargo/bin` alone is found by the student's shell, not by a
/// bot's command.)
fn arena_command() -> String {
    let Ok(me) = std::env::current_exe().and_then(|p| p.canonicalize()) else {
        return "arena".to_string();
    };
    let on_path = std::env::split_paths(BOX_PATH).collect::<Vec<PathBuf>>();
    for dir in on_path {
        if let Ok(found) = dir.join("arena").canonicalize() {
            if found == me {
                return "arena".to_string();
            }
            break;
        }
    }
    me.display().to_string()
}

/// Runs `arena new-bot`.
pub fn run(args: NewBotArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let game = games.get(&args.game)?;
    // The commands name the game unless it is the one played where none is named.
    let named = games.first().map_or(true, |first| first.name() != game.name());
    let made = starter(game.info(), named, args.lang, &args.name, &arena_command())?;
    create(Path::new(&args.name), &made)?;
    let what = arena::starter::a_or_an(game.info().title);
    say!("Created {}/: {what} {} bot from the starter kit. Next, in that folder:", args.name, args.lang);
    say!();
    say!("  cd {}", args.name);
    for (command, what) in &made.commands {
        say!("  {command}    # {what}");
    }
    say!();
    say!("{}/README.md says more.", args.name);
    Ok(ExitCode::SUCCESS)
}
