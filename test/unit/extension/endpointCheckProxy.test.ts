import * as assert from 'node:assert/strict';
import { createAgentSession } from '../../../src/agent';
import { checkEndpoint, checkModels } from '../../../src/extension/endpoint/endpointCheck';
import { type LoopwireServer, startServer } from '../../../src/server';
import { type RealProxy, startRealProxy } from '../support/realProxy';

// Select Endpoint…'s check behind VS Code's http.proxy, as the extension passes it (proxySettings.ts): the
// model list and the socket both through a real proxy on 127.0.0.1 to the real server, http.noProxy going
// around it, and a proxy's 407 said as the proxy's, not the endpoint's.

describe('checking an endpoint through http.proxy', function () {
  this.timeout(20_000);
  let server: LoopwireServer;
  let proxy: RealProxy;
  before(async () => (server = await startServer({ token: 'right-key' })));
  after(() => server.close());
  afterEach(() => proxy.close());

  it('lists the models and opens the socket through the proxy', async () => {
    proxy = await startRealProxy();
    const endpoint = { endpoint: server.url, apiKey: 'right-key', headers: {}, proxy: { url: proxy.url, env: {} } };
    const session = createAgentSession({ ...endpoint, transport: 'auto', emit: () => undefined });
    try {
      const check = await checkEndpoint(endpoint, 'auto', () => session.transport.preconnect());
      assert.equal(check.text, `Connected to ${new URL(server.url).origin} over WebSocket (1 model listed).`);
    } finally {
      session.close(false);
    }
    // One tunnel for GET /models, one for the socket.
    assert.deepEqual(proxy.tunnels, [new URL(server.url).host, new URL(server.url).host]);
  });

  it('goes around the proxy for a host http.noProxy names', async () => {
    proxy = await startRealProxy();
    const check = await checkModels(server.url, {
      apiKey: 'right-key',
      headers: {},
      proxy: { url: proxy.url, noProxy: ['127.0.0.1'], env: {} },
    });
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.deepEqual(proxy.tunnels, []);
  });

  it("says a proxy's 407 is the proxy's", async () => {
    proxy = await startRealProxy({ authenticate: () => false });
    const check = await checkModels(server.url, {
      apiKey: 'right-key',
      headers: {},
      proxy: { url: proxy.url, env: {} },
    });
    assert.deepEqual(check, {
      ok: false,
      cause: 'unreachable',
      message: `The proxy ${proxy.url} (http.proxy) did not connect to the endpoint: it answered HTTP 407 Proxy Authentication Required; it wants credentials: give them in the proxy URL, http://USER:PASSWORD@HOST:PORT.`,
    });
  });
});
