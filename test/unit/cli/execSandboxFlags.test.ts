import * as assert from 'node:assert/strict';
import { type ApprovalRequest, gateCall, policyFor, withCommandRules } from '../../../src/agent';
import { ExitCode } from '../../../src/cli/cliIo';
import { runCommandRules } from '../../../src/cli/commandRulesFile';
import { escalationRule } from '../../../src/cli/exec/execApprovals';
import { type ExecOptions, execOptions } from '../../../src/cli/exec/execOptions';
import { execHeader } from '../../../src/cli/exec/execRenderer';
import {
  type ExecHost,
  noSandboxNotice,
  processHost,
  sandboxLabel,
  sandboxReader,
} from '../../../src/cli/exec/execSandbox';
import type { SandboxSupport } from '../../../src/sandbox';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec`'s sandbox flags (issue 46, item 3): --approve auto, --sandbox with Codex's names,
// --allow-network; the default mode by terminal and sandbox (auto on a terminal where commands can be
// confined, ask where they cannot, read-only with no terminal); what the header and the one notice say, never
// a sandbox the machine lacks; and the allow rules a run keeps from "Always allow" reaching the gate. The
// terminal and the machine's support are given (ExecHost), so every case runs on any machine.

const BWRAP: SandboxSupport = { available: true, mechanism: 'bwrap', program: '/usr/bin/bwrap' };
const MISSING: SandboxSupport = {
  available: false,
  reason: 'bubblewrap (bwrap) is not installed.',
  hint: 'install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`)',
};

const host = (terminal: boolean, support: SandboxSupport): ExecHost => ({
  stdinTerminal: terminal,
  stderrTerminal: terminal,
  support: () => support,
});

function parse(argv: string[], on: ExecHost): { options: ExecOptions | ExitCode; stderr: string } {
  let stderr = '';
  const io = {
    stdout: () => undefined,
    stderr: (text: string) => void (stderr += text),
    readStdin: () => Promise.resolve(''),
  };
  return { options: execOptions([...argv, 'do it'], io, on), stderr };
}

function options(argv: string[], on: ExecHost): ExecOptions {
  const { options: parsed, stderr } = parse(argv, on);
  assert.ok(typeof parsed === 'object', stderr);
  return parsed;
}

describe('cli: loopwire exec --approve auto, --sandbox and --allow-network', () => {
  it('defaults to auto on a terminal where commands can be confined, ask where not, read-only without one', () => {
    assert.equal(options([], host(true, BWRAP)).approve, 'auto');
    assert.equal(options([], host(true, MISSING)).approve, 'ask');
    assert.equal(options([], host(false, BWRAP)).approve, 'read-only');
    assert.equal(options([], host(false, MISSING)).approve, 'read-only');
    // A terminal on stdin alone (stderr piped) is not one to ask on.
    const half: ExecHost = { stdinTerminal: true, stderrTerminal: false, support: () => BWRAP };
    assert.equal(options([], half).approve, 'read-only');
    assert.equal(options([], host(true, BWRAP)).approveDefaulted, true);
    assert.equal(options(['--approve', 'auto'], host(true, BWRAP)).approveDefaulted, false);
  });

  it('takes --approve auto without a terminal; --approve ask without one is still refused, naming auto', () => {
    assert.equal(options(['--approve', 'auto'], host(false, BWRAP)).approve, 'auto');
    assert.equal(options(['--approve', 'auto'], host(false, MISSING)).approve, 'auto');
    const { options: refused, stderr } = parse(['--approve', 'ask'], host(false, BWRAP));
    assert.equal(refused, ExitCode.usage);
    assert.match(stderr, /^loopwire exec: --approve ask needs a terminal to ask on, and stdin is not one/);
    assert.match(stderr, /--approve auto to run them in the sandbox/);
    const bad = parse(['--approve', 'sometimes'], host(true, BWRAP));
    assert.equal(bad.options, ExitCode.usage);
    assert.match(bad.stderr, /--approve must be auto, ask, all, read-only or plan, not 'sometimes'/);
  });

  it("--sandbox takes Codex's three names; anything else is bad usage in those words", () => {
    for (const mode of ['read-only', 'workspace-write', 'danger-full-access'] as const)
      assert.equal(options(['--sandbox', mode], host(false, BWRAP)).sandbox.chosen, mode);
    assert.equal(options([], host(false, BWRAP)).sandbox.chosen, undefined);
    const { options: bad, stderr } = parse(['--sandbox', 'x'], host(false, BWRAP));
    assert.equal(bad, ExitCode.usage);
    assert.match(
      stderr,
      /^loopwire exec: --sandbox must be read-only, workspace-write or danger-full-access, not 'x'\n/,
    );
    assert.match(stderr, /--sandbox POLICY/, 'the usage follows');
  });

  it('--allow-network lets confined commands reach the network; off by default', () => {
    const on = options(['--approve', 'auto', '--allow-network'], host(false, BWRAP));
    assert.deepEqual(sandboxReader(on.approve, on.sandbox)?.(), { mode: 'workspace-write', network: true });
    const off = options(['--approve', 'auto'], host(false, BWRAP));
    assert.deepEqual(sandboxReader(off.approve, off.sandbox)?.(), { mode: 'workspace-write', network: false });
  });

  it('the sandbox in force is the mode’s own unless --sandbox names another; none where the machine has none', () => {
    const reader = (argv: string[], support: SandboxSupport = BWRAP) => {
      const parsed = options(argv, host(false, support));
      return sandboxReader(parsed.approve, parsed.sandbox);
    };
    assert.deepEqual(reader(['--approve', 'read-only'])?.(), { mode: 'read-only', network: false });
    assert.deepEqual(reader(['--approve', 'plan'])?.(), { mode: 'read-only', network: false });
    assert.equal(reader(['--approve', 'all'])?.(), undefined, 'full access: nothing confined');
    assert.deepEqual(reader(['--approve', 'all', '--sandbox', 'workspace-write'])?.(), {
      mode: 'workspace-write',
      network: false,
    });
    assert.equal(reader(['--approve', 'auto', '--sandbox', 'danger-full-access'])?.(), undefined);
    // No reader at all where there is no sandbox: the model is offered no way out of one, and told of none.
    assert.equal(reader(['--approve', 'auto'], MISSING), undefined);
  });

  it('--sandbox naming a policy the machine cannot give is refused with why and how to get one', () => {
    const { options: refused, stderr } = parse(['--sandbox', 'workspace-write'], host(false, MISSING));
    assert.equal(refused, ExitCode.failed);
    assert.equal(
      stderr,
      'loopwire exec: --sandbox workspace-write needs an OS sandbox, and there is none here: bubblewrap (bwrap) is ' +
        'not installed. To have one, install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`). ' +
        'Without --sandbox, commands run unconfined.\n',
    );
    assert.equal(
      options(['--sandbox', 'danger-full-access'], host(false, MISSING)).sandbox.chosen,
      'danger-full-access',
    );
  });

  it('LOOPWIRE_SANDBOX=off is honoured by the process’s own host', () => {
    const before = process.env.LOOPWIRE_SANDBOX;
    process.env.LOOPWIRE_SANDBOX = 'off';
    try {
      const support = processHost().support();
      assert.equal(support.available, false);
      assert.match(support.available ? '' : support.reason, /LOOPWIRE_SANDBOX=off/);
    } finally {
      if (before === undefined) delete process.env.LOOPWIRE_SANDBOX;
      else process.env.LOOPWIRE_SANDBOX = before;
    }
  });
});

describe('cli: what exec says of its sandbox', () => {
  const choice = (support: SandboxSupport, more: { chosen?: 'read-only'; network?: boolean } = {}) => ({
    support,
    ...more,
  });

  it('the header names the sandbox in force, and never one the machine does not have', () => {
    assert.equal(sandboxLabel('auto', choice(BWRAP)), 'workspace-write (network off)');
    assert.equal(sandboxLabel('auto', choice(BWRAP, { network: true })), 'workspace-write (network on)');
    assert.equal(sandboxLabel('read-only', choice(BWRAP)), 'read-only (network off)');
    assert.equal(sandboxLabel('all', choice(BWRAP)), 'danger-full-access');
    assert.equal(sandboxLabel('all', choice(MISSING)), 'danger-full-access');
    assert.equal(sandboxLabel('auto', choice(MISSING)), 'none (bubblewrap (bwrap) is not installed)');
    const failing: SandboxSupport = {
      available: false,
      reason: 'bubblewrap (/usr/bin/bwrap) cannot make a sandbox here: setting up uid map: Permission denied',
    };
    assert.equal(sandboxLabel('ask', choice(failing)), 'none (bubblewrap (/usr/bin/bwrap) cannot make a sandbox here)');
    const header = execHeader({
      model: 'gpt-5.5',
      endpoint: 'embedded',
      transport: 'auto',
      approve: 'auto',
      sandbox: sandboxLabel('auto', choice(BWRAP)),
      workspace: '/w',
      resume: undefined,
      color: false,
    });
    assert.equal(
      header,
      'loopwire exec: gpt-5.5 on the embedded backend (transport auto), approvals auto, sandbox workspace-write (network off), in /w\n',
    );
  });

  it('says once why there is no sandbox and how to get one, only where the mode would have confined commands', () => {
    assert.equal(noSandboxNotice('auto', choice(BWRAP), false), undefined);
    assert.equal(noSandboxNotice('all', choice(MISSING), false), undefined, 'full access confines nothing anyway');
    const ask = noSandboxNotice('ask', choice(MISSING), true);
    assert.equal(
      ask,
      '(No sandbox for commands: bubblewrap (bwrap) is not installed. To have one, install bubblewrap ' +
        '(`apt install bubblewrap`, `dnf install bubblewrap`). Commands are not confined, so the approval mode ' +
        'is ask, not auto.)\n',
    );
    assert.match(noSandboxNotice('auto', choice(MISSING), false) ?? '', /auto asks before each edit and command/);
    assert.match(noSandboxNotice('read-only', choice(MISSING), true) ?? '', /only those the parser judges read-only/);
    const off: SandboxSupport = { available: false, reason: 'The sandbox is turned off by LOOPWIRE_SANDBOX=off.' };
    assert.doesNotMatch(noSandboxNotice('ask', choice(off), false) ?? '', /To have one/, 'no hint where none is known');
  });
});

describe('cli: an escalation allowed for the run', () => {
  const temp = useTempWorkspace({ 'a.txt': 'a\n' }, { prefix: 'exec-escalation-rule' });
  const escalated = (cmd: string, prefix: string[]) =>
    JSON.stringify({ cmd, sandbox_permissions: 'require_escalated', justification: 'Why not?', prefix_rule: prefix });
  const request = (input: string, keep = true): ApprovalRequest => ({
    callId: 'c1',
    name: 'exec_command',
    effect: 'task',
    input,
    escalation: {
      justification: 'Why not?',
      prefixRule: (JSON.parse(input) as { prefix_rule: string[] }).prefix_rule.join(' '),
    },
    ...(keep ? { keepRule: () => undefined } : {}),
  });

  it('offers the model’s prefix_rule where it names a program and covers every command of the line', async () => {
    const workspace = await NodeWorkspace.open(temp.dir);
    assert.equal(
      await escalationRule(request(escalated('npm install left-pad', ['npm', 'install'])), workspace),
      'npm install',
    );
    assert.equal(await escalationRule(request(escalated('touch /var/tmp/x', ['touch'])), workspace), 'touch');
    // An interpreter alone would let anything out; a bare npm any of its subcommands.
    assert.equal(await escalationRule(request(escalated('bash -c "curl x"', ['bash'])), workspace), undefined);
    assert.equal(await escalationRule(request(escalated('npm install', ['npm'])), workspace), undefined);
    // A rule that would not let this very line out is a decoy.
    assert.equal(await escalationRule(request(escalated('rm -rf /var/tmp/x', ['npm', 'test'])), workspace), undefined);
    assert.equal(await escalationRule(request(escalated('npm test && rm x', ['npm', 'test'])), workspace), undefined);
    // Nowhere to keep it: nothing offered.
    assert.equal(await escalationRule(request(escalated('touch /var/tmp/x', ['touch']), false), workspace), undefined);
  });

  it('a rule kept during the run lets a later escalation with that prefix out without asking', async () => {
    const workspace = await NodeWorkspace.open(temp.dir);
    const rules = runCommandRules(() => ({ allow: ['npm test'], deny: ['git push'] }));
    let asked = 0;
    const ask = () => {
      asked++;
      return Promise.resolve(false);
    };
    const policy = withCommandRules(
      policyFor('auto', ask, undefined, () => ({ mode: 'workspace-write', network: false })),
      rules.rules,
      rules.allow,
    );
    const input = escalated('touch /var/tmp/loopwire-never-run', ['touch']);
    assert.deepEqual(await gateCall(policy, 'exec_command', input, workspace), {
      ask: true,
      sandbox: undefined,
      escalation: { justification: 'Why not?', prefixRule: 'touch' },
    });
    rules.allow('touch');
    rules.allow('touch');
    assert.deepEqual(rules.rules(temp.dir), { allow: ['npm test', 'touch'], deny: ['git push'] });
    assert.deepEqual(await gateCall(policy, 'exec_command', input, workspace), { run: true, sandbox: undefined });
    assert.equal(asked, 0, 'the gate decided both without asking');
  });
});
