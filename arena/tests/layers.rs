//! The layers of ARCHITECTURE.md, checked on the sources: every `crate::…` or `super::…` path
//! of a module (outside its unit tests) names its own module or one of a lower layer, so no
//! two modules import each other, directly or round a loop. Checked for the arena library,
//! bot-sdk and the course crate; games also use no other game, no other module names a game
//! (the registry aside), and the arena library does not depend on sample-bots. `cargo test -p
//! arena --test layers -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's top-level modules by layer: a module may use only modules of lower layers.
struct Layers {
    name: &'static str,
    src: &'static str,
    layers: &'static [(&'static str, usize)],
    /// Edges that break the layers today, each with the reason and the plan (the test fails
    /// once an edge is gone, so that its allowance goes too).
    allowed: &'static [(&'static str, &'static str, &'static str)],
}

const ARENA: Layers = Layers {
    name: "arena",
    src: "src",
    layers: &[
        ("engine", 0),
        ("sandbox", 0),
        ("safe_text", 0),
        ("files", 1),
        ("replay", 2),
        ("referee", 3),
        ("games", 3),
        ("explain", 4),
        ("standings", 5),
        ("doctor", 5),
        ("starter", 5),
        ("tournament", 6),
        ("view", 6),
    ],
    allowed: &[],
};

const BOT_SDK: Layers = Layers {
    name: "bot-sdk",
    src: "../bot-sdk/src",
    layers: &[
        ("grid", 0),
        ("action", 1),
        ("map", 2),
        ("rules", 3),
        ("path", 4),
        ("state", 5),
        ("bot", 6),
        ("atoms", 7),
        ("tactics", 7),
    ],
    allowed: &[],
};

const COURSE: Layers = Layers {
    name: "course",
    src: "../course/src",
    layers: &[("cputime", 0), ("offline", 1), ("solver", 2), ("testgen", 2), ("checker", 2)],
    allowed: &[],
};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `games/atoms/hosted.rs` is `[games, atoms, hosted]`, a
/// `mod.rs` its folder, `lib.rs` the root (empty).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its unit tests (a `#[cfg(test)] mod`):
/// tests may use what they like.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") && lines.peek().is_some_and(|l| l.trim_start().starts_with("mod ")) {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first segment of each path a `use` group lists: `{a::X, b, c::{Y, Z}}` gives a, b, c.
fn group_heads(group: &str) -> Vec<String> {
    let (mut depth, mut start, mut heads) = (0, 0, Vec::new());
    let inner = &group[1..];
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                heads.push(ident(inner[start..i].trim()).to_string());
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(ident(inner[start..i].trim()).to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    heads.into_iter().filter(|h| !h.is_empty() && h != "self").collect()
}

/// The segments a path names after `rest`'s start: `a::b::C` gives `[a]` and `[b]` after
/// it; `{a, b::c}` gives each head.
fn next_segments(rest: &str) -> Vec<(String, &str)> {
    let rest = rest.trim_start();
    if rest.starts_with('{') {
        return group_heads(rest).into_iter().map(|h| (h, "")).collect();
    }
    let head = ident(rest);
    vec![(head.to_string(), &rest[head.len()..])]
}

/// The absolute module paths (their first two segments) that `code`, in module `me`, names.
fn references(code: &str, me: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let at = &code[i..];
        let starts_path =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let (base, rest): (Vec<String>, &str) = if starts_path && at.starts_with("crate::") {
            (Vec::new(), &at["crate::".len()..])
        } else if starts_path && at.starts_with("super::") {
            let mut rest = at;
            let mut base = me.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            (base, rest)
        } else {
            i += at.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let consumed = at.len() - rest.len();
        for (head, after) in next_segments(rest) {
            let mut path = base.clone();
            path.push(head);
            if path.len() < 2 {
                if let Some(after) = after.strip_prefix("::") {
                    for (second, _) in next_segments(after) {
                        found.push([path.clone(), vec![second]].concat());
                    }
                    continue;
                }
            }
            found.push(path);
        }
        i += consumed.max(1);
    }
    found
}

/// What `pub use m::{A, B}` in the crate root re-exports, by name: `crate::A` is module `m`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in code(lib).lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let module = ident(rest).to_string();
        let names = &rest[module.len()..];
        let names = names.trim_start_matches("::").trim_end_matches(';');
        let names = names.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            out.insert(ident(name.trim()).to_string(), module.clone());
        }
    }
    out
}

/// The crate's graph of top-level modules (outside tests), each edge with a file that makes it,
/// and the uses of one game by another (`games::x` naming `games::y`) or by shared code (any
/// other module naming `games::y`, where only `games::registry` and `games::by_name` are shared).
fn graph(layers: &Layers) -> (BTreeMap<(String, String), String>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(layers.src);
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let reexports = root_reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default());
    let modules: BTreeSet<&str> = layers.layers.iter().map(|(m, _)| *m).collect();
    let (mut edges, mut game_edges) = (BTreeMap::new(), Vec::new());
    for file in files {
        let me = module_of(&src, &file);
        let Some(top) = me.first() else { continue };
        if me.last().is_some_and(|m| m == "tests") {
            continue; // a module's unit tests in a file of their own
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for path in references(&code(&text), &me) {
            let Some(first) = path.first() else { continue };
            let target = match reexports.get(first) {
                Some(module) if !modules.contains(first.as_str()) => module.clone(),
                _ => first.clone(),
            };
            let shown = file.strip_prefix(&src).unwrap_or(&file).display().to_string();
            if first == "games" && top != "games" {
                // Shared code knows games through the engine's traits and the registry only.
                if let Some(game) = path.get(1).filter(|g| !matches!(g.as_str(), "registry" | "by_name")) {
                    game_edges.push(format!("{shown}: {top} names games::{game}: grow the engine's traits instead"));
                }
            }
            if &target != top {
                edges.entry((top.clone(), target)).or_insert(shown);
            } else if top == "games" && me.len() > 1 {
                if let Some(other) = path.get(1) {
                    let own = other == &me[1] || matches!(other.as_str(), "classic_input" | "board");
                    if !own && !matches!(other.as_str(), "registry" | "by_name") {
                        game_edges.push(format!("{shown}: games::{} uses games::{other}", me[1]));
                    }
                }
            }
        }
    }
    (edges, game_edges)
}

/// What breaks the layers of `layers` (printing the graph on the way).
fn violations(layers: &Layers) -> Vec<String> {
    let layer: BTreeMap<&str, usize> = layers.layers.iter().copied().collect();
    let (edges, game_edges) = graph(layers);
    println!("{}: module -> modules it uses", layers.name);
    let mut by_module: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        by_module.entry(from.as_str()).or_default().push(to.as_str());
    }
    let mut order: Vec<(&str, usize)> = layers.layers.to_vec();
    order.sort_by_key(|(m, l)| (*l, *m));
    for (module, l) in &order {
        println!("  layer {l} {module:<11} -> {}", by_module.get(module).map_or(String::new(), |v| v.join(", ")));
    }
    // The crate's top-level modules, as files `x.rs` or folders `x/` beside lib.rs.
    let modules_on_disk: BTreeSet<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(layers.src))
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().to_str().map(|n| n.trim_end_matches(".rs").to_string()))
                .collect()
        })
        .unwrap_or_default();
    let mut wrong = Vec::new();
    let mut used_allowances = BTreeSet::new();
    for ((from, to), file) in &edges {
        let (Some(&lf), Some(&lt)) = (layer.get(from.as_str()), layer.get(to.as_str())) else {
            if !layer.contains_key(from.as_str()) {
                wrong.push(format!("{file}: module `{from}` has no layer: add it to this test and ARCHITECTURE.md"));
            } else if modules_on_disk.contains(to.as_str()) {
                wrong.push(format!(
                    "{file}: uses module `{to}`, which has no layer: add it to this test and ARCHITECTURE.md"
                ));
            }
            continue; // an external crate or a root item
        };
        if lt < lf {
            continue;
        }
        if let Some(allowance) = layers.allowed.iter().find(|(f, t, _)| f == from && t == to) {
            println!("  allowed for now: {from} -> {to} ({})", allowance.2);
            used_allowances.insert((allowance.0, allowance.1));
            continue;
        }
        wrong.push(format!("{file}: `{from}` (layer {lf}) uses `{to}` (layer {lt})"));
    }
    for (from, to, _) in layers.allowed {
        if !used_allowances.contains(&(*from, *to)) {
            wrong.push(format!("the allowance {from} -> {to} is no longer needed: remove it"));
        }
    }
    wrong.extend(game_edges);
    wrong
}

fn check(layers: &Layers) {
    let wrong = violations(layers);
    assert!(wrong.is_empty(), "{}: layers broken:\n{}", layers.name, wrong.join("\n"));
}

#[test]
fn the_arena_library_is_layered() {
    check(&ARENA);
}

#[test]
fn bot_sdk_is_layered() {
    check(&BOT_SDK);
}

#[test]
fn the_course_crate_is_layered() {
    check(&COURSE);
}

#[test]
fn the_arena_library_does_not_depend_on_sample_bots() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap_or("").split("\n[").next().unwrap_or("");
    assert!(!deps.is_empty(), "the manifest has dependencies");
    assert!(!deps.contains("sample-bots"), "arena/Cargo.toml [dependencies] names sample-bots");
}

#[test]
fn the_check_sees_a_loop_when_there_is_one() {
    // Control: the parser finds every form of path this code base uses.
    let me = vec!["games".to_string(), "atoms".to_string(), "hosted".to_string()];
    let found = references(
        "use crate::engine::{A, B};\nuse crate::{files::x, replay::{Y, Z}};\nlet s = super::super::lcr::NAME;\nfoo::crate::not;\n",
        &me,
    );
    let tops: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(tops, ["engine::A", "engine::B", "files", "replay", "games::lcr"]);
    assert!(code("fn a() {}\n#[cfg(test)]\nmod tests {\n use crate::referee;\n}\n").find("referee").is_none());
    // A layering that puts the referee below the replay sees the referee use it.
    let inverted = Layers {
        name: "inverted",
        src: "src",
        layers: &[
            ("engine", 0),
            ("sandbox", 0),
            ("files", 1),
            ("referee", 2),
            ("replay", 3),
            ("games", 3),
            ("doctor", 4),
            ("starter", 4),
            ("tournament", 4),
            ("view", 4),
        ],
        allowed: ARENA.allowed,
    };
    let broken = violations(&inverted);
    assert!(broken.iter().any(|v| v.ends_with("`referee` (layer 2) uses `replay` (layer 3)")), "{broken:?}");
    assert!(broken.iter().any(|v| v.ends_with("`games` (layer 3) uses `replay` (layer 3)")), "same layer: {broken:?}");
}

#[test]
fn the_check_sees_a_game_use_another_and_a_stale_allowance() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod doctor;\npub mod engine;\npub mod games;\n");
    write("engine.rs", "pub struct X;\n");
    write("games/mod.rs", "pub mod a;\npub mod b;\npub mod classic_input;\n");
    write("games/a.rs", "use crate::games::b::Rules;\nuse crate::games::classic_input::read;\nuse crate::engine::X;\n");
    write("games/b.rs", "use super::classic_input::read;\n");
    write("doctor.rs", "use crate::games::{b::Rules, registry};\nuse crate::games::by_name;\n");
    let src: &'static str = Box::leak(dir.path().display().to_string().into_boxed_str());
    let toy = Layers {
        name: "toy",
        src,
        layers: &[("engine", 0), ("games", 1), ("doctor", 2)],
        allowed: &[("engine", "games", "a loop that is not there")],
    };
    let broken = violations(&toy);
    assert_eq!(
        broken,
        [
            "the allowance engine -> games is no longer needed: remove it".to_string(),
            "doctor.rs: doctor names games::b: grow the engine's traits instead".to_string(),
            "games/a.rs: games::a uses games::b".to_string(),
        ]
    );
}
