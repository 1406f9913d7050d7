// Done when the Python tests pass with the tests as they were, and the reorder list is right on cases the
// tests do not try.
'use strict';
const { check } = require('../checkLib');

const PROBE = `
from inventory import Stock
stock = Stock({"a": 2, "b": 5, "c": 6})
got = stock.to_reorder({"a": 1, "b": 5, "c": 5, "d": 0, "e": 1})
assert got == ["b", "d", "e"], got
stock.take("b", 5)
assert stock.to_reorder({"b": 0}) == ["b"], stock.to_reorder({"b": 0})
`;

check(__dirname, ({ unchanged, succeeds }) => {
  unchanged('tests/test_stock.py');
  succeeds('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], 'the tests fail');
  succeeds('python3', ['-c', PROBE], 'to_reorder is wrong');
});
