import * as vscode from 'vscode';

// "Select Endpoint…": the bundled backend (offline, scripted) or a Responses API base URL. The choice is a
// user setting; the window's backend and socket are replaced before the next task (endpointCommands.ts asks
// for the key the endpoint needs and checks it).

/** The endpoint chosen and written to the user's settings, or undefined when the user backed out. */
export async function selectEndpoint(): Promise<string | undefined> {
  const config = vscode.workspace.getConfiguration('loopwire');
  const now = config.get<string>('endpoint', 'embedded');
  const choice = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('Embedded'),
        description: now === 'embedded' ? vscode.l10n.t('(current)') : '',
        detail: vscode.l10n.t('The bundled backend in-process: offline, a scripted model. For trying Loopwire out.'),
        value: 'embedded',
      },
      {
        label: 'OpenAI',
        description: now === 'https://api.openai.com/v1' ? vscode.l10n.t('(current)') : '',
        detail: vscode.l10n.t('{0} — asks for the key when none is stored for it.', 'https://api.openai.com/v1'),
        value: 'https://api.openai.com/v1',
      },
      {
        label: vscode.l10n.t('Other URL…'),
        detail: vscode.l10n.t('A Responses API base URL (http, https, ws or wss).'),
        value: '',
      },
    ],
    { title: vscode.l10n.t('Loopwire: Select Endpoint'), placeHolder: vscode.l10n.t('Now: {0}', now) },
  );
  if (!choice) return undefined;
  let endpoint = choice.value;
  if (endpoint === '') {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Loopwire: Responses API base URL'),
      value: now === 'embedded' ? 'http://127.0.0.1:8080/v1' : now,
      validateInput: (value) => {
        try {
          const url = new URL(value.trim());
          return ['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)
            ? undefined
            : vscode.l10n.t('Use http, https, ws or wss.');
        } catch {
          return vscode.l10n.t('Not a URL.');
        }
      },
    });
    if (!typed) return undefined;
    endpoint = typed.trim();
  }
  await config.update('endpoint', endpoint, vscode.ConfigurationTarget.Global);
  return endpoint;
}
