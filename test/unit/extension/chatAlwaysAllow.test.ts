import * as assert from 'node:assert/strict';
import { type ApprovalRequest, ruleToOffer, withCommandRules } from '../../../src/agent';
import { ChatApprovals } from '../../../src/extension/chat/approvals/chatApprovals';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { toolBench } from '../tools/toolHarness';

// "Always allow `npm test` in this workspace" on a command's approval card: the chat asks with the rule the
// command fits (its program and subcommand), and the answer keeps it through the policy's keeper, which the
// window gives (its workspaceState); an interpreter or a line of several programs offers none.

describe('chat approvals: Always allow a command in this workspace', function () {
  this.timeout(20_000);

  it('offers the command’s rule, and Always allow runs the call and keeps the rule', async () => {
    const bench = await toolBench({ 'a.txt': 'a\n' });
    const model = new ChatModel(
      () => undefined,
      () => Promise.resolve(undefined),
    );
    const approvals = new ChatApprovals({
      model,
      workspace: () => Promise.resolve(bench.workspace),
      approvalMode: () => 'ask',
      panelShown: () => true,
      askElsewhere: () => Promise.resolve(false),
      onAllowed: () => undefined,
    });
    const kept: string[] = [];
    const policy = withCommandRules(
      approvals.policy(),
      () => ({ allow: [], deny: [] }),
      (rule) => kept.push(rule),
    );
    const ask = async (callId: string, cmd: string) => {
      const input = JSON.stringify({ cmd });
      model.handle({ type: 'tool_started', turn: 1, callId, name: 'exec_command', kind: 'function', input });
      const request: ApprovalRequest = { callId, name: 'exec_command', effect: 'task', input };
      const answer = policy.approve(request);
      for (let i = 0; i < 50 && model.tool(callId)?.status !== 'approval'; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return { answer, rule: model.tool(callId)?.ask?.rule };
    };

    const first = await ask('c1', 'npm test -- --grep cart');
    assert.equal(first.rule, 'npm test');
    approvals.answer('c1', true, false, true);
    assert.equal(await first.answer, true);
    assert.deepEqual(kept, ['npm test']);

    const other = await ask('c2', "sh -c 'npm test'");
    assert.equal(other.rule, undefined, 'no rule for an interpreter');
    approvals.answer('c2', true, false, true);
    assert.equal(await other.answer, true);
    assert.deepEqual(kept, ['npm test'], 'nothing more kept');
  });

  it('the rule offered: program and subcommand, shared by every command that is not safe', () => {
    const unsafe = (...words: string[]) => ({ words, reason: 'not safe' });
    assert.equal(ruleToOffer([unsafe('npm', 'test', '--', 'x'), { words: ['rg', 'x'] }]), 'npm test');
    assert.equal(ruleToOffer([unsafe('npm', 'test'), unsafe('npm', 'test', '-w', 'a')]), 'npm test');
    assert.equal(ruleToOffer([unsafe('npm', 'test'), unsafe('rm', 'x')]), undefined);
    for (const words of [['rm', 'x'], ['make'], ['npm', '-w', 'a', 'test'], ['bash', 'x.sh'], ['./run', 'x']])
      assert.equal(ruleToOffer([unsafe(...words)]), undefined, words.join(' '));
    assert.equal(ruleToOffer(undefined), undefined, 'a line that is more than plain commands');
  });
});
