import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ViewMessage } from '../../src/protocol/chatView';
import type { QueuedPrompt } from '../../src/protocol/promptQueue';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The queued prompts above the composer, in the real panel page: each chip's buttons post exactly the
// message for what the user did; Edit works in place (Enter saves, Escape leaves it as it was); a steered
// chip can no longer be changed; Stop's give-back puts every queued word into the composer after the draft.

describe('chat panel in Chromium: the queue above the composer', function () {
  this.timeout(20_000);
  const chromium = useChromium();
  const items: QueuedPrompt[] = [
    { id: 'q1', text: 'first queued prompt' },
    { id: 'q2', text: 'second, with a file', attachments: [{ kind: 'file', path: 'src/cart.js' }] },
    { id: 'q3', text: 'third queued prompt' },
  ];

  async function panelWithQueue(queue: QueuedPrompt[]): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'queue', entries: [], hasOlder: false, running: true, banner: null });
    panel.post({ type: 'queue', items: queue });
    await panel.delivered();
    await panel.clearPosted();
    return panel;
  }
  const expectPost = async (panel: Panel, act: () => Promise<void>, expected: ViewMessage[]) =>
    assert.deepEqual(await panel.postedBy(act), expected);

  it('each chip offers Steer, Send now, Edit, moves and Remove, and posts what was clicked', async () => {
    const panel = await panelWithQueue(items);
    const chip = (id: string) => panel.page.locator(`.queue-chip[data-id="${id}"]`);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'queue-chips.png') });
    await expectPost(panel, () => chip('q1').getByRole('button', { name: 'Steer' }).click(), [
      { type: 'queue', action: 'steer', id: 'q1' },
    ]);
    await expectPost(panel, () => chip('q3').getByRole('button', { name: 'Send now' }).click(), [
      { type: 'queue', action: 'sendNow', id: 'q3' },
    ]);
    await expectPost(panel, () => chip('q2').getByRole('button', { name: 'Move up' }).click(), [
      { type: 'queue', action: 'up', id: 'q2' },
    ]);
    await expectPost(panel, () => chip('q2').getByRole('button', { name: 'Move down' }).click(), [
      { type: 'queue', action: 'down', id: 'q2' },
    ]);
    await expectPost(panel, () => chip('q3').getByRole('button', { name: 'Remove' }).click(), [
      { type: 'queue', action: 'remove', id: 'q3' },
    ]);
    assert.equal(await chip('q1').getByRole('button', { name: 'Move up' }).count(), 0, 'the first cannot go up');
    assert.equal(await chip('q3').getByRole('button', { name: 'Move down' }).count(), 0, 'the last cannot go down');
    assert.equal(
      await chip('q2').getByRole('button', { name: 'Steer' }).count(),
      0,
      'a prompt with a file is not a steer',
    );
  });

  it('Edit in place: Enter saves the new text, Escape leaves it as it was', async () => {
    const panel = await panelWithQueue(items);
    const chip = (id: string) => panel.page.locator(`.queue-chip[data-id="${id}"]`);
    await chip('q1').getByRole('button', { name: 'Edit' }).click();
    const box = panel.page.getByRole('textbox', { name: 'Edit the queued prompt' });
    await box.fill('first, rewritten');
    await expectPost(panel, () => box.press('Enter'), [
      { type: 'queue', action: 'edit', id: 'q1', text: 'first, rewritten' },
    ]);
    await chip('q3').getByRole('button', { name: 'Edit' }).click();
    await panel.page.getByRole('textbox', { name: 'Edit the queued prompt' }).fill('never mind');
    await expectPost(panel, () => panel.page.keyboard.press('Escape'), [
      { type: 'queue', action: 'edit', id: 'q3', text: 'third queued prompt' },
    ]);
  });

  it('a steered chip waits for the next step and offers nothing; an empty queue shows nothing', async () => {
    const panel = await panelWithQueue([{ id: 'q1', text: 'go the other way', steering: true }]);
    const chip = panel.page.locator('.queue-chip[data-id="q1"]');
    assert.match(await chip.innerText(), /steering at the next step/);
    assert.equal(await chip.getByRole('button').count(), 0);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'queue-steering.png') });
    panel.post({ type: 'queue', items: [] });
    await panel.delivered();
    assert.equal(await panel.page.locator('.queue-chips').isVisible(), false);
  });

  it('Stop’s give-back: every queued prompt goes into the composer after the draft, with its files', async () => {
    const panel = await panelWithQueue(items);
    const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.fill('my draft');
    panel.post({ type: 'unqueued', items });
    panel.post({ type: 'queue', items: [] });
    await panel.delivered();
    assert.equal(
      await prompt.inputValue(),
      'my draft\n\nfirst queued prompt\n\nsecond, with a file\n\nthird queued prompt',
    );
    assert.equal(await panel.page.locator('.composer .attachment-chip').count(), 1, 'the file chip came back');
  });
});
