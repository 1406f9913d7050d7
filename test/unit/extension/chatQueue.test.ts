import * as assert from 'node:assert/strict';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { QueueAction, QueuedPrompt } from '../../../src/protocol/promptQueue';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// The queue in the user's hands, against the real server over a real socket: prompts typed while a task runs
// are chips that can be edited, removed and moved, sent now (the task stopped first, the others kept), or
// steered into the running task, where they land after the outputs of the calls in flight; Stop gives every
// queued word back to the composer. A queued prompt never becomes a steer by itself. Each test holds the
// task at an approval, so that what the user does happens while it runs.

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+one\n*** End Patch\n';
const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'write',
      match: 'write a',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Wrote a.txt.' }] },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] },
  ],
};

describe('chat panel host: the queue and steering', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, {}, { tps: 2_000 });
  const ui = useChatBench(bench);

  const chips = (): QueuedPrompt[] => ui.sent.findLast((m) => m.type === 'queue')?.items ?? [];
  const given = () => ui.sent.flatMap((m) => (m.type === 'unqueued' ? m.items.map((item) => item.text) : []));
  const users = (chat: ChatController) =>
    chat.model.all.flatMap((e) => (e.kind === 'user' ? [`${e.text}${e.steered ? ' (steered)' : ''}`] : []));
  const waitingPatch = async (chat: ChatController) => {
    await eventually(() => chat.model.all.some((e) => e.kind === 'tool' && e.status === 'approval'), {
      message: 'apply_patch waits for Apply',
    });
    return chat.model.all.find((e): e is ToolEntry => e.kind === 'tool') as ToolEntry;
  };
  const queue = (chat: ChatController, action: QueueAction, id: string, text?: string) =>
    chat.receive({ type: 'queue', action, id, ...(text === undefined ? {} : { text }) });

  it('chips are edited, moved and removed; each runs in its turn, as edited', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    const patch = await waitingPatch(chat);
    const one = chat.ask('first queued');
    const two = chat.ask('second queued');
    const three = chat.ask('third queued');
    await eventually(() => chips().length === 3);
    const [a, , c] = chips() as [QueuedPrompt, QueuedPrompt, QueuedPrompt];
    await queue(chat, 'edit', a.id, 'first, edited');
    await queue(chat, 'down', a.id);
    await queue(chat, 'remove', c.id);
    assert.deepEqual(
      chips().map((chip) => chip.text),
      ['second queued', 'first, edited'],
    );
    assert.equal((await three).status, 'cancelled', 'a removed prompt is not run');
    await chat.receive({ type: 'approval', callId: patch.id, allow: true });
    await first;
    assert.equal((await two).text, 'Hello again.');
    assert.equal((await one).text, 'Hello again.');
    assert.deepEqual(users(chat), ['write a', 'second queued', 'first, edited']);
    assert.deepEqual(chips(), []);
  });

  it('Stop gives every queued prompt back to the composer, in order, and runs none', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    await waitingPatch(chat);
    const queued = [chat.ask('keep this'), chat.ask('and this')];
    await eventually(() => chips().length === 2);
    await chat.receive({ type: 'stop' });
    assert.equal((await first).status, 'cancelled');
    for (const outcome of await Promise.all(queued)) assert.equal(outcome.status, 'cancelled');
    assert.deepEqual(given(), ['keep this', 'and this']);
    assert.deepEqual(chips(), []);
    assert.deepEqual(users(chat), ['write a'], 'nothing queued ran');
  });

  it('Send now stops the task and runs that prompt; the other chips stay queued behind it', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    await waitingPatch(chat);
    const stay = chat.ask('stay queued');
    const now = chat.ask('send me now');
    await eventually(() => chips().length === 2);
    await queue(chat, 'sendNow', (chips()[1] as QueuedPrompt).id);
    assert.equal((await first).status, 'cancelled');
    assert.equal((await now).text, 'Hello again.');
    assert.equal((await stay).text, 'Hello again.');
    assert.deepEqual(users(chat), ['write a', 'send me now', 'stay queued']);
    assert.deepEqual(given(), [], 'Send now gives nothing back');
  });

  it('Steer: the text lands after the outputs of the calls in flight, once, and the task goes on from it', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    const patch = await waitingPatch(chat);
    const steered = chat.ask('say hello instead');
    await eventually(() => chips().length === 1);
    await queue(chat, 'steer', (chips()[0] as QueuedPrompt).id);
    assert.equal(chips()[0]?.steering, true, 'the chip says it waits for the next tool boundary');
    await chat.receive({ type: 'approval', callId: patch.id, allow: true });
    const done = await first;
    assert.equal(done.status, 'completed', done.text);
    assert.equal((await steered).status, 'completed');
    assert.deepEqual(users(chat), ['write a', 'say hello instead (steered)']);
    assert.match(done.text, /Hello again/, 'the model answered the steer');
    // In the transcript: the patch's output, then the steer, once.
    const file = chat.transcriptFile as string;
    const items = (await import('node:fs')).readFileSync(file, 'utf8');
    assert.equal(items.split('say hello instead').length - 1, 1, 'the steer is in the transcript once');
    const output = items.indexOf('custom_tool_call_output');
    assert.ok(output >= 0 && output < items.indexOf('say hello instead'), 'after the call’s output');
    assert.deepEqual(chips(), []);
  });

  it('a chip never steers by itself: left alone, it runs as its own prompt after the task', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    const patch = await waitingPatch(chat);
    const queued = chat.ask('just queued');
    await eventually(() => chips().length === 1);
    await chat.receive({ type: 'approval', callId: patch.id, allow: true });
    await first;
    assert.equal((await queued).text, 'Hello again.');
    assert.deepEqual(users(chat), ['write a', 'just queued']);
  });

  it('Stop before a steer was delivered gives it back to the composer with the queued prompts', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('write a');
    await waitingPatch(chat);
    void chat.ask('steer me');
    void chat.ask('queued after');
    await eventually(() => chips().length === 2);
    await queue(chat, 'steer', (chips()[0] as QueuedPrompt).id);
    await chat.receive({ type: 'stop' });
    assert.equal((await first).status, 'cancelled');
    assert.deepEqual(given(), ['steer me', 'queued after']);
    assert.deepEqual(users(chat), ['write a'], 'the steer never reached the conversation');
  });
});
