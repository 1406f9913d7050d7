import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useTempWorkspace } from '../support/tempWorkspace';
import { HookRuns, answer, group } from './support/hookRuns';

// Where `loopwire exec`'s hooks come from (issue 50, item 4): a workspace's .claude/settings.json and
// .github/hooks/*.json run only when named with --hooks (the user's yes), and are said on stderr otherwise,
// each with the flag that would run it; a hooks file that is not one is said with its path and the task runs;
// a --hooks file that does not exist is an error.

describe('cli: loopwire exec reads hooks only from the files the user allows', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({ 'README.md': '# a project\n' }, { prefix: 'h-hook-files' });
  let runs: HookRuns;
  before(() => (runs = new HookRuns(temp)));
  after(() => runs.remove());

  it("a workspace's .claude/settings.json and .github/hooks/*.json run only with --hooks; without, stderr says so", async () => {
    const marker = runs.hookScript('workspace', ``);
    await temp.write('.claude/settings.json', JSON.stringify({ hooks: { Stop: [group(undefined, marker)] } }));
    const guard = { PreToolUse: [group('Bash', marker), group('Edit', marker)] };
    await temp.write('.github/hooks/guard.json', JSON.stringify({ hooks: guard }));
    try {
      const without = await runs.exec([{ match: '^run it', steps: [answer('Done.')] }], ['--approve', 'all']);
      assert.equal(without.code, 0, without.stderr);
      assert.ok(!fs.existsSync(temp.path('seen-workspace.json')), 'not run without --hooks');
      assert.match(
        without.stderr,
        /\.claude\/settings\.json holds 1 hook, not run without a yes; to run them, add --hooks /,
      );
      assert.match(without.stderr, /\.github\/hooks\/guard\.json holds 2 hooks, not run without a yes/);
      const given = await runs.exec(
        [{ match: '^run it', steps: [answer('Done.')] }],
        ['--approve', 'all', '--hooks', temp.path('.claude/settings.json')],
      );
      assert.equal(given.code, 0, given.stderr);
      assert.ok(fs.existsSync(temp.path('seen-workspace.json')), 'run with --hooks');
      assert.doesNotMatch(given.stderr, /settings\.json holds/);
      assert.match(given.stderr, /guard\.json holds 2 hooks/, 'the file not named is still said');
    } finally {
      fs.rmSync(temp.path('.claude'), { recursive: true, force: true });
      fs.rmSync(temp.path('.github'), { recursive: true, force: true });
    }
  });

  it('a hooks file that is not one is said with its path, the task runs; a missing --hooks file is an error', async () => {
    const file = path.join(os.tmpdir(), `h-hook-bad-${randomBytes(4).toString('hex')}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] } }),
    );
    try {
      const run = await runs.exec(
        [{ match: '^run it', steps: [answer('Done.')] }],
        ['--approve', 'all', '--hooks', file],
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, new RegExp(`hooks not used: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      const missing = await runs.exec([], ['--approve', 'all', '--hooks', `${file}.missing`]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /--hooks: .*\.missing does not exist/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  // Read before any yes, to say what they hold: a FIFO held exec's first synchronous read for good (SIGTERM
  // could not end it), and a link to /dev/zero would never end. Neither is a hooks file: said, and passed by.
  it('a hooks file that is a FIFO or a link to a device does not hold the run', async () => {
    await temp.write('.github/hooks/README.md', 'fifo beside\n');
    execFileSync('mkfifo', [temp.path('.github/hooks/pipe.json')]);
    fs.mkdirSync(temp.path('.claude'));
    fs.symlinkSync('/dev/zero', temp.path('.claude/settings.json'));
    try {
      const steps = [answer('Done.')];
      const without = await runs.exec([{ match: '^run it', steps }], ['--approve', 'all']);
      assert.equal(without.code, 0, without.stderr);
      const given = await runs.exec(
        [{ match: '^run it', steps }],
        ['--approve', 'all', '--hooks', temp.path('.github/hooks/pipe.json')],
      );
      assert.equal(given.code, 0, given.stderr);
      assert.match(given.stderr, /hooks not used: .*pipe\.json: not a regular file/);
    } finally {
      fs.rmSync(temp.path('.claude'), { recursive: true, force: true });
      fs.rmSync(temp.path('.github'), { recursive: true, force: true });
    }
  });
});
