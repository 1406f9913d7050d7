import * as vscode from 'vscode';
import type { ApprovalChoice } from '../trust/approvalChoice';
import { INLINE_OFF_KEY, inlineAllowed } from './inlineAllowed';

/**
 * Keeps `loopwire.inlineEditOff` to the approval mode in force (a pick in the composer, a settings change), so
 * Ctrl+I and the command palette's Edit Inline are not offered in `read-only` and `plan`.
 */
export function inlineOffKey(approvals: ApprovalChoice): vscode.Disposable {
  const set = () => void vscode.commands.executeCommand('setContext', INLINE_OFF_KEY, !inlineAllowed(approvals.peek()));
  set();
  return approvals.onDidChange(set);
}
