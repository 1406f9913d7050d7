import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { toolBench } from './toolHarness';

// A repository's own .git/config can name programs that git runs while it only reads: an fsmonitor hook on
// `git status`, an external diff on `git diff`. exec_command runs a safe git command with those turned off,
// and says so on its first line; the same line run as written does start them (the test bites).

describe('exec_command: a safe git command runs without the repository programs', function () {
  this.timeout(20_000);

  it("neither git status nor git diff starts .git/config's fsmonitor hook or external diff", async () => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    const marker = path.join(bench.outside, 'ran');
    const hook = path.join(bench.outside, 'hook.sh');
    await fs.writeFile(hook, `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`, { mode: 0o755 });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: bench.root, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start');
    git('add', 'a.txt');
    await fs.writeFile(path.join(bench.root, 'a.txt'), 'two\n');
    git('config', 'core.fsmonitor', hook);
    git('config', 'diff.external', hook);

    const status = await bench.run('exec_command', { cmd: 'git status --short' });
    const diff = await bench.run('exec_command', { cmd: 'git diff' });
    assert.match(
      status.output,
      /^The command \(run as: git -c core\.fsmonitor=false -c core\.pager=cat .*status --short\)/,
    );
    assert.match(diff.output, /--no-ext-diff --no-textconv/);
    assert.match(diff.output, /^\+two$/m);
    await assert.rejects(fs.stat(marker), { code: 'ENOENT' }, 'the hook ran');

    // As written, the same commands run the repository's programs.
    await bench.workspace.runCommand('git status --short && git diff', { timeoutMs: 10_000 });
    assert.ok((await fs.readFile(marker, 'utf8')).length > 0);
  });
});
