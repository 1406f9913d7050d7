// `npm run eval`: real coding tasks (test/eval/tasks), each run by `loopwire exec` in a fresh copy of its
// project over WebSocket and over HTTP, each judged by its check script. Offline (no --endpoint) the embedded
// backend's scripted model plays each task's solution, which proves the harness and the checks; with
// `--endpoint URL --model M` a real model does the work. Every check is also run on its untouched project,
// where it must fail. Prints a table; `--json FILE` writes the results and FILE.html. Exit 0 only when
// every run passed and every check failed untouched; 2 on bad usage. test/eval/README.md has the details.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type EvalOptions, USAGE, UsageError, readEvalArgs } from './evalArgs';
import { renderHtml } from './evalHtml';
import { renderTable, seconds } from './evalTable';
import { loadTasks } from './evalTasks';
import type { EvalReport, EvalTask, Transport } from './evalTypes';
import { inPool } from './pool';
import { checkUntouched, runTask } from './taskRun';

async function main(argv: readonly string[]): Promise<number> {
  let options: EvalOptions | 'help';
  try {
    options = readEvalArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`eval: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (!fs.existsSync(options.cli)) {
    console.error(`eval: ${options.cli} is missing: run \`node esbuild.js\` (npm run eval does)`);
    return 1;
  }
  if (options.endpoint !== undefined && !process.env['OPENAI_API_KEY'])
    console.error('eval: OPENAI_API_KEY is not set: the endpoint may refuse every request');
  let tasks: EvalTask[];
  try {
    tasks = loadTasks(options.tasks);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`eval: ${error.message}`);
    return 2;
  }
  const started = new Date();
  console.log(
    `eval: ${tasks.length} tasks × ${options.transports.join(', ')} on ${options.endpoint ?? 'the embedded backend (scripted solutions)'}` +
      `${options.model === undefined ? '' : `, model ${options.model}`}, ${options.jobs} at a time`,
  );
  const fixtureChecks = await inPool(tasks, options.jobs, checkUntouched);
  const results = await inPool(schedule(tasks, options), options.jobs, async ({ task, transport, run }) => {
    const result = await runTask(task, transport, run, options);
    const note = result.note === '' ? '' : ` — ${result.note}`;
    const which = options.runs > 1 ? ` #${run}` : '';
    console.log(
      `  ${result.passed ? 'passed' : 'FAILED'} ${task.name}${which} (${transport}) in ${seconds(result.process_ms)}${note}`,
    );
    return result;
  });
  const report: EvalReport = {
    endpoint: options.endpoint ?? 'embedded',
    model: options.model ?? '(loopwire exec’s default)',
    started_at: started.toISOString(),
    machine: `${os.cpus().length} cpus, ${os.platform()} ${os.arch()}, node ${process.version}`,
    tasks: results,
    fixture_checks: fixtureChecks,
    ok: results.every((result) => result.passed) && fixtureChecks.every((check) => check.fails_untouched),
  };
  console.log(`\n${renderTable(report)}`);
  if (options.json !== undefined) {
    const html = options.json.replace(/\.json$/i, '') + '.html';
    fs.mkdirSync(path.dirname(options.json), { recursive: true });
    fs.writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(html, renderHtml(report));
    console.log(`eval: wrote ${path.relative(process.cwd(), options.json)} and ${path.relative(process.cwd(), html)}`);
  }
  return report.ok ? 0 : 1;
}

/**
 * Every run, interleaved: each task over each transport in turn, so that a slow moment of the machine or the
 * endpoint falls on both alike; the transports' order turns with each repetition, so neither always goes first.
 */
function schedule(
  tasks: readonly EvalTask[],
  options: EvalOptions,
): { task: EvalTask; transport: Transport; run: number }[] {
  const runs = Array.from({ length: options.runs }, (_, index) => index + 1);
  return runs.flatMap((run) => {
    const order = run % 2 === 1 ? options.transports : [...options.transports].reverse();
    return tasks.flatMap((task) => order.map((transport) => ({ task, transport, run })));
  });
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
