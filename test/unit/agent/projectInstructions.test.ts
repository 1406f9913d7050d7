import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  type AgentEvent,
  PROJECT_INSTRUCTIONS_MAX_BYTES,
  Transcript,
  approveAll,
  createAgentSession,
  findProjectInstructions,
  isProjectInstructions,
} from '../../../src/agent';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { type TempWorkspace, tempWorkspace } from '../support/tempWorkspace';
import { type WireLine, requestsOf, useAgentBench } from './agentHarness';

// The project's instructions for agents (AGENTS.md from the git root down, .github/copilot-instructions.md):
// what is found and in which order, the cap, and how they reach the model — their own user message after the
// developer instructions, inherited by chained turns, sent again only when they changed.

describe('agent: project instructions are found as Codex finds them', () => {
  let temp: TempWorkspace;
  afterEach(() => temp.remove());

  it('reads AGENTS.md from the git root down to the workspace folder, root first, then Copilot’s', async () => {
    temp = await tempWorkspace({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/AGENTS.md': 'Root rules.\n',
      'repo/pkg/AGENTS.md': 'Package rules.\n',
      'repo/pkg/app/AGENTS.md': 'App rules.\n',
      'repo/pkg/app/.github/copilot-instructions.md': 'Copilot rules.\n',
      'repo/pkg/other/AGENTS.md': 'Not on the path.\n',
      'AGENTS.md': 'Above the git root: never read.\n',
    });
    const found = await findProjectInstructions([temp.path('repo/pkg/app')]);
    assert.deepEqual(
      found.files.map((file) => file.label),
      ['../../AGENTS.md', '../AGENTS.md', 'AGENTS.md', '.github/copilot-instructions.md'],
    );
    const order = ['Root rules.', 'Package rules.', 'App rules.', 'Copilot rules.'].map((text) =>
      found.text.indexOf(text),
    );
    assert.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))),
      found.text,
    );
    assert.ok(!found.text.includes('Not on the path') && !found.text.includes('never read'));
    assert.match(
      found.text,
      /^# AGENTS\.md instructions for .*repo\/pkg\/app\n\n<INSTRUCTIONS>\n--- \.\.\/\.\.\/AGENTS\.md ---\n/,
    );
    assert.match(found.text, /\n<\/INSTRUCTIONS>$/);
  });

  it('takes a .git file (a worktree or submodule) as the root too', async () => {
    temp = await tempWorkspace({
      'wt/.git': 'gitdir: /elsewhere\n',
      'wt/AGENTS.md': 'Worktree.',
      'wt/a/AGENTS.md': 'A.',
    });
    const found = await findProjectInstructions([temp.path('wt/a')]);
    assert.deepEqual(
      found.files.map((file) => file.label),
      ['../AGENTS.md', 'AGENTS.md'],
    );
  });

  it('without git reads the workspace folder’s own file only', async () => {
    temp = await tempWorkspace({ 'AGENTS.md': 'Parent, no git.', 'ws/AGENTS.md': 'Mine.' });
    const found = await findProjectInstructions([temp.path('ws')]);
    assert.deepEqual(
      found.files.map((file) => file.label),
      ['AGENTS.md'],
    );
    assert.ok(found.text.includes('Mine.') && !found.text.includes('Parent'));
  });

  it('finds nothing in a folder without instruction files (and skips an empty one)', async () => {
    temp = await tempWorkspace({ 'AGENTS.md': '  \n', 'src/a.js': '' });
    const found = await findProjectInstructions([temp.dir]);
    assert.deepEqual(found.files, []);
    assert.equal(found.text, '');
  });

  it('caps them at 32 KiB in all, cutting on a character, and says what it left out', async () => {
    const big = `${'é'.repeat(PROJECT_INSTRUCTIONS_MAX_BYTES / 2 - 10)}ending`;
    temp = await tempWorkspace({
      'r/.git/HEAD': '',
      'r/AGENTS.md': 'x'.repeat(100),
      'r/w/AGENTS.md': big,
      'r/w/.github/copilot-instructions.md': 'Past the cap.',
    });
    const found = await findProjectInstructions([temp.path('r/w')]);
    const [root, mine, copilot] = found.files;
    assert.equal(root?.sentBytes, 100);
    assert.equal(mine?.bytes, Buffer.byteLength(big));
    assert.ok(mine !== undefined && mine.sentBytes < mine.bytes && mine.sentBytes % 2 === 0, 'cut between characters');
    assert.equal(copilot?.sentBytes, 0);
    assert.equal((root?.sentBytes ?? 0) + (mine?.sentBytes ?? 0), PROJECT_INSTRUCTIONS_MAX_BYTES);
    assert.ok(!found.text.includes('\uFFFD'), 'no broken character');
    assert.ok(!found.text.includes('ending') && !found.text.includes('Past the cap.'));
    assert.match(
      found.text,
      /\[Cut: project instructions are capped at 32 KiB in all; left out: the rest of AGENTS\.md, \.github\/copilot-instructions\.md \(all of it\)\.\]\n<\/INSTRUCTIONS>$/,
    );
  });
});

const SCENARIOS = {
  scenarios: [
    {
      name: 'read',
      match: 'read the notes',
      steps: [
        { output: [{ type: 'function_call' as const, name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message' as const, text: 'Read them.' }] },
      ],
    },
    { name: 'hello', match: 'hello', steps: [{ output: [{ type: 'message' as const, text: 'Hi.' }] }] },
  ],
};

/** The `input` of each generating request (the warm-up left out), from the wire log's bodies. */
function inputs(wire: readonly WireLine[]): { input: Record<string, unknown>[]; previous: unknown }[] {
  return requestsOf(wire)
    .map((line) => line.body as Record<string, unknown>)
    .filter((body) => body.generate !== false)
    .map((body) => ({ input: body.input as Record<string, unknown>[], previous: body.previous_response_id }));
}

const textOf = (item: Record<string, unknown> | undefined): string => {
  const content = item?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? textPart(content[0]) : '';
};

describe('agent: project instructions on the wire', function () {
  this.timeout(20_000);
  const bench = useAgentBench(
    SCENARIOS,
    { 'notes.txt': 'Some notes.\n', 'AGENTS.md': 'Use tabs.\n' },
    { logBodies: true },
  );

  async function agentOn(transport: 'ws' | 'http') {
    const events: AgentEvent[] = [];
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport,
      emit: (event) => events.push(event),
    });
    const transcript = Transcript.create(
      { id: 'instructions', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
      bench.transcriptFile,
    );
    const agent = session.agent({
      transcript,
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      projectInstructions: () => findProjectInstructions([bench.dir]),
      emit: (event) => events.push(event),
    });
    await agent.start();
    return { agent, session, transcript, events };
  }

  it('over HTTP, the first request holds them as their own user message right after the developer instructions', async () => {
    const { agent, session } = await agentOn('http');
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    const [first] = inputs(await bench.wire());
    const [developer, project, prompt] = first?.input ?? [];
    assert.equal(developer?.role, 'developer');
    assert.match(textOf(developer), /^You are Loopwire, a coding agent\./);
    assert.equal(project?.role, 'user');
    assert.match(
      textOf(project),
      /^# AGENTS\.md instructions for .*\n\n<INSTRUCTIONS>\n--- AGENTS\.md ---\nUse tabs\.\n<\/INSTRUCTIONS>$/,
    );
    assert.equal(prompt?.role, 'user');
    assert.equal(textOf(prompt), 'hello');
  });

  it('over a socket, the first turn sends them after the warm-up’s instructions, and chained turns inherit them', async () => {
    const { agent, session, transcript } = await agentOn('ws');
    assert.equal((await agent.run('read the notes')).status, 'completed');
    // A second task with the file unchanged: nothing is sent again.
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    const wire = await bench.wire();
    const warmup = requestsOf(wire)
      .map((line) => line.body as Record<string, unknown>)
      .find((body) => body.generate === false);
    assert.deepEqual(
      (warmup?.input as Record<string, unknown>[]).map((item) => item.role),
      ['developer'],
    );
    const [first, second, third] = inputs(wire);
    assert.ok(typeof first?.previous === 'string', 'the first turn chains from the warm-up');
    assert.deepEqual(
      first?.input.map((item) => [item.role, textOf(item).slice(0, 22)]),
      [
        ['user', '# AGENTS.md instructio'],
        ['user', 'read the notes'],
      ],
    );
    assert.ok(typeof second?.previous === 'string');
    assert.deepEqual(
      second?.input.map((item) => item.type),
      ['function_call_output'],
      'the turn after a tool call sends its output only: the instructions are in the chain',
    );
    assert.deepEqual(
      third?.input.map((item) => textOf(item)),
      ['hello'],
    );
    assert.equal(transcript.items.filter(isProjectInstructions).length, 1);
  });

  it('a change takes effect at the next task: a new message saying it replaces the earlier one, on the same chain', async () => {
    const { agent, session, transcript } = await agentOn('ws');
    assert.equal((await agent.run('hello')).status, 'completed');
    await fs.writeFile(path.join(bench.dir, 'AGENTS.md'), 'Use spaces.\n');
    assert.equal((await agent.run('hello')).status, 'completed');
    await fs.rm(path.join(bench.dir, 'AGENTS.md'));
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    const [, changed, removed] = inputs(await bench.wire());
    assert.ok(typeof changed?.previous === 'string', 'still chained');
    const [note, prompt] = changed?.input ?? [];
    assert.match(textOf(note), /these replace those given earlier[^]*Use spaces\./);
    assert.equal(textOf(prompt), 'hello');
    assert.match(textOf(removed?.input[0]), /were removed: disregard them/);
    assert.equal(transcript.items.filter(isProjectInstructions).length, 3);
    // A resumed session reads them from its transcript: nothing new to send while the files stay as they are.
    const resumed = Transcript.load(bench.transcriptFile);
    assert.equal(resumed.items.filter(isProjectInstructions).length, 3);
  });
});

/** The text of a content part, or '' for a part without one. */
function textPart(part: unknown): string {
  const text = (part as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}
