import * as vscode from 'vscode';
import { type WorktreeRecord, worktreeConfinement } from '../../agent';
import { sandboxSupport } from '../../sandbox';
import { NodeWorkspace } from '../../workspace/node/nodeWorkspace';

// The setting loopwire.worktree.setup (`npm ci`): a program run once in a new worktree before its chat
// starts, in workspace-write with the network on where there is a sandbox, unconfined where there is none, its
// output in the Loopwire Worktrees output channel. The user's own setting is their choice and runs unasked; a
// workspace's (.vscode/settings.json, a .code-workspace file) is the repository's, written by whoever wrote
// the repository, so it runs only after the user, shown the command, says yes (an untrusted workspace's is
// never read: the manifest restricts the setting).

const SETUP_TIMEOUT_MS = 30 * 60_000;
let channel: vscode.OutputChannel | undefined;

/** The setup command to run: the user's, or the workspace's once the user said yes to it; undefined: none. */
export async function setupCommand(): Promise<string | undefined> {
  const inspected = vscode.workspace.getConfiguration('loopwire').inspect<string>('worktree.setup');
  const fromWorkspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  const line = (fromWorkspace ?? inspected?.globalValue ?? '').trim();
  if (line === '') return undefined;
  if (fromWorkspace === undefined) return line;
  const run = vscode.l10n.t('Run It');
  const skip = vscode.l10n.t('Skip');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t("Run this workspace's worktree setup command in the new worktree?"),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0}\n\nThe workspace settings (loopwire.worktree.setup) name it, not your own settings: run it only if you trust what it does.',
        line,
      ),
    },
    run,
    skip,
  );
  return answer === run ? line : undefined;
}

/** Runs the setup command in the worktree; whether it succeeded (a failure is shown, the worktree kept). */
export async function runSetup(record: WorktreeRecord, line: string): Promise<boolean> {
  channel ??= vscode.window.createOutputChannel('Loopwire Worktrees');
  channel.appendLine(`$ ${line}    (${record.path})`);
  channel.show(true);
  const workspace = await NodeWorkspace.open(record.path, { confinement: worktreeConfinement(record) });
  const sandbox = sandboxSupport().available
    ? { policy: { mode: 'workspace-write', network: true } as const }
    : undefined;
  const run = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Setting up worktree {0}…', record.name) },
    () => workspace.runCommand(line, { timeoutMs: SETUP_TIMEOUT_MS, sandbox }),
  );
  channel.append(run.output.endsWith('\n') || run.output === '' ? run.output : `${run.output}\n`);
  if (run.exitCode === 0) return true;
  void vscode.window.showErrorMessage(
    vscode.l10n.t(
      'The worktree setup command failed (exit {0}); worktree {1} is kept: discard it or set it up by hand.',
      String(run.exitCode),
      record.name,
    ),
  );
  return false;
}
