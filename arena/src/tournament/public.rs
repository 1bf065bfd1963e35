//! The part of a tournament folder that may be published (a course's web pages, GitHub Pages):
//! the pages, replays, leaderboards, results and logs. Not `tournament.json` (the league's
//! secret, which keys the bots' seeds, and the bots' commands and folders), nor `versions/`
//! (a copy of every student's code), nor the folder's lock; the build and match logs only on
//! request (a compiler's messages and a crash's traceback quote the student's source lines).
//! No map is published by its path (the teacher's folders, see [`crate::standings::maps`]).

use std::path::{Path, PathBuf};

use super::results::{self, RESULTS_FILE};
use super::{Reporter, TournamentError, TournamentRecord};
use crate::engine::Registry;
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
/// from a folder an older arena wrote, whose replay pages' headers are named anew too.
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
                    let first = super::build::first_error(&String::from_utf8_lossy(&log));
                    std::fs::write(&to, withheld_log(&first)).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "logs" && !shown.matches {
                    std::fs::write(&to, WITHHELD_MATCH_LOG).map_err(|e| TournamentError::io(&to, e))?;
                    logs_withheld += 1;
                } else if entry_name == "replays" && entry.path().extension().is_some_and(|e| e == "html") {
                    let page = std::fs::read(entry.path()).map_err(|e| TournamentError::io(entry.path(), e))?;
                    std::fs::write(&to, public_replay_page(page, &headers)).map_err(|e| TournamentError::io(&to, e))?;
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
}
