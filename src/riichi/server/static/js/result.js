// A hand's result and a match's final standings.
import { meldsEl } from "./board.js";
import { $, el, link, signed } from "./dom.js";
import { tileEl, worded } from "./tiles.js";

export function handTiles(tiles, winning) {
  const box = el("div", "hand result-hand");
  const rest = [...tiles];
  const i = winning === undefined ? -1 : rest.indexOf(winning);
  if (i >= 0) rest.splice(i, 1);
  for (const t of rest.sort((a, b) => a - b)) box.appendChild(tileEl(t, "h"));
  if (i >= 0) box.appendChild(tileEl(winning, "h drawn winning"));
  return box;
}

export function resultHtml(events, players, state) {
  const box = el("div");
  for (const e of events) {
    if (e.type === "win") {
      const r = e.result;
      const who = players[e.seat].name;
      const how = e.source === null || e.source === e.seat ? "tsumo" : `ron from ${players[e.source].name}`;
      box.appendChild(el("h3", null, `${who} wins by ${how}`));
      const row = el("div", "win-row");
      row.appendChild(handTiles(e.hand.includes(e.tile) ? e.hand : [...e.hand, e.tile], e.tile));
      row.appendChild(meldsEl(state || {}, e.seat));
      box.appendChild(row);
      const yaku = el("ul", "yaku");
      for (const y of r.yaku) {
        const li = el("li");
        li.appendChild(el("span", null, y.en));
        const ja = el("span", "ja", ` ${y.ja}`);
        ja.lang = "ja";
        li.appendChild(ja);
        li.appendChild(el("span", "han", ` ${y.han} han`));
        yaku.appendChild(li);
      }
      if (r.dora) yaku.appendChild(el("li", null, `dora ${r.dora} han`));
      if (r.aka) yaku.appendChild(el("li", null, `red fives ${r.aka} han`));
      if (r.ura) yaku.appendChild(el("li", null, `ura dora ${r.ura} han`));
      box.appendChild(yaku);
      const ind = el("div", "dora");
      ind.appendChild(el("span", "label", "dora indicators "));
      for (const t of (state && state.dora_indicators) || []) ind.appendChild(tileEl(t, "m"));
      if (e.ura && e.ura.length) {
        ind.appendChild(el("span", "label", " ura indicators "));
        for (const t of e.ura) ind.appendChild(tileEl(t, "m"));
      }
      box.appendChild(ind);
      const limit = r.limit && r.limit !== "none" ? ` · ${r.limit}` : "";
      box.appendChild(el("p", "value", r.yakuman
        ? `yakuman x${r.yakuman} · ${r.points.toLocaleString()} points`
        : `${r.han} han ${r.fu} fu${limit} · ${r.points.toLocaleString()} points`));
      if (!r.yakuman) box.appendChild(el("p", "muted fu", `fu: ${r.fu_items.map((i) => `${worded(i.label)} ${i.fu}`).join(", ")}`));
      const pays = r.payments.map((p) => `${players[p.seat].name} pays ${p.points.toLocaleString()}`).join("; ");
      box.appendChild(el("p", "payments", pays));
    } else if (e.type === "ryuukyoku") {
      box.appendChild(el("h3", null, e.kind === "exhaustive" ? "Exhaustive draw" : `Abortive draw: ${ABORTS[e.kind] || e.kind}`));
      if (e.tenpai) box.appendChild(el("p", null, `tenpai: ${e.tenpai.map((s) => players[s].name).join(", ") || "nobody"}`));
      for (const [seat, tiles] of Object.entries(e.hands || {})) {
        const row = el("div", "win-row");
        row.appendChild(el("span", "who", `${players[seat].name}: `));
        row.appendChild(handTiles(tiles));
        row.appendChild(meldsEl(state || {}, Number(seat)));
        box.appendChild(row);
      }
      if (e.nagashi && e.nagashi.length) box.appendChild(el("p", null, `nagashi mangan: ${e.nagashi.map((s) => players[s].name).join(", ")}`));
    } else if (e.type === "end_hand") {
      const deltas = el("table", "deltas");
      e.deltas.forEach((d, s) => {
        const row = el("tr");
        row.appendChild(el("td", null, players[s].name));
        row.appendChild(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", d > 0 ? `+${d.toLocaleString()}` : d.toLocaleString()));
        row.appendChild(el("td", null, e.scores[s].toLocaleString()));
        deltas.appendChild(row);
      });
      box.appendChild(deltas);
    } else if (e.type === "end_match") {
      box.appendChild(el("h3", null, "Final standings"));
      box.appendChild(standingsTable(e.standings, players, (state && state.final) || null));
    }
  }
  return box;
}

// How an abortive draw came about, in words.
const ABORTS = {
  "nine-terminals": "nine different terminals and honours in a first hand (kyuushu kyuuhai)",
  "four-winds": "the same wind discarded by all four in the first go-round (suufon renda)",
  "four-riichi": "all four players in riichi (suucha riichi)",
  "four-kans": "four kans by more than one player (suukaikan)",
  "triple-ron": "three players won on one tile (sanchahou)",
};

// The final standings; where the points are uma and oka, what each seat's are made of;
// at a money table, the chips each seat won or lost in place of the points.
function standingsTable(standings, players, final) {
  const bySeat = final ? Object.fromEntries(final.map((f) => [f.seat, f])) : {};
  const money = final && final.some((f) => f.chips !== null);
  const parts = final && final.some((f) => f.uma !== undefined);
  const raw = standings.every((x) => x.points === x.score);  // no settlement: the score is all
  const table = el("table", "standings");
  const head = el("tr");
  const columns = ["#", "player", "score"];
  if (parts && !money) columns.push("base", "oka", "uma");
  if (money) columns.push("chips");
  else if (!raw) columns.push("points");
  for (const h of columns) head.appendChild(el("th", null, h));
  table.appendChild(head);
  for (const x of [...standings].sort((a, b) => a.place - b.place)) {
    const f = bySeat[x.seat] || {};
    const row = el("tr");
    row.dataset.seat = x.seat;
    const cells = [String(x.place), players[x.seat].name, x.score.toLocaleString()];
    if (parts && !money) cells.push(signed(f.base, 1), signed(f.oka, 1), signed(f.uma, 1));
    for (const c of cells) row.appendChild(el("td", null, c));
    if (money) {
      row.appendChild(el("td", `chips ${f.chips > 0 ? "plus" : f.chips < 0 ? "minus" : ""}`,
        (f.chips > 0 ? "+" : "") + f.chips.toLocaleString()));
    } else if (!raw) {
      row.appendChild(el("td", "points", signed(x.points, 1)));
    }
    table.appendChild(row);
  }
  if (parts && !money) {
    const note = el("caption", "muted", "points = base (the score less the return, in thousands) + oka + uma");
    table.appendChild(note);
  }
  return table;
}

export const END_EVENTS = ["win", "ryuukyoku", "end_hand", "end_match"];

// The events of the last hand to have ended (a full history ends with the next deal's).
export function lastHand(events) {
  const starts = events.flatMap((e, i) => (e.type === "start_hand" ? [i] : []));
  return events.slice(starts.length > 1 ? starts[starts.length - 2] : 0, starts[starts.length - 1]);
}

// The result over the board (which shows the hand as it ended); `done` runs on Next.
export function showResult(events, players, state, links, done) {
  const ends = events.filter((e) => END_EVENTS.includes(e.type));
  if (!ends.length) return false;
  const body = $("#result-body");
  body.replaceChildren(resultHtml(ends, players, state));
  const nav = $("#result-links");
  nav.replaceChildren();
  for (const [key, text] of [["replay", "Replay this match"], ["lobby", "Back to the lobby"]]) {
    if (links && links[key]) nav.appendChild(link(text, links[key]));
  }
  const panel = $("#result-panel");
  panel.hidden = false;
  body.scrollTop = 0;  // the result reads from its top: who won, the hand, the yaku
  const ok = $("#result-ok");
  ok.onclick = () => { panel.hidden = true; if (done) done(); };
  ok.focus({ preventScroll: true });
  return true;
}
