import type { ViewMessage } from '../protocol/chatView';
import type { SlashEntry } from '../protocol/slashMenu';
import { h } from './dom';
import { t } from './l10n';
import { type OptionView, PromptListbox } from './promptListbox';

// The composer's `/` menu: a `/` at the start of the prompt opens the slash commands the host lists (Loopwire's
// own, then the workspace's prompt files, then the skills, each with its description), filtered by what
// follows the `/` as it is typed; a `$` at the start of a word opens the skills alone. Picking (the shared
// listbox's keys: promptListbox.ts) puts the command in the prompt (`/name `, `$name `) for its arguments.
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
  private readonly list: PromptListbox<SlashEntry, Token>;
  private entries: SlashEntry[] = [];

  constructor(
    prompt: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
  ) {
    this.list = new PromptListbox<SlashEntry, Token>(prompt, {
      id: 'slash-menu',
      optionId: 'slash-option',
      label: t('Slash commands'),
      listClass: 'context-picker slash-menu',
      optionClass: 'context-option slash-option',
      // The `@` picker's list is the one the prompt names otherwise (contextPicker.ts).
      rest: 'context-picker',
      tokenAt: slashTokenAt,
      items: (token) => this.items(token),
      view: optionView,
      // The token becomes the command (or `$skill`) and a space, the caret after it, ready for its arguments.
      choose: (item, token) => this.list.replace(token, `${sigil(token)}${item.name} `),
      opened: () => this.post({ type: 'slashCommands' }),
    });
  }

  get element(): HTMLDivElement {
    return this.list.element;
  }

  /** The host's commands (answering `slashCommands`): shown at once where the menu is open. */
  show(entries: readonly SlashEntry[]): void {
    this.entries = [...entries];
    this.list.refresh();
  }

  private items(token: Token): SlashEntry[] {
    const offered = token.mode === 'skill' ? this.entries.filter((entry) => entry.kind === 'skill') : this.entries;
    return filterEntries(offered, token.query);
  }
}

const sigil = (token: Token): string => (token.mode === 'slash' ? '/' : '$');

function optionView(item: SlashEntry, token: Token): OptionView {
  const name = `${sigil(token)}${item.name}`;
  const detail = item.description || t('(no description)');
  return {
    icon: ICONS[item.kind],
    title: item.hint ? `${name} ${item.hint} — ${detail}` : `${name} — ${detail}`,
    data: { kind: item.kind, name: item.name },
    parts: [
      h('span', { class: 'context-label' }, name),
      item.hint ? h('span', { class: 'context-detail slash-hint' }, item.hint) : undefined,
      h('span', { class: 'context-detail' }, detail),
    ],
  };
}
