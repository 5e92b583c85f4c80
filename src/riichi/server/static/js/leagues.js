// League seasons (003): the list and a new season's form; a season's page with its
// standings in PT by player and by team, each one's PT over the season, and its tables.
import { ME, loadMe } from "./account.js";
import { $, el, getJSON, link, playerLink, postJSON, rowOf, setStatus } from "./dom.js";
import { SVG, svgEl } from "./charts.js";

export async function showLeagues() {
  $("#leagues").hidden = false;
  await loadMe();
  $("#l-form").hidden = !(ME && ME.account);
  const presets = await getJSON("/api/presets");
  const select = $("#l-rules");
  select.replaceChildren(...presets.map((p) => Object.assign(el("option", null, p.name), { value: p.name })));
  select.value = "league";
  $("#l-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = {
      name: f.get("name"), rules: f.get("rules"), clock: f.get("clock"), mode: f.get("mode"),
      joining: f.get("joining"), rounds: Number(f.get("rounds")), play: f.get("play"),
      meetings: Number(f.get("meetings")),
    };
    const invite = String(f.get("invite") || "").split(/[\s,]+/).filter(Boolean);
    if (body.joining === "invitation") body.invite = invite;
    try {
      const made = await postJSON("/api/leagues", body);
      location.href = `/league/${made.id}`;
    } catch (err) { $("#l-error").textContent = err.message; }
  });
  const list = $("#l-list");
  const data = await getJSON("/api/leagues");
  list.replaceChildren(...data.items.map((s) => {
    const li = el("li");
    li.appendChild(link(s.name, `/league/${s.id}`));
    li.appendChild(el("span", "muted", ` ${s.status} · ${s.mode} · round ${s.round} of ${s.rounds}`));
    return li;
  }));
  if (!data.items.length) list.appendChild(el("li", "muted", "no season yet"));
}

const pt = (v) => (v === null || v === undefined ? "-" : `${v > 0 ? "+" : ""}${v.toFixed(1)}`);

export async function showLeague(id) {
  $("#league").hidden = false;
  await loadMe();
  const render = (s) => {
    $("#l-name").textContent = s.name;
    const progress = s.play === "open"
      ? `open play, each pair at most ${s.meetings} times${s.waiting.length ? ` · waiting: ${s.waiting.join(", ")}` : ""}`
      : `round ${s.round} of ${s.rounds}`;
    $("#l-facts").textContent = `${s.status} · ${s.rules} ${s.length}, ${s.clock} · ${s.mode}, ${s.joining} · ${progress} · ${s.members.length} members`;
    const me = ME && ME.account ? `account:${ME.account.id}` : null;
    const member = s.members.some((m) => m.key === me);
    $("#l-join").hidden = s.status !== "open" || !me || member;
    $("#l-team").hidden = !["team", "turns"].includes(s.mode) || s.status !== "open";
    $("#l-organiser").hidden = !(me && ME.account.id === s.organiser && s.status === "open");
    const open = s.play === "open" && s.status === "running";
    const waiting = s.waiting.includes(ME && ME.account ? ME.account.name : "");
    $("#l-wait").hidden = !(open && member);
    $("#l-wait").textContent = waiting ? "Stop waiting" : "Wait for a table";
    $("#l-wait").dataset.action = waiting ? "stop-waiting" : "wait";
    $("#l-end").hidden = !(open && me && ME.account.id === s.organiser);
    for (const [table, lines, teams] of [[$("#l-standings tbody"), s.standings, false], [$("#l-teams tbody"), s.teams, true]]) {
      table.replaceChildren();
      lines.forEach((line, i) => {
        const who = teams || !line.key.startsWith("account:") ? line.name : playerLink(line.key, line.name);
        table.appendChild(rowOf([i + 1, who, teams ? "" : (line.team || ""), pt(line.pt), line.games, line.average_place === null ? "-" : line.average_place.toFixed(2), pt(line.best)]));
      });
    }
    $("#l-teams-box").hidden = !s.teams.length;
    plotSeasons($("#l-plot"), s.standings);
    const tables = $("#l-tables");
    tables.replaceChildren(...s.tables.map((t) => {
      const li = el("li");
      li.appendChild(link(`round ${t.round}, table ${t.number}`, t.over ? `/replay/${t.table}` : `/table/${t.table}`));
      li.appendChild(el("span", "muted", ` ${t.names.map((n) => n || "roster computer").join(", ")}${t.over ? "" : " (in play)"}`));
      return li;
    }));
  };
  const load = async () => render(await getJSON(`/api/leagues/${encodeURIComponent(id)}`));
  const act = async (what, body) => {
    try { render(await postJSON(`/api/leagues/${encodeURIComponent(id)}/${what}`, body)); } catch (err) { setStatus(err.message); }
  };
  $("#l-join").onclick = () => act("join", { team: $("#l-team input").value });
  $("#l-add").onclick = () => act("computers", { count: Number($("#l-count").value), team: $("#l-team input").value });
  $("#l-start").onclick = () => act("start", {});
  $("#l-wait").onclick = () => act($("#l-wait").dataset.action, {});
  $("#l-end").onclick = () => act("end", {});
  await load();
  setInterval(load, 5000);
}

// Each player's PT after each game of the season, one line a player.
function plotSeasons(svg, lines) {
  svg.replaceChildren();
  const all = lines.flatMap((l) => [0, ...l.series]);
  if (!lines.some((l) => l.series.length)) {
    svg.appendChild(svgEl("text", { x: 300, y: 100, "text-anchor": "middle", class: "plot-empty" })).textContent = "no game played yet";
    return;
  }
  const low = Math.min(...all), high = Math.max(...all, low + 1);
  const most = Math.max(...lines.map((l) => l.series.length));
  const w = 600, h = 200, pad = 36;
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, most);
  const y = (v) => h - pad / 2 - ((v - low) * (h - pad)) / (high - low);
  svg.appendChild(svgEl("line", { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: "axis" }));
  lines.forEach((line, n) => {
    const points = [0, ...line.series].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const path = svgEl("polyline", { points, class: `plot-line series-${n % 8}`, fill: "none" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = `${line.name}: ${pt(line.pt)} PT`;
    path.appendChild(title);
    svg.appendChild(path);
  });
}
