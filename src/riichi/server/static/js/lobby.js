// The lobby: sign-in, rated queue, a new table with its rule menu, finished games.
import { ME, loadMe } from "./account.js";
import { $, el, postJSON, setStatus } from "./dom.js";
import { rememberTable, showMyTables } from "./mine.js";

// Play now: a practice East game against the roster computer on the site's usual rules
export const PLAY_NOW = {
  kind: "practice", rules: "online", length: "east",
  seats: ["human", "expert", "expert", "expert"], clock: "untimed",
};

async function playNow() {
  try {
    const table = await postJSON("/api/tables", PLAY_NOW);
    const own = table.tokens.findIndex((t) => t);
    rememberTable(table.id, table.tokens[own], "practice: you against expert, East");
    location.href = `/table/${table.id}#${table.tokens[own]}`;
  } catch (err) { $("#play-now-error").textContent = err.message; }
}

export function setupAccountForms() {
  const form = $("#sign-in");
  const submit = async (url) => {
    const data = new FormData(form);
    try {
      await postJSON(url, { name: data.get("name"), password: data.get("password") });
      location.reload();
    } catch (err) { $("#sign-in-error").textContent = err.message; }
  };
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submit("/api/signin"); });
  $("#register-button").addEventListener("click", () => {
    if (form.reportValidity()) submit("/api/register");
  });
  $("#change-password").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(ev.target);
    try {
      await postJSON("/api/password", { old: data.get("old"), new: data.get("new") });
      $("#password-note").textContent = "password changed; your other sessions are signed out";
      ev.target.reset();
    } catch (err) { $("#password-note").textContent = err.message; }
  });
}

export function renderRated() {
  const signed = Boolean(ME && ME.account);
  $("#rated").hidden = !signed;
  $("#sign-in").hidden = signed;
  $("#password-box").hidden = !signed;
  $("#account-title").textContent = signed ? `Account: ${ME.account.name}` : "Sign in";
  if (!signed) return;
  const q = ME.queue;
  $("#fill-after").textContent = String(Math.round(q.fill_after));
  const state = $("#queue-state");
  state.replaceChildren();
  for (const [pool, info] of Object.entries(q.pools)) {
    state.appendChild(el("p", "muted", `${pool}: ${info.waiting} waiting` +
      (info.waiting ? `, longest ${Math.round(info.longest)} s` : "")));
  }
  const waiting = Boolean(q.mine);
  if (waiting) state.appendChild(el("p", "waiting", `You wait for a ${q.mine.pool} table: ${Math.round(q.mine.waited)} s`));
  document.querySelectorAll("#rated .join").forEach((b) => { b.hidden = waiting; });
  $("#leave-queue").hidden = !waiting;
  const mine = $("#my-tables");
  mine.replaceChildren();
  for (const t of ME.tables) {
    const li = el("li");
    const a = el("a", null, `${t.kind} table, ${t.rules} ${t.length}: ${t.seats.map((s) => s.name).join(", ")}`);
    a.href = `/table/${t.id}`;
    li.appendChild(a);
    mine.appendChild(li);
  }
  if (!ME.tables.length) mine.appendChild(el("li", "muted", "none"));
}

export function setupQueue() {
  document.querySelectorAll("#rated .join").forEach((b) => {
    b.addEventListener("click", async () => {
      try { await postJSON("/api/queue", { pool: b.dataset.pool }); } catch (err) { setStatus(err.message); }
      await loadMe();
      renderRated();
    });
  });
  $("#leave-queue").addEventListener("click", async () => {
    await postJSON("/api/queue", {}, "DELETE");
    await loadMe();
    renderRated();
  });
  // while waiting, look for the table the queue sits you at
  setInterval(async () => {
    if (!(ME && ME.account && ME.queue.mine)) return;
    const before = new Set(ME.tables.map((t) => t.id));
    await loadMe();
    renderRated();
    const rated = ME.tables.find((t) => t.kind === "rated" && !before.has(t.id));
    if (rated) location.href = `/table/${rated.id}`;
  }, 1000);
}

export async function showLobby() {
  $("#lobby").hidden = false;
  $("#play-now").addEventListener("click", playNow);
  showMyTables($("#mine-list"));
  setupAccountForms();
  setupQueue();
  loadMe().then(renderRated);
  const presets = await (await fetch("/api/presets")).json();
  const rules = $("#rules");
  for (const p of presets) {
    const opt = el("option", null, `${p.name} (${p.players} players)`);
    opt.value = p.name;
    if (p.name === "online") opt.selected = true;
    rules.appendChild(opt);
  }
  const byName = Object.fromEntries(presets.map((p) => [p.name, p]));
  const refresh = () => {
    const p = byName[rules.value];
    const length = $("#length");
    length.replaceChildren();
    for (const l of p.lengths) {
      const opt = el("option", null, l);
      opt.value = l;
      if (l === p.length) opt.selected = true;
      length.appendChild(opt);
    }
    const box = $("#seat-kinds");
    box.querySelectorAll("label").forEach((n) => n.remove());
    for (let s = 1; s < p.players; s++) {
      const label = el("label", null, `Seat ${s + 1} `);
      const sel = el("select");
      sel.name = `seat${s}`;
      // the ladder, strongest first: master is expert with a search at close decisions
      for (const kind of ["master", "expert", "defensive", "efficiency", "random", "human"]) {
        const opt = el("option", null, kind === "human" ? "a friend (link)" : `${kind} bot`);
        opt.value = kind;
        sel.appendChild(opt);
      }
      label.appendChild(sel);
      box.appendChild(label);
    }
  };
  rules.addEventListener("change", refresh);
  rules.addEventListener("change", () => fillRuleMenu(byName[rules.value]));
  refresh();
  fillRuleMenu(byName[rules.value]);
  $("#new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = new FormData(ev.target);
    const p = byName[form.get("rules")];
    const seats = ["human"];
    for (let s = 1; s < p.players; s++) seats.push(form.get(`seat${s}`));
    const kind = form.get("kind");
    const body = {
      kind, rules: p.name, length: form.get("length"), seats,
      names: [form.get("name") || ""],
      clock: kind === "practice" ? "untimed" : form.get("clock"),
      watchable: form.get("watchable") === "on",
    };
    if (form.get("seed")) body.seed = form.get("seed");
    const invite = String(form.get("invite") || "").split(/[\s,]+/).filter(Boolean);
    if (invite.length) body.invite = invite;
    body.switches = ruleMenuChanges(p);
    if (form.get("switches")) {
      try { Object.assign(body.switches, JSON.parse(form.get("switches"))); } catch (err) {
        $("#new-table-error").textContent = `rule switches are a JSON object: ${err.message}`;
        return;
      }
    }
    const bet = Number(form.get("bet") || 0);
    if (bet > 0) {
      body.bet = bet;
      body.switches = { ...(body.switches || {}), settlement: form.get("settlement") || "winner-takes-all" };
    }
    const res = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const table = await res.json();
    if (!res.ok) { $("#new-table-error").textContent = table.error; return; }
    // Seat links carry their token after '#': a fragment never reaches a server log
    // or a Referer header.
    // the creator's seat is the first with a token (at a table with a bet it is drawn)
    const own = table.tokens.findIndex((t) => t);
    const mine = `/table/${table.id}#${table.tokens[own]}`;
    rememberTable(table.id, table.tokens[own], `${kind}: ${p.name} ${body.length}`);
    const friends = table.tokens.map((t, s) => [t, s]).filter(([t, s]) => t && s !== own);
    if (friends.length === 0) { location.href = mine; return; }
    const list = $("#link-list");
    list.replaceChildren();
    for (const [t, s] of friends) {
      const li = el("li", null, `Seat ${s + 1}: `);
      const a = el("a", "seat-link", `${location.origin}/table/${table.id}#${t}`);
      a.href = a.textContent;
      const copy = el("button", "copy", "Copy");
      copy.type = "button";
      copy.setAttribute("aria-label", `copy seat ${s + 1}'s link`);
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(a.href);
          copy.textContent = "Copied";
        } catch (err) {  // no clipboard here (not a secure page): select it to copy by hand
          getSelection().selectAllChildren(a);
          copy.textContent = "Selected: copy it";
        }
      });
      li.append(copy, a);
      list.appendChild(li);
    }
    $("#my-seat").href = mine;
    $("#links").hidden = false;
  });
  const kindSelect = $("#kind");
  const syncKind = () => {
    const practice = kindSelect.value === "practice";
    $("#clock").disabled = practice;
    document.querySelectorAll("#seat-kinds option[value=human]").forEach((o) => { o.disabled = practice; });
    if (practice) document.querySelectorAll("#seat-kinds select").forEach((s) => {
      if (s.value === "human") s.value = "efficiency";
    });
  };
  kindSelect.addEventListener("change", syncKind);
  rules.addEventListener("change", syncKind);
  syncKind();
  const games = (await (await fetch("/api/games")).json()).items;
  for (const g of games) {
    const li = el("li");
    const a = el("a", null, `${g.rules}: ${g.seats.map((s) => s.name).join(", ")}`);
    a.href = `/replay/${g.id}`;
    li.appendChild(a);
    if (g.standings) {
      const top = [...g.standings].sort((x, y) => x.place - y.place)[0];
      li.appendChild(el("span", "muted", ` (1st ${g.seats[top.seat].name} ${top.score})`));
    }
    $("#games").appendChild(li);
  }
  if (games.length === 0) $("#games").appendChild(el("li", "muted", "none yet"));
}

// ------------------------------------------------------------------ the rule menu

// The value a control of the rule menu holds now, in the ruleset's terms.
export function ruleControlValue(node) {
  if (node.dataset.kind === "set") {
    return [...node.querySelectorAll("input:checked")].map((i) => i.value).sort();
  }
  if (node.dataset.kind === "uma") {
    return [...node.querySelectorAll("input")].map((i) => Math.round(Number(i.value || 0) * 1000));
  }
  if (node.type === "checkbox") return node.checked;
  return Number(node.value);
}

export function markRuleChange(node, preset) {
  const now = JSON.stringify(ruleControlValue(node));
  const was = JSON.stringify(preset.ruleset[node.dataset.rule]);
  const label = node.closest("label") || node;
  label.classList.toggle("changed", now !== was);
}

// Shows the preset's values in the rule menu (004's rules menu), each change marked.
export function fillRuleMenu(preset) {
  const r = preset.ruleset;
  document.querySelectorAll("#rule-menu [data-rule]").forEach((node) => {
    const value = r[node.dataset.rule];
    if (node.dataset.kind === "set") {
      node.querySelectorAll("input").forEach((i) => { i.checked = value.includes(i.value); });
    } else if (node.dataset.kind === "uma") {
      const box = node.querySelector(".uma-inputs");
      box.replaceChildren();
      value.forEach((v, i) => {
        const input = el("input");
        input.type = "number";
        input.step = "1";
        input.value = String(v / 1000);
        input.setAttribute("aria-label", `uma for place ${i + 1}`);
        input.addEventListener("input", () => markRuleChange(node, preset));
        box.appendChild(input);
      });
    } else if (node.type === "checkbox") {
      node.checked = Boolean(value);
    } else {
      node.value = String(value);
    }
    node.onchange = () => markRuleChange(node, preset);
    markRuleChange(node, preset);
  });
}

export function ruleMenuChanges(preset) {
  const out = {};
  document.querySelectorAll("#rule-menu [data-rule]").forEach((node) => {
    const value = ruleControlValue(node);
    if (JSON.stringify(value) !== JSON.stringify(preset.ruleset[node.dataset.rule])) out[node.dataset.rule] = value;
  });
  return out;
}
