import type { TurnMetrics } from '../../../src/agent';
import { overheadOf } from './benchTask';
import type { BenchMachine, Goal } from './benchTypes';
import { gapFigures, median, nearestRank } from './gapStats';
import { thisMachine } from './machine';

// The figures of `npm run bench -- --parallel` (issue 49, item 5) and the shape others read: `{ "parallel":
// [ { "n", "mode", "wall_ms", "overhead_p50_ms", "gap_p50_ms" } ] }`, each row exactly those fields; the
// spread and the machine's load go beside them, in `details` and `machine`.

export const PARALLEL_MODES = ['lanes', 'sockets', 'http'] as const;
export type ParallelMode = (typeof PARALLEL_MODES)[number];

/** One task of a batch: its turns, and its gaps after a single read_file (benchTask.ts). */
export interface ParallelTask {
  turns: readonly TurnMetrics[];
  readGapsMs: readonly number[];
}

/** N tasks run at once: the first run's start to the last one's end, and each task's figures. */
export interface ParallelBatch {
  wallMs: number;
  tasks: readonly ParallelTask[];
}

/** One (n, mode) cell: medians over its repetitions (wall) and over every turn of every task (the rest). */
export interface ParallelRow {
  n: number;
  mode: ParallelMode;
  wall_ms: number;
  overhead_p50_ms: number;
  gap_p50_ms: number;
}

/** What the row leaves out: the spread, the tails, and how many turns the medians are over. */
export interface ParallelDetail {
  n: number;
  mode: ParallelMode;
  repetitions: number;
  wall_min_ms: number;
  wall_max_ms: number;
  /** Each repetition's wall time, in the order run: the goals pair lanes and sockets of one repetition. */
  wall_runs_ms: number[];
  overhead_p90_ms: number;
  gap_p90_ms: number;
  turns: number;
}

export interface ParallelResults {
  parallel: ParallelRow[];
  details: ParallelDetail[];
  started_at: string;
  machine: BenchMachine & { load_avg_start: number[]; load_avg_end: number[] };
  tps: number;
  tool_calls: number;
  repetitions: number;
  goals: Goal[];
}

/** Lanes' wall time may exceed sockets' by this much. */
export const LANES_VS_SOCKETS = 0.1;
/** Per-turn overhead at the largest n: at most this times the smallest n's, or the floor, whichever is larger. */
export const OVERHEAD_GROWTH = 2;
export const OVERHEAD_FLOOR_MS = 0.2;
/** Lanes faster than HTTP by at least this, at n = 4. */
export const LANES_VS_HTTP = 0.35;

export function parallelCell(
  n: number,
  mode: ParallelMode,
  batches: readonly ParallelBatch[],
): { row: ParallelRow; detail: ParallelDetail } {
  const tasks = batches.flatMap((batch) => batch.tasks);
  // Turn 1 carries the prompt (no tool result before it): the per-turn figures are of turns 2 on.
  const overheads = tasks.flatMap((task) => task.turns.slice(1).map(overheadOf));
  const gaps = gapFigures(tasks.map((task) => ({ gapsMs: task.readGapsMs, firstPhasesMs: undefined })));
  const walls = batches.map((batch) => batch.wallMs);
  return {
    row: { n, mode, wall_ms: median(walls), overhead_p50_ms: median(overheads), gap_p50_ms: gaps.gap_p50_ms },
    detail: {
      n,
      mode,
      repetitions: batches.length,
      wall_min_ms: walls.length > 0 ? Math.min(...walls) : 0,
      wall_max_ms: walls.length > 0 ? Math.max(...walls) : 0,
      wall_runs_ms: walls,
      overhead_p90_ms: nearestRank(overheads, 0.9),
      gap_p90_ms: gaps.gap_p90_ms,
      turns: overheads.length,
    },
  };
}

/** The run's JSON (`--json FILE`): the rows, their details, this machine and its load, the goals. */
export function parallelResults(
  figures: { rows: ParallelRow[]; details: ParallelDetail[] },
  run: { started_at: string; load_avg_start: number[]; load_avg_end: number[] } & Pick<
    ParallelResults,
    'tps' | 'tool_calls' | 'repetitions'
  >,
): ParallelResults {
  const { started_at, load_avg_start, load_avg_end, tps, tool_calls, repetitions } = run;
  return {
    parallel: figures.rows,
    details: figures.details,
    started_at,
    machine: { ...thisMachine(), load_avg_start, load_avg_end },
    tps,
    tool_calls,
    repetitions,
    goals: parallelGoals(figures.rows, figures.details),
  };
}

const ms = (value: number) => `${value.toFixed(3)} ms`;
const s = (value: number) => `${(value / 1000).toFixed(2)} s`;

/**
 * Lanes against sockets at `n`: the median of each repetition's ratio (the two ran in the same repetition, a
 * few seconds apart, so a busy minute of the shared machine falls on both), and the ratio of the medians.
 */
export function lanesVsSockets(details: readonly ParallelDetail[], n: number) {
  const runs = (mode: ParallelMode) => details.find((d) => d.n === n && d.mode === mode)?.wall_runs_ms ?? [];
  const lanes = runs('lanes');
  const sockets = runs('sockets');
  const paired = lanes.flatMap((wall, i) => (sockets[i] ? [wall / sockets[i]] : []));
  return { paired: median(paired), medians: median(lanes) / median(sockets), pairs: paired.length };
}

/** The goals, judged on the rows of one run (met or missed, never asserted). */
export function parallelGoals(rows: readonly ParallelRow[], details: readonly ParallelDetail[]): Goal[] {
  const at = (n: number, mode: ParallelMode) => rows.find((r) => r.n === n && r.mode === mode);
  const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  const goals: Goal[] = [];
  for (const n of ns) {
    const lanes = at(n, 'lanes');
    const sockets = at(n, 'sockets');
    if (!lanes || !sockets) continue;
    const { paired, medians, pairs } = lanesVsSockets(details, n);
    const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
    goals.push({
      name: `n = ${n}: ${n} lanes on one socket within ${LANES_VS_SOCKETS * 100} % of ${n} sockets (wall, paired by repetition)`,
      met: paired <= 1 + LANES_VS_SOCKETS,
      detail: `${pct(paired)}, the median of ${pairs} repetitions' ratios; medians ${s(lanes.wall_ms)} against ${s(sockets.wall_ms)} (${pct(medians)})`,
    });
  }
  const first = at(ns[0] ?? 1, 'lanes');
  const last = at(ns.at(-1) ?? 1, 'lanes');
  if (first && last && last !== first) {
    const limit = Math.max(OVERHEAD_GROWTH * first.overhead_p50_ms, OVERHEAD_FLOOR_MS);
    goals.push({
      name: `lanes: per-turn client overhead at n = ${last.n} ≤ ${OVERHEAD_GROWTH}× that at n = ${first.n} (or ${OVERHEAD_FLOOR_MS} ms, the larger)`,
      met: last.overhead_p50_ms <= limit,
      detail: `${ms(last.overhead_p50_ms)} against ${ms(first.overhead_p50_ms)} (limit ${ms(limit)}; ${(last.overhead_p50_ms / first.overhead_p50_ms).toFixed(2)}×)`,
    });
  }
  const lanes4 = at(4, 'lanes');
  const http4 = at(4, 'http');
  if (lanes4 && http4) {
    const faster = 1 - lanes4.wall_ms / http4.wall_ms;
    goals.push({
      name: `n = 4: lanes on one socket ≥ ${LANES_VS_HTTP * 100} % faster than http`,
      met: faster >= LANES_VS_HTTP,
      detail: `${(faster * 100).toFixed(1)} % faster (${s(lanes4.wall_ms)} against ${s(http4.wall_ms)})`,
    });
  }
  return goals;
}

/** The table, the modes side by side by n, and the goals. */
export function parallelLines(results: ParallelResults): string[] {
  const m = results.machine;
  const lines = [
    `parallel: n tasks of ${results.tool_calls} tool calls at once, ${results.tps} tok/s, ${results.repetitions} repetitions; ${m.cpus} × ${m.cpu_model}, Node ${m.node}, load ${m.load_avg_start.join(' ')} → ${m.load_avg_end.join(' ')}`,
    '',
    '   n     mode  wall s    spread s  ovh p50 ms  ovh p90 ms  gap p50 ms  gap p90 ms  turns',
  ];
  for (const row of results.parallel) {
    const d = results.details.find((x) => x.n === row.n && x.mode === row.mode);
    lines.push(
      [
        String(row.n).padStart(4),
        row.mode.padStart(8),
        (row.wall_ms / 1000).toFixed(2).padStart(6),
        `${((d?.wall_min_ms ?? 0) / 1000).toFixed(2)}–${((d?.wall_max_ms ?? 0) / 1000).toFixed(2)}`.padStart(10),
        row.overhead_p50_ms.toFixed(3).padStart(10),
        (d?.overhead_p90_ms ?? 0).toFixed(3).padStart(10),
        row.gap_p50_ms.toFixed(3).padStart(10),
        (d?.gap_p90_ms ?? 0).toFixed(3).padStart(10),
        String(d?.turns ?? 0).padStart(5),
      ].join('  '),
    );
  }
  lines.push('', 'goals');
  for (const goal of results.goals) lines.push(`  ${goal.met ? 'met   ' : 'MISSED'} ${goal.name}: ${goal.detail}`);
  return lines;
}
