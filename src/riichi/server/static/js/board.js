// The board: rivers, called sets, concealed hands, the centre, the seats' plates.
import { el } from "./dom.js";
import { WINDS, setRed, tileEl, tileSpoken } from "./tiles.js";

export function withoutDrawn(hand, drawn) {
  const rest = [...hand];
  if (drawn !== null && drawn !== undefined) {
    const i = rest.indexOf(drawn);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

// A river in rows of six; a called tile is gone to its caller's set (a riichi tile taken
// that way passes its sideways turn to the next tile); the latest discard is marked.
export function riverEl(discards, isLast) {
  const river = el("div", "river");
  let row = null;
  let count = 0;
  let sidewaysOwed = false;
  discards.forEach(([t, tsumogiri, riichi, called], i) => {
    if (called) {
      if (riichi) sidewaysOwed = true;
      return;
    }
    if (count % 6 === 0) { row = el("div", "river-row"); river.appendChild(row); }
    count++;
    const cls = ["r"];
    if (riichi || sidewaysOwed) { cls.push("sideways"); sidewaysOwed = false; }
    if (tsumogiri) cls.push("tsumogiri");
    if (isLast(i)) cls.push("last");
    const node = tileEl(t, cls.join(" "));
    const notes = [];
    if (tsumogiri) notes.push("drawn and discarded");
    if (riichi) notes.push("riichi");
    if (isLast(i)) notes.push("latest discard");
    if (notes.length) node.querySelector("img").alt += ` (${notes.join(", ")})`;
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
  group.setAttribute("aria-label", `${m.type} of ${m.tiles.map(tileSpoken).join(", ")}`);
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

// Draws one state. `view` is the seat at the bottom; `open` shows every hand (replays);
// a spectator sees every hand's back, the bottom one too.
export function drawTable(state, view, open, spectating = false, root = document) {
  setRed(state.red);
  const n = state.players.length;
  const board = root.querySelector(".board");
  board.dataset.players = n;
  const center = root.querySelector(".center");
  center.replaceChildren();
  const round = `${WINDS[state.round_wind - 27] || "?"} ${state.dealer + 1}`;
  center.appendChild(el("div", "round", round));
  center.appendChild(el("div", "honba", `honba ${state.honba} · sticks ${state.sticks}`));
  center.appendChild(el("div", "left", `${state.live_left} tiles left`));
  const dora = el("div", "dora");
  dora.appendChild(el("span", "label", "dora "));
  for (const t of state.dora_indicators) dora.appendChild(tileEl(t, "m"));
  center.appendChild(dora);
  const last = state.last_discard;
  const meldInfo = state.meld_info || state.meld_tiles.map(() => []);
  root.querySelectorAll(".seat-zone").forEach((z) => { z.replaceChildren(); z.hidden = true; });
  for (let s = 0; s < n; s++) {
    const pos = (s - view + n) % n;
    const zone = root.querySelector(`.seat-zone[data-pos="${n === 3 && pos === 2 ? 3 : pos}"]`);
    zone.hidden = false;
    zone.dataset.seat = s;
    const wind = WINDS[(s - state.dealer + n) % n];
    const player = state.players[s];
    const plate = el("div", "plate" + (state.current === s && !state.over ? " current" : ""));
    plate.setAttribute("aria-label", `${wind}: ${player.name}, ${state.scores[s]} points` +
      `${state.riichi[s] ? ", in riichi" : ""}${state.current === s ? ", to play" : ""}`);
    plate.appendChild(el("span", "wind", wind[0]));
    plate.appendChild(el("span", "score", String(state.scores[s])));
    plate.appendChild(el("span", "name", player.name));
    const clock = el("span", "clock");
    clock.dataset.seat = s;
    plate.appendChild(clock);
    if (state.riichi[s]) plate.appendChild(el("span", "riichi-stick", ""));
    zone.appendChild(plate);
    zone.appendChild(riverEl(state.discards[s], (i) => last && last[0] === s && last[1] === i));
    const edge = el("div", "edge");
    if (open && state.hands) {
      const hand = el("div", "hand open-hand");
      for (const t of withoutDrawn(state.hands[s], state.drawns[s])) hand.appendChild(tileEl(t, "h"));
      if (state.drawns[s] !== null) hand.appendChild(tileEl(state.drawns[s], "h drawn"));
      edge.appendChild(hand);
    } else if (s !== view || spectating) {
      const hand = el("div", "hand hidden-hand");
      hand.setAttribute("role", "img");
      hand.setAttribute("aria-label", `${state.hand_sizes[s]} concealed tiles`);
      for (let i = 0; i < state.hand_sizes[s]; i++) hand.appendChild(tileEl(null, "h"));
      edge.appendChild(hand);
    }
    const melds = el("div", "melds");
    for (const m of meldInfo[s]) melds.appendChild(meldEl(m));
    for (const t of (state.kita || [])[s] || []) melds.appendChild(tileEl(t, "m"));
    edge.appendChild(melds);
    zone.appendChild(edge);
  }
}
