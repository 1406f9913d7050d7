import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Saying when a task needs the user (issue 38, item 5), in the real workbench with `loopwire.approval: ask`:
// the panel hidden behind the Explorer while a command waits for approval brings one notification with
// Show and a badge on the Loopwire activity-bar item, and nothing moves (the Explorer stays); Show brings the
// panel with the waiting card. A task that finishes while the panel is hidden says so too. The model answers
// late (a workspace scenario file with a stall, let go once the panel is hidden), so that it is hidden by then.
// Screenshots go to test-artifacts/workbench/notifications/.

const NOTIFY_ARTIFACTS = path.join(ARTIFACTS, 'notifications');
/**
 * The model answers once the test has hidden the panel (it writes the scenario's release file), this at most:
 * a fixed delay had to be sized for the slowest machine.
 */
const LATE_MS = 120_000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-notify-'));
const release = (name: string) => path.join(scratch, `release-${name}`);

const SCENARIOS = {
  scenarios: [
    {
      name: 'run-later',
      match: '^later, run: (?<cmd>.+)$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 1, ms: LATE_MS, until_file: release('run-later') },
          output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: '{{cmd}}' } }],
        },
        { output: [{ type: 'message', text: 'It ran.' }] },
      ],
    },
    {
      name: 'answer-later',
      match: '^answer later$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 1, ms: LATE_MS, until_file: release('answer-later') },
          output: [{ type: 'message', text: 'Here is the answer, later.' }],
        },
      ],
    },
  ],
};

describe('Loopwire in the VS Code workbench: notifications when a task needs the user', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  useWorkbench((started) => (workbench = started), {
    artifacts: NOTIFY_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'late-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['late-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });

  const toast = (text: string): Locator =>
    workbench.page.locator('.notifications-toasts .notification-toast', { hasText: text });
  const loopwireItem = () =>
    workbench.page.locator('.part.activitybar .action-item:has(a.action-label[aria-label^="Loopwire"])').first();
  const sidebarTitle = () => workbench.page.locator('.part.sidebar .composite.title h2').first();

  /** Sends `prompt` from the panel, then hides the panel behind the Explorer before the model (`scenario`) answers. */
  async function sendAndLookAway(prompt: string, scenario: string): Promise<void> {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    await panel.locator('.entry.user .bubble', { hasText: prompt }).waitFor();
    await workbench.page.locator('.part.activitybar a.action-label[aria-label^="Explorer"]').first().click();
    await until('the Explorer in the side bar', async () =>
      /explorer/i.test((await sidebarTitle().textContent()) ?? '') ? true : undefined,
    );
    fs.writeFileSync(release(scenario), '');
  }

  it('a command waiting for approval behind the Explorer: one notification with Show, a badge; Show brings the card', async () => {
    await sendAndLookAway('later, run: echo hi', 'run-later');
    const notice = toast('Loopwire is waiting for your approval: Run command');
    await notice.waitFor({ timeout: 30_000 });
    assert.match((await notice.textContent()) ?? '', /Run command echo hi/);
    const badge = loopwireItem().locator('.badge .badge-content');
    await until('the badge on the Loopwire item', async () =>
      ((await badge.textContent().catch(() => '')) ?? '').trim() === '1' ? true : undefined,
    );
    // Nothing moved: the Explorer is still what the side bar shows, and one notification came.
    assert.match((await sidebarTitle().textContent()) ?? '', /explorer/i);
    assert.equal(await toast('Loopwire').count(), 1, 'one notification');
    await workbench.screenshot('approval-notification');

    await notice.getByRole('button', { name: 'Show' }).click();
    await until('the Loopwire view again', async () =>
      /loopwire/i.test((await sidebarTitle().textContent()) ?? '') ? true : undefined,
    );
    const panel = await workbench.panel();
    const card = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await toast('Loopwire is waiting').count(), 0, 'the clicked notification is gone');
    await workbench.screenshot('approval-shown');

    await card.locator('button[data-action="allow"]').click();
    await panel.locator('.entry.assistant:not(.streaming)', { hasText: 'It ran.' }).waitFor({ timeout: 30_000 });
    // VS Code hides the badge's element rather than removing it.
    await until('no badge once answered', async () => ((await badge.isVisible()) ? undefined : true));
    assert.equal(await toast('Loopwire finished').count(), 0, 'the panel showed the end: nothing to say');
  });

  it('a task that finishes behind the Explorer says so once; Show brings its answer', async () => {
    await sendAndLookAway('answer later', 'answer-later');
    const notice = toast('Loopwire finished “answer later”.');
    await notice.waitFor({ timeout: 30_000 });
    assert.equal(await toast('Loopwire finished').count(), 1, 'one notification');
    await workbench.screenshot('finished-notification');
    await notice.getByRole('button', { name: 'Show' }).click();
    const panel = await workbench.panel();
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'Here is the answer, later.' })
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(workbench.pageErrors, []);
  });
});
