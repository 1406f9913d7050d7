import * as assert from 'node:assert/strict';
import { OPENAI_ORIGIN, endpointOrigin, originLabel, sameOrigin } from '../../../src/agent/transport/endpointOrigin';

// A key is sent only to the origin it was given for: these are the spellings that must meet, and the
// neighbours that must not.

describe('endpoint origins', () => {
  it('drops the default port of each scheme, and keeps any other', () => {
    assert.equal(endpointOrigin('https://api.openai.com:443/v1'), OPENAI_ORIGIN);
    assert.equal(endpointOrigin('http://127.0.0.1:80/v1'), 'http://127.0.0.1');
    assert.equal(endpointOrigin('http://127.0.0.1:8080/v1'), 'http://127.0.0.1:8080');
    assert.equal(endpointOrigin('https://gateway.example:8443'), 'https://gateway.example:8443');
    assert.ok(!sameOrigin('http://127.0.0.1:8080/v1', 'http://127.0.0.1:8081/v1'));
    assert.ok(!sameOrigin('https://host.example:443', 'https://host.example:8443'));
  });

  it('reads a trailing slash, a path and a /responses tail as the same origin', () => {
    assert.ok(sameOrigin('https://api.openai.com/v1/', 'https://api.openai.com/v1'));
    assert.ok(sameOrigin('https://api.openai.com/v1/responses', 'https://api.openai.com'));
    assert.ok(sameOrigin('https://api.openai.com/v1?x=1', 'https://api.openai.com/other'));
  });

  it('takes ws:// as http:// and wss:// as https://, never one for the other', () => {
    assert.equal(endpointOrigin('ws://127.0.0.1:9000/v1/responses'), 'http://127.0.0.1:9000');
    assert.equal(endpointOrigin('wss://api.openai.com/v1/responses'), OPENAI_ORIGIN);
    assert.ok(sameOrigin('ws://host.example/v1', 'http://host.example:80/v1'));
    assert.ok(sameOrigin('wss://host.example:443/v1', 'https://host.example/v1'));
    assert.ok(!sameOrigin('ws://host.example/v1', 'https://host.example/v1'));
    assert.ok(!sameOrigin('http://api.openai.com/v1', 'https://api.openai.com/v1'));
  });

  it('ignores case in the scheme and the host', () => {
    assert.equal(endpointOrigin('HTTPS://API.OpenAI.com/v1'), OPENAI_ORIGIN);
    assert.ok(sameOrigin('https://Gateway.Example/v1', 'https://gateway.example/v1'));
  });

  it('tells a look-alike host apart', () => {
    assert.ok(!sameOrigin('https://api.openai.com.evil.example/v1', 'https://api.openai.com/v1'));
    assert.ok(!sameOrigin('https://evil.example/api.openai.com', 'https://api.openai.com'));
    assert.equal(endpointOrigin('https://user:pass@api.openai.com/v1'), OPENAI_ORIGIN);
  });

  it('has no origin for what is not an endpoint URL', () => {
    for (const endpoint of ['embedded', '', 'api.openai.com/v1', 'file:///tmp/x', 'ftp://host/v1', 'https://'])
      assert.equal(endpointOrigin(endpoint), undefined, endpoint);
    assert.ok(!sameOrigin('embedded', 'embedded'));
  });

  it('labels an origin without https://', () => {
    assert.equal(originLabel(OPENAI_ORIGIN), 'api.openai.com');
    assert.equal(originLabel('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  });
});
