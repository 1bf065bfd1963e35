//! Wild Left-Center-Right (`arena play lcr`): a model of the handout's program (with the
//! decisions of `docs/rules/lcr.md`), random answers to its prompt and random dice.

use std::cell::Cell;
use std::ffi::OsString;

use arena::games::lcr::classic::{run, Dice};
use proptest::prelude::*;
use proptest::sample::select;

use crate::gen::{is_space, lines, nothing, number, session, signed, spaced, Bytes};

const ASK: &str = "How many players are playing: ";
const MAX_PLAYERS: usize = 10_000;
const PAD: &str = "        ";
const DICE_RAN_OUT: &str = "error: the given dice ran out before the game ended\n";

/// One run: stdin, and the dice (`None`: random from `seed`).
#[derive(Clone, Debug)]
pub struct Case {
    input: Bytes,
    dice: Option<Vec<u8>>,
    seed: u64,
}

/// The answer to the prompt: a whole number of any size (a negative one is 0, a huge one
/// `usize::MAX`), or `None`.
fn players(line: &[u8]) -> Option<usize> {
    let start = line.iter().position(|&b| !is_space(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|&b| !is_space(b)).map_or(start, |i| i + 1);
    let (negative, digits) = signed(&line[start..end])?;
    let value = std::str::from_utf8(digits).ok()?.parse().unwrap_or(usize::MAX);
    Some(if negative { 0 } else { value })
}

/// The model's stdout and exit status, playing `dice` in order; the second status says the
/// dice ran out.
pub fn model(input: &[u8], dice: &[u8]) -> (String, i32) {
    let mut out = String::new();
    let mut answers = lines(input);
    let n = loop {
        out += ASK;
        let Some(line) = answers.next() else { return (out + "\n", 0) };
        match players(line) {
            Some(n) if (2..=MAX_PLAYERS).contains(&n) => break n,
            Some(n) if n < 2 => out += "At least 2 players are needed to play.\n",
            Some(_) => out += "At most 10000 players can play.\n",
            None => out += "Please enter the number of players as a whole number, such as 3.\n",
        }
    };
    let mut chips = vec![3u64; n];
    let (mut center, mut current, mut clockwise, mut turns) = (0u64, 0usize, true, 0u64);
    let mut dice = dice.iter();
    while chips.iter().filter(|&&c| c > 0).count() >= 2 {
        let me = current;
        out += &format!("Player #{} has {} chips left\n", me + 1, chips[me]);
        turns += 1;
        let rolls = chips[me].min(3);
        out += &format!("{PAD}Rolling {rolls} dice\n");
        let mut skips = 0;
        for _ in 0..rolls {
            let Some(&d) = dice.next() else { return (out, 1) };
            let give = |chips: &mut Vec<u64>, to: usize| {
                chips[to] += 1;
                chips[me] -= 1;
                format!("Player #{} has {} chips - Player #{} has {} chips", to + 1, chips[to], me + 1, chips[me])
            };
            out += &match d {
                0..=2 => format!("{PAD}Rolled a {d} - keep!\n"),
                // Left is the next player, right the previous one, whatever the direction.
                3 => format!("{PAD}Rolled a {d} - give left - {}\n", give(&mut chips, (me + 1) % n)),
                4 => format!("{PAD}Rolled a {d} - give right - {}\n", give(&mut chips, (me + n - 1) % n)),
                5 => {
                    center += 1;
                    chips[me] -= 1;
                    format!(
                        "{PAD}Rolled a {d} - give center - Center has {center} chips - Player #{} has {} chips\n",
                        me + 1,
                        chips[me]
                    )
                }
                6 => {
                    clockwise = !clockwise;
                    format!("{PAD}Rolled a {d} - reverse!\n")
                }
                _ => {
                    skips += 1;
                    format!("{PAD}Rolled a {d} - skip! skipping {skips} players\n")
                }
            };
        }
        // One step on, one more per skip, counting everyone; then on to someone with chips.
        let step = |p: usize| if clockwise { (p + 1) % n } else { (p + n - 1) % n };
        for _ in 0..=skips {
            current = step(current);
        }
        while chips[current] == 0 && chips.iter().any(|&c| c > 0) {
            current = step(current);
        }
    }
    if let Some(w) = chips.iter().position(|&c| c > 0) {
        out += &format!("Player #{} wins with {} chips left after {turns} turns\n", w + 1, chips[w]);
    }
    (out, 0)
}

/// The dice an output shows, in order.
fn rolls(out: &str) -> Vec<u8> {
    out.lines()
        .filter_map(|l| l.strip_prefix(PAD)?.strip_prefix("Rolled a ")?.bytes().next())
        .map(|d| d - b'0')
        .collect()
}

/// Whether every line of `out` is one the handout (or, for the prompt, the rules page) shows.
fn every_line_is_the_handouts(out: &str) -> Result<(), String> {
    let n = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let player = |s: &str, rest: &str| s.strip_prefix("Player #").and_then(|s| s.strip_suffix(rest)).is_some_and(n);
    let gives = |s: &str| {
        let parts: Vec<&str> = s.split(" - ").collect();
        parts.len() == 2
            && parts.iter().all(|p| {
                player(p, " chips")
                    || p.split_once(" has ").is_some_and(|(who, c)| player(who, "") && n(c.trim_end_matches(" chips")))
            })
    };
    for line in out.lines() {
        let line = line.trim_start_matches(ASK);
        let ok = line.is_empty()
            || [
                "Please enter the number of players as a whole number, such as 3.",
                "At least 2 players are needed to play.",
                "At most 10000 players can play.",
            ]
            .contains(&line)
            || line
                .strip_suffix(" chips left")
                .and_then(|l| l.split_once(" has "))
                .is_some_and(|(p, c)| player(p, "") && n(c))
            || line
                .strip_prefix(PAD)
                .and_then(|l| l.strip_prefix("Rolling "))
                .and_then(|l| l.strip_suffix(" dice"))
                .is_some_and(|d| ["1", "2", "3"].contains(&d))
            || line.strip_prefix(PAD).and_then(|l| l.strip_prefix("Rolled a ")).is_some_and(|l| {
                let (d, what) = l.split_at(1.min(l.len()));
                n(d) && match what {
                    " - keep!" | " - reverse!" => true,
                    _ => {
                        what.strip_prefix(" - skip! skipping ").and_then(|s| s.strip_suffix(" players")).is_some_and(n)
                            || what.strip_prefix(" - give left - ").is_some_and(gives)
                            || what.strip_prefix(" - give right - ").is_some_and(gives)
                            || what
                                .strip_prefix(" - give center - Center has ")
                                .and_then(|s| s.split_once(" chips - "))
                                .is_some_and(|(c, p)| n(c) && gives(&format!("Player #1 has {c} chips - {p}")))
                    }
                }
            })
            || line.split_once(" wins with ").is_some_and(|(p, rest)| {
                player(p, "")
                    && rest
                        .strip_suffix(" turns")
                        .and_then(|r| r.split_once(" chips left after "))
                        .is_some_and(|(c, t)| n(c) && n(t))
            });
        if !ok {
            return Err(format!("not a line of the handout: {line:?}"));
        }
    }
    Ok(())
}

/// An answer to the prompt: mostly a small player count, sometimes too few, too many, huge,
/// signed, or nothing like a number.
fn answer() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => spaced((2usize..=7).prop_map(|n| vec![n.to_string().into_bytes()])),
        2 => spaced(number(3).prop_map(|n| vec![n])),
        1 => spaced(select(vec!["10000", "10001", "0", "-2", "3 4", "three", "\u{663}"]).prop_map(|s| vec![s.as_bytes().to_vec()])),
        2 => nothing(),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    // (At least one: `--dice` with none is refused before the game, as its own test shows.)
    let some_dice = || prop::collection::vec(0u8..8, 1..120);
    let dice = prop_oneof![1 => Just(None), 1 => some_dice().prop_map(Some)];
    (session(answer(), 4), dice, any::<u64>(), some_dice()).prop_map(|(input, dice, seed, given)| {
        // Random dice play a game to its end, which takes long with thousands of players:
        // those get given dice, which run out.
        let many = lines(&input.0).filter_map(players).find(|n| (2..=MAX_PLAYERS).contains(n)).is_some_and(|n| n > 100);
        let dice = if many && dice.is_none() { Some(given) } else { dice };
        Case { input, dice, seed }
    })
}

fn dice_list(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

pub fn in_process() {
    let (games, ran_out) = (Cell::new(0), Cell::new(0));
    crate::fuzz(400, case(), |case| {
        let mut out = Vec::new();
        let mut dice = match &case.dice {
            Some(list) => Dice::given(&dice_list(list)).map_err(|e| TestCaseError::fail(e.to_string()))?,
            None => Dice::seeded(case.seed),
        };
        let code = run(&mut &case.input.0[..], &mut out, &mut dice).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let out = String::from_utf8(out).map_err(|_| TestCaseError::fail("output that is not UTF-8"))?;
        // Random dice show in the output: the model plays the same ones.
        let dice = case.dice.clone().unwrap_or_else(|| rolls(&out));
        let (expected, expected_code) = model(&case.input.0, &dice);
        prop_assert_eq!(&out, &expected);
        prop_assert_eq!(code, expected_code);
        every_line_is_the_handouts(&out).map_err(TestCaseError::fail)?;
        games.set(games.get() + u32::from(out.contains(" wins with ")));
        ran_out.set(ran_out.get() + u32::from(code == 1));
        Ok(())
    });
    assert!(games.get() >= 50 && ran_out.get() >= 20, "games {games:?}, dice ran out {ran_out:?}");
}

pub fn through_the_binary() {
    crate::fuzz(40, case(), |case| {
        let dir = tempfile::tempdir().unwrap();
        let option = match &case.dice {
            Some(list) => ["--dice".to_string(), dice_list(list)],
            None => ["--seed".to_string(), case.seed.to_string()],
        };
        let args: Vec<OsString> = ["play", "lcr", &option[0], &option[1]].iter().map(OsString::from).collect();
        let ran = crate::arena(dir.path(), &args, &case.input.0);
        let out = String::from_utf8_lossy(&ran.stdout);
        let dice = case.dice.clone().unwrap_or_else(|| rolls(&out));
        let (expected, code) = model(&case.input.0, &dice);
        prop_assert_eq!(out, expected);
        prop_assert_eq!(ran.code, Some(code));
        prop_assert_eq!(ran.stderr, if code == 1 { DICE_RAN_OUT } else { "" });
        Ok(())
    });
    // Start-up errors: dice that are not dice, a seed that is not a number, parameters the
    // program does not take.
    let dir = tempfile::tempdir().unwrap();
    for (args, code, message) in [
        (&["--dice", "1,8"][..], 1, "error: --dice: `8` is not a die value 0..7\n"),
        (&["--dice", "x"], 1, "error: --dice: `x` is not a die value 0..7\n"),
        (&["--dice", "-1"], 1, "error: --dice: `-1` is not a die value 0..7\n"),
        (&["--seed", "1", "3"], 1, "error: `arena play lcr` takes no parameters (got `3`)\n"),
        (&["--seed", "x"], 2, "error: invalid value 'x' for '--seed <SEED>'"),
        (&["--seed", "1", "--dice", "1"], 2, "error: the argument '--seed <SEED>' cannot be used with '--dice <LIST>'"),
    ] {
        let args: Vec<OsString> = ["play", "lcr"].iter().chain(args).map(OsString::from).collect();
        let ran = crate::arena(dir.path(), &args, b"2\n");
        assert_eq!((ran.code, ran.stdout.len()), (Some(code), 0), "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.starts_with(message), "{args:?}: {}", ran.stderr);
    }
}

pub fn model_reproduces_the_handout() {
    for run in ["run1", "run2"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../arena/src/games/lcr/examples");
        let input = std::fs::read(dir.join(format!("{run}.stdin"))).unwrap();
        let expected = std::fs::read_to_string(dir.join(format!("{run}.stdout"))).unwrap();
        assert_eq!(model(&input, &rolls(&expected)), (expected.clone(), 0), "{run}");
        every_line_is_the_handouts(&expected).unwrap();
    }
}
