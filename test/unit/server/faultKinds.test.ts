import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import { AUTH, CASES, type CaseName, TOKEN } from './support/faultScenarios';
import type { WsClient } from './support/harness';
import { type SseBlock, type WireEvent, finalResponse, isEnd, post, postUntilCut, sseBlocks } from './support/harness';
import { eventually } from '../support/eventually';
import { useFaultServer } from './support/faultAdmin';

// Fault injection for the reliability suites: every kind, over WebSocket and over HTTP+SSE, armed by a
// scenario step's `fault` and through the admin endpoint. How they are armed and the admin endpoint's own rules: faultOrders.test.ts
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
  const { admin, harness, openWs, order, pending, servesOthers } = useFaultServer();

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

  describe('stall until_file: until the file exists', () => {
    it('WebSocket: nothing more comes before the file is there, the rest at once after it', async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-stall-file-'));
      try {
        const file = path.join(folder, 'go');
        await order({ fault: { kind: 'stall', after_events: 2, ms: 600_000, until_file: file } });
        const stalled = await openWs();
        stalled.send({ type: 'response.create', model: 'm', store: false, input: 'plain' });
        await stalled.until((frames) => frames.length === 2);
        await servesOthers();
        assert.equal(stalled.frames.length, 2, 'held back while the file is not there');
        fs.writeFileSync(file, '');
        await stalled.until((frames) => frames.some(isEnd));
        assert.equal(stalled.frames.at(-1)?.type, 'response.completed');
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it('refuses a relative until_file, naming it', async () => {
      const reply = await admin('faults', {
        method: 'POST',
        body: JSON.stringify({ fault: { kind: 'stall', until_file: 'go' } }),
      });
      const body = (await reply.json()) as { error: { param: string; message: string } };
      assert.equal(reply.status, 400);
      assert.equal(body.error.param, 'fault.until_file');
      assert.match(body.error.message, /absolute path/);
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
});
