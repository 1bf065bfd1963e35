//! Starter folders for `arena new-bot`: a language's kit and sample bot, its build file, the
//! course's duel map and 20 tests, a README with the three commands a student runs, and a
//! tournament snippet. Every file is embedded in the binary, so it works from any folder.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A language with a starter kit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// C++17: `botkit.hpp`, `bot.cpp`, a Makefile.
    Cpp,
    /// C99: `botkit.h`, `botkit.c`, `bot.c`, a Makefile.
    C,
    /// Python 3: `botkit.py`, `bot.py`; nothing to build.
    Python,
    /// Rust: `bot-sdk/` (the SDK's source), `src/main.rs`, a Cargo.toml.
    Rust,
}

impl Lang {
    /// Every language, in the order the docs list them.
    pub const ALL: [Lang; 4] = [Lang::Cpp, Lang::C, Lang::Python, Lang::Rust];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Cpp => "cpp",
            Lang::C => "c",
            Lang::Python => "python",
            Lang::Rust => "rust",
        }
    }

    /// Other names a student may write for it (`--lang c++`, `--lang py`).
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Lang::Cpp => &["c++", "cxx"],
            Lang::C => &[],
            Lang::Python => &["py", "python3"],
            Lang::Rust => &["rs"],
        }
    }

    /// The language from its command-line name or an alias, in any case (`C`, `Python`, `C++`).
    pub fn parse(name: &str) -> Result<Lang, StarterError> {
        let wanted = name.trim().to_lowercase();
        Lang::ALL
            .into_iter()
            .find(|l| l.name() == wanted || l.aliases().contains(&wanted.as_str()))
            .ok_or_else(|| StarterError::UnknownLang(name.to_string()))
    }

    fn title(self) -> &'static str {
        match self {
            Lang::Cpp => "C++17",
            Lang::C => "C99",
            Lang::Python => "Python 3",
            Lang::Rust => "Rust",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a starter folder was not created.
#[derive(Debug, Error)]
pub enum StarterError {
    /// Not one of cpp, c, python, rust.
    #[error("unknown language `{0}`: expected cpp, c, python or rust (also c++, py, rs; in any case)")]
    UnknownLang(String),
    /// The name cannot name a program, a folder and a crate.
    #[error(
        "`{0}` is not a usable bot name: use 1 to 40 letters, digits, `-` or `_`, starting with a letter \
         (it names the folder, the program and the bot in results)"
    )]
    BadName(String),
    /// The folder is already there.
    #[error("{} already exists: choose another name, or move it away first", .0.display())]
    Exists(PathBuf),
    /// Writing failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// What was being written.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The C++ kit.
pub const CPP_KIT: &str = include_str!("../../starter-kits/cpp/botkit.hpp");
/// The C++ sample bot.
pub const CPP_SAMPLE: &str = include_str!("../../starter-kits/cpp/greedy.cpp");
/// The C kit's header.
pub const C_KIT_H: &str = include_str!("../../starter-kits/c/botkit.h");
/// The C kit's source.
pub const C_KIT_C: &str = include_str!("../../starter-kits/c/botkit.c");
/// The C sample bot.
pub const C_SAMPLE: &str = include_str!("../../starter-kits/c/greedy.c");
/// The Python kit.
pub const PY_KIT: &str = include_str!("../../starter-kits/python/botkit.py");
/// The Python sample bot.
pub const PY_SAMPLE: &str = include_str!("../../starter-kits/python/greedy.py");
/// The Rust sample bot, a whole `src/main.rs` (its own, not `sample-bots`' greedy, which also
/// sets the easy tests' minimums and passes fewer of the 20 tests).
pub const RUST_SAMPLE: &str = include_str!("../../bot-sdk/examples/starter_bot.rs");

/// The Rust SDK's source files, by file name (a test checks none is missing).
pub const RUST_SDK: [(&str, &str); 12] = [
    ("src/action.rs", include_str!("../../bot-sdk/src/action.rs")),
    ("src/atoms.rs", include_str!("../../bot-sdk/src/atoms.rs")),
    ("src/bot.rs", include_str!("../../bot-sdk/src/bot.rs")),
    ("src/grid.rs", include_str!("../../bot-sdk/src/grid.rs")),
    ("src/lib.rs", include_str!("../../bot-sdk/src/lib.rs")),
    ("src/map.rs", include_str!("../../bot-sdk/src/map.rs")),
    ("src/path.rs", include_str!("../../bot-sdk/src/path.rs")),
    ("src/rules.rs", include_str!("../../bot-sdk/src/rules.rs")),
    ("src/state.rs", include_str!("../../bot-sdk/src/state.rs")),
    ("src/tactics.rs", include_str!("../../bot-sdk/src/tactics.rs")),
    // The crate docs show this example (and compile it).
    ("examples/first_bot.rs", include_str!("../../bot-sdk/examples/first_bot.rs")),
    ("examples/starter_bot.rs", RUST_SAMPLE),
];

/// The course's duel map.
const DUEL_MAP: &str = include_str!("../../maps/duel.txt");

/// Whether `text` is one of the 20 public tests as this arena ships them (line endings and
/// trailing white space aside): what a bot may know in advance anyway.
pub fn is_public_test(text: &str) -> bool {
    let plain = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n").trim_end().to_string();
    let text = plain(text);
    TESTS.iter().any(|(name, public)| name.starts_with("test") && plain(public) == text)
}

/// The 20 tests, their minimums and their README, by file name.
const TESTS: [(&str, &str); 22] = [
    ("test1.txt", include_str!("../../maps/tests/test1.txt")),
    ("test2.txt", include_str!("../../maps/tests/test2.txt")),
    ("test3.txt", include_str!("../../maps/tests/test3.txt")),
    ("test4.txt", include_str!("../../maps/tests/test4.txt")),
    ("test5.txt", include_str!("../../maps/tests/test5.txt")),
    ("test6.txt", include_str!("../../maps/tests/test6.txt")),
    ("test7.txt", include_str!("../../maps/tests/test7.txt")),
    ("test8.txt", include_str!("../../maps/tests/test8.txt")),
    ("test9.txt", include_str!("../../maps/tests/test9.txt")),
    ("test10.txt", include_str!("../../maps/tests/test10.txt")),
    ("test11.txt", include_str!("../../maps/tests/test11.txt")),
    ("test12.txt", include_str!("../../maps/tests/test12.txt")),
    ("test13.txt", include_str!("../../maps/tests/test13.txt")),
    ("test14.txt", include_str!("../../maps/tests/test14.txt")),
    ("test15.txt", include_str!("../../maps/tests/test15.txt")),
    ("test16.txt", include_str!("../../maps/tests/test16.txt")),
    ("test17.txt", include_str!("../../maps/tests/test17.txt")),
    ("test18.txt", include_str!("../../maps/tests/test18.txt")),
    ("test19.txt", include_str!("../../maps/tests/test19.txt")),
    ("test20.txt", include_str!("../../maps/tests/test20.txt")),
    ("limite_minime.txt", include_str!("../../maps/tests/limite_minime.txt")),
    ("README.md", include_str!("../../maps/tests/README.md")),
];

/// Writes the 20 tests built into the arena, their minimums and their README into `dir` (made):
/// what `arena test` plays where no folder of tests is at hand.
pub fn write_builtin_tests(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    TESTS.iter().try_for_each(|(name, text)| std::fs::write(dir.join(name), text))
}

/// Whether `name` can name the folder, the program and (for Rust) the crate.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 40
}

/// Quotes a word for a POSIX shell only when it needs it.
fn sh(word: &str) -> String {
    shell_words::quote(word).into_owned()
}

/// A command line for the arena's bot field (split like a shell would), quoted as one shell
/// word: in double quotes when that is enough, which reads best in a README.
fn sh_command(command: &str) -> String {
    if command.chars().any(|c| matches!(c, '"' | '$' | '`' | '\\' | '!')) {
        sh(command)
    } else {
        format!("\"{command}\"")
    }
}

/// A TOML string literal.
fn toml_str(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// One generated folder, as (relative path, contents) pairs.
#[derive(Debug, Clone)]
pub struct Starter {
    /// The files, relative to the folder.
    pub files: Vec<(PathBuf, String)>,
    /// The three commands of the README: build, duel against greedy, the 20 tests.
    pub commands: [String; 3],
}

/// What each language needs: its files, build command and bot command line.
struct Recipe {
    files: Vec<(PathBuf, String)>,
    build: String,
    bot: String,
    tournament_build: Option<String>,
    edit: &'static str,
    debug: &'static str,
}

/// A C or C++ recipe: the kit and sample `files`, and a Makefile building `name` from
/// `sources` with the compiler variable and flags of `(compiler, flags, sources, headers)`.
fn make_recipe(
    name: &str,
    mut files: Vec<(PathBuf, String)>,
    (compiler, flags, sources, headers): (&str, &str, &str, &str),
    edit: &'static str,
    debug: &'static str,
) -> Recipe {
    let flags_var = flags.split_whitespace().next().unwrap_or("CFLAGS");
    files.push((
        PathBuf::from("Makefile"),
        format!(
            "# Builds {name} (your bot and the starter kit): `make`, then ./{name}.\n{flags}\n\n\
             {name}: {sources} {headers}\n\t$({compiler}) $({flags_var}) -o {name} {sources}\n\n\
             clean:\n\trm -f {name}\n\n.PHONY: clean\n"
        ),
    ));
    Recipe {
        files,
        build: "make".to_string(),
        bot: format!("./{name}"),
        tournament_build: Some("make -s".to_string()),
        edit,
        debug,
    }
}

/// A sample written under the kit's own file name: its header says that name
/// (`@file bot.c`), not the sample's in `starter-kits/` (`@file greedy.c`).
fn renamed(sample: &str, header: &str, to: &str) -> String {
    sample.replacen(header, to, 1)
}

fn recipe(lang: Lang, name: &str) -> Recipe {
    let file = |path: &str, text: String| (PathBuf::from(path), text);
    match lang {
        Lang::Cpp => make_recipe(
            name,
            vec![
                file("botkit.hpp", CPP_KIT.to_string()),
                file("bot.cpp", renamed(CPP_SAMPLE, "@file greedy.cpp", "@file bot.cpp")),
            ],
            ("CXX", "CXXFLAGS ?= -std=c++17 -O2 -Wall -Wextra -pedantic", "bot.cpp", "botkit.hpp"),
            "`bot.cpp` (the `Greedy::act` function)",
            "`std::cerr`",
        ),
        Lang::C => make_recipe(
            name,
            vec![
                file("botkit.h", C_KIT_H.to_string()),
                file("botkit.c", C_KIT_C.to_string()),
                file("bot.c", renamed(C_SAMPLE, "@file greedy.c", "@file bot.c")),
            ],
            ("CC", "CFLAGS ?= -std=c99 -O2 -Wall -Wextra -pedantic", "bot.c botkit.c", "botkit.h"),
            "`bot.c` (the `act` function)",
            "`stderr` (`fprintf(stderr, …)`)",
        ),
        Lang::Python => Recipe {
            files: vec![
                file("botkit.py", PY_KIT.to_string()),
                file("bot.py", renamed(PY_SAMPLE, "\"\"\"greedy: ", "\"\"\"bot: ")),
            ],
            build: "python3 -m py_compile bot.py botkit.py".to_string(),
            bot: "python3 bot.py".to_string(),
            tournament_build: None,
            edit: "`bot.py` (the `act` function)",
            debug: "`sys.stderr` (`print(…, file=sys.stderr)`)",
        },
        Lang::Rust => {
            let mut files = vec![
                file(
                    "Cargo.toml",
                    format!(
                        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
                         [dependencies]\nbot-sdk = {{ path = \"bot-sdk\" }}\n\n\
                         # A workspace of its own, wherever the folder is.\n[workspace]\n"
                    ),
                ),
                file("src/main.rs", RUST_SAMPLE.to_string()),
                file(
                    "bot-sdk/Cargo.toml",
                    "[package]\nname = \"bot-sdk\"\ndescription = \"Write a Resource Rush bot in Rust: protocol, \
                     game state, rules and path finding.\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
                     [dependencies]\nthiserror = \"2\"\n"
                        .to_string(),
                ),
            ];
            files.extend(RUST_SDK.iter().map(|(f, text)| file(&format!("bot-sdk/{f}"), text.to_string())));
            Recipe {
                files,
                build: "cargo build --release".to_string(),
                bot: format!("./target/release/{name}"),
                tournament_build: Some("cargo build --release --quiet".to_string()),
                edit: "`src/main.rs` (the `act` method)",
                debug: "stderr (`eprintln!`)",
            }
        }
    }
}

/// The folder `arena new-bot --lang LANG NAME` creates; `arena` is how to run the arena
/// itself (written into the README's commands and the tournament snippet).
pub fn starter(lang: Lang, name: &str, arena: &str) -> Result<Starter, StarterError> {
    if !valid_name(name) {
        return Err(StarterError::BadName(name.to_string()));
    }
    let r = recipe(lang, name);
    let a = sh(arena);
    let greedy = sh_command(&format!("{a} bot greedy"));
    let bot = if r.bot.contains(' ') { sh_command(&r.bot) } else { r.bot.clone() };
    let commands = [
        r.build.clone(),
        format!("{a} duel --map maps/duel.txt --name {name} --name greedy {bot} {greedy}"),
        format!("{a} test {bot} --tests tests"),
    ];
    let readme = format!(
        "# {name}: a Resource Rush bot in {title}\n\n\
         Made by `arena new-bot --lang {lang} {name}`. Your bot is {edit}; it starts as the kit's sample\n\
         bot, a greedy one: each tick it goes for the best value per tick of distance among the items it\n\
         can still afford, always keeping enough ticks to reach the final, then goes there.\n\n\
         The starter kit ({kit}) reads the protocol, tracks the map, both players' positions, scores,\n\
         multipliers and Jump and the ticks left exactly as the referee does (duels and tests alike), and\n\
         finds legal moves and shortest paths, through a `J` when picking it up makes the way shorter\n\
         (`path_to`, `distance_to`). Every function is documented in the kit. Print debug output to\n\
         {debug} only: stdout is the protocol. With `RR_DEBUG=1` set, the kit prints its view of each\n\
         tick to stderr.\n\n\
         ## The three commands\n\n\
         ```sh\n{c0}\n{c1}\n{c2}\n```\n\n\
         1. builds the bot{built};\n\
         2. plays one duel against the arena's built-in `greedy` on the course's duel map (`maps/duel.txt`)\n   \
            and prints the result; the replay goes to `replays/` (watch it with `arena replay <file>` or\n   \
            `arena view <file> --open`);\n\
         3. runs the 20 single-player tests in `tests/` (with the course's minimums,\n   \
            `tests/limite_minime.txt`; `tests/README.md` says what each exercises and which are easy). It\n   \
            exits non-zero until all 20 pass; the sample bot passes the easy ones.\n\n{path_note}\
         ## When something goes wrong\n\n\
         `arena check-bot {bot}` plays a few short situations (both seats, CRLF input, a jump, a power-up,\n\
         test mode) and explains every problem it sees, with the fix.\n\n\
         ## A local tournament\n\n\
         `tournament.toml` pits your bot against the built-in sample bots, both sides of every pairing:\n\
         `arena tournament --config tournament.toml` (results, replays and the leaderboard go to a new\n\
         folder under `replays/`; `--resume` that folder plays only what changed since). Add your\n\
         classmates' bots as more `[[bots]]` entries.\n",
        title = lang.title(),
        edit = r.edit,
        kit = match lang {
            Lang::Cpp => "`botkit.hpp`",
            Lang::C => "`botkit.h`, `botkit.c`",
            Lang::Python => "`botkit.py`",
            Lang::Rust => "`bot-sdk/`, the arena's own Rust SDK",
        },
        debug = r.debug,
        c0 = commands[0],
        c1 = commands[1],
        c2 = commands[2],
        path_note = if arena == "arena" {
            String::new()
        } else {
            format!(
                "These commands call the arena by its full path, `{arena}`: a bot's command (such as `arena bot \
                 greedy`) finds programs in /usr/local/bin, /usr/bin and /bin only, whatever your PATH, and the \
                 arena is in none of them. Do the same with the commands below (or install `arena` into \
                 /usr/local/bin).\n\n"
            )
        },
        built = match lang {
            Lang::Python => " (for Python: checks that both files compile)",
            _ => "",
        },
    );
    let mut tournament = format!(
        "# A local tournament: {name} against the arena's built-in sample bots on the course's duel map.\n\
         # Run from this folder: {a} tournament --config tournament.toml\n\
         game = \"resource-rush\"\nmaps = [\"maps/duel.txt\"]\ngames = 1\n\n\
         [[bots]]\nname = {}\ncommand = {}\n",
        toml_str(name),
        toml_str(&r.bot),
    );
    if let Some(build) = &r.tournament_build {
        tournament.push_str(&format!("build = {}\n", toml_str(build)));
    }
    if r.bot.split_whitespace().next().is_some_and(crate::sandbox::is_interpreter) {
        // A script's folder is the bot's: this one. The duels' replays and every league under
        // replays/ are no part of it (else each run is a new version, whose copy holds the leagues).
        tournament.push_str(
            "# Not part of your bot: the replays and the leagues the arena writes here.\nignore = [\"replays\"]\n",
        );
    }
    for sample in ["greedy", "reference"] {
        tournament.push_str(&format!(
            "\n[[bots]]\nname = \"{sample}\"\ncommand = {}\n",
            toml_str(&format!("{a} bot {sample}"))
        ));
    }
    let ignore = match lang {
        Lang::Rust => "/target\n/replays\n".to_string(),
        Lang::Python => "__pycache__/\n/replays\n".to_string(),
        _ => format!("/{name}\n/replays\n"),
    };
    let mut files = r.files;
    files.push((PathBuf::from("README.md"), readme));
    files.push((PathBuf::from("tournament.toml"), tournament));
    files.push((PathBuf::from(".gitignore"), ignore));
    files.push((PathBuf::from("maps/duel.txt"), DUEL_MAP.to_string()));
    for (file, text) in TESTS.iter() {
        files.push((Path::new("tests").join(file), text.to_string()));
    }
    Ok(Starter { files, commands })
}

/// Writes `starter` as the folder `dir`, which must not exist. The files go to a staging
/// folder beside it first, renamed into place at the end: an interrupted run leaves no
/// half-made folder under the name.
pub fn create(dir: &Path, starter: &Starter) -> Result<(), StarterError> {
    if dir.exists() {
        return Err(StarterError::Exists(dir.to_path_buf()));
    }
    let name = dir.file_name().map_or_else(|| "bot".into(), |n| n.to_string_lossy().into_owned());
    let staging = dir.with_file_name(format!(".{name}.new-bot-{}", std::process::id()));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| StarterError::Io { path, source }
    };
    let written = (|| {
        std::fs::create_dir(&staging).map_err(io(dir))?;
        for (path, text) in &starter.files {
            let full = staging.join(path);
            if let Some(sub) = full.parent() {
                std::fs::create_dir_all(sub).map_err(io(&dir.join(path)))?;
            }
            std::fs::write(&full, text).map_err(io(&dir.join(path)))?;
        }
        std::fs::rename(&staging, dir).map_err(io(dir))
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rust_sdk_is_embedded_whole() {
        let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bot-sdk");
        let mut on_disk: Vec<String> = Vec::new();
        for sub in ["src", "examples"] {
            let names = std::fs::read_dir(sdk.join(sub)).unwrap().flatten().map(|e| e.file_name());
            on_disk.extend(names.map(|n| format!("{sub}/{}", n.to_string_lossy())).filter(|n| n.ends_with(".rs")));
        }
        on_disk.sort();
        let mut embedded: Vec<String> = RUST_SDK.iter().map(|(f, _)| f.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk, "add new bot-sdk files to RUST_SDK");
    }

    #[test]
    fn the_tests_are_embedded_whole() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let mut on_disk: Vec<String> =
            std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        on_disk.sort();
        let mut embedded: Vec<String> = TESTS.iter().map(|(f, _)| f.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }

    /// Each kit's sample is written as `bot.c`, `bot.cpp`, `bot.py`, and its header says so
    /// (it said `@file greedy.c`, the name in `starter-kits/`, which the kit has no file of).
    #[test]
    fn a_kits_sample_names_its_own_file() {
        for (lang, file, header) in [
            (Lang::C, "bot.c", "@file bot.c"),
            (Lang::Cpp, "bot.cpp", "@file bot.cpp"),
            (Lang::Python, "bot.py", "\"\"\"bot: "),
        ] {
            let kit = starter(lang, "mybot", "arena").unwrap();
            let (_, text) = kit.files.iter().find(|(p, _)| p == Path::new(file)).unwrap();
            assert!(text.contains(header), "{file}: {}", text.lines().take(3).collect::<Vec<_>>().join("\n"));
            assert!(!text.contains("greedy.c") && !text.contains("\"\"\"greedy"), "{file}");
        }
    }

    #[test]
    fn names_must_suit_a_folder_a_program_and_a_crate() {
        for good in ["mybot", "Bot_2", "a-b"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "2bot", "my bot", "../x", "a/b", "bot.exe", &"x".repeat(41)] {
            assert!(!valid_name(bad), "{bad}");
            assert!(matches!(starter(Lang::C, bad, "arena"), Err(StarterError::BadName(_))));
        }
        assert!(matches!(Lang::parse("java"), Err(StarterError::UnknownLang(_))));
        assert_eq!(Lang::ALL.map(|l| Lang::parse(l.name()).ok()), Lang::ALL.map(Some));
    }

    /// A language's name is taken in any case, and so are its aliases; other names are not.
    #[test]
    fn language_names_are_taken_in_any_case_and_by_their_aliases() {
        for (written, lang) in [
            ("C", Lang::C),
            ("CPP", Lang::Cpp),
            ("Cpp", Lang::Cpp),
            ("c++", Lang::Cpp),
            ("C++", Lang::Cpp),
            ("cxx", Lang::Cpp),
            ("Python", Lang::Python),
            ("PY", Lang::Python),
            ("python3", Lang::Python),
            ("Rust", Lang::Rust),
            ("RS", Lang::Rust),
        ] {
            assert_eq!(Lang::parse(written).ok(), Some(lang), "{written}");
        }
        for bad in ["", "cc", "c#", "java", "pythons", "r"] {
            let err = Lang::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("unknown language `{bad}`: expected cpp, c, python or rust")), "{err}");
        }
    }

    #[test]
    fn the_readme_quotes_what_the_shell_needs() {
        let s = starter(Lang::Python, "mybot", "/opt/my arena/arena").unwrap();
        assert_eq!(s.commands[0], "python3 -m py_compile bot.py botkit.py");
        assert_eq!(
            s.commands[1],
            "'/opt/my arena/arena' duel --map maps/duel.txt --name mybot --name greedy \"python3 bot.py\" \
             \"'/opt/my arena/arena' bot greedy\""
        );
        assert_eq!(s.commands[2], "'/opt/my arena/arena' test \"python3 bot.py\" --tests tests");
        let toml_text = &s.files.iter().find(|(p, _)| p == Path::new("tournament.toml")).unwrap().1;
        let config: toml::Value = toml::from_str(toml_text).unwrap();
        assert_eq!(config["bots"][1]["command"].as_str(), Some("'/opt/my arena/arena' bot greedy"));
        assert_eq!(config["bots"][0]["command"].as_str(), Some("python3 bot.py"));
        // The script's folder, the bot's, is the kit's: the leagues written there are not the bot.
        assert_eq!(config["bots"][0]["ignore"].as_array().map(Vec::len), Some(1));
        assert_eq!(config["bots"][0]["ignore"][0].as_str(), Some("replays"));
        let c = starter(Lang::C, "mybot", "arena").unwrap();
        let c_text = &c.files.iter().find(|(p, _)| p == Path::new("tournament.toml")).unwrap().1;
        assert!(!c_text.contains("ignore"), "a program without a folder has nothing to ignore: {c_text}");
    }

    #[test]
    fn create_refuses_an_existing_folder_and_leaves_nothing_half_made() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("mybot");
        let s = starter(Lang::Cpp, "mybot", "arena").unwrap();
        create(&dir, &s).unwrap();
        assert!(dir.join("botkit.hpp").is_file() && dir.join("tests/test20.txt").is_file());
        assert!(matches!(create(&dir, &s), Err(StarterError::Exists(_))));
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("mybot")], "no staging folder is left behind");
    }
}
