import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { Jimp } from 'jimp';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// An image pasted into the chat panel, in the real workbench (issue 40, item 2): a screenshot of the window,
// at twice its size (2800×1800), pasted into the prompt box is a chip with its thumbnail; sent, it reaches the
// model as an input_image of the prompt's message, scaled in the page to 2048×1317 (read from the embedded
// backend's wire log, LOOPWIRE_WIRE_LOG with bodies); after Developer: Reload Window the prompt's bubble shows
// it again, and the next prompt sends it again only with its message. A prompt of an image alone, edited
// (Edit and resend), shows its chip in the edited prompt and is sent again as it is. Screenshots in images/.

const IMAGES_ARTIFACTS = path.join(ARTIFACTS, 'images');
const PROMPT = 'What does this screenshot show?';

/** The scripted model's answers (it sees no pixels: the test reads what it was sent from the wire log). */
const SCENARIOS = {
  scenarios: [
    {
      name: 'image-question',
      match: '^What does this screenshot show\\?',
      steps: [
        { output: [{ type: 'message', text: 'A screenshot of VS Code with the Loopwire chat in its side bar.' }] },
      ],
    },
    {
      name: 'image-follow-up',
      match: '^And the status bar\\?',
      steps: [{ output: [{ type: 'message', text: 'It says Loopwire: WebSocket.' }] }],
    },
  ],
};

type Part = { type: string; text?: string; image_url?: string };

/** Width and height of the PNG in a data URL, from its IHDR. */
function pngSize(dataUrl: string): string {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return `${bytes.readUInt32BE(16)}×${bytes.readUInt32BE(20)}`;
}

/** In the panel's page: `base64` as a PNG file pasted into the prompt box, as the clipboard hands one over. */
const paste = (base64: string) => `(() => {
  const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
  const box = document.querySelector('textarea.prompt');
  box.focus();
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
})()`;

describe('Loopwire in the VS Code workbench: an image pasted into the chat', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const requests = useWireLog();
  let explorerPng: Buffer;
  before(async () => {
    explorerPng = await new Jimp({ width: 3000, height: 800, color: 0x2266ccff }).getBuffer('image/png');
  });
  useWorkbench((started) => (workbench = started), {
    artifacts: IMAGES_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'image-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.mkdirSync(path.join(folder, 'shots'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'shots', 'wide.png'), explorerPng);
      const settings = path.join(folder, '.vscode', 'settings.json');
      const current = JSON.parse(fs.readFileSync(settings, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(
        settings,
        `${JSON.stringify({ ...current, 'loopwire.scenarioFiles': ['image-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });

  /** The user messages with parts of the generating requests so far. */
  const prompts = () =>
    requests().map((request) => ({
      chained: Boolean(request.previous_response_id),
      parts: request.input
        .filter((item) => item.role === 'user' && Array.isArray(item.content))
        .flatMap((item) => item.content as Part[]),
    }));

  async function send(panel: Frame, text: string): Promise<void> {
    const answers = await panel.locator('.entry.assistant:not(.streaming)').count();
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(text);
    await prompt.press('Enter');
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > answers ? true : undefined),
      60_000,
    );
  }

  it('a pasted screenshot reaches the model scaled to 2048 px and shows again after a reload', async () => {
    const shot = await Jimp.read(await workbench.page.screenshot());
    shot.resize({ w: shot.width * 2, h: shot.height * 2 });
    const big = await shot.getBuffer('image/png');
    assert.equal(`${shot.width}×${shot.height}`, '2800×1800');

    const panel = await workbench.panel();
    await panel.locator('textarea.prompt').fill(PROMPT);
    await panel.evaluate(paste(big.toString('base64')));
    const chip = panel.locator('.composer .attachment-chip[data-kind="image"]');
    await chip.waitFor({ timeout: 20_000 });
    assert.equal(await chip.innerText(), 'image.png (2048×1317)');
    await workbench.screenshot('pasted', { sidebar: true });

    await send(panel, PROMPT);
    const sent = await until('the prompt in the wire log', () =>
      Promise.resolve(prompts().find((request) => request.parts.some((part) => part.text === PROMPT))),
    );
    assert.deepEqual(
      sent.parts.map((part) => part.type),
      ['input_text', 'input_image'],
    );
    const image = sent.parts[1]?.image_url ?? '';
    assert.match(image, /^data:image\/png;base64,/);
    assert.equal(pngSize(image), '2048×1317');
    const bubble = panel.locator('.entry.user', { hasText: PROMPT });
    await bubble.locator('img.attachment-thumb').waitFor();
    await workbench.screenshot('sent');

    await workbench.reload();
    const reloaded = await workbench.panel();
    const thumb = reloaded.locator('.entry.user', { hasText: PROMPT }).locator('img.attachment-thumb');
    await thumb.waitFor({ timeout: 30_000 });
    assert.equal(
      await thumb.evaluate(
        (img: { naturalWidth: number; naturalHeight: number }) => `${img.naturalWidth}×${img.naturalHeight}`,
      ),
      '2048×1317',
    );
    assert.equal(await thumb.getAttribute('src'), image, 'the picture the model got');
    await workbench.screenshot('reloaded');
    await workbench.screenshot('reloaded-sidebar', { sidebar: true });

    // The next prompt sends the image again only with its message: where the request carries the whole
    // conversation (the reloaded window's new session chains on its own warm-up), once; chained on the
    // answer before, not at all.
    const before = prompts().length;
    await send(reloaded, 'And the status bar?');
    const next = await until('the next prompt in the wire log', () => Promise.resolve(prompts()[before]));
    const images = next.parts.filter((part) => part.type === 'input_image').length;
    const whole = next.parts.some((part) => part.text === PROMPT);
    assert.equal(images, whole ? 1 : 0, `the whole conversation: ${whole}, images: ${images}`);
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('Edit and resend of an image alone: its chip comes back in the edited prompt, which sends it again', async () => {
    const panel = await workbench.panel();
    const small = await new Jimp({ width: 320, height: 200, color: 0xf14c4cff }).getBuffer('image/png');
    await panel.evaluate(paste(small.toString('base64')));
    await panel.locator('.composer .attachment-chip[data-kind="image"]').waitFor({ timeout: 20_000 });
    /** The last user message of each generating request so far: its parts' types. */
    const lastPrompts = () =>
      requests().map((request) => {
        const users = request.input.filter((item) => item.role === 'user' && Array.isArray(item.content));
        return ((users.at(-1)?.content ?? []) as Part[]).map((part) => part.type);
      });
    const imageAlone = () => lastPrompts().filter((types) => types.join() === 'input_image').length;
    await send(panel, '');
    await until('the image alone in the wire log', () => Promise.resolve(imageAlone() === 1 || undefined));

    const prompt = panel.locator('.entry.user').last();
    await prompt.hover();
    await prompt.getByRole('button', { name: 'Edit' }).click();
    const chip = prompt.locator('.prompt-editor .attachment-chip[data-kind="image"]');
    await chip.waitFor({ timeout: 10_000 });
    assert.equal(await chip.innerText(), 'image.png (320×200)');
    assert.equal(await prompt.getByRole('textbox', { name: 'Edit the message' }).inputValue(), '');
    await workbench.screenshot('edit-image-alone', { sidebar: true });
    await prompt.getByRole('textbox', { name: 'Edit the message' }).press('Enter');
    await until('the image alone sent again', () => Promise.resolve(imageAlone() === 2 || undefined), 60_000);
    // The fork is shown: the edited prompt's box gives way to the prompt sent again, its picture in its bubble.
    await panel.locator('.prompt-editor').waitFor({ state: 'detached', timeout: 30_000 });
    await panel.locator('.entry.user').last().locator('.bubble img.attachment-thumb').waitFor({ timeout: 30_000 });
    await workbench.screenshot('edit-image-alone-sent', { sidebar: true });
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('an image dropped from the explorer is read by the host and scaled in the page into a chip', async () => {
    const panel = await workbench.panel();
    const uri = `file://${path.join(workbench.workspace, 'shots', 'wide.png')}`;
    // A drop as VS Code passes one on to a webview (Shift held): the resource's URI as text/uri-list.
    await panel.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/uri-list', ${JSON.stringify(uri)});
      const target = document.querySelector('.composer');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
    const chip = panel.locator('.composer .attachment-chip[data-kind="image"]');
    await chip.waitFor({ timeout: 30_000 });
    assert.equal(await chip.innerText(), 'wide.png (2048×546)');
    await workbench.screenshot('explorer-drop', { sidebar: true });
    await panel.getByRole('button', { name: 'Remove wide.png (2048×546)' }).click();
    assert.equal(await chip.count(), 0);
  });
});
