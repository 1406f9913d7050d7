import * as assert from 'node:assert/strict';
import {
  type ApprovalMode,
  type CommandRules,
  NO_COMMAND_RULES,
  gateCall,
  impliedSandbox,
  policyFor,
  sandboxInForce,
} from '../../../src/agent';
import type { SandboxPolicy, SandboxSupport } from '../../../src/sandbox';
import type { Workspace } from '../../../src/workspace';
import { toolBench } from '../tools/toolHarness';

// Which sandbox each command runs in, and who is asked (src/agent/approvals/callGate.ts, callSandbox.ts): the table of
// modes × (a read, a command that does more, one the model asks to run outside the sandbox), with a sandbox
// in force and without one, and the user's rules over all of it.

const WRITE: SandboxPolicy = { mode: 'workspace-write', network: false };
const READ: SandboxPolicy = { mode: 'read-only', network: false };
const HERE: SandboxSupport = { available: true, mechanism: 'bwrap', program: '/usr/bin/bwrap' };
const NONE: SandboxSupport = { available: false, reason: 'turned off for the test' };

const call = (cmd: string, extra: Record<string, unknown> = {}) => JSON.stringify({ cmd, ...extra });
const escalated = (cmd: string) =>
  call(cmd, { sandbox_permissions: 'require_escalated', justification: 'Fetch?', prefix_rule: ['git', 'fetch'] });

describe('call gate: the sandbox each command runs in, and who is asked', function () {
  this.timeout(20_000);
  let workspace: Workspace;
  before(async () => {
    workspace = (await toolBench({ 'README.md': '# readme\n' })).workspace;
  });
  const gate = (
    mode: ApprovalMode,
    input: string,
    options: { support?: SandboxSupport; rules?: CommandRules } = {},
  ) => {
    const support = options.support ?? HERE;
    const sandbox = support.available ? () => sandboxInForce(mode, { support }) : undefined;
    const rules = options.rules ?? NO_COMMAND_RULES;
    const policy = policyFor(
      mode,
      () => Promise.resolve(false),
      () => rules,
      sandbox,
    );
    return gateCall(policy, 'exec_command', input, workspace);
  };

  it('each mode implies its policy, and no sandbox here means none at all', () => {
    assert.deepEqual((['read-only', 'plan', 'ask', 'auto', 'all'] as const).map(impliedSandbox), [
      'read-only',
      'read-only',
      'workspace-write',
      'workspace-write',
      'danger-full-access',
    ]);
    assert.deepEqual(sandboxInForce('auto', { support: HERE }), WRITE);
    assert.deepEqual(sandboxInForce('auto', { support: HERE, network: true }), { ...WRITE, network: true });
    assert.equal(sandboxInForce('all', { support: HERE }), undefined);
    assert.deepEqual(sandboxInForce('all', { support: HERE, chosen: 'workspace-write' }), WRITE);
    for (const mode of ['read-only', 'ask', 'auto'] as const)
      assert.equal(sandboxInForce(mode, { support: NONE }), undefined);
  });

  it('auto: a command runs in workspace-write unasked; leaving the sandbox is asked and runs unconfined', async () => {
    assert.deepEqual(await gate('auto', call('npm test')), { run: true, sandbox: WRITE });
    assert.deepEqual(await gate('auto', escalated('git fetch origin')), {
      ask: true,
      sandbox: undefined,
      escalation: { justification: 'Fetch?', prefixRule: 'git fetch' },
    });
    // The prefix the user allowed for good runs outside without asking.
    const rules = { allow: ['git fetch'], deny: [] };
    assert.deepEqual(await gate('auto', escalated('git fetch origin'), { rules }), { run: true, sandbox: undefined });
  });

  it('auto without a sandbox asks as ask does: nothing is confined, so nothing runs unasked but reads', async () => {
    assert.deepEqual(await gate('auto', call('npm test'), { support: NONE }), { ask: true, sandbox: undefined });
    assert.deepEqual(await gate('auto', call('ls'), { support: NONE }), { run: true, sandbox: undefined });
    // An escalation means nothing where there is no sandbox to leave: it is asked as any command.
    assert.deepEqual(await gate('auto', escalated('git fetch'), { support: NONE }), { ask: true, sandbox: undefined });
  });

  it('ask: a read runs in read-only unasked, another command is asked and runs in the sandbox', async () => {
    assert.deepEqual(await gate('ask', call('ls')), { run: true, sandbox: READ });
    assert.deepEqual(await gate('ask', call('npm test')), { ask: true, sandbox: WRITE });
    assert.deepEqual(await gate('ask', call('npm test'), { rules: { allow: ['npm test'], deny: [] } }), {
      run: true,
      sandbox: WRITE,
    });
    assert.equal((await gate('ask', escalated('git fetch')))?.sandbox, undefined);
  });

  it('read-only and plan: reads run in the read-only sandbox, the rest (an escalation too) is declined', async () => {
    for (const mode of ['read-only', 'plan'] as const) {
      assert.deepEqual(await gate(mode, call('ls')), { run: true, sandbox: READ });
      for (const input of [call('npm test'), escalated('git fetch')]) {
        const decided = await gate(mode, input);
        assert.ok(decided && 'run' in decided && !decided.run, `${mode} ${input}`);
      }
    }
  });

  it('all: everything runs, in the sandbox the user chose (none by default); deny rules refuse in every mode', async () => {
    assert.deepEqual(await gate('all', call('npm test')), { run: true, sandbox: undefined });
    const rules = { allow: [], deny: ['git push'] };
    for (const mode of ['all', 'auto', 'ask'] as const) {
      const decided = await gate(mode, escalated('git push origin main'), { rules });
      assert.ok(decided && 'run' in decided && !decided.run && decided.rule === 'git push', mode);
    }
  });
});
