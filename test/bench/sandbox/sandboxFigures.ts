import type { BenchMachine } from '../loop/benchTypes';

// The sandbox bench's arithmetic and its results' shape, apart from the runs, so that a unit test can hold
// them to the contract: `{ "sandbox": [ { "command", "plain_p50_ms", "sandboxed_p50_ms", "mechanism" } ] }`
// (issue 46, item 6; the field names are read by others), with figures of our own beside them.

/** What confined the sandboxed runs; `none` where this machine has no sandbox (the runs are plain only). */
export type BenchMechanism = 'bwrap' | 'seatbelt' | 'none';

/** The bound on what the sandbox may add to a command, median, on the bench machine. */
export const ADDED_GOAL_MS = 40;

/** One command, run plain and sandboxed in turn. Sandboxed figures are null where there is no sandbox. */
export interface SandboxRow {
  command: string;
  plain_p50_ms: number;
  sandboxed_p50_ms: number | null;
  mechanism: BenchMechanism;
  plain_p90_ms: number;
  sandboxed_p90_ms: number | null;
  /** sandboxed_p50_ms − plain_p50_ms. */
  added_p50_ms: number | null;
  /** Measured runs of each kind (warm-up runs not counted). */
  runs: number;
}

/** The same scripted task through the agent loop in `all` (no sandbox) and `auto` (workspace-write). */
export interface SandboxTask {
  /** exec_command calls in the task. */
  commands: number;
  /** What each call runs, in turn. */
  command_lines: string[];
  repetitions: number;
  /** Median wall time of the task, in ms. */
  all_ms: number;
  auto_ms: number | null;
  /** (auto_ms − all_ms) / commands. */
  added_per_command_ms: number | null;
  /** The bench's own added_p50_ms of the commands the task runs, averaged over its calls: what it should cost. */
  expected_per_command_ms: number | null;
}

export interface SandboxResults {
  started_at: string;
  machine: BenchMachine & {
    /** The 1, 5 and 15-minute load averages as the run started and ended (the machine is shared). */
    load_avg_start: number[];
    load_avg_end: number[];
  };
  goal_added_p50_ms: number;
  /** Why there is no sandbox here (mechanism `none`); absent where there is one. */
  unavailable_reason?: string;
  sandbox: SandboxRow[];
  task?: SandboxTask;
}

/** The value at `q` (0–1) of `values`, nearest rank below: the bench's p90, as elsewhere in test/bench. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The median (the mean of the middle two of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** A command's row from its plain and sandboxed wall times (ms); `sandboxed` null: no sandbox here. */
export function sandboxRow(
  command: string,
  mechanism: BenchMechanism,
  plain: readonly number[],
  sandboxed: readonly number[] | null,
): SandboxRow {
  const plainP50 = median(plain);
  const boxedP50 = sandboxed && sandboxed.length > 0 ? median(sandboxed) : null;
  return {
    command,
    plain_p50_ms: round(plainP50),
    sandboxed_p50_ms: boxedP50 === null ? null : round(boxedP50),
    mechanism: boxedP50 === null ? 'none' : mechanism,
    plain_p90_ms: round(quantile(plain, 0.9)),
    sandboxed_p90_ms: boxedP50 === null || !sandboxed ? null : round(quantile(sandboxed, 0.9)),
    added_p50_ms: boxedP50 === null ? null : round(boxedP50 - plainP50),
    runs: plain.length,
  };
}

/** The task's figures from its wall times (ms) in each mode; `auto` null where there is no sandbox. */
export function sandboxTask(
  lines: readonly string[],
  all: readonly number[],
  auto: readonly number[] | null,
  rows: readonly SandboxRow[],
): SandboxTask {
  const autoMs = auto && auto.length > 0 ? median(auto) : null;
  const added = lines.map((line) => rows.find((row) => row.command === line)?.added_p50_ms ?? null);
  const expected = added.every((ms): ms is number => ms !== null)
    ? round(added.reduce((sum, ms) => sum + ms, 0) / Math.max(1, added.length))
    : null;
  return {
    commands: lines.length,
    command_lines: [...lines],
    repetitions: all.length,
    all_ms: round(median(all)),
    auto_ms: autoMs === null ? null : round(autoMs),
    added_per_command_ms: autoMs === null ? null : round((autoMs - median(all)) / Math.max(1, lines.length)),
    expected_per_command_ms: autoMs === null ? null : expected,
  };
}

/** The printed table: one line per command, then the task and the goals, as the bench prints them. */
export function sandboxLines(results: SandboxResults): string[] {
  const ms = (value: number | null) => (value === null ? '—' : value.toFixed(1));
  const head = ['command', 'plain p50', 'plain p90', 'sandboxed p50', 'sandboxed p90', 'added p50', 'mechanism'];
  const rows = results.sandbox.map((r) => [
    r.command,
    ms(r.plain_p50_ms),
    ms(r.plain_p90_ms),
    ms(r.sandboxed_p50_ms),
    ms(r.sandboxed_p90_ms),
    ms(r.added_p50_ms),
    r.mechanism,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const out = [line(head), ...rows.map(line)];
  const task = results.task;
  if (task)
    out.push(
      '',
      `task of ${task.commands} exec_command calls through the agent loop, median of ${task.repetitions}: all ${ms(task.all_ms)} ms, auto ${ms(task.auto_ms)} ms, added per command ${ms(task.added_per_command_ms)} ms (the commands' own added p50: ${ms(task.expected_per_command_ms)} ms)`,
    );
  out.push('', 'goals');
  for (const goal of sandboxGoals(results))
    out.push(`  ${goal.met ? 'met   ' : 'MISSED'} ${goal.name}: ${goal.detail}`);
  return out;
}

/** The goals, judged where there is a sandbox to judge (none: no goal, said as such). */
export function sandboxGoals(results: SandboxResults): Array<{ name: string; met: boolean; detail: string }> {
  const goals = results.sandbox.flatMap((row) =>
    row.added_p50_ms === null
      ? []
      : [
          {
            name: `${row.command}: the sandbox adds ≤ ${results.goal_added_p50_ms} ms, p50`,
            met: row.added_p50_ms <= results.goal_added_p50_ms,
            detail: `${row.added_p50_ms.toFixed(1)} ms`,
          },
        ],
  );
  const added = results.task?.added_per_command_ms;
  if (added !== undefined && added !== null)
    goals.push({
      name: `a task of ${results.task?.commands} commands: auto over all ≤ ${results.goal_added_p50_ms} ms per command`,
      met: added <= results.goal_added_p50_ms,
      detail: `${added.toFixed(1)} ms per command`,
    });
  return goals;
}
