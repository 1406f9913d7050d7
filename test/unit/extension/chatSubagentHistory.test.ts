import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AgentEvent } from '../../../src/agent';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { readChat, settled } from '../../../src/extension/chat/history/chatRestore';
import type { ChatEntry, ToolEntry } from '../../../src/protocol/chatView';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { useAgentBench } from '../agent/agentHarness';
import { SCENARIOS, subagentParent } from '../agent/subagentSupport';

// A chat with subagents reopened (issue 49 item 4): from its transcript alone (History, or a snapshot that
// could not be read), each subagent is nested again in its spawn_agent card with its calls and answer, as the
// panel showed it live; from a snapshot saved mid-task, a subagent shown running is shown stopped. A real
// agent on the bundled server over a real socket writes the transcript.

describe('chat: subagents in a chat reopened', function () {
  this.timeout(30_000);
  const bench = useAgentBench(SCENARIOS, { 'a.txt': 'alpha text\n', 'b.txt': 'beta text\n' });
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  const tools = (entries: readonly ChatEntry[]) => entries.filter((entry): entry is ToolEntry => entry.kind === 'tool');
  /** What the panel shows of each subagent, without what differs by nature (durations, ids of entries). */
  const shown = (entries: readonly ChatEntry[]) =>
    tools(entries).flatMap((card) => {
      const view = card.subagent;
      if (!view) return [];
      const calls = view.calls.map((call) => [call.name, call.status, call.summary, call.output]);
      return [{ spawn: card.id, id: view.id, task: view.task, state: view.state, calls, answer: view.answer }];
    });

  it('from the transcript alone: each subagent in its spawn card, with its calls and answer, as shown live', async () => {
    const model = new ChatModel(
      () => undefined,
      () => Promise.resolve(undefined),
    );
    model.tools = BUILTIN_TOOLS;
    const live = new (class extends Array<AgentEvent> {
      override push(...events: AgentEvent[]): number {
        for (const event of events) model.handle(event);
        return super.push(...events);
      }
    })();
    const built = await subagentParent(bench, live);
    close = built.close;
    const done = await built.run('two helpers');
    assert.equal(done.status, 'completed', done.reason);
    const before = shown(model.all);
    assert.equal(before.length, 2);

    // No snapshot beside it: the transcript is all there is (before, the spawn cards came back empty).
    const reopened = readChat(path.dirname(bench.transcriptFile), 'session', BUILTIN_TOOLS, (line) =>
      assert.fail(line),
    );
    assert.equal(reopened.snapshot, undefined);
    assert.deepEqual(shown(reopened.entries), before);
    assert.deepEqual(
      tools(reopened.entries).map((card) => card.name),
      ['spawn_agent', 'spawn_agent', 'wait', 'wait'],
      "the subagents' calls are not the chat's own",
    );
  });

  it('from a snapshot saved mid-task: a subagent shown running is stopped, its call under way ended', () => {
    const running: ToolEntry = {
      kind: 'tool',
      id: 'call_s1',
      turn: 1,
      name: 'spawn_agent',
      summary: 'helper naps',
      status: 'done',
      output: '{"agent_id":"a1"}',
      subagent: {
        id: 'a1',
        task: 'helper naps',
        state: 'running',
        calls: [{ kind: 'tool', id: 'call_n1', turn: 1, name: 'exec_command', summary: 'sleep 30', status: 'running' }],
      },
    };
    const [after] = settled([running]);
    assert.ok(after?.kind === 'tool');
    assert.equal(after.subagent?.state, 'stopped');
    assert.equal(after.subagent.calls[0]?.status, 'failed');
    assert.match(after.subagent.calls[0]?.output ?? '', /Interrupted/);
  });
});
