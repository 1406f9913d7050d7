import * as assert from 'node:assert/strict';
import { AgentStop, ModelTransport } from '../../../src/agent';
import { compactContext } from '../../../src/agent/transport/compactExchange';
import { userMessage } from '../../../src/agent/conversation/outputItems';
import { requestHeaders } from '../../../src/agent/transport/requestBody';
import { ConnectError, WsChannel } from '../../../src/agent/transport/wsChannel';
import { checkModels } from '../../../src/extension/endpoint/endpointCheck';
import { type RedirectServers, startRedirectServers } from './redirectServers';

// Issue 46, item 5: an endpoint that redirects to another origin must not get the key or the request from
// Loopwire there. Node's fetch follows a redirect by itself and strips only `Authorization` on the way: a
// gateway's `api-key` header and the whole body went to the other host. Every exchange with the endpoint (a
// turn, a compaction, the endpoint check, the WebSocket's upgrade) is driven here at a front that redirects
// to another port on 127.0.0.1; that port must see nothing at all, and the stop must name it. A redirect to
// the same origin is followed, to a real answer.

const TOKEN = 'right-key';
const API_KEY = 'secret-api-key';
const MODEL = 'loopwire-scripted';
const headers = { 'api-key': API_KEY };
const items = [userMessage('hello')];

describe('agent: a redirect never takes the key to another origin', function () {
  this.timeout(20_000);
  let servers: RedirectServers;
  beforeEach(async () => (servers = await startRedirectServers(TOKEN)));
  afterEach(() => servers.close());

  const endpoint = () => `${servers.front}/old`;
  /** The stop's words, which name the other origin. */
  const refusal = () =>
    `the endpoint redirected to ${servers.other}, another origin; Loopwire does not send the key there`;

  const session = () =>
    new ModelTransport({
      endpoint: endpoint(),
      transport: 'http',
      apiKey: TOKEN,
      headers,
      proxy: { off: true },
      maxAttempts: 4,
      backoffBaseMs: 1,
      backoffMaxMs: 5,
      emit: () => undefined,
    });

  const compact = () =>
    compactContext({
      endpoint: endpoint(),
      headers: requestHeaders(TOKEN, headers),
      model: MODEL,
      input: items,
      promptCacheKey: undefined,
      signal: AbortSignal.timeout(10_000),
    });

  const check = () => checkModels(endpoint(), { apiKey: TOKEN, headers, proxy: { off: true } });

  /** The other origin saw no connection, so neither the key nor the body. */
  const otherGotNothing = () => assert.deepEqual(servers.otherSeen, { connections: 0, requests: [] });

  for (const status of [302, 307, 308]) {
    describe(`HTTP ${status} to another origin`, () => {
      beforeEach(() => (servers.mode = { status, to: 'other' }));

      it('a turn stops at once, naming the other origin, and is not resent', async () => {
        const transport = session();
        try {
          await assert.rejects(
            transport.run(1, { model: MODEL, tools: [], items }, AbortSignal.timeout(10_000)),
            (error) => {
              assert.ok(error instanceof AgentStop, String(error));
              assert.equal(error.code, 'redirected');
              assert.equal(error.message, `${refusal().replace(/^t/, 'T')}.`);
              return true;
            },
          );
        } finally {
          transport.close(false);
        }
        assert.deepEqual(servers.frontSeen, ['POST /old/responses']);
        otherGotNothing();
      });

      it('a compaction stops, naming the other origin', async () => {
        await assert.rejects(compact(), (error) => {
          assert.ok(error instanceof AgentStop, String(error));
          assert.equal(error.code, 'redirected');
          assert.equal(error.message, `The context could not be compacted: ${refusal()}.`);
          return true;
        });
        otherGotNothing();
      });

      it('the endpoint check says the endpoint redirected elsewhere', async () => {
        assert.deepEqual(await check(), { ok: false, cause: 'refused', message: `${refusal().replace(/^t/, 'T')}.` });
        assert.deepEqual(servers.frontSeen, ['GET /old/models']);
        otherGotNothing();
      });

      it("the WebSocket's upgrade does not follow it", async () => {
        const opening = WsChannel.open(`${endpoint().replace(/^http/, 'ws')}/responses`, {
          headers: requestHeaders(TOKEN, headers),
          connectTimeoutMs: 5_000,
        });
        await assert.rejects(opening, (error) => {
          assert.ok(error instanceof ConnectError, String(error));
          assert.equal(error.status, status);
          return true;
        });
        otherGotNothing();
      });
    });
  }

  describe('HTTP 307 to the same origin', () => {
    beforeEach(() => (servers.mode = { status: 307, to: 'same' }));

    it('a turn follows it, with its body, and completes', async () => {
      const transport = session();
      try {
        const outcome = await transport.run(1, { model: MODEL, tools: [], items }, AbortSignal.timeout(10_000));
        assert.equal(outcome.response.status, 'completed');
      } finally {
        transport.close(false);
      }
      assert.deepEqual(servers.frontSeen, ['POST /old/responses', 'POST /v1/responses']);
    });

    it('a compaction follows it', async () => {
      const compacted = await compact();
      assert.ok(
        compacted.output.some((item) => item.type === 'compaction'),
        JSON.stringify(compacted),
      );
      assert.deepEqual(servers.frontSeen, ['POST /old/responses/compact', 'POST /v1/responses/compact']);
    });

    it('the endpoint check follows it to the model list', async () => {
      assert.deepEqual(await check(), { ok: true, models: [MODEL] });
      assert.deepEqual(servers.frontSeen, ['GET /old/models', 'GET /v1/models']);
    });
  });

  it('a redirect that never ends is given up after five hops', async () => {
    servers.mode = { status: 307, to: 'loop' };
    const answer = await check();
    assert.ok(!answer.ok && /^The endpoint redirected more than 5 times/.test(answer.message), JSON.stringify(answer));
    assert.equal(servers.frontSeen.length, 6);
    otherGotNothing();
  });
});
