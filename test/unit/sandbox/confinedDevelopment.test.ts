import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, removeDir, requireBwrap, runConfined, runFileConfined, workspaceWrite } from './harness';

// Ordinary development inside workspace-write, with no escalation: a sandbox that stops the work is one the
// user turns off. node writing in the workspace, git reading the repository, a build writing dist/, npm test,
// pytest where Python has it.

describe('sandbox (bwrap): ordinary development works in workspace-write', function () {
  this.timeout(60_000);
  let repo: string;

  before(function () {
    requireBwrap(this);
  });
  beforeEach(() => {
    repo = makeRepo('dev');
  });
  afterEach(() => removeDir(repo));

  it('node writes a file in the workspace', async () => {
    const run = await runFileConfined(
      process.execPath,
      ['-e', "require('fs').writeFileSync('out.txt', 'written')"],
      repo,
      workspaceWrite([repo]),
    );
    assert.equal(run.code, 0, run.output);
    assert.equal(fs.readFileSync(path.join(repo, 'out.txt'), 'utf8'), 'written');
  });

  it('git status and git diff read the repository', async () => {
    fs.appendFileSync(path.join(repo, 'README.md'), 'a change\n');
    const run = await runConfined('git status --short && git diff', repo, workspaceWrite([repo]));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /^ M README\.md$/m);
    assert.match(run.output, /^\+a change$/m);
  });

  it('a build writes dist/', async () => {
    fs.writeFileSync(
      path.join(repo, 'build.js'),
      "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/app.js', 'built');",
    );
    const run = await runFileConfined(process.execPath, ['build.js'], repo, workspaceWrite([repo]));
    assert.equal(run.code, 0, run.output);
    assert.equal(fs.readFileSync(path.join(repo, 'dist/app.js'), 'utf8'), 'built');
  });

  it('npm test runs a package’s tests', async () => {
    fs.writeFileSync(
      path.join(repo, 'package.json'),
      JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'node test.js' } }),
    );
    fs.writeFileSync(
      path.join(repo, 'test.js'),
      "require('assert').equal(1 + 1, 2); require('fs').writeFileSync('tested', ''); console.log('tests passed');",
    );
    const run = await runConfined('npm test', repo, workspaceWrite([repo]));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /tests passed/);
    assert.ok(fs.existsSync(path.join(repo, 'tested')));
  });

  it('python3 -m pytest runs a test file', async function () {
    const probe = spawnSync('python3', ['-c', 'import pytest'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      console.log(`      (skipped: pytest is not importable here: ${probe.error?.message ?? probe.stderr.trim()})`);
      this.skip();
    }
    fs.writeFileSync(path.join(repo, 'test_math.py'), 'def test_adds():\n    assert 1 + 1 == 2\n');
    const run = await runConfined('python3 -m pytest -q', repo, workspaceWrite([repo]));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /1 passed/);
  });
});
