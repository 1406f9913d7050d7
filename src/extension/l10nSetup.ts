import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

// The files of the extension that stay free of `vscode` (chat/*, inline/* …, tested under Node) translate
// with @vscode/l10n's `t`: this hands it VS Code's bundle for the window's language, as VS Code's guide
// does for code that cannot reach `vscode.l10n`. Imported first by runtime.js (runtimeBundle.ts), which holds
// the extension's copy of @vscode/l10n; extension.js holds none (test/unit/build.test.ts): what activation
// runs translates with `vscode.l10n`.

const bundle = vscode.l10n.bundle;
if (bundle !== undefined) l10n.config({ contents: bundle });
