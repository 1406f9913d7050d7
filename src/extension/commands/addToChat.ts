import * as vscode from 'vscode';
import type { Attachment } from '../../protocol/attachments';
import { selectedLines } from './selectedLines';

// **Loopwire: Add to Chat** (`loopwire.addToChat`), in the editor's context menu (the selection, or the file
// with none) and the explorer's (the files and folders selected there): chips in the panel's composer, read
// when the prompt is sent. Also how a drop on the panel and `@selection` name what they attach. In the
// extension's own bundle: only `vscode` and types, so activation stays small.

const multiRoot = () => (vscode.workspace.workspaceFolders?.length ?? 0) > 1;

/** A resource's workspace path (`folder/…` in multi-root), or undefined outside every workspace folder. */
export function workspacePathOf(uri: vscode.Uri): string | undefined {
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  const path = vscode.workspace.asRelativePath(uri, multiRoot());
  return path === '' || path === uri.fsPath ? undefined : path;
}

/** A file or folder resource as an attachment, or undefined outside the workspace (or gone). */
export async function resourceAttachment(uri: vscode.Uri): Promise<Attachment | undefined> {
  const path = workspacePathOf(uri);
  if (path === undefined) return undefined;
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) return undefined;
  return { kind: (stat.type & vscode.FileType.Directory) !== 0 ? 'folder' : 'file', path };
}

/** An editor's selection (its file and exact lines) as an attachment, or why it cannot be one. */
export function selectionAttachment(editor: vscode.TextEditor | undefined): Attachment | string {
  if (!editor) return vscode.l10n.t('No editor is open: open a file and select some lines to attach them.');
  const path = workspacePathOf(editor.document.uri);
  if (path === undefined)
    return vscode.l10n.t('{0} is not in the workspace: only its files can be attached.', editor.document.uri.fsPath);
  if (editor.selection.isEmpty)
    return vscode.l10n.t('Nothing is selected in {0}: select some lines to attach them.', path);
  const { first, last } = selectedLines(editor.selection);
  return { kind: 'file', path, lines: { start: first, end: last } };
}

/**
 * What Add to Chat attaches: the explorer's selection (`uris`, or the one `uri` clicked), else the editor's
 * selection in `uri`'s document, else its file.
 */
export async function addToChatAttachments(uri?: vscode.Uri, uris?: readonly vscode.Uri[]): Promise<Attachment[]> {
  const editor = vscode.window.activeTextEditor;
  const fromEditor = uri === undefined || editor?.document.uri.toString() === uri.toString();
  if (fromEditor && editor && !editor.selection.isEmpty && uris === undefined) {
    const selection = selectionAttachment(editor);
    if (typeof selection !== 'string') return [selection];
  }
  const targets = uris && uris.length > 0 ? uris : uri ? [uri] : editor ? [editor.document.uri] : [];
  const found = await Promise.all(targets.map((target) => resourceAttachment(target)));
  return found.filter((attachment): attachment is Attachment => attachment !== undefined);
}
