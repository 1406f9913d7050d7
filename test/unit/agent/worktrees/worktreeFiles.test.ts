import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  WorktreeError,
  createWorktree,
  discardWorktree,
  listWorktrees,
  worktreeBaseText,
  worktreeFiles,
} from '../../../../src/agent/worktrees';
import { type TestRepo, git, makeRepo } from './gitRepo';

// The worktree card's list (issue 49 item 3): each file a worktree changed against its base, with its +/-
// counts and whether it was added or deleted, and a changed file's text at the base (the diff's left side).

describe('agent/worktrees: the changes file by file, and the base text (real git)', function () {
  this.timeout(60_000);
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeRepo({ 'src/app.js': 'one\ntwo\nthree\n', 'old.txt': 'old\n', '.gitignore': 'node_modules/\n' });
  });
  afterEach(() => repo.cleanup());

  it('lists modified, added, deleted and binary files with their line counts', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'card', env: repo.env });
    fs.writeFileSync(path.join(made.path, 'src/app.js'), 'one\nTWO\nthree\nfour\n');
    fs.writeFileSync(path.join(made.path, 'new file.md'), 'a\nb\n');
    fs.rmSync(path.join(made.path, 'old.txt'));
    fs.writeFileSync(path.join(made.path, 'logo.bin'), Buffer.from([0, 1, 2, 0, 255]));
    fs.mkdirSync(path.join(made.path, 'node_modules'));
    fs.writeFileSync(path.join(made.path, 'node_modules/dep.js'), 'ignored\n');
    assert.deepEqual(await worktreeFiles(made), [
      { path: 'logo.bin', change: 'added', added: 0, removed: 0, binary: true },
      { path: 'new file.md', change: 'added', added: 2, removed: 0, binary: false },
      { path: 'old.txt', change: 'deleted', added: 0, removed: 1, binary: false },
      { path: 'src/app.js', change: 'modified', added: 2, removed: 1, binary: false },
    ]);
    assert.equal(await worktreeBaseText(made, 'src/app.js'), 'one\ntwo\nthree\n');
    assert.equal(await worktreeBaseText(made, 'new file.md'), '');
    await assert.rejects(worktreeBaseText(made, '../repo/src/app.js'), /is not a path of worktree/);
    await assert.rejects(worktreeBaseText(made, '/etc/passwd'), /is not a path of worktree/);
  });

  it('says a worktree whose folder has gone is gone, and still reads the base', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'gone', env: repo.env });
    fs.rmSync(made.path, { recursive: true, force: true });
    await assert.rejects(worktreeFiles(made), (error) => error instanceof WorktreeError && error.code === 'gone');
    assert.equal(await worktreeBaseText(made, 'old.txt'), 'old\n');
  });

  it('discards from inside the worktree (its own window): folder, branch, base ref and record all go', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'inside', env: repo.env });
    fs.writeFileSync(path.join(made.path, 'old.txt'), 'changed\n');
    await discardWorktree(made.path, 'inside', true);
    assert.equal(fs.existsSync(made.path), false);
    assert.equal(git(repo.top, 'branch', '--list', 'loopwire/inside').trim(), '');
    assert.equal(git(repo.top, 'for-each-ref', 'refs/loopwire/').trim(), '');
    assert.deepEqual(await listWorktrees(repo.top), []);
  });
});
