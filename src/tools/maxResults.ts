import { z } from 'zod';

/**
 * The `max_results` argument of a tool that lists what it finds: a whole number from 1 to `atMost`, told to the
 * model with its default (the tool applies it) so it knows when to ask for more.
 */
export function maxResultsArgument(what: string, byDefault: number, atMost: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(atMost)
    .optional()
    .describe(`How many ${what} to return (default ${byDefault}, at most ${atMost}).`);
}
