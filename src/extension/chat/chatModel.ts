import type { AgentEvent, ApprovalMode } from '../../agent';
import { t } from '@vscode/l10n';
import type { Attachment } from '../../protocol/attachments';
import type {
  ApprovalAsk,
  BackendInfo,
  Banner,
  ChatEntry,
  ContextMeter,
  HostMessage,
  InlineEntry,
  ToolEntry,
} from '../../protocol/chatView';
import { BUILTIN_TOOLS, type ToolRegistry } from '../../tools';
import { type ChatSurface, eventRoutes, routeEvent } from './chatEventRoutes';
import { ChatPlan } from './entries/chatPlan';
import { compactionLine } from './entries/compactionLine';
import type { ReadText } from './entries/liveDiff';
import { NativeSteerLines } from './entries/steerLines';
import { stopBanner, stopLine } from './entries/stopLine';
import { SubagentCards } from './entries/subagentEntries';
import { type CardBoard, ToolCards } from './entries/toolCards';

// The conversation as the panel shows it, built from the agent's events: the host keeps it (a hidden panel
// or a reloaded window asks for it again) and sends the webview only what changed — a text delta per token,
// a tool card in full when it changes. Plain Node: tested without VS Code.

/** Entries a `state` or an `older` page carries; the webview pages the rest in on demand. */
export const PAGE_SIZE = 60;

export class ChatModel {
  private entries: ChatEntry[] = [];
  private readonly byId = new Map<string, ChatEntry>();
  /** The tool calls' cards, with their live diffs. */
  private readonly cards: ToolCards;
  /** The subagents' events, nested in the spawn_agent cards that started them (their calls found there). */
  readonly subagents: SubagentCards;
  private sequence = 0;
  /** The lines of steers committed natively in the turn under way: they go if the turn is not kept. */
  private readonly nativeSteers = new NativeSteerLines();
  banner: Banner | null = null;
  /** The tools of the agent whose events come: how a call summarises and whether it previews as a diff. */
  tools: ToolRegistry = BUILTIN_TOOLS;
  /** The token meter: the context after the last turn (or compaction), of the model's window. */
  context: ContextMeter | undefined;
  /** The task's plan, the checklist above the composer. */
  readonly plan: ChatPlan;
  /** Each of the agent's events to its handler (chatEventRoutes.ts). */
  private readonly routes = eventRoutes(this.surface());
  /** The approval mode in force (set by the controller): a task answered in plan mode offers Implement. */
  approvalMode: (() => ApprovalMode) | undefined;

  constructor(
    private readonly post: (message: HostMessage) => void,
    readText: ReadText,
    diffIntervalMs = 50,
  ) {
    const board: CardBoard = {
      entries: () => this.entries,
      get: (id) => this.byId.get(id),
      add: (entry) => this.add(entry),
      replace: (entry) => this.replace(entry),
      adopt: (entry) => {
        this.entries.push(entry);
        this.byId.set(entry.id, entry);
      },
      remove: (ids) => this.remove(ids),
    };
    this.cards = new ToolCards(board, () => this.tools, readText, diffIntervalMs);
    this.subagents = new SubagentCards(board, () => this.tools, readText);
    this.plan = new ChatPlan(
      post,
      () => this.tools,
      () => this.approvalMode?.(),
    );
  }

  get all(): readonly ChatEntry[] {
    return this.entries;
  }

  find(id: string): ChatEntry | undefined {
    return this.byId.get(id);
  }

  tool(callId: string): ToolEntry | undefined {
    const entry = this.byId.get(callId);
    return entry?.kind === 'tool' ? entry : undefined;
  }

  /** Starts over with these entries and meter (a new chat, a reopened session). */
  reset(entries: ChatEntry[] = [], context?: ContextMeter): void {
    this.cards.clear();
    this.subagents.clear();
    this.entries = entries;
    this.byId.clear();
    for (const entry of entries) this.byId.set(entry.id, entry);
    this.banner = null;
    this.context = context;
    // Ids made from here on must not meet those of a restored conversation.
    this.sequence = entries.reduce((max, entry) => Math.max(max, Number(/:(\d+)$/.exec(entry.id)?.[1] ?? 0)), 0);
  }

  /** The newest page, for a `state` message. */
  latest(): { entries: ChatEntry[]; hasOlder: boolean } {
    const start = Math.max(0, this.entries.length - PAGE_SIZE);
    return { entries: this.entries.slice(start), hasOlder: start > 0 };
  }

  /** Everything the page shows, from scratch: the newest page, the banner and the meter. */
  state(sessionId: string, running: boolean, backend: BackendInfo | undefined): HostMessage {
    return {
      type: 'state',
      sessionId,
      ...this.latest(),
      running,
      banner: this.banner,
      ...(backend ? { backend } : {}),
      ...(this.context ? { context: this.context } : {}),
      ...(this.plan.current ? { plan: this.plan.current } : {}),
      ...(this.plan.implement ? { implement: true } : {}),
    };
  }

  /** The answers' text from entry `from` on: what a task said, for whoever sent its prompt. */
  answerSince(from: number): string {
    return this.entries
      .slice(from)
      .flatMap((entry) => (entry.kind === 'assistant' ? [entry.text] : []))
      .join('\n\n');
  }

  /** The page just before the entry `before` (the oldest the webview shows). */
  olderThan(before: string): { entries: ChatEntry[]; hasOlder: boolean } {
    const end = this.entries.findIndex((entry) => entry.id === before);
    if (end <= 0) return { entries: [], hasOlder: false };
    const start = Math.max(0, end - PAGE_SIZE);
    return { entries: this.entries.slice(start, end), hasOlder: start > 0 };
  }

  /** A prompt; `queued` while a task before it runs (the page shows it last until it starts). Its id. */
  addUser(text: string, queued = false, attachments: readonly Attachment[] = []): string {
    const id = this.nextId('user');
    this.add({
      kind: 'user',
      id,
      text,
      ...(queued ? { queued } : {}),
      ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
    });
    return id;
  }

  /** A queued prompt's task starts: it moves after everything the tasks before it showed. */
  unqueue(id: string): void {
    const entry = this.byId.get(id);
    if (entry?.kind !== 'user' || !entry.queued) return;
    const { queued: _queued, ...rest } = entry;
    this.remove(new Set([id]));
    this.entries.push(rest);
    this.byId.set(id, rest);
    this.sendState();
  }

  notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.add({ kind: 'notice', id: this.nextId('notice'), level, text });
  }

  /** An inline edit done beside the chat (entries/inlineEntries.ts): its entry, with the id given it. */
  addInline(note: Omit<InlineEntry, 'id'>): InlineEntry {
    const entry: InlineEntry = { ...note, id: this.nextId('inline') };
    this.add(entry);
    return entry;
  }

  /** An inline entry of this chat says another outcome (the editor's undo or redo); false when it is not here. */
  updateInline(entry: InlineEntry): boolean {
    if (this.byId.get(entry.id)?.kind !== 'inline') return false;
    this.replace(entry);
    return true;
  }

  setBanner(banner: Banner | null): void {
    this.banner = banner;
    this.post({ type: 'banner', banner });
  }

  /** Replaces a tool card's fields and sends it. */
  updateTool(callId: string, change: Partial<Omit<ToolEntry, 'kind' | 'id'>>): void {
    const entry = this.tool(callId);
    if (entry) this.replace({ ...entry, ...change });
  }

  /** A call asking for approval, perhaps again (a Resume). */
  asking(callId: string, ask: ApprovalAsk): void {
    if (!this.subagents.asking(callId, ask)) this.cards.asking(callId, ask);
  }

  /** A tool card's approval answered: its status, and its ask gone. */
  answered(callId: string, status: 'running' | 'declined'): void {
    if (!this.subagents.answered(callId, status)) this.cards.answered(callId, status);
  }

  handle(event: AgentEvent): void {
    // A subagent's event goes into its spawn card, never into the conversation (subagentEntries.ts).
    if (this.subagents.handle(event)) return;
    if (event.type !== 'reasoning_delta') this.endThinking();
    this.plan.handle(event);
    routeEvent(this.routes, event);
    this.subagents.own(event);
  }

  /** The chat's handler of each kind of event (chatEventRoutes.ts routes them). */
  private surface(): ChatSurface {
    return {
      thinking: (event) => this.thinking(event.itemId, event.delta),
      text: (event) => this.text(event),
      callDelta: (event) => this.cards.delta(event),
      callStarted: (event) => this.cards.started(event),
      callFinished: (event) => this.cards.finished(event),
      // The server ran it: a card that is already done, with what it did.
      hostedCall: (event) =>
        this.add({
          kind: 'tool',
          id: this.nextId('hosted'),
          turn: event.turn,
          name: event.itemType,
          summary: event.summary,
          status: 'done',
        }),
      discarded: (event) => this.drop(this.nativeSteers.discarded(this.entries, event.turn)),
      message: (event) => this.message(event.text, event.phase),
      steered: (event) => this.steered(event),
      transport: (event) => this.transport(event),
      turnFinished: (event) => this.turnFinished(event),
      compacted: (event) => this.compacted(event),
      done: (event) => this.done(event),
      updateTool: (callId, change) => this.updateTool(callId, change),
    };
  }

  private text(event: Extract<AgentEvent, { type: 'text_delta' }>): void {
    const id = `text:${event.itemId}`;
    const entry = this.byId.get(id);
    if (entry?.kind === 'assistant') {
      entry.text += event.delta;
      this.post({ type: 'text', id, delta: event.delta });
      return;
    }
    const note = event.phase === 'commentary' ? { note: true } : {};
    this.add({ kind: 'assistant', id, text: event.delta, streaming: true, ...note });
  }

  /** Where a steer reached the model: after the outputs of the calls it followed, or in the running response. */
  private steered(event: Extract<AgentEvent, { type: 'steered' }>): void {
    const id = this.nextId('user');
    if (event.how === 'native') this.nativeSteers.committed(id, event.turn);
    this.add({ kind: 'user', id, text: event.text, steered: true });
  }

  private turnFinished(event: Extract<AgentEvent, { type: 'turn_finished' }>): void {
    this.nativeSteers.turnFinished();
    const { contextTokens: tokens, contextWindow: window } = event.metrics;
    if (window !== undefined) this.setContext({ tokens, window });
  }

  dispose(): void {
    this.cards.dispose();
  }

  private nextId(kind: string): string {
    return `${kind}:${++this.sequence}`;
  }

  private add(entry: ChatEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.post({ type: 'entry', entry });
  }

  private replace(entry: ChatEntry): void {
    const index = this.entries.findLastIndex((e) => e.id === entry.id);
    if (index < 0) return this.add(entry);
    this.entries[index] = entry;
    this.byId.set(entry.id, entry);
    this.post({ type: 'entry', entry });
  }

  private remove(ids: ReadonlySet<string>): void {
    this.entries = this.entries.filter((entry) => !ids.has(entry.id));
    for (const id of ids) this.byId.delete(id);
  }

  /** A reasoning summary's delta: its Thinking entry grows (the page re-renders it once per frame). */
  private thinking(itemId: string, delta: string): void {
    const id = `thinking:${itemId}`;
    const entry = this.byId.get(id);
    if (entry?.kind !== 'thinking') return this.add({ kind: 'thinking', id, text: delta, streaming: true });
    entry.text += delta;
    this.post({ type: 'text', id, delta });
  }

  /** Whatever comes after reasoning ends it: its entry stops saying it is thinking. */
  private endThinking(): void {
    const open = this.entries.findLast((entry) => entry.kind === 'thinking' && entry.streaming);
    if (open?.kind === 'thinking') this.replace({ ...open, streaming: false });
  }

  /** Entries shown that the conversation no longer holds (a discarded attempt, a stopped turn's steers) go. */
  private drop(gone: ReadonlySet<string>): void {
    if (gone.size === 0) return;
    this.cards.remove(gone);
    this.cards.forgetItems(gone);
    this.sendState();
  }

  /** A whole message settles the first still streaming (a turn's messages come in output order). */
  private message(text: string, phase: string | undefined): void {
    const note = phase === 'commentary' ? { note: true } : {};
    const open = this.entries.find((entry) => entry.kind === 'assistant' && entry.streaming);
    if (open?.kind === 'assistant') this.replace({ ...open, text, streaming: false, ...note });
    else this.add({ kind: 'assistant', id: this.nextId('text'), text, streaming: false, ...note });
  }

  private setContext(context: ContextMeter): void {
    this.context = context;
    this.post({ type: 'context', context });
  }

  /** A marker in the conversation where the context was compacted; the meter drops at once. */
  private compacted(event: Extract<AgentEvent, { type: 'compacted' }>): void {
    this.notice('info', compactionLine(event));
    if (this.context) this.setContext({ ...this.context, tokens: event.tokensAfter });
  }

  private transport(event: Extract<AgentEvent, { type: 'transport' }>): void {
    if (event.state === 'reconnecting') {
      const text =
        event.attempt && event.maxAttempts
          ? t('Reconnecting ({0}/{1})…', event.attempt, event.maxAttempts)
          : t('Reconnecting…');
      this.setBanner({ kind: 'reconnecting', text, retry: false });
    } else if (event.state === 'http_fallback')
      this.setBanner({
        kind: 'fallback',
        text: event.reason ? t('Using HTTP fallback: {0}', event.reason) : t('Using HTTP fallback'),
        retry: false,
      });
    else if (event.state === 'warm' && this.banner?.kind === 'reconnecting') this.setBanner(null);
  }

  private done(event: Extract<AgentEvent, { type: 'done' }>): void {
    if (event.status === 'cancelled') this.drop(this.nativeSteers.withdrawn(this.entries));
    for (const entry of this.entries)
      if (entry.kind === 'assistant' && entry.streaming) this.replace({ ...entry, streaming: false });
    for (const entry of this.entries)
      if (entry.kind === 'tool' && (entry.status === 'streaming' || entry.status === 'approval')) {
        const { ask: _ask, ...rest } = entry;
        this.replace({ ...rest, status: 'failed', output: t('The task ended before this call ran.') });
      }
    if (event.status === 'cancelled') this.notice('info', t('Stopped.'));
    else if (event.status !== 'completed') this.stopped(event.reason, event.code, true);
    else if (this.banner?.kind !== 'fallback') this.setBanner(null);
  }

  /**
   * A task that stopped on its own (`reason`, of cause `code`): one line with the button that fixes it, and a
   * banner with Retry where `retry` (stopLine.ts). Also for a task that could not start (a refused warm-up).
   */
  stopped(reason: string, code: string | undefined, retry: boolean): void {
    this.add(stopLine(this.nextId('notice'), reason, code));
    this.setBanner(stopBanner(retry, code));
  }

  /** The chat reopened was running when its window closed: a banner whose Retry resumes it. */
  interrupted(): void {
    this.setBanner({
      kind: 'interrupted',
      text: t('The window closed while this task was running. Resume continues it from its transcript.'),
      retry: true,
    });
  }

  /** Sends everything again (after entries were removed, which the webview cannot infer). */
  sendState(): void {
    this.onState?.();
  }

  /** Set by the controller: how a full state is sent (it knows the session id and whether a task runs). */
  onState: (() => void) | undefined;
}
