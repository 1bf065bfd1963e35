//! HTML pages: the replay viewer (the page shell, controls and a generic renderer are shared;
//! a game with a renderer of its own gives it as `Game::renderer`) and a tournament's league
//! pages (`index.html`, one page per bot), written from plain data (`crate::standings`).
//! No server, no network: pages open from the file system and can be published as a static
//! folder. `arena view` makes one self-contained page (script, styles and replay inlined);
//! a tournament folder shares one copy of the scripts and styles in `assets/`, and each
//! replay page holds only its header and its replay, gzip-compressed.
//!
//! Every text a bot controls reaches a page through [`crate::safe_text::html`] or, inside a script,
//! as JSON through [`crate::safe_text::json_in_html`]; the scripts only ever set `textContent`.

pub mod league;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use base64::Engine as _;

use crate::engine::{Registry, Wording};
use crate::explain::forfeit_facts;
use crate::files::{file_safe, write_atomic};
use crate::replay::Replay;
use crate::safe_text::{html, json_in_html};

const COMMON_JS: &str = include_str!("common.js");
const VIEWER_CSS: &str = include_str!("viewer.css");
const VIEWER_JS: &str = include_str!("viewer.js");
const LEAGUE_CSS: &str = include_str!("league.css");
const LEAGUE_JS: &str = include_str!("league.js");

/// The shared scripts and styles of a tournament folder, by their plain names.
const ASSETS: [(&str, &str); 5] = [
    ("common.js", COMMON_JS),
    ("viewer.css", VIEWER_CSS),
    ("viewer.js", VIEWER_JS),
    ("league.css", LEAGUE_CSS),
    ("league.js", LEAGUE_JS),
];

/// Where a shared script or style (`viewer.js`) lives in a tournament folder, relative to it:
/// `assets/viewer.1a2b3c4d.js`, named by its content. A page always loads the version it was
/// written with, even after a newer arena adds its own beside it, and a browser never uses a
/// stale cached copy of a published folder.
pub fn asset(name: &str) -> String {
    static NAMES: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|(name, text)| {
                let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
                (*name, format!("assets/{stem}.{}.{ext}", &blake3::hash(text.as_bytes()).to_hex()[..8]))
            })
            .collect()
    });
    names.iter().find(|(n, _)| *n == name).map_or_else(|| format!("assets/{name}"), |(_, path)| path.clone())
}

/// A page, script or style that could not be written (or a replay not read back for its
/// page), naming that very file or folder once: the files' I/O error on a path, which a league
/// run takes as its own (`TournamentError: From<PathError>`; `view` and `tournament` never use
/// each other).
pub use crate::files::PathError as PageError;

/// Makes the folder `dir` ([`crate::files::make_folder`]), a link of another user's refused
/// ([`crate::files::refuse_foreign_link`]: nothing written or deleted through it).
fn make_folder(dir: &Path) -> Result<(), PageError> {
    crate::files::refuse_foreign_link(dir).map_err(PageError::on(dir))?;
    crate::files::make_folder(dir).map_err(PageError::on(dir))
}

/// Writes `bytes` to `path` atomically ([`crate::files::write_atomic`]).
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PageError> {
    write_atomic(path, bytes).map_err(PageError::on(path))
}

/// Writes the shared scripts and styles into `dir/assets/` (each atomically, and only when
/// missing: a file's name says its content).
pub fn write_assets(dir: &Path) -> Result<(), PageError> {
    make_folder(&dir.join("assets"))?;
    for (name, text) in ASSETS {
        let path = dir.join(asset(name));
        if !path.is_file() {
            write_file(&path, text.as_bytes())?;
        }
    }
    Ok(())
}

/// The script that draws `replay`'s game: the game's own renderer when `games` has one for
/// it, else none (the viewer's generic table of steps).
fn renderer(replay: &Replay, games: &Registry) -> Option<&'static str> {
    games.get(&replay.game).ok().and_then(|g| g.renderer())
}

/// Where a game's renderer lives in a tournament folder: `assets/render-<game>.<hash>.js`,
/// named by its content like the other assets.
fn renderer_asset(game: &str, script: &str) -> String {
    format!("assets/render-{}.{}.js", file_safe(game), &blake3::hash(script.as_bytes()).to_hex()[..8])
}

/// Where [`write_renderer`] puts the renderer of `replay`'s game in a tournament folder (if it
/// has one), relative to the folder; nothing is written.
pub fn renderer_path(replay: &Replay, games: &Registry) -> Option<String> {
    renderer(replay, games).map(|script| renderer_asset(&replay.game, script))
}

/// Writes the renderer of `replay`'s game (if it has one) into `dir/assets/`, when missing;
/// returns its path relative to `dir`.
pub fn write_renderer(dir: &Path, replay: &Replay, games: &Registry) -> Result<Option<String>, PageError> {
    let Some(script) = renderer(replay, games) else { return Ok(None) };
    let rel = renderer_asset(&replay.game, script);
    let path = dir.join(&rel);
    if !path.is_file() {
        make_folder(&dir.join("assets"))?;
        write_file(&path, script.as_bytes())?;
    }
    Ok(Some(rel))
}

/// Where a replay page finds the rest of a tournament folder.
#[derive(Debug, Clone, Default)]
pub struct Links {
    /// The leaderboard page, relative to the replay page.
    pub index: Option<String>,
    /// Each player's bot page, relative to the replay page, in player order.
    pub bots: Vec<Option<String>>,
    /// The map the match was played on, as the tournament names it.
    pub map: Option<String>,
}

/// The page's header: title, result, and why each forfeiting player forfeited (with a link to
/// that tick, and the fix its game advises for an answer it could not read).
fn replay_header(replay: &Replay, links: &Links, games: &Registry) -> String {
    let names: Vec<&str> = replay.result.players.iter().map(|p| p.name.as_str()).collect();
    let title = format!("{}: {}", replay.game, names.join(" vs "));
    let verdict = match replay.result.winner.and_then(|w| replay.result.players.get(w)) {
        Some(p) => format!("winner: {}", p.name),
        None if replay.result.players.len() < 2 => "single-player test".to_string(),
        None => "draw".to_string(),
    };
    let scores: Vec<String> = replay.result.players.iter().map(|p| format!("{} {}", p.name, p.score)).collect();
    let map = links.map.as_ref().map_or(String::new(), |m| format!("{m} · "));
    let mut out = String::from("<header>");
    if links.index.is_some() || links.bots.iter().any(Option::is_some) {
        out.push_str("<nav>");
        if let Some(index) = &links.index {
            let _ = write!(out, r#"<a href="{}">← leaderboard</a>"#, html(index));
        }
        for (i, page) in links.bots.iter().enumerate() {
            if let (Some(page), Some(name)) = (page, names.get(i)) {
                let _ = write!(out, r#" · <a href="{}">{}</a>"#, html(page), html(name));
            }
        }
        out.push_str("</nav>");
    }
    let _ = write!(
        out,
        r#"<h1 id="title">{}</h1><div class="sub">{}seed {} · {} steps · result: {} ({})</div>"#,
        html(&title),
        html(&map),
        replay.seed,
        replay.steps.len(),
        html(&scores.join(", ")),
        html(&verdict)
    );
    for fact in forfeit_facts(replay) {
        let Some(p) = replay.result.players.get(fact.player) else { continue };
        let words = games.get(&replay.game).map_or(Wording::NEUTRAL, |g| g.info().wording);
        let jump =
            fact.tick.map_or(String::new(), |t| format!(r##" <a href="#tick={t}">show {} {t}</a>"##, words.step));
        let why = capitalise(&fact.sentence_about(&words, &p.name, p.detail.as_deref()));
        let _ = write!(out, r#"<p class="why">{}{jump}</p>"#, html(&why));
        if let Some(fix) = games.get(&replay.game).ok().and_then(|game| fact.fix(replay, game)) {
            let _ = write!(out, r#"<p class="why">Fix: {}</p>"#, html(&fix));
        }
    }
    out.push_str("</header>");
    out
}

/// `text` with its first letter in upper case.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// The start of every page: doctype, character set, viewport and title.
fn head(title: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{}</title>"#,
        html(title)
    )
}

/// One self-contained page that animates `replay` (`arena view`): the viewer's script and
/// styles, the renderer of its game (as `games` has it) and the replay's JSON are inlined.
pub fn replay_page(replay: &Replay, games: &Registry) -> String {
    replay_page_under(replay, games, "")
}

/// [`replay_page`] of a replay that failed verification (`arena view --unverified`), under a
/// banner saying so and `why` (from the replay: escaped, cut to 2000 characters), so that the
/// page is never taken for a genuine result.
pub fn unverified_replay_page(replay: &Replay, games: &Registry, why: &str) -> String {
    let banner = format!(
        r#"<div class="unverified" role="alert" style="background:#fde68a;color:#7c2d12;border:2px solid #b45309;padding:0.6em 1em;margin:0 0 0.5em;font-weight:bold">NOT VERIFIED: this replay failed verification (it does not re-simulate to what it records), so its moves and result may be forged or broken. Why: {}</div>"#,
        html(&crate::safe_text::shorten(why, 2000))
    );
    replay_page_under(replay, games, &banner)
}

/// [`replay_page`] with `banner` (HTML) first in the body.
fn replay_page_under(replay: &Replay, games: &Registry, banner: &str) -> String {
    let json = json_in_html(replay).unwrap_or_else(|_| "null".to_string());
    let names: Vec<&str> = replay.result.players.iter().map(|p| p.name.as_str()).collect();
    let render = renderer(replay, games).map_or(String::new(), |script| format!("<script>{script}</script>\n"));
    format!(
        "{}<style>{VIEWER_CSS}</style></head>\n<body>{banner}{}\n<script type=\"application/json\" id=\"replay\">{json}</script>\n<script>{COMMON_JS}</script>\n{render}<script>{VIEWER_JS}</script>\n</body></html>\n",
        head(&format!("{}: {}", replay.game, names.join(" vs "))),
        replay_header(replay, &Links::default(), games),
    )
}

/// A tournament's replay page, beside its replay in `replays/`: the header, the replay file's
/// bytes (`file`, gzip-compressed JSON) in base64, and the folder's shared viewer with the
/// renderer of the game (`render`, a path relative to the folder: see [`write_renderer`]);
/// `games` has the game's advice for the header.
pub fn league_replay_page(
    replay: &Replay,
    file: &[u8],
    links: &Links,
    render: Option<&str>,
    games: &Registry,
) -> String {
    let names: Vec<&str> = replay.result.players.iter().map(|p| p.name.as_str()).collect();
    let data = base64::engine::general_purpose::STANDARD.encode(file);
    let render = render.map_or(String::new(), |path| format!("<script src=\"../{}\"></script>", html(path)));
    format!(
        "{}<link rel=\"stylesheet\" href=\"../{}\"></head>\n<body>{}\n{LEAGUE_REPLAY}{data}</script>\n<script src=\"../{}\"></script>{render}<script src=\"../{}\"></script>\n</body></html>\n",
        head(&format!("{}: {}", replay.game, names.join(" vs "))),
        asset("viewer.css"),
        replay_header(replay, links, games),
        asset("common.js"),
        asset("viewer.js"),
    )
}

/// Whether the folder `league` holds, as its own, every script and style its replay page of
/// `replay` ([`league_replay_page`]) loads: `assets/` a folder (not a link), and in it each
/// asset the page names a regular file (no link followed, no FIFO waited on) byte for byte the
/// one this arena writes. A page byte for byte the league's is only as good as what it loads:
/// a folder copied from a league with its `viewer.<hash>.js` replaced by a script of someone's
/// would run that script in the page `arena view` vouches for.
pub fn league_assets_are_own(league: &Path, replay: &Replay, games: &Registry) -> bool {
    let assets = league.join("assets");
    if !std::fs::symlink_metadata(&assets).is_ok_and(|m| m.file_type().is_dir()) {
        return false;
    }
    let mut wanted: Vec<(String, &str)> =
        ["viewer.css", "common.js", "viewer.js"].iter().map(|name| (asset(name), asset_text(name))).collect();
    if let Some(script) = renderer(replay, games) {
        wanted.push((renderer_asset(&replay.game, script), script));
    }
    wanted.iter().all(|(rel, text)| {
        crate::files::read_own_regular(&league.join(rel), text.len() as u64).is_ok_and(|bytes| bytes == text.as_bytes())
    })
}

/// The text of the shared script or style `name` (`viewer.js`): empty for a name not shared.
fn asset_text(name: &str) -> &'static str {
    ASSETS.iter().find(|(n, _)| *n == name).map_or("", |(_, text)| text)
}

/// The tag before a league replay page's replay (its file's bytes in base64).
const LEAGUE_REPLAY: &str = "<script type=\"application/gzip+base64\" id=\"replay\">";

/// Whether `page` (a page's text) is a league's page of the replay file whose bytes are `file`
/// ([`league_replay_page`]): `arena view` opens it rather than write a page of its own.
pub fn is_league_page_of(page: &str, file: &[u8]) -> bool {
    let data = base64::engine::general_purpose::STANDARD.encode(file);
    page.contains(&format!("{LEAGUE_REPLAY}{data}</script>"))
}

/// The tournament folder whose `replays/` holds `page` (a league's, a merged one's or a
/// published copy's: a `replays` folder beside `index.html`, `tournament.json` or
/// `results.jsonl`), if it is one: its pages are the league's own, which `arena view` must not
/// replace (and `arena publish` publishes every page there).
pub fn league_of_page(page: &Path) -> Option<PathBuf> {
    let page = std::path::absolute(page).ok()?;
    let replays = page.parent()?;
    let league = replays.parent()?;
    // (The tournament's file names: `tournament` is this module's layer, not below it.)
    let marks = ["index.html", "tournament.json", "results.jsonl"];
    (replays.file_name()? == "replays" && marks.iter().any(|m| league.join(m).is_file())).then(|| league.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages' scripts show the same characters as escapes as `safe_text::html` does: the
    /// class of `UNSAFE` in common.js is `is_unsafe` but tab, line feed and carriage return.
    #[test]
    fn the_scripts_show_the_characters_html_shows() {
        let line = COMMON_JS.lines().find(|l| l.contains("const UNSAFE = /[")).expect("UNSAFE in common.js");
        let class = line.split_once("/[").and_then(|(_, r)| r.split_once("]/")).expect("a class").0;
        let code = |item: &str| u32::from_str_radix(item.trim_start_matches("\\u{").trim_end_matches('}'), 16).unwrap();
        let ranges: Vec<(u32, u32)> = class
            .split_inclusive('}')
            .scan(None::<u32>, |open, item| {
                // `\u{a}-\u{b}` arrives as `\u{a}` then `-\u{b}`.
                Some(match item.strip_prefix('-') {
                    Some(end) => open.take().map(|a| (a, code(end))),
                    None => {
                        *open = Some(code(item));
                        Some((code(item), code(item)))
                    }
                })
            })
            .flatten()
            .collect();
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let in_js = ranges.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)));
            let in_rust = crate::safe_text::is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r');
            assert_eq!(in_js, in_rust, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn pages_escape_what_bots_control() {
        let mut replay = Replay::new(
            "some-game",
            1,
            serde_json::json!({}),
            vec![],
            crate::referee::Limits::default(),
            serde_json::json!({}),
        );
        replay.result.players = vec![crate::replay::PlayerResult {
            name: "<img src=x onerror=alert(1)>".into(),
            score: 0,
            finished: false,
            forfeit: Some("malformed".into()),
            detail: Some("found `</script><script>alert(2)</script>`".into()),
        }];
        for page in [
            replay_page(&replay, &Registry::default()),
            league_replay_page(&replay, b"\x1f\x8b", &Links::default(), None, &Registry::default()),
        ] {
            assert!(!page.contains("<img"), "{page}");
            assert!(!page.contains("</script><script>alert"), "{page}");
            assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
        }
    }

    /// An unverified replay's page opens with a banner saying why, that reason escaped (it
    /// comes from the replay) and cut; the control: the same replay's page has no banner.
    #[test]
    fn an_unverified_replay_s_banner_says_why_escaped() {
        let replay = Replay::new(
            "some-game",
            1,
            serde_json::json!({}),
            vec![],
            crate::referee::Limits::default(),
            serde_json::json!({}),
        );
        let why = format!("step 1: `</div><script>alert(1)</script>\u{202e}` {}", "x".repeat(5000));
        let page = unverified_replay_page(&replay, &Registry::default(), &why);
        let body = page.split_once("<body>").map(|(_, b)| b).unwrap_or_default();
        assert!(body.starts_with(r#"<div class="unverified" role="alert""#), "{body}");
        assert!(body.contains("NOT VERIFIED: this replay failed verification"));
        assert!(
            body.contains("Why: step 1: `&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\u{202e}` xxx"),
            "{body}"
        );
        assert!(!page.contains("<script>alert") && !page.contains('\u{202e}'), "escaped");
        let cut = format!("x… [{} more characters]</div>", why.chars().count() - 2000);
        assert!(body.contains(&cut), "cut");
        assert!(!replay_page(&replay, &Registry::default()).contains("NOT VERIFIED"));
    }
}
