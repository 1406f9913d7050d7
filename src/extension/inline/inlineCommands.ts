import * as vscode from 'vscode';
import type * as SessionBundle from '../runtimeBundle';
import type { WindowRuntime } from '../windowRuntime';
import { INLINE_CANCEL, INLINE_KEEP, INLINE_UNDO } from './inlineAffordances';

// The inline commands, registered at activation: Edit Inline (Ctrl+I / Cmd+I in the editor), Fix with
// Loopwire (the light bulb's inline fix), and the editor's Keep / Undo / Stop of an inline edit. What they do
// is in the session's bundle (inlineActions.ts): the session — and with it the agent's code — is loaded by
// the first of them.

/** What a Keep or Undo acts on: a hunk or the whole edit, or (`line`: a key's) the hunk nearest that line. */
type Target = { uri: string; hunkId?: string; run?: string; line?: number };

/**
 * The document an action or key names (`{ uri, hunkId?, run? }`), else the active editor's, and the hunk and
 * the edit (an action's) if any; a key's `{ at: 'cursor' }` names the active editor's cursor line.
 */
function targetOf(value: unknown): Target | undefined {
  const editor = vscode.window.activeTextEditor;
  if (typeof value === 'object' && value !== null) {
    const { uri, hunkId, run, at } = value as Record<string, unknown>;
    if (at === 'cursor' && editor) return { uri: editor.document.uri.toString(), line: editor.selection.active.line };
    if (typeof uri === 'string')
      return {
        uri,
        ...(typeof hunkId === 'string' ? { hunkId } : {}),
        ...(typeof run === 'string' ? { run } : {}),
      };
  }
  const active = editor?.document.uri.toString();
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
