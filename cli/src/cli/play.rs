//! `arena play GAME`: a handout's own text program, as the game's `GameInfo` brings it.

use std::path::Path;
use std::process::ExitCode;

use anyhow::bail;
use arena::engine::{ClassicError, ClassicSession, Game, Registry};

use super::PlayArgs;

/// `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Runs `arena play`.
pub fn run(args: PlayArgs, games: &Registry) -> anyhow::Result<ExitCode> {
    let playable: Vec<&'static dyn Game> = games.games().filter(|g| g.info().classic.is_some()).collect();
    let names = |chance_only: bool| -> Vec<String> {
        playable.iter().filter(|g| !chance_only || g.info().chance).map(|g| g.name().to_string()).collect()
    };
    let Some((info, program)) =
        playable.iter().find(|g| g.name() == args.game).and_then(|g| Some((g.info(), g.info().classic?)))
    else {
        bail!("unknown game `{}`: `arena play` knows {}", args.game, listed(&names(false)));
    };
    if !info.chance && (args.seed.is_some() || args.dice.is_some()) {
        let with_dice: Vec<String> = names(true).iter().map(|n| format!("`arena play {n}`")).collect();
        bail!("--seed and --dice are for {} only", listed(&with_dice));
    }
    if !program.takes_params {
        if let Some(extra) = args.params.first() {
            bail!("`arena play {}` takes no parameters (got `{}`)", args.game, extra.to_string_lossy());
        }
    }
    let seed = match (&args.dice, args.seed) {
        (None, None) if info.chance => {
            let seed = rand::random();
            eprintln!("seed {seed} (repeat this game with --seed {seed})");
            seed
        }
        (_, seed) => seed.unwrap_or(0),
    };
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let session = ClassicSession {
        params: &args.params,
        seed,
        dice: args.dice.as_deref(),
        input: &mut stdin.lock(),
        output: &mut stdout.lock(),
        dir: Path::new("."),
    };
    match (program.run)(session) {
        Ok(code) => Ok(ExitCode::from(code as u8)),
        // An I/O error as itself: a closed stdout (`arena play … | head`) is not an error.
        Err(ClassicError::Io(e)) => Err(e.into()),
        Err(e) => Err(e.into()),
    }
}
