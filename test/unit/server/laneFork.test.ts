import * as assert from 'node:assert/strict';
import { WsClient, finalResponse, useServer } from './support/harness';

// A fork of a conversation onto a new stream (issue 49, item 2; docs/protocol.md §1.4): a `response.create`
// on a new `stream_id` whose `previous_response_id` names a response made on another lane of the socket. It
// sends only its new input; the response sees the parent's whole context; a fork the server cannot serve is
// refused in the API's shape and leaves the parent to its own lane.

type Output = { type: string; call_id?: string };

/** Lane a's first turn: `echo hi` answered with a call, so a fork must answer it (as a subagent's does). */
async function parentOn(raw: WsClient): Promise<{ id: string; callId: string; output: Output[] }> {
  const frames = await raw.turn({ model: 'm', store: false, stream_id: 'a', input: 'echo hi' });
  const response = finalResponse(frames);
  const output = response.output as Output[];
  const callId = output.find((item) => item.type === 'function_call')?.call_id ?? '';
  return { id: response.id, callId, output };
}

const answer = (callId: string) => [{ type: 'function_call_output', call_id: callId, output: 'hi\n' }];
const notFound = (id: string, lane: string) => ({
  type: 'error',
  status: 400,
  error: {
    type: 'invalid_request_error',
    code: 'previous_response_not_found',
    message: `Previous response with id '${id}' not found.`,
    param: 'previous_response_id',
  },
  stream_id: lane,
});

describe('server lanes: a fork onto a new stream', () => {
  const harness = useServer();

  it('sends only its new input, and its response sees the parent context: usage as the whole history sent', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const parent = await parentOn(raw);
      const fork = finalResponse(
        await raw.turn({
          model: 'm',
          store: false,
          stream_id: 'b',
          previous_response_id: parent.id,
          input: answer(parent.callId),
        }),
      );
      assert.equal(fork.status, 'completed');
      assert.match(JSON.stringify(fork.output), /It printed: hi/, "the scripted model read the parent's prompt");
      const whole = finalResponse(
        await raw.turn({
          model: 'm',
          store: false,
          stream_id: 'c',
          input: [{ role: 'user', content: 'echo hi' }, ...parent.output, ...answer(parent.callId)],
        }),
      );
      const usage = (response: Record<string, unknown>) =>
        response.usage as { input_tokens: number; input_tokens_details: { cached_tokens: number } };
      assert.equal(usage(fork).input_tokens, usage(whole).input_tokens, 'the fork was answered from the whole context');
      assert.ok(usage(fork).input_tokens_details.cached_tokens > 0, "the parent's part came from the socket's cache");
      const forkRecord = harness.turns.find((turn) => turn.responseId === fork.id);
      assert.equal(forkRecord?.chainedFrom, 'connection');
      assert.equal(forkRecord.forkedFrom, 'a');
      assert.equal(harness.turns.find((turn) => turn.responseId === whole.id)?.forkedFrom, undefined);
      // The parent's own lane goes on from the same response.
      const next = await raw.turn({
        model: 'm',
        store: false,
        stream_id: 'a',
        previous_response_id: parent.id,
        input: answer(parent.callId),
      });
      assert.equal(finalResponse(next).status, 'completed');
      assert.equal(harness.turns.find((turn) => turn.responseId === finalResponse(next).id)?.forkedFrom, undefined);
    } finally {
      raw.close();
    }
  });

  it('a fork of an unknown response is previous_response_not_found on its lane; an errored fork leaves the parent', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const parent = await parentOn(raw);
      const unknown = await raw.turn({
        model: 'm',
        store: false,
        stream_id: 'b',
        previous_response_id: 'resp_unknown',
        input: answer(parent.callId),
      });
      assert.deepEqual(unknown, [notFound('resp_unknown', 'b')]);
      // A fork refused as invalid (an output answering no call) is the fork's error: the parent stays.
      const invalid = await raw.turn({
        model: 'm',
        store: false,
        stream_id: 'c',
        previous_response_id: parent.id,
        input: answer('call_none'),
      });
      assert.equal(invalid.at(-1)?.type, 'error');
      assert.equal((invalid.at(-1) as { stream_id?: string }).stream_id, 'c');
      const next = await raw.turn({
        model: 'm',
        store: false,
        stream_id: 'a',
        previous_response_id: parent.id,
        input: answer(parent.callId),
      });
      assert.equal(finalResponse(next).status, 'completed');
      assert.equal(raw.closeCode, undefined);
    } finally {
      raw.close();
    }
  });
});

describe('server lanes: a fork of an evicted response', () => {
  const harness = useServer({ limits: { cachedResponsesPerConnection: 1 } });

  it('is previous_response_not_found, as for any response the socket no longer holds', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const parent = await parentOn(raw);
      // One response held per socket here: lane c's turn evicts lane a's.
      assert.equal(
        finalResponse(await raw.turn({ model: 'm', store: false, stream_id: 'c', input: 'echo hi' })).status,
        'completed',
      );
      const fork = await raw.turn({
        model: 'm',
        store: false,
        stream_id: 'b',
        previous_response_id: parent.id,
        input: answer(parent.callId),
      });
      assert.deepEqual(fork, [notFound(parent.id, 'b')]);
    } finally {
      raw.close();
    }
  });
});
