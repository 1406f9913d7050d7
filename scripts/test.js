// `npm test`: everything a change must pass, from a fresh clone. First what the machine must provide (the
// dependencies, ripgrep, Chromium, a VS Code to test in), installed where it may be and otherwise named in
// one line before anything is built; then typecheck and lint side by side, the format check, the bundles,
// every unit test (Chromium included) and the extension-host suite. Each phase ends with one line and its
// time; the tests' own output goes to test-artifacts/*.log and is shown when something fails. The counts
// are kept in test-artifacts/test-summary.json for CI's summary line.
// Usage: npm test [-- --verbose]   (--verbose streams every phase's output as it comes)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { formatDuration, runScript, say } = require('./lib/phases');
const { missingNodeModules, provideSystemPackages, root } = require('./lib/provision');
const { testVscode } = require('./lib/testVscode');
const { checkPhases, bundlePhase, mochaPhase } = require('./lib/testPhases');

const who = 'npm test';
const artifacts = path.join(root, 'test-artifacts');
const verbose = process.argv.includes('--verbose');
const started = Date.now();

async function main() {
  const missing = missingNodeModules();
  if (missing.length > 0) {
    say(`${who}: the dependencies are not installed (${missing.join(', ')}): run \`npm install\` first.`);
    return 1;
  }
  fs.mkdirSync(artifacts, { recursive: true });
  if (!(await provideSystemPackages(who, artifacts))) return 1;
  const vscode = await testVscode(who, artifacts);
  if (!vscode) return 1;
  say(`${who}: testing in VS Code from ${vscode.from}`);

  if (!(await checkPhases({ verbose }))) return 1;
  if (!(await bundlePhase({ tests: true }))) return 1;

  const unit = await mochaPhase({
    name: 'unit',
    args: [require.resolve('mocha/bin/mocha.js', { paths: [root] }), 'test/unit/**/*.test.ts'],
    log: verbose ? undefined : path.join(artifacts, 'unit.log'),
  });
  writeSummary({ unit: unit.counts });
  if (!unit.ok) return 1;

  const host = await mochaPhase({
    name: 'host',
    args: [path.join(root, 'dist-test', 'integration', 'runTests.js')],
    env: { ...process.env, VSCODE_EXECUTABLE: vscode.executable },
    // The host's own chatter (its failed network lookups, with stack traces) stays in the log.
    log: path.join(artifacts, 'host.log'),
  });
  writeSummary({ unit: unit.counts, host: host.counts });
  if (!host.ok) return 1;

  // The chat panel in the real workbench (code-server, driven through Chromium): only the shared host has one.
  const none = { passing: 0, failing: 0, pending: 0 };
  let workbench = { ok: true, counts: none };
  if (vscode.workbench)
    workbench = await mochaPhase({
      name: 'workbench',
      args: [require.resolve('mocha/bin/mocha.js', { paths: [root] }), 'test/workbench/*.test.ts'],
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

/** The counts so far, for CI's summary line (and for anyone who wants them without reading logs). */
function writeSummary(counts) {
  fs.writeFileSync(
    path.join(artifacts, 'test-summary.json'),
    `${JSON.stringify({ ...counts, ms: Date.now() - started }, null, 2)}\n`,
  );
}

runScript(async () => {
  const code = await main();
  if (code !== 0) say(`${who}: failed after ${formatDuration(Date.now() - started)}`);
  return code;
});
