// Wild Left-Center-Right: each seat's chips and the centre: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
  // ---- Wild Left-Center-Right ----------------------------------------------------------
  // A frame has every player's chips (`chips`: the initial frame, and every frame of a replay
  // recorded before 2026-12-05) or only those its die moved (`changed`: [[player, chips], ...]).
  // The chips at frame t: the last whole ones with the changes after them applied, kept from
  // the frame asked for last (a step on applies one change; a step back starts again at 0).
  let at = 0, now = frames[0].chips.slice();
  function chipsAt(t) {
    if (t < at) { at = 0; now = frames[0].chips.slice(); }
    while (at < t) {
      const f = frames[++at];
      if (f.chips) now = f.chips.slice();
      else (f.changed || []).forEach(([p, k]) => { now[p] = k; });
    }
    return now;
  }
  // The chart's data (one row of chips per frame), when it is small enough to draw: a game of
  // thousands of players has too many lines to tell apart, and too many numbers to hold.
  function series() {
    if (frames.length * frames[0].chips.length > 2000000) return null;
    return frames.map((_, t) => chipsAt(t).slice());
  }
  function lcr() {
    const n = R.setup.players;
    const stage = $("board");
    stage.className = "seats-row";
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
      chipsAt(t).forEach((k, i) => {
        $("chips-" + i).textContent = k;
        seats[i].className = "seat" + (i === f.next && t < last ? " current" : "") + (k === 0 ? " out" : "");
      });
      $("center").textContent = f.center;
      $("events").textContent = t === 0 ? "start" : "turn " + f.turn + ": Player #" + (f.roller + 1) + " rolled a " + f.die + ": " + f.effect +
        "\nplay moves " + (f.clockwise ? "clockwise" : "counter-clockwise");
    };
  }
  return { draw: lcr(), series };
};
