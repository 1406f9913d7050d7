import * as vscode from 'vscode';
import { EndpointAccess } from './endpointAccess';
import { selectEndpoint } from './selectEndpoint';
import { setApiKey } from './setApiKey';

// The two commands that set up a real endpoint: Set API Key… and Select Endpoint…. Both leave the window's
// session to build its backend again (`changed`), so the next request — a Retry of a task the endpoint
// refused included — goes with the new key or endpoint, in the same chat.

export interface EndpointRuntime {
  /** The window's runtime, if it was started: the key or endpoint changed. */
  changed(): void;
  /** Checks the endpoint now in use (the window's runtime is started for it). */
  check(): Promise<{ ok: boolean; text: string }>;
}

export function endpointCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  session: EndpointRuntime,
): { access: EndpointAccess; disposables: vscode.Disposable[] } {
  const access = new EndpointAccess(context.secrets, context.workspaceState, (line) => log.info(line));
  const disposables = [
    vscode.commands.registerCommand('loopwire.setApiKey', async (endpoint?: unknown) => {
      const changed = await setApiKey(access, typeof endpoint === 'string' ? endpoint : undefined);
      if (changed) session.changed();
      return changed;
    }),
    vscode.commands.registerCommand('loopwire.selectEndpoint', async () => {
      const endpoint = await selectEndpoint();
      if (endpoint === undefined) return;
      if (endpoint !== 'embedded' && !(await access.keys.has(endpoint))) await setApiKey(access, endpoint);
      session.changed();
      await report(await session.check(), log);
    }),
  ];
  return { access, disposables };
}

/** The check's sentence as a notification; a failure offers what mends it. */
async function report(check: { ok: boolean; text: string; cause?: string }, log: vscode.LogOutputChannel) {
  log.info(`endpoint check: ${check.text}`);
  if (check.ok) {
    void vscode.window.showInformationMessage(`Loopwire: ${check.text}`);
    return;
  }
  const setKey = vscode.l10n.t('Set API Key…');
  const select = vscode.l10n.t('Select Endpoint…');
  const fix = check.cause === 'auth' ? setKey : check.cause === 'unreachable' ? select : vscode.l10n.t('Show Log');
  const picked = await vscode.window.showErrorMessage(`Loopwire: ${check.text}`, fix);
  if (picked === undefined) return;
  if (picked === setKey) await vscode.commands.executeCommand('loopwire.setApiKey');
  else if (picked === select) await vscode.commands.executeCommand('loopwire.selectEndpoint');
  else log.show(true);
}
