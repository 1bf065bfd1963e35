// Replay viewer: the page shell (controls, keyboard, tick state, answers, score chart) and one
// renderer per game. The replay is in the page itself, as JSON or as gzip-compressed JSON in
// base64 (tournament pages, which share this script), so pages work from the file system.
"use strict";
(function () {
  const { $, el, svg } = window.arena;
  /** Long text a bot wrote, cut for display (the replay file keeps all of it). */
  const short = (s) => (s.length > 200 ? s.slice(0, 200) + "… [" + (s.length - 200) + " more characters]" : s);

  /** The replay embedded in the page: plain JSON, or base64 of gzip-compressed JSON. */
  async function load() {
    const node = $("replay");
    if (node.type === "application/json") return JSON.parse(node.textContent);
    const bin = atob(node.textContent.trim());
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
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

  // ---- Resource Rush -------------------------------------------------------------------
  function resourceRush() {
    const S = R.setup;
    const rows = S.rows, cols = S.cols;
    const tokens = S.map.map((r) => r.trim().split(/\s+/));
    const cleared = new Map(); // "x,y" -> first tick at which the cell became 0
    frames.forEach((f, t) => (f.events || []).forEach((e) => {
      if (e.cell && ["collected", "cancelled", "taken"].includes(e.type)) {
        const k = e.cell[0] + "," + e.cell[1];
        if (!cleared.has(k)) cleared.set(k, t);
      }
    }));
    const board = $("board");
    board.style.gridTemplateColumns = "repeat(" + cols + ", var(--cell))";
    const cells = [];
    for (let x = 0; x < rows; x++) for (let y = 0; y < cols; y++) {
      const c = el("div", "cell");
      c.dataset.x = x; c.dataset.y = y;
      if (x === S.final[0] && y === S.final[1]) c.classList.add("final");
      board.appendChild(c);
      cells.push(c);
    }
    const nplayers = frames[0].players.length;
    const table = $("players");
    const head = el("tr");
    ["", "pos", "score", "×", "jump", "status"].forEach((h) => head.appendChild(el("th", "", h)));
    table.appendChild(head);
    for (let i = 0; i < nplayers; i++) {
      const tr = el("tr");
      const who = el("td");
      who.appendChild(el("span", "swatch p" + i));
      who.appendChild(document.createTextNode(name(i)));
      tr.appendChild(who);
      ["pos", "score", "mult", "jump", "status"].forEach((k) => { const td = el("td"); td.id = k + "-" + i; tr.appendChild(td); });
      table.appendChild(tr);
    }
    function fit() {
      const width = Math.min(window.innerWidth - 40, $("stage").clientWidth || window.innerWidth);
      const size = Math.max(12, Math.min(34, Math.floor((width - cols) / cols)));
      document.documentElement.style.setProperty("--cell", size + "px");
    }
    window.addEventListener("resize", fit);
    fit();
    $("legend").textContent = "numbers: resources · W wall · E void · F fire · J jump · D ×2 · T ×3 · " +
      "outlined: the final · shaded: where each player has been";
    function describe(e) {
      const who = e.player !== undefined ? name(e.player) : "";
      switch (e.type) {
        case "collected": return who + " took " + e.item + " at (" + e.cell + ")" + (e.points ? " +" + e.points : "");
        case "cancelled": return "both reached (" + e.cell + "): " + e.item + " cancelled";
        case "taken": return who + " took " + e.item + " at (" + e.cell + ") first";
        case "finished": return who + " reached the final";
        case "forfeit": return who + " forfeits: " + e.reason + (e.detail ? " (" + e.detail + ")" : "");
        default: return e.type;
      }
    }
    return function draw(t) {
      const f = frames[t];
      cells.forEach((c) => {
        const x = +c.dataset.x, y = +c.dataset.y;
        const k = x + "," + y;
        let tok = tokens[x][y];
        if (cleared.has(k) && cleared.get(k) <= t) tok = "0";
        c.className = "cell" + (/^\d+$/.test(tok) ? (tok === "0" ? "" : " R") : " " + tok) + (c.classList.contains("final") ? " final" : "");
        c.textContent = tok === "0" ? "" : tok;
      });
      for (let i = 0; i < nplayers; i++) {
        const seen = new Set();
        for (let s = 0; s <= t; s++) seen.add(frames[s].players[i].pos.join(","));
        seen.forEach((k) => {
          const [x, y] = k.split(",").map(Number);
          const tr = el("div", "trail p" + i);
          cells[x * cols + y].appendChild(tr);
        });
      }
      const here = {};
      f.players.forEach((p, i) => { const k = p.pos.join(","); (here[k] = here[k] || []).push(i); });
      Object.entries(here).forEach(([k, who]) => {
        const [x, y] = k.split(",").map(Number);
        who.forEach((i, n) => {
          const tok = el("div", "token p" + i + (who.length > 1 ? " both " + (n ? "b" : "a") : ""), String(i + 1));
          tok.title = name(i);
          cells[x * cols + y].appendChild(tok);
        });
      });
      f.players.forEach((p, i) => {
        $("pos-" + i).textContent = p.pos.join(",");
        $("score-" + i).textContent = p.score;
        $("mult-" + i).textContent = p.multiplier;
        $("jump-" + i).textContent = p.jump ? "yes" : "no";
        $("status-" + i).textContent = p.status + (p.forfeit ? ": " + p.forfeit : "");
      });
      const lines = (f.events || []).map(describe);
      const acts = f.players.map((p, i) => p.action ? name(i) + ": " + p.action : null).filter(Boolean);
      $("events").textContent = t === 0 ? "start" : acts.concat(lines).join("\n");
    };
  }

  // ---- Wild Left-Center-Right ----------------------------------------------------------
  function lcr() {
    const n = R.setup.players;
    const stage = $("board");
    stage.className = "lcr";
    const seats = [];
    for (let i = 0; i < n; i++) {
      const s = el("div", "seat");
      s.appendChild(el("div", "", "Player #" + (i + 1)));
      const chips = el("div", "chips"); chips.id = "chips-" + i; s.appendChild(chips);
      stage.appendChild(s); seats.push(s);
    }
    const centre = el("div", "seat");
    centre.appendChild(el("div", "", "centre"));
    const c = el("div", "chips"); c.id = "center"; centre.appendChild(c);
    stage.appendChild(centre);
    $("players").style.display = "none";
    $("legend").textContent = "chips per player; the outlined seat rolls next";
    return function draw(t) {
      const f = frames[t];
      f.chips.forEach((k, i) => {
        $("chips-" + i).textContent = k;
        seats[i].className = "seat" + (i === f.next && t < last ? " current" : "") + (k === 0 ? " out" : "");
      });
      $("center").textContent = f.center;
      $("events").textContent = t === 0 ? "start" : "turn " + f.turn + ": Player #" + (f.roller + 1) + " rolled a " + f.die + ": " + f.effect +
        "\nplay moves " + (f.clockwise ? "clockwise" : "counter-clockwise");
    };
  }

  // ---- Board games (Atoms, Tactics): a grid of fields, each an owner's token and a count ----
  /** Builds a width x height grid of cells (coordinates from `base`) and returns the cells. */
  function grid(width, height, minCell, maxCell, base) {
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

  // ---- Atoms --------------------------------------------------------------------------
  function atoms() {
    const S = R.setup;
    const cells = grid(S.width, S.height, 18, 48, 0);
    statusTable(S.players, name);
    $("legend").textContent = "each cell: the owner's colour and its atoms; corners hold 2, edges 3, the rest 4";
    return function draw(t) {
      const f = frames[t];
      drawFields(cells, f.board, "RGPBYW");
      f.alive.forEach((a, i) => { $("status-" + i).textContent = f.winner === i ? "winner" : a ? (f.next === i ? "to move" : "in") : "out"; });
      const l = f.last;
      $("events").textContent = !l ? "start" : l.place ? name(l.player) + " placed at (" + l.place + ")" : forfeitText(l);
    };
  }

  // ---- OOPtimal Tactics ----------------------------------------------------------------
  function tactics() {
    const rows0 = frames[0].board;
    const cells = grid(rows0[0].split(" ").length, rows0.length, 24, 56, 1);
    statusTable(2, (i) => name(i) + " (" + "AB"[i] + ")");
    $("legend").textContent = "each field: the owner's colour and its chips; blue fields are water. " + R.setup.rounds + " rounds, each a placement then a movement phase";
    return function draw(t) {
      const f = frames[t];
      drawFields(cells, f.board, "AB");
      for (let i = 0; i < 2; i++) {
        $("status-" + i).textContent = f.fields[i] + " fields, " + f.chips[i] + " chips to place" + (!f.over && f.next === i ? " · to move" : "");
      }
      const l = f.last;
      const head = "round " + f.round + "/" + R.setup.rounds + " · " + f.phase + " phase" + (f.over ? " · game over" : "") + "\n";
      $("events").textContent = head + (!l ? "start" : l.action ? name(l.player) + ": " + l.action : forfeitText(l));
    };
  }

  function generic() {
    $("legend").textContent = "no renderer for this game: the raw frame is shown";
    return function draw(t) { $("events").textContent = JSON.stringify(frames[t], null, 1); };
  }

  const draw = ({ "resource-rush": resourceRush, "resource-rush-test": resourceRush, lcr: lcr, atoms: atoms, tactics: tactics }[R.game] || generic)();

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
  /** Per frame, one number per player (score, fields, chips…), or null for games without one. */
  function series() {
    const count = (rows, letters) => letters.split("").map((ch) => rows.join(" ").split(" ").filter((tok) => tok[0] === ch).length);
    switch (R.game) {
      case "resource-rush": case "resource-rush-test": return frames.map((f) => f.players.map((p) => p.score));
      case "tactics": return frames.map((f) => f.fields);
      case "lcr": return frames.map((f) => f.chips);
      case "atoms": return frames.map((f) => count(f.board, "RGPBYW".slice(0, R.setup.players)));
      default: return null;
    }
  }
  const chart = (function () {
    const data = series();
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
