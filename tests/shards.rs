//! A league split into shards, each in its own process, then merged: the same leaderboard and
//! the same replays as the whole league on one machine, in a shared folder or in separate
//! ones, and after a shard is killed with kill -9 and run again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arena_e2e::*;
use serde::Deserialize;
use serde_json::Value;

/// A config of `bots` on maps of different sizes.
fn config(dir: &Path, bots: &[(&str, String)]) -> PathBuf {
    config_file(
        &dir.join("league.toml"),
        // A fixed secret (`seed 11`, the key leagues used before secrets were drawn): the
        // single-machine league and the sharded one give the same seeds.
        "seed = 11\ngames = 1\njobs = 1\nsecret = \"seed 11\"",
        &["duel.txt", "fire.txt", "tight.txt"],
        bots,
    )
}

fn bots() -> Vec<(&'static str, String)> {
    vec![("greedy", bin("greedy")), ("random", bin("random")), ("waiter", bin("waiter")), ("cpp", cpp_greedy())]
}

fn ok(args: &[&str]) -> String {
    let out = arena(args);
    assert!(
        out.status.success(),
        "arena {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(bin("arena"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A replay without its timing fields (each answer's wall and CPU milliseconds).
fn untimed_replay(path: &Path) -> Value {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()), &mut bytes)
        .unwrap();
    let mut replay: Value = serde_json::from_slice(&bytes).unwrap();
    for step in replay["steps"].as_array_mut().unwrap() {
        for reply in step["replies"].as_array_mut().into_iter().flatten() {
            let reply = reply.as_object_mut().unwrap();
            reply.remove("ms");
            reply.remove("cpu_ms");
        }
    }
    replay
}

/// Every replay of a folder, by file name, without timing fields.
fn replays(dir: &Path) -> BTreeMap<String, Value> {
    std::fs::read_dir(dir.join("replays"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json.gz"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), untimed_replay(&e.path())))
        .collect()
}

fn whole(dir: &Path, cfg: &Path) -> PathBuf {
    let out = dir.join("whole");
    ok(&["tournament", "--config", &s(cfg), "--out", &s(&out)]);
    out
}

fn assert_same_league(merged: &Path, whole: &Path) {
    assert_eq!(untimed(&leaderboard(merged)), untimed(&leaderboard(whole)));
    let (a, b) = (replays(merged), replays(whole));
    assert!(!a.is_empty(), "the league has replays");
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "the same replays");
    for (name, replay) in &a {
        assert_eq!(replay, &b[name], "{name} differs beyond timing fields");
    }
    for entry in std::fs::read_dir(merged.join("replays")).unwrap().flatten() {
        assert!(!entry.file_name().to_string_lossy().starts_with(".tmp"), "no half-written replay");
    }
}

#[test]
fn four_shards_in_one_shared_folder_merge_into_the_whole_league() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &bots());
    let whole = whole(dir.path(), &cfg);
    let league = dir.path().join("league");
    let built = ok(&["build", &s(&cfg), "--out", &s(&league)]);
    assert!(built.contains("36 matches scheduled"), "{built}");
    // All four at once, in the same folder.
    let children: Vec<_> =
        (1..=4).map(|k| spawn(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/4")])).collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for k in 1..=4 {
        let lines = std::fs::read_to_string(league.join(format!("results.shard-{k}-of-4.jsonl"))).unwrap();
        assert!(lines.lines().count() >= 5, "every shard played its share: {}", lines.lines().count());
    }
    // `arena leaderboard` reads a folder that shards wrote into, too.
    let board = ok(&["leaderboard", "--json", &s(&league)]);
    assert_eq!(untimed(&serde_json::from_str(&board).unwrap()), untimed(&leaderboard(&whole)));
    let merged = arena(&["merge", &s(&league), &s(&league)]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert!(String::from_utf8_lossy(&merged.stdout).contains("36 of 36 matches played"));
    assert_same_league(&league, &whole);
    assert!(!league.join("results.shard-1-of-4.jsonl").exists(), "the shards' files are folded into results.jsonl");
}

#[test]
fn shards_in_separate_folders_and_a_killed_shard_resumed_merge_into_the_whole_league() {
    let dir = tempfile::tempdir().unwrap();
    // A slow but deterministic bot, so that a shard is still running when it is killed.
    let mut bots = bots();
    bots.push(("slow", format!("{} 0.004", script("slowpoke.sh"))));
    let cfg = config(dir.path(), &bots);
    let whole = whole(dir.path(), &cfg);
    let league = dir.path().join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let shard_dir = |k: usize| dir.path().join(format!("shard{k}"));

    // Shard 2 is killed with kill -9 once it has recorded a result.
    let results = shard_dir(2).join("results.shard-2-of-4.jsonl");
    let mut child = spawn(&["tournament", "--resume", &s(&league), "--shard", "2/4", "--out", &s(&shard_dir(2))]);
    let start = Instant::now();
    while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 2 {
        assert!(child.try_wait().unwrap().is_none(), "the shard ended before it was killed");
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    // What the teacher sees meanwhile: the standings so far, partial, and that the pages wait
    // for the merge (shards write none). (The shard has a dozen slow matches still to play.)
    let seen = arena(&["leaderboard", &s(&shard_dir(2))]);
    let stderr = String::from_utf8_lossy(&seen.stderr);
    assert!(seen.status.success() && stderr.contains("shards are playing this league"), "{stderr}");
    assert!(String::from_utf8_lossy(&seen.stdout).contains("Partial: "));
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&results).unwrap().lines().count();

    // A partial league is not called complete.
    let partial = dir.path().join("partial");
    let out = arena(&["merge", &s(&partial), &s(&shard_dir(2))]);
    assert_eq!(out.status.code(), Some(2), "missing matches make the merge fail");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not complete") && stderr.contains("are missing"), "{stderr}");
    // Which shards miss them, from the league's split (shard 2's own file says it is of 4):
    // every shard, shard 2 only for what it had not played when it was killed.
    let missing: usize =
        stderr.split("are missing").next().unwrap().split_whitespace().rev().nth(3).unwrap().parse().unwrap();
    let by_shard = stderr.lines().find_map(|l| l.strip_prefix("the shards that miss them: ")).expect(&stderr);
    let counts: Vec<(String, usize)> = by_shard
        .split(", ")
        .map(|part| {
            let (shard, n) = part.split_once(" (").unwrap();
            (shard.to_string(), n.split(' ').next().unwrap().parse().unwrap())
        })
        .collect();
    let shards: Vec<&str> = counts.iter().map(|(shard, _)| shard.as_str()).collect();
    assert_eq!(shards, ["1/4", "2/4", "3/4", "4/4"], "{stderr}");
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<usize>(), missing, "{stderr}");
    assert_eq!(leaderboard(&partial)["complete"], false);
    assert!(std::fs::read_to_string(partial.join("leaderboard.md")).unwrap().contains("Partial: "));

    // Run again, it resumes: what it finished is kept.
    for k in 1..=4 {
        let out =
            ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/4"), "--out", &s(&shard_dir(k))]);
        if k == 2 {
            assert!(out.contains(&format!("{before} kept")), "the killed shard's results are kept: {out}");
            // What the merge said shard 2 missed is what it plays now.
            assert!(out.contains(&format!("shard 2/4: {} matches played now", counts[1].1)), "{out}");
        }
    }
    let merged = dir.path().join("merged");
    let dirs: Vec<String> = (1..=4).map(|k| s(&shard_dir(k))).collect();
    let mut args = vec!["merge", "--json"];
    let out_arg = s(&merged);
    args.push(&out_arg);
    args.extend(dirs.iter().map(String::as_str));
    let out = arena(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_same_league(&merged, &whole);
}

/// A bot changed after `arena build` plays, in a shard, the version the build recorded, from the
/// league's copy of it; one that plays from its own files (a record of an earlier arena) is
/// refused, naming it.
#[test]
fn a_shard_refuses_bots_changed_since_the_build_and_shards_split_by_cost() {
    let dir = tempfile::tempdir().unwrap();
    let swap = dir.path().join("swap");
    std::fs::copy(bins().join("waiter"), &swap).unwrap();
    let mut bots = bots();
    bots.push(("swap", s(&swap)));
    let cfg = config(dir.path(), &bots);
    let league = dir.path().join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    // The split: each of the 60 matches in exactly one shard, the big map's spread evenly.
    let record: Value = serde_json::from_slice(&std::fs::read(league.join("tournament.json")).unwrap()).unwrap();
    let schedule = record["schedule"].as_array().unwrap();
    assert_eq!(schedule.len(), 60);
    // Cost: rounds x (cells + 4) + 1500.
    assert!(schedule.iter().any(|m| m["cost"] == 200 * (12 * 21 + 4) + 1500));
    assert!(schedule.iter().any(|m| m["cost"] == 8 * (3 * 9 + 4) + 1500));

    std::fs::copy(bins().join("greedy"), &swap).unwrap();
    // (Played from the league's copy of its version.)
    let played = dir.path().join("played");
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/4", "--out", &s(&played)]);
    playing_from_own_files(&league);
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/4"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bots changed since the league was built: swap") && stderr.contains("arena build"),
        "{stderr}"
    );
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "0/4"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("count from 1"));
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "auto"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("SLURM_ARRAY_TASK_ID"));
}

#[test]
fn a_shard_refuses_a_bot_reached_through_a_link_made_since_the_build() {
    // A student's folder under the config's became a link to another's after `arena build`
    // (the same program there: its fingerprint unchanged): the shard's box would run the other
    // student's files as this bot. The shard refuses it and says which link; the control: the
    // real folder put back, the same shard plays.
    let dir = tempfile::tempdir().unwrap();
    let (alice, bob) = (dir.path().join("subs/alice"), dir.path().join("subs/bob"));
    for folder in [&alice, &bob] {
        std::fs::create_dir_all(folder).unwrap();
        std::fs::copy(bins().join("waiter"), folder.join("bot")).unwrap();
    }
    let bots = vec![("greedy", bin("greedy")), ("random", bin("random")), ("alice", s(&alice.join("bot")))];
    let cfg = config(dir.path(), &bots);
    let league = dir.path().join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    // (A bot that plays from its own files: one playing from the league's copy is no matter.)
    playing_from_own_files(&league);

    std::fs::rename(&alice, dir.path().join("alice-away")).unwrap();
    std::os::unix::fs::symlink("bob", &alice).unwrap();
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("bots changed since the league was built: alice")
            && stderr.contains(&format!("is reached through the symbolic link {}", alice.display())),
        "{stderr}"
    );
    let results = league.join("results.shard-1-of-2.jsonl");
    assert!(!results.exists() || result_lines(&results).is_empty(), "nothing was played");

    // The control: the real folder back, the same shard plays its matches.
    std::fs::remove_file(&alice).unwrap();
    std::fs::rename(dir.path().join("alice-away"), &alice).unwrap();
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2"]);
    assert!(!result_lines(&results).is_empty(), "the control played");
}

/// Every string in a YAML value (commands, run scripts), joined.
fn strings(value: &serde_yaml::Value, out: &mut String) {
    match value {
        serde_yaml::Value::String(s) => {
            out.push_str(s);
            out.push(' ');
        }
        serde_yaml::Value::Sequence(items) => items.iter().for_each(|v| strings(v, out)),
        serde_yaml::Value::Mapping(map) => map.values().for_each(|v| strings(v, out)),
        serde_yaml::Value::Tagged(t) => strings(&t.value, out),
        _ => {}
    }
}

#[test]
fn the_kubernetes_and_github_files_parse_and_run_the_slurm_test_s_commands() {
    let deploy = root().join("deploy");
    let slurm = ["slurm/submit.sh", "slurm/league.sbatch", "slurm/merge.sbatch"]
        .map(|f| std::fs::read_to_string(deploy.join(f)).unwrap())
        .join("\n");
    // What tools/slurm-test runs through the Slurm scripts: build once, shards, merge.
    // (Slurm's tasks give the shard as K/N: a task submitted again alone is an array of one.)
    for command in [
        "\" build ",
        "\" tournament --resume ",
        "--shard \"$SLURM_ARRAY_TASK_ID/$ARENA_SHARDS\"",
        "\" merge \"$LEAGUE\" --league \"$LEAGUE\"",
    ] {
        assert!(slurm.contains(command), "the Slurm scripts run `{command}`");
    }
    let mut k8s = String::new();
    for file in ["kubernetes/build-job.yaml", "kubernetes/league-job.yaml", "kubernetes/merge-job.yaml"] {
        let text = std::fs::read_to_string(deploy.join(file)).unwrap();
        for doc in serde_yaml::Deserializer::from_str(&text) {
            let value = serde_yaml::Value::deserialize(doc).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(value["apiVersion"], "batch/v1", "{file}");
            strings(&value, &mut k8s);
        }
    }
    assert!(k8s.contains("Indexed") && k8s.contains("ARENA_SHARD_COUNT"), "an Indexed Job: {k8s}");
    // The Job API takes backoffLimitPerIndex only with the pods' restartPolicy Never.
    let league_job: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(deploy.join("kubernetes/league-job.yaml")).unwrap()).unwrap();
    if !league_job["spec"]["backoffLimitPerIndex"].is_null() {
        assert_eq!(league_job["spec"]["template"]["spec"]["restartPolicy"], "Never");
    }
    // A disruption (a pod evicted or preempted) uses none of a slice's retries; an exit status
    // does not: a bot that may signal the arena (plain, not root, Landlock without signal scopes)
    // exits it with 143, and a rule ignoring 143 retried its slice without end. The control: the
    // rule that did so is found.
    let rules = &league_job["spec"]["podFailurePolicy"]["rules"];
    assert_eq!(ignored_exit_codes(rules), Vec::<u64>::new(), "{rules:?}");
    let ignores_disruptions = rules
        .as_sequence()
        .into_iter()
        .flatten()
        .any(|rule| rule["action"] == "Ignore" && rule["onPodConditions"][0]["type"] == "DisruptionTarget");
    assert!(ignores_disruptions, "{rules:?}");
    let old: serde_yaml::Value = serde_yaml::from_str(
        "- action: Ignore\n  onExitCodes: { containerName: shard, operator: In, values: [143] }\n\
         - action: Ignore\n  onPodConditions: [{ type: DisruptionTarget }]\n",
    )
    .unwrap();
    assert_eq!(ignored_exit_codes(&old), [143], "the control");
    for command in
        ["arena build ", "arena tournament --resume ", "--shard auto", "arena merge /league/run --league /league/run "]
    {
        assert!(k8s.contains(command), "the Kubernetes Jobs run `{command}`");
    }
    // A shard plays as many matches at once as its pod asked CPUs for (as Slurm's tasks do):
    // by default the arena takes every CPU of the node, which a pod does not have.
    let shard_pod = &league_job["spec"]["template"]["spec"]["containers"][0];
    let command: Vec<&str> = shard_pod["command"].as_sequence().unwrap().iter().filter_map(|v| v.as_str()).collect();
    let jobs = command.iter().position(|a| *a == "-j").map(|i| command[i + 1]);
    assert_eq!(jobs, shard_pod["resources"]["requests"]["cpu"].as_str(), "-j is the pod's CPUs: {command:?}");
    let text = std::fs::read_to_string(deploy.join("github/league.yml")).unwrap();
    let workflow: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let jobs = &workflow["jobs"];
    assert_eq!(jobs["shard"]["strategy"]["matrix"]["shard"].as_sequence().map(Vec::len), Some(4));
    assert_eq!(jobs["merge"]["needs"][1], "shard");
    let mut gh = String::new();
    strings(jobs, &mut gh);
    for command in [
        "arena build class.toml --out league --require-sandbox",
        "arena tournament --resume ",
        "--shard ${{ matrix.shard }}/4",
        "arena merge league --league league 1/4=shard-1 2/4=shard-2 3/4=shard-3 4/4=shard-4",
        "arena publish league site",
        "deploy-pages",
    ] {
        assert!(gh.contains(command), "the workflow runs `{command}`: {gh}");
    }
    // What goes to Pages is what `arena publish` copied, not a league folder with its secret.
    assert_eq!(jobs["merge"]["steps"][3]["with"]["path"], "site", "{gh}");
}

/// The exit codes a Job's `podFailurePolicy` `rules` ignore (uses none of the retries for).
fn ignored_exit_codes(rules: &serde_yaml::Value) -> Vec<u64> {
    let ignored = rules.as_sequence().into_iter().flatten().filter(|rule| rule["action"] == "Ignore");
    let codes = ignored.filter_map(|rule| rule["onExitCodes"]["values"].as_sequence());
    codes.flatten().filter_map(serde_yaml::Value::as_u64).collect()
}

#[test]
fn arena_build_refuses_the_flags_of_a_run() {
    for flag in [&["--json"][..], &["--resume", "somewhere"], &["--rerun", "k", "--resume", "somewhere"]] {
        let mut args = vec!["build", "docs/class-42.toml"];
        args.extend_from_slice(flag);
        let out = arena(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag:?}: {stderr}");
        assert!(stderr.contains(&format!("{} is for `arena tournament`", flag[0])), "{flag:?}: {stderr}");
    }
}

#[test]
fn a_shard_plays_its_own_j_and_refuses_the_flags_that_would_change_the_league() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &bots()[..2]);
    let league = dir.path().join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let shard = |k: usize| dir.path().join(format!("shard{k}"));
    // The config says `jobs = 1`; -j is the shard's own (Slurm's league.sbatch gives the
    // task's CPUs).
    let out =
        arena(&["-v", "tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&shard(1)), "-j", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("playing matches jobs=2"), "-j 2 is played: {stderr}");
    // Control: without -j, the league's.
    let out = arena(&["-v", "tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&shard(2))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("playing matches jobs=1"), "{stderr}");
    // A flag that would make this shard play other limits than the others is refused, not
    // ignored, named, and nothing is played; one that repeats the league's setting is no change.
    for (flags, what) in [
        (&["--move-ms", "5"][..], "the time limits (--move-ms)"),
        (&["--clock", "wall"], "the time limits (--clock)"),
        (&["--max-memory-mb", "64"], "the boxes' limits (--max-memory-mb)"),
        (&["--sandbox", "plain"], "--sandbox (plain, where the league's is "),
        (&["--forfeits", "score"], "--forfeits"),
    ] {
        let out_dir = dir.path().join("refused");
        let mut args = vec!["tournament", "--resume", league.to_str().unwrap(), "--shard", "1/2"];
        let out_arg = s(&out_dir);
        args.extend(["--out", &out_arg]);
        args.extend_from_slice(flags);
        let out = arena(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?}: {stderr}");
        assert!(
            stderr.contains("a shard plays the league as `arena build` prepared it") && stderr.contains(what),
            "{flags:?}: {stderr}"
        );
        assert!(!out_dir.exists(), "{flags:?}: nothing is played");
    }
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&shard(1)), "--forfeits", "loss"]);
    // --rerun with --shard was silently ignored: refused, saying where a match is played again,
    // in the shard's folder and in a new one alike, nothing played.
    let key = result_lines(&shard(1).join("results.shard-1-of-2.jsonl"))[0]["key"].as_str().unwrap().to_string();
    let before = std::fs::read(shard(1).join("results.shard-1-of-2.jsonl")).unwrap();
    for out_dir in [shard(1), dir.path().join("rerun")] {
        let out =
            arena(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&out_dir), "--rerun", &key]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(stderr.contains("--rerun is not for a shard") && stderr.contains("--rerun KEY"), "{stderr}");
    }
    assert_eq!(std::fs::read(shard(1).join("results.shard-1-of-2.jsonl")).unwrap(), before, "nothing played");
    assert!(!dir.path().join("rerun").exists(), "nothing made");
    // The control: the same shard without --rerun runs (it resumes, its slice played).
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&shard(1))]);
    // Without --resume (the league named by --out alone) there is no shard: the flags ask for it.
    let out = arena(&["tournament", "--shard", "1/2", "--out", &s(&league), "--move-ms", "5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--resume <DIR>"), "{stderr}");
}

/// `results.jsonl`-style lines of `file`, as JSON values.
fn result_lines(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn a_merge_takes_one_build_s_shards_loses_no_results_and_writes_only_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cfg = config(d, &bots()[..2]);
    // The same league built again (another secret, as `arena build` draws one when the
    // config has none): the same matches, other seeds for the bots.
    let cfg_b = d.join("league-b.toml");
    std::fs::write(&cfg_b, std::fs::read_to_string(&cfg).unwrap().replace("secret = \"seed 11\"", "secret = \"b\""))
        .unwrap();
    let (league, league_b) = (d.join("league"), d.join("league-b"));
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    ok(&["build", &s(&cfg_b), "--out", &s(&league_b)]);
    let shard = |name: &str| d.join(name);
    for (from, k, to) in [(&league, 1, "a1"), (&league, 2, "a2"), (&league_b, 2, "b2")] {
        ok(&["tournament", "--resume", &s(from), "--shard", &format!("{k}/2"), "--out", &s(&shard(to))]);
    }

    // OUT a folder that is no league's (a bot's, by a typo): refused, nothing written in it.
    let bot = d.join("bots/alice");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), "print('WAIT')\n").unwrap();
    let out = arena(&["merge", &s(&bot), &s(&league), &s(&shard("a1")), &s(&shard("a2"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("not a league's folder and not empty (it holds bot.py)"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&bot).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, ["bot.py"], "nothing written in the bot's folder");
    // (Control: an empty folder takes the merge.)
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    ok(&["merge", &s(&empty), &s(&league), &s(&shard("a1")), &s(&shard("a2"))]);
    assert_eq!(leaderboard(&empty)["complete"], true);

    // Another build's shard is refused, by merge and by a shard run taking its folder over.
    let mixed = d.join("mixed");
    let out = arena(&["merge", &s(&mixed), &s(&league), &s(&shard("a1")), &s(&shard("b2"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("another build of the league"), "{stderr}");
    assert!(!mixed.exists(), "nothing written");
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&shard("b2"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("another build of the league"), "{stderr}");
    // (Control: the shard's own folder resumes.)
    assert!(ok(&["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&shard("a2"))]).contains("kept"));

    // A results line naming files outside its folder: its replay and page would be copied
    // outside the merge's folder.
    let evil = d.join("x/y/evil");
    std::fs::create_dir_all(d.join("x/y")).unwrap();
    assert!(Command::new("cp").args(["-r", &s(&shard("a1")), &s(&evil)]).status().unwrap().success());
    let file = evil.join("results.shard-1-of-2.jsonl");
    let mut lines = result_lines(&file);
    let mut forged = lines[0].clone();
    std::fs::copy(evil.join(forged["replay"].as_str().unwrap()), d.join("x/escaped.json.gz")).unwrap();
    std::fs::write(d.join("x/escaped.html"), "<script>alert(1)</script>").unwrap();
    forged["key"] = "escaped".into();
    forged["replay"] = "../../escaped.json.gz".into();
    lines.push(forged);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let merged = d.join("m/merged");
    std::fs::create_dir_all(d.join("m")).unwrap();
    let out = arena(&["merge", &s(&merged), &s(&evil), &s(&shard("a2"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for escaped in ["escaped.json.gz", "escaped.html"] {
        assert!(!d.join(escaped).exists(), "{escaped} written outside the merge's folder");
    }
    assert!(stderr.contains("is not a file of replays/"), "{stderr}");

    // OUT holding this league's results, not among the folders: its results are merged, not
    // dropped. The league's folder played shard 1 itself; shard 2 is elsewhere.
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2"]);
    let own = result_lines(&league.join("results.shard-1-of-2.jsonl")).len();
    assert!(own > 0);
    let out = arena(&["merge", &s(&league), &s(&shard("a2"))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(leaderboard(&league)["complete"], true);
    assert_eq!(result_lines(&league.join("results.jsonl")).len(), 6, "every match of the league");

    // OUT holding another league's results is refused, and keeps them.
    let out = arena(&["merge", &s(&league_b), &s(&shard("a1")), &s(&shard("a2"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("holds another league's record or results"), "{stderr}");
    let record: Value = serde_json::from_slice(&std::fs::read(league_b.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(record["config"]["secret"], "b", "its record is its own still");
}

#[test]
fn the_github_workflow_s_steps_play_a_league_from_build_to_pages() {
    // Each job of deploy/github/league.yml in a fresh folder of its own, its `run` steps run by
    // bash as on a runner (`set -eo pipefail`), the artifacts passed on as the actions do (a
    // named one into the job's folder, a pattern's each into a folder of its name). The arena
    // is already built ("Build the arena", which installs it with cargo, is skipped); `sudo`
    // runs the command as it is.
    use std::os::unix::fs::PermissionsExt as _;
    let root_shim = as_root();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = std::fs::read_to_string(root().join("deploy/github/league.yml")).unwrap();
    let workflow: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let shim = d.join("shim");
    std::fs::create_dir_all(&shim).unwrap();
    std::fs::write(shim.join("sudo"), "#!/bin/sh\nexec \"$@\"\n").unwrap();
    assert!(Command::new("chmod").args(["755", &s(&shim.join("sudo"))]).status().unwrap().success());
    let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout).unwrap();
    // The build step copies the arena and takes its checksum before any build, and builds as
    // root in boxes (--require-sandbox: never unboxed by `auto`'s fallback); the later jobs
    // check the arena they unpack against that checksum before they run it.
    let script = |job: &str, name: &str| {
        let steps = workflow["jobs"][job]["steps"].as_sequence().unwrap();
        let step = steps.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("{job}: {name}"));
        step["run"].as_str().unwrap().to_string()
    };
    let build = script("build", "Build the bots once");
    let at = |text: &str, what: &str| text.find(what).unwrap_or_else(|| panic!("`{what}` in {text}"));
    let builds = at(&build, "sudo ./arena build class.toml --out league --require-sandbox");
    assert!(at(&build, "cp \"$RUNNER_TEMP/arena/bin/arena\" ./arena") < builds, "copied before: {build}");
    assert!(at(&build, "sha256sum ./arena") < builds, "its checksum taken before: {build}");
    assert_eq!(workflow["jobs"]["build"]["outputs"]["arena"], "${{ steps.bots.outputs.arena }}");
    for (job, name) in [("shard", "Play the shard"), ("merge", "Merge the shards, then copy what may be published")] {
        let run = script(job, name);
        assert!(at(&run, "sha256sum --check") < at(&run, "./arena "), "{job} checks the arena first: {run}");
    }
    // The workflow's cache (actions/cache: paths saved under a key, restored by that key or the
    // newest of a prefix, and only for the very paths, as written, they were saved with; a key
    // saved once is never saved again), kept from one run to the next: (paths, key, the copy).
    let cache = d.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let mut cached: Vec<(String, String, PathBuf)> = Vec::new();
    let mut secrets = Vec::new();
    for run in 1..=2 {
        let artifacts = d.join(format!("artifacts-{run}"));
        // Step outputs ($GITHUB_OUTPUT) by step id, and the build job's outputs.
        let mut needs: BTreeMap<String, String> = BTreeMap::new();
        let mut runs: Vec<(String, Option<u64>)> = vec![("build".into(), None)];
        runs.extend((1..=4).map(|k| ("shard".to_string(), Some(k))));
        runs.push(("merge".into(), None));
        for (n, (job, shard)) in runs.iter().enumerate() {
            let work = d.join(format!("run{run}-job{n}-{job}"));
            let temp = d.join(format!("run{run}-temp{n}"));
            std::fs::create_dir_all(&work).unwrap();
            std::fs::create_dir_all(temp.join("arena/bin")).unwrap();
            std::fs::copy(bin("arena"), temp.join("arena/bin/arena")).unwrap();
            if job == "build" {
                // The course's repository: class.toml beside the workflow.
                config(&work, &bots()[..3]);
                // (Its secret drawn by the build, as a course's is: a league made again draws another.)
                let text = std::fs::read_to_string(work.join("league.toml")).unwrap();
                let drawn: String =
                    text.lines().filter(|l| !l.starts_with("secret")).map(|l| format!("{l}\n")).collect();
                std::fs::write(work.join("class.toml"), drawn).unwrap();
            }
            let mut outputs: BTreeMap<String, String> = BTreeMap::new();
            let expand = |text: &str| {
                let mut text = text
                    .replace("${{ runner.temp }}", &s(&temp))
                    .replace("${{ github.run_id }}", &format!("100{run}"))
                    .replace("${{ github.run_attempt }}", "1");
                for (key, value) in &needs {
                    text = text.replace(&format!("${{{{ needs.build.outputs.{key} }}}}"), value);
                }
                shard.map_or(text.clone(), |k| text.replace("${{ matrix.shard }}", &k.to_string()))
            };
            for step in workflow["jobs"][job.as_str()]["steps"].as_sequence().unwrap() {
                let with = |key: &str| step["with"][key].as_str().map(expand);
                match step["uses"].as_str().map(|u| u.split('@').next().unwrap_or(u)) {
                    Some("actions/upload-artifact") => {
                        let (name, path) = (with("name").unwrap(), with("path").unwrap());
                        copy_into(&work.join(path), &artifacts.join(name));
                    }
                    Some("actions/download-artifact") => match (with("name"), with("pattern")) {
                        (Some(name), _) => copy_into(&artifacts.join(name), &work),
                        (None, Some(pattern)) => {
                            let prefix = pattern.trim_end_matches('*');
                            for entry in std::fs::read_dir(&artifacts).unwrap().flatten() {
                                let name = entry.file_name().to_string_lossy().into_owned();
                                if name.starts_with(prefix) {
                                    copy_into(&entry.path(), &work.join(&name));
                                }
                            }
                        }
                        _ => panic!("a download without name or pattern"),
                    },
                    Some("actions/cache/restore") => {
                        let (key, prefix) = (with("key").unwrap(), with("restore-keys").unwrap());
                        assert_eq!(prefix, "league-");
                        let paths = step["with"]["path"].as_str().unwrap();
                        let hit = cached.iter().rev().filter(|(p, _, _)| p == paths).find(|(_, k, _)| *k == key);
                        let hit = hit.or_else(|| {
                            cached.iter().rev().filter(|(p, _, _)| p == paths).find(|(_, k, _)| k.starts_with(&prefix))
                        });
                        assert_eq!(hit.is_some(), run > 1, "run {run}: the league kept by the last run is restored");
                        if let Some((_, _, saved)) = hit {
                            std::fs::copy(saved, work.join(with("path").unwrap())).unwrap();
                        }
                    }
                    Some("actions/cache/save") => {
                        let (key, paths) = (with("key").unwrap(), step["with"]["path"].as_str().unwrap());
                        assert!(key.ends_with("-1"), "the key is the run attempt's: {key}");
                        assert!(!cached.iter().any(|(_, k, _)| *k == key), "{key} saved again: refused");
                        // One archive, made by root: the runner's user, which saves the cache,
                        // could not read every file of the league's folder.
                        let path = work.join(with("path").unwrap());
                        assert!(path.metadata().unwrap().is_file(), "the league is saved as one archive: {paths}");
                        let saved = cache.join(format!("entry-{}", cached.len()));
                        std::fs::copy(&path, &saved).unwrap();
                        cached.push((paths.to_string(), key, saved));
                    }
                    Some("actions/upload-pages-artifact") => {
                        let site = work.join(with("path").unwrap());
                        assert!(site.join("index.html").is_file(), "the site has its pages");
                        assert!(!site.join("tournament.json").exists(), "not the league's secret");
                    }
                    Some(_) => {}
                    None if step["name"] == "Build the arena" => {}
                    None => {
                        if root_shim && run == 1 && step["name"] == "Archive the league for the next run" {
                            // What a build's `chmod 000` leaves in the league's copy of its bot:
                            // the runner's user cannot read it; the archive, made by root, can,
                            // and keeps its mode. (Only where the `sudo` stand-in is root: a
                            // user's could not read it either.)
                            let unreadable = work.join("league/unreadable-build-output");
                            std::fs::write(&unreadable, "a build's output\n").unwrap();
                            std::fs::set_permissions(&unreadable, std::fs::Permissions::from_mode(0o000)).unwrap();
                        }
                        let script = expand(step["run"].as_str().unwrap());
                        let output_file = temp.join("github-output");
                        std::fs::write(&output_file, "").unwrap();
                        let mut command = Command::new("bash");
                        command
                            .args(["-eo", "pipefail", "-c", &script])
                            .current_dir(&work)
                            .env("RUNNER_TEMP", &temp)
                            .env("GITHUB_OUTPUT", &output_file)
                            .env("USER", user.trim())
                            .env("PATH", format!("{}:{}", s(&shim), std::env::var("PATH").unwrap_or_default()));
                        for (key, value) in step["env"].as_mapping().into_iter().flatten() {
                            command.env(key.as_str().unwrap(), expand(value.as_str().unwrap()));
                        }
                        if job.as_str() == "shard" && *shard == Some(1) {
                            // The control: an arena replaced in the artifact (the red team's trojan)
                            // is refused by the check before it runs.
                            let trojan = d.join("trojan");
                            std::fs::create_dir_all(&trojan).unwrap();
                            let untar = |args: &[&str]| {
                                assert!(Command::new("tar").args(args).current_dir(&trojan).status().unwrap().success())
                            };
                            untar(&["-xzf", &s(&work.join("league.tgz"))]);
                            let marker = d.join("trojan-ran");
                            std::fs::write(trojan.join("arena"), format!("#!/bin/sh\ntouch {}\n", s(&marker))).unwrap();
                            untar(&["-czf", &s(&d.join("trojan.tgz")), "."]);
                            let tampered = d.join("tampered");
                            std::fs::create_dir_all(&tampered).unwrap();
                            std::fs::copy(d.join("trojan.tgz"), tampered.join("league.tgz")).unwrap();
                            let mut again = Command::new("bash");
                            again.args(["-eo", "pipefail", "-c", &script]).current_dir(&tampered);
                            for (key, value) in step["env"].as_mapping().into_iter().flatten() {
                                again.env(key.as_str().unwrap(), expand(value.as_str().unwrap()));
                            }
                            let env = [("RUNNER_TEMP", s(&temp)), ("USER", user.trim().to_string())];
                            let path = format!("{}:{}", s(&shim), std::env::var("PATH").unwrap_or_default());
                            let refused = again.envs(env).env("PATH", path).output().unwrap();
                            assert!(!refused.status.success() && !marker.exists(), "the trojan ran");
                            assert!(
                                String::from_utf8_lossy(&refused.stdout).contains("arena: FAILED"),
                                "the checksum refused it"
                            );
                        }
                        let out = command.output().unwrap();
                        assert!(
                            out.status.success(),
                            "job {job} {shard:?}, step {:?} failed:\n{}\n{}",
                            step["name"],
                            String::from_utf8_lossy(&out.stdout),
                            String::from_utf8_lossy(&out.stderr)
                        );
                        if let Some(id) = step["id"].as_str() {
                            for line in std::fs::read_to_string(&output_file).unwrap().lines() {
                                let (key, value) = line.split_once('=').unwrap();
                                outputs.insert(format!("${{{{ steps.{id}.outputs.{key} }}}}"), value.to_string());
                            }
                        }
                    }
                }
            }
            for (key, value) in workflow["jobs"][job.as_str()]["outputs"].as_mapping().into_iter().flatten() {
                let value = value.as_str().unwrap();
                needs.insert(key.as_str().unwrap().to_string(), outputs.get(value).cloned().unwrap_or_default());
            }
            if root_shim && job == "build" && run == 2 {
                // The league restored as root kept, whole, with each file's mode.
                let unreadable = work.join("league/unreadable-build-output");
                let mode = unreadable.metadata().map(|m| m.permissions().mode() & 0o777);
                assert_eq!(mode.ok(), Some(0o000), "{}", unreadable.display());
            }
            if job == "shard" {
                // The second run plays nothing: the league it restored holds every match.
                let k = shard.unwrap();
                let file = work.join(format!("shard-{k}/results.shard-{k}-of-4.jsonl"));
                let played = if file.exists() { result_lines(&file).len() } else { 0 };
                assert_eq!(played > 0, run == 1, "run {run}, shard {k} played {played}");
            }
            if job == "merge" {
                let board = leaderboard(&work.join("league"));
                assert_eq!(board["complete"], true, "{board}");
                assert_eq!(board["matches"], 18, "every match of the league");
                let record: Value =
                    serde_json::from_slice(&std::fs::read(work.join("league/tournament.json")).unwrap()).unwrap();
                secrets.push(record["config"]["secret"].clone());
            }
        }
    }
    assert_eq!(secrets[0], secrets[1], "the second run plays the same league, not a new one");
}

/// A league of `alice` (`d/alice`, a bot that only waits: `bot.sh`, or `main.sh` that her
/// `build` copies to `bot.sh`) and `greedy` on `tight.txt`, built into `d/league`: alice's
/// folder, the league's config and the league's folder.
fn alice_and_greedy_built(d: &Path, build: Option<&str>) -> (PathBuf, PathBuf, PathBuf) {
    let alice = d.join("alice");
    std::fs::create_dir_all(&alice).unwrap();
    let program = if build.is_some() { "main.sh" } else { "bot.sh" };
    std::fs::write(alice.join(program), "while read -r w r; do [ \"$w\" = TICK ] && echo WAIT; done\n").unwrap();
    let build = build.map_or(String::new(), |b| format!("build = {b:?}\n"));
    let cfg = d.join("league.toml");
    std::fs::write(
        &cfg,
        format!(
            "seed = 11\ngames = 1\njobs = 1\nmaps = [{:?}]\n[[bots]]\nname = \"alice\"\ncwd = \"alice\"\n\
             {build}command = \"sh bot.sh\"\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n",
            map("tight.txt"),
            bin("greedy")
        ),
    )
    .unwrap();
    let league = d.join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    (alice, cfg, league)
}

#[test]
fn a_shard_refuses_a_bot_whose_build_outputs_changed_since_the_build() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A bot whose build writes the program it runs (bot.sh, from main.sh): a build output,
    // left out of its version's fingerprint.
    let (alice, cfg, league) = alice_and_greedy_built(d, Some("cp main.sh bot.sh"));
    // (A bot that plays from its own files: one playing from the league's copy is no matter.)
    playing_from_own_files(&league);
    // Between the build and the shards, the built program is replaced (its sources are not).
    std::fs::write(alice.join("bot.sh"), "while read -r w r; do [ \"$w\" = TICK ] && echo GARBAGE; done\n").unwrap();
    let shard = d.join("shard");
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/1", "--out", &s(&shard)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the shard played a program its build did not write: {stderr}");
    assert!(
        stderr.contains("bots changed since the league was built: alice (what its build wrote has changed)"),
        "{stderr}"
    );
    // A push between the build and the shards (its source changed too): alice is named once, by
    // her new fingerprint, not a second time for what her build wrote.
    std::fs::write(alice.join("main.sh"), "while read -r w r; do [ \"$w\" = TICK ] && echo WAIT; done\n# pushed\n")
        .unwrap();
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/1", "--out", &s(&shard)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the shard played a version the build did not see: {stderr}");
    assert!(stderr.contains("bots changed since the league was built: alice (built as v1, its files now a version the league has not seen)"), "{stderr}");
    assert_eq!(stderr.matches("alice (").count(), 1, "alice is named once: {stderr}");
    // Control: built again, the shard plays (and alice answers as main.sh says).
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    playing_from_own_files(&league);
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/1", "--out", &s(&shard)]);
    let lines = result_lines(&shard.join("results.shard-1-of-1.jsonl"));
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l["result"]["players"].as_array().unwrap().iter().all(|p| p["forfeit"].is_null())));
}

/// A league `arena build` prepared, then moved with its course's folder (config, maps, bots)
/// to another path, as a cluster's checkout elsewhere: its shards take the bots and maps where
/// they are now, find every bot the version the build recorded, and play the whole league. The
/// control: the record names the course's folder where it was built, which is gone.
#[test]
fn a_league_built_in_one_place_plays_its_shards_once_its_course_moved() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir_all(course.join("maps")).unwrap();
    std::fs::create_dir_all(course.join("bots/wait")).unwrap();
    std::fs::copy(map("tight.txt"), course.join("maps/tight.txt")).unwrap();
    std::fs::write(course.join("bots/wait/bot.sh"), "while read -r w r; do [ \"$w\" = TICK ] && echo WAIT; done\n")
        .unwrap();
    let cfg = course.join("league.toml");
    std::fs::write(
        &cfg,
        format!(
            "seed = 11\ngames = 1\njobs = 1\nmaps = [\"maps/tight.txt\"]\n[[bots]]\nname = \"wait\"\n\
             command = \"sh bots/wait/bot.sh\"\n[[bots]]\nname = \"greedy\"\ncommand = {:?}\n",
            bin("greedy")
        ),
    )
    .unwrap();
    let built = ok(&["build", &s(&cfg), "--out", &s(&course.join("league"))]);
    assert!(built.contains("2 matches scheduled"), "{built}");
    let moved = dir.path().join("cluster/checkout");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&course, &moved).unwrap();
    let league = moved.join("league");
    let record = std::fs::read_to_string(league.join("tournament.json")).unwrap();
    assert!(record.contains(&s(&course.join("bots/wait/bot.sh"))) && !course.exists(), "the control: {record}");
    for k in 1..=2 {
        ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2")]);
    }
    let merged = ok(&["merge", &s(&league), &s(&league)]);
    assert!(merged.contains("2 of 2 matches played"), "{merged}");
    assert_eq!(leaderboard(&league)["complete"], true);
}

/// A merge into an empty folder that is a mount point (a Docker volume, a disk of its own, a
/// bind mount of the same disk), or in a folder it may not write in, here made in a mount
/// namespace of the test's own: the league is written into it whole, and nothing is left
/// beside it. Its staging folder, beside it, could not be renamed into it: the merge failed at
/// its last step ("Invalid cross-device link"), every time; or could not be made. The
/// control: the same merge into a plain new folder is staged and complete too. (Skipped where
/// no mount namespace can be made.)
#[test]
fn a_merge_into_a_mount_point_writes_the_league_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league");
    let bots = [format!("a={}", bin("greedy")), format!("b={}", bin("random"))];
    tournament(&league, &["--games", "1", "--map", &map("duel.txt"), "-j", "1"], &bots);
    let played = |out: &Path| leaderboard(out)["matches"].clone();
    assert_eq!(played(&league), 2, "both sides of the one pairing");
    let plain = dir.path().join("plain");
    let merged = arena(&["merge", &s(&plain), &s(&league)]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(played(&plain), played(&league), "the control");
    // OUT a disk of its own (a tmpfs); a bind mount of the same disk, which the devices do not
    // tell; and OUT in a folder the merge may not write in (read-only).
    for (n, setup) in [
        r#"mount -t tmpfs tmpfs "$1""#,
        r#"mount --bind "$1" "$1""#,
        r#"mount --bind "$1" "$1" && mount --rbind "$(dirname "$1")" "$(dirname "$1")" && mount -o remount,bind,ro "$(dirname "$1")""#,
    ]
    .into_iter()
    .enumerate()
    {
        let volumes = dir.path().join(format!("volumes-{n}"));
        let out = volumes.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let script = format!(
            r#"{setup} || exit 77
"$2" merge "$1" "$3" >/dev/null 2>"$4" || {{ cat "$4" >&2; exit 1; }}
cat "$1/leaderboard.json" && ls -A "$(dirname "$1")" >&2"#
        );
        let log = dir.path().join(format!("merge-{n}.log"));
        let run = Command::new("unshare")
            .args(["-rm", "sh", "-c", &script, "sh", &s(&out), &bin("arena"), &s(&league), &s(&log)])
            .output()
            .unwrap();
        if run.status.code() == Some(77) || !run.status.success() && run.stderr.starts_with(b"unshare:") {
            eprintln!("no mount namespace here: {}", String::from_utf8_lossy(&run.stderr));
            return;
        }
        assert!(run.status.success(), "{setup}: {}", String::from_utf8_lossy(&run.stderr));
        let board: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(board["matches"], played(&league), "{setup}");
        assert_eq!(String::from_utf8_lossy(&run.stderr).trim(), "out", "{setup}: nothing beside OUT");
    }
}

/// A shard run again in its own folder after `arena build` made a bot a new version keeps
/// that folder's results of the old version (no longer scheduled: the league's history), and
/// the merge takes them into the league's `results.jsonl`, as a whole run keeps them. The
/// control: those results are no longer in the schedule (the shard's rewrite of its file kept
/// only scheduled ones, and the history was lost without a word).
#[test]
fn a_shard_run_again_after_a_build_keeps_its_folder_s_history_for_the_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let swap = d.join("swap");
    std::fs::copy(bins().join("waiter"), &swap).unwrap();
    let bots = vec![("greedy", bin("greedy")), ("random", bin("random")), ("swap", s(&swap))];
    let cfg = config_file(&d.join("league.toml"), "seed = 11\ngames = 1\njobs = 1", &["tight.txt"], &bots);
    let league = d.join("league");
    let shard_dir = |k: usize| d.join(format!("shard{k}"));
    let play = |k: usize| {
        ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2"), "--out", &s(&shard_dir(k))]);
    };
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    (1..=2).for_each(play);
    let keys = |file: &Path| -> BTreeSet<String> {
        result_lines(file).iter().map(|l| l["key"].as_str().unwrap().to_string()).collect()
    };
    let week1: BTreeSet<String> = (1..=2)
        .flat_map(|k| keys(&shard_dir(k).join("results.shard-".to_string() + &format!("{k}-of-2.jsonl"))))
        .collect();
    assert_eq!(week1.len(), 6);

    // A push: swap is a new version; the league is built again, the shards run in their folders.
    std::fs::copy(bins().join("greedy"), &swap).unwrap();
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let record: Value = serde_json::from_slice(&std::fs::read(league.join("tournament.json")).unwrap()).unwrap();
    let scheduled: BTreeSet<String> =
        record["schedule"].as_array().unwrap().iter().map(|m| m["key"].as_str().unwrap().to_string()).collect();
    let history: BTreeSet<String> = week1.difference(&scheduled).cloned().collect();
    assert_eq!(history.len(), 4, "the control: swap's old matches are no longer scheduled: {history:?}");
    (1..=2).for_each(play);
    let merged = d.join("merged");
    let out = arena(&["merge", &s(&merged), &s(&league), &s(&shard_dir(1)), &s(&shard_dir(2))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let all = keys(&merged.join("results.jsonl"));
    assert!(all.is_superset(&history), "the old version's results are kept: {all:?} lacks some of {history:?}");
    assert!(all.is_superset(&scheduled), "and the league's: {all:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("6 of 6 matches played"));
}

/// A shard whose `--out` lies inside a bot's folder is refused at once, naming the bot, and
/// writes nothing there. The control: what a shard's folder there holds (another shard's,
/// made after the build) makes the bot read as changed, refusing every later shard with a
/// misleading "bots changed"; with its `--out` outside, the shard plays.
#[test]
fn a_shard_refuses_an_out_inside_a_bot_s_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (alice, _, league) = alice_and_greedy_built(d, None);
    let inside = alice.join("shard-1");
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&inside)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("--out {} lies inside bot `alice`'s folder", inside.display()))
            && stderr.contains("outside every bot's folder"),
        "{stderr}"
    );
    assert!(!inside.exists(), "nothing written in alice's folder");

    // The control: another shard's folder left in alice's, and the shard (out elsewhere)
    // takes alice, playing from her own files, for another version.
    playing_from_own_files(&league);
    std::fs::create_dir_all(alice.join("shard-2")).unwrap();
    std::fs::write(alice.join("shard-2/results.shard-2-of-2.jsonl"), "").unwrap();
    let outside = d.join("shard-1");
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&outside)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("bots changed since the league was built: alice"), "{stderr}");
    std::fs::remove_dir_all(alice.join("shard-2")).unwrap();
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&outside)]);
    // (The league's folder itself, which the build left out, is no bot's.)
    ok(&["tournament", "--resume", &s(&league), "--shard", "2/2"]);
}

/// A shard whose `--out` lies inside the league's kept copy of a bot's version is refused at
/// once, and writes nothing there (the copy alice plays from, as her folder, stays as built).
/// The control: a shard's folder outside the league's folder plays.
#[test]
fn a_shard_refuses_an_out_inside_a_kept_copy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    let copies: Vec<PathBuf> =
        std::fs::read_dir(league.join("versions/alice")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let copy = copies[0].join("folder");
    let before: Vec<_> = std::fs::read_dir(&copy).unwrap().map(|e| e.unwrap().file_name()).collect();
    let inside = copy.join("shard-1");
    let out = arena(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&inside)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("--out {} lies inside the league's kept copies", inside.display())), "{stderr}");
    assert!(!inside.exists(), "nothing written in alice's copy");
    let after: Vec<_> = std::fs::read_dir(&copy).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(before, after);
    // The control: a shard's folder outside the league's.
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&d.join("shard-1"))]);
}

/// A shard whose `--out` lies inside the league's folder (its replays, its logs, a folder of its
/// own there) is refused at once, and nothing is made there: its copy of the league's record
/// holds the secret, and `arena publish` copied it from `replays/` and `logs/`. The control:
/// the league's folder itself (shared by the shards) and a folder outside it play.
#[test]
fn a_shard_refuses_an_out_inside_the_league_s_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    for inside in [league.join("replays"), league.join("logs/s3"), league.join("shard-2"), league.join("x/../shard-2")]
    {
        let out = arena(&["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&inside)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(stderr.contains(&format!("--out {} lies inside the league's folder", inside.display())), "{stderr}");
        assert!(!league.join("replays/tournament.json").exists() && !league.join("logs/s3").exists());
        assert!(!league.join("shard-2").exists() && !league.join("x").exists());
    }
    // The controls.
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2"]);
    ok(&["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&d.join("shard-2"))]);
}

/// A league's record (its secret) or a results file put anywhere inside `replays/` or `logs/`
/// (a shard's folder made there by an earlier arena, a copy) is never published, nor any file
/// there that is no page, replay or log; the publish says what it left out. The control: the
/// league's folder holds them, secret and all.
#[test]
fn a_publish_leaves_out_a_record_or_a_results_file_inside_the_replays_or_the_logs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    ok(&["tournament", "--resume", &s(&league)]);
    let record = std::fs::read_to_string(league.join("tournament.json")).unwrap();
    let secret: String =
        serde_json::from_str::<Value>(&record).unwrap()["config"]["secret"].as_str().unwrap().to_string();
    assert!(secret.len() >= 16, "{secret}");
    let planted =
        ["replays/tournament.json", "replays/s3/tournament.json", "logs/s3/tournament.json", "logs/tournament.json"];
    for file in planted {
        std::fs::create_dir_all(league.join(file).parent().unwrap()).unwrap();
        std::fs::write(league.join(file), &record).unwrap();
    }
    std::fs::write(league.join("replays/results.shard-1-of-4.jsonl"), format!("{{\"secret\":{secret:?}}}\n")).unwrap();
    std::fs::write(league.join("logs/notes.txt"), &secret).unwrap();
    // A name that would start a line of its own, and clear the screen, if printed as it is.
    std::fs::write(league.join("replays/a\x1b[2J\nFAKE.txt"), "").unwrap();
    // The control: the league holds them.
    for file in planted.iter().chain(&["replays/results.shard-1-of-4.jsonl", "logs/notes.txt"]) {
        assert!(std::fs::read_to_string(league.join(file)).unwrap().contains(&secret), "{file}");
    }
    let (site, league_arg) = (d.join("site"), s(&league));
    for extra in [&[][..], &["--match-logs", "--build-logs"][..]] {
        let _ = std::fs::remove_dir_all(&site);
        let site_arg = s(&site);
        let out = ok(&[&["publish"], extra, &[league_arg.as_str(), site_arg.as_str()][..]].concat());
        for file in walk_files(&site) {
            let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
            assert!(!text.contains(&secret), "{} holds the secret", file.display());
        }
        assert!(!site.join("replays/s3").exists() && !site.join("logs/s3").exists());
        assert!(site.join("index.html").is_file() && site.join("leaderboard.json").is_file());
        let replays = std::fs::read_dir(site.join("replays")).unwrap().count();
        assert_eq!(replays, 4, "two matches' replays and pages");
        for shown in ["replays/tournament.json", "replays/s3/", "logs/s3/", "logs/notes.txt"] {
            assert!(out.contains(shown), "{shown}: {out}");
        }
        let left: Vec<&str> = out.lines().filter(|l| l.contains("FAKE.txt")).collect();
        assert_eq!(left.len(), 1, "{out}");
        assert!(left[0].starts_with("left out: ") && !left[0].contains('\x1b'), "one line, shown safely: {out:?}");
    }
}

/// Every file under `dir`.
fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.file_type().unwrap().is_dir() {
            out.extend(walk_files(&entry.path()));
        } else {
            out.push(entry.path());
        }
    }
    out
}

/// `deploy/kubernetes/run-league.sh`, against a kubectl stand-in that reports each Job's
/// conditions (from the second look on): a failed build stops it at once, with the build's
/// log and an error, and no shard is started (`kubectl wait --for=condition=complete`, which
/// the docs gave, waited for a failed build until its timeout); a Job that is only about to
/// fail (`FailureTarget`) or has not ended is waited for until the timeout, which is an error.
/// The control: the same stand-in with a build that completes runs the shards and the merge
/// (a failed slice merged anyway); a merge that fails makes it fail (exit 2). And the docs and
/// manifests give no wait that a failed Job never ends.
#[test]
fn the_kubernetes_script_stops_when_the_build_job_fails() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("kubectl");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho \"$*\" >> \"$FAKE/calls\"\ncase \"$1\" in\n\
         get) n=$(cat \"$FAKE/$3.polls\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$FAKE/$3.polls\"\n\
         \x20 if [ $n -ge 2 ]; then cat \"$FAKE/$3.state\" 2>/dev/null; fi ;;\n\
         logs) echo \"the log of $2\" ;;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = root().join("deploy/kubernetes/run-league.sh");
    // Runs the script with the Jobs' states; its exit code, what it said and kubectl's calls.
    let run = |n: usize, states: &[(&str, &str)], timeout: &str| {
        let state = dir.path().join(format!("run{n}"));
        std::fs::create_dir_all(&state).unwrap();
        for (job, conditions) in states {
            std::fs::write(state.join(format!("{job}.state")), conditions).unwrap();
        }
        let out = Command::new("bash")
            .arg(&script)
            .env("KUBECTL", &fake)
            .env("FAKE", &state)
            .env("POLL_SECONDS", "0")
            .env("BUILD_TIMEOUT", timeout)
            .env("LEAGUE_TIMEOUT", timeout)
            .env("MERGE_TIMEOUT", timeout)
            .output()
            .unwrap();
        let calls = std::fs::read_to_string(state.join("calls")).unwrap_or_default();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), calls)
    };
    let applied = |calls: &str| -> Vec<String> {
        calls
            .lines()
            .filter_map(|l| l.strip_prefix("apply -f "))
            .map(|f| f.rsplit('/').next().unwrap().into())
            .collect()
    };

    let (code, stderr, calls) = run(1, &[("arena-build", "Failed")], "600");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("job/arena-build failed") && stderr.contains("the log of job/arena-build"), "{stderr}");
    assert_eq!(applied(&calls), ["build-job.yaml"], "no shard started: {calls}");

    // The control: the build completes (Kubernetes 1.31 says SuccessCriteriaMet first), a slice
    // fails, the merge runs anyway.
    let states = [
        ("arena-build", "SuccessCriteriaMet Complete"),
        ("arena-league", "FailureTarget Failed"),
        ("arena-merge", "Complete"),
    ];
    let (code, stderr, calls) = run(2, &states, "600");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("job/arena-league failed") && stderr.contains("merging"), "{stderr}");
    assert_eq!(applied(&calls), ["build-job.yaml", "league-job.yaml", "merge-job.yaml"], "{calls}");
    assert!(calls.contains("delete job arena-league --ignore-not-found"), "a Job is started anew: {calls}");
    let (code, stderr, _) =
        run(3, &[("arena-build", "Complete"), ("arena-league", "Complete"), ("arena-merge", "Failed")], "600");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("job/arena-merge failed") && stderr.contains("the log of job/arena-merge"), "{stderr}");
    // About to fail, not failed yet: waited for, until the timeout.
    let (code, stderr, calls) = run(4, &[("arena-build", "FailureTarget")], "0");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("job/arena-build has not ended after 0s"), "{stderr}");
    assert_eq!(applied(&calls), ["build-job.yaml"], "{calls}");

    // What the docs and the manifests tell to run waits for a Job's end, failed or complete.
    let docs = std::fs::read_to_string(root().join("docs/scale-out.md")).unwrap();
    assert!(docs.contains("deploy/kubernetes/run-league.sh"), "the docs give the script");
    for (name, text) in std::fs::read_dir(root().join("deploy/kubernetes"))
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap()))
        .chain([("docs/scale-out.md".to_string(), docs.clone())])
    {
        assert!(!text.contains("--for=condition=complete"), "{name} waits for a Job that may fail as if it could not");
    }
}

/// A Slurm array's `--shard auto` is checked against the split the league shows: tasks 1 and 2
/// of 4 submitted again (`--array=1-2`, an array of two that looks whole) are refused, pointing
/// to `--shard 1/4`, once the shards' results files say the league is split into 4, and still
/// after the merge folded them (it records the split), until the next `arena build`. The
/// control: the whole array's task plays as 1/4, and the same task given as `--shard 1/2`
/// (a new split, said explicitly) plays.
#[test]
fn a_slurm_array_submitted_again_in_part_is_not_taken_for_a_whole_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bots = vec![("greedy", bin("greedy")), ("random", bin("random")), ("waiter", bin("waiter"))];
    let cfg = config_file(&d.join("league.toml"), "seed = 11\ngames = 1\njobs = 1", &["tight.txt"], &bots);
    let league = d.join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    // Task 1 of `sbatch --array=MIN-MAX`.
    let task = |min: &str, max: &str, count: &str| {
        let out = Command::new(bin("arena"))
            .current_dir(root())
            .args(["tournament", "--resume", &s(&league), "--shard", "auto"])
            .env("SLURM_ARRAY_TASK_ID", "1")
            .env("SLURM_ARRAY_TASK_MIN", min)
            .env("SLURM_ARRAY_TASK_MAX", max)
            .env("SLURM_ARRAY_TASK_COUNT", count)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (played, stdout, stderr) = task("1", "4", "4");
    assert!(played && stdout.contains("shard 1/4"), "the control, the whole array: {stdout}{stderr}");
    let refused = |why: &str| {
        let (played, _, stderr) = task("1", "2", "2");
        assert!(!played, "{why}: {stderr}");
        assert!(
            stderr.contains("the league is split into 4 shards") && stderr.contains("--shard 1/4"),
            "{why}: {stderr}"
        );
        stderr
    };
    assert!(refused("the shards' files").contains("its shards' results files"));
    let _ = arena(&["merge", &s(&league), &s(&league)]);
    assert!(!league.join("results.shard-1-of-4.jsonl").exists(), "folded by the merge");
    assert!(refused("after the merge").contains("its last merge"));
    // The control: said explicitly, a new split is played.
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2"]);
    // A build starts anew: the next array is a whole one.
    let _ = arena(&["merge", &s(&league), &s(&league)]);
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let (played, stdout, stderr) = task("1", "2", "2");
    assert!(played && stdout.contains("shard 1/2"), "{stdout}{stderr}");
}

/// A league in `d` of `random` and a bot that crashes once a flag is set, built, and played by
/// its two shards into `s1` and `s2`; then shard 2 played again into `forged` with the flag
/// set (so that its results differ, each a real game): the league, the shards' folders, that one.
fn crashy_league(d: &Path) -> (PathBuf, [PathBuf; 2], PathBuf) {
    let flag = d.join("crash");
    std::fs::create_dir_all(d.join("crashy")).unwrap();
    let script = format!(
        "[ -e {} ] && exit 0\nwhile read -r word rest; do [ \"$word\" = TICK ] && echo WAIT; done\n",
        flag.display()
    );
    std::fs::write(d.join("crashy/bot.sh"), script).unwrap();
    let bots = [("random", bin("random")), ("crashy", format!("sh {}", d.join("crashy/bot.sh").display()))];
    let settings = "seed = 11\ngames = 1\njobs = 1\nsandbox = \"none\"";
    let cfg = config_file(&d.join("league.toml"), settings, &["duel.txt", "tight.txt"], &bots);
    let league = d.join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let (one, two, forged) = (d.join("s1"), d.join("s2"), d.join("forged"));
    for (k, out) in [(1, &one), (2, &two)] {
        ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2"), "--out", &s(out)]);
    }
    std::fs::write(&flag, "").unwrap();
    ok(&["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&forged)]);
    std::fs::remove_file(&flag).unwrap();
    (league, [one, two], forged)
}

/// Through `arena merge`: a forged result (a legal game of the match, its program for `crashy`
/// exiting at once, played by shard 2 again in another folder) of a match of shard 2 put in
/// shard 1's folder is refused and the merge exits 3: in shard 1's results file or its main one
/// as another shard's match (the folder records its slice), under a name no run writes as a
/// file of nobody's; in the main results file of a folder recording no slice (an earlier
/// arena's) as a result two folders hold differently (the match left out). The control: the
/// honest result copied there instead merges, exit 0.
#[test]
fn a_merge_refuses_a_result_in_another_shard_s_folder_and_results_held_differently() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, [one, two], forged) = crashy_league(d);
    let lines = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("results.shard-2-of-2.jsonl")).unwrap().lines().map(String::from).collect()
    };
    let key = |line: &str| serde_json::from_str::<Value>(line).unwrap()["key"].as_str().unwrap().to_string();
    let result = |line: &str| serde_json::from_str::<Value>(line).unwrap()["result"].clone();
    let (honest, forged_lines) = (lines(&two), lines(&forged));
    let fake = forged_lines.iter().find(|f| honest.iter().any(|h| key(h) == key(f) && result(h) != result(f))).unwrap();
    let real = honest.iter().find(|h| key(h) == key(fake)).unwrap();
    let replay = serde_json::from_str::<Value>(fake).unwrap()["replay"].as_str().unwrap().to_string();
    let own = std::fs::read_to_string(one.join("results.shard-1-of-2.jsonl")).unwrap();
    // A merge into `name` that is refused (exit code 3): its stderr.
    let refused = |name: &str| -> String {
        let out = arena(&["merge", &s(&d.join(name)), &s(&one), &s(&two)]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        stderr
    };

    std::fs::create_dir_all(one.join(&replay).parent().unwrap()).unwrap();
    std::fs::copy(forged.join(&replay), one.join(&replay)).unwrap();
    std::fs::write(one.join("results.shard-1-of-2.jsonl"), format!("{own}{fake}\n")).unwrap();
    let stderr = refused("m1");
    let why = format!(
        "{}: match {}: it is shard 2/2's match, and the line is in results.shard-1-of-2.jsonl",
        s(&one),
        key(fake)
    );
    assert!(stderr.contains(&why), "{stderr}");

    // In shard 1's main results file: shard 1's folder (its record says so) gives only its own
    // slice, so the line is refused as shard 2's match, and shard 2's is merged.
    std::fs::write(one.join("results.shard-1-of-2.jsonl"), &own).unwrap();
    std::fs::write(one.join("results.jsonl"), format!("{fake}\n")).unwrap();
    let stderr = refused("m2");
    let why = format!("{}: match {}: it is shard 2/2's match, and the line is in results.jsonl", s(&one), key(fake));
    assert!(stderr.contains(&why), "{stderr}");
    assert!(!stderr.contains("not complete"), "{stderr}");
    // Under a name no run writes, in any folder: refused, named.
    std::fs::rename(one.join("results.jsonl"), one.join("results.backup.jsonl")).unwrap();
    let stderr = refused("m2b");
    let why = format!("{}: results.backup.jsonl: not a results file an arena run writes", s(&one));
    assert!(stderr.contains(&why), "{stderr}");
    std::fs::remove_file(one.join("results.backup.jsonl")).unwrap();
    // A folder that records no slice (a shard's of an earlier arena, or one whose slice was
    // removed) claims by names: there, the line of its main results file is another result
    // than shard 2's own folder holds, which is merged; the line is refused, naming the folder
    // (it vetoed shard 2's result: neither was merged).
    let record = one.join("tournament.json");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(json["slice"], serde_json::json!({"index": 1, "count": 2}), "a shard's folder records its slice");
    json.as_object_mut().unwrap().remove("slice");
    std::fs::write(&record, serde_json::to_string(&json).unwrap()).unwrap();
    std::fs::write(one.join("results.jsonl"), format!("{fake}\n")).unwrap();
    let stderr = refused("m2c");
    let why = format!(
        "{}: match {}: results.jsonl: another result than {} in results.shard-2-of-2.jsonl",
        s(&one),
        key(fake),
        s(&two)
    );
    assert!(stderr.contains(&why), "{stderr}");
    assert!(!stderr.contains("not complete"), "{stderr}");
    let merged = std::fs::read_to_string(d.join("m2c/results.jsonl")).unwrap();
    let taken = merged.lines().find(|l| key(l) == key(fake)).unwrap();
    assert_eq!(result(taken), result(real), "shard 2's own result");

    // The control: the honest result, the same in both folders.
    std::fs::copy(two.join(&replay), one.join(&replay)).unwrap();
    std::fs::write(one.join("results.jsonl"), format!("{real}\n")).unwrap();
    ok(&["merge", &s(&d.join("m3")), &s(&one), &s(&two)]);
}

/// Through `arena merge`, each shard's folder bound to its slice (`K/N=DIR`): shard 1's folder,
/// written by a student, claiming slice 2/2 in its record and holding a forged result of shard
/// 2's match is left out, named (exit 3), and shard 2's honest result merged; with its slice
/// removed and shard 2's folder missing, its `results.shard-2-of-2.jsonl` is refused whole and
/// the match stays missing. Only shard 2's folder bound, shard 1's given alone and claiming
/// 2/2, the bound result outranks it and is merged. Shard 2's folder given alone again through a
/// link is held to its slice, not said to be taken on trust; bound through a link, it is left
/// out, named (exit 3). A binding that is none (`3/2=DIR`) is refused before anything is
/// written. The controls: the same folders given alone (the older command line, which the merge
/// says it took at their records' word), the honest result is dropped as held differently, and
/// the forged one fills the missing shard's match.
#[test]
fn a_merge_binds_each_shard_s_folder_to_its_slice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, [one, two], forged) = crashy_league(d);
    let lines = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("results.shard-2-of-2.jsonl")).unwrap().lines().map(String::from).collect()
    };
    let field = |line: &str, name: &str| serde_json::from_str::<Value>(line).unwrap()[name].clone();
    let (honest, forged_lines) = (lines(&two), lines(&forged));
    let fake = forged_lines
        .iter()
        .find(|f| honest.iter().any(|h| field(h, "key") == field(f, "key") && field(h, "result") != field(f, "result")))
        .unwrap()
        .clone();
    let key = field(&fake, "key").as_str().unwrap().to_string();
    let real = honest.iter().find(|h| field(h, "key") == key.as_str()).unwrap().clone();
    let replay = field(&fake, "replay").as_str().unwrap().to_string();
    std::fs::copy(forged.join(&replay), one.join(&replay)).unwrap();
    std::fs::write(one.join("results.shard-2-of-2.jsonl"), format!("{fake}\n")).unwrap();
    let record = one.join("tournament.json");
    let set_slice = |slice: Option<Value>| {
        let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        match slice {
            Some(slice) => json["slice"] = slice,
            None => drop(json.as_object_mut().unwrap().remove("slice")),
        }
        std::fs::write(&record, serde_json::to_string(&json).unwrap()).unwrap();
    };
    let merge = |name: &str, dirs: &[String]| -> (Option<i32>, String, Option<Value>) {
        let out = d.join(name);
        let mut args = vec!["merge".to_string(), s(&out), "--league".to_string(), s(&league)];
        args.extend(dirs.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = arena(&args);
        let merged = std::fs::read_to_string(out.join("results.jsonl")).unwrap_or_default();
        let taken = merged.lines().find(|l| field(l, "key") == key.as_str()).map(|l| field(l, "result"));
        (done.status.code(), String::from_utf8_lossy(&done.stderr).into_owned(), taken)
    };

    // Shard 1's folder claiming slice 2/2.
    set_slice(Some(serde_json::json!({"index": 2, "count": 2})));
    let bound = [format!("1/2={}", s(&one)), format!("2/2={}", s(&two))];
    let (code, stderr, taken) = merge("bound", &bound);
    assert_eq!(code, Some(3), "{stderr}");
    let why = format!(
        "{}: bound to shard 1/2 on the command line (1/2=DIR), but its tournament.json names the slice of shard 2/2",
        s(&one)
    );
    assert!(stderr.contains(&why) && stderr.contains("left out of the merge"), "{stderr}");
    assert_eq!(taken, Some(field(&real, "result")), "shard 2's honest result: {stderr}");
    assert!(!stderr.contains("given without"), "{stderr}");
    // The control: the older command line.
    let (code, stderr, taken) = merge("unbound", &[s(&one), s(&two)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("folders hold different results"), "{stderr}");
    assert_eq!(taken, None, "the control: the honest result dropped");
    let note = format!("note: {}, {} given without their slice", s(&one), s(&two));
    assert!(stderr.contains(&note), "{stderr}");
    // Only shard 2's folder bound: shard 1's, given alone and claiming 2/2, no longer drops its
    // honest result (the binding outranks the record's claim).
    let (code, stderr, taken) = merge("part-bound", &[format!("2/2={}", s(&two)), s(&one)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert_eq!(taken, Some(field(&real, "result")), "shard 2's honest result: {stderr}");
    assert!(stderr.contains("which the folder the command line binds to its shard (K/N=DIR) holds"), "{stderr}");
    // Shard 2's folder given again, alone, through a link: held to 2/2 by its real path, so not
    // said to be taken on trust; bound through a link, it is left out (exit 3), not the merge
    // stopped.
    let link = d.join("two-link");
    std::os::unix::fs::symlink(&two, &link).unwrap();
    let (_, stderr, taken) = merge("linked", &[format!("2/2={}", s(&two)), s(&link)]);
    assert_eq!(taken, Some(field(&real, "result")), "{stderr}");
    assert!(!stderr.contains("given without"), "{stderr}");
    let (code, stderr, _) = merge("bound-link", &[format!("2/2={}", s(&link))]);
    assert_eq!(code, Some(3), "{stderr}");
    let why = format!("2/2={}: bound to shard 2/2 on the command line, but a link (to {})", s(&link), s(&two));
    assert!(stderr.contains(&why), "{stderr}");

    // Its slice removed, shard 2's folder missing.
    set_slice(None);
    let (code, stderr, taken) = merge("bound-alone", &[format!("1/2={}", s(&one))]);
    assert_eq!(code, Some(3), "{stderr}");
    let why = format!(
        "{}: results.shard-2-of-2.jsonl: another shard's results file, in the folder of shard 1/2 (as the command \
         line binds it)",
        s(&one)
    );
    assert!(stderr.contains(&why), "{stderr}");
    assert_eq!(taken, None, "{stderr}");
    // The control: given alone, the forged result fills the missing shard's match.
    let (_, stderr, taken) = merge("unbound-alone", &[s(&one)]);
    assert_eq!(taken, Some(field(&fake, "result")), "the control: the forged result lands: {stderr}");

    // A binding that is none.
    let out = arena(&["merge", &s(&d.join("none")), "--league", &s(&league), &format!("3/2={}", s(&two))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("a shard's folder bound to its slice is K/N=DIR"), "{stderr}");
    assert!(!d.join("none").exists());
}

/// A shard count larger than the league's matches is refused with a message, before anything is
/// written, however large (`usize::MAX` overflowed the allocation of a slot per shard, 10^11
/// aborted the process), given as `--shard K/N` or by the environment (`--shard auto`); so a
/// correct array afterwards is not broken by an empty results file of the refused split. A
/// merge refuses a results file whose name gives such a split, naming it, and merges the rest.
/// The control: `--shard auto` with the league's count plays, and the merge without the file
/// is complete.
#[test]
fn a_shard_count_beyond_the_league_s_matches_is_refused_never_allocated() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    let before: Vec<_> = std::fs::read_dir(&league).unwrap().map(|e| e.unwrap().file_name()).collect();
    let auto = |index: &str, count: &str| {
        let mut command = Command::new(bin("arena"));
        for (name, _) in std::env::vars().filter(|(n, _)| n.starts_with("SLURM_")) {
            command.env_remove(name);
        }
        command
            .current_dir(root())
            .args(["tournament", "--resume", &s(&league), "--shard", "auto"])
            .env("JOB_COMPLETION_INDEX", index)
            .env("ARENA_SHARD_COUNT", count)
            .output()
            .unwrap()
    };
    for count in ["18446744073709551615", "100000000000", "100000", "3"] {
        let given = arena(&["tournament", "--resume", &s(&league), "--shard", &format!("1/{count}")]);
        for out in [given, auto("0", count)] {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{count}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            let why =
                format!("a split into {count} shards, more than the league's 2 matches: it splits into at most 2");
            assert!(stderr.contains(&why), "{count}: {stderr}");
            let now: Vec<_> = std::fs::read_dir(&league).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(now, before, "nothing written");
        }
    }
    // The control: the league's own split, by the environment, plays.
    for index in ["0", "1"] {
        let out = auto(index, "2");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let shard = d.join("shard");
    std::fs::create_dir_all(&shard).unwrap();
    std::fs::copy(league.join("tournament.json"), shard.join("tournament.json")).unwrap();
    let planted = "results.shard-1-of-18446744073709551615.jsonl";
    std::fs::copy(league.join("results.shard-1-of-2.jsonl"), shard.join(planted)).unwrap();
    let out = arena(&["merge", &s(&d.join("merged")), &s(&league), &s(&shard)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: {planted}: the results of shard 1/18446744073709551615", s(&shard))),
        "{stderr}"
    );
    assert!(!stderr.contains("not complete"), "the league's own lines merged: {stderr}");
    std::fs::remove_file(shard.join(planted)).unwrap();
    ok(&["merge", &s(&d.join("merged-2")), &s(&league), &s(&shard)]);
}

/// A merge's mistakes are said as what they are: OUT a file (was "File exists (os error 17)"),
/// OUT in a folder no file can be made in (was the lock file's "No such file or directory"), a
/// folder merged that holds no league (was the advice to start a tournament there); and a file
/// a shard's folder holds that no league's does is named as left out (was dropped silently).
/// The control: the same merge with the right arguments merges, naming nothing.
#[test]
fn a_merge_s_mistakes_are_said_as_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    let shard = d.join("shard");
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/1", "--out", &s(&shard)]);
    let fails = |args: &[&str], says: &str| {
        let out = arena(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("os error 17") && !stderr.contains("--config FILE"), "{stderr}");
    };
    let record = league.join("tournament.json");
    fails(&["merge", &s(&record), &s(&league)], &format!("{}: not a folder", s(&record)));
    fails(&["merge", "/proc/arena-out", &s(&league)], "/proc/arena-out: its parent folder /proc cannot be written in");
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    fails(
        &["merge", &s(&d.join("m0")), &s(&league), &s(&empty)],
        &format!("{}: no tournament.json: not a league's folder", s(&empty)),
    );
    // The control, then with a file of the user's in the shard's folder.
    let out = arena(&["merge", &s(&d.join("m1")), &s(&league), &s(&shard)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("left out of the merge"), "{stderr}");
    std::fs::write(shard.join("notes.txt"), "mine").unwrap();
    let out = arena(&["merge", &s(&d.join("m2")), &s(&league), &s(&shard)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said = format!("{}: notes.txt: no file of a league's folder: left out of the merge", s(&shard));
    assert!(out.status.success() && stderr.contains(&said), "{stderr}");
}

/// A shard's own folder (`--shard 1/2 --out s1`) is shard 1/2's: another shard is refused there,
/// given it as its `--out` or played in it in place (`--resume s1 --shard 2/2`), whose results the
/// merge would take none of from a folder its record gives to shard 1/2. The control: shard 1/2
/// again, in place, plays nothing more and is not refused.
#[test]
fn a_shard_s_own_folder_is_refused_to_another_shard_in_place_or_as_its_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, _, league) = alice_and_greedy_built(d, None);
    let s1 = d.join("s1");
    ok(&["tournament", "--resume", &s(&league), "--shard", "1/2", "--out", &s(&s1)]);
    // (The locks a run takes stay, as after every run.)
    let files = |dir: &Path| -> BTreeSet<_> {
        let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        names.filter(|n| !n.starts_with(".lock")).collect()
    };
    let before = files(&s1);
    for args in [
        vec!["tournament", "--resume", &s(&league), "--shard", "2/2", "--out", &s(&s1)],
        vec!["tournament", "--resume", &s(&s1), "--shard", "2/2"],
    ] {
        let out = arena(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("is the folder of shard 1/2: give each shard its own --out"), "{args:?}: {stderr}");
        assert_eq!(files(&s1), before, "nothing written");
    }
    let out = ok(&["tournament", "--resume", &s(&s1), "--shard", "1/2"]);
    assert!(out.contains("0 matches played now"), "{out}");
}

/// A league's bots: names and commands.
type Bots = Vec<(&'static str, String)>;

/// A league's bots in its first week (greedy, random) and its second (a student more: waiter).
fn two_weeks() -> (Bots, Bots) {
    let week1 = vec![("greedy", bin("greedy")), ("random", bin("random"))];
    let mut week2 = week1.clone();
    week2.push(("waiter", bin("waiter")));
    (week1, week2)
}

/// The league config in `d` of a week's `bots` on `maps`.
fn week_config(d: &Path, maps: &[&str], bots: &[(&str, String)]) -> PathBuf {
    config_file(&d.join("league.toml"), "seed = 11\ngames = 1\njobs = 1", maps, bots)
}

/// A shard in a folder of its own does not play again what the league's folder already holds
/// of its slice (last week's, merged there): a new week's shards in fresh folders, as a CI
/// matrix's are, play only the new bot's matches, and the merge of the league and them is
/// whole. The control: the same fresh shards against a league whose results were taken away
/// play their whole slices (every run played the whole league again).
#[test]
fn shards_in_fresh_folders_play_only_what_the_league_does_not_hold() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (week1, week2) = two_weeks();
    let cfg = |bots: &[(&str, String)]| week_config(d, &["tight.txt", "duel.txt"], bots);
    let league = d.join("league");
    let shards = |week: &str| -> Vec<String> {
        (1..=2)
            .map(|k| {
                let out = d.join(format!("{week}-shard{k}"));
                ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2"), "--out", &s(&out)]);
                s(&out)
            })
            .collect()
    };
    let played = |folders: &[String]| -> usize {
        folders
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let file = Path::new(f).join(format!("results.shard-{}-of-2.jsonl", k + 1));
                if file.exists() {
                    result_lines(&file).len()
                } else {
                    0
                }
            })
            .sum()
    };
    let merge = |folders: &[String]| {
        let mut args = vec!["merge".to_string(), s(&league), "--league".to_string(), s(&league)];
        args.extend(folders.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&args)
    };
    ok(&["build", &s(&cfg(&week1)), "--out", &s(&league)]);
    let first = shards("w1");
    assert_eq!(played(&first), 4, "week 1: 2 bots, 2 maps, both seats");
    assert!(merge(&first).contains("4 of 4 matches played"));

    ok(&["build", &s(&cfg(&week2)), "--out", &s(&league)]);
    let second = shards("w2");
    assert_eq!(played(&second), 8, "week 2: only waiter's 8 matches are played");
    let merged = merge(&second);
    assert!(merged.contains("12 of 12 matches played"), "{merged}");

    // The control: the league's results away, fresh shards play their whole slices again.
    std::fs::rename(league.join("results.jsonl"), d.join("results.jsonl.away")).unwrap();
    let again = shards("w3");
    assert_eq!(played(&again), 12, "without the league's results, every match is played");
}

/// A shard's folder is data: `arena merge` copies from it no file that is a link (a match's
/// page linked to a secret file, a log linked to the league's record), waits on no FIFO in
/// `logs/`, and writes every match's page anew from its checked replay, as the run wrote it (a
/// shard's page replaced by a script is not published). The controls: the planted files are
/// live (the link reads the secret, the page holds the script, the FIFO is one), and the
/// pages the merge wrote are byte for byte the ones the shard's run wrote.
#[test]
fn a_merge_copies_no_link_fifo_or_page_from_a_shard_s_folder() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    let keys: Vec<String> = result_lines(&two.join("results.shard-2-of-2.jsonl"))
        .iter()
        .map(|l| l["key"].as_str().unwrap().to_string())
        .collect();
    assert!(keys.len() >= 2, "{keys:?}");
    let page = |dir: &Path, k: &str| dir.join("replays").join(format!("{k}.html"));
    let written: Vec<Vec<u8>> = keys.iter().map(|k| std::fs::read(page(&two, k)).unwrap()).collect();
    let secret = d.join("shadow");
    std::fs::write(&secret, "root:SECRET-HASH").unwrap();
    // The planted files.
    std::fs::write(page(&two, &keys[0]), "<h1>random WINS</h1><script>alert(1)</script>").unwrap();
    std::fs::remove_file(page(&two, &keys[1])).unwrap();
    std::os::unix::fs::symlink(&secret, page(&two, &keys[1])).unwrap();
    let log = |k: &str| two.join("logs").join(format!("{k}.log"));
    let _ = std::fs::remove_file(log(&keys[0]));
    let made = std::process::Command::new("mkfifo").arg(log(&keys[0])).status().unwrap();
    assert!(made.success());
    let _ = std::fs::remove_file(log(&keys[1]));
    std::os::unix::fs::symlink(league.join("tournament.json"), log(&keys[1])).unwrap();
    std::fs::create_dir_all(two.join("builds")).unwrap();
    std::os::unix::fs::symlink(&secret, two.join("builds/greedy-1.log")).unwrap();

    let merged = d.join("merged");
    let mut child = spawn(&["merge", &s(&merged), &s(&league), &s(&one), &s(&two)]);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the merge hangs");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status}");
    for (k, before) in keys.iter().zip(&written).take(2) {
        let now = std::fs::read(page(&merged, k)).unwrap();
        assert!(now == *before, "{k}: the page the run wrote, written anew");
    }
    for file in walk_files(&merged) {
        let text = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&text);
        assert!(!text.contains("SECRET-HASH") && !text.contains("alert(1)"), "{}", file.display());
    }
    assert!(!merged.join("logs").join(format!("{}.log", keys[0])).exists());
    assert!(!merged.join("logs").join(format!("{}.log", keys[1])).exists());
    assert!(!merged.join("builds/greedy-1.log").exists());
    let site = d.join("site");
    ok(&["publish", &s(&merged), &s(&site)]);
    let published = std::fs::read_to_string(page(&site, &keys[0])).unwrap();
    assert!(!published.contains("alert(1)"), "{published}");
    // The controls: the planted files are live.
    assert_eq!(std::fs::read_to_string(page(&two, &keys[1])).unwrap(), "root:SECRET-HASH");
    assert!(std::fs::read_to_string(page(&two, &keys[0])).unwrap().contains("alert(1)"));
    assert!(std::fs::symlink_metadata(log(&keys[0])).unwrap().file_type().is_fifo());
}

/// Shard folders used again week after week, as a Slurm course's `SHARD_DIR`s are: when the
/// league grows, its split moves earlier weeks' matches to other shards, and a folder keeps
/// their lines; the merge takes such a line as the same result the league holds, not as a
/// line out of its shard (every later merge was refused, exit 3, and no run of the shards
/// mended it). The control: such a line that says otherwise is still refused.
#[test]
fn shard_folders_used_again_after_the_league_grew_merge_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (week1, week2) = two_weeks();
    let cfg = |bots: &[(&str, String)]| week_config(d, &["tight.txt", "duel.txt", "fire.txt"], bots);
    let league = d.join("league");
    let folders: Vec<String> = (1..=4).map(|k| s(&d.join(format!("shard{k}")))).collect();
    let run_shards = || {
        for (k, out) in folders.iter().enumerate() {
            ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{}/4", k + 1), "--out", out]);
        }
    };
    let merge = || {
        let mut args = vec!["merge".to_string(), s(&league), s(&league)];
        args.extend(folders.iter().cloned());
        arena(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    ok(&["build", &s(&cfg(&week1)), "--out", &s(&league)]);
    run_shards();
    assert!(merge().status.success());
    ok(&["build", &s(&cfg(&week2)), "--out", &s(&league)]);
    run_shards();
    let merged = merge();
    let (stdout, stderr) = (String::from_utf8_lossy(&merged.stdout), String::from_utf8_lossy(&merged.stderr));
    assert!(merged.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("18 of 18 matches played"), "{stdout}");

    // The control: the week-1 lines the folders hold, each made to say another result.
    for (k, folder) in folders.iter().enumerate() {
        let file = Path::new(folder).join(format!("results.shard-{}-of-4.jsonl", k + 1));
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let forged: String = text
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                if !v["key"].as_str().unwrap().contains("waiter") {
                    v["steps"] = (v["steps"].as_u64().unwrap() + 1).into();
                }
                format!("{v}\n")
            })
            .collect();
        std::fs::write(&file, forged).unwrap();
    }
    let refused = merge();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("'s match, and the line is in"), "{stderr}");
}

/// Shards given `--out` after the league's folder played every match play none, and a merge
/// of their folders alone misses them all: it says to give the league's folder to the merge
/// too, not to run the shards again (which plays nothing: the advice looped). The control:
/// with the league's folder, complete, exit 0.
#[test]
fn a_merge_without_the_league_s_folder_says_to_give_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &bots()[..2]);
    let league = dir.path().join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    ok(&["tournament", "--resume", &s(&league)]);
    let shard = |k: usize| dir.path().join(format!("s{k}"));
    for k in 1..=2 {
        ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2"), "--out", &s(&shard(k))]);
    }
    let out = arena(&["merge", &s(&dir.path().join("alone")), &s(&shard(1)), &s(&shard(2))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the league is not complete"), "{stderr}");
    assert!(
        stderr.contains("give the league's folder to the merge too: `arena merge OUT --league LEAGUE K/N=SHARD_DIR…`"),
        "{stderr}"
    );
    assert!(!stderr.lines().any(|l| l.starts_with("re-run the shards")), "{stderr}");
    // The control.
    ok(&["merge", &s(&dir.path().join("whole")), "--league", &s(&league), &s(&shard(1)), &s(&shard(2))]);
}

/// `arena merge OUT --league LEAGUE SHARD_DIR…`: the league's folder is the one named, and no
/// other passes for it. (a) A shard's folder a student changed to look like the league's (its
/// slice removed, a `versions/` made, its forged lines in its main results file, a bot
/// disqualified in its record): named, the league's record is taken and the look-alike is a
/// shard's folder whose lines shard 2's own folder outranks (refused, named); without
/// `--league` its lines still rank as any folder's, but its record is taken when the league's
/// folder is not given (the control: the attack on the record succeeds), and the merge says so
/// with a note to name the league's; a shard's folder named the league's is refused, naming its
/// slice. (c) Shard 2 run in the league's folder (the folder the shards shared) holds its match
/// over a shard 2's folder from elsewhere holding it otherwise: named, or as OUT, the league's
/// result is taken and the other refused; the control: the league's folder given unnamed, not
/// OUT, the other folder's forged result lands. (b) A lone folder claiming `slice 1/1` is
/// refused once the league's last merge recorded its split, 2; the control: where the league
/// names no split, it is taken as a new split, and its forged result lands.
#[test]
fn a_merge_takes_the_league_s_folder_named_and_no_look_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, [one, two], forged) = crashy_league(d);
    let lines = |dir: &Path, file: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(file)).unwrap().lines().map(String::from).collect()
    };
    let json = |line: &str| serde_json::from_str::<Value>(line).unwrap();
    let key = |line: &str| json(line)["key"].as_str().unwrap().to_string();
    let (honest, forged_lines) =
        (lines(&two, "results.shard-2-of-2.jsonl"), lines(&forged, "results.shard-2-of-2.jsonl"));
    let fake =
        forged_lines.iter().find(|f| honest.iter().any(|h| key(h) == key(f) && json(h)["result"] != json(f)["result"]));
    let fake = fake.unwrap().clone();
    let real = honest.iter().find(|h| key(h) == key(&fake)).unwrap().clone();
    // The result `out`'s merge holds for the match.
    let merged_result = |out: &Path| -> Option<Value> {
        lines(out, "results.jsonl").iter().find(|l| key(l) == key(&fake)).map(|l| json(l)["result"].clone())
    };
    let record_of = |dir: &Path| -> Value { json(&std::fs::read_to_string(dir.join("tournament.json")).unwrap()) };
    let merge = |args: &[&str]| -> (Option<i32>, String) {
        let out = arena(&[&["merge"], args].concat());
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let copy = |from: &Path, to: &Path| {
        assert!(Command::new("cp").args(["-a", &s(from), &s(to)]).status().unwrap().success());
    };

    // (a) The look-alike.
    let evil = d.join("evil");
    copy(&forged, &evil);
    let mut record = record_of(&evil);
    assert_eq!(record["slice"], serde_json::json!({"index": 2, "count": 2}), "a shard's folder records its slice");
    let top = record.as_object_mut().unwrap();
    top.remove("slice");
    top.entry("failures").or_insert(serde_json::json!({}))["random"] = "disqualified (forged)".into();
    std::fs::write(evil.join("tournament.json"), record.to_string()).unwrap();
    std::fs::create_dir_all(evil.join("versions")).unwrap();
    std::fs::rename(evil.join("results.shard-2-of-2.jsonl"), evil.join("results.jsonl")).unwrap();
    let refusal = format!("{}: match {}: results.jsonl: another result than {}", s(&evil), key(&fake), s(&two));
    // Named.
    let out = d.join("named");
    let (code, stderr) = merge(&[&s(&out), "--league", &s(&league), &s(&evil), &s(&one), &s(&two)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains(&refusal), "{stderr}");
    assert!(!stderr.contains("not complete") && !stderr.contains("no --league"), "{stderr}");
    assert_eq!(merged_result(&out), Some(json(&real)["result"].clone()), "shard 2's own result");
    assert!(record_of(&out)["failures"].get("random").is_none(), "the league's record: {}", record_of(&out));
    // Unnamed, the league's folder not given: the look-alike's lines are outranked all the same,
    // but its record is taken (the control), and the merge says so.
    let out = d.join("unnamed");
    let (code, stderr) = merge(&[&s(&out), &s(&evil), &s(&one), &s(&two)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains(&refusal), "{stderr}");
    assert_eq!(merged_result(&out), Some(json(&real)["result"].clone()), "shard 2's own result");
    assert!(record_of(&out)["failures"]["random"].as_str().is_some(), "the control: the look-alike's record");
    let note = format!("note: no --league: the record of {} (it names no shard's slice) was taken", s(&evil));
    assert!(stderr.contains(&note) && stderr.contains("--league"), "{stderr}");
    // Unnamed, the look-alike given before the league's folder: which is the league's cannot be
    // told, refused, saying to name it.
    let (code, stderr) = merge(&[&s(&d.join("before")), &s(&evil), &s(&league), &s(&one), &s(&two)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("its record differs from") && stderr.contains("--league LEAGUE"), "{stderr}");
    // A shard's folder named the league's.
    let (code, stderr) = merge(&[&s(&d.join("shard-named")), "--league", &s(&two), &s(&one)]);
    assert_eq!(code, Some(1), "{stderr}");
    let why = format!(
        "{}: named the league's folder (--league), but its tournament.json names the slice of shard 2/2",
        s(&two)
    );
    assert!(stderr.contains(&why), "{stderr}");
    assert!(!d.join("shard-named").exists(), "nothing made");

    // (c) Shard 2 in the league's own folder, honest; the forged shard 2's folder from elsewhere.
    ok(&["tournament", "--resume", &s(&league), "--shard", "2/2"]);
    assert!(lines(&league, "results.shard-2-of-2.jsonl").iter().any(|l| key(l) == key(&fake)));
    let shared = format!("another result than {} in results.shard-2-of-2.jsonl", s(&league));
    let out = d.join("c-named");
    let (code, stderr) = merge(&[&s(&out), "--league", &s(&league), &s(&forged), &s(&one)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains(&format!("{}: match {}: results.shard-2-of-2.jsonl: {shared}", s(&forged), key(&fake))));
    assert!(stderr.contains("in the folder the shards shared"), "{stderr}");
    assert_eq!(merged_result(&out), Some(json(&real)["result"].clone()), "the league's folder's result");
    // As OUT, unnamed.
    let as_out = d.join("c-out");
    copy(&league, &as_out);
    let (code, stderr) = merge(&[&s(&as_out), &s(&as_out), &s(&forged), &s(&one)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert_eq!(merged_result(&as_out), Some(json(&real)["result"].clone()), "OUT's result");
    // The control: unnamed and not OUT, the league's shard file is outranked by the forged folder.
    let out = d.join("c-unnamed");
    let (code, stderr) = merge(&[&s(&out), &s(&league), &s(&forged), &s(&one)]);
    assert_eq!(code, Some(3), "{stderr}");
    assert_eq!(merged_result(&out), Some(json(&fake)["result"].clone()), "the control: the forged result lands");

    // (b) A lone folder claiming every match.
    let lone = d.join("lone");
    copy(&forged, &lone);
    let mut record = record_of(&lone);
    record["slice"] = serde_json::json!({"index": 1, "count": 1});
    std::fs::write(lone.join("tournament.json"), record.to_string()).unwrap();
    std::fs::rename(lone.join("results.shard-2-of-2.jsonl"), lone.join("results.shard-1-of-1.jsonl")).unwrap();
    let fresh = |name: &str| {
        let to = d.join(name);
        copy(&league, &to);
        std::fs::remove_file(to.join("results.shard-2-of-2.jsonl")).unwrap();
        to
    };
    // The league merged with shard 1 (shard 2 failed): its record says it is split in 2.
    let split = fresh("b-split");
    assert_eq!(merge(&[&s(&split), "--league", &s(&split), &s(&one)]).0, Some(2));
    assert_eq!(record_of(&split)["shards"], 2);
    let (code, stderr) = merge(&[&s(&split), "--league", &s(&split), &s(&lone)]);
    assert_eq!(code, Some(3), "{stderr}");
    let why = format!(
        "{}: the folder of shard 1/1 (as its record says), and the league is split into 2 shards (as {}'s last merge",
        s(&lone),
        s(&split)
    );
    assert!(stderr.contains(&why) && stderr.contains("no other folder merged is of its split"), "{stderr}");
    assert_eq!(merged_result(&split), None, "missing, not forged");
    // The control: a league naming no split takes the lone folder as a new split.
    let unsplit = fresh("b-unsplit");
    assert!(record_of(&unsplit).get("shards").is_none());
    let (code, stderr) = merge(&[&s(&unsplit), "--league", &s(&unsplit), &s(&lone)]);
    assert!(code == Some(0) || code == Some(2), "{stderr}");
    assert_eq!(merged_result(&unsplit), Some(json(&fake)["result"].clone()), "the control: the forged result lands");
}

/// Through `arena merge --league`: a shard's folder whose `tournament.json` is `{}` (or another
/// build's: its secret differs) is left out, named, and the other shard is merged: partial,
/// exit 3, where it stopped the whole merge (exit 1, nothing written). Merged again with the
/// folder mended, the league is whole (exit 0).
#[test]
fn a_merge_leaves_out_a_shard_s_folder_whose_record_is_bad() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, [one, two], _) = crashy_league(d);
    let record = two.join("tournament.json");
    let good = std::fs::read(&record).unwrap();
    let mut other: Value = serde_json::from_slice(&good).unwrap();
    other["config"]["secret"] = Value::String("another build's secret".to_string());
    for (name, bytes) in [("empty", b"{}".to_vec()), ("other", serde_json::to_vec(&other).unwrap())] {
        std::fs::write(&record, &bytes).unwrap();
        let out_dir = d.join(name);
        let out = arena(&["merge", &s(&out_dir), "--league", &s(&league), &s(&one), &s(&two)]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(3), "{name}: {stderr}");
        assert!(stderr.contains(&format!("{}: ", s(&two))) && stderr.contains("left out of the merge"), "{stderr}");
        let merged = std::fs::read_to_string(out_dir.join("results.jsonl")).unwrap();
        let ones = std::fs::read_to_string(one.join("results.shard-1-of-2.jsonl")).unwrap();
        assert_eq!(merged.lines().count(), ones.lines().count(), "{name}: shard 1's results are merged");
    }
    // The control: the folder mended, the league is whole.
    std::fs::write(&record, &good).unwrap();
    ok(&["merge", &s(&d.join("whole")), "--league", &s(&league), &s(&one), &s(&two)]);
}

/// A league of two bots on two maps built in `d`, and its two shards each played in a folder of
/// its own: the league's folder and the shards'.
fn two_shards(d: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let bots = [("greedy", bin("greedy")), ("random", bin("random"))];
    let cfg = config_file(&d.join("league.toml"), "seed = 11\ngames = 1\njobs = 1", &["duel.txt", "tight.txt"], &bots);
    let league = d.join("league");
    ok(&["build", &s(&cfg), "--out", &s(&league)]);
    let (one, two) = (d.join("s1"), d.join("s2"));
    for (k, out) in [(1, &one), (2, &two)] {
        ok(&["tournament", "--resume", &s(&league), "--shard", &format!("{k}/2"), "--out", &s(out)]);
    }
    (league, one, two)
}

/// Through `arena merge`: each refusal is printed once (it was logged as it was made, then
/// listed), five of a folder's, the rest counted (a folder of thousands of bad lines filled the
/// terminal), as are a folder's files no league's folder holds; and a shard's replay holding escape sequences, which serde's error quotes, is
/// refused in safe text, cut, no escape character reaching the terminal.
#[test]
fn a_merge_says_each_refusal_once_a_few_a_folder_in_safe_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    // Thirty lines of no match of the league in shard 1's folder.
    let file = one.join("results.shard-1-of-2.jsonl");
    let mut text = std::fs::read_to_string(&file).unwrap();
    let line = result_lines(&file)[0].clone();
    for i in 0..30 {
        let mut bad = line.clone();
        bad["key"] = Value::from(format!("nope-{i}"));
        bad["replay"] = Value::from(format!("replays/nope-{i}.json.gz"));
        text.push_str(&format!("{bad}\n"));
    }
    std::fs::write(&file, text).unwrap();
    // Forty files no league's folder holds.
    for i in 0..40 {
        std::fs::write(one.join(format!("junk-{i}.txt")), "").unwrap();
    }
    // A replay of shard 2's holding escape sequences.
    let key = result_lines(&two.join("results.shard-2-of-2.jsonl"))[0]["key"].as_str().unwrap().to_string();
    let evil = format!("\u{1b}]0;owned\u{7}\u{1b}[2J{}", "A".repeat(50_000));
    let replay = two.join("replays").join(format!("{key}.json.gz"));
    std::fs::write(&replay, serde_json::json!({"format": evil, "version": 1}).to_string()).unwrap();

    let out = d.join("out");
    let (one_arg, two_arg) = (format!("1/2={}", s(&one)), format!("2/2={}", s(&two)));
    let done = arena(&["merge", &s(&out), "--league", &s(&league), &one_arg, &two_arg]);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(3), "{stderr}");
    let first = format!("{}: match nope-0: ", s(&one));
    assert_eq!(stderr.matches(&first).count(), 1, "once: {stderr}");
    assert_eq!(stderr.matches(&format!("{}: match nope-", s(&one))).count(), 5, "five shown: {stderr}");
    let more = format!("{}: and 25 more refusals of this folder, not shown (the first 5 are)", s(&one));
    assert!(stderr.contains(&more), "{stderr}");
    let junk = format!("{}: 40 entries are no files of a league's folder, left out of the merge: ", s(&one));
    assert_eq!(stderr.matches("junk-").count(), 5, "five named: {stderr}");
    assert!(stderr.contains(&junk) && stderr.contains("; and 35 more"), "{stderr}");
    assert!(stderr.contains("31 results refused") || stderr.contains("error: 31 result"), "all counted: {stderr}");
    let said = format!("{}: match {key}: ", s(&two));
    let refusal = stderr.lines().find(|l| l.contains(&said)).unwrap_or_else(|| panic!("{stderr}"));
    assert!(refusal.contains("\\e]0;owned\\a\\e[2JAAA") && refusal.contains("more characters]"), "{refusal}");
    assert!(refusal.len() < 3000, "cut: {} characters", refusal.len());
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\u{7}'), "no escape reaches the terminal");
}

/// Through `arena merge`: a shard's folder whose lock a process holds, signed by one that is
/// not running on this machine (a merge's before, as every merge signs the folders it reads;
/// an older arena's signature, naming no machine), is said at once, naming
/// the folder, what holds it and the wait (it was waited for two minutes without a word); a
/// SIGTERM then stops the wait at once, and the merge, failing, still says what it refused
/// before (a folder left out for its bad record: it was said only with a merge's outcome).
#[test]
fn a_merge_says_at_once_that_it_waits_for_a_shard_s_lock() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    let lock = two.join(".lock");
    std::fs::write(&lock, "pid 999999999").unwrap();
    let held = std::fs::File::open(&lock).unwrap();
    // SAFETY: flock on a descriptor we own.
    assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) }, 0);
    let out = d.join("out");
    let (one_arg, two_arg) = (format!("1/2={}", s(&one)), format!("2/2={}", s(&two)));
    let junk = d.join("junk");
    std::fs::create_dir_all(&junk).unwrap();
    std::fs::write(junk.join("tournament.json"), "{ not a record").unwrap();
    let mut child = spawn(&["merge", &s(&out), "--league", &s(&league), &one_arg, &two_arg, &s(&junk)]);
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let start = Instant::now();
    let mut seen = Vec::new();
    let said = loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains("its lock") => break Some(line),
            Ok(line) => seen.push(line),
            Err(_) if start.elapsed() > Duration::from_secs(20) => break None,
            Err(_) => {}
        }
    };
    // SAFETY: kill of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().unwrap();
    let said = said.unwrap_or_else(|| panic!("nothing said of the held lock in 20 s: {seen:?}"));
    assert!(said.contains(&s(&two)) && said.contains(&s(&lock)), "{said}");
    let ended = "pid 999999999, which is not running on this machine";
    assert!(said.contains(ended) && said.contains("waiting up to 120 s"), "{said}");
    assert_eq!(status.code(), Some(143), "stopped while it waited");
    let rest: Vec<String> = rx.iter().collect();
    let refusal = format!("{}: ", s(&junk));
    assert!(rest.iter().any(|l| l.contains(&refusal) && l.contains("left out of the merge")), "{rest:?}");
    drop(held);
}

/// `cp -al FROM TO`: a copy of the folder whose files are the folder's under a second name.
fn copy_linked(from: &Path, to: &Path) {
    let done = Command::new("cp").arg("-al").arg(from).arg(to).status().unwrap();
    assert!(done.success(), "cp -al");
}

/// A teacher's `cp -al` snapshot of the league (docs/tournaments.md names it as a backup) leaves
/// the league as it was: it resumes, publishes and merges (`arena merge L --league L`), and the
/// snapshot merges whole too (each was refused: its lock and files had two names). In the
/// league's folder named by `--league` and in OUT a hard link is read as the league's own file:
/// with `fs.protected_hardlinks=1` one a shard's machine put there links only a file its user
/// could read already (docs/scale-out.md). A shard's folder of hard links is refused, each file
/// saying how to mend it (copy it so it has one name). The controls: the same shard's folder
/// copied (`cp -r`: one name each) merges whole; the snapshot merged gives the league's results.
#[test]
fn a_teacher_s_cp_al_snapshot_works_and_a_shard_s_hard_links_are_refused() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    // A shard's folder of hard links.
    let linked = d.join("s2-linked");
    copy_linked(&two, &linked);
    let (one_arg, linked_arg) = (format!("1/2={}", s(&one)), format!("2/2={}", s(&linked)));
    let done = arena(&["merge", &s(&d.join("out-linked")), "--league", &s(&league), &one_arg, &linked_arg]);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(&s(&linked)) && stderr.contains("a hard link (2 names of one file)"), "{stderr}");
    assert!(stderr.contains("copy the file so it has one name"), "{stderr}");
    // The control: copied, each file of one name.
    let copied = d.join("s2-copied");
    let done = Command::new("cp").arg("-r").arg(&two).arg(&copied).status().unwrap();
    assert!(done.success());
    ok(&["merge", &s(&d.join("out-copied")), "--league", &s(&league), &one_arg, &format!("2/2={}", s(&copied))]);
    // The teacher's snapshot: the league resumes, publishes and merges in place.
    ok(&["tournament", "--resume", &s(&league)]);
    let snap = d.join("league-snap");
    copy_linked(&league, &snap);
    assert_eq!(std::fs::metadata(snap.join(".lock")).unwrap().nlink(), 2);
    assert_eq!(std::fs::metadata(snap.join("results.jsonl")).unwrap().nlink(), 2);
    assert_eq!(std::fs::metadata(league.join("tournament.json")).unwrap().nlink(), 2);
    ok(&["tournament", "--resume", &s(&league)]);
    ok(&["publish", &s(&league), &s(&d.join("site"))]);
    let played = result_lines(&league.join("results.jsonl")).len();
    assert!(played > 0);
    ok(&["merge", &s(&league), "--league", &s(&league)]);
    assert_eq!(result_lines(&league.join("results.jsonl")).len(), played, "the league merged in place, whole");
    // The snapshot merged (its files of two names still, or again) into a new folder, whole.
    let out = d.join("out-snap");
    let done = arena(&["merge", &s(&out), "--league", &s(&snap)]);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "merged whole: {stderr}");
    assert!(!stderr.contains("a hard link"), "{stderr}");
    assert_eq!(result_lines(&out.join("results.jsonl")).len(), played);
    // A line refused in a league backed up with `cp -al` (its results file of two names) is
    // kept in `refused.jsonl`, and kept again when that file has two names too.
    let first = &result_lines(&league.join("results.jsonl"))[0];
    let replay = league.join(first["replay"].as_str().unwrap());
    std::fs::remove_file(&replay).unwrap();
    std::fs::write(&replay, "garbage").unwrap();
    std::fs::remove_dir_all(&snap).unwrap();
    copy_linked(&league, &snap);
    let done = arena(&["merge", &s(&league), "--league", &s(&league)]);
    assert!(!done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(result_lines(&league.join("results.jsonl")).len(), played - 1);
    let refused = league.join("refused.jsonl");
    assert_eq!(result_lines(&refused), std::slice::from_ref(first), "the refused line kept");
    std::fs::remove_dir_all(&snap).unwrap();
    copy_linked(&league, &snap);
    assert_eq!(std::fs::metadata(&refused).unwrap().nlink(), 2);
    let done = arena(&["merge", &s(&league), "--league", &s(&league)]);
    assert!(!done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(result_lines(&refused), std::slice::from_ref(first), "the refused line kept, once, again");
}

/// In the shared folder's flow a student's machine writing the league's folder made `bots/` a
/// link to a teacher's folder, and `arena merge L --league L` or `arena leaderboard L` deleted
/// the teacher's `*.html` there (stale pages) and wrote the bots' pages in it. A folder of the
/// league's that is a symbolic link of another user's is refused, named, with what to do, the
/// teacher's folder untouched; `replays/` so linked too. The control: the same link, made by the
/// user running the arena (a teacher's own), is followed, and the teacher's page is deleted
/// there as a stale one. Root only (a link is given to another user with lchown), said otherwise.
#[test]
fn a_league_s_folder_linked_by_another_user_is_neither_written_nor_cleaned() {
    if skipped_unless_root("only root can give a link to another user") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    let teacher = d.join("teacher");
    std::fs::create_dir(&teacher).unwrap();
    std::fs::write(teacher.join("grades.html"), "<p>grades</p>").unwrap();
    let listing = || names_in(&teacher);
    let link = |name: &str, uid: u32| link_as(&league.join(name), &teacher, uid);
    let (one_arg, two_arg) = (format!("1/2={}", s(&one)), format!("2/2={}", s(&two)));
    link("bots", 65534);
    for args in
        [vec!["merge", &*s(&league), "--league", &*s(&league), &one_arg, &two_arg], vec!["leaderboard", &*s(&league)]]
    {
        let args: Vec<String> = args.into_iter().map(str::to_string).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = arena(&args);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains(&s(&league.join("bots"))), "{args:?}: {stderr}");
        assert!(stderr.contains("a symbolic link made by another user (uid 65534)"), "{args:?}: {stderr}");
        assert!(stderr.contains("chown -h 0 "), "{args:?}: {stderr}");
        assert_eq!(listing(), ["grades.html"], "{args:?}: the teacher's folder untouched");
    }
    std::fs::remove_file(league.join("bots")).unwrap();
    std::fs::create_dir(league.join("bots")).unwrap();
    link("replays", 65534);
    let done = arena(&["merge", &s(&league), "--league", &s(&league), &one_arg, &two_arg]);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(!done.status.success() && stderr.contains(&s(&league.join("replays"))), "{stderr}");
    assert_eq!(listing(), ["grades.html"], "the teacher's folder untouched by the merge");
    // The control: the link made by the user running the arena is followed.
    std::fs::remove_file(league.join("replays")).unwrap();
    std::fs::create_dir(league.join("replays")).unwrap();
    link("bots", 0);
    ok(&["leaderboard", &s(&league)]);
    assert_eq!(listing(), ["greedy.html", "random.html"], "the control: the teacher's page deleted, pages written");
}

/// In the shared folder's flow a student's machine writing the league's folder made
/// `versions/` a link to a teacher's folder, and `arena merge L --league L` removed every
/// `<any>/<any>.tmp/` folder there (what it takes for copies cut short) before any check. The
/// league's every folder, `versions/` and `builds/` too, is checked first: the merge is refused,
/// naming it, and the teacher's folder is untouched. The control: the same link, made by the
/// user running the arena, is followed, and the folder there is removed as a copy cut short.
/// Root only (a link is given to another user with lchown), said otherwise.
#[test]
fn a_league_s_versions_linked_by_another_user_is_not_cleaned_through() {
    if skipped_unless_root("only root can give a link to another user") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (league, one, two) = two_shards(d);
    let teacher = d.join("teacher");
    let thesis = teacher.join("proj").join("thesis.tmp");
    let versions = league.join("versions");
    let link = |uid: u32| {
        std::fs::create_dir_all(&thesis).unwrap();
        std::fs::write(thesis.join("ch1.tex"), "x").unwrap();
        link_as(&versions, &teacher, uid);
    };
    let (one_arg, two_arg) = (format!("1/2={}", s(&one)), format!("2/2={}", s(&two)));
    link(65534);
    for args in [
        vec!["merge", &*s(&league), "--league", &*s(&league), &one_arg, &two_arg],
        vec!["merge", &*s(&league), "--league", &*s(&league)],
    ] {
        let done = arena(&args);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains(&s(&versions)), "{args:?}: {stderr}");
        assert!(stderr.contains("a symbolic link made by another user (uid 65534)"), "{args:?}: {stderr}");
        assert!(thesis.join("ch1.tex").is_file(), "{args:?}: the teacher's folder untouched");
    }
    // The control: the link made by the user running the arena is followed.
    link(0);
    ok(&["merge", &s(&league), "--league", &s(&league), &one_arg, &two_arg]);
    assert!(!thesis.exists(), "the control: removed through the arena's user's own link");
}
