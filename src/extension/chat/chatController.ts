import {
  type Agent,
  type AgentEvent,
  type ApprovalPolicy,
  type ApprovalRequest,
  Transcript,
  policyFor,
} from '../../agent';
import type { Attachment } from '../../protocol/attachments';
import { type HostMessage, ViewMessage } from '../../protocol/chatView';
import { ChatAttachments } from './chatAttachments';
import { ChatCheckpoints } from './chatCheckpoints';
import { approvalAsk, taskNamed } from './approvalAsk';
import { ChangedFiles } from './changedFiles';
import { ChatModel } from './chatModel';
import type { ChatBackend, ChatOutcome } from './chatPort';
import { needsResume, settled } from './chatRestore';
import { type ChatSnapshot, SnapshotWriter, currentChat, loadSnapshot, setCurrentChat } from './chatSnapshot';
import { ReviewBook } from './reviewBook';
import { ReviewRefused } from './reviewEdits';
import { forkChat } from './chatFork';
import { listSessions, sessionFile } from './sessionHistory';
import { transcriptEntries } from './transcriptEntries';

// The chat panel's host side: one conversation at a time (a transcript on disk, an agent on the window's
// socket), the model of what the panel shows, the review of what edits wrote, and the answers to what the
// user clicks. It outlives the webview: a hidden or reloaded panel asks for the state again and a stream in
// progress goes on. A reloaded window finds the conversation again (chatSnapshot.ts): its cards, its live
// reviews, and a task cut short offered for Resume. Plain Node, behind `ChatBackend` (chatPort.ts): tested
// without VS Code.

export type { ChatBackend, ChatOutcome } from './chatPort';

/** Sends a message to the page: false (or a promise of false) when it was not delivered (a hidden view). */
export type PostToPage = (message: HostMessage) => void | boolean | PromiseLike<boolean>;

/** How long the snapshot may lag the panel while a task streams. */
const SAVE_INTERVAL_MS = 1_000;

export class ChatController {
  readonly model: ChatModel;
  private post: PostToPage | undefined;
  private transcript: Transcript | undefined;
  private agent: Agent | undefined;
  /** The tasks started and not over: the running one, and prompts sent meanwhile (they wait their turn). */
  private readonly tasks = new Set<AbortController>();
  /** Every edit of this conversation, hunk by hunk, with its state in the files now. */
  readonly reviews: ReviewBook;
  private readonly approvals = new Map<string, { resolve: (allow: boolean) => void; effect: 'write' | 'task' }>();
  /** Effects the user allowed for the whole chat. */
  private readonly allowed = new Set<'write' | 'task'>();
  /** What the panel last said it shows; undefined until a page has loaded. */
  shown: { entries: number; sessionId: string } | undefined;
  /** The conversation found again after a reload, once read. */
  private readonly restored: Promise<void>;
  private saveTimer: NodeJS.Timeout | undefined;
  /** Disposed: the snapshot keeps what it had (a task running then shows as interrupted). */
  private closed = false;
  private readonly snapshots: SnapshotWriter;
  private readonly changedFiles: ChangedFiles;
  /** Each prompt's checkpoint: what the agent's edit tools wrote since, for Restore and Edit and resend. */
  readonly checkpoints: ChatCheckpoints;
  /** The composer's chips: the `@` picker's answers, drops, Add to Chat, and a prompt's parts at its start. */
  readonly attachments: ChatAttachments;

  constructor(private readonly backend: ChatBackend) {
    this.attachments = new ChatAttachments(
      backend.context,
      async (message) => {
        if (!this.post) return false;
        return (await this.post(message)) !== false;
      },
      (text) => this.model.notice('warning', text),
    );
    this.checkpoints = new ChatCheckpoints(backend.sessionsDir, (line) => backend.log(line));
    this.snapshots = SnapshotWriter.of(backend.sessionsDir, (error) =>
      this.backend.log(`chat panel: could not save the chat: ${messageOf(error)}`),
    );
    this.model = new ChatModel(
      (message) => {
        this.post?.(message);
        this.scheduleSave();
      },
      async (path) => (await (await backend.workspace()).tryReadFile(path))?.text,
    );
    this.model.onState = () => this.sendState();
    this.reviews = new ReviewBook(
      () => backend.workspace(),
      (callId, diff) => this.model.updateTool(callId, { diff }),
    );
    this.reviews.onChange(() => this.scheduleSave());
    this.changedFiles = new ChangedFiles(() => backend.workspace(), this.reviews);
    backend.steering?.attach((message) => this.send(message));
    this.restored = this.restoreCurrent();
  }

  get busy(): boolean {
    return this.tasks.size > 0;
  }

  get sessionId(): string | undefined {
    return this.transcript?.header.id;
  }

  /** The current conversation's transcript on disk (once it has one). */
  get transcriptFile(): string | undefined {
    return this.transcript?.file;
  }

  private changed(): void {
    this.backend.changed?.({ busy: this.busy, hasTranscript: this.transcript !== undefined });
  }

  /** The webview is there (resolved) or gone; while gone, nothing is sent and nothing is lost. */
  attach(post: PostToPage | undefined): void {
    this.post = post;
  }

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
      switch (message.type) {
        case 'ready':
          this.backend.steering?.refresh();
          this.sendState();
          return this.attachments.ready();
        case 'send':
          void this.ask(message.text, message.attachments);
          return;
        case 'stop':
          return this.stop();
        case 'newChat':
          return this.newChat();
        case 'retry':
          return this.retry();
        case 'loadOlder':
          return this.send({ type: 'older', ...this.model.olderThan(message.before) });
        case 'hunk':
          return await this.reviewHunk(message.callId, message.path, message.hunkId, message.action);
        case 'undoTurn':
          return await this.undoTurn(message.turn);
        case 'openDiff':
          return await this.openDiff(message.callId, message.path);
        case 'approval':
          return this.answer(message.callId, message.allow, message.forChat ?? false);
        case 'openFile':
          return await this.openFile(message.path, message.line, message.column);
        case 'history':
          return this.send({ type: 'history', sessions: listSessions(this.backend.sessionsDir) });
        case 'openSession':
          return await this.openSession(message.id);
        case 'shown':
          this.shown = { entries: message.entries, sessionId: message.sessionId };
          return;
        case 'restore':
          return await this.restoreCheckpoint(message.id);
        case 'resend':
          return await this.resend(message.id, message.text, message.files);
        case 'choose':
          return await this.backend.steering?.choose(message);
        case 'openInstructions':
          return await this.backend.steering?.openInstructions(message.path);
        case 'allowInstructions':
          return await this.backend.steering?.allowInstructions();
        case 'findContext':
        case 'attachSelection':
        case 'attachUris':
          return await this.attachments.receive(message);
      }
    } catch (error) {
      this.model.notice(error instanceof ReviewRefused ? 'warning' : 'error', messageOf(error));
    }
  }

  /**
   * Sends a prompt: a new turn of this conversation (after the running one, if any: shown as queued), with
   * what is attached to it read when its task starts.
   */
  async ask(prompt: string, attachments: readonly Attachment[] = []): Promise<ChatOutcome> {
    await this.restored;
    const busy = this.busy;
    const id = this.model.addUser(prompt, busy, attachments);
    return this.run(prompt, busy ? id : undefined, id, attachments);
  }

  stop(): void {
    for (const task of this.tasks) task.abort();
    for (const { resolve } of this.approvals.values()) resolve(false);
    this.approvals.clear();
  }

  newChat(): void {
    this.stop();
    this.saveNow();
    // On disk before the chat is left: History may reopen it at once.
    this.snapshots.flush();
    this.transcript = undefined;
    this.agent = undefined;
    this.allowed.clear();
    this.reviews.clear();
    this.checkpoints.open(undefined);
    this.model.reset();
    this.forget(() => setCurrentChat(this.backend.sessionsDir, undefined));
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
    this.saveNow();
    this.snapshots.flush();
    this.closed = true;
    clearTimeout(this.saveTimer);
    this.changedFiles.dispose();
    // A call waiting for approval stays unanswered: the window is going, and a "declined" in the transcript
    // would stop the Resume from asking again.
    this.approvals.clear();
    this.stop();
    this.model.dispose();
  }

  private send(message: HostMessage): void {
    this.post?.(message);
  }

  private sendState(): void {
    const backend = this.backend.backendInfo?.();
    this.send({
      type: 'state',
      sessionId: this.sessionId ?? '',
      ...this.model.latest(),
      running: this.busy,
      banner: this.model.banner,
      ...(backend ? { backend } : {}),
      ...(this.model.context ? { context: this.model.context } : {}),
    });
  }

  private retry(): void {
    this.model.setBanner(null);
    void this.run(undefined);
  }

  private async run(
    prompt: string | undefined,
    queued?: string,
    userId?: string,
    attachments: readonly Attachment[] = [],
  ): Promise<ChatOutcome> {
    const controller = new AbortController();
    this.tasks.add(controller);
    this.send({ type: 'running', running: true });
    this.changed();
    let status = 'cancelled' as ChatOutcome['status'];
    let from = this.model.all.length;
    try {
      await this.backend.enqueue(async () => {
        if (controller.signal.aborted) return;
        if (queued !== undefined) this.model.unqueue(queued);
        from = this.model.all.length;
        if (!this.transcript) {
          this.transcript = this.backend.newTranscript();
          const id = this.transcript.header.id;
          this.forget(() => setCurrentChat(this.backend.sessionsDir, id));
        }
        this.checkpoints.open(this.transcript.header.id);
        if (userId !== undefined) this.checkpoints.begin(userId, this.transcript.items.length);
        this.saveNow();
        this.changed();
        const transcript = this.transcript;
        // A conversation left for a new chat may still be winding down: its events are not the new one's.
        this.agent ??= await this.backend.agent(
          transcript,
          this.policy(),
          (event) => {
            if (this.transcript === transcript) this.onEvent(event);
          },
          (workspace) => this.checkpoints.wrap(workspace),
        );
        this.model.tools = this.agent.registry;
        const sent =
          prompt === undefined
            ? undefined
            : await this.attachments.prompt(prompt, attachments, await this.backend.workspace());
        status = (await this.agent.run(sent, controller.signal)).status;
      });
    } catch (error) {
      status = 'failed';
      this.model.notice('error', messageOf(error));
      this.model.setBanner({ kind: 'failed', text: messageOf(error), retry: this.transcript !== undefined });
      this.agent = undefined;
    } finally {
      this.tasks.delete(controller);
      if (!this.busy) this.send({ type: 'running', running: false });
      this.saveNow();
      this.changed();
    }
    const text = this.model.all
      .slice(from)
      .flatMap((entry) => (entry.kind === 'assistant' ? [entry.text] : []))
      .join('\n\n');
    return { ok: status === 'completed', status, text };
  }

  private onEvent(event: AgentEvent): void {
    this.model.handle(event);
    // A command or task may change files too, and is not journaled: the checkpoint says it ran.
    if (event.type === 'tool_started' && this.agent?.registry.effect(event.name) === 'task')
      this.checkpoints.unjournaled(event.name);
    if (event.type === 'tool_finished' && event.edits) {
      const { callId, turn, edits } = event;
      this.reviews.add(callId, turn, edits).catch((error: unknown) => this.backend.log(`review: ${messageOf(error)}`));
    }
  }

  private policy(): ApprovalPolicy {
    const askUser = async (request: ApprovalRequest): Promise<boolean> => {
      if (this.allowed.has(request.effect)) return true;
      if (!this.post) return this.backend.askElsewhere(request);
      const entry = this.model.tool(request.callId);
      const task =
        request.effect === 'task' ? await taskNamed(() => this.backend.workspace(), entry?.summary ?? '') : undefined;
      const ask = approvalAsk(request, entry?.summary ?? '', entry?.diff, task, this.model.tools);
      return new Promise<boolean>((resolve) => {
        this.approvals.set(request.callId, { resolve, effect: request.effect });
        this.model.asking(request.callId, ask);
      });
    };
    // The mode is read at each call: one picked in the composer applies from the next call on.
    return { approve: (request) => policyFor(this.backend.approvalMode(), askUser).approve(request) };
  }

  private answer(callId: string, allow: boolean, forChat: boolean): void {
    const asked = this.approvals.get(callId);
    if (!asked) return;
    this.approvals.delete(callId);
    this.model.answered(callId, allow ? 'running' : 'declined');
    asked.resolve(allow);
    if (!allow || !forChat) return;
    // From now on this chat runs calls of this effect without asking, those already waiting included.
    this.allowed.add(asked.effect);
    this.saveNow();
    for (const [waiting, other] of [...this.approvals])
      if (other.effect === asked.effect) this.answer(waiting, true, false);
  }

  private async undoTurn(turn: number): Promise<void> {
    const count = await this.reviews.undoTurn(turn);
    this.model.notice(
      'info',
      count === 0
        ? 'Nothing left to undo in that turn.'
        : `Took back ${count} hunk${count === 1 ? '' : 's'} of turn ${turn}.`,
    );
  }

  /** Restore on a prompt: its checkpoint's files go back; those the user changed since open as diffs. */
  private async restoreCheckpoint(id: string): Promise<void> {
    if (this.busy) throw new ReviewRefused('Restore waits for the task to end: Stop it first.');
    const { plan, text } = await this.checkpoints.restore(id, await this.backend.workspace());
    this.model.notice(plan.kept.length > 0 || plan.unjournaled.length > 0 ? 'warning' : 'info', text);
    for (const file of ChatCheckpoints.diffsToOpen(plan))
      await this.backend.openDiff(file.path, file.target ?? '', `${file.path} (Restore ↔ now)`);
  }

  /**
   * Edit and resend: the chat forks at prompt `id` (chatFork.ts), after asking (`resendAsk`) what happens to
   * the files Loopwire wrote since, and `text` is sent in the fork; the old branch stays in History.
   */
  private async resend(id: string, text: string, files: 'restore' | 'keep' | undefined): Promise<void> {
    const transcript = this.transcript;
    if (this.busy) throw new ReviewRefused('A message can be edited once the task has ended: Stop it first.');
    if (!transcript) throw new ReviewRefused('That message is not in this chat any more.');
    const changed = this.checkpoints.changedSince(id);
    if (files === undefined && changed.length > 0) return this.send({ type: 'resendAsk', id, text, paths: changed });
    const at = this.checkpoints.forkPoint(id, this.model.all, transcript.items);
    const index = this.model.all.findIndex((entry) => entry.id === id);
    if (at === undefined || index < 0) throw new ReviewRefused('That message is not in this chat any more.');
    // The edited prompt keeps what was attached to it, read again as the files are now.
    const edited = this.model.all[index];
    const attachments = edited?.kind === 'user' ? (edited.attachments ?? []) : [];
    const restored =
      files === 'restore' ? await this.checkpoints.restore(id, await this.backend.workspace()) : undefined;
    // The branch being left goes to disk whole first: History shows it as it was.
    this.saveNow();
    this.snapshots.flush();
    const fork = forkChat(transcript, at, this.backend.sessionsDir);
    this.checkpoints.fork(fork.header.id, id);
    const entries = this.model.all.slice(0, index);
    const calls = new Set(entries.flatMap((entry) => (entry.kind === 'tool' ? [entry.id] : [])));
    const reviews = this.reviews.saved().filter((review) => calls.has(review.callId));
    this.transcript = fork;
    this.agent = undefined;
    this.model.reset(entries, this.model.context);
    await this.reviews.restore(reviews);
    this.forget(() => setCurrentChat(this.backend.sessionsDir, fork.header.id));
    this.sendState();
    if (restored) this.model.notice(restored.plan.kept.length > 0 ? 'warning' : 'info', restored.text);
    for (const file of restored ? ChatCheckpoints.diffsToOpen(restored.plan) : [])
      await this.backend.openDiff(file.path, file.target ?? '', `${file.path} (Restore ↔ now)`);
    void this.ask(text, attachments);
  }

  private async openDiff(callId: string, path: string): Promise<void> {
    const before = await this.reviews.before(callId, path);
    await this.backend.openDiff(path, before, `${path} (before Loopwire ↔ now)`);
  }

  private async openFile(path: string, line?: number, column?: number): Promise<void> {
    if (!this.backend.openFile) throw new ReviewRefused('Files cannot be opened from here.');
    await this.backend.openFile(path, line, column);
  }

  private async openSession(id: string): Promise<void> {
    sessionFile(this.backend.sessionsDir, id);
    this.stop();
    this.saveNow();
    await this.restore(id);
    this.forget(() => setCurrentChat(this.backend.sessionsDir, id));
    this.sendState();
  }

  /** The conversation the panel showed before this window reloaded, if any. */
  private async restoreCurrent(): Promise<void> {
    const id = currentChat(this.backend.sessionsDir);
    if (id === undefined) return;
    try {
      await this.restore(id);
    } catch (error) {
      this.backend.log(`chat panel: could not reopen the last chat: ${messageOf(error)}`);
      this.forget(() => setCurrentChat(this.backend.sessionsDir, undefined));
    }
  }

  /** Shows session `id` as it was: its snapshot when there is one, else what its transcript holds. */
  private async restore(id: string): Promise<void> {
    const transcript = Transcript.load(sessionFile(this.backend.sessionsDir, id));
    // The chat being left, or this very one, may still be on its way to the disk.
    this.snapshots.flush();
    const { snapshot, problem } = loadSnapshot(this.backend.sessionsDir, id);
    if (problem) this.backend.log(`chat panel: ${problem}`);
    this.transcript = transcript;
    this.agent = undefined;
    this.checkpoints.open(id);
    this.allowed.clear();
    for (const effect of snapshot?.allowed ?? []) this.allowed.add(effect);
    const interrupted = snapshot?.running === true && needsResume(transcript);
    this.model.reset(
      snapshot ? settled(snapshot.entries) : transcriptEntries(transcript.items, this.model.tools),
      snapshot?.context,
    );
    if (interrupted)
      this.model.setBanner({
        kind: 'interrupted',
        text: 'The window closed while this task was running. Resume continues it from its transcript.',
        retry: true,
      });
    await this.reviews.restore(snapshot?.reviews ?? []);
  }

  /** Writes the snapshot once the panel has been quiet a moment (at most once a second while streaming). */
  private scheduleSave(): void {
    if (this.saveTimer || this.closed || !this.transcript) return;
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_INTERVAL_MS);
    this.saveTimer.unref?.();
  }

  private saveNow(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const transcript = this.transcript;
    if (this.closed || !transcript) return;
    const snapshot: ChatSnapshot = {
      version: 1,
      sessionId: transcript.header.id,
      running: this.busy,
      entries: [...this.model.all],
      reviews: this.reviews.saved(),
      allowed: [...this.allowed],
      ...(this.model.context ? { context: this.model.context } : {}),
    };
    void this.snapshots.save(snapshot);
  }

  /** A write the panel can do without (a full disk): logged, never in the user's way. */
  private forget(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.backend.log(`chat panel: could not save the chat: ${messageOf(error)}`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
