import * as vscode from 'vscode';
import type * as RuntimeBundle from '../runtimeBundle';

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
