import * as assert from 'node:assert/strict';
import {
  type ApprovalMode,
  type ApprovalRequest,
  type CommandRules,
  NO_COMMAND_RULES,
  commandApprovalNote,
  decideCommand,
  policyFor,
  ruleMatches,
  rulesIn,
  withCommandRules,
} from '../../../src/agent';
import { commandGate } from '../../../src/agent/approvals/commandApproval';
import { type CommandVerdict, judgeCommand } from '../../../src/tools';
import { toolBench } from '../tools/toolHarness';

// What happens to a command before anyone is asked (src/agent/approvals/commandApproval.ts): one that only reads runs
// in every mode; `deny` rules refuse in every mode; `allow` rules run a command in `ask` only; read-only
// declines the rest, saying why. The rules as the setting and the CLI's file write them (commandRules.ts).

const MODES: readonly ApprovalMode[] = ['ask', 'all', 'read-only'];

describe('command approval: safe commands, modes and the user rules', function () {
  this.timeout(20_000);
  let judge: (line: string) => Promise<CommandVerdict>;
  let root: string;
  before(async () => {
    const bench = await toolBench({ 'README.md': '# readme\n', 'src/a.ts': 'a\n' });
    root = bench.root;
    judge = (line) => judgeCommand(line, { cwd: root, root, platform: 'linux' });
  });
  const decide = async (mode: ApprovalMode, line: string, rules: CommandRules = NO_COMMAND_RULES) =>
    decideCommand(mode, line, await judge(line), rules);

  it('a command that only reads runs in every mode; another is read-only’s to decline, and the policy’s in the others', async () => {
    for (const mode of MODES) assert.deepEqual(await decide(mode, 'rg -n applyDiscount src | head'), { run: true });
    assert.equal(await decide('ask', 'npm test'), undefined);
    assert.equal(await decide('all', 'npm test'), undefined);
    const declined = await decide('read-only', 'npm test');
    assert.equal(declined?.run, false);
    assert.match(declined && !declined.run ? declined.why : '', /read-only.*npm is not one of the programs/);
  });

  it('deny refuses in every mode, over safe commands, and inside a substitution or sh -c', async () => {
    const rules = { allow: ['git push'], deny: ['git push', 'cat README.md'] };
    for (const mode of MODES) {
      for (const line of [
        'git push',
        'git push --force origin',
        'ls && cat README.md',
        'echo $(git push)',
        "sh -c 'git  push'",
      ])
        assert.equal((await decide(mode, line, rules))?.run, false, `${mode}: ${line}`);
      assert.deepEqual(await decide(mode, 'git status', rules), { run: true });
    }
    const why = await decide('all', 'git push', rules);
    assert.match(why && !why.run ? why.why : '', /deny: git push/);
  });

  it('deny matches a program by its base name past wrappers, and git past its own options (issue 46)', async () => {
    const rules = { allow: [], deny: ['git push', 'rm'] };
    const denied = [
      'git -c color.ui=auto push',
      'git -C . push origin',
      'git --git-dir=.git --work-tree . push',
      'git --no-pager -p push',
      'git -c "x.y=a b" push',
      '/usr/bin/git push',
      'git-push',
      '/bin/rm keep.txt',
      './rm keep.txt',
      '\\rm keep.txt',
      "r''m keep.txt",
      '"rm" keep.txt',
      'command rm keep.txt',
      'env FOO=1 rm keep.txt',
      'sudo -u root rm keep.txt',
      'exec rm keep.txt',
      'nice -n 5 rm keep.txt',
      'timeout 5 /bin/rm keep.txt',
      'ls | xargs rm',
      "sh -c '/bin/rm keep.txt'",
      'bash -c "git -c a=b push"',
      'echo $(git -c "x.y=a b" push)',
      'echo "$(/bin/rm keep.txt)"',
    ];
    for (const mode of MODES)
      for (const line of denied) {
        const decision = await decide(mode, line, rules);
        assert.equal(decision?.run, false, `${mode}: ${line}`);
        assert.match(decision && !decision.run ? decision.why : '', /deny: (git push|rm)/, line);
      }
    for (const line of ['git status', 'git log --grep push', 'rg -n push src', 'cat README.md'])
      assert.deepEqual(await decide('all', line, rules), { run: true }, line);
    assert.equal(await decide('all', 'git pull', rules), undefined);
  });

  it('read-only declines the attacks of issue 46, whichever folder they run in', async () => {
    const bench = await toolBench({ 'keep.txt': 'keep\n' });
    await bench.write('vendor/cache/HEAD', 'ref: refs/heads/main\n');
    await bench.write('vendor/cache/config', '[core]\n\tworktree = ../..\n[filter "x"]\n\tclean = id\n');
    await bench.write('vendor/cache/refs/heads/.keep', '');
    const readOnly = policyFor('read-only', () => Promise.resolve(true));
    const call = (cmd: string, workdir?: string) => JSON.stringify({ cmd, ...(workdir ? { workdir } : {}) });
    const attacks: readonly (readonly [string, string?])[] = [
      ['find . -maxdepth 0 "-ex\\\nec" sh -c "touch /tmp/MARKER; id" ";"'],
      ['git log "--out\\\nput=o.txt"'],
      ['sort --o=out.txt keep.txt'],
      ['uniq - out.txt'],
      ['git status --short', 'vendor/cache'],
    ];
    for (const [cmd, workdir] of attacks)
      assert.equal((await commandGate(readOnly, 'exec_command', call(cmd, workdir), bench.workspace))?.run, false, cmd);
    assert.deepEqual(await commandGate(readOnly, 'exec_command', call('cat keep.txt'), bench.workspace), { run: true });
  });

  it('allow runs a command in ask only, and only where it matches every command of the line', async () => {
    const rules = { allow: ['npm test', 'make'], deny: [] };
    for (const line of ['npm test', 'npm test -- --grep cart', 'npm test 2>&1 | tail -5', 'make && rg foo src'])
      assert.deepEqual(await decide('ask', line, rules), { run: true }, line);
    for (const line of ['npm test; rm -rf ~', 'npm testing', 'npm run test', 'npm test > out.txt', 'npm test $(id)'])
      assert.equal(await decide('ask', line, rules), undefined, line);
    assert.equal((await decide('read-only', 'npm test', rules))?.run, false);
    assert.equal(await decide('all', 'npm test; rm -rf x', rules), undefined, 'all runs it anyway: the policy says so');
  });

  it('a rule matches the first words of a command, word for word', () => {
    assert.ok(ruleMatches('npm test', ['npm', 'test', '--', 'x']));
    assert.ok(ruleMatches('  npm   test ', ['npm', 'test']));
    assert.ok(!ruleMatches('npm test', ['npm']));
    assert.ok(!ruleMatches('npm test', ['npm', 'tests']));
    assert.ok(!ruleMatches('', ['npm']));
  });

  it('rules as written: the top lists and the folder’s own; anything else allows nothing', () => {
    const value = {
      allow: ['npm test', 3, ''],
      deny: ['git push'],
      folders: { [root]: { allow: ['make check'] }, '/elsewhere': { allow: ['rm'] } },
    };
    assert.deepEqual(rulesIn(value, root), { allow: ['npm test', 'make check'], deny: ['git push'] });
    assert.deepEqual(rulesIn(value, '/other'), { allow: ['npm test'], deny: ['git push'] });
    for (const odd of [undefined, null, 'npm test', ['npm test'], { allow: 'npm test' }])
      assert.deepEqual(rulesIn(odd, root), { allow: [], deny: [] });
  });

  it('the gate of a tool call: the policy’s mode and rules, the workspace folder’s root', async () => {
    const bench = await toolBench({ 'a.txt': 'a\n' });
    const asked: string[] = [];
    const ask = (request: ApprovalRequest) => (asked.push(request.input), Promise.resolve(true));
    const call = (cmd: string) => JSON.stringify({ cmd });
    const roots: string[] = [];
    const rules = (at: string) => (roots.push(at), { allow: ['npm test'], deny: ['cat a.txt'] });
    const readOnly = withCommandRules(policyFor('read-only', ask), rules);
    assert.deepEqual(await commandGate(readOnly, 'exec_command', call('git status'), bench.workspace), { run: true });
    assert.equal((await commandGate(readOnly, 'exec_command', call('npm test'), bench.workspace))?.run, false);
    assert.equal((await commandGate(readOnly, 'exec_command', call('cat a.txt'), bench.workspace))?.run, false);
    const askPolicy = policyFor('ask', ask, rules);
    assert.deepEqual(await commandGate(askPolicy, 'exec_command', call('npm test'), bench.workspace), { run: true });
    assert.equal(await commandGate(askPolicy, 'exec_command', call('npm install'), bench.workspace), undefined);
    assert.equal(await commandGate(askPolicy, 'read_file', '{"path":"a.txt"}', bench.workspace), undefined);
    assert.equal(await commandGate({ approve: ask }, 'exec_command', call('ls'), bench.workspace), undefined);
    assert.deepEqual([...new Set(roots)], [bench.root]);
    assert.deepEqual(asked, [], 'the gate asks no one');
  });

  it('the model is told which commands run at once and what happens to the others, in each mode', () => {
    assert.match(
      commandApprovalNote('ask', 'linux'),
      /only read run at once.*rg.*sed -n.*git status.*waits for the user/,
    );
    assert.match(commandApprovalNote('read-only', 'linux'), /only read run at once.*declined/);
    assert.match(commandApprovalNote('all', 'linux'), /Other commands run too, except those the user has denied/);
    assert.match(commandApprovalNote('ask', 'win32'), /Every shell command waits for the user/);
  });
});
