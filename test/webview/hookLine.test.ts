import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';

// A hook's decision on a tool card, in real Chromium (issue 50 item 4): the card of a call a PreToolUse hook
// denied says so with the hook's reason, under its header, in the error colour's icon; one a hook allowed says
// that too; a card no hook decided about has no such line.

const CARDS: ChatEntry[] = [
  {
    kind: 'tool',
    id: 'c1',
    turn: 0,
    name: 'exec_command',
    summary: 'rm -rf build',
    status: 'failed',
    hook: { event: 'PreToolUse', decision: 'deny', reason: 'rm -rf is not allowed in this repository' },
  },
  {
    kind: 'tool',
    id: 'c2',
    turn: 0,
    name: 'exec_command',
    summary: 'npm test',
    status: 'done',
    hook: { event: 'PreToolUse', decision: 'allow' },
  },
  { kind: 'tool', id: 'c3', turn: 0, name: 'read_file', summary: 'src/cart.js', status: 'done' },
];

describe('chat panel in Chromium: a hook’s decision on its tool card', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('shows which hook decided what, and why, on the call’s card alone', async () => {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'hooks', entries: CARDS, hasOlder: false, running: false, banner: null });
    await panel.delivered();
    const lines = panel.page.locator('.tool-card .tool-hook');
    assert.deepEqual(await lines.allInnerTexts(), [
      'PreToolUse hook denied it: rm -rf is not allowed in this repository',
      'PreToolUse hook allowed it',
    ]);
    assert.match((await lines.first().getAttribute('class')) ?? '', /\brefused\b/);
    assert.equal(await panel.page.locator('.tool-card', { hasText: 'src/cart.js' }).locator('.tool-hook').count(), 0);
    assert.deepEqual(await panel.problems(), []);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-hook-line.png') });
  });
});
