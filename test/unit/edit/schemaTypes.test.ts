import * as assert from 'node:assert/strict';
import {
  type Eol,
  type FileOp,
  type FilePlan,
  type FilePreview,
  type Hunk,
  type TextFormat,
  parsePatch,
  planPatch,
  previewPatch,
} from '../../../src/edit';
import * as protocol from '../../../src/protocol';

// The edit engine imports nothing, so it keeps its own types for what it outputs; the rest of Loopwire
// carries the protocol's schemas of the same shapes (src/protocol/edits.ts). These assertions are checked
// by `tsc --noEmit`: if either side changes alone, the typecheck fails here. The runtime test below holds
// the engine's actual output to the schemas.

/** True exactly when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export type EngineTypesAreTheSchemas = [
  Expect<Equal<Hunk, protocol.DiffHunk>>,
  Expect<Equal<TextFormat, protocol.TextFormat>>,
  Expect<Equal<Eol, protocol.Eol>>,
  Expect<Equal<FileOp, protocol.FileOp>>,
  Expect<Equal<FilePlan['hunks'], protocol.EditedFile['hunks']>>,
  Expect<Equal<FilePlan['format'], protocol.EditedFile['format']>>,
  Expect<Equal<FilePlan['op'], protocol.EditedFile['op']>>,
  Expect<Equal<FilePreview['hunks'], protocol.DiffFile['hunks']>>,
  Expect<Equal<FilePreview['op'], protocol.DiffFile['op']>>,
];

describe('edit: the engine outputs the protocol’s edit shapes', () => {
  it('every planned file parses as an EditedFile, unchanged', () => {
    const parsed = parsePatch(
      [
        '*** Begin Patch',
        '*** Add File: new.txt',
        '+hello',
        '*** Update File: crlf.txt',
        '@@',
        ' one',
        '-two',
        '+2',
        '*** Delete File: gone.txt',
        '*** Update File: old.txt',
        '*** Move to: moved.txt',
        '@@',
        '-a',
        '+b',
        '*** End Patch',
      ].join('\n'),
    );
    assert.ok(parsed.ok);
    const files = {
      'crlf.txt': { text: '\uFEFFone\r\ntwo\r\nthree' },
      'gone.txt': { text: 'x\n' },
      'old.txt': { text: 'a\n' },
    };
    const plan = planPatch(parsed.value, files);
    assert.ok(plan.ok, plan.ok ? '' : plan.error.message);
    assert.deepEqual(
      plan.value.files.map((file) => file.op),
      ['create', 'update', 'delete', 'move'],
    );
    for (const file of plan.value.files) {
      const edited = { path: file.moveTo ?? file.path, op: file.op, hunks: file.hunks, format: file.format };
      assert.deepEqual(protocol.EditedFile.parse(edited), edited);
    }
    const crlf = plan.value.files[1];
    assert.deepEqual(crlf?.format, { bom: true, eol: '\r\n', finalNewline: false });
  });

  it('a preview’s hunks parse as DiffHunks', () => {
    const preview = previewPatch('*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n', { 'a.txt': { text: 'a\n' } });
    const hunks = preview.files.flatMap((file) => file.hunks);
    assert.ok(hunks.length > 0);
    for (const hunk of hunks) assert.deepEqual(protocol.DiffHunk.parse(hunk), hunk);
  });
});
