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

/** Makes `document`'s text `after`; false when the editor refused the edit. */
export async function writeText(document: vscode.TextDocument, after: string): Promise<boolean> {
  const before = document.getText();
  if (before === after) return true;
  const span = differingSpan(before, after);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    document.uri,
    new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)),
    span.text,
  );
  return vscode.workspace.applyEdit(edit);
}
