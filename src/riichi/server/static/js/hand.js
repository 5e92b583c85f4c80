// Your side of the table: your hand at full size with your called sets beside it, and
// just above it the tile called on, the action buttons, the furiten mark and your
// waits.
import { meldsEl, withoutDrawn } from "./board.js";
import { t } from "./i18n.js";
import { $, el } from "./dom.js";
import { kindOf, kindSpoken, kindTile, tileArt, tileEl, tileSpoken } from "./tiles.js";

// the buttons' words, in the page's language
const ACTION_LABELS = Object.fromEntries(
  ["tsumo", "ron", "chi", "pon", "kan", "ankan", "kakan", "kyuushu", "pass", "kita"].map((k) => [k, t(`act.${k}`)]),
);
export const ACTION_KEYS = { tsumo: "w", ron: "w", chi: "c", pon: "p", kan: "k", ankan: "k", kakan: "k", pass: "n" };

export function clearHand() {
  for (const id of ["#my-hand", "#my-melds", "#actions", "#prompt", "#waits"]) $(id).replaceChildren();
  $("#furiten").hidden = true;
}

function showWaits(waits, title, furiten) {
  const box = $("#waits");
  box.replaceChildren(el("span", "label", title));
  for (const [k, left] of waits) {
    const w = el("span", "wait");
    w.appendChild(tileEl(kindTile(k), "m"));
    w.appendChild(el("span", "left", `×${left}`));
    w.setAttribute("aria-label", `${kindSpoken(k)}, ${left} unseen`);
    box.appendChild(w);
  }
  if (furiten) box.appendChild(el("span", "furiten-note", "furiten: no ron on these"));
}

// One button for each distinct action: two riichi discards of the same kind, or two
// calls with the same tiles, are one choice to a player.
function distinct(legal) {
  const seen = new Set();
  return legal.filter((a) => {
    const tiles = [...(a.tiles || []), ...(a.tile === undefined || a.tile === null ? [] : [a.tile])];
    const key = `${a.type}:${tiles.map(tileArt).sort().join(",")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// Draws your hand and what you may do. `riichiMode` outlines the tiles riichi may be
// declared with; `act(action)` sends one; `toggleRiichi()` flips riichi mode.
export function drawHand(state, legal, riichiMode, act, toggleRiichi) {
  clearHand();
  const hand = $("#my-hand");
  const discards = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
  const riichis = new Set(legal.filter((a) => a.type === "riichi").map((a) => a.tile));
  const help = state.tenpai || {};
  const keeps = help.keeps || {};
  const furitenAfter = new Set(help.furiten_after || []);
  if (help.waits) showWaits(help.waits, "waiting on ", help.furiten);
  $("#furiten").hidden = !help.furiten;
  const addTile = (t, drawn) => {
    const usable = riichiMode ? riichis.has(t) : discards.has(t);
    const node = el("button", "tile h" + (drawn ? " drawn" : ""));
    node.type = "button";
    const img = el("img");
    img.src = `/static/tiles/${tileArt(t)}.svg`;
    img.alt = "";
    node.appendChild(img);
    node.dataset.tile = t;
    const waits = keeps[String(kindOf(t))];
    let label = tileSpoken(t) + (drawn ? ", drawn" : "");
    if (waits) {
      const furiten = furitenAfter.has(kindOf(t));
      node.classList.add(furiten ? "makes-furiten" : "keeps-tenpai");
      label += `, keeps tenpai on ${waits.map(([k]) => kindSpoken(k)).join(", ")}${furiten ? " but furiten" : ""}`;
      const show = () => showWaits(waits, "discard it to wait on ", furiten);
      node.addEventListener("mouseenter", show);
      node.addEventListener("focus", show);
    }
    node.setAttribute("aria-label", label);
    if (usable) {
      node.classList.add("playable");
      if (riichiMode) node.classList.add("riichi-ok");
      node.addEventListener("click", () => act({ type: riichiMode ? "riichi" : "discard", tile: t }));
    } else {
      node.setAttribute("aria-disabled", "true");
    }
    hand.appendChild(node);
  };
  // deciding a discard: the tiles that may not go (kuikae, riichi) are dimmed
  hand.classList.toggle("deciding", discards.size > 0 || riichiMode);
  for (const t of withoutDrawn(state.hand, state.drawn)) addTile(t, false);
  if (state.drawn !== null) addTile(state.drawn, true);
  $("#my-melds").replaceWith(Object.assign(meldsEl(state, state.seat), { id: "my-melds" }));
  drawActions(state, legal, riichis.size > 0, riichiMode, act, toggleRiichi);
}

function drawActions(state, legal, canRiichi, riichiMode, act, toggleRiichi) {
  const actions = $("#actions");
  const calling = legal.some((a) => a.type === "pass");
  const ld = state.last_discard;
  const called = ld ? state.discards[ld[0]][ld[1]][0] : null;
  if (calling && ld) {
    const p = $("#prompt");
    p.appendChild(el("span", null, t("prompt.discarded", { name: state.players[ld[0]].name })));
    p.appendChild(tileEl(called, "h"));
  }
  if (canRiichi) {
    const b = el("button", "act riichi", t(riichiMode ? "act.cancel_riichi" : "act.riichi"));
    b.appendChild(el("span", "key", " (R)"));
    b.dataset.action = "riichi";
    b.addEventListener("click", toggleRiichi);
    actions.appendChild(b);
  }
  for (const a of distinct(legal)) {
    if (a.type === "discard" || a.type === "riichi") continue;
    const b = el("button", `act ${a.type}`);
    b.dataset.action = a.type;
    b.appendChild(el("span", null, ACTION_LABELS[a.type] || a.type));
    const used = a.tiles && a.tiles.length ? [...a.tiles] : [];
    if (used.length) {
      const shown = el("span", "act-tiles");
      for (const t of used) shown.appendChild(tileEl(t, "m"));
      if (calling && called !== null && ["chi", "pon", "kan"].includes(a.type)) shown.appendChild(tileEl(called, "m sideways"));
      b.appendChild(shown);
    }
    const key = ACTION_KEYS[a.type];
    if (key) b.appendChild(el("span", "key", ` (${key.toUpperCase()})`));
    b.setAttribute("aria-label", `${ACTION_LABELS[a.type] || a.type}${used.length ? " with " + used.map(tileSpoken).join(", ") : ""}`);
    b.addEventListener("click", () => act(a));
    actions.appendChild(b);
  }
  return calling;
}
