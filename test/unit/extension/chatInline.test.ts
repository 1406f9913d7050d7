import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transcript } from '../../../src/agent';
import type { InlineNote } from '../../../src/extension/inline/inlineNote';
import type { ChatEntry, InlineEntry } from '../../../src/protocol/chatView';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// An inline edit that ended leaves one short entry in the panel's current chat (chat/entries/inlineEntries.ts): shown
// at once without a state or a focus, kept in the chat's transcript as a note (never an item: the chat's
// model is not sent it), found again after a reload from the snapshot and, without one, from the transcript.
// An edit the window closed on before Keep or Undo comes as the chat goes (WindowRuntime.dispose: inline
// first, then the chat's last save): the next start shows it, left pending. A new chat's entries, before any
// prompt, are chatInlineNewChat.test.ts'.

const NOTE: InlineNote = {
  kind: 'inline',
  action: 'fix',
  title: 'Fixed inline in config/shipping.json:3',
  outcome: 'undone',
  path: 'config/shipping.json',
  line: 3,
  prompt: 'Expected a property name, found a comma. MARKER-INLINE',
  diff: [
    {
      path: 'config/shipping.json',
      op: 'update',
      pending: false,
      hunks: [
        {
          id: 'h1',
          oldStart: 3,
          oldLines: ['  "freeShippingFrom": 5000,,'],
          newStart: 3,
          newLines: ['  "freeShippingFrom": 5000,'],
          contextBefore: [],
          contextAfter: [],
        },
      ],
    },
  ],
  kept: 0,
  note: 'Removed the extra comma.',
};

describe('chat panel host: an inline edit’s entry in the current chat', function () {
  this.timeout(30_000);
  const bench = useAgentBench(
    {
      scenarios: [{ name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] }],
    },
    {},
    { logBodies: true },
  );
  const ui = useChatBench(bench);
  const kinds = (entries: readonly ChatEntry[]) => entries.map((entry) => entry.kind);
  const inlineOf = (entries: readonly ChatEntry[]) => entries.find((e): e is InlineEntry => e.kind === 'inline');

  it('shows it in place, keeps it as a note of the transcript, and never sends it to the chat’s model', async () => {
    const chat = ui.controller();
    await chat.ask('hello');
    ui.sent.length = 0;
    const entry = chat.inline.add(NOTE);
    assert.deepEqual(
      ui.sent.map((message) => message.type),
      ['entry'],
      'one entry goes to the page: no state, no focus',
    );
    assert.deepEqual(kinds(chat.model.all), ['user', 'assistant', 'inline']);
    const transcript = Transcript.load(chat.transcriptFile ?? '');
    assert.equal(transcript.items.length, 2, 'no item: the prompt and its answer only');
    assert.deepEqual(transcript.notes, [{ at: 2, note: entry }]);

    await chat.ask('and again');
    // The two prompts' requests (a warm-up generates nothing and carries no conversation).
    const bodies = requestsOf(await bench.wire())
      .filter((line) => (line.body as { generate?: unknown } | undefined)?.generate !== false)
      .map((line) => JSON.stringify(line.body ?? {}));
    assert.equal(bodies.length, 2);
    assert.ok(bodies[1]?.includes('and again'), 'the bodies are logged whole');
    assert.ok(
      bodies.every((body) => !body.includes('MARKER-INLINE')),
      'the inline edit is not conversation',
    );
    assert.deepEqual(kinds(chat.model.all), ['user', 'assistant', 'inline', 'user', 'assistant']);
  });

  it('is found again after a reload, from the snapshot and, without one, from the transcript', async () => {
    const before = ui.controller();
    await before.ask('hello');
    before.inline.add(NOTE);
    await before.ask('and again');
    const id = before.sessionId ?? '';
    before.dispose();

    const reloaded = ui.controller();
    await reloaded.receive({ type: 'ready' });
    assert.deepEqual(kinds(reloaded.model.all), ['user', 'assistant', 'inline', 'user', 'assistant']);
    assert.equal(inlineOf(reloaded.model.all)?.title, NOTE.title);
    reloaded.dispose();

    fs.rmSync(path.join(path.dirname(before.transcriptFile ?? ''), `${id}.chat.json`));
    const fromTranscript = ui.controller();
    await fromTranscript.receive({ type: 'ready' });
    assert.deepEqual(kinds(fromTranscript.model.all), ['user', 'assistant', 'inline', 'user', 'assistant']);
    assert.deepEqual({ ...inlineOf(fromTranscript.model.all), id: '' }, { ...NOTE, id: '' });
  });

  it('one left pending as the window closes, recorded before the chat’s last save, shows at the next start', async () => {
    const before = ui.controller();
    await before.ask('hello');
    const id = before.sessionId ?? '';
    // As the window goes: the inline edits leave their entries, then the chat is disposed (its last save).
    before.inline.add({ ...NOTE, outcome: 'pending', saved: false, kept: 0 });
    before.dispose();

    const reloaded = ui.controller();
    await reloaded.receive({ type: 'ready' });
    const shown = inlineOf(reloaded.model.all);
    assert.deepEqual([shown?.outcome, shown?.saved, shown?.title], ['pending', false, NOTE.title]);
    reloaded.dispose();

    // From the transcript alone, too (no snapshot).
    fs.rmSync(path.join(path.dirname(before.transcriptFile ?? ''), `${id}.chat.json`));
    const fromTranscript = ui.controller();
    await fromTranscript.receive({ type: 'ready' });
    assert.deepEqual(
      [inlineOf(fromTranscript.model.all)?.outcome, inlineOf(fromTranscript.model.all)?.saved],
      ['pending', false],
    );
  });
});
