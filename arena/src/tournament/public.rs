//! The part of a tournament folder that may be published (a course's web pages, GitHub Pages):
//! the pages, replays, leaderboards, results and logs. Not `tournament.json` (the league's
//! secret, which keys the bots' seeds, and the bots' commands and folders), nor `versions/`
//! (a copy of every student's code), nor the folder's lock; the build and match logs only on
//! request (a compiler's messages and a crash's traceback quote the student's source lines).
//! No map is published by its path (the teacher's folders, see [`crate::standings::maps`]), nor
//! a bot's command or a failure naming the teacher's folders (see [`super::shown`]).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;

use super::results::{self, RESULTS_FILE};
use super::shown::ShownPaths;
use super::{Reporter, TournamentError, TournamentRecord};
use crate::engine::Registry;
use crate::replay::PlayerInfo;
use crate::safe_text::html;

/// What of a tournament folder is copied, by name at its top; everything else stays.
pub const PUBLIC: [&str; 9] = [
    "index.html",
    "leaderboard.md",
    "leaderboard.json",
    super::results::RESULTS_FILE,
    "assets",
    "bots",
    "replays",
    "logs",
    "builds",
];

/// The folders of [`PUBLIC`] whose files are published only at their top, each of its kind
/// ([`publishable`]): the arena writes no folder in them.
const FLAT: [&str; 3] = ["replays", "logs", "builds"];

/// Whether the entry `path` found in the folder `top` of [`PUBLIC`] (below it) is published: in
/// `replays/`, the pages and the replays (files that read as one); in `logs/` and `builds/`, the
/// logs; in the others, what is neither a league's record nor a results file. So a shard's folder
/// made inside the league's (its record holds the league's secret), or a file put there, stays
/// out, at any depth. In `replays/`, only the page and the replay of a match the folder's results
/// hold, by its key (`<key>.html`, `<key>.json.gz`, `<key>.json`): any other file there is no
/// match's page (a shard's folder merged wrote its bytes as `replays/evil.html`, published).
fn publishable(top: &str, path: &Path, is_dir: bool, keys: &HashSet<&str>) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if name == super::TOURNAMENT_FILE || (name.starts_with("results") && name.ends_with(".jsonl")) {
        return false;
    }
    match top {
        "replays" => {
            let stem = [".html", ".json.gz", ".json"].iter().find_map(|end| name.strip_suffix(end));
            let a_match_s = stem.is_some_and(|stem| keys.contains(stem));
            !is_dir
                && a_match_s
                && (name.ends_with(".html") || (is_replay_file(&name) && recorded_players(path).is_some()))
        }
        "logs" | "builds" => !is_dir && name.ends_with(".log"),
        _ => true,
    }
}

/// What [`copy_public`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// Files published.
    pub files: usize,
    /// What it left out: by name at the folder's top, then by path what it left out inside the
    /// folders it publishes (a folder's path ends with `/`).
    pub left_out: Vec<String>,
    /// Build logs and match logs published as a note in their place (see [`copy_public`]).
    pub logs_withheld: usize,
}

/// Which logs [`copy_public`] publishes as they are (by default, a note stands in each's place).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LogsShown {
    /// The builds' logs (`builds/`).
    pub builds: bool,
    /// The matches' logs (`logs/`: the bots' stderr).
    pub matches: bool,
}

/// What a published build log says in place of the log, so that the pages' links still lead
/// somewhere; `first` is the error line the leaderboard shows anyway.
fn withheld_log(first: &str) -> String {
    format!(
        "This build log is not published: a compiler's messages quote the student's source lines.\n\
         The student's teacher has it in the league's folder (publish with --build-logs to include it).\n\
         Its first error, as the leaderboard shows it: {first}\n"
    )
}

/// What a published match log says in place of the log.
const WITHHELD_MATCH_LOG: &str =
    "This match's log (what the bots wrote to stderr) is not published: a crash's traceback \
    quotes the student's source lines, and a bot's debug output its thinking.\nThe teacher has it in the league's \
    folder (publish with --match-logs to include the match logs). The forfeits, if any, are on the match's page.\n";

/// The header of a replay page an older arena wrote names the match's map by its path, in
/// this form (the map's path and ` · `, escaped for HTML, in the page's subtitle).
fn old_replay_header(map: &str) -> String {
    format!(r#"<div class="sub">{}"#, html(&format!("{map} · ")))
}

/// A replay page as it is published: a page written before maps had names (see
/// [`old_replay_header`]) names its map by its name instead, from `headers` (each old header
/// with its new); any other page is as it is.
fn public_replay_page(page: Vec<u8>, headers: &[(String, String)]) -> Vec<u8> {
    // (Only the header is searched: the replay's own bytes follow it.)
    let end = find(&page, b"</header>").unwrap_or(0);
    for (old, new) in headers {
        if let Some(at) = find(&page[..end], old.as_bytes()) {
            return [&page[..at], new.as_bytes(), &page[at + old.len()..]].concat();
        }
    }
    page
}

/// Where `needle` first occurs in `hay` (an empty one nowhere).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A replay rewritten for publishing (see [`public_replay`]).
#[derive(Debug)]
struct ShownReplay {
    /// The players as the file records them (what a page embedding it holds).
    recorded: Vec<PlayerInfo>,
    /// The file's new bytes (gzip-compressed for a `.gz` file).
    file: Vec<u8>,
    /// Its new JSON (the same bytes as `file` for a plain replay).
    json: Vec<u8>,
}

/// A replay file as published: each bot's command as `shown` shows it (an older arena recorded
/// it made absolute, `sh /home/jdoe/…/bot.sh`), or `None` when it shows as it is, or is no
/// replay this arena reads (copied as it is then). Only the commands change: `arena verify`
/// re-simulates from the rest, and the result names the bots by their names.
fn public_replay(path: &Path, shown: &ShownPaths) -> Result<Option<ShownReplay>, TournamentError> {
    // (Most replays show as they are: only their start is read to tell.)
    let Some(players) = recorded_players(path) else { return Ok(None) };
    if players.iter().all(|p| shown.command(&p.command) == p.command) {
        return Ok(None);
    }
    // As JSON, not as a `Replay`: a replay of another format or version is rewritten too, and
    // one that cannot be is not published as it is (its commands name the teacher's folders).
    let cannot = |why: String| {
        TournamentError::Invalid(format!(
            "{}: its bots' commands name folders of this machine, and it cannot be published without them: {why}",
            path.display()
        ))
    };
    let json = crate::replay::read_json(path).map_err(|e| cannot(e.to_string()))?;
    let mut replay: serde_json::Value = serde_json::from_slice(&json).map_err(|e| cannot(e.to_string()))?;
    let Some(list) = replay.get_mut("players").and_then(|p| p.as_array_mut()) else {
        return Err(cannot("no list of players".to_string()));
    };
    for player in list {
        if let Some(command) = player.get_mut("command") {
            if let Some(text) = command.as_str() {
                *command = serde_json::Value::String(shown.command(text));
            }
        }
    }
    let json = serde_json::to_vec(&replay).map_err(|e| cannot(e.to_string()))?;
    let file = if path.extension().is_some_and(|e| e == "gz") {
        crate::replay::gzip(&json).map_err(|e| cannot(e.to_string()))?
    } else {
        json.clone()
    };
    Ok(Some(ShownReplay { recorded: players, file, json }))
}

/// The players a replay file records, read from its start only: a replay records them before
/// its steps, so the rest of it (nearly all) is neither unpacked nor parsed. `None` when the
/// file is no JSON object with `players` (at most [`crate::replay::MAX_REPLAY_BYTES`] read).
fn recorded_players(path: &Path) -> Option<Vec<PlayerInfo>> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    use std::io::{BufRead, BufReader, Read};
    /// Reads a replay's top-level keys up to `players`, which it keeps, then stops.
    struct Players<'a>(&'a mut Option<Vec<PlayerInfo>>);
    impl<'de> Visitor<'de> for Players<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a replay")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "players" {
                    *self.0 = Some(map.next_value()?);
                    // (An error stops the reading there: the caller has what it wanted.)
                    return Err(serde::de::Error::custom("the players are read"));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    // (A file of the folder's own: a FIFO waited for a writer, a link read another file.)
    let mut file = BufReader::new(crate::files::open_own_regular(path).ok()??);
    let gzipped = file.fill_buf().ok()?.starts_with(&[0x1f, 0x8b]);
    let text: Box<dyn Read> =
        if gzipped { Box::new(flate2::bufread::MultiGzDecoder::new(file)) } else { Box::new(file) };
    let mut json = serde_json::Deserializer::from_reader(BufReader::new(text.take(crate::replay::MAX_REPLAY_BYTES)));
    let mut players = None;
    let _ = json.deserialize_map(Players(&mut players));
    players
}

/// The largest file a publish reads (a replay is at most [`crate::replay::MAX_REPLAY_BYTES`]).
const MAX_PUBLISHED_BYTES: u64 = 64 << 20;

/// The bytes of the file `path` of the league's folder, where it is a file of its own: not
/// through a link, no FIFO waited on, at most [`MAX_PUBLISHED_BYTES`] (the walk passes links
/// and FIFOs over; this holds where one takes a file's place meanwhile).
fn read_own(path: &Path) -> Result<Vec<u8>, TournamentError> {
    crate::files::read_own_regular(path, MAX_PUBLISHED_BYTES).map_err(|e| TournamentError::io(path, e))
}

/// Copies the file `from` of the league's folder to `to`, as [`read_own`] reads it.
fn copy_own(from: &Path, to: &Path) -> Result<(), TournamentError> {
    let bytes = read_own(from)?;
    std::fs::write(to, bytes).map_err(|e| TournamentError::io(to, e))
}

/// Whether a file of `replays/` named `name` is a replay: `<key>.json.gz`, or `<key>.json` as
/// an arena before gzip wrote them (its bots' commands made absolute too).
fn is_replay_file(name: &str) -> bool {
    name.ends_with(".json.gz") || name.ends_with(".json")
}

/// The replays a page of `replays/` may show, those beside it of its name: `x.json.gz` for
/// `x.html`, and `x.json` as an arena before gzip wrote them (whose pages embed it as JSON).
fn replays_of_page(page: &Path) -> Vec<PathBuf> {
    [page.with_extension("json.gz"), page.with_extension("json")].into_iter().filter(|p| p.is_file()).collect()
}

/// Where a page embeds its replay as JSON (as an arena before gzip wrote a league's pages, and
/// `arena view` writes a page): the script's start tag; the JSON, which holds no `<`, runs to
/// the next `</script>`.
const INLINE_REPLAY: &str = r#"<script type="application/json" id="replay">"#;

/// A replay page that embeds a replay as JSON (see [`INLINE_REPLAY`]) whose players are
/// `recorded`, with that JSON replaced by `new` (made safe for a script element); any other
/// page is as it is.
fn with_inline_replay(page: Vec<u8>, recorded: &[PlayerInfo], new: &[u8]) -> Vec<u8> {
    #[derive(serde::Deserialize)]
    struct Head {
        players: Vec<PlayerInfo>,
    }
    let Some(start) = find(&page, INLINE_REPLAY.as_bytes()).map(|at| at + INLINE_REPLAY.len()) else { return page };
    let Some(end) = find(&page[start..], b"</script>").map(|len| start + len) else { return page };
    // (Only the page of this replay: one of another match, or of another version of it, stays.)
    if serde_json::from_slice::<Head>(&page[start..end]).map_or(true, |h| h.players != recorded) {
        return page;
    }
    let Ok(text) = serde_json::from_slice::<serde_json::Value>(new).and_then(|v| crate::safe_text::json_in_html(&v))
    else {
        return page;
    };
    [&page[..start], text.as_bytes(), &page[end..]].concat()
}

/// A replay page with the replay it embeds (`old`, the file's bytes, in base64) replaced by
/// `new`; a page that does not embed `old` is as it is.
fn with_replay(page: Vec<u8>, old: &[u8], new: &[u8]) -> Vec<u8> {
    let engine = base64::engine::general_purpose::STANDARD;
    let (old, new) = (engine.encode(old), engine.encode(new));
    let Some(at) = find(&page, old.as_bytes()) else { return page };
    [&page[..at], new.as_bytes(), &page[at + old.len()..]].concat()
}

/// A new folder in `parent` for a publish to fill, readable by its owner only until it is
/// renamed into place (made readable then): what it holds meanwhile, and what a publish cut
/// short leaves there, includes files not yet rewritten (`results.jsonl` with the teacher's
/// paths), and `parent` may be a web server's folder.
fn private_staging(parent: &Path, prefix: &str) -> std::io::Result<tempfile::TempDir> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new().prefix(prefix).permissions(std::fs::Permissions::from_mode(0o700)).tempdir_in(parent)
}

/// The file a publish writes at its copy's top, listing every entry it wrote: a later publish
/// replaces a folder only where it holds nothing else (see [`foreign_in`]).
pub const MARKER: &str = ".arena-publish.json";

/// What [`MARKER`] holds.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Marker {
    /// `arena publish`: what wrote it.
    written_by: String,
    /// Every entry the publish wrote, by its path under the copy (`/`-separated, a folder's
    /// ending in `/`), sorted; the marker itself not.
    entries: Vec<String>,
}

/// What [`Marker::written_by`] says.
const WRITTEN_BY: &str = "arena publish";

/// Every entry under `root` as [`Marker::entries`] lists them; `Err` with the first that is
/// neither a file nor a folder (a link: a publish writes none).
fn entries_of(root: &Path) -> Result<Result<Vec<String>, String>, TournamentError> {
    let mut entries = Vec::new();
    for entry in walkdir::WalkDir::new(root).min_depth(1).follow_links(false).sort_by_file_name() {
        let entry = entry.map_err(|e| TournamentError::io(root, e.into()))?;
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let rel = rel.join("/");
        if entry.file_type().is_dir() {
            entries.push(format!("{rel}/"));
        } else if entry.file_type().is_file() {
            entries.push(rel);
        } else {
            return Ok(Err(rel));
        }
    }
    Ok(Ok(entries))
}

/// The entries an earlier publish into `out` wrote, as its [`MARKER`] lists them; `None` where
/// `out` has no marker (a regular file) that reads as one.
fn marked_entries(out: &Path) -> Option<Vec<String>> {
    let path = out.join(MARKER);
    if !path.symlink_metadata().is_ok_and(|m| m.is_file()) {
        return None;
    }
    let marker: Marker = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    (marker.written_by == WRITTEN_BY).then_some(marker.entries)
}

/// The first entry of the folder `out` (its path under it) that is not one of `allowed` (of its
/// kind, as [`entries_of`] lists them), if any; [`MARKER`] is always allowed. A publish replaces
/// `out` only where this finds none: what it deletes is only what a publish wrote (or, for an
/// earlier arena's publish without a marker, what this one writes anew).
fn foreign_in(out: &Path, allowed: &[String]) -> Result<Option<String>, TournamentError> {
    let allowed: std::collections::HashSet<&str> = allowed.iter().map(String::as_str).collect();
    Ok(match entries_of(out)? {
        Err(odd) => Some(odd),
        Ok(entries) => entries.into_iter().find(|e| e != MARKER && !allowed.contains(e.as_str())),
    })
}

/// What `out` holds before a publish into it.
#[derive(Debug, PartialEq, Eq)]
enum Before {
    /// Nothing: new, or an empty folder.
    Nothing,
    /// An earlier publish: its [`MARKER`]'s entries and nothing else.
    Publish,
    /// Only names a publish writes at its top (of their kinds) and no marker: an earlier arena's
    /// publish, if every entry is one this publish writes too (checked once it is staged).
    Unmarked,
    /// Anything else, with its first entry that no publish wrote.
    Foreign(String),
}

/// What `out` (no link) holds: see [`Before`].
fn before(out: &Path) -> Result<Before, TournamentError> {
    if out.symlink_metadata().is_err() {
        return Ok(Before::Nothing);
    }
    let mut top = std::fs::read_dir(out).map_err(|e| TournamentError::io(out, e))?.peekable();
    if top.peek().is_none() {
        return Ok(Before::Nothing);
    }
    if let Some(entries) = marked_entries(out) {
        return Ok(match foreign_in(out, &entries)? {
            None => Before::Publish,
            Some(entry) => Before::Foreign(entry),
        });
    }
    const FOLDERS: [&str; 5] = ["assets", "bots", "replays", "logs", "builds"];
    let mut first = None;
    for entry in top {
        let entry = entry.map_err(|e| TournamentError::io(out, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().map_err(|e| TournamentError::io(&entry.path(), e))?;
        let ours = if FOLDERS.contains(&name.as_str()) {
            kind.is_dir()
        } else {
            PUBLIC.contains(&name.as_str()) && kind.is_file()
        };
        if !ours {
            return Ok(Before::Foreign(name));
        }
        // (The first by name, as the error names it.)
        if first.as_ref().is_none_or(|f| name < *f) {
            first = Some(name);
        }
    }
    // (And the arena's own leaderboard, with its rule and run facts: a folder of the teacher's
    // holding only an `index.html` of theirs is no publish, and is not replaced.)
    let board = out.join("leaderboard.json");
    let arenas = board.symlink_metadata().is_ok_and(|m| m.is_file() && m.len() <= 64 << 20)
        && std::fs::read(&board)
            .ok()
            .and_then(|json| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&json).ok())
            .is_some_and(|board| board.contains_key("rule") && board.contains_key("facts"));
    Ok(if arenas { Before::Unmarked } else { Before::Foreign(first.unwrap_or_default()) })
}

/// The error for a folder that is not empty and no earlier publish.
fn refused(out: &Path, entry: &str) -> TournamentError {
    TournamentError::Invalid(format!(
        "{}: not empty: publish into a new or empty folder, or into an earlier publish (it holds {}, which no \
         publish wrote there)",
        out.display(),
        crate::safe_text::terminal(entry)
    ))
}

/// The error for an `out` that is a mount point, into which no rename brings a new copy.
fn mount_point(out: &Path) -> TournamentError {
    TournamentError::Invalid(format!(
        "{}: a mount point (a file system of its own): a publish is made beside it and renamed into its place, \
         which no rename can do there; publish into a folder inside it (such as {}) and serve that one",
        out.display(),
        out.join("site").display()
    ))
}

/// The error of a rename into `out` that failed with `e`: a mount point's where the kernel
/// refuses it as one (`EBUSY`, `EXDEV`: a bind mount the devices did not tell).
fn renamed_over(out: &Path, e: std::io::Error) -> TournamentError {
    if matches!(e.raw_os_error(), Some(libc::EBUSY | libc::EXDEV)) {
        mount_point(out)
    } else {
        TournamentError::io(out, e)
    }
}

/// Whether `out` (an existing folder) is on another file system than its parent (a mount point:
/// a volume, a disk). A bind mount of the same disk is not seen here; its rename fails later.
fn on_its_own_file_system(out: &Path, parent: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let device = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).ok();
    device(out).is_some() && device(out) != device(parent)
}

/// Swaps the folders `a` and `b` in one step (`renameat2` with `RENAME_EXCHANGE`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two NUL-terminated paths that live across the call.
    let done =
        unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Puts the complete copy `staged` in place of `out`, an earlier publish, and removes that: in
/// one step where the file system swaps folders ([`exchange`]), else (it refuses: `EINVAL`)
/// by two renames, the earlier copy first renamed aside into a staging folder of `prefix` in
/// `parent`. Cut short, `out` holds one copy whole (or, between the two renames, none), and a
/// staging folder the other, which the next publish into `out` removes. The earlier copy is
/// looked at once more, aside: holding more than `allowed` (a file the teacher added since it
/// was last looked at), it is put back and the new one removed (`recheck` false skips that:
/// the tests' control). `point` is where a kill could stop it (the tests').
fn replace(
    staged: &Path,
    out: &Path,
    (parent, prefix): (&Path, &str),
    (allowed, recheck): (&[String], bool),
    swap: bool,
    point: &dyn Fn() -> Result<(), TournamentError>,
) -> Result<(), TournamentError> {
    // What the earlier copy, aside at `old`, holds that it may not: then it goes back.
    let foreign = |old: &Path| if recheck { foreign_in(old, allowed) } else { Ok(None) };
    let added = |entry: &str| {
        TournamentError::Invalid(format!(
            "{}: {} was added to it while this publish ran (no publish wrote it): it is left as it was, with it; \
             move it out and publish again",
            out.display(),
            crate::safe_text::terminal(entry)
        ))
    };
    let unsupported =
        |e: &std::io::Error| matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP));
    let fail = |e: std::io::Error| {
        let _ = std::fs::remove_dir_all(staged);
        renamed_over(out, e)
    };
    let swapped = if swap { exchange(staged, out) } else { Err(std::io::Error::from_raw_os_error(libc::EINVAL)) };
    let old = match swapped {
        // (`staged` holds the earlier copy now.)
        Ok(()) => {
            if let Some(entry) = foreign(staged)? {
                if let Err(e) = exchange(staged, out) {
                    return Err(TournamentError::Invalid(format!(
                        "{}: {} was added to it while this publish ran, and its earlier copy, holding it, could \
                         not be put back ({e}): it is at {}; move it out before publishing again",
                        out.display(),
                        crate::safe_text::terminal(&entry),
                        staged.display()
                    )));
                }
                let _ = std::fs::remove_dir_all(staged);
                return Err(added(&entry));
            }
            staged.to_path_buf()
        }
        Err(e) if unsupported(&e) => {
            tracing::debug!(error = %e, "no swap of folders here: two renames");
            // (An empty folder of the staging's name, which a rename of a folder replaces.)
            let aside = match private_staging(parent, prefix) {
                Ok(aside) => aside.keep(),
                Err(e) => return Err(fail(e)),
            };
            if let Err(e) = std::fs::rename(out, &aside) {
                let _ = std::fs::remove_dir(&aside);
                return Err(fail(e));
            }
            if let Some(entry) = foreign(&aside)? {
                if let Err(e) = std::fs::rename(&aside, out) {
                    return Err(fail(e));
                }
                let _ = std::fs::remove_dir_all(staged);
                return Err(added(&entry));
            }
            point()?;
            if let Err(e) = std::fs::rename(staged, out) {
                let _ = std::fs::rename(&aside, out);
                return Err(fail(e));
            }
            aside
        }
        Err(e) => return Err(fail(e)),
    };
    let _ = crate::files::sync_dir(parent);
    point()?;
    std::fs::remove_dir_all(&old).map_err(|e| TournamentError::io(&old, e))
}

/// Copies the public part of the tournament folder `dir` into `out`, which must be new, empty
/// or an earlier publish (of any league: see [`before`]), and outside `dir`: into a temporary
/// folder beside `out`, renamed `out` once whole (swapped with an earlier publish, then removed:
/// [`replace`]), so that a publish cut short leaves `out` as it was or whole (and its temporary
/// folder goes with the next publish into `out`). The copy lists what it holds in [`MARKER`].
/// `out` a link publishes into the folder it leads to; `out` a mount point is refused (no
/// rename brings a copy into it). Links are not followed (what is not a
/// file or a folder stays), nor are the temporary files a crashed run may have left. Each
/// build log and match log becomes a note saying it is withheld, unless `shown` says otherwise.
///
/// The leaderboards are written afresh from the record and the results (as `arena
/// leaderboard` does, with the games of `games`; `reporter` writes the league's pages on them),
/// and `results.jsonl` with each map by its name: so no map is published by its path, even
/// from a folder an older arena wrote, whose replay pages' headers are named anew too. No
/// command or failure names the teacher's folders either ([`ShownPaths`]): the leaderboards
/// show them so, and a replay an older arena wrote is published with its bots' commands shown
/// so, in its file and in its page.
pub fn copy_public(
    dir: &Path,
    out: &Path,
    shown: LogsShown,
    games: &Registry,
    reporter: &dyn Reporter,
) -> Result<Published, TournamentError> {
    copy_public_with(dir, out, shown, games, reporter, &Steps::default())
}

/// [`copy_public`], stopped as soon as `stop` says so (the command's Ctrl-C, SIGTERM or SIGHUP)
/// while the copy is made, before it takes `out`'s place: the copy is removed, `out` is as it
/// was ([`TournamentError::Stopped`]). (Once the copy is whole, it takes `out`'s place: a
/// moment's renames.)
pub fn copy_public_until(
    dir: &Path,
    out: &Path,
    shown: LogsShown,
    games: &Registry,
    reporter: &dyn Reporter,
    stop: &dyn Fn() -> bool,
) -> Result<Published, TournamentError> {
    copy_public_with(dir, out, shown, games, reporter, &Steps { stop, ..Steps::default() })
}

/// How a publish goes, for the tests: [`copy_public`]'s is the default.
struct Steps<'a> {
    /// Asked at each point where a kill could stop it once the copy is whole (after the swap,
    /// between the two renames): it stops there when this says so.
    killed: &'a dyn Fn() -> bool,
    /// Asked before each file of the copy, and before it takes `out`'s place: it stops there,
    /// the copy removed, when this says so.
    stop: &'a dyn Fn() -> bool,
    /// Swaps an earlier publish with the copy in one step; false takes the two renames of a
    /// file system that swaps no folders.
    swap: bool,
    /// Holds the publish's lock for OUT ([`super::OutLock`]) from before OUT is looked at to
    /// its end.
    lock: bool,
    /// Looks at the earlier publish again once it is swapped out, before it is removed.
    recheck: bool,
    /// Called after OUT was last looked at, before the copy takes its place.
    before_swap: &'a dyn Fn(),
}

impl Default for Steps<'_> {
    fn default() -> Self {
        Steps { killed: &|| false, stop: &|| false, swap: true, lock: true, recheck: true, before_swap: &|| () }
    }
}

/// [`copy_public`], going as `steps` say.
fn copy_public_with(
    dir: &Path,
    out: &Path,
    shown: LogsShown,
    games: &Registry,
    reporter: &dyn Reporter,
    steps: &Steps,
) -> Result<Published, TournamentError> {
    let point =
        || if (steps.killed)() { Err(TournamentError::Invalid("publish: stopped (test)".to_string())) } else { Ok(()) };
    let invalid = |what: String| TournamentError::Invalid(what);
    // (The copy, a temporary folder, goes as the error returns.)
    let stopped = || {
        if !(steps.stop)() {
            return Ok(());
        }
        Err(TournamentError::Stopped(format!(
            "{}: the publish was stopped before it finished: the folder is as it was, the copy in the making removed",
            out.display()
        )))
    };
    // (Says what `arena leaderboard` says of a folder that is missing or holds no league.)
    let record = TournamentRecord::load_to_show(dir, games)?;
    let real = |p: &Path| std::fs::canonicalize(p).map_err(|e| TournamentError::io(p, e));
    let dir_real = real(dir)?;
    // (A link: the folder it leads to is replaced, the link stays, as a web server may serve it.)
    let linked = out.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
    let resolved = if linked { Some(real(out)?) } else { None };
    let out = resolved.as_deref().unwrap_or(out);
    let name = out.file_name().ok_or_else(|| invalid(format!("{}: not a folder's name", out.display())))?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    crate::files::make_folder(parent).map_err(|e| TournamentError::io(parent, e))?;
    // One publish into `out` at a time, from before it is looked at to the end: another, in
    // between, would be replaced by this one or make it fail. Not waited for: refused, naming
    // the other (a publish is run by hand or by a scheduled job, which runs again).
    let _publishing = if steps.lock { Some(super::OutLock::take(out, "publish", Duration::ZERO)?) } else { None };
    // Before anything is written in it: a folder of the teacher's is refused, untouched.
    let before = before(out)?;
    if let Before::Foreign(entry) = &before {
        return Err(refused(out, entry));
    }
    if on_its_own_file_system(out, parent) {
        return Err(mount_point(out));
    }
    if real(parent)?.join(name).starts_with(&dir_real) {
        return Err(invalid(format!(
            "{}: inside the tournament folder {}: publish elsewhere",
            out.display(),
            dir.display()
        )));
    }
    // Not while a run writes the folder (a results line half appended); a folder its user may
    // not write in (read-only, another user's) is locked to read, or published as it is where no
    // lock can be taken so (see `FolderLock::take_to_read`).
    let _alone = super::FolderLock::take_to_read(dir, Duration::ZERO)?;
    // The staging folder is named after `out`, so that what a publish cut short left (kill -9,
    // a full disk) goes with the next publish into the same `out`.
    let prefix = format!("{}publish-{}-", crate::files::TEMPORARY_PREFIX, name.to_string_lossy());
    for entry in std::fs::read_dir(parent).map_err(|e| TournamentError::io(parent, e))?.flatten() {
        // (Exactly the prefix and tempfile's six random characters: not `site-2`'s for `site`.)
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let rest = file_name.strip_prefix(&prefix).unwrap_or_default();
        let left = rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric());
        if left && entry.file_type().is_ok_and(|t| t.is_dir()) {
            tracing::info!(folder = %entry.path().display(), "removing what a publish cut short left");
            std::fs::remove_dir_all(entry.path()).map_err(|e| TournamentError::io(&entry.path(), e))?;
        }
    }
    let staging = private_staging(parent, &prefix).map_err(|e| TournamentError::io(parent, e))?;
    let all = results::read_all(dir)?;
    // Each map path a replay page an older arena wrote may name (its result's, or one of the
    // pool's for a page whose result is gone), with the header naming the map instead.
    let (public, names) = (record.public_lines(&all), record.map_names());
    let named = all.iter().zip(&public).map(|(line, shown)| (line.map.as_path(), shown.map.display().to_string()));
    let pool = record.boards.iter().map(|b| (Path::new(&b.path), names.name(Path::new(&b.path))));
    let mut headers: Vec<(String, String)> = Vec::new();
    for (path, name) in named.chain(pool) {
        let old = old_replay_header(&path.display().to_string());
        if !headers.iter().any(|(known, _)| *known == old) {
            headers.push((old, old_replay_header(&name)));
        }
    }
    let paths = record.shown_paths(dir);
    // The matches whose pages and replays are published: those its results hold.
    let keys: HashSet<&str> = all.iter().map(|line| line.key.as_str()).collect();
    // Each replay as published, once its page asked for it (`x.html` comes before `x.json.gz`
    // and `x.json`).
    let mut replays: HashMap<PathBuf, Option<ShownReplay>> = HashMap::new();
    let mut logs_withheld = 0;
    // What it leaves out below the top (a shard's folder made in `replays/`, a record or results
    // file put there), by its path in the folder.
    let mut left_inside: Vec<String> = Vec::new();
    for entry_name in PUBLIC {
        let from = dir.join(entry_name);
        let mut walk = walkdir::WalkDir::new(&from).follow_links(false).follow_root_links(false).sort_by_file_name();
        // (The arena writes no folder inside these: what is there is not of the league's pages.)
        if FLAT.contains(&entry_name) {
            walk = walk.max_depth(1);
        }
        for entry in walk {
            stopped()?;
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if e.io_error().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound) => continue,
                Err(e) => return Err(TournamentError::io(&from, e.into())),
            };
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            let to: PathBuf = staging.path().join(rel);
            let kind = entry.file_type();
            if (kind.is_dir() || kind.is_file())
                && entry.depth() > 0
                && !publishable(entry_name, entry.path(), kind.is_dir(), &keys)
            {
                let mut shown = rel.display().to_string();
                if kind.is_dir() {
                    shown.push('/');
                }
                left_inside.push(shown);
                continue;
            }
            if kind.is_dir() {
                std::fs::create_dir_all(&to).map_err(|e| TournamentError::io(&to, e))?;
            } else if kind.is_file() && !crate::files::is_temporary(entry.file_name()) {
                if entry_name == "builds" && !shown.builds {
                    let log = read_own(entry.path())?;
                    let first = paths.text(&super::build::first_error(&String::from_utf8_lossy(&log)));
                    std::fs::write(&to, withheld_log(&first)).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "logs" && !shown.matches {
                    std::fs::write(&to, WITHHELD_MATCH_LOG).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "replays" && entry.path().extension().is_some_and(|e| e == "html") {
                    let page = read_own(entry.path())?;
                    let mut page = public_replay_page(page, &headers);
                    for file in replays_of_page(entry.path()) {
                        if !replays.contains_key(&file) {
                            replays.insert(file.clone(), public_replay(&file, &paths)?);
                        }
                        if let Some(Some(new)) = replays.get(&file) {
                            let old = read_own(&file)?;
                            page = with_replay(page, &old, &new.file);
                            page = with_inline_replay(page, &new.recorded, &new.json);
                        }
                    }
                    std::fs::write(&to, page).map_err(|e| TournamentError::io(&to, e))?;
                } else if entry_name == "replays" && is_replay_file(&entry.file_name().to_string_lossy()) {
                    let shown_replay = match replays.remove(entry.path()) {
                        Some(known) => known,
                        None => public_replay(entry.path(), &paths)?,
                    };
                    match shown_replay {
                        Some(new) => std::fs::write(&to, new.file).map_err(|e| TournamentError::io(&to, e))?,
                        None => copy_own(entry.path(), &to)?,
                    }
                } else {
                    copy_own(entry.path(), &to)?;
                }
            }
        }
    }
    // The leaderboards and pages afresh, and the results with the maps' names.
    let leaderboard = record.leaderboard(&all, dir, games);
    super::write_leaderboard(staging.path(), &super::league_title(dir), &leaderboard, &all, reporter)?;
    let main = dir.join(RESULTS_FILE);
    if main.is_file() {
        let (lines, _) = results::read_file(&main)?;
        results::rewrite(&staging.path().join(RESULTS_FILE), &record.public_lines(&lines))?;
    }
    let files = walkdir::WalkDir::new(staging.path()).into_iter().flatten().filter(|e| e.file_type().is_file()).count();
    // The list of what it wrote, last: a later publish replaces only a folder holding no more.
    let entries = match entries_of(staging.path())? {
        Ok(entries) => entries,
        Err(odd) => return Err(invalid(format!("{}: not a file nor a folder in the copy", odd))),
    };
    let marker = Marker { written_by: WRITTEN_BY.to_string(), entries };
    let marker_file = staging.path().join(MARKER);
    let json = serde_json::to_vec(&marker).map_err(|e| invalid(format!("{}: {e}", marker_file.display())))?;
    std::fs::write(&marker_file, json).map_err(|e| TournamentError::io(&marker_file, e))?;
    // An earlier publish is replaced only if it holds nothing else now (looked at again: the
    // teacher may have added a file meanwhile); one without a marker (an earlier arena's), only
    // if it holds nothing this publish does not write anew.
    let allowed = match &before {
        Before::Publish => marked_entries(out).or_else(|| Some(marker.entries.clone())),
        Before::Unmarked => Some(marker.entries.clone()),
        Before::Nothing | Before::Foreign(_) => None,
    };
    if let Some(allowed) = &allowed {
        if let Some(entry) = foreign_in(out, allowed)? {
            return Err(refused(out, &entry));
        }
    }
    (steps.before_swap)();
    stopped()?;
    // (Readable by others, as the pages are; an earlier publish's folder's mode and group, which
    // the teacher may have set for the web server, are kept.)
    let staged = staging.keep();
    let (mode, group) = match std::fs::metadata(out) {
        Ok(m) if allowed.is_some() => {
            use std::os::unix::fs::MetadataExt;
            (m.mode() & 0o7777 | 0o700, Some(m.gid()))
        }
        _ => (0o755, None),
    };
    let _ = std::os::unix::fs::chown(&staged, None, group);
    let _ = std::fs::set_permissions(&staged, std::os::unix::fs::PermissionsExt::from_mode(mode));
    if let Some(allowed) = &allowed {
        replace(&staged, out, (parent, &prefix), (allowed, steps.recheck), steps.swap, &point)?;
    } else if let Err(e) = std::fs::rename(&staged, out) {
        // (A rename replaces an empty folder.)
        let _ = std::fs::remove_dir_all(&staged);
        return Err(renamed_over(out, e));
    }
    let mut left_out: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| TournamentError::io(dir, e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !PUBLIC.contains(&n.as_str()))
        .collect();
    left_out.sort();
    left_out.extend(left_inside);
    Ok(Published { files, left_out, logs_withheld })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Replay;

    /// A replay page an older arena wrote has its map's path in its header replaced by the
    /// map's name, and nothing else of it changed (not even the same text past the header);
    /// a page of this arena's stays as it is.
    #[test]
    fn an_old_replay_page_s_header_names_the_map() {
        let path = "/home/jdoe/courses/it's/arena1.txt";
        let headers = vec![(old_replay_header(path), old_replay_header("arena1.txt"))];
        let old = format!(
            "<html><header><h1>x</h1>{}seed 7</div></header><script>{}</script>",
            old_replay_header(path),
            old_replay_header(path)
        );
        let new = String::from_utf8(public_replay_page(old.clone().into_bytes(), &headers)).unwrap();
        assert_eq!(new, old.replacen(&old_replay_header(path), &old_replay_header("arena1.txt"), 1));
        let (header, rest) = new.split_at(new.find("</header>").unwrap());
        assert!(header.contains(r#"<div class="sub">arena1.txt · seed 7"#) && !header.contains("jdoe"), "{new}");
        assert!(rest.contains(&old_replay_header(path)), "past the header, nothing changes");
        assert!(old.contains("it&#39;s"), "the control: the path as the page escaped it");
        let current = new.clone().into_bytes();
        assert_eq!(public_replay_page(current.clone(), &headers), current);
    }

    /// A replay an older arena wrote, its commands made absolute, is published with them shown
    /// and nothing else of it changed, its page embedding the new file; a replay whose commands
    /// show as they are is copied as it is.
    #[test]
    fn an_old_replay_s_commands_are_shown_in_its_file_and_its_page() {
        let dir = tempfile::tempdir().unwrap();
        let shown = ShownPaths::new([Path::new("/home/jdoe/courses/2026")]);
        let player = |name: &str, command: &str| PlayerInfo { name: name.into(), command: command.into() };
        let players = vec![
            player("alice", "sh /home/jdoe/courses/2026/bots/alice/bot.sh"),
            player("bob", "/home/jdoe/bin/bob --fast"),
        ];
        let setup = serde_json::json!({ "map": "ARENA 1 1 1" });
        let mut replay =
            Replay::new("resource-rush", 7, setup, players, crate::engine::Limits::default(), serde_json::json!({}));
        replay.seat_seeds = vec![1, 2];
        let path = dir.path().join("m.json.gz");
        replay.save(&path).unwrap();
        let new = public_replay(&path, &shown).unwrap().expect("rewritten").file;
        let published = dir.path().join("p.json.gz");
        std::fs::write(&published, &new).unwrap();
        let mut expected = replay.clone();
        expected.players[0].command = "sh bots/alice/bot.sh".into();
        expected.players[1].command = "…/bob --fast".into();
        assert_eq!(Replay::load(&published).unwrap(), expected);
        assert!(public_replay(&published, &shown).unwrap().is_none(), "shown already: copied as it is");
        let old = std::fs::read(&path).unwrap();
        let engine = base64::engine::general_purpose::STANDARD;
        let page = format!("<header>h</header><script id=\"replay\">{}</script>", engine.encode(&old)).into_bytes();
        let page = String::from_utf8(with_replay(page, &old, &new)).unwrap();
        assert_eq!(page, format!("<header>h</header><script id=\"replay\">{}</script>", engine.encode(&new)));
        assert_eq!(with_replay(b"other".to_vec(), &old, &new), b"other", "a page of another replay");
        let plain = dir.path().join("m.json");
        replay.save(&plain).unwrap();
        let new = public_replay(&plain, &shown).unwrap().expect("a plain replay, rewritten");
        assert_eq!(serde_json::from_slice::<Replay>(&new.file).unwrap(), expected, "plain JSON stays plain");
        assert_eq!((new.json.as_slice(), new.recorded.as_slice()), (new.file.as_slice(), replay.players.as_slice()));
        // Its page, as an arena before gzip wrote it (and `arena view` does), embeds it as JSON:
        // that JSON becomes the published file's, safe in the script; a page of another stays.
        let inline = |r: &Replay| {
            let json = crate::safe_text::json_in_html(r).unwrap();
            format!("<header>h</header>{INLINE_REPLAY}{json}</script><script>viewer</script>").into_bytes()
        };
        let page = String::from_utf8(with_inline_replay(inline(&replay), &new.recorded, &new.json)).unwrap();
        let (head, rest) = page.split_once(INLINE_REPLAY).unwrap();
        let (json, tail) = rest.split_once("</script>").unwrap();
        assert_eq!((head, tail), ("<header>h</header>", "<script>viewer</script>"));
        assert_eq!(serde_json::from_str::<Replay>(json).unwrap(), expected);
        assert!(!page.contains("jdoe"), "{page}");
        let mut another = replay.clone();
        another.players[1].command = "/home/jdoe/bin/carol".into();
        assert_eq!(with_inline_replay(inline(&another), &new.recorded, &new.json), inline(&another));
        // Of another version (the review's: it was copied as it was, paths and all): rewritten
        // as JSON; one whose commands cannot be shown (cut after its players) is an error.
        let mut other: serde_json::Value = serde_json::from_slice(&serde_json::to_vec(&replay).unwrap()).unwrap();
        other["version"] = serde_json::json!(99);
        std::fs::write(&plain, serde_json::to_vec(&other).unwrap()).unwrap();
        let new = String::from_utf8(public_replay(&plain, &shown).unwrap().expect("rewritten").file).unwrap();
        assert!(new.contains("\"version\":99") && !new.contains("jdoe"), "{new}");
        let text = String::from_utf8(serde_json::to_vec(&replay).unwrap()).unwrap();
        let players = text.find("\"players\"").unwrap();
        let after = players + text[players..].find(']').unwrap() + 1;
        std::fs::write(&plain, &text[..after]).unwrap();
        let err = public_replay(&plain, &shown).unwrap_err().to_string();
        assert!(err.contains("m.json") && err.contains("cannot be published"), "{err}");
        std::fs::write(&path, b"not a replay").unwrap();
        assert!(public_replay(&path, &shown).unwrap().is_none(), "not a replay: copied as it is");
    }
    /// The version of `bot` in the leaderboard published in `out`.
    fn version(out: &Path, bot: &str) -> String {
        let board: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
        let rows = board["rows"].as_array().unwrap();
        rows.iter().find(|r| r["bot"] == bot).unwrap()["version"].as_str().unwrap_or("").to_string()
    }

    /// The staging folders beside `out` (what a publish into it left).
    fn staging_left(out: &Path) -> Vec<PathBuf> {
        let prefix = format!(".tmp-publish-{}-", out.file_name().unwrap().to_string_lossy());
        let entries = std::fs::read_dir(out.parent().unwrap()).unwrap().flatten();
        entries.map(|e| e.path()).filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix)).collect()
    }

    /// A course in `dir/course` with its league played in `dir/course/league`: (its config,
    /// the league).
    fn played_course(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
        use crate::tournament::config::TournamentConfig;
        use crate::tournament::tests::{course, league};
        let cfg = course(&dir.join("course"));
        let src = dir.join("course/league");
        league(TournamentConfig::load(&cfg).unwrap(), &src, false);
        (cfg, src)
    }

    /// Whether `out` holds a publish whole: its marker lists exactly what it holds.
    fn whole(out: &Path) -> bool {
        let listed = marked_entries(out).unwrap_or_default();
        let held = entries_of(out).unwrap().unwrap();
        !listed.is_empty() && held.iter().filter(|e| *e != MARKER).eq(listed.iter())
    }

    /// A publish stopped while it copies (the command's Ctrl-C, SIGTERM or SIGHUP) ends there,
    /// saying so: its copy in the making is removed, and OUT is as it was, whether it held an
    /// earlier publish or nothing. The controls: not stopped, the same publish completes; a
    /// publish killed instead (no handler, as `arena publish` had) leaves its copy in the
    /// making beside OUT until the next publish into it (made here as a kill leaves it).
    #[test]
    fn a_publish_stopped_while_it_copies_leaves_its_folder_as_it_was_and_no_copy() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (_, src) = played_course(dir.path());
        let out = dir.path().join("site");
        let games = crate::games::registry();
        // Stopped as it looks at its `n`th file to copy.
        let publish = |n: usize| {
            let files = std::cell::Cell::new(0);
            let stop = || {
                files.set(files.get() + 1);
                files.get() > n
            };
            let steps = Steps { stop: &stop, ..Steps::default() };
            copy_public_with(&src, &out, LogsShown::default(), &games, &Quiet, &steps)
        };
        for n in [0, 3] {
            let Err(e @ TournamentError::Stopped(_)) = publish(n) else { panic!("not stopped") };
            assert!(e.to_string().contains("the publish was stopped before it finished"), "{e}");
            assert!(!out.exists(), "OUT as it was: none");
            assert!(staging_left(&out).is_empty(), "the copy removed: {:?}", staging_left(&out));
        }
        publish(usize::MAX).unwrap();
        assert!(whole(&out), "the control: not stopped, it completes");
        let earlier = std::fs::read(out.join(MARKER)).unwrap();
        let Err(TournamentError::Stopped(_)) = publish(5) else { panic!("not stopped") };
        assert!(whole(&out) && std::fs::read(out.join(MARKER)).unwrap() == earlier, "the earlier publish stays");
        assert!(staging_left(&out).is_empty(), "{:?}", staging_left(&out));
        // The control: a process killed while it copies leaves its copy in the making (the stop
        // returns through the copy's removal; a kill never returns).
        let killed = Steps { stop: &|| true, ..Steps::default() };
        let staging = private_staging(dir.path(), ".tmp-publish-site-").unwrap();
        std::mem::forget(staging);
        assert_eq!(staging_left(&out).len(), 1, "left by a kill");
        let _ = copy_public_with(&src, &out, LogsShown::default(), &games, &Quiet, &killed);
        assert_eq!(staging_left(&out).len(), 0, "the next publish removes it");
    }

    /// A re-publish killed between the swap and the removal of the earlier copy leaves the new
    /// copy whole at OUT and the earlier one in a staging folder, which the next publish removes.
    /// The control: by two renames (a file system that swaps no folders), a kill between them
    /// leaves no OUT at all, the window the swap closes; the next publish makes it whole.
    #[test]
    fn a_republish_killed_after_the_swap_leaves_the_new_copy_whole() {
        use crate::tournament::config::TournamentConfig;
        use crate::tournament::tests::league;
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (cfg, src) = played_course(dir.path());
        let out = dir.path().join("site");
        let publish = |killed_at: Option<usize>, swap: bool| {
            let points = std::cell::Cell::new(0);
            let killed = || {
                points.set(points.get() + 1);
                killed_at.is_some_and(|n| points.get() > n)
            };
            let games = crate::games::registry();
            let steps = Steps { killed: &killed, swap, ..Steps::default() };
            copy_public_with(&src, &out, LogsShown::default(), &games, &Quiet, &steps)
        };
        publish(None, true).unwrap();
        assert!(whole(&out) && version(&out, "ann") == "v1" && staging_left(&out).is_empty());
        assert_eq!(before(&out).unwrap(), Before::Publish);
        // A new version of ann, played.
        let bot = dir.path().join("course/bots/ann/bot.sh");
        std::fs::write(&bot, format!("{}# v2\n", std::fs::read_to_string(&bot).unwrap())).unwrap();
        league(TournamentConfig::load(&cfg).unwrap(), &src, true);
        let err = publish(Some(0), true).unwrap_err().to_string();
        assert!(err.contains("stopped (test)"), "{err}");
        assert!(whole(&out) && version(&out, "ann") == "v2", "the new copy, whole");
        let left = staging_left(&out);
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(whole(&left[0]) && version(&left[0], "ann") == "v1", "the earlier copy, aside");
        publish(None, true).unwrap();
        assert!(whole(&out) && version(&out, "ann") == "v2" && staging_left(&out).is_empty());

        // The control: two renames, killed between them.
        let err = publish(Some(0), false).unwrap_err().to_string();
        assert!(err.contains("stopped (test)"), "{err}");
        assert!(!out.exists(), "no OUT between the two renames");
        assert_eq!(staging_left(&out).len(), 2, "the earlier copy and the new one, beside it");
        publish(None, false).unwrap();
        assert!(whole(&out) && version(&out, "ann") == "v2" && staging_left(&out).is_empty());
    }

    /// A folder that is missing, or holds no league, is told as `arena leaderboard` tells it (a
    /// missing folder was "not a tournament folder (no tournament.json)"), and nothing is made.
    /// The control: the league's own folder publishes.
    #[test]
    fn a_missing_or_empty_league_folder_is_told_so() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let games = crate::games::registry();
        let out = dir.path().join("site");
        let publish = |src: &Path| copy_public(src, &out, LogsShown::default(), &games, &Quiet);
        let missing = dir.path().join("leauge");
        let err = publish(&missing).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}: no such folder: give a league's folder", missing.display())), "{err}");
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let err = publish(&empty).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}: no tournament.json: not a tournament folder", empty.display())), "{err}");
        // A file given for the folder (it said "FILE/tournament.json: Not a directory").
        let file = dir.path().join("results.jsonl");
        std::fs::write(&file, "").unwrap();
        let err = publish(&file).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}: not a folder: give a league's folder", file.display())), "{err}");
        assert!(!out.exists(), "nothing is made");
        // The control.
        let (_, src) = played_course(dir.path());
        publish(&src).unwrap();
        assert!(whole(&out));
    }

    /// A destination under a file (`afile/sub`, `afile/sub/deeper`) is refused, saying that
    /// part of its path is a file, not a folder, naming it (it said "afile: File exists"). The
    /// control: under a folder, the same destination is published.
    #[test]
    fn a_destination_under_a_file_names_the_file() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (_, src) = played_course(dir.path());
        let games = crate::games::registry();
        let publish = |out: &Path| copy_public(&src, out, LogsShown::default(), &games, &Quiet);
        let afile = dir.path().join("afile");
        std::fs::write(&afile, "").unwrap();
        let err = publish(&afile.join("sub")).unwrap_err().to_string();
        assert_eq!(err, format!("{}: not a folder: move it away, the arena keeps a folder there", afile.display()));
        let err = publish(&afile.join("sub/deeper")).unwrap_err().to_string();
        assert!(
            err.ends_with(&format!(
                "{} is not a folder (a file is in its place), so nothing can be made in it",
                afile.display()
            )),
            "{err}"
        );
        assert!(std::fs::metadata(&afile).unwrap().is_file(), "the file is left as it was");
        // The control.
        let adir = dir.path().join("adir");
        std::fs::create_dir(&adir).unwrap();
        publish(&adir.join("sub/deeper")).unwrap();
        assert!(whole(&adir.join("sub/deeper")));
    }

    /// Two publishes into one OUT at once: the second, started while the first is between its
    /// last look at OUT and its swap, is refused, naming the first's pid, and writes nothing;
    /// the first completes. The control: without the lock, the second removed the first's copy
    /// (for what a publish cut short left), and the first failed.
    #[test]
    fn two_publishes_into_one_out_exclude_each_other() {
        use crate::tournament::config::TournamentConfig;
        use crate::tournament::tests::league;
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (cfg, src) = played_course(dir.path());
        let other = dir.path().join("course/other");
        league(TournamentConfig::load(&cfg).unwrap(), &other, false);
        let out = dir.path().join("site");
        let games = crate::games::registry();
        let publish =
            |from: &Path, steps: &Steps| copy_public_with(from, &out, LogsShown::default(), &games, &Quiet, steps);
        // Whose copy OUT holds (the leaderboard's title names its league's folder).
        let whose = || {
            let page = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
            if page.lines().next().is_some_and(|title| title.ends_with(" other")) {
                "other"
            } else {
                "league"
            }
        };
        publish(&src, &Steps::default()).unwrap();
        // The second, run while the first is about to swap.
        let second = std::cell::RefCell::new(None);
        let run_second = |lock: bool| {
            let steps = Steps { lock, ..Steps::default() };
            *second.borrow_mut() = Some(publish(&other, &steps).map(|_| ()).map_err(|e| e.to_string()));
        };
        let steps = Steps { before_swap: &|| run_second(true), ..Steps::default() };
        publish(&src, &steps).unwrap();
        let err = second.take().expect("run").unwrap_err();
        let pid = format!("another arena publish into it is under way ({})", super::super::signature().trim());
        assert!(err.contains(&pid), "{err}");
        assert!(whole(&out) && whose() == "league" && staging_left(&out).is_empty());
        assert!(!dir.path().join(".site.arena-publish.lock").exists(), "removed as released");
        // The control: no lock. The second took the first's copy, whole, for one a publish cut
        // short left and removed it: the first failed.
        let steps = Steps { lock: false, before_swap: &|| run_second(false), ..Steps::default() };
        let err = publish(&src, &steps).unwrap_err().to_string();
        assert!(err.contains("No such file"), "{err}");
        assert_eq!(second.take().expect("run"), Ok(()), "the second published");
        assert!(whole(&out) && whose() == "other");
    }

    /// A file the teacher adds into an earlier publish after the publish last looked at it,
    /// before the swap, is not lost: the earlier copy, looked at again once aside, goes back,
    /// with it, and the publish fails saying so (with the swap, and with two renames). The
    /// control: not looked at again, the earlier copy was removed, the file with it.
    #[test]
    fn a_file_added_before_the_swap_is_kept() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (_, src) = played_course(dir.path());
        let out = dir.path().join("site");
        let games = crate::games::registry();
        let publish = |steps: &Steps| copy_public_with(&src, &out, LogsShown::default(), &games, &Quiet, steps);
        publish(&Steps::default()).unwrap();
        let notes = out.join("replays/notes.txt");
        let add = || std::fs::write(&notes, "mine").unwrap();
        for swap in [true, false] {
            let err = publish(&Steps { swap, before_swap: &add, ..Steps::default() }).unwrap_err().to_string();
            assert!(err.contains("replays/notes.txt was added to it while this publish ran"), "{err}");
            assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine", "swap: {swap}");
            assert_eq!(before(&out).unwrap(), Before::Foreign("replays/notes.txt".into()), "the earlier copy");
            assert!(staging_left(&out).is_empty(), "{:?}", staging_left(&out));
            std::fs::remove_file(&notes).unwrap();
            assert!(whole(&out), "swap: {swap}");
        }
        // The control: not looked at again.
        publish(&Steps { recheck: false, before_swap: &add, ..Steps::default() }).unwrap();
        assert!(!notes.exists() && whole(&out), "lost with the earlier copy");
    }

    /// Only a folder holding nothing but what its marker lists is an earlier publish: a file
    /// more, a marker of another kind or a link make it foreign; a folder without a marker is
    /// an earlier arena's publish only with no name at its top that a publish does not write.
    /// The control: what a marker lists is a publish's.
    #[test]
    fn only_what_a_marker_lists_is_a_publish() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        assert_eq!(before(&out).unwrap(), Before::Nothing);
        std::fs::create_dir_all(out.join("replays")).unwrap();
        std::fs::write(out.join("index.html"), "x").unwrap();
        // A teacher's own page, named as a publish's, without the arena's leaderboard: foreign.
        assert_eq!(before(&out).unwrap(), Before::Foreign("index.html".into()), "no leaderboard");
        std::fs::write(out.join("leaderboard.json"), r#"{"mine": 1}"#).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign("index.html".into()), "another tool's");
        std::fs::write(out.join("leaderboard.json"), r#"{"rule": "", "facts": {}}"#).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Unmarked, "a publish's names and leaderboard");
        std::fs::write(out.join("replays/a.html"), "x").unwrap();
        assert_eq!(before(&out).unwrap(), Before::Unmarked);
        std::fs::remove_file(out.join("leaderboard.json")).unwrap();
        let marker = |entries: &[&str]| {
            let entries = entries.iter().map(|e| e.to_string()).collect();
            serde_json::to_vec(&Marker { written_by: WRITTEN_BY.to_string(), entries }).unwrap()
        };
        std::fs::write(out.join(MARKER), marker(&["index.html", "replays/", "replays/a.html"])).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Publish, "the control");
        std::fs::write(out.join("replays/notes.txt"), "mine").unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign("replays/notes.txt".into()));
        std::fs::remove_file(out.join("replays/notes.txt")).unwrap();
        std::os::unix::fs::symlink("/", out.join("replays/b.html")).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign("replays/b.html".into()), "a link");
        std::fs::remove_file(out.join("replays/b.html")).unwrap();
        // A folder where a file was listed; a marker another tool wrote.
        std::fs::write(out.join(MARKER), marker(&["index.html", "replays", "replays/a.html"])).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign("replays/".into()));
        std::fs::write(out.join(MARKER), br#"{"entries": ["index.html", "replays/", "replays/a.html"]}"#).unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign(MARKER.into()), "no marker: a foreign name");
        std::fs::remove_file(out.join(MARKER)).unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        assert_eq!(before(&out).unwrap(), Before::Foreign("notes.txt".into()));
    }

    /// A folder on another file system than its parent (a mount point: `/proc` is one on every
    /// Linux machine) is seen as one; the control: a folder on its parent's is not.
    #[test]
    fn a_mount_point_is_seen() {
        assert!(on_its_own_file_system(Path::new("/proc"), Path::new("/")));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        assert!(!on_its_own_file_system(&dir.path().join("out"), dir.path()));
    }

    /// The staging folder is its owner's alone until it is renamed into place (the control: a
    /// temporary folder made the usual way is readable by others, under the umask these tests
    /// run with, read from /proc rather than set: it is the whole process's).
    #[test]
    fn a_publish_stages_in_a_folder_only_its_owner_can_read() {
        use std::os::unix::fs::PermissionsExt;
        let parent = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let staging = private_staging(parent.path(), ".tmp-publish-x-").unwrap();
        assert_eq!(mode(staging.path()), 0o700);
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let umask = status.lines().find_map(|l| l.strip_prefix("Umask:")).map(|m| u32::from_str_radix(m.trim(), 8));
        if let Some(Ok(umask)) = umask.filter(|m| m.as_ref().is_ok_and(|m| m & 0o044 == 0)) {
            let usual = tempfile::Builder::new().prefix("usual").tempdir_in(parent.path()).unwrap();
            assert_eq!(mode(usual.path()) & 0o044, 0o044, "the control, under umask {umask:o}");
        }
    }

    /// A publish reads no file through a link and waits on no FIFO: a page whose replay beside
    /// it is a FIFO (opened to read its players, it hung the publish) or a link to a secret file
    /// is published without it, and the link's target is nowhere in the site. The controls: the
    /// FIFO is one, the link reads the secret, and an honest replay is published.
    #[test]
    fn a_publish_reads_no_link_and_waits_on_no_fifo() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (_, src) = played_course(dir.path());
        let mut replays: Vec<PathBuf> = std::fs::read_dir(src.join("replays"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
            .collect();
        replays.sort();
        let secret = dir.path().join("shadow");
        std::fs::write(&secret, "root:SECRET-HASH").unwrap();
        std::fs::remove_file(&replays[0]).unwrap();
        crate::files::tests::make_fifo(&replays[0], 0o600);
        std::fs::remove_file(&replays[1]).unwrap();
        std::os::unix::fs::symlink(&secret, &replays[1]).unwrap();
        for replay in &replays[..3] {
            std::fs::write(crate::replay::page_file(replay), "<p>a page</p>").unwrap();
        }
        let out = dir.path().join("site");
        let (sent, got) = std::sync::mpsc::channel();
        let (from, to) = (src.clone(), out.clone());
        std::thread::spawn(move || {
            let games = crate::games::registry();
            let _ = sent.send(copy_public(&from, &to, LogsShown::default(), &games, &Quiet).map_err(|e| e.to_string()));
        });
        got.recv_timeout(Duration::from_secs(120)).expect("no hang").unwrap();
        let name = |p: &Path| p.file_name().unwrap().to_owned();
        assert!(!out.join("replays").join(name(&replays[0])).exists());
        assert!(!out.join("replays").join(name(&replays[1])).exists());
        assert!(out.join("replays").join(name(&replays[2])).is_file(), "the control: an honest replay");
        for entry in walkdir::WalkDir::new(&out).into_iter().flatten().filter(|e| e.file_type().is_file()) {
            let text = std::fs::read(entry.path()).unwrap();
            assert!(!String::from_utf8_lossy(&text).contains("SECRET-HASH"), "{}", entry.path().display());
        }
        // The controls: the planted files are live.
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&replays[0]).unwrap().file_type().is_fifo());
        assert_eq!(std::fs::read_to_string(&replays[1]).unwrap(), "root:SECRET-HASH");
    }

    /// In `replays/`, only the pages and replays of the matches the folder's results hold are
    /// published: a page or replay of no match (`evil.html`, a script a shard's folder had a merge
    /// write there) stays out, named. The controls: the pages and replays of its matches are
    /// published, and a page of the name of a match its results held would be.
    #[test]
    fn only_the_pages_and_replays_of_its_matches_are_published() {
        use crate::tournament::Quiet;
        let dir = tempfile::tempdir().unwrap();
        let (_, src) = played_course(dir.path());
        let lines = results::read_all(&src).unwrap();
        std::fs::write(src.join("replays/evil.html"), "<script>alert(1)</script>").unwrap();
        std::fs::write(src.join(crate::replay::page_path(&lines[0].replay)), "<p>a page</p>").unwrap();
        std::fs::copy(src.join(&lines[0].replay), src.join("replays/evil.json.gz")).unwrap();
        let out = dir.path().join("site");
        let published = copy_public(&src, &out, LogsShown::default(), &crate::games::registry(), &Quiet).unwrap();
        assert!(!out.join("replays/evil.html").exists());
        assert!(!out.join("replays/evil.json.gz").exists());
        assert!(published.left_out.iter().any(|l| l == "replays/evil.html"), "{:?}", published.left_out);
        for line in &lines {
            assert!(out.join(&line.replay).is_file(), "the control: {}", line.replay);
            let page = crate::replay::page_path(&line.replay);
            assert_eq!(out.join(&page).is_file(), src.join(&page).is_file(), "the control: {}", line.key);
        }
        assert!(out.join(crate::replay::page_path(&lines[0].replay)).is_file(), "the control: a match's page");
        let keys: HashSet<&str> = HashSet::from(["evil"]);
        assert!(publishable("replays", &src.join("replays/evil.html"), false, &keys), "the control: a match's page");
    }
}
