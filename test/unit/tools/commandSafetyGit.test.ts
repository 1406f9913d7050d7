import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { judgeCommand } from '../../../src/tools';
import { toolBench } from './toolHarness';

// Issue 46: git runs programs a repository's config names while it only reads. Those the run line can turn
// off (fsmonitor, the pager, hooks, external diff, textconv) are; where the config names one it cannot — a
// filter (git status and diff run `filter.<name>.clean`), a signature program, a promisor remote (a read
// fetches, through any transport), another work tree, an include of a file that does — the git command is
// not read-only. Includes are followed and judged; submodules' configs are read too.

/** A .git/config (and the files it includes, by name under .git/) whose git commands are not read-only. */
const REFUSED: readonly { config: string; files?: Record<string, string>; key: RegExp }[] = [
  { config: '[filter "lfs"]\n\tclean = evil %f\n', key: /filter\.clean/ },
  { config: '[filter.x]\n\tsmudge = evil\n', key: /filter\.smudge/ },
  { config: '[Filter "x"]\n\tProcess = evil\n', key: /filter\.process/ },
  { config: '[filter "x"] clean = evil\n', key: /filter\.clean/ },
  { config: '[gpg]\n\tprogram = evil\n', key: /gpg\.program/ },
  { config: '[gpg "ssh"]\n\tprogram = evil\n', key: /gpg\.program/ },
  { config: '[remote "origin"]\n\turl = ext::sh -c evil\n\tpromisor = true\n', key: /remote\.promisor/ },
  { config: '[remote "origin"]\n\tpromisor ; a key alone is true\n', key: /remote\.promisor/ },
  { config: '[extensions]\n\tpartialClone = origin\n', key: /extensions\.partialclone/ },
  { config: '[protocol "ext"]\n\tallow = always\n', key: /protocol\.allow/ },
  { config: '[core]\n\tworktree = /etc\n', key: /core\.worktree/ },
  { config: '[core]\n\tsshCommand = evil\n', key: /core\.sshcommand/ },
  { config: '[credential]\n\thelper = evil\n', key: /credential\.helper/ },
  {
    config: '[include]\n\tpath = other.cfg\n',
    files: { 'other.cfg': '[filter "x"]\n\tclean = evil\n' },
    key: /filter/,
  },
  {
    config: '[includeIf "gitdir:/"]\n\tpath = "deeper/one.cfg" ; a comment\n',
    files: { 'deeper/one.cfg': '[include]\n\tpath = two.cfg\n', 'deeper/two.cfg': '[core]\n\tworktree = /\n' },
    key: /core\.worktree/,
  },
  { config: '[include]\n\tpath = "a\\"b.cfg"\n', key: /include\.path/ },
  {
    config: '[core]\n\tbare = false\n',
    files: { 'modules/sub/config': '[filter "x"]\n\tclean = evil\n' },
    key: /filter/,
  },
];

/** Configs whose programs the run line turns off, or that name none. */
const ALLOWED: readonly { config: string; files?: Record<string, string> }[] = [
  {
    config: '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = https://x/editor.git\n',
  },
  { config: '[core]\n\tfsmonitor = evil\n\tpager = evil\n\thooksPath = evil\n[pager]\n\tlog = evil\n' },
  { config: '[diff]\n\texternal = evil\n[diff "x"]\n\ttextconv = evil\n\tcommand = evil\n' },
  { config: '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic x\n' },
  { config: '[include]\n\tpath = user.cfg\n', files: { 'user.cfg': '[user]\n\tname = x\n' } },
  { config: '[include]\n\tpath = missing.cfg\n' },
];

describe('commandSafety: git under its repository config', function () {
  this.timeout(30_000);

  const judgeWith = async (config: string, files: Record<string, string> = {}) => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    await bench.write('.git/config', config);
    for (const [name, text] of Object.entries(files)) await bench.write(`.git/${name}`, text);
    const place = { cwd: bench.root, root: bench.root, platform: 'linux' as const };
    return { status: await judgeCommand('git status --short', place), ls: await judgeCommand('ls', place) };
  };

  it('a config naming a program the run line cannot turn off makes git not read-only (ls still is)', async () => {
    for (const { config, files, key } of REFUSED) {
      const { status, ls } = await judgeWith(config, files);
      assert.match(status.reason ?? '', key, config);
      assert.match(status.reason ?? '', /repository's config/, config);
      assert.equal(ls.reason, undefined, config);
    }
  });

  it('a config whose programs the run line turns off, or that names none, leaves git read-only', async () => {
    for (const { config, files } of ALLOWED)
      assert.equal((await judgeWith(config, files)).status.reason, undefined, config);
  });

  it('a .git file is followed to the git directory it names, and that one is judged', async () => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    await bench.write('vendor/cache/config', '[filter "x"]\n\tclean = evil\n');
    await bench.write('sub/.git', 'gitdir: ../vendor/cache\n');
    const place = { cwd: path.join(bench.root, 'sub'), root: bench.root, platform: 'linux' as const };
    assert.match((await judgeCommand('git log -1', place)).reason ?? '', /filter\.clean/);
  });

  it("a .git file naming a git directory outside the workspace is refused, unless it is that one's worktree", async () => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    const main = path.join(bench.outside, 'main');
    await fs.mkdir(main);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: main, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start');
    git('worktree', 'add', '-q', path.join(bench.root, 'wt'));
    await bench.write('fake/.git', `gitdir: ${path.join(main, '.git')}\n`);
    await bench.write('borrowed/.git', `gitdir: ${path.join(main, '.git/worktrees/wt')}\n`);
    const judge = (folder: string, root = bench.root) =>
      judgeCommand('git log -p', { cwd: path.join(bench.root, folder), root, platform: 'linux' });
    assert.match((await judge('fake')).reason ?? '', /fake\/\.git names .*outside the workspace/);
    assert.match((await judge('borrowed')).reason ?? '', /outside the workspace/);
    assert.equal((await judge('wt', path.join(bench.root, 'wt'))).reason, undefined, 'a real worktree');
  });

  it('a real filter runs on git diff even with the run line: such a repository is refused (the test bites)', async () => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    const marker = path.join(bench.outside, 'filtered');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: bench.root, stdio: 'pipe' });
    git('init', '-q');
    await bench.write('.gitattributes', 'a.txt filter=x\n');
    git('add', 'a.txt', '.gitattributes');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    git('config', 'filter.x.clean', `sh -c 'echo ran >> "${marker}"; cat'`);
    await bench.write('a.txt', 'two\n');
    const place = { cwd: bench.root, root: bench.root, platform: 'linux' as const };
    const verdict = await judgeCommand('git diff', place);
    assert.match(verdict.reason ?? '', /filter\.clean/);
    await bench.workspace.runCommand(verdict.run, { timeoutMs: 10_000 });
    assert.ok((await fs.readFile(marker, 'utf8')).includes('ran'), 'the filter ran: refusing it matters');
  });

  it("the run line keeps git status from writing the index and from the repository's hooks", async () => {
    const bench = await toolBench({ 'a.txt': 'one\n' });
    const marker = path.join(bench.outside, 'hooked');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: bench.root, stdio: 'pipe' });
    git('init', '-q');
    git('add', 'a.txt');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    await bench.write('.git/hooks/post-index-change', `#!/bin/sh\necho ran >> '${marker}'\n`);
    await fs.chmod(path.join(bench.root, '.git/hooks/post-index-change'), 0o755);
    const touch = async () => {
      const later = new Date(Date.now() + 5_000);
      await fs.utimes(path.join(bench.root, 'a.txt'), later, later);
    };
    const verdict = await judgeCommand('git status --short', { cwd: bench.root, root: bench.root, platform: 'linux' });
    assert.equal(verdict.reason, undefined);
    await touch();
    await bench.workspace.runCommand(verdict.run, { timeoutMs: 10_000 });
    await assert.rejects(fs.stat(marker), { code: 'ENOENT' }, 'the hook ran under the run line');
    await touch();
    await bench.workspace.runCommand('git status --short', { timeoutMs: 10_000 });
    assert.ok((await fs.readFile(marker, 'utf8')).includes('ran'), 'as written, the hook runs');
  });
});
