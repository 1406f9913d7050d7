import * as vscode from 'vscode';
import type * as RuntimeBundle from '../runtimeBundle';
import type { WindowRuntime } from '../windowRuntime';

// What activation registers for a review of the changes (reviewChangesCommand.ts does the work, in the
// runtime's bundle, loaded on first use): Loopwire: Review Changes (the palette, the Source Control view's title
// bar, the chat's `/review`), and Fix with Loopwire on a finding's comment thread.

export const REVIEW_CHANGES_COMMAND = 'loopwire.reviewChanges';
export const FIX_FINDING_COMMAND = 'loopwire.review.fixFinding';

export function reviewChangesCommands(
  bundle: () => typeof RuntimeBundle,
  current: () => WindowRuntime,
  context: vscode.ExtensionContext,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(REVIEW_CHANGES_COMMAND, (...args: unknown[]) =>
      bundle().reviewChanges(current, context, args),
    ),
    vscode.commands.registerCommand(FIX_FINDING_COMMAND, (thread: unknown) =>
      bundle().fixFinding(current, bundle().fixInline, thread),
    ),
  ];
}
