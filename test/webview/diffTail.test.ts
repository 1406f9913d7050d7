import * as assert from 'node:assert/strict';
import { previewPatch } from '../../src/edit';
import { toDiffFiles } from '../../src/extension/chat/entries/liveDiff';
import type { DiffFile, ToolEntry } from '../../src/protocol/chatView';
import { STREAMING_TAIL_LINES, diffTail, drawnLines, sharedContext } from '../../src/protocol/diffTail';
import { useChromium } from './chromium';

// A file being written shows its newest lines only, and the host sends only those (diffTail): the card drawn
// from the tail must be the card drawn from the whole diff — the same lines with the same numbers, the same
// "N lines above", the same +added −removed — wherever the cut falls (in a hunk's context before, its removed
// or added lines, its context after, or between hunks whose context is shared), and the tail must be small.

const ORIGINAL = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/**
 * A patch of four hunks, being written: the third adds `third` lines, the last (still in progress) 12 + `extra`.
 * Its chunks carry one line of context each; the engine's hunks carry three, so the first two (four lines
 * apart) share some of theirs.
 */
function patch(third: number, extra: number): string {
  const chunk = (at: number, removed: number, added: string[]) => [
    '@@',
    ` line ${at - 1}`,
    ...Array.from({ length: removed }, (_, i) => `-line ${at + i}`),
    ...added.map((text) => `+${text}`),
    ` line ${at + removed}`,
  ];
  return [
    '*** Begin Patch',
    '*** Update File: src/big.ts',
    ...chunk(20, 2, ['twenty', 'twenty-one']),
    ...chunk(26, 1, ['twenty-six']),
    ...chunk(
      120,
      third === 30 ? 10 : 1,
      Array.from({ length: third }, (_, i) => `new ${i}`),
    ),
    ...chunk(
      300,
      4,
      Array.from({ length: 12 + extra }, (_, i) => `late ${i}`),
    ),
  ].join('\n');
}

/** The file as the live diff has it while the patch is still being written (the last chunk in progress). */
function writtenFile(third: number, extra: number): DiffFile {
  const files = toDiffFiles(previewPatch(patch(third, extra), { 'src/big.ts': { text: ORIGINAL } }));
  const file = files[0];
  assert.ok(file && file.pending && file.hunks.length === 4, JSON.stringify(files).slice(0, 300));
  return file;
}

/** Where the page's cut (its first line drawn) falls: the hunk and the part of it, or `shared` context. */
function cutFallsIn(file: DiffFile): string {
  const drawn = file.hunks.map((_hunk, index) => drawnLines(file.hunks, index));
  let hidden = drawn.reduce((sum, n) => sum + n, 0) - STREAMING_TAIL_LINES;
  let index = 0;
  while (hidden >= (drawn[index] as number)) hidden -= drawn[index++] as number;
  const hunk = file.hunks[index];
  if (!hunk) return 'none';
  const shared = sharedContext(file.hunks[index - 1], hunk);
  const parts: [string, number][] = [
    ['context before', hunk.contextBefore.length - shared],
    ['removed', hunk.oldLines.length],
    ['added', hunk.newLines.length],
    ['context after', hunk.contextAfter.length],
  ];
  for (const [part, length] of parts) {
    if (hidden < length) return `${shared > 0 ? 'after shared context, ' : ''}${part}`;
    hidden -= length;
  }
  return 'end';
}

/** What a card draws of its diff: the line above the tail, the counts, and each line's numbers, sign and text. */
interface DrawnCard {
  above: string;
  stats: string;
  lines: string[];
}

/** Read in the page (as a string: the tests are compiled without the DOM's types). */
const DRAWN_CARDS = `[...document.querySelectorAll('.entry.tool')].map((entry) => ({
  above: entry.querySelector('.diff-earlier')?.textContent ?? '',
  stats: [...entry.querySelectorAll('.file-stat')].map((stat) => stat.textContent).join(' '),
  lines: [...entry.querySelectorAll('.hunk-body .line')].map((line) =>
    [...line.querySelectorAll('span')].map((span) => span.textContent).join('|')),
}))`;

const card = (id: string, file: DiffFile): ToolEntry => ({
  kind: 'tool',
  id,
  turn: 1,
  name: 'apply_patch',
  summary: 'src/big.ts',
  status: 'streaming',
  diff: [file],
});

describe('chat panel in Chromium: the live diff’s tail, cut by the host', function () {
  this.timeout(30_000);
  const chromium = useChromium();
  // Cuts that fall everywhere: a big third hunk and a growing last one move it through their parts; a small
  // third hunk moves it back into the first two, which share context.
  const variants = [
    ...Array.from({ length: 46 }, (_, extra) => writtenFile(30, extra)),
    ...Array.from({ length: 30 }, (_, extra) => writtenFile(1, extra + 16)),
  ];

  it('cuts in every part of a hunk, and past context a hunk shares', () => {
    const places = new Set(variants.map(cutFallsIn));
    for (const part of ['context before', 'removed', 'added', 'context after'])
      assert.ok(places.has(part), `${part}: ${[...places].join('; ')}`);
    assert.ok(
      [...places].some((place) => place.startsWith('after shared context')),
      [...places].join('; '),
    );
  });

  it('sends the lines the card shows, and counts the rest', () => {
    for (const file of variants) {
      const tail = diffTail(file);
      const total = file.hunks.reduce((n, _hunk, index) => n + drawnLines(file.hunks, index), 0);
      if (total <= STREAMING_TAIL_LINES) {
        assert.equal(tail, file, 'a file that fits is sent as it is');
        continue;
      }
      const sent = tail.hunks.reduce((n, _hunk, index) => n + drawnLines(tail.hunks, index), 0);
      assert.equal(sent, STREAMING_TAIL_LINES);
      assert.equal(tail.elided?.lines, total - STREAMING_TAIL_LINES);
      const changed = (f: DiffFile) => f.hunks.reduce((n, h) => n + h.newLines.length + h.oldLines.length, 0);
      assert.equal((tail.elided?.added ?? 0) + (tail.elided?.removed ?? 0) + changed(tail), changed(file));
    }
    // The big new file of the panel bench: 800 lines, sent as 60 and a count.
    const created: DiffFile = {
      path: 'src/generated.ts',
      op: 'create',
      pending: true,
      hunks: [
        {
          id: 'h',
          oldStart: 1,
          oldLines: [],
          newStart: 1,
          newLines: Array.from({ length: 800 }, (_, i) => `  const field${i} = context.lookup('generated_${i}');`),
          contextBefore: [],
          contextAfter: [],
        },
      ],
    };
    const tail = diffTail(created);
    assert.equal(tail.hunks[0]?.newStart, 741);
    assert.deepEqual(tail.elided, { lines: 740, added: 740, removed: 0 });
    assert.ok(JSON.stringify(tail).length * 10 < JSON.stringify(created).length);
  });

  it('draws the same card from the tail as from the whole diff, wherever the cut falls', async () => {
    const panel = await chromium.open('dark');
    const drawn = async (files: readonly DiffFile[]) => {
      panel.post({
        type: 'state',
        sessionId: 'tail',
        entries: files.map((file, i) => card(`call_${i}`, file)),
        hasOlder: false,
        running: true,
        banner: null,
      });
      await panel.delivered();
      return panel.page.evaluate<DrawnCard[]>(DRAWN_CARDS);
    };
    const whole = await drawn(variants);
    const tails = await drawn(variants.map((file) => diffTail(file)));
    assert.equal(whole.length, variants.length);
    whole.forEach((card, i) => {
      assert.equal(card.lines.length, STREAMING_TAIL_LINES, `variant ${i}: the newest lines`);
      assert.deepEqual(tails[i], card, `variant ${i}`);
    });
    assert.deepEqual(await panel.problems(), []);
  });
});
