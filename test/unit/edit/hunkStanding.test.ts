import * as assert from 'node:assert/strict';
import { type Hunk, hunkStanding, planWrite, revertHunk } from '../../../src/edit';

// A review reads each hunk's state from the file after every change: still applied, taken back (by Reject
// or the editor's Undo), or changed by the user. Both sides may fit; the context decides.

const lines = (n: number, change: Record<number, string | null> = {}, insertAfter: Record<number, string> = {}) => {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    const changed = change[i];
    if (changed !== null) out.push(changed ?? `line ${i}`);
    const inserted = insertAfter[i];
    if (inserted !== undefined) out.push(inserted);
  }
  return `${out.join('\n')}\n`;
};

function hunksOf(before: string, after: string): { hunks: Hunk[]; after: string } {
  const plan = planWrite('notes.txt', after, { text: before, version: 1 });
  return { hunks: plan.files[0]?.hunks ?? [], after };
}

describe('edit engine: where a hunk stands in a text now', () => {
  const before = lines(30);

  it('reads a replacement as applied, taken back, or edited by the user', () => {
    const { hunks, after } = hunksOf(before, lines(30, { 10: 'line ten' }));
    const [hunk] = hunks;
    assert.ok(hunk);
    assert.deepEqual(hunkStanding(hunk, after), { side: 'new', line: 9 });
    assert.deepEqual(hunkStanding(hunk, before), { side: 'old', line: 9 });
    assert.deepEqual(hunkStanding(hunk, lines(30, { 10: 'line 10, my way' })), { side: 'neither' });
  });

  it('finds a hunk again after lines above it moved it down', () => {
    const { hunks } = hunksOf(before, lines(30, { 20: 'line twenty' }));
    const [hunk] = hunks;
    assert.ok(hunk);
    const shifted = `header 1\nheader 2\n${lines(30, { 20: 'line twenty' })}`;
    assert.deepEqual(hunkStanding(hunk, shifted), { side: 'new', line: 21 });
  });

  it('tells a deleted line taken back from one still deleted, though its context fits both ways', () => {
    const { hunks, after } = hunksOf(before, lines(30, { 15: null }));
    const [hunk] = hunks;
    assert.ok(hunk && hunk.newLines.length === 0);
    assert.equal(hunkStanding(hunk, after).side, 'new');
    assert.equal(hunkStanding(hunk, before).side, 'old');
  });

  it('tells an inserted line taken back from one still there', () => {
    const { hunks, after } = hunksOf(before, lines(30, {}, { 5: 'inserted' }));
    const [hunk] = hunks;
    assert.ok(hunk && hunk.oldLines.length === 0);
    assert.deepEqual(hunkStanding(hunk, after), { side: 'new', line: 5 });
    assert.equal(hunkStanding(hunk, before).side, 'old');
    const reverted = revertHunk(hunk, after);
    assert.ok(reverted.ok);
    assert.equal(hunkStanding(hunk, reverted.value).side, 'old');
  });

  it('a line the hunk adds that exists elsewhere does not make it look applied', () => {
    const copy = lines(30, { 3: 'same' });
    const { hunks } = hunksOf(copy, lines(30, { 3: 'same', 20: 'same' }));
    const [hunk] = hunks;
    assert.ok(hunk);
    assert.equal(hunkStanding(hunk, copy).side, 'old', 'the copy at line 3 has none of the context');
  });

  it('a created file: standing while it has its text, neither once emptied and refilled by the user', () => {
    const plan = planWrite('new.txt', 'a\nb\n', undefined);
    const [hunk] = plan.files[0]?.hunks ?? [];
    assert.ok(hunk);
    assert.equal(hunkStanding(hunk, 'a\nb\n').side, 'new');
    assert.equal(hunkStanding(hunk, '').side, 'old');
    assert.equal(hunkStanding(hunk, 'something else\n').side, 'neither');
  });
});
