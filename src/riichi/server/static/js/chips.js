// Chips: the balance and the statement.
import { $, PAGE, chipText, getJSON, link, pager, rowOf, setStatus, when } from "./dom.js";

export async function showChips(offset = 0) {
  $("#chips").hidden = false;
  let data;
  try { data = await getJSON(`/api/chips?limit=${PAGE}&offset=${offset}`); } catch (err) {
    setStatus(`${err.message}: sign in to hold chips`);
    return;
  }
  $("#chip-balance").textContent = chipText(data.balance);
  const body = $("#chip-table tbody");
  body.replaceChildren();
  for (const e of data.statement.items) {
    const what = e.link ? link(e.what, e.link) : e.what;
    body.appendChild(rowOf([when(e.created), what, (e.amount > 0 ? "+" : "") + e.amount.toLocaleString()]));
  }
  pager($("#chip-pager"), data.statement, showChips);
}
