import * as vscode from 'vscode';
import { codeBlock } from './codeBlock';
import { selectedLines } from './selectedLines';

// "Explain Selection": the selected code, where it is, and a request for an explanation — no edits asked.

/** Characters of selection sent; a bigger one is cut and the model is told so (it can read the file). */
const MAX_SELECTION = 20_000;

export function explainPrompt(document: vscode.TextDocument, selection: vscode.Range): string {
  const where = vscode.workspace.asRelativePath(
    document.uri,
    vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1,
  );
  const text = document.getText(selection);
  const shown =
    text.length > MAX_SELECTION ? `${text.slice(0, MAX_SELECTION)}\n… (cut; read the file for the rest)` : text;
  const { first, last } = selectedLines(selection);
  const lines = first === last ? `line ${first}` : `lines ${first}–${last}`;
  return [
    `Explain this code from ${where}, ${lines}. Do not change any file.`,
    '',
    codeBlock(shown, document.languageId),
  ].join('\n');
}
