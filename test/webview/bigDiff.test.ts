import * as assert from 'node:assert/strict';
import type { DiffFile, ToolEntry } from '../../src/protocol/chatView';
import { FOLDED_DIFF_LINES, STREAMING_TAIL_LINES } from '../../src/webview/diffLimits';
import { useChromium } from './chromium';

// Big diffs stay cheap to draw (issue 24): a file being written shows its newest lines only, and a long
// diff shows its first lines with "Show all", which draws the rest on demand and keeps it drawn.

const LINES = 300;
const added = Array.from({ length: LINES }, (_, i) => `export const value${i} = ${i};`);

function card(status: ToolEntry['status'], pending: boolean): ToolEntry {
  const file: DiffFile = {
    path: 'src/generated.ts',
    op: 'create',
    hunks: [{ id: 'h1', oldStart: 1, oldLines: [], newStart: 1, newLines: added, contextBefore: [], contextAfter: [] }],
    pending,
    ...(status === 'done' ? { states: { h1: 'applied' as const } } : {}),
  };
  return {
    kind: 'tool',
    id: 'call_big',
    turn: 1,
    name: 'apply_patch',
    summary: 'src/generated.ts',
    status,
    diff: [file],
  };
}

describe('chat panel in Chromium: big diffs', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('while written, shows the newest lines and how many are above', async () => {
    const panel = await chromium.open('dark');
    panel.post({
      type: 'state',
      sessionId: 'big',
      entries: [card('streaming', true)],
      hasOlder: false,
      running: true,
      banner: null,
    });
    await panel.delivered();
    const lines = panel.page.locator('.hunk-body .line');
    assert.equal(await lines.count(), STREAMING_TAIL_LINES);
    assert.equal(await lines.last().locator('.code').innerText(), added.at(-1));
    assert.match(
      await panel.page.locator('.diff-earlier').innerText(),
      new RegExp(`^${LINES - STREAMING_TAIL_LINES} lines above`),
    );
  });

  it('once written, shows the first lines and Show all, which draws every line and keeps them', async () => {
    const panel = await chromium.open('dark');
    panel.post({
      type: 'state',
      sessionId: 'big',
      entries: [card('done', false)],
      hasOlder: false,
      running: false,
      banner: null,
    });
    await panel.delivered();
    const lines = panel.page.locator('.hunk-body .line');
    assert.equal(await lines.count(), FOLDED_DIFF_LINES);
    assert.equal(await lines.first().locator('.code').innerText(), added[0]);
    assert.equal(await panel.page.locator('.file-stat.added').innerText(), `+${LINES}`, 'the badge counts them all');
    await panel.page.getByRole('button', { name: `Show all ${LINES} lines` }).click();
    await panel.delivered();
    assert.equal(await lines.count(), LINES);
    // The card drawn again (its review changed): still whole.
    panel.post({ type: 'entry', entry: { ...card('done', false), summary: 'src/generated.ts (kept)' } });
    await panel.delivered();
    assert.equal(await lines.count(), LINES);
    assert.deepEqual(await panel.problems(), []);
  });
});
