import * as vscode from 'vscode';

// The editor's Keep / Undo on a hunk the agent wrote (the CodeLens above it): the same action as the panel's
// Accept / Reject, through the chat's review. Part of activation (the commands are registered there), so it
// imports nothing of the session: the chat comes in as an argument.

export const KEEP_COMMAND = 'loopwire.review.keep';
export const UNDO_COMMAND = 'loopwire.review.undo';

/** The hunk a lens names: its edit (the tool call), workspace path and id. */
export interface HunkTarget {
  callId: string;
  path: string;
  hunkId: string;
}

/** What the commands need of the chat. */
export interface HunkReviewer {
  reviewHunk(callId: string, path: string, hunkId: string, action: 'accept' | 'reject'): Promise<void>;
}

export function isHunkTarget(value: unknown): value is HunkTarget {
  if (typeof value !== 'object' || value === null) return false;
  const { callId, path, hunkId } = value as Record<string, unknown>;
  return typeof callId === 'string' && typeof path === 'string' && typeof hunkId === 'string';
}

/**
 * Keeps (`accept`) or takes back (`reject`) the hunk `target` names. Never throws: a refusal (the lines
 * changed since, the edit is from an earlier session) is shown as a warning, anything else as an error.
 */
export async function reviewFromEditor(
  chat: HunkReviewer | undefined,
  target: unknown,
  action: 'accept' | 'reject',
): Promise<void> {
  if (!chat || !isHunkTarget(target)) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Keep and Undo run from the marks Loopwire puts above the lines it changed.'),
    );
    return;
  }
  try {
    await chat.reviewHunk(target.callId, target.path, target.hunkId, action);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && error.name === 'ReviewRefused') void vscode.window.showWarningMessage(message);
    else
      void vscode.window.showErrorMessage(
        action === 'accept'
          ? vscode.l10n.t('Loopwire could not keep that change: {0}', message)
          : vscode.l10n.t('Loopwire could not undo that change: {0}', message),
      );
  }
}
