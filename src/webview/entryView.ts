import type { ChatEntry, ToolEntry, ToolStatus } from '../protocol/chatView';
import { type Post, diffView } from './diffView';
import { button, formatDuration, h } from './dom';
import { renderMarkdown } from './markdown';

// One entry of the conversation as an element: a prompt, an answer (markdown), a notice, or a tool call's
// card (name, what it is about, live status, duration, collapsible output, and the diff of an edit).

const STATUS: Record<ToolStatus, { icon: string; label: string }> = {
  streaming: { icon: 'loading codicon-modifier-spin', label: 'writing' },
  approval: { icon: 'question', label: 'waiting for you' },
  running: { icon: 'loading codicon-modifier-spin', label: 'running' },
  done: { icon: 'check', label: 'done' },
  failed: { icon: 'error', label: 'failed' },
  declined: { icon: 'circle-slash', label: 'skipped' },
};

function toolCard(entry: ToolEntry, post: Post): HTMLElement {
  const status = STATUS[entry.status];
  const card = h(
    'article',
    {
      class: `tool-card status-${entry.status}`,
      attrs: { 'aria-label': `${entry.name} ${entry.summary}, ${status.label}` },
    },
    h(
      'header',
      { class: 'tool-header' },
      h('span', { class: `codicon codicon-${status.icon}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'tool-name' }, entry.name),
      h('span', { class: 'tool-summary', attrs: { title: entry.summary } }, entry.summary),
      h('span', { class: 'tool-status' }, status.label),
      entry.durationMs === undefined
        ? undefined
        : h('span', { class: 'tool-duration' }, formatDuration(entry.durationMs)),
    ),
  );
  if (entry.diff && entry.diff.length > 0) card.append(diffView(entry, entry.diff, post));
  if (entry.status === 'approval')
    card.append(
      h(
        'div',
        { class: 'approval', attrs: { role: 'group', 'aria-label': 'Approve this call' } },
        button('Apply', () => post({ type: 'approval', callId: entry.id, allow: true }), {
          icon: 'check',
          kind: 'primary',
        }),
        button('Skip', () => post({ type: 'approval', callId: entry.id, allow: false }), { icon: 'close' }),
      ),
    );
  const reviewing = entry.diff?.some((file) => Object.values(file.states ?? {}).some((state) => state !== 'rejected'));
  if (reviewing)
    card.append(
      h(
        'div',
        { class: 'review-actions' },
        button('Undo all of this turn', () => post({ type: 'undoTurn', turn: entry.turn }), { icon: 'discard' }),
      ),
    );
  if (entry.output !== undefined && entry.output !== '') {
    const details = h('details', { class: 'tool-output' }, h('summary', {}, 'Output'), h('pre', {}, entry.output));
    card.append(details);
  }
  return card;
}

/** Rendered markdown (sanitised by renderMarkdown), as an element. */
function markdown(text: string): HTMLElement {
  const body = h('div', { class: 'markdown' });
  body.innerHTML = renderMarkdown(text);
  return body;
}

const markdownAttrs = (entry: { kind: string; id: string; streaming: boolean }) => ({
  class: `entry ${entry.kind}${entry.streaming ? ' streaming' : ''}`,
  attrs: { 'data-id': entry.id },
});

export function entryView(entry: ChatEntry, post: Post): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return h(
        'div',
        { class: 'entry user', attrs: { 'data-id': entry.id } },
        h('div', { class: 'bubble' }, entry.text),
      );
    case 'assistant':
      return h('div', markdownAttrs(entry), markdown(entry.text));
    case 'thinking':
      // Folded: the reasoning is there for whoever wants it, not in the way of the answer.
      return h(
        'details',
        markdownAttrs(entry),
        h('summary', {}, entry.streaming ? 'Thinking…' : 'Thinking'),
        markdown(entry.text),
      );
    case 'tool':
      return h('div', { class: 'entry tool', attrs: { 'data-id': entry.id } }, toolCard(entry, post));
    case 'notice':
      return h(
        'div',
        {
          class: `entry notice ${entry.level}`,
          attrs: { 'data-id': entry.id, role: entry.level === 'error' ? 'alert' : 'status' },
        },
        entry.text,
      );
  }
}
