import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ComposerChoices, InstructionsInfo } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The composer's pickers (model, reasoning effort, approvals) and the project instructions' line, in real
// Chromium: they show what the host says, follow a change the host reports, and post exactly the message
// that writes the setting or opens the file.

const CHOICES: ComposerChoices = {
  model: 'gpt-5.5',
  models: ['gpt-5.5', 'gpt-4.1'],
  effort: 'default',
  efforts: ['default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh'],
  defaultEffort: 'medium',
  approval: 'ask',
};

const FILES: InstructionsInfo['files'] = [
  { label: '../AGENTS.md', path: '/repo/AGENTS.md', cut: false },
  { label: 'AGENTS.md', path: '/repo/app/AGENTS.md', cut: true },
];

describe('chat panel in Chromium: the composer’s pickers and the project instructions', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(choices: ComposerChoices, instructions?: InstructionsInfo): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'pickers', entries: [], hasOlder: false, running: false, banner: null });
    panel.post({ type: 'choices', choices });
    if (instructions) panel.post({ type: 'instructions', instructions });
    await panel.delivered();
    await panel.clearPosted();
    return panel;
  }

  const select = (panel: Panel, name: string) => panel.page.getByRole('combobox', { name, exact: true });

  it('shows the settings as the host sends them, beside Send, and follows a change made elsewhere', async () => {
    const panel = await panelWith(CHOICES);
    assert.equal(await select(panel, 'Model').inputValue(), 'gpt-5.5');
    assert.equal(await select(panel, 'Reasoning effort').inputValue(), 'default');
    // `default` names the effort the model's catalogue row sends; a model without one says so.
    const efforts = () => select(panel, 'Reasoning effort').locator('option').allTextContents();
    assert.equal((await efforts())[0], 'Medium (default)');
    assert.equal(await select(panel, 'Approvals').inputValue(), 'ask');
    assert.deepEqual(await select(panel, 'Model').locator('option').allTextContents(), [
      'gpt-5.5',
      'gpt-4.1',
      'Other…',
    ]);
    // In the composer's bar, on Send's row.
    const bar = panel.page.locator('.composer .composer-bar');
    assert.equal(await bar.locator('.composer-pickers select').count(), 3);
    assert.equal(await bar.getByRole('button', { name: 'Send' }).count(), 1);
    const [pickers, send] = await Promise.all([
      bar.locator('.composer-pickers').boundingBox(),
      bar.getByRole('button', { name: 'Send' }).boundingBox(),
    ]);
    assert.ok(pickers && send && Math.abs(pickers.y + pickers.height / 2 - (send.y + send.height / 2)) < 4);

    // The setting changed in settings.json: the host sends the new values, and a model not in the list joins it.
    const { defaultEffort: _medium, ...unknownModel } = CHOICES;
    panel.post({
      type: 'choices',
      choices: { ...unknownModel, model: 'my-model', effort: 'high', approval: 'read-only' },
    });
    await panel.delivered();
    assert.equal(await select(panel, 'Model').inputValue(), 'my-model');
    assert.equal(await select(panel, 'Reasoning effort').inputValue(), 'high');
    assert.equal((await efforts())[0], "Model's default");
    assert.equal(await select(panel, 'Approvals').inputValue(), 'read-only');
    assert.deepEqual(await panel.problems(), []);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-composer-pickers.png') });
  });

  it('a change posts one choose message per picker; Other… asks the host for a model name', async () => {
    const panel = await panelWith(CHOICES);
    assert.deepEqual(
      await panel.postedBy(() =>
        select(panel, 'Model')
          .selectOption('gpt-4.1')
          .then(() => undefined),
      ),
      [{ type: 'choose', choice: 'model', value: 'gpt-4.1' }],
    );
    assert.deepEqual(
      await panel.postedBy(() =>
        select(panel, 'Reasoning effort')
          .selectOption('low')
          .then(() => undefined),
      ),
      [{ type: 'choose', choice: 'effort', value: 'low' }],
    );
    assert.deepEqual(
      await panel.postedBy(() =>
        select(panel, 'Approvals')
          .selectOption('all')
          .then(() => undefined),
      ),
      [{ type: 'choose', choice: 'approval', value: 'all' }],
    );
    assert.deepEqual(
      await panel.postedBy(() =>
        select(panel, 'Model')
          .selectOption({ label: 'Other…' })
          .then(() => undefined),
      ),
      [{ type: 'choose', choice: 'model' }],
    );
    // Until the host answers, the picker shows the model it had, not "Other…".
    assert.equal(await select(panel, 'Model').inputValue(), 'gpt-5.5');
  });

  it('Down then Up quickly: the echo of the first pick, come late, does not undo the second', async () => {
    // Each pick is written by the host and echoed back; the echo of "No reasoning" may come after the user is
    // back on "Medium (default)", once or twice (the write's answer and the settings' event).
    const panel = await panelWith(CHOICES);
    const effort = select(panel, 'Reasoning effort');
    await effort.focus();
    assert.deepEqual(
      await panel.postedBy(async () => {
        await panel.page.keyboard.press('ArrowDown');
        await panel.page.keyboard.press('ArrowUp');
      }),
      [
        { type: 'choose', choice: 'effort', value: 'none' },
        { type: 'choose', choice: 'effort', value: 'default' },
      ],
    );
    for (const echo of ['none', 'none']) {
      panel.post({ type: 'choices', choices: { ...CHOICES, effort: echo } });
      await panel.delivered();
      assert.equal(await effort.inputValue(), 'default');
    }
    panel.post({ type: 'choices', choices: CHOICES });
    await panel.delivered();
    assert.equal(await effort.inputValue(), 'default');
    // The picks answered, a change made elsewhere shows again, even to a value picked before.
    panel.post({ type: 'choices', choices: { ...CHOICES, effort: 'none' } });
    await panel.delivered();
    assert.equal(await effort.inputValue(), 'none');
  });

  it('Other… chosen by keyboard: once the host answers, the focus is back on the model picker', async () => {
    // The host asks for the name in VS Code's own input box, which takes the focus out of the page (its
    // element blurred); when that box closes, named or dismissed, a keyboard user goes on from the picker.
    const panel = await panelWith(CHOICES);
    await select(panel, 'Model').focus();
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('End')), [
      { type: 'choose', choice: 'model' },
    ]);
    await panel.page.evaluate(() =>
      (globalThis as unknown as { document: { activeElement: { blur(): void } } }).document.activeElement.blur(),
    );
    panel.post({ type: 'choices', choices: CHOICES });
    await panel.delivered();
    assert.equal(
      await panel.page.evaluate(() =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }
        ).document.activeElement.getAttribute('aria-label'),
      ),
      'Model',
    );
    // A later change from elsewhere (settings) leaves the focus where it is.
    await panel.page.getByRole('textbox', { name: 'Ask Loopwire' }).focus();
    panel.post({ type: 'choices', choices: { ...CHOICES, model: 'gpt-4.1' } });
    await panel.delivered();
    assert.equal(
      await panel.page.evaluate<string | null>(`document.activeElement.getAttribute('aria-label')`),
      'Ask Loopwire',
    );
  });

  it('"Using AGENTS.md": a link per file read, each opening its file; none shown without files', async () => {
    const panel = await panelWith(CHOICES, { files: FILES, sent: true, untrusted: false });
    const line = panel.page.locator('.instructions-line');
    assert.equal((await line.innerText()).trim(), 'Using ../AGENTS.md, AGENTS.md (cut)');
    // Between the transcript and the composer.
    const [lineBox, composerBox] = await Promise.all([
      line.boundingBox(),
      panel.page.locator('.composer').boundingBox(),
    ]);
    assert.ok(lineBox && composerBox && lineBox.y + lineBox.height <= composerBox.y + 1);
    assert.deepEqual(await panel.postedBy(() => line.getByRole('button', { name: 'AGENTS.md', exact: true }).click()), [
      { type: 'openInstructions', path: '/repo/app/AGENTS.md' },
    ]);
    assert.deepEqual(await panel.postedBy(() => line.getByRole('button', { name: '../AGENTS.md' }).click()), [
      { type: 'openInstructions', path: '/repo/AGENTS.md' },
    ]);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-instructions-line.png') });
    panel.post({ type: 'instructions', instructions: { files: [], sent: false, untrusted: false } });
    await panel.delivered();
    assert.equal(await line.isVisible(), false);
  });

  it('an untrusted workspace: shown as not sent, with Send them', async () => {
    const panel = await panelWith(CHOICES, { files: FILES.slice(0, 1), sent: false, untrusted: true });
    const line = panel.page.locator('.instructions-line');
    assert.match(await line.innerText(), /^Not sent \(untrusted workspace\): \.\.\/AGENTS\.md\s*Send them$/);
    assert.deepEqual(await panel.postedBy(() => line.getByRole('button', { name: 'Send them' }).click()), [
      { type: 'allowInstructions' },
    ]);
    panel.post({ type: 'instructions', instructions: { files: FILES.slice(0, 1), sent: true, untrusted: true } });
    await panel.delivered();
    assert.equal((await line.innerText()).trim(), 'Using ../AGENTS.md');
    assert.deepEqual(await panel.problems(), []);
  });

  it('the approval picker shows the mode in force and says in its title when the workspace settings decide it', async () => {
    const note = "Set by this workspace's settings";
    const panel = await panelWith({ ...CHOICES, approval: 'read-only', approvalNote: note });
    const approvals = select(panel, 'Approvals');
    assert.equal(await approvals.inputValue(), 'read-only');
    assert.equal(await approvals.getAttribute('title'), `Approvals: Read-only (${note})`);
    assert.equal(await panel.page.locator('.picker-noted').count(), 1);
    // The user's own pick: no note.
    panel.post({ type: 'choices', choices: { ...CHOICES, approval: 'all' } });
    await panel.delivered();
    assert.equal(await approvals.getAttribute('title'), 'Approvals: Run all');
    assert.equal(await panel.page.locator('.picker-noted').count(), 0);
  });
});
