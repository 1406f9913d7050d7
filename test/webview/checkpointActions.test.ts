import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import type { Attachment } from '../../src/protocol/attachments';
import type { ChatEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// A sent prompt's Edit and Restore, in real Chromium: Restore posts the checkpoint's message; Edit makes the
// prompt editable in place and Send posts `resend`; the host's question about the files written since
// shows under it and each answer posts `resend` with it; Cancel and Escape give the prompt back; nothing
// is offered while a task runs, nor on a queued prompt. A prompt of a pasted image alone is edited with its
// image's chip, thumbnail and ×, and sent again as it is, with words added, or without the image.

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Fix the failing test' },
  { kind: 'assistant', id: 'text:1', text: 'Fixed `src/cart.js`.', streaming: false },
  { kind: 'user', id: 'user:2', text: 'Now add a test for it' },
  { kind: 'assistant', id: 'text:2', text: 'Added `test/cart.test.js`.', streaming: false },
];

describe('chat panel in Chromium: Edit and Restore on a prompt', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(entries: ChatEntry[], running = false): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'checkpoints', entries, hasOlder: false, running, banner: null });
    await panel.delivered();
    await panel.clearPosted();
    return panel;
  }
  const prompt = (panel: Panel, id: string) => panel.page.locator(`.entry.user[data-id="${id}"]`);

  it('Restore posts the checkpoint of its own prompt', async () => {
    const panel = await panelWith(ENTRIES);
    const second = prompt(panel, 'user:2');
    await second.hover();
    assert.deepEqual(await panel.postedBy(() => second.getByRole('button', { name: 'Restore' }).click()), [
      { type: 'restore', id: 'user:2' },
    ]);
    assert.deepEqual(await panel.problems(), []);
  });

  it('Edit: the prompt is edited in place and sent as resend; the host’s question is answered under it', async () => {
    const panel = await panelWith(ENTRIES);
    const first = prompt(panel, 'user:1');
    await first.hover();
    await first.getByRole('button', { name: 'Edit' }).click();
    const box = first.getByRole('textbox', { name: 'Edit the message' });
    assert.equal(await box.inputValue(), 'Fix the failing test');
    assert.equal(await first.locator('.bubble').isVisible(), false, 'the bubble gives way to the box');
    await box.fill('Fix the failing test, and only that');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-prompt-edit.png') });
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [
      { type: 'resend', id: 'user:1', text: 'Fix the failing test, and only that' },
    ]);

    panel.post({
      type: 'resendAsk',
      id: 'user:1',
      text: 'Fix the failing test, and only that',
      paths: ['src/cart.js', 'test/cart.test.js'],
    });
    await panel.delivered();
    const ask = first.getByRole('group', { name: 'Files changed after this message' });
    assert.match(
      (await ask.textContent()) ?? '',
      /Loopwire changed 2 files after this message: src\/cart\.js, test\/cart\.test\.js\./,
    );
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-prompt-resend-ask.png') });
    assert.deepEqual(await panel.postedBy(() => ask.getByRole('button', { name: 'Restore files and send' }).click()), [
      { type: 'resend', id: 'user:1', text: 'Fix the failing test, and only that', files: 'restore' },
    ]);
    assert.deepEqual(await panel.postedBy(() => ask.getByRole('button', { name: 'Keep files and send' }).click()), [
      { type: 'resend', id: 'user:1', text: 'Fix the failing test, and only that', files: 'keep' },
    ]);
    assert.deepEqual(await panel.problems(), []);
  });

  it('Edit of an image alone: its chip comes back with its thumbnail; it sends as it is, with words, or without it', async () => {
    const png = await new Jimp({ width: 16, height: 10, color: 0xf14c4cff }).getBuffer('image/png');
    const image: Extract<Attachment, { kind: 'image' }> = {
      kind: 'image',
      name: 'image.png',
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
      width: 16,
      height: 10,
    };
    const panel = await panelWith([
      { kind: 'user', id: 'user:1', text: '', attachments: [image] },
      { kind: 'assistant', id: 'text:1', text: 'A red rectangle.', streaming: false },
    ]);
    const first = prompt(panel, 'user:1');
    const edit = async () => {
      await first.hover();
      await first.getByRole('button', { name: 'Edit' }).click();
      return first.getByRole('textbox', { name: 'Edit the message' });
    };
    let box = await edit();
    assert.equal(await box.inputValue(), '');
    const chip = first.locator('.prompt-editor .attachment-chip[data-kind="image"]');
    assert.equal(await chip.count(), 1, 'the image is a chip of the edited prompt');
    assert.equal(await chip.locator('img.attachment-thumb').getAttribute('src'), image.dataUrl, 'with its thumbnail');
    assert.equal(await chip.getByRole('button', { name: 'Remove image.png (16×10)' }).isVisible(), true);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-prompt-edit-image.png') });
    // As it is: Enter sends the image again, no text.
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [
      { type: 'resend', id: 'user:1', text: '', attachments: [image] },
    ]);
    // The host asks about the files written since: each answer sends the image again.
    panel.post({ type: 'resendAsk', id: 'user:1', text: '', paths: ['src/cart.js'] });
    await panel.delivered();
    const ask = first.getByRole('group', { name: 'Files changed after this message' });
    assert.deepEqual(await panel.postedBy(() => ask.getByRole('button', { name: 'Keep files and send' }).click()), [
      { type: 'resend', id: 'user:1', text: '', attachments: [image], files: 'keep' },
    ]);
    await first.getByRole('button', { name: 'Cancel' }).click();

    // With words added.
    box = await edit();
    await box.fill('What is wrong here?');
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [
      { type: 'resend', id: 'user:1', text: 'What is wrong here?', attachments: [image] },
    ]);
    await first.getByRole('button', { name: 'Cancel' }).click();

    // Its × takes the image off: with no words, nothing to send; with words, they go alone.
    box = await edit();
    await first.getByRole('button', { name: 'Remove image.png (16×10)' }).click();
    assert.equal(await chip.count(), 0);
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [], 'no words and no image: nothing to send');
    await box.fill('Describe a red rectangle');
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [
      { type: 'resend', id: 'user:1', text: 'Describe a red rectangle', attachments: [] },
    ]);
    assert.deepEqual(await panel.problems(), []);
  });

  it('Cancel and Escape give the prompt back and post nothing (Escape stops no task)', async () => {
    const panel = await panelWith(ENTRIES);
    const second = prompt(panel, 'user:2');
    for (const how of ['Cancel', 'Escape'] as const) {
      await second.hover();
      await second.getByRole('button', { name: 'Edit' }).click();
      const box = second.getByRole('textbox', { name: 'Edit the message' });
      await box.fill('something else');
      const posted = await panel.postedBy(() =>
        how === 'Cancel' ? second.getByRole('button', { name: 'Cancel' }).click() : box.press('Escape'),
      );
      assert.deepEqual(posted, [], how);
      assert.equal(await second.locator('.prompt-editor').count(), 0, how);
      assert.equal(await second.locator('.bubble').isVisible(), true, how);
      assert.equal((await second.locator('.bubble').textContent())?.trim(), 'Now add a test for it');
    }
  });

  it('nothing is offered while a task runs, nor on a queued prompt', async () => {
    const panel = await panelWith([...ENTRIES, { kind: 'user', id: 'user:3', text: 'Later', queued: true }], true);
    assert.equal(await panel.page.getByRole('button', { name: 'Edit' }).filter({ visible: true }).count(), 0);
    assert.equal(await prompt(panel, 'user:3').locator('.prompt-actions').count(), 0);
    panel.post({ type: 'running', running: false });
    await panel.delivered();
    await prompt(panel, 'user:1').hover();
    assert.equal(await prompt(panel, 'user:1').getByRole('button', { name: 'Edit' }).isVisible(), true);
  });
});
