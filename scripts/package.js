// `npm run package`: the .vsix at the project root, built by @vscode/vsce from the production bundles
// (`vscode:prepublish`), holding only what .vscodeignore allows; prints its size and what it holds.
// Usage: node scripts/package.js [--out FILE]
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { listZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const { version } = require('../package.json');
const at = process.argv.indexOf('--out');
const out = path.resolve(root, at > 0 ? process.argv[at + 1] : `loopwire-${version}.vsix`);
/** The issue's bound: a .vsix this big means something that does not run was packaged. */
const LIMIT = 5 * 1024 * 1024;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// The bundles hold every dependency: node_modules is not shipped. vsce's own chatter (and the prepublish
// build's) is kept back unless it fails: then it is the explanation, type errors and lint included.
const vsce = spawnSync(
  process.execPath,
  [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--out', out],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (vsce.status !== 0) {
  process.stderr.write(vsce.stdout ?? '');
  console.error(`npm run package: vsce failed (${vsce.error?.message ?? `exit ${vsce.status ?? vsce.signal}`})`);
  process.exit(1);
}
const size = fs.statSync(out).size;
const entries = listZip(fs.readFileSync(out));
for (const entry of entries) console.log(`  ${entry.name.padEnd(44)} ${kb(entry.size).padStart(10)}`);
const unpacked = entries.reduce((n, e) => n + e.size, 0);
const shown = path.relative(root, out).startsWith('..') ? out : path.relative(root, out);
console.log(`${shown}: ${kb(size)} (${entries.length} files, ${kb(unpacked)} unpacked)`);
if (size > LIMIT) {
  console.error(`npm run package: the .vsix is over ${kb(LIMIT)}: check what .vscodeignore lets in`);
  process.exitCode = 1;
}
