// `npm start`: the bundles (esbuild only, a few seconds: type checks and lint belong to `npm test` and
// `npm run build`), then VS Code with Loopwire loaded from this checkout (an Extension Development
// Host) on a fresh copy of the demo workspace, on the embedded backend — chat, Fix with Loopwire on the
// broken JSON, ask it to fix the failing test, all offline. Without a VS Code here (and no network to
// download one), it says so and runs the headless demo instead: the same agent, in the terminal.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { setTimeout, clearTimeout } = require('node:timers');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { copyDemo } = require('./demoCopy');
const { findVscode } = require('./findVscode');
const { bundlePhase } = require('./lib/testPhases');
const { say } = require('./lib/phases');

const root = path.resolve(__dirname, '..');
/** How long a launch is watched: a VS Code that cannot start fails within it; `code` hands off sooner. */
const WATCH_MS = 5_000;

function headlessDemo(why) {
  console.log(`npm start: ${why} — running the headless demo instead (loopwire demo).`);
  const result = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'loopwire.js'), 'demo'], {
    stdio: 'inherit',
  });
  process.exitCode = result.status ?? 1;
}

/**
 * A VS Code from @vscode/test-electron where a network allows (never in tests): `{ executable }`, or `{ why }`
 * there is none.
 */
async function download() {
  if (process.env.LOOPWIRE_NO_DOWNLOAD) return { why: 'LOOPWIRE_NO_DOWNLOAD is set' };
  const { downloadAndUnzipVSCode } = require('@vscode/test-electron');
  console.log('npm start: no VS Code here; trying to download one (LOOPWIRE_NO_DOWNLOAD=1 skips this)…');
  try {
    // `timeout` is an idle timeout: offline it gives up in seconds, while a slow download that moves goes on.
    const executable = await downloadAndUnzipVSCode({
      cachePath: path.join(root, '.vscode-test'),
      extensionDevelopmentPath: root,
      timeout: 10_000,
    });
    return { executable };
  } catch (error) {
    return { why: `the download failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
}

/** The last line the launcher wrote, to say why it stopped. */
function lastLine(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  return lines[lines.length - 1]?.trim() ?? '';
}

/**
 * Starts VS Code detached, its output to `logFile`, and watches it for WATCH_MS: resolves undefined when it
 * runs on or handed the window to a running VS Code (exit 0), else why it could not start.
 */
function launch(executable, args, logFile) {
  return new Promise((resolve) => {
    const log = fs.openSync(logFile, 'a');
    // Windows runs `code.cmd` only through a shell, which splits unquoted paths at their spaces.
    const windows = process.platform === 'win32';
    const quote = (arg) => (windows ? `"${arg}"` : arg);
    const child = spawn(quote(executable), args.map(quote), {
      stdio: ['ignore', log, log],
      detached: true,
      shell: windows,
    });
    fs.closeSync(log);
    const timer = setTimeout(() => done(undefined), WATCH_MS);
    function done(why) {
      clearTimeout(timer);
      child.removeAllListeners();
      child.unref();
      resolve(why);
    }
    child.on('error', (error) => done(`it could not be started (${error.message})`));
    child.on('exit', (code, signal) => {
      if (code === 0) return done(undefined);
      const line = lastLine(logFile);
      done(`it exited with ${signal ?? `code ${code}`}${line ? `: ${line}` : ''}`);
    });
  });
}

async function main() {
  say('npm start: bundling Loopwire (esbuild)…');
  if (!(await bundlePhase())) {
    process.exitCode = 1;
    return;
  }
  const found = findVscode({ root });
  for (const { from, file } of found.missing) console.log(`npm start: ${from} names ${file}, which does not exist.`);
  const { executable, why } = found.executable ? found : await download();
  if (!executable) return headlessDemo(`no VS Code found (set LOOPWIRE_VSCODE, or put \`code\` on PATH; ${why})`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-demo-'));
  const workspace = copyDemo(path.join(base, 'workspace'));
  const logFile = path.join(base, 'vscode.log');
  console.log(`npm start: opening ${executable} (${found.from ?? 'downloaded'}) with Loopwire on ${workspace}`);
  const failed = await launch(executable, ['--new-window', `--extensionDevelopmentPath=${root}`, workspace], logFile);
  if (failed) {
    fs.rmSync(workspace, { recursive: true, force: true });
    return headlessDemo(`VS Code at ${executable} did not open (${failed}; log: ${logFile})`);
  }
  console.log('  Trust the folder when asked (it is a fresh copy of demo/workspace), then open the Loopwire view in');
  console.log('  the activity bar and ask it to "fix the failing test", or choose Fix with Loopwire on the red');
  console.log(`  squiggle in config/shipping.json. VS Code's output: ${logFile}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
