// Small DOM helpers shared by the replay viewer and the league pages. Text only ever goes
// into the page as text (textContent, attribute values), never as markup.
"use strict";
window.arena = {
  $: (id) => document.getElementById(id),
  /** A new element with a class and text. */
  el: (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  },
  /** A new SVG element with attributes. */
  svg: (tag, attrs) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    return e;
  },
};
