import * as assert from 'node:assert/strict';
import { askEach, readOnly } from '../../../src/agent';
import {
  type LmToolInformation,
  duplicatesMcpServer,
  editorToolDefinitions,
  lmResultText,
  lmToolsApi,
} from '../../../src/extension/runtime/editorTools';
import { BUILTIN_TOOLS, ReadLedger, parametersOf, runToolCall } from '../../../src/tools';
import type { Workspace } from '../../../src/workspace';

// The editor's tools (`vscode.lm.tools`) as the agent's, on a stand-in for `vscode.lm`: found by feature
// detection (VS Code 1.90 has no such API: nothing is offered), named as the editor names them, always a task
// for approvals, invoked with `invokeTool` and their result parts joined as text.

const info = (name: string, tags: string[] = [], inputSchema?: object): LmToolInformation => ({
  name,
  description: `The ${name} tool.`,
  tags,
  inputSchema,
});

/** A `vscode.lm` with tools, recording each invocation. */
function fakeLm(tools: LmToolInformation[], answer: (name: string, input: object) => unknown[] | Error) {
  const calls: { name: string; input: object; token: unknown }[] = [];
  return {
    calls,
    lm: {
      selectChatModels: () => Promise.resolve([]),
      tools,
      invokeTool(name: string, options: { input: object; toolInvocationToken: unknown }) {
        calls.push({ name, input: options.input, token: options.toolInvocationToken });
        const result = answer(name, options.input);
        return result instanceof Error ? Promise.reject(result) : Promise.resolve({ content: result });
      },
    },
  };
}

describe('extension: the editor’s tools (vscode.lm.tools)', () => {
  it('a tool whose schema names a file (filePath) summarises by it and gives it as the path its card links', () => {
    const schema = { type: 'object', properties: { filePath: { type: 'string' }, line: { type: 'number' } } };
    const { lm } = fakeLm([info('ext_open', [], schema)], () => []);
    const api = lmToolsApi(lm);
    assert.ok(api);
    const [tool] = editorToolDefinitions(api, { taken: new Set(), mcpServers: [] });
    assert.equal(tool?.summarize?.('{"filePath":"src/a.ts","line":3}'), 'src/a.ts');
    assert.deepEqual(tool?.paths?.('{"filePath":"src/a.ts","line":3}'), ['src/a.ts']);
  });

  it('finds no API where vscode.lm has no tools (VS Code before the tools API), and nothing is offered', () => {
    assert.equal(lmToolsApi(undefined), undefined);
    assert.equal(lmToolsApi({ selectChatModels: () => undefined }), undefined);
    assert.equal(lmToolsApi({ tools: [], invokeTool: 'not a function' }), undefined);
    assert.deepEqual(lmToolsApi({ tools: [], invokeTool: () => undefined })?.tools, []);
  });

  it('offers each tool under its name with its schema, as a task; invokes it with no invocation token', async () => {
    const schema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
    const { lm, calls } = fakeLm([info('ext_search', [], schema)], (_name, input) => [
      { value: `found ${JSON.stringify(input)}` },
      { value: { tsx: 'element' } },
      { mimeType: 'image/png', data: new Uint8Array(10) },
      { mimeType: 'application/json', data: new TextEncoder().encode('{"a":1}') },
    ]);
    const api = lmToolsApi(lm);
    assert.ok(api);
    const tools = editorToolDefinitions(api, { taken: new Set(BUILTIN_TOOLS.names), mcpServers: [] });
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.effect, tool.description]),
      [['ext_search', 'task', 'The ext_search tool.']],
    );
    const [tool] = tools;
    assert.ok(tool);
    assert.deepEqual(parametersOf(tool), schema);
    assert.equal(tool.summarize?.('{"query":"cart"}'), 'cart');
    assert.deepEqual(tool.paths?.('{"query":"cart"}'), [], 'a query is no path');
    const result = await runToolCall(
      { kind: 'function', name: 'ext_search', arguments: '{"query":"cart"}' },
      { workspace: {} as Workspace, reads: new ReadLedger() },
      BUILTIN_TOOLS.with(tools),
    );
    assert.deepEqual(result, {
      ok: true,
      output: 'found {"query":"cart"}\n{"tsx":"element"}\n[image/png data, 10 bytes; not shown]\n{"a":1}',
    });
    assert.deepEqual(calls, [{ name: 'ext_search', input: { query: 'cart' }, token: undefined }]);
  });

  it('leaves out VS Code’s own, Loopwire’s, names taken or not callable, and VS Code’s tools of servers from mcp.json', () => {
    const { lm } = fakeLm(
      [
        // VS Code's own chat tools come with `source: undefined`; an extension's name it.
        { ...info('run_in_terminal'), source: undefined },
        { ...info('renderMermaidDiagram'), source: { id: 'vscode.mermaid-markdown-features', label: 'Mermaid' } },
        { ...info('loopwire_anything'), source: { id: 'loopwire.loopwire', label: 'Loopwire' } },
        info('read_file'),
        info('has space'),
        info('mcp_echo_say', ['mcp']),
        info('mcp_github_get_issue', ['mcp']),
        { ...info('get_weather'), source: { id: 'mcp.config.ws0.weather', label: 'weather (MCP server)' } },
        info('copilot_searchCodebase'),
      ],
      () => [],
    );
    const api = lmToolsApi(lm);
    assert.ok(api);
    const log: string[] = [];
    const tools = editorToolDefinitions(api, {
      taken: new Set(BUILTIN_TOOLS.names),
      mcpServers: ['echo', 'weather'],
      log: (line) => log.push(line),
    });
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['renderMermaidDiagram', 'mcp_github_get_issue', 'copilot_searchCodebase'],
    );
    assert.equal(log.length, 2, log.join('\n'));
    assert.ok(duplicatesMcpServer(info('mcp_my-server_run', ['mcp']), ['My Server']));
    assert.ok(!duplicatesMcpServer(info('echo_say'), ['echo']), 'not an MCP tool: kept');
  });

  it('a failing or silent tool gives a clear output', async () => {
    const { lm } = fakeLm([info('ext_fail'), info('ext_hang')], (name) =>
      name === 'ext_fail' ? new Error('the user cancelled') : [],
    );
    const hanging = {
      ...lm,
      invokeTool: (name: string, options: { input: object; toolInvocationToken: undefined }) =>
        name === 'ext_hang' ? new Promise<never>(() => undefined) : lm.invokeTool(name, options),
    };
    const api = lmToolsApi(hanging);
    assert.ok(api);
    const tools = editorToolDefinitions(api, { taken: new Set(), mcpServers: [], timeoutMs: 50 });
    const context = { workspace: {} as Workspace, reads: new ReadLedger() };
    assert.deepEqual(await tools[0]?.run({}, context), {
      ok: false,
      output: "The editor's tool ext_fail failed: the user cancelled",
    });
    assert.deepEqual(await tools[1]?.run({}, context), {
      ok: false,
      output: "The editor's tool ext_hang did not answer within 0.05 s.",
    });
    assert.equal(lmResultText([]), '(no output)');
  });

  it('is approved like a task: asked under ask, declined under read-only', async () => {
    const { lm } = fakeLm([info('ext_run')], () => [{ value: 'ran' }]);
    const api = lmToolsApi(lm);
    assert.ok(api);
    const registry = BUILTIN_TOOLS.with(editorToolDefinitions(api, { taken: new Set(), mcpServers: [] }));
    assert.equal(registry.effect('ext_run'), 'task');
    const request = { callId: 'c1', name: 'ext_run', effect: 'task' as const, input: '{}' };
    assert.equal(await readOnly.approve(request), false);
    const asked: string[] = [];
    await askEach((r) => {
      asked.push(r.name);
      return Promise.resolve(true);
    }).approve(request);
    assert.deepEqual(asked, ['ext_run']);
  });
});
