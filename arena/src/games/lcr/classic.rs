//! The original text program, exactly: the prompt, then the whole game as the handout prints
//! it (8-space indents, `1 chips`, `1 dice` and `1 players` as printed there).

use std::io::{self, BufRead, Write};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{DieEffect, Lcr, MAX_PLAYERS};

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

    /// Parses `7,0,4,…` (each 0..=7).
    pub fn given(list: &str) -> Result<Dice, String> {
        let dice: Result<Vec<u8>, String> = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| match s.parse::<u8>() {
                Ok(d) if d <= 7 => Ok(d),
                _ => Err(format!("--dice: `{s}` is not a die value 0..7")),
            })
            .collect();
        Ok(Dice::Given(dice?, 0))
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

/// Asks for the number of players until it gets a valid one; `None` at end of input.
fn ask_players(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<Option<usize>> {
    let mut line = String::new();
    loop {
        write!(out, "How many players are playing: ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        match line.trim().parse::<usize>() {
            Ok(n) if (2..=MAX_PLAYERS).contains(&n) => return Ok(Some(n)),
            Ok(n) if n < 2 => writeln!(out, "At least 2 players are needed to play.")?,
            Ok(_) => writeln!(out, "At most {MAX_PLAYERS} players can play.")?,
            Err(_) => writeln!(out, "Please enter the number of players as a whole number, such as 3.")?,
        }
    }
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
        let mut out = Vec::new();
        let code = run(&mut input.as_bytes(), &mut out, dice).unwrap();
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
        assert_eq!(Dice::given("7,8").err().unwrap(), "--dice: `8` is not a die value 0..7");
    }
}
