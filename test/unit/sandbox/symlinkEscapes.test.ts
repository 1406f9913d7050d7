import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// Ways a command the repository chose might reach .git through the workspace's own writable folder, tried
// through the Node adapter as exec_command runs them: a link to .git/config, a link to .git from a subfolder,
// moving .git away. Each write must meet the read-only mount, and .git/config must keep no line of it.

const sandbox = { policy: { mode: 'workspace-write' as const, network: false } };

describe('sandbox (bwrap): links and moves inside the workspace do not reach .git', function () {
  this.timeout(30_000);
  let root: string;
  let workspace: NodeWorkspace;
  before(async function () {
    const support = sandboxSupport();
    if (!support.available) {
      console.log(`      (skipped: no sandbox here — ${support.reason})`);
      this.skip();
    }
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-links-')));
    execFileSync('git', ['init', '-q'], { cwd: root });
    workspace = await NodeWorkspace.open(root);
  });
  after(() => root && fs.rmSync(root, { recursive: true, force: true }));

  const run = (cmd: string) => workspace.runCommand(cmd, { timeoutMs: 10_000, sandbox });

  it('a link to .git/config, a link to .git from a subfolder, and mv .git are all refused', async () => {
    const config = fs.readFileSync(path.join(root, '.git', 'config'), 'utf8');
    const viaLink = await run('ln -s .git/config c && echo "[core] fsmonitor = touch /tmp/PWNED" >> c');
    assert.match(viaLink.output, /Read-only file system/);
    const viaFolder = await run('mkdir -p sub && ln -s ../.git sub/g && echo x > sub/g/hooks/pre-commit');
    assert.match(viaFolder.output, /Read-only file system/);
    const moved = await run('mv .git .git-old');
    assert.notEqual(moved.exitCode, 0, moved.output);
    assert.equal(fs.readFileSync(path.join(root, '.git', 'config'), 'utf8'), config);
    assert.ok(!fs.existsSync(path.join(root, '.git', 'hooks', 'pre-commit')));
    assert.ok(!fs.existsSync(path.join(root, '.git-old')));
  });
});
