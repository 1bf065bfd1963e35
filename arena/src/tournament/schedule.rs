//! Who plays whom: bot fingerprints, the match list, and each match's key and seed.
//!
//! A match's key names its bots' versions (fingerprints), the map's content, the game number,
//! the seat order, the seed and the limits. Results are kept by key, so a new version of a
//! bot, a changed map or new limits make new keys: exactly the matches to (re-)run.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::config::{BotEntry, TournamentConfig};
use crate::files::file_safe;

/// A bot with the fingerprint of its current version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotVersion {
    /// The configured bot.
    #[serde(flatten)]
    pub entry: BotEntry,
    /// Hash of the whole submission (see `submission::fingerprint`).
    pub fingerprint: String,
    /// Whether this version can play: from its kept copy, or from the bot's files while they
    /// hold it (a bot standing on an older good version without a copy cannot: its missing
    /// matches wait).
    #[serde(default = "yes")]
    pub runnable: bool,
    /// Whether it runs from the copy the league kept of this version (`entry` is the copy's):
    /// every version with a copy does, so that what the bot's own files become during a run (a
    /// push, a pull) never plays under this version's fingerprint. Without one (no copy could
    /// be made, or a record of an earlier arena), it runs from the bot's own files, each match
    /// only while they still fingerprint as this version.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kept: bool,
    /// The fingerprint of its files as its build left them, build outputs included (the
    /// program it runs): what a shard checks besides [`BotVersion::fingerprint`], which leaves
    /// them out so that a rebuild of the same sources is the same version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built: Option<String>,
}

fn yes() -> bool {
    true
}

/// One scheduled match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledMatch {
    /// Unique key: also the replay's file name.
    pub key: String,
    /// Bot names in seat order.
    pub seats: Vec<String>,
    /// The map file.
    pub map: PathBuf,
    /// Game number for this pairing and map (1-based).
    pub game: u32,
    /// The match seed.
    pub seed: u64,
    /// What the match is expected to cost to play, relative to the others (the game's
    /// estimate: for Resource Rush, cells x rounds). Shards are balanced by it.
    #[serde(default = "one")]
    pub cost: u64,
}

fn one() -> u64 {
    1
}

/// One of `count` slices of a schedule, numbered from 1 (`--shard 1/4` … `--shard 4/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1 to `count`.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Parses `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N (shards count from 1), such as 1/4, found `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard a batch scheduler gives this process: a Slurm array task
    /// (`SLURM_ARRAY_TASK_ID` counted from `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`)
    /// or a Kubernetes Indexed Job pod (`JOB_COMPLETION_INDEX`, from 0, of `ARENA_SHARD_COUNT`).
    /// `var` reads an environment variable.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let num = |name: &str| -> Result<Option<usize>, String> {
            match var(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| format!("{name}={v} is not a number")),
            }
        };
        let shard = |index: usize, count: usize, from: &str| {
            if count == 0 || index >= count {
                Err(format!("{from} gives shard {} of {count}", index + 1))
            } else {
                Ok(Shard { index: index + 1, count })
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = num("SLURM_ARRAY_TASK_COUNT")?.ok_or("SLURM_ARRAY_TASK_COUNT is not set")?;
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let max = num("SLURM_ARRAY_TASK_MAX")?;
            let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
            // A task submitted again alone (`--array=2`) is an array of one: taken as shard 1/1
            // it would play the whole league's missing matches, not its own slice. So is a part
            // of the array submitted again (`--array=2-3`: shards 1/2 and 2/2 of another split),
            // or an array with gaps (`--array=1,3` or `1-7:2`: task 3 would be shard 2): only a
            // whole array, from 0 or 1 without gaps, says which shard of how many a task is.
            let gaps = match max {
                Some(max) => max.checked_sub(min).map(|span| span + 1) != Some(count),
                None => count > 1 && step != 1,
            };
            if min >= 2 || gaps {
                let array = if count == 1 {
                    "runs alone (an array of one task, as when one shard is submitted again)".to_string()
                } else {
                    format!(
                        "is in an array of {count} tasks from {min} to {} (not a whole array from 0 or 1 without \
                         gaps, as when some shards are submitted again)",
                        max.map_or("?".to_string(), |m| m.to_string())
                    )
                };
                return Err(format!(
                    "--shard auto: Slurm array task {id} {array}: give its shard as --shard {id}/N, N being the \
                     league's shard count (submit tasks again with --shard K/N, never auto)"
                ));
            }
            let index = id.checked_sub(min).ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?;
            return shard(index, count, "the Slurm array");
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let count = num("ARENA_SHARD_COUNT")?
                .ok_or("JOB_COMPLETION_INDEX is set but ARENA_SHARD_COUNT is not: set it to the Job's completions")?;
            return shard(index, count, "the Indexed Job");
        }
        Err("--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set: give --shard K/N".to_string())
    }

    /// Why a league of `matches` scheduled matches has no such shard, if it has not: it is split
    /// into at most as many slices as it has matches (one, for a league without any), so that no
    /// slice is empty and no count names more slices than anything can hold.
    pub fn beyond(&self, matches: usize) -> Option<String> {
        (self.count > matches.max(1)).then(|| {
            let most = matches.max(1);
            let matches = crate::safe_text::count(matches, "match", "matches");
            format!(
                "a split into {} shards, more than the league's {matches}: it splits into at most {most} \
                 (--shard K/N with N <= {most})",
                self.count
            )
        })
    }

    /// The name of this shard's results file.
    pub fn results_file(&self) -> String {
        format!("results.shard-{}-of-{}.jsonl", self.index, self.count)
    }

    /// The shard whose results file is named `name` ([`Shard::results_file`]), if it is one.
    pub fn of_results_file(name: &str) -> Option<Shard> {
        let (k, n) = name.strip_prefix("results.shard-")?.strip_suffix(".jsonl")?.split_once("-of-")?;
        Shard::parse(&format!("{k}/{n}")).ok()
    }
}

/// Splits `schedule` into `count` slices of about equal expected cost: the matches, costliest
/// first (then by key), each go to the slice with the least cost so far (then the lowest
/// number). A pure function of the matches' keys and costs, so every shard computes the same
/// split without talking to the others. Returns each match's slice (1-based), by key.
pub fn slices(schedule: &[ScheduledMatch], count: usize) -> BTreeMap<String, usize> {
    let mut order: Vec<&ScheduledMatch> = schedule.iter().collect();
    order.sort_by(|a, b| b.cost.cmp(&a.cost).then_with(|| a.key.cmp(&b.key)));
    // (Never more slots than matches: each match takes an empty slot while there is one, the
    // lowest first, so slots past the matches' count would stay empty; a count from a file's
    // name or the environment may be any number.)
    let mut load = vec![0u128; count.clamp(1, schedule.len().max(1))];
    let mut out = BTreeMap::new();
    for m in order {
        let (slot, _) = load.iter().enumerate().min_by_key(|&(i, l)| (*l, i)).unwrap_or((0, &0));
        load[slot] += u128::from(m.cost.max(1));
        out.insert(m.key.clone(), slot + 1);
    }
    out
}

fn hex(hash: &blake3::Hash, len: usize) -> String {
    hash.to_hex()[..len].to_string()
}

/// Hash of a map's content: what identifies it, wherever the file lives.
pub fn digest(bytes: &[u8]) -> String {
    hex(&blake3::hash(bytes), 16)
}

/// A match's seed: from the tournament's seed, the map's content (not its path: the same
/// config gives the same games in any folder), the game number and the seats.
fn seed_of(base: u64, digest: &str, game: u32, seats: &[&str]) -> u64 {
    let text = format!("{base}|{digest}|{game}|{}", seats.join("|"));
    let hash = blake3::hash(text.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&hash.as_bytes()[..8]);
    u64::from_le_bytes(bytes)
}

/// Every group of `k` indices out of `0..n`, in lexicographic order.
fn groups(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k == 0 || k > n {
        return out;
    }
    loop {
        out.push(pick.clone());
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else { return out };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// Every match of a round robin: each group of `seats` bots (in config order; for two seats,
/// each pair), on each board, `games` times, once per rotation of the seats (for two seats:
/// from both sides). `digests` identify the boards' contents and `costs` estimate a match on
/// each, in board order.
pub fn round_robin(
    config: &TournamentConfig,
    bots: &[BotVersion],
    digests: &[String],
    costs: &[u64],
) -> Vec<ScheduledMatch> {
    let limits = serde_json::to_string(&config.limits.limits()).unwrap_or_default();
    let mut out = Vec::new();
    for (mi, map) in config.boards().iter().enumerate() {
        let stem: String =
            file_safe(&map.file_stem().map_or("map".into(), |s| s.to_string_lossy())).chars().take(40).collect();
        for game in 1..=config.games {
            for group in groups(bots.len(), config.seats()) {
                for turn in 0..group.len() {
                    let order: Vec<&BotVersion> =
                        (0..group.len()).map(|s| &bots[group[(s + turn) % group.len()]]).collect();
                    let seats: Vec<&str> = order.iter().map(|b| b.entry.name.as_str()).collect();
                    let seed = seed_of(config.seed, &digests[mi], game, &seats);
                    let who: Vec<String> =
                        order.iter().map(|b| format!("{}|{}", b.entry.name, b.fingerprint)).collect();
                    let identity =
                        format!("{}|{}|{}|{}|{seed}|{limits}", config.game, digests[mi], game, who.join("|"));
                    // Names cut short, so that a long name cannot make a file name too long.
                    let names: Vec<String> = seats.iter().map(|s| file_safe(s).chars().take(40).collect()).collect();
                    let key = format!(
                        "{stem}-g{game}-{}-{}",
                        names.join("-vs-"),
                        hex(&blake3::hash(identity.as_bytes()), 10)
                    );
                    out.push(ScheduledMatch {
                        key,
                        seats: seats.iter().map(|s| s.to_string()).collect(),
                        map: map.clone(),
                        game,
                        seed,
                        cost: costs.get(mi).copied().unwrap_or(1),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(key: &str, cost: u64) -> ScheduledMatch {
        ScheduledMatch { key: key.into(), seats: vec![], map: "m".into(), game: 1, seed: 0, cost }
    }

    #[test]
    fn shards_parse_from_one_and_from_schedulers() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        let two = Shard { index: 2, count: 4 };
        assert_eq!(Shard::of_results_file(&two.results_file()), Some(two));
        for other in
            ["results.jsonl", "results.shard-5-of-4.jsonl", "results.shard-2-of-4.json", "x.shard-2-of-4.jsonl"]
        {
            assert_eq!(Shard::of_results_file(other), None, "{other}");
        }
        for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().contains("count from 1"), "{bad}");
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        const SLURM: [(&str, &str); 3] =
            [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "0")];
        assert_eq!(Shard::from_env(env(&SLURM)), Ok(Shard { index: 4, count: 4 }));
        const SLURM1: [(&str, &str); 3] =
            [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "1")];
        assert_eq!(Shard::from_env(env(&SLURM1)), Ok(Shard { index: 1, count: 4 }));
        // Task 2 submitted again alone: not shard 1/1 (control: a one-task array of task 1 is).
        const RERUN: [(&str, &str); 3] =
            [("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_COUNT", "1"), ("SLURM_ARRAY_TASK_MIN", "2")];
        assert!(Shard::from_env(env(&RERUN)).unwrap_err().contains("--shard 2/N"));
        const ALONE: [(&str, &str); 3] =
            [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "1"), ("SLURM_ARRAY_TASK_MIN", "1")];
        assert_eq!(Shard::from_env(env(&ALONE)), Ok(Shard { index: 1, count: 1 }));
        // Tasks 2 and 3 of 4 submitted again together (`--array=2-3`), or 1 and 3 (`--array=1,3`),
        // or an array with a step (`1-7:2`): not shards of a split in 2 or 4 with other numbers.
        // (Control: the whole array 1-4, its bounds and step given, places task 3 as 3/4.)
        const PART: [(&str, &str); 4] = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_ARRAY_TASK_MIN", "2"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ];
        assert!(Shard::from_env(env(&PART)).unwrap_err().contains("--shard 3/N"));
        const GAPS: [(&str, &str); 4] = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ];
        assert!(Shard::from_env(env(&GAPS)).unwrap_err().contains("from 1 to 3"));
        const STEP: [(&str, &str); 5] = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert!(Shard::from_env(env(&STEP)).is_err());
        const WHOLE: [(&str, &str); 5] = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
        ];
        assert_eq!(Shard::from_env(env(&WHOLE)), Ok(Shard { index: 3, count: 4 }));
        const K8S: [(&str, &str); 2] = [("JOB_COMPLETION_INDEX", "0"), ("ARENA_SHARD_COUNT", "3")];
        assert_eq!(Shard::from_env(env(&K8S)), Ok(Shard { index: 1, count: 3 }));
        assert!(Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0")])).unwrap_err().contains("ARENA_SHARD_COUNT"));
        assert!(Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "3"), ("ARENA_SHARD_COUNT", "3")])).is_err());
        assert!(Shard::from_env(env(&[])).unwrap_err().contains("--shard K/N"));
    }

    #[test]
    fn slices_cover_everything_once_balance_cost_and_ignore_order() {
        // Two board sizes: a few expensive matches and many cheap ones.
        let mut schedule: Vec<ScheduledMatch> = (0..12).map(|i| m(&format!("big{i:02}"), 50_400)).collect();
        schedule.extend((0..60).map(|i| m(&format!("small{i:02}"), 240)));
        let split = slices(&schedule, 4);
        assert_eq!(split.len(), schedule.len());
        let mut load = [0u64; 4];
        for s in &schedule {
            load[split[&s.key] - 1] += s.cost;
        }
        let mean = load.iter().sum::<u64>() as f64 / 4.0;
        assert!(load.iter().all(|&l| (l as f64) <= 1.05 * mean), "{load:?}");
        // By count alone (every fourth match) the big ones could pile up on one shard; by
        // cost they spread three per shard.
        let bigs: Vec<usize> =
            (1..=4).map(|k| schedule.iter().filter(|s| s.cost > 240 && split[&s.key] == k).count()).collect();
        assert_eq!(bigs, [3, 3, 3, 3]);
        let mut shuffled = schedule.clone();
        shuffled.reverse();
        assert_eq!(slices(&shuffled, 4), split, "the same matches in any order give the same split");
    }

    /// A split into more slices than matches (up to `usize::MAX`, from a results file's name or
    /// the environment) allocates nothing by its count, and is the split the slices' count
    /// would give: each match alone in a slice of its own, the first ones; a shard past them
    /// is beyond the league. The control: the split into as many slices as matches.
    #[test]
    fn a_split_into_more_slices_than_matches_is_computed_without_a_slot_each() {
        let schedule: Vec<ScheduledMatch> = (0..5).map(|i| m(&format!("k{i}"), 10 + i)).collect();
        let exact = slices(&schedule, 5);
        for count in [6, 1_000, 100_000_000_000, usize::MAX] {
            assert_eq!(slices(&schedule, count), exact, "{count}");
            assert!(Shard { index: 1, count }.beyond(5).unwrap().contains("more than the league's 5 matches"));
        }
        assert_eq!(Shard { index: 5, count: 5 }.beyond(5), None);
        assert_eq!(Shard { index: 1, count: 1 }.beyond(0), None, "a league without matches has one shard");
        let parsed = Shard::parse("1/18446744073709551615").unwrap();
        assert_eq!(parsed.count, usize::MAX);
        assert!(slices(&[], usize::MAX).is_empty());
    }

    #[test]
    fn groups_are_all_combinations() {
        assert_eq!(groups(4, 2).len(), 6);
        assert_eq!(
            groups(5, 4),
            vec![vec![0, 1, 2, 3], vec![0, 1, 2, 4], vec![0, 1, 3, 4], vec![0, 2, 3, 4], vec![1, 2, 3, 4]]
        );
        assert_eq!(groups(3, 3), vec![vec![0, 1, 2]]);
        assert!(groups(2, 3).is_empty());
    }

    /// The count the config's check refuses a league by is the schedule's own.
    #[test]
    fn the_config_counts_the_matches_a_round_robin_schedules() {
        for (n, k) in [(2, 2), (5, 2), (7, 3), (9, 4), (6, 6), (12, 5), (3, 4)] {
            let counted = crate::tournament::config::scheduled_matches(n, k, 3, 2);
            assert_eq!(counted, Some((groups(n, k).len() * k * 3 * 2) as u128), "{n} bots, {k} seats");
        }
    }
}
