// `npm run bench -- --parallel`: N = 1, 2, 4, 8 tasks of 20 tool calls each at 1,000 tok/s, at once, three
// ways side by side in one run (issue 49, item 5): one socket with N lanes, N sockets, and HTTP (the loop
// bench's `http-full`); parallelRuns.ts runs them, parallelFigures.ts has the rows and goals. The server is
// the real `loopwire-server` bin in its own process, as for the loop bench. Usage: npm run bench --
// --parallel [--quick] [--json FILE]; --quick runs N = 1 and 4, twice.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { parallelLines, parallelResults } from './parallelFigures';
import { runParallel } from './parallelRuns';
import { startServerProcess } from './serverProcess';
import { benchScenarios, taskPrompt, writeWorkspace } from './workload';

const TPS = 1000;
const TOOL_CALLS = 20;
const PREFILL_US = 10;
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadAvg = () => os.loadavg().map((load) => Math.round(load * 100) / 100);

export async function runParallelBench(options: { quick: boolean; json?: string | undefined }): Promise<void> {
  const ns = options.quick ? [1, 4] : [1, 2, 4, 8];
  const repetitions = options.quick ? 2 : 6;
  const started = new Date();
  const loadStart = loadAvg();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-parallel-bench-'));
  const dir = path.join(base, 'workspace');
  writeWorkspace(dir);
  const scenarioFile = path.join(base, 'scenarios.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(benchScenarios([TOOL_CALLS], [], 0)));
  let figures: Awaited<ReturnType<typeof runParallel>>;
  try {
    const workspace = await NodeWorkspace.open(dir);
    const server = await startServerProcess([
      '--scenario',
      scenarioFile,
      '--tps',
      String(TPS),
      '--prefill-us-per-token',
      String(PREFILL_US),
    ]);
    try {
      log(`parallel: n ${ns.join(', ')}, ${repetitions} repetitions, lanes / sockets / http interleaved`);
      figures = await runParallel({ url: server.url, workspace, prompt: taskPrompt(TOOL_CALLS), ns, repetitions, log });
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  const results = parallelResults(figures, {
    started_at: started.toISOString(),
    load_avg_start: loadStart,
    load_avg_end: loadAvg(),
    tps: TPS,
    tool_calls: TOOL_CALLS,
    repetitions,
  });
  console.log(`\n${parallelLines(results).join('\n')}`);
  if (options.json) {
    fs.mkdirSync(path.dirname(path.resolve(options.json)), { recursive: true });
    fs.writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\njson: ${options.json}`);
  }
}
