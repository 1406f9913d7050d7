// `npm run integration:vsix`: packages the .vsix, unpacks it, and runs the extension-host suite with the
// unpacked `extension/` folder as the extension under test — proof that the package holds what runs.
// The unpacked copy lies in a temporary folder with no node_modules above it, so a file the package
// lacks cannot be found elsewhere. VSCODE_EXECUTABLE and LOOPWIRE_GREP work as for `npm run integration`.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { extractZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-vsix-'));
const vsix = path.join(work, 'loopwire.vsix');
const extension = path.join(work, 'extension');
const node = (args, env = process.env) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
let passed = false;
try {
  node([path.join(__dirname, 'package.js'), '--out', vsix]);
  extractZip(fs.readFileSync(vsix), work);
  console.log(`integration:vsix: unpacked to ${extension}`);
  node([path.join(root, 'esbuild.js'), '--tests']);
  node([path.join(root, 'dist-test', 'integration', 'runTests.js')], {
    ...process.env,
    LOOPWIRE_EXTENSION_PATH: extension,
  });
  passed = true;
} catch (error) {
  // A failed child has already printed why; anything else (a bad zip, a missing file) says so here.
  if (typeof error.status !== 'number') console.error(`integration:vsix: ${error.message}`);
  process.exitCode = typeof error.status === 'number' && error.status !== 0 ? error.status : 1;
} finally {
  if (passed) fs.rmSync(work, { recursive: true, force: true });
  else console.error(`integration:vsix: the package and its unpacked copy are kept in ${work}`);
}
