// `npm start` (after the build): VS Code with Loopwire loaded from this checkout (an Extension Development
// Host) on a fresh copy of the demo workspace, on the embedded backend — chat, Fix with Loopwire on the
// broken JSON, ask it to fix the failing test, all offline. Without a VS Code here (and no network to
// download one), it says so and runs the headless demo instead: the same agent, in the terminal.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { setTimeout } = require('node:timers');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { findVscode } = require('./findVscode');

const root = path.resolve(__dirname, '..');

function headlessDemo(why) {
  console.log(`npm start: ${why} — running the headless demo instead (loopwire demo).`);
  const result = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'loopwire.js'), 'demo'], {
    stdio: 'inherit',
  });
  process.exitCode = result.status ?? 1;
}

/** A VS Code from @vscode/test-electron, where a network allows (never in tests); undefined otherwise. */
async function download() {
  if (process.env.LOOPWIRE_NO_DOWNLOAD) return undefined;
  const { downloadAndUnzipVSCode } = require('@vscode/test-electron');
  const timeout = new Promise((resolve) => setTimeout(() => resolve(undefined), 60_000).unref());
  try {
    return await Promise.race([downloadAndUnzipVSCode({ cachePath: path.join(root, '.vscode-test') }), timeout]);
  } catch (error) {
    console.log(
      `npm start: no VS Code could be downloaded (${error instanceof Error ? error.message.split('\n')[0] : error}).`,
    );
    return undefined;
  }
}

async function main() {
  let found = findVscode({ root });
  if (found?.missing) {
    console.log(`npm start: ${found.from} names ${found.missing}, which does not exist.`);
    found = undefined;
  }
  const executable = found?.executable ?? (await download());
  if (!executable) return headlessDemo('no VS Code found (set LOOPWIRE_VSCODE, or put `code` on PATH)');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-demo-'));
  fs.cpSync(path.join(root, 'demo', 'workspace'), workspace, { recursive: true });
  console.log(`npm start: opening ${executable} with Loopwire on ${workspace}`);
  console.log(
    '  Open the Loopwire view in the activity bar; try "fix the failing test", or Fix with Loopwire on config/shipping.json.',
  );
  const child = spawn(executable, ['--new-window', `--extensionDevelopmentPath=${root}`, workspace], {
    stdio: 'ignore',
    detached: true,
    shell: process.platform === 'win32',
  });
  child.on('error', (error) => headlessDemo(`${executable} could not be started (${error.message})`));
  child.unref();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
