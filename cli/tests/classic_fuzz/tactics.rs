//! OOPtimal Tactics (`arena play tactics <ROUNDS> <CONFIG>`): a model of the handout's
//! program, random sessions, and the line grammar of the handout.

use std::cell::Cell;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use arena::games::tactics::classic;
use proptest::prelude::*;
use proptest::sample::select;

use crate::gen::{cased, int, junk, lines, nothing, number, session, spaced, words, Bytes};

const RULE: &str = "------------------";
const NOT_FOUND: &str = "[ERROR] Entered command not found!\n";
const PARAMETERS: &str = "[ERROR] Wrong number of parameters for this command!\n";
const PHASE: &str = "[ERROR] Entered command is not valid in this phase!\n";
const AMOUNT: &str = "[ERROR] Invalid amount! Must be a number > 0!\n";
const INVENTORY: &str = "[ERROR] Invalid amount! Must be a number <= chips in player inventory!\n";
const FIELD: &str = "[ERROR] Invalid field!\n";
const ORIGIN: &str = "[ERROR] Invalid origin!\n";
const ON_ORIGIN: &str = "[ERROR] Invalid amount! Must be a number <= chips on origin field!\n";
const DESTINATION: &str = "[ERROR] Invalid destination!\n";

/// The config parameter.
#[derive(Clone, Debug)]
pub enum Config {
    /// A file with these bytes.
    File(Bytes),
    /// A path where nothing is.
    Missing,
    /// A folder.
    Folder,
}

/// One run: how many parameters (the round number, the config, then an extra one), the
/// config's file name, and stdin.
#[derive(Clone, Debug)]
pub struct Case {
    count: usize,
    rounds: Bytes,
    config: Config,
    name: Bytes,
    input: Bytes,
}

impl Case {
    /// The parameters, with the config written into `dir`.
    fn params(&self, dir: &Path) -> Vec<OsString> {
        let path = dir.join(OsString::from_vec(self.name.0.clone()));
        match &self.config {
            Config::File(bytes) => std::fs::write(&path, &bytes.0).expect("write the config"),
            Config::Missing => {}
            Config::Folder => std::fs::create_dir(&path).expect("make the folder"),
        }
        let all = [OsString::from_vec(self.rounds.0.clone()), path.into_os_string(), OsString::from("extra")];
        all[..self.count].to_vec()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Empty,
    Water,
    Held(usize, u64),
}

/// The handout's program.
struct Model {
    width: usize,
    height: usize,
    fields: Vec<Field>,
    chips: [u64; 2],
    show_map: bool,
    out: String,
}

/// A player's command did…
enum Step {
    Again,
    Done,
    Passed,
    Stop,
}

/// The model's output and exit status.
pub fn model(case: &Case) -> (String, i32) {
    if case.count != 2 {
        return ("[ERROR] Wrong number of parameters!\n".into(), 1);
    }
    // An integer >= 1, in digits, that fits the program's 32-bit counter.
    let digits = &case.rounds.0;
    let rounds = (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
        .then(|| int(digits))
        .flatten()
        .and_then(|r| u32::try_from(r).ok())
        .filter(|&r| r >= 1);
    let Some(rounds) = rounds else { return ("[ERROR] Invalid maximum round number!\n".into(), 2) };
    let Config::File(bytes) = &case.config else { return ("[ERROR] Invalid file!\n".into(), 3) };
    // The generator writes well-formed files after a correct magic number.
    let Some(rest) = bytes.0.strip_prefix(b"OOP\n") else { return ("[ERROR] Invalid file!\n".into(), 3) };
    let mut config = lines(rest);
    let size = String::from_utf8(config.next().unwrap_or_default().to_vec()).unwrap();
    let (w, h) = size.split_once('_').unwrap();
    let (width, height) = (w.parse().unwrap(), h.parse().unwrap());
    let mut fields = Vec::new();
    for _ in 0..height {
        let row = config.next().unwrap();
        fields.extend((0..width).map(|x| match row.get(x) {
            Some(b'a') => Field::Held(0, 1),
            Some(b'b') => Field::Held(1, 1),
            Some(b'-') => Field::Water,
            _ => Field::Empty,
        }));
    }
    let mut m = Model { width, height, fields, chips: [0, 0], show_map: true, out: String::new() };
    m.out += &format!("Welcome to OOPtimal Tactics!\nPlaying maximum of {rounds} round(s)!\n");
    let mut input = lines(&case.input.0);
    m.play(rounds, &mut input);
    (m.out, 0)
}

impl Model {
    fn held(&self, p: usize) -> usize {
        self.fields.iter().filter(|f| matches!(f, Field::Held(q, _) if *q == p)).count()
    }

    fn map(&mut self) {
        if !self.show_map {
            return;
        }
        self.out += "  ";
        for c in 1..=self.width {
            self.out += &format!("| {c} ");
        }
        self.out += "\n";
        for r in 0..self.height {
            self.out += &format!("{} ", r + 1);
            for c in 0..self.width {
                self.out += &match self.fields[r * self.width + c] {
                    Field::Empty => "|   ".to_string(),
                    Field::Water => "| ~ ".to_string(),
                    Field::Held(p, n) => format!("|{} {n}", ['A', 'B'][p]),
                };
            }
            self.out += "\n";
        }
        self.out += "\n";
    }

    fn play<'a>(&mut self, rounds: u32, input: &mut impl Iterator<Item = &'a [u8]>) {
        for round in 1..=rounds {
            self.out += &format!("\n{RULE}\nRound {round}/{rounds} starts!\n{RULE}\n\n");
            for p in 0..2 {
                self.chips[p] += self.held(p).div_ceil(3) as u64;
            }
            // A places first in odd rounds, B in even ones; the other one moves first.
            let a_first = round % 2 == 1;
            for (placing, starter) in [(true, if a_first { 0 } else { 1 }), (false, if a_first { 1 } else { 0 })] {
                self.out +=
                    &format!("{RULE}\n{}\n{RULE}\n", if placing { "Placement Phase" } else { "Movement Phase" });
                self.map();
                let mut passed = [false, false];
                let mut player = starter;
                loop {
                    let done = |m: &Model, p: usize| passed[p] || (placing && m.chips[p] == 0);
                    if done(self, 0) && done(self, 1) {
                        break;
                    }
                    if done(self, player) {
                        player = 1 - player;
                        continue;
                    }
                    match self.turn(placing, player, input.next()) {
                        Step::Again => {}
                        Step::Stop => return,
                        Step::Passed => {
                            passed[player] = true;
                            player = 1 - player;
                        }
                        Step::Done if self.held(0) == 0 || self.held(1) == 0 => return self.end(),
                        Step::Done => player = 1 - player,
                    }
                }
                if self.held(0) == 0 || self.held(1) == 0 {
                    return self.end();
                }
            }
        }
        self.end();
    }

    fn turn(&mut self, placing: bool, p: usize, line: Option<&[u8]>) -> Step {
        let id = ['A', 'B'][p];
        self.out += &if placing {
            format!(
                "Player {id}, you have {} chip(s) left, where and how do you want to place your chips?\n > ",
                self.chips[p]
            )
        } else {
            format!("Player {id}, what do you want to do?\n > ")
        };
        let Some(line) = line else { return Step::Stop };
        let words: Vec<Vec<u8>> = words(line).iter().map(|w| w.to_ascii_lowercase()).collect();
        let Some((command, args)) = words.split_first() else { return Step::Again };
        let error = match (command.as_slice(), args.len()) {
            (b"quit" | b"info" | b"map" | b"pass", 1..) => PARAMETERS,
            (b"quit", _) => return Step::Stop,
            (b"pass", _) => return Step::Passed,
            (b"info", _) => {
                self.out += &format!(
                    "Player {id}:\nYou have {} chip(s) saved!\nYou own {} field(s)!\n\n",
                    self.chips[p],
                    self.held(p)
                );
                return Step::Again;
            }
            (b"map", _) => {
                self.show_map = !self.show_map;
                self.map();
                return Step::Again;
            }
            (b"place", 3) | (b"move", 5) => {
                let outcome = match (command.as_slice(), placing) {
                    (b"place", true) => self.place(p, args),
                    (b"move", false) => self.move_chips(p, args),
                    _ => Err(PHASE),
                };
                match outcome {
                    Ok(()) => {
                        self.map();
                        return Step::Done;
                    }
                    Err(e) => e,
                }
            }
            (b"place" | b"move", _) => PARAMETERS,
            _ => NOT_FOUND,
        };
        self.out += error;
        Step::Again
    }

    /// The field at 1-based (column, row) as typed: anything but a number is 0, off the map.
    fn at(&self, col: &[u8], row: &[u8]) -> Option<usize> {
        let (c, r) = (int(col).unwrap_or(0), int(row).unwrap_or(0));
        let inside = (1..=self.width as i64).contains(&c) && (1..=self.height as i64).contains(&r);
        inside.then(|| (r as usize - 1) * self.width + c as usize - 1)
    }

    fn amount(word: &[u8]) -> Result<u64, &'static str> {
        int(word).filter(|&n| n > 0).map(|n| n as u64).ok_or(AMOUNT)
    }

    fn place(&mut self, p: usize, args: &[Vec<u8>]) -> Result<(), &'static str> {
        let n = Self::amount(&args[0])?;
        if n > self.chips[p] {
            return Err(INVENTORY);
        }
        let i = self.at(&args[1], &args[2]).ok_or(FIELD)?;
        let Field::Held(owner, have) = self.fields[i] else { return Err(FIELD) };
        if owner != p {
            return Err(FIELD);
        }
        self.fields[i] = Field::Held(p, have + n);
        self.chips[p] -= n;
        Ok(())
    }

    fn move_chips(&mut self, p: usize, args: &[Vec<u8>]) -> Result<(), &'static str> {
        let n = Self::amount(&args[0])?;
        let from = self.at(&args[1], &args[2]).ok_or(ORIGIN)?;
        let Field::Held(owner, have) = self.fields[from] else { return Err(ORIGIN) };
        if owner != p {
            return Err(ORIGIN);
        }
        if n > have {
            return Err(ON_ORIGIN);
        }
        let to = self.at(&args[3], &args[4]).ok_or(DESTINATION)?;
        let (fc, fr, tc, tr) = (from % self.width, from / self.width, to % self.width, to / self.width);
        if fc.abs_diff(tc).max(fr.abs_diff(tr)) != 1 {
            return Err(DESTINATION);
        }
        let after = match self.fields[to] {
            Field::Water => return Err(DESTINATION),
            Field::Empty => Field::Held(p, n),
            Field::Held(q, m) if q == p => Field::Held(p, m + n),
            // The handout's formula: dest + 1 - moved.
            Field::Held(q, m) => match (m + 1).cmp(&n) {
                std::cmp::Ordering::Equal => Field::Empty,
                std::cmp::Ordering::Less => Field::Held(p, n - m - 1),
                std::cmp::Ordering::Greater => Field::Held(q, m + 1 - n),
            },
        };
        self.fields[from] = if have == n { Field::Empty } else { Field::Held(p, have - n) };
        self.fields[to] = after;
        Ok(())
    }

    fn end(&mut self) {
        let (a, b) = (self.held(0), self.held(1));
        self.out += &format!("{RULE}\nGAME END!\n\nPlayer A claimed {a} field(s)!\nPlayer B claimed {b} field(s)!\n");
        if a != b {
            self.out += &format!("\nCongratulations, Player {}! You won!\n", if a > b { 'A' } else { 'B' });
        }
    }
}

/// Whether every line of `out` is one the handout defines (prompts end in ` > ` with no line
/// break, so what follows one is a line of its own).
pub fn every_line_is_the_handouts(out: &str) -> Result<(), String> {
    let n = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let id = |s: &str| s == "A" || s == "B";
    let ok = |line: &str| -> bool {
        let start = [
            "[ERROR] Wrong number of parameters!\n",
            "[ERROR] Invalid maximum round number!\n",
            "[ERROR] Invalid file!\n",
        ];
        let errors = [NOT_FOUND, PARAMETERS, PHASE, AMOUNT, INVENTORY, FIELD, ORIGIN, ON_ORIGIN, DESTINATION]
            .into_iter()
            .chain(start);
        if line.is_empty() || errors.into_iter().any(|e| e.trim_end() == line) {
            return true;
        }
        if [RULE, "Welcome to OOPtimal Tactics!", "Placement Phase", "Movement Phase", "GAME END!"].contains(&line) {
            return true;
        }
        let between = |pre: &str, post: &str| line.strip_prefix(pre).and_then(|l| l.strip_suffix(post));
        if let Some(r) = between("Playing maximum of ", " round(s)!") {
            return n(r);
        }
        if let Some((r, max)) = between("Round ", " starts!").and_then(|r| r.split_once('/')) {
            return n(r) && n(max);
        }
        if let Some((p, c)) = between("Player ", " chip(s) left, where and how do you want to place your chips?")
            .and_then(|s| s.split_once(", you have "))
        {
            return id(p) && n(c);
        }
        if let Some(p) = between("Player ", ", what do you want to do?").or_else(|| between("Player ", ":")) {
            return id(p);
        }
        if let Some(c) = between("You have ", " chip(s) saved!").or_else(|| between("You own ", " field(s)!")) {
            return n(c);
        }
        if let Some((p, c)) = between("Player ", " field(s)!").and_then(|s| s.split_once(" claimed ")) {
            return id(p) && n(c);
        }
        if let Some(p) = between("Congratulations, Player ", "! You won!") {
            return id(p);
        }
        // The map: the column header, then rows of fields.
        if let Some(cols) = line.strip_prefix("  ") {
            let cols: Vec<&str> = cols.split('|').skip(1).collect();
            return !cols.is_empty() && cols.iter().enumerate().all(|(i, c)| *c == format!(" {} ", i + 1));
        }
        let mut parts = line.split('|');
        let row = parts.next().unwrap_or("");
        let fields: Vec<&str> = parts.collect();
        let held = |f: &str| f.get(..2).is_some_and(|p| p == "A " || p == "B ") && n(&f[2..]);
        row.len() == 2
            && row.ends_with(' ')
            && n(row.trim_end())
            && !fields.is_empty()
            && fields.iter().all(|f| ["   ", " ~ "].contains(f) || held(f))
    };
    for line in out.split('\n') {
        let mut line = line;
        while let Some(rest) = line.strip_prefix(" > ") {
            line = rest;
        }
        if !ok(line) {
            return Err(format!("not a line of the handout: {line:?}"));
        }
    }
    Ok(())
}

/// A config that is well formed after its magic number: the handout's, small ones (one where B
/// holds nothing), and random ones whose rows hold any bytes.
fn well_formed() -> impl Strategy<Value = Vec<u8>> {
    let random = (1usize..=4, 1usize..=4).prop_flat_map(|(w, h)| {
        let cell = select(vec![b'a', b'a', b'b', b'b', b'0', b'0', b'-', 0xff, b'x', b'\r']);
        prop::collection::vec(cell, w * h).prop_map(move |cells| {
            let mut text = format!("OOP\n{w}_{h}\n").into_bytes();
            for row in cells.chunks(w) {
                text.extend(row);
                text.push(b'\n');
            }
            text
        })
    });
    prop_oneof![
        3 => Just(include_bytes!("../../../maps/tactics/config_01.txt").to_vec()),
        1 => Just(b"OOP\n2_1\nab\n".to_vec()),
        1 => Just(b"OOP\n2_2\naa\n00\n".to_vec()),
        4 => random,
    ]
}

fn config() -> impl Strategy<Value = Config> {
    let bad = (well_formed(), 0u8..7).prop_map(|(text, how)| {
        let rest = text[4..].to_vec();
        match how {
            0 => text.iter().flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] }).collect(),
            1 => [b"\xef\xbb\xbf".to_vec(), text].concat(),
            2 => [b"OOP".to_vec(), rest].concat(),
            3 => b"OOP".to_vec(),
            4 => [b"oop\n".to_vec(), rest].concat(),
            5 => [b" OOP\n".to_vec(), rest].concat(),
            _ => Vec::new(),
        }
    });
    prop_oneof![
        12 => well_formed().prop_map(|b| Config::File(Bytes(b))),
        3 => bad.prop_map(|b| Config::File(Bytes(b))),
        1 => Just(Config::Missing),
        1 => Just(Config::Folder),
    ]
}

fn rounds() -> impl Strategy<Value = Vec<u8>> {
    let odd = vec!["0", "-1", "x", "", "+2", "02", "2 ", " 2", "4294967295", "4294967296", "99999999999999999999"];
    prop_oneof![
        12 => (1u32..=4).prop_map(|r| r.to_string().into_bytes()),
        2 => select(odd).prop_map(|s| s.as_bytes().to_vec()),
        1 => junk(),
    ]
}

/// A command line: mostly plausible `place` and `move` commands, passes, the other commands,
/// wrong parameter counts, unknown words and lines with nothing to do; `quit` is rare so that
/// games get to their end.
fn command() -> impl Strategy<Value = Vec<u8>> {
    let place = (cased("place"), number(3), number(5), number(5)).prop_map(|(c, n, x, y)| vec![c, n, x, y]);
    let step = (cased("move"), number(3), 1i64..=5, 1i64..=5, -1i64..=1, -1i64..=1).prop_map(|(c, n, x, y, dx, dy)| {
        [x, y, x + dx, y + dy].iter().fold(vec![c, n], |mut words, v| {
            words.push(v.to_string().into_bytes());
            words
        })
    });
    let any_move = (cased("move"), prop::collection::vec(number(6), 5)).prop_map(|(c, args)| [vec![c], args].concat());
    let keyword = select(vec!["place", "move", "pass", "info", "map", "quit"]).prop_flat_map(cased);
    let arity = (keyword, prop::collection::vec(number(5), 0..7)).prop_map(|(c, args)| [vec![c], args].concat());
    let unknown =
        (select(vec!["help", "jump", "pl\u{430}ce", "\u{212a}", "placemove"]), prop::collection::vec(number(5), 0..4))
            .prop_map(|(c, args)| [vec![c.as_bytes().to_vec()], args].concat());
    prop_oneof![
        40 => spaced(place),
        50 => spaced(step),
        4 => spaced(any_move),
        24 => spaced(cased("pass").prop_map(|p| vec![p])),
        4 => spaced(select(vec!["info", "map"]).prop_flat_map(cased).prop_map(|p| vec![p])),
        6 => spaced(arity),
        4 => spaced(unknown),
        6 => nothing(),
        1 => spaced(cased("quit").prop_map(|q| vec![q])),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let count = prop_oneof![20 => Just(2usize), 1 => Just(0usize), 1 => Just(1usize), 1 => Just(3usize)];
    let name = prop_oneof![4 => Just(b"config.txt".to_vec()), 1 => Just(b"c\xff.txt".to_vec())];
    (count, rounds(), config(), name, session(command(), 90)).prop_map(|(count, rounds, config, name, input)| Case {
        count,
        rounds: Bytes(rounds),
        config,
        name: Bytes(name),
        input,
    })
}

pub fn in_process() {
    let (ends, ties, quits, codes) = (Cell::new(0), Cell::new(0), Cell::new(0), Cell::new([0u32; 4]));
    crate::fuzz(400, case(), |case| {
        let dir = tempfile::tempdir().unwrap();
        let params = case.params(dir.path());
        let mut out = Vec::new();
        let code =
            classic::run(&params, &mut &case.input.0[..], &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let out = String::from_utf8(out).map_err(|_| TestCaseError::fail("output that is not UTF-8"))?;
        let (expected, expected_code) = model(&case);
        prop_assert_eq!(&out, &expected);
        prop_assert_eq!(code, expected_code);
        every_line_is_the_handouts(&out).map_err(TestCaseError::fail)?;
        ends.set(ends.get() + u32::from(out.contains("GAME END!")));
        ties.set(ties.get() + u32::from(out.contains("GAME END!") && !out.contains("Congratulations")));
        quits.set(quits.get() + u32::from(code == 0 && !out.contains("GAME END!")));
        let mut seen = codes.get();
        seen[code as usize] += 1;
        codes.set(seen);
        Ok(())
    });
    // The sessions reach every way the program ends.
    let codes = codes.get();
    assert!(ends.get() >= 20 && ties.get() >= 3 && quits.get() >= 20, "ends {ends:?}, ties {ties:?}, quits {quits:?}");
    assert!(codes.iter().all(|&c| c >= 3), "exit codes 0..3: {codes:?}");
}

pub fn through_the_binary() {
    crate::fuzz(40, case(), |case| {
        let dir = tempfile::tempdir().unwrap();
        let args = [vec![OsString::from("play"), OsString::from("tactics")], case.params(dir.path())].concat();
        let ran = crate::arena(dir.path(), &args, &case.input.0);
        let (expected, code) = model(&case);
        prop_assert_eq!(String::from_utf8_lossy(&ran.stdout), expected);
        prop_assert_eq!(ran.code, Some(code));
        prop_assert_eq!(ran.stderr, "");
        Ok(())
    });
    // Options that belong to another program are refused before anything runs.
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<OsString> = ["play", "tactics", "--seed", "1", "1", "x"].iter().map(OsString::from).collect();
    let ran = crate::arena(dir.path(), &args, b"");
    assert_eq!((ran.code, ran.stdout.as_slice()), (Some(1), &b""[..]));
    assert_eq!(ran.stderr, "error: --seed and --dice are for `arena play lcr` only\n");
}
