import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ComposerChoices, ToolEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';

// Auto in the panel, in real Chromium: a command the model asks to run outside the sandbox shows what runs,
// the model's reason apart from it (as text), and Allow once / Always allow its rule / Decline, with no "for
// this chat"; where this machine has no sandbox, the approval picker's Auto cannot be picked and says why.

const REASON = 'Install the dependencies from npm? <b>not markup</b>';

const escalation: ToolEntry = {
  kind: 'tool',
  id: 'call_up',
  turn: 1,
  name: 'exec_command',
  summary: 'npm install left-pad',
  status: 'approval',
  ask: {
    action: 'Run outside the sandbox `npm install left-pad`',
    detail: '$ npm install left-pad\n(in the workspace root)',
    effect: 'task',
    escalation: true,
    reason: REASON,
    rule: 'npm install',
  },
};

const CHOICES: ComposerChoices = {
  model: 'gpt-5.5',
  models: ['gpt-5.5'],
  effort: 'default',
  efforts: ['default', 'low'],
  approval: 'ask',
};

describe('chat panel in Chromium: Auto, leaving the sandbox', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('an escalation card: the command, the model’s reason, Allow once / Always allow / Decline', async () => {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'up', entries: [escalation], hasOlder: false, running: true, banner: null });
    await panel.delivered();
    const entry = panel.page.locator('.entry.tool[data-id="call_up"]');
    assert.equal(
      await entry.locator('.approval-action').first().textContent(),
      'Run outside the sandbox npm install left-pad',
    );
    assert.equal(
      await entry.locator('.approval-detail').textContent(),
      '$ npm install left-pad\n(in the workspace root)',
    );
    assert.equal(await entry.locator('.approval-reason').textContent(), `The model says: ${REASON}`);
    assert.equal(await entry.locator('.approval-reason b').count(), 0, 'the model’s words are text');
    const described: [string | null, string | null][] = [];
    for (const b of await entry.locator('.approval button').all())
      described.push([await b.getAttribute('data-action'), await b.textContent()]);
    assert.deepEqual(described, [
      ['allow', 'Allow once'],
      ['allow-always', 'Always allow npm install in this workspace'],
      ['skip', 'Decline'],
    ]);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-approval-escalation.png') });
    assert.deepEqual(await panel.postedBy(() => entry.locator('button[data-action="skip"]').click()), [
      { type: 'approval', callId: 'call_up', allow: false },
    ]);
    assert.deepEqual(await panel.problems(), []);
  });

  it('with no sandbox, Auto is in the picker but cannot be picked, and its title says why', async () => {
    const why = 'Commands cannot run in a sandbox here, so Auto is not available. bubblewrap (bwrap) is not installed.';
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'pick', entries: [], hasOlder: false, running: false, banner: null });
    panel.post({ type: 'choices', choices: { ...CHOICES, noSandbox: why } });
    await panel.delivered();
    const approvals = panel.page.getByRole('combobox', { name: 'Approvals', exact: true });
    const auto = approvals.locator('option[value="auto"]');
    assert.equal(await auto.textContent(), 'Auto (no sandbox here)');
    // The property, reflected: Playwright's isDisabled() does not read it on an <option>.
    const disabled = async () => (await auto.getAttribute('disabled')) !== null;
    assert.equal(await disabled(), true);
    assert.equal(await auto.getAttribute('title'), why);
    assert.equal(await approvals.locator('option:not([disabled])').count(), 4, 'ask, all, read-only and plan');
    // Where the sandbox works, Auto is an ordinary choice.
    panel.post({ type: 'choices', choices: { ...CHOICES, approval: 'auto' } });
    await panel.delivered();
    assert.equal(await approvals.inputValue(), 'auto');
    assert.equal(await disabled(), false);
    assert.equal(await auto.textContent(), 'Auto');
  });
});
