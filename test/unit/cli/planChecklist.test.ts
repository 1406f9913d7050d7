import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ExecRenderer } from '../../../src/cli/exec/execRenderer';
import { planChecklist } from '../../../src/cli/exec/planChecklist';
import type { PlanStatus } from '../../../src/protocol/plan';

// `loopwire exec` prints the plan as a checklist under the plan tool's line each time it changes: plain ASCII
// boxes on text (a log file), bold and dim on a colour terminal, nothing again for a plan that did not change,
// and a refused call's message as any tool's.

function render(events: AgentEvent[], color = false): string {
  let text = '';
  const renderer = new ExecRenderer({ stdout: (chunk) => (text += chunk), stderr: (chunk) => (text += chunk), color });
  for (const event of events) renderer.handle(event);
  return text;
}

const steps = (...statuses: PlanStatus[]) => statuses.map((status, index) => ({ step: `Step ${index + 1}`, status }));

/** One update_plan call of `args`, started and finished with `output`. */
function planCall(callId: string, args: unknown, ok = true, output = 'Plan updated'): AgentEvent[] {
  const input = JSON.stringify(args);
  return [
    { type: 'tool_started', turn: 1, callId, name: 'update_plan', kind: 'function', input },
    { type: 'tool_finished', turn: 1, callId, name: 'update_plan', ok, output, durationMs: 1 },
  ];
}

describe('cli: the plan as a checklist', () => {
  it('prints each step with its box under the tool line, the explanation first', () => {
    const args = { explanation: 'The bug is in the discount.', plan: steps('completed', 'in_progress', 'pending') };
    assert.equal(
      render(planCall('c1', args)),
      [
        '▸ update_plan 1 of 3 done · Step 2',
        '  ✓ Plan updated (1 ms)',
        '    The bug is in the discount.',
        '    [x] Step 1',
        '    [~] Step 2',
        '    [ ] Step 3',
        '',
      ].join('\n'),
    );
  });

  it('prints it again only when it changed', () => {
    const first = { plan: steps('in_progress', 'pending') };
    const text = render([
      ...planCall('c1', first),
      ...planCall('c2', first),
      ...planCall('c3', { plan: steps('completed', 'in_progress') }),
    ]);
    assert.equal(text.match(/\[~\] Step 1/g)?.length, 1);
    assert.match(text, /✓ plan unchanged \(1 ms\)\n▸ update_plan/);
    assert.match(text, /\[x\] Step 1\n {4}\[~\] Step 2\n$/);
  });

  it("prints a refused call's message, and no checklist", () => {
    const message = 'Invalid arguments for update_plan: plan: steps 1, 2 are all in_progress; …';
    const text = render(planCall('c1', { plan: steps('in_progress', 'in_progress') }, false, message));
    assert.match(text, /✗ Invalid arguments for update_plan/);
    assert.doesNotMatch(text, /\[~\]/);
  });

  it('colours the step in progress bold and the done ones dim, and keeps control characters out', () => {
    const text = planChecklist({ plan: steps('completed', 'in_progress', 'pending') }, true);
    assert.equal(text, '    \u001b[2m[x] Step 1\u001b[0m\n    \u001b[1m[~] Step 2\u001b[0m\n    [ ] Step 3\n');
    const hostile = planChecklist({ plan: [{ step: 'a\u001b[31mred\nnext', status: 'pending' }] }, false);
    assert.equal(hostile, '    [ ] a [31mred next\n');
  });
});
