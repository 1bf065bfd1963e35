//! `arena play atoms`'s SAVE when the file cannot be written whole: a file size limit stands in
//! for a full disk (the write fails with `EFBIG` once the file reaches it) and, with `SIGXFSZ`
//! left at its default, for a crash in the middle of the write (the program is killed there).
//! Either way no half-written save takes the name: LOAD could take one for a shorter game, and
//! it would refuse every later SAVE of that name. A write that fails is a refused SAVE, and the
//! game goes on.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The file size limit: 512 bytes, less than the save below (3 + 4 x 130 bytes).
const LIMIT: libc::rlim_t = 512;

/// A game of 130 moves on a 40x40 board (each on a cell of its own: nothing explodes), then
/// `tail`.
fn session(tail: &str) -> String {
    let mut input = String::from("START 2 40 40\n");
    for i in 0..130 {
        input.push_str(&format!("PLACE {} {}\n", i % 40, i / 40));
    }
    input + tail
}

/// Runs `arena play atoms` in `dir` on `input`, its files limited to [`LIMIT`] bytes when
/// `limit`, with `SIGXFSZ` ignored (the write fails) unless `killed` (the program dies).
fn play(dir: &Path, input: &str, limit: bool, killed: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command.args(["play", "atoms"]).current_dir(dir);
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if limit {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let cap = libc::rlimit { rlim_cur: LIMIT, rlim_max: LIMIT };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let action = if killed { libc::SIG_DFL } else { libc::SIG_IGN };
                libc::signal(libc::SIGXFSZ, action);
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("start arena");
    // (A program killed halfway reads no more: a broken pipe is expected then.)
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("wait for arena")
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_save_that_cannot_be_written_leaves_no_file_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(dir.path(), &session("SAVE g.bin\nPLACE 39 39\nQUIT\n"), true, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.ends_with("Red's Turn\nInvalid Command\nGreen's Turn\nBye!\n"), "the game goes on: {stdout}");
    assert!(names(dir.path()).is_empty(), "no file, whole or not: {:?}", names(dir.path()));
    // The control: without the limit, the same SAVE writes the whole game, which loads.
    let out = play(dir.path(), &session("SAVE g.bin\nQUIT\n"), false, false);
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("Game Saved\nBye!\n"));
    assert_eq!(std::fs::metadata(dir.path().join("g.bin")).unwrap().len(), 3 + 4 * 130);
    let out = play(dir.path(), "LOAD g.bin\nPLAYFROM END\nQUIT\n", false, false);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Game Loaded\nGame Ready\nRed's Turn\nBye!\n");
}

#[test]
fn a_program_killed_while_saving_leaves_no_half_save_under_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(dir.path(), &session("SAVE g.bin\nQUIT\n"), true, true);
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&out.status), Some(libc::SIGXFSZ), "killed halfway");
    assert!(!dir.path().join("g.bin").exists(), "no half save under the name: {:?}", names(dir.path()));
    // Nor anything else: the save was being written to a file with no name, gone with the program.
    assert!(names(dir.path()).is_empty(), "no temporary file left: {:?}", names(dir.path()));
    // The name is free: the next program saves under it.
    let out = play(dir.path(), &session("SAVE g.bin\nQUIT\n"), false, false);
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("Game Saved\nBye!\n"));
}

/// LOAD of a file that is no save answers the handout's `Cannot Load Save` on stdout, and says
/// on stderr which file, where in it and what is wrong (here a move's padding byte that is not
/// 0; the file name's control characters shown as text). The control: the same moves with 0
/// padding load, with nothing on stderr.
#[test]
fn load_says_on_stderr_where_a_file_is_no_save() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad\x1b[2J.sav"), [3, 3, 2, 0, 0, 0, 0, 2, 2, 0, 9]).unwrap();
    std::fs::write(dir.path().join("good.sav"), [3, 3, 2, 0, 0, 0, 0, 2, 2, 0, 0]).unwrap();
    let out = play(dir.path(), "LOAD bad\x1b[2J.sav\nLOAD nope.sav\nQUIT\n", false, false);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Cannot Load Save\nCannot Load Save\nBye!\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let why = ".sav: not a save file: move 2 (bytes 8 to 11): its padding is 00 09, a save has 00 00 there\n";
    assert!(stderr.starts_with("LOAD bad") && stderr.contains(why), "{stderr}");
    assert!(stderr.contains("LOAD nope.sav: No such file or directory"), "{stderr}");
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    let out = play(dir.path(), "LOAD good.sav\nPLAYFROM END\nQUIT\n", false, false);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Game Loaded\nGame Ready\nRed's Turn\nBye!\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
