import * as assert from 'node:assert/strict';
import { type ApprovalRequest, type AgentEvent, policyFor } from '../../../src/agent';
import { commandApprovalNote } from '../../../src/agent/approvals/commandApproval';
import { PLAN_MODE_NOTE, planModeDeclined, planToolOffered } from '../../../src/agent/approvals/planMode';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from './agentHarness';

// Plan mode: reads, the plan and commands that only read run; every write and task is declined without asking
// anyone, and the model is told it is in plan mode (not that the user said no). A real agent on the real
// server, with a scripted model that tries each kind of call.

const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-notes\n+changed\n*** End Patch\n';
const PLAN = { plan: [{ step: 'Change the notes', status: 'pending' }] };

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'plan',
      match: 'plan',
      steps: [
        {
          output: [
            { type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } },
            { type: 'function_call', name: 'update_plan', arguments: PLAN },
            { type: 'function_call', name: 'exec_command', arguments: { cmd: 'ls' } },
          ],
        },
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'touch made-in-plan-mode' } }] },
        { output: [{ type: 'function_call', name: 'run_task', arguments: { label: 'npm: test' } }] },
        { output: [{ type: 'message', text: 'The plan:\n1. Change the notes' }] },
      ],
    },
  ],
};

describe('plan mode', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'notes\n', 'package.json': '{"scripts":{"test":"true"}}' });

  it('declines every write and task without asking, and says it is plan mode', async () => {
    const asked: string[] = [];
    const policy = policyFor('plan', (request) => {
      asked.push(request.name);
      return Promise.resolve(true);
    });
    const request: ApprovalRequest = { callId: 'c', name: 'some_tool', effect: 'write', input: '{}' };
    assert.equal(await policy.approve(request), false);
    assert.equal(await policy.approve({ ...request, effect: 'task' }), false);
    assert.deepEqual(asked, [], 'nobody is asked');
    assert.equal(policy.mode?.(), 'plan');
    assert.match(planModeDeclined('apply_patch'), /^This apply_patch call was not run: the session is in plan mode/);
    assert.match(PLAN_MODE_NOTE, /^Plan mode: .*End your answer with the plan/);
    assert.match(commandApprovalNote('plan', 'linux'), /Every other command is declined/);
    assert.match(commandApprovalNote('plan', 'win32'), /Shell commands are declined/);
  });

  it('reads, plans and runs what only reads; the patch, a command that writes and a task are declined', async () => {
    const { agent } = await bench.agent({ approvals: policyFor('plan', () => Promise.resolve(true)) });
    assert.equal((await agent.run('plan the change', new AbortController().signal)).status, 'completed');
    const finished = new Map(
      bench.events
        .filter((event): event is Extract<AgentEvent, { type: 'tool_finished' }> => event.type === 'tool_finished')
        .map((event) => [event.name + (event.name === 'exec_command' && event.ok ? ' ls' : ''), event]),
    );
    for (const name of ['read_file', 'update_plan', 'exec_command ls'])
      assert.equal(finished.get(name)?.ok, true, name);
    assert.equal(finished.get('apply_patch')?.declined, true);
    assert.equal(finished.get('apply_patch')?.output, planModeDeclined('apply_patch'));
    assert.equal(finished.get('run_task')?.output, planModeDeclined('run_task'));
    assert.match(
      finished.get('exec_command')?.output ?? '',
      /the approval mode is plan, where only commands that only read/,
    );
    assert.equal(bench.read('notes.txt'), 'notes\n', 'nothing was written');
    assert.throws(() => bench.read('made-in-plan-mode'));
  });

  it('offers the plan tool as the setting says: auto follows the catalogue, always and off override it', () => {
    assert.equal(planToolOffered(undefined, true), true);
    assert.equal(planToolOffered('auto', false), false);
    assert.equal(planToolOffered('always', false), true);
    assert.equal(planToolOffered('off', true), false);
  });
});
