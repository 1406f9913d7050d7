import * as assert from 'node:assert/strict';
import { endpointChoices } from '../../../src/extension/endpoint/endpointChoice';

// A workspace's endpoint is a proposal waiting for the user's yes; the user's own settings decide until then.

const DEFAULTS = { endpoint: { defaultValue: 'embedded' }, headers: { defaultValue: {} } };

describe("a workspace's endpoint", () => {
  it('proposes nothing where only the user set the endpoint', () => {
    const choices = endpointChoices(
      { ...DEFAULTS.endpoint, globalValue: 'https://api.openai.com/v1' },
      DEFAULTS.headers,
      true,
    );
    assert.deepEqual(choices, { user: { endpoint: 'https://api.openai.com/v1', headers: {} } });
  });

  it('is a proposal, with the user’s own endpoint beside it, when the workspace or a folder sets one', () => {
    for (const scope of ['workspaceValue', 'workspaceFolderValue']) {
      const choices = endpointChoices(
        { ...DEFAULTS.endpoint, globalValue: 'https://api.openai.com/v1', [scope]: 'http://some-host:8000/v1' },
        DEFAULTS.headers,
        true,
      );
      assert.deepEqual(choices.user, { endpoint: 'https://api.openai.com/v1', headers: {} });
      assert.equal(choices.proposal?.endpoint, 'http://some-host:8000/v1');
    }
  });

  it('counts workspace headers as part of the proposal, and asks again for other headers', () => {
    const endpoint = { ...DEFAULTS.endpoint, globalValue: 'https://gw.example/v1' };
    const one = endpointChoices(endpoint, { ...DEFAULTS.headers, workspaceValue: { 'X-Route': 'a' } }, true);
    const two = endpointChoices(endpoint, { ...DEFAULTS.headers, workspaceValue: { 'X-Route': 'b' } }, true);
    assert.deepEqual(one.proposal?.headers, { 'x-route': 'a' });
    assert.ok(one.proposal && two.proposal && one.proposal.consentKey !== two.proposal.consentKey);
  });

  it('asks once per origin: another path on the same origin is the same question', () => {
    const at = (url: string) =>
      endpointChoices({ ...DEFAULTS.endpoint, workspaceValue: url }, DEFAULTS.headers, true).proposal?.consentKey;
    assert.equal(at('http://Some-Host:8000/v1'), at('ws://some-host:8000/v1/responses'));
    assert.notEqual(at('http://some-host:8000/v1'), at('http://some-host:8001/v1'));
  });

  it('needs no yes to pin the embedded backend, or to say what the user said already', () => {
    const embedded = endpointChoices(
      { ...DEFAULTS.endpoint, globalValue: 'https://api.openai.com/v1', workspaceValue: 'embedded' },
      DEFAULTS.headers,
      true,
    );
    assert.deepEqual(embedded, { user: { endpoint: 'embedded', headers: {} } });
    const same = endpointChoices(
      { globalValue: 'http://h:1/v1', workspaceValue: 'http://h:1/v1' },
      DEFAULTS.headers,
      true,
    );
    assert.equal(same.proposal, undefined);
  });

  it('is not read at all in an untrusted workspace', () => {
    const choices = endpointChoices(
      { ...DEFAULTS.endpoint, workspaceValue: 'http://some-host/v1' },
      DEFAULTS.headers,
      false,
    );
    assert.deepEqual(choices, { user: { endpoint: 'embedded', headers: {} } });
  });
});
