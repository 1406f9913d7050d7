import * as vscode from 'vscode';

// An inline edit's text written into the open document: only the span that differs (the text before and
// after it is left alone, so the user's cursor and typing elsewhere are untouched), unsaved — the user keeps
// or undoes the edit before anything reaches the disk.

/** The span of `before` to replace with `text` to make `after`: offsets into `before`. */
export function differingSpan(before: string, after: string): { start: number; end: number; text: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let tail = 0;
  while (
    tail < before.length - start &&
    tail < after.length - start &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
}

/**
 * Where the editor's undo stack is cut around a write: `before` closes the undo step before it (the user's own
 * typing stays a step of its own), `after` closes the write's (the next write starts a step of its own). A
 * write with neither joins the step still open, so that a streamed edit is one step of the editor's undo.
 */
export interface UndoStops {
  before: boolean;
  after: boolean;
}

/**
 * Makes `document`'s text `after`; false when the editor refused the edit (made on a version the user has typed
 * past). Through a visible editor of the document, whose edits set the undo stops; else (no editor shows the
 * document) one `WorkspaceEdit`, a step of its own.
 */
export async function writeText(
  document: vscode.TextDocument,
  after: string,
  stops: UndoStops = { before: true, after: true },
): Promise<boolean> {
  const before = document.getText();
  if (before === after) return true;
  const span = differingSpan(before, after);
  const range = new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
  const editor = vscode.window.visibleTextEditors.find((shown) => shown.document === document);
  if (editor) {
    try {
      return await editor.edit((edit) => edit.replace(range, span.text), {
        undoStopBefore: stops.before,
        undoStopAfter: stops.after,
      });
    } catch {
      // The editor closed meanwhile: the workspace edit below writes the document as well.
    }
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, range, span.text);
  return vscode.workspace.applyEdit(edit);
}

/** Closes the undo step a streamed edit left open (an edit of nothing, with a stop after it). */
export async function closeUndoStep(document: vscode.TextDocument): Promise<void> {
  const editor = vscode.window.visibleTextEditors.find((shown) => shown.document === document);
  await editor
    ?.edit(() => undefined, { undoStopBefore: false, undoStopAfter: true })
    .then(
      () => undefined,
      () => undefined,
    );
}
