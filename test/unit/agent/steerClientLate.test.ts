import * as assert from 'node:assert/strict';
import type { WsChannel } from '../../../src/agent/transport/wsChannel';
import { SteerClient } from '../../../src/agent/transport/steerClient';
import { steerAccepted, steerFailed } from '../../../src/server/steerEvents';

// A steer the client sent to a response it had not yet read the end of: the server refuses it, and its answer
// may come after the response's successor ended too. The exchange waits for that answer, so that the text goes
// to the tool boundary (one more turn) instead of the task ending without it. (Seen under load in CI: "and
// museums" was in the transcript 0 times, not once.)

/** A channel whose frames the test delivers by hand. */
function fakeChannel() {
  let listener: ((value: unknown) => void) | undefined;
  const posted: Record<string, unknown>[] = [];
  const channel = {
    closed: false,
    watch: (fn: (value: unknown) => void) => {
      listener = fn;
      return () => (listener = undefined);
    },
    post: (frame: Record<string, unknown>) => {
      posted.push(frame);
      return 1;
    },
  };
  return { channel: channel as unknown as WsChannel, posted, deliver: (frame: unknown) => listener?.(frame) };
}

const created = (id: string, parent?: string) => ({
  type: 'response.created',
  response: { id, ...(parent ? { previous_response_id: parent } : {}) },
});

describe('native steering: a steer sent as its response ended', () => {
  it('the exchange waits for a late refusal, and the text goes to the boundary', () => {
    const { channel, deliver } = fakeChannel();
    const boundary: string[] = [];
    const client = new SteerClient(
      (text) => boundary.push(text),
      () => undefined,
    );
    client.begin(channel, undefined, 1, () => undefined);
    deliver(created('resp_1'));
    assert.equal(client.steer('see the sights'), true);
    assert.equal(client.steer('and museums'), true);
    deliver({ ...steerAccepted({ id: 'steer_1', previous_response_id: 'resp_1' }), sequence_number: 7 });
    // resp_1 ends steered; its successor commits the first steer.
    assert.equal(
      client.awaitSuccessor(() => undefined),
      true,
    );
    deliver(created('resp_2', 'resp_1'));
    assert.equal(client.takeCommitted('resp_1').length, 1);
    // The successor ends before the server's answer to the second steer is read: the exchange waits.
    let settled = 0;
    assert.equal(
      client.awaitSuccessor(() => (settled += 1)),
      true,
      'the second steer has no answer yet: the exchange waits for it',
    );
    assert.deepEqual(boundary, []);
    const refusal = steerFailed('response_already_completed', 'done', {
      previous_response_id: 'resp_1',
      input: 'and museums',
    });
    deliver({ ...refusal, sequence_number: 0 });
    assert.deepEqual(boundary, ['and museums'], 'the refused text goes to the boundary');
    assert.equal(settled, 1, 'and the exchange ends');
    assert.deepEqual(client.abandon(), [], 'nothing is left to give back');
  });

  it('ends at once where every steer is decided', () => {
    const { channel, deliver } = fakeChannel();
    const client = new SteerClient(
      () => undefined,
      () => undefined,
    );
    client.begin(channel, undefined, 1, () => undefined);
    deliver(created('resp_1'));
    assert.equal(
      client.awaitSuccessor(() => undefined),
      false,
    );
  });
});
