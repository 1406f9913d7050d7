import * as assert from 'node:assert/strict';
import { BUILTIN_TOOLS, type ToolDefinition, toolsNamed } from '../../../src/tools';

// The tool names of other agents' files (VS Code's tools and tool sets) as ours: a prompt file's `tools`.

describe('tools: the names other agents give', () => {
  const names = (given: string[], registry = BUILTIN_TOOLS) => {
    const { tools, unknown } = toolsNamed(given, registry);
    return { tools: [...tools].sort(), unknown };
  };

  it('maps VS Code’s tools and tool sets to ours, `set/tool` too; ours stand for themselves', () => {
    assert.deepEqual(names(['codebase', 'search/fileSearch', 'read_file']).tools, [
      'find_files',
      'read_file',
      'search_text',
    ]);
    assert.deepEqual(names(['editFiles']).tools, ['apply_patch', 'edit_file', 'write_file']);
    assert.deepEqual(names(['runCommands']).tools, ['exec_command', 'write_stdin']);
    assert.deepEqual(names(['terminal', 'runTasks', 'problems', 'todos']).tools, [
      'exec_command',
      'get_diagnostics',
      'list_tasks',
      'run_task',
      'update_plan',
      'write_stdin',
    ]);
  });

  it('names the unknown ones once each', () => {
    assert.deepEqual(names(['fetch', 'search', 'fetch', 'githubRepo']), {
      tools: ['find_files', 'search_text'],
      unknown: ['fetch', 'githubRepo'],
    });
  });

  it('`server/*` is every tool of that MCP server, `server/tool` one', () => {
    const base = BUILTIN_TOOLS.get('read_file') as ToolDefinition;
    const registry = BUILTIN_TOOLS.with([
      { ...base, name: 'mcp__echo__say' },
      { ...base, name: 'mcp__echo__shout' },
      { ...base, name: 'mcp__other__x' },
    ]);
    assert.deepEqual(names(['echo/*'], registry).tools, ['mcp__echo__say', 'mcp__echo__shout']);
    assert.deepEqual(names(['other/x', 'none/*'], registry), { tools: ['mcp__other__x'], unknown: ['none/*'] });
  });
});
