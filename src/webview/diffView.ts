import type { DiffFile, DiffHunk, ToolEntry, ViewMessage } from '../protocol/chatView';
import { button, h } from './dom';

// An edit's diff on its card: file by file, hunk by hunk, in the lines the edit engine computed (never a
// whole-file diff). While the call streams, the last file shows as pending; once applied, each hunk has its
// own Accept and Reject, and the file can be opened in VS Code's diff editor.

export type Post = (message: ViewMessage) => void;

function lines(kind: 'context' | 'removed' | 'added', texts: readonly string[], firstNumber: number): HTMLElement[] {
  const sign = kind === 'removed' ? '-' : kind === 'added' ? '+' : ' ';
  return texts.map((text, i) =>
    h(
      'div',
      { class: `line ${kind}` },
      h('span', { class: 'number', attrs: { 'aria-hidden': 'true' } }, String(firstNumber + i)),
      h('span', { class: 'sign', attrs: { 'aria-hidden': 'true' } }, sign),
      h('span', { class: 'code' }, text),
    ),
  );
}

function hunkView(entry: ToolEntry, file: DiffFile, hunk: DiffHunk, post: Post): HTMLElement {
  const state = file.states?.[hunk.id];
  const path = file.moveTo ?? file.path;
  const header = h(
    'div',
    { class: 'hunk-header' },
    h(
      'span',
      { class: 'hunk-range' },
      `@@ -${hunk.oldStart},${hunk.oldLines.length} +${hunk.newStart},${hunk.newLines.length} @@`,
    ),
  );
  if (state === 'applied' && file.op !== 'move' && file.op !== 'delete') {
    const act = (action: 'accept' | 'reject') => () =>
      post({ type: 'hunk', callId: entry.id, path, hunkId: hunk.id, action });
    header.append(
      h(
        'span',
        { class: 'hunk-actions' },
        button('Accept', act('accept'), { icon: 'check', kind: 'icon', title: 'Keep this change' }),
        button('Reject', act('reject'), { icon: 'discard', kind: 'icon', title: 'Take this change back' }),
      ),
    );
  } else if (state === 'accepted' || state === 'rejected')
    header.append(h('span', { class: `hunk-state ${state}` }, state === 'accepted' ? 'Accepted' : 'Rejected'));
  // Context and added lines are numbered as in the new file, removed lines as in the old one.
  const beforeStart = hunk.newStart - hunk.contextBefore.length;
  const afterStart = hunk.newStart + hunk.newLines.length;
  return h(
    'div',
    { class: `hunk${state === 'rejected' ? ' rejected' : ''}`, attrs: { 'data-hunk': hunk.id } },
    header,
    h(
      'div',
      { class: 'hunk-body', attrs: { role: 'group', 'aria-label': `Lines ${hunk.newStart}–${afterStart - 1}` } },
      ...lines('context', hunk.contextBefore, beforeStart),
      ...lines('removed', hunk.oldLines, hunk.oldStart),
      ...lines('added', hunk.newLines, hunk.newStart),
      ...lines('context', hunk.contextAfter, afterStart),
    ),
  );
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
      const added = file.hunks.reduce((n, hunk) => n + hunk.newLines.length, 0);
      const removed = file.hunks.reduce((n, hunk) => n + hunk.oldLines.length, 0);
      const name = file.moveTo ? `${file.path} → ${file.moveTo}` : file.path;
      const header = h(
        'div',
        { class: 'file-header' },
        h('span', { class: 'codicon codicon-file', attrs: { 'aria-hidden': 'true' } }),
        h('span', { class: 'file-name' }, name),
        OP_LABELS[file.op] ? h('span', { class: 'file-op' }, OP_LABELS[file.op]) : undefined,
        h('span', { class: 'file-stat added' }, `+${added}`),
        h('span', { class: 'file-stat removed' }, `−${removed}`),
        file.pending ? h('span', { class: 'file-pending' }, 'writing…') : undefined,
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
        ...file.hunks.map((hunk) => hunkView(entry, file, hunk, post)),
      );
    }),
  );
}
