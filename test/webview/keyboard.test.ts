import * as assert from 'node:assert/strict';
import { useChromium } from './chromium';
import { EMPTY_CHAT, showConversation } from './conversationScene';
import type { Panel } from './panel';

// The panel by keyboard alone, in real Chromium: Tab reaches every control of the empty chat and of a whole
// conversation (review card, approval, notice, plan, queue, pickers, links); Escape closes the `@` picker,
// a composer picker and the past chats without stopping the running task, and gives the focus back; the
// picker's active option shows in a high-contrast theme; the conversation is still a live region that a
// screen reader follows.

/** What a user can act on: every element of these kinds that is shown. */
const CONTROLS = 'button, a[href], select, textarea, input, summary, [tabindex]:not([tabindex="-1"])';

interface KeyboardWindow {
  document: {
    activeElement: { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{
      setAttribute(name: string, value: string): void;
      getAttribute(name: string): string | null;
      checkVisibility(): boolean;
      disabled?: boolean;
      outerHTML: string;
    }>;
  };
}

/** Marks each enabled, shown control with an index and returns a short description of each. */
async function markControls(panel: Panel): Promise<string[]> {
  return panel.page.evaluate((selector) => {
    const { document } = globalThis as unknown as KeyboardWindow;
    const shown = Array.from(document.querySelectorAll(selector)).filter(
      (element) => element.disabled !== true && element.checkVisibility(),
    );
    return shown.map((element, index) => {
      element.setAttribute('data-kbd', String(index));
      return element.outerHTML.slice(0, 120);
    });
  }, CONTROLS);
}

/** Presses Tab until the focus comes round to the first control again; the indices of those it stopped on. */
async function tabThrough(panel: Panel, count: number): Promise<Set<number>> {
  const reached = new Set<number>();
  let first: string | null = null;
  for (let press = 0; press < count + 10; press++) {
    await panel.page.keyboard.press('Tab');
    const index = await panel.page.evaluate(
      () => (globalThis as unknown as KeyboardWindow).document.activeElement?.getAttribute('data-kbd') ?? null,
    );
    if (index === null) continue;
    if (index === first) break;
    first ??= index;
    reached.add(Number(index));
  }
  return reached;
}

interface StyleWindow {
  getComputedStyle(element: unknown): { outlineStyle: string; outlineColor: string };
}

const focused = (panel: Panel) =>
  panel.page.evaluate(() => {
    const active = (globalThis as unknown as KeyboardWindow).document.activeElement;
    return active?.getAttribute('aria-label') ?? active?.getAttribute('class') ?? null;
  });

describe('chat panel in Chromium: by keyboard alone', function () {
  this.timeout(30_000);
  const chromium = useChromium();

  async function assertAllReached(panel: Panel): Promise<number> {
    const controls = await markControls(panel);
    const reached = await tabThrough(panel, controls.length);
    const missed = controls.filter((_, index) => !reached.has(index));
    assert.deepEqual(missed, [], 'controls Tab never reached');
    return controls.length;
  }

  it('Tab reaches every control of the empty chat', async () => {
    const panel = await chromium.open('dark');
    panel.postAll(EMPTY_CHAT);
    await panel.delivered();
    const count = await assertAllReached(panel);
    // The welcome's examples, History, the prompt, three pickers and Send at least.
    assert.ok(count >= 8, `${count} controls`);
  });

  it('Tab reaches every control of a whole conversation', async () => {
    const panel = await chromium.open('dark');
    await showConversation(panel);
    const count = await assertAllReached(panel);
    assert.ok(count >= 30, `${count} controls`);
    // Among them the review's, the approval's and the remedy's buttons.
    for (const name of ['Accept', 'Reject', 'Restore', 'Run', 'Skip', 'Set API Key…', 'Steer']) {
      const marked = panel.page.getByRole('button', { name, exact: true }).and(panel.page.locator('[data-kbd]'));
      assert.ok((await marked.count()) > 0, `${name} is among the controls`);
    }
  });

  it('Escape closes the @ picker, a composer picker and the past chats, never stopping the task', async () => {
    const panel = await chromium.open('dark');
    await showConversation(panel);
    const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });

    // The @ picker: open from the keyboard, closed by Escape, the prompt keeps the focus and the text.
    await prompt.focus();
    await panel.page.keyboard.type('see @pro');
    const list = panel.page.getByRole('listbox', { name: 'Attach to the prompt' });
    assert.equal(await list.isVisible(), true);
    // The host is asked for matches after a pause in typing: that message is not Escape's.
    await panel.waitForPosted((message) => message.type === 'findContext' && message.query === 'pro');
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Escape')), []);
    assert.equal(await list.isVisible(), false);
    assert.equal(await focused(panel), 'Ask Loopwire');
    assert.equal(await prompt.inputValue(), 'see @pro');

    // A composer picker: chosen with the arrows; Escape leaves it as it is, and the task runs on.
    const approvals = panel.page.getByRole('combobox', { name: 'Approvals', exact: true });
    await approvals.focus();
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('ArrowDown')), [
      { type: 'choose', choice: 'approval', value: 'all' },
    ]);
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Escape')), []);
    assert.equal(await focused(panel), 'Approvals');
    // So do the other two: Escape on a picker is the picker's, never Stop's.
    for (const name of ['Model', 'Reasoning effort']) {
      await panel.page.getByRole('combobox', { name, exact: true }).focus();
      assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Escape')), [], name);
      assert.equal(await focused(panel), name);
    }

    // The past chats: opened from the keyboard, the focus on the first; Escape closes them and the focus
    // goes back to History.
    await panel.page.getByRole('button', { name: 'History', exact: true }).focus();
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Enter')), [{ type: 'history' }]);
    panel.post({
      type: 'history',
      sessions: [{ id: 's1', title: 'Fix the failing test', createdAt: '2026-01-02T10:00:00.000Z' }],
    });
    await panel.delivered();
    const dialog = panel.page.getByRole('dialog', { name: 'Past chats' });
    assert.equal(await dialog.isVisible(), true);
    assert.equal(await focused(panel), 'Fix the failing test');
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Escape')), []);
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await focused(panel), 'History');

    // Escape elsewhere still stops the running task, as before.
    await prompt.focus();
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Escape')), [{ type: 'stop' }]);
  });

  it('a past chat chosen from the keyboard leaves the focus in the prompt box, not on nothing', async () => {
    const panel = await chromium.open('dark');
    panel.postAll(EMPTY_CHAT);
    await panel.delivered();
    await panel.page.getByRole('button', { name: 'History', exact: true }).focus();
    await panel.page.keyboard.press('Enter');
    panel.post({
      type: 'history',
      sessions: [{ id: 's1', title: 'Fix the failing test', createdAt: '2026-01-02T10:00:00.000Z' }],
    });
    await panel.delivered();
    assert.equal(await focused(panel), 'Fix the failing test');
    // Enter on it: the list closes with the focused button in it; the focus goes where the user types next.
    assert.deepEqual(await panel.postedBy(() => panel.page.keyboard.press('Enter')), [
      { type: 'openSession', id: 's1' },
    ]);
    assert.equal(await panel.page.getByRole('dialog', { name: 'Past chats' }).isVisible(), false);
    assert.equal(await focused(panel), 'Ask Loopwire');
  });

  it('in a high-contrast theme, the @ picker outlines the option Enter would pick', async () => {
    const panel = await chromium.open('hc-black');
    panel.postAll(EMPTY_CHAT);
    await panel.delivered();
    await panel.page.getByRole('textbox', { name: 'Ask Loopwire' }).focus();
    await panel.page.keyboard.type('@');
    const outline = (selected: boolean) =>
      panel.page
        .locator(`.context-option[aria-selected="${selected}"]`)
        .first()
        .evaluate((option) => {
          const style = (globalThis as unknown as StyleWindow).getComputedStyle(option);
          return `${style.outlineStyle} ${style.outlineColor}`;
        });
    // The theme's contrastActiveBorder, #f38518; the other options have none.
    assert.equal(await outline(true), 'dotted rgb(243, 133, 24)');
    assert.match(await outline(false), /^none /);
  });

  it('the conversation stays a live region', async () => {
    const panel = await chromium.open('dark');
    await showConversation(panel);
    const log = panel.page.getByRole('log', { name: 'Conversation' });
    assert.equal(await log.count(), 1);
    assert.ok((await log.locator('.entry').count()) > 5);
  });
});
