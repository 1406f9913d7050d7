import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';
import { SCENARIOS } from '../agent/subagentSupport';
import { alive } from '../support/processAlive';
import { oneAtATime } from '../../../src/cli/exec/execApprovals';

// `loopwire exec` with subagents (issue 49, item 4), the built bin on the embedded backend (a real socket in
// its process): --json names each subagent's events (`agent`, an added field), people see a subagent's lines
// indented under the task's and headed by its id, a subagent's write is declined in read-only, and exec
// exits only once a subagent the task started has ended.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

interface JsonEvent {
  type: string;
  name?: string;
  status?: string;
  declined?: boolean;
  output?: string;
  agent?: { id: string; parentCallId: string };
}

describe('cli: loopwire exec with subagents', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    { 'workspace/a.txt': 'alpha text\n', 'workspace/b.txt': 'beta text\n' },
    { prefix: 'exec-subagents' },
  );

  /** The tests' scenarios, and two helpers that nap (each shell's pid in a file) while their parent waits. */
  const NAPPERS = [
    {
      name: 'nappers',
      match: '^two nappers',
      steps: [
        {
          output: ['1', '2'].map((n) => ({
            type: 'function_call',
            name: 'spawn_agent',
            arguments: { message: `helper naps ${n}` },
          })),
        },
        {
          output: [
            {
              type: 'function_call',
              name: 'wait',
              arguments: { ids: ['{{output.1.agent_id}}', '{{output.2.agent_id}}'] },
            },
          ],
        },
        { output: [{ type: 'message', text: 'napped' }] },
      ],
    },
    {
      name: 'napper',
      match: '^helper naps (?<n>\\d)',
      steps: [
        {
          output: [
            {
              type: 'function_call',
              name: 'exec_command',
              arguments: { cmd: 'echo $$ > nap-{{n}}.pid; exec sleep 600' },
            },
          ],
        },
        { output: [{ type: 'message', text: 'woke' }] },
      ],
    },
  ];

  /** A resumed task asks a subagent of the run before what it answered, then sends it more work. */
  const FOLLOW_UP = {
    name: 'follow-up',
    match: '^follow up (?<id>[0-9a-f]+)',
    steps: [
      { output: [{ type: 'function_call', name: 'wait', arguments: { ids: ['{{id}}'], timeout_ms: 20_000 } }] },
      {
        output: [
          {
            type: 'function_call',
            name: 'send_input',
            arguments: { id: '{{id}}', message: 'helper alpha reads b.txt' },
          },
        ],
      },
      { output: [{ type: 'function_call', name: 'wait', arguments: { ids: ['{{id}}'], timeout_ms: 20_000 } }] },
      { output: [{ type: 'message', text: 'followed up' }] },
    ],
  };

  async function scenarioFile(): Promise<string> {
    const scenario = temp.path('subagents.json');
    await fs.writeFile(scenario, JSON.stringify({ scenarios: [...SCENARIOS.scenarios, ...NAPPERS, FOLLOW_UP] }));
    return scenario;
  }

  async function exec(prompt: string, extra: string[] = []) {
    const scenario = await scenarioFile();
    const args = ['exec', '--workspace', temp.path('workspace'), '--sessions-dir', temp.path('sessions')];
    const started = Date.now();
    const result = await runProcess(process.execPath, [bin, ...args, '--scenario', scenario, ...extra, prompt], '');
    return { ...result, ms: Date.now() - started };
  }

  it('--json: each subagent event names its agent and the spawn call; the task ends after them', async () => {
    const result = await exec('two helpers', ['--approve', 'all', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const events = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as JsonEvent & { callId?: string });
    const spawns = events.filter(
      (event) => event.type === 'tool_finished' && event.name === 'spawn_agent' && !event.agent,
    );
    const ids = spawns.map((event) => (JSON.parse(event.output ?? '{}') as { agent_id: string }).agent_id);
    assert.equal(ids.length, 2);
    for (const [index, id] of ids.entries()) {
      const own = events.filter((event) => event.agent?.id === id);
      assert.ok(own.some((event) => event.type === 'tool_finished' && event.name === 'read_file'));
      assert.ok(own.every((event) => event.agent?.parentCallId === spawns[index]?.callId));
      assert.equal(own.at(-1)?.type, 'done');
    }
    const last = events.at(-1);
    assert.equal(last?.type, 'done');
    assert.equal(last?.agent, undefined, "the task's own done is the last line");
    assert.equal(last?.status, 'completed');
  });

  it('for people: the subagent lines are indented under the task and named; exec waits for a subagent still running', async () => {
    const result = await exec('spawn and answer', ['--approve', 'all']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const id = /"agent_id":"([0-9a-f]+)"/.exec(result.stdout)?.[1] ?? /\n {2}([0-9a-f]{8}) │/.exec(result.stdout)?.[1];
    assert.ok(id, result.stdout);
    const lines = result.stdout.split('\n');
    const sleep = lines.findIndex((line) => line.startsWith(`  ${id} │ ▸ exec_command`) && line.includes('sleep 1'));
    const spawn = lines.findIndex((line) => line.startsWith('▸ spawn_agent'));
    const helperDone = lines.findIndex((line) => line.startsWith(`  ${id} │ done:`));
    const taskDone = lines.findIndex((line) => line.startsWith('done:'));
    assert.ok(spawn >= 0 && sleep > spawn, result.stdout);
    assert.ok(helperDone > sleep && taskDone > helperDone, result.stdout);
    assert.ok(result.ms >= 1_000, `exec ran ${result.ms} ms: it waited for the 1 s sleep`);
  });

  it("--approve read-only: a subagent's write is declined as the task's would be", async () => {
    const result = await exec('a helper that writes', ['--approve', 'read-only', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const events = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as JsonEvent);
    const touch = events.find(
      (event) => event.agent && event.type === 'tool_finished' && event.name === 'exec_command',
    );
    assert.equal(touch?.declined, true, JSON.stringify(touch));
    await assert.rejects(fs.access(temp.path('workspace/made-by-helper')));
  });

  it('Ctrl+C while two subagents run their commands: both commands are gone and exec exits 1 without waiting for them', async () => {
    const dir = temp.path('workspace');
    const args = ['exec', '--workspace', dir, '--sessions-dir', temp.path('sessions'), '--approve', 'all'];
    const child = spawn(process.execPath, [bin, ...args, '--scenario', await scenarioFile(), 'two nappers'], {
      cwd: repoRoot,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.resume();
    child.stdin.end();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const pid = async (n: string) => {
      const text = await fs.readFile(path.join(dir, `nap-${n}.pid`), 'utf8').catch(() => '');
      return /^\d+\n$/.test(text) ? Number(text) : undefined;
    };
    const deadline = Date.now() + 15_000;
    let pids: (number | undefined)[] = [];
    while (Date.now() < deadline && !(pids.length === 2 && pids.every((found) => found !== undefined))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pids = await Promise.all(['1', '2'].map(pid));
    }
    assert.ok(
      pids.every((found) => found !== undefined),
      `both helpers napping: ${stdout}`,
    );
    child.kill('SIGINT');
    // The naps last ten minutes, far past the test's timeout: an exec that waited for them instead of stopping
    // them fails here by timing out, whatever the machine's load.
    assert.equal(await exited, 1);
    for (const found of pids) assert.equal(await alive(found ?? 0), false, `sleep ${found} is gone`);
    await fs.rm(path.join(dir, 'nap-1.pid'));
    await fs.rm(path.join(dir, 'nap-2.pid'));
  });

  it("subagents' questions reach the terminal one at a time, in the order asked", async () => {
    const open: string[] = [];
    const seen: string[] = [];
    const ask = oneAtATime(async (question: string) => {
      open.push(question);
      seen.push(`${question} (${open.length} open)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      open.splice(open.indexOf(question), 1);
      if (question === 'b') throw new Error('no terminal');
      return question.toUpperCase();
    });
    const answers = await Promise.allSettled(['a', 'b', 'c'].map(ask));
    assert.deepEqual(seen, ['a (1 open)', 'b (1 open)', 'c (1 open)']);
    assert.deepEqual(
      answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : 'failed')),
      ['A', 'failed', 'C'],
    );
  });

  it('--resume: the resumed task knows the subagents of the run before, their answers and conversations', async () => {
    const sessions = temp.path('sessions');
    await fs.rm(sessions, { recursive: true, force: true });
    const first = await exec('two helpers', ['--approve', 'all', '--json']);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const spawned = /"agent_id\\?":\\?"([0-9a-f]+)/.exec(first.stdout)?.[1];
    assert.ok(spawned, first.stdout);
    const [file = ''] = await fs.readdir(sessions);
    assert.ok(file.endsWith('.jsonl'), file);
    const resumed = await exec(`follow up ${spawned}`, [
      '--approve',
      'all',
      '--json',
      '--resume',
      path.join(sessions, file),
    ]);
    assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
    const events = resumed.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as JsonEvent);
    const waits = events.filter((event) => event.type === 'tool_finished' && event.name === 'wait' && !event.agent);
    const answers = waits.map(
      (event) => (JSON.parse(event.output ?? '{}') as { status?: Record<string, unknown> }).status?.[spawned],
    );
    // Without the subagents kept in the session file, the resumed wait said not_found.
    assert.deepEqual(answers, [{ completed: 'alpha read a.txt' }, { completed: 'alpha read b.txt' }]);
    assert.ok(
      events.some(
        (event) => event.agent?.id === spawned && event.type === 'tool_finished' && event.name === 'read_file',
      ),
    );
  });
});
