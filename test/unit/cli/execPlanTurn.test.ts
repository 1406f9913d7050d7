import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { type LoopwireServer, ScenarioFile, startServer } from '../../../src/server';
import { execOnTerminal } from '../support/execOnTerminal';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `/plan PROMPT`, and a prompt file's `agent: ask` or `agent: plan`, set the mode of that prompt alone (issue
// 50: "/plan (plan mode for this prompt)"), as in the panel: the prompt's own patch and its subagent's are
// declined, and the prompt queued after it with Tab goes in the run's mode (--approve all): its patch is
// applied and its request tells the model `all`. Before, the mode was the whole run's: the queued prompt was
// declined too. A session resumed later goes in the mode its own run is given. The built bin on a real
// pseudo-terminal (util-linux's `script`) against the real server over a socket, whose log gives the bodies.

const TOKEN = 'sk-exec-plan-turn';
const patch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+made\n*** End Patch\n`;
const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });
const edit = (file: string) => ({ output: [{ type: 'custom_tool_call', name: 'apply_patch', input: patch(file) }] });
const say = (text: string) => ({ output: [{ type: 'message', text }] });
const SCENARIOS = [
  {
    name: 'plan',
    match: '^plan the change',
    steps: [
      // It waits (a read, in the reading sandbox) until the test has queued the next prompt.
      { output: [call('exec_command', { cmd: 'cat gate.fifo' })] },
      edit('planned.txt'),
      { output: [call('spawn_agent', { message: 'helper writes' })] },
      { output: [call('wait', { ids: ['{{output.3.agent_id}}'], timeout_ms: 20_000 })] },
      say('planned'),
    ],
  },
  { name: 'quick-plan', match: '^plan quickly', steps: [edit('planned.txt'), say('planned')] },
  { name: 'helper', match: '^helper writes', steps: [edit('helper.txt'), say('helper done')] },
  { name: 'write', match: '^write the file', steps: [edit('made-after.txt'), say('file written')] },
];
/** Checked as the server reads a file of them. */
const FILE = ScenarioFile.parse({ scenarios: SCENARIOS });

interface Body {
  input: { role?: string; content?: string | { text?: string }[] }[];
}

const textOf = (item: Body['input'][number]): string =>
  typeof item.content === 'string' ? item.content : (item.content ?? []).map((part) => part.text ?? '').join('');
const lastUser = (body: Body) => textOf([...body.input].reverse().find((item) => item.role === 'user') ?? {});
/** The approval mode the last environment item of `body` names. */
const modeOf = (body: Body | undefined) =>
  [...(body?.input ?? [])]
    .map(textOf)
    .reverse()
    .map((text) => /<approval_mode>([a-z-]+)<\/approval_mode>/.exec(text)?.[1])
    .find((mode) => mode !== undefined);

describe('cli: loopwire exec, /plan and a prompt file’s agent: ask/plan hold for that prompt alone', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      'work/README.md': '# plan turn\n',
      'work/.github/prompts/ask.prompt.md': '---\nagent: ask\n---\nplan the change.\n',
      'work/.github/prompts/planned.prompt.md': '---\nagent: plan\n---\nplan the change.\n',
      'work/.github/prompts/quick-ask.prompt.md': '---\nagent: ask\n---\nplan quickly.\n',
    },
    { prefix: 'exec-plan-turn' },
  );
  let server: LoopwireServer;
  const serve = () =>
    startServer({
      token: TOKEN,
      scenarios: [FILE],
      logFile: temp.path('wire.jsonl'),
      logBodies: true,
    });
  beforeEach(async () => {
    execFileSync('mkfifo', [temp.path('work/gate.fifo')]);
    server = await serve();
  });
  afterEach(() => server.close());

  const env = () => ({ ...process.env, OPENAI_API_KEY: TOKEN });
  const base = () => ['--endpoint', server.url, '--approve', 'all', '--sessions-dir', temp.path('sessions')];
  const exists = (file: string) => fs.existsSync(temp.path(`work/${file}`));

  /** The request bodies the server received (it is closed first). */
  async function bodies(): Promise<Body[]> {
    await server.close();
    return fs
      .readFileSync(temp.path('wire.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; body?: Body })
      .filter((line) => line.type === 'response.create' && Array.isArray(line.body?.input))
      .flatMap((line) => (line.body ? [line.body] : []));
  }

  /** `prompt` run on a terminal, 'write the file' queued with Tab while it runs; what it printed. */
  async function planThenQueued(prompt: string): Promise<string> {
    const args = [...base(), '--workspace', temp.path('work'), prompt];
    // The gate opens once the queued line is shown: the planning task is still running then.
    const open = () => void fs.writeFile(temp.path('work/gate.fifo'), 'open\n', () => undefined);
    const cues = [
      { when: /Tab queues it as the next prompt/, then: 'write the file\t' },
      { when: /next › write the file/, then: open },
    ];
    const result = await execOnTerminal(args, cues, temp.dir, env());
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /planned[^]*› next prompt: write the file[^]*file written/);
    return result.stdout;
  }

  /** The planning prompt declined its patch and its subagent's; the queued one's was applied, in `all`. */
  async function assertOnlyQueuedWrote(mode: string): Promise<void> {
    assert.equal(exists('planned.txt'), false, "the planning prompt's own patch was declined");
    assert.equal(exists('helper.txt'), false, "its subagent's patch was declined");
    assert.equal(exists('made-after.txt'), true, 'the queued prompt ran in the run’s mode');
    const sent = await bodies();
    const planning = sent.find((body) => lastUser(body).startsWith('plan the change'));
    const helper = sent.find((body) => lastUser(body).startsWith('helper writes'));
    const queued = sent.find((body) => lastUser(body) === 'write the file');
    assert.equal(modeOf(planning), mode);
    assert.equal(modeOf(helper), mode, 'the subagent is told the mode of the prompt it works for');
    assert.equal(modeOf(queued), 'all', 'the queued prompt’s request tells the model the run’s mode');
  }

  it('/plan: its prompt and its subagent change nothing; the prompt queued after it goes in the run’s mode', async () => {
    const shown = await planThenQueued('/plan plan the change');
    assert.match(shown, /plan mode/i, 'the declined patch says why');
    await assertOnlyQueuedWrote('plan');
  });

  it('a prompt file’s agent: ask (read-only) and agent: plan hold for its prompt alone', async () => {
    await planThenQueued('/ask');
    await assertOnlyQueuedWrote('read-only');
    fs.rmSync(temp.path('work/made-after.txt'));
    fs.rmSync(temp.path('wire.jsonl'));
    server = await serve();
    await planThenQueued('/planned');
    await assertOnlyQueuedWrote('plan');
  });

  it('a session /plan ran, resumed with --approve all, goes in all: its patch is applied', async () => {
    const exec = (args: string[]) =>
      runProcess(process.execPath, [`${repoRoot}/dist/cli/loopwire.js`, 'exec', ...base(), ...args], '', env());
    const planned = await exec(['--workspace', temp.path('work'), '/plan plan quickly']);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(exists('planned.txt'), false);
    const [kept] = fs.readdirSync(temp.path('sessions'));
    assert.ok(kept, 'the run kept its session');
    const file = temp.path(`sessions/${kept}`);
    const wrote = await exec(['--workspace', temp.path('work'), '--resume', file, 'write the file']);
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.equal(exists('made-after.txt'), true);
    const queued = (await bodies()).find((body) => lastUser(body) === 'write the file');
    assert.equal(modeOf(queued), 'all', 'the resumed run tells the model its own mode, not the plan left over');
  });

  it('a prompt file’s agent: ask in a run in plan mode stays in plan: its own mode only narrows the run’s', async () => {
    const args = ['--endpoint', server.url, '--approve', 'plan', '--sessions-dir', temp.path('sessions')];
    const bin = `${repoRoot}/dist/cli/loopwire.js`;
    const run = await runProcess(
      process.execPath,
      [bin, 'exec', ...args, '--workspace', temp.path('work'), '/quick-ask'],
      '',
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(exists('planned.txt'), false);
    assert.match(run.stdout, /plan mode/i, 'the declined patch says plan mode, not read-only');
    const asked = (await bodies()).filter((body) => lastUser(body).startsWith('plan quickly'));
    assert.ok(asked.length > 0);
    assert.deepEqual(
      asked.map((body) => modeOf(body)),
      asked.map(() => 'plan'),
    );
  });
});
