// `npm run build`: the type checks and lint (side by side), the format check, then the bundles; each phase
// one line with its time. `--production` minifies the bundles (the .vsix's). The checks are skipped when
// LOOPWIRE_CHECKED=1, which `npm run package` sets after running them itself, so that vsce's prepublish
// step does not run them twice.
// Usage: node scripts/build.js [--production] [--verbose]
'use strict';
const { formatDuration, runScript, say } = require('./lib/phases');
const { bundlePhase, checkPhases } = require('./lib/testPhases');

const production = process.argv.includes('--production');
const verbose = process.argv.includes('--verbose');
const started = Date.now();

async function main() {
  if (process.env.LOOPWIRE_CHECKED !== '1' && !(await checkPhases({ verbose }))) return 1;
  if (!(await bundlePhase({ production }))) return 1;
  say(`build: ok in ${formatDuration(Date.now() - started)}`);
  return 0;
}

runScript(main);
