import * as z from 'zod';
import { Attachments } from './attachments';

// The prompts a user typed while a task ran: chips above the composer, in the user's hands until they run.
// Each can be edited, removed, moved, steered into the running task, or sent now (the task stopped first).

/** A queued prompt; `steering` once the user steered it and it waits for the task's next tool boundary. */
export const QueuedPrompt = z.object({
  id: z.string(),
  text: z.string(),
  attachments: Attachments.optional(),
  steering: z.boolean().optional(),
});

/** What the user does to a queued prompt. */
export const QueueAction = z.enum(['edit', 'remove', 'up', 'down', 'steer', 'sendNow']);

export type QueuedPrompt = z.infer<typeof QueuedPrompt>;
export type QueueAction = z.infer<typeof QueueAction>;
