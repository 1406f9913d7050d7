import * as z from 'zod';

/** The message of the check that keeps an open union's fallback off the types it knows. */
export const KNOWN_TYPE_IN_FALLBACK = 'loopwire:known-type';

/**
 * `known`, or any object whose `type` is none of `knownTypes`, kept as given: the Responses API grows new
 * item, tool and event types faster than any client models them, and both ends must pass those over, not
 * fail. A known `type` is held to its own schema, so a malformed known object is still an error that names
 * its field.
 */
export function openUnion<Known extends z.ZodType & { options: readonly z.ZodType[] }>(
  known: Known,
  knownTypes: Iterable<string> = discriminatorValues(known),
) {
  const types = new Set(knownTypes);
  const fallback = z.looseObject({
    // abort: a known type must not match here, or zod would report this branch instead of the real one.
    type: z.string().refine((type) => !types.has(type), { message: KNOWN_TYPE_IN_FALLBACK, abort: true }),
  });
  return z.union([known, fallback]);
}

/** The `type` values of a discriminated union's options (a missing `type` is not listed). */
export function discriminatorValues(union: { options: readonly z.ZodType[] }): string[] {
  const values: string[] = [];
  for (const option of union.options) {
    const propValues = option._zod.propValues?.['type'];
    for (const value of propValues ?? []) if (typeof value === 'string') values.push(value);
  }
  return values;
}
