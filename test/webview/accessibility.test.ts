import * as assert from 'node:assert/strict';
import { blocking, runAxe, tally } from './axe';
import { useChromium } from './chromium';
import { EMPTY_CHAT, showConversation } from './conversationScene';
import type { Panel } from './panel';
import type { Theme } from './panelServer';

// axe-core, a real accessibility checker, on the panel in real Chromium, in VS Code's dark, light and
// high-contrast themes: the empty chat with its welcome, a whole conversation (the recorded session's
// answer, cards and review diff, an approval, a notice with its remedy, the plan, the queue, the pickers),
// the `@` picker open, and the past chats. Its full report goes to test-artifacts/webview/axe-*.json; a
// critical or serious violation fails the test, named by rule, element and axe's help URL. So does a
// finding of the landmark and heading rules (moderate), fixed since: everything on the page lies in the
// banner or the main landmark, and the page has its level-one heading.

/** axe's rules on landmarks and headings: a screen reader's quick navigation over the page. */
const STRUCTURE = ['region', 'landmark-one-main', 'page-has-heading-one', 'landmark-unique', 'heading-order'];

const THEMES: readonly Theme[] = ['dark', 'light', 'hc-black'];

/** Tall enough that the whole conversation is in view: axe judges contrast only where it can see the text. */
const TALL = { width: 420, height: 3_200 };

describe('chat panel in Chromium: axe-core finds no critical or serious violation', function () {
  this.timeout(60_000);
  const chromium = useChromium();

  async function check(panel: Panel, name: string): Promise<void> {
    const results = await runAxe(panel.page, name);
    const found = blocking(results);
    // assert.ok, not deepEqual: the lines themselves are the message, without a diff of them after it.
    assert.ok(found.length === 0, `axe (${tally(results)}; report in axe-${name}.json):\n${found.join('\n')}`);
    const structure = results.violations.filter((rule) => STRUCTURE.includes(rule.id));
    assert.deepEqual(
      structure.map((rule) => `${rule.id}: ${rule.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      [],
    );
    console.log(`      axe, ${name}: ${tally(results)}`);
  }

  for (const theme of THEMES) {
    it(`the empty chat, in the ${theme} theme`, async () => {
      const panel = await chromium.open(theme);
      panel.postAll(EMPTY_CHAT);
      await panel.delivered();
      assert.equal(await panel.page.locator('.welcome').isVisible(), true);
      assert.equal(await panel.page.getByRole('heading', { level: 1, name: 'Loopwire' }).count(), 1);
      await check(panel, `${theme}-empty`);
    });

    it(`a whole conversation, then the @ picker and the past chats, in the ${theme} theme`, async () => {
      const panel = await chromium.open(theme);
      await panel.page.setViewportSize(TALL);
      await showConversation(panel);
      assert.equal(await panel.page.locator('.entry.tool .hunk').count(), 4, 'the review card shows its hunks');
      // The conversation is still the live region, within the main landmark, the composer beside it.
      const main = panel.page.getByRole('main');
      assert.equal(await main.getByRole('log', { name: 'Conversation' }).count(), 1);
      assert.equal(await main.getByRole('textbox', { name: 'Ask Loopwire' }).count(), 1);
      assert.equal(await panel.page.getByRole('banner').getByRole('toolbar', { name: 'Chat' }).count(), 1);
      await check(panel, `${theme}-conversation`);

      // The @ picker open over the composer, the host's matches in it.
      const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
      await prompt.fill('Look at @inv');
      await panel.waitForPosted((message) => message.type === 'findContext');
      panel.post({ type: 'contextMatches', query: 'inv', matches: [{ kind: 'file', path: 'src/inventory.ts' }] });
      await panel.delivered();
      assert.equal(await panel.page.getByRole('listbox', { name: 'Attach to the prompt' }).isVisible(), true);
      await check(panel, `${theme}-context-picker`);
      await prompt.press('Escape');

      // The past chats, open.
      panel.post({
        type: 'history',
        sessions: [{ id: 's1', title: 'Fix the failing test', createdAt: '2026-01-02T10:00:00.000Z' }],
      });
      await panel.delivered();
      assert.equal(await panel.page.getByRole('dialog', { name: 'Past chats' }).isVisible(), true);
      await check(panel, `${theme}-history`);
    });
  }
});
