//! The original Atoms program: commands on stdin, the handout's exact messages on stdout.
//! Input is bytes, as for the handout's C program: a line that is not UTF-8 is just a command
//! nobody knows, and a SAVE or LOAD file name is taken byte for byte.

use std::ffi::OsStr;
use std::io::{self, BufRead, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::{parse_save, Atoms, PlaceError, SaveError, SaveFile, COLOURS};
use crate::engine::{ClassicError, ClassicSession};
use crate::games::classic_input::{read_line, text, words};

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

/// Parses a whole number made of digits only (no sign); `None` also when it does not fit.
fn number(word: &[u8]) -> Option<usize> {
    digits(word).then(|| text(word).parse().ok()).flatten()
}

/// Whether `word` is a whole number written with digits only (no sign), of any size.
fn digits(word: &[u8]) -> bool {
    !word.is_empty() && word.iter().all(u8::is_ascii_digit)
}

/// The largest save file LOAD reads: 4 million moves, far more than a 255 x 255 game needs.
const MAX_SAVE: u64 = 3 + 4 * (1 << 22);

/// The `tracing` target of the arena's notices to the user, which the `arena` command shows on
/// stderr as plain sentences: the referee's `NOTICE`, which a game may not name (a layer of
/// its own); a test checks that the two are the same.
const NOTICE: &str = "notice";

/// Why LOAD could not take a file (said on stderr; stdout has the handout's `Cannot Load Save`).
#[derive(Debug, thiserror::Error)]
enum LoadError {
    /// It could not be opened or read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A folder, a FIFO (which would block), a device (`/dev/zero` never ends).
    #[error("not a regular file")]
    NotAFile,
    /// Larger than any save LOAD takes.
    #[error("{0} bytes, more than a save of 4 million moves ({max} bytes)", max = MAX_SAVE)]
    TooLarge(u64),
    /// Its bytes are not a save.
    #[error("not a save file: {0}")]
    Save(#[from] SaveError),
}

/// Reads a save file, or why not: it is not a regular file (a FIFO would block, `/dev/zero`
/// never end), is too large, or is not a save ([`parse_save`]).
fn read_save(path: &Path) -> Result<SaveFile, LoadError> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    if meta.len() > MAX_SAVE {
        return Err(LoadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(MAX_SAVE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SAVE {
        return Err(LoadError::TooLarge(bytes.len() as u64));
    }
    Ok(parse_save(&bytes)?)
}

/// Writes a save file at `path` unless something is there already (`AlreadyExists`). The
/// bytes go to a file with no name in its folder first (Linux's `O_TMPFILE`), which takes the
/// name only once whole and never over another file: a full disk, a file size limit or a
/// `kill -9` halfway leaves nothing at all (the nameless file goes with the process), no
/// half-written save under the name (which LOAD could take for a shorter game, and which
/// would refuse the next SAVE of that name), and a failed write is a refused SAVE rather than
/// the end of the program and of the game on. Where the folder's file system has no nameless
/// files, a named temporary file is used instead ([`write_named`]).
fn write_save(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale(dir);
    match write_nameless(dir, path, bytes) {
        Err(e) if matches!(e.raw_os_error(), Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL | libc::ENOENT)) => {
            write_named(dir, path, bytes)
        }
        done => done,
    }
}

/// Writes `bytes` into a nameless file in `dir`, then links it as `path` (failing if that
/// name is taken). The file is made like the C program's: 0666 less the umask.
fn write_nameless(dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_TMPFILE).mode(0o666).open(dir)?;
    file.write_all(bytes)?;
    let from = std::ffi::CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths; `file` stays open until the call returns.
    let linked =
        unsafe { libc::linkat(libc::AT_FDCWD, from.as_ptr(), libc::AT_FDCWD, to.as_ptr(), libc::AT_SYMLINK_FOLLOW) };
    if linked != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// How the program's named temporary files begin: `.tmp-atoms-<pid>-…`, with the process
/// that made them.
fn named_prefix() -> String {
    format!("{}atoms-", crate::files::TEMPORARY_PREFIX)
}

/// [`write_save`] through a named temporary file beside `path`, renamed to it once whole (never
/// over another file). A kill halfway leaves that file: each such write first removes those of
/// this program's processes that are gone ([`write_save`] does).
fn write_named(dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{}{}-", named_prefix(), std::process::id()))
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist_noclobber(path).map(drop).map_err(|e| e.error)
}

/// Removes from `dir` the named temporary files of this program whose process is gone (when
/// `/proc` tells which processes are alive).
fn remove_stale(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = named_prefix();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix.as_str()))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok());
        let gone = pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
        if gone && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Runs the program until QUIT, a win or the end of input; `dir` is where SAVE and LOAD
/// files live. Returns the exit status.
pub fn run(input: &mut impl BufRead, out: &mut impl Write, dir: &Path) -> io::Result<i32> {
    let mut program = Program { phase: Phase::Idle, dir };
    let mut line = Vec::new();
    loop {
        if !read_line(input, &mut line)? {
            return Ok(0);
        }
        let words = words(&line);
        let Some((&command, args)) = words.split_first() else { continue };
        if let Some(code) = program.command(command, args, out)? {
            return Ok(code);
        }
    }
}

/// `arena play atoms`: the program on the session's input and output, its save files in the
/// session's folder.
pub fn session(mut s: ClassicSession<'_>) -> Result<i32, ClassicError> {
    Ok(run(&mut s.input, &mut s.output, s.dir)?)
}

/// The program between commands: where it is, and where its files live.
struct Program<'a> {
    phase: Phase,
    dir: &'a Path,
}

impl Program<'_> {
    /// Runs one command; `Some(status)` when the program ends.
    fn command(&mut self, command: &[u8], args: &[&[u8]], out: &mut impl Write) -> io::Result<Option<i32>> {
        // After LOAD only PLAYFROM and QUIT are accepted.
        if matches!(self.phase, Phase::Loaded(_)) && !matches!(command, b"PLAYFROM" | b"QUIT") {
            writeln!(out, "Invalid Command")?;
            return Ok(None);
        }
        match command {
            b"HELP" => write!(out, "\n{HELP}\n")?,
            b"QUIT" => {
                writeln!(out, "Bye!")?;
                return Ok(Some(0));
            }
            b"START" => self.start(args, out)?,
            b"PLACE" => return self.place(args, out),
            b"UNDO" => self.undo(out)?,
            b"STAT" => self.stat(out)?,
            b"DISPLAY" => match &self.phase {
                Phase::Playing(game) => write!(out, "\n{}\n", game.display())?,
                _ => writeln!(out, "Invalid Command")?,
            },
            b"SAVE" => self.save(args, out)?,
            b"LOAD" => self.load(args, out)?,
            b"PLAYFROM" => return self.play_from(args, out),
            _ => writeln!(out, "Invalid Command")?,
        }
        Ok(None)
    }

    fn start(&mut self, args: &[&[u8]], out: &mut impl Write) -> io::Result<()> {
        if !matches!(self.phase, Phase::Idle) {
            return writeln!(out, "Invalid Command");
        }
        if args.len() < 3 {
            return writeln!(out, "Missing Argument");
        }
        if args.len() > 3 {
            return writeln!(out, "Too Many Arguments");
        }
        match (number(args[0]), number(args[1]), number(args[2])) {
            (Some(k), Some(w), Some(h)) if (2..=6).contains(&k) && (2..=255).contains(&w) && (2..=255).contains(&h) => {
                if w * h < k {
                    return writeln!(out, "Cannot Start Game");
                }
                let game = Atoms::new(k, w, h);
                writeln!(out, "Game Ready\n{}", turn_line(&game))?;
                self.phase = Phase::Playing(game);
                Ok(())
            }
            _ => writeln!(out, "Invalid command arguments"),
        }
    }

    fn place(&mut self, args: &[&[u8]], out: &mut impl Write) -> io::Result<Option<i32>> {
        let Phase::Playing(game) = &mut self.phase else {
            writeln!(out, "Invalid Command")?;
            return Ok(None);
        };
        let coords = match args {
            [x, y] => text(x).parse::<i64>().ok().zip(text(y).parse::<i64>().ok()),
            _ => None,
        };
        let Some((x, y)) = coords else {
            writeln!(out, "Invalid Coordinates")?;
            return Ok(None);
        };
        match game.place(x, y) {
            Err(PlaceError::OffBoard) => writeln!(out, "Invalid Coordinates")?,
            Err(PlaceError::NotYours | PlaceError::Over) => writeln!(out, "Cannot Place Atom Here")?,
            Ok(()) => match game.winner {
                Some(w) => {
                    writeln!(out, "{} Wins", COLOURS[w])?;
                    return Ok(Some(0));
                }
                None => writeln!(out, "{}", turn_line(game))?,
            },
        }
        Ok(None)
    }

    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        let Phase::Playing(game) = &mut self.phase else {
            return writeln!(out, "Invalid Command");
        };
        if game.moves.is_empty() {
            return writeln!(out, "Cannot Undo");
        }
        let mut moves = game.moves.clone();
        moves.pop();
        *game = Atoms::replay(game.players(), game.width, game.height, &moves);
        writeln!(out, "{}", turn_line(game))
    }

    fn stat(&self, out: &mut impl Write) -> io::Result<()> {
        let Phase::Playing(game) = &self.phase else {
            return writeln!(out, "Game Not In Progress");
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
        Ok(())
    }

    fn save(&self, args: &[&[u8]], out: &mut impl Write) -> io::Result<()> {
        let (Phase::Playing(game), [name]) = (&self.phase, args) else {
            return writeln!(out, "Invalid Command");
        };
        match write_save(&self.dir.join(OsStr::from_bytes(name)), &game.save_bytes()) {
            Ok(()) => writeln!(out, "Game Saved"),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => writeln!(out, "File Already Exists"),
            // No such folder, no permission, a full disk: nothing was saved, the game goes on.
            Err(_) => writeln!(out, "Invalid Command"),
        }
    }

    fn load(&mut self, args: &[&[u8]], out: &mut impl Write) -> io::Result<()> {
        if !matches!(self.phase, Phase::Idle) {
            return writeln!(out, "Restart Application To Load Save");
        }
        let [name] = args else { return writeln!(out, "Cannot Load Save") };
        match read_save(&self.dir.join(OsStr::from_bytes(name))) {
            Ok(save) => {
                self.phase = Phase::Loaded(save);
                writeln!(out, "Game Loaded")
            }
            Err(why) => {
                // The handout's answer on stdout; where and what on stderr, for the player.
                tracing::warn!(target: NOTICE, "LOAD {}: {why}", String::from_utf8_lossy(name));
                writeln!(out, "Cannot Load Save")
            }
        }
    }

    /// PLAYFROM: the loaded game after that many moves, ready to play on; a game already won
    /// there ends the program with its winner, as the winning PLACE did (no ruling covers it:
    /// the decision and why are in docs/rules/atoms.md).
    fn play_from(&mut self, args: &[&[u8]], out: &mut impl Write) -> io::Result<Option<i32>> {
        let Phase::Loaded(save) = &self.phase else {
            writeln!(out, "Invalid Command")?;
            return Ok(None);
        };
        // A turn past the last one loaded, however many digits it has, is the last one.
        let upto = match args {
            [b"END"] => Some(save.moves.len()),
            [n] if digits(n) => Some(number(n).unwrap_or(usize::MAX).min(save.moves.len())),
            _ => None,
        };
        let Some(upto) = upto else {
            writeln!(out, "Invalid Turn Number")?;
            return Ok(None);
        };
        let game = save.game(upto);
        if let Some(w) = game.winner {
            writeln!(out, "{} Wins", COLOURS[w])?;
            return Ok(Some(0));
        }
        writeln!(out, "Game Ready\n{}", turn_line(&game))?;
        self.phase = Phase::Playing(game);
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str, dir: &Path) -> (String, i32) {
        session_bytes(input.as_bytes(), dir)
    }

    fn session_bytes(mut input: &[u8], dir: &Path) -> (String, i32) {
        let mut out = Vec::new();
        let code = run(&mut input, &mut out, dir).unwrap();
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

    /// A save of a game already won (exported from a finished hosted game) plays to its end:
    /// the winner, and the program ends, as after the winning PLACE. The control: PLAYFROM an
    /// earlier turn of the same save is a game ready to play on.
    #[test]
    fn playfrom_a_won_game_names_the_winner_and_ends() {
        let dir = tempfile::tempdir().unwrap();
        // 2x2: Green's fourth move takes Red's last cell.
        std::fs::write(dir.path().join("won.sav"), [2, 2, 2, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0]).unwrap();
        for turn in ["END", "4", "99"] {
            let (out, code) = session(&format!("LOAD won.sav\nPLAYFROM {turn}\nPLACE 0 0\nSTAT\n"), dir.path());
            assert_eq!((out.as_str(), code), ("Game Loaded\nGreen Wins\n", 0), "PLAYFROM {turn}");
        }
        let (out, _) = session("LOAD won.sav\nPLAYFROM 3\nPLACE 1 1\n", dir.path());
        assert_eq!(out, "Game Loaded\nGame Ready\nGreen's Turn\nGreen Wins\n");
        let (out, _) = session("START 2 2 2\nPLACE 0 0\nPLACE 1 1\nPLACE 1 0\nPLACE 1 1\n", dir.path());
        assert!(out.ends_with("Green Wins\n"), "the same game played live: {out}");
    }

    /// A save whose moves no game makes (here one off the 3x3 board) cannot be loaded, as a
    /// file that is no save; the control: the same header with a move on the board loads.
    #[test]
    fn a_save_with_a_move_off_the_board_cannot_be_loaded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.sav"), [3, 3, 2, 9, 9, 0, 0]).unwrap();
        std::fs::write(dir.path().join("good.sav"), [3, 3, 2, 2, 2, 0, 0]).unwrap();
        assert_eq!(session("LOAD bad.sav\nPLAYFROM END\n", dir.path()).0, "Cannot Load Save\nInvalid Command\n");
        assert_eq!(session("LOAD good.sav\nPLAYFROM END\n", dir.path()).0, "Game Loaded\nGame Ready\nGreen's Turn\n");
    }

    /// A save whose padding is not 0 cannot be loaded (the handout's `Cannot Load Save`; the
    /// reason goes to stderr), and the program is still ready for another LOAD; the control:
    /// the same moves with 0 padding load and play on.
    #[test]
    fn a_save_with_padding_that_is_not_zero_cannot_be_loaded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.sav"), [3, 3, 2, 0, 0, 0, 0, 2, 2, 1, 0]).unwrap();
        std::fs::write(dir.path().join("good.sav"), [3, 3, 2, 0, 0, 0, 0, 2, 2, 0, 0]).unwrap();
        assert_eq!(
            session("LOAD bad.sav\nPLAYFROM END\nLOAD good.sav\nPLAYFROM END\n", dir.path()).0,
            "Cannot Load Save\nInvalid Command\nGame Loaded\nGame Ready\nRed's Turn\n"
        );
        let why = read_save(&dir.path().join("bad.sav")).err().map(|e| e.to_string());
        assert_eq!(
            why.as_deref(),
            Some("not a save file: move 2 (bytes 8 to 11): its padding is 01 00, a save has 00 00 there")
        );
    }

    #[test]
    fn load_s_reasons_are_the_arena_s_notices() {
        assert_eq!(NOTICE, crate::referee::NOTICE);
    }

    #[test]
    fn end_of_input_exits_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(session("START 2 2 2\n", dir.path()), ("Game Ready\nRed's Turn\n".to_string(), 0));
    }

    #[test]
    fn playfrom_past_the_last_turn_is_the_last_turn_whatever_its_size() {
        let dir = tempfile::tempdir().unwrap();
        // Three players, two moves: after them it is Purple's turn.
        std::fs::write(dir.path().join("g.bin"), [3, 3, 3, 0, 0, 0, 0, 2, 2, 0, 0]).unwrap();
        let ready = "Game Loaded\nGame Ready\nPurple's Turn\n";
        for turn in
            ["2", "3", "18446744073709551615", "18446744073709551616", "0099999999999999999999999999999999999999"]
        {
            assert_eq!(session(&format!("LOAD g.bin\nPLAYFROM {turn}\n"), dir.path()).0, ready, "PLAYFROM {turn}");
        }
        assert_eq!(session("LOAD g.bin\nPLAYFROM 1\n", dir.path()).0, "Game Loaded\nGame Ready\nGreen's Turn\n");
        for bad in ["-1", "-18446744073709551616", "+1", "1x", "\u{0661}"] {
            assert_eq!(
                session(&format!("LOAD g.bin\nPLAYFROM {bad}\n"), dir.path()).0,
                "Game Loaded\nInvalid Turn Number\n",
                "PLAYFROM {bad}"
            );
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_just_bad_commands() {
        let dir = tempfile::tempdir().unwrap();
        let input = b"\xff\xfe\nSTART 2 3 \xff\nSTART 2 3 3\nPLACE 0 \xc3\nPL\xc3ACE 0 0\nPLACE\xa00 0\n\nSTAT\n";
        let (out, code) = session_bytes(input, dir.path());
        assert_eq!(code, 0);
        assert_eq!(
            out,
            "Invalid Command\nInvalid command arguments\nGame Ready\nRed's Turn\nInvalid Coordinates\nInvalid Command\nInvalid Command\nPlayer Red:\nGrid Count: 0\n\nPlayer Green:\nGrid Count: 0\n"
        );
    }

    /// A SAVE killed halfway through writing (by the file size limit's SIGXFSZ, at a byte
    /// count, in a child process: this test run again) leaves no file in the player's folder.
    /// The control: killed the same way, the named temporary file (the scheme used where the
    /// file system has no nameless files) is left, and the next SAVE removes it (not a live
    /// process's).
    #[test]
    fn a_save_killed_midway_leaves_no_file() {
        use std::os::unix::process::ExitStatusExt;
        const CHILD: &str = "ARENA_TEST_KILLED_SAVE";
        if let Some(how) = std::env::var_os(CHILD) {
            let how = how.to_string_lossy().into_owned();
            let (scheme, dir) = how.split_once(':').unwrap();
            let limit = libc::rlimit { rlim_cur: 4, rlim_max: 4 };
            // SAFETY: setrlimit with a valid struct; this child process only writes the save.
            assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &limit) }, 0);
            let bytes = [2, 2, 2, 0, 0, 0, 0];
            match scheme {
                "save" => drop(session("START 2 2 2\nPLACE 0 0\nSAVE g.sav\n", Path::new(dir))),
                _ => drop(write_named(Path::new(dir), &Path::new(dir).join("g.sav"), &bytes)),
            }
            return;
        }
        let killed = |scheme: &str, dir: &Path| {
            let status = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["games::atoms::classic::tests::a_save_killed_midway_leaves_no_file", "--exact"])
                .args(["--test-threads=1", "--nocapture"])
                .env(CHILD, format!("{scheme}:{}", dir.display()))
                .output()
                .unwrap()
                .status;
            assert_eq!(status.signal(), Some(libc::SIGXFSZ), "{scheme}: killed halfway: {status:?}");
            let mut left: Vec<String> =
                std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            left.sort();
            left
        };
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(killed("save", dir.path()), Vec::<String>::new(), "nothing left");

        // The control: the named temporary file outlives the process.
        let left = killed("named", dir.path());
        assert!(left.len() == 1 && left[0].starts_with(".tmp-atoms-"), "{left:?}");
        let live = format!(".tmp-atoms-{}-x", std::process::id());
        std::fs::write(dir.path().join(&live), "").unwrap();
        let (out, _) = session("START 2 2 2\nPLACE 0 0\nSAVE h.sav\nQUIT\n", dir.path());
        assert_eq!(out, "Game Ready\nRed's Turn\nGreen's Turn\nGame Saved\nBye!\n");
        let mut now: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        now.sort();
        assert_eq!(now, [live, "h.sav".to_string()], "the dead process's file removed, the live one's kept");
    }

    #[test]
    fn save_and_load_file_names_are_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let (out, _) = session_bytes(b"START 2 2 2\nPLACE 0 0\nSAVE g\xff.sav\nQUIT\n", dir.path());
        assert_eq!(out, "Game Ready\nRed's Turn\nGreen's Turn\nGame Saved\nBye!\n");
        let saved = dir.path().join(std::ffi::OsStr::from_bytes(b"g\xff.sav"));
        assert_eq!(std::fs::read(saved).unwrap(), [2, 2, 2, 0, 0, 0, 0]);
        let (out, _) = session_bytes(b"LOAD g\xff.sav\nPLAYFROM END\n", dir.path());
        assert_eq!(out, "Game Loaded\nGame Ready\nGreen's Turn\n");
        assert_eq!(
            session_bytes(b"LOAD g\xef\xbf\xbd.sav\n", dir.path()).0,
            "Cannot Load Save\n",
            "not the lossy name"
        );
    }

    #[test]
    fn load_refuses_what_is_not_a_regular_file_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        crate::files::tests::make_fifo(&dir.path().join("fifo"), 0o600);
        std::fs::create_dir(dir.path().join("folder")).unwrap();
        let path = dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        // Opening a FIFO with no writer blocks forever: a watchdog turns that into a failure.
        std::thread::spawn(move || {
            let _ = tx.send(session("LOAD fifo\nLOAD folder\nLOAD /dev/zero\n", &path));
        });
        let (out, code) = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("LOAD must not block");
        assert_eq!((out.as_str(), code), ("Cannot Load Save\nCannot Load Save\nCannot Load Save\n", 0));
        // Control: reading the FIFO as a plain file does block, until a writer comes.
        let fifo = dir.path().join("fifo");
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read(&reader).is_ok());
        });
        assert!(rx.recv_timeout(std::time::Duration::from_millis(300)).is_err(), "a plain read waits for a writer");
        drop(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap());
        assert!(rx.recv().unwrap());
    }
}
