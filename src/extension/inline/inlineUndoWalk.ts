import * as vscode from 'vscode';
import { writeText } from './bufferText';

// The editor's undo or redo landing on a text the model was still writing. An inline edit is one undo step
// (bufferText.ts) unless the user typed while it streamed: the typing cuts the step, and one Ctrl+Z may then
// stop between two of the model's steps. Rather than leave that text, the undo (or redo) walks on to the next
// step of the editor's stack, until the model's text is whole or gone; the history before the edit is left as
// it was. With no editor of the document to undo in, the partial text is taken out as a step of its own.

/** Steps walked on after one undo or redo at most: a text that stays partial cannot loop. */
const MAX_WALK = 8;

/**
 * The window's walk: one step per change event at most, whichever edits of the document see a partial text of
 * theirs (two edits of the same prompt see the same), so that an undo never goes past the edit.
 */
export class UndoWalk {
  private walked = 0;

  /** A change that was not the editor's undo or redo: the next walk starts afresh. */
  reset(): void {
    this.walked = 0;
  }

  /**
   * After the editor's `direction`, `document` holds a text the model was still writing (`back`: without it):
   * one more step the same way, or, with no editor of the document to undo in, `back` written.
   */
  async step(document: vscode.TextDocument, direction: 'undo' | 'redo', back: string): Promise<void> {
    if (this.walked < MAX_WALK && vscode.window.activeTextEditor?.document === document) {
      this.walked++;
      await vscode.commands.executeCommand(direction);
      return;
    }
    await writeText(document, back);
  }
}
