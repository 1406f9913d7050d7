// Done when the tests pass with the test file as it was, and the parser reads durations the tests do not try.
'use strict';
const { check } = require('../checkLib');

check(__dirname, ({ unchanged, succeeds, load, expect }) => {
  unchanged('test/duration.test.js');
  succeeds(process.execPath, ['--test'], 'the tests fail');
  const { parseDuration } = load('src/duration.js');
  expect(parseDuration('10h') === 600, `parseDuration('10h') is ${parseDuration('10h')}, not 600`);
  expect(parseDuration('2h15m') === 135, `parseDuration('2h15m') is ${parseDuration('2h15m')}, not 135`);
  expect(parseDuration('7m') === 7, `parseDuration('7m') is ${parseDuration('7m')}, not 7`);
});
