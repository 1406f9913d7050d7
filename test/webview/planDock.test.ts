import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import type { Plan } from '../../src/protocol/plan';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import type { Theme } from './panelServer';

// The task's plan in real Chromium: a checklist above the composer that the host's `plan` messages update in
// place (a folded plan stays folded), that a `state` brings back after a reload, and that hides with none.

const PLAN: Plan = {
  explanation: 'The discount is applied twice.',
  plan: [
    { step: 'Read the failing test', status: 'completed' },
    { step: 'Fix applyDiscount in src/cart.js', status: 'in_progress' },
    { step: 'Run the tests', status: 'pending' },
  ],
};

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Fix the failing test' },
  { kind: 'tool', id: 'c1', turn: 1, name: 'update_plan', summary: '1 of 3 done', status: 'done', durationMs: 1 },
  { kind: 'assistant', id: 'text:1', text: 'Working on the fix.', streaming: false },
];

describe('chat panel in Chromium: the plan above the composer', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(theme: Theme, plan?: Plan): Promise<Panel> {
    const panel = await chromium.open(theme);
    panel.post({
      type: 'state',
      sessionId: 'plan',
      entries: ENTRIES,
      hasOlder: false,
      running: false,
      banner: null,
      ...(plan ? { plan } : {}),
    });
    await panel.delivered();
    return panel;
  }

  const steps = (panel: Panel) => panel.page.locator('.plan-dock .plan-step-text').allInnerTexts();

  it('shows each step with its state, the explanation and the progress, between the chat and the composer', async () => {
    const panel = await panelWith('dark');
    const dock = panel.page.locator('.plan-dock');
    assert.equal(await dock.isVisible(), false, 'no plan, no checklist');
    panel.post({ type: 'plan', plan: PLAN });
    await panel.delivered();
    assert.equal(await dock.isVisible(), true);
    assert.equal((await dock.locator('.plan-summary').innerText()).replace(/\s+/g, ' ').trim(), 'Plan 1 of 3 done');
    assert.equal(await dock.locator('.plan-explanation').innerText(), 'The discount is applied twice.');
    assert.deepEqual(
      (await steps(panel)).map((text) => text.trim()),
      ['Read the failing test', 'Fix applyDiscount in src/cart.js', 'Run the tests'],
    );
    // A screen reader hears each step's state; the icons are hidden from it.
    assert.deepEqual(await dock.locator('.plan-step .visually-hidden').allTextContents(), [
      'Done: ',
      'In progress: ',
      'To do: ',
    ]);
    const classes = await Promise.all([0, 1, 2].map((i) => dock.locator('.plan-step').nth(i).getAttribute('class')));
    assert.deepEqual(classes, ['plan-step completed', 'plan-step in-progress', 'plan-step pending']);
    const [transcript, dockBox, composer] = await Promise.all([
      panel.page.locator('.transcript').boundingBox(),
      dock.boundingBox(),
      panel.page.locator('.composer').boundingBox(),
    ]);
    assert.ok(transcript && dockBox && composer);
    assert.ok(transcript.y + transcript.height <= dockBox.y + 1, 'under the conversation');
    assert.ok(dockBox.y + dockBox.height <= composer.y + 1, 'above the composer');
    assert.deepEqual(await panel.problems(), []);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-plan.png') });
  });

  it('updates in place: the same checklist, folded if the user folded it; null hides it', async () => {
    const panel = await panelWith('dark', PLAN);
    const dock = panel.page.locator('.plan-dock');
    await panel.page.evaluate("document.querySelector('.plan-dock').setAttribute('data-marked', 'yes')");
    await dock.locator('.plan-summary').click();
    assert.equal(await dock.getAttribute('open'), null);
    panel.post({
      type: 'plan',
      plan: { plan: PLAN.plan.map((step, index) => ({ ...step, status: index < 2 ? 'completed' : 'in_progress' })) },
    });
    await panel.delivered();
    assert.equal(await dock.getAttribute('data-marked'), 'yes', 'the same element, drawn again inside');
    assert.equal(await dock.getAttribute('open'), null, 'still folded');
    assert.match(await dock.locator('.plan-summary').innerText(), /2 of 3 done/);
    assert.equal(await dock.locator('.plan-explanation').isVisible(), false, 'no explanation this time');
    await dock.locator('.plan-summary').click();
    assert.deepEqual(await dock.locator('.plan-step.in-progress .plan-step-text').allInnerTexts(), ['Run the tests']);
    panel.post({ type: 'plan', plan: null });
    await panel.delivered();
    assert.equal(await dock.isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });

  it('comes back with the state after a reload, and a new chat without a plan hides it (light theme)', async () => {
    const panel = await panelWith('light', PLAN);
    assert.equal((await steps(panel)).length, 3);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-plan.png') });
    panel.post({ type: 'state', sessionId: 'new', entries: [], hasOlder: false, running: false, banner: null });
    await panel.delivered();
    assert.equal(await panel.page.locator('.plan-dock').isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });

  it('offers Implement after a plan-mode answer: it posts implement once and goes; Plan is an approval choice', async () => {
    const panel = await panelWith('dark');
    panel.post({
      type: 'choices',
      choices: { model: 'gpt-5.5', models: ['gpt-5.5'], effort: 'default', efforts: ['default'], approval: 'plan' },
    });
    panel.post({ type: 'plan', plan: PLAN, implement: true });
    await panel.delivered();
    const approvals = panel.page.getByRole('combobox', { name: 'Approvals', exact: true });
    assert.equal(await approvals.inputValue(), 'plan');
    assert.deepEqual(await approvals.locator('option').allTextContents(), [
      'Auto',
      'Ask',
      'Run all',
      'Read-only',
      'Plan',
    ]);
    const implement = panel.page.getByRole('button', { name: 'Implement' });
    assert.equal(await implement.isVisible(), true);
    const [bar, composer] = await Promise.all([
      panel.page.locator('.plan-implement').boundingBox(),
      panel.page.locator('.composer').boundingBox(),
    ]);
    assert.ok(bar && composer && bar.y + bar.height <= composer.y + 1, 'above the composer, under the plan');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-plan-implement.png') });
    assert.deepEqual(await panel.postedBy(() => implement.click()), [{ type: 'implement' }]);
    assert.equal(await implement.isVisible(), false);
    // The host's next plan message says whether it is still offered (a state after a reload too).
    panel.post({ type: 'plan', plan: PLAN });
    await panel.delivered();
    assert.equal(await implement.isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });
});
