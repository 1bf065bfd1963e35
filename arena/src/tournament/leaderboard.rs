//! Leaderboards from match results: totals, wins/draws/losses, forfeits by reason, and a
//! Glicko-2 rating, ranked in a documented order.
//!
//! Order: total score (the course league's order), then wins, then fewer losses, then rating,
//! then name. The rating is Glicko-2 with every game in one rating period, each bot starting
//! at 1500 / 350 / 0.06: the same results give the same ratings in any order. A match counts
//! as one rating game between every two seats, won by the higher score, so a multi-player
//! finishing order rates everyone against everyone.

use std::collections::BTreeMap;
use std::fmt::Write;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::results::ResultLine;
use crate::safe_text;

/// One bot's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// 1-based rank.
    pub rank: usize,
    /// The bot.
    pub bot: String,
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
    /// Average score per game.
    pub average_score: f64,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<String, u32>,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 rating deviation.
    pub deviation: f64,
    /// Why the bot could not play (build failed, program missing), if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Its matches, in key order.
    pub matches: Vec<MatchRef>,
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
    /// The map.
    pub map: String,
    /// This bot's score.
    pub score: i64,
    /// `win`, `draw` or `loss`.
    pub outcome: String,
    /// The replay, relative to the tournament folder.
    pub replay: String,
}

/// A whole leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// Matches counted.
    pub matches: usize,
    /// Matches scheduled.
    pub scheduled: usize,
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

/// Computes the leaderboard of `bots` (in config order) from `results`; `failures` lists bots
/// that could not play, with the reason. Results are taken in key order. Rows rank by total
/// score, then wins; with `wins_first` (games won on matches, such as Tactics), the other way.
pub fn compute(
    bots: &[String],
    failures: &BTreeMap<String, String>,
    results: &[ResultLine],
    scheduled: usize,
    wins_first: bool,
) -> Leaderboard {
    let mut sorted: Vec<&ResultLine> = results.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let mut tally: BTreeMap<&str, Tally> = bots.iter().map(|b| (b.as_str(), Tally::default())).collect();
    for line in &sorted {
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
            let outcome = match line.result.winner {
                None => {
                    t.draws += 1;
                    "draw"
                }
                Some(w) if w == seat => {
                    t.wins += 1;
                    "win"
                }
                Some(_) => {
                    t.losses += 1;
                    "loss"
                }
            };
            // Every other seat is one rating game, won by the higher score: the duel's result
            // for two players, the finishing order for more.
            for (other_seat, other) in line.seats.iter().enumerate() {
                let Some(them) = line.result.players.get(other_seat) else { continue };
                if other_seat != seat {
                    let o = match me.score.cmp(&them.score) {
                        std::cmp::Ordering::Greater => Outcomes::WIN,
                        std::cmp::Ordering::Less => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    t.outcomes.push((other.clone(), o));
                }
            }
            t.matches.push(MatchRef {
                key: line.key.clone(),
                opponents: line.seats.iter().enumerate().filter(|(s, _)| *s != seat).map(|(_, n)| n.clone()).collect(),
                seat: seat + 1,
                map: line.map.display().to_string(),
                score: me.score,
                outcome: outcome.to_string(),
                replay: line.replay.clone(),
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
                total_score: t.total,
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                average_score: if t.games == 0 { 0.0 } else { t.total as f64 / f64::from(t.games) },
                forfeits: t.forfeits,
                rating: (rating.rating * 10.0).round() / 10.0,
                deviation: (rating.deviation * 10.0).round() / 10.0,
                failure: failures.get(name).cloned(),
                matches: t.matches,
            }
        })
        .collect();
    let key = |r: &Row| {
        let (first, second) = if wins_first { (r.wins as i64, r.total_score) } else { (r.total_score, r.wins as i64) };
        (r.failure.is_some(), std::cmp::Reverse(first), std::cmp::Reverse(second), r.losses)
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then(b.rating.total_cmp(&a.rating)).then(a.bot.cmp(&b.bot)));
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    Leaderboard { matches: sorted.len(), scheduled, rows }
}

fn forfeit_text(row: &Row) -> String {
    if let Some(f) = &row.failure {
        return f.clone();
    }
    if row.forfeits.is_empty() {
        return "-".to_string();
    }
    row.forfeits.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
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
        format!("{:.1}", row.average_score),
        forfeit_text(row),
        format!("{:.0} ± {:.0}", row.rating, row.deviation),
    ]
}

impl Leaderboard {
    /// The leaderboard as a terminal table (names and failures as safe text).
    pub fn table(&self) -> Table {
        let mut table = Table::new();
        table.load_style(UTF8_FULL_CONDENSED).set_header(HEADER.to_vec());
        for row in &self.rows {
            table.add_row(cells(row).map(|c| safe_text::terminal(&c)).to_vec());
        }
        table
    }

    /// The leaderboard as Markdown: the table (each bot linking to its list of matches), then
    /// every bot's matches with links to their replays. Every text is safe Markdown.
    pub fn markdown(&self, title: &str) -> String {
        let md = safe_text::markdown;
        let mut out = format!("# {}\n\n{} of {} matches played.\n\n", md(title), self.matches, self.scheduled);
        let _ = writeln!(out, "| {} |", HEADER.join(" | "));
        let _ = writeln!(out, "|{}", " --- |".repeat(HEADER.len()));
        for row in &self.rows {
            let mut c = cells(row).map(|c| md(&c));
            c[1] = format!("[{}](#{})", c[1], anchor(&row.bot));
            let _ = writeln!(out, "| {} |", c.join(" | "));
        }
        out.push_str("\nRanked by total score, then wins, then fewer losses, then rating, then name. Rating: Glicko-2, all games in one rating period from 1500 / 350.\n");
        for row in &self.rows {
            let _ = writeln!(out, "\n## {}\n", md(&row.bot));
            if row.matches.is_empty() {
                out.push_str("No matches.\n");
                continue;
            }
            for m in &row.matches {
                let _ = writeln!(
                    out,
                    "- {} vs {} on {} (seat {}): {} points, {} — [watch]({}) · [replay]({})",
                    md(&row.bot),
                    md(&m.opponents.join(", ")),
                    md(&m.map),
                    m.seat,
                    m.score,
                    m.outcome,
                    crate::replay::page_path(&m.replay),
                    m.replay
                );
            }
        }
        out
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{MatchResult, PlayerResult};

    fn result(key: &str, seats: [&str; 2], scores: [i64; 2], forfeit: Option<&str>) -> ResultLine {
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
            forfeits: Vec::new(),
        }
    }

    fn names() -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    #[test]
    fn totals_outcomes_forfeits_and_ranks() {
        let results = vec![
            result("1", ["a", "b"], [10, 0], Some("crash")),
            result("2", ["b", "a"], [5, 5], None),
            result("3", ["a", "c"], [1, 30], None),
            result("4", ["c", "b"], [7, 0], Some("timeout")),
        ];
        let lb = compute(&names(), &BTreeMap::new(), &results, 6, false);
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

    #[test]
    fn result_order_does_not_change_the_leaderboard() {
        let mut results = vec![
            result("1", ["a", "b"], [10, 0], None),
            result("2", ["b", "c"], [3, 4], None),
            result("3", ["c", "a"], [9, 2], None),
            result("4", ["b", "a"], [1, 1], None),
        ];
        let first = compute(&names(), &BTreeMap::new(), &results, 4, false);
        results.reverse();
        results.swap(0, 2);
        assert_eq!(compute(&names(), &BTreeMap::new(), &results, 4, false), first);
    }

    #[test]
    fn failed_bots_go_last_and_are_explained() {
        let results = vec![result("1", ["a", "b"], [5, 5], None), result("2", ["c", "a"], [0, 0], None)];
        let failures = BTreeMap::from([("b".to_string(), "build failed".to_string())]);
        let lb = compute(&names(), &failures, &results, 2, false);
        let order: Vec<&str> = lb.rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(order, ["a", "c", "b"], "a bot that could not play goes last");
        assert!(lb.markdown("t").contains("| 3 | [b](#b) | 5 |"));
        assert!(lb.markdown("t").contains("build failed"));
    }

    #[test]
    fn equal_totals_break_by_wins_then_losses_then_name() {
        let results = vec![
            result("1", ["a", "b"], [4, 0], None), // a: 1 win
            result("2", ["c", "b"], [2, 2], None), // c: 1 draw, b: 1 draw
            result("3", ["c", "b"], [2, 2], None), // c: 2 draws
        ];
        let lb = compute(&names(), &BTreeMap::new(), &results, 3, false);
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
            let lb = compute(&names(), &BTreeMap::new(), &results, 3, wins_first);
            lb.rows.iter().map(|r| r.bot.clone()).collect::<Vec<_>>()
        };
        assert_eq!(order(false), ["b", "a", "c"], "b totals 31, a 4");
        assert_eq!(order(true), ["a", "b", "c"], "a won twice, b once");
    }
}
