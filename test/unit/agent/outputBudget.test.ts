import * as assert from 'node:assert/strict';
import { Transcript, approveAll, createAgentSession, modelProfile } from '../../../src/agent';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useAgentBench } from './agentHarness';

// A command's output as the model gets it: its head and tail within the catalogue's budget for the model the
// call answers (issue 37, item 5), read at each call — a model picked mid-chat gets its own — and a call's own
// max_output_tokens over it.

/** About 169,000 characters: past every model's budget. */
const LONG = 'seq 1 30000';

const exec = (args: Record<string, unknown>) => ({
  output: [{ type: 'function_call' as const, name: 'exec_command', arguments: { cmd: LONG, ...args } }],
});

const SCENARIOS = {
  scenarios: [
    {
      name: 'count',
      match: 'count',
      steps: [
        exec({}),
        exec({}),
        exec({ max_output_tokens: 1000 }),
        { output: [{ type: 'message' as const, text: 'Counted.' }] },
      ],
    },
  ],
};

describe('agent: the output budget of the model a call answers', function () {
  this.timeout(30_000);
  const bench = useAgentBench(SCENARIOS);

  it('keeps head and tail within the model’s budget, the budget of a model picked since, and the call’s own', async () => {
    let model = 'gpt-5.5';
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const transcript = Transcript.create({ id: 'b', createdAt: '', workspace: bench.dir, model });
    const shown: string[] = [];
    const agent = session.agent({
      model,
      transcript,
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      choices: () => ({ model }),
      emit: (event) => {
        if (event.type !== 'tool_finished') return;
        shown.push(event.output);
        // Picked while the task runs: the next call answers gpt-4o, whose window (and budget) is half.
        model = 'gpt-4o';
      },
    });
    await agent.start();
    assert.equal((await agent.run('count')).status, 'completed');
    session.close(false);
    const outputs = transcript.items.flatMap((item) =>
      item.type === 'function_call_output' && typeof item.output === 'string' ? [item.output] : [],
    );
    assert.equal(outputs.length, 3);
    const [large, small, own] = outputs.map((output) => output.length) as [number, number, number];
    const chars = (tokens: number) => tokens * 4;
    assert.equal(modelProfile('gpt-5.5').toolOutputTokens, 10_000);
    assert.equal(modelProfile('gpt-4o').toolOutputTokens, 5_000);
    // Each within its budget (and the lines that say how the run went and what was cut), none far below it.
    assert.ok(large <= chars(10_000) + 200 && large > chars(9_000), `gpt-5.5: ${large}`);
    assert.ok(small <= chars(5_000) + 200 && small > chars(4_500), `gpt-4o: ${small}`);
    assert.ok(own <= chars(1_000) + 200 && own > chars(900), `max_output_tokens 1000: ${own}`);
    for (const output of outputs) {
      assert.match(output, /\n1\n2\n3\n/, 'the head is kept');
      assert.match(output, /\n29999\n30000$/, 'the tail is kept');
      assert.match(output, /\[… [\d,]+ lines \([\d,]+ characters\) cut from the middle …\]/);
    }
    // The person watching sees the whole output every time.
    for (const text of shown) assert.match(text, /\n15000\n/);
  });
});
