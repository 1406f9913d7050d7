// Counts a mocha spec-reporter run as its lines go by (for the quiet-clock line) and reads its closing
// lines (for the phase's end line and the run's summary). Works on the unit run and on the extension host's.
'use strict';

const { stripVTControlCharacters } = require('node:util');

/** A reporter line without its colour codes (a reporter run with colours on). */
const plain = (line) => stripVTControlCharacters(line);

/** A fresh tally: feed it each output line with `line()`, read `counts()` at the end. */
function mochaTally() {
  let seen = { passing: 0, failing: 0, pending: 0 };
  let closing;
  let inEpilogue = false;
  return {
    line(raw) {
      const line = plain(raw);
      const ended = /^\s*(\d+) (passing|failing|pending)\b/.exec(line);
      if (ended) {
        inEpilogue = true;
        closing ??= { passing: 0, failing: 0, pending: 0 };
        closing[ended[2]] = Number(ended[1]);
        return;
      }
      if (inEpilogue) return;
      if (/^\s*[✔✓] /.test(line)) seen.passing += 1;
      else if (/^\s+\d+\) /.test(line)) seen.failing += 1;
      else if (/^\s+- /.test(line)) seen.pending += 1;
    },
    /** What mocha's closing lines said, or what was seen so far when it never got there. */
    counts() {
      return { ...(closing ?? seen), finished: closing !== undefined };
    },
    /** `212 passing, 1 failing` so far. */
    note() {
      const now = closing ?? seen;
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
