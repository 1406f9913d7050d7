import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transcript, askEach } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { eventsOf, requestsOf, useAgentBench } from './agentHarness';

// A session over time: cancelled mid-stream and continued, an invalid call the model recovers from, a
// transcript resumed after the process went away — with full context first, and no call run twice.

const LONG = 'This answer streams slowly, word by word. '.repeat(40);

const SCENARIOS: ScenarioFile = {
  scenarios: [
    { name: 'slow', match: 'talk slowly', steps: [{ output: [{ type: 'message', text: LONG }] }] },
    {
      name: 'read',
      match: 'read the notes',
      steps: [
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message', text: 'Read them.' }] },
      ],
    },
    {
      name: 'write',
      match: 'write a note',
      steps: [
        { output: [{ type: 'function_call', name: 'write_file', arguments: { path: 'new.txt', content: 'hi\n' } }] },
        { output: [{ type: 'message', text: 'Wrote it.' }] },
      ],
    },
    {
      name: 'clumsy',
      match: 'clumsy',
      steps: [
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 42 } }] },
        { output: [{ type: 'function_call', name: 'open_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'function_call', name: 'read_file', arguments: '{"path": "notes.txt"' }] },
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message', text: 'Got there in the end.' }] },
      ],
    },
  ],
};

describe('agent: a session over time', () => {
  const bench = useAgentBench(SCENARIOS, { 'notes.txt': 'one\ntwo\n' }, { tps: 400 });

  it('cancel mid-stream settles at once; the next turn works and chains correctly', async () => {
    const { agent } = await bench.agent();
    await agent.start();
    const controller = new AbortController();
    const cancelled = agent.run('Talk slowly.', controller.signal);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (bench.events.some((event) => event.type === 'text_delta')) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    controller.abort();
    const done = await cancelled;
    assert.equal(done.status, 'cancelled');
    // At once: the run settles while the answer is still streaming (by order, not by a clock), so only part
    // of it ever reached the client.
    const streamed = eventsOf(bench.events, 'text_delta')
      .map((event) => event.delta)
      .join('');
    assert.ok(streamed.length > 0 && streamed.length < LONG.length, `settled after ${streamed.length} characters`);
    const next = await agent.run('Now read the notes.');
    assert.equal(next.status, 'completed', next.reason);
    const wire = await bench.wire();
    // The cancelled response's socket is replaced; the next turn goes in full on a new one, then chains.
    assert.equal(wire.filter((line) => line.type === 'open' && line.transport === 'ws').length, 2);
    const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
    assert.deepEqual(
      metrics.map((m) => m.chained),
      [false, true],
    );
    assert.equal(metrics[0]?.itemsSent, 2, 'the cancelled prompt and the new one');
  });

  it('an invalid call becomes an error output the model recovers from; the loop never crashes', async () => {
    const { agent } = await bench.agent();
    const done = await agent.run('Be clumsy.');
    assert.equal(done.status, 'completed', done.reason);
    const results = eventsOf(bench.events, 'tool_finished');
    assert.deepEqual(
      results.map((event) => event.ok),
      [false, false, false, true],
    );
    assert.match(results[0]?.output ?? '', /Invalid arguments for read_file: path/);
    assert.match(results[1]?.output ?? '', /There is no tool 'open_file'/);
    assert.match(results[2]?.output ?? '', /not valid JSON/);
    assert.match(results[3]?.output ?? '', /^one\ntwo\n/);
  });

  it('a resumed session sends the full context first, then chains', async () => {
    const first = await bench.agent();
    assert.equal((await first.agent.run('Read the notes.')).status, 'completed');
    first.transport.close();
    const resumed = await bench.agent({ transcript: Transcript.load(bench.transcriptFile) });
    await resumed.agent.start();
    const done = await resumed.agent.run('Read the notes once more.');
    assert.equal(done.status, 'completed', done.reason);
    const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
    assert.equal(metrics.length, 4);
    assert.equal(metrics[2]?.chained, false);
    assert.equal(metrics[2]?.itemsSent, 5, 'the whole first task and the new prompt');
    assert.equal(metrics[3]?.chained, true);
    const creates = requestsOf(await bench.wire());
    assert.ok(creates.every((line) => line.transport === 'ws'));
  });

  it('after a crash, a call that had started is answered as interrupted, never run again', async () => {
    const transcript = Transcript.create(
      { id: 'crashed', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
      bench.transcriptFile,
    );
    transcript.append({ type: 'message', role: 'user', content: 'Read the notes.' });
    transcript.append({
      type: 'function_call',
      call_id: 'call_1',
      name: 'read_file',
      arguments: '{"path":"notes.txt"}',
    });
    transcript.markStarted('call_1', 'read_file');
    // The process died here, mid-write of the next line.
    fs.appendFileSync(bench.transcriptFile, '{"kind":"item","item":{"type":"function_call_out');
    const loaded = Transcript.load(bench.transcriptFile);
    assert.equal(loaded.items.length, 2, 'the torn last line is dropped');
    assert.deepEqual(
      loaded.pendingCalls().map((call) => call.started),
      [true],
    );
    const { agent } = await bench.agent({ transcript: loaded });
    const done = await agent.run(undefined);
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(eventsOf(bench.events, 'tool_started').length, 0, 'the interrupted call did not run again');
    const reread = Transcript.load(bench.transcriptFile);
    const output = reread.items[2] as { type: string; output: string };
    assert.equal(output.type, 'function_call_output');
    assert.match(output.output, /interrupted/);
    assert.equal(reread.pendingCalls().length, 0);
  });

  it('two conversations at once share the socket on their own lanes, each chained', async () => {
    const chat = await bench.agent();
    const fix = await bench.agent({ shared: chat.transport, lane: 'fix-1' });
    await chat.agent.start();
    const [slow, quick] = await Promise.all([chat.agent.run('Talk slowly.'), fix.agent.run('Read the notes.')]);
    assert.equal(slow.status, 'completed', slow.reason);
    assert.equal(quick.status, 'completed', quick.reason);
    // The quick fix finished while the slow answer was still streaming on the other lane.
    const order = bench.events.filter((event) => event.type === 'done' || event.type === 'text_delta');
    const quickDone = order.findIndex((event) => event.type === 'done');
    assert.ok(
      order.slice(quickDone + 1).some((event) => event.type === 'text_delta'),
      'the lanes ran side by side',
    );
    const wire = await bench.wire();
    assert.equal(wire.filter((line) => line.type === 'open' && line.transport === 'ws').length, 1);
    const fixTurns = eventsOf(bench.events, 'turn_finished').filter((event) => event.metrics.turn === 2);
    assert.ok(
      fixTurns.some((event) => event.metrics.chained),
      'the fix lane chains its second turn',
    );
  });

  it('a socket the server drops while idle costs nothing but a reconnect: no crash, the next turn works', async () => {
    const { agent } = await bench.agent();
    await agent.start();
    const dropped = await fetch(`${bench.server.url.replace(/\/v1$/, '')}/admin/drop-connections`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token' },
    });
    assert.equal(dropped.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const done = await agent.run('Read the notes.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(eventsOf(bench.events, 'retry').length, 0, 'the closed socket was noticed before sending');
  });

  it('a call’s duration and the turn’s tool time leave out the wait for approval', async () => {
    const WAIT_MS = 1500;
    const approvals = askEach(() => new Promise((resolve) => setTimeout(() => resolve(true), WAIT_MS)));
    const { agent } = await bench.agent({ approvals });
    const done = await agent.run('write a note');
    assert.equal(done.status, 'completed');
    const [finished] = eventsOf(bench.events, 'tool_finished');
    assert.equal(finished?.ok, true);
    assert.ok((finished?.durationMs ?? 0) < WAIT_MS, `the write took ${finished?.durationMs} ms, not the wait`);
    const [turn] = eventsOf(bench.events, 'turn_finished');
    assert.ok((turn?.metrics.approvalMs ?? 0) >= WAIT_MS - 50, `approval ${turn?.metrics.approvalMs} ms`);
    assert.ok((turn?.metrics.toolMs ?? 0) < WAIT_MS, `tools ${turn?.metrics.toolMs} ms`);
  });

  it('a transcript line that is not the last and cannot be read is an error naming it', () => {
    fs.mkdirSync(path.dirname(bench.transcriptFile), { recursive: true });
    fs.writeFileSync(
      bench.transcriptFile,
      '{"kind":"session","version":1,"id":"x","createdAt":"t","workspace":"w","model":"m"}\nnot json\n{"kind":"tool_started","callId":"c","name":"n"}\n',
    );
    assert.throws(() => Transcript.load(bench.transcriptFile), /line 2 is not JSON/);
  });
});
