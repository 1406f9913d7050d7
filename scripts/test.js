// `npm test`: everything a change must pass, from a fresh clone. First what the machine must provide (the
// dependencies, ripgrep, Chromium, a VS Code to test in), installed where it may be and otherwise named in
// one line before anything is built; then typecheck and lint side by side, the format check, the bundles,
// every unit test (Chromium included; two files at a time, one per core) with the extension-host suite beside
// it, and the workbench's. Each phase ends with one line and its time; the tests' own output goes to test-artifacts/*.log
// and is shown when something fails. The run ends with a table of the phases' times and the slowest test
// files, also in test-artifacts/test-phases.json (and in FILE with --json FILE). The counts are kept in
// test-artifacts/test-summary.json for CI's summary line.
// Usage: npm test [-- --verbose] [-- --json FILE]   (--verbose streams every phase's output as it comes)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { formatDuration, runScript, say } = require('./lib/phases');
const { jsonTarget, phaseTable, slowestFiles, writePhaseReport } = require('./lib/phaseTable');
const { missingNodeModules, provideSystemPackages, root } = require('./lib/provision');
const { testVscode } = require('./lib/testVscode');
const { checkPhases, bundlePhase, mochaPhase } = require('./lib/testPhases');

const who = 'npm test';
const artifacts = path.join(root, 'test-artifacts');
const verbose = process.argv.includes('--verbose');
const started = Date.now();
/** The phases run so far, `{ name, ms, tests }`, for the closing table. */
const phases = [];
/** Where each mocha phase's per-file times go (scripts/lib/fileTimes.js). */
const fileTimes = (name) => path.join(artifacts, `file-times-${name}.jsonl`);
const mocha = require.resolve('mocha/bin/mocha.js', { paths: [root] });
const none = { passing: 0, failing: 0, pending: 0 };

/**
 * Runs `fn` as the phase `name` of the table; `tests(result)` counts its tests. `beside`: the phase it runs
 * beside, whose time already holds its own (the table's total leaves it out).
 */
async function timed(name, fn, tests = () => 0, beside = undefined) {
  const at = Date.now();
  // The row is placed when the phase starts, so phases run side by side keep their order in the table.
  const row = { name, ms: 0, tests: 0, ...(beside ? { beside } : {}) };
  phases.push(row);
  const result = await fn();
  Object.assign(row, { ms: Date.now() - at, tests: tests(result) });
  return result;
}

const counted = (result) => result.counts.passing + result.counts.failing + result.counts.pending;

/** A mocha phase whose files' times are kept, as a row of the table. */
function timedMocha(name, { args, env = process.env, log, beside }) {
  fs.rmSync(fileTimes(name), { force: true });
  return timed(
    name,
    () => mochaPhase({ name, args, env: { ...env, LOOPWIRE_FILE_TIMES: fileTimes(name) }, log }),
    counted,
    beside,
  );
}

async function main() {
  const missing = missingNodeModules();
  if (missing.length > 0) {
    say(`${who}: the dependencies are not installed (${missing.join(', ')}): run \`npm install\` first.`);
    return 1;
  }
  fs.mkdirSync(artifacts, { recursive: true });
  const vscode = await timed('provision', async () => {
    if (!(await provideSystemPackages(who, artifacts))) return undefined;
    return testVscode(who, artifacts);
  });
  if (!vscode) return 1;
  say(`${who}: testing in VS Code from ${vscode.from}`);

  if (!(await timed('typecheck, lint, format', () => checkPhases({ verbose })))) return 1;
  if (!(await timed('bundle', () => bundlePhase({ tests: true })))) return 1;
  return runSuites(vscode);
}

/**
 * The unit and extension-host suites side by side, then the workbench's, the run stopping where one fails.
 * The host suite waits on VS Code far more than it computes (its processes use about a quarter of its wall
 * time), so beside the unit phase it costs little and saves its two minutes. --verbose runs them one after
 * the other, so that what streams reads in order.
 */
async function runSuites(vscode) {
  const unitRun = timedMocha('unit', {
    // Two files at a time: most of a unit file's time is waiting on sockets, processes and Chromium. The
    // phase is test/unit and the panel's Chromium tests, which sit beside their harness in test/webview.
    args: [mocha, '--parallel', '--jobs', '2', ...fileTimesHook(), 'test/unit/**/*.test.ts', 'test/webview/*.test.ts'],
    log: verbose ? undefined : path.join(artifacts, 'unit.log'),
  });
  const hostRun = (beside) =>
    timedMocha('host', {
      args: [path.join(root, 'dist-test', 'host', 'runTests.js')],
      env: { ...process.env, VSCODE_EXECUTABLE: vscode.executable },
      // The host's own chatter (its failed network lookups, with stack traces) stays in the log.
      log: path.join(artifacts, 'host.log'),
      beside,
    });
  const hostBeside = verbose ? undefined : hostRun('unit');
  const unit = await unitRun;
  writeSummary({ unit: unit.counts });
  if (!unit.ok) {
    await hostBeside;
    return 1;
  }
  const host = await (hostBeside ?? hostRun());
  writeSummary({ unit: unit.counts, host: host.counts });
  if (!host.ok) return 1;

  // The chat panel in the real workbench (code-server, driven through Chromium): only the shared host has one.
  let workbench = { ok: true, counts: none };
  if (vscode.workbench)
    workbench = await timedMocha('workbench', {
      args: [mocha, ...fileTimesHook(), 'test/workbench/*.test.ts'],
      log: verbose ? undefined : path.join(artifacts, 'workbench.log'),
    });
  else say(`${who}: the workbench suite needs code-server from ../shared/vscode-host; it was not run.`);
  writeSummary({ unit: unit.counts, host: host.counts, workbench: workbench.counts });
  if (!workbench.ok) return 1;

  const suites = [unit.counts, host.counts, workbench.counts];
  const passed = suites.reduce((n, counts) => n + counts.passing, 0);
  const pending = suites.reduce((n, counts) => n + counts.pending, 0);
  say(
    `${who}: ok — unit ${unit.counts.passing}, host ${host.counts.passing}, workbench ${workbench.counts.passing} in ${formatDuration(Date.now() - started)}`,
  );
  say(`tests: ${passed} passed, 0 failed${pending ? `, ${pending} skipped` : ''}`);
  return 0;
}

/** mocha's arguments that load the per-file timer. */
const fileTimesHook = () => ['--require', path.join(__dirname, 'lib', 'fileTimes.js')];

/** The counts so far, for CI's summary line (and for anyone who wants them without reading logs). */
function writeSummary(counts) {
  fs.writeFileSync(
    path.join(artifacts, 'test-summary.json'),
    `${JSON.stringify({ ...counts, ms: Date.now() - started }, null, 2)}\n`,
  );
}

/** The closing table, on the console and in the JSON files, whether the run passed or not. */
function report() {
  const slowest = slowestFiles(['unit', 'host', 'workbench'].map(fileTimes));
  for (const line of phaseTable(phases, slowest)) say(line);
  writePhaseReport(path.join(artifacts, 'test-phases.json'), phases, slowest);
  const target = jsonTarget(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  if (target) writePhaseReport(target, phases, slowest);
}

runScript(async () => {
  // A bad --json is said before anything runs, not after twenty minutes.
  jsonTarget(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  const code = await main();
  if (phases.length > 0) report();
  if (code !== 0) say(`${who}: failed after ${formatDuration(Date.now() - started)}`);
  return code;
});
