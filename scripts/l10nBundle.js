// Writes l10n/bundle.l10n.json, the English bundle, from the code's `t(…)` keys (scripts/lib/l10nKeys.js):
// keys are the English text and so are the values, as in VS Code's convention. Run after adding or changing
// a user-facing string, then translate the new keys in every shipped locale (bundle.l10n.<locale>.json);
// test/unit/l10n/bundles.test.ts fails until both are done.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { l10nCalls } = require('./lib/l10nKeys');

const repo = path.join(__dirname, '..');
const keys = [...new Set(l10nCalls(repo).flatMap((call) => (call.key === undefined ? [] : [call.key])))].sort();
const bundle = Object.fromEntries(keys.map((key) => [key, key]));
fs.writeFileSync(path.join(repo, 'l10n', 'bundle.l10n.json'), `${JSON.stringify(bundle, null, 2)}\n`);
console.log(`l10n/bundle.l10n.json: ${keys.length} strings`);
