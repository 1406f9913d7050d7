import type { Transcript } from '../../../agent';
import type { InlineEntry } from '../../../protocol/chatView';
import type { ChatModel } from '../chatModel';

// An inline edit done in the editor beside this chat (Ctrl+I, Fix with Loopwire) leaves one short entry in it
// once it has ended (inline/inlineNote.ts). The chat's transcript keeps it as a note — beside the
// conversation, never sent to this chat's model: the inline edit was a chain of its own — and the snapshot
// with the other entries, so a reloaded window and History show it where it happened. Nothing goes to the
// page but the entry: it neither starts a task nor takes the focus. A new chat (no prompt yet, so no
// transcript) gets its transcript with its first entry, as with a first prompt: an entry held in memory only
// would go with the window, and a chat of fixes alone is one to find again (History titles it by its first
// fix, sessionHistory.ts); its first prompt, if one comes, goes on in the same transcript.

/**
 * The chat as it is when an entry comes: what it shows, and its transcript (made when asked for a new chat:
 * asked only where an entry is kept, so an update that finds no entry makes none).
 */
export interface InlineChat {
  model: ChatModel;
  transcript: () => Transcript;
}

export class ChatInline {
  constructor(private readonly chat: () => InlineChat) {}

  /** An inline edit ended: its entry, shown and kept. */
  add(note: Omit<InlineEntry, 'id'>): InlineEntry {
    const { model, transcript } = this.chat();
    const entry = model.addInline(note);
    transcript().addNote(entry);
    return entry;
  }

  /**
   * The editor's undo or redo changed an ended edit's outcome: its entry `id` says it now, where the chat shown
   * has it (kept again in the transcript: the last note of an id is the one read back).
   */
  update(id: string, note: Omit<InlineEntry, 'id'>): void {
    const { model, transcript } = this.chat();
    const entry: InlineEntry = { ...note, id };
    if (model.updateInline(entry)) transcript().addNote(entry);
  }
}
