import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ChatEntry, InlineEntry } from '../../src/protocol/chatView';
import { blocking, runAxe, tally } from './axe';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// An inline edit done in the editor beside the chat, as the panel shows it (inlineEntry.ts), in real
// Chromium: one folded line, "Fixed inline in config/shipping.json:3" and how it ended, between the chat's
// own entries; opened (its button, or a click on the line), what was asked, the diff the model wrote (with no
// review buttons: the editor had them) and what it said; the path opens the file at the line without folding
// or unfolding the card; axe finds nothing critical or serious in it.

const FIX: InlineEntry = {
  kind: 'inline',
  id: 'inline:3',
  action: 'fix',
  title: 'Fixed inline in config/shipping.json:3',
  outcome: 'undone',
  path: 'config/shipping.json',
  line: 3,
  prompt: 'Expected a property name, found a comma.',
  diff: [
    {
      path: 'config/shipping.json',
      op: 'update',
      pending: false,
      hunks: [
        {
          id: 'h1',
          oldStart: 3,
          oldLines: ['  "freeShippingFrom": 5000,,'],
          newStart: 3,
          newLines: ['  "freeShippingFrom": 5000,'],
          contextBefore: ['{', '  "currency": "EUR",'],
          contextAfter: ['  "flatRate": 495', '}'],
        },
      ],
    },
  ],
  kept: 0,
  note: 'Removed the stray comma after `5000`.',
};

const EDIT: InlineEntry = {
  ...FIX,
  id: 'inline:4',
  action: 'edit',
  title: 'Edited inline in src/cart.js:10',
  outcome: 'partly',
  path: 'src/cart.js',
  line: 10,
  prompt: 'take the percent of the amount',
  kept: 1,
  diff: [
    {
      path: 'src/cart.js',
      op: 'update',
      pending: false,
      hunks: [
        {
          id: 'e1',
          oldStart: 10,
          oldLines: ['/** Takes `percent` percent (0 to 100) off an amount in cents. */'],
          newStart: 10,
          newLines: ['/** Takes `percent` percent (0 to 100) of an amount off it, in cents. */'],
          contextBefore: [],
          contextAfter: ['export function applyDiscount(amount, percent) {'],
        },
        {
          id: 'e2',
          oldStart: 12,
          oldLines: ['  return roundCents(amount - percent);'],
          newStart: 12,
          newLines: ['  const discount = (amount * percent) / 100;', '  return roundCents(amount - discount);'],
          contextBefore: [],
          contextAfter: ['}'],
        },
      ],
    },
  ],
  note: 'The discount is now that percent of the amount.',
};

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Why does the cart total look wrong?' },
  { kind: 'assistant', id: 'text:2', text: 'The discount takes the percent off as cents.', streaming: false },
  FIX,
  EDIT,
];

describe('chat panel in Chromium: an inline edit’s entry', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(entries: ChatEntry[]): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'inline', entries, hasOlder: false, running: false, banner: null });
    await panel.delivered();
    await panel.clearPosted();
    return panel;
  }
  const entry = (panel: Panel, id: string) => panel.page.locator(`.entry.inline[data-id="${id}"]`);

  it('is one folded line with its outcome, and opens on the prompt, the diff and the model’s note', async () => {
    const panel = await panelWith(ENTRIES);
    const fix = entry(panel, 'inline:3');
    const header = fix.locator('.inline-header');
    assert.equal(
      (await header.innerText()).replace(/\s+/g, ' ').trim(),
      'Fixed inline in config/shipping.json:3 undone',
    );
    assert.match(
      (await entry(panel, 'inline:4').locator('.inline-header').innerText()).replace(/\s+/g, ' '),
      /1 of 2 kept/,
    );
    assert.equal(await fix.locator('.inline-body').isVisible(), false, 'folded');
    const box = await header.boundingBox();
    assert.ok(box && box.height < 40, `one line: ${box?.height}px`);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'inline-entry.png') });

    const toggle = fix.getByRole('button', { name: 'Fixed inline in config/shipping.json:3, undone' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true', 'the keyboard opens it');
    assert.equal(await fix.locator('.inline-body').isVisible(), true);
    assert.match(await fix.locator('.inline-prompt').innerText(), /Expected a property name, found a comma\./);
    assert.equal(await fix.locator('.diff .line.removed').count(), 1);
    assert.equal(await fix.locator('.diff .line.added').count(), 1);
    assert.match(await fix.locator('.diff .line.added').innerText(), /"freeShippingFrom": 5000,$/);
    assert.equal(await fix.locator('.diff button').count(), 0, 'no Accept, Reject or diff editor: it was decided');
    assert.match(await fix.locator('.markdown').innerText(), /Removed the stray comma after 5000\./);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'inline-entry-open.png') });
    assert.deepEqual(await panel.problems(), []);
  });

  it('one the window closed on before Keep or Undo says it was left pending, unsaved or saved', async () => {
    const panel = await panelWith([
      { ...FIX, id: 'inline:5', outcome: 'pending', saved: false },
      { ...EDIT, id: 'inline:6', outcome: 'pending', saved: true },
    ]);
    const header = async (id: string) =>
      (await entry(panel, id).locator('.inline-header').innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(await header('inline:5'), 'Fixed inline in config/shipping.json:3 left pending, unsaved');
    assert.equal(await header('inline:6'), 'Edited inline in src/cart.js:10 left pending, saved');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'inline-entry-pending.png') });
    assert.deepEqual(await panel.problems(), []);
  });

  it('axe finds no critical or serious violation, folded and opened, in dark and light', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const panel = await chromium.open(theme);
      panel.post({
        type: 'state',
        sessionId: 'inline',
        entries: ENTRIES,
        hasOlder: false,
        running: false,
        banner: null,
      });
      await panel.delivered();
      for (const state of ['folded', 'opened']) {
        if (state === 'opened')
          for (const toggle of await panel.page.locator('.entry.inline .inline-toggle').all()) await toggle.click();
        const results = await runAxe(panel.page, `inline-${theme}-${state}`);
        assert.deepEqual(blocking(results), [], `axe, ${theme} ${state}: ${tally(results)}`);
      }
    }
  });

  it('its path opens the file at the line, and the card stays as it was', async () => {
    const panel = await panelWith(ENTRIES);
    const fix = entry(panel, 'inline:3');
    const link = fix.getByRole('link', { name: 'config/shipping.json:3' });
    assert.deepEqual(await panel.postedBy(() => link.click()), [
      { type: 'openFile', path: 'config/shipping.json', line: 3 },
    ]);
    assert.equal(await fix.locator('.inline-body').isVisible(), false, 'still folded');
    // A click on the line's words opens it, and again folds it.
    await fix.locator('.inline-header').click({ position: { x: 40, y: 8 } });
    assert.equal(await fix.locator('.inline-body').isVisible(), true);
    await fix.locator('.inline-header').click({ position: { x: 40, y: 8 } });
    assert.equal(await fix.locator('.inline-body').isVisible(), false);
  });
});
