//! Starter folders for `arena new-bot`: a language's kit and sample bot, its build file, the
//! course's duel map and 20 tests, a README with the three commands a student runs, and a
//! tournament snippet. Every file is embedded in the binary, so it works from any folder.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::engine::{BotKit, GameInfo, KitSample};

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
    /// The game has no starter: no bots play it, or it has no sample bots.
    #[error("{0}")]
    NoKit(String),
    /// The game has no sample bot in this language.
    #[error("{game} has no starter in {lang}: it has one in {have}")]
    NoSample {
        /// The game's title.
        game: &'static str,
        /// The language asked for.
        lang: Lang,
        /// The languages it has one in.
        have: String,
    },
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
/// The C kit's header.
pub const C_KIT_H: &str = include_str!("../../starter-kits/c/botkit.h");
/// The C kit's source.
pub const C_KIT_C: &str = include_str!("../../starter-kits/c/botkit.c");
/// The Python kit.
pub const PY_KIT: &str = include_str!("../../starter-kits/python/botkit.py");

/// The Rust SDK's source files, by file name (a test checks none is missing).
pub const RUST_SDK: [(&str, &str); 14] = [
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
    ("examples/starter_bot.rs", include_str!("../../bot-sdk/examples/starter_bot.rs")),
    ("examples/tactics_starter.rs", include_str!("../../bot-sdk/examples/tactics_starter.rs")),
    ("examples/atoms_starter.rs", include_str!("../../bot-sdk/examples/atoms_starter.rs")),
];

/// `title` after "a" or "an" as it is spoken: "an Atoms", "an OOPtimal Tactics", "a Resource Rush".
pub fn a_or_an(title: &str) -> String {
    let article = if title.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {title}")
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
    /// The commands of the README: build, duel against the game's sample bot, and the game's
    /// own third command if it has one (Resource Rush: the 20 tests), each with what it does.
    pub commands: Vec<(String, String)>,
}

/// What each language needs: its files, build command and bot command line.
struct Recipe {
    files: Vec<(PathBuf, String)>,
    build: String,
    bot: String,
    tournament_build: Option<String>,
    /// The bot's own file (`bot.c`, `src/main.rs`).
    main: &'static str,
    /// What a function of the bot is called (`function`, `method`).
    function: &'static str,
    debug: &'static str,
}

/// A C or C++ recipe: the kit and sample `files`, and a Makefile building `name` from
/// `sources` with the compiler variable and flags of `(compiler, flags, sources, headers)`.
fn make_recipe(
    name: &str,
    mut files: Vec<(PathBuf, String)>,
    (compiler, flags, sources, headers): (&str, &str, &str, &str),
    main: &'static str,
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
        main,
        function: "function",
        debug,
    }
}

/// A sample written under the kit's own file name `to` (`bot.c`): every mention of its own
/// name `from` (`@file greedy.c`), and a Python docstring's opening `"""greedy: `, says `to`.
fn renamed(sample: &str, from: &str, to: &str) -> String {
    let stem = |f: &str| f.rsplit_once('.').map_or(f, |(s, _)| s).to_string();
    sample.replace(from, to).replacen(&format!("\"\"\"{}: ", stem(from)), &format!("\"\"\"{}: ", stem(to)), 1)
}

/// The recipe of `lang` for the bot `name`, whose sample is `sample`.
fn recipe(lang: Lang, name: &str, sample: &KitSample) -> Recipe {
    let file = |path: &str, text: String| (PathBuf::from(path), text);
    let main = |to: &str| file(to, renamed(sample.text, sample.file, to));
    match lang {
        Lang::Cpp => make_recipe(
            name,
            vec![file("botkit.hpp", CPP_KIT.to_string()), main("bot.cpp")],
            ("CXX", "CXXFLAGS ?= -std=c++17 -O2 -Wall -Wextra -pedantic", "bot.cpp", "botkit.hpp"),
            "bot.cpp",
            "`std::cerr`",
        ),
        Lang::C => make_recipe(
            name,
            vec![file("botkit.h", C_KIT_H.to_string()), file("botkit.c", C_KIT_C.to_string()), main("bot.c")],
            ("CC", "CFLAGS ?= -std=c99 -O2 -Wall -Wextra -pedantic", "bot.c botkit.c", "botkit.h"),
            "bot.c",
            "`stderr` (`fprintf(stderr, …)`)",
        ),
        Lang::Python => Recipe {
            files: vec![file("botkit.py", PY_KIT.to_string()), main("bot.py")],
            build: "python3 -m py_compile bot.py botkit.py".to_string(),
            bot: "python3 bot.py".to_string(),
            tournament_build: None,
            main: "bot.py",
            function: "function",
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
                file("src/main.rs", sample.text.to_string()),
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
                main: "src/main.rs",
                function: "method",
                debug: "stderr (`eprintln!`)",
            }
        }
    }
}

/// The starter of `game` (its [`GameInfo::kit`]), or why it has none.
fn kit_of(game: &GameInfo) -> Result<&BotKit, StarterError> {
    match (&game.kit, game.bots) {
        (Some(kit), true) => Ok(kit),
        (_, false) => Err(StarterError::NoKit(format!(
            "{} has no bots: chance plays for every player, so there is no bot to write (watch a match with \
             `arena duel --game {}`, or play the handout's program with `arena play {}`)",
            game.title, game.name, game.name
        ))),
        (None, true) => Err(StarterError::NoKit(format!("{} has no starter kit", game.title))),
    }
}

/// The folder `arena new-bot --game GAME --lang LANG NAME` creates; `arena` is how to run the
/// arena itself (written into the README's commands and the tournament snippet); `named` says
/// whether its commands must name the game (`--game`: it is not the arena's default).
pub fn starter(game: &GameInfo, named: bool, lang: Lang, name: &str, arena: &str) -> Result<Starter, StarterError> {
    let kit = kit_of(game)?;
    let Some(sample) = kit.samples.iter().find(|s| s.lang == lang.name()) else {
        let have: Vec<&str> = kit.samples.iter().map(|s| s.lang).collect();
        return Err(StarterError::NoSample { game: game.title, lang, have: have.join(", ") });
    };
    if !valid_name(name) {
        return Err(StarterError::BadName(name.to_string()));
    }
    let r = recipe(lang, name, sample);
    let a = sh(arena);
    let game_flag = if named { format!(" --game {}", game.name) } else { String::new() };
    let opponent = kit.opponents.first().copied().unwrap_or("greedy");
    let opponent_command = sh_command(&format!("{a} bot {opponent}"));
    let bot = if r.bot.contains(' ') { sh_command(&r.bot) } else { r.bot.clone() };
    let on_map = kit.map.map_or(String::new(), |m| format!(" --map {}", m.path));
    let mut commands = vec![
        (r.build.clone(), "build".to_string()),
        (
            format!("{a} duel{game_flag}{on_map} --name {name} --name {opponent} {bot} {opponent_command}"),
            format!("duel against {opponent}"),
        ),
    ];
    if let Some(more) = &kit.more {
        commands.push((format!("{a} {}", more.args.replace("{bot}", &bot)), more.what.to_string()));
    }
    let count = ["", "one", "two", "three", "four"].get(commands.len()).copied().unwrap_or("");
    let block: Vec<&str> = commands.iter().map(|(c, _)| c.as_str()).collect();
    let duel_map = kit.map.map_or(String::new(), |m| format!(" on {} (`{}`)", m.about, m.path));
    let more_item = kit.more.map_or(String::new(), |m| format!("3. {}\n", m.readme));
    let item_end = if kit.more.is_some() { ";" } else { "." };
    let readme = format!(
        "# {name}: {game_title} bot in {title}\n\n\
         Made by `arena new-bot{game_flag} --lang {lang} {name}`. Your bot is `{main}` (the `{function}` {kind}); it \
         starts as the kit's sample\nbot, {sample}\n\n\
         The starter kit ({kit_files}) {kit_text}\n\n\
         ## The {count} commands\n\n\
         ```sh\n{block}\n```\n\n\
         1. builds the bot{built};\n\
         2. plays one duel against the arena's built-in `{opponent}`{duel_map}\n   \
            and prints the result; the replay goes to `replays/` (watch it with `{a} replay <file>` or\n   \
            `{a} view <file> --open`){item_end}\n{more_item}\n{path_note}\
         ## When something goes wrong\n\n\
         `{a} check-bot{game_flag} {bot}` {check}\n\n\
         ## A local tournament\n\n\
         `tournament.toml` pits your bot against the built-in sample bots, both sides of every pairing:\n\
         `{a} tournament --config tournament.toml` (results, replays and the leaderboard go to a new\n\
         folder under `replays/`; `--resume` that folder plays only what changed since). Add your\n\
         classmates' bots as more `[[bots]]` entries.\n",
        game_title = a_or_an(game.title),
        title = lang.title(),
        main = r.main,
        function = sample.function,
        kind = r.function,
        sample = kit.readme.sample,
        kit_files = match lang {
            Lang::Cpp => "`botkit.hpp`",
            Lang::C => "`botkit.h`, `botkit.c`",
            Lang::Python => "`botkit.py`",
            Lang::Rust => "`bot-sdk/`, the arena's own Rust SDK",
        },
        kit_text = kit.readme.kit.replace("{debug}", r.debug),
        block = block.join("\n"),
        check = kit.readme.check,
        path_note = if arena == "arena" {
            String::new()
        } else {
            format!(
                "These commands, and those below, call the arena by its full path, `{arena}`: a bot's command \
                 (such as `arena bot {opponent}`) finds programs in /usr/local/bin, /usr/bin and /bin only, \
                 whatever your PATH, and the arena is in none of them (or install `arena` into \
                 /usr/local/bin).\n\n"
            )
        },
        built = match lang {
            Lang::Python => " (for Python: checks that both files compile)",
            _ => "",
        },
    );
    let on = kit.map.map_or(String::new(), |m| format!(" on {}", m.about));
    let mut tournament = format!(
        "# A local tournament: {name} against the arena's built-in sample bots{on}.\n\
         # Run from this folder: {a} tournament --config tournament.toml\n\
         game = {}\n{}games = 1\n\n\
         [[bots]]\nname = {}\ncommand = {}\n",
        toml_str(game.name),
        kit.map.map_or(String::new(), |m| format!("maps = [{}]\n", toml_str(m.path))),
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
    for sample in kit.opponents {
        tournament.push_str(&format!(
            "\n[[bots]]\nname = {}\ncommand = {}\n",
            toml_str(sample),
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
    let map = kit.map.map(|m| (m.path, m.text));
    for (path, text) in map.iter().chain(kit.files) {
        files.push((PathBuf::from(path), text.to_string()));
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
    use crate::games::{atoms, lcr, resource_rush, tactics};

    /// Resource Rush's starter, as `arena new-bot` makes it.
    fn starter(lang: Lang, name: &str, arena: &str) -> Result<Starter, StarterError> {
        super::starter(&resource_rush::INFO, false, lang, name, arena)
    }

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
        assert_eq!(s.commands[0].0, "python3 -m py_compile bot.py botkit.py");
        assert_eq!(
            s.commands[1].0,
            "'/opt/my arena/arena' duel --map maps/duel.txt --name mybot --name greedy \"python3 bot.py\" \
             \"'/opt/my arena/arena' bot greedy\""
        );
        assert_eq!(s.commands[2].0, "'/opt/my arena/arena' test \"python3 bot.py\" --tests tests");
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

    /// Every command the README shows calls the arena as `new-bot` was called: a student
    /// who ran `target/release/arena new-bot` had `arena check-bot ./mybot` (and the
    /// tournament's, the replay's) fail with "command not found".
    #[test]
    fn every_command_of_the_readme_calls_the_arena_by_the_path_given() {
        let readme = |arena: &str| {
            let s = starter(Lang::Cpp, "mybot", arena).unwrap();
            s.files.iter().find(|(p, _)| p == Path::new("README.md")).unwrap().1.clone()
        };
        let full = readme("/opt/my arena/arena");
        for command in [
            "`'/opt/my arena/arena' check-bot ./mybot`",
            "`'/opt/my arena/arena' tournament --config tournament.toml`",
            "`'/opt/my arena/arena' replay <file>`",
            "`'/opt/my arena/arena' view <file> --open`",
        ] {
            assert!(full.contains(command), "{command} in {full}");
        }
        let runnable =
            |text: &str| text.lines().any(|l| l.contains("`arena check-bot") || l.contains("`arena tournament"));
        assert!(!runnable(&full), "a command by the bare name, which the shell may not find: {full}");
        assert!(full.contains("These commands, and those below, call the arena by its full path"), "{full}");
        // Called as `arena` (on the PATH, in /usr/local/bin), the README says `arena` and no note.
        let short = readme("arena");
        assert!(short.contains("`arena check-bot ./mybot`") && runnable(&short), "{short}");
        assert!(!short.contains("full path"), "{short}");
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

    /// Tactics and Atoms have a starter in every language: the game's own sample under the
    /// kit's name, commands that name the game, the duel against the game's sample bot; a game
    /// played on a config gets it, one played on parameters none.
    #[test]
    fn tactics_and_atoms_have_a_starter_in_every_language() {
        for (info, sample, opponent, map) in [
            (&tactics::hosted::INFO, "tactics", "tactics-greedy", Some("maps/config_01.txt")),
            (&atoms::hosted::INFO, "atoms", "atoms-greedy", None),
        ] {
            for lang in Lang::ALL {
                let s = super::starter(info, true, lang, "mybot", "arena").unwrap();
                let text = |path: &str| s.files.iter().find(|(p, _)| p == Path::new(path)).map(|(_, t)| t.as_str());
                let main = ["bot.cpp", "bot.c", "bot.py", "src/main.rs"].into_iter().find_map(text).unwrap();
                assert!(main.contains(sample) || main.to_lowercase().contains(sample), "{lang}: {main}");
                assert!(!main.contains("tactics_bot.py") && !main.contains("atoms-bot.c"), "{lang}: renamed: {main}");
                assert_eq!(s.commands.len(), 2, "{lang}: build and duel");
                let duel = &s.commands[1].0;
                assert!(duel.starts_with(&format!("arena duel --game {}", info.name)), "{duel}");
                assert!(duel.ends_with(&format!("\"arena bot {opponent}\"")), "{duel}");
                assert_eq!(duel.contains("--map"), map.is_some(), "{duel}");
                let readme = text("README.md").unwrap();
                assert!(readme.contains("## The two commands") && readme.contains(&format!("--game {}", info.name)));
                assert!(!readme.contains("RR_DEBUG") && !readme.contains("20 tests"), "{readme}");
                let config: toml::Value = toml::from_str(text("tournament.toml").unwrap()).unwrap();
                assert_eq!(config["game"].as_str(), Some(info.name));
                assert_eq!(config.get("maps").is_some(), map.is_some());
                assert_eq!(text(map.unwrap_or("none")).is_some(), map.is_some());
                assert!(text("tests/test1.txt").is_none(), "the 20 tests are Resource Rush's");
            }
        }
    }

    /// LCR has no bots, so no starter, and says why; the control: Resource Rush has one.
    #[test]
    fn a_game_without_bots_has_no_starter_and_says_so() {
        let err = super::starter(&lcr::INFO, true, Lang::Python, "mybot", "arena").unwrap_err().to_string();
        assert!(err.starts_with("Wild Left-Center-Right has no bots: chance plays for every player"), "{err}");
        assert!(starter(Lang::Python, "mybot", "arena").is_ok());
    }
}
