import * as vscode from 'vscode';
import { type ApprovalMode, type ApprovalPolicy, type ApprovalRequest, policyFor } from '../agent';

// Asking before a write or a task runs where no chat panel shows Apply / Skip (the API's tasks, a chat
// whose panel is hidden): a modal naming the tool, what it does and its input.

/** The window's policy for `mode`; `ask` asks with the modal. */
export function windowApprovals(mode: ApprovalMode): ApprovalPolicy {
  return policyFor(mode, modalAsk());
}

/** Asks with a modal before each call; after "Allow for this task", allows the rest without asking. */
export function modalAsk(): (request: ApprovalRequest) => Promise<boolean> {
  let all = false;
  return async (request) => {
    if (all) return true;
    const forTask = vscode.l10n.t('Allow for this task');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Loopwire wants to run {0} ({1}).', request.name, request.effect),
      { modal: true, detail: request.input.slice(0, 2000) },
      vscode.l10n.t('Allow'),
      forTask,
    );
    all = choice === forTask;
    return choice !== undefined;
  };
}
