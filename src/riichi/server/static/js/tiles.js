// Tiles: their names, artwork and spoken names, and one tile drawn.
import { el } from "./dom.js";

export const SUITS = ["Man", "Pin", "Sou"];
export const HONORS = ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"];
export const WINDS = ["East", "South", "West", "North"];
export const WIND_GLYPHS = ["東", "南", "西", "北"];  // drawn in the bundled font
export const SUIT_LETTERS = "mps";
export const HONOR_NAMES = ["E", "S", "W", "N", "Wh", "Gr", "Rd"];

let RED = new Set();  // the red fives of the ruleset on screen

export function setRed(tiles) { RED = new Set(tiles); }

export function kindOf(tile) { return tile >> 2; }

export function tileName(tile) {
  const k = kindOf(tile);
  if (k >= 27) return HONOR_NAMES[k - 27];
  const n = RED.has(tile) ? 0 : (k % 9) + 1;
  return `${n}${SUIT_LETTERS[Math.floor(k / 9)]}`;
}

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
  node.title = tileName(tile);
  node.dataset.tile = tile;
  node.appendChild(img);
  return node;
}

export const FULL_HONORS = ["East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"];
export const SUIT_WORDS = ["characters", "dots", "bamboo"];

// What a screen reader says for a tile: "red 5 dots", "White dragon".
export function tileSpoken(tile) {
  const k = kindOf(tile);
  if (k >= 27) return FULL_HONORS[k - 27];
  return `${RED.has(tile) ? "red " : ""}${(k % 9) + 1} ${SUIT_WORDS[Math.floor(k / 9)]}`;
}

export function kindSpoken(k) { return k >= 27 ? FULL_HONORS[k - 27] : `${(k % 9) + 1} ${SUIT_WORDS[Math.floor(k / 9)]}`; }

export function kindTile(k) { return k * 4 + (k < 27 && k % 9 === 4 ? 1 : 0); }  // a plain copy to draw a kind
