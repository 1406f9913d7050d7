import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry, HandoffOffer } from '../../src/protocol/chatView';
import { blocking, runAxe, tally } from './axe';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import type { Theme } from './panelServer';

// A custom agent's handoffs in real Chromium: after its task completed, a row of buttons under the answer
// (the host's `handoffs` message), each labelled and reachable with the keyboard; a click posts that handoff
// (its index and label) once and the row goes; a new state or an empty list takes it away.

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Plan the discount fix' },
  {
    kind: 'assistant',
    id: 'text:1',
    text: '1. Read cart.js\n2. Fix applyDiscount\n3. Run the tests',
    streaming: false,
  },
];

const OFFERS: HandoffOffer[] = [
  { label: 'Start Implementation', agent: 'Implementer', prompt: 'Implement the plan above.', send: true },
  { label: 'Review the plan', agent: 'reviewer', prompt: 'Review this plan.', model: 'gpt-5.2' },
  { label: 'Back to Loopwire', agent: 'Loopwire' },
];

describe('chat panel in Chromium: a custom agent’s handoffs under the answer', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(theme: Theme, offers: HandoffOffer[]): Promise<Panel> {
    const panel = await chromium.open(theme);
    panel.post({ type: 'state', sessionId: 'h', entries: ENTRIES, hasOlder: false, running: false, banner: null });
    panel.post({ type: 'handoffs', handoffs: offers });
    await panel.delivered();
    return panel;
  }

  const bar = (panel: Panel) => panel.page.getByRole('group', { name: 'Hand off to another agent' });

  it('says on a handoff to ask or plan that its prompt alone goes read-only or in plan mode', async () => {
    const panel = await panelWith('light', [
      { label: 'Plan it', agent: 'Loopwire', prompt: 'Plan the fix.', mode: 'plan', send: true },
      { label: 'Ask', agent: 'Loopwire', mode: 'read-only' },
    ]);
    const buttons = bar(panel).getByRole('button');
    assert.equal(
      await buttons.nth(0).getAttribute('title'),
      'Switch to Loopwire in plan mode (this prompt only) and send: Plan the fix.',
    );
    assert.equal(await buttons.nth(1).getAttribute('title'), 'Switch to Loopwire, read-only (this prompt only)');
    assert.deepEqual(
      [await buttons.nth(0).getAttribute('data-mode'), await buttons.nth(1).getAttribute('data-mode')],
      ['plan', 'read-only'],
    );
  });

  it('shows one labelled button per handoff, under the conversation and above the composer', async () => {
    const panel = await panelWith('dark', OFFERS);
    assert.equal(await bar(panel).isVisible(), true);
    const buttons = bar(panel).getByRole('button');
    assert.deepEqual(await buttons.allInnerTexts(), ['Start Implementation', 'Review the plan', 'Back to Loopwire']);
    assert.equal(
      await buttons.nth(0).getAttribute('title'),
      'Switch to Implementer and send: Implement the plan above.',
    );
    assert.equal(await buttons.nth(1).getAttribute('title'), 'Switch to reviewer (gpt-5.2) with: Review this plan.');
    assert.equal(await buttons.nth(2).getAttribute('title'), 'Switch to Loopwire');
    const [transcript, row, composer] = await Promise.all([
      panel.page.locator('.transcript').boundingBox(),
      panel.page.locator('.handoffs').boundingBox(),
      panel.page.locator('.composer').boundingBox(),
    ]);
    assert.ok(transcript && row && composer);
    assert.ok(transcript.y + transcript.height <= row.y + 1, 'under the conversation');
    assert.ok(row.y + row.height <= composer.y + 1, 'above the composer');
    const results = await runAxe(panel.page, 'handoffs');
    const found = blocking(results);
    assert.ok(found.length === 0, `axe (${tally(results)}):\n${found.join('\n')}`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-handoffs.png') });
    assert.deepEqual(await panel.problems(), []);
  });

  it('a click (or Enter on a focused button) posts that handoff once; the row goes', async () => {
    const panel = await panelWith('light', OFFERS);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-handoffs.png') });
    const second = bar(panel).getByRole('button', { name: 'Review the plan' });
    await second.focus();
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Enter')), [
      { type: 'handoff', index: 1, label: 'Review the plan' },
    ]);
    assert.equal(await bar(panel).isVisible(), false, 'the buttons go at once');
    panel.post({ type: 'handoffs', handoffs: OFFERS });
    await panel.delivered();
    assert.deepEqual(
      await panel.postedBy(() => bar(panel).getByRole('button', { name: 'Start Implementation' }).click()),
      [{ type: 'handoff', index: 0, label: 'Start Implementation' }],
    );
    assert.deepEqual(await panel.problems(), []);
  });

  it('goes with an empty list (a task started) and with a new state (another chat)', async () => {
    const panel = await panelWith('dark', OFFERS);
    panel.post({ type: 'handoffs', handoffs: [] });
    await panel.delivered();
    assert.equal(await bar(panel).isVisible(), false);
    panel.post({ type: 'handoffs', handoffs: OFFERS.slice(0, 1) });
    await panel.delivered();
    assert.equal(await bar(panel).getByRole('button').count(), 1);
    panel.post({ type: 'state', sessionId: 'other', entries: [], hasOlder: false, running: false, banner: null });
    await panel.delivered();
    assert.equal(await bar(panel).isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });
});
