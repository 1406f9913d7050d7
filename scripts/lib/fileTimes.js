// How long each test file took, for the slowest-files list of `npm test` (issue 52). Loaded by mocha as a
// root hook plugin (`--require scripts/lib/fileTimes.js`) with LOOPWIRE_FILE_TIMES naming a file: each
// file's wall time, its before and after hooks included, is appended there as one JSON line. It works in
// both of mocha's modes: serially the root suite holds every file's suites, one after another; in parallel
// mode each worker runs one file under a root suite of its own. A file's time runs from the end of the one
// before it (or the run's start) to the end of its last top-level suite.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** Adds to `times` (file → ms) as each top-level suite of `root` ends. */
function timeFiles(root, times) {
  let mark = Date.now();
  for (const suite of root.suites) {
    suite.afterAll(function recordFileTime() {
      const now = Date.now();
      const file = suite.file ?? '(no file)';
      times.set(file, (times.get(file) ?? 0) + (now - mark));
      mark = now;
    });
  }
}

const target = process.env.LOOPWIRE_FILE_TIMES;
const times = new Map();

const mochaHooks = target
  ? {
      beforeAll() {
        timeFiles(this.test.parent, times);
      },
      afterAll() {
        const lines = [...times].map(([file, ms]) => JSON.stringify({ file: relative(file), ms }));
        times.clear();
        if (lines.length > 0) fs.appendFileSync(target, `${lines.join('\n')}\n`);
      },
    }
  : {};

/** The checkout this file is in: file names are given from there (`test/unit/x.test.ts`). */
const root = path.resolve(__dirname, '..', '..');

/** `test/unit/x.test.ts` rather than an absolute path. */
function relative(file) {
  return path.isAbsolute(file) ? path.relative(root, file).split(path.sep).join('/') : file;
}

/** The JSON lines of a times file as `{ file, ms }`, or none where it does not exist. */
function readFileTimes(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

module.exports = { mochaHooks, readFileTimes, timeFiles };
