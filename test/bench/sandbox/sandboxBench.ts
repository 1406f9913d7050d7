// `npm run bench -- --sandbox`: what the OS sandbox adds to a command (issue 46, item 6). The same commands
// (`true`, `git status`, `node -e 0`, a 200-file `rg`) run plain and sandboxed (workspace-write, network off)
// through the product's own path, NodeWorkspace.runCommand (the user's shell, spawnTask, confineSpawn), so
// the figure is what a user pays per command. The two kinds alternate, the first of each pair swapped every
// round, so that a noisy moment of the shared machine falls on both alike. Then a scripted task of 20
// exec_command calls runs through the agent loop and the bundled server in `all` and in `auto`
// (sandboxTask.ts). Usage: npm run bench -- --sandbox [--quick] [--json FILE].
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import type { CommandSandbox } from '../../../src/workspace';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { thisMachine } from '../loop/machine';
import {
  ADDED_GOAL_MS,
  type BenchMechanism,
  type SandboxResults,
  type SandboxRow,
  sandboxLines,
  sandboxRow,
  sandboxTask,
} from './sandboxFigures';
import { TASK_LINES, runSandboxTask } from './sandboxTask';
import { BENCH_COMMANDS, writeSandboxWorkspace } from './sandboxWorkspace';

/** What every sandboxed run is confined by: the policy Auto runs commands in. */
const SANDBOX: CommandSandbox = { policy: { mode: 'workspace-write', network: false } };
const WARM_UP = 3;
const TIMEOUT_MS = 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadAvg = () => os.loadavg().map((load) => Math.round(load * 100) / 100);

/** One run's wall time in ms; a run that fails throws (a broken sandbox is never timed as a fast one). */
async function timeOnce(workspace: NodeWorkspace, line: string, sandbox: CommandSandbox | undefined) {
  const started = performance.now();
  const run = await workspace.runCommand(line, { timeoutMs: TIMEOUT_MS, ...(sandbox ? { sandbox } : {}) });
  const elapsed = performance.now() - started;
  if (run.exitCode !== 0)
    throw new Error(`${line}${sandbox ? ' (sandboxed)' : ''} exited with ${run.exitCode}:\n${run.output}`);
  return elapsed;
}

/** Each command `runs` times of each kind, interleaved; sandboxed figures null where there is no sandbox. */
async function timeCommands(workspace: NodeWorkspace, runs: number, sandboxed: boolean) {
  const kinds = sandboxed ? [undefined, SANDBOX] : [undefined];
  const times = new Map<string, { plain: number[]; sandboxed: number[] }>(
    BENCH_COMMANDS.map((line) => [line, { plain: [], sandboxed: [] }]),
  );
  for (const line of BENCH_COMMANDS)
    for (let i = 0; i < WARM_UP; i++) for (const kind of kinds) await timeOnce(workspace, line, kind);
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const line of BENCH_COMMANDS)
      for (const kind of order) {
        const figures = times.get(line);
        (kind ? figures?.sandboxed : figures?.plain)?.push(await timeOnce(workspace, line, kind));
      }
    if ((round + 1) % 10 === 0 || round + 1 === runs) log(`  round ${round + 1}/${runs}`);
  }
  return times;
}

export async function runSandboxBench(options: { quick: boolean; json?: string | undefined }): Promise<void> {
  const runs = options.quick ? 10 : 30;
  const repetitions = options.quick ? 2 : 5;
  const started = new Date();
  const loadStart = loadAvg();
  const support = sandboxSupport();
  const mechanism: BenchMechanism = support.available ? support.mechanism : 'none';
  if (!support.available) log(`no sandbox on this machine (${support.reason}): the commands run plain only`);
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-sandbox-bench-')));
  const dir = path.join(base, 'workspace');
  let rows: SandboxRow[];
  let task: SandboxResults['task'];
  try {
    writeSandboxWorkspace(dir);
    const workspace = await NodeWorkspace.open(dir);
    log(`commands: ${runs} runs of each, plain${support.available ? ' and sandboxed' : ''}, after ${WARM_UP}`);
    const times = await timeCommands(workspace, runs, support.available);
    rows = BENCH_COMMANDS.map((line) => {
      const figures = times.get(line) ?? { plain: [], sandboxed: [] };
      return sandboxRow(line, mechanism, figures.plain, support.available ? figures.sandboxed : null);
    });
    log(`task: ${TASK_LINES.length} exec_command calls, ${repetitions} runs in each mode`);
    const walls = await runSandboxTask(workspace, support, repetitions, log);
    task = sandboxTask(TASK_LINES, walls.all, walls.auto, rows);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  const results: SandboxResults = {
    started_at: started.toISOString(),
    machine: { ...thisMachine(), load_avg_start: loadStart, load_avg_end: loadAvg() },
    goal_added_p50_ms: ADDED_GOAL_MS,
    ...(support.available ? {} : { unavailable_reason: support.reason }),
    sandbox: rows,
    task,
  };
  print(results, runs);
  if (options.json) {
    fs.mkdirSync(path.dirname(path.resolve(options.json)), { recursive: true });
    fs.writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\njson: ${options.json}`);
  }
}

function print(results: SandboxResults, runs: number): void {
  const m = results.machine;
  console.log(
    `\nsandbox: ${m.cpus} × ${m.cpu_model}, Node ${m.node}, load ${m.load_avg_start.join(' ')} → ${m.load_avg_end.join(' ')}, ${runs} runs of each, ms\n`,
  );
  if (results.unavailable_reason) console.log(`no sandbox: ${results.unavailable_reason}\n`);
  for (const line of sandboxLines(results)) console.log(line);
}
