//! Resource Rush's part of a student's starter folder (`arena new-bot`): the greedy sample in
//! each language, the course's duel map and its 20 tests, and the README's words on them.

use crate::engine::{BotKit, KitCommand, KitMap, KitReadme, KitSample};

/// The sample bots: the kits' greedy one, and the Rust SDK's own starter (shorter, and it
/// passes more of the 20 tests than `sample-bots`' greedy).
const SAMPLES: [KitSample; 4] = [
    KitSample {
        lang: "cpp",
        file: "greedy.cpp",
        text: include_str!("../../../../starter-kits/cpp/greedy.cpp"),
        function: "Greedy::act",
    },
    KitSample { lang: "c", file: "greedy.c", text: include_str!("../../../../starter-kits/c/greedy.c"), function: "act" },
    KitSample {
        lang: "python",
        file: "greedy.py",
        text: include_str!("../../../../starter-kits/python/greedy.py"),
        function: "act",
    },
    KitSample {
        lang: "rust",
        file: "starter_bot.rs",
        text: include_str!("../../../../bot-sdk/examples/starter_bot.rs"),
        function: "act",
    },
];

/// The 20 tests, their minimums and their README, by file name.
pub const TESTS: [(&str, &str); 22] = [
    ("tests/test1.txt", include_str!("../../../../maps/tests/test1.txt")),
    ("tests/test2.txt", include_str!("../../../../maps/tests/test2.txt")),
    ("tests/test3.txt", include_str!("../../../../maps/tests/test3.txt")),
    ("tests/test4.txt", include_str!("../../../../maps/tests/test4.txt")),
    ("tests/test5.txt", include_str!("../../../../maps/tests/test5.txt")),
    ("tests/test6.txt", include_str!("../../../../maps/tests/test6.txt")),
    ("tests/test7.txt", include_str!("../../../../maps/tests/test7.txt")),
    ("tests/test8.txt", include_str!("../../../../maps/tests/test8.txt")),
    ("tests/test9.txt", include_str!("../../../../maps/tests/test9.txt")),
    ("tests/test10.txt", include_str!("../../../../maps/tests/test10.txt")),
    ("tests/test11.txt", include_str!("../../../../maps/tests/test11.txt")),
    ("tests/test12.txt", include_str!("../../../../maps/tests/test12.txt")),
    ("tests/test13.txt", include_str!("../../../../maps/tests/test13.txt")),
    ("tests/test14.txt", include_str!("../../../../maps/tests/test14.txt")),
    ("tests/test15.txt", include_str!("../../../../maps/tests/test15.txt")),
    ("tests/test16.txt", include_str!("../../../../maps/tests/test16.txt")),
    ("tests/test17.txt", include_str!("../../../../maps/tests/test17.txt")),
    ("tests/test18.txt", include_str!("../../../../maps/tests/test18.txt")),
    ("tests/test19.txt", include_str!("../../../../maps/tests/test19.txt")),
    ("tests/test20.txt", include_str!("../../../../maps/tests/test20.txt")),
    ("tests/limite_minime.txt", include_str!("../../../../maps/tests/limite_minime.txt")),
    ("tests/README.md", include_str!("../../../../maps/tests/README.md")),
];

/// Resource Rush's starter.
pub const KIT: BotKit = BotKit {
    samples: &SAMPLES,
    map: Some(KitMap {
        path: "maps/duel.txt",
        text: include_str!("../../../../maps/duel.txt"),
        about: "the course's duel map",
    }),
    files: &TESTS,
    opponents: &["greedy", "reference"],
    more: Some(KitCommand {
        args: "test {bot} --tests tests",
        what: "run the 20 tests",
        readme: "runs the 20 single-player tests in `tests/` (with the course's minimums,\n   \
                 `tests/limite_minime.txt`; `tests/README.md` says what each exercises and which are easy). It\n   \
                 exits non-zero until all 20 pass; the sample bot passes the easy ones.",
    }),
    readme: KitReadme {
        sample: "a greedy one: each tick it goes for the best value per tick of distance among the items it\n\
                 can still afford, always keeping enough ticks to reach the final, then goes there.",
        kit: "reads the protocol, tracks the map, both players' positions, scores,\n\
              multipliers and Jump and the ticks left exactly as the referee does (duels and tests alike), and\n\
              finds legal moves and shortest paths, through a `J` when picking it up makes the way shorter\n\
              (`path_to`, `distance_to`). Every function is documented in the kit. Print debug output to\n\
              {debug} only: stdout is the protocol. With `RR_DEBUG=1` set, the kit prints its view of each\n\
              tick to stderr.",
        check: "plays a few short situations (both seats, CRLF input, a jump, a power-up,\n\
                test mode) and explains every problem it sees, with the fix.",
    },
    check: Some(super::doctor::CHECKUP),
    bounds: "the map's size (N rows, M columns: the map need not be square)",
    speaks: crate::engine::Speaks { header: "ARENA", answers: &["WAIT", "MOVE # #"] },
};

/// Whether `text` is one of the 20 public tests as this arena ships them (line endings and
/// trailing white space aside): what a bot may know in advance anyway.
pub fn is_public_test(text: &str) -> bool {
    let plain = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n").trim_end().to_string();
    let text = plain(text);
    TESTS.iter().any(|(name, public)| name.starts_with("tests/test") && plain(public) == text)
}

/// The number of the test a file of this name holds (`test7.txt`, `test07.txt`: 7), if any.
pub fn test_number(file_name: &str) -> Option<usize> {
    file_name.strip_prefix("test")?.strip_suffix(".txt")?.parse().ok()
}

/// The numbers of the tests built into the arena, in order (known without writing them out:
/// `arena test --only K` refuses a K that is none of them before it makes their folder).
pub fn builtin_test_numbers() -> Vec<usize> {
    TESTS.iter().filter_map(|(name, _)| test_number(name.trim_start_matches("tests/"))).collect()
}

/// Writes the 20 tests built into the arena, their minimums and their README into `dir` (made):
/// what `arena test` plays where no folder of tests is at hand.
pub fn write_builtin_tests(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    TESTS.iter().try_for_each(|(name, text)| std::fs::write(dir.join(name.trim_start_matches("tests/")), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tests_are_embedded_whole() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let mut on_disk: Vec<String> =
            std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        on_disk.sort();
        let mut embedded: Vec<String> = TESTS.iter().map(|(f, _)| f.trim_start_matches("tests/").to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }

    #[test]
    fn the_built_in_tests_are_numbered_1_to_20() {
        assert_eq!(builtin_test_numbers(), (1..=20).collect::<Vec<_>>());
        assert_eq!((test_number("test07.txt"), test_number("test7.md"), test_number("README.md")), (Some(7), None, None));
    }
}
