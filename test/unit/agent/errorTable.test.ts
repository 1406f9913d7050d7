import * as assert from 'node:assert/strict';
import {
  ERROR_CODES,
  type ErrorMeaning,
  type KnownErrorCode,
  errorMeaning,
  meaningOfStatus,
} from '../../../src/protocol';
import type { ScenarioFile } from '../../../src/server';
import { eventsOf, queueFault, requestsOf, useAgentBench } from './agentHarness';

// Every code of the error table (src/protocol/errorCodes.ts), answered by the bundled backend through its
// fault settings, over both transports, as the request's refusal and in the middle of a stream: the agent does
// what the table says — stops at once after one request with a sentence to act on, retries after the
// server's own delay, takes a new socket, or resends the full context — and the task ends as it should.

const ANSWER: ScenarioFile = {
  scenarios: [{ name: 'answer', match: 'say hello', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] }],
};

/** Retrying codes get a short delay in the API's own words, so that the table runs quickly. */
const SHORT_DELAY = 'Please try again in 150ms.';

describe('agent: the error table, code by code', function () {
  this.timeout(20_000);
  const bench = useAgentBench(ANSWER, {}, { logBodies: true });

  for (const transport of ['ws', 'http'] as const) {
    for (const afterEvents of [0, 2]) {
      const where = afterEvents === 0 ? 'as the refusal' : 'mid-stream';
      for (const [code, info] of Object.entries(ERROR_CODES) as [
        KnownErrorCode,
        (typeof ERROR_CODES)[KnownErrorCode],
      ][]) {
        const meaning: ErrorMeaning = info.meaning;
        // A socket at its age limit only happens over WebSocket mode, and is refused before any event there.
        if (meaning === 'new_socket' && (transport === 'http' || afterEvents > 0)) continue;
        it(`${code} ${where} over ${transport}: ${meaning}`, async () => {
          const { agent } = await bench.agent({ transport });
          await agent.start();
          await queueFault(bench, {
            kind: 'error',
            code,
            after_events: afterEvents,
            ...(meaning === 'retry' ? { message: SHORT_DELAY } : {}),
          });
          const done = await agent.run('Please say hello.');
          const retries = eventsOf(bench.events, 'retry');
          const generating = requestsOf(await bench.wire()).filter(
            (line) => (line.body as { generate?: unknown } | undefined)?.generate !== false,
          );
          switch (meaning) {
            case 'stop':
            case 'auth':
            case 'compact': {
              // The bench's agent has no context plan: a context past the window cannot be compacted, so it stops.
              assert.equal(done.status, 'failed', done.reason);
              assert.ok(done.reason.includes(code) || meaning === 'auth', done.reason);
              if ('advice' in info) assert.ok(done.reason.includes(info.advice), done.reason);
              // The code a front end picks its remedy from; the reason states the fault, no front end's advice.
              assert.equal(done.code, meaning === 'auth' ? 'auth' : code);
              if (meaning === 'auth') assert.match(done.reason, /^The API refused the request: invalid_api_key\b/);
              assert.doesNotMatch(done.reason, /OPENAI_API_KEY|VS Code|Set API Key/);
              assert.equal(retries.length, 0, 'never resent');
              assert.equal(generating.length, 1, 'one request');
              return;
            }
            case 'retry': {
              assert.equal(done.status, 'completed', done.reason);
              assert.equal(retries.length, 1);
              const delay = retries[0]?.delayMs ?? 0;
              assert.ok(delay >= 150 && delay <= 400, `waited ${delay} ms, as the message asked`);
              return;
            }
            case 'new_socket': {
              assert.equal(done.status, 'completed', done.reason);
              assert.equal(retries.length, 1);
              assert.equal(retries[0]?.delayMs, 0, 'at once');
              const sockets = new Set(generating.map((line) => line.conn));
              assert.equal(sockets.size, 2, 'the resend went over a new socket');
              // The new socket's warm-up covers the instructions; the resend carries the whole conversation.
              const resent = generating[1]?.body as { input?: unknown } | undefined;
              assert.match(JSON.stringify(resent?.input), /Please say hello/, 'with the full context');
              return;
            }
            case 'full_context': {
              assert.equal(done.status, 'completed', done.reason);
              assert.equal(retries.length, 1);
              assert.equal(generating[1]?.previous_response_id, null, 'the resend is unchained');
              return;
            }
          }
        });
      }
    }
  }
});

describe('agent: a warm-up refused as every request would be', function () {
  this.timeout(20_000);
  const bench = useAgentBench(ANSWER, {}, { logBodies: true });

  // The account (no quota, a plan at its limit) or the model (not one the key can use) refuses whatever is
  // sent: the warm-up's refusal stops the task there, one request in all, where another refusal of the
  // warm-up (a server that does not take them) is one notice and the task goes on.
  const stops = Object.entries(ERROR_CODES).filter(([, info]) => 'refusesEveryRequest' in info);
  it('is the table’s insufficient_quota, usage_limit_reached and model_not_found', () => {
    assert.deepEqual(stops.map(([code]) => code).sort(), [
      'insufficient_quota',
      'model_not_found',
      'usage_limit_reached',
    ]);
  });
  for (const [code, info] of stops) {
    it(`${code}: the task stops at once with the advice, after that one request`, async () => {
      const { agent } = await bench.agent({ transport: 'ws' });
      await queueFault(bench, { kind: 'error', code });
      const started = performance.now();
      await assert.rejects(agent.start(), (error: Error) => {
        assert.ok(error.message.includes(code), error.message);
        if ('advice' in info) assert.ok(error.message.includes(info.advice), error.message);
        return true;
      });
      assert.ok(performance.now() - started < 1_000, 'at once');
      assert.equal(requestsOf(await bench.wire()).length, 1, 'the warm-up alone was sent');
      assert.equal(eventsOf(bench.events, 'retry').length, 0);
    });
  }
  it('a refusal that depends on what was sent (invalid_prompt) only turns warm-ups off', async () => {
    const { agent } = await bench.agent({ transport: 'ws' });
    await queueFault(bench, { kind: 'error', code: 'invalid_prompt' });
    await agent.start();
    const done = await agent.run('Please say hello.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(eventsOf(bench.events, 'notice').filter((notice) => notice.code === 'warmup_refused').length, 1);
  });
});

describe('protocol: an error code the table does not list', () => {
  it('is judged by its HTTP status, or by its type where an event carries none', () => {
    assert.equal(errorMeaning({ code: 'brand_new_code', status: 400 }), 'stop');
    assert.equal(errorMeaning({ code: 'brand_new_code', status: 404 }), 'stop');
    assert.equal(errorMeaning({ code: 'brand_new_code', status: 401 }), 'auth');
    assert.equal(errorMeaning({ code: 'brand_new_code', status: 403 }), 'auth');
    for (const status of [408, 409, 429, 500, 502, 503, 504])
      assert.equal(meaningOfStatus(status), 'retry', `${status}`);
    assert.equal(errorMeaning({ code: null, status: undefined, type: 'invalid_request_error' }), 'stop');
    assert.equal(errorMeaning({ code: null, status: undefined, type: 'server_error' }), 'retry');
    assert.equal(errorMeaning({ code: 'insufficient_quota', status: 429 }), 'stop', 'the code wins over its 429');
  });
});
