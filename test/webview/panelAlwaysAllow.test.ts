import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ToolEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';

// A shell command's approval card offers "Always allow `npm test` in this workspace" where the host sent a
// rule with its ask: the button keeps the rule (the host writes it where a repository cannot) and runs the
// call. A card whose ask has no rule has no such button.

describe('chat panel in Chromium: Always allow a command in this workspace', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  const card = (rule?: string): ToolEntry => ({
    kind: 'tool',
    id: 'call_cmd',
    turn: 1,
    name: 'exec_command',
    summary: 'npm test -- --grep cart',
    status: 'approval',
    ask: {
      action: 'Run command `npm test -- --grep cart`',
      detail: '$ npm test -- --grep cart\n(in the workspace root)',
      effect: 'task',
      ...(rule === undefined ? {} : { rule }),
    },
  });

  it('shows the rule on its own button, which allows the call and keeps the rule', async () => {
    const panel = await chromium.open('dark');
    panel.post({
      type: 'state',
      sessionId: 'always',
      entries: [card('npm test')],
      hasOlder: false,
      running: true,
      banner: null,
    });
    await panel.delivered();
    const entry = panel.page.locator('.entry.tool[data-id="call_cmd"]');
    const described: [string | null, string | null][] = [];
    for (const b of await entry.locator('.approval button').all())
      described.push([await b.getAttribute('data-action'), await b.textContent()]);
    assert.deepEqual(described, [
      ['allow', 'Run'],
      ['allow-chat', 'Allow tasks for this chat'],
      ['allow-always', 'Always allow npm test in this workspace'],
      ['skip', 'Skip'],
    ]);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-approval-always-allow.png') });
    assert.deepEqual(await panel.postedBy(() => entry.locator('button[data-action="allow-always"]').click()), [
      { type: 'approval', callId: 'call_cmd', allow: true, always: true },
    ]);
  });

  it('has no such button where the ask has no rule', async () => {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'never', entries: [card()], hasOlder: false, running: true, banner: null });
    await panel.delivered();
    const entry = panel.page.locator('.entry.tool[data-id="call_cmd"]');
    assert.equal(await entry.locator('button[data-action="allow-always"]').count(), 0);
  });
});
