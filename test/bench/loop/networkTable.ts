import type { BenchResults, ModeId, NetworkComparison, NetworkProfile, RunRow } from './benchTypes';
import { describeProfile } from './networkProfile';

// The bench's runs on each network profile side by side: which rows the goals judge (the user's line when it
// ran, loopback otherwise), the comparison kept in the JSON, and the table printed after the main one.

const MODE_ORDER: ModeId[] = ['http-full', 'http-chained', 'ws-full', 'ws-chained'];
const profileOf = (row: RunRow): NetworkProfile['name'] => row.network?.name ?? 'loopback';

/** The profile the goals are judged on: `wan` where it ran (what users meet), else loopback. */
export function judgedProfile(runs: readonly RunRow[]): NetworkProfile['name'] {
  return runs.some((r) => profileOf(r) === 'wan') ? 'wan' : 'loopback';
}

/** The rows of one profile. */
export const runsOn = (runs: readonly RunRow[], name: NetworkProfile['name']): RunRow[] =>
  runs.filter((r) => profileOf(r) === name);

/** Every (profile, tps, calls) cell with its modes' wall times and ws-chained's gain over http-full. */
export function compareNetworks(runs: readonly RunRow[]): NetworkComparison[] {
  const out: NetworkComparison[] = [];
  for (const row of runs) {
    const profile = profileOf(row);
    let cell = out.find((c) => c.profile === profile && c.tps === row.tps && c.tool_calls === row.tool_calls);
    if (!cell) {
      cell = { profile, tps: row.tps, tool_calls: row.tool_calls, wall_ms: {}, ws_chained_faster: null };
      out.push(cell);
    }
    cell.wall_ms[row.mode] = row.wall_ms;
    const [ws, full] = [cell.wall_ms['ws-chained'], cell.wall_ms['http-full']];
    cell.ws_chained_faster = ws !== undefined && full !== undefined ? 1 - ws / full : null;
  }
  return out;
}

/** The side-by-side table: per cell, a line for each profile, with what crossed the line per task. */
export function networkLines(results: BenchResults): string[] {
  const comparison = results.network_comparison ?? [];
  const modes = MODE_ORDER.filter((m) => results.runs.some((r) => r.mode === m));
  const row = (c: NetworkComparison, mode: ModeId) =>
    results.runs.find(
      (r) => profileOf(r) === c.profile && r.tps === c.tps && r.tool_calls === c.tool_calls && r.mode === mode,
    );
  const per = (c: NetworkComparison, pick: (r: RunRow) => number | null | undefined, digits: number) =>
    modes
      .map((m) => {
        const found = row(c, m);
        const value = found ? pick(found) : undefined;
        return value === null || value === undefined ? '–' : value.toFixed(digits);
      })
      .join('/');
  const head = [
    'tok/s',
    'calls',
    'network',
    ...modes,
    'ws-chained faster',
    `conns/task ${modes.join('/')}`,
    'up KB/task',
  ];
  const rows = [...comparison]
    .sort((a, b) => a.tps - b.tps || a.tool_calls - b.tool_calls || a.profile.localeCompare(b.profile))
    .map((c) => [
      String(c.tps),
      String(c.tool_calls),
      c.profile,
      ...modes.map((m) => (c.wall_ms[m] === undefined ? '–' : ((c.wall_ms[m] ?? 0) / 1000).toFixed(2))),
      c.ws_chained_faster === null ? '–' : `${(c.ws_chained_faster * 100).toFixed(1)}%`,
      per(c, (r) => r.network?.connections_per_task, 0),
      per(c, (r) => (r.network?.bytes_up_per_task == null ? null : r.network.bytes_up_per_task / 1024), 0),
    ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  const out = ['\nnetworks side by side (wall s, median; ws-chained faster: 1 − ws-chained / http-full)'];
  for (const network of results.networks ?? [])
    out.push(
      `  ${describeProfile(network)}${network.measured_rtt_ms === null ? '' : `: a request's round trip through it ${network.measured_rtt_ms.toFixed(1)} ms (median, one kept connection)`}`,
    );
  out.push(line(head), ...rows.map(line));
  out.push(
    `goals judged on ${judgedProfile(results.runs)}; conns and bytes counted by the proxy (– on loopback: none)`,
  );
  return out;
}
