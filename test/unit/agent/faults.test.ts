import * as assert from 'node:assert/strict';
import { askEach } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { type AgentBench, eventsOf, queueFault, requestsOf, useAgentBench } from './agentHarness';

// Faults from the real server (its fault injection, a restart, a short connection limit): each task still
// completes with the right files, and no tool runs twice — proved by edits that insert a line, which
// would show twice if they ran twice.

const insert = (line: string) => `*** Begin Patch\n*** Update File: journal.txt\n@@\n+${line}\n*** End Patch\n`;

const JOURNAL: ScenarioFile = {
  scenarios: [
    {
      name: 'journal',
      match: 'keep the journal',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: insert('entry one') }] },
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'journal.txt' } }] },
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: insert('entry two') }] },
        { output: [{ type: 'message', text: 'The journal has two new entries.' }] },
      ],
    },
  ],
};

const FILES = { 'journal.txt': 'start\n' };
const EXPECTED = 'start\nentry one\nentry two\n';

/** Runs the journal task with `onFirstWrite` run while the first edit waits for approval. */
async function journal(bench: AgentBench, onFirstWrite: () => Promise<void>, options = {}) {
  let writes = 0;
  const { agent } = await bench.agent({ ...options });
  (agent as unknown as { runner: { approvals: unknown } }).runner.approvals = askEach(async () => {
    if (++writes === 1) await onFirstWrite();
    return true;
  });
  await agent.start();
  const done = await agent.run('Please keep the journal.');
  const started = eventsOf(bench.events, 'tool_started').filter((event) => event.name === 'apply_patch');
  return { done, patches: started.length };
}

describe('agent: faults, and no tool runs twice', () => {
  describe('on the server’s own faults', () => {
    const bench = useAgentBench(JOURNAL, FILES);

    it('a socket dropped mid-stream: the partial output is discarded and the turn resent on a new socket', async () => {
      const { done, patches } = await journal(bench, () => queueFault(bench, { kind: 'close', after_events: 5 }));
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(bench.read('journal.txt'), EXPECTED);
      assert.equal(patches, 2, 'each edit ran once');
      assert.ok(eventsOf(bench.events, 'output_discarded').length >= 1);
      const reconnect = eventsOf(bench.events, 'transport').find((event) => event.state === 'reconnecting');
      assert.ok(reconnect, 'the drop is reported as a reconnect');
      const wire = await bench.wire();
      assert.equal(wire.filter((line) => line.type === 'open' && line.transport === 'ws').length, 2);
    });

    it('previous_response_not_found: the turn is resent with the full context, unchained', async () => {
      const { done, patches } = await journal(bench, () =>
        queueFault(bench, {
          kind: 'error',
          status: 400,
          code: 'previous_response_not_found',
          message: "Previous response with id 'x' not found.",
        }),
      );
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(bench.read('journal.txt'), EXPECTED);
      assert.equal(patches, 2);
      const retry = eventsOf(bench.events, 'retry')[0];
      assert.match(retry?.reason ?? '', /previous_response_not_found/);
      const creates = requestsOf(await bench.wire());
      // warm-up, turn 1, turn 2 (refused), turn 2 again: full and unchained, on the same socket.
      assert.equal(typeof creates[2]?.previous_response_id, 'string');
      assert.equal(creates[3]?.previous_response_id, null);
      assert.ok((creates[3]?.bytes ?? 0) > (creates[2]?.bytes ?? 0), 'the resend carries the whole conversation');
      assert.equal(new Set(creates.map((line) => line.conn)).size, 1);
    });

    it('a rate limit: waits for retry-after (with jitter), then goes on', async () => {
      const { done, patches } = await journal(bench, () =>
        queueFault(bench, {
          kind: 'error',
          status: 429,
          code: 'rate_limit_exceeded',
          message: 'slow down',
          retry_after_s: 1,
        }),
      );
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(patches, 2);
      const retry = eventsOf(bench.events, 'retry')[0];
      assert.ok(retry && retry.delayMs >= 1000 && retry.delayMs <= 1250, `waited ${retry?.delayMs} ms`);
      assert.equal(bench.read('journal.txt'), EXPECTED);
    });

    it('a server restart mid-task (its cache gone): a new socket, the full context, the task completes', async () => {
      const { done, patches } = await journal(bench, () => bench.restart());
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(bench.read('journal.txt'), EXPECTED);
      assert.equal(patches, 2);
      const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
      const afterRestart = metrics[1];
      assert.equal(afterRestart?.chained, false, 'the first turn on the new server sends everything');
      assert.equal(afterRestart?.itemsSent, 3, 'the prompt, the call and its output');
      assert.ok(
        metrics.slice(2).every((m) => m.chained),
        'then it chains again',
      );
    });

    it('auth refused: stops at once with a clear reason', async () => {
      const { agent } = await bench.agent({ apiKey: 'wrong' });
      const done = await agent.run('Please keep the journal.');
      assert.equal(done.status, 'failed');
      assert.match(done.reason, /refused the credentials.*401/);
      // The remedy is the front end's to say (a variable in the CLI, a button in the panel), by this code.
      assert.equal(done.code, 'auth');
      assert.equal(bench.read('journal.txt'), 'start\n');
    });
  });

  describe('transport fallback', () => {
    const bench = useAgentBench(JOURNAL, FILES);
    const dropEveryWs = () => queueFault(bench, { kind: 'close', after_events: 0 }, 4, 'ws');

    it('auto: after repeated WebSocket failures, HTTP, and it says so', async () => {
      const { done, patches } = await journal(bench, dropEveryWs, { transport: 'auto' });
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(bench.read('journal.txt'), EXPECTED);
      assert.equal(patches, 2);
      const fallback = eventsOf(bench.events, 'transport').find((event) => event.state === 'http_fallback');
      assert.ok(fallback, 'the fall back is announced');
      const requests = requestsOf(await bench.wire());
      assert.ok(requests.some((line) => line.transport === 'http'));
      const last = eventsOf(bench.events, 'turn_finished').at(-1)?.metrics;
      assert.equal(last?.transport, 'http');
    });

    it('ws: never HTTP, whatever fails', async () => {
      const { done, patches } = await journal(bench, dropEveryWs, { transport: 'ws' });
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(patches, 2);
      assert.equal(bench.read('journal.txt'), EXPECTED);
      const requests = requestsOf(await bench.wire());
      assert.ok(requests.every((line) => line.transport === 'ws'));
      assert.ok(!eventsOf(bench.events, 'transport').some((event) => event.state === 'http_fallback'));
    });
  });
});

/** Six calls of a task that naps 0.4 s: the whole run outlives a 1-second connection. */
const NAPS: ScenarioFile = {
  scenarios: [
    {
      name: 'naps',
      match: 'take naps',
      steps: [
        ...Array.from({ length: 6 }, () => ({
          output: [{ type: 'function_call' as const, name: 'run_task', arguments: { label: 'nap' } }],
        })),
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: insert('rested') }] },
        { output: [{ type: 'message', text: 'Rested.' }] },
      ],
    },
  ],
};
const NAP_FILES = {
  'journal.txt': 'start\n',
  '.vscode/tasks.json': JSON.stringify({
    version: '2.0.0',
    tasks: [{ label: 'nap', type: 'shell', command: 'sleep 0.4' }],
  }),
};

describe('agent: connection age', () => {
  describe('the server’s limit, shortened to 1 s', () => {
    const bench = useAgentBench(NAPS, NAP_FILES, { maxConnectionS: 1 });

    it('sockets the server retires are replaced; no turn is lost', async () => {
      const { agent } = await bench.agent();
      await agent.start();
      const done = await agent.run('Take naps.');
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(done.toolCalls, 7);
      assert.equal(bench.read('journal.txt'), 'start\nrested\n');
      const wire = await bench.wire();
      assert.ok(wire.filter((line) => line.type === 'open' && line.transport === 'ws').length >= 2);
      assert.equal(eventsOf(bench.events, 'tool_started').length, 7, 'no tool ran twice');
    });
  });

  describe('rotation by the client, before the limit', () => {
    const bench = useAgentBench(NAPS, NAP_FILES);

    it('rotates between turns, warms each socket up once, and resends nothing it did not need to', async () => {
      const { agent } = await bench.agent({ rotateAfterMs: 700 });
      await agent.start();
      const done = await agent.run('Take naps.');
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(eventsOf(bench.events, 'retry').length, 0, 'rotation is not a fault');
      const wire = await bench.wire();
      const opens = wire.filter((line) => line.type === 'open' && line.transport === 'ws').length;
      assert.ok(opens >= 3, `${opens} sockets`);
      const warmups = bench.turns.filter((turn) => turn.trace === 'warm-up').length;
      assert.equal(warmups, opens, 'one warm-up per socket');
      const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
      assert.equal(metrics.length, 8);
      // A turn sends the full context only as the first turn of a socket.
      assert.equal(metrics.filter((m) => !m.chained).length, opens);
      assert.ok(metrics.every((m) => m.attempts === 1));
    });
  });
});
