import * as vscode from 'vscode';
import type { Workspace } from '../../workspace';
import { type ReviewSource, ReviewMarks } from './editorMarks';

// The review of the chat's edits, in step with the editor: the marks and Keep / Undo lenses on the lines the
// agent changed (editorMarks.ts), and every change of a file — the editor's undo and redo, the user's typing,
// a save, a file created, changed or deleted on disk — told to the chat, which reads the hunks' states again
// from the text (its card and these marks follow). Set up with the chat's controller (WindowRuntime).

/** What this needs of the chat (`ChatController`). */
export interface ReviewedChat {
  readonly reviews: ReviewSource;
  /** Files changed, by absolute path; the chat debounces and costs nothing while it has no reviews. */
  filesChanged(absolutePaths: readonly string[]): Promise<void>;
}

export function reviewInEditor(
  chat: ReviewedChat,
  workspace: () => Promise<Pick<Workspace, 'locate'>>,
  log: (line: string) => void,
): vscode.Disposable[] {
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file') return;
    chat.filesChanged([uri.fsPath]).catch((error: unknown) => log(`review: ${String(error)}`));
  };
  // Files under the workspace's folders (a relative glob covers each of them).
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  return [
    new ReviewMarks(chat.reviews, workspace),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) changed(event.document.uri);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => changed(document.uri)),
    // A document closed with unsaved changes: the file on disk is what counts again.
    vscode.workspace.onDidCloseTextDocument((document) => changed(document.uri)),
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete(changed),
  ];
}
