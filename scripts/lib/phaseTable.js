// The table `npm test` (and CI's finish) ends with: each phase's wall time and test count, then the slowest
// test files, so that a change that slows the suite shows in its own run (issue 52). The same figures go to
// a JSON file: { "phases": [ { "name", "ms", "tests", "beside"? } ], "slowest": [ { "file", "ms" } ] }, where
// `beside` names the phase one ran beside (the host suite, beside the unit phase): the total leaves it out,
// so that it is the run's wall time, not a sum of overlapping ones.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { formatDuration } = require('./phases');
const { readFileTimes } = require('./fileTimes');

/** The `count` slowest files over the given times files (fileTimes.js), slowest first. */
function slowestFiles(timesFiles, count = 10) {
  return timesFiles
    .flatMap((file) => readFileTimes(file))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

/** The table's lines: one per phase (name, time, and its tests where it ran any), then the slowest files. */
function phaseTable(phases, slowest) {
  const width = Math.max(5, ...phases.map((phase) => phase.name.length));
  const total = phases.reduce((sum, phase) => sum + (phase.beside ? 0 : phase.ms), 0);
  const row = (name, ms, tests, beside) =>
    `  ${name.padEnd(width)}  ${formatDuration(ms).padStart(9)}${tests ? `  ${String(tests).padStart(5)} tests` : ''}` +
    (beside ? `  (beside ${beside})` : '');
  const lines = [
    'phases:',
    ...phases.map((phase) => row(phase.name, phase.ms, phase.tests, phase.beside)),
    row('total', total),
  ];
  if (slowest.length > 0) {
    lines.push(`slowest ${slowest.length} test files:`);
    for (const { file, ms } of slowest) lines.push(`  ${formatDuration(ms).padStart(9)}  ${file}`);
  }
  return lines;
}

/** Writes the figures as JSON to `file` (its folder made where missing). */
function writePhaseReport(file, phases, slowest) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const report = {
    phases: phases.map(({ name, ms, tests, beside }) => ({
      name,
      ms,
      tests: tests ?? 0,
      ...(beside ? { beside } : {}),
    })),
    slowest,
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The value of `--json FILE` (or `--json=FILE`) in `argv`, resolved from `cwd`; undefined without one. */
function jsonTarget(argv, cwd) {
  const at = argv.findIndex((arg) => arg === '--json' || arg.startsWith('--json='));
  if (at === -1) return undefined;
  const value = argv[at].startsWith('--json=') ? argv[at].slice('--json='.length) : argv[at + 1];
  if (!value || value.startsWith('--')) throw new Error('--json needs a file: npm test -- --json FILE');
  return path.resolve(cwd, value);
}

module.exports = { jsonTarget, phaseTable, slowestFiles, writePhaseReport };
