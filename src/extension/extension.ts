import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoopwireApi } from './api';
import { SECRET_KEY } from './settings';
import type * as SessionModule from './workspaceSession';
import type { WorkspaceSession } from './workspaceSession';

/**
 * The session lives in its own bundle (dist/session.js, beside this one): required the first time a tool or
 * a task is asked for, so a window that never uses Loopwire never loads it.
 */
function loadSession(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): WorkspaceSession {
  const load = createRequire(__filename);
  const { WorkspaceSession: Session } = load(path.join(__dirname, 'session.js')) as typeof SessionModule;
  const session = new Session(context, log);
  context.subscriptions.push(session);
  return session;
}

/**
 * Activation registers what the manifest contributes and nothing more: the backend, the socket and the
 * workspace adapter start on first use, so Loopwire costs nothing in windows that never call it.
 */
export function activate(context: vscode.ExtensionContext): LoopwireApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Loopwire', { log: true });
  let session: WorkspaceSession | undefined;
  const current = () => (session ??= loadSession(context, log));
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('loopwire.showLog', () => log.show(true)),
    vscode.commands.registerCommand('loopwire.setApiKey', async () => {
      const key = await vscode.window.showInputBox({
        title: 'Loopwire: API key for the endpoint',
        prompt: 'Kept in VS Code’s secret storage, never in settings or logs.',
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      if (key.trim() === '') await context.secrets.delete(SECRET_KEY);
      else await context.secrets.store(SECRET_KEY, key.trim());
      log.info(key.trim() === '' ? 'API key removed' : 'API key stored');
    }),
  );
  const manifestVersion = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof manifestVersion === 'string' ? manifestVersion : '0.0.0';
  log.info(`Loopwire ${version} activated in ${(performance.now() - started).toFixed(1)} ms`);
  return {
    version,
    tools: {
      list: () => current().toolNames(),
      run: (name, args) => current().runTool(name, args),
    },
    agent: {
      run: (prompt, options) => current().runTask(prompt, options?.approve),
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
