import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ComposerPort } from '../../../src/extension/chat/composer/composerPort';
import { IMPLEMENT_PROMPT } from '../../../src/extension/chat/composer/planImplement';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// Plan mode in the chat's host: a task in plan mode changes nothing and, once it answers, offers Implement;
// Implement goes back to the approval mode the user had before and continues the same chat with the plan.

const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-notes\n+notes, fixed\n*** End Patch\n';
const PLAN = { plan: [{ step: 'Fix the notes', status: 'pending' }] };

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'plan',
      match: 'plan the fix',
      steps: [
        { output: [{ type: 'function_call', name: 'update_plan', arguments: PLAN }] },
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'The plan:\n1. Fix the notes' }] },
      ],
    },
    {
      name: 'implement',
      match: 'Implement the plan',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Fixed.' }] },
      ],
    },
  ],
};

describe('chat panel host: plan mode and Implement', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'notes\n' }, { tps: 2_000 });
  const ui = useChatBench(bench);

  /** The window's pickers as far as plan mode needs them: the mode before plan is `all`. */
  const steering = (): ComposerPort => ({
    attach: () => undefined,
    refresh: () => undefined,
    choose: () => Promise.resolve(),
    openInstructions: () => Promise.resolve(),
    allowInstructions: () => Promise.resolve(),
    leavePlanMode: () => {
      ui.mode = 'all';
      return Promise.resolve();
    },
  });
  const lastPlan = () => ui.sent.findLast((m): m is Extract<HostMessage, { type: 'plan' }> => m.type === 'plan');
  const notes = () => fs.readFileSync(path.join(bench.dir, 'notes.txt'), 'utf8');

  it('changes nothing in plan mode, offers Implement, which leaves plan mode and goes on in the same chat', async () => {
    ui.mode = 'plan';
    ui.steering = steering();
    const chat = ui.controller();
    assert.equal((await chat.ask('plan the fix')).ok, true);
    assert.equal(notes(), 'notes\n', 'plan mode wrote nothing');
    const patch = chat.model.all.find((entry) => entry.kind === 'tool' && entry.name === 'apply_patch');
    assert.equal(patch?.kind === 'tool' && patch.status, 'declined');
    assert.deepEqual(lastPlan(), { type: 'plan', plan: PLAN, implement: true });
    const session = chat.sessionId;

    await chat.receive({ type: 'implement' });
    assert.equal(ui.mode, 'all', 'back to the mode before plan');
    await eventually(() => !chat.busy && notes() === 'notes, fixed\n', { message: 'the plan is implemented' });
    assert.equal(chat.sessionId, session, 'the same conversation');
    const prompts = chat.model.all.flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
    assert.deepEqual(prompts, ['plan the fix', IMPLEMENT_PROMPT]);
    assert.deepEqual(lastPlan(), { type: 'plan', plan: PLAN }, 'no Implement once it runs');
  });

  it('offers no Implement after a task in another mode', async () => {
    ui.mode = 'all';
    const chat = ui.controller();
    assert.equal((await chat.ask('plan the fix')).ok, true);
    assert.deepEqual(lastPlan(), { type: 'plan', plan: PLAN });
    assert.equal(chat.model.plan.implement, false);
  });
});
