import * as assert from 'node:assert/strict';
import { type ModelOptions, Transcript, approveAll, createAgentSession } from '../../../src/agent';
import {
  REPLACED_INSTRUCTIONS,
  instructionsFollower,
  instructionsInForce,
} from '../../../src/agent/instructions/instructionsFollower';
import { instructionsItem } from '../../../src/agent/transport/requestBody';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { requestsOf, useAgentBench } from './agentHarness';

// The standing instructions follow the tools offered (issue 36, item 2): a model picked mid-chat that is
// offered other tools (an unknown model: edit_file where apply_patch was, no plan tool) gets instructions
// naming those, as a developer item at the end of the chain — the history, and the socket's prefix, unchanged
// — once, and not again while the tools stay the same.

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

type Body = Record<string, unknown>;
type Item = { role?: string; content?: { text?: string }[] };

const developerTexts = (body: Body) =>
  (body.input as Item[]).filter((item) => item.role === 'developer').map((item) => item.content?.[0]?.text ?? '');

describe('agent: the instructions follow the tools offered', function () {
  this.timeout(20_000);
  const bench = useAgentBench(SCENARIOS, { 'notes.txt': 'Some notes.\n' }, { logBodies: true });

  for (const transport of ['ws', 'http'] as const)
    it(`a model picked mid-task gets instructions naming its tools, once, on the same chain (${transport})`, async () => {
      let chosen: { model?: string; modelOptions?: Partial<ModelOptions> } = {};
      const session = createAgentSession({
        endpoint: bench.server.url,
        apiKey: 'test-token',
        transport,
        emit: () => undefined,
      });
      const transcript = Transcript.create({ id: 'i', createdAt: '', workspace: bench.dir, model: 'gpt-5.2-codex' });
      const agent = session.agent({
        model: 'gpt-5.2-codex',
        transcript,
        tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
        approvals: approveAll,
        choices: () => chosen,
        emit: (event) => {
          if (event.type === 'tool_started') chosen = { model: 'some-model' };
        },
      });
      await agent.start();
      assert.equal((await agent.run('read the notes')).status, 'completed');
      assert.equal((await agent.run('hello')).status, 'completed');
      session.close(false);
      const requests = requestsOf(await bench.wire()).map((line) => line.body as Body);
      const bodies = requests.filter((body) => body.generate !== false);
      assert.deepEqual(
        bodies.map((body) => body.model),
        ['gpt-5.2-codex', 'some-model', 'some-model'],
      );
      // The first instructions name apply_patch; they stay the context's head (on the socket, its warm-up's).
      const first = developerTexts(requests[0] as Body);
      assert.equal(first.length, 1);
      assert.match(first[0] as string, /`apply_patch`/);
      // Every later request: the same head (HTTP sends the whole context; the socket only what is new).
      const all = bodies.map(developerTexts);
      const replacements = all.flat().filter((text) => text.startsWith(REPLACED_INSTRUCTIONS));
      assert.equal(replacements.length, transport === 'ws' ? 1 : 2, 'sent once (HTTP resends the context as a whole)');
      const replacement = replacements[0] as string;
      assert.match(replacement, /`edit_file`/);
      assert.doesNotMatch(replacement, /apply_patch|update_plan/);
      if (transport === 'ws') {
        assert.ok(
          bodies.slice(1).every((body) => typeof body.previous_response_id === 'string'),
          'still chained',
        );
        assert.deepEqual(
          bodies.map((body) => developerTexts(body).length),
          [0, 1, 0],
          'the replacement goes with the request after the switch, and not again',
        );
      } else {
        // Over HTTP the whole context goes each time: the head first, unchanged, and the replacement after it.
        for (const body of bodies.slice(1)) assert.equal(developerTexts(body)[0], first[0]);
      }
      // The transcript holds it once, after the call's output; the model reads it as the instructions in force.
      const kept = transcript.items.filter((item) => (item as Item).role === 'developer');
      assert.equal(kept.length, 1);
      assert.equal(
        transcript.items.indexOf(kept[0]!),
        transcript.items.findIndex((item) => item.type === 'function_call_output') + 1,
      );
      assert.equal(
        `${REPLACED_INSTRUCTIONS}\n\n${instructionsInForce(first[0] as string, transcript.items)}`,
        replacement,
      );
    });

  it('no new item when the model changes but its tools and text do not', async () => {
    let chosen: { model?: string } = {};
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const transcript = Transcript.create({ id: 'j', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' });
    const agent = session.agent({
      model: 'gpt-5.5',
      transcript,
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      choices: () => chosen,
      emit: () => undefined,
    });
    await agent.start();
    assert.equal((await agent.run('hello')).status, 'completed');
    chosen = { model: 'gpt-5.5-mini' };
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    assert.equal(transcript.items.filter((item) => (item as Item).role === 'developer').length, 0);
  });

  it('follows what is in force: the head, a replacement, or the instructions sent after a compaction', () => {
    const transcript = Transcript.create({ id: 'k', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' });
    let now = 'A';
    const follow = instructionsFollower('A', () => now, transcript);
    follow();
    assert.equal(transcript.items.length, 0, 'the head is in force');
    now = 'B';
    follow();
    follow();
    assert.equal(transcript.items.length, 1, 'once');
    assert.equal(instructionsInForce('A', transcript.items), 'B');
    // Resumed: a new agent whose head is A again reads B as in force, and adds nothing while B is offered.
    instructionsFollower('A', () => 'B', transcript)();
    assert.equal(transcript.items.length, 1);
    // A compaction is followed by the instructions as they are, with no first line: in force too.
    transcript.append(instructionsItem('C'));
    instructionsFollower('A', () => 'C', transcript)();
    assert.equal(transcript.items.length, 2);
    instructionsFollower('A', () => 'A', transcript)();
    assert.equal(transcript.items.length, 3, 'back to the first model: its text again, as a replacement');
    assert.equal(instructionsInForce('B', transcript.items), 'A');
  });
});
