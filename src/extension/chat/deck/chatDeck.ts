import { t } from '@vscode/l10n';
import { ViewMessage } from '../../../protocol/chatView';
import type { ChatActivity, ChatNamed, TaskEnd, WaitingCall } from '../chatActivity';
import { ChatController, type ChatHost, type PostToPage } from '../chatController';
import type { InlineEntry } from '../../../protocol/chatView';
import type { BackgroundCommands, SessionEvent } from '../../../tools';
import { ParallelLimit } from './parallelLimit';
import { tabOf } from './chatTabs';
import { chatCommands, withOwnCommands } from './chatCommands';

// The window's open chats (issue 49): each its own ChatController (conversation, queue, approvals, review),
// running on its own `stream_id` lane of the window's one socket — the first on the default lane, as a lone
// chat always ran — at most `loopwire.chat.maxParallel` tasks at once. The panel shows one; the others stream
// on into their models, and a switch sends the page the whole state of the one it shows (a snapshot, as after
// a reload). Their approvals and ends reach the window's notifications and badge, naming the chat. Each chat
// has its own commands running in the background (chatCommands.ts), and its inline edits' entries stay where
// they were posted.

export interface DeckHost {
  /**
   * The window's port for a chat on `lane` (undefined: the default lane, the first chat's); its agents keep
   * their commands running in the background in `commands`, the chat's own.
   */
  host(lane: string | undefined, commands: BackgroundCommands): ChatHost;
  /** A chat's command went on in the background, or ended (the window's log). */
  commandEvent?(chat: string, event: SessionEvent): void;
  /** How many chats may run a task at once. */
  maxParallel(): number;
  /** A chat was opened (the window shows its review in the editor). */
  opened?(chat: ChatController): void;
  /** The window's notifications and badge. */
  activity?: ChatActivity | undefined;
}

interface OpenChat {
  id: string;
  lane: string | undefined;
  controller: ChatController;
  /** Its commands running in the background. */
  commands: BackgroundCommands;
  waiting: readonly WaitingCall[];
  /** Its task waits for a free slot. */
  queued: boolean;
  ended: TaskEnd['status'] | undefined;
}

/** How long the list may lag the chats while they stream (it is re-sent at most this often). */
const LIST_INTERVAL_MS = 150;

export class ChatDeck {
  private readonly chats: OpenChat[] = [];
  /** Chats closed while their task was ending: disposed once it has. */
  private readonly closing = new Map<string, ChatController>();
  private shownId: string;
  private post: PostToPage | undefined;
  private readonly limit: ParallelLimit;
  private opened = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The page was last sent a list of several chats (so that one chat left clears it). */
  private listed = false;
  /**
   * Each inline edit's entry, by the id the deck gave it: its chat, its id there and the conversation it is in
   * (ids repeat across chats, and in a chat started over).
   */
  private readonly inlines = new Map<string, { chat: string; entry: string; session: string | undefined }>();
  private inlined = 0;
  /** Settles once the commands of the chats closed so far are gone. */
  private stopping: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: DeckHost) {
    this.limit = new ParallelLimit(() => host.maxParallel());
    // The first finds the chat the panel showed before a reload; the others start empty.
    this.shownId = this.open(true).id;
  }

  /** The chat the panel shows. */
  get shown(): ChatController {
    return this.shownChat.controller;
  }

  /** Every open chat, in the order opened. */
  get all(): readonly ChatController[] {
    return this.chats.map((chat) => chat.controller);
  }

  /** The page is there (`post`) or gone: the shown chat posts to it, the others keep their state until shown. */
  attach(post: PostToPage | undefined): void {
    this.post = post;
    for (const chat of this.chats)
      chat.controller.attach(
        post === undefined ? undefined : chat.id === this.shownId ? this.through(post) : this.hidden,
      );
  }

  /** A message from the page: the list's own, New Chat and History (which may open a chat beside), or the shown chat's. */
  async receive(raw: unknown): Promise<void> {
    const parsed = ViewMessage.safeParse(raw);
    const message = parsed.success ? parsed.data : undefined;
    if (message?.type === 'switchChat') return this.show(message.id);
    if (message?.type === 'closeChat') return this.close(message.id);
    if (message?.type === 'newChat') return this.newChat();
    if (message?.type === 'openSession') {
      const open = this.chats.find((chat) => chat.controller.sessionId === message.id);
      if (open) return this.show(open.id);
      if (this.keepsOn(this.shownChat)) this.show(this.open(false).id);
    }
    await this.shown.receive(raw);
    if (message?.type === 'ready') this.publish();
  }

  /**
   * New Chat: the shown chat starts over, as a lone chat always did, unless a task of it runs or waits: then a
   * new chat opens beside it and is shown, and the running one goes on.
   */
  newChat(): void {
    const shown = this.shownChat;
    if (!this.keepsOn(shown)) {
      shown.ended = undefined;
      shown.controller.newChat();
      return this.publish();
    }
    this.show(this.open(false).id);
    this.shown.send({ type: 'focus' });
  }

  /** Shows chat `id` (a click in the list, a notification's Show); nothing stops. */
  show(id: string): void {
    const chat = this.chats.find((open) => open.id === id);
    if (!chat || chat.id === this.shownId) return;
    this.shownId = chat.id;
    this.attach(this.post);
    chat.controller.reshow();
    // The list above the composer is the shown chat's own commands (an empty one clears the other's).
    void chat.controller.receive({ type: 'watchCommands' });
    this.waitingChanged();
    this.publish();
  }

  /** Closes chat `id` (its task stopped, its transcript kept for History); the last chat stays open. */
  close(id: string): void {
    const at = this.chats.findIndex((open) => open.id === id);
    const chat = this.chats[at];
    if (!chat || this.chats.length === 1) return;
    this.chats.splice(at, 1);
    chat.controller.stop();
    this.stopCommands(chat);
    // Its last snapshot once its task has ended (stopped, not cut short: History reopens it without Resume).
    if (chat.controller.busy) this.closing.set(chat.id, chat.controller);
    else chat.controller.dispose();
    if (chat.id === this.shownId) {
      const next = this.chats[Math.min(at, this.chats.length - 1)];
      if (next) {
        this.shownId = '';
        this.show(next.id);
      }
    }
    this.waitingChanged();
    this.publish();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const chat of this.chats) this.stopCommands(chat);
    for (const chat of this.chats) chat.controller.dispose();
    for (const controller of this.closing.values()) controller.dispose();
  }

  /**
   * An inline edit ended: its entry goes to the chat shown now, and stays there (inlineEntries.ts). The id
   * returned finds that chat again for `updateInline`, whichever chat is shown by then.
   */
  addInline(note: Omit<InlineEntry, 'id'>): string {
    const chat = this.shownChat;
    const entry = chat.controller.inline.add(note);
    const id = `${chat.id}/${++this.inlined}`;
    this.inlines.set(id, { chat: chat.id, entry: entry.id, session: chat.controller.sessionId });
    return id;
  }

  /**
   * The editor's undo or redo changed that edit's outcome: the entry says it in the chat it was posted in, while
   * that chat still shows the conversation it went to (started over, the chat may hold another entry of its id).
   */
  updateInline(id: string, note: Omit<InlineEntry, 'id'>): void {
    const posted = this.inlines.get(id);
    const controller =
      posted && (this.chats.find((chat) => chat.id === posted.chat)?.controller ?? this.closing.get(posted.chat));
    if (posted && controller && controller.sessionId === posted.session) controller.inline.update(posted.entry, note);
  }

  /** Settles once every chat's last snapshot is on disk and the commands of the chats closed are gone. */
  async closed(): Promise<void> {
    await this.stopping;
    await Promise.all(
      [...this.chats.map((chat) => chat.controller), ...this.closing.values()].map((chat) => chat.closed()),
    );
  }

  private get shownChat(): OpenChat {
    const chat = this.chats.find((open) => open.id === this.shownId) ?? this.chats[0];
    if (!chat) throw new Error('the chat deck has no chat');
    return chat;
  }

  /** Stops what `chat` left running in the background (it closes, or the window does). */
  private stopCommands(chat: OpenChat): void {
    this.stopping = Promise.all([this.stopping, chat.commands.stopAll()]);
  }

  /** A task of `chat` runs or waits to: New Chat and History leave it running and open another. */
  private keepsOn(chat: OpenChat): boolean {
    return chat.controller.busy || chat.controller.queue.size > 0;
  }

  private open(restore: boolean): OpenChat {
    const id = `chat-${++this.opened}`;
    // The default lane is the first chat's (its warm-up chains there); the others get a lane each.
    const lane = this.chats.some((chat) => chat.lane === undefined) ? id : undefined;
    const commands = chatCommands(id, this.host.commandEvent?.bind(this.host));
    const base = this.host.host(lane, commands);
    const chat = { id, lane, commands, waiting: [], queued: false, ended: undefined } as Omit<OpenChat, 'controller'>;
    const host: ChatHost = {
      ...base,
      ...withOwnCommands(base, commands),
      enqueue: (run, signal) =>
        this.limit.run(
          () => {
            this.queuedAs(chat, false);
            return base.enqueue(run, signal);
          },
          signal,
          () => this.waits(full),
        ),
      newChat: () => this.newChat(),
      // The window's context keys (Stop, Open Transcript) follow the chat shown.
      changed: (state) => {
        if (chat.id === this.shownId) base.changed?.(state);
        // Not `full`: a chat reopened after a reload says so from within its constructor.
        const closing = state.busy ? undefined : this.closing.get(chat.id);
        if (closing && this.closing.delete(chat.id)) setImmediate(() => closing.dispose());
        this.soon();
      },
      activity: {
        waiting: (calls) => {
          full.waiting = calls;
          this.waitingChanged();
          this.soon();
        },
        ended: (end) => {
          full.ended = end.status;
          this.host.activity?.ended({ ...end, ...this.named(full) });
          this.soon();
        },
      },
    };
    const full: OpenChat = { ...chat, controller: new ChatController({ ...host, beside: !restore }) };
    this.chats.push(full);
    if (this.post) full.controller.attach(this.hidden);
    this.host.opened?.(full.controller);
    return full;
  }

  /** `chat`'s task waits for a slot: the chat says so, and the list shows it queued. */
  private waits(chat: OpenChat): void {
    this.queuedAs(chat, true);
    const max = this.host.maxParallel();
    chat.controller.model.notice(
      'info',
      t(
        'Waiting for a free slot: {0} chats run at once (loopwire.chat.maxParallel). This task starts when one of them ends.',
        max,
      ),
    );
  }

  private queuedAs(chat: Pick<OpenChat, 'queued'>, queued: boolean): void {
    chat.queued = queued;
    this.soon();
  }

  /** The chat a notification names, where there are several (`hidden` when the panel shows another). */
  private named(chat: OpenChat): { chat?: ChatNamed } {
    if (this.chats.length < 2) return {};
    const title = tabOf(this.factsOf(chat)).title || t('New chat');
    return { chat: { id: chat.id, title, hidden: chat.id !== this.shownId } };
  }

  /** Every chat's calls waiting for approval, to the window's badge and notifications. */
  private waitingChanged(): void {
    const calls = this.chats.flatMap((chat) => chat.waiting.map((call) => ({ ...call, ...this.named(chat) })));
    this.host.activity?.waiting(calls);
  }

  private factsOf(chat: OpenChat) {
    const { controller } = chat;
    return {
      id: chat.id,
      entries: controller.model.all,
      busy: controller.busy,
      queued: chat.queued,
      waiting: chat.waiting.length,
      ended: chat.ended,
    };
  }

  /** The list goes to the page soon (coalesced while chats stream). */
  private soon(): void {
    if (this.timer || (this.chats.length < 2 && !this.listed)) return;
    this.timer = setTimeout(() => this.publish(), LIST_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** The list, now: empty while a single chat is open (the panel shows no list then). */
  private publish(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.post) return;
    this.listed = this.chats.length > 1;
    const chats = this.listed ? this.chats.map((chat) => tabOf(this.factsOf(chat))) : [];
    void this.post({ type: 'chats', chats, shown: this.shownId });
  }

  /** A hidden chat's post: not delivered (its model keeps everything; a switch sends the whole state). */
  private readonly hidden: PostToPage = () => {
    this.soon();
    return false;
  };

  /** The shown chat's posts, each also a cue for the list (its last line may have changed). */
  private through(post: PostToPage): PostToPage {
    return (message) => {
      this.soon();
      return post(message);
    };
  }
}
