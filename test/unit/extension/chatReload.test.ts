import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transcript } from '../../../src/agent';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { HostMessage, ToolEntry } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// The conversation as people live in it: a window reload brings it back with its review cards live and a
// task cut short offered for Resume (nothing run twice); the review follows the file when the editor
// undoes a Reject or the user edits the lines; approvals say what they do and can be given for the chat;
// a prompt sent during a run waits, shown as a queued chip.

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const PATCH = [
  '*** Begin Patch',
  '*** Update File: notes.txt',
  '@@',
  ' line 4',
  '-line 5',
  '+line five',
  ' line 6',
  '@@',
  ' line 19',
  '-line 20',
  '+line twenty',
  ' line 21',
  '*** End Patch',
  '',
].join('\n');
const PACKAGE = JSON.stringify({ scripts: { check: 'node -e "console.log(42)"' } });

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'fix',
      match: 'fix the notes',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'function_call', name: 'run_task', arguments: { label: 'npm: check' } }] },
        { output: [{ type: 'message', text: 'Fixed and checked.' }] },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] },
  ],
};

describe('chat panel host: reloads, review that follows the files, approvals, queued prompts', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': ORIGINAL, 'package.json': PACKAGE }, { tps: 2_000 });
  const ui = useChatBench(bench);

  const tool = (chat: ChatController, name: string): ToolEntry | undefined =>
    chat.model.all.findLast((e): e is ToolEntry => e.kind === 'tool' && e.name === name);
  const waitingFor = async (chat: ChatController, name: string) => {
    await eventually(() => tool(chat, name)?.status === 'approval', { message: `${name} waits for approval` });
    return tool(chat, name) as ToolEntry;
  };
  const queueSent = () => ui.sent.flatMap((m) => (m.type === 'queue' ? [m.items] : []));
  const lastState = () => ui.sent.findLast((m): m is Extract<HostMessage, { type: 'state' }> => m.type === 'state');
  const states = (entry: ToolEntry | undefined) => Object.values(entry?.diff?.[0]?.states ?? {});

  it('says what each approval does, and "Allow edits for this chat" stops asking about edits', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const done = chat.ask('fix the notes');
    const patch = await waitingFor(chat, 'apply_patch');
    assert.deepEqual(patch.ask, { action: 'Apply edit to `notes.txt`', detail: 'update notes.txt', effect: 'write' });
    await chat.receive({ type: 'approval', callId: patch.id, allow: true, forChat: true });
    const task = await waitingFor(chat, 'run_task');
    assert.equal(task.ask?.action, 'Run task `npm: check` — `node -e "console.log(42)"`');
    assert.equal(task.ask?.effect, 'task');
    await chat.receive({ type: 'approval', callId: task.id, allow: true });
    assert.equal((await done).ok, true);
    assert.equal(tool(chat, 'run_task')?.ask, undefined, 'the ask goes once answered');

    const again = chat.ask('fix the notes');
    // Edits are allowed for this chat now; the task still asks.
    await chat.receive({ type: 'approval', callId: (await waitingFor(chat, 'run_task')).id, allow: false });
    await again;
    assert.equal(
      tool(chat, 'apply_patch')?.status,
      'failed',
      'the second patch ran unasked (and found its lines gone)',
    );
  });

  it('after a reload shows the chat as it was, reviews live, and resumes the cut-short task without running anything twice', async () => {
    ui.mode = 'ask';
    const before = ui.controller();
    void before.ask('fix the notes');
    await before.receive({ type: 'approval', callId: (await waitingFor(before, 'apply_patch')).id, allow: true });
    await waitingFor(before, 'run_task');
    const patched = bench.read('notes.txt');
    assert.match(patched, /line five/);
    before.dispose(); // the window reloads

    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    const state = lastState();
    assert.ok(state);
    assert.equal(state.sessionId, before.sessionId);
    assert.deepEqual(
      state.entries.map((e) => e.kind),
      ['user', 'tool', 'tool'],
    );
    assert.equal(state.banner?.kind, 'interrupted');
    assert.equal(state.banner?.retry, true);
    const card = state.entries[1] as ToolEntry;
    assert.equal(card.status, 'done');
    assert.ok(card.durationMs !== undefined, 'the duration is kept');
    assert.deepEqual(states(card), ['applied', 'applied']);
    const cut = state.entries[2] as ToolEntry;
    assert.equal(cut.status, 'failed');
    assert.match(cut.output ?? '', /Interrupted/);

    // The review works on the restored card, against the file as it is now.
    const hunk = card.diff?.[0]?.hunks[0];
    assert.ok(hunk);
    await chat.receive({ type: 'hunk', callId: card.id, path: 'notes.txt', hunkId: hunk.id, action: 'reject' });
    assert.match(bench.read('notes.txt'), /^line 5$/m);
    assert.deepEqual(states(tool(chat, 'apply_patch')), ['rejected', 'applied']);

    // Resume: the task that never ran asks again; the patch is not applied again.
    await chat.receive({ type: 'retry' });
    const task = await waitingFor(chat, 'run_task');
    assert.equal(task.output, undefined, 'asking again, the card no longer says it was interrupted');
    await chat.receive({ type: 'approval', callId: task.id, allow: true });
    await eventually(() => chat.model.all.some((e) => e.kind === 'assistant' && e.text === 'Fixed and checked.'), {
      message: 'the resumed task finishes',
    });
    const transcript = Transcript.load(chat.transcriptFile ?? '');
    const outputs = transcript.items.filter((item) => (item as { type?: string }).type?.endsWith('_output'));
    assert.equal(outputs.length, 2, 'one answer for the patch, one for the task');
    assert.doesNotMatch(JSON.stringify(outputs), /declined/, 'the reload declined nothing');
    assert.match(bench.read('notes.txt'), /^line 5$/m, 'the rejected hunk stays rejected');
  });

  it('follows the file: an editor undo of a Reject brings the hunk back, a rejected hunk can be applied again', async () => {
    const chat = ui.controller();
    await chat.ask('fix the notes');
    const card = tool(chat, 'apply_patch') as ToolEntry;
    const [first, second] = card.diff?.[0]?.hunks ?? [];
    assert.ok(first && second);
    const file = path.join(bench.dir, 'notes.txt');
    const applied = bench.read('notes.txt');
    await chat.receive({ type: 'hunk', callId: card.id, path: 'notes.txt', hunkId: first.id, action: 'reject' });
    assert.deepEqual(states(tool(chat, 'apply_patch')), ['rejected', 'applied']);
    const marks = () => chat.reviews.marks().map((mark) => [mark.hunkId, mark.line]);
    assert.deepEqual(marks(), [[second.id, 19]]);

    fs.writeFileSync(file, applied); // the editor's Undo of the Reject
    await chat.filesChanged([file]);
    assert.deepEqual(states(tool(chat, 'apply_patch')), ['applied', 'applied']);
    assert.equal(marks().length, 2);

    fs.writeFileSync(file, applied.replace('line twenty', 'line 20 as I want it')); // the user's own edit
    await chat.filesChanged([file]);
    assert.deepEqual(states(tool(chat, 'apply_patch')), ['applied', 'edited']);

    await chat.receive({ type: 'hunk', callId: card.id, path: 'notes.txt', hunkId: first.id, action: 'reject' });
    await chat.receive({ type: 'hunk', callId: card.id, path: 'notes.txt', hunkId: first.id, action: 'accept' });
    assert.match(bench.read('notes.txt'), /^line five$/m, 'applied again');
    assert.deepEqual(states(tool(chat, 'apply_patch')), ['accepted', 'edited']);
    assert.deepEqual(marks(), [], 'nothing waits for a decision');
    await chat.receive({ type: 'hunk', callId: card.id, path: 'notes.txt', hunkId: second.id, action: 'reject' });
    const notice = chat.model.all.at(-1);
    assert.ok(notice?.kind === 'notice' && /changed since/.test(notice.text), 'an edited hunk is refused, said why');
  });

  it('queues a prompt sent during a run as a chip, not in the conversation, and runs it after', async () => {
    ui.mode = 'ask';
    const chat = ui.controller();
    const first = chat.ask('fix the notes');
    const patch = await waitingFor(chat, 'apply_patch');
    const second = chat.ask('and hello');
    await eventually(() => queueSent().at(-1)?.length === 1, { message: 'the queued prompt is shown as a chip' });
    assert.equal(queueSent().at(-1)?.[0]?.text, 'and hello');
    assert.ok(!chat.model.all.some((e) => e.kind === 'user' && e.text === 'and hello'), 'not in the conversation yet');
    await chat.receive({ type: 'approval', callId: patch.id, allow: true });
    await chat.receive({ type: 'approval', callId: (await waitingFor(chat, 'run_task')).id, allow: true });
    await first;
    assert.equal((await second).text, 'Hello again.');
    const kinds = chat.model.all.map((e) => (e.kind === 'user' ? `user:${e.text}` : e.kind));
    assert.deepEqual(kinds, ['user:fix the notes', 'tool', 'tool', 'assistant', 'user:and hello', 'assistant']);
    assert.deepEqual(queueSent().at(-1), [], 'no chip left');
  });

  it('opens a clicked path through the backend, and the empty chat names the offline backend', async () => {
    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    assert.deepEqual(lastState()?.backend, { label: 'built-in offline backend', offline: true });
    await chat.receive({ type: 'openFile', path: 'notes.txt', line: 12, column: 3 });
    assert.deepEqual(ui.opened, [{ path: 'notes.txt', line: 12, column: 3 }]);
  });
});
