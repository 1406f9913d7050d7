import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

// Runs the extension-host suite (dist-test/host/suite, from `node esbuild.js --tests`) in VS Code:
// the one at $VSCODE_EXECUTABLE when set (any `code`-compatible launcher, such as a headless host), else
// the one @vscode/test-electron downloads. Each run opens a fresh copy of test/host/fixture.
// Usage: node dist-test/host/runTests.js   (`npm run test:integration` builds and runs it)
// LOOPWIRE_EXTENSION_PATH=DIR runs the suite against another copy of the extension (an unpacked .vsix).

const root = path.resolve(__dirname, '../..');

/** A workspace copied for one run: its folder, and what the host opens (the folder, or a `.code-workspace`). */
interface Copied {
  folder: string;
  open: string;
}

/** Copies the fixture workspace to a new temporary folder. */
function copyFixture(): Copied {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'loopwire-fixture-'));
  cpSync(path.join(root, 'test/host/fixture'), folder, { recursive: true });
  // The fixture's .gitignore ignores build/, so this repository cannot hold the file: write it here.
  mkdirSync(path.join(folder, 'build'), { recursive: true });
  writeFileSync(path.join(folder, 'build/out.js'), "'use strict';\nconsole.log('built output');\n");
  return { folder, open: folder };
}

/** A copy of test/host/twoFolders (a `.code-workspace` of two folders whose settings differ). */
function copyTwoFolders(): Copied {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'loopwire-two-folders-'));
  cpSync(path.join(root, 'test/host/twoFolders'), folder, { recursive: true });
  return { folder, open: path.join(folder, 'two.code-workspace') };
}

/**
 * The suite runs in two windows, one after the other: the fixture folder (every suite but twoFolders/), then
 * a multi-root workspace opened from its `.code-workspace` file (twoFolders/ only: opening another workspace
 * would restart the extension host under a running suite).
 */
async function main(): Promise<number> {
  const code = await runWindow('folder', copyFixture);
  return code !== 0 ? code : runWindow('two-folders', copyTwoFolders);
}

/** Runs the suite's part for one `window` in a new host, on a fresh copy of its workspace. */
async function runWindow(window: 'folder' | 'two-folders', copy: () => Copied): Promise<number> {
  const started = Date.now();
  const { folder: fixture, open } = copy();
  const executable = process.env['VSCODE_EXECUTABLE'];
  const extensionPath = process.env['LOOPWIRE_EXTENSION_PATH'];
  let passed = false;
  // The host runs as a VS Code server started without a locale does (a container, a CI job): VS Code gives its
  // terminals LANG=en_US.UTF-8, which such a machine may lack, and the shell integration of the window's first
  // terminal then reports its first command lines cut short ("/u"). exec_command must finish all the same
  // (commandTerminal.ts); here the contract suite's first commands meet it on every run.
  for (const name of ['LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES']) delete process.env[name];
  try {
    await runTests({
      ...(executable ? { vscodeExecutablePath: path.resolve(executable) } : {}),
      extensionDevelopmentPath: extensionPath ? path.resolve(extensionPath) : root,
      extensionTestsPath: path.join(root, 'dist-test/host/suite/index.js'),
      launchArgs: [open, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: {
        LOOPWIRE_FIXTURE: fixture,
        LOOPWIRE_WINDOW: window,
        // The activation test checks that this copy, not the checkout, is the one the host loaded.
        ...(extensionPath ? { LOOPWIRE_EXTENSION_PATH: path.resolve(extensionPath) } : {}),
        ...(process.env.LOOPWIRE_GREP ? { LOOPWIRE_GREP: process.env.LOOPWIRE_GREP } : {}),
        // npm test's per-file times (scripts/lib/fileTimes.js), for its slowest-files list.
        ...(process.env.LOOPWIRE_FILE_TIMES ? { LOOPWIRE_FILE_TIMES: process.env.LOOPWIRE_FILE_TIMES } : {}),
      },
    });
    passed = true;
    return 0;
  } catch (error) {
    // runTests rejects with the host's exit code when the suite fails, or with why it could not start.
    const code = (error as { code?: unknown }).code;
    console.error(`integration suite (${window}): ${error instanceof Error ? error.message : String(error)}`);
    return typeof code === 'number' && code !== 0 ? code : 1;
  } finally {
    // A failed run keeps its workspace to look at.
    if (passed) rmSync(fixture, { recursive: true, force: true });
    else console.error(`integration suite (${window}): the workspace is kept at ${fixture}`);
    console.log(`integration suite (${window}): wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
