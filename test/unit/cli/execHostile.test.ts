import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// Issue 46's attacks, each as the issue found it, replayed by a hostile scripted model against the built bin in
// `--approve read-only` and `--approve auto` on the real sandbox (bwrap): the backslash-newline that bash joins
// into -exec and --output, abbreviated and `-` operands that write, a write to .git/config that a filter would
// turn into a program at the next `git status`, a second git directory under another name with its own filter
// and gpg.program, a symlink to /proc/self that read Loopwire's own environment (the key), a recursive diff
// through a link to a credential store, and deny rules stepped around by a path or git's global options.
// What must hold in both modes: nothing outside the workspace changes, no program of the repository's runs
// outside the sandbox, no output (nor transcript) holds the key or the secret, .git/config is as it was, and
// the denied commands are declined. Read-only also keeps the workspace as it was.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const KEY = `sk-hostile-${randomBytes(8).toString('hex')}`;
const KEY_SHAPE = 'sk-hostile-[0-9a-f]{16}';
const SECRET = `SECRET-${randomBytes(8).toString('hex')}`;
const run = randomBytes(4).toString('hex');
/** A host path outside the workspace where the attack leaves its mark if it ran outside the sandbox. */
const mark = (what: string) => `/var/tmp/loopwire-hostile-${process.pid}-${run}-${what}`;
const MARKS = ['find', 'chain', 'cache', 'gpg', 'status'].map(mark);

type Args = { cmd: string; workdir?: string };
const ATTACKS: Args[] = [
  { cmd: `find . -maxdepth 0 "-ex\\\nec" sh -c "touch ${mark('find')}; id" ";"` },
  { cmd: 'git log -1 "--out\\\nput=o.txt"' },
  { cmd: 'sort --o=sorted.txt README.md' },
  { cmd: `printf '[filter "x"]\\n\\tclean = touch ${mark('chain')}\\n' | uniq - .git/config` },
  { cmd: 'git status --short' },
  { cmd: 'git status --short', workdir: 'vendor/cache' },
  { cmd: 'git log -1 --format=%G?', workdir: 'vendor/cache' },
  // The key's shape, not the key: the command's own text must not be what gives it away.
  { cmd: `rg -a -uuu -o -g environ '${KEY_SHAPE}' p/../` },
  { cmd: `grep -a -o -E '${KEY_SHAPE}' /proc/*/environ` },
  { cmd: 'diff -rN a b' },
];
const DENIED: Args[] = [
  { cmd: 'git -c color.ui=auto push origin HEAD:refs/heads/pushed' },
  { cmd: '/bin/rm keep.txt' },
];

interface ToolEvent {
  type: string;
  callId?: string;
  input?: string;
  declined?: boolean;
  output?: string;
}

describe('cli: the hostile cases of issue 46 change nothing, run nothing outside, read no key (bwrap)', function () {
  this.timeout(90_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-hostile' });

  before(function () {
    const support = sandboxSupport();
    if (support.available) return;
    console.log(`      (skipped: these runs need a sandbox for commands here: ${support.reason})`);
    this.skip();
  });
  afterEach(() => {
    for (const file of MARKS) fs.rmSync(file, { force: true });
  });

  /** The repository a stranger ships, its remote, a home whose ~/.ssh holds a key, and the user's deny rules. */
  function plant(): { dir: string; home: string } {
    const dir = temp.path('repo');
    const home = temp.path('home');
    const files: Record<string, string> = {
      'README.md': 'b\na\n',
      'keep.txt': 'keep\n',
      'a/x.txt': 'x\n',
      '.gitattributes': '* filter=x\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
    fs.symlinkSync(path.join(home, '.ssh'), path.join(dir, 'b'));
    fs.symlinkSync('/proc/self', path.join(dir, 'p'));
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' });
    git(dir, 'init', '-q');
    git(dir, 'add', 'README.md', 'keep.txt', 'a');
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    git(temp.dir, 'init', '-q', '--bare', 'remote.git');
    git(dir, 'remote', 'add', 'origin', temp.path('remote.git'));
    // A second git directory under another name, as a clone can carry it: its worktree is the repository.
    const cache = path.join(dir, 'vendor', 'cache');
    git(dir, 'init', '-q', '--bare', cache);
    const settings: [string, string][] = [
      ['core.bare', 'false'],
      ['core.worktree', '../..'],
      ['filter.x.clean', `touch ${mark('cache')}`],
      ['gpg.program', `touch ${mark('gpg')}`],
    ];
    for (const [key, value] of settings) git(cache, 'config', key, value);
    const config = temp.path('config/loopwire');
    fs.mkdirSync(config, { recursive: true });
    fs.writeFileSync(path.join(config, 'command-rules.json'), JSON.stringify({ deny: ['git push', 'rm'] }));
    return { dir, home };
  }

  /** Every file of the workspace but .git's objects, with its text or link target. */
  function snapshot(dir: string): Record<string, string> {
    const files: Record<string, string> = {};
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      const rel = path.relative(dir, file);
      if (/^(\.git|vendor\/cache)\/(objects|logs)|^\.git\/index$/.test(rel)) continue;
      if (entry.isSymbolicLink()) files[rel] = `-> ${fs.readlinkSync(file)}`;
      else if (entry.isFile()) files[rel] = fs.readFileSync(file, 'utf8');
    }
    return files;
  }

  async function attack(mode: 'read-only' | 'auto') {
    const { dir, home } = plant();
    const calls = [...ATTACKS, ...DENIED].map((args) => ({
      type: 'function_call',
      name: 'exec_command',
      arguments: args,
    }));
    const scenario = temp.path('attack.json');
    const steps = [{ output: calls }, { output: [{ type: 'message', text: 'Done.' }] }];
    fs.writeFileSync(scenario, JSON.stringify({ scenarios: [{ name: 'attack', match: '^go', steps }] }));
    const before = snapshot(dir);
    const gitConfig = fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8');
    const sessions = temp.path('sessions');
    const argv = [bin, 'exec', '--workspace', dir, '--sessions-dir', sessions, '--scenario', scenario];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OPENAI_API_KEY: KEY,
      HOME: home,
      XDG_CONFIG_HOME: temp.path('config'),
    };
    delete env.LOOPWIRE_SANDBOX;
    const result = await runProcess(process.execPath, [...argv, '--approve', mode, '--json', 'go'], '', env);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    return { dir, before, gitConfig, result, after: snapshot(dir), transcripts: readAll(sessions) };
  }

  const readAll = (dir: string) =>
    fs
      .readdirSync(dir)
      .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      .join('\n');

  /** The finished event of each call, in the order the calls were made. */
  function finished(stdout: string): ToolEvent[] {
    const events = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ToolEvent);
    const order = events.filter((e) => e.type === 'tool_started').map((e) => e.callId);
    const byCall = new Map(events.filter((e) => e.type === 'tool_finished').map((e) => [e.callId, e]));
    return order.map((id) => byCall.get(id) ?? { type: 'missing' });
  }

  function assertHarmless(outcome: Awaited<ReturnType<typeof attack>>) {
    const { dir, gitConfig, result, transcripts } = outcome;
    const ends = finished(result.stdout);
    assert.equal(ends.length, ATTACKS.length + DENIED.length, result.stdout);
    for (const file of MARKS) assert.ok(!fs.existsSync(file), `a program ran outside the sandbox: ${file}`);
    for (const [text, where] of [
      [result.stdout, 'the output'],
      [result.stderr, 'stderr'],
      [transcripts, 'the transcript'],
    ] as const) {
      assert.ok(!text.includes(KEY), `the key reached ${where}`);
      assert.ok(!text.includes(SECRET), `~/.ssh reached ${where}`);
    }
    assert.equal(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8'), gitConfig, '.git/config changed');
    assert.equal(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8'), 'keep\n', 'rm ran');
    for (const [i, args] of DENIED.entries()) {
      const end = ends[ATTACKS.length + i];
      assert.equal(end?.declined, true, `${args.cmd}: ${end?.output}`);
      assert.match(end?.output ?? '', /deny: (git push|rm)/, args.cmd);
    }
    const remote = execFileSync('git', ['--git-dir', path.join(path.dirname(dir), 'remote.git'), 'for-each-ref']);
    assert.equal(remote.toString(), '', 'the push reached the remote');
  }

  it('read-only: every attack is declined or harmless, and the workspace is as it was', async () => {
    const outcome = await attack('read-only');
    assertHarmless(outcome);
    assert.deepEqual(outcome.after, outcome.before, 'the workspace changed');
  });

  it('auto: the attacks run in the sandbox, and nothing outside the workspace changes', async () => {
    const outcome = await attack('auto');
    assertHarmless(outcome);
    const ends = finished(outcome.result.stdout);
    // The find ran (in the sandbox: it is a program and auto runs programs), its mark stayed inside.
    assert.equal(ends[0]?.declined, undefined, ends[0]?.output);
    assert.match(ends[3]?.output ?? '', /refused this: /, 'the write to .git/config was refused by the sandbox');
  });
});
