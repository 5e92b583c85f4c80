// The live channel of a signed-in person: what the site tells you as it happens (a
// table seated or started, an invitation), shown at once in the page and, when the
// tab is in the background, as a browser notification if you allowed them.
import { $, el } from "./dom.js";

const listeners = [];
let socket = null;

export function onNotice(listener) { listeners.push(listener); }

export function openChannel() {
  if (socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/me`);
  socket.addEventListener("message", (ev) => {
    const message = JSON.parse(ev.data);
    if (message.type !== "notice") return;
    show(message);
    for (const listener of listeners) listener(message);
  });
  socket.addEventListener("close", () => {
    socket = null;
    setTimeout(openChannel, 5000);  // the site restarted, or the network blinked
  });
}

function show(notice) {
  const box = $("#notices");
  const item = el("p", "notice-item");
  if (notice.link) {
    const a = el("a", null, notice.text);
    a.href = notice.link;
    item.appendChild(a);
  } else {
    item.textContent = notice.text;
  }
  const close = el("button", "notice-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", "dismiss");
  close.addEventListener("click", () => item.remove());
  item.appendChild(close);
  box.prepend(item);
  box.hidden = false;
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const shown = new Notification("riichi", { body: notice.text });
    shown.addEventListener("click", () => { window.focus(); if (notice.link) location.href = notice.link; });
  }
}

// A button that asks for the browser's permission to notify, where it is not settled.
export function notificationButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = el("button", null, "Notify me in the background");
  button.id = "notify-me";
  button.type = "button";
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.remove();
  });
  return button;
}
