import * as vscode from 'vscode';
import { OPENAI_ORIGIN, endpointOrigin, originLabel } from '../../agent/activation';
import type { EndpointAccess } from './endpointAccess';
import { headerForNewKey, headerLabel, isHeaderName } from './keyHeader';

// "Set API Key…": the key of one endpoint origin — the one in use, or the one Select Endpoint… just chose —
// kept in VS Code's secret storage, so that no setting ever holds a secret. It asks for the key only: the
// origin settles the header that carries it (keyHeader.ts: Bearer for OpenAI and its like, api-key for Azure),
// and the input box's "Another header…" button names another for a gateway that wants one.

/** What the key's input box gave: the key typed (Enter), or the wish to name the header (its button). */
type KeyAnswer = { kind: 'key' | 'header'; value: string };

/**
 * Asks for the key of `endpoint`'s origin (the current endpoint's when not given; api.openai.com's for the
 * embedded backend, which needs none). Resolves to whether a key was stored or removed.
 */
export async function setApiKey(access: EndpointAccess, endpoint?: string): Promise<boolean> {
  const origin = endpointOrigin(endpoint ?? access.current().endpoint) ?? OPENAI_ORIGIN;
  const had = await access.keys.get(origin);
  let header = headerForNewKey(origin, had?.header);
  let answer = await askKey(origin, had !== undefined, header, '');
  while (answer?.kind === 'header') {
    header = (await askHeader(header)) ?? header;
    // Back to the key, with what was typed so far and the header now named in its prompt.
    answer = await askKey(origin, had !== undefined, header, answer.value);
  }
  if (answer === undefined) return false;
  const value = answer.value.trim();
  if (value === '') {
    if (!had) return false;
    await access.keys.set(origin, undefined);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Loopwire: the API key for {0} is removed.', originLabel(origin)),
    );
    return true;
  }
  await access.keys.set(origin, { header, value });
  return true;
}

/** The key's input box: Enter gives the key, the "Another header…" button the wish to name its header. */
function askKey(origin: string, had: boolean, header: string, value: string): Promise<KeyAnswer | undefined> {
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Loopwire: API key for {0}', originLabel(origin));
  box.prompt = had
    ? vscode.l10n.t(
        'Sent only to {0} (header {1}). Kept in VS Code’s secret storage, never in settings or logs. Leave it empty to remove the key stored now.',
        origin,
        headerLabel(header),
      )
    : vscode.l10n.t(
        'Sent only to {0} (header {1}). Kept in VS Code’s secret storage, never in settings or logs.',
        origin,
        headerLabel(header),
      );
  box.placeholder = origin === OPENAI_ORIGIN ? 'sk-…' : vscode.l10n.t('the key');
  box.password = true;
  box.ignoreFocusOut = true;
  box.value = value;
  const another: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('settings-edit'),
    tooltip: vscode.l10n.t('Another header…'),
  };
  box.buttons = [another];
  return new Promise((resolve) => {
    let answer: KeyAnswer | undefined;
    box.onDidAccept(() => {
      answer = { kind: 'key', value: box.value };
      box.hide();
    });
    box.onDidTriggerButton(() => {
      answer = { kind: 'header', value: box.value };
      box.hide();
    });
    box.onDidHide(() => {
      box.dispose();
      resolve(answer);
    });
    box.show();
  });
}

/** The header that carries the key, named; undefined when the question is closed (the header stays). */
async function askHeader(current: string): Promise<string | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Loopwire: the header that carries the key'),
    prompt: vscode.l10n.t(
      'authorization sends “Bearer KEY”, as OpenAI takes it; any other header carries the key as it is (api-key for Azure).',
    ),
    value: current,
    ignoreFocusOut: true,
    validateInput: (text) => (isHeaderName(text.trim()) ? undefined : vscode.l10n.t('Not a header name.')),
  });
  return name?.trim().toLowerCase() || undefined;
}
