import { h } from './dom';

// A list the prompt box completes from, keyboard-first: it opens on a token that ends at the caret (`@word`,
// `/word`, `$word`) and the focus stays in the prompt. A textarea is a textbox, which ARIA gives no
// aria-expanded (nor may it take the combobox role): the list is tied to it by aria-controls, and its active
// option by aria-activedescendant, which a textbox allows. Up and Down move round the list, Enter or Tab picks,
// Escape closes it for that token and leaves the text; a click picks too. What a token is, what it lists and
// what picking does are the owner's (contextPicker.ts, slashMenu.ts).

/** A token ending at the caret: where its sigil stands, what follows it, and which kind where a list has two. */
export interface PromptToken {
  start: number;
  query: string;
  mode?: string;
}

/** How one item shows: after its icon, the owner's parts; its tooltip; its data-* attributes (for tests). */
export interface OptionView {
  icon: string;
  title: string;
  data: Record<string, string>;
  parts: (HTMLElement | undefined)[];
}

export interface ListboxParts<T, Token extends PromptToken> {
  /** The listbox's id; its options are `${optionId}-N`. */
  id: string;
  optionId: string;
  label: string;
  listClass: string;
  optionClass: string;
  /** The list the prompt names (aria-controls) while none shows. */
  rest: string;
  tokenAt(text: string, caret: number): Token | undefined;
  items(token: Token): T[];
  view(item: T, token: Token): OptionView;
  /** Picks: the owner puts what it wants in the token's place (replace()) and does the rest. */
  choose(item: T, token: Token): void;
  /** A token appeared where there was none. */
  opened?(token: Token): void;
  /** The token is new or its text changed: before the list is drawn again. */
  changed?(token: Token): void;
  closed?(): void;
}

export class PromptListbox<T, Token extends PromptToken> {
  readonly element: HTMLDivElement;
  private current: Token | undefined;
  private items: T[] = [];
  private active = 0;
  /** Where the token was that Escape closed the list for: it stays closed until another. */
  private dismissedAt: number | undefined;

  constructor(
    private readonly prompt: HTMLTextAreaElement,
    private readonly parts: ListboxParts<T, Token>,
  ) {
    this.element = h('div', {
      class: `${parts.listClass} hidden`,
      attrs: { role: 'listbox', id: parts.id, 'aria-label': parts.label },
    });
    prompt.setAttribute('aria-autocomplete', 'list');
    prompt.setAttribute('aria-controls', parts.rest);
    // Registered before the page's own Enter (send) and Escape (stop): while the list is open, they are its.
    prompt.addEventListener('keydown', (event) => this.key(event));
    prompt.addEventListener('input', () => this.update());
    prompt.addEventListener('click', () => this.update());
    prompt.addEventListener('blur', () => this.close());
    // A click on an option must not take the focus from the prompt first (that would close the list).
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
  }

  /** The token the list is open for, if it is. */
  get token(): Token | undefined {
    return this.current;
  }

  /** Draws the list again where it is open: its items came or changed. */
  refresh(): void {
    if (this.current) this.render();
  }

  /** Puts `word` where the token was, what followed it kept, and the caret after it; the list closes. */
  replace(token: Token, word: string): void {
    const { value } = this.prompt;
    const rest = value.slice(token.start + 1 + token.query.length).replace(/^ /, '');
    this.prompt.value = value.slice(0, token.start) + word + rest;
    const caret = token.start + word.length;
    this.prompt.setSelectionRange(caret, caret);
    this.close();
    // The page saves the draft and fits the box; the lists look again (none opens on what was put).
    this.prompt.dispatchEvent(new Event('input'));
  }

  private update(): void {
    const token = this.parts.tokenAt(this.prompt.value, this.prompt.selectionStart);
    if (token && token.start === this.dismissedAt) return this.close(false);
    this.dismissedAt = undefined;
    if (!token) return this.close();
    const before = this.current;
    this.current = token;
    if (!before) this.parts.opened?.(token);
    const same = before?.start === token.start && before.query === token.query && before.mode === token.mode;
    if (same) return;
    this.active = 0;
    this.parts.changed?.(token);
    this.render();
  }

  private key(event: KeyboardEvent): void {
    const token = this.current;
    if (!token || event.isComposing) return;
    const handled = (): void => {
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    if (event.key === 'Escape') {
      handled();
      this.dismissedAt = token.start;
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
      if (item !== undefined) this.parts.choose(item, token);
    }
  }

  private click(item: T): void {
    if (this.current) this.parts.choose(item, this.current);
  }

  private close(forget = true): void {
    const wasOpen = this.current !== undefined;
    this.parts.closed?.();
    this.current = undefined;
    if (forget) this.dismissedAt = undefined;
    this.items = [];
    this.element.classList.add('hidden');
    this.element.replaceChildren();
    if (!wasOpen) return;
    this.prompt.removeAttribute('aria-activedescendant');
    this.prompt.setAttribute('aria-controls', this.parts.rest);
  }

  private render(): void {
    const token = this.current;
    if (!token) return;
    this.items = this.parts.items(token);
    this.active = Math.min(this.active, Math.max(0, this.items.length - 1));
    this.element.classList.toggle('hidden', this.items.length === 0);
    this.element.replaceChildren(...this.items.map((item, index) => this.option(item, index, token)));
    if (this.items.length > 0) {
      this.prompt.setAttribute('aria-controls', this.parts.id);
      this.prompt.setAttribute('aria-activedescendant', `${this.parts.optionId}-${this.active}`);
    } else this.prompt.removeAttribute('aria-activedescendant');
    this.element.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private option(item: T, index: number, token: Token): HTMLElement {
    const view = this.parts.view(item, token);
    const active = index === this.active;
    const data = Object.entries(view.data).map(([name, value]): [string, string] => [`data-${name}`, value]);
    return h(
      'div',
      {
        class: `${this.parts.optionClass}${active ? ' active' : ''}`,
        attrs: {
          role: 'option',
          id: `${this.parts.optionId}-${index}`,
          'aria-selected': String(active),
          title: view.title,
          ...Object.fromEntries(data),
        },
        on: { click: () => this.click(item) },
      },
      h('span', { class: `codicon codicon-${view.icon}`, attrs: { 'aria-hidden': 'true' } }),
      ...view.parts,
    );
  }
}
