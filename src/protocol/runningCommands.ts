import * as z from 'zod';

// The commands a chat left running in the background (exec_command past its yield time), as the chat panel
// lists them above the composer: each with a Stop of its own. The host sends the whole list whenever it
// changes; the page counts each one's time on from what the host said, so the host's clock is never read.

export const RunningCommand = z.object({
  /** The session id the model knows it by (write_stdin's session_id). */
  id: z.int().positive(),
  /** The command line as the model wrote it. */
  command: z.string(),
  /** How long it had run when the list was sent. */
  runningMs: z.number().nonnegative(),
});

export type RunningCommand = z.infer<typeof RunningCommand>;
