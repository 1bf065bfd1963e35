//! Atoms (`arena play atoms`): a model of the handout's program (with the decisions of
//! `docs/rules/atoms.md`), random sessions with save files, and the handout's lines.

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use arena::games::atoms::classic;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseResult;

use crate::gen::{int, lines, nothing, number, session, spaced, words, Bytes};

const COLOURS: [&str; 6] = ["Red", "Green", "Purple", "Blue", "Yellow", "White"];

/// HELP: the handout's command list, with the original program's blank lines.
const HELP: &str = "\nHELP displays this help message\nQUIT quits the current game\n\nDISPLAY draws the game board in terminal\nSTART <number of players> <width> <height> starts the game\nPLACE <x> <y> places an atom in a grid space\nUNDO undoes the last move made\nSTAT displays game statistics\n\nSAVE <filename> saves the state of the game\nLOAD <filename> loads a save file\nPLAYFROM <turn> plays from n steps into the game\n\n";

/// The file names sessions use: saves made before the session, new ones, one that is not
/// UTF-8, a folder, and one in a folder that does not exist.
const NAMES: [&[u8]; 7] = [b"a.sav", b"valid.sav", b"other.sav", b"g\xff.sav", b".", b"nodir/x.sav", b"missing.sav"];

/// One run: the two save files in the folder before it starts, extra parameters, and stdin.
#[derive(Clone, Debug)]
pub struct Case {
    valid: Bytes,
    other: Bytes,
    extra: Option<&'static str>,
    input: Bytes,
}

/// A game, as the handout and the rules page describe it.
#[derive(Clone)]
struct Game {
    width: usize,
    height: usize,
    atoms: Vec<u32>,
    owner: Vec<usize>,
    alive: Vec<bool>,
    turn: usize,
    moves: Vec<(u8, u8)>,
    winner: Option<usize>,
}

impl Game {
    fn new(players: usize, width: usize, height: usize) -> Game {
        let cells = width * height;
        Game {
            width,
            height,
            atoms: vec![0; cells],
            owner: vec![0; cells],
            alive: vec![true; players],
            turn: 0,
            moves: Vec::new(),
            winner: None,
        }
    }

    /// A game replayed from a move list, up to the first move it refuses.
    fn replay(players: usize, width: usize, height: usize, moves: &[(u8, u8)]) -> Game {
        let mut game = Game::new(players, width, height);
        for &(x, y) in moves {
            if game.place(i64::from(x), i64::from(y)).is_err() {
                break;
            }
        }
        game
    }

    fn cells_of(&self, p: usize) -> usize {
        (0..self.atoms.len()).filter(|&i| self.atoms[i] > 0 && self.owner[i] == p).count()
    }

    fn place(&mut self, x: i64, y: i64) -> Result<(), &'static str> {
        if self.winner.is_some() {
            return Err("Cannot Place Atom Here");
        }
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return Err("Invalid Coordinates");
        }
        let (x, y) = (x as usize, y as usize);
        let i = y * self.width + x;
        if self.atoms[i] > 0 && self.owner[i] != self.turn {
            return Err("Cannot Place Atom Here");
        }
        self.moves.push((x as u8, y as u8));
        let mut budget = 1_000_000u32;
        self.land(x, y, self.turn, &mut budget);
        if self.winner.is_none() {
            let n = self.alive.len();
            self.turn = (1..=n).map(|s| (self.turn + s) % n).find(|&p| self.alive[p]).unwrap_or(self.turn);
        }
        Ok(())
    }

    /// One atom of `p` lands at (x, y); a full cell bursts into its neighbours clockwise from
    /// the one above, each with its whole cascade before the next. `false` once the game is won
    /// (the atoms still in flight never land).
    fn land(&mut self, x: usize, y: usize, p: usize, budget: &mut u32) -> bool {
        *budget = budget.checked_sub(1).expect("a cascade that never ends");
        let i = y * self.width + x;
        self.owner[i] = p;
        self.atoms[i] += 1;
        // Once every player has moved, a player without cells is out; the last one left wins.
        if self.moves.len() >= self.alive.len() {
            for q in 0..self.alive.len() {
                if self.alive[q] && self.cells_of(q) == 0 {
                    self.alive[q] = false;
                }
            }
            let left: Vec<usize> = (0..self.alive.len()).filter(|&q| self.alive[q]).collect();
            if left.len() == 1 {
                self.winner = Some(left[0]);
                return false;
            }
        }
        let edges = usize::from(x == 0 || x + 1 == self.width) + usize::from(y == 0 || y + 1 == self.height);
        let limit = 4 - edges as u32;
        if self.atoms[i] < limit {
            return true;
        }
        self.atoms[i] = 0;
        let (x, y) = (x as i64, y as i64);
        for (nx, ny) in [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)] {
            if nx >= 0
                && ny >= 0
                && nx < self.width as i64
                && ny < self.height as i64
                && !self.land(nx as usize, ny as usize, p, budget)
            {
                return false;
            }
        }
        true
    }

    fn display(&self) -> String {
        let border = format!("+{}+\n", "-".repeat(3 * self.width - 1));
        let mut out = format!("\n{border}");
        for y in 0..self.height {
            for x in 0..self.width {
                let i = y * self.width + x;
                out += &if self.atoms[i] == 0 {
                    "|  ".to_string()
                } else {
                    format!("|{}{}", &COLOURS[self.owner[i]][..1], self.atoms[i])
                };
            }
            out += "|\n";
        }
        out + &border + "\n"
    }

    fn save(&self) -> Vec<u8> {
        let mut bytes = vec![self.width as u8, self.height as u8, self.alive.len() as u8];
        for &(x, y) in &self.moves {
            bytes.extend([x, y, 0, 0]);
        }
        bytes
    }
}

/// A loaded save file.
struct Save {
    players: usize,
    width: usize,
    height: usize,
    moves: Vec<(u8, u8)>,
}

/// A save file: width, height and players, then 4 bytes per move; not one when START would
/// refuse its header, a move's two padding bytes are not 0, or the game refuses one of its
/// moves.
fn parse_save(bytes: &[u8]) -> Option<Save> {
    let [w, h, k, rest @ ..] = bytes else { return None };
    if !(2..=6).contains(k)
        || *w < 2
        || *h < 2
        || usize::from(*w) * usize::from(*h) < usize::from(*k)
        || rest.len() % 4 != 0
    {
        return None;
    }
    if rest.chunks(4).any(|m| m[2..] != [0, 0]) {
        return None;
    }
    let moves: Vec<(u8, u8)> = rest.chunks(4).map(|m| (m[0], m[1])).collect();
    let (players, width, height) = (*k as usize, *w as usize, *h as usize);
    if Game::replay(players, width, height, &moves).moves.len() < moves.len() {
        return None;
    }
    Some(Save { players, width, height, moves })
}

enum Phase {
    Idle,
    Playing(Game),
    Loaded(Save),
}

/// The files in a folder: name to bytes.
type Files = HashMap<Vec<u8>, Vec<u8>>;

/// The model's stdout, the files in its folder at the end, and the file names LOAD refused
/// (each said on stderr, with why).
pub fn model(case: &Case) -> (String, Files, Vec<Vec<u8>>) {
    let mut files: Files = HashMap::new();
    files.insert(b"valid.sav".to_vec(), case.valid.0.clone());
    files.insert(b"other.sav".to_vec(), case.other.0.clone());
    let mut out = String::new();
    let mut phase = Phase::Idle;
    let mut refused = Vec::new();
    let turn = |g: &Game| format!("{}'s Turn\n", COLOURS[g.turn]);
    for line in lines(&case.input.0) {
        let words = words(line);
        let Some((&command, args)) = words.split_first() else { continue };
        if matches!(phase, Phase::Loaded(..)) && command != b"PLAYFROM" && command != b"QUIT" {
            out += "Invalid Command\n";
            continue;
        }
        let digits = |w: &[u8]| !w.is_empty() && w.iter().all(u8::is_ascii_digit);
        match (command, &mut phase) {
            (b"HELP", _) => out += HELP,
            (b"QUIT", _) => {
                out += "Bye!\n";
                break;
            }
            (b"START", Phase::Idle) if args.len() < 3 => out += "Missing Argument\n",
            (b"START", Phase::Idle) if args.len() > 3 => out += "Too Many Arguments\n",
            (b"START", Phase::Idle) => {
                let value =
                    |w: &[u8], range: std::ops::RangeInclusive<i64>| int(w).filter(|v| digits(w) && range.contains(v));
                match (value(args[0], 2..=6), value(args[1], 2..=255), value(args[2], 2..=255)) {
                    (Some(k), Some(w), Some(h)) if w * h < k => out += "Cannot Start Game\n",
                    (Some(k), Some(w), Some(h)) => {
                        let game = Game::new(k as usize, w as usize, h as usize);
                        out += &format!("Game Ready\n{}", turn(&game));
                        phase = Phase::Playing(game);
                    }
                    _ => out += "Invalid command arguments\n",
                }
            }
            (b"PLACE", Phase::Playing(game)) => {
                let xy = match args {
                    [x, y] => int(x).zip(int(y)),
                    _ => None,
                };
                match xy.map(|(x, y)| game.place(x, y)) {
                    None => out += "Invalid Coordinates\n",
                    Some(Err(why)) => out += &format!("{why}\n"),
                    Some(Ok(())) => match game.winner {
                        Some(w) => {
                            out += &format!("{} Wins\n", COLOURS[w]);
                            break;
                        }
                        None => out += &turn(game),
                    },
                }
            }
            (b"UNDO", Phase::Playing(game)) if game.moves.is_empty() => out += "Cannot Undo\n",
            (b"UNDO", Phase::Playing(game)) => {
                let moves = &game.moves[..game.moves.len() - 1];
                *game = Game::replay(game.alive.len(), game.width, game.height, moves);
                out += &turn(game);
            }
            (b"STAT", Phase::Playing(game)) => {
                let stats: Vec<String> = (0..game.alive.len())
                    .map(|p| match game.alive[p] {
                        true => format!("Player {}:\nGrid Count: {}\n", COLOURS[p], game.cells_of(p)),
                        false => format!("Player {}:\nLost\n", COLOURS[p]),
                    })
                    .collect();
                out += &stats.join("\n");
            }
            (b"STAT", _) => out += "Game Not In Progress\n",
            (b"DISPLAY", Phase::Playing(game)) => out += &game.display(),
            (b"SAVE", Phase::Playing(game)) => match args {
                [name] if name.starts_with(b"nodir/") => out += "Invalid Command\n",
                [name] if *name == b"." || files.contains_key(*name) => out += "File Already Exists\n",
                [name] => {
                    files.insert(name.to_vec(), game.save());
                    out += "Game Saved\n";
                }
                _ => out += "Invalid Command\n",
            },
            (b"LOAD", Phase::Idle) => match args {
                [name] => match files.get(*name).and_then(|b| parse_save(b)) {
                    Some(save) => {
                        phase = Phase::Loaded(save);
                        out += "Game Loaded\n";
                    }
                    None => {
                        refused.push(name.to_vec());
                        out += "Cannot Load Save\n";
                    }
                },
                _ => out += "Cannot Load Save\n",
            },
            (b"LOAD", _) => out += "Restart Application To Load Save\n",
            (b"PLAYFROM", Phase::Loaded(Save { players, width, height, moves })) => {
                // END, or any turn in digits: past the last one loaded it is the last one.
                let upto = match args {
                    [b"END"] => Some(moves.len()),
                    [n] if digits(n) => Some(int(n).map_or(moves.len(), |n| (n as usize).min(moves.len()))),
                    _ => None,
                };
                match upto {
                    Some(upto) => {
                        let game = Game::replay(*players, *width, *height, &moves[..upto]);
                        // A game already won there ends, as after the winning PLACE.
                        if let Some(w) = game.winner {
                            out += &format!("{} Wins\n", COLOURS[w]);
                            break;
                        }
                        out += &format!("Game Ready\n{}", turn(&game));
                        phase = Phase::Playing(game);
                    }
                    None => out += "Invalid Turn Number\n",
                }
            }
            _ => out += "Invalid Command\n",
        }
    }
    (out, files, refused)
}

/// Whether every line of `out` is one the handout (or the rules page) defines.
fn every_line_is_the_handouts(out: &str) -> Result<(), String> {
    let colour = |c: &str| COLOURS.contains(&c);
    let fixed = [
        "",
        "Game Ready",
        "Bye!",
        "Lost",
        "Game Saved",
        "File Already Exists",
        "Game Loaded",
        "Cannot Load Save",
        "Restart Application To Load Save",
        "Invalid Turn Number",
        "Cannot Undo",
        "Game Not In Progress",
        "Invalid Command",
        "Invalid command arguments",
        "Missing Argument",
        "Too Many Arguments",
        "Cannot Start Game",
        "Invalid Coordinates",
        "Cannot Place Atom Here",
    ];
    for line in out.lines() {
        let ok = fixed.contains(&line)
            || HELP.lines().any(|h| h == line)
            || line.strip_suffix("'s Turn").is_some_and(colour)
            || line.strip_suffix(" Wins").is_some_and(colour)
            || line.strip_prefix("Player ").and_then(|l| l.strip_suffix(':')).is_some_and(colour)
            || line.strip_prefix("Grid Count: ").is_some_and(|n| n.parse::<usize>().is_ok())
            || (line.starts_with('+')
                && line.ends_with('+')
                && line.len() >= 5
                && line[1..line.len() - 1].bytes().all(|b| b == b'-'))
            || (line.starts_with('|')
                && line.ends_with('|')
                && line[1..line.len() - 1].split('|').all(|c| {
                    c == "  "
                        || (c.len() == 2
                            && COLOURS.iter().any(|k| k[..1] == c[..1])
                            && c.as_bytes()[1].is_ascii_digit())
                }));
        if !ok {
            return Err(format!("not a line of the handout: {line:?}"));
        }
    }
    Ok(())
}

/// A save file: mostly a real one (small board, the moves a game takes, up to a win), some
/// with a padding byte that is not 0, some with moves off the board or on another player's
/// cell, sometimes bytes.
fn save() -> impl Strategy<Value = Vec<u8>> {
    let moves = (2u8..=4, 2u8..=4, 2u8..=4).prop_flat_map(|(w, h, k)| {
        prop::collection::vec((0..=w, 0..=h), 0..16).prop_map(move |moves| (w, h, k.min(w * h), moves))
    });
    let bytes = |(w, h, k, moves): (u8, u8, u8, Vec<(u8, u8)>)| {
        let mut bytes = vec![w, h, k];
        for (x, y) in moves {
            bytes.extend([x, y, 0, 0]);
        }
        bytes
    };
    // The moves the game takes, passing over those it refuses.
    let real = moves.clone().prop_map(move |(w, h, k, moves)| {
        let mut game = Game::new(k as usize, w as usize, h as usize);
        for (x, y) in moves {
            let _ = game.place(i64::from(x), i64::from(y));
        }
        bytes((w, h, k, game.moves))
    });
    // A real one with a padding byte that is not 0.
    let padded = (real.clone(), any::<prop::sample::Index>(), 1u8..).prop_map(|(mut bytes, at, byte)| {
        let moves = (bytes.len() - 3) / 4;
        if moves > 0 {
            let i = at.index(2 * moves);
            bytes[3 + 4 * (i / 2) + 2 + i % 2] = byte;
        }
        bytes
    });
    prop_oneof![6 => real, 1 => padded, 2 => moves.prop_map(bytes), 1 => prop::collection::vec(any::<u8>(), 0..24)]
}

/// A command line: mostly START on small boards and PLACE on them, the other commands with
/// right and wrong arguments, file names of every kind, lower case (unknown: commands are
/// case-sensitive), lines with nothing to do; QUIT is rare.
fn command() -> impl Strategy<Value = Vec<u8>> {
    let word = |w: &'static str| Just(w.as_bytes().to_vec());
    // Small boards and few players, so that games are won.
    let small = select(vec!["2 2 2", "2 2 2", "2 3 2", "2 2 3", "3 2 2", "2 3 3", "3 3 3", "4 3 2", "5 2 2", "1 2 2"]);
    let start = prop_oneof![
        4 => small.prop_map(|s| s.split(' ').map(|n| n.as_bytes().to_vec()).collect::<Vec<_>>()),
        1 => prop::collection::vec(number(7), 0..5),
    ];
    let place = prop_oneof![
        12 => (0i64..=2, 0i64..=2).prop_map(|(x, y)| vec![x.to_string().into_bytes(), y.to_string().into_bytes()]),
        2 => (-1i64..=4, -1i64..=4).prop_map(|(x, y)| vec![x.to_string().into_bytes(), y.to_string().into_bytes()]),
        1 => prop::collection::vec(number(4), 0..4),
    ];
    let turn = prop_oneof![4 => number(12), 2 => "[0-9]{19,40}".prop_map(String::into_bytes), 1 => word("END"), 1 => word("end")];
    let name = select(NAMES.to_vec()).prop_map(<[u8]>::to_vec);
    let with = |c: &'static str, args: BoxedStrategy<Vec<Vec<u8>>>| {
        spaced(args.prop_map(move |a| [vec![c.as_bytes().to_vec()], a].concat()))
    };
    prop_oneof![
        6 => with("START", start.boxed()),
        40 => with("PLACE", place.boxed()),
        3 => with("UNDO", prop::collection::vec(number(2), 0..2).boxed()),
        3 => with("STAT", Just(vec![]).boxed()),
        3 => with("DISPLAY", Just(vec![]).boxed()),
        1 => with("HELP", Just(vec![]).boxed()),
        3 => with("SAVE", prop::collection::vec(name.clone(), 0..3).boxed()),
        4 => with("LOAD", prop::collection::vec(name, 0..3).boxed()),
        4 => with("PLAYFROM", prop::collection::vec(turn, 0..3).boxed()),
        2 => spaced(select(vec!["start", "place", "Place", "quit", "stat", "FOO"]).prop_map(|c| vec![c.as_bytes().to_vec()])),
        4 => nothing(),
        1 => with("QUIT", Just(vec![]).boxed()),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let extra = prop_oneof![30 => Just(None), 1 => Just(Some("2")), 1 => Just(Some("--seed"))];
    // Some sessions start by loading a save, which a random session seldom does before START.
    let first = select(vec!["", "", "", "LOAD valid.sav\n", "LOAD valid.sav\nPLAYFROM END\n", "LOAD other.sav\n"]);
    (save(), save(), extra, first, session(command(), 100)).prop_map(|(valid, other, extra, first, input)| Case {
        valid: Bytes(valid),
        other: Bytes(other),
        extra,
        input: Bytes([first.as_bytes(), &input.0].concat()),
    })
}

/// A folder holding the case's save files.
fn folder(case: &Case) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("valid.sav"), &case.valid.0).unwrap();
    std::fs::write(dir.path().join("other.sav"), &case.other.0).unwrap();
    dir
}

/// Checks the folder holds exactly the model's files.
fn same_files(dir: &Path, files: &Files) -> TestCaseResult {
    let mut on_disk = HashMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        on_disk.insert(entry.file_name().into_vec(), std::fs::read(entry.path()).unwrap());
    }
    prop_assert_eq!(&on_disk, files);
    Ok(())
}

pub fn in_process() {
    let (wins, saves, loads) = (Cell::new(0), Cell::new(0), Cell::new(0));
    crate::fuzz(400, case(), |case| {
        let dir = folder(&case);
        let mut out = Vec::new();
        let code = classic::run(&mut &case.input.0[..], &mut out, dir.path())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let out = String::from_utf8(out).map_err(|_| TestCaseError::fail("output that is not UTF-8"))?;
        let (expected, files, _) = model(&case);
        prop_assert_eq!(&out, &expected);
        prop_assert_eq!(code, 0);
        same_files(dir.path(), &files)?;
        every_line_is_the_handouts(&out).map_err(TestCaseError::fail)?;
        wins.set(wins.get() + u32::from(out.ends_with(" Wins\n")));
        saves.set(saves.get() + u32::from(out.contains("Game Saved")));
        let played_a_save = out.split_once("Game Loaded\n").is_some_and(|(_, after)| after.contains("Game Ready\n"));
        loads.set(loads.get() + u32::from(played_a_save));
        Ok(())
    });
    assert!(
        wins.get() >= 10 && saves.get() >= 10 && loads.get() >= 10,
        "wins {wins:?}, saves {saves:?}, loads {loads:?}"
    );
}

pub fn through_the_binary() {
    crate::fuzz(40, case(), |case| {
        let dir = folder(&case);
        let mut args = vec![OsString::from("play"), OsString::from("atoms")];
        args.extend(case.extra.map(OsString::from));
        let ran = crate::arena(dir.path(), &args, &case.input.0);
        match case.extra {
            None => {
                let (expected, files, refused) = model(&case);
                prop_assert_eq!(String::from_utf8_lossy(&ran.stdout), expected);
                prop_assert_eq!(ran.code, Some(0));
                // Each LOAD refused says on stderr which file, and nothing else is there.
                let said: Vec<&str> = ran.stderr.lines().collect();
                prop_assert_eq!(said.len(), refused.len(), "{}", ran.stderr);
                for (line, name) in said.iter().zip(&refused) {
                    let name = String::from_utf8_lossy(name);
                    prop_assert!(line.starts_with(&format!("LOAD {name}: ")), "{} for {}", line, name);
                }
                same_files(dir.path(), &files)?;
            }
            Some(extra) => {
                let why = match extra {
                    "--seed" => "error: a value is required for '--seed <SEED>'",
                    _ => "error: `arena play atoms` takes no parameters (got `2`)\n",
                };
                let code = if extra == "--seed" { 2 } else { 1 };
                prop_assert_eq!((ran.code, ran.stdout.len()), (Some(code), 0));
                prop_assert!(ran.stderr.starts_with(why), "{}", ran.stderr);
            }
        }
        Ok(())
    });
}
