//! How a league shows a path of the teacher's machine. A bot's command made absolute
//! (`sh /home/jdoe/courses/2026/bots/alice/bot.sh`) or a failure naming a folder (`its folder
//! /home/jdoe/courses/2026/bots/carol is missing`) tells the teacher's user name and folders,
//! and means nothing on another machine. So what a league records in its replays and shows on
//! its leaderboards and pages names a path under the config's folder or the league's folder
//! relative to it (`sh bots/alice/bot.sh`, as the config gives it; `its folder bots/carol is
//! missing`; `versions/alice/…` for the copy the league kept), and any other absolute path by
//! its last part after an ellipsis (`/opt/bots/x` is shown `…/x`), but the system's in a
//! message (`/usr/bin`, `/bin/sh`: where bots look for programs tells nothing of the teacher's). The league's record
//! (`tournament.json`) and the terminal keep the paths, which help the teacher.

use std::path::{Component, Path, PathBuf};

/// The folders a league shows paths relative to (see the module's documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShownPaths {
    /// Absolute, each with a part at least (not `/`), the longest first.
    roots: Vec<PathBuf>,
    /// The teacher's home folder, shown `~` wherever it appears in a message (a path glued to
    /// an option, `-I/home/jdoe/…`, or with a space, `/home/John Smith/…`, is not found whole).
    home: Option<PathBuf>,
}

/// What a path outside the roots is shown with before its last part.
const ELSEWHERE: &str = "…/";

impl ShownPaths {
    /// Paths under `roots` (the config's folder, the league folder) are shown relative to the
    /// innermost; a root that is relative or `/` is ignored (under `/`, every path would be
    /// shown whole).
    pub fn new<'a>(roots: impl IntoIterator<Item = &'a Path>) -> Self {
        let mut roots: Vec<PathBuf> = roots
            .into_iter()
            .filter(|r| r.is_absolute() && r.components().any(|c| matches!(c, Component::Normal(_))))
            .map(Path::to_path_buf)
            .collect();
        roots.sort_by_key(|r| std::cmp::Reverse(r.as_os_str().len()));
        roots.dedup();
        ShownPaths { roots, home: None }
    }

    /// The same, with `home` (the teacher's home folder, absolute and not `/`) shown `~` in
    /// messages and as a path of its own.
    pub fn with_home(mut self, home: Option<&Path>) -> Self {
        self.home = home.filter(|h| h.is_absolute() && h.components().count() > 1).map(Path::to_path_buf);
        self
    }

    /// `path` as shown: relative to the innermost root it lies under (textually, with no `..`;
    /// `.` for a root itself), else its last part after [`ELSEWHERE`]. A relative path is shown
    /// as it is.
    pub fn path(&self, path: &Path) -> String {
        if path.is_relative() {
            return path.display().to_string();
        }
        // (A path with a `..` below one root has it below any other it lies under.)
        for root in &self.roots {
            match crate::files::parts_under(path, root) {
                Some(parts) if parts.is_empty() => return ".".to_string(),
                Some(parts) => return parts.join("/"),
                None => continue,
            }
        }
        if self.home.as_deref() == Some(path) {
            return "~".to_string();
        }
        match path.file_name() {
            Some(name) => format!("{ELSEWHERE}{}", name.to_string_lossy()),
            None => ELSEWHERE.trim_end_matches('/').to_string(),
        }
    }

    /// A command line as shown: each word that is an absolute path (even with spaces in it) by
    /// [`ShownPaths::path`], paths inside a word (`--data=/home/…`) by [`ShownPaths::text`].
    /// A command whose words show as they are is returned as it is (its quoting kept).
    pub fn command(&self, command: &str) -> String {
        let Ok(words) = shell_words::split(command) else { return self.text(command) };
        let shown: Vec<String> = words
            .iter()
            .map(|w| if Path::new(w).is_absolute() { self.path(Path::new(w)) } else { self.text(w) })
            .collect();
        if shown == words {
            command.to_string()
        } else {
            shell_words::join(shown)
        }
    }

    /// `text` (a message: why a bot cannot play, a compiler's first error) with every absolute
    /// path in it shown by [`ShownPaths::path`], but the system's (`/usr/bin`, `/bin/sh`), shown
    /// whole. A path starts with `/` at the start of the text
    /// or after a space, quote, bracket, `=`, `,` or `:`, and ends before a space, quote,
    /// bracket, `:`, `,`, `;`, `|` or `&` (and a final `.`); one under a root is found whole,
    /// spaces in the root included.
    pub fn text(&self, text: &str) -> String {
        // First every root and the home folder wherever they appear, whatever comes before
        // them (`-I/home/…/include`, a path with a space the scan below would cut).
        let mut text = text.to_string();
        for root in &self.roots {
            text = replace_folder(&text, &root.to_string_lossy(), "", ".");
        }
        if let Some(home) = &self.home {
            text = replace_folder(&text, &home.to_string_lossy(), "~/", "~");
        }
        let text = text.as_str();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let starts = rest.starts_with('/')
                && rest[1..].chars().next().is_some_and(|c| c != '/' && !ends_path(c))
                && text[..at].chars().next_back().is_none_or(starts_path);
            if !starts {
                let c = rest.chars().next().unwrap_or_default();
                out.push(c);
                at += c.len_utf8().max(1);
                continue;
            }
            // Past the innermost root it starts with (whole), then up to the next end.
            let root_len = self
                .roots
                .iter()
                .map(|r| r.to_string_lossy())
                .find(|r| rest.starts_with(r.as_ref()) && ends_root(&rest[r.len()..]))
                .map_or(0, |r| r.len());
            let mut len = root_len + rest[root_len..].find(ends_path).unwrap_or(rest.len() - root_len);
            while len > 1 && rest[..len].ends_with('.') && !rest[..len].ends_with("/.") {
                len -= 1;
            }
            // (A system path, `/usr/bin` or `/bin/sh`, tells nothing of the teacher's: a
            // message naming where bots look for programs stays whole.)
            let path = Path::new(&rest[..len]);
            if crate::sandbox::is_system(path) && !path.components().any(|c| c == Component::ParentDir) {
                out.push_str(&rest[..len]);
            } else {
                out.push_str(&self.path(path));
            }
            at += len;
        }
        out
    }
}

/// Whether a path in a text may start after `c`.
fn starts_path(c: char) -> bool {
    c.is_whitespace() || matches!(c, '`' | '\'' | '"' | '(' | '[' | '{' | '<' | '=' | ',' | ':')
}

/// Whether a root found in a text ends there, before `after`: at its end, a `/`, or what ends
/// a path (a sentence's final `.` included).
fn ends_root(after: &str) -> bool {
    let mut chars = after.chars();
    match chars.next() {
        None => true,
        Some('.') => chars.next().is_none_or(ends_path),
        Some(c) => c == '/' || ends_path(c),
    }
}

/// `text` with each occurrence of the folder `dir` replaced: followed by `/`, the two by
/// `below`; where a path ends after it ([`ends_root`]), by `itself`; elsewhere (a sibling,
/// `/home/jdoe2`) left.
fn replace_folder(text: &str, dir: &str, below: &str, itself: &str) -> String {
    if dir.is_empty() || !text.contains(dir) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(dir) {
        out.push_str(&rest[..at]);
        let after = &rest[at + dir.len()..];
        if let Some(below_it) = after.strip_prefix('/') {
            out.push_str(below);
            rest = below_it;
        } else if ends_root(after) {
            out.push_str(itself);
            rest = after;
        } else {
            out.push_str(dir);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Whether `c` ends a path in a text.
fn ends_path(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '`' | '\'' | '"' | '(' | ')' | '[' | ']' | '{' | '}' | '<' | '>' | ':' | ',' | ';' | '|' | '&')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown() -> ShownPaths {
        ShownPaths::new([Path::new("/home/j doe/courses/2026"), Path::new("/home/j doe/courses/2026/league")])
    }

    /// A path under the config's folder is shown relative to it, one under the league folder
    /// (inside the config's) relative to the league's, any other by its last part.
    #[test]
    fn paths_are_shown_under_the_innermost_root_else_by_their_last_part() {
        let s = shown();
        assert_eq!(s.path(Path::new("/home/j doe/courses/2026/bots/alice/bot.sh")), "bots/alice/bot.sh");
        assert_eq!(s.path(Path::new("/home/j doe/courses/2026/league/versions/a/f/x")), "versions/a/f/x");
        assert_eq!(s.path(Path::new("/home/j doe/courses/2026")), ".");
        assert_eq!(s.path(Path::new("/home/j doe/courses/2026/../2025/bot")), "…/bot");
        assert_eq!(s.path(Path::new("/home/j doe/courses/20266/bot")), "…/bot", "not under the root: a sibling");
        assert_eq!(s.path(Path::new("/usr/bin/python3")), "…/python3");
        assert_eq!(
            s.text("not found in /usr/local/bin, /usr/bin, /bin; `/bin/sh\\r`, /opt/x/y, /usr/../home/j/z"),
            "not found in /usr/local/bin, /usr/bin, /bin; `/bin/sh\\r`, …/y, …/z",
            "a system path in a message is shown whole"
        );
        assert_eq!(s.path(Path::new("/")), "…");
        assert_eq!(s.path(Path::new("bots/x")), "bots/x");
        assert_eq!(ShownPaths::new([Path::new("/"), Path::new("rel")]).path(Path::new("/home/j/x")), "…/x");
    }

    /// A command's absolute words are shown, spaces and all; a command with none is as given.
    #[test]
    fn commands_show_their_paths_relative_and_keep_their_quoting_otherwise() {
        let s = shown();
        assert_eq!(s.command("sh '/home/j doe/courses/2026/bots/alice/bot.sh' --fast"), "sh bots/alice/bot.sh --fast");
        let inside = s.command("/opt/x/bot '--data=/home/j doe/courses/2026/d'");
        assert_eq!(shell_words::split(&inside).unwrap(), ["…/bot", "--data=d"], "{inside}");
        assert_eq!(s.command("python3 'my bot.py'"), "python3 'my bot.py'");
        assert_eq!(s.command("sh 'unclosed"), "sh 'unclosed");
    }

    /// A message's paths are shown: under a root whole (spaces in the root included), others
    /// by their last part; text that only looks like a path nearby (a URL, `and/or`, `1/2`, a
    /// lone `/`) stays.
    #[test]
    fn messages_show_their_paths() {
        let s = shown();
        assert_eq!(
            s.text("its folder /home/j doe/courses/2026/bots/carol is missing"),
            "its folder bots/carol is missing"
        );
        assert_eq!(
            s.text("build `echo \"/home/j doe/courses/2026/bots/dave/bot.c:1:5: error\" >&2` failed"),
            "build `echo \"bots/dave/bot.c:1:5: error\" >&2` failed"
        );
        assert_eq!(
            s.text("cannot start: program `/srv/x/bot` not found (/home/j doe/courses/2026/league/builds/a.log)."),
            "cannot start: program `…/bot` not found (builds/a.log)."
        );
        assert_eq!(s.text("missing /home/j doe/courses/2026."), "missing ..", "the root, then the full stop");
        let kept = "see https://example.org/a/b, and/or 1/2 / x, //comment";
        assert_eq!(s.text(kept), kept);
        assert_eq!(s.text("PATH=/usr/bin:/bin"), "PATH=/usr/bin:/bin", "the system's paths, whole");
        assert_eq!(s.text("PATH=/opt/x/bin:/bin"), "PATH=…/bin:/bin");
        assert_eq!(s.text("é/x /é/y"), "é/x …/y");
        for text in ["its folder bots/carol is missing", "…/x", "."] {
            assert_eq!(s.text(text), text, "shown twice, the same");
        }
    }

    /// The review's leaks: a path glued to an option or quote, and one with a space outside the
    /// roots, were not found whole by the scan (the control, without the home folder, still
    /// shows the user's name there); the roots are now replaced wherever they appear, and the
    /// home folder shown `~`.
    #[test]
    fn roots_and_the_home_folder_are_replaced_wherever_they_appear() {
        let s = shown().with_home(Some(Path::new("/home/j doe")));
        assert_eq!(
            s.text("build `cc -I/home/j doe/courses/2026/include -o bot` failed"),
            "build `cc -Iinclude -o bot` failed"
        );
        assert_eq!(s.text("cc -I/home/j doe/other/include"), "cc -I~/other/include");
        assert_eq!(s.text("its folder /home/j doe/subs/carol is missing"), "its folder ~/subs/carol is missing");
        assert_eq!(
            s.text("cannot open ‘/home/j doe/x.h’; see file:///home/j doe/y"),
            "cannot open ‘~/x.h’; see file://~/y"
        );
        assert_eq!(s.text("HOME=/home/j doe,"), "HOME=~,");
        assert_eq!(s.text("/home/j doe2"), "…/j doe2", "a sibling is not the home folder");
        assert_eq!(s.path(Path::new("/home/j doe")), "~");
        assert_eq!(s.path(Path::new("/home/j doe/subs/x")), "…/x");
        // The control: without the home folder, the scan cuts the paths at their space or
        // misses the glued one.
        let leaks = shown().text("cc -I/home/j doe/other/include; its folder /home/j doe/subs/carol");
        assert!(leaks.contains("j doe"), "{leaks}");
        assert_eq!(ShownPaths::new([Path::new("/x")]).with_home(Some(Path::new("/"))).text("/a/b"), "…/b");
    }

    proptest::proptest! {
        /// Any message (a compiler's error quotes anything) is shown without a panic, and a
        /// root's folders never survive where the message names a path under it.
        #[test]
        fn any_message_is_shown_and_keeps_no_root(
            before in "[ -~é/\\.:`'\"(]{0,12}",
            sep in "[ `'\"(=,:]",
            rest in "[a-z/. ]{0,12}",
        ) {
            let s = shown();
            let text = format!("{before}{sep}/home/j doe/courses/2026/{rest}");
            let out = s.text(&text);
            proptest::prop_assert!(!out.contains("j doe"), "{text:?} -> {out:?}");
            let _ = s.command(&text);
        }
    }
}
