// Playing at a table: one websocket, your decisions and the options that take some for you.
import { loadMe } from "./account.js";
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { coachHandEnded, coachPlayed, coachWanted, setupCoach, showAdvice } from "./coach.js";
import { drawTable } from "./board.js";
import { setClock } from "./clock.js";
import { $, el, setStatus, showGone } from "./dom.js";
import { ACTION_KEYS, clearHand, drawHand } from "./hand.js";
import { setupLeave } from "./mine.js";
import { lastHand, showResult } from "./result.js";
import { showRules } from "./rules.js";
import { play, playEvents, setSound } from "./sound.js";
import { tileSpoken } from "./tiles.js";

// Close codes after which reconnecting cannot help: a refused seat link, no such table.
export const FINAL_CLOSE_CODES = new Set([4403, 4404]);

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
  let leaving = false;  // the Leave button is set up

  const send = (msg) => ws.send(JSON.stringify(msg));
  const act = (action) => {
    riichiMode = false;
    sent = true;
    // the version names the decision this answers: a stale or repeated action is refused
    send({ type: "action", version, action });
    coachPlayed(action);
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

  let coachedAt = -1;  // the version the coach was last asked about
  function askCoach() {
    const deciding = state && !state.over && state.legal.length > 1 && !sent;
    if (!coachWanted() || !deciding || coachedAt === version) return;
    coachedAt = version;
    send({ type: "coach" });
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
    askCoach();
    drawHand(state, legal, riichiMode, act, () => { riichiMode = !riichiMode; render(); });
    $("#table").classList.toggle("riichi-mode", riichiMode);
    const calling = legal.some((a) => a.type === "pass");
    if (state.over) setStatus(t("status.over"));
    else if (legal.length) setStatus(t(riichiMode ? "status.riichi_choose" : calling ? "status.call_open" : "status.your_turn"));
    else setStatus(t("status.waiting"));
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
    const what = move && move.type === "discard" ? `discarded ${tileSpoken(move.tile)}` : "passed";
    const name = after && after.players[who] ? after.players[who].name : `seat ${who + 1}`;
    notice(who === seat ? `Your time ran out: the clock ${what} for you.` : `${name}'s time ran out: the clock ${what}.`);
  }

  // A hand's end as it stood, its result over it; on Next (confirmed, on a clock) the
  // next deal, then whatever came meanwhile.
  function holdResult(events, ended, next) {
    holding = true;
    coachHandEnded();
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
    if (msg.state) announce(msg.events, seat === null ? 0 : seat, msg.state.players.length);
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
      if (seat !== null && !leaving && !(state && state.over)) {
        leaving = true;
        setupLeave(tableId, token, kind === "practice");
        setupCoach(kind, () => { coachedAt = -1; render(); });
      }
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
    if (msg.type === "coach") { if (msg.version === version) showAdvice(msg); return; }
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
        const why = finalError || ev.reason || "this table cannot be joined";
        if (state === null) showGone("This table cannot be joined", why);
        else setStatus(why);
        return;
      }
      if (state && state.over) return;
      setStatus(t("status.reconnecting"));
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
