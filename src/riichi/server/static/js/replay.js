// Replays, and two games of the same walls side by side.
import { drawTable } from "./board.js";
import { $, el, link, setStatus, showGone } from "./dom.js";
import { offerReport } from "./moderation.js";
import { resultHtml, showResult } from "./result.js";
import { showRules } from "./rules.js";
import { WINDS, worded } from "./tiles.js";

// A replay in `root` (which holds a .board, a .frame-label and [data-step] buttons, and
// may hold a .replay-hands list and a .replay-seat choice) of a finished game (its id)
// or of replay data already read; `onEnd(events, players, frame)` is called on a frame
// that ends a hand, `onShow(at, frame)` on every frame shown; `view` is the seat at the
// bottom. Returns the data, a `step(kind)` and a `go(frame)`.
export async function replayPane(root, source, onEnd, { onShow = null, view: seat = 0 } = {}) {
  let data = source;
  if (typeof source === "string") {
    const res = await fetch(`/api/games/${source}/replay`);
    data = await res.json();
    if (!res.ok) { showGone("No such game to replay", data.error); return null; }
  }
  const frames = data.frames;
  const players = data.players;
  let at = 0;
  let view = seat;
  const ends = (i) => frames[i].events.some((e) => e.type === "end_hand");
  const hands = handsOf(frames, players);
  const list = root.querySelector(".replay-hands");
  const seats = root.querySelector(".replay-seat");
  const show = () => {
    const f = frames[at];
    drawTable(f, view, true, false, root);
    const label = root.querySelector(".frame-label");
    label.textContent = `${at}/${frames.length - 1} ${worded(f.label) || "deal"}`;
    label.classList.toggle("timeout", Boolean(f.timeout));
    if (list) list.value = String(hands.filter((h) => h.start <= at).length - 1);
    if (ends(at)) onEnd(f.events, players, f);
    if (onShow) onShow(at, f);
  };
  const go = (i) => { at = Math.max(0, Math.min(i, frames.length - 1)); show(); };
  // "hand »" stops at the next hand's end (its final board and result), "« hand" at
  // the previous one's, or at the deal
  const step = (kind) => {
    if (kind === "1") at = Math.min(at + 1, frames.length - 1);
    else if (kind === "-1") at = Math.max(at - 1, 0);
    else if (kind === "hand") {
      do { at++; } while (at < frames.length - 1 && !ends(at));
      at = Math.min(at, frames.length - 1);
    } else if (kind === "-hand") {
      do { at--; } while (at > 0 && !ends(at));
      at = Math.max(at, 0);
    }
    show();
  };
  root.querySelectorAll("button[data-step]").forEach((b) => {
    b.addEventListener("click", () => step(b.dataset.step));
  });
  if (list) {
    list.replaceChildren(...hands.map((h, i) => Object.assign(el("option", null, h.title), { value: String(i) })));
    list.addEventListener("change", () => { at = hands[Number(list.value)].start; show(); });
  }
  if (seats) {
    seats.replaceChildren(...players.map((p, s) => Object.assign(el("option", null, p.name), { value: String(s) })));
    seats.value = String(view);
    seats.addEventListener("change", () => { view = Number(seats.value); show(); });
  }
  // the wheel over the board steps through the game, as the arrow keys do
  root.querySelector(".board").addEventListener("wheel", (ev) => {
    ev.preventDefault();
    step(ev.deltaY > 0 ? "1" : "-1");
  }, { passive: false });
  show();
  return { data, step, go, at: () => at };
}

// Each hand of a replay: the frame its deal is in, and a title that says its result.
function handsOf(frames, players) {
  const out = [];
  frames.forEach((f, i) => {
    if (i > 0 && f.label !== "deal") return;
    const round = `${WINDS[f.round_wind - 27] || "?"} ${f.dealer + 1}${f.honba ? `, ${f.honba} honba` : ""}`;
    out.push({ start: i, title: round });
  });
  let hand = 0;
  frames.forEach((f) => {
    const wins = f.events.filter((e) => e.type === "win");
    const draw = f.events.find((e) => e.type === "ryuukyoku");
    if (!wins.length && !draw) return;
    const what = wins.length
      ? wins.map((e) => `${players[e.seat].name} ${e.source === null || e.source === e.seat ? "tsumo" : "ron"} ${e.result.points.toLocaleString()}`).join(", ")
      : draw.kind === "exhaustive" ? "draw" : "abortive draw";
    if (out[hand]) out[hand].title += `: ${what}`;
    hand++;
  });
  return out;
}

export async function showReplay(gameId) {
  $("#table").hidden = false;
  $("#options").hidden = true;
  $("#table .player-area").hidden = true;  // every hand is open on the board
  $("#show-rules").addEventListener("click", () => showRules(gameId));
  $("#replay-controls").hidden = false;
  $("#dl-tenhou6").href = `/api/games/${gameId}/tenhou6`;
  $("#dl-record").href = `/api/games/${gameId}/record`;
  $("#dl-mjai").href = `/api/games/${gameId}/mjai`;
  const pane = await replayPane($("#table"), gameId, showResult);
  if (!pane) return;
  setStatus(`replay: ${pane.data.players.map((p) => p.name).join(", ")}`);
  // a review of each seat a person played
  const reviews = $("#review-links");
  reviews.replaceChildren(...pane.data.players.flatMap((p, s) => (p.bot ? [] : [link(`review ${p.name}`, `/review/${gameId}/${s}`)])));
  replayKeys(pane);
  offerReport(gameId, pane.data.players);
}

// The replay's keys: arrows and page keys step, Enter or Escape closes a result;
// `more` maps further keys to what they do.
export function replayKeys(pane, more = {}) {
  const keys = { ArrowRight: "1", ArrowLeft: "-1", ArrowDown: "hand", ArrowUp: "-hand", PageDown: "hand", PageUp: "-hand" };
  document.addEventListener("keydown", (ev) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!$("#result-panel").hidden && (ev.key === "Enter" || ev.key === "Escape")) {
      ev.preventDefault();
      $("#result-ok").click();
      return;
    }
    const extra = more[ev.key];
    if (!keys[ev.key] && !extra) return;
    ev.preventDefault();
    $("#result-panel").hidden = true;
    if (extra) extra(); else pane.step(keys[ev.key]);
  });
}

// Two games of the same walls side by side (a Daily Wall duplicate), each stepped on
// its own, each hand's result shown under its board.
export async function showCompare(a, b) {
  $("#compare").hidden = false;
  const template = $("#table .board");
  for (const [pane, gameId] of [[$("#pane-a"), a], [$("#pane-b"), b]]) {
    const board = template.cloneNode(true);
    board.removeAttribute("id");
    board.querySelector(".center").removeAttribute("id");
    pane.querySelector(".pane-board").replaceChildren(board);
    const result = pane.querySelector(".pane-result");
    const shown = await replayPane(pane, gameId, (events, players, frame) => {
      const ends = events.filter((e) => ["win", "ryuukyoku", "end_hand"].includes(e.type));
      result.replaceChildren(resultHtml(ends, players, frame));
    });
    if (shown) pane.querySelector(".pane-title").textContent = shown.data.players[0].name;
  }
}
