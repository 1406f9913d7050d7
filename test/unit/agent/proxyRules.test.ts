import * as assert from 'node:assert/strict';
import { bypassesProxy, parseNoProxy, proxyRoute } from '../../../src/agent/transport/proxy';
import { actionFor } from '../../../src/agent/transport/retryPolicy';
import type { TransportFault } from '../../../src/agent/transport/transportFault';

// Which proxy a request to an endpoint goes through (src/agent/transport/proxy.ts): the variables by the endpoint's
// scheme, lower case first, NO_PROXY's entries (host, .domain, *.domain, *, host:port, any case), VS Code's
// http.proxy and http.noProxy in place of the environment's, and `off` for the embedded backend.

const PROXY = 'http://proxy.corp:3128';

/** The proxy's URL for `endpoint` under `env` (and `settings`), or 'direct'. */
const via = (endpoint: string, env: NodeJS.ProcessEnv, settings = {}) =>
  proxyRoute(endpoint, { ...settings, env })?.url.href ?? 'direct';

const bypasses = (target: string, noProxy: string) => bypassesProxy(new URL(target), parseNoProxy(noProxy));

describe('proxy: NO_PROXY matching', () => {
  it('an entry names its host and every host under it, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com']) {
      assert.equal(bypasses('https://example.com/v1', entry), true, entry);
      assert.equal(bypasses('https://api.example.com/v1', entry), true, entry);
      assert.equal(bypasses('https://a.b.example.com/v1', entry), true, entry);
      assert.equal(bypasses('https://notexample.com/v1', entry), false, entry);
      assert.equal(bypasses('https://example.com.evil.org/v1', entry), false, entry);
    }
  });

  it('* alone names every host; elsewhere in a list it is one entry among others', () => {
    assert.equal(bypasses('https://api.openai.com/v1', '*'), true);
    assert.equal(bypasses('http://127.0.0.1:8080/v1', ' * '), true);
    assert.equal(bypasses('https://api.openai.com/v1', 'localhost,*'), true);
  });

  it('host:port names that port only, the scheme giving the default one', () => {
    assert.equal(bypasses('http://127.0.0.1:8080/v1', '127.0.0.1:8080'), true);
    assert.equal(bypasses('http://127.0.0.1:9090/v1', '127.0.0.1:8080'), false);
    assert.equal(bypasses('https://api.openai.com/v1', 'api.openai.com:443'), true);
    assert.equal(bypasses('http://api.openai.com/v1', 'api.openai.com:443'), false);
    assert.equal(bypasses('wss://api.openai.com/v1/responses', 'openai.com:443'), true);
  });

  it('is not case-sensitive, and takes commas and spaces between entries', () => {
    assert.equal(bypasses('https://API.OpenAI.com/v1', 'openai.COM'), true);
    assert.equal(bypasses('https://api.openai.com/v1', 'LOCALHOST, .OpenAI.Com'), true);
    assert.equal(bypasses('http://localhost:1234/v1', 'example.org localhost'), true);
    assert.deepEqual(parseNoProxy(' a.com,,B.com  c.com ,'), ['a.com', 'b.com', 'c.com']);
  });

  it('IP addresses match exactly, IPv6 in or out of brackets', () => {
    assert.equal(bypasses('http://127.0.0.1:8080/v1', '127.0.0.1'), true);
    assert.equal(bypasses('http://127.0.0.10:8080/v1', '127.0.0.1'), false);
    assert.equal(bypasses('http://[::1]:8080/v1', '::1'), true);
    assert.equal(bypasses('http://[::1]:8080/v1', '[::1]:8080'), true);
    assert.equal(bypasses('http://[::1]:8080/v1', '[::1]:9090'), false);
  });

  it('an empty list names nothing', () => {
    assert.equal(bypasses('http://localhost/v1', ''), false);
    assert.equal(bypasses('http://localhost/v1', ' , '), false);
  });
});

describe('proxy: the route for an endpoint', () => {
  it('https and wss endpoints take HTTPS_PROXY, http and ws ones HTTP_PROXY; neither falls back to the other', () => {
    const env = { HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2' };
    assert.equal(via('https://api.openai.com/v1', env), 'http://secure:1/');
    assert.equal(via('wss://api.openai.com/v1/responses', env), 'http://secure:1/');
    assert.equal(via('http://10.0.0.5:8000/v1', env), 'http://plain:2/');
    assert.equal(via('ws://10.0.0.5:8000/v1/responses', env), 'http://plain:2/');
    assert.equal(via('https://api.openai.com/v1', { HTTP_PROXY: PROXY }), 'direct');
    assert.equal(via('http://10.0.0.5/v1', { HTTPS_PROXY: PROXY }), 'direct');
  });

  it('reads lower case before upper case, and an empty variable as unset', () => {
    assert.equal(
      via('https://api.openai.com/v1', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }),
      'http://lower:1/',
    );
    assert.equal(
      via('https://api.openai.com/v1', { https_proxy: '', HTTPS_PROXY: 'http://upper:2' }),
      'http://upper:2/',
    );
    assert.equal(via('https://api.openai.com/v1', { https_proxy: ' ' }), 'direct');
    assert.equal(via('https://x.org/v1', { HTTPS_PROXY: PROXY, no_proxy: 'x.org', NO_PROXY: 'y.org' }), 'direct');
    assert.equal(via('https://y.org/v1', { HTTPS_PROXY: PROXY, no_proxy: 'x.org', NO_PROXY: 'y.org' }), `${PROXY}/`);
  });

  it('a loopback endpoint is proxied like any other, unless NO_PROXY names it', () => {
    assert.equal(via('http://127.0.0.1:8080/v1', { HTTP_PROXY: PROXY }), `${PROXY}/`);
    assert.equal(via('http://localhost:8080/v1', { HTTP_PROXY: PROXY }), `${PROXY}/`);
    assert.equal(via('http://127.0.0.1:8080/v1', { HTTP_PROXY: PROXY, NO_PROXY: '127.0.0.1' }), 'direct');
  });

  it('off (the embedded backend) is never proxied, whatever is set', () => {
    const env = { HTTP_PROXY: PROXY, HTTPS_PROXY: PROXY };
    assert.equal(via('http://127.0.0.1:8080/v1', env, { off: true }), 'direct');
    assert.equal(via('https://api.openai.com/v1', env, { off: true, url: PROXY }), 'direct');
  });

  it("VS Code's http.proxy wins over the variables for every scheme; http.noProxy replaces NO_PROXY when set", () => {
    const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'openai.com' };
    assert.equal(via('http://10.0.0.5/v1', env, { url: PROXY }), `${PROXY}/`);
    assert.equal(via('https://api.openai.com/v1', env, { url: PROXY }), 'direct');
    assert.equal(via('https://api.openai.com/v1', env, { url: PROXY, noProxy: ['azure.com'] }), `${PROXY}/`);
    assert.equal(via('https://x.azure.com/v1', env, { url: PROXY, noProxy: ['AZURE.com'] }), 'direct');
    assert.equal(via('https://api.openai.com/v1', {}, { url: ' ' }), 'direct');
  });

  it('names the proxy without its credentials and where it was set; a bare host:port is http', () => {
    const route = proxyRoute('https://api.openai.com/v1', { env: { https_proxy: 'http://me:secret@proxy:8080' } });
    assert.equal(route?.label, 'http://proxy:8080 (https_proxy)');
    assert.equal(route?.url.username, 'me');
    assert.equal(proxyRoute('https://a.org', { url: 'proxy:3128' })?.label, 'http://proxy:3128 (http.proxy)');
    assert.equal(proxyRoute('https://a.org', { url: PROXY, strictSSL: false })?.strictSSL, false);
    assert.equal(proxyRoute('https://a.org', { url: PROXY })?.strictSSL, true);
  });

  it('refuses a proxy that is not an HTTP one, in words naming the variable', () => {
    assert.throws(
      () => proxyRoute('https://a.org', { env: { HTTPS_PROXY: 'socks5://127.0.0.1:1080' } }),
      /HTTPS_PROXY is socks5:\/\/…: Loopwire goes through HTTP proxies only/,
    );
  });
});

describe('proxy: what a proxy failure does to a task', () => {
  const failed = (status: number | undefined): TransportFault => ({
    kind: 'connect_failed',
    status: undefined,
    message:
      status === undefined ? 'nothing answers at the proxy P (connect ECONNREFUSED)' : `the proxy P said ${status}`,
    retryAfterMs: undefined,
    unreachable: status === undefined,
    proxy: { proxy: 'P', status },
  });

  it('before the endpoint ever answered, any proxy failure stops at once with code proxy', () => {
    for (const status of [undefined, 407, 403, 502])
      for (const transport of ['ws', 'http'] as const) {
        const action = actionFor(failed(status), transport, 'auto', false);
        assert.equal(action.action, 'stop', `${status} over ${transport}`);
        assert.equal(action.action === 'stop' && action.code, 'proxy');
      }
    const stop = actionFor(failed(undefined), 'ws', 'auto', false);
    assert.equal(stop.action === 'stop' && stop.message, 'Nothing answers at the proxy P (connect ECONNREFUSED).');
  });

  it('after it answered, a proxy that wants credentials or forbids still stops; one gone away is retried', () => {
    assert.equal(actionFor(failed(407), 'http', 'http', true).action, 'stop');
    assert.equal(actionFor(failed(403), 'ws', 'ws', true).action, 'stop');
    assert.equal(actionFor(failed(undefined), 'ws', 'auto', true).action, 'retry');
    assert.equal(actionFor(failed(502), 'http', 'http', true).action, 'retry');
  });
});
