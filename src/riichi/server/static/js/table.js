// Playing at a table: one websocket, the clocks, table options, your decisions.
import { drawTable, withoutDrawn } from "./board.js";
import { $, el, getJSON, setStatus } from "./dom.js";
import { lastHand, showResult } from "./result.js";
import { kindOf, kindSpoken, kindTile, tileArt, tileEl, tileSpoken } from "./tiles.js";

export const ACTION_LABELS = {
  tsumo: "Tsumo", ron: "Ron", chi: "Chi", pon: "Pon", kan: "Kan", ankan: "Kan (closed)",
  kakan: "Kan (added)", kyuushu: "Nine terminals", pass: "Pass", kita: "North aside",
};
export const ACTION_KEYS = { tsumo: "w", ron: "w", chi: "c", pon: "p", kan: "k", ankan: "k", kakan: "k", pass: "n" };

// Close codes after which reconnecting cannot help: a refused seat link, no such table.
export const FINAL_CLOSE_CODES = new Set([4403, 4404]);

// The clocks: the server's deadlines, shown against its time (offset from ours).
export let CLOCK = null;
export let CLOCK_OFFSET = 0;

export function setClock(clock) {
  CLOCK = clock;
  if (clock) CLOCK_OFFSET = clock.now - Date.now() / 1000;
  tickClocks();
}

export function tickClocks() {
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
export const OPTIONS = { autoWin: false, noCalls: false, tsumogiri: false, pace: 400 };
export function loadOptions() {
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

export async function showRules(tableId) {
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

export function playTable(tableId, token) {
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

export function showSpectators(count) {
  const node = $("#spectators");
  node.hidden = !count;
  node.textContent = count ? `${count} watching` : "";
}
