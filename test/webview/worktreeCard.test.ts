import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorktreeCard } from '../../src/protocol/worktreeCard';
import { ARTIFACTS, useChromium } from './chromium';

// The worktree card and the composer's "in a new worktree" toggle in real Chromium (issue 49, item 3): the page
// asks for the cards as it loads; a card lists the files with +/- counts, each a button posting `diff` with its
// path; Apply, Open in New Window and Discard post their action with the worktree's name; a card being acted on
// has its buttons disabled; a gone worktree offers Discard alone; the toggle sends the words to sendInWorktree
// once and then turns itself off.

const CARD: WorktreeCard = {
  name: 'fix-cart',
  branch: 'loopwire/fix-cart',
  here: false,
  gone: false,
  files: [
    { path: 'src/cart.js', change: 'modified', added: 3, removed: 1, binary: false },
    { path: 'docs/new.md', change: 'added', added: 12, removed: 0, binary: false },
  ],
  more: 0,
  unapplied: true,
  uncommitted: 2,
};

describe('chat panel in Chromium: the worktree card and the composer’s worktree toggle', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('lists the files with their counts; each file and button posts its action with the name', async () => {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'wt', entries: [], hasOlder: false, running: false, banner: null });
    await panel.delivered();
    assert.ok((await panel.posted()).some((message) => message.type === 'watchWorktrees'));
    const region = panel.page.getByRole('region', { name: 'Worktrees' });
    assert.equal(await region.isVisible(), false, 'no worktree: no card');
    const gone: WorktreeCard = {
      ...CARD,
      name: 'old',
      branch: 'loopwire/old',
      gone: true,
      files: [],
      unapplied: false,
    };
    panel.post({ type: 'worktrees', worktrees: [CARD, gone] });
    const card = panel.page.getByRole('group', { name: 'Worktree fix-cart' });
    await card.waitFor();
    assert.match(
      await card.innerText(),
      /fix-cart[\s\S]*loopwire\/fix-cart[\s\S]*2 files changed · not applied · 2 uncommitted/,
    );
    assert.deepEqual(await card.locator('.worktree-file-row').allInnerTexts(), [
      'src/cart.js\n+3\n−1',
      'docs/new.md\n+12\n−0',
    ]);
    fs.mkdirSync(path.join(ARTIFACTS, 'worktrees'), { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'worktrees', 'cards.png') });

    const file = card.locator('.worktree-file', { hasText: 'src/cart.js' });
    assert.deepEqual(await panel.postedBy(() => file.click()), [
      { type: 'worktree', action: 'diff', name: 'fix-cart', path: 'src/cart.js' },
    ]);
    for (const [label, action] of [
      ['Apply to workspace', 'apply'],
      ['Open in New Window', 'open'],
      ['Discard', 'discard'],
    ] as const)
      assert.deepEqual(await panel.postedBy(() => card.getByRole('button', { name: label }).click()), [
        { type: 'worktree', action, name: 'fix-cart' },
      ]);
    const goneCard = panel.page.getByRole('group', { name: 'Worktree old' });
    assert.match(await goneCard.innerText(), /its folder has gone/);
    assert.equal(await goneCard.getByRole('button').count(), 1, 'Discard alone');

    panel.post({ type: 'worktrees', worktrees: [CARD], busy: 'fix-cart' });
    await panel.page.locator('.worktree-card.busy').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Apply to workspace' }).isDisabled(), true);
    panel.post({ type: 'worktrees', worktrees: [] });
    await region.waitFor({ state: 'hidden' });
  });

  it('the toggle sends the next prompt to sendInWorktree once, then is off again', async () => {
    const panel = await chromium.open('light');
    panel.post({ type: 'state', sessionId: 'wt', entries: [], hasOlder: false, running: false, banner: null });
    await panel.delivered();
    const toggle = panel.page.getByRole('button', { name: 'In a new worktree' });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const box = panel.page.locator('textarea.prompt');
    await box.fill('fix the cart total');
    assert.deepEqual(await panel.postedBy(() => box.press('Enter')), [
      { type: 'sendInWorktree', text: 'fix the cart total' },
    ]);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await box.inputValue(), '');
    await box.fill('and then this');
    const sent = await panel.postedBy(() => box.press('Enter'));
    assert.deepEqual(
      sent.filter((message) => message.type === 'send' || message.type === 'sendInWorktree'),
      [{ type: 'send', text: 'and then this' }],
    );
  });
});
