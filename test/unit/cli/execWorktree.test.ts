import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type TestRepo, fingerprint, makeRepo } from '../agent/worktrees/gitRepo';
import { repoRoot, runProcess } from '../support/runProcess';

// `loopwire exec --worktree NAME` end to end through the built bin (issue 49 item 3), on a real repository,
// the embedded backend's scripted model editing a file: the worktree's path and branch come first (stderr,
// and a `worktree` event with --json), the setup command runs in it, every tool works there, and the user's
// checkout is byte-identical until `loopwire worktree apply`; then discard is refused until the changes are
// applied, and removes worktree and branch after.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

describe('cli: loopwire exec --worktree NAME, then loopwire worktree apply / discard', function () {
  this.timeout(120_000);
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeRepo({ 'src/app.js': 'broken\n', 'README.md': '# app\n', '.gitignore': 'node_modules/\n' });
  });
  afterEach(() => repo.cleanup());

  const loopwire = (args: string[]) => runProcess(process.execPath, [bin, ...args], '', repo.env);

  it('runs the task in the worktree; the checkout changes only on apply', async () => {
    repo.write('README.md', '# app, edited by the user\n');
    const scenario = path.join(repo.base, 'scenario.json');
    const step = (name: string, args: unknown) => ({ output: [{ type: 'function_call', name, arguments: args }] });
    const steps = [
      step('read_file', { path: 'src/app.js' }),
      step('write_file', { path: 'src/app.js', content: 'fixed\n' }),
      step('exec_command', { cmd: 'pwd && cat README.md' }),
      { output: [{ type: 'message', text: 'Fixed it.' }] },
    ];
    fs.writeFileSync(scenario, JSON.stringify({ scenarios: [{ name: 'fix', match: '^fix it', steps }] }));
    const before = fingerprint(repo.top);
    const setup = 'mkdir -p node_modules && echo installed > node_modules/dep.txt && echo setup-ran';
    const run = await loopwire([
      'exec',
      ...['--workspace', repo.top, '--sessions-dir', path.join(repo.base, 'sessions'), '--scenario', scenario],
      ...['--approve', 'all', '--json', '--worktree', 'fix', '--worktree-carry', '--worktree-setup', setup],
      'fix it',
    ]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const where = path.join(repo.base, 'state', 'loopwire', 'worktrees', 'repo-fix');
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; output?: string; name?: string });
    const [first] = events as { type: string; path?: string; branch?: string; base?: string }[];
    assert.deepEqual([first?.type, first?.path, first?.branch], ['worktree', where, 'loopwire/fix']);
    assert.match(first?.base ?? '', /^[0-9a-f]{40}$/);
    assert.ok(run.stderr.startsWith(`(worktree ${where} on branch loopwire/fix)\n`), run.stderr);
    assert.match(run.stderr, /setup-ran/);
    assert.equal(fs.readFileSync(path.join(where, 'node_modules/dep.txt'), 'utf8'), 'installed\n');
    const shell = events.find((e) => e.type === 'tool_finished' && e.name === 'exec_command');
    assert.match(shell?.output ?? '', new RegExp(`${where}\\n# app, edited by the user`), 'cwd and carried edit');
    const write = events.find((e) => e.type === 'tool_finished' && e.name === 'write_file');
    assert.equal(fs.readFileSync(path.join(where, 'src/app.js'), 'utf8'), 'fixed\n', write?.output);
    assert.deepEqual(fingerprint(repo.top), before, "the user's checkout is untouched until apply");

    const listed = await loopwire(['worktree', 'list', '--json', '--workspace', repo.top]);
    const [row] = (JSON.parse(listed.stdout) as { worktrees: { name: string; unapplied: boolean; files: string[] }[] })
      .worktrees;
    assert.deepEqual([row?.name, row?.unapplied, row?.files], ['fix', true, ['src/app.js']]);
    const refused = await loopwire(['worktree', 'discard', 'fix', '--workspace', repo.top]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not applied/);
    const applied = await loopwire(['worktree', 'apply', 'fix', '--workspace', repo.top]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(repo.read('src/app.js'), 'fixed\n');
    assert.equal(repo.read('README.md'), '# app, edited by the user\n');
    assert.equal(fs.existsSync(path.join(repo.top, 'node_modules')), false, 'ignored setup output stays there');
    const discarded = await loopwire(['worktree', 'discard', 'fix', '--workspace', repo.top]);
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.equal(fs.existsSync(where), false);
  });

  it('refuses bad worktree flags before anything is made', async () => {
    const common = ['exec', '--workspace', repo.top, '--approve', 'all'];
    const alone = await loopwire([...common, '--worktree-carry', 'x']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /go with --worktree NAME/);
    const bad = await loopwire([...common, '--worktree', '../out', 'x']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--worktree: The worktree name "..\/out" is not a plain name/);
    assert.equal(fs.existsSync(path.join(repo.base, 'state')), false);
    const help = await loopwire(['exec', '--help']);
    assert.match(help.stdout, /--worktree NAME/);
    assert.match(help.stdout, /--worktree-setup CMD/);
  });
});
