import * as assert from 'node:assert/strict';
import { Transcript } from '../../../src/agent';
import { eventsOf, useAgentBench } from './agentHarness';
import { HUGE_PROMPT, LONG_PROMPT, LONG_READS as READS, longFiles, longScenario } from './longScenario';

// Long sessions against the bundled backend with a small window: the agent asks the server to compact past
// its threshold and keeps chaining on the same socket; a context that overflows at once is compacted on
// request and sent again; with compaction off the task stops with the API's error. Everything real: the
// server tokenizes, compacts and refuses as it does for any client.

describe('agent: long sessions in a context window, compacted over the same socket', function () {
  this.timeout(60_000);
  const bench = useAgentBench(longScenario, longFiles, { contextWindow: 4_000 });
  const plan = { window: 4_000, compactThreshold: 2_400 };

  it('compacts past the threshold and keeps chaining: every step runs, nothing is refused', async () => {
    const { agent } = await bench.agent({ context: plan });
    await agent.start();
    const done = await agent.run(LONG_PROMPT);
    assert.equal(done.status, 'completed', done.reason);
    const compactions = eventsOf(bench.events, 'compacted');
    assert.ok(compactions.length >= 2, `compacted ${compactions.length} times`);
    for (const compaction of compactions) {
      assert.equal(compaction.how, 'auto');
      assert.ok(compaction.tokensAfter < compaction.tokensBefore, JSON.stringify(compaction));
    }
    const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
    assert.equal(metrics.length, READS + 1);
    assert.deepEqual(
      metrics
        .slice(1)
        .filter((m) => !m.chained || m.itemsSent > 2)
        .map((m) => m.turn),
      [],
      'after the first turn each request sends only what is new',
    );
    assert.ok(metrics.every((m) => m.contextWindow === 4_000 && m.contextTokens <= 4_000));
    assert.equal(metrics.filter((m) => m.compacted).length, compactions.length);
    // The server compacted exactly when the agent says so.
    assert.equal(bench.turns.filter((turn) => turn.compaction).length, compactions.length);
  });

  it('compacts on request when a tool output overflows the window at once, and sends the turn again', async () => {
    const { agent, transcript } = await bench.agent({ context: { window: 4_000, compactThreshold: 3_500 } });
    await agent.start();
    const done = await agent.run(HUGE_PROMPT);
    assert.equal(done.status, 'completed', done.reason);
    const compactions = eventsOf(bench.events, 'compacted');
    assert.equal(compactions[0]?.how, 'request', 'the overflow was compacted on request first');
    const errors = eventsOf(bench.events, 'error');
    assert.deepEqual(errors, [], 'the overflow was recovered, not reported');
    // The transcript keeps everything, with the compaction where it stands for what came before.
    const reloaded = Transcript.load(transcript.file ?? '');
    const kept = reloaded.items.filter((item) => (item as { type?: string }).type === 'compaction');
    assert.equal(kept.length, compactions.length);
    assert.equal(reloaded.items.length, transcript.items.length);
  });

  it('with compaction off, stops with a clear context_length_exceeded', async () => {
    const { agent } = await bench.agent({ context: { window: 4_000, compactThreshold: undefined } });
    await agent.start();
    const done = await agent.run(LONG_PROMPT);
    assert.equal(done.status, 'failed');
    assert.match(done.reason, /no longer fits the model's context window of 4000 tokens, and compaction is off/);
    assert.deepEqual(
      eventsOf(bench.events, 'error').map((e) => e.code),
      ['context_length_exceeded'],
    );
  });

  it('resumes a compacted session on a new socket: the full resend is the compacted context', async () => {
    const first = await bench.agent({ context: plan, maxTurns: 8 });
    await first.agent.start();
    const stopped = await first.agent.run(LONG_PROMPT);
    assert.equal(stopped.status, 'stopped');
    assert.ok(eventsOf(bench.events, 'compacted').length >= 1);
    first.transport.close(false);
    const resumed = await bench.agent({ context: plan, transcript: Transcript.load(first.transcript.file ?? '') });
    await resumed.agent.start();
    const done = await resumed.agent.run(undefined);
    assert.equal(done.status, 'completed', done.reason);
    const last = eventsOf(bench.events, 'message').at(-1);
    assert.equal(last?.text, 'Read every part.');
  });
});
