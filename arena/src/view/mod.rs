//! Self-contained HTML pages: a replay viewer (the page shell and controls are shared, each
//! game has its renderer in `viewer.js`) and a tournament index. No server, no network: the
//! script, the styles and the replay itself are inlined, so pages open from the file system
//! and can be published as a static folder.

use std::fmt::Write;

use crate::replay::Replay;
use crate::tournament::leaderboard::Leaderboard;

const CSS: &str = include_str!("viewer.css");
const JS: &str = include_str!("viewer.js");

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The replay's JSON made safe inside a `<script>` element.
fn embedded_json(replay: &Replay) -> String {
    // No `<` at all inside the script block: no answer, name or detail can end it or open a
    // comment (`\u003c` is the same character to JSON).
    serde_json::to_string(replay).unwrap_or_else(|_| "null".to_string()).replace('<', "\\u003c")
}

/// One page that animates `replay`.
pub fn replay_page(replay: &Replay) -> String {
    let names: Vec<String> = replay.result.players.iter().map(|p| p.name.clone()).collect();
    let title = format!("{}: {}", replay.game, names.join(" vs "));
    let verdict = match replay.result.winner.and_then(|w| replay.result.players.get(w)) {
        Some(p) => format!("winner: {}", p.name),
        None => "draw".to_string(),
    };
    let scores: Vec<String> = replay.result.players.iter().map(|p| format!("{} {}", p.name, p.score)).collect();
    format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{CSS}</style></head>
<body>
<header><h1 id="title">{title}</h1><div class="sub">seed {seed} · {steps} steps · result: {scores} ({verdict})</div></header>
<main>
<section id="stage"><div id="board"></div></section>
<aside id="side">
<div class="panel"><div id="controls">
<button id="first" title="first (Home)">|◀</button><button id="prev" title="step back (←)">◀</button>
<button id="play" title="play / pause (space)">▶</button><button id="next" title="step (→)">▶|</button>
<button id="lastbtn" title="last (End)">▶▶|</button>
<input id="scrub" type="range" min="0" value="0" aria-label="tick">
<span id="tickline">tick <b id="tick">0</b> / <span id="ticks">0</span></span>
<label>speed <select id="speed"><option value="400">0.5×</option><option value="200" selected>1×</option><option value="100">2×</option><option value="50">4×</option><option value="20">10×</option></select></label>
</div><div class="keys">space play/pause · ← → step · Home/End</div></div>
<div class="panel"><table class="players" id="players"></table></div>
<div class="panel"><b>this tick</b><div id="events"></div></div>
<div class="panel keys" id="legend"></div>
</aside>
</main>
<script type="application/json" id="replay">{json}</script>
<script>{JS}</script>
</body></html>
"##,
        title = esc(&title),
        seed = replay.seed,
        steps = replay.steps.len(),
        scores = esc(&scores.join(", ")),
        verdict = esc(&verdict),
        json = embedded_json(replay),
    )
}

/// The tournament's index: the leaderboard as a sortable table, each bot's row opening onto
/// its matches, each match linking to its replay page.
pub fn index_page(title: &str, board: &Leaderboard) -> String {
    let mut rows = String::new();
    for row in &board.rows {
        let mut forfeits = if let Some(f) = &row.failure {
            esc(f)
        } else if row.forfeits.is_empty() {
            "-".to_string()
        } else {
            esc(&row.forfeits.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", "))
        };
        if let Some(note) = &row.note {
            let _ = write!(forfeits, " ({})", esc(note));
        }
        if let Some(log) = &row.build_log {
            let _ = write!(forfeits, r#" <a href="{}">build log</a>"#, esc(log));
        }
        let _ = write!(
            rows,
            r#"<tbody class="bot"><tr class="row" data-bot="{bot}"><td data-v="{rank}">{rank}</td><td data-v="{bot}"><button class="open" aria-expanded="false">▸</button> {bot}</td><td data-v="{total}">{total}</td><td data-v="{games}">{games}</td><td data-v="{wins}">{wins}</td><td data-v="{draws}">{draws}</td><td data-v="{losses}">{losses}</td><td data-v="{avg}">{avg:.1}</td><td data-v="{forfeits}">{forfeits}</td><td data-v="{rating}">{rating:.0} ± {dev:.0}</td></tr>"#,
            bot = esc(&row.bot),
            rank = row.rank,
            total = row.total_score,
            games = row.games,
            wins = row.wins,
            draws = row.draws,
            losses = row.losses,
            avg = row.average_score,
            rating = row.rating,
            dev = row.deviation,
        );
        let _ = write!(rows, r#"<tr class="matches" hidden><td colspan="10"><ul>"#);
        for m in &row.matches {
            let page = m.replay.trim_end_matches(".json").to_string() + ".html";
            let log = m.log.as_ref().map_or(String::new(), |l| format!(r#" · <a href="{}">log</a>"#, esc(l)));
            let _ = write!(
                rows,
                r#"<li><a class="replay-link" href="{page}">{text}</a>{log}</li>"#,
                page = esc(&page),
                text = esc(&crate::tournament::leaderboard::match_text(&row.bot, m, false)),
            );
        }
        rows.push_str("</ul></td></tr></tbody>");
    }
    format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{CSS}
table.board {{ border-collapse: collapse; background: #fff; width: 100%; font-variant-numeric: tabular-nums; }}
table.board th {{ cursor: pointer; text-align: left; border-bottom: 2px solid var(--line); padding: 6px; white-space: nowrap; }}
table.board td {{ padding: 6px; border-bottom: 1px solid #eee; }}
.open {{ border: 0; background: none; cursor: pointer; font-size: 14px; }}
.matches ul {{ margin: 4px 0 8px 24px; padding: 0; }} .wrap {{ overflow-x: auto; padding: 16px; }}
</style></head>
<body><header><h1>{title}</h1><div class="sub">{played} · {rule} · click a column to sort, a bot to see its matches</div><div class="sub">{facts}</div></header>
<div class="wrap"><table class="board" id="board"><thead><tr><th>rank</th><th>bot</th><th>total score</th><th>games</th><th>wins</th><th>draws</th><th>losses</th><th>avg score</th><th>forfeits</th><th>rating</th></tr></thead>
{rows}</table></div>
<script>
"use strict";
document.querySelectorAll("tr.row").forEach((tr) => tr.addEventListener("click", (e) => {{
  if (e.target.tagName === "A") return;
  const list = tr.nextElementSibling; list.hidden = !list.hidden;
  tr.querySelector(".open").textContent = list.hidden ? "▸" : "▾";
  tr.querySelector(".open").setAttribute("aria-expanded", String(!list.hidden));
}}));
document.querySelectorAll("#board th").forEach((th, col) => {{
  let up = col !== 0;
  th.addEventListener("click", () => {{
    const table = document.getElementById("board");
    const bodies = Array.from(table.querySelectorAll("tbody.bot"));
    const key = (b) => b.rows[0].cells[col].dataset.v;
    const num = bodies.every((b) => key(b) !== "" && !isNaN(parseFloat(key(b))));
    bodies.sort((a, b) => {{ const x = key(a), y = key(b); const c = num ? parseFloat(x) - parseFloat(y) : x.localeCompare(y); return up ? -c : c; }});
    up = !up;
    bodies.forEach((b) => table.appendChild(b));
  }});
}});
</script></body></html>
"##,
        title = esc(title),
        played = esc(&board.played_text()),
        rule = esc(&board.rule),
        facts = esc(&board.facts_text()),
    )
}
