import * as assert from 'node:assert/strict';
import { WsClient, useServer } from './support/harness';
import {
  OTHER_MODEL,
  STEER_TPS,
  assertAllParse,
  nth,
  ofType,
  startStreaming,
  steer,
  steerScenarios,
  textOf,
} from './support/steering';

// Each steering error code of the SDK's types, in the situation that calls for it (docs/protocol.md §13.2):
// the input comes back in `response.steer.failed`, and the response steered at goes on as if nothing came.

/** The failure frames from `start` on: their codes, and the last one. */
async function failure(client: WsClient, count = 1, start = 0) {
  const last = await nth(client, 'response.steer.failed', count, start);
  return { event: last, error: last.error as { code: string; message: string; type: string } };
}

describe('server: steering refused', () => {
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()] }));
  let client: WsClient;
  beforeEach(async () => (client = await WsClient.open(harness.url)));
  afterEach(() => client.close());

  it('response_not_found: no such response on this socket; no id, no lane, the input returned', async () => {
    steer(client, 'resp_elsewhere', 'only hotels');
    const { event, error } = await failure(client);
    assert.equal(error.code, 'response_not_found');
    assert.equal(error.type, 'invalid_request_error');
    assert.deepEqual(event.steer, { previous_response_id: 'resp_elsewhere', input: 'only hotels' });
    assert.equal(event.sequence_number, 0);
    assert.equal('stream_id' in event, false);
    assertAllParse(client);
  });

  it('invalid_input: a stream_id, another role, a tool output, an empty input; the response runs on', async () => {
    const id = await startStreaming(client, { input: 'plan the trip', stream_id: 'lane-a' });
    client.send({ type: 'response.steer', previous_response_id: id, input: 'x', stream_id: 'lane-a' });
    steer(client, id, [{ role: 'developer', content: 'be terse' }]);
    steer(client, id, [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }]);
    steer(client, id, []);
    await failure(client, 4);
    const failed = ofType(client, 'response.steer.failed');
    assert.deepEqual(
      failed.map((event) => (event.error as { code: string }).code),
      Array(4).fill('invalid_input'),
    );
    const messages = failed.map((event) => (event.error as { message: string }).message);
    assert.match(messages[0] ?? '', /Unknown parameter: 'stream_id'/);
    assert.match(messages[1] ?? '', /input\[0\]/);
    assert.match(messages[2] ?? '', /only user messages/);
    assert.match(messages[3] ?? '', /empty/);
    assert.deepEqual(failed[1]?.steer, {
      previous_response_id: id,
      input: [{ role: 'developer', content: 'be terse' }],
    });
    assert.ok(
      failed.every((event) => event.stream_id === 'lane-a' && !('id' in (event.steer as object))),
      'on the target’s lane, before any id',
    );
    const done = await nth(client, 'response.completed');
    assert.match(textOf(done.response), /Sights/, 'the response ran to its end');
    assert.equal(harness.turns.length, 1);
    assertAllParse(client);
  });

  it('a frame without a target or an input is no steer: an error event', async () => {
    client.send({ type: 'response.steer', input: 'only hotels' });
    client.send({ type: 'response.steer', previous_response_id: 'resp_1', input: 42 });
    await client.until((frames) => frames.length >= 2);
    assert.deepEqual(
      client.frames.map((frame) => [frame.type, (frame as { error?: { param?: string } }).error?.param]),
      [
        ['error', 'previous_response_id'],
        ['error', 'input'],
      ],
    );
  });

  it('steering_not_supported: a model outside the GPT-6 family, or a response under compaction', async () => {
    const other = await startStreaming(client, { input: 'plan the trip', model: OTHER_MODEL });
    steer(client, other, 'only hotels');
    const first = await failure(client);
    assert.equal(first.error.code, 'steering_not_supported');
    assert.match(first.error.message, /gpt-5\.5/);
    await nth(client, 'response.completed');
    const start = client.frames.length;
    const compacting = await startStreaming(client, {
      input: 'plan the trip',
      context_management: [{ type: 'compaction', compact_threshold: 100_000 }],
    });
    steer(client, compacting, 'only hotels');
    const second = await failure(client, 1, start);
    assert.equal(second.error.code, 'steering_not_supported');
    assert.match(second.error.message, /compaction/);
    assertAllParse(client);
  });

  it('too_many_pending_steers: past four queued steers; the four go to the successor', async () => {
    const id = await startStreaming(client, { input: 'plan the trip' });
    for (const text of ['one', 'two', 'three', 'only hotels', 'five']) steer(client, id, text);
    const { event, error } = await failure(client);
    assert.equal(error.code, 'too_many_pending_steers');
    assert.equal((event.steer as { input: string }).input, 'five');
    assert.equal(ofType(client, 'response.steer.accepted').length, 4);
    const done = await nth(client, 'response.completed');
    assert.equal(textOf(done.response), 'Hotels only: Lisbon.');
    assertAllParse(client);
  });

  it('response_already_completed, and response_not_active for a response a steer ended', async () => {
    const frames = await client.turn({ model: 'gpt-6', store: false, input: 'only hotels' });
    const finished = (frames.at(-1)?.response as { id: string }).id;
    steer(client, finished, 'and museums');
    assert.equal((await failure(client)).error.code, 'response_already_completed');

    const start = client.frames.length;
    const id = await startStreaming(client, { input: 'plan the trip' });
    steer(client, id, 'only hotels');
    await nth(client, 'response.completed', 1, start);
    steer(client, id, 'and museums');
    const late = await failure(client, 2);
    assert.equal(late.error.code, 'response_not_active');
    assert.ok(Number(late.event.sequence_number) > 0, 'numbered in the steered response’s stream');
    assertAllParse(client);
  });
});

describe('server: a successor that cannot be created', () => {
  // A window the first turn fits in and the successor, with the steer's long text, does not.
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()], contextWindow: 400 }));
  let client: WsClient;
  beforeEach(async () => (client = await WsClient.open(harness.url)));
  afterEach(() => client.close());

  it('successor_creation_failed: after incomplete/steered, the steer comes back with its id; no error event', async () => {
    const id = await startStreaming(client, { input: 'plan the trip' });
    const long = `only hotels ${'near the river '.repeat(200)}`;
    steer(client, id, long);
    const accepted = await nth(client, 'response.steer.accepted');
    const { event, error } = await failure(client);
    assert.equal(error.code, 'successor_creation_failed');
    assert.match(error.message, /context/i);
    assert.deepEqual(event.steer, { ...(accepted.steer as object), input: long });
    const ended = ofType(client, 'response.incomplete')[0]?.response as { incomplete_details: unknown };
    assert.deepEqual(ended.incomplete_details, { reason: 'steered' });
    assert.equal(ofType(client, 'response.created').length, 1, 'no successor was created');
    assert.equal(ofType(client, 'error').length, 0, 'the client asked for no successor: its steer says it all');
    assert.deepEqual(
      harness.turns.map((turn) => turn.outcome),
      ['completed', 'refused'],
    );
    assertAllParse(client);
  });
});
