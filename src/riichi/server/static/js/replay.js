// Replays, and two games of the same walls side by side.
import { drawTable } from "./board.js";
import { $, setStatus } from "./dom.js";
import { resultHtml, showResult } from "./result.js";
import { showRules } from "./table.js";

export async function replayPane(root, gameId, onEnd) {
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

export async function showReplay(gameId) {
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
export async function showCompare(a, b) {
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
