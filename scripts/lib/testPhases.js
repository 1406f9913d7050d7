// The phases that `npm test`, `npm run build` and `npm run package` share, each a child process with one end
// line: the type checks then Prettier, beside ESLint (its typed rules are the long pole, and this machine
// has two cores); the bundles; a mocha run counted as it goes.
'use strict';
const path = require('node:path');
const { formatDuration, nodePhase } = require('./phases');
const { mochaFailures, mochaTally } = require('./mochaTally');
const { root } = require('./provision');

const bin = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), file);

/** A node phase run from the project root. */
const phase = (name, args, extra = {}) => nodePhase({ name, args, cwd: root, ...extra });

/**
 * Typecheck (the project, then the webview's browser project), then the format check, all beside lint:
 * ESLint's typed rules take about as long as the other three together, so the format check, once after
 * lint, now ends within it.
 */
async function checkPhases({ verbose = false } = {}) {
  const quiet = (name) => (verbose ? {} : { log: path.join(root, 'test-artifacts', `${name}.log`) });
  const tsc = bin('typescript', 'bin/tsc');
  const prettier = bin('prettier', 'bin/prettier.cjs');
  const typecheckThenFormat = async () =>
    (await phase('typecheck', [tsc, '--noEmit', '-p', '.'], quiet('typecheck'))).ok &&
    (await phase('typecheck webview', [tsc, '--noEmit', '-p', 'src/webview'], quiet('typecheck-webview'))).ok &&
    (await phase('format', [prettier, '--check', '--log-level', 'warn', '.'], quiet('format'))).ok;
  const lint = async () =>
    (await phase('lint', [bin('eslint', 'bin/eslint.js'), '--max-warnings', '0', '.'], quiet('lint'))).ok;
  const [checked, linted] = await Promise.all([typecheckThenFormat(), lint()]);
  return checked && linted;
}

/** The bundles (`--production` for the package), and the extension-host suite's with `tests`. */
async function bundlePhase({ production = false, tests = false } = {}) {
  const esbuild = path.join(root, 'esbuild.js');
  if (!(await phase('bundle', [esbuild, ...(production ? ['--production'] : [])])).ok) return false;
  return !tests || (await phase('bundle tests', [esbuild, '--tests'])).ok;
}

/**
 * A mocha run (the unit suite, or the extension host's through its runner) as a phase: its quiet-clock
 * line counts the tests so far, its end line is `NAME 496 passing (1 m 40 s)`. Resolves to `{ ok, counts }`.
 */
async function mochaPhase({ name, args, env, log }) {
  const tally = mochaTally();
  const result = await phase(name, args, {
    env,
    log,
    progress: (line) => tally.line(line),
    note: () => tally.note(),
    done: (_output, ms) => {
      const { passing, pending } = tally.counts();
      return `${name} ${passing} passing${pending ? `, ${pending} pending` : ''} (${formatDuration(ms)})`;
    },
    failureText: mochaFailures,
  });
  const counts = tally.counts();
  // A run that exits 0 without mocha's closing lines did not run the suite (a host that never started it).
  if (result.ok && !counts.finished) {
    console.log(`${name}: the run ended without mocha's closing lines, so its tests did not all run (${log ?? ''})`);
    return { ok: false, counts };
  }
  return { ok: result.ok, counts };
}

module.exports = { bundlePhase, checkPhases, mochaPhase };
