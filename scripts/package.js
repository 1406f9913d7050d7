// `npm run package`: the .vsix at the project root, built by @vscode/vsce from the production bundles
// (`vscode:prepublish`), holding only what .vscodeignore allows; prints its size and what it holds.
// Usage: node scripts/package.js [--out FILE]
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { listZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const { version } = require('../package.json');
const at = process.argv.indexOf('--out');
const out = path.resolve(root, at > 0 ? process.argv[at + 1] : `loopwire-${version}.vsix`);

// The bundles hold every dependency: node_modules is not shipped.
execFileSync(process.execPath, [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--out', out], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const entries = listZip(fs.readFileSync(out));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const entry of entries) console.log(`  ${entry.name.padEnd(44)} ${kb(entry.size).padStart(10)}`);
console.log(
  `${path.relative(root, out)}: ${kb(fs.statSync(out).size)} (${entries.length} files, ${kb(entries.reduce((n, e) => n + e.size, 0))} unpacked)`,
);
