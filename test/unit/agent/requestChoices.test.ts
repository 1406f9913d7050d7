import * as assert from 'node:assert/strict';
import { type ModelOptions, Transcript, approveAll, createAgentSession } from '../../../src/agent';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { requestsOf, useAgentBench } from './agentHarness';

// The model and its reasoning effort as the user picks them in the panel between two requests of one
// conversation (AgentSpec.choices): the next request goes with them, and the socket's chain goes on.

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

describe('agent: choices made between requests', function () {
  this.timeout(20_000);
  const bench = useAgentBench(SCENARIOS, { 'notes.txt': 'Some notes.\n' }, { logBodies: true });

  it('the next request carries the model and effort chosen since, still chained on the socket', async () => {
    let chosen: { model?: string; modelOptions?: Partial<ModelOptions> } = {};
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const agent = session.agent({
      model: 'gpt-5.5',
      transcript: Transcript.create({ id: 'c', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' }),
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      choices: () => chosen,
      emit: (event) => {
        // Chosen while the task runs, as a picker may be: the turn after this tool call goes with it.
        if (event.type === 'tool_started')
          chosen = { model: 'gpt-5.5-mini', modelOptions: { reasoningEffort: 'high' } };
      },
    });
    await agent.start();
    assert.equal((await agent.run('read the notes')).status, 'completed');
    chosen = { model: 'o4-mini', modelOptions: { reasoningEffort: 'low' } };
    assert.equal((await agent.run('hello')).status, 'completed');
    session.close(false);
    const bodies = requestsOf(await bench.wire())
      .map((line) => line.body as Record<string, unknown>)
      .filter((body) => body.generate !== false);
    assert.deepEqual(
      bodies.map((body) => [body.model, (body.reasoning as { effort?: string } | undefined)?.effort]),
      [
        ['gpt-5.5', 'medium'],
        ['gpt-5.5-mini', 'high'],
        ['o4-mini', 'low'],
      ],
    );
    assert.ok(
      bodies.every((body) => typeof body.previous_response_id === 'string'),
      'every request chained: a new model or effort does not drop the chain',
    );
    assert.deepEqual(
      bodies.map((body) => (body.input as unknown[]).length),
      [1, 1, 2],
      'each sent only its new items',
    );
    // o4-mini is offered no plan tool: its instructions, naming none, go before the prompt (instructionsFollower.ts).
    assert.deepEqual(
      (bodies[2]?.input as { role?: string }[]).map((item) => item.role),
      ['developer', 'user'],
    );
  });
});
