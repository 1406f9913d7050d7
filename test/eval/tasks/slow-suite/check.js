// Done when the slow suite passes as it was given, and retry makes exactly the attempts it is allowed.
'use strict';
const { check } = require('../checkLib');

const PROBE = `
const { retry } = require('./src/retry');
(async () => {
  for (const attempts of [1, 2, 5]) {
    let calls = 0;
    const failing = retry(async () => { calls++; throw new Error('no'); }, { attempts, delayMs: 1 });
    await failing.then(() => { throw new Error('a failing operation resolved'); }, () => {});
    if (calls !== attempts) throw new Error(attempts + ' attempts allowed, ' + calls + ' made');
  }
})().catch((error) => { console.error(error.message); process.exitCode = 1; });
`;

check(__dirname, ({ unchanged, succeeds }) => {
  unchanged('test/client.test.js');
  succeeds(process.execPath, ['--test'], 'the suite fails', { timeoutS: 120 });
  succeeds(process.execPath, ['-e', PROBE], 'retry makes the wrong number of attempts');
});
