import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type McpServers, startMcpServers } from '../../../src/mcp';
import { BUILTIN_TOOLS, ReadLedger, type ToolResult, parametersOf, runToolCall } from '../../../src/tools';
import type { Workspace } from '../../../src/workspace';
import {
  ECHO_SERVER,
  GARBAGE_SERVER,
  httpEchoServer,
  machineMcpSandbox,
  stdioServer,
  testServerEnv,
} from './mcpFixtures';

// Real MCP servers — the echo server written with the official SDK, over stdio and over Streamable HTTP,
// and one that answers garbage — started by the client manager, their tools run as the agent's. The stdio
// ones in the sandbox where this machine has one, as a session starts them (mcpSandbox.test.ts has its own).

/** MCP tools never touch the workspace: a stand-in that says so if one did. */
const context = { workspace: {} as Workspace, reads: new ReadLedger() };

describe('mcp: servers and their tools', function () {
  this.timeout(30_000);
  let servers: McpServers | undefined;
  let log: string[];
  let roots: string[];
  before(() => {
    roots = [fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-mcp-servers-'))];
  });
  after(() => fs.rmSync(roots[0] ?? '', { recursive: true, force: true }));
  afterEach(async () => {
    await servers?.close();
    servers = undefined;
  });
  const start = async (...configs: Parameters<typeof startMcpServers>[0]) => {
    log = [];
    servers = await startMcpServers(configs, {
      log: (line) => log.push(line),
      callTimeoutMs: 1_500,
      startTimeoutMs: 10_000,
      sandbox: machineMcpSandbox(roots),
      env: testServerEnv(),
    });
    return servers;
  };
  const call = (name: string, args: object = {}): Promise<ToolResult> => {
    const registry = BUILTIN_TOOLS.with(servers?.tools ?? []);
    return runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context, registry);
  };

  it('over stdio: each tool is mcp__SERVER__TOOL with its schema as given, its effect from readOnlyHint', async () => {
    const { tools, servers: states } = await start(stdioServer('echo', ECHO_SERVER));
    assert.deepEqual(states, [
      {
        name: 'echo',
        tools: ['say', 'shout', 'touch', 'env', 'picture', 'fail', 'slow', 'crash'].map((tool) => `mcp__echo__${tool}`),
      },
    ]);
    const say = tools.find((tool) => tool.name === 'mcp__echo__say');
    assert.ok(say);
    assert.equal(say.effect, 'read');
    assert.equal(say.description, 'Says the text back.');
    assert.deepEqual(parametersOf(say), {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to say.' } },
      required: ['text'],
    });
    assert.equal(tools.find((tool) => tool.name === 'mcp__echo__shout')?.effect, 'task');
    assert.equal(say.summarize?.('{"text":"hello"}'), 'echo · say: hello');
    assert.equal(tools.find((tool) => tool.name === 'mcp__echo__picture')?.summarize?.('{}'), 'echo · picture');
    assert.deepEqual(await call('mcp__echo__say', { text: 'hello' }), { ok: true, output: 'echo: hello' });
  });

  it('turns every kind of content into text, and a tool error into a failed call', async () => {
    await start(stdioServer('echo', ECHO_SERVER));
    assert.deepEqual(await call('mcp__echo__picture'), {
      ok: true,
      output: 'a red dot\n[image: image/png, 16 B; not shown]',
    });
    assert.deepEqual(await call('mcp__echo__fail'), { ok: false, output: 'the tool could not do it' });
    const notObject = await runToolCall(
      { kind: 'function', name: 'mcp__echo__say', arguments: '["hello"]' },
      context,
      BUILTIN_TOOLS.with(servers?.tools ?? []),
    );
    assert.equal(notObject.ok, false);
    assert.match(notObject.output, /JSON object/);
  });

  it('gives a server its env on top of Loopwire’s, never the API key', async () => {
    process.env.OPENAI_API_KEY = 'sk-must-not-leak';
    process.env.LOOPWIRE_TEST_UNSET = 'set';
    try {
      await start(stdioServer('echo', ECHO_SERVER, { MCP_GREETING: 'hi', LOOPWIRE_TEST_UNSET: null }));
      assert.equal((await call('mcp__echo__env', { name: 'MCP_GREETING' })).output, 'MCP_GREETING=hi');
      assert.equal((await call('mcp__echo__env', { name: 'OPENAI_API_KEY' })).output, 'OPENAI_API_KEY=(unset)');
      const unset = await call('mcp__echo__env', { name: 'LOOPWIRE_TEST_UNSET' });
      assert.equal(unset.output, 'LOOPWIRE_TEST_UNSET=(unset)');
      assert.equal((await call('mcp__echo__env', { name: 'PATH' })).output, `PATH=${process.env.PATH ?? ''}`);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.LOOPWIRE_TEST_UNSET;
    }
  });

  it('over Streamable HTTP on 127.0.0.1', async () => {
    const http = await httpEchoServer();
    try {
      const { servers: states } = await start({ name: 'web', type: 'http', url: http.url, headers: {} });
      assert.equal(states[0]?.error, undefined);
      assert.deepEqual(await call('mcp__web__say', { text: 'over http' }), { ok: true, output: 'echo: over http' });
      assert.deepEqual(await call('mcp__web__shout', { text: 'loud' }), { ok: true, output: 'LOUD' });
    } finally {
      http.stop();
    }
  });

  it('a server that does not start is left out with one log line; the others are offered', async () => {
    const { tools, servers: states } = await start(
      stdioServer('echo', ECHO_SERVER),
      { ...stdioServer('missing', '/no/such/server.mjs') },
      { name: 'nowhere', type: 'stdio', command: 'no-such-command-loopwire', args: [], env: {}, cwd: '/' },
      { name: 'closed', type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} },
    );
    assert.deepEqual(
      states.map((state) => [state.name, state.tools.length > 0, state.error !== undefined]),
      [
        ['echo', true, false],
        ['missing', false, true],
        ['nowhere', false, true],
        ['closed', false, true],
      ],
    );
    assert.ok(tools.every((tool) => tool.name.startsWith('mcp__echo__')));
    assert.match(
      states[1]?.error ?? '',
      /could not be started \(.*server\.mjs\): it stopped before it was ready; its last words on stderr: .*Cannot find module '\/no\/such\/server\.mjs'/s,
    );
    assert.match(states[2]?.error ?? '', /could not be started \(no-such-command-loopwire\): .*ENOENT/);
    // One line each (and, where this machine has no sandbox, the line that says so).
    assert.equal(log.filter((line) => !/run unconfined/.test(line)).length, 3, log.join('\n'));
  });

  it('a server that crashes during a call gives a clear output, and is started again on the next', async () => {
    await start(stdioServer('echo', ECHO_SERVER));
    const crashed = await call('mcp__echo__crash');
    assert.equal(crashed.ok, false);
    assert.match(
      crashed.output,
      /^The MCP server 'echo' stopped while running crash; its last words on stderr: [^]*crashing on purpose\. It may or may not have done what was asked/,
    );
    assert.equal(log.filter((line) => /stopped/.test(line)).length, 1, log.join('\n'));
    assert.deepEqual(await call('mcp__echo__say', { text: 'back' }), { ok: true, output: 'echo: back' });
  });

  it('a call past its timeout is cancelled with a clear output, and the server still answers', async () => {
    await start(stdioServer('echo', ECHO_SERVER));
    const slow = await call('mcp__echo__slow');
    assert.deepEqual(slow, {
      ok: false,
      output: "The MCP server 'echo' did not answer slow within 1.5 s; the call was cancelled.",
    });
    assert.deepEqual(await call('mcp__echo__say', { text: 'still here' }), { ok: true, output: 'echo: still here' });
  });

  it('a server answering garbage gives a clear output, never a stuck call', async () => {
    await start(stdioServer('garbage', GARBAGE_SERVER));
    const malformed = await call('mcp__garbage__malformed');
    assert.equal(malformed.ok, false);
    assert.match(
      malformed.output,
      /^The MCP server 'garbage' answered malformed with something that is not an MCP tool result: content: /,
    );
    const garbled = await call('mcp__garbage__garbled');
    assert.equal(garbled.ok, false);
    assert.match(
      garbled.output,
      /^The MCP server 'garbage' did not answer garbled within 1\.5 s; the call was cancelled\. It sent something that is not MCP: .*JSON/,
    );
  });

  it('a tool named like a built-in one is renamed, never shadows it', async () => {
    log = [];
    servers = await startMcpServers([stdioServer('echo', ECHO_SERVER)], {
      log: (line) => log.push(line),
      reserved: ['mcp__echo__say'],
      sandbox: machineMcpSandbox(roots),
      env: testServerEnv(),
    });
    assert.ok(servers.tools.some((tool) => tool.name === 'mcp__echo__say_2'));
    assert.ok(!servers.tools.some((tool) => tool.name === 'mcp__echo__say'));
  });

  it('close stops a stdio server: its tools then say so', async () => {
    const { tools } = await start(stdioServer('echo', ECHO_SERVER));
    await servers?.close();
    const say = tools.find((tool) => tool.name === 'mcp__echo__say');
    assert.deepEqual(await say?.run({ text: 'x' }, context), {
      ok: false,
      output:
        "The MCP server 'echo' has been stopped (its configuration changed, or the session ended); its tools are not available in this task.",
    });
  });
});
