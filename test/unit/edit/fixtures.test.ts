import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type EditError,
  type EditPlan,
  type FileSnapshot,
  type ReplacementsInput,
  type Result,
  parsePatch,
  planPatch,
  planReplacements,
} from '../../../src/edit';
import { repoRoot } from '../support/runProcess';
import { decode, readTree } from './tree';

// The golden fixtures of test/fixtures/edit (see its README): one folder per rule, before/after trees
// compared byte for byte.

const root = path.join(repoRoot, 'test/fixtures/edit');
const cases = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

interface Expect {
  noop?: boolean;
  levels?: string[];
  reindented?: boolean;
}

function plan(dir: string, files: Map<string, FileSnapshot>): Result<EditPlan, EditError> {
  const patchFile = path.join(dir, 'patch');
  if (fs.existsSync(patchFile)) {
    const parsed = parsePatch(fs.readFileSync(patchFile, 'utf8'));
    return parsed.ok ? planPatch(parsed.value, files) : parsed;
  }
  const input = JSON.parse(fs.readFileSync(path.join(dir, 'edits.json'), 'utf8')) as ReplacementsInput;
  return planReplacements(input, files);
}

/** The tree a plan leaves: what an adapter would write, done on a copy in memory. */
function applied(before: Map<string, string>, result: EditPlan): Map<string, string> {
  const tree = new Map(before);
  for (const file of result.files) {
    if (file.op === 'delete' || file.op === 'move') tree.delete(file.path);
    if (file.after !== null) tree.set(file.moveTo ?? file.path, file.after);
  }
  return new Map([...tree].sort(([a], [b]) => a.localeCompare(b)));
}

describe('edit: golden fixtures', () => {
  it('has a fixture for each rule of the issue', () => {
    assert.ok(cases.length >= 40, `${cases.length} fixtures`);
  });

  for (const name of cases) {
    it(name, () => {
      const dir = path.join(root, name);
      const before = new Map([...readTree(path.join(dir, 'before'))].map(([file, bytes]) => [file, decode(bytes)]));
      const snapshots = new Map([...before].map(([file, text]) => [file, { text }]));
      const result = plan(dir, snapshots);
      const errorFile = path.join(dir, 'error.txt');
      if (fs.existsSync(errorFile)) {
        const [code, ...fragments] = fs.readFileSync(errorFile, 'utf8').split('\n').filter(Boolean);
        assert.ok(!result.ok, `expected ${code}, got a plan`);
        assert.equal(result.error.code, code, result.error.message);
        for (const fragment of fragments)
          assert.ok(result.error.message.includes(fragment), `missing '${fragment}' in:\n${result.error.message}`);
        return;
      }
      assert.ok(result.ok, result.ok ? '' : `${result.error.code}: ${result.error.message}`);
      const expected = new Map([...readTree(path.join(dir, 'after'))].map(([file, bytes]) => [file, decode(bytes)]));
      assert.deepEqual(applied(before, result.value), expected);
      const expect = fs.existsSync(path.join(dir, 'expect.json'))
        ? (JSON.parse(fs.readFileSync(path.join(dir, 'expect.json'), 'utf8')) as Expect)
        : {};
      assert.equal(result.value.noop, expect.noop ?? false, 'noop');
      const matches = result.value.files.flatMap((file) => file.matches);
      if (expect.levels)
        assert.deepEqual(
          matches.map((match) => match.level),
          expect.levels,
        );
      if (expect.reindented !== undefined)
        assert.equal(
          matches.some((match) => match.reindented),
          expect.reindented,
        );
    });
  }
});
