import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// A cloned repository whose .vscode/settings.json says `"loopwire.approval": "all"`, in the real workbench
// (src/extension/trust/approvalChoice.ts): the panel's picker stays on the user's Ask and its title says the
// workspace's value is not followed, a notification says so once (no modal), and a command the model runs
// waits for Allow / Skip. The picker's own choice is kept in the workspace's state, not in the repository's
// settings, and is in force after Developer: Reload Window. Screenshots in test-artifacts/workbench/approval/.

const APPROVAL_ARTIFACTS = path.join(ARTIFACTS, 'approval');
const PROMPT = 'Write ran.txt with a command.';

const SCENARIOS = {
  scenarios: [
    {
      name: 'write-ran',
      match: '^Write ran\\.txt with a command\\.$',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo ran > ran.txt' } }] },
        { output: [{ type: 'message', text: 'Tried to write ran.txt.' }] },
      ],
    },
  ],
};

describe('Loopwire in the VS Code workbench: a repository cannot loosen the approval mode', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-approval-'));
  const scenarioFile = path.join(scratch, 'scenarios.json');
  const settingsFile = () => path.join(workbench.workspace, '.vscode', 'settings.json');
  const ran = () => path.join(workbench.workspace, 'ran.txt');
  before(() => fs.writeFileSync(scenarioFile, JSON.stringify(SCENARIOS)));
  useWorkbench((started) => (workbench = started), {
    artifacts: APPROVAL_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      const settings = path.join(folder, '.vscode', 'settings.json');
      const current = JSON.parse(fs.readFileSync(settings, 'utf8')) as object;
      // What the repository says; the user's settings say ask (codeServer.ts).
      const repository = { ...current, 'loopwire.approval': 'all', 'loopwire.scenarioFiles': [scenarioFile] };
      fs.writeFileSync(settings, `${JSON.stringify(repository, null, 2)}\n`);
    },
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const picker = (panel: Frame) => panel.getByRole('combobox', { name: 'Approvals', exact: true });
  const toast = () =>
    workbench.page.locator('.notifications-toasts .notification-toast', { hasText: 'A repository cannot loosen' });

  async function send(panel: Frame, answers: number): Promise<void> {
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(PROMPT);
    await prompt.press('Enter');
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > answers ? true : undefined),
      60_000,
    );
  }

  it("stays on the user's Ask, says so once, and a command waits for Allow / Skip", async () => {
    const panel = await workbench.panel();
    const approvals = picker(panel);
    await until('the picker', async () => ((await approvals.isVisible()) ? true : undefined), 30_000);
    assert.equal(await approvals.inputValue(), 'ask');
    await until('the note in its title', async () =>
      /not followed/.test((await approvals.getAttribute('title')) ?? '') ? true : undefined,
    );
    assert.match((await approvals.getAttribute('title')) ?? '', /Approvals: Ask \(.*"all": not followed\)/);
    await toast().first().waitFor({ timeout: 30_000 });
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'no modal');
    await workbench.screenshot('workspace-all-told');

    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(PROMPT);
    await prompt.press('Enter');
    const card = panel.locator('.tool-card.status-approval');
    await card.waitFor({ timeout: 60_000 });
    assert.equal(fs.existsSync(ran()), false, 'nothing ran before the answer');
    await workbench.screenshot('workspace-all-asks', { sidebar: true });
    await card.getByRole('button', { name: 'Skip' }).click();
    await until('the answer', async () =>
      (await panel.locator('.entry.assistant:not(.streaming)', { hasText: 'Tried to write' }).count()) > 0
        ? true
        : undefined,
    );
    assert.equal(fs.existsSync(ran()), false, 'skipped: nothing ran');
  });

  it("the picker's choice is kept out of the repository's settings and holds after a reload", async () => {
    const before = fs.readFileSync(settingsFile(), 'utf8');
    let panel = await workbench.panel();
    await picker(panel).selectOption('read-only');
    await until('the picker on Read-only', async () =>
      (await picker(panel).inputValue()) === 'read-only' ? true : undefined,
    );
    assert.equal(fs.readFileSync(settingsFile(), 'utf8'), before, "the repository's settings are untouched");

    await workbench.reload();
    panel = await workbench.panel();
    await until('the picker on Read-only after the reload', async () =>
      (await picker(panel).inputValue()) === 'read-only' ? true : undefined,
    );
    await workbench.screenshot('reloaded-read-only', { sidebar: true });
    const answers = await panel.locator('.entry.assistant:not(.streaming)').count();
    await send(panel, answers);
    assert.equal(await panel.locator('.tool-card.status-approval').count(), 0, 'read-only declines unasked');
    assert.equal(fs.existsSync(ran()), false, 'declined: nothing ran');
    // Told once per workspace: not again in the reloaded window.
    assert.equal(await toast().count(), 0, 'not told again');
    await workbench.screenshot('reloaded-declined');
    assert.deepEqual(workbench.pageErrors, []);
  });
});
