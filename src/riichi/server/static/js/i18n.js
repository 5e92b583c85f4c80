// The site's words in the visitor's language: English or Japanese, one catalogue a
// language (lang/en.js, lang/ja.js), the choice kept in this browser and the browser's
// own language by default. Scripts ask t(key, values) for a keyed text. Every other
// text the page shows is written in English and found in the catalogue by itself:
// the whole phrase ("Play today's walls"), or a "re:" entry for a phrase with a
// varying part (a server's error naming a count); a watcher puts the page's texts,
// and every text a script adds later, in the visitor's language as they appear.
import EN from "./lang/en.js";
import JA from "./lang/ja.js";

export const CATALOGUES = { en: EN, ja: JA };
const KEY = "riichi-lang";
const ATTRIBUTES = ["placeholder", "aria-label", "title"];

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

// The phrases with a varying part, as regular expressions and their texts ($1...).
const PATTERNS = Object.entries(CATALOGUES[LANG])
  .filter(([key]) => key.startsWith("re:"))
  .map(([key, text]) => [new RegExp(`^${key.slice(3)}$`), text]);

// An English phrase in the page's language, or undefined where the catalogue has none.
export function phrase(english) {
  if (LANG === "en") return undefined;
  const whole = CATALOGUES[LANG][english];
  if (whole !== undefined) return whole;
  for (const [pattern, text] of PATTERNS) {
    const found = english.match(pattern);
    if (found) return text.replace(/\$(\d)/g, (_, i) => phrase(found[i]) ?? found[i]);
  }
  return undefined;
}

function translateText(node) {
  const raw = node.data;
  const english = raw.trim();
  if (!english || !/[A-Za-z]/.test(english)) return;
  const parent = node.parentElement;
  if (!parent || parent.closest("[translate=no], code, script, style, textarea")) return;
  const said = phrase(english);
  if (said !== undefined) node.data = raw.replace(english, said);
}

function translateAttributes(node) {
  if (node.closest("[translate=no]")) return;
  for (const name of ATTRIBUTES) {
    const english = node.getAttribute(name);
    const said = english && phrase(english.trim());
    if (said) node.setAttribute(name, said);
  }
}

function translateTree(root) {
  if (root.nodeType === Node.TEXT_NODE) { translateText(root); return; }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  translateAttributes(root);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) translateText(node);
    else translateAttributes(node);
  }
}

// Every text of the page in its language, now and as scripts add to it, and the
// switch to the other language.
export function translatePage() {
  document.documentElement.lang = LANG;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const other = document.querySelector("#lang-switch");
  if (other) {
    other.textContent = t("lang.other");
    other.lang = t("lang.other_code");
    other.onclick = () => { localStorage.setItem(KEY, t("lang.other_code")); location.reload(); };
  }
  if (LANG === "en") return;
  translateTree(document.body);
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === "characterData") translateText(change.target);
      else if (change.type === "attributes") translateAttributes(change.target);
      else for (const node of change.addedNodes) translateTree(node);
    }
  }).observe(document.body, {
    childList: true, subtree: true, characterData: true,
    attributes: true, attributeFilter: ATTRIBUTES,
  });
}
