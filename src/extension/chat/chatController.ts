import {
  type Agent,
  type AgentEvent,
  type ApprovalMode,
  type ApprovalPolicy,
  type ApprovalRequest,
  Transcript,
  policyFor,
} from '../../agent';
import { type BackendInfo, type ChatEntry, type HostMessage, ViewMessage } from '../../protocol/chatView';
import type { TaskInfo, Workspace } from '../../workspace';
import { approvalAsk } from './approvalAsk';
import { ChatModel } from './chatModel';
import { type ChatSnapshot, SnapshotWriter, currentChat, loadSnapshot, setCurrentChat } from './chatSnapshot';
import { ReviewBook } from './reviewBook';
import { ReviewRefused } from './reviewEdits';
import { listSessions, sessionFile } from './sessionHistory';
import { transcriptEntries } from './transcriptEntries';

// The chat panel's host side: one conversation at a time (a transcript on disk, an agent on the window's
// socket), the model of what the panel shows, the review of what edits wrote, and the answers to what the
// user clicks. It outlives the webview: a hidden or reloaded panel asks for the state again and a stream in
// progress goes on. A reloaded window finds the conversation again (chatSnapshot.ts): its cards, its live
// reviews, and a task cut short offered for Resume. Plain Node, behind `ChatBackend`: tested without VS Code.

export interface ChatBackend {
  workspace(): Promise<Workspace>;
  /** An agent for this transcript on the window's socket, its events sent to `emit` (and the session's listeners). */
  agent(transcript: Transcript, approvals: ApprovalPolicy, emit: (event: AgentEvent) => void): Promise<Agent>;
  /** Runs after the session's tasks already queued (one conversation at a time on the default lane). */
  enqueue<T>(run: () => Promise<T>): Promise<T>;
  /** A new transcript for a chat. */
  newTranscript(): Transcript;
  /** Where transcripts are kept. */
  sessionsDir: string;
  approvalMode(): ApprovalMode;
  /** Asked when no panel is there to show Apply / Skip. */
  askElsewhere(request: ApprovalRequest): Promise<boolean>;
  /** Shows `before` against the file as it is now (VS Code's diff editor, keeping focus). */
  openDiff(path: string, before: string, title: string): Promise<void>;
  log(line: string): void;
  /** A task started or the last one ended; a transcript now exists (the window's context keys follow). */
  changed?(state: { busy: boolean; hasTranscript: boolean }): void;
  /** Opens a workspace file in the editor, at a line and column when given (a path clicked in the panel). */
  openFile?(path: string, line?: number, column?: number): Promise<void>;
  /** Which backend the chat talks to (the empty chat says so). */
  backendInfo?(): BackendInfo;
}

/** How long the snapshot may lag the panel while a task streams. */
const SAVE_INTERVAL_MS = 1_000;
/** Files' changes are read after this quiet time (an editor's undo fires several events). */
const REFRESH_DELAY_MS = 100;

/** How a prompt sent through the chat ended: the answer's text, for callers such as the quick fix. */
export interface ChatOutcome {
  ok: boolean;
  status: 'completed' | 'failed' | 'stopped' | 'cancelled';
  text: string;
}

export class ChatController {
  readonly model: ChatModel;
  private post: ((message: HostMessage) => void) | undefined;
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
  private readonly changedFiles = new Set<string>();
  private refreshTimer: { promise: Promise<void>; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly backend: ChatBackend) {
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
  attach(post: ((message: HostMessage) => void) | undefined): void {
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
          return this.sendState();
        case 'send':
          void this.ask(message.text);
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
          return await this.hunk(message.callId, message.path, message.hunkId, message.action);
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
      }
    } catch (error) {
      this.model.notice(error instanceof ReviewRefused ? 'warning' : 'error', messageOf(error));
    }
  }

  /** Sends a prompt: a new turn of this conversation (after the running one, if any: shown as queued). */
  async ask(prompt: string): Promise<ChatOutcome> {
    await this.restored;
    const queued = this.busy ? this.model.addUser(prompt, true) : (this.model.addUser(prompt), undefined);
    return this.run(prompt, queued);
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
  async filesChanged(absolutePaths: readonly string[]): Promise<void> {
    if (this.reviews.size === 0) return;
    for (const file of absolutePaths) this.changedFiles.add(file);
    if (!this.refreshTimer) {
      let timer: NodeJS.Timeout | undefined;
      const promise = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.refreshTimer = undefined;
          void this.refreshChanged().finally(resolve);
        }, REFRESH_DELAY_MS);
      });
      this.refreshTimer = { promise, timer: timer as NodeJS.Timeout };
    }
    await this.refreshTimer.promise;
  }

  dispose(): void {
    // Written before the task is stopped, and at once: after a reload it shows as interrupted, with Resume.
    this.saveNow();
    this.snapshots.flush();
    this.closed = true;
    clearTimeout(this.saveTimer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer.timer);
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

  private async run(prompt: string | undefined, queued?: string): Promise<ChatOutcome> {
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
        this.saveNow();
        this.changed();
        const transcript = this.transcript;
        // A conversation left for a new chat may still be winding down: its events are not the new one's.
        this.agent ??= await this.backend.agent(transcript, this.policy(), (event) => {
          if (this.transcript === transcript) this.onEvent(event);
        });
        this.model.tools = this.agent.registry;
        status = (await this.agent.run(prompt, controller.signal)).status;
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
    if (event.type === 'tool_finished' && event.edits) {
      const { callId, turn, edits } = event;
      this.reviews.add(callId, turn, edits).catch((error: unknown) => this.backend.log(`review: ${messageOf(error)}`));
    }
  }

  private policy(): ApprovalPolicy {
    return policyFor(this.backend.approvalMode(), async (request) => {
      if (this.allowed.has(request.effect)) return true;
      if (!this.post) return this.backend.askElsewhere(request);
      const entry = this.model.tool(request.callId);
      const task = request.effect === 'task' ? await this.task(entry?.summary ?? '') : undefined;
      const ask = approvalAsk(request, entry?.summary ?? '', entry?.diff, task);
      return new Promise<boolean>((resolve) => {
        this.approvals.set(request.callId, { resolve, effect: request.effect });
        this.model.updateTool(request.callId, { status: 'approval', ask });
      });
    });
  }

  /** The workspace's task `label` (its command, for the approval card), if it is found. */
  private async task(label: string): Promise<TaskInfo | undefined> {
    try {
      return (await (await this.backend.workspace()).listTasks()).tasks.find((task) => task.label === label);
    } catch {
      return undefined;
    }
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

  private async hunk(callId: string, path: string, hunkId: string, action: 'accept' | 'reject'): Promise<void> {
    await this.reviews.hunk(callId, path, hunkId, action);
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

  private async openDiff(callId: string, path: string): Promise<void> {
    const before = await this.reviews.before(callId, path);
    await this.backend.openDiff(path, before, `${path} (before Loopwire ↔ now)`);
  }

  private async openFile(path: string, line?: number, column?: number): Promise<void> {
    if (!this.backend.openFile) throw new ReviewRefused('Files cannot be opened from here.');
    await this.backend.openFile(path, line, column);
  }

  private async refreshChanged(): Promise<void> {
    const changed = new Set(this.changedFiles);
    this.changedFiles.clear();
    const workspace = await this.backend.workspace();
    const paths = this.reviews.paths().filter((path) => {
      try {
        return changed.has(workspace.locate(path).absolute);
      } catch {
        return false;
      }
    });
    if (paths.length > 0) await this.reviews.refresh(paths);
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

/** A transcript that stopped mid-task: a prompt or a tool's answer without a response, or calls without answers. */
function needsResume(transcript: Transcript): boolean {
  if (transcript.pendingCalls().length > 0) return true;
  const last = transcript.items.at(-1) as { type?: unknown; role?: unknown } | undefined;
  if (!last) return false;
  return !(last.type === 'message' || last.type === undefined) || last.role !== 'assistant';
}

const CUT_SHORT = 'Interrupted: the window closed before this call finished.';

/** Entries saved mid-task, as they are after it: nothing streams or waits any more. */
function settled(entries: readonly ChatEntry[]): ChatEntry[] {
  return entries.map((entry) => {
    if ((entry.kind === 'assistant' || entry.kind === 'thinking') && entry.streaming)
      return { ...entry, streaming: false };
    if (entry.kind === 'user' && entry.queued) {
      const { queued: _queued, ...rest } = entry;
      return { ...rest, text: `${rest.text}\n\n*(Not sent: the window closed while it waited.)*` };
    }
    if (entry.kind === 'tool' && ['streaming', 'approval', 'running'].includes(entry.status)) {
      const { ask: _ask, ...rest } = entry;
      return { ...rest, status: 'failed' as const, output: entry.output ?? CUT_SHORT };
    }
    return entry;
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
