// The signed-in account, shown in the header.
import { $, chipText, el, link, postJSON } from "./dom.js";
import { t } from "./i18n.js";
import { notificationButton, openChannel } from "./notices.js";

export let ME = null;  // {account, tables, queue} from /api/me

export async function loadMe() {
  ME = await (await fetch("/api/me")).json();
  renderAccount();
  return ME;
}

export function renderAccount() {
  const box = $("#account");
  box.replaceChildren();
  if (ME && ME.account) {
    box.appendChild(el("span", null, "signed in as "));
    const page = el("a", null, ME.account.name);
    page.href = `/player/account:${ME.account.id}`;
    page.id = "my-page";
    box.appendChild(page);
    const chips = link(` ${chipText(ME.chips || 0)}`, "/chips");
    chips.id = "my-chips";
    box.appendChild(chips);
    const out = el("button", null, t("account.signout"));
    out.id = "sign-out";
    out.addEventListener("click", async () => {
      await postJSON("/api/signout", {});
      location.href = "/";
    });
    box.appendChild(out);
    const ask = notificationButton();
    if (ask) box.appendChild(ask);
    openChannel();  // what the site tells you, as it happens
  } else {
    const link = el("a", null, t("account.signin"));
    link.href = "/#account-panel";
    box.appendChild(link);
  }
}
