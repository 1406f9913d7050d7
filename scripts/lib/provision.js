// What `npm test` needs from the machine before it builds anything: the dependencies from `npm install`,
// ripgrep (the Node adapter's text search), Debian's Chromium (the webview tests) and bubblewrap (the OS
// sandbox commands run in, src/sandbox, whose tests run it for real). It installs the system
// ones with apt-get where it may (root, or sudo without a password) and otherwise stops at once, naming the
// command to run. The same steps every time, so a fresh machine and CI take one path.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { runPhase, say } = require('./phases');

const root = path.resolve(__dirname, '..', '..');
/** Where test/webview/chromium.ts looks for the browser. */
const CHROMIUM = '/usr/bin/chromium';

/** `command -v NAME` without a shell. */
function onPath(name, env = process.env) {
  return (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        fs.accessSync(path.join(dir, name), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The Debian packages missing here, for the tools the tests use. */
function missingPackages() {
  const missing = [];
  if (!onPath('rg')) missing.push('ripgrep');
  if (!fs.existsSync(CHROMIUM)) missing.push('chromium');
  // The sandbox looks on PATH and then in /usr/bin (src/sandbox/sandboxSupport.ts).
  if (!onPath('bwrap') && !fs.existsSync('/usr/bin/bwrap')) missing.push('bubblewrap');
  return missing;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names) {
  return names.length > 2 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join(' and ');
}

/** The npm packages the phases run, as a check that `npm install` has been run here. */
function missingNodeModules() {
  return ['mocha', 'typescript', 'esbuild', 'eslint', 'prettier', '@vscode/test-electron', 'playwright-core'].filter(
    (name) => {
      try {
        require.resolve(`${name}/package.json`, { paths: [root] });
        return false;
      } catch {
        return true;
      }
    },
  );
}

/** How packages can be installed here: as root, through sudo without a password, or not at all. */
function installer() {
  if (!onPath('apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 3000 }).status === 0)
    return ['sudo', '-n'];
  return undefined;
}

/**
 * Installs the missing system packages, or explains how and returns false. `who` names the script in its
 * lines (`npm test`).
 */
async function provideSystemPackages(who, logDir) {
  const missing = missingPackages();
  if (missing.length === 0) return true;
  const prefix = installer();
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (!prefix) {
    say(
      onPath('apt-get')
        ? `${who}: ${listed(missing)} ${missing.length > 1 ? 'are' : 'is'} missing and this user may not install packages: run \`sudo apt-get update && sudo ${command}\`, then \`npm test\` again.`
        : `${who}: ${listed(missing)} ${missing.length > 1 ? 'are' : 'is'} missing: install ripgrep (\`rg\` on PATH), Chromium at ${CHROMIUM} and bubblewrap (\`bwrap\` on PATH), then run \`npm test\` again.`,
    );
    return false;
  }
  say(`${who}: installing ${missing.join(', ')} with apt-get${prefix.length ? ' (sudo)' : ''}`);
  const script = `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`;
  const [command0, ...args] = [...prefix, 'sh', '-c', script];
  const result = await runPhase({
    name: `apt-get install ${missing.join(' ')}`,
    command: command0,
    args,
    log: path.join(logDir, 'apt-get.log'),
  });
  if (!result.ok) return false;
  const still = missingPackages();
  if (still.length > 0) say(`${who}: ${still.join(', ')} still missing after apt-get; see ${logDir}/apt-get.log`);
  return still.length === 0;
}

module.exports = { CHROMIUM, missingNodeModules, missingPackages, onPath, provideSystemPackages, root };
