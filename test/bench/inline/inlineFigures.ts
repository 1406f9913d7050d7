import type { BenchMachine, Goal } from '../loop/benchTypes';
import { median, quantile } from '../sandbox/sandboxFigures';

// The inline bench's arithmetic and its results' shape, apart from the workbench, so that a unit test holds
// them to the contract (issue 47, item 2): `{ "inline": [ { "kind", "cold_first_line_ms",
// "warm_first_line_p50_ms", "warm_first_line_p90_ms", "lens_after_end_p50_ms", "lens_after_keep_p50_ms" } ] }`,
// with more figures beside them. All times are ms on the workbench page's clock, from the user's input as the
// page received it (Enter's keydown, a click's mouseup), except `host_*`: the extension's own figure, from its
// log line, which starts when the command reached the extension host.

export type InlineKind = 'ctrl-i' | 'light-bulb';

/** The issue's bounds: Enter → first changed line (warm) and an edit's end, Keep or Undo → its lenses. */
export const FIRST_LINE_GOAL_MS = 150;
export const LENS_GOAL_MS = 100;

/** The extension's own split of Enter → first painted line (src/extension/inline/inlineTiming.ts). */
export interface HostTiming {
  total_ms: number;
  agent_ms: number;
  first_delta_ms: number;
  written_ms: number;
  painted_ms: number;
}

/** One inline edit as the bench ran it. */
export interface InlineSample {
  kind: InlineKind;
  /** The window it ran in (each starts with another kind), and its place there (0: the window's first). */
  window: number;
  index: number;
  /** `cold`: the window's first inline edit; `first-of-kind`: the first of its kind after the other; else warm. */
  phase: 'cold' | 'first-of-kind' | 'warm';
  /**
   * Enter (Ctrl+I) or the click on Fix with Loopwire → the first changed line in the editor's DOM: the first
   * change of its text, as the extension's own figure counts it (a line partly written, or emptied to be written).
   */
  first_line_ms: number;
  /** → that line whole, as the edit leaves it. */
  first_line_whole_ms: number;
  /** → the edit's last line in the DOM. */
  edit_end_ms: number;
  /** The edit's last line → every Keep / Undo lens of the edit shown. */
  lens_after_end_ms: number;
  /** A hunk's Keep clicked → the lenses left after it shown. */
  lens_after_keep_ms: number;
  /** A hunk's Undo clicked → the lenses left after it (Ctrl+I's second hunk; null for the one-hunk fix). */
  lens_after_undo_ms: number | null;
  /** The extension's log line for the run; null where it had none. */
  host: HostTiming | null;
}

export interface InlineRow {
  kind: InlineKind;
  cold_first_line_ms: number;
  warm_first_line_p50_ms: number;
  warm_first_line_p90_ms: number;
  lens_after_end_p50_ms: number;
  lens_after_keep_p50_ms: number;
  cold_lens_after_end_ms: number;
  cold_lens_after_keep_ms: number;
  lens_after_end_p90_ms: number;
  lens_after_keep_p90_ms: number;
  lens_after_undo_p50_ms: number | null;
  cold_edit_end_ms: number;
  warm_edit_end_p50_ms: number;
  cold_first_line_whole_ms: number;
  warm_first_line_whole_p50_ms: number;
  warm_first_line_whole_p90_ms: number;
  /** The extension's own Enter → first painted line: the cold run's, and the warm runs' median and parts. */
  cold_host_first_line_ms: number | null;
  warm_host_first_line_p50_ms: number | null;
  warm_host_parts_p50_ms: Omit<HostTiming, 'total_ms'> | null;
  /** Warm runs measured (the cold runs and a window's first of the other kind are not among them). */
  warm_runs: number;
  /** Cold runs (a window's first inline edit, of this kind): the cold figures are their median. */
  cold_runs: number;
}

export interface InlineResults {
  started_at: string;
  machine: BenchMachine & { load_avg_start: number[]; load_avg_end: number[] };
  /** What the model was: the bundled server in its own process, its simulated output rate. */
  backend: string;
  inline: InlineRow[];
  goals: Goal[];
  samples: InlineSample[];
}

const round = (ms: number) => Math.round(ms * 10) / 10;
/** A median and a p90 (nearest rank below, as elsewhere in test/bench); NaN (null in the JSON) of no values. */
const p50 = (values: readonly number[]) => (values.length > 0 ? round(median(values)) : Number.NaN);
const p90 = (values: readonly number[]) => (values.length > 0 ? round(quantile(values, 0.9)) : Number.NaN);

/** The log line's figures: `first line painted X ms after Enter: agent A ms, first edit delta D ms, …`. */
export function hostTiming(line: string): HostTiming | null {
  const m =
    /first line painted ([\d.]+) ms after Enter: agent ([\d.]+) ms, first edit delta ([\d.]+) ms, first changed line written ([\d.]+) ms, painted ([\d.]+) ms/.exec(
      line,
    );
  if (!m) return null;
  const [total, agent, delta, written, painted] = m.slice(1).map(Number) as [number, number, number, number, number];
  return { total_ms: total, agent_ms: agent, first_delta_ms: delta, written_ms: written, painted_ms: painted };
}

/** A kind's row from its samples: the cold runs' medians, and the warm runs' medians and p90s. */
export function inlineRow(kind: InlineKind, samples: readonly InlineSample[]): InlineRow {
  const mine = samples.filter((s) => s.kind === kind);
  const colds = mine.filter((s) => s.phase === 'cold');
  const warm = mine.filter((s) => s.phase === 'warm');
  const of = (pick: (s: InlineSample) => number) => warm.map(pick);
  const cold = (pick: (s: InlineSample) => number) => p50(colds.map(pick));
  const coldHosts = colds.flatMap((s) => (s.host ? [s.host.total_ms] : []));
  const hosts = warm.flatMap((s) => (s.host ? [s.host] : []));
  const undos = warm.flatMap((s) => (s.lens_after_undo_ms === null ? [] : [s.lens_after_undo_ms]));
  const hostPart = (pick: (h: HostTiming) => number) => p50(hosts.map(pick));
  return {
    kind,
    cold_first_line_ms: cold((s) => s.first_line_ms),
    warm_first_line_p50_ms: p50(of((s) => s.first_line_ms)),
    warm_first_line_p90_ms: p90(of((s) => s.first_line_ms)),
    lens_after_end_p50_ms: p50(of((s) => s.lens_after_end_ms)),
    lens_after_keep_p50_ms: p50(of((s) => s.lens_after_keep_ms)),
    cold_lens_after_end_ms: cold((s) => s.lens_after_end_ms),
    cold_lens_after_keep_ms: cold((s) => s.lens_after_keep_ms),
    lens_after_end_p90_ms: p90(of((s) => s.lens_after_end_ms)),
    lens_after_keep_p90_ms: p90(of((s) => s.lens_after_keep_ms)),
    lens_after_undo_p50_ms: undos.length > 0 ? p50(undos) : null,
    cold_edit_end_ms: cold((s) => s.edit_end_ms),
    warm_edit_end_p50_ms: p50(of((s) => s.edit_end_ms)),
    cold_first_line_whole_ms: cold((s) => s.first_line_whole_ms),
    warm_first_line_whole_p50_ms: p50(of((s) => s.first_line_whole_ms)),
    warm_first_line_whole_p90_ms: p90(of((s) => s.first_line_whole_ms)),
    cold_host_first_line_ms: coldHosts.length > 0 ? p50(coldHosts) : null,
    warm_host_first_line_p50_ms: hosts.length > 0 ? hostPart((h) => h.total_ms) : null,
    warm_host_parts_p50_ms:
      hosts.length > 0
        ? {
            agent_ms: hostPart((h) => h.agent_ms),
            first_delta_ms: hostPart((h) => h.first_delta_ms),
            written_ms: hostPart((h) => h.written_ms),
            painted_ms: hostPart((h) => h.painted_ms),
          }
        : null,
    warm_runs: warm.length,
    cold_runs: colds.length,
  };
}

const ms = (value: number | null) => (value === null || Number.isNaN(value) ? '—' : value.toFixed(0));

/** The issue's goals for each kind: the first line warm, the lenses cold and warm after the end and a Keep. */
export function inlineGoals(rows: readonly InlineRow[]): Goal[] {
  // A kind with no cold run (one window: the other kind went first) is judged on its warm runs.
  const lens = (cold: number) => Number.isNaN(cold) || cold <= LENS_GOAL_MS;
  const cold = (value: number) => (Number.isNaN(value) ? 'no cold run' : `cold ${ms(value)} ms`);
  return rows.flatMap((r) => [
    {
      name: `${r.kind}: first changed line ≤ ${FIRST_LINE_GOAL_MS} ms warm (p50)`,
      met: r.warm_first_line_p50_ms <= FIRST_LINE_GOAL_MS,
      detail: `p50 ${ms(r.warm_first_line_p50_ms)} ms, p90 ${ms(r.warm_first_line_p90_ms)} ms (${cold(r.cold_first_line_ms)}); the line whole: p50 ${ms(r.warm_first_line_whole_p50_ms)} ms, p90 ${ms(r.warm_first_line_whole_p90_ms)} ms`,
    },
    {
      name: `${r.kind}: lenses ≤ ${LENS_GOAL_MS} ms after the edit's end, cold and warm (p50)`,
      met: lens(r.cold_lens_after_end_ms) && r.lens_after_end_p50_ms <= LENS_GOAL_MS,
      detail: `${cold(r.cold_lens_after_end_ms)}, warm p50 ${ms(r.lens_after_end_p50_ms)} ms, p90 ${ms(r.lens_after_end_p90_ms)} ms`,
    },
    {
      name: `${r.kind}: lenses ≤ ${LENS_GOAL_MS} ms after a Keep${r.lens_after_undo_p50_ms === null ? '' : ' or an Undo'}, cold and warm (p50)`,
      met:
        lens(r.cold_lens_after_keep_ms) &&
        r.lens_after_keep_p50_ms <= LENS_GOAL_MS &&
        (r.lens_after_undo_p50_ms ?? 0) <= LENS_GOAL_MS,
      detail: `Keep: ${cold(r.cold_lens_after_keep_ms)}, warm p50 ${ms(r.lens_after_keep_p50_ms)} ms, p90 ${ms(r.lens_after_keep_p90_ms)} ms${r.lens_after_undo_p50_ms === null ? '' : `; Undo: warm p50 ${ms(r.lens_after_undo_p50_ms)} ms`}`,
    },
  ]);
}

/** The printed table (a row per kind and figure: cold, warm p50, warm p90), the machine, then the goals. */
export function inlineLines(results: InlineResults): string[] {
  const m = results.machine;
  const head = ['kind', 'figure', 'cold', 'warm p50', 'warm p90'];
  const rows = results.inline.flatMap((r) => {
    const warm = results.samples.filter((s) => s.kind === r.kind && s.phase === 'warm');
    const hostWarm = warm.flatMap((s) => (s.host ? [s.host.total_ms] : []));
    const line = (figure: string, cold: number | null, values: number[]) => [
      r.kind,
      figure,
      ms(cold),
      values.length > 0 ? ms(p50(values)) : '—',
      values.length > 0 ? ms(p90(values)) : '—',
    ];
    return [
      line(
        'input → first changed line (page)',
        r.cold_first_line_ms,
        warm.map((s) => s.first_line_ms),
      ),
      line('  the extension’s own figure (log)', r.cold_host_first_line_ms, hostWarm),
      line(
        '  that line whole (page)',
        r.cold_first_line_whole_ms,
        warm.map((s) => s.first_line_whole_ms),
      ),
      line(
        'input → edit’s last line',
        r.cold_edit_end_ms,
        warm.map((s) => s.edit_end_ms),
      ),
      line(
        'edit’s end → lenses',
        r.cold_lens_after_end_ms,
        warm.map((s) => s.lens_after_end_ms),
      ),
      line(
        'Keep → lenses',
        r.cold_lens_after_keep_ms,
        warm.map((s) => s.lens_after_keep_ms),
      ),
      ...(r.lens_after_undo_p50_ms === null
        ? []
        : [
            line(
              'Undo → lenses',
              null,
              warm.flatMap((s) => (s.lens_after_undo_ms === null ? [] : [s.lens_after_undo_ms])),
            ),
          ]),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const pad = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const parts = results.inline.map((r) => {
    const p = r.warm_host_parts_p50_ms;
    return p
      ? `${r.kind}: agent ${p.agent_ms} ms, first edit delta ${p.first_delta_ms} ms, first changed line written ${p.written_ms} ms, painted ${p.painted_ms} ms`
      : `${r.kind}: no log line`;
  });
  return [
    `inline: ${m.cpus} × ${m.cpu_model}, Node ${m.node}, load ${m.load_avg_start.join(' ')} → ${m.load_avg_end.join(' ')}; ${results.backend}; ms`,
    `cold: a window's first inline edit (the median of ${results.inline.map((r) => `${r.cold_runs} ${r.kind}`).join(', ')}); warm: ${results.inline.map((r) => `${r.warm_runs} ${r.kind}`).join(', ')}`,
    pad(head),
    ...rows.map(pad),
    '',
    `the extension's split of its warm figure (medians): ${parts.join('; ')}`,
    '',
    'goals',
    ...results.goals.map((g) => `  ${g.met ? 'met   ' : 'MISSED'} ${g.name}: ${g.detail}`),
  ];
}
