import * as vscode from 'vscode';
import type * as SessionBundle from '../runtimeBundle';
import type { WindowRuntime } from '../windowRuntime';
import { INLINE_CANCEL, INLINE_KEEP, INLINE_UNDO } from './inlineMarks';

// The inline commands, registered at activation: Edit Inline (Ctrl+I / Cmd+I in the editor), Fix with
// Loopwire (the light bulb's inline fix), and the editor's Keep / Undo / Stop of an inline edit. What they do
// is in the session's bundle (inlineActions.ts): the session — and with it the agent's code — is loaded by
// the first of them.

/**
 * The document a lens or key names (`{ uri, hunkId?, run? }`), else the active editor's, and the hunk and the
 * edit (a lens's) if any.
 */
function targetOf(value: unknown): { uri: string; hunkId?: string; run?: string } | undefined {
  if (typeof value === 'object' && value !== null) {
    const { uri, hunkId, run } = value as Record<string, unknown>;
    if (typeof uri === 'string')
      return {
        uri,
        ...(typeof hunkId === 'string' ? { hunkId } : {}),
        ...(typeof run === 'string' ? { run } : {}),
      };
  }
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  return active === undefined ? undefined : { uri: active };
}

function review(
  bundle: () => typeof SessionBundle,
  session: WindowRuntime | undefined,
  value: unknown,
  action: 'keep' | 'undo',
): Promise<void> {
  const target = targetOf(value);
  return session && target ? bundle().reviewInline(session, target, action) : Promise.resolve();
}

/** `bundle`: dist/session.js, required (once) by the first command run; `current` starts the session, `started` does not. */
export function inlineCommands(
  bundle: () => typeof SessionBundle,
  current: () => WindowRuntime,
  started: () => WindowRuntime | undefined,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('loopwire.editInline', () => bundle().editInline(current)),
    vscode.commands.registerCommand('loopwire.fixInline', (...args: unknown[]) => bundle().fixInline(current, args)),
    vscode.commands.registerCommand(INLINE_KEEP, (target?: unknown) => review(bundle, started(), target, 'keep')),
    vscode.commands.registerCommand(INLINE_UNDO, (target?: unknown) => review(bundle, started(), target, 'undo')),
    vscode.commands.registerCommand(INLINE_CANCEL, (target?: unknown) =>
      started()?.inline.cancel(targetOf(target)?.uri),
    ),
  ];
}
