import type { DiffFile, HunkState, ToolEntry, ViewMessage } from '../protocol/chatView';
import type { DiffHunk } from '../protocol/edits';
import { drawnLines, sharedContext } from '../protocol/diffTail';
import { FOLDED_DIFF_LINES, STREAMING_TAIL_LINES } from './diffLimits';
import { button, h } from './dom';
import { t } from './l10n';

// An edit's diff on its card: file by file, hunk by hunk, in the lines the edit engine computed (never a
// whole-file diff). While the call streams, the last file shows as pending, and only its newest lines: the
// card is drawn again at each update (twenty a second), and a 50 KB file drawn whole each time would hold
// the page; the whole diff is drawn once the call is complete. Once applied, each hunk has its own Accept
// and Reject, and the file can be opened in VS Code's diff editor.

export type Post = (message: ViewMessage) => void;

type LineKind = 'context' | 'removed' | 'added';

/** Files whose whole diff the user asked for (`callId\0path`), kept while the page lives. */
const unfolded = new Set<string>();

const STATE_LABELS: Record<Exclude<HunkState, 'applied'>, string> = {
  accepted: t('Accepted'),
  rejected: t('Rejected'),
  edited: t('Edited by you'),
};

const STATE_TITLES: Record<Exclude<HunkState, 'applied'>, string> = {
  accepted: t('Kept'),
  rejected: t('Taken back: not in the file now'),
  edited: t('Its lines changed since: it can no longer be kept or taken back here'),
};

/** One diff line: its number in the old file and in the new one (either may be absent), sign and text. */
function line(kind: LineKind, text: string, oldNumber: number | undefined, newNumber: number | undefined): HTMLElement {
  const sign = kind === 'removed' ? '-' : kind === 'added' ? '+' : ' ';
  const number = (value: number | undefined, side: string) =>
    h('span', { class: `number ${side}`, attrs: { 'aria-hidden': 'true' } }, value === undefined ? '' : String(value));
  return h(
    'div',
    { class: `line ${kind}` },
    number(oldNumber, 'old'),
    number(newNumber, 'new'),
    h('span', { class: 'sign', attrs: { 'aria-hidden': 'true' } }, sign),
    h('span', { class: 'code' }, text),
  );
}

/** `@@ -a,b +c,d @@` as unified diffs write it: both ranges count the context lines too. */
function unifiedHeader(hunk: DiffHunk, contextBefore: number, contextAfter: number): string {
  const oldCount = contextBefore + hunk.oldLines.length + contextAfter;
  const newCount = contextBefore + hunk.newLines.length + contextAfter;
  // An empty range names the line before it, as `diff -u` does.
  const oldFrom = oldCount === 0 ? hunk.oldStart - 1 : hunk.oldStart - contextBefore;
  const newFrom = newCount === 0 ? hunk.newStart - 1 : hunk.newStart - contextBefore;
  return `@@ -${oldFrom},${oldCount} +${newFrom},${newCount} @@`;
}

/** `skip`: how many of its first lines the hunk leaves out (the streaming tail); `take`: how many it draws. */
function hunkView(
  entry: ToolEntry,
  file: DiffFile,
  index: number,
  post: Post,
  skip = 0,
  take = Number.POSITIVE_INFINITY,
): HTMLElement {
  const hunk = file.hunks[index] as DiffHunk;
  const state = file.states?.[hunk.id];
  const skipBefore = sharedContext(file.hunks[index - 1], hunk);
  const next = file.hunks[index + 1];
  // The next hunk shows the lines both share, so this one stops short of them.
  const keepAfter = hunk.contextAfter.length - (next ? sharedContext(hunk, next) : 0);
  const contextBefore = hunk.contextBefore.slice(skipBefore);
  const contextAfter = hunk.contextAfter.slice(0, keepAfter);
  const header = h(
    'div',
    { class: `hunk-header${skipBefore > 0 ? ' joined' : ''}` },
    h('span', { class: 'hunk-range' }, unifiedHeader(hunk, contextBefore.length, contextAfter.length)),
    ...hunkControls(entry, file, hunk, post),
  );
  const start = { old: hunk.oldStart - contextBefore.length, new: hunk.newStart - contextBefore.length };
  const oldAfter = hunk.oldStart + hunk.oldLines.length;
  const newAfter = hunk.newStart + hunk.newLines.length;
  return h(
    'div',
    { class: `hunk${state === 'rejected' || state === 'edited' ? ` ${state}` : ''}`, attrs: { 'data-hunk': hunk.id } },
    header,
    h(
      'div',
      { class: 'hunk-body', attrs: { role: 'group', 'aria-label': t('Lines {0}–{1}', hunk.newStart, newAfter - 1) } },
      ...[
        ...contextBefore.map((text, i) => () => line('context', text, start.old + i, start.new + i)),
        ...hunk.oldLines.map((text, i) => () => line('removed', text, hunk.oldStart + i, undefined)),
        ...hunk.newLines.map((text, i) => () => line('added', text, undefined, hunk.newStart + i)),
        ...contextAfter.map((text, i) => () => line('context', text, oldAfter + i, newAfter + i)),
      ]
        .slice(skip, skip + take)
        .map((draw) => draw()),
    ),
  );
}

/**
 * What a hunk's header offers by its review state: Accept and Reject while it stands applied, its state's label
 * once reviewed, and Restore once taken back (by Reject or the editor's Undo: the host writes it again while
 * its lines still fit). A move or a deletion is reviewed whole, not by hunk.
 */
function hunkControls(entry: ToolEntry, file: DiffFile, hunk: DiffHunk, post: Post): HTMLElement[] {
  const state = file.states?.[hunk.id];
  const path = file.moveTo ?? file.path;
  const act = (action: 'accept' | 'reject') => () =>
    post({ type: 'hunk', callId: entry.id, path, hunkId: hunk.id, action });
  const reviewable = file.op !== 'move' && file.op !== 'delete';
  const controls: HTMLElement[] = [];
  if (state === 'applied' && reviewable)
    controls.push(
      h(
        'span',
        { class: 'hunk-actions' },
        button(t('Accept'), act('accept'), { icon: 'check', kind: 'icon', title: t('Keep this change') }),
        button(t('Reject'), act('reject'), { icon: 'discard', kind: 'icon', title: t('Take this change back') }),
      ),
    );
  else if (state !== undefined && state !== 'applied')
    controls.push(
      h('span', { class: `hunk-state ${state}`, attrs: { title: STATE_TITLES[state] } }, STATE_LABELS[state]),
    );
  if (state === 'rejected' && reviewable)
    controls.push(
      h(
        'span',
        { class: 'hunk-actions' },
        button(t('Restore'), act('accept'), { icon: 'redo', kind: 'secondary', title: t('Apply this change again') }),
      ),
    );
  return controls;
}

/** Whether a hunk's change stands as the agent made it: proposed (no review yet), applied or accepted. */
const stands = (state: HunkState | undefined) => state === undefined || state === 'applied' || state === 'accepted';

/** Lines added and removed by the hunks that stand: a rejected or since-edited hunk no longer counts. */
function counts(file: DiffFile): { added: number; removed: number } {
  const standing = file.hunks.filter((hunk) => stands(file.states?.[hunk.id]));
  return {
    added: standing.reduce((n, hunk) => n + hunk.newLines.length, file.elided?.added ?? 0),
    removed: standing.reduce((n, hunk) => n + hunk.oldLines.length, file.elided?.removed ?? 0),
  };
}

const OP_LABELS: Record<DiffFile['op'], string> = {
  create: t('new file'),
  delete: t('deleted'),
  move: t('moved'),
  update: '',
};

/** The hunks of a file up to FOLDED_DIFF_LINES lines, and a button that shows the rest (unless unfolded). */
function foldedHunks(entry: ToolEntry, file: DiffFile, post: Post): HTMLElement[] {
  const key = `${entry.id}\0${file.moveTo ?? file.path}`;
  const lines = file.hunks.map((_hunk, index) => drawnLines(file.hunks, index));
  const total = lines.reduce((sum, n) => sum + n, 0);
  if (total <= FOLDED_DIFF_LINES || unfolded.has(key))
    return file.hunks.map((_hunk, index) => hunkView(entry, file, index, post));
  const shown: HTMLElement[] = [];
  let room = FOLDED_DIFF_LINES;
  for (const [index, count] of lines.entries()) {
    if (room <= 0) break;
    const hunk = hunkView(entry, file, index, post);
    // A hunk cut short: its first lines only.
    const body = hunk.querySelector('.hunk-body');
    if (count > room && body)
      while (body.childElementCount > room && body.lastElementChild) body.lastElementChild.remove();
    shown.push(hunk);
    room -= count;
  }
  const more = button(
    t('Show all {0} lines', total),
    () => {
      unfolded.add(key);
      more.closest('section.file')?.replaceWith(fileView(entry, file, post));
    },
    { icon: 'unfold', kind: 'secondary', title: t('Draw the whole diff here (Open in diff editor shows it too)') },
  );
  shown.push(h('div', { class: 'diff-more' }, t('{0} more lines', total - FOLDED_DIFF_LINES), more));
  return shown;
}

/** The newest STREAMING_TAIL_LINES lines of a file being written, after a line that counts the others. */
function streamingTail(entry: ToolEntry, file: DiffFile, post: Post): HTMLElement[] {
  const lines = file.hunks.map((_hunk, index) => drawnLines(file.hunks, index));
  let hidden = Math.max(0, lines.reduce((sum, n) => sum + n, 0) - STREAMING_TAIL_LINES);
  // The host sends only the tail (diffTail.ts): what it left out comes first.
  const above = hidden + (file.elided?.lines ?? 0);
  const shown: HTMLElement[] = [];
  if (above > 0)
    shown.push(
      h(
        'div',
        { class: 'diff-earlier' },
        above === 1
          ? t('1 line above: the whole diff shows once the call is complete')
          : t('{0} lines above: the whole diff shows once the call is complete', above),
      ),
    );
  file.hunks.forEach((_hunk, index) => {
    const count = lines[index] as number;
    if (hidden >= count) {
      hidden -= count;
      return;
    }
    shown.push(hunkView(entry, file, index, post, hidden));
    hidden = 0;
  });
  return shown;
}

function fileView(entry: ToolEntry, file: DiffFile, post: Post): HTMLElement {
  const reviewing = file.states !== undefined;
  const { added, removed } = counts(file);
  const name = file.moveTo ? `${file.path} → ${file.moveTo}` : file.path;
  const header = h(
    'div',
    { class: 'file-header' },
    h('span', { class: 'codicon codicon-file', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'file-name' }, name),
    OP_LABELS[file.op] ? h('span', { class: 'file-op' }, OP_LABELS[file.op]) : undefined,
    h('span', { class: 'file-stat added' }, `+${added}`),
    h('span', { class: 'file-stat removed' }, `−${removed}`),
    file.pending && entry.status === 'streaming' ? h('span', { class: 'file-pending' }, t('writing…')) : undefined,
  );
  if (reviewing && file.op !== 'delete')
    header.append(
      button(
        t('Open in diff editor'),
        () => post({ type: 'openDiff', callId: entry.id, path: file.moveTo ?? file.path }),
        {
          icon: 'diff',
          kind: 'icon',
        },
      ),
    );
  return h(
    'section',
    { class: 'file', attrs: { 'aria-label': t('Changes to {0}', name) } },
    header,
    file.error ? h('div', { class: 'file-error', attrs: { role: 'alert' } }, file.error) : undefined,
    ...(file.pending && entry.status === 'streaming'
      ? streamingTail(entry, file, post)
      : foldedHunks(entry, file, post)),
  );
}

export function diffView(entry: ToolEntry, files: readonly DiffFile[], post: Post): HTMLElement {
  return h('div', { class: 'diff' }, ...files.map((file) => fileView(entry, file, post)));
}
