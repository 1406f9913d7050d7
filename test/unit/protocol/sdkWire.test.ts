import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { WebSocketServer } from 'ws';
import { ClientEvent, ResponseRequest, previousResponseNotFound } from '../../../src/protocol';
import { readFrames, WS_FUNCTION_CALL } from '../support/wireFixture';
import { parses } from './parses';

// The official SDK as a client no one here wrote: what it puts on the wire must parse with our schemas,
// and what our schemas describe must be what it consumes. A loopback peer records and replays frames.

const frames = readFrames(WS_FUNCTION_CALL);
/** The server's frames for the first response (a function call) and the second (a message). */
const firstResponse = frames.slice(1, 8);
const secondResponse = frames.slice(9);

interface Peer {
  baseURL: string;
  bodies: unknown[];
  wsFrames: unknown[];
  upgradeHeaders: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** HTTP: JSON or SSE replies replayed from the fixture. WebSocket: the first create gets the first response's
 * frames, a chained create with an unknown id gets the error of docs/protocol.md §3.3, anything else the
 * second response. */
async function startPeer(): Promise<Peer> {
  const bodies: unknown[] = [];
  const wsFrames: unknown[] = [];
  const upgradeHeaders: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean };
      bodies.push(body);
      if (body.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of secondResponse) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        response.end();
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(secondResponse[secondResponse.length - 1]?.response));
      }
    });
  });
  const wss = new WebSocketServer({ server, path: '/v1/responses' });
  wss.on('connection', (socket, request) => {
    upgradeHeaders.push(request.headers);
    socket.on('message', (data: Buffer) => {
      const event = JSON.parse(data.toString('utf8')) as { previous_response_id?: string };
      wsFrames.push(event);
      if (event.previous_response_id === 'resp_gone') {
        socket.send(JSON.stringify(previousResponseNotFound('resp_gone')));
        return;
      }
      const replies = wsFrames.length === 1 ? firstResponse : secondResponse;
      for (const reply of replies) socket.send(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    wsFrames,
    upgradeHeaders,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const turn = {
  model: 'gpt-5.5',
  store: false,
  instructions: 'You are Loopwire.',
  input: [
    { role: 'user' as const, content: 'weather?' },
    { type: 'function_call' as const, call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output' as const, call_id: 'call_1', output: '{"temp":21}' },
  ],
  tools: [
    { type: 'function' as const, name: 'get_weather', parameters: { type: 'object' }, strict: true },
    { type: 'custom' as const, name: 'apply_patch' },
  ],
  prompt_cache_key: 'session-1',
};

describe('protocol: the openai SDK against a loopback peer', () => {
  let peer: Peer;
  let client: OpenAI;
  beforeEach(async () => {
    peer = await startPeer();
    client = new OpenAI({ apiKey: 'sk-test', baseURL: peer.baseURL, maxRetries: 0 });
  });
  afterEach(() => peer.close());

  it('the body of responses.create parses, and the SDK reads our Response (output_text from output)', async () => {
    const response = await client.responses.create(turn);
    assert.equal(peer.bodies.length, 1);
    assert.deepEqual(parses(ResponseRequest, peer.bodies[0]), peer.bodies[0]);
    assert.equal(response.id, 'resp_2');
    assert.equal(response.output_text, 'It is 21°C in Paris.');
  });

  it('a streamed turn: the SDK assembles our SSE events into the final response', async () => {
    const stream = client.responses.stream(turn);
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    const final = await stream.finalResponse();
    assert.equal((peer.bodies[0] as { stream?: boolean }).stream, true);
    parses(ResponseRequest, peer.bodies[0]);
    assert.deepEqual(
      seen,
      secondResponse.map((event) => event.type),
    );
    assert.equal(final.output_text, 'It is 21°C in Paris.');
  });

  it('ResponsesWS: frames it sends parse as client events; it routes our events and our §3.3 error', async () => {
    const socket = new ResponsesWS(client);
    const events: string[] = [];
    const errors: Error[] = [];
    socket.on('error', (error) => errors.push(error));
    const done = new Promise<void>((resolve) => {
      socket.on('event', (event) => {
        events.push(event.type);
        if (event.type === 'response.completed') resolve();
      });
    });
    try {
      socket.send({ type: 'response.create', ...turn, generate: true, stream_id: 'main' });
      await done;
      assert.deepEqual(
        events,
        firstResponse.map((event) => event.type),
      );

      const refused = new Promise<void>((resolve) => socket.once('error', () => resolve()));
      socket.send({ type: 'response.create', model: 'gpt-5.5', previous_response_id: 'resp_gone', input: [] });
      await refused;
      assert.equal(errors.length, 1);
      assert.equal(errors[0]?.message, "Previous response with id 'resp_gone' not found.");

      const again = new Promise<void>((resolve) => socket.on('response.completed', () => resolve()));
      socket.send({ type: 'response.create', ...turn });
      await again;

      assert.equal(peer.wsFrames.length, 3);
      for (const frame of peer.wsFrames) assert.deepEqual(parses(ClientEvent, frame), frame);
      assert.equal(peer.upgradeHeaders.length, 1, 'one socket carried all three turns');
      assert.equal(peer.upgradeHeaders[0]?.authorization, 'Bearer sk-test');
    } finally {
      socket.close();
    }
  });
});
