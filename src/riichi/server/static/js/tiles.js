// Tiles: their names, artwork and spoken names, and one tile drawn.
import { el } from "./dom.js";
import { LANG } from "./i18n.js";

export const SUITS = ["Man", "Pin", "Sou"];
export const HONORS = ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"];
export const WINDS = ["East", "South", "West", "North"];
export const WIND_GLYPHS = ["東", "南", "西", "北"];  // drawn in the bundled font

let RED = new Set();  // the red fives of the ruleset on screen

export function setRed(tiles) { RED = new Set(tiles); }

export function kindOf(tile) { return tile >> 2; }

export function tileArt(tile) {
  const k = kindOf(tile);
  if (k >= 27) return HONORS[k - 27];
  const n = (k % 9) + 1;
  return `${SUITS[Math.floor(k / 9)]}${n}${RED.has(tile) ? "-Dora" : ""}`;
}

export function tileEl(tile, extra) {
  const node = el("span", "tile" + (extra ? " " + extra : ""));
  if (tile === null || tile === undefined) {
    node.classList.add("back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }
  const img = el("img");
  img.src = `/static/tiles/${tileArt(tile)}.svg`;
  img.alt = tileSpoken(tile);
  node.title = tileSpoken(tile);
  node.dataset.tile = tile;
  node.appendChild(img);
  return node;
}

const JAPANESE = LANG === "ja";
export const FULL_HONORS = JAPANESE
  ? ["東", "南", "西", "北", "白", "發", "中"]
  : ["East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"];
export const SUIT_WORDS = JAPANESE ? ["萬", "筒", "索"] : ["characters", "dots", "bamboo"];
const RED_WORD = JAPANESE ? "赤" : "red ";

// A suited tile's number and suit in words: "5 dots" ("5筒" in Japanese).
function suited(numbers, suit) {
  return JAPANESE ? `${numbers}${SUIT_WORDS[suit]}` : `${numbers} ${SUIT_WORDS[suit]}`;
}

// What a screen reader says for a tile: "red 5 dots", "White dragon" (赤5筒, 白).
export function tileSpoken(tile) {
  const k = kindOf(tile);
  if (k >= 27) return FULL_HONORS[k - 27];
  return (RED.has(tile) ? RED_WORD : "") + suited((k % 9) + 1, Math.floor(k / 9));
}

export function kindSpoken(k) { return k >= 27 ? FULL_HONORS[k - 27] : suited((k % 9) + 1, Math.floor(k / 9)); }

export function kindTile(k) { return k * 4 + (k < 27 && k % 9 === 4 ? 1 : 0); }  // a plain copy to draw a kind

// Tiles in the notation the server's texts use ("discard 9s", "chi 3s with 45s",
// "ron 3z", "closed triplet 1z") said in words, for people: "discard 9 bamboo",
// "chi 3 bamboo with 4-5 bamboo", "ron East", "closed triplet East". A red five (0)
// is "red 5".
const NOTATION = /\b([0-9]{1,4})([mpsz])\b/g;

export function worded(text) {
  if (typeof text !== "string") return text;
  return text.replace(NOTATION, (token, digits, suit) => {
    if (suit === "z") {
      if (/[089]/.test(digits)) return token;
      return [...digits].map((d) => FULL_HONORS[Number(d) - 1]).join(" ");
    }
    const numbers = [...digits].map((d) => (d === "0" ? `${RED_WORD}5` : d)).join(JAPANESE ? "" : "-");
    return suited(numbers, "mps".indexOf(suit));
  });
}

// A hand's label "E1-0" (round wind, dealer's number, honba) in words: "East 1, 0 honba".
export function roundWords(label) {
  const m = /^([ESWN])(\d)-(\d+)$/.exec(label ?? "");
  if (!m) return label;
  if (JAPANESE) return `${WIND_GLYPHS["ESWN".indexOf(m[1])]}${m[2]}局 ${m[3]}本場`;
  return `${WINDS["ESWN".indexOf(m[1])]} ${m[2]}, ${m[3]} honba`;
}
