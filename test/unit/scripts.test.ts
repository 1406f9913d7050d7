import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { runProcess } from './support/runProcess';
import { tempWorkspace } from './support/tempWorkspace';

// The pieces `npm test`, `npm start`, `npm run package` and CI are made of (scripts/lib): how a mocha run is
// counted, how a phase says where it is, and what a machine without the tools is told. The scripts are
// plain CommonJS so that they run before anything is built.

interface Tally {
  line(text: string): void;
  counts(): { passing: number; failing: number; pending: number; finished: boolean };
  note(): string;
}
/* eslint-disable @typescript-eslint/no-require-imports -- the scripts are CommonJS, run by node as they are */
const { mochaTally, mochaFailures } = require('../../scripts/lib/mochaTally') as {
  mochaTally: () => Tally;
  mochaFailures: (output: string) => string;
};
const { formatDuration } = require('../../scripts/lib/phases') as { formatDuration: (ms: number) => string };
const { withoutNpm } = require('../../scripts/lib/testVscode') as {
  withoutNpm: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const SPEC_RUN = [
  '  cli: loopwire exec',
  '    \u001b[32m✔\u001b[0m performs the demo task (812ms)',
  '    ✔ refuses a bad flag',
  '    1) hangs on a refusal',
  '    - a pending one',
  '',
  '  2 passing (3s)',
  '  1 pending',
  '  1 failing',
  '',
  '  1) cli: loopwire exec',
  '       hangs on a refusal:',
  '     AssertionError: expected 1, got null',
];

describe('scripts: the phases of npm test and CI', () => {
  it('counts a mocha run as it goes, then by its closing lines', () => {
    const tally = mochaTally();
    for (const line of SPEC_RUN.slice(0, 4)) tally.line(line);
    assert.equal(tally.note(), '2 passing, 1 failing');
    assert.equal(tally.counts().finished, false);
    for (const line of SPEC_RUN.slice(4)) tally.line(line);
    assert.deepEqual(tally.counts(), { passing: 2, failing: 1, pending: 1, finished: true });
  });

  it('adds up the closing lines of two runs in one phase (the extension host runs two windows)', () => {
    const tally = mochaTally();
    for (const line of [...SPEC_RUN.slice(0, 9), '  ✔ in the second window', '  6 passing (7s)']) tally.line(line);
    assert.deepEqual(tally.counts(), { passing: 8, failing: 1, pending: 1, finished: true });
    assert.equal(tally.note(), '8 passing, 1 failing');
  });

  it('shows a failed run from its closing lines on: the failures, not the whole log', () => {
    const shown = mochaFailures(['noise', ...SPEC_RUN].join('\n'));
    assert.match(shown, /^ {2}2 passing \(3s\)/);
    assert.match(shown, /AssertionError: expected 1, got null/);
    assert.doesNotMatch(shown, /noise/);
  });

  it('runs the VS Code host’s install.sh without what npm test’s own npm put in the environment', () => {
    // The inner npm (Node 24, installing code-server) took the outer one's user agent as its configuration,
    // and code-server's postinstall refused "node/v20".
    const clean = withoutNpm({
      PATH: ['/work/loopwire/node_modules/.bin', '/usr/lib/node_modules/npm/bin/node-gyp-bin', '/usr/bin'].join(
        path.delimiter,
      ),
      HOME: '/root',
      VSCODE_HOST_HOME: '/cache',
      npm_config_user_agent: 'npm/10.8.2 node/v20.20.2 linux x64 workspaces/false',
      npm_config_nodedir: '/usr',
      NPM_CONFIG_PREFIX: '/usr/local',
      npm_lifecycle_event: 'test',
      npm_node_execpath: '/usr/bin/node',
      INIT_CWD: '/work/loopwire',
      NODE: '/usr/bin/node',
    });
    assert.deepEqual(clean, { PATH: '/usr/bin', HOME: '/root', VSCODE_HOST_HOME: '/cache' });
  });

  it('writes durations as people read them', () => {
    assert.equal(formatDuration(15_230), '15.2 s');
    assert.equal(formatDuration(100_400), '1 m 40 s');
    assert.equal(formatDuration(3_600_000), '60 m 00 s');
  });

  it('says something at least every 5 s while a phase is silent, then its time', async function () {
    this.timeout(20_000);
    const script = [
      "const { nodePhase } = require('./scripts/lib/phases');",
      "nodePhase({ name: 'quiet', args: ['-e', 'setTimeout(() => {}, 6500)'] }).then((r) => process.exit(r.ok ? 0 : 1));",
    ].join('\n');
    const result = await runProcess(process.execPath, ['-e', script]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ {2}… quiet [56]\.\d s$/, result.stdout);
    assert.match(lines.at(-1) ?? '', /^quiet \d+\.\d s$/);
  });

  it('stops at once, naming the command, where it may not install what is missing', async () => {
    // A user who is not root, without sudo, whose PATH has node and apt-get but no rg.
    const temp = await tempWorkspace({}, { prefix: 'path' });
    const bin = temp.dir;
    try {
      await fs.symlink(process.execPath, path.join(bin, 'node'));
      await fs.writeFile(path.join(bin, 'apt-get'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      const script = [
        'process.getuid = () => 1000;',
        `process.env.PATH = ${JSON.stringify(bin)};`,
        "const { provideSystemPackages } = require('./scripts/lib/provision');",
        "provideSystemPackages('npm test', '/tmp').then((ok) => process.exit(ok ? 0 : 1));",
      ].join('\n');
      const result = await runProcess(process.execPath, ['-e', script]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stdout,
        /^npm test: ripgrep (and chromium )?(is|are) missing and this user may not install packages: run `sudo apt-get update && sudo apt-get install -y ripgrep( chromium)?`, then `npm test` again\.\n$/,
      );
    } finally {
      await temp.remove();
    }
  });
});
