import type { DiffFile, HunkState, ToolEntry, ViewMessage } from '../protocol/chatView';
import type { DiffHunk } from '../protocol/edits';
import { button, h } from './dom';

// An edit's diff on its card: file by file, hunk by hunk, in the lines the edit engine computed (never a
// whole-file diff). While the call streams, the last file shows as pending; once applied, each hunk has its
// own Accept and Reject, and the file can be opened in VS Code's diff editor.

export type Post = (message: ViewMessage) => void;

type LineKind = 'context' | 'removed' | 'added';

const STATE_LABELS: Record<Exclude<HunkState, 'applied'>, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  edited: 'Edited by you',
};

const STATE_TITLES: Record<Exclude<HunkState, 'applied'>, string> = {
  accepted: 'Kept',
  rejected: 'Taken back: not in the file now',
  edited: 'Its lines changed since: it can no longer be kept or taken back here',
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

/**
 * Where a hunk's context starts in each file. The engine numbers `oldStart` in the old text and `newStart`
 * in the new one; the context before sits just above both.
 */
const contextStart = (hunk: DiffHunk) => ({
  old: hunk.oldStart - hunk.contextBefore.length,
  new: hunk.newStart - hunk.contextBefore.length,
});

/** `@@ -a,b +c,d @@` as unified diffs write it: both ranges count the context lines too. */
function unifiedHeader(hunk: DiffHunk, contextBefore: number, contextAfter: number): string {
  const oldCount = contextBefore + hunk.oldLines.length + contextAfter;
  const newCount = contextBefore + hunk.newLines.length + contextAfter;
  // An empty range names the line before it, as `diff -u` does.
  const oldFrom = oldCount === 0 ? hunk.oldStart - 1 : hunk.oldStart - contextBefore;
  const newFrom = newCount === 0 ? hunk.newStart - 1 : hunk.newStart - contextBefore;
  return `@@ -${oldFrom},${oldCount} +${newFrom},${newCount} @@`;
}

/**
 * How many of a hunk's context-before lines the previous hunk's context-after already shows: neighbours
 * whose context meets are drawn as one block, not with the same lines twice.
 */
function sharedContext(previous: DiffHunk | undefined, hunk: DiffHunk): number {
  if (!previous) return 0;
  const previousEnd = previous.newStart + previous.newLines.length + previous.contextAfter.length;
  const overlap = previousEnd - contextStart(hunk).new;
  return Math.max(0, Math.min(overlap, hunk.contextBefore.length));
}

function hunkView(entry: ToolEntry, file: DiffFile, index: number, post: Post): HTMLElement {
  const hunk = file.hunks[index] as DiffHunk;
  const state = file.states?.[hunk.id];
  const path = file.moveTo ?? file.path;
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
  );
  const act = (action: 'accept' | 'reject') => () =>
    post({ type: 'hunk', callId: entry.id, path, hunkId: hunk.id, action });
  const reviewable = file.op !== 'move' && file.op !== 'delete';
  if (state === 'applied' && reviewable)
    header.append(
      h(
        'span',
        { class: 'hunk-actions' },
        button('Accept', act('accept'), { icon: 'check', kind: 'icon', title: 'Keep this change' }),
        button('Reject', act('reject'), { icon: 'discard', kind: 'icon', title: 'Take this change back' }),
      ),
    );
  else if (state !== undefined && state !== 'applied')
    header.append(
      h('span', { class: `hunk-state ${state}`, attrs: { title: STATE_TITLES[state] } }, STATE_LABELS[state]),
    );
  // Taken back (by Reject or the editor's Undo): the host writes it again while its lines still fit.
  if (state === 'rejected' && reviewable)
    header.append(
      h(
        'span',
        { class: 'hunk-actions' },
        button('Restore', act('accept'), { icon: 'redo', kind: 'secondary', title: 'Apply this change again' }),
      ),
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
      { class: 'hunk-body', attrs: { role: 'group', 'aria-label': `Lines ${hunk.newStart}–${newAfter - 1}` } },
      ...contextBefore.map((text, i) => line('context', text, start.old + i, start.new + i)),
      ...hunk.oldLines.map((text, i) => line('removed', text, hunk.oldStart + i, undefined)),
      ...hunk.newLines.map((text, i) => line('added', text, undefined, hunk.newStart + i)),
      ...contextAfter.map((text, i) => line('context', text, oldAfter + i, newAfter + i)),
    ),
  );
}

/** Whether a hunk's change stands as the agent made it: proposed (no review yet), applied or accepted. */
const stands = (state: HunkState | undefined) => state === undefined || state === 'applied' || state === 'accepted';

/** Lines added and removed by the hunks that stand: a rejected or since-edited hunk no longer counts. */
function counts(file: DiffFile): { added: number; removed: number } {
  const standing = file.hunks.filter((hunk) => stands(file.states?.[hunk.id]));
  return {
    added: standing.reduce((n, hunk) => n + hunk.newLines.length, 0),
    removed: standing.reduce((n, hunk) => n + hunk.oldLines.length, 0),
  };
}

const OP_LABELS: Record<DiffFile['op'], string> = {
  create: 'new file',
  delete: 'deleted',
  move: 'moved',
  update: '',
};

export function diffView(entry: ToolEntry, files: readonly DiffFile[], post: Post): HTMLElement {
  return h(
    'div',
    { class: 'diff' },
    ...files.map((file) => {
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
        file.pending && entry.status === 'streaming' ? h('span', { class: 'file-pending' }, 'writing…') : undefined,
      );
      if (reviewing && file.op !== 'delete')
        header.append(
          button(
            'Open in diff editor',
            () => post({ type: 'openDiff', callId: entry.id, path: file.moveTo ?? file.path }),
            {
              icon: 'diff',
              kind: 'icon',
            },
          ),
        );
      return h(
        'section',
        { class: 'file', attrs: { 'aria-label': `Changes to ${name}` } },
        header,
        file.error ? h('div', { class: 'file-error', attrs: { role: 'alert' } }, file.error) : undefined,
        ...file.hunks.map((_hunk, index) => hunkView(entry, file, index, post)),
      );
    }),
  );
}
