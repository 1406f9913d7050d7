import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { type AgentEvent, Transcript, TranscriptRecord } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from './agentHarness';
import { SCENARIOS, agentOf, subagentParent } from './subagentSupport';

// Subagents kept with their parent's session (issue 49 item 4): a task's subagents, their conversations and
// final statuses, are in its transcript file, so that a resumed session (`loopwire exec --resume`, a chat
// reopened in the panel) still knows them — a wait on an old id answers what it answered, and input sent to
// one goes on in its own conversation — against the bundled server over a real socket, then a new one.

const call = (name: string, args: Record<string, unknown>) => ({
  type: 'function_call' as const,
  name,
  arguments: args,
});

const RESUMED: ScenarioFile = {
  scenarios: [
    {
      name: 'follow-up',
      match: '^follow up (?<id>[0-9a-f]+)',
      steps: [
        { output: [call('wait', { ids: ['{{id}}'], timeout_ms: 20_000 })] },
        { output: [call('send_input', { id: '{{id}}', message: 'helper alpha reads b.txt' })] },
        { output: [call('wait', { ids: ['{{id}}'], timeout_ms: 20_000 })] },
        { output: [{ type: 'message', text: 'followed up' }] },
      ],
    },
    {
      name: 'fork-then-follow-up',
      match: '^fork then ask (?<id>[0-9a-f]+)',
      steps: [
        { output: [call('wait', { ids: ['{{id}}'], timeout_ms: 20_000 })] },
        { output: [{ type: 'message', text: 'asked' }] },
      ],
    },
    ...SCENARIOS.scenarios,
  ],
};

describe('subagents kept with the session: a resumed task knows them', function () {
  this.timeout(30_000);
  const bench = useAgentBench(RESUMED, { 'a.txt': 'alpha text\n', 'b.txt': 'beta text\n' });
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  /** The outputs of the parent's own calls of `name`, parsed. */
  const outputs = (events: readonly AgentEvent[], name: string) =>
    events.flatMap((event) =>
      event.type === 'tool_finished' && event.name === name && !event.agent
        ? [JSON.parse(event.output) as unknown]
        : [],
    );

  /** The text of each user message of `transcript`, in order. */
  const userTexts = (transcript: Transcript) =>
    transcript.items.flatMap((item) => {
      const message = item as { role?: unknown; content?: unknown };
      if (message.role !== 'user') return [];
      if (typeof message.content === 'string') return [message.content];
      const parts = Array.isArray(message.content) ? (message.content as { text?: unknown }[]) : [];
      return [parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('')];
    });

  it('a wait on an old id answers it; input sent to it goes on in its own conversation', async () => {
    const first: AgentEvent[] = [];
    const built = await subagentParent(bench, first);
    close = built.close;
    const done = await built.run('two helpers');
    assert.equal(done.status, 'completed', done.reason);
    built.close();
    const ids = outputs(first, 'spawn_agent').map((output) => (output as { agent_id: string }).agent_id);
    assert.equal(ids.length, 2);
    const alpha = ids[0] ?? '';

    // Read back as --resume reads it: the subagents are there, with their answers and conversations.
    const resumed = Transcript.load(bench.transcriptFile);
    assert.deepEqual(
      resumed.subagents.map((kept) => [kept.id, kept.status]),
      [
        [alpha, { completed: 'alpha read a.txt' }],
        [ids[1], { completed: 'beta read b.txt' }],
      ],
    );
    const spawnCall = first.find((event) => event.type === 'tool_started' && event.name === 'spawn_agent');
    assert.equal(resumed.subagents[0]?.start.parentCallId, spawnCall?.type === 'tool_started' && spawnCall.callId);
    assert.equal(
      resumed.items.filter((item) => (item as { type?: string }).type === 'function_call').length,
      4,
      "the parent's conversation is its own",
    );

    const later: AgentEvent[] = [];
    const again = await subagentParent(bench, later, undefined, {}, resumed);
    close = again.close;
    const followed = await again.run(`follow up ${alpha}`);
    assert.equal(followed.status, 'completed', followed.reason);
    const waits = outputs(later, 'wait');
    // Without the kept subagents the resumed pool knew no id: `not_found`, and send_input was refused.
    assert.deepEqual(waits[0], { status: { [alpha]: { completed: 'alpha read a.txt' } }, timed_out: false });
    const sent = later.find((event) => event.type === 'tool_finished' && event.name === 'send_input');
    assert.ok(sent?.type === 'tool_finished' && sent.ok, JSON.stringify(sent));
    assert.deepEqual(waits[1], { status: { [alpha]: { completed: 'alpha read b.txt' } }, timed_out: false });
    assert.ok(
      later.some((event) => agentOf(event) === alpha && event.type === 'tool_finished' && event.name === 'read_file'),
    );

    // The same conversation: its first task, then the second, kept again in the file.
    const kept = Transcript.load(bench.transcriptFile).subagents.find((subagent) => subagent.id === alpha);
    assert.deepEqual(
      userTexts(kept?.transcript as Transcript).filter((text) => text.startsWith('helper')),
      ['helper alpha reads a.txt', 'helper alpha reads b.txt'],
    );
    assert.deepEqual(kept?.status, { completed: 'alpha read b.txt' });
  });

  it("a fork's copy of the parent's conversation is not written again, and reads back whole", async () => {
    const events: AgentEvent[] = [];
    const built = await subagentParent(bench, events);
    close = built.close;
    const done = await built.run('fork a helper');
    assert.equal(done.status, 'completed', done.reason);
    built.close();
    const lines = fs
      .readFileSync(bench.transcriptFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => TranscriptRecord.parse(JSON.parse(line)));
    const own = lines.filter((record) => record.kind === 'subagent');
    assert.equal(
      own[0]?.kind === 'subagent' && own[0].record.kind === 'start' ? own[0].record.forkedAt : undefined,
      2,
      'the prompt and the spawn call',
    );
    const prompts = own.filter(
      (record) =>
        record.kind === 'subagent' &&
        record.record.kind === 'item' &&
        (record.record.item as { role?: string }).role === 'user',
    );
    assert.equal(prompts.length, 1, 'only its task: the parent prompt it forked is not copied');
    const kept = Transcript.load(bench.transcriptFile).subagents[0];
    assert.ok(kept);
    assert.deepEqual(
      userTexts(kept.transcript).filter((text) => !text.startsWith('<')),
      ['fork a helper', 'helper forked answers'],
    );
    assert.deepEqual(kept.status, { completed: 'the forked helper saw the parent' });
  });

  it('a subagent cut short by the end of its session is said to have been, to the resumed task', async () => {
    const events: AgentEvent[] = [];
    const built = await subagentParent(bench, events);
    close = built.close;
    const stop = new AbortController();
    const running = built.run('spawn and answer', stop.signal);
    const deadline = Date.now() + 10_000;
    while (!events.some((event) => event.agent && event.type === 'tool_started') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // The process goes away mid-task: the file is as it was then (read before the Stop writes anything more).
    const cut = `${bench.transcriptFile}.cut.jsonl`;
    fs.copyFileSync(bench.transcriptFile, cut);
    stop.abort();
    await running;
    built.close();
    const [kept] = Transcript.load(cut).subagents;
    assert.ok(kept);
    assert.equal(kept.status, undefined, 'no final status was kept: it was running');
    const later: AgentEvent[] = [];
    const again = await subagentParent(bench, later, undefined, {}, Transcript.load(cut));
    close = again.close;
    const asked = await again.run(`fork then ask ${kept.id}`);
    assert.equal(asked.status, 'completed', asked.reason);
    const [waited] = outputs(later, 'wait') as { status: Record<string, { errored?: string }> }[];
    assert.match(waited?.status[kept.id]?.errored ?? '', /The session ended before this subagent answered/);
  });
});
