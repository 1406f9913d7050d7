import {
  type Agent,
  type AgentEvent,
  type ApprovalMode,
  type ApprovalPolicy,
  type ApprovalRequest,
  Transcript,
  policyFor,
} from '../../agent';
import { type HostMessage, ViewMessage } from '../../protocol/chatView';
import type { Workspace } from '../../workspace';
import { ChatModel, reviewFiles } from './chatModel';
import {
  ReviewRefused,
  type ReviewedEdit,
  acceptHunk,
  rejectHunk,
  reviewed,
  textBefore,
  undoEdits,
} from './reviewEdits';
import { listSessions, sessionFile } from './sessionHistory';
import { transcriptEntries } from './transcriptEntries';

// The chat panel's host side: one conversation at a time (a transcript on disk, an agent on the window's
// socket), the model of what the panel shows, the review of what edits wrote, and the answers to what the
// user clicks. It outlives the webview: a hidden or reloaded panel asks for the state again and a stream in
// progress goes on. Plain Node, behind `ChatBackend`: tested without VS Code.

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
}

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
  private readonly reviews = new Map<string, ReviewedEdit>();
  private readonly approvals = new Map<string, (allow: boolean) => void>();
  /** What the panel last said it shows; undefined until a page has loaded. */
  shown: { entries: number; sessionId: string } | undefined;

  constructor(private readonly backend: ChatBackend) {
    this.model = new ChatModel(
      (message) => this.post?.(message),
      async (path) => (await (await backend.workspace()).tryReadFile(path))?.text,
    );
    this.model.onState = () => this.sendState();
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
          return this.answer(message.callId, message.allow);
        case 'history':
          return this.send({ type: 'history', sessions: listSessions(this.backend.sessionsDir) });
        case 'openSession':
          return this.openSession(message.id);
        case 'shown':
          this.shown = { entries: message.entries, sessionId: message.sessionId };
          return;
      }
    } catch (error) {
      this.model.notice(error instanceof ReviewRefused ? 'warning' : 'error', messageOf(error));
    }
  }

  /** Sends a prompt: a new turn of this conversation (after the running one, if any). */
  ask(prompt: string): Promise<ChatOutcome> {
    this.model.addUser(prompt);
    return this.run(prompt);
  }

  stop(): void {
    for (const task of this.tasks) task.abort();
    for (const resolve of this.approvals.values()) resolve(false);
    this.approvals.clear();
  }

  newChat(): void {
    this.stop();
    this.transcript = undefined;
    this.agent = undefined;
    this.reviews.clear();
    this.model.reset();
    this.sendState();
    this.send({ type: 'focus' });
  }

  dispose(): void {
    this.stop();
    this.model.dispose();
  }

  private send(message: HostMessage): void {
    this.post?.(message);
  }

  private sendState(): void {
    this.send({
      type: 'state',
      sessionId: this.sessionId ?? '',
      ...this.model.latest(),
      running: this.busy,
      banner: this.model.banner,
    });
  }

  private retry(): void {
    this.model.setBanner(null);
    void this.run(undefined);
  }

  private async run(prompt: string | undefined): Promise<ChatOutcome> {
    const controller = new AbortController();
    this.tasks.add(controller);
    this.send({ type: 'running', running: true });
    this.changed();
    let status = 'cancelled' as ChatOutcome['status'];
    let from = this.model.all.length;
    try {
      await this.backend.enqueue(async () => {
        if (controller.signal.aborted) return;
        from = this.model.all.length;
        this.transcript ??= this.backend.newTranscript();
        this.changed();
        const transcript = this.transcript;
        // A conversation left for a new chat may still be winding down: its events are not the new one's.
        this.agent ??= await this.backend.agent(transcript, this.policy(), (event) => {
          if (this.transcript === transcript) this.onEvent(event);
        });
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
    if (event.type === 'tool_finished' && event.edits)
      this.reviews.set(event.callId, reviewed(event.callId, event.turn, event.edits));
  }

  private policy(): ApprovalPolicy {
    return policyFor(this.backend.approvalMode(), (request) => {
      if (!this.post) return this.backend.askElsewhere(request);
      return new Promise<boolean>((resolve) => {
        this.approvals.set(request.callId, resolve);
        this.model.updateTool(request.callId, { status: 'approval' });
      });
    });
  }

  private answer(callId: string, allow: boolean): void {
    const resolve = this.approvals.get(callId);
    if (!resolve) return;
    this.approvals.delete(callId);
    this.model.updateTool(callId, { status: allow ? 'running' : 'declined' });
    resolve(allow);
  }

  private review(callId: string): ReviewedEdit {
    const edit = this.reviews.get(callId);
    if (!edit) throw new ReviewRefused('That edit can no longer be reviewed here (it is from an earlier session).');
    return edit;
  }

  /** The card of `edit` again, with its hunks' states (and an error on one file, if a review action failed). */
  private showReview(edit: ReviewedEdit, failed?: { path: string; message: string }): void {
    const files = reviewFiles(edit.files).map((file) => {
      const key = file.moveTo ?? file.path;
      const states = edit.states.get(key);
      return {
        ...file,
        ...(states ? { states: Object.fromEntries(states) } : {}),
        ...(failed && failed.path === key ? { error: failed.message } : {}),
      };
    });
    this.model.updateTool(edit.callId, { diff: files });
  }

  private async hunk(callId: string, path: string, hunkId: string, action: 'accept' | 'reject'): Promise<void> {
    const edit = this.review(callId);
    if (action === 'accept') acceptHunk(edit, path, hunkId);
    else {
      try {
        await rejectHunk(await this.backend.workspace(), edit, path, hunkId);
      } catch (error) {
        this.showReview(edit, { path, message: messageOf(error) });
        throw error;
      }
    }
    this.showReview(edit);
  }

  private async undoTurn(turn: number): Promise<void> {
    const edits = [...this.reviews.values()].filter((edit) => edit.turn === turn);
    const count = await undoEdits(await this.backend.workspace(), edits);
    for (const edit of edits) this.showReview(edit);
    this.model.notice(
      'info',
      count === 0
        ? 'Nothing left to undo in that turn.'
        : `Took back ${count} hunk${count === 1 ? '' : 's'} of turn ${turn}.`,
    );
  }

  private async openDiff(callId: string, path: string): Promise<void> {
    const edit = this.review(callId);
    const { before } = await textBefore(await this.backend.workspace(), edit, path);
    await this.backend.openDiff(path, before, `${path} (before Loopwire ↔ now)`);
  }

  private openSession(id: string): void {
    this.stop();
    const transcript = Transcript.load(sessionFile(this.backend.sessionsDir, id));
    this.transcript = transcript;
    this.agent = undefined;
    this.reviews.clear();
    this.model.reset(transcriptEntries(transcript.items));
    this.sendState();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
