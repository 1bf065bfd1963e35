//! The original Atoms program: commands on stdin, the handout's exact messages on stdout.

use std::io::{self, BufRead, Write};
use std::path::Path;

use super::{parse_save, Atoms, PlaceError, SaveFile, COLOURS};

/// The HELP text.
pub const HELP: &str = "\
HELP displays this help message
QUIT quits the current game

DISPLAY draws the game board in terminal
START <number of players> <width> <height> starts the game
PLACE <x> <y> places an atom in a grid space
UNDO undoes the last move made
STAT displays game statistics

SAVE <filename> saves the state of the game
LOAD <filename> loads a save file
PLAYFROM <turn> plays from n steps into the game
";

/// Where the program is.
enum Phase {
    /// No game yet.
    Idle,
    /// A game is on.
    Playing(Atoms),
    /// A save was loaded: only PLAYFROM or QUIT make sense.
    Loaded(SaveFile),
}

fn turn_line(game: &Atoms) -> String {
    format!("{}'s Turn", COLOURS[game.turn])
}

/// Parses a whole number made of digits only (no sign).
fn number(word: &str) -> Option<usize> {
    (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())).then(|| word.parse().ok()).flatten()
}

/// Runs the program until QUIT, a win or the end of input; `dir` is where SAVE and LOAD
/// files live. Returns the exit status.
pub fn run(input: &mut impl BufRead, out: &mut impl Write, dir: &Path) -> io::Result<i32> {
    let mut phase = Phase::Idle;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(0);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else { continue };
        // After LOAD only PLAYFROM and QUIT are accepted.
        if matches!(phase, Phase::Loaded(_)) && !matches!(command, "PLAYFROM" | "QUIT") {
            writeln!(out, "Invalid Command")?;
            continue;
        }
        match command {
            "HELP" => write!(out, "\n{HELP}\n")?,
            "QUIT" => {
                writeln!(out, "Bye!")?;
                return Ok(0);
            }
            "START" => {
                if !matches!(phase, Phase::Idle) {
                    writeln!(out, "Invalid Command")?;
                } else if args.len() < 3 {
                    writeln!(out, "Missing Argument")?;
                } else if args.len() > 3 {
                    writeln!(out, "Too Many Arguments")?;
                } else {
                    match (number(args[0]), number(args[1]), number(args[2])) {
                        (Some(k), Some(w), Some(h))
                            if (2..=6).contains(&k) && (2..=255).contains(&w) && (2..=255).contains(&h) =>
                        {
                            if w * h < k {
                                writeln!(out, "Cannot Start Game")?;
                            } else {
                                let game = Atoms::new(k, w, h);
                                writeln!(out, "Game Ready\n{}", turn_line(&game))?;
                                phase = Phase::Playing(game);
                            }
                        }
                        _ => writeln!(out, "Invalid command arguments")?,
                    }
                }
            }
            "PLACE" => {
                let Phase::Playing(game) = &mut phase else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                let coords = match args {
                    [x, y] => x.parse::<i64>().ok().zip(y.parse::<i64>().ok()),
                    _ => None,
                };
                let Some((x, y)) = coords else {
                    writeln!(out, "Invalid Coordinates")?;
                    continue;
                };
                match game.place(x, y) {
                    Err(PlaceError::OffBoard) => writeln!(out, "Invalid Coordinates")?,
                    Err(PlaceError::NotYours | PlaceError::Over) => writeln!(out, "Cannot Place Atom Here")?,
                    Ok(()) => match game.winner {
                        Some(w) => {
                            writeln!(out, "{} Wins", COLOURS[w])?;
                            return Ok(0);
                        }
                        None => writeln!(out, "{}", turn_line(game))?,
                    },
                }
            }
            "UNDO" => {
                let Phase::Playing(game) = &mut phase else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                if game.moves.is_empty() {
                    writeln!(out, "Cannot Undo")?;
                } else {
                    let mut moves = game.moves.clone();
                    moves.pop();
                    *game = Atoms::replay(game.players(), game.width, game.height, &moves);
                    writeln!(out, "{}", turn_line(game))?;
                }
            }
            "STAT" => {
                let Phase::Playing(game) = &phase else {
                    writeln!(out, "Game Not In Progress")?;
                    continue;
                };
                for (p, colour) in COLOURS.iter().enumerate().take(game.players()) {
                    if game.alive[p] {
                        writeln!(out, "Player {colour}:\nGrid Count: {}", game.grid_count(p))?;
                    } else {
                        writeln!(out, "Player {colour}:\nLost")?;
                    }
                    if p + 1 < game.players() {
                        writeln!(out)?;
                    }
                }
            }
            "DISPLAY" => {
                let Phase::Playing(game) = &phase else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                write!(out, "\n{}\n", game.display())?;
            }
            "SAVE" => {
                let Phase::Playing(game) = &phase else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                let [name] = args else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                let path = dir.join(name);
                let created = std::fs::OpenOptions::new().write(true).create_new(true).open(&path);
                match created {
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => writeln!(out, "File Already Exists")?,
                    Err(_) => writeln!(out, "Invalid Command")?,
                    Ok(mut file) => {
                        file.write_all(&game.save_bytes())?;
                        writeln!(out, "Game Saved")?;
                    }
                }
            }
            "LOAD" => {
                if !matches!(phase, Phase::Idle) {
                    writeln!(out, "Restart Application To Load Save")?;
                    continue;
                }
                let loaded = match args {
                    [name] => std::fs::read(dir.join(name)).ok().and_then(|b| parse_save(&b)),
                    _ => None,
                };
                match loaded {
                    Some(save) => {
                        phase = Phase::Loaded(save);
                        writeln!(out, "Game Loaded")?;
                    }
                    None => writeln!(out, "Cannot Load Save")?,
                }
            }
            "PLAYFROM" => {
                let Phase::Loaded(save) = &phase else {
                    writeln!(out, "Invalid Command")?;
                    continue;
                };
                let upto = match args {
                    ["END"] => Some(save.moves.len()),
                    [n] => number(n),
                    _ => None,
                };
                let Some(upto) = upto else {
                    writeln!(out, "Invalid Turn Number")?;
                    continue;
                };
                let game = save.game(upto);
                writeln!(out, "Game Ready\n{}", turn_line(&game))?;
                phase = Phase::Playing(game);
            }
            _ => writeln!(out, "Invalid Command")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str, dir: &Path) -> (String, i32) {
        let mut out = Vec::new();
        let code = run(&mut input.as_bytes(), &mut out, dir).unwrap();
        (String::from_utf8(out).unwrap(), code)
    }

    fn check(input: &str, expected: &str) {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(session(input, dir.path()).0, expected, "input:\n{input}");
    }

    #[test]
    fn start_messages_and_their_precedence() {
        check("START 2 3 3\n", "Game Ready\nRed's Turn\n");
        check("START 2 3\n", "Missing Argument\n");
        check("START 2 3 3 4\n", "Too Many Arguments\n");
        check("START x 3 3\n", "Invalid command arguments\n");
        check("START -2 3 3\n", "Invalid command arguments\n");
        check("START 7 3 3\n", "Invalid command arguments\n");
        check("START 6 2 2\n", "Cannot Start Game\n");
        check("START 2 2 2\nSTART 2 2 2\n", "Game Ready\nRed's Turn\nInvalid Command\n");
        check("START 2 2 2\nSTART 2\n", "Game Ready\nRed's Turn\nInvalid Command\n");
        check("start 2 2 2\nFOO\n", "Invalid Command\nInvalid Command\n");
    }

    #[test]
    fn place_messages() {
        check(
            "START 2 3 3\nPLACE -1 -1\nPLACE 0 0\nPLACE 0 0\nPLACE 3 0\nPLACE 1\nPLACE a b\nPLACE 1 1\n",
            "Game Ready\nRed's Turn\nInvalid Coordinates\nGreen's Turn\nCannot Place Atom Here\nInvalid Coordinates\nInvalid Coordinates\nInvalid Coordinates\nRed's Turn\n",
        );
        check("PLACE 0 0\n", "Invalid Command\n");
    }

    #[test]
    fn display_draws_cells_two_characters_wide() {
        check(
            "START 2 4 2\nPLACE 0 0\nPLACE 3 1\nDISPLAY\n",
            "Game Ready\nRed's Turn\nGreen's Turn\nRed's Turn\n\n+-----------+\n|R1|  |  |  |\n|  |  |  |G1|\n+-----------+\n\n",
        );
    }

    #[test]
    fn stat_undo_quit_and_help() {
        check("STAT\n", "Game Not In Progress\n");
        check(
            "START 3 3 3\nUNDO\nPLACE 0 0\nPLACE 2 2\nUNDO\nSTAT\nQUIT\nSTAT\n",
            "Game Ready\nRed's Turn\nCannot Undo\nGreen's Turn\nPurple's Turn\nGreen's Turn\nPlayer Red:\nGrid Count: 1\n\nPlayer Green:\nGrid Count: 0\n\nPlayer Purple:\nGrid Count: 0\nBye!\n",
        );
        check("HELP\n", &format!("\n{HELP}\n"));
    }

    #[test]
    fn a_win_ends_the_program_and_stat_shows_losers() {
        // 2x2 board, all corners: Green's only cell is taken by Red's explosion.
        let dir = tempfile::tempdir().unwrap();
        let (out, code) = session("START 2 2 2\nPLACE 0 0\nPLACE 1 1\nPLACE 0 0\nPLACE 1 1\n", dir.path());
        assert_eq!(code, 0);
        assert!(out.ends_with(" Wins\n"), "{out}");
    }

    #[test]
    fn save_load_playfrom_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let (out, _) =
            session("START 3 4 4\nPLACE 0 0\nPLACE 3 3\nPLACE 1 1\nSAVE game.bin\nSAVE game.bin\nQUIT\n", dir.path());
        assert!(out.ends_with("Game Saved\nFile Already Exists\nBye!\n"), "{out}");
        let bytes = std::fs::read(dir.path().join("game.bin")).unwrap();
        assert_eq!(bytes, [4, 4, 3, 0, 0, 0, 0, 3, 3, 0, 0, 1, 1, 0, 0]);
        let (out, _) = session(
            "LOAD nope.bin\nLOAD game.bin\nLOAD game.bin\nSTAT\nPLAYFROM -1\nPLAYFROM 2\nDISPLAY\n",
            dir.path(),
        );
        assert_eq!(
            out,
            "Cannot Load Save\nGame Loaded\nInvalid Command\nInvalid Command\nInvalid Turn Number\nGame Ready\nPurple's Turn\n\n+-----------+\n|R1|  |  |  |\n|  |  |  |  |\n|  |  |  |  |\n|  |  |  |G1|\n+-----------+\n\n"
        );
        let (out, _) = session("LOAD game.bin\nPLAYFROM END\n", dir.path());
        assert_eq!(out, "Game Loaded\nGame Ready\nRed's Turn\n");
        let (out, _) = session("START 5 3 3\nPLACE 0 0\nPLACE 1 0\nPLACE 2 0\nPLACE 0 1\nSAVE five.bin\n", dir.path());
        assert!(out.ends_with("Yellow's Turn\nGame Saved\n"));
        let (out, _) = session("LOAD five.bin\nPLAYFROM END\n", dir.path());
        assert_eq!(out, "Game Loaded\nGame Ready\nYellow's Turn\n", "the handout's PLAYFROM example");
        let (out, _) = session("LOAD game.bin\nPLAYFROM 99\n", dir.path());
        assert_eq!(out, "Game Loaded\nGame Ready\nRed's Turn\n");
        let (out, _) = session("START 2 2 2\nLOAD game.bin\nPLAYFROM 1\n", dir.path());
        assert_eq!(out, "Game Ready\nRed's Turn\nRestart Application To Load Save\nInvalid Command\n");
    }

    #[test]
    fn end_of_input_exits_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(session("START 2 2 2\n", dir.path()), ("Game Ready\nRed's Turn\n".to_string(), 0));
    }
}
