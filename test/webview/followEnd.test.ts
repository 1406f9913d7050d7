import * as assert from 'node:assert/strict';
import type { ChatEntry, ToolEntry } from '../../src/protocol/chatView';
import { useChromium } from './chromium';
import type { Panel } from './panel';

// A reader at the end of the conversation stays there when an entry grows: the card that now waits for
// Apply shows its buttons without a scroll. Entries are laid out only near the view (content-visibility),
// so one put in is first measured at its placeholder height; the page finds the end again once the frame
// has laid it out for real.

const prompt: ChatEntry = { kind: 'user', id: 'user:1', text: 'Fix the failing test.' };
const answer = (n: number): ChatEntry => ({
  kind: 'assistant',
  id: `text:${n}`,
  text: `Step ${n}: `.concat('read the module and the test that fails. '.repeat(6)),
  streaming: false,
});

function patchCard(status: ToolEntry['status']): ToolEntry {
  const lines = Array.from({ length: 24 }, (_, i) => `  const value${i} = compute(${i}, percent / 100);`);
  return {
    kind: 'tool',
    id: 'call_patch',
    turn: 1,
    name: 'apply_patch',
    summary: 'src/cart.js',
    status,
    diff: [
      {
        path: 'src/cart.js',
        op: 'update',
        hunks: [
          {
            id: 'h1',
            oldStart: 10,
            oldLines: ['  return 0;'],
            newStart: 10,
            newLines: lines,
            contextBefore: [],
            contextAfter: [],
          },
        ],
        pending: status !== 'done',
      },
    ],
    ...(status === 'approval'
      ? { ask: { action: 'Apply edit to `src/cart.js`', detail: 'update src/cart.js', effect: 'write' as const } }
      : {}),
  };
}

/** Pixels of the conversation below the view, once a few frames have let the layout settle. */
async function belowView(panel: Panel): Promise<number> {
  await panel.page.waitForTimeout(200);
  return panel.page.evaluate<number>(
    `(() => { const t = document.querySelector('.transcript'); return t.scrollHeight - t.scrollTop - t.clientHeight; })()`,
  );
}

describe('chat panel in Chromium: following the end', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  /** A panel showing the prompt and `answers` answers, the reader at the end, a task running. */
  async function conversation(answers: number): Promise<Panel> {
    const panel = await chromium.open('dark');
    const entries = [prompt, ...Array.from({ length: answers }, (_, i) => answer(i + 1))];
    panel.post({
      type: 'state',
      sessionId: `follow-${answers}`,
      entries,
      hasOlder: false,
      running: true,
      banner: null,
    });
    await panel.delivered();
    return panel;
  }

  it('a card that grows as it waits for Apply is shown to its end, buttons included', async () => {
    const panel = await conversation(8);
    panel.post({ type: 'entry', entry: patchCard('streaming') });
    await panel.delivered();
    panel.post({ type: 'entry', entry: patchCard('approval') });
    await panel.delivered();
    const left = await belowView(panel);
    assert.ok(left < 2, `${left} px of the conversation below the view`);
    const apply = panel.page.locator('.approval button[data-action="allow"]');
    assert.ok(await apply.isVisible());
    const box = await apply.boundingBox();
    const view = panel.page.viewportSize();
    assert.ok(box && view && box.y + box.height <= view.height, 'Apply is inside the view');
  });

  it('a reader at the end stays there when prompts queued below the conversation shorten it', async () => {
    // The chips of queued prompts take room from the conversation, above the composer: the card waiting
    // for Apply must keep its buttons in view rather than slide behind them.
    const panel = await conversation(8);
    panel.post({ type: 'entry', entry: patchCard('approval') });
    await panel.delivered();
    panel.post({
      type: 'queue',
      items: [
        { id: 'queued:1', text: 'list tasks' },
        { id: 'queued:2', text: 'search for TODO' },
      ],
    });
    await panel.delivered();
    const left = await belowView(panel);
    assert.ok(left < 2, `${left} px of the conversation below the view`);
    const [apply, transcript] = await Promise.all([
      panel.page.locator('.approval button[data-action="allow"]').boundingBox(),
      panel.page.locator('.transcript').boundingBox(),
    ]);
    assert.ok(apply && transcript, 'Apply and the conversation are laid out');
    assert.ok(
      apply.y + apply.height <= transcript.y + transcript.height,
      `Apply (bottom ${apply.y + apply.height}) inside the conversation (bottom ${transcript.y + transcript.height})`,
    );
  });

  it('a prompt sent from far above the end brings the reader back to it, and what follows stays in view', async () => {
    // Playwright (or the reader) scrolled up to a hunk's buttons; the next prompt's card must show its Apply.
    const panel = await conversation(12);
    await panel.page.evaluate(
      `(() => { const t = document.querySelector('.transcript'); t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); })()`,
    );
    assert.ok((await belowView(panel)) > 100, 'scrolled up, far from the end');
    await panel.page.locator('textarea.prompt').fill('run: echo new user');
    await panel.page.locator('textarea.prompt').press('Enter');
    panel.post({ type: 'entry', entry: { kind: 'user', id: 'user:2', text: 'run: echo new user' } });
    panel.post({ type: 'entry', entry: patchCard('approval') });
    await panel.delivered();
    const left = await belowView(panel);
    assert.ok(left < 2, `${left} px of the conversation below the view`);
  });

  it('a reader at the end stays there when a card shrinks, then the past chats open above the conversation', async () => {
    // A card that no longer waits loses its buttons: the conversation is shorter and the browser moves the
    // scroll up to its new end. Then the past chats take room at the top: the end must stay in view.
    const panel = await conversation(8);
    const command: ToolEntry = {
      kind: 'tool',
      id: 'call_exec',
      turn: 1,
      name: 'exec_command',
      summary: 'echo new user',
      status: 'approval',
      ask: { action: 'Run command `echo new user`', detail: '$ echo new user', effect: 'task' },
    };
    panel.post({ type: 'entry', entry: command });
    await panel.delivered();
    const { ask: _ask, ...declined } = command;
    panel.post({ type: 'entry', entry: { ...declined, status: 'declined', output: 'Stopped before it ran.' } });
    panel.post({ type: 'entry', entry: { kind: 'notice', id: 'notice:stop', level: 'info', text: 'Stopped.' } });
    await panel.delivered();
    assert.ok((await belowView(panel)) < 2, 'at the end once stopped');
    panel.post({
      type: 'history',
      sessions: [{ id: 's1', title: 'Fix the failing test', createdAt: '2026-01-02T10:00:00.000Z' }],
    });
    await panel.delivered();
    const left = await belowView(panel);
    assert.ok(left < 2, `${left} px of the conversation below the view under the past chats`);
  });

  it('a long answer streamed after big cards leaves the reader at its last line', async () => {
    const panel = await conversation(40);
    // A card that grows as it is written, then the answer, a few words a frame.
    panel.post({ type: 'entry', entry: patchCard('streaming') });
    panel.post({ type: 'entry', entry: patchCard('done') });
    await panel.delivered(1);
    const text = '## Done\n\n'.concat(
      Array.from({ length: 30 }, (_, i) => `- point ${i}: the handler looks its keys up first.`).join('\n'),
    );
    panel.post({ type: 'entry', entry: { kind: 'assistant', id: 'text:end', text: '', streaming: true } });
    for (let at = 0; at < text.length; at += 40) {
      panel.post({ type: 'text', id: 'text:end', delta: text.slice(at, at + 40) });
      if (at % 200 === 0) await panel.delivered(1);
    }
    panel.post({ type: 'entry', entry: { kind: 'assistant', id: 'text:end', text, streaming: false } });
    await panel.delivered();
    const left = await belowView(panel);
    assert.ok(left < 2, `${left} px of the answer below the view`);
  });
});
