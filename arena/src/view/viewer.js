// Replay viewer: the page shell (controls, keyboard, tick state) and one renderer per game.
// The replay is embedded in the page as JSON, so the page works from the file system.
"use strict";
(function () {
  const R = JSON.parse(document.getElementById("replay").textContent);
  const frames = [R.initial].concat(R.steps.map((s) => s.frame));
  const last = frames.length - 1;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
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

  // ---- Shell: tick state, controls, keyboard ---------------------------------------------
  let t = 0, timer = null;
  const scrub = $("scrub");
  scrub.max = last;
  function show(k) {
    t = Math.max(0, Math.min(last, k));
    draw(t);
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
  const m = /tick=(\d+)/.exec(location.hash);
  show(m ? +m[1] : 0);
  document.body.dataset.ready = "1";
})();
