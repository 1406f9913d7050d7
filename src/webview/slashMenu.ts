import type { ViewMessage } from '../protocol/chatView';
import type { SlashEntry } from '../protocol/slashMenu';
import { h } from './dom';
import { t } from './l10n';

// The composer's `/` menu: a `/` at the start of the prompt opens the slash commands the host lists (Loopwire's
// own, then the workspace's prompt files, then the skills, each with its description), filtered by what
// follows the `/` as it is typed; a `$` at the start of a word opens the skills alone. Arrows move, Enter or
// Tab puts the command in the prompt (`/name `, `$name `) for its arguments, Escape closes; a click picks too.
// The list is asked for each time the menu opens (`slashCommands`): a prompt file added meanwhile shows.
// What a sent command does is the host's (src/extension/chat/composer/chatSlash.ts).

/** What the menu completes: a command at the prompt's start, or a skill's `$name` anywhere. */
type Token = { mode: 'slash' | 'skill'; start: number; query: string };

const ICONS: Record<SlashEntry['kind'], string> = { builtin: 'zap', prompt: 'note', skill: 'book' };

/** The token that ends at the caret, if any: `/word` as the prompt's first word, or `$word`. */
export function slashTokenAt(text: string, caret: number): Token | undefined {
  const before = text.slice(0, caret);
  const slash = /^(\s*)\/([\w.-]*)$/.exec(before);
  if (slash) return { mode: 'slash', start: (slash[1] ?? '').length, query: slash[2] ?? '' };
  const skill = /(?:^|\s)\$([\w.-]*)$/.exec(before);
  if (!skill) return undefined;
  return { mode: 'skill', start: caret - (skill[1] ?? '').length - 1, query: skill[1] ?? '' };
}

/** The entries for `query`: those whose name starts with it first, then those that hold it, in the host's order. */
export function filterEntries(entries: readonly SlashEntry[], query: string): SlashEntry[] {
  const lower = query.toLowerCase();
  const starts = entries.filter((entry) => entry.name.toLowerCase().startsWith(lower));
  const holds = entries.filter((entry) => !starts.includes(entry) && entry.name.toLowerCase().includes(lower));
  return [...starts, ...holds];
}

export class SlashMenu {
  readonly element = h('div', {
    class: 'context-picker slash-menu hidden',
    attrs: { role: 'listbox', id: 'slash-menu', 'aria-label': t('Slash commands') },
  });
  private entries: SlashEntry[] = [];
  private token: Token | undefined;
  private items: SlashEntry[] = [];
  private active = 0;
  /** Where the token was that Escape closed the menu for: it stays closed until another. */
  private dismissedAt: number | undefined;

  constructor(
    private readonly prompt: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
  ) {
    // Registered before the page's own Enter (send) and Escape (stop): while the menu is open, they are its.
    prompt.addEventListener('keydown', (event) => this.key(event));
    prompt.addEventListener('input', () => this.update());
    prompt.addEventListener('click', () => this.update());
    prompt.addEventListener('blur', () => this.close());
    // A click on an option must not take the focus from the prompt first (that would close the menu).
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return this.token !== undefined && this.items.length > 0;
  }

  /** The host's commands (answering `slashCommands`): shown at once where the menu is open. */
  show(entries: readonly SlashEntry[]): void {
    this.entries = [...entries];
    if (this.token) this.render();
  }

  private update(): void {
    const token = slashTokenAt(this.prompt.value, this.prompt.selectionStart);
    if (token && token.start === this.dismissedAt) return this.close(false);
    this.dismissedAt = undefined;
    if (!token) return this.close();
    const opening = this.token === undefined;
    const changed = opening || token.query !== this.token?.query || token.mode !== this.token.mode;
    this.token = token;
    if (opening) this.post({ type: 'slashCommands' });
    if (!changed) return;
    this.active = 0;
    this.render();
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
    if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      handled();
      const item = this.items[this.active];
      if (item) this.choose(item);
    }
  }

  /** The token becomes the command (or `$skill`) and a space, the caret after it, ready for its arguments. */
  private choose(item: SlashEntry): void {
    const token = this.token;
    if (!token) return;
    const { value } = this.prompt;
    const end = token.start + 1 + token.query.length;
    const rest = value.slice(end).replace(/^ /, '');
    const word = `${token.mode === 'slash' ? '/' : '$'}${item.name} `;
    this.prompt.value = value.slice(0, token.start) + word + rest;
    const caret = token.start + word.length;
    this.prompt.setSelectionRange(caret, caret);
    this.close();
    // Closed for this word: the page saves the draft and fits the box, and the menu does not open again on it.
    this.dismissedAt = undefined;
    this.prompt.dispatchEvent(new Event('input'));
  }

  private close(forget = true): void {
    const wasOpen = this.token !== undefined;
    this.token = undefined;
    if (forget) this.dismissedAt = undefined;
    this.items = [];
    this.element.classList.add('hidden');
    this.element.replaceChildren();
    if (!wasOpen) return;
    this.prompt.removeAttribute('aria-activedescendant');
    // The `@` picker's list is the one the prompt names otherwise (contextPicker.ts).
    this.prompt.setAttribute('aria-controls', 'context-picker');
  }

  private render(): void {
    const token = this.token;
    if (!token) return;
    const offered = token.mode === 'skill' ? this.entries.filter((entry) => entry.kind === 'skill') : this.entries;
    this.items = filterEntries(offered, token.query);
    this.active = Math.min(this.active, Math.max(0, this.items.length - 1));
    this.element.classList.toggle('hidden', this.items.length === 0);
    this.element.replaceChildren(...this.items.map((item, index) => this.option(item, index, token.mode)));
    if (this.items.length > 0) {
      this.prompt.setAttribute('aria-controls', 'slash-menu');
      this.prompt.setAttribute('aria-activedescendant', `slash-option-${this.active}`);
    } else this.prompt.removeAttribute('aria-activedescendant');
    this.element.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private option(item: SlashEntry, index: number, mode: Token['mode']): HTMLElement {
    const name = `${mode === 'slash' ? '/' : '$'}${item.name}`;
    const detail = item.description || t('(no description)');
    return h(
      'div',
      {
        class: `context-option slash-option${index === this.active ? ' active' : ''}`,
        attrs: {
          role: 'option',
          id: `slash-option-${index}`,
          'aria-selected': String(index === this.active),
          title: item.hint ? `${name} ${item.hint} — ${detail}` : `${name} — ${detail}`,
          'data-kind': item.kind,
          'data-name': item.name,
        },
        on: { click: () => this.choose(item) },
      },
      h('span', { class: `codicon codicon-${ICONS[item.kind]}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'context-label' }, name),
      item.hint ? h('span', { class: 'context-detail slash-hint' }, item.hint) : undefined,
      h('span', { class: 'context-detail' }, detail),
    );
  }
}
