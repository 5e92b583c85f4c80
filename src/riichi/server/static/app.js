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
    return node;
  }
  const img = el("img");
  img.src = `/static/tiles/${tileArt(tile)}.svg`;
  img.alt = tileName(tile);
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
      for (const kind of ["efficiency", "defensive", "random", "human"]) {
        const opt = el("option", null, kind === "human" ? "a friend (link)" : `${kind} bot`);
        opt.value = kind;
        sel.appendChild(opt);
      }
      label.appendChild(sel);
      box.appendChild(label);
    }
  };
  rules.addEventListener("change", refresh);
  refresh();
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
    if (form.get("switches")) {
      try { body.switches = JSON.parse(form.get("switches")); } catch (err) {
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

// ------------------------------------------------------------------ table drawing

// Draws one state. `view` is the seat at the bottom; `open` gives every hand (replays);
// a spectator sees every hand's back, the bottom one too.
function drawTable(state, view, open, spectating = false, root = document) {
  RED = new Set(state.red);
  const n = state.players.length;
  root.querySelector(".board").dataset.players = n;
  const center = root.querySelector(".center");
  center.replaceChildren();
  const handNo = state.dealer + 1;
  center.appendChild(el("div", "round", `${WINDS[state.round_wind - 27] || "?"} ${handNo}`));
  center.appendChild(el("div", "honba", `honba ${state.honba} · sticks ${state.sticks}`));
  center.appendChild(el("div", "left", `tiles left ${state.live_left}`));
  const dora = el("div", "dora");
  dora.appendChild(el("span", "label", "dora "));
  for (const t of state.dora_indicators) dora.appendChild(tileEl(t, "small"));
  center.appendChild(dora);

  root.querySelectorAll(".seat-area").forEach((a) => { a.replaceChildren(); a.hidden = true; });
  for (let s = 0; s < n; s++) {
    const pos = (s - view + n) % n;
    const area = root.querySelector(`.seat-area[data-pos="${n === 3 && pos === 2 ? 3 : pos}"]`);
    area.hidden = false;
    area.dataset.seat = s;
    const head = el("div", "seat-head" + (state.current === s ? " current" : ""));
    const wind = WINDS[(s - state.dealer + n) % n];
    const player = state.players[s];
    head.appendChild(el("span", "wind", wind[0]));
    head.appendChild(el("span", "name", player.name));
    head.appendChild(el("span", "score", String(state.scores[s])));
    const clock = el("span", "clock");
    clock.dataset.seat = s;
    head.appendChild(clock);
    if (state.riichi[s]) head.appendChild(el("span", "riichi-stick", "riichi"));
    area.appendChild(head);
    if (open && state.hands) {
      const hand = el("div", "hand small-hand");
      for (const t of state.hands[s]) hand.appendChild(tileEl(t, "small"));
      if (state.drawns[s] !== null) hand.appendChild(tileEl(state.drawns[s], "small drawn"));
      area.appendChild(hand);
    } else if (s !== view || spectating) {
      const hand = el("div", "hand small-hand hidden-hand");
      for (let i = 0; i < state.hand_sizes[s]; i++) hand.appendChild(tileEl(null, "small"));
      area.appendChild(hand);
    }
    const melds = el("div", "melds");
    for (const m of state.meld_tiles[s]) {
      const group = el("span", "meld");
      for (const t of m) group.appendChild(tileEl(t, "small"));
      melds.appendChild(group);
    }
    area.appendChild(melds);
    const river = el("div", "river");
    for (const [t, tsumogiri, riichi, called] of state.discards[s]) {
      const cls = ["small"];
      if (riichi) cls.push("sideways");
      if (called) cls.push("called");
      if (tsumogiri) cls.push("tsumogiri");
      river.appendChild(tileEl(t, cls.join(" ")));
    }
    area.appendChild(river);
  }
}

// ------------------------------------------------------------------ results

function resultHtml(events, players) {
  const box = el("div");
  for (const e of events) {
    if (e.type === "win") {
      const r = e.result;
      const who = players[e.seat].name;
      const how = e.source === null || e.source === e.seat ? "tsumo" : `ron from ${players[e.source].name}`;
      box.appendChild(el("h3", null, `${who} wins by ${how}`));
      const hand = el("div", "hand");
      for (const t of e.hand) hand.appendChild(tileEl(t, "small"));
      for (const m of e.melds) hand.appendChild(el("span", "meld-text", ` ${m}`));
      box.appendChild(hand);
      const yaku = el("ul", "yaku");
      for (const y of r.yaku) yaku.appendChild(el("li", null, `${y.en} (${y.ja}) ${y.han} han`));
      if (r.dora) yaku.appendChild(el("li", null, `dora ${r.dora}`));
      if (r.aka) yaku.appendChild(el("li", null, `red fives ${r.aka}`));
      if (r.ura) yaku.appendChild(el("li", null, `ura dora ${r.ura}`));
      box.appendChild(yaku);
      if (e.ura && e.ura.length) {
        const ura = el("div", "dora");
        ura.appendChild(el("span", "label", "ura indicators "));
        for (const t of e.ura) ura.appendChild(tileEl(t, "small"));
        box.appendChild(ura);
      }
      const fu = r.fu_items.map((i) => `${i.label} ${i.fu}`).join(", ");
      const limit = r.limit && r.limit !== "none" ? ` · ${r.limit}` : "";
      box.appendChild(el("p", "value", r.yakuman
        ? `yakuman x${r.yakuman} · ${r.points} points`
        : `${r.han} han ${r.fu} fu${limit} · ${r.points} points`));
      if (!r.yakuman) box.appendChild(el("p", "muted fu", `fu: ${fu}`));
      const pays = r.payments.map((p) => `${players[p.seat].name} pays ${p.points}`).join("; ");
      box.appendChild(el("p", "payments", pays));
    } else if (e.type === "ryuukyoku") {
      box.appendChild(el("h3", null, e.kind === "exhaustive" ? "Exhaustive draw" : `Abortive draw: ${e.kind}`));
      if (e.tenpai) box.appendChild(el("p", null, `tenpai: ${e.tenpai.map((s) => players[s].name).join(", ") || "nobody"}`));
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

function showResult(events, players) {
  const ends = events.filter((e) => ["win", "ryuukyoku", "end_hand", "end_match"].includes(e.type));
  if (!ends.length) return;
  $("#result-body").replaceChildren(resultHtml(ends, players));
  const dialog = $("#result");
  if (!dialog.open) dialog.showModal();
}

// ------------------------------------------------------------------ playing

const ACTION_LABELS = {
  tsumo: "Tsumo", ron: "Ron", chi: "Chi", pon: "Pon", kan: "Kan", ankan: "Kan (closed)",
  kakan: "Kan (added)", kyuushu: "Nine terminals", pass: "Pass",
};

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
  document.querySelectorAll(".seat-head .clock").forEach((node) => {
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

function playTable(tableId, token) {
  $("#table").hidden = false;
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
  $("#result-ok").addEventListener("click", () => { if (timed && seat !== null && ws) send({ type: "ready" }); });

  const send = (msg) => ws.send(JSON.stringify(msg));
  const act = (action) => {
    riichiMode = false;
    sent = true;
    // the version names the decision this answers: a stale or repeated action is refused
    send({ type: "action", version, action });
    render();
  };

  function render() {
    if (seat === null && !state) {
      // a spectator before the first hand has ended: nothing may be shown yet
      document.querySelectorAll(".seat-area").forEach((a) => { a.replaceChildren(); a.hidden = true; });
      $("#table .center").replaceChildren(el("div", "waiting-note", "The first hand is in play. Spectators watch a hand behind: it appears here once it is over."));
      setStatus("watching");
      return;
    }
    if (!state) return;
    drawTable(state, seat === null ? 0 : seat, false, seat === null);
    const hand = $("#my-hand");
    hand.replaceChildren();
    const actions = $("#actions");
    actions.replaceChildren();
    if (seat === null) { setStatus(state.over ? "the match is over" : `watching ${delay}`); return; }
    const legal = sent ? [] : state.legal;
    const discards = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
    const riichis = new Set(legal.filter((a) => a.type === "riichi").map((a) => a.tile));
    const tiles = [...state.hand];
    const addTile = (t, drawn) => {
      const node = tileEl(t, drawn ? "drawn" : "");
      const usable = riichiMode ? riichis.has(t) : discards.has(t);
      if (usable) {
        node.classList.add("playable");
        if (riichiMode) node.classList.add("riichi-ok");
        node.addEventListener("click", () => act({ type: riichiMode ? "riichi" : "discard", tile: t }));
      }
      hand.appendChild(node);
    };
    for (const t of tiles) addTile(t, false);
    if (state.drawn !== null) addTile(state.drawn, true);
    if (riichis.size) {
      const b = el("button", "act riichi", riichiMode ? "Cancel riichi" : "Riichi");
      b.dataset.action = "riichi";
      b.addEventListener("click", () => { riichiMode = !riichiMode; render(); });
      actions.appendChild(b);
    }
    for (const a of legal) {
      if (a.type === "discard" || a.type === "riichi") continue;
      let label = ACTION_LABELS[a.type] || a.type;
      if (a.tiles && a.tiles.length && ["chi", "pon", "kan", "ankan"].includes(a.type)) {
        label += " " + a.tiles.map(tileName).join("");
      }
      const b = el("button", `act ${a.type}`, label);
      b.dataset.action = a.type;
      b.addEventListener("click", () => act(a));
      actions.appendChild(b);
    }
    if (state.over) setStatus("the match is over");
    else if (legal.length) setStatus(riichiMode ? "choose the riichi discard" : "your move");
    else setStatus("waiting");
  }

  function accept(msg) {
    if (msg.type === "hello" || msg.type === "state") {
      seat = msg.seat;
      version = msg.version;
      state = msg.state;
      timed = Boolean(msg.clock);
      delay = msg.delay || "";
      showSpectators(msg.spectators);
      render();
      setClock(msg.clock);
      return;
    }
    if (msg.type === "clock") { setClock(msg.clock); return; }
    if (msg.type === "spectators") { showSpectators(msg.count); return; }
    if (msg.type === "update") {
      if (msg.from !== version) { send({ type: "sync" }); return; }  // missed versions
      version = msg.version;
      state = msg.state;
      if (state) showResult(msg.events, state.players);
      render();
      setClock(msg.clock);
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
    for (const [fmt, label] of [["tenhou6", "tenhou.net/6"], ["record", "record"]]) {
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
    if (f.events.some((e) => e.type === "end_hand")) onEnd(f.events, data.players);
  };
  const handStart = (i) => frames[i].hand_index;
  root.querySelectorAll("button[data-step]").forEach((b) => {
    b.addEventListener("click", () => {
      const step = b.dataset.step;
      if (step === "1") at = Math.min(at + 1, frames.length - 1);
      else if (step === "-1") at = Math.max(at - 1, 0);
      else if (step === "hand") {
        const h = handStart(at);
        while (at < frames.length - 1 && handStart(at) === h) at++;
      } else if (step === "-hand") {
        const h = handStart(at);
        while (at > 0 && handStart(at - 1) >= h) at--;
        if (at > 0 && handStart(at) === h && h > 0) {
          at--;
          const prev = handStart(at);
          while (at > 0 && handStart(at - 1) === prev) at--;
        }
      }
      show();
    });
  });
  show();
  return data;
}

async function showReplay(gameId) {
  $("#table").hidden = false;
  $("#replay-controls").hidden = false;
  $("#dl-tenhou6").href = `/api/games/${gameId}/tenhou6`;
  $("#dl-record").href = `/api/games/${gameId}/record`;
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
    const data = await replayPane(pane, gameId, (events, players) => {
      const ends = events.filter((e) => ["win", "ryuukyoku", "end_hand"].includes(e.type));
      result.replaceChildren(resultHtml(ends, players));
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
  for (const row of data.board) {
    let open = null;
    if (row.game) {
      open = el("span");
      open.appendChild(link("replay", `/replay/${row.game}`));
      if (mine && mine.table !== row.game && mine.status === "over") {
        open.appendChild(document.createTextNode(" · "));
        open.appendChild(link("side by side with yours", `/compare/${mine.table}/${row.game}`));
      }
    }
    const tr = rowOf([row.rank, playerLink(row.player, row.name), row.score, when(row.finished), open]);
    if (mine && row.game === mine.table) tr.classList.add("mine");
    body.appendChild(tr);
  }
  if (!data.board.length) body.appendChild(rowOf(["", "nobody has finished today's walls yet", "", "", ""]));
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
