// The board: the centre with the dead wall, each seat's river, called sets, concealed
// hand and riichi stick (turned to face its seat), and each seat's plate (upright).
import { el, signed } from "./dom.js";
import { t } from "./i18n.js";
import { WIND_GLYPHS, setRed, tileEl, tileSpoken } from "./tiles.js";

// The hand without the drawn tile: the state's hand holds it, the table shows it apart.
export function withoutDrawn(hand, drawn) {
  const rest = [...hand];
  if (drawn !== null && drawn !== undefined) {
    const i = rest.indexOf(drawn);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

// Where a seat sits on screen: 0 at the bottom, then counter-clockwise (the right is
// the next to play). With three players the fourth place stays empty.
export function positionOf(seat, view, n) {
  const pos = (seat - view + n) % n;
  return n === 3 && pos === 2 ? 3 : pos;
}

const LAST_SHOWN = new WeakMap();  // each board: the latest discard it has shown

// A river in rows of six, a fourth row taking whatever is left; a called tile is gone
// to its caller's set (a riichi tile taken that way passes its sideways turn to the
// next tile); the latest discard is marked.
function riverEl(discards, isLast, arriving) {
  const river = el("div", "river");
  let row = null;
  let count = 0;
  let sidewaysOwed = false;
  discards.forEach(([tile, tsumogiri, riichi, called], i) => {
    if (called) {
      if (riichi) sidewaysOwed = true;
      return;
    }
    if (count % 6 === 0 && count < 24) { row = el("div", "river-row"); river.appendChild(row); }
    count++;
    const cls = ["r"];
    if (riichi || sidewaysOwed) { cls.push("sideways"); sidewaysOwed = false; }
    if (tsumogiri) cls.push("tsumogiri");
    if (isLast(i)) cls.push("last");
    if (isLast(i) && arriving) cls.push("arriving");
    const node = tileEl(tile, cls.join(" "));
    const notes = [];
    if (tsumogiri) notes.push(t("river.tsumogiri"));
    if (riichi) notes.push(t("act.riichi"));
    if (isLast(i)) notes.push(t("river.last"));
    if (notes.length) node.querySelector("img").alt += ` (${notes.join(t("list.and"))})`;
    row.appendChild(node);
  });
  return river;
}

// A set with the called tile sideways on the side it came from (1 right, 2 across,
// 3 left); a kakan's added tile stacked on it; a closed kan with its ends face down.
export function meldEl(m) {
  const group = el("span", "meld");
  group.setAttribute("role", "img");
  const rest = m.tiles.filter((t) => t !== m.called && t !== m.added).sort((a, b) => a - b);
  group.setAttribute("aria-label", t("meld.label", { kind: t(`act.${m.type}`), tiles: m.tiles.map(tileSpoken).join(t("list.and")) }));
  if (m.type === "ankan") {
    rest.forEach((t, i) => group.appendChild(tileEl(i === 0 || i === 3 ? null : t, "m")));
    return group;
  }
  const at = m.from === 3 ? 0 : m.from === 2 ? 1 : rest.length;
  const called = el("span", "called-stack");
  called.appendChild(tileEl(m.called, "m sideways"));
  if (m.added !== null) called.appendChild(tileEl(m.added, "m sideways"));
  rest.forEach((t, i) => {
    if (i === at) group.appendChild(called);
    group.appendChild(tileEl(t, "m"));
  });
  if (at >= rest.length) group.appendChild(called);
  return group;
}

// A seat's called sets (and kita), in the order they were made, right to left.
export function meldsEl(state, seat) {
  const melds = el("div", "melds");
  for (const m of ((state.meld_info || [])[seat]) || []) melds.appendChild(meldEl(m));
  for (const t of (state.kita || [])[seat] || []) melds.appendChild(tileEl(t, "m"));
  return melds;
}

// The dead wall as it lies: the indicators face up, the places of those to come face
// down (five in all, as a dead wall shows them).
function deadWallEl(indicators) {
  const wall = el("div", "dead-wall");
  wall.setAttribute("role", "img");
  wall.setAttribute("aria-label", t("board.indicators", { tiles: indicators.map(tileSpoken).join(t("list.and")) }));
  for (let i = 0; i < Math.max(5, indicators.length); i++) {
    wall.appendChild(tileEl(i < indicators.length ? indicators[i] : null, "w"));
  }
  return wall;
}

// A seat's plate: its wind (the dealer's marked), score, name and clock; pointing at a
// score shows every other seat's difference from it.
function plateEl(state, s, n, pos) {
  const wind = (s - state.dealer + n) % n;
  const player = state.players[s];
  const dealer = wind === 0;
  const plate = el("div", "plate" + (state.current === s && !state.over ? " current" : "") + (dealer ? " dealer" : ""));
  plate.dataset.pos = pos;
  plate.dataset.seat = s;
  const badge = el("span", "wind", WIND_GLYPHS[wind]);
  badge.lang = "ja";
  badge.title = dealer ? t("plate.wind_dealer", { wind: t(`wind.${wind}`) }) : t(`wind.${wind}`);
  plate.appendChild(badge);
  if (dealer) plate.appendChild(el("span", "dealer-mark", t("plate.dealer")));
  const score = el("button", "score", state.scores[s].toLocaleString());
  score.type = "button";
  const facts = [t("plate.points", { n: state.scores[s].toLocaleString() })];
  if (dealer) facts.push(t("plate.dealer"));
  if (state.riichi[s]) facts.push(t("plate.riichi"));
  if (state.current === s) facts.push(t("plate.to_play"));
  score.setAttribute("aria-label", t("plate.label", { wind: t(`wind.${wind}`), name: player.name, facts: facts.join(t("list.and")) }));
  plate.appendChild(score);
  plate.appendChild(el("span", "name", player.name));
  for (let o = 0; o < n; o++) {
    if (o === s) continue;
    const diff = el("span", "diff", signed(state.scores[s] - state.scores[o]));
    diff.dataset.from = o;
    plate.appendChild(diff);
  }
  const clock = el("span", "clock");
  clock.dataset.seat = s;
  plate.appendChild(clock);
  return plate;
}

function showDifferences(board, from) {
  if (from === null || board.dataset.diffFrom === String(from)) delete board.dataset.diffFrom;
  else board.dataset.diffFrom = from;
}

// Draws one state. `view` is the seat at the bottom; `open` shows every hand (replays);
// a spectator sees every hand's back, the bottom one too. A seat's own hand and sets
// are drawn under the board (hand.js), not on it.
export function drawTable(state, view, open, spectating = false, root = document) {
  setRed(state.red);
  const n = state.players.length;
  const board = root.querySelector(".board");
  board.dataset.players = n;
  const center = root.querySelector(".center");
  center.replaceChildren();
  const wind = state.round_wind - 27;
  const round = t("center.round", { wind: wind >= 0 && wind < 4 ? t(`wind.${wind}`) : "?", n: state.dealer + 1 });
  center.appendChild(el("div", "round", round));
  const counters = el("div", "counters");
  counters.appendChild(el("span", "honba", t("center.honba", { n: state.honba })));
  counters.appendChild(el("span", "sticks", t("center.sticks", { n: state.sticks })));
  center.appendChild(counters);
  center.appendChild(deadWallEl(state.dora_indicators));
  center.appendChild(el("div", "left", t("center.left", { n: state.live_left })));
  const last = state.last_discard;
  // the latest discard moves from its seat to the river once, when it is new to this
  // board, not at every drawing of the board after it, nor at its first (a page
  // opened or reloaded mid-hand shows the discards as they lie)
  const lastKey = last ? `${last[0]}:${last[1]}` : null;
  const arriving = lastKey !== null && LAST_SHOWN.has(board) && LAST_SHOWN.get(board) !== lastKey;
  LAST_SHOWN.set(board, lastKey);
  const plates = root.querySelector(".plates");
  plates.replaceChildren();
  root.querySelectorAll(".seat-zone").forEach((z) => { z.replaceChildren(); z.hidden = true; });
  for (let s = 0; s < n; s++) {
    const pos = positionOf(s, view, n);
    const zone = root.querySelector(`.seat-zone[data-pos="${pos}"]`);
    zone.hidden = false;
    zone.dataset.seat = s;
    const plate = plateEl(state, s, n, pos);
    const score = plate.querySelector(".score");
    score.addEventListener("mouseenter", () => { board.dataset.diffFrom = s; });
    score.addEventListener("mouseleave", () => { delete board.dataset.diffFrom; });
    score.addEventListener("click", () => showDifferences(board, s));
    score.addEventListener("blur", () => showDifferences(board, null));
    plates.appendChild(plate);
    if (state.riichi[s]) zone.appendChild(el("span", "riichi-stick"));
    zone.appendChild(riverEl(state.discards[s], (i) => last && last[0] === s && last[1] === i, arriving));
    const mine = s === view && !spectating && !open;
    if (mine) continue;  // under the board, at full size
    const edge = el("div", "edge");
    if (open && state.hands) {
      const hand = el("div", "hand open-hand");
      for (const t of withoutDrawn(state.hands[s], state.drawns[s])) hand.appendChild(tileEl(t, "h"));
      if (state.drawns[s] !== null) hand.appendChild(tileEl(state.drawns[s], "h drawn"));
      edge.appendChild(hand);
    } else {
      const hand = el("div", "hand hidden-hand");
      hand.setAttribute("role", "img");
        hand.setAttribute("aria-label", t("board.concealed", { n: state.hand_sizes[s] }));
      const size = state.hand_sizes[s];
      for (let i = 0; i < size; i++) hand.appendChild(tileEl(null, i === size - 1 && size % 3 === 2 ? "h drawn" : "h"));
      edge.appendChild(hand);
    }
    edge.appendChild(meldsEl(state, s));
    zone.appendChild(edge);
  }
}
