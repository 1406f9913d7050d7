import type { InstructionsInfo, ViewMessage } from '../protocol/chatView';
import { button, h } from './dom';
import { t } from './l10n';

// The line above the composer that says which project instruction files (AGENTS.md, Copilot's) the model
// is given, each a link that opens it; in an untrusted workspace, that they are not sent, with a button to
// send them after all. Hidden when the project has none.

export class InstructionsLine {
  readonly element = h('div', { class: 'instructions-line hidden', attrs: { role: 'note' } });

  constructor(private readonly post: (message: ViewMessage) => void) {}

  show(info: InstructionsInfo): void {
    this.element.classList.toggle('hidden', info.files.length === 0);
    this.element.classList.toggle('not-sent', !info.sent);
    if (info.files.length === 0) return this.element.replaceChildren();
    const links = info.files.flatMap((file, index) => [
      index === 0 ? '' : ', ',
      h(
        'button',
        {
          class: 'instructions-file',
          attrs: {
            type: 'button',
            title: file.cut ? t('{0} (cut: project instructions are capped at 32 KiB)', file.path) : file.path,
          },
          on: { click: () => this.post({ type: 'openInstructions', path: file.path }) },
        },
        file.label,
      ),
      file.cut ? h('span', { class: 'instructions-cut' }, t(' (cut)')) : '',
    ]);
    const notSent = !info.sent;
    this.element.replaceChildren(
      h('span', {
        class: `codicon codicon-${notSent ? 'workspace-untrusted' : 'book'}`,
        attrs: { 'aria-hidden': 'true' },
      }),
      h(
        'span',
        { class: 'instructions-text' },
        notSent ? t('Not sent (untrusted workspace): ') : t('Using '),
        ...links,
      ),
      notSent
        ? button(t('Send them'), () => this.post({ type: 'allowInstructions' }), {
            kind: 'secondary',
            title: t('Send these instructions to the model from the next task on, in this workspace'),
          })
        : '',
    );
  }
}
