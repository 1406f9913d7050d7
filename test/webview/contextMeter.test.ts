import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry, ContextMeter, HostMessage } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The token meter in the panel's header (issue 22): `38k / 272k` after each turn, the exact figures in its
// tooltip, the warning colour past the compaction threshold, gone after New chat and back after a reload
// (the state carries it); and the marker a compaction leaves in the conversation.

const entries: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Read every part of the service.' },
  { kind: 'tool', id: 'call_1', turn: 1, name: 'read_file', summary: 'src/part1.ts', status: 'done', durationMs: 3 },
  { kind: 'notice', id: 'notice:2', level: 'info', text: 'Context compacted (2,656 → 412 tokens)' },
  { kind: 'tool', id: 'call_2', turn: 2, name: 'read_file', summary: 'src/part2.ts', status: 'done', durationMs: 2 },
  { kind: 'assistant', id: 'text:3', text: 'Read every part.', streaming: false },
];

interface MeterShown {
  visible: boolean;
  text: string;
  title: string;
  warn: boolean;
  full: boolean;
  colour: string | undefined;
  bar: { value: number; max: number; low: number; high: number; label: string | null };
}

const state = (context?: ContextMeter, shown: ChatEntry[] = entries): HostMessage => ({
  type: 'state',
  sessionId: 'meter',
  entries: shown,
  hasOlder: false,
  running: false,
  banner: null,
  ...(context ? { context } : {}),
});

describe('chat panel in Chromium: the token meter in the header and the compaction marker', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function send(panel: Panel, ...messages: HostMessage[]): Promise<void> {
    for (const message of messages) panel.post(message);
    await panel.delivered();
  }

  /** What the header's meter shows: its text, tooltip, colour class, bar, and whether it is there at all. */
  async function meterOf(panel: Panel): Promise<MeterShown | undefined> {
    // A string: this project's tests type-check without the DOM's types.
    return panel.page.evaluate<MeterShown | undefined>(`(() => {
      const meter = document.querySelector('.toolbar .context-meter');
      const bar = meter?.querySelector('meter');
      if (!meter || !bar) return undefined;
      return {
        visible: meter.offsetParent !== null,
        text: meter.querySelector('.context-meter-text')?.textContent ?? '',
        title: meter.title,
        warn: meter.classList.contains('warn'),
        full: meter.classList.contains('full'),
        colour: getComputedStyle(meter).color,
        bar: { value: bar.value, max: bar.max, low: bar.low, high: bar.high, label: bar.getAttribute('aria-valuetext') },
      };
    })()`);
  }

  it('shows `38k / 272k` with the exact figures in its tooltip, and the marker as an info entry', async () => {
    const panel = await chromium.open('dark');
    assert.equal((await meterOf(panel))?.visible, false, 'no meter before any turn');
    await send(panel, state({ tokens: 38_412, window: 272_000 }));
    const meter = await meterOf(panel);
    assert.deepEqual(
      { ...meter, colour: undefined },
      {
        visible: true,
        text: '38k / 272k',
        title: 'Context: 38,412 of 272,000 tokens (14%)',
        warn: false,
        full: false,
        colour: undefined,
        bar: {
          value: 38_412,
          max: 272_000,
          low: 217_600,
          high: 258_400,
          label: 'Context: 38,412 of 272,000 tokens (14%)',
        },
      },
    );
    // The tooltip is the meter's own: hovering shows the same words.
    const header = panel.page.locator('.toolbar .context-meter');
    assert.equal(await header.getAttribute('title'), 'Context: 38,412 of 272,000 tokens (14%)');
    assert.equal(
      await panel.page.getByRole('meter', { name: 'Context' }).getAttribute('aria-valuetext'),
      'Context: 38,412 of 272,000 tokens (14%)',
      'a screen reader hears the exact figures',
    );
    const marker = panel.page.locator('.entry.notice[data-id="notice:2"]');
    assert.equal(await marker.innerText(), 'Context compacted (2,656 → 412 tokens)');
    assert.deepEqual(await marker.getAttribute('class'), 'entry notice info');
    assert.equal(await marker.getAttribute('role'), 'status');

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-context-meter.png') });
    await header.screenshot({ path: path.join(ARTIFACTS, 'dark-context-meter-header.png') });
  });

  it('follows each turn, turns to the warning colour past 80 % and the error colour near the window', async () => {
    const panel = await chromium.open('light');
    await send(panel, state({ tokens: 950, window: 272_000 }));
    const calm = await meterOf(panel);
    assert.equal(calm?.text, '950 / 272k');
    assert.equal(calm.title, 'Context: 950 of 272,000 tokens (0%)');

    await send(panel, { type: 'context', context: { tokens: 221_000, window: 272_000 } });
    const warm = await meterOf(panel);
    assert.equal(warm?.text, '221k / 272k');
    assert.equal(warm.title, 'Context: 221,000 of 272,000 tokens (81%)');
    assert.ok(warm.warn && !warm.full, 'warning past the compaction threshold');
    assert.notEqual(warm.colour, calm.colour, 'the text changes colour');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-context-meter-warn.png') });
    await panel.page
      .locator('.toolbar')
      .screenshot({ path: path.join(ARTIFACTS, 'light-context-meter-warn-header.png') });

    await send(panel, { type: 'context', context: { tokens: 1_180_000, window: 1_200_000 } });
    const full = await meterOf(panel);
    assert.equal(full?.text, '1.2M / 1.2M');
    assert.equal(full.title, 'Context: 1,180,000 of 1,200,000 tokens (98%)');
    assert.ok(full.full && !full.warn);
    assert.notEqual(full.colour, warm.colour);

    // A compaction brings it down at once: back to the calm colour.
    await send(panel, { type: 'context', context: { tokens: 4_120, window: 1_200_000 } });
    const after = await meterOf(panel);
    assert.equal(after?.text, '4.1k / 1.2M');
    assert.ok(!after.warn && !after.full);
    assert.equal(after.colour, calm.colour);
  });

  it('New chat hides it; a reloaded page (a new state) shows it again', async () => {
    const panel = await chromium.open('dark');
    await send(panel, state({ tokens: 2_656, window: 4_000 }));
    assert.equal((await meterOf(panel))?.text, '2.7k / 4k');
    await send(panel, state(undefined, []));
    assert.equal((await meterOf(panel))?.visible, false, 'a new chat has no meter');

    await panel.page.reload();
    await panel.waitForPosted((message) => message.type === 'ready');
    assert.equal((await meterOf(panel))?.visible, false, 'nothing shown before the state');
    await send(panel, state({ tokens: 412, window: 4_000 }));
    const meter = await meterOf(panel);
    assert.equal(meter?.text, '412 / 4k');
    assert.equal(meter.title, 'Context: 412 of 4,000 tokens (10%)');
  });
});
