import * as assert from 'node:assert/strict';
import type { HostMessage } from '../../../src/protocol/chatView';
import { ChatOutbox } from '../../../src/extension/chat/chatOutbox';

// The chat's messages to the page keep their order whatever is held back: what the agent shows between a
// response and the next request waits for the loop's next turn (setImmediate), and whatever is sent
// meanwhile waits behind it.

/** A streamed text delta: the kind of message that is posted many times a turn. */
const message = (n: number): HostMessage => ({ type: 'text', id: 'answer', delta: `m${n}` });
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function outbox() {
  const posted: string[] = [];
  const box = new ChatOutbox((sent) => posted.push(sent.type === 'text' ? sent.delta : sent.type));
  return { box, posted };
}

describe('the chat outbox', () => {
  it('posts at once while nothing is held', () => {
    const { box, posted } = outbox();
    box.send(message(1));
    box.send(message(2));
    assert.deepEqual(posted, ['m1', 'm2']);
  });

  it('holds what is sent after hold() until the next turn of the loop, then posts it in order', async () => {
    const { box, posted } = outbox();
    box.send(message(1));
    box.hold();
    box.send(message(2));
    box.hold(); // a second hold in the same turn changes nothing
    box.send(message(3));
    assert.deepEqual(posted, ['m1'], 'nothing held is posted within the turn');
    await nextTurn();
    assert.deepEqual(posted, ['m1', 'm2', 'm3']);
    box.send(message(4));
    assert.deepEqual(posted, ['m1', 'm2', 'm3', 'm4'], 'once flushed, posted at once again');
  });

  it('flush() posts what is held now, before anything sent after it, and only once', async () => {
    const { box, posted } = outbox();
    box.hold();
    box.send(message(1));
    box.send(message(2));
    box.flush();
    box.send(message(3));
    assert.deepEqual(posted, ['m1', 'm2', 'm3']);
    await nextTurn();
    assert.deepEqual(posted, ['m1', 'm2', 'm3'], 'the turn’s own flush finds nothing to post again');
  });
});
