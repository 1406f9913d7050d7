// The two ends of CI around the README's test command (.ci/run runs `install`, `npm test`, `finish`):
//   install  `npm ci` as a phase (its time, a line every 5 s while it runs, its chatter in a log)
//   finish   the unpacked .vsix in the extension host, the benchmark's quick run, the eval's offline run, then
//            one summary line and the plain `ci: N passed, N failed` line that CI's reader counts.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { phaseTable, writePhaseReport } = require('./lib/phaseTable');
const { nodePhase, runPhase, runScript, say } = require('./lib/phases');

const root = path.resolve(__dirname, '..');
const artifacts = path.join(root, 'test-artifacts');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

async function install() {
  // What the suites may depend on and a CI job may lack (its extension host once ran without $SHELL).
  const env = (name) => process.env[name] || '(unset)';
  say(
    `ci: node ${process.version}, ${process.platform}, ${os.cpus().length} cpus, uid ${process.getuid?.() ?? '-'}, ` +
      `SHELL ${env('SHELL')}, HOME ${env('HOME')}, LANG ${env('LANG')}, TERM ${env('TERM')}`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = await runPhase({
    name: 'npm ci',
    command: npm,
    args: ['ci', '--no-audit', '--no-fund'],
    cwd: root,
    log: path.join(artifacts, 'npm-ci.log'),
  });
  return result.ok ? 0 : 1;
}

async function finish() {
  const tests = readJson(path.join(artifacts, 'test-summary.json'));
  const phases = [];
  /** Awaits a phase and adds its row; `count` reads its tests from its report once it passed. */
  const timed = async (result, count = () => 0) => {
    const done = await result;
    phases.push({ name: done.name, ms: done.ms, tests: done.ok ? count(done) : 0 });
    return done;
  };
  const vsix = await timed(vsixPhase(), () => readJson(path.join(artifacts, 'vsix-summary.json')).passing);
  if (!vsix.ok) return 1;
  const vsixHost = readJson(path.join(artifacts, 'vsix-summary.json'));
  const bench = await timed(benchPhase());
  if (!bench.ok) return 1;
  const goals = readJson(bench.report).goals;
  const met = goals.filter((goal) => goal.met).length;
  const evaluation = await timed(evalPhase(), (done) => readJson(done.report).tasks.length);
  if (!evaluation.ok) return 1;
  const runs = readJson(evaluation.report).tasks;
  const evalPassed = runs.filter((run) => run.passed).length;
  ciTable(phases);
  const passed =
    tests.unit.passing + tests.host.passing + (tests.workbench?.passing ?? 0) + vsixHost.passing + evalPassed;
  say(
    `ci: ok — unit ${tests.unit.passing}, host ${tests.host.passing}, workbench ${tests.workbench?.passing ?? 0}, vsix host ${vsixHost.passing}, bench ${met}/${goals.length} goals, eval ${evalPassed}/${runs.length} runs`,
  );
  say(`ci: ${passed} passed, 0 failed`);
  return 0;
}

/** The unpacked .vsix in the extension host. */
async function vsixPhase() {
  const name = 'integration:vsix';
  const result = await nodePhase({ name, args: [path.join(__dirname, 'testVsix.js'), '--no-checks'], cwd: root });
  return { ...result, name };
}

/**
 * The benchmark's quick run, so that it never rots: its figures are printed, its goals counted, never
 * asserted (this machine is shared and noisy).
 */
async function benchPhase() {
  const name = 'bench (quick)';
  const report = path.join(root, 'bench-report', 'quick.json');
  const args = [tsx, 'test/bench/loop/runBench.ts', '--quick', '--json', report];
  const result = await runPhase({ name, command: process.execPath, args, cwd: root });
  return { ...result, name, report };
}

/**
 * The eval's offline run (test/eval/README.md): every task over both transports, the embedded backend
 * playing each task's scripted solution, and every check failing on its untouched project. Scripted, so
 * its verdict is asserted; its times are printed only.
 */
async function evalPhase() {
  const name = 'eval (offline)';
  const report = path.join(artifacts, 'eval', 'eval.json');
  const args = [tsx, 'test/eval/runEval.ts', '--jobs', '2', '--json', report];
  const result = await runPhase({ name, command: process.execPath, args, cwd: root });
  return { ...result, name, report };
}

/** npm test's phases and CI's own in one table (and test-artifacts/ci-phases.json). */
function ciTable(own) {
  const file = path.join(artifacts, 'test-phases.json');
  const fromTest = fs.existsSync(file) ? readJson(file) : { phases: [], slowest: [] };
  const phases = [...fromTest.phases, ...own];
  for (const line of phaseTable(phases, fromTest.slowest)) say(line);
  writePhaseReport(path.join(artifacts, 'ci-phases.json'), phases, fromTest.slowest);
}

const steps = { install, finish };
const step = steps[process.argv[2]];
if (!step) {
  console.error(`usage: node scripts/ci.js ${Object.keys(steps).join('|')}`);
  process.exitCode = 2;
} else runScript(step);
