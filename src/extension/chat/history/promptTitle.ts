import * as z from 'zod';
import type { Transcript } from '../../../agent';
import type { Attachment } from '../../../protocol/attachments';

// History titles a chat by its first prompt, reading only the head of each transcript: a prompt's line that
// holds a picture (hundreds of kilobytes of data URL) may not fit there whole, and a prompt sent without text
// (a screenshot alone) has no words, while the model never gets an image's name (its `input_image` part holds
// the picture only). So a prompt with an image writes a note beside the conversation, just before its message,
// with the title History shows: its text's first line, else its images' names ("image.png").

/** The most characters of a title History shows. */
const TITLE_MAX = 120;

/** The note of a prompt with an image: the chat's title, if it is the first prompt. */
export const PromptTitle = z.object({ kind: z.literal('promptTitle'), title: z.string().min(1).max(TITLE_MAX) });
export type PromptTitle = z.infer<typeof PromptTitle>;

/** What History shows of a prompt: its first line with words, cut to fit; '' for none. */
export function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').slice(0, TITLE_MAX);
}

/** Keeps the title of a prompt with an image (none for one without: its line is short and read whole). */
export function notePromptTitle(transcript: Transcript, text: string, attachments: readonly Attachment[]): void {
  const names = attachments.flatMap((attachment) => (attachment.kind === 'image' ? [attachment.name] : []));
  if (names.length === 0) return;
  const title = firstLine(text) || names.join(', ').slice(0, TITLE_MAX);
  transcript.addNote({ kind: 'promptTitle', title } satisfies PromptTitle);
}

/** The title a note gives its chat, if it is a prompt's. */
export function titleOfNote(note: unknown): string | undefined {
  const parsed = PromptTitle.safeParse(note);
  return parsed.success ? parsed.data.title : undefined;
}
