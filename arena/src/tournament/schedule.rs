//! Who plays whom: bot fingerprints, the match list, and each match's key and seed.
//!
//! A match's key names its bots' versions (fingerprints), the map's content, the game number,
//! the seat order, the seed and the limits. Results are kept by key, so a new version of a
//! bot, a changed map or new limits make new keys: exactly the matches to (re-)run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::config::{BotEntry, TournamentConfig};
use super::TournamentError;
use crate::replay::file_safe;

/// A bot with the fingerprint of its current version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotVersion {
    /// The configured bot.
    #[serde(flatten)]
    pub entry: BotEntry,
    /// Hash of the command line and of every file it names (the executable, a script).
    pub fingerprint: String,
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
}

fn hex(hash: &blake3::Hash, len: usize) -> String {
    hash.to_hex()[..len].to_string()
}

/// The largest file a fingerprint reads; a bot naming a bigger one cannot play.
pub const MAX_FINGERPRINTED_BYTES: u64 = 512 << 20;

/// Fingerprints `bot`: its command line, working directory, and the content of every word of
/// the command that names an existing file (relative to its working directory). `cache`
/// keeps file hashes, so bots sharing an executable hash it once. Files are hashed as they
/// are read, up to [`MAX_FINGERPRINTED_BYTES`]; one that is not a regular file or cannot be
/// read makes this bot unable to play, not the tournament.
pub fn fingerprint(bot: &BotEntry, cache: &mut BTreeMap<PathBuf, blake3::Hash>) -> Result<String, TournamentError> {
    let mut hasher = blake3::Hasher::new();
    hasher.update(bot.command.as_bytes());
    let words = shell_words::split(&bot.command)
        .map_err(|e| TournamentError::Invalid(format!("bot `{}`: bad command `{}`: {e}", bot.name, bot.command)))?;
    let base = bot.cwd.clone().unwrap_or_default();
    for word in words {
        let path = base.join(&word);
        if path.is_file() {
            let digest = match cache.get(&path) {
                Some(d) => *d,
                None => {
                    let d = hash_file(&path)?;
                    cache.insert(path.clone(), d);
                    d
                }
            };
            hasher.update(word.as_bytes());
            hasher.update(digest.as_bytes());
        }
    }
    Ok(hex(&hasher.finalize(), 16))
}

/// Hashes a regular file as it is read, refusing one over [`MAX_FINGERPRINTED_BYTES`].
fn hash_file(path: &Path) -> Result<blake3::Hash, TournamentError> {
    use std::io::Read;
    let bad = |what: String| TournamentError::Invalid(format!("{}: {what}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| TournamentError::io(path, e))?;
    let meta = file.metadata().map_err(|e| TournamentError::io(path, e))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".to_string()));
    }
    let mut hasher = blake3::Hasher::new();
    let mut limited = file.take(MAX_FINGERPRINTED_BYTES + 1);
    let n = std::io::copy(&mut limited, &mut hasher).map_err(|e| TournamentError::io(path, e))?;
    if n > MAX_FINGERPRINTED_BYTES {
        return Err(bad(format!("larger than {} MiB", MAX_FINGERPRINTED_BYTES >> 20)));
    }
    Ok(hasher.finalize())
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
/// from both sides). `digests` identify the boards' contents, in board order.
pub fn round_robin(config: &TournamentConfig, bots: &[BotVersion], digests: &[String]) -> Vec<ScheduledMatch> {
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
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::groups;

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
}
