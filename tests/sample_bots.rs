//! The sample bots and the crate-doc example on every map: each bot that tries to finish must
//! finish wherever finishing is possible (in a duel, `reference` must collect instead), and a
//! student who copies the example into a crate of their own gets a bot that finishes and scores
//! against `greedy` on the course map.

use std::path::{Path, PathBuf};
use std::process::Command;

use arena_e2e::*;
use bot_sdk::path::DistancesTo;
use bot_sdk::MapSpec;

/// Sample bots that do not try to finish, and why they are left out.
const NOT_TRYING: [(&str, &str); 2] = [
    ("waiter", "answers WAIT to every tick: the baseline that never moves"),
    ("random", "a random walk: it reaches the final only by luck"),
];

/// Sample bots that in a duel finish only where that is worth more than collecting (a duel's
/// player keeps what it collected, and one on the final collects no more), and why: in a duel
/// they must score instead.
const COLLECTING_IN_DUELS: [(&str, &str); 1] =
    [("reference", "spends the ticks it would walk to the final collecting, in a duel")];

/// Every Resource Rush sample bot that tries to finish: the Rust binaries of `sample-bots`
/// (the crate-doc example is one of them, `first-bot`), and the C++ one.
fn finishers() -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("sample-bots/src/bin"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".rs").map(str::to_string))
        .filter(|n| !n.starts_with("atoms-") && !n.starts_with("tactics-"))
        .collect();
    for (name, _) in NOT_TRYING {
        assert!(names.contains(&name.to_string()), "{name} is listed as not trying but is no sample bot");
    }
    names.retain(|n| NOT_TRYING.iter().all(|(skip, _)| n != skip));
    names.sort();
    assert!(names.contains(&"first-bot".to_string()), "the crate-doc example is a sample bot");
    let mut bots: Vec<(String, String)> = names.into_iter().map(|n| (n.clone(), bin(&n))).collect();
    bots.push(("cpp-greedy".to_string(), cpp_greedy()));
    bots
}

/// The maps of `maps/` (duel maps) or `maps/tests/` (single-player tests), parsed.
fn maps_in(dir: &str) -> Vec<(PathBuf, MapSpec)> {
    let mut maps: Vec<(PathBuf, MapSpec)> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt") && !p.ends_with("limite_minime.txt"))
        .map(|p| {
            let spec = MapSpec::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p, spec)
        })
        .collect();
    maps.sort_by(|a, b| a.0.cmp(&b.0));
    maps
}

/// Whether player `p` can reach the final in time on the untouched map (through a J if need be).
fn can_finish(spec: &MapSpec, p: usize) -> bool {
    let to_final = DistancesTo::new(&spec.grid, spec.final_pos, Some(spec.final_pos));
    to_final.get(spec.starts[p], false).is_some_and(|d| d <= spec.rounds)
}

#[test]
fn every_sample_bot_and_the_doc_example_finish_every_map_where_finishing_is_possible() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = bin("greedy");
    let mut failures = Vec::new();
    let mut checked = 0;
    let duel_maps = maps_in("maps");
    assert!(duel_maps.len() >= 5, "{duel_maps:?}");
    for (name, bot) in finishers() {
        let collecting = COLLECTING_IN_DUELS.iter().any(|(n, _)| *n == name);
        // Each duel map from both sides, against greedy.
        for (path, spec) in &duel_maps {
            for side in 0..2 {
                if !can_finish(spec, side) {
                    continue;
                }
                let bots = if side == 0 { [bot.as_str(), greedy.as_str()] } else { [greedy.as_str(), bot.as_str()] };
                let file = path.file_name().unwrap().to_str().unwrap();
                let (r, _) = duel(dir.path(), file, &[], bots);
                checked += 1;
                let (score, finished, _) = player(&r, side);
                if !(finished || (collecting && score > 0)) {
                    failures.push(format!("{name} as player {} on {file}: {r}", side + 1));
                }
            }
        }
        // Every single-player test.
        let out = arena(&["test", &bot, "--json"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        // The reports alone (the line `N passed, M failed` goes to stderr).
        let reports: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        for (path, spec) in maps_in("maps/tests") {
            let number: usize = path.file_stem().unwrap().to_str().unwrap()[4..].parse().unwrap();
            let report = reports.as_array().unwrap().iter().find(|r| r["number"] == number).unwrap();
            if can_finish(&spec, 0) {
                checked += 1;
                if report["finished"] != true {
                    failures.push(format!("{name} on test {number}: {report}"));
                }
            }
        }
    }
    // Four bots (first-bot, greedy, reference, cpp-greedy), five duel maps from both sides,
    // twenty tests: all of them finishable today (in a duel, `reference` collects instead).
    assert!(checked >= 4 * (5 * 2 + 20), "only {checked} runs were checked");
    assert!(failures.is_empty(), "never finished where finishing is possible:\n{}", failures.join("\n"));
}

/// The crate-doc example's source, as the docs show it: the `no_run` block of "Your first
/// bot" is exactly the file it includes.
fn doc_example() -> String {
    let lib = std::fs::read_to_string(root().join("bot-sdk/src/lib.rs")).unwrap();
    let section = lib.split("//! ## Your first bot").nth(1).expect("the crate docs have a first bot");
    let block = "//! ```no_run\n#![doc = include_str!(\"../examples/first_bot.rs\")]\n//! ```\n";
    assert!(section.split("//! ## ").next().unwrap().contains(block), "the docs show the example file whole");
    let sample = std::fs::read_to_string(root().join("sample-bots/src/bin/first-bot.rs")).unwrap();
    assert!(sample.contains("include!(\"../../../bot-sdk/examples/first_bot.rs\");"), "first-bot is that file");
    std::fs::read_to_string(root().join("bot-sdk/examples/first_bot.rs")).unwrap()
}

/// A student's own crate with `bot-sdk` as its only dependency and `main` as given, built
/// offline (its target folder is kept under the workspace's, so later runs are quick).
fn build_student_crate(main: &str) -> PathBuf {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path();
    std::fs::create_dir(krate.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"student-bot\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nbot-sdk = {{ path = {:?} }}\n\n[workspace]\n",
        root().join("bot-sdk").display().to_string()
    );
    std::fs::write(krate.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(krate.join("src/main.rs"), main).unwrap();
    let target = bins().parent().unwrap().join("student-crate");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(krate)
        .args(["build", "--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .output()
        .unwrap();
    assert!(out.status.success(), "the copied example does not build:\n{}", String::from_utf8_lossy(&out.stderr));
    let built = target.join("debug/student-bot");
    let kept = target.join(format!("student-bot-{}", std::process::id()));
    std::fs::copy(&built, &kept).unwrap();
    drop(dir);
    kept
}

#[test]
fn a_student_who_copies_the_crate_doc_example_finishes_and_scores_against_greedy_on_the_course_map() {
    let student = build_student_crate(&doc_example());
    let student_arg = student.display().to_string();
    let greedy = bin("greedy");
    let dir = tempfile::tempdir().unwrap();
    for side in 0..2 {
        let bots =
            if side == 0 { [student_arg.as_str(), greedy.as_str()] } else { [greedy.as_str(), student_arg.as_str()] };
        let (r, replay) = duel(dir.path(), "duel.txt", &[], bots);
        let (score, finished, forfeit) = player(&r, side);
        assert!(score > 0 && finished && forfeit.is_none(), "as player {}: {r}", side + 1);
        let out = arena(&["verify", &replay.display().to_string()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    }
    let _ = std::fs::remove_file(Path::new(&student));
}
