import { t } from '@vscode/l10n';
import { PromptStart, type Transcript } from '../../agent';
import type { Attachment } from '../../protocol/attachments';
import { type ChatEntry, type ContextMeter, type HostMessage, ViewMessage } from '../../protocol/chatView';
import { ChatOutbox } from './chatOutbox';
import { wireChat } from './chatWiring';
import type { ChatAttachments } from './composer/chatAttachments';
import type { ChatCheckpoints } from './checkpoints/chatCheckpoints';
import type { ChatApprovals } from './approvals/chatApprovals';
import type { ChangedFiles } from '../review/changedFiles';
import type { ChatModel } from './chatModel';
import type { PromptQueue } from './composer/chatQueue';
import type { ChatTakeBack } from './checkpoints/chatTakeBack';
import type { ChatSaver } from './history/chatSaver';
import type { ReviewBook } from '../review/reviewBook';
import { ChatInline } from './entries/inlineEntries';
import type { ChatHost, ChatOutcome, PostToPage } from './chatPort';
import { readChat, restoreCurrent } from './history/chatRestore';
import { implementPlan } from './composer/planImplement';
import { ReviewRefused } from '../review/reviewEdits';
import { type EditedPrompt, resendInFork } from './checkpoints/chatFork';
import { sessionFile } from './history/sessionHistory';
import { sideRoutes } from './sideRoutes';
import { type ViewRoutes, route } from './viewRoutes';
import { stopOneSubagent } from './entries/subagentStop';
import { messageOf } from './messageOf';
import { ChatRun } from './chatRun';
import { ChatSlash } from './composer/chatSlash';
import { PromptTurn } from './composer/promptTurn';
import { ChatHandoffs } from './entries/chatHandoffs';

// The chat panel's host side: one conversation at a time (a transcript on disk, an agent on the window's socket),
// the model of what the panel shows, the review of what edits wrote, the answers to what the user clicks. It
// outlives the webview (a hidden or reloaded panel asks for the state again; a stream goes on); a reloaded window
// finds it again (chatSnapshot.ts), a task cut short offered for Resume. Plain Node, behind `ChatHost`.

export type { ChatHost, ChatOutcome, PostToPage } from './chatPort';

export class ChatController {
  readonly model: ChatModel;
  private post: PostToPage | undefined;
  private transcript: Transcript | undefined;
  /** Every edit of this conversation, hunk by hunk, with its state in the files now. */
  readonly reviews: ReviewBook;
  /** Undo all of this turn, Restore, and the diff editor on what an edit wrote. */
  private readonly takeBack: ChatTakeBack;
  /** Calls waiting for Allow / Skip, and the effects allowed for the whole chat. */
  readonly approvals: ChatApprovals;
  /** What the panel last said it shows; undefined until a page has loaded. */
  shown: { entries: number; sessionId: string } | undefined;
  /** The conversation found again after a reload, once read. */
  private readonly restored: Promise<void>;
  /** The snapshot and the current chat, on disk for a reloaded window. */
  readonly saver: ChatSaver;
  private readonly changedFiles: ChangedFiles;
  /** Each prompt's checkpoint: what the agent's edit tools wrote since, for Restore and Edit and resend. */
  readonly checkpoints: ChatCheckpoints;
  /** The composer's chips: the `@` picker's answers, drops, Add to Chat, and a prompt's parts at its start. */
  readonly attachments: ChatAttachments;
  /** The prompts sent while a task runs: chips above the composer until their turn (chatQueue.ts). */
  readonly queue: PromptQueue;
  /** Inline edits done beside this chat: their short entries, kept in its transcript (inlineEntries.ts). */
  readonly inline = new ChatInline(() => ({ model: this.model, transcript: () => this.kept() }));
  /** Every message to the page, in order; those of a turn's gap wait until the next request is sent. */
  readonly outbox = new ChatOutbox((message) => void this.post?.(message));
  /** The running prompt's own model, tools or plan mode (a prompt file's, `/plan`'s): for that prompt only. */
  readonly turn = new PromptTurn();
  /** The `/` commands: the menu's list, and what a sent `/name args` does (chatSlash.ts). */
  readonly slash: ChatSlash;
  /** A custom agent's handoffs, offered under its completed task's answer (chatHandoffs.ts). */
  readonly handoffs = new ChatHandoffs((message) => {
    this.send(message);
    this.saver.soon(); // the snapshot keeps whose buttons show (a reloaded window shows them again)
  });
  /** The chat's agent and its tasks (chatRun.ts). */
  private readonly runner = new ChatRun(this);

  constructor(readonly backend: ChatHost) {
    const parts = wireChat(
      {
        outbox: this.outbox,
        postToPanel: async (message) => this.post !== undefined && (await this.post(message)) !== false,
        panelShown: () => this.post !== undefined,
        busy: () => this.busy,
        sessionId: () => this.sessionId,
        handoffsOf: () => this.handoffs.offeredBy,
        sendState: () => this.sendState(),
        send: (message) => this.send(message),
        ask: (text, attachments) => this.ask(text, attachments),
        abortTasks: () => this.abortTasks(),
        steer: (text) => this.runner.agent?.steer(text) ?? false,
      },
      // The approval mode in force is plan mode while a `/plan` prompt runs.
      Object.assign(Object.create(backend) as ChatHost, {
        approvalMode: () => this.turn.mode(backend.approvalMode()),
      }),
    );
    ({ model: this.model, attachments: this.attachments, checkpoints: this.checkpoints, saver: this.saver } = parts);
    ({ approvals: this.approvals, reviews: this.reviews, takeBack: this.takeBack } = parts);
    ({ changedFiles: this.changedFiles, queue: this.queue } = parts);
    backend.composer?.attach((message) => this.send(message));
    this.slash = new ChatSlash(backend.slash, {
      newChat: () => (backend.newChat ? backend.newChat() : this.newChat()),
      notice: (level, text) => this.model.notice(level, text),
      giveBack: (text) => this.send({ type: 'focus', text }),
      compact: () => this.runner.compact(),
    });
    // The conversation the panel showed before this window reloaded, if any (none for a chat opened beside).
    this.restored = restoreCurrent(
      backend.beside ? undefined : backend.sessionsDir,
      (id) => this.restore(id),
      (line) => backend.log(line),
      () => this.saver.setCurrent(undefined),
    );
  }

  get busy(): boolean {
    return this.runner.busy;
  }
  get sessionId(): string | undefined {
    return this.transcript?.header.id;
  }
  /** The current conversation's transcript on disk (once it has one). */
  get transcriptFile(): string | undefined {
    return this.transcript?.file;
  }
  /** The chat's transcript, made at its first prompt or inline entry (a new chat has none: nothing to keep yet). */
  kept(): Transcript {
    if (this.transcript) return this.transcript;
    this.transcript = this.backend.newTranscript();
    this.saver.setCurrent(this.transcript.header.id);
    this.changed();
    return this.transcript;
  }

  changed(): void {
    this.backend.changed?.({ busy: this.busy, hasTranscript: this.transcript !== undefined });
  }

  /** The webview is there (resolved) or gone; while gone, nothing is sent and nothing is lost. */
  attach(post: PostToPage | undefined): void {
    this.post = post;
  }

  /** What each of the page's messages does. */
  private readonly routes: ViewRoutes = {
    ...sideRoutes(() => this),
    ready: () => {
      this.backend.composer?.refresh();
      this.sendState();
      return this.attachments.ready();
    },
    send: (message) => void this.ask(message.text, message.attachments),
    // With `agent`: that subagent alone (its nested card's Stop), the task going on.
    stop: ({ agent }) => {
      if (agent === undefined) return this.stop();
      const { model, approvals, transcript } = this;
      return stopOneSubagent({ model, approvals, transcript }, agent);
    },
    newChat: () => this.newChat(),
    retry: () => {
      this.model.setBanner(null);
      void this.runner.run({ prompt: undefined });
    },
    implement: () => implementPlan(this.backend, (prompt) => this.ask(prompt)),
    handoff: (message) => this.handOff(message.index, message.label),
    hunk: (message) => this.reviewHunk(message.callId, message.path, message.hunkId, message.action),
    undoTurn: (message) => this.takeBack.undoTurn(message.turn),
    openDiff: (message) => this.takeBack.openDiff(message.callId, message.path),
    approval: (message) =>
      this.approvals.answer(message.callId, message.allow, message.forChat ?? false, message.always ?? false),
    queue: (message) => this.queue.act(message.action, message.id, message.text),
    openSession: (message) => this.openSession(message.id),
    shown: (message) => void (this.shown = { entries: message.entries, sessionId: message.sessionId }),
    restore: (message) => this.takeBack.restore(message.id),
    resend: (message) => this.resend(message),
    slashCommands: async () => this.send({ type: 'slashCommands', commands: await this.slash.entries() }),
  };

  /** A message from the webview, validated first: anything else is logged and dropped. */
  async receive(raw: unknown): Promise<void> {
    const parsed = ViewMessage.safeParse(raw);
    if (!parsed.success) {
      this.backend.log(`chat panel: ignored a malformed message: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    const message = parsed.data;
    await this.restored;
    try {
      await route(this.routes, message);
    } catch (error) {
      this.model.notice(error instanceof ReviewRefused ? 'warning' : 'error', messageOf(error));
    }
  }

  /** A prompt: this chat's next turn (queued behind a running one: chatQueue.ts); its attachments read at its start. */
  async ask(prompt: string, attachments: readonly Attachment[] = []): Promise<ChatOutcome> {
    const start = new PromptStart(performance.now(), (done) => this.backend.log(done.describe()));
    await this.restored;
    if (this.busy) return this.queue.add(prompt, attachments);
    // A `/command` is read when its turn comes (a queued one too): what it sends, or what it did here.
    const slash = prompt.trimStart().startsWith('/') ? await this.slash.expand(prompt) : undefined;
    if (slash && 'handled' in slash)
      return { ok: slash.handled === 'done', status: slash.handled === 'done' ? 'completed' : 'failed', text: '' };
    const id = this.model.addUser(prompt, false, attachments);
    // A handoff's model and mode go with the prompt it sent or filled in (a prompt file's own model comes first).
    const handoff = this.handoffs.takeChoices();
    return this.runner.run({
      prompt: slash?.prompt ?? prompt,
      userId: id,
      attachments,
      start,
      choices: handoff && slash?.choices ? { ...handoff, ...slash.choices } : (slash?.choices ?? handoff),
    });
  }

  /**
   * A handoff's button: the agent picker switches to its agent (kept for the workspace, as a pick is: only an
   * agent the picker offers, so the workspace's only where its instruction files may be sent), then its prompt
   * goes into the composer, or is sent where it says `send`. The approval mode and the sandbox stay the user's,
   * but for a handoff to `ask` or `plan`: the prompt it sends goes in that mode, where it is stricter (promptTurn.ts).
   */
  private async handOff(index: number, label: string): Promise<void> {
    const offer = this.handoffs.take(index, label);
    if (!offer) return;
    if (!this.backend.composer) throw new ReviewRefused(t('This chat has no agent picker to hand off with.'));
    await this.backend.composer.choose({ type: 'choose', choice: 'agent', value: offer.agent });
    if (offer.send && offer.prompt !== undefined) void this.ask(offer.prompt);
    else this.send({ type: 'focus', ...(offer.prompt === undefined ? {} : { text: offer.prompt }) });
  }

  /** Stops the running task; every queued prompt, and what was steered and not delivered, goes back to the composer. */
  stop(): void {
    this.abortTasks();
    this.queue.giveBack(this.runner.agent?.takeSteers() ?? []);
  }

  private abortTasks(): void {
    this.runner.abort();
  }

  /** The conversation shown now (the runner's events reach it only while it is). */
  shownTranscript(): Transcript | undefined {
    return this.transcript;
  }

  newChat(): void {
    this.stop();
    this.backend.stopCommands?.();
    this.leaveFor(undefined, []);
    this.approvals.setAllowed([]);
    this.reviews.clear();
    this.checkpoints.open(undefined);
    this.saver.setCurrent(undefined);
    this.sendState();
    this.send({ type: 'focus' });
  }

  /** Keep or take back one hunk (the panel's buttons, the editor's Keep / Undo). */
  async reviewHunk(callId: string, path: string, hunkId: string, action: 'accept' | 'reject'): Promise<void> {
    await this.reviews.hunk(callId, path, hunkId, action);
  }

  /**
   * Files changed outside the review (the editor's undo, a save, the user's typing), by absolute path:
   * the hunks of those files read their states again. Resolves once they have.
   */
  filesChanged(absolutePaths: readonly string[]): Promise<void> {
    return this.changedFiles.add(absolutePaths);
  }

  dispose(): void {
    // Written before the task is stopped, and at once: after a reload it shows as interrupted, with Resume.
    this.saver.close();
    this.changedFiles.dispose();
    this.approvals.abandonWaiting();
    this.stop();
    this.model.dispose();
  }

  /** Settles once a disposed chat's last snapshot is on disk: nothing of it is written after. */
  closed(): Promise<void> {
    return this.saver.settled();
  }

  send(message: HostMessage): void {
    this.outbox.send(message);
  }

  /** Shown again after another chat was (chatDeck.ts): the page gets the whole state, the window's keys follow. */
  reshow(): void {
    this.saver.setCurrent(this.sessionId);
    this.changed();
    this.sendState();
  }

  private sendState(): void {
    this.send(this.model.state(this.sessionId ?? '', this.busy, this.backend.backendInfo?.()));
    // A state clears the buttons: those still offered come again.
    const handoffs = this.handoffs.current;
    if (handoffs.length > 0) this.send({ type: 'handoffs', handoffs: [...handoffs] });
    this.queue.publish();
  }

  /** Edit and resend of a prompt (chatFork.ts): the chat forks there and the prompt as edited is sent in the fork. */
  private resend(edited: EditedPrompt): Promise<void> {
    if (this.busy) throw new ReviewRefused(t('A message can be edited once the task has ended: Stop it first.'));
    return resendInFork(
      { ...edited },
      {
        transcript: this.transcript,
        entries: this.model.all,
        context: this.model.context,
        checkpoints: this.checkpoints,
        reviews: this.reviews,
        takeBack: this.takeBack,
        sessionsDir: this.backend.sessionsDir,
        ask: (prompt) => this.send({ type: 'resendAsk', ...prompt }),
        leaveFor: (fork, entries, context) => {
          this.leaveFor(fork, entries, context);
          this.saver.setCurrent(fork.header.id);
        },
        shown: () => this.sendState(),
        send: (prompt, attachments) => void this.ask(prompt, attachments),
      },
    );
  }

  private async openSession(id: string): Promise<void> {
    sessionFile(this.backend.sessionsDir, id);
    this.stop();
    this.saver.now();
    await this.restore(id);
    this.saver.setCurrent(id);
    this.sendState();
  }

  /** Shows session `id` as it was: its snapshot when there is one, else what its transcript holds. */
  private async restore(id: string): Promise<void> {
    // The chat being left, or this very one, may still be on its way to the disk.
    this.saver.flush();
    const chat = readChat(this.backend.sessionsDir, id, this.model.tools, (line) => this.backend.log(line));
    this.leaveFor(chat.transcript, chat.entries, chat.snapshot?.context);
    this.checkpoints.open(id);
    this.approvals.setAllowed(chat.snapshot?.allowed ?? []);
    await this.handoffs.restore(chat.snapshot?.handoffsOf, async () => (await this.backend.slash?.agents?.()) ?? []);
    if (chat.interrupted) this.model.interrupted();
    await this.reviews.restore(chat.snapshot?.reviews ?? []);
  }

  /**
   * The chat shown becomes `transcript`'s (none: a new one), showing `entries`: the one left is saved and on
   * disk first (History may reopen it at once), and its agent goes with it.
   */
  private leaveFor(transcript: Transcript | undefined, entries: ChatEntry[], context?: ContextMeter): void {
    this.saver.now();
    this.saver.flush();
    this.transcript = transcript;
    this.changed(); // Open Transcript follows the chat shown (new, reopened or restored)
    this.runner.agent = undefined;
    this.model.reset(entries, context);
    this.model.plan.from(transcript?.items ?? []);
    this.handoffs.clear();
  }
}
