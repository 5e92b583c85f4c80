// Charts drawn in SVG: a series of values with a line, dots and labels.
import { el } from "./dom.js";

export const SVG = "http://www.w3.org/2000/svg";
export function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function plotHistory(svg, history) {
  plotSeries(svg, history.map((h) => h.rating), {
    empty: "no rated games yet",
    title: (i) => `game ${i + 1}: place ${history[i].place}, rating ${history[i].rating}`,
    dot: (i) => `place-${history[i].place}`,
  });
}

// The top-choice match of each reviewed game, oldest first, and the reviews to open.
export function plotMatches(svg, list, reviews) {
  const known = reviews.filter((r) => r.top_choice !== null && r.top_choice !== undefined);
  plotSeries(svg, known.map((r) => Math.round(1000 * r.top_choice) / 10), {
    empty: "no game reviewed yet",
    title: (i) => `${new Date(known[i].finished * 1000).toLocaleDateString()}: top-choice match ${Math.round(100 * known[i].top_choice)}%`,
    dot: () => "review",
  });
  list.replaceChildren();
  for (const r of [...reviews].reverse().slice(0, 20)) {
    const li = el("li");
    const top = r.top_choice === null || r.top_choice === undefined ? "" : `top-choice match ${Math.round(100 * r.top_choice)}%, `;
    const a = el("a", null, `${new Date(r.finished * 1000).toLocaleDateString()}: ${top}within the best value ${Math.round(100 * r.agreement)}%, ${Math.round(r.lost_per_hand).toLocaleString()} lost a hand`);
    a.href = `/review/${encodeURIComponent(r.game)}/${r.seat}`;
    li.appendChild(a);
    list.appendChild(li);
  }
}

// Points lost a hand in each reviewed game, oldest first.
export function plotReviews(svg, reviews) {
  plotSeries(svg, reviews.map((r) => r.lost_per_hand), {
    empty: "no game reviewed yet",
    title: (i) => `${new Date(reviews[i].finished * 1000).toLocaleDateString()}: ${Math.round(reviews[i].lost_per_hand)} lost a hand, within the best value ${Math.round(100 * reviews[i].agreement)}%`,
    dot: () => "review",
  });
}

function plotSeries(svg, values, { empty, title, dot }) {
  svg.replaceChildren();
  if (values.length < 2) {  // one point is no line: said, not drawn as a lone dot
    svg.appendChild(svgEl("text", { x: 300, y: 100, "text-anchor": "middle", class: "plot-empty" }))
      .textContent = values.length ? title(0) : empty;
    return;
  }
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 50) { low -= 25; high += 25; }
  const w = 600, h = 200, pad = 36;
  const x = (i) => pad + (i * (w - 2 * pad)) / (values.length - 1);
  const y = (v) => h - pad / 2 - ((v - low) * (h - pad)) / (high - low);
  svg.appendChild(svgEl("line", { x1: pad, y1: h - pad / 2, x2: w - pad, y2: h - pad / 2, class: "axis" }));
  for (const v of [low, high]) {
    const label = svgEl("text", { x: 2, y: y(v) + 4, class: "plot-label" });
    label.textContent = String(Math.round(v));
    svg.appendChild(label);
  }
  svg.appendChild(svgEl("polyline", {
    points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    class: "plot-line", fill: "none",
  }));
  values.forEach((v, i) => {
    const mark = svgEl("circle", { cx: x(i), cy: y(v), r: 3, class: `plot-dot ${dot(i)}` });
    const label = document.createElementNS(SVG, "title");
    label.textContent = title(i);
    mark.appendChild(label);
    svg.appendChild(mark);
  });
}
