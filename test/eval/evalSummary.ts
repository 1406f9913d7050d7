// What the table's foot says, for the terminal and the HTML alike: each transport's totals, and WebSocket
// against HTTP on the tasks both passed (the same work, so the times compare).
import type { EvalReport, TaskResult, Transport } from './evalTypes';

export interface TransportTotals {
  transport: Transport;
  runs: number;
  passed: number;
  responses: number;
  toolCalls: number;
  wallMs: number;
  modelMs: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** The median of the runs' ms_per_turn. */
  medianMsPerTurn: number;
}

export interface Comparison {
  /** The runs (task and repetition) that passed over both transports. */
  pairs: number;
  ws: { wallMs: number; modelMs: number };
  http: { wallMs: number; modelMs: number };
}

/** Each transport's totals, in the order the runs came. */
export function totalsByTransport(results: readonly TaskResult[]): TransportTotals[] {
  const transports = [...new Set(results.map((result) => result.transport))];
  return transports.map((transport) => {
    const runs = results.filter((result) => result.transport === transport);
    const sum = (pick: (result: TaskResult) => number) => runs.reduce((total, result) => total + pick(result), 0);
    return {
      transport,
      runs: runs.length,
      passed: runs.filter((result) => result.passed).length,
      responses: sum((result) => result.responses),
      toolCalls: sum((result) => result.tool_calls),
      wallMs: sum((result) => result.wall_ms),
      modelMs: sum((result) => result.model_ms),
      inputTokens: sum((result) => result.tokens.input),
      cachedTokens: sum((result) => result.tokens.cached),
      outputTokens: sum((result) => result.tokens.output),
      medianMsPerTurn: median(runs.map((result) => result.ms_per_turn)),
    };
  });
}

/**
 * WebSocket against HTTP over the runs both passed (a task's run N over ws beside its run N over http);
 * undefined when there is no such pair.
 */
export function compareTransports(results: readonly TaskResult[]): Comparison | undefined {
  const key = (result: TaskResult) => `${result.name}#${result.run}`;
  const of = (transport: Transport) =>
    new Map(results.filter((r) => r.transport === transport && r.passed).map((r) => [key(r), r]));
  const ws = of('ws');
  const http = of('http');
  const pairs = [...ws.keys()].filter((name) => http.has(name));
  if (pairs.length === 0) return undefined;
  const total = (runs: Map<string, TaskResult>) => {
    const mine = pairs.flatMap((pair) => runs.get(pair) ?? []);
    return {
      wallMs: mine.reduce((sum, result) => sum + result.wall_ms, 0),
      modelMs: mine.reduce((sum, result) => sum + result.model_ms, 0),
    };
  };
  return { pairs: pairs.length, ws: total(ws), http: total(http) };
}

/** Whether the report's figures are the scripted backend's (offline), not a real model's. */
export const scripted = (report: EvalReport): boolean => report.endpoint === 'embedded';

/** What the comparison of the transports measured: a real endpoint, or the scripted backend offline. */
export const comparedOn = (report: EvalReport): string =>
  scripted(report) ? ' with the scripted backend (offline, no model)' : '';

/** What the time "waiting on the model" waited on. */
export const waitedOn = (report: EvalReport): string => (scripted(report) ? 'the scripted backend' : 'the model');

/** "−23 %": how much shorter (or longer, +) `ws` is than `http`. */
export function change(ws: number, http: number): string {
  if (http <= 0) return '—';
  const percent = Math.round(((ws - http) / http) * 100);
  return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${Math.abs(percent)} %`;
}

/** The report's one-line verdict. */
export function verdictLine(report: EvalReport): string {
  const passed = report.tasks.filter((result) => result.passed).length;
  const provers = report.fixture_checks.filter((check) => check.fails_untouched).length;
  const checks =
    report.fixture_checks.length > 0
      ? `, ${provers}/${report.fixture_checks.length} checks fail on the untouched project`
      : '';
  return `eval: ${passed}/${report.tasks.length} runs passed${checks} — ${report.ok ? 'ok' : 'FAILED'}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
