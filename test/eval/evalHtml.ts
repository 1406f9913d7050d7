// The eval's HTML report: one self-contained page (inline CSS, no scripts, no external assets) with the
// table of `--json FILE`, the totals by transport and the checks on the untouched projects.
import { change, compareTransports, comparedOn, totalsByTransport, verdictLine, waitedOn } from './evalSummary';
import { runLabel, seconds, thousands } from './evalTable';
import type { EvalReport, TaskResult } from './evalTypes';

const CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #222;
  background: #fff; max-width: 1200px; margin: 24px auto; padding: 0 16px; line-height: 1.45; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; }
.note { color: #666; } table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 4px 0 12px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: top; white-space: nowrap; }
td.wrap { white-space: normal; min-width: 160px; } .notes li { margin: 2px 0; overflow-wrap: anywhere; }
th { background: #f4f4f4; } td.text, th.text { text-align: left; } tbody tr:nth-child(even) { background: #fafafa; }
.yes { color: #137333; font-weight: 600; } .no { color: #b3261e; font-weight: 600; }`;

/** Escapes text for HTML. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page for `report`. */
export function renderHtml(report: EvalReport): string {
  const comparison = compareTransports(report.tasks);
  const totals = totalsByTransport(report.tasks);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loopwire eval</title><style>${CSS}</style></head>
<body>
<h1>Loopwire eval</h1>
<p>${esc(verdictLine(report))}</p>
<p class="note">${esc(report.endpoint === 'embedded' ? 'Offline: the embedded backend playing each task’s scripted solution; every time here is the scripted backend’s, not a real model’s.' : `Endpoint ${report.endpoint}, model ${report.model}.`)}
 ${esc(report.started_at)} · ${esc(report.machine)}</p>
<h2>Runs</h2>
<table><thead><tr>${[
    'task',
    'kind',
    'transport',
    'passed',
    'responses',
    'tool calls',
    'input',
    'cached',
    'output',
    'wall',
    'model',
    'ms/turn',
  ]
    .map((h, i) => `<th${columnClass(i)}>${h}</th>`)
    .join('')}</tr></thead>
<tbody>
${report.tasks.map((r) => row(r, runLabel(report))).join('\n')}
</tbody></table>
${notes(report)}
<h2>By transport</h2>
<table><thead><tr><th class="text">transport</th><th>passed</th><th>responses</th><th>tool calls</th><th>wall</th><th>model</th><th>median ms/turn</th><th>input</th><th>cached</th><th>output</th></tr></thead>
<tbody>
${totals
  .map(
    (t) =>
      `<tr><td class="text">${t.transport}</td><td>${t.passed}/${t.runs}</td><td>${t.responses}</td><td>${t.toolCalls}</td><td>${seconds(t.wallMs)}</td><td>${seconds(t.modelMs)}</td><td>${Math.round(t.medianMsPerTurn)}</td><td>${thousands(t.inputTokens)}</td><td>${thousands(t.cachedTokens)}</td><td>${thousands(t.outputTokens)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
${
  comparison === undefined
    ? ''
    : `<p>WebSocket against HTTP${esc(comparedOn(report))} on the ${comparison.pairs} run(s) both passed: wall ${esc(change(comparison.ws.wallMs, comparison.http.wallMs))} (${seconds(comparison.ws.wallMs)} against ${seconds(comparison.http.wallMs)}), time waiting on ${esc(waitedOn(report))} ${esc(change(comparison.ws.modelMs, comparison.http.modelMs))}.</p>`
}
<h2>Checks on the untouched projects</h2>
<p class="note">Each check must fail on its task’s project as it was given, or a pass would prove nothing.</p>
<table><thead><tr><th class="text">task</th><th class="text">fails untouched</th><th class="text">what it said</th></tr></thead>
<tbody>
${report.fixture_checks
  .map(
    (c) =>
      `<tr><td class="text">${esc(c.name)}</td><td class="text ${c.fails_untouched ? 'yes' : 'no'}">${c.fails_untouched ? 'yes' : 'NO'}</td><td class="text">${esc(c.note)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
</body></html>
`;
}

function row(r: TaskResult, label: (result: TaskResult) => string): string {
  const cells = [
    esc(label(r)),
    esc(r.kind),
    r.transport,
    `<span class="${r.passed ? 'yes' : 'no'}">${r.passed ? 'yes' : 'NO'}</span>`,
    String(r.responses),
    String(r.tool_calls),
    thousands(r.tokens.input),
    thousands(r.tokens.cached),
    thousands(r.tokens.output),
    seconds(r.wall_ms),
    seconds(r.model_ms),
    String(Math.round(r.ms_per_turn)),
  ];
  return `<tr>${cells.map((cell, i) => `<td${columnClass(i)}>${cell}</td>`).join('')}</tr>`;
}

/** What went wrong in a run, or what its figures lack: a list under the table (empty when nothing did). */
function notes(report: EvalReport): string {
  const label = runLabel(report);
  const items = report.tasks
    .map((r) => ({ r, text: [r.note, ...r.missing.map((m) => `missing: ${m}`)].filter(Boolean).join('; ') }))
    .filter(({ text }) => text !== '')
    .map(({ r, text }) => `<li><b>${esc(label(r))}</b> (${r.transport}): ${esc(text)}</li>`);
  return items.length === 0 ? '' : `<ul class="notes">\n${items.join('\n')}\n</ul>`;
}

/** The runs table's columns: task, kind and transport are text, and kind may wrap; the rest are figures. */
function columnClass(column: number): string {
  if (column === 1) return ' class="text wrap"';
  return column < 3 ? ' class="text"' : '';
}
