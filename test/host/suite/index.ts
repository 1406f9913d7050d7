import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

// The extension host loads this module (`--extensionTestsPath`) and awaits `run()`. It runs, in one mocha,
// every `*.test.js` bundled beside it in dist-test/host/suite (esbuild.js --tests bundles each
// test/host/suite/**/*.test.ts found at build time), so a new test file needs no registration.

/** Every `*.test.js` under `dir`, sorted so the order of the suites is the same on every run. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return testFiles(file);
      return entry.name.endsWith('.test.js') ? [file] : [];
    })
    .sort();
}

/**
 * runTests.ts' second window (a two-folder `.code-workspace`) runs the suites under twoFolders/, the first the
 * rest. The suites under adapter/ test the VS Code adapter's modules bundled into the test itself, never the
 * extension under test, so they run in the checkout's run only: beside an unpacked .vsix
 * (LOOPWIRE_EXTENSION_PATH) they would test the same bundle again and say nothing of the package.
 */
function runsInThisWindow(file: string): boolean {
  const folder = path.relative(__dirname, file).split(path.sep)[0];
  if (folder === 'adapter' && process.env.LOOPWIRE_EXTENSION_PATH) return false;
  return (folder === 'twoFolders') === (process.env.LOOPWIRE_WINDOW === 'two-folders');
}

/** npm test's per-file timer (scripts/lib/fileTimes.js, plain CommonJS beside the bundle's checkout). */
function fileTimesHooks(): Mocha.RootHookObject {
  const file = path.resolve(__dirname, '..', '..', '..', 'scripts', 'lib', 'fileTimes.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a script of the checkout, not bundled
  return (require(file) as { mochaHooks: Mocha.RootHookObject }).mochaHooks;
}

/** Runs the suite; rejects when a test fails, which makes the host exit non-zero. */
export async function run(): Promise<void> {
  // LOOPWIRE_GREP narrows a run to the tests whose titles match (for working on one of them).
  const grep = process.env.LOOPWIRE_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, forbidOnly: true, ...(grep ? { grep } : {}) });
  const files = testFiles(__dirname).filter(runsInThisWindow);
  if (files.length === 0) throw new Error(`no *.test.js files under ${__dirname}: run \`node esbuild.js --tests\``);
  if (process.env.LOOPWIRE_FILE_TIMES) mocha.rootHooks(fileTimesHooks());
  for (const file of files) mocha.addFile(file);
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test${failures === 1 ? '' : 's'} failed`);
}
