import { goalList, keyValueTable, reportPage } from '../loop/htmlReport';
import { type SeriesStyle, esc, legend, lineChart, niceTicks } from '../loop/svgCharts';
import type { FrameSample } from './pageProbe';
import type { PanelResults } from './panelTypes';
import { promptStartTable } from './promptStartLog';

// The panel bench's report: one self-contained page with the goals, the runs, and the page's frame times
// against the stream (each run from its Send: the reads' cards arriving, the patch's live diff, the answer),
// with the entries shown over the same time axis so a slow frame can be matched to what was arriving.

const RUN_STYLES: SeriesStyle[] = [
  { label: 'run 1', color: '#0072b2', dash: '', marker: 'circle', hatch: 'solid' },
  { label: 'run 2', color: '#d55e00', dash: '9 4', marker: 'square', hatch: 'diagonal' },
  { label: 'run 3', color: '#009e73', dash: '9 3 2 3', marker: 'diamond', hatch: 'cross' },
  { label: 'run 4', color: '#e69f00', dash: '2 3', marker: 'triangle', hatch: 'dots' },
];
const styleOf = (i: number): SeriesStyle =>
  RUN_STYLES[i] ?? { label: `run ${i + 1}`, color: '#777777', dash: '4 2', marker: 'circle', hatch: 'solid' };

const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

/** One value per frame of each run, over the time since Send (the two charts share their x axis). */
function overTime(
  samples: FrameSample[][],
  xTicks: number[],
  chart: {
    title: string;
    height: number;
    yTitle: string;
    unit: string;
    digits: number;
    refLines: { y: number; label: string }[];
  },
  points: (frames: FrameSample[]) => FrameSample[],
  value: (frame: FrameSample) => number,
): string {
  return lineChart({
    title: chart.title,
    width: 860,
    height: chart.height,
    series: samples.map((frames, i) => ({
      style: styleOf(i),
      points: points(frames).map((f) => ({ x: f.t / 1000, y: value(f) })),
    })),
    xLog: false,
    xTicks,
    formatX: (v) => `${v} s`,
    xTitle: 'time since Send (s)',
    yTitle: chart.yTitle,
    refLines: chart.refLines,
    pointTitle: (s, x, y) => `${s.label}: ${y.toFixed(chart.digits)} ${chart.unit} at ${x.toFixed(2)} s`,
  });
}

function charts(r: PanelResults): string {
  const samples = r.panel.frame_samples;
  if (samples.every((frames) => frames.length === 0)) return '<p class="note">No frames were recorded.</p>';
  const xTicks = niceTicks(Math.max(...samples.flatMap((frames) => frames.map((f) => f.t / 1000))), 8);
  const frameTimes = overTime(
    samples,
    xTicks,
    {
      title: 'Frame time in the panel while it streams',
      height: 300,
      yTitle: 'frame (ms)',
      unit: 'ms',
      digits: 1,
      refLines: [{ y: 16.7, label: '16.7 ms (60 frames/s)' }],
    },
    (frames) => frames,
    (f) => f.dt,
  );
  const entries = overTime(
    samples,
    xTicks,
    {
      title: 'Entries the page shows (the stream arriving)',
      height: 200,
      yTitle: 'entries',
      unit: 'entries',
      digits: 0,
      refLines: [],
    },
    // One point per change is enough for a step line.
    (frames) => frames.filter((f, j) => j === 0 || f.entries !== frames[j - 1]?.entries || j === frames.length - 1),
    (f) => f.entries,
  );
  return `${legend(
    samples.map((_, i) => styleOf(i)),
    'line',
    'frames',
  )}${frameTimes}${entries}`;
}

function runsTable(r: PanelResults): string {
  const head = [
    'run',
    'wall s',
    'first token ms',
    'frames',
    'frame p50 ms',
    'frame p95 ms',
    'long tasks',
    'live diff frames',
    'entries',
  ];
  const rows = r.panel.runs.map((run) =>
    [
      String(run.run),
      fixed(run.wall_ms / 1000, 2),
      fixed(run.send_to_first_token_ms, 1),
      String(run.frames),
      fixed(run.frame_p50_ms, 1),
      fixed(run.frame_p95_ms, 1),
      String(run.long_tasks),
      String(run.live_diff_frames),
      String(run.entries),
    ]
      .map((cell) => `<td>${esc(cell)}</td>`)
      .join(''),
  );
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row}</tr>`)
    .join('')}</tbody></table>`;
}

function figures(r: PanelResults): string {
  const p = r.panel;
  const rows: [string, string][] = [
    ['tps', String(p.tps)],
    ['tool_calls', String(p.tool_calls)],
    ['host_overhead_p50_ms', fixed(p.host_overhead_p50_ms, 3)],
    ['host_gap_p50_ms', `${fixed(p.host_gap_p50_ms, 3)} (over ${p.host_turns} turns)`],
    ['long_tasks_over_50ms', `${p.long_tasks_over_50ms} (longest ${fixed(p.long_task_max_ms, 1)} ms)`],
    ['frame_p95_ms', `${fixed(p.frame_p95_ms, 1)} (p50 ${fixed(p.frame_p50_ms, 1)})`],
    ['send_to_first_token_ms', fixed(p.send_to_first_token_ms, 1)],
    [
      'host_prompt_start_p50_ms',
      `${fixed(p.host_prompt_start_p50_ms ?? Number.NaN, 2)} (prompt at the host → request on the socket)`,
    ],
    ['page_heap_mb', `${fixed(p.page_heap_mb, 1)} (${p.page_heap_source}; ${p.entries} entries shown)`],
    ['machine', `${r.machine.cpus} × ${r.machine.cpu_model}, ${r.machine.platform}, Node ${r.machine.node}`],
    ['started_at', r.started_at],
  ];
  return keyValueTable(rows);
}

export function renderPanelReport(results: PanelResults): string {
  return reportPage(
    'Loopwire in the chat panel: a 50-call task at 4,000 tokens/s',
    `<h2>Goals</h2>${goalList(results.goals)}
<h2>Figures</h2>${figures(results)}
<h2>Frames against the stream</h2>${charts(results)}
<h2>Runs</h2>${runsTable(results)}
<h2>A warm Send's host part, by phase</h2>
<p class="note">From the prompt's arrival at the extension host to its request's bytes handed to the socket, as the
extension logs it (src/agent/timing/promptStart.ts): echo (the prompt's entry shown, the task begun), journal (the
transcript and checkpoint), agent, attachments, instructions (AGENTS.md), environment (the environment item and the
prompt), body (the request), socket (its JSON sent).</p>${promptStartTable(results.panel.host_prompt_starts ?? [])}`,
  );
}
