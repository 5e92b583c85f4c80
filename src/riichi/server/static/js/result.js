// A hand's result and a match's final standings.
import { meldsEl } from "./board.js";
import { LANG, t } from "./i18n.js";
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
      const tsumo = e.source === null || e.source === e.seat;
      box.appendChild(el("h3", null, tsumo
        ? t("result.win_tsumo", { who })
        : t("result.win_ron", { who, from: players[e.source].name })));
      const row = el("div", "win-row");
      row.appendChild(handTiles(e.hand.includes(e.tile) ? e.hand : [...e.hand, e.tile], e.tile));
      row.appendChild(meldsEl(state || {}, e.seat));
      box.appendChild(row);
      const yaku = el("ul", "yaku");
      for (const y of r.yaku) {
        const li = el("li");
        // its English name beside the Japanese one; on the Japanese site the one alone
        if (LANG !== "ja") li.appendChild(el("span", null, `${y.en} `));
        const ja = el("span", "ja", y.ja);
        ja.lang = "ja";
        li.appendChild(ja);
        li.appendChild(el("span", "han", ` ${t("result.han", { n: y.han })}`));
        yaku.appendChild(li);
      }
      if (r.dora) yaku.appendChild(el("li", null, t("result.dora", { n: r.dora })));
      if (r.aka) yaku.appendChild(el("li", null, t("result.aka", { n: r.aka })));
      if (r.ura) yaku.appendChild(el("li", null, t("result.ura", { n: r.ura })));
      box.appendChild(yaku);
      const ind = el("div", "dora");
      ind.appendChild(el("span", "label", t("result.indicators")));
      for (const t of (state && state.dora_indicators) || []) ind.appendChild(tileEl(t, "m"));
      if (e.ura && e.ura.length) {
        ind.appendChild(el("span", "label", t("result.ura_indicators")));
        for (const t of e.ura) ind.appendChild(tileEl(t, "m"));
      }
      box.appendChild(ind);
      const limit = r.limit && r.limit !== "none" ? ` · ${t(`limit.${r.limit}`)}` : "";
      const points = r.points.toLocaleString();
      box.appendChild(el("p", "value", r.yakuman
        ? t("result.yakuman", { n: r.yakuman, points })
        : t("result.value", { han: r.han, fu: r.fu, limit, points })));
      if (!r.yakuman) {
        const items = r.fu_items.map((i) => `${worded(i.label)} ${i.fu}`).join(", ");
        box.appendChild(el("p", "muted fu", t("result.fu", { items })));
      }
      const pays = r.payments.map((p) => t("result.pays", { who: players[p.seat].name, points: p.points.toLocaleString() })).join("; ");
      box.appendChild(el("p", "payments", pays));
    } else if (e.type === "ryuukyoku") {
      box.appendChild(el("h3", null, e.kind === "exhaustive"
        ? t("result.exhaustive") : t("result.abortive", { why: t(`abort.${e.kind}`) })));
      if (e.tenpai) box.appendChild(el("p", null, t("result.tenpai", { names: e.tenpai.map((s) => players[s].name).join(", ") || t("result.nobody") })));
      for (const [seat, tiles] of Object.entries(e.hands || {})) {
        const row = el("div", "win-row");
        row.appendChild(el("span", "who", `${players[seat].name}: `));
        row.appendChild(handTiles(tiles));
        row.appendChild(meldsEl(state || {}, Number(seat)));
        box.appendChild(row);
      }
      if (e.nagashi && e.nagashi.length) box.appendChild(el("p", null, t("result.nagashi", { names: e.nagashi.map((s) => players[s].name).join(", ") })));
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
      box.appendChild(el("h3", null, t("result.final")));
      box.appendChild(standingsTable(e.standings, players, (state && state.final) || null));
    }
  }
  return box;
}

// The final standings; where the points are uma and oka, what each seat's are made of;
// at a money table, the chips each seat won or lost in place of the points.
function standingsTable(standings, players, final) {
  const bySeat = final ? Object.fromEntries(final.map((f) => [f.seat, f])) : {};
  const money = final && final.some((f) => f.chips !== null);
  const parts = final && final.some((f) => f.uma !== undefined);
  const raw = standings.every((x) => x.points === x.score);  // no settlement: the score is all
  const table = el("table", "standings");
  const head = el("tr");
  const columns = [t("standings.place"), t("standings.player"), t("standings.score")];
  if (parts && !money) columns.push("base", "oka", "uma");
  if (money) columns.push(t("standings.chips"));
  else if (!raw) columns.push(t("standings.points"));
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
  for (const [key, text] of [["replay", t("result.replay")], ["lobby", t("result.lobby")]]) {
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
