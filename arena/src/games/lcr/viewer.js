// Wild Left-Center-Right: each seat's chips and the centre: sets `window.arena.renderer`, which the replay viewer (arena/src/view/viewer.js)
// calls once with the replay and the shell's helpers, and which returns `{ draw(t), series() }`:
// draw shows frame t; series gives one number per player and frame for the score chart.
"use strict";
window.arena.renderer = function ({ R, frames, last, name, grid, statusTable, drawFields, forfeitText }) {
  const { $, el } = window.arena;
  // ---- Wild Left-Center-Right ----------------------------------------------------------
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
      f.chips.forEach((k, i) => {
        $("chips-" + i).textContent = k;
        seats[i].className = "seat" + (i === f.next && t < last ? " current" : "") + (k === 0 ? " out" : "");
      });
      $("center").textContent = f.center;
      $("events").textContent = t === 0 ? "start" : "turn " + f.turn + ": Player #" + (f.roller + 1) + " rolled a " + f.die + ": " + f.effect +
        "\nplay moves " + (f.clockwise ? "clockwise" : "counter-clockwise");
    };
  }
  return { draw: lcr(), series: () => frames.map((f) => f.chips) };
};
