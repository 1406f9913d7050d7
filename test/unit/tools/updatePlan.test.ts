import * as assert from 'node:assert/strict';
import { FunctionTool } from '../../../src/protocol';
import { BUILTIN_TOOLS, type ToolContext, planToolFor, runToolCall, toolsFor } from '../../../src/tools';
import { toolBench } from './toolHarness';

// The plan tool: Codex's schema as the model is offered it, the one-step-in-progress rule as an error the
// model can act on, the plan a front end reads from a call, and who is offered it.

const plan = (...statuses: string[]) => ({
  explanation: 'Found the bug',
  plan: statuses.map((status, index) => ({ step: `Step ${index + 1}`, status })),
});

describe('tools: update_plan', () => {
  let context: ToolContext;
  before(async () => {
    ({ context } = await toolBench({}));
  });
  const call = (args: unknown) =>
    runToolCall({ kind: 'function', name: 'update_plan', arguments: JSON.stringify(args) }, context);

  it("is offered with Codex's schema: an optional explanation and the steps with their status", () => {
    const tool = FunctionTool.parse(toolsFor('gpt-5.5').find((spec) => spec.name === 'update_plan'));
    const parameters = tool.parameters as {
      properties: { explanation: unknown; plan: { items: { properties: Record<string, unknown>; required: unknown } } };
      required: unknown;
    };
    assert.deepEqual(parameters.required, ['plan']);
    assert.deepEqual(Object.keys(parameters.properties), ['explanation', 'plan']);
    assert.deepEqual(parameters.properties.plan.items.required, ['step', 'status']);
    assert.deepEqual(parameters.properties.plan.items.properties.status, {
      type: 'string',
      enum: ['pending', 'in_progress', 'completed'],
      description: 'One of: pending, in_progress, completed.',
    });
  });

  it('takes a plan with one step in progress, or none, and answers as Codex does', async () => {
    assert.deepEqual(await call(plan('completed', 'in_progress', 'pending')), { ok: true, output: 'Plan updated' });
    assert.equal((await call({ plan: [{ step: 'Only', status: 'pending' }] })).ok, true);
    assert.equal((await call({ plan: [] })).ok, true);
  });

  it('refuses two steps in progress with a message that says which and what to do', async () => {
    const result = await call(plan('in_progress', 'pending', 'in_progress'));
    assert.equal(result.ok, false);
    assert.match(result.output, /^Invalid arguments for update_plan: plan: steps 1, 3 are all in_progress/);
    assert.match(result.output, /at most one step may be in_progress.*call update_plan again/);
  });

  it('refuses an unknown status or a step without text, naming the field', async () => {
    const status = await call({ plan: [{ step: 'A', status: 'done' }] });
    assert.match(status.output, /plan\.0\.status: Invalid option/);
    assert.match((await call({ plan: [{ step: '', status: 'pending' }] })).output, /plan\.0\.step:/);
    assert.match((await call({})).output, /plan: /);
  });

  it('gives the front ends the plan a valid call sets, and none for a refused or streaming one', () => {
    const input = JSON.stringify(plan('completed', 'in_progress'));
    assert.deepEqual(BUILTIN_TOOLS.plan('update_plan', input), plan('completed', 'in_progress'));
    assert.equal(BUILTIN_TOOLS.plan('update_plan', JSON.stringify(plan('in_progress', 'in_progress'))), undefined);
    assert.equal(BUILTIN_TOOLS.plan('update_plan', input.slice(0, -3)), undefined);
    assert.equal(BUILTIN_TOOLS.plan('read_file', input), undefined);
    assert.equal(BUILTIN_TOOLS.summarize('update_plan', input), '1 of 2 done · Step 2');
    assert.equal(BUILTIN_TOOLS.effect('update_plan'), 'read', 'it changes nothing: never asked about');
  });

  it('is offered to GPT-5.x, later GPT and Codex models by name, and to any model the offer opts in', () => {
    const offered = (model: string, planTool?: boolean) =>
      toolsFor(model, planTool === undefined ? {} : { planTool }).some((tool) => tool.name === 'update_plan');
    for (const model of ['gpt-5.5', 'openai/gpt-5.1-codex', 'gpt-6', 'codex-mini-latest'])
      assert.ok(offered(model) && planToolFor(model), model);
    for (const model of ['gpt-4.1', 'o3', 'claude-sonnet-4', 'llama3']) assert.ok(!offered(model), model);
    assert.ok(offered('claude-sonnet-4', true), 'the setting offers it to any model');
    assert.ok(!offered('gpt-5.5', false), 'and can leave it out');
  });
});
