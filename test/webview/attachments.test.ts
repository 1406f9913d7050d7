import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ViewMessage } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The composer's attachments in real Chromium: `@` opens the picker (the special sources, then the files the
// host found for what follows the `@`), the keyboard moves and picks, Escape closes it without stopping a
// task, a pick becomes a chip that × removes, and Send carries the chips; a drop posts its URIs; a sent
// prompt shows its chips.

describe('chat panel in Chromium: attachments in the composer', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panel(): Promise<Panel> {
    const opened = await chromium.open('dark');
    opened.post({ type: 'state', sessionId: 'attach', entries: [], hasOlder: false, running: true, banner: null });
    await opened.delivered();
    await opened.clearPosted();
    return opened;
  }

  const options = (panel: Panel) => panel.page.locator('#context-picker [role="option"]');
  const activeOption = (panel: Panel) => panel.page.locator('#context-picker [role="option"][aria-selected="true"]');
  const chipLabels = (panel: Panel) => panel.page.locator('.composer .attachment-chip').allInnerTexts();

  it('@ opens the picker; arrows, Enter and Tab pick; Escape closes it; × removes a chip; Send carries them', async () => {
    const page = await panel();
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await prompt.pressSequentially('Why does @');
    assert.deepEqual(await options(page).allInnerTexts(), [
      "@selection\nthe editor's selection, with its lines",
      "@problems\nthe workspace's problems",
      "@terminal\nthe Loopwire terminal's last command and output",
      "@changes\nthe working tree's changes (git diff)",
    ]);
    // What follows the `@` is asked of the host, which answers with files and folders.
    await prompt.pressSequentially('cart');
    const asked = await page.waitForPosted((message) => message.type === 'findContext' && message.query === 'cart');
    assert.deepEqual(asked, { type: 'findContext', query: 'cart' });
    page.post({
      type: 'contextMatches',
      query: 'cart',
      matches: [
        { kind: 'file', path: 'src/cart.js' },
        { kind: 'file', path: 'test/cart.test.js' },
        { kind: 'folder', path: 'src/cart' },
      ],
    });
    await page.delivered();
    assert.deepEqual(await options(page).allInnerTexts(), ['cart.js\nsrc', 'cart.test.js\ntest', 'cart/\nsrc']);
    // The prompt names the list and its active option (a textbox takes no aria-expanded: axe's aria-allowed-attr).
    assert.equal(await prompt.getAttribute('aria-controls'), 'context-picker');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), await activeOption(page).getAttribute('id'));
    assert.equal(await prompt.getAttribute('aria-expanded'), null);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-attach-picker.png') });
    await prompt.press('ArrowDown');
    assert.equal(await activeOption(page).innerText(), 'cart.test.js\ntest');
    await prompt.press('ArrowUp');
    await prompt.press('ArrowUp');
    assert.equal(await activeOption(page).innerText(), 'cart/\nsrc', 'Up from the first wraps to the last');
    await prompt.press('ArrowDown');
    // Enter picks (and does not send): the `@cart` leaves the prompt, a chip comes.
    assert.deepEqual(await page.postedBy(() => prompt.press('Enter')), []);
    assert.equal(await prompt.inputValue(), 'Why does ');
    assert.deepEqual(await chipLabels(page), ['src/cart.js']);
    assert.equal(await page.page.locator('#context-picker').isVisible(), false);

    // Tab picks too; a special source needs no host.
    await prompt.pressSequentially('@pro');
    assert.deepEqual(await options(page).allInnerTexts(), ["@problems\nthe workspace's problems"]);
    await prompt.press('Tab');
    assert.deepEqual(await chipLabels(page), ['src/cart.js', '@problems']);

    // Escape closes the list and nothing else: the running task is not stopped, and the list stays closed.
    await prompt.pressSequentially('@ter');
    assert.equal(await options(page).count(), 1);
    // The host is asked after a pause in typing; on a busy machine that comes after Escape is pressed.
    await page.waitForPosted((message) => message.type === 'findContext' && message.query === 'ter');
    assert.deepEqual(await page.postedBy(() => prompt.press('Escape')), []);
    assert.equal(await page.page.locator('#context-picker').isVisible(), false);
    await prompt.pressSequentially('m');
    assert.equal(await page.page.locator('#context-picker').isVisible(), false);
    await prompt.fill('Why does it fail? ');

    // @selection is the host's to read: it answers with the chip (its file and lines).
    await prompt.pressSequentially('@sel');
    // As for @ter: the host is asked for `sel` after a pause in typing, which a busy machine makes before Enter.
    await page.waitForPosted((message) => message.type === 'findContext' && message.query === 'sel');
    assert.deepEqual(await page.postedBy(() => prompt.press('Enter')), [{ type: 'attachSelection' }]);
    page.post({ type: 'attach', attachments: [{ kind: 'file', path: 'src/cart.js', lines: { start: 12, end: 20 } }] });
    await page.delivered();
    assert.deepEqual(await chipLabels(page), ['src/cart.js', '@problems', 'src/cart.js:12-20']);
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-attach-chips.png') });

    // × takes one off.
    await page.page.getByRole('button', { name: 'Remove @problems' }).click();
    assert.deepEqual(await chipLabels(page), ['src/cart.js', 'src/cart.js:12-20']);

    // Send carries the chips and clears them.
    await prompt.focus();
    const sent = await page.postedBy(() => prompt.press('Enter'));
    assert.deepEqual(sent, [
      {
        type: 'send',
        text: 'Why does it fail?',
        attachments: [
          { kind: 'file', path: 'src/cart.js' },
          { kind: 'file', path: 'src/cart.js', lines: { start: 12, end: 20 } },
        ],
      },
    ] satisfies ViewMessage[]);
    assert.deepEqual(await chipLabels(page), []);
    assert.deepEqual(await page.problems(), []);
  });

  it('a drop posts the URIs it carries; the host’s chips come once each; a sent prompt shows its chips', async () => {
    const page = await panel();
    const posted = await page.postedBy(() =>
      // In the page (the test's own code has no DOM types): a drag from the explorer, as VS Code passes it on.
      page.page
        .evaluate(
          `(() => {
        const data = new DataTransfer();
        data.setData('text/uri-list', '# from the explorer\\r\\nfile:///work/app/src/cart.js\\r\\nfile:///work/app/test');
        const target = document.querySelector('.composer');
        target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      })()`,
        )
        .then(() => undefined),
    );
    assert.deepEqual(posted, [{ type: 'attachUris', uris: ['file:///work/app/src/cart.js', 'file:///work/app/test'] }]);
    page.post({
      type: 'attach',
      attachments: [
        { kind: 'file', path: 'src/cart.js' },
        { kind: 'folder', path: 'test' },
        { kind: 'file', path: 'src/cart.js' },
      ],
    });
    await page.delivered();
    assert.deepEqual(await chipLabels(page), ['src/cart.js', 'test/']);

    page.post({
      type: 'entry',
      entry: {
        kind: 'user',
        id: 'u1',
        text: 'Explain these.',
        attachments: [{ kind: 'file', path: 'src/cart.js', lines: { start: 3, end: 4 } }, { kind: 'changes' }],
      },
    });
    await page.delivered();
    const sent = page.page.locator('.entry.user[data-id="u1"] .attachment-chip');
    assert.deepEqual(await sent.allInnerTexts(), ['src/cart.js:3-4', '@changes']);
    assert.equal(await page.page.locator('.entry.user[data-id="u1"] .attachment-remove').count(), 0);
    await page.page.screenshot({ path: path.join(ARTIFACTS, 'dark-attach-sent.png') });
    assert.deepEqual(await page.problems(), []);
  });
});
