import * as assert from 'node:assert/strict';
import { endpointOrigin } from '../../../src/agent/transport/endpointOrigin';
import { EndpointKeys, LEGACY_SLOT, type SecretSlots } from '../../../src/extension/endpoint/endpointKeys';
import {
  AZURE_KEY_HEADER,
  BEARER_HEADER,
  headerForNewKey,
  headerLabel,
  isHeaderName,
  keyHeaderFor,
} from '../../../src/extension/endpoint/keyHeader';

// Set API Key… asks for the key only: the endpoint's origin settles the header that carries it (Bearer for
// OpenAI and the servers that copy its API, api-key for Azure OpenAI and Azure AI Foundry), a header the user
// named for a gateway stays theirs, and the old single key moves into the header its origin takes.

/** The header for an endpoint URL as the user types it into Select Endpoint…. */
const headerOf = (endpoint: string) => keyHeaderFor(endpointOrigin(endpoint) ?? '');

describe('the header that carries an endpoint’s key', () => {
  it('is Bearer for OpenAI and the servers and gateways that copy its API', () => {
    for (const endpoint of [
      'https://api.openai.com/v1',
      'wss://api.openai.com/v1/responses',
      'http://127.0.0.1:8080/v1',
      'http://localhost:11434/v1',
      'https://openrouter.ai/api/v1',
      'https://gateway.example/openai/v1',
      // GitHub Models and Azure API Management are Azure's, but take other headers than api-key.
      'https://models.inference.ai.azure.com',
      'https://my-apim.azure-api.net/openai/v1',
      // Not Azure: the suffix must be a whole label.
      'https://notopenai.azure.com.example/v1',
      'https://evilopenai.azure.com/v1',
    ])
      assert.equal(headerOf(endpoint), BEARER_HEADER, endpoint);
  });

  it('is api-key for Azure OpenAI and Azure AI Foundry hosts, whatever the spelling', () => {
    for (const endpoint of [
      'https://my-resource.openai.azure.com/openai/v1',
      'https://MY-RESOURCE.OpenAI.Azure.com:443/openai/v1/',
      'wss://my-resource.openai.azure.com/openai/v1/responses',
      'https://my-resource.openai.azure.us/openai/v1',
      'https://my-resource.openai.azure.cn/openai/v1',
      'https://my-project.services.ai.azure.com/openai/v1',
      'https://my-resource.cognitiveservices.azure.com/openai/v1',
    ])
      assert.equal(headerOf(endpoint), AZURE_KEY_HEADER, endpoint);
  });

  it('is Bearer for what is not an origin', () => {
    assert.equal(keyHeaderFor(''), BEARER_HEADER);
    assert.equal(keyHeaderFor('embedded'), BEARER_HEADER);
  });

  it('for a key typed again: a header the user named stays; Bearer or api-key stored give way to the origin', () => {
    const azure = 'https://my-resource.openai.azure.com';
    const openai = 'https://api.openai.com';
    assert.equal(headerForNewKey(azure, undefined), AZURE_KEY_HEADER);
    assert.equal(headerForNewKey(openai, undefined), BEARER_HEADER);
    // Before the origin decided, Enter chose Bearer: setting the key again mends an Azure key sent that way.
    assert.equal(headerForNewKey(azure, 'authorization'), AZURE_KEY_HEADER);
    assert.equal(headerForNewKey(openai, 'api-key'), BEARER_HEADER);
    assert.equal(headerForNewKey('https://gateway.example', 'X-Gateway-Key'), 'x-gateway-key');
  });

  it('is named as the input box says it, and a name is checked as an HTTP token', () => {
    assert.equal(headerLabel(BEARER_HEADER), 'Authorization: Bearer');
    assert.equal(headerLabel(AZURE_KEY_HEADER), 'api-key');
    for (const good of ['api-key', 'x-api-key', 'Ocp-Apim-Subscription-Key']) assert.ok(isHeaderName(good), good);
    for (const bad of ['', 'api key', 'api-key:', 'ключ']) assert.ok(!isHeaderName(bad), bad);
  });
});

describe('the old single key, moved to its origin', () => {
  const slots = (initial: Record<string, string>): SecretSlots & { all: Map<string, string> } => {
    const all = new Map(Object.entries(initial));
    return {
      all,
      get: (key) => Promise.resolve(all.get(key)),
      store: (key, value) => Promise.resolve(void all.set(key, value)),
      delete: (key) => Promise.resolve(void all.delete(key)),
    };
  };

  it('goes in api-key for an Azure endpoint, as Bearer for OpenAI', async () => {
    const azure = 'https://my-resource.openai.azure.com/openai/v1';
    const moved = new EndpointKeys(slots({ [LEGACY_SLOT]: 'azure-old' }), { legacyEndpoint: () => azure, env: {} });
    assert.deepEqual(await moved.credentials(azure), { headers: { 'api-key': 'azure-old' } });
    const openai = new EndpointKeys(slots({ [LEGACY_SLOT]: 'sk-old' }), { legacyEndpoint: () => undefined, env: {} });
    assert.deepEqual(await openai.credentials('https://api.openai.com/v1'), { apiKey: 'sk-old', headers: {} });
  });
});
