// Atoms: the board of atoms: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
  // ---- Atoms --------------------------------------------------------------------------
  function atoms() {
    const S = R.setup;
    const cells = grid(S.width, S.height, 18, 48, 0);
    const COLOURS = ["Red", "Green", "Purple", "Blue", "Yellow", "White"];
    statusTable(S.players, (i) => name(i) + " (" + COLOURS[i] + ", " + COLOURS[i][0] + ")");
    $("legend").textContent = "each cell: the owner's colour here and letter (R for Red, the first player, G for Green, …) and its atoms; corners hold 2, edges 3, the rest 4";
    return function draw(t) {
      const f = frames[t];
      drawFields(cells, f.board, "RGPBYW");
      f.alive.forEach((a, i) => { $("status-" + i).textContent = f.winner === i ? "winner" : a ? (f.next === i ? "to move" : "in") : "out"; });
      const l = f.last;
      $("events").textContent = !l ? "start" : l.place ? name(l.player) + " placed at (" + l.place + ")" : forfeitText(l);
    };
  }
  /** How many fields each player (by letter) owns in a frame's rows. */
  const count = (rows, letters) => letters.split("").map((ch) => rows.join(" ").split(" ").filter((tok) => tok[0] === ch).length);
  return { draw: atoms(), series: () => frames.map((f) => count(f.board, "RGPBYW".slice(0, R.setup.players))) };
};
