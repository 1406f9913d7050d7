import * as vscode from 'vscode';
import { selectedLines } from '../commands/selectedLines';
import type { WindowRuntime } from '../windowRuntime';
import { inlineAllowed } from './inlineAllowed';
import { askInline } from './inlinePrompt';
import { type InlineProblem, type InlineRequest, linesAround, problemsIn } from './inlineRequest';

// What the inline commands do (inlineCommands.ts registers them at activation): Edit Inline (Ctrl+I / Cmd+I in
// the editor), Fix with Loopwire (the light bulb's inline fix), and Keep / Undo of an inline edit. In the
// session's bundle (dist/session.js): each of them starts the window's session, or needs it started.

/** Lines sent each side of a problem the light bulb fixes inline. */
const AROUND_PROBLEM = 2;

const SEVERITY: Record<vscode.DiagnosticSeverity, InlineProblem['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function problemOf(diagnostic: vscode.Diagnostic): InlineProblem & { endLine: number } {
  const source = diagnostic.source;
  return {
    line: diagnostic.range.start.line + 1,
    endLine: diagnostic.range.end.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITY[diagnostic.severity],
    message: diagnostic.message,
    ...(source ? { source } : {}),
  };
}

/** What an inline request of `kind` on lines `first`..`last` of `document` sends. */
function requestOf(
  kind: InlineRequest['kind'],
  document: vscode.TextDocument,
  path: string,
  lines: { first: number; last: number },
  instruction: string,
  problem?: InlineProblem,
): InlineRequest {
  const text: string[] = [];
  for (let line = lines.first; line <= lines.last; line++) text.push(document.lineAt(line - 1).text);
  const problems = problemsIn(vscode.languages.getDiagnostics(document.uri).map(problemOf), lines.first, lines.last);
  const found = problem && problems.find((p) => p.line === problem.line && p.message === problem.message);
  return {
    kind,
    path,
    languageId: document.languageId,
    ...lines,
    lines: text,
    instruction,
    ...(problem ? { problem: found ?? problem } : {}),
    problems,
  };
}

/**
 * Inline edits write the file: not offered where the approval mode lets nothing be written (the light bulb and
 * Ctrl+I follow `loopwire.inlineEditOff`); a command run anyway (before activation set the key) says why. The
 * mode in force is the session's (approvalChoice.ts: a workspace's settings may make it stricter, never looser).
 */
function allowed(current: () => WindowRuntime): boolean {
  const mode = current().approvalMode();
  if (inlineAllowed(mode)) return true;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      "Loopwire's approval mode is {0}: inline edits write the file, so they are off. Ask in the chat instead.",
      mode,
    ),
  );
  return false;
}

export async function editInline(current: () => WindowRuntime): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !allowed(current)) return undefined;
  const document = editor.document;
  const lines = editor.selection.isEmpty
    ? linesAround(editor.selection.active.line, document.lineCount)
    : selectedLines(editor.selection);
  const inline = current().inline;
  // The agent is made and its lane warmed while the user types.
  const opening = inline.open(document);
  const where = `${vscode.workspace.asRelativePath(document.uri)}:${lines.first}–${lines.last}`;
  const answer = await askInline(editor, where, lines.first, lines.last);
  const run = await opening;
  if (!run) return undefined;
  if (!answer) {
    inline.dismiss(run);
    return undefined;
  }
  const request = requestOf('edit', document, run.path, lines, answer.text);
  // Nothing selected: the chat's entry names the cursor's line, not the first of the lines around it.
  const cursor = editor.selection.isEmpty ? { cursor: editor.selection.active.line + 1 } : {};
  return inline.send(run, { ...request, ...cursor }, answer.at);
}

export async function fixInline(current: () => WindowRuntime, args: unknown[]): Promise<string | undefined> {
  const [uri, range, message] = args;
  if (!(uri instanceof vscode.Uri) || !(range instanceof vscode.Range) || typeof message !== 'string') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Fix with Loopwire runs from the quick-fix menu of a problem.'),
    );
    return undefined;
  }
  if (!allowed(current)) return undefined;
  const sentAt = performance.now();
  const document = await vscode.workspace.openTextDocument(uri);
  const inline = current().inline;
  const run = await inline.open(document);
  if (!run) return undefined;
  const lines = {
    first: Math.max(1, range.start.line + 1 - AROUND_PROBLEM),
    last: Math.min(document.lineCount, range.end.line + 1 + AROUND_PROBLEM),
  };
  const problem: InlineProblem = {
    line: range.start.line + 1,
    column: range.start.character + 1,
    severity: 'error',
    message,
  };
  return inline.send(run, requestOf('fix', document, run.path, lines, message, problem), sentAt);
}

/**
 * Keep or Undo of an inline edit's hunk (or all of the document's), from its action; by key (`line`), the
 * hunk nearest the cursor.
 */
export async function reviewInline(
  session: WindowRuntime,
  target: { uri: string; hunkId?: string; run?: string; line?: number },
  action: 'keep' | 'undo',
): Promise<void> {
  try {
    if (target.line !== undefined) await session.inline.reviewNearest(target.uri, target.line, action);
    else await session.inline.review(target.uri, target.hunkId, action, target.run);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showWarningMessage(
      action === 'keep'
        ? vscode.l10n.t('Loopwire could not keep that change: {0}', message)
        : vscode.l10n.t('Loopwire could not undo that change: {0}', message),
    );
  }
}
