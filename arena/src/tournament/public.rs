//! The part of a tournament folder that may be published (a course's web pages, GitHub Pages):
//! the pages, replays, leaderboards, results and logs. Not `tournament.json` (the league's
//! secret, which keys the bots' seeds, and the bots' commands and folders), nor `versions/`
//! (a copy of every student's code), nor the folder's lock; the build and match logs only on
//! request (a compiler's messages and a crash's traceback quote the student's source lines).
//! No map is published by its path (the teacher's folders, see [`crate::standings::maps`]), nor
//! a bot's command or a failure naming the teacher's folders (see [`super::shown`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;

use super::results::{self, RESULTS_FILE};
use super::shown::ShownPaths;
use super::{Reporter, TournamentError, TournamentRecord};
use crate::engine::Registry;
use crate::replay::{PlayerInfo, Replay};
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

/// What [`copy_public`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// Files published.
    pub files: usize,
    /// What it left out, by name at the folder's top.
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
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    // (Only the header is searched: the replay's own bytes follow it.)
    let end = find(&page, b"</header>").unwrap_or(0);
    for (old, new) in headers {
        if let Some(at) = find(&page[..end], old.as_bytes()) {
            let mut fixed = Vec::with_capacity(page.len());
            fixed.extend_from_slice(&page[..at]);
            fixed.extend_from_slice(new.as_bytes());
            fixed.extend_from_slice(&page[at + old.len()..]);
            return fixed;
        }
    }
    page
}

/// A replay file as published: each bot's command as `shown` shows it (an older arena recorded
/// it made absolute, `sh /home/jdoe/…/bot.sh`), or `None` when it shows as it is, or is no
/// replay this arena reads (copied as it is then). Only the commands change: `arena verify`
/// re-simulates from the rest, and the result names the bots by their names.
fn public_replay(path: &Path, shown: &ShownPaths) -> Option<Vec<u8>> {
    // (Most replays show as they are: only their start is read to tell.)
    let players = recorded_players(path)?;
    if players.iter().all(|p| shown.command(&p.command) == p.command) {
        return None;
    }
    let json = crate::replay::read_json(path).ok()?;
    let mut replay: Replay = serde_json::from_slice(&json).ok()?;
    if replay.format != crate::replay::FORMAT || replay.version != crate::replay::VERSION {
        return None;
    }
    for player in &mut replay.players {
        player.command = shown.command(&player.command);
    }
    replay.file_bytes(path.extension().is_some_and(|e| e == "gz")).ok()
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
    let mut file = BufReader::new(std::fs::File::open(path).ok()?);
    let gzipped = file.fill_buf().ok()?.starts_with(&[0x1f, 0x8b]);
    let text: Box<dyn Read> =
        if gzipped { Box::new(flate2::bufread::MultiGzDecoder::new(file)) } else { Box::new(file) };
    let mut json = serde_json::Deserializer::from_reader(BufReader::new(text.take(crate::replay::MAX_REPLAY_BYTES)));
    let mut players = None;
    let _ = json.deserialize_map(Players(&mut players));
    players
}

/// Whether a file of `replays/` named `name` is a replay: `<key>.json.gz`, or `<key>.json` as
/// an arena before gzip wrote them (its bots' commands made absolute too).
fn is_replay_file(name: &str) -> bool {
    name.ends_with(".json.gz") || name.ends_with(".json")
}

/// A replay page with the replay it embeds (`old`, the file's bytes, in base64) replaced by
/// `new`; a page that does not embed `old` is as it is.
fn with_replay(page: Vec<u8>, old: &[u8], new: &[u8]) -> Vec<u8> {
    let engine = base64::engine::general_purpose::STANDARD;
    let (old, new) = (engine.encode(old), engine.encode(new));
    let Some(at) = page.windows(old.len()).position(|w| w == old.as_bytes()) else { return page };
    [&page[..at], new.as_bytes(), &page[at + old.len()..]].concat()
}

/// Copies the public part of the tournament folder `dir` into `out`, which must be new or
/// empty and outside `dir`: into a temporary folder beside `out`, renamed `out` once whole, so
/// that a publish cut short leaves nothing under `out` (and its temporary folder goes with the
/// next publish into `out`). Links are not followed (what is not a
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
    let invalid = |what: String| TournamentError::Invalid(what);
    if !dir.join(super::TOURNAMENT_FILE).is_file() {
        return Err(invalid(format!("{}: not a tournament folder (no {})", dir.display(), super::TOURNAMENT_FILE)));
    }
    let record = TournamentRecord::load(dir)?;
    let real = |p: &Path| std::fs::canonicalize(p).map_err(|e| TournamentError::io(p, e));
    let dir_real = real(dir)?;
    if out.exists() {
        let mut entries = std::fs::read_dir(out).map_err(|e| TournamentError::io(out, e))?;
        if entries.next().is_some() {
            return Err(invalid(format!("{}: not empty: publish into a new or empty folder", out.display())));
        }
    }
    let name = out.file_name().ok_or_else(|| invalid(format!("{}: not a folder's name", out.display())))?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(|e| TournamentError::io(parent, e))?;
    if real(parent)?.join(name).starts_with(&dir_real) {
        return Err(invalid(format!(
            "{}: inside the tournament folder {}: publish elsewhere",
            out.display(),
            dir.display()
        )));
    }
    // Not while a run writes the folder (a results line half appended).
    let _alone = super::FolderLock::take(dir, None)?;
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
    let staging =
        tempfile::Builder::new().prefix(&prefix).tempdir_in(parent).map_err(|e| TournamentError::io(parent, e))?;
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
    // Each replay as published, once its page asked for it (`x.html` comes before `x.json.gz`).
    let mut replays: HashMap<PathBuf, Option<Vec<u8>>> = HashMap::new();
    let mut logs_withheld = 0;
    for entry_name in PUBLIC {
        let from = dir.join(entry_name);
        for entry in walkdir::WalkDir::new(&from).follow_links(false).follow_root_links(false).sort_by_file_name() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if e.io_error().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound) => continue,
                Err(e) => return Err(TournamentError::io(&from, e.into())),
            };
            let to: PathBuf = staging.path().join(entry.path().strip_prefix(dir).unwrap_or(entry.path()));
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).map_err(|e| TournamentError::io(&to, e))?;
            } else if entry.file_type().is_file() && !crate::files::is_temporary(entry.file_name()) {
                if entry_name == "builds" && !shown.builds {
                    let log = std::fs::read(entry.path()).map_err(|e| TournamentError::io(entry.path(), e))?;
                    let first = paths.text(&super::build::first_error(&String::from_utf8_lossy(&log)));
                    std::fs::write(&to, withheld_log(&first)).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "logs" && !shown.matches {
                    std::fs::write(&to, WITHHELD_MATCH_LOG).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "replays" && entry.path().extension().is_some_and(|e| e == "html") {
                    let page = std::fs::read(entry.path()).map_err(|e| TournamentError::io(entry.path(), e))?;
                    let mut page = public_replay_page(page, &headers);
                    let file = entry.path().with_extension("json.gz");
                    if let Some(new) = replays.entry(file.clone()).or_insert_with(|| public_replay(&file, &paths)) {
                        let old = std::fs::read(&file).map_err(|e| TournamentError::io(&file, e))?;
                        page = with_replay(page, &old, new);
                    }
                    std::fs::write(&to, page).map_err(|e| TournamentError::io(&to, e))?;
                } else if entry_name == "replays" && is_replay_file(&entry.file_name().to_string_lossy()) {
                    match replays.remove(entry.path()).unwrap_or_else(|| public_replay(entry.path(), &paths)) {
                        Some(new) => std::fs::write(&to, new).map_err(|e| TournamentError::io(&to, e))?,
                        None => {
                            std::fs::copy(entry.path(), &to).map_err(|e| TournamentError::io(entry.path(), e))?;
                        }
                    }
                } else {
                    std::fs::copy(entry.path(), &to).map_err(|e| TournamentError::io(entry.path(), e))?;
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
    // (Readable by others, as the pages are; a rename may replace an empty folder.)
    let staged = staging.keep();
    let _ = std::fs::set_permissions(&staged, std::os::unix::fs::PermissionsExt::from_mode(0o755));
    if let Err(e) = std::fs::rename(&staged, out) {
        let _ = std::fs::remove_dir_all(&staged);
        return Err(TournamentError::io(out, e));
    }
    let mut left_out: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| TournamentError::io(dir, e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !PUBLIC.contains(&n.as_str()))
        .collect();
    left_out.sort();
    Ok(Published { files, left_out, logs_withheld })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let new = public_replay(&path, &shown).expect("rewritten");
        let published = dir.path().join("p.json.gz");
        std::fs::write(&published, &new).unwrap();
        let mut expected = replay.clone();
        expected.players[0].command = "sh bots/alice/bot.sh".into();
        expected.players[1].command = "…/bob --fast".into();
        assert_eq!(Replay::load(&published).unwrap(), expected);
        assert_eq!(public_replay(&published, &shown), None, "shown already: copied as it is");
        let old = std::fs::read(&path).unwrap();
        let engine = base64::engine::general_purpose::STANDARD;
        let page = format!("<header>h</header><script id=\"replay\">{}</script>", engine.encode(&old)).into_bytes();
        let page = String::from_utf8(with_replay(page, &old, &new)).unwrap();
        assert_eq!(page, format!("<header>h</header><script id=\"replay\">{}</script>", engine.encode(&new)));
        assert_eq!(with_replay(b"other".to_vec(), &old, &new), b"other", "a page of another replay");
        let plain = dir.path().join("m.json");
        replay.save(&plain).unwrap();
        let new = public_replay(&plain, &shown).expect("a plain replay, rewritten");
        assert_eq!(serde_json::from_slice::<Replay>(&new).unwrap(), expected, "plain JSON stays plain");
        std::fs::write(&path, b"not a replay").unwrap();
        assert_eq!(public_replay(&path, &shown), None, "not a replay: copied as it is");
    }
}
