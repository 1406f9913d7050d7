import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { ChatModel } from '../../src/extension/chat/chatModel';
import type { ChatEntry } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import { EDITED, ORIGINAL, PROMPT, type RecordedSession, recordedSession } from './recordSession';
import { readFrom, replay } from './replay';
import { useTempWorkspace } from '../unit/support/tempWorkspace';

// The panel in real Chromium, fed what the real agent did: a session recorded against the bundled server
// (answer text in markdown, read_file, an apply_patch of four hunks, a last message) replayed through the
// host's real ChatModel into the page. Streamed text must grow frame by frame, tool cards carry their name,
// summary, status and duration, the live diff grows while the patch is still being written and becomes a
// review card. Screenshots of both moments go to test-artifacts/webview/: from the live page in the dark
// theme, and in the light theme from a page given the host's state at those same moments.

const toolCard = (panel: Panel, name: string): Locator =>
  panel.page
    .locator('.entry.tool')
    .filter({ has: panel.page.locator('.tool-name', { hasText: new RegExp(`^${name}$`) }) });

interface DiffSample {
  hunks: number;
  lines: number;
  status: string;
}

async function diffSample(card: Locator): Promise<DiffSample> {
  return {
    hunks: await card.locator('.hunk').count(),
    lines: await card.locator('.line.added, .line.removed').count(),
    status: (await card.locator('.tool-status').textContent()) ?? '',
  };
}

const nonDecreasing = (values: readonly number[]) =>
  values.every((value, i) => i === 0 || value >= (values[i - 1] ?? 0));

describe('chat panel in Chromium: a recorded agent session, replayed', function () {
  this.timeout(30_000);
  const chromium = useChromium();
  let session: RecordedSession;
  // The live diff reads the file as it was before the edit, as the host would from the workspace.
  const temp = useTempWorkspace({ [EDITED]: ORIGINAL }, { each: false, prefix: 'webview' });

  before(async function () {
    this.timeout(20_000);
    session = await recordedSession();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });

  /** The host's entries at the two moments shot, for the other theme. */
  let liveEntries: ChatEntry[] = [];
  let reviewEntries: ChatEntry[] = [];

  it('streams text, shows tool cards and a growing live diff, then a review card', async () => {
    const panel = await chromium.open('dark', { deviceScaleFactor: 2 });
    const model = new ChatModel(panel.post, readFrom(temp.dir));
    // What the controller does when the page says it is ready, then the user's prompt and the task running.
    panel.post({ type: 'state', sessionId: 'replay', entries: [], hasOlder: false, running: false, banner: null });
    model.addUser(PROMPT);
    panel.post({ type: 'running', running: true });

    const answer = panel.page.locator('.entry.assistant').first();
    const patchCard = toolCard(panel, 'apply_patch');
    const readCard = toolCard(panel, 'read_file');
    const textLengths: number[] = [];
    const diffs: DiffSample[] = [];
    let readWhileRunning = '';
    const patchDeltas = session.events.filter((e) => e.type === 'tool_call_delta' && e.name === 'apply_patch');
    let patchSeen = 0;
    // About eight samples of the answer, however finely the server cut it into deltas this run.
    const answerDeltas = session.events.filter((e) => e.type === 'text_delta' && e.turn === 1).length;
    const textEvery = Math.max(1, Math.floor(answerDeltas / 8));
    let textSeen = 0;
    let shotLive = false;

    await replay(
      session.events,
      (event) => model.handle(event),
      async (event) => {
        if (event.type === 'text_delta' && event.turn === 1 && ++textSeen % textEvery === 0) {
          await panel.delivered();
          textLengths.push((await answer.innerText()).length);
        }
        if (event.type === 'tool_started' && event.name === 'read_file') {
          await panel.delivered();
          readWhileRunning = (await readCard.locator('.tool-status').textContent()) ?? '';
        }
        if (event.type === 'tool_call_delta' && event.name === 'apply_patch') {
          patchSeen++;
          if (patchSeen % 12 === 0) {
            // Past the 50 ms throttle of the host's preview, so the sample sees the latest diff.
            await new Promise((resolve) => setTimeout(resolve, 60));
            await panel.delivered();
            diffs.push(await diffSample(patchCard));
          }
          if (!shotLive && patchSeen >= patchDeltas.length * 0.7) {
            shotLive = true;
            await new Promise((resolve) => setTimeout(resolve, 80));
            await panel.delivered();
            const live = await diffSample(patchCard);
            assert.equal(live.status, 'writing', 'the patch card is still streaming when shot');
            assert.ok(live.hunks >= 2, `the live diff shows hunks as they arrive (${live.hunks})`);
            await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-live-diff.png') });
            liveEntries = structuredClone([...model.all]);
          }
        }
        if (event.type === 'done') panel.post({ type: 'running', running: false });
      },
    );
    await panel.delivered();

    // Streamed answer text: it grew between samples (rendered per frame, not all at the end), as markdown.
    assert.ok(textLengths.length >= 4, `enough text samples (${textLengths.length})`);
    assert.ok(nonDecreasing(textLengths), `text only grows: ${textLengths.join(' ')}`);
    assert.ok(new Set(textLengths).size >= 3, `text grew in steps: ${textLengths.join(' ')}`);
    assert.equal(await answer.locator('pre code').count(), 1, 'the code block renders as <pre><code>');
    assert.match((await answer.locator('pre code').textContent()) ?? '', /count <= 0/);
    assert.equal(await answer.locator('ol > li').count(), 3);
    assert.equal(await answer.locator('ul > li').count(), 2);
    assert.equal(await answer.locator('strong').first().textContent(), 'inventory.ts');
    assert.equal(await panel.page.locator('.entry.assistant.streaming').count(), 0, 'no answer still streaming');
    assert.match(await panel.page.locator('.entry.assistant').last().innerText(), /byPrice is new/);
    assert.equal(await panel.page.locator('.entry.user .bubble').textContent(), PROMPT);

    // Tool cards: name, summary, live status, duration, output.
    assert.equal(readWhileRunning, 'running');
    assert.equal(await readCard.locator('.tool-summary').textContent(), EDITED);
    assert.equal(await readCard.locator('.tool-status').textContent(), 'done');
    assert.match((await readCard.locator('.tool-duration').textContent()) ?? '', /^\d+ ms$|^\d+\.\d s$/);
    assert.match((await readCard.locator('.tool-output pre').textContent()) ?? '', /export function restock/);
    assert.equal(await patchCard.locator('.tool-summary').textContent(), EDITED);

    // The live diff grew while the patch was being written: samples non-decreasing, lines before the call ran.
    const streaming = diffs.filter((sample) => sample.status === 'writing');
    assert.ok(streaming.length >= 5, `samples while streaming (${streaming.length})`);
    assert.ok(nonDecreasing(streaming.map((s) => s.lines)), `diff lines: ${streaming.map((s) => s.lines).join(' ')}`);
    assert.ok(nonDecreasing(streaming.map((s) => s.hunks)), `hunks: ${streaming.map((s) => s.hunks).join(' ')}`);
    assert.ok(
      streaming.some((s) => s.lines > 0),
      'diff lines show before the call finished',
    );
    assert.ok((streaming.at(-1)?.hunks ?? 0) > (streaming.find((s) => s.hunks > 0)?.hunks ?? 0), 'hunks were added');

    // …and became a review card: four hunks, each with Accept and Reject, the turn's undo, the diff editor.
    assert.equal(await patchCard.locator('.tool-status').textContent(), 'done');
    assert.match((await patchCard.locator('.tool-duration').textContent()) ?? '', /^\d+ ms$|^\d+\.\d s$/);
    assert.equal(await patchCard.locator('.file-pending').count(), 0);
    const hunks = patchCard.locator('.hunk');
    assert.equal(await hunks.count(), 4);
    for (let i = 0; i < 4; i++) {
      assert.equal(await hunks.nth(i).getByRole('button', { name: 'Accept' }).count(), 1);
      assert.equal(await hunks.nth(i).getByRole('button', { name: 'Reject' }).count(), 1);
    }
    assert.equal(await patchCard.locator('.file-stat.added').textContent(), '+9');
    assert.equal(await patchCard.locator('.file-stat.removed').textContent(), '−6');
    assert.equal(await patchCard.getByRole('button', { name: 'Undo all of this turn' }).count(), 1);
    assert.equal(await patchCard.getByRole('button', { name: 'Open in diff editor' }).count(), 1);
    assert.equal(await panel.page.getByRole('button', { name: 'Stop' }).isDisabled(), true);

    await patchCard.scrollIntoViewIfNeeded();
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-review.png') });
    reviewEntries = structuredClone([...model.all]);
    model.dispose();
  });

  it('shows the same moments in the light theme', async () => {
    assert.ok(liveEntries.length > 0 && reviewEntries.length > 0, 'the dark replay ran first');
    const panel = await chromium.open('light', { deviceScaleFactor: 2 });
    const patchCard = toolCard(panel, 'apply_patch');
    panel.post({
      type: 'state',
      sessionId: 'replay',
      entries: liveEntries,
      hasOlder: false,
      running: true,
      banner: null,
    });
    await panel.delivered();
    assert.equal(await patchCard.locator('.tool-status').textContent(), 'writing');
    assert.ok((await patchCard.locator('.hunk').count()) >= 2);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-live-diff.png') });
    panel.post({
      type: 'state',
      sessionId: 'replay',
      entries: reviewEntries,
      hasOlder: false,
      running: false,
      banner: null,
    });
    await panel.delivered();
    assert.equal(await patchCard.getByRole('button', { name: 'Reject' }).count(), 4);
    await patchCard.scrollIntoViewIfNeeded();
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-review.png') });
  });
});
