/** The outcome of an operation that can fail: a value, or an error as a value. Nothing in src/edit throws. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** A successful {@link Result}. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failed {@link Result}. */
export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
