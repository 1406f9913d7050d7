import type { ViewMessage } from '../protocol/chatView';
import type { ChatState, ChatTab } from '../protocol/chatTabs';
import { button, h } from './dom';
import { t } from './l10n';

// The window's open chats, at the top of the panel while more than one is open (issue 49): one compact row
// each — its state's icon, its title, its last line — the shown one marked; a click shows that chat (none
// stops), × closes one (its task stopped, its transcript kept for History). The host sends the whole list at
// each change (chatDeck.ts); with one chat open it sends none and the list hides.

const STATES: Record<ChatState, { icon: string; label: () => string }> = {
  new: { icon: 'circle-large-outline', label: () => t('new') },
  running: { icon: 'loading codicon-modifier-spin', label: () => t('running') },
  queued: { icon: 'clock', label: () => t('waiting for a free slot') },
  waiting: { icon: 'bell-dot', label: () => t('waiting for you') },
  done: { icon: 'pass', label: () => t('done') },
  failed: { icon: 'error', label: () => t('failed') },
  stopped: { icon: 'debug-stop', label: () => t('stopped') },
};

export class ChatList {
  readonly element = h('nav', { class: 'chat-list hidden', attrs: { 'aria-label': t('Open chats') } });

  constructor(private readonly post: (message: ViewMessage) => void) {}

  show(chats: readonly ChatTab[], shown: string): void {
    this.element.replaceChildren(...chats.map((chat) => this.row(chat, chat.id === shown)));
    this.element.classList.toggle('hidden', chats.length < 2);
  }

  private row(chat: ChatTab, shown: boolean): HTMLElement {
    const state = STATES[chat.state];
    const title = chat.title || t('New chat');
    const said = `${title} — ${state.label()}${chat.last ? `: ${chat.last}` : ''}`;
    // The name is the row's own text (what is seen is what is read out), the state in words between.
    const open = h(
      'button',
      {
        class: 'chat-tab-open',
        attrs: { type: 'button', title: said, ...(shown ? { 'aria-current': 'true' } : {}) },
        on: { click: () => this.post({ type: 'switchChat', id: chat.id }) },
      },
      h('span', { class: `codicon codicon-${state.icon} chat-state`, attrs: { 'aria-hidden': 'true' } }),
      h(
        'span',
        { class: 'chat-tab-text' },
        h('span', { class: 'chat-tab-title' }, title),
        h('span', { class: 'visually-hidden' }, chat.last ? ` — ${state.label()}: ` : ' — '),
        h('span', { class: 'chat-tab-last' }, chat.last || state.label()),
      ),
    );
    const close = button(
      chat.state === 'running' || chat.state === 'waiting' || chat.state === 'queued'
        ? t('Stop and close {0}', title)
        : t('Close {0}', title),
      () => this.post({ type: 'closeChat', id: chat.id }),
      { icon: 'close', showLabel: false, kind: 'icon' },
    );
    return h('div', { class: `chat-tab ${chat.state}${shown ? ' shown' : ''}` }, open, close);
  }
}
