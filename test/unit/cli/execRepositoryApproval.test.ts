import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` takes its approval mode from --approve alone (a terminal's default: ask; without one:
// read-only), and its command rules from the user's config folder: a repository's .vscode/settings.json,
// which says "loopwire.approval": "all" and allows its own `npm test`, loosens nothing.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

describe("cli: a repository's settings do not loosen exec's approvals", () => {
  const temp = useTempWorkspace({}, { prefix: 'exec-repo-approval' });

  it('without --approve and without a terminal, the task is declined whatever .vscode/settings.json says', async () => {
    const dir = temp.path('workspace');
    await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
    await fs.mkdir(path.join(dir, '.vscode'), { recursive: true });
    const repository = { 'loopwire.approval': 'all', 'loopwire.commandRules': { allow: ['npm test', 'npm'] } };
    await fs.writeFile(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(repository));
    const result = await runProcess(
      process.execPath,
      [bin, 'exec', '--workspace', dir, '--sessions-dir', temp.path('sessions'), 'run the tests'],
      '',
      // The user's own config folder holds no command rules.
      { ...process.env, XDG_CONFIG_HOME: temp.path('config') },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr + result.stdout, /approvals read-only/);
    assert.match(result.stdout, /▸ run_task npm: test\n {2}✗ declined /);
    assert.match(result.stdout, /\ndone: the model answered · 2 turns · 1 tool call · 1 call declined · /);
  });
});
