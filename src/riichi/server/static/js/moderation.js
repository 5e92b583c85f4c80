// Moderation (operators only): one form for every act, the open reports and the log;
// and a player's report of another, under the replay of a game they both played.
import { ME, loadMe } from "./account.js";
import { $, el, getJSON, pager, postJSON, rowOf, when } from "./dom.js";

export async function showModeration() {
  $("#moderation").hidden = false;
  await loadMe();
  const form = $("#m-form");
  const shown = () => {
    const act = $("#m-act").value;
    for (const label of form.querySelectorAll("label[data-for]")) {
      label.hidden = !label.dataset.for.split(" ").includes(act);
    }
  };
  $("#m-act").addEventListener("change", shown);
  shown();
  const load = async (offset = 0) => {
    let data;
    try {
      data = await getJSON(`/api/moderation?offset=${offset}`);
    } catch (err) {
      $("#m-denied").textContent = err.message;
      $("#m-denied").hidden = false;
      form.hidden = true;
      return;
    }
    $("#m-log").replaceChildren(...data.items.map((e) => rowOf([
      e.id, when(e.at), e.operator, e.act, e.target, e.reason,
      Object.entries(e.detail).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(", "),
    ])));
    pager($("#m-pager"), data, load);
    const reports = $("#m-reports");
    reports.replaceChildren(...data.reports.map((r) => {
      const li = el("li");
      li.appendChild(el("strong", null, `#${r.id} `));
      li.appendChild(document.createTextNode(`${r.by} reports ${r.against}${r.suspended ? " (suspended)" : ""}: ${r.text} `));
      const game = el("a", null, "the game");
      game.href = `/replay/${r.game}`;
      li.appendChild(game);
      return li;
    }));
    if (!data.reports.length) reports.appendChild(el("li", "muted", "no open report"));
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const act = f.get("act");
    const body = { act, reason: f.get("reason") };
    for (const label of form.querySelectorAll("label[data-for]")) {
      if (label.hidden) continue;
      const input = label.querySelector("input");
      body[input.name] = input.type === "number" ? Number(input.value) : input.value;
    }
    try {
      const done = await postJSON("/api/moderation", body);
      $("#m-error").textContent = `done: log entry ${done.entry}`;
      form.reset();
      shown();
      await load();
    } catch (err) { $("#m-error").textContent = err.message; }
  });
  await load();
}

// Under a finished game's replay: a signed-in player of it may report another.
export async function offerReport(gameId, players) {
  if (!ME) await loadMe();
  const me = ME && ME.account ? ME.account.id : null;
  const others = players.filter((p) => p.account && p.account !== me);
  if (me === null || !players.some((p) => p.account === me) || !others.length) return;
  $("#report-box").hidden = false;
  $("#report-who").replaceChildren(...others.map((p) => Object.assign(el("option", null, p.name), { value: p.account })));
  $("#report-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    try {
      await postJSON("/api/report", { game: gameId, account: Number(f.get("account")), text: f.get("text") });
      $("#report-note").textContent = "sent: the site's operators will look at it";
      ev.target.reset();
    } catch (err) { $("#report-note").textContent = err.message; }
  });
}
