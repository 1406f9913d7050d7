import type { Attachment } from '../protocol/attachments';
import type { ContextMatch, ViewMessage } from '../protocol/chatView';
import { h } from './dom';
import { t } from './l10n';

// The `@` picker: typing `@` at the start of a word in the prompt box opens a list under the caret's word —
// `@selection`, `@problems`, `@terminal`, `@changes`, then the workspace's files and folders that match what
// follows the `@` (the host searches: `findContext`, answered by `contextMatches`). Arrows move, Enter or Tab
// picks, Escape closes; a click picks too. Picking takes the `@word` out of the prompt and adds a chip.

type Special = 'selection' | 'problems' | 'terminal' | 'changes';

const SPECIALS: readonly { kind: Special; icon: string; detail: string }[] = [
  { kind: 'selection', icon: 'selection', detail: "the editor's selection, with its lines" },
  { kind: 'problems', icon: 'warning', detail: "the workspace's problems" },
  { kind: 'terminal', icon: 'terminal', detail: "the Loopwire terminal's last command and output" },
  { kind: 'changes', icon: 'git-compare', detail: "the working tree's changes (git diff)" },
];

type Item = { kind: Special } | ContextMatch;

/** How long typing may pause before the host is asked again. */
const ASK_AFTER_MS = 60;

/** The `@word` that ends at the caret: where its `@` is and what follows it; undefined when there is none. */
function tokenAt(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - match[0].length + (match[0].startsWith('@') ? 0 : 1), query: match[1] ?? '' };
}

export class ContextPicker {
  readonly element = h('div', {
    class: 'context-picker hidden',
    attrs: { role: 'listbox', id: 'context-picker', 'aria-label': t('Attach to the prompt') },
  });
  private token: { start: number; query: string } | undefined;
  private items: Item[] = [];
  private matches: ContextMatch[] = [];
  private active = 0;
  /** Where the `@` was that Escape closed the list for: it stays closed until another `@`. */
  private dismissedAt: number | undefined;
  private askTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly prompt: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
    private readonly attach: (attachments: Attachment[]) => void,
  ) {
    // A textarea is a textbox, which ARIA gives no aria-expanded (nor may it take the combobox role): the list
    // is tied to it by aria-controls, and its active option by aria-activedescendant, which a textbox allows.
    prompt.setAttribute('aria-autocomplete', 'list');
    prompt.setAttribute('aria-controls', 'context-picker');
    // Registered before the page's own Enter (send) and Escape (stop): while the list is open, they are its.
    prompt.addEventListener('keydown', (event) => this.key(event));
    prompt.addEventListener('input', () => this.update());
    prompt.addEventListener('click', () => this.update());
    prompt.addEventListener('blur', () => this.close());
    // A click on an option must not take the focus from the prompt first (that would close the list).
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return this.token !== undefined;
  }

  /** The host's files and folders for `query`: shown if it is still what follows the `@`. */
  showMatches(query: string, matches: readonly ContextMatch[]): void {
    if (this.token?.query !== query) return;
    this.matches = [...matches];
    this.render();
  }

  private update(): void {
    const token = tokenAt(this.prompt.value, this.prompt.selectionStart);
    if (token && token.start === this.dismissedAt) return this.close(false);
    this.dismissedAt = undefined;
    if (!token) return this.close();
    const changed = token.query !== this.token?.query || this.token.start !== token.start;
    this.token = token;
    if (!changed) return;
    this.active = 0;
    this.matches = this.matches.filter((match) => match.path.toLowerCase().includes(token.query.toLowerCase()));
    this.render();
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => this.post({ type: 'findContext', query: token.query }), ASK_AFTER_MS);
  }

  private key(event: KeyboardEvent): void {
    if (!this.token || event.isComposing) return;
    const handled = (): void => {
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    if (event.key === 'Escape') {
      handled();
      this.dismissedAt = this.token.start;
      return this.close(false);
    }
    if (this.items.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      handled();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.items.length) % this.items.length;
      return this.render();
    }
    if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey)) {
      handled();
      const item = this.items[this.active];
      if (item) this.choose(item);
    }
  }

  private choose(item: Item): void {
    const token = this.token;
    if (!token) return;
    // The `@word` goes; what was typed around it stays.
    const { value } = this.prompt;
    const end = token.start + 1 + token.query.length;
    this.prompt.value = value.slice(0, token.start) + value.slice(end).replace(/^ /, '');
    this.prompt.setSelectionRange(token.start, token.start);
    this.prompt.dispatchEvent(new Event('input'));
    this.close();
    if (item.kind === 'selection') this.post({ type: 'attachSelection' });
    else if (item.kind === 'file' || item.kind === 'folder') this.attach([{ kind: item.kind, path: item.path }]);
    else this.attach([{ kind: item.kind }]);
  }

  private close(forget = true): void {
    clearTimeout(this.askTimer);
    this.token = undefined;
    if (forget) this.dismissedAt = undefined;
    this.items = [];
    this.element.classList.add('hidden');
    this.element.replaceChildren();
    this.prompt.removeAttribute('aria-activedescendant');
  }

  private render(): void {
    const query = (this.token?.query ?? '').toLowerCase();
    const specials: Item[] = SPECIALS.filter((special) => special.kind.startsWith(query)).map(({ kind }) => ({ kind }));
    this.items = [...specials, ...this.matches];
    this.active = Math.min(this.active, Math.max(0, this.items.length - 1));
    this.element.classList.toggle('hidden', this.items.length === 0);
    this.element.replaceChildren(...this.items.map((item, index) => this.option(item, index)));
    const active = this.items.length > 0 ? `context-option-${this.active}` : undefined;
    if (active) this.prompt.setAttribute('aria-activedescendant', active);
    else this.prompt.removeAttribute('aria-activedescendant');
    this.element.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private option(item: Item, index: number): HTMLElement {
    const special = SPECIALS.find((entry) => entry.kind === item.kind);
    const path = 'path' in item ? item.path : undefined;
    const slash = path?.lastIndexOf('/') ?? -1;
    const label = special ? `@${special.kind}` : path === undefined ? '' : path.slice(slash + 1);
    const detail = special ? special.detail : slash >= 0 ? (path ?? '').slice(0, slash) : '';
    const icon = special ? special.icon : item.kind === 'folder' ? 'folder' : 'file';
    const option = h(
      'div',
      {
        class: `context-option${index === this.active ? ' active' : ''}`,
        attrs: {
          role: 'option',
          id: `context-option-${index}`,
          'aria-selected': String(index === this.active),
          title: path ?? `@${item.kind}`,
          'data-kind': item.kind,
        },
        on: { click: () => this.choose(item) },
      },
      h('span', { class: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'context-label' }, item.kind === 'folder' ? `${label}/` : label),
      detail ? h('span', { class: 'context-detail' }, detail) : undefined,
    );
    return option;
  }
}
