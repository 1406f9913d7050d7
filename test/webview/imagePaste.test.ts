import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import type { ViewMessage } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// Images in the composer, in real Chromium (issue 40, item 2): a 4000×1000 PNG pasted into the prompt box is
// a chip with its thumbnail, scaled in the page to 2048×512 and still a PNG; × takes it off; Send carries it
// as a data URL; a dropped JPEG within bounds goes byte for byte, a larger one scaled as JPEG, an opaque WebP
// as JPEG and a transparent one as PNG; a type the page cannot send, or a file over 20 MB, is refused on a
// line that says why; an image file the host read for a drop from the explorer is scaled the same way; a sent
// prompt shows its image in its bubble.

type ImageChip = Extract<NonNullable<Extract<ViewMessage, { type: 'send' }>['attachments']>[number], { kind: 'image' }>;

/** Width, height and type of the image in a data URL, read from its own header (PNG's IHDR, JPEG's SOF). */
function header(dataUrl: string): { type: string; width: number; height: number } {
  const [head, payload = ''] = dataUrl.split(',');
  const bytes = Buffer.from(payload, 'base64');
  const type = /^data:(image\/[a-z]+);base64$/.exec(head ?? '')?.[1] ?? '?';
  if (type === 'image/png') return { type, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1] as number;
    if (marker >= 0xc0 && marker <= 0xc3)
      return { type, height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return { type, width: 0, height: 0 };
}

/**
 * In the page: a picture drawn on a canvas (stripes, text, a transparent corner where `alpha`), encoded by the
 * browser as `type`, then pasted into the prompt box (`paste`) or dropped on the composer (`drop`) as a File.
 */
const deliverImage = (
  how: 'paste' | 'drop',
  spec: { name: string; type: string; width: number; height: number; alpha?: boolean },
) => `(async () => {
  const spec = ${JSON.stringify(spec)};
  const canvas = new OffscreenCanvas(spec.width, spec.height);
  const g = canvas.getContext('2d');
  for (let x = 0; x < spec.width; x += 100) {
    g.fillStyle = (x / 100) % 2 ? '#3b82f6' : '#f59e0b';
    g.fillRect(x, 0, 100, spec.height);
  }
  g.fillStyle = '#111';
  g.font = Math.round(spec.height / 5) + 'px sans-serif';
  g.fillText('Loopwire ' + spec.width + '×' + spec.height, spec.width / 20, spec.height / 2);
  if (spec.alpha) g.clearRect(0, 0, spec.width / 4, spec.height / 4);
  const blob = await canvas.convertToBlob({ type: spec.type, quality: 0.95 });
  const file = new File([blob], spec.name, { type: spec.type });
  const data = new DataTransfer();
  data.items.add(file);
  if (${JSON.stringify(how)} === 'paste') {
    const box = document.querySelector('textarea.prompt');
    box.focus();
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  } else {
    const target = document.querySelector('.composer');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }
  return [...new Uint8Array(await blob.arrayBuffer())].length;
})()`;

describe('chat panel in Chromium: images pasted and dropped into the composer', function () {
  this.timeout(30_000);
  const chromium = useChromium();

  async function panel(): Promise<Panel> {
    const opened = await chromium.open('dark');
    opened.post({ type: 'state', sessionId: 'images', entries: [], hasOlder: false, running: false, banner: null });
    await opened.delivered();
    await opened.clearPosted();
    return opened;
  }

  const chipLabels = (panel: Panel) => panel.page.locator('.composer .attachment-chip').allInnerTexts();
  /** Until the composer holds `count` image chips (scaling takes the page a moment). */
  const untilChips = (panel: Panel, count: number) =>
    panel.page
      .locator('.composer .attachment-chip[data-kind="image"]')
      .nth(count - 1)
      .waitFor({ timeout: 10_000 });

  /** Sends `text` with the composer's chips and answers the images the `send` carried. */
  async function sendImages(panel: Panel, text: string): Promise<ImageChip[]> {
    const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.fill(text);
    const [sent] = await panel.postedBy(() => prompt.press('Enter'));
    assert.equal(sent?.type, 'send');
    return (sent?.type === 'send' ? (sent.attachments ?? []) : []).filter(
      (attachment): attachment is ImageChip => attachment.kind === 'image',
    );
  }

  it('a pasted 4000×1000 PNG is a chip with its thumbnail, scaled to 2048×512 in the page; × removes it; Send carries it', async () => {
    const page = await panel();
    await page.page.evaluate(deliverImage('paste', { name: 'wide.png', type: 'image/png', width: 4000, height: 1000 }));
    await untilChips(page, 1);
    assert.deepEqual(await chipLabels(page), ['wide.png (2048×512)']);
    const thumb = page.page.locator('.composer .attachment-chip img.attachment-thumb');
    assert.equal(
      await thumb.evaluate(
        (img: { naturalWidth: number; naturalHeight: number }) => `${img.naturalWidth}×${img.naturalHeight}`,
      ),
      '2048×512',
    );
    assert.equal(await thumb.getAttribute('alt'), '', 'the label names it; the picture is decoration');
    assert.equal(await page.page.locator('.composer-notice').isVisible(), false);
    await page.page.getByRole('textbox', { name: 'Ask Loopwire' }).fill('What does this screenshot show?');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-chip.png') });

    // × takes it off; pasted again, Send carries it.
    await page.page.getByRole('button', { name: 'Remove wide.png (2048×512)' }).click();
    assert.deepEqual(await chipLabels(page), []);
    await page.page.evaluate(deliverImage('paste', { name: 'wide.png', type: 'image/png', width: 4000, height: 1000 }));
    await untilChips(page, 1);
    const [image, ...more] = await sendImages(page, 'What does this screenshot show?');
    assert.equal(more.length, 0);
    assert.ok(image);
    assert.deepEqual(
      { name: image.name, width: image.width, height: image.height },
      { name: 'wide.png', width: 2048, height: 512 },
    );
    assert.deepEqual(header(image.dataUrl), { type: 'image/png', width: 2048, height: 512 });
    assert.deepEqual(await chipLabels(page), [], 'Send clears the chips');
    assert.deepEqual(await page.problems(), []);
  });

  it('a dropped JPEG within bounds goes byte for byte; larger, scaled as JPEG; a WebP as JPEG, or PNG where transparent', async () => {
    const page = await panel();
    const bytes = await page.page.evaluate(
      deliverImage('drop', { name: 'photo.jpg', type: 'image/jpeg', width: 800, height: 600 }),
    );
    await untilChips(page, 1);
    await page.page.evaluate(deliverImage('drop', { name: 'big.jpg', type: 'image/jpeg', width: 3000, height: 3000 }));
    await untilChips(page, 2);
    await page.page.evaluate(deliverImage('drop', { name: 'flat.webp', type: 'image/webp', width: 1200, height: 900 }));
    await untilChips(page, 3);
    await page.page.evaluate(
      deliverImage('drop', { name: 'cutout.webp', type: 'image/webp', width: 2500, height: 500, alpha: true }),
    );
    await untilChips(page, 4);
    assert.deepEqual(await chipLabels(page), [
      'photo.jpg (800×600)',
      'big.jpg (2048×2048)',
      'flat.webp (1200×900)',
      'cutout.webp (2048×410)',
    ]);
    const images = await sendImages(page, 'Compare them.');
    assert.deepEqual(
      images.map((image) => header(image.dataUrl)),
      [
        { type: 'image/jpeg', width: 800, height: 600 },
        { type: 'image/jpeg', width: 2048, height: 2048 },
        { type: 'image/jpeg', width: 1200, height: 900 },
        { type: 'image/png', width: 2048, height: 410 },
      ],
    );
    assert.equal(Buffer.from(images[0]?.dataUrl.split(',')[1] ?? '', 'base64').length, bytes, 'byte for byte');
    assert.deepEqual(await page.problems(), []);
  });

  it('a type it cannot send, a file over 20 MB or one that does not decode is refused on a line that says why', async () => {
    const page = await panel();
    await page.page.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['II*\\u0000'], 'scan.tiff', { type: 'image/tiff' }));
      data.items.add(new File([new Uint8Array(21 * 1024 * 1024)], 'huge.png', { type: 'image/png' }));
      data.items.add(new File(['not a picture'], 'broken.png', { type: 'image/png' }));
      const box = document.querySelector('textarea.prompt');
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    const notice = page.page.getByRole('alert');
    await notice.waitFor();
    assert.equal(
      await notice.innerText(),
      'Not attached: scan.tiff: image/tiff cannot be attached (PNG, JPEG, GIF, WebP or BMP).\nNot attached: huge.png is 21.0 MB: an image of at most 20.0 MB can be attached.\nNot attached: broken.png: the image does not decode.',
    );
    assert.deepEqual(await chipLabels(page), []);
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-refused.png') });
    // Text pasted with a picture of itself (a spreadsheet's range) pastes as text.
    const posted = await page.page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'a\\tb');
      data.items.add(new File(['x'], 'range.png', { type: 'image/png' }));
      const box = document.querySelector('textarea.prompt');
      return box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    assert.equal(posted, true, 'the paste goes on as the browser does it');
    assert.deepEqual(await chipLabels(page), []);
    assert.deepEqual(await page.problems(), []);
  });

  it('an image file the host read (a drop from the explorer) is scaled into a chip as a dropped one is', async () => {
    const page = await panel();
    const png = await new Jimp({ width: 3000, height: 800, color: 0x2266ccff }).getBuffer('image/png');
    page.post({
      type: 'imageFiles',
      files: [{ name: 'explorer.png', dataUrl: `data:image/png;base64,${png.toString('base64')}` }],
    });
    await untilChips(page, 1);
    assert.deepEqual(await chipLabels(page), ['explorer.png (2048×546)']);
    const [image] = await sendImages(page, 'And this one?');
    assert.deepEqual(header(image?.dataUrl ?? ''), { type: 'image/png', width: 2048, height: 546 });
    assert.deepEqual(await page.problems(), []);
  });

  it('a model the catalogue does not know to take images: a line under the image chip says the endpoint may refuse it', async () => {
    const page = await panel();
    const choices = {
      model: 'gpt-oss-120b',
      models: ['gpt-5.5', 'gpt-oss-120b'],
      effort: 'default',
      efforts: ['default'],
      approval: 'ask' as const,
    };
    page.post({ type: 'choices', choices: { ...choices, images: false } });
    await page.delivered();
    const warning = page.page.locator('.composer-warning');
    assert.equal(await warning.isVisible(), false, 'no image, nothing said');
    await page.page.evaluate(deliverImage('paste', { name: 'wide.png', type: 'image/png', width: 800, height: 200 }));
    await untilChips(page, 1);
    assert.equal(
      await warning.innerText(),
      'gpt-oss-120b does not take images, as far as Loopwire knows: the endpoint may refuse this prompt.',
    );
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-model-warning.png') });
    page.post({ type: 'choices', choices: { ...choices, model: 'gpt-5.5' } });
    await page.delivered();
    assert.equal(await warning.isVisible(), false, 'a model that takes images');
    page.post({ type: 'choices', choices: { ...choices, images: false } });
    await page.delivered();
    await page.page.getByRole('button', { name: 'Remove wide.png (800×200)' }).click();
    assert.equal(await warning.isVisible(), false, 'the image removed');
    assert.deepEqual(await page.problems(), []);
  });

  it('a sent prompt shows its image in its bubble', async () => {
    const page = await panel();
    await page.page.evaluate(deliverImage('paste', { name: 'wide.png', type: 'image/png', width: 4000, height: 1000 }));
    await untilChips(page, 1);
    const [image] = await sendImages(page, 'What does this screenshot show?');
    assert.ok(image);
    page.post({
      type: 'entry',
      entry: {
        kind: 'user',
        id: 'u1',
        text: 'What does this screenshot show?',
        attachments: [image, { kind: 'changes' }],
      },
    });
    await page.delivered();
    const chip = page.page.locator('.entry.user[data-id="u1"] .attachment-chip');
    assert.deepEqual(await chip.allInnerTexts(), ['wide.png (2048×512)', '@changes']);
    const thumb = page.page.locator('.entry.user[data-id="u1"] img.attachment-thumb');
    const box = await thumb.boundingBox();
    assert.ok(box && box.width > 200 && box.height >= 50, `the bubble's picture is readable: ${JSON.stringify(box)}`);
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-image-sent.png') });
    assert.deepEqual(await page.problems(), []);
  });
});
