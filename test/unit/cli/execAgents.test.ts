import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';
import { launch, useServerBin } from './serverBin';

// `loopwire exec --agent NAME` and subagents started as custom agents (issue 50, item 3), the built bins as a
// user runs them: `loopwire-server --log-bodies` records every request's body as received, so what the model
// is told (instructions, tools, model) is read from what went over the socket, not from our own objects. The
// home folder is the test's, so that the user's own agents never count.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

const REVIEWER = `---
name: reviewer
description: Reviews changes and reports findings
tools: Read, Grep, Glob, WebFetch
model: gpt-5.2
---

You are a strict code reviewer. Report findings by file and line; change nothing.
`;

const PLANNER = `---
description: Plans before coding
tools: ['search', 'read', 'agent']
model: Claude Sonnet 4 (copilot)
handoffs:
  - label: Review the plan
    agent: reviewer
    prompt: Review the plan, it's short.
    send: true
    model: GPT-5.2 (copilot)
  - { label: Ghost, agent: ghost }
  - { label: Back, agent: agent }
---
Write the plan as numbered steps.
`;

/** VS Code's built-in Ask and Plan as handoff targets: Loopwire's own agent, read-only or in plan mode. */
const THINKER = `---
handoffs:
  - { label: Plan it, agent: plan, prompt: tidy the notes }
  - { label: Just ask, agent: ask }
---
Think first.
`;

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+alpha, tidied\n*** End Patch\n';

const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });
const say = (text: string) => ({ output: [{ type: 'message', text }] });

const SCENARIOS = {
  scenarios: [
    {
      name: 'spawns-reviewer',
      match: '^review with a helper',
      steps: [
        { output: [call('spawn_agent', { message: 'helper reviewer looks at a.txt', agent_type: 'reviewer' })] },
        { output: [call('wait', { ids: ['{{output.1.agent_id}}'], timeout_ms: 20_000 })] },
        say('the reviewer answered'),
      ],
    },
    {
      name: 'reviewer-tries-a-command',
      match: '^helper reviewer looks at (?<file>\\S+)',
      steps: [{ output: [call('exec_command', { cmd: 'touch made-by-reviewer' })] }, say('looked at {{file}}')],
    },
    { name: 'plain', match: '^say hello', steps: [say('hello')] },
    {
      name: 'tidy',
      match: '^tidy the notes',
      steps: [{ output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] }, say('planned')],
    },
  ],
};

interface Body {
  model: string;
  tools: { name: string }[];
  input: { role?: string; content?: string | { text?: string }[] }[];
}

describe('cli: loopwire exec --agent and subagents as custom agents', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      'workspace/a.txt': 'alpha\n',
      'workspace/.claude/agents/reviewer.md': REVIEWER,
      'workspace/.github/agents/planner.agent.md': PLANNER,
      'workspace/.github/agents/broken.agent.md': '---\ntools: 3\n---\nx\n',
      'home/.keep': '',
    },
    { prefix: 'exec-agents' },
  );
  // Each test's server is stopped after it.
  useServerBin(() => undefined);

  const env = () => ({ ...process.env, HOME: temp.path('home'), XDG_CONFIG_HOME: temp.path('home/.config') });

  function exec(args: string[], prompt: string) {
    const base = ['exec', '--workspace', temp.path('workspace'), '--sessions-dir', temp.path('sessions')];
    return runProcess(process.execPath, [bin, ...base, ...args, prompt], '', env());
  }

  /** Each request body the server received while `run` ran, and what exec said on stderr. */
  async function bodiesOf(
    run: (url: string) => Promise<{ code: number | null; stderr: string }>,
  ): Promise<Body[] & { stderr: string }> {
    const scenario = temp.path('scenarios.json');
    const log = temp.path(`bodies-${Date.now()}.jsonl`);
    await fs.writeFile(scenario, JSON.stringify(SCENARIOS));
    const server = await launch(['--scenario', scenario, '--log-bodies', log]);
    const result = await run(server.url);
    assert.equal(result.code, 0, result.stderr);
    const lines = (await fs.readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
    const bodies = lines
      .map((line) => (JSON.parse(line) as { body?: Body }).body)
      .filter((body): body is Body => body !== undefined && Array.isArray(body.input));
    return Object.assign(bodies, { stderr: result.stderr });
  }

  /** Each input item's text (its content a string or parts). */
  const textOf = (item: Body['input'][number]): string =>
    typeof item.content === 'string' ? item.content : (item.content ?? []).map((part) => part.text ?? '').join('');
  const texts = (body: Body) => body.input.map(textOf);
  /** The standing instructions: the developer items (the first heads the context). */
  const instructionsOf = (body: Body | undefined) =>
    (body?.input ?? [])
      .filter((item) => item.role === 'developer')
      .map(textOf)
      .join('\n');
  const first = (bodies: Body[], prompt: string) => bodies.find((body) => texts(body).some((t) => t.includes(prompt)));

  it('--agent: its body in the instructions, its tools (mapped, unknown ones said), its model; a bad file said once', async () => {
    const bodies = await bodiesOf((url) =>
      exec(['--endpoint', url, '--transport', 'http', '--approve', 'read-only', '--agent', 'reviewer'], 'say hello'),
    );
    const body = first(bodies, 'say hello');
    assert.ok(body, 'the prompt was sent');
    assert.match(instructionsOf(body), /# Custom agent: reviewer\n/);
    assert.match(instructionsOf(body), /You are a strict code reviewer\./);
    assert.deepEqual(body.tools.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
    assert.equal(body.model, 'gpt-5.2', "the agent's model");
    assert.match(bodies.stderr, /\(custom agent: reviewer from \.claude\/agents\/reviewer\.md\)/);
    assert.match(bodies.stderr, /\(custom agent reviewer: the tool 'WebFetch' is no tool of Loopwire's: left out\)/);
    assert.equal(bodies.stderr.split('custom agent not used: .github/agents/broken.agent.md').length, 2, 'said once');
  });

  it('--model wins over the agent’s model; a VS Code picker name is made an id', async () => {
    const picked = await bodiesOf((url) =>
      exec(
        [
          '--endpoint',
          url,
          '--transport',
          'http',
          '--approve',
          'read-only',
          '--agent',
          'reviewer',
          '--model',
          'gpt-4o',
        ],
        'say hello',
      ),
    );
    assert.equal(first(picked, 'say hello')?.model, 'gpt-4o');
    const planner = await bodiesOf((url) =>
      exec(['--endpoint', url, '--transport', 'http', '--approve', 'read-only', '--agent', 'Planner'], 'say hello'),
    );
    const body = first(planner, 'say hello');
    assert.equal(body?.model, 'claude-sonnet-4');
    assert.match(instructionsOf(body), /Write the plan as numbered steps\./);
  });

  it('a subagent started with agent_type naming a custom agent runs with its instructions, tools and model', async () => {
    const bodies = await bodiesOf((url) =>
      exec(
        ['--endpoint', url, '--transport', 'http', '--approve', 'all', '--model', 'gpt-5.2-codex'],
        'review with a helper',
      ),
    );
    const parent = first(bodies, 'review with a helper');
    assert.ok(parent, 'the parent asked');
    assert.doesNotMatch(instructionsOf(parent), /# Custom agent:/, 'the parent is Loopwire');
    assert.match(instructionsOf(parent), /# Custom agents for subagents\n[^]*- `reviewer`: Reviews changes/);
    const child = first(bodies, 'helper reviewer looks at a.txt');
    assert.ok(child, 'the subagent asked');
    assert.match(instructionsOf(child), /You are a strict code reviewer\./);
    assert.deepEqual(child.tools.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
    assert.equal(child.model, 'gpt-5.2-codex', '--model names the model, for the subagent too');
    await assert.rejects(fs.stat(temp.path('workspace/made-by-reviewer')), 'its command was not among its tools');
  });

  it('an unknown --agent is bad usage (exit 2) naming the agents there are; nothing is sent', async () => {
    const result = await exec(['--agent', 'nobody'], 'say hello');
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /--agent: no custom agent 'nobody': the agents here are planner \(\.github\/agents\/planner\.agent\.md\), reviewer \(\.claude\/agents\/reviewer\.md\)/,
    );
    assert.match(
      result.stderr,
      /\(custom agent not used: \.github\/agents\/broken\.agent\.md: the field `tools` is not a list of names\)/,
    );
    const help = await runProcess(process.execPath, [bin, 'exec', '--help'], '', env());
    assert.match(help.stdout, /--agent NAME +run as the custom agent NAME/);
  });

  it("--agent with handoffs: each is the command that continues the session (stderr), and data on --json's done", async () => {
    let text = '';
    const bodies = await bodiesOf(async (url) => {
      const result = await exec(['--endpoint', url, '--transport', 'http', '--agent', 'Planner'], 'say hello');
      text = result.stderr;
      return result;
    });
    assert.ok(first(bodies, 'say hello'));
    const file = /\(session kept in (\S+); continue it with --resume\)/.exec(text)?.[1];
    assert.ok(file, text);
    const review = `(handoff: Review the plan → reviewer: loopwire exec --resume ${file} --agent reviewer --model gpt-5.2 'Review the plan, it'\\''s short.')`;
    assert.ok(text.includes(review), text);
    assert.ok(text.includes(`(handoff: Back → Loopwire: loopwire exec --resume ${file} PROMPT)`), text);
    assert.match(
      text,
      /\(custom agent \.github\/agents\/planner\.agent\.md: its handoff 'Ghost': the agent 'ghost' is no agent here/,
    );
    assert.equal(text.split("its handoff 'Ghost'").length, 2, 'said once');
    const json = await bodiesOf(async (url) => {
      const result = await exec(
        ['--endpoint', url, '--transport', 'http', '--agent', 'Planner', '--json'],
        'say hello',
      );
      const done = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { type?: string; handoffs?: unknown };
      assert.equal(done.type, 'done');
      const kept = /"command":"loopwire exec --resume (\S+) /.exec(result.stdout)?.[1];
      assert.deepEqual(done.handoffs, [
        {
          label: 'Review the plan',
          agent: 'reviewer',
          prompt: "Review the plan, it's short.",
          send: true,
          model: 'gpt-5.2',
          command: `loopwire exec --resume ${kept} --agent reviewer --model gpt-5.2 'Review the plan, it'\\''s short.'`,
        },
        { label: 'Back', agent: 'Loopwire', command: `loopwire exec --resume ${kept} PROMPT` },
      ]);
      return result;
    });
    assert.ok(first(json, 'say hello'));
    // The command does what it says: the session goes on as the reviewer, with the conversation before it.
    const resumed = await bodiesOf((url) =>
      runProcess(
        process.execPath,
        [
          bin,
          'exec',
          '--workspace',
          temp.path('workspace'),
          '--endpoint',
          url,
          '--transport',
          'http',
          '--approve',
          'read-only',
          '--resume',
          file,
          '--agent',
          'reviewer',
          '--model',
          'gpt-5.2',
          'say hello again',
        ],
        '',
        env(),
      ),
    );
    const body = first(resumed, 'say hello again');
    assert.equal(body?.model, 'gpt-5.2');
    assert.match(instructionsOf(body), /You are a strict code reviewer\./);
    assert.ok(
      texts(body).some((each) => each.includes('say hello') && !each.includes('again')),
      'the conversation before it',
    );
  });

  it('--agent without handoffs offers none', async () => {
    const bodies = await bodiesOf((url) =>
      exec(
        ['--endpoint', url, '--transport', 'http', '--approve', 'read-only', '--agent', 'reviewer', '--json'],
        'say hello',
      ),
    );
    assert.doesNotMatch(bodies.stderr, /\(handoff:/);
    assert.ok(first(bodies, 'say hello'));
  });

  it('a handoff to ask or plan: its command runs Loopwire in --approve read-only or plan, never looser than the run', async () => {
    const thinker = temp.path('workspace/.github/agents/thinker.agent.md');
    await fs.writeFile(thinker, THINKER);
    try {
      let text = '';
      await bodiesOf(async (url) => {
        const result = await exec(
          ['--endpoint', url, '--transport', 'http', '--approve', 'all', '--agent', 'thinker'],
          'say hello',
        );
        text = result.stderr;
        return result;
      });
      const file = /\(session kept in (\S+); continue it with --resume\)/.exec(text)?.[1] ?? '';
      assert.ok(file, text);
      const planned = `loopwire exec --resume ${file} --approve plan 'tidy the notes'`;
      assert.ok(text.includes(`(handoff: Plan it → Loopwire: ${planned})`), text);
      assert.ok(
        text.includes(`(handoff: Just ask → Loopwire: loopwire exec --resume ${file} --approve read-only PROMPT)`),
        text,
      );
      // A run in plan mode: the ask handoff's command stays in plan (--json's data says the handoff's own mode).
      await bodiesOf(async (url) => {
        const result = await exec(
          ['--endpoint', url, '--transport', 'http', '--approve', 'plan', '--agent', 'thinker', '--json'],
          'say hello',
        );
        const done = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { handoffs?: unknown };
        const kept = /"command":"loopwire exec --resume (\S+) /.exec(result.stdout)?.[1];
        assert.deepEqual(done.handoffs, [
          {
            label: 'Plan it',
            agent: 'Loopwire',
            prompt: 'tidy the notes',
            mode: 'plan',
            command: `loopwire exec --resume ${kept} --approve plan 'tidy the notes'`,
          },
          {
            label: 'Just ask',
            agent: 'Loopwire',
            mode: 'read-only',
            command: `loopwire exec --resume ${kept} --approve plan PROMPT`,
          },
        ]);
        return result;
      });
      // The printed command, run as printed (its words as a shell splits them): the prompt goes in plan mode.
      const words = [...planned.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
      assert.deepEqual(words.slice(0, 2), ['loopwire', 'exec']);
      const where = ['--workspace', temp.path('workspace')];
      const resumed = await bodiesOf((url) =>
        runProcess(
          process.execPath,
          [bin, ...words.slice(1), ...where, '--endpoint', url, '--transport', 'http'],
          '',
          env(),
        ),
      );
      const all = JSON.stringify(resumed);
      assert.match(all, /<approval_mode>plan<\/approval_mode>/);
      assert.match(all, /apply_patch call was not run: the session is in plan mode/);
      assert.equal(await fs.readFile(temp.path('workspace/a.txt'), 'utf8'), 'alpha\n', 'nothing written');
    } finally {
      await fs.rm(thinker, { force: true });
    }
  });
});
