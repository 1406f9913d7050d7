// The VS Code that the extension-host suite runs in, chosen before anything is built so that a machine
// without one fails in seconds: VSCODE_EXECUTABLE when set; else the headless host in ../shared/vscode-host
// where this checkout has one beside it (installed by its own install.sh, idempotent); else the copy that
// @vscode/test-electron downloads (or downloaded before) into .vscode-test/.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { inPhase, runPhase, say } = require('./phases');
const { root } = require('./provision');

const sharedHost = path.resolve(root, '..', 'shared', 'vscode-host');

/**
 * The environment without what `npm test` itself put there. install.sh runs npm again, on Node 24, to
 * install code-server; that npm reads `npm_config_*` variables as its own configuration, so the outer npm's
 * `npm_config_user_agent` ("npm/10 node/v20 …") reached code-server's postinstall, which refused Node 20.
 * Gone too: npm's other variables and the `node_modules/.bin` and node-gyp folders it adds to PATH.
 */
function withoutNpm(env) {
  const clean = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE') continue;
    clean[name] = value;
  }
  const pathKey = Object.keys(clean).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  clean[pathKey] = (clean[pathKey] ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !/[\\/]node_modules[\\/]\.bin$/.test(dir) && !/node-gyp-bin$/.test(dir))
    .join(path.delimiter);
  return clean;
}

/**
 * Resolves to `{ executable, from, workbench }` (`workbench`: code-server is installed, for the workbench suite), or to undefined after saying in one line why there is none.
 * `who` names the script in its lines; install logs go to `logDir`.
 */
async function testVscode(who, logDir, env = process.env) {
  const named = env.VSCODE_EXECUTABLE;
  if (named) {
    if (fs.existsSync(named)) return { executable: path.resolve(named), from: 'VSCODE_EXECUTABLE' };
    say(`${who}: VSCODE_EXECUTABLE names ${named}, which does not exist.`);
    return undefined;
  }
  const install = path.join(sharedHost, 'install.sh');
  const launcher = path.join(sharedHost, 'bin', 'code-headless');
  if (fs.existsSync(install) && fs.existsSync(launcher)) {
    const result = await runPhase({
      name: 'vscode host',
      command: 'bash',
      args: [install],
      env: withoutNpm(env),
      log: path.join(logDir, 'vscode-host-install.log'),
    });
    // Its code-server also serves the workbench that test/workbench drives.
    if (result.ok) return { executable: launcher, from: path.relative(root, sharedHost), workbench: true };
    say(
      `${who}: ${path.relative(root, install)} failed, so there is no VS Code to test in; run it yourself to see why.`,
    );
    return undefined;
  }
  return download(who);
}

/** test-electron's download (an earlier complete one is reused), with an idle timeout so offline fails fast. */
async function download(who) {
  const { downloadAndUnzipVSCode } = require('@vscode/test-electron');
  try {
    const executable = await inPhase('vscode download', () =>
      downloadAndUnzipVSCode({ cachePath: path.join(root, '.vscode-test'), timeout: 15_000 }),
    );
    return { executable, from: '.vscode-test' };
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    say(
      `${who}: no VS Code to run the extension-host suite in: set VSCODE_EXECUTABLE to one (the download failed: ${why}).`,
    );
    return undefined;
  }
}

module.exports = { testVscode, withoutNpm };
