import * as vscode from 'vscode';
import type { LoopwireApi } from './api';

/**
 * Activation does no work beyond registering what the manifest contributes: the backend, the session and
 * the tools start on first use, so Loopwire costs nothing in windows that never call it.
 */
export function activate(context: vscode.ExtensionContext): LoopwireApi {
  const log = vscode.window.createOutputChannel('Loopwire', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('loopwire.showLog', () => log.show(true)),
  );
  const manifestVersion = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof manifestVersion === 'string' ? manifestVersion : '0.0.0';
  log.info(`Loopwire ${version} activated`);
  return { version };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
