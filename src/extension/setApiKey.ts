import * as vscode from 'vscode';
import { OPENAI_ORIGIN, endpointOrigin, originLabel } from '../agent/endpointOrigin';
import type { EndpointAccess } from './endpointAccess';
import type { EndpointKey } from './endpointKeys';

// "Set API Key…": the key of one endpoint origin — the one in use, or the one Select Endpoint… just chose —
// kept in VS Code's secret storage, and the header that carries it (OpenAI's `Authorization: Bearer`, Azure's
// `api-key`, or a gateway's own), so that no setting ever holds a secret.

interface HeaderChoice extends vscode.QuickPickItem {
  header: string | undefined;
}

const HEADER_CHOICES: HeaderChoice[] = [
  {
    label: 'Authorization: Bearer …',
    detail: vscode.l10n.t('OpenAI, and most Responses API servers and gateways.'),
    header: 'authorization',
  },
  {
    label: 'api-key',
    detail: vscode.l10n.t('Azure OpenAI: the key as it is, in an api-key header.'),
    header: 'api-key',
  },
  {
    label: vscode.l10n.t('Another header…'),
    detail: vscode.l10n.t('A gateway that takes the key in a header of its own.'),
    header: undefined,
  },
];

/**
 * Asks for the key of `endpoint`'s origin (the current endpoint's when not given; api.openai.com's for the
 * embedded backend, which needs none). Resolves to whether a key was stored or removed.
 */
export async function setApiKey(access: EndpointAccess, endpoint?: string): Promise<boolean> {
  const origin = endpointOrigin(endpoint ?? access.current().endpoint) ?? OPENAI_ORIGIN;
  const had = await access.keys.get(origin);
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Loopwire: API key for {0}', originLabel(origin)),
    prompt: had
      ? vscode.l10n.t(
          'Sent only to {0}. Kept in VS Code’s secret storage, never in settings or logs. Leave it empty to remove the key stored now.',
          origin,
        )
      : vscode.l10n.t('Sent only to {0}. Kept in VS Code’s secret storage, never in settings or logs.', origin),
    placeHolder: origin === OPENAI_ORIGIN ? 'sk-…' : vscode.l10n.t('the key'),
    password: true,
    ignoreFocusOut: true,
  });
  if (typed === undefined) return false;
  const value = typed.trim();
  if (value === '') {
    if (!had) return false;
    await access.keys.set(origin, undefined);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Loopwire: the API key for {0} is removed.', originLabel(origin)),
    );
    return true;
  }
  const header = origin === OPENAI_ORIGIN ? 'authorization' : await headerFor(had);
  if (header === undefined) return false;
  const key: EndpointKey = { header, value };
  await access.keys.set(origin, key);
  return true;
}

/** The header that carries the key: asked, the one used before first. */
async function headerFor(had: EndpointKey | undefined): Promise<string | undefined> {
  // The header used before first, where a key was stored; else Bearer, OpenAI's way, first.
  const before = had?.header;
  const items =
    before === undefined
      ? HEADER_CHOICES
      : [...HEADER_CHOICES].sort((a, b) => Number(b.header === before) - Number(a.header === before));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Loopwire: send the key as'),
    placeHolder: vscode.l10n.t('Enter: Authorization: Bearer, as OpenAI takes it'),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.header !== undefined) return picked.header;
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Loopwire: the header that carries the key'),
    value: had && !HEADER_CHOICES.some((choice) => choice.header === had.header) ? had.header : 'x-api-key',
    ignoreFocusOut: true,
    validateInput: (text) =>
      /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text.trim()) ? undefined : vscode.l10n.t('Not a header name.'),
  });
  return name?.trim().toLowerCase() || undefined;
}
