import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  WorktreeError,
  applyWorktree,
  createWorktree,
  discardWorktree,
  listWorktrees,
  worktreeChanges,
} from '../../../../src/agent/worktrees';
import { type TestRepo, fingerprint, git, makeRepo } from './gitRepo';

// A task's worktree on real git (issue 49 item 3): made outside the workspace on loopwire/NAME, the user's
// uncommitted changes carried without touching their tree, its changes against its base, applied all or
// nothing (a conflict leaves the user's tree byte-identical), discarded only when nothing would be lost.

const refused = (code: string) => (error: unknown) => error instanceof WorktreeError && error.code === code;

describe('agent/worktrees: make, measure, apply, discard (real git)', function () {
  this.timeout(60_000);
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeRepo({ 'src/app.js': 'one\ntwo\nthree\n', 'README.md': '# app\n', '.gitignore': 'node_modules/\n' });
  });
  afterEach(() => repo.cleanup());

  it('adds loopwire/NAME from HEAD under $XDG_STATE_HOME/loopwire/worktrees/REPO-NAME', async () => {
    const made = await createWorktree({ folder: path.join(repo.top, 'src'), name: 'fix-one', env: repo.env });
    assert.equal(made.path, path.join(repo.base, 'state', 'loopwire', 'worktrees', 'repo-fix-one'));
    assert.equal(made.branch, 'loopwire/fix-one');
    assert.equal(fs.readFileSync(path.join(made.path, 'src/app.js'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(git(made.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'loopwire/fix-one');
    assert.match(made.gitDir, /\.git\/worktrees\/repo-fix-one$/);
    assert.deepEqual((await worktreeChanges(made)).files, []);
  });

  it('refuses a name that is not a plain slug, an existing branch or folder, a path inside the workspace', async () => {
    for (const name of ['..', 'a/../b', 'a/b/c', '-rf', '--help', '.hidden', 'x.lock', 'a b', ''])
      await assert.rejects(createWorktree({ folder: repo.top, name, env: repo.env }), refused('invalid_name'), name);
    git(repo.top, 'branch', 'loopwire/taken');
    await assert.rejects(
      createWorktree({ folder: repo.top, name: 'taken', env: repo.env }),
      /branch loopwire\/taken exists/,
    );
    fs.mkdirSync(path.join(repo.base, 'state/loopwire/worktrees/repo-there'), { recursive: true });
    await assert.rejects(createWorktree({ folder: repo.top, name: 'there', env: repo.env }), refused('exists'));
    const inside = path.join(repo.top, 'wt');
    await assert.rejects(createWorktree({ folder: repo.top, name: 'in', path: inside }), /inside the workspace/);
    assert.equal(git(repo.top, 'branch', '--list', 'loopwire/*').trim(), 'loopwire/taken');
    await createWorktree({ folder: repo.top, name: 'fix/login', env: repo.env });
    await assert.rejects(createWorktree({ folder: repo.top, name: 'fix/login', env: repo.env }), refused('exists'));
  });

  it('carries staged, unstaged and untracked changes (not ignored files), the user\u2019s tree untouched', async () => {
    repo.write('src/app.js', 'one\nTWO\nthree\n');
    repo.write('staged.txt', 'staged\n');
    git(repo.top, 'add', 'staged.txt');
    repo.write('notes/new.txt', 'untracked\n');
    repo.write('node_modules/dep.js', 'ignored\n');
    fs.rmSync(path.join(repo.top, 'README.md'));
    const before = fingerprint(repo.top);
    const made = await createWorktree({ folder: repo.top, name: 'carry', carry: true, env: repo.env });
    assert.deepEqual(fingerprint(repo.top), before);
    const inTree = (rel: string) => fs.readFileSync(path.join(made.path, rel), 'utf8');
    assert.equal(inTree('src/app.js'), 'one\nTWO\nthree\n');
    assert.equal(inTree('staged.txt'), 'staged\n');
    assert.equal(inTree('notes/new.txt'), 'untracked\n');
    assert.equal(fs.existsSync(path.join(made.path, 'node_modules')), false);
    assert.equal(fs.existsSync(path.join(made.path, 'README.md')), false);
    // The carried state is the base: only what the task changes next is the worktree's.
    assert.deepEqual((await worktreeChanges(made)).files, []);
    fs.writeFileSync(path.join(made.path, 'src/app.js'), 'one\nTWO\nthree\nfour\n');
    assert.deepEqual((await worktreeChanges(made)).files, ['src/app.js']);
    await applyWorktree(repo.top, 'carry');
    assert.equal(repo.read('src/app.js'), 'one\nTWO\nthree\nfour\n');
  });

  it('measures commits, edits, new and deleted files against the base, and applies them to the working tree', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'work', env: repo.env });
    fs.writeFileSync(path.join(made.path, 'src/app.js'), 'one\n2\nthree\n');
    git(made.path, 'commit', '-q', '-am', 'in the worktree');
    fs.writeFileSync(path.join(made.path, 'src/extra.js'), 'new\n');
    fs.rmSync(path.join(made.path, 'README.md'));
    fs.mkdirSync(path.join(made.path, 'node_modules'));
    fs.writeFileSync(path.join(made.path, 'node_modules/x.js'), 'ignored\n');
    const changes = await worktreeChanges(made);
    assert.deepEqual(changes.files, ['README.md', 'src/app.js', 'src/extra.js']);
    assert.equal(repo.read('src/app.js'), 'one\ntwo\nthree\n', 'nothing reaches the workspace before Apply');
    const indexBefore = fingerprint(repo.top)['.git/index'];
    assert.deepEqual(await applyWorktree(repo.top, 'work'), ['README.md', 'src/app.js', 'src/extra.js']);
    assert.equal(repo.read('src/app.js'), 'one\n2\nthree\n');
    assert.equal(repo.read('src/extra.js'), 'new\n');
    assert.equal(fs.existsSync(path.join(repo.top, 'README.md')), false);
    assert.equal(fs.existsSync(path.join(repo.top, 'node_modules')), false);
    assert.equal(fingerprint(repo.top)['.git/index'], indexBefore, 'the working tree only, not the index');
    assert.equal(git(repo.top, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');
  });

  it('refuses an Apply that conflicts, and the user\u2019s tree stays byte-identical', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'clash', env: repo.env });
    fs.writeFileSync(path.join(made.path, 'src/app.js'), 'one\nfrom the worktree\nthree\n');
    fs.writeFileSync(path.join(made.path, 'fresh.txt'), 'would be new\n');
    repo.write('src/app.js', 'one\nfrom the user\nthree\n');
    const before = fingerprint(repo.top);
    await assert.rejects(applyWorktree(repo.top, 'clash'), (error: unknown) => {
      assert.ok(error instanceof WorktreeError && error.code === 'conflict', String(error));
      assert.match(error.message, /src\/app\.js/);
      assert.match(error.message, /nothing was changed/);
      return true;
    });
    assert.deepEqual(fingerprint(repo.top), before);
    assert.equal(fs.existsSync(path.join(repo.top, 'fresh.txt')), false, 'nothing half-applied');
    assert.equal((await listWorktrees(repo.top))[0]?.unapplied, true);
  });

  it('discards only what has been applied, unless forced; branch, folder and base ref go', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'done', env: repo.env });
    fs.writeFileSync(path.join(made.path, 'src/app.js'), 'changed\n');
    await assert.rejects(discardWorktree(repo.top, 'done'), (error: unknown) => {
      assert.ok(error instanceof WorktreeError && error.code === 'unapplied');
      assert.match(error.message, /1 file, 1 uncommitted/);
      return true;
    });
    assert.ok(fs.existsSync(made.path), 'nothing removed when refused');
    await applyWorktree(repo.top, 'done');
    const [status] = await listWorktrees(repo.top);
    assert.equal(status?.unapplied, false);
    assert.equal(status?.uncommitted, 1);
    await discardWorktree(repo.top, 'done');
    assert.equal(fs.existsSync(made.path), false);
    assert.equal(git(repo.top, 'branch', '--list', 'loopwire/*').trim(), '');
    assert.equal(git(repo.top, 'for-each-ref', 'refs/loopwire').trim(), '');
    assert.deepEqual(await listWorktrees(repo.top), []);
    // A worktree with unapplied changes goes with --force.
    const other = await createWorktree({ folder: repo.top, name: 'other', env: repo.env });
    fs.writeFileSync(path.join(other.path, 'lost.txt'), 'lost\n');
    await discardWorktree(repo.top, 'other', true);
    assert.equal(fs.existsSync(other.path), false);
  });

  it('says a worktree whose folder has gone is gone, and discards it (pruned)', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'vanished', env: repo.env });
    fs.rmSync(made.path, { recursive: true, force: true });
    const [status] = await listWorktrees(repo.top);
    assert.equal(status?.gone, true);
    await assert.rejects(applyWorktree(repo.top, 'vanished'), refused('gone'));
    await discardWorktree(repo.top, 'vanished');
    assert.equal(git(repo.top, 'worktree', 'list', '--porcelain').includes('vanished'), false);
    assert.equal(git(repo.top, 'branch', '--list', 'loopwire/*').trim(), '');
    await assert.rejects(discardWorktree(repo.top, 'vanished'), refused('not_found'));
  });
});
