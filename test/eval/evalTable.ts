// The eval's table on the terminal: a row per task and transport, what failed and why, then the totals.
import {
  change,
  compareTransports,
  comparedOn,
  scripted,
  totalsByTransport,
  verdictLine,
  waitedOn,
} from './evalSummary';
import type { EvalReport, TaskResult } from './evalTypes';

const HEADINGS = [
  'task',
  'transport',
  'passed',
  'responses',
  'tool calls',
  'input',
  'cached',
  'output',
  'wall',
  'ms/turn',
];

/** The whole printout: the table, the notes of failed runs, the totals and the verdict. */
export function renderTable(report: EvalReport): string {
  const rows = report.tasks.map((result) => rowOf(result, runLabel(report)));
  const widths = HEADINGS.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  const out = [
    ...(scripted(report)
      ? [
          "Offline: the embedded backend's scripted model plays each task's solution; every time below is the scripted backend's, not a real model's.",
        ]
      : []),
    line(HEADINGS),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
  ];
  for (const result of report.tasks.filter((r) => !r.passed || r.missing.length > 0))
    out.push(
      `${runLabel(report)(result)} (${result.transport}): ${[result.note, ...result.missing.map((m) => `missing: ${m}`)].filter(Boolean).join('; ')}`,
    );
  for (const totals of totalsByTransport(report.tasks))
    out.push(
      `${totals.transport.padEnd(4)} ${totals.passed}/${totals.runs} passed · ${totals.responses} responses · ` +
        `${totals.toolCalls} tool calls · wall ${seconds(totals.wallMs)} (${scripted(report) ? 'scripted backend' : 'model'} ${seconds(totals.modelMs)}) · ` +
        `median ${Math.round(totals.medianMsPerTurn)} ms/turn · tokens ${thousands(totals.inputTokens)} in ` +
        `(${thousands(totals.cachedTokens)} cached), ${thousands(totals.outputTokens)} out`,
    );
  const comparison = compareTransports(report.tasks);
  if (comparison !== undefined)
    out.push(
      `ws against http${comparedOn(report)} on the ${comparison.pairs} run(s) both passed: ` +
        `wall ${change(comparison.ws.wallMs, comparison.http.wallMs)} ` +
        `(${seconds(comparison.ws.wallMs)} against ${seconds(comparison.http.wallMs)}), waiting on ${waitedOn(report)} ` +
        `${change(comparison.ws.modelMs, comparison.http.modelMs)}`,
    );
  for (const check of report.fixture_checks.filter((c) => !c.fails_untouched))
    out.push(`harness: the check of ${check.name}: ${check.note}`);
  out.push(verdictLine(report));
  return out.join('\n');
}

function rowOf(result: TaskResult, label: (result: TaskResult) => string): string[] {
  return [
    label(result),
    result.transport,
    result.passed ? 'yes' : 'NO',
    String(result.responses),
    String(result.tool_calls),
    thousands(result.tokens.input),
    thousands(result.tokens.cached),
    thousands(result.tokens.output),
    seconds(result.wall_ms),
    String(Math.round(result.ms_per_turn)),
  ];
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
export const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A run's name in a table: the task's, with `#N` when some task ran more than once. */
export function runLabel(report: EvalReport): (result: TaskResult) => string {
  const repeated = report.tasks.some((result) => result.run > 1);
  return (result) => (repeated ? `${result.name} #${result.run}` : result.name);
}
