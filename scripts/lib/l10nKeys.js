// The strings the code sends through l10n, read from the sources with TypeScript's parser: each call of
// `t(…)` (src/webview/l10n.ts, src/cli/cliL10n.ts, @vscode/l10n) or `vscode.l10n.t(…)` whose first argument is
// a literal. Its text is the key, as in VS Code's convention (keys are the English text). Used by
// scripts/l10nBundle.js to write the English bundle and by test/unit/l10n/bundles.test.ts to check every locale.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

/**
 * The folders whose strings the user reads; every one of their `t(…)` keys is in l10n/bundle.l10n.json. The core's
 * (agent, protocol, tools) are the display copies of what it hands the front ends; what the model reads stays English.
 */
const L10N_ROOTS = ['src/extension', 'src/webview', 'src/cli', 'src/agent', 'src/protocol', 'src/tools'];

function tsFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return tsFiles(file);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
    })
    .sort();
}

/** `t(…)`, `l10n.t(…)` or `vscode.l10n.t(…)`. */
function isL10nCall(node) {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return (
    ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && /(^|\.)l10n$/.test(callee.expression.getText())
  );
}

/** Every l10n call in `file`: its key, or `undefined` where the first argument is not a literal. */
function callsIn(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const calls = [];
  const visit = (node) => {
    if (isL10nCall(node)) {
      const first = node.arguments[0];
      const literal = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first));
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      calls.push({ where: `${file}:${line + 1}`, key: literal ? first.text : undefined });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/** The l10n calls of every file under the roots, relative to `repo`. */
function l10nCalls(repo) {
  return L10N_ROOTS.flatMap((root) => tsFiles(path.join(repo, root))).flatMap((file) =>
    callsIn(file).map((call) => ({ ...call, where: path.relative(repo, call.where) })),
  );
}

/** `{0}`, `{1}`… of a message, sorted: a translation must keep the same ones. */
function placeholders(message) {
  return [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();
}

module.exports = { L10N_ROOTS, l10nCalls, placeholders, tsFiles };
