import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ExecRenderer } from '../../../src/cli/exec/execRenderer';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import { McpConnection, mcpSummary } from '../../../src/mcp';
import { mcpToolDefinition } from '../../../src/mcp/mcpTools';
import type { HostMessage } from '../../../src/protocol/chatView';
import { BUILTIN_TOOLS, schemaPathArguments } from '../../../src/tools';
import { ECHO_SERVER, stdioServer } from './mcpFixtures';

// An MCP call as people see it: the panel's card and the CLI's line say `SERVER · TOOL` and the main
// argument, from the run's tool set (never asked of the built-in tools alone, which know no MCP tool).

const schema = { type: 'object', properties: { text: { type: 'string' }, loud: { type: 'boolean' } } };
const connection = new McpConnection(stdioServer('echo', ECHO_SERVER), {
  log: () => {},
  sandbox: { kind: 'full-access' },
});
const say = mcpToolDefinition('mcp__echo__say', connection, {
  name: 'say',
  inputSchema: schema,
  readOnly: true,
});
const registry = BUILTIN_TOOLS.with([say]);

const started: AgentEvent = {
  type: 'tool_started',
  turn: 1,
  callId: 'call_1',
  name: 'mcp__echo__say',
  kind: 'function',
  input: '{"text":"hello","loud":true}',
};

describe('mcp: cards and terminal lines', () => {
  it('summarises as SERVER · TOOL and the obvious argument, also while it streams', () => {
    const summary = mcpSummary('echo', 'say', schema);
    assert.equal(summary('{"text":"hello"}'), 'echo · say: hello');
    assert.equal(summary('{"text":"hel'), 'echo · say: hel');
    assert.equal(summary('{}'), 'echo · say');
    assert.equal(mcpSummary('fs', 'read', { type: 'object' })('{"path":"a.txt"}'), 'fs · read: a.txt');
    const two = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    assert.equal(mcpSummary('x', 'y', two)('{"a":"1","b":"2"}'), 'x · y', 'no argument is obvious');
  });

  it('an argument that names a path (by its name or its description) is a path the card links', () => {
    const fileSchema = {
      type: 'object',
      properties: {
        filePath: { type: 'string' },
        target: { type: 'string', description: 'Workspace path to write to' },
        uris: { type: 'array', items: { type: 'string' } },
        content: { type: 'string', description: 'What to write' },
        pathCount: { type: 'number' },
      },
    };
    assert.deepEqual(schemaPathArguments(fileSchema), ['filePath', 'target', 'uris']);
    const write = mcpToolDefinition('mcp__echo__write', connection, {
      name: 'write',
      inputSchema: fileSchema,
      readOnly: false,
    });
    const input = JSON.stringify({ filePath: 'src/a.ts', target: 'b.md', uris: ['c.txt', ''], content: 'x.ts' });
    const tools = BUILTIN_TOOLS.with([write]);
    assert.deepEqual(tools.paths('mcp__echo__write', input), ['src/a.ts', 'b.md', 'c.txt']);
    assert.equal(
      tools.summarize('mcp__echo__write', input),
      'echo · write: src/a.ts',
      'the first path says what it is about',
    );
    assert.deepEqual(tools.paths('mcp__echo__say', '{"text":"a.ts"}'), []);

    const model = new ChatModel(
      () => {},
      () => Promise.resolve(undefined),
    );
    model.tools = tools;
    model.handle({ ...started, callId: 'call_2', name: 'mcp__echo__write', input });
    assert.deepEqual(model.tool('call_2')?.paths, ['src/a.ts', 'b.md', 'c.txt']);
    const saved = transcriptEntries(
      [{ type: 'function_call', call_id: 'c', name: 'mcp__echo__write', arguments: input }],
      tools,
    );
    assert.deepEqual(saved[0]?.kind === 'tool' && saved[0].paths, ['src/a.ts', 'b.md', 'c.txt']);
  });

  it('the CLI line and the panel card use the run’s tool set', () => {
    let text = '';
    const renderer = new ExecRenderer({ stdout: (t) => (text += t), stderr: () => {}, color: false, tools: registry });
    renderer.handle(started);
    assert.equal(text, '▸ mcp__echo__say echo · say: hello\n');

    const posted: HostMessage[] = [];
    const model = new ChatModel(
      (message) => posted.push(message),
      () => Promise.resolve(undefined),
    );
    model.tools = registry;
    model.handle(started);
    const card = model.tool('call_1');
    assert.equal(card?.summary, 'echo · say: hello');

    const saved = transcriptEntries(
      [{ type: 'function_call', call_id: 'call_1', name: 'mcp__echo__say', arguments: started.input }],
      registry,
    );
    assert.equal(saved[0]?.kind === 'tool' && saved[0].summary, 'echo · say: hello');
  });
});
