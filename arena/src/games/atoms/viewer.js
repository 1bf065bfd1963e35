// Atoms: the board of atoms: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
  // ---- Atoms --------------------------------------------------------------------------
  // A frame has the whole board (`board`: the initial frame, and every frame of a replay
  // recorded before 2026-12-06) or only the cells its move changed (`changed`: [[x, y, cell], ...]).
  // The board at frame t: the last whole one with the changes after it applied, kept from the
  // frame asked for last (a step on applies one move's changes; a step back starts again at 0).
  const whole = (f) => f.board.map((row) => row.split(" "));
  let at = 0, now = whole(frames[0]);
  function cellsAt(t) {
    if (t < at) { at = 0; now = whole(frames[0]); }
    while (at < t) {
      const f = frames[++at];
      if (f.board) now = whole(f);
      else (f.changed || []).forEach(([x, y, c]) => { now[y][x] = c; });
    }
    return now;
  }
  const boardAt = (t) => cellsAt(t).map((row) => row.join(" "));
  function atoms() {
    const S = R.setup;
    const cells = grid(S.width, S.height, 18, 48, 0);
    const COLOURS = ["Red", "Green", "Purple", "Blue", "Yellow", "White"];
    statusTable(S.players, (i) => name(i) + " (" + COLOURS[i] + ", " + COLOURS[i][0] + ")");
    $("legend").textContent = "each cell: the owner's colour here and letter (R for Red, the first player, G for Green, …) and its atoms; corners hold 2, edges 3, the rest 4";
    return function draw(t) {
      const f = frames[t];
      drawFields(cells, boardAt(t), "RGPBYW");
      f.alive.forEach((a, i) => { $("status-" + i).textContent = f.winner === i ? "winner" : a ? (f.next === i ? "to move" : "in") : "out"; });
      const l = f.last;
      $("events").textContent = !l ? "start" : l.place ? name(l.player) + " placed at (" + l.place + ")" : forfeitText(l);
    };
  }
  /** How many fields each player owns in every frame, counted as the changes come (a 255x255
   * board's 2,000 frames are 130 million cells to count one by one). */
  function series() {
    const letters = "RGPBYW".slice(0, R.setup.players);
    let cells = null, owned = null;
    const own = (tok, by) => { const p = letters.indexOf(tok[0]); if (p >= 0) owned[p] += by; };
    return frames.map((f) => {
      if (f.board) {
        cells = whole(f);
        owned = letters.split("").map(() => 0);
        cells.forEach((row) => row.forEach((tok) => own(tok, 1)));
      } else (f.changed || []).forEach(([x, y, c]) => { own(cells[y][x], -1); own(c, 1); cells[y][x] = c; });
      return owned.slice();
    });
  }
  return { draw: atoms(), series };
};
