import * as fs from 'node:fs';
import type * as vscode from 'vscode';
import type { Agent, AgentEvent, Transcript } from '../../agent';
import type { FilePlan } from '../../edit';
import { liveDiffKind } from '../../tools';
import { type Workspace, WorkspaceError } from '../../workspace';
import { closeUndoStep } from './bufferText';
import { InlineEdit } from './inlineEdit';
import { type InlineTiming, type TimingMarks, endLine, timingLine, timingOf } from './inlineTiming';
import { type InlineEnd, type InlineNote, inlineNote } from './inlineNote';
import { type InlineRequest, inlinePrompt } from './inlineRequest';
import { type UndoStep, InlineSteps } from './inlineSteps';
import { InlineWorkspace } from './inlineWorkspace';

// One inline request on one open document: its agent is made (and its lane's socket warmed) as soon as the
// prompt opens, so that Enter only sends; the edit calls the model writes stream into the buffer through
// InlineEdit, each step queued behind the last so that the editor sees them in order; the tool's write is
// the last step (inlineSteps.ts). Escape stops the agent and takes everything back. The steps are one step of
// the editor's undo (bufferText.ts): one Ctrl+Z takes the whole edit back, never to a state the model was
// still writing.

/**
 * Makes an inline request's agent: its own lane and transcript on the window's socket, its tools over `tools`;
 * the transcript is given back too, to be removed when the prompt is closed unsent.
 */
export type InlineAgentSource = (
  lane: string,
  tools: (workspace: Workspace) => Workspace,
  emit: (event: AgentEvent) => void,
  /** The document edited: its folder's settings apply. */
  file: vscode.Uri,
) => Promise<{ agent: Agent; transcript: Transcript }>;

export type { InlineTiming } from './inlineTiming';

export type InlineState = 'ready' | 'running' | 'review' | 'over';

export class InlineRun {
  readonly edit: InlineEdit;
  /** Its steps into the buffer, in order, as one undo step. */
  private readonly steps: InlineSteps;
  state: InlineState = 'ready';
  /** What the model said at the end, or why it stopped. */
  summary = '';
  /** What was sent, once it was. */
  private request: InlineRequest | undefined;
  /** How the request ended, once it has (Escape's stop included). */
  private ended: InlineEnd['ended'] | undefined;
  /** The document when the edit began, and whether it had unsaved changes then. */
  readonly startText: string;
  readonly startDirty: boolean;
  private readonly agent: Promise<{ agent: Agent; transcript: Transcript }>;
  private readonly stop = new AbortController();
  private pending = '';
  private flushing = false;
  /** The edit call being streamed, by its call id. */
  private call: string | undefined;
  /** The call whose tool runs now (the write is its). */
  private running: string | undefined;
  private sentAt = 0;
  /** The chat entry made for this edit, updated when the editor's undo or redo changes its outcome. */
  entryId: string | undefined;
  /** The run's lenses name it, so that a stale lens never acts on a later edit of the same file. */
  readonly id: string;
  private marks: TimingMarks = {};

  constructor(
    readonly document: vscode.TextDocument,
    /** The document's workspace path. */
    readonly path: string,
    lane: string,
    source: InlineAgentSource,
    private readonly changed: () => void,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.id = lane;
    this.startText = document.getText();
    this.startDirty = document.isDirty;
    this.edit = new InlineEdit((name) => name.replace(/^\.\//, '') === path);
    this.steps = new InlineSteps(document, this.edit);
    const file = {
      path,
      read: () => this.read(),
      write: (plan: FilePlan) => this.write(plan),
    };
    this.agent = source(
      lane,
      (workspace) => new InlineWorkspace(workspace, file),
      (event) => this.onEvent(event),
      document.uri,
    );
    this.agent.catch(() => undefined);
  }

  /** Sends the request (`sentAt`: when the user pressed Enter or chose the fix) and runs it to its end. */
  async send(request: InlineRequest, sentAt = performance.now()): Promise<void> {
    this.state = 'running';
    this.request = request;
    this.sentAt = sentAt;
    this.changed();
    let agent: Agent;
    try {
      ({ agent } = await this.agent);
    } catch (error) {
      return this.end('failed', error instanceof Error ? error.message : String(error));
    }
    this.marks.agentAt = performance.now();
    const done = await agent.run(inlinePrompt(request), this.stop.signal);
    this.marks.doneAt = performance.now();
    await this.steps.idle();
    // A call that ended without writing (its preview taken out) leaves the undo step open: closed now.
    if (this.steps.stepOpen) await this.steps.serial(() => closeUndoStep(this.document));
    this.steps.stepOpen = false;
    if (done.status !== 'completed') return this.end(done.status, done.reason);
    this.end('completed', this.summary);
  }

  /**
   * The prompt was closed without sending: the transcript made for it goes (the panel's History would list
   * it as a chat with no prompt).
   */
  dismiss(): void {
    this.state = 'over';
    this.agent.then(
      ({ transcript }) => transcript.file && fs.rmSync(transcript.file, { force: true }),
      () => undefined,
    );
  }

  /** Escape: the agent stops and the file is as it was (the user's own typing stays). */
  async cancel(): Promise<void> {
    this.ended ??= 'stopped';
    this.stop.abort();
    await this.undo();
    this.state = 'over';
    this.changed();
  }

  /** Keeps hunk `id`, or all of it. */
  keep(id?: string): void {
    this.edit.keep(id);
    this.settle();
  }

  /** Undoes hunk `id`, or all of it; throws a message the user can act on when the lines changed since. */
  undo(id?: string): Promise<void> {
    // While it is written (Escape), the take-back closes the run's undo step: Ctrl+Z after finds nothing of it.
    const step: UndoStep = this.state === 'running' ? 'close' : 'own';
    return this.steps.serial(async () => {
      let refused: string | undefined;
      await this.steps.carry((buffer) => {
        const result = this.edit.undo(buffer, id);
        refused = result.ok ? undefined : result.message;
        // The hunk's actions go now, not after the editor's round trip for the text (the others' move with it).
        if (result.ok && this.state === 'review') this.changed();
        return result.ok ? result.text : undefined;
      }, step);
      if (refused !== undefined) throw new Error(refused);
      this.settle();
    });
  }

  /**
   * The document changed (`undoRedo`: by the editor's Undo or Redo). While the edit is written, an undo that
   * took its lines back stops it there: nothing more is written, so undo never leaves the model's partial text
   * beside the user's. Once written, each hunk's state is read again, and the run goes back to review when
   * the editor brought a hunk back (or is over when none waits). True when the run changed.
   */
  documentChanged(reason: 'undo' | 'redo' | undefined): boolean {
    if (this.state === 'running') {
      if (reason === undefined || !this.steps.wrote || this.steps.dropped) return false;
      this.steps.dropped = true;
      this.steps.stepOpen = false;
      this.ended ??= 'stopped';
      this.edit.drop();
      this.stop.abort();
      this.state = 'over';
      this.changed();
      return true;
    }
    // The user's typing during the stream cut the edit's undo step: the controller walks on (inlineUndoWalk.ts).
    if (reason !== undefined && this.partial() !== undefined) return false;
    if (this.state === 'ready' || this.ended !== 'completed') return false;
    if (!this.edit.reconcile(this.document.getText(), reason !== undefined)) return false;
    this.state = this.edit.undecided > 0 ? 'review' : 'over';
    this.changed();
    return true;
  }

  /**
   * After the editor's undo or redo: the document without the text the model was still writing, when it holds
   * one (an undo that stopped mid-edit), else undefined.
   */
  partial(): string | undefined {
    const text = this.document.getText();
    return this.steps.dropped || this.edit.torn(text) ? this.edit.partialBack(text) : undefined;
  }

  /** Resolves once every step queued so far is done. */
  idle(): Promise<unknown> {
    return this.steps.idle();
  }

  /** When the run's time to the first painted line is known. */
  timing(): InlineTiming | undefined {
    return timingOf(this.marks, this.sentAt);
  }

  /** Stopped by the user (Escape, Stop, or a new edit of the file while this one was written). */
  get stopped(): boolean {
    return this.ended === 'stopped';
  }

  /** The chat's entry for this edit, once it is over (none for a prompt closed unsent). */
  note(): InlineNote | undefined {
    if (this.state !== 'over' || !this.request) return undefined;
    return inlineNote({
      request: this.request,
      ended: this.ended ?? 'completed',
      hunks: this.edit.written,
      decisions: this.edit.decisions,
      note: this.summary,
    });
  }

  /**
   * The window is closing while the edit waits for Keep or Undo: its entry for the chat, as left pending —
   * its lines stay in the file as written (nothing can be taken back on the way out), saved or not as the
   * user left the file. Undefined when nothing waits (a run still writing is stopped with the window).
   */
  leave(): InlineNote | undefined {
    if (this.state !== 'review' || !this.request) return undefined;
    // What the user did meanwhile (the editor's undo, typing over a hunk) decides those hunks first.
    this.edit.reconcile(this.document.getText(), false);
    this.state = 'over';
    return inlineNote({
      request: this.request,
      ended: 'completed',
      hunks: this.edit.written,
      decisions: this.edit.decisions,
      note: this.summary,
      left: { saved: !this.document.isDirty },
    });
  }

  private end(status: string, why: string): void {
    this.ended ??= status === 'completed' ? 'completed' : status === 'cancelled' ? 'stopped' : 'failed';
    if (status !== 'completed') {
      this.summary = why;
      void this.undo().catch(() => undefined);
    }
    this.log.info(
      `inline ${this.path}: ${status}${why ? ` (${why.split('\n')[0] ?? ''})` : ''}${timingLine(this.timing())}${endLine(this.marks)}`,
    );
    this.settle(status === 'completed' ? 'review' : 'over');
  }

  private settle(state: InlineState = this.state): void {
    if (this.state === 'over') return;
    this.state = state === 'review' && this.edit.undecided === 0 ? 'over' : state;
    this.changed();
  }

  private onEvent(event: AgentEvent): void {
    // The note is what the model wrote in its last response, a commentary too: an inline edit ends on its
    // edit (editEnd.ts), so the text beside the call is often all it says.
    if (event.type === 'turn_started') this.summary = '';
    if (event.type === 'message') this.summary = event.text;
    if (event.type === 'tool_call_delta' && liveDiffKind(event.name) !== undefined) {
      this.marks.deltaAt ??= performance.now();
      this.marks.lastDeltaAt = performance.now();
      // Keyed by the call's id, as the tool's run names it (the item's until the call id is known).
      const id = event.callId ?? event.itemId;
      if (this.call !== id) {
        const kind = liveDiffKind(event.name);
        this.call = id;
        this.pending = '';
        if (kind)
          void this.steps.serial(() => this.steps.carry((buffer) => this.edit.begin(id, kind, buffer), 'stream'));
      }
      this.pending += event.delta;
      this.flush();
    }
    // A call that ended without writing the file (refused, declined, another file): its preview comes out.
    if (event.type === 'tool_started') {
      this.running = event.callId;
      this.marks.toolAt = performance.now();
    }
    if (event.type === 'tool_finished' && liveDiffKind(event.name) !== undefined) {
      if (this.call === event.callId) this.call = undefined;
      void this.steps.serial(async () => {
        await this.steps.carry((buffer) => this.edit.abandon(buffer, event.callId), 'stream');
        this.changed();
      });
    }
  }

  /** Shows what came of the call's input, once per write: deltas that arrive meanwhile go with the next. */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    void this.steps.serial(async () => {
      this.flushing = false;
      let delta = this.pending;
      this.pending = '';
      const shown = await this.steps.carry((buffer) => {
        // Given once: a step made again after a refusal has it in the call's input already.
        const next = this.edit.grow(this.call ?? '', delta, buffer);
        delta = '';
        if (next !== undefined) this.marks.previewAt ??= performance.now();
        return next;
      }, 'stream');
      if (shown === 'written') {
        this.marks.paintAt ??= performance.now();
        this.marks.lastPaintAt = performance.now();
      }
      if (shown !== 'unchanged') this.changed();
    });
  }

  private async read() {
    await this.steps.idle();
    const text = this.edit.modelText(this.document.getText());
    if (text === undefined)
      throw new WorkspaceError(
        'changed_on_disk',
        `${this.path} is being edited by the user at these lines.`,
        this.path,
      );
    return { path: this.path, text, version: this.document.version };
  }

  private write(plan: FilePlan): Promise<number> {
    this.marks.writeAt = performance.now();
    return this.steps.serial(async () => {
      this.pending = '';
      let stale = false;
      if (this.steps.dropped)
        throw new WorkspaceError('io_error', `The user undid the edit of ${this.path}.`, this.path);
      const written = await this.steps.carry((buffer) => {
        const next = this.edit.commit(this.running ?? '', buffer, plan.before ?? '', plan.after ?? '', plan.hunks);
        stale = next === undefined;
        return next;
      }, 'close');
      if (stale)
        throw new WorkspaceError('changed_on_disk', `${this.path} changed while the edit was written: read it again.`);
      this.marks.previewAt ??= performance.now();
      if (written === 'refused')
        throw new WorkspaceError('io_error', `The editor refused the edit of ${this.path}.`, this.path);
      this.marks.paintAt ??= performance.now();
      this.marks.writtenAt = performance.now();
      this.changed();
      return this.document.version;
    });
  }
}
