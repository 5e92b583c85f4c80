// The tables this browser sits at, kept in the browser (a guest has no account to
// list them): each new table's seat link, to resume or to leave; and the Leave
// button at a table.
import { $, el, postJSON } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "riichi.tables";
const MOST = 20;

function kept() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; }
}

function keep(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(-MOST))); } catch { /* private mode */ }
}

export function rememberTable(id, token, label) {
  keep([...kept().filter((t) => t.id !== id), { id, token, label }]);
}

export function forgetTable(id) {
  keep(kept().filter((t) => t.id !== id));
}

async function leave(id, token) {
  return postJSON(`/api/tables/${encodeURIComponent(id)}/leave`, token ? { token } : {});
}

// The lobby's list of this browser's tables still in play: resume or leave each.
export async function showMyTables(box) {
  const rows = [];
  for (const t of kept()) {
    const res = await fetch(`/api/tables/${encodeURIComponent(t.id)}`);
    const info = res.ok ? await res.json() : null;
    if (!info || info.over) { forgetTable(t.id); continue; }
    const li = el("li");
    const resume = el("a", null, t.label || `table ${t.id}`);
    resume.href = `/table/${t.id}#${t.token}`;
    const quit = el("button", null, "Leave");
    quit.type = "button";
    quit.addEventListener("click", async () => {
      try { await leave(t.id, t.token); } catch { /* over or gone already */ }
      forgetTable(t.id);
      li.remove();
      if (!box.children.length) box.closest("section").hidden = true;
    });
    li.append(resume, " ", quit);
    rows.push(li);
  }
  box.replaceChildren(...rows);
  box.closest("section").hidden = rows.length === 0;
}

// At a table: Leave (a practice game ends; elsewhere the clock plays the seat).
export function setupLeave(tableId, token, practice) {
  const button = $("#leave-table");
  button.hidden = false;
  button.textContent = t(practice ? "table.leave_practice" : "table.leave");
  button.addEventListener("click", async () => {
    const sure = practice ? "End this practice game?" : "Leave? Your seat's clock plays on for you.";
    if (!confirm(sure)) return;
    try {
      await leave(tableId, token);
    } catch (err) {
      $("#leave-note").textContent = err.message;
      return;
    }
    forgetTable(tableId);
    location.href = "/";
  });
}
