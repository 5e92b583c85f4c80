// Chips, the Daily Wall and tournaments.
import { ME, loadMe } from "./account.js";
import { $, PAGE, chipText, el, getJSON, link, pager, playerLink, postJSON, rowOf, setStatus, when } from "./dom.js";

// A Daily Wall score is raw points: whole, grouped, no decimals.
function scoreText(v) { return v === null || v === undefined ? null : Math.round(v).toLocaleString(); }
function signedText(v) { return v === null || v === undefined ? null : (v > 0 ? "+" : "") + Math.round(v).toLocaleString(); }

export async function showChips(offset = 0) {
  $("#chips").hidden = false;
  let data;
  try { data = await getJSON(`/api/chips?limit=${PAGE}&offset=${offset}`); } catch (err) {
    setStatus(`${err.message}: sign in to hold chips`);
    return;
  }
  $("#chip-balance").textContent = chipText(data.balance);
  const body = $("#chip-table tbody");
  body.replaceChildren();
  for (const e of data.statement.items) {
    const what = e.link ? link(e.what, e.link) : e.what;
    body.appendChild(rowOf([when(e.created), what, (e.amount > 0 ? "+" : "") + e.amount.toLocaleString()]));
  }
  pager($("#chip-pager"), data.statement, showChips);
}

// Whether a board's player key is the signed-in account (before the day ends no row
// names its game, so the row is found by its player).
export function isMe(player) {
  return Boolean(ME && ME.account && player === `account:${ME.account.id}`);
}

export async function showDaily() {
  $("#daily").hidden = false;
  const day = new URLSearchParams(location.search).get("day");
  let data;
  try { data = await getJSON(`/api/daily${day ? `?day=${encodeURIComponent(day)}` : ""}`); } catch (err) {
    setStatus(err.message);
    return;
  }
  $("#daily-title").textContent = `Daily Wall of ${data.day}`;
  // the day is the same everywhere (a UTC day); when it ends is said in local time
  $("#daily-ends").textContent = data.today
    ? `Today's walls can be played until ${when(data.ends)}, your time.`
    : `This day ended ${when(data.ends)}, your time.`;
  $("#daily-commitment").textContent = data.commitment;
  const seed = $("#daily-seed");
  seed.textContent = data.seed
    ? `The seed was ${data.seed}: check it with  riichi walls ${data.seed} --commitment ${data.commitment}`
    : `The seed is shown when the day ends (${when(data.ends)}).`;
  const play = $("#daily-play");
  play.hidden = !data.today;
  const mine = data.mine;
  if (!ME || !ME.account) {
    play.disabled = true;
    play.textContent = "Sign in to play";
  } else if (mine && mine.status === "over") {
    play.disabled = true;
    play.textContent = `You scored ${scoreText(mine.score) ?? "-"} today`;
  } else {
    play.disabled = false;
    play.textContent = mine ? "Back to your attempt" : "Play today's walls";
  }
  play.onclick = async () => {
    try {
      const started = await postJSON("/api/daily", {});
      location.href = `/table/${started.table}`;
    } catch (err) { setStatus(err.message); }
  };
  const body = $("#daily-board tbody");
  body.replaceChildren();
  // a game opens once the day is over: its replay, and beside yours
  const games = (row) => {
    if (!row.game) return null;
    const open = el("span");
    open.appendChild(link("replay", `/replay/${row.game}`));
    if (mine && mine.table !== row.game && mine.status === "over") {
      open.appendChild(document.createTextNode(" · "));
      open.appendChild(link("side by side with yours", `/compare/${mine.table}/${row.game}`));
    }
    return open;
  };
  for (const row of data.board) {
    const tr = rowOf([row.rank, playerLink(row.player, row.name), scoreText(row.score), when(row.finished), games(row)]);
    if (isMe(row.player)) tr.classList.add("mine");
    body.appendChild(tr);
  }
  for (const row of data.unranked || []) {
    const open = games(row) || el("span");
    open.prepend(document.createTextNode(`unranked: ${row.why}${row.game ? " · " : ""}`));
    const tr = rowOf(["", playerLink(row.player, row.name), scoreText(row.score), when(row.finished), open]);
    tr.classList.add("unranked");
    if (isMe(row.player)) tr.classList.add("mine");
    body.appendChild(tr);
  }
  if (!data.board.length && !(data.unranked || []).length) {
    body.appendChild(rowOf(["", "nobody has finished today's walls yet", "", "", ""]));
  }
  const compare = $("#daily-compare");
  compare.hidden = !data.compare;
  const hands = $("#daily-hands tbody");
  hands.replaceChildren();
  for (const h of data.compare || []) {
    hands.appendChild(rowOf([h.label, h.played, signedText(h.best), signedText(h.average), signedText(h.worst), signedText(h.yours),
      h.better_than_yours === null ? null : `${h.better_than_yours} did better`]));
  }
  const earlier = $("#daily-earlier");
  earlier.replaceChildren();
  for (const d of data.earlier) {
    const li = el("li");
    li.appendChild(link(d, `/daily?day=${d}`));
    earlier.appendChild(li);
  }
  if (!data.earlier.length) earlier.appendChild(el("li", "muted", "no earlier days yet"));
}

export async function showTournaments(offset = 0) {
  $("#tournaments").hidden = false;
  const presets = await getJSON("/api/presets");
  const rules = $("#t-rules");
  if (!rules.options.length) {
    for (const p of presets) {
      const opt = el("option", null, `${p.name} (${p.players} players)`);
      opt.value = p.name;
      if (p.name === "riichi-basic") opt.selected = true;
      rules.appendChild(opt);
    }
  }
  const page = await getJSON(`/api/tournaments?limit=${PAGE}&offset=${offset}`);
  const list = $("#t-list");
  list.replaceChildren();
  for (const t of page.items) {
    const li = el("li");
    li.appendChild(link(t.name, `/tournament/${t.id}`));
    li.appendChild(el("span", "muted", ` ${t.status} · ${t.rules} ${t.length} · ${t.rounds} rounds · buy-in ${t.bet}+${t.fee}`));
    list.appendChild(li);
  }
  if (!page.items.length) list.appendChild(el("li", "muted", "no tournaments yet"));
  pager($("#t-pager"), page, showTournaments);
  $("#t-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const num = (k) => Number(f.get(k) || 0);
    try {
      const made = await postJSON("/api/tournaments", {
        name: f.get("name"), rules: f.get("rules"), length: f.get("length") || undefined,
        rounds: num("rounds"), bet: num("bet"), fee: num("fee"), added: num("added"),
        payout: String(f.get("payout")).split(/[\s,]+/).filter(Boolean).map(Number),
        clock: f.get("clock"), closes_in: Math.round(num("closes") * 60),
      });
      location.href = `/tournament/${made.id}`;
    } catch (err) { setStatus(err.message); }
  };
}

export async function showTournament(id) {
  $("#tournament").hidden = false;
  const render = (t) => {
    $("#t-name").textContent = t.name;
    $("#t-facts").textContent = `${t.status} · ${t.rules} ${t.length}, ${t.rounds} rounds · buy-in ${t.bet} + fee ${t.fee}` +
      ` · pot ${t.pot} · payout ${t.payout.join("/")}% · ` +
      (t.status === "open" ? `registration closes ${when(t.closes)}` : `round ${t.round} of ${t.rounds}`);
    const mineIn = ME && ME.account && t.entrants.some((e) => e.player === `account:${ME.account.id}`);
    $("#t-register").hidden = t.status !== "open" || !ME || !ME.account || mineIn;
    const organiser = ME && ME.account && ME.account.id === t.organiser && t.status === "open";
    $("#t-organiser").hidden = !organiser;
    const body = $("#t-standings tbody");
    body.replaceChildren();
    for (const s of t.standings) {
      body.appendChild(rowOf([s.rank, playerLink(s.entrant, t.names[s.entrant] || s.entrant), s.points, s.score, s.games, s.places.join(" "), s.paid || ""]));
    }
    const tables = $("#t-tables");
    tables.replaceChildren();
    for (const r of t.tables) {
      const li = el("li");
      const names = r.players.map((p) => (p ? t.names[p] : "roster computer")).join(", ");
      li.appendChild(link(`round ${r.round}, table ${r.number}`, r.over ? `/replay/${r.table}` : `/table/${r.table}`));
      li.appendChild(el("span", "muted", ` ${names}${r.over ? "" : " (in play)"}`));
      tables.appendChild(li);
    }
  };
  const load = async () => render(await getJSON(`/api/tournaments/${encodeURIComponent(id)}`));
  const act = async (what, body) => {
    try { render(await postJSON(`/api/tournaments/${encodeURIComponent(id)}/${what}`, body)); } catch (err) { setStatus(err.message); }
  };
  $("#t-register").onclick = () => act("register", {});
  $("#t-add").onclick = () => act("computers", { count: Number($("#t-count").value) });
  $("#t-start").onclick = () => act("start", {});
  await loadMe();
  await load();
  setInterval(load, 5000);
}
