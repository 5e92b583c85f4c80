// The site's words in the visitor's language: English or Japanese, one catalogue a
// language (lang/en.js, lang/ja.js, key for key the same), the choice kept in this
// browser and the browser's own language by default. Static texts of the page name
// their key in data-i18n; scripts ask t(key, values).
import EN from "./lang/en.js";
import JA from "./lang/ja.js";

export const CATALOGUES = { en: EN, ja: JA };
const KEY = "riichi-lang";

function chosen() {
  const kept = localStorage.getItem(KEY);
  if (kept && kept in CATALOGUES) return kept;
  return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
}

export const LANG = chosen();

// The text of ``key`` in the page's language, ``{name}`` filled from ``values``.
export function t(key, values = {}) {
  const text = CATALOGUES[LANG][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

// Every [data-i18n] text of the page in its language, and the switch to the other.
export function translatePage() {
  document.documentElement.lang = LANG;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const other = document.querySelector("#lang-switch");
  if (other) {
    other.textContent = t("lang.other");
    other.lang = t("lang.other_code");
    other.onclick = () => { localStorage.setItem(KEY, t("lang.other_code")); location.reload(); };
  }
}
