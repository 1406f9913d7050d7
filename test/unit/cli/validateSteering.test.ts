import * as assert from 'node:assert/strict';
import { validateCommand } from '../../../src/cli/validateCommand';
import { WsClient, useServer } from '../server/support/harness';
import { STEER_TPS, nth, startStreaming, steerScenarios } from '../server/support/steering';

// `loopwire validate` on steering (docs/protocol.md §13): a session recorded from the real server passes, frame
// by frame and as a story; malformed steering frames are named by field, and a story that does not hold by line.

async function validate(text: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await validateCommand(['-'], {
    stdout: (chunk) => (out += chunk),
    stderr: (chunk) => (out += chunk),
    readStdin: () => Promise.resolve(text),
  });
  return { code, out };
}

const lines = (frames: readonly unknown[]) => frames.map((frame) => JSON.stringify(frame)).join('\n');

describe('cli: loopwire validate knows the steering events', () => {
  const harness = useServer(() => ({ tps: STEER_TPS, scenarios: [steerScenarios()] }));

  it('a recorded session (a steered response, its successor, a pending steer, a refusal) is valid', async () => {
    const client = await WsClient.open(harness.url);
    const sent: unknown[] = [];
    const send = (event: Record<string, unknown>) => {
      sent.push(event);
      client.send(event);
    };
    try {
      const id = await startStreaming(client, { input: 'plan the trip' });
      send({ type: 'response.steer', previous_response_id: id, input: 'only hotels' });
      await nth(client, 'response.completed');
      const call = await startStreaming(client, { input: 'check the weather' });
      send({ type: 'response.steer', previous_response_id: call, input: [{ role: 'user', content: 'only hotels' }] });
      await nth(client, 'response.steer.pending');
      send({ type: 'response.steer', previous_response_id: 'resp_gone', input: 'x' });
      await nth(client, 'response.steer.failed');
    } finally {
      client.close();
    }
    const result = await validate(lines([...sent, ...client.frames]));
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /stdin:1 {2}client-event response\.steer\n/);
    for (const type of ['accepted', 'pending', 'failed'])
      assert.match(result.out, new RegExp(`server-event response\\.steer\\.${type}\\n`));
    assert.match(result.out, new RegExp(`^${sent.length + client.frames.length} valid, 0 invalid$`, 'm'));
  });

  it('names the field of a malformed steering frame, and the line where the story breaks', async () => {
    const steered = { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'steered' } };
    const result = await validate(
      lines([
        { type: 'response.steer', previous_response_id: 'resp_1', input: 'x', stream_id: 'a' },
        { type: 'response.steer.accepted', sequence_number: 1, steer: { previous_response_id: 'resp_1' } },
        {
          type: 'response.steer.failed',
          sequence_number: 2,
          error: { code: 'response_not_found', message: 'm', type: 'server_error' },
          steer: { input: 'x', previous_response_id: 'resp_1' },
        },
        { type: 'response.steer.accepted', sequence_number: 3, steer: { id: 's1', previous_response_id: 'resp_1' } },
        { type: 'response.steer.accepted', sequence_number: 4, steer: { id: 's1', previous_response_id: 'resp_1' } },
        {
          type: 'response.steer.pending',
          sequence_number: 5,
          reason: 'waiting_for_required_input',
          required_input: [],
          steer: { id: 's2', previous_response_id: 'resp_1' },
        },
        { type: 'response.incomplete', sequence_number: 6, response: steered },
      ]),
    );
    assert.equal(result.code, 1);
    assert.match(result.out, /✗ stdin:1 {2}client-event response\.steer: Unknown parameter: 'stream_id'\./);
    assert.match(result.out, /✗ stdin:2 {2}server-event response\.steer\.accepted: .*'steer\.id'/);
    assert.match(result.out, /✗ stdin:3 {2}server-event response\.steer\.failed: /);
    assert.match(result.out, /✗ stdin:5 {2}steering: steer s1 was accepted twice/);
    assert.match(result.out, /✗ stdin:6 {2}steering: names steer s2 of resp_1, which no response\.steer\.accepted/);
    assert.match(result.out, /✗ stdin:6 {2}steering: pending before response resp_1 completed/);
    assert.match(result.out, /✗ stdin:7 {2}steering: response resp_1 ended steered, but no successor was created/);
  });
});
