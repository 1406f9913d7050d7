import * as vscode from 'vscode';
import { codeBlock } from './codeBlock';

// "Fix with Loopwire": a quick fix offered only where a diagnostic is, which starts a task scoped to that
// diagnostic — its message, where it is, and the code around it — on the window's session.

export const FIX_KIND = vscode.CodeActionKind.QuickFix.append('loopwire');

export class FixWithLoopwire implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [FIX_KIND] };

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return context.diagnostics.slice(0, 1).map((diagnostic) => {
      const action = new vscode.CodeAction('Fix with Loopwire', FIX_KIND);
      action.diagnostics = [diagnostic];
      action.command = {
        command: 'loopwire.fix',
        title: 'Fix with Loopwire',
        arguments: [document.uri, diagnostic.range, diagnostic.message],
      };
      return action;
    });
  }
}

/** The task's prompt: the problem, where it is (workspace-relative, 1-based) and the lines around it. */
export function fixPrompt(document: vscode.TextDocument, range: vscode.Range, message: string): string {
  const where = vscode.workspace.asRelativePath(
    document.uri,
    vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1,
  );
  const first = Math.max(0, range.start.line - 3);
  const last = Math.min(document.lineCount - 1, range.end.line + 3);
  const lines: string[] = [];
  for (let line = first; line <= last; line++)
    lines.push(`${String(line + 1).padStart(4)} | ${document.lineAt(line).text}`);
  return [
    `Fix this problem in ${where} at line ${range.start.line + 1}, column ${range.start.character + 1}: ${message}`,
    '',
    'The code around it:',
    '',
    codeBlock(lines.join('\n')),
  ].join('\n');
}
