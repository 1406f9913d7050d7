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

// A hook is timed out by killing its process group; a program it started in a session of its own (setsid) is
// out of that group and kept the pipes open, and the run waited for them to close: the task hung for as long
// as that program lived. Unconfined here (no sandbox, or the `all` mode); bwrap's pid namespace ends it anyway.
describe('hooks: a timed-out hook whose child left its group (setsid) still ends the run', function () {
  let pid: number | undefined;
  afterEach(() => {
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
  });

  it('ends as a timeout, with what it wrote', async () => {
    const workspace = fs.realpathSync(os.tmpdir());
    const command = 'setsid sleep 600 & echo $! ; sleep 600';
    const ran = await runHookProcess({
      cwd: workspace,
      roots: [workspace],
      timeoutMs: 300,
      confined: false,
      command,
      input: '',
    });
    assert.equal(ran.kind, 'timeout', JSON.stringify(ran));
    pid = ran.kind === 'timeout' ? Number(ran.stdout.trim()) : undefined;
    assert.ok(Number.isInteger(pid), JSON.stringify(ran));
  });
});

// A timeout past a Node timer's range (2^31 - 1 ms) fired at once, killing the hook as it started.
describe('hooks: a timeout longer than a timer holds still lets the hook run', function () {
  it('runs to its end', async () => {
    const workspace = fs.realpathSync(os.tmpdir());
    const run = { cwd: workspace, roots: [workspace], confined: false, input: '' };
    const ran = await runHookProcess({ ...run, timeoutMs: 3_000_000_000, command: 'sleep 0.2; echo done' });
    assert.deepEqual(ran, { kind: 'exited', code: 0, stdout: 'done\n', stderr: '' });
  });
});
