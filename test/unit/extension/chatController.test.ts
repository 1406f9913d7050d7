import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transcript } from '../../../src/agent';
import type { ChatController } from '../../../src/extension/chat/chatController';
import { PAGE_SIZE } from '../../../src/extension/chat/chatModel';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// The chat panel's host side against the real server over a real socket, on a real folder (the Node
// adapter stands in for VS Code's: both hold to one contract). What the webview would be sent is checked
// against the schema; what the user clicks goes in as the webview would send it.

const ORIGINAL = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

const PATCH = [
  '*** Begin Patch',
  '*** Update File: notes.txt',
  '@@',
  ' line 2',
  '-line 3',
  '+line three',
  ' line 4',
  '@@',
  ' line 20',
  '-line 21',
  '+line twenty-one',
  ' line 22',
  '@@',
  ' line 35',
  '+an added line',
  ' line 36',
  '*** End Patch',
  '',
].join('\n');

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'edit',
      match: 'edit the notes',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Edited **three** lines.' }] },
      ],
    },
    {
      name: 'think',
      match: 'think first',
      steps: [
        {
          output: [
            { type: 'reasoning', summary: '**Planning** the answer: the notes have forty lines.' },
            { type: 'message', text: 'Forty lines.' },
          ],
        },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] },
  ],
};

describe('chat panel host: the conversation, live diff, review and history', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': ORIGINAL }, { tps: 500 });
  const ui = useChatBench(bench);

  const card = (chat: ChatController): ToolEntry => {
    const entry = chat.model.all.find((e) => e.kind === 'tool');
    assert.ok(entry?.kind === 'tool', 'a tool card');
    return entry;
  };
  const cardsSent = () =>
    ui.sent.flatMap((m) =>
      m.type === 'entry' && m.entry.kind === 'tool' && m.entry.name === 'apply_patch' ? [m.entry] : [],
    );

  it('streams the edit as a growing diff, then shows it as a review card of applied hunks', async () => {
    const chat = ui.controller();
    const outcome = await chat.ask('edit the notes');
    assert.equal(outcome.ok, true);
    assert.equal(outcome.text, 'Edited **three** lines.');
    const streaming = cardsSent().filter((entry) => entry.status === 'streaming' && entry.diff);
    assert.ok(streaming.length >= 2, `the live diff was ui.sent ${streaming.length} times while streaming`);
    const counts = streaming.map((entry) => entry.diff?.[0]?.hunks.length ?? 0);
    assert.deepEqual(
      [...counts].sort((a, b) => a - b),
      counts,
      `hunks only grow: ${counts.join(', ')}`,
    );
    assert.ok((counts[0] ?? 0) < 3, 'the first diff was partial');
    const review = card(chat);
    assert.equal(review.status, 'done');
    assert.equal(review.summary, 'notes.txt');
    const [file] = review.diff ?? [];
    assert.equal(file?.hunks.length, 3);
    assert.deepEqual(Object.values(file?.states ?? {}), ['applied', 'applied', 'applied']);
    assert.deepEqual(
      ui.sent.filter((m) => m.type === 'running').map((m) => m.type === 'running' && m.running),
      [true, false],
    );
  });

  it('streams a reasoning summary into a Thinking entry, which stops streaming when the answer comes', async () => {
    const chat = ui.controller();
    const outcome = await chat.ask('think first');
    assert.equal(outcome.ok, true);
    const kinds = chat.model.all.map((entry) => entry.kind);
    assert.deepEqual(kinds, ['user', 'thinking', 'assistant']);
    const thinking = chat.model.all[1];
    assert.ok(thinking?.kind === 'thinking');
    assert.equal(thinking.text, '**Planning** the answer: the notes have forty lines.');
    assert.equal(thinking.streaming, false);
    const deltas = ui.sent.filter((m) => m.type === 'text' && m.id === thinking.id);
    assert.ok(deltas.length >= 2, `the summary streamed in ${deltas.length} deltas`);
  });

  it('rejects one hunk through the workspace, keeps the others, and accepts another', async () => {
    const chat = ui.controller();
    await chat.ask('edit the notes');
    const [file] = card(chat).diff ?? [];
    const [first, second] = file?.hunks ?? [];
    assert.ok(first && second);
    await chat.receive({ type: 'hunk', callId: card(chat).id, path: 'notes.txt', hunkId: first.id, action: 'reject' });
    await chat.receive({ type: 'hunk', callId: card(chat).id, path: 'notes.txt', hunkId: second.id, action: 'accept' });
    const text = bench.read('notes.txt');
    assert.match(text, /^line 3$/m, 'the rejected hunk is back as it was');
    assert.match(text, /^line twenty-one$/m, 'the others stay');
    assert.match(text, /^an added line$/m);
    assert.deepEqual(card(chat).diff?.[0]?.states, {
      [first.id]: 'rejected',
      [second.id]: 'accepted',
      [(file?.hunks[2] ?? first).id]: 'applied',
    });
  });

  it('refuses to reject a hunk whose lines the user changed since, and writes nothing', async () => {
    const chat = ui.controller();
    await chat.ask('edit the notes');
    const hunk = card(chat).diff?.[0]?.hunks[1];
    assert.ok(hunk);
    const edited = bench.read('notes.txt').replace('line twenty-one', 'line 21, as I like it');
    fs.writeFileSync(path.join(bench.dir, 'notes.txt'), edited);
    await chat.receive({ type: 'hunk', callId: card(chat).id, path: 'notes.txt', hunkId: hunk.id, action: 'reject' });
    assert.equal(bench.read('notes.txt'), edited, 'nothing was written');
    assert.match(card(chat).diff?.[0]?.error ?? '', /(no longer fits|changed since)/);
    assert.equal(card(chat).diff?.[0]?.states?.[hunk.id], 'edited', 'the card says the user changed it');
    const notice = chat.model.all.at(-1);
    assert.ok(notice?.kind === 'notice' && notice.level === 'warning', 'the refusal is said');
  });

  it('undoes every hunk of a turn at once, and shows the text before in the diff editor', async () => {
    const chat = ui.controller();
    await chat.ask('edit the notes');
    await chat.receive({ type: 'openDiff', callId: card(chat).id, path: 'notes.txt' });
    assert.deepEqual(ui.diffs, [{ path: 'notes.txt', before: ORIGINAL }]);
    await chat.receive({ type: 'undoTurn', turn: card(chat).turn });
    assert.equal(bench.read('notes.txt'), ORIGINAL);
    assert.deepEqual(Object.values(card(chat).diff?.[0]?.states ?? {}), ['rejected', 'rejected', 'rejected']);
  });

  it('asks on the card before writing: Skip leaves the file alone, Apply writes it', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const skipped = chat.ask('edit the notes');
    // The proposed diff is on the card while it waits (the file is read for it as the call streams).
    await eventually(() => card(chat).status === 'approval' && card(chat).diff?.[0]?.hunks.length === 3, {
      message: 'the approval card with its three hunks',
    });
    await chat.receive({ type: 'approval', callId: card(chat).id, allow: false });
    await skipped;
    assert.equal(card(chat).status, 'declined');
    assert.equal(bench.read('notes.txt'), ORIGINAL);
    assert.deepEqual(ui.asked, [], 'asked on the card, not elsewhere');

    chat.newChat();
    const applied = chat.ask('edit the notes');
    await eventually(() => chat.model.all.some((e) => e.kind === 'tool' && e.status === 'approval'), {
      message: 'a tool entry awaiting approval',
    });
    await chat.receive({ type: 'approval', callId: card(chat).id, allow: true });
    await applied;
    assert.equal(card(chat).status, 'done');
    assert.match(bench.read('notes.txt'), /line three/);
  });

  it('Stop while a call waits for Apply: the call is declined, never run, and the next prompt goes on', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const stopped = chat.ask('edit the notes');
    await eventually(() => card(chat).status === 'approval', { message: 'the approval card' });
    await chat.receive({ type: 'stop' });
    assert.equal((await stopped).status, 'cancelled');
    assert.equal(card(chat).status, 'declined');
    // The call is answered before the next request: the backend, as strict as the API, would refuse a
    // context holding a call with no output ("No tool output found for custom tool call …").
    const next = await chat.ask('say hello');
    assert.equal(next.ok, true, next.text);
    assert.equal(next.text, 'Hello again.');
    assert.equal(bench.read('notes.txt'), ORIGINAL, 'the stopped edit never ran');
  });

  it('lists past chats and reopens one with its conversation, continuing it', async () => {
    const first = ui.controller();
    await first.ask('edit the notes');
    const id = first.sessionId;
    assert.ok(id);
    const chat = ui.controller();
    await chat.receive({ type: 'history' });
    const history = ui.sent.find((m) => m.type === 'history');
    assert.ok(history?.type === 'history');
    assert.deepEqual(
      history.sessions.map((s) => [s.id, s.title]),
      [[id, 'edit the notes']],
    );
    await chat.receive({ type: 'openSession', id });
    const state = ui.sent.findLast((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.sessionId, id);
    assert.deepEqual(
      state.entries.map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    const outcome = await chat.ask('and now?');
    assert.equal(outcome.text, 'Hello again.');
    const reloaded = Transcript.load(first.transcriptFile ?? '');
    assert.equal(reloaded.items.filter((item) => (item as { role?: string }).role === 'user').length, 2);
    await chat.receive({ type: 'openSession', id: '../../etc/passwd' });
    const refused = chat.model.all.at(-1);
    assert.ok(refused?.kind === 'notice' && /Not a session id/.test(refused.text));
  });

  it('drops malformed messages from the webview with a log line, and pages long conversations', async () => {
    const chat = ui.controller();
    for (const bad of [null, 42, { type: 'nope' }, { type: 'send', text: '' }, { type: 'hunk', callId: 1 }])
      await chat.receive(bad);
    assert.equal(ui.logged.length, 5);
    assert.equal(ui.sent.length, 0);
    for (let i = 0; i < PAGE_SIZE * 2 + 5; i++) chat.model.addUser(`prompt ${i}`);
    const latest = chat.model.latest();
    assert.equal(latest.entries.length, PAGE_SIZE);
    assert.equal(latest.hasOlder, true);
    const older = chat.model.olderThan(latest.entries[0]?.id ?? '');
    assert.equal(older.entries.length, PAGE_SIZE);
    const oldest = chat.model.olderThan(older.entries[0]?.id ?? '');
    assert.deepEqual([oldest.entries.length, oldest.hasOlder], [5, false]);
  });
});
