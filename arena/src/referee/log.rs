//! A match's log: the bots' stderr, a section per player under a header of the arena's,
//! `===== player N (name): stderr =====`, at the start of a line (a bot that wrote nothing gets
//! that one line, `===== player N (name): wrote nothing to stderr =====`); every line of a bot's
//! follows [`MARGIN`], so no line a bot wrote starts where a header does. A bot knows its seat
//! (`ARENA_PLAYER`) and its opponent's name is on the leaderboard: a header it forged would put
//! a line of its choice in its opponent's section (a confession, a traceback, for the teacher
//! to read). What a viewer shows differently from the log's lines is closed too: a line that
//! would move the cursor or start a line in some viewer has its controls shown (`\r`, `\e`),
//! and no run of five `=` is left in a bot's text, so a viewer that wraps a long line where
//! the bot guessed it would cannot start a row with a header either. A colour a line leaves on
//! is ended with it: a terminal keeps it for the lines after (`ESC [ 8 m` hid them all).

use std::borrow::Cow;

use super::PlayedMatch;
use crate::safe_text::{is_unsafe, terminal_message};

/// How a section's header starts (and ends): five `=`, which no bot's text holds.
const SECTION: &str = "=====";

/// What every line of a bot's stderr follows in the log (an empty line: the margin without
/// its space, `  |`).
pub const MARGIN: &str = "  | ";

/// How much of the log's defence is on: all of it but for a test's controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// The stderr as it came (the control of every defence).
    #[cfg(test)]
    Raw,
    /// In the margin and with its controls shown, but runs of `=` as they came (the control of
    /// the wrapped line's defence).
    #[cfg(test)]
    Margin,
    /// Every defence.
    Full,
}

/// The log of `played`: a section per player, its header, its bot's stderr line by line (as
/// `guard` says), and an empty line; for a bot that wrote nothing, one line saying so instead
/// (an empty section read as one whose lines were lost).
pub(super) fn match_log(played: &PlayedMatch, guard: Guard) -> String {
    let mut out = String::new();
    for (i, (p, err)) in played.replay.players.iter().zip(&played.stderr).enumerate() {
        // (The name as one line, its controls shown: a league's names are the config's, which a
        // student's folder name may give; one with a line break forged its opponent's header,
        // one with escapes set the terminal's title of whoever read the log.)
        let name = name_shown(&p.name, guard);
        if err.is_empty() {
            out.push_str(&format!("{SECTION} player {} ({name}): wrote nothing to stderr {SECTION}\n\n", i + 1));
            continue;
        }
        out.push_str(&format!("{SECTION} player {} ({name}): stderr {SECTION}\n", i + 1));
        // The arena's note of what it dropped goes after the bot's lines, outside the margin:
        // a bot writing the same words has them in the margin.
        let note = dropped_note(err.dropped);
        // (Short of every defence, the note is quoted with the bot's lines, as it once was.)
        let with_note;
        let err = if guard == Guard::Full {
            err.text.as_str()
        } else {
            with_note = format!("{}{note}", err.text);
            with_note.as_str()
        };
        #[cfg(test)]
        if guard == Guard::Raw {
            out.push_str(err);
            if !err.is_empty() && !err.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
            continue;
        }
        quote(err, guard, &mut out);
        if guard == Guard::Full && !note.is_empty() {
            out.push_str(note.trim_start());
        }
        out.push('\n');
    }
    out
}

/// A player's name in its section's header: one line, its controls shown, and no run of five
/// `=` ([`broken_runs`]) that a viewer wrapping the line could start a row with (as it came,
/// for a test's control).
fn name_shown(name: &str, guard: Guard) -> Cow<'_, str> {
    #[cfg(test)]
    if guard == Guard::Raw {
        return Cow::Borrowed(name);
    }
    let _ = guard;
    Cow::Owned(broken_runs(&crate::safe_text::terminal_line(name)).into_owned())
}

/// The arena's note, after a bot's stderr, of the `dropped` bytes past the cap (none for 0).
pub fn dropped_note(dropped: usize) -> String {
    if dropped == 0 {
        return String::new();
    }
    format!("\n[arena: {dropped} more bytes of stderr dropped]\n")
}

/// Appends `stderr` to `out`, each line after [`MARGIN`] and ended `\n` (a last line without
/// one gets one): shown as it came but that a line which could move the cursor or start a line
/// in some viewer has its controls shown ([`disturbs`]), and a run of five `=` is broken by a
/// `\` ([`broken_runs`]). A line ended `\r\n` keeps its `\r`, which moves nothing.
fn quote(stderr: &str, guard: Guard, out: &mut String) {
    for (kept, end) in lines(stderr) {
        let cr = end.trim_end_matches('\n');
        let shown = if guard == Guard::Full { kept_line(kept) } else { controls_shown(kept) };
        let text = if guard == Guard::Full { broken_runs(&shown) } else { Cow::Borrowed(&*shown) };
        if text.is_empty() && cr.is_empty() {
            out.push_str(MARGIN.trim_end());
        } else {
            out.push_str(MARGIN);
            out.push_str(&text);
            out.push_str(cr);
        }
        out.push('\n');
    }
}

/// A line of a program's output (without its `\n` and final `\r`s) as the arena's logs keep it:
/// with its controls shown where it could move the cursor or start a line ([`disturbs`]), and a
/// colour it leaves on ended with it (a terminal kept it for the lines after, the arena's and
/// an opponent's, which `ESC [ 8 m` hid). A match log's lines and a build log's are kept so.
pub fn kept_line(line: &str) -> Cow<'_, str> {
    let shown = controls_shown(line);
    if colour_left_on(&shown) {
        Cow::Owned(format!("{shown}{RESET}"))
    } else {
        shown
    }
}

/// `line` with its controls shown where it could move the cursor or start a line ([`disturbs`]).
fn controls_shown(line: &str) -> Cow<'_, str> {
    if disturbs(line) {
        terminal_message(line)
    } else {
        Cow::Borrowed(line)
    }
}

/// `text` (a program's output, whole lines or a piece of one) appended to `out` as a log keeps
/// it: each line as [`kept_line`] says, its `\n` and the `\r`s before it kept.
pub fn keep_lines(text: &str, out: &mut String) {
    for (kept, end) in lines(text) {
        out.push_str(&kept_line(kept));
        out.push_str(end);
    }
}

/// The lines of `text`, each as its body without its `\n` and the `\r`s before it, and that
/// ending (empty for a last line without a `\n`).
fn lines(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.split_inclusive('\n').map(|line| {
        let kept = line.strip_suffix('\n').unwrap_or(line).trim_end_matches('\r');
        line.split_at(kept.len())
    })
}

/// The escape sequence that ends every colour and attribute.
const RESET: &str = "\u{1b}[0m";

/// Whether `text` (a line whose escape sequences are colours', see [`disturbs`]) leaves a colour
/// or an attribute on: its last `ESC [ … m` sets one rather than ending them all (`ESC [ m`,
/// `ESC [ 0 m`).
fn colour_left_on(text: &str) -> bool {
    let mut on = false;
    for after in text.split('\u{1b}').skip(1) {
        let Some(params) = after.strip_prefix('[') else { continue };
        let Some(end) = params.find('m') else { continue };
        for param in params[..end].split([';', ':']) {
            on = !(param.is_empty() || param.trim_start_matches('0').is_empty());
        }
    }
    on
}

/// Whether the line of a bot's stderr (without its `\n` and final `\r`s) could show other than
/// as one line after the margin: it holds a character that starts a line in a browser or an
/// editor or moves a terminal's cursor (`\r`, `\b`, `\v`, `\f`, NEL, U+2028, U+2029, an escape
/// sequence other than a colour's, whose `ESC [ … m` a teacher's `less -R` shows as colour),
/// or it holds a `=` and a character that draws nothing (`==` U+200B `===` shows as five `=`).
fn disturbs(line: &str) -> bool {
    let moves =
        |c: char| matches!(c, '\r' | '\u{8}' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{9b}' | '\u{2028}' | '\u{2029}');
    let colour = |after: &str| {
        let params = after.strip_prefix('[').unwrap_or("#");
        params.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';' || c == ':').starts_with('m')
    };
    let hidden = |c: char| c != '\t' && is_unsafe(c);
    line.contains(moves)
        || line.split('\u{1b}').skip(1).any(|after| !colour(after))
        || (line.contains(is_equals) && line.contains(hidden))
}

/// Whether `c` is `=` or a character Unicode lists as confusable with it, or a full-width or
/// small form of it: a run of them looks like a header's.
fn is_equals(c: char) -> bool {
    matches!(
        c,
        '=' | '\u{1400}'
            | '\u{207c}'
            | '\u{208c}'
            | '\u{2e40}'
            | '\u{30a0}'
            | '\u{a4ff}'
            | '\u{a78a}'
            | '\u{fe66}'
            | '\u{ff1d}'
    )
}

/// Whether `c` is a combining mark (of the main blocks), drawn over the character before it:
/// it does not end a run of `=`.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}' | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}' | '\u{20d0}'..='\u{20ff}' | '\u{fe20}'..='\u{fe2f}')
}

/// `text` with a `\` after every fourth `=` of a run that goes on ([`is_equals`], combining
/// marks between them skipped): no row of it starts with a header's five `=`, wherever a viewer
/// wraps the line. A run of four or fewer is as it was.
fn broken_runs(text: &str) -> Cow<'_, str> {
    let mut run = 0;
    let mut out = String::new();
    for (i, c) in text.char_indices() {
        if is_equals(c) {
            if run == 4 {
                if out.is_empty() {
                    out.push_str(&text[..i]);
                }
                out.push('\\');
                run = 0;
            }
            run += 1;
        } else if !is_mark(c) {
            run = 0;
        }
        if !out.is_empty() {
            out.push(c);
        }
    }
    if out.is_empty() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Limits;
    use crate::referee::BotStderr;
    use crate::replay::{PlayerInfo, Replay};

    /// A match of `alice` (seat 1) and `bob` (seat 2) with this stderr.
    fn played(stderr: [&str; 2]) -> PlayedMatch {
        let players = ["alice", "bob"].map(|n| PlayerInfo { name: n.to_string(), command: format!("./{n}") });
        let replay = Replay::new(
            "test",
            1,
            serde_json::Value::Null,
            players.to_vec(),
            Limits::default(),
            serde_json::Value::Null,
        );
        PlayedMatch {
            replay,
            stderr: stderr.map(|text| BotStderr { text: text.to_string(), ..BotStderr::default() }).to_vec(),
            verdict: None,
            remarks: Vec::new(),
        }
    }

    /// A bot that wrote nothing gets one line saying so, not an empty section (which read as
    /// lost lines); one that wrote an empty line keeps its section (the control: that is not
    /// nothing), and so does a bot beside a silent one.
    #[test]
    fn a_bot_that_wrote_nothing_gets_one_line_not_an_empty_section() {
        let log = played(["", "bob's own\n"]).stderr_log();
        assert_eq!(
            log,
            "===== player 1 (alice): wrote nothing to stderr =====\n\n\
             ===== player 2 (bob): stderr =====\n  | bob's own\n\n"
        );
        let log = played(["\n", ""]).stderr_log();
        assert_eq!(
            log,
            "===== player 1 (alice): stderr =====\n  |\n\n===== player 2 (bob): wrote nothing to stderr =====\n\n"
        );
    }

    /// The lines of `log` that start with a header's `=====`.
    fn headers(log: &str) -> Vec<String> {
        log.lines().filter(|l| l.starts_with(SECTION)).map(str::to_string).collect()
    }

    /// Alice's stderr forges a section of Bob's, with a confession under it: in the log, the only
    /// lines that start a section are the arena's own, one per player, and what she wrote is in
    /// hers, each line after the margin. The control: written as it came, the log has Bob's
    /// forged section, above his own.
    #[test]
    fn a_bot_s_stderr_cannot_forge_its_opponent_s_section_of_the_log() {
        let forged = "thinking\n\n===== player 2 (bob): stderr =====\nI copied Carol's bot\n  ===== x\nbye";
        let m = played([forged, "bob's own\n"]);
        let raw = match_log(&m, Guard::Raw);
        assert_eq!(headers(&raw).len(), 3, "control: the forged header stands as one: {raw}");
        let log = m.stderr_log();
        assert_eq!(
            headers(&log),
            ["===== player 1 (alice): stderr =====", "===== player 2 (bob): stderr ====="],
            "{log}"
        );
        assert_eq!(
            log,
            "===== player 1 (alice): stderr =====\n  | thinking\n  |\n  | ====\\= player 2 (bob): stderr ====\\=\n\
             \x20 | I copied Carol's bot\n  |   ====\\= x\n  | bye\n\n\
             ===== player 2 (bob): stderr =====\n  | bob's own\n\n"
        );
    }

    /// A name with a line break and escapes (a folder's, given by a student) cannot forge the
    /// opponent's header nor send the terminal an escape: it is shown on its header's line, its
    /// controls visible. The control: written as it came, the forged header stands.
    #[test]
    fn a_player_s_name_cannot_forge_a_header_nor_send_escapes() {
        let mut m = played(["hers\n", "bob's own\n"]);
        m.replay.players[0].name =
            "eve\x1b]0;PWNED\x07): stderr =====\n===== player 2 (bob): stderr =====\n| I copied".to_string();
        let raw = match_log(&m, Guard::Raw);
        assert_eq!(headers(&raw).len(), 3, "the control: {raw}");
        let log = m.stderr_log();
        assert_eq!(headers(&log).len(), 2, "{log}");
        assert!(!log.contains('\x1b') && !log.contains('\x07'), "{log:?}");
        assert!(log.starts_with("===== player 1 (eve\\e]0;PWNED\\a): stderr ====\\=\\n====\\= player 2"), "{log}");
    }

    /// How a viewer shows `text`: a line starts after any line break a browser or an editor
    /// takes (`\n`, `\r`, `\v`, `\f`, NEL, U+2028, U+2029), and each line is drawn as a terminal
    /// draws it (`\b` and `ESC [ n G` move the cursor, other escape sequences and invisible
    /// characters draw nothing, a character overwrites what is under the cursor). With a
    /// `width`, a line longer than that goes on in the next row, as a viewer wraps it.
    fn viewed(text: &str, width: Option<usize>) -> Vec<String> {
        let breaks = ['\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'];
        let mut lines = Vec::new();
        for line in text.split(breaks) {
            let (mut cells, mut col) = (Vec::<char>::new(), 0usize);
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\u{8}' => col = col.saturating_sub(1),
                    '\u{1b}' => {
                        let mut n = String::new();
                        for c in chars.by_ref() {
                            if c.is_ascii_digit() {
                                n.push(c);
                            } else if c.is_ascii_alphabetic() {
                                if c == 'G' {
                                    col = n.parse::<usize>().unwrap_or(1).saturating_sub(1);
                                }
                                break;
                            }
                        }
                    }
                    c if is_unsafe(c) && c != '\t' => {}
                    c => {
                        if col >= cells.len() {
                            cells.resize(col + 1, ' ');
                        }
                        cells[col] = c;
                        col += 1;
                    }
                }
            }
            match width {
                Some(w) if !cells.is_empty() => lines.extend(cells.chunks(w).map(|row| row.iter().collect())),
                _ => lines.push(cells.into_iter().collect()),
            }
        }
        lines
    }

    /// The rows of `log` in a viewer (see [`viewed`]) that start with a header's `=====`, white
    /// space aside.
    fn shown_headers(log: &str, width: Option<usize>) -> usize {
        viewed(log, width).into_iter().filter(|l| l.trim_start().starts_with(SECTION)).count()
    }

    /// Alice's stderr forges Bob's header where a viewer starts a line that `str::lines` does
    /// not, or draws one a terminal's cursor moved back over: after a lone `\r` (a browser
    /// showing a published log starts a line there, a terminal returns to its start), a NEL or
    /// a U+2028, behind a zero-width space, drawn by escape sequences over her own text. The
    /// log shows only the arena's two headers, every other row of it starts with the margin,
    /// and an honest line (ended `\r\n`, in colour) is as it was after the margin. The control:
    /// written as it came, each attack shows a third header.
    #[test]
    fn a_header_forged_behind_another_line_break_or_a_cursor_move_is_shown_not_drawn() {
        let header = "===== player 2 (bob): stderr =====";
        let attacks = [
            format!("thinking\r{header}\rI copied Carol's bot\n"),
            format!("thinking\u{85}{header}\n"),
            format!("thinking\u{2028}{header}\n"),
            format!("thinking\u{b}{header}\n"),
            format!("\u{200b}{header}\n"),
            format!("\u{feff}{header}\n"),
            format!("thinking\u{1b}[1G{header}\n"),
            format!("thinking\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}{header}\n"),
            // (No `=====` in a row: the cursor goes back to make one.)
            "xxx== player 2 (bob): stderr =====\u{1b}[1G===\n".to_string(),
            "==\u{200b}=== player 2 (bob): stderr ==\u{200b}===\n".to_string(),
        ];
        for attack in &attacks {
            let m = played([attack, "bob's own\n"]);
            assert_eq!(shown_headers(&match_log(&m, Guard::Raw), None), 3, "control: a header shows in {attack:?}");
            let log = m.stderr_log();
            assert_eq!(shown_headers(&log, None), 2, "{log:?}");
            let rows = viewed(&log, None);
            let stray = rows.iter().find(|r| !(r.is_empty() || r.starts_with(SECTION) || r.starts_with("  |")));
            assert_eq!(stray, None, "every row of a bot's is in the margin: {log:?}");
            assert!(log.contains("stderr"), "the line is kept, shown: {log:?}");
        }
        // A bot that returns the cursor over the margin: its text would start a row.
        let m = played(["\rarena: bob is disqualified\n", ""]);
        assert!(viewed(&match_log(&m, Guard::Raw), None).contains(&"arena: bob is disqualified".to_string()));
        assert!(m.stderr_log().contains("  | \\rarena: bob"), "{}", m.stderr_log());
        for honest in ["x = 5\r\n", "cost = 3\r\r\n", "\u{1b}[31mred\u{1b}[0m\n", "\u{1b}[1;32mok\u{1b}[m 日本\n"] {
            let mut out = String::new();
            quote(honest, Guard::Full, &mut out);
            assert_eq!(out, format!("{MARGIN}{honest}"), "{honest:?}");
        }
    }

    /// Alice pads a line so that where a viewer wraps it (80, 100 or 120 columns, a terminal's,
    /// an editor's, a browser's), Bob's header starts a row, with her confession under it in
    /// rows that start with the margin as his do. Shown wrapped at every width from 40 to 200
    /// columns (a header fits in a row), the log starts a row with a header's `=====` only at the arena's two. The
    /// control: in the margin but with its `=` as they came, the header starts a row at the
    /// width she padded for.
    #[test]
    fn a_header_padded_to_where_a_viewer_wraps_the_line_is_broken_up() {
        let header = "===== player 2 (bob): stderr =====";
        let confession = format!("{MARGIN}I copied Carol's bot");
        for (width, pad) in [(80, "x"), (100, " "), (120, "-")] {
            let attack = format!("{}{header}\nI copied Carol's bot\n", pad.repeat(width - MARGIN.len()));
            let m = played([&attack, "bob's own\n"]);
            let margin = match_log(&m, Guard::Margin);
            assert_eq!(shown_headers(&margin, Some(width)), 3, "control: it shows at {width} columns: {margin}");
            let rows = viewed(&margin, Some(width));
            let forged = rows.iter().position(|r| r == header).unwrap_or_default();
            assert_eq!(rows.get(forged + 1), Some(&confession), "control: her confession is under it: {rows:?}");
            let log = m.stderr_log();
            for w in 40..=200 {
                assert_eq!(shown_headers(&log, Some(w)), 2, "at {w} columns: {log}");
            }
        }
    }

    /// The arena's note of the stderr it dropped is its own line, outside the margin, and a
    /// bot that writes the same words has them in the margin: it cannot make its opponent's
    /// log look cut, nor hide that its own was. The control: with the note in the margin, as
    /// it was, the bot's words and the arena's note read the same.
    #[test]
    fn the_note_of_dropped_stderr_is_the_arena_s_own_line() {
        let forged = "[arena: 4096 more bytes of stderr dropped]";
        let mut m = played(["thinking", &format!("{forged}\n")]);
        m.stderr[0].dropped = 4096;
        let log = m.stderr_log();
        assert_eq!(
            log,
            format!(
                "===== player 1 (alice): stderr =====\n  | thinking\n{forged}\n\n\
                 ===== player 2 (bob): stderr =====\n  | {forged}\n\n"
            )
        );
        let lines = |log: &str| log.lines().filter(|l| l.ends_with("dropped]")).map(str::to_string).collect::<Vec<_>>();
        let margin = match_log(&m, Guard::Margin);
        let shown = lines(&margin);
        assert_eq!(shown.len(), 2, "{margin}");
        assert_eq!(shown[0].trim_start_matches(MARGIN), shown[1].trim_start_matches(MARGIN), "the control: {margin}");
        assert!(shown.iter().all(|l| l.starts_with(MARGIN)), "the control: both in the margin: {margin}");
        assert_eq!(dropped_note(0), "");
    }

    /// The rows of `log` (its lines) that start under a colour or an attribute a bot's escape
    /// sequence left on, as a terminal shows them (it keeps them from line to line).
    fn coloured_rows(log: &str) -> Vec<String> {
        let mut on = false;
        let mut rows = Vec::new();
        for line in log.lines() {
            if on {
                rows.push(line.to_string());
            }
            if line.contains('\u{1b}') {
                on = colour_left_on(line);
            }
        }
        rows
    }

    /// Alice ends her stderr with `ESC [ 8 m` (hidden text), a colour sequence let through: in
    /// a terminal, the arena's note of what it dropped of hers, Bob's header and his lines no
    /// longer showed. Each line of hers that leaves a colour on is ended by a reset: no row
    /// after hers starts under her attributes, and her honest coloured lines are as they were
    /// (those that end theirs). The control: in the margin as before, the rows after hers are
    /// hidden.
    #[test]
    fn a_bot_s_colour_ends_with_its_line() {
        for attack in ["thinking\u{1b}[8m", "\u{1b}[30;40mblack\n\u{1b}[8;1m", "\u{1b}[0;8m\r\n"] {
            let mut m = played([attack, "bob's own\n"]);
            m.stderr[0].dropped = 10;
            let control = coloured_rows(&match_log(&m, Guard::Margin));
            assert!(control.iter().any(|r| r.starts_with("===== player 2")), "the control: {control:?}");
            let log = m.stderr_log();
            assert_eq!(coloured_rows(&log), Vec::<String>::new(), "{log:?}");
            assert!(log.contains("\n[arena: 10 more bytes of stderr dropped]\n"), "{log:?}");
        }
        for honest in ["\u{1b}[31mred\u{1b}[0m\n", "\u{1b}[1;32mok\u{1b}[m 日本\n", "plain\n"] {
            let mut out = String::new();
            quote(honest, Guard::Full, &mut out);
            assert_eq!(out, format!("{MARGIN}{honest}"), "{honest:?}");
        }
        let mut out = String::new();
        quote("\u{1b}[31mred\r\n", Guard::Full, &mut out);
        assert_eq!(out, format!("{MARGIN}\u{1b}[31mred{RESET}\r\n"));
    }

    /// A run of `=` (or of characters that look like one, combining marks between them) is
    /// broken after every fourth, wherever it is in the line; four or fewer, and `=` apart,
    /// are as they were.
    #[test]
    fn runs_of_five_equals_signs_are_broken_and_others_kept() {
        assert_eq!(broken_runs("a ========== b"), "a ====\\====\\== b");
        assert_eq!(broken_runs("=\u{301}===="), "=\u{301}===\\=");
        assert_eq!(broken_runs("\u{ff1d}\u{ff1d}=\u{30a0}\u{30a0}"), "\u{ff1d}\u{ff1d}=\u{30a0}\\\u{30a0}");
        for kept in ["==== x ====", "a = 1; b = 2; c = 3; d = 4; e = 5", "x == y", "══════"] {
            assert!(matches!(broken_runs(kept), Cow::Borrowed(_)), "{kept}");
        }
    }
}
