import * as z from 'zod';
import type { Transcript } from '../../agent';
import type { Attachment } from '../../protocol/attachments';

// A prompt sent without text (a screenshot alone) is titled in History by its images' names ("image.png"). The
// model never gets a name (the `input_image` part holds the picture only), and History reads only the head of
// each transcript, where a picture's line may not fit whole: so a note beside the conversation keeps the names,
// written just before the prompt's message.

/** The note of a text-less prompt: its images' names, as their chips showed them. */
export const PromptNames = z.object({
  kind: z.literal('promptNames'),
  names: z.array(z.string().min(1).max(256)).min(1),
});
export type PromptNames = z.infer<typeof PromptNames>;

/** Keeps the names of the images of a prompt sent without text; a prompt with text is titled by it. */
export function notePromptNames(transcript: Transcript, text: string, attachments: readonly Attachment[]): void {
  if (text !== '') return;
  const names = attachments.flatMap((attachment) => (attachment.kind === 'image' ? [attachment.name] : []));
  if (names.length > 0) transcript.addNote({ kind: 'promptNames', names } satisfies PromptNames);
}

/** The title a note gives its chat ("image.png, chart.png"), if it is a text-less prompt's. */
export function titleOfNote(note: unknown): string | undefined {
  const parsed = PromptNames.safeParse(note);
  return parsed.success ? parsed.data.names.join(', ') : undefined;
}
