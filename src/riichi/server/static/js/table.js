// Playing at a table: one websocket, the clocks, table options, your decisions.
import { loadMe } from "./account.js";
import { drawTable } from "./board.js";
import { $, el, getJSON, setStatus } from "./dom.js";
import { ACTION_KEYS, clearHand, drawHand } from "./hand.js";
import { lastHand, showResult } from "./result.js";
import { play, playEvents, setSound } from "./sound.js";
import { tileName } from "./tiles.js";

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
  document.querySelectorAll(".plate .clock, #my-clock").forEach((node) => {
    const big = node.id === "my-clock";  // your own countdown, by your hand
    node.textContent = "";
    node.className = big ? "my-clock" : "clock";
    const seat = node.dataset.seat;
    if (!CLOCK || seat === undefined || seat === "") return;
    const now = Date.now() / 1000 + CLOCK_OFFSET;
    const reserve = CLOCK.reserves[seat];
    const d = CLOCK.decisions[seat];
    if (!d) {
      if (big) return;
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
    // your own clock about to run out: warned once for each decision
    const key = `${d.until}`;
    if (big && left <= 5 && warned !== key) { warned = key; play("clock"); }
  });
}
let warned = "";
setInterval(tickClocks, 250);

// Table options, kept in this browser.
export const OPTIONS = { autoWin: false, noCalls: false, tsumogiri: false, sound: false, pace: 400 };
export function loadOptions() {
  try { Object.assign(OPTIONS, JSON.parse(localStorage.getItem("riichi-options") || "{}")); } catch (err) { /* defaults */ }
  const bind = (id, key) => {
    const input = $(id);
    if (input.type === "checkbox") input.checked = Boolean(OPTIONS[key]);
    else input.value = OPTIONS[key];
    input.addEventListener("change", () => {
      OPTIONS[key] = input.type === "checkbox" ? input.checked : Math.max(0, Math.min(3000, Number(input.value) || 0));
      localStorage.setItem("riichi-options", JSON.stringify(OPTIONS));
      setSound(OPTIONS.sound);
    });
  };
  bind("#opt-auto-win", "autoWin");
  bind("#opt-no-calls", "noCalls");
  bind("#opt-tsumogiri", "tsumogiri");
  bind("#opt-sound", "sound");
  bind("#opt-pace", "pace");
  setSound(OPTIONS.sound);
}

// The rules dialog's groups, and which switches matter only under some settlement.
const RULE_GROUPS = [
  ["The match", ["players", "length", "start_points", "return_points", "extension_target", "agari_yame",
    "tenpai_yame", "extension_repeat_first", "busting", "tsumo_loss", "loss_limit"]],
  ["Settlement", ["settlement", "uma", "oka", "leftover_sticks_to_first", "round_final_points",
    "table_points", "feeding_penalty", "placement_bonus"]],
  ["Hands and yaku", ["red_fives", "kuitan", "double_wind_pair_fu", "kiriage", "kazoe_yakuman",
    "double_yakuman", "yakuman_stacking", "renhou", "north_pon_han", "kita"]],
  ["Calls, riichi and wins", ["chi_allowed", "kuikae_forbidden", "double_ron", "triple_ron",
    "temporary_furiten_until", "riichi_min_live_tiles", "furiten_riichi", "ippatsu", "pao",
    "kokushi_robs_closed_kan"]],
  ["Dora", ["ura_dora", "kan_dora", "kan_ura", "closed_kan_dora", "open_kan_dora"]],
  ["Draws and payments", ["abort_nine_terminals", "abort_four_winds", "abort_four_riichi",
    "abort_four_kans", "four_kan_abort_on_fifth", "nagashi_mangan", "noten_payment", "honba_ron",
    "honba_tsumo", "riichi_stick"]],
];
const ONLY_UNDER = {
  uma: ["uma-oka"], oka: ["uma-oka"], round_final_points: ["uma-oka"], table_points: ["table-points"],
  feeding_penalty: ["winner-takes-all"], placement_bonus: ["house"],
};

function ruleValue(k, v) {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.map((x) => (k === "uma" ? x / 1000 : x)).join(", ") : "none";
  return typeof v === "number" ? v.toLocaleString() : String(v);
}

// This table's rules, grouped; switches that cannot apply here (chips penalties at a
// table without a bet, uma where the settlement has none) are left out.
export async function showRules(tableId) {
  const info = await getJSON(`/api/tables/${tableId}`);
  const r = info.ruleset;
  const money = Boolean(info.bet);
  const box = $("#rules-list");
  box.replaceChildren();
  box.appendChild(el("dt", null, "preset"));
  box.appendChild(el("dd", null, `${info.rules}, ${info.length}${money ? `, a bet of ${info.bet}` : ""}`));
  const shown = new Set(["name", "lengths"]);
  const applies = (k) => !ONLY_UNDER[k] || (ONLY_UNDER[k].includes(r.settlement) && (money || !["feeding_penalty", "placement_bonus"].includes(k)));
  for (const [title, keys] of RULE_GROUPS) {
    const rows = keys.filter((k) => k in r && applies(k));
    keys.forEach((k) => shown.add(k));
    if (!rows.length) continue;
    const head = el("dt", "group", title);
    box.appendChild(head);
    box.appendChild(el("dd", "group"));
    for (const k of rows) {
      box.appendChild(el("dt", null, k.replaceAll("_", " ")));
      box.appendChild(el("dd", null, ruleValue(k, r[k])));
    }
  }
  for (const [k, v] of Object.entries(r)) {  // a switch no group names yet
    if (shown.has(k)) continue;
    box.appendChild(el("dt", null, k.replaceAll("_", " ")));
    box.appendChild(el("dd", null, ruleValue(k, v)));
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
  let kind = "";  // the table's kind: a Daily Wall game has no replay until its day ends

  const send = (msg) => ws.send(JSON.stringify(msg));
  const act = (action) => {
    riichiMode = false;
    sent = true;
    // the version names the decision this answers: a stale or repeated action is refused
    send({ type: "action", version, action });
    render();
  };

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
    if (seat === null) {
      clearHand();
      setStatus(state.over ? "the match is over" : `watching ${delay}`);
      return;
    }
    const legal = sent ? [] : state.legal;
    if (automatic(legal)) return;
    drawHand(state, legal, riichiMode, act, () => { riichiMode = !riichiMode; render(); });
    $("#table").classList.toggle("riichi-mode", riichiMode);
    const calling = legal.some((a) => a.type === "pass");
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

  // Where to go once the match is over: its replay (a Daily Wall game's opens when its
  // day is over) and the lobby.
  function resultLinks(events) {
    if (!events.some((e) => e.type === "end_match")) return null;
    return kind === "daily" ? { lobby: "/daily" } : { replay: `/replay/${tableId}`, lobby: "/" };
  }

  // The clock played for a seat: said on the table as it happens.
  function timedOut(who, events, after) {
    const move = events.find((e) => e.seat === who && ["discard", "pass", "riichi"].includes(e.type));
    const what = move && move.type === "discard" ? `discarded ${tileName(move.tile)}` : "passed";
    const name = after && after.players[who] ? after.players[who].name : `seat ${who + 1}`;
    notice(who === seat ? `Your time ran out: the clock ${what} for you.` : `${name}'s time ran out: the clock ${what}.`);
  }

  // A hand's end as it stood, its result over it; on Next (confirmed, on a clock) the
  // next deal, then whatever came meanwhile.
  function holdResult(events, ended, next) {
    holding = true;
    state = ended;
    render();
    showResult(events, state.players, ended, resultLinks(events), () => {
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
    if (msg.timeout !== undefined) timedOut(msg.timeout, msg.events, msg.state);
    if (msg.events.some((e) => e.type === "end_match")) loadMe();  // a settlement moves chips
    if (msg.ended && seat !== null) {
      holdResult(msg.events, msg.ended, msg.state);
      return;
    }
    state = msg.state;
    playEvents(msg.events, seat);
    if (seat !== null && state && state.legal.length) play("turn");
    if (seat === null && state) showResult(msg.events, state.players, state, resultLinks(msg.events), null);
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
      kind = (msg.table && msg.table.kind) || "";
      $("#my-clock").dataset.seat = seat === null ? "" : seat;
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

let noticeTimer = null;

// A short message over your hand (a timeout): read out at once, gone after a while.
export function notice(text) {
  const node = $("#notice");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { node.hidden = true; }, 8000);
}

export function showSpectators(count) {
  const node = $("#spectators");
  node.hidden = !count;
  node.textContent = count ? `${count} watching` : "";
}
