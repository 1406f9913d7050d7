import * as assert from 'node:assert/strict';
import type * as Sdk from 'openai/resources/responses/responses';
import { ServerEvent } from '../../../src/protocol';
import { parses } from '../protocol/parses';
import { useServer } from './support/harness';
import { SdkSocket } from './support/sdkSocket';
import { STEERING_MODEL, STEER_TPS, steerScenarios, textOf } from './support/steering';

// A steer driven through the official SDK's WebSocket client (`ResponsesWS`, whose `send` takes the SDK's
// `ResponseSteerEvent`): a client nobody here wrote sends it, and reads every event back as its own types.

describe('server: steering through the SDK’s ResponsesWS', () => {
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()] }));
  let socket: SdkSocket;
  beforeEach(() => (socket = new SdkSocket(harness.url)));
  afterEach(() => socket.close());

  /** Resolves with the first event of `type` the SDK hands its listeners. */
  function next<T extends Sdk.ResponsesServerEvent['type']>(type: T) {
    return new Promise<Extract<Sdk.ResponsesServerEvent, { type: T }>>((resolve) => {
      const listener = (event: Sdk.ResponsesServerEvent) => {
        if (event.type !== type) return;
        socket.ws.off('event', listener);
        resolve(event as Extract<Sdk.ResponsesServerEvent, { type: T }>);
      };
      socket.ws.on('event', listener);
    });
  }

  it('accepted, incomplete/steered, the successor created and completed with the steer’s answer', async () => {
    const created = next('response.created');
    const firstDelta = next('response.output_text.delta');
    socket.ws.send({ type: 'response.create', model: STEERING_MODEL, store: false, input: 'plan the trip' });
    const { response } = await created;
    await firstDelta;
    const accepted = next('response.steer.accepted');
    const incomplete = next('response.incomplete');
    const completed = next('response.completed');
    const steer: Sdk.ResponseSteerEvent = {
      type: 'response.steer',
      previous_response_id: response.id,
      input: [{ type: 'message', role: 'user', content: 'only hotels' }],
    };
    socket.ws.send(steer);

    assert.equal((await accepted).steer.previous_response_id, response.id);
    const steered = (await incomplete).response;
    assert.equal(steered.incomplete_details?.reason, 'steered');
    const successor = (await completed).response;
    assert.equal(successor.previous_response_id, response.id);
    assert.equal(textOf(successor), 'Hotels only: Lisbon.');
    assert.deepEqual(socket.errors, []);
    for (const event of socket.events) parses(ServerEvent, event);
  });

  it('a refusal reaches the SDK as response.steer.failed with its code and the input', async () => {
    const failed = next('response.steer.failed');
    socket.ws.send({ type: 'response.steer', previous_response_id: 'resp_nowhere', input: 'only hotels' });
    const event = await failed;
    assert.equal(event.error.code, 'response_not_found');
    assert.equal(event.steer.input, 'only hotels');
    assert.equal(event.steer.id, undefined);
  });
});
