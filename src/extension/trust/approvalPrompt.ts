import * as vscode from 'vscode';
import { type ApprovalMode, type ApprovalPolicy, type ApprovalRequest, policyFor } from '../../agent';
import { BUILTIN_TOOLS } from '../../tools';
import { type SandboxFor, machineSandbox } from './windowSandbox';

// Asking before a write or a task runs where no chat panel shows Apply / Skip (the API's tasks, a chat
// whose panel is hidden): a modal naming the tool, what it does and its input. A command the model asks to
// run outside the sandbox says so, with its reason, and is asked each time.

/** The window's policy for `mode`, its commands in this machine's sandbox where there is one; `ask` asks with the modal. */
export function windowApprovals(mode: ApprovalMode, sandboxFor: SandboxFor = machineSandbox): ApprovalPolicy {
  return policyFor(
    mode,
    modalAsk(),
    undefined,
    sandboxFor(() => mode),
  );
}

/** Asks with a modal before each call; after "Allow for this task", allows the rest without asking. */
export function modalAsk(): (request: ApprovalRequest) => Promise<boolean> {
  let all = false;
  return async (request) => {
    if (request.escalation) return askEscalation(request);
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

/** Leaving the sandbox is allowed once at a time: "for this task" covers calls that stay in it. */
async function askEscalation(request: ApprovalRequest): Promise<boolean> {
  const view = BUILTIN_TOOLS.approval(request.name, request.input);
  const once = vscode.l10n.t('Allow once');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Loopwire wants to run a command outside the sandbox: {0}', view?.object ?? request.name),
    // The tool's detail: the line, its folder and the model's reason, marked as the model's.
    { modal: true, detail: (view?.detail ?? request.input).slice(0, 2000) },
    once,
  );
  return choice === once;
}
