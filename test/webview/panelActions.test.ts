import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ChatEntry, HostMessage, Remedy, ToolEntry, ViewMessage } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import { EDITED, readOriginal, recordedSession } from './recordSession';
import { hostSession } from './replay';

// What the user does in the panel reaches the host as exactly the right message: each click or key below
// must post one ViewMessage (checked against its schema), and nothing else. The cards are the real ones
// the host's ChatModel built from the recorded agent session.

describe('chat panel in Chromium: what the user does posts the right message', function () {
  this.timeout(20_000);
  const chromium = useChromium();
  let entries: ChatEntry[];
  let review: ToolEntry;
  let proposed: ToolEntry;

  before(async function () {
    this.timeout(20_000);
    const session = await hostSession((await recordedSession()).events, readOriginal);
    entries = session.entries;
    const patch = entries.find((e): e is ToolEntry => e.kind === 'tool' && e.name === 'apply_patch');
    if (!patch) throw new Error('the recorded session has no apply_patch card');
    review = patch;
    // The card as the host first sent it complete, before it ran: the diff an approval card proposes.
    const running = session.sent.findLast(
      (m): m is Extract<HostMessage, { type: 'entry' }> =>
        m.type === 'entry' && m.entry.id === patch.id && m.entry.kind === 'tool' && m.entry.status === 'running',
    );
    if (running?.entry.kind !== 'tool') throw new Error('the apply_patch card never ran');
    proposed = { ...running.entry, status: 'approval' };
    assert.equal(proposed.diff?.[0]?.hunks.length, 4, 'the host sent the whole proposed diff');
  });

  const expectPost = async (panel: Panel, act: () => Promise<void>, expected: ViewMessage[]) =>
    assert.deepEqual(await panel.postedBy(act), expected);

  async function panelWith(shown: ChatEntry[], running = false): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'actions', entries: shown, hasOlder: false, running, banner: null });
    await panel.delivered();
    await panel.clearPosted();
    return panel;
  }

  it('review card: Accept and Reject per hunk, Undo all of this turn, Open in diff editor', async () => {
    const panel = await panelWith(entries);
    const card = panel.page.locator(`.entry.tool[data-id="${review.id}"]`);
    const file = review.diff?.[0];
    assert.ok(file && file.hunks.length === 4, 'the review card has the four hunks');
    const [first, second] = file.hunks;
    assert.ok(first && second);
    const hunk = (id: string) => card.locator(`.hunk[data-hunk="${id}"]`);

    await expectPost(panel, () => hunk(second.id).getByRole('button', { name: 'Reject' }).click(), [
      { type: 'hunk', callId: review.id, path: EDITED, hunkId: second.id, action: 'reject' },
    ]);
    await expectPost(panel, () => hunk(first.id).getByRole('button', { name: 'Accept' }).click(), [
      { type: 'hunk', callId: review.id, path: EDITED, hunkId: first.id, action: 'accept' },
    ]);
    await expectPost(panel, () => card.getByRole('button', { name: 'Undo all of this turn' }).click(), [
      { type: 'undoTurn', turn: review.turn },
    ]);
    await expectPost(panel, () => card.getByRole('button', { name: 'Open in diff editor' }).click(), [
      { type: 'openDiff', callId: review.id, path: EDITED },
    ]);

    // The host's answer: the hunks' new states. Decided hunks say so and lose their buttons.
    panel.post({
      type: 'entry',
      entry: { ...review, diff: [{ ...file, states: { [first.id]: 'accepted', [second.id]: 'rejected' } }] },
    });
    await panel.delivered();
    assert.equal(await hunk(first.id).locator('.hunk-state').textContent(), 'Accepted');
    assert.equal(await hunk(second.id).locator('.hunk-state').textContent(), 'Rejected');
    assert.equal(await hunk(second.id).getAttribute('class'), 'hunk rejected');
    assert.equal(await hunk(first.id).getByRole('button').count(), 0);
    assert.equal(await card.getByRole('button', { name: 'Reject' }).count(), 0, 'no buttons left for undecided hunks');
  });

  it('approval card: the proposed diff with Apply and Skip', async () => {
    const panel = await panelWith([...entries.filter((e) => e.id !== review.id), proposed], true);
    const card = panel.page.locator(`.entry.tool[data-id="${proposed.id}"]`);
    assert.equal(await card.locator('.tool-status').textContent(), 'waiting for you');
    assert.equal(await card.locator('.hunk').count(), 4, 'the proposed diff is shown before anything is written');
    assert.equal(await card.getByRole('button', { name: 'Accept' }).count(), 0, 'nothing to review yet');
    await expectPost(panel, () => card.getByRole('button', { name: 'Apply' }).click(), [
      { type: 'approval', callId: proposed.id, allow: true },
    ]);
    assert.equal(await card.locator('button[data-action="allow-chat"]').count(), 0, 'no `ask`: Apply and Skip only');
    const actions: (string | null)[] = [];
    for (const b of await card.locator('.approval button').all()) actions.push(await b.getAttribute('data-action'));
    assert.deepEqual(actions, ['allow', 'skip']);
    await expectPost(panel, () => card.getByRole('button', { name: 'Skip' }).click(), [
      { type: 'approval', callId: proposed.id, allow: false },
    ]);
  });

  it('Stop (only while running, and Escape), History, Retry, Resume; New chat is the view title’s alone', async () => {
    const panel = await panelWith(entries);
    const stop = panel.page.getByRole('button', { name: 'Stop' });
    assert.equal(await stop.isDisabled(), true, 'nothing to stop');
    await expectPost(panel, () => panel.page.keyboard.press('Escape'), []);
    panel.post({ type: 'running', running: true });
    await panel.delivered();
    await expectPost(panel, () => stop.click(), [{ type: 'stop' }]);
    await expectPost(panel, () => panel.page.keyboard.press('Escape'), [{ type: 'stop' }]);
    assert.equal(
      await panel.page.getByRole('button', { name: /new chat/i }).count(),
      0,
      'one New chat: the view title’s',
    );

    await expectPost(panel, () => panel.page.getByRole('button', { name: 'History' }).click(), [{ type: 'history' }]);
    panel.post({
      type: 'history',
      sessions: [{ id: 'chat-1', title: 'Fix the failing test', createdAt: '2026-01-02T03:04:05.000Z' }],
    });
    await panel.delivered();
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Fix the failing test' }).click(), [
      { type: 'openSession', id: 'chat-1' },
    ]);

    panel.post({ type: 'banner', banner: { kind: 'failed', text: 'The task stopped.', retry: true } });
    await panel.delivered();
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Retry' }).click(), [{ type: 'retry' }]);

    // A task the window's reload cut short: the same message, as Resume.
    panel.post({ type: 'banner', banner: { kind: 'interrupted', text: 'The window reloaded mid-task', retry: true } });
    await panel.delivered();
    assert.equal(await panel.page.getByRole('button', { name: 'Retry' }).count(), 0);
    assert.equal(await panel.page.locator('.banner.interrupted .codicon-debug-continue').count(), 1);
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Resume' }).click(), [{ type: 'retry' }]);
  });

  it('a stop’s line: its one button asks the host for its remedy by name; Retry stays on the banner', async () => {
    const stop = (id: string, text: string, remedy?: Remedy): ChatEntry => ({
      kind: 'notice',
      id,
      level: remedy === undefined ? 'info' : 'error',
      text,
      ...(remedy === undefined ? {} : { remedy }),
    });
    const panel = await panelWith([
      stop('notice:1', 'The endpoint refused the credentials: could not connect (HTTP 401).', 'setApiKey'),
      stop('notice:2', 'Nothing answers at the endpoint: connect ECONNREFUSED 127.0.0.1:9.', 'selectEndpoint'),
      stop('notice:3', 'The task stopped: an internal error: boom.', 'showLog'),
      stop('notice:4', 'Stopped.'),
    ]);
    panel.post({ type: 'banner', banner: { kind: 'failed', text: 'The task stopped.', retry: true } });
    await panel.delivered();
    const line = (id: string) => panel.page.locator(`.entry.notice[data-id="${id}"]`);
    const buttons: Array<[string, string, Remedy]> = [
      ['notice:1', 'Set API Key…', 'setApiKey'],
      ['notice:2', 'Select Endpoint…', 'selectEndpoint'],
      ['notice:3', 'Show Log', 'showLog'],
    ];
    for (const [id, name, remedy] of buttons) {
      assert.equal(await line(id).getByRole('button').count(), 1, `${id}: one button, the remedy's`);
      await expectPost(panel, () => line(id).getByRole('button', { name }).click(), [{ type: 'remedy', remedy }]);
    }
    assert.equal(await line('notice:4').getByRole('button').count(), 0, 'a cancel has nothing to fix');
    assert.equal(await line('notice:1').getAttribute('role'), 'alert');
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'stop-lines.png') });
    // The banner says no more than the line: Retry, and no reason of its own.
    assert.equal(await panel.page.locator('.banner-text').textContent(), 'The task stopped.');
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Retry' }).click(), [{ type: 'retry' }]);
  });

  it('Send: Enter sends the prompt, Shift+Enter is a new line, an empty prompt sends nothing', async () => {
    const panel = await panelWith(entries);
    const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
    await prompt.click();
    await expectPost(panel, () => prompt.press('Enter'), []);
    await prompt.pressSequentially('Rename ');
    await expectPost(panel, () => prompt.press('Shift+Enter'), []);
    await prompt.pressSequentially('byPrice to sortedByPrice');
    assert.deepEqual(await panel.page.evaluate(() => (globalThis as unknown as HookedState).__loopwire.getState()), {
      draft: 'Rename \nbyPrice to sortedByPrice',
    });
    await expectPost(panel, () => prompt.press('Enter'), [{ type: 'send', text: 'Rename \nbyPrice to sortedByPrice' }]);
    assert.equal(await prompt.inputValue(), '', 'the prompt box is cleared once sent');
    await prompt.fill('  and run the tests  ');
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Send' }).click(), [
      { type: 'send', text: 'and run the tests' },
    ]);
  });

  it('Show earlier messages asks for the page before the oldest entry shown', async () => {
    const panel = await panelWith(entries);
    panel.post({ type: 'state', sessionId: 'actions', entries, hasOlder: true, running: false, banner: null });
    await panel.delivered();
    const first = entries[0];
    assert.ok(first);
    await expectPost(panel, () => panel.page.getByRole('button', { name: 'Show earlier messages' }).click(), [
      { type: 'loadOlder', before: first.id },
    ]);
  });
});

interface HookedState {
  __loopwire: { getState(): unknown };
}
