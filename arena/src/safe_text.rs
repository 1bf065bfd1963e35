//! Text a bot controls (its answers, forfeit details that quote them, stderr excerpts, and
//! names that come from config files) made safe for each kind of output: a terminal,
//! Markdown, HTML and JSON. Replays keep the raw text as evidence; only its display changes.
//!
//! Terminal text shows every control character visibly (`ESC [2J` becomes `\e[2J`), so no
//! escape sequence, carriage return or bidirectional override reaches a terminal; a field
//! is also cut to [`FIELD_CHARS`] characters with a marker. The replacement leaves a
//! backslash as it is, so applying it twice changes nothing: what has been made safe once
//! passes any later check unchanged.

use std::borrow::Cow;
use std::fmt::Write;

use serde::Serialize;

/// Longest field shown in a table cell or a one-line message, in characters; longer text
/// is cut and ends with a marker saying how much was left out.
pub const FIELD_CHARS: usize = 200;

/// Characters a terminal (or a renderer) would act on instead of showing: C0 and C1
/// controls, DEL, bidirectional overrides and isolates, line and paragraph separators,
/// and invisible characters that can hide text or make one name pass for another: every
/// default-ignorable code point of Unicode (soft hyphen, joiners, variation selectors,
/// Hangul fillers, tag characters and the rest), the Braille blank and the interlinear
/// annotation marks.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}'
        | '\u{17b4}' | '\u{17b5}' | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{2800}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{ffa0}'
        | '\u{fff0}'..='\u{fffb}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// How an unsafe character is shown: `\e`, `\r`, `\n`, `\t`, `\a`, `\b`, `\v`, `\f`, `\0`,
/// `\x01` for other C0 controls and DEL, `\u{202e}` for the rest.
fn visible(c: char, out: &mut String) {
    let _ = match c {
        '\u{1b}' => out.write_str("\\e"),
        '\r' => out.write_str("\\r"),
        '\n' => out.write_str("\\n"),
        '\t' => out.write_str("\\t"),
        '\u{7}' => out.write_str("\\a"),
        '\u{8}' => out.write_str("\\b"),
        '\u{b}' => out.write_str("\\v"),
        '\u{c}' => out.write_str("\\f"),
        '\0' => out.write_str("\\0"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => write!(out, "\\x{:02x}", c as u32),
        c => write!(out, "\\u{{{:x}}}", c as u32),
    };
}

/// Text for a terminal spanning several lines (a rendered board, a table, a message):
/// every unsafe character shown visibly except `\n`. Nothing is cut.
pub fn terminal_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && is_unsafe(c) {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A message for a terminal that may span lines and be laid out with tabs (the top-level
/// `error: …`, whose config syntax errors quote the file's line under a caret): every unsafe
/// character shown visibly except `\n` and `\t`, nothing cut. A name or path it quotes cannot
/// clear the screen or reorder the text around it.
pub fn terminal_message(text: &str) -> Cow<'_, str> {
    let kept = |c: char| matches!(c, '\n' | '\t');
    if !text.chars().any(|c| !kept(c) && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !kept(c) && is_unsafe(c) {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One field for a terminal (a table cell, a quoted answer, a name in a line): every unsafe
/// character shown visibly, newlines included, and cut to [`FIELD_CHARS`] characters.
pub fn terminal(text: &str) -> String {
    terminal_cut(text, FIELD_CHARS)
}

/// `text` (a line a bot printed) quoted in a sentence for a terminal: one field ([`terminal`]:
/// controls visible, cut) between backticks, or between double backticks and spaces where it
/// holds a backtick itself (`` a`b ``), so that where it ends is never in doubt.
pub fn quoted(text: &str) -> String {
    let field = terminal(text);
    if field.contains('`') {
        format!("`` {field} ``")
    } else {
        format!("`{field}`")
    }
}

/// `n` with its noun, `one` or (any other count) `many`, as a message says it: `1 match`,
/// `2 matches`, `0 matches`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `word` (a path, a bot's command) as one word of a command a hint suggests, quoted as the
/// arena's own command-line splitting (and a POSIX shell) reads it when it needs to be
/// (`./my bot` is `'./my bot'`: unquoted, it is split in two), then as one terminal field.
pub fn shell_word(word: &str) -> String {
    terminal(&shell_words::quote(word))
}

/// `path` as one word of a command to copy: quoted as [`shell_word`], and a relative one that
/// starts with `-` (read as an option) shown as `./-…`.
pub fn path_word(path: &std::path::Path) -> String {
    let text = path.to_string_lossy();
    if path.is_relative() && text.starts_with('-') {
        shell_word(&format!("./{text}"))
    } else {
        shell_word(&text)
    }
}

/// One line of a message for a terminal, however long: every unsafe character shown visibly,
/// newlines included (text a bot controls cannot start a line of its own), nothing cut.
pub fn terminal_line(text: &str) -> String {
    terminal_cut(text, usize::MAX)
}

/// One event of the arena's log (`tracing`'s text, its closing line break included) for a
/// terminal: one line, every unsafe character shown visibly, nothing cut. `tracing` itself
/// shows escape characters in the values it logs, but neither line breaks, carriage returns
/// nor bidirectional overrides: a file name in a student's folder (quoted by a warning) or a
/// bot's name (logged with `-v`) would start a line of its own. With `colours`, the colour
/// sequences `tracing` writes on a terminal stay (see [`colour_len`]).
pub fn terminal_log(event: &str, colours: bool) -> String {
    let (text, end) = match event.strip_suffix('\n') {
        Some(text) => (text, "\n"),
        None => (event, ""),
    };
    let mut out = String::with_capacity(event.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(len) = colour_len(rest).filter(|_| colours) {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if is_unsafe(c) {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(end);
    out
}

/// The length of the colour sequence `text` starts with, if it starts with one `tracing`
/// writes: `ESC [`, then styles separated by `;` (reset, bold, dim, italic, and the levels'
/// red, green, yellow, blue and purple), then `m`. (`tracing` shows no escape character of
/// a message, but does those of a field's value on a terminal: another style, such as
/// concealed text, is shown as text.)
fn colour_len(text: &str) -> Option<usize> {
    let params = text.strip_prefix("\u{1b}[")?;
    let len = params.bytes().take_while(|b| b.is_ascii_digit() || *b == b';').count();
    let known = |p: &str| matches!(p, "0" | "1" | "2" | "3" | "31" | "32" | "33" | "34" | "35");
    (params[len..].starts_with('m') && params[..len].split(';').all(known)).then_some(2 + len + 1)
}

/// [`terminal`] with another length: cut to `max` characters as shown.
pub fn terminal_cut(text: &str, max: usize) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if is_unsafe(c) {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
    }
    shorten(&out, max).into_owned()
}

/// `text` cut to `max` characters, ending with `… [N more characters]` when cut.
pub fn shorten(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((at, _)) => {
            let rest = text[at..].chars().count();
            Cow::Owned(format!("{}… [{rest} more characters]", &text[..at]))
        }
    }
}

/// Inline Markdown (a table cell, a heading, a list item) showing `text` literally: a
/// terminal field (controls visible, newlines included, cut), then every character that
/// Markdown, GitHub's extensions or HTML would act on escaped with a backslash. A table cell
/// cannot be split by `|`, a line cannot end inside it, and no tag, link, code span,
/// emphasis or math starts in it; nor do GitHub's automatic links (`https:`, `www.`, e-mail
/// addresses: `:` and the dot after `www` escaped, `@` in a code span of its own, which no
/// escape stops), where a student's text would put a live link in the leaderboard.
pub fn markdown(text: &str) -> String {
    markdown_escaped(&terminal(text))
}

/// [`markdown`] not cut: a line the arena writes itself (a leaderboard's run facts, which name
/// every map and end with the date and the arena's version), however long.
pub fn markdown_line(text: &str) -> String {
    markdown_escaped(&terminal_line(text))
}

/// `field` (already made safe for a terminal) with every character Markdown would act on escaped.
fn markdown_escaped(field: &str) -> String {
    let mut out = String::with_capacity(field.len() + 8);
    let mut last3 = ['\0'; 3];
    for c in field.chars() {
        let after_www = c == '.' && last3.iter().all(|l| l.eq_ignore_ascii_case(&'w'));
        last3 = [last3[1], last3[2], c];
        if c == '@' {
            out.push_str("`@`");
            continue;
        }
        if after_www
            || matches!(
                c,
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '$' | '!' | '(' | ')' | ':'
            )
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text or an attribute value in HTML: `&`, `<`, `>`, `"` and `'` as character references,
/// and the characters [`is_unsafe`] names but line breaks and tabs shown visibly as in a
/// terminal (`\e`, `\u{202e}`): a bidirectional override would reorder the page's own text
/// around it, and invisible ones hide text. (The pages' scripts show text the same way:
/// `arena.shown` in `view/common.js`.)
pub fn html(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r');
    if !text.contains(['&', '<', '>', '"', '\'']) && !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if hidden(c) => visible(c, &mut out),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A text cell of a CSV file that a spreadsheet opens as text: one starting with `=`, `+`,
/// `-`, `@`, a tab or a carriage return gets a leading `'`, as a spreadsheet would otherwise
/// run it as a formula (a bot named `=HYPERLINK(…)` in the teacher's gradebook).
pub fn spreadsheet(text: &str) -> Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// JSON of `value` that is safe on a terminal too: serde escapes C0 controls; the other
/// unsafe characters (C1 controls, bidirectional overrides, separators) are written as
/// `\uXXXX` escapes as well. The value read back is the same.
pub fn json<T: Serialize + ?Sized>(value: &T, pretty: bool) -> serde_json::Result<String> {
    let text = if pretty { serde_json::to_string_pretty(value)? } else { serde_json::to_string(value)? };
    Ok(escape_json_text(text))
}

/// JSON of `value` to put inside an HTML `<script>` element: [`json`], with every `<` as
/// `\u003c`, so no string can close the element or open a comment.
pub fn json_in_html<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    Ok(json(value, false)?.replace('<', "\\u003c"))
}

/// Writes the unsafe characters left in serde's output as `\uXXXX` (inside strings, the only
/// place they can be; raw C0 controls never are), one above U+FFFF as its two UTF-16 halves,
/// as JSON spells it.
fn escape_json_text(text: String) -> String {
    if !text.chars().any(is_unsafe_in_json) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe_in_json(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Unsafe characters other than the white space pretty JSON is laid out with.
fn is_unsafe_in_json(c: char) -> bool {
    is_unsafe(c) && !matches!(c, '\n' | ' ')
}

#[cfg(test)]
mod tests {
    /// A quoted line shows its controls and is cut; one holding a backtick is quoted by two, so
    /// that its own cannot end the quote (the control: without one, a single backtick).
    /// One thing is said in the singular, any other count in the plural.
    #[test]
    fn a_count_of_one_is_singular() {
        assert_eq!(super::count(1, "match", "matches"), "1 match");
        assert_eq!(super::count(0, "match", "matches"), "0 matches");
        assert_eq!(super::count(2, "match", "matches"), "2 matches");
    }

    #[test]
    fn a_quoted_line_cannot_end_its_quote_nor_reach_the_terminal() {
        assert_eq!(super::quoted("WAIT"), "`WAIT`");
        assert_eq!(super::quoted("x` then \u{1b}[2J"), "`` x` then \\e[2J ``");
        let long = super::quoted(&"a".repeat(300));
        assert!(long.starts_with("`aaa") && long.ends_with("[100 more characters]`"), "{long}");
    }

    use super::*;

    const HOSTILE: &str = "\u{1b}[2J\u{1b}]0;owned\u{7}\u{1b}[31m WAIT";

    #[test]
    fn terminal_fields_show_escapes_visibly() {
        assert!(HOSTILE.contains('\u{1b}'), "control: the attack carries escape bytes");
        let shown = terminal(HOSTILE);
        assert_eq!(shown, "\\e[2J\\e]0;owned\\a\\e[31m WAIT");
        assert!(!shown.chars().any(is_unsafe));
        assert_eq!(terminal("a|b\rc\nd\te\u{9b}f\u{202e}g\u{0}"), "a|b\\rc\\nd\\te\\u{9b}f\\u{202e}g\\0");
        assert_eq!(terminal("\u{1}\u{7f}"), "\\x01\\x7f");
        assert_eq!(terminal("MOVE 3 4"), "MOVE 3 4", "ordinary text is unchanged");
        assert_eq!(terminal("日本 😀 café"), "日本 😀 café");
    }

    /// Every default-ignorable code point (Unicode's `DerivedCoreProperties.txt`, 16.0), which
    /// a terminal or a browser draws as nothing, is shown: a name or a line cannot hide one.
    /// (The list missed variation selectors among others: `greedy\u{fe0f}` showed as `greedy`;
    /// see `names_that_look_alike_are_refused` in `tournament::config` for the control.)
    #[test]
    fn every_invisible_character_is_shown() {
        const DEFAULT_IGNORABLE: [(u32, u32); 17] = [
            (0xad, 0xad),
            (0x34f, 0x34f),
            (0x61c, 0x61c),
            (0x115f, 0x1160),
            (0x17b4, 0x17b5),
            (0x180b, 0x180f),
            (0x200b, 0x200f),
            (0x202a, 0x202e),
            (0x2060, 0x206f),
            (0x3164, 0x3164),
            (0xfe00, 0xfe0f),
            (0xfeff, 0xfeff),
            (0xffa0, 0xffa0),
            (0xfff0, 0xfff8),
            (0x1bca0, 0x1bca3),
            (0x1d173, 0x1d17a),
            (0xe0000, 0xe0fff),
        ];
        for (a, b) in DEFAULT_IGNORABLE {
            for c in (a..=b).filter_map(char::from_u32) {
                assert!(is_unsafe(c), "U+{:04X}", c as u32);
            }
        }
        assert_eq!(terminal("greedy\u{fe0f}"), "greedy\\u{fe0f}");
        assert_eq!(html("a\u{1d173}b"), "a\\u{1d173}b");
    }

    #[test]
    fn terminal_text_is_idempotent_and_keeps_lines() {
        let once = terminal_lines("line 1\nline\r2 \u{1b}[H\n");
        assert_eq!(once, "line 1\nline\\r2 \\e[H\n");
        assert_eq!(terminal_lines(&once), once);
        assert_eq!(terminal(&terminal(HOSTILE)), terminal(HOSTILE));
        assert!(matches!(terminal_lines("plain\ntext"), Cow::Borrowed(_)));
    }

    /// A top-level error keeps its lines and tabs (a config's syntax error quotes its line
    /// under a caret) and shows the rest; the control: the raw message holds the escape.
    #[test]
    fn a_message_keeps_its_lines_and_tabs_only() {
        let raw = "le\u{1b}[2J\u{202e}ague.toml: TOML parse error\n  |\n3 | \tname = \"a\r\u{9b}\n  |  ^\n";
        assert!(raw.contains('\u{1b}') && raw.contains('\u{202e}'), "the control: raw, it clears the screen");
        let shown = terminal_message(raw);
        assert_eq!(shown, "le\\e[2J\\u{202e}ague.toml: TOML parse error\n  |\n3 | \tname = \"a\\r\\u{9b}\n  |  ^\n");
        assert!(!shown.chars().any(|c| is_unsafe(c) && !matches!(c, '\n' | '\t')));
        assert_eq!(terminal_message(&shown), shown, "idempotent");
        assert!(matches!(terminal_message("line 1\n\tline 2"), Cow::Borrowed(_)));
    }

    /// A log event whose value holds a line break, a carriage return, a shift-out and an
    /// override (what `tracing` lets through) stays one line with them shown; the colours
    /// `tracing` writes stay, nothing else that starts with an escape. The control: the event
    /// as it is forges a line.
    #[test]
    fn a_log_event_stays_one_line() {
        let forged = "plan: 2 matches to play, 0 kept";
        let event = format!("\u{1b}[33m WARN\u{1b}[0m cannot copy /s/x\n{forged}\r\u{e}\u{202e}y: denied\n");
        assert!(event.lines().any(|l| l == format!("{forged}\r\u{e}\u{202e}y: denied")), "control: {event:?}");
        let shown = terminal_log(&event, true);
        assert_eq!(
            shown,
            format!("\u{1b}[33m WARN\u{1b}[0m cannot copy /s/x\\n{forged}\\r\\x0e\\u{{202e}}y: denied\n")
        );
        assert_eq!(shown.lines().count(), 1);
        // Without colours, or any sequence but a colour, the escape character is shown too.
        assert_eq!(terminal_log("\u{1b}[33mA\u{1b}[2J\n", false), "\\e[33mA\\e[2J\n");
        assert_eq!(terminal_log("\u{1b}[33mA\u{1b}[2J\u{1b}[", true), "\u{1b}[33mA\\e[2J\\e[");
        // Concealed text, black on black: no style of tracing's.
        assert_eq!(terminal_log("\u{1b}[1;33mA\u{1b}[8mB\u{1b}[30;40m", true), "\u{1b}[1;33mA\\e[8mB\\e[30;40m");
        assert_eq!(terminal_log("plain\n", true), "plain\n");
    }

    #[test]
    fn long_fields_are_cut_with_a_marker() {
        let long = "A".repeat(4096);
        let shown = terminal(&long);
        assert_eq!(shown.chars().count(), FIELD_CHARS + "… [3896 more characters]".chars().count());
        assert!(shown.ends_with("… [3896 more characters]"), "{shown}");
        assert_eq!(terminal(&"é".repeat(FIELD_CHARS)), "é".repeat(FIELD_CHARS), "exactly the limit is not cut");
        // Visible escapes count as what is shown, and are never split.
        let esc = terminal(&"\u{1b}".repeat(150));
        assert!(esc.starts_with("\\e\\e") && esc.contains("… [100 more characters]"), "{esc}");
    }

    /// Columns of a Markdown table row: the number of `|` not escaped by a backslash, minus 1.
    fn columns(row: &str) -> usize {
        let (mut n, mut escaped) = (0, false);
        for c in row.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '|' if !escaped => n += 1,
                _ => escaped = false,
            }
        }
        n - 1
    }

    #[test]
    fn markdown_cells_keep_the_table_whole() {
        let name = "evil | name\n| x | y |\r`code` <img src=x onerror=alert(1)> [a](b) *em* $x$";
        let naive = format!("| 1 | {name} | 5 |");
        assert!(
            columns(naive.lines().next().unwrap()) != 3 || naive.lines().count() > 1,
            "control: raw text breaks the row"
        );
        let row = format!("| 1 | {} | 5 |", markdown(name));
        assert_eq!(row.lines().count(), 1);
        assert_eq!(columns(&row), 3, "{row}");
        // Every character Markdown or HTML would act on comes after an escaping backslash.
        let cell = markdown(name);
        let mut escaped = false;
        for c in cell.chars() {
            assert!(escaped || !"`*_[]<>|~&#$!()".contains(c), "`{c}` unescaped in {cell}");
            escaped = c == '\\' && !escaped;
        }
        assert!(!markdown(HOSTILE).chars().any(is_unsafe));
        assert_eq!(markdown("cpp-greedy v2.1"), "cpp-greedy v2.1", "ordinary names stay readable");
        // No automatic link: GitHub links these in plain text (checked with its parser,
        // cmark-gfm, on the escaped forms, which it shows as the text).
        assert_eq!(markdown("see https://evil.example/x"), "see https\\://evil.example/x");
        assert_eq!(markdown("WWW.evil.example"), "WWW\\.evil.example");
        assert_eq!(markdown("x@evil.example"), "x`@`evil.example");
    }

    #[test]
    fn html_escapes_markup_and_quotes() {
        assert_eq!(html("<b a=\"1\" b='2'>&</b>"), "&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;&lt;/b&gt;");
        assert!(matches!(html("plain"), Cow::Borrowed(_)));
        assert_eq!(html("a\u{202e}b\u{1b}[2J\nc\td"), "a\\u{202e}b\\e[2J\nc\td", "overrides and escapes shown");
    }

    #[test]
    fn json_is_terminal_safe_and_reads_back_the_same() {
        let value = serde_json::json!({ "answer": "\u{1b}[2J\u{9b}31m\u{202e}x\u{2028}</script>\u{e0041}", "n": 1 });
        for pretty in [false, true] {
            let text = json(&value, pretty).unwrap();
            assert!(!text.chars().any(|c| c != '\n' && is_unsafe(c)), "{text}");
            assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
        }
        let in_html = json_in_html(&value).unwrap();
        assert!(!in_html.contains('<'));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&in_html).unwrap(), value);
    }
}
