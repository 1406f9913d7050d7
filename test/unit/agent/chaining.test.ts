import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../src/server';
import { eventsOf, requestsOf, useAgentBench } from './agentHarness';

// The chaining rule on the wire: one socket, a warm-up, then every turn sends previous_response_id and
// only its new items, so a big early read is never sent again.

const BIG =
  Array.from({ length: 600 }, (_, i) => `export const line${i} = 'a line of the big file, number ${i}';`).join('\n') +
  '\n';

/** Reads the big file, then 19 more calls (20 in all), then answers. */
function twentyCalls(): ScenarioFile {
  const steps: ScenarioFile['scenarios'][number]['steps'] = [
    { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'big.ts' } }] },
  ];
  for (let i = 1; i < 20; i++) {
    steps.push({
      output: [
        i % 2 === 0
          ? { type: 'function_call', name: 'search_text', arguments: { query: `line${i}\\b`, is_regex: true } }
          : { type: 'function_call', name: 'find_files', arguments: { pattern: '*.ts' } },
      ],
    });
  }
  steps.push({ output: [{ type: 'message', text: 'Done: twenty calls.' }] });
  return { scenarios: [{ name: 'twenty', match: 'twenty calls', steps }] };
}

describe('agent: one WebSocket, chained turns', () => {
  const bench = useAgentBench(twentyCalls, { 'big.ts': BIG });

  it('runs 20 tool calls over one socket; from turn 2 on, each create chains and leaves the big read out', async () => {
    const { agent } = await bench.agent();
    await agent.start();
    const done = await agent.run('Make twenty calls, please.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(done.toolCalls, 20);
    assert.equal(done.turns, 21);
    const wire = await bench.wire();
    const opens = wire.filter((line) => line.transport === 'ws' && line.type === 'open');
    assert.equal(opens.length, 1, 'one socket for the whole task');
    const creates = requestsOf(wire);
    assert.equal(creates.length, 22, 'one warm-up, then one create per turn');
    assert.ok(creates.every((line) => line.transport === 'ws'));
    assert.equal(creates[0]?.previous_response_id, null, 'the warm-up starts the chain');
    assert.ok(
      creates.slice(1).every((line) => typeof line.previous_response_id === 'string'),
      'every turn chains',
    );
    assert.ok(BIG.length > 20_000);
    // Turn 2 carries the read's output (the big file, once); no turn after it carries it again.
    const sizes = creates.map((line) => line.bytes ?? 0);
    assert.ok((sizes[2] ?? 0) > BIG.length, `turn 2 sends the read once (${sizes[2]} bytes)`);
    for (const [i, size] of sizes.slice(3).entries())
      assert.ok(size < 8_000, `turn ${i + 3} sent ${size} bytes: only its new items (and the tools)`);
    const metrics = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
    assert.equal(metrics.length, 21);
    assert.ok(metrics.every((m) => m.transport === 'ws' && m.attempts === 1));
    assert.equal(metrics[0]?.chained, false, 'turn 1 chains from the warm-up, which holds no items: it sends them all');
    assert.ok(metrics.slice(1).every((m) => m.chained));
    assert.ok(
      metrics.slice(1).every((m) => m.itemsSent === 1),
      'one function_call_output per later turn',
    );
    // The turnaround before each later request covers its tool call, so it is never below the tool's time.
    assert.equal(metrics[0]?.gapMs, null, 'no turnaround before the first request');
    for (const [i, m] of metrics.slice(1).entries()) {
      const before = metrics[i];
      assert.ok(
        m.gapMs !== null && before !== undefined && m.gapMs >= before.toolMs,
        `turn ${m.turn}: gap ${m.gapMs} ms, tool ${before?.toolMs} ms`,
      );
    }
    assert.deepEqual(
      bench.turns.map((turn) => turn.chainedFrom),
      bench.turns.map((_, i) => (i === 0 ? 'none' : 'connection')),
    );
  });
});
