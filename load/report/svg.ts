// Inline SVG charts drawn at report time: the HTML page needs no script and no network.

export interface Series {
  name: string;
  color: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

const W = 640;
const H = 260;
const M = { top: 16, right: 16, bottom: 40, left: 56 };

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

function ticks(max: number, count = 5): number[] {
  const top = max > 0 ? max : 1;
  const step = niceStep(top, count);
  const out: number[] = [];
  for (let v = 0; v <= top + step * 0.5; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function label(v: number): string {
  if (v >= 1000) return `${Math.round(v / 100) / 10}k`;
  return String(Math.round(v * 100) / 100);
}

function frame(
  title: string,
  xLabel: string,
  yLabel: string,
  yTicks: number[],
  yMax: number,
  body: string,
  xTicks: string,
): string {
  const ih = H - M.top - M.bottom;
  const iw = W - M.left - M.right;
  const grid = yTicks
    .map((v) => {
      const y = M.top + ih - (v / yMax) * ih;
      return (
        `<line class="grid" x1="${M.left}" x2="${M.left + iw}" y1="${y.toFixed(1)}" ` +
        `y2="${y.toFixed(1)}"/><text class="tick" x="${M.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`
      );
    })
    .join('');
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<title>${esc(title)}</title>${grid}${body}${xTicks}` +
    `<line class="axis" x1="${M.left}" x2="${M.left + iw}" y1="${M.top + ih}" ` +
    `y2="${M.top + ih}"/><line class="axis" x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + ih}"/>` +
    `<text class="axis-label" x="${M.left + iw / 2}" y="${H - 6}" text-anchor="middle">${esc(xLabel)}</text>` +
    `<text class="axis-label" transform="translate(14 ${M.top + ih / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text></svg>`
  );
}

/** Lines over a numeric x axis; `shadeTo` greys the x range [0, shadeTo) (the warm-up). */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  xMax: number;
  shadeTo?: number;
}): string {
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const finite = opts.series.flatMap((s) => s.points.filter(([, y]) => Number.isFinite(y)).map(([, y]) => y));
  const yTicks = ticks(Math.max(0, ...finite) * 1.05);
  const yMax = yTicks[yTicks.length - 1];
  const xMax = Math.max(1, opts.xMax);
  const x = (v: number): number => M.left + (v / xMax) * iw;
  const y = (v: number): number => M.top + ih - (Math.min(v, yMax) / yMax) * ih;
  // The warm-up band is named on the chart itself, not only in a tooltip.
  const shade = opts.shadeTo
    ? `<rect class="warmup" x="${M.left}" y="${M.top}" ` +
      `width="${(x(opts.shadeTo) - M.left).toFixed(1)}" height="${ih}"><title>warm-up (left out ` +
      `of the figures)</title></rect>` +
      `<text class="warmup-label" x="${(M.left + 4).toFixed(1)}" y="${(M.top + 12).toFixed(1)}">warm-up</text>`
    : '';
  const lines = opts.series
    .map((s) => {
      const pts = s.points.filter(([, v]) => Number.isFinite(v));
      if (pts.length === 0) return '';
      const d = pts.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
      const dots =
        pts.length <= 120
          ? pts
              .map(
                ([px, py]) =>
                  `<circle cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="2" ` +
                  `fill="${s.color}"><title>${esc(s.name)} at ${px} s: ${label(py)}</title></circle>`,
              )
              .join('')
          : '';
      return (
        `<path class="series" d="${d}" fill="none" stroke="${s.color}" stroke-width="2"` +
        `${s.dashed ? ' stroke-dasharray="6 4"' : ''}><title>${esc(s.name)}</title></path>${dots}`
      );
    })
    .join('');
  const step = niceStep(xMax, 8);
  const xt: string[] = [];
  for (let v = 0; v <= xMax + 1e-9; v += step)
    xt.push(`<text class="tick" x="${x(v).toFixed(1)}" y="${M.top + ih + 16}" text-anchor="middle">${label(v)}</text>`);
  return frame(opts.title, opts.xLabel, opts.yLabel, yTicks, yMax, shade + lines, xt.join(''));
}

/** Vertical bars, one per category, optionally stacked. */
export function barChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  categories: string[];
  stacks: Array<{ name: string; color: string; values: number[] }>;
  everyNthLabel?: number;
}): string {
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const n = Math.max(1, opts.categories.length);
  const totals = opts.categories.map((_, i) => opts.stacks.reduce((s, st) => s + (st.values[i] ?? 0), 0));
  const yTicks = ticks(Math.max(0, ...totals) * 1.05);
  const yMax = yTicks[yTicks.length - 1];
  const bw = iw / n;
  const every = opts.everyNthLabel ?? Math.max(1, Math.ceil(n / 10));
  let bars = '';
  opts.categories.forEach((cat, i) => {
    let base = 0;
    for (const st of opts.stacks) {
      const v = st.values[i] ?? 0;
      if (v <= 0) continue;
      const h = (v / yMax) * ih;
      const top = M.top + ih - ((base + v) / yMax) * ih;
      bars +=
        `<rect class="bar" x="${(M.left + i * bw + bw * 0.1).toFixed(1)}" y="${top.toFixed(1)}" ` +
        `width="${(bw * 0.8).toFixed(1)}" height="${Math.max(h, 0.5).toFixed(1)}" ` +
        `fill="${st.color}"><title>${esc(cat)}: ${esc(st.name)} ${v}</title></rect>`;
      base += v;
    }
  });
  const xt = opts.categories
    .map((c, i) =>
      i % every === 0
        ? `<text class="tick" x="${(M.left + i * bw + bw / 2).toFixed(1)}" y="${M.top + ih + 16}" text-anchor="middle">${esc(c)}</text>`
        : '',
    )
    .join('');
  return frame(opts.title, opts.xLabel, opts.yLabel, yTicks, yMax, bars, xt);
}

export function legend(items: Array<{ name: string; color: string; dashed?: boolean }>): string {
  return `<div class="legend">${items
    .map((i) => `<span><i style="background:${i.color}${i.dashed ? ';opacity:.6' : ''}"></i>${esc(i.name)}</span>`)
    .join('')}</div>`;
}
