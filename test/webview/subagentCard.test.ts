import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry, ToolEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// Subagents in the panel (issue 49 item 4), in Chromium on the built page: each is folded into the
// spawn_agent card that started it (id and type, the task's first line, state, call count), opens on a click
// to its calls' cards and its answer, stays open while the host redraws the card at its next step, and reads
// whole at 260 px; a wait card lists whom it waited for and what each answered.

const spawn = (id: string, subagent: NonNullable<ToolEntry['subagent']>): ToolEntry => ({
  kind: 'tool',
  id,
  turn: 1,
  name: 'spawn_agent',
  summary: subagent.task,
  status: 'done',
  durationMs: 2,
  output: JSON.stringify({ agent_id: subagent.id }),
  subagent,
});

const READER = {
  id: 'a1b2c3d4',
  type: 'explorer',
  task: 'Find every caller of applyDiscount in src and say how each passes the percent\nReport paths and lines.',
  state: 'running' as const,
  calls: [
    {
      kind: 'tool' as const,
      id: 'call_r1',
      turn: 1,
      name: 'search_text',
      summary: 'applyDiscount in src',
      status: 'done' as const,
      durationMs: 14,
      output: 'src/cart.js:12: applyDiscount(total, percent)',
    },
  ],
};

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Split the discount work between two helpers.' },
  spawn('call_s1', READER),
  spawn('call_s2', {
    id: 'e5f6a7b8',
    task: 'Run the cart tests',
    state: 'failed',
    reason: 'The endpoint refused the request.',
    calls: [],
  }),
  {
    kind: 'tool',
    id: 'call_w1',
    turn: 2,
    name: 'wait',
    summary: '2 agents',
    status: 'done',
    durationMs: 1_200,
    waited: [
      { id: 'a1b2c3d4', state: 'done', line: 'Two callers: src/cart.js:12 and src/checkout.js:40' },
      { id: 'e5f6a7b8', state: 'failed', line: 'The endpoint refused the request.' },
    ],
  },
];

/** How much of an element's text its box hides (0: all of it shows). */
const hidden = (element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth - element.clientWidth;

describe('chat panel in Chromium: subagents under their spawn cards', function () {
  this.timeout(30_000);
  const chromium = useChromium();

  const shot = async (panel: Panel, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  };

  async function shown(width: number): Promise<Panel> {
    const panel = await chromium.open('dark');
    await panel.page.setViewportSize({ width, height: 800 });
    panel.post({
      type: 'state',
      sessionId: 'subagents',
      entries: ENTRIES,
      hasOlder: false,
      running: true,
      banner: null,
    });
    await panel.delivered();
    return panel;
  }

  it('folds each subagent to its header; a click opens its calls and answer, and a redraw keeps it open', async () => {
    const panel = await shown(420);
    const reader = panel.page.locator('.subagent[data-agent="a1b2c3d4"]');
    const header = reader.locator('.subagent-header');
    assert.equal(await header.locator('.subagent-name').textContent(), 'a1b2c3d4 · explorer');
    assert.equal(
      await header.locator('.subagent-task').textContent(),
      'Find every caller of applyDiscount in src and say how each passes the percent',
    );
    assert.equal(await header.locator('.subagent-state').textContent(), 'running1 call');
    assert.equal(await reader.locator('.tool-card').isVisible(), false, 'folded at first');
    await shot(panel, 'subagents-folded');
    await header.click();
    const nested = reader.locator('.subagent-body .tool-card');
    assert.equal(await nested.locator('.tool-name').textContent(), 'search_text');
    assert.ok(await nested.isVisible());
    // The host sends the card again at the subagent's next step: it stays open, now with its answer.
    panel.post({
      type: 'entry',
      entry: spawn('call_s1', {
        ...READER,
        state: 'done',
        answer: 'Two callers: **src/cart.js:12** and src/checkout.js:40',
      }),
    });
    await panel.delivered();
    assert.notEqual(await reader.getAttribute('open'), null, 'still open after the redraw');
    assert.equal(await reader.locator('.subagent-answer strong').textContent(), 'src/cart.js:12');
    assert.equal(await header.locator('.subagent-state').textContent(), 'done1 call');
    const failed = panel.page.locator('.subagent[data-agent="e5f6a7b8"]');
    assert.equal(await failed.locator('.subagent-state').textContent(), 'failed0 calls');
    const waited = panel.page.locator('.waited .waited-agent');
    assert.deepEqual(await waited.locator('.waited-state').allTextContents(), ['answered', 'failed']);
    assert.equal(
      await waited.first().locator('.waited-line').textContent(),
      'Two callers: src/cart.js:12 and src/checkout.js:40',
    );
    await shot(panel, 'subagents-open');
    assert.deepEqual(await panel.problems(), []);
  });

  it('260 px: the headers keep the name and state whole inside the card, the task cut to two lines', async () => {
    const panel = await shown(260);
    await panel.page.locator('.subagent[data-agent="a1b2c3d4"] .subagent-header').click();
    await panel.delivered();
    await shot(panel, 'subagents-260');
    for (const header of await panel.page.locator('.subagent-header').all()) {
      const card = await header.boundingBox();
      assert.ok(card && card.x + card.width <= 260, 'the header inside the panel');
      for (const part of ['.subagent-name', '.subagent-state']) {
        const at = await header.locator(part).boundingBox();
        assert.ok(at && at.x >= card.x && at.x + at.width <= card.x + card.width, `${part} inside its header`);
        const cut = await header.locator(part).evaluate(hidden);
        assert.equal(cut, 0, `${part} is not cut`);
      }
      assert.match((await header.getAttribute('title')) ?? '', /^Subagent /);
    }
    const nested = await panel.page.locator('.subagent-body .tool-card').boundingBox();
    assert.ok(nested && nested.x + nested.width <= 260, 'a nested card inside the panel');
    const page = await panel.page.locator('html').evaluate((element: { scrollWidth: number }) => element.scrollWidth);
    assert.ok(page <= 260, `nothing scrolls sideways (${page} px)`);
  });

  it("a running subagent's own Stop asks the host to stop it alone; the card neither folds nor opens", async () => {
    const panel = await shown(420);
    const reader = panel.page.locator('.subagent[data-agent="a1b2c3d4"]');
    const stop = reader.locator('.subagent-header .subagent-stop');
    assert.equal(await stop.getAttribute('aria-label'), 'Stop a1b2c3d4 · explorer');
    assert.equal(
      await panel.page.locator('.subagent[data-agent="e5f6a7b8"] .subagent-stop').count(),
      0,
      'none once it ended',
    );
    const posted = await panel.postedBy(() => stop.click());
    assert.deepEqual(
      posted.filter((message) => message.type === 'stop'),
      [{ type: 'stop', agent: 'a1b2c3d4' }],
    );
    assert.equal(await reader.getAttribute('open'), null, 'still folded');
    assert.equal(await stop.isDisabled(), true, 'sent once');
    await shot(panel, 'subagents-stop');
    // The host's next card: stopped, and no Stop any more.
    panel.post({ type: 'entry', entry: spawn('call_s1', { ...READER, state: 'stopped' }) });
    await panel.delivered();
    assert.equal(await reader.locator('.subagent-state').textContent(), 'stopped1 call');
    assert.equal(await reader.locator('.subagent-stop').count(), 0);
    assert.deepEqual(await panel.problems(), []);
  });
});
