import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Auto in the real workbench (issue 46), where this machine's sandbox works (bubblewrap): with no approval
// mode set, the composer's picker says Auto; a command runs in the sandbox without a card (its file written in
// the workspace, its /tmp its own); a command the model asks to run outside it shows the model's reason and
// Allow once / Always allow `npm install` / Decline, and Decline runs nothing. Screenshots go to
// test-artifacts/workbench/sandbox/.

const SANDBOX_ARTIFACTS = path.join(ARTIFACTS, 'sandbox');
const MARKER = `/tmp/loopwire-workbench-${process.pid}`;
const REASON = 'Install left-pad from the npm registry: the sandbox has no network.';

const SCENARIOS = {
  scenarios: [
    {
      name: 'run-in-sandbox',
      match: '^in the sandbox, run: (?<cmd>.+)$',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: '{{cmd}}' } }] },
        { output: [{ type: 'message', text: 'It ran.' }] },
      ],
    },
    {
      name: 'escalate',
      match: '^outside the sandbox, run: (?<cmd>.+)$',
      steps: [
        {
          output: [
            {
              type: 'function_call',
              name: 'exec_command',
              arguments: {
                cmd: '{{cmd}}',
                sandbox_permissions: 'require_escalated',
                justification: REASON,
                prefix_rule: ['npm', 'install'],
              },
            },
          ],
        },
        { output: [{ type: 'message', text: 'Left as it was.' }] },
      ],
    },
  ],
};

describe('Loopwire in the VS Code workbench: Auto, commands in the sandbox', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const requests = useWireLog();
  useWorkbench((started) => (workbench = started), {
    artifacts: SANDBOX_ARTIFACTS,
    // No approval mode of the user's: the default decides.
    userSettings: { 'loopwire.approval': undefined },
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'sandbox-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['sandbox-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });
  after(() => fs.rmSync(MARKER, { force: true }));

  async function send(prompt: string, answer: string): Promise<void> {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    await panel.locator('.entry.user .bubble', { hasText: prompt }).waitFor();
    if (answer !== '') await panel.locator('.entry.assistant:not(.streaming)', { hasText: answer }).waitFor();
  }

  it('the picker says Auto where nothing is set, and a command runs in the sandbox unasked', async () => {
    const panel = await workbench.panel();
    const approvals = panel.getByRole('combobox', { name: 'Approvals', exact: true });
    await until('the pickers', async () => ((await approvals.inputValue()) === 'auto' ? true : undefined), 30_000);
    assert.equal(await approvals.getAttribute('title'), 'Approvals: Auto');
    await workbench.screenshot('auto-default', { sidebar: true });

    await send(`in the sandbox, run: touch made-in-sandbox.txt ${MARKER}`, 'It ran.');
    assert.equal(await panel.locator('.tool-card.status-approval').count(), 0, 'no card asked');
    assert.ok(fs.existsSync(path.join(workbench.workspace, 'made-in-sandbox.txt')), 'written in the workspace');
    assert.ok(!fs.existsSync(MARKER), "the host's /tmp is not the sandbox's");
    // The model is offered the way out of the sandbox (only where there is one).
    const exec = requests()
      .flatMap((request) => request.tools ?? [])
      .find((tool) => tool.name === 'exec_command') as { parameters?: { properties?: object } } | undefined;
    assert.ok(exec?.parameters?.properties && 'sandbox_permissions' in exec.parameters.properties);
  });

  it('asking to leave the sandbox shows the command, the model’s reason, Allow once / Always allow / Decline', async () => {
    await send('outside the sandbox, run: npm install left-pad', '');
    const panel = await workbench.panel();
    const card = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    await card.waitFor({ timeout: 30_000 });
    assert.equal(
      await card.locator('.approval-action').first().textContent(),
      'Run outside the sandbox npm install left-pad',
    );
    assert.equal(await card.locator('.approval-reason').textContent(), `The model says: ${REASON}`);
    const buttons = await card.locator('.approval button').allTextContents();
    assert.deepEqual(
      buttons.map((text) => text.trim()),
      ['Allow once', 'Always allow npm install in this workspace', 'Decline'],
    );
    await workbench.screenshot('escalation-card', { sidebar: true });
    await card.locator('button[data-action="skip"]').click();
    await panel.locator('.entry.assistant:not(.streaming)', { hasText: 'Left as it was.' }).waitFor();
    assert.ok(!fs.existsSync(path.join(workbench.workspace, 'node_modules', 'left-pad')), 'nothing installed');
  });
});
