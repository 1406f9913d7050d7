// The chat panel's page: one nonce'd script and the panel's styles, nothing else allowed (CSP
// `default-src 'none'`), every resource from the extension's own folders. A pure function, so the
// Chromium tests load exactly the page the extension serves.

/** The panel's own stylesheets, in order, from the extension's folder (after the codicon font's). */
export const PANEL_STYLES = [
  'media/chat.css',
  'media/transcript.css',
  'media/toolCard.css',
  'media/subagent.css',
  'media/diff.css',
  'media/composerPickers.css',
  'media/promptActions.css',
  'media/plan.css',
  'media/commandList.css',
  'media/chatList.css',
  'media/worktreeCard.css',
] as const;

export interface ChatPage {
  /** `webview.cspSource`: the origin the extension's resources are served from. */
  cspSource: string;
  scriptUri: string;
  styleUris: readonly string[];
  nonce: string;
  /** The window's language (`vscode.env.language`) and VS Code's bundle for it, handed to the page (src/webview/l10n.ts); none: English. */
  l10n?: { language: string; bundle: Record<string, string> | undefined };
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chatHtml({ cspSource, scriptUri, styleUris, nonce, l10n }: ChatPage): string {
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const language = escapeAttribute(l10n?.language ?? 'en');
  const bundle = l10n?.bundle ? ` data-l10n="${escapeAttribute(JSON.stringify(l10n.bundle))}"` : '';
  const styles = styleUris.map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="${language}"${bundle}>
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>Loopwire</title>
  </head>
  <body>
    <script nonce="${nonce}" src="${escapeAttribute(scriptUri)}"></script>
  </body>
</html>
`;
}
