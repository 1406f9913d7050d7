import * as z from 'zod';

/**
 * A streamed server event of `type` with the fields every one has (docs/protocol.md §2.1, §1.4): its own
 * schema file so that the event families (serverEvents.ts, steering.ts) share it without importing each other.
 */
export function streamEvent<const T extends string, Shape extends z.ZodRawShape>(type: T, shape: Shape) {
  return z.looseObject({
    type: z.literal(type),
    sequence_number: z.int().nonnegative(),
    /** Present when the request named a lane (§1.4); absent on the default lane. */
    stream_id: z.string().optional(),
    ...shape,
  });
}
