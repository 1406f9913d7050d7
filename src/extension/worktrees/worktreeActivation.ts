import * as vscode from 'vscode';
import type * as RuntimeBundle from '../runtimeBundle';
import { promptWaits } from './worktreePrompt';

// What activation registers for tasks in their own git worktree (worktreeActions.ts does the work, in the
// runtime's bundle, loaded on first use): New Chat in Worktree…, Apply Worktree to Workspace, Open Worktree
// in New Window, Discard Worktree….

export const WORKTREE_COMMANDS = {
  newChat: 'loopwire.worktree.newChat',
  apply: 'loopwire.worktree.apply',
  open: 'loopwire.worktree.open',
  discard: 'loopwire.worktree.discard',
} as const;

export function worktreeCommands(bundle: () => typeof RuntimeBundle): vscode.Disposable[] {
  showWaitingPrompt();
  return [
    vscode.commands.registerCommand(WORKTREE_COMMANDS.newChat, (name?: unknown) =>
      bundle().newChatInWorktree(typeof name === 'string' ? name : undefined),
    ),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.apply, (name?: unknown) =>
      bundle().applyWorktreeCommand(typeof name === 'string' ? name : undefined),
    ),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.open, (name?: unknown) =>
      bundle().openWorktreeCommand(typeof name === 'string' ? name : undefined),
    ),
    vscode.commands.registerCommand(WORKTREE_COMMANDS.discard, (name?: unknown) =>
      bundle().discardWorktreeCommand(typeof name === 'string' ? name : undefined),
    ),
  ];
}

/**
 * A window opened on a worktree whose prompt waits for it (the composer's "in a new worktree", in the window
 * that made it): the chat is shown, which starts the runtime, and its cards' first watch runs the prompt. A
 * new window shows the Explorer, and nothing else would start Loopwire there (onStartupFinished brings us here).
 */
function showWaitingPrompt(): void {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder?.uri.scheme === 'file' && promptWaits(folder.uri.fsPath))
    void vscode.commands.executeCommand('loopwire.chat.focus');
}
