// `npm run integration:vsix`: packages the .vsix, unpacks it, and runs the extension-host suite with the
// unpacked `extension/` folder as the extension under test — proof that the package holds what runs.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { extractZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-vsix-'));
const vsix = path.join(work, 'loopwire.vsix');
try {
  execFileSync(process.execPath, [path.join(__dirname, 'package.js'), '--out', vsix], { cwd: root, stdio: 'inherit' });
  extractZip(fs.readFileSync(vsix), work);
  execFileSync(process.execPath, [path.join(root, 'esbuild.js'), '--tests'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'dist-test', 'integration', 'runTests.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOOPWIRE_EXTENSION_PATH: path.join(work, 'extension') },
  });
} catch (error) {
  process.exitCode = typeof error.status === 'number' && error.status !== 0 ? error.status : 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
