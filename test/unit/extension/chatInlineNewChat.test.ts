import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Transcript } from '../../../src/agent';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { InlineNote } from '../../../src/extension/inline/inlineNote';
import type { ChatEntry, InlineEntry } from '../../../src/protocol/chatView';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// A new chat, before its first prompt, that gets inline entries (the light bulb's Fix with Loopwire, Ctrl+I
// in the editor beside it): its first entry makes its transcript, as a first prompt would, so that a reload
// finds it again — the fixes that ended and one the window closed on alike — and History lists it, titled by
// its first fix ("Fix: <the problem>") or edit ("Edit: <what was asked>"). Nothing of it goes to the model: a
// transcript of notes alone starts no agent, and a first prompt later goes on in the same transcript with the
// entries before it, never in its request. (chatInline.test.ts: the entries of a chat that has a prompt.)

const FIX: InlineNote = {
  kind: 'inline',
  action: 'fix',
  title: 'Fixed inline in config/shipping.json:3',
  outcome: 'kept',
  path: 'config/shipping.json',
  line: 3,
  prompt: 'Expected a property name, found a comma. MARKER-INLINE\nat position 41',
  diff: [],
  kept: 1,
  note: 'Removed the extra comma.',
};

const EDIT: InlineNote = {
  ...FIX,
  action: 'edit',
  title: 'Edited inline in src/cart.js:10',
  outcome: 'undone',
  path: 'src/cart.js',
  line: 10,
  prompt: 'take the percent of the amount',
  kept: 0,
};

describe('chat panel host: inline entries in a new chat, before any prompt', function () {
  this.timeout(30_000);
  const bench = useAgentBench(
    { scenarios: [{ name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] }] },
    {},
    { logBodies: true },
  );
  const ui = useChatBench(bench);
  const inlines = (entries: readonly ChatEntry[]) => entries.filter((e): e is InlineEntry => e.kind === 'inline');
  const outcomes = (chat: ChatController) => inlines(chat.model.all).map((entry) => entry.outcome);
  const snapshotOf = (chat: ChatController) => (chat.transcriptFile ?? '').replace(/\.jsonl$/, '.chat.json');
  /** The generating requests on the wire so far (a warm-up generates nothing and carries no conversation). */
  const generating = async () =>
    requestsOf(await bench.wire())
      .filter((line) => (line.body as { generate?: unknown } | undefined)?.generate !== false)
      .map((line) => JSON.stringify(line.body ?? {}));
  /** A window after a reload, once its page is there. */
  const reload = async () => {
    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    return chat;
  };

  it('the first entry makes the chat’s transcript: a note only, the page sent the entry only', async () => {
    const chat = ui.controller();
    chat.newChat();
    ui.sent.length = 0;
    const entry = chat.inline.add(FIX);
    assert.deepEqual(
      ui.sent.map((message) => message.type),
      ['entry'],
      'no state, no focus',
    );
    assert.ok(chat.transcriptFile && chat.sessionId, 'the chat has a transcript');
    const transcript = Transcript.load(chat.transcriptFile);
    assert.deepEqual([transcript.items, transcript.notes], [[], [{ at: 0, note: entry }]]);
    chat.inline.add(EDIT);
    assert.equal(Transcript.load(chat.transcriptFile).notes.length, 2, 'the second goes in the same one');
    assert.deepEqual(await generating(), [], 'nothing asked of the model');
  });

  it('comes back after a reload, finished fixes and one left pending as the window closed, with or without its snapshot', async () => {
    const before = ui.controller();
    before.newChat();
    before.inline.add(FIX);
    before.inline.add(EDIT);
    // As the window goes: the inline edits leave their entries, then the chat's last save.
    before.inline.add({ ...EDIT, outcome: 'pending', saved: true });
    before.dispose();

    const reloaded = await reload();
    assert.equal(reloaded.sessionId, before.sessionId);
    assert.deepEqual(outcomes(reloaded), ['kept', 'undone', 'pending']);
    const state = ui.sent.findLast((message) => message.type === 'state');
    assert.ok(state?.type === 'state');
    assert.deepEqual(
      inlines(state.entries).map((entry) => entry.title),
      [FIX.title, EDIT.title, EDIT.title],
      'the page is shown them',
    );
    assert.equal(inlines(reloaded.model.all)[2]?.saved, true);
    reloaded.dispose();

    fs.rmSync(snapshotOf(before));
    const fromTranscript = await reload();
    assert.deepEqual(outcomes(fromTranscript), ['kept', 'undone', 'pending']);
    assert.deepEqual({ ...inlines(fromTranscript.model.all)[0], id: '' }, { ...FIX, id: '' });
    assert.deepEqual(await generating(), [], 'nothing asked of the model');
  });

  it('History titles such a chat by its first fix or edit, a prompt’s chat by its prompt, and reopens it', async () => {
    const chat = ui.controller();
    chat.newChat();
    chat.inline.add(FIX);
    chat.inline.add(EDIT);
    const fixes = chat.sessionId;
    chat.newChat();
    chat.inline.add(EDIT);
    const edits = chat.sessionId;
    chat.newChat();
    chat.inline.add(FIX);
    await chat.ask('hello');
    const asked = chat.sessionId;
    chat.newChat();

    ui.sent.length = 0;
    await chat.receive({ type: 'history' });
    const history = ui.sent.find((message) => message.type === 'history');
    assert.ok(history?.type === 'history');
    const titles = new Map(history.sessions.map((session) => [session.id, session.title]));
    assert.equal(titles.size, 3);
    assert.equal(titles.get(fixes ?? ''), 'Fix: Expected a property name, found a comma. MARKER-INLINE');
    assert.equal(titles.get(edits ?? ''), 'Edit: take the percent of the amount');
    assert.equal(titles.get(asked ?? ''), 'hello');

    await chat.receive({ type: 'openSession', id: fixes ?? '' });
    assert.equal(chat.sessionId, fixes);
    assert.deepEqual(outcomes(chat), ['kept', 'undone']);
  });

  it('a first prompt, after a reload too, goes on in the same transcript after the entries, and the model gets the prompt only', async () => {
    const before = ui.controller();
    before.newChat();
    before.inline.add(FIX);
    const file = before.transcriptFile;
    before.dispose();

    const chat = await reload();
    await chat.ask('hello');
    assert.equal(chat.transcriptFile, file);
    assert.deepEqual(
      chat.model.all.map((entry) => entry.kind),
      ['inline', 'user', 'assistant'],
    );
    const transcript = Transcript.load(file ?? '');
    assert.deepEqual(
      transcript.notes.map((note) => note.at),
      [0],
    );
    assert.equal(transcript.items.filter((item) => (item as { role?: unknown }).role === 'user').length, 1);
    const bodies = await generating();
    assert.equal(bodies.length, 1);
    assert.ok(bodies[0]?.includes('hello'), 'the bodies are logged whole');
    assert.ok(!bodies[0]?.includes('MARKER-INLINE'), 'the inline fix is not conversation');
  });
});
