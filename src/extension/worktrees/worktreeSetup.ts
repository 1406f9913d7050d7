import * as vscode from 'vscode';
import { type WorktreeRecord, worktreeConfinement } from '../../agent';
import { sandboxSupport } from '../../sandbox';
import { NodeWorkspace } from '../../workspace/node/nodeWorkspace';

// The setting loopwire.worktree.setup (`npm ci`): a program the user chose, run once in a new worktree before
// its chat starts, so it is not asked about; in workspace-write with the network on where there is a sandbox,
// unconfined where there is none, its output in the Loopwire Worktrees output channel.

const SETUP_TIMEOUT_MS = 30 * 60_000;
let channel: vscode.OutputChannel | undefined;

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
