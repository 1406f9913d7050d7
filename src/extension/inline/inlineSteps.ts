import type * as vscode from 'vscode';
import { writeText } from './bufferText';
import type { InlineEdit } from './inlineEdit';

// The steps of one inline edit carried into the editor's buffer (inlineRun.ts makes them): each queued behind
// the last, so that the editor sees them in order, and each made again on the buffer as it is when the user's
// typing beat it there. Together they are one step of the editor's undo (bufferText.ts) until the last closes it.

/**
 * How a write cuts the editor's undo stack: `stream`, a step of the edit being written (joins the undo step
 * the run has open); `close`, its last (the step is closed after it); `own`, a step of its own (Undo lens).
 */
export type UndoStep = 'stream' | 'close' | 'own';

/** Times a step is made again when the user's typing beat it to the editor. */
const CARRY_ATTEMPTS = 5;

export class InlineSteps {
  private queue: Promise<unknown> = Promise.resolve();
  /** The run's undo step is open in the editor (streamed writes not yet closed by a last one). */
  stepOpen = false;
  /** The run has written into the document. */
  wrote = false;
  /** The editor's undo took the edit back while it was written: nothing more is written. */
  dropped = false;

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly edit: InlineEdit,
  ) {}

  /** Resolves once every step queued so far is done. */
  idle(): Promise<unknown> {
    return this.queue;
  }

  /**
   * Carries one step of the edit into the buffer: `step` makes the buffer's new text from its text now
   * (undefined: nothing to write). The editor refuses an edit made on a version of the document the user has
   * typed past meanwhile (VS Code checks the version): the edit goes back to its state before the step, which
   * is made again on the buffer as it is then. Without this, a refused preview left the edit believing the
   * buffer showed it, and the preview could no longer be taken out (a line of the user's file lost).
   */
  async carry(
    step: (buffer: string) => string | undefined,
    undo: UndoStep,
  ): Promise<'written' | 'unchanged' | 'refused'> {
    for (let attempt = 1; attempt <= CARRY_ATTEMPTS; attempt++) {
      if (this.dropped) return 'unchanged';
      const saved = this.edit.save();
      const text = step(this.document.getText());
      if (text === undefined) return 'unchanged';
      const stops = { before: undo === 'own' || !this.stepOpen, after: undo !== 'stream' };
      if (await writeText(this.document, text, stops)) {
        this.wrote = true;
        this.stepOpen = !stops.after;
        return 'written';
      }
      this.edit.restore(saved);
    }
    return 'refused';
  }

  /** Runs `step` after every step queued before it; a failed step does not stop the next. */
  serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
