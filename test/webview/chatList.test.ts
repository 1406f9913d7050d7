import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import type { ChatTab } from '../../src/protocol/chatTabs';
import { blocking, runAxe } from './axe';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import type { Theme } from './panelServer';

// The open chats in real Chromium (issue 49): with more than one open, a compact row each at the top of the
// panel — its state, its title, its last line, the shown one marked — that reads in a 300 px panel; a click
// posts switchChat, × posts closeChat; with one chat the host sends none and the list goes.

const TABS: ChatTab[] = [
  {
    id: 'chat-1',
    title: 'Fix the failing shipping test in config/shipping.json and explain the cause',
    state: 'waiting',
    last: 'write_file config/shipping.json',
  },
  { id: 'chat-2', title: 'Add a README section on the cart', state: 'running', last: 'Reading src/cart.ts to see…' },
  { id: 'chat-3', title: 'Rename the order type', state: 'done', last: 'Renamed `Order` to `Purchase` in 4 files.' },
  { id: 'chat-4', title: '', state: 'failed', last: 'The endpoint refused the API key.' },
];

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Add a README section on the cart' },
  { kind: 'assistant', id: 'text:1', text: 'Reading src/cart.ts to see what the cart does.', streaming: true },
];

describe('chat panel in Chromium: the open chats', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(theme: Theme, width = 300): Promise<Panel> {
    const panel = await chromium.open(theme);
    await panel.page.setViewportSize({ width, height: 700 });
    panel.post({ type: 'state', sessionId: 's2', entries: ENTRIES, hasOlder: false, running: true, banner: null });
    panel.post({ type: 'chats', chats: TABS, shown: 'chat-2' });
    await panel.delivered();
    return panel;
  }

  const list = (panel: Panel) => panel.page.getByRole('navigation', { name: 'Open chats' });

  it('lists each chat with its state and last line on one line each, the shown one marked, in 300 px', async () => {
    const panel = await panelWith('dark');
    assert.equal(await list(panel).isVisible(), true);
    const rows = list(panel).locator('.chat-tab');
    assert.equal(await rows.count(), 4);
    assert.deepEqual(await list(panel).locator('.chat-tab-title').allInnerTexts(), [
      TABS[0]?.title,
      TABS[1]?.title,
      TABS[2]?.title,
      'New chat',
    ]);
    // The shown one is marked; each row's name is what it shows, with the state in words (the icon is a cue).
    assert.equal(await list(panel).locator('[aria-current="true"] .chat-tab-title').innerText(), TABS[1]?.title);
    const named = `${TABS[0]?.title} — waiting for you: write_file config/shipping.json`;
    assert.equal(await list(panel).getByRole('button', { name: named, exact: true }).count(), 1);
    // Within the panel: the long title ellipsized on its line, no row wider than the panel.
    for (let at = 0; at < 4; at++) {
      const box = await rows.nth(at).boundingBox();
      assert.ok(box && box.x + box.width <= 300 && box.height < 48, `row ${at} fits`);
    }
    const title = await list(panel).locator('.chat-tab-title').nth(0).boundingBox();
    assert.ok(title && title.height < 24, 'one line');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-chat-list-300.png') });
    assert.deepEqual(blocking(await runAxe(panel.page, 'chat-list-dark')), []);
    assert.deepEqual(await panel.problems(), []);
  });

  it('a click posts switchChat, × posts closeChat; one chat left: the list goes', async () => {
    const panel = await panelWith('light');
    const rows = list(panel).locator('.chat-tab');
    assert.deepEqual(await panel.postedBy(() => rows.nth(0).locator('.chat-tab-open').click()), [
      { type: 'switchChat', id: 'chat-1' },
    ]);
    const close = rows.nth(2).getByRole('button', { name: `Close ${TABS[2]?.title}` });
    assert.deepEqual(await panel.postedBy(() => close.click()), [{ type: 'closeChat', id: 'chat-3' }]);
    assert.equal(
      await rows
        .nth(1)
        .getByRole('button', { name: `Stop and close ${TABS[1]?.title}` })
        .count(),
      1,
      'closing a running chat says it stops it',
    );
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-chat-list-300.png') });
    assert.deepEqual(blocking(await runAxe(panel.page, 'chat-list-light')), []);
    panel.post({ type: 'chats', chats: [], shown: 'chat-2' });
    await panel.delivered();
    assert.equal(await list(panel).isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });

  it('reads in high contrast too', async () => {
    const panel = await panelWith('hc-black');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'hc-chat-list-300.png') });
    assert.deepEqual(blocking(await runAxe(panel.page, 'chat-list-hc')), []);
    assert.deepEqual(await panel.problems(), []);
  });
});
