import * as vscode from 'vscode';
import { placement } from '../review/editorMarks';
import type { InlineMark } from './inlineEdit';

// What an inline edit offers in the editor, as rows of actions on lines: while the model writes, Stop; then
// Keep and Undo at each hunk, and Keep All / Undo All at the first when there are several. Each row is drawn
// as a label at the end of its line (a decoration, in the inlay hints' colours, with each action's key), and
// its actions as links in the hover of the hunk's lines; the keys (package.json) act on the hunk nearest the
// cursor. A decoration is drawn as soon as the editor gets it, where CodeLens waits 250 ms or more after any
// change (issue 47's bench measured lenses 276–686 ms warm and up to 9 s cold after the edit's end) and inlay
// hints a debounce (the mean time a request took, 25 ms at least) and every other provider's hints, and hide
// themselves for 800 ms on the cursor's line after a change. Where the user turned inlay hints off
// (`editor.inlayHints.enabled`) no label is drawn in the text: the actions are CodeLenses. Every action names its
// edit's run, so a stale one does nothing (InlineController.review).

export const INLINE_KEEP = 'loopwire.inline.keep';
export const INLINE_UNDO = 'loopwire.inline.undo';
export const INLINE_CANCEL = 'loopwire.inline.cancel';

/** What an action names: the document and a hunk, or no hunk for the whole edit; the edit it was drawn for. */
export interface InlineTarget {
  uri: string;
  hunkId?: string;
  run?: string;
}

/** One document's inline edit, as the marks read it. */
export interface MarkedEdit {
  /** The edit's run (its lane), which its actions name. */
  readonly id: string;
  readonly document: vscode.TextDocument;
  /** The model is still writing (its action stops it). */
  readonly running: boolean;
  marks(): InlineMark[];
}

/** What a key does, as package.json binds it while an edit waits (`loopwire.inlineReview`). */
type Key = 'keep' | 'undo' | 'keepAll' | 'undoAll';

interface Action {
  title: string;
  command: string;
  target: InlineTarget;
  tooltip: string;
  key?: Key;
}

/** The actions on one line (0-based); `above`: the whole edit's, drawn on the line before its first hunk. */
interface Row {
  line: number;
  actions: Action[];
  above?: boolean;
}

/** The keys' labels: Cmd on a Mac, Ctrl elsewhere (the extension host's platform: a remote one may differ). */
const KEYS: Record<Key, string> =
  process.platform === 'darwin'
    ? { keep: '⌘Y', undo: '⌘N', keepAll: '⌥⌘Y', undoAll: '⌥⌘N' }
    : { keep: 'Ctrl+Y', undo: 'Ctrl+N', keepAll: 'Ctrl+Alt+Y', undoAll: 'Ctrl+Alt+N' };

/** The rows of `edit`, top first. */
function rowsOf(edit: MarkedEdit): Row[] {
  const document = edit.document;
  const uri = document.uri.toString();
  const run = edit.id;
  const marks = edit.marks();
  const top = Math.min(document.lineCount - 1, Math.max(0, marks[0]?.line ?? 0));
  if (edit.running)
    return [
      {
        line: top,
        actions: [
          {
            title: 'Loopwire is editing… Stop (Escape)',
            command: INLINE_CANCEL,
            target: { uri },
            tooltip: 'Stop and undo',
          },
        ],
      },
    ];
  const rows: Row[] = [];
  if (marks.length > 1)
    rows.push({
      line: top,
      above: true,
      actions: [
        {
          title: 'Keep All',
          command: INLINE_KEEP,
          target: { uri, run },
          tooltip: 'Keep every change of this inline edit',
          key: 'keepAll',
        },
        {
          title: 'Undo All',
          command: INLINE_UNDO,
          target: { uri, run },
          tooltip: 'Take this inline edit back',
          key: 'undoAll',
        },
      ],
    });
  for (const mark of marks) {
    const line = placement({ ...mark, callId: '', path: '' }, document.lineCount).lens;
    const target = { uri, run, hunkId: mark.hunkId };
    rows.push({
      line,
      actions: [
        { title: 'Keep', command: INLINE_KEEP, target, tooltip: 'Keep this change by Loopwire', key: 'keep' },
        { title: 'Undo', command: INLINE_UNDO, target, tooltip: 'Take this change by Loopwire back', key: 'undo' },
      ],
    });
  }
  return rows;
}

/** `edit`'s actions as CodeLenses above their lines (where inlay hints are off). */
export function lensesOf(edit: MarkedEdit): vscode.CodeLens[] {
  return rowsOf(edit).flatMap((row) =>
    row.actions.map((action) => {
      const tooltip = action.key ? `${action.tooltip} (${KEYS[action.key]})` : action.tooltip;
      const command = { title: action.title, tooltip, command: action.command, arguments: [action.target] };
      return new vscode.CodeLens(new vscode.Range(row.line, 0, row.line, 0), command);
    }),
  );
}

/** A row of actions at the end of its line: its label, and the hover whose links run them. */
export interface Label {
  line: number;
  text: string;
  hover: vscode.MarkdownString;
}

/**
 * `edit`'s labels: Keep All / Undo All on the line before the first hunk (as its lens sat above it), or beside
 * the first hunk's when it is the file's first line. Their hovers, and `hunkHover`, link the actions.
 */
export function labelsOf(edit: MarkedEdit): Label[] {
  const byLine = new Map<number, Action[]>();
  for (const row of rowsOf(edit)) {
    const line = row.above && row.line > 0 ? row.line - 1 : row.line;
    byLine.set(line, [...(byLine.get(line) ?? []), ...row.actions]);
  }
  return [...byLine].map(([line, actions]) => ({ line, text: labelText(actions), hover: hoverOf(actions) }));
}

/** The links of the actions on the hunk `hunkId` and the whole edit's, for the hover of the hunk's lines. */
export function hunkHover(edit: MarkedEdit, hunkId: string): vscode.MarkdownString | undefined {
  const actions = rowsOf(edit).flatMap((row) =>
    row.actions.filter((action) => action.target.hunkId === undefined || action.target.hunkId === hunkId),
  );
  // The hunk's own first, then the whole edit's.
  const own = actions.filter((action) => action.target.hunkId !== undefined);
  const whole = actions.filter((action) => action.target.hunkId === undefined);
  return actions.length > 0 ? hoverOf([...own, ...whole]) : undefined;
}

/** `Keep Ctrl+Y · Undo Ctrl+N`: the titles and their keys. */
function labelText(actions: Action[]): string {
  return actions.map((action) => (action.key ? `${action.title} ${KEYS[action.key]}` : action.title)).join(' · ');
}

function hoverOf(actions: Action[]): vscode.MarkdownString {
  const links = actions.map((action) => {
    const args = encodeURIComponent(JSON.stringify([action.target]));
    const tooltip = action.key ? `${action.tooltip} (${KEYS[action.key]})` : action.tooltip;
    return `[${action.title}](command:${action.command}?${args} "${tooltip}")`;
  });
  const hover = new vscode.MarkdownString(links.join(' · '));
  hover.isTrusted = { enabledCommands: [INLINE_KEEP, INLINE_UNDO, INLINE_CANCEL] };
  return hover;
}

/**
 * Whether the user sees inlay hints in `document` without holding a key (`on`, `onUnlessPressed`), and so
 * text the editor adds to a line: the labels are drawn; else the actions are CodeLenses, slower but shown.
 */
export function labelsShown(document: vscode.TextDocument): boolean {
  const enabled = vscode.workspace.getConfiguration('editor.inlayHints', document).get<string>('enabled', 'on');
  return enabled === 'on' || enabled === 'onUnlessPressed';
}

/**
 * The hunk of `marks` nearest `line` (0-based): the one whose lines hold it, else the closest above or below,
 * the earlier on a tie. What Ctrl+Y and Ctrl+N act on.
 */
export function nearestHunk(marks: readonly InlineMark[], line: number, lineCount: number): string | undefined {
  let best: { id: string; distance: number } | undefined;
  for (const mark of marks) {
    const place = placement({ ...mark, callId: '', path: '' }, lineCount);
    const first = place.added?.first ?? place.lens;
    const last = place.added?.last ?? place.lens;
    const distance = line < first ? first - line : line > last ? line - last : 0;
    if (!best || distance < best.distance) best = { id: mark.hunkId, distance };
  }
  return best?.id;
}
