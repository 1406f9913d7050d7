import * as assert from 'node:assert/strict';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { Plan } from '../../../src/protocol/plan';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// The plan in the chat's host: a scripted model's update_plan calls become the page's `plan` messages as they
// run (a refused one none), and a reloaded window finds the last plan again in the transcript, with the state.

const FIRST: Plan = {
  explanation: 'Two steps.',
  plan: [
    { step: 'Read the notes', status: 'in_progress' },
    { step: 'Fix them', status: 'pending' },
  ],
};
const SECOND: Plan = {
  plan: [
    { step: 'Read the notes', status: 'completed' },
    { step: 'Fix them', status: 'in_progress' },
  ],
};
const BROKEN = { plan: FIRST.plan.map((step) => ({ ...step, status: 'in_progress' })) };

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'plan',
      match: 'plan the fix',
      steps: [
        { output: [{ type: 'function_call', name: 'update_plan', arguments: FIRST }] },
        { output: [{ type: 'function_call', name: 'update_plan', arguments: BROKEN }] },
        { output: [{ type: 'function_call', name: 'update_plan', arguments: SECOND }] },
        { output: [{ type: 'message', text: 'Planned.' }] },
      ],
    },
  ],
};

describe('chat panel host: the plan checklist', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'notes\n' }, { tps: 2_000 });
  const ui = useChatBench(bench);

  const plans = () => ui.sent.flatMap((m) => (m.type === 'plan' ? [m.plan] : []));
  const lastState = () => ui.sent.findLast((m): m is Extract<HostMessage, { type: 'state' }> => m.type === 'state');

  it('sends each plan the model sets, not a refused one, and a reload shows the last again', async () => {
    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    assert.equal(lastState()?.plan, undefined, 'a new chat has no plan');
    assert.equal((await chat.ask('plan the fix')).ok, true);
    assert.deepEqual(plans(), [FIRST, SECOND]);
    const broken = chat.model.all.filter((entry) => entry.kind === 'tool' && entry.status === 'failed');
    assert.equal(broken.length, 1, 'the call with two steps in progress failed');
    assert.deepEqual(chat.model.plan.current, SECOND);

    // The window reloads: a second controller on the same sessions finds the plan in the transcript.
    chat.dispose();
    ui.sent.length = 0;
    const reloaded = ui.controller();
    await reloaded.receive({ type: 'ready' });
    assert.deepEqual(lastState()?.plan, SECOND);
    assert.deepEqual(plans(), [], 'with the state, not twice');

    // A new chat has none.
    await reloaded.receive({ type: 'newChat' });
    assert.equal(lastState()?.plan, undefined);
  });
});
