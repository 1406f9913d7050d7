import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { CustomTool, FunctionTool } from '../../../src/protocol';
import {
  BUILTIN_TOOLS,
  TOOLS,
  TOOL_NAMES,
  ToolRegistry,
  isFreeformInput,
  liveDiffKind,
  mainArgument,
  outputShape,
  runToolCall,
  stringArgument,
  summarizeCall,
  takesFreeform,
  toolEffect,
  toolsAvailable,
} from '../../../src/tools';
import { defineTool, success } from '../../../src/tools/tool';
import { toolBench } from './toolHarness';

// What the rest of the program asks of a tool, answered by the tool's own definition.

const PATCH =
  '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+z\n*** Delete File: c.ts\n*** End Patch\n';

/** Every prefix of `text`: what a card sees while the call streams. */
const prefixes = (text: string) => Array.from({ length: text.length + 1 }, (_, i) => text.slice(0, i));

describe('tool metadata', () => {
  it('each tool declares its effect: reads, three writes and two tasks; an unknown tool reads', () => {
    assert.deepEqual(Object.fromEntries(TOOL_NAMES.map((name) => [name, toolEffect(name)])), {
      find_files: 'read',
      search_text: 'read',
      read_file: 'read',
      edit_file: 'write',
      apply_patch: 'write',
      write_file: 'write',
      get_diagnostics: 'read',
      list_tasks: 'read',
      run_task: 'task',
      exec_command: 'task',
      write_stdin: 'read',
      update_plan: 'read',
      view_image: 'read',
      spawn_agent: 'read',
      send_input: 'read',
      wait: 'read',
      close_agent: 'read',
    });
    assert.equal(toolEffect('no_such_tool'), 'read');
    for (const name of TOOL_NAMES) assert.equal(TOOLS[name].name, name);
  });

  it('offers an untrusted workspace no tool that writes or runs tasks, and drops what a workspace cannot do', () => {
    assert.deepEqual(toolsAvailable(), TOOL_NAMES);
    assert.deepEqual(toolsAvailable({ trusted: true }), TOOL_NAMES);
    assert.deepEqual(toolsAvailable({ trusted: false }), [
      'find_files',
      'search_text',
      'read_file',
      'get_diagnostics',
      'update_plan',
      'view_image',
      'spawn_agent',
      'send_input',
      'wait',
      'close_agent',
    ]);
    assert.deepEqual(toolsAvailable({ capabilities: { diagnostics: false, tasks: true, writes: true } }), [
      'find_files',
      'search_text',
      'read_file',
      'edit_file',
      'apply_patch',
      'write_file',
      'list_tasks',
      'run_task',
      'exec_command',
      'write_stdin',
      'update_plan',
      'view_image',
      'spawn_agent',
      'send_input',
      'wait',
      'close_agent',
    ]);
    assert.deepEqual(
      toolsAvailable({ capabilities: { writes: false, tasks: false, commands: false } }),
      toolsAvailable({ trusted: false }),
    );
  });

  it('says which paths a call touches (a card links them) and what an approval must show', () => {
    const paths = (name: string, input: unknown) =>
      BUILTIN_TOOLS.paths(name, typeof input === 'string' ? input : JSON.stringify(input));
    for (const name of ['read_file', 'edit_file', 'write_file', 'get_diagnostics'])
      assert.deepEqual(paths(name, { path: 'src/a.ts' }), ['src/a.ts'], name);
    assert.deepEqual(paths('get_diagnostics', {}), []);
    const move = '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** End Patch\n';
    assert.deepEqual(paths('apply_patch', PATCH), ['src/a.ts', 'b.ts', 'c.ts']);
    assert.deepEqual(paths('apply_patch', { input: move }), ['a.ts', 'b.ts']);
    assert.equal(summarizeCall('apply_patch', move), 'a.ts', 'the summary names what it updates');
    for (const name of ['search_text', 'find_files', 'run_task', 'exec_command', 'nope'])
      assert.deepEqual(
        paths(name, { path: 'x.ts', query: 'x.ts', pattern: 'x.ts', label: 'x.ts', cmd: 'cat x.ts' }),
        [],
      );

    assert.deepEqual(BUILTIN_TOOLS.approval('exec_command', JSON.stringify({ cmd: 'rm -rf build', workdir: 'pkg' })), {
      action: 'Run command',
      object: 'rm -rf build',
      detail: '$ rm -rf build\n(in pkg)',
    });
    assert.equal(BUILTIN_TOOLS.approval('exec_command', '{"cmd":"ls"}')?.detail, '$ ls\n(in the workspace root)');
    assert.equal(BUILTIN_TOOLS.approval('exec_command', '{"cmd":"l'), undefined, 'not until it is written');
    for (const name of ['run_task', 'apply_patch', 'read_file', 'nope'])
      assert.equal(BUILTIN_TOOLS.approval(name, '{"label":"npm: test","path":"a.ts"}'), undefined, name);
  });

  it('says which calls preview as a live diff, how outputs are shown, and which take freeform input', () => {
    assert.equal(liveDiffKind('apply_patch'), 'patch');
    assert.equal(liveDiffKind('edit_file'), 'replacements');
    for (const name of ['write_file', 'read_file', 'run_task', 'nope']) assert.equal(liveDiffKind(name), undefined);
    for (const name of ['apply_patch', 'edit_file', 'write_file']) assert.equal(outputShape(name), 'diff');
    assert.equal(outputShape('run_task'), 'tail');
    assert.equal(outputShape('search_text'), undefined);
    assert.ok(takesFreeform('apply_patch') && !takesFreeform('edit_file') && !takesFreeform('nope'));
    assert.ok(isFreeformInput('apply_patch', `  ${PATCH}`));
    assert.ok(!isFreeformInput('apply_patch', JSON.stringify({ input: PATCH })));
    assert.ok(!isFreeformInput('read_file', '*** Begin Patch'));
  });
});

describe('summarizeCall', () => {
  it("names each call's main argument: path, pattern, query or label", () => {
    assert.equal(summarizeCall('read_file', JSON.stringify({ path: 'src/a "q".ts', start_line: 3 })), 'src/a "q".ts');
    assert.equal(summarizeCall('find_files', JSON.stringify({ pattern: '**/*.ts' })), '**/*.ts');
    assert.equal(summarizeCall('search_text', JSON.stringify({ query: 'a\nb', include: 'src/**' })), 'a\nb');
    assert.equal(summarizeCall('run_task', JSON.stringify({ label: 'npm: test' })), 'npm: test');
    assert.equal(summarizeCall('edit_file', JSON.stringify({ path: 'x.ts', edits: [] })), 'x.ts');
    assert.equal(summarizeCall('get_diagnostics', '{}'), '');
    assert.equal(summarizeCall('list_tasks', '{}'), '');
    // A tool it does not know: the shared fallback, first of path, pattern, query, label.
    assert.equal(summarizeCall('mystery', JSON.stringify({ label: 'L', query: 'Q' })), 'Q');
    assert.equal(mainArgument('not json'), '');
  });

  it('shows a streaming argument once its string is closed, and never throws on a prefix', () => {
    const input = JSON.stringify({ path: 'src/caf\u00e9 "x".ts', edits: [{ old_string: 'a', new_string: 'b' }] });
    const seen = new Set(prefixes(input).map((part) => summarizeCall('edit_file', part)));
    assert.deepEqual([...seen], ['', 'src/café "x".ts']);
    assert.equal(summarizeCall('read_file', '{"path": "src/a.ts", "start_'), 'src/a.ts');
    assert.equal(summarizeCall('read_file', '{"path": "src/a'), '');
  });

  it('names the files of a patch, freeform or streaming', () => {
    assert.equal(summarizeCall('apply_patch', PATCH), 'src/a.ts, b.ts, c.ts');
    assert.equal(summarizeCall('apply_patch', '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x'), 'src/a.ts');
  });

  it('names the files of a patch sent as a function call {"input": …}, whole or streaming (it gave "")', () => {
    const call = JSON.stringify({ input: PATCH });
    assert.equal(summarizeCall('apply_patch', call), 'src/a.ts, b.ts, c.ts');
    assert.equal(summarizeCall('apply_patch', JSON.stringify({ input: PATCH }, null, 2)), 'src/a.ts, b.ts, c.ts');
    const streamed = call.slice(0, call.indexOf('@@'));
    assert.equal(summarizeCall('apply_patch', streamed), 'src/a.ts');
    // Cut inside an escape: decoded up to it.
    assert.equal(summarizeCall('apply_patch', `${streamed}\\`), 'src/a.ts');
    for (const part of prefixes(call)) assert.equal(typeof summarizeCall('apply_patch', part), 'string');
  });

  it('reads a string argument of streaming JSON, closed or (open) as far as it has come', () => {
    assert.equal(stringArgument('{"input": "ab\\ncd', 'input'), undefined);
    assert.equal(stringArgument('{"input": "ab\\ncd', 'input', { open: true }), 'ab\ncd');
    assert.equal(stringArgument('{"input": "caf\\u00', 'input', { open: true }), 'caf');
    assert.equal(stringArgument('{"input": 3}', 'input'), undefined);
    assert.equal(stringArgument('[1]', 'input'), undefined);
  });
});

describe('a tool set with tools added at run time', () => {
  const echo = defineTool({
    name: 'mcp__demo__echo',
    description: 'Echo a message.',
    args: z.object({ message: z.string() }),
    effect: 'task',
    requires: 'tasks',
    outputShape: 'tail',
    summarize: (input) => stringArgument(input, 'message', { open: true }) ?? '',
    run: (args) => Promise.resolve(success(args.message)),
  });
  const tools = BUILTIN_TOOLS.with([echo]);

  it('answers for the new tool as for the built-in ones, and offers it', () => {
    assert.equal(tools.effect('mcp__demo__echo'), 'task');
    assert.equal(tools.summarize('mcp__demo__echo', '{"message": "hel'), 'hel');
    assert.equal(tools.outputShape('mcp__demo__echo'), 'tail');
    assert.ok(!tools.available({ trusted: false }).includes(echo));
    const offered = tools.offer('gpt-5').find((tool) => tool.name === 'mcp__demo__echo');
    assert.deepEqual(FunctionTool.parse(offered).parameters?.required, ['message']);
    assert.equal(
      CustomTool.parse(tools.offer('gpt-5').find((tool) => tool.name === 'apply_patch')).name,
      'apply_patch',
    );
    // The built-in set is unchanged.
    assert.equal(BUILTIN_TOOLS.get('mcp__demo__echo'), undefined);
    assert.throws(() => tools.with([echo]), /Two tools are named mcp__demo__echo/);
    assert.deepEqual(new ToolRegistry([]).names, []);
  });

  it('runs the new tool through runToolCall, which refuses freeform input to a JSON tool', async () => {
    const { context } = await toolBench({});
    const ran = await runToolCall(
      { kind: 'function', name: 'mcp__demo__echo', arguments: '{"message":"hi"}' },
      context,
      tools,
    );
    assert.deepEqual(ran, { ok: true, output: 'hi' });
    const freeform = await runToolCall({ kind: 'custom', name: 'mcp__demo__echo', input: 'hi' }, context, tools);
    assert.match(freeform.output, /takes JSON arguments/);
    const unknown = await runToolCall({ kind: 'function', name: 'mcp__demo__echo', arguments: '{}' }, context);
    assert.match(unknown.output, /There is no tool 'mcp__demo__echo'\. The tools are: find_files, /);
  });
});
