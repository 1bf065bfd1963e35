//! Property tests: the map parser, the answer parser and the TICK parser never panic on any
//! input, and every rejection names a line inside the input.

use bot_sdk::rules::Action;
use bot_sdk::state::parse_tick;
use bot_sdk::MapSpec;
use proptest::prelude::*;

/// Text made of the map format's own words, so that parsing gets deep into the file.
fn map_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("ARENA".to_string()),
        Just("MAP".to_string()),
        Just("END_MAP".to_string()),
        Just("STREAM".to_string()),
        Just("TICK".to_string()),
        Just("MOVE".to_string()),
        Just("WAIT".to_string()),
        Just("#".to_string()),
        "[0-9]{1,3}",
        "-?[0-9]{1,12}",
        "[EWFJDTX0]",
    ];
    let line = prop::collection::vec(token, 0..8).prop_map(|t| t.join(" "));
    prop::collection::vec(line, 0..30).prop_map(|l| l.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn map_parser_never_panics_on_any_text(text in ".*") {
        if let Err(e) = MapSpec::parse(&text) {
            prop_assert!(e.line >= 1 && e.line <= text.lines().count() + 1, "line {} for {text:?}", e.line);
        }
    }

    #[test]
    fn map_parser_never_panics_on_map_like_text(text in map_like()) {
        match MapSpec::parse(&text) {
            Ok(spec) => {
                // Whatever it accepts is a valid map, and its header parses back to the same.
                prop_assert!(spec.grid.get(spec.final_pos).is_some_and(|c| c.is_walkable()));
                let again = MapSpec::parse(&spec.header_for(0)).unwrap();
                prop_assert_eq!(again.grid, spec.grid);
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= text.lines().count() + 1),
        }
    }

    #[test]
    fn answer_and_tick_parsers_never_panic(line in ".*", tick in any::<u32>()) {
        let _ = Action::parse_answer(&line, tick);
        let _ = parse_tick(&line);
    }

    #[test]
    fn valid_answers_round_trip(x in -2000i32..2000, y in -2000i32..2000, tick in any::<u32>()) {
        let a = Action::Move(bot_sdk::Pos::new(x, y));
        prop_assert_eq!(Action::parse_answer(&format!("  {a}\r"), tick), Ok(a));
        prop_assert_eq!(Action::parse_answer(&format!("PLAYER {tick} {a}"), tick), Ok(a));
    }
}
