import * as assert from 'node:assert/strict';
import type { ChatActivity, TaskEnd, WaitingCall } from '../../../src/extension/chat/chatActivity';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// What the chat tells the window for its notifications and badge (issue 38, item 5): the calls waiting for
// Allow / Skip each time they change, and each task's end once, with its prompt and whether more follows.
// Against the real server over a real socket, as chatController.test.ts.

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'write',
      match: 'write the note',
      steps: [
        {
          output: [{ type: 'function_call', name: 'write_file', arguments: { path: 'note.txt', content: 'hello\n' } }],
        },
        { output: [{ type: 'message', text: 'Wrote the note.' }] },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] },
  ],
};

/** Records what the chat reports, as the window's notifications receive it. */
function recorder(): ChatActivity & { calls: (readonly WaitingCall[])[]; ends: TaskEnd[] } {
  const calls: (readonly WaitingCall[])[] = [];
  const ends: TaskEnd[] = [];
  return { calls, ends, waiting: (now) => calls.push(now), ended: (end) => ends.push(end) };
}

const card = (chat: ChatController) => chat.model.all.find((entry): entry is ToolEntry => entry.kind === 'tool');

describe('chat activity: what the window is told for its notifications and badge', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, {}, { tps: 500 });
  const ui = useChatBench(bench);

  it('a call waiting, then answered, then the task’s end with its prompt', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const told = recorder();
    chat.backend.activity = told;
    const done = chat.ask('write the note');
    await eventually(() => card(chat)?.status === 'approval', { message: 'the approval card' });
    const callId = card(chat)?.id ?? '';
    assert.deepEqual(told.calls, [[{ callId, action: 'Apply edit to `note.txt`' }]]);
    await chat.receive({ type: 'approval', callId, allow: true });
    assert.equal((await done).status, 'completed');
    assert.deepEqual(told.calls.at(-1), [], 'none waits once answered');
    assert.deepEqual(told.ends, [
      { status: 'completed', reason: 'the model answered', prompt: 'write the note', more: false },
    ]);
  });

  it('Stop while a call waits: none waits any more, and the end is a cancel', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const told = recorder();
    chat.backend.activity = told;
    const stopped = chat.ask('write the note');
    await eventually(() => card(chat)?.status === 'approval', { message: 'the approval card' });
    await chat.receive({ type: 'stop' });
    assert.equal((await stopped).status, 'cancelled');
    assert.deepEqual(told.calls.at(-1), []);
    assert.deepEqual(
      told.ends.map((end) => end.status),
      ['cancelled'],
    );
  });

  it('a prompt queued behind a task: the first end says more follows, the last does not', async () => {
    const chat = ui.controller();
    const told = recorder();
    chat.backend.activity = told;
    const first = chat.ask('say hello');
    const second = chat.ask('say hello again');
    await Promise.all([first, second]);
    assert.deepEqual(
      told.ends.map(({ prompt, more }) => ({ prompt, more })),
      [
        { prompt: 'say hello', more: true },
        { prompt: 'say hello again', more: false },
      ],
    );
  });
});
