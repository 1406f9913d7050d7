import * as assert from 'node:assert/strict';
import { CustomTool, FunctionTool } from '../../../src/protocol';
import { TOOL_NAMES, editStyleFor, toolsFor } from '../../../src/tools';

describe('the tool set offered to a model', () => {
  it('has the seventeen contract names', () => {
    assert.deepEqual(TOOL_NAMES, [
      'find_files',
      'search_text',
      'read_file',
      'edit_file',
      'apply_patch',
      'write_file',
      'get_diagnostics',
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
  });

  it('offers GPT models apply_patch as a freeform tool with its grammar, others edit_file and write_file', () => {
    const gpt = toolsFor('gpt-5.1-codex');
    const patch = gpt.find((tool) => tool.name === 'apply_patch');
    assert.equal(CustomTool.parse(patch).format?.type, 'grammar');
    assert.ok(!gpt.some((tool) => tool.name === 'edit_file' || tool.name === 'write_file'));
    const other = toolsFor('claude-sonnet-4').map((tool) => tool.name);
    assert.ok(other.includes('edit_file') && other.includes('write_file') && !other.includes('apply_patch'));
    assert.equal(editStyleFor('openai/gpt-4.1'), 'apply_patch');
    const asFunction = toolsFor('x', { editStyle: 'apply_patch', applyPatchAs: 'function' }).find(
      (tool) => tool.name === 'apply_patch',
    );
    assert.deepEqual(FunctionTool.parse(asFunction).parameters, {
      type: 'object',
      properties: {
        input: { type: 'string', minLength: 1, description: 'The whole patch, from *** Begin Patch to *** End Patch.' },
      },
      required: ['input'],
    });
  });

  it('derives each function schema from its zod schema, and drops what the workspace cannot do', () => {
    const read = FunctionTool.parse(toolsFor('gpt-5').find((tool) => tool.name === 'read_file'));
    assert.deepEqual(Object.keys(read.parameters?.properties as object), ['path', 'start_line', 'end_line']);
    assert.deepEqual(read.parameters?.required, ['path']);
    const names = toolsFor('gpt-5', { capabilities: { diagnostics: false, tasks: true } }).map((tool) => tool.name);
    assert.ok(!names.includes('get_diagnostics') && names.includes('run_task'));
  });
});
