//! A bot's submission as a whole: its folder (its configured working directory, or the folder
//! of the script an interpreter runs), narrowed by declared `files` globs and `ignore` globs,
//! and the fingerprint that covers all of it, build outputs left out, so that any change to
//! any of its files makes a new version.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::config::BotEntry;
use super::TournamentError;

/// What a submission leaves out unless told otherwise: version control, caches, Rust's and
/// Python's build folders.
pub const DEFAULT_IGNORE: [&str; 6] = [".git", ".hg", "__pycache__", "*.pyc", "target", "node_modules"];

/// The largest file a fingerprint reads; a bot naming a bigger one cannot play.
pub const MAX_FINGERPRINTED_BYTES: u64 = 512 << 20;

/// The most bytes (files' sizes together) one read of a bot's folder hashes of its own files, and
/// of them and its build's outputs together: each file may be as large as
/// [`MAX_FINGERPRINTED_BYTES`], and a build's sparse files take no disk (nor any of its
/// `build_disk_mb`), so 8 outputs of 512 MiB in 48 KiB of disk took a 2-match league from 0.5 s
/// to 69 s, and 20,000 of them would have held each of that bot's matches for hours, checked
/// before and after each (it has no copy, see [`MAX_SNAPSHOT_BYTES`]).
pub const MAX_FOLDER_BYTES: u64 = 1 << 30;

#[cfg(test)]
thread_local! {
    /// [`MAX_FOLDER_BYTES`] on this thread (a test's smaller folder, or its control's none).
    pub(super) static FOLDER_BYTES: std::cell::Cell<u64> = const { std::cell::Cell::new(MAX_FOLDER_BYTES) };
}

/// [`MAX_FOLDER_BYTES`] (a test's own on its thread).
fn max_folder_bytes() -> u64 {
    #[cfg(test)]
    return FOLDER_BYTES.get();
    #[cfg(not(test))]
    MAX_FOLDER_BYTES
}

/// The most files a kept copy of one bot version may hold (its files and its build's outputs):
/// a build may make 200,000 empty files a run, which take no disk, and each version's copy took
/// them all (an inode each).
pub const MAX_COPY_FILES: usize = 2 * MAX_FILES;

#[cfg(test)]
thread_local! {
    /// [`MAX_COPY_FILES`] on this thread (a test's smaller copy, or its control's none).
    pub(super) static COPY_FILES: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_COPY_FILES) };
}

/// [`MAX_COPY_FILES`] (a test's own on its thread).
fn max_copy_files() -> usize {
    #[cfg(test)]
    return COPY_FILES.get();
    #[cfg(not(test))]
    MAX_COPY_FILES
}

/// The most files a submission may have (declare `files` or `ignore` for bigger folders): its
/// folder's files and links that its fingerprint covers (not ignored, in its `files`), its
/// build's outputs not counted. What its build wrote is read too (its program, as built) only
/// while the files in all are no more (see [`Reading::whole`]).
pub const MAX_FILES: usize = 20_000;

/// The folder that holds `bot`'s submission: its working directory, else (for a script run by
/// an interpreter) the script's folder, else none (the files its command names are all).
pub fn folder(bot: &BotEntry) -> Option<PathBuf> {
    if let Some(dir) = &bot.cwd {
        return Some(dir.clone());
    }
    let words = shell_words::split(&bot.command).ok()?;
    let (program, args) = words.split_first()?;
    let name = Path::new(program).file_name()?.to_str()?;
    if !crate::sandbox::is_interpreter(name) {
        return None;
    }
    args.iter().filter(|w| !w.starts_with('-')).map(Path::new).find(|p| p.is_file()).and_then(|p| p.parent()).map(|p| {
        if p.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            p.to_path_buf()
        }
    })
}

/// A bot's files reached through a symbolic link where its students may have made one: the bot
/// is refused (it is neither built nor played). A student's repository is theirs to fill, and
/// git keeps links: with `cwd = "subs/alice/rr-bot"` and `rr-bot` pushed as a link to
/// `../../bob/rr-bot`, the box would bind (and a build write, as the folder's owner) Bob's
/// folder, and Alice's matches would run Bob's program. See [`links`] for the paths checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct Linked {
    /// The path is the bot's folder (`cwd`), not a file its command names.
    pub folder: bool,
    /// The path, absolute, as the config gives it.
    pub path: PathBuf,
    /// The link on the way: `path` itself or a folder above it.
    pub link: PathBuf,
    /// What the link holds, as written in it.
    pub target: PathBuf,
}

impl Linked {
    /// The failure's text: the path, the link and its target, the rule and the fix.
    fn message(&self) -> String {
        let (what, rule, fix) = if self.folder {
            ("its folder", "a bot's folder", "name the folder itself (its real path) in `cwd`")
        } else {
            ("its file", "a bot's files", "name the file itself (its real path) in its command")
        };
        // (The target is a student's text: cut, it cannot fill the leaderboard.)
        let target = self.target.display().to_string();
        let short: String = target.chars().take(200).collect();
        let cut = if short.len() < target.len() { "…" } else { "" };
        let how = if self.link == self.path {
            "is a symbolic link".to_string()
        } else {
            format!("is reached through the symbolic link {}", self.link.display())
        };
        format!(
            "{what} {} {how} (to {short}{cut}): {rule} may not be reached through a link in its students' files; {fix}",
            self.path.display()
        )
    }
}

/// Checks that `bot`'s files are not reached through a symbolic link its students may have made
/// (see [`Linked`]). The paths checked are those its box takes as the bot's own: its folder
/// (`cwd`), and each file its command names outside that folder, outside the system's folders
/// (see [`crate::sandbox::is_system`]), the program of an interpreter (`python3`,
/// `/opt/conda/bin/python3`: the teacher's tool, often a link) left out. Each is taken as the
/// box takes it (made absolute, `..` taken back without the file system), and none of its
/// parts below the config's folder `base` may be a link (without `base`, the current folder):
/// the teacher owns that folder and what is above it (`/srv/course` may be a link; so may
/// `subs -> /mnt/submissions` in it, but then the config names the real path). A path outside
/// `base` may have no link below the deepest folder it shares with `base`; and the last part,
/// the folder or file itself, is never a link. Links are never needed: the real path can always
/// be written instead. Links inside the bot's folder are not looked at: its box binds the
/// folder alone, so a link in it leads nowhere else.
///
/// Call it just before the folder is used (a build, the bot's matches): the check reads the file
/// system as it is then.
pub fn links(bot: &BotEntry, base: Option<&Path>) -> Result<(), Linked> {
    use crate::sandbox::normalize;
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let base = normalize(&here.join(base.unwrap_or(&here)));
    let folder = bot.cwd.as_ref().map(|dir| normalize(&here.join(dir)));
    if let Some(dir) = &folder {
        linked_part(dir, &base)
            .map_or(Ok(()), |(link, target)| Err(Linked { folder: true, path: dir.clone(), link, target }))?;
    }
    // (A command that does not split is refused as such when the bot is started.)
    let words = shell_words::split(&bot.command).unwrap_or_default();
    let run_in = folder.clone().unwrap_or_else(|| here.clone());
    for (i, word) in words.iter().enumerate() {
        if word.is_empty() || word.starts_with('-') {
            continue;
        }
        let path = normalize(&run_in.join(word));
        let interpreter =
            Path::new(word).file_name().and_then(|n| n.to_str()).is_some_and(crate::sandbox::is_interpreter);
        let tool = i == 0 && interpreter && !path.starts_with(&base);
        let own = folder.as_ref().is_some_and(|dir| path.starts_with(dir));
        if tool || own || crate::sandbox::is_system(&path) || std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        if let Some((link, target)) = linked_part(&path, &base) {
            return Err(Linked { folder: false, path, link, target });
        }
    }
    Ok(())
}

/// The first link among the parts of `path` (absolute, normalized) that [`links`] checks
/// against `base` (absolute, normalized), and what it holds.
fn linked_part(path: &Path, base: &Path) -> Option<(PathBuf, PathBuf)> {
    let parts: Vec<std::path::Component<'_>> = path.components().collect();
    let shared = parts.iter().zip(base.components()).take_while(|(a, b)| *a == b).count();
    // (The root is never a link; the last part is always checked.)
    let from = shared.max(1).min(parts.len().saturating_sub(1));
    let mut at = PathBuf::new();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        if i >= from && std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            let target = std::fs::read_link(&at).unwrap_or_default();
            return Some((at, target));
        }
    }
    None
}

/// What one bot's box would show of another's files, or of the secret that keys every bot's
/// `ARENA_SEED`: a sentence per folder bots share and per folder that holds other bots', and
/// per bot whose folder holds the config's folder (`base`) when the config file sets a `secret`,
/// or holds the league's folder (`out`, whose record keeps the secret, drawn or the config's)
/// when another bot
/// than the arena's built-in ones plays (without one, as in a starter kit's league of the
/// student's bot and the sample bots, no bot can profit: the config holds nothing else a bot
/// does not know, its `seed` is published). Each says what to change.
pub fn overlaps(bots: &[BotEntry], base: Option<&Path>, secret: bool, out: &Path) -> Vec<String> {
    // Names and paths are the config's and the students' text, shown on a terminal.
    let folders: Vec<(String, PathBuf, &BotEntry)> = bots
        .iter()
        .filter_map(|b| {
            let name = crate::safe_text::terminal_cut(&b.name, 60);
            folder(b).map(|f| (name, std::path::absolute(&f).unwrap_or(f), b))
        })
        .collect();
    let shown = |p: &Path| crate::safe_text::terminal_cut(&p.display().to_string(), 200);
    let mut said = Vec::new();
    // One sentence per folder that bots share, and per bot whose folder holds others' (a
    // script beside the config, in a class of 40 bots, was 40 lines on every run).
    let quoted = |names: &[&String]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let mut sharing_said = BTreeSet::new();
    for (i, (a, fa, _)) in folders.iter().enumerate() {
        let sharing: Vec<&String> = folders.iter().filter(|(_, f, _)| f == fa).map(|(n, _, _)| n).collect();
        if sharing.len() > 1 && sharing_said.insert(fa) {
            let (last, first) = sharing.split_last().unwrap_or((&a, &[]));
            said.push(format!(
                "bots {} and `{last}` share {}: each can read the others' files (give each its own `cwd`)",
                quoted(first),
                shown(fa)
            ));
        }
        let inner: Vec<&String> =
            folders.iter().filter(|(_, f, _)| f != fa && f.starts_with(fa)).map(|(n, _, _)| n).collect();
        if !inner.is_empty() && !folders[..i].iter().any(|(_, f, _)| f == fa) {
            // (Said once for the bots sharing that folder.)
            let owners: Vec<&String> = folders.iter().filter(|(_, f, _)| f == fa).map(|(n, _, _)| n).collect();
            let (whose, can) = match owners.as_slice() {
                [one] => (format!("bot `{one}`'s folder holds"), format!("`{one}` can")),
                many => (format!("the folder of bots {} holds", quoted(many)), "they can".to_string()),
            };
            let (held, files) = match inner.as_slice() {
                [one] => (format!("bot `{one}`'s"), "its files"),
                many => (format!("those of bots {}", quoted(many)), "their files"),
            };
            // (Its submission is its whole folder: every push of theirs is a new version of it; what
            // the league's builds write there is not, see `versions::outputs_of_others`.)
            said.push(format!(
                "{whose} {held}: {can} read {files}, and each change to them (but what the league's builds \
                 write) is a new version of {what}, its matches played again (give each its own `cwd`)",
                what = if owners.len() == 1 { "it" } else { "theirs" }
            ));
        }
    }
    for (a, fa, entry) in &folders {
        let holds = |p: &Path| real_path(p).starts_with(real_path(fa));
        let victims = bots.iter().filter(|b| b.name != entry.name && !is_built_in(b)).count();
        let move_it = "put the config and the league in a folder that is not the bot's, or the bot's files in a \
                       folder of their own, its `cwd`";
        if secret && base.is_some_and(holds) {
            said.push(format!(
                "bot `{a}` can read the config's folder ({}) and its `secret`, which keys every bot's ARENA_SEED \
                 ({move_it})",
                shown(fa)
            ));
        } else if holds(out) && victims > 0 {
            said.push(format!(
                "bot `{a}` can read the league's folder ({}) and the secret kept there, which keys every bot's \
                 ARENA_SEED: it could work out the other bots' ({move_it})",
                shown(&real_path(out))
            ));
        } else if base.is_some_and(holds) || holds(out) {
            tracing::debug!(bot = %a, "can read the config's or the league's folder, where no secret can profit it");
        }
    }
    said
}

/// Whether `bot` is one of the arena's built-in bots (`arena bot greedy`, the arena by its name
/// or its path): the teacher's code, which does nothing with a secret it could read.
fn is_built_in(bot: &BotEntry) -> bool {
    let words = shell_words::split(&bot.command).unwrap_or_default();
    let [program, sub, ..] = words.as_slice() else { return false };
    let own = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let arena = program == "arena" || own.is_some_and(|own| std::fs::canonicalize(program).is_ok_and(|p| p == own));
    sub == "bot" && arena
}

fn globs(patterns: &[String], what: &str, bot: &str) -> Result<GlobSet, TournamentError> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        let glob = Glob::new(p).map_err(|e| TournamentError::Invalid(format!("bot `{bot}`: {what} `{p}`: {e}")))?;
        builder.add(glob);
    }
    builder.build().map_err(|e| TournamentError::Invalid(format!("bot `{bot}`: {what}: {e}")))
}

/// Whether `rel` (a path inside the folder) or one of its parent folders matches `set`.
fn matches_any(set: &GlobSet, rel: &Path) -> bool {
    rel.ancestors().filter(|a| !a.as_os_str().is_empty()).any(|a| set.is_match(a))
}

/// What a league leaves out of its bots' submissions besides their `ignore` globs: its own
/// folder, where a bot's folder holds it (the kit's league under `replays/`, `--out league`),
/// so that its results are no new version of the bot on every run, nor copied into itself;
/// and the arena's own executable, which a kept copy runs where it is (see [`snapshot`]). Only
/// the folder the run was told to write is left out, never one that merely looks like a
/// league: a student could hide files from the fingerprint in one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Folders, by their real paths, left out of any bot's folder that holds them.
    pub folders: Vec<PathBuf>,
    /// The arena's own executable, by its real path.
    pub own_program: Option<PathBuf>,
}

impl LeftOut {
    /// What a run writing `folders` (its output folders) leaves out: those, and the arena
    /// running it.
    pub fn league(folders: &[&Path]) -> Self {
        Self {
            folders: folders.iter().map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| normalize(f))).collect(),
            own_program: std::env::current_exe().ok().and_then(|p| std::fs::canonicalize(p).ok()),
        }
    }

    /// The folders left out that lie inside `dir` (a bot's folder), relative to it.
    fn inside(&self, dir: &Path) -> Vec<PathBuf> {
        let Ok(real) = std::fs::canonicalize(dir) else { return Vec::new() };
        self.folders
            .iter()
            .filter_map(|f| f.strip_prefix(&real).ok())
            .filter(|rel| !rel.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .collect()
    }

    /// Whether `path` is the arena's own executable.
    fn is_own_program(&self, path: &Path) -> bool {
        self.own_program.as_ref().is_some_and(|own| std::fs::canonicalize(path).is_ok_and(|p| &p == own))
    }
}

/// A sentence per bot whose folder holds the league's folder `out` but not the config's
/// folder `base` (a bot holding that is the teacher's or the student's own, see [`overlaps`]):
/// its build, which may write in its folder, and the bot itself when run without a box, could
/// write the league's results.
pub fn holding_league(bots: &[BotEntry], base: Option<&Path>, out: &Path) -> Vec<String> {
    let (out, base) = (real_path(out), base.map(real_path));
    bots.iter()
        .filter_map(|b| folder(b).map(|f| (b, real_path(&f))))
        .filter(|(_, f)| out.starts_with(f) && !base.as_ref().is_some_and(|base| base.starts_with(f)))
        .map(|(b, _)| {
            format!(
                "bot `{}`'s folder holds the league's folder ({}): its build, and the bot run without a box, can \
                 write there (give the league an --out outside the bots' folders)",
                crate::safe_text::terminal_cut(&b.name, 60),
                crate::safe_text::terminal_cut(&out.display().to_string(), 200)
            )
        })
        .collect()
}

/// The first of `bots` whose folder holds `out` (a shard's own `--out`), with that folder, unless
/// `league` (the league's folder, which its build left out of every bot) holds `out` too: the
/// build fingerprinted the bot with whatever `out` then held, and not the other shards' folders.
pub fn folder_holding<'a>(bots: &[&'a BotEntry], out: &Path, league: &Path) -> Option<(&'a BotEntry, PathBuf)> {
    let out = real_path(out);
    if out.starts_with(real_path(league)) {
        return None;
    }
    bots.iter().find_map(|b| folder(b).map(|f| real_path(&f)).filter(|f| out.starts_with(f)).map(|f| (*b, f)))
}

/// The folder of the league `league`'s kept copies (`versions/`, wherever a link leads it) when
/// it holds `out` (a shard's own `--out`): what a shard writes there lands in the copies the bots
/// play from (in their boxes, as their own folder) and that archive what each student submitted.
/// [`folder_holding`] lets it by: the league's folder holds it.
pub fn copies_holding(out: &Path, league: &Path) -> Option<PathBuf> {
    let copies = real_path(&league.join("versions"));
    real_path(out).starts_with(&copies).then_some(copies)
}

/// `path` with every link resolved, also where it does not exist yet (a folder a run will
/// make): its nearest existing folder's real path, then the rest of it.
pub(super) fn real_path(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let abs = normalize(path);
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => real_path(parent).join(name),
        // (`..` after a folder still to be made: the folder it will be made in, as the folder
        // made leads there. Kept as written, `league/new/../versions/alice` passed for a folder
        // outside the league's copies.)
        (Some(parent), None) if abs.components().next_back() == Some(std::path::Component::ParentDir) => {
            let real = real_path(parent);
            real.parent().map_or(real.clone(), Path::to_path_buf)
        }
        _ => abs,
    }
}

/// A bot's fingerprints as its files are now, by both schemes of [`fingerprints`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprints {
    /// The fingerprint a league records for a version it has not seen: the same wherever the
    /// config's folder is.
    pub portable: String,
    /// The fingerprint arenas before this scheme recorded (the command hashed as made
    /// absolute), computed only to know the versions they recorded.
    pub legacy: String,
}

impl Fingerprints {
    /// Whether the version recorded as `recorded` (with `portable`, the location-free
    /// fingerprint the league noted for it, if any) is the bot as it is now: by this scheme, by
    /// the legacy one (an earlier arena's record, the folder where it was), or by the noted one
    /// (such a record, after the folder moved).
    pub fn is(&self, recorded: &str, portable: Option<&str>) -> bool {
        recorded == self.portable || recorded == self.legacy || portable == Some(self.portable.as_str())
    }
}

/// Fingerprints `bot`: its command line, its build command, every file of its submission
/// folder (by relative path and content, a link by its target text; minus ignored files,
/// `outputs`, the files its build wrote, and the folders `left_out`) and every file its command
/// names outside that folder (the arena's own executable too: a new arena is a new version of
/// its built-in bots). `cache` keeps file
/// hashes, so bots sharing an executable hash it once. One unreadable file, or one bigger
/// than [`MAX_FINGERPRINTED_BYTES`], makes this bot unable to play, not the tournament.
///
/// The scheme: a word of the command that is an absolute path under `base` (the config's
/// folder, which the config loader makes the bot's relative paths absolute against) is hashed
/// relative to it, as the config gives it (`sh bots/x.sh`, not `sh /home/t/course/bots/x.sh`):
/// so a course folder moved or copied elsewhere keeps every bot's version, and plays nothing
/// again ([`Fingerprints::portable`]). A command with no such word (a bot with `cwd` and a
/// relative command) is hashed as written, so for it both schemes agree. The legacy scheme
/// hashed the command as made absolute ([`Fingerprints::legacy`]): it is computed in the same
/// pass, so that a league recorded by an earlier arena keeps its versions (see
/// [`Fingerprints::is`]).
pub fn fingerprints(
    bot: &BotEntry,
    base: Option<&Path>,
    outputs: &BTreeSet<String>,
    left_out: &LeftOut,
    cache: &mut BTreeMap<PathBuf, blake3::Hash>,
) -> Result<Fingerprints, TournamentError> {
    Ok(sources(bot, base, outputs, left_out, cache)?.fingerprints())
}

/// What [`fingerprints`] covers of a bot, item by item in the order it hashes them: its files
/// as they were when read. Two readings are compared to tell whether its files changed between
/// them (a push during its build, see [`Sources::without`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources {
    /// The command with the words under the config's folder relative to it, and as written.
    portable_command: String,
    command: String,
    /// The build command.
    build: String,
    items: Vec<Item>,
}

/// One thing a fingerprint covers.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// A file of the bot's folder (relative to it), by its content.
    File { rel: String, digest: blake3::Hash },
    /// A link of the bot's folder, by where it points as written.
    Link { rel: String, target: Vec<u8> },
    /// A file a word of the command names that the folder's walk did not cover: by its
    /// content, or (a link in the folder leading out of it) by where it really is. `rel`: its
    /// path in the bot's folder, when it is in it; `index`: the word's place in the command.
    Word { word: String, portable: String, rel: Option<String>, index: usize, what: WordIs },
}

/// What a word of the command names (see [`Item::Word`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum WordIs {
    File(blake3::Hash),
    LinkOut(PathBuf),
}

impl Sources {
    /// The fingerprints of these files.
    pub fn fingerprints(&self) -> Fingerprints {
        let (mut portable, mut legacy) = (blake3::Hasher::new(), blake3::Hasher::new());
        portable.update(self.portable_command.as_bytes());
        legacy.update(self.command.as_bytes());
        let mut both = |bytes: &[u8]| {
            portable.update(bytes);
            legacy.update(bytes);
        };
        both(b"\0");
        both(self.build.as_bytes());
        for item in &self.items {
            match item {
                Item::File { rel, digest } => {
                    both(rel.as_bytes());
                    both(b"\0");
                    both(digest.as_bytes());
                }
                Item::Link { rel, target } => {
                    both(rel.as_bytes());
                    both(b"\0link\0");
                    both(target);
                    both(b"\0");
                }
                Item::Word { .. } => {}
            }
        }
        for item in &self.items {
            let Item::Word { word, portable: portable_word, what, .. } = item else { continue };
            match what {
                WordIs::LinkOut(real) => {
                    for hasher in [&mut portable, &mut legacy] {
                        hasher.update(word.as_bytes());
                        hasher.update(b"\0link\0");
                        hasher.update(real.as_os_str().as_encoded_bytes());
                    }
                }
                WordIs::File(digest) => {
                    portable.update(portable_word.as_bytes());
                    portable.update(digest.as_bytes());
                    legacy.update(word.as_bytes());
                    legacy.update(digest.as_bytes());
                }
            }
        }
        let hex = |h: blake3::Hasher| h.finalize().to_hex()[..16].to_string();
        Fingerprints { portable: hex(portable), legacy: hex(legacy) }
    }

    /// These files without `outputs` (paths of the bot's folder and all under them): read
    /// before a build with the outputs known then, and compared with a reading after it with
    /// the outputs it added, they are the same when no file of the submission changed during
    /// the build (a file it created is no source, and was not there before).
    pub fn without(&self, outputs: &BTreeSet<String>) -> Sources {
        let kept = |item: &&Item| match item {
            Item::File { rel, .. } | Item::Link { rel, .. } => !is_output(outputs, Path::new(rel)),
            Item::Word { rel, .. } => rel.as_ref().is_none_or(|rel| !is_output(outputs, Path::new(rel))),
        };
        Sources { items: self.items.iter().filter(kept).cloned().collect(), ..self.clone() }
    }

    /// The paths (relative to the bot's folder) or the command's words that are not alike in
    /// `self` and `other`, at most `most` of them.
    pub fn differences(&self, other: &Sources, most: usize) -> Vec<String> {
        let key = |item: &Item| match item {
            Item::File { rel, .. } | Item::Link { rel, .. } => rel.clone(),
            Item::Word { word, .. } => word.clone(),
        };
        let index = |s: &Sources| s.items.iter().map(|i| (key(i), i.clone())).collect::<BTreeMap<_, _>>();
        let (a, b) = (index(self), index(other));
        let mut out: Vec<String> = a
            .keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if out.is_empty() && self != other {
            out.push("its command or build command".to_string());
        }
        out.truncate(most);
        out
    }
}

/// The files of `bot` that [`fingerprints`] covers, as they are now (see [`Sources`]).
pub fn sources(
    bot: &BotEntry,
    base: Option<&Path>,
    outputs: &BTreeSet<String>,
    left_out: &LeftOut,
    cache: &mut BTreeMap<PathBuf, blake3::Hash>,
) -> Result<Sources, TournamentError> {
    Ok(read_files(bot, base, outputs, left_out, cache, false)?.all)
}

/// A bot's files read in one walk of its folder (see [`read`]).
#[derive(Debug, Clone)]
pub struct Reading {
    /// Its files but its build's outputs: as [`sources`] reads them with those outputs.
    pub own: Sources,
    /// All its files, its build's outputs too, as [`sources`] reads them with none: what its
    /// program was built as. An error (an output unreadable, too large, or more than
    /// [`MAX_FILES`] files in all) leaves `own` as it is.
    pub whole: Result<Sources, String>,
}

/// Reads `bot`'s files once for both of its fingerprints (see [`Reading`]): [`sources`] with
/// `outputs` and with none, in one walk of its folder, each file hashed once. A league run and
/// each check of a bot playing from its own files walked its folder once for each (a folder of
/// many files, walked and hashed twice).
pub fn read(
    bot: &BotEntry,
    base: Option<&Path>,
    outputs: &BTreeSet<String>,
    left_out: &LeftOut,
    cache: &mut BTreeMap<PathBuf, blake3::Hash>,
) -> Result<Reading, TournamentError> {
    let read = read_files(bot, base, outputs, left_out, cache, true)?;
    let own = read.all.without(outputs);
    Ok(Reading { own, whole: read.whole.map(|()| read.all) })
}

/// What [`read_files`] read: every item it covers (with `outputs` only when asked to hash them),
/// and whether the outputs could all be read (why not).
struct Read {
    all: Sources,
    whole: Result<(), String>,
}

/// [`sources`] (with `with_outputs`, [`read`]): the outputs' items too, their errors in `whole`.
fn read_files(
    bot: &BotEntry,
    base: Option<&Path>,
    outputs: &BTreeSet<String>,
    left_out: &LeftOut,
    cache: &mut BTreeMap<PathBuf, blake3::Hash>,
    with_outputs: bool,
) -> Result<Read, TournamentError> {
    let words = shell_words::split(&bot.command)
        .map_err(|e| TournamentError::Invalid(format!("bot `{}`: bad command `{}`: {e}", bot.name, bot.command)))?;
    let portable_words: Vec<Cow<'_, str>> = words.iter().map(|w| portable_word(w, base)).collect();
    let portable_command: Cow<'_, str> = if portable_words.iter().any(|w| matches!(w, Cow::Owned(_))) {
        Cow::Owned(shell_words::join(&portable_words))
    } else {
        Cow::Borrowed(&bot.command)
    };
    let base_dir = bot.cwd.clone().unwrap_or_default();
    let folder = folder(bot);
    let Walked { mut items, covered, mut whole } = match &folder {
        Some(dir) => {
            if let Some(trouble) = crate::files::folder_trouble(dir) {
                return Err(TournamentError::Invalid(format!("bot `{}`: {trouble}", bot.name)));
            }
            walk(bot, dir, outputs, &left_out.inside(dir), cache, with_outputs)?
        }
        None => Walked { items: Vec::new(), covered: BTreeSet::new(), whole: Ok(()) },
    };
    for (index, (word, portable_word)) in words.iter().zip(&portable_words).enumerate() {
        let path = base_dir.join(word);
        if !path.is_file() || covered.contains(&normalize(&path)) {
            continue;
        }
        let (word, portable) = (word.clone(), portable_word.to_string());
        let mut rel = None;
        let mut output = false;
        if let Some(dir) = &folder {
            if let Ok(inside) = normalize(&path).strip_prefix(normalize(dir)) {
                output = is_output(outputs, inside);
                if output && (!with_outputs || whole.is_err()) {
                    continue;
                }
                rel = Some(inside.to_string_lossy().into_owned());
                // A link in the student's folder to a file outside it: where it leads counts,
                // but the arena does not read it (see [`leaves`]).
                if let Some(real) = leaves(&path, dir) {
                    items.push(Item::Word { word, portable, rel, index, what: WordIs::LinkOut(real) });
                    continue;
                }
            }
        }
        let digest = match cached_hash(&path, cache) {
            Ok(digest) => digest,
            // (An output that cannot be read leaves the submission's own files as they are.)
            Err(e) if output => {
                whole = Err(e.to_string());
                continue;
            }
            Err(e) => return Err(e),
        };
        items.push(Item::Word { word, portable, rel, index, what: WordIs::File(digest) });
    }
    let all = Sources {
        portable_command: portable_command.into_owned(),
        command: bot.command.clone(),
        build: bot.build.clone().unwrap_or_default(),
        items,
    };
    Ok(Read { all, whole })
}

/// What a bot's folder walk leaves out: the default ignores, the bot's `ignore`, and the
/// temporary files of a copy of its own that an arena killed during a build left beside a
/// hard-linked file (see `build::own_copy`): the bot is not a new version for them.
/// Whether `bot`'s `files` and `ignore` globs compile, as a walk of its folder compiles them: the
/// error names the bot, the key and the glob. (A config is checked so before anything is built:
/// a bad glob was found only when the bot's folder was read, and the bot could not play.)
pub(super) fn check_globs(bot: &BotEntry) -> Result<(), TournamentError> {
    ignore_set(bot)?;
    if !bot.files.is_empty() {
        globs(&bot.files, "files", &bot.name)?;
    }
    Ok(())
}

fn ignore_set(bot: &BotEntry) -> Result<GlobSet, TournamentError> {
    let own_copies = format!("{}own-*", crate::files::TEMPORARY_PREFIX);
    let defaults = DEFAULT_IGNORE.iter().map(|s| s.to_string()).chain(std::iter::once(own_copies));
    let patterns: Vec<String> = defaults.chain(bot.ignore.iter().cloned()).collect();
    globs(&patterns, "ignore", &bot.name)
}

/// Whether a walk of the folder `dir` goes into `path`: the folder itself, or what neither
/// `ignore` nor the league folders inside it (`league`, relative) leave out.
fn walked(dir: &Path, path: &Path, ignore: &GlobSet, league: &[PathBuf]) -> bool {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.as_os_str().is_empty() || !(matches_any(ignore, rel) || league.iter().any(|l| rel.starts_with(l)))
}

/// What [`walk`] found: the items, the files among them (their absolute paths), and whether the
/// outputs it was asked to read could all be (why not).
struct Walked {
    items: Vec<Item>,
    covered: BTreeSet<PathBuf>,
    whole: Result<(), String>,
}

#[cfg(test)]
thread_local! {
    /// The folders [`walk`] walked on this thread, and the files [`hash_file`] read: a test
    /// counts a run's reads by them.
    pub(super) static READS: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The files and links of the bot's folder `dir` that [`fingerprints`] covers, in the order it
/// hashes them (by name, depth first), and the files among them (their absolute paths): all but
/// the ignored ones (the default and `bot`'s `ignore` globs), those outside its `files` globs
/// when it declares some, its `outputs` (unless `with_outputs`) and the folders `league`
/// (relative to `dir`).
///
/// [`MAX_FILES`] counts the submission's files and links: those it covers but the outputs. More
/// is an error; outputs past it in all (with `with_outputs`) leave the outputs unread (`whole`),
/// as a walk with no outputs named refused them.
fn walk(
    bot: &BotEntry,
    dir: &Path,
    outputs: &BTreeSet<String>,
    league: &[PathBuf],
    cache: &mut BTreeMap<PathBuf, blake3::Hash>,
    with_outputs: bool,
) -> Result<Walked, TournamentError> {
    #[cfg(test)]
    READS.with_borrow_mut(|reads| reads.push(dir.to_path_buf()));
    let ignore = ignore_set(bot)?;
    let only = (!bot.files.is_empty()).then(|| globs(&bot.files, "files", &bot.name)).transpose()?;
    let (mut items, mut covered, mut whole) = (Vec::new(), BTreeSet::new(), Ok(()));
    let (mut count, mut total) = (0, 0);
    let too_many =
        || format!("bot `{}`: more than {MAX_FILES} files in {}: declare `files` or `ignore`", bot.name, dir.display());
    // The sizes of the files hashed: its own, and all of them (see [`MAX_FOLDER_BYTES`]).
    let (mut own_bytes, mut all_bytes, most_bytes) = (0u64, 0u64, max_folder_bytes());
    let too_big = || {
        format!(
            "bot `{}`: more than {} MiB of files in {}: declare `files` or `ignore`",
            bot.name,
            most_bytes >> 20,
            dir.display()
        )
    };
    let walk = walkdir::WalkDir::new(dir).follow_links(false).sort_by_file_name().into_iter();
    for entry in walk.filter_entry(|e| walked(dir, e.path(), &ignore, league)) {
        let entry = entry.map_err(|e| TournamentError::Invalid(format!("bot `{}`: {e}", bot.name)))?;
        let link = entry.file_type().is_symlink();
        if !entry.file_type().is_file() && !link {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path()).to_path_buf();
        let rel_text = rel.to_string_lossy().into_owned();
        let output = is_output(outputs, &rel);
        if (output && !with_outputs) || only.as_ref().is_some_and(|o| !o.is_match(&rel)) {
            continue;
        }
        total += 1;
        if total > MAX_FILES && whole.is_ok() {
            whole = Err(too_many());
        }
        if output && whole.is_err() {
            continue;
        }
        if !output {
            count += 1;
            if count > MAX_FILES {
                return Err(TournamentError::Invalid(too_many()));
            }
        }
        // (An output that cannot be read leaves the submission's own files as they are.)
        let mut failed = |e: TournamentError| {
            if !output {
                return Err(e);
            }
            whole = Err(e.to_string());
            Ok(())
        };
        if link {
            // A link counts by where it points, as written (never followed: it may lead
            // out of the folder, see [`leaves`]): switching it between two files is a new
            // version. (Only folders with links hash these bytes: others keep their digest.)
            match std::fs::read_link(entry.path()) {
                Ok(target) => {
                    items.push(Item::Link { rel: rel_text, target: target.as_os_str().as_encoded_bytes().to_vec() })
                }
                Err(e) => failed(TournamentError::io(entry.path(), e))?,
            }
            continue;
        }
        let len = entry.metadata().map_or(0, |m| m.len());
        all_bytes = all_bytes.saturating_add(len);
        if !output {
            own_bytes = own_bytes.saturating_add(len);
            if own_bytes > most_bytes {
                return Err(TournamentError::Invalid(too_big()));
            }
        } else if all_bytes > most_bytes {
            whole = Err(too_big());
            continue;
        }
        covered.insert(normalize(entry.path()));
        match cached_hash(entry.path(), cache) {
            Ok(digest) => items.push(Item::File { rel: rel_text, digest }),
            Err(e) => failed(e)?,
        }
    }
    Ok(Walked { items, covered, whole })
}

/// What [`fingerprints`] covers of the copy of `bot` kept in `dest` (see [`snapshot`]), item by
/// item as `then`, the bot's files read when its version was fingerprinted, has them: the
/// copy's folder walked as the bot's is (the same ignore rules and `files` globs, its
/// `outputs` left out, paths relative to the folder), and the files the command names as they
/// were copied. The same as `then`, and so of the same fingerprints, when the copy holds the
/// files then read: a file swapped during the copy and back (A, B, A) is B in the copy, whatever
/// the bot's files are after it. What a copy does not take counts as `then` has it: links, and
/// the files a word names outside the copy (run where they are). A file the copy has that `then`
/// has not comes last; one `then` has and the copy not is missing.
pub fn copied_sources(
    bot: &BotEntry,
    dest: &Path,
    then: &Sources,
    outputs: &BTreeSet<String>,
    left_out: &LeftOut,
) -> Result<Sources, TournamentError> {
    let mut cache = BTreeMap::new();
    let root = dest.join("folder");
    let copied = match folder(bot) {
        Some(_) if root.is_dir() => walk(bot, &root, outputs, &[], &mut cache, false)?.items,
        _ => Vec::new(),
    };
    let mut copied: BTreeMap<String, Item> = copied
        .into_iter()
        .map(|item| match &item {
            Item::File { rel, .. } | Item::Link { rel, .. } | Item::Word { word: rel, .. } => (rel.clone(), item),
        })
        .collect();
    let mut items = Vec::new();
    for item in &then.items {
        match item {
            Item::File { rel, .. } => items.extend(copied.remove(rel)),
            // (No link is copied: none can differ. One in the copy is another file's.)
            Item::Link { rel, .. } => {
                copied.remove(rel);
                items.push(item.clone());
            }
            Item::Word { .. } => {}
        }
    }
    items.extend(copied.into_values());
    let base = bot.cwd.clone().unwrap_or_default();
    for item in &then.items {
        let Item::Word { word, portable, rel, index, what } = item else { continue };
        let path = base.join(word);
        let at = match (rel, what) {
            (_, WordIs::LinkOut(_)) => None,
            (Some(rel), _) => Some(root.join(rel)),
            (None, _) if folder(bot).is_none() && !left_out.is_own_program(&path) => {
                let name = path.file_name().map_or("file".into(), |n| n.to_string_lossy().into_owned());
                Some(dest.join("files").join(format!("{index}-{name}")))
            }
            (None, _) => None,
        };
        match at {
            None => items.push(item.clone()),
            Some(at) if at.is_file() => {
                let what = WordIs::File(hash_file(&at)?);
                items.push(Item::Word {
                    word: word.clone(),
                    portable: portable.clone(),
                    rel: rel.clone(),
                    index: *index,
                    what,
                });
            }
            Some(_) => {}
        }
    }
    Ok(Sources { items, ..then.clone() })
}

/// Where `path` (a file in the student's `folder`, as the command names it) really is, when a
/// link on the way leads out of the folder; `None` when it stays inside. The arena may be root,
/// and the link is the student's (a build may make it): `./bot` made a link to `/proc/kmsg`
/// had the arena read the host's kernel log to fingerprint it, and block there for good once
/// it was read (a league hung before its first match), and to any file of the teacher's it
/// read that file. In its box the link leads to the box's own files, which the bot may read
/// anyway.
fn leaves(path: &Path, folder: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(path).ok()?;
    let dir = std::fs::canonicalize(folder).ok()?;
    (!real.starts_with(dir)).then_some(real)
}

/// A word of a command as the portable fingerprint hashes it: relative to `base` when it is an
/// absolute path under it (`.` for `base` itself), else as it is.
fn portable_word<'a>(word: &'a str, base: Option<&Path>) -> Cow<'a, str> {
    let path = Path::new(word);
    match base.filter(|_| path.is_absolute()).and_then(|b| path.strip_prefix(b).ok()).and_then(Path::to_str) {
        Some("") => Cow::Owned(".".to_string()),
        Some(rel) => Cow::Owned(rel.to_string()),
        None => Cow::Borrowed(word),
    }
}

fn is_output(outputs: &BTreeSet<String>, rel: &Path) -> bool {
    rel.ancestors().filter(|a| !a.as_os_str().is_empty()).any(|a| outputs.contains(a.to_string_lossy().as_ref()))
}

fn normalize(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn cached_hash(path: &Path, cache: &mut BTreeMap<PathBuf, blake3::Hash>) -> Result<blake3::Hash, TournamentError> {
    if let Some(d) = cache.get(path) {
        return Ok(*d);
    }
    let d = hash_file(path)?;
    cache.insert(path.to_path_buf(), d);
    Ok(d)
}

/// Hashes a regular file as it is read, refusing one over [`MAX_FINGERPRINTED_BYTES`].
fn hash_file(path: &Path) -> Result<blake3::Hash, TournamentError> {
    use std::io::Read;
    #[cfg(test)]
    READS.with_borrow_mut(|reads| reads.push(path.to_path_buf()));
    let bad = |what: String| TournamentError::Invalid(format!("{}: {what}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| TournamentError::io(path, e))?;
    let meta = file.metadata().map_err(|e| TournamentError::io(path, e))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".to_string()));
    }
    let mut hasher = blake3::Hasher::new();
    let mut limited = file.take(MAX_FINGERPRINTED_BYTES + 1);
    let n = std::io::copy(&mut limited, &mut hasher).map_err(|e| TournamentError::io(path, e))?;
    if n > MAX_FINGERPRINTED_BYTES {
        return Err(bad(format!("larger than {} MiB", MAX_FINGERPRINTED_BYTES >> 20)));
    }
    Ok(hasher.finalize())
}

/// The most a kept copy of one bot version may hold.
pub const MAX_SNAPSHOT_BYTES: u64 = 256 << 20;

/// Copies what runs `bot` (its folder's files, build outputs included, minus ignored files,
/// symbolic links and the folders `left_out`, and the files its command names) into `dest`, and
/// returns the entry that runs the copy: a league keeps each good version so that it can still
/// play after its files changed (a broken push). A copy bigger than [`MAX_SNAPSHOT_BYTES`] is
/// not kept. The arena's own executable (`arena bot greedy`) is not copied: the copy runs it
/// where it is (a built-in bot cannot fail to build, and each league kept two copies of the
/// whole arena).
pub fn snapshot(bot: &BotEntry, dest: &Path, left_out: &LeftOut) -> Result<BotEntry, TournamentError> {
    let tmp = dest.with_extension("tmp");
    let kept = copy_into(bot, dest, &tmp, left_out);
    if kept.is_err() {
        // (A copy cut short, too large for one, takes no disk.)
        let _ = std::fs::remove_dir_all(&tmp);
    }
    kept
}

/// A test's hook into [`copy_into`] (see [`BETWEEN_FILES`]).
#[cfg(test)]
pub(super) type Hook = Box<dyn FnMut(&Path, bool)>;

#[cfg(test)]
thread_local! {
    /// A test's hook into [`copy_into`] on its thread: called with each file it copies, before
    /// (`false`) and after (`true`) the copy, to change the file meanwhile.
    pub(super) static BETWEEN_FILES: std::cell::RefCell<Option<Hook>> =
        const { std::cell::RefCell::new(None) };
}

/// Calls the test's [`BETWEEN_FILES`] hook, if it set one.
#[cfg(test)]
fn between_files(from: &Path, done: bool) {
    BETWEEN_FILES.with_borrow_mut(|hook| {
        if let Some(hook) = hook {
            hook(from, done);
        }
    });
}

/// [`snapshot`], copying into `tmp` first, then renamed `dest`.
fn copy_into(bot: &BotEntry, dest: &Path, tmp: &Path, left_out: &LeftOut) -> Result<BotEntry, TournamentError> {
    let fail = |what: String| TournamentError::Invalid(format!("bot `{}`: cannot keep a copy: {what}", bot.name));
    let mut words = shell_words::split(&bot.command).map_err(|e| fail(e.to_string()))?;
    let base = bot.cwd.clone().unwrap_or_default();
    let _ = std::fs::remove_dir_all(tmp);
    // (`versions/`, `versions/<bot>/` and the copy's own folder its user's alone; what the bot
    // runs from, `folder/` or `files/` in it, as any folder: a root arena's box binds it in,
    // then runs the bot as a user of its own, see `Sandbox::command`.)
    crate::files::make_private_folders(tmp).map_err(|e| TournamentError::io(tmp, e))?;
    let (mut bytes, mut files, most_files) = (0u64, 0usize, max_copy_files());
    let mut copy = |from: &Path, to: &Path| -> Result<(), TournamentError> {
        let len = std::fs::metadata(from).map_err(|e| TournamentError::io(from, e))?.len();
        bytes += len;
        if bytes > MAX_SNAPSHOT_BYTES {
            return Err(fail(format!("larger than {} MiB", MAX_SNAPSHOT_BYTES >> 20)));
        }
        files += 1;
        if files > most_files {
            return Err(fail(format!("more than {most_files} files")));
        }
        if let Some(parent) = to.parent() {
            make_shared_folders(tmp, parent).map_err(|e| TournamentError::io(parent, e))?;
        }
        #[cfg(test)]
        between_files(from, false);
        copy_file(from, to, len)?;
        #[cfg(test)]
        between_files(from, true);
        Ok(())
    };
    let mut entry = bot.clone();
    if let Some(dir) = folder(bot) {
        let ignore = ignore_set(bot)?;
        let root = tmp.join("folder");
        // (Made even where nothing is copied: an empty folder is still the bot's folder, its
        // working directory, which every match failed to find.)
        make_shared_folders(tmp, &root).map_err(|e| TournamentError::io(&root, e))?;
        let league = left_out.inside(&dir);
        let walk = walkdir::WalkDir::new(&dir).follow_links(false).into_iter();
        for e in walk.filter_entry(|e| walked(&dir, e.path(), &ignore, &league)) {
            let e = e.map_err(|e| fail(e.to_string()))?;
            if e.file_type().is_file() {
                let rel = e.path().strip_prefix(&dir).unwrap_or(e.path());
                copy(e.path(), &root.join(rel))?;
            }
        }
        let dir_abs = normalize(&dir);
        let final_root = dest.join("folder");
        for word in &mut words {
            let path = normalize(&base.join(&*word));
            let relative = Path::new(&*word).is_relative() && !word.starts_with('-');
            let clean = |p: &Path| crate::sandbox::normalize(&normalize(p));
            if path.exists() && relative && bot.cwd.is_some() && !clean(&path).starts_with(clean(&dir_abs)) {
                // A file or folder outside the bot's folder, named relative to it (a teacher's
                // `../runner.py`): no part of the copy, named where it is.
                *word = clean(&path).display().to_string();
                continue;
            }
            if Path::new(&*word).is_absolute() && path.is_dir() {
                // A folder in the bot's folder named by its absolute path (`-cp /…/alice/classes`).
                if let Ok(rel) = path.strip_prefix(&dir_abs) {
                    *word = final_root.join(rel).display().to_string();
                }
                continue;
            }
            if let (true, Ok(rel)) = (path.is_file(), path.strip_prefix(&dir_abs)) {
                // A named file in an ignored place (target/release/bot) comes along too, unless
                // it is a link out of the folder (a student's file must not bring in another).
                let inside = std::fs::canonicalize(&path)
                    .ok()
                    .zip(std::fs::canonicalize(&dir).ok())
                    .is_some_and(|(real, dir)| real.starts_with(dir));
                if !root.join(rel).exists() && inside {
                    copy(&path, &root.join(rel))?;
                }
                if Path::new(&*word).is_absolute() {
                    *word = final_root.join(rel).display().to_string();
                }
            }
        }
        if bot.cwd.is_some() {
            entry.cwd = Some(final_root);
        }
    } else {
        for (i, word) in words.iter_mut().enumerate() {
            let path = base.join(&*word);
            if path.is_file() && left_out.is_own_program(&path) {
                *word = normalize(&path).display().to_string();
            } else if path.is_file() {
                let name = path.file_name().map_or("file".into(), |n| n.to_string_lossy().into_owned());
                let rel = PathBuf::from("files").join(format!("{i}-{name}"));
                copy(&path, &tmp.join(&rel))?;
                *word = dest.join(rel).display().to_string();
            }
        }
    }
    let _ = std::fs::remove_dir_all(dest);
    std::fs::rename(tmp, dest).map_err(|e| TournamentError::io(dest, e))?;
    entry.command = shell_words::join(words);
    entry.build = None;
    Ok(entry)
}

/// Makes `dir` and its missing folders below `base` (there already), each `0755` whatever the
/// umask: a root arena's box binds the copy in and runs the bot as a user of its own, who must
/// read it. Under a umask of 027 every bot given as a folder or a script was refused ("is not
/// readable by others, so a box cannot read it"), a teacher's choice of umask the copy undid.
fn make_shared_folders(base: &Path, dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(below) = dir.strip_prefix(base) else { return std::fs::create_dir_all(dir) };
    let mut at = base.to_path_buf();
    for part in below.components() {
        at.push(part);
        match std::fs::create_dir(&at) {
            Ok(()) => std::fs::set_permissions(&at, std::fs::Permissions::from_mode(0o755))?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Copies the file `from` to the new file `to` with its mode, less the set-id bits and the
/// writes of others: the copy is the arena's file (a root arena's copy of a student's
/// set-user-id file was a root program anyone on the machine could run), played again in later
/// runs unchecked (one writable by all could be changed after its version was recorded). It is
/// written private, and takes its mode once whole. At most `len` bytes are copied (its size as
/// counted: a file that grows meanwhile does not fill the disk past the copy's cap), and only
/// what holds data: holes and all-zero blocks stay holes (see [`copy_sparse`]). A name that is
/// no longer a regular file (a FIFO swapped in) is refused, without waiting on it.
fn copy_file(from: &Path, to: &Path, len: u64) -> Result<(), TournamentError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let source = crate::files::open_regular(from)
        .map_err(|e| TournamentError::io(from, e))?
        .ok_or_else(|| TournamentError::Invalid(format!("{}: not a regular file", from.display())))?;
    let mode = source.metadata().map_err(|e| TournamentError::io(from, e))?.permissions().mode();
    let copy = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)
        .map_err(|e| TournamentError::io(to, e))?;
    copy_sparse(&source, &copy, len).map_err(|e| TournamentError::io(from, e))?;
    copy.set_permissions(std::fs::Permissions::from_mode(mode & 0o755)).map_err(|e| TournamentError::io(to, e))
}

/// The blocks [`copy_sparse`] reads and writes at once.
const COPY_BLOCK: usize = 64 << 10;

/// Copies the first `len` bytes of `source` into the empty file `copy`, writing only the blocks
/// that hold something other than zeros: the copy allocates what the file's data needs, never
/// its holes. A build's sparse output of 256 MiB took no disk from its `build_disk_mb`, and each
/// version's copy wrote it out whole: a student pushing often filled the teacher's disk, 256 MiB
/// a version. The file's holes are skipped unread (`SEEK_DATA`, `SEEK_HOLE`; on a file system
/// without them, all of it is read), its all-zero blocks read and left out.
pub(super) fn copy_sparse(source: &std::fs::File, copy: &std::fs::File, len: u64) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::FileExt;
    let fd = source.as_raw_fd();
    let seek = |at: u64, whence: libc::c_int| -> Option<u64> {
        let at = libc::off_t::try_from(at).ok()?;
        // SAFETY: lseek on a descriptor we own (`source` is borrowed for the call).
        let found = unsafe { libc::lseek(fd, at, whence) };
        u64::try_from(found).ok()
    };
    let mut buf = vec![0u8; COPY_BLOCK];
    // (The end of what was read: less than `len` where the file ended sooner.)
    let mut end = 0u64;
    let mut at = 0u64;
    'data: while at < len {
        // The next data: where it starts (none: a hole to the end, or past the end), and ends.
        let Some(data) = seek(at, libc::SEEK_DATA).or_else(|| {
            let unsupported = std::io::Error::last_os_error().raw_os_error() != Some(libc::ENXIO);
            unsupported.then_some(at)
        }) else {
            break;
        };
        let hole = seek(data, libc::SEEK_HOLE).unwrap_or(len).clamp(data, len);
        if data >= len || hole <= data {
            break;
        }
        end = end.max(data);
        let mut pos = data;
        while pos < hole {
            let want = usize::try_from(hole - pos).unwrap_or(COPY_BLOCK).min(COPY_BLOCK);
            let got = source.read_at(&mut buf[..want], pos)?;
            if got == 0 {
                // (The file is shorter than it was: the copy ends where it did.)
                break 'data;
            }
            if buf[..got].iter().any(|&b| b != 0) {
                copy.write_all_at(&buf[..got], pos)?;
            }
            pos += got as u64;
            end = pos;
        }
        at = hole;
    }
    // Up to its size, a hole at its end included; never past what the file still holds.
    let size = source.metadata()?.len().min(len);
    copy.set_len(end.max(size).min(len))
}

/// What a folder holds, to tell afterwards what a build wrote: each path (relative) with its
/// modification time, size, inode and whether it is a folder.
pub type Stamp = BTreeMap<String, Facts>;

/// What tells a path's content changed, without reading it: modification time (seconds,
/// nanoseconds), size, inode, and whether it is a folder.
pub type Facts = (i64, i64, u64, u64, bool);

/// The [`Facts`] of a path, from its metadata.
pub(super) fn facts(meta: &std::fs::Metadata) -> Facts {
    (meta.mtime(), meta.mtime_nsec(), meta.size(), meta.ino(), meta.is_dir())
}

/// The [`Stamp`] of `folder` (empty when it is missing).
pub fn stamp(folder: &Path) -> Stamp {
    let mut out = Stamp::new();
    for entry in walkdir::WalkDir::new(folder).follow_links(false).into_iter().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        let rel = entry.path().strip_prefix(folder).unwrap_or(entry.path());
        if rel.as_os_str().is_empty() {
            continue;
        }
        out.insert(rel.to_string_lossy().into_owned(), facts(&meta));
    }
    out
}

/// How the output `rel` of `folder` is now, and everything under it (a folder's files): a digest
/// of each path's [`Facts`], as [`stamp`] takes them, and of each link's target text, no link
/// followed; empty when it is gone. The same only while nobody wrote there (a push, a pull: new files, new times).
pub fn output_stamp(folder: &Path, rel: &str) -> String {
    stamp_output(folder, rel, None).0
}

/// The most bytes of a bot's outputs [`output_stamps`] reads for their content stamps at each
/// stamping (their sizes, holes included), in path order: an output whose files' sizes add up to
/// more than what is left is not read and has none, and counts as changed once its folder is
/// copied (a new version then, never a missed one). As [`MAX_SNAPSHOT_BYTES`]: a version larger
/// than that has no copy to play from anyway.
pub const MAX_CONTENT_STAMPED: u64 = MAX_SNAPSHOT_BYTES;

/// The output `rel` of `folder` as [`output_stamp`] stamps it, and its content stamp, taken in
/// the same walk of it: a digest of what a copy keeps of everything under it (each path, its
/// kind, permissions and size, a file's bytes, a link's target text; not its times nor inodes),
/// to tell it unchanged in a copied folder, where the stamp's inodes are new (see
/// `BotHistory::follow_copy`). `known` gives the content stamp already taken of the output with
/// a stamp (the same inodes, sizes and times: the same files), which is then not read again. No
/// content stamp (`None`) when it is gone, a file changed while it was read, or its files' sizes
/// add up to more than what is left of `budget` (then nothing of it is read; else what is read is
/// taken from `budget`).
pub fn output_stamps(folder: &Path, rel: &str, budget: &mut u64, known: &KnownContent<'_>) -> (String, Option<String>) {
    stamp_output(folder, rel, Some((budget, known)))
}

/// The content stamp already taken of an output with the stamp given, if any (see
/// [`output_stamps`]).
pub type KnownContent<'a> = dyn Fn(&str) -> Option<String> + 'a;

/// [`output_stamp`], and with a budget the content stamp too (see [`output_stamps`]).
fn stamp_output(folder: &Path, rel: &str, budget: Option<(&mut u64, &KnownContent<'_>)>) -> (String, Option<String>) {
    let path = folder.join(rel);
    if std::fs::symlink_metadata(&path).is_err() {
        return (String::new(), None);
    }
    let mut hasher = blake3::Hasher::new();
    // (Walked whole first, the stamp taken, and its files read only if needed and their sizes fit.)
    let mut walked = Vec::new();
    for entry in walkdir::WalkDir::new(&path).follow_links(false).sort_by_file_name().into_iter().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        let sub = entry.path().strip_prefix(&path).unwrap_or(entry.path());
        hasher.update(sub.as_os_str().as_encoded_bytes());
        hasher.update(b"\0");
        let (secs, nanos, size, inode, is_dir) = facts(&meta);
        for n in [secs, nanos, size as i64, inode as i64, i64::from(is_dir)] {
            hasher.update(&n.to_le_bytes());
        }
        let target = meta.file_type().is_symlink().then(|| std::fs::read_link(entry.path()).unwrap_or_default());
        // A link by where it points too (only links add these bytes: other stamps are unchanged).
        if let Some(target) = &target {
            hasher.update(b"\0link\0");
            hasher.update(target.as_os_str().as_encoded_bytes());
        }
        if budget.is_some() {
            walked.push((entry.path().to_path_buf(), sub.to_path_buf(), meta, target));
        }
    }
    let stamp = hasher.finalize().to_hex()[..16].to_string();
    let Some((left, known)) = budget else { return (stamp, None) };
    if let Some(content) = known(&stamp) {
        return (stamp, Some(content));
    }
    // (Sparse files' sizes can pass u64 added up.)
    let files = walked.iter().filter(|(_, _, meta, _)| meta.is_file());
    let size = files.fold(0u64, |sum, (_, _, meta, _)| sum.saturating_add(meta.size()));
    if size > *left {
        return (stamp, None);
    }
    let mut content = blake3::Hasher::new();
    for (path, sub, meta, target) in &walked {
        if !content_facts(&mut content, path, sub, meta, target.as_deref(), left) {
            return (stamp, None);
        }
    }
    (stamp, Some(content.finalize().to_hex().to_string()))
}

/// Adds to `content` what a copy keeps of the entry `path` (`sub` under its output), as walked
/// (`meta`): its kind, permissions, size, and its bytes if a file (read from what was walked:
/// opened without following a link or waiting on a FIFO, and only if it is still that file, its
/// inode, size and time the same), or its `target` if a link. False where it could not be taken
/// whole, or its size passes what is `left` (taken from it).
fn content_facts(
    content: &mut blake3::Hasher,
    path: &Path,
    sub: &Path,
    meta: &std::fs::Metadata,
    target: Option<&Path>,
    left: &mut u64,
) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let kind: &[u8] = match meta.file_type() {
        t if t.is_dir() => b"d",
        t if t.is_file() => b"f",
        t if t.is_symlink() => b"l",
        _ => b"o",
    };
    content.update(sub.as_os_str().as_encoded_bytes());
    content.update(b"\0");
    content.update(kind);
    content.update(&(meta.mode() & 0o7777).to_le_bytes());
    if let Some(target) = target {
        content.update(target.as_os_str().as_encoded_bytes());
        content.update(b"\0");
    }
    if !meta.is_file() {
        return true;
    }
    if meta.size() > *left {
        return false;
    }
    *left -= meta.size();
    content.update(&meta.size().to_le_bytes());
    let opened = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path);
    let Ok(file) = opened else { return false };
    let same = |m: &std::fs::Metadata| m.is_file() && facts(m) == facts(meta);
    if !file.metadata().is_ok_and(|m| same(&m)) {
        return false;
    }
    let mut bytes = blake3::Hasher::new();
    let read = std::io::copy(&mut std::io::Read::take(&file, meta.size() + 1), &mut bytes);
    // (Read whole, as it was walked, and unchanged meanwhile.)
    if !read.is_ok_and(|n| n == meta.size()) || !file.metadata().is_ok_and(|m| same(&m)) {
        return false;
    }
    content.update(bytes.finalize().as_bytes());
    true
}

/// The paths that are new or changed from `before` to `after`; a new folder stands for
/// everything in it (a folder's own time changes whenever a file is added: only files count).
pub fn changed(before: &Stamp, after: &Stamp) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // (A folder comes before what is in it: a new one is known before its contents.)
    let mut new_folders: std::collections::HashSet<&Path> = std::collections::HashSet::new();
    for (path, facts) in after {
        if Path::new(path).ancestors().skip(1).any(|a| new_folders.contains(a)) {
            continue;
        }
        match before.get(path) {
            None => {
                out.push(path.clone());
                if facts.4 {
                    new_folders.insert(Path::new(path));
                }
            }
            Some(old) if old != facts && !facts.4 => out.push(path.clone()),
            _ => {}
        }
    }
    out
}

/// A short label for the submission in `folder`: its git commit, if it is in a git work tree.
///
/// Read from the repository's files, never by running git: git acts on a repository's own
/// configuration (`core.fsmonitor`, filters), which is the student's, and the arena may be
/// root. Only regular files are read (no symbolic links), and only a commit id comes out. The
/// repository is looked for from `folder` up to the league's folder `league` (see [`git_repo`]).
pub fn git_label(folder: &Path, league: Option<&Path>) -> Option<String> {
    git_state(folder, league).map(|state| state.label())
}

/// What a bot folder's repository says of it at one time: its commit, and git's index (see
/// [`git_label`], [`git_edits`]). Read before the bot's build, and told against its files after
/// it: a build without a box may write its `.git` (a student's wrote another commit's id into
/// its branch, which the league then published as the version graded).
pub struct GitState {
    /// The work tree.
    tree: PathBuf,
    /// The bot's folder (its real path, in `tree`).
    folder: Option<PathBuf>,
    /// The commit id.
    head: String,
    /// Git's index, if it could be read.
    index: Option<GitIndex>,
}

/// The git state of the bot folder `folder` now, if it is in a git work tree (see [`git_repo`]).
pub fn git_state(folder: &Path, league: Option<&Path>) -> Option<GitState> {
    let GitRepo { tree, gitdir, common } = git_repo(folder, league)?;
    let head = git_head(&gitdir, &common)?;
    let index = GitIndex::read(&gitdir.join("index"), head.len() / 2);
    Some(GitState { tree, folder: std::fs::canonicalize(folder).ok(), head, index })
}

impl GitState {
    /// The commit's short id, the label.
    pub fn label(&self) -> String {
        self.head[..7].to_string()
    }

    /// Whether `files` (the folder's, now) are not all the commit's (see [`git_edits`]).
    pub fn edits(&self, files: &Sources) -> bool {
        let (Some(index), Some(folder)) = (&self.index, &self.folder) else { return false };
        let Ok(prefix) = folder.strip_prefix(&self.tree) else { return false };
        let Some(prefix) = prefix.to_str() else { return true };
        let key = |rel: &str| if prefix.is_empty() { rel.to_string() } else { format!("{prefix}/{rel}") };
        for item in &files.items {
            let (rel, link) = match item {
                Item::File { rel, .. } => (rel, None),
                Item::Link { rel, target } => (rel, Some(target)),
                Item::Word { .. } => continue,
            };
            let Some(entry) = index.entries.get(&key(rel)) else { return true };
            if !entry.matches(&folder.join(rel), link.map(Vec::as_slice), index.hash_len, index.written) {
                return true;
            }
        }
        // A tracked file of the folder that is gone (one the league leaves out, and still there, is
        // no edit).
        // (Those under the folder are together in the index's order: `prefix/` up to `prefix0`.)
        let tracked: Box<dyn Iterator<Item = &String>> = if prefix.is_empty() {
            Box::new(index.entries.keys())
        } else {
            Box::new(index.entries.range(format!("{prefix}/")..format!("{prefix}0")).map(|(k, _)| k))
        };
        let mut probes = 0;
        tracked_gone(&self.tree, tracked.map(String::as_str), MAX_GONE_PROBES, &mut probes)
    }
}

/// The entries of the folder `folder` that hold its git metadata, for its build's box to show
/// read-only (see `sandbox::Launch::read_only`): its `.git` (a folder, or a file; a link too,
/// which the box refuses), and the entry holding the git folder (and its `commondir`) a `.git`
/// file names inside the folder (`gitdir: sub/x` gives `sub`: a deeper folder could be moved
/// away with whatever holds it, so the whole entry is kept; named through a link, the link's
/// entry too, which the box refuses). A git folder outside it is not in the box at all.
pub fn git_metadata(folder: &Path) -> Vec<PathBuf> {
    let dot_git = folder.join(".git");
    let Ok(meta) = std::fs::symlink_metadata(&dot_git) else { return Vec::new() };
    let mut out = vec![PathBuf::from(".git")];
    if !meta.is_file() {
        return out;
    }
    let Ok(real) = std::fs::canonicalize(folder) else { return out };
    let Some(named) = plain_file(&dot_git).and_then(|t| t.trim().strip_prefix("gitdir: ").map(PathBuf::from)) else {
        return out;
    };
    // The first entry of a path below the folder (`.` steps skipped).
    let first = |rel: &Path| match rel.components().find(|c| *c != std::path::Component::CurDir) {
        Some(std::path::Component::Normal(name)) => Some(PathBuf::from(name)),
        _ => None,
    };
    let gitdir = folder.join(&named);
    let common = plain_file(&gitdir.join("commondir")).map(|text| gitdir.join(text.trim()));
    // As written (its first entry may be a link), and as each resolves.
    let written = if named.is_absolute() { named.strip_prefix(folder).ok().and_then(first) } else { first(&named) };
    let resolved = std::iter::once(gitdir).chain(common).filter_map(|path| {
        std::fs::canonicalize(path).ok().and_then(|path| path.strip_prefix(&real).ok().and_then(first))
    });
    for entry in written.into_iter().chain(resolved) {
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// The folder holding the refs of the git folder `gitdir`: a linked work tree keeps its HEAD in
/// its own folder and the refs in the common one its `commondir` names.
fn common_dir(gitdir: &Path) -> PathBuf {
    match plain_file(&gitdir.join("commondir")) {
        Some(text) => gitdir.join(text.trim()),
        None => gitdir.to_path_buf(),
    }
}

/// The commit id (40 or 64 hex digits) of the HEAD of the git folder `gitdir`, whose refs are in
/// `common` (see [`common_dir`]).
fn git_head(gitdir: &Path, common: &Path) -> Option<String> {
    let head = plain_file(&gitdir.join("HEAD"))?;
    let id = match head.trim().strip_prefix("ref: ") {
        None => head.trim().to_string(),
        Some(name) if name.starts_with("refs/") && !name.split('/').any(|part| part == "..") => {
            match unlinked(common, name).and_then(|path| plain_file(&path)) {
                Some(text) => text.trim().to_string(),
                None => plain_file(&common.join("packed-refs"))?
                    .lines()
                    .find_map(|line| line.strip_suffix(name).map(|id| id.trim().to_string()))?,
            }
        }
        Some(_) => return None,
    };
    let is_id = matches!(id.len(), 40 | 64) && id.bytes().all(|b| b.is_ascii_hexdigit());
    is_id.then_some(id)
}

/// A git work tree, its git folder and the folder of its refs (real paths, links resolved, as
/// git sees them).
struct GitRepo {
    tree: PathBuf,
    gitdir: PathBuf,
    common: PathBuf,
}

/// The work tree holding `folder` and its git folder, looked for from `folder` up to the deepest
/// folder holding both it and `league` (the config's folder: the course's), and never in a folder
/// above `folder` that another user than `folder`'s owner owns or that anyone may write (`/tmp`):
/// a dotfiles repository in `$HOME`, or a `.git` another user made in `/tmp`, gave a bot folder
/// with no git of its own that repository's commit, `+ edits`. Without `league`, only `folder`
/// itself is looked in. The git folder (and its `commondir`) must be in the work tree or in the
/// `.git` of a folder looked in (a submodule's, `../.git/modules/…`): a student's `.git` file
/// holding `gitdir: ../bob/.git` (or `/tmp/x`) had the arena read another student's repository,
/// or one anyone may write, and publish its commit as the student's label.
fn git_repo(folder: &Path, league: Option<&Path>) -> Option<GitRepo> {
    use std::os::unix::fs::MetadataExt;
    let folder = std::fs::canonicalize(folder).ok()?;
    let top = match league.and_then(|l| std::fs::canonicalize(l).ok()) {
        Some(league) => folder.ancestors().find(|dir| league.starts_with(dir))?,
        None => &folder,
    };
    let owner = std::fs::metadata(&folder).ok()?.uid();
    // The folders a repository may be found in, from `folder` up.
    let mut trusted: Vec<&Path> = Vec::new();
    for dir in folder.ancestors() {
        if dir != folder {
            let meta = std::fs::symlink_metadata(dir).ok()?;
            if meta.uid() != owner || meta.mode() & 0o002 != 0 {
                break;
            }
        }
        trusted.push(dir);
        if dir == top {
            break;
        }
    }
    let (dir, gitdir) = trusted.iter().find_map(|dir| Some((dir, git_dir(&dir.join(".git"))?)))?;
    let common = common_dir(&gitdir);
    let within = |path: &Path| {
        std::fs::canonicalize(path)
            .ok()
            .filter(|real| real.starts_with(dir) || trusted.iter().any(|t| real.starts_with(t.join(".git"))))
    };
    Some(GitRepo { tree: dir.to_path_buf(), gitdir: within(&gitdir)?, common: within(&common)? })
}

/// Whether the submission `files` of the git work tree holding `folder` (the bot's folder, which
/// `files` are relative to) are not all its last commit's, as far as the repository's index
/// tells: a file of the submission git does not track (even one `.gitignore` names: the commit
/// alone does not give the version), one whose content is not the index's, or a tracked file of
/// the folder gone. Read from the index file, never by running git (see [`git_label`]): each file
/// whose size and time are the index's is taken as it (as git takes it), any other is hashed as
/// git hashes it. Changes staged and not committed are not seen (HEAD's tree is in git's object
/// store); an index that cannot be read says nothing (`false`). The repository is
/// [`git_label`]'s (see [`git_repo`]).
pub fn git_edits(folder: &Path, league: Option<&Path>, files: &Sources) -> bool {
    git_state(folder, league).is_some_and(|state| state.edits(files))
}

/// The most paths [`git_edits`] looks up to tell whether a tracked file is gone: a crafted
/// index (up to [`MAX_INDEX_BYTES`]) named a million paths there, as many `stat` calls for a
/// label. Beyond it, the files are not told to be the commit's: `+ edits`.
const MAX_GONE_PROBES: usize = 4 * MAX_FILES;

/// Whether one of the `tracked` paths of the work tree `tree` is gone, or telling would take
/// more than `most` lookups (`probes` counts them). Looked up only below real folders, as git
/// does: a tracked path behind a link the student made is gone, so the label never depends on
/// the files the link leads to; each folder is looked up once.
fn tracked_gone<'a>(tree: &Path, tracked: impl Iterator<Item = &'a str>, most: usize, probes: &mut usize) -> bool {
    let mut real_folders: std::collections::HashSet<&'a str> = std::collections::HashSet::new();
    let mut probe = |path: &str| {
        *probes += 1;
        (*probes <= most).then(|| std::fs::symlink_metadata(tree.join(path)).ok())
    };
    for path in tracked {
        // Each folder on its way (the shortest first), then the path itself.
        let folders = path.match_indices('/').map(|(at, _)| &path[..at]);
        for folder in folders {
            if real_folders.contains(folder) {
                continue;
            }
            match probe(folder) {
                None => return true,
                Some(Some(meta)) if meta.is_dir() => {
                    real_folders.insert(folder);
                }
                Some(_) => return true,
            }
        }
        if !matches!(probe(path), Some(Some(_))) {
            return true;
        }
    }
    false
}

/// The most of a git index [`GitIndex::read`] reads, and the most its names may take decoded (a
/// version 4 index gives each name as a change to the one before: a file of a few MiB could
/// otherwise name millions of ever longer paths, gigabytes of them).
const MAX_INDEX_BYTES: usize = 64 << 20;

/// The longest path an index entry may name (Linux's `PATH_MAX`).
const MAX_INDEX_NAME: usize = 4096;

/// The entries of a git index file (`.git/index`, versions 2 to 4), as [`git_edits`] needs them.
struct GitIndex {
    entries: BTreeMap<String, GitEntry>,
    /// When the index file was written: an entry whose file's time is not before it may have
    /// changed within the same tick of the clock without its time or size changing.
    written: (u32, u32),
    /// The length of an object id: 20 (SHA-1) or 32 (SHA-256).
    hash_len: usize,
}

/// One file of a git index: its mode, size and time as git last saw it, and its blob's id.
struct GitEntry {
    mode: u32,
    size: u32,
    mtime: (u32, u32),
    id: Vec<u8>,
    /// Anything but a plain entry: a conflict, or a file git is told not to look at.
    unusual: bool,
}

impl GitEntry {
    /// Whether the file at `path` (a link to `link`, for a link) is this entry's content.
    fn matches(&self, path: &Path, link: Option<&[u8]>, hash_len: usize, written: (u32, u32)) -> bool {
        let is_link = self.mode & 0o170000 == 0o120000;
        if self.unusual || is_link != link.is_some() {
            return false;
        }
        let Ok(meta) = std::fs::symlink_metadata(path) else { return false };
        let (sec, nsec) = (meta.mtime() as u32, meta.mtime_nsec() as u32);
        // (As git does: a file as old as the index itself is "racily clean", its content read.)
        if !is_link && meta.size() as u32 == self.size && (sec, nsec) == self.mtime && self.mtime < written {
            return true;
        }
        if hash_len != 20 {
            return false;
        }
        use sha1::Digest;
        let mut sha = sha1::Sha1::new();
        match link {
            Some(target) => {
                sha.update(format!("blob {}\0", target.len()).as_bytes());
                sha.update(target);
            }
            // (Hashed as it is read, as `hash_file` hashes: a file may be hundreds of MiB.)
            None => {
                use std::io::Read;
                let Some(file) = crate::files::open_regular(path).ok().flatten() else { return false };
                sha.update(format!("blob {}\0", meta.len()).as_bytes());
                if std::io::copy(&mut file.take(MAX_FINGERPRINTED_BYTES), &mut ShaWriter(&mut sha)).ok()
                    != Some(meta.len())
                {
                    return false;
                }
            }
        }
        sha.finalize().as_slice() == self.id.as_slice()
    }
}

/// What is written to it goes into a SHA-1 (digest 0.11's hashers are no `io::Write`), so that
/// [`GitEntry::matches`] hashes a file with `std::io::copy`, as [`hash_file`] does.
struct ShaWriter<'a>(&'a mut sha1::Sha1);

impl std::io::Write for ShaWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        sha1::Digest::update(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl GitIndex {
    /// The index file at `path` (of a repository whose object ids are `hash_len` bytes), if it
    /// is a regular file of a version this reads.
    /// Not through a symbolic link (git makes none there): `index` a link to `/proc/kmsg` had a
    /// root arena read, and so take, the host's kernel messages, and a link anywhere had it read
    /// any file of the host for a label.
    fn read(path: &Path, hash_len: usize) -> Option<GitIndex> {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let mut bytes = Vec::new();
        let flags = libc::O_NONBLOCK | libc::O_NOFOLLOW;
        let file = std::fs::OpenOptions::new().read(true).custom_flags(flags).open(path).ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() > MAX_INDEX_BYTES as u64 {
            return None;
        }
        file.take(MAX_INDEX_BYTES as u64).read_to_end(&mut bytes).ok()?;
        let written = (meta.mtime() as u32, meta.mtime_nsec() as u32);
        Self::parse(&bytes, hash_len).map(|index| GitIndex { written, ..index })
    }

    fn parse(bytes: &[u8], hash_len: usize) -> Option<GitIndex> {
        let u32_at = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        let u16_at = |at: usize| Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
        if bytes.get(..4)? != b"DIRC" {
            return None;
        }
        let version = u32_at(4)?;
        if !(2..=4).contains(&version) {
            return None;
        }
        let count = u32_at(8)? as usize;
        let mut at = 12;
        let mut entries = BTreeMap::new();
        let mut previous: Vec<u8> = Vec::new();
        let mut names = 0usize;
        for _ in 0..count {
            let start = at;
            let mtime = (u32_at(at + 8)?, u32_at(at + 12)?);
            let mode = u32_at(at + 24)?;
            let size = u32_at(at + 36)?;
            let id = bytes.get(at + 40..at + 40 + hash_len)?.to_vec();
            at += 40 + hash_len;
            let flags = u16_at(at)?;
            at += 2;
            let mut unusual = flags & 0x3000 != 0;
            if flags & 0x4000 != 0 {
                if version < 3 {
                    return None;
                }
                // (Skip-worktree, intent-to-add.)
                unusual |= u16_at(at)? & 0x6000 != 0;
                at += 2;
            }
            let name = if version == 4 {
                // The name: N bytes off the end of the previous one, then this one's rest.
                let mut c = *bytes.get(at)?;
                at += 1;
                let mut strip = usize::from(c & 127);
                while c & 128 != 0 {
                    c = *bytes.get(at)?;
                    at += 1;
                    strip = strip.checked_add(1)?.checked_mul(128)? + usize::from(c & 127);
                }
                let end = at + bytes.get(at..)?.iter().position(|&b| b == 0)?;
                let mut name = previous.get(..previous.len().checked_sub(strip)?)?.to_vec();
                name.extend_from_slice(&bytes[at..end]);
                at = end + 1;
                name
            } else {
                let end = at + bytes.get(at..)?.iter().position(|&b| b == 0)?;
                let name = bytes[at..end].to_vec();
                // (Padded with 1 to 8 NULs to a multiple of 8 bytes.)
                at = start + (end - start + 8) / 8 * 8;
                name
            };
            // (Git refuses these too: none names a file of the work tree.)
            names += name.len();
            if name.len() > MAX_INDEX_NAME || names > MAX_INDEX_BYTES || !plain_relative(&name) {
                return None;
            }
            previous.clone_from(&name);
            entries.insert(String::from_utf8(name).ok()?, GitEntry { mode, size, mtime, id, unusual });
        }
        (at + hash_len <= bytes.len()).then_some(GitIndex { entries, written: (0, 0), hash_len })
    }
}

/// Whether `name` (an index entry's path) is a path inside the work tree: not empty, not
/// absolute, no empty, `.` or `..` part.
fn plain_relative(name: &[u8]) -> bool {
    name.split(|&b| b == b'/').all(|part| !matches!(part, b"" | b"." | b".."))
}

/// The git folder `.git` names: the folder itself, or the one a `gitdir: PATH` file points to.
fn git_dir(dot_git: &Path) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git.to_path_buf());
    }
    let text = plain_file(dot_git)?;
    let target = PathBuf::from(text.trim().strip_prefix("gitdir: ")?);
    let target = dot_git.parent()?.join(target);
    std::fs::symlink_metadata(&target).ok()?.is_dir().then_some(target)
}

/// `name` (a ref, `refs/heads/main`) in the git folder `common`, when none of the folders on the
/// way below `common` is a symbolic link. A student's `.git/refs` made a link to `/proc` and
/// `HEAD` holding `ref: refs/kmsg` had a root arena read the host's kernel log for a label, and
/// wait there for good: the league hung before its first match. Git makes no such link.
fn unlinked(common: &Path, name: &str) -> Option<PathBuf> {
    let mut path = common.to_path_buf();
    let mut parts = name.split('/').filter(|p| !p.is_empty()).peekable();
    while let Some(part) = parts.next() {
        path.push(part);
        if parts.peek().is_some() && !std::fs::symlink_metadata(&path).ok()?.is_dir() {
            return None;
        }
    }
    Some(path)
}

/// A small regular file's text (`None` for a symbolic link, anything else or a large file),
/// opened without waiting (see [`crate::files::open_regular`]): a file of `/proc` is regular
/// too, and `/proc/kmsg` waits for the kernel's next message unless opened so.
fn plain_file(path: &Path) -> Option<String> {
    use std::io::Read;
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    let mut text = String::new();
    crate::files::open_regular(path).ok()??.take(1 << 20).read_to_string(&mut text).ok()?;
    Some(text)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The entries of a folder that hold its git metadata, for its build's box: its `.git`
    /// (a folder, a file, a link: the box refuses that), and the entry holding the git folder a
    /// `.git` file names inside the folder (and its `commondir`), as written and as resolved;
    /// nothing for one outside it, nor for a folder without `.git`.
    #[test]
    fn a_folder_s_git_metadata_is_its_git_and_what_its_git_file_names_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("alice");
        std::fs::create_dir_all(folder.join("sub/x")).unwrap();
        std::fs::create_dir_all(folder.join("common")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        let names = |names: &[&str]| names.iter().map(PathBuf::from).collect::<Vec<_>>();
        assert!(git_metadata(&folder).is_empty());
        std::fs::create_dir(folder.join(".git")).unwrap();
        assert_eq!(git_metadata(&folder), names(&[".git"]));
        std::fs::remove_dir(folder.join(".git")).unwrap();
        let gitfile = |text: &str| std::fs::write(folder.join(".git"), text).unwrap();
        gitfile("gitdir: ./sub/x\n");
        assert_eq!(git_metadata(&folder), names(&[".git", "sub"]));
        std::fs::write(folder.join("sub/x/commondir"), "../../common\n").unwrap();
        assert_eq!(git_metadata(&folder), names(&[".git", "sub", "common"]));
        gitfile(&format!("gitdir: {}\n", folder.join("sub/x").display()));
        assert_eq!(git_metadata(&folder), names(&[".git", "sub", "common"]));
        gitfile("gitdir: ../outside\n");
        assert_eq!(git_metadata(&folder), names(&[".git"]));
        std::os::unix::fs::symlink("sub", folder.join("link")).unwrap();
        gitfile("gitdir: link/x\n");
        assert_eq!(git_metadata(&folder), names(&[".git", "link", "sub", "common"]));
        std::fs::remove_file(folder.join(".git")).unwrap();
        std::os::unix::fs::symlink("sub/x", folder.join(".git")).unwrap();
        assert_eq!(git_metadata(&folder), names(&[".git"]));
    }

    /// Runs git in `dir` (for setting up repositories; never what the arena does).
    pub(in crate::tournament) fn git(dir: &Path, args: &[&str]) -> std::process::Output {
        std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs")
    }

    /// A bot's folder (a folder of a repository) whose files are not all its commit's is told
    /// from git's index, versions 2 and 4: a file edited (its size the same), a file git does not
    /// track, a tracked file gone; a file rewritten as it was, or another folder's change, is no
    /// edit. The control: `git status` on the folder says the same each time.
    #[test]
    fn edits_to_a_bot_s_folder_since_its_commit_are_told_from_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let folder = repo.join("alice");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::create_dir_all(repo.join("other")).unwrap();
        std::fs::write(folder.join("bot.sh"), "echo WAIT\n").unwrap();
        std::fs::write(folder.join("lib.sh"), "A\n").unwrap();
        std::fs::write(repo.join("other/x"), "1\n").unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-qm", "one"]);
        let b = bot(&folder, "sh bot.sh");
        let edits = || {
            let files = sources(&b, None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new()).unwrap();
            git_edits(&folder, Some(dir.path()), &files)
        };
        let status = || !git(&folder, &["status", "--porcelain", "--", "."]).stdout.is_empty();
        let both = || (edits(), status());
        for version in ["2", "4"] {
            git(&repo, &["update-index", "--index-version", version]);
            assert_eq!(both(), (false, false), "index v{version}");
            std::fs::write(folder.join("lib.sh"), "A\n").unwrap();
            assert_eq!(both(), (false, false), "rewritten as it was, v{version}");
            std::fs::write(folder.join("lib.sh"), "B\n").unwrap();
            assert_eq!(both(), (true, true), "edited, v{version}");
            std::fs::write(folder.join("lib.sh"), "A\n").unwrap();
            std::fs::write(folder.join("new.sh"), "N\n").unwrap();
            assert_eq!(both(), (true, true), "untracked, v{version}");
            std::fs::remove_file(folder.join("new.sh")).unwrap();
            std::fs::remove_file(folder.join("lib.sh")).unwrap();
            assert_eq!(both(), (true, true), "deleted, v{version}");
            std::fs::write(folder.join("lib.sh"), "A\n").unwrap();
            std::fs::write(repo.join("other/x"), "2\n").unwrap();
            assert_eq!(both(), (false, false), "another folder's change, v{version}");
            std::fs::write(repo.join("other/x"), "1\n").unwrap();
        }
        // Not a repository: nothing to tell.
        let plain = dir.path().join("plain");
        std::fs::create_dir(&plain).unwrap();
        std::fs::write(plain.join("bot.sh"), "echo WAIT\n").unwrap();
        let files =
            sources(&bot(&plain, "sh bot.sh"), None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new());
        assert!(!git_edits(&plain, Some(dir.path()), &files.unwrap()));
    }

    /// A git index file of `version` holding `entries` (for version 4, each name as (bytes to
    /// strip off the one before, the rest)), with a checksum's room.
    fn index_file(version: u32, entries: &[(usize, &[u8], &GitEntry)]) -> Vec<u8> {
        let mut bytes = b"DIRC".to_vec();
        bytes.extend(version.to_be_bytes());
        bytes.extend((entries.len() as u32).to_be_bytes());
        for (strip, name, e) in entries {
            let start = bytes.len();
            bytes.extend([0u8; 8]);
            bytes.extend(e.mtime.0.to_be_bytes());
            bytes.extend(e.mtime.1.to_be_bytes());
            bytes.extend([0u8; 8]);
            bytes.extend(e.mode.to_be_bytes());
            bytes.extend([0u8; 8]);
            bytes.extend(e.size.to_be_bytes());
            bytes.extend_from_slice(&e.id);
            bytes.extend((name.len().min(0xfff) as u16).to_be_bytes());
            if version == 4 {
                assert!(*strip < 128);
                bytes.push(*strip as u8);
                bytes.extend_from_slice(name);
                bytes.push(0);
            } else {
                bytes.extend_from_slice(name);
                bytes.resize(start + (bytes.len() - start + 8) / 8 * 8, 0);
            }
        }
        bytes.extend([0u8; 20]);
        bytes
    }

    /// An entry of a plain empty file.
    fn blank() -> GitEntry {
        GitEntry { mode: 0o100644, size: 0, mtime: (0, 0), id: vec![0; 20], unusual: false }
    }

    /// `names` (strip, rest), each a blank entry.
    fn blanks<'a>(names: &[(usize, &'a [u8])], e: &'a GitEntry) -> Vec<(usize, &'a [u8], &'a GitEntry)> {
        names.iter().map(|&(strip, name)| (strip, name, e)).collect()
    }

    /// A version 4 index whose names each add a byte to the one before (64 bytes an entry, names
    /// of quadratic length: 1 MiB of it named 128 MiB, 10 MiB of it 12 GiB) is not read once a
    /// name is longer than a path can be, nor once its names together pass what the largest index
    /// read holds; the control: as many names, compressed as git does, are read, and so are the
    /// longest names a path may have.
    #[test]
    fn a_version_4_index_cannot_name_more_than_its_paths_can_hold() {
        let e = blank();
        let growing: Vec<(usize, &[u8])> = (0..MAX_INDEX_NAME + 1).map(|_| (0, &b"a"[..])).collect();
        let file = |names: &[(usize, &[u8])]| index_file(4, &blanks(names, &e));
        assert!(file(&growing).len() < 300 << 10);
        assert!(GitIndex::parse(&file(&growing), 20).is_none(), "a name past PATH_MAX");
        let fits = &growing[..MAX_INDEX_NAME];
        assert_eq!(GitIndex::parse(&file(fits), 20).map(|i| i.entries.len()), Some(MAX_INDEX_NAME));
        // Names of 4000 bytes, each one byte apart: 1 MiB of index, past 64 MiB of names.
        let long = vec![b'a'; 3999];
        let first = [long.as_slice(), b"0"].concat();
        let many = MAX_INDEX_BYTES / 4000 + 1;
        let names: Vec<(usize, &[u8])> = std::iter::once((0, first.as_slice()))
            .chain((1..many).map(|i| (1, if i % 2 == 0 { &b"0"[..] } else { &b"1"[..] })))
            .collect();
        let bytes = file(&names);
        assert!(bytes.len() < 2 << 20, "{}", bytes.len());
        assert!(GitIndex::parse(&bytes, 20).is_none(), "names past MAX_INDEX_BYTES");
        // The control: git's own compression of many names.
        let plain: Vec<Vec<u8>> = (0..20_000).map(|i| format!("bots/alice/src/file{i:05}.py").into_bytes()).collect();
        let names: Vec<(usize, &[u8])> =
            plain.iter().enumerate().map(|(i, n)| if i == 0 { (0, &n[..]) } else { (8, &n[n.len() - 8..]) }).collect();
        let index = GitIndex::parse(&file(&names), 20).expect("read");
        assert!(index.entries.contains_key("bots/alice/src/file19999.py"), "{:?}", index.entries.keys().last());
        assert_eq!(index.entries.len(), 20_000);
    }

    /// An index's paths never look outside the bot's folder: one that names `..`, or a path
    /// behind a link the student made to another folder, is read the same whether that folder's
    /// file exists or not (the label `+ edits` told the student, on the leaderboard, whether a
    /// file of the teacher's existed). The control: the paths lead there, and the entries read
    /// as plain ones are.
    #[test]
    fn an_index_s_paths_never_probe_outside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let folder = repo.join("alice");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::create_dir(dir.path().join("secret")).unwrap();
        std::fs::write(folder.join("bot.sh"), "echo WAIT\n").unwrap();
        std::os::unix::fs::symlink("../../secret", folder.join("link")).unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-qm", "one"]);
        // The index git wrote, its entries read by this reader, and one more entry appended.
        let index = std::fs::read(repo.join(".git/index")).unwrap();
        let plain = GitIndex::parse(&index, 20).expect("git's own index");
        let b = bot(&folder, "sh bot.sh");
        let files = sources(&b, None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new()).unwrap();
        assert!(!git_edits(&folder, Some(dir.path()), &files), "as committed");
        let e = blank();
        for name in ["alice/link/key", "alice/../../secret/key"] {
            let mut entries: Vec<(usize, &[u8], &GitEntry)> =
                plain.entries.iter().map(|(k, v)| (0, k.as_bytes(), v)).collect();
            entries.push((0, name.as_bytes(), &e));
            let crafted = index_file(2, &entries);
            let _ = std::fs::remove_file(dir.path().join("secret/key"));
            std::fs::write(repo.join(".git/index"), &crafted).unwrap();
            let absent = git_edits(&folder, Some(dir.path()), &files);
            std::fs::write(dir.path().join("secret/key"), "k").unwrap();
            assert!(std::fs::symlink_metadata(repo.join(name)).is_ok(), "the control: {name} leads to the file");
            let present = git_edits(&folder, Some(dir.path()), &files);
            assert_eq!(absent, present, "{name}: the label tells whether the file exists");
        }
        assert!(plain.entries.contains_key("alice/link"), "the control: the link itself is an entry");
    }

    /// `.git/index` a symbolic link is not read (git makes none): to `/proc/kmsg`, a root arena
    /// took the host's kernel messages. The control: the same file in its place is read.
    #[test]
    fn an_index_that_is_a_link_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("elsewhere");
        std::fs::write(&file, index_file(2, &[(0, b"bot.sh", &blank())])).unwrap();
        std::os::unix::fs::symlink(&file, dir.path().join("index")).unwrap();
        assert!(GitIndex::read(&dir.path().join("index"), 20).is_none());
        assert!(GitIndex::read(&file, 20).is_some(), "the control: the file itself");
        // Nor a FIFO, a folder or a device.
        assert!(std::process::Command::new("mkfifo").arg(dir.path().join("fifo")).status().unwrap().success());
        assert!(GitIndex::read(&dir.path().join("fifo"), 20).is_none());
        assert!(GitIndex::read(dir.path(), 20).is_none());
        assert!(GitIndex::read(Path::new("/dev/zero"), 20).is_none());
    }

    /// A file of more than one read's block is hashed as git hashes it (its id, `git
    /// hash-object`): read a block at a time, it is the same file.
    #[test]
    fn a_large_file_is_hashed_as_git_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        let content: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &content).unwrap();
        let out = git(dir.path(), &["hash-object", "big"]);
        let hex = String::from_utf8(out.stdout).unwrap();
        let id: Vec<u8> = (0..20).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
        let entry = |id: Vec<u8>| GitEntry { mode: 0o100644, size: 0, mtime: (0, 0), id, unusual: false };
        assert!(entry(id.clone()).matches(&path, None, 20, (0, 0)));
        let mut other = id;
        other[0] ^= 1;
        assert!(!entry(other).matches(&path, None, 20, (0, 0)), "the control: another id");
    }

    #[test]
    fn bots_that_can_read_each_others_files_or_the_config_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("subs");
        for d in ["subs/alice", "bob", "carol"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        for f in ["subs/x.py", "subs/y.py", "subs/alice/bot.py"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let script = |name: &str, file: &str| BotEntry {
            cwd: None,
            ..super::super::config::parse_bot_arg(&format!("{name}=python3 {}", dir.path().join(file).display()))
                .unwrap()
        };
        let own = |name: &str, dir: PathBuf| BotEntry { name: name.to_string(), ..bot(&dir, "./bot") };
        let bots = [
            script("x", "subs/x.py"),
            script("y", "subs/y.py"),
            own("alice", shared.join("alice")),
            own("bob", dir.path().join("bob")),
            own("carol", dir.path().join("carol")),
        ];
        let league = dir.path().join("league");
        let said = overlaps(&bots, Some(&shared), true, &league);
        assert_eq!(said.len(), 4, "{said:#?}");
        assert!(said.iter().any(|s| s.contains("`x` and `y` share")), "{said:#?}");
        assert!(said.iter().any(|s| s.contains("the folder of bots `x`, `y` holds bot `alice`'s")), "{said:#?}");
        assert!(said.iter().filter(|s| s.contains("the config's folder")).count() == 2, "x and y see the config");
        assert!(!said.iter().any(|s| s.contains("bob") || s.contains("carol")), "own folders: {said:#?}");
        assert!(overlaps(&bots[3..], Some(&shared), true, &league).is_empty());
        // Without a secret, the config holds none: only the league's folder does, here outside.
        assert!(overlaps(&bots[..1], Some(&shared), false, &league).is_empty());
    }

    /// A script beside a class's folders (no `cwd`) holds every student's: said in one line
    /// naming them all, not one line per student on every run; so are the bots sharing one
    /// folder. The control: each pair is still found (a bot that holds none is not named).
    #[test]
    fn a_folder_holding_many_bots_is_said_once() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        let names = ["alice", "bob", "carol", "dave"];
        for n in names {
            std::fs::create_dir_all(class.join("bots").join(n)).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("erin")).unwrap();
        for f in ["gina.py", "hal.py", "ian.py"] {
            std::fs::write(class.join(f), "").unwrap();
        }
        let script = |name: &str| BotEntry {
            cwd: None,
            ..super::super::config::parse_bot_arg(&format!(
                "{name}=python3 {}",
                class.join(format!("{name}.py")).display()
            ))
            .unwrap()
        };
        let own = |name: &str, dir: PathBuf| BotEntry { name: name.to_string(), ..bot(&dir, "./bot") };
        let mut bots: Vec<BotEntry> = names.iter().map(|n| own(n, class.join("bots").join(n))).collect();
        bots.push(own("erin", dir.path().join("erin")));
        bots.push(script("gina"));
        let league = dir.path().join("league");
        let said = overlaps(&bots, None, false, &league);
        assert_eq!(
            said,
            ["bot `gina`'s folder holds those of bots `alice`, `bob`, `carol`, `dave`: `gina` can read their files, \
                 and each change to them (but what the league's builds write) is a new version of it, its matches \
                 played again (give each its own `cwd`)"],
        );
        assert!(overlaps(&bots[..5], None, false, &league).is_empty(), "the control: none holds another");
        bots.push(script("hal"));
        bots.push(script("ian"));
        let said = overlaps(&bots, None, false, &league);
        assert_eq!(said.len(), 2, "{said:#?}");
        assert!(said[0].starts_with("bots `gina`, `hal` and `ian` share "), "{said:#?}");
        assert!(
            said[1].starts_with("the folder of bots `gina`, `hal`, `ian` holds those of bots `alice`, `bob`"),
            "{said:#?}"
        );
    }

    /// A starter kit's league: the student's script beside the config, the league under its
    /// `replays/`, the sample bots: said nothing, though the script reads the league's drawn
    /// secret, as no other bot's seed is worth working out. The controls: with a classmate's
    /// bot in the league, or a `secret` in the config, it is said, with what to change.
    #[test]
    fn a_starter_kit_s_league_is_not_told_its_bot_reads_the_config() {
        let dir = tempfile::tempdir().unwrap();
        let kit = dir.path().join("mybot");
        let league = kit.join("replays/league-1");
        std::fs::create_dir_all(&league).unwrap();
        std::fs::create_dir_all(dir.path().join("carol")).unwrap();
        std::fs::write(kit.join("bot.py"), "").unwrap();
        std::fs::write(dir.path().join("carol/bot.py"), "").unwrap();
        let script = |name: &str, file: PathBuf| {
            super::super::config::parse_bot_arg(&format!("{name}=python3 {}", file.display())).unwrap()
        };
        let sample = |name: &str, arena: &str| BotEntry {
            name: name.to_string(),
            command: format!("{arena} bot {name}"),
            cwd: None,
            build: None,
            files: Vec::new(),
            ignore: Vec::new(),
        };
        let own = std::env::current_exe().unwrap().display().to_string();
        let mut bots = vec![script("mybot", kit.join("bot.py")), sample("greedy", "arena"), sample("reference", &own)];
        assert!(overlaps(&bots, Some(&kit), false, &league).is_empty());
        // The controls.
        let said = overlaps(&bots, Some(&kit), true, &league);
        assert_eq!(said.len(), 1, "{said:#?}");
        assert!(said[0].contains("bot `mybot` can read the config's folder") && said[0].contains("its `secret`"));
        assert!(said[0].contains("or the bot's files in a folder of their own, its `cwd`"), "{}", said[0]);
        bots.push(script("carol", dir.path().join("carol/bot.py")));
        let said = overlaps(&bots, Some(&kit), false, &league);
        assert_eq!(said.len(), 1, "{said:#?}");
        assert!(
            said[0].contains("bot `mybot` can read the league's folder") && said[0].contains("the secret kept there")
        );
        assert!(said[0].contains("could work out the other bots'"), "{}", said[0]);
    }

    #[test]
    fn the_git_label_is_read_without_running_the_students_git_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("alice");
        std::fs::create_dir(&repo).unwrap();
        git(&repo, &["init", "-q"]);
        std::fs::write(repo.join("bot.py"), "print('WAIT')\n").unwrap();
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-qm", "one"]);
        let head = String::from_utf8(git(&repo, &["rev-parse", "HEAD"]).stdout).unwrap();
        // The attack: a command git runs by itself, from the repository's own configuration.
        let marker = dir.path().join("pwned");
        let hook = format!("touch {}", marker.display());
        git(&repo, &["config", "core.fsmonitor", &hook]);
        assert_eq!(git_label(&repo, None), Some(head[..7].to_string()));
        std::fs::create_dir(repo.join("sub-folder")).unwrap();
        assert_eq!(git_label(&repo.join("sub-folder"), Some(&repo)), Some(head[..7].to_string()));
        assert!(!marker.exists(), "reading the label ran nothing");
        // The control: git itself runs it.
        git(&repo, &["status", "--porcelain"]);
        assert!(marker.exists(), "the control: `git status` runs the repository's fsmonitor");
        // Packed refs, and a detached HEAD.
        git(&repo, &["pack-refs", "--all"]);
        assert_eq!(git_label(&repo, None), Some(head[..7].to_string()), "from packed-refs");
        std::fs::write(repo.join(".git/HEAD"), &head).unwrap();
        assert_eq!(git_label(&repo, None), Some(head[..7].to_string()), "detached");
        // A HEAD that is a link elsewhere, or not a commit id, gives no label.
        std::fs::remove_file(repo.join(".git/HEAD")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", repo.join(".git/HEAD")).unwrap();
        assert_eq!(git_label(&repo, None), None);
        std::fs::remove_file(repo.join(".git/HEAD")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/../../../etc/passwd\n").unwrap();
        assert_eq!(git_label(&repo, None), None);
        assert_eq!(git_label(dir.path(), None), None, "not a repository");
    }

    /// A student's `.git/refs` is a link out of the repository, and its `HEAD` names a ref through
    /// it: the label is none, and nothing there is read (a root arena read `/proc/kmsg` this way
    /// and waited for good). The control: read through the link, the file gives its commit id.
    #[test]
    fn a_ref_reached_through_a_link_out_of_the_repository_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let (repo, outside) = (dir.path().join("alice"), dir.path().join("elsewhere"));
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(outside.join("heads")).unwrap();
        let id = "0123456789abcdef0123456789abcdef01234567";
        std::fs::write(outside.join("heads/main"), format!("{id}\n")).unwrap();
        std::os::unix::fs::symlink(&outside, repo.join(".git/refs")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(git_label(&repo, None), None);
        // The control: the ref's file read as it is named, through the link.
        assert_eq!(plain_file(&repo.join(".git/refs/heads/main")).as_deref(), Some(&*format!("{id}\n")));
        // A ref of a folder of the repository's own is read as before.
        std::fs::remove_file(repo.join(".git/refs")).unwrap();
        std::fs::create_dir_all(repo.join(".git/refs/heads")).unwrap();
        std::fs::write(repo.join(".git/refs/heads/main"), format!("{id}\n")).unwrap();
        assert_eq!(git_label(&repo, None).as_deref(), Some("0123456"));
    }

    /// A student's `.git` file (or `commondir`) naming another student's git folder, or one
    /// anyone may write, gives no label and no `+ edits` from it: Alice's `gitdir: ../bob/.git` had
    /// the arena read Bob's repository and publish his commit as her label. A submodule's
    /// (`gitdir: ../../.git/modules/subs/carol`, in the course's repository) still gives its
    /// commit. The control: the git folder the file names, read as before, gives Bob's commit.
    #[test]
    fn a_git_file_naming_another_student_s_repository_gives_no_label() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().join("course");
        let (alice, bob) = (course.join("subs/alice"), course.join("subs/bob"));
        for folder in [&alice, &bob] {
            std::fs::create_dir_all(folder).unwrap();
            git(folder, &["init", "-q"]);
            std::fs::write(folder.join("bot.sh"), format!("echo WAIT # {}\n", folder.display())).unwrap();
            git(folder, &["add", "."]);
            git(folder, &["commit", "-qm", "one"]);
        }
        let head = |repo: &Path| String::from_utf8(git(repo, &["rev-parse", "HEAD"]).stdout).unwrap()[..7].to_string();
        let (alice_head, bob_head) = (head(&alice), head(&bob));
        assert_eq!(git_label(&alice, Some(&course)).as_deref(), Some(&*alice_head), "her own");
        // The attack: her `.git` a file naming Bob's git folder.
        std::fs::remove_dir_all(alice.join(".git")).unwrap();
        std::fs::write(alice.join(".git"), "gitdir: ../bob/.git\n").unwrap();
        let files = |folder: &Path| {
            sources(&bot(folder, "sh bot.sh"), None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new())
                .unwrap()
        };
        assert_eq!(git_label(&alice, Some(&course)), None);
        assert!(!git_edits(&alice, Some(&course), &files(&alice)));
        // The control: the git folder the file names gives Bob's commit.
        let named = git_dir(&alice.join(".git")).unwrap();
        assert_eq!(git_head(&named, &common_dir(&named)).map(|id| id[..7].to_string()), Some(bob_head.clone()));
        // Nor through `commondir`: her own git folder, its refs Bob's.
        std::fs::remove_file(alice.join(".git")).unwrap();
        std::fs::create_dir(alice.join(".git")).unwrap();
        std::fs::write(alice.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(alice.join(".git/commondir"), "../../bob/.git\n").unwrap();
        assert_eq!(git_label(&alice, Some(&course)), None);
        let own = alice.join(".git");
        assert_eq!(git_head(&own, &common_dir(&own)).map(|id| id[..7].to_string()), Some(bob_head), "the control");
        // A submodule of the course's repository: its git folder in the course's `.git`.
        git(&course, &["init", "-q"]);
        let carol = course.join("subs/carol");
        std::fs::create_dir_all(&carol).unwrap();
        let modules = course.join(".git/modules/subs/carol");
        std::fs::create_dir_all(&modules).unwrap();
        git(&modules, &["init", "-q", "--bare"]);
        git(&modules, &["config", "core.bare", "false"]);
        git(&modules, &["config", "core.worktree", "../../../../subs/carol"]);
        std::fs::write(carol.join(".git"), "gitdir: ../../.git/modules/subs/carol\n").unwrap();
        std::fs::write(carol.join("bot.sh"), "echo WAIT\n").unwrap();
        git(&carol, &["add", "."]);
        git(&carol, &["commit", "-qm", "one"]);
        assert_eq!(git_label(&carol, Some(&course)).as_deref(), Some(&*head(&carol)), "a submodule's");
        assert!(!git_edits(&carol, Some(&course), &files(&carol)));
        assert_ne!(alice_head, head(&carol));
    }

    /// A bot folder with no git of its own takes no repository's commit from above the league's
    /// folder (a dotfiles repository in `$HOME`), from a folder anyone may write (a `.git` made in
    /// `/tmp`) or from one another user owns; one inside the course's repository, the league's
    /// config in a folder of it, takes the course's. The controls: the same repositories, the
    /// league's folder above them or the folder only its owner's, give the bot their commit.
    #[test]
    fn a_repository_above_the_league_or_in_a_folder_others_may_write_gives_no_label() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let commit = |repo: &Path| {
            git(repo, &["init", "-q"]);
            std::fs::write(repo.join("file"), "x\n").unwrap();
            git(repo, &["add", "file"]);
            git(repo, &["commit", "-qm", "one"]);
            Some(String::from_utf8(git(repo, &["rev-parse", "HEAD"]).stdout).unwrap()[..7].to_string())
        };
        let bot_folder = |path: PathBuf| {
            std::fs::create_dir_all(&path).unwrap();
            std::fs::write(path.join("bot.sh"), "echo WAIT\n").unwrap();
            path
        };
        let edits = |folder: &Path, league: &Path| {
            let files =
                sources(&bot(folder, "sh bot.sh"), None, &BTreeSet::new(), &Default::default(), &mut BTreeMap::new());
            git_edits(folder, Some(league), &files.unwrap())
        };
        // Dotfiles in `$HOME`, the course's folder in it.
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        let dotfiles = commit(&home);
        let course = home.join("course");
        let alice = bot_folder(course.join("subs/alice"));
        assert_eq!((git_label(&alice, Some(&course)), edits(&alice, &course)), (None, false));
        assert_eq!(git_label(&alice, None), None, "no league: the bot's folder only");
        // The control: the league's folder above the repository's.
        assert_eq!((git_label(&alice, Some(&home)), edits(&alice, &home)), (dotfiles, true));
        // The course's repository, the league's config in `leagues/`: the course's commit.
        let repo = home.join("repo");
        std::fs::create_dir_all(repo.join("leagues")).unwrap();
        let bob = bot_folder(repo.join("subs/bob"));
        let course_commit = commit(&repo);
        assert!(course_commit.is_some());
        assert_eq!(git_label(&bob, Some(&repo.join("leagues"))), course_commit);
        // A `.git` in a folder anyone may write (sticky, as `/tmp`).
        let shared = dir.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        let planted = commit(&shared);
        let carol = bot_folder(shared.join("course/carol"));
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!((git_label(&carol, Some(&shared)), edits(&carol, &shared)), (None, false));
        // The control: the same folder, only its owner may write it.
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!((git_label(&carol, Some(&shared)), edits(&carol, &shared)), (planted.clone(), true));
        // Another user's folder (only root may give a folder away: as root, `tools/test`).
        if unsafe { libc::geteuid() } == 0 {
            let me = std::fs::metadata(&carol).unwrap();
            std::os::unix::fs::chown(&shared, Some(65534), None).unwrap();
            assert_eq!(git_label(&carol, Some(&shared)), None, "another user's folder");
            std::os::unix::fs::chown(&shared, Some(me.uid()), None).unwrap();
            assert_eq!(git_label(&carol, Some(&shared)), planted, "the control: the bot folder's owner's");
        }
    }

    /// Telling whether a tracked file is gone looks up each folder once, and no more than so many
    /// paths in all: a crafted index naming every folder of a deep chain had each looked up again
    /// for each path below it (300 folders: 45,150 lookups), and a million paths as many. Beyond
    /// the cap, the files are `+ edits`. The control: without the cap, the same paths take more.
    #[test]
    fn a_crafted_index_is_looked_up_a_bounded_number_of_times() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = vec!["alice".to_string()];
        for _ in 0..300 {
            paths.push(format!("{}/d", paths.last().unwrap()));
        }
        std::fs::create_dir_all(dir.path().join(paths.last().unwrap())).unwrap();
        let gone = |most: usize| {
            let mut probes = 0;
            (tracked_gone(dir.path(), paths.iter().map(String::as_str), most, &mut probes), probes)
        };
        let (all_there, probes) = gone(usize::MAX);
        assert!(!all_there);
        assert_eq!(probes, 2 * paths.len() - 1, "each folder looked up once, as a folder or as a path");
        assert_eq!(gone(100), (true, 101), "stopped past the cap: `+ edits`");
        assert!(probes > 100, "the control: the same paths take more without it");
        std::fs::remove_dir(dir.path().join(paths.last().unwrap())).unwrap();
        assert!(gone(usize::MAX).0, "a path gone is told");
        const { assert!(MAX_GONE_PROBES >= 2 * MAX_FILES, "a submission's files and their folders are all looked up") };
    }

    fn bot(dir: &Path, command: &str) -> BotEntry {
        BotEntry {
            cwd: Some(dir.to_path_buf()),
            ..super::super::config::parse_bot_arg(&format!("b={command}")).unwrap()
        }
    }

    /// A link in the student's folder that the command names, to a file outside it (`./bot`
    /// to `/proc/kmsg` blocked the arena for good, reading the host's kernel log): where it
    /// leads counts, and the file is not read (its content changes nothing). The control: read
    /// as it was (`hash_file` through the link), the content is the teacher's file's.
    #[test]
    fn a_link_out_of_the_folder_is_not_read_to_fingerprint_it() {
        let dir = tempfile::tempdir().unwrap();
        let (folder, outside) = (dir.path().join("alice"), dir.path().join("teacher-file"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(&outside, "one").unwrap();
        std::os::unix::fs::symlink(&outside, folder.join("bot")).unwrap();
        let entry = bot(&folder, "./bot");
        let print = || {
            fingerprints(&entry, None, &BTreeSet::new(), &LeftOut::default(), &mut BTreeMap::new()).unwrap().portable
        };
        let first = print();
        std::fs::write(&outside, "two").unwrap();
        assert_eq!(print(), first, "the file outside was not read");
        std::fs::write(dir.path().join("other"), "two").unwrap();
        std::fs::remove_file(folder.join("bot")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("other"), folder.join("bot")).unwrap();
        assert_ne!(print(), first, "where it leads counts");
        // The control: through the link, the file is read.
        assert_eq!(hash_file(&folder.join("bot")).unwrap(), blake3::hash(b"two"));
        // A link that stays in the folder is read as before.
        std::fs::write(folder.join("real"), "three").unwrap();
        std::fs::remove_file(folder.join("bot")).unwrap();
        std::os::unix::fs::symlink("real", folder.join("bot")).unwrap();
        let inside = print();
        std::fs::write(folder.join("real"), "four").unwrap();
        assert_ne!(print(), inside);
    }

    /// A link in the folder counts by its target text, never followed: switching `strategy.py`
    /// between two files already there is a new fingerprint (it was none: the student's change
    /// was not rebuilt), and a link out of the folder is not read. The control: a folder left
    /// as it is keeps its fingerprint, and one without links keeps the digest it had before
    /// links counted (a constant, so existing leagues see no new version).
    #[test]
    fn switching_a_link_in_the_folder_is_a_new_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("alice");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("bot.py"), "import strategy\n").unwrap();
        std::fs::write(folder.join("strategy.py"), "X = 1\n").unwrap();
        let entry = bot(&folder, "python3 bot.py");
        let print = || fingerprints(&entry, None, &BTreeSet::new(), &LeftOut::default(), &mut BTreeMap::new()).unwrap();
        // (Computed by the arena before links counted, on this very folder.)
        assert_eq!(print().portable, "657000e4628df67b", "a folder without links keeps its digest");
        std::fs::remove_file(folder.join("strategy.py")).unwrap();
        std::fs::write(folder.join("careful.py"), "X = 1\n").unwrap();
        std::fs::write(folder.join("greedy.py"), "X = 2\n").unwrap();
        std::os::unix::fs::symlink("careful.py", folder.join("strategy.py")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("teacher"), folder.join("out")).unwrap();
        let first = print();
        assert_eq!(print(), first, "the control: unchanged, the same");
        std::fs::write(dir.path().join("teacher"), "never read").unwrap();
        assert_eq!(print(), first, "a link out of the folder is not read");
        std::fs::remove_file(folder.join("strategy.py")).unwrap();
        std::os::unix::fs::symlink("greedy.py", folder.join("strategy.py")).unwrap();
        assert_ne!(print(), first, "switched: a new version");
        let (stamp_a, _) = (output_stamp(dir.path(), "alice"), ());
        std::fs::remove_file(folder.join("strategy.py")).unwrap();
        std::os::unix::fs::symlink("careful.py", folder.join("strategy.py")).unwrap();
        assert_eq!(print(), first, "switched back: the first version again");
        assert_ne!(output_stamp(dir.path(), "alice"), stamp_a, "an output's stamp sees the switch too");
    }

    /// An output's stamp of a folder without links is the digest it was before links counted
    /// (the facts of each path, in order): no league sees its outputs as changed.
    #[test]
    fn an_output_stamp_without_links_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
        std::fs::write(dir.path().join("target/release/bot"), "built").unwrap();
        let mut hasher = blake3::Hasher::new();
        let top = dir.path().join("target");
        for entry in walkdir::WalkDir::new(&top).sort_by_file_name() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            hasher.update(entry.path().strip_prefix(&top).unwrap().as_os_str().as_encoded_bytes());
            hasher.update(b"\0");
            let (secs, nanos, size, inode, is_dir) = facts(&meta);
            for n in [secs, nanos, size as i64, inode as i64, i64::from(is_dir)] {
                hasher.update(&n.to_le_bytes());
            }
        }
        assert_eq!(output_stamp(dir.path(), "target"), hasher.finalize().to_hex()[..16].to_string());
    }

    /// An output's content stamp (see [`output_stamps`]) is its files' bytes, permissions and
    /// kinds, not their times or inodes: a file put in its place with the same bytes and mode is
    /// the same, one with a byte changed (its time put back) or another mode is not, while the
    /// stamp sees each. A FIFO a build left in it is taken by its kind, never opened (which
    /// waits for a writer); and the stamp is taken with it as without a budget.
    #[test]
    fn an_output_s_content_stamp_is_its_bytes_and_modes_not_its_times_or_inodes() {
        use std::os::unix::fs::{FileExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("bot"), "built\n").unwrap();
        assert!(std::process::Command::new("mkfifo").arg(out.join("pipe")).status().unwrap().success());
        let both = || output_stamps(dir.path(), "out", &mut MAX_CONTENT_STAMPED.clone(), &|_| None);
        let (stamp, content) = both();
        assert_eq!(stamp, output_stamp(dir.path(), "out"));
        let content = content.expect("taken");
        // The same bytes and mode in a new file (a new inode, a new time).
        std::thread::sleep(std::time::Duration::from_millis(10));
        std::fs::write(out.join("new"), "built\n").unwrap();
        std::fs::rename(out.join("new"), out.join("bot")).unwrap();
        assert_ne!(both().0, stamp, "the stamp sees the new file");
        assert_eq!(both().1.as_ref(), Some(&content), "the same content");
        // A byte changed in place, its time put back.
        let was = std::fs::metadata(out.join("bot")).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(out.join("bot")).unwrap();
        file.write_all_at(b"B", 0).unwrap();
        file.set_modified(was.modified().unwrap()).unwrap();
        assert_ne!(both().1.as_ref(), Some(&content), "other bytes");
        file.write_all_at(b"b", 0).unwrap();
        assert_eq!(both().1.as_ref(), Some(&content), "the same bytes again");
        std::fs::set_permissions(out.join("bot"), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_ne!(both().1.as_ref(), Some(&content), "another mode");
        // Past the budget, none.
        let mut budget = 3;
        assert_eq!(output_stamps(dir.path(), "out", &mut budget, &|_| None).1, None);
        assert_eq!(output_stamps(dir.path(), "gone", &mut budget, &|_| None), (String::new(), None));
    }

    /// An output whose files' sizes add up to more than what is left of the budget is not read at
    /// all (a cargo `target/` past it cost a read of 256 MiB before its content stamp was given
    /// up), and one whose stamp the caller knows has that content stamp, unread; either way
    /// nothing is taken from the budget (read file by file, 3 of the 6 were taken before the 5
    /// passed what was left). The controls: with a budget of their sizes, both are read and it is
    /// all taken; with a file added (another stamp), the known one is not given.
    #[test]
    fn an_output_past_the_budget_or_known_by_its_stamp_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("out")).unwrap();
        std::fs::write(dir.path().join("out/a"), "abc").unwrap();
        std::fs::write(dir.path().join("out/b"), "defgh").unwrap();
        let mut budget = 6;
        let (stamp, content) = output_stamps(dir.path(), "out", &mut budget, &|_| None);
        assert_eq!((stamp.as_str(), content, budget), (output_stamp(dir.path(), "out").as_str(), None, 6));
        let mut budget = 8;
        let content = output_stamps(dir.path(), "out", &mut budget, &|_| None).1.expect("read: it fits");
        assert_eq!(budget, 0, "the control: read, the budget taken");
        let known = |s: &str| (s == stamp).then(|| "known".to_string());
        let mut budget = 8;
        assert_eq!(output_stamps(dir.path(), "out", &mut budget, &known), (stamp.clone(), Some("known".to_string())));
        assert_eq!(budget, 8, "known: nothing read");
        // (Another stamp: read again.)
        std::fs::write(dir.path().join("out/new"), "").unwrap();
        let (_, again) = output_stamps(dir.path(), "out", &mut budget, &known);
        assert!(again.is_some_and(|again| again != content && again != "known"));
        assert_eq!(budget, 0);
    }

    /// A read of a bot's folder hashes no more than so many bytes: sparse files of 512 MiB take
    /// no disk and cost a build nothing, and each read of them (before and after every match of
    /// a bot without a copy) hashed them whole. Past the cap, the bot's own files are refused,
    /// its build's outputs unread (it then does not play without a copy). The control: without
    /// the cap, every file is hashed, whatever their sizes.
    #[test]
    fn a_read_of_a_folder_hashes_a_bounded_number_of_bytes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.sh"), "echo WAIT\n").unwrap();
        let sparse = |name: &str| std::fs::File::create(dir.path().join(name)).unwrap().set_len(1 << 20).unwrap();
        for name in ["out1", "out2", "out3"] {
            sparse(name);
        }
        let b = bot(dir.path(), "sh bot.sh");
        let outputs: BTreeSet<String> = ["out1", "out2", "out3"].map(String::from).into();
        let hashed = |most: u64, outputs: &BTreeSet<String>| {
            FOLDER_BYTES.set(most);
            READS.with_borrow_mut(Vec::clear);
            let read = read(&b, None, outputs, &LeftOut::default(), &mut BTreeMap::new());
            FOLDER_BYTES.set(MAX_FOLDER_BYTES);
            let files = READS.with_borrow(|r| r.iter().filter(|p| p.is_file()).count());
            let read = read.map_err(|e| e.to_string());
            (read.map(|r| r.whole.map(|_| ()).map_err(|e| e.contains("more than 2 MiB of files"))), files)
        };
        // Its build's outputs past the cap: unread, its own files as they are.
        assert_eq!(hashed(2 << 20, &outputs), (Ok(Err(true)), 2), "bot.sh and one output");
        // Its own files past it: refused.
        let (read, files) = hashed(2 << 20, &BTreeSet::new());
        assert!(read.is_err_and(|e| e.contains("more than 2 MiB of files")), "own files");
        assert_eq!(files, 2);
        // The control: without the cap, each file is hashed.
        assert_eq!(hashed(u64::MAX, &outputs), (Ok(Ok(())), 4));
        const { assert!(MAX_FOLDER_BYTES >= 2 * MAX_FINGERPRINTED_BYTES && MAX_FOLDER_BYTES >= 4 * MAX_SNAPSHOT_BYTES) };
    }

    #[test]
    fn every_file_of_the_folder_counts_but_ignored_files_and_outputs_do_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "import strategy\n").unwrap();
        std::fs::write(dir.path().join("strategy.py"), "X = 1\n").unwrap();
        std::fs::create_dir(dir.path().join("__pycache__")).unwrap();
        let b = bot(dir.path(), "python3 bot.py");
        let none = BTreeSet::new();
        let fingerprint = |b: &BotEntry, outputs: &BTreeSet<String>, cache: &mut BTreeMap<PathBuf, blake3::Hash>| {
            fingerprints(b, Some(dir.path()), outputs, &LeftOut::default(), cache).map(|f| f.portable)
        };
        let first = fingerprint(&b, &none, &mut BTreeMap::new()).unwrap();
        std::fs::write(dir.path().join("__pycache__/strategy.pyc"), "cache").unwrap();
        assert_eq!(fingerprint(&b, &none, &mut BTreeMap::new()).unwrap(), first, "caches are ignored");
        // A copy of its own a killed build left (`build::own_copy`'s temporary name).
        std::fs::write(dir.path().join(".tmp-own-4242-0-17"), "import strategy\n").unwrap();
        assert_eq!(fingerprint(&b, &none, &mut BTreeMap::new()).unwrap(), first, "the arena's leftovers are ignored");
        std::fs::write(dir.path().join(".tmp-mine"), "X").unwrap();
        let own = fingerprint(&b, &none, &mut BTreeMap::new()).unwrap();
        assert_ne!(own, first, "the control: a student's file of another temporary-looking name counts");
        std::fs::remove_file(dir.path().join(".tmp-mine")).unwrap();
        std::fs::write(dir.path().join("strategy.py"), "X = 2\n").unwrap();
        let second = fingerprint(&b, &none, &mut BTreeMap::new()).unwrap();
        assert_ne!(second, first, "a module the entry file imports is part of the bot");
        std::fs::write(dir.path().join("bot"), "built").unwrap();
        let outputs = BTreeSet::from(["bot".to_string()]);
        assert_eq!(fingerprint(&b, &outputs, &mut BTreeMap::new()).unwrap(), second, "build outputs are left out");
        let mut only = b.clone();
        only.files = vec!["bot.py".into()];
        std::fs::write(dir.path().join("strategy.py"), "X = 3\n").unwrap();
        let a = fingerprint(&only, &outputs, &mut BTreeMap::new()).unwrap();
        std::fs::write(dir.path().join("strategy.py"), "X = 4\n").unwrap();
        assert_eq!(fingerprint(&only, &outputs, &mut BTreeMap::new()).unwrap(), a, "declared files only");
    }

    /// Writes a course folder in `dir`: a config and the bots it names, one with `cwd`, one a
    /// script run by an interpreter without `cwd`, one a program without `cwd`.
    fn course(dir: &Path) -> PathBuf {
        for (file, text) in [
            ("alice/bot.sh", "echo WAIT\n"),
            ("bots/bob/bot.py", "import helper\n"),
            ("bots/bob/helper.py", "X = 1\n"),
            ("bots/carol", "#!/bin/sh\n"),
        ] {
            std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
            std::fs::write(dir.join(file), text).unwrap();
        }
        let config = "[[bots]]\nname = \"alice\"\ncwd = \"alice\"\ncommand = \"sh bot.sh\"\n\
                      [[bots]]\nname = \"bob\"\ncommand = \"python3 bots/bob/bot.py --fast\"\n\
                      [[bots]]\nname = \"carol\"\ncommand = \"bots/carol\"\n";
        std::fs::write(dir.join("class.toml"), config).unwrap();
        dir.join("class.toml")
    }

    /// Each bot of the config at `path`, with its fingerprints.
    fn fingerprints_of(path: &Path) -> Vec<(String, Fingerprints)> {
        let config = super::super::config::TournamentConfig::load(path).unwrap();
        let mut cache = BTreeMap::new();
        config
            .bots
            .iter()
            .map(|b| {
                let fps =
                    fingerprints(b, config.base.as_deref(), &BTreeSet::new(), &LeftOut::default(), &mut cache).unwrap();
                (b.name.clone(), fps)
            })
            .collect()
    }

    /// A course folder moved elsewhere (renamed, another depth) keeps every bot's portable
    /// fingerprint; a changed file still changes its bot's, only its. The control: the legacy
    /// scheme, which hashed the command as made absolute, gives the bots without `cwd` new
    /// fingerprints there (their every match played again); for the bot with `cwd` the two
    /// schemes agree.
    #[test]
    fn a_moved_course_folder_keeps_every_bot_s_fingerprint_and_the_legacy_scheme_did_not() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("course");
        let before = fingerprints_of(&course(&first));
        let moved = dir.path().join("elsewhere/course-2026");
        std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
        std::fs::rename(&first, &moved).unwrap();
        let after = fingerprints_of(&moved.join("class.toml"));
        for ((name, was), (_, now)) in before.iter().zip(&after) {
            assert_eq!(was.portable, now.portable, "{name}: the same version wherever the folder is");
            assert!(now.is(&was.portable, None), "{name}");
            if name == "alice" {
                assert_eq!((&was.legacy, &now.legacy), (&was.portable, &now.portable), "both schemes agree");
            } else {
                assert_ne!(was.legacy, now.legacy, "the control: {name}'s legacy fingerprint moved with the folder");
                assert!(!now.is(&was.legacy, None), "{name}: another place's legacy fingerprint is not accepted");
                assert!(now.is(&was.legacy, Some(&was.portable)), "{name}: unless the league noted the portable one");
            }
        }
        std::fs::write(moved.join("bots/bob/helper.py"), "X = 2\n").unwrap();
        let changed = fingerprints_of(&moved.join("class.toml"));
        for ((name, was), (_, now)) in after.iter().zip(&changed) {
            assert_eq!(was.portable == now.portable, name != "bob", "{name}: only the changed bot is a new version");
        }
    }

    /// Only absolute words under the base are hashed relative to it.
    #[test]
    fn words_under_the_config_s_folder_are_hashed_relative_to_it() {
        let base = Some(Path::new("/srv/course"));
        assert_eq!(portable_word("/srv/course/bots/x.sh", base), "bots/x.sh");
        assert_eq!(portable_word("/srv/course", base), ".");
        assert!(matches!(portable_word("/srv/course", base), Cow::Owned(_)), "a word changed is owned");
        for same in ["/srv/courses/x", "/usr/bin/python3", "bots/x.sh", "--fast"] {
            assert!(matches!(portable_word(same, base), Cow::Borrowed(w) if w == same), "{same}");
        }
        assert!(matches!(portable_word("/srv/course/x", None), Cow::Borrowed(_)));
    }

    #[test]
    fn a_script_without_a_folder_brings_its_own_and_a_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        std::fs::write(&script, "print()\n").unwrap();
        let b = super::super::config::parse_bot_arg(&format!("b=python3 {}", script.display())).unwrap();
        assert_eq!(folder(&b), Some(dir.path().to_path_buf()));
        let gone = bot(&dir.path().join("nothing"), "./bot");
        let err = fingerprints(&gone, None, &BTreeSet::new(), &LeftOut::default(), &mut BTreeMap::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("folder") && err.contains("missing"), "{err}");
    }

    /// A shard's `--out` inside the league's kept copies (or the folder `versions/` itself, or
    /// reached through a link to it, or through `..` after a folder it makes) is told; one
    /// elsewhere in the league's folder is not. The control: the check of the bots' folders,
    /// given the bot as it plays (from its copy), lets it by.
    #[test]
    fn a_shard_folder_inside_the_kept_copies_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let league = dir.path().join("league");
        let copy = league.join("versions/alice/0123456789abcdef/folder");
        std::fs::create_dir_all(&copy).unwrap();
        let inside = copy.join("shard-1");
        let copies = real_path(&league.join("versions"));
        assert_eq!(copies_holding(&inside, &league), Some(copies.clone()));
        assert_eq!(copies_holding(&league.join("versions"), &league), Some(copies.clone()));
        std::os::unix::fs::symlink(&copy, dir.path().join("link")).unwrap();
        assert_eq!(copies_holding(&dir.path().join("link/shard-1"), &league), Some(copies.clone()));
        // Through `..` after a folder not made yet, as `--out` makes it (the control: it lands
        // in the copies).
        let sly = league.join("new/../versions/alice/0123456789abcdef/folder/shard-4");
        assert_eq!(copies_holding(&sly, &league), Some(copies.clone()), "{}", real_path(&sly).display());
        // (And a bot's own folder so.)
        std::fs::create_dir(dir.path().join("alice")).unwrap();
        let own = bot(&dir.path().join("alice"), "sh bot.sh");
        assert!(folder_holding(&[&own], &dir.path().join("nothing/../alice/shard-5"), &league).is_some());
        std::fs::create_dir_all(&sly).unwrap();
        assert!(copy.join("shard-4").is_dir(), "the control: made there");
        assert_eq!(copies_holding(&league.join("new/../shard-6"), &league), None);
        assert_eq!(copies_holding(&league.join("shard-2"), &league), None);
        assert_eq!(copies_holding(&dir.path().join("shard-3"), &league), None);
        // The control: the bot's folder check, the bot as it plays from its copy.
        let kept = bot(&copy, "sh bot.sh");
        assert!(folder_holding(&[&kept], &inside, &league).is_none(), "the control: let by");
    }

    /// The league's own folder inside a bot's folder (the kit's `replays/tournament-N`, `--out
    /// league`) is no part of the bot: what the league writes there changes no fingerprint and
    /// is not copied. Only that folder: another that looks like a league (its `tournament.json`)
    /// still counts. The control: without it left out, each league file is a new version, and
    /// the copy holds the league.
    #[test]
    fn the_league_s_own_folder_is_no_part_of_a_bot_whose_folder_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let kit = dir.path().join("alice");
        std::fs::create_dir_all(kit.join("replays/t1/replays")).unwrap();
        std::fs::write(kit.join("bot.py"), "print()\n").unwrap();
        let b = bot(&kit, "python3 bot.py");
        let left_out = LeftOut::league(&[&kit.join("replays/t1")]);
        let print = |left_out: &LeftOut| {
            fingerprints(&b, None, &BTreeSet::new(), left_out, &mut BTreeMap::new()).unwrap().portable
        };
        let (first, without) = (print(&left_out), print(&LeftOut::default()));
        std::fs::write(kit.join("replays/t1/results.jsonl"), "{}\n").unwrap();
        std::fs::write(kit.join("replays/t1/replays/m.json"), "{}").unwrap();
        assert_eq!(print(&left_out), first, "the league's files are not the bot's");
        assert_ne!(print(&LeftOut::default()), without, "the control: they were a new version");
        let copy = |left_out: &LeftOut, fp: &str| {
            let dest = dir.path().join("versions/alice").join(fp);
            snapshot(&b, &dest, left_out).unwrap();
            dest.join("folder")
        };
        let kept = copy(&left_out, "fp1");
        assert!(kept.join("bot.py").is_file() && !kept.join("replays/t1").exists());
        assert!(copy(&LeftOut::default(), "fp2").join("replays/t1/results.jsonl").is_file(), "the control");
        // Another folder that looks like a league is the student's: it counts.
        std::fs::create_dir_all(kit.join("replays/t0")).unwrap();
        std::fs::write(kit.join("replays/t0/tournament.json"), "{}").unwrap();
        assert_ne!(print(&left_out), first, "a folder merely like a league hides nothing");
        // Through a link in the teacher's part of the path, the same folder.
        std::os::unix::fs::symlink(&kit, dir.path().join("kit-link")).unwrap();
        let linked = LeftOut::league(&[&dir.path().join("kit-link/replays/t1")]);
        std::fs::remove_dir_all(kit.join("replays/t0")).unwrap();
        assert_eq!(print(&linked), first);
    }

    /// A bot whose command runs the arena's own executable (`arena bot greedy`) keeps no copy of
    /// it: its kept entry runs it where it is. The executable still counts in the fingerprint (a
    /// new arena is a new version of its built-in bots). The control: another program is copied.
    #[test]
    fn the_arena_s_own_program_is_run_where_it_is_not_copied() {
        let dir = tempfile::tempdir().unwrap();
        let arena = dir.path().join("arena");
        std::fs::write(&arena, "the arena v1").unwrap();
        let b = super::super::config::parse_bot_arg(&format!("greedy={} bot greedy", arena.display())).unwrap();
        let own = LeftOut { own_program: Some(arena.canonicalize().unwrap()), ..LeftOut::default() };
        let dest = dir.path().join("versions/greedy/fp");
        let kept = snapshot(&b, &dest, &own).unwrap();
        assert_eq!(kept.command, b.command, "the kept entry runs the arena where it is");
        assert!(!dest.join("files").exists(), "no copy of the arena");
        let other = dir.path().join("versions/greedy/fp2");
        let copied = snapshot(&b, &other, &LeftOut::default()).unwrap();
        assert!(other.join("files/0-arena").is_file(), "the control: another program is copied");
        assert_ne!(copied.command, b.command);
        let print = || fingerprints(&b, None, &BTreeSet::new(), &own, &mut BTreeMap::new()).unwrap().portable;
        let v1 = print();
        std::fs::write(&arena, "the arena v2").unwrap();
        assert_ne!(print(), v1, "an upgraded arena is a new version");
        // The running arena by default.
        assert_eq!(LeftOut::league(&[]).own_program, Some(std::env::current_exe().unwrap().canonicalize().unwrap()));
    }

    /// A bot whose folder holds the league's folder, but not the config's (the student's own
    /// bot in the kit, warned of by [`overlaps`]), is said: its build could write the results.
    #[test]
    fn a_bot_s_folder_holding_the_league_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let course = dir.path().canonicalize().unwrap();
        for sub in ["subs/alice/league", "subs/bob"] {
            std::fs::create_dir_all(course.join(sub)).unwrap();
        }
        let bots = [bot(&course.join("subs/alice"), "./bot"), bot(&course.join("subs/bob"), "./bot")];
        let said = holding_league(&bots, Some(&course), &course.join("subs/alice/league"));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("bot `b`'s folder holds the league's folder"), "{said:?}");
        assert!(holding_league(&bots, Some(&course), &course.join("league")).is_empty(), "outside: nothing");
        let kit = [bot(&course, "./bot")];
        assert!(holding_league(&kit, Some(&course), &course.join("replays/t1")).is_empty(), "the kit's own bot");
    }

    #[test]
    fn a_kept_copy_runs_the_version_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let bot_dir = dir.path().join("alice");
        std::fs::create_dir_all(bot_dir.join("target/release")).unwrap();
        std::fs::create_dir_all(bot_dir.join(".git")).unwrap();
        std::fs::write(bot_dir.join("target/release/bot"), "v1 binary").unwrap();
        std::fs::write(bot_dir.join("target/release/big.rlib"), "not needed").unwrap();
        std::fs::write(bot_dir.join("main.rs"), "fn main() {}").unwrap();
        std::fs::write(bot_dir.join(".git/HEAD"), "ref").unwrap();
        let b = bot(&bot_dir, "target/release/bot --fast");
        let dest = dir.path().join("versions/alice/fp1");
        let copy = snapshot(&b, &dest, &LeftOut::default()).unwrap();
        assert_eq!(copy.cwd, Some(dest.join("folder")));
        assert_eq!(copy.command, "target/release/bot --fast");
        assert_eq!(std::fs::read_to_string(dest.join("folder/target/release/bot")).unwrap(), "v1 binary");
        assert!(dest.join("folder/main.rs").is_file());
        assert!(!dest.join("folder/.git").exists() && !dest.join("folder/target/release/big.rlib").exists());
        // A bot without a folder: the files its command names.
        let exe = dir.path().join("prebuilt");
        std::fs::write(&exe, "elf").unwrap();
        let b = super::super::config::parse_bot_arg(&format!("p={} --x", exe.display())).unwrap();
        let copy = snapshot(&b, &dir.path().join("versions/p/fp"), &LeftOut::default()).unwrap();
        let words = shell_words::split(&copy.command).unwrap();
        assert_eq!(std::fs::read_to_string(&words[0]).unwrap(), "elf");
        assert!(words[0].starts_with(&dir.path().join("versions/p/fp").display().to_string()));
        assert_eq!(words[1], "--x");
        // A named file that links out of the bot's folder is not brought in.
        let secret = dir.path().join("secret");
        std::fs::write(&secret, "teacher's").unwrap();
        std::os::unix::fs::symlink(&secret, bot_dir.join("target/release/leak")).unwrap();
        let b = bot(&bot_dir, "target/release/leak");
        snapshot(&b, &dir.path().join("versions/alice/fp2"), &LeftOut::default()).unwrap();
        assert!(!dir.path().join("versions/alice/fp2/folder/target/release/leak").exists());
    }

    /// A student's file made set-user-id (or set-group-id, or writable by all) is copied without
    /// those bits: a root arena's copy of it was a program anyone on the machine could run as
    /// root, and one writable by all was a copy anyone could change after its version was
    /// recorded (the league plays a version's copy again in later runs, unchecked). The
    /// control: a plain copy of the file keeps its mode.
    #[test]
    fn a_kept_copy_takes_no_set_id_bits_and_no_one_else_s_writes() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bot_dir = dir.path().join("alice");
        std::fs::create_dir_all(&bot_dir).unwrap();
        let modes = [("suid", 0o4755), ("sgid", 0o2755), ("open", 0o777), ("plain", 0o644)];
        for (name, mode) in modes {
            std::fs::write(bot_dir.join(name), "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(bot_dir.join(name), std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        // (A group the user is not in has no set-group-id bit kept: the control asks for it.)
        let sgid_kept = mode(&bot_dir.join("sgid")) == 0o2755;
        let dest = dir.path().join("versions/alice/fp1");
        snapshot(&bot(&bot_dir, "./suid"), &dest, &LeftOut::default()).unwrap();
        for (name, want) in [("suid", 0o755), ("sgid", 0o755), ("open", 0o755), ("plain", 0o644)] {
            assert_eq!(mode(&dest.join("folder").join(name)), want, "{name}");
        }
        // The control.
        let plain = dir.path().join("plain-copy");
        std::fs::copy(bot_dir.join("suid"), &plain).unwrap();
        assert_eq!(mode(&plain), 0o4755, "the control: a plain copy is set-user-id");
        std::fs::copy(bot_dir.join("open"), &plain).unwrap();
        assert_eq!(mode(&plain), 0o777, "the control: a plain copy is writable by all");
        if sgid_kept {
            std::fs::copy(bot_dir.join("sgid"), &plain).unwrap();
            assert_eq!(mode(&plain), 0o2755, "the control: a plain copy is set-group-id");
        }
    }

    /// A copy fingerprints as the files it was made from, whatever the bot's shape: a folder
    /// with a sub-folder, a link, an ignored folder holding the program its command names, an
    /// output, a file outside its `files` globs; a script without `cwd`; a program without a
    /// folder; a teacher's file outside the folder. The controls: a file changed in the copy, or
    /// one added, is another fingerprint.
    #[test]
    fn a_copy_fingerprints_as_the_files_it_was_made_from() {
        let dir = tempfile::tempdir().unwrap();
        let alice = dir.path().join("alice");
        std::fs::create_dir_all(alice.join("target/release")).unwrap();
        std::fs::create_dir_all(alice.join("lib/deep")).unwrap();
        for (file, text) in [
            ("main.rs", "fn main() {}"),
            ("lib/deep/x.rs", "x"),
            ("lib/a.rs", "a"),
            ("lib.rs", "l"),
            ("careful.py", "X = 1"),
            ("out.bin", "built"),
            ("notes.txt", "mine"),
            ("target/release/bot", "elf"),
        ] {
            std::fs::write(alice.join(file), text).unwrap();
        }
        std::os::unix::fs::symlink("careful.py", alice.join("strategy.py")).unwrap();
        std::os::unix::fs::symlink("target/release/bot", alice.join("run")).unwrap();
        std::fs::write(dir.path().join("runner.py"), "teacher's").unwrap();
        let outputs = BTreeSet::from(["out.bin".to_string()]);
        let mut only = bot(&alice, "./run ../runner.py target/release/bot");
        only.files = vec!["*.rs".into(), "lib/**".into()];
        let script = super::super::config::parse_bot_arg(&format!("s=python3 {}", alice.join("careful.py").display()));
        let program =
            super::super::config::parse_bot_arg(&format!("p={} --x", alice.join("target/release/bot").display()));
        let bots = [bot(&alice, "./run ../runner.py target/release/bot"), only, script.unwrap(), program.unwrap()];
        for (i, b) in bots.iter().enumerate() {
            let then = sources(b, Some(dir.path()), &outputs, &LeftOut::default(), &mut BTreeMap::new()).unwrap();
            let dest = dir.path().join(format!("versions/{i}/fp"));
            snapshot(b, &dest, &LeftOut::default()).unwrap();
            let copied = copied_sources(b, &dest, &then, &outputs, &LeftOut::default()).unwrap();
            assert_eq!(copied, then, "bot {i}");
            assert_eq!(copied.fingerprints(), then.fingerprints(), "bot {i}");
            // The controls: a file changed in the copy, one added.
            let program = match i {
                2 => dest.join("folder/careful.py"),
                3 => dest.join("files/0-bot"),
                _ => dest.join("folder/target/release/bot"),
            };
            let was = std::fs::read(&program).unwrap();
            std::fs::write(&program, "another elf").unwrap();
            let changed = copied_sources(b, &dest, &then, &outputs, &LeftOut::default()).unwrap();
            assert_ne!(changed.fingerprints(), then.fingerprints(), "the control: bot {i}'s changed program");
            if i < 3 {
                std::fs::write(&program, was).unwrap();
                std::fs::write(dest.join("folder/lib/b.rs"), "added").unwrap();
                let added = copied_sources(b, &dest, &then, &outputs, &LeftOut::default()).unwrap();
                assert_ne!(added.fingerprints(), then.fingerprints(), "the control: a file added to bot {i}'s copy");
                assert_eq!(then.differences(&added, 5), ["lib/b.rs"]);
            }
        }
    }

    /// A kept copy holds no more than so many files: a build's empty files take no disk, and each
    /// version's copy took them all, an inode each. Past the cap, no copy is kept. The control:
    /// without the cap, the same folder is copied whole.
    #[test]
    fn a_copy_holds_a_bounded_number_of_files() {
        let dir = tempfile::tempdir().unwrap();
        let alice = dir.path().join("alice");
        std::fs::create_dir_all(alice.join("made")).unwrap();
        std::fs::write(alice.join("bot.sh"), "echo WAIT\n").unwrap();
        for i in 0..50 {
            std::fs::File::create(alice.join(format!("made/{i}"))).unwrap();
        }
        let copied = |most: usize, dest: &str| {
            COPY_FILES.set(most);
            let kept = snapshot(&bot(&alice, "sh bot.sh"), &dir.path().join(dest), &LeftOut::default());
            COPY_FILES.set(MAX_COPY_FILES);
            kept.map(|_| ()).map_err(|e| e.to_string())
        };
        let refused = copied(40, "versions/alice/a").unwrap_err();
        assert!(refused.contains("cannot keep a copy: more than 40 files"), "{refused}");
        assert!(!dir.path().join("versions/alice/a").exists() && !dir.path().join("versions/alice/a.tmp").exists());
        // The control: without the cap, all 51 files are copied.
        copied(usize::MAX, "versions/alice/b").unwrap();
        assert_eq!(std::fs::read_dir(dir.path().join("versions/alice/b/folder/made")).unwrap().count(), 50);
        const { assert!(MAX_COPY_FILES >= MAX_FILES) };
    }

    /// A sparse file (a build's output of a large size and no data) is copied sparse: the copy
    /// takes the disk its data needs, and reads the same. All-zero blocks of data are left out
    /// too. The control: the same bytes written out as read, as the copy was, take the whole size.
    #[test]
    fn a_sparse_file_is_copied_sparse() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let alice = dir.path().join("alice");
        std::fs::create_dir_all(&alice).unwrap();
        let size = 32u64 << 20;
        let big = alice.join("big");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(size).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, b"data at the start", 0).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, b"and in the middle", size / 2).unwrap();
        // (Zeros written out: data to the file system, nothing to the copy.)
        std::os::unix::fs::FileExt::write_all_at(&file, &vec![0u8; 1 << 20], 4 << 20).unwrap();
        drop(file);
        let blocks = |p: &Path| std::fs::metadata(p).unwrap().blocks() * 512;
        let dest = dir.path().join("versions/alice/fp");
        snapshot(&bot(&alice, "./big"), &dest, &LeftOut::default()).unwrap();
        let copy = dest.join("folder/big");
        assert_eq!(std::fs::metadata(&copy).unwrap().len(), size);
        assert_eq!(hash_file(&copy).unwrap(), hash_file(&big).unwrap(), "the same bytes");
        assert!(blocks(&copy) <= 1 << 20, "the copy takes {} bytes", blocks(&copy));
        // A file ending in a hole, and one shorter than counted, are copied as they are.
        let tail = alice.join("tail");
        std::fs::write(&tail, "head").unwrap();
        std::fs::OpenOptions::new().write(true).open(&tail).unwrap().set_len(1 << 20).unwrap();
        copy_file(&tail, &dir.path().join("tail-copy"), 1 << 20).unwrap();
        assert_eq!(std::fs::read(dir.path().join("tail-copy")).unwrap(), std::fs::read(&tail).unwrap());
        copy_file(&tail, &dir.path().join("cut-copy"), 2).unwrap();
        assert_eq!(std::fs::read(dir.path().join("cut-copy")).unwrap(), b"he");
        // The control: written out as read.
        let plain = dir.path().join("plain");
        let mut out = std::fs::File::create(&plain).unwrap();
        let mut reader = std::io::BufReader::new(std::fs::File::open(&big).unwrap());
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = std::io::Read::read(&mut reader, &mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.write_all(&buf[..n]).unwrap();
        }
        drop(out);
        assert!(blocks(&plain) >= size, "the control: a plain copy takes {} bytes", blocks(&plain));
    }

    #[test]
    fn a_build_s_new_files_and_folders_are_its_outputs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("src.c"), "int main(){}").unwrap();
        let before = stamp(dir.path());
        std::fs::write(dir.path().join("bot"), "elf").unwrap();
        std::fs::create_dir_all(dir.path().join("obj/deep")).unwrap();
        std::fs::write(dir.path().join("obj/deep/a.o"), "o").unwrap();
        let after = stamp(dir.path());
        assert_eq!(changed(&before, &after), ["bot", "obj"]);
    }

    /// A bot's folder, or a file its command names, reached through a link in the students' part
    /// of its path (below the config's folder) is refused, saying the link and its target; a link
    /// the teacher owns (the config's folder and above) or inside the bot's folder is not looked
    /// at. The controls: the same folders named by their real paths pass.
    #[test]
    fn a_bot_reached_through_a_link_in_its_students_files_is_refused() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let course = root.join("course");
        for sub in ["subs/alice", "subs/bob/rr-bot", "mnt/submissions/carol"] {
            std::fs::create_dir_all(course.join(sub)).unwrap();
        }
        std::fs::create_dir_all(root.join("real-course/subs")).unwrap();
        std::fs::write(course.join("subs/bob/rr-bot/bot.py"), "").unwrap();
        symlink("../bob/rr-bot", course.join("subs/alice/rr-bot")).unwrap();
        symlink("../bob", course.join("subs/alice/src")).unwrap();
        let entry = |cwd: Option<PathBuf>, command: &str| BotEntry {
            cwd,
            ..super::super::config::parse_bot_arg(&format!("alice={command}")).unwrap()
        };
        let base = Some(course.as_path());
        // The folder itself a link.
        let e = links(&entry(Some(course.join("subs/alice/rr-bot")), "./bot"), base).unwrap_err();
        assert_eq!((e.link.clone(), e.target.clone()), (course.join("subs/alice/rr-bot"), "../bob/rr-bot".into()));
        let text = e.to_string();
        assert!(
            text.starts_with(&format!(
                "its folder {}/subs/alice/rr-bot is a symbolic link (to ../bob/rr-bot): ",
                course.display()
            )),
            "{text}"
        );
        assert!(text.ends_with("name the folder itself (its real path) in `cwd`"), "{text}");
        // A folder above it a link, and `..` taken back as the box takes it.
        let e = links(&entry(Some(course.join("subs/alice/src/rr-bot")), "./bot"), base).unwrap_err();
        assert_eq!(e.link, course.join("subs/alice/src"));
        assert!(e.to_string().contains("is reached through the symbolic link"), "{e}");
        let e = links(&entry(Some(course.join("x/../subs/alice/rr-bot")), "./bot"), base).unwrap_err();
        assert_eq!(e.link, course.join("subs/alice/rr-bot"));
        // A bot without a folder: the script its command names, not the interpreter.
        let script = course.join("subs/alice/rr-bot/bot.py");
        let e = links(&entry(None, &format!("python3 {}", script.display())), base).unwrap_err();
        assert!(!e.folder && e.to_string().starts_with("its file "), "{e}");
        // The controls: the real paths pass, and so do a link inside the bot's folder, a link
        // in the teacher's part (the config's folder reached through one), a system program.
        let real = course.join("subs/bob/rr-bot");
        assert_eq!(links(&entry(Some(real.clone()), "./bot"), base), Ok(()));
        symlink("/etc", real.join("inside")).unwrap();
        assert_eq!(links(&entry(Some(real.clone()), "./inside/passwd"), base), Ok(()));
        let python = format!("/usr/bin/python3 {}", real.join("bot.py").display());
        assert_eq!(links(&entry(None, &python), base), Ok(()));
        symlink(&course, root.join("course-link")).unwrap();
        let through_teacher = root.join("course-link");
        let linked_base = Some(through_teacher.as_path());
        assert_eq!(links(&entry(Some(through_teacher.join("subs/bob/rr-bot")), "./bot"), linked_base), Ok(()));
        // Outside the config's folder: below the deepest folder the two share.
        let carol = course.join("mnt/submissions/carol");
        symlink(&carol, root.join("real-course/subs/carol")).unwrap();
        let other = root.join("real-course/subs/carol");
        assert_eq!(links(&entry(Some(other.clone()), "./bot"), base).unwrap_err().link, other);
        assert_eq!(links(&entry(Some(carol), "./bot"), base), Ok(()));
    }
}
