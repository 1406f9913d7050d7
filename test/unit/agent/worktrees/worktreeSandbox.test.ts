import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createWorktree, worktreeConfinement } from '../../../../src/agent/worktrees';
import type { Confinement } from '../../../../src/sandbox';
import { requireBwrap, runConfined } from '../../sandbox/harness';
import { type TestRepo, git, makeRepo } from './gitRepo';

// The sandbox of a task in a worktree (real bwrap): the worktree and its own .git/worktrees/ID are written,
// that folder's commondir and gitdir are not, nor the user's checkout, its .git, objects and refs (so a git
// commit fails there, as in the user's checkout), nor Loopwire's sessions beside the worktrees.

describe('agent/worktrees: the sandbox of a worktree task (bwrap)', function () {
  this.timeout(60_000);
  let repo: TestRepo;
  before(function () {
    requireBwrap(this);
  });
  beforeEach(() => {
    repo = makeRepo({ 'README.md': '# app\n' });
  });
  afterEach(() => repo.cleanup());

  it('writes the worktree and its git folder, never commondir, gitdir, the checkout, objects or sessions', async () => {
    const made = await createWorktree({ folder: repo.top, name: 'boxed', env: repo.env });
    const sessions = path.join(repo.base, 'state', 'loopwire', 'sessions');
    fs.mkdirSync(sessions, { recursive: true });
    fs.writeFileSync(path.join(sessions, 'secret.jsonl'), 'transcript\n');
    const confinement: Confinement = {
      policy: { mode: 'workspace-write', network: false },
      roots: [made.path],
      ...worktreeConfinement(made, repo.env),
    };
    const env = { ...process.env, ...repo.env };
    const attempt = async (script: string) => (await runConfined(script, made.path, confinement, env)).code;
    assert.equal(await attempt('echo edited > README.md'), 0);
    assert.equal(await attempt(`echo mine > '${made.gitDir}/scratch'`), 0);
    assert.equal(await attempt('git status --porcelain'), 0);
    for (const file of ['commondir', 'gitdir', 'config.worktree'])
      assert.notEqual(await attempt(`echo /elsewhere > '${made.gitDir}/${file}'`), 0, file);
    // Under /tmp (as here) the checkout is not even seen: a write lands in the sandbox's private /tmp.
    await attempt(`echo x > '${repo.top}/README.md'`);
    assert.equal(repo.read('README.md'), '# app\n', 'the user checkout');
    assert.notEqual(await attempt(`echo x >> '${repo.top}/.git/config'`), 0, 'the repository config');
    const commit =
      'git -c user.name=t -c user.email=t@e add README.md && git -c user.name=t -c user.email=t@e commit -qm x';
    assert.notEqual(await attempt(commit), 0, 'objects and refs are the user repository');
    assert.notEqual(await attempt(`cat '${sessions}/secret.jsonl'`), 0, 'sessions stay hidden');
    assert.equal(fs.readFileSync(path.join(made.path, 'README.md'), 'utf8'), 'edited\n');
    assert.equal(fs.readFileSync(path.join(made.gitDir, 'commondir'), 'utf8').includes('elsewhere'), false);
    assert.equal(repo.read('README.md'), '# app\n');
    assert.equal(git(repo.top, 'rev-parse', 'loopwire/boxed'), git(repo.top, 'rev-parse', 'main'));
  });
});
