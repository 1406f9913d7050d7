import * as vscode from 'vscode';
import type { Workspace } from '../../workspace';
import type { ReviewMark } from './reviewBook';
import { type HunkTarget, KEEP_COMMAND, UNDO_COMMAND } from './reviewCommands';

// The agent's changes in the editor, the way the panel's cards show them: in every visible editor on a file
// an edit of this chat wrote, the hunks still waiting for a decision are marked — added lines with the diff
// editor's inserted-line background, a bar at their left edge and a mark in the overview ruler; removed lines
// with a line in the deleted colour where they were and a hover that lists them — and each hunk has a
// CodeLens with Keep and Undo. The marks follow the review (its onChange: a decision here or on the panel, the
// user's undo or typing) and the editors shown. Nothing here opens an editor or moves focus.

/** What the marks read: the chat's review (`ChatController.reviews`). */
export interface ReviewSource {
  marks(): ReviewMark[];
  onChange(listener: () => void): () => void;
}

/** Where one mark goes in a document of `lineCount` lines (0-based lines, clamped to the document). */
export interface Placement {
  /** The added lines, first and last; absent for a pure deletion. */
  added?: { first: number; last: number };
  /** Where lines were removed: a line above `line` (or, at the end of the document, below it). */
  removed?: { line: number; below: boolean };
  /** The line the Keep / Undo lens sits above. */
  lens: number;
}

export function placement(mark: ReviewMark, lineCount: number): Placement {
  const lastLine = Math.max(0, lineCount - 1);
  const start = Math.min(Math.max(0, mark.line), lastLine);
  const result: Placement = { lens: start };
  if (mark.added > 0) result.added = { first: start, last: Math.min(lastLine, mark.line + mark.added - 1) };
  if (mark.removed.length > 0)
    result.removed = mark.line > lastLine ? { line: lastLine, below: true } : { line: start, below: false };
  return result;
}

/** The hover over a hunk that removed lines: those lines, in the document's language. */
export function removedHover(removed: readonly string[], languageId: string): vscode.MarkdownString {
  const text = removed.join('\n');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const said =
    removed.length === 1
      ? vscode.l10n.t('Loopwire removed 1 line here:')
      : vscode.l10n.t('Loopwire removed {0} lines here:', removed.length);
  return new vscode.MarkdownString(`${said}\n\n${fence}${languageId}\n${text}\n${fence}\n`);
}

const colour = (id: string) => new vscode.ThemeColor(id);

export class ReviewMarks implements vscode.CodeLensProvider, vscode.Disposable {
  /** The marks by the URI string of the file they are in. */
  private byFile = new Map<string, ReviewMark[]>();
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
  private readonly removedAbove = this.removedType('2px 0 0 0');
  private readonly removedBelow = this.removedType('0 0 2px 0');
  private readonly disposables: vscode.Disposable[];
  /** Bumped by each refresh, so that a slower one never overwrites a newer one. */
  private generation = 0;

  constructor(
    private readonly reviews: ReviewSource,
    private readonly workspace: () => Promise<Pick<Workspace, 'locate'>>,
  ) {
    const stop = reviews.onChange(() => void this.refresh());
    this.disposables = [
      { dispose: stop },
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
      this.lensesChanged,
      this.added,
      this.removedAbove,
      this.removedBelow,
    ];
    // A chat found again after a reload already has reviews.
    void this.refresh();
  }

  /** Reads the marks again (after any change of the review); resolves once the editors show them. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const marks = this.reviews.marks();
    if (marks.length === 0 && this.byFile.size === 0) return;
    const workspace = marks.length > 0 ? await this.workspace().catch(() => undefined) : undefined;
    if (generation !== this.generation) return;
    const byFile = new Map<string, ReviewMark[]>();
    for (const mark of marks) {
      let key: string;
      try {
        if (!workspace) break;
        key = vscode.Uri.file(workspace.locate(mark.path).absolute).toString();
      } catch {
        continue;
      }
      byFile.set(key, [...(byFile.get(key) ?? []), mark]);
    }
    this.byFile = byFile;
    this.lensesChanged.fire();
    this.decorate();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return (this.byFile.get(document.uri.toString()) ?? []).flatMap((mark) => {
      const line = placement(mark, document.lineCount).lens;
      const at = new vscode.Range(line, 0, line, 0);
      const target: HunkTarget = { callId: mark.callId, path: mark.path, hunkId: mark.hunkId };
      return [
        new vscode.CodeLens(at, {
          title: vscode.l10n.t('Keep'),
          tooltip: vscode.l10n.t('Keep this change by Loopwire'),
          command: KEEP_COMMAND,
          arguments: [target],
        }),
        new vscode.CodeLens(at, {
          title: vscode.l10n.t('Undo'),
          tooltip: vscode.l10n.t('Take this change by Loopwire back'),
          command: UNDO_COMMAND,
          arguments: [target],
        }),
      ];
    });
  }

  dispose(): void {
    this.generation++;
    for (const disposable of this.disposables) disposable.dispose();
  }

  private decorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const document = editor.document;
      const marks = document.uri.scheme === 'file' ? (this.byFile.get(document.uri.toString()) ?? []) : [];
      const added: vscode.DecorationOptions[] = [];
      const above: vscode.DecorationOptions[] = [];
      const below: vscode.DecorationOptions[] = [];
      for (const mark of marks) {
        const place = placement(mark, document.lineCount);
        const hover = mark.removed.length > 0 ? removedHover(mark.removed, document.languageId) : undefined;
        if (place.added) {
          const range = new vscode.Range(
            place.added.first,
            0,
            place.added.last,
            document.lineAt(place.added.last).text.length,
          );
          added.push(hover ? { range, hoverMessage: hover } : { range });
        }
        if (place.removed) {
          const line = document.lineAt(place.removed.line).range;
          // Over added lines, their own decoration carries the hover.
          (place.removed.below ? below : above).push(
            hover && !place.added ? { range: line, hoverMessage: hover } : { range: line },
          );
        }
      }
      editor.setDecorations(this.added, added);
      editor.setDecorations(this.removedAbove, above);
      editor.setDecorations(this.removedBelow, below);
    }
  }

  private removedType(borderWidth: string): vscode.TextEditorDecorationType {
    return vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderColor: colour('editorGutter.deletedBackground'),
      borderStyle: 'solid',
      borderWidth,
      overviewRulerColor: colour('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
  }
}
