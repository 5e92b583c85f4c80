// The coach at a practice table (a switch kept in this browser): at each decision of
// yours, what the roster computer would do and why, as a review says it (its best
// three options with their values, the chance to win and what a win is worth, the
// tiles each discard waits to improve on, its danger against each seat in riichi or
// with calls); after each hand, your decisions there that lost the most. The server
// answers from your seat's own view only, and only at practice tables.
import { $, el } from "./dom.js";
import { kindTile, tileEl, worded } from "./tiles.js";

const SHOWN = 3;
const KEY = "riichi-coach";
let on = localStorage.getItem(KEY) === "on";
let table = false;  // this is a practice table: the switch is offered
let advice = null;  // the last answer: { version, options }
let losses = [];  // this hand's advised decisions: { text, best, loss }

const points = (v) => Math.round(v).toLocaleString();
const sameAction = (a, b) => a.type === b.type && (a.tile ?? null) === (b.tile ?? null)
  && JSON.stringify(a.tiles ?? []) === JSON.stringify(b.tiles ?? []);

// The switch, at a practice table; ``ask`` asks the server for the decision now.
export function setupCoach(kind, ask) {
  table = kind === "practice";
  $("#coach-box").hidden = !table;
  if (!table) return;
  const box = $("#opt-coach");
  box.checked = on;
  $("#coach").hidden = !on;
  box.onchange = () => {
    on = box.checked;
    localStorage.setItem(KEY, on ? "on" : "off");
    $("#coach").hidden = !on;
    if (on) ask();
  };
}

export function coachWanted() { return on && table; }

export function showAdvice(msg) {
  advice = msg;
  const list = $("#coach-options");
  list.replaceChildren();
  for (const o of msg.options.slice(0, SHOWN)) {
    const li = el("li");
    const head = el("div", "coach-head");
    if (o.action.tile !== null && o.action.tile !== undefined) head.appendChild(tileEl(o.action.tile, "small"));
    head.appendChild(el("span", null, ` ${worded(o.text)}`));
    if (o.value !== null) head.appendChild(el("span", "value", ` ${o.value > 0 ? "+" : ""}${points(o.value)}`));
    li.appendChild(head);
    const why = [];
    if (o.win > 0) why.push(`wins ${Math.round(100 * o.win)}% of hands, for ${points(o.points)}`);
    const g = o.gives;
    if (g) why.push(g.shanten === 0 ? `ready on ${g.tiles} tiles` : `${g.shanten} from ready; improved by ${g.tiles} tiles`);
    if (why.length) li.appendChild(el("p", "muted", why.join("; ")));
    if (g && g.improve_kinds.length) {
      const tiles = el("div", "coach-tiles");
      for (const k of g.improve_kinds.slice(0, 9)) tiles.appendChild(tileEl(kindTile(k), "small"));
      li.appendChild(tiles);
    }
    if (g && g.danger.length) {
      li.appendChild(el("p", "muted", "deals in now: " + g.danger
        .map((d) => `${Math.round(100 * d.chance)}% to ${document.querySelector(`#table .plate[data-seat="${d.seat}"] .name`)?.textContent || `seat ${d.seat + 1}`}`)
        .join(", ")));
    }
    list.appendChild(li);
  }
}

// What you played, weighed against the advice that stood when you played it.
export function coachPlayed(action) {
  if (!advice) return;
  const mine = advice.options.find((o) => sameAction(o.action, action));
  const best = advice.options[0];
  if (mine && mine.value !== null && best.value !== null && mine !== best) {
    losses.push({ text: worded(mine.text), best: worded(best.text), loss: best.value - mine.value });
  }
  advice = null;
  $("#coach-options").replaceChildren();
}

// A hand is over: its costliest decisions, then a fresh list for the next.
export function coachHandEnded() {
  if (!coachWanted()) { losses = []; return; }
  const worst = losses.filter((l) => l.loss >= 1).sort((a, b) => b.loss - a.loss).slice(0, SHOWN);
  const list = $("#coach-hand");
  list.replaceChildren();
  for (const l of worst) list.appendChild(el("li", null, `${l.text}: ${l.best} was better by ${points(l.loss)}`));
  if (!worst.length) list.appendChild(el("li", "muted", "you played as the coach would"));
  $("#coach-hand-box").hidden = false;
  losses = [];
}
