import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { type LaneListener, WsChannel } from '../../../src/agent/transport/wsChannel';

// Lanes of one socket (issue 49, items 2 and 5): every lane's frames come in one stream, and a read from the
// socket can hold one lane's terminal event and many frames of the others. The channel hands them over one a
// turn of the event loop, so the lane whose response ended goes on (its continuation, a promise) before the
// rest of the read is parsed and routed; delivered in one go, it waited for all of them, and with eight lanes
// a turn's overhead had a tail of 10 ms (the parallel bench). Order only: no time is asserted.

const OTHERS = 50;

describe('WsChannel: lanes sharing a read', () => {
  let server: WebSocketServer;
  let url: string;

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('connection', (socket) => {
      let creates = 0;
      socket.on('message', () => {
        if (++creates < 2) return;
        // One write: lane a's end, then lane b's deltas, so that the client reads them together.
        const raw = (socket as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
        raw.cork();
        socket.send(JSON.stringify({ type: 'response.completed', stream_id: 'a', response: { id: 'resp_a' } }));
        for (let i = 0; i < OTHERS; i++)
          socket.send(JSON.stringify({ type: 'response.output_text.delta', stream_id: 'b', delta: `w${i} ` }));
        socket.send(JSON.stringify({ type: 'response.completed', stream_id: 'b', response: { id: 'resp_b' } }));
        raw.uncork();
      });
    });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a lane's end is acted on before the other lane's frames read with it are all delivered", async () => {
    const channel = await WsChannel.open(url, { headers: {}, connectTimeoutMs: 5000 });
    try {
      let seenOfB = 0;
      let seenWhenAContinued: number | undefined;
      const bDone = new Promise<void>((resolve) => {
        channel.send(
          { type: 'response.create' },
          'a',
          listener((value) => {
            // What the exchange does at a terminal event: settle a promise; the agent goes on in its continuation.
            if (type(value) === 'response.completed') void Promise.resolve().then(() => (seenWhenAContinued = seenOfB));
          }),
        );
        channel.send(
          { type: 'response.create' },
          'b',
          listener((value) => {
            if (type(value) === 'response.output_text.delta') seenOfB += 1;
            if (type(value) === 'response.completed') resolve();
          }),
        );
      });
      await bDone;
      assert.equal(seenOfB, OTHERS);
      assert.ok(
        seenWhenAContinued !== undefined && seenWhenAContinued < OTHERS,
        `lane a went on after ${String(seenWhenAContinued)} of lane b's ${OTHERS} frames, not after all of them`,
      );
    } finally {
      channel.close();
    }
  });
});

const type = (value: unknown) => (value as { type?: unknown }).type;

function listener(event: (value: unknown) => void): LaneListener {
  return { event, malformed: () => undefined, closed: () => undefined };
}
