import {
  type Attachment,
  Attachments,
  MAX_ATTACHMENTS,
  attachmentLabel,
  sameAttachment,
} from '../protocol/attachments';
import { h } from './dom';
import { t } from './l10n';

// The composer's chips: what goes with the next prompt (picked with `@`, dropped, or sent by Add to Chat),
// each with × to take it off; and the same chips, without ×, under a sent prompt. What a chip names is read
// by the host when the prompt is sent, not here.

const ICONS: Record<Attachment['kind'], string> = {
  file: 'file',
  folder: 'folder',
  problems: 'warning',
  terminal: 'terminal',
  changes: 'git-compare',
  image: 'file-media',
};

/** What a chip's tooltip says it sends. */
function describe(attachment: Attachment): string {
  switch (attachment.kind) {
    case 'file':
      return attachment.lines
        ? t('Lines {0}–{1} of {2}', attachment.lines.start, attachment.lines.end, attachment.path)
        : t('The file {0}', attachment.path);
    case 'folder':
      return t('The list of the files in {0}', attachment.path);
    case 'problems':
      return t("The workspace's problems");
    case 'terminal':
      return t("The Loopwire terminal's last command and its output");
    case 'changes':
      return t("The working tree's changes (git diff)");
    case 'image':
      return attachment.width && attachment.height
        ? t('The image {0}, {1}×{2} px', attachment.name, attachment.width, attachment.height)
        : t('The image {0}', attachment.name);
  }
}

/** What leads a chip: an image's thumbnail (its own pixels, a data: URL the page's CSP allows), else an icon. */
function lead(attachment: Attachment): HTMLElement {
  if (attachment.kind !== 'image')
    return h('span', { class: `codicon codicon-${ICONS[attachment.kind]}`, attrs: { 'aria-hidden': 'true' } });
  // The chip's label names it: the picture is decoration to a screen reader.
  return h('img', { class: 'attachment-thumb', attrs: { src: attachment.dataUrl, alt: '', draggable: 'false' } });
}

function chip(attachment: Attachment, remove?: () => void): HTMLElement {
  const label = attachmentLabel(attachment);
  return h(
    'span',
    {
      class: 'attachment-chip',
      // Under a sent prompt the chips are a list's items; in the composer, each a label and its × button.
      attrs: { title: describe(attachment), 'data-kind': attachment.kind, ...(remove ? {} : { role: 'listitem' }) },
    },
    lead(attachment),
    h('span', { class: 'attachment-label' }, label),
    remove
      ? h(
          'button',
          {
            class: 'attachment-remove',
            attrs: { type: 'button', 'aria-label': t('Remove {0}', label), title: t('Remove {0}', label) },
            on: { click: remove },
          },
          h('span', { class: 'codicon codicon-close', attrs: { 'aria-hidden': 'true' } }),
        )
      : undefined,
  );
}

/** A sent prompt's chips, read-only. */
export function sentChips(attachments: readonly Attachment[] | undefined): HTMLElement | undefined {
  if (!attachments || attachments.length === 0) return undefined;
  return h(
    'div',
    { class: 'attachment-chips sent', attrs: { role: 'list', 'aria-label': t('Attached') } },
    ...attachments.map((attachment) => chip(attachment)),
  );
}

export class AttachmentChips {
  readonly element = h('div', {
    class: 'attachment-chips hidden',
    attrs: { role: 'group', 'aria-label': t('Attached to the next prompt') },
  });
  private list: Attachment[] = [];

  /** `changed`: the chips changed (the page keeps them with the draft). */
  constructor(private readonly changed: (attachments: readonly Attachment[]) => void) {}

  get attachments(): readonly Attachment[] {
    return this.list;
  }

  /** Adds chips, each once; anything that does not parse (a saved draft of another version) is passed over. */
  add(attachments: readonly unknown[]): void {
    const parsed = Attachments.safeParse(attachments);
    if (!parsed.success) return;
    for (const attachment of parsed.data)
      if (this.list.length < MAX_ATTACHMENTS && !this.list.some((other) => sameAttachment(other, attachment)))
        this.list.push(attachment);
    this.render();
  }

  clear(): void {
    this.list = [];
    this.render();
  }

  private remove(attachment: Attachment): void {
    this.list = this.list.filter((other) => other !== attachment);
    this.render();
  }

  private render(): void {
    this.element.classList.toggle('hidden', this.list.length === 0);
    this.element.replaceChildren(...this.list.map((attachment) => chip(attachment, () => this.remove(attachment))));
    this.changed(this.list);
  }
}
