import type { Attachment } from '../protocol/attachments';
import type { ContextMatch, ViewMessage } from '../protocol/chatView';
import { h } from './dom';
import { t } from './l10n';
import { type OptionView, PromptListbox, type PromptToken } from './promptListbox';

// The `@` picker: typing `@` at the start of a word in the prompt box opens a list under the caret's word —
// `@selection`, `@problems`, `@terminal`, `@changes`, then the workspace's files and folders that match what
// follows the `@` (the host searches: `findContext`, answered by `contextMatches`). The keys and roles are the
// shared listbox's (promptListbox.ts). Picking takes the `@word` out of the prompt and adds a chip.

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
function tokenAt(text: string, caret: number): PromptToken | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - match[0].length + (match[0].startsWith('@') ? 0 : 1), query: match[1] ?? '' };
}

export class ContextPicker {
  private readonly list: PromptListbox<Item, PromptToken>;
  private matches: ContextMatch[] = [];
  private askTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    prompt: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
    private readonly attach: (attachments: Attachment[]) => void,
  ) {
    this.list = new PromptListbox<Item, PromptToken>(prompt, {
      id: 'context-picker',
      optionId: 'context-option',
      label: t('Attach to the prompt'),
      listClass: 'context-picker',
      optionClass: 'context-option',
      rest: 'context-picker',
      tokenAt,
      items: (token) => this.items(token.query),
      view: (item) => optionView(item),
      choose: (item, token) => this.choose(item, token),
      changed: (token) => this.ask(token.query),
      closed: () => clearTimeout(this.askTimer),
    });
  }

  get element(): HTMLDivElement {
    return this.list.element;
  }

  /** The host's files and folders for `query`: shown if it is still what follows the `@`. */
  showMatches(query: string, matches: readonly ContextMatch[]): void {
    if (this.list.token?.query !== query) return;
    this.matches = [...matches];
    this.list.refresh();
  }

  /** What is known to match already stays while the host is asked, after a pause in typing. */
  private ask(query: string): void {
    this.matches = this.matches.filter((match) => match.path.toLowerCase().includes(query.toLowerCase()));
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => this.post({ type: 'findContext', query }), ASK_AFTER_MS);
  }

  private items(query: string): Item[] {
    const lower = query.toLowerCase();
    const specials: Item[] = SPECIALS.filter((special) => special.kind.startsWith(lower)).map(({ kind }) => ({ kind }));
    return [...specials, ...this.matches];
  }

  /** The `@word` goes, what was typed around it stays, and a chip comes (the selection's from the host). */
  private choose(item: Item, token: PromptToken): void {
    this.list.replace(token, '');
    if (item.kind === 'selection') this.post({ type: 'attachSelection' });
    else if (item.kind === 'file' || item.kind === 'folder') this.attach([{ kind: item.kind, path: item.path }]);
    else this.attach([{ kind: item.kind }]);
  }
}

function optionView(item: Item): OptionView {
  const special = SPECIALS.find((entry) => entry.kind === item.kind);
  const path = 'path' in item ? item.path : undefined;
  const slash = path?.lastIndexOf('/') ?? -1;
  const label = special ? `@${special.kind}` : path === undefined ? '' : path.slice(slash + 1);
  const detail = special ? special.detail : slash >= 0 ? (path ?? '').slice(0, slash) : '';
  return {
    icon: special ? special.icon : item.kind === 'folder' ? 'folder' : 'file',
    title: path ?? `@${item.kind}`,
    data: { kind: item.kind },
    parts: [
      h('span', { class: 'context-label' }, item.kind === 'folder' ? `${label}/` : label),
      detail ? h('span', { class: 'context-detail' }, detail) : undefined,
    ],
  };
}
