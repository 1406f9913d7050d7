import * as z from 'zod';
import { Attachments } from './attachments';

// The page's Send (chatView.ts's ViewMessage `send`): what the composer held when the user pressed Enter.

/**
 * A prompt, with the composer's chips: what they name is read when it is sent. Its text, or images alone (a
 * screenshot pasted and sent as it is: the picture says what is wrong); never neither — chips of files alone
 * are no prompt.
 */
export const SendPrompt = z
  .object({ type: z.literal('send'), text: z.string().max(100_000), attachments: Attachments.optional() })
  .refine((send) => send.text !== '' || (send.attachments ?? []).some((attachment) => attachment.kind === 'image'), {
    message: 'a prompt has text or an image',
  });

export type SendPrompt = z.infer<typeof SendPrompt>;
