// Watching, the leaderboard and a player's page.
import { $, PAGE, el, getJSON, pager, playerLink, setStatus } from "./dom.js";

export async function showWatch(offset = 0) {
  $("#watch").hidden = false;
  const page = await getJSON(`/api/watch?limit=${PAGE}&offset=${offset}`);
  const list = $("#watch-list");
  list.replaceChildren();
  for (const t of page.items) {
    const li = el("li");
    const a = el("a", null, `${t.kind} · ${t.rules} ${t.length}: ${t.seats.map((s) => s.name).join(", ")}`);
    a.href = `/table/${t.id}`;
    li.appendChild(a);
    li.appendChild(el("span", "muted", ` ${t.spectators} watching`));
    list.appendChild(li);
  }
  if (!page.items.length) list.appendChild(el("li", "muted", "no live table is open to spectators now"));
  pager($("#watch-pager"), page, showWatch);
}

export function placeText(value) { return value === null || value === undefined ? "-" : value.toFixed(2); }

export async function showLeaderboard(offset = 0) {
  $("#leaderboard").hidden = false;
  const page = await getJSON(`/api/leaderboard?limit=${PAGE}&offset=${offset}`);
  const body = $("#board-table tbody");
  body.replaceChildren();
  for (const row of page.items) {
    const tr = el("tr", row.provisional ? "provisional" : "");
    tr.appendChild(el("td", null, String(row.rank)));
    const who = el("td");
    who.appendChild(playerLink(row.player, row.name));
    tr.appendChild(who);
    tr.appendChild(el("td", "rating", String(row.rating)));
    tr.appendChild(el("td", null, String(row.games)));
    tr.appendChild(el("td", null, placeText(row.average_place)));
    const marks = [];
    if (row.computer) marks.push("computer");
    if (row.provisional) marks.push("provisional");
    tr.appendChild(el("td", "muted marks", marks.join(", ")));
    body.appendChild(tr);
  }
  if (!page.items.length) {
    const tr = el("tr");
    const td = el("td", "muted", "nobody has finished a rated game yet");
    td.colSpan = 6;
    tr.appendChild(td);
    body.appendChild(tr);
  }
  pager($("#board-pager"), page, showLeaderboard);
}

export const SVG = "http://www.w3.org/2000/svg";
export function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function plotHistory(svg, history) {
  plotSeries(svg, history.map((h) => h.rating), {
    empty: "no rated games yet",
    title: (i) => `game ${i + 1}: place ${history[i].place}, rating ${history[i].rating}`,
    dot: (i) => `place-${history[i].place}`,
  });
}

// The top-choice match of each reviewed game, oldest first, and the reviews to open.
export function plotMatches(svg, list, reviews) {
  const known = reviews.filter((r) => r.top_choice !== null && r.top_choice !== undefined);
  plotSeries(svg, known.map((r) => Math.round(1000 * r.top_choice) / 10), {
    empty: "no game reviewed yet",
    title: (i) => `${new Date(known[i].finished * 1000).toLocaleDateString()}: top-choice match ${Math.round(100 * known[i].top_choice)}%`,
    dot: () => "review",
  });
  list.replaceChildren();
  for (const r of [...reviews].reverse().slice(0, 20)) {
    const li = el("li");
    const top = r.top_choice === null || r.top_choice === undefined ? "" : `top-choice match ${Math.round(100 * r.top_choice)}%, `;
    const a = el("a", null, `${new Date(r.finished * 1000).toLocaleDateString()}: ${top}within the best value ${Math.round(100 * r.agreement)}%, ${Math.round(r.lost_per_hand).toLocaleString()} lost a hand`);
    a.href = `/review/${encodeURIComponent(r.game)}/${r.seat}`;
    li.appendChild(a);
    list.appendChild(li);
  }
}

// Points lost a hand in each reviewed game, oldest first.
export function plotReviews(svg, reviews) {
  plotSeries(svg, reviews.map((r) => r.lost_per_hand), {
    empty: "no game reviewed yet",
    title: (i) => `${new Date(reviews[i].finished * 1000).toLocaleDateString()}: ${Math.round(reviews[i].lost_per_hand)} lost a hand, within the best value ${Math.round(100 * reviews[i].agreement)}%`,
    dot: () => "review",
  });
}

function plotSeries(svg, values, { empty, title, dot }) {
  svg.replaceChildren();
  if (values.length < 2) {  // one point is no line: said, not drawn as a lone dot
    svg.appendChild(svgEl("text", { x: 300, y: 100, "text-anchor": "middle", class: "plot-empty" }))
      .textContent = values.length ? title(0) : empty;
    return;
  }
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 50) { low -= 25; high += 25; }
  const w = 600, h = 200, pad = 36;
  const x = (i) => pad + (i * (w - 2 * pad)) / (values.length - 1);
  const y = (v) => h - pad / 2 - ((v - low) * (h - pad)) / (high - low);
  svg.appendChild(svgEl("line", { x1: pad, y1: h - pad / 2, x2: w - pad, y2: h - pad / 2, class: "axis" }));
  for (const v of [low, high]) {
    const label = svgEl("text", { x: 2, y: y(v) + 4, class: "plot-label" });
    label.textContent = String(Math.round(v));
    svg.appendChild(label);
  }
  svg.appendChild(svgEl("polyline", {
    points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    class: "plot-line", fill: "none",
  }));
  values.forEach((v, i) => {
    const mark = svgEl("circle", { cx: x(i), cy: y(v), r: 3, class: `plot-dot ${dot(i)}` });
    const label = document.createElementNS(SVG, "title");
    label.textContent = title(i);
    mark.appendChild(label);
    svg.appendChild(mark);
  });
}

export function percent(v) { return v === null || v === undefined ? "-" : `${(100 * v).toFixed(1)}%`; }
export function points(v) { return v === null || v === undefined ? "-" : Math.round(v).toLocaleString(); }

export function statsTable(table, stats) {
  table.replaceChildren();
  const head = el("tr");
  for (const h of ["", "rated games", "all games"]) head.appendChild(el("th", null, h));
  table.appendChild(head);
  const placeRow = (s) => {
    const parts = [1, 2, 3, 4].map((p) => `${s.places[String(p)] || 0}`);
    return parts.join(" / ");
  };
  const rows = [
    ["games", (s) => String(s.games)],
    ["places 1st / 2nd / 3rd / 4th", placeRow],
    ["average place", (s) => placeText(s.average_place)],
    ["hands", (s) => String(s.hands)],
    ["win rate", (s) => percent(s.win_rate)],
    ["deal-in rate", (s) => percent(s.deal_in_rate)],
    ["riichi rate", (s) => percent(s.riichi_rate)],
    ["call rate", (s) => percent(s.call_rate)],
    ["tenpai at an exhaustive draw", (s) => percent(s.tenpai_at_draw)],
    ["average win", (s) => points(s.average_win)],
    ["average deal-in", (s) => points(s.average_deal_in)],
  ];
  for (const [label, f] of rows) {
    const tr = el("tr");
    tr.appendChild(el("th", null, label));
    tr.appendChild(el("td", null, f(stats.rated)));
    tr.appendChild(el("td", null, f(stats.all)));
    table.appendChild(tr);
  }
}

export async function showPlayer(key, offset = 0) {
  $("#player").hidden = false;
  let data;
  try { data = await getJSON(`/api/players/${encodeURIComponent(key)}?limit=${PAGE}&offset=${offset}`); } catch (err) {
    setStatus(err.message);
    return;
  }
  $("#player-name").textContent = data.name + (data.computer ? " (computer)" : "");
  const r = data.rating;
  $("#player-rating").textContent = r
    ? `rating ${r.rating} after ${r.games} rated games${r.provisional ? " (provisional)" : ""}`
    : "no rated games yet";
  plotHistory($("#rating-plot"), data.history);
  plotReviews($("#review-plot"), data.reviews);
  plotMatches($("#match-plot"), $("#player-reviews"), data.reviews);
  statsTable($("#player-stats"), data.stats);
  const list = $("#player-games");
  list.replaceChildren();
  for (const g of data.games.items) {
    const li = el("li");
    const when = new Date(g.finished * 1000).toLocaleString();
    const a = el("a", null, `${when}: ${g.kind}, place ${g.place}, ${g.score.toLocaleString()}`);
    a.href = `/replay/${g.table}`;
    li.appendChild(a);
    for (const [fmt, label] of [["tenhou6", "tenhou.net/6"], ["mjai", "mjai"], ["record", "record"]]) {
      const d = el("a", "download", ` ${label}`);
      d.href = `/api/games/${g.table}/${fmt}`;
      li.appendChild(d);
    }
    if (!data.computer) {
      const r = el("a", "download", " review");
      r.href = `/review/${g.table}/${g.seat}`;
      li.appendChild(r);
    }
    list.appendChild(li);
  }
  if (!data.games.items.length) list.appendChild(el("li", "muted", "no finished games"));
  pager($("#games-pager"), data.games, (o) => showPlayer(key, o));
}
