import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, commandHere, openInEditor, until } from './workbench';

// Context in the chat input, in the real workbench (issue 30, item 1): `@` in the panel's prompt box finds a
// file with the editor's own file list, Enter makes it a chip, `@changes` another, and the request the model
// gets holds the prompt then each attachment as its own labelled part; Add to Chat on an editor's selection
// attaches exactly its lines. What the model was sent is read from the embedded backend's wire log
// (LOOPWIRE_WIRE_LOG, bodies included). Screenshots go to test-artifacts/workbench/attachments/.

const ATTACHMENTS_ARTIFACTS = path.join(ARTIFACTS, 'attachments');

type Part = { type: string; text: string };

const text = async (locator: Locator) => (await locator.innerText()).replace(/\u00a0/g, ' ');

describe('Loopwire in the VS Code workbench: context in the chat input', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const requests = useWireLog();
  useWorkbench((started) => (workbench = started), {
    artifacts: ATTACHMENTS_ARTIFACTS,
    // Beside the demo: a file .gitignore leaves out and one search.exclude hides, both named like the one to find.
    workspace: (folder) => {
      copyDemo(folder);
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
        fs.writeFileSync(path.join(folder, file), text);
      };
      write('.gitignore', 'build/\n');
      write('build/shipping.min.json', '{}\n');
      write('fixtures/shipping-old.json', '{}\n');
      const settings = path.join(folder, '.vscode', 'settings.json');
      const current = JSON.parse(fs.readFileSync(settings, 'utf8')) as Record<string, unknown>;
      write('.vscode/settings.json', `${JSON.stringify({ ...current, 'search.exclude': { '**/fixtures': true } })}\n`);
    },
  });

  /** The user messages of the generating requests the embedded backend received so far. */
  const prompts = (): Part[][] =>
    requests()
      .flatMap((request) => request.input)
      .filter((item) => item.role === 'user' && Array.isArray(item.content))
      .map((item) => item.content as Part[]);

  /** Sends what the prompt box holds (Enter) and waits for the answer and for its prompt in the wire log. */
  async function send(panel: Frame): Promise<Part[]> {
    const before = prompts().length;
    const answers = await panel.locator('.entry.assistant:not(.streaming)').count();
    await panel.locator('textarea.prompt').press('Enter');
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > answers ? true : undefined),
      60_000,
    );
    return until('its prompt in the wire log', () => Promise.resolve(prompts()[before]), 10_000);
  }

  const chips = (panel: Frame) => panel.locator('.composer .attachment-chip .attachment-label').allInnerTexts();

  it('@ finds a file with the editor’s file search; Enter attaches it; the request holds it after the prompt', async () => {
    const panel = await workbench.panel();
    const prompt = panel.locator('textarea.prompt');
    await prompt.click();
    await prompt.pressSequentially('What is wrong in this file? @shipp');
    const option = panel.locator('#context-picker [role="option"]', { hasText: 'shipping.json' });
    await option.waitFor({ timeout: 30_000 });
    // The one file: build/ is in .gitignore, fixtures/ in search.exclude.
    assert.deepEqual(await panel.locator('#context-picker [role="option"]').allInnerTexts(), ['shipping.json\nconfig']);
    assert.equal(await text(panel.locator('#context-picker [aria-selected="true"]')), 'shipping.json\nconfig');
    await workbench.screenshot('attach-picker', { sidebar: true });
    await prompt.press('Enter');
    await until('the chip', async () => ((await chips(panel)).includes('config/shipping.json') ? true : undefined));
    assert.equal(await prompt.inputValue(), 'What is wrong in this file? ');
    await prompt.pressSequentially('@chan');
    await panel.locator('#context-picker [role="option"]', { hasText: '@changes' }).waitFor();
    await prompt.press('Tab');
    assert.deepEqual(await chips(panel), ['config/shipping.json', '@changes']);
    await workbench.screenshot('attach-chips', { sidebar: true });

    const parts = await send(panel);
    const shipping = fs.readFileSync(path.join(workbench.workspace, 'config', 'shipping.json'), 'utf8');
    assert.deepEqual(parts, [
      { type: 'input_text', text: 'What is wrong in this file?' },
      {
        type: 'input_text',
        text: `<attachment kind="file" path="config/shipping.json">\n${shipping.replace(/\n$/, '')}\n</attachment>`,
      },
      {
        type: 'input_text',
        text: '<attachment kind="changes">\nThe workspace is not in a git repository: there are no changes to show.\n</attachment>',
      },
    ]);
    // The sent prompt shows its chips; the composer's are gone.
    const sent = panel.locator('.entry.user').last().locator('.attachment-chip');
    assert.deepEqual(await sent.allInnerTexts(), ['config/shipping.json', '@changes']);
    assert.deepEqual(await chips(panel), []);
    await workbench.screenshot('attach-sent', { sidebar: true });
  });

  it('Add to Chat on an editor’s selection, or @selection in the panel, attaches exactly its lines', async () => {
    const { page } = workbench;
    const lines = await openInEditor(page, 'src/cart.js');
    await until('src/cart.js in the editor', async () =>
      (await text(lines)).includes('function applyDiscount') ? true : undefined,
    );
    await lines.click();
    // Lines 10–14: from the start of line 10 down to the start of line 15.
    await page.keyboard.press('Control+G');
    const goTo = page.locator('.quick-input-widget input');
    await goTo.waitFor({ state: 'visible' });
    await goTo.fill(':10');
    await page.keyboard.press('Enter');
    await goTo.waitFor({ state: 'hidden' });
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowDown');
    await commandHere(page, 'Loopwire: Add to Chat');
    const panel = await workbench.panel();
    await until('the selection’s chip', async () =>
      (await chips(panel)).includes('src/cart.js:10-14') ? true : undefined,
    );
    await workbench.screenshot('attach-selection');
    // The same from the panel: × takes the chip off, `@selection` reads the editor's selection again.
    await panel.getByRole('button', { name: 'Remove src/cart.js:10-14' }).click();
    assert.deepEqual(await chips(panel), []);
    const prompt = panel.locator('textarea.prompt');
    await prompt.click();
    await prompt.pressSequentially('@sel');
    await panel.locator('#context-picker [role="option"]', { hasText: '@selection' }).waitFor();
    await prompt.press('Enter');
    await until('@selection’s chip', async () =>
      (await chips(panel)).includes('src/cart.js:10-14') ? true : undefined,
    );
    await prompt.fill('Explain these lines.');
    const parts = await send(panel);
    const cart = fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8').split('\n');
    assert.deepEqual(parts, [
      { type: 'input_text', text: 'Explain these lines.' },
      {
        type: 'input_text',
        text: `<attachment kind="file" path="src/cart.js" lines="10-14">\n${cart.slice(9, 14).join('\n')}\n</attachment>`,
      },
    ]);
  });

  it('Add to Chat in the explorer’s context menu attaches a folder: the model gets the list of its files', async () => {
    const { page } = workbench;
    await page.locator('.part.editor').click();
    await commandHere(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^test$/ });
    await row.waitFor({ timeout: 30_000 });
    await row.click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Add to Chat' });
    // Hovered once it stands still (the menu fades in), so the screenshot shows it whole.
    await item.hover({ timeout: 15_000 });
    await workbench.screenshot('attach-explorer-menu');
    await item.click();
    const panel = await workbench.panel();
    await until('the folder’s chip', async () => ((await chips(panel)).includes('test/') ? true : undefined), 30_000);
    await panel.locator('textarea.prompt').fill('What do these test?');
    const parts = await send(panel);
    assert.deepEqual(parts, [
      { type: 'input_text', text: 'What do these test?' },
      {
        type: 'input_text',
        text: '<attachment kind="folder" path="test">\nThe folder\'s files (1):\ntest/cart.test.js\n</attachment>',
      },
    ]);
  });

  it('a file dropped on the panel is attached by the host; × takes it off', async () => {
    const panel = await workbench.panel();
    const uri = `file://${path.join(workbench.workspace, 'README.md')}`;
    // A drop as VS Code passes one on to a webview (Shift held): the resource's URI as text/uri-list.
    await panel.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/uri-list', ${JSON.stringify(uri)});
      const target = document.querySelector('.composer');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
    await until('the dropped file’s chip', async () => ((await chips(panel)).includes('README.md') ? true : undefined));
    await workbench.screenshot('attach-dropped', { sidebar: true });
    await panel.getByRole('button', { name: 'Remove README.md' }).click();
    assert.deepEqual(await chips(panel), []);
  });

  it('@terminal attaches the Loopwire terminal’s last command, its exit code and what it printed', async () => {
    const panel = await workbench.panel();
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill('run: echo attached output');
    await prompt.press('Enter');
    const card = panel.locator('.entry.tool', { has: panel.locator('.tool-name', { hasText: 'exec_command' }) }).last();
    await card.locator('button[data-action="allow"]').click({ timeout: 60_000 });
    await card.locator('.tool-card.status-done').waitFor({ timeout: 60_000 });
    await panel.locator('.entry.assistant:not(.streaming)').last().waitFor({ timeout: 60_000 });
    await until('the task to end', async () =>
      (await panel.getByRole('button', { name: 'Stop' }).isDisabled()) ? true : undefined,
    );

    await prompt.click();
    await prompt.pressSequentially('What did it print? @term');
    await panel.locator('#context-picker [role="option"]', { hasText: '@terminal' }).waitFor();
    await prompt.press('Enter');
    assert.deepEqual(await chips(panel), ['@terminal']);
    const [question, terminal] = await send(panel);
    assert.deepEqual(question, { type: 'input_text', text: 'What did it print?' });
    assert.match(
      terminal?.text ?? '',
      /^<attachment kind="terminal">\n\$ echo attached output \(exit code 0\)\n(?:[^]*\n)?attached output\r?\n[^]*<\/attachment>$/,
    );
    await workbench.screenshot('attach-terminal', { sidebar: true });
    assert.deepEqual(workbench.pageErrors, []);
  });
});
