//! The original OOPtimal Tactics program (`./a1 <ROUNDS> <CONFIG>`), byte for byte: welcome,
//! round and phase headers, maps, prompts with their spaces, commands (case-insensitive,
//! extra whitespace ignored), error messages in their precedence, and return values.

use std::io::{self, BufRead, Write};

use super::{Board, CommandError, Phase, IDS};

const RULE: &str = "------------------";

/// Runs the program with its command-line parameters (`<ROUNDS> <CONFIG>`); returns the exit
/// status: 0 normally, 1 wrong parameter count, 2 bad round number, 3 bad config file.
pub fn run(params: &[String], input: &mut impl BufRead, out: &mut impl Write) -> io::Result<i32> {
    let [rounds, config] = params else {
        writeln!(out, "[ERROR] Wrong number of parameters!")?;
        return Ok(1);
    };
    let rounds = match rounds.parse::<u32>() {
        Ok(r) if r >= 1 && rounds.bytes().all(|b| b.is_ascii_digit()) => r,
        _ => {
            writeln!(out, "[ERROR] Invalid maximum round number!")?;
            return Ok(2);
        }
    };
    let Some(mut board) = std::fs::read_to_string(config).ok().and_then(|t| Board::parse(&t).ok()) else {
        writeln!(out, "[ERROR] Invalid file!")?;
        return Ok(3);
    };
    writeln!(out, "Welcome to OOPtimal Tactics!\nPlaying maximum of {rounds} round(s)!")?;
    let mut game = Classic { board: &mut board, show_map: true, input, out };
    game.play(rounds)
}

struct Classic<'a, R, W> {
    board: &'a mut Board,
    show_map: bool,
    input: &'a mut R,
    out: &'a mut W,
}

/// What a player's command did.
enum Outcome {
    /// Ask the same player again.
    Again,
    /// The player's turn is over.
    Done,
    /// The player passed for the rest of the phase.
    Passed,
    /// Quit, or end of input: stop the program.
    Stop,
}

impl<R: BufRead, W: Write> Classic<'_, R, W> {
    fn map(&mut self) -> io::Result<()> {
        if self.show_map {
            write!(self.out, "{}", self.board.render())?;
        }
        Ok(())
    }

    fn play(&mut self, rounds: u32) -> io::Result<i32> {
        for round in 1..=rounds {
            write!(self.out, "\n{RULE}\nRound {round}/{rounds} starts!\n{RULE}\n\n")?;
            self.board.hand_out_chips();
            for phase in [Phase::Placement, Phase::Movement] {
                let title = if phase == Phase::Placement { "Placement Phase" } else { "Movement Phase" };
                write!(self.out, "{RULE}\n{title}\n{RULE}\n")?;
                self.map()?;
                match self.phase(phase, phase.starter(round))? {
                    Some(code) => return Ok(code),
                    None if self.board.has_loser() => return self.end(),
                    None => {}
                }
            }
        }
        self.end()
    }

    /// Plays one phase; `Some(code)` when the program must stop.
    fn phase(&mut self, phase: Phase, starter: usize) -> io::Result<Option<i32>> {
        let mut passed = [false, false];
        let mut player = starter;
        loop {
            let done = |p: usize| self.board.done(phase, p, passed[p]);
            if done(0) && done(1) {
                return Ok(None);
            }
            if done(player) {
                player = 1 - player;
                continue;
            }
            match self.turn(phase, player)? {
                Outcome::Again => {}
                Outcome::Stop => return Ok(Some(0)),
                Outcome::Passed => {
                    passed[player] = true;
                    player = 1 - player;
                }
                Outcome::Done => {
                    if self.board.has_loser() {
                        return Ok(None);
                    }
                    player = 1 - player;
                }
            }
        }
    }

    /// Prompts `player` once and carries out its command.
    fn turn(&mut self, phase: Phase, player: usize) -> io::Result<Outcome> {
        let id = IDS[player];
        match phase {
            Phase::Placement => write!(
                self.out,
                "Player {id}, you have {} chip(s) left, where and how do you want to place your chips?\n > ",
                self.board.chips[player]
            )?,
            Phase::Movement => write!(self.out, "Player {id}, what do you want to do?\n > ")?,
        }
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(Outcome::Stop);
        }
        let lower = line.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            writeln!(self.out, "{}", CommandError::NotFound.message())?;
            return Ok(Outcome::Again);
        };
        let result = match command {
            "quit" | "info" | "map" | "pass" if !args.is_empty() => Err(CommandError::Parameters),
            "quit" => return Ok(Outcome::Stop),
            "info" => {
                let b = &self.board;
                write!(
                    self.out,
                    "Player {id}:\nYou have {} chip(s) saved!\nYou own {} field(s)!\n\n",
                    b.chips[player],
                    b.claimed(player)
                )?;
                return Ok(Outcome::Again);
            }
            "map" => {
                self.show_map = !self.show_map;
                self.map()?;
                return Ok(Outcome::Again);
            }
            "pass" => return Ok(Outcome::Passed),
            _ => self.board.command(player, phase, command, args),
        };
        match result {
            Err(e) => {
                writeln!(self.out, "{}", e.message())?;
                Ok(Outcome::Again)
            }
            Ok(()) => {
                self.map()?;
                Ok(Outcome::Done)
            }
        }
    }

    fn end(&mut self) -> io::Result<i32> {
        write!(self.out, "{RULE}\nGAME END!\n\n")?;
        let (a, b) = (self.board.claimed(0), self.board.claimed(1));
        write!(self.out, "Player A claimed {a} field(s)!\nPlayer B claimed {b} field(s)!\n\n")?;
        if a != b {
            writeln!(self.out, "Congratulations, Player {}! You won!", if a > b { 'A' } else { 'B' })?;
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An example run of the handout (copied into `examples/`): the commands typed after
    /// ` > `, and stdout as the program really writes it (typed commands are not echoed).
    fn example(text: &str) -> (String, String) {
        let mut input = String::new();
        let mut stdout = String::new();
        for line in text.split_inclusive('\n') {
            match line.strip_prefix(" > ") {
                Some(typed) => {
                    input.push_str(typed);
                    stdout.push_str(" > ");
                }
                _ => stdout.push_str(line),
            }
        }
        (input, stdout)
    }

    fn run_with(params: &[&str], input: &str) -> (String, i32) {
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        let code = run(&params, &mut input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), code)
    }

    fn config() -> String {
        format!("{}/../maps/tactics/config_01.txt", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn both_handout_examples_reproduce_byte_for_byte() {
        for (rounds, text) in
            [("2", include_str!("examples/example1.txt")), ("1", include_str!("examples/example2.txt"))]
        {
            let (input, expected) = example(text);
            let (got, code) = run_with(&[rounds, &config()], &input);
            assert_eq!(code, 0);
            assert_eq!(got, expected, "example with {rounds} round(s)");
        }
    }

    #[test]
    fn start_errors_and_return_values() {
        assert_eq!(run_with(&["2"], ""), ("[ERROR] Wrong number of parameters!\n".to_string(), 1));
        assert_eq!(run_with(&["2", "x", "y"], "").1, 1);
        for bad in ["0", "-1", "x", "1.5", "+2", ""] {
            assert_eq!(
                run_with(&[bad, &config()], ""),
                ("[ERROR] Invalid maximum round number!\n".to_string(), 2),
                "{bad}"
            );
        }
        assert_eq!(run_with(&["2", "/nonexistent"], ""), ("[ERROR] Invalid file!\n".to_string(), 3));
        let dir = tempfile::tempdir().unwrap();
        let wrong = dir.path().join("wrong.txt");
        std::fs::write(&wrong, "OOPS\n4_5\n").unwrap();
        assert_eq!(run_with(&["2", wrong.to_str().unwrap()], "").1, 3);
        // Round number errors come before file errors.
        assert_eq!(run_with(&["0", "/nonexistent"], "").1, 2);
    }

    /// Output after the first prompt of round 1 (Player A, placement).
    fn after_first_prompt(input: &str) -> String {
        let (out, _) = run_with(&["1", &config()], input);
        let marker = "where and how do you want to place your chips?\n > ";
        out.split_once(marker).map(|(_, rest)| rest.to_string()).unwrap_or_default()
    }

    #[test]
    fn every_error_message_and_its_precedence() {
        let table: &[(&str, &str)] = &[
            ("jump", "[ERROR] Entered command not found!"),
            ("   ", "[ERROR] Entered command not found!"),
            ("info me", "[ERROR] Wrong number of parameters for this command!"),
            ("pass now", "[ERROR] Wrong number of parameters for this command!"),
            ("quit now", "[ERROR] Wrong number of parameters for this command!"),
            ("map 1", "[ERROR] Wrong number of parameters for this command!"),
            ("place 1 1", "[ERROR] Wrong number of parameters for this command!"),
            ("move 1 1 1 1", "[ERROR] Wrong number of parameters for this command!"),
            ("move 1 1 1 1 2", "[ERROR] Entered command is not valid in this phase!"),
            ("move 0 9 9 9 9", "[ERROR] Entered command is not valid in this phase!"),
            ("place 0 1 1", "[ERROR] Invalid amount! Must be a number > 0!"),
            ("place x 9 9", "[ERROR] Invalid amount! Must be a number > 0!"),
            ("place 2 9 9", "[ERROR] Invalid amount! Must be a number <= chips in player inventory!"),
            ("place 1 4 1", "[ERROR] Invalid field!"),
            ("place 1 2 5", "[ERROR] Invalid field!"),
            ("place 1 0 1", "[ERROR] Invalid field!"),
            ("place 1 a b", "[ERROR] Invalid field!"),
        ];
        for (command, message) in table {
            let rest = after_first_prompt(&format!("{command}\nquit\n"));
            assert!(
                rest.starts_with(&format!("{message}\nPlayer A, you have 1 chip(s) left")),
                "{command:?}: {rest:?}"
            );
        }
        // Case and spacing do not matter.
        let rest = after_first_prompt("  PLACE   1 1 1  \nquit\n");
        assert!(rest.starts_with("  | 1 | 2 | 3 | 4 \n1 |A 2|"), "{rest:?}");
    }

    #[test]
    fn move_errors_and_their_precedence() {
        // Both place their chip, then Player B moves first in round 1.
        let prefix = "place 1 1 1\nplace 1 2 5\n";
        let table: &[(&str, &str)] = &[
            ("place 1 1 1", "[ERROR] Entered command is not valid in this phase!"),
            ("move 0 1 1 1 2", "[ERROR] Invalid amount! Must be a number > 0!"),
            ("move 5 1 1 1 2", "[ERROR] Invalid origin!"),
            ("move 1 9 9 1 2", "[ERROR] Invalid origin!"),
            ("move 3 2 5 2 4", "[ERROR] Invalid amount! Must be a number <= chips on origin field!"),
            ("move 3 2 5 9 9", "[ERROR] Invalid amount! Must be a number <= chips on origin field!"),
            ("move 1 2 5 2 3", "[ERROR] Invalid destination!"),
            ("move 1 2 5 2 5", "[ERROR] Invalid destination!"),
            ("move 1 3 5 3 4", "[ERROR] Invalid destination!"),
            ("move 1 2 5 2 6", "[ERROR] Invalid destination!"),
        ];
        for (command, message) in table {
            let (out, _) = run_with(&["1", &config()], &format!("{prefix}{command}\nquit\n"));
            let rest = out.split_once("Player B, what do you want to do?\n > ").map_or("", |(_, r)| r);
            assert!(
                rest.starts_with(&format!("{message}\nPlayer B, what do you want to do?")),
                "{command:?}: {rest:?}"
            );
        }
    }

    #[test]
    fn attacks_follow_the_formula() {
        let mut b = Board::parse("OOP\n3_1\nab0\n").unwrap();
        b.fields[0] = super::super::Field::Claimed(0, 4);
        b.fields[1] = super::super::Field::Claimed(1, 2);
        // 2 + 1 - 2 = 1: B keeps the field with 1 chip.
        b.move_chips(0, &["2", "1", "1", "2", "1"]).unwrap();
        assert_eq!(b.fields[1], super::super::Field::Claimed(1, 1));
        // 1 + 1 - 2 = 0: nobody holds it.
        b.move_chips(0, &["2", "1", "1", "2", "1"]).unwrap();
        assert_eq!(b.fields[1], super::super::Field::Empty);
        assert_eq!(b.fields[0], super::super::Field::Empty, "the origin emptied");
        let mut c = Board::parse("OOP\n2_1\nab\n").unwrap();
        c.fields[0] = super::super::Field::Claimed(0, 5);
        // 1 + 1 - 4 = -2: A takes it with 2 chips.
        c.move_chips(0, &["4", "1", "1", "2", "1"]).unwrap();
        assert_eq!(c.fields[1], super::super::Field::Claimed(0, 2));
    }

    #[test]
    fn the_game_ends_when_a_player_has_no_field_and_congratulates_the_winner() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("c.txt");
        std::fs::write(&cfg, "OOP\n2_1\nab\n").unwrap();
        // Round 1: A places its chip (2 on a), B places; B moves first: pass; A attacks 2 -> b.
        let (out, code) = run_with(&["3", cfg.to_str().unwrap()], "place 1 1 1\nplace 1 2 1\npass\nmove 2 1 1 2 1\n");
        assert_eq!(code, 0);
        // A (2 chips) attacks B (2 chips) with 2: 2 + 1 - 2 = 1, B keeps it; A's field is empty.
        assert!(
            out.ends_with("------------------\nGAME END!\n\nPlayer A claimed 0 field(s)!\nPlayer B claimed 1 field(s)!\n\nCongratulations, Player B! You won!\n"),
            "{out}"
        );
    }

    #[test]
    fn end_of_input_ends_cleanly() {
        let (out, code) = run_with(&["5", &config()], "");
        assert_eq!(code, 0);
        assert!(out.ends_with(" > "), "it stops at the first prompt: {out}");
    }
}
