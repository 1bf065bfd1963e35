//! Atoms' part of a student's starter folder (`arena new-bot --game atoms`): the kits' small
//! sample in each language and the README's words on it.

use crate::engine::{BotKit, KitReadme, KitSample};

/// The sample bots: explode its own cell, else an empty corner, else its own, else the first.
const SAMPLES: [KitSample; 4] = [
    KitSample {
        lang: "cpp",
        file: "atoms-bot.cpp",
        text: include_str!("../../../../starter-kits/cpp/atoms-bot.cpp"),
        function: "AtomsBot::place",
    },
    KitSample {
        lang: "c",
        file: "atoms-bot.c",
        text: include_str!("../../../../starter-kits/c/atoms-bot.c"),
        function: "place",
    },
    KitSample {
        lang: "python",
        file: "atoms_bot.py",
        text: include_str!("../../../../starter-kits/python/atoms_bot.py"),
        function: "place",
    },
    KitSample {
        lang: "rust",
        file: "atoms_starter.rs",
        text: include_str!("../../../../bot-sdk/examples/atoms_starter.rs"),
        function: "place",
    },
];

/// Atoms' starter.
pub const KIT: BotKit = BotKit {
    samples: &SAMPLES,
    map: None,
    files: &[],
    opponents: &["atoms-greedy"],
    more: None,
    check: None,
    bounds: "the board's size (the width and height on the `ATOMS` line, after the number of players; x is the \
             column and y the row, both from 0)",
    readme: KitReadme {
        sample: "a small one: it places where one more atom explodes its own cell, else on\n\
                 an empty corner, else on its own cells, else on the first legal cell, row by row.",
        kit: "reads the protocol (the `ATOMS` line, then each `TURN` prompt through `END`)\n\
              into a view of the board, gives each cell's explosion limit, its neighbours and the legal\n\
              cells (empty or yours); its loop calls your function once per prompt and prints and flushes\n\
              your `PLACE x y` (x the column, y the row, from 0). Print debug output to {debug} only:\n\
              stdout is the protocol.",
        check: "plays it against scripted opponents from every seat of a duel and as the\n\
                middle player of three, and explains every problem it sees, with the fix.",
    },
    speaks: crate::engine::Speaks { header: "ATOMS", answers: &["PLACE # #"] },
};
