// Calls said on the board as the other sites say them: a short word over the seat
// that called (Pon!, Chi!, Kan!, Riichi!, Ron!, Tsumo!), gone after a moment; it
// appears without motion where the person asked for reduced motion (style.css).
import { positionOf } from "./board.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";

// what each is said as: its word in the page's language (say.*)
const WORDS = {
  chi: "chi", pon: "pon", kan: "kan", ankan: "kan", kakan: "kan", kita: "kita",
  riichi: "riichi", ron: "ron", tsumo: "tsumo",
};
export const SHOWN_MS = 1400;

// [seat, word] for each event that is said aloud at a table.
export function wordsOf(events) {
  const out = [];
  for (const e of events) {
    let kind = null;
    if (e.type === "call") kind = e.call;
    else if (["ankan", "kakan", "kita"].includes(e.type)) kind = e.type;
    else if (e.type === "discard" && e.riichi) kind = "riichi";
    else if (e.type === "win") kind = e.source === e.seat ? "tsumo" : "ron";
    if (kind && WORDS[kind]) out.push([e.seat, t(`say.${WORDS[kind]}`)]);
  }
  return out;
}

// Each word over its seat's side of the board, seen from the seat ``view`` of ``n``.
export function announce(events, view, n) {
  const board = document.querySelector("#board");
  if (!board) return;
  for (const [seat, word] of wordsOf(events)) {
    const note = el("div", "announce", word);
    note.dataset.pos = positionOf(seat, view, n);
    note.setAttribute("aria-hidden", "true");  // the event log says it to screen readers
    board.appendChild(note);
    setTimeout(() => note.remove(), SHOWN_MS);
  }
}
