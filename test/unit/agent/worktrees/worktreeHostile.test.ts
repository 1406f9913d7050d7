import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  applyWorktree,
  createWorktree,
  discardWorktree,
  listWorktrees,
  worktreeChanges,
} from '../../../../src/agent/worktrees';
import { type TestRepo, git, makeRepo } from './gitRepo';

// A repository whose git config names programs (core.fsmonitor, a post-checkout hook, a filter driver on
// every file, a textconv, an ssh command): the worktree commands run none of them, on add (with the user's
// changes carried), diff, apply, list and discard. A plain `git status` shows the trap is armed.

describe('agent/worktrees: a hostile repository config runs nothing', function () {
  this.timeout(60_000);
  let repo: TestRepo;
  let marker: string;
  beforeEach(() => {
    repo = makeRepo({ 'a.txt': 'a\n', '.gitattributes': '* filter=evil diff=evil\n' });
    marker = path.join(repo.base, 'ran');
    const trap = path.join(repo.base, 'trap.sh');
    // Each program notes that it ran, then passes its input through (a filter must still give the file back).
    fs.writeFileSync(trap, `#!/bin/sh\necho "$0 $* $(tr "\\0" " " < /proc/$PPID/cmdline)" >> '${marker}'\ncat\n`, {
      mode: 0o755,
    });
    const set = (key: string, value: string) => git(repo.top, 'config', key, value);
    set('core.fsmonitor', trap);
    set('filter.evil.clean', trap);
    set('filter.evil.smudge', trap);
    set('filter.evil.required', 'true');
    set('diff.evil.textconv', trap);
    set('core.sshCommand', trap);
    for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction'])
      fs.copyFileSync(trap, path.join(repo.top, '.git', 'hooks', hook));
    fs.chmodSync(path.join(repo.top, '.git', 'hooks'), 0o755);
  });
  afterEach(() => repo.cleanup());

  it('is armed: plain git runs the trap', () => {
    repo.write('a.txt', 'armed\n');
    git(repo.top, 'status', '--porcelain');
    assert.ok(fs.existsSync(marker), 'the trap should fire under plain git');
  });

  it('runs none of them on add --carry, diff, apply, list and discard', async () => {
    repo.write('a.txt', 'user\n');
    repo.write('new.txt', 'untracked\n');
    const made = await createWorktree({ folder: repo.top, name: 'safe', carry: true, env: repo.env });
    assert.equal(fs.readFileSync(path.join(made.path, 'new.txt'), 'utf8'), 'untracked\n');
    fs.writeFileSync(path.join(made.path, 'b.txt'), 'task\n');
    assert.deepEqual((await worktreeChanges(made)).files, ['b.txt']);
    await applyWorktree(repo.top, 'safe');
    assert.equal(repo.read('b.txt'), 'task\n');
    assert.equal((await listWorktrees(repo.top))[0]?.unapplied, false);
    await discardWorktree(repo.top, 'safe', true);
    assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  });
});
