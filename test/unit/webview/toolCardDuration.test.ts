import * as assert from 'node:assert/strict';
import type { ToolEntry } from '../../../src/protocol/chatView';
import { useChromium } from '../../webview/chromium';

// A card shows how long its call ran; a call that never ran (skipped, or left waiting for approval when
// the user pressed Stop) shows no time at all, where it used to read "skipped 0 ms".

const card = (id: string, status: ToolEntry['status'], output: string): ToolEntry => ({
  kind: 'tool',
  id,
  turn: 1,
  name: 'exec_command',
  summary: 'npm test',
  status,
  output,
  durationMs: status === 'declined' ? 0.4 : 1_250,
});

describe('chat panel in Chromium: a tool card’s duration', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('a call that ran shows its time; one that never ran shows none', async () => {
    const panel = await chromium.open('dark');
    panel.post({
      type: 'state',
      sessionId: 'durations',
      entries: [
        { kind: 'user', id: 'user:1', text: 'Run the tests.' },
        card('call_ran', 'done', 'Exit code 0'),
        card('call_skipped', 'declined', 'Stopped before it ran.'),
      ],
      hasOlder: false,
      running: false,
      banner: null,
    });
    await panel.delivered();
    const ran = panel.page.locator('.tool-card.status-done');
    const skipped = panel.page.locator('.tool-card.status-declined');
    assert.equal(await ran.locator('.tool-duration').textContent(), '1.3 s');
    assert.equal(await skipped.locator('.tool-status').textContent(), 'skipped');
    assert.equal(await skipped.locator('.tool-duration').count(), 0, 'no time for a call that never ran');
  });
});
