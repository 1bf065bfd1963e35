// League pages of a tournament folder. On index.html: the leaderboard (or one map's
// standings), rating intervals, the cross-table and filters, drawn from the JSON embedded in
// the page; the leaderboard and the cross-table render only their visible part, so hundreds
// of bots stay quick. On a bot's page: showing only the matches against one opponent
// (`#vs=NAME`, where the cross-table's cells link) or only lost matches. Text goes into the
// page through textContent only.
"use strict";
(function () {
  const { $, el, svg, shown: shownText, deepShown } = window.arena;
  // An average as the leaderboard shows it: the page is given it in tenths, rounded once by
  // the arena (half away from zero), and only prints them; `-` after no game (no average).
  const tenths = (t) => (t < 0 ? "-" : "") + Math.floor(Math.abs(t) / 10) + "." + (Math.abs(t) % 10);
  const average = (x) => (x.games > 0 ? tenths(x.avg) : "-");

  if (document.body.dataset.page === "bot") botPage();
  else if (document.body.dataset.page === "index") indexPage();

  // ---- A bot's page -----------------------------------------------------------------------
  function botPage() {
    const rows = Array.from(document.querySelectorAll("#matches tbody tr"));
    const note = $("vsnote");
    const only = el("select");
    [["all", "all matches"], ["loss", "lost matches"], ["forfeit", "matches it forfeited"]].forEach(([v, t]) => {
      const o = el("option", "", t); o.value = v; only.appendChild(o);
    });
    const label = el("label", "show", "show ");
    label.appendChild(only);
    note.parentNode.insertBefore(label, note);
    function apply() {
      const m = /(?:^#|&)vs=([^&]*)/.exec(location.hash);
      let vs = null;
      try { vs = m ? shownText(decodeURIComponent(m[1])) : null; } catch (e) { vs = null; }
      let count = 0;
      rows.forEach((tr) => {
        const opps = deepShown(JSON.parse(tr.dataset.opp || "[]"));
        const ok = (!vs || opps.includes(vs)) &&
          (only.value === "all" || (only.value === "loss" ? tr.classList.contains("loss") : tr.querySelector(".ff") !== null));
        tr.hidden = !ok;
        if (ok) count++;
      });
      note.hidden = !vs;
      note.textContent = "";
      if (vs) {
        note.append("Showing the " + count + " matches against " + vs + " · ");
        const all = el("a", "", "show all matches"); all.href = "#"; note.appendChild(all);
      }
      document.body.dataset.shown = String(count);
    }
    only.addEventListener("change", apply);
    window.addEventListener("hashchange", apply);
    apply();
    document.body.dataset.ready = "1";
  }

  // ---- The index ------------------------------------------------------------------------
  function indexPage() {
    const D = deepShown(JSON.parse($("data").textContent));
    const bots = D.bots, n = bots.length;
    const main = $("league");
    const state = { q: "", map: -1, reason: "", sort: null, up: false };
    const pair = (i, j) => (i * (2 * n - i - 1) / 2 + j - i - 1) * 5;

    // Cross data of every map added up (one map: itself).
    const crossAll = D.cross.length === 1 ? D.cross[0] : D.cross.reduce((acc, c) => { c.forEach((v, k) => { acc[k] += v; }); return acc; }, new Array(D.cross.length ? D.cross[0].length : 0).fill(0));
    const cross = () => (state.map < 0 ? crossAll : D.cross[state.map]);
    /** The record of bot i against bot j: wins, draws, losses, points of i, points of j. */
    function record(i, j) {
      const c = cross();
      if (i < j) { const k = pair(i, j); return [c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4]]; }
      const k = pair(j, i); return [c[k + 2], c[k + 1], c[k], c[k + 4], c[k + 3]];
    }

    // One line per bot for the current view: overall, or one map's standings.
    function line(i) {
      const b = bots[i];
      if (state.map < 0) return { i, rank: b.rank, total: b.total, games: b.games, w: b.w, d: b.d, l: b.l, avg: b.avg };
      const [total, games, w, d, l, avg] = D.per_map[state.map][i];
      return { i, rank: 0, total, games, w, d, l, avg };
    }
    function ranked() {
      const lines = bots.map((_, i) => line(i));
      if (state.map >= 0) {
        // The game's order: total score then wins, or wins first (Tactics); then fewer losses, a
        // bot that cannot play last. Lines equal on all of these share a rank (1, 2, 2, 4), as on
        // the leaderboard and the bot pages, and are listed by name.
        const first = (x) => (D.wins_first ? x.w : x.total), second = (x) => (D.wins_first ? x.total : x.w);
        const order = (a, b) => (!!bots[a.i].failure - !!bots[b.i].failure) || first(b) - first(a) || second(b) - second(a) || a.l - b.l;
        lines.sort((a, b) => order(a, b) || bots[a.i].name.localeCompare(bots[b.i].name));
        lines.forEach((x, k) => { x.rank = k > 0 && order(lines[k - 1], x) === 0 ? lines[k - 1].rank : k + 1; });
      }
      return lines;
    }
    function matches(i) {
      const b = bots[i];
      if (state.q && !b.name.toLowerCase().includes(state.q)) return false;
      if (state.reason === "__failed") return !!b.failure;
      if (state.reason) return (b.forfeits[state.reason] || 0) > 0;
      return true;
    }

    // ---- filters
    const filters = el("section", "filters");
    const q = el("input"); q.type = "search"; q.id = "q"; q.placeholder = "search a bot"; q.setAttribute("aria-label", "bot name");
    const map = el("select"); map.id = "map";
    map.appendChild(Object.assign(el("option", "", "all maps"), { value: "-1" }));
    D.maps.forEach((m, k) => map.appendChild(Object.assign(el("option", "", m), { value: String(k) })));
    const reason = el("select"); reason.id = "reason";
    reason.appendChild(Object.assign(el("option", "", "any forfeits"), { value: "" }));
    D.reasons.forEach((r) => reason.appendChild(Object.assign(el("option", "", "forfeited: " + r), { value: r })));
    reason.appendChild(Object.assign(el("option", "", "could not play (build or start failed)"), { value: "__failed" }));
    const count = el("span", "count"); count.id = "count";
    const lab = (t, c) => { const l = el("label", "", t); l.appendChild(c); return l; };
    filters.append(lab("bot ", q), lab("map ", map), lab("", reason), count);
    main.appendChild(filters);

    // ---- bots that could not play
    const failed = bots.filter((b) => b.failure);
    if (failed.length) {
      const box = el("section", "failed"); box.id = "failed";
      box.appendChild(el("b", "", "⚠ " + failed.length + (failed.length === 1 ? " bot" : " bots") + " could not play: "));
      failed.forEach((b, k) => {
        if (k) box.append(" · ");
        const a = el("a", "", b.name); a.href = b.page; box.appendChild(a);
        box.append(" (" + (b.failure.length > 120 ? b.failure.slice(0, 120) + "…" : b.failure) + ")");
      });
      main.appendChild(box);
    }

    // ---- rating intervals, one mark per bot in rank order
    const rated = bots.filter((b) => !b.failure && b.games > 0);
    const lo = Math.min(...rated.map((b) => b.rating - 1.96 * b.dev), 1500);
    const hi = Math.max(...rated.map((b) => b.rating + 1.96 * b.dev), 1500);
    const chartBox = el("section", "ratings");
    chartBox.appendChild(el("h2", "", "Ratings"));
    chartBox.appendChild(el("p", "note", "Each bot in rank order: the dot is its rating (Glicko-2), the bar its 95 % interval (± 1.96 deviations). Overlapping bars: the games played do not tell those bots apart. ✕: could not play."));
    const step = Math.max(3, Math.min(48, Math.floor(900 / Math.max(1, n)))), H = 200, padL = 44, padB = 18;
    const W = padL + step * n + 10;
    const y = (v) => 8 + (H - padB - 16) * (1 - (v - lo) / Math.max(1, hi - lo));
    const chart = svg("svg", { id: "ratingchart", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "rating intervals in rank order" });
    [lo, (lo + hi) / 2, hi].forEach((v) => {
      chart.appendChild(svg("line", { x1: padL - 4, x2: W, y1: y(v), y2: y(v), class: "grid" }));
      const t = svg("text", { x: padL - 6, y: y(v) + 4, "text-anchor": "end" }); t.textContent = String(Math.round(v)); chart.appendChild(t);
    });
    const marks = [];
    bots.forEach((b, i) => {
      const x = padL + step * i + step / 2;
      const a = svg("a", { href: b.page });
      const g = svg("g", { class: "mark" + (b.failure ? " failed" : ""), "data-rank": String(b.rank) });
      g.dataset.bot = b.name;
      const title = svg("title");
      if (b.failure || !b.games) {
        title.textContent = "#" + b.rank + " " + b.name + ": could not play";
        const s = Math.max(2, step / 3), yy = H - padB - 4;
        g.append(svg("line", { x1: x - s, x2: x + s, y1: yy - s, y2: yy + s }), svg("line", { x1: x - s, x2: x + s, y1: yy + s, y2: yy - s }));
      } else {
        title.textContent = "#" + b.rank + " " + b.name + ": " + b.rating_text + " (95 %: " + b.interval + ")";
        g.append(svg("line", { x1: x, x2: x, y1: y(b.rating + 1.96 * b.dev), y2: y(b.rating - 1.96 * b.dev), class: "bar", "stroke-width": Math.max(1, Math.min(6, step / 3)) }),
          svg("circle", { cx: x, cy: y(b.rating), r: Math.max(1.5, Math.min(5, step / 3)), class: "dot" }));
      }
      g.appendChild(title);
      a.appendChild(g);
      chart.appendChild(a);
      marks.push(g);
    });
    const axis = svg("text", { x: padL, y: H - 3 }); axis.textContent = "rank 1"; chart.appendChild(axis);
    const axis2 = svg("text", { x: W - 10, y: H - 3, "text-anchor": "end" }); axis2.textContent = "rank " + n; chart.appendChild(axis2);
    const scroller = el("div", "hscroll"); scroller.appendChild(chart); chartBox.appendChild(scroller);
    main.appendChild(chartBox);

    // ---- the leaderboard (or one map's standings), virtual rows
    const ROW = 30;
    const board = el("section", "standings");
    const title = el("h2", "", "Leaderboard"); title.id = "standings-title"; board.appendChild(title);
    const cols = [["rank", "rank"], ["bot", "bot"], ["version", "version"], ["total", "total score"], ["games", "games"], ["w", "won"], ["d", "drawn"], ["l", "lost"], ["avg", "avg score"], ["forfeits", "forfeits"], ["rating", "rating (95 % interval)"]];
    const table = el("div", "vtable"); table.id = "board";
    const headRow = el("div", "vrow head");
    cols.forEach(([key, label], c) => {
      const h = el("button", "th", label); h.type = "button";
      h.addEventListener("click", () => { state.up = state.sort === key ? !state.up : false; state.sort = key; refresh(); });
      headRow.appendChild(h);
      if (c === 0 || (c >= 3 && c <= 8)) h.classList.add("num");
    });
    const body = el("div", "vbody");
    table.append(headRow, body);
    board.appendChild(table);
    main.appendChild(board);
    let shown = [];
    const sortKey = {
      rank: (x) => x.rank, bot: (x) => bots[x.i].name, version: (x) => bots[x.i].version_at || "", total: (x) => x.total, games: (x) => x.games, w: (x) => x.w, d: (x) => x.d,
      l: (x) => x.l, avg: (x) => (x.games > 0 ? x.avg : -Infinity), forfeits: (x) => Object.values(bots[x.i].forfeits).reduce((a, b) => a + b, 0), rating: (x) => (bots[x.i].interval ? bots[x.i].rating : -Infinity),
    };
    function iv(b) {
      const box = el("span", "iv");
      if (b.failure || !b.games) return box;
      const pos = (v) => (100 * (v - lo) / Math.max(1, hi - lo)).toFixed(1) + "%";
      const bar = el("span", "ivbar"); bar.style.left = pos(b.rating - 1.96 * b.dev);
      bar.style.width = (100 * 2 * 1.96 * b.dev / Math.max(1, hi - lo)).toFixed(1) + "%";
      const dot = el("span", "ivdot"); dot.style.left = pos(b.rating);
      box.append(bar, dot);
      return box;
    }
    function rowEl(x, k) {
      const b = bots[x.i];
      const r = el("div", "vrow" + (b.failure ? " failedrow" : ""));
      r.style.top = (k * ROW) + "px";
      r.dataset.bot = b.name;
      const cell = (text, cls) => { const c = el("span", "td" + (cls ? " " + cls : ""), text); r.appendChild(c); return c; };
      cell(String(x.rank), "num");
      const who = cell("", "name");
      if (b.failure) who.appendChild(el("span", "warn", "⚠ "));
      const a = el("a", "", b.name); a.href = b.page; who.appendChild(a);
      const ver = cell(b.version, "ver");
      if (b.version_at) ver.title = b.version + ", first seen " + b.version_at;
      cell(String(x.total), "num"); cell(String(x.games), "num"); cell(String(x.w), "num"); cell(String(x.d), "num"); cell(String(x.l), "num");
      cell(average(x), "num");
      const ff = Object.entries(b.forfeits).map(([k2, v]) => k2 + " " + v).join(", ");
      const f = cell(b.failure ? "could not play: " + b.failure : ff || "-", "ff");
      f.title = f.textContent;
      const rt = cell("", "rating");
      rt.appendChild(iv(b));
      rt.append(b.rating_text);
      return r;
    }
    let drawn = "";
    function renderRows() {
      const top = Math.max(0, Math.floor(body.parentNode.scrollTop / ROW) - 5);
      const end = Math.min(shown.length, top + Math.ceil((table.clientHeight || 600) / ROW) + 10);
      const key = top + ":" + end;
      if (key === drawn) return;
      drawn = key;
      body.textContent = "";
      for (let k = top; k < end; k++) body.appendChild(rowEl(shown[k], k));
    }
    table.addEventListener("scroll", () => requestAnimationFrame(renderRows));

    // ---- the cross-table, virtual in both directions
    const crossBox = el("section", "crossbox");
    crossBox.appendChild(el("h2", "", "Who beat whom"));
    crossBox.appendChild(el("p", "note", "Row bot against column bot: won-drawn-lost, then points of the row bot – points of the column bot. Click a cell for those matches and their replays."));
    const grid = el("div", "cross"); grid.id = "cross";
    const canvas = el("div", "canvas");
    const layer = el("div", "layer");
    canvas.appendChild(layer);
    grid.appendChild(canvas);
    crossBox.appendChild(grid);
    main.appendChild(crossBox);
    const CW = 78, CH = 36, LW = 190, HH = 120;
    let order = [], rowsShown = [];
    function crossCell(i, j) {
      const b = bots[i], o = bots[j];
      if (i === j) return el("span", "xc self", "");
      const [w, d, l, pi, pj] = record(i, j);
      if (w + d + l === 0) return el("span", "xc none", "·");
      const a = el("a", "xc " + (pi > pj ? "up" : pi < pj ? "down" : "even"));
      a.href = b.page + "#vs=" + encodeURIComponent(o.name);
      a.dataset.a = b.name; a.dataset.b = o.name;
      a.appendChild(el("span", "wdl", w + "-" + d + "-" + l));
      a.appendChild(el("span", "pts", pi + "–" + pj));
      a.title = b.name + " vs " + o.name + ": " + w + " won, " + d + " drawn, " + l + " lost; points " + pi + " to " + pj;
      return a;
    }
    let crossDrawn = "";
    function renderCross(force) {
      const sl = grid.scrollLeft, st = grid.scrollTop;
      const c0 = Math.max(0, Math.floor(sl / CW) - 1), c1 = Math.min(order.length, Math.ceil((sl + (grid.clientWidth || 900) - LW) / CW) + 1);
      const r0 = Math.max(0, Math.floor(st / CH) - 1), r1 = Math.min(rowsShown.length, Math.ceil((st + (grid.clientHeight || 600) - HH) / CH) + 1);
      const key = [c0, c1, r0, r1, sl, st].join(":");
      if (key === crossDrawn && !force) return;
      crossDrawn = key;
      layer.textContent = "";
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          const cell = crossCell(rowsShown[r], order[c]);
          cell.style.left = (LW + c * CW) + "px"; cell.style.top = (HH + r * CH) + "px";
          layer.appendChild(cell);
        }
        const h = el("a", "rowhead", bots[rowsShown[r]].rank + ". " + bots[rowsShown[r]].name);
        h.href = bots[rowsShown[r]].page; h.title = bots[rowsShown[r]].name;
        h.style.left = sl + "px"; h.style.top = (HH + r * CH) + "px";
        layer.appendChild(h);
      }
      for (let c = c0; c < c1; c++) {
        const h = el("span", "colhead", bots[order[c]].name);
        h.title = bots[order[c]].name;
        h.style.left = (LW + c * CW) + "px"; h.style.top = st + "px";
        layer.appendChild(h);
      }
      const corner = el("span", "corner", "row vs column"); corner.style.left = sl + "px"; corner.style.top = st + "px";
      layer.appendChild(corner);
    }
    grid.addEventListener("scroll", () => requestAnimationFrame(() => renderCross(false)));

    // ---- everything that depends on the filters
    function refresh() {
      const lines = ranked();
      order = lines.map((x) => x.i);
      shown = lines.filter((x) => matches(x.i));
      if (state.sort) {
        // Bigger (a version: newer) first, except for rank, name and losses; a second click turns the order.
        const f = sortKey[state.sort], sign = (["rank", "bot", "l"].includes(state.sort) ? 1 : -1) * (state.up ? -1 : 1);
        shown.sort((a, b) => { const u = f(a), v = f(b); return sign * (typeof u === "string" ? u.localeCompare(v) : u - v) || a.rank - b.rank; });
      }
      rowsShown = shown.map((x) => x.i);
      title.textContent = state.map < 0 ? "Leaderboard" : "Standings on " + D.maps[state.map];
      count.textContent = "showing " + shown.length + " of " + n + " bots";
      body.style.height = (shown.length * ROW) + "px";
      drawn = "";
      renderRows();
      canvas.style.width = (LW + order.length * CW) + "px";
      canvas.style.height = (HH + rowsShown.length * CH) + "px";
      renderCross(true);
      const keep = new Set(rowsShown);
      marks.forEach((g, i) => g.classList.toggle("dim", !keep.has(i)));
    }
    q.addEventListener("input", () => { state.q = q.value.trim().toLowerCase(); refresh(); });
    map.addEventListener("change", () => { state.map = +map.value; refresh(); });
    reason.addEventListener("change", () => { state.reason = reason.value; refresh(); });
    refresh();
    document.body.dataset.ready = "1";
  }
})();
