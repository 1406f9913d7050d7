import * as vscode from 'vscode';
import { isNoMatchAnswer } from '../../server/noMatchAnswer';
import type { Workspace } from '../../workspace';
import { type InlineAgentSource, InlineRun, type InlineTiming } from './inlineRun';
import { InlineMarks } from './inlineMarks';
import type { InlineNote } from './inlineNote';
import type { InlineRequest } from './inlineRequest';
import { showOfflineNotice } from './offlineNotice';

// The window's inline edits (Ctrl+I's prompt and the light bulb's Fix with Loopwire), one per document at a
// time, each on a lane of its own of the window's socket (`inline-N`), so that they run beside the chat's
// task. It owns the marks in the editor and the `loopwire.inlineRunning` context key that gives Escape to
// Stop while the model writes.

/** The context key that is true while an inline edit streams (package.json's Escape binding reads it). */
export const RUNNING_KEY = 'loopwire.inlineRunning';

export interface InlineDeps {
  agent: InlineAgentSource;
  workspace: () => Promise<Workspace>;
  log: vscode.LogOutputChannel;
  /** An edit sent and now over (kept, undone, stopped): its short entry, for the chat (inlineNote.ts). */
  finished?: (note: InlineNote) => void;
}

export class InlineController implements vscode.Disposable {
  private readonly runs = new Map<string, InlineRun>();
  private readonly marks: InlineMarks;
  private readonly disposables: vscode.Disposable[];
  private lanes = 0;
  /** The window is going: the edits still shown have left their entries (`dispose`). */
  disposed = false;
  /** The last run's time from Enter to its first painted line (the API's `inline.lastTiming`). */
  lastTiming: InlineTiming | undefined;

  constructor(private readonly deps: InlineDeps) {
    this.marks = new InlineMarks(() =>
      [...this.runs.values()].map((run) => ({
        document: run.document,
        running: run.state === 'running',
        marks: () => run.edit.marks(run.document.getText()),
      })),
    );
    this.disposables = [
      this.marks,
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.runs.has(event.document.uri.toString())) this.marks.refresh();
      }),
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

  /** Keep or Undo from a lens: one hunk, or the whole edit when no hunk is named. */
  async review(uri: string, hunkId: string | undefined, action: 'keep' | 'undo'): Promise<void> {
    const run = this.runs.get(uri);
    if (!run) return;
    if (action === 'keep') run.keep(hunkId);
    else await run.undo(hunkId);
    if (run.state === 'over') await this.restoreSaved(run);
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

  private changed(run: InlineRun): void {
    if (run.state === 'over' && this.runs.get(run.document.uri.toString()) === run) {
      this.runs.delete(run.document.uri.toString());
      // Once per run: it has left the map. A prompt closed unsent has no note.
      const note = run.note();
      if (note) this.deps.finished?.(note);
    }
    this.marks.refresh();
    void this.setRunning();
  }

  private setRunning(): Thenable<unknown> {
    const running = [...this.runs.values()].some((run) => run.state === 'running');
    return vscode.commands.executeCommand('setContext', RUNNING_KEY, running);
  }

  private multiRoot(): boolean {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  }
}
