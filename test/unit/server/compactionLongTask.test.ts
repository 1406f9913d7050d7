import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { contextLengthExceeded } from '../../../src/protocol';
import { useServer } from './support/harness';
import { COMPACT, LONG_STEPS, LONG_TASK, WINDOW, playOverHttp, playOverSocket } from './support/longTask';
import { SdkSocket } from './support/sdkSocket';

// A ten-step task whose context outgrows a 3,000-token window plays to its last step when the server compacts
// it (docs/backend.md, "Compaction"): over one socket chaining, over HTTP with the whole history, and over
// HTTP pruned at the latest compaction — the same steps, the same compactions, never over the window.

type Response = OpenAI.Responses.Response;

const compactions = (responses: Response[]) =>
  responses.flatMap((response) => response.output.filter((item) => item.type === 'compaction'));

describe('a long task with compaction', function () {
  this.timeout(60_000);
  const harness = useServer({ scenarios: [LONG_TASK], contextWindow: WINDOW });
  const client = () => new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });
  const fields = { model: 'gpt-5.5', store: false, context_management: COMPACT };

  /** The task's shape, whatever the transport: every step in order, the last one the closing message. */
  function assertPlayedThrough(responses: Response[]): void {
    assert.equal(responses.length, LONG_STEPS);
    assert.deepEqual(
      harness.turns.filter((turn) => turn.outcome === 'completed').map((turn) => turn.trace),
      Array.from({ length: LONG_STEPS }, (_, i) => `long task#${i + 1}`),
    );
    const closing = responses.at(-1)?.output.at(-1);
    assert.ok(closing?.type === 'message');
    assert.deepEqual(
      closing.content.map((part) => (part.type === 'output_text' ? part.text : '')),
      ['Read every file.'],
    );
    assert.ok(compactions(responses).length >= 2, `compacted ${compactions(responses).length} time(s)`);
    for (const response of responses) {
      const index = response.output.findIndex((item) => item.type === 'compaction');
      assert.ok(index <= 0, 'a compaction item comes first, or not at all');
    }
    assert.ok(harness.turns.every((turn) => turn.inputTokens <= WINDOW && turn.outcome === 'completed'));
  }

  it('over one socket, chained: all ten steps, compacting at least twice, each turn within the window', async () => {
    const socket = new SdkSocket(harness.url);
    try {
      const responses = await playOverSocket(socket, fields);
      assertPlayedThrough(responses);
      assert.deepEqual(socket.errors, []);
      // Chained turns never resend the context: after the first, each request carried one tool output.
      assert.ok(harness.turns.slice(1).every((turn) => turn.chainedFrom === 'connection'));
      // After each compaction the next turn reads the compacted context: far less than before it.
      for (const [index, turn] of harness.turns.entries()) {
        if (!turn.compaction) continue;
        assert.ok(turn.contextTokens < turn.inputTokens / 2, `turn ${index + 1}: ${JSON.stringify(turn)}`);
        const next = harness.turns[index + 1];
        if (next) assert.ok(next.inputTokens < turn.inputTokens, `turn ${index + 2} costs less than ${index + 1}`);
      }
    } finally {
      socket.close();
    }
  });

  it('the same task without context_management stops at the window with context_length_exceeded', async () => {
    const socket = new SdkSocket(harness.url);
    try {
      await assert.rejects(playOverSocket(socket, { model: 'gpt-5.5', store: false }), {
        message: contextLengthExceeded().error.message,
      });
    } finally {
      socket.close();
    }
  });

  it('over HTTP with the whole history each time: the same steps and the very same compaction items', async () => {
    const socket = new SdkSocket(harness.url);
    let chained: Response[];
    try {
      chained = await playOverSocket(socket, fields);
    } finally {
      socket.close();
    }
    harness.turns.length = 0;
    const full = await playOverHttp(client(), fields);
    assertPlayedThrough(full);
    assert.deepEqual(compactions(full), compactions(chained), 'compaction is deterministic across transports');
    // The client sent everything, but the server read (and tokenized) only the context as compacted: its input
    // once, and the compacted context when it compacted again.
    for (const turn of harness.turns)
      assert.equal(turn.tokenizedTokens, turn.inputTokens + (turn.compaction ? turn.contextTokens : 0));
    assert.deepEqual(
      full.map((response) => response.usage?.input_tokens),
      chained.map((response) => response.usage?.input_tokens),
      'the same context counts the same, chained or resent',
    );
  });

  it('over HTTP pruned at the latest compaction (the guide allows it): the task still plays through', async () => {
    const responses = await playOverHttp(client(), fields, true);
    assertPlayedThrough(responses);
  });
});
