import type { Attachment } from '../protocol/attachments';
import type { ViewMessage } from '../protocol/chatView';
import type { QueueAction, QueuedPrompt } from '../protocol/promptQueue';
import { button, h } from './dom';
import { t } from './l10n';

// The prompts queued behind the running task, above the composer: one row each, with what the user may do
// to it — Steer (into the running task, at its next tool boundary), Send now (the task stopped first), Edit
// (in place: Enter saves, Escape leaves it as it was), move up or down, remove. A steered prompt waits for
// its boundary, marked so, and can no longer be changed. The host owns the queue; this only shows it.

export class QueueChips {
  readonly element = h('div', {
    class: 'queue-chips hidden',
    attrs: { role: 'list', 'aria-label': t('Queued prompts') },
  });
  /** The chip being edited: a new list from the host keeps it open rather than lose what is being typed. */
  private editing: string | undefined;
  /** The list as last shown. */
  private items: readonly QueuedPrompt[] = [];

  constructor(private readonly post: (message: ViewMessage) => void) {}

  show(items: readonly QueuedPrompt[]): void {
    this.items = items;
    if (this.editing !== undefined && !items.some((item) => item.id === this.editing)) this.editing = undefined;
    const open = this.editing === undefined ? undefined : this.element.querySelector('.queue-chip.editing');
    this.element.replaceChildren(
      ...items.map((item, i) =>
        item.id === this.editing && open ? open : this.chip(item, i === 0, i === items.length - 1),
      ),
    );
    this.element.classList.toggle('hidden', items.length === 0);
  }

  private act(action: QueueAction, id: string, text?: string): void {
    this.post({ type: 'queue', action, id, ...(text === undefined ? {} : { text }) });
  }

  private chip(item: QueuedPrompt, first: boolean, last: boolean): HTMLElement {
    // An image sent alone is named by its chips' names ("image.png"), as its chip showed it in the composer.
    const label = item.text !== '' ? item.text : imageNames(item.attachments);
    const text = h('span', { class: 'queue-text', attrs: { title: label } }, label);
    if (item.steering)
      return h(
        'div',
        { class: 'queue-chip steering', attrs: { role: 'listitem', 'data-id': item.id } },
        h('span', { class: 'codicon codicon-debug-step-into', attrs: { 'aria-hidden': 'true' } }),
        text,
        h('span', { class: 'queue-state' }, t('steering at the next step…')),
      );
    // A steer is text alone: a prompt with attachments waits for a turn of its own.
    const steerable = (item.attachments?.length ?? 0) === 0;
    return h(
      'div',
      { class: 'queue-chip', attrs: { role: 'listitem', 'data-id': item.id } },
      text,
      h(
        'span',
        { class: 'queue-actions' },
        steerable
          ? button(t('Steer'), () => this.act('steer', item.id), {
              icon: 'debug-step-into',
              title: t('Send it to the running task now, without stopping it: it reaches the model at the next step'),
            })
          : undefined,
        button(t('Send now'), () => this.act('sendNow', item.id), {
          icon: 'send',
          title: t('Stop the running task and send this now; the other queued prompts wait behind it'),
        }),
        button(t('Edit'), () => this.edit(item), { icon: 'edit', showLabel: false, kind: 'icon' }),
        first
          ? undefined
          : button(t('Move up'), () => this.act('up', item.id), { icon: 'arrow-up', showLabel: false, kind: 'icon' }),
        last
          ? undefined
          : button(t('Move down'), () => this.act('down', item.id), {
              icon: 'arrow-down',
              showLabel: false,
              kind: 'icon',
            }),
        button(t('Remove'), () => this.act('remove', item.id), { icon: 'close', showLabel: false, kind: 'icon' }),
      ),
    );
  }

  /** The chip becomes a text box: Enter (or Save) sends the new text, Escape (or Cancel) leaves it as it was. */
  private edit(item: QueuedPrompt): void {
    const row = [...this.element.children].find((child) => (child as HTMLElement).dataset.id === item.id);
    if (!row) return;
    this.editing = item.id;
    const box = h('textarea', { class: 'queue-edit', attrs: { rows: '2', 'aria-label': t('Edit the queued prompt') } });
    box.value = item.text;
    const close = (save: boolean) => {
      this.editing = undefined;
      const text = save && box.value.trim() !== '' ? box.value.trim() : item.text;
      // An image's chip left without words keeps none (a queued prompt's text is never empty).
      this.act('edit', item.id, text === '' ? undefined : text);
      // Drawn at once as it will be; the host's list, which follows, says so too.
      this.show(this.items.map((other) => (other.id === item.id ? { ...other, text } : other)));
    };
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        close(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close(false);
      }
    });
    row.replaceWith(
      h(
        'div',
        { class: 'queue-chip editing', attrs: { role: 'listitem' } },
        box,
        h(
          'span',
          { class: 'queue-actions' },
          button(t('Save'), () => close(true), { icon: 'check' }),
          button(t('Cancel'), () => close(false), { icon: 'discard' }),
        ),
      ),
    );
    box.focus();
  }
}

/** The names of a prompt's images, for a chip with no text of its own. */
function imageNames(attachments: readonly Attachment[] = []): string {
  return attachments.flatMap((attachment) => (attachment.kind === 'image' ? [attachment.name] : [])).join(', ');
}
