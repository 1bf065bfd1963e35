//! Leaderboards from match results: totals, wins/draws/losses, forfeits by reason, and a
//! Glicko-2 rating, ranked in a documented order with standard competition ranking.
//!
//! Order: total score (the course league's order), then wins, then fewer losses, then rating;
//! a game that ranks by wins (Tactics) puts wins before total score. Rows equal on all of these
//! share a rank (1, 2, 2, 4) and are listed by name. A forfeit counts as a loss by default
//! (`forfeits = "score"`: by the scores, as the game decides). The rating is Glicko-2 with
//! every game in one rating period, each bot starting at 1500 / 350 / 0.06: the same results
//! give the same ratings in any order. A match counts as one rating game between every two
//! seats, won by the higher score (or by the one that did not forfeit), so a multi-player
//! finishing order rates everyone against everyone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use comfy_table::{presets::UTF8_FULL_CONDENSED, ColumnConstraint, ContentArrangement, Table, Width};
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::maps::MapNames;
use super::{ForfeitRule, ResultLine};
use crate::safe_text;

/// One bot's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// 1-based rank; rows equal on every ranking criterion share one (1, 2, 2, 4).
    pub rank: usize,
    /// The bot.
    pub bot: String,
    /// The version its standing comes from (`v<N>`, and its git commit when there is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// When the league first saw that version (UTC, RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_at: Option<String>,
    /// Sum of its scores over all its games.
    pub total_score: i64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Average score per game, unrounded (every text shows it by [`average_text`]); `null` for
    /// a bot that played no game (it has no average, as it has no rating: not one of 0).
    pub average_score: Option<f64>,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<String, u32>,
    /// Glicko-2 rating (to a tenth). A bot that played no game keeps the starting 1500 / 350
    /// here (numbers, for a program): it has no rating, and every text shows `-` ([`Row::rating_text`]).
    pub rating: f64,
    /// Glicko-2 rating deviation (to a tenth).
    pub deviation: f64,
    /// Why the bot could not play at all (build failed, program missing), if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Why its matches could not start in the run that wrote this leaderboard (its program
    /// failed to start: the first such error), if some could not; its opponents in them are
    /// not at fault and have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unstarted: Option<String>,
    /// What else a reader should know: its newest version failed ("build failed at `<time>`,
    /// standing from `<version>`"), some of its matches wait for a good build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The log of its last build, relative to the tournament folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_log: Option<String>,
    /// Its matches, in key order.
    pub matches: Vec<MatchRef>,
    /// Every version of it the league has seen (by then, for `--as-of`), oldest first, for its
    /// page; left out of `leaderboard.json`, which stays small (the record has them all).
    #[serde(skip)]
    pub versions: Vec<VersionSeen>,
}

/// One version of a bot as its page lists it: one per distinct fingerprint (and verdict).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionSeen {
    /// Its label (`v2 3f2a1bc`; `failed …` for one that did not build or start).
    pub label: String,
    /// When the league first saw it (UTC, RFC 3339).
    pub first_seen: String,
    /// Whether it built and could be started.
    pub ok: bool,
    /// The matches the results record it playing in (whichever maps and opponents).
    pub matches: usize,
    /// Whether the bot stands on it.
    pub current: bool,
}

impl VersionSeen {
    /// Its label as every text shows a version ([`version_text`]).
    pub fn text(&self, when: bool) -> String {
        version_text(Some(&self.label), Some(&self.first_seen), when)
    }
}

/// A version as every text shows it: the label (`v2 3f2a1bc`), `-` when there is none; with
/// `when`, followed by when the league first saw it (`v2 3f2a1bc (2026-11-30T16:40:00Z)`).
pub fn version_text(label: Option<&str>, at: Option<&str>, when: bool) -> String {
    match (label, at) {
        (Some(v), Some(at)) if when => format!("{v} ({at})"),
        (Some(v), _) => v.to_string(),
        (None, _) => "-".to_string(),
    }
}

impl Row {
    /// Whether the bot has a rating: it played, and is not a bot that could not play.
    pub fn rated(&self) -> bool {
        self.failure.is_none() && self.games > 0
    }

    /// Its rating as every output shows it: `1751 ± 138`, or `-` when it has none.
    pub fn rating_text(&self) -> String {
        if !self.rated() {
            return "-".to_string();
        }
        format!("{} ± {}", whole(self.rating), whole(self.deviation))
    }

    /// Its version as every text shows it: the label (`v2 3f2a1bc`), `-` when it has none; with
    /// `when`, followed by when the league first saw it (`v2 3f2a1bc (2026-11-30T16:40:00Z)`).
    pub fn version_text(&self, when: bool) -> String {
        version_text(self.version.as_deref(), self.version_at.as_deref(), when)
    }

    /// Its rating's 95 % interval, `1480 to 2022` (± 1.96 deviations), when it has a rating.
    pub fn interval_text(&self) -> Option<String> {
        let spread = 1.96 * self.deviation;
        self.rated().then(|| format!("{} to {}", whole(self.rating - spread), whole(self.rating + spread)))
    }
}

/// A rating rounded to a whole number, half away from zero (the rule of [`average_tenths`]).
fn whole(x: f64) -> String {
    format!("{}", x.round())
}

/// The average of `total` over `games`, in tenths, rounded once: half away from zero, on the
/// exact ratio (integers, not a binary fraction). Every output shows an average by this rule,
/// the pages included (they are given the tenths and only print them): 28020 / 16 = 1751.25
/// is 1751.3 everywhere, as a reader rounds it by hand (Rust's `{:.1}` said 1751.2, a page's
/// `toFixed(1)` 1751.3). None for no game: no average, not one of 0.
pub fn average_tenths(total: i64, games: u64) -> Option<i64> {
    if games == 0 {
        return None;
    }
    let (n, d) = (i128::from(total) * 10, i128::from(games));
    let q = (2 * n.abs() + d) / (2 * d);
    let q = if n < 0 { -q } else { q };
    Some(i64::try_from(q).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX }))
}

/// Tenths as text, one decimal: 17513 is `1751.3`, -5 is `-0.5`.
pub fn tenths_text(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// The average of `total` over `games` as every output shows it ([`average_tenths`]): `-` for
/// no game, as a bot that never played shows no rating ([`Row::rating_text`]).
pub fn average_text(total: i64, games: u64) -> String {
    average_tenths(total, games).map_or_else(|| "-".to_string(), tenths_text)
}

/// One match as listed under a bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRef {
    /// The match key.
    pub key: String,
    /// The opponent(s).
    pub opponents: Vec<String>,
    /// The seat this bot had (1-based).
    pub seat: usize,
    /// The map, by its name ([`MapNames`]), never its path.
    pub map: String,
    /// This bot's score.
    pub score: i64,
    /// The opponents' scores, in the order of `opponents`.
    #[serde(default)]
    pub opponent_scores: Vec<i64>,
    /// `win`, `draw` or `loss` (forfeits counted by the league's rule).
    pub outcome: String,
    /// Why this bot forfeited, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
    /// Why each opponent forfeited, if one did, in the order of `opponents`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponent_forfeits: Vec<Option<String>>,
    /// The step at which this bot's game ended (it finished, forfeited, or the rounds ran out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<usize>,
    /// The replay, relative to the tournament folder.
    pub replay: String,
    /// The bots' stderr for this match, relative to the tournament folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
}

/// The most matches `leaderboard.md` lists for one bot (a 300-bot league's would make a file
/// of tens of megabytes that no Markdown viewer opens).
pub const MARKDOWN_MATCHES: usize = 100;

/// What a run was: shown on every page and in `leaderboard.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFacts {
    /// The game.
    pub game: String,
    /// The maps (or boards), each by its name with its content digest.
    pub maps: Vec<ShownMap>,
    /// Games per pairing and map.
    pub games: u32,
    /// The tournament seed.
    pub seed: u64,
    /// The time and resource limits, in words.
    pub limits: String,
    /// When the league last changed, by its record: its newest result or bot version (UTC,
    /// RFC 3339). Not when the leaderboard was made: the same league gives the same pages.
    pub date: String,
    /// The arena's version.
    pub arena_version: String,
}

/// A map of the pool, as the league's record keeps it (private: it holds the map's path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapFact {
    /// Its path, as the config gave it (often absolute): to read it again, never to show.
    pub path: String,
    /// Its content's digest (what match keys and seeds use).
    pub digest: String,
}

/// A map of the pool as a leaderboard shows it: by its name, not its path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownMap {
    /// Its name ([`MapNames`]). (A `leaderboard.json` from before names had `path` here, the
    /// map's path: it still reads.)
    #[serde(alias = "path")]
    pub name: String,
    /// Its content's digest (what match keys and seeds use).
    pub digest: String,
}

/// A whole leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// Matches counted.
    pub matches: usize,
    /// Matches scheduled.
    pub scheduled: usize,
    /// Every scheduled match is counted.
    #[serde(default)]
    pub complete: bool,
    /// How rows are ranked, in words (from the game's own ranking and the forfeit rule).
    #[serde(default)]
    pub rule: String,
    /// Whether rows rank by wins before total score (the game's own ranking, as [`Input::wins_first`]):
    /// what the pages rank each map's standings by too.
    #[serde(default)]
    pub wins_first: bool,
    /// What the run was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<RunFacts>,
    /// Rows in rank order.
    pub rows: Vec<Row>,
}

#[derive(Default)]
struct Tally {
    total: i64,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    forfeits: BTreeMap<String, u32>,
    outcomes: Vec<(String, Outcomes)>,
    matches: Vec<MatchRef>,
}

/// What a leaderboard is computed from.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The bots, in config order.
    pub bots: &'a [String],
    /// Bots that could not play, with the reason.
    pub failures: &'a BTreeMap<String, String>,
    /// The results to count (in any order: they are taken in key order).
    pub results: &'a [ResultLine],
    /// Matches scheduled.
    pub scheduled: usize,
    /// Rank by wins before total score (games won on matches, such as Tactics).
    pub wins_first: bool,
    /// How forfeits count.
    pub forfeits: ForfeitRule,
    /// The names the maps are shown by (each result's `map` is a path of the pool).
    pub maps: &'a MapNames,
}

/// The ranking rule in words.
pub fn rule_text(wins_first: bool, forfeits: ForfeitRule) -> String {
    let order = if wins_first {
        "Ranked by wins, then total score, then fewer losses, then rating"
    } else {
        "Ranked by total score, then wins, then fewer losses, then rating"
    };
    let forfeit = match forfeits {
        ForfeitRule::Loss => "A forfeit counts as a loss, whatever the scores (unless every bot forfeited).",
        ForfeitRule::Score => "A forfeit counts by the scores (0 for the bot that forfeited; 0-0 is a draw).",
    };
    format!(
        "{order}; rows equal on all of these share a rank (1, 2, 2, 4). {forfeit} Rating: Glicko-2, all games in one rating period from 1500 / 350."
    )
}

/// Each seat's outcome of `line` under `rule`: 1 win, 0 draw, -1 loss.
fn outcomes(line: &ResultLine, rule: ForfeitRule) -> Vec<i8> {
    let players = &line.result.players;
    let by_score = |seat: usize| match line.result.winner {
        None => 0,
        Some(w) if w == seat => 1,
        Some(_) => -1,
    };
    let forfeited: Vec<bool> = players.iter().map(|p| p.forfeit.is_some()).collect();
    let all = forfeited.iter().all(|f| *f);
    let any = forfeited.iter().any(|f| *f);
    (0..players.len())
        .map(|seat| {
            if rule == ForfeitRule::Score || !any || all {
                return by_score(seat);
            }
            if forfeited[seat] {
                return -1;
            }
            match line.result.winner {
                Some(w) if w == seat => 1,
                // (A winner of no seat, which the results' readers skip, is none of the others.)
                Some(w) if forfeited.get(w) == Some(&false) => -1,
                _ if forfeited.iter().filter(|f| !**f).count() == 1 => 1,
                _ => 0,
            }
        })
        .collect()
}

/// Computes the leaderboard of `input`.
pub fn compute(input: &Input) -> Leaderboard {
    let mut sorted: Vec<&ResultLine> = input.results.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let mut tally: BTreeMap<&str, Tally> = input.bots.iter().map(|b| (b.as_str(), Tally::default())).collect();
    for line in &sorted {
        // (A result not its seats' (a winner of no seat) is no result: the results' readers skip
        // such a line with a warning naming it; one given here all the same counts for nobody.)
        if line.seats_problem().is_some() {
            continue;
        }
        let outcome = outcomes(line, input.forfeits);
        for (seat, name) in line.seats.iter().enumerate() {
            let Some(t) = tally.get_mut(name.as_str()) else {
                continue;
            };
            let Some(me) = line.result.players.get(seat) else {
                continue;
            };
            t.total = t.total.saturating_add(me.score);
            t.games += 1;
            if let Some(reason) = &me.forfeit {
                *t.forfeits.entry(reason.clone()).or_default() += 1;
            }
            let word = match outcome.get(seat).copied().unwrap_or(0) {
                1 => {
                    t.wins += 1;
                    "win"
                }
                0 => {
                    t.draws += 1;
                    "draw"
                }
                _ => {
                    t.losses += 1;
                    "loss"
                }
            };
            // Every other seat is one rating game, won by the higher score (or, under the loss
            // rule, by the one that did not forfeit): the duel's result for two players, the
            // finishing order for more.
            for (other_seat, other) in line.seats.iter().enumerate() {
                let Some(them) = line.result.players.get(other_seat) else { continue };
                if other_seat == seat {
                    continue;
                }
                let by_forfeit = input.forfeits == ForfeitRule::Loss && me.forfeit.is_some() != them.forfeit.is_some();
                let o = if by_forfeit {
                    if me.forfeit.is_none() {
                        Outcomes::WIN
                    } else {
                        Outcomes::LOSS
                    }
                } else {
                    match me.score.cmp(&them.score) {
                        std::cmp::Ordering::Greater => Outcomes::WIN,
                        std::cmp::Ordering::Less => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    }
                };
                t.outcomes.push((other.clone(), o));
            }
            let others: Vec<usize> = (0..line.seats.len()).filter(|s| *s != seat).collect();
            let opponent_forfeits: Vec<Option<String>> =
                others.iter().map(|s| line.result.players.get(*s).and_then(|p| p.forfeit.clone())).collect();
            t.matches.push(MatchRef {
                key: line.key.clone(),
                opponents: others.iter().map(|s| line.seats[*s].clone()).collect(),
                seat: seat + 1,
                map: input.maps.name(&line.map),
                score: me.score,
                opponent_scores: others.iter().map(|s| line.result.players.get(*s).map_or(0, |p| p.score)).collect(),
                outcome: word.to_string(),
                forfeit: me.forfeit.clone(),
                opponent_forfeits: if opponent_forfeits.iter().any(Option::is_some) {
                    opponent_forfeits
                } else {
                    Vec::new()
                },
                ended_at: line.ended_at.get(seat).copied(),
                replay: line.replay.clone(),
                log: None,
            });
        }
    }
    let config = Glicko2Config::new();
    let start = Glicko2Rating::new();
    let mut rows: Vec<Row> = tally
        .into_iter()
        .map(|(name, t)| {
            let period: Vec<(Glicko2Rating, Outcomes)> = t.outcomes.iter().map(|(_, o)| (start, *o)).collect();
            let rating = glicko2_rating_period(&start, &period, &config);
            Row {
                rank: 0,
                bot: name.to_string(),
                version: None,
                version_at: None,
                total_score: t.total,
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                average_score: (t.games > 0).then(|| t.total as f64 / f64::from(t.games)),
                forfeits: t.forfeits,
                rating: (rating.rating * 10.0).round() / 10.0,
                deviation: (rating.deviation * 10.0).round() / 10.0,
                failure: input.failures.get(name).cloned(),
                unstarted: None,
                note: None,
                build_log: None,
                matches: t.matches,
                versions: Vec::new(),
            }
        })
        .collect();
    let wins_first = input.wins_first;
    let key = |r: &Row| {
        let (first, second) = if wins_first { (r.wins as i64, r.total_score) } else { (r.total_score, r.wins as i64) };
        (r.failure.is_some(), std::cmp::Reverse(first), std::cmp::Reverse(second), r.losses)
    };
    let order = |a: &Row, b: &Row| key(a).cmp(&key(b)).then(b.rating.total_cmp(&a.rating));
    rows.sort_by(|a, b| order(a, b).then(a.bot.cmp(&b.bot)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && order(&rows[i - 1], &rows[i]).is_eq() { rows[i - 1].rank } else { i + 1 };
    }
    Leaderboard {
        matches: sorted.len(),
        scheduled: input.scheduled,
        complete: sorted.len() >= input.scheduled,
        rule: rule_text(input.wins_first, input.forfeits),
        wins_first: input.wins_first,
        facts: None,
        rows,
    }
}

fn forfeit_text(row: &Row) -> String {
    if let Some(f) = &row.failure {
        return f.clone();
    }
    let mut text = if row.forfeits.is_empty() {
        "-".to_string()
    } else {
        row.forfeits.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
    };
    if let Some(note) = &row.note {
        text = format!("{text} ({note})");
    }
    text
}

const HEADER: [&str; 10] =
    ["rank", "bot", "total score", "games", "wins", "draws", "losses", "avg score", "forfeits", "rating"];

fn cells(row: &Row) -> [String; 10] {
    [
        row.rank.to_string(),
        row.bot.clone(),
        row.total_score.to_string(),
        row.games.to_string(),
        row.wins.to_string(),
        row.draws.to_string(),
        row.losses.to_string(),
        average_text(row.total_score, u64::from(row.games)),
        forfeit_text(row),
        row.rating_text(),
    ]
}

impl Leaderboard {
    /// The leaderboard as a terminal table.
    pub fn table(&self) -> Table {
        let mut table = Table::new();
        // The version as its label (`v2 3f2a1bc`), without the time the Markdown adds: narrow.
        let mut header = HEADER.to_vec();
        header.insert(2, "version");
        table.load_style(UTF8_FULL_CONDENSED).set_header(header);
        for row in &self.rows {
            let mut cells = cells(row).to_vec();
            cells.insert(2, row.version_text(false));
            table.add_row(cells.iter().map(|c| safe_text::terminal(c)).collect::<Vec<_>>());
        }
        // The forfeits column holds why a build failed too (a few hundred characters): wrapped
        // at 60, so that the table stays as wide as a terminal (the JSON and Markdown have it
        // whole). Dynamic, for the column's bound to hold, at the widest width, so that only that
        // bound wraps a line, never a terminal's width.
        table.set_content_arrangement(ContentArrangement::Dynamic);
        table.set_width(u16::MAX);
        if let Some(column) = table.column_mut(9) {
            column.set_constraint(ColumnConstraint::UpperBoundary(Width::Fixed(60)));
        }
        table
    }

    /// "40 of 40 matches played", or, for a partial league, what is missing.
    pub fn played_text(&self) -> String {
        if self.complete {
            format!("{} of {} played.", self.matches, crate::safe_text::count(self.scheduled, "match", "matches"))
        } else {
            format!(
                "Partial: {} of {} played; {} missing (not counted).",
                self.matches,
                crate::safe_text::count(self.scheduled, "match", "matches"),
                self.scheduled.saturating_sub(self.matches)
            )
        }
    }

    /// The run facts in one line.
    pub fn facts_text(&self) -> String {
        let Some(f) = &self.facts else { return String::new() };
        let maps: Vec<String> = f.maps.iter().map(|m| format!("{} ({})", m.name, m.digest)).collect();
        format!(
            "Game {}; maps: {}; {} game(s) per pairing and map; seed {}; limits: {}; as of {}; arena {}.",
            f.game,
            maps.join(", "),
            f.games,
            f.seed,
            f.limits,
            f.date,
            f.arena_version
        )
    }

    /// The leaderboard as Markdown: the table (each bot linking to its list of matches), then
    /// every bot's matches with the opponents' scores, forfeits and links to replays and logs
    /// (up to [`MARKDOWN_MATCHES`] per bot: a large league's file stays readable).
    pub fn markdown(&self, title: &str) -> String {
        let md = safe_text::markdown;
        let mut out = format!("# {}\n\n{}\n\n", md(title), self.played_text());
        if self.facts.is_some() {
            // The whole line: a field's cut would drop the date and the arena's version.
            let _ = writeln!(out, "{}\n", safe_text::markdown_line(&self.facts_text()));
        }
        let mut header = HEADER.to_vec();
        header.insert(2, "version");
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
        for row in &self.rows {
            let c = cells(row);
            let mut c: Vec<String> = c.to_vec();
            c[1] = format!("[{}](#{})", md(&row.bot), anchor(&row.bot));
            c.insert(2, row.version_text(true));
            let cells: Vec<String> =
                c.iter().enumerate().map(|(i, s)| if i == 1 { s.clone() } else { md(s) }).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        let _ = writeln!(out, "\n{}", self.rule);
        for row in &self.rows {
            let _ = writeln!(out, "\n## {}\n", md(&row.bot));
            if let Some(note) = &row.note {
                let _ = writeln!(out, "{}\n", md(note));
            }
            if let Some(log) = &row.build_log {
                let _ = writeln!(out, "[build log]({log})\n");
            }
            if row.matches.is_empty() {
                out.push_str("No matches.\n");
                continue;
            }
            if row.matches.len() > MARKDOWN_MATCHES {
                let _ = writeln!(
                    out,
                    "{} matches, too many to list here: each is on the bot's page of the league's pages \
                     (`index.html`) and in `results.jsonl`.",
                    row.matches.len()
                );
                continue;
            }
            for m in &row.matches {
                let _ = writeln!(out, "- {}", match_text(&row.bot, m, true));
            }
        }
        out
    }

    /// One row per bot for a gradebook: rank, bot, version, points, games, W/D/L, forfeits
    /// (all, then one column per reason), status.
    pub fn csv(&self) -> Result<String, csv::Error> {
        let reasons: BTreeSet<&str> = self.rows.iter().flat_map(|r| r.forfeits.keys().map(String::as_str)).collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<String> =
            ["rank", "bot", "version", "points", "games", "wins", "draws", "losses", "forfeits"]
                .map(String::from)
                .to_vec();
        header.extend(reasons.iter().map(|r| format!("forfeits_{r}")));
        header.push("status".to_string());
        w.write_record(&header)?;
        for row in &self.rows {
            let text = |t: &str| safe_text::spreadsheet(t).into_owned();
            let mut rec = vec![
                row.rank.to_string(),
                text(&row.bot),
                text(row.version.as_deref().unwrap_or_default()),
                row.total_score.to_string(),
                row.games.to_string(),
                row.wins.to_string(),
                row.draws.to_string(),
                row.losses.to_string(),
                row.forfeits.values().sum::<u32>().to_string(),
            ];
            rec.extend(reasons.iter().map(|r| row.forfeits.get(*r).copied().unwrap_or(0).to_string()));
            rec.push(text(row.failure.as_deref().or(row.note.as_deref()).unwrap_or("ok")));
            w.write_record(&rec)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// One match of `bot` in words; with `links`, Markdown links to its replay and log.
pub fn match_text(bot: &str, m: &MatchRef, links: bool) -> String {
    // With links it is Markdown: every name and reason is made safe for it.
    let safe = |t: &str| if links { safe_text::markdown(t) } else { t.to_string() };
    let opponents: Vec<String> = m
        .opponents
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let score = m.opponent_scores.get(i).map_or(String::new(), |s| format!(" {s}"));
            let forfeit = match m.opponent_forfeits.get(i) {
                Some(Some(r)) => format!(", forfeit: {r}"),
                _ => String::new(),
            };
            format!("{}{score}{forfeit}", safe(o))
        })
        .collect();
    let mine = match &m.forfeit {
        Some(r) => format!(", forfeit: {r}"),
        None => String::new(),
    };
    let tick = m.ended_at.map_or(String::new(), |t| format!(", ended at step {t}"));
    let mut text = format!(
        "{} {}{mine} vs {} on {} (seat {}): {}{tick}",
        safe(bot),
        m.score,
        opponents.join("; "),
        safe(&m.map),
        m.seat,
        m.outcome
    );
    if links {
        let _ = write!(text, " — [watch]({}) · [replay]({})", crate::replay::page_path(&m.replay), m.replay);
        if let Some(log) = &m.log {
            let _ = write!(text, " · [log]({log})");
        }
    }
    text
}

/// GitHub-style heading anchor for a bot name.
fn anchor(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The standings of `results` among `bots` under the forfeit rule `forfeits`, no maps named,
/// for the tests (of the standings and of the pages).
#[cfg(test)]
pub(crate) fn test_board(
    forfeits: ForfeitRule,
    bots: &[String],
    failures: &BTreeMap<String, String>,
    results: &[ResultLine],
    scheduled: usize,
    wins_first: bool,
) -> Leaderboard {
    compute(&Input { bots, failures, results, scheduled, wins_first, forfeits, maps: &MapNames::default() })
}

/// A two-seat match's result line for the tests (of the standings and of the pages): `seats`
/// scored `scores`, the second seat forfeiting for `forfeit` if given.
#[cfg(test)]
pub(crate) fn test_result(key: &str, seats: [&str; 2], scores: [i64; 2], forfeit: Option<&str>) -> ResultLine {
    use crate::replay::{MatchResult, PlayerResult};
    let winner = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let p = |i: usize| PlayerResult {
        name: seats[i].to_string(),
        score: scores[i],
        finished: true,
        forfeit: if i == 1 { forfeit.map(str::to_string) } else { None },
        detail: None,
    };
    ResultLine {
        key: key.to_string(),
        seats: seats.map(str::to_string).to_vec(),
        map: "m.txt".into(),
        game: 1,
        seed: 0,
        steps: 1,
        replay: format!("replays/{key}.json"),
        result: MatchResult { players: vec![p(0), p(1)], winner },
        versions: Vec::new(),
        ended_at: vec![10, 12],
        at: 0,
        forfeits: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn result(key: &str, seats: [&str; 2], scores: [i64; 2], forfeit: Option<&str>) -> ResultLine {
        test_result(key, seats, scores, forfeit)
    }

    fn names() -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    /// The standings of a and b after a beat b 7-0, of `scheduled` matches.
    fn a_beat_b(scheduled: usize) -> Leaderboard {
        let results = [result("1", ["a", "b"], [7, 0], None)];
        test_board(ForfeitRule::Score, &names()[..2], &BTreeMap::new(), &results, scheduled, false)
    }

    #[test]
    fn totals_outcomes_forfeits_and_ranks() {
        let results = vec![
            result("1", ["a", "b"], [10, 0], Some("crash")),
            result("2", ["b", "a"], [5, 5], None),
            result("3", ["a", "c"], [1, 30], None),
            result("4", ["c", "b"], [7, 0], Some("timeout")),
        ];
        let lb = test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &results, 6, false);
        let order: Vec<&str> = lb.rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(order, ["c", "a", "b"]);
        let a = &lb.rows[1];
        assert_eq!((a.total_score, a.games, a.wins, a.draws, a.losses), (16, 3, 1, 1, 1));
        let b = &lb.rows[2];
        assert_eq!(b.forfeits, BTreeMap::from([("crash".to_string(), 1), ("timeout".to_string(), 1)]));
        assert_eq!((b.wins, b.draws, b.losses), (0, 1, 2));
        assert!(lb.rows[0].rating > 1500.0 && b.rating < 1500.0);
        assert_eq!(lb.rows[0].matches.len(), 2);
        assert_eq!((lb.matches, lb.scheduled), (4, 6));
    }

    /// A line whose winner is no seat (which the results' readers skip) counts for nobody, and
    /// gives no panic under the loss rule with a forfeit in it (the forfeits were indexed by the
    /// winner). The control: the same line with its winner in range is a's win.
    #[test]
    fn a_winner_of_no_seat_counts_for_nobody_and_panics_not() {
        let mut line = result("1", ["a", "b"], [7, 0], Some("crash"));
        let games = |line: &ResultLine, rule| {
            let board = test_board(rule, &names()[..2], &BTreeMap::new(), std::slice::from_ref(line), 1, false);
            board.rows.iter().map(|r| (r.bot.clone(), r.games, r.wins)).collect::<Vec<_>>()
        };
        let a_won = vec![("a".to_string(), 1, 1), ("b".to_string(), 1, 0)];
        assert_eq!(games(&line, ForfeitRule::Loss), a_won, "the control");
        line.result.winner = Some(5);
        let nobody: Vec<(String, u32, u32)> = vec![("a".into(), 0, 0), ("b".into(), 0, 0)];
        for rule in [ForfeitRule::Loss, ForfeitRule::Score] {
            let mut rows = games(&line, rule);
            rows.sort();
            assert_eq!(rows, nobody, "{rule:?}");
        }
        assert_eq!(outcomes(&line, ForfeitRule::Loss), [1, -1], "outcomes alone: a won by b's forfeit");
        // A third player in the result, the winner: no seat either (it was a loss for both).
        line.result.winner = Some(2);
        line.result.players.push(line.result.players[0].clone());
        for rule in [ForfeitRule::Loss, ForfeitRule::Score] {
            let mut rows = games(&line, rule);
            rows.sort();
            assert_eq!(rows, nobody, "{rule:?}, a third player");
        }
        assert_eq!(outcomes(&line, ForfeitRule::Score)[..2], [-1, -1], "outcomes alone: a loss for both seats");
    }

    /// An average on an exact tie (28020 / 16 = 1751.25) is rounded once, half away from zero,
    /// the same in the terminal table and the Markdown; the control: Rust's own `{:.1}` rounds
    /// that tie to even (what the table said while the page said 1751.3).
    #[test]
    fn an_average_rounds_half_away_from_zero_in_every_output() {
        assert_eq!(format!("{:.1}", 28020.0_f64 / 16.0), "1751.2", "the control: half to even");
        assert_eq!((average_tenths(28020, 16), average_text(28020, 16)), (Some(17513), "1751.3".to_string()));
        for (total, games, text) in [(1, 3, "0.3"), (2, 3, "0.7"), (-1, 4, "-0.3"), (-3, 2, "-1.5"), (0, 4, "0.0")] {
            assert_eq!(average_text(total, games), text, "{total} / {games}");
        }
        assert_eq!(tenths_text(-5), "-0.5");
        let results: Vec<ResultLine> = (0..16)
            .map(|k| result(&format!("{k:02}"), ["a", "b"], [if k == 0 { 1755 } else { 1751 }, 0], None))
            .collect();
        let lb = test_board(ForfeitRule::Score, &names()[..2], &BTreeMap::new(), &results, 16, false);
        assert_eq!((lb.rows[0].total_score, lb.rows[0].games), (28020, 16));
        assert!(lb.markdown("t").contains("| 28020 | 16 | 16 | 0 | 0 | 1751.3 |"), "{}", lb.markdown("t"));
        let table = lb.table().to_string();
        assert!(table.contains("┆ 1751.3 ") && !table.contains("1751.2"), "{table}");
    }

    /// A bot that never played has no rating: `-` in the table and the Markdown, where one that
    /// played shows its own (the control); the JSON keeps numbers (the Glicko-2 start) for programs.
    #[test]
    fn a_bot_that_never_played_shows_no_rating() {
        let failures = BTreeMap::from([("c".to_string(), "build failed".to_string())]);
        let lb =
            test_board(ForfeitRule::Score, &names(), &failures, &[result("1", ["a", "b"], [5, 1], None)], 1, false);
        let c = lb.rows.iter().find(|r| r.bot == "c").unwrap();
        assert_eq!((c.rating_text(), c.interval_text()), ("-".to_string(), None));
        let a = &lb.rows[0];
        assert_eq!(a.rating_text(), format!("{} ± {}", a.rating.round(), a.deviation.round()));
        assert!(a.rating_text() != "-" && a.interval_text().is_some());
        assert!(lb.markdown("t").contains("| build failed | - |"), "{}", lb.markdown("t"));
        let table = lb.table().to_string();
        let line = table.lines().find(|l| l.contains("┆ c ")).unwrap();
        assert!(line.trim_end_matches('│').trim_end().ends_with("┆ -"), "{table}");
        assert!(!table.contains("1500 ± 350"), "{table}");
        let json: serde_json::Value = serde_json::to_value(c).unwrap();
        assert_eq!((json["rating"].as_f64(), json["deviation"].as_f64()), (Some(1500.0), Some(350.0)));
    }

    /// A bot that never played has no average either: `-` in the table and the Markdown, `null`
    /// in the JSON (it said 0.0, an average of no game). The control: a bot that played and
    /// scored 0 points averages 0.0, shown and in the JSON.
    #[test]
    fn a_bot_that_never_played_shows_no_average() {
        let failures = BTreeMap::from([("c".to_string(), "build failed".to_string())]);
        let lb =
            test_board(ForfeitRule::Score, &names(), &failures, &[result("1", ["a", "b"], [5, 0], None)], 1, false);
        let row = |bot: &str| lb.rows.iter().find(|r| r.bot == bot).unwrap();
        assert_eq!(average_text(row("c").total_score, u64::from(row("c").games)), "-");
        let md = lb.markdown("t");
        assert!(md.contains("| 0 | 0 | 0 | 0 | 0 | - | build failed | - |"), "{md}");
        assert!(md.contains("| 0 | 1 | 0 | 0 | 1 | 0.0 | - |"), "the control, b: {md}");
        let table = lb.table().to_string();
        let average = |bot: &str| {
            let line = table.lines().find(|l| l.contains(&format!("┆ {bot} "))).unwrap();
            line.split(['│', '┆']).map(str::trim).filter(|c| !c.is_empty()).nth(8).unwrap().to_string()
        };
        assert_eq!((average("c"), average("b")), ("-".to_string(), "0.0".to_string()), "{table}");
        let json = |bot: &str| serde_json::to_value(row(bot)).unwrap()["average_score"].clone();
        assert_eq!((json("c"), json("b")), (serde_json::Value::Null, serde_json::json!(0.0)));
        // It reads back as written.
        let read: Row = serde_json::from_value(serde_json::to_value(row("c")).unwrap()).unwrap();
        assert_eq!(read.average_score, None);
    }

    #[test]
    fn markdown_lists_a_bots_matches_up_to_a_cap() {
        let many = |n: usize| -> Vec<ResultLine> {
            (0..n).map(|k| result(&k.to_string(), ["a", "b"], [1, 0], None)).collect()
        };
        let listed =
            test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &many(MARKDOWN_MATCHES), 0, false).markdown("t");
        assert_eq!(listed.lines().filter(|l| l.starts_with("- ")).count(), 2 * MARKDOWN_MATCHES);
        let capped = test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &many(MARKDOWN_MATCHES + 1), 0, false)
            .markdown("t");
        assert_eq!(capped.lines().filter(|l| l.starts_with("- ")).count(), 0, "{capped}");
        assert!(capped.contains(&format!("{} matches, too many to list here", MARKDOWN_MATCHES + 1)));
    }

    #[test]
    fn result_order_does_not_change_the_leaderboard() {
        let mut results = vec![
            result("1", ["a", "b"], [10, 0], None),
            result("2", ["b", "c"], [3, 4], None),
            result("3", ["c", "a"], [9, 2], None),
            result("4", ["b", "a"], [1, 1], None),
        ];
        let first = test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &results, 4, false);
        results.reverse();
        results.swap(0, 2);
        assert_eq!(test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &results, 4, false), first);
    }

    #[test]
    fn failed_bots_go_last_and_are_explained() {
        let results = vec![result("1", ["a", "b"], [5, 5], None), result("2", ["c", "a"], [0, 0], None)];
        let failures = BTreeMap::from([("b".to_string(), "build failed".to_string())]);
        let lb = test_board(ForfeitRule::Score, &names(), &failures, &results, 2, false);
        let order: Vec<&str> = lb.rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(order, ["a", "c", "b"], "a bot that could not play goes last");
        assert!(lb.markdown("t").contains("| 3 | [b](#b) | - | 5 |"));
        assert!(lb.markdown("t").contains("build failed"));
    }

    #[test]
    fn equal_totals_break_by_wins_then_losses_then_name() {
        let results = vec![
            result("1", ["a", "b"], [4, 0], None), // a: 1 win
            result("2", ["c", "b"], [2, 2], None), // c: 1 draw, b: 1 draw
            result("3", ["c", "b"], [2, 2], None), // c: 2 draws
        ];
        let lb = test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &results, 3, false);
        let order: Vec<&str> = lb.rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(order, ["a", "c", "b"], "a and c both total 4: a has a win; b totals 4 with a loss");
    }

    #[test]
    fn games_won_on_matches_rank_by_wins_first() {
        let results = vec![
            result("1", ["a", "b"], [2, 1], None),
            result("2", ["a", "c"], [2, 1], None),
            result("3", ["b", "c"], [30, 0], None),
        ];
        let order = |wins_first| {
            let lb = test_board(ForfeitRule::Score, &names(), &BTreeMap::new(), &results, 3, wins_first);
            lb.rows.iter().map(|r| r.bot.clone()).collect::<Vec<_>>()
        };
        assert_eq!(order(false), ["b", "a", "c"], "b totals 31, a 4");
        assert_eq!(order(true), ["a", "b", "c"], "a won twice, b once");
    }

    #[test]
    fn exact_ties_share_a_rank_and_the_next_rank_skips() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let results = vec![
            result("1", ["a", "d"], [9, 0], None),
            result("2", ["b", "c"], [3, 3], None),
            result("3", ["c", "b"], [3, 3], None),
        ];
        let lb = test_board(ForfeitRule::Score, &names, &BTreeMap::new(), &results, 3, false);
        let ranks: Vec<(&str, usize)> = lb.rows.iter().map(|r| (r.bot.as_str(), r.rank)).collect();
        assert_eq!(ranks, [("a", 1), ("b", 2), ("c", 2), ("d", 4)]);
        assert!(lb.complete);
        assert!(lb.rule.contains("share a rank (1, 2, 2, 4)") && lb.rule.starts_with("Ranked by total score"));
        assert!(rule_text(true, ForfeitRule::Loss).starts_with("Ranked by wins"));
    }

    #[test]
    fn a_forfeit_is_a_loss_by_default_and_a_draw_by_score_if_asked() {
        // b times out at 0 against a waiter-like a that scores 0 too.
        let results = vec![result("1", ["a", "b"], [0, 0], Some("timeout"))];
        let by = |forfeits| {
            let lb = super::compute(&Input {
                bots: &names()[..2],
                failures: &BTreeMap::new(),
                results: &results,
                scheduled: 1,
                wins_first: false,
                forfeits,
                maps: &MapNames::default(),
            });
            lb.rows.iter().map(|r| (r.bot.clone(), r.wins, r.draws, r.losses, r.rank)).collect::<Vec<_>>()
        };
        assert_eq!(by(ForfeitRule::Loss), [("a".into(), 1, 0, 0, 1), ("b".into(), 0, 0, 1, 2)]);
        assert_eq!(by(ForfeitRule::Score), [("a".into(), 0, 1, 0, 1), ("b".into(), 0, 1, 0, 1)]);
    }

    #[test]
    fn match_rows_say_the_opponent_s_score_the_forfeit_and_the_step() {
        let results = vec![result("1", ["a", "b"], [7, 0], Some("timeout"))];
        let lb = test_board(ForfeitRule::Score, &names()[..2], &BTreeMap::new(), &results, 2, false);
        assert!(!lb.complete && lb.played_text().starts_with("Partial: 1 of 2"));
        let b = lb.rows.iter().find(|r| r.bot == "b").unwrap();
        let m = &b.matches[0];
        assert_eq!((m.opponent_scores.clone(), m.forfeit.as_deref(), m.ended_at), (vec![7], Some("timeout"), Some(12)));
        let text = match_text("b", m, true);
        assert_eq!(
            text,
            "b 0, forfeit: timeout vs a 7 on m.txt (seat 2): loss, ended at step 12 — [watch](replays/1.html) · [replay](replays/1.json)"
        );
    }

    /// A match and the run facts name a map by its name, never by the path the config gave
    /// (the teacher's folders); the control: the result line holds the path.
    #[test]
    fn a_map_is_shown_by_its_name_not_its_path() {
        let (one, two) = ("/home/jdoe/courses/maps/arena1.txt", "/home/jdoe/courses/week2/arena1.txt");
        let mut results = vec![result("1", ["a", "b"], [7, 0], None), result("2", ["b", "a"], [1, 1], None)];
        results[0].map = one.into();
        results[1].map = two.into();
        let pool = [(Path::new(one), "638bf733d0aa1b2c"), (Path::new(two), "77aa00bb11cc22dd")];
        let maps = MapNames::new(pool, Some(Path::new("/home/jdoe/courses")));
        let input = Input {
            bots: &names()[..2],
            failures: &BTreeMap::new(),
            results: &results,
            scheduled: 2,
            wins_first: false,
            forfeits: ForfeitRule::Loss,
            maps: &maps,
        };
        let mut lb = super::compute(&input);
        lb.facts = Some(RunFacts {
            game: "g".to_string(),
            maps: pool.iter().map(|(p, d)| ShownMap { name: maps.name(p), digest: d.to_string() }).collect(),
            games: 1,
            seed: 1,
            limits: String::new(),
            date: String::new(),
            arena_version: String::new(),
        });
        let shown: Vec<&str> = lb.rows[0].matches.iter().map(|m| m.map.as_str()).collect();
        assert_eq!(shown, ["maps/arena1.txt", "week2/arena1.txt"]);
        let json = serde_json::to_string(&lb).unwrap();
        let markdown = lb.markdown("t");
        for text in [&json, &markdown] {
            assert!(!text.contains("jdoe"), "{text}");
        }
        let facts = lb.facts_text();
        assert!(facts.contains("maps: maps/arena1.txt (638bf733d0aa1b2c), week2/arena1.txt (77aa"), "{facts}");
        assert!(markdown.contains(" on week2/arena1.txt (seat "), "{markdown}");
        assert!(serde_json::to_string(&results).unwrap().contains(one), "the control: the result holds the path");
    }

    /// The terminal table shows each bot's version by its label, like the CSV, Markdown, JSON and
    /// pages, and a long failure still wraps in the forfeits column (the control: the failure
    /// alone is wider than any line of the table), not in the version's.
    #[test]
    fn the_terminal_table_shows_the_version() {
        let mut lb = a_beat_b(1);
        lb.rows[0].version = Some("v2 3f2a1bc".to_string());
        lb.rows[0].version_at = Some("2026-11-30T16:40:00Z".to_string());
        let failure = "build failed: ".to_string() + &"error: expected `;` ".repeat(12);
        lb.rows[1].failure = Some(failure.clone());
        let text = lb.table().to_string();
        let header = text.lines().find(|l| l.contains("rank")).unwrap();
        let columns: Vec<&str> = header.split(['│', '┆']).map(str::trim).filter(|c| !c.is_empty()).collect();
        assert_eq!(&columns[..4], ["rank", "bot", "version", "total score"], "{text}");
        let a = text.lines().find(|l| l.contains("┆ a ")).unwrap();
        assert!(a.contains("┆ v2 3f2a1bc ") && !a.contains("2026-11-30"), "{text}");
        assert!(text.lines().any(|l| l.contains("┆ b ") && l.contains("┆ - ")), "no version: '-'\n{text}");
        // The Markdown adds when the league first saw it, by the same function.
        let md = lb.markdown("t");
        assert!(md.contains(r"| [a](#a) | v2 3f2a1bc \(2026-11-30T16\:40\:00Z\) | 7 |"), "{md}");
        assert!(md.contains("| [b](#b) | - | 0 |"), "{md}");
        assert_eq!(lb.rows[1].version_text(true), "-");
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest < failure.chars().count() + 20 && failure.chars().count() > 200, "{widest}\n{text}");
    }

    /// A `leaderboard.json` written before maps had names (`"path"`, an absolute one) still reads.
    #[test]
    fn a_leaderboard_of_the_previous_version_still_reads() {
        let old = r#"{"matches":0,"scheduled":0,"complete":true,"rule":"r","facts":{"game":"resource-rush","maps":[{"path":"/home/jdoe/courses/2026/maps/arena1.txt","digest":"638bf733d0aa1b2c"}],"games":1,"seed":3,"limits":"l","date":"d","arena_version":"0.1.0"},"rows":[]}"#;
        let board: Leaderboard = serde_json::from_str(old).unwrap();
        let facts = board.facts.unwrap();
        assert_eq!(facts.maps[0].name, "/home/jdoe/courses/2026/maps/arena1.txt");
        assert_eq!(facts.maps[0].digest, "638bf733d0aa1b2c");
    }

    #[test]
    fn the_csv_has_one_row_per_bot_with_forfeits_by_reason() {
        let results = vec![result("1", ["a", "b"], [7, 0], Some("timeout")), result("2", ["b", "a"], [1, 1], None)];
        let lb = test_board(ForfeitRule::Score, &names()[..2], &BTreeMap::new(), &results, 2, false);
        let csv = lb.csv().unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "rank,bot,version,points,games,wins,draws,losses,forfeits,forfeits_timeout,status");
        assert_eq!(lines[1], "1,a,,8,2,1,1,0,0,0,ok");
        assert_eq!(lines[2], "2,b,,1,2,0,1,1,1,1,ok");
    }

    /// A name a spreadsheet would run as a formula is written as text; the control: CSV's own
    /// quoting leaves it a formula.
    #[test]
    fn the_csv_gives_a_spreadsheet_no_formula() {
        let formula = "=HYPERLINK(\"https://evil.example\",\"A+\")";
        let mut lb = a_beat_b(2);
        lb.rows[0].bot = formula.to_string();
        let csv = lb.csv().unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let cells: Vec<String> = reader.records().map(|r| r.unwrap()[1].to_string()).collect();
        assert_eq!(cells[0], format!("'{formula}"));
        // Every text cell (the status quotes why a bot could not play, in its students' words)
        // and every start a spreadsheet reads as a formula; ordinary names stay as they are.
        for lead in ["=", "+", "-", "@", "\t", "\r"] {
            lb.rows[0].failure = Some(format!("{lead}cmd|' /C calc'!A0"));
            let csv = lb.csv().unwrap();
            let row = csv::Reader::from_reader(csv.as_bytes()).records().next().unwrap().unwrap();
            assert_eq!(&row[row.len() - 1], format!("'{lead}cmd|' /C calc'!A0"), "{lead:?}");
        }
        lb.rows[0].bot = "alice-2".to_string();
        assert!(lb.csv().unwrap().lines().nth(1).unwrap().starts_with("1,alice-2,"));
        let mut plain = csv::Writer::from_writer(Vec::new());
        plain.write_record([formula]).unwrap();
        let plain = plain.into_inner().unwrap();
        let read =
            csv::ReaderBuilder::new().has_headers(false).from_reader(&plain[..]).records().next().unwrap().unwrap();
        assert!(read[0].starts_with('='), "the control: quoted as CSV, still a formula");
    }
}
