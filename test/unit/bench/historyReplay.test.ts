import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parsePatch, planPatch } from '../../../src/edit';
import { parseHunks } from '../../bench/history/diffToPatch';
import { fileDiff, headCommit, recentCommits } from '../../bench/history/gitRepo';
import { replayWithCli } from '../../bench/history/replayCli';
import { commitPatch, replayInMemory } from '../../bench/history/replayCommit';

// The history replay's converter on a real git repository made here: one commit with every kind of change
// it meets in public history, turned into one patch and applied by the engine and by the bundled CLI
// (`node esbuild.js` first).

/** The same seven lines twice (the second's `value` changed), then four more. */
const dup = (value: string) =>
  [...['x = 1', 'y = 2', 'z = 3', 'value = 0', 'p = 4', 'q = 5', 'r = 6'], 'x = 1', 'y = 2', 'z = 3']
    .concat([`value = ${value}`, 'p = 4', 'q = 5', 'r = 6', 'end1', 'end2', 'end3', 'end4', ''])
    .join('\n');

describe('bench: the history replay', () => {
  let base: string;
  let gitDir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: base, stdio: 'pipe' });

  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-history-test-'));
    gitDir = path.join(base, '.git');
    const write = (name: string, text: string | Buffer) => fs.writeFileSync(path.join(base, name), text);
    git('init', '-q');
    // A block written twice: a change to the second has its diff's context in the first.
    write('dup.py', dup('0'));
    write('nonl.txt', 'one\ntwo\nthree');
    write('gone.txt', 'bye\n');
    write('old.txt', 'a\nb\nc\nd\n');
    write('bin.dat', Buffer.from([0, 1, 2, 3]));
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    write('dup.py', dup('1'));
    write('nonl.txt', 'ONE\ntwo\nthree');
    fs.rmSync(path.join(base, 'gone.txt'));
    fs.rmSync(path.join(base, 'old.txt'));
    write('new.txt', 'a\nb\nc\nD\n');
    write('added.txt', 'x\ny\n');
    write('bin.dat', Buffer.from([0, 9, 9, 9]));
    git('add', '-A');
    git('commit', '-q', '-m', 'second');
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  const second = () => {
    const [latest] = recentCommits(gitDir, 1);
    assert.ok(latest?.parent);
    assert.equal(latest.commit, headCommit(gitDir));
    return latest as { commit: string; parent: string };
  };

  it('turns every kind of change into one patch, leaving binaries out', () => {
    const { commit, parent } = second();
    const patch = commitPatch(gitDir, parent, commit);
    assert.ok(patch);
    assert.equal(patch.skipped, 1, 'bin.dat');
    assert.deepEqual(patch.files.map((file) => `${file.oldPath}>${file.newPath}`).sort(), [
      'added.txt>added.txt',
      'dup.py>dup.py',
      'gone.txt>gone.txt',
      'nonl.txt>nonl.txt',
      'old.txt>new.txt',
    ]);
    assert.match(
      patch.patch,
      /^\*\*\* Update File: old\.txt\n\*\*\* Move to: new\.txt\n@@\n a\n b\n c\n-d\n\+D\n\*\*\* End of File$/m,
    );
    assert.match(patch.patch, /^\*\*\* Delete File: gone\.txt$/m);
    assert.match(patch.patch, /^\*\*\* Add File: added\.txt\n\+x\n\+y$/m);
    // The file without a final newline: the format cannot keep it so, and the commit is compared with one added.
    const nonl = patch.files.find((file) => file.newPath === 'nonl.txt');
    assert.equal(nonl?.inexpressible, 'no_final_newline');
    assert.equal(nonl?.expected, 'ONE\ntwo\nthree\n');
  });

  it('gives a hunk whose context also fits earlier enough lines to land first at its own place', () => {
    const { commit, parent } = second();
    const patch = commitPatch(gitDir, parent, commit);
    assert.ok(patch);
    assert.equal(patch.widened, 1);
    assert.match(patch.patch, /^@@\n r = 6\n x = 1\n y = 2\n z = 3\n-value = 0\n\+value = 1\n p = 4\n q = 5\n r = 6$/m);
    // The diff's own hunk, as it is, lands in the first block (line 1): why the converter adds context.
    const [hunk] = parseHunks(fileDiff(gitDir, parent, commit, ['dup.py']));
    assert.ok(hunk);
    assert.equal(hunk.oldStart, 8);
    const plain = parsePatch(
      ['*** Begin Patch', '*** Update File: dup.py', '@@', ...hunk.lines, '*** End Patch'].join('\n'),
    );
    assert.ok(plain.ok);
    const planned = planPatch(plain.value, new Map([['dup.py', { text: dup('0') }]]));
    assert.ok(planned.ok);
    assert.equal(planned.value.files[0]?.matches[0]?.line, 1);
  });

  it('applies the patch exactly, in memory and through loopwire apply-patch', () => {
    const { commit, parent } = second();
    const patch = commitPatch(gitDir, parent, commit);
    assert.ok(patch);
    assert.deepEqual(replayInMemory(patch), { kind: 'exact' });
    assert.deepEqual(replayWithCli(patch), { kind: 'exact' });
  });

  it('reports a result that differs from the commit, naming the file and line', () => {
    const { commit, parent } = second();
    const patch = commitPatch(gitDir, parent, commit);
    assert.ok(patch);
    const wrong = {
      ...patch,
      files: patch.files.map((f) => (f.newPath === 'added.txt' ? { ...f, expected: 'x\nz\n' } : f)),
    };
    assert.deepEqual(replayInMemory(wrong), {
      kind: 'wrong',
      path: 'added.txt',
      detail: 'line 2: got "y", want "z"',
    });
  });
});
