import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import type { QueuedPrompt } from '../../src/protocol/promptQueue';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The panel at the side bar's narrow widths (issue 47, item 4): 260 px, the least it must read well at, and
// 300 px, about the side bar's default. A tool card's header never cuts the tool's name or its status (the
// argument gives way), and says all of it in its tooltip; four queued prompts keep every button of every chip
// inside the panel, their rows in line; Stop's give-back leaves the prompt box as tall as what it holds (to a
// limit), the user's own draft in view and the caret at its end.

const WIDTHS = [260, 300];

const CARDS: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Fix the failing test.' },
  {
    kind: 'tool',
    id: 'c1',
    turn: 1,
    name: 'update_plan',
    summary: '0 of 3 done',
    status: 'done',
    durationMs: 3,
  },
  {
    kind: 'tool',
    id: 'c2',
    turn: 1,
    name: 'apply_patch',
    summary: 'src/cart.js, test/cart.test.js',
    status: 'done',
    durationMs: 41,
  },
  {
    kind: 'tool',
    id: 'c3',
    turn: 1,
    name: 'exec_command',
    summary: 'echo serving; sleep 30',
    status: 'running',
    session: 2,
  },
  {
    kind: 'tool',
    id: 'c4',
    turn: 1,
    name: 'write_stdin',
    summary: 'session 2 (poll)',
    status: 'failed',
    durationMs: 6_480,
    exit: { code: 3, timedOut: false },
  },
];

const QUEUE: QueuedPrompt[] = [
  { id: 'q1', text: 'Then run the whole test suite and tell me what still fails' },
  { id: 'q2', text: 'Add a test for applyDiscount with a 100 % discount' },
  { id: 'q3', text: 'Explain how the cart total is computed' },
  { id: 'q4', text: 'Update the README' },
];

/** How much of an element's text its box hides (0: all of it shows). */
const hidden = (element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth - element.clientWidth;

describe('chat panel in Chromium: at 260 and 300 px', function () {
  this.timeout(30_000);
  const chromium = useChromium();

  async function narrow(width: number): Promise<Panel> {
    const panel = await chromium.open('dark');
    await panel.page.setViewportSize({ width, height: 700 });
    return panel;
  }

  const shot = async (panel: Panel, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  };

  for (const width of WIDTHS)
    it(`${width} px: a card's header keeps the tool's name and status whole, and says all of it in its tooltip`, async () => {
      const panel = await narrow(width);
      panel.post({ type: 'commands', commands: [{ id: 2, command: 'echo serving; sleep 30', runningMs: 4_000 }] });
      panel.post({ type: 'state', sessionId: 'narrow', entries: CARDS, hasOlder: false, running: true, banner: null });
      await panel.delivered();
      await shot(panel, `narrow-${width}-cards`);
      const headers = panel.page.locator('.tool-card .tool-header');
      assert.equal(await headers.count(), 4);
      for (const header of await headers.all()) {
        const name = (await header.locator('.tool-name').textContent()) ?? '';
        const box = await header.boundingBox();
        assert.ok(box && box.x + box.width <= width, `${name}: the header inside the panel`);
        for (const part of ['.tool-name', '.tool-status', '.tool-duration']) {
          const element = header.locator(part);
          if ((await element.count()) === 0) continue;
          assert.equal(await element.evaluate(hidden), 0, `${name}: ${part} is not cut`);
          const at = await element.boundingBox();
          assert.ok(at && at.x + at.width <= (box?.x ?? 0) + (box?.width ?? 0), `${name}: ${part} inside its header`);
        }
        const title = (await header.getAttribute('title')) ?? '';
        const summary = (await header.locator('.tool-summary').textContent()) ?? '';
        const status = (await header.locator('.tool-status').textContent()) ?? '';
        assert.ok(title.includes(name) && title.includes(summary) && title.includes(status), `${name}: ${title}`);
      }
    });

  for (const width of WIDTHS)
    it(`${width} px: four queued prompts keep every button inside the panel, their rows in line`, async () => {
      const panel = await narrow(width);
      panel.post({ type: 'state', sessionId: 'narrow', entries: [], hasOlder: false, running: true, banner: null });
      panel.post({ type: 'queue', items: QUEUE });
      await panel.delivered();
      await shot(panel, `narrow-${width}-queue`);
      const chips = await panel.page.locator('.queue-chip').all();
      assert.equal(chips.length, 4);
      const removes: number[] = [];
      for (const chip of chips) {
        const box = await chip.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, 'the chip inside the panel');
        for (const button of await chip.getByRole('button').all()) {
          const at = await button.boundingBox();
          const label = await button.getAttribute('aria-label');
          assert.ok(at && at.x >= box.x && at.x + at.width <= box.x + box.width, `${label}: inside its chip`);
        }
        const remove = await chip.getByRole('button', { name: 'Remove' }).boundingBox();
        removes.push(Math.round(remove?.x ?? -1));
      }
      assert.equal(new Set(removes).size, 1, `every chip's × in one column: ${removes.join(', ')}`);
    });

  for (const width of WIDTHS)
    it(`${width} px: Stop's give-back fits the prompt box to what it holds, the draft in view, the caret after it`, async () => {
      const panel = await narrow(width);
      panel.post({ type: 'state', sessionId: 'narrow', entries: [], hasOlder: false, running: true, banner: null });
      await panel.delivered();
      const box = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
      const draft = 'and mind the rounding';
      await box.fill(draft);
      panel.post({ type: 'unqueued', items: QUEUE.slice(0, 3) });
      await panel.delivered();
      await shot(panel, `narrow-${width}-given-back`);
      const value = await box.inputValue();
      assert.ok(value.startsWith(`${draft}\n\n${QUEUE[0]?.text}`), value);
      const fit = await box.evaluate((element: { scrollHeight: number; clientHeight: number; scrollTop: number }) => ({
        overflow: element.scrollHeight - element.clientHeight,
        scrollTop: element.scrollTop,
      }));
      assert.ok(fit.overflow <= 1, `the box holds it all: ${fit.overflow} px more`);
      assert.equal(fit.scrollTop, 0, 'the draft at its top in view');
      const caret = await box.evaluate((element: { selectionStart: number; selectionEnd: number }) => [
        element.selectionStart,
        element.selectionEnd,
      ]);
      assert.deepEqual(caret, [draft.length, draft.length], 'the caret at the end of the draft');
      const composer = await panel.page.locator('.composer').boundingBox();
      assert.ok(composer && composer.y + composer.height <= 700, 'the composer inside the panel');
    });
});
