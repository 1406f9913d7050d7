import * as assert from 'node:assert/strict';
import { selectedLines } from '../../../src/extension/commands/selectedLines';

const at = (line: number, character: number) => ({ line, character });

describe('Explain Selection: the lines a selection covers', () => {
  it('does not take the next line when the selection ends at its column 0', () => {
    // Lines 10–14 selected whole (0-based 9..13), the cursor left at the start of line 15.
    assert.deepEqual(selectedLines({ start: at(9, 0), end: at(14, 0) }), { first: 10, last: 14 });
  });
  it('counts a line the selection ends inside', () => {
    assert.deepEqual(selectedLines({ start: at(9, 4), end: at(14, 3) }), { first: 10, last: 15 });
  });
  it('keeps a one-line selection, even an empty-ended one on the same line', () => {
    assert.deepEqual(selectedLines({ start: at(3, 2), end: at(3, 9) }), { first: 4, last: 4 });
    assert.deepEqual(selectedLines({ start: at(3, 0), end: at(3, 0) }), { first: 4, last: 4 });
  });
});
