import * as vscode from 'vscode';
import { writeText } from './bufferText';
import type { InlineEdit } from './inlineEdit';

// The editor's undo or redo landing on a text the model was still writing. An inline edit is one undo step
// (bufferText.ts) unless the user typed while it streamed: the typing cuts the step, and one Ctrl+Z may then
// stop between two of the model's steps. Rather than leave that text, the undo (or redo) walks on to the next
// step of the editor's stack, until the model's text is whole or gone; the history before the edit is left as
// it was. With no editor of the document to undo in, the partial text is taken out as a step of its own.

/** Steps walked on after one undo or redo at most: a text that stays partial cannot loop. */
const MAX_WALK = 8;

export class UndoWalk {
  private walked = 0;

  constructor(private readonly document: vscode.TextDocument) {}

  /** A change that was not the editor's undo or redo: the next walk starts afresh. */
  reset(): void {
    this.walked = 0;
  }

  /** After the editor's `direction`: walks on when the document holds a partial text of `edit`'s. */
  async onPartial(edit: InlineEdit, direction: 'undo' | 'redo'): Promise<void> {
    const back = edit.partialBack(this.document.getText());
    if (back === undefined) return;
    if (this.walked < MAX_WALK && vscode.window.activeTextEditor?.document === this.document) {
      this.walked++;
      await vscode.commands.executeCommand(direction);
      return;
    }
    await writeText(this.document, back);
  }
}
