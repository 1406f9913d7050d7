import * as vscode from 'vscode';
import { placement, removedHover } from '../review/editorMarks';
import type { InlineMark } from './inlineEdit';

// An inline edit in the editor, drawn as the chat's edits are (review/editorMarks.ts): added lines on the diff
// editor's inserted-line background with a bar and a ruler mark, removed lines as a line in the deleted colour
// where they were with a hover that lists them (the buffer holds the new text only, so that what the user
// keeps is what they saw). CodeLenses: while the model writes, one that stops it (Escape does too); then Keep
// and Undo above each hunk, and Keep All / Undo All above the first when there are several.

export const INLINE_KEEP = 'loopwire.inline.keep';
export const INLINE_UNDO = 'loopwire.inline.undo';
export const INLINE_CANCEL = 'loopwire.inline.cancel';

/** What a lens names: the document and a hunk, or no hunk for the whole edit; the edit it was drawn for. */
export interface InlineTarget {
  uri: string;
  hunkId?: string;
  run?: string;
}

/** One document's inline edit, as the marks read it. */
export interface MarkedEdit {
  /** The edit's run (its lane), which its lenses name. */
  readonly id: string;
  readonly document: vscode.TextDocument;
  /** The model is still writing (its lens stops it). */
  readonly running: boolean;
  marks(): InlineMark[];
}

const colour = (id: string) => new vscode.ThemeColor(id);

function lens(line: number, title: string, command: string, target: InlineTarget, tooltip: string): vscode.CodeLens {
  return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), { title, tooltip, command, arguments: [target] });
}

export class InlineMarks implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: colour('diffEditor.insertedLineBackground'),
    borderColor: colour('editorGutter.addedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
    overviewRulerColor: colour('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly removed = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderColor: colour('editorGutter.deletedBackground'),
    borderStyle: 'solid',
    borderWidth: '2px 0 0 0',
    overviewRulerColor: colour('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly edits: () => readonly MarkedEdit[]) {
    this.disposables = [
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      this.lensesChanged,
      this.added,
      this.removed,
    ];
  }

  /** Draws the marks again (after any change of an edit or of its document). */
  refresh(): void {
    this.lensesChanged.fire();
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const edit = this.edits().find((candidate) => candidate.document === document);
    if (!edit) return [];
    const uri = document.uri.toString();
    const run = edit.id;
    const marks = edit.marks();
    const top = Math.min(document.lineCount - 1, Math.max(0, marks[0]?.line ?? 0));
    if (edit.running) return [lens(top, 'Loopwire is editing… Stop (Escape)', INLINE_CANCEL, { uri }, 'Stop and undo')];
    const lenses: vscode.CodeLens[] = [];
    if (marks.length > 1)
      lenses.push(
        lens(top, 'Keep All', INLINE_KEEP, { uri, run }, 'Keep every change of this inline edit'),
        lens(top, 'Undo All', INLINE_UNDO, { uri, run }, 'Take this inline edit back'),
      );
    for (const mark of marks) {
      const line = placement({ ...mark, callId: '', path: '' }, document.lineCount).lens;
      lenses.push(
        lens(line, 'Keep', INLINE_KEEP, { uri, run, hunkId: mark.hunkId }, 'Keep this change by Loopwire'),
        lens(line, 'Undo', INLINE_UNDO, { uri, run, hunkId: mark.hunkId }, 'Take this change by Loopwire back'),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  private decorate(editor: vscode.TextEditor): void {
    const document = editor.document;
    const edit = this.edits().find((candidate) => candidate.document === document);
    const added: vscode.DecorationOptions[] = [];
    const removed: vscode.DecorationOptions[] = [];
    for (const mark of edit?.marks() ?? []) {
      const place = placement({ ...mark, callId: '', path: '' }, document.lineCount);
      const hover = mark.removed.length > 0 ? removedHover(mark.removed, document.languageId) : undefined;
      if (place.added) {
        const end = document.lineAt(place.added.last).text.length;
        const range = new vscode.Range(place.added.first, 0, place.added.last, end);
        added.push(hover ? { range, hoverMessage: hover } : { range });
      }
      if (place.removed) {
        const range = document.lineAt(place.removed.line).range;
        removed.push(hover && !place.added ? { range, hoverMessage: hover } : { range });
      }
    }
    editor.setDecorations(this.added, added);
    editor.setDecorations(this.removed, removed);
  }
}
