//! How the classic text programs read their input: as bytes, line by line, the way the
//! handouts' C and C++ programs do. A line that is not valid UTF-8 is just a command nobody
//! knows (the handouts ask for "arbitrary input in any form"), never an error that ends the
//! program; words are split on the C locale's white space (`isspace`), never on Unicode's.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

/// The longest line read, in bytes without its `\n`: far above any command or answer, and a
/// line of gigabytes without a newline is refused as it arrives rather than held in memory.
pub const MAX_LINE: usize = 1 << 20;

/// Reads the next line into `line` (cleared first) without its `\n`; `false` at the end of
/// input. A last line without `\n` is still a line. A line longer than [`MAX_LINE`] is an
/// error of kind `InvalidData` saying so, read no further than just past the limit.
pub fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    read_line_up_to(input, line, MAX_LINE)
}

/// [`read_line`] with another limit.
fn read_line_up_to(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<bool> {
    line.clear();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    if input.take(limit).read_until(b'\n', line)? == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() > max {
        line.clear();
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a line of input is longer than {max} bytes: every command is one line, far shorter"),
        ));
    }
    Ok(true)
}

/// White space as C's `isspace` sees it: space, `\t`, `\n`, `\v`, `\f`, `\r`; the bots'
/// answers are split on the same ([`bot_sdk::action::is_space`]).
pub fn is_space(b: u8) -> bool {
    bot_sdk::action::is_space(char::from(b))
}

/// The words of a line: runs of bytes between white space.
pub fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&b| is_space(b)).filter(|w| !w.is_empty()).collect()
}

/// `line` without white space at either end.
pub fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|&b| !is_space(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|&b| !is_space(b)).map_or(start, |i| i + 1);
    &line[start..end]
}

/// A word as text, for matching and number parsing: bytes that are not UTF-8 become U+FFFD,
/// which no command name and no number contains.
pub fn text(word: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bytes_and_the_last_one_needs_no_newline() {
        let mut input: &[u8] = b"PLACE \xff 1\r\n\n  tail";
        let mut line = Vec::new();
        assert!(read_line(&mut input, &mut line).unwrap());
        assert_eq!(line, b"PLACE \xff 1\r");
        assert_eq!(words(&line), [&b"PLACE"[..], b"\xff", b"1"]);
        assert!(read_line(&mut input, &mut line).unwrap());
        assert!(line.is_empty() && words(&line).is_empty());
        assert!(read_line(&mut input, &mut line).unwrap());
        assert_eq!(line, b"  tail");
        assert!(!read_line(&mut input, &mut line).unwrap());
    }

    /// A line past the limit is refused after reading just past it, from an endless input
    /// (`io::repeat`, which an unbounded read would hold in memory until it ran out); a line of
    /// exactly the limit is read whole. The control: `read_until` itself reads on.
    #[test]
    fn a_line_past_the_limit_is_refused_as_it_arrives() {
        let mut endless = io::BufReader::new(io::repeat(b'a'));
        let mut line = Vec::new();
        let e = read_line(&mut endless, &mut line).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("longer than 1048576 bytes"), "{e}");
        let mut input: &[u8] = &[&b"x".repeat(MAX_LINE)[..], b"\nquit\n"].concat();
        assert!(read_line(&mut input, &mut line).unwrap());
        assert_eq!(line.len(), MAX_LINE);
        assert!(read_line(&mut input, &mut line).unwrap() && line == b"quit");
        let mut input: &[u8] = b"abcd\nabcde";
        assert!(read_line_up_to(&mut input, &mut line, 4).unwrap() && line == b"abcd");
        assert!(read_line_up_to(&mut input, &mut line, 4).is_err(), "5 bytes without a newline");
        // The control.
        let mut long = io::BufReader::new(io::repeat(b'a').take(3 * MAX_LINE as u64));
        assert_eq!(long.read_until(b'\n', &mut line).unwrap(), 3 * MAX_LINE);
    }

    #[test]
    fn only_c_white_space_separates_words() {
        assert_eq!(words(b"\x0ba\x0cb\tc d\re"), [&b"a"[..], b"b", b"c", b"d", b"e"]);
        // A no-break space (U+00A0) is part of a word, as it is for the C and C++ programs.
        assert_eq!(words("a\u{a0}b".as_bytes()), ["a\u{a0}b".as_bytes()]);
        assert_eq!(trim(b" \x0b x y\r"), b"x y");
        assert_eq!(trim(b" \t "), b"");
        assert_eq!(text(b"1\xff"), "1\u{fffd}");
        assert!(text(b"1\xff").parse::<i64>().is_err());
    }
}
