import { GAP_PHASES, type GapPhases } from '../../../src/agent/timing/turnGap';
import type { Goal, RunRow } from './benchTypes';

// The tool-to-request gap's figures for one cell (issue 51): a task's first turnaround was its slowest (the
// loop's code still cold), a tail the median hid, so the row carries the p90 and the first gap beside it.

/** One task's gaps after a single read_file, in turn order, and the first one's split (turnGap.ts). */
export interface TaskGaps {
  gapsMs: readonly number[];
  firstPhasesMs: GapPhases | undefined;
}

export interface GapFigures {
  /** The median over every gap of every task. */
  gap_p50_ms: number;
  /** The 90th percentile over the same gaps (nearest rank). */
  gap_p90_ms: number;
  /** Each task's first gap (after its first tool call), the median over the tasks. */
  gap_first_ms: number;
  /** That first gap split into the loop's phases, each the median over the tasks. */
  gap_first_phases_ms: GapPhases;
}

/** The value at rank ⌈q·n⌉ of `values` sorted (0 for none): no interpolation, a gap that happened. */
export function nearestRank(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function gapFigures(tasks: readonly TaskGaps[]): GapFigures {
  const all = tasks.flatMap((task) => task.gapsMs);
  const firsts = tasks.flatMap((task) => (task.gapsMs.length > 0 ? [task.gapsMs[0] as number] : []));
  const split = tasks.flatMap((task) => (task.firstPhasesMs ? [task.firstPhasesMs] : []));
  const phases = Object.fromEntries(
    GAP_PHASES.map((phase) => [phase, median(split.map((phases) => phases[phase]))]),
  ) as GapPhases;
  return {
    gap_p50_ms: median(all),
    gap_p90_ms: nearestRank(all, 0.9),
    gap_first_ms: median(firsts),
    gap_first_phases_ms: phases,
  };
}

/** `  4000 tok/s, 20 calls: gap p50 0.71 ms, p90 1.20 ms, first 2.31 ms (response 0.05, keep 0.10, …)` */
export function rowGapLine(row: RunRow): string {
  const phases = row.gap_first_phases_ms;
  const split = phases ? ` (${GAP_PHASES.map((phase) => `${phase} ${phases[phase].toFixed(2)}`).join(', ')})` : '';
  const where = `${row.tps} tok/s, ${row.tool_calls} calls${row.network && row.network.name !== 'loopback' ? ` on ${row.network.name}` : ''}`;
  const figures = `p50 ${row.gap_p50_ms.toFixed(2)} ms, p90 ${row.gap_p90_ms.toFixed(2)} ms, first ${row.gap_first_ms.toFixed(2)} ms`;
  return `  ${where}: gap ${figures}${split}`;
}

/** Issue 51's goal for the tail, judged on the worst ws-chained cell: the first gap and the p90 within 10 ms. */
export function firstGapGoal(rows: readonly RunRow[]): Goal {
  const first = Math.max(0, ...rows.map((row) => row.gap_first_ms));
  const p90 = Math.max(0, ...rows.map((row) => row.gap_p90_ms));
  return {
    name: 'ws-chained tool-to-request gap: the first of a task ≤ 10 ms and the p90 ≤ 10 ms (every cell)',
    met: first <= 10 && p90 <= 10,
    detail: `first ${first.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms at most`,
  };
}
