import type { Transcript } from '../../agent';
import type { InlineEntry } from '../../protocol/chatView';
import type { ChatModel } from './chatModel';

// An inline edit done in the editor beside this chat (Ctrl+I, Fix with Loopwire) leaves one short entry in it
// once it has ended (inline/inlineNote.ts). The chat's transcript keeps it as a note — beside the
// conversation, never sent to this chat's model: the inline edit was a chain of its own — and the snapshot
// with the other entries, so a reloaded window and History show it where it happened. Nothing goes to the
// page but the entry: it neither starts a chat nor takes the focus. A chat with no transcript yet (a new one)
// shows it, and its transcript keeps it once the first prompt makes one.

/** The chat as it is when an entry comes: what it shows, and its transcript once it has one. */
export interface InlineChat {
  model: ChatModel;
  transcript: Transcript | undefined;
}

export class ChatInline {
  constructor(private readonly chat: () => InlineChat) {}

  /** An inline edit ended: its entry, shown and kept. */
  add(note: Omit<InlineEntry, 'id'>): InlineEntry {
    const { model, transcript } = this.chat();
    const entry = model.addInline(note);
    transcript?.addNote(entry);
    return entry;
  }

  /** The chat got its transcript (its first prompt): the inline entries it showed before go in first. */
  started(transcript: Transcript): void {
    for (const entry of this.chat().model.all) if (entry.kind === 'inline') transcript.addNote(entry, 0);
  }
}
