import * as assert from 'node:assert/strict';
import { startServer } from '../../../src/server';
import { AUTH, SCENARIOS } from './support/faultScenarios';
import { adminUrl, post } from './support/harness';

// The admin endpoint (fault orders, stats, dropped connections) is off on a server started without --token.

describe('faults: the admin endpoint on a server without a token', () => {
  it('is refused with 403 admin_disabled on every route, even with a bearer', async () => {
    const server = await startServer({ scenarios: [SCENARIOS] });
    try {
      const routes: [string, string][] = [
        ['POST', 'faults'],
        ['GET', 'faults'],
        ['DELETE', 'faults'],
        ['GET', 'stats'],
        ['POST', 'drop-connections'],
      ];
      for (const [method, route] of routes) {
        const reply = await fetch(adminUrl(server.url, route), {
          method,
          headers: { ...AUTH, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: JSON.stringify({ fault: { kind: 'close' } }) } : {}),
        });
        assert.equal(reply.status, 403, `${method} ${route}`);
        assert.deepEqual(await reply.json(), {
          error: {
            type: 'invalid_request_error',
            code: 'admin_disabled',
            message: 'The admin endpoint is available only when loopwire-server is started with --token.',
            param: null,
          },
        });
      }
      const reply = await post(`${server.url}/responses`, { model: 'm', store: false, input: 'plain' });
      assert.equal(reply.status, 200, 'no order was queued');
    } finally {
      await server.close();
    }
  });
});
