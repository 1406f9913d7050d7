import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { eventually } from '../support/eventually';
import { useTempWorkspace } from '../support/tempWorkspace';
import { WsClient, useServer } from './support/harness';
import {
  STEER_TPS,
  assertAllParse,
  nth,
  ofType,
  startStreaming,
  steer,
  steerScenarios,
  textOf,
} from './support/steering';

// Steering on the bundled backend's socket (docs/protocol.md §13), over a real socket, paced slowly enough to
// land a steer mid-response: accepted, the response ends at a safe boundary, its successor is created and
// answers the steer's scenario; a response with a call waits for the call's output instead (`pending`).

describe('server: steering a running response', () => {
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()] }));
  let client: WsClient;
  beforeEach(async () => (client = await WsClient.open(harness.url)));
  afterEach(() => client.close());

  it('accepted, then incomplete/steered after the item being streamed, then a successor that answers the steer', async () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }];
    const id = await startStreaming(client, {
      input: 'plan the trip',
      instructions: 'Be brief.',
      tools,
      stream_id: 'trip',
    });
    steer(client, id, 'only hotels, please');
    const accepted = await nth(client, 'response.steer.accepted');
    const steerRef = accepted.steer as { id: string; previous_response_id: string };
    assert.equal(steerRef.previous_response_id, id);
    assert.match(steerRef.id, /^steer_/);
    assert.equal(accepted.stream_id, 'trip', 'the target response names the lane');

    const ended = await nth(client, 'response.incomplete');
    const steered = ended.response as Record<string, unknown>;
    assert.equal(steered.id, id);
    assert.equal(steered.status, 'incomplete');
    assert.deepEqual(steered.incomplete_details, { reason: 'steered' });
    assert.match(textOf(steered), /^Route: /, 'the message being streamed was finished');
    assert.doesNotMatch(textOf(steered), /Sights/, 'the next item never started');
    const doneItems = ofType(client, 'response.output_item.done').length;
    assert.equal(doneItems, 1, 'no item was cut mid-way');

    const completed = await nth(client, 'response.completed');
    const successor = completed.response as Record<string, unknown>;
    const created = ofType(client, 'response.created')[1];
    assert.equal((created?.response as { id: string }).id, successor.id, 'the successor’s created came first');
    assert.equal(successor.previous_response_id, id);
    assert.equal(textOf(successor), 'Hotels only: Lisbon.');
    for (const field of ['model', 'instructions', 'tools', 'store'])
      assert.deepEqual(successor[field], steered[field], `${field} is inherited`);
    assert.equal(completed.stream_id, 'trip', 'on the same lane');

    // Sequence numbers run on through the steered response's stream, the steer's events included.
    const numbers = client.frames
      .slice(0, client.frames.indexOf(ended) + 1)
      .map((frame) => (frame as unknown as { sequence_number: number }).sequence_number);
    assert.deepEqual(
      numbers,
      numbers.map((_, index) => index),
    );
    assertAllParse(client);
  });

  it('several steers go to one successor in the order they came; the last one picks the scenario', async () => {
    const id = await startStreaming(client, { input: 'plan the trip' });
    steer(client, id, 'first thought');
    steer(client, id, [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'only hotels' }] }]);
    await nth(client, 'response.steer.accepted', 2);
    const completed = await nth(client, 'response.completed');
    assert.equal(textOf(completed.response), 'Hotels only: Lisbon.');
    assert.equal(harness.turns.length, 2, 'one successor for both');
    assertAllParse(client);
  });

  it('a steer during the last item: the response completes, and a successor follows it all the same', async () => {
    const id = await startStreaming(client, { input: 'plan the trip' });
    await client.until(() => ofType(client, 'response.output_item.added').length >= 2);
    steer(client, id, 'only hotels');
    const first = (await nth(client, 'response.completed')).response as Record<string, unknown>;
    assert.equal(first.id, id);
    assert.match(textOf(first), /Sights/, 'it ran to its end');
    const second = (await nth(client, 'response.completed', 2)).response as Record<string, unknown>;
    assert.equal(second.previous_response_id, id);
    assert.equal(textOf(second), 'Hotels only: Lisbon.');
    assert.equal(ofType(client, 'response.incomplete').length, 0);
    assertAllParse(client);
  });
});

describe('server: a steer while the response calls a tool waits for the call’s output', () => {
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()] }));
  let client: WsClient;
  beforeEach(async () => (client = await WsClient.open(harness.url)));
  afterEach(() => client.close());

  /** Steers during the call's arguments; returns the response, completed after the call, and the call. */
  async function steerDuringCall() {
    const id = await startStreaming(client, { input: 'check the weather' });
    steer(client, id, 'only hotels');
    await nth(client, 'response.steer.accepted');
    const response = (await nth(client, 'response.completed')).response as { id: string; output: unknown[] };
    const call = response.output[0] as { type: string; call_id: string; name: string };
    return { id, response, call };
  }

  it('completed after the call, then pending with its stub; the continuation begins with the steer and answers it', async () => {
    const { id, response, call } = await steerDuringCall();
    assert.equal(response.id, id);
    assert.equal(response.output.length, 1, 'it stopped at the boundary after the call');
    assert.equal(call.type, 'function_call');
    const pending = await nth(client, 'response.steer.pending');
    assert.equal(pending.reason, 'waiting_for_required_input');
    assert.deepEqual(pending.required_input, [
      { type: 'function_call_output', call_id: call.call_id, name: 'get_weather' },
    ]);
    const completedAt = client.frames.findIndex((frame) => frame.type === 'response.completed');
    assert.ok(client.frames.indexOf(pending) > completedAt, 'pending follows response.completed');
    assert.equal(ofType(client, 'response.created').length, 1, 'no automatic successor');

    // The client answers the stub with the output it has, once; the steer is not sent again.
    const frames = await client.turn({
      model: 'gpt-6',
      store: false,
      previous_response_id: id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    });
    const continuation = frames.at(-1)?.response;
    assert.equal(textOf(continuation), 'Hotels only: Lisbon.', 'the queued steer came first in its input');
    assert.equal(harness.turns.length, 2);
    assertAllParse(client);
  });

  it('a steer after it completed is accepted and pending at once; a continuation refused returns every steer', async () => {
    const { id, call } = await steerDuringCall();
    await nth(client, 'response.steer.pending');
    steer(client, id, 'and museums');
    const second = await nth(client, 'response.steer.pending', 2);
    assert.deepEqual(second.required_input, [
      { type: 'function_call_output', call_id: call.call_id, name: 'get_weather' },
    ]);

    // A continuation the server refuses (its output answers no call): the error, and both steers come back.
    const start = client.frames.length;
    client.send({
      type: 'response.create',
      model: 'gpt-6',
      store: false,
      previous_response_id: id,
      input: [{ type: 'function_call_output', call_id: 'call_unknown', output: 'x' }],
    });
    const failed = await nth(client, 'response.steer.failed', 2, start);
    assert.equal(ofType(client, 'error', start).length, 1);
    const both = ofType(client, 'response.steer.failed', start);
    assert.deepEqual(
      both.map((event) => (event.error as { code: string }).code),
      ['successor_creation_failed', 'successor_creation_failed'],
    );
    assert.deepEqual(
      both.map((event) => (event.steer as { input: unknown }).input),
      ['only hotels', 'and museums'],
    );
    assert.ok((failed.steer as { id?: string }).id, 'a failure after acceptance names the steer');

    assertAllParse(client);
  });
});

describe('server: steering in the wire log', () => {
  const temp = useTempWorkspace({}, { prefix: 'steerlog' });
  const file = () => temp.path('wire.jsonl');
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()], logFile: file() }));

  it('the steer names its target; accepted and failed name the steer, the target and the code', async () => {
    const client = await WsClient.open(harness.url);
    try {
      const id = await startStreaming(client, { input: 'plan the trip' });
      steer(client, id, 'only hotels');
      const steerId = ((await nth(client, 'response.steer.accepted')).steer as { id: string }).id;
      steer(client, 'resp_elsewhere', 'x');
      await nth(client, 'response.steer.failed');
      const lines = await eventually(() => {
        const read = fs
          .readFileSync(file(), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => String(line.type).startsWith('response.steer'));
        return read.length === 4 && read;
      });
      assert.deepEqual(
        lines.map(({ dir, type, previous_response_id, steer_id, code }) => ({
          dir,
          type,
          previous_response_id,
          steer_id,
          code,
        })),
        [
          { dir: 'in', type: 'response.steer', previous_response_id: id, steer_id: undefined, code: undefined },
          { dir: 'out', type: 'response.steer.accepted', previous_response_id: id, steer_id: steerId, code: undefined },
          {
            dir: 'in',
            type: 'response.steer',
            previous_response_id: 'resp_elsewhere',
            steer_id: undefined,
            code: undefined,
          },
          {
            dir: 'out',
            type: 'response.steer.failed',
            previous_response_id: 'resp_elsewhere',
            steer_id: undefined,
            code: 'response_not_found',
          },
        ],
      );
    } finally {
      client.close();
    }
  });
});
