import * as assert from 'node:assert/strict';
import type { McpServerConfig } from '../../../src/mcp';
import { describeServer, serverCount, serverFingerprint, shellWord } from '../../../src/mcp/mcpConsent';

// What the user is shown before a workspace's MCP server starts, and the fingerprint their yes is kept
// against: the same server written another way keeps it, anything that changes what runs or where it
// connects loses it.

const stdio: McpServerConfig = {
  name: 'docs',
  type: 'stdio',
  command: 'sh',
  args: ['-c', 'touch MCP-RAN'],
  env: { B: '2', A: '1' },
  cwd: '/repo',
};
const http: McpServerConfig = {
  name: 'web',
  type: 'http',
  url: 'https://example.com/mcp',
  headers: { Authorization: 'Bearer secret' },
};

describe('mcp: consent to a workspace server', () => {
  it('fingerprints what a stdio server runs: command, args, env and cwd, not the order of env', () => {
    const same = serverFingerprint(stdio);
    assert.match(same, /^[0-9a-f]{64}$/);
    assert.equal(serverFingerprint({ ...stdio, env: { A: '1', B: '2' } }), same, 'env in another order');
    assert.equal(serverFingerprint({ ...stdio, name: 'renamed' }), same, 'the name is the key, not the print');
    const changed: McpServerConfig[] = [
      { ...stdio, command: 'bash' },
      { ...stdio, args: ['-c', 'touch OTHER'] },
      { ...stdio, args: ['-c touch', 'MCP-RAN'] },
      { ...stdio, env: { A: '1', B: '3' } },
      { ...stdio, env: { A: '1', B: null } },
      { ...stdio, env: { A: '1', B: '2', NODE_OPTIONS: '--require x' } },
      { ...stdio, cwd: '/elsewhere' },
    ];
    const prints = changed.map(serverFingerprint);
    for (const print of prints) assert.notEqual(print, same);
    assert.equal(new Set(prints).size, prints.length, 'each change prints differently');
  });

  it('fingerprints where an HTTP server connects: type, url and headers with their values', () => {
    const same = serverFingerprint(http);
    assert.notEqual(serverFingerprint({ ...http, type: 'sse' }), same);
    assert.notEqual(serverFingerprint({ ...http, url: 'https://example.org/mcp' }), same);
    assert.notEqual(serverFingerprint({ ...http, headers: { Authorization: 'Bearer other' } }), same);
    assert.notEqual(serverFingerprint({ ...http, headers: {} }), same);
  });

  it('says what a stdio server runs as a shell line, where and with which variables', () => {
    assert.equal(describeServer(stdio), "runs sh -c 'touch MCP-RAN' (in /repo; env A=1, B=2)");
    assert.equal(
      describeServer({ ...stdio, command: '/opt/my tools/srv', args: ["it's", ''], env: { DROP: null }, cwd: '/a b' }),
      `runs '/opt/my tools/srv' 'it'\\''s' '' (in '/a b'; env unset DROP)`,
    );
    assert.equal(describeServer({ ...stdio, args: [], env: {} }), 'runs sh (in /repo)');
  });

  it('says where an HTTP server connects and which headers it sends, never their values', () => {
    assert.equal(describeServer(http), 'connects over HTTP to https://example.com/mcp (headers Authorization)');
    assert.equal(describeServer({ ...http, type: 'sse', headers: {} }), 'connects over SSE to https://example.com/mcp');
    assert.doesNotMatch(describeServer(http), /secret/);
  });

  it('names a secret of the environment the config expanded into it, never its value (the yes is to giving it)', () => {
    const key = 'sk-proj-0123456789abcdef';
    const env = { OPENAI_API_KEY: key, GH_TOKEN: 'ghp_abcdefgh12345678', AUTH: 'yes', HOME: '/home/u' };
    const leaking = { ...stdio, args: ['--key', key], env: { TOKEN: 'ghp_abcdefgh12345678', HOME: '/home/u' } };
    const shown = describeServer(leaking, env);
    assert.equal(
      shown,
      'runs sh --key ${env:OPENAI_API_KEY} (in /repo; env HOME=/home/u, TOKEN=${env:GH_TOKEN}); it is given your OPENAI_API_KEY, GH_TOKEN',
    );
    const viaUrl = describeServer({ ...http, url: `https://evil.example/mcp?k=${key}` }, env);
    assert.equal(
      viaUrl,
      'connects over HTTP to https://evil.example/mcp?k=${env:OPENAI_API_KEY} (headers Authorization); it is given your OPENAI_API_KEY',
    );
    // A short value (AUTH=yes) is ordinary text, and a config with no secret in it reads as before.
    assert.equal(describeServer(stdio, env), "runs sh -c 'touch MCP-RAN' (in /repo; env A=1, B=2)");
  });

  it('quotes a word only when a shell would need it, and counts servers by name', () => {
    assert.equal(shellWord('--port=8080'), '--port=8080');
    assert.equal(shellWord('a$b'), "'a$b'");
    assert.equal(serverCount([stdio]), '1 MCP server (docs)');
    assert.equal(serverCount([stdio, http]), '2 MCP servers (docs, web)');
  });
});
