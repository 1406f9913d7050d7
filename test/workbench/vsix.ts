import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './codeServer';

// The packaged extension for the suites that install it as users do (issue 41, item 7): the .vsix that
// `npm run package` builds (scripts/package.js, production bundles, only what .vscodeignore lets in), built at
// most once per run. It is built in a staged copy of the checkout's sources (node_modules linked), so the
// production build writes its bundles there, not over the dist/ that the other suites and other people's runs
// read. LOOPWIRE_WORKBENCH_VSIX=FILE uses a .vsix built already (CI's, or one kept from an earlier run).

/** What the package script reads: the manifest, the build scripts, the sources and what the .vsix ships. */
const STAGED = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'l10n',
  'package-lock.json',
  '.vscodeignore',
  'esbuild.js',
  'tsconfig.json',
  'scripts',
  'src',
  'media',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
];

/** Where the run's .vsix is kept (beside the suites' screenshots), with the package script's output. */
export const VSIX_ARTIFACTS = path.join(ROOT, 'test-artifacts', 'workbench', 'vsix');

let built: Promise<string> | undefined;

/** The .vsix of this checkout: LOOPWIRE_WORKBENCH_VSIX, or the one this run built, or a new one. */
export function packagedVsix(): Promise<string> {
  const given = process.env['LOOPWIRE_WORKBENCH_VSIX'];
  if (given) {
    const file = path.resolve(given);
    if (!fs.existsSync(file)) return Promise.reject(new Error(`LOOPWIRE_WORKBENCH_VSIX: no file ${file}`));
    return Promise.resolve(file);
  }
  built ??= buildVsix();
  // A failed build is tried again by the next suite that asks, rather than failing it with the old error.
  built.catch(() => (built = undefined));
  return built;
}

async function buildVsix(): Promise<string> {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-vsix-stage-'));
  try {
    for (const entry of STAGED) {
      const from = path.join(ROOT, entry);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(stage, entry), { recursive: true });
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    fs.mkdirSync(VSIX_ARTIFACTS, { recursive: true });
    const out = path.join(VSIX_ARTIFACTS, 'loopwire.vsix');
    fs.rmSync(out, { force: true });
    const started = Date.now();
    const result = await promisify(execFile)(
      process.execPath,
      [path.join(stage, 'scripts', 'package.js'), '--no-checks', '--out', out],
      { cwd: stage, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: unknown) => {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const vsceLog = path.join(stage, 'test-artifacts', 'vsce.log');
      const vsce = fs.existsSync(vsceLog) ? fs.readFileSync(vsceLog, 'utf8') : '';
      fs.writeFileSync(path.join(VSIX_ARTIFACTS, 'package.log'), `${stdout}${stderr}${vsce}`);
      throw new Error(`packaging the .vsix failed (see ${path.relative(ROOT, VSIX_ARTIFACTS)}/package.log)`);
    });
    fs.writeFileSync(
      path.join(VSIX_ARTIFACTS, 'package.log'),
      `${result.stdout}${result.stderr}packaged in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    if (!fs.existsSync(out)) throw new Error(`the package script exited 0 but wrote no ${out}`);
    return out;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true, maxRetries: 3 });
  }
}
