import * as assert from 'node:assert/strict';
import { post, refusedUpgrade, useServer } from './support/harness';
import { fromOrigin } from './support/originRefusal';

// Safe without a token too: loopback only, and no browser Origin on either transport.

describe('safety: without a token', () => {
  const harness = useServer();

  it('binds loopback by default', () => {
    assert.match(harness.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('any bearer (or none) is served, but a browser Origin is still refused on both transports', async () => {
    assert.equal((await post(`${harness.url}/responses`, { model: 'm', input: 'echo hi' })).status, 200);
    assert.equal(
      (await post(`${harness.url}/responses`, { model: 'm', input: 'echo hi' }, { authorization: 'Bearer anything' }))
        .status,
      200,
    );
    const reply = await post(`${harness.url}/responses`, { model: 'm', input: 'echo hi' }, { origin: 'null' });
    assert.equal(reply.status, 403);
    assert.deepEqual(JSON.parse(reply.text), fromOrigin('null'));
    assert.deepEqual(await refusedUpgrade(harness.url, { origin: 'https://example.com' }), {
      status: 403,
      body: fromOrigin('https://example.com'),
    });
  });
});
