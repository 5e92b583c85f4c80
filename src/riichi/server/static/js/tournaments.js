// Tournaments: the list, a new one, one tournament's rounds and standings.
import { ME, loadMe } from "./account.js";
import { $, PAGE, el, getJSON, link, pager, playerLink, postJSON, rowOf, setStatus, when } from "./dom.js";

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
