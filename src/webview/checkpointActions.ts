import type { Attachment } from '../protocol/attachments';
import type { ChatEntry, HostMessage, ViewMessage } from '../protocol/chatView';
import { AttachmentChips } from './attachmentChips';
import { button, h } from './dom';
import { ImageIntake } from './imageIntake';
import { t } from './l10n';

// What a sent prompt offers: Edit, which makes it editable in place and sends it again as a fork of the
// conversation at that point, and Restore, which puts back the files Loopwire wrote since (its
// checkpoint). Both wait for a running task to end (hidden while one runs). When files were written since
// an edited prompt, the host asks first (`resendAsk`) whether they go back or stay. The edited prompt keeps
// its chips, as the composer shows them (a pasted image as its thumbnail, each with ×; more images paste in):
// like a first Send, it goes with its text or an image, so a screenshot sent alone is sent again as it is.

type Post = (message: ViewMessage) => void;
type UserEntry = Extract<ChatEntry, { kind: 'user' }>;

/** What an edited prompt sends: its text, and its chips (none when it had none and has none). */
type Edited = (text: string) => { text: string; attachments?: Attachment[] };

/** Each prompt being edited, by its editor: what the answer to the host's question sends again. */
const editing = new WeakMap<HTMLElement, Edited>();

/** The Edit and Restore buttons under a sent prompt. */
export function promptActions(entry: UserEntry, post: Post): HTMLElement {
  const actions = h(
    'div',
    { class: 'prompt-actions', attrs: { role: 'toolbar', 'aria-label': t('Prompt') } },
    button(t('Edit'), () => startEditing(actions, entry, post), {
      icon: 'edit',
      kind: 'icon',
      title: t('Edit and send again: the chat forks here, the old branch stays in History'),
    }),
    button(t('Restore'), () => post({ type: 'restore', id: entry.id }), {
      icon: 'discard',
      kind: 'icon',
      title: t(
        'Restore checkpoint: the files Loopwire wrote after this message go back to how they were (files you changed since are left as they are)',
      ),
    }),
  );
  return actions;
}

/** Enter sends the edited prompt, Shift+Enter makes a new line, Escape cancels the edit. */
function sendOnEnter(box: HTMLTextAreaElement, send: () => void, cancel: () => void): void {
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape') {
      // Only the edit is cancelled: Escape in the page would otherwise stop a task.
      event.stopPropagation();
      cancel();
    }
  });
}

/** The prompt becomes a text box with Send and Cancel, in place of its bubble. */
function startEditing(actions: HTMLElement, entry: UserEntry, post: Post): void {
  const view = actions.closest<HTMLElement>('.entry.user');
  const bubble = view?.querySelector<HTMLElement>('.bubble');
  if (!view || !bubble || view.querySelector('.prompt-editor')) return;
  const box = h('textarea', { class: 'prompt prompt-edit', attrs: { rows: '3', 'aria-label': t('Edit the message') } });
  box.value = entry.text;
  const chips = new AttachmentChips(() => undefined);
  chips.add(entry.attachments ?? []);
  const images = new ImageIntake(
    (attachments) => chips.add(attachments),
    () => chips.attachments.filter((attachment) => attachment.kind === 'image').length,
  );
  images.listen(box);
  // The chips go as they stand; a prompt that had some and has none now says so with an empty list.
  const had = (entry.attachments ?? []).length > 0;
  const edited: Edited = (text) =>
    had || chips.attachments.length > 0 ? { text, attachments: [...chips.attachments] } : { text };
  const send = () => {
    const text = box.value.trim();
    // As at the first Send: an image alone is a prompt; chips of files alone are not.
    if (text === '' && !chips.attachments.some((attachment) => attachment.kind === 'image')) return;
    editor.classList.add('sending');
    box.readOnly = true;
    post({ type: 'resend', id: entry.id, ...edited(text) });
  };
  const cancel = () => {
    editor.remove();
    bubble.hidden = false;
    actions.hidden = false;
  };
  const editor = h(
    'div',
    { class: 'prompt-editor' },
    chips.element,
    images.notice,
    box,
    h(
      'div',
      { class: 'prompt-editor-bar' },
      h(
        'span',
        { class: 'prompt-editor-hint' },
        t('Sends from here: the chat forks, the old branch stays in History.'),
      ),
      button(t('Cancel'), cancel, { kind: 'secondary' }),
      button(t('Send'), send, { icon: 'send', kind: 'primary' }),
    ),
  );
  sendOnEnter(box, send, cancel);
  editing.set(editor, edited);
  bubble.hidden = true;
  actions.hidden = true;
  bubble.after(editor);
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}

/** The host asks, before forking, what happens to the files Loopwire wrote after the edited prompt. */
export function askResend(message: Extract<HostMessage, { type: 'resendAsk' }>, post: Post): void {
  const editor = document.querySelector<HTMLElement>(`.entry.user[data-id="${CSS.escape(message.id)}"] .prompt-editor`);
  if (!editor) return;
  editor.classList.remove('sending');
  editor.querySelector('.prompt-resend-ask')?.remove();
  const edited = editing.get(editor) ?? ((text: string) => ({ text }));
  const answer = (files: 'restore' | 'keep') => () => {
    editor.classList.add('sending');
    post({ type: 'resend', id: message.id, ...edited(message.text), files });
  };
  const count = message.paths.length;
  const named = message.paths.slice(0, 5).join(', ') + (count > 5 ? t(' and {0} more', count - 5) : '');
  const ask = h(
    'div',
    { class: 'prompt-resend-ask', attrs: { role: 'group', 'aria-label': t('Files changed after this message') } },
    h('span', { class: 'codicon codicon-info', attrs: { 'aria-hidden': 'true' } }),
    h(
      'span',
      { class: 'prompt-resend-text' },
      count === 1
        ? t('Loopwire changed 1 file after this message: {0}.', named)
        : t('Loopwire changed {0} files after this message: {1}.', count, named),
    ),
    button(t('Restore files and send'), answer('restore'), { icon: 'discard', kind: 'primary' }),
    button(t('Keep files and send'), answer('keep'), { kind: 'secondary' }),
  );
  editor.append(ask);
  ask.querySelector('button')?.focus();
}
