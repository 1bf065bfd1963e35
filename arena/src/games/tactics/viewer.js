// OOPtimal Tactics: fields, water and chips: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
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
  return { draw: tactics(), series: () => frames.map((f) => f.fields) };
};
