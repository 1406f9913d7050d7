import * as assert from 'node:assert/strict';
import {
  type ApprovalMode,
  type ApprovalPolicy,
  Transcript,
  createAgentSession,
  environmentReader,
  environmentText,
  localDate,
  timeZone,
} from '../../../src/agent';
import { type AnyInputItem, isContextMessage, isEnvironmentContext, isPrompt } from '../../../src/protocol';
import { ScriptedModel } from '../../../src/server/scriptedModel';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { type WireLine, requestsOf, useAgentBench } from './agentHarness';

// The `<environment_context>` item (issue 36, item 3): its format, sent before the first prompt, sent again on
// the same chain when what it says changes (here the approval mode, mid-task), kept in the transcript, and
// passed over by the scripted model when it looks for the prompt a scenario answers.

const FACTS = { cwd: '/work/app', shell: 'bash', folders: ['/work/app', '/work/lib'] };

describe('agent: the environment context item', () => {
  it('says where the agent works in the format Codex-trained models know', () => {
    const now = new Date(2026, 11, 6, 23, 30);
    assert.equal(
      environmentText(FACTS, 'ask', now),
      [
        '<environment_context>',
        '  <cwd>/work/app</cwd>',
        '  <shell>bash</shell>',
        '  <current_date>2026-12-06</current_date>',
        `  <timezone>${timeZone()}</timezone>`,
        `  <os>${{ darwin: 'macOS', linux: 'Linux', win32: 'Windows' }[process.platform as string] ?? process.platform}</os>`,
        '  <workspace_folders>',
        '    <folder>/work/app</folder>',
        '    <folder>/work/lib</folder>',
        '  </workspace_folders>',
        '  <approval_mode>ask</approval_mode>',
        '</environment_context>',
      ].join('\n'),
    );
    assert.equal(localDate(now), '2026-12-06', 'the local date, not UTC’s');
    assert.match(environmentText({ ...FACTS, cwd: '/a&b<c>' }, undefined), /<cwd>\/a&amp;b&lt;c&gt;<\/cwd>/);
    assert.ok(!environmentText(FACTS, undefined).includes('approval_mode'));
  });

  it('keeps the time zone between requests, and follows TZ when it is set', () => {
    const before = process.env['TZ'];
    try {
      process.env['TZ'] = 'Asia/Tokyo';
      assert.equal(timeZone(), 'Asia/Tokyo');
      assert.equal(timeZone(), 'Asia/Tokyo');
      process.env['TZ'] = 'America/Denver';
      assert.equal(timeZone(), 'America/Denver');
    } finally {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    }
    assert.equal(timeZone(), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  });

  it('says the sandbox in Codex’s words where commands may be confined, and nothing of it where not', () => {
    const now = new Date(2026, 11, 6, 23, 30);
    const lines = (sandbox: Parameters<typeof environmentText>[3]) =>
      environmentText(FACTS, 'auto', now, sandbox)
        .split('\n')
        .filter((line) => /sandbox_mode|network_access/.test(line));
    assert.deepEqual(lines({ mode: 'workspace-write', network: false }), [
      '  <sandbox_mode>workspace-write</sandbox_mode>',
      '  <network_access>restricted</network_access>',
    ]);
    assert.deepEqual(lines({ mode: 'read-only', network: true }), [
      '  <sandbox_mode>read-only</sandbox_mode>',
      '  <network_access>enabled</network_access>',
    ]);
    assert.deepEqual(lines('none'), [
      '  <sandbox_mode>danger-full-access</sandbox_mode>',
      '  <network_access>enabled</network_access>',
    ]);
    assert.deepEqual(lines(undefined), [], 'no sandbox to speak of: the item claims none');
    // The reader builds it again when the sandbox changes, as when the mode does.
    let sandbox: Parameters<typeof environmentText>[3] = { mode: 'workspace-write', network: false };
    const read = environmentReader(
      () => FACTS,
      () => 'auto',
      () => now.getTime(),
      () => sandbox,
    );
    assert.match(read(), /<network_access>restricted/);
    sandbox = { mode: 'workspace-write', network: true };
    assert.match(read(), /<network_access>enabled/);
  });

  it('builds its text again only when a fact, the mode, the day or the zone changed, and the same text', () => {
    const facts = { cwd: '/work/app', shell: 'bash', folders: ['/work/app'] };
    let mode: ApprovalMode | undefined = 'ask';
    let at = new Date(2026, 11, 6, 23, 59, 59).getTime();
    const read = environmentReader(
      () => facts,
      () => mode,
      () => at,
    );
    const first = read();
    assert.equal(first, environmentText(facts, 'ask', new Date(at)), 'byte for byte what environmentText says');
    assert.equal(read(), first);
    facts.folders.push('/work/lib'); // changed in place
    assert.match(read(), /<folder>\/work\/lib<\/folder>/);
    facts.shell = 'zsh';
    assert.match(read(), /<shell>zsh<\/shell>/);
    facts.cwd = '/work/lib';
    assert.match(read(), /<cwd>\/work\/lib<\/cwd>/);
    mode = undefined;
    assert.doesNotMatch(read(), /approval_mode/);
    at += 1000; // past midnight: the next day
    assert.match(read(), new RegExp(`<current_date>${localDate(new Date(at))}</current_date>`));
    assert.equal(read(), environmentText(facts, undefined, new Date(at)));
    const saved = process.env['TZ'];
    try {
      process.env['TZ'] = 'Pacific/Kiritimati';
      assert.match(read(), /<timezone>Pacific\/Kiritimati<\/timezone>/);
    } finally {
      if (saved === undefined) delete process.env['TZ'];
      else process.env['TZ'] = saved;
    }
  });

  it('is a context item, not a prompt; AGENTS.md messages are context items too', () => {
    const item = (text: string): AnyInputItem => ({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text }],
    });
    const environment = item(environmentText(FACTS, 'all'));
    assert.ok(isEnvironmentContext(environment) && isContextMessage(environment) && !isPrompt(environment));
    assert.ok(isContextMessage(item('# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>')));
    assert.ok(isPrompt(item('fix the test')) && isPrompt({ type: 'message', role: 'user', content: 'steer: stop' }));
  });

  it('the scripted model answers the prompt before a context item sent mid-task, at the right step', () => {
    const model = new ScriptedModel([
      {
        scenarios: [
          {
            name: 'two',
            match: 'two steps',
            steps: [
              { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'a' } }] },
              { output: [{ type: 'message', text: 'done' }] },
            ],
          },
        ],
      },
    ]);
    const user = (text: string): AnyInputItem => ({ type: 'message', role: 'user', content: text });
    const items: AnyInputItem[] = [
      user(environmentText(FACTS, 'ask')),
      user('two steps'),
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'text' },
      user(environmentText(FACTS, 'all')),
    ];
    assert.equal(model.respond(items).trace, 'two#2');
  });
});

describe('agent: the environment item on the wire', function () {
  this.timeout(20_000);
  const bench = useAgentBench(
    {
      scenarios: [
        {
          name: 'read',
          match: 'read the notes',
          steps: [
            { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
            { output: [{ type: 'message', text: 'Read them.' }] },
          ],
        },
        { name: 'hello', match: 'hello', steps: [{ output: [{ type: 'message', text: 'Hi.' }] }] },
      ],
    },
    { 'notes.txt': 'Some notes.\n' },
    { logBodies: true },
  );

  /** The `input` of each generating request, from the wire log's bodies. */
  const inputs = (wire: readonly WireLine[]) =>
    requestsOf(wire)
      .map((line) => line.body as { input: AnyInputItem[]; previous_response_id?: string; generate?: boolean })
      .filter((body) => body.generate !== false);

  it('goes before the first prompt, again on the same chain when the approval mode changes, and stays in the transcript', async () => {
    let mode: ApprovalMode = 'ask';
    const approvals: ApprovalPolicy = { approve: () => Promise.resolve(true), mode: () => mode };
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const transcript = Transcript.create(
      { id: 'environment', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
      bench.transcriptFile,
    );
    const agent = session.agent({
      transcript,
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals,
      environment: () => ({ cwd: bench.dir, shell: 'bash', folders: [bench.dir] }),
      // The mode changes while the task runs, as a picker may change it: the next request says so.
      emit: (event) => {
        if (event.type === 'tool_started') mode = 'all';
      },
    });
    await agent.start();
    assert.equal((await agent.run('read the notes')).status, 'completed');
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    const [first, second, third, ...rest] = inputs(await bench.wire());
    assert.equal(rest.length, 0);
    const [environment, prompt] = first?.input ?? [];
    assert.ok(environment && isEnvironmentContext(environment), 'the first turn: environment, then the prompt');
    assert.match(JSON.stringify(environment), /<approval_mode>ask<\/approval_mode>/);
    assert.ok(prompt && isPrompt(prompt));
    assert.ok(second?.previous_response_id, 'the item after the tool output goes on the same chain');
    assert.deepEqual(
      second?.input.map((item) => (item as { type?: string }).type),
      ['function_call_output', 'message'],
    );
    assert.match(JSON.stringify(second?.input[1]), /<approval_mode>all<\/approval_mode>/);
    assert.ok(!third?.input.some(isEnvironmentContext), 'unchanged: not sent again');
    const resumed = Transcript.load(bench.transcriptFile);
    assert.equal(resumed.items.filter(isEnvironmentContext).length, 2, 'kept in the transcript like other items');
  });
});
