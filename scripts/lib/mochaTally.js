// Counts a mocha spec-reporter run as its lines go by (for the quiet-clock line) and reads its closing
// lines (for the phase's end line and the run's summary). Works on the unit run and on the extension host's.
'use strict';

const { stripVTControlCharacters } = require('node:util');

/** A reporter line without its colour codes (a reporter run with colours on). */
const plain = (line) => stripVTControlCharacters(line);

/** A fresh tally: feed it each output line with `line()`, read `counts()` at the end. */
function mochaTally() {
  let seen = { passing: 0, failing: 0, pending: 0 };
  /** The closing counts of each run so far: the extension host's phase is two windows, two mocha runs. */
  const runs = [];
  let inEpilogue = false;
  const total = () =>
    runs.reduce(
      (sum, run) => ({
        passing: sum.passing + run.passing,
        failing: sum.failing + run.failing,
        pending: sum.pending + run.pending,
      }),
      { passing: 0, failing: 0, pending: 0 },
    );
  return {
    line(raw) {
      const line = plain(raw);
      const ended = /^\s*(\d+) (passing|failing|pending)\b/.exec(line);
      if (ended) {
        // `N passing` opens a run's closing lines; its pending and failing counts follow it.
        if (ended[2] === 'passing' || runs.length === 0) runs.push({ passing: 0, failing: 0, pending: 0 });
        inEpilogue = true;
        runs[runs.length - 1][ended[2]] = Number(ended[1]);
        return;
      }
      if (inEpilogue) return;
      if (/^\s*[✔✓] /.test(line)) seen.passing += 1;
      else if (/^\s+\d+\) /.test(line)) seen.failing += 1;
      else if (/^\s+- /.test(line)) seen.pending += 1;
    },
    /** What the runs' closing lines said, added up, or what was seen so far when none got there. */
    counts() {
      return { ...(runs.length > 0 ? total() : seen), finished: runs.length > 0 };
    },
    /** `212 passing, 1 failing` so far. */
    note() {
      const now = runs.length > 0 ? total() : seen;
      return [`${now.passing} passing`, now.failing ? `${now.failing} failing` : ''].filter(Boolean).join(', ');
    },
  };
}

/** The part of a mocha run's output that explains its failures: from its closing count lines on. */
function mochaFailures(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /^\s*\d+ passing\b/.test(plain(line)));
  return start === -1 ? lines.slice(-60).join('\n') : lines.slice(start).join('\n');
}

module.exports = { mochaFailures, mochaTally };
