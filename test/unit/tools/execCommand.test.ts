import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { runToolCall } from '../../../src/tools';
import { toolBench } from './toolHarness';
import { alive } from '../support/processAlive';

// exec_command in the Node adapter: the user's shell, in a workspace folder, no input, the exit code and the
// tail of the output as run_task gives them, and a timeout that stops everything the command started.

describe('exec_command (Node adapter)', function () {
  this.timeout(20_000);

  it('runs the command in the shell at the root, reporting its exit code and output', async () => {
    const { run } = await toolBench({ 'a.txt': 'alpha\n' });
    const ok = await run('exec_command', { cmd: 'cat a.txt && echo "to stderr" >&2' });
    assert.equal(ok.ok, true);
    assert.match(
      ok.output,
      /^The command finished with exit code 0 after \d+\.\d s\.\n--- output ---\nalpha\nto stderr$/,
    );
    const failed = await run('exec_command', { cmd: 'exit 3' });
    assert.equal(failed.ok, false);
    assert.match(failed.output, /exit code 3/);
  });

  it('runs in workdir, a folder of the workspace, and refuses one outside it or a file', async () => {
    const { run, outside, root } = await toolBench({ 'pkg/inner/b.txt': 'beta\n' });
    assert.match(
      (await run('exec_command', { cmd: 'pwd', workdir: 'pkg/inner' })).output,
      new RegExp(`${root}/pkg/inner$`),
    );
    const escape = await run('exec_command', { cmd: 'pwd', workdir: '../outside' });
    assert.equal(escape.ok, false);
    assert.match(escape.output, /outside|leads out/i);
    await fs.symlink(outside, path.join(root, 'link'));
    assert.match((await run('exec_command', { cmd: 'pwd', workdir: 'link' })).output, /symbolic link/);
    assert.match((await run('exec_command', { cmd: 'pwd', workdir: 'pkg/inner/b.txt' })).output, /is not a folder/);
  });

  it('gives the command no input: a read of stdin ends at once', async () => {
    const { run } = await toolBench({});
    const result = await run('exec_command', { cmd: 'cat; echo "read done"', timeout_s: 10 });
    assert.equal(result.ok, true);
    assert.match(result.output, /read done/);
  });

  it('stops the whole process tree after timeout_s', async () => {
    const { run, root } = await toolBench({});
    const pidFile = path.join(root, 'child.pid');
    const result = await run('exec_command', { cmd: `sleep 30 & echo $! > child.pid; wait`, timeout_s: 1 });
    assert.equal(result.ok, false);
    assert.match(result.output, /timed out after 1 s and was stopped/);
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await alive(pid), false, 'the background sleep went with the shell');
  });

  it('refuses bad arguments with the schema and is not offered where commands cannot run', async () => {
    const { run, context } = await toolBench({});
    assert.match((await run('exec_command', { cmd: '' })).output, /cmd/);
    assert.match((await run('exec_command', { cmd: 'true', timeout_s: -1 })).output, /timeout_s/);
    const untrusted = {
      ...context,
      workspace: Object.assign(Object.create(context.workspace) as typeof context.workspace, {
        capabilities: { diagnostics: false, tasks: false, commands: false },
      }),
    };
    const refused = await runToolCall(
      { kind: 'function', name: 'exec_command', arguments: '{"cmd":"true"}' },
      untrusted,
    );
    assert.match(refused.output, /not available/);
  });
});
