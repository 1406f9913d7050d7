import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWorktree, worktreeAt, worktreeConfinement } from '../../../../src/agent/worktrees';
import { runGit } from '../../../../src/agent/worktrees/worktreeGit';
import { type TestRepo, git, makeRepo } from './gitRepo';

// A window opened on a folder gets a worktree task's sandbox (its own git folder writable) only where the
// folder is a worktree Loopwire made and git agrees with the record: a record only widens what a command may
// write, so a forged one, or a worktree the user made by hand, gets nothing more than the policy's.

describe('agent/worktrees: is this folder a worktree Loopwire made (real git)', function () {
  this.timeout(60_000);
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeRepo({ 'README.md': '# app\n' });
  });
  afterEach(() => repo.cleanup());

  it('knows its own worktree by its folder, through a link too; not the checkout, a subfolder or a plain folder', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'mine', env: repo.env });
    assert.equal((await worktreeAt(made.path))?.name, 'mine');
    const link = path.join(repo.base, 'link-to-worktree');
    fs.symlinkSync(made.path, link);
    assert.equal((await worktreeAt(link))?.gitDir, made.gitDir);
    assert.equal(await worktreeAt(repo.top), undefined, 'the main checkout');
    fs.mkdirSync(path.join(made.path, 'sub'));
    assert.equal(await worktreeAt(path.join(made.path, 'sub')), undefined, 'a folder inside it');
    assert.equal(await worktreeAt(repo.base), undefined, 'no repository');
    assert.equal(await worktreeAt(path.join(repo.base, 'missing')), undefined, 'no folder');
  });

  it('a worktree the user made by hand has no record: nothing more', async () => {
    const hand = path.join(repo.base, 'by-hand');
    git(repo.top, 'worktree', 'add', '-q', '-b', 'by-hand', hand);
    assert.equal(await worktreeAt(hand), undefined);
  });

  it('a record whose git folder git does not confirm is not believed', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'forged', env: repo.env });
    const file = path.join(repo.top, '.git', 'loopwire', 'worktrees', 'forged.json');
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    // The home folder, say: what a forged record would have a sandbox write.
    fs.writeFileSync(file, JSON.stringify({ ...record, gitDir: repo.base }));
    assert.equal(await worktreeAt(made.path), undefined);
    // Its `.git` file pointed at a repository made inside the worktree (a task could make one there).
    fs.writeFileSync(file, JSON.stringify(record));
    const inner = path.join(made.path, 'inner');
    fs.mkdirSync(inner);
    git(inner, 'init', '-q');
    const fake = path.join(inner, '.git', 'worktrees', 'x');
    fs.mkdirSync(fake, { recursive: true });
    fs.writeFileSync(path.join(fake, 'commondir'), '../..\n');
    fs.writeFileSync(path.join(fake, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(fake, 'gitdir'), `${path.join(made.path, '.git')}\n`);
    fs.mkdirSync(path.join(inner, '.git', 'loopwire', 'worktrees'), { recursive: true });
    const claimed = { ...record, gitDir: fake, path: made.path };
    fs.writeFileSync(path.join(inner, '.git', 'loopwire', 'worktrees', 'forged.json'), JSON.stringify(claimed));
    fs.writeFileSync(path.join(made.path, '.git'), `gitdir: ${fake}\n`);
    assert.equal(git(made.path, 'rev-parse', '--absolute-git-dir').trim(), fake, 'git follows the .git file');
    assert.equal(await worktreeAt(made.path), undefined);
  });
});

describe('agent/worktrees: git in a folder that has gone', () => {
  it('says the folder is not there, not that git is missing', async () => {
    const gone = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-gone-')), 'removed');
    await assert.rejects(runGit(gone, ['status']), /The folder .*removed is not there\./);
  });
});

describe('agent/worktrees: the worktree sandbox makes config.worktree only where nothing is', () => {
  it('a dangling link there is not followed: no file appears where it points', async () => {
    const repo = makeRepo({ 'README.md': '# app\n' });
    try {
      const made = await createWorktree({ folder: repo.top, name: 'linked', env: repo.env });
      const target = path.join(repo.base, 'outside', 'planted');
      fs.mkdirSync(path.dirname(target));
      fs.rmSync(path.join(made.gitDir, 'config.worktree'), { force: true });
      fs.symlinkSync(target, path.join(made.gitDir, 'config.worktree'));
      const extras = worktreeConfinement(made, repo.env);
      assert.equal(fs.existsSync(target), false, 'the link was followed');
      assert.ok(extras.writable.includes(made.gitDir));
    } finally {
      repo.cleanup();
    }
  });
});
