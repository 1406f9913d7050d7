import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SlashEntry } from '../../src/protocol/slashMenu';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The composer's `/` menu in real Chromium: `/` at the prompt's start asks the host for the commands and
// lists them with their descriptions, filtered as the name is typed; arrows move, Enter and Tab put the
// command in the prompt for its arguments (Enter sends nothing while the menu is open), Escape closes it; `$`
// lists the skills alone; at 260 px every option stays inside the panel.

const COMMANDS: SlashEntry[] = [
  { kind: 'builtin', name: 'new', description: 'Start a new chat' },
  { kind: 'builtin', name: 'compact', description: 'Compact the conversation now' },
  { kind: 'builtin', name: 'plan', description: 'Plan mode for this prompt: read and plan, change nothing' },
  { kind: 'builtin', name: 'review', description: 'Review the current changes' },
  { kind: 'builtin', name: 'init', description: 'Write an AGENTS.md for this repository' },
  { kind: 'builtin', name: 'skills', description: 'List the skills found' },
  { kind: 'prompt', name: 'fix-test', description: 'Fix a failing test', hint: 'the test' },
  { kind: 'skill', name: 'release-notes', description: 'Write the release notes from the merged changes' },
];

/** How much of an element's text its box hides (0: all of it shows). */
const hidden = (element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth - element.clientWidth;

describe('chat panel in Chromium: the / menu', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panel(width?: number): Promise<Panel> {
    const opened = await chromium.open('dark');
    if (width) await opened.page.setViewportSize({ width, height: 700 });
    opened.post({ type: 'state', sessionId: 'slash', entries: [], hasOlder: false, running: false, banner: null });
    await opened.delivered();
    await opened.clearPosted();
    return opened;
  }

  const names = async (panel: Panel) =>
    Promise.all(
      (await panel.page.locator('.slash-menu [role="option"]').all()).map((o) => o.getAttribute('data-name')),
    );
  const active = (panel: Panel) => panel.page.locator('.slash-menu [role="option"][aria-selected="true"]');
  const shot = async (panel: Panel, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  };

  it('asks for the commands at /, lists them with descriptions, filters as typed, and completes with Enter', async () => {
    const page = await panel();
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await prompt.pressSequentially('/');
    await page.waitForPosted((message) => message.type === 'slashCommands');
    page.post({ type: 'slashCommands', commands: COMMANDS });
    await page.delivered();
    assert.deepEqual(
      await names(page),
      COMMANDS.map((command) => command.name),
    );
    const listbox = page.page.getByRole('listbox', { name: 'Slash commands' });
    assert.equal(await listbox.isVisible(), true);
    assert.equal(await prompt.getAttribute('aria-controls'), 'slash-menu');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), await active(page).getAttribute('id'));
    const fix = page.page.locator('.slash-menu [data-name="fix-test"]');
    assert.equal(await fix.innerText(), '/fix-test\nthe test\nFix a failing test');
    await shot(page, 'dark-slash-menu');

    // Filtered as typed: names that start with it first, then those that hold it.
    await prompt.pressSequentially('i');
    assert.deepEqual(await names(page), ['init', 'review', 'skills', 'fix-test']);
    await prompt.press('ArrowDown');
    await prompt.press('ArrowDown');
    assert.equal(await active(page).getAttribute('data-name'), 'skills');
    await prompt.press('ArrowUp');
    assert.equal(await active(page).getAttribute('data-name'), 'review');
    await prompt.press('Backspace');
    await prompt.pressSequentially('fi');
    assert.deepEqual(await names(page), ['fix-test']);
    // Enter completes (nothing is sent), the caret after the name for its arguments.
    const posted = await page.postedBy(() => prompt.press('Enter'));
    assert.equal(posted.filter((message) => message.type === 'send').length, 0, 'Enter picked, it did not send');
    assert.equal(await prompt.inputValue(), '/fix-test ');
    assert.equal(await listbox.isVisible(), false);
    await prompt.pressSequentially('cart.test.js');
    const sent = await page.postedBy(() => prompt.press('Enter'));
    assert.deepEqual(
      sent.find((message) => message.type === 'send'),
      { type: 'send', text: '/fix-test cart.test.js' },
    );
    assert.deepEqual(await page.problems(), []);
  });

  it('Tab completes, Escape closes and leaves the text, $ lists the skills alone', async () => {
    const page = await panel();
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await prompt.pressSequentially('/pl');
    page.post({ type: 'slashCommands', commands: COMMANDS });
    await page.delivered();
    assert.deepEqual(await names(page), ['plan']);
    await prompt.press('Tab');
    assert.equal(await prompt.inputValue(), '/plan ');
    await prompt.fill('');
    await prompt.pressSequentially('/re');
    assert.deepEqual(await names(page), ['review', 'release-notes']);
    const escaped = await page.postedBy(() => prompt.press('Escape'));
    assert.deepEqual(escaped, [], 'Escape closed the menu and stopped nothing');
    assert.equal(await page.page.locator('.slash-menu').isVisible(), false);
    assert.equal(await prompt.inputValue(), '/re');
    // Not in the middle of a prompt; `$` there lists the skills.
    await prompt.fill('');
    await prompt.pressSequentially('use a/b and $rel');
    assert.deepEqual(await names(page), ['release-notes']);
    assert.equal(
      await page.page.locator('.slash-menu [data-name="release-notes"] .context-label').innerText(),
      '$release-notes',
    );
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), 'use a/b and $release-notes ');
    assert.deepEqual(await page.problems(), []);
  });

  // The / menu and the @ picker are one listbox (promptListbox.ts) on one prompt: the prompt names the list
  // that shows, and gives it back to the @ picker's when the menu closes.
  it('a click picks; the prompt names the list that shows, the @ picker’s again once the menu closes', async () => {
    const page = await panel();
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await prompt.pressSequentially('/');
    page.post({ type: 'slashCommands', commands: COMMANDS });
    await page.delivered();
    await prompt.press('ArrowDown');
    assert.equal(await prompt.getAttribute('aria-controls'), 'slash-menu');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), 'slash-option-1');
    await page.page.locator('.slash-menu [data-name="review"]').click();
    assert.equal(await prompt.inputValue(), '/review ');
    assert.equal(await page.page.locator('.slash-menu').isVisible(), false);
    assert.equal(await prompt.getAttribute('aria-controls'), 'context-picker');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), null);
    await prompt.pressSequentially('@pro');
    assert.equal(await prompt.getAttribute('aria-controls'), 'context-picker');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), 'context-option-0');
    await page.page.locator('#context-picker [data-kind="problems"]').click();
    assert.equal(await prompt.inputValue(), '/review ');
    assert.deepEqual(await page.page.locator('.composer .attachment-chip').allInnerTexts(), ['@problems']);
    assert.equal(await prompt.getAttribute('aria-activedescendant'), null);
    assert.deepEqual(await page.problems(), []);
  });

  it('260 px: every option stays inside the panel; its whole text is in its tooltip', async () => {
    const page = await panel(260);
    const prompt = page.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await prompt.pressSequentially('/');
    page.post({ type: 'slashCommands', commands: COMMANDS });
    await page.delivered();
    await shot(page, 'narrow-260-slash-menu');
    const options = await page.page.locator('.slash-menu [role="option"]').all();
    assert.equal(options.length, COMMANDS.length);
    for (const option of options) {
      const box = await option.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 260, `${await option.getAttribute('data-name')} inside`);
      const label = option.locator('.context-label');
      assert.equal(await label.evaluate(hidden), 0, 'the name whole');
    }
    const title = await page.page.locator('.slash-menu [data-name="plan"]').getAttribute('title');
    assert.equal(title, '/plan — Plan mode for this prompt: read and plan, change nothing');
  });
});
