import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` with its commands in the OS sandbox (issue 46, item 3), the built bin against the embedded
// backend's scripted model, on the real mechanism (bwrap): in --approve auto a command writing in the workspace
// runs unasked and one writing outside it fails, the model told that the sandbox refused it; a command the
// model asks to run outside the sandbox is declined without a terminal, said `declined: no terminal`, the
// model told it was declined; in --approve read-only the issue's hostile `find … -ex\<newline>ec` changes
// nothing on the host; and the first request tells the model of the sandbox only where there is one.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

interface ToolEvent {
  type: string;
  callId?: string;
  input?: string;
  ok?: boolean;
  declined?: boolean;
  output?: string;
}

type Args = Record<string, unknown>;
const call = (args: Args) => ({ output: [{ type: 'function_call', name: 'exec_command', arguments: args }] });

/** A path on the host outside the workspace and the temp folder, unique to this run. */
const outside = (dir: string, what: string) =>
  path.join(dir, `loopwire-exec-sandbox-${what}-${process.pid}-${randomBytes(4).toString('hex')}`);

describe('cli: loopwire exec confines its commands (bwrap)', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({ 'README.md': '# a project\n' }, { prefix: 'exec-sandbox' });
  const made: string[] = [];
  // The environment the bin runs in: the sandbox on, whatever the caller's LOOPWIRE_SANDBOX says, and a config
  // folder that does not exist, so that no command rule of the user's allows or denies anything here.
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: path.join(os.tmpdir(), 'loopwire-no-config') };
  delete env.LOOPWIRE_SANDBOX;

  before(function () {
    const support = sandboxSupport();
    if (support.available) return;
    console.log(`      (skipped: these runs need a sandbox for commands here: ${support.reason})`);
    this.skip();
  });
  afterEach(() => {
    for (const file of made.splice(0)) fs.rmSync(file, { force: true });
  });

  /** The bin on the workspace with `steps` as the scripted model's answers to the prompt `run it`. */
  async function exec(steps: unknown[], args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
    const scenario = temp.path(`scenario-${randomBytes(3).toString('hex')}.json`);
    const answer = { output: [{ type: 'message', text: 'Ran them.' }] };
    fs.writeFileSync(
      scenario,
      JSON.stringify({ scenarios: [{ name: 'run', match: '^run it', steps: [...steps, answer] }] }),
    );
    const sessions = temp.path('sessions');
    const argv = [bin, 'exec', '--workspace', temp.dir, '--sessions-dir', sessions, '--scenario', scenario];
    const result = await runProcess(process.execPath, [...argv, ...args, 'run it'], '', { ...env, ...extraEnv });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    return result;
  }

  /** The finished events of a --json run, by the command each ran. */
  function finishedByCommand(stdout: string): Map<string, ToolEvent> {
    const events = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ToolEvent);
    const commandOf = new Map(
      events.filter((e) => e.type === 'tool_started').map((e) => [e.callId, (JSON.parse(e.input ?? '{}') as Args).cmd]),
    );
    return new Map(events.filter((e) => e.type === 'tool_finished').map((e) => [String(commandOf.get(e.callId)), e]));
  }

  it('auto: a write in the workspace runs unasked; one outside fails, and the model is told the sandbox refused it', async () => {
    const varTmp = outside('/var/tmp', 'auto');
    const home = outside(os.homedir(), 'auto');
    made.push(varTmp, home);
    const inside = 'echo made > inside.txt';
    const commands = [inside, `echo x > ${varTmp}`, `touch ${home}`];
    const result = await exec(
      commands.map((cmd) => call({ cmd })),
      ['--approve', 'auto', '--json'],
    );
    const finished = finishedByCommand(result.stdout);
    const ran = finished.get(inside);
    assert.equal(ran?.ok, true, ran?.output);
    assert.equal(ran?.declined, undefined, 'not asked: without a terminal a question would have been declined');
    assert.equal(fs.readFileSync(temp.path('inside.txt'), 'utf8'), 'made\n');
    for (const cmd of commands.slice(1)) {
      const refused = finished.get(cmd);
      assert.equal(refused?.ok, false, cmd);
      assert.equal(refused?.declined, undefined, `${cmd} ran, in the sandbox`);
      assert.match(refused?.output ?? '', /The sandbox \(workspace-write, network off\) refused this: /, cmd);
      assert.match(refused?.output ?? '', /sandbox_permissions "require_escalated"/, cmd);
    }
    assert.ok(!fs.existsSync(varTmp), `${varTmp} was written`);
    assert.ok(!fs.existsSync(home), `${home} was written`);
    assert.match(result.stderr, /^$|^\(/, 'no notice of a missing sandbox');
    assert.doesNotMatch(result.stderr, /No sandbox for commands/);
  });

  it('auto without a terminal: a require_escalated call is declined, printed `declined: no terminal`, the model told', async () => {
    const target = outside('/var/tmp', 'escalated');
    made.push(target);
    const escalation = {
      cmd: `touch ${target}`,
      sandbox_permissions: 'require_escalated',
      justification: 'Write the marker outside the workspace?',
      prefix_rule: ['touch'],
    };
    const text = await exec([call(escalation)], ['--approve', 'auto']);
    assert.match(
      text.stdout,
      /^loopwire exec: .* approvals auto, sandbox workspace-write \(network off\), in /,
      'the header names the sandbox in force',
    );
    assert.match(text.stdout, /▸ exec_command touch \S+\n {2}✗ declined: no terminal — /);
    assert.match(text.stdout, /\ndone: the model answered · 2 turns · 1 tool call · 1 call declined · /);
    assert.ok(!fs.existsSync(target), `${target} was written`);
    // What the model read: not that the user said no, but that no one could be asked (the transcript holds it).
    const [session] = fs.readdirSync(temp.path('sessions')).sort();
    const transcript = fs.readFileSync(path.join(temp.path('sessions'), session ?? ''), 'utf8');
    assert.match(
      transcript,
      /"output":"This exec_command call was not run: it needs the user's yes, and there is no terminal to ask on/,
    );

    const json = await exec([call(escalation)], ['--approve', 'auto', '--json']);
    const declined = finishedByCommand(json.stdout).get(escalation.cmd);
    assert.equal(declined?.declined, true);
    assert.match(json.stderr, /\(exec_command declined: no terminal\)\n/);
    assert.ok(!fs.existsSync(target), `${target} was written`);
  });

  it("read-only: the issue's hostile find and git log change nothing on the host or in the workspace", async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: temp.dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', 'README.md');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    const marker = outside('/tmp', 'MARKER');
    made.push(marker);
    // Bash joins `-ex\<newline>ec` into -exec (and --out…put into --output) where a parser may see two words.
    const find = `find . -maxdepth 0 "-ex\\\nec" sh -c "touch ${marker}; id" ";"`;
    const log = 'git log -1 "--out\\\nput=o.txt"';
    const result = await exec([call({ cmd: find }), call({ cmd: log })], ['--approve', 'read-only', '--json']);
    const finished = finishedByCommand(result.stdout);
    assert.ok(finished.has(find) && finished.has(log), result.stdout);
    assert.ok(!fs.existsSync(marker), `the host's /tmp got ${marker}: ${finished.get(find)?.output}`);
    assert.ok(!fs.existsSync(temp.path('o.txt')), `git log wrote o.txt: ${finished.get(log)?.output}`);
    assert.deepEqual(fs.readdirSync(temp.dir).sort(), ['.git', 'README.md', 'sessions', ...scenarios()].sort());
  });

  it('--approve all --sandbox read-only: no parser decides, and the sandbox alone keeps every write out', async () => {
    const marker = outside('/tmp', 'all-read-only');
    made.push(marker);
    const write = `touch ${marker}; echo x > written.txt`;
    const result = await exec([call({ cmd: write })], ['--approve', 'all', '--sandbox', 'read-only', '--json']);
    const finished = finishedByCommand(result.stdout).get(write);
    assert.equal(finished?.declined, undefined, 'run, not declined');
    assert.match(finished?.output ?? '', /The sandbox \(read-only, network off\) refused this: /);
    assert.ok(!fs.existsSync(marker), `the host's /tmp got ${marker}`);
    assert.ok(!fs.existsSync(temp.path('written.txt')), 'the workspace was written');
  });

  /** The scenario files this suite wrote into the workspace folder. */
  const scenarios = () => fs.readdirSync(temp.dir).filter((name) => name.startsWith('scenario-'));

  it('--dump-request in auto tells the model of the sandbox and its way out; with LOOPWIRE_SANDBOX=off, of neither', async () => {
    const dump = async (extraEnv: NodeJS.ProcessEnv) => {
      const args = [bin, 'exec', '--workspace', temp.dir, '--approve', 'auto', '--dump-request', 'run it'];
      const result = await runProcess(process.execPath, args, '', { ...env, ...extraEnv });
      assert.equal(result.code, 0, result.stderr);
      return result;
    };
    const confined = await dump({});
    assert.match(confined.stdout, /<sandbox_mode>workspace-write<\/sandbox_mode>/);
    assert.match(confined.stdout, /<network_access>restricted<\/network_access>/);
    assert.match(confined.stdout, /"sandbox_permissions":\{/);
    const networked = await runProcess(
      process.execPath,
      [bin, 'exec', '--workspace', temp.dir, '--approve', 'auto', '--allow-network', '--dump-request', 'run it'],
      '',
      env,
    );
    assert.match(networked.stdout, /<network_access>enabled<\/network_access>/);
    const off = await dump({ LOOPWIRE_SANDBOX: 'off' });
    assert.doesNotMatch(off.stdout, /<sandbox_mode>|<network_access>|sandbox_permissions/);
    assert.match(off.stdout, /<approval_mode>auto<\/approval_mode>/);
  });
});
