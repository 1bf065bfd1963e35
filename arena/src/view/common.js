// Small DOM helpers shared by the replay viewer and the league pages. Text only ever goes
// into the page as text (textContent, attribute values), never as markup.
"use strict";
window.arena = (function () {
  // The characters `safe_text::is_unsafe` names but tab, line feed and carriage return (a
  // test of view/mod.rs checks the two lists agree): shown as escapes, as `safe_text::html`
  // does, so that no bidirectional override reorders a page's text and no invisible
  // character makes one name pass for another.
  const UNSAFE = /[\u{0}-\u{8}\u{b}\u{c}\u{e}-\u{1f}\u{7f}-\u{9f}\u{ad}\u{34f}\u{61c}\u{115f}\u{1160}\u{17b4}\u{17b5}\u{180b}-\u{180f}\u{200b}-\u{200f}\u{2028}-\u{202e}\u{2060}-\u{206f}\u{2800}\u{3164}\u{fe00}-\u{fe0f}\u{feff}\u{ffa0}\u{fff0}-\u{fffb}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;
  const NAMED = { "\u{1b}": "\\e", "\u{7}": "\\a", "\u{8}": "\\b", "\u{b}": "\\v", "\u{c}": "\\f", "\u{0}": "\\0" };
  const hex = (n) => n.toString(16);
  /** `text` with every unsafe character as its escape (`\e`, `\x01`, `\u{202e}`). */
  const shown = (text) => String(text).replace(UNSAFE, (c) => {
    const n = c.codePointAt(0);
    if (NAMED[c]) return NAMED[c];
    return n < 0x20 || n === 0x7f ? "\\x" + hex(n).padStart(2, "0") : "\\u{" + hex(n) + "}";
  });
  /** Every string of `value` (keys too), shown: what the pages show of a replay or a league. */
  const deepShown = (value) => {
    if (typeof value === "string") return shown(value);
    if (Array.isArray(value)) return value.map(deepShown);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [shown(k), deepShown(v)]));
    }
    return value;
  };
  return {
    shown,
    deepShown,
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
})();
