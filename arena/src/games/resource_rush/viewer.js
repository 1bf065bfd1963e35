// Resource Rush: the map, the players' tokens and trails: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
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
  return { draw: resourceRush(), series: () => frames.map((f) => f.players.map((p) => p.score)) };
};
