import { Transcript } from './transcript';

// Edit and resend: a conversation forked at an earlier message is a new transcript holding the items
// before it, the very same item objects, so that the model transport can chain the fork's first request
// from the response that ended there (chainPolicy.ts matches a chain by its last item) while the socket
// still holds it, and sends the whole context otherwise. The old transcript is left as it was: the branch
// the user left stays whole, a past chat of its own.

/** A new transcript `id` (at `file`) holding the first `at` items of `source`. */
export function forkTranscript(source: Transcript, at: number, id: string, file?: string): Transcript {
  if (at > source.items.length)
    throw new RangeError(`cannot fork at ${at}: the transcript has ${source.items.length} items`);
  const fork = Transcript.create(
    { id, createdAt: new Date().toISOString(), workspace: source.header.workspace, model: source.header.model },
    file,
  );
  fork.append(...source.items.slice(0, at));
  // What was noted before the fork point (an inline edit beside the chat) stays where it was.
  for (const kept of source.notes) if (kept.at <= at) fork.addNote(kept.note, kept.at);
  return fork;
}
