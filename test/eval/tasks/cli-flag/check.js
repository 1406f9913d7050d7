// Done when `greet --shout` prints its greetings in upper case, the rest works as before, and a new test
// covers the flag: the tests pass, and the new test file fails against the command as it was.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { check, countTests } = require('../checkLib');

check(__dirname, ({ run, read, original, expect, succeeds }) => {
  const greet = (...args) => run(process.execPath, ['bin/greet.js', ...args]);
  const shouted = greet('--shout', 'Ada');
  expect(shouted.code === 0, `greet --shout Ada exits ${shouted.code}: ${shouted.output.trim()}`);
  expect(shouted.output === 'HELLO, ADA!\n', `greet --shout Ada prints ${JSON.stringify(shouted.output)}`);
  const two = greet('Ada', '--shout', 'Alan');
  expect(two.output === 'HELLO, ADA!\nHELLO, ALAN!\n', `greet Ada --shout Alan prints ${JSON.stringify(two.output)}`);
  expect(greet('--shout').output === 'HELLO, WORLD!\n', 'greet --shout does not shout at the world');
  expect(greet('Ada').output === 'Hello, Ada!\n', 'greet Ada no longer prints Hello, Ada!');
  expect(greet('--loud').code === 2, 'greet --loud no longer refuses an unknown option');
  expect(greet('--help').output.includes('--shout'), 'greet --help does not mention --shout');

  const tests = read('test/cli.test.js');
  expect(countTests(tests) > countTests(original('test/cli.test.js')), 'test/cli.test.js has no new test');
  expect(tests.includes('--shout'), 'no test in test/cli.test.js gives --shout');
  succeeds(process.execPath, ['--test'], 'the tests fail');

  // The new tests against the command as it was: they must notice that the flag is missing.
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-greet-before-'));
  try {
    fs.cpSync(path.join(__dirname, 'fixture'), before, { recursive: true });
    fs.writeFileSync(path.join(before, 'test', 'cli.test.js'), tests);
    const result = spawnSync(process.execPath, ['--test'], { cwd: before, encoding: 'utf8' });
    expect(result.status !== 0, 'the tests of test/cli.test.js pass without the flag too: none tests it');
  } finally {
    fs.rmSync(before, { recursive: true, force: true });
  }
});
