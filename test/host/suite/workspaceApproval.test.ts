import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually, fixture, loopwire, spiesReachTheExtension, writeFixture } from './support';

// A repository's .vscode/settings.json is a stranger's input: its `"loopwire.approval": "all"` must not let a
// command run unasked (src/extension/trust/approvalChoice.ts). It is told once, without a modal; a stricter value is
// in force and says so; the user's pick (Loopwire: Choose Approval Mode…, as the composer's picker) is kept in
// the workspace's state, not in its settings. This file runs last of the folder window's suites: it leaves a
// pick in the workspace's state, which would come before the user settings the others set.

const SCENARIO = {
  scenarios: [
    {
      name: 'approval-write',
      match: 'approval: write ran',
      steps: [
        {
          output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo ran > approval/ran.txt' } }],
        },
        { output: [{ type: 'message', text: 'Tried to write it.' }] },
      ],
    },
  ],
};

interface Shown {
  message: string;
  modal: boolean;
}

type Item = vscode.QuickPickItem & { value?: string };

describe('approval mode: a workspace may make it stricter, never looser', function () {
  this.timeout(60_000);
  const ran = () => path.join(fixture(), 'approval', 'ran.txt');
  const config = () => vscode.workspace.getConfiguration('loopwire');
  const window = vscode.window as unknown as {
    showWarningMessage: (message: string, ...rest: unknown[]) => Thenable<unknown>;
    showQuickPick: (items: readonly Item[], options?: unknown) => Thenable<unknown>;
  };
  const { showWarningMessage, showQuickPick } = window;
  const shown: Shown[] = [];
  /** What the next quick pick answers: the item of that mode, or nothing (dismissed). */
  let pick: string | undefined;
  let offered: readonly Item[] = [];
  /** How the spy answers a warning (every modal no, by default: the call's approval, an allow). */
  let answer: (message: string, modal: boolean) => string | undefined = () => undefined;

  before(async function () {
    // Every answer here is the spy's: beside an unpacked .vsix it cannot reach the extension.
    if (!spiesReachTheExtension()) this.skip();
    window.showWarningMessage = (message, ...rest) => {
      const first = rest[0];
      const modal = typeof first === 'object' && first !== null && (first as { modal?: unknown }).modal === true;
      shown.push({ message, modal });
      return Promise.resolve(answer(message, modal));
    };
    window.showQuickPick = (items) => {
      offered = items;
      return Promise.resolve(items.find((item) => item.value === pick));
    };
    await writeFixture('approval/scenario.json', JSON.stringify(SCENARIO));
    await config().update('scenarioFiles', ['approval/scenario.json'], vscode.ConfigurationTarget.Workspace);
    // The user's own mode is ask (where a sandbox works the default would be auto, which runs a command
    // unasked in the sandbox: the repository's all must be refused against the user's choice either way).
    await config().update('approval', 'ask', vscode.ConfigurationTarget.Global);
    // What a cloned repository's .vscode/settings.json says.
    await config().update('approval', 'all', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    window.showWarningMessage = showWarningMessage;
    window.showQuickPick = showQuickPick;
    await config().update('approval', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('approval', undefined, vscode.ConfigurationTarget.Global);
    await config().update('scenarioFiles', undefined, vscode.ConfigurationTarget.Workspace);
    await fs.rm(path.join(fixture(), 'approval'), { recursive: true, force: true });
  });

  const asks = () => shown.filter((entry) => entry.modal && /exec_command/.test(entry.message));
  const told = () => shown.filter((entry) => /looser than yours/.test(entry.message));

  async function choose(mode: string): Promise<void> {
    pick = mode;
    await vscode.commands.executeCommand('loopwire.chooseApproval');
    pick = undefined;
  }

  it("a workspace's all lets no command run unasked; the user is told once, without a modal", async () => {
    const api = await loopwire();
    const first = await api.agent.run('approval: write ran');
    assert.equal(first.ok, true, first.text);
    assert.equal(asks().length, 1, `the command was asked about (${JSON.stringify(shown)})`);
    await assert.rejects(fs.access(ran()), 'the declined command did not run');
    assert.equal(told().length, 1, `told once (${JSON.stringify(shown)})`);
    assert.equal(told()[0]?.modal, false, 'a notification, not a modal');
    assert.match(told()[0]?.message ?? '', /"all".*"ask"/);

    await api.agent.run('approval: write ran');
    assert.equal(asks().length, 2, 'asked again: the workspace still does not loosen it');
    assert.equal(told().length, 1, 'not told again in this workspace');
    await assert.rejects(fs.access(ran()));
  });

  it('a stricter workspace value is in force and says so in the pick', async () => {
    await config().update('approval', 'read-only', vscode.ConfigurationTarget.Workspace);
    await choose('none: dismissed');
    const readOnly = offered.find((item) => item.value === 'read-only');
    assert.match(readOnly?.description ?? '', /workspace/, JSON.stringify(offered));
    const before = asks().length;
    const api = await loopwire();
    assert.equal((await api.agent.run('approval: write ran')).ok, true);
    assert.equal(asks().length, before, 'read-only declines without asking');
    await assert.rejects(fs.access(ran()));
  });

  it("the user's pick is kept in the workspace's state, not its settings, and is in force", async () => {
    const api = await loopwire();
    await config().update('approval', undefined, vscode.ConfigurationTarget.Workspace);
    await choose('all');
    const inspected = config().inspect('approval');
    assert.equal(inspected?.workspaceValue, undefined, 'nothing written to .vscode/settings.json');
    assert.equal(inspected?.globalValue, 'ask', "nor to the user's settings");
    const before = asks().length;
    assert.equal((await api.agent.run('approval: write ran')).ok, true);
    assert.equal(asks().length, before, 'the pick runs it unasked');
    assert.equal((await fs.readFile(ran(), 'utf8')).trim(), 'ran');
    await fs.rm(ran());

    // The repository's all again, under the user's pick of ask: the pick holds.
    await config().update('approval', 'all', vscode.ConfigurationTarget.Workspace);
    await choose('ask');
    await api.agent.run('approval: write ran');
    assert.equal(asks().length, before + 1, 'asked, as the user picked');
    await assert.rejects(fs.access(ran()));
  });

  it('a looser workspace value is followed once the user allows it, behind a second, modal yes', async () => {
    answer = (message, modal) =>
      modal
        ? /^Follow this workspace's approval mode "ask"\?$/.test(message)
          ? 'Allow'
          : undefined
        : /looser than yours/.test(message)
          ? 'Allow for This Workspace…'
          : undefined;
    await choose('read-only');
    // Another value than the one told about: told again (keyed on the value).
    await config().update('approval', 'ask', vscode.ConfigurationTarget.Workspace);
    // The pick reads the mode in force, which says so (a panel showing would too).
    await choose('none: dismissed');
    await eventually(() => shown.some((entry) => entry.modal && /^Follow this workspace/.test(entry.message)), {
      message: 'the modal yes asked for',
    });
    assert.equal(told().length, 2, 'told about "ask" too');
    await eventually(
      async () => {
        await choose('none: dismissed');
        return /workspace/.test(offered.find((item) => item.value === 'ask')?.description ?? '');
      },
      { message: "ask in force, from the workspace's settings", intervalMs: 100 },
    );
    const before = asks().length;
    await (await loopwire()).agent.run('approval: write ran');
    assert.equal(asks().length, before + 1, 'the allowed ask asks');
    await assert.rejects(fs.access(ran()));
  });

  it("a pick looser than the workspace's stricter value offers, in a modal, to remove that value", async () => {
    const info = vscode.window as unknown as {
      showInformationMessage: (message: string, ...rest: unknown[]) => Thenable<unknown>;
    };
    const { showInformationMessage } = info;
    const offers: string[] = [];
    info.showInformationMessage = (message, ...rest) => {
      offers.push(message);
      const modal = (rest[0] as { modal?: unknown } | undefined)?.modal === true;
      return Promise.resolve(modal && /stays in force/.test(message) ? 'Remove It' : undefined);
    };
    try {
      await config().update('approval', 'read-only', vscode.ConfigurationTarget.Workspace);
      await choose('ask');
      assert.equal(offers.length, 1, offers.join(' | '));
      assert.match(offers[0] ?? '', /"read-only", stricter than "ask"/);
      assert.equal(config().inspect('approval')?.workspaceValue, undefined, "removed from the workspace's settings");
      await choose('none: dismissed');
      const ask = offered.find((item) => item.value === 'ask');
      assert.ok(ask?.description !== undefined && !/workspace/.test(ask.description), JSON.stringify(offered));
    } finally {
      info.showInformationMessage = showInformationMessage;
    }
  });
});
