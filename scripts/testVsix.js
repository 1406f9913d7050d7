// `npm run integration:vsix`: packages the .vsix, unpacks it, and runs the extension-host suite with the
// unpacked `extension/` folder as the extension under test — proof that the package holds what runs.
// The unpacked copy lies in a temporary folder with no node_modules above it, so a file the package
// lacks cannot be found elsewhere. VSCODE_EXECUTABLE and LOOPWIRE_GREP work as for `npm run integration`;
// `--no-checks` packages without the type checks and lint (CI, right after `npm test` ran them).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { nodePhase, say } = require('./lib/phases');
const { mochaPhase } = require('./lib/testPhases');
const { testVscode } = require('./lib/testVscode');
const { extractZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-vsix-'));
const vsix = path.join(work, 'loopwire.vsix');
const extension = path.join(work, 'extension');
const noChecks = process.argv.includes('--no-checks') ? ['--no-checks'] : [];

/** Resolves to the host run's counts when it passed, else undefined. */
async function main() {
  const vscode = await testVscode('integration:vsix', path.join(root, 'test-artifacts'));
  if (!vscode) return undefined;
  const packaged = await nodePhase({
    name: 'package',
    args: [path.join(__dirname, 'package.js'), '--out', vsix, ...noChecks],
    cwd: root,
  });
  if (!packaged.ok) return undefined;
  extractZip(fs.readFileSync(vsix), work);
  say(`integration:vsix: unpacked to ${extension}`);
  const esbuild = path.join(root, 'esbuild.js');
  if (!(await nodePhase({ name: 'bundle tests', args: [esbuild, '--tests'], cwd: root })).ok) return undefined;
  const host = await mochaPhase({
    name: 'vsix host',
    args: [path.join(root, 'dist-test', 'host', 'runTests.js')],
    env: { ...process.env, VSCODE_EXECUTABLE: vscode.executable, LOOPWIRE_EXTENSION_PATH: extension },
    log: path.join(root, 'test-artifacts', 'vsix-host.log'),
  });
  return host.ok ? host.counts : undefined;
}

main().then(
  (counts) => {
    if (counts) {
      fs.rmSync(work, { recursive: true, force: true });
      fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
      fs.writeFileSync(path.join(root, 'test-artifacts', 'vsix-summary.json'), `${JSON.stringify(counts)}\n`);
    } else {
      say(`integration:vsix: the package and its unpacked copy are kept in ${work}`);
      process.exitCode = 1;
    }
  },
  (error) => {
    console.error(`integration:vsix: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
