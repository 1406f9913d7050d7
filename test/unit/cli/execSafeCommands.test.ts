import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec --approve read-only` with a scripted model that explores with the shell, as Codex-trained
// models do: commands that only read run (rg, git status, a pipeline of them), each hostile one is declined
// with the reason told to the model, and the workspace is left as it was. The user's deny rule, from the
// CLI's config file, refuses even a safe command.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

const SAFE = [
  'rg -n applyDiscount src',
  'git status --short',
  'rg -n applyDiscount src | head -3 && git log --oneline -1 | wc -l',
];
const HOSTILE = [
  'rm -rf src',
  'echo pwned > pwned.txt',
  "sh -c 'touch pwned.txt'",
  "find . -name '*.js' -delete",
  'rg --pre=./pwn.sh applyDiscount',
  'git -c core.pager=./pwn.sh log',
  'cat $(touch pwned.txt)',
  'ls; touch pwned.txt',
];
const DENIED = 'git show --stat HEAD';

interface ToolEvent {
  type: string;
  callId?: string;
  input?: string;
  ok?: boolean;
  declined?: boolean;
  output?: string;
}

describe('cli: loopwire exec runs the commands that only read, in read-only', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-safe' });

  /** Every file under `dir` but .git, with its text: what "unchanged" is checked against. */
  async function snapshot(dir: string): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && !path.relative(dir, file).startsWith('.git'))
        files[path.relative(dir, file)] = await fs.readFile(file, 'utf8');
    }
    return files;
  }

  it('rg, git status and a pipeline run; the hostile commands and a denied one are declined; nothing changes', async () => {
    const dir = temp.path('workspace');
    await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    const calls = [...SAFE, ...HOSTILE, DENIED].map((cmd) => ({
      type: 'function_call',
      name: 'exec_command',
      arguments: { cmd },
    }));
    const scenario = temp.path('explore.json');
    await fs.writeFile(
      scenario,
      JSON.stringify({
        scenarios: [
          {
            name: 'explore',
            match: '^explore',
            steps: [{ output: calls }, { output: [{ type: 'message', text: 'Explored.' }] }],
          },
        ],
      }),
    );
    const config = temp.path('config');
    await fs.mkdir(path.join(config, 'loopwire'), { recursive: true });
    await fs.writeFile(
      path.join(config, 'loopwire', 'command-rules.json'),
      JSON.stringify({ allow: ['rm'], deny: ['git show'] }),
    );
    const before = await snapshot(dir);

    const result = await runProcess(
      process.execPath,
      [
        bin,
        'exec',
        '--workspace',
        dir,
        '--sessions-dir',
        temp.path('sessions'),
        '--approve',
        'read-only',
        '--json',
        '--scenario',
        scenario,
        'explore the code',
      ],
      '',
      { ...process.env, XDG_CONFIG_HOME: config },
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ToolEvent);
    const commandOf = new Map(
      events
        .filter((e) => e.type === 'tool_started')
        .map((e) => [e.callId, (JSON.parse(e.input ?? '{}') as { cmd: string }).cmd]),
    );
    const finished = new Map(events.filter((e) => e.type === 'tool_finished').map((e) => [commandOf.get(e.callId), e]));

    for (const cmd of SAFE) {
      const done = finished.get(cmd);
      assert.ok(done && !done.declined && done.ok, `${cmd}: ${done?.output}`);
    }
    assert.match(finished.get(SAFE[0] ?? '')?.output ?? '', /src\/cart\.js:\d+:function applyDiscount/);
    assert.match(finished.get(SAFE[1] ?? '')?.output ?? '', /^The command \(run as: git -c core\.fsmonitor=false/);
    assert.match(finished.get(SAFE[2] ?? '')?.output ?? '', /exit code 0[^]*\n1$/);
    for (const cmd of HOSTILE) {
      const done = finished.get(cmd);
      assert.ok(done?.declined, `${cmd} ran: ${done?.output}`);
      assert.match(
        done.output ?? '',
        /not run, because the approval mode is read-only, where only commands that only read may run/,
      );
    }
    assert.match(finished.get(DENIED)?.output ?? '', /deny: git show/);
    assert.deepEqual(await snapshot(dir), before, 'the workspace changed');
  });
});
