import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type EditPlan,
  applyHunk,
  applyPlan,
  hashText,
  invertPlan,
  parsePatch,
  planPatch,
  planReplacements,
  previewEditFile,
  previewPatch,
  revertHunk,
} from '../../../src/edit';
import { changedLines, changesArb, fileArb, patchOf, updateSection, withLines } from './arbitraries';

// Properties over generated files (LF/CRLF, BOM, final newline or not, many repeated lines) and edits.

const unwrap = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

/** A file, changes of it, and where its single update section is cut into chunks. */
const patchCase = fileArb.chain((file) =>
  fc.record({
    file: fc.constant(file),
    changes: changesArb(file.lines.length),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }),
  }),
);

type ArbitraryValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

/**
 * Plans the generated patch. Its chunks cover the file in order, so each one's first fit after the one
 * before is where it was cut from, however often its lines repeat: a right patch always applies.
 */
function planCase({ file, changes, cuts }: ArbitraryValue<typeof patchCase>) {
  const patch = patchOf([updateSection('f.txt', file.lines, changes, cuts)]);
  const files = new Map([['f.txt', { text: file.text }]]);
  return { patch, files, plan: unwrap(planPatch(unwrap(parsePatch(patch)), files)) };
}

const hunksOf = (plan: EditPlan) => plan.files.map((file) => ({ path: file.path, hunks: file.hunks }));

describe('edit: properties', () => {
  it('a patch applies where it says: the text is the generated change, in the file format', () => {
    fc.assert(
      fc.property(patchCase, (c) => {
        fc.pre(c.changes.length > 0);
        const planned = planCase(c);
        const after = planned.plan.files[0]?.after;
        assert.equal(after, withLines(c.file, changedLines(c.file.lines, c.changes)));
      }),
      { numRuns: 300 },
    );
  });

  it('a plan then its inverse restores the text byte for byte (patches)', () => {
    fc.assert(
      fc.property(patchCase, (c) => {
        fc.pre(c.changes.length > 0);
        const planned = planCase(c);
        const inverse = unwrap(invertPlan(planned.plan));
        assert.equal(inverse.files[0]?.after, c.file.text);
      }),
      { numRuns: 300 },
    );
  });

  it('a plan then its inverse restores the text byte for byte (edit_file, replace_all)', () => {
    const editCase = fileArb.chain((file) => {
      const content = file.lines.join('\n') + (file.finalNewline && file.lines.length > 0 ? '\n' : '');
      return fc.record({
        file: fc.constant(file),
        content: fc.constant(content),
        from: fc.nat({ max: Math.max(0, content.length - 1) }),
        length: fc.integer({ min: 1, max: 12 }),
        replacement: fc.string({ unit: fc.constantFrom('a', 'z', '\n', ' ', '“', '\\'), maxLength: 10 }),
      });
    });
    fc.assert(
      fc.property(editCase, ({ file, content, from, length, replacement }) => {
        const old = content.slice(from, from + length);
        fc.pre(old.length > 0);
        const files = { 'e.txt': { text: file.text } };
        const plan = unwrap(
          planReplacements(
            { path: 'e.txt', edits: [{ old_string: old, new_string: replacement, replace_all: true }] },
            files,
          ),
        );
        const [entry] = plan.files;
        assert.ok(entry?.after !== null && entry?.after !== undefined);
        assert.equal(unwrap(invertPlan(plan)).files[0]?.after, file.text);
        // Reverting every hunk, last first, in the text the plan produced gives the original back too.
        let text = entry.after;
        for (const hunk of [...entry.hunks].reverse()) text = unwrap(revertHunk(hunk, text, entry.format));
        assert.equal(text, file.text);
      }),
      { numRuns: 300 },
    );
  });

  it('applying any subset of hunks equals applying them one by one (and reverting the others)', () => {
    fc.assert(
      fc.property(patchCase, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (c, pick) => {
        fc.pre(c.changes.length > 0);
        const planned = planCase(c);
        const [file] = planned.plan.files;
        assert.ok(file);
        const chosen = file.hunks.filter((_, i) => pick[i % pick.length]);
        const subset = unwrap(applyPlan(planned.plan, { hunkIds: chosen.map((hunk) => hunk.id) }));
        const expected = subset.files[0]?.after ?? c.file.text;
        let forward = c.file.text;
        for (const hunk of [...chosen].reverse()) forward = unwrap(applyHunk(hunk, forward, file.format));
        assert.equal(forward, expected);
        let backward = file.after ?? '';
        for (const hunk of [...file.hunks].reverse())
          if (!chosen.includes(hunk)) backward = unwrap(revertHunk(hunk, backward, file.format));
        assert.equal(backward, expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a patch failing in any one file fails as a whole, naming that file', () => {
    fc.assert(
      fc.property(fc.array(patchCase, { minLength: 2, maxLength: 4 }), fc.nat(), (cases, bad) => {
        fc.pre(cases.every((c) => c.changes.length > 0));
        const broken = bad % cases.length;
        const sections = cases.map((c, i) => {
          const section = updateSection(`f${i}.txt`, c.file.lines, c.changes, c.cuts);
          // A removed line that no file has: this section cannot apply.
          return i === broken ? [...section.slice(0, 2), '-\u0000 not in the file', ...section.slice(2)] : section;
        });
        const files = new Map(cases.map((c, i) => [`f${i}.txt`, { text: c.file.text }]));
        const frozen = new Map([...files].map(([path, snapshot]) => [path, snapshot.text]));
        const planned = planPatch(unwrap(parsePatch(patchOf(sections))), files);
        assert.ok(!planned.ok);
        assert.equal(planned.error.path, `f${broken}.txt`, planned.error.message);
        for (const [path, snapshot] of files) assert.equal(snapshot.text, frozen.get(path));
      }),
      { numRuns: 150 },
    );
  });

  it('previews of every prefix of a patch never throw and converge on the final plan', () => {
    fc.assert(
      fc.property(patchCase, (c) => {
        fc.pre(c.changes.length > 0);
        const planned = planCase(c);
        for (let end = 0; end < planned.patch.length; end++) {
          const preview = previewPatch(planned.patch.slice(0, end), planned.files);
          assert.ok(Array.isArray(preview.files));
        }
        const final = previewPatch(planned.patch, planned.files);
        assert.deepEqual(
          final.files.map((file) => ({ path: file.path, hunks: file.hunks })),
          hunksOf(planned.plan),
        );
        assert.ok(final.files.every((file) => !file.pending && !file.error));
      }),
      { numRuns: 60 },
    );
  });

  it('previews of every prefix of edit_file arguments never throw and converge on the final plan', () => {
    const argsCase = fileArb.chain((file) =>
      fc.record({
        file: fc.constant(file),
        edits: fc.array(
          fc.record({
            line: fc.nat({ max: Math.max(0, file.lines.length - 1) }),
            new_string: fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', 'é', '😀'), maxLength: 8 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
    );
    fc.assert(
      fc.property(argsCase, ({ file, edits }) => {
        fc.pre(file.lines.some((line) => line !== ''));
        const files = { 'j.txt': { text: file.text } };
        const args = JSON.stringify({
          path: 'j.txt',
          edits: edits.map((edit) => ({
            old_string: file.lines[edit.line] || (file.lines.find((line) => line !== '') ?? ''),
            new_string: edit.new_string,
            replace_all: true,
          })),
        });
        for (let end = 0; end < args.length; end++)
          assert.ok(Array.isArray(previewEditFile(args.slice(0, end), files).files));
        const planned = planReplacements(JSON.parse(args) as Parameters<typeof planReplacements>[0], files);
        const final = previewEditFile(args, files);
        if (!planned.ok) {
          assert.equal(final.files[0]?.error?.code, planned.error.code);
          return;
        }
        assert.deepEqual(
          final.files.map((f) => ({ path: f.path, hunks: f.hunks })),
          hunksOf(planned.value),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('hashText is FNV-1a 64 of the UTF-8 bytes (lone surrogates as U+FFFD)', () => {
    const reference = (text: string) => {
      let hash = 0xcbf29ce484222325n;
      for (const byte of Buffer.from(text, 'utf8'))
        hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return hash.toString(16).padStart(16, '0');
    };
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        assert.equal(hashText(text), reference(text));
      }),
      { numRuns: 300 },
    );
  });
});
