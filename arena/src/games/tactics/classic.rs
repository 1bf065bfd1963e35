//! The original OOPtimal Tactics program (`./a1 <ROUNDS> <CONFIG>`), byte for byte: welcome,
//! round and phase headers, maps, prompts with their spaces, commands (case-insensitive,
//! extra whitespace ignored), error messages in their precedence, and return values. Input is
//! bytes: a line that is not UTF-8 is a command like any other, and an empty or blank line
//! prompts again without an error, as the course's framework (`CommandLine::readCommand`) does.

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::path::Path;

use super::{Board, CommandError, Phase, IDS};
use crate::engine::{ClassicError, ClassicSession};
use crate::games::classic_input::{read_line, text, words};

const RULE: &str = "------------------";

/// `arena play tactics ROUNDS CONFIG`: the program on the session's parameters, input and
/// output.
pub fn session(mut s: ClassicSession<'_>) -> Result<i32, ClassicError> {
    Ok(run(s.params, &mut s.input, &mut s.output)?)
}

/// Runs the program with its command-line parameters (`<ROUNDS> <CONFIG>`); returns the exit
/// status: 0 normally, 1 wrong parameter count, 2 bad round number, 3 bad config file.
pub fn run(params: &[OsString], input: &mut impl BufRead, out: &mut impl Write) -> io::Result<i32> {
    let [rounds, config] = params else {
        writeln!(out, "[ERROR] Wrong number of parameters!")?;
        return Ok(1);
    };
    let rounds = rounds.to_str().filter(|r| r.bytes().all(|b| b.is_ascii_digit())).and_then(|r| r.parse::<u32>().ok());
    let Some(rounds) = rounds.filter(|&r| r >= 1) else {
        writeln!(out, "[ERROR] Invalid maximum round number!")?;
        return Ok(2);
    };
    let Some(mut board) = read_config(Path::new(config)).ok().and_then(|bytes| Board::parse(&bytes).ok()) else {
        writeln!(out, "[ERROR] Invalid file!")?;
        return Ok(3);
    };
    writeln!(out, "Welcome to OOPtimal Tactics!\nPlaying maximum of {rounds} round(s)!")?;
    let mut game = Classic { board: &mut board, show_map: true, input, out };
    game.play(rounds)
}

/// How much of a config file is read: a config is the magic number, the size and at most 9
/// rows, a few dozen bytes (the handout's program reads no further than the rows either).
const CONFIG_READ: u64 = crate::files::MAX_MAP_BYTES;

/// The first [`CONFIG_READ`] bytes of the config file `path`, all a config can use: a device
/// that never ends (`/dev/zero`, `/dev/urandom`) or a huge file is an invalid file (or a config
/// followed by what is never read) at once, instead of being read into memory for ever. A
/// pipe (`<(…)`) is read like a file, as the handout's program does.
fn read_config(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(CONFIG_READ).read_to_end(&mut bytes)?;
    Ok(bytes)
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
        let mut line = Vec::new();
        if !read_line(self.input, &mut line)? {
            return Ok(Outcome::Stop);
        }
        let lower: Vec<String> = words(&line).into_iter().map(|w| text(w).to_ascii_lowercase()).collect();
        let words: Vec<&str> = lower.iter().map(String::as_str).collect();
        // An empty or blank line: the framework returns without a message and the player is
        // asked again.
        let Some((&command, args)) = words.split_first() else { return Ok(Outcome::Again) };
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
        write!(self.out, "Player A claimed {a} field(s)!\nPlayer B claimed {b} field(s)!\n")?;
        // The handout's blank line opens the congratulations, which a tie does not print.
        if a != b {
            write!(self.out, "\nCongratulations, Player {}! You won!\n", if a > b { 'A' } else { 'B' })?;
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An example run of the handout (copied into `examples/`): the commands typed after
    /// ` > `, and stdout as the program really writes it (typed commands are not echoed). The
    /// blank line that ends Example Output 1's block (a tie) is not output: the handout gives
    /// that `\n` to the congratulations, which a tie does not print.
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
        if let Some(tie) = stdout.strip_suffix("field(s)!\n\n") {
            stdout = format!("{tie}field(s)!\n");
        }
        (input, stdout)
    }

    fn run_bytes(params: &[&str], input: &[u8]) -> (String, i32) {
        let params: Vec<OsString> = params.iter().map(OsString::from).collect();
        let mut out = Vec::new();
        let code = run(&params, &mut &input[..], &mut out).unwrap();
        (String::from_utf8(out).unwrap(), code)
    }

    fn run_with(params: &[&str], input: &str) -> (String, i32) {
        run_bytes(params, input.as_bytes())
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

    /// A config that never ends is an invalid file at once, not read into memory for ever: of
    /// a pipe written without end only the start is read (the writer then finds it closed; the
    /// control, reading all of it, takes all 64 MiB offered), and `/dev/zero` and `/dev/urandom`
    /// are invalid files. One whose config is followed by more than is read plays.
    #[test]
    fn a_config_that_never_ends_is_an_invalid_file_at_once() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("endless");
        crate::files::tests::make_fifo(&fifo, 0o600);
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                let (chunk, mut written) = (vec![0u8; 1 << 16], 0usize);
                while written < 64 << 20 {
                    match pipe.write(&chunk) {
                        Ok(n) => written += n,
                        Err(_) => return (written, true),
                    }
                }
                (written, false)
            })
        };
        assert_eq!(run_with(&["2", fifo.to_str().unwrap()], ""), ("[ERROR] Invalid file!\n".to_string(), 3));
        let (written, closed) = writer.join().unwrap();
        assert!(closed && written < 4 * CONFIG_READ as usize, "{written} bytes taken of an endless config");
        for endless in ["/dev/zero", "/dev/urandom"] {
            assert_eq!(run_with(&["2", endless], ""), ("[ERROR] Invalid file!\n".to_string(), 3));
        }
        let long = dir.path().join("long.txt");
        let mut bytes = std::fs::read(config()).unwrap();
        bytes.resize(bytes.len() + 2 * CONFIG_READ as usize, b'#');
        std::fs::write(&long, bytes).unwrap();
        let (out, code) = run_with(&["1", long.to_str().unwrap()], "");
        assert_eq!((out.starts_with("Welcome to OOPtimal Tactics!\n"), code), (true, 0), "{out}");
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
            ("pl\u{fffd}ce 1 1 1", "[ERROR] Entered command not found!"),
            ("pl\u{a0}ce 1 1 1", "[ERROR] Entered command not found!"),
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
        let mut b = Board::parse(b"OOP\n3_1\nab0\n").unwrap();
        b.fields[0] = super::super::Field::Claimed(0, 4);
        b.fields[1] = super::super::Field::Claimed(1, 2);
        // 2 + 1 - 2 = 1: B keeps the field with 1 chip.
        b.move_chips(0, &["2", "1", "1", "2", "1"]).unwrap();
        assert_eq!(b.fields[1], super::super::Field::Claimed(1, 1));
        // 1 + 1 - 2 = 0: nobody holds it.
        b.move_chips(0, &["2", "1", "1", "2", "1"]).unwrap();
        assert_eq!(b.fields[1], super::super::Field::Empty);
        assert_eq!(b.fields[0], super::super::Field::Empty, "the origin emptied");
        let mut c = Board::parse(b"OOP\n2_1\nab\n").unwrap();
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

    /// A 2x1 config (A on the left, B on the right) in a temporary folder.
    fn tiny(dir: &tempfile::TempDir, bytes: &[u8]) -> String {
        let path = dir.path().join("tiny.txt");
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    }

    const TINY_START: &str = concat!(
        "Welcome to OOPtimal Tactics!\nPlaying maximum of 1 round(s)!\n",
        "\n------------------\nRound 1/1 starts!\n------------------\n\n",
        "------------------\nPlacement Phase\n------------------\n",
        "  | 1 | 2 \n1 |A 1|B 1\n\n",
    );
    const A_PLACES: &str = "Player A, you have 1 chip(s) left, where and how do you want to place your chips?\n > ";

    #[test]
    fn a_tied_game_ends_right_after_player_bs_line() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = tiny(&dir, b"OOP\n2_1\nab\n");
        let (out, code) = run_with(&["1", &cfg], "place 1 1 1\nplace 1 2 1\npass\npass\n");
        assert_eq!(code, 0);
        let expected = [
            TINY_START,
            A_PLACES,
            "  | 1 | 2 \n1 |A 2|B 1\n\n",
            "Player B, you have 1 chip(s) left, where and how do you want to place your chips?\n > ",
            "  | 1 | 2 \n1 |A 2|B 2\n\n",
            "------------------\nMovement Phase\n------------------\n",
            "  | 1 | 2 \n1 |A 2|B 2\n\n",
            "Player B, what do you want to do?\n > ",
            "Player A, what do you want to do?\n > ",
            "------------------\nGAME END!\n\n",
            "Player A claimed 1 field(s)!\nPlayer B claimed 1 field(s)!\n",
        ]
        .concat();
        assert_eq!(out, expected);
        // The handout's Example Output 1 is a tie too: its block's last, blank line is not output.
        let (_, example1) = example(include_str!("examples/example1.txt"));
        assert!(include_str!("examples/example1.txt").ends_with("Player B claimed 4 field(s)!\n\n"));
        assert!(example1.ends_with("Player A claimed 4 field(s)!\nPlayer B claimed 4 field(s)!\n"));
    }

    #[test]
    fn empty_and_blank_lines_prompt_again_without_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = tiny(&dir, b"OOP\n2_1\nab\n");
        let (out, code) = run_bytes(&["1", &cfg], b"\n   \n\t\x0b\x0c\r\n\r\nquit\n");
        assert_eq!(code, 0);
        assert_eq!(out, [TINY_START, A_PLACES, A_PLACES, A_PLACES, A_PLACES, A_PLACES].concat());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_just_bad_commands() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = tiny(&dir, b"OOP\n2_1\nab\n");
        let input = b"\xff\xfe\nplace 1 1 \xff\nPLACE\xa01 1 1\nmove \xc3\x28 1 1 1 1\nquit\n";
        let (out, code) = run_bytes(&["1", &cfg], input);
        assert_eq!(code, 0);
        let expected = [
            TINY_START,
            A_PLACES,
            "[ERROR] Entered command not found!\n",
            A_PLACES,
            "[ERROR] Invalid field!\n",
            A_PLACES,
            "[ERROR] Entered command not found!\n",
            A_PLACES,
            "[ERROR] Entered command is not valid in this phase!\n",
            A_PLACES,
        ]
        .concat();
        assert_eq!(out, expected);
    }

    #[test]
    fn the_magic_number_is_exactly_oop_and_a_line_feed() {
        let dir = tempfile::tempdir().unwrap();
        let invalid = ("[ERROR] Invalid file!\n".to_string(), 3);
        for bad in [
            &b"OOP\r\n2_1\r\nab\r\n"[..],
            b"OOP",
            b"OOP \n2_1\nab\n",
            b"\xef\xbb\xbfOOP\n2_1\nab\n",
            b"oop\n2_1\nab\n",
            b"",
        ] {
            assert_eq!(run_with(&["1", &tiny(&dir, bad)], "quit\n"), invalid, "{:?}", String::from_utf8_lossy(bad));
        }
        // Past the magic number the file is read byte by byte: a byte that is not UTF-8 is a
        // field like any other that is not `a`, `b` or `-`: an empty one.
        let (out, code) = run_with(&["1", &tiny(&dir, b"OOP\n3_1\na\xffb\n")], "quit\n");
        assert_eq!(code, 0);
        assert!(out.contains("  | 1 | 2 | 3 \n1 |A 1|   |B 1\n\n"), "{out}");
    }

    #[test]
    fn parameters_are_bytes_too() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(std::ffi::OsStr::from_bytes(b"conf\xff.txt"));
        std::fs::write(&path, "OOP\n2_1\nab\n").unwrap();
        let mut out = Vec::new();
        let params = [OsString::from("1"), path.into_os_string()];
        assert_eq!(run(&params, &mut &b"quit\n"[..], &mut out).unwrap(), 0);
        assert!(out.starts_with(TINY_START.as_bytes()));
        let params = [OsString::from(std::ffi::OsStr::from_bytes(b"1\xff")), OsString::from("x")];
        out.clear();
        assert_eq!(run(&params, &mut &b""[..], &mut out).unwrap(), 2);
        assert_eq!(out, b"[ERROR] Invalid maximum round number!\n");
    }
}
