import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parsePatch, previewEditFile, previewPatch } from '../../../src/edit';
import { ReadLedger, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { tempWorkspace } from '../support/tempWorkspace';

// Hostile input to the edit path: random and mutated patches never throw out of the parser or the previews,
// and a tool call that is refused never writes a byte.

const VALID =
  '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Add File: new.txt\n+hello\n*** End Patch\n';

/** A valid patch with a few characters replaced, dropped or duplicated, or random text altogether. */
const patchText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc
    .array(
      fc.tuple(fc.nat({ max: VALID.length }), fc.constantFrom('', '*', '+', '-', '\n', ' ', '@', '\r', '\0', '..')),
      {
        maxLength: 6,
      },
    )
    .map((edits) =>
      edits.reduce(
        (text, [at, insert]) => text.slice(0, at) + insert + text.slice(at + (insert === '' ? 1 : 0)),
        VALID,
      ),
    ),
);

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      out[path.relative(dir, path.join(entry.parentPath, entry.name))] = fs.readFileSync(
        path.join(entry.parentPath, entry.name),
        'base64',
      );
  }
  return out;
}

describe('reliability: fuzzing the edit path', () => {
  it('the parser and the previews never throw on any text', () => {
    fc.assert(
      fc.property(patchText, (text) => {
        const parsed = parsePatch(text);
        assert.equal(typeof parsed.ok, 'boolean');
        assert.ok(Array.isArray(previewPatch(text, { 'a.txt': { text: 'one\ntwo\n' } }).files));
        assert.ok(Array.isArray(previewEditFile(text, { 'a.txt': { text: 'one\ntwo\n' } }).files));
      }),
      { numRuns: 2000 },
    );
  });

  it('a refused apply_patch, edit_file or write_file call writes nothing', async () => {
    const temp = await tempWorkspace({ 'a.txt': 'one\ntwo\n' }, { prefix: 'fuzz' });
    const dir = temp.dir;
    try {
      const workspace = await NodeWorkspace.open(dir);
      const args = fc.oneof(
        patchText.map((input) => ({ name: 'apply_patch', kind: 'custom' as const, input })),
        fc
          .record({
            path: fc.oneof(
              fc.constantFrom('a.txt', '../a.txt', '/etc/passwd', '.git/x', ''),
              fc.string({ maxLength: 8 }),
            ),
            edits: fc.array(
              fc.record({ old_string: fc.string({ maxLength: 6 }), new_string: fc.string({ maxLength: 6 }) }),
              { maxLength: 3 },
            ),
          })
          .map((value) => ({ name: 'edit_file', kind: 'function' as const, input: JSON.stringify(value) })),
        fc
          .tuple(fc.constantFrom('edit_file', 'write_file', 'apply_patch'), fc.jsonValue())
          .map(([name, value]) => ({ name, kind: 'function' as const, input: JSON.stringify(value) })),
      );
      await fc.assert(
        fc.asyncProperty(args, async (call) => {
          const before = snapshot(dir);
          const result = await runToolCall(
            call.kind === 'custom'
              ? { kind: 'custom', name: call.name, input: call.input }
              : { kind: 'function', name: call.name, arguments: call.input },
            { workspace, reads: new ReadLedger() },
          );
          if (!result.ok)
            assert.deepEqual(snapshot(dir), before, `${call.name} refused (${result.output.split('\n')[0]}) yet wrote`);
          // Put the workspace back for the next case, whatever an accepted call did.
          for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
          fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
        }),
        { numRuns: 400 },
      );
    } finally {
      await temp.remove();
    }
  });
});
