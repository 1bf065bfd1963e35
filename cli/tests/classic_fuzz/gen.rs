//! Pieces of random sessions shared by the three programs: words, numbers, white space, junk
//! bytes, lines and end of input anywhere.

use std::fmt;

use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Bytes that print as a byte string in failure reports.
#[derive(Clone, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// C's white space (`isspace`), as the programs split words.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The words of a line.
pub fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&b| is_space(b)).filter(|w| !w.is_empty()).collect()
}

/// The lines of an input, as a C program's `getline` gives them: without their `\n`, the last
/// one even without one.
pub fn lines(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    input.split_inclusive(|&b| b == b'\n').map(|l| l.strip_suffix(b"\n").unwrap_or(l))
}

/// A whole number of any size: an optional sign, then digits. Whether it is negative, and its
/// digits.
pub fn signed(word: &[u8]) -> Option<(bool, &[u8])> {
    let (negative, digits) = match word.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, word),
    };
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then_some((negative, digits))
}

/// A whole number as Rust's and C's parsers take it (see [`signed`]); `None` when it is not
/// one or does not fit in 64 bits.
pub fn int(word: &[u8]) -> Option<i64> {
    let (negative, digits) = signed(word)?;
    let mut value: i128 = 0;
    for &d in digits {
        value = value * 10 + i128::from(d - b'0');
        if value > i128::from(u64::MAX) {
            return None;
        }
    }
    i64::try_from(if negative { -value } else { value }).ok()
}

/// The white space between two words: mostly one space.
pub fn gap() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => Just(b" ".to_vec()),
        1 => Just(b"   ".to_vec()),
        1 => Just(b"\t".to_vec()),
        1 => prop::collection::vec(select(vec![b' ', b'\t', 0x0b, 0x0c, b'\r']), 1..4),
    ]
}

/// A word that is neither a command nor a number: bytes that are not UTF-8, a no-break space,
/// NUL, an escape sequence, non-ASCII letters and digits, or any bytes at all.
pub fn junk() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"\xff".to_vec()),
        Just(b"\xc3".to_vec()),
        Just(b"\xe2\x82".to_vec()),
        Just(b"\xc0\xaf".to_vec()),
        Just(b"\xed\xa0\x80".to_vec()),
        Just("\u{a0}".as_bytes().to_vec()),
        Just(b"\0".to_vec()),
        Just(b"\x1b[A".to_vec()),
        Just("\u{e9}".as_bytes().to_vec()),
        // The Kelvin sign lowercases to an ASCII `k` in Unicode; an Arabic-Indic digit one.
        Just("\u{212a}".as_bytes().to_vec()),
        Just("\u{661}".as_bytes().to_vec()),
        prop::collection::vec(any::<u8>().prop_filter("a word", |b| !is_space(*b)), 1..6),
    ]
}

/// A number as someone might type it: mostly `0..=max`, sometimes signed, padded, huge or not
/// quite a number.
pub fn number(max: i64) -> impl Strategy<Value = Vec<u8>> {
    let odd: Vec<&'static str> = vec![
        "-1",
        "+1",
        "+2",
        "007",
        "-0",
        "99999999999999999999",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775809",
        "4294967296",
        "1e3",
        "0x1",
        "1.0",
        "1,",
        "-",
        "+",
    ];
    prop_oneof![
        12 => (0..=max).prop_map(|n| n.to_string().into_bytes()),
        3 => select(odd).prop_map(|s| s.as_bytes().to_vec()),
        1 => junk(),
    ]
}

/// `word` in a random mix of upper and lower case.
pub fn cased(word: &'static str) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => Just(word.as_bytes().to_vec()),
        1 => any::<u64>().prop_map(move |mask| {
            word.bytes()
                .enumerate()
                .map(|(i, b)| if mask >> (i % 64) & 1 == 1 { b.to_ascii_uppercase() } else { b })
                .collect()
        }),
    ]
}

/// Joins words into a line with random white space between them and, sometimes, around.
pub fn spaced(words: impl Strategy<Value = Vec<Vec<u8>>>) -> impl Strategy<Value = Vec<u8>> {
    (words, prop::collection::vec(gap(), 8), 0u8..16).prop_map(|(words, gaps, edges)| {
        let mut line = Vec::new();
        if edges == 0 {
            line.extend(&gaps[7]);
        }
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                line.extend(&gaps[i % 6]);
            }
            line.extend(w);
        }
        if edges == 1 {
            line.extend(&gaps[6]);
        }
        line
    })
}

/// A line with nothing to do: empty, white space only, or junk.
pub fn nothing() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(select(vec![b' ', b'\t', 0x0b, 0x0c, b'\r']), 1..5),
        spaced(prop::collection::vec(junk(), 1..4)),
    ]
}

/// A session: lines ended by `\n` (sometimes `\r\n`), and sometimes cut anywhere, even in
/// the middle of a line or of a UTF-8 sequence.
pub fn session(line: impl Strategy<Value = Vec<u8>>, max_lines: usize) -> impl Strategy<Value = Bytes> {
    (prop::collection::vec(line, 0..max_lines), 0u8..8, 0u8..4, any::<Index>()).prop_map(|(lines, crlf, cut, at)| {
        let end: &[u8] = if crlf == 0 { b"\r\n" } else { b"\n" };
        let mut input: Vec<u8> = lines.iter().flat_map(|l| l.iter().chain(end)).copied().collect();
        if cut == 0 && !input.is_empty() {
            input.truncate(at.index(input.len() + 1));
        }
        Bytes(input)
    })
}
