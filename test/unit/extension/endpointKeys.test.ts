import * as assert from 'node:assert/strict';
import { EndpointKeys, LEGACY_SLOT, type SecretSlots } from '../../../src/extension/endpoint/endpointKeys';

// Keys per endpoint origin: a request carries only the key given for its own origin (or OPENAI_API_KEY, for
// api.openai.com alone), and the key of the old single slot stays with the endpoint the user chose.

function slots(initial: Record<string, string> = {}): SecretSlots & { all: Map<string, string> } {
  const all = new Map(Object.entries(initial));
  return {
    all,
    get: (key) => Promise.resolve(all.get(key)),
    store: (key, value) => Promise.resolve(void all.set(key, value)),
    delete: (key) => Promise.resolve(void all.delete(key)),
  };
}

describe('endpoint keys', () => {
  it('sends a key only to the origin it was given for, whatever the spelling of the endpoint', async () => {
    const keys = new EndpointKeys(slots(), { legacyEndpoint: () => undefined, env: {} });
    await keys.set('http://127.0.0.1:8080', { header: 'authorization', value: 'sk-local' });
    assert.deepEqual(await keys.credentials('ws://127.0.0.1:8080/v1/responses'), { apiKey: 'sk-local', headers: {} });
    assert.deepEqual(await keys.credentials('http://127.0.0.1:8080/v1/'), { apiKey: 'sk-local', headers: {} });
    for (const elsewhere of ['http://127.0.0.1:8081/v1', 'https://127.0.0.1:8080/v1', 'http://localhost:8080/v1'])
      assert.deepEqual(await keys.credentials(elsewhere), { headers: {} }, elsewhere);
    assert.deepEqual(await keys.credentials('embedded'), { headers: {} });
  });

  it("carries a gateway's key in its own header, and none in settings", async () => {
    const keys = new EndpointKeys(slots(), { legacyEndpoint: () => undefined, env: {} });
    await keys.set('https://my.openai.azure.com', { header: 'API-Key', value: 'azure-secret' });
    assert.deepEqual(await keys.credentials('https://MY.openai.azure.com/openai/v1'), {
      headers: { 'api-key': 'azure-secret' },
    });
  });

  it('takes OPENAI_API_KEY for api.openai.com only, and a stored key first', async () => {
    const env = { OPENAI_API_KEY: 'sk-env' };
    const keys = new EndpointKeys(slots(), { legacyEndpoint: () => undefined, env });
    assert.deepEqual(await keys.credentials('wss://api.openai.com/v1/responses'), { apiKey: 'sk-env', headers: {} });
    assert.deepEqual(await keys.credentials('https://gateway.example/v1'), { headers: {} });
    assert.ok(!(await keys.has('http://api.openai.com/v1')), 'plain http is another origin');
    await keys.set('https://api.openai.com', { header: 'authorization', value: 'sk-stored' });
    assert.deepEqual(await keys.credentials('https://api.openai.com/v1'), { apiKey: 'sk-stored', headers: {} });
  });

  it('removes a key', async () => {
    const store = slots();
    const keys = new EndpointKeys(store, { legacyEndpoint: () => undefined, env: {} });
    await keys.set('https://gateway.example', { header: 'authorization', value: 'k' });
    await keys.set('https://gateway.example', undefined);
    assert.equal(await keys.get('https://gateway.example'), undefined);
    assert.equal(store.all.size, 0);
  });

  it('moves the old single key to the endpoint of the user’s own settings, once, and to no other', async () => {
    const store = slots({ [LEGACY_SLOT]: 'sk-old' });
    const logged: string[] = [];
    const keys = new EndpointKeys(store, {
      legacyEndpoint: () => 'http://127.0.0.1:9000/v1',
      env: {},
      log: (line) => logged.push(line),
    });
    assert.deepEqual(await keys.credentials('http://127.0.0.1:9000/v1'), { apiKey: 'sk-old', headers: {} });
    assert.deepEqual(await keys.credentials('https://api.openai.com/v1'), { headers: {} });
    assert.deepEqual(await keys.credentials('http://evil.example/v1'), { headers: {} });
    assert.equal(store.all.has(LEGACY_SLOT), false, 'the old slot is emptied');
    assert.equal(logged.length, 1);
  });

  it('moves it to api.openai.com when the user’s settings name the embedded backend, keeping a key there', async () => {
    const moved = new EndpointKeys(slots({ [LEGACY_SLOT]: 'sk-old' }), { legacyEndpoint: () => 'embedded', env: {} });
    assert.deepEqual(await moved.credentials('https://api.openai.com/v1'), { apiKey: 'sk-old', headers: {} });
    const kept = new EndpointKeys(
      slots({
        [LEGACY_SLOT]: 'sk-old',
        'loopwire.apiKey@https://api.openai.com': '{"header":"authorization","value":"sk-new"}',
      }),
      { legacyEndpoint: () => undefined, env: {} },
    );
    assert.deepEqual(await kept.credentials('https://api.openai.com/v1'), { apiKey: 'sk-new', headers: {} });
  });

  it('passes over a slot that does not hold a key', async () => {
    const keys = new EndpointKeys(slots({ 'loopwire.apiKey@https://gateway.example': 'not json' }), {
      legacyEndpoint: () => undefined,
      env: {},
    });
    assert.deepEqual(await keys.credentials('https://gateway.example/v1'), { headers: {} });
  });
});
