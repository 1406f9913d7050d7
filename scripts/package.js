// `npm run package`: the .vsix at the project root, built by @vscode/vsce from the production bundles,
// holding only what .vscodeignore allows; prints its size and what it holds. The type checks and lint run
// here as phases with their times (vsce's prepublish step, `scripts/build.js --production`, then only
// bundles); `--no-checks` skips them where they have just run (CI, after `npm test`).
// Usage: node scripts/package.js [--out FILE] [--no-checks]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { nodePhase, runScript, say } = require('./lib/phases');
const { checkPhases } = require('./lib/testPhases');
const { listZip } = require('./zip');
const { publishProblems } = require('./publishChecks');

const root = path.resolve(__dirname, '..');
const { version } = require('../package.json');
const at = process.argv.indexOf('--out');
const out = path.resolve(root, at > 0 ? process.argv[at + 1] : `loopwire-${version}.vsix`);
/** The bound: a .vsix this big means something that does not run was packaged. */
const LIMIT = 5 * 1024 * 1024;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const problems = publishProblems(require('../package.json'), root);
  for (const problem of problems) say(`npm run package: ${problem}`);
  if (problems.length > 0) return 1;
  if (!process.argv.includes('--no-checks') && !(await checkPhases())) return 1;
  // The bundles hold every dependency: node_modules is not shipped. vsce's own chatter (and the prepublish
  // build's) goes to a log, shown when it fails: then it is the explanation.
  const vsce = await nodePhase({
    name: 'vsce package',
    args: [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--out', out],
    cwd: root,
    env: { ...process.env, LOOPWIRE_CHECKED: '1' },
    log: path.join(root, 'test-artifacts', 'vsce.log'),
  });
  if (!vsce.ok) return 1;
  const size = fs.statSync(out).size;
  const entries = listZip(fs.readFileSync(out));
  for (const entry of entries) console.log(`  ${entry.name.padEnd(44)} ${kb(entry.size).padStart(10)}`);
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  const shown = path.relative(root, out).startsWith('..') ? out : path.relative(root, out);
  say(`${shown}: ${kb(size)} (${entries.length} files, ${kb(unpacked)} unpacked)`);
  if (size > LIMIT) {
    say(`npm run package: the .vsix is over ${kb(LIMIT)}: check what .vscodeignore lets in`);
    return 1;
  }
  return 0;
}

runScript(main);
