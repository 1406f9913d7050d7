import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHookProcess } from '../../../src/agent/hooks/hookProcess';
import { makeRepo, removeDir, requireBwrap } from '../sandbox/harness';

// A hook whose script is in the host's /tmp, outside the workspace (a clone there, a script the user keeps
// there): the sandbox's private /tmp hid it, so the hook failed to start. Its folder is shown to it, read only.

describe('hooks: a confined hook finds its script in the host’s /tmp (bwrap)', function () {
  let temp: string;
  let workspace: string;
  beforeEach(function () {
    requireBwrap(this);
    temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-hook-script-')));
    fs.writeFileSync(path.join(temp, 'hook.mjs'), 'process.stdin.pipe(process.stdout);\n');
    workspace = makeRepo('hook-process');
  });
  afterEach(() => {
    removeDir(temp);
    removeDir(workspace);
  });

  it('runs it, its stdin echoed, and it cannot write beside it', async () => {
    const script = path.join(temp, 'hook.mjs');
    const run = { cwd: workspace, roots: [workspace], timeoutMs: 20_000, confined: true };
    const ran = await runHookProcess({ ...run, command: `node ${script}`, input: '{"hook_event_name":"Stop"}' });
    assert.deepEqual(ran.kind === 'exited' ? [ran.code, ran.stdout] : ran, [0, '{"hook_event_name":"Stop"}']);
    const wrote = await runHookProcess({ ...run, command: `echo x > ${path.join(temp, 'planted')}`, input: '' });
    assert.ok(wrote.kind === 'exited' && wrote.code !== 0, JSON.stringify(wrote));
    assert.equal(fs.existsSync(path.join(temp, 'planted')), false);
  });
});
