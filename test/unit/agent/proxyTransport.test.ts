import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../src/server';
import { type RealProxy, closedPort, startRealProxy } from '../support/realProxy';
import { useAgentBench } from './agentHarness';

// Both transports through a real HTTP proxy on 127.0.0.1 (TooTallNate's `proxy`, started here) to the real
// bundled server: the socket and the POSTs are tunnelled with CONNECT (the proxy saw the server's host:port),
// NO_PROXY goes around it, and a proxy that cannot be reached or refuses the tunnel stops the task at once,
// in words that name the proxy and where it was set.

const SCENARIOS: ScenarioFile = {
  scenarios: [{ name: 'greet', match: 'hello', steps: [{ output: [{ type: 'message', text: 'Hello there.' }] }] }],
};

const TRANSPORTS = ['ws', 'http'] as const;

describe('agent: through a proxy', () => {
  const bench = useAgentBench(SCENARIOS);
  let proxy: RealProxy | undefined;
  afterEach(() => proxy?.close());

  /** The server's `host:port`, as a CONNECT names it. */
  const target = () => new URL(bench.server.url).host;

  /** Runs `hello` on a new session whose proxy variables are `env`. */
  async function hello(transport: 'ws' | 'http', env: NodeJS.ProcessEnv) {
    const { agent, transport: session } = await bench.agent({ transport, proxy: { env } });
    try {
      await agent.start();
      return await agent.run('hello');
    } finally {
      session.close(false);
    }
  }

  for (const transport of TRANSPORTS) {
    it(`${transport}: every request goes through the proxy that HTTP_PROXY names, tunnelled with CONNECT`, async () => {
      proxy = await startRealProxy();
      const done = await hello(transport, { HTTP_PROXY: proxy.url });
      assert.equal(done.status, 'completed', done.reason);
      assert.ok(proxy.tunnels.length > 0, 'the proxy tunnelled the requests');
      assert.deepEqual([...new Set(proxy.tunnels)], [target()]);
      assert.ok(bench.turns.length > 0, 'the server answered through the tunnel');
    });

    it(`${transport}: NO_PROXY naming the endpoint goes around the proxy (lower-case variables too)`, async () => {
      proxy = await startRealProxy();
      const done = await hello(transport, { http_proxy: proxy.url, no_proxy: `example.org, ${target()}` });
      assert.equal(done.status, 'completed', done.reason);
      assert.deepEqual(proxy.tunnels, []);
    });

    it(`${transport}: a proxy with nothing listening stops the task at once, naming the proxy`, async () => {
      const port = await closedPort();
      const started = performance.now();
      const done = await hello(transport, { HTTP_PROXY: `http://127.0.0.1:${port}` });
      assert.equal(done.status, 'failed');
      assert.equal(done.code, 'proxy');
      assert.match(
        done.reason,
        new RegExp(`^Nothing answers at the proxy http://127\\.0\\.0\\.1:${port} \\(HTTP_PROXY\\)`),
      );
      assert.match(done.reason, /ECONNREFUSED/);
      assert.ok(performance.now() - started < 5_000, 'stopped without retrying a setting');
    });

    it(`${transport}: a proxy that answers 407 stops the task, naming the proxy and not the endpoint`, async () => {
      proxy = await startRealProxy({ authenticate: () => false });
      const refused = await hello(transport, { HTTP_PROXY: proxy.url });
      assert.equal(refused.status, 'failed');
      assert.equal(refused.code, 'proxy');
      const where = proxy.url.replace(/\./g, '\\.');
      assert.match(
        refused.reason,
        new RegExp(
          `^The proxy ${where} \\(HTTP_PROXY\\) did not connect to the endpoint: it answered HTTP 407 Proxy Authentication Required`,
        ),
      );
      assert.doesNotMatch(
        refused.reason,
        /credentials were refused|refused the credentials/,
        'the endpoint is not blamed',
      );
    });

    it(`${transport}: credentials in the proxy's URL go to the proxy (Proxy-Authorization), never into a message`, async () => {
      const expected = `Basic ${Buffer.from('me:s3cret').toString('base64')}`;
      proxy = await startRealProxy({ authenticate: (header) => header === expected });
      const done = await hello(transport, { HTTP_PROXY: proxy.url.replace('http://', 'http://me:s3cret@') });
      assert.equal(done.status, 'completed', done.reason);
      assert.deepEqual([...new Set(proxy.tunnels)], [target()]);
      assert.ok(!JSON.stringify(bench.events).includes('s3cret'), 'no event carries the password');
    });
  }

  it('off (the embedded backend) never goes through the proxy, whatever the environment says', async () => {
    proxy = await startRealProxy();
    const { agent, transport: session } = await bench.agent({
      transport: 'ws',
      proxy: { off: true, env: { HTTP_PROXY: proxy.url } },
    });
    try {
      await agent.start();
      assert.equal((await agent.run('hello')).status, 'completed');
    } finally {
      session.close(false);
    }
    assert.deepEqual(proxy.tunnels, []);
  });
});
