import * as assert from 'node:assert/strict';
import { carryChange, changeHunks, withHunks } from '../../../src/edit';

// A change between two texts carried onto a third that the user changed elsewhere: what an inline edit's
// streaming steps and its Undo stand on.

const FROM = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';

describe('edit: a change carried onto a text changed elsewhere', () => {
  it('cuts the change into hunks with their context', () => {
    const hunks = changeHunks(FROM, FROM.replace('two\n', 'TWO\n').replace('nine\n', ''));
    assert.deepEqual(
      hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newLines, hunk.contextBefore.length]),
      [
        [2, ['two'], ['TWO'], 1],
        [9, ['nine'], [], 3],
      ],
    );
  });

  it('makes the change where the lines are now, and keeps the other change', () => {
    const typed = `zero\n${FROM.replace('six\n', 'six and more\n')}`;
    const carried = carryChange(FROM, FROM.replace('two\n', 'TWO\n').replace('nine\n', ''), typed);
    assert.ok(carried.ok);
    assert.equal(carried.value, typed.replace('two\n', 'TWO\n').replace('nine\n', ''));
  });

  it('refuses when the lines it changes were changed too', () => {
    const carried = carryChange(FROM, FROM.replace('two\n', 'TWO\n'), FROM.replace('two\n', 'deux\n'));
    assert.equal(carried.ok, false);
  });

  it('keeps CRLF line endings', () => {
    const crlf = FROM.replace(/\n/g, '\r\n');
    const carried = carryChange(FROM, FROM.replace('three\n', 'THREE\nAND\n'), crlf);
    assert.ok(carried.ok);
    assert.equal(carried.value, crlf.replace('three\r\n', 'THREE\r\nAND\r\n'));
  });

  it('applies hunks at their own lines', () => {
    const to = FROM.replace('four\n', '4\n');
    assert.equal(withHunks(FROM, changeHunks(FROM, to)), to);
    assert.equal(withHunks('other\n', changeHunks(FROM, to)), undefined);
  });
});
