import * as assert from 'node:assert/strict';
import { changeHunks } from '../../../src/edit';
import { InlineEdit } from '../../../src/extension/inline/inlineEdit';

// An inline edit as text: the preview carried into the buffer while the call streams, the user's typing
// elsewhere kept through every step, Keep / Undo per hunk and whole, Escape mid-stream.

const FILE = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].join('\n') + '\n';
const same = (path: string) => path.replace(/^\.\//, '') === 'src/x.txt';

/** edit_file arguments, cut into pieces as a model streams them. */
function pieces(json: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

/** Streams `args` into `edit`, the buffer following each step; `typing` changes the buffer after step `at`. */
function stream(
  edit: InlineEdit,
  args: string,
  start: string,
  typing?: { at: number; change: (text: string) => string },
) {
  let buffer = start;
  edit.begin('call-1', 'replacements', buffer);
  pieces(args).forEach((piece, i) => {
    buffer = edit.grow('call-1', piece, buffer) ?? buffer;
    if (typing && i === typing.at) buffer = typing.change(buffer);
  });
  return buffer;
}

const ARGS = JSON.stringify({
  path: 'src/x.txt',
  edits: [
    { old_string: 'b\n', new_string: 'B1\nB2\n' },
    { old_string: 'k\n', new_string: '' },
  ],
});

describe('inline edit: a streamed edit in the buffer', () => {
  it('shows the preview as it comes and the model reads the file without it', () => {
    const edit = new InlineEdit(same);
    const buffer = stream(edit, ARGS, FILE);
    assert.equal(buffer, FILE.replace('b\n', 'B1\nB2\n').replace('k\n', ''));
    assert.equal(edit.modelText(buffer), FILE);
    const marks = edit.marks(buffer);
    assert.deepEqual(
      marks.map((mark) => [mark.line, mark.added, mark.removed, mark.pending]),
      [
        [1, 2, ['b'], true],
        [11, 0, ['k'], true],
      ],
    );
  });

  it('keeps what the user typed elsewhere while it streams, and Escape leaves only that', () => {
    const edit = new InlineEdit(same);
    const typed = (text: string) => text.replace('g\n', 'g typed\n');
    const buffer = stream(edit, ARGS, FILE, { at: 3, change: typed });
    assert.equal(buffer, typed(FILE).replace('b\n', 'B1\nB2\n').replace('k\n', ''));
    const undone = edit.undo(buffer);
    assert.ok(undone.ok);
    assert.equal(undone.text, typed(FILE));
    assert.equal(edit.streaming, false);
  });

  it('a preview the editor refused (the user typed first) is made again on the typed buffer, and comes out whole', () => {
    const edit = new InlineEdit(same);
    const parts = pieces(ARGS);
    const half = Math.floor(parts.length / 2);
    let buffer = FILE;
    edit.begin('call-1', 'replacements', buffer);
    for (const piece of parts.slice(0, half)) buffer = edit.grow('call-1', piece, buffer) ?? buffer;
    // The next preview is computed, but the user's typing reached the editor first: the write is refused.
    const saved = edit.save();
    assert.notEqual(edit.grow('call-1', parts.slice(half).join(''), buffer), undefined);
    edit.restore(saved);
    buffer = buffer.replace('g\n', 'g typed\n');
    // Made again on the buffer as it is: the whole input is there, and the typing stays.
    const again = edit.grow('call-1', '', buffer);
    assert.equal(again, FILE.replace('b\n', 'B1\nB2\n').replace('k\n', '').replace('g\n', 'g typed\n'));
    assert.equal(edit.modelText(again ?? ''), FILE.replace('g\n', 'g typed\n'));
    assert.equal(edit.abandon(again ?? ''), FILE.replace('g\n', 'g typed\n'), 'the preview comes out whole');
  });

  it('an undo that lands on a text the model was writing: that text comes out, the typing stays', () => {
    const edit = new InlineEdit(same);
    const steps: string[] = [];
    let buffer = FILE;
    edit.begin('call-1', 'replacements', buffer);
    for (const piece of pieces(ARGS)) {
      const next = edit.grow('call-1', piece, buffer);
      if (next !== undefined) steps.push((buffer = next));
    }
    const after = FILE.replace('b\n', 'B1\nB2\n').replace('k\n', '');
    edit.commit('call-1', buffer, FILE, after, changeHunks(FILE, after, 'src/x.txt'));
    // The user typed at the end after the first step, so the editor's undo went back to that step only.
    const partial = `${steps[0] ?? ''}typed\n`;
    assert.notEqual(steps[0], FILE);
    assert.equal(edit.torn(partial), true);
    assert.equal(edit.partialBack(partial), `${FILE}typed\n`);
    // Neither the whole edit nor none of it is torn (the run asks partialBack only of a torn text), and a text
    // without any of it has nothing to take back.
    assert.equal(edit.torn(after), false);
    assert.equal(edit.torn(FILE), false);
    assert.equal(edit.partialBack(`${FILE}typed\n`), undefined);
  });

  it('commits the tool write, then Undo per hunk and Keep', () => {
    const edit = new InlineEdit(same);
    let buffer = stream(edit, ARGS, FILE);
    const after = FILE.replace('b\n', 'B1\nB2\n').replace('k\n', '');
    const committed = edit.commit('call-1', buffer, FILE, after, changeHunks(FILE, after, 'src/x.txt'));
    assert.equal(committed, after);
    buffer = (committed ?? '').replace('e\n', 'e typed\n');
    const [first, second] = edit.marks(buffer);
    assert.ok(first && second && !first.pending);
    const undone = edit.undo(buffer, second.hunkId);
    assert.ok(undone.ok);
    assert.equal(undone.text, FILE.replace('b\n', 'B1\nB2\n').replace('e\n', 'e typed\n'));
    edit.keep(first.hunkId);
    assert.equal(edit.undecided, 0);
    assert.deepEqual(edit.marks(undone.text), []);
  });

  it('Undo of the whole edit gives the buffer back with the user typing kept', () => {
    const edit = new InlineEdit(same);
    const buffer = stream(edit, ARGS, FILE);
    const after = FILE.replace('b\n', 'B1\nB2\n').replace('k\n', '');
    const committed = edit.commit('call-1', buffer, FILE, after, changeHunks(FILE, after)) ?? '';
    const undone = edit.undo(committed.replace('h\n', 'h!\n'));
    assert.ok(undone.ok);
    assert.equal(undone.text, FILE.replace('h\n', 'h!\n'));
  });

  it('refuses a commit when the buffer is no longer what the tool read', () => {
    const edit = new InlineEdit(same);
    const buffer = stream(edit, ARGS, FILE);
    assert.equal(edit.commit('call-1', buffer, FILE.replace('a', 'z'), FILE, []), undefined);
  });

  it('takes the preview out when the call ends without writing', () => {
    const edit = new InlineEdit(same);
    const buffer = stream(edit, ARGS, FILE);
    assert.equal(edit.abandon(buffer), FILE);
    assert.equal(edit.streaming, false);
  });

  it('two edit calls in one response: one preview shown at a time, the first written beside the second', () => {
    const edit = new InlineEdit(same);
    const first = JSON.stringify({ path: 'src/x.txt', edits: [{ old_string: 'b\n', new_string: 'B\n' }] });
    const second = JSON.stringify({ path: 'src/x.txt', edits: [{ old_string: 'j\n', new_string: 'J\n' }] });
    let buffer = FILE;
    edit.begin('A', 'replacements', buffer);
    for (const piece of pieces(first)) buffer = edit.grow('A', piece, buffer) ?? buffer;
    assert.equal(buffer, FILE.replace('b\n', 'B\n'));
    buffer = edit.begin('B', 'replacements', buffer) ?? buffer;
    assert.equal(buffer, FILE, "the first call's preview gives way");
    for (const piece of pieces(second)) buffer = edit.grow('B', piece, buffer) ?? buffer;
    assert.equal(buffer, FILE.replace('j\n', 'J\n'));
    // The tools run in order: A reads the file without B's preview, and its write goes in beside it.
    assert.equal(edit.modelText(buffer), FILE);
    const afterA = FILE.replace('b\n', 'B\n');
    buffer = edit.commit('A', buffer, FILE, afterA, changeHunks(FILE, afterA)) ?? '';
    assert.equal(buffer, FILE.replace('b\n', 'B\n').replace('j\n', 'J\n'));
    assert.equal(edit.abandon(buffer, 'A'), undefined, "A's end leaves B's preview");
    assert.equal(edit.modelText(buffer), afterA);
    const afterB = afterA.replace('j\n', 'J\n');
    buffer = edit.commit('B', buffer, afterA, afterB, changeHunks(afterA, afterB)) ?? '';
    assert.equal(buffer, afterB);
    assert.equal(edit.marks(buffer).length, 2);
    const undone = edit.undo(buffer);
    assert.ok(undone.ok);
    assert.equal(undone.text, FILE);
  });

  it('ignores a call on another file', () => {
    const edit = new InlineEdit(same);
    const args = JSON.stringify({ path: 'other.txt', edits: [{ old_string: 'b', new_string: 'X' }] });
    assert.equal(stream(edit, args, FILE), FILE);
  });

  it('previews an apply_patch naming the file ./src/x.txt', () => {
    const edit = new InlineEdit(same);
    edit.begin('p', 'patch', FILE);
    const patch = '*** Begin Patch\n*** Update File: ./src/x.txt\n@@\n c\n-d\n+D\n e\n*** End Patch\n';
    let buffer = FILE;
    for (const piece of pieces(patch, 5)) buffer = edit.grow('p', piece, buffer) ?? buffer;
    assert.equal(buffer, FILE.replace('d\n', 'D\n'));
  });
});
