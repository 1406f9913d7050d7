import * as vscode from 'vscode';
import { placement, removedHover } from '../review/editorMarks';
import { type MarkedEdit, hunkHover, labelsOf, labelsShown, lensesOf } from './inlineAffordances';

// An inline edit in the editor, drawn as the chat's edits are (review/editorMarks.ts): added lines on the diff
// editor's inserted-line background with a bar and a ruler mark, removed lines as a line in the deleted colour
// where they were with a hover that lists them (the buffer holds the new text only, so that what the user
// keeps is what they saw). Its actions (Stop while the model writes, then Keep and Undo) are labels at the end
// of the hunks' first lines with links in the hover of the hunks' lines, or CodeLenses where inlay hints are
// off (inlineAffordances.ts).

export { INLINE_CANCEL, INLINE_KEEP, INLINE_UNDO, type InlineTarget, type MarkedEdit } from './inlineAffordances';

const colour = (id: string) => new vscode.ThemeColor(id);

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
  /** A row of actions at the end of its line, as the editor draws inlay hints. */
  private readonly label = vscode.window.createTextEditorDecorationType({
    after: {
      color: colour('editorInlayHint.foreground'),
      backgroundColor: colour('editorInlayHint.background'),
      margin: '0 0 0 1.5em',
    },
  });
  private readonly disposables: vscode.Disposable[];
  /** The last refresh asked the window for CodeLenses (an edit's file shows them: inlay hints off). */
  private lensesUsed = false;
  /** What each editor was last given, with the version of its text then (`decorate` sends only a change). */
  private readonly sent = new WeakMap<vscode.TextEditor, string>();

  constructor(private readonly edits: () => readonly MarkedEdit[]) {
    this.disposables = [
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      // Inlay hints turned off or on: the actions move between the labels and the lenses.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('editor.inlayHints')) this.refresh();
      }),
      this.lensesChanged,
      this.added,
      this.removed,
      this.label,
    ];
  }

  /**
   * Draws the marks again (after any change of an edit or of its document). Only what changed goes to the
   * window: a streamed step refreshed twice (its document's change, then its run's), and each message is work
   * for the window while the next step's edit waits behind it. Lenses are asked for again only where they are
   * shown (or were, to take them away): each change event has the window ask every provider of the file.
   */
  refresh(): void {
    const lenses = this.edits().some((edit) => !labelsShown(edit.document));
    if (lenses || this.lensesUsed) this.lensesChanged.fire();
    this.lensesUsed = lenses;
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const edit = this.edits().find((candidate) => candidate.document === document);
    return edit && !labelsShown(document) ? lensesOf(edit) : [];
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
      // The hunk's actions as links, then the lines it removed.
      const hoverMessage = [
        ...(edit ? [hunkHover(edit, mark.hunkId)] : []),
        ...(mark.removed.length > 0 ? [removedHover(mark.removed, document.languageId)] : []),
      ].filter((hover) => hover !== undefined);
      if (place.added) {
        const end = document.lineAt(place.added.last).text.length;
        added.push({ range: new vscode.Range(place.added.first, 0, place.added.last, end), hoverMessage });
      }
      if (place.removed) {
        const range = document.lineAt(place.removed.line).range;
        removed.push(place.added ? { range } : { range, hoverMessage });
      }
    }
    const labels = edit && labelsShown(document) ? this.labels(edit) : [];
    // The editor moves its decorations with its text: the same ones on the same version are there already.
    const said = JSON.stringify([document.version, added, removed, labels], (_key, value: unknown) =>
      value instanceof vscode.MarkdownString ? value.value : value,
    );
    if (this.sent.get(editor) === said) return;
    this.sent.set(editor, said);
    editor.setDecorations(this.added, added);
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.label, labels);
  }

  /** The edit's labels, each at the end of its line, its hover linking its actions. */
  private labels(edit: MarkedEdit): vscode.DecorationOptions[] {
    return labelsOf(edit).map(({ line, text, hover }) => {
      const end = edit.document.lineAt(line).range.end;
      return {
        range: new vscode.Range(end, end),
        hoverMessage: hover,
        renderOptions: { after: { contentText: text } },
      };
    });
  }
}
