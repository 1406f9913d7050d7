import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The spacing between the conversation's entries, measured in real Chromium: a prompt is as far from what
// the assistant shows next as any two other entries are from each other (its Edit and Restore, invisible
// until hovered, used to hold a blank band under every prompt), so is an answer from the entry under it (its
// last paragraph's margin added to the entry's), and an entry that shows nothing (an answer that has no
// text yet) takes no room.

const PROMPT: ChatEntry = { kind: 'user', id: 'user:1', text: 'plan the discount fix' };
const CARD: ChatEntry = {
  kind: 'tool',
  id: 'c1',
  turn: 1,
  name: 'update_plan',
  summary: '1 of 3 done',
  status: 'done',
  durationMs: 1,
};
const ANSWER: ChatEntry = { kind: 'assistant', id: 'text:1', text: 'Working on the fix.', streaming: false };
const ENTRIES: ChatEntry[] = [
  PROMPT,
  CARD,
  ANSWER,
  { kind: 'user', id: 'user:2', text: 'Implement the plan.' },
  { kind: 'assistant', id: 'text:2', text: 'Implemented:\n\n- the fix\n- its test', streaming: false },
  { kind: 'tool', id: 'c2', turn: 2, name: 'update_plan', summary: '3 of 3 done', status: 'done', durationMs: 1 },
];

/**
 * What each entry of the transcript shows, top to bottom, by data-id: a prompt's bubble (not the entry's own
 * box, which also holds its unhovered, invisible Edit and Restore), any other entry's box.
 */
async function boxes(panel: Panel): Promise<{ id: string; top: number; bottom: number }[]> {
  return panel.page.evaluate<{ id: string; top: number; bottom: number }[]>(`(() =>
    [...document.querySelectorAll('.transcript > .entry')]
      .map((element) => ({
        id: element.dataset.id ?? '',
        rect: (element.querySelector(':scope.user > .bubble') ?? element).getBoundingClientRect(),
      }))
      .filter(({ rect }) => rect.height > 0)
      .map(({ id, rect }) => ({ id, top: rect.top, bottom: rect.bottom })))()`);
}

/** The gap from each visible entry's bottom to the next one's top, keyed "before→after". */
async function gaps(panel: Panel): Promise<Map<string, number>> {
  const shown = await boxes(panel);
  const result = new Map<string, number>();
  shown.forEach((after, index) => {
    const before = shown[index - 1];
    if (before) result.set(`${before.id}→${after.id}`, Math.round(after.top - before.bottom));
  });
  return result;
}

describe('chat panel in Chromium: even spacing between entries', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(entries: ChatEntry[], running: boolean): Promise<Panel> {
    const panel = await chromium.open('dark');
    panel.post({ type: 'state', sessionId: 'spacing', entries, hasOlder: false, running, banner: null });
    await panel.delivered();
    return panel;
  }

  it('a prompt is as far from the next entry as a tool card is from the answer under it (no blank band)', async () => {
    const panel = await panelWith(ENTRIES, false);
    const measured = await gaps(panel);
    const between = measured.get('c1→text:1');
    assert.ok(between !== undefined && between > 0, `two entries apart: ${JSON.stringify([...measured])}`);
    assert.equal(measured.get('user:1→c1'), between, 'under the first prompt, before the tool card');
    assert.equal(measured.get('user:2→text:2'), between, 'under the second prompt, before the answer');
    // An answer's last block (a paragraph, a list) keeps no margin of its own under the entry's.
    assert.equal(measured.get('text:1→user:2'), between, 'under an answer, before the next prompt');
    assert.equal(measured.get('text:2→c2'), between, 'under an answer ending in a list');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-entry-spacing.png') });
    // Edit and Restore are still there for whoever points at the prompt, and the spacing stays as it was.
    const first = panel.page.locator('.entry.user[data-id="user:1"]');
    await first.hover();
    assert.equal(await first.getByRole('button', { name: 'Edit' }).isVisible(), true);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-entry-spacing-hover.png') });
    assert.equal((await gaps(panel)).get('user:1→c1'), between, 'hovering moves nothing');
    assert.deepEqual(await panel.problems(), []);
  });

  it('an answer with no text yet takes no room while the task runs', async () => {
    const panel = await panelWith(
      [PROMPT, { kind: 'assistant', id: 'text:0', text: '', streaming: true }, CARD, ANSWER],
      true,
    );
    const measured = await gaps(panel);
    assert.deepEqual([...measured.keys()], ['user:1→c1', 'c1→text:1'], 'the empty answer is not laid out');
    assert.equal(measured.get('user:1→c1'), measured.get('c1→text:1'));
    assert.deepEqual(await panel.problems(), []);
  });
});
