import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shellWord } from '../../../src/mcp/mcpConsent';
import { sandboxSupport } from '../../../src/sandbox';
import { type ProcessResult, repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` on a terminal (issue 46, item 3): where commands can be confined it runs in `auto` by
// default, and a command the model asks to run outside the sandbox is asked as such — the command, the
// model's reason, Allow once / Always allow `prefix` / Decline; an "always" makes a later escalation with
// that prefix run without a question, for the rest of the run. Where commands cannot be confined it stays
// in `ask`, the header says there is no sandbox, and one line says why. The built bin on a real
// pseudo-terminal (util-linux's `script`), on the embedded backend's scripted model.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const escalate = (cmd: string, prefix: string[]) => ({
  output: [
    {
      type: 'function_call',
      name: 'exec_command',
      arguments: {
        cmd,
        sandbox_permissions: 'require_escalated',
        justification: `May I run ${cmd}?`,
        prefix_rule: prefix,
      },
    },
  ],
});

/** Keys typed once the output so far matches `when`. */
interface Typing {
  when: RegExp;
  keys: string;
}

/** The bin on a pseudo-terminal, typing each of `typing` as its moment comes: stdout is all that was shown. */
function execOnTerminal(args: string[], typing: Typing[], cwd: string, env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  const line = [process.execPath, bin, 'exec', ...args].map(shellWord).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd, env });
    let stdout = '';
    const waiting = [...typing];
    // A question never answered would hang the suite: the run is ended (exit code null), and the assertions
    // say what was shown.
    const guard = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      while (waiting[0] && waiting[0].when.test(stdout)) child.stdin.write(waiting.shift()?.keys ?? '');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code: signal === null ? code : null, stdout, stderr: '' });
    });
  });
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('cli: loopwire exec on a terminal asks to leave the sandbox', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({ 'README.md': '# a project\n' }, { prefix: 'exec-escalation' });
  const made: string[] = [];
  // No command rule of the user's (a config folder that does not exist): every escalation is asked.
  const noConfig = path.join(os.tmpdir(), 'loopwire-no-config');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', XDG_CONFIG_HOME: noConfig };
  delete env.FORCE_COLOR;
  delete env.LOOPWIRE_SANDBOX;
  afterEach(() => {
    for (const file of made.splice(0)) fs.rmSync(file, { force: true });
  });

  /** A scenario answering `run it` with `steps`, then a last word; the arguments that run it. */
  function scenario(steps: unknown[]): string[] {
    const file = temp.path(`scenario-${randomBytes(3).toString('hex')}.json`);
    const done = { output: [{ type: 'message', text: 'All asked.' }] };
    fs.writeFileSync(file, JSON.stringify({ scenarios: [{ name: 'run', match: '^run it', steps: [...steps, done] }] }));
    return ['--workspace', temp.dir, '--sessions-dir', temp.path('sessions'), '--scenario', file, 'run it'];
  }

  const target = (what: string) => {
    const file = `/var/tmp/loopwire-exec-escalation-${what}-${process.pid}-${randomBytes(4).toString('hex')}`;
    made.push(file);
    return file;
  };

  it('auto by default: the command, the reason, Always allow `touch`; a later touch runs unasked, another is asked', async function () {
    const support = sandboxSupport();
    if (!support.available) {
      console.log(`      (skipped: auto needs a sandbox for commands here: ${support.reason})`);
      this.skip();
    }
    const [first, second, third] = [target('first'), target('second'), target('third')];
    const args = scenario([
      escalate(`touch ${first}`, ['touch']),
      escalate(`touch ${second}`, ['touch']),
      escalate(`mkdir ${third}`, ['mkdir']),
    ]);
    const question = /\[y\]es, once \/ \[p\] always allow `(touch|mkdir)` in this run \/ \[n\]o: /;
    const result = await execOnTerminal(
      args,
      [
        { when: question, keys: 'p\r' },
        { when: /always allow `mkdir` in this run \/ \[n\]o: /, keys: 'n\r' },
      ],
      temp.dir,
      env,
    );
    const shown = result.stdout.replace(/\r/g, '');
    assert.equal(result.code, 0, shown);
    assert.match(shown, /approvals auto, sandbox workspace-write \(network off\), in /);
    assert.match(shown, new RegExp(`Run outside the sandbox: touch ${first}\\n {2}The model says: May I run touch `));
    assert.equal(count(shown, 'Run outside the sandbox: touch'), 1, `the second touch was asked:\n${shown}`);
    assert.equal(count(shown, `Run outside the sandbox: mkdir ${third}`), 1, shown);
    assert.ok(fs.existsSync(first) && fs.existsSync(second), `the touches ran outside the sandbox:\n${shown}`);
    assert.ok(!fs.existsSync(third), 'the declined mkdir did not run');
    assert.match(shown, /✗ declined The user declined this exec_command call/);
    assert.doesNotMatch(shown, /No sandbox for commands/);
  });

  it('where commands cannot be confined: ask by default, the header says none, and one line says why', async () => {
    const file = target('unconfined');
    const args = scenario([escalate(`touch ${file}`, ['touch'])]);
    const result = await execOnTerminal(args, [{ when: /\[y\]es \/ \[n\]o \/ \[a\]ll: /, keys: 'n\r' }], temp.dir, {
      ...env,
      LOOPWIRE_SANDBOX: 'off',
    });
    const shown = result.stdout.replace(/\r/g, '');
    assert.equal(result.code, 0, shown);
    assert.match(
      shown,
      /approvals ask, sandbox none \(the sandbox is turned off by LOOPWIRE_SANDBOX=off\), in /,
      'no sandbox claimed',
    );
    assert.equal(
      count(shown, '(No sandbox for commands: The sandbox is turned off by LOOPWIRE_SANDBOX=off.'),
      1,
      shown,
    );
    assert.match(shown, /so the approval mode is ask, not auto\.\)/);
    assert.ok(!fs.existsSync(file), 'declined');
  });
});
