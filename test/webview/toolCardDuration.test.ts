import * as assert from 'node:assert/strict';
import type { ToolEntry } from '../../src/protocol/chatView';
import { useChromium } from './chromium';

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

describe('chat panel in Chromium: the card of a command left running in the background', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  const background: ToolEntry = {
    kind: 'tool',
    id: 'call_dev',
    turn: 1,
    name: 'exec_command',
    summary: 'npm run dev',
    status: 'running',
    session: 4,
    output: 'Still running, in the background as session 4.\n--- output so far ---\nlistening on :5173',
  };

  it('says running, its time ticking with the list’s, until the command ends; then its exit code and time', async () => {
    const panel = await chromium.open('dark');
    panel.post({ type: 'commands', commands: [{ id: 4, command: 'npm run dev', runningMs: 2_400 }] });
    panel.post({
      type: 'state',
      sessionId: 'background',
      entries: [{ kind: 'user', id: 'user:1', text: 'Start the dev server.' }, background],
      hasOlder: false,
      running: false,
      banner: null,
    });
    await panel.delivered();
    const header = panel.page.locator('.tool-card .tool-header');
    assert.equal(await header.locator('.tool-status').textContent(), 'running');
    assert.match((await header.locator('.tool-duration').textContent()) ?? '', /^[23] s$/);
    // The page's clock moves it on, as it does the list's row.
    await panel.page.locator('.tool-card .tool-duration', { hasText: /^([4-9]|\d\d) s$/ }).waitFor({ timeout: 10_000 });
    // Both read at once (one evaluate in the page), so no tick falls between them.
    const [card, row] = await panel.page
      .locator('.tool-card .tool-duration, .command-list .command-time')
      .allTextContents();
    assert.equal(card, row, 'the card and the list say the same time');

    panel.post({ type: 'commands', commands: [] });
    const { session: _session, ...rest } = background;
    panel.post({
      type: 'entry',
      entry: { ...rest, status: 'failed', durationMs: 6_480, exit: { code: 3, timedOut: false } },
    });
    await panel.page.locator('.tool-card.status-failed').waitFor({ timeout: 5_000 });
    assert.equal(await header.locator('.tool-status').textContent(), 'exit code 3');
    assert.equal(await header.locator('.tool-duration').textContent(), '6.5 s');

    panel.post({
      type: 'entry',
      entry: { ...rest, status: 'failed', durationMs: 900, exit: { code: null, timedOut: false } },
    });
    await panel.page.locator('.tool-card .tool-status', { hasText: 'stopped' }).waitFor({ timeout: 5_000 });
    panel.post({
      type: 'entry',
      entry: { ...rest, status: 'done', durationMs: 900, exit: { code: 0, timedOut: false } },
    });
    await panel.page
      .locator('.tool-card.status-done .tool-status', { hasText: 'exit code 0' })
      .waitFor({ timeout: 5_000 });
  });
});
