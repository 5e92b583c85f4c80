// "Rules of this table": the table's rules, grouped, without what cannot apply there.
import { $, el, getJSON } from "./dom.js";

// The rules dialog's groups, and which switches matter only under some settlement.
const RULE_GROUPS = [
  ["The match", ["players", "length", "start_points", "return_points", "extension_target", "agari_yame",
    "tenpai_yame", "extension_repeat_first", "busting", "tsumo_loss", "loss_limit"]],
  ["Settlement", ["settlement", "uma", "oka", "leftover_sticks_to_first", "round_final_points",
    "table_points", "feeding_penalty", "placement_bonus"]],
  ["Hands and yaku", ["red_fives", "kuitan", "double_wind_pair_fu", "kiriage", "kazoe_yakuman",
    "double_yakuman", "yakuman_stacking", "renhou", "north_pon_han", "kita"]],
  ["Calls, riichi and wins", ["chi_allowed", "kuikae_forbidden", "double_ron", "triple_ron",
    "temporary_furiten_until", "riichi_min_live_tiles", "furiten_riichi", "ippatsu", "pao",
    "kokushi_robs_closed_kan"]],
  ["Dora", ["ura_dora", "kan_dora", "kan_ura", "closed_kan_dora", "open_kan_dora"]],
  ["Draws and payments", ["abort_nine_terminals", "abort_four_winds", "abort_four_riichi",
    "abort_four_kans", "four_kan_abort_on_fifth", "nagashi_mangan", "noten_payment", "honba_ron",
    "honba_tsumo", "riichi_stick"]],
];
const ONLY_UNDER = {
  uma: ["uma-oka"], oka: ["uma-oka"], round_final_points: ["uma-oka"], table_points: ["table-points"],
  feeding_penalty: ["winner-takes-all"], placement_bonus: ["house"],
};

function ruleValue(k, v) {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.map((x) => (k === "uma" ? x / 1000 : x)).join(", ") : "none";
  return typeof v === "number" ? v.toLocaleString() : String(v);
}

// This table's rules, grouped; switches that cannot apply here (chips penalties at a
// table without a bet, uma where the settlement has none) are left out.
export async function showRules(tableId) {
  const info = await getJSON(`/api/tables/${tableId}`);
  const r = info.ruleset;
  const money = Boolean(info.bet);
  const box = $("#rules-list");
  box.replaceChildren();
  box.appendChild(el("dt", null, "preset"));
  box.appendChild(el("dd", null, `${info.rules}, ${info.length}${money ? `, a bet of ${info.bet}` : ""}`));
  if (money) {  // how the chips follow the places, which the switches do not say
    box.appendChild(el("dt", null, "seats and ties"));
    box.appendChild(el("dd", null, "seats drawn from the table's seed at the start; equal end scores share their places' money equally (a chip that cannot be split goes to the house)"));
  }
  const shown = new Set(["name", "lengths"]);
  const applies = (k) => !ONLY_UNDER[k] || (ONLY_UNDER[k].includes(r.settlement) && (money || !["feeding_penalty", "placement_bonus"].includes(k)));
  for (const [title, keys] of RULE_GROUPS) {
    const rows = keys.filter((k) => k in r && applies(k));
    keys.forEach((k) => shown.add(k));
    if (!rows.length) continue;
    const head = el("dt", "group", title);
    box.appendChild(head);
    box.appendChild(el("dd", "group"));
    for (const k of rows) {
      box.appendChild(el("dt", null, k.replaceAll("_", " ")));
      box.appendChild(el("dd", null, ruleValue(k, r[k])));
    }
  }
  for (const [k, v] of Object.entries(r)) {  // a switch no group names yet
    if (shown.has(k)) continue;
    box.appendChild(el("dt", null, k.replaceAll("_", " ")));
    box.appendChild(el("dd", null, ruleValue(k, v)));
  }
  $("#rules-dialog").showModal();
}
