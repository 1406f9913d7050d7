import * as assert from 'node:assert/strict';
import { type ApprovalMode, type ApprovalRequest, withCommandRules } from '../../../src/agent';
import { ChatApprovals } from '../../../src/extension/chat/approvals/chatApprovals';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import type { SandboxFor } from '../../../src/extension/trust/windowSandbox';
import { toolBench } from '../tools/toolHarness';

// The chat's approvals in Auto (chat/approvals/chatApprovals.ts): calls that stay in the sandbox run unasked; a command
// the model asks to run outside it is asked on its card with the model's reason and its rule (Allow once,
// Always allow the prefix, Decline), and "for this chat" never lets one out; an edit of .git or .vscode asks as
// any edit does. The sandbox is a stand-in here: where it is given, and only there, the policy has one.

/** A machine with a sandbox: workspace-write for every mode but `all`, as src/agent/approvals/callSandbox.ts says. */
const sandboxed: SandboxFor = (mode) => () =>
  mode() === 'all' ? undefined : { mode: 'workspace-write', network: false };

async function chat(mode: ApprovalMode, sandbox: SandboxFor | undefined) {
  const bench = await toolBench({ 'a.txt': 'a\n' });
  const model = new ChatModel(
    () => undefined,
    () => Promise.resolve(undefined),
  );
  const approvals = new ChatApprovals({
    model,
    workspace: () => Promise.resolve(bench.workspace),
    approvalMode: () => mode,
    sandbox,
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
  /** Asks the policy about a call; `asked`: whether its card waits (else the answer came unasked). */
  const ask = async (callId: string, name: string, effect: 'task' | 'write', args: object, extra = {}) => {
    const input = JSON.stringify(args);
    model.handle({ type: 'tool_started', turn: 1, callId, name, kind: 'function', input });
    const request: ApprovalRequest = { callId, name, effect, input, ...extra };
    const answer = policy.approve(request);
    let settled = false;
    void answer.then(() => (settled = true));
    for (let i = 0; i < 200 && !settled && model.tool(callId)?.status !== 'approval'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return { answer, asked: !settled, card: model.tool(callId)?.ask };
  };
  return { approvals, policy, kept, ask };
}

describe('chat approvals in Auto: leaving the sandbox, protected folders', function () {
  this.timeout(20_000);

  it('a policy has a sandbox only where the machine has one', async () => {
    assert.deepEqual((await chat('auto', sandboxed)).policy.sandbox?.(), { mode: 'workspace-write', network: false });
    assert.ok(!('sandbox' in (await chat('auto', undefined)).policy), 'no sandbox claimed');
  });

  it('runs what stays in the sandbox unasked, and asks to leave it with the reason and the model’s rule', async () => {
    const { approvals, kept, ask } = await chat('auto', sandboxed);
    const plain = await ask('c0', 'exec_command', 'task', { cmd: 'npm install' });
    assert.equal(plain.asked, false);
    assert.equal(await plain.answer, true);

    const cmd = { cmd: 'npm install left-pad', sandbox_permissions: 'require_escalated' };
    const args = { ...cmd, justification: 'Install the dependencies from npm?', prefix_rule: ['npm', 'install'] };
    const escalation = { justification: 'Install the dependencies from npm?', prefixRule: 'npm install' };
    const first = await ask('c1', 'exec_command', 'task', args, { escalation });
    assert.equal(first.asked, true);
    assert.deepEqual(first.card, {
      action: 'Run outside the sandbox `npm install left-pad`',
      detail: '$ npm install left-pad\n(in the workspace root)',
      effect: 'task',
      escalation: true,
      reason: 'Install the dependencies from npm?',
      rule: 'npm install',
    });
    approvals.answer('c1', true, false, true);
    assert.equal(await first.answer, true);
    assert.deepEqual(kept, ['npm install'], 'Always allow keeps the model’s prefix');

    // "For this chat" on an escalation allows this one only, and lets no later one out.
    const second = await ask('c2', 'exec_command', 'task', args, { escalation });
    approvals.answer('c2', true, true);
    assert.equal(await second.answer, true);
    assert.deepEqual(approvals.allowed, []);
    const third = await ask('c3', 'exec_command', 'task', args, { escalation });
    assert.equal(third.asked, true, 'asked again');
    approvals.answer('c3', false, false);
    assert.equal(await third.answer, false);
  });

  it('an edit of .git or .vscode asks as any edit does; one elsewhere runs', async () => {
    const { approvals, ask } = await chat('auto', sandboxed);
    const patch = { input: '*** Begin Patch\n*** Update File: .git/config\n*** End Patch' };
    const git = await ask('e1', 'apply_patch', 'write', patch, { paths: ['.git/config'] });
    assert.equal(git.asked, true);
    assert.equal(git.card?.effect, 'write');
    assert.equal(git.card?.escalation, undefined);
    approvals.answer('e1', false, false);
    assert.equal(await git.answer, false);
    const vscode = await ask('e2', 'apply_patch', 'write', patch, { paths: ['sub/.vscode/tasks.json'] });
    assert.equal(vscode.asked, true);
    approvals.answer('e2', true, false);
    assert.equal(await vscode.answer, true);
    const src = await ask('e3', 'apply_patch', 'write', patch, { paths: ['src/a.ts'] });
    assert.equal(src.asked, false);
    assert.equal(await src.answer, true);
  });

  it('with no sandbox, Auto confines nothing and so asks about every call, as Ask does', async () => {
    const { approvals, ask } = await chat('auto', undefined);
    const plain = await ask('n1', 'exec_command', 'task', { cmd: 'npm install' });
    assert.equal(plain.asked, true);
    approvals.answer('n1', false, false);
    assert.equal(await plain.answer, false);
  });
});
