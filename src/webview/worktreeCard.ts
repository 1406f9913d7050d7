import type { ViewMessage } from '../protocol/chatView';
import type { WorktreeCard, WorktreeFile } from '../protocol/worktreeCard';
import { button, h } from './dom';
import { t } from './l10n';

// The worktree cards above the composer (issue 49, item 3; docs/worktrees.md): each worktree Loopwire made
// that this window shows, its changed files with their +/- counts (a click opens VS Code's diff editor, the
// base against now), and Apply to workspace, Open in New Window, Discard (the host asks first where anything
// would be lost). A worktree whose folder has gone says so and offers Discard alone. And the composer's
// "in a new worktree" toggle: the next prompt goes to New Chat in Worktree instead of this chat.

type Post = (message: ViewMessage) => void;

export class WorktreeCards {
  readonly element = h('div', {
    class: 'worktree-cards hidden',
    attrs: { role: 'region', 'aria-label': t('Worktrees') },
  });

  constructor(private readonly post: Post) {}

  show(cards: readonly WorktreeCard[], busy: string | undefined): void {
    this.element.replaceChildren(...cards.map((card) => this.card(card, busy === card.name)));
    this.element.classList.toggle('hidden', cards.length === 0);
  }

  private card(card: WorktreeCard, busy: boolean): HTMLElement {
    const act = (action: 'apply' | 'open' | 'discard') => () =>
      this.post({ type: 'worktree', action, name: card.name });
    const actions = card.gone
      ? [button(t('Discard'), act('discard'), { icon: 'trash', title: t('Forget this worktree and its branch') })]
      : [
          button(t('Apply to workspace'), act('apply'), {
            icon: 'check',
            kind: card.unapplied ? 'primary' : 'secondary',
            title: t('Apply its changes to your working tree (all or nothing)'),
          }),
          card.here ? undefined : button(t('Open in New Window'), act('open'), { icon: 'empty-window' }),
          button(t('Discard'), act('discard'), { icon: 'trash', title: t('Remove the worktree and its branch') }),
        ];
    for (const action of actions) if (action) action.disabled = busy;
    return h(
      'div',
      {
        class: `worktree-card${card.gone ? ' gone' : ''}${busy ? ' busy' : ''}`,
        attrs: { role: 'group', 'aria-label': t('Worktree {0}', card.name), 'data-name': card.name },
      },
      h(
        'div',
        { class: 'worktree-head' },
        h('span', { class: 'codicon codicon-git-branch', attrs: { 'aria-hidden': 'true' } }),
        h('span', { class: 'worktree-name' }, card.here ? t('This worktree: {0}', card.name) : card.name),
        h('span', { class: 'worktree-branch' }, card.branch),
        h('span', { class: 'worktree-state' }, stateOf(card)),
      ),
      card.problem ? h('div', { class: 'worktree-problem' }, card.problem) : undefined,
      card.files.length > 0
        ? h('ul', { class: 'worktree-files' }, ...card.files.map((file) => this.file(card.name, file)))
        : undefined,
      card.more > 0 ? h('div', { class: 'worktree-more' }, t('and {0} more files', card.more)) : undefined,
      h('div', { class: 'worktree-actions' }, ...actions),
    );
  }

  private file(name: string, file: WorktreeFile): HTMLElement {
    const open = button(file.path, () => this.post({ type: 'worktree', action: 'diff', name, path: file.path }), {
      kind: 'icon',
      title: t('Open the changes of {0} (base ↔ now)', file.path),
    });
    open.classList.add('worktree-file');
    open.append(h('span', { class: 'worktree-path' }, file.path));
    const counts = file.binary
      ? [h('span', { class: 'worktree-binary' }, t('binary'))]
      : [
          h('span', { class: 'worktree-added' }, `+${file.added}`),
          h('span', { class: 'worktree-removed' }, `−${file.removed}`),
        ];
    return h('li', { class: `worktree-file-row ${file.change}` }, open, ...counts);
  }
}

function stateOf(card: WorktreeCard): string {
  if (card.gone) return t('its folder has gone');
  if (card.problem) return t('its changes could not be read');
  if (card.files.length === 0) return t('no changes yet');
  const count = card.files.length + card.more;
  const files = count === 1 ? t('1 file changed') : t('{0} files changed', count);
  const applied = card.unapplied ? t('not applied') : t('applied');
  return card.uncommitted > 0
    ? `${files} · ${applied} · ${t('{0} uncommitted', card.uncommitted)}`
    : `${files} · ${applied}`;
}

/** The composer's "in a new worktree" toggle (aria-pressed): on, the next prompt starts a chat in a new worktree. */
export class WorktreeToggle {
  readonly element = button(t('In a new worktree'), () => this.set(!this.on), {
    icon: 'git-branch',
    kind: 'icon',
    title: t('Run the next prompt in a new git worktree (New Chat in Worktree)'),
  });

  constructor() {
    this.element.classList.add('worktree-toggle');
    this.set(false);
  }

  get on(): boolean {
    return this.element.getAttribute('aria-pressed') === 'true';
  }

  set(on: boolean): void {
    this.element.setAttribute('aria-pressed', String(on));
    this.element.classList.toggle('on', on);
  }
}
