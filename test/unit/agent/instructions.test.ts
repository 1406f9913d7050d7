import * as assert from 'node:assert/strict';
import { modelProfile, standingInstructions } from '../../../src/agent';
import { BUILTIN_TOOLS, TOOL_NAMES, type ToolOffer } from '../../../src/tools';

// The standing instructions: built from the tools a request offers, they never name one it does not, and
// they cover the ground a model trained on Codex expects (issue 36, item 2).

/** The names a request for `model` offers, with the workspace's `capabilities`. */
function offered(model: string, capabilities?: ToolOffer['capabilities']): string[] {
  return BUILTIN_TOOLS.offer(model, {
    editStyle: modelProfile(model).editTool,
    ...(capabilities ? { capabilities } : {}),
  }).map((tool) => tool.name);
}

/** The built-in tools the text names, as words. */
const named = (text: string) => TOOL_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text));

const EDITOR = { diagnostics: true, tasks: true, writes: true, commands: true };
const CLI = { diagnostics: false, tasks: true, writes: true, commands: true };

describe('agent: the standing instructions', () => {
  it('name exactly the built-in tools offered, whatever the model and the workspace', () => {
    for (const model of ['gpt-5.2-codex', 'gpt-5.2', 'some-model', 'o3'])
      for (const capabilities of [EDITOR, CLI, { diagnostics: false, tasks: false, writes: false, commands: false }]) {
        const tools = offered(model, capabilities);
        assert.deepEqual(
          named(standingInstructions(tools)).sort(),
          TOOL_NAMES.filter((name) => tools.includes(name)).sort(),
          `${model} ${JSON.stringify(capabilities)}`,
        );
      }
  });

  it('a GPT model is told of apply_patch only; another model of edit_file and write_file; the CLI never of get_diagnostics', () => {
    const gpt = named(standingInstructions(offered('gpt-5.2-codex', CLI)));
    assert.ok(gpt.includes('apply_patch') && gpt.includes('exec_command'));
    assert.ok(!gpt.includes('edit_file') && !gpt.includes('write_file') && !gpt.includes('get_diagnostics'));
    const other = named(standingInstructions(offered('some-model', EDITOR)));
    assert.ok(other.includes('edit_file') && other.includes('write_file') && other.includes('get_diagnostics'));
    assert.ok(!other.includes('apply_patch'));
  });

  it('cover autonomy, the user’s changes and git, checking, scope, approvals, AGENTS.md and the answer’s form', () => {
    const text = standingInstructions(offered('gpt-5.2-codex', CLI), BUILTIN_TOOLS, { parallelCalls: true });
    for (const phrase of [
      'Take the task to its end',
      'Never revert, overwrite or reformat them',
      '`reset --hard`',
      'narrowest first',
      'Do what was asked, completely, and nothing besides',
      'the file’s own style',
      'show as progress',
      '`path:line`',
      'the deeper one wins',
      '- `ask`:',
      '- `read-only`:',
      '- `plan`:',
      '<environment_context>',
      'reads among them run side by side',
    ])
      assert.ok(text.includes(phrase), phrase);
  });

  it('say nothing of git commands where no command can run, nor of side-by-side calls unless the model makes them', () => {
    const text = standingInstructions(offered('gpt-5.2', { ...CLI, commands: false }));
    assert.ok(!text.includes('reset --hard') && !text.includes('side by side'));
  });

  it('name tools added at run time as the user’s MCP servers’', () => {
    const text = standingInstructions([...offered('gpt-5.2'), 'mcp__docs__search']);
    assert.match(text, /MCP servers \(`mcp__docs__search`\)/);
  });

  it('explain the sandbox and how to ask to leave it only where commands may be confined', () => {
    const tools = offered('gpt-5.2-codex', CLI);
    assert.doesNotMatch(standingInstructions(tools), /sandbox/i);
    const text = standingInstructions(tools, BUILTIN_TOOLS, { sandbox: true });
    for (const word of [
      /<sandbox_mode>/,
      /workspace-write/,
      /require_escalated/,
      /justification/,
      /prefix_rule/,
      /`auto`/,
    ])
      assert.match(text, word);
    const shell = tools.find((name) => BUILTIN_TOOLS.get(name)?.requires === 'commands') ?? '';
    assert.ok(shell !== '' && text.includes(`call \`${shell}\` again`), 'names the shell tool offered');
    assert.doesNotMatch(standingInstructions(offered('gpt-5.2-codex', { ...CLI, commands: false })), /sandbox/i);
  });
});
