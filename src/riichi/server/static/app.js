// The riichi browser client: a lobby, a table over one websocket, and a replay viewer.
// Plain JavaScript served as static files, so there is no build step.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

const SUITS = ["Man", "Pin", "Sou"];
const HONORS = ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"];
const WINDS = ["East", "South", "West", "North"];
const SUIT_LETTERS = "mps";
const HONOR_NAMES = ["E", "S", "W", "N", "Wh", "Gr", "Rd"];

let RED = new Set();

function kindOf(tile) { return tile >> 2; }

function tileName(tile) {
  const k = kindOf(tile);
  if (k >= 27) return HONOR_NAMES[k - 27];
  const n = RED.has(tile) ? 0 : (k % 9) + 1;
  return `${n}${SUIT_LETTERS[Math.floor(k / 9)]}`;
}

function tileArt(tile) {
  const k = kindOf(tile);
  if (k >= 27) return HONORS[k - 27];
  const n = (k % 9) + 1;
  return `${SUITS[Math.floor(k / 9)]}${n}${RED.has(tile) ? "-Dora" : ""}`;
}

function tileEl(tile, extra) {
  const node = el("span", "tile" + (extra ? " " + extra : ""));
  if (tile === null || tile === undefined) {
    node.classList.add("back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }
  const img = el("img");
  img.src = `/static/tiles/${tileArt(tile)}.svg`;
  img.alt = tileSpoken(tile);
  node.title = tileName(tile);
  node.dataset.tile = tile;
  node.appendChild(img);
  return node;
}

function setStatus(text) { $("#status").textContent = text; }

async function postJSON(url, body, method = "POST") {
  const res = await fetch(url, {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// ------------------------------------------------------------------ account

let ME = null;  // {account, tables, queue} from /api/me

async function loadMe() {
  ME = await (await fetch("/api/me")).json();
  renderAccount();
  return ME;
}

function renderAccount() {
  const box = $("#account");
  box.replaceChildren();
  if (ME && ME.account) {
    box.appendChild(el("span", null, "signed in as "));
    const page = el("a", null, ME.account.name);
    page.href = `/player/account:${ME.account.id}`;
    page.id = "my-page";
    box.appendChild(page);
    const chips = link(` ${chipText(ME.chips || 0)}`, "/chips");
    chips.id = "my-chips";
    box.appendChild(chips);
    const out = el("button", null, "Sign out");
    out.id = "sign-out";
    out.addEventListener("click", async () => {
      await postJSON("/api/signout", {});
      location.href = "/";
    });
    box.appendChild(out);
  } else {
    const link = el("a", null, "Sign in");
    link.href = "/#account-panel";
    box.appendChild(link);
  }
}

// ------------------------------------------------------------------ lobby

function setupAccountForms() {
  const form = $("#sign-in");
  const submit = async (url) => {
    const data = new FormData(form);
    try {
      await postJSON(url, { name: data.get("name"), password: data.get("password") });
      location.reload();
    } catch (err) { setStatus(err.message); }
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
      setStatus("password changed; your other sessions are signed out");
      ev.target.reset();
    } catch (err) { setStatus(err.message); }
  });
}

function renderRated() {
  const signed = Boolean(ME && ME.account);
  $("#rated").hidden = !signed;
  $("#sign-in").hidden = signed;
  $("#change-password").hidden = !signed;
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

function setupQueue() {
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

async function showLobby() {
  $("#lobby").hidden = false;
  setupAccountForms();
  setupQueue();
  loadMe().then(renderRated);
  const presets = await (await fetch("/api/presets")).json();
  const rules = $("#rules");
  for (const p of presets) {
    const opt = el("option", null, `${p.name} (${p.players}p)`);
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
      // the ladder, strongest first
      for (const kind of ["expert", "defensive", "efficiency", "random", "human"]) {
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
    body.switches = ruleMenuChanges(p);
    if (form.get("switches")) {
      try { Object.assign(body.switches, JSON.parse(form.get("switches"))); } catch (err) {
        setStatus(`rule switches are a JSON object: ${err.message}`);
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
    if (!res.ok) { setStatus(table.error); return; }
    // Seat links carry their token after '#': a fragment never reaches a server log
    // or a Referer header.
    const mine = `/table/${table.id}#${table.tokens[0]}`;
    const friends = table.tokens.map((t, s) => [t, s]).filter(([t, s]) => t && s > 0);
    if (friends.length === 0) { location.href = mine; return; }
    const list = $("#link-list");
    list.replaceChildren();
    for (const [t, s] of friends) {
      const li = el("li", null, `Seat ${s + 1}: `);
      const a = el("a", null, `${location.origin}/table/${table.id}#${t}`);
      a.href = a.textContent;
      li.appendChild(a);
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
function ruleControlValue(node) {
  if (node.dataset.kind === "set") {
    return [...node.querySelectorAll("input:checked")].map((i) => i.value).sort();
  }
  if (node.dataset.kind === "uma") {
    return [...node.querySelectorAll("input")].map((i) => Math.round(Number(i.value || 0) * 1000));
  }
  if (node.type === "checkbox") return node.checked;
  return Number(node.value);
}

function markRuleChange(node, preset) {
  const now = JSON.stringify(ruleControlValue(node));
  const was = JSON.stringify(preset.ruleset[node.dataset.rule]);
  const label = node.closest("label") || node;
  label.classList.toggle("changed", now !== was);
}

// Shows the preset's values in the rule menu (004's rules menu), each change marked.
function fillRuleMenu(preset) {
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

function ruleMenuChanges(preset) {
  const out = {};
  document.querySelectorAll("#rule-menu [data-rule]").forEach((node) => {
    const value = ruleControlValue(node);
    if (JSON.stringify(value) !== JSON.stringify(preset.ruleset[node.dataset.rule])) out[node.dataset.rule] = value;
  });
  return out;
}

// ------------------------------------------------------------------ table drawing

const FULL_HONORS = ["East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"];
const SUIT_WORDS = ["characters", "dots", "bamboo"];

// What a screen reader says for a tile: "red 5 dots", "White dragon".
function tileSpoken(tile) {
  const k = kindOf(tile);
  if (k >= 27) return FULL_HONORS[k - 27];
  return `${RED.has(tile) ? "red " : ""}${(k % 9) + 1} ${SUIT_WORDS[Math.floor(k / 9)]}`;
}

function kindSpoken(k) { return k >= 27 ? FULL_HONORS[k - 27] : `${(k % 9) + 1} ${SUIT_WORDS[Math.floor(k / 9)]}`; }

function kindTile(k) { return k * 4 + (k < 27 && k % 9 === 4 ? 1 : 0); }  // a plain copy to draw a kind

// The hand without the drawn tile: the state's hand holds it, the table shows it apart.
function withoutDrawn(hand, drawn) {
  const rest = [...hand];
  if (drawn !== null && drawn !== undefined) {
    const i = rest.indexOf(drawn);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

// A river in rows of six; a called tile is gone to its caller's set (a riichi tile taken
// that way passes its sideways turn to the next tile); the latest discard is marked.
function riverEl(discards, isLast) {
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
function meldEl(m) {
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
function drawTable(state, view, open, spectating = false, root = document) {
  RED = new Set(state.red);
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

// ------------------------------------------------------------------ results

function handTiles(tiles, winning) {
  const box = el("div", "hand result-hand");
  const rest = [...tiles];
  const i = winning === undefined ? -1 : rest.indexOf(winning);
  if (i >= 0) rest.splice(i, 1);
  for (const t of rest.sort((a, b) => a - b)) box.appendChild(tileEl(t, "h"));
  if (i >= 0) box.appendChild(tileEl(winning, "h drawn winning"));
  return box;
}

// The melds of a winning hand, from the ended state (tiles, called sideways).
function meldsOf(state, seat) {
  const box = el("div", "melds");
  for (const m of ((state && state.meld_info) || [])[seat] || []) box.appendChild(meldEl(m));
  return box;
}

function resultHtml(events, players, state) {
  const box = el("div");
  for (const e of events) {
    if (e.type === "win") {
      const r = e.result;
      const who = players[e.seat].name;
      const how = e.source === null || e.source === e.seat ? "tsumo" : `ron from ${players[e.source].name}`;
      box.appendChild(el("h3", null, `${who} wins by ${how}`));
      const row = el("div", "win-row");
      row.appendChild(handTiles(e.hand.includes(e.tile) ? e.hand : [...e.hand, e.tile], e.tile));
      row.appendChild(meldsOf(state, e.seat));
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
        ? `yakuman x${r.yakuman} · ${r.points} points`
        : `${r.han} han ${r.fu} fu${limit} · ${r.points} points`));
      if (!r.yakuman) box.appendChild(el("p", "muted fu", `fu: ${r.fu_items.map((i) => `${i.label} ${i.fu}`).join(", ")}`));
      const pays = r.payments.map((p) => `${players[p.seat].name} pays ${p.points}`).join("; ");
      box.appendChild(el("p", "payments", pays));
    } else if (e.type === "ryuukyoku") {
      box.appendChild(el("h3", null, e.kind === "exhaustive" ? "Exhaustive draw" : `Abortive draw: ${e.kind}`));
      if (e.tenpai) box.appendChild(el("p", null, `tenpai: ${e.tenpai.map((s) => players[s].name).join(", ") || "nobody"}`));
      for (const [seat, tiles] of Object.entries(e.hands || {})) {
        const row = el("div", "win-row");
        row.appendChild(el("span", "who", `${players[seat].name}: `));
        row.appendChild(handTiles(tiles));
        row.appendChild(meldsOf(state, Number(seat)));
        box.appendChild(row);
      }
      if (e.nagashi && e.nagashi.length) box.appendChild(el("p", null, `nagashi mangan: ${e.nagashi.map((s) => players[s].name).join(", ")}`));
    } else if (e.type === "end_hand") {
      const deltas = el("table", "deltas");
      e.deltas.forEach((d, s) => {
        const row = el("tr");
        row.appendChild(el("td", null, players[s].name));
        row.appendChild(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", d > 0 ? `+${d}` : String(d)));
        row.appendChild(el("td", null, String(e.scores[s])));
        deltas.appendChild(row);
      });
      box.appendChild(deltas);
    } else if (e.type === "end_match") {
      box.appendChild(el("h3", null, "Final standings"));
      const table = el("table", "standings");
      const head = el("tr");
      for (const h of ["place", "player", "score", "points"]) head.appendChild(el("th", null, h));
      table.appendChild(head);
      for (const x of [...e.standings].sort((a, b) => a.place - b.place)) {
        const row = el("tr");
        row.appendChild(el("td", null, String(x.place)));
        row.appendChild(el("td", null, players[x.seat].name));
        row.appendChild(el("td", null, String(x.score)));
        row.appendChild(el("td", null, (x.points > 0 ? "+" : "") + x.points.toFixed(1)));
        table.appendChild(row);
      }
      box.appendChild(table);
    }
  }
  return box;
}

const END_EVENTS = ["win", "ryuukyoku", "end_hand", "end_match"];

// The events of the last hand to have ended (a full history ends with the next deal's).
function lastHand(events) {
  const starts = events.flatMap((e, i) => (e.type === "start_hand" ? [i] : []));
  return events.slice(starts.length > 1 ? starts[starts.length - 2] : 0, starts[starts.length - 1]);
}

// The result over the board (which shows the hand as it ended); `done` runs on Next.
function showResult(events, players, state, done) {
  const ends = events.filter((e) => END_EVENTS.includes(e.type));
  if (!ends.length) return false;
  $("#result-body").replaceChildren(resultHtml(ends, players, state));
  const panel = $("#result-panel");
  panel.hidden = false;
  const ok = $("#result-ok");
  ok.onclick = () => { panel.hidden = true; if (done) done(); };
  ok.focus();
  return true;
}

// Japanese names only where a CJK font can draw them: otherwise English alone.
function checkJapaneseFont() {
  const canvas = document.createElement("canvas").getContext("2d");
  canvas.font = "32px sans-serif";
  const sample = canvas.measureText("立直").width;
  const missing = canvas.measureText("\u{10FFFD}\u{10FFFD}").width;
  if (Math.abs(sample - missing) < 0.5) document.body.classList.add("no-cjk");
}

// ------------------------------------------------------------------ playing

const ACTION_LABELS = {
  tsumo: "Tsumo", ron: "Ron", chi: "Chi", pon: "Pon", kan: "Kan", ankan: "Kan (closed)",
  kakan: "Kan (added)", kyuushu: "Nine terminals", pass: "Pass", kita: "North aside",
};
const ACTION_KEYS = { tsumo: "w", ron: "w", chi: "c", pon: "p", kan: "k", ankan: "k", kakan: "k", pass: "n" };

// Close codes after which reconnecting cannot help: a refused seat link, no such table.
const FINAL_CLOSE_CODES = new Set([4403, 4404]);

// The clocks: the server's deadlines, shown against its time (offset from ours).
let CLOCK = null;
let CLOCK_OFFSET = 0;

function setClock(clock) {
  CLOCK = clock;
  if (clock) CLOCK_OFFSET = clock.now - Date.now() / 1000;
  tickClocks();
}

function tickClocks() {
  document.querySelectorAll(".plate .clock").forEach((node) => {
    node.textContent = "";
    node.className = "clock";
    if (!CLOCK) return;
    const now = Date.now() / 1000 + CLOCK_OFFSET;
    const seat = node.dataset.seat;
    const reserve = CLOCK.reserves[seat];
    const d = CLOCK.decisions[seat];
    if (!d) {
      node.textContent = `+${Math.round(reserve)} s`;
      node.setAttribute("aria-label", `reserve ${Math.round(reserve)} seconds`);
      return;
    }
    const thinking = Math.max(0, d.base - now);
    const left = Math.max(0, d.until - now);
    node.classList.add("running");
    if (thinking <= 0 && !d.call) {
      node.classList.add("reserve");
      node.textContent = `0 + ${Math.ceil(left)} s`;
    } else {
      node.textContent = `${Math.ceil(thinking)}${d.call ? "" : ` + ${Math.round(reserve)}`} s`;
    }
    node.setAttribute("aria-label", `${Math.ceil(left)} seconds left`);
  });
}
setInterval(tickClocks, 250);

// Table options, kept in this browser.
const OPTIONS = { autoWin: false, noCalls: false, tsumogiri: false, pace: 400 };
function loadOptions() {
  try { Object.assign(OPTIONS, JSON.parse(localStorage.getItem("riichi-options") || "{}")); } catch (err) { /* defaults */ }
  const bind = (id, key) => {
    const input = $(id);
    if (input.type === "checkbox") input.checked = Boolean(OPTIONS[key]);
    else input.value = OPTIONS[key];
    input.addEventListener("change", () => {
      OPTIONS[key] = input.type === "checkbox" ? input.checked : Math.max(0, Math.min(3000, Number(input.value) || 0));
      localStorage.setItem("riichi-options", JSON.stringify(OPTIONS));
    });
  };
  bind("#opt-auto-win", "autoWin");
  bind("#opt-no-calls", "noCalls");
  bind("#opt-tsumogiri", "tsumogiri");
  bind("#opt-pace", "pace");
}

async function showRules(tableId) {
  const info = await getJSON(`/api/tables/${tableId}`);
  const list = $("#rules-list");
  list.replaceChildren();
  list.appendChild(el("dt", null, "preset"));
  list.appendChild(el("dd", null, `${info.rules}, ${info.length}`));
  for (const [k, v] of Object.entries(info.ruleset)) {
    if (k === "name") continue;
    list.appendChild(el("dt", null, k.replaceAll("_", " ")));
    list.appendChild(el("dd", null, Array.isArray(v) ? v.join(", ") || "none" : String(v)));
  }
  $("#rules-dialog").showModal();
}

function playTable(tableId, token) {
  $("#table").hidden = false;
  loadOptions();
  $("#show-rules").addEventListener("click", () => showRules(tableId));
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  let ws = null;
  let state = null;
  let seat = null;
  let version = -1;
  let riichiMode = false;
  let timed = false;  // on a clock: the result pauses play until everyone is ready
  let sent = false;  // an action is on its way: nothing is clickable until its ack or error
  let delay = "";  // how far behind a spectator watches
  let focus = -1;  // the hand tile the keyboard points at
  const queue = [];  // updates not shown yet: others' moves are paced, results wait for Next
  let holding = false;

  const send = (msg) => ws.send(JSON.stringify(msg));
  const act = (action) => {
    riichiMode = false;
    sent = true;
    // the version names the decision this answers: a stale or repeated action is refused
    send({ type: "action", version, action });
    render();
  };

  function lastDiscard() {
    const ld = state.last_discard;
    return ld ? [ld[0], state.discards[ld[0]][ld[1]][0]] : null;
  }

  // Decisions the options take for you; true when one was sent.
  function automatic(legal) {
    if (!legal.length || sent) return false;
    const win = legal.find((a) => a.type === "tsumo" || a.type === "ron");
    if (OPTIONS.autoWin && win) { act(win); return true; }
    const calls = legal.filter((a) => ["chi", "pon", "kan"].includes(a.type));
    const pass = legal.find((a) => a.type === "pass");
    if (OPTIONS.noCalls && pass && !win && calls.length === legal.length - 1) { act(pass); return true; }
    const onlyDiscards = legal.every((a) => a.type === "discard");
    if (OPTIONS.tsumogiri && onlyDiscards && state.drawn !== null && legal.some((a) => a.tile === state.drawn)) {
      act({ type: "discard", tile: state.drawn });
      return true;
    }
    return false;
  }

  function render() {
    if (seat === null && !state) {
      // a spectator before the first hand has ended: nothing may be shown yet
      document.querySelectorAll("#table .seat-zone").forEach((a) => { a.replaceChildren(); a.hidden = true; });
      $("#table .center").replaceChildren(el("div", "waiting-note", "The first hand is in play. Spectators watch a hand behind: it appears here once it is over."));
      setStatus("watching");
      return;
    }
    if (!state) return;
    drawTable(state, seat === null ? 0 : seat, false, seat === null);
    $("#table").dataset.version = version;  // which update the board shows
    const hand = $("#my-hand");
    hand.replaceChildren();
    const actions = $("#actions");
    actions.replaceChildren();
    $("#prompt").replaceChildren();
    $("#waits").replaceChildren();
    if (seat === null) { setStatus(state.over ? "the match is over" : `watching ${delay}`); return; }
    const legal = sent ? [] : state.legal;
    if (automatic(legal)) return;
    const discards = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
    const riichis = new Set(legal.filter((a) => a.type === "riichi").map((a) => a.tile));
    const help = state.tenpai || {};
    const keeps = help.keeps || {};
    const showWaits = (waits, title) => {
      const box = $("#waits");
      box.replaceChildren(el("span", "label", title));
      for (const [k, left] of waits) {
        const w = el("span", "wait");
        w.appendChild(tileEl(kindTile(k), "m"));
        w.appendChild(el("span", "left", `×${left}`));
        w.setAttribute("aria-label", `${kindSpoken(k)}, ${left} unseen`);
        box.appendChild(w);
      }
    };
    if (help.waits) showWaits(help.waits, "waiting on ");
    const tiles = withoutDrawn(state.hand, state.drawn);
    const buttons = [];
    const addTile = (t, drawn) => {
      const usable = riichiMode ? riichis.has(t) : discards.has(t);
      const node = el("button", "tile h" + (drawn ? " drawn" : ""));
      node.type = "button";
      const img = el("img");
      img.src = `/static/tiles/${tileArt(t)}.svg`;
      img.alt = "";
      node.appendChild(img);
      node.dataset.tile = t;
      const waits = keeps[String(kindOf(t))];
      let label = tileSpoken(t) + (drawn ? ", drawn" : "");
      if (waits) {
        node.classList.add("keeps-tenpai");
        label += `, keeps tenpai on ${waits.map(([k]) => kindSpoken(k)).join(", ")}`;
        const show = () => showWaits(waits, "discard it to wait on ");
        node.addEventListener("mouseenter", show);
        node.addEventListener("focus", show);
      }
      node.setAttribute("aria-label", label);
      if (usable) {
        node.classList.add("playable");
        if (riichiMode) node.classList.add("riichi-ok");
        node.addEventListener("click", () => act({ type: riichiMode ? "riichi" : "discard", tile: t }));
      } else {
        node.setAttribute("aria-disabled", "true");
      }
      buttons.push(node);
      hand.appendChild(node);
    };
    for (const t of tiles) addTile(t, false);
    if (state.drawn !== null) addTile(state.drawn, true);
    if (focus >= buttons.length) focus = buttons.length - 1;
    const calling = legal.some((a) => a.type === "pass");
    const ld = lastDiscard();
    if (calling && ld) {
      const p = $("#prompt");
      p.appendChild(el("span", null, `${state.players[ld[0]].name} discarded `));
      p.appendChild(tileEl(ld[1], "h"));
    }
    if (riichis.size) {
      const b = el("button", "act riichi", riichiMode ? "Cancel riichi (R)" : "Riichi (R)");
      b.dataset.action = "riichi";
      b.addEventListener("click", () => { riichiMode = !riichiMode; render(); });
      actions.appendChild(b);
    }
    for (const a of legal) {
      if (a.type === "discard" || a.type === "riichi") continue;
      const b = el("button", `act ${a.type}`);
      b.dataset.action = a.type;
      b.appendChild(el("span", null, ACTION_LABELS[a.type] || a.type));
      const used = a.tiles && a.tiles.length ? [...a.tiles] : [];
      if (used.length) {
        const shown = el("span", "act-tiles");
        for (const t of used) shown.appendChild(tileEl(t, "m"));
        if (calling && ld && ["chi", "pon", "kan"].includes(a.type)) shown.appendChild(tileEl(ld[1], "m sideways"));
        b.appendChild(shown);
      }
      const key = ACTION_KEYS[a.type];
      if (key) b.appendChild(el("span", "key", ` (${key.toUpperCase()})`));
      b.setAttribute("aria-label", `${ACTION_LABELS[a.type] || a.type}${used.length ? " with " + used.map(tileSpoken).join(", ") : ""}`);
      b.addEventListener("click", () => act(a));
      actions.appendChild(b);
    }
    if (state.over) setStatus("the match is over");
    else if (legal.length) setStatus(riichiMode ? "choose the riichi discard (outlined)" : calling ? "a call is open to you" : "your turn");
    else setStatus("waiting");
  }

  document.addEventListener("keydown", (ev) => {
    if (seat === null || !state || ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!$("#result-panel").hidden) {
      if (ev.key === "Enter") { ev.preventDefault(); $("#result-ok").click(); }
      return;
    }
    const buttons = [...document.querySelectorAll("#my-hand button")];
    const key = ev.key.toLowerCase();
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      ev.preventDefault();
      if (!buttons.length) return;
      const at = buttons.indexOf(document.activeElement);
      focus = at < 0 ? buttons.length - 1 : (at + (ev.key === "ArrowLeft" ? -1 : 1) + buttons.length) % buttons.length;
      buttons[focus].focus();
      return;
    }
    if (key === "d") {
      const drawn = document.querySelector("#my-hand button.drawn.playable");
      if (drawn) drawn.click();
      return;
    }
    if (key === "r") {
      const b = document.querySelector("#actions button.riichi");
      if (b) b.click();
      return;
    }
    const wanted = Object.entries(ACTION_KEYS).filter(([, k]) => k === key).map(([type]) => type);
    if (ev.key === "Escape") wanted.push("pass");
    const b = [...document.querySelectorAll("#actions button")].find((x) => wanted.includes(x.dataset.action));
    if (b) { ev.preventDefault(); b.click(); }
  });

  // A hand's end as it stood, its result over it; on Next (confirmed, on a clock) the
  // next deal, then whatever came meanwhile.
  function holdResult(events, ended, next) {
    holding = true;
    state = ended;
    render();
    showResult(events, state.players, ended, () => {
      holding = false;
      if (timed && ws) send({ type: "ready" });
      state = next;
      render();
      drain();
    });
  }

  // Shows queued updates one by one: others' discards at the chosen pace, a hand's end
  // as it stood with its result until Next.
  function drain() {
    if (holding || !queue.length) return;
    const msg = queue.shift();
    if (msg.from !== version) { queue.length = 0; send({ type: "sync" }); return; }
    version = msg.version;
    setClock(msg.clock);
    if (msg.ended && seat !== null) {
      holdResult(msg.events, msg.ended, msg.state);
      return;
    }
    state = msg.state;
    if (seat === null && state) showResult(msg.events, state.players, state, null);
    render();
    const othersDiscard = msg.events.some((e) => e.type === "discard" && e.seat !== seat);
    if (othersDiscard && queue.length && OPTIONS.pace > 0) {
      holding = true;
      setTimeout(() => { holding = false; drain(); }, OPTIONS.pace);
      return;
    }
    drain();
  }

  function accept(msg) {
    if (msg.type === "hello" || msg.type === "state") {
      seat = msg.seat;
      version = msg.version;
      state = msg.state;
      queue.length = 0;
      timed = Boolean(msg.clock);
      delay = msg.delay || "";
      showSpectators(msg.spectators);
      if (msg.ended && seat !== null) {
        // back while a hand's result holds play: that result first, then the next deal
        holdResult(lastHand(msg.events), msg.ended, msg.state);
      } else {
        render();
      }
      setClock(msg.clock);
      return;
    }
    if (msg.type === "clock") { setClock(msg.clock); return; }
    if (msg.type === "spectators") { showSpectators(msg.count); return; }
    if (msg.type === "update") {
      queue.push(msg);
      drain();
      return;
    }
    if (msg.type === "ack" || msg.type === "error") {
      sent = false;
      render();
      if (msg.type === "error") setStatus(msg.message);
    }
  }

  let finalError = null;  // a refusal that retrying cannot mend
  let retryDelay = 1000;
  function connect() {
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}${query}`);
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error" && msg.final) finalError = msg.message;
      accept(msg);
    });
    ws.addEventListener("open", () => { sent = false; retryDelay = 1000; });
    ws.addEventListener("close", (ev) => {
      if (finalError || FINAL_CLOSE_CODES.has(ev.code)) {
        setStatus(finalError || ev.reason || "this table cannot be joined");
        return;
      }
      if (state && state.over) return;
      setStatus("connection lost; reconnecting");
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 15000);
    });
  }
  connect();
}

function showSpectators(count) {
  const node = $("#spectators");
  node.hidden = !count;
  node.textContent = count ? `${count} watching` : "";
}

// ------------------------------------------------------------------ watching, ratings, players

function pager(box, page, go) {
  box.replaceChildren();
  const from = page.total ? page.offset + 1 : 0;
  const to = page.offset + page.items.length;
  if (page.offset > 0) {
    const prev = el("button", null, "« previous");
    prev.addEventListener("click", () => go(Math.max(0, page.offset - page.limit)));
    box.appendChild(prev);
  }
  box.appendChild(el("span", "muted", ` ${from}-${to} of ${page.total} `));
  if (to < page.total) {
    const next = el("button", null, "next »");
    next.addEventListener("click", () => go(page.offset + page.limit));
    box.appendChild(next);
  }
}

const PAGE = 25;

async function getJSON(url) {
  const res = await fetch(url);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function showWatch(offset = 0) {
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

function placeText(value) { return value === null || value === undefined ? "-" : value.toFixed(2); }

function playerLink(key, name) {
  const a = el("a", null, name);
  a.href = `/player/${encodeURIComponent(key)}`;
  return a;
}

async function showLeaderboard(offset = 0) {
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

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function plotHistory(svg, history) {
  svg.replaceChildren();
  if (!history.length) {
    svg.appendChild(svgEl("text", { x: 300, y: 100, "text-anchor": "middle", class: "plot-empty" }))
      .textContent = "no rated games yet";
    return;
  }
  const values = history.map((h) => h.rating);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 50) { low -= 25; high += 25; }
  const w = 600, h = 200, pad = 36;
  const x = (i) => pad + (history.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (history.length - 1));
  const y = (v) => h - pad / 2 - ((v - low) * (h - pad)) / (high - low);
  svg.appendChild(svgEl("line", { x1: pad, y1: h - pad / 2, x2: w - pad, y2: h - pad / 2, class: "axis" }));
  for (const v of [low, high]) {
    const label = svgEl("text", { x: 2, y: y(v) + 4, class: "plot-label" });
    label.textContent = String(Math.round(v));
    svg.appendChild(label);
  }
  svg.appendChild(svgEl("polyline", {
    points: history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "),
    class: "plot-line", fill: "none",
  }));
  history.forEach((p, i) => {
    const dot = svgEl("circle", { cx: x(i), cy: y(p.rating), r: 3, class: `plot-dot place-${p.place}` });
    const title = document.createElementNS(SVG, "title");
    title.textContent = `game ${i + 1}: place ${p.place}, rating ${p.rating}`;
    dot.appendChild(title);
    svg.appendChild(dot);
  });
}

function percent(v) { return v === null || v === undefined ? "-" : `${(100 * v).toFixed(1)}%`; }
function points(v) { return v === null || v === undefined ? "-" : String(Math.round(v)); }

function statsTable(table, stats) {
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

async function showPlayer(key, offset = 0) {
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
  statsTable($("#player-stats"), data.stats);
  const list = $("#player-games");
  list.replaceChildren();
  for (const g of data.games.items) {
    const li = el("li");
    const when = new Date(g.finished * 1000).toLocaleString();
    const a = el("a", null, `${when}: ${g.kind}, place ${g.place}, ${g.score}`);
    a.href = `/replay/${g.table}`;
    li.appendChild(a);
    for (const [fmt, label] of [["tenhou6", "tenhou.net/6"], ["mjai", "mjai"], ["record", "record"]]) {
      const d = el("a", "download", ` ${label}`);
      d.href = `/api/games/${g.table}/${fmt}`;
      li.appendChild(d);
    }
    list.appendChild(li);
  }
  if (!data.games.items.length) list.appendChild(el("li", "muted", "no finished games"));
  pager($("#games-pager"), data.games, (o) => showPlayer(key, o));
}

// ------------------------------------------------------------------ replays

// A replay in `root` (which holds a .board, a .frame-label and [data-step] buttons);
// `onEnd(events, players)` is called on a frame that ends a hand.
async function replayPane(root, gameId, onEnd) {
  const res = await fetch(`/api/games/${gameId}/replay`);
  const data = await res.json();
  if (!res.ok) { setStatus(data.error); return null; }
  const frames = data.frames;
  let at = 0;
  const show = () => {
    const f = frames[at];
    drawTable(f, 0, true, false, root);
    root.querySelector(".frame-label").textContent = `${at}/${frames.length - 1} ${f.label || "deal"}`;
    if (f.events.some((e) => e.type === "end_hand")) onEnd(f.events, data.players, f);
  };
  // "hand »" stops at the next hand's end (its final board and result), "« hand" at
  // the previous one's, or at the deal
  const ends = (i) => frames[i].events.some((e) => e.type === "end_hand");
  root.querySelectorAll("button[data-step]").forEach((b) => {
    b.addEventListener("click", () => {
      const step = b.dataset.step;
      if (step === "1") at = Math.min(at + 1, frames.length - 1);
      else if (step === "-1") at = Math.max(at - 1, 0);
      else if (step === "hand") {
        do { at++; } while (at < frames.length - 1 && !ends(at));
        at = Math.min(at, frames.length - 1);
      } else if (step === "-hand") {
        do { at--; } while (at > 0 && !ends(at));
        at = Math.max(at, 0);
      }
      show();
    });
  });
  show();
  return data;
}

async function showReplay(gameId) {
  $("#table").hidden = false;
  $("#options").hidden = true;
  $("#show-rules").addEventListener("click", () => showRules(gameId));
  $("#replay-controls").hidden = false;
  $("#dl-tenhou6").href = `/api/games/${gameId}/tenhou6`;
  $("#dl-record").href = `/api/games/${gameId}/record`;
  $("#dl-mjai").href = `/api/games/${gameId}/mjai`;
  const data = await replayPane($("#table"), gameId, showResult);
  if (data) setStatus(`replay: ${data.players.map((p) => p.name).join(", ")}`);
}

// Two games of the same walls side by side (a Daily Wall duplicate), each stepped on
// its own, each hand's result shown under its board.
async function showCompare(a, b) {
  $("#compare").hidden = false;
  const template = $("#table .board");
  for (const [pane, gameId] of [[$("#pane-a"), a], [$("#pane-b"), b]]) {
    const board = template.cloneNode(true);
    board.removeAttribute("id");
    board.querySelector(".center").removeAttribute("id");
    pane.querySelector(".pane-board").replaceChildren(board);
    const result = pane.querySelector(".pane-result");
    const data = await replayPane(pane, gameId, (events, players, frame) => {
      const ends = events.filter((e) => ["win", "ryuukyoku", "end_hand"].includes(e.type));
      result.replaceChildren(resultHtml(ends, players, frame));
    });
    if (data) pane.querySelector(".pane-title").textContent = data.players[0].name;
  }
}

// ------------------------------------------------------------------ chips, the Daily Wall, tournaments

function chipText(n) { return `${n.toLocaleString()} chips`; }
function when(t) { return new Date(t * 1000).toLocaleString(); }

function rowOf(cells) {
  const tr = el("tr");
  for (const c of cells) {
    const td = el("td");
    if (c instanceof Node) td.appendChild(c); else td.textContent = c === null || c === undefined ? "-" : String(c);
    tr.appendChild(td);
  }
  return tr;
}

function link(text, href) {
  const a = el("a", null, text);
  a.href = href;
  return a;
}

async function showChips(offset = 0) {
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
    body.appendChild(rowOf([when(e.created), e.event, e.other, (e.amount > 0 ? "+" : "") + e.amount]));
  }
  pager($("#chip-pager"), data.statement, showChips);
}

// Whether a board's player key is the signed-in account (before the day ends no row
// names its game, so the row is found by its player).
function isMe(player) {
  return Boolean(ME && ME.account && player === `account:${ME.account.id}`);
}

async function showDaily() {
  $("#daily").hidden = false;
  const day = new URLSearchParams(location.search).get("day");
  let data;
  try { data = await getJSON(`/api/daily${day ? `?day=${encodeURIComponent(day)}` : ""}`); } catch (err) {
    setStatus(err.message);
    return;
  }
  $("#daily-title").textContent = data.today ? `Daily Wall of ${data.day} (UTC)` : `Daily Wall of ${data.day}`;
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
    play.textContent = `You scored ${mine.score ?? "-"} today`;
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
    const tr = rowOf([row.rank, playerLink(row.player, row.name), row.score, when(row.finished), games(row)]);
    if (isMe(row.player)) tr.classList.add("mine");
    body.appendChild(tr);
  }
  for (const row of data.unranked || []) {
    const open = games(row) || el("span");
    open.prepend(document.createTextNode(`unranked: ${row.why}${row.game ? " · " : ""}`));
    const tr = rowOf(["", playerLink(row.player, row.name), row.score, when(row.finished), open]);
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
    hands.appendChild(rowOf([h.label, h.played, h.best, h.average, h.worst, h.yours,
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

async function showTournaments(offset = 0) {
  $("#tournaments").hidden = false;
  const presets = await getJSON("/api/presets");
  const rules = $("#t-rules");
  if (!rules.options.length) {
    for (const p of presets) {
      const opt = el("option", null, `${p.name} (${p.players}p)`);
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

async function showTournament(id) {
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

// ------------------------------------------------------------------ routing

checkJapaneseFont();
const path = location.pathname.split("/").filter(Boolean);
if (path.length) loadMe();  // the account line
if (path[0] === "watch") showWatch();
else if (path[0] === "leaderboard") showLeaderboard();
else if (path[0] === "player") showPlayer(decodeURIComponent(path[1]));
else if (path[0] === "table") {
  // the token after '#'; older links carried it as ?token=
  const token = location.hash.slice(1) || new URLSearchParams(location.search).get("token");
  playTable(path[1], token);
}
else if (path[0] === "replay") showReplay(path[1]);
else if (path[0] === "compare") showCompare(path[1], path[2]);
else if (path[0] === "chips") showChips();
else if (path[0] === "daily") loadMe().then(showDaily);
else if (path[0] === "tournaments") showTournaments();
else if (path[0] === "tournament") showTournament(path[1]);
else showLobby();
