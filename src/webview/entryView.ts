import type { ChatEntry, Remedy } from '../protocol/chatView';
import { sentChips } from './attachmentChips';
import { promptActions } from './checkpointActions';
import type { Post } from './diffView';
import { button, h } from './dom';
import { inlineEntryView } from './inlineEntry';
import { t } from './l10n';
import { renderMarkdown } from './markdown';
import { toolCard } from './toolCard';

// One entry of the conversation as an element: a prompt (markdown, marked while it waits its turn), an
// answer (markdown), the model's folded reasoning, a notice, a tool call's card (toolCard.ts), or an inline
// edit done beside the chat (inlineEntry.ts).

/** Rendered markdown (sanitised by renderMarkdown), as an element. */
function markdown(text: string): HTMLElement {
  const body = h('div', { class: 'markdown' });
  // Trimmed: the text is the prompt's own, with no newline markdown-it adds after the last block.
  body.innerHTML = renderMarkdown(text).trim();
  return body;
}

const markdownAttrs = (entry: { kind: string; id: string; streaming: boolean }) => ({
  class: `entry ${entry.kind}${entry.streaming ? ' streaming' : ''}`,
  attrs: { 'data-id': entry.id },
});

function userView(entry: Extract<ChatEntry, { kind: 'user' }>, post: Post): HTMLElement {
  if (entry.steered)
    // Steered into the running task: it reached the model here, between two of its steps.
    return h(
      'div',
      {
        class: 'entry user steered',
        attrs: { 'data-id': entry.id, role: 'group', 'aria-label': t('Steered into the task') },
      },
      h(
        'div',
        { class: 'queued-mark', attrs: { title: t('Sent to the running task, which went on from it') } },
        h('span', { class: 'codicon codicon-debug-step-into', attrs: { 'aria-hidden': 'true' } }),
        h('span', {}, t('Steered')),
      ),
      h('div', { class: 'bubble' }, markdown(entry.text)),
    );
  if (!entry.queued)
    return h(
      'div',
      { class: 'entry user', attrs: { 'data-id': entry.id } },
      h('div', { class: 'bubble' }, markdown(entry.text), sentChips(entry.attachments)),
      promptActions(entry, post),
    );
  // Sent while a task runs: shown last, and runs once the task before it ends.
  return h(
    'div',
    {
      class: 'entry user queued',
      attrs: { 'data-id': entry.id, role: 'group', 'aria-label': t('Queued prompt: runs after the current task') },
    },
    h(
      'div',
      { class: 'queued-mark', attrs: { title: t('Runs after the current task') } },
      h('span', { class: 'codicon codicon-clock', attrs: { 'aria-hidden': 'true' } }),
      h('span', {}, t('Queued')),
    ),
    h('div', { class: 'bubble' }, markdown(entry.text), sentChips(entry.attachments)),
  );
}

export function entryView(entry: ChatEntry, post: Post): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return userView(entry, post);
    case 'assistant': {
      const attrs = markdownAttrs(entry);
      return h('div', entry.note ? { ...attrs, class: `${attrs.class} note` } : attrs, markdown(entry.text));
    }
    case 'thinking':
      // Folded: the reasoning is there for whoever wants it, not in the way of the answer.
      return h(
        'details',
        markdownAttrs(entry),
        h('summary', {}, entry.streaming ? t('Thinking…') : t('Thinking')),
        markdown(entry.text),
      );
    case 'tool':
      return h('div', { class: 'entry tool', attrs: { 'data-id': entry.id } }, toolCard(entry, post));
    case 'notice':
      return noticeView(entry, post);
    case 'inline':
      return inlineEntryView(entry, post);
  }
}

/** Each remedy's button: the label and icon of the command the host runs for it. */
const REMEDY_BUTTONS: Record<Remedy, { label: string; icon: string }> = {
  setApiKey: { label: t('Set API Key…'), icon: 'key' },
  selectEndpoint: { label: t('Select Endpoint…'), icon: 'plug' },
  showLog: { label: t('Show Log'), icon: 'output' },
};

/** The button of a remedy: it asks the host to run its command. */
function remedyButton(remedy: Remedy, post: Post): HTMLButtonElement {
  const { label, icon } = REMEDY_BUTTONS[remedy];
  return button(label, () => post({ type: 'remedy', remedy }), { icon });
}

/** A line of the conversation's own; a stop's has the button that fixes its cause. */
function noticeView(entry: Extract<ChatEntry, { kind: 'notice' }>, post: Post): HTMLElement {
  return h(
    'div',
    {
      class: `entry notice ${entry.level}`,
      attrs: { 'data-id': entry.id, role: entry.level === 'error' ? 'alert' : 'status' },
    },
    h('span', { class: 'notice-text' }, entry.text),
    entry.remedy === undefined ? undefined : remedyButton(entry.remedy, post),
  );
}
