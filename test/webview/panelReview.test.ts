import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DiffFile, HunkState, ToolEntry, ViewMessage } from '../../src/protocol/chatView';
import type { DiffHunk } from '../../src/protocol/edits';
import type { Locator } from 'playwright-core';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// Cards that say what they do and follow the files (issue 21): an approval names its action and shows the
// command before it runs, with Allow, Allow for this chat and Skip; a rejected hunk can be restored, an
// edited one only says so; badges and "Undo all of this turn" count what stands; paths in a tool's output
// and a file tool's summary open the file.

const hunk = (id: string, at: number, before: string, after: string): DiffHunk => ({
  id,
  oldStart: at,
  oldLines: [before],
  newStart: at,
  newLines: [after],
  contextBefore: ['function total(cart) {'],
  contextAfter: ['}'],
});

const HUNKS = [
  hunk('h1', 10, '  return sum * percent;', '  return sum * (1 - percent / 100);'),
  hunk('h2', 30, '  return items.length', '  return items.length;'),
];

function review(states: Record<string, HunkState>): ToolEntry {
  const file: DiffFile = { path: 'src/cart.js', op: 'update', hunks: HUNKS, pending: false, states };
  return {
    kind: 'tool',
    id: 'call_patch',
    turn: 2,
    name: 'apply_patch',
    summary: 'src/cart.js',
    status: 'done',
    diff: [file],
  };
}

/** How the text of the first element `locator` finds is decorated (`line-through`, `none`). */
const decoration = (locator: Locator): Promise<unknown> =>
  locator.first().evaluate((e) => (globalThis as unknown as StyleWindow).getComputedStyle(e).textDecorationLine);

interface StyleWindow {
  getComputedStyle(element: unknown): { textDecorationLine: string };
}

describe('chat panel in Chromium: approvals that say what they do, review that follows the files, path links', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  const expectPost = async (panel: Panel, act: () => Promise<void>, expected: ViewMessage[]) =>
    assert.deepEqual(await panel.postedBy(act), expected);

  async function panelWith(...entries: ToolEntry[]): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'review', entries, hasOlder: false, running: true, banner: null });
    await panel.delivered();
    return panel;
  }

  it('a task’s approval: the action with its code, the command before it runs, Run / Allow tasks for this chat / Skip', async () => {
    const task: ToolEntry = {
      kind: 'tool',
      id: 'call_task',
      turn: 1,
      name: 'run_task',
      summary: 'npm: test',
      status: 'approval',
      ask: { action: 'Run task `npm: test` — **now**', detail: 'node --test', effect: 'task' },
    };
    const panel = await panelWith(task);
    const card = panel.page.locator('.entry.tool[data-id="call_task"]');
    assert.equal(await card.locator('.tool-status').innerText(), 'waiting for you');
    assert.doesNotMatch(await card.innerText(), /writing/);
    const action = card.locator('.approval-action');
    assert.equal(await action.innerText(), 'Run task npm: test — **now**', 'code spans only, no other markdown');
    assert.equal(await action.locator('code').innerText(), 'npm: test');
    assert.equal(await card.locator('pre.approval-detail').innerText(), 'node --test');
    const buttons = card.locator('.approval button');
    const described: [string | null, string | null][] = [];
    for (const b of await buttons.all()) described.push([await b.getAttribute('data-action'), await b.textContent()]);
    assert.deepEqual(described, [
      ['allow', 'Run'],
      ['allow-chat', 'Allow tasks for this chat'],
      ['skip', 'Skip'],
    ]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-approval-task.png') });
    await expectPost(panel, () => card.locator('button[data-action="allow"]').click(), [
      { type: 'approval', callId: 'call_task', allow: true },
    ]);
    await expectPost(panel, () => card.locator('button[data-action="allow-chat"]').click(), [
      { type: 'approval', callId: 'call_task', allow: true, forChat: true },
    ]);
    await expectPost(panel, () => card.locator('button[data-action="skip"]').click(), [
      { type: 'approval', callId: 'call_task', allow: false },
    ]);

    // An edit asks with Apply and "Allow edits for this chat", its proposed diff above.
    const edit: ToolEntry = {
      ...review({}),
      id: 'call_edit',
      status: 'approval',
      ask: { action: 'Apply edit to `src/cart.js`', detail: 'src/cart.js', effect: 'write' },
    };
    delete edit.diff?.[0]?.states;
    panel.post({ type: 'entry', entry: edit });
    await panel.delivered();
    const editCard = panel.page.locator('.entry.tool[data-id="call_edit"]');
    assert.equal(await editCard.locator('.hunk').count(), 2);
    assert.deepEqual(await editCard.locator('.approval button').allTextContents(), [
      'Apply',
      'Allow edits for this chat',
      'Skip',
    ]);
    assert.equal(await editCard.locator('.hunk-state, .hunk-actions').count(), 0, 'nothing to review before it runs');
    assert.equal(await editCard.locator('.file-stat.added').innerText(), '+2', 'a proposal counts every hunk');
  });

  it('a rejected hunk offers Restore, marks only its own lines, and leaves the badges', async () => {
    const panel = await panelWith(review({ h1: 'rejected', h2: 'applied' }));
    const card = panel.page.locator('.entry.tool[data-id="call_patch"]');
    const rejected = card.locator('.hunk[data-hunk="h1"]');
    assert.equal(await rejected.locator('.hunk-state').innerText(), 'Rejected');
    assert.deepEqual(await rejected.getByRole('button').allTextContents(), ['Restore']);
    await expectPost(panel, () => rejected.getByRole('button', { name: 'Restore' }).click(), [
      { type: 'hunk', callId: 'call_patch', path: 'src/cart.js', hunkId: 'h1', action: 'accept' },
    ]);
    assert.equal(await decoration(rejected.locator('.line.removed .code')), 'line-through');
    assert.equal(await decoration(rejected.locator('.line.added .code')), 'line-through');
    assert.equal(
      await decoration(rejected.locator('.line.context .code')),
      'none',
      'the context is not struck through',
    );
    assert.equal(await card.locator('.file-stat.added').innerText(), '+1', 'only the applied hunk counts');
    assert.equal(await card.locator('.file-stat.removed').innerText(), '−1');
    assert.equal(await card.getByRole('button', { name: 'Undo all of this turn' }).count(), 1, 'h2 is still applied');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-review-restore.png') });

    // Both taken back (a Reject, then the editor's Undo): nothing left to undo, both can be restored.
    panel.post({ type: 'entry', entry: review({ h1: 'rejected', h2: 'rejected' }) });
    await panel.delivered();
    assert.equal(await card.getByRole('button', { name: 'Undo all of this turn' }).count(), 0);
    assert.equal(await card.getByRole('button', { name: 'Restore' }).count(), 2);
    assert.equal(await card.locator('.file-stat.added').innerText(), '+0');
  });

  it('a hunk the user edited since says so and has no buttons; accepted ones keep Undo all of this turn', async () => {
    const panel = await panelWith(review({ h1: 'edited', h2: 'accepted' }));
    const card = panel.page.locator('.entry.tool[data-id="call_patch"]');
    const edited = card.locator('.hunk[data-hunk="h1"]');
    assert.equal(await edited.locator('.hunk-state').innerText(), 'Edited by you');
    assert.equal(await edited.getByRole('button').count(), 0);
    assert.equal(await decoration(edited.locator('.line.removed .code')), 'none');
    assert.equal(await card.locator('.file-stat.added').innerText(), '+1', 'an edited hunk no longer counts');
    assert.equal(await card.getByRole('button', { name: 'Undo all of this turn' }).count(), 1, 'h2 accepted');
    panel.post({ type: 'entry', entry: review({ h1: 'edited', h2: 'rejected' }) });
    await panel.delivered();
    assert.equal(await card.getByRole('button', { name: 'Undo all of this turn' }).count(), 0);
  });

  it('paths in a tool’s output and those the host sent with its summary open the file, by mouse and by keyboard', async () => {
    const output = [
      '✖ applies the discount (2.1ms)',
      "  location: 'test/cart.test.js:10:3'",
      '  at total (src/cart.js:12)',
      'see https://nodejs.org/api/test.html and /usr/lib/node.js',
    ].join('\n');
    const run: ToolEntry = {
      kind: 'tool',
      id: 'call_run',
      turn: 1,
      name: 'run_task',
      summary: 'npm: test',
      status: 'failed',
      output,
    };
    const read: ToolEntry = {
      kind: 'tool',
      id: 'call_read',
      turn: 1,
      name: 'read_file',
      summary: 'src/cart.js',
      paths: ['src/cart.js'],
      status: 'done',
    };
    const mcp: ToolEntry = {
      kind: 'tool',
      id: 'call_mcp',
      turn: 1,
      name: 'mcp__fs__copy',
      summary: 'fs · copy: docs/a.md to docs/b.md',
      paths: ['docs/a.md', 'docs/b.md', '/etc/passwd'],
      status: 'done',
    };
    const panel = await panelWith(run, read, mcp);
    const pre = panel.page.locator('.entry.tool[data-id="call_run"] .tool-output pre');
    await panel.page.locator('.entry.tool[data-id="call_run"] .tool-output summary').click();
    assert.equal(await pre.textContent(), output, 'the output reads as before');
    const links = pre.locator('a.path-link');
    assert.deepEqual(await links.allTextContents(), ['test/cart.test.js:10:3', 'src/cart.js:12']);
    assert.equal(await links.first().getAttribute('href'), '#');
    await expectPost(panel, () => links.first().click(), [
      { type: 'openFile', path: 'test/cart.test.js', line: 10, column: 3 },
    ]);
    await links.nth(1).focus();
    await expectPost(panel, () => panel.page.keyboard.press('Enter'), [
      { type: 'openFile', path: 'src/cart.js', line: 12 },
    ]);

    const summary = panel.page.locator('.entry.tool[data-id="call_read"] .tool-summary');
    assert.equal(await summary.textContent(), 'src/cart.js');
    await expectPost(panel, () => summary.locator('a.path-link').click(), [{ type: 'openFile', path: 'src/cart.js' }]);
    assert.equal(
      await panel.page.locator('.entry.tool[data-id="call_run"] .tool-summary a').count(),
      0,
      'a task’s label is no path',
    );
    const copy = panel.page.locator('.entry.tool[data-id="call_mcp"] .tool-summary');
    assert.equal(await copy.textContent(), 'fs · copy: docs/a.md to docs/b.md');
    assert.deepEqual(await copy.locator('a.path-link').allTextContents(), ['docs/a.md', 'docs/b.md']);
    await expectPost(panel, () => copy.locator('a.path-link').nth(1).click(), [
      { type: 'openFile', path: 'docs/b.md' },
    ]);
  });
});
