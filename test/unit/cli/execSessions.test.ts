import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';
import { alive } from '../support/processAlive';

// `loopwire exec` with a scripted model that uses Codex's unified exec: a read loop started with
// yield_time_ms comes back at once with a session, write_stdin reaches it, a `sleep 30` goes on in the
// background; stderr says when each goes on and ends, and nothing of either is left running after exit.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

interface ToolEvent {
  type: string;
  callId?: string;
  output?: string;
}

const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });

describe('cli: loopwire exec keeps commands running in the background, and stops them at exit', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({ 'README.md': '# sessions\n' }, { prefix: 'exec-sessions' });

  it('exec_command with yield_time_ms, then write_stdin; nothing is left running', async () => {
    const dir = temp.path('workspace');
    await fs.mkdir(dir, { recursive: true });
    const scenario = temp.path('sessions.json');
    const steps = [
      {
        output: [
          call('exec_command', { cmd: 'echo ready; while read line; do echo "got $line"; done', yield_time_ms: 500 }),
        ],
      },
      { output: [call('write_stdin', { session_id: 1, chars: 'hello\n', yield_time_ms: 1000 })] },
      { output: [call('exec_command', { cmd: 'sleep 300 & echo $! > sleep.pid; wait', yield_time_ms: 500 })] },
      { output: [{ type: 'message', text: 'Left them running.' }] },
    ];
    await fs.writeFile(scenario, JSON.stringify({ scenarios: [{ name: 'sessions', match: '^serve', steps }] }));
    const started = Date.now();
    const result = await runProcess(
      process.execPath,
      [
        bin,
        'exec',
        '--workspace',
        dir,
        '--sessions-dir',
        temp.path('sessions'),
        '--approve',
        'all',
        '--json',
        '--scenario',
        scenario,
        'serve it',
      ],
      '',
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    // Far below the sleep's 300 s, with room for a loaded machine: the sleep did not hold the run.
    assert.ok(Date.now() - started < 50_000, 'the sleep did not hold the run');
    const outputs = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ToolEvent)
      .filter((event) => event.type === 'tool_finished')
      .map((event) => event.output ?? '');
    assert.match(outputs[0] ?? '', /still running, in the background as session_id 1\.[^]*\nready$/);
    assert.match(outputs[1] ?? '', /\ngot hello$/);
    assert.match(outputs[2] ?? '', /session_id 2\./);
    assert.match(result.stderr, /\(session 1 runs on in the background: echo ready;/);
    assert.match(result.stderr, /\(session 2 ended, stopped: sleep 300 &/);
    const pid = Number(await fs.readFile(path.join(dir, 'sleep.pid'), 'utf8'));
    assert.equal(await alive(pid), false, 'the sleep outlived loopwire exec');
  });
});
