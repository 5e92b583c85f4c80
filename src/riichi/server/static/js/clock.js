// The clocks on the plates and your own countdown: the server's deadlines, shown
// against its time; a warning sound when yours is about to run out.
import { play } from "./sound.js";

let CLOCK = null;
let CLOCK_OFFSET = 0;  // the server's time less ours

export function setClock(clock) {
  CLOCK = clock;
  if (clock) CLOCK_OFFSET = clock.now - Date.now() / 1000;
  tickClocks();
}

export function tickClocks() {
  document.querySelectorAll(".plate .clock, #my-clock").forEach((node) => {
    const big = node.id === "my-clock";  // your own countdown, by your hand
    node.textContent = "";
    node.className = big ? "my-clock" : "clock";
    const seat = node.dataset.seat;
    if (!CLOCK || seat === undefined || seat === "") return;
    const now = Date.now() / 1000 + CLOCK_OFFSET;
    const reserve = CLOCK.reserves[seat];
    const d = CLOCK.decisions[seat];
    if (!d) {
      if (big) return;
      node.textContent = `+${Math.round(reserve)} s`;
      node.setAttribute("aria-label", `reserve ${Math.round(reserve)} seconds`);
      return;
    }
    const thinking = Math.max(0, d.base - now);
    const left = Math.max(0, d.until - now);
    node.classList.add("running");
    if (thinking <= 0 && !d.call) {
      node.classList.add("reserve");
      node.textContent = `0 + ${Math.ceil(left)} s`;
    } else {
      node.textContent = `${Math.ceil(thinking)}${d.call ? "" : ` + ${Math.round(reserve)}`} s`;
    }
    node.setAttribute("aria-label", `${Math.ceil(left)} seconds left`);
    // your own clock about to run out: warned once for each decision
    const key = `${d.until}`;
    if (big && left <= 5 && warned !== key) { warned = key; play("clock"); }
  });
}
let warned = "";
setInterval(tickClocks, 250);
