import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { type AgentEvent, Transcript, approveAll, createAgentSession } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useAgentBench } from './agentHarness';

// Whose events are whose, as the extension wires them: one session (one socket) with its own sink (the
// status bar), and each conversation's agent with another (its chat panel). A conversation's turns stream
// into its own sink — reasoning, text and tool-call deltas, a discarded output, a retry — and the session's
// sink gets the socket's events. (A session whose sink took the deltas left the panel without Thinking,
// live text or live diffs: it saw each item only when its turn ended.)

const SCENARIOS: ScenarioFile = {
  scenarios: [
    {
      name: 'think, read, answer',
      match: 'read the notes',
      steps: [
        {
          output: [
            { type: 'reasoning', summary: 'The notes first.' },
            { type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } },
          ],
        },
        { output: [{ type: 'message', text: 'The notes say one, two.' }] },
      ],
    },
  ],
};

const STREAMED: readonly string[] = ['reasoning_delta', 'tool_call_delta', 'text_delta'];

describe('agent: a session’s events and a conversation’s', () => {
  const bench = useAgentBench(SCENARIOS, { 'notes.txt': 'one\ntwo\n' });

  it('streams a conversation’s turns into its own sink; the session’s gets the socket’s events', async () => {
    const sessionEvents: AgentEvent[] = [];
    const chatEvents: AgentEvent[] = [];
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: (event) => sessionEvents.push(event),
    });
    try {
      const agent = session.agent({
        transcript: Transcript.create(
          { id: 'chat', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
          path.join(path.dirname(bench.dir), 'chat.jsonl'),
        ),
        tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
        approvals: approveAll,
        emit: (event) => chatEvents.push(event),
      });
      await agent.start();
      const outcome = await agent.run('read the notes', new AbortController().signal);
      assert.equal(outcome.status, 'completed');
      const chatTypes = new Set<string>(chatEvents.map((event) => event.type));
      for (const type of STREAMED) assert.ok(chatTypes.has(type), `the conversation gets its ${type} events`);
      const thinking = chatEvents.flatMap((event) => (event.type === 'reasoning_delta' ? [event.delta] : []));
      assert.equal(thinking.join(''), 'The notes first.');
      const sessionTypes = sessionEvents.map((event) => event.type);
      assert.deepEqual(
        sessionTypes.filter((type) => STREAMED.includes(type)),
        [],
        'no turn streams into the session',
      );
      assert.ok(sessionTypes.includes('transport'), `the socket's events: ${sessionTypes.join(', ')}`);
    } finally {
      session.close(false);
    }
  });
});
