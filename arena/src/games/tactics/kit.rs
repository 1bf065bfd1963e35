//! OOPtimal Tactics' part of a student's starter folder (`arena new-bot --game tactics`): the
//! kits' small sample in each language, a config to duel on, and the README's words on them.

use crate::engine::{BotKit, KitMap, KitReadme, KitSample};

/// The sample bots: all chips on the field with most to win, then pass.
const SAMPLES: [KitSample; 4] = [
    KitSample {
        lang: "cpp",
        file: "tactics-bot.cpp",
        text: include_str!("../../../../starter-kits/cpp/tactics-bot.cpp"),
        function: "TacticsBot::act",
    },
    KitSample {
        lang: "c",
        file: "tactics-bot.c",
        text: include_str!("../../../../starter-kits/c/tactics-bot.c"),
        function: "act",
    },
    KitSample {
        lang: "python",
        file: "tactics_bot.py",
        text: include_str!("../../../../starter-kits/python/tactics_bot.py"),
        function: "act",
    },
    KitSample {
        lang: "rust",
        file: "tactics_starter.rs",
        text: include_str!("../../../../bot-sdk/examples/tactics_starter.rs"),
        function: "act",
    },
];

/// OOPtimal Tactics' starter.
pub const KIT: BotKit = BotKit {
    samples: &SAMPLES,
    map: Some(KitMap {
        path: "maps/config_01.txt",
        text: include_str!("../../../../maps/tactics/config_01.txt"),
        about: "the arena's first sample config",
    }),
    files: &[],
    opponents: &["tactics-greedy"],
    more: None,
    check: None,
    bounds: "the map's size (the width and height on the `TACTICS` line, after the number of rounds; `place` \
             counts columns and rows from 1, your arrays from 0)",
    readme: KitReadme {
        sample: "a small one: in the Placement Phase it puts all its chips on its field\n\
                 with the most neighbours it does not hold; in the Movement Phase it passes.",
        kit: "reads the protocol (the `TACTICS` line, then each `ROUND` prompt through\n\
              `END`) into a view of the map, your fields, your chips and the phase, and gives the\n\
              neighbours of a field; its loop calls your function once per prompt and prints and flushes\n\
              your command (`place AMOUNT COL ROW`, `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW` or\n\
              `pass`; columns and rows from 1). Print debug output to {debug} only: stdout is the protocol.",
        check: "plays it against a scripted opponent from both seats and explains every\n\
                problem it sees, with the fix.",
    },
    speaks: crate::engine::Speaks { header: "TACTICS", answers: &["place # # #", "move # # # # #", "pass"] },
};
