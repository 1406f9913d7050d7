import * as assert from 'node:assert/strict';
import { changeHunks } from '../../../src/edit';
import { InlineEdit } from '../../../src/extension/inline/inlineEdit';
import { type InlineEnd, inlineNote, inlineTitle } from '../../../src/extension/inline/inlineNote';
import { InlineEntry } from '../../../src/protocol/chatView';

// The chat's short entry for an inline edit that ended: its title names the file and line (the problem's for a
// fix, the first asked about for an edit), its outcome follows what became of each hunk the model wrote —
// Keep and Undo from the lenses, and the editor's own undo or the user's typing over them — and it is a
// ChatEntry the panel's schema takes. One the window closed on before Keep or Undo is left pending, saved or
// not as the file was then.

const FILE = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].join('\n') + '\n';
const AFTER = FILE.replace('b\n', 'B\n').replace('k\n', 'K\n');
const same = (path: string) => path === 'src/x.txt';

const fix: InlineEnd['request'] = {
  kind: 'fix',
  path: 'config/shipping.json',
  first: 1,
  instruction: 'Expected a property name, found a comma.',
  problem: { line: 3, column: 28, severity: 'error', message: 'Expected a property name, found a comma.' },
};
const edit: InlineEnd['request'] = { kind: 'edit', path: 'src/cart.js', first: 10, instruction: 'take the percent' };

/** An edit that wrote two hunks into the buffer; the buffer after it. */
function written(): { edit: InlineEdit; buffer: string } {
  const inline = new InlineEdit(same);
  inline.begin('call-1', 'replacements', FILE);
  const buffer = inline.commit('call-1', FILE, FILE, AFTER, changeHunks(FILE, AFTER, 'src/x.txt')) ?? '';
  return { edit: inline, buffer };
}

const end = (inline: InlineEdit, ended: InlineEnd['ended'] = 'completed'): InlineEnd => ({
  request: edit,
  ended,
  hunks: inline.written,
  decisions: inline.decisions,
  note: 'Done.',
});

describe('inline edit: the entry it leaves in the chat', () => {
  it('titles a fix by its problem’s line and an edit by its cursor’s or first line', () => {
    assert.equal(inlineTitle(fix), 'Fixed inline in config/shipping.json:3');
    assert.equal(inlineTitle(edit), 'Edited inline in src/cart.js:10');
    assert.equal(inlineTitle({ ...fix, problem: undefined }), 'Fixed inline in config/shipping.json:1');
    // Ctrl+I with nothing selected: the cursor's line, not the first of the lines sent around it.
    assert.equal(inlineTitle({ ...edit, first: 15, cursor: 20 }), 'Edited inline in src/cart.js:20');
  });

  it('every hunk kept: kept, with the diff the model wrote and what it said', () => {
    const { edit: inline } = written();
    inline.keep();
    const note = inlineNote(end(inline));
    assert.equal(note.outcome, 'kept');
    assert.equal(note.kept, 2);
    assert.equal(note.title, 'Edited inline in src/cart.js:10');
    assert.deepEqual(
      note.diff.map((file) => [file.path, file.op, file.hunks.map((hunk) => hunk.newLines)]),
      [['src/cart.js', 'update', [['B'], ['K']]]],
    );
    assert.equal(note.note, 'Done.');
    assert.equal(note.prompt, 'take the percent');
    assert.ok(InlineEntry.safeParse({ ...note, id: 'inline:1' }).success, 'a ChatEntry the panel takes');
  });

  it('one hunk undone and one kept: partly, one kept; all undone: undone', () => {
    const first = written();
    const [hunk] = first.edit.written;
    assert.ok(hunk);
    assert.ok(first.edit.undo(first.buffer, hunk.id).ok);
    first.edit.keep();
    const partly = inlineNote(end(first.edit));
    assert.deepEqual([partly.outcome, partly.kept], ['partly', 1]);
    assert.equal(partly.diff[0]?.hunks.length, 2, 'the diff holds what was written, the undone hunk too');

    const second = written();
    assert.ok(second.edit.undo(second.buffer).ok);
    assert.deepEqual([inlineNote(end(second.edit)).outcome, inlineNote(end(second.edit)).kept], ['undone', 0]);
  });

  it('a hunk the editor’s undo took back counts as undone; one the user typed over as kept', () => {
    const { edit: inline, buffer } = written();
    // The editor's undo on the first hunk's line, the user's own words over the second's.
    const edited = buffer.replace('B\n', 'b\n').replace('K\n', 'K, and more\n');
    assert.ok(inline.reconcile(edited, false));
    assert.deepEqual(inline.marks(edited), []);
    assert.deepEqual([...inline.decisions.values()], ['undone', 'kept']);
    assert.equal(inlineNote(end(inline)).outcome, 'partly');
  });

  it('the editor’s undo and redo of the whole edit: undone, then waiting again, then kept', () => {
    const { edit: inline, buffer } = written();
    const before = buffer.replace('B\n', 'b\n').replace('K\n', 'k\n');
    assert.ok(inline.reconcile(before, true));
    assert.deepEqual([inlineNote(end(inline)).outcome, inline.undecided], ['undone', 0]);
    // Redo: the hunks are back, each waits for Keep or Undo again.
    assert.ok(inline.reconcile(buffer, true));
    assert.equal(inline.undecided, 2);
    assert.equal(inline.marks(buffer).length, 2);
    inline.keep();
    assert.equal(inlineNote(end(inline)).outcome, 'kept');
    // Typing elsewhere does not undo a kept edit; the editor's undo of it does.
    assert.equal(inline.reconcile(`${buffer}typed\n`, false), false);
    assert.ok(inline.reconcile(before, true));
    assert.equal(inlineNote(end(inline)).outcome, 'undone');
  });

  it('the window closed before Keep or Undo: pending, saved or not, the hunks kept before counted', () => {
    const { edit: inline } = written();
    const unsaved = inlineNote({ ...end(inline), left: { saved: false } });
    assert.deepEqual([unsaved.outcome, unsaved.saved, unsaved.kept], ['pending', false, 0]);
    assert.equal(unsaved.diff[0]?.hunks.length, 2, 'the diff holds what was left in the file');
    assert.ok(InlineEntry.safeParse({ ...unsaved, id: 'inline:1' }).success, 'a ChatEntry the panel takes');

    const [first] = inline.written;
    assert.ok(first);
    inline.keep(first.id);
    const saved = inlineNote({ ...end(inline), left: { saved: true } });
    assert.deepEqual([saved.outcome, saved.saved, saved.kept], ['pending', true, 1]);

    // Every hunk decided before the window closed: it ended as any other, with no `saved`.
    inline.keep();
    const decided = inlineNote({ ...end(inline), left: { saved: false } });
    assert.deepEqual([decided.outcome, decided.saved], ['kept', undefined]);
    assert.equal(inlineNote(end(written().edit)).saved, undefined, 'only a fix left pending says whether it was saved');
  });

  it('stopped, failed and nothing written say so, whatever the hunks', () => {
    const { edit: inline } = written();
    assert.equal(inlineNote(end(inline, 'stopped')).outcome, 'stopped');
    assert.equal(inlineNote(end(inline, 'failed')).outcome, 'failed');
    const nothing = inlineNote({ request: fix, ended: 'completed', hunks: [], decisions: new Map(), note: 'Fine.' });
    assert.deepEqual([nothing.outcome, nothing.diff, nothing.line, nothing.action], ['unchanged', [], 3, 'fix']);
  });
});
