import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { createAgentSession } from '../../../src/agent';
import { checkEndpoint, checkModels, modelIds } from '../../../src/extension/endpoint/endpointCheck';
import { type LoopwireServer, startServer } from '../../../src/server';

// Select Endpoint…'s check against the real server over real sockets: its model list with the right key,
// the key refused, nothing listening, and the socket opened by the session the next task will use.

describe('checking an endpoint', function () {
  this.timeout(20_000);
  let server: LoopwireServer;
  before(async () => (server = await startServer({ token: 'right-key' })));
  after(() => server.close());

  it('lists the models the endpoint names, with the right key', async () => {
    assert.deepEqual(await checkModels(server.url, { apiKey: 'right-key', headers: {} }), {
      ok: true,
      models: ['loopwire-scripted'],
    });
  });

  it('says the key was refused, with the status', async () => {
    const check = await checkModels(server.url, { apiKey: 'wrong-key', headers: {} });
    assert.equal(check.ok, false);
    assert.ok(
      !check.ok && check.cause === 'auth' && /refused the key \(HTTP 401/.test(check.message),
      JSON.stringify(check),
    );
  });

  it('says nothing answers where nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const check = await checkModels(`http://127.0.0.1:${port}/v1`, { headers: {} });
    assert.ok(!check.ok && check.cause === 'unreachable', JSON.stringify(check));
  });

  it('opens the socket after the list: "Connected to … over WebSocket"', async () => {
    const endpoint = { endpoint: server.url, apiKey: 'right-key', headers: {} };
    const session = createAgentSession({ ...endpoint, transport: 'auto', emit: () => undefined });
    try {
      const check = await checkEndpoint(endpoint, 'auto', () => session.transport.preconnect());
      assert.ok(check.ok, check.text);
      assert.match(check.text, /^Connected to http:\/\/127\.0\.0\.1:\d+ over WebSocket \(1 model listed\)\.$/);
    } finally {
      session.close(false);
    }
  });

  it('reads model ids from an OpenAI-style list, and nothing from anything else', () => {
    assert.deepEqual(modelIds({ data: [{ id: 'b' }, { id: 'a' }, { id: 'a' }, { nope: 1 }] }), ['a', 'b']);
    assert.deepEqual(modelIds({ data: 'x' }), []);
    assert.deepEqual(modelIds(null), []);
  });
});
