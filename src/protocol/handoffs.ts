import * as z from 'zod';

// A custom agent's handoff as the front ends offer it once one of its tasks has completed (src/agent/customAgents/
// customAgentHandoffs.ts reads the file's): the chat panel's buttons under the answer (hostMessages.ts'
// `handoffs`), and `loopwire exec --json`'s task `done` event (`handoffs`, each with the command that continues it).

export const HandoffOffer = z.object({
  /** The button's text. */
  label: z.string().min(1).max(200),
  /** The agent it switches to: a custom agent's name, or `Loopwire` (the default agent). */
  agent: z.string().min(1).max(200),
  /** What goes in the composer; absent: the composer is left as it is. */
  prompt: z.string().max(20_000).optional(),
  /**
   * The approval mode of the prompt it sends, that prompt alone, where it names VS Code's `ask` (`read-only`) or
   * `plan` (then `agent` is `Loopwire`): never looser than the user's (a `plan` user stays in plan).
   */
  mode: z.enum(['plan', 'read-only']).optional(),
  /** Sent at once rather than put in the composer. */
  send: z.boolean().optional(),
  /** The model for it, as an id of the endpoint; absent: the one picked. */
  model: z.string().max(200).optional(),
  /** `loopwire exec` only: the command that continues the session with it (where a session file is kept). */
  command: z.string().optional(),
});

export type HandoffOffer = z.infer<typeof HandoffOffer>;
