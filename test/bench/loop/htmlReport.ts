// The agent-loop benchmark's report: one self-contained HTML page (inline CSS and hand-written SVG, no
// scripts, no external assets) from what `--json FILE` writes (benchTypes.ts). Charts: svgCharts.ts.
import type { BenchResults, Goal, RunRow, ScalingPoint } from './benchTypes';
import { type Bar, type SeriesStyle, SVG_CSS, barChart, esc, hbarChart, legend, lineChart } from './svgCharts';

const MODE_ORDER: string[] = ['http-full', 'http-chained', 'ws-full', 'ws-chained'];
/** Warm colours for HTTP, cool for WebSocket (Okabe–Ito, colour-blind safe); dash, marker and hatch for grayscale. */
const STYLES: Record<string, SeriesStyle> = {
  'http-full': { label: 'http-full', color: '#d55e00', dash: '9 4', marker: 'square', hatch: 'diagonal' },
  'http-chained': { label: 'http-chained', color: '#e69f00', dash: '2 3', marker: 'triangle', hatch: 'dots' },
  'ws-full': { label: 'ws-full', color: '#009e73', dash: '9 3 2 3', marker: 'diamond', hatch: 'cross' },
  'ws-chained': { label: 'ws-chained', color: '#0072b2', dash: '', marker: 'circle', hatch: 'solid' },
};
const styleOf = (mode: string): SeriesStyle =>
  STYLES[mode] ?? { label: mode, color: '#777777', dash: '4 2', marker: 'circle', hatch: 'solid' };

/** The report pages' styles (this report's and the panel bench's). */
export const REPORT_CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #222;
  background: #fff; max-width: 900px; margin: 24px auto; padding: 0 16px; line-height: 1.45; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; }
.note { color: #666; font-style: italic; } .summary { font-size: 15px; }
.goals { list-style: none; padding: 0; margin: 0; }
.goals li { display: flex; gap: 10px; align-items: baseline; padding: 5px 0; border-bottom: 1px solid #eee; }
.badge { flex: none; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; white-space: nowrap; }
.met .badge { background: #e6f4ea; color: #137333; } .missed .badge { background: #fce8e6; color: #b3261e; }
.goals .name { font-weight: 600; } .goals .detail { color: #444; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 4px 0 8px; font-size: 13px; }
.legend-item { display: inline-flex; align-items: center; gap: 6px; }
.multiples { display: flex; flex-wrap: wrap; gap: 8px 16px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 11px; font-variant-numeric: tabular-nums; margin: 4px 0 12px; }
th, td { padding: 3px; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: bottom; }
th { background: #f4f4f4; font-weight: 600; } th small { font-weight: 400; color: #666; }
td { white-space: nowrap; } td.text, th.text { text-align: left; } tbody tr:nth-child(even) { background: #fafafa; }
${SVG_CSS}`;

const finite = (v: number, f: (v: number) => string): string => (Number.isFinite(v) ? f(v) : '—');
const ms = (v: number): string => finite(v, (x) => (x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : int(x)));
const int = (v: number): string => finite(v, (x) => Math.round(x).toLocaleString('en-US'));
const kb = (bytes: number): string =>
  finite(bytes / 1024, (x) => (x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : int(x)));
const seconds = (wallMs: number): string => finite(wallMs / 1000, (s) => `${s < 10 ? s.toFixed(2) : s.toFixed(1)} s`);
const tokens = (n: number): string => (n >= 1000 ? `${Number((n / 1000).toPrecision(3))}k` : String(n));
const uniq = (values: number[]): number[] => [...new Set(values)].sort((a, b) => a - b);
const note = (text: string): string => `<p class="note">${esc(text)}</p>`;

function modesOf(rows: { mode: string }[]): string[] {
  const present = new Set(rows.map((r) => r.mode));
  const rank = (m: string): number => (MODE_ORDER.includes(m) ? MODE_ORDER.indexOf(m) : MODE_ORDER.length);
  return [...present].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
const find = (runs: RunRow[], mode: string, tps: number, calls: number): RunRow | undefined =>
  runs.find((r) => r.mode === mode && r.tps === tps && r.tool_calls === calls);
const callsAt = (runs: RunRow[], tps: number): number[] =>
  uniq(runs.filter((r) => r.tps === tps).map((r) => r.tool_calls));

/** "12.3% faster" or "4.0% slower": ws-chained's wall time against http-full's. */
function speedup(ws: number, http: number): string {
  if (!(http > 0)) return 'not comparable';
  const d = ((http - ws) / http) * 100;
  return Math.abs(d) < 0.05 ? 'the same' : d > 0 ? `${d.toFixed(1)}% faster` : `${(-d).toFixed(1)}% slower`;
}

function summary(r: BenchResults): string {
  const clauses = uniq(r.runs.map((x) => x.tps)).flatMap((tps) => {
    const cells = callsAt(r.runs, tps).flatMap((calls) => {
      const [h, w] = [find(r.runs, 'http-full', tps, calls), find(r.runs, 'ws-chained', tps, calls)];
      if (!h || !w) return [];
      return [
        `${speedup(w.wall_ms, h.wall_ms)} with ${calls} tool calls (${seconds(w.wall_ms)} against ${seconds(h.wall_ms)})`,
      ];
    });
    return cells.length ? [`at ${tps} tokens/s, ${cells.join(' and ')}`] : [];
  });
  const parts = [
    clauses.length
      ? `Median wall time per task, ws-chained against http-full: ${clauses.join('; ')}.`
      : 'No run has both ws-chained and http-full, so their wall times cannot be compared.',
  ];
  const maxH = Math.max(0, ...r.scaling.map((p) => p.history_tokens));
  const at = (mode: string): ScalingPoint | undefined =>
    r.scaling.find((p) => p.mode === mode && p.history_tokens === maxH);
  const [sh, sw] = [at('http-full'), at('ws-chained')];
  if (sh && sw)
    parts.push(
      `At ${tokens(maxH)} tokens of history the per-turn overhead is ${ms(sw.overhead_p50_ms)} ms for ws-chained and ${ms(sh.overhead_p50_ms)} ms for http-full (loopback floor ${ms(r.floor_rtt_us / 1000)} ms).`,
    );
  if (r.goals.length) parts.push(`${r.goals.filter((g) => g.met).length} of ${r.goals.length} goals met.`);
  if (r.quick) parts.push('This was a quick run: fewer repetitions and cells, so treat the figures as rough.');
  return `<p class="summary">${esc(parts.join(' '))}</p>`;
}

function goals(r: BenchResults): string {
  return goalList(r.goals);
}

/** Goals as met / missed rows. */
export function goalList(list: readonly Goal[]): string {
  if (!list.length) return note('No goals were recorded.');
  const rows = list.map(
    (g) =>
      `<li class="${g.met ? 'met' : 'missed'}"><span class="badge">${g.met ? '✓ met' : '✗ missed'}</span><span><span class="name">${esc(g.name)}</span> — <span class="detail">${esc(g.detail)}</span></span></li>`,
  );
  return `<ul class="goals">${rows.join('')}</ul>`;
}

function chartA(r: BenchResults): string {
  const points = r.scaling.filter((p) => p.history_tokens > 0 && Number.isFinite(p.overhead_p50_ms));
  if (!points.length) return note('No scaling points in this run (quick runs skip the sweep).');
  const modes = modesOf(points);
  const xs = points.map((p) => p.history_tokens);
  const [lo, hi] = [Math.min(...xs) / 1.15, Math.max(...xs) * 1.15];
  let ticks = [100, 1_000, 10_000, 100_000, 200_000, 1_000_000].filter((t) => t >= lo && t <= hi);
  if (ticks.length < 2) ticks = uniq([...ticks, Math.min(...xs), Math.max(...xs)]);
  const floorMs = r.floor_rtt_us / 1000;
  const chart = lineChart({
    title: 'Per-turn overhead (p50) against history size',
    width: 860,
    height: 340,
    series: modes.map((m) => ({
      style: styleOf(m),
      points: points.filter((p) => p.mode === m).map((p) => ({ x: p.history_tokens, y: p.overhead_p50_ms })),
    })),
    xLog: true,
    xTicks: ticks,
    formatX: tokens,
    xTitle: 'history size (tokens, log scale)',
    yTitle: 'overhead per turn (ms)',
    refLines: floorMs > 0 && Number.isFinite(floorMs) ? [{ y: floorMs, label: 'loopback RTT floor (4 KB)' }] : [],
    pointTitle: (s, x, y) => `${s.label}: ${tokens(x)} tokens, ${ms(y)} ms`,
  });
  const top = Math.max(...xs);
  const atTop = modes.flatMap((m) => points.filter((p) => p.mode === m && p.history_tokens === top));
  const values = atTop.map((p) => `${p.mode} ${ms(p.overhead_p50_ms)} ms`).join(', ');
  return `${legend(modes.map(styleOf), 'line', 'legend-a')}${chart}${note(`At ${tokens(top)} tokens: ${values}.`)}`;
}

const wallBar = (x: RunRow): Bar => {
  const [value, lo, hi] = [x.wall_ms / 1000, x.wall_min_ms / 1000, x.wall_max_ms / 1000];
  return { style: styleOf(x.mode), value, lo, hi, label: seconds(x.wall_ms) };
};

function chartB(r: BenchResults): string {
  if (!r.runs.length) return note('No runs recorded.');
  const tpsValues = uniq(r.runs.map((x) => x.tps));
  const modes = modesOf(r.runs);
  const bars = (tps: number, calls: number): Bar[] =>
    modes.flatMap((m) => find(r.runs, m, tps, calls) ?? []).map(wallBar);
  const peak = tpsValues.map((tps) => Math.max(...r.runs.filter((x) => x.tps === tps).map((x) => x.wall_ms)));
  const multiples = tpsValues.length > 1 && Math.max(...peak) / Math.max(1e-9, Math.min(...peak)) > 4;
  const common = { height: 300, xTitle: 'tool calls per task', yTitle: 'wall time (s)' };
  const charts = multiples
    ? tpsValues.map((tps, i) =>
        barChart({
          ...common,
          id: `chart-b${i}`,
          title: `${tps} tokens/s`,
          width: 426,
          groups: callsAt(r.runs, tps).map((calls) => ({ label: `${calls} calls`, bars: bars(tps, calls) })),
        }),
      )
    : [
        barChart({
          ...common,
          id: 'chart-b',
          title: 'Wall time per task',
          width: Math.min(860, Math.max(380, 120 + 60 * r.runs.length)),
          xTitle: 'tokens/s · tool calls per task',
          groups: tpsValues.flatMap((tps) =>
            callsAt(r.runs, tps).map((calls) => ({ label: `${tps} tok/s · ${calls} calls`, bars: bars(tps, calls) })),
          ),
        }),
      ];
  const how = multiples
    ? 'One chart per tokens/s value, each with its own y axis (their wall times differ too much to share one).'
    : 'All cells on one y axis.';
  return `${legend(modes.map(styleOf), 'bar', 'legend-b')}<div class="multiples">${charts.join('')}</div>${note(`Bars: median wall time; whiskers: min..max over the repetitions. ${how}`)}`;
}

function chartC(r: BenchResults): string {
  const tpsValues = uniq(r.runs.map((x) => x.tps));
  const tps = tpsValues.includes(1000) ? 1000 : tpsValues[0];
  if (tps === undefined) return note('No runs recorded.');
  const calls = Math.max(...callsAt(r.runs, tps));
  const rows = modesOf(r.runs).flatMap((m) => find(r.runs, m, tps, calls) ?? []);
  return hbarChart({
    id: 'chart-c',
    title: `Bytes sent per turn: ${calls} tool calls at ${tps} tokens/s`,
    width: 860,
    bars: rows.map((x) => ({
      style: styleOf(x.mode),
      value: x.bytes_sent_per_turn / 1024,
      label: `${kb(x.bytes_sent_per_turn)} KB`,
    })),
    xTitle: 'KB sent by the client per turn (mean)',
  });
}

type NumKey<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T];
type Col<T> = [name: string, unit: string, cell: (row: T) => string];
const msCol = <T>(k: NumKey<T> & string): Col<T> => [k, 'ms', (x) => ms(x[k] as number)];
const intCol = <T>(k: NumKey<T> & string, unit = ''): Col<T> => [k, unit, (x) => int(x[k] as number)];
const kbCol = <T>(k: NumKey<T> & string): Col<T> => [k, 'KB', (x) => kb(x[k] as number)];

function table<T>(cols: Col<T>[], rows: T[]): string {
  const head = cols.map(
    ([name, unit], i) =>
      `<th${i ? '' : ' class="text"'}>${esc(name).replace(/_/g, '_<wbr>')}${unit ? `<br><small>${esc(unit)}</small>` : ''}</th>`,
  );
  const body = rows.map(
    (row) =>
      `<tr>${cols.map(([, , cell], i) => `<td${i ? '' : ' class="text"'}>${esc(cell(row))}</td>`).join('')}</tr>`,
  );
  return `<div class="scroll"><table><thead><tr>${head.join('')}</tr></thead><tbody>${body.join('')}</tbody></table></div>`;
}

const RUN_COLS: Col<RunRow>[] = [
  ['mode', '', (x) => x.mode],
  ...(['tps', 'tool_calls', 'repetitions'] as const).map((k) => intCol<RunRow>(k)),
  ...(
    [
      'wall_ms',
      'wall_min_ms',
      'wall_max_ms',
      'overhead_p50_ms',
      'overhead_p99_ms',
      'gap_p50_ms',
      'gap_p90_ms',
      'gap_first_ms',
      'ttft_p50_ms',
    ] as const
  ).map((k) => msCol<RunRow>(k)),
  msCol('server_ms_per_turn'),
  kbCol('bytes_sent_per_turn'),
  intCol('history_tokens', 'tokens'),
  intCol('uncached_tokens_per_turn', 'tokens'),
  msCol('client_cpu_ms'),
  msCol('server_cpu_ms'),
];
const SCALING_COLS: Col<ScalingPoint>[] = [
  ['mode', '', (x) => x.mode],
  intCol('history_tokens', 'tokens'),
  msCol('overhead_p50_ms'),
  kbCol('bytes_sent_per_turn'),
  msCol('server_ms_per_turn'),
];

function tables(r: BenchResults): string {
  const rank = (m: string): number => modesOf([...r.runs, ...r.scaling]).indexOf(m);
  const runs = [...r.runs].sort((a, b) => a.tps - b.tps || a.tool_calls - b.tool_calls || rank(a.mode) - rank(b.mode));
  const scaling = [...r.scaling].sort((a, b) => rank(a.mode) - rank(b.mode) || a.history_tokens - b.history_tokens);
  return `<h2>Runs</h2>${runs.length ? table(RUN_COLS, runs) : note('No runs recorded.')}<h2>Scaling sweep</h2>${
    scaling.length ? table(SCALING_COLS, scaling) : note('No scaling points in this run.')
  }`;
}

function setup(r: BenchResults): string {
  const value = (v: unknown): string =>
    Array.isArray(v) ? v.map(String).join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
  const rows: [string, string][] = [
    ...Object.entries(r.simulation as Record<string, unknown>).map(([k, v]): [string, string] => [
      `simulation.${k}`,
      value(v),
    ]),
    ['floor_rtt_us', `${int(r.floor_rtt_us)} µs (${ms(r.floor_rtt_us / 1000)} ms), 4 KB payload`],
    ['floor_rtt_turn_payload_us', `${int(r.floor_rtt_turn_payload_us)} µs with the mean turn's payload (ws-chained)`],
    ['floor_turn_payload_bytes', `${int(r.floor_turn_payload_bytes)} bytes (${kb(r.floor_turn_payload_bytes)} KB)`],
    ['machine', `${r.machine.cpus} × ${r.machine.cpu_model}`],
    ['node', r.machine.node],
    ['platform', r.machine.platform],
    ['started_at', r.started_at],
    ['quick', String(r.quick)],
  ];
  return keyValueTable(rows);
}

/** Name / value rows, both as text. */
export function keyValueTable(rows: readonly (readonly [string, string])[]): string {
  const body = rows.map(([k, v]) => `<tr><td class="text">${esc(k)}</td><td class="text">${esc(v)}</td></tr>`);
  return `<table><tbody>${body.join('')}</tbody></table>`;
}

/** A self-contained report page: `title` as its title and heading, then `body` (HTML). */
export function reportPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${REPORT_CSS}</style></head>
<body>
<h1>${esc(title)}</h1>
${body}
</body></html>
`;
}

/** The whole report page for `results`. */
export function renderReport(results: BenchResults): string {
  return reportPage(
    'Loopwire agent loop: HTTP against WebSocket',
    `${summary(results)}
<h2>Goals</h2>${goals(results)}
<h2>Per-turn overhead against history size</h2>${chartA(results)}
<h2>Wall time per task</h2>${chartB(results)}
<h2>Bytes sent per turn</h2>${chartC(results)}
${tables(results)}
<h2>Setup</h2>${setup(results)}`,
  );
}
