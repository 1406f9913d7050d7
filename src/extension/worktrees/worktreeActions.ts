import * as vscode from 'vscode';
import {
  type WorktreeStatus,
  applyWorktree,
  createWorktree,
  discardWorktree,
  listWorktrees,
  nameProblem,
} from '../../agent';
import { keepPrompt } from './worktreePrompt';
import { runSetup, setupCommand } from './worktreeSetup';

// The worktree commands (docs/worktrees.md), each on the repository of the window's first folder. A name given
// as the command's argument (tests, keybindings) is used as it is; otherwise the user is asked. Every refusal
// of the core (a taken name, a conflict, changes not applied) is shown as its message: nothing was changed.

function repositoryFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder?.uri.scheme === 'file') return folder.uri.fsPath;
  void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder in a git repository to use worktrees.'));
  return undefined;
}

function shown(error: unknown): undefined {
  void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
  return undefined;
}

/**
 * New Chat in Worktree…: a name, whether to carry the changes, the worktree made and set up, a window on it;
 * `prompt` (the composer's "in a new worktree") is that window's first task (worktreePrompt.ts).
 */
export async function newChatInWorktree(given?: string, prompt?: string): Promise<string | undefined> {
  const folder = repositoryFolder();
  if (folder === undefined) return undefined;
  const name =
    given ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Loopwire: New Chat in Worktree'),
      prompt: vscode.l10n.t('A name for the worktree and its branch loopwire/NAME'),
      validateInput: (value) => nameProblem(value),
      ignoreFocusOut: true,
    }));
  if (name === undefined) return undefined;
  const carry = given !== undefined ? false : await askCarry();
  if (carry === undefined) return undefined;
  try {
    const record = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Making worktree {0}…', name) },
      () => createWorktree({ folder, name, carry }),
    );
    const setup = await setupCommand();
    if (setup !== undefined && !(await runSetup(record, setup))) return record.path;
    // The chat of the new window has the worktree as its workspace root: its tools and commands work there.
    if (prompt !== undefined) keepPrompt(record.path, prompt);
    if (given === undefined)
      await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(record.path), { forceNewWindow: true });
    return record.path;
  } catch (error) {
    return shown(error);
  }
}

async function askCarry(): Promise<boolean | undefined> {
  const fromHead = vscode.l10n.t('Start from HEAD');
  const carried = vscode.l10n.t('Carry my uncommitted changes');
  const picked = await vscode.window.showQuickPick([fromHead, carried], {
    title: vscode.l10n.t('Loopwire: New Chat in Worktree'),
    placeHolder: vscode.l10n.t('Your working tree is not changed either way.'),
  });
  return picked === undefined ? undefined : picked === carried;
}

/** A worktree of the repository: the one named, or the one the user picks (its state on its line). */
async function pickWorktree(folder: string, given: string | undefined): Promise<WorktreeStatus | undefined> {
  const all = await listWorktrees(folder);
  if (given !== undefined) return all.find((status) => status.record.name === given) ?? shown(notFound(given));
  if (all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Loopwire has made no worktree in this repository.'));
    return undefined;
  }
  const items = all.map((status) => ({ label: status.record.name, description: stateOf(status), status }));
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Loopwire: Worktrees') }))?.status;
}

const notFound = (name: string) => new Error(vscode.l10n.t('No worktree named {0} in this repository.', name));

function stateOf({ gone, files, unapplied, uncommitted }: WorktreeStatus): string {
  if (gone) return vscode.l10n.t('gone: its folder was removed');
  if (files.length === 0) return vscode.l10n.t('no changes');
  return unapplied
    ? vscode.l10n.t('{0} changed, not applied, {1} uncommitted', files.length, uncommitted)
    : vscode.l10n.t('{0} changed, applied', files.length);
}

/** Apply Worktree to Workspace: its changes onto the working tree, all or nothing. */
export async function applyWorktreeCommand(given?: string): Promise<string[] | undefined> {
  const folder = repositoryFolder();
  if (folder === undefined) return undefined;
  try {
    const status = await pickWorktree(folder, given);
    if (status === undefined) return undefined;
    const files = await applyWorktree(folder, status.record.name);
    void vscode.window.showInformationMessage(
      files.length === 0
        ? vscode.l10n.t('Worktree {0} has no changes to apply.', status.record.name)
        : files.length === 1
          ? vscode.l10n.t('Applied 1 file from worktree {0}: {1}', status.record.name, files.join(', '))
          : vscode.l10n.t('Applied {0} files from worktree {1}.', files.length, status.record.name),
    );
    return files;
  } catch (error) {
    return shown(error);
  }
}

/** Open Worktree in New Window. */
export async function openWorktreeCommand(given?: string): Promise<void> {
  const folder = repositoryFolder();
  if (folder === undefined) return;
  try {
    const status = await pickWorktree(folder, given);
    if (status === undefined) return;
    if (status.gone) return shown(new Error(vscode.l10n.t('The folder of worktree {0} has gone.', status.record.name)));
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(status.record.path), {
      forceNewWindow: true,
    });
  } catch (error) {
    shown(error);
  }
}

/** Discard Worktree…: asks first where anything would be lost (uncommitted or not applied). */
export async function discardWorktreeCommand(given?: string, confirmed = false): Promise<boolean> {
  const folder = repositoryFolder();
  if (folder === undefined) return false;
  try {
    const status = await pickWorktree(folder, given);
    if (status === undefined) return false;
    const risky = status.unapplied || status.uncommitted > 0;
    if (risky && !confirmed) {
      const discard = vscode.l10n.t('Discard');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Discard worktree {0}? It holds changes: {1}.', status.record.name, stateOf(status)),
        { modal: true },
        discard,
      );
      if (answer !== discard) return false;
    }
    await discardWorktree(folder, status.record.name, true);
    return true;
  } catch (error) {
    shown(error);
    return false;
  }
}
