import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transcript } from '../../../src/agent';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// Checkpoints and Edit and resend in the chat's host side, on a real folder against the real server: each
// prompt is a checkpoint, Restore puts the agent's files back (and says what it left alone and which
// commands it cannot undo), the journal survives a reload, and an edited prompt forks the chat — the old
// branch a past chat of its own in History, the fork holding the conversation before the edited prompt.

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'rewrite',
      match: 'rewrite the notes',
      steps: [
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        {
          output: [
            { type: 'function_call', name: 'write_file', arguments: { path: 'notes.txt', content: 'rewritten\n' } },
          ],
        },
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo ran > ran.txt' } }] },
        { output: [{ type: 'message', text: 'Rewritten.' }] },
      ],
    },
    {
      name: 'add',
      match: 'add a file',
      steps: [
        {
          output: [{ type: 'function_call', name: 'write_file', arguments: { path: 'added.txt', content: 'new\n' } }],
        },
        { output: [{ type: 'message', text: 'Added.' }] },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] },
  ],
};

describe('chat panel host: checkpoints, Restore, and Edit and resend', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'the user’s notes\n' }, { tps: 5_000 });
  const ui = useChatBench(bench);
  const sessions = () => path.join(path.dirname(bench.dir), 'sessions');
  const prompts = (chat: ReturnType<typeof ui.controller>) =>
    chat.model.all.filter((entry) => entry.kind === 'user').map((entry) => entry.id);
  const lastNotice = (chat: ReturnType<typeof ui.controller>) => chat.model.all.findLast((e) => e.kind === 'notice');

  it('Restore on a prompt puts back what the agent wrote since, names the command it cannot undo, survives a reload', async () => {
    const chat = ui.controller();
    assert.equal((await chat.ask('Hello there')).status, 'completed');
    assert.equal((await chat.ask('Please rewrite the notes')).status, 'completed');
    assert.equal((await chat.ask('Now add a file')).status, 'completed');
    assert.equal(bench.read('notes.txt'), 'rewritten\n');
    assert.equal(bench.read('added.txt'), 'new\n');
    const [, rewrite, add] = prompts(chat);

    // A reload between the edits and the Restore: the journal is read back from beside the transcript.
    chat.dispose();
    const again = ui.controller();
    await again.receive({ type: 'ready' });
    await again.receive({ type: 'restore', id: add });
    assert.equal(fs.existsSync(path.join(bench.dir, 'added.txt')), false, 'the file the agent added is gone');
    assert.equal(bench.read('notes.txt'), 'rewritten\n', 'a later checkpoint leaves earlier writes alone');

    fs.writeFileSync(path.join(bench.dir, 'ran.txt'), 'the user changed the command’s file\n');
    await again.receive({ type: 'restore', id: rewrite });
    assert.equal(bench.read('notes.txt'), 'the user’s notes\n');
    assert.equal(bench.read('ran.txt'), 'the user changed the command’s file\n', 'a command’s file is not journaled');
    const notice = lastNotice(again);
    assert.ok(notice?.kind === 'notice' && notice.level === 'warning', JSON.stringify(notice));
    assert.match(notice.text, /Restored 1 file .*notes\.txt/);
    assert.match(notice.text, /exec_command ran after this message: what commands and tasks changed is not undone/);
  });

  it('a file the user edited after the agent is left alone, listed, and its diff opened', async () => {
    const chat = ui.controller();
    assert.equal((await chat.ask('Please rewrite the notes')).status, 'completed');
    fs.writeFileSync(path.join(bench.dir, 'notes.txt'), 'rewritten\nplus the user’s line\n');
    await chat.receive({ type: 'restore', id: prompts(chat)[0] ?? '' });
    assert.equal(bench.read('notes.txt'), 'rewritten\nplus the user’s line\n');
    assert.deepEqual(ui.diffs, [{ path: 'notes.txt', before: 'the user’s notes\n' }]);
    const notice = lastNotice(chat);
    assert.match(notice?.kind === 'notice' ? notice.text : '', /Left 1 file .*notes\.txt \(it was edited after/);
  });

  it('Edit and resend forks the chat: asked about the files first, the old branch kept whole in History', async () => {
    const chat = ui.controller();
    assert.equal((await chat.ask('Hello there')).status, 'completed');
    assert.equal((await chat.ask('Please rewrite the notes')).status, 'completed');
    const old = chat.sessionId ?? '';
    const oldFile = chat.transcriptFile ?? '';
    const oldItems = Transcript.load(oldFile).items.length;
    const [, rewrite] = prompts(chat);

    await chat.receive({ type: 'resend', id: rewrite ?? '', text: 'Say hello instead' });
    const asked = ui.sent.findLast((m): m is Extract<HostMessage, { type: 'resendAsk' }> => m.type === 'resendAsk');
    assert.deepEqual(asked, { type: 'resendAsk', id: rewrite, text: 'Say hello instead', paths: ['notes.txt'] });
    assert.equal(chat.sessionId, old, 'nothing forked before the answer');

    await chat.receive({ type: 'resend', id: rewrite ?? '', text: 'Say hello instead', files: 'restore' });
    const fork = chat.sessionId ?? '';
    assert.notEqual(fork, old);
    assert.equal(bench.read('notes.txt'), 'the user’s notes\n', 'the files went back first');
    await waitForIdle(chat);
    const texts = chat.model.all.map((entry) => `${entry.kind}: ${'text' in entry ? entry.text.slice(0, 40) : ''}`);
    assert.deepEqual(
      texts.filter((line) => !line.startsWith('notice')),
      ['user: Hello there', 'assistant: Hello.', 'user: Say hello instead', 'assistant: Hello.'],
    );
    assert.equal(Transcript.load(oldFile).items.length, oldItems, 'the old branch is left whole');
    const forkItems = Transcript.load(chat.transcriptFile ?? '').items;
    assert.equal((forkItems[2] as { content?: unknown }).content, 'Say hello instead');

    await chat.receive({ type: 'history' });
    const history = ui.sent.findLast((m): m is Extract<HostMessage, { type: 'history' }> => m.type === 'history');
    assert.deepEqual(new Set(history?.sessions.map((s) => s.id)), new Set([old, fork]));

    // The old branch reopens as it was, its own checkpoints with it.
    await chat.receive({ type: 'openSession', id: old });
    assert.equal(chat.sessionId, old);
    assert.ok(chat.model.all.some((entry) => entry.kind === 'user' && entry.text === 'Please rewrite the notes'));
    assert.deepEqual(chat.checkpoints.changedSince(rewrite ?? ''), [], 'its files were restored when it was left');
    assert.ok(fs.existsSync(path.join(sessions(), `${fork}.checkpoints.json`)));
  });

  it('Keep leaves the files as the agent wrote them, and the fork goes on', async () => {
    const chat = ui.controller();
    assert.equal((await chat.ask('Please rewrite the notes')).status, 'completed');
    await chat.receive({ type: 'resend', id: prompts(chat)[0] ?? '', text: 'Hello instead', files: 'keep' });
    await waitForIdle(chat);
    assert.equal(bench.read('notes.txt'), 'rewritten\n');
    assert.deepEqual(
      chat.model.all.map((entry) => entry.kind),
      ['user', 'assistant'],
    );
  });
});

async function waitForIdle(chat: { busy: boolean }): Promise<void> {
  for (let i = 0; i < 200 && !chat.busy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  for (let i = 0; i < 2000 && chat.busy; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(chat.busy, false, 'the fork’s task ended');
}
