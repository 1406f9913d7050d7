// Hand-written inline SVG for the agent-loop benchmark's HTML report (htmlReport.ts): axes, line series,
// grouped and horizontal bars, legends. No dependencies and no scripts; every text inserted passes `esc`.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML and SVG, element content and attribute values alike. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export type Marker = 'circle' | 'square' | 'triangle' | 'diamond';
export type Hatch = 'solid' | 'diagonal' | 'dots' | 'cross';

/** How one series is drawn: a colour, plus a line dash ('' for solid), marker and bar hatch for grayscale. */
export type SeriesStyle = { label: string; color: string; dash: string; marker: Marker; hatch: Hatch };

/** The charts' classes, for the page's <style>. */
export const SVG_CSS = `
svg.chart { display: block; max-width: 100%; height: auto; }
svg text { font-size: 11px; fill: #333; }
svg .grid { stroke: #e6e6e6; }
svg .axis { stroke: #666; }
svg .title { font-weight: 600; font-size: 12px; }
svg .ref { stroke: #333; stroke-width: 1.3; stroke-dasharray: 5 4; }
svg .ref-label { fill: #444; font-style: italic; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg .value { font-size: 10.5px; fill: #222; }
svg .leader { stroke: #777; stroke-width: 1; }
svg .whisker { stroke: #222; stroke-width: 1.2; }`;

/** Pixel coordinates print with one decimal. */
const px = (v: number): string => String(Math.round(v * 10) / 10);

/** Round ticks from 0 up to at least `max`, about `target` of them. */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** A tick value as short text: 2.5, 0.05, 1200. */
export const tickText = (v: number): string => String(Number(v.toPrecision(6)));

type Scale = (v: number) => number;
function linear(d0: number, d1: number, r0: number, r1: number): Scale {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}
function logScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const l = linear(Math.log10(d0), Math.log10(d1), r0, r1);
  return (v) => l(Math.log10(v));
}

/** A chart's size and the margins around its plot area. */
type Frame = { width: number; height: number; left: number; right: number; top: number; bottom: number };
/** A tick at pixel `at`. */
type Tick = { at: number; label: string };

function svg(f: Frame, title: string, body: string[]): string {
  const head = `<text class="title" x="${f.left}" y="12">${esc(title)}</text>`;
  return `<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" width="${f.width}" height="${f.height}" role="img" aria-label="${esc(title)}">${head}${body.join('')}</svg>`;
}

/** Grid lines, tick labels, the two axis lines and their titles. */
function axes(f: Frame, x: Tick[], y: Tick[], xTitle: string, yTitle: string, xGrid: boolean): string {
  const [x0, x1, y0, y1] = [f.left, f.width - f.right, f.top, f.height - f.bottom];
  const out: string[] = [];
  for (const t of y)
    out.push(
      `<line class="grid" x1="${x0}" x2="${x1}" y1="${px(t.at)}" y2="${px(t.at)}"/>`,
      `<text x="${x0 - 6}" y="${px(t.at + 4)}" text-anchor="end">${esc(t.label)}</text>`,
    );
  for (const t of x) {
    if (xGrid) out.push(`<line class="grid" x1="${px(t.at)}" x2="${px(t.at)}" y1="${y0}" y2="${y1}"/>`);
    out.push(`<text x="${px(t.at)}" y="${y1 + 16}" text-anchor="middle">${esc(t.label)}</text>`);
  }
  out.push(
    `<line class="axis" x1="${x0}" x2="${x0}" y1="${y0}" y2="${y1}"/>`,
    `<line class="axis" x1="${x0}" x2="${x1}" y1="${y1}" y2="${y1}"/>`,
    `<text x="${px((x0 + x1) / 2)}" y="${f.height - 6}" text-anchor="middle">${esc(xTitle)}</text>`,
    `<text transform="translate(13 ${px((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">${esc(yTitle)}</text>`,
  );
  return out.join('');
}

function marker(m: Marker, x: number, y: number, color: string): string {
  const a = `fill="${esc(color)}" stroke="#fff" stroke-width="1"`;
  const [X, Y, l, r, t, b] = [px(x), px(y), px(x - 5), px(x + 5), px(y - 5), px(y + 5)];
  const shapes: Record<Marker, string> = {
    circle: `<circle cx="${X}" cy="${Y}" r="4" ${a}/>`,
    square: `<rect x="${px(x - 3.5)}" y="${px(y - 3.5)}" width="7" height="7" ${a}/>`,
    triangle: `<path d="M${X},${t}L${r},${px(y + 4)}L${l},${px(y + 4)}Z" ${a}/>`,
    diamond: `<path d="M${X},${t}L${r},${Y}L${X},${b}L${l},${Y}Z" ${a}/>`,
  };
  return shapes[m];
}

const patternId = (chart: string, s: SeriesStyle): string => `${chart}-${s.label.replace(/[^A-Za-z0-9]/g, '_')}`;

/** <defs> with one hatch pattern per style, ids scoped by `chart`. */
function patterns(chart: string, styles: SeriesStyle[]): string {
  const ink = 'stroke="#fff" stroke-opacity="0.8" stroke-width="1.4"';
  const marks: Record<Hatch, string> = {
    solid: '',
    diagonal: `<path d="M-1,1l2,-2M0,6l6,-6M5,7l2,-2" ${ink}/>`,
    dots: '<circle cx="3" cy="3" r="1.4" fill="#fff" fill-opacity="0.85"/>',
    cross: `<path d="M0,3h6M3,0v6" ${ink}/>`,
  };
  const defs = styles.map(
    (s) =>
      `<pattern id="${esc(patternId(chart, s))}" patternUnits="userSpaceOnUse" width="6" height="6"><rect width="6" height="6" fill="${esc(s.color)}"/>${marks[s.hatch]}</pattern>`,
  );
  return `<defs>${defs.join('')}</defs>`;
}
const fill = (chart: string, s: SeriesStyle): string =>
  s.hatch === 'solid' ? s.color : `url(#${patternId(chart, s)})`;

/** An HTML legend: a line sample with its marker, or a bar swatch with its hatch, per style. */
export function legend(styles: SeriesStyle[], kind: 'line' | 'bar', chart: string): string {
  const items = styles.map((s) => {
    const sample =
      kind === 'line'
        ? `<line x1="2" x2="34" y1="7" y2="7" stroke="${esc(s.color)}" stroke-width="2.5" stroke-dasharray="${esc(s.dash)}"/>${marker(s.marker, 18, 7, s.color)}`
        : `${patterns(chart, [s])}<rect x="6" y="1" width="24" height="12" fill="${esc(fill(chart, s))}" stroke="${esc(s.color)}"/>`;
    return `<span class="legend-item"><svg width="36" height="14" viewBox="0 0 36 14" aria-hidden="true">${sample}</svg>${esc(s.label)}</span>`;
  });
  return `<div class="legend">${items.join('')}</div>`;
}

export type LineSeries = { style: SeriesStyle; points: { x: number; y: number }[] };
/** The x domain spans `xTicks` and the points; `refLines` are dashed horizontal lines with a label. */
export type LineChartOptions = {
  title: string;
  width: number;
  height: number;
  series: LineSeries[];
  xLog: boolean;
  xTicks: number[];
  formatX: (v: number) => string;
  xTitle: string;
  yTitle: string;
  refLines: { y: number; label: string }[];
  pointTitle: (s: SeriesStyle, x: number, y: number) => string;
};

/** The pixel y of series `s` at pixel x `at`, interpolated; +Infinity outside its points. */
function pixelAt(s: LineSeries, x: Scale, y: Scale, at: number): number {
  const pts = s.points.map((p) => [x(p.x), y(p.y)] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < pts.length; i++) {
    const [[x0, y0], [x1, y1]] = [pts[i - 1]!, pts[i]!];
    if (at >= x0 && at <= x1) return x1 === x0 ? Math.min(y0, y1) : y0 + ((at - x0) / (x1 - x0)) * (y1 - y0);
  }
  return Infinity;
}

/** Lines with markers over a linear or log x axis; the y axis is linear from 0. */
export function lineChart(o: LineChartOptions): string {
  const f: Frame = { width: o.width, height: o.height, left: 60, right: 20, top: 24, bottom: 46 };
  const xs = [...o.series.flatMap((s) => s.points.map((p) => p.x)), ...o.xTicks];
  let [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  if (lo === hi) [lo, hi] = o.xLog ? [lo / 2, hi * 2] : [lo - 1, hi + 1];
  const x = (o.xLog ? logScale : linear)(lo, hi, f.left + 14, f.width - f.right - 14);
  const ys = [...o.series.flatMap((s) => s.points.map((p) => p.y)), ...o.refLines.map((r) => r.y)];
  const yTicks = niceTicks(Math.max(0, ...ys) * 1.05);
  const y = linear(0, yTicks[yTicks.length - 1] ?? 1, f.height - f.bottom, f.top);
  const xt = o.xTicks.map((v) => ({ at: x(v), label: o.formatX(v) }));
  const body = [
    axes(
      f,
      xt,
      yTicks.map((v) => ({ at: y(v), label: tickText(v) })),
      o.xTitle,
      o.yTitle,
      true,
    ),
  ];
  for (const s of o.series) {
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    const d = pts.map((p, i) => `${i ? 'L' : 'M'}${px(x(p.x))},${px(y(p.y))}`).join('');
    const { color, dash, marker: m } = s.style;
    body.push(`<path d="${d}" fill="none" stroke="${esc(color)}" stroke-width="2" stroke-dasharray="${esc(dash)}"/>`);
    for (const p of pts)
      body.push(`<g><title>${esc(o.pointTitle(s.style, p.x, p.y))}</title>${marker(m, x(p.x), y(p.y), color)}</g>`);
  }
  // Each label haloed, over the series, left of the data, in the first gap between lines above its line.
  const lx = f.left + 26;
  const taken = o.series.flatMap((s) => [0, 30, 60, 90, 120, 150].map((dx) => pixelAt(s, x, y, lx + dx)));
  const clear = (b: number): boolean => taken.every((t) => t < b - 12 || t > b + 3);
  for (const r of o.refLines) {
    const yy = y(r.y);
    const fits = [yy - 5, ...taken.map((t) => t - 5)].filter((b) => b <= yy - 5 && b >= f.top + 10 && clear(b));
    const ly = fits.length ? Math.max(...fits) : f.top + 10;
    body.push(
      `<line class="ref" x1="${f.left}" x2="${f.width - f.right}" y1="${px(yy)}" y2="${px(yy)}"/>`,
      yy - ly > 12 ? `<line class="leader" x1="${lx - 4}" x2="${lx - 4}" y1="${px(ly - 8)}" y2="${px(yy)}"/>` : '',
      `<text class="ref-label" x="${lx}" y="${px(ly)}">${esc(r.label)}</text>`,
    );
  }
  return svg(f, o.title, body);
}

/** One bar: `lo`..`hi` draw a whisker when both are given; `label` is printed at its end. */
export type Bar = { style: SeriesStyle; value: number; lo?: number; hi?: number; label: string };
export type BarChartOptions = {
  id: string;
  title: string;
  width: number;
  height: number;
  groups: { label: string; bars: Bar[] }[];
  xTitle: string;
  yTitle: string;
};

function whisker(cx: number, ylo: number, yhi: number, cap: number): string {
  const c = (yy: number): string => `M${px(cx - cap)},${px(yy)}h${px(2 * cap)}`;
  return `<path class="whisker" d="M${px(cx)},${px(ylo)}V${px(yhi)}${c(ylo)}${c(yhi)}"/>`;
}

/** Vertical bars in groups, a value label on each (turned upright when the bars are narrow), whiskers. */
export function barChart(o: BarChartOptions): string {
  const f: Frame = { width: o.width, height: o.height, left: 56, right: 12, top: 24, bottom: 46 };
  const bars = o.groups.flatMap((g) => g.bars);
  const groupW = (f.width - f.left - f.right) / Math.max(1, o.groups.length);
  const most = Math.max(1, ...o.groups.map((g) => g.bars.length));
  const gap = 3;
  const barW = Math.min(48, (groupW * 0.84 - gap * (most - 1)) / most);
  const rotate = bars.some((b) => barW < b.label.length * 5.8);
  const top = Math.max(0, ...bars.map((b) => Math.max(b.value, b.hi ?? 0)));
  const yTicks = niceTicks(top * (rotate ? 1.4 : 1.12));
  const y = linear(0, yTicks[yTicks.length - 1] ?? 1, f.height - f.bottom, f.top);
  const xTicks = o.groups.map((g, gi) => ({ at: f.left + (gi + 0.5) * groupW, label: g.label }));
  const yt = yTicks.map((v) => ({ at: y(v), label: tickText(v) }));
  const body = [patterns(o.id, [...new Map(bars.map((b) => [b.style.label, b.style])).values()])];
  body.push(axes(f, xTicks, yt, o.xTitle, o.yTitle, false));
  o.groups.forEach((g, gi) => {
    const start = f.left + gi * groupW + (groupW - (barW * g.bars.length + gap * (g.bars.length - 1))) / 2;
    g.bars.forEach((b, bi) => {
      const [bx, by] = [start + bi * (barW + gap), y(b.value)];
      const [cx, spread] = [bx + barW / 2, b.lo != null && b.hi != null && b.hi > b.lo];
      const ly = (spread ? Math.min(by, y(b.hi ?? 0)) : by) - 4;
      body.push(
        `<g><title>${esc(`${b.style.label}, ${g.label}: ${b.label}`)}</title>`,
        `<rect x="${px(bx)}" y="${px(by)}" width="${px(barW)}" height="${px(y(0) - by)}" fill="${esc(fill(o.id, b.style))}" stroke="${esc(b.style.color)}"/>`,
        spread ? whisker(cx, y(b.lo ?? 0), y(b.hi ?? 0), Math.max(3, barW * 0.2)) : '',
        rotate
          ? `<text class="value" transform="translate(${px(cx + 3.5)} ${px(ly)}) rotate(-90)">${esc(b.label)}</text></g>`
          : `<text class="value" x="${px(cx)}" y="${px(ly)}" text-anchor="middle">${esc(b.label)}</text></g>`,
      );
    });
  });
  return svg(f, o.title, body);
}

/** One horizontal bar per row, the style's label on its left and `label` at its end. */
export function hbarChart(o: { id: string; title: string; width: number; bars: Bar[]; xTitle: string }): string {
  const rowH = 30;
  const f: Frame = { width: o.width, height: 74 + rowH * o.bars.length, left: 110, right: 80, top: 24, bottom: 46 };
  const xTicks = niceTicks(Math.max(0, ...o.bars.map((b) => b.value)));
  const x = linear(0, xTicks[xTicks.length - 1] ?? 1, f.left, f.width - f.right);
  const body = [
    patterns(
      o.id,
      o.bars.map((b) => b.style),
    ),
  ];
  body.push(
    axes(
      f,
      xTicks.map((v) => ({ at: x(v), label: tickText(v) })),
      [],
      o.xTitle,
      '',
      true,
    ),
  );
  o.bars.forEach((b, i) => {
    const [by, h] = [f.top + 4 + i * rowH + (rowH - 18) / 2, 18];
    const w = Math.max(1, x(b.value) - f.left);
    body.push(
      `<g><title>${esc(`${b.style.label}: ${b.label}`)}</title>`,
      `<text x="${f.left - 8}" y="${px(by + 13)}" text-anchor="end">${esc(b.style.label)}</text>`,
      `<rect x="${f.left}" y="${px(by)}" width="${px(w)}" height="${h}" fill="${esc(fill(o.id, b.style))}" stroke="${esc(b.style.color)}"/>`,
      `<text class="value" x="${px(f.left + w + 6)}" y="${px(by + 13)}">${esc(b.label)}</text></g>`,
    );
  });
  return svg(f, o.title, body);
}
