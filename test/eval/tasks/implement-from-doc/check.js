// Done when wrapText does what its doc comment says, on cases the task's text does not show.
'use strict';
const { check } = require('../checkLib');

const CASES = [
  ['the quick brown fox', 10, 'the quick\nbrown fox'],
  ['the quick brown fox', 9, 'the quick\nbrown fox'],
  ['the quick brown fox', 8, 'the\nquick\nbrown\nfox'],
  ['  spaced   out\ttext\n here ', 11, 'spaced out\ntext here'],
  ['a supercalifragilistic word', 6, 'a\nsupercalifragilistic\nword'],
  ['one', 3, 'one'],
  ['', 5, ''],
  ['   \n ', 5, ''],
  ['a b c d e f', 3, 'a b\nc d\ne f'],
];

check(__dirname, ({ load, expect, succeeds }) => {
  const { wrapText, padRight } = load('src/text.js');
  expect(typeof wrapText === 'function', 'src/text.js exports no wrapText');
  for (const [text, width, want] of CASES) {
    let got;
    try {
      got = wrapText(text, width);
    } catch (error) {
      got = `(threw ${error})`;
    }
    expect(
      got === want,
      `wrapText(${JSON.stringify(text)}, ${width}) is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`,
    );
  }
  for (const width of [0, -1, 2.5, Number.NaN]) {
    let thrown;
    try {
      wrapText('a b', width);
    } catch (error) {
      thrown = error;
    }
    expect(thrown instanceof RangeError, `wrapText('a b', ${width}) does not throw a RangeError`);
  }
  expect(padRight('ab', 3) === 'ab ', 'padRight no longer pads');
  succeeds(process.execPath, ['--test'], 'the tests fail');
});
