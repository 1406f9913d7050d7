import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { loadScenarioFile } from '../../../src/server';
import {
  ECHO_SCENARIO,
  type WireEvent,
  WsClient,
  finalResponse,
  isEnd,
  post,
  refusedUpgrade,
  useServer,
} from './support/harness';
import { fromOrigin } from './support/originRefusal';
import { storyScenario } from './support/scenarios';

// Safe by default: the token, no browser Origin, size limits, and bad input answered with the API's error
// shape, never a crash, and never at the cost of another connection. Without a token:
// safetyWithoutToken.test.ts.

const TOKEN = 'safety-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const LIMIT = 1000;

const UNAUTHORIZED = {
  error: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message:
      'This loopwire-server requires a token: send "Authorization: Bearer <token>" with the token it was started with.',
    param: null,
  },
};
const TOO_LARGE = {
  error: {
    type: 'invalid_request_error',
    code: 'request_too_large',
    message: `The request body exceeds loopwire-server's limit of ${LIMIT} bytes.`,
    param: null,
  },
};

/** A response.create body whose JSON text is exactly `bytes` long. */
function bodyOfSize(bytes: number, extra: Record<string, unknown> = {}): string {
  const base = { model: 'm', store: false, ...extra, input: '' };
  const padding = bytes - JSON.stringify(base).length;
  assert.ok(padding >= 0);
  const text = JSON.stringify({ ...base, input: `echo hi ${'x'.repeat(Math.max(0, padding - 8))}`.slice(0, padding) });
  assert.equal(text.length, bytes);
  return text;
}

/** A POST sent with chunked encoding (no Content-Length), so only the bytes themselves can tell its size. */
function postChunked(
  url: string,
  chunks: string[],
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

const errorOf = (text: string) =>
  (JSON.parse(text) as { error: { type: string; code: string | null; message: string; param: string | null } }).error;

describe('safety: a server started with a token and small limits', () => {
  const harness = useServer({
    token: TOKEN,
    tps: 4000,
    // The story streams for well over 100 ms: long enough for the bad connections to happen during it.
    scenarios: [storyScenario(300), loadScenarioFile(ECHO_SCENARIO)],
    limits: { maxBodyBytes: LIMIT },
  });
  const responses = () => `${harness.url}/responses`;
  const clients: WsClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.close()));
  const openWs = async (headers: Record<string, string> = AUTH) => {
    const client = await WsClient.open(harness.url, headers);
    clients.push(client);
    return client;
  };

  describe('the token', () => {
    it('HTTP: no Authorization, a wrong token or another scheme is 401 invalid_api_key, on every route', async () => {
      const body = { model: 'm', store: false, input: 'echo hi' };
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: `Bearer ${TOKEN}x` },
        { authorization: `Basic ${TOKEN}` },
        { authorization: TOKEN },
      ];
      for (const headers of attempts) {
        const reply = await post(responses(), body, headers);
        assert.equal(reply.status, 401, JSON.stringify(headers));
        assert.deepEqual(JSON.parse(reply.text), UNAUTHORIZED);
      }
      for (const path of ['/models', '/responses/resp_x', '/nope']) {
        const reply = await fetch(`${harness.url}${path}`);
        assert.equal(reply.status, 401, path);
        assert.deepEqual(await reply.json(), UNAUTHORIZED);
      }
      assert.equal(harness.turns.length, 0, 'nothing ran');
    });

    it('HTTP: the right bearer is served', async () => {
      const reply = await post(responses(), { model: 'm', store: false, input: 'echo hi' }, AUTH);
      assert.equal(reply.status, 200);
      assert.equal((await fetch(`${harness.url}/models`, { headers: AUTH })).status, 200);
    });

    it('WebSocket: the upgrade without or with a wrong token is refused 401 with the error body; the right one opens', async () => {
      assert.deepEqual(await refusedUpgrade(harness.url), { status: 401, body: UNAUTHORIZED });
      assert.deepEqual(await refusedUpgrade(harness.url, { authorization: 'Bearer wrong' }), {
        status: 401,
        body: UNAUTHORIZED,
      });
      const client = await openWs();
      assert.equal(
        finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status,
        'completed',
      );
    });
  });

  describe('a browser Origin', () => {
    it('HTTP: refused 403 origin_not_allowed even with the right token', async () => {
      const reply = await post(
        responses(),
        { model: 'm', input: 'echo hi' },
        { ...AUTH, origin: 'https://evil.example' },
      );
      assert.equal(reply.status, 403);
      assert.deepEqual(JSON.parse(reply.text), fromOrigin('https://evil.example'));
      assert.equal(harness.turns.length, 0);
    });

    it('WebSocket: the upgrade is refused 403 even with the right token', async () => {
      assert.deepEqual(await refusedUpgrade(harness.url, { ...AUTH, origin: 'http://localhost:3000' }), {
        status: 403,
        body: fromOrigin('http://localhost:3000'),
      });
    });
  });

  describe('bad HTTP requests get the API error shape', () => {
    it('bad JSON: 400 invalid_json', async () => {
      const reply = await post(responses(), '{"model": "m", "input": ', AUTH);
      assert.equal(reply.status, 400);
      assert.equal(reply.headers.get('content-type'), 'application/json');
      const error = errorOf(reply.text);
      assert.deepEqual(
        { ...error, message: '' },
        { type: 'invalid_request_error', code: 'invalid_json', message: '', param: null },
      );
      assert.match(error.message, /^We could not parse the JSON body of your request: /);
    });

    it('an invalid parameter: 400 naming it, nested paths as the API writes them', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ model: 'm', input: 5 }, 'input', 'invalid_value'],
        [{ model: 'm', input: 'x', temperature: 'hot' }, 'temperature', 'invalid_value'],
        [
          { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: 5 }] }] },
          'input[0].content[0].text',
          'invalid_value',
        ],
        [{ input: 'x' }, 'model', 'missing_required_parameter'],
        [{ model: 'm', input: 'x', background: true }, 'background', 'unsupported_parameter'],
        [{ model: 'm', input: 'x', generate: false }, 'generate', 'unsupported_parameter'],
        [{ model: 'm', input: 'x', stream_id: 'a' }, 'stream_id', 'unsupported_parameter'],
      ];
      for (const [body, param, code] of cases) {
        const reply = await post(responses(), body, AUTH);
        assert.equal(reply.status, 400, JSON.stringify(body));
        const error = errorOf(reply.text);
        assert.deepEqual(
          [error.type, error.code, error.param],
          ['invalid_request_error', code, param],
          JSON.stringify(body),
        );
        assert.ok(error.message.includes(param.split('[')[0] ?? param), error.message);
      }
      assert.deepEqual(
        errorOf((await post(responses(), { model: 'm', input: 5 }, AUTH)).text).message,
        "Invalid type for 'input': expected a string, but got an integer instead.",
      );
    });

    it('a JSON body that is not an object: 400 invalid_value, param null', async () => {
      for (const body of ['[1]', '"text"', 'null']) {
        const reply = await post(responses(), body, AUTH);
        assert.equal(reply.status, 400, body);
        assert.deepEqual([errorOf(reply.text).code, errorOf(reply.text).param], ['invalid_value', null]);
      }
    });

    it('a body over maxBodyBytes: 413 request_too_large; exactly the limit is served', async () => {
      const atLimit = await post(responses(), bodyOfSize(LIMIT), AUTH);
      assert.equal(atLimit.status, 200, atLimit.text);
      const over = await post(responses(), bodyOfSize(LIMIT + 1), AUTH);
      assert.equal(over.status, 413);
      assert.deepEqual(JSON.parse(over.text), TOO_LARGE);
    });

    it('a chunked body (no Content-Length) over the limit: 413 too', async () => {
      const text = bodyOfSize(LIMIT + 500);
      const over = await postChunked(responses(), [text.slice(0, 700), text.slice(700)], AUTH);
      assert.equal(over.status, 413);
      assert.deepEqual(JSON.parse(over.text), TOO_LARGE);
      const fits = bodyOfSize(LIMIT - 10);
      const ok = await postChunked(responses(), [fits.slice(0, 300), fits.slice(300)], AUTH);
      assert.equal(ok.status, 200, ok.text);
    });

    it('an unknown route is 404 not_found; a wrong method is 405 with Allow', async () => {
      const unknown = await fetch(`${harness.url}/chat/completions`, { method: 'POST', headers: AUTH, body: '{}' });
      assert.equal(unknown.status, 404);
      assert.deepEqual(await unknown.json(), {
        error: {
          type: 'invalid_request_error',
          code: 'not_found',
          message: 'No route for POST /v1/chat/completions.',
          param: null,
        },
      });
      const root = await fetch(harness.url.replace(/\/v1$/, '/'), { headers: AUTH });
      assert.equal(root.status, 404);
      const wrong = await fetch(responses(), { headers: AUTH });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'POST');
      assert.equal(errorOf(await wrong.text()).code, 'method_not_allowed');
    });

    it('GET of a response id with a malformed escape is a 404, not a crash', async () => {
      const reply = await fetch(`${responses()}/%E0%A4%A`, { headers: AUTH });
      assert.equal(reply.status, 404);
      assert.equal(errorOf(await reply.text()).param, 'response_id');
    });

    it('a WebSocket upgrade on another path is 404', async () => {
      const refused = await refusedUpgrade(harness.url, AUTH, '/chat');
      assert.equal(refused.status, 404);
      assert.deepEqual(refused.body, {
        error: {
          type: 'invalid_request_error',
          code: 'not_found',
          message: 'No WebSocket route for /v1/chat.',
          param: null,
        },
      });
    });
  });

  describe('bad WebSocket frames get an error event; the socket stays usable', () => {
    const invalid = (code: string, message: string, param: string | null) => ({
      type: 'error',
      status: 400,
      error: { type: 'invalid_request_error', code, message, param },
    });

    it('not JSON: invalid_json, then the next turn is served', async () => {
      const client = await openWs();
      client.socket.send('this is not json');
      await client.until((frames) => frames.length === 1);
      const frame = client.frames[0] as WireEvent & { error: { message: string } };
      assert.deepEqual({ ...frame, error: { ...frame.error, message: '' } }, invalid('invalid_json', '', null));
      assert.match(frame.error.message, /^We could not parse the JSON body of your request: /);
      assert.equal(
        finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status,
        'completed',
      );
      assert.equal(client.closeCode, undefined);
    });

    it('an unknown event type, a frame without a type, a binary frame, an invalid create: each its own error', async () => {
      const client = await openWs();
      client.send({ type: 'response.cancel', response_id: 'resp_x' });
      client.send({ model: 'm', input: 'echo hi' });
      client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
      client.send({ type: 'response.create', model: 'm', input: 5 });
      client.send({ type: 'response.create', input: 'echo hi' });
      await client.until((frames) => frames.length === 5);
      assert.deepEqual(client.frames, [
        invalid('unknown_event_type', "Unknown client event type 'response.cancel'.", 'type'),
        invalid('invalid_value', "Missing required parameter: 'type'.", 'type'),
        invalid('invalid_frame', 'Binary frames are not supported: send each event as a JSON text frame.', null),
        invalid('invalid_value', "Invalid type for 'input': expected a string, but got an integer instead.", 'input'),
        invalid('missing_required_parameter', "Missing required parameter: 'model'.", 'model'),
      ]);
      assert.equal(
        finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status,
        'completed',
      );
      assert.equal(harness.turns.length, 1, 'none of the bad frames ran a turn');
    });

    it('background: true is refused over WebSocket mode', async () => {
      const client = await openWs();
      assert.deepEqual(await client.turn({ model: 'm', background: true, input: 'echo hi' }), [
        invalid('unsupported_parameter', "'background' is not supported over WebSocket mode.", 'background'),
      ]);
      assert.equal(
        finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status,
        'completed',
      );
    });

    it('a frame over maxBodyBytes closes the socket with 1009; one at the limit is served', async () => {
      const fits = await openWs();
      fits.socket.send(bodyOfSize(LIMIT, { type: 'response.create' }));
      await fits.until((frames) => frames.some((frame) => frame.type === 'response.completed'));
      const big = await openWs();
      big.socket.send(bodyOfSize(LIMIT + 1, { type: 'response.create' }));
      assert.equal(await big.closed(), 1009);
      assert.equal(big.frames.length, 0);
    });
  });

  it('one bad connection does not affect another running at the same time', async () => {
    const good = await openWs();
    good.send({ type: 'response.create', model: 'm', store: false, input: 'tell me a story' });
    await good.until((frames) => frames.some((frame) => frame.type === 'response.output_text.delta'));
    // While it streams: garbage, an oversized frame, a binary frame, bad HTTP of every kind.
    const bad = await openWs();
    bad.socket.send('{{{');
    bad.socket.send(Buffer.alloc(10), { binary: true });
    const huge = await openWs();
    huge.socket.send('x'.repeat(LIMIT * 5));
    const abrupt = await openWs();
    abrupt.socket.terminate();
    const replies = await Promise.all([
      post(responses(), '{nope', AUTH),
      post(responses(), bodyOfSize(LIMIT * 3), AUTH),
      post(responses(), { model: 'm', input: 'echo hi' }),
      post(responses(), { model: 'm', input: 5 }, AUTH),
    ]);
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [400, 413, 401, 400],
    );
    assert.equal(await huge.closed(), 1009);
    assert.ok(!good.frames.some(isEnd), 'all of that happened while the good response was still streaming');
    await good.until((frames) => frames.some((frame) => frame.type === 'response.completed'));
    const events = good.frames as WireEvent[];
    assert.ok(
      events.every((frame) => frame.type.startsWith('response.')),
      'no error reached the good socket',
    );
    assert.deepEqual(
      events.map((frame) => frame.sequence_number),
      events.map((_, index) => index),
    );
    assert.equal(good.closeCode, undefined);
    assert.equal(finalResponse(events).status, 'completed');
    await bad.until((frames) => frames.length === 2);
    assert.deepEqual(
      (bad.frames as WireEvent[]).map((frame) => (frame.error as { code: string }).code),
      ['invalid_json', 'invalid_frame'],
    );
    assert.equal(finalResponse(await bad.turn({ model: 'm', store: false, input: 'echo hi' })).status, 'completed');
  });
});
