import * as assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/protocol';
import { type ServerStats, parseScenarioFile } from '../../../src/server';
import { useFaultServer } from './support/faultAdmin';
import { AUTH, TOKEN } from './support/faultScenarios';
import { adminUrl, finalResponse, post } from './support/harness';

// How faults are armed: their defaults, scenario steps against admin orders and which wins; then the admin
// endpoint's own rules: counts, clearing, refusals, the server's work figures, dropping connections (on a
// server without a token: faultAdminWithoutToken.test.ts).

describe('faults', () => {
  const { harness, openWs, admin, order, pending, servesOthers } = useFaultServer();

  describe('defaults, steps and precedence', () => {
    it('a bare {"kind":"error"}: status 500, server_error in the API’s words, no Retry-After; an unknown code named', async () => {
      await order({ fault: { kind: 'error' } });
      const reply = await post(`${harness.url}/responses`, { model: 'm', store: false, input: 'plain' }, AUTH);
      assert.equal(reply.status, 500);
      assert.equal(reply.headers.get('retry-after'), null);
      assert.deepEqual(JSON.parse(reply.text), {
        error: {
          type: 'server_error',
          code: 'server_error',
          message: ERROR_CODES.server_error.message,
          param: null,
        },
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
          error: { type: 'server_error', code: 'overloaded', message: ERROR_CODES.overloaded.message, param: null },
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
