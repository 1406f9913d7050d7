import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import type { Attachment } from '../../src/protocol/attachments';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// A prompt of an image alone, in real Chromium (issue 40, item 2): a screenshot pasted into an empty prompt
// box, then Enter (or Send), posts a `send` with the image and no text; an empty composer, or one holding
// file chips alone, posts nothing. The bubble of such a prompt is its picture; a queued one's chip is named by
// its image, and leaving its edit without words changes nothing.

type Image = Extract<Attachment, { kind: 'image' }>;

/** In the page: a 1200×700 screenshot-like PNG drawn on a canvas, pasted into the prompt box as a File. */
const pasteScreenshot = `(async () => {
  const canvas = new OffscreenCanvas(1200, 700);
  const g = canvas.getContext('2d');
  g.fillStyle = '#1e1e1e';
  g.fillRect(0, 0, 1200, 700);
  g.fillStyle = '#f14c4c';
  g.font = '64px sans-serif';
  g.fillText('TypeError: cart is undefined', 60, 360);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  const data = new DataTransfer();
  data.items.add(new File([blob], 'image.png', { type: 'image/png' }));
  const box = document.querySelector('textarea.prompt');
  box.focus();
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
})()`;

describe('chat panel in Chromium: a prompt of an image alone', function () {
  this.timeout(30_000);
  const chromium = useChromium();

  async function panel(): Promise<Panel> {
    const opened = await chromium.open('dark');
    opened.post({ type: 'state', sessionId: 'image-only', entries: [], hasOlder: false, running: false, banner: null });
    await opened.delivered();
    await opened.clearPosted();
    return opened;
  }

  async function pasted(page: Panel): Promise<void> {
    await page.page.evaluate(pasteScreenshot);
    await page.page.locator('.composer .attachment-chip[data-kind="image"]').first().waitFor({ timeout: 10_000 });
  }

  it('Enter with an empty prompt box sends the pasted image and no text; the bubble is its picture', async () => {
    const page = await panel();
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    assert.deepEqual(await page.postedBy(() => prompt.press('Enter')), [], 'an empty composer sends nothing');
    await pasted(page);
    assert.equal(await prompt.inputValue(), '');
    const posted = await page.postedBy(() => prompt.press('Enter'));
    assert.equal(posted.length, 1);
    const [sent] = posted;
    assert.ok(sent?.type === 'send');
    assert.equal(sent.text, '');
    const [image, ...more] = sent.attachments ?? [];
    assert.equal(more.length, 0);
    assert.ok(image?.kind === 'image');
    assert.deepEqual([image.name, image.width, image.height], ['image.png', 1200, 700]);
    assert.match(image.dataUrl, /^data:image\/png;base64,/);
    assert.equal(await page.page.locator('.composer .attachment-chip').count(), 0, 'Send clears the chips');

    // The host's echo: the prompt's bubble holds the picture and no text, then the answer.
    page.post({
      type: 'state',
      sessionId: 'image-only',
      entries: [
        { kind: 'user', id: 'u1', text: '', attachments: [image] },
        {
          kind: 'assistant',
          id: 'a1',
          text: 'The screenshot shows `TypeError: cart is undefined`.',
          streaming: false,
        },
      ],
      hasOlder: false,
      running: false,
      banner: null,
    });
    await page.delivered();
    const bubble = page.page.locator('.entry.user[data-id="u1"] .bubble');
    await bubble.locator('img').first().waitFor();
    assert.equal((await bubble.innerText()).trim(), 'image.png (1200×700)');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-only-prompt.png') });
    assert.deepEqual(await page.problems(), []);
  });

  it('the Send button sends an image alone; file chips alone send nothing', async () => {
    const page = await panel();
    page.post({ type: 'attach', attachments: [{ kind: 'file', path: 'src/cart.js' }] });
    await page.delivered();
    const send = page.page.getByRole('button', { name: 'Send', exact: true });
    assert.deepEqual(await page.postedBy(() => send.click()), [], 'chips of files alone are no prompt');
    await pasted(page);
    const [sent, ...more] = await page.postedBy(() => send.click());
    assert.equal(more.length, 0);
    assert.ok(sent?.type === 'send');
    assert.equal(sent.text, '');
    assert.deepEqual(
      sent.attachments?.map((attachment) => attachment.kind),
      ['file', 'image'],
    );
  });

  it('a queued image alone is a chip named by its image; an edit left without words sends no text', async () => {
    const page = await panel();
    const png = await new Jimp({ width: 8, height: 8, color: 0x3b82f6ff }).getBuffer('image/png');
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    const image: Image = { kind: 'image', name: 'image.png', dataUrl };
    page.post({ type: 'running', running: true });
    page.post({ type: 'queue', items: [{ id: 'q1', text: '', attachments: [image] }] });
    await page.delivered();
    const chip = page.page.locator('.queue-chip[data-id="q1"]');
    assert.equal(await chip.locator('.queue-text').innerText(), 'image.png');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-only-queued.png') });
    await chip.getByRole('button', { name: 'Edit' }).click();
    const box = page.page.getByRole('textbox', { name: 'Edit the queued prompt' });
    assert.equal(await box.inputValue(), '');
    assert.deepEqual(await page.postedBy(() => box.press('Enter')), [{ type: 'queue', action: 'edit', id: 'q1' }]);
    assert.deepEqual(await page.problems(), []);
  });
});
