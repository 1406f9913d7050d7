// `npm run bench -- --startup`: how long the bins take to start, beside Node's own start, in one run.
// Every case is a fresh process of the built bins (dist/cli/), spawned in turn, the order rotated each round
// (the machine is shared and noisy), after one unmeasured round that fills the file cache. Commands that end
// are timed to their exit; `loopwire exec` and `loopwire-server` to their first line on stdout, and exec also
// to the model's first output after its header line (what its start costs before the model is heard from).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { thisMachine } from '../loop/machine';
import { type StartupCase, startupCases } from './startupCases';

/** One case's figures, in ms. */
export interface StartupRow {
  name: string;
  measures: StartupCase['measures'];
  runs: number;
  median_ms: number;
  p90_ms: number;
  /** The median over `node -e 0`'s median. */
  ratio_to_node: number;
  goal_ms: number | null;
  met: boolean | null;
}

export interface StartupResults {
  started_at: string;
  machine: ReturnType<typeof thisMachine>;
  rows: StartupRow[];
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * Spawns one case and resolves its time in ms: to the exit, or to the first whole line on stdout (then the
 * process is stopped). A run that fails (a wrong exit code, output the case does not expect) rejects, so a
 * broken bin is never timed as a fast one.
 */
function timeOnce(entry: StartupCase): Promise<number> {
  const { file, args, stdin } = entry.prepare();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let firstLineAt: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const newline = stdout.indexOf('\n');
      const reached =
        entry.measures === 'first line'
          ? newline >= 0
          : entry.measures === 'first model output' && newline >= 0 && stdout.length > newline + 1;
      if (reached && firstLineAt === undefined) {
        firstLineAt = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const elapsed = performance.now() - started;
      const problem = entry.check(stdout, firstLineAt === undefined ? code : 0);
      if (problem !== undefined) reject(new Error(`${entry.name}: ${problem}\n${stderr}`));
      else if (entry.measures !== 'exit' && firstLineAt === undefined)
        reject(new Error(`${entry.name}: exited (${code}) before its ${entry.measures}\n${stderr}`));
      else resolve(firstLineAt ?? elapsed);
    });
    child.stdin.end(stdin ?? '');
  });
}

export async function runStartupBench(options: { quick: boolean; json?: string }): Promise<void> {
  const runs = options.quick ? 5 : 20;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-startup-'));
  const { cases, close } = await startupCases(base);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const times = new Map<string, number[]>(cases.map((entry) => [entry.name, []]));
  try {
    for (const entry of cases) await timeOnce(entry);
    for (let round = 0; round < runs; round++) {
      const order = cases.map((_, i) => cases[(i + round) % cases.length] as StartupCase);
      for (const entry of order) times.get(entry.name)?.push(await timeOnce(entry));
      log(`  round ${round + 1}/${runs}`);
    }
  } finally {
    await close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  const nodeMedian = median(times.get(cases[0]?.name ?? '') ?? []);
  const rows: StartupRow[] = cases.map((entry) => {
    const figures = times.get(entry.name) ?? [];
    const mid = median(figures);
    return {
      name: entry.name,
      measures: entry.measures,
      runs: figures.length,
      median_ms: mid,
      p90_ms: quantile(figures, 0.9),
      ratio_to_node: nodeMedian > 0 ? mid / nodeMedian : 0,
      goal_ms: entry.goalMs ?? null,
      met: entry.goalMs === undefined ? null : mid <= entry.goalMs,
    };
  });
  const results: StartupResults = { started_at: new Date().toISOString(), machine: thisMachine(), rows };
  print(results);
  if (options.json) fs.writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
}

function print(results: StartupResults): void {
  const m = results.machine;
  console.log(`\nstartup: ${m.cpus} × ${m.cpu_model}, Node ${m.node}, ${results.rows[0]?.runs ?? 0} runs each\n`);
  const header = `${'command'.padEnd(47)} ${'until'.padEnd(18)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× node'.padStart(7)}  goal`;
  console.log(header);
  for (const row of results.rows) {
    const goal = row.goal_ms === null ? '' : `${row.met ? 'met   ' : 'MISSED'} ≤ ${row.goal_ms} ms`;
    console.log(
      `${row.name.padEnd(47)} ${row.measures.padEnd(18)} ${`${row.median_ms.toFixed(1)} ms`.padStart(8)} ${`${row.p90_ms.toFixed(1)} ms`.padStart(8)} ${row.ratio_to_node.toFixed(2).padStart(7)}  ${goal}`,
    );
  }
}
