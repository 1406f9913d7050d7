import * as assert from 'node:assert/strict';
import type { Transcript, TranscriptNote } from '../../../src/agent';
import type { ChatModel } from '../../../src/extension/chat/chatModel';
import { ChatInline } from '../../../src/extension/chat/entries/inlineEntries';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import type { InlineNote } from '../../../src/extension/inline/inlineNote';
import type { InlineEntry } from '../../../src/protocol/chatView';

// An inline edit's entry said again when the editor's undo or redo changes its outcome (issue 47): the chat
// shown replaces it in place, its transcript keeps the new note after the first, and a chat read back from its
// transcript alone shows the entry once, where it first was, as it was last said.

const NOTE: InlineNote = {
  kind: 'inline',
  action: 'edit',
  title: 'Edited inline in src/cart.js:10',
  outcome: 'undone',
  path: 'src/cart.js',
  line: 10,
  prompt: 'take the percent of the amount',
  diff: [],
  kept: 0,
  note: 'The discount is now that percent of the amount.',
};

/** A chat as ChatInline sees it: entries by id, and the transcript's notes. */
function fakeChat() {
  const entries = new Map<string, InlineEntry>();
  const notes: TranscriptNote[] = [];
  let next = 0;
  const model = {
    addInline: (note: InlineNote) => {
      const entry: InlineEntry = { ...note, id: `inline:${++next}` };
      entries.set(entry.id, entry);
      return entry;
    },
    updateInline: (entry: InlineEntry) => entries.has(entry.id) && (entries.set(entry.id, entry), true),
  } as unknown as ChatModel;
  const transcript = {
    addNote: (note: Record<string, unknown>) => notes.push({ at: 0, note }),
  } as unknown as Transcript;
  const made = { transcripts: 0 };
  const kept = () => (made.transcripts++, transcript);
  return { chat: new ChatInline(() => ({ model, transcript: kept })), entries, notes, made };
}

describe('inline entry: said again with another outcome', () => {
  it('replaces the entry in place and keeps the new note; one entry read back, as last said', () => {
    const { chat, entries, notes } = fakeChat();
    const entry = chat.add(NOTE);
    chat.update(entry.id, { ...NOTE, outcome: 'kept', kept: 1 });
    assert.deepEqual(
      [...entries.values()].map((e) => e.outcome),
      ['kept'],
    );
    assert.equal(notes.length, 2);
    const read = transcriptEntries([], undefined, notes);
    assert.deepEqual(
      read.map((e) => (e.kind === 'inline' ? [e.id, e.outcome] : [e.kind])),
      [[entry.id, 'kept']],
    );
  });

  it('an entry the chat shown does not hold (another chat is shown now) is left alone', () => {
    const { chat, entries, notes, made } = fakeChat();
    chat.update('inline:7', NOTE);
    assert.equal(entries.size, 0);
    assert.equal(notes.length, 0);
    // A chat started over has no transcript: an update that finds nothing must not make one.
    assert.equal(made.transcripts, 0);
  });
});
