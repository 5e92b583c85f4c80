// Watching: the live tables open to spectators.
import { $, PAGE, el, getJSON, pager } from "./dom.js";

export async function showWatch(offset = 0) {
  $("#watch").hidden = false;
  const page = await getJSON(`/api/watch?limit=${PAGE}&offset=${offset}`);
  const list = $("#watch-list");
  list.replaceChildren();
  for (const t of page.items) {
    const li = el("li");
    const a = el("a", null, `${t.kind} · ${t.rules} ${t.length}: ${t.seats.map((s) => s.name).join(", ")}`);
    a.href = `/table/${t.id}`;
    li.appendChild(a);
    li.appendChild(el("span", "muted", ` ${t.spectators} watching`));
    list.appendChild(li);
  }
  if (!page.items.length) list.appendChild(el("li", "muted", "no live table is open to spectators now"));
  pager($("#watch-pager"), page, showWatch);
}
