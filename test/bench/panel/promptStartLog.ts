import { PROMPT_START_PHASES, PROMPT_START_PREFIX, type PromptStartPhase } from '../../../src/agent/timing/promptStart';
import { esc } from '../loop/svgCharts';

// A warm Send's host part, from the extension's log: the `prompt start …` line the chat writes once a
// prompt's request is on the socket (src/agent/timing/promptStart.ts), read back into figures per phase, and shown
// as a table in the panel bench's report.

/** One prompt's start: the whole host part and each phase, in ms. */
export interface PromptStartSample {
  total_ms: number;
  phases: Record<PromptStartPhase, number>;
}

const LINE = new RegExp(`${PROMPT_START_PREFIX} ([\\d.]+) ms: ([^\\n]+)`, 'g');

/** Every prompt-start line of `log`, in order. */
export function promptStarts(log: string): PromptStartSample[] {
  return [...log.matchAll(LINE)].map((m) => {
    const spent = new Map<string, number>();
    for (const part of (m[2] ?? '').split(', ')) {
      const found = /^(\w+) ([\d.]+) ms$/.exec(part.trim());
      if (found) spent.set(found[1] as string, Number(found[2]));
    }
    const phases = Object.fromEntries(PROMPT_START_PHASES.map((phase) => [phase, spent.get(phase) ?? 0]));
    return { total_ms: Number(m[1]), phases: phases as Record<PromptStartPhase, number> };
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(mid)] as number) + (sorted[Math.ceil(mid)] as number)) / 2;
};

/** The median of each phase over `samples` (their sum is near, not equal to, the median of the totals). */
export function phaseMedians(samples: readonly PromptStartSample[]): Record<PromptStartPhase, number> {
  const entries = PROMPT_START_PHASES.map((phase) => [phase, median(samples.map((s) => s.phases[phase]))]);
  return Object.fromEntries(entries) as Record<PromptStartPhase, number>;
}

export const totalMedian = (samples: readonly PromptStartSample[]) => median(samples.map((s) => s.total_ms));

/** `echo 0.4, journal 0.2, …` (ms, medians): the console's and the goal's breakdown. */
export function describePhases(medians: Record<PromptStartPhase, number>): string {
  return PROMPT_START_PHASES.map((phase) => `${phase} ${medians[phase].toFixed(2)}`).join(', ');
}

/** The report's table: one row per phase, a column per run, and the medians. */
export function promptStartTable(samples: readonly PromptStartSample[]): string {
  if (samples.length === 0) return '<p class="note">The extension logged no prompt start.</p>';
  const medians = phaseMedians(samples);
  const head = ['phase', ...samples.map((_, i) => `run ${i + 1} ms`), 'median ms'];
  const row = (name: string, values: number[], median: number) =>
    `<tr><td>${esc(name)}</td>${[...values, median].map((v) => `<td>${v.toFixed(2)}</td>`).join('')}</tr>`;
  const rows = PROMPT_START_PHASES.map((phase) =>
    row(
      phase,
      samples.map((s) => s.phases[phase]),
      medians[phase],
    ),
  );
  rows.push(
    row(
      'total',
      samples.map((s) => s.total_ms),
      totalMedian(samples),
    ),
  );
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
