// Replay viewer: the page shell (controls, keyboard, tick state, answers, score chart). A game
// draws itself with its own renderer, a script that sets `window.arena.renderer` before this
// one runs; a game without one gets the generic table of steps. The replay is in the page itself, as JSON or as gzip-compressed JSON in
// base64 (tournament pages, which share this script), so pages work from the file system.
"use strict";
(function () {
  const { $, el, svg } = window.arena;
  /** Long text a bot wrote, cut for display (the replay file keeps all of it). */
  const short = (s) => (s.length > 200 ? s.slice(0, 200) + "… [" + (s.length - 200) + " more characters]" : s);

  /** The replay embedded in the page (plain JSON, or base64 of gzip-compressed JSON), its
   * text as the page shows it (`arena.shown`). */
  async function load() {
    const node = $("replay");
    if (node.type === "application/json") return window.arena.deepShown(JSON.parse(node.textContent));
    const bin = atob(node.textContent.trim());
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return window.arena.deepShown(JSON.parse(await new Response(stream).text()));
  }

  /** The board, the side panels and the controls (the page itself holds only its header). */
  function shell() {
    const main = el("main");
    const stage = el("section"); stage.id = "stage";
    const board = el("div"); board.id = "board"; stage.appendChild(board);
    const side = el("aside"); side.id = "side";
    const controls = el("div"); controls.id = "controls";
    [["first", "first (Home)", "|◀"], ["prev", "step back (←)", "◀"], ["play", "play / pause (space)", "▶"],
      ["next", "step (→)", "▶|"], ["lastbtn", "last (End)", "▶▶|"]].forEach(([id, title, text]) => {
      const b = el("button", "", text); b.id = id; b.title = title; controls.appendChild(b);
    });
    const scrub = el("input"); scrub.id = "scrub"; scrub.type = "range"; scrub.min = "0"; scrub.value = "0";
    scrub.setAttribute("aria-label", "tick"); controls.appendChild(scrub);
    const line = el("span"); line.id = "tickline";
    line.append("tick ", el("b", "", "0"), " / ", el("span", "", "0"));
    line.children[0].id = "tick"; line.children[1].id = "ticks";
    controls.appendChild(line);
    const speed = el("select"); speed.id = "speed";
    [["400", "0.5×"], ["200", "1×"], ["100", "2×"], ["50", "4×"], ["20", "10×"]].forEach(([v, t]) => {
      const o = el("option", "", t); o.value = v; if (v === "200") o.selected = true; speed.appendChild(o);
    });
    const label = el("label", "", "speed "); label.appendChild(speed); controls.appendChild(label);
    const panel = (children, cls) => { const p = el("div", "panel" + (cls ? " " + cls : "")); children.forEach((c) => p.appendChild(c)); side.appendChild(p); return p; };
    panel([controls, el("div", "keys", "space play/pause · ← → step · Home/End · click the chart to jump")]);
    const players = el("table", "players"); players.id = "players"; panel([players]);
    const chart = el("div"); chart.id = "chart"; panel([el("b", "", "score over time"), chart], "chart-panel");
    const answers = el("div"); answers.id = "answers"; panel([el("b", "", "answers this tick"), answers]);
    const events = el("div"); events.id = "events"; panel([el("b", "", "this tick"), events]);
    const legend = panel([], "keys"); legend.id = "legend";
    main.append(stage, side);
    document.body.appendChild(main);
  }

  load().then((R) => start(R)).catch((e) => {
    const p = el("p", "error", "This replay could not be read: " + e);
    document.body.appendChild(p);
  });

  function start(R) {
  shell();
  const frames = [R.initial].concat(R.steps.map((s) => s.frame));
  const last = frames.length - 1;
  const name = (i) => (R.players[i] ? R.players[i].name : i === 1 ? "scripted opponent" : "player " + (i + 1));

  // ---- Helpers for renderers of board games: a grid of fields, each an owner's token and a count ----
  /** The most fields and players any game's board has (Atoms: 255 x 255, 6 players), with room. */
  const MAX_FIELDS = 1 << 20;
  const MAX_PLAYERS = 64;
  /** Builds a width x height grid of cells (coordinates from `base`) and returns the cells; a
   *  size no game has (a replay shown with --unverified) is refused, not built cell by cell. */
  function grid(width, height, minCell, maxCell, base) {
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= MAX_FIELDS)) {
      throw new Error("its board is " + width + " x " + height + " fields, a size no game has");
    }
    const board = $("board");
    board.style.gridTemplateColumns = "repeat(" + width + ", var(--cell))";
    document.documentElement.style.setProperty("--cell", Math.max(minCell, Math.min(maxCell, Math.floor(560 / width))) + "px");
    const cells = [];
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const c = el("div", "cell"); c.dataset.x = x + base; c.dataset.y = y + base; board.appendChild(c); cells.push(c);
    }
    return cells;
  }

  /** One row per player: a swatch, `label(i)` and an empty status cell `status-i`. */
  function statusTable(n, label) {
    if (!(Number.isInteger(n) && n >= 0 && n <= MAX_PLAYERS)) throw new Error("it has " + n + " players, more than any game");
    const table = $("players");
    for (let i = 0; i < n; i++) {
      const tr = el("tr");
      const who = el("td"); who.appendChild(el("span", "swatch p" + i)); who.appendChild(document.createTextNode(label(i)));
      tr.appendChild(who);
      const st = el("td"); st.id = "status-" + i; tr.appendChild(st);
      table.appendChild(tr);
    }
  }

  /** Draws a frame's rows of fields (`..` empty, `~~` water, else owner letter and count). */
  function drawFields(cells, rows, letters) {
    const width = rows[0].split(" ").length;
    rows.forEach((row, y) => row.split(" ").forEach((tok, x) => {
      const c = cells[y * width + x];
      c.className = tok === "~~" ? "cell water" : "cell";
      c.textContent = "";
      const owner = letters.indexOf(tok[0]);
      if (owner >= 0) c.appendChild(el("div", "token p" + owner, tok.slice(1)));
    }));
  }

  function forfeitText(l) { return name(l.player) + " forfeits: " + l.forfeit + " (" + l.detail + ")"; }

  // ---- The generic renderer, for a game without its own: a table of steps -------------------
  /** One row per step: each player's answer (or failure, or the chance outcome) and the frame
   * as text; the shown step is marked, and its whole frame is shown beside. */
  function generic() {
    const board = $("board");
    board.dataset.renderer = "generic";
    board.className = "steps";
    const table = el("table", "steps");
    const head = el("tr");
    ["step"].concat(R.players.map((p, i) => name(i)), ["frame"]).forEach((h) => head.appendChild(el("th", "", h)));
    table.appendChild(head);
    const rows = frames.map((f, t) => {
      const tr = el("tr");
      tr.appendChild(el("td", "", String(t)));
      const step = t > 0 ? R.steps[t - 1] : null;
      R.players.forEach((p, i) => {
        let text = t === 0 ? "start" : "";
        if (step && step.chance !== undefined && step.chance !== null) text = "chance: " + step.chance;
        const r = step && (step.replies || []).find((x) => x.player === i);
        if (r) text = r.answer !== undefined && r.answer !== null ? short(r.answer) : "no answer (" + (r.failure || "?") + ")";
        tr.appendChild(el("td", "", text));
      });
      tr.appendChild(el("td", "frame", short(JSON.stringify(f))));
      table.appendChild(tr);
      return tr;
    });
    const result = el("tr", "result");
    result.appendChild(el("td", "", "result"));
    R.players.forEach((p, i) => {
      const q = (R.result.players || [])[i] || {};
      const text = String(q.score === undefined ? "" : q.score) + (q.forfeit ? " (" + q.forfeit + ")" : "") + (R.result.winner === i ? " winner" : "");
      result.appendChild(el("td", "", text));
    });
    result.appendChild(el("td", "", ""));
    table.appendChild(result);
    board.appendChild(table);
    $("players").style.display = "none";
    $("legend").textContent = "no renderer for this game: each step's answers and frame as text";
    return {
      draw: function (t) {
        rows.forEach((tr, k) => { tr.className = k === t ? "now" : ""; });
        $("events").textContent = JSON.stringify(frames[t], null, 1);
      },
      series: () => null,
    };
  }

  // The game's own renderer (a script the page loads before this one), else the generic one.
  const view = { R, frames, last, name, grid, statusTable, drawFields, forfeitText };
  const game = window.arena.renderer ? window.arena.renderer(view) : generic();
  const draw = game.draw;

  // ---- Answers of a tick: the raw line (cut when long) and how long it took ----------------
  function answers(t) {
    if (t === 0) return "";
    const s = R.steps[t - 1];
    if (s.chance !== undefined && s.chance !== null) return "chance: " + s.chance;
    return (s.replies || []).map((r) => {
      const what = r.answer !== undefined && r.answer !== null ? short(r.answer) : "no answer (" + (r.failure || "?") + ")";
      const cpu = r.cpu_ms !== undefined && r.cpu_ms !== null ? ", " + r.cpu_ms + " ms CPU" : "";
      return name(r.player) + ": " + what + "  [" + (r.ms || 0) + " ms" + cpu + "]";
    }).join("\n");
  }

  // ---- Score over time: one line per player, a cursor at the shown tick ---------------------
  const chart = (function () {
    const data = game.series ? game.series() : null;
    const box = $("chart");
    if (!data || !data.length || !data[0]) { box.parentNode.style.display = "none"; return () => {}; }
    const W = 276, H = 96, pad = 4;
    const top = Math.max(1, ...data.map((row) => Math.max(...row)));
    const x = (t) => pad + (W - 2 * pad) * (last ? t / last : 0);
    const y = (v) => H - pad - (H - 2 * pad) * (v / top);
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img" });
    g.appendChild(svg("line", { x1: pad, x2: W - pad, y1: H - pad, y2: H - pad, class: "axis" }));
    data[0].forEach((_, i) => {
      const pts = data.map((row, t) => x(t).toFixed(1) + "," + y(row[i] || 0).toFixed(1)).join(" ");
      const line = svg("polyline", { points: pts, class: "series s" + i });
      const title = svg("title"); title.textContent = name(i); line.appendChild(title);
      g.appendChild(line);
    });
    const cursor = svg("line", { y1: 0, y2: H, class: "cursor" });
    g.appendChild(cursor);
    const label = svg("text", { x: pad + 2, y: 11, class: "top" }); label.textContent = String(top);
    g.appendChild(label);
    g.addEventListener("click", (e) => {
      const r = g.getBoundingClientRect();
      stop(); show(Math.round(((e.clientX - r.left) / r.width * W - pad) / (W - 2 * pad) * last));
    });
    box.appendChild(g);
    return (t) => { cursor.setAttribute("x1", x(t)); cursor.setAttribute("x2", x(t)); };
  })();

  // ---- Shell: tick state, controls, keyboard ---------------------------------------------
  let t = 0, timer = null;
  const scrub = $("scrub");
  scrub.max = last;
  function show(k) {
    t = Math.max(0, Math.min(last, k));
    draw(t);
    $("answers").textContent = answers(t) || "-";
    chart(t);
    $("tick").textContent = t;
    $("ticks").textContent = last;
    scrub.value = t;
    if (t === last) stop();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "▶"; }
  function play() {
    if (t === last) show(0);
    stop();
    timer = setInterval(() => show(t + 1), +$("speed").value);
    $("play").textContent = "❚❚";
  }
  $("play").onclick = () => (timer ? stop() : play());
  $("prev").onclick = () => { stop(); show(t - 1); };
  $("next").onclick = () => { stop(); show(t + 1); };
  $("first").onclick = () => { stop(); show(0); };
  $("lastbtn").onclick = () => { stop(); show(last); };
  scrub.oninput = () => { stop(); show(+scrub.value); };
  $("speed").onchange = () => { if (timer) play(); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") return;
    if (e.key === " ") { e.preventDefault(); timer ? stop() : play(); }
    else if (e.key === "ArrowRight") { stop(); show(t + 1); }
    else if (e.key === "ArrowLeft") { stop(); show(t - 1); }
    else if (e.key === "Home") { stop(); show(0); }
    else if (e.key === "End") { stop(); show(last); }
  });
  window.addEventListener("hashchange", () => {
    const h = /tick=(\d+)/.exec(location.hash);
    if (h) { stop(); show(+h[1]); }
  });
  const m = /tick=(\d+)/.exec(location.hash);
  show(m ? +m[1] : 0);
  document.body.dataset.ready = "1";
  }
})();
