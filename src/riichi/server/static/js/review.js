// Game reviews: the replay with the reviewer's options beside the board at each
// decision, the mistakes on a timeline of the game, the summary; and a page that
// reviews a pasted or uploaded log.
import { $, el, getJSON, postJSON, setStatus, signed } from "./dom.js";
import { svgEl } from "./charts.js";
import { replayKeys, replayPane } from "./replay.js";
import { showResult } from "./result.js";
import { kindTile, roundWords, tileEl, worded } from "./tiles.js";

const MAX_LOG = 1 << 20;  // as the server's limit: said before the upload, not after
const SHOWN = 3;  // options shown as bars at a decision, the played one besides
const IMPROVES_SHOWN = 9;  // tiles drawn under a discard, the rest counted

export async function showReview(game, seat) {
  setStatus("reviewing: a few seconds the first time…");
  try {
    if (game.startsWith("log-")) {
      const kept = await getJSON(`/api/reviews/${encodeURIComponent(game)}/${seat}`);
      await openReview(kept.review, kept.replay);
    } else {
      // expert reviews; master (expert with its search) gives a second opinion
      const by = new URLSearchParams(location.search).get("by") === "master" ? "master" : "expert";
      const found = await getJSON(`/api/games/${encodeURIComponent(game)}/review/${seat}?by=${by}`);
      const other = by === "master" ? "expert" : "master";
      const link = el("a", null, by === "master" ? "expert's review" : "a second opinion by master (slower)");
      link.href = `/review/${encodeURIComponent(game)}/${seat}` + (other === "master" ? "?by=master" : "");
      $("#review-other").replaceChildren("See ", link);
      await openReview(found.review, game);
    }
  } catch (err) {
    setStatus(err.message);
  }
}

const points = (v) => (v === null || v === undefined ? "-" : Math.round(v).toLocaleString());
const pct = (v) => `${Math.round(100 * v)}%`;

// The review's texts name tiles in notation: said in words once, as it arrives.
function inWords(review) {
  for (const d of review.decisions) {
    d.round = roundWords(d.round);
    d.played_text = worded(d.played_text);
    d.best = worded(d.best);
    for (const o of d.options) o.text = worded(o.text);
  }
  return review;
}

async function openReview(review, source) {
  inWords(review);
  $("#review-upload").hidden = true;
  $("#table").hidden = false;
  $("#options").hidden = true;
  $("#show-rules").hidden = true;
  $("#table .player-area").hidden = true;  // every hand is open on the board
  $("#replay-controls").hidden = false;
  $("#replay-downloads").hidden = typeof source !== "string";
  if (typeof source === "string") {
    for (const fmt of ["tenhou6", "record", "mjai"]) $(`#dl-${fmt}`).href = `/api/games/${source}/${fmt}`;
  }
  const panel = $("#review-panel");
  panel.hidden = false;
  const decisions = review.decisions;
  let length = 1;  // frames: known once the replay is read
  const byFrame = new Map();
  const frameOf = [];
  const pane = await replayPane($("#table"), source, showResult, {
    view: review.seat,
    onShow: (at) => {
      const here = $("#review-here");
      if (here) here.style.left = `${((100 * at) / Math.max(1, length - 1)).toFixed(2)}%`;
      showDecision(review, byFrame.get(at));
    },
  });
  if (!pane) return;
  const frames = pane.data.frames;
  length = frames.length;
  // a decision is shown on the last frame before the action that answered it
  decisions.forEach((d, i) => {
    let at = 0;
    frames.forEach((f, j) => { if (f.seq === d.step - 1) at = j; });
    frameOf.push(at);
    byFrame.set(at, i);
  });
  summary(review);
  timeline(review, frameOf, frames.length, pane);
  chart(review, frameOf, pane);
  largest(review, frameOf, pane);
  const mistakes = decisions.map((d, i) => i).filter((i) => decisions[i].grade);
  const jump = (dir) => {
    const here = pane.at();
    const order = dir > 0 ? mistakes : [...mistakes].reverse();
    const next = order.find((i) => (dir > 0 ? frameOf[i] > here : frameOf[i] < here));
    if (next !== undefined) pane.go(frameOf[next]);
  };
  replayKeys(pane, { m: () => jump(1), M: () => jump(-1) });
  // open at the first decision
  if (frameOf.length) pane.go(frameOf[0]);
  setStatus(`review of ${review.player}`);
}

function summary(review) {
  const s = review.summary;
  // the reviewer by name; its version (which review a kept one was) in the title
  const who = $("#review-who");
  who.textContent = `${review.player}, by ${review.reviewer.startsWith("mjai") ? "an outside bot" : review.reviewer.split(" ")[0]}`;
  who.title = review.reviewer;
  const unit = review.unit === "points" ? "expected points" : review.unit;
  $("#review-summary").textContent =
    `Top-choice match ${pct(s.top_choice)}, within the best value ${pct(s.within_best ?? s.agreement)}, of ${s.decisions} decisions; ${points(s.lost_per_hand)} ${unit} lost a hand `
    + `(${points(s.lost)} over ${s.hands} hands); ${s.mistakes} mistakes, ${s.large} large`
    + (review.threshold ? ` (from ${points(review.threshold)} lost; large from ${points(review.large)})` : "");
  const table = $("#review-kinds");
  table.replaceChildren();
  const head = el("tr");
  for (const h of ["kind", "decisions", "top-choice match", "within the best value", "lost", "mistakes"]) head.appendChild(el("th", null, h));
  table.appendChild(head);
  for (const [kind, t] of Object.entries(s.by_kind)) {
    const tr = el("tr");
    for (const v of [kind, t.decisions, pct(t.top_choice), pct(t.within_best ?? t.agreement), points(t.lost), t.mistakes]) tr.appendChild(el("td", null, String(v)));
    table.appendChild(tr);
  }
}

// Every decision as a tick on the game's line, mistakes as marks to click (large
// ones taller); a tick where each hand starts.
function timeline(review, frameOf, length, pane) {
  const line = $("#review-timeline");
  line.replaceChildren();
  const left = (at) => `${((100 * at) / Math.max(1, length - 1)).toFixed(2)}%`;
  review.decisions.forEach((d, i) => {
    if (!d.grade) return;
    const mark = el("button", `mark ${d.grade}`);
    mark.type = "button";
    mark.style.left = left(frameOf[i]);
    const what = `${d.round} turn ${d.turn + 1}: ${d.played_text}, ${d.best} better by ${points(d.loss)}`;
    mark.title = what;
    mark.setAttribute("aria-label", what);
    mark.addEventListener("click", () => pane.go(frameOf[i]));
    line.appendChild(mark);
  });
  if (!line.children.length) line.appendChild(el("span", "muted", "no mistakes"));
  const here = el("span", "here");
  here.id = "review-here";
  line.appendChild(here);
}

// The points lost so far through the game, a step at each decision that lost any;
// a line where each hand starts; a dot at each mistake, to click.
function chart(review, frameOf, pane) {
  const svg = $("#review-chart");
  svg.replaceChildren();
  const ds = review.decisions;
  const total = ds.reduce((sum, d) => sum + Math.max(0, d.loss || 0), 0);
  const W = 600, H = 90, pad = 6;
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, ds.length - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * v) / Math.max(1, total);
  let sum = 0;
  const path = ds.map((d, i) => { sum += Math.max(0, d.loss || 0); return `${x(i).toFixed(1)},${y(sum).toFixed(1)}`; });
  ds.forEach((d, i) => {
    if (i && d.hand !== ds[i - 1].hand) svg.appendChild(svgEl("line", { x1: x(i), x2: x(i), y1: pad, y2: H - pad, class: "hand-line" }));
  });
  svg.appendChild(svgEl("polyline", { points: path.join(" "), class: "loss-line", fill: "none" }));
  sum = 0;
  ds.forEach((d, i) => {
    sum += Math.max(0, d.loss || 0);
    if (!d.grade) return;
    const dot = svgEl("circle", { cx: x(i), cy: y(sum), r: d.grade === "large" ? 5 : 3.5, class: `mistake ${d.grade}`, tabindex: 0 });
    const title = svgEl("title", {});
    title.textContent = `${d.round} turn ${d.turn + 1}: ${d.played_text}, ${points(d.loss)} lost`;
    dot.appendChild(title);
    dot.addEventListener("click", () => pane.go(frameOf[i]));
    svg.appendChild(dot);
  });
  const label = svgEl("text", { x: pad + 2, y: 22, class: "chart-label" });
  label.textContent = `${points(total)} lost over the game`;
  svg.appendChild(label);
}

// The largest mistakes, largest first: each a button to its moment.
function largest(review, frameOf, pane) {
  const list = $("#review-largest");
  list.replaceChildren();
  for (const i of review.summary.largest) {
    const d = review.decisions[i];
    const li = el("li");
    const go = el("button", "link", `${d.round}, turn ${d.turn + 1}: ${d.played_text}; ${d.best} was better by ${points(d.loss)}`);
    go.type = "button";
    go.addEventListener("click", () => pane.go(frameOf[i]));
    li.appendChild(go);
    list.appendChild(li);
  }
  $("#review-worst").hidden = !review.summary.largest.length;
}

// Under a discard: what it leaves (the tiles that bring the hand nearer, unseen
// count) and the chance it deals in now to each seat in riichi or with calls.
function givesEl(review, gives) {
  const box = el("div", "gives");
  const stage = gives.shanten === 0 ? "ready on" : `${gives.shanten} from ready; improved by`;
  box.appendChild(el("span", "muted", `${stage} ${gives.tiles} tiles `));
  const kinds = gives.improve_kinds || [];
  for (const k of kinds.slice(0, IMPROVES_SHOWN)) box.appendChild(tileEl(kindTile(k), "small"));
  if (kinds.length > IMPROVES_SHOWN) box.appendChild(el("span", "muted", ` +${kinds.length - IMPROVES_SHOWN} kinds`));
  for (const { seat, chance } of gives.danger) {
    const who = review.players[seat] || `seat ${seat + 1}`;
    box.appendChild(el("span", chance >= 0.1 ? "danger high" : "danger", ` deals in to ${who}: ${pct(chance)}`));
  }
  return box;
}

function showDecision(review, index) {
  const box = $("#review-decision");
  box.replaceChildren();
  if (index === undefined) {
    const none = el("p", "muted", `No decision of ${review.player} here: step on`);
    none.appendChild(el("span", "key", " (→), or M for the next mistake"));
    none.appendChild(document.createTextNode("."));
    box.appendChild(none);
    return;
  }
  const d = review.decisions[index];
  const loss = d.loss === null ? "" : d.agrees ? "" : `, ${points(d.loss)} lost`;
  box.appendChild(el("p", `decision ${d.grade}`,
    `${d.round}, turn ${d.turn + 1} (${d.kind}): played ${d.played_text}; reviewer: ${d.best}${loss}`));
  const values = d.options.filter((o) => o.value !== null).map((o) => o.value);
  const top = Math.max(...values, 0), low = Math.min(...values, 0);
  const shown = d.options.slice(0, SHOWN);
  const played = d.options.find((o) => o.text === d.played_text);
  if (played && !shown.includes(played)) shown.push(played);
  const list = el("ul", "options");
  for (const o of shown) {
    const li = el("li", o === played ? "played" : "");
    const label = el("span", "label");
    const tile = o.action.tile;
    if (tile !== null && tile !== undefined) label.appendChild(tileEl(tile, "small"));
    label.appendChild(document.createTextNode(` ${o.text}`));
    li.appendChild(label);
    const bar = el("span", "bar");
    const width = o.value === null || top === low ? 0 : (100 * (o.value - low)) / (top - low);
    bar.style.width = `${Math.max(2, width).toFixed(1)}%`;
    const track = el("span", "track");
    track.appendChild(bar);
    li.appendChild(track);
    li.appendChild(el("span", "value", o.value === null ? "rule" : signed(Math.round(o.value))));
    const parts = [];
    if (o === played) parts.push("played");
    if (review.unit === "points" && o.value !== null) {
      parts.push(o.win > 0 ? `win ${pct(o.win)} of ${points(o.points)}` : "fold");
      li.title = `${parts.join(", ")}; deal-in risk now ${points(o.risk)}`;
    }
    if (parts.length) li.appendChild(el("span", "parts muted", parts.join(" · ")));
    if (o.gives) li.appendChild(givesEl(review, o.gives));
    list.appendChild(li);
  }
  box.appendChild(list);
}

export function showReviewUpload() {
  $("#review-upload").hidden = false;
  const form = $("#review-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = $("#review-error");
    error.textContent = "";
    const file = $("#review-file").files[0];
    if (file && file.size > MAX_LOG) { error.textContent = "the file is over 1 MB"; return; }
    const log = file ? await file.text() : $("#review-log").value;
    if (!log.trim()) { error.textContent = "paste a log or choose a file"; return; }
    const fields = new FormData(form);
    const name = String(fields.get("name") || "").trim();
    const body = { log, keep: fields.get("keep") === "on" };
    if (name) body.name = name; else body.seat = Number(fields.get("seat"));
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    setStatus("reviewing…");
    try {
      const done = await postJSON("/api/reviews", body);
      if (done.id) history.replaceState(null, "", `/review/${done.id}`);
      await openReview(done.review, done.replay);
    } catch (err) {
      error.textContent = err.message;
      setStatus("");
    } finally {
      button.disabled = false;
    }
  });
}
