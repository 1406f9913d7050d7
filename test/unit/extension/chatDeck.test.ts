import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatController } from '../../../src/extension/chat/chatController';
import { loadSnapshot } from '../../../src/extension/chat/history/chatSnapshot';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useDeckBench } from './deckHarness';

// Parallel chats (issue 49, item 1): several chats of the window run at once, each on its own lane of the one
// socket; the page shows one and lists them with their states; switching stops none; a hidden chat's approval
// reaches the window's notifications naming the chat; a cap holds a task in its chat's queue, saying so.
// Against the real server over a real socket; its wire log shows the connection and the lanes.

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
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello from the other chat.' }] }] },
  ],
};

const card = (chat: ChatController) => chat.model.all.find((entry): entry is ToolEntry => entry.kind === 'tool');

/** The generating requests the server got: their connection and lane. */
function requests(log: string): { conn: string; lane: string | undefined; ts: number }[] {
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { conn: string; ts: number; dir?: string; type: string; body?: unknown })
    .filter((line) => line.dir === 'in' && line.type === 'response.create')
    .filter((line) => (line.body as { generate?: boolean } | undefined)?.generate !== false)
    .map((line) => ({ conn: line.conn, ts: line.ts, lane: (line.body as { stream_id?: string }).stream_id }));
}

describe('parallel chats: several at once on one socket, one lane each', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, {}, { tps: 500, logBodies: true });
  const ui = useDeckBench(bench);

  it('two chats run at once: the hidden one waits for approval, named, while the other answers; both finish', async () => {
    ui.mode = 'ask';
    const first = ui.deck.shown;
    void ui.deck.receive({ type: 'send', text: 'write the note' });
    await eventually(() => card(first)?.status === 'approval', { message: 'the first chat’s approval card' });
    // New Chat while a task runs opens a chat beside it; the first goes on.
    await ui.deck.receive({ type: 'newChat' });
    const second = ui.deck.shown;
    assert.notEqual(second, first);
    assert.equal(first.busy, true, 'the first chat still runs');
    await ui.deck.receive({ type: 'send', text: 'say hello' });
    await eventually(() => ui.tabs().find((tab) => tab.id === 'chat-2')?.state === 'done', { message: 'done' });
    assert.deepEqual(ui.tabs(), [
      { id: 'chat-1', title: 'write the note', state: 'waiting', last: 'write_file note.txt' },
      { id: 'chat-2', title: 'say hello', state: 'done', last: 'Hello from the other chat.' },
    ]);
    // The window's badge and notifications: the waiting call names its chat, hidden from the panel now.
    const callId = card(first)?.id ?? '';
    assert.deepEqual(ui.calls.at(-1), [
      { callId, action: 'Apply edit to `note.txt`', chat: { id: 'chat-1', title: 'write the note', hidden: true } },
    ]);
    // Switching shows the first chat's whole state; nothing stopped.
    ui.sent.length = 0;
    await ui.deck.receive({ type: 'switchChat', id: 'chat-1' });
    const state = ui.sent.find((message) => message.type === 'state');
    assert.ok(state?.type === 'state' && state.running, 'the first chat’s state, running');
    assert.ok(state.entries.some((entry) => entry.kind === 'tool' && entry.status === 'approval'));
    await ui.deck.receive({ type: 'approval', callId, allow: true });
    await eventually(() => !first.busy, { message: 'the first chat’s end' });
    assert.equal(fs.readFileSync(`${bench.dir}/note.txt`, 'utf8'), 'hello\n');
    // The list follows a moment later (it is sent at most every 150 ms while chats stream).
    await eventually(() => ui.tabs().every((tab) => tab.state === 'done'), { message: 'both done in the list' });
    // One connection; the first chat on the default lane, the second on its own, mid-way through the first's task.
    const sent = requests(bench.log);
    assert.deepEqual([...new Set(sent.map((request) => request.conn))].length, 1, 'one socket');
    assert.deepEqual(
      sent.map((request) => request.lane),
      [undefined, 'chat-2', undefined],
    );
    assert.deepEqual(ui.lanes, [undefined, 'chat-2']);
  });

  it('the cap: a task past it waits in its chat, saying so, and starts when one ends; Stop ends a waiting one', async () => {
    ui.mode = 'ask';
    ui.max = 1;
    const first = ui.deck.shown;
    void ui.deck.receive({ type: 'send', text: 'write the note' });
    await eventually(() => card(first)?.status === 'approval', { message: 'the approval card' });
    ui.deck.newChat();
    const second = ui.deck.shown;
    const waited = second.ask('say hello');
    await eventually(() => ui.tabs()[1]?.state === 'queued', { message: 'the second chat queued' });
    assert.ok(
      second.model.all.some((entry) => entry.kind === 'notice' && entry.text.includes('loopwire.chat.maxParallel')),
      'the chat says why it waits',
    );
    assert.equal(ui.lanes.length, 1, 'no agent made for the waiting task yet');
    // Stop ends the waiting task at once (it never takes a slot).
    second.stop();
    assert.equal((await waited).status, 'cancelled');
    const again = second.ask('say hello');
    await eventually(() => ui.tabs()[1]?.state === 'queued', { message: 'queued again' });
    await ui.deck.receive({ type: 'switchChat', id: 'chat-1' });
    await ui.deck.receive({ type: 'approval', callId: card(first)?.id ?? '', allow: true });
    assert.equal((await again).status, 'completed', 'it ran once the first ended');
    assert.equal(first.busy, false);
  });

  it('/new is New Chat: an idle chat starts over in place and is listed as new again', async () => {
    ui.mode = 'ask';
    const first = ui.deck.shown;
    const running = first.ask('write the note');
    await eventually(() => card(first)?.status === 'approval', { message: 'the approval card' });
    ui.deck.newChat();
    await ui.deck.shown.ask('say hello');
    await eventually(() => ui.tabs()[1]?.state === 'done', { message: 'the second done' });
    await ui.deck.receive({ type: 'send', text: '/new' });
    await eventually(() => ui.tabs()[1]?.state === 'new', { message: 'the second listed as new' });
    assert.equal(ui.deck.all.length, 2);
    assert.equal(first.busy, true, 'the first goes on');
    first.stop();
    await running;
  });

  it('a reloaded window reopens the chat that was shown', async () => {
    await ui.deck.shown.ask('say hello');
    const id = ui.deck.shown.sessionId;
    ui.deck.dispose();
    await ui.deck.closed();
    const again = ui.reopen();
    await again.receive({ type: 'ready' });
    assert.ok(id !== undefined);
    assert.equal(again.shown.sessionId, id);
    assert.ok(again.shown.model.all.some((entry) => entry.kind === 'assistant'));
  });

  it('one chat alone: New Chat starts it over in place and the page gets no list', async () => {
    await ui.deck.receive({ type: 'ready' });
    await ui.deck.shown.ask('say hello');
    await ui.deck.receive({ type: 'newChat' });
    assert.equal(ui.deck.all.length, 1);
    assert.equal(ui.deck.shown.model.all.length, 0);
    assert.ok(ui.sent.some((message) => message.type === 'chats'));
    assert.deepEqual(ui.tabs(), []);
  });

  it('closing a running chat stops its task and drops it from the list; History reopens beside a running chat', async () => {
    ui.mode = 'ask';
    const first = ui.deck.shown;
    const closed = first.ask('write the note');
    await eventually(() => card(first)?.status === 'approval', { message: 'the approval card' });
    const id = first.sessionId ?? '';
    ui.deck.newChat();
    await ui.deck.receive({ type: 'closeChat', id: 'chat-1' });
    assert.equal((await closed).status, 'cancelled');
    assert.equal(ui.deck.all.length, 1);
    // Its last snapshot is of a stopped task, not one cut short (History would offer Resume).
    await eventually(
      () => loadSnapshot(path.join(path.dirname(bench.dir), 'sessions'), id).snapshot?.running === false,
      {
        message: 'the closed chat saved as stopped',
      },
    );
    assert.deepEqual(ui.tabs(), []);
    // The closed chat is in History: opening it while another chat runs opens it beside that one.
    const running = ui.deck.shown.ask('write the note');
    await eventually(() => card(ui.deck.shown)?.status === 'approval', { message: 'the second approval card' });
    await ui.deck.receive({ type: 'openSession', id });
    assert.equal(ui.deck.all.length, 2);
    assert.equal(ui.deck.shown.sessionId, id);
    assert.equal(ui.deck.all[0]?.busy, true, 'the running chat goes on');
    ui.deck.all[0]?.stop();
    await running;
  });
});
