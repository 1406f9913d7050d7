import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { runBenchTask } from './benchTask';
import type { LongModeResult, LongResults, LongTurn, ModeId } from './benchTypes';
import { compactionPhases, longTurns } from './longPhases';
import { startObservedServer } from './serverProcess';
import { MODULE_BYTES, longPrompt, longScenario, writeWorkspace } from './workload';
import { thisMachine } from './machine';

// `npm run bench -- --long`: one long task — whole-module reads that outgrow a 40,000-token window three
// times — for ws-chained and http-full, with the agent asking the server to compact past 80 % of it. Each
// turn's client figures sit beside the server's record of the same request, and the turns are split at each
// compaction: what a turn costs before, at and after each one (docs/benchmark.md, "The long task").

const WINDOW = 40_000;
const THRESHOLD = Math.floor(WINDOW * 0.8);
const READS = 36;
const TPS = 4000;
const PREFILL_US = 10;
const MODES: ModeId[] = ['ws-chained', 'http-full'];

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export async function runLongBench(options: { quick: boolean; json: string | undefined }): Promise<void> {
  const repetitions = options.quick ? 1 : 3;
  const started = new Date();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-bench-long-'));
  const dir = path.join(base, 'workspace');
  writeWorkspace(dir);
  const scenarioFile = path.join(base, 'scenarios.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(longScenario(READS)));
  const workspace = await NodeWorkspace.open(dir);
  const context = { window: WINDOW, compactThreshold: THRESHOLD };
  const reps = new Map<ModeId, { wallMs: number; turns: LongTurn[] }[]>();
  const server = await startObservedServer({
    scenarioFile,
    tps: TPS,
    prefillUsPerToken: PREFILL_US,
    contextWindow: WINDOW,
  });
  try {
    const task = async (mode: ModeId) => {
      const from = server.records.length;
      const result = await runBenchTask(mode, server, workspace, longPrompt(READS), context);
      // The records come on the server's stdout, a moment after the responses they describe.
      const answered = () => server.records.slice(from).filter((record) => record.trace !== 'warm-up').length;
      for (let waited = 0; answered() < result.turns.length && waited < 2000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return { wallMs: result.wallMs, turns: longTurns(result.turns, server.records.slice(from)) };
    };
    for (const mode of MODES) await task(mode);
    for (let rep = 0; rep < repetitions; rep++)
      for (const mode of MODES.map((_, i) => MODES[(i + rep) % MODES.length] as ModeId)) {
        const result = await task(mode);
        reps.set(mode, [...(reps.get(mode) ?? []), result]);
        process.stderr.write(`  long rep ${rep + 1} ${mode.padEnd(12)} ${(result.wallMs / 1000).toFixed(2)} s\n`);
      }
  } finally {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  const modes: LongModeResult[] = MODES.map((mode) => {
    const runs = reps.get(mode) ?? [];
    return {
      mode,
      wall_ms: median(runs.map((run) => run.wallMs)),
      repetitions: runs.length,
      ...compactionPhases(runs.map((run) => run.turns)),
      turns: runs[0]?.turns ?? [],
    };
  });
  const results: LongResults = {
    started_at: started.toISOString(),
    machine: thisMachine(),
    simulation: {
      tps: TPS,
      prefill_us_per_token: PREFILL_US,
      context_window: WINDOW,
      compact_threshold: THRESHOLD,
      reads: READS,
      tool_output_bytes: MODULE_BYTES,
    },
    modes,
  };
  console.log(longTable(results));
  const json = options.json ?? path.resolve(__dirname, '../../../bench-report/long.json');
  fs.mkdirSync(path.dirname(path.resolve(json)), { recursive: true });
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\njson: ${json}`);
}

const k = (tokens: number) => `${(tokens / 1000).toFixed(1)}k`;
const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** The long mode's table: per mode, each phase and each compaction, in turn order. */
export function longTable(results: LongResults): string {
  const { simulation: sim } = results;
  const head = [
    'mode',
    'turns',
    'phase',
    'input tok',
    'ovh p50 ms',
    'sent/turn KB',
    'server ms/turn',
    'tokenized/turn',
  ];
  const rows: string[][] = [];
  for (const mode of results.modes) {
    const entries = [
      ...mode.phases.map((p) => ({
        at: p.first_turn,
        cells: [
          mode.mode,
          p.first_turn === p.last_turn ? String(p.first_turn) : `${p.first_turn}–${p.last_turn}`,
          p.after_compactions === 0 ? 'before the 1st' : `after the ${ordinal(p.after_compactions)}`,
          `${k(p.input_tokens_first)}→${k(p.input_tokens_last)}`,
          p.overhead_p50_ms.toFixed(3),
          (p.bytes_sent_per_turn / 1024).toFixed(1),
          p.server_ms_per_turn.toFixed(2),
          String(Math.round(p.tokenized_tokens_per_turn)),
        ],
      })),
      ...mode.compactions.map((c, i) => ({
        at: c.turn,
        cells: [
          mode.mode,
          String(c.turn),
          `compaction ${i + 1}`,
          `${k(c.tokens_before)}→${k(c.tokens_after)}`,
          c.overhead_ms.toFixed(3),
          (c.bytes_sent / 1024).toFixed(1),
          c.server_ms.toFixed(2),
          String(Math.round(c.tokenized_tokens)),
        ],
      })),
    ].sort((a, b) => a.at - b.at);
    rows.push(...entries.map((entry) => entry.cells));
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const walls = results.modes.map((m) => `${m.mode} ${(m.wall_ms / 1000).toFixed(2)} s`).join(', ');
  return [
    `long task: ${sim.reads} reads of ~${Math.round(sim.tool_output_bytes / 1024)} KB, a ${sim.context_window}-token window, ` +
      `compaction past ${sim.compact_threshold} tokens; ${sim.tps} tok/s, ${sim.prefill_us_per_token} µs prefill per uncached token`,
    line(head),
    ...rows.map(line),
    `wall (median of ${results.modes[0]?.repetitions ?? 0}): ${walls}`,
  ].join('\n');
}
