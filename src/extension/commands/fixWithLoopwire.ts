import * as vscode from 'vscode';
import type { ApprovalMode } from '../../agent/activation';
import { codeBlock } from './codeBlock';
import { fixOffers } from '../inline/inlineAllowed';

// The light bulb's two fixes, offered only where a diagnostic is: **Fix with Loopwire** (first) fixes it inline
// — the problem, its lines and the problems around them go as an inline request on that range, and the edit
// streams into the editor (inline/inlineCommands.ts); **Fix in Chat** starts a task in the chat panel scoped
// to that diagnostic — its message, where it is, and the code around it — on the window's runtime. In
// `read-only` and `plan` only Fix in Chat is offered: an inline edit writes the file (inline/inlineAllowed.ts).

export const FIX_KIND = vscode.CodeActionKind.QuickFix.append('loopwire');
export const INLINE_FIX_KIND = FIX_KIND.append('inline');
export const CHAT_FIX_KIND = FIX_KIND.append('chat');

export class FixWithLoopwire implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [INLINE_FIX_KIND, CHAT_FIX_KIND],
  };

  /** `mode`: the approval mode in force, read without loading the session (approvalChoice.ts). */
  constructor(private readonly mode: () => ApprovalMode) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const offers = context.diagnostics.length > 0 ? fixOffers(this.mode()) : [];
    return context.diagnostics.slice(0, 1).flatMap((diagnostic) => {
      const args = [document.uri, diagnostic.range, diagnostic.message];
      return offers.map((offer) => {
        const action =
          offer === 'inline'
            ? new vscode.CodeAction(vscode.l10n.t('Fix with Loopwire'), INLINE_FIX_KIND)
            : new vscode.CodeAction(vscode.l10n.t('Fix in Chat'), CHAT_FIX_KIND);
        action.diagnostics = [diagnostic];
        const command = offer === 'inline' ? 'loopwire.fixInline' : 'loopwire.fix';
        action.command = { command, title: action.title, arguments: args };
        return action;
      });
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
