import * as assert from 'node:assert/strict';
import { Pacer } from '../../../src/server/pacer';
import { WsClient, useServer } from './support/harness';
import { storyScenario } from './support/scenarios';

// Simulated inference: output paced by the clock at --tps, a prefill cost per uncached input token.
// Only lower bounds are asserted (a busy machine can be slower, never faster than the clock allows).

describe('simulated inference: pacing', () => {
  const harness = useServer(() => ({ tps: 500, scenarios: [storyScenario(100)] }));

  it('streams at --tps: N output tokens take at least N/tps, spread over many deltas', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const started = performance.now();
      const frames = await raw.turn({ model: 'm', store: false, input: 'tell me a story' });
      const elapsed = performance.now() - started;
      const response = frames.at(-1)?.response as { usage: { output_tokens: number } };
      const tokens = response.usage.output_tokens;
      const expected = (tokens / 500) * 1000;
      assert.ok(
        elapsed >= expected * 0.95,
        `${tokens} tokens at 500/s took ${elapsed.toFixed(0)} ms, under ${expected.toFixed(0)} ms`,
      );
      const deltas = frames.filter((frame) => frame.type === 'response.output_text.delta');
      assert.ok(deltas.length >= 20, `only ${deltas.length} deltas for ${tokens} tokens`);
    } finally {
      raw.close();
    }
  });
});

describe('simulated inference: prefill', () => {
  const harness = useServer(() => ({ tps: 100_000, prefillUsPerToken: 200, scenarios: [storyScenario(5)] }));

  it('uncached input costs prefill time; the same prefix again is served from the prompt cache (any transport)', async () => {
    const input = [{ role: 'user', content: `tell me a story ${'about a lighthouse keeper '.repeat(300)}` }];
    const timed = async () => {
      const started = performance.now();
      const reply = await fetch(`${harness.url}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', store: false, input }),
      });
      const body = (await reply.json()) as {
        usage: { input_tokens: number; input_tokens_details: { cached_tokens: number } };
      };
      return { ms: performance.now() - started, usage: body.usage };
    };
    const cold = await timed();
    const warm = await timed();
    const prefillMs = (cold.usage.input_tokens * 200) / 1000;
    assert.ok(
      cold.ms >= prefillMs * 0.95,
      `cold took ${cold.ms.toFixed(0)} ms, prefill alone is ${prefillMs.toFixed(0)} ms`,
    );
    assert.equal(cold.usage.input_tokens_details.cached_tokens, 0);
    assert.equal(warm.usage.input_tokens_details.cached_tokens, warm.usage.input_tokens);
    assert.deepEqual(
      harness.turns.map((turn) => Math.round(turn.prefillMs)),
      [Math.round(prefillMs), 0],
    );
  });
});

describe('Pacer', () => {
  it('hands out tokens by the clock: a late caller gets every token due so far in one go', async () => {
    let now = 0;
    const pacer = new Pacer(100, 1000, () => now);
    now = 100;
    assert.equal(await pacer.take(50), 1);
    now = 110.5;
    assert.equal(await pacer.take(50), 10, 'tokens 1..10 fell due by 110.5 ms');
    now = 1000;
    assert.equal(await pacer.take(5), 5, 'never more than asked');
  });
});
