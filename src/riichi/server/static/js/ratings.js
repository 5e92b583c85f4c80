// The leaderboard and a player's page: ratings, statistics, games, reviews.
import { $, PAGE, el, emptyRow, getJSON, pager, playerLink, setStatus } from "./dom.js";
import { plotHistory, plotMatches, plotReviews } from "./charts.js";

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
  if (!page.items.length) body.appendChild(emptyRow("nobody has finished a rated game yet", 6));
  pager($("#board-pager"), page, showLeaderboard);
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
