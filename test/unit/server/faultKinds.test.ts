import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { type ServerStats, parseScenarioFile } from '../../../src/server';
import { AUTH, CASES, type CaseName, SCENARIOS, TOKEN } from './support/faultScenarios';
import {
  type SseBlock,
  type WireEvent,
  WsClient,
  adminUrl,
  finalResponse,
  isEnd,
  post,
  postUntilCut,
  sseBlocks,
  useServer,
} from './support/harness';
import { eventually } from '../support/eventually';

// Fault injection for the reliability suites: every kind, over WebSocket and over HTTP+SSE, armed by a
// scenario step's `fault` and through the admin endpoint; then the admin endpoint's own rules
// (on a server without a token: faultAdminWithoutToken.test.ts).

/** What the malformed-frame fault sends (docs/backend.md, "Faults"). */
const MALFORMED = '{"type":"response.output_text.delta","delta":';

interface WsRun {
  frames: WsClient['frames'];
  /** When each frame arrived (performance.now()). */
  at: number[];
  closeCode: number | undefined;
  ms: number;
}

interface SseRun {
  status: number;
  headers: Headers;
  text: string;
  blocks: SseBlock[];
  cut: Error | undefined;
  ms: number;
}

const types = (frames: { type: string }[]) => frames.map((frame) => frame.type);
const parsedBlocks = (blocks: SseBlock[]) => blocks.map((block) => JSON.parse(block.data) as WireEvent);
const outputTokens = (response: unknown) => (response as { usage: { output_tokens: number } }).usage.output_tokens;

describe('faults: each kind, over WebSocket and HTTP+SSE, from a scenario step or the admin endpoint', () => {
  const harness = useServer({ token: TOKEN, scenarios: [SCENARIOS] });
  const clients: WsClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.close()));

  const openWs = async () => {
    const client = await WsClient.open(harness.url, AUTH);
    clients.push(client);
    return client;
  };

  const overWs = async (prompt: string): Promise<WsRun> => {
    const client = await openWs();
    const at: number[] = [];
    client.socket.on('message', () => at.push(performance.now()));
    const started = performance.now();
    client.send({ type: 'response.create', model: 'm', store: false, input: prompt });
    // A fault that cuts the socket ends the wait with the close instead of a terminal event.
    await client.until((frames) => frames.some(isEnd)).catch(() => undefined);
    return { frames: client.frames, at, closeCode: client.closeCode, ms: performance.now() - started };
  };

  const overSse = async (prompt: string): Promise<SseRun> => {
    const reply = await postUntilCut(
      `${harness.url}/responses`,
      { model: 'm', store: false, stream: true, input: prompt },
      AUTH,
    );
    return { ...reply, blocks: sseBlocks(reply.text) };
  };

  const admin = (route: string, init: RequestInit = {}) =>
    fetch(adminUrl(harness.url, route), { ...init, headers: { ...AUTH, 'content-type': 'application/json' } });
  const order = async (body: Record<string, unknown>) => {
    const reply = await admin('faults', { method: 'POST', body: JSON.stringify(body) });
    assert.equal(reply.status, 200, await reply.text());
  };
  const pending = async () => ((await (await admin('faults')).json()) as { pending: unknown[] }).pending;

  /** After any fault, a fresh connection of either transport is served as if nothing happened. */
  const servesOthers = async () => {
    const client = await openWs();
    assert.equal(finalResponse(await client.turn({ model: 'm', store: false, input: 'plain' })).status, 'completed');
    const http = await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH);
    assert.equal(http.status, 200);
    assert.equal((JSON.parse(http.text) as { status: string }).status, 'completed');
  };

  const expectations: Record<CaseName, { ws: (run: WsRun) => void; sse: (run: SseRun) => void }> = {
    close: {
      ws: (run) => {
        assert.deepEqual(types(run.frames), ['response.created', 'response.in_progress', 'response.output_item.added']);
        assert.equal(run.closeCode, 1006, 'dropped without a closing handshake');
      },
      sse: (run) => {
        assert.equal(run.status, 200);
        assert.deepEqual(
          run.blocks.map((block) => block.event),
          ['response.created', 'response.in_progress', 'response.output_item.added'],
        );
        assert.ok(run.cut, 'the body ends with the connection cut, not a clean end');
      },
    },
    malformed: {
      ws: (run) => {
        assert.deepEqual(run.frames[2], { type: '(unparsable)', text: MALFORMED });
        const parsed = run.frames.filter((frame) => frame.type !== '(unparsable)') as WireEvent[];
        assert.equal(parsed.length, run.frames.length - 1, 'exactly one bad frame');
        assert.deepEqual(
          parsed.map((frame) => frame.sequence_number),
          parsed.map((_, index) => index),
          'the bad frame takes no sequence number',
        );
        assert.equal(run.frames.at(-1)?.type, 'response.completed', 'then the response goes on as normal');
        assert.equal(run.closeCode, undefined);
      },
      sse: (run) => {
        assert.deepEqual(run.blocks[2], { event: undefined, data: MALFORMED, raw: `data: ${MALFORMED}\n\n` });
        assert.throws(() => JSON.parse(MALFORMED) as unknown);
        assert.equal(run.blocks.at(-1)?.event, 'response.completed');
        assert.equal(run.blocks.filter((block) => block.event === undefined).length, 1);
        assert.equal(run.cut, undefined);
      },
    },
    truncated: {
      ws: (run) => {
        assert.equal(run.frames.length, 5);
        assert.deepEqual(
          (run.frames.slice(0, 4) as WireEvent[]).map((frame) => frame.sequence_number),
          [0, 1, 2, 3],
        );
        const last = run.frames[4] as { type: string; text: string };
        assert.equal(last.type, '(unparsable)');
        assert.ok(last.text.startsWith('{"type":"response.output_text.delta"'), last.text);
        assert.equal(run.closeCode, 1006);
      },
      sse: (run) => {
        assert.equal(run.blocks.length, 5);
        assert.deepEqual(
          parsedBlocks(run.blocks.slice(0, 4)).map((event) => event.sequence_number),
          [0, 1, 2, 3],
        );
        const last = run.blocks[4];
        assert.equal(last?.event, undefined, 'half a frame: no event line of its own');
        assert.ok(last?.data.startsWith('{"type":"response.output_text.delta"'), last?.data);
        assert.throws(() => JSON.parse(last?.data ?? '') as unknown);
        assert.ok(run.cut, 'then the connection is cut');
      },
    },
    error: {
      ws: (run) => {
        const headers = { 'retry-after': '7' };
        assert.deepEqual(run.frames, [
          {
            type: 'error',
            status: 429,
            error: {
              type: 'rate_limit_error',
              code: 'rate_limit_exceeded',
              message: 'Slow down.',
              param: null,
              headers,
            },
            headers,
          },
        ]);
        assert.equal(run.closeCode, undefined, 'the socket stays open');
      },
      sse: (run) => {
        assert.equal(run.status, 429);
        assert.equal(run.headers.get('retry-after'), '7');
        assert.equal(run.headers.get('content-type'), 'application/json');
        assert.deepEqual(JSON.parse(run.text), {
          error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null },
        });
      },
    },
    errorMidStream: {
      ws: (run) => {
        const frames = run.frames as WireEvent[];
        assert.deepEqual(types(frames), [
          'response.created',
          'response.in_progress',
          'response.output_item.added',
          'error',
          'response.failed',
        ]);
        assert.deepEqual(frames[3], {
          type: 'error',
          code: 'server_is_sad',
          message: 'It broke.',
          param: null,
          sequence_number: 3,
        });
        const failed = frames[4] as unknown as {
          sequence_number: number;
          response: { status: string; error: unknown };
        };
        assert.equal(failed.sequence_number, 4);
        assert.equal(failed.response.status, 'failed');
        assert.deepEqual(failed.response.error, { code: 'server_is_sad', message: 'It broke.' });
        assert.equal(run.closeCode, undefined);
      },
      sse: (run) => {
        assert.equal(run.status, 200);
        const events = parsedBlocks(run.blocks);
        assert.deepEqual(
          run.blocks.map((block) => block.event),
          ['response.created', 'response.in_progress', 'response.output_item.added', 'error', 'response.failed'],
        );
        assert.deepEqual(events[3], {
          type: 'error',
          code: 'server_is_sad',
          message: 'It broke.',
          param: null,
          sequence_number: 3,
        });
        assert.deepEqual((events[4]?.response as { error: unknown }).error, {
          code: 'server_is_sad',
          message: 'It broke.',
        });
        assert.equal(run.cut, undefined, 'a failed response still ends the stream cleanly');
      },
    },
    stall: {
      ws: (run) => {
        assert.equal(run.frames.at(-1)?.type, 'response.completed');
        const gaps = run.at.slice(1).map((time, index) => time - (run.at[index] ?? time));
        assert.ok(
          (gaps[1] ?? 0) >= 285,
          `the stall sits between events 2 and 3: gaps ${gaps.map(Math.round).join(',')}`,
        );
        // One stall only: no other gap as long as the stall (a bound a loaded machine does not reach by chance).
        assert.deepEqual(
          gaps.flatMap((gap, index) => (gap >= 285 ? [index] : [])),
          [1],
          `one stall only: gaps ${gaps.map(Math.round).join(',')}`,
        );
      },
      sse: (run) => {
        assert.equal(run.blocks.at(-1)?.event, 'response.completed');
        assert.ok(run.ms >= 285, `stalled ${run.ms.toFixed(0)} ms`);
      },
    },
    slow: {
      ws: (run) => {
        const tokens = outputTokens(finalResponse(run.frames));
        assert.ok(tokens >= 30);
        // 20,000 tokens/s / 40 = 500 tokens/s.
        assert.ok(run.ms >= (tokens / 500) * 1000 * 0.95, `${tokens} tokens in ${run.ms.toFixed(0)} ms`);
      },
      sse: (run) => {
        assert.equal(run.blocks.at(-1)?.event, 'response.completed');
        const tokens = outputTokens(parsedBlocks(run.blocks).at(-1)?.response);
        assert.ok(run.ms >= (tokens / 500) * 1000 * 0.95, `${tokens} tokens in ${run.ms.toFixed(0)} ms`);
      },
    },
  };

  for (const [name, expect] of Object.entries(expectations) as [CaseName, (typeof expectations)[CaseName]][]) {
    describe(`${name}: ${JSON.stringify(CASES[name])}`, () => {
      it('over WebSocket, from a scenario step', async () => {
        expect.ws(await overWs(`fault ${name}`));
        await servesOthers();
      });

      it('over WebSocket, from the admin endpoint', async () => {
        await order({ fault: CASES[name], transport: 'ws' });
        expect.ws(await overWs('plain'));
        assert.deepEqual(await pending(), [], 'the order was used up');
        await servesOthers();
      });

      it('over HTTP+SSE, from a scenario step', async () => {
        expect.sse(await overSse(`fault ${name}`));
        await servesOthers();
      });

      it('over HTTP+SSE, from the admin endpoint', async () => {
        await order({ fault: CASES[name], transport: 'http' });
        expect.sse(await overSse('plain'));
        assert.deepEqual(await pending(), []);
        await servesOthers();
      });
    });
  }

  describe('HTTP without streaming (one JSON answer)', () => {
    const json = (input: string) => post(`${harness.url}/responses`, { model: 'm', store: false, input }, AUTH);

    it('error before any event: the status, Retry-After and the error body; the SDK raises RateLimitError', async () => {
      const reply = await json('fault error');
      assert.equal(reply.status, 429);
      assert.equal(reply.headers.get('retry-after'), '7');
      assert.deepEqual(JSON.parse(reply.text), {
        error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null },
      });
      const sdk = new OpenAI({ apiKey: TOKEN, baseURL: harness.url, maxRetries: 0 });
      await assert.rejects(sdk.responses.create({ model: 'm', input: 'fault error' }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.RateLimitError);
        assert.equal(error.headers?.get('retry-after'), '7');
        assert.equal(error.code, 'rate_limit_exceeded');
        return true;
      });
    });

    it('error mid-response: a 500 with the fault code', async () => {
      const reply = await json('fault errorMidStream');
      assert.equal(reply.status, 500);
      assert.deepEqual(JSON.parse(reply.text), {
        error: { type: 'server_error', code: 'server_is_sad', message: 'It broke.', param: null },
      });
    });

    it('malformed: the body is the malformed text', async () => {
      const reply = await json('fault malformed');
      assert.equal(reply.status, 200);
      assert.equal(reply.text, MALFORMED);
    });

    it('close: the connection is dropped before any answer', async () => {
      await assert.rejects(json('fault close'), TypeError);
      await servesOthers();
    });
  });

  describe('defaults, steps and precedence', () => {
    it('a bare {"kind":"error"}: status 500, server_error, a message naming the code, no Retry-After', async () => {
      await order({ fault: { kind: 'error' } });
      const reply = await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH);
      assert.equal(reply.status, 500);
      assert.equal(reply.headers.get('retry-after'), null);
      assert.deepEqual(JSON.parse(reply.text), {
        error: { type: 'server_error', code: 'server_error', message: 'Injected fault: server_error.', param: null },
      });
      await order({ fault: { kind: 'error', status: 400, code: 'bad_thing' } });
      const client = await openWs();
      assert.deepEqual(await client.turn({ model: 'm', store: false, input: 'plain' }), [
        {
          type: 'error',
          status: 400,
          error: {
            type: 'invalid_request_error',
            code: 'bad_thing',
            message: 'Injected fault: bad_thing.',
            param: null,
          },
        },
      ]);
    });

    it("a step's fault fires on that step only; a failed continuation evicts its parent on the socket (§3.6)", async () => {
      const client = await openWs();
      const first = finalResponse(await client.turn({ model: 'm', store: false, input: 'two steps' }));
      const call = first.output[0] as { call_id: string };
      const output = { type: 'function_call_output', call_id: call.call_id, output: 'ok' };
      const failed = await client.turn({ model: 'm', store: false, previous_response_id: first.id, input: [output] });
      assert.deepEqual(failed, [
        {
          type: 'error',
          status: 503,
          error: { type: 'server_error', code: 'overloaded', message: 'Injected fault: overloaded.', param: null },
        },
      ]);
      const again = await client.turn({ model: 'm', store: false, previous_response_id: first.id, input: [output] });
      assert.equal((again[0]?.error as { code: string }).code, 'previous_response_not_found');
      assert.equal(client.closeCode, undefined);
    });

    it('over HTTP with the full history, step 2 is the one that fails', async () => {
      const first = await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'two steps' }, AUTH);
      assert.equal(first.status, 200);
      const call = (JSON.parse(first.text) as { output: { call_id: string }[] }).output;
      const second = await post(
        `${harness.url}/responses`,
        {
          model: 'm',
          store: false,
          input: [
            { role: 'user', content: 'two steps' },
            ...call,
            { type: 'function_call_output', call_id: call[0]?.call_id, output: 'ok' },
          ],
        },
        AUTH,
      );
      assert.equal(second.status, 503);
      assert.equal((JSON.parse(second.text) as { error: { code: string } }).error.code, 'overloaded');
    });

    it("an admin fault takes the place of the step's own", async () => {
      await order({ fault: { kind: 'error', status: 503, code: 'from_admin' } });
      const client = await openWs();
      const frames = await client.turn({ model: 'm', store: false, input: 'fault close' });
      assert.equal((frames[0]?.error as { code: string }).code, 'from_admin');
      assert.equal(client.closeCode, undefined, "the step's close fault did not fire");
    });

    it('a scenario file refuses a fault it does not know, naming the field', () => {
      const file = (fault: unknown) =>
        JSON.stringify({
          scenarios: [{ name: 'x', match: 'x', steps: [{ output: [{ type: 'message', text: 'x' }], fault }] }],
        });
      assert.throws(
        () => parseScenarioFile(file({ kind: 'slow', factor: 0.5 }), 'f.json'),
        /^Error: f\.json: scenarios\.0\.steps\.0\.fault\.factor: /,
      );
      assert.throws(
        () => parseScenarioFile(file({ kind: 'explode' }), 'f.json'),
        /f\.json: scenarios\.0\.steps\.0\.fault\.kind: /,
      );
      assert.throws(
        () => parseScenarioFile(file({ kind: 'close', after: 1 }), 'f.json'),
        /f\.json: scenarios\.0\.steps\.0\.fault: /,
      );
    });
  });

  describe('stall without ms: until the client goes away', () => {
    it('WebSocket: stops after N events; other connections are served meanwhile; the response is aborted on close', async () => {
      await order({ fault: { kind: 'stall', after_events: 2 } });
      const stalled = await openWs();
      stalled.send({ type: 'response.create', model: 'm', store: false, input: 'plain' });
      await stalled.until((frames) => frames.length === 2);
      await servesOthers();
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(stalled.frames.length, 2, 'nothing more came');
      stalled.close();
      await stalled.closed();
      await eventually(() => harness.turns.some((turn) => turn.outcome === 'aborted'), {
        message: 'the turn to be recorded as aborted',
      });
    });

    it('HTTP+SSE: stops after N events; the client hanging up ends the response', async () => {
      await order({ fault: { kind: 'stall', after_events: 1 }, transport: 'http' });
      const abort = new AbortController();
      const reply = await fetch(`${harness.url}/responses`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', store: false, stream: true, input: 'plain' }),
        signal: abort.signal,
      });
      assert.equal(reply.status, 200);
      const reader = reply.body?.getReader();
      const first = (await reader?.read()) as { value?: Uint8Array } | undefined;
      assert.equal(sseBlocks(new TextDecoder().decode(first?.value))[0]?.event, 'response.created');
      await servesOthers();
      abort.abort();
      await eventually(() => harness.turns.some((turn) => turn.outcome === 'aborted'), {
        message: 'the turn to be recorded as aborted',
      });
    });
  });

  describe('the admin endpoint', () => {
    it('count: the order applies to exactly the next N responses', async () => {
      await order({ fault: { kind: 'error', status: 503, code: 'busy' }, count: 2 });
      const status = async () =>
        (await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH)).status;
      assert.equal(await status(), 503);
      assert.deepEqual(await pending(), [
        { fault: { kind: 'error', after_events: 0, status: 503, code: 'busy' }, left: 1 },
      ]);
      assert.equal(await status(), 503);
      assert.equal(await status(), 200);
    });

    it('transport: an order for one transport is skipped by the other; orders are taken in arrival order', async () => {
      await order({ fault: { kind: 'error', status: 503, code: 'for_ws' }, transport: 'ws' });
      await order({ fault: { kind: 'error', status: 502, code: 'for_http' }, transport: 'http' });
      await order({ fault: { kind: 'error', status: 504, code: 'for_any' } });
      const http = async () =>
        (
          JSON.parse(
            (await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH)).text,
          ) as {
            error?: { code: string };
          }
        ).error?.code;
      assert.equal(await http(), 'for_http', 'the ws order is skipped, not used up');
      assert.equal(await http(), 'for_any');
      assert.equal(await http(), undefined, 'no order left for http');
      const client = await openWs();
      const frames = await client.turn({ model: 'm', store: false, input: 'plain' });
      assert.equal((frames[0]?.error as { code: string }).code, 'for_ws');
      assert.deepEqual(await pending(), []);
    });

    it('GET lists the pending orders; DELETE clears them', async () => {
      await order({ fault: { kind: 'slow', factor: 2 }, count: 3, transport: 'ws' });
      assert.deepEqual(await pending(), [{ fault: { kind: 'slow', factor: 2 }, left: 3, transport: 'ws' }]);
      const cleared = await admin('faults', { method: 'DELETE' });
      assert.equal(cleared.status, 200);
      assert.deepEqual(await cleared.json(), { pending: [] });
      assert.deepEqual(await pending(), []);
    });

    it('refuses an invalid order with the API error shape, naming the field', async () => {
      const refused = async (body: string) => {
        const reply = await admin('faults', { method: 'POST', body });
        return {
          status: reply.status,
          body: (await reply.json()) as { error: { code: string; param: string | null } },
        };
      };
      const kind = await refused(JSON.stringify({ fault: { kind: 'explode' } }));
      assert.equal(kind.status, 400);
      assert.deepEqual([kind.body.error.code, kind.body.error.param], ['invalid_value', 'fault.kind']);
      const count = await refused(JSON.stringify({ fault: { kind: 'close' }, count: 0 }));
      assert.deepEqual([count.status, count.body.error.param], [400, 'count']);
      const transport = await refused(JSON.stringify({ fault: { kind: 'close' }, transport: 'carrier-pigeon' }));
      assert.deepEqual([transport.status, transport.body.error.param], [400, 'transport']);
      const json = await refused('{nope');
      assert.deepEqual([json.status, json.body.error.code], [400, 'invalid_json']);
      assert.deepEqual(await pending(), []);
    });

    it('an unknown admin route is a 404; GET /admin/stats reports the counts', async () => {
      const unknown = await admin('nope');
      assert.equal(unknown.status, 404);
      assert.deepEqual(await unknown.json(), {
        error: {
          type: 'invalid_request_error',
          code: 'not_found',
          message: 'No admin route GET /admin/nope.',
          param: null,
        },
      });
      const client = await openWs();
      await client.turn({ model: 'm', store: false, input: 'plain' });
      const stats = (await (await admin('stats')).json()) as ServerStats;
      assert.deepEqual(Object.keys(stats).sort(), [
        'cachedResponses',
        'connections',
        'promptCacheEntries',
        'stateBytes',
        'storedResponses',
        'turns',
        'work',
      ]);
      assert.deepEqual([stats.connections, stats.cachedResponses, stats.turns], [1, 1, 1]);
      // The server's own work so far, summed over its turns (the benchmark reads it around each task).
      assert.deepEqual(Object.keys(stats.work).sort(), [
        'cachedTokens',
        'inputTokens',
        'loadMs',
        'outputTokens',
        'parseMs',
        'prefillMs',
        'workMs',
      ]);
      assert.ok(stats.work.inputTokens > 0 && stats.work.workMs > 0 && stats.work.outputTokens > 0);
    });

    it('POST /admin/drop-connections cuts every socket at once; new ones are served', async () => {
      const a = await openWs();
      const b = await openWs();
      const reply = await admin('drop-connections', { method: 'POST' });
      assert.deepEqual(await reply.json(), { dropped: 2 });
      assert.deepEqual([await a.closed(), await b.closed()], [1006, 1006]);
      await servesOthers();
    });

    it('needs the bearer token: none or a wrong one is 401 invalid_api_key, and no order is queued', async () => {
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }];
      for (const headers of attempts) {
        const reply = await fetch(adminUrl(harness.url, 'faults'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ fault: { kind: 'close' } }),
        });
        assert.equal(reply.status, 401);
        assert.equal(((await reply.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
      }
      assert.deepEqual(await pending(), []);
    });
  });
});
