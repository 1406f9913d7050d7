import * as vscode from 'vscode';
import { isNoMatchAnswer } from '../../server/noMatchAnswer';
import type { Workspace } from '../../workspace';
import { type InlineAgentSource, InlineRun, type InlineTiming } from './inlineRun';
import { nearestHunk } from './inlineAffordances';
import { InlineMarks } from './inlineMarks';
import { UndoWalk } from './inlineUndoWalk';
import type { InlineNote } from './inlineNote';
import type { InlineRequest } from './inlineRequest';
import { showOfflineNotice } from './offlineNotice';

// The window's inline edits (Ctrl+I's prompt and the light bulb's Fix with Loopwire), one per document at a
// time, each on a lane of its own of the window's socket (`inline-N`), so that they run beside the chat's
// task. It owns the marks in the editor and the `loopwire.inlineRunning` context key that gives Escape to
// Stop while the model writes.

/** The context key that is true while an inline edit streams (package.json's Escape binding reads it). */
export const RUNNING_KEY = 'loopwire.inlineRunning';
/** True while the active editor's file has an edit waiting for Keep or Undo (its keys, package.json, read it). */
export const REVIEW_KEY = 'loopwire.inlineReview';

export interface InlineDeps {
  agent: InlineAgentSource;
  workspace: () => Promise<Workspace>;
  log: vscode.LogOutputChannel;
  /** An edit sent and now over (kept, undone, stopped): its short entry, for the chat (inlineNote.ts); its id. */
  finished?: (note: InlineNote) => string | undefined;
  /** The editor's undo or redo changed an ended edit's outcome: its entry `id` says it now. */
  updated?: (id: string, note: InlineNote) => void;
}

/** The editor's undo and redo, by the reason a change event gives. */
const REASONS: Record<number, 'undo' | 'redo' | undefined> = {
  [vscode.TextDocumentChangeReason.Undo]: 'undo',
  [vscode.TextDocumentChangeReason.Redo]: 'redo',
};

/** Ended edits still followed, so that the editor's undo and redo of them reach their lenses and entries. */
const PAST_RUNS = 20;

export class InlineController implements vscode.Disposable {
  private readonly runs = new Map<string, InlineRun>();
  /** Ended edits, newest last: an undo or redo may bring one back to review or change its outcome. */
  private past: InlineRun[] = [];
  /** What each run's entry last said, so that an entry is written again only when it changed. */
  private readonly recorded = new WeakMap<InlineRun, string>();
  private readonly marks: InlineMarks;
  /** Walks an undo that stopped mid-edit on to the edit's start or end. */
  private readonly walk = new UndoWalk();
  private readonly disposables: vscode.Disposable[];
  private lanes = 0;
  /** The value `loopwire.inlineRunning` was last given. */
  private runningKey: boolean | undefined;
  /** The value `loopwire.inlineReview` was last given. */
  private reviewKey: boolean | undefined;
  /** The window is going: the edits still shown have left their entries (`dispose`). */
  disposed = false;
  /** The last run's time from Enter to its first painted line (the API's `inline.lastTiming`). */
  lastTiming: InlineTiming | undefined;

  constructor(private readonly deps: InlineDeps) {
    this.marks = new InlineMarks(() =>
      [...this.runs.values()].map((run) => ({
        id: run.id,
        document: run.document,
        running: run.state === 'running',
        marks: () => run.edit.marks(run.document.getText()),
      })),
    );
    this.disposables = [
      this.marks,
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event)),
      vscode.window.onDidChangeActiveTextEditor(() => void this.setKeys()),
    ];
  }

  /**
   * Readies an inline edit of `document` (its agent and lane, while the user types the prompt); undefined with
   * a message shown when the document is outside the workspace. An edit still shown there is kept first.
   */
  async open(document: vscode.TextDocument): Promise<InlineRun | undefined> {
    const workspace = await this.deps.workspace();
    let path: string;
    try {
      path = workspace.locate(vscode.workspace.asRelativePath(document.uri, this.multiRoot())).path;
    } catch {
      void vscode.window.showInformationMessage(vscode.l10n.t('Loopwire edits inline the files of this workspace.'));
      return undefined;
    }
    const key = document.uri.toString();
    const earlier = this.runs.get(key);
    if (earlier?.state === 'running') await earlier.cancel();
    else earlier?.keep();
    const run = new InlineRun(
      document,
      path,
      `inline-${++this.lanes}`,
      this.deps.agent,
      () => this.changed(run),
      this.deps.log,
    );
    this.runs.set(key, run);
    return run;
  }

  /** Sends `request` on `run` and waits for its end; what the model said, or why it stopped. */
  async send(run: InlineRun, request: InlineRequest, sentAt?: number): Promise<string> {
    await run.send(request, sentAt);
    await run.idle();
    if (run.state === 'over') await this.restoreSaved(run);
    this.lastTiming = run.timing() ?? this.lastTiming;
    // Why nothing was written (no change, a failure); not after Escape, which the user pressed themselves. The
    // offline model's answer to a prompt it has no scenario for is shown as its remedy (offlineNotice.ts).
    if (run.state === 'over' && run.edit.undecided === 0 && run.summary !== '' && !run.stopped) {
      if (isNoMatchAnswer(run.summary)) void showOfflineNotice();
      else void vscode.window.showInformationMessage(`Loopwire: ${run.summary}`);
    }
    return run.summary;
  }

  /** A prompt closed without sending: its run is dropped. */
  dismiss(run: InlineRun): void {
    run.dismiss();
    if (this.runs.get(run.document.uri.toString()) === run) this.runs.delete(run.document.uri.toString());
  }

  /** Escape while the model writes: the running edit of the active editor (or any) stops and is taken back. */
  async cancel(uri?: string): Promise<void> {
    const key = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
    const run = (key ? this.runs.get(key) : undefined) ?? [...this.runs.values()].find((r) => r.state === 'running');
    if (run?.state !== 'running') return;
    await run.cancel();
    await this.restoreSaved(run);
  }

  /**
   * Keep or Undo from a lens: one hunk, or the whole edit when no hunk is named. `runId`: the edit the lens was
   * drawn for; a stale lens of an edit since ended does nothing (never acts on a later edit of the file).
   */
  async review(uri: string, hunkId: string | undefined, action: 'keep' | 'undo', runId?: string): Promise<void> {
    const run = this.inReview(uri, runId);
    if (!run) return;
    if (action === 'keep') run.keep(hunkId);
    else await run.undo(hunkId);
    if (run.state === 'over') await this.restoreSaved(run);
  }

  /** Keep or Undo by key: the hunk of `uri`'s edit nearest `line` (0-based), where the cursor is. */
  async reviewNearest(uri: string, line: number, action: 'keep' | 'undo'): Promise<void> {
    const run = this.inReview(uri, undefined);
    if (!run) return;
    const hunkId = nearestHunk(run.edit.marks(run.document.getText()), line, run.document.lineCount);
    if (hunkId !== undefined) await this.review(uri, hunkId, action, run.id);
  }

  /** The edit of `uri` waiting for Keep or Undo, if it is the run `runId` (when named). */
  private inReview(uri: string, runId: string | undefined): InlineRun | undefined {
    const run = this.runs.get(uri);
    return run?.state === 'review' && (runId === undefined || run.id === runId) ? run : undefined;
  }

  /**
   * An edit taken back whole, in a file that had no unsaved changes: its text is the file's on disk again,
   * so the editor's unsaved mark goes too (a revert, to that same text). Only in the active editor, which is
   * the one the revert command acts on.
   */
  private async restoreSaved(run: InlineRun): Promise<void> {
    const document = run.document;
    if (run.startDirty || !document.isDirty || document.getText() !== run.startText) return;
    if (vscode.window.activeTextEditor?.document !== document) return;
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }

  /**
   * The window is going: an edit still waiting for Keep or Undo leaves its entry in the chat now, as left
   * pending (the session calls this before the chat saves for the last time, so the next start shows it).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const run of this.runs.values()) {
      const note = run.leave();
      if (note) this.deps.finished?.(note);
    }
    this.runs.clear();
    for (const disposable of this.disposables) disposable.dispose();
  }

  /**
   * A document changed: the edits on it (running, in review, or ended and followed) read what became of their
   * hunks, at once, so that an edit taken back by Ctrl+Z has its entry now and its lenses go now.
   */
  private documentChanged(event: vscode.TextDocumentChangeEvent): void {
    const key = event.document.uri.toString();
    const current = this.runs.get(key);
    const past = this.past.filter((run) => run.document === event.document && run !== current);
    if (!current && past.length === 0) return;
    const reason = REASONS[event.reason ?? 0];
    let changed = false;
    const runs = [...(current ? [current] : []), ...past.reverse()];
    for (const run of runs) changed = run.documentChanged(reason) || changed;
    if (reason === undefined) this.walk.reset();
    else {
      // An undo that stopped mid-edit goes on, one step per change, whichever edit sees it.
      const back = runs.map((run) => run.partial()).find((text) => text !== undefined);
      if (back !== undefined) void this.walk.step(event.document, reason, back);
    }
    // The lenses move with the text anyway; their titles change only with a run's state (changed() draws them).
    if (!changed) this.marks.refresh();
  }

  private changed(run: InlineRun): void {
    const key = run.document.uri.toString();
    if (run.state === 'over') {
      if (this.runs.get(key) === run) this.runs.delete(key);
      this.record(run);
    } else if (run.state === 'review' && this.runs.get(key) !== run) {
      // Brought back by the editor's undo or redo: its lenses again, unless another edit of the file is shown.
      const shown = this.runs.get(key);
      if (shown && shown.state !== 'over') run.keep();
      else this.runs.set(key, run);
    }
    this.marks.refresh();
    void this.setKeys();
  }

  /** The chat's entry for an ended run: made once, then updated when its outcome changes. */
  private record(run: InlineRun): void {
    // A prompt closed unsent has no note.
    const note = run.note();
    if (!note) return;
    const said = JSON.stringify(note);
    if (this.recorded.get(run) === said) return;
    this.recorded.set(run, said);
    if (run.entryId === undefined) run.entryId = this.deps.finished?.(note);
    else this.deps.updated?.(run.entryId, note);
    this.past = [...this.past.filter((earlier) => earlier !== run), run].slice(-PAST_RUNS);
  }

  /** Sets the context keys when they change only: a streamed edit changes its run at every step. */
  private async setKeys(): Promise<void> {
    const running = [...this.runs.values()].some((run) => run.state === 'running');
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const reviewing = active !== undefined && this.runs.get(active)?.state === 'review';
    if (running !== this.runningKey) {
      this.runningKey = running;
      await vscode.commands.executeCommand('setContext', RUNNING_KEY, running);
    }
    if (reviewing !== this.reviewKey) {
      this.reviewKey = reviewing;
      await vscode.commands.executeCommand('setContext', REVIEW_KEY, reviewing);
    }
  }

  private multiRoot(): boolean {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  }
}
