import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from './support/runProcess';
import { tempWorkspace } from './support/tempWorkspace';

// The table `npm test` ends with (issue 52): each phase's time and tests, the slowest test files as the
// per-file timer (a mocha root hook plugin) measured them, serially and in mocha's parallel mode, and the
// same in JSON for whoever compares two runs.

interface Phase {
  name: string;
  ms: number;
  tests?: number;
  beside?: string;
}
interface FileTime {
  file: string;
  ms: number;
}
/* eslint-disable @typescript-eslint/no-require-imports -- the scripts are CommonJS, run by node as they are */
const { jsonTarget, phaseTable, slowestFiles, writePhaseReport } = require('../../scripts/lib/phaseTable') as {
  jsonTarget: (argv: string[], cwd: string) => string | undefined;
  phaseTable: (phases: Phase[], slowest: FileTime[]) => string[];
  slowestFiles: (files: string[], count?: number) => FileTime[];
  writePhaseReport: (file: string, phases: Phase[], slowest: FileTime[]) => void;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const HOOK = path.join(repoRoot, 'scripts', 'lib', 'fileTimes.js');
const MOCHA = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');

/** Two test files: the slow one spends its time in a `before` hook, which counts as the file's. */
const FILES = {
  'slow.test.js': [
    "describe('slow', () => {",
    '  before((done) => setTimeout(done, 400));',
    "  it('one', () => {});",
    '});',
    "describe('slow, second suite', () => { it('two', (done) => setTimeout(done, 100)); });",
  ].join('\n'),
  'quick.test.js': "describe('quick', () => { it('one', () => {}); });",
};

describe('scripts: the phase table and the slowest test files', () => {
  for (const parallel of [false, true])
    it(`times each test file, its hooks and all its suites included (${parallel ? 'parallel' : 'serial'} mocha)`, async function () {
      this.timeout(30_000);
      const temp = await tempWorkspace(FILES, { prefix: 'file-times' });
      try {
        const times = path.join(temp.dir, 'times.jsonl');
        const files = Object.keys(FILES).map((name) => path.join(temp.dir, name));
        const args = [MOCHA, ...(parallel ? ['--parallel', '--jobs', '2'] : []), '--require', HOOK, ...files];
        const result = await runProcess(process.execPath, args, '', { ...process.env, LOOPWIRE_FILE_TIMES: times });
        assert.equal(result.code, 0, result.stdout + result.stderr);
        const slowest = slowestFiles([times, path.join(temp.dir, 'missing.jsonl')]);
        assert.deepEqual(
          slowest.map((entry) => path.basename(entry.file)),
          ['slow.test.js', 'quick.test.js'],
          'each file once, the slowest first',
        );
        // The before hook's 400 ms and the second suite's 100 ms are both the slow file's.
        assert.ok((slowest[0]?.ms ?? 0) >= 480, JSON.stringify(slowest));
        assert.ok((slowest[1]?.ms ?? Infinity) < (slowest[0]?.ms ?? 0), JSON.stringify(slowest));
      } finally {
        await temp.remove();
      }
    });

  it('writes nothing without LOOPWIRE_FILE_TIMES', async function () {
    this.timeout(30_000);
    const temp = await tempWorkspace(FILES, { prefix: 'file-times' });
    try {
      const env = { ...process.env };
      delete env['LOOPWIRE_FILE_TIMES'];
      const result = await runProcess(process.execPath, [MOCHA, '--require', HOOK, temp.dir], '', env, {
        cwd: temp.dir,
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.deepEqual((await fs.readdir(temp.dir)).sort(), ['quick.test.js', 'slow.test.js']);
    } finally {
      await temp.remove();
    }
  });

  it('prints each phase with its time and tests, a total, then the slowest files', () => {
    const lines = phaseTable(
      [
        { name: 'provision', ms: 400, tests: 0 },
        { name: 'unit', ms: 300_000, tests: 1589 },
      ],
      [{ file: 'test/unit/cli/exec.test.ts', ms: 61_000 }],
    );
    assert.deepEqual(lines, [
      'phases:',
      '  provision      0.4 s',
      '  unit        5 m 00 s   1589 tests',
      '  total       5 m 00 s',
      'slowest 1 test files:',
      '   1 m 01 s  test/unit/cli/exec.test.ts',
    ]);
  });

  it('counts a phase run beside another once: its row says so, the total is the wall time', () => {
    const lines = phaseTable(
      [
        { name: 'unit', ms: 300_000, tests: 1900 },
        { name: 'host', ms: 120_000, tests: 68, beside: 'unit' },
        { name: 'workbench', ms: 480_000, tests: 99 },
      ],
      [],
    );
    assert.deepEqual(lines, [
      'phases:',
      '  unit        5 m 00 s   1900 tests',
      '  host        2 m 00 s     68 tests  (beside unit)',
      '  workbench   8 m 00 s     99 tests',
      '  total      13 m 00 s',
    ]);
  });

  it('writes the figures as JSON, every phase with its tests, and reads --json FILE', async () => {
    const temp = await tempWorkspace({}, { prefix: 'phases' });
    try {
      const file = path.join(temp.dir, 'deep', 'phases.json');
      const phases = [
        { name: 'bundle', ms: 5_700 },
        { name: 'host', ms: 9_000, tests: 3, beside: 'unit' },
      ];
      writePhaseReport(file, phases, [{ file: 'a.test.ts', ms: 10 }]);
      assert.deepEqual(JSON.parse(await fs.readFile(file, 'utf8')), {
        phases: [
          { name: 'bundle', ms: 5_700, tests: 0 },
          { name: 'host', ms: 9_000, tests: 3, beside: 'unit' },
        ],
        slowest: [{ file: 'a.test.ts', ms: 10 }],
      });
      assert.equal(jsonTarget(['--json', 'out.json'], '/work'), '/work/out.json');
      assert.equal(jsonTarget(['--verbose', '--json=/tmp/x.json'], '/work'), '/tmp/x.json');
      assert.equal(jsonTarget(['--verbose'], '/work'), undefined);
      assert.throws(() => jsonTarget(['--json'], '/work'), /--json needs a file/);
      assert.throws(() => jsonTarget(['--json', '--verbose'], '/work'), /--json needs a file/);
    } finally {
      await temp.remove();
    }
  });
});
