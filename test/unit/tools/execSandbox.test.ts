import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { BackgroundCommands, runToolCall } from '../../../src/tools';
import { type SandboxPolicy, sandboxSupport } from '../../../src/sandbox';
import { type ToolBench, toolBench } from './toolHarness';

// exec_command and run_task in the sandbox the agent chose for the call (ToolContext.sandbox), through the
// Node adapter and the real mechanism: what stays in the workspace runs, what leaves it is refused and the
// model is told so; a command left running at its yield time stays confined.

const WRITE: SandboxPolicy = { mode: 'workspace-write', network: false };
const READ: SandboxPolicy = { mode: 'read-only', network: false };

describe('exec_command and run_task in the OS sandbox', function () {
  this.timeout(30_000);
  let bench: ToolBench;
  before(async function () {
    const support = sandboxSupport();
    if (!support.available) {
      console.log(`      (skipped: no sandbox here — ${support.reason})`);
      this.skip();
    }
    bench = await toolBench({
      'package.json': JSON.stringify({
        scripts: {
          build: "node -e \"require('fs').mkdirSync('dist');require('fs').writeFileSync('dist/out.js','1')\"",
        },
      }),
    });
  });
  const exec = (cmd: string, sandbox: SandboxPolicy, extra: Record<string, unknown> = {}) =>
    runToolCall(
      { kind: 'function', name: 'exec_command', arguments: JSON.stringify({ cmd, ...extra }) },
      { ...bench.context, sandbox },
    );

  it('workspace-write: a write in the workspace lands; one outside is refused, and the model is told how to ask', async () => {
    const inside = await exec('echo made > made.txt && cat made.txt', WRITE);
    assert.ok(inside.ok, inside.output);
    assert.equal(await bench.read('made.txt'), 'made\n');
    // Not the host's /tmp, where the test's folders are: the sandbox has a private one, so that path is not there.
    const target = `/var/tmp/loopwire-escaped-${process.pid}.txt`;
    const outside = await exec(`echo x > ${target}`, WRITE);
    assert.equal(outside.ok, false);
    assert.ok(!existsSync(target), 'nothing was written outside the workspace');
    assert.match(outside.output, /require_escalated/, outside.output);
  });

  it('read-only: nothing in the workspace is writable', async () => {
    const result = await exec('echo x > ro.txt', READ);
    assert.equal(result.ok, false);
    assert.equal(await bench.read('ro.txt'), undefined);
  });

  it('run_task runs confined too: a build writes dist/ in workspace-write, not in read-only', async () => {
    const task = (sandbox: SandboxPolicy) =>
      runToolCall(
        { kind: 'function', name: 'run_task', arguments: JSON.stringify({ label: 'npm: build' }) },
        {
          ...bench.context,
          sandbox,
        },
      );
    const refused = await task(READ);
    assert.equal(refused.ok, false, refused.output);
    assert.ok(!existsSync(`${bench.root}/dist`));
    const built = await task(WRITE);
    assert.ok(built.ok, built.output);
    assert.equal(await bench.read('dist/out.js'), '1');
    rmSync(`${bench.root}/dist`, { recursive: true });
  });

  it('a command left running at its yield time stays confined, and ends with its session', async () => {
    const sessions = new BackgroundCommands();
    const context = { ...bench.context, sessions, sandbox: WRITE };
    const started = await runToolCall(
      {
        kind: 'function',
        name: 'exec_command',
        arguments: JSON.stringify({
          cmd: `sleep 0.5; echo late > ${bench.outside}/late.txt; sleep 30`,
          yield_time_ms: 100,
        }),
      },
      context,
    );
    assert.match(started.output, /session/i, started.output);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(!existsSync(`${bench.outside}/late.txt`), 'the background command could not write outside');
    await sessions.stopAll();
  });
});
