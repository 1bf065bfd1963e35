//! How the classic text programs read their input: as bytes, line by line, the way the
//! handouts' C and C++ programs do. A line that is not valid UTF-8 is just a command nobody
//! knows (the handouts ask for "arbitrary input in any form"), never an error that ends the
//! program; words are split on the C locale's white space (`isspace`), never on Unicode's.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// Reads the next line into `line` (cleared first) without its `\n`; `false` at the end of
/// input. A last line without `\n` is still a line.
pub fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    if input.read_until(b'\n', line)? == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
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
