// The page's small helpers: finding and making elements, JSON over fetch, pagers.
import { LANG } from "./i18n.js";

export const $ = (sel) => document.querySelector(sel);
// A signed number: "+1,000", "−2.7", "±0" (with `digits` decimals, not grouped).
export function signed(n, digits = 0) {
  const size = digits ? Math.abs(n).toFixed(digits) : Math.abs(n).toLocaleString();
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + size;
}

export const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

export function setStatus(text) { $("#status").textContent = text; }

export async function postJSON(url, body, method = "POST") {
  const res = await fetch(url, {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

export function pager(box, page, go) {
  box.replaceChildren();
  if (!page.total) return;  // the list says it is empty; "0-0 of 0" says nothing more
  const from = page.offset + 1;
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

export const PAGE = 25;

export async function getJSON(url) {
  const res = await fetch(url);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

export function playerLink(key, name) {
  const a = el("a", null, name);
  a.href = `/player/${encodeURIComponent(key)}`;
  return a;
}

export function chipText(n) { return `${n.toLocaleString()} chips`; }
// A moment in the visitor's time, written as their chosen language writes dates.
export function when(t) { return new Date(t * 1000).toLocaleString(LANG === "ja" ? "ja-JP" : undefined); }

export function rowOf(cells) {
  const tr = el("tr");
  for (const c of cells) {
    const td = el("td");
    if (c instanceof Node) td.appendChild(c); else td.textContent = c === null || c === undefined ? "-" : String(c);
    tr.appendChild(td);
  }
  return tr;
}

// The one row of a table with nothing to list: what is missing, across its columns.
export function emptyRow(text, columns) {
  const tr = el("tr");
  const td = el("td", "muted", text);
  td.colSpan = columns;
  tr.appendChild(td);
  return tr;
}

export function link(text, href) {
  const a = el("a", null, text);
  a.href = href;
  return a;
}

// A page that cannot be shown (no such table, game or path): say so, offer the way home.
export function showGone(title, text) {
  document.querySelectorAll("main").forEach((m) => { m.hidden = true; });
  $("#gone-title").textContent = title;
  $("#gone-text").textContent = text || "";
  $("#gone").hidden = false;
  setStatus("");
}
