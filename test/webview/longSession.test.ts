import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/agent';
import { ChatModel, PAGE_SIZE } from '../../src/extension/chat/chatModel';
import type { ChatEntry, HostMessage } from '../../src/protocol/chatView';
import { useChromium } from './chromium';
import type { Panel } from './panel';
import { readOriginal, recordedSession } from './recordSession';
import { hostSession } from './replay';

// A long session (issue 11): a thousand entries, a state of the first 850 and then 150 more streamed in
// as the host sends them (entries and text deltas, from the recorded agent session played again and again
// under new ids). The page keeps a window of the newest entries (main.ts: 200), pages older ones in on
// request, and each streamed token costs the same small amount however long the conversation is — timed
// and printed here, never asserted (timings belong to the machine).

/** main.ts keeps at most this many entries in the page. */
const MAX_SHOWN = 200;
const ENTRIES_PER_SESSION = 5;

/** The recorded session under new item and call ids, as if the agent had run it again. */
function renamed(events: readonly AgentEvent[], k: number): AgentEvent[] {
  return events.map((event) => {
    const copy = { ...event } as AgentEvent & { itemId?: string; callId?: string };
    if (copy.itemId !== undefined) copy.itemId = `${copy.itemId}-${k}`;
    if (copy.callId !== undefined) copy.callId = `${copy.callId}-${k}`;
    return copy;
  });
}

const entriesShown = (panel: Panel) => panel.page.locator('.transcript > .entry').count();

function stats(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `mean ${mean.toFixed(2)} ms, p50 ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${at(1).toFixed(2)} ms`;
}

describe('chat panel in Chromium: a long session stays bounded', function () {
  this.timeout(40_000);
  const chromium = useChromium();
  let events: AgentEvent[];
  let template: ChatEntry[];

  before(async function () {
    this.timeout(20_000);
    events = (await recordedSession()).events;
    template = (await hostSession(events, readOriginal)).entries;
    assert.equal(template.length, ENTRIES_PER_SESSION, 'prompt, answer, read_file, apply_patch, answer');
  });

  it('keeps at most 200 entries in the DOM across 1,000, pages older ones in, and times each streamed token', async () => {
    const panel = await chromium.open('dark');
    const history = Array.from({ length: 170 }, (_, k) =>
      template.map((entry) => ({ ...entry, id: `${entry.id}#${k}` })),
    ).flat();
    const burst: HostMessage[] = [];
    const host = new ChatModel((message) => burst.push(message), readOriginal);
    host.reset(history);
    // More than the host would ever send at once (a page is 60): the page must trim it itself.
    panel.post({ type: 'state', sessionId: 'long', entries: history, hasOlder: false, running: true, banner: null });
    await panel.delivered();
    const counts = [await entriesShown(panel)];

    // 30 more sessions, streamed: each one's messages go to the page as one burst, as fast as it takes them.
    const started = performance.now();
    let messages = 0;
    for (let k = 0; k < 30; k++) {
      host.addUser(`Again, round ${k}`);
      for (const event of renamed(events, k)) host.handle(event);
      messages += burst.length;
      panel.postAll(burst.splice(0));
      await panel.delivered(1);
      counts.push(await entriesShown(panel));
    }
    const streamedMs = performance.now() - started;
    host.dispose();
    assert.equal(host.all.length, 1_000);
    assert.ok(
      counts.every((count) => count <= MAX_SHOWN),
      `entries in the DOM: ${[...new Set(counts)].join(', ')}`,
    );
    assert.equal(counts.at(-1), MAX_SHOWN);
    const last = host.all.at(-1);
    assert.equal(await panel.page.locator('.transcript > .entry').last().getAttribute('data-id'), last?.id);

    // One more answer, already long and streamed on token by token into a page that holds 200 entries: the
    // cost per token (one per frame, so this takes about 2 s).
    const tokens = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : []));
    const text = Array.from({ length: 4 }, () => tokens.join('')).join('\n\n');
    panel.post({ type: 'entry', entry: { kind: 'assistant', id: 'timed', text, streaming: true } });
    await panel.delivered();
    const deltas = Array.from({ length: 2 }, () => tokens).flat();
    const times = await panel.page.evaluate(
      ([id, d]) =>
        (
          globalThis as unknown as { __loopwire: { timeTokens(i: string, t: string[]): Promise<number[]> } }
        ).__loopwire.timeTokens(id, d),
      ['timed', deltas] as const,
    );
    const answer = (await panel.page.locator('.entry[data-id="timed"]').innerText()).length;
    const heap = await panel.page.evaluate('performance.memory?.usedJSHeapSize');
    console.log(
      `      ${messages} host messages for 150 streamed entries in ${streamedMs.toFixed(0)} ms; ` +
        `per streamed token (${deltas.length} tokens, the answer growing to ${answer} characters, ` +
        `${await entriesShown(panel)} entries shown): ${stats(times)}; JS heap ${((Number(heap) || 0) / 2 ** 20).toFixed(1)} MiB`,
    );
    assert.ok(times.length === deltas.length && times.every((t) => Number.isFinite(t) && t >= 0));

    // "Show earlier messages": the page asks for the page before its oldest entry; the host's answer goes in
    // above, and the window stays bounded (the newest 200 plus the page asked for).
    const oldest = await panel.page.locator('.transcript > .entry').first().getAttribute('data-id');
    assert.ok(oldest);
    await panel.clearPosted();
    await panel.page.getByRole('button', { name: 'Show earlier messages' }).click();
    const asked = await panel.waitForPosted((m) => m.type === 'loadOlder');
    assert.deepEqual(asked, { type: 'loadOlder', before: oldest });
    const older = host.olderThan(oldest);
    assert.equal(older.entries.length, PAGE_SIZE);
    panel.post({ type: 'older', ...older });
    await panel.delivered();
    assert.equal(await entriesShown(panel), MAX_SHOWN + PAGE_SIZE, 'the newest 200, then a page');
    assert.equal(
      await panel.page.locator('.transcript > .entry').first().getAttribute('data-id'),
      older.entries[0]?.id,
    );
    assert.equal(await panel.page.getByRole('button', { name: 'Show earlier messages' }).count(), 1, 'more to page in');
  });
});
