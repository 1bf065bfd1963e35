//! A tournament's league pages. `index.html`: the leaderboard with rating intervals drawn,
//! a cross-table (who beat whom, each cell linking to the matches), per-map standings,
//! filters and a clear mark of bots that could not play; `assets/league.js` draws it from
//! data embedded in the page and renders only the visible part, so it stays quick at
//! hundreds of bots. `bots/<name>.html`: one static page per bot with its matches, score per
//! map, score distribution and its forfeits explained in words a student understands.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::Path;

use serde::Serialize;

use super::{asset, capitalise, head, PageError};
use crate::engine::{Registry, Wording};
use crate::explain::ForfeitFact;
use crate::files::name_part;
use crate::replay::{page_file, page_path, Replay};
use crate::safe_text::{html, json_in_html};
use crate::standings::leaderboard::{average_tenths, average_text, Leaderboard, MatchRef, Row};
use crate::standings::ResultLine;

/// A bot's page, relative to the tournament folder: `bots/<name>.html`, the name as
/// [`name_part`] gives it (a plain name itself, any other cut and hashed), so two bots never
/// share a page.
pub fn bot_page(name: &str) -> String {
    format!("bots/{}.html", name_part(name))
}

/// What `league.js` draws the index from (embedded in `index.html` as JSON).
#[derive(Serialize)]
struct IndexData<'a> {
    title: &'a str,
    /// Each map's standings rank by wins before total score (the game's own ranking).
    wins_first: bool,
    played: usize,
    scheduled: usize,
    maps: Vec<String>,
    reasons: Vec<String>,
    bots: Vec<BotData<'a>>,
    /// Per map, per bot (rank order): total score, games, wins, draws, losses, and the average
    /// in tenths ([`average_tenths`]: the page prints it, rounding nothing itself; 0 where it
    /// played no game there, which the page shows as `-`).
    per_map: Vec<Vec<[i64; 6]>>,
    /// Per map, per pair of bots i < j (rank order), five numbers: wins of i, draws, losses
    /// of i, points of i, points of j. Pair (i, j) is at `(i * (2n - i - 1) / 2 + j - i - 1) * 5`.
    cross: Vec<Vec<i64>>,
}

#[derive(Serialize)]
struct BotData<'a> {
    name: &'a str,
    page: String,
    /// The version its standing comes from, as every output shows it ([`Row::version_text`]:
    /// `v2 3f2a1bc`, `-` when it has none), and when the league first saw it.
    version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version_at: Option<&'a str>,
    rank: usize,
    total: i64,
    games: u32,
    w: u32,
    d: u32,
    l: u32,
    /// The average score in tenths ([`average_tenths`]); null for a bot that played no game
    /// (the page shows `-`, as for its rating).
    avg: Option<i64>,
    /// The rating and deviation (to a tenth): where the chart draws it, and the sort order.
    rating: f64,
    dev: f64,
    /// The rating as the leaderboard shows it ([`Row::rating_text`]: `-` when it has none).
    rating_text: String,
    /// Its 95 % interval in words, when it has a rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<String>,
    forfeits: &'a BTreeMap<String, u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<&'a str>,
}

/// Why a bot played no match: its build or program failed, or its own start failed every
/// match it was in. Not a bot that played none because its opponents could not start (the
/// error of a match that could not start names the bot at fault), or none has run yet.
fn could_not_play(row: &Row) -> Option<&str> {
    match (&row.failure, row.games) {
        (Some(f), _) => Some(f),
        (None, 0) => row.unstarted.as_deref(),
        (None, _) => None,
    }
}

/// The results behind a leaderboard, indexed for the pages.
struct League<'a> {
    board: &'a Leaderboard,
    /// Result lines by key (only those the leaderboard counts).
    lines: HashMap<&'a str, &'a ResultLine>,
    /// Bot name -> row index (rank order).
    index: HashMap<&'a str, usize>,
    /// The maps' names (as the leaderboard's matches name them), sorted.
    maps: Vec<String>,
    /// Match key -> its map's name (the result lines hold the maps' paths, never shown).
    map_of: HashMap<&'a str, &'a str>,
    /// How the game names its steps and prompts, for the forfeits' sentences.
    words: Wording,
    /// Each row's standing on each map ([`MapStanding`]), by map index then row: computed once,
    /// as every bot page ranks its bot against all the others on every map.
    standings: Vec<Vec<MapStanding>>,
}

/// A bot's standing on one map, greater being better: whether it can play, then total score and
/// wins in the game's order there, then fewer losses (as the index page's view of a map).
type MapStanding = (bool, i64, i64, i64);

/// Each row's standing on each of `maps` (sorted), by map index then row.
fn map_standings(board: &Leaderboard, maps: &[String]) -> Vec<Vec<MapStanding>> {
    let mut standings = vec![Vec::with_capacity(board.rows.len()); maps.len()];
    for row in &board.rows {
        let mut by_map: Vec<Vec<&MatchRef>> = vec![Vec::new(); maps.len()];
        for m in &row.matches {
            if let Ok(mi) = maps.binary_search_by(|name| name.as_str().cmp(&m.map)) {
                by_map[mi].push(m);
            }
        }
        for (on_map, matches) in standings.iter_mut().zip(&by_map) {
            on_map.push(standing(row, matches, board.wins_first));
        }
    }
    standings
}

/// The standing of `row` by its `matches` on one map ([`MapStanding`]).
fn standing(row: &Row, matches: &[&MatchRef], wins_first: bool) -> MapStanding {
    let count = |o: &str| matches.iter().filter(|m| m.outcome == o).count() as i64;
    let (total, wins) = (score_sum(matches.iter().map(|m| m.score)), count("win"));
    let (first, second) = if wins_first { (wins, total) } else { (total, wins) };
    (row.failure.is_none(), first, second, -count("loss"))
}

impl<'a> League<'a> {
    fn new(board: &'a Leaderboard, results: &'a [ResultLine]) -> Self {
        let keys: std::collections::HashSet<&str> =
            board.rows.iter().flat_map(|r| r.matches.iter().map(|m| m.key.as_str())).collect();
        let lines: HashMap<&str, &ResultLine> =
            results.iter().filter(|l| keys.contains(l.key.as_str())).map(|l| (l.key.as_str(), l)).collect();
        let index = board.rows.iter().enumerate().map(|(i, r)| (r.bot.as_str(), i)).collect();
        let mut maps: Vec<String> = board.rows.iter().flat_map(|r| r.matches.iter().map(|m| m.map.clone())).collect();
        maps.sort();
        maps.dedup();
        let map_of =
            board.rows.iter().flat_map(|r| r.matches.iter().map(|m| (m.key.as_str(), m.map.as_str()))).collect();
        // The arena's own game of the run, for its words; another (a game added by a program)
        // is explained in words that fit any game.
        let game = board.facts.as_ref().and_then(|f| crate::games::by_name(&f.game).ok());
        let words = game.map_or(Wording::NEUTRAL, |g| g.info().wording);
        let standings = map_standings(board, &maps);
        League { board, lines, index, maps, map_of, words, standings }
    }

    fn map_index(&self, map: &str) -> usize {
        self.maps.binary_search_by(|m| m.as_str().cmp(map)).unwrap_or(0)
    }

    fn data(&self, title: &'a str) -> IndexData<'a> {
        let n = self.board.rows.len();
        let pairs = n * n.saturating_sub(1) / 2;
        let mut per_map = vec![vec![[0i64; 6]; n]; self.maps.len()];
        let mut cross = vec![vec![0i64; pairs * 5]; self.maps.len()];
        for (i, row) in self.board.rows.iter().enumerate() {
            for m in &row.matches {
                let t = &mut per_map[self.map_index(&m.map)][i];
                t[0] = t[0].saturating_add(m.score);
                t[1] += 1;
                t[2 + ["win", "draw", "loss"].iter().position(|o| *o == m.outcome).unwrap_or(1)] += 1;
            }
        }
        for t in per_map.iter_mut().flatten() {
            t[5] = average_tenths(t[0], t[1].unsigned_abs()).unwrap_or(0);
        }
        let mut lines: Vec<&&ResultLine> = self.lines.values().collect();
        lines.sort_by(|a, b| a.key.cmp(&b.key));
        for line in lines {
            let mi = self.map_index(self.map_of.get(line.key.as_str()).copied().unwrap_or_default());
            // (seat, bot's row, score) of every seat whose bot is on the leaderboard.
            let seats: Vec<(usize, usize, i64)> = line
                .seats
                .iter()
                .enumerate()
                .filter_map(|(s, name)| Some((s, *self.index.get(name.as_str())?, line.result.players.get(s)?.score)))
                .collect();
            for (k, &(s, a, sa)) in seats.iter().enumerate() {
                for &(_, b, sb) in seats.iter().skip(k + 1) {
                    if a == b {
                        continue;
                    }
                    // A duel's own verdict; in a larger match, the two scores compared.
                    let a_wins = match (line.seats.len(), line.result.winner) {
                        (2, Some(w)) => Some(w == s),
                        (2, None) => None,
                        _ => (sa != sb).then_some(sa > sb),
                    };
                    let (i, j, si, sj, i_wins) =
                        if a < b { (a, b, sa, sb, a_wins) } else { (b, a, sb, sa, a_wins.map(|w| !w)) };
                    let k = (i * (2 * n - i - 1) / 2 + j - i - 1) * 5;
                    let c = &mut cross[mi][k..k + 5];
                    match i_wins {
                        Some(true) => c[0] += 1,
                        None => c[1] += 1,
                        Some(false) => c[2] += 1,
                    }
                    c[3] = c[3].saturating_add(si);
                    c[4] = c[4].saturating_add(sj);
                }
            }
        }
        let mut reasons: Vec<String> = self.board.rows.iter().flat_map(|r| r.forfeits.keys().cloned()).collect();
        reasons.sort();
        reasons.dedup();
        IndexData {
            title,
            wins_first: self.board.wins_first,
            played: self.board.matches,
            scheduled: self.board.scheduled,
            maps: self.maps.clone(),
            reasons,
            bots: self
                .board
                .rows
                .iter()
                .map(|r| BotData {
                    name: &r.bot,
                    page: bot_page(&r.bot),
                    version: r.version_text(false),
                    version_at: r.version_at.as_deref(),
                    rank: r.rank,
                    total: r.total_score,
                    games: r.games,
                    w: r.wins,
                    d: r.draws,
                    l: r.losses,
                    avg: average_tenths(r.total_score, u64::from(r.games)),
                    rating: r.rating,
                    dev: r.deviation,
                    rating_text: r.rating_text(),
                    interval: r.interval_text(),
                    forfeits: &r.forfeits,
                    failure: could_not_play(r),
                })
                .collect(),
            per_map,
            cross,
        }
    }
}

/// The tournament's `index.html`.
pub fn index_page(title: &str, board: &Leaderboard, results: &[ResultLine]) -> String {
    let league = League::new(board, results);
    let data = json_in_html(&league.data(title)).unwrap_or_else(|_| "null".to_string());
    // Bots standing on an older version (their newest failed to build or start), and bots
    // that could not play, with why and the full build log when there is one (a folder missing
    // or reached through a link has none): said in the page itself, not only by its script.
    // A bot whose build went well is not listed (its bot page links the log).
    let mut notes = String::new();
    for row in &board.rows {
        let Some(why) = row.note.as_deref().or(row.failure.as_deref()) else {
            continue;
        };
        let _ = write!(notes, "<li><b>{}</b>: {}</li>", html(&row.bot), with_log_link(why, row.build_log.as_deref()));
    }
    if !notes.is_empty() {
        notes = format!("<section class=\"failed\" id=\"notes\"><ul>{notes}</ul></section>\n");
    }
    let facts = board.facts_text();
    format!(
        "{}<link rel=\"stylesheet\" href=\"{}\"></head>\n<body data-page=\"index\"><header><h1>{}</h1>\
         <div class=\"sub\">{} · {} · click a bot for its matches and why it lost them</div>\
         <div class=\"sub\">{}</div></header>\n{notes}\
         <noscript><p class=\"failed\">This page needs JavaScript; the leaderboard is also in \
         <a href=\"leaderboard.md\">leaderboard.md</a>.</p></noscript>\n<main id=\"league\"></main>\n\
         <script type=\"application/json\" id=\"data\">{data}</script>\n<script src=\"{}\"></script>\
         <script src=\"{}\"></script>\n</body></html>\n",
        head(title),
        asset("league.css"),
        html(title),
        html(&board.played_text()),
        html(&board.rule),
        html(&facts),
        asset("common.js"),
        asset("league.js"),
    )
}

/// `why` as HTML with a link to the build log `log`: once, where the text names it (a failed
/// build's reason ends "(full log: builds/carol-….log)"), else after it.
fn with_log_link(why: &str, log: Option<&str>) -> String {
    let Some(log) = log else { return html(why).into_owned() };
    let link = |text: &str| format!(r#"<a href="{}">{}</a>"#, html(log), html(text));
    match why.rfind(&format!("(full log: {log})")) {
        Some(at) => {
            let named = at + "(full log: ".len();
            format!("{}{}{}", html(&why[..named]), link(log), html(&why[named + log.len()..]))
        }
        None => format!("{} {}", html(why), link("build log")),
    }
}

/// Writes a league's pages into `out` on its leaderboard: the shared scripts and styles,
/// `index.html` and every bot's page (each file atomically).
pub fn publish(out: &Path, title: &str, board: &Leaderboard, results: &[ResultLine]) -> Result<(), PageError> {
    super::write_assets(out)?;
    write_pages(out, title, board, results)
}

/// Writes a league match's replay page beside its replay (`replays/<key>.html`, for the
/// replay at `replay_path` in `out`): the replay file's bytes `bytes` (those written or
/// checked, never read back by path: see [`crate::tournament::Event::ReplaySaved`]), with
/// links to the leaderboard and the players' pages (`seats`), its map's name (`map`, never its
/// path: see [`crate::standings::maps`]), and the renderer of its game from `games`.
pub fn write_replay_page(
    out: &Path,
    replay_path: &Path,
    replay: &Replay,
    bytes: &[u8],
    seats: &[String],
    map: &str,
    games: &Registry,
) -> Result<(), PageError> {
    super::write_renderer(out, replay, games)?;
    let page = page_file(replay_path);
    super::write_file(&page, replay_page_text(replay, bytes, seats, map, games).as_bytes())
}

/// The page [`write_replay_page`] writes of a league match's replay (`replay`, its file's bytes
/// `bytes`), its players `seats` and its map's name `map`: what `arena view` compares a page
/// beside a league's replay with before it takes it for the league's own.
pub fn replay_page_text(replay: &Replay, bytes: &[u8], seats: &[String], map: &str, games: &Registry) -> String {
    let links = super::Links {
        index: Some("../index.html".to_string()),
        bots: seats.iter().map(|s| Some(format!("../{}", bot_page(s)))).collect(),
        map: Some(map.to_string()),
    };
    let render = super::renderer_path(replay, games);
    super::league_replay_page(replay, bytes, &links, render.as_deref(), games)
}

/// Writes `index.html` and every bot's page into `out` (each atomically), and removes the
/// pages of bots no longer on the board (removed from the league, or renamed), which would
/// otherwise be published with their old standings.
pub fn write_pages(out: &Path, title: &str, board: &Leaderboard, results: &[ResultLine]) -> Result<(), PageError> {
    let league = League::new(board, results);
    let bots = out.join("bots");
    super::make_folder(&bots)?;
    let mut current = std::collections::HashSet::new();
    for row in &board.rows {
        let page = bot_page_html(&league, out, row);
        let path = out.join(bot_page(&row.bot));
        super::write_file(&path, page.as_bytes())?;
        current.extend(path.file_name().map(std::ffi::OsStr::to_os_string));
    }
    super::write_file(&out.join("index.html"), index_page(title, board, results).as_bytes())?;
    // (Through a descriptor of `bots/`, regular files only: never a link of another user's
    // followed, nor one put in its place since the pages were written.)
    let stale = |name: &std::ffi::OsStr| {
        Path::new(name).extension().is_some_and(|e| e == "html")
            && !current.contains(name)
            && !crate::files::is_temporary(name)
    };
    for page in crate::files::remove_stale_files(&bots, stale).map_err(PageError::on(&bots))? {
        tracing::info!(page = %page.display(), "removed the page of a bot no longer in the league");
    }
    Ok(())
}

/// The number of a forfeit reason's examples listed on a bot page (the table has them all).
const EXAMPLES: usize = 5;

/// One bot's page.
fn bot_page_html(league: &League<'_>, out: &Path, row: &Row) -> String {
    let n = league.board.rows.len();
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<header><nav><a href="../index.html">← leaderboard</a></nav><h1>{}</h1><div class="sub">version {}{} · rank {} of {n} · total score {} · {} games: {} won, {} drawn, {} lost · average {} · rating {}{}</div></header><main class="botpage">"#,
        html(&row.bot),
        html(&row.version_text(false)),
        row.version_at.as_deref().map_or(String::new(), |at| format!(", first seen {}", html(at))),
        row.rank,
        row.total_score,
        row.games,
        row.wins,
        row.draws,
        row.losses,
        average_text(row.total_score, u64::from(row.games)),
        row.rating_text(),
        row.interval_text().map_or(String::new(), |i| format!(" (95 %: {i})")),
    );
    if let Some(failure) = could_not_play(row) {
        let _ = write!(
            body,
            r#"<section class="failed"><h2>⚠ This bot could not play</h2><p>{}</p><p>It played no match. Build and run it yourself with the same command, fix the first error, and the next run of the tournament includes it.</p></section>"#,
            html(failure)
        );
    }
    let matches: Vec<(&MatchRef, Option<&ResultLine>)> =
        row.matches.iter().map(|m| (m, league.lines.get(m.key.as_str()).copied())).collect();
    forfeits_section(&mut body, &matches, row, &league.words);
    body.push_str(r#"<section class="two">"#);
    per_map_section(&mut body, league, row);
    distribution_section(&mut body, &row.matches);
    body.push_str("</section>");
    versions_section(&mut body, row);
    let _ = write!(
        body,
        r#"<section><h2>Matches ({})</h2><p class="vsnote" id="vsnote" hidden></p><div class="wrap"><table class="matches" id="matches"><thead><tr><th>result</th><th>opponent</th><th>map</th><th>seat</th><th>score</th><th>forfeit</th><th>replay</th></tr></thead><tbody>"#,
        row.matches.len()
    );
    for (m, line) in &matches {
        match_row(&mut body, out, row, m, *line, &league.words);
    }
    let _ = write!(
        body,
        "</tbody></table></div></section></main>\n<script src=\"../{}\"></script><script src=\"../{}\"></script>\n",
        asset("common.js"),
        asset("league.js")
    );
    format!(
        "{}<link rel=\"stylesheet\" href=\"../{}\"></head>\n<body data-page=\"bot\">{body}</body></html>\n",
        head(&row.bot),
        asset("league.css")
    )
}

/// This bot's forfeit in `line`, if it forfeited: (reason, the facts when recorded).
fn own_forfeit<'l>(
    row: &Row,
    m: &MatchRef,
    line: Option<&'l ResultLine>,
) -> Option<(&'l str, Option<&'l ForfeitFact>)> {
    let line = line?;
    let seat = m.seat.checked_sub(1)?;
    let reason = line.result.players.get(seat)?.forfeit.as_deref()?;
    debug_assert!(line.seats.get(seat).is_some_and(|s| *s == row.bot));
    Some((reason, line.forfeits.iter().find(|f| f.player == seat)))
}

/// The sentence explaining this bot's forfeit (from the recorded facts, or the detail), in
/// the game's `words`.
fn why(line: &ResultLine, seat: usize, fact: Option<&ForfeitFact>, words: &Wording) -> String {
    let Some(p) = line.result.players.get(seat) else { return String::new() };
    match fact {
        Some(f) => capitalise(&f.sentence(words, p.detail.as_deref())),
        None => capitalise(&format!(
            "your bot forfeited ({}): {}",
            p.forfeit.as_deref().unwrap_or("?"),
            p.detail.as_deref().unwrap_or("no detail recorded")
        )),
    }
}

/// The replay page of a match, from a bot page, at the forfeit's tick when there is one.
fn replay_link(m: &MatchRef, tick: Option<usize>) -> String {
    let page = format!("../{}", page_path(&m.replay));
    match tick {
        Some(t) => format!("{page}#tick={t}"),
        None => page,
    }
}

fn forfeits_section(body: &mut String, matches: &[(&MatchRef, Option<&ResultLine>)], row: &Row, words: &Wording) {
    if row.forfeits.is_empty() {
        return;
    }
    let total: u32 = row.forfeits.values().sum();
    let _ = write!(
        body,
        r#"<section class="forfeits"><h2>Why your bot forfeited ({total} of {} games)</h2><p class="note">A forfeit ends the bot's game at once.</p>"#,
        row.games
    );
    for (reason, count) in &row.forfeits {
        let _ = write!(body, "<h3>{} × {count}</h3><ul>", html(reason));
        let mut shown = 0;
        for (m, line) in matches {
            let Some(line) = line else { continue };
            let Some((r, fact)) = own_forfeit(row, m, Some(line)) else { continue };
            if r != reason {
                continue;
            }
            shown += 1;
            if shown > EXAMPLES {
                continue;
            }
            let tick = fact.and_then(|f| f.tick);
            let _ = write!(
                body,
                r#"<li><span class="what">vs {} on {}:</span> {} <a href="{}">watch{}</a></li>"#,
                html(&m.opponents.join(", ")),
                html(&m.map),
                html(&why(line, m.seat - 1, fact, words)),
                html(&replay_link(m, tick)),
                tick.map_or(String::new(), |t| format!(" {} {t}", words.step))
            );
        }
        if shown > EXAMPLES {
            let _ = write!(body, "<li class=\"note\">… and {} more in the table below.</li>", shown - EXAMPLES);
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
}

fn per_map_section(body: &mut String, league: &League<'_>, row: &Row) {
    body.push_str(r#"<div><h2>Score per map</h2><table class="permap"><thead><tr><th>map</th><th>games</th><th>won-drawn-lost</th><th>total</th><th>average</th><th>rank on the map</th></tr></thead><tbody>"#);
    for (mi, map) in league.maps.iter().enumerate() {
        let mine: Vec<&MatchRef> = row.matches.iter().filter(|m| m.map == *map).collect();
        if mine.is_empty() {
            continue;
        }
        let total = score_sum(mine.iter().map(|m| m.score));
        let count = |o: &str| mine.iter().filter(|m| m.outcome == o).count();
        // Rank on this map by the game's order there: total score then wins, or wins first.
        // (Its own standing, computed with every other's: `index` holds every row of the board.)
        let me = league.standings[mi][league.index[row.bot.as_str()]];
        let rank = 1 + league.standings[mi].iter().filter(|theirs| **theirs > me).count();
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}-{}-{}</td><td>{total}</td><td>{}</td><td>{rank} of {}</td></tr>",
            html(map),
            mine.len(),
            count("win"),
            count("draw"),
            count("loss"),
            average_text(total, mine.len() as u64),
            league.board.rows.len()
        );
    }
    body.push_str("</tbody></table></div>");
}

/// The versions of the bot the league has seen, oldest first: its label (as every output shows
/// a version, escaped as the rest), when first seen, whether it built, the matches recorded of
/// it, and which one it stands on. Nothing for a bot with none recorded.
fn versions_section(body: &mut String, row: &Row) {
    if row.versions.is_empty() {
        return;
    }
    let _ = write!(
        body,
        r#"<section><h2>Versions ({})</h2><div class="wrap"><table class="permap versions"><thead><tr><th>version</th><th>first seen</th><th>built</th><th>matches</th><th></th></tr></thead><tbody>"#,
        row.versions.len()
    );
    for v in &row.versions {
        let _ = write!(
            body,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if v.current { r#" class="current""# } else { "" },
            html(&v.text(false)),
            html(&v.first_seen),
            if v.ok { "yes" } else { r#"<span class="warn">no</span>"# },
            v.matches,
            if v.current { "← stands on it" } else { "" }
        );
    }
    body.push_str("</tbody></table></div></section>");
}

/// The sum of `scores`, held at the ends of i64 (a results file may hold any scores).
fn score_sum(scores: impl Iterator<Item = i64>) -> i64 {
    scores.fold(0, i64::saturating_add)
}

/// A histogram of the bot's match scores as inline SVG.
fn distribution_section(body: &mut String, matches: &[MatchRef]) {
    body.push_str("<div><h2>Score distribution</h2>");
    if matches.is_empty() {
        body.push_str("<p class=\"note\">No matches.</p></div>");
        return;
    }
    let (lo, hi) = matches.iter().fold((i64::MAX, i64::MIN), |(lo, hi), m| (lo.min(m.score), hi.max(m.score)));
    let lo = lo.min(0);
    // Scores are whole numbers: a small range (Atoms' places, Tactics' fields) gets one bar
    // per score, not twelve bars of width 1 reaching past the highest score.
    // (The span as a u64: a results file may hold any scores, i64::MAX beside a negative one.)
    let span = hi.abs_diff(lo);
    let exact = span < 12;
    let bins = if exact { span as usize + 1 } else { 12 };
    let width = (span as f64 / 12.0).max(1.0);
    let mut counts = vec![0usize; bins];
    for m in matches {
        let b = ((m.score.abs_diff(lo) as f64 / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let (w, h, pad, bar) = (360.0, 150.0, 22.0, 320.0 / bins as f64);
    let range = |from: f64| {
        if exact {
            format!("{from:.0}")
        } else {
            format!("{from:.0} to {:.0}", from + width)
        }
    };
    let _ = write!(
        body,
        r#"<svg class="hist" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="how many matches scored how much">"#
    );
    for (i, c) in counts.iter().enumerate() {
        let bh = (h - 2.0 * pad) * *c as f64 / top as f64;
        let from = lo as f64 + width * i as f64;
        let _ = write!(
            body,
            r#"<rect class="bin" x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}"><title>{} scored {}</title></rect>"#,
            pad + bar * i as f64 + 1.0,
            h - pad - bh,
            bar - 2.0,
            crate::safe_text::count(*c, "match", "matches"),
            range(from)
        );
        if *c > 0 {
            let _ = write!(
                body,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{c}</text>"#,
                pad + bar * (i as f64 + 0.5),
                h - pad - bh - 3.0
            );
        }
    }
    let note = if lo == hi {
        format!("Every match scored {lo}.")
    } else {
        format!("Matches per score range (x: score, from {lo} to {hi}).")
    };
    let _ = write!(
        body,
        r#"<line class="axis" x1="{pad}" x2="{}" y1="{}" y2="{}"/><text x="{pad}" y="{}">{lo}</text><text x="{}" y="{}" text-anchor="end">{hi}</text></svg><p class="note">{note}</p></div>"#,
        w - pad / 2.0 - 4.0,
        h - pad,
        h - pad,
        h - 6.0,
        w - pad / 2.0 - 4.0,
        h - 6.0
    );
}

fn match_row(body: &mut String, out: &Path, row: &Row, m: &MatchRef, line: Option<&ResultLine>, words: &Wording) {
    // (Unsafe characters as JSON's own escapes: `html` would show them in a form JSON cannot read.)
    let opps = crate::safe_text::json(&m.opponents, false).unwrap_or_default();
    let result = match m.outcome.as_str() {
        "win" => "won",
        "loss" => "lost",
        _ => "draw",
    };
    let _ = write!(
        body,
        r#"<tr class="{}" data-opp="{}"><td class="res">{result}</td><td class="opp">"#,
        html(&m.outcome),
        html(&opps)
    );
    for (i, o) in m.opponents.iter().enumerate() {
        let _ = write!(body, r#"{}<a href="../{}">{}</a>"#, if i > 0 { ", " } else { "" }, html(&bot_page(o)), html(o));
    }
    let scores = line.map_or(m.score.to_string(), |l| {
        let mine = m.seat - 1;
        let others: Vec<String> =
            l.result.players.iter().enumerate().filter(|(s, _)| *s != mine).map(|(_, p)| p.score.to_string()).collect();
        format!("{} – {}", m.score, others.join(", "))
    });
    let _ = write!(body, r#"</td><td>{}</td><td>{}</td><td>{scores}</td><td class="why">"#, html(&m.map), m.seat);
    let mut tick = None;
    if let Some(line) = line {
        if let Some((reason, fact)) = own_forfeit(row, m, Some(line)) {
            tick = fact.and_then(|f| f.tick);
            let _ = write!(
                body,
                r#"<b class="ff">{}</b> {}"#,
                html(reason),
                html(&crate::safe_text::shorten(&why(line, m.seat - 1, fact, words), 400))
            );
            let log = format!("logs/{}.log", line.key);
            if out.join(&log).exists() {
                let _ = write!(body, r#" <a href="../{}">stderr log</a>"#, html(&log));
            }
        }
        for (s, p) in line.result.players.iter().enumerate() {
            if s != m.seat - 1 {
                if let Some(reason) = &p.forfeit {
                    let who = line.seats.get(s).map_or("the opponent", String::as_str);
                    let _ = write!(body, r#"<span class="note">{} forfeited ({})</span>"#, html(who), html(reason));
                }
            }
        }
    }
    let _ =
        write!(body, r#"</td><td><a class="replay-link" href="{}">watch</a></td></tr>"#, html(&replay_link(m, tick)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::leaderboard::test_board;
    use crate::standings::ForfeitRule;

    /// Pages of results holding any scores (a results file edited or damaged: i64::MAX beside
    /// a negative score) are written: the histogram's span overflowed and asked for a vector
    /// of 2^64 bars (`arena leaderboard` panicked, "capacity overflow"). Its bars and the
    /// sums stay within their ends. (Without the fix, this test panics: its own control.)
    #[test]
    fn pages_of_extreme_scores_are_written() {
        use crate::standings::leaderboard::test_result;
        let bots: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let results = [
            test_result("k1", ["a", "b"], [i64::MAX, i64::MIN], None),
            test_result("k2", ["b", "a"], [i64::MAX, -5], None),
            test_result("k3", ["a", "b"], [i64::MAX, i64::MAX], None),
        ];
        let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &results, 3, false);
        let dir = tempfile::tempdir().unwrap();
        write_pages(dir.path(), "t", &board, &results).unwrap();
        let page = std::fs::read_to_string(dir.path().join(bot_page("a"))).unwrap();
        assert_eq!(page.matches(r#"<rect class="bin""#).count(), 12, "twelve bars: {page}");
        assert!(std::fs::read_to_string(dir.path().join("index.html")).unwrap().contains("</html>"));
        assert_eq!(score_sum([i64::MAX, 1].into_iter()), i64::MAX);
        assert_eq!(score_sum([i64::MIN, -1].into_iter()), i64::MIN);
    }

    /// A page that cannot be written is named once, by its own path: its folder's name was put
    /// before an error that named the file already ("OUT: OUT/bots: not a folder", "OUT: Permission
    /// denied … at path OUT/bots/.tmp-…"). The controls: the errors below name no path of their own.
    #[test]
    fn a_page_that_cannot_be_written_is_named_once() {
        let bots: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &[], 0, false);
        let dir = tempfile::tempdir().unwrap();
        let in_the_way = dir.path().join("bots");
        std::fs::write(&in_the_way, "").unwrap();
        let control = crate::files::make_folder(&in_the_way).unwrap_err().to_string();
        assert!(!control.contains("bots"), "the control: {control}");
        let err = write_pages(dir.path(), "t", &board, &[]).unwrap_err();
        assert_eq!(err.path, in_the_way);
        assert_eq!(err.to_string(), format!("{}: {control}", in_the_way.display()));
        std::fs::remove_file(&in_the_way).unwrap();
        // A page where a folder is: the page named, no temporary's path.
        std::fs::create_dir_all(dir.path().join("index.html/x")).unwrap();
        let err = write_pages(dir.path(), "t", &board, &[]).unwrap_err().to_string();
        assert_eq!(err.matches(&*dir.path().to_string_lossy()).count(), 1, "{err}");
        assert!(err.starts_with(&format!("{}: ", dir.path().join("index.html").display())), "{err}");
        assert!(!err.contains(crate::files::TEMPORARY_PREFIX), "{err}");
    }

    /// A league's `bots/` that is a link of another user's (a student's machine writing the
    /// shared folder made it one to a teacher's folder) is refused, named, before anything is
    /// written: the teacher's pages there are neither deleted nor overwritten. The control: the
    /// same link made by the user running the arena (a teacher's own, `bots` on another disk)
    /// is followed, and there the stale page is deleted as a league's own. Needs root to give
    /// the link to another user (skipped, said, otherwise).
    #[test]
    fn a_bots_folder_linked_by_another_user_is_neither_written_nor_cleaned() {
        // SAFETY: geteuid takes nothing and cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root can give a link to another user");
            return;
        }
        let bots: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &[], 0, false);
        let dir = tempfile::tempdir().unwrap();
        let teacher = dir.path().join("teacher");
        std::fs::create_dir(&teacher).unwrap();
        let grades = teacher.join("grades.html");
        std::fs::write(&grades, "<p>grades</p>").unwrap();
        let out = dir.path().join("league");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&teacher, out.join("bots")).unwrap();
        std::os::unix::fs::lchown(out.join("bots"), Some(65534), Some(65534)).unwrap();
        let err = write_pages(&out, "t", &board, &[]).unwrap_err();
        assert_eq!(err.path, out.join("bots"));
        assert!(err.to_string().contains("a symbolic link made by another user (uid 65534)"), "{err}");
        assert!(err.to_string().contains("chown -h 0 "), "{err}");
        let left: Vec<_> = std::fs::read_dir(&teacher).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("grades.html")], "the teacher's folder as it was");
        // `assets/` so linked: refused too, nothing written there.
        std::os::unix::fs::symlink(&teacher, out.join("assets")).unwrap();
        std::os::unix::fs::lchown(out.join("assets"), Some(65534), Some(65534)).unwrap();
        let err = super::super::write_assets(&out).unwrap_err();
        assert_eq!(err.path, out.join("assets"));
        assert_eq!(std::fs::read_dir(&teacher).unwrap().count(), 1, "nothing written in the teacher's folder");
        std::fs::remove_file(out.join("assets")).unwrap();
        // The control: the same link, the arena's user's own.
        std::os::unix::fs::lchown(out.join("bots"), Some(0), Some(0)).unwrap();
        write_pages(&out, "t", &board, &[]).unwrap();
        assert!(!grades.exists(), "the control: a page not a bot's is removed through a link of one's own");
        assert!(teacher.join("a.html").is_file(), "the control: written through it");
    }

    /// Stale pages are removed in the folder opened, never through a link put in a page's
    /// place, and a link of another user's in `assets/`'s place is refused too.
    #[test]
    fn stale_pages_are_removed_through_the_folder_s_descriptor() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("league");
        std::fs::create_dir_all(out.join("bots")).unwrap();
        let teacher = dir.path().join("mine.html");
        std::fs::write(&teacher, "mine").unwrap();
        std::os::unix::fs::symlink(&teacher, out.join("bots/gone.html")).unwrap();
        std::fs::write(out.join("bots/old.html"), "old").unwrap();
        std::fs::write(out.join("bots/keep.txt"), "keep").unwrap();
        let bots: Vec<String> = ["a"].iter().map(|s| s.to_string()).collect();
        let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &[], 0, false);
        write_pages(&out, "t", &board, &[]).unwrap();
        assert!(!out.join("bots/old.html").exists(), "a stale page removed");
        assert!(out.join("bots/a.html").is_file() && out.join("bots/keep.txt").is_file());
        assert_eq!(std::fs::read_to_string(&teacher).unwrap(), "mine", "a link's file untouched");
    }

    /// The index's warning box lists the bots whose build failed, never those whose build went
    /// well (the quick start's tournament showed every sample bot there, with an empty reason).
    #[test]
    fn the_index_warns_only_of_failed_builds() {
        let bots: Vec<String> = ["good", "stale", "broken"].iter().map(|s| s.to_string()).collect();
        let failures = BTreeMap::from([("broken".to_string(), "build `make` failed: bot.c:1: error".to_string())]);
        let mut board = test_board(ForfeitRule::Loss, &bots, &failures, &[], 0, false);
        for row in &mut board.rows {
            row.build_log = Some(format!("builds/{}-1.log", row.bot));
            if row.bot == "stale" {
                row.note = Some("build failed at 2026-12-03, standing from v1".to_string());
            }
        }
        let page = index_page("t", &board, &[]);
        let notes = &page[page.find(r#"id="notes""#).expect("a warning box")..];
        let notes = &notes[..notes.find("</section>").unwrap()];
        assert!(
            notes.contains("<b>stale</b>: build failed at 2026-12-03") && notes.contains("builds/stale-1.log"),
            "{notes}"
        );
        assert!(
            notes.contains("<b>broken</b>: build `make` failed") && notes.contains("builds/broken-1.log"),
            "{notes}"
        );
        assert!(!notes.contains("good"), "a good build is no warning: {notes}");
        // Control: with every build good there is no box at all.
        board.rows.retain(|r| r.bot == "good");
        assert!(!index_page("t", &board, &[]).contains(r#"id="notes""#));
    }

    /// A bot that played no game is listed as unable to play only when its own start failed
    /// its matches (the error named it): not its opponent, who played none either. The
    /// control: the bot the error named is listed, with the error.
    #[test]
    fn only_the_bot_whose_start_failed_is_listed_as_unable_to_play() {
        let bots: Vec<String> = ["carol", "slow"].iter().map(|s| s.to_string()).collect();
        let mut board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &[], 2, false);
        let why = "bot `slow`: cannot start `./run.sh`: No such file or directory (os error 2)";
        for row in &mut board.rows {
            row.unstarted = (row.bot == "slow").then(|| why.to_string());
        }
        let row = |name: &str| board.rows.iter().find(|r| r.bot == name).unwrap();
        assert_eq!((row("carol").games, row("slow").games), (0, 0));
        assert_eq!(could_not_play(row("carol")), None);
        assert_eq!(could_not_play(row("slow")), Some(why));
    }

    /// A bot that cannot play because its folder is missing or reached through a link has no
    /// build log: the warning box, which a page read without its script shows, lists it with
    /// why all the same (it listed only failures with a log). The control: a bot with neither a
    /// failure nor a note is not listed.
    #[test]
    fn the_index_lists_a_bot_that_cannot_play_without_a_build_log() {
        let bots: Vec<String> = ["good", "zed", "gus"].iter().map(|s| s.to_string()).collect();
        let failures = BTreeMap::from([
            ("zed".to_string(), "its folder subs/zed is missing".to_string()),
            ("gus".to_string(), "its folder subs/gus is a symbolic link (to ../<alice>)".to_string()),
        ]);
        let board = test_board(ForfeitRule::Loss, &bots, &failures, &[], 0, false);
        assert!(board.rows.iter().all(|r| r.build_log.is_none() && r.note.is_none()));
        let page = index_page("t", &board, &[]);
        let notes = &page[page.find(r#"id="notes""#).expect("a warning box")..];
        let notes = &notes[..notes.find("</section>").unwrap()];
        assert!(notes.contains("<li><b>zed</b>: its folder subs/zed is missing</li>"), "{notes}");
        assert!(notes.contains("<li><b>gus</b>: its folder subs/gus is a symbolic link (to ../&lt;alice&gt;)</li>"));
        assert!(!notes.contains("good") && !notes.contains("build log"), "{notes}");
        // It is before the script's part of the page, not drawn by it.
        assert!(page.find(r#"id="notes""#) < page.find(r#"<main id="league">"#));
    }

    /// Every page shows each bot's version as the other outputs do ([`Row::version_text`]): in
    /// the index's data, which its table draws, and in a bot page's header, with when the
    /// league first saw it; `-` for a bot with none. A label read from the record is text the
    /// arena did not write (a hand-edited `tournament.json`): hostile text in it stays text on
    /// the bot page and in the index's data, whose JSON reads back the same. The controls: the
    /// hostile label reaches both pages (escaped), and as plain JSON it would close the
    /// page's data element.
    #[test]
    fn the_pages_show_each_bots_version_and_hostile_text_in_it_stays_inert() {
        let results = [crate::standings::leaderboard::test_result("1", ["a", "b"], [5, 1], None)];
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let mut board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &results, 1, false);
        let hostile = "v2 </script><script>alert(1)</script><b onload=x>\u{202e}'\"";
        board.rows[0].version = Some("v2 0dbb175".to_string());
        board.rows[0].version_at = Some("2026-12-05T12:54:03Z".to_string());
        board.rows[1].version = Some(hostile.to_string());
        board.rows[1].version_at = Some("<i>then</i>".to_string());
        let page = index_page("t", &board, &results);
        let start = page.find(r#"<script type="application/json" id="data">"#).unwrap();
        let json = &page[start..][page[start..].find('>').unwrap() + 1..];
        let json = &json[..json.find("</script>").expect("the data element ends")];
        let data: serde_json::Value = serde_json::from_str(json).unwrap();
        let shown = |k: usize| (data["bots"][k]["version"].as_str(), data["bots"][k]["version_at"].as_str());
        assert_eq!(shown(0), (Some("v2 0dbb175"), Some("2026-12-05T12:54:03Z")));
        assert_eq!(shown(1), (Some(hostile), Some("<i>then</i>")), "read back the same");
        assert_eq!(shown(2), (Some("-"), None), "no version: '-', as in the terminal");
        assert_eq!(page.matches("<script").count(), 3, "the data and the two scripts, no more: {page}");
        assert!(!page.contains("alert(1)</script>") && !page.contains('\u{202e}'), "{page}");
        let raw = serde_json::to_string(hostile).unwrap();
        assert!(raw.contains("</script><script>"), "the control: plain JSON would end the data element");

        let league = League::new(&board, &results);
        let out = Path::new("/nonexistent");
        let header = |k: usize| {
            let page = bot_page_html(&league, out, &board.rows[k]);
            let sub = &page[page.find(r#"<div class="sub">"#).unwrap()..];
            sub[..sub.find("</div>").unwrap()].to_string()
        };
        assert!(header(0).contains(">version v2 0dbb175, first seen 2026-12-05T12:54:03Z · rank 1 of 3 · "));
        let b = header(1);
        assert!(
            b.contains(
                "version v2 &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b onload=x&gt;\\u{202e}&#39;&quot;, \
                 first seen &lt;i&gt;then&lt;/i&gt; · rank 2 of 3"
            ),
            "the control: the label is there, as text: {b}"
        );
        assert!(!b.contains("<script") && !b.contains("<b ") && !b.contains("<i>") && !b.contains('\u{202e}'), "{b}");
        assert!(header(2).contains(">version - · rank "), "{}", header(2));
    }

    /// A bot page lists the bot's versions in a short table: label, when first seen, whether it
    /// built, its matches, the one it stands on marked. A label is text from the record (a
    /// hand-edited `tournament.json`): hostile text stays text. The controls: the hostile label
    /// is there (escaped), and a bot with no versions recorded has no such table.
    #[test]
    fn a_bot_page_lists_its_versions_and_hostile_text_in_them_stays_inert() {
        use crate::standings::leaderboard::VersionSeen;
        let results = [crate::standings::leaderboard::test_result("1", ["a", "b"], [5, 1], None)];
        let bots: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let mut board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &results, 1, false);
        let hostile = "v1 </td><script>alert(1)</script><b onload=x>\u{202e}'\"";
        let seen = |label: &str, ok: bool, matches: usize, current: bool| VersionSeen {
            label: label.to_string(),
            first_seen: "2026-12-05T12:54:03Z".to_string(),
            ok,
            matches,
            current,
        };
        board.rows[0].versions =
            vec![seen(hostile, true, 16, false), seen("failed", false, 0, false), seen("v2 0dbb175", true, 4, true)];
        let league = League::new(&board, &results);
        let page = bot_page_html(&league, Path::new("/nonexistent"), &board.rows[0]);
        let table = &page[page.find("<h2>Versions (3)</h2>").expect("a versions table")..];
        let table = &table[..table.find("</section>").unwrap()];
        assert!(
            table.contains(
                "<tr><td>v1 &lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b onload=x&gt;\\u{202e}&#39;&quot;</td>\
                 <td>2026-12-05T12:54:03Z</td><td>yes</td><td>16</td><td></td></tr>"
            ),
            "the control: the label is there, as text: {table}"
        );
        assert!(table.contains(
            r#"<td>failed</td><td>2026-12-05T12:54:03Z</td><td><span class="warn">no</span></td><td>0</td>"#
        ));
        assert!(table.contains(r#"<tr class="current"><td>v2 0dbb175</td><td>2026-12-05T12:54:03Z</td><td>yes</td><td>4</td><td>← stands on it</td></tr>"#), "{table}");
        assert!(!table.contains("<script") && !table.contains("<b ") && !table.contains('\u{202e}'), "{table}");
        assert_eq!(page.matches("<script").count(), 2, "the page's own two scripts, no more");
        let other = bot_page_html(&league, Path::new("/nonexistent"), &board.rows[1]);
        assert!(!other.contains("<h2>Versions"), "the control: no versions, no table");
    }

    /// The index's table has the version column after the bot's, as the leaderboard's other
    /// outputs: the script's header, its row cells and the style's grid tracks agree in number
    /// (one more column in the script alone would shift every cell under the wrong heading).
    #[test]
    fn the_index_table_has_a_version_column_its_header_cells_and_grid_agree_on() {
        let script = include_str!("league.js");
        let cols = &script[script.find("const cols = [").unwrap()..];
        let cols = &cols[..cols.find("\n").unwrap()];
        assert!(cols.contains(r#"["bot", "bot"], ["version", "version"], ["total", "total score"]"#), "{cols}");
        let headings = cols.matches("\", \"").count();
        let row = &script[script.find("function rowEl").unwrap()..];
        let row = &row[..row.find("return r;").unwrap()];
        assert!(row.contains(r#"const ver = cell(b.version, "ver");"#), "drawn from the data, as text: {row}");
        let cells = row.matches("cell(").count();
        let css = include_str!("league.css");
        let grid = &css[css.find(".vrow { display: grid; grid-template-columns:").unwrap()..];
        let grid = &grid[grid.find("columns:").unwrap() + "columns:".len()..];
        let grid = &grid[..grid.find(';').unwrap()];
        let (mut depth, mut tracks, mut in_track) = (0, 0, false);
        for c in grid.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                c if c.is_whitespace() && depth == 0 => in_track = false,
                _ if !in_track => (in_track, tracks) = (true, tracks + 1),
                _ => {}
            }
        }
        assert_eq!((headings, cells, tracks), (11, 11, 11), "{grid}");
    }

    /// The page is given what the leaderboard shows, rounded by the arena: an average on an
    /// exact tie (28020 / 16) in tenths, 17513 (1751.3 as in the terminal; the control: a
    /// page's `toFixed` of a float and Rust's `{:.1}` disagreed on it), overall and per map; a
    /// bot that never played has the rating `-`, as in the terminal, and no interval.
    #[test]
    fn the_page_shows_the_leaderboards_rounding_and_no_rating_for_a_bot_that_never_played() {
        let results: Vec<ResultLine> = (0..16)
            .map(|k| {
                let score = if k == 0 { 1755 } else { 1751 };
                crate::standings::leaderboard::test_result(&format!("{k:02}"), ["a", "b"], [score, 0], None)
            })
            .collect();
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let failures = BTreeMap::from([("c".to_string(), "build failed".to_string())]);
        let board = test_board(ForfeitRule::Loss, &bots, &failures, &results, 16, false);
        let league = League::new(&board, &results);
        let data = serde_json::to_value(league.data("t")).unwrap();
        let a = &data["bots"][0];
        assert_eq!((a["name"].as_str(), a["avg"].as_i64()), (Some("a"), Some(17513)));
        assert_eq!(data["per_map"][0][0][5].as_i64(), Some(17513), "{}", data["per_map"]);
        assert_eq!(a["rating_text"].as_str(), Some(board.rows[0].rating_text().as_str()));
        assert!(a["interval"].is_string());
        let c = &data["bots"][2];
        assert_eq!((c["name"].as_str(), c["rating_text"].as_str(), c.get("interval")), (Some("c"), Some("-"), None));
        assert!(c["rating"].is_number(), "the number stays, for the chart's scale and a program");
        let page = bot_page_html(&league, Path::new("/nonexistent"), &board.rows[0]);
        assert!(page.contains("average 1751.3 · rating "), "{page}");
        assert!(page.contains("<td>1751.3</td>"), "the per-map table: {page}");
        let page = bot_page_html(&league, Path::new("/nonexistent"), &board.rows[2]);
        assert!(page.contains("rating -</div>") && !page.contains("95 %"), "{page}");
        // No average either (it said 0.0), where b, which played and scored 0, averages 0.0 (the control).
        assert!(page.contains("0 games: 0 won, 0 drawn, 0 lost · average - · rating -"), "{page}");
        assert_eq!((c["avg"].clone(), data["bots"][1]["avg"].as_i64()), (serde_json::Value::Null, Some(0)));
        let page = bot_page_html(&league, Path::new("/nonexistent"), &board.rows[1]);
        assert!(page.contains("average 0.0 · rating "), "{page}");
        // The page's script prints the tenths as they are: its own rounding of the float (the
        // control) gave the other digit.
        let script = include_str!("league.js");
        assert!(!script.contains("toFixed(1), \"num\"") && script.contains("x.games > 0 ? tenths(x.avg) : \"-\""));
        assert!(script.contains("cell(average(x), \"num\")"), "the table's average cell, overall and per map");
        assert!(!script.contains("Math.round(b.rating)"), "the rating's text is the arena's");
    }

    /// A failed build's reason names its log ("(full log: builds/….log)"): the banner links it
    /// there, once; a reason that does not name it (the control) gets the link after it.
    #[test]
    fn the_banner_links_a_build_log_once() {
        let log = "builds/carol-1796464758.log";
        let why = format!("build `make` failed: bot.c:20: error (full log: {log})");
        let html_of = with_log_link(&why, Some(log));
        assert_eq!(html_of.matches(log).count(), 2, "the text and the href: {html_of}");
        assert!(html_of.ends_with(&format!(r#"(full log: <a href="{log}">{log}</a>)"#)), "{html_of}");
        assert!(!html_of.contains("build log</a>"), "{html_of}");
        let other = with_log_link("build failed at 2026-12-03, standing from v1", Some(log));
        assert!(other.ends_with(&format!(r#"v1 <a href="{log}">build log</a>"#)), "{other}");
        assert_eq!(with_log_link("a < b", None), "a &lt; b");
    }

    /// A bot's rank on a map follows the game's ranking: a game ranked by wins (Tactics) ranks
    /// two narrow wins above one big one there too, as the leaderboard does. The control: a
    /// game ranked by total score puts the big win first.
    #[test]
    fn the_rank_on_a_map_follows_the_games_ranking() {
        let line = |key: &str, seats: [&str; 2], scores: [i64; 2]| {
            crate::standings::leaderboard::test_result(key, seats, scores, None)
        };
        let results = [line("1", ["a", "c"], [1, 0]), line("2", ["c", "a"], [0, 1]), line("3", ["b", "a"], [20, 0])];
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let rank_of_a = |wins_first: bool| {
            let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &results, 3, wins_first);
            let league = League::new(&board, &results);
            let row = board.rows.iter().find(|r| r.bot == "a").unwrap();
            let page = bot_page_html(&league, Path::new("/nonexistent"), row);
            let data = league.data("t");
            (row.rank, page.contains("<td>1 of 3</td>"), data.wins_first)
        };
        assert_eq!(rank_of_a(true), (1, true, true), "two wins rank first on the map as on the leaderboard");
        assert_eq!(rank_of_a(false), (2, false, false), "by total score, b's 20 ranks first");
        // Level on score and wins, a bot with fewer losses ranks above, on the leaderboard and
        // on the index page's view of the map, so on the bot page too (it said a tie: 2 of 3).
        // The control: level on losses too, the two share a rank.
        let page_rank = |results: &[ResultLine]| {
            let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), results, results.len(), false);
            let league = League::new(&board, results);
            let row = board.rows.iter().find(|r| r.bot == "a").unwrap();
            let page = bot_page_html(&league, Path::new("/nonexistent"), row);
            (row.rank, (1..=3).find(|k| page.contains(&format!("<td>{k} of 3</td>"))))
        };
        let drawn = [line("1", ["a", "b"], [2, 3]), line("2", ["a", "c"], [1, 1]), line("3", ["c", "b"], [2, 2])];
        assert_eq!(page_rank(&drawn), (3, Some(3)), "c, who lost nothing, ranks above a");
        let level = [line("1", ["a", "b"], [2, 3]), line("2", ["a", "c"], [1, 1]), line("3", ["c", "b"], [2, 3])];
        assert_eq!(page_rank(&level), (2, Some(2)), "the control: a and c level, both second");
    }

    /// A bot page does not say a forfeit scores 0: an Atoms bot that forfeits keeps the
    /// players it outlasted.
    #[test]
    fn a_bot_page_does_not_say_a_forfeit_scores_nothing() {
        let bots = vec!["a".to_string()];
        let board = test_board(ForfeitRule::Loss, &bots, &BTreeMap::new(), &[], 0, false);
        let mut row = board.rows[0].clone();
        row.forfeits.insert("timeout".to_string(), 1);
        let mut body = String::new();
        forfeits_section(&mut body, &[], &row, &Wording::NEUTRAL);
        assert!(body.contains("A forfeit ends the bot's game at once.") && !body.contains("0 points"), "{body}");
    }

    /// A small range of scores gets one bar per score (it had twelve bars of width 1, eight of
    /// them past Atoms' highest score 3); the control: a wide range keeps twelve ranges.
    #[test]
    fn the_score_distribution_has_one_bar_per_score_of_a_small_range() {
        let m = |score: i64| MatchRef {
            key: format!("k{score}"),
            opponents: Vec::new(),
            seat: 1,
            map: "m".to_string(),
            score,
            opponent_scores: Vec::new(),
            outcome: "win".to_string(),
            forfeit: None,
            opponent_forfeits: Vec::new(),
            ended_at: None,
            replay: String::new(),
            log: None,
        };
        let mut body = String::new();
        distribution_section(&mut body, &[m(0), m(3), m(3)]);
        assert_eq!(body.matches("<rect class=\"bin\"").count(), 4, "{body}");
        assert!(
            body.contains("<title>2 matches scored 3</title>") && body.contains("<title>0 matches scored 1</title>")
        );
        let mut wide = String::new();
        distribution_section(&mut wide, &[m(0), m(120)]);
        assert_eq!(wide.matches("<rect class=\"bin\"").count(), 12, "{wide}");
        assert!(wide.contains("<title>1 match scored 0 to 10</title>"), "{wide}");
    }

    #[test]
    fn bot_pages_never_collide_and_stay_file_names() {
        assert_eq!(bot_page("greedy"), "bots/greedy.html");
        assert_eq!(bot_page("cpp-greedy_2"), "bots/cpp-greedy_2.html");
        let odd = bot_page("a b");
        assert!(odd.starts_with("bots/a_b.") && odd.ends_with(".html"), "{odd}");
        assert_ne!(bot_page("a b"), bot_page("a_b"));
        assert_ne!(bot_page("a b"), bot_page("a+b"));
        let hostile = bot_page("../../etc/\u{1b}[2J<x>");
        assert!(hostile["bots/".len()..].chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)), "{hostile}");
        assert!(!hostile.contains(".."));
        assert!(bot_page(&"x".repeat(500)).len() < 80);
        // Names differing only in case are two files on a case-insensitive disk too.
        assert_ne!(bot_page("Alice").to_lowercase(), bot_page("alice").to_lowercase());
        assert_ne!(bot_page("ALICE").to_lowercase(), bot_page("Alice").to_lowercase());
    }
}
