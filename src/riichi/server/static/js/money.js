// The money lobby: money tables between people, waiting for their players. A seat
// holds the table's maximum loss from your chips until the table settles; leaving
// before the start gives it back.
import { ME, loadMe } from "./account.js";
import { $, chipText, el, emptyRow, getJSON, postJSON, setStatus } from "./dom.js";
import { onNotice } from "./notices.js";

export async function showMoney() {
  $("#money").hidden = false;
  await loadMe();
  const signedIn = Boolean(ME && ME.account);
  $("#money-form").hidden = !signedIn;
  $("#money-sign-in").hidden = signedIn;
  const presets = await getJSON("/api/presets");
  const select = $("#money-rules");
  select.replaceChildren(...presets.filter((p) => p.players === 4 || p.players === 3).map((p) => Object.assign(el("option", null, p.name), { value: p.name })));
  select.value = "riichi-basic";
  $("#money-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fields = new FormData(ev.target);
    const body = {
      rules: fields.get("rules"),
      length: fields.get("length"),
      clock: fields.get("clock"),
      bet: Number(fields.get("bet")),
      switches: { settlement: fields.get("settlement") },
    };
    if (fields.get("length") === "one-hand") body.switches.lengths = ["one-hand", "east", "south"];
    const invite = String(fields.get("invite") || "").split(/[\s,]+/).filter(Boolean);
    if (invite.length) body.invite = invite;
    $("#money-error").textContent = "";
    try {
      await postJSON("/api/money", body);
      await loadMe();
      await listOffers();
    } catch (err) {
      $("#money-error").textContent = err.message;
    }
  });
  onNotice(() => listOffers());
  await listOffers();
}

// The switches an offer changes from its preset, in words: shown before a seat is taken.
function changed(switches) {
  const words = Object.entries(switches).map(([k, v]) => `${k.replaceAll("_", " ")}: ${Array.isArray(v) ? v.join(", ") : v}`);
  return words.length ? words.join("; ") : "as the preset";
}

async function act(offer, action) {
  $("#money-error").textContent = "";
  try {
    // sitting confirms the switches the lobby showed
    const body = action === "sit" ? { switches: offer.switches } : {};
    const done = await postJSON(`/api/money/${offer.id}/${action}`, body);
    await loadMe();
    if (done.table) { location.href = `/table/${done.table}`; return; }
    await listOffers();
  } catch (err) {
    $("#money-error").textContent = err.message;
  }
}

async function listOffers() {
  const data = await getJSON("/api/money");
  const body = $("#money-offers tbody");
  body.replaceChildren();
  for (const o of data.offers) {
    const tr = el("tr");
    const mine = o.seats.some((s) => s.mine);
    const cells = [
      `${o.rules}, ${o.length}`,
      changed(o.switches),
      o.clock,
      `${o.bet.toLocaleString()} / ${chipText(o.reserve)}`,
      `${o.seats.length}/${o.players}: ${o.seats.map((s) => s.name).join(", ")}${o.by_invitation ? " (by invitation)" : ""}`,
    ];
    for (const c of cells) tr.appendChild(el("td", null, c));
    const td = el("td");
    if (ME && ME.account) {
      const button = el("button", null, mine ? "Leave (chips back)" : `Sit (holds ${o.reserve.toLocaleString()})`);
      button.type = "button";
      button.addEventListener("click", () => act(o, mine ? "leave" : "sit"));
      td.appendChild(button);
    }
    tr.appendChild(td);
    body.appendChild(tr);
  }
  if (!data.offers.length) body.appendChild(emptyRow("no money table is waiting for players: offer one", 6));
  setStatus(`${data.offers.length} money tables waiting`);
}
