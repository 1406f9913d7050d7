import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { copyDemo } from '../../workbench/codeServer';
import { scenarios } from '../../workbench/inlineWorkbench';
import { type Workbench, startWorkbench, until } from '../../workbench/workbench';
import { thisMachine } from '../loop/machine';
import { startServerProcess } from '../loop/serverProcess';
import {
  type InlineKind,
  type InlineResults,
  type InlineSample,
  inlineGoals,
  inlineLines,
  inlineRow,
} from './inlineFigures';
import { type RunContext, ctrlIRun, lightBulbRun } from './inlineRuns';

// `npm run bench -- --inline` (or `npx tsx test/bench/inline/inlineBench.ts`): an inline edit where a VS Code
// user makes it, timed (issue 47, item 2). The workbench suite's code-server (../shared/vscode-host) in headless
// Chromium, Loopwire from dist/, on a copy of the demo workspace; the model is the bundled loopwire-server in
// its own process with the inline suites' scenarios (inlineWorkbench.ts) before its defaults, at its default
// rate (1,000 tokens/s, as the embedded backend). Each window runs Ctrl+I and the light bulb's fix in turn
// (inlineRuns.ts), its first run cold; window 0 starts with Ctrl+I, window 1 with the fix, so each kind has a
// cold run that is its window's first inline edit. Figures on the page's clock (inlineFigures.ts).

const ROOT = path.resolve(__dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'bench-inline');
const KINDS: InlineKind[] = ['ctrl-i', 'light-bulb'];
const loadAvg = () => os.loadavg().map((load) => Math.round(load * 100) / 100);
const log = (line: string) => process.stderr.write(`${line}\n`);

export interface InlineBenchOptions {
  json: string | undefined;
  /** Warm runs of each kind in all (8 by default), shared out over the windows. */
  runs?: number;
  /** Windows started one after the other (2 by default: each kind's cold run is a window's first). */
  windows?: number;
}

/** The extension host's Loopwire log, read whole (its LogOutputChannel's file under code-server's logs). */
function hostLog(userData: string): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('Loopwire.log')) found.push(full);
    }
  };
  walk(path.join(userData, 'logs'));
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** The demo copy with no workspace endpoint (the demo's own pins the embedded backend): the user's names ours. */
function writeWorkspace(folder: string): void {
  copyDemo(folder);
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), '{}\n');
}

/**
 * Waits until dist/'s bundles are there and unchanged for 3 s: others rebuild it in a shared checkout, and a
 * window installs whatever it holds (a bundle half written would be no Loopwire at all).
 */
async function distSettled(): Promise<void> {
  const bundles = ['extension.js', 'runtime.js', 'webview.js'].map((name) => path.join(ROOT, 'dist', name));
  await until(
    'dist/ built and settled',
    () => {
      if (!bundles.every((file) => fs.existsSync(file))) return undefined;
      const newest = Math.max(...bundles.map((file) => fs.statSync(file).mtimeMs));
      return Date.now() - newest > 3_000 ? true : undefined;
    },
    180_000,
    500,
  );
}

/** One window: its first run of `first` cold, then the other kind's first, then `warm` of each, alternating. */
async function runWindow(serverUrl: string, window: number, warm: number): Promise<InlineSample[]> {
  const first = KINDS[window % KINDS.length] ?? 'ctrl-i';
  const order = KINDS[0] === first ? KINDS : [...KINDS].reverse();
  log(`  window ${window}: starting the workbench (code-server, Chromium)…`);
  await distSettled();
  const workbench: Workbench = await startWorkbench({
    workspace: writeWorkspace,
    userSettings: { 'loopwire.endpoint': serverUrl },
    artifacts: path.join(ARTIFACTS, `window-${window}`),
  });
  const samples: InlineSample[] = [];
  try {
    const read = () => hostLog(workbench.userData);
    // The window's own start (the session and socket made ready for a first prompt) is not the edit's.
    await until(
      'the window ready for a first prompt',
      () => (/ready for a first prompt/.test(read()) ? true : undefined),
      60_000,
    );
    for (let index = 0; index < (warm + 1) * order.length; index++) {
      const kind = order[index % order.length] ?? 'ctrl-i';
      const phase = index === 0 ? 'cold' : index < order.length ? 'first-of-kind' : 'warm';
      const context: RunContext = { workbench, log: read, window, index, phase };
      const sample = await (kind === 'ctrl-i' ? ctrlIRun(context) : lightBulbRun(context));
      samples.push(sample);
      log(
        `    ${kind} (${phase}): first line ${sample.first_line_ms.toFixed(0)} ms (whole ${sample.first_line_whole_ms.toFixed(0)} ms, log ${sample.host?.total_ms.toFixed(0) ?? '—'}), lenses ${sample.lens_after_end_ms.toFixed(0)} ms after the end, ${sample.lens_after_keep_ms.toFixed(0)} ms after Keep`,
      );
    }
    await workbench.screenshot('after-runs');
    // The extension's log beside the screenshots: its lines say where each run's time went (inlineTiming.ts).
    fs.writeFileSync(path.join(ARTIFACTS, `window-${window}`, 'loopwire.log'), read());
  } catch (error) {
    await workbench.screenshot('failed').catch(() => undefined);
    throw error;
  } finally {
    await workbench.close();
  }
  return samples;
}

export async function runInlineBench(options: InlineBenchOptions): Promise<InlineResults> {
  const runs = options.runs ?? 8;
  const windows = Math.max(1, options.windows ?? 2);
  const started = new Date();
  const loadStart = loadAvg();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-bench-inline-'));
  const scenarioFile = path.join(base, 'inline-scenarios.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(scenarios(path.join(base, 'release-chat'))));
  const server = await startServerProcess(['--scenario', scenarioFile], { auth: false });
  const samples: InlineSample[] = [];
  try {
    for (let window = 0; window < windows; window++) {
      const warm = Math.ceil(runs / windows);
      samples.push(...(await runWindow(server.url, window, warm)));
    }
  } finally {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  const inline = KINDS.map((kind) => inlineRow(kind, samples));
  const results: InlineResults = {
    started_at: started.toISOString(),
    machine: { ...thisMachine(), load_avg_start: loadStart, load_avg_end: loadAvg() },
    backend: 'loopwire-server in its own process, 1,000 tokens/s (its default, as the embedded backend)',
    inline,
    goals: inlineGoals(inline),
    samples,
  };
  console.log(inlineLines(results).join('\n'));
  const json = options.json ?? path.join(ROOT, 'bench-report', 'inline.json');
  fs.mkdirSync(path.dirname(path.resolve(json)), { recursive: true });
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\njson: ${json}\nscreenshots: ${path.relative(ROOT, ARTIFACTS)}/`);
  return results;
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { json: { type: 'string' }, runs: { type: 'string' }, windows: { type: 'string' } },
  });
  runInlineBench({
    json: values.json,
    ...(values.runs ? { runs: Number(values.runs) } : {}),
    ...(values.windows ? { windows: Number(values.windows) } : {}),
  }).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
