import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunningCommand } from '../../../src/protocol/runningCommands';
import { BackgroundCommands, type SessionEvent } from '../../../src/tools';
import { toolBench } from './toolHarness';
import { alive } from '../support/processAlive';

// exec_command and write_stdin as Codex's unified exec, on the Node adapter: a command still running at its
// yield time goes on in the background with a session id, write_stdin writes to it and polls it, and the
// host's stopAll leaves nothing of it running.

async function sessionBench(files: Record<string, string> = {}) {
  const bench = await toolBench(files);
  const events: SessionEvent[] = [];
  const sessions = new BackgroundCommands((event) => events.push(event));
  bench.context.sessions = sessions;
  return { ...bench, sessions, events };
}

/** Waits, briefly, until `done` holds (an ended session is told a tick after its group is gone). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(done());
}

const sessionId = (output: string): number => Number(/session_id (\d+)/.exec(output)?.[1]);

describe('command sessions (exec_command yield_time_ms, write_stdin)', function () {
  this.timeout(20_000);

  it('returns at once from a sleep 30 with a session, and stopAll leaves nothing of it running', async () => {
    const { run, root, sessions, events } = await sessionBench();
    const started = Date.now();
    const result = await run('exec_command', { cmd: 'echo $$ > shell.pid; echo begun; sleep 30', yield_time_ms: 500 });
    assert.ok(Date.now() - started < 5000, 'it answered at the yield time');
    assert.equal(result.ok, true);
    assert.match(result.output, /is still running, in the background as session_id 1\./);
    assert.match(result.output, /begun/);
    assert.deepEqual(sessions.ids(), [1]);
    const pid = Number(await fs.readFile(path.join(root, 'shell.pid'), 'utf8'));
    assert.equal(await alive(pid), true);
    await sessions.stopAll();
    assert.equal(await alive(pid), false);
    assert.deepEqual(
      events.map((event) => event.kind),
      ['background', 'ended'],
    );
  });

  it('answers as before when the command ends within the yield time', async () => {
    const { run, sessions } = await sessionBench({ 'a.txt': 'alpha\n' });
    const result = await run('exec_command', { cmd: 'cat a.txt' });
    assert.match(result.output, /^The command finished with exit code 0 after \d+\.\d s\.\n--- output ---\nalpha$/);
    assert.deepEqual(sessions.ids(), []);
  });

  it('writes to a read loop with write_stdin and reads its echo', async () => {
    const { run, sessions } = await sessionBench();
    const started = await run('exec_command', {
      cmd: 'while read line; do echo "got $line"; done',
      yield_time_ms: 200,
    });
    const id = sessionId(started.output);
    assert.equal(id, 1);
    const echoed = await run('write_stdin', { session_id: id, chars: 'hello\n', yield_time_ms: 1000 });
    assert.equal(echoed.ok, true);
    assert.match(echoed.output, /--- output so far ---\ngot hello$/);
    const again = await run('write_stdin', { session_id: id, chars: 'world\n', yield_time_ms: 1000 });
    assert.match(again.output, /\ngot world$/);
    assert.doesNotMatch(again.output, /got hello/, 'only what it printed since');
    await sessions.stopAll();
  });

  it('polls with empty chars: new output, then the exit code once it ends, then no session', async () => {
    const { run } = await sessionBench();
    const started = await run('exec_command', { cmd: 'echo one; sleep 0.6; echo two; exit 4', yield_time_ms: 200 });
    assert.match(started.output, /\none$/);
    const id = sessionId(started.output);
    const done = await run('write_stdin', { session_id: id, chars: '', yield_time_ms: 5000 });
    assert.equal(done.ok, false);
    assert.match(done.output, /^Session 1 \(echo one; sleep 0\.6; echo two; exit 4\) finished with exit code 4/);
    assert.match(done.output, /\ntwo$/);
    const gone = await run('write_stdin', { session_id: id });
    assert.equal(gone.ok, false);
    assert.match(gone.output, /There is no session 1/);
  });

  it('still stops a session at timeout_s, its whole process tree', async () => {
    const { run, root } = await sessionBench();
    const started = await run('exec_command', {
      cmd: 'sleep 30 & echo $! > child.pid; wait',
      yield_time_ms: 200,
      timeout_s: 1,
    });
    const id = sessionId(started.output);
    const pid = Number(await fs.readFile(path.join(root, 'child.pid'), 'utf8'));
    const done = await run('write_stdin', { session_id: id, yield_time_ms: 5000 });
    assert.match(done.output, /timed out after 1 s and was stopped/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await alive(pid), false);
  });

  it('keeps the head and tail of a session output within max_output_tokens', async () => {
    const { run } = await sessionBench();
    const result = await run('exec_command', { cmd: 'seq 1 5000', max_output_tokens: 100 });
    assert.match(result.output, /\n1\n2\n/);
    assert.match(result.output, /cut from the middle/);
    assert.match(result.output, /\n5000$/);
    assert.ok(result.output.length < 600);
  });

  it("lists what runs for the panel, with its time since it started; Stop ends one's group; each change told", async () => {
    const { run, root, sessions } = await sessionBench();
    const lists: RunningCommand[][] = [];
    sessions.watch((commands) => lists.push(commands));
    assert.deepEqual([...lists], [[]], 'told the list at once');
    await run('exec_command', { cmd: 'sleep 30 & echo $! > a.pid; wait', yield_time_ms: 300 });
    await run('exec_command', { cmd: 'sleep 30', yield_time_ms: 100 });
    const [first, second] = sessions.list();
    assert.deepEqual(
      sessions.list().map(({ id, command }) => ({ id, command })),
      [
        { id: 1, command: 'sleep 30 & echo $! > a.pid; wait' },
        { id: 2, command: 'sleep 30' },
      ],
    );
    // Counted from the start, its yield time included.
    assert.ok(first && second && first.runningMs >= 300 && first.runningMs > second.runningMs, JSON.stringify(lists));
    assert.deepEqual(
      lists.map((list) => list.map((command) => command.id)),
      [[], [1], [1, 2]],
    );
    const pid = Number(await fs.readFile(path.join(root, 'a.pid'), 'utf8'));
    await sessions.stop(1);
    assert.equal(await alive(pid), false, 'what it started went with it');
    await until(() => lists.at(-1)?.length === 1);
    assert.deepEqual(
      sessions.list().map((command) => command.id),
      [2],
    );
    // The model learns at its next look that it was stopped.
    const told = await run('write_stdin', { session_id: 1 });
    assert.match(told.output, /^Session 1 \(sleep 30 & echo/);
    await sessions.stop(1);
    await sessions.stopAll();
    await until(() => lists.at(-1)?.length === 0);
    assert.deepEqual(sessions.list(), []);
  });

  it('runs a command to its end where the host keeps no sessions', async () => {
    const { run } = await toolBench({});
    const result = await run('exec_command', { cmd: 'sleep 0.5; echo done', yield_time_ms: 100 });
    assert.match(result.output, /finished with exit code 0/);
    assert.match((await run('write_stdin', { session_id: 1 })).output, /There is no session 1/);
  });
});
