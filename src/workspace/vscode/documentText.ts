import * as vscode from 'vscode';

// What the user sees of a file: the text of its open TextDocument (unsaved edits included) when there is
// one. VS Code keeps a UTF-8 BOM out of the document text (it is part of the encoding), while the edit
// engine keeps it as a leading U+FEFF; these helpers translate between the two.

const BOM = '\uFEFF';

/** The open document of `real` (a real path), if any. */
export function openDocument(real: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find(
    (doc) => !doc.isClosed && doc.uri.scheme === 'file' && doc.uri.fsPath === real,
  );
}

/** The document's text as the engine sees it: with the BOM the file on disk has. */
export function engineText(doc: vscode.TextDocument, diskHasBom: boolean): string {
  const text = doc.getText();
  return diskHasBom && !text.startsWith(BOM) ? BOM + text : text;
}

/** `after` as the document holds it: without a BOM the document keeps in its encoding. */
export function documentText(after: string, doc: vscode.TextDocument): string {
  return after.startsWith(BOM) && !doc.getText().startsWith(BOM) ? after.slice(1) : after;
}

/**
 * One replacement turning `before` into `after`: the common start and end are left alone, so markers,
 * folding and the user's cursor outside the change stay where they are.
 */
export function minimalReplacement(doc: vscode.TextDocument, after: string): { range: vscode.Range; text: string } {
  const before = doc.getText();
  let start = 0;
  const limit = Math.min(before.length, after.length);
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < limit - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end))
    end++;
  // Never split a CRLF pair or a surrogate pair between kept and replaced text.
  while (start > 0 && isPairStart(before, start - 1)) start--;
  while (end > 0 && isPairStart(before, before.length - end - 1)) end--;
  const range = new vscode.Range(doc.positionAt(start), doc.positionAt(before.length - end));
  return { range, text: after.slice(start, after.length - end) };
}

function isPairStart(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 13 || (code >= 0xd800 && code <= 0xdbff);
}
