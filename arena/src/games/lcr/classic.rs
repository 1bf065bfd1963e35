//! The original text program, exactly: the prompt, then the whole game as the handout prints
//! it (8-space indents, `1 chips`, `1 dice` and `1 players` as printed there).

use std::io::{self, BufRead, Write};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use thiserror::Error;

use super::{DieEffect, Lcr, MAX_PLAYERS};
use crate::engine::{ClassicError, ClassicSession};
use crate::games::classic_input::{read_line, text, trim};

/// A `--dice` list that is not a list of dice.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BadDice {
    /// Something in it is not a die.
    #[error("--dice: `{0}` is not a die value 0..7")]
    NotADie(String),
    /// It has no dice at all (`--dice ""`): the game could not roll once.
    #[error("--dice: no dice given: list the rolls 0..7, comma-separated (`--dice 7,0,4`), or leave --dice out for random dice")]
    Empty,
}

/// Where the dice come from.
pub enum Dice {
    /// Random, from a seed (recorded so a run can be repeated).
    Seeded(Box<StdRng>),
    /// A given sequence (for checking transcripts); running out is an error.
    Given(Vec<u8>, usize),
}

impl Dice {
    /// Random dice from `seed`.
    pub fn seeded(seed: u64) -> Dice {
        Dice::Seeded(Box::new(StdRng::seed_from_u64(seed)))
    }

    /// Parses `7,0,4,…` (each 0..=7; at least one).
    pub fn given(list: &str) -> Result<Dice, BadDice> {
        let dice: Vec<u8> = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| match s.parse::<u8>() {
                Ok(d) if d <= 7 => Ok(d),
                _ => Err(BadDice::NotADie(s.to_string())),
            })
            .collect::<Result<_, _>>()?;
        if dice.is_empty() {
            return Err(BadDice::Empty);
        }
        Ok(Dice::Given(dice, 0))
    }

    fn roll(&mut self) -> Option<u8> {
        match self {
            Dice::Seeded(rng) => Some(rng.random_range(0..8)),
            Dice::Given(list, at) => {
                let d = list.get(*at).copied();
                *at += 1;
                d
            }
        }
    }
}

/// Asks for the number of players until it gets a valid one; `None` at end of input. The
/// answer is read as bytes: one that is not UTF-8 is just not a number.
fn ask_players(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<Option<usize>> {
    let mut line = Vec::new();
    loop {
        write!(out, "How many players are playing: ")?;
        out.flush()?;
        if !read_line(input, &mut line)? {
            writeln!(out)?;
            return Ok(None);
        }
        match players(trim(&line)) {
            Some(n) if (2..=MAX_PLAYERS).contains(&n) => return Ok(Some(n)),
            Some(n) if n < 2 => writeln!(out, "At least 2 players are needed to play.")?,
            Some(_) => writeln!(out, "At most {MAX_PLAYERS} players can play.")?,
            None => writeln!(out, "Please enter the number of players as a whole number, such as 3.")?,
        }
    }
}

/// A whole number (digits after an optional sign), of any size: a negative one counts as 0, one
/// too large for `usize` as `usize::MAX`.
fn players(answer: &[u8]) -> Option<usize> {
    let (negative, digits) = match answer.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, answer),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(if negative { 0 } else { text(digits).parse().unwrap_or(usize::MAX) })
}

/// `arena play lcr`: the program with the session's dice (the given list, else random from
/// its seed).
pub fn session(mut s: ClassicSession<'_>) -> Result<i32, ClassicError> {
    let mut dice = match s.dice {
        Some(list) => Dice::given(list).map_err(|e| ClassicError::Options(Box::new(e)))?,
        None => Dice::seeded(s.seed),
    };
    Ok(run(&mut s.input, &mut s.output, &mut dice)?)
}

/// Runs the program: returns its exit status (0 when a game was played or input ended at the
/// prompt, 1 when given dice ran out).
pub fn run(input: &mut impl BufRead, out: &mut impl Write, dice: &mut Dice) -> io::Result<i32> {
    let Some(players) = ask_players(input, out)? else { return Ok(0) };
    let mut game = Lcr::new(players);
    const PAD: &str = "        ";
    while !game.is_over() {
        let me = game.current;
        writeln!(out, "Player #{} has {} chips left", me + 1, game.chips[me])?;
        let n = game.start_turn();
        writeln!(out, "{PAD}Rolling {n} dice")?;
        for _ in 0..n {
            let Some(d) = dice.roll() else {
                out.flush()?;
                eprintln!("error: the given dice ran out before the game ended");
                return Ok(1);
            };
            let line = match game.roll(d) {
                DieEffect::Keep => format!("Rolled a {d} - keep!"),
                DieEffect::Left { to } => format!(
                    "Rolled a {d} - give left - Player #{} has {} chips - Player #{} has {} chips",
                    to + 1,
                    game.chips[to],
                    me + 1,
                    game.chips[me]
                ),
                DieEffect::Right { to } => format!(
                    "Rolled a {d} - give right - Player #{} has {} chips - Player #{} has {} chips",
                    to + 1,
                    game.chips[to],
                    me + 1,
                    game.chips[me]
                ),
                DieEffect::Center => {
                    format!(
                        "Rolled a {d} - give center - Center has {} chips - Player #{} has {} chips",
                        game.center,
                        me + 1,
                        game.chips[me]
                    )
                }
                DieEffect::Reverse => format!("Rolled a {d} - reverse!"),
                DieEffect::Skip { skips } => format!("Rolled a {d} - skip! skipping {skips} players"),
            };
            writeln!(out, "{PAD}{line}")?;
        }
    }
    if let Some(w) = game.winner() {
        writeln!(out, "Player #{} wins with {} chips left after {} turns", w + 1, game.chips[w], game.turns)?;
    }
    out.flush()?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two example runs of the handout (copied into `examples/`), as their stdout really
    /// is (the typed player count is echoed by the terminal, not printed by the program), the
    /// typed input, and the dice they show.
    fn spec_run(index: usize) -> (String, String, Vec<u8>) {
        let runs = [
            (include_str!("examples/run1.stdin"), include_str!("examples/run1.stdout")),
            (include_str!("examples/run2.stdin"), include_str!("examples/run2.stdout")),
        ];
        let (players, stdout) = runs[index];
        let (players, stdout) = (players.trim().to_string(), stdout.to_string());
        let dice = stdout
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Rolled a "))
            .map(|l| l[..1].parse::<u8>().unwrap())
            .collect();
        (players, stdout, dice)
    }

    fn play(input: &str, dice: &mut Dice) -> (String, i32) {
        play_bytes(input.as_bytes(), dice)
    }

    fn play_bytes(mut input: &[u8], dice: &mut Dice) -> (String, i32) {
        let mut out = Vec::new();
        let code = run(&mut input, &mut out, dice).unwrap();
        (String::from_utf8(out).unwrap(), code)
    }

    #[test]
    fn both_handout_runs_reproduce_byte_for_byte() {
        for index in 0..2 {
            let (players, expected, dice) = spec_run(index);
            let (got, code) = play(&format!("{players}\n"), &mut Dice::Given(dice, 0));
            assert_eq!(code, 0);
            assert_eq!(got, expected, "example run {}", index + 1);
        }
        assert!(spec_run(0).1.ends_with("Player #1 wins with 3 chips left after 8 turns\n"));
        assert!(spec_run(1).1.ends_with("Player #3 wins with 1 chips left after 25 turns\n"));
    }

    #[test]
    fn bad_input_asks_again_and_end_of_input_stops() {
        let (got, code) = play("three\n1\n\n2\n", &mut Dice::Given(vec![0; 200], 0));
        assert_eq!(code, 1, "all-keep dice never end a game: the given dice run out");
        let prompts = got.matches("How many players are playing: ").count();
        assert_eq!(prompts, 4);
        assert!(got.contains("Please enter the number of players as a whole number, such as 3.\n"));
        assert!(got.contains("At least 2 players are needed to play.\n"));
        let (got, code) = play("", &mut Dice::seeded(1));
        assert_eq!((got.as_str(), code), ("How many players are playing: \n", 0));
    }

    #[test]
    fn seeded_runs_repeat_and_always_end() {
        for seed in 0..50 {
            let (a, code) = play("4\n", &mut Dice::seeded(seed));
            assert_eq!(code, 0);
            assert_eq!(a, play("4\n", &mut Dice::seeded(seed)).0);
            assert!(a.lines().last().unwrap().contains(" wins with "), "{a}");
        }
    }

    #[test]
    fn dice_lists_are_checked() {
        assert!(Dice::given("7,0, 4").is_ok());
        assert_eq!(Dice::given("7,8").err().unwrap().to_string(), "--dice: `8` is not a die value 0..7");
        // No dice at all is refused before the game asks anything (it ran out at the first roll).
        for empty in ["", " ", ",", " , ,"] {
            assert_eq!(Dice::given(empty).err(), Some(BadDice::Empty), "{empty:?}");
        }
        assert!(Dice::given("5").is_ok(), "the control: one die is a list");
    }

    #[test]
    fn any_bytes_are_an_answer_and_numbers_of_any_size_are_numbers() {
        const ASK: &str = "How many players are playing: ";
        const WHOLE: &str = "Please enter the number of players as a whole number, such as 3.\n";
        const FEW: &str = "At least 2 players are needed to play.\n";
        const MANY: &str = "At most 10000 players can play.\n";
        let input = b"\xff\xfe\n3\xa0\n\xef\xbc\x93\n99999999999999999999999\n-99999999999999999999999\n+1\n10001\n \t+2\x0b\r\n";
        let (got, code) = play_bytes(input, &mut Dice::Given(vec![5, 5, 5], 0));
        assert_eq!(code, 0);
        let game = concat!(
            "Player #1 has 3 chips left\n        Rolling 3 dice\n",
            "        Rolled a 5 - give center - Center has 1 chips - Player #1 has 2 chips\n",
            "        Rolled a 5 - give center - Center has 2 chips - Player #1 has 1 chips\n",
            "        Rolled a 5 - give center - Center has 3 chips - Player #1 has 0 chips\n",
            "Player #2 wins with 3 chips left after 1 turns\n",
        );
        let expected =
            [ASK, WHOLE, ASK, WHOLE, ASK, WHOLE, ASK, MANY, ASK, FEW, ASK, FEW, ASK, MANY, ASK, game].concat();
        assert_eq!(got, expected);
    }
}
