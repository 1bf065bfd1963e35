//! The names a league shows its maps by. A config names a map by its path, often absolute
//! (`/home/jdoe/courses/2026/maps/arena1.txt`): the teacher's folders and user name, which mean
//! nothing on another machine. Everything that shows a map (leaderboards, pages, replay pages,
//! published results, the progress lines) names it instead by its file name (`arena1.txt`).
//! Maps of the pool that share a file name are told apart, in this order, until no two names
//! are alike:
//!
//! 1. by their paths under the config's folder (`maps/arena1.txt`, `week2/arena1.txt`), for a
//!    map in that folder (what the config would say, written relative to itself; not when
//!    that folder is `/`, under which a path would be named whole);
//! 2. else by the file name and the first 8 hex digits of the content's digest
//!    (`arena1.txt@638bf733`), which says nothing of where the file lies;
//! 3. else (the same file name and content twice) by their place in the pool too
//!    (`arena1.txt@638bf733#2`).
//!
//! A name depends on the league's record alone (its maps' paths and digests, as `arena build`
//! wrote them), never on the machine or the folder a command runs in: every shard and every
//! merge names a map alike. Only the league's private record (`tournament.json`,
//! `results.jsonl`) keeps the paths, to read the maps again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The names of a league's maps (see the module's documentation), by path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapNames {
    names: BTreeMap<PathBuf, String>,
}

/// How many ways of telling maps apart there are beyond the file name.
const LAST_LEVEL: usize = 3;

impl MapNames {
    /// Names the maps of a pool, given as (path, content digest) in board order (an unknown
    /// digest is empty); `base` is the config's folder.
    pub fn new<'a>(pool: impl IntoIterator<Item = (&'a Path, &'a str)>, base: Option<&Path>) -> Self {
        // One entry per path, in the order first given: the same map listed twice is one map.
        let mut maps: Vec<(&Path, &str)> = Vec::new();
        for (path, digest) in pool {
            if !maps.iter().any(|(p, _)| *p == path) {
                maps.push((path, digest));
            }
        }
        let mut level = vec![0; maps.len()];
        let names = loop {
            let names: Vec<String> =
                maps.iter().enumerate().map(|(i, (path, digest))| name_at(path, digest, base, i, level[i])).collect();
            // Every map whose name another has goes one way further (a map at the last way is
            // told apart by its place, which no other has).
            let mut bumped = false;
            for (i, name) in names.iter().enumerate() {
                if level[i] < LAST_LEVEL && names.iter().enumerate().any(|(j, other)| j != i && other == name) {
                    level[i] += 1;
                    bumped = true;
                }
            }
            if !bumped {
                break names;
            }
        };
        MapNames { names: maps.iter().map(|(p, _)| p.to_path_buf()).zip(names).collect() }
    }

    /// The name of the map at `path`: its name in the pool, or, for a map the pool does not
    /// hold (a result of an earlier pool), its file name. Never a folder outside the config's.
    pub fn name(&self, path: &Path) -> String {
        self.names.get(path).cloned().unwrap_or_else(|| file_name(path))
    }
}

/// The file name of `path` (`map` when it has none, as `/` or `..`).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "map".to_string(), |n| n.to_string_lossy().into_owned())
}

/// The name of the `index`-th map of a pool told apart `level` ways (0: the file name alone).
fn name_at(path: &Path, digest: &str, base: Option<&Path>, index: usize, level: usize) -> String {
    let file = file_name(path);
    let short: String = digest.chars().take(8).collect();
    let with_digest = if short.is_empty() { file.clone() } else { format!("{file}@{short}") };
    match level {
        0 => file,
        1 => under(path, base).unwrap_or(with_digest),
        2 => with_digest,
        _ => format!("{with_digest}#{}", index + 1),
    }
}

/// `path` relative to `base`, with `/` between its parts, if it lies under `base` (textually:
/// no `..`, nothing read from the disk). A base without a folder's name (`/`, a config file at
/// the root) is none: under it, every path would be named whole (nor is it a root of
/// the commands and failures shown).
fn under(path: &Path, base: Option<&Path>) -> Option<String> {
    let base = base.filter(|b| b.components().any(|c| matches!(c, std::path::Component::Normal(_))))?;
    crate::files::parts_under(path, base).filter(|p| !p.is_empty()).map(|p| p.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pool: &[(&str, &str)], base: Option<&str>) -> Vec<String> {
        let names = MapNames::new(pool.iter().map(|(p, d)| (Path::new(*p), *d)), base.map(Path::new));
        pool.iter().map(|(p, _)| names.name(Path::new(p))).collect()
    }

    #[test]
    fn a_map_is_named_by_its_file_name() {
        let pool = [("/home/jdoe/courses/2026/maps/arena1.txt", "638bf733d0aa1b2c"), ("/srv/m/tight.txt", "1")];
        assert_eq!(names(&pool, Some("/home/jdoe/courses/2026")), ["arena1.txt", "tight.txt"]);
        assert_eq!(names(&[("board-6x5", "board-6x5")], None), ["board-6x5"], "a game without maps");
    }

    #[test]
    fn maps_of_one_file_name_are_told_apart_by_their_path_under_the_config_s_folder() {
        let pool = [
            ("/home/jdoe/c/maps/arena1.txt", "638bf733d0aa1b2c"),
            ("/home/jdoe/c/week2/arena1.txt", "77aa00bb11cc22dd"),
            ("/home/jdoe/c/maps/tight.txt", "1234"),
        ];
        assert_eq!(names(&pool, Some("/home/jdoe/c")), ["maps/arena1.txt", "week2/arena1.txt", "tight.txt"]);
    }

    #[test]
    fn outside_the_config_s_folder_by_their_content_s_digest_then_their_place() {
        let pool = [
            ("/home/jdoe/c/maps/arena1.txt", "638bf733d0aa1b2c"),
            ("/home/jdoe/other/arena1.txt", "77aa00bb11cc22dd"),
            ("/home/jdoe/c/../up/arena1.txt", "99aa00bb11cc22dd"),
        ];
        let expected = ["maps/arena1.txt", "arena1.txt@77aa00bb", "arena1.txt@99aa00bb"];
        assert_eq!(names(&pool, Some("/home/jdoe/c")), expected, "`..` is not under the folder");
        assert_eq!(names(&pool, None), ["arena1.txt@638bf733", "arena1.txt@77aa00bb", "arena1.txt@99aa00bb"]);
        // A config file at the root (`/`): no path under it names a map, which would be whole.
        let expected = ["arena1.txt@638bf733", "arena1.txt@77aa00bb", "arena1.txt@99aa00bb"];
        assert_eq!(names(&pool, Some("/")), expected, "`/` names no folder");
        // The same content under one name twice, outside the folder: their places.
        let twice = [("/a/m.txt", "5555666677778888"), ("/b/m.txt", "5555666677778888"), ("/c/n.txt", "1")];
        assert_eq!(names(&twice, None), ["m.txt@55556666#1", "m.txt@55556666#2", "n.txt"]);
        // Without digests (a record from before they were kept).
        assert_eq!(names(&[("/a/m.txt", ""), ("/b/m.txt", "")], None), ["m.txt#1", "m.txt#2"]);
    }

    #[test]
    fn a_name_never_holds_a_folder_above_the_file_and_depends_on_nothing_but_the_pool() {
        let pool = [("/home/jdoe/c/maps/arena1.txt", "6"), ("/home/jdoe/c/week2/arena1.txt", "7")];
        let names = MapNames::new(pool.iter().map(|(p, d)| (Path::new(*p), *d)), Some(Path::new("/home/jdoe/c")));
        assert_eq!(
            names,
            MapNames::new(pool.iter().map(|(p, d)| (Path::new(*p), *d)), Some(Path::new("/home/jdoe/c")))
        );
        // A map the pool does not hold: its file name.
        assert_eq!(names.name(Path::new("/home/jdoe/old/arena2.txt")), "arena2.txt");
        assert_eq!(names.name(Path::new("/")), "map");
        // The same path listed twice is one map, not two to tell apart.
        let listed_twice = [("/x/m.txt", "1"), ("/x/m.txt", "1")];
        assert_eq!(self::names(&listed_twice, None), ["m.txt", "m.txt"]);
        // A file named like another's disambiguated name still gets a name of its own.
        let tricky = [("/a/m.txt", "11112222"), ("/b/m.txt", "33334444"), ("/c/m.txt@11112222", "5")];
        let got = self::names(&tricky, None);
        let mut unique = got.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 3, "{got:?}");
        assert!(got.iter().all(|n| !n.contains('/')), "{got:?}");
    }
}
