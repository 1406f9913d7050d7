import * as z from 'zod';
import { Attachments } from './attachments';

// The page's Send (chatView.ts's ViewMessage `send`): what the composer held when the user pressed Enter; and
// Edit and resend (`resend`): what the edited prompt held when it was sent again.

/** Text, or an image among the attachments: what makes a prompt (and an edited one) sendable. */
const hasTextOrImage = (prompt: { text: string; attachments?: readonly { kind: string }[] | undefined }) =>
  prompt.text !== '' || (prompt.attachments ?? []).some((attachment) => attachment.kind === 'image');

/**
 * A prompt, with the composer's chips: what they name is read when it is sent. Its text, or images alone (a
 * screenshot pasted and sent as it is: the picture says what is wrong); never neither — chips of files alone
 * are no prompt.
 */
export const SendPrompt = z
  .object({ type: z.literal('send'), text: z.string().max(100_000), attachments: Attachments.optional() })
  .refine(hasTextOrImage, { message: 'a prompt has text or an image' });

export type SendPrompt = z.infer<typeof SendPrompt>;

/**
 * Edit and resend: the conversation forks at prompt `id`, sent again as `text` with `attachments`, the edited
 * prompt's chips as they stand (absent: the prompt's own, as first sent). Like a prompt, its text or an image:
 * a screenshot sent alone is sent again as it is. `files`: what happens to what Loopwire wrote since (absent:
 * the host asks first, `resendAsk`). The old branch stays in History.
 */
export const ResendPrompt = z
  .object({
    type: z.literal('resend'),
    id: z.string(),
    text: z.string().max(100_000),
    attachments: Attachments.optional(),
    files: z.enum(['restore', 'keep']).optional(),
  })
  .refine(hasTextOrImage, { message: 'an edited prompt has text or an image' });

export type ResendPrompt = z.infer<typeof ResendPrompt>;
