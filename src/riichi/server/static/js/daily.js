// The Daily Wall: today's wall, its board, its hands, the days before.
import { ME } from "./account.js";
import { $, el, getJSON, link, playerLink, postJSON, rowOf, setStatus, when } from "./dom.js";

// A Daily Wall score is raw points: whole, grouped, no decimals.
function scoreText(v) { return v === null || v === undefined ? null : Math.round(v).toLocaleString(); }
function signedText(v) { return v === null || v === undefined ? null : (v > 0 ? "+" : "") + Math.round(v).toLocaleString(); }

// Whether a board's player key is the signed-in account (before the day ends no row
// names its game, so the row is found by its player).
function isMe(player) {
  return Boolean(ME && ME.account && player === `account:${ME.account.id}`);
}

export async function showDaily() {
  $("#daily").hidden = false;
  const day = new URLSearchParams(location.search).get("day");
  let data;
  try { data = await getJSON(`/api/daily${day ? `?day=${encodeURIComponent(day)}` : ""}`); } catch (err) {
    setStatus(err.message);
    return;
  }
  $("#daily-title").textContent = `Daily Wall of ${data.day}`;
  // the day is the same everywhere (a UTC day); when it ends is said in local time
  $("#daily-ends").textContent = data.today
    ? `Today's walls can be played until ${when(data.ends)}, your time.`
    : `This day ended ${when(data.ends)}, your time.`;
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
    play.textContent = `You scored ${scoreText(mine.score) ?? "-"} today`;
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
    const tr = rowOf([row.rank, playerLink(row.player, row.name), scoreText(row.score), when(row.finished), games(row)]);
    if (isMe(row.player)) tr.classList.add("mine");
    body.appendChild(tr);
  }
  for (const row of data.unranked || []) {
    const open = games(row) || el("span");
    open.prepend(document.createTextNode(`unranked: ${row.why}${row.game ? " · " : ""}`));
    const tr = rowOf(["", playerLink(row.player, row.name), scoreText(row.score), when(row.finished), open]);
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
    hands.appendChild(rowOf([h.label, h.played, signedText(h.best), signedText(h.average), signedText(h.worst), signedText(h.yours),
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
