// `npm run bench`: HTTP against WebSocket agent loops, side by side, in one run on one machine moment.
// Modes are interleaved within each repetition (the machine is shared and noisy); figures are medians, with
// the spread printed. Usage: npm run bench -- [--quick] [--json FILE] [--html FILE]; `--long` runs the
// long-task mode instead (longBench.ts): a task compacted on the way, its turns before and after each compaction;
// `--panel` the chat panel in the real workbench (../panel/panelBench.ts); `--startup` the bins' start beside
// Node's own (../startup/startupBench.ts). `--network wan` runs the comparison through a user's line (a round
// trip and an uplink rate, netemProxy.ts), `--network both` that and loopback side by side in one run.
// `--history DIR [--history DIR …] [--commits N] [--cli-every K]` replays real commits of git directories
// through apply_patch (../history/historyBench.ts). `--sandbox` times commands plain and in the OS sandbox
// (../sandbox/sandboxBench.ts). `--parallel` runs N tasks at once over lanes of one socket, N sockets and HTTP
// (parallelBench.ts). `--inline` times inline edits in the real workbench, Ctrl+I beside the light bulb's fix
// (../inline/inlineBench.ts; `--quick`: one window, two warm runs of each).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { overheadOf, runBenchTask } from './benchTask';
import { firstGapGoal, gapFigures, rowGapLine } from './gapStats';
import type { BenchResults, Goal, ModeId, RunRow, ScalingPoint } from './benchTypes';
import type { NetemCounters } from './netemProxy';
import { networkProfiles } from './networkProfile';
import { type Route, openRoute, runNetwork } from './networkRoute';
import { compareNetworks, judgedProfile, networkLines, runsOn } from './networkTable';
import { loopbackRtt } from './floor';
import { renderReport } from './htmlReport';
import { runPanelBench } from '../panel/panelBench';
import { runStartupBench } from '../startup/startupBench';
import { runHistoryBench } from '../history/historyBench';
import { runSandboxBench } from '../sandbox/sandboxBench';
import { runLongBench } from './longBench';
import { runParallelBench } from './parallelBench';
import { runInlineBench } from '../inline/inlineBench';
import { startServerProcess } from './serverProcess';
import { MODULE_BYTES, benchScenarios, scalingPrompt, taskPrompt, writeWorkspace } from './workload';
import { thisMachine } from './machine';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    long: { type: 'boolean' },
    panel: { type: 'boolean' },
    startup: { type: 'boolean' },
    sandbox: { type: 'boolean' },
    parallel: { type: 'boolean' },
    inline: { type: 'boolean' },
    profile: { type: 'boolean' },
    trace: { type: 'boolean' },
    heap: { type: 'boolean' },
    json: { type: 'string' },
    html: { type: 'string' },
    network: { type: 'string' },
    'rtt-ms': { type: 'string' },
    'uplink-mbit': { type: 'string' },
    'downlink-mbit': { type: 'string' },
    history: { type: 'string', multiple: true },
    commits: { type: 'string' },
    'cli-every': { type: 'string' },
  },
});
const quick = flags.quick ?? false;
const PREFILL_US = 10;
const ALL_MODES: ModeId[] = ['http-full', 'http-chained', 'ws-full', 'ws-chained'];
const modes: ModeId[] = quick ? ['http-full', 'ws-chained'] : ALL_MODES;
/** (tps, tool calls, repetitions) cells; 65 tokens/s is slow, so it gets fewer repetitions. */
const cells: Array<[number, number, number]> = quick
  ? [[1000, 20, 3]]
  : [
      [65, 20, 1],
      [1000, 20, 3],
      [1000, 50, 3],
      [4000, 20, 3],
      [4000, 50, 3],
    ];
const SIZES = quick ? [] : [1_000, 10_000, 50_000, 100_000, 200_000];
const MEASURED = 5;
const SCALING_TPS = 4000;

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const started = new Date();
  const profiles = networkProfiles(flags);
  const networks: NonNullable<BenchResults['networks']> = [];
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-bench-'));
  const dir = path.join(base, 'workspace');
  writeWorkspace(dir);
  const scenarioFile = path.join(base, 'scenarios.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(benchScenarios([...new Set(cells.map((c) => c[1]))], SIZES, MEASURED)));
  const workspace = await NodeWorkspace.open(dir);
  const runs: RunRow[] = [];
  const scaling: ScalingPoint[] = [];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    for (const tps of [...new Set(cells.map((c) => c[0]))]) {
      const server = await startServerProcess([
        '--scenario',
        scenarioFile,
        '--tps',
        String(tps),
        '--prefill-us-per-token',
        String(PREFILL_US),
      ]);
      const routes: Route[] = [];
      try {
        for (const profile of profiles) routes.push(await openRoute(server, profile));
        if (networks.length === 0)
          for (const route of routes) networks.push({ ...route.profile, measured_rtt_ms: await route.measureRttMs() });
        // One unmeasured task per mode first: the JIT and the server's caches warm up alike for all.
        for (const route of routes)
          for (const mode of modes) await runBenchTask(mode, route.server, workspace, taskPrompt(cells[0]?.[1] ?? 20));
        for (const [, toolCalls, repetitions] of cells.filter((c) => c[0] === tps)) {
          const figures = new Map<string, Awaited<ReturnType<typeof runBenchTask>>[]>();
          const wires = new Map<string, Array<NetemCounters | null>>();
          for (let rep = 0; rep < repetitions; rep++) {
            // Interleaved, and rotated each repetition, so no mode always runs first.
            const order = modes.map((_, i) => modes[(i + rep) % modes.length] as ModeId);
            // The networks take turns too: a noisy moment of the machine falls on both alike.
            for (const route of routes.map((_, i) => routes[(i + rep) % routes.length] as Route))
              for (const mode of order) {
                const key = `${route.profile.name} ${mode}`;
                const { value: result, wire } = await route.counted((via) =>
                  runBenchTask(mode, via, workspace, taskPrompt(toolCalls)),
                );
                figures.set(key, [...(figures.get(key) ?? []), result]);
                wires.set(key, [...(wires.get(key) ?? []), wire]);
                log(
                  `  ${String(tps).padStart(4)} tok/s ${toolCalls} calls rep ${rep + 1} ${routes.length > 1 ? `${route.profile.name.padEnd(8)} ` : ''}${mode.padEnd(12)} ${(result.wallMs / 1000).toFixed(2)} s`,
                );
              }
          }
          for (const route of routes)
            for (const mode of modes) {
              const key = `${route.profile.name} ${mode}`;
              runs.push({
                ...row(mode, tps, toolCalls, figures.get(key) ?? []),
                network: runNetwork(route.profile, wires.get(key) ?? []),
              });
            }
        }
      } finally {
        for (const route of routes) await route.close();
        await server.close();
      }
    }
    // The sweep measures the client's own overhead against history size, which no network changes: on loopback.
    if (SIZES.length > 0 && profiles.some((p) => p.name === 'loopback')) {
      const server = await startServerProcess([
        '--scenario',
        scenarioFile,
        '--tps',
        String(SCALING_TPS),
        '--prefill-us-per-token',
        String(PREFILL_US),
      ]);
      try {
        for (const tokens of SIZES)
          for (const mode of modes) {
            const result = await runBenchTask(mode, server, workspace, scalingPrompt(tokens));
            const measured = result.turns.slice(-MEASURED - 1, -1);
            scaling.push({
              mode,
              history_tokens: median(measured.map((m) => m.inputTokens)),
              overhead_p50_ms: median(measured.map(overheadOf)),
              bytes_sent_per_turn: median(measured.map((m) => m.bytesSent)),
              server_ms_per_turn: result.serverMsPerTurn,
            });
            log(
              `  scaling ${String(tokens).padStart(7)} tokens ${mode.padEnd(12)} overhead ${median(measured.map(overheadOf)).toFixed(3)} ms`,
            );
          }
      } finally {
        await server.close();
      }
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  const wsRows = runs.filter((r) => r.mode === 'ws-chained');
  const turnPayload = Math.round(median(wsRows.map((r) => r.bytes_sent_per_turn))) || 4096;
  const [floor4k = 0, floorTurn = 0] = await loopbackRtt([4096, turnPayload]);
  const results: BenchResults = {
    started_at: started.toISOString(),
    quick,
    machine: thisMachine(),
    simulation: {
      prefill_us_per_token: PREFILL_US,
      prompt_cache: 'item-granular prefix cache, hit by every transport alike; only uncached input tokens pay prefill',
      tps_values: [...new Set(cells.map((c) => c[0]))],
      tool_output_bytes: MODULE_BYTES,
    },
    runs,
    scaling,
    floor_rtt_us: floor4k,
    floor_rtt_turn_payload_us: floorTurn,
    floor_turn_payload_bytes: turnPayload,
    goals: [],
    networks,
    network_comparison: compareNetworks(runs),
  };
  results.goals = goals(results);
  printTable(results);
  if (flags.json) {
    fs.mkdirSync(path.dirname(path.resolve(flags.json)), { recursive: true });
    fs.writeFileSync(flags.json, `${JSON.stringify(results, null, 2)}\n`);
  }
  const html = flags.html ?? path.resolve(__dirname, '../../../bench-report/report.html');
  fs.mkdirSync(path.dirname(html), { recursive: true });
  // The report draws one row per mode and cell: the judged network's.
  fs.writeFileSync(html, renderReport({ ...results, runs: runsOn(runs, judgedProfile(runs)) }));
  console.log(`\nreport: ${html}${flags.json ? `\njson: ${flags.json}` : ''}`);
}

function row(mode: ModeId, tps: number, toolCalls: number, reps: Awaited<ReturnType<typeof runBenchTask>>[]): RunRow {
  // Turn 1 carries the prompt (no tool result before it); the per-turn figures are of turns 2 on.
  const turns = reps.flatMap((rep) => rep.turns.slice(1));
  const overheads = turns.map(overheadOf);
  const walls = reps.map((rep) => rep.wallMs);
  const last = reps.map((rep) => rep.turns.at(-1)?.inputTokens ?? 0);
  return {
    mode,
    tps,
    tool_calls: toolCalls,
    wall_ms: median(walls),
    overhead_p50_ms: median(overheads),
    overhead_p99_ms: quantile(overheads, 0.99),
    ...gapFigures(reps.map((rep) => ({ gapsMs: rep.readGapsMs, firstPhasesMs: rep.firstGapPhasesMs }))),
    bytes_sent_per_turn: median(turns.map((m) => m.bytesSent)),
    server_ms_per_turn: median(reps.map((rep) => rep.serverMsPerTurn)),
    history_tokens: median(last),
    repetitions: reps.length,
    wall_min_ms: Math.min(...walls),
    wall_max_ms: Math.max(...walls),
    ttft_p50_ms: median(turns.flatMap((m) => (m.timeToFirstTokenMs === null ? [] : [m.timeToFirstTokenMs]))),
    uncached_tokens_per_turn: median(turns.map((m) => m.inputTokens - m.cachedTokens)),
    client_cpu_ms: median(reps.map((rep) => rep.clientCpuMs)),
    server_cpu_ms: median(reps.map((rep) => rep.serverCpuMs)),
  };
}

function goals(results: BenchResults): Goal[] {
  const out: Goal[] = [];
  // The end-to-end goals are judged on the user's line where it ran; loopback's ratios are printed beside them.
  const judged = judgedProfile(results.runs);
  const on = judged === 'loopback' ? '' : `${judged}: `;
  const judgedRuns = runsOn(results.runs, judged);
  // The client's own overhead is the same on any line; judged where the floor is measured, loopback, if it ran.
  const clientRuns = runsOn(results.runs, 'loopback').length > 0 ? runsOn(results.runs, 'loopback') : judgedRuns;
  const at = (mode: ModeId, tps: number, calls: number) =>
    judgedRuns.find((r) => r.mode === mode && r.tps === tps && r.tool_calls === calls);
  for (const calls of [...new Set(judgedRuns.filter((r) => r.tps === 1000).map((r) => r.tool_calls))]) {
    const ws = at('ws-chained', 1000, calls);
    const full = at('http-full', 1000, calls);
    const chained = at('http-chained', 1000, calls);
    if (ws && full) {
      const faster = 1 - ws.wall_ms / full.wall_ms;
      out.push({
        name: `${on}1,000 tok/s, ${calls} calls: ws-chained ≥ 40% faster than http-full`,
        met: faster >= 0.4,
        detail: `${(faster * 100).toFixed(1)}% faster (${(ws.wall_ms / 1000).toFixed(2)} s against ${(full.wall_ms / 1000).toFixed(2)} s)`,
      });
    }
    if (ws && chained)
      out.push({
        name: `${on}1,000 tok/s, ${calls} calls: ws-chained faster than http-chained`,
        met: ws.wall_ms < chained.wall_ms,
        detail: `${(ws.wall_ms / 1000).toFixed(2)} s against ${(chained.wall_ms / 1000).toFixed(2)} s`,
      });
  }
  const sweep = results.scaling
    .filter((p) => p.mode === 'ws-chained')
    .sort((a, b) => a.history_tokens - b.history_tokens);
  const first = sweep[0];
  const last = sweep.at(-1);
  if (first && last && sweep.length > 1)
    out.push({
      name: 'ws-chained overhead flat in history size (≤ 1.2× from the smallest to the largest)',
      met: last.overhead_p50_ms <= 1.2 * first.overhead_p50_ms,
      detail: `${first.overhead_p50_ms.toFixed(3)} ms at ${first.history_tokens} tokens, ${last.overhead_p50_ms.toFixed(3)} ms at ${last.history_tokens} (${(last.overhead_p50_ms / first.overhead_p50_ms).toFixed(2)}×)`,
    });
  const wsOverhead = median(clientRuns.filter((r) => r.mode === 'ws-chained').map((r) => r.overhead_p50_ms));
  out.push({
    name: 'ws-chained per-turn client overhead, median ≤ 1 ms',
    met: wsOverhead <= 1,
    detail: `${wsOverhead.toFixed(3)} ms`,
  });
  const wsGap = median(clientRuns.filter((r) => r.mode === 'ws-chained').map((r) => r.gap_p50_ms));
  out.push({
    name: 'ws-chained tool-to-request gap (a ~10 KB read and the next request), median ≤ 1 ms',
    met: wsGap <= 1,
    detail: `${wsGap.toFixed(3)} ms`,
  });
  out.push(firstGapGoal(clientRuns.filter((r) => r.mode === 'ws-chained')));
  const multiple = wsOverhead / (results.floor_rtt_us / 1000);
  out.push({
    name: 'ws-chained overhead within a small multiple (≤ 5×) of the loopback round trip',
    met: multiple <= 5,
    detail: `${multiple.toFixed(2)}× the ${results.floor_rtt_us.toFixed(0)} µs round trip of 4 KB`,
  });
  return out;
}

function printTable(results: BenchResults): void {
  const head = [
    'mode',
    'tok/s',
    'calls',
    'wall s',
    'spread s',
    'ovh p50 ms',
    'ovh p99 ms',
    'gap ms',
    'sent/turn KB',
    'server ms/turn',
    'ttft ms',
    'history tok',
    'cpu c/s ms',
  ];
  const rows = results.runs.map((r) => [
    r.network && r.network.name !== 'loopback' ? `${r.mode}@${r.network.name}` : r.mode,
    String(r.tps),
    String(r.tool_calls),
    (r.wall_ms / 1000).toFixed(2),
    `${(r.wall_min_ms / 1000).toFixed(2)}–${(r.wall_max_ms / 1000).toFixed(2)}`,
    r.overhead_p50_ms.toFixed(3),
    r.overhead_p99_ms.toFixed(3),
    r.gap_p50_ms.toFixed(3),
    (r.bytes_sent_per_turn / 1024).toFixed(1),
    r.server_ms_per_turn.toFixed(2),
    r.ttft_p50_ms.toFixed(1),
    String(r.history_tokens),
    `${r.client_cpu_ms.toFixed(0)}/${r.server_cpu_ms.toFixed(0)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log('\nws-chained turnarounds (the first gap split: its phases, ms)');
  for (const r of results.runs.filter((run) => run.mode === 'ws-chained')) console.log(rowGapLine(r));
  if (results.scaling.length > 0) {
    console.log('\nscaling (per-turn overhead against history size, 4,000 tok/s)');
    for (const p of results.scaling)
      console.log(
        `  ${p.mode.padEnd(12)} ${String(p.history_tokens).padStart(7)} tokens  ${p.overhead_p50_ms.toFixed(3)} ms  ${(p.bytes_sent_per_turn / 1024).toFixed(1)} KB/turn  server ${p.server_ms_per_turn.toFixed(2)} ms/turn`,
      );
  }
  if (judgedProfile(results.runs) !== 'loopback') for (const text of networkLines(results)) console.log(text);
  console.log(
    `\nloopback WebSocket round trip: ${results.floor_rtt_us.toFixed(0)} µs (4 KB), ${results.floor_rtt_turn_payload_us.toFixed(0)} µs (${results.floor_turn_payload_bytes} B, the mean ws-chained turn)`,
  );
  console.log(
    `simulation: prefill ${results.simulation.prefill_us_per_token} µs per uncached input token; ${results.simulation.prompt_cache}; tool outputs ~${results.simulation.tool_output_bytes} B`,
  );
  console.log('\ngoals');
  for (const goal of results.goals) console.log(`  ${goal.met ? 'met   ' : 'MISSED'} ${goal.name}: ${goal.detail}`);
}

(flags.history
  ? runHistoryBench({
      dirs: flags.history,
      commits: Number(flags.commits ?? 200),
      cliEvery: Number(flags['cli-every'] ?? 10),
      json: flags.json,
    })
  : flags.startup
    ? runStartupBench({ quick, json: flags.json })
    : flags.panel
      ? runPanelBench({
          json: flags.json,
          html: flags.html,
          profile: flags.profile ?? false,
          trace: flags.trace ?? false,
          heap: flags.heap ?? false,
        })
      : flags.long
        ? runLongBench({ quick, json: flags.json })
        : flags.sandbox
          ? runSandboxBench({ quick, json: flags.json })
          : flags.parallel
            ? runParallelBench({ quick, json: flags.json })
            : flags.inline
              ? runInlineBench({ json: flags.json, ...(quick ? { runs: 2, windows: 1 } : {}) })
              : main()
).catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
