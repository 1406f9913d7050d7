import * as l10n from '@vscode/l10n';

// The panel's strings in the window's language. The host hands the page VS Code's bundle for the extension
// (vscode.l10n.bundle) in the root element's data-l10n attribute (chatHtml.ts): no fetch, nothing the CSP
// must allow, and ready before any module below builds its controls. In English there is none and every
// string stays as written.

const bundle = document.documentElement.dataset.l10n;
if (bundle !== undefined && bundle !== '') l10n.config({ contents: bundle });

/** A user-facing string in the window's language; `{0}`, `{1}`… are the arguments. */
export const t = l10n.t;
